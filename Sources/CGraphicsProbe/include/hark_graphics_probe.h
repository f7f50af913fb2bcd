#ifndef HARK_GRAPHICS_PROBE_H
#define HARK_GRAPHICS_PROBE_H
#include <gtk/gtk.h>

/* Which OpenGL implementation would draw windows on `display`: writes its
 * GL_RENDERER string (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)") into
 * `renderer` and returns 1 when the CPU draws it (Mesa's llvmpipe, softpipe
 * or swrast), 0 when a GPU does, -1 when there is no OpenGL at all. */
int hark_gl_renderer(GdkDisplay *display, char *renderer, size_t size);

/* Turns GDK's frame sync off on `window` where the window
 * manager does not support it, at each realisation and whenever the window
 * manager changes (see frame_sync.c). */
void hark_frame_sync_only_where_supported(GtkWindow *window);
#endif
