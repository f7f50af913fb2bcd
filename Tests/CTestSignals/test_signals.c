#include "test_signals.h"

void hark_test_emit_int_double_double(gpointer instance, const char *signal, gint a, gdouble b, gdouble c) {
    g_signal_emit_by_name(instance, signal, a, b, c);
}

void hark_test_emit_double_double(gpointer instance, const char *signal, gdouble a, gdouble b) {
    g_signal_emit_by_name(instance, signal, a, b);
}

gboolean hark_test_emit_key(gpointer instance, const char *signal, guint keyval, guint keycode, guint state) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(instance, signal, keyval, keycode, state, &handled);
    return handled;
}

void hark_test_emit_int(gpointer instance, const char *signal, gint value) {
    g_signal_emit_by_name(instance, signal, value);
}

gboolean hark_test_emit_pointer_double_double(gpointer instance, const char *signal, gpointer value, gdouble x, gdouble y) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(instance, signal, value, x, y, &handled);
    return handled;
}

gpointer hark_test_emit_double_double_returning_pointer(gpointer instance, const char *signal, gdouble x, gdouble y) {
    gpointer result = NULL;
    g_signal_emit_by_name(instance, signal, x, y, &result);
    return result;
}

void hark_test_emit(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}
