/* SPDX-License-Identifier: Apache-2.0
 * mt_dimcoll: per-dimension reduce-scatter and all-gather (ring, direct, halving-doubling). */
#include "plan/mt_dimcoll.h"
#include <string.h>
#include "topo/mt_mdtopo.h"

int mt_mdview_of(const mt_topo *t, const char *algo, mt_mdview *v, mt_err *e) {
  memset(v, 0, sizeof *v);
  if (t->kind == MT_TOPO_DIMS) {
    v->D = t->md.D;
    for (int d = 0; d < v->D; d++) {
      const mt_dimspec *ds = &t->md.d[d];
      v->kind[d] = ds->kind;
      v->size[d] = ds->size;
      v->stride[d] = mt_dims_stride(&t->md, d);
      v->bidir[d] = ds->kind == MT_DIM_RING && ds->size > 2 && ds->links >= 2;
    }
  } else if (t->kind == MT_TOPO_TORUS) {
    v->D = t->ndims;
    for (int d = 0, st = 1; d < v->D; st *= t->dim[d], d++) {
      v->kind[d] = MT_DIM_RING;
      v->size[d] = t->dim[d];
      v->stride[d] = st;
      v->bidir[d] = t->dim[d] > 2;
    }
  } else
    return mt_fail(e, "%s needs a multi-dimensional topology (dims:SPEC, dimsfile:PATH, themis:PRESET) or a torus, not %s", algo, t->spec);
  for (int d = 0; d < v->D; d++)
    if (v->kind[d] == MT_DIM_SW && (v->size[d] & (v->size[d] - 1)))
      return mt_fail(e, "%s on %s: dimension %d is a switch of %d NPUs; halving-doubling needs a power of two", algo, t->spec, d + 1, v->size[d]);
  return 0;
}

int mt_mdview_grid(const mt_topo *t, const char *algo, mt_mdview *v, mt_err *e) {
  if (t->kind != MT_TOPO_MESH) return mt_mdview_of(t, algo, v, e);
  memset(v, 0, sizeof *v);
  v->D = t->ndims;
  for (int d = 0, st = 1; d < v->D; st *= t->dim[d], d++) {
    v->kind[d] = MT_DIM_RING;
    v->size[d] = t->dim[d];
    v->stride[d] = st;
    v->line[d] = t->dim[d] > 2; /* a line of 2 is a ring of 2 (its one link both ways) */
  }
  return 0;
}

static int log2i(int k) {
  int T = 0;
  while ((1 << T) < k) T++;
  return T;
}

int mt_dimcoll_steps(const mt_mdview *v, int d) {
  const int k = v->size[d];
  if (k < 2) return 0;
  return v->kind[d] == MT_DIM_RING ? k - 1 : v->kind[d] == MT_DIM_FC ? 1
                                                                     : log2i(k);
}

/* One transfer a -> b inside dimension d: the direct link, or up to the group's switch and down. */
static int add1(mt_sched *s, int d, int sw_dim, int flow, int op, int a, int b, int step, mt_err *e) {
  const mt_topo *t = s->topo;
  int l[2], n = 0;
  if (sw_dim) {
    int sw = mt_dims_switch_of(&t->md, a, d);
    l[n++] = mt_topo_find_link(t, a, sw);
    l[n++] = mt_topo_find_link(t, sw, b);
  } else l[n++] = mt_topo_find_link(t, a, b);
  for (int i = 0; i < n; i++)
    if (l[i] < 0) return mt_fail(e, "%s: no link for the dimension-%d transfer %d -> %d", t->spec, d + 1, a, b);
  mt_sched_add(s, flow, op, a, b, step, l, n);
  return 0;
}

int mt_dimcoll_add(mt_sched *s, const mt_mdview *v, int d, int op, int flow, int root, unsigned fixed, int dir, int step0, mt_err *e) {
  const int k = v->size[d], st = v->stride[d], r = (root / st) % k, sw = v->kind[d] == MT_DIM_SW;
  if (k < 2) return 0;
  if (!v->bidir[d]) dir = +1;
  /* the free dimensions: neither d nor fixed; their coordinates range over every value */
  int free_d[MT_MD_MAX_DIMS], nf = 0, lines = 1, base = root;
  for (int q = 0; q < v->D; q++)
    if (q != d && !(fixed & (1u << q)) && v->size[q] > 1) {
      free_d[nf++] = q;
      lines *= v->size[q];
      base -= ((root / v->stride[q]) % v->size[q]) * v->stride[q];
    }
  const int T = log2i(k);
  for (int li = 0; li < lines; li++) {
    int n = base, x = li; /* the line's NPU at root's coordinate in d */
    for (int i = 0; i < nf; i++) {
      n += (x % v->size[free_d[i]]) * v->stride[free_d[i]];
      x /= v->size[free_d[i]];
    }
#define AT(p) (n + ((((p) % k) + k) % k - r) * st)
    if (v->kind[d] == MT_DIM_RING && v->line[d]) {
      /* a line (no wrap link): two chains into r, from 0 rightwards and from k-1 leftwards.
       * The hop p -> p+1 (p < r) is in step p + 1 + (k-1-r), the hop p -> p-1 (p > r) in step
       * k - p + r: the k-1-p flows crossing a + link (p+1 of a - link) take one step each, and
       * both chains reach r in step k-1. Gather: the reverse in time, r outwards one hop a step. */
      for (int p = 0; p < k; p++) {
        if (p == r) continue;
        const int q = p < r ? p + 1 : p - 1, rs = p < r ? p + 1 + (k - 1 - r) : k - p + r;
        if (op == MT_OP_REDUCE ? add1(s, d, 0, flow, op, AT(p), AT(q), step0 + rs, e) : add1(s, d, 0, flow, op, AT(q), AT(p), step0 + k - rs, e))
          return -1;
      }
    } else if (v->kind[d] == MT_DIM_RING) {
      /* reduce: from r+1 round to r, one hop a step; gather: from r round to r-1 */
      if (op == MT_OP_REDUCE) {
        for (int j = 1; j <= k - 1; j++)
          if (add1(s, d, 0, flow, op, AT(r + dir * j), AT(r + dir * (j + 1)), step0 + j, e)) return -1;
      } else
        for (int j = 0; j <= k - 2; j++)
          if (add1(s, d, 0, flow, op, AT(r + dir * j), AT(r + dir * (j + 1)), step0 + 1 + j, e)) return -1;
    } else if (v->kind[d] == MT_DIM_FC) {
      /* direct: every member to (from) r in one step */
      for (int p = 0; p < k; p++)
        if (p != r && add1(s, d, 0, flow, op, op == MT_OP_REDUCE ? AT(p) : AT(r), op == MT_OP_REDUCE ? AT(r) : AT(p), step0 + 1, e))
          return -1;
    } else {
      /* halving-doubling over positions: step j of the halving exchanges across bit
       * k >> j; p hands the chunk to p ^ hb, hb the highest bit where p and r differ.
       * Doubling reverses it, in step order so that a node's children keep that order. */
      for (int p = 0; p < k; p++) {
        if (p == r) continue;
        unsigned hb = 1u << (31 - __builtin_clz((unsigned)(p ^ r)));
        if (op == MT_OP_REDUCE && add1(s, d, sw, flow, op, AT(p), AT(p ^ (int)hb), step0 + T - __builtin_ctz(hb), e)) return -1;
      }
      if (op == MT_OP_GATHER)
        for (int j = 1; j <= T; j++)
          for (int p = 0; p < k; p++) {
            if (p == r) continue;
            unsigned hb = 1u << (31 - __builtin_clz((unsigned)(p ^ r)));
            if (__builtin_ctz(hb) == j - 1 && add1(s, d, sw, flow, op, AT(p ^ (int)hb), AT(p), step0 + j, e)) return -1;
          }
    }
#undef AT
  }
  return 0;
}
