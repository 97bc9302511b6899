/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_baselines: the all-reduce algorithms MultiTree is compared against, each
 * expressed as per-flow reduce and gather trees so that they run on the same schedule
 * tables. Transfers between non-neighbours are routed (dimension order on grids,
 * shortest path elsewhere) and marked multi-hop. */
#include "plan/mt_sched.h"
#include <stdlib.h>
#include <string.h>

/* ---------- ring order: a Hamiltonian cycle where one is easy to build ---------- */

/* The grid's dimensions wider than 1, fastest first. */
/* The end of every baseline: a reduce-scatter half of R steps and an all-gather half as long;
 * a failed add (rc) frees the schedule. */
static int finish(mt_sched *s, int R, int rc) {
  s->reduce_steps = R;
  s->steps = 2 * R;
  if (rc) mt_sched_free(s);
  return rc ? -1 : 0;
}

static int live_dims(const mt_topo *t, int *d) {
  int n = 0;
  for (int k = 0; k < t->ndims; k++)
    if (t->dim[k] > 1) d[n++] = k;
  return n;
}

/* Boustrophedon (reflected mixed-radix Gray code) order: consecutive nodes are
 * neighbours; the cycle closes with a routed transfer where last and first are not. */
static void snake(const mt_topo *t, int *order) {
  for (int i = 0; i < t->n_nodes; i++) {
    int c[3] = {0, 0, 0};
    long below = 1;
    for (int k = 0; k < t->ndims; k++) {
      long digit = (i / below) % t->dim[k];
      long lines = i / (below * t->dim[k]);
      c[k] = (int)((lines & 1) ? t->dim[k] - 1 - digit : digit);
      below *= t->dim[k];
    }
    order[i] = mt_topo_node_at(t, c);
  }
}

/* 2-D grid with an even dimension `ev` (other `od`): row 0 along `od`, a snake over
 * the rest leaving column 0 free, and back along column 0: a cycle of neighbours. */
static void grid_cycle(const mt_topo *t, int od, int ev, int *order) {
  int W = t->dim[od], H = t->dim[ev], n = 0, c[3] = {0, 0, 0};
  for (int a = 0; a < W; a++) {
    c[od] = a;
    c[ev] = 0;
    order[n++] = mt_topo_node_at(t, c);
  }
  for (int b = 1; b < H; b++)
    for (int k = 0; k < W - 1; k++) {
      c[ev] = b;
      c[od] = (b & 1) ? W - 1 - k : 1 + k;
      order[n++] = mt_topo_node_at(t, c);
    }
  for (int b = H - 1; b >= 1; b--) {
    c[od] = 0;
    c[ev] = b;
    order[n++] = mt_topo_node_at(t, c);
  }
}

static void ring_order(const mt_topo *t, int *order) {
  if (mt_topo_is_grid(t)) {
    int d[3], nd = live_dims(t, d);
    if (nd == 2 && t->dim[d[1]] % 2 == 0) {
      grid_cycle(t, d[0], d[1], order);
      return;
    }
    if (nd == 2 && t->dim[d[0]] % 2 == 0) {
      grid_cycle(t, d[1], d[0], order);
      return;
    }
    snake(t, order);
    return;
  }
  for (int i = 0; i < t->n_nodes; i++) order[i] = i;
}

int mt_plan_ring(mt_sched *s, const mt_topo *t, mt_err *e) {
  const int N = t->n_nodes;
  mt_sched_init(s, t, "ring", N);
  int *a = mt_xcalloc((size_t)N, sizeof(int)), *pos = mt_xcalloc((size_t)N, sizeof(int));
  ring_order(t, a);
  for (int i = 0; i < N; i++) pos[a[i]] = i;
  int rc = 0;
  /* Flow f is rooted at node f. Reduce-scatter: the chunk starts at f's successor and
   * travels N-1 links round the ring to f (steps 1..N-1); all-gather carries the sum
   * on round the ring in the same direction (steps N..2N-2), as in the ring seed. */
  for (int f = 0; f < N && !rc; f++) {
    s->root[f] = f;
    for (int k = 1; k <= N - 1 && !rc; k++)
      rc = mt_sched_add_routed(s, f, MT_OP_REDUCE, a[(pos[f] + k) % N], a[(pos[f] + k + 1) % N], k, e) < 0;
    for (int k = 0; k <= N - 2 && !rc; k++)
      rc = mt_sched_add_routed(s, f, MT_OP_GATHER, a[(pos[f] + k) % N], a[(pos[f] + k + 1) % N], N + k, e) < 0;
  }
  free(a);
  free(pos);
  return finish(s, N - 1, rc);
}

int mt_plan_ring2d(mt_sched *s, const mt_topo *t, mt_err *e) {
  if (!mt_topo_is_grid(t) || t->ndims != 2 || t->dim[0] < 2 || t->dim[1] < 2)
    return mt_fail(e, "ring2d needs a 2-D torus or mesh with both sides >= 2, not %s", t->spec);
  const int N = t->n_nodes, X = t->dim[0], Y = t->dim[1], R = X + Y - 2;
  mt_sched_init(s, t, "ring2d", N);
  int rc = 0;
#define AT(x, y) ((((y) % Y + Y) % Y) * X + (((x) % X + X) % X))
  /* Flow f = (xf, yf), rooted at f. Reduce-scatter: ring along X in every row towards
   * column xf (steps 1..X-1), then ring along Y in column xf towards f (steps X..R).
   * All-gather in reverse: ring along Y from f (R+1..R+Y-1), then along X in every row
   * (R+Y..2R). On a mesh the ring's closing hop is routed back along the row/column. */
  for (int f = 0; f < N && !rc; f++) {
    int xf = f % X, yf = f / X;
    s->root[f] = f;
    for (int y = 0; y < Y && !rc; y++)
      for (int k = 1; k <= X - 1 && !rc; k++)
        rc = mt_sched_add_routed(s, f, MT_OP_REDUCE, AT(xf + k, y), AT(xf + k + 1, y), k, e) < 0;
    for (int k = 1; k <= Y - 1 && !rc; k++)
      rc = mt_sched_add_routed(s, f, MT_OP_REDUCE, AT(xf, yf + k), AT(xf, yf + k + 1), X - 1 + k, e) < 0;
    for (int k = 0; k <= Y - 2 && !rc; k++)
      rc = mt_sched_add_routed(s, f, MT_OP_GATHER, AT(xf, yf + k), AT(xf, yf + k + 1), R + 1 + k, e) < 0;
    for (int y = 0; y < Y && !rc; y++)
      for (int k = 0; k <= X - 2 && !rc; k++)
        rc = mt_sched_add_routed(s, f, MT_OP_GATHER, AT(xf + k, y), AT(xf + k + 1, y), R + Y + k, e) < 0;
  }
#undef AT
  return finish(s, R, rc);
}

/* ---------- double binary tree ---------- */

static int ctz(unsigned v) {
  int n = 0;
  while (!(v & 1u)) {
    v >>= 1;
    n++;
  }
  return n;
}

/* In-order binary tree on ranks 1..N (a rank's height is its count of trailing zero
 * bits; leaves are the odd ranks). Returns the parent rank, 0 for the root. */
static int bt_parent(int r, int N) {
  long long x = r;
  for (;;) {
    int h = ctz((unsigned)x);
    if ((1LL << h) > 2LL * N) return 0; /* above every rank: r is the root */
    long long p = ((x >> (h + 1)) & 1) ? x - (1LL << h) : x + (1LL << h);
    if (p <= N) return (int)p;
    x = p;
  }
}

int mt_plan_dbtree(mt_sched *s, const mt_topo *t, mt_err *e) {
  const int N = t->n_nodes;
  mt_sched_init(s, t, "dbtree", 2);
  /* Two trees over the ranks (topology-oblivious, as NCCL): tree 0 maps rank r to node
   * r-1; tree 1 mirrors it (node N-r) when N is even and shifts it (node r mod N) when
   * N is odd, so a node is a leaf in one tree and interior in the other. Each tree
   * carries half of the data. As in the paper the trees take turns: tree 0 on odd
   * steps, tree 1 on even steps, so a node never serves both in one step. */
  int *par[2], *dep[2], H = 0, rc = 0;
  for (int k = 0; k < 2; k++) {
    par[k] = mt_xcalloc((size_t)N, sizeof(int));
    dep[k] = mt_xcalloc((size_t)N, sizeof(int));
    for (int r = 1; r <= N; r++) {
      int node = k == 0 ? r - 1 : (N % 2 == 0 ? N - r : r % N);
      int pr = bt_parent(r, N);
      par[k][node] = pr == 0 ? -1 : (k == 0 ? pr - 1 : (N % 2 == 0 ? N - pr : pr % N));
      if (pr == 0) s->root[k] = node;
    }
    for (int v = 0; v < N; v++) {
      int d = 0;
      for (int u = v; par[k][u] >= 0; u = par[k][u]) d++;
      dep[k][v] = d;
      if (d > H) H = d;
    }
  }
  const int R = 2 * H;
  for (int k = 0; k < 2 && !rc; k++) {
    for (int v = 0; v < N && !rc; v++)
      if (par[k][v] >= 0) rc = mt_sched_add_routed(s, k, MT_OP_REDUCE, v, par[k][v], 2 * (H - dep[k][v]) + 1 + k, e) < 0;
    for (int v = 0; v < N && !rc; v++)
      if (par[k][v] >= 0) rc = mt_sched_add_routed(s, k, MT_OP_GATHER, par[k][v], v, R + 2 * (dep[k][v] - 1) + 1 + k, e) < 0;
  }
  for (int k = 0; k < 2; k++) {
    free(par[k]);
    free(dep[k]);
  }
  return finish(s, R, rc);
}

/* ---------- recursive halving-doubling (and with BiGraph rank mapping) ---------- */

static int plan_hd(mt_sched *s, const mt_topo *t, int rank_mapping, mt_err *e) {
  const int N = t->n_nodes;
  const char *name = rank_mapping ? "hdrm" : "hd";
  if (N & (N - 1)) return mt_fail(e, "%s needs a power-of-two number of nodes; %s has %d", name, t->spec, N);
  if (rank_mapping && t->kind != MT_TOPO_BIGRAPH) return mt_fail(e, "hdrm is defined on BiGraph networks (bigraph:MxN), not %s", t->spec);
  int T = 0;
  while ((1 << T) < N) T++;
  int *node = mt_xcalloc((size_t)N, sizeof(int));
  if (!rank_mapping)
    for (int r = 0; r < N; r++) node[r] = r;
  else {
    /* Every exchange pairs ranks differing in one bit, so putting even-parity ranks on
     * upper-switch nodes and odd-parity ranks on lower ones makes every pair cross
     * between the halves, as EFLOPS' HDRM does. Within a half, q = r >> 1 = (A, B) with
     * B the low log2(M) bits: the upper node is (switch A, local B), the lower node is
     * (switch A ^ B, local B). An exchange maps q to q ^ e, so the M nodes of one switch
     * reach M different switches on the other side: no switch-to-switch link carries two
     * exchanges (needs M and N_sw/2 powers of two, M <= N_sw/2; otherwise the plain
     * parity mapping, and the checker reports the contention). */
    int nsw = t->n_sw, M = N / nsw, half = nsw / 2;
    int lm = 0;
    while ((1 << lm) < M) lm++;
    int structured = !(M & (M - 1)) && !(half & (half - 1)) && M <= half;
    int nu = 0, nl = 0;
    for (int r = 0; r < N; r++) {
      int par = __builtin_popcount((unsigned)r) & 1, q = r >> 1;
      if (structured) {
        int A = q >> lm, B = q & (M - 1);
        node[r] = par ? N / 2 + ((A ^ B) * M) + B : A * M + B;
      } else node[r] = par ? N / 2 + nl++ : nu++;
    }
  }
  mt_sched_init(s, t, name, N);
  int rc = 0;
  /* Flow f is owned by rank f. Halving step k (1..T) exchanges across bit N >> k: rank
   * i hands chunk f to i ^ hb, hb the highest bit where i and f differ. Doubling is the
   * reverse, steps 2T - k + 1. */
  for (int f = 0; f < N && !rc; f++) {
    s->root[f] = node[f];
    for (int i = 0; i < N && !rc; i++) {
      if (i == f) continue;
      unsigned d = (unsigned)(i ^ f), hb = 1u << (31 - __builtin_clz(d));
      int k = T - ctz(hb), partner = i ^ (int)hb;
      rc = mt_sched_add_routed(s, f, MT_OP_REDUCE, node[i], node[partner], k, e) < 0;
    }
  }
  /* gather transfers in the order of their steps, so that children keep that order */
  for (int k = 1; k <= T && !rc; k++)
    for (int f = 0; f < N && !rc; f++)
      for (int i = 0; i < N && !rc; i++) {
        if (i == f) continue;
        unsigned d = (unsigned)(i ^ f), hb = 1u << (31 - __builtin_clz(d));
        if (T - ctz(hb) != T - k + 1) continue;
        rc = mt_sched_add_routed(s, f, MT_OP_GATHER, node[i ^ (int)hb], node[i], T + k, e) < 0;
      }
  free(node);
  return finish(s, T, rc);
}

int mt_plan_hd(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_hd(s, t, 0, e); }
int mt_plan_hdrm(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_hd(s, t, 1, e); }
