/* SPDX-License-Identifier: Apache-2.0
 * test_bound: the all-reduce lower bounds (topo/mt_bound) against values worked out by hand
 * (S = 1 MiB, B = 16 B/cycle):
 *   torus:4x4  per node 2 (15/16) S / (4 B) = 30720; cut the same; average (d = 4) the same
 *   mesh:4x4   corner   2 (15/16) S / (2 B) = 61440; average d = 48/16 = 3: 40960
 *   mesh:3x3   corner   2 (8/9) S / (2 B) = 58254.2; average d = 24/9: 43690.7
 *   ring:8     per node 2 (7/8) S / (2 B) = 57344; the half ring (4 nodes, 2 links each way)
 *              gives (4/8) S (1/2 + 1/2) / B = 32768, less
 *   mesh:8x8   corner 2 (63/64) S / (2 B) = 64512 (16.25 GB/s at 1 GHz)
 *   dumbbell   two 4-cliques joined by one link: a clique X has 1 link in and 1 out, so the
 *              cut (4/8) S (1 + 1) / B = 65536 exceeds the per-node 2 (7/8) S / (3 B) = 38229.3
 * the sub-box family equals the exact cut on tori and meshes small enough to enumerate, and
 * a broken formula (N instead of N-1, or the mean degree instead of the node's) misses the
 * hand values, so these checks can fail. */
#include <math.h>
#include <string.h>
#include "topo/mt_bound.h"
#include "mt_test.h"

static const double S = 1048576.0, B = 16.0;

static int near(double a, double b) { return fabs(a - b) <= 1e-6 * (fabs(b) + 1); }

static void one(const char *name, double per_node, double cut, double avg, int family) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_name(&t, name, &e), "%s: %s", name, e.msg);
  mt_bound b;
  CHECK(!mt_bound_of(&t, (uint64_t)S, B, &b, &e), "%s: %s", name, e.msg);
  CHECK(near(b.per_node, per_node), "%s: per-node %.3f, hand %.3f", name, b.per_node, per_node);
  CHECK(near(b.cut, cut), "%s: cut %.3f, hand %.3f", name, b.cut, cut);
  CHECK(near(b.average, avg), "%s: average %.3f, hand %.3f", name, b.average, avg);
  CHECK(b.cut_family == family, "%s: cut family %d, expected %d", name, b.cut_family, family);
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
  mt_bound b;
  mt_bound_of(&t, (uint64_t)S, B, &b, &e);
  CHECK(near(b.per_node, 2 * 7.0 / 8 * S / (3 * B)), "dumbbell per-node %.3f", b.per_node);
  CHECK(near(b.cut, S / B) && b.cut_size == 4 && b.cut_in == 1 && b.cut_out == 1, "dumbbell cut %.3f (|X| %d, in %d, out %d), hand %.3f",
        b.cut, b.cut_size, b.cut_in, b.cut_out, S / B);
  /* average: 26 directed links over 8 nodes */
  CHECK(near(b.average, 2 * 7.0 * S / (8 * (26.0 / 8) * B)), "dumbbell average %.3f", b.average);
  mt_topo_free(&t);
}

/* Broken formulas miss the hand values: the checks above can fail. */
static void broken(void) {
  const double hand_mesh44 = 61440, hand_torus44 = 30720;
  const double no_minus_one = 2.0 * 16 / 16 * S / (2 * B); /* N/N instead of (N-1)/N */
  const double mean_degree = 2.0 * 15 / 16 * S / (3 * B);  /* the mesh's mean degree for the corner */
  const double one_way = 15.0 / 16 * S / (4 * B);          /* the reduce-scatter alone */
  CHECK(!near(no_minus_one, hand_mesh44), "N/N not caught");
  CHECK(!near(mean_degree, hand_mesh44), "mean degree not caught");
  CHECK(!near(one_way, hand_torus44), "half the all-reduce not caught");
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
  one("torus:4x4", 30720, 30720, 30720, MT_CUT_EXACT);
  one("mesh:4x4", 61440, 61440, 40960, MT_CUT_EXACT);
  one("mesh:3x3", 2 * 8.0 / 9 * S / (2 * B), 2 * 8.0 / 9 * S / (2 * B), 2 * 8.0 * S / (9 * (24.0 / 9) * B), MT_CUT_EXACT);
  one("ring:8", 57344, 57344, 57344, MT_CUT_EXACT);
  one("mesh:8x8", 64512, 64512, 2 * 63.0 * S / (64 * 3.5 * B), MT_CUT_BOXES);
  one("torus:8x8", 2 * 63.0 / 64 * S / (4 * B), 2 * 63.0 / 64 * S / (4 * B), 2 * 63.0 / 64 * S / (4 * B), MT_CUT_BOXES);
  one("torus:4x8", 2 * 31.0 / 32 * S / (4 * B), 2 * 31.0 / 32 * S / (4 * B), 2 * 31.0 / 32 * S / (4 * B), MT_CUT_BOXES);
  one("fattree:4,2", 2 * 15.0 / 16 * S / B, 2 * 15.0 / 16 * S / B, 2 * 15.0 / 16 * S / B, MT_CUT_NODES);
  boxes_vs_exact("torus:4x4");
  boxes_vs_exact("mesh:4x4");
  boxes_vs_exact("mesh:3x5");
  boxes_vs_exact("torus:2x3x3");
  dumbbell();
  broken();
  refusals();
  return MT_TEST_END("test_bound");
}
