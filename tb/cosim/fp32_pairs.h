/* SPDX-License-Identifier: Apache-2.0
 * fp32_pairs.h: operand generators for the fp32 adder tests, shared (header-only, C and
 * C++) by tb/cmodel/util/test_fp32.c, tb/cmodel/util/fp32_soak.c and tb/cosim/fp32_add_harness.cpp.
 *  - fp32_specials(): one list of special-class values (zeros, subnormals, min/max normal,
 *    one, infinities, quiet and signalling NaNs of both signs, tie/overflow helpers);
 *    tests run every ordered pair of it.
 *  - fp32_pair(rng, mode): a random pair from one of FP32_NMODES distributions.
 *  - fp32_host_add(a, b): the reference, the host FPU's binary32 sum (SSE, no FTZ/DAZ);
 *    fp32_host_expect(a, b): the same with every NaN as the model's quiet NaN 0x7FC00000.
 * The PRNG is splitmix64, so every consumer draws the same pairs for the same seed. */
#ifndef FP32_PAIRS_H
#define FP32_PAIRS_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>

static inline uint64_t fp32_rng_next(uint64_t *s) {
  uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
static inline uint32_t fp32_rng32(uint64_t *s) { return (uint32_t)(fp32_rng_next(s) >> 32); }

static inline uint32_t fp32_make(uint32_t sign, uint32_t exp, uint32_t frac) {
  return ((sign & 1u) << 31) | ((exp & 0xFFu) << 23) | (frac & 0x7FFFFFu);
}

/* Special values; returns the count (<= cap). Random subnormals come from *s. */
static inline size_t fp32_specials(uint32_t *v, size_t cap, uint64_t *s) {
  static const uint32_t fixed[] = {
    0x00000000u,
    /* +0 */ 0x00000001u, /* min subnormal */
    0x00000002u,
    0x00000003u,
    0x007FFFFFu, /* max subnormal */
    0x007FFFFEu,
    0x00400000u,
    0x00400001u,
    0x00800000u,
    /* min normal */ 0x00800001u,
    0x00FFFFFFu,
    0x01000000u,
    0x7F7FFFFFu,
    /* max normal */ 0x7F7FFFFEu,
    0x7F000000u,
    0x7EFFFFFFu,
    0x3F800000u,
    /* 1 */ 0x3F800001u,
    0x3FFFFFFFu,
    0x40000000u,
    0x33800000u,
    /* 2^-24: half ulp of 1 */ 0x33800001u,
    0x337FFFFFu,
    0x34000000u,
    /* 2^-23: ulp of 1 */ 0x33000000u, /* 2^-25 */
    0x73000000u,
    /* 2^103: half ulp of max normal */ 0x73000001u,
    0x72FFFFFFu,
    0x73800000u, /* 2^104: ulp of max */
    0x4B000000u,
    /* 2^23 */ 0x4B800000u,
    0x3EFFFFFFu,
    0x3F000000u,
    0x7F800000u, /* +inf */
    0x7FC00000u,
    /* qNaN */ 0x7FC00001u,
    0x7FFFFFFFu,
    0x7F800001u,
    /* sNaN */ 0x7FA00000u,
    0x7FBFFFFFu,
  };
  size_t n = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    if (n + 2 > cap) return n;
    v[n++] = fixed[i];
    v[n++] = fixed[i] | 0x80000000u; /* negative twin (-0, -inf, negative NaNs, ...) */
  }
  for (int i = 0; i < 8 && n + 2 <= cap; i++) { /* random subnormals, both signs */
    uint32_t f = fp32_rng32(s) & 0x7FFFFFu;
    if (f == 0) f = 1;
    v[n++] = f;
    v[n++] = f | 0x80000000u;
  }
  for (int i = 0; i < 6 && n + 2 <= cap; i++) { /* random normals, both signs */
    uint32_t x = fp32_make(0, 1u + fp32_rng32(s) % 254u, fp32_rng32(s));
    v[n++] = x;
    v[n++] = x | 0x80000000u;
  }
  return n;
}

enum {
  FP32_M_UNIFORM = 0, /* any 32-bit patterns (includes NaN/inf now and then) */
  FP32_M_CLOSE,       /* exponents differ by 0..2: carries, cancellation */
  FP32_M_SPREAD,      /* exponents differ by 0..30: alignment, sticky */
  FP32_M_SUBNORMAL,   /* mostly subnormal operands, some tiny normals */
  FP32_M_CANCEL,      /* b = -a with the low fraction bits perturbed */
  FP32_M_TIE,         /* small operand exactly at / next to half an ulp of the big one */
  FP32_M_OVERFLOW,    /* exponents 250..254, same signs mostly */
  FP32_NMODES
};

static inline void fp32_pair(uint64_t *s, int mode, uint32_t *pa, uint32_t *pb) {
  const uint64_t r = fp32_rng_next(s);
  const uint32_t sa = (uint32_t)(r & 1u), sb = (uint32_t)((r >> 1) & 1u);
  const uint32_t fa = fp32_rng32(s), fb = fp32_rng32(s);
  uint32_t a, b;
  switch (mode) {
  default:
  case FP32_M_UNIFORM:
    a = fa;
    b = fb;
    break;
  case FP32_M_CLOSE: {
    uint32_t ea = 1u + (uint32_t)((r >> 8) % 254u);
    int32_t db = (int32_t)((r >> 20) % 5u) - 2;
    int32_t eb = (int32_t)ea + db;
    if (eb < 0) eb = 0;
    if (eb > 254) eb = 254;
    a = fp32_make(sa, ea, fa);
    b = fp32_make(sb, (uint32_t)eb, fb);
    break;
  }
  case FP32_M_SPREAD: {
    uint32_t ea = (uint32_t)((r >> 8) % 255u);
    int32_t d = (int32_t)((r >> 20) % 31u);
    int32_t eb = ((r >> 30) & 1u) ? (int32_t)ea - d : (int32_t)ea + d;
    if (eb < 0) eb = 0;
    if (eb > 254) eb = 254;
    a = fp32_make(sa, ea, fa);
    b = fp32_make(sb, (uint32_t)eb, fb);
    break;
  }
  case FP32_M_SUBNORMAL: {
    uint32_t ea = ((r >> 8) & 3u) ? 0u : 1u + (uint32_t)((r >> 10) % 3u);
    uint32_t eb = ((r >> 12) & 3u) ? 0u : 1u + (uint32_t)((r >> 14) % 3u);
    /* vary the fraction's magnitude so tiny subnormals show up too */
    uint32_t ka = (uint32_t)((r >> 16) % 24u), kb = (uint32_t)((r >> 21) % 24u);
    a = fp32_make(sa, ea, fa >> (ea ? 0u : ka));
    b = fp32_make(sb, eb, fb >> (eb ? 0u : kb));
    break;
  }
  case FP32_M_CANCEL: {
    uint32_t ea = (uint32_t)((r >> 8) % 255u);
    a = fp32_make(sa, ea, fa);
    uint32_t k = (uint32_t)((r >> 20) % 25u); /* perturb k low bits */
    uint32_t mask = k ? ((1u << k) - 1u) : 0u;
    uint32_t mag = (a & 0x7FFFFFFFu) ^ (fb & mask);
    if (((r >> 26) & 3u) == 0 && ea > 0) mag = (a & 0x7FFFFFFFu) - 1u - (fb & 7u);
    if (mag >= 0x7F800000u) mag = 0x7F7FFFFFu;
    b = (((a >> 31) ^ 1u) << 31) | mag;
    break;
  }
  case FP32_M_TIE: {
    uint32_t ea = 26u + (uint32_t)((r >> 8) % 229u); /* 26..254 */
    a = fp32_make(sa, ea, fa);
    /* half an ulp of a is 2^(ea-127-24): exponent field ea-24; vary by -1..+1 and fraction */
    int32_t eb = (int32_t)ea - 24 + (int32_t)((r >> 20) % 3u) - 1;
    uint32_t fsel = (uint32_t)((r >> 24) % 4u);
    uint32_t frac = fsel == 0 ? 0u : fsel == 1 ? 1u
      : fsel == 2                              ? 0x7FFFFFu
                                               : fb;
    b = fp32_make(sb, (uint32_t)eb, frac);
    break;
  }
  case FP32_M_OVERFLOW: {
    uint32_t ea = 250u + (uint32_t)((r >> 8) % 5u), eb = 250u + (uint32_t)((r >> 12) % 5u);
    uint32_t fa2 = ((r >> 16) & 1u) ? (fa | 0x7FFF00u) : fa;
    a = fp32_make(0, ea, fa2) | (sa << 31);
    b = fp32_make(0, eb, fb) | ((((r >> 17) & 7u) ? sa : sb) << 31);
    break;
  }
  }
  if ((r >> 40) & 1u) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  *pa = a;
  *pb = b;
}

static inline uint32_t fp32_host_add(uint32_t a, uint32_t b) {
  volatile float x, y, z;
  float t;
  memcpy(&t, &a, 4);
  x = t;
  memcpy(&t, &b, 4);
  y = t;
  z = x + y;
  t = z;
  uint32_t r;
  memcpy(&r, &t, 4);
  return r;
}
static inline int fp32_is_nan(uint32_t u) { return (u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu); }
static inline uint32_t fp32_host_expect(uint32_t a, uint32_t b) {
  const uint32_t h = fp32_host_add(a, b);
  return fp32_is_nan(h) ? 0x7FC00000u : h;
}

#endif
