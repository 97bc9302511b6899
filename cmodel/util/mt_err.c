/* SPDX-License-Identifier: Apache-2.0 */
#include "util/mt_err.h"
#include <stdlib.h>
#include <string.h>

int mt_err_wrap(mt_err *e, const char *fmt, ...) {
  if (!e) return -1;
  char ctx[256], old[sizeof e->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof ctx, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  snprintf(e->msg, sizeof e->msg, "%s: %.*s", ctx, (int)(sizeof e->msg - strlen(ctx) - 3), old);
  return -1;
}

void *mt_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "multitree: out of memory\n");
    exit(2);
  }
  return p;
}
void *mt_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) {
    fprintf(stderr, "multitree: out of memory\n");
    exit(2);
  }
  return q;
}
