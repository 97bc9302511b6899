/* SPDX-License-Identifier: Apache-2.0 */
#include "util/mt_err.h"
#include <stdlib.h>

void *mt_xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) { fprintf(stderr, "multitree: out of memory\n"); exit(2); }
  return p;
}
void *mt_xrealloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q) { fprintf(stderr, "multitree: out of memory\n"); exit(2); }
  return q;
}
