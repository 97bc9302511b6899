/* SPDX-License-Identifier: Apache-2.0
 * mt_time: wall-clock seconds from a monotonic clock, for progress lines and speed reports
 * (never for anything a simulated result depends on). */
#ifndef MT_TIME_H
#define MT_TIME_H
#include <time.h>
#ifdef __cplusplus
extern "C" {
#endif

static inline double mt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#ifdef __cplusplus
}
#endif
#endif
