#include "hark_gstreamer_helpers.h"

#include <gst/audio/audio.h>

/* Ends a raw-audio stream after exactly `limit` of audio has passed a pad: the
 * buffer that crosses the limit is cut to it, later buffers are dropped, and
 * an end-of-stream follows with the next one (the recorder's own stop, sent
 * when it sees the limit reached, ends it too). Runs on the streaming thread,
 * so the cut does not depend on how soon the main thread gets round to it. */

typedef struct {
    GstClockTime limit;
    GstClockTime passed;
    gboolean ended;
    gboolean eos_sent;
} DurationLimit;

static GstPadProbeReturn on_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    DurationLimit *state = data;
    if (state->ended) {
        /* The buffer after the cut: nothing more goes through, and the end
         * of stream follows the cut buffer (once). */
        if (!state->eos_sent) {
            state->eos_sent = TRUE;
            gst_pad_push_event(pad, gst_event_new_eos());
        }
        return GST_PAD_PROBE_DROP;
    }
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (buffer == NULL) return GST_PAD_PROBE_OK;

    GstAudioInfo audio;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gboolean known = caps != NULL && gst_audio_info_from_caps(&audio, caps);
    if (caps) gst_caps_unref(caps);
    if (!known || GST_AUDIO_INFO_BPF(&audio) == 0 || GST_AUDIO_INFO_RATE(&audio) == 0) return GST_PAD_PROBE_OK;

    guint64 frames = gst_buffer_get_size(buffer) / GST_AUDIO_INFO_BPF(&audio);
    GstClockTime duration = gst_util_uint64_scale_int(frames, GST_SECOND, GST_AUDIO_INFO_RATE(&audio));
    if (state->passed + duration < state->limit) {
        state->passed += duration;
        return GST_PAD_PROBE_OK;
    }
    /* This buffer reaches the limit: keep only the frames up to it. */
    guint64 keep = gst_util_uint64_scale_int_round(state->limit - state->passed, GST_AUDIO_INFO_RATE(&audio), GST_SECOND);
    state->passed = state->limit;
    state->ended = TRUE;
    if (keep < frames) {
        GstBuffer *cut = gst_buffer_copy_region(buffer, GST_BUFFER_COPY_ALL, 0, keep * GST_AUDIO_INFO_BPF(&audio));
        GST_BUFFER_DURATION(cut) = gst_util_uint64_scale_int(keep, GST_SECOND, GST_AUDIO_INFO_RATE(&audio));
        gst_buffer_unref(buffer);
        GST_PAD_PROBE_INFO_DATA(info) = cut;
    }
    return GST_PAD_PROBE_OK;
}

void hark_limit_duration(GstPad *pad, GstClockTime limit) {
    DurationLimit *state = g_new0(DurationLimit, 1);
    state->limit = limit;
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, state, g_free);
}
