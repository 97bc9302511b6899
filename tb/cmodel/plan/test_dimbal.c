/* SPDX-License-Identifier: Apache-2.0
 * test_dimbal: the dimension-balanced chunk schedule (plan/mt_plan_dimbal.c): its order
 * choice worked by hand on Themis's Fig. 7 system, the balance property (every order moves
 * 2 (N-1)/N of a chunk per NPU, so the wire time per dimension summed over the dimensions
 * weighted by bandwidth is the same whatever the orders, and the largest is at least the
 * aggregate bound), the search keeping the Latency Model's fastest, and the expansion:
 * check passes, exact int32 sums, flows tile the buffer, a broken copy is caught. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_themis.h"
#include "topo/mt_mdtopo.h"
#include "mt_test.h"
#include "cs_test.h"

/* Fig. 7's system: 4x4, both switches (n_K = 3/4), dim1 100 GB/s, dim2 50 GB/s, latency 0.
 * u = the reduce-scatter of 64 MiB on dim1. A 64 MiB chunk in order (1,2) adds (2, 1) u
 * (its reduce-scatter and all-gather: 2 x 1 on dim1, 2 x 0.5 for 16 MiB at half the
 * bandwidth on dim2), in order (2,1) (0.5, 4) u. The smallest maximum, then the smallest
 * sum of squares:
 *   chunk 1: (2, 1) max 2 against (0.5, 4) max 4          -> (1,2), loads (2, 1)
 *   chunk 2: (4, 2) max 4 against (2.5, 5) max 5          -> (1,2), (4, 2)
 *   chunk 3: (6, 3) max 6, squares 45 against (4.5, 6) max 6, squares 56.25 -> (1,2), (6, 3)
 *   chunk 4: (8, 4) max 8 against (6.5, 7) max 7          -> (2,1), (6.5, 7)
 * (Themis's tracker gives (1,2), (2,1), (1,2), (1,2) here: test_themis.) The balance:
 * dim1 x 100 + dim2 x 50 = 4 x (2 x 100 + 1 x 50) = 1000 u GB/s whatever the orders. */
static void test_fig7(void) {
  mt_topo t;
  mt_mdview v;
  mt_latmodel lm;
  if (cs_setup("dims:sw4@100x1,sw4@50x1", "dimbal", &t, &v, &lm)) return;
  const double u = 64.0 * 1048576 * 0.75 / 100;
  static const double want[4][2] = {{2, 1}, {4, 2}, {6, 3}, {6.5, 7}};
  static const int first_dim[4] = {0, 0, 0, 1};
  for (int k = 1; k <= 4; k++) {
    mt_chunksched cs;
    mt_err e = {{0}};
    mt_themis_opts o = {k, MT_INTRA_SCF, 4, 1, 0};
    double fin = 0;
    CHECK(mt_dimbal_schedule(&cs, &v, &lm, (uint64_t)k << 26, &o, &fin, &e) == 0, "%s", e.msg);
    if (!cs.n_chunks) continue;
    cs_check_fig7(&cs, k, u, want, first_dim);
    const double wsum = cs.load[0] * 100 + cs.load[1] * 50;
    CHECK(fabs(wsum - k * 250 * u) < 1e-6 * u, "%d chunks: bandwidth-weighted load %g u GB/s, want %d", k, wsum / u, k * 250);
    /* the simulated end is at least the busier dimension's wire time */
    CHECK(fin >= (cs.load[0] > cs.load[1] ? cs.load[0] : cs.load[1]) * (1 - 1e-12), "%d chunks: end %g below the busiest dimension's %g", k, fin,
          cs.load[0] > cs.load[1] ? cs.load[0] : cs.load[1]);
    mt_chunksched_free(&cs);
  }
  mt_topo_free(&t);
}

/* On the six Table 2 systems, 1 GiB in 64 chunks: the largest wire time per dimension is at
 * least the aggregate bound's 2 (N-1)/N S / (the NPU's total bandwidth) and within 3 % of it
 * (balanced); with the baseline's orders (all 1..D) it is 1.5x or more. */
static void test_balance(void) {
  for (int i = 0; i < mt_themis_n_presets; i++) {
    char name[64];
    snprintf(name, sizeof name, "themis:%s", mt_themis_presets[i].name);
    mt_topo t;
    mt_mdview v;
    mt_latmodel lm;
    if (cs_setup(name, "dimbal", &t, &v, &lm)) continue;
    double bw = 0;
    for (int d = 0; d < v.D; d++) bw += lm.d[d].bw;
    const double S = 1073741824.0, N = t.n_nodes, agg = 2 * (N - 1) / N * S / bw;
    mt_chunksched cs, bl;
    mt_err e = {{0}};
    mt_themis_opts o = {64, MT_INTRA_SCF, 4, 1, 1};
    for (int d = 0; d < v.D; d++)
      if (v.bidir[d]) o.H = 2;
    CHECK(mt_dimbal_schedule(&cs, &v, &lm, 1u << 30, &o, NULL, &e) == 0 && mt_themis_baseline(&bl, &v, &lm, 1u << 30, &o, &e) == 0, "%s: %s", name, e.msg);
    double mx = 0, bmx = 0;
    for (int d = 0; d < v.D; d++) {
      if (cs.load[d] > mx) mx = cs.load[d];
      double add[MT_MD_MAX_DIMS] = {0};
      mt_themis_chunk_loads(&lm, &v, bl.chunk[0].order, S, add);
      if (add[d] > bmx) bmx = add[d];
    }
    CHECK(mx >= agg * (1 - 1e-9) && mx <= 1.03 * agg, "%s: busiest dimension %.0f ns, aggregate bound %.0f ns", name, mx, agg);
    CHECK(bmx >= 1.5 * agg, "%s: the baseline's busiest dimension %.0f ns, only %.2fx the bound", name, bmx, bmx / agg);
    mt_chunksched_free(&cs);
    mt_chunksched_free(&bl);
    mt_topo_free(&t);
  }
}

/* The search (no --chunks, no --intra) keeps the schedule the Latency Model ends first:
 * no fixed chunk count of its list does better. */
static void test_search(void) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "themis:3d-sw-sw-sw-hetero", &e) == 0, "%s", e.msg);
  mt_plan_opt.bytes = 1u << 30;
  mt_plan_opt.elem = 4;
  mt_plan_opt.overlap = 1;
  mt_plan_opt.chunks = 0;
  mt_plan_opt.intra = -1;
  mt_chunksched cs;
  CHECK(mt_dimbal_plan(&cs, &t, 0, &e) == 0, "%s", e.msg);
  mt_mdview v;
  mt_latmodel lm;
  mt_mdview_of(&t, "dimbal", &v, &e);
  mt_latmodel_of(&t, &v, &lm);
  for (int d = 0; d < v.D; d++)
    if (v.kind[d] == MT_DIM_SW) lm.d[d].A *= 2;
  double best = 0;
  CHECK(cs.n_chunks >= 8 && mt_themis_order(&cs, &lm, &best, &e) == 0, "%d chunks: %s", cs.n_chunks, e.msg);
  static const int cand[] = {8, 16, 32, 64, 128, 256};
  for (int i = 0; i < 6; i++)
    for (int q = 0; q < 2; q++) {
      mt_chunksched c;
      mt_themis_opts o = {cand[i], q ? MT_INTRA_FIFO : MT_INTRA_SCF, 4, 1, 1};
      double fin = 0;
      CHECK(mt_dimbal_schedule(&c, &v, &lm, 1u << 30, &o, &fin, &e) == 0, "%s", e.msg);
      CHECK(fin >= best * (1 - 1e-12), "%d chunks %s: %.0f ns, before the search's pick (%d chunks) %.0f", cand[i], q ? "fifo" : "scf", fin, cs.n_chunks,
            best);
      mt_chunksched_free(&c);
    }
  mt_chunksched_free(&cs);
  mt_topo_free(&t);
  mt_plan_opt.overlap = 0;
}

/* Expansion: plan (as the command line does), check, reference sums, tiling; a gather moved
 * to step 1 is caught. */
static void test_expand(const char *topo, int chunks, uint64_t bytes) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  mt_plan_opt.chunks = chunks;
  mt_plan_opt.intra = -1;
  if (pt_plan(topo, "dimbal", bytes, &t, &s)) return;
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  cs_check_sums(&s, &tb, topo, "dimbal");
  CHECK(!chunks || s.n_flows % chunks == 0, "%s: %d flows for %d chunks", topo, s.n_flows, chunks);
  uint64_t at = 0;
  int tiles = 1;
  for (int f = 0; f < s.n_flows; f++) {
    tiles &= s.chunk[f].addr == at;
    at += s.chunk[f].size;
  }
  CHECK(tiles && at == bytes, "%s dimbal: flows do not tile the buffer", topo);
  mt_tables_free(&tb);
  cs_gather_moved_caught(&s, topo, "dimbal");
  mt_sched_free(&s);
  mt_topo_free(&t);
  mt_plan_opt.chunks = 0;
}

int main(void) {
  mt_plan_opt.intra = -1;
  test_fig7();
  test_balance();
  test_search();
  static const char *topos[] = {"dims:ring4@100x2,sw4@50x1", "dims:fc3@10x2,ring3@5x2,sw2@1x1", "dims:fc4@100x3,ring4@50x1:700ns,sw2@25x1", "torus:3x4",
                                "dims:sw4@25x8:700ns,sw4@25x4:700ns,sw4@50x1:1700ns", "dims:sw2@1x1,sw2@2x1,sw2@3x1,sw2@4x1,sw2@5x1,sw2@6x1"};
  for (int i = 0; i < 6; i++) {
    const uint64_t bytes = 4 * 1000 * 64 + 4 * 12;
    test_expand(topos[i], 5, bytes);
    if (i == 2 || i == 4) test_expand(topos[i], 0, bytes); /* the search: with latencies it stops at a few chunks (256 without) */
  }
  return MT_TEST_END("dimbal");
}
