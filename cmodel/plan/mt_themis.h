/* SPDX-License-Identifier: Apache-2.0
 * mt_themis: Themis (ISCA 2022) Algorithm 1 and its baseline, producing the chunked dimension
 * schedule mt_chunksched: the Splitter (C equal chunks), the Latency Model (A_K + n_K x B_K
 * per reduce-scatter or all-gather on dimension K, Section 4.4), the Dim Load Tracker, the
 * threshold of line 19 (the Latency Model's time for chunkSize/16 on the least-loaded
 * dimension), and the intra-dimension orders (FIFO, SCF) fixed by simulating the schedule
 * once with the Latency Model (Section 4.6). docs/reference/themis.md. */
#ifndef MT_THEMIS_H
#define MT_THEMIS_H
#include "plan/mt_chunksched.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The Latency Model's parameters of a dimension (ns, ns per byte). */
typedef struct {
  int steps;    /* of one reduce-scatter (= one all-gather): ring P-1, direct 1, halving-doubling log2 P */
  double lat;   /* step_latency: the dimension's link latency, ns */
  double bw;    /* GB/s = bytes/ns an NPU sends into the dimension: links per NPU x bandwidth per link */
  double A;     /* A_K of one reduce-scatter or all-gather: steps x lat */
  double B;     /* B_K: 1 / bw, ns per byte */
  double share; /* n_K / size: (P-1)/P, the part of its data an NPU sends (footnote 7) */
} mt_lm_dim;

typedef struct {
  int D;
  mt_lm_dim d[MT_MD_MAX_DIMS];
} mt_latmodel;

/* The model of topology t's dimensions as view v sees them: a multi-dimensional topology's
 * links, bandwidth and latency; a torus's edges (bandwidth 0 = not given: 1 GB/s, i.e.
 * time in units of bytes; latency 0 when not given), links 2 on a bidirectional ring. */
void mt_latmodel_of(const mt_topo *t, const mt_mdview *v, mt_latmodel *lm);
/* Time of one reduce-scatter (or all-gather) of `bytes` per NPU on dimension d:
 * A_d + bytes x share_d x B_d. */
double mt_latmodel_time(const mt_latmodel *lm, int d, double bytes);

/* Options of the producers. */
typedef struct {
  int chunks;  /* C >= 1 */
  int intra;   /* MT_INTRA_FIFO or MT_INTRA_SCF */
  int elem;    /* chunks hold whole elements of elem bytes (the tiling of mt_sched_set_bytes) */
  int H;       /* flows per chunk and NPU (2 with a bidirectional ring): the tiling's unit */
  int overlap; /* order the queues for a dimension that overlaps its stages' latency */
} mt_themis_opts;

/* The Splitter: o->chunks chunks that are unions of the flows mt_sched_set_bytes cuts, every
 * chunk in dimension order 1..D, no queues yet. */
int mt_themis_split(mt_chunksched *cs, const mt_mdview *v, uint64_t bytes, const mt_themis_opts *o, mt_err *e);
/* The wire time (ns) a chunk of `bytes` in reduce-scatter order `order` adds to every
 * dimension: n_K x B_K for its reduce-scatter and again for its all-gather, into add[d]. */
void mt_themis_chunk_loads(const mt_latmodel *lm, const mt_mdview *v, const int *order, double bytes, double *add);
/* The baseline (Table 3): every chunk in order 1..D; loads are left 0. */
int mt_themis_baseline(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, mt_err *e);
/* Algorithm 1 (all-reduce): per chunk, the reduce-scatter order by ascending load (the
 * baseline order while max - min load < threshold), the all-gather the reverse. */
int mt_themis_schedule(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, mt_err *e);
/* Section 4.6: simulate cs's chunks with the Latency Model (each dimension runs one stage
 * at a time, or with cs->overlap is taken for a stage's wire time only, its latency hidden
 * behind the next stages; a stage is ready when its chunk's previous stage ends; FIFO
 * takes the stage ready first, SCF the smallest) and store each dimension's order in
 * cs->queue. `finish`
 * (may be NULL) receives the simulated end, ns. Called by both producers. */
int mt_themis_order(mt_chunksched *cs, const mt_latmodel *lm, double *finish, mt_err *e);

/* The chunked dimension schedule `--algo hier|themis` plans on t (mt_plan_opt: chunks,
 * intra, bytes, elem; defaults hier 1 chunk FIFO, themis 64 chunks SCF): what mt_plan
 * expands into flows and what the flow level's front end 2 runs directly. */
int mt_themis_plan(mt_chunksched *cs, const mt_topo *t, const char *algo, mt_err *e);

/* The dimension-balanced chunked schedule (`--algo dimbal`, plan/mt_plan_dimbal.c,
 * docs/reference/themis.md "dimbal"): o->chunks equal chunks, each given the reduce-scatter
 * order (of all D! orders, or the D rotations above 5 dimensions) that keeps the largest
 * per-dimension wire time smallest, then the queues of mt_themis_order. `finish` (may be
 * NULL) receives the Latency Model's simulated end, ns. */
int mt_dimbal_schedule(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, double *finish,
                       mt_err *e);
/* dimbal on t: with mt_plan_opt.chunks / intra unset, every chunk count of a fixed list
 * (1..256) and both intra orders are scheduled and the one the Latency Model finishes
 * first is kept (with `expand`, only chunk counts whose expansion fits). */
int mt_dimbal_plan(mt_chunksched *cs, const mt_topo *t, int expand, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
