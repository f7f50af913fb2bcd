#include "hark_graphics_probe.h"
#include <epoxy/gl.h>
#include <string.h>

int hark_gl_renderer(GdkDisplay *display, char *renderer, size_t size) {
    if (size > 0) renderer[0] = '\0';
    GError *error = NULL;
    if (!gdk_display_prepare_gl(display, &error)) {
        g_clear_error(&error);
        return -1;
    }
    GdkGLContext *context = gdk_display_create_gl_context(display, &error);
    if (context == NULL || !gdk_gl_context_realize(context, &error)) {
        g_clear_error(&error);
        g_clear_object(&context);
        return -1;
    }
    GdkGLContext *previous = gdk_gl_context_get_current();
    if (previous) g_object_ref(previous);
    gdk_gl_context_make_current(context);
    const char *name = (const char *) glGetString(GL_RENDERER);
    if (name && size > 0) g_strlcpy(renderer, name, size);
    if (previous) {
        gdk_gl_context_make_current(previous);
        g_object_unref(previous);
    } else {
        gdk_gl_context_clear_current();
    }
    g_object_unref(context);
    if (!name) return -1;
    return (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") || strstr(renderer, "swrast")
            || strstr(renderer, "Software Rasterizer")) ? 1 : 0;
}
