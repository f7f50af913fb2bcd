// C that Swift cannot write, needing GLib only: libdispatch's main-queue SPI
// (not in any public header), renameat2. GStreamer's are in CGStreamerHelpers.
#ifndef HARK_HELPERS_H
#define HARK_HELPERS_H

#include <glib.h>

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

/* rename(2) that fails with EEXIST instead of replacing an existing `to`
 * (renameat2 with RENAME_NOREPLACE). File systems that cannot do it (FAT,
 * exFAT, many FUSE and network ones) fail with EINVAL. 0, or -1 and errno. */
int hark_rename_noreplace(const char *from, const char *to);

#endif
