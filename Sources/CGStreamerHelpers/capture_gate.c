#include "hark_gstreamer_helpers.h"

#include <gst/audio/audio.h>

/* The recorder's gate, on the raw audio right after the source: it keeps
 * exactly the audio captured while the user was recording, judged by each
 * buffer's capture time (its running time), not by when it arrives. So Pause,
 * Resume and Stop take effect at the moment they were pressed, however late
 * the sound server delivers: audio captured before a Pause or Stop but still
 * on its way is kept, audio captured while paused is dropped, and the
 * timestamps after a pause are moved back so that the stream has no gap.
 * Buffers crossing a boundary are cut there. After Stop, an end-of-stream
 * follows the last kept audio.
 *
 * The probe runs on the streaming thread; pause, resume and stop are called
 * from the main thread, with the running time of the press. */

#define MAX_PAUSES 256

struct HarkCaptureGate {
    GMutex lock;
    /* Excluded stretches of running time: [start, end), end -1 while open. */
    gint64 pause_start[MAX_PAUSES];
    gint64 pause_end[MAX_PAUSES];
    int pauses;
    gint64 stop_at; /* -1 while recording goes on */
    gboolean ended;    /* the last kept audio has passed */
    gboolean eos_sent;
};

/* Total length of the pauses that ended at or before `time`. */
static gint64 shift_before(const HarkCaptureGate *gate, gint64 time) {
    gint64 shift = 0;
    for (int i = 0; i < gate->pauses; i++) {
        if (gate->pause_end[i] >= 0 && gate->pause_end[i] <= time) shift += gate->pause_end[i] - gate->pause_start[i];
    }
    return shift;
}

/* Whether `time` is kept: not inside a pause, not at or after the stop. */
static gboolean kept(const HarkCaptureGate *gate, gint64 time) {
    if (gate->stop_at >= 0 && time >= gate->stop_at) return FALSE;
    for (int i = 0; i < gate->pauses; i++) {
        if (time >= gate->pause_start[i] && (gate->pause_end[i] < 0 || time < gate->pause_end[i])) return FALSE;
    }
    return TRUE;
}

static GstPadProbeReturn on_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    HarkCaptureGate *gate = data;
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    if (buffer == NULL || !GST_BUFFER_PTS_IS_VALID(buffer)) return GST_PAD_PROBE_OK;

    GstEvent *segment_event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
    if (segment_event == NULL) return GST_PAD_PROBE_OK;
    const GstSegment *segment;
    gst_event_parse_segment(segment_event, &segment);
    GstClockTime running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    gst_event_unref(segment_event);
    GstAudioInfo audio;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    gboolean known = caps != NULL && gst_audio_info_from_caps(&audio, caps);
    if (caps) gst_caps_unref(caps);
    if (!GST_CLOCK_TIME_IS_VALID(running) || !known || GST_AUDIO_INFO_BPF(&audio) == 0 || GST_AUDIO_INFO_RATE(&audio) == 0)
        return GST_PAD_PROBE_OK;

    const int rate = GST_AUDIO_INFO_RATE(&audio), bpf = GST_AUDIO_INFO_BPF(&audio);
    const guint64 frames = gst_buffer_get_size(buffer) / bpf;

    g_mutex_lock(&gate->lock);
    if (gate->ended) {
        /* The end of stream follows the last kept buffer (with the next one:
         * a probe cannot push a buffer through its own pad). */
        gboolean send = !gate->eos_sent;
        gate->eos_sent = TRUE;
        g_mutex_unlock(&gate->lock);
        if (send) gst_pad_push_event(pad, gst_event_new_eos());
        return GST_PAD_PROBE_DROP;
    }
    /* Which frames to keep: a run of kept frames ends at a boundary. Frames
     * are judged by their own capture time. */
    GstBuffer *out = NULL;
    guint64 first_kept = G_MAXUINT64;
    guint64 frame = 0;
    while (frame < frames) {
        gint64 time = (gint64)running + (gint64)gst_util_uint64_scale_int(frame, GST_SECOND, rate);
        gboolean keep = kept(gate, time);
        guint64 run_end = frame + 1;
        while (run_end < frames &&
               kept(gate, (gint64)running + (gint64)gst_util_uint64_scale_int(run_end, GST_SECOND, rate)) == keep)
            run_end++;
        if (keep) {
            if (first_kept == G_MAXUINT64) first_kept = frame;
            GstBuffer *part = gst_buffer_copy_region(buffer, GST_BUFFER_COPY_MEMORY, frame * bpf, (run_end - frame) * bpf);
            out = out ? gst_buffer_append(out, part) : part;
        }
        frame = run_end;
    }
    gboolean past_stop = gate->stop_at >= 0 &&
        (gint64)running + (gint64)gst_util_uint64_scale_int(frames, GST_SECOND, rate) >= gate->stop_at;
    gint64 shift = 0;
    if (out) shift = shift_before(gate, (gint64)running + (gint64)gst_util_uint64_scale_int(first_kept, GST_SECOND, rate));
    gboolean send_eos = FALSE;
    if (past_stop) {
        gate->ended = TRUE;
        send_eos = out == NULL;
        gate->eos_sent = send_eos;
    }
    g_mutex_unlock(&gate->lock);

    if (out == NULL) {
        if (send_eos) gst_pad_push_event(pad, gst_event_new_eos());
        return GST_PAD_PROBE_DROP;
    }
    /* Unchanged: pass it on as it came. */
    if (first_kept == 0 && shift == 0 && gst_buffer_get_size(out) == gst_buffer_get_size(buffer)) {
        gst_buffer_unref(out);
        return GST_PAD_PROBE_OK;
    }
    guint64 kept_frames = gst_buffer_get_size(out) / bpf;
    GST_BUFFER_PTS(out) = GST_BUFFER_PTS(buffer) + gst_util_uint64_scale_int(first_kept, GST_SECOND, rate) - shift;
    GST_BUFFER_DTS(out) = GST_CLOCK_TIME_NONE;
    GST_BUFFER_DURATION(out) = gst_util_uint64_scale_int(kept_frames, GST_SECOND, rate);
    GST_BUFFER_OFFSET(out) = GST_BUFFER_OFFSET_NONE;
    GST_BUFFER_OFFSET_END(out) = GST_BUFFER_OFFSET_NONE;
    if (shift > 0 || first_kept > 0) GST_BUFFER_FLAG_UNSET(out, GST_BUFFER_FLAG_DISCONT);
    gst_buffer_unref(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = out;
    return GST_PAD_PROBE_OK;
}

static void gate_free(gpointer data) {
    HarkCaptureGate *gate = data;
    g_mutex_clear(&gate->lock);
    g_free(gate);
}

HarkCaptureGate *hark_capture_gate_attach(GstPad *pad) {
    HarkCaptureGate *gate = g_new0(HarkCaptureGate, 1);
    g_mutex_init(&gate->lock);
    gate->stop_at = -1;
    /* The pad owns the gate: freed with the probe, when the pipeline goes. */
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, gate, gate_free);
    return gate;
}

gboolean hark_capture_gate_pause(HarkCaptureGate *gate, GstClockTime running_time) {
    g_mutex_lock(&gate->lock);
    gboolean done = gate->pauses < MAX_PAUSES && (gate->pauses == 0 || gate->pause_end[gate->pauses - 1] >= 0);
    if (done) {
        gate->pause_start[gate->pauses] = (gint64)running_time;
        gate->pause_end[gate->pauses] = -1;
        gate->pauses++;
    }
    g_mutex_unlock(&gate->lock);
    return done;
}

void hark_capture_gate_resume(HarkCaptureGate *gate, GstClockTime running_time) {
    g_mutex_lock(&gate->lock);
    if (gate->pauses > 0 && gate->pause_end[gate->pauses - 1] < 0) {
        gint64 end = (gint64)running_time;
        if (end < gate->pause_start[gate->pauses - 1]) end = gate->pause_start[gate->pauses - 1];
        gate->pause_end[gate->pauses - 1] = end;
    }
    g_mutex_unlock(&gate->lock);
}

void hark_capture_gate_stop(HarkCaptureGate *gate, GstClockTime running_time) {
    g_mutex_lock(&gate->lock);
    if (gate->stop_at < 0 || (gint64)running_time < gate->stop_at) gate->stop_at = (gint64)running_time;
    g_mutex_unlock(&gate->lock);
}

GstClockTime hark_element_running_time(GstElement *element) {
    GstClock *clock = gst_element_get_clock(element);
    if (clock == NULL) return GST_CLOCK_TIME_NONE;
    GstClockTime now = gst_clock_get_time(clock);
    gst_object_unref(clock);
    GstClockTime base = gst_element_get_base_time(element);
    return now >= base ? now - base : 0;
}
