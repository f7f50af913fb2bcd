#include "time_code.h"

#include <math.h>

void hark_time_code_fill(int16_t *samples, long count, int rate) {
    const long slot = rate / 50;
    uint16_t lfsr = 0xACE1u;
    double phase = 0, frequency = 300;
    for (long i = 0; i < count; i++) {
        if (i % slot == 0) {
            /* Galois LFSR, taps 16 14 13 11: period 65535 slots (21 min). */
            unsigned bit = lfsr & 1u;
            lfsr >>= 1;
            if (bit) lfsr ^= 0xB400u;
            frequency = 300.0 + 100.0 * (lfsr % 28);
        }
        samples[i] = (int16_t)lrint(0.25 * 32767.0 * sin(phase));
        phase += 2 * M_PI * frequency / rate;
        if (phase > 2 * M_PI) phase -= 2 * M_PI;
    }
}

long hark_time_code_best_offset(const float *reference, long reference_count, const float *clip, long clip_count,
                                long from, long to, double *score) {
    if (from < 0) from = 0;
    if (to > reference_count - clip_count + 1) to = reference_count - clip_count + 1;
    *score = -1;
    if (from >= to || clip_count <= 0) return -1;
    double clip_energy = 0;
    for (long j = 0; j < clip_count; j++) clip_energy += (double)clip[j] * clip[j];
    double window_energy = 0;
    for (long j = 0; j < clip_count; j++) window_energy += (double)reference[from + j] * reference[from + j];
    long best = -1;
    for (long offset = from; offset < to; offset++) {
        if (offset > from) {
            double gone = reference[offset - 1], come = reference[offset + clip_count - 1];
            window_energy += come * come - gone * gone;
        }
        double dot = 0;
        const float *window = reference + offset;
        for (long j = 0; j < clip_count; j++) dot += window[j] * clip[j];
        double norm = sqrt(clip_energy * (window_energy > 0 ? window_energy : 0));
        double match = norm > 0 ? dot / norm : 0;
        if (match > *score) {
            *score = match;
            best = offset;
        }
    }
    return best;
}
