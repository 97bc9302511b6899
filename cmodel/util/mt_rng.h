/* SPDX-License-Identifier: Apache-2.0
 * mt_rng: the project's one pseudo-random generator, xorshift32 (Marsaglia 2003, shifts
 * 13/17/5). Node inputs (docs/reference/formats.md), memory ready/latency draws and every test's
 * random traffic use it, so a seed means the same sequence in C, C++ and the SV benches
 * (the SV benches in tb/rtl write the same three shifts). The state must not be 0. */
#ifndef MT_RNG_H
#define MT_RNG_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

static inline uint32_t mt_xs32(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *s = x;
}

/* Jumps: xorshift32 is linear over GF(2), so k steps are one 32x32 bit matrix, M^k. pow[j]
 * holds M^(2^j) as 32 columns (column b: the state after 2^j steps from state 1 << b), so a
 * jump of any k costs at most 64 matrix-vector products. Lets a node's inputs be generated
 * from any word on (mt_ref_inputs_at) without the draws before it. */
typedef struct {
  uint32_t pow[64][32];
} mt_xs32_jumps;

static inline uint32_t mt_xs32_apply(const uint32_t *col, uint32_t v) {
  uint32_t r = 0;
  for (; v; v &= v - 1u) r ^= col[__builtin_ctz(v)];
  return r;
}
static inline void mt_xs32_jumps_init(mt_xs32_jumps *J) {
  for (int b = 0; b < 32; b++) {
    uint32_t x = (uint32_t)1 << b;
    J->pow[0][b] = mt_xs32(&x);
  }
  for (int j = 1; j < 64; j++)
    for (int b = 0; b < 32; b++) J->pow[j][b] = mt_xs32_apply(J->pow[j - 1], J->pow[j - 1][b]);
}
/* The state k steps after s (the state mt_xs32 leaves after k calls). */
static inline uint32_t mt_xs32_jump(const mt_xs32_jumps *J, uint32_t s, uint64_t k) {
  for (int j = 0; k; j++, k >>= 1)
    if (k & 1u) s = mt_xs32_apply(J->pow[j], s);
  return s;
}

#ifdef __cplusplus
}
#endif
#endif
