/* SPDX-License-Identifier: Apache-2.0
 * mt_chunksched: the dimension schedule of a chunked all-reduce (Themis), shared helpers. */
#include "plan/mt_chunksched.h"
#include <stdlib.h>
#include <string.h>

void mt_chunksched_free(mt_chunksched *cs) {
  free(cs->chunk);
  for (int d = 0; d < MT_MD_MAX_DIMS; d++) free(cs->queue[d]);
  memset(cs, 0, sizeof *cs);
}

/* Pieces are uneven when a size does not divide the bytes; the largest (rounded up) is the
 * one that decides a stage's time. */
uint64_t mt_cs_stage_bytes(const mt_chunksched *cs, int c, int s) {
  const int D = cs->v.D, rs = s < D ? s : 2 * D - 1 - s; /* the reduce-scatter stage it matches */
  uint64_t div = 1;
  for (int k = 0; k < rs; k++) div *= (uint64_t)cs->v.size[cs->chunk[c].order[k]];
  return (cs->chunk[c].bytes + div - 1) / div;
}

int mt_cs_flows_per_npu(const mt_chunksched *cs) {
  for (int d = 0; d < cs->v.D; d++)
    if (cs->v.bidir[d]) return 2;
  return 1;
}

/* The dimensions reduce-scattered before RS stage rs of chunk c, as a bit mask. */
static unsigned fixed_before(const mt_chunksched *cs, int c, int rs) {
  unsigned m = 0;
  for (int k = 0; k < rs; k++) m |= 1u << cs->chunk[c].order[k];
  return m;
}

int mt_cs_steps(const mt_chunksched *cs, int *first, mt_err *e) {
  const int C = cs->n_chunks, D = cs->v.D, S = 2 * D;
  long total = 0;
  for (int d = 0; d < D; d++) total += cs->qlen[d];
  if (total != (long)C * S) return mt_fail(e, "chunk schedule: the dimension queues hold %ld stages, %d chunks x %d stages = %d", total, C, S, C * S);
  int *cend = mt_xcalloc((size_t)C, sizeof *cend), *cdone = mt_xcalloc((size_t)C, sizeof *cdone);
  int pos[MT_MD_MAX_DIMS] = {0}, dend[MT_MD_MAX_DIMS] = {0}, T = 0, rc = 0;
  for (long left = total; left > 0 && !rc;) {
    int progress = 0;
    for (int d = 0; d < D && !rc; d++)
      while (pos[d] < cs->qlen[d]) {
        const mt_cs_stage st = cs->queue[d][pos[d]];
        if (st.chunk < 0 || st.chunk >= C || st.stage < 0 || st.stage >= S || mt_cs_stage_dim(cs, st.chunk, st.stage) != d) {
          rc = mt_fail(e, "chunk schedule: queue of dimension %d, position %d: chunk %d stage %d does not run in that dimension", d + 1, pos[d],
                       st.chunk, st.stage);
          break;
        }
        if (st.stage != cdone[st.chunk]) break; /* its previous stage is not placed yet */
        const int c = st.chunk, k = mt_dimcoll_steps(&cs->v, d);
        const int f = (dend[d] > cend[c] ? dend[d] : cend[c]) + 1;
        first[c * S + st.stage] = k ? f : cend[c] + 1;
        if (k) dend[d] = cend[c] = f + k - 1; /* a dimension of size 1 takes no step and holds nothing up */
        if (cend[c] > T) T = cend[c];
        cdone[c]++;
        pos[d]++;
        left--;
        progress = 1;
      }
    if (!rc && !progress)
      rc = mt_fail(e, "chunk schedule: the dimension queues deadlock (%ld stages left; each waits for a stage queued behind another)", left);
  }
  free(cend);
  free(cdone);
  return rc ? -1 : T;
}

int mt_cs_check_limits(const mt_mdview *v, int C, int N, int H, int flows, const char *algo, const char *spec, mt_err *e) {
  int dmax = 0, kmax = 0;
  for (int d = 0; d < v->D; d++) {
    const int k = mt_dimcoll_steps(v, d);
    if (k > kmax) kmax = k, dmax = d;
  }
  const long lb = 2L * C * kmax;
  if (lb > MT_CS_MAX_STEPS)
    return mt_fail(e,
                   "%s on %s with %d chunks needs at least %ld steps (dimension %d runs the reduce-scatter and the all-gather of every "
                   "chunk, %d steps each, one at a time); the 16-bit step field holds %d, so more than %d chunks cannot fit here",
                   algo, spec, C, lb, dmax + 1, kmax, MT_CS_MAX_STEPS, MT_CS_MAX_STEPS / (2 * kmax));
  if (!flows) return 0;
  const long F = (long)C * N * H;
  /* every flow's reduce and gather trees span the N NPUs: 2 (N - 1) transfers of 16 bytes */
  const double nx = (double)F * 2 * (N - 1);
  if (F > MT_MAX_FLOWS || nx > MT_CS_MAX_XFERS)
    return mt_fail(e,
                   "%s on %s: %d chunks x %d NPUs x %d = %ld flows, %.0f transfers (%.1f GB); the expansion holds at most %d flows and %d transfers "
                   "(fewer --chunks; `multitree sizes --algo %s` counts the tables without expanding)",
                   algo, spec, C, N, H, F, nx, nx * sizeof(mt_xfer) / 1e9, MT_MAX_FLOWS, MT_CS_MAX_XFERS, algo);
  return 0;
}

int mt_chunksched_expand(const mt_chunksched *cs, const mt_topo *t, const char *algo, mt_sched *s, mt_err *e) {
  const int C = cs->n_chunks, D = cs->v.D, S = 2 * D, H = mt_cs_flows_per_npu(cs), N = t->n_nodes;
  const long F = (long)C * N * H;
  if (mt_cs_check_limits(&cs->v, C, N, H, 1, algo, t->spec, e)) return -1;
  int *first = mt_xcalloc((size_t)C * S, sizeof *first);
  const int T = mt_cs_steps(cs, first, e);
  if (T < 0) {
    free(first);
    return -1;
  }
  if (T > MT_CS_MAX_STEPS) {
    free(first);
    return mt_fail(e, "%s on %s needs %d steps; the 16-bit step field holds %d", algo, t->spec, T, MT_CS_MAX_STEPS);
  }
  mt_sched_init(s, t, algo, (int)F);
  int rc = 0;
  for (int c = 0; c < C && !rc; c++)
    for (int r = 0; r < N && !rc; r++)
      for (int h = 0; h < H && !rc; h++) {
        const int f = (c * N + r) * H + h;
        s->root[f] = r;
        for (int st = 0; st < S && !rc; st++) {
          const int rs = st < D ? st : S - 1 - st;
          rc = mt_dimcoll_add(s, &cs->v, mt_cs_stage_dim(cs, c, st), st < D ? MT_OP_REDUCE : MT_OP_GATHER, f, r, fixed_before(cs, c, rs), h ? -1 : +1,
                              first[c * S + st] - 1, e);
        }
      }
  free(first);
  if (rc) {
    mt_sched_free(s);
    return -1;
  }
  int rlast = 0, glow = 0;
  for (int i = 0; i < s->nx; i++)
    if (s->x[i].op == MT_OP_REDUCE && s->x[i].step > rlast) rlast = s->x[i].step;
  for (int i = 0; i < s->nx; i++) glow |= s->x[i].op == MT_OP_GATHER && s->x[i].step <= rlast;
  s->steps = T;
  s->reduce_steps = rlast;
  s->interleaved = glow;
  return 0;
}

long mt_cs_entries_per_node(const mt_chunksched *cs) {
  const int D = cs->v.D, H = mt_cs_flows_per_npu(cs);
  long N = 1, n = 0;
  for (int d = 0; d < D; d++) N *= cs->v.size[d];
  for (int c = 0; c < cs->n_chunks; c++) {
    n += H * N;
    long lines = 1; /* the product of the sizes after stage s */
    for (int k = D - 1; k >= 0; k--) {
      const int d = cs->chunk[c].order[k], P = cs->v.size[d];
      n += H * lines * (cs->v.kind[d] == MT_DIM_FC ? (P > 1) : P - 1);
      lines *= P;
    }
  }
  return n;
}

int mt_cs_max_children(const mt_chunksched *cs) {
  int n = 0;
  for (int d = 0; d < cs->v.D; d++) {
    const int P = cs->v.size[d];
    n += P < 2 ? 0 : cs->v.kind[d] == MT_DIM_RING ? 1
      : cs->v.kind[d] == MT_DIM_FC                ? P - 1
                                                  : mt_dimcoll_steps(&cs->v, d);
  }
  return n > 0 ? n : 1;
}
