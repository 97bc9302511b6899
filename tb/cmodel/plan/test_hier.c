/* SPDX-License-Identifier: Apache-2.0
 * test_hier: the hierarchical baseline (plan/mt_plan_hier.c, mt_dimcoll.c): steps, flows
 * and transfers of a 2-D system written out by hand; check and the reference (exact int32
 * sums) on small multi-dimensional systems and a torus; refusals where it does not apply. */
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_ref.h"
#include "util/mt_fp32.h"
#include "mt_test.h"
#include "ref_sum.h"

static int plan(const char *topo, uint64_t bytes, mt_topo *t, mt_sched *s, mt_err *e) {
  if (mt_topo_from_name(t, topo, e)) return -1;
  if (mt_plan(s, t, "hier", bytes, 4, e)) {
    mt_topo_free(t);
    return -1;
  }
  return 0;
}

/* dims:ring4@100x2,sw4@50x1: 16 NPUs (x + 4y). The 4-ring has links both ways, so the data
 * is halved: 2 flows per NPU, 32. Reduce-scatter: ring 3 steps, halving-doubling log2 4 = 2;
 * all-gather the same: 10 steps. Per flow: 4 rings of 3 hops (dimension 1, all rows) and 3
 * halving-doubling transfers (dimension 2, in root's column) each way: 30; 960 in all.
 * Per step: ring steps 4 x 32 = 128; halving step 1: the 2 positions across bit 2, 64;
 * step 2: 1, 32; the all-gather mirrors it. */
static void test_by_hand(void) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(plan("dims:ring4@100x2,sw4@50x1", 32 * 1024, &t, &s, &e) == 0, "%s", e.msg);
  if (!s.n_flows) return;
  CHECK(s.n_flows == 32 && s.steps == 10 && s.reduce_steps == 5 && s.nx == 960, "flows %d steps %d (%d) transfers %d", s.n_flows, s.steps,
        s.reduce_steps, s.nx);
  static const int per_step[11] = {0, 128, 128, 128, 64, 32, 32, 64, 128, 128, 128};
  int got[12] = {0}, bad_path = 0;
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    if (x->step >= 1 && x->step <= 10) got[x->step]++;
    int sw_step = (x->step >= 4 && x->step <= 7);
    bad_path += x->path_len != (sw_step ? 2 : 1);
  }
  for (int k = 1; k <= 10; k++) CHECK(got[k] == per_step[k], "step %d: %d transfers, want %d", k, got[k], per_step[k]);
  CHECK(bad_path == 0, "%d transfers with the wrong path length (ring 1 link, switch 2)", bad_path);
  /* flow 0 (root 0, +): step 1 starts at x = 1 -> 2; flow 1 (root 0, -): x = 3 -> 2 */
  int f0 = 0, f1 = 0;
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    if (x->step != 1 || x->op != MT_OP_REDUCE || x->src >= 4) continue;
    if (x->flow == 0) f0 += x->src == 1 && x->dst == 2;
    if (x->flow == 1) f1 += x->src == 3 && x->dst == 2;
  }
  CHECK(f0 == 1 && f1 == 1, "ring directions: flow 0 %d, flow 1 %d", f0, f1);
  for (int f = 0; f < s.n_flows; f++) CHECK(s.root[f] == f / 2, "root of flow %d: %d", f, s.root[f]);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* check passes and the reference gives the exact int32 sum */
static void test_check_ref(const char *topo, uint64_t bytes) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  CHECK(plan(topo, bytes, &t, &s, &e) == 0, "%s: %s", topo, e.msg);
  if (!s.n_flows) return;
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  mt_check_report r;
  CHECK(mt_check(&s, &tb, stderr, &r, &e) == 0 && r.violations == 0, "%s: check: %s, %d violations", topo, e.msg, r.violations);
  const uint64_t bad = tb_ref_sum_mismatch(&s, &tb, 7, &e);
  CHECK(bad == 0, "%s: %llu of %llu words differ from the exact sum (all: the reference refused: %s)", topo, (unsigned long long)bad,
        (unsigned long long)(bytes / 4), e.msg);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

static void expect_refused(const char *topo, const char *what) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, topo, &e) == 0, "%s", e.msg);
  if (!t.n_nodes) return;
  int rc = mt_plan(&s, &t, "hier", 1 << 20, 4, &e);
  CHECK(rc != 0 && strstr(e.msg, what), "%s: rc %d, message '%s' lacks '%s'", topo, rc, e.msg, what);
  if (!rc) mt_sched_free(&s);
  mt_topo_free(&t);
}

int main(void) {
  test_by_hand();
  test_check_ref("dims:ring4@100x2,sw4@50x1", 64 * 1000 + 12);
  test_check_ref("dims:fc3@10x2,ring3@5x2,sw2@1x1", 4 * 18 * 2 * 9 + 8);
  test_check_ref("dims:ring2@1x1,sw8@1x1,fc2@1x1", 4 * 32 * 5);
  test_check_ref("dims:ring5@1x1,fc4@2x3", 4 * 20 * 3);
  test_check_ref("torus:3x4", 4 * 24 * 3);
  test_check_ref("dims:ring4@125x2,sw4@25x8,sw2@50x1", 4 * 64 * 3);
  expect_refused("mesh:4x4", "hier needs a multi-dimensional topology");
  expect_refused("fattree:4,2", "or a torus, not fattree:4,2");
  expect_refused("dims:ring2@1,sw6@1x1", "dimension 2 is a switch of 6 NPUs; halving-doubling needs a power of two");
  return MT_TEST_END("hier");
}
