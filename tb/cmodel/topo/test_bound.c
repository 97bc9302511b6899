/* SPDX-License-Identifier: Apache-2.0
 * test_bound: the all-reduce lower bounds (topo/mt_bound, docs/reference/bounds.md) against
 * values worked out by hand. S = 1 MiB = 1048576 bytes, B = 16 B/cycle, so S/B = 65536;
 * per node S / (B min(out, in)), cut S / (B min(in(X), out(X))), aggregate
 * 2 (N-1) S / (B x the links into end nodes):
 *   torus:4x4  every node 4 links each way: per node 65536/4 = 16384; no set has fewer than
 *              4 links out (single nodes have 4): cut 16384; 64 directed links:
 *              aggregate 2*15*65536/64 = 30720 (binding)
 *   mesh:4x4   corner 2 links: per node 65536/2 = 32768, cut 32768 (the corner); 24 links,
 *              48 directed: aggregate 2*15*65536/48 = 40960 (binding)
 *   mesh:3x3   corner 2: 32768, cut 32768; 12 links, 24 directed: 2*8*65536/24 = 43690.667
 *   ring:8     2 links a node: 32768; the half ring has 2 links each way: 32768, cut 32768;
 *              16 directed: 2*7*65536/16 = 57344 (binding)
 *   mesh:8x8   corner 2: 32768, cut 32768 (sub-boxes); 2*7*8 = 112 links, 224 directed:
 *              2*63*65536/224 = 36864 (binding; 2,359,296 at 64 MiB)
 *   torus:8x8  4 links: 16384, cut 16384; 256 directed: 2*63*65536/256 = 32256
 *   torus:4x8  4 links: 16384; a ring of 4 or half the torus has 8 links out: cut 16384;
 *              128 directed: 2*31*65536/128 = 31744
 *   fattree:4,2  16 nodes, one NI link each: per node 65536, cut 65536 (single nodes);
 *              2*15*65536/16 = 122880 (binding)
 *   dumbbell   two 4-cliques joined by one link: per node 65536/3 = 21845.333 (a node with
 *              3 links); a clique X has 1 link in and 1 out: cut 65536 (binding); 26
 *              directed links: aggregate 2*7*65536/26 = 35288.615
 *   hier:4+2@16,@4 (GB/s weights, B = 1 byte/ns per GB/s, time in ns): learners' links
 *              16 GB/s: per node 1048576/16 = 65536; machine 1 with its switch (4
 *              learners) has one 4 GB/s link up: cut 1048576/4 = 262144 (binding);
 *              6 x 16 GB/s into nodes: 2*5*1048576/96 = 109226.667
 *   dims:ring4@100x2,ring4@5x2 (ns): each NPU 2 x 100 + 2 x 5 = 210 GB/s: per node
 *              1048576/210 = 4993.219; a dimension-1 ring (4 NPUs) has 4 x 2 links of 5
 *              GB/s out: cut 1048576/40 = 26214.4 (binding); 16 x 210 GB/s into nodes:
 *              2*15*1048576/3360 = 9362.286
 * The formula these replace, (N-1)/N S (1/out + 1/in) / B per node (and (N-|X|)/N for a
 * cut), gives 30720 per node on torus:4x4 and 61440 on mesh:4x4's corner; those fail here.
 * The sub-box family equals the exact cut on tori and meshes small enough to enumerate, its
 * links counted per dimension or link by link. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "topo/mt_bound.h"
#include "mt_test.h"

static const double S = 1048576.0, B = 16.0;

static int near(double a, double b) { return fabs(a - b) <= 1e-6 * (fabs(b) + 1); }

/* The bounds of t against the hand values; gbps: weigh each link by mult x its GB/s (B = 1, ns). */
static void check_bounds(const char *name, const mt_topo *t, int gbps, double per_node, double cut, double agg, int family, int binding) {
  mt_err e = {{0}};
  mt_bound b;
  double *w = NULL;
  if (gbps) {
    w = calloc((size_t)t->n_links + 1, sizeof(double));
    for (int l = 0; l < t->n_links; l++) w[l] = t->links[l].mult * t->links[l].bw;
  }
  CHECK(!mt_bound_rated(t, (uint64_t)S, gbps ? 1.0 : B, w, &b, &e), "%s: %s", name, e.msg);
  free(w);
  CHECK(near(b.per_node, per_node), "%s: per-node %.3f, hand %.3f", name, b.per_node, per_node);
  CHECK(near(b.cut, cut), "%s: cut %.3f, hand %.3f", name, b.cut, cut);
  CHECK(near(b.aggregate, agg), "%s: aggregate %.3f, hand %.3f", name, b.aggregate, agg);
  CHECK(b.cut_family == family, "%s: cut family %d, expected %d", name, b.cut_family, family);
  CHECK(b.binding == binding, "%s: binding %s, expected %s", name, mt_bound_name(b.binding), mt_bound_name(binding));
  const double mx = fmax(per_node, fmax(cut, agg));
  CHECK(near(b.bound, mx), "%s: bound %.3f, the largest %.3f", name, b.bound, mx);
}

static void one(const char *name, int gbps, double per_node, double cut, double agg, int family, int binding) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_name(&t, name, &e), "%s: %s", name, e.msg);
  check_bounds(name, &t, gbps, per_node, cut, agg, family, binding);
  mt_topo_free(&t);
}

/* The exact cut (every node set) and the sub-box family agree on grids up to 20 nodes. */
static void boxes_vs_exact(const char *name) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_name(&t, name, &e), "%s: %s", name, e.msg);
  mt_bound ex, bx;
  mt_bound_exact_n = MT_BOUND_EXACT_N;
  mt_bound_of(&t, (uint64_t)S, B, &ex, &e);
  mt_bound_exact_n = 0;
  mt_bound_of(&t, (uint64_t)S, B, &bx, &e);
  mt_bound_exact_n = MT_BOUND_EXACT_N;
  CHECK(ex.cut_family == MT_CUT_EXACT && bx.cut_family == MT_CUT_BOXES, "%s: families %d %d", name, ex.cut_family, bx.cut_family);
  CHECK(near(ex.cut, bx.cut), "%s: exact cut %.3f, sub-boxes %.3f", name, ex.cut, bx.cut);
  CHECK(bx.cut_sets < ex.cut_sets, "%s: %ld boxes, %ld sets", name, bx.cut_sets, ex.cut_sets);
  /* the boxes counted link by link (a link weighs a hair more: the per-dimension count is off)
   * give the same as the per-dimension count */
  double *w = calloc((size_t)t.n_links, sizeof(double));
  for (int l = 0; l < t.n_links; l++) w[l] = t.links[l].mult;
  w[0] *= 1 + 1e-12;
  mt_bound_exact_n = 0;
  mt_bound sl;
  mt_bound_rated(&t, (uint64_t)S, B, w, &sl, &e);
  mt_bound_exact_n = MT_BOUND_EXACT_N;
  free(w);
  CHECK(near(sl.cut, bx.cut) && sl.cut_sets == bx.cut_sets, "%s: boxes link by link %.3f (%ld), per dimension %.3f (%ld)", name, sl.cut,
        sl.cut_sets, bx.cut, bx.cut_sets);
  mt_topo_free(&t);
}

/* The same with links of dimension d weighing wd[d] (a slow dimension makes a box that spans
 * the others bind: torus:2x8 with dimension 0 at 1/100 is cut by the 8-ring on one side,
 * 8 links of 0.01 each way, S / (0.08 B) = 819,200). */
static void weighted_boxes(const char *name, const double *wd, double hand) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_name(&t, name, &e), "%s: %s", name, e.msg);
  double *w = calloc((size_t)t.n_links, sizeof(double));
  for (int l = 0; l < t.n_links; l++) w[l] = wd[t.links[l].dim];
  mt_bound ex, bx;
  mt_bound_rated(&t, (uint64_t)S, B, w, &ex, &e);
  mt_bound_exact_n = 0;
  mt_bound_rated(&t, (uint64_t)S, B, w, &bx, &e);
  mt_bound_exact_n = MT_BOUND_EXACT_N;
  free(w);
  CHECK(near(ex.cut, bx.cut) && bx.cut_family == MT_CUT_BOXES, "%s weighted: exact cut %.3f, sub-boxes %.3f", name, ex.cut, bx.cut);
  if (hand > 0) CHECK(near(ex.cut, hand) && ex.binding == MT_BOUND_CUT, "%s weighted: cut %.3f, hand %.3f", name, ex.cut, hand);
  mt_topo_free(&t);
}

static void dumbbell(void) {
  int links[13][3], n = 0;
  for (int c = 0; c < 2; c++)
    for (int a = 0; a < 4; a++)
      for (int b = a + 1; b < 4; b++) {
        links[n][0] = 4 * c + a;
        links[n][1] = 4 * c + b;
        links[n++][2] = 1;
      }
  links[n][0] = 3;
  links[n][1] = 4;
  links[n++][2] = 1;
  mt_topo t;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_links(&t, "dumbbell", 8, 0, n, (const int(*)[3])links, &e), "dumbbell: %s", e.msg);
  check_bounds("dumbbell", &t, 0, 65536.0 / 3, 65536, 2 * 7 * 65536.0 / 26, MT_CUT_EXACT, MT_BOUND_CUT);
  mt_bound b;
  mt_bound_of(&t, (uint64_t)S, B, &b, &e);
  CHECK(b.cut_size == 4 && b.cut_in == 1 && b.cut_out == 1, "dumbbell cut set |X| %d, in %g, out %g; hand 4, 1, 1", b.cut_size, b.cut_in, b.cut_out);
  mt_topo_free(&t);
}

/* The replaced formulas miss the hand values: (N-1)/N S (1/out + 1/in) / B per node, and
 * the sum of both directions for a cut. */
static void old_formulas(void) {
  const double old_torus = 15.0 / 16 * S * (1.0 / 4 + 1.0 / 4) / B, old_corner = 15.0 / 16 * S * (1.0 / 2 + 1.0 / 2) / B;
  CHECK(near(old_torus, 30720) && !near(old_torus, 16384), "old torus:4x4 per-node %.1f", old_torus);
  CHECK(near(old_corner, 61440) && !near(old_corner, 40960), "old mesh:4x4 per-node %.1f above the binding 40960", old_corner);
}

/* mt_bound_assert: a run below the bound is an error naming both numbers; MT_BOUND_SCALE scales. */
static void assertion(void) {
  mt_topo t;
  mt_err e = {{0}};
  mt_bound b;
  CHECK(!mt_topo_from_name(&t, "mesh:4x4", &e), "%s", e.msg);
  mt_bound_of(&t, (uint64_t)S, B, &b, &e);
  CHECK(!mt_bound_assert(&b, 40960, "cycles", &e), "a run at the bound refused: %s", e.msg);
  CHECK(mt_bound_assert(&b, 40000, "cycles", &e) && strstr(e.msg, "40000.0 cycles") && strstr(e.msg, "aggregate lower bound of 40960.0"),
        "a run below the bound passed: %s", e.msg);
  setenv("MT_BOUND_SCALE", "2", 1);
  mt_bound_of(&t, (uint64_t)S, B, &b, &e);
  CHECK(near(b.bound, 81920) && near(b.per_node, 65536), "MT_BOUND_SCALE=2: bound %.1f", b.bound);
  setenv("MT_BOUND_SCALE", "0.5", 1);
  mt_bound_of(&t, (uint64_t)S, B, &b, &e);
  CHECK(near(b.bound, 20480), "MT_BOUND_SCALE=0.5: bound %.1f", b.bound);
  unsetenv("MT_BOUND_SCALE");
  mt_topo_free(&t);
}

static void refusals(void) {
  mt_topo t;
  mt_err e = {{0}};
  mt_bound b;
  CHECK(!mt_topo_from_name(&t, "torus:4x4", &e), "%s", e.msg);
  CHECK(mt_bound_of(&t, 1024, 0, &b, &e) && strstr(e.msg, "expected > 0"), "B = 0 accepted: %s", e.msg);
  mt_topo_free(&t);
}

int main(void) {
  const int A = MT_BOUND_AGGREGATE, C = MT_BOUND_CUT;
  one("torus:4x4", 0, 16384, 16384, 30720, MT_CUT_EXACT, A);
  one("mesh:4x4", 0, 32768, 32768, 40960, MT_CUT_EXACT, A);
  one("mesh:3x3", 0, 32768, 32768, 2 * 8 * 65536.0 / 24, MT_CUT_EXACT, A);
  one("ring:8", 0, 32768, 32768, 57344, MT_CUT_EXACT, A);
  one("mesh:8x8", 0, 32768, 32768, 36864, MT_CUT_BOXES, A);
  one("torus:8x8", 0, 16384, 16384, 32256, MT_CUT_BOXES, A);
  one("torus:4x8", 0, 16384, 16384, 31744, MT_CUT_BOXES, A);
  one("fattree:4,2", 0, 65536, 65536, 122880, MT_CUT_NODES, A);
  one("hier:4+2@16,@4", 1, 65536, 262144, 2 * 5 * S / 96, MT_CUT_SUBTREES, C);
  one("dims:ring4@100x2,ring4@5x2", 1, S / 210, S / 40, 2 * 15 * S / 3360, MT_CUT_EXACT, C);
  boxes_vs_exact("torus:4x4");
  boxes_vs_exact("mesh:4x4");
  boxes_vs_exact("mesh:3x5");
  boxes_vs_exact("torus:2x3x3");
  boxes_vs_exact("mesh:2x3x3");
  boxes_vs_exact("ring:7");
  const double w2x8[] = {0.01, 1}, w35[] = {0.1, 1}, w233[] = {1, 0.05, 1};
  weighted_boxes("torus:2x8", w2x8, S / (0.08 * B));
  weighted_boxes("mesh:3x5", w35, 0);
  weighted_boxes("torus:2x3x3", w233, 0);
  dumbbell();
  old_formulas();
  assertion();
  refusals();
  return MT_TEST_END("test_bound");
}
