/* SPDX-License-Identifier: Apache-2.0
 * mt_chunksched: a chunked all-reduce scheduled across the dimensions of a multi-dimensional
 * network, the same on every NPU (Themis, Section 4.6). Themis's Algorithm 1 and its
 * baseline (every chunk in dimension order 1..D) produce it; the planner expands it into an
 * mt_sched (flows, trees, per-node tables: what the NI runs and `check` proves), and the
 * flow-level simulator may run it directly, without the N^2 transfers per chunk that the
 * expansion needs at 1024 NPUs. The contract between the Themis planner and the flow-level
 * simulator (issue #15); docs/themis.md. */
#ifndef MT_CHUNKSCHED_H
#define MT_CHUNKSCHED_H
#include <stdint.h>
#include "plan/mt_dimcoll.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One chunk of the collective: its part of the buffer and its inter-dimension order.
 * order[k] is the dimension (0 = dim 1) of its (k+1)-th reduce-scatter; its all-gather
 * runs the dimensions in the reverse order (Algorithm 1, line 8). */
typedef struct {
  uint64_t addr, bytes;
  int order[MT_MD_MAX_DIMS];
} mt_cs_chunk;

/* A stage: chunk c's s-th collective, s = 0..2D-1: reduce-scatter in order[s] for s < D,
 * all-gather in order[2D-1-s] for s >= D. */
typedef struct {
  int chunk, stage;
} mt_cs_stage;

enum { MT_INTRA_FIFO,
       MT_INTRA_SCF };

typedef struct {
  mt_mdview v; /* the dimensions (kinds, sizes, strides, bidirectional rings) */
  int n_chunks;
  mt_cs_chunk *chunk; /* [n_chunks], tiling the buffer in address order */
  int intra;          /* MT_INTRA_FIFO or MT_INTRA_SCF: how each queue below was ordered */
  /* Per dimension, the order in which it runs the stages that use it, fixed once when the
   * schedule is made (Section 4.6: by simulating it) and the same on every NPU. */
  int qlen[MT_MD_MAX_DIMS];
  mt_cs_stage *queue[MT_MD_MAX_DIMS];
  double load[MT_MD_MAX_DIMS]; /* the Dim Load Tracker at the end, ns (0 for the baseline) */
} mt_chunksched;

void mt_chunksched_free(mt_chunksched *cs);
/* The dimension of stage s of chunk c. */
static inline int mt_cs_stage_dim(const mt_chunksched *cs, int c, int s) {
  const int D = cs->v.D;
  return s < D ? cs->chunk[c].order[s] : cs->chunk[c].order[2 * D - 1 - s];
}
/* The bytes stage s of chunk c works on at each NPU taking part: the chunk's size divided
 * by the sizes of the dimensions reduce-scattered before it (an all-gather stage works on
 * the size its matching reduce-scatter produced times its own dimension's size). */
uint64_t mt_cs_stage_bytes(const mt_chunksched *cs, int c, int s);

#ifdef __cplusplus
}
#endif
#endif
