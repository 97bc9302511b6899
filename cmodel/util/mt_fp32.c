/* SPDX-License-Identifier: Apache-2.0
 * mt_fp32: integer-only model of the RTL binary32 adder (rtl/mt_fp32_add.sv), step by step
 * the same algorithm, so the RTL can be compared bit for bit. See docs/reference/reduction.md.
 *
 * Algorithm (27-bit datapath: 24-bit significand + guard, round, sticky):
 *  1. NaN operand or inf + -inf -> 0x7FC00000; one or two equal infinities -> that infinity.
 *  2. Swap so that |big| >= |small| (compare the 31 magnitude bits as integers).
 *  3. Effective exponent: field, or 1 for a subnormal/zero (hidden bit 0).
 *  4. Align small right by d = ebig - esmall (clamped to 27), OR the lost bits into bit 0.
 *  5. Same signs: add (28 bits); a carry shifts right by one (sticky kept), exponent + 1.
 *     Different signs: subtract (the RTL uses the same adder: xbig + ~xal + 1, which is the
 *     same 27-bit value); exact zero -> +0; else shift left by
 *     min(leading zeros, ebig - 1) (never below exponent 1: subnormal result).
 *  6. Exponent reaching 255 before rounding -> infinity.
 *  7. Round to nearest even: up = G & (R | S | lsb); pack {exp or 0, frac} + up
 *     (a carry out of the fraction moves to the next binade, to the smallest normal or to inf).
 *
 * Build with -DMT_FP32_MUTANT_TRUNC for the negative test only: rounding is dropped
 * (truncation), which the tests must detect. Never in libmt. */
#include "util/mt_fp32.h"

uint32_t mt_int32_add(uint32_t a, uint32_t b) { return a + b; }

uint32_t mt_reduce_add(int dtype, uint32_t a, uint32_t b) {
  return dtype == MT_DTYPE_FP32 ? mt_fp32_add(a, b) : mt_int32_add(a, b);
}

/* Leading zeros of a 27-bit value (27 for zero). */
static unsigned lzc27(uint32_t v) {
  unsigned n = 0;
  for (int i = 26; i >= 0; i--) {
    if ((v >> i) & 1u) break;
    n++;
  }
  return n;
}

uint32_t mt_fp32_add(uint32_t a, uint32_t b) {
  const uint32_t ea = (a >> 23) & 0xFFu, eb = (b >> 23) & 0xFFu;
  const uint32_t fa = a & 0x7FFFFFu, fb = b & 0x7FFFFFu;
  const int a_nan = ea == 0xFFu && fa != 0, b_nan = eb == 0xFFu && fb != 0;
  const int a_inf = ea == 0xFFu && fa == 0, b_inf = eb == 0xFFu && fb == 0;

  /* 1. specials */
  if (a_nan || b_nan || (a_inf && b_inf && ((a ^ b) >> 31))) return MT_FP32_QNAN;
  if (a_inf) return a;
  if (b_inf) return b;

  /* 2. order by magnitude */
  const int swap = (b & 0x7FFFFFFFu) > (a & 0x7FFFFFFFu);
  const uint32_t big = swap ? b : a, small = swap ? a : b;
  const uint32_t sign = big >> 31;
  const int sub = (int)((a ^ b) >> 31);

  /* 3. unpack */
  const uint32_t ebf = (big >> 23) & 0xFFu, esf = (small >> 23) & 0xFFu;
  const uint32_t ebig = ebf ? ebf : 1u, esmall = esf ? esf : 1u;
  const uint32_t mbig = ((ebf ? 1u : 0u) << 23) | (big & 0x7FFFFFu);
  const uint32_t msmall = ((esf ? 1u : 0u) << 23) | (small & 0x7FFFFFu);
  const uint32_t xbig = mbig << 3, xsmall = msmall << 3; /* 27 bits: [26:3] sig, [2:0] GRS */

  /* 4. align */
  uint32_t d = ebig - esmall;
  if (d > 27u) d = 27u;
  const uint64_t wide = ((uint64_t)xsmall << 27) >> d; /* 54 bits: [53:27] kept, [26:0] lost */
  const uint32_t lost = (uint32_t)(wide & 0x7FFFFFFu);
  const uint32_t xal = (uint32_t)(wide >> 27) | (lost != 0 ? 1u : 0u);

  /* 5. add or subtract, normalize */
  uint32_t norm; /* 27 bits */
  uint32_t e;    /* 1..255 */
  if (!sub) {
    const uint32_t sum = xbig + xal; /* 28 bits */
    if ((sum >> 27) & 1u) {
      norm = (sum >> 1) | (sum & 1u);
      e = ebig + 1u;
    } else {
      norm = sum;
      e = ebig;
    }
  } else {
    const uint32_t diff = xbig - xal; /* >= 0: |big| >= |small| */
    if (diff == 0) return 0u;         /* x + (-x) = +0 (RNE) */
    const unsigned lz = lzc27(diff);
    const uint32_t sh = lz < ebig - 1u ? lz : ebig - 1u;
    norm = (diff << sh) & 0x7FFFFFFu;
    e = ebig - sh;
  }

  /* 6. overflow before rounding (only a carry out of 254) */
  if (e >= 255u) return (sign << 31) | 0x7F800000u;

  /* 7. round to nearest even and pack */
  const uint32_t m24 = norm >> 3;
  const uint32_t g = (norm >> 2) & 1u, r = (norm >> 1) & 1u, s = norm & 1u;
#ifdef MT_FP32_MUTANT_TRUNC
  const uint32_t up = 0u * (g | r | s);
#else
  const uint32_t up = g & (r | s | (m24 & 1u));
#endif
  const uint32_t efield = ((m24 >> 23) & 1u) ? e : 0u;
  const uint32_t mag = ((efield << 23) | (m24 & 0x7FFFFFu)) + up; /* carry may reach inf */
  return (sign << 31) | mag;
}
