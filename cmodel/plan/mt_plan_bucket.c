/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_bucket: the multi-dimensional bucket all-reduce (the "bucket" algorithm is the
 * ring of Chan et al., Collective communication: theory, practice, and experience, 2007;
 * here one ring per dimension and direction run at the same time) on tori and meshes.
 *
 * The buffer is cut into parts, one per dimension and direction of a torus (2D parts), one
 * per dimension of a mesh (D parts: a mesh line has no wrap link, so its reduce-scatter is two
 * chains into the root, one from each end, and one part fills both directions). Part (d, dir)
 * does a ring (line) reduce-scatter along d, then along the next dimensions in rotated order
 * (d+1, ..., d-1) on the shrinking piece, then the all-gathers in reverse. In every step every
 * directed link carries at most one part, so on a square torus the bytes each link carries
 * equal the per-node bound, and on a square mesh the corner's (docs/planner.md "bucket"). Flows
 * are (part, root) pairs
 * built by mt_dimcoll_add; part sizes follow the rule of bucket_weights. */
#include <math.h>
#include <string.h>
#include "plan/mt_dimcoll.h"

typedef struct {
  int P;                         /* parts */
  int first[2 * MT_MD_MAX_DIMS]; /* the part's first dimension (index into act) */
  int dir[2 * MT_MD_MAX_DIMS];   /* +1 or -1 */
  int na, act[MT_MD_MAX_DIMS];   /* the dimensions wider than 1 */
} parts;

static void parts_of(const mt_mdview *v, parts *p) {
  memset(p, 0, sizeof *p);
  for (int d = 0; d < v->D; d++)
    if (v->size[d] > 1) p->act[p->na++] = d;
  for (int i = 0; i < p->na; i++)
    for (int h = 0; h < (v->bidir[p->act[i]] ? 2 : 1); h++) {
      p->first[p->P] = i;
      p->dir[p->P++] = h ? -1 : +1;
    }
}

/* Dimension of phase j of a part starting at active index i. */
static int phase_dim(const parts *p, int i, int j) { return p->act[(i + j) % p->na]; }

/* Lockstep estimate of one reduce-scatter with part weights w[i] (per first dimension, each
 * direction of it carrying w[i]), in units of the buffer: the NI starts a step when its
 * packetisers are idle, so a step lasts as long as its busiest port. In phase j a part of
 * weight w moves, per link and step, w/N x (the product of the sizes of its later phases)
 * (one flow per root coordinate not yet scattered). */
static double lockstep_time(const mt_mdview *v, const parts *p, const double *w, int N) {
  int R = 0;
  for (int i = 0; i < p->na; i++) R += v->size[p->act[i]] - 1;
  double t = 0;
  for (int st = 1; st <= R; st++) {
    double load[MT_MD_MAX_DIMS] = {0}, mx = 0;
    for (int i = 0; i < p->na; i++) {
      int at = 0;
      for (int j = 0; j < p->na; j++) {
        const int d = phase_dim(p, i, j), k = v->size[d];
        if (st > at && st <= at + k - 1) {
          double later = 1;
          for (int q = j + 1; q < p->na; q++) later *= v->size[phase_dim(p, i, q)];
          load[d] += w[i] / N * later;
        }
        at += k - 1;
      }
    }
    for (int d = 0; d < v->D; d++)
      if (load[d] > mx) mx = load[d];
    t += mx;
  }
  return t;
}

/* The weights: equal on a square torus or mesh; otherwise those that minimise the lockstep
 * estimate on a grid of 1/256 (two dimensions) or 1/64 (three) of the buffer per first
 * dimension (ties: the first found, so the result is reproducible). */
static void bucket_weights(const mt_mdview *v, const parts *p, int N, double *w) {
  const int na = p->na;
  for (int i = 0; i < na; i++) w[i] = 1.0 / na;
  int square = 1;
  for (int i = 1; i < na; i++) square &= v->size[p->act[i]] == v->size[p->act[0]];
  if (square || na < 2) return;
  const int G = na == 2 ? 256 : 64;
  double best = lockstep_time(v, p, w, N), tw[MT_MD_MAX_DIMS];
  for (int a = 1; a < G; a++)
    for (int b = na == 3 ? 1 : 0; b < (na == 3 ? G - a : 1); b++) {
      tw[0] = (double)a / G;
      tw[1] = na == 3 ? (double)b / G : 1.0 - tw[0];
      if (na == 3) tw[2] = 1.0 - tw[0] - tw[1];
      const double tt = lockstep_time(v, p, tw, N);
      if (tt < best - 1e-12) {
        best = tt;
        memcpy(w, tw, sizeof(double) * (size_t)na);
      }
    }
}

/* Flow of (part q, root r): key * P + q, where key numbers the root's coordinates with the
 * part's later dimensions most significant and its first dimension least. In phase 1 a node
 * forwards, on each port, one flow per value of the later coordinates in key order, so its
 * table (ordered by step, then flow) alternates between the ports instead of sending one
 * port's flows back to back while the others wait. */
static int flow_key(const mt_mdview *v, const parts *p, int q, int r) {
  int key = 0;
  for (int j = p->na - 1; j >= 0; j--) {
    const int d = phase_dim(p, p->first[q], j);
    key = key * v->size[d] + (r / v->stride[d]) % v->size[d];
  }
  return key;
}

int mt_plan_bucket(mt_sched *s, const mt_topo *t, mt_err *e) {
  mt_mdview v;
  if ((t->kind != MT_TOPO_TORUS && t->kind != MT_TOPO_MESH) || mt_mdview_grid(t, "bucket", &v, e))
    return mt_fail(e, "bucket needs a torus or a mesh (torus:XxY[xZ], mesh:XxY[xZ], ring:N), not %s", t->spec);
  parts p;
  parts_of(&v, &p);
  const int N = t->n_nodes, P = p.P;
  if (p.na == 0) return mt_fail(e, "bucket on %s: a single node has nothing to reduce", t->spec);
  const uint64_t bytes = mt_plan_opt.bytes ? mt_plan_opt.bytes : (uint64_t)N * (uint64_t)P * 4;
  const int elem = mt_plan_opt.elem ? mt_plan_opt.elem : 4;
  if (mt_sched_bytes_ok(bytes, elem, e)) return -1;
  double w[MT_MD_MAX_DIMS];
  bucket_weights(&v, &p, N, w);
  /* part sizes in elements: part q gets round(U w / directions), the last part the rest;
   * within a part every flow the same, earlier roots the remainder */
  const uint64_t U = bytes / (uint64_t)elem;
  uint64_t pu[2 * MT_MD_MAX_DIMS], used = 0;
  for (int q = 0; q < P; q++) {
    const int ndir = v.bidir[p.act[p.first[q]]] ? 2 : 1;
    pu[q] = q == P - 1 ? U - used : (uint64_t)llround((double)U * w[p.first[q]] / ndir);
    if (q < P - 1 && used + pu[q] > U) pu[q] = U - used;
    used += pu[q];
    if (pu[q] < (uint64_t)N)
      return mt_fail(e, "%llu bytes = %llu elements of %d bytes: bucket on %s gives part %d (dimension %d, %s) %llu elements, fewer than its %d flows",
                     (unsigned long long)bytes, (unsigned long long)U, elem, t->spec, q, p.act[p.first[q]] + 1, p.dir[q] > 0 ? "+" : "-",
                     (unsigned long long)pu[q], N);
  }
  mt_sched_init(s, t, "bucket", N * P);
  int R = 0;
  for (int i = 0; i < p.na; i++) R += v.size[p.act[i]] - 1;
  s->reduce_steps = R;
  s->steps = 2 * R;
  s->bytes = bytes;
  s->elem = elem;
  for (int q = 0; q < P; q++)
    for (int r = 0; r < N; r++) {
      const int f = flow_key(&v, &p, q, r) * P + q;
      s->root[f] = r;
      s->chunk[f].size = (pu[q] / (uint64_t)N + ((uint64_t)flow_key(&v, &p, q, r) < pu[q] % (uint64_t)N)) * (uint64_t)elem;
      unsigned fixed = 0;
      int at = 0;
      for (int j = 0; j < p.na; j++) {
        const int d = phase_dim(&p, p.first[q], j), k = v.size[d];
        /* gather of phase j mirrors its reduce: after the later phases' gathers */
        const int gat = 2 * R - at - (k - 1);
        if (mt_dimcoll_add(s, &v, d, MT_OP_REDUCE, f, r, fixed, p.dir[q], at, e) ||
            mt_dimcoll_add(s, &v, d, MT_OP_GATHER, f, r, fixed, p.dir[q], gat, e)) {
          mt_sched_free(s);
          return -1;
        }
        fixed |= 1u << d;
        at += k - 1;
      }
    }
  uint64_t a = 0;
  for (int f = 0; f < N * P; f++) {
    s->chunk[f].addr = a;
    a += s->chunk[f].size;
  }
  return 0;
}
