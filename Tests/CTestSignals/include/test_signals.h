// Test-only: emits signals with arguments, which needs the variadic
// g_signal_emit_by_name that Swift cannot call.
#ifndef HARK_TEST_SIGNALS_H
#define HARK_TEST_SIGNALS_H
#include <glib-object.h>

void hark_test_emit_int_double_double(gpointer instance, const char *signal, gint a, gdouble b, gdouble c);
void hark_test_emit_double_double(gpointer instance, const char *signal, gdouble a, gdouble b);
gboolean hark_test_emit_key(gpointer instance, const char *signal, guint keyval, guint keycode, guint state);
void hark_test_emit_int(gpointer instance, const char *signal, gint value);
void hark_test_emit(gpointer instance, const char *signal);
gboolean hark_test_emit_pointer_double_double(gpointer instance, const char *signal, gpointer value, gdouble x, gdouble y);
gpointer hark_test_emit_double_double_returning_pointer(gpointer instance, const char *signal, gdouble x, gdouble y);
#endif
