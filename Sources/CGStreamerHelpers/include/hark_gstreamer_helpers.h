// C that Swift cannot write for GStreamer: reads of GValueArray fields in
// GStreamer structures, and the recorder's pad probes (the capture gate, the
// duration limit), which run on the streaming thread, and Skip Silence's fades. Only AudioEngine links it.
#ifndef HARK_GSTREAMER_HELPERS_H
#define HARK_GSTREAMER_HELPERS_H

#include <gst/gst.h>

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

/* Skip Silence's fades on `volume` (a volume element that sees the file's own
 * time): out over `fade` seconds up to each starts[i], silent to ends[i] and
 * `hold` seconds more, in over `fade` seconds after that. Count 0 removes
 * them (volume 1). */
void hark_set_cut_fades(GstElement *volume, const gdouble *starts, const gdouble *ends, guint count,
                        gdouble fade, gdouble hold);

/* The element named `name` in playbin's audio filter (a bin); borrowed, valid
 * while the playbin lives; NULL when there is none. */
GstElement *hark_playbin_filter_child(GstElement *playbin, const gchar *name);

#endif
