/* SPDX-License-Identifier: Apache-2.0
 * test_fp32: the reduction unit's C model (cmodel/mt_fp32.c) against independent
 * expectations: hand-derived vectors, the host FPU's binary32 addition (SSE, no FTZ/DAZ;
 * bit patterns compared, NaN results must be exactly 0x7FC00000) over every ordered pair of
 * special-class values and ~1.4e6 random pairs from 7 distributions, and int32
 * wrap-around against 64-bit arithmetic. The >= 1e8-pair run is tb/cmodel/fp32_soak.c. */
#include <stdint.h>
#include <string.h>
#include "util/mt_fp32.h"
#include "mt_test.h"
#include "../../cosim/fp32_pairs.h"

#define CHECK_FP(a, b, what) \
  do { \
    uint32_t a_ = (a), b_ = (b), m_ = mt_fp32_add(a_, b_), e_ = fp32_host_expect(a_, b_); \
    CHECK(m_ == e_, "%s: %08x + %08x: model %08x host %08x", (what), a_, b_, m_, e_); \
  } while (0)

int main(void) {
  /* 0. the host really adds in binary32 with subnormals kept (else the test is void) */
  CHECK(fp32_host_add(0x00000001u, 0x00000001u) == 0x00000002u, "host flushes subnormals");
  CHECK(fp32_host_add(0x3F800000u, 0x33800000u) == 0x3F800000u, "host not binary32 RNE");

  /* 1. hand-derived vectors (independent of the host) */
  static const uint32_t hand[][3] = {
    {0x3F800000u, 0x40000000u, 0x40400000u}, /* 1 + 2 = 3 */
    {0x3F800000u, 0xBF800000u, 0x00000000u}, /* 1 + -1 = +0 */
    {0xBF800000u, 0x3F800000u, 0x00000000u},
    {0x00000000u, 0x80000000u, 0x00000000u}, /* +0 + -0 = +0 */
    {0x80000000u, 0x80000000u, 0x80000000u}, /* -0 + -0 = -0 */
    {0x80000000u, 0x00000001u, 0x00000001u},
    {0x00000001u, 0x00000001u, 0x00000002u}, /* min subnormal sums */
    {0x007FFFFFu, 0x00000001u, 0x00800000u}, /* max subnormal + min = min normal */
    {0x00800000u, 0x80000001u, 0x007FFFFFu}, /* min normal - min subnormal */
    {0x7F800000u, 0xFF800000u, 0x7FC00000u}, /* inf + -inf = qNaN */
    {0x7F800000u, 0x3F800000u, 0x7F800000u},
    {0xFF800000u, 0xFF800000u, 0xFF800000u},
    {0x7F800001u, 0x3F800000u, 0x7FC00000u}, /* sNaN -> canonical */
    {0xFFC12345u, 0x7F800000u, 0x7FC00000u},
    {0x7F7FFFFFu, 0x7F7FFFFFu, 0x7F800000u}, /* overflow -> inf */
    {0x7F7FFFFFu, 0x73000000u, 0x7F800000u}, /* max + half ulp: tie to even -> inf */
    {0x7F7FFFFFu, 0x72FFFFFFu, 0x7F7FFFFFu}, /* max + just below half ulp */
    {0x3F800000u, 0x33800000u, 0x3F800000u}, /* 1 + 2^-24: tie, stays even */
    {0x3F800001u, 0x33800000u, 0x3F800002u}, /* odd + tie: up to even */
    {0x3F800000u, 0x33800001u, 0x3F800001u}, /* just above tie: up */
    {0x3F800000u, 0xB3800000u, 0x3F7FFFFFu}, /* 1 - 2^-24 is exact (next binade down) */
    {0x4B000000u, 0x3F000000u, 0x4B000000u}, /* 2^23 + 0.5: tie, even */
  };
  for (size_t i = 0; i < sizeof hand / sizeof hand[0]; i++) {
    uint32_t m = mt_fp32_add(hand[i][0], hand[i][1]);
    CHECK(m == hand[i][2], "hand %zu: %08x + %08x = %08x, want %08x", i, hand[i][0],
          hand[i][1], m, hand[i][2]);
  }

  /* 2. every ordered pair of special-class values, and each with its own negation */
  uint64_t seed = 0x5EEDF32Au;
  uint32_t sp[160];
  size_t ns = fp32_specials(sp, sizeof sp / sizeof sp[0], &seed);
  for (size_t i = 0; i < ns; i++)
    for (size_t j = 0; j < ns; j++) CHECK_FP(sp[i], sp[j], "specials");
  /* special class x random value of each distribution */
  for (size_t i = 0; i < ns; i++)
    for (int k = 0; k < 200; k++) {
      uint32_t a, b;
      fp32_pair(&seed, k % FP32_NMODES, &a, &b);
      CHECK_FP(sp[i], a, "special+random");
      CHECK_FP(b, sp[i], "random+special");
    }

  /* 3. random pairs: 7 distributions x 200k, plus x + (-x) and x + x */
  for (int mode = 0; mode < FP32_NMODES; mode++)
    for (int k = 0; k < 200000; k++) {
      uint32_t a, b;
      fp32_pair(&seed, mode, &a, &b);
      CHECK_FP(a, b, "random");
      if ((k & 15) == 0) {
        CHECK_FP(a, a ^ 0x80000000u, "x+-x");
        CHECK_FP(a, a, "x+x");
      }
    }
  /* commutativity of the model (the NI always adds acc + incoming, but the RTL swaps) */
  for (int k = 0; k < 100000; k++) {
    uint32_t a, b;
    fp32_pair(&seed, k % FP32_NMODES, &a, &b);
    CHECK(mt_fp32_add(a, b) == mt_fp32_add(b, a), "commute %08x %08x", a, b);
  }

  /* 4. int32 wrap-around and the dtype select */
  CHECK(mt_int32_add(0x7FFFFFFFu, 1u) == 0x80000000u, "int32 max+1");
  CHECK(mt_int32_add(0xFFFFFFFFu, 1u) == 0u, "int32 -1+1");
  CHECK(mt_int32_add(0x80000000u, 0x80000000u) == 0u, "int32 min+min");
  CHECK(mt_reduce_add(MT_DTYPE_INT32, 0x3F800000u, 0x3F800000u) == 0x7F000000u, "dtype int32");
  CHECK(mt_reduce_add(MT_DTYPE_FP32, 0x3F800000u, 0x3F800000u) == 0x40000000u, "dtype fp32");
  for (int k = 0; k < 100000; k++) {
    uint32_t a = fp32_rng32(&seed), b = fp32_rng32(&seed);
    int64_t w = (int64_t)(int32_t)a + (int64_t)(int32_t)b;
    uint32_t want = (uint32_t)((uint64_t)w & 0xFFFFFFFFu);
    CHECK(mt_reduce_add(MT_DTYPE_INT32, a, b) == want, "int32 %08x+%08x", a, b);
  }
  return MT_TEST_END("test_fp32");
}
