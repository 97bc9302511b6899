/* SPDX-License-Identifier: Apache-2.0
 * mt_flexreduce: FlexReduce and BlueConnect plans, their schedules, Eq. 1-6 and Eq. 12. */
#include "plan/mt_flexreduce.h"
#include <stdlib.h>
#include <string.h>

#define MAX_DEN (1ull << 31) /* u * n with n < 2^32 elements stays below 2^63 */

typedef struct {
  mt_fr_entry *ent;
  int n, cap;
  int *parts;
  int np, capp;
} entvec;

static void ent_push(entvec *v, int level, int node, int root, uint64_t lo, uint64_t hi, const int *parts, int np) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 64;
    v->ent = mt_xrealloc(v->ent, (size_t)v->cap * sizeof *v->ent);
  }
  while (v->np + np > v->capp) {
    v->capp = v->capp ? 2 * v->capp : 256;
    v->parts = mt_xrealloc(v->parts, (size_t)v->capp * sizeof(int));
  }
  mt_fr_entry *x = &v->ent[v->n++];
  x->level = level;
  x->node = node;
  x->root = root;
  x->lo = lo;
  x->hi = hi;
  x->np = np;
  x->poff = v->np;
  memcpy(v->parts + v->np, parts, (size_t)np * sizeof(int));
  v->np += np;
}

void mt_fr_plan_free(mt_fr_plan *p) {
  free(p->ent);
  free(p->parts);
  free(p->lo);
  free(p->hi);
  memset(p, 0, sizeof *p);
}

static uint64_t gcd64(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* den: lcm over learners of the product of the degrees of their ancestors */
static int plan_init(const mt_htree *h, mt_fr_plan *p, mt_err *e) {
  memset(p, 0, sizeof *p);
  uint64_t den = 1;
  for (int v = 0; v < h->n_leaves; v++) {
    uint64_t prod = 1;
    for (int a = h->parent[v]; a >= 0; a = h->parent[a]) {
      prod *= (uint64_t)mt_htree_deg(h, a);
      if (prod > MAX_DEN) break;
    }
    if (prod <= MAX_DEN) den = den / gcd64(den, prod) * prod;
    if (prod > MAX_DEN || den > MAX_DEN)
      return mt_fail(e, "hierarchy too irregular: the portions need a common denominator above 2^31 (learner %d)", v);
  }
  p->L = h->L;
  p->den = den;
  p->lo = mt_xcalloc((size_t)h->n_leaves, sizeof(uint64_t));
  p->hi = mt_xcalloc((size_t)h->n_leaves, sizeof(uint64_t));
  for (int v = 0; v < h->n_leaves; v++) p->hi[v] = den;
  return 0;
}

static int by_entry(const void *a, const void *b) {
  const mt_fr_entry *x = a, *y = b;
  if (x->level != y->level) return x->level - y->level;
  if (x->node != y->node) return x->node - y->node;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void plan_finish(mt_fr_plan *p, entvec *ev) {
  qsort(ev->ent, (size_t)ev->n, sizeof *ev->ent, by_entry);
  p->ent = ev->ent;
  p->n_ent = ev->n;
  p->parts = ev->parts;
}

/* ---------------- FlexReduce_plan ---------------- */

static const mt_fr_plan *sort_plan; /* qsort has no context argument in C11 */

/* assign_range's order: by the current range's end, then its start, then the id */
static int by_range(const void *a, const void *b) {
  const int u = *(const int *)a, v = *(const int *)b;
  const mt_fr_plan *p = sort_plan;
  if (p->hi[u] != p->hi[v]) return p->hi[u] < p->hi[v] ? -1 : 1;
  if (p->lo[u] != p->lo[v]) return p->lo[u] < p->lo[v] ? -1 : 1;
  return u - v;
}
static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* find_bounds: the holders among lv[0..k) of each piece of [lo, hi), a new entry wherever
 * the set of holders changes. */
static void find_bounds(entvec *ev, const mt_fr_plan *p, int level, int x, int r, uint64_t lo, uint64_t hi, const int *lv, int k,
                        uint64_t *cut, int *cur, int *prev) {
  int nc = 0, npv = -1;
  cut[nc++] = lo;
  for (int i = 0; i < k; i++) {
    if (p->lo[lv[i]] > lo && p->lo[lv[i]] < hi) cut[nc++] = p->lo[lv[i]];
    if (p->hi[lv[i]] > lo && p->hi[lv[i]] < hi) cut[nc++] = p->hi[lv[i]];
  }
  qsort(cut, (size_t)nc, sizeof *cut, cmp_u64);
  cut[nc++] = hi;
  uint64_t start = lo;
  for (int c = 0; c + 1 < nc; c++) {
    if (cut[c] == cut[c + 1]) continue;
    int n = 0;
    for (int i = 0; i < k; i++) /* lv is in id order: participants come out sorted */
      if (p->lo[lv[i]] <= cut[c] && p->hi[lv[i]] >= cut[c + 1]) cur[n++] = lv[i];
    if (npv >= 0 && (n != npv || memcmp(cur, prev, (size_t)n * sizeof(int)))) {
      ent_push(ev, level, x, r, start, cut[c], prev, npv);
      start = cut[c];
    }
    memcpy(prev, cur, (size_t)n * sizeof(int));
    npv = n;
  }
  if (npv >= 0) ent_push(ev, level, x, r, start, hi, prev, npv);
}

int mt_fr_plan_build(const mt_htree *h, mt_fr_plan *p, mt_err *e) {
  if (plan_init(h, p, e)) return -1;
  const int N = h->n_leaves;
  uint64_t *portion = mt_xcalloc((size_t)N, sizeof(uint64_t)), *nlo = mt_xcalloc((size_t)N, sizeof(uint64_t));
  int *lv = mt_xcalloc((size_t)N, sizeof(int)), *ord = mt_xcalloc((size_t)N, sizeof(int));
  int *cur = mt_xcalloc((size_t)N, sizeof(int)), *prev = mt_xcalloc((size_t)N, sizeof(int));
  uint64_t *cut = mt_xcalloc(2 * (size_t)N + 2, sizeof(uint64_t));
  entvec ev = {0};
  for (int v = 0; v < N; v++) portion[v] = p->den;
  /* reverse-BFS level order: the lowest level of switches first */
  for (int l = 0; l < h->L; l++)
    for (int x = N; x < h->n_vert; x++) {
      if (h->level[x] != l) continue;
      const int k = h->lstart[x + 1] - h->lstart[x], d = mt_htree_deg(h, x);
      memcpy(lv, h->llist + h->lstart[x], (size_t)k * sizeof(int));
      memcpy(ord, lv, (size_t)k * sizeof(int));
      for (int i = 0; i < k; i++) portion[lv[i]] /= (uint64_t)d;
      /* assign_range */
      sort_plan = p;
      qsort(ord, (size_t)k, sizeof(int), by_range);
      uint64_t progress = 0;
      for (int i = 0; i < k; i++) {
        const int r = ord[i];
        find_bounds(&ev, p, l, x, r, progress, progress + portion[r], lv, k, cut, cur, prev);
        nlo[r] = progress;
        progress += portion[r];
      }
      for (int i = 0; i < k; i++) {
        p->lo[lv[i]] = nlo[lv[i]];
        p->hi[lv[i]] = nlo[lv[i]] + portion[lv[i]];
      }
    }
  plan_finish(p, &ev);
  free(portion);
  free(nlo);
  free(lv);
  free(ord);
  free(cur);
  free(prev);
  free(cut);
  return 0;
}

/* ---------------- BlueConnect ---------------- */

int mt_blc_plan_build(const mt_htree *h, mt_fr_plan *p, mt_err *e) {
  char why[160];
  if (!mt_htree_symmetric(h, why, sizeof why))
    return mt_fail(e, "blueconnect needs a symmetric hierarchy (equal groups at every level); this one is not: %s. The paper's BlueConnect falls back to a flat ring here: use --algo ring, or --algo flexreduce", why);
  if (plan_init(h, p, e)) return -1;
  const int N = h->n_leaves, L = h->L;
  entvec ev = {0};
  int *parts = mt_xcalloc((size_t)N, sizeof(int));
  /* learner v's coordinate at level l: the index of its level-(l-1) ancestor (v itself at
   * level 0) among the children of its level-l ancestor; after level l it holds the
   * (c_0, .., c_l)-th piece of a delta_0 x .. x delta_l split of the buffer */
  int *coord = mt_xcalloc((size_t)N * (size_t)L, sizeof(int));
  for (int v = 0; v < N; v++)
    for (int l = 0, c = v; l < L; l++) {
      int a = h->parent[c];
      for (int i = h->cstart[a]; i < h->cstart[a + 1]; i++)
        if (h->clist[i] == c) coord[v * L + l] = i - h->cstart[a];
      c = a;
    }
  uint64_t *nlo = mt_xcalloc((size_t)N, sizeof(uint64_t));
  for (int l = 0; l < L; l++) {
    uint64_t w = 0;
    for (int v = 0; v < N; v++) {
      const int x = mt_htree_anc(h, v, l), d = mt_htree_deg(h, x);
      w = (p->hi[v] - p->lo[v]) / (uint64_t)d; /* the same for every learner (symmetric) */
      nlo[v] = p->lo[v] + w * (uint64_t)coord[v * L + l];
      int np = 0;
      for (int i = h->lstart[x]; i < h->lstart[x + 1]; i++) {
        int u = h->llist[i], same = 1;
        for (int j = 0; j < l; j++) same &= coord[u * L + j] == coord[v * L + j];
        if (same) parts[np++] = u;
      }
      ent_push(&ev, l, x, v, nlo[v], nlo[v] + w, parts, np);
    }
    for (int v = 0; v < N; v++) {
      p->lo[v] = nlo[v];
      p->hi[v] = nlo[v] + w;
    }
  }
  free(nlo);
  free(parts);
  free(coord);
  plan_finish(p, &ev);
  return 0;
}

int mt_fr_calls(const mt_fr_plan *p, const mt_htree *h, int level, int *calls) {
  int tot = 0;
  memset(calls, 0, (size_t)h->n_leaves * sizeof(int));
  for (int i = 0; i < p->n_ent; i++)
    if (p->ent[i].level == level && mt_fr_is_call(p, &p->ent[i])) {
      calls[p->ent[i].root]++;
      tot++;
    }
  return tot;
}

/* ---------------- the schedule ---------------- */

static uint64_t to_elem(const mt_fr_plan *p, uint64_t u, uint64_t n) { return u * n / p->den; }

int mt_fr_emit(mt_sched *s, const mt_topo *t, const mt_htree *h, const mt_fr_plan *p, uint64_t bytes, int elem, mt_err *e) {
  if (mt_sched_bytes_ok(bytes, elem, e)) return -1;
  const uint64_t n = bytes / (uint64_t)elem;
  const int N = h->n_leaves, V = h->n_vert, L = p->L;
  /* the pieces: between consecutive boundaries of all entries, in elements */
  uint64_t *b = mt_xcalloc(2 * (size_t)p->n_ent + 2, sizeof(uint64_t));
  int nb = 0;
  b[nb++] = 0;
  b[nb++] = n;
  for (int i = 0; i < p->n_ent; i++) {
    b[nb++] = to_elem(p, p->ent[i].lo, n);
    b[nb++] = to_elem(p, p->ent[i].hi, n);
  }
  qsort(b, (size_t)nb, sizeof *b, cmp_u64);
  int F = 0;
  for (int i = 0; i < nb; i++)
    if (!F || b[i] != b[F - 1]) b[F++] = b[i];
  F--; /* F + 1 distinct boundaries, F pieces */
  /* entries of each switch: [es[x], es[x+1]) (sorted by level, node, lo) */
  int *es = mt_xcalloc((size_t)V + 1, sizeof(int)), *eix = mt_xcalloc((size_t)p->n_ent + 1, sizeof(int));
  for (int i = 0; i < p->n_ent; i++) es[p->ent[i].node + 1]++;
  for (int v = 0; v < V; v++) es[v + 1] += es[v];
  {
    int *fill = mt_xcalloc((size_t)V, sizeof(int));
    for (int i = 0; i < p->n_ent; i++) eix[es[p->ent[i].node] + fill[p->ent[i].node]++] = i;
    free(fill);
  }
  char algo[32];
  snprintf(algo, sizeof algo, "%s", s->algo[0] ? s->algo : "flexreduce");
  mt_sched_init(s, t, algo, F);
  /* a level's reduce calls run as d rotations (d: the largest degree of the level): in
   * rotation j the holder in child i of x sends to the root in child (i + j) mod d, so every
   * child's link carries one rotation's pieces at a time, as a ring or direct reduce-scatter
   * would (the NI sends one message at a time, in flow order: all holders sending to the same
   * child first would queue on its link); j = 0 is a root that does not hold its range,
   * fed from inside its own child */
  int *base = mt_xcalloc((size_t)L + 1, sizeof(int));
  for (int x = N; x < V; x++)
    if (mt_htree_deg(h, x) > base[h->level[x] + 1]) base[h->level[x] + 1] = mt_htree_deg(h, x);
  for (int l = 0; l < L; l++) base[l + 1] += base[l];
  const int S = base[L];
  int *hold = mt_xcalloc((size_t)V, sizeof(int)), *par = mt_xcalloc((size_t)N, sizeof(int)), *pst = mt_xcalloc((size_t)N, sizeof(int));
  int rc = 0;
  for (int f = 0; f < F && !rc; f++) {
    const uint64_t a = b[f];
    s->chunk[f].addr = a * (uint64_t)elem;
    s->chunk[f].size = (b[f + 1] - a) * (uint64_t)elem;
    for (int v = 0; v < V; v++) hold[v] = v < N ? v : -1; /* -1: a switch with no learner below */
    for (int v = 0; v < N; v++) par[v] = -1;
    for (int l = 0; l < L && !rc; l++)
      for (int x = N; x < V && !rc; x++) {
        if (h->level[x] != l || h->lstart[x] == h->lstart[x + 1]) continue;
        /* the entry of x whose (element) range holds a: the last one starting at or before it */
        const mt_fr_entry *en = NULL;
        for (int i = es[x]; i < es[x + 1]; i++) {
          const mt_fr_entry *y = &p->ent[eix[i]];
          if (to_elem(p, y->lo, n) <= a && to_elem(p, y->hi, n) > a) en = y;
        }
        if (!en) {
          rc = mt_fail(e, "internal: no entry of switch %d covers element %llu", x, (unsigned long long)a);
          break;
        }
        const int r = en->root;
        int rin = 0, k = 0, kr = 0, cr = r;
        const int d = mt_htree_deg(h, x);
        while (h->parent[cr] != x) cr = h->parent[cr]; /* the child of x above r */
        while (h->clist[h->cstart[x] + kr] != cr) kr++;
        for (int i = h->cstart[x]; i < h->cstart[x + 1]; i++) {
          const int hd = hold[h->clist[i]];
          if (hd < 0) continue;
          /* the plan's participants are the holders the tree says: one per child */
          if (k >= en->np || p->parts[en->poff + k] != hd) {
            int found = 0;
            for (int j = 0; j < en->np; j++) found |= p->parts[en->poff + j] == hd;
            if (!found) {
              rc = mt_fail(e, "internal: element %llu at switch %d: holder %d is not a participant of the entry", (unsigned long long)a, x, hd);
              break;
            }
          }
          k++;
          if (hd == r) rin = 1;
          else {
            par[hd] = r;
            pst[hd] = base[l] + (kr - (i - h->cstart[x]) + d) % d + 1; /* rotation j = kr - ci */
          }
        }
        if (!rin) par[r] = -1; /* r's partial stays at r: its holder's sum lacks it */
        hold[x] = r;
      }
    s->root[f] = hold[h->root];
    for (int v = 0; v < N && !rc; v++) {
      if (par[v] < 0) continue;
      int i = mt_sched_add_routed(s, f, MT_OP_REDUCE, v, par[v], pst[v], e);
      if (i < 0) rc = -1;
      else mt_sched_add_reversed(s, i, f, MT_OP_GATHER, 2 * S + 1 - pst[v]);
    }
  }
  free(b);
  free(es);
  free(eix);
  free(hold);
  free(par);
  free(pst);
  if (rc) {
    free(base);
    return -1;
  }
  /* rotations without a transfer (a switch of one child, pieces rounded away) take no step */
  int *map = mt_xcalloc((size_t)S + 2, sizeof(int)), R = 0;
  for (int i = 0; i < s->nx; i++) map[s->x[i].op == MT_OP_REDUCE ? s->x[i].step : 2 * S + 1 - s->x[i].step] = 1;
  for (int l = 1; l <= S; l++) map[l] = map[l] ? ++R : 0;
  for (int i = 0; i < s->nx; i++) {
    mt_xfer *x = &s->x[i];
    x->step = (uint16_t)(x->op == MT_OP_REDUCE ? map[x->step] : 2 * R + 1 - map[2 * S + 1 - x->step]);
  }
  free(map);
  free(base);
  s->steps = 2 * R;
  s->reduce_steps = R;
  s->bytes = bytes;
  s->elem = elem;
  return 0;
}

static int plan_hier(mt_sched *s, const mt_topo *t, int blc, mt_err *e) {
  mt_htree h;
  mt_fr_plan p;
  const char *algo = blc ? "blueconnect" : "flexreduce";
  if (mt_htree_of(t, &h, e)) return mt_err_wrap(e, "%s", algo);
  int rc = blc ? mt_blc_plan_build(&h, &p, e) : mt_fr_plan_build(&h, &p, e);
  if (!rc) {
    snprintf(s->algo, sizeof s->algo, "%s", algo);
    rc = mt_fr_emit(s, t, &h, &p, mt_plan_opt.bytes, mt_plan_opt.elem, e);
    mt_fr_plan_free(&p);
  }
  mt_htree_free(&h);
  return rc;
}
int mt_plan_flexreduce(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_hier(s, t, 0, e); }
int mt_plan_blueconnect(mt_sched *s, const mt_topo *t, mt_err *e) { return plan_hier(s, t, 1, e); }

/* ---------------- cost model ---------------- */

double mt_fr_tr(double n, int d, double w, double alpha) { return (d - 1) * (alpha + n / (d * w)); }

double mt_fr_cost_blc(double n, int L, const int *delta, const double *omega, double alpha) {
  double T = 0, below = 1; /* below: prod_{i<l} delta_i */
  for (int l = 0; l < L; l++) {
    double wmin = 0, pk = 1;
    for (int k = 0; k <= l; k++) {
      double w = omega[k] / pk;
      if (!k || w < wmin) wmin = w;
      pk *= delta[k];
    }
    T += mt_fr_tr(n / below, delta[l], wmin, alpha);
    below *= delta[l];
  }
  return 2 * T;
}

/* w_x: the slowest link from switch x down to a child (0, not given: 1 GB/s) */
static double down_bw(const mt_htree *h, int x) {
  double w = 0;
  for (int i = h->cstart[x]; i < h->cstart[x + 1]; i++) {
    double u = h->up_bw[h->clist[i]];
    if (!w || (u > 0 && u < w)) w = u;
  }
  return w > 0 ? w : 1;
}

double mt_fr_cost_fr(const mt_htree *h, double n, double alpha) {
  double T = 0;
  for (int l = 0; l < h->L; l++) {
    double m = 0;
    for (int x = h->n_leaves; x < h->n_vert; x++) {
      const int k = h->level[x];
      if (k < 0 || k > l) continue; /* k < 0: no learner below */
      double div = 1;
      for (int i = k; i < l; i++) {
        int a = mt_htree_anc(h, x, i);
        if (a >= 0) div *= mt_htree_deg(h, a);
      }
      int pl = mt_htree_anc(h, x, l);
      if (pl < 0) continue;
      double c = mt_fr_tr(n / div, mt_htree_deg(h, pl), down_bw(h, x), alpha);
      if (c > m) m = c;
    }
    T += m;
  }
  return 2 * T;
}

int mt_fr_calls_bound(const mt_htree *h, int v, int l) {
  if (l <= 0) return 1;
  const int x = mt_htree_anc(h, v, l);
  if (x < 0) return 0;
  uint64_t A = 1; /* 1 / next portion of v */
  for (int a = h->parent[v]; a >= 0 && h->level[a] <= l; a = h->parent[a]) A *= (uint64_t)mt_htree_deg(h, a);
  int sum = 0;
  for (int i = h->cstart[x]; i < h->cstart[x + 1]; i++) {
    const int m = h->clist[i];
    uint64_t P = 1; /* the largest 1 / current portion of a leaf under m */
    for (int j = h->lstart[m]; j < h->lstart[m + 1]; j++) {
      uint64_t q = 1;
      for (int a = h->parent[h->llist[j]]; a >= 0 && h->level[a] < l; a = h->parent[a]) q *= (uint64_t)mt_htree_deg(h, a);
      if (q > P) P = q;
    }
    sum += (int)((P + A - 1) / A);
  }
  return sum + 1;
}

/* ---------------- the plan's figures for `multitree plan` ---------------- */

int mt_fr_summary(const mt_topo *t, int blc, uint64_t bytes, char *buf, size_t n, mt_err *e) {
  mt_htree h;
  mt_fr_plan p;
  if (mt_htree_of(t, &h, e)) return -1;
  if (blc ? mt_blc_plan_build(&h, &p, e) : mt_fr_plan_build(&h, &p, e)) {
    mt_htree_free(&h);
    return -1;
  }
  const int N = h.n_leaves;
  int *calls = mt_xcalloc((size_t)N, sizeof(int)), tot = 0, levels = 0, mx = 0, bnd = 0;
  for (int l = 0; l < h.L; l++) {
    int c = mt_fr_calls(&p, &h, l, calls);
    if (!c) continue;
    tot += c;
    levels++;
    for (int v = 0; v < N; v++) {
      if (calls[v] > mx) mx = calls[v];
      int b = mt_fr_calls_bound(&h, v, l);
      if (b > bnd) bnd = b;
    }
  }
  /* alpha: the latency of the longest learner-to-learner path (Eq. 1's per-message cost) */
  double alpha = 0, wmin = 0;
  for (int v = 0; v < N; v++) {
    double lat = 0;
    for (int a = v; h.parent[a] >= 0; a = h.parent[a]) {
      lat += h.up_lat[a];
      if (h.up_bw[a] > 0 && (!wmin || h.up_bw[a] < wmin)) wmin = h.up_bw[a];
    }
    if (2 * lat > alpha) alpha = 2 * lat;
  }
  if (!wmin) wmin = 1;
  snprintf(buf, n,
           "%s: %d reduce calls in %d levels, %.2f per learner and level on average, at most %d (Eq. 12 bound %d); "
           "Eq. 6 predicts %.0f ns, a flat ring 2 T_r(n, %d, %g GB/s) %.0f ns (alpha %.0f ns)",
           blc ? "blueconnect" : "flexreduce", tot, levels, levels ? (double)tot / (N * levels) : 0.0, mx, bnd, mt_fr_cost_fr(&h, (double)bytes, alpha),
           N, wmin, 2 * mt_fr_tr((double)bytes, N, wmin, alpha), alpha);
  free(calls);
  mt_fr_plan_free(&p);
  mt_htree_free(&h);
  return 0;
}
