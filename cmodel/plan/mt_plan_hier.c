/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_hier, mt_plan_themis: the baseline of Themis (Section 2.3, Table 3): multi-rail
 * hierarchical all-reduce, reduce-scatter over dimension 1..D, then all-gather over D..1,
 * each a basic topology-aware collective of its dimension (mt_dimcoll), chunks in FIFO
 * order; and Themis (Algorithm 1, plan/mt_themis.c). Both make the chunked dimension
 * schedule (mt_chunksched) and expand it (mt_chunksched_expand). */
#include "plan/mt_themis.h"
#include <string.h>

/* Flow (c * N + root) * H + h carries chunk c's part that ends at root; chunks and flows in
 * address order. On a bidirectional ring the data is halved and the halves go opposite
 * ways round (h = 0: +, h = 1: -), so that both directions' links are used; H = 2 when some
 * dimension is such a ring, else 1. With one chunk (the default) every flow moves in every
 * step (FIFO: entries of a step are in flow order), the schedule of issue #15 item 2. */
static int themis_plan(mt_chunksched *cs, const mt_topo *t, const char *algo, int expand, mt_err *e) {
  if (!strcmp(algo, "dimbal")) return mt_dimbal_plan(cs, t, expand, e);
  const int themis = !strcmp(algo, "themis");
  if (!themis && strcmp(algo, "hier"))
    return mt_fail(e, "--algo %s has no chunked dimension schedule (hier: the baseline; themis: Algorithm 1; dimbal: dimension-balanced)", algo);
  mt_mdview v;
  if (mt_mdview_of(t, algo, &v, e)) return -1;
  mt_latmodel lm;
  mt_latmodel_of(t, &v, &lm);
  mt_themis_opts o = {mt_plan_opt.chunks ? mt_plan_opt.chunks : themis ? 64
                                                                       : 1,
                      mt_plan_opt.intra >= 0 ? mt_plan_opt.intra : themis ? MT_INTRA_SCF
                                                                          : MT_INTRA_FIFO,
                      mt_plan_opt.elem ? mt_plan_opt.elem : 4, 1, mt_plan_opt.overlap};
  const uint64_t bytes = mt_plan_opt.bytes ? mt_plan_opt.bytes : (uint64_t)o.elem * (uint64_t)t->n_nodes * 2 * (uint64_t)o.chunks;
  for (int d = 0; d < v.D; d++)
    if (v.bidir[d]) o.H = 2;
  /* the expansion's limits first: scheduling takes time quadratic in the chunks */
  if (expand && mt_cs_check_limits(&v, o.chunks, t->n_nodes, o.H, 1, algo, t->spec, e)) return -1;
  return (themis ? mt_themis_schedule : mt_themis_baseline)(cs, &v, &lm, bytes, &o, e);
}

int mt_themis_plan(mt_chunksched *cs, const mt_topo *t, const char *algo, mt_err *e) { return themis_plan(cs, t, algo, 0, e); }

static int plan_chunked(mt_sched *s, const mt_topo *t, const char *algo, mt_err *e) {
  mt_chunksched cs;
  if (themis_plan(&cs, t, algo, 1, e)) return -1;
  const int rc = mt_chunksched_expand(&cs, t, algo, s, e);
  mt_chunksched_free(&cs);
  return rc;
}

int mt_plan_hier(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_chunked(s, t, "hier", e); }
int mt_plan_themis(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_chunked(s, t, "themis", e); }
