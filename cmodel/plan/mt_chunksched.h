/* SPDX-License-Identifier: Apache-2.0
 * mt_chunksched: a chunked all-reduce scheduled across the dimensions of a multi-dimensional
 * network, the same on every NPU (Themis, Section 4.6). Themis's Algorithm 1 and its
 * baseline (every chunk in dimension order 1..D) produce it; the planner expands it into an
 * mt_sched (flows, trees, per-node tables: what the NI runs and `check` proves), and the
 * flow-level simulator may run it directly, without the N^2 transfers per chunk that the
 * expansion needs at 1024 NPUs. The contract between the Themis planner and the flow-level
 * simulator (issue #15); docs/reference/themis.md. */
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
  int overlap;        /* 1: the queues were ordered for a dimension that takes a stage for its
                         wire time only (flow level --overlap), 0: for one stage at a time */
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
/* Flows per chunk and NPU in the expansion: 2 when some dimension is a bidirectional ring
 * (the data halved, the halves round opposite ways, as mt_plan_hier does), else 1. */
int mt_cs_flows_per_npu(const mt_chunksched *cs);

/* The NI's steps (per-node lockstep barriers, docs/reference/ni.md "Issue"): every dimension runs its
 * queue in order, one stage at a time; a stage takes mt_dimcoll_steps steps and starts the
 * step after both its chunk's previous stage and its dimension's previous stage ended.
 * first[c * 2D + s] receives the first step (from 1) of stage s of chunk c. Returns the
 * number of steps, or -1 when the queues are not an order of every stage that respects
 * each chunk's stage order (named in e). */
int mt_cs_steps(const mt_chunksched *cs, int *first, mt_err *e);
/* Expand into the schedule representation (plan/mt_sched.h) on topology t (the one cs->v
 * views): chunk c becomes the N * H flows (c * N + root) * H + h, each a reduce tree and a
 * gather tree built stage by stage by mt_dimcoll_add at the steps of mt_cs_steps. Sets
 * steps, reduce_steps and interleaved. Fails (named) above MT_MAX_FLOWS flows (mt_xfer.flow),
 * MT_CS_MAX_XFERS transfers (1 GB of them: the 64x64 MultiTree schedule has 33.5 million) or
 * 65535 steps. */
#define MT_CS_MAX_XFERS (1 << 26)
#define MT_CS_MAX_STEPS 65535 /* the 16-bit step field of a transfer */
/* The limits of the expansion checked from the chunk count C, the dimensions of v, the NPUs
 * N and the flows per NPU and chunk H alone, before any scheduling (which takes time
 * quadratic in C): every dimension runs the two stages of every chunk one at a time, so the
 * steps are at least 2 C mt_dimcoll_steps(v, d) for each dimension d, refused above
 * MT_CS_MAX_STEPS; with `flows` also the flows and transfers of mt_chunksched_expand. 0, or
 * -1 with the limit named in e. */
int mt_cs_check_limits(const mt_mdview *v, int C, int N, int H, int flows, const char *algo, const char *spec, mt_err *e);
int mt_chunksched_expand(const mt_chunksched *cs, const mt_topo *t, const char *algo, mt_sched *s, mt_err *e);
/* Table entries per NPU of the expansion (every NPU has the same count), without expanding
 * it: per chunk H * N reduce entries (each flow's reduce tree spans the N NPUs: N - 1 sends
 * and the root's entry) and H * sum over stages s of lines_s * g_s gather entries, lines_s =
 * the product of the sizes of the dimensions after s in the chunk's order, g_s = P - 1 (ring,
 * halving-doubling: one child per entry) or 1 (direct: one entry sends to the P - 1). No
 * NOPs: in every step some dimension runs a stage, in which every NPU sends. */
long mt_cs_entries_per_node(const mt_chunksched *cs);
/* Children per entry at most: the root's reduce entry hears every stage of its flow, 1 from
 * a ring, P - 1 from a direct, log2 P from a halving-doubling dimension. */
int mt_cs_max_children(const mt_chunksched *cs);

#ifdef __cplusplus
}
#endif
#endif
