// GStreamer 1.22 for Swift. GstClockTime imports as UInt; macros wrapped below.
#ifndef HARK_CGSTREAMER_SHIM_H
#define HARK_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/audio/audio.h>
#include <gst/app/gstappsink.h>
#include <gst/pbutils/pbutils.h>

static inline GstClockTime hark_gst_second(void) { return GST_SECOND; }
static inline GstClockTime hark_gst_msecond(void) { return GST_MSECOND; }
static inline GstClockTime hark_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
static inline gboolean hark_gst_clock_time_is_valid(GstClockTime t) { return GST_CLOCK_TIME_IS_VALID(t); }

static inline GstBin *hark_gst_bin(gpointer instance) { return GST_BIN(instance); }
static inline GstElement *hark_gst_element(gpointer instance) { return GST_ELEMENT(instance); }
static inline GstObject *hark_gst_object(gpointer instance) { return GST_OBJECT(instance); }

static inline GstMessageType hark_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *hark_gst_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
/* Borrowed; valid while the source object lives. */
static inline const gchar *hark_gst_object_name(GstObject *object) {
    return object ? GST_OBJECT_NAME(object) : NULL;
}
static inline void hark_gst_message_unref(GstMessage *message) { gst_message_unref(message); }
#endif
