#include "hark_graphics_probe.h"
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* GDK's X11 windows take part in the window manager's frame sync: after
 * each frame GDK asks whether the window manager supports
 * _NET_WM_FRAME_DRAWN. With no window manager (Xvfb, kiosks, nested
 * servers) GTK 4.8 finds no answer to keep and asks the X server again,
 * a round trip per frame. Without that support frame sync does nothing,
 * so it is turned off, and on again when a window manager that has it
 * comes. */

#ifdef GDK_WINDOWING_X11
static void apply_frame_sync_support(GdkSurface *surface) {
    GdkX11Screen *screen = gdk_x11_display_get_screen(gdk_surface_get_display(surface));
    gboolean supported = gdk_x11_screen_supports_net_wm_hint(screen, "_NET_WM_FRAME_DRAWN");
    gdk_x11_surface_set_frame_sync_enabled(surface, supported);
}

static void window_manager_changed(GdkX11Screen *screen, gpointer surface) {
    (void)screen;
    apply_frame_sync_support(GDK_SURFACE(surface));
}

static void window_realized(GtkWidget *window, gpointer data) {
    (void)data;
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return;
    apply_frame_sync_support(surface);
    /* Disconnected when the surface goes (a window realised again has a new one). */
    g_signal_connect_object(gdk_x11_display_get_screen(gdk_surface_get_display(surface)),
                            "window-manager-changed", G_CALLBACK(window_manager_changed), surface, 0);
}
#endif

void hark_frame_sync_only_where_supported(GtkWindow *window) {
#ifdef GDK_WINDOWING_X11
    g_signal_connect(window, "realize", G_CALLBACK(window_realized), NULL);
    if (gtk_widget_get_realized(GTK_WIDGET(window))) window_realized(GTK_WIDGET(window), NULL);
#else
    (void)window;
#endif
}
