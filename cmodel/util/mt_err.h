/* SPDX-License-Identifier: Apache-2.0
 * mt_err: one error message buffer passed down every fallible call.
 * Functions return 0 on success, -1 on error with the reason in err->msg
 * (naming the file, line and field where there is one). */
#ifndef MT_ERR_H
#define MT_ERR_H
#include <stdarg.h>
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  char msg[512];
} mt_err;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline int
mt_fail(mt_err *e, const char *fmt, ...) {
  if (e) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Put context in front of the reason already in e ("router 3: " + reason); returns -1. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
int
mt_err_wrap(mt_err *e, const char *fmt, ...);

/* Allocation that never returns NULL: out of memory is not a recoverable input error. */
void *mt_xcalloc(size_t n, size_t size);
void *mt_xrealloc(void *p, size_t size);

#ifdef __cplusplus
}
#endif
#endif
