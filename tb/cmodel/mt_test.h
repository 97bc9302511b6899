/* SPDX-License-Identifier: Apache-2.0
 * mt_test.h: the smallest self-checking harness for the C unit tests.
 * CHECK(cond, fmt, ...) counts a pass or a failure (printing the failure);
 * MT_TEST_END(name) prints "RESULT name pass=N fail=M" (read by scripts/runbench.sh)
 * and returns the exit code. */
#ifndef MT_TEST_H
#define MT_TEST_H
#include <stdio.h>
#include <stdlib.h>

static unsigned long mt_t_pass, mt_t_fail;

#define CHECK(cond, ...) \
  do { \
    if (cond) { \
      mt_t_pass++; \
    } else { \
      mt_t_fail++; \
      if (mt_t_fail <= 50) { \
        fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
      } \
    } \
  } while (0)

#define MT_TEST_END(name) \
  (printf("RESULT %s pass=%lu fail=%lu\n", (name), mt_t_pass, mt_t_fail), \
   fflush(stdout), mt_t_fail ? 1 : 0)

#endif
