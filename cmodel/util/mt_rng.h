/* SPDX-License-Identifier: Apache-2.0
 * mt_rng: the project's one pseudo-random generator, xorshift32 (Marsaglia 2003, shifts
 * 13/17/5). Node inputs (docs/formats.md), memory ready/latency draws and every test's
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

#ifdef __cplusplus
}
#endif
#endif
