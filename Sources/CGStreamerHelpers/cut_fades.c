#include "hark_gstreamer_helpers.h"

#include <gst/controller/gstdirectcontrolbinding.h>
#include <gst/controller/gstinterpolationcontrolsource.h>

/* Skip Silence's fades: the `volume` element after the speed change (whose
 * segment still maps to the file's own time) is driven by an interpolation
 * control source keyed in that time, so each cut fades out just before it and
 * in just after it, sample by sample on the streaming thread, however late
 * the main thread makes the jump: the volume stays at zero across the stretch
 * left out and for `hold` after it, which mutes what scaletempo still held
 * from before the jump (it keeps its queue across a flush). */
void hark_set_cut_fades(GstElement *volume, const gdouble *starts, const gdouble *ends, guint count,
                        gdouble fade, gdouble hold) {
    GstControlBinding *old = gst_object_get_control_binding(GST_OBJECT(volume), "volume");
    if (old != NULL) {
        gst_object_remove_control_binding(GST_OBJECT(volume), old);
        gst_object_unref(old);
    }
    if (count == 0) {
        g_object_set(volume, "volume", 1.0, NULL);
        return;
    }
    GstControlSource *source = gst_interpolation_control_source_new();
    g_object_set(source, "mode", GST_INTERPOLATION_MODE_LINEAR, NULL);
    GstTimedValueControlSource *values = GST_TIMED_VALUE_CONTROL_SOURCE(source);
    gst_timed_value_control_source_set(values, 0, 1.0);
    for (guint i = 0; i < count; i++) {
        GstClockTime start = (GstClockTime)(starts[i] * GST_SECOND);
        GstClockTime end = (GstClockTime)(ends[i] * GST_SECOND);
        GstClockTime length = (GstClockTime)(fade * GST_SECOND);
        GstClockTime silent_until = end + (GstClockTime)(hold * GST_SECOND);
        gst_timed_value_control_source_set(values, start > length ? start - length : 0, 1.0);
        gst_timed_value_control_source_set(values, start, 0.0);
        gst_timed_value_control_source_set(values, silent_until, 0.0);
        gst_timed_value_control_source_set(values, silent_until + length, 1.0);
    }
    gst_object_add_control_binding(GST_OBJECT(volume), gst_direct_control_binding_new_absolute(GST_OBJECT(volume), "volume", source));
    gst_object_unref(source);
}

GstElement *hark_playbin_filter_child(GstElement *playbin, const gchar *name) {
    GstElement *filter = NULL;
    g_object_get(playbin, "audio-filter", &filter, NULL);
    if (filter == NULL) return NULL;
    GstElement *found = GST_IS_BIN(filter) ? gst_bin_get_by_name(GST_BIN(filter), name) : NULL;
    gst_object_unref(filter);
    if (found != NULL) gst_object_unref(found); /* the filter bin, which playbin holds, keeps it alive */
    return found;
}
