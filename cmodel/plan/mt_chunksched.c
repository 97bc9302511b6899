/* SPDX-License-Identifier: Apache-2.0
 * mt_chunksched: the dimension schedule of a chunked all-reduce (Themis), shared helpers. */
#include "plan/mt_chunksched.h"
#include <stdlib.h>
#include <string.h>

void mt_chunksched_free(mt_chunksched *cs) {
  free(cs->chunk);
  for (int d = 0; d < MT_MD_MAX_DIMS; d++) free(cs->queue[d]);
  memset(cs, 0, sizeof *cs);
}

/* Pieces are uneven when a size does not divide the bytes; the largest (rounded up) is the
 * one that decides a stage's time. */
uint64_t mt_cs_stage_bytes(const mt_chunksched *cs, int c, int s) {
  const int D = cs->v.D, rs = s < D ? s : 2 * D - 1 - s; /* the reduce-scatter stage it matches */
  uint64_t div = 1;
  for (int k = 0; k < rs; k++) div *= (uint64_t)cs->v.size[cs->chunk[c].order[k]];
  return (cs->chunk[c].bytes + div - 1) / div;
}
