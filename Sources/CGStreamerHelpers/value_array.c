#include "hark_gstreamer_helpers.h"

#include <math.h>

/* GValueArray is deprecated, yet it is what `level` and other elements put in
 * their messages; reading it needs the deprecated accessors. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS

static const GValueArray *double_array(const GstStructure *structure, const gchar *field) {
    if (structure == NULL || field == NULL) return NULL;
    const GValue *value = gst_structure_get_value(structure, field);
    if (value == NULL || !G_VALUE_HOLDS(value, g_value_array_get_type())) return NULL;
    const GValueArray *array = g_value_get_boxed(value);
    if (array == NULL) return NULL;
    for (guint i = 0; i < array->n_values; i++) {
        if (!G_VALUE_HOLDS_DOUBLE(g_value_array_get_nth((GValueArray *)array, i))) return NULL;
    }
    return array;
}

gint hark_structure_double_array_length(const GstStructure *structure, const gchar *field) {
    const GValueArray *array = double_array(structure, field);
    return array ? (gint)array->n_values : -1;
}

gdouble hark_structure_double_array_get(const GstStructure *structure, const gchar *field, guint index) {
    const GValueArray *array = double_array(structure, field);
    if (array == NULL || index >= array->n_values) return NAN;
    return g_value_get_double(g_value_array_get_nth((GValueArray *)array, index));
}

G_GNUC_END_IGNORE_DEPRECATIONS
