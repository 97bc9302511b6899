/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_meshtree: pipelined load-balanced trees for direct networks whose nodes have unequal
 * degrees (meshes; tori too).
 *
 * The buffer is cut into F = K N flows, K per root. Flow f gets a shortest-path spanning tree
 * into its root in which every node picks, among its neighbours one hop closer to the root,
 * the one whose link has carried the fewest trees so far: the trees together load every link
 * nearly alike, and a corner or edge node, farther from most roots than its neighbours, is a
 * leaf of almost every tree. The reduce (child -> parent) and the gather (parent -> child) of
 * a flow use the tree's links in the two directions, so the bytes on every directed link
 * approach the aggregate lower bound 2 (N-1) S / (B x directed links)
 * (docs/reference/bounds.md). The transfers are then list-scheduled into steps, at most one
 * message per directed link and step (its multiplicity on multi-links): a transfer is ready
 * once what it depends on was sent in an earlier step (a reduce: its children's reduces; a
 * gather: the gather into its sender, or at the root the last reduce into it), and the ready
 * transfers take the free links by their longest chain of dependent transfers still to come.
 * Reduces of later flows and gathers of earlier ones share the steps (interleaved), so no
 * half of the all-reduce runs at the corners' reduced bandwidth alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_sched.h"

/* Flows per root: enough to fill the pipeline, each at least MESHTREE_MIN_CHUNK bytes. */
#define MESHTREE_K 4
#define MESHTREE_MIN_CHUNK 4096

typedef struct {
  int flow, op, src, dst, link;
  long ls; /* latest start (x1000): the flow's due step less the chain after this transfer */
  int prio; /* steps of dependent transfers after this one (longest chain) */
  int deps; /* transfers still to be sent before this one may be */
  int step; /* 0: not scheduled */
} mtx;

/* Ready list sorted by priority (descending), then flow, then index. */
static const mtx *g_x;
static int g_mode, g_win = 1;
static int cmp_ready(const void *a, const void *b) {
  const mtx *x = g_x;
  const int i = *(const int *)a, j = *(const int *)b;
  if (g_mode == 2 && x[i].ls != x[j].ls) return x[i].ls < x[j].ls ? -1 : 1;
  if (g_mode == 1) {
    const int a = x[i].flow / g_win, b = x[j].flow / g_win;
    if (a != b) return a - b;
  }
  if (x[i].prio != x[j].prio) return x[j].prio - x[i].prio;
  if (x[i].flow != x[j].flow) return x[i].flow - x[j].flow;
  return i - j;
}

int mt_plan_meshtree(mt_sched *s, const mt_topo *t, mt_err *e) {
  if (t->n_sw || t->kind == MT_TOPO_DIMS) return mt_fail(e, "meshtree needs a direct network without switches; %s has switches", t->spec);
  const int N = t->n_nodes, L = t->n_links;
  if (N < 2) return mt_fail(e, "meshtree needs at least 2 nodes; %s has %d", t->spec, N);
  int K = getenv("MT_K") ? atoi(getenv("MT_K")) : MESHTREE_K;
  const uint64_t bytes = mt_plan_opt.bytes, elem = (uint64_t)(mt_plan_opt.elem > 0 ? mt_plan_opt.elem : 4);
  while (K > 1 && bytes && (bytes / elem < (uint64_t)K * (uint64_t)N || bytes / ((uint64_t)K * (uint64_t)N) < MESHTREE_MIN_CHUNK)) K--;
  const int F = K * N;
  int *rootof = malloc(sizeof(int) * (size_t)F);
  {
    int stride = 1;
    const char *st = getenv("MT_STRIDE");
    if (st) {
      stride = atoi(st);
      if (stride <= 0) { /* golden */
        stride = (int)(N * 0.618);
        while (stride > 1) {
          int a = stride, b = N;
          while (b) { int c = a % b; a = b; b = c; }
          if (a == 1) break;
          stride--;
        }
      }
    }
    for (int f = 0; f < F; f++) rootof[f] = (int)(((long)(f % N) * stride) % N);
  }
  /* trees */
  int *dist = malloc(sizeof(int) * (size_t)N), *order = malloc(sizeof(int) * (size_t)N);
  int *par = malloc(sizeof(int) * (size_t)F * (size_t)N);    /* [f][v] link v -> parent, -1 at the root */
  int *load = calloc((size_t)L, sizeof(int));                 /* trees per link (counted on the lower id) */
  int rc = 0;
  for (int f = 0; f < F && !rc; f++) {
    const int r = rootof[f];
    int *p = par + (size_t)f * (size_t)N;
    for (int v = 0; v < N; v++) dist[v] = -1, p[v] = -1;
    int qh = 0, qt = 0;
    dist[r] = 0;
    order[qt++] = r;
    while (qh < qt) {
      const int u = order[qh++];
      for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
        const int w = t->links[t->out_list[k]].dst;
        if (w < N && dist[w] < 0) dist[w] = dist[u] + 1, order[qt++] = w;
      }
    }
    if (qt != N) rc = mt_fail(e, "meshtree: %s is not connected", t->spec);
    for (int i = 1; i < qt && !rc; i++) {
      const int v = order[i];
      int best = -1, bl = 0;
      const int nk = t->out_start[v + 1] - t->out_start[v];
      for (int j = 0; j < nk; j++) {
        /* rotate the start by the flow so that ties spread over the neighbours */
        const int l = t->out_list[t->out_start[v] + (j + f / N) % nk];
        const int w = t->links[l].dst;
        if (w >= N || dist[w] != dist[v] - 1) continue;
        const int u = l < t->rev_link[l] ? l : t->rev_link[l];
        const int ld = load[u] * 64 / t->links[l].mult;
        if (best < 0 || ld < bl) best = l, bl = ld;
      }
      p[v] = best;
      load[best < t->rev_link[best] ? best : t->rev_link[best]]++;
    }
  }
  if (getenv("MESHTREE_DEBUG")) {
    int mx = 0, mn = 1 << 30, tot = 0, n = 0;
    for (int l = 0; l < L; l++)
      if (l < t->rev_link[l]) {
        if (load[l] > mx) mx = load[l];
        if (load[l] < mn) mn = load[l];
        tot += load[l], n++;
      }
    fprintf(stderr, "meshtree: K %d, tree loads min %d max %d mean %.2f\n", K, mn, mx, (double)tot / n);
  }
  free(load);
  if (rc) {
    free(dist), free(order), free(par), free(rootof);
    return -1;
  }
  /* transfers: per flow, reduce of v (index f*2N + v) and gather into v (f*2N + N + v) */
  const size_t NX = (size_t)F * 2 * (size_t)N;
  mtx *x = calloc(NX, sizeof(mtx));
  int *height = malloc(sizeof(int) * (size_t)N), *depth = malloc(sizeof(int) * (size_t)N);
  for (int f = 0; f < F; f++) {
    const int r = rootof[f];
    const int *p = par + (size_t)f * (size_t)N;
    mtx *xr = x + (size_t)f * 2 * (size_t)N, *xg = xr + N;
    /* depth by BFS order from the root: recompute an order in which parents come first */
    int qh = 0, qt = 0;
    for (int v = 0; v < N; v++) depth[v] = -1, height[v] = 0;
    depth[r] = 0;
    order[qt++] = r;
    while (qh < qt) { /* children of u: nodes whose parent link ends at u */
      const int u = order[qh++];
      for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
        const int w = t->links[t->out_list[k]].dst;
        if (w < N && depth[w] < 0 && p[w] >= 0 && t->links[p[w]].dst == u) depth[w] = depth[u] + 1, order[qt++] = w;
      }
    }
    for (int i = N - 1; i > 0; i--) { /* heights bottom-up */
      const int v = order[i], u = t->links[p[v]].dst;
      if (height[v] + 1 > height[u]) height[u] = height[v] + 1;
    }
    const int H = height[r];
    for (int v = 0; v < N; v++) {
      xr[v].flow = xg[v].flow = f;
      xr[v].op = MT_OP_REDUCE;
      xg[v].op = MT_OP_GATHER;
      if (v == r) {
        xr[v].step = xg[v].step = -1; /* no transfer */
        continue;
      }
      const int l = p[v];
      xr[v].src = v, xr[v].dst = t->links[l].dst, xr[v].link = l;
      xg[v].src = t->links[l].dst, xg[v].dst = v, xg[v].link = t->rev_link[l];
      xr[v].prio = depth[v] - 1 + H;
      xg[v].prio = height[v];
      {
        const double c = getenv("MT_C") ? atof(getenv("MT_C")) : 0.58;
        const long due = (long)(1000.0 * c * f) + 1000L * (getenv("MT_DUEH") ? 2 * H : 0);
        xr[v].ls = due - 1000L * xr[v].prio;
        xg[v].ls = due - 1000L * xg[v].prio;
      }
    }
    for (int v = 0; v < N; v++) {
      if (v == r) continue;
      const int u = t->links[p[v]].dst;
      if (u != r) xr[u].deps++; /* u's reduce waits for v's */
      xg[v].deps = 1;           /* the gather into u (or the root's last reduce) */
    }
  }
  /* list scheduling */
  int *ready = malloc(sizeof(int) * NX), nready = 0, *next = malloc(sizeof(int) * NX), nnext = 0;
  int *rootwait = malloc(sizeof(int) * (size_t)F); /* reduces into the root still to be sent */
  int *used = calloc((size_t)L, sizeof(int));
  size_t left = 0;
  for (int f = 0; f < F; f++) rootwait[f] = 0;
  for (size_t i = 0; i < NX; i++) {
    if (x[i].step < 0) continue;
    left++;
    if (x[i].op == MT_OP_REDUCE && x[i].dst == rootof[x[i].flow]) rootwait[x[i].flow]++;
    if (x[i].deps == 0) ready[nready++] = (int)i;
  }
  int step = 0, rlast = 0;
  g_x = x;
  if (getenv("MT_MODE")) g_mode = atoi(getenv("MT_MODE"));
  if (getenv("MT_WIN")) g_win = atoi(getenv("MT_WIN"));
  while (left) {
    step++;
    qsort(ready, (size_t)nready, sizeof(int), cmp_ready);
    memset(used, 0, sizeof(int) * (size_t)L);
    int keep = 0;
    nnext = 0;
    for (int k = 0; k < nready; k++) {
      mtx *a = &x[ready[k]];
      if (used[a->link] >= t->links[a->link].mult) {
        ready[keep++] = ready[k];
        continue;
      }
      used[a->link]++;
      a->step = step;
      left--;
      const int f = a->flow, r = rootof[f];
      mtx *xr = x + (size_t)f * 2 * (size_t)N, *xg = xr + N;
      if (a->op == MT_OP_REDUCE) {
        if (step > rlast) rlast = step;
        if (a->dst != r) {
          if (--xr[a->dst].deps == 0) next[nnext++] = (int)(&xr[a->dst] - x);
        } else if (--rootwait[f] == 0) {
          for (int v = 0; v < N; v++)
            if (v != r && t->links[par[(size_t)f * N + v]].dst == r) next[nnext++] = (int)(&xg[v] - x);
        }
      } else {
        for (int k2 = t->out_start[a->dst]; k2 < t->out_start[a->dst + 1]; k2++) {
          const int w = t->links[t->out_list[k2]].dst;
          if (w < N && w != r && t->links[par[(size_t)f * N + w]].dst == a->dst) next[nnext++] = (int)(&xg[w] - x);
        }
      }
    }
    nready = keep;
    if (getenv("MESHTREE_DEBUG")) {
      int u = 0;
      for (int l = 0; l < L; l++) u += used[l];
      fprintf(stderr, "%d:%d/%d ", step, u, nready + nnext);
    }
    for (int k = 0; k < nnext; k++) ready[nready++] = next[k];
  }
  mt_sched_init(s, t, "meshtree", F);
  for (int f = 0; f < F; f++) s->root[f] = rootof[f];
  int glow = 0;
  for (size_t i = 0; i < NX; i++) {
    if (x[i].step < 0) continue;
    mt_sched_add(s, x[i].flow, x[i].op, x[i].src, x[i].dst, x[i].step, &x[i].link, 1);
    if (x[i].op == MT_OP_GATHER && x[i].step <= rlast) glow = 1;
  }
  s->reduce_steps = rlast;
  s->steps = step;
  s->interleaved = glow;
  free(ready), free(next), free(rootwait), free(used), free(x), free(height), free(depth);
  free(dist), free(order), free(par), free(rootof);
  return 0;
}
