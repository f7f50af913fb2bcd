// GLib, GObject and GIO for Swift. Macros that do not import are wrapped
// here as static inline functions, named hark_<what the macro does>.
#ifndef HARK_CGLIB_SHIM_H
#define HARK_CGLIB_SHIM_H

#include <glib.h>
#include <glib-object.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <libintl.h>
#include <locale.h>

/* g_signal_connect is a macro over g_signal_connect_data. */
static inline gulong hark_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, (GConnectFlags)0);
}

/* g_signal_emit_by_name is variadic: emit a signal with no arguments that returns gboolean. */
static inline gboolean hark_signal_emit_returning_bool(gpointer instance, const gchar *signal) {
    gboolean result = FALSE;
    g_signal_emit_by_name(instance, signal, &result);
    return result;
}

static inline GType hark_type_string(void) { return G_TYPE_STRING; }

static inline gboolean hark_is_object(gpointer instance) {
    return instance != NULL && G_IS_OBJECT(instance);
}

static inline gboolean hark_object_is_floating(gpointer object) {
    return g_object_is_floating(object);
}

static inline const gchar *hark_object_type_name(gpointer object) {
    return G_OBJECT_TYPE_NAME(object);
}

/* g_object_set is variadic: one typed setter per value kind. */
static inline void hark_object_set_string(gpointer object, const gchar *property, const gchar *value) {
    g_object_set(object, property, value, NULL);
}
static inline void hark_object_set_int(gpointer object, const gchar *property, gint value) {
    g_object_set(object, property, value, NULL);
}
static inline void hark_object_set_uint64(gpointer object, const gchar *property, guint64 value) {
    g_object_set(object, property, value, NULL);
}
static inline void hark_object_set_bool(gpointer object, const gchar *property, gboolean value) {
    g_object_set(object, property, value, NULL);
}
static inline void hark_object_set_double(gpointer object, const gchar *property, gdouble value) {
    g_object_set(object, property, value, NULL);
}
static inline void hark_object_set_object(gpointer object, const gchar *property, gpointer value) {
    g_object_set(object, property, value, NULL);
}

static inline gchar *hark_object_get_string(gpointer object, const gchar *property) {
    gchar *value = NULL;
    g_object_get(object, property, &value, NULL);
    return value;
}
static inline gboolean hark_object_get_bool(gpointer object, const gchar *property) {
    gboolean value = FALSE;
    g_object_get(object, property, &value, NULL);
    return value;
}
static inline gdouble hark_object_get_double(gpointer object, const gchar *property) {
    gdouble value = 0;
    g_object_get(object, property, &value, NULL);
    return value;
}

#endif
