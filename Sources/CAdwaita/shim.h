// libadwaita 1.2 for Swift (includes GTK 4).
#ifndef HARK_CADWAITA_SHIM_H
#define HARK_CADWAITA_SHIM_H
#include <adwaita.h>

static inline AdwApplication *hark_adw_application(gpointer instance) { return ADW_APPLICATION(instance); }
static inline AdwApplicationWindow *hark_adw_application_window(gpointer instance) {
    return ADW_APPLICATION_WINDOW(instance);
}
#endif
