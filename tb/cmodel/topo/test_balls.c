/* SPDX-License-Identifier: Apache-2.0
 * test_balls: the end nodes within b hops of a switch (topo/mt_balls), against the
 * fat-tree's pods worked out by hand and a breadth-first search on irregular networks. */
#include <stdlib.h>
#include <string.h>
#include "topo/mt_balls.h"
#include "mt_test.h"

/* ball as a bitmap of nodes */
static void ball_bits(const mt_balls *bl, int id, unsigned char *in, int n) {
  memset(in, 0, (size_t)n);
  for (int j = bl->off[id]; j < bl->off[id + 1]; j++)
    for (int v = bl->rng[j][0]; v < bl->rng[j][1]; v++) in[v] = 1;
}

/* fattree:2,4: 16 nodes, leaf switch x (vertex 16 + x) holds nodes 2x, 2x+1; a switch at
 * level l reaches the pod of 2^(m+1) nodes at level m >= l over (m - l) + m + 1 links. */
static void test_fattree_pods(void) {
  mt_topo t;
  mt_err e = {{0}};
  mt_balls bl;
  CHECK(mt_topo_from_name(&t, "fattree:2,4", &e) == 0, "%s", e.msg);
  CHECK(mt_balls_build(&bl, &t, 1 << 20) == 0, "build");
  for (int l = 0; l < 4; l++)
    for (int w = 0; w < 8; w++)
      for (int b = 0; b < 12; b++) {
        int x = 16 + l * 8 + w, m = (b - 1 + l) / 2, lo = 0, hi = 0;
        if (b >= l + 1) {
          if (m > 3) m = 3;
          lo = (w >> m) << (m + 1);
          hi = lo + (2 << m);
        }
        int id = mt_ball(&bl, x, b), n = bl.off[id + 1] - bl.off[id];
        CHECK(hi == lo ? n == 0 : n == 1 && bl.rng[bl.off[id]][0] == lo && bl.rng[bl.off[id]][1] == hi,
              "switch %d (level %d) radius %d: want [%d,%d), got %d ranges starting [%d,%d)", x, l, b, lo, hi, n,
              n ? bl.rng[bl.off[id]][0] : -1, n ? bl.rng[bl.off[id]][1] : -1);
      }
  CHECK(bl.n_ids == 1 + 8 + 4 + 2 + 1, "fattree:2,4 has 15 pods (and the empty ball), got %d balls", bl.n_ids);
  mt_balls_free(&bl);
  mt_topo_free(&t);
}

/* a switch network of the test data: every ball equals a breadth-first search's */
static void test_against_bfs(const char *name) {
  mt_topo t;
  mt_err e = {{0}};
  mt_balls bl;
  CHECK(mt_topo_from_name(&t, name, &e) == 0, "%s", e.msg);
  CHECK(mt_balls_build(&bl, &t, 1 << 20) == 0, "%s: build", name);
  const int N = t.n_nodes, V = t.n_vert;
  int *dist = malloc((size_t)V * sizeof(int)), *q = malloc((size_t)V * sizeof(int));
  unsigned char *in = malloc((size_t)N);
  for (int x = N; x < V; x++) {
    for (int v = 0; v < V; v++) dist[v] = -1;
    int h = 0, nq = 0;
    dist[x] = 0;
    q[nq++] = x;
    while (h < nq) { /* through switches only; end nodes are ends */
      int u = q[h++];
      if (u < N) continue;
      for (int k = t.out_start[u]; k < t.out_start[u + 1]; k++) {
        int w = t.links[t.out_list[k]].dst;
        if (dist[w] < 0) {
          dist[w] = dist[u] + 1;
          q[nq++] = w;
        }
      }
    }
    for (int b = 0; b < bl.nb + 2; b++) {
      ball_bits(&bl, mt_ball(&bl, x, b), in, N);
      int bad = 0;
      for (int v = 0; v < N; v++) bad += in[v] != (dist[v] >= 0 && dist[v] <= b);
      CHECK(bad == 0, "%s: switch %d radius %d: %d nodes differ from the breadth-first search", name, x, b, bad);
    }
  }
  free(dist);
  free(q);
  free(in);
  mt_balls_free(&bl);
  mt_topo_free(&t);
}

int main(void) {
  test_fattree_pods();
  test_against_bfs("file:" MT_TEST_DATA "/switched.topo");
  test_against_bfs("dgx2");
  test_against_bfs("bigraph:4x8");
  test_against_bfs("fattree:3,3");
  mt_topo t;
  mt_err e = {{0}};
  mt_balls bl;
  CHECK(mt_topo_from_name(&t, "torus:4x4", &e) == 0 && mt_balls_build(&bl, &t, 1 << 20) == -1, "a direct network has no balls");
  mt_topo_free(&t);
  CHECK(mt_topo_from_name(&t, "fattree:2,6", &e) == 0 && mt_balls_build(&bl, &t, 10) == -1, "more ranges than allowed refused");
  mt_topo_free(&t);
  return MT_TEST_END("test_balls");
}
