// Test-only: a signal that tells the time, and where a clip of it lies.
// In C because a debug build of Swift is too slow for cross-correlation.
#ifndef HARK_TIME_CODE_H
#define HARK_TIME_CODE_H
#include <stdint.h>

/* The time-code signal: 20 ms slots, each a sine whose pitch (300–3000 Hz)
 * follows a maximal-length 16-bit LFSR sequence, with continuous phase, at
 * about -12 dBFS. No 20 ms slot repeats its neighbours, so any 100 ms of it
 * lies at one place only, and it survives a voice codec. */
void hark_time_code_fill(int16_t *samples, long count, int rate);

/* The offset in [from, to) of `reference` where `clip` matches best
 * (normalised cross-correlation); the match (-1…1) in *score. -1 when the
 * range holds no full window. */
long hark_time_code_best_offset(const float *reference, long reference_count, const float *clip, long clip_count,
                                long from, long to, double *score);
#endif
