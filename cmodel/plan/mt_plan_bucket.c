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
 * equal the aggregate lower bound, and on a square mesh the corner's load 2(N-1)/N S over its
 * two links, 7/4 of the bound on mesh:8x8 (docs/reference/bounds.md). Flows
 * are (part, root) pairs
 * built by mt_dimcoll_add; part sizes follow the rule of bucket_weights. */
#include <math.h>
#include <stdlib.h>
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

/* The pipeline: part type i (first dimension act[i]) is cut into C[i] chunks, each a full
 * bucket over the same dimension order, chunk c starting sp[i] x c steps after chunk 0. On a
 * non-square torus the type whose first ring is shorter would otherwise finish it and leave
 * its links idle while the other types run their longer first rings; later chunks fill those
 * steps (the NI issues a node's table in step order and starts step s+1 only when step s's
 * sends are out, so overlap must be written into the step numbers). The all-gather is the
 * reduce-scatter mirrored in time (ag 0), or each chunk's all-gather is its reduce-scatter
 * moved D = R + ag - 1 steps later with the phases in reverse order (ag 1: right after the
 * chunk's last reduce-scatter step; ag 2 + ...: later), so that the chunks' all-gathers start
 * while later chunks still reduce (interleaved): the mirror leaves the middle of the schedule
 * to the chunks' short last phases (docs/reference/planner.md "Translated all-gathers"). */
typedef struct {
  int C[MT_MD_MAX_DIMS], sp[MT_MD_MAX_DIMS];
  int ag[MT_MD_MAX_DIMS];   /* 0: mirrored; else the all-gather starts R + ag - 1 steps after the chunk's reduce-scatter */
  double w[MT_MD_MAX_DIMS]; /* share of the buffer per type (all its directions and chunks) */
} pipe;

/* The steps of the pipeline's reduce-scatters (the last reduce message) and of the whole. */
static int pipe_rs_steps(const mt_mdview *v, const parts *p, const pipe *pp) {
  int R = 0, o = 0;
  for (int i = 0; i < p->na; i++) {
    R += v->size[p->act[i]] - 1;
    if ((pp->C[i] - 1) * pp->sp[i] > o) o = (pp->C[i] - 1) * pp->sp[i];
  }
  return R + o;
}
static int pipe_steps(const mt_mdview *v, const parts *p, const pipe *pp) {
  const int RT = pipe_rs_steps(v, p, pp);
  int T = 0, R = 0;
  for (int i = 0; i < p->na; i++) R += v->size[p->act[i]] - 1;
  for (int i = 0; i < p->na; i++) {
    const int end = pp->ag[i] ? (pp->C[i] - 1) * pp->sp[i] + R + pp->ag[i] - 1 + R : 2 * RT;
    if (end > T) T = end;
  }
  return T;
}

/* Base steps (the phase occupies base + 1 .. base + k - 1) of phase ph of chunk c of type i:
 * its reduce-scatter and its all-gather. */
static int rs_base(const mt_mdview *v, const parts *p, const pipe *pp, int i, int c, int ph) {
  int at = c * pp->sp[i];
  for (int j = 0; j < ph; j++) at += v->size[phase_dim(p, i, j)] - 1;
  return at;
}
static int ag_base(const mt_mdview *v, const parts *p, const pipe *pp, int RT, int i, int c, int ph) {
  const int k = v->size[phase_dim(p, i, ph)];
  if (!pp->ag[i]) return 2 * RT - rs_base(v, p, pp, i, c, ph) - (k - 1);
  int R = 0, at;
  for (int j = 0; j < p->na; j++) R += v->size[phase_dim(p, i, j)] - 1;
  at = c * pp->sp[i] + R + pp->ag[i] - 1;
  for (int j = p->na - 1; j > ph; j--) at += v->size[phase_dim(p, i, j)] - 1;
  return at;
}

/* Estimated cycles: per step L + O m + b/B with b and m the most bytes and messages on one
 * directed link (mt_plan_estimate's model). In phase j a chunk of z bytes per direction
 * moves z/N x (the product of the sizes of its later phases) per link and step, as that many
 * messages (one flow per root coordinate not yet scattered), in its reduce-scatter and again
 * in its all-gather. */
#define PIPE_MAX_STEPS 1024
static double pipe_cycles(const mt_mdview *v, const parts *p, const pipe *pp, int N, double bytes) {
  const int T = pipe_steps(v, p, pp), RT = pipe_rs_steps(v, p, pp);
  double load[PIPE_MAX_STEPS + 1][MT_MD_MAX_DIMS];
  int msgs[PIPE_MAX_STEPS + 1][MT_MD_MAX_DIMS];
  if (T > PIPE_MAX_STEPS) return HUGE_VAL;
  memset(load, 0, sizeof load[0] * (size_t)(T + 1));
  memset(msgs, 0, sizeof msgs[0] * (size_t)(T + 1));
  for (int i = 0; i < p->na; i++) {
    const int ndir = v->bidir[p->act[i]] ? 2 : 1;
    const double z = bytes * pp->w[i] / ndir / pp->C[i] / N;
    for (int c = 0; c < pp->C[i]; c++)
      for (int j = 0; j < p->na; j++) {
        const int d = phase_dim(p, i, j), k = v->size[d];
        int later = 1;
        for (int q = j + 1; q < p->na; q++) later *= v->size[phase_dim(p, i, q)];
        for (int h = 0; h < 2; h++) {
          const int at = h ? ag_base(v, p, pp, RT, i, c, j) : rs_base(v, p, pp, i, c, j);
          for (int st = at + 1; st <= at + k - 1; st++) {
            load[st][d] += z * later;
            msgs[st][d] += later;
          }
        }
      }
  }
  double t = 0;
  for (int st = 1; st <= T; st++) {
    double b = 0;
    int m = 0;
    for (int d = 0; d < v->D; d++) {
      if (load[st][d] > b) b = load[st][d];
      if (msgs[st][d] > m) m = msgs[st][d];
    }
    t += MT_EST_L + MT_EST_O * m + b / MT_EST_B;
  }
  return t;
}

/* The part types' shares for a given cut: the grid point (1/128 of the buffer per type in
 * two dimensions, 1/24 in three) of the smallest estimate; ties keep the first found. */
static double pipe_weights(const mt_mdview *v, const parts *p, pipe *pp, int N, double bytes) {
  const int na = p->na, G = na == 2 ? 128 : 24;
  pipe t = *pp;
  double best = HUGE_VAL;
  for (int a = 1; a < G; a++)
    for (int b = na == 3 ? 1 : 0; b < (na == 3 ? G - a : 1); b++) {
      t.w[0] = (double)a / G;
      t.w[1] = na == 3 ? (double)b / G : 1.0 - t.w[0];
      if (na == 3) t.w[2] = 1.0 - t.w[0] - t.w[1];
      const double c = pipe_cycles(v, p, &t, N, bytes);
      if (c < best * (1 - 1e-9)) {
        best = c;
        *pp = t;
      }
    }
  return best;
}

/* The pipeline for these bytes: one chunk of equal types on a square torus or mesh (each
 * step then loads every link alike); otherwise, of the cuts C[i] = round(M / (k_i - 1))
 * chunks spaced k_i - 1 steps apart (a type's first rings back to back, every type's over
 * about M steps), M = 1, 2, ..., each with the all-gathers mirrored, or moved right after
 * each chunk's reduce-scatter or sp[i] steps later, the one of the smallest estimate whose
 * flows fit the NI (MaxFlows 4096) and whose chunks hold at least two elements per flow;
 * ties keep the smaller M and the mirror. Chunks spaced 1 step apart estimate worse (longer
 * ramps) and lost in the NI before the byte issue order (docs/reference/planner.md "Pipelined chunks"). */
#define PIPE_MAX_FLOWS 4096
static void pipe_choose(const mt_mdview *v, const parts *p, int N, uint64_t units, int elem, pipe *out) {
  const int na = p->na;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < na; i++) {
    out->C[i] = 1;
    out->sp[i] = 1;
    out->w[i] = 1.0 / na;
  }
  int square = 1;
  for (int i = 1; i < na; i++) square &= v->size[p->act[i]] == v->size[p->act[0]];
  if (square || na < 2) return;
  int kmax = 0, flows1 = 0;
  for (int i = 0; i < na; i++) {
    if (v->size[p->act[i]] - 1 > kmax) kmax = v->size[p->act[i]] - 1;
    flows1 += N * (v->bidir[p->act[i]] ? 2 : 1);
  }
  double best = pipe_weights(v, p, out, N, (double)units * elem);
  for (int M = 2; M <= kmax * (PIPE_MAX_FLOWS / flows1); M++)
    for (int ag = 0; ag < 3; ag++) {
      pipe t = *out;
      int flows = 0, ok = 1;
      for (int i = 0; i < na; i++) {
        const int k1 = v->size[p->act[i]] - 1;
        t.C[i] = (M + k1 / 2) / k1 > 1 ? (M + k1 / 2) / k1 : 1;
        t.sp[i] = k1;
        t.ag[i] = ag == 0 ? 0 : ag == 1 ? 1
                                        : 1 + k1;
        flows += N * (v->bidir[p->act[i]] ? 2 : 1) * t.C[i];
      }
      if (flows > PIPE_MAX_FLOWS) continue;
      const double c = pipe_weights(v, p, &t, N, (double)units * elem);
      for (int i = 0; i < na; i++) /* every chunk at least two elements per flow */
        ok &= units * t.w[i] / (v->bidir[p->act[i]] ? 2 : 1) / t.C[i] >= 2.0 * N;
      if (ok && c < best * (1 - 1e-9)) {
        best = c;
        *out = t;
      }
    }
}

/* Flow of (job j of part q, root r): key * J + j (J jobs), where key numbers the root's coordinates with the
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
  const uint64_t U = bytes / (uint64_t)elem;
  pipe pp;
  pipe_choose(&v, &p, N, U, elem, &pp);
  /* jobs (part q, chunk c), chunk-major (one chunk: the parts in order, as before the
   * pipeline; chunk-major spreads a step's entries over the ports a little better than
   * part-major: torus:4x8 8 MiB at the flow level 78.2 % against 76.9 %); job j of part q gets
   * round(U w / directions / chunks) elements, the last job the rest; within a job every flow
   * the same, earlier keys the remainder */
  int J = 0, jq[PIPE_MAX_FLOWS], jc[PIPE_MAX_FLOWS];
  for (int c = 0;; c++) { /* C[i] <= 4096 / N, so J <= 4096 (pipe_choose) */
    const int J0 = J;
    for (int q = 0; q < P; q++)
      if (c < pp.C[p.first[q]]) {
        jq[J] = q;
        jc[J++] = c;
      }
    if (J == J0) break;
  }
  uint64_t *pu = malloc(sizeof(uint64_t) * (size_t)J), used = 0;
  if (!pu) return mt_fail(e, "bucket: out of memory");
  for (int j = 0; j < J; j++) {
    const int q = jq[j], i = p.first[q], ndir = v.bidir[p.act[i]] ? 2 : 1;
    pu[j] = j == J - 1 ? U - used : (uint64_t)llround((double)U * pp.w[i] / ndir / pp.C[i]);
    if (j < J - 1 && used + pu[j] > U) pu[j] = U - used;
    used += pu[j];
    if (pu[j] < (uint64_t)N) {
      mt_fail(e, "%llu bytes = %llu elements of %d bytes: bucket on %s gives part %d (dimension %d, %s) %llu elements, fewer than its %d flows",
              (unsigned long long)bytes, (unsigned long long)U, elem, t->spec, q, p.act[i] + 1, p.dir[q] > 0 ? "+" : "-",
              (unsigned long long)pu[j], N);
      free(pu);
      return -1;
    }
  }
  mt_sched_init(s, t, "bucket", N * J);
  /* a step carries several flows a link: a NOP waits for the busiest link's bytes, so that a
   * mesh node idle in the first steps (near the centre) does not run ahead of the lines' ends
   * and make the two chains into a root arrive steps apart (docs/reference/planner.md "bucket") */
  s->nop_link = 1;
  const int RT = pipe_rs_steps(&v, &p, &pp); /* R plus the last chunk's offset */
  s->reduce_steps = RT;
  s->steps = pipe_steps(&v, &p, &pp);
  /* pipelined: a port carries messages of several sizes in a step (docs/reference/planner.md) */
  if (J > P) s->issue_order = MT_ISSUE_BYTES;
  s->bytes = bytes;
  s->elem = elem;
  for (int j = 0; j < J; j++) {
    const int q = jq[j], i = p.first[q];
    for (int r = 0; r < N; r++) {
      const int key = flow_key(&v, &p, q, r), f = key * J + j;
      s->root[f] = r;
      s->chunk[f].size = (pu[j] / (uint64_t)N + ((uint64_t)key < pu[j] % (uint64_t)N)) * (uint64_t)elem;
      unsigned fixed = 0;
      for (int ph = 0; ph < p.na; ph++) {
        const int d = phase_dim(&p, i, ph);
        if (mt_dimcoll_add(s, &v, d, MT_OP_REDUCE, f, r, fixed, p.dir[q], rs_base(&v, &p, &pp, i, jc[j], ph), e) ||
            mt_dimcoll_add(s, &v, d, MT_OP_GATHER, f, r, fixed, p.dir[q], ag_base(&v, &p, &pp, RT, i, jc[j], ph), e)) {
          mt_sched_free(s);
          free(pu);
          return -1;
        }
        fixed |= 1u << d;
      }
    }
  }
  free(pu);
  for (int k = 0; k < s->nx && !s->interleaved; k++) /* a chunk's all-gather before the last reduce */
    s->interleaved = s->x[k].op == MT_OP_GATHER && s->x[k].step <= RT;
  uint64_t a = 0;
  for (int f = 0; f < N * J; f++) {
    s->chunk[f].addr = a;
    a += s->chunk[f].size;
  }
  return 0;
}
