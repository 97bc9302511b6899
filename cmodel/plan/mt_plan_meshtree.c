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
 * (docs/reference/bounds.md). Consecutive flows have roots a stride apart.
 *
 * The transfers are then list-scheduled into steps, at most one message per directed link and
 * step (its multiplicity on multi-links): a transfer is ready once what it depends on was sent
 * in an earlier step (a reduce: its children's reduces; a gather: the gather into its sender,
 * or at the root the last reduce into it), and each link takes its ready transfers by the
 * smallest key. First pass: the latest start, flow f being due MESHTREE_RATE f steps after
 * flow 0, less the longest chain of transfers after this one in its flow; so the flows enter
 * the pipeline one after the other and reduces of later flows share the steps with gathers of
 * earlier ones (interleaved): no half of the all-reduce runs at the corners' bandwidth alone
 * (docs/reference/planner.md "meshtree"). Then forward-backward passes: the schedule run
 * backwards (the reversed dependencies, the transfers placed last first) and forwards again
 * in the order the backward pass gives, keeping the shortest. */
#include <stdlib.h>
#include <string.h>
#include "plan/mt_sched.h"

/* Flows per root: enough to fill the pipeline, fewer where a chunk would be under
 * MESHTREE_MIN_CHUNK bytes or the flows more than MESHTREE_MAX_FLOWS. */
#define MESHTREE_K 8
#define MESHTREE_MIN_CHUNK 1024
/* the NI tracks at most 4096 flows (MaxFlows, the head flit's 12-bit FLOW) */
#define MESHTREE_MAX_FLOWS 4096
/* forward-backward improvement passes of the list schedule */
#define MESHTREE_PASSES 4
/* the first pass's due steps: flow f is due MESHTREE_RATE f steps after flow 0 */
#define MESHTREE_RATE 0.5

typedef struct {
  int flow, op, src, dst, link; /* link -1: no transfer (the root's own place) */
} mtx;

typedef struct {
  long key;
  int idx;
} rkey;

static int gcd(int a, int b) {
  while (b) {
    const int c = a % b;
    a = b;
    b = c;
  }
  return a;
}


/* Dependencies as CSR lists: off[i] .. off[i+1] in adj. */
typedef struct {
  int *off, *adj;
} csr;

/* Min-heap of ready transfers per link (h[0 .. n-1] by key, then index). */
static int rk_less(rkey a, rkey b) { return a.key < b.key || (a.key == b.key && a.idx < b.idx); }
static void heap_push(rkey *h, int *n, rkey v) {
  int k = (*n)++;
  while (k > 0 && rk_less(v, h[(k - 1) / 2])) {
    h[k] = h[(k - 1) / 2];
    k = (k - 1) / 2;
  }
  h[k] = v;
}
static rkey heap_pop(rkey *h, int *n) {
  const rkey top = h[0], v = h[--*n];
  int k = 0;
  for (;;) {
    int c = 2 * k + 1;
    if (c >= *n) break;
    if (c + 1 < *n && rk_less(h[c + 1], h[c])) c++;
    if (!rk_less(h[c], v)) break;
    h[k] = h[c];
    k = c;
  }
  if (*n) h[k] = v;
  return top;
}

/* List-schedule the n transfers: a transfer is ready once every transfer of dep (its
 * predecessors) was placed in an earlier step; each step, every link takes its ready
 * transfers in ascending key while it has room (its multiplicity). nxt lists whom a placed
 * transfer may make ready (the reverse of dep). Returns the number of steps. */
static int list_sched(const mt_topo *t, const mtx *x, int n, const csr *dep, const csr *nxt, const long *key, int *step) {
  const int NL = t->n_links;
  int *cnt = malloc(sizeof(int) * (size_t)n), *hoff = calloc((size_t)NL + 1, sizeof(int));
  int *hn = calloc((size_t)NL, sizeof(int)), *fresh = malloc(sizeof(int) * (size_t)n);
  rkey *heap = malloc(sizeof(rkey) * (size_t)(n ? n : 1));
  int left = 0, T = 0;
  for (int i = 0; i < n; i++)
    if (x[i].link >= 0) hoff[x[i].link + 1]++;
  for (int l = 0; l < NL; l++) hoff[l + 1] += hoff[l];
  for (int i = 0; i < n; i++) {
    step[i] = 0;
    if (x[i].link < 0) continue;
    left++;
    cnt[i] = dep->off[i + 1] - dep->off[i];
    if (!cnt[i]) heap_push(heap + hoff[x[i].link], &hn[x[i].link], (rkey){key[i], i});
  }
  while (left) {
    T++;
    int nf = 0;
    for (int l = 0; l < NL; l++)
      for (int m = 0; m < t->links[l].mult && hn[l]; m++) {
        const int i = heap_pop(heap + hoff[l], &hn[l]).idx;
        step[i] = T;
        left--;
        for (int j = nxt->off[i]; j < nxt->off[i + 1]; j++)
          if (--cnt[nxt->adj[j]] == 0) fresh[nf++] = nxt->adj[j];
      }
    for (int k = 0; k < nf; k++) {
      const int i = fresh[k];
      heap_push(heap + hoff[x[i].link], &hn[x[i].link], (rkey){key[i], i});
    }
  }
  free(cnt), free(hoff), free(hn), free(fresh), free(heap);
  return T;
}

static void csr_build(csr *c, int n, const int *ea, const int *eb, int ne) {
  c->off = calloc((size_t)n + 1, sizeof(int));
  c->adj = malloc(sizeof(int) * (size_t)(ne ? ne : 1));
  for (int k = 0; k < ne; k++) c->off[ea[k] + 1]++;
  for (int i = 0; i < n; i++) c->off[i + 1] += c->off[i];
  int *pos = malloc(sizeof(int) * (size_t)n);
  memcpy(pos, c->off, sizeof(int) * (size_t)n);
  for (int k = 0; k < ne; k++) c->adj[pos[ea[k]]++] = eb[k];
  free(pos);
}

/* The schedule with K flows per root. */
static int plan_k(mt_sched *s, const mt_topo *t, int K, mt_err *e) {
  const int N = t->n_nodes, L = t->n_links;
  const int F = K * N;
  int *rootof = malloc(sizeof(int) * (size_t)F);
  /* consecutive flows' roots a stride apart (the largest stride at most 0.618 N coprime to N),
   * so that the flows in the pipeline at one time spread over the network */
  int stride = (int)(N * 0.618);
  while (stride > 1 && gcd(stride, N) != 1) stride--;
  if (stride < 1) stride = 1;
  for (int f = 0; f < F; f++) rootof[f] = (int)(((long)(f % N) * stride) % N);
  /* trees */
  int *dist = malloc(sizeof(int) * (size_t)N), *order = malloc(sizeof(int) * (size_t)N);
  int *par = malloc(sizeof(int) * (size_t)F * (size_t)N); /* [f][v] link v -> parent, -1 at the root */
  int *load = calloc((size_t)L, sizeof(int));             /* trees per link (counted on the lower id) */
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
  free(load);
  if (rc) {
    free(dist), free(order), free(par), free(rootof);
    return -1;
  }
  /* transfers: per flow, reduce of v (index f*2N + v) and gather into v (f*2N + N + v); the
   * dependencies (ea[k] before eb[k]) and each transfer's latest start for the first pass:
   * flow f is due c f steps after the first (flows enter at the pipeline's rate), less the
   * longest chain of transfers after this one in the flow */
  const size_t nxz = (size_t)F * 2 * (size_t)N;
  const int NX = (int)nxz;
  mtx *x = calloc(nxz, sizeof(mtx));
  long *key = malloc(sizeof(long) * nxz);
  int *ea = malloc(sizeof(int) * nxz * 4), *eb = malloc(sizeof(int) * nxz * 4), ne = 0;
  int *height = malloc(sizeof(int) * (size_t)N), *depth = malloc(sizeof(int) * (size_t)N);
  const double c = MESHTREE_RATE;
  for (int f = 0; f < F; f++) {
    const int r = rootof[f], base = f * 2 * N;
    const int *p = par + (size_t)f * (size_t)N;
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
    const long due = (long)(1000.0 * c * f);
    for (int v = 0; v < N; v++) {
      mtx *xr = &x[base + v], *xg = &x[base + N + v];
      xr->flow = xg->flow = f;
      xr->op = MT_OP_REDUCE;
      xg->op = MT_OP_GATHER;
      if (v == r) {
        xr->link = xg->link = -1;
        continue;
      }
      const int l = p[v], u = t->links[l].dst;
      xr->src = v, xr->dst = u, xr->link = l;
      xg->src = u, xg->dst = v, xg->link = t->rev_link[l];
      key[base + v] = due - 1000L * (depth[v] - 1 + H);
      key[base + N + v] = due - 1000L * height[v];
      if (u != r) {
        ea[ne] = base + v, eb[ne++] = base + u;         /* u's reduce after v's */
        ea[ne] = base + N + u, eb[ne++] = base + N + v; /* the gather into v after the one into u */
      } else
        for (int w = 0; w < N; w++) /* the root's gathers after its last reduce */
          if (w != r && t->links[p[w]].dst == r) ea[ne] = base + v, eb[ne++] = base + N + w;
    }
  }
  csr fw, bw;
  csr_build(&fw, NX, ea, eb, ne); /* successors */
  csr_build(&bw, NX, eb, ea, ne); /* predecessors */
  free(ea), free(eb);
  int *step = malloc(sizeof(int) * nxz), *best = malloc(sizeof(int) * nxz), *rs = malloc(sizeof(int) * nxz);
  int T = list_sched(t, x, NX, &bw, &fw, key, best);
  memcpy(step, best, sizeof(int) * nxz);
  for (int it = 0; it < MESHTREE_PASSES; it++) {
    /* backward: the transfers placed last go first in reversed time */
    for (int i = 0; i < NX; i++) key[i] = -(long)step[i] * NX + i;
    const int TB = list_sched(t, x, NX, &fw, &bw, key, rs);
    for (int i = 0; i < NX; i++) key[i] = (long)(TB + 1 - rs[i]) * NX + i;
    const int T2 = list_sched(t, x, NX, &bw, &fw, key, step);
    if (T2 < T) T = T2, memcpy(best, step, sizeof(int) * nxz);
  }
  mt_sched_init(s, t, "meshtree", F);
  for (int f = 0; f < F; f++) s->root[f] = rootof[f];
  int rlast = 0, glow = 0;
  for (int i = 0; i < NX; i++)
    if (x[i].link >= 0 && x[i].op == MT_OP_REDUCE && best[i] > rlast) rlast = best[i];
  for (int i = 0; i < NX; i++) {
    if (x[i].link < 0) continue;
    mt_sched_add(s, x[i].flow, x[i].op, x[i].src, x[i].dst, best[i], &x[i].link, 1);
    if (x[i].op == MT_OP_GATHER && best[i] <= rlast) glow = 1;
  }
  s->reduce_steps = rlast;
  s->steps = T;
  s->interleaved = glow;
  free(step), free(best), free(rs), free(key), free(x), free(height), free(depth);
  free(fw.off), free(fw.adj), free(bw.off), free(bw.adj);
  free(dist), free(order), free(par), free(rootof);
  return 0;
}

/* K: the most flows per root the chunks allow (MESHTREE_K at most), halved while the estimate
 * of `best` (per step MT_EST_L + MT_EST_O + MT_EST_DEP + the chunk's bytes / MT_EST_B: one
 * message per link)
 * says fewer, larger chunks are faster (small buffers, where a step's latency dominates). */
int mt_plan_meshtree(mt_sched *s, const mt_topo *t, mt_err *e) {
  if (t->n_sw) return mt_fail(e, "meshtree needs a direct network without switches; %s has %d", t->spec, t->n_sw);
  if (t->kind == MT_TOPO_DIMS) return mt_fail(e, "meshtree balances unit links (torus, mesh, ring, file:); %s has dimensions of their own rates", t->spec);
  const int N = t->n_nodes;
  if (N < 2) return mt_fail(e, "meshtree needs at least 2 nodes; %s has %d", t->spec, N);
  int K = MESHTREE_K;
  const uint64_t bytes = mt_plan_opt.bytes, elem = (uint64_t)(mt_plan_opt.elem > 0 ? mt_plan_opt.elem : 4);
  while (K > 1 && (K * N > MESHTREE_MAX_FLOWS || (bytes && (bytes / elem < (uint64_t)K * (uint64_t)N || bytes / ((uint64_t)K * (uint64_t)N) < MESHTREE_MIN_CHUNK))))
    K--;
  if (plan_k(s, t, K, e)) return -1;
  double est = s->steps * (MT_EST_L + MT_EST_O + MT_EST_DEP + (double)bytes / s->n_flows / MT_EST_B);
  for (int k = K / 2; bytes && k >= 1; k /= 2) {
    mt_sched o;
    if (plan_k(&o, t, k, e)) {
      mt_sched_free(s);
      return -1;
    }
    const double eo = o.steps * (MT_EST_L + MT_EST_O + MT_EST_DEP + (double)bytes / o.n_flows / MT_EST_B);
    if (eo >= est) {
      mt_sched_free(&o);
      break;
    }
    mt_sched_free(s);
    *s = o;
    est = eo;
  }
  return 0;
}
