// C that Swift cannot write: libdispatch's main-queue SPI (not in any public
// header), reads of GValueArray fields in GStreamer structures, renameat2.
#ifndef HARK_HELPERS_H
#define HARK_HELPERS_H

#include <glib.h>
#include <gst/gst.h>

/* Adds a source to GLib's default main context that drains libdispatch's main
 * queue whenever it has work, so Swift's MainActor runs inside the GLib loop.
 * Idempotent: returns the same source id when called again. Call it on the
 * process's main thread before the loop runs. */
guint hark_main_queue_bridge_install(void);

/* TRUE while main-actor work queued through the bridge is running: a GLib
 * loop nested in it could not run any other main-actor work (libdispatch does
 * not drain the main queue re-entrantly). */
gboolean hark_main_queue_is_draining(void);

/* Drains libdispatch's main queue now, on the calling (main) thread. */
void hark_main_queue_drain(void);

/* TRUE on the process's first thread, where GTK and the GLib loop live. */
gboolean hark_is_process_main_thread(void);

/* Number of entries of a GValueArray field (e.g. "rms" in a level message), or
 * -1 when the field is missing or is not an array of doubles. */
gint hark_structure_double_array_length(const GstStructure *structure, const gchar *field);

/* Entry `index` of a GValueArray of doubles; NAN when out of range. */
gdouble hark_structure_double_array_get(const GstStructure *structure, const gchar *field, guint index);

/* Ends the raw-audio stream through `pad` (a source pad) after exactly `limit`
 * nanoseconds of audio: the crossing buffer is cut, an EOS follows it. */
void hark_limit_duration(GstPad *pad, GstClockTime limit);

/* The recorder's gate on `pad` (the raw audio's source pad): keeps the audio
 * captured between the presses of Record, Pause, Resume and Stop, judged by
 * capture time (running time); closes the gaps of pauses; ends the stream
 * after Stop. The gate lives as long as the pad's probe: call these only
 * while the pipeline exists. Pause returns FALSE when it cannot (already
 * paused, or too many pauses: then the caller pauses the pipeline). */
typedef struct HarkCaptureGate HarkCaptureGate;
HarkCaptureGate *hark_capture_gate_attach(GstPad *pad);
gboolean hark_capture_gate_pause(HarkCaptureGate *gate, GstClockTime running_time);
void hark_capture_gate_resume(HarkCaptureGate *gate, GstClockTime running_time);
void hark_capture_gate_stop(HarkCaptureGate *gate, GstClockTime running_time);

/* The element's running time now (its clock less its base time), or
 * GST_CLOCK_TIME_NONE when it has no clock yet. */
GstClockTime hark_element_running_time(GstElement *element);

/* rename(2) that fails with EEXIST instead of replacing an existing `to`
 * (renameat2 with RENAME_NOREPLACE). File systems that cannot do it (FAT,
 * exFAT, many FUSE and network ones) fail with EINVAL. 0, or -1 and errno. */
int hark_rename_noreplace(const char *from, const char *to);

#endif
