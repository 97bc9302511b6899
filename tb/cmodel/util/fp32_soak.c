/* SPDX-License-Identifier: Apache-2.0
 * fp32_soak: long random run of the C model's mt_fp32_add against the host FPU's binary32
 * addition (built -O2 without sanitizers; `make fp32-soak`, part of `make bench`).
 * Usage: fp32_soak [pairs=100000000] [seed=1] [--expect-mismatch]
 * Pairs cycle through the 7 distributions of tb/cosim/fp32_pairs.h; every 16th pair also
 * checks x + (-x). Prints `RESULT fp32_soak pass=N fail=M` and a summary line with the
 * time. With --expect-mismatch (the negative test against a deliberately wrong model) the
 * RESULT is `fp32_soak_neg pass=1 fail=0` only if at least one mismatch was found. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "util/mt_fp32.h"
#include "../../cosim/fp32_pairs.h"

static uint64_t n_pass, n_fail;
static void check(uint32_t a, uint32_t b) {
  uint32_t h = fp32_host_expect(a, b), m = mt_fp32_add(a, b);
  if (m == h) {
    n_pass++;
    return;
  }
  if (++n_fail <= 20) printf("MISMATCH %08" PRIx32 " + %08" PRIx32 ": model %08" PRIx32
                             " host %08" PRIx32 "\n",
                             a, b, m, h);
}

int main(int argc, char **argv) {
  uint64_t pairs = 100000000u, seed = 1;
  int expect_mismatch = 0, pos = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--expect-mismatch")) expect_mismatch = 1;
    else if (pos++ == 0) pairs = strtoull(argv[i], NULL, 0);
    else seed = strtoull(argv[i], NULL, 0);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint64_t s = seed;
  for (uint64_t k = 0; k < pairs; k++) {
    uint32_t a, b;
    fp32_pair(&s, (int)(k % FP32_NMODES), &a, &b);
    check(a, b);
    if ((k & 15) == 0) check(a, a ^ 0x80000000u);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  printf("fp32_soak: %" PRIu64 " random pairs + %" PRIu64 " x+(-x) pairs, seed %" PRIu64
         ", %" PRIu64 " mismatches, %.2f s\n",
         pairs, (pairs + 15) / 16, seed, n_fail, sec);
  if (expect_mismatch) {
    printf("RESULT fp32_soak_neg pass=%d fail=%d\n", n_fail > 0, n_fail == 0);
    return 0;
  }
  printf("RESULT fp32_soak pass=%" PRIu64 " fail=%" PRIu64 "\n", n_pass, n_fail);
  return n_fail != 0;
}
