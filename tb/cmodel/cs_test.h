/* SPDX-License-Identifier: Apache-2.0
 * cs_test.h: helpers of the chunk-schedule planner tests (test_themis, test_dimbal): a
 * multi-dimensional topology with its view and Latency Model, and the end-to-end checks of
 * an expanded schedule (check passes, exact int32 sums, a gather moved to step 1 caught).
 * Include after mt_test.h (CHECK). */
#ifndef CS_TEST_H
#define CS_TEST_H
#include <math.h>
#include <stdio.h>
#include "plan/mt_check.h"
#include "plan/mt_themis.h"
#include "plan_test.h"
#include "ref_sum.h"

/* Topology `topo`, its view for `algo` and its Latency Model; a failure counts as a failed
 * CHECK and returns non-zero. */
static int cs_setup(const char *topo, const char *algo, mt_topo *t, mt_mdview *v, mt_latmodel *lm) {
  mt_err e = {{0}};
  int rc = mt_topo_from_name(t, topo, &e) || mt_mdview_of(t, algo, v, &e);
  CHECK(rc == 0, "%s: %s", topo, e.msg);
  if (!rc) mt_latmodel_of(t, v, lm);
  return rc;
}

/* A schedule of k chunks of 64 MiB on Fig. 7's system (dims:sw4@100x1,sw4@50x1): chunk c
 * starts with dimension first_dim[c], and the loads are want[k - 1] in units u (a 64 MiB
 * reduce-scatter on dim 1). */
static void cs_check_fig7(const mt_chunksched *cs, int k, double u, const double want[4][2], const int first_dim[4]) {
  for (int c = 0; c < k; c++)
    CHECK(cs->chunk[c].order[0] == first_dim[c] && cs->chunk[c].order[1] == 1 - first_dim[c] && cs->chunk[c].bytes == 64u << 20,
          "%d chunks: chunk %d order (%d,%d), %llu bytes", k, c, cs->chunk[c].order[0] + 1, cs->chunk[c].order[1] + 1,
          (unsigned long long)cs->chunk[c].bytes);
  CHECK(fabs(cs->load[0] - want[k - 1][0] * u) < 1e-6 * u && fabs(cs->load[1] - want[k - 1][1] * u) < 1e-6 * u,
        "after %d chunks loads %g u, %g u; want %g, %g", k, cs->load[0] / u, cs->load[1] / u, want[k - 1][0], want[k - 1][1]);
}

/* check's verdict on s with tables tb and the exact int32 sums through them. */
static void cs_check_sums(const mt_sched *s, const mt_tables *tb, const char *topo, const char *algo) {
  mt_err e = {{0}};
  mt_check_report r;
  CHECK(mt_check(s, tb, stderr, &r, &e) == 0 && r.violations == 0, "%s %s: check: %s, %d violations", topo, algo, e.msg, r.violations);
  const uint64_t bad = tb_ref_sum_mismatch(s, tb, 3, &e);
  CHECK(bad == 0, "%s %s: %llu words differ from the exact sum (all: the reference refused: %s)", topo, algo, (unsigned long long)bad, e.msg);
}

/* A gather (the first with index 3 mod 7) moved to step 1, before any flow is reduced: the
 * tables or check must refuse it. Changes s. */
static void cs_gather_moved_caught(mt_sched *s, const char *topo, const char *algo) {
  int g = -1;
  for (int i = 0; i < s->nx && g < 0; i++)
    if (s->x[i].op == MT_OP_GATHER && i % 7 == 3) g = i;
  if (g < 0) return;
  s->x[g].step = 1;
  CHECK(pt_violations(s) > 0, "%s %s: gather %d moved to step 1 accepted", topo, algo, g);
}
#endif
