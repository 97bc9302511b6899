/* SPDX-License-Identifier: Apache-2.0
 * test_themis: Themis Algorithm 1 (plan/mt_themis.c) on the paper's Fig. 7 example worked by
 * hand, the threshold fallback, FIFO and SCF intra-dimension orders on a hand-simulated
 * queue, and the expansion (mt_chunksched_expand) of the baseline and Themis: check passes,
 * the reference gives exact sums, flows tile the buffer and the chunks, the analytic table
 * size equals the tables', and broken schedules are caught. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_themis.h"
#include "mt_test.h"
#include "cs_test.h"

/* Fig. 5/7: a 4x4 system, BW(dim1) = 2 BW(dim2), 64 MiB chunks, latencies 0 (the figure
 * leaves A_K out). Both dimensions switches (halving-doubling, n_K = 3/4 of the size). Unit
 * u = the reduce-scatter of 64 MiB on dim1 = 64 MiB x 3/4 / 100 GB/s; a chunk's all-reduce
 * adds the reduce-scatter and the mirrored all-gather (2x) to each dimension it uses.
 *   b) loads (0, 0): below the threshold -> baseline (1,2): dim1 += 2 x 1, dim2 += 2 x 0.5
 *      (16 MiB at half bandwidth): (2, 1)
 *   c) threshold = 4 MiB on the least-loaded dim2 = 0.125 u < 1: ascending (2,1): dim2 +=
 *      2 x 2 (64 MiB at half bandwidth), dim1 += 2 x 0.25: (2.5, 5)
 *   d) ascending (1,2): (4.5, 6)
 *   e) 6 - 4.5 = 1.5 >= 0.0625 u (4 MiB on dim1): (1,2): (6.5, 7)
 * The paper: "the second chunk starts from dim2 ... the last two chunks start from dim1".
 * Chunk size is fixed (64 MiB), so k chunks of k x 64 MiB give the loads after step k. */
static void test_fig7(void) {
  mt_topo t;
  mt_mdview v;
  mt_latmodel lm;
  if (cs_setup("dims:sw4@100x1,sw4@50x1", "themis", &t, &v, &lm)) return;
  const double u = 64.0 * 1048576 * 0.75 / 100;
  CHECK(fabs(lm.d[0].B - 0.01) < 1e-12 && fabs(lm.d[1].B - 0.02) < 1e-12 && lm.d[0].A == 0 && lm.d[0].steps == 2, "latency model B %g %g A %g steps %d",
        lm.d[0].B, lm.d[1].B, lm.d[0].A, lm.d[0].steps);
  static const double want[4][2] = {{2, 1}, {2.5, 5}, {4.5, 6}, {6.5, 7}};
  static const int first_dim[4] = {0, 1, 0, 0};
  for (int k = 1; k <= 4; k++) {
    mt_chunksched cs;
    mt_err e = {{0}};
    mt_themis_opts o = {k, MT_INTRA_SCF, 4, 1, 0};
    CHECK(mt_themis_schedule(&cs, &v, &lm, (uint64_t)k << 26, &o, &e) == 0, "%s", e.msg);
    if (!cs.n_chunks) continue;
    cs_check_fig7(&cs, k, u, want, first_dim);
    mt_chunksched_free(&cs);
  }
  mt_topo_free(&t);
}

/* Line 19. Two equal 4-switches (100 GB/s): per chunk of S the baseline adds 1.5 S/100 to
 * dim1 and 0.375 S/100 to dim2; the reverse order the opposite. Latency 0: the threshold is
 * (S/16) x 0.75 / 100 = 0.047 S/100, so the orders alternate: (1,2) at (0,0); (2,1) at
 * (1.5, 0.375); (1,2) at (1.875, 1.875) (equal: below); (2,1) at (3.375, 2.25). Latency
 * 700 ns: the loads start at 2 A = 2 x 2 steps x 700 ns each and the threshold is A_1 =
 * 1400 ns plus the bytes; with S = 4 KiB a chunk moves the difference by 46 ns, so four
 * chunks stay below it: the baseline order throughout. */
static void test_threshold(void) {
  static const struct {
    const char *topo;
    int first[4];
  } cases[] = {{"dims:sw4@100x1,sw4@100x1", {0, 1, 0, 1}}, {"dims:sw4@100x1:700ns,sw4@100x1:700ns", {0, 0, 0, 0}}};
  for (int i = 0; i < 2; i++) {
    mt_topo t;
    mt_mdview v;
    mt_latmodel lm;
    if (cs_setup(cases[i].topo, "themis", &t, &v, &lm)) continue;
    mt_chunksched cs;
    mt_err e = {{0}};
    mt_themis_opts o = {4, MT_INTRA_FIFO, 4, 1, 0};
    CHECK(mt_themis_schedule(&cs, &v, &lm, 4 * 4096, &o, &e) == 0, "%s", e.msg);
    for (int c = 0; c < cs.n_chunks; c++)
      CHECK(cs.chunk[c].order[0] == cases[i].first[c], "%s: chunk %d starts in dim %d, want %d", cases[i].topo, c, cs.chunk[c].order[0] + 1,
            cases[i].first[c] + 1);
    if (i == 1) CHECK(fabs(cs.load[0] - (2800 + 4 * 1.5 * 4096 / 100)) < 1e-6, "700 ns: dim1 load %g", cs.load[0]);
    mt_chunksched_free(&cs);
    mt_topo_free(&t);
  }
}

/* Section 4.6 on a hand-made schedule: two equal 4-switches, three chunks of S; c0 and c2
 * in order (1,2), c1 in (2,1). Stage sizes S, S/4, S/4, S; tau = S x 0.75 / 100.
 * Both: [0,1] dim1 c0.0, dim2 c1.0. At 1 dim1 holds c2.0 (S, ready at 0) and c1.1 (S/4,
 * ready at 1).
 * FIFO takes c2.0 [1,2]; dim2 c0.1 [1,1.25], c0.2 [1.25,1.5]; at 2 dim1 c1.1 (ready 1)
 *   before c0.3 (1.5) [2,2.25], dim2 c2.1 [2,2.25]; dim1 c0.3 [2.25,3.25], dim2 c2.2
 *   [2.25,2.5]; dim1 c1.2 [3.25,3.5]; then c2.3 on dim1 and c1.3 on dim2 [3.5,4.5].
 * SCF takes c1.1 [1,1.25]; dim2 c0.1 [1,1.25]; at 1.25 dim1 c1.2 (S/4) before c2.0, dim2
 *   c0.2 [1.25,1.5]; at 1.5 dim1 c2.0 and c0.3 are both S: c2.0 (ready first) [1.5,2.5],
 *   dim2 c1.3 [1.5,2.5]; dim1 c0.3 [2.5,3.5], dim2 c2.1 [2.5,2.75], c2.2 [2.75,3];
 *   dim1 c2.3 [3.5,4.5]. */
static void test_intra(void) {
  mt_topo t;
  mt_mdview v;
  mt_latmodel lm;
  if (cs_setup("dims:sw4@100x1,sw4@100x1", "themis", &t, &v, &lm)) return;
  static const int fifo[2][6][2] = {{{0, 0}, {2, 0}, {1, 1}, {0, 3}, {1, 2}, {2, 3}}, {{1, 0}, {0, 1}, {0, 2}, {2, 1}, {2, 2}, {1, 3}}};
  static const int scf[2][6][2] = {{{0, 0}, {1, 1}, {1, 2}, {2, 0}, {0, 3}, {2, 3}}, {{1, 0}, {0, 1}, {0, 2}, {1, 3}, {2, 1}, {2, 2}}};
  const uint64_t S = 64 * 1024;
  const double tau = S * 0.75 / 100;
  for (int pol = 0; pol < 2; pol++) {
    mt_chunksched cs;
    mt_err e = {{0}};
    mt_themis_opts o = {3, pol ? MT_INTRA_SCF : MT_INTRA_FIFO, 4, 1, 0};
    CHECK(mt_themis_baseline(&cs, &v, &lm, 3 * S, &o, &e) == 0, "%s", e.msg);
    if (!cs.n_chunks) continue;
    cs.chunk[1].order[0] = 1;
    cs.chunk[1].order[1] = 0;
    double fin = 0;
    CHECK(mt_themis_order(&cs, &lm, &fin, &e) == 0, "%s", e.msg);
    const int(*want)[6][2] = pol ? scf : fifo;
    for (int d = 0; d < 2; d++) {
      CHECK(cs.qlen[d] == 6, "%s dim %d: %d stages", pol ? "scf" : "fifo", d + 1, cs.qlen[d]);
      for (int i = 0; i < 6 && i < cs.qlen[d]; i++)
        CHECK(cs.queue[d][i].chunk == want[d][i][0] && cs.queue[d][i].stage == want[d][i][1], "%s dim %d position %d: c%d.%d, want c%d.%d",
              pol ? "scf" : "fifo", d + 1, i, cs.queue[d][i].chunk, cs.queue[d][i].stage, want[d][i][0], want[d][i][1]);
    }
    CHECK(fabs(fin - 4.5 * tau) < 1e-6 * tau, "%s: simulated end %g tau, want 4.5", pol ? "scf" : "fifo", fin / tau);
    /* steps: every stage 2 steps (log2 4), whatever its size; the queue orders kept.
     * FIFO: dim1 c0.0 1-2, c2.0 3-4, c1.1 5-6, c0.3 7-8, c1.2 9-10, c2.3 11-12; dim2 c1.0
     * 1-2, c0.1 3-4, c0.2 5-6, c2.1 7-8, c2.2 9-10, c1.3 11-12: 12 steps.
     * SCF: dim1 c0.0 1-2, c1.1 3-4, c1.2 5-6, c2.0 7-8, c0.3 9-10, c2.3 13-14 (after c2.2);
     * dim2 c1.0 1-2, c0.1 3-4, c0.2 5-6, c1.3 7-8, c2.1 9-10, c2.2 11-12: 14 steps. In
     * steps a small stage costs as much as a large one, so SCF's gain in time is lost. */
    int first[12];
    const int T = mt_cs_steps(&cs, first, &e);
    CHECK(T == (pol ? 14 : 12), "%s: %d steps, want %d", pol ? "scf" : "fifo", T, pol ? 14 : 12);
    CHECK(first[2 * 4 + 3] == (pol ? 13 : 11) && first[1 * 4 + 3] == (pol ? 7 : 11), "%s: c2.3 at step %d, c1.3 at %d", pol ? "scf" : "fifo", first[11], first[7]);
    /* a queue that deadlocks: chunk 0's all-gather on dim1 put before its reduce-scatter */
    mt_cs_stage *q = cs.queue[0], x = q[0];
    int j = 0;
    while (j < 6 && !(q[j].chunk == 0 && q[j].stage == 3)) j++;
    if (j < 6) {
      q[0] = q[j];
      q[j] = x;
      CHECK(mt_cs_steps(&cs, first, &e) < 0 && strstr(e.msg, "deadlock"), "swapped queue accepted: '%s'", e.msg);
    }
    mt_chunksched_free(&cs);
  }
  mt_topo_free(&t);
}

/* The intra-dimension simulation for overlapped execution (cs->overlap, `sim --level flow
 * --chunks K --overlap`): a dimension is free again after a stage's wire time w, the chunk
 * only after A + w. One switch dimension of 4 (halving-doubling: A = 2 lat), 3 chunks of S,
 * w = S x 3/4 / 100 GB/s; stages RS c0, c1, c2 at 0, w, 2w, then the all-gathers:
 *   A < 2w: AG c0 at 3w, c1 at 4w, c2 at 5w: end 6w + A;
 *   A > 2w: AG c0 at A + w, c1 at A + 2w, c2 at A + 3w: end 2A + 4w;
 * one stage at a time (overlap 0): 6 (A + w). A broken simulation that keeps the dimension
 * for the whole stage gives the last in both cases. */
static void test_intra_overlap(void) {
  const uint64_t S = 64 * 1024;
  const double w = S * 0.75 / 100;
  static const char *const topo[2] = {"dims:sw4@100x1:100ns", "dims:sw4@100x1:1000ns"};
  for (int k = 0; k < 2; k++) {
    mt_topo t;
    mt_mdview v;
    mt_latmodel lm;
    if (cs_setup(topo[k], "themis", &t, &v, &lm)) continue;
    const double A = k ? 2000 : 200;
    CHECK(fabs(lm.d[0].A - A) < 1e-9, "%s: A = %g, want %g", topo[k], lm.d[0].A, A);
    for (int ov = 0; ov < 2; ov++) {
      mt_chunksched cs;
      mt_err e = {{0}};
      mt_themis_opts o = {3, MT_INTRA_FIFO, 4, 1, ov};
      CHECK(mt_themis_baseline(&cs, &v, &lm, 3 * S, &o, &e) == 0, "%s", e.msg);
      if (!cs.n_chunks) continue;
      double fin = 0;
      CHECK(cs.overlap == ov && mt_themis_order(&cs, &lm, &fin, &e) == 0, "%s", e.msg);
      const double want = !ov ? 6 * (A + w) : A < 2 * w ? 6 * w + A
                                                        : 2 * A + 4 * w;
      CHECK(fabs(fin - want) < 1e-6 * want, "%s overlap %d: simulated end %g ns, want %g", topo[k], ov, fin, want);
      static const int order[6][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
      for (int i = 0; i < 6 && i < cs.qlen[0]; i++)
        CHECK(cs.queue[0][i].chunk == order[i][0] && cs.queue[0][i].stage == order[i][1], "%s overlap %d position %d: c%d.%d", topo[k], ov, i,
              cs.queue[0][i].chunk, cs.queue[0][i].stage);
      mt_chunksched_free(&cs);
    }
    mt_topo_free(&t);
  }
}

/* Expansion: plan (mt_plan, as the command line does), check, reference sums, tiling, the
 * table size counted without expanding, and a broken copy caught. */
static void test_expand(const char *topo, const char *algo, int chunks, int intra, uint64_t bytes) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  mt_plan_opt.chunks = chunks;
  mt_plan_opt.intra = intra;
  if (pt_plan(topo, algo, bytes, &t, &s)) return;
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  cs_check_sums(&s, &tb, topo, algo);
  /* the compact form again, for the tiling and the counts */
  mt_mdview v;
  mt_latmodel lm;
  mt_chunksched cs;
  mt_mdview_of(&t, algo, &v, &e);
  mt_latmodel_of(&t, &v, &lm);
  mt_themis_opts o = {chunks, intra, 4, 1, 0};
  for (int d = 0; d < v.D; d++)
    if (v.bidir[d]) o.H = 2;
  CHECK((strcmp(algo, "themis") ? mt_themis_baseline : mt_themis_schedule)(&cs, &v, &lm, bytes, &o, &e) == 0, "%s", e.msg);
  const int NH = t.n_nodes * o.H;
  CHECK(s.n_flows == chunks * NH, "%s: %d flows, want %d", topo, s.n_flows, chunks * NH);
  uint64_t at = 0;
  int tiles = 1;
  for (int f = 0; f < s.n_flows; f++) {
    tiles &= s.chunk[f].addr == at;
    at += s.chunk[f].size;
    const mt_cs_chunk *ch = &cs.chunk[f / NH];
    tiles &= s.chunk[f].addr >= ch->addr && s.chunk[f].addr + s.chunk[f].size <= ch->addr + ch->bytes;
  }
  CHECK(tiles && at == bytes, "%s %s: flows do not tile the buffer and the chunks", topo, algo);
  const long ent = mt_cs_entries_per_node(&cs);
  int same = 1, nops = 0;
  for (int n = 0; n < tb.n_nodes; n++) {
    same &= tb.count[n] == ent;
    for (int i = 0; i < tb.count[n]; i++) nops += mt_node_entries(&tb, n)[i].op == MT_OP_NOP;
  }
  CHECK(same && nops == 0, "%s %s: entries per node %d (max), counted %ld; %d NOPs", topo, algo, tb.max_entries, ent, nops);
  CHECK(tb.max_children == mt_cs_max_children(&cs), "%s %s: %d children at most, counted %d", topo, algo, tb.max_children, mt_cs_max_children(&cs));
  /* broken: the interleaved claim flipped (check derives it: a gather in or before the
   * last reduce step either way); a gather moved to step 1, before any flow is reduced */
  s.interleaved = !s.interleaved;
  mt_check_report r2;
  CHECK(mt_check(&s, &tb, NULL, &r2, &e) == 0 && r2.violations > 0, "%s %s: interleaved = %d accepted", topo, algo, s.interleaved);
  s.interleaved = !s.interleaved;
  mt_tables_free(&tb);
  cs_gather_moved_caught(&s, topo, algo);
  mt_chunksched_free(&cs);
  mt_sched_free(&s);
  mt_topo_free(&t);
  mt_plan_opt.chunks = 0;
  mt_plan_opt.intra = -1;
}

static void test_refused(void) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "torus:4x4", &e) == 0, "%s", e.msg);
  mt_plan_opt.chunks = 2;
  CHECK(mt_plan(&s, &t, "multitree", 1 << 20, 4, &e) != 0 && strstr(e.msg, "apply to hier, themis and dimbal"), "--chunks with multitree: '%s'", e.msg);
  mt_plan_opt.chunks = 2048; /* 2048 x 16 x 2 flows: 65536, more than 16 bits (mt_xfer.flow has 24) */
  CHECK(mt_plan(&s, &t, "themis", 64 << 20, 4, &e) == 0 && s.n_flows == 65536, "65536 flows: '%s'", e.msg);
  if (s.n_flows == 65536) {
    int top = 0;
    for (int i = 0; i < s.nx; i++)
      if (s.x[i].flow > (unsigned)top) top = (int)s.x[i].flow;
    CHECK(top == 65535, "highest flow of a transfer %d", top);
    mt_sched_free(&s);
  }
  mt_topo t2;
  CHECK(mt_topo_from_name(&t2, "themis:2d-sw-sw", &e) == 0, "%s", e.msg);
  mt_plan_opt.chunks = 64; /* 65536 flows x 2046 transfers: 134 million */
  CHECK(mt_plan(&s, &t2, "themis", 1 << 30, 4, &e) != 0 && strstr(e.msg, "134086656 transfers"), "1024 NPUs, 64 chunks: '%s'", e.msg);
  mt_topo_free(&t2);
  mt_plan_opt.chunks = 64; /* 64 x 32 flows of 4 bytes > 4 KiB */
  CHECK(mt_plan(&s, &t, "themis", 4096, 4, &e) != 0 && strstr(e.msg, "every flow needs at least one element"), "too small: '%s'", e.msg);
  mt_plan_opt.chunks = 0;
  mt_topo_free(&t);
}

/* The baseline on a 2-D ring x ring (both bidirectional 4-rings, 500 ns links; dim1 2 x 100
 * GB/s, dim2 2 x 100 GB/s): with chunks of S = 1 MiB, a stage on dim1 takes t1 = 3 x 500 +
 * S x 3/4 / 200 = 5432.16 ns, on dim2 t2 = 1500 + (S/4) x 3/4 / 200 = 2483.04 ns < t1 / 2.
 * dim1 is the bottleneck and never idles: FIFO runs the C reduce-scatters (ready at 0), then
 * the C all-gathers, each ready by then (chunk c's at (c+1) t1 + 2 t2 <= its turn); the
 * Latency Model's end is the closed form 2 C t1 (issue #15 acceptance, within 1%: exact). */
static void test_baseline_closed_form(void) {
  mt_topo t;
  mt_mdview v;
  mt_latmodel lm;
  if (cs_setup("dims:ring4@100x2:500ns,ring4@100x2:500ns", "themis", &t, &v, &lm)) return;
  const int C = 8;
  const double t1 = 1500 + 1048576 * 0.75 / 200;
  mt_chunksched cs;
  mt_err e = {{0}};
  mt_themis_opts o = {C, MT_INTRA_FIFO, 4, 2, 0};
  CHECK(mt_themis_baseline(&cs, &v, &lm, (uint64_t)C << 20, &o, &e) == 0, "%s", e.msg);
  double fin = 0;
  CHECK(mt_themis_order(&cs, &lm, &fin, &e) == 0, "%s", e.msg);
  CHECK(fabs(fin - 2 * C * t1) <= 0.01 * 2 * C * t1 && fabs(fin - 2 * C * t1) < 1e-6, "baseline end %.3f ns, closed form 2 C t1 = %.3f", fin, 2 * C * t1);
  mt_chunksched_free(&cs);
  mt_topo_free(&t);
}

int main(void) {
  test_fig7();
  test_baseline_closed_form();
  test_threshold();
  test_intra();
  test_intra_overlap();
  static const char *topos[] = {"dims:ring4@100x2,sw4@50x1", "dims:fc3@10x2,ring3@5x2,sw2@1x1", "dims:fc4@100x3,ring4@50x1:700ns,sw2@25x1", "torus:3x4",
                                "torus:4x4x4"};
  for (int i = 0; i < 5; i++) {
    const uint64_t bytes = 4 * 1000 * 64 + 4 * 12;
    test_expand(topos[i], "hier", 1, MT_INTRA_FIFO, bytes);
    test_expand(topos[i], "hier", 3, MT_INTRA_FIFO, bytes);
    test_expand(topos[i], "themis", 5, MT_INTRA_SCF, bytes);
    test_expand(topos[i], "themis", 4, MT_INTRA_FIFO, bytes);
  }
  test_refused();
  return MT_TEST_END("themis");
}
