/* SPDX-License-Identifier: Apache-2.0
 * mt_themis: Themis Algorithm 1, its baseline, the Latency Model and the intra-dimension
 * order (mt_themis.h, docs/reference/themis.md). */
#include "plan/mt_themis.h"
#include <stdlib.h>
#include <string.h>

void mt_latmodel_of(const mt_topo *t, const mt_mdview *v, mt_latmodel *lm) {
  memset(lm, 0, sizeof *lm);
  lm->D = v->D;
  for (int d = 0; d < v->D; d++) {
    mt_lm_dim *m = &lm->d[d];
    const int P = v->size[d];
    double bw = 0, lat = 0;
    int links = 0;
    if (t->md.D) {
      bw = t->md.d[d].bw;
      lat = t->md.d[d].lat;
      links = t->md.d[d].links;
    } else {
      for (int l = 0; l < t->n_links; l++)
        if (t->links[l].dim == d) {
          bw = t->links[l].bw;
          lat = t->links[l].lat;
          break;
        }
      links = v->bidir[d] ? 2 : 1;
    }
    m->steps = mt_dimcoll_steps(v, d);
    m->lat = lat;
    m->bw = (bw > 0 ? bw : 1.0) * (links > 0 ? links : 1);
    m->A = m->steps * lat;
    m->B = 1.0 / m->bw;
    m->share = P > 1 ? (double)(P - 1) / P : 0;
  }
}

double mt_latmodel_time(const mt_latmodel *lm, int d, double bytes) {
  const mt_lm_dim *m = &lm->d[d];
  return m->A + bytes * m->share * m->B;
}

/* The Splitter: C chunks that are unions of the flows mt_sched_set_bytes cuts (F = C x N x H
 * flows of whole elements, earlier flows taking the remainder), so that the compact form
 * and its expansion agree byte for byte. */
int mt_themis_split(mt_chunksched *cs, const mt_mdview *v, uint64_t bytes, const mt_themis_opts *o, mt_err *e) {
  memset(cs, 0, sizeof *cs);
  int N = 1;
  for (int d = 0; d < v->D; d++) N *= v->size[d];
  if (o->chunks < 1) return mt_fail(e, "chunks per collective: %d; expected at least 1", o->chunks);
  if (o->elem < 1 || bytes % (uint64_t)o->elem) return mt_fail(e, "%llu bytes is not a whole number of %d-byte elements", (unsigned long long)bytes, o->elem);
  const uint64_t nh = (uint64_t)N * (uint64_t)(o->H > 0 ? o->H : 1), F = nh * (uint64_t)o->chunks, units = bytes / (uint64_t)o->elem;
  if (units < F)
    return mt_fail(e, "%llu bytes = %llu elements of %d bytes, fewer than the %llu flows of %d chunks x %d NPUs x %d: every flow needs at least one element",
                   (unsigned long long)bytes, (unsigned long long)units, o->elem, (unsigned long long)F, o->chunks, N, o->H);
  const uint64_t base = units / F, rem = units % F;
  cs->v = *v;
  cs->n_chunks = o->chunks;
  cs->intra = o->intra;
  cs->overlap = o->overlap;
  cs->chunk = mt_xcalloc((size_t)o->chunks, sizeof *cs->chunk);
  uint64_t at = 0;
  for (int c = 0; c < o->chunks; c++) {
    const uint64_t first = (uint64_t)c * nh, extra = rem > first ? (rem - first < nh ? rem - first : nh) : 0;
    cs->chunk[c].addr = at * (uint64_t)o->elem;
    cs->chunk[c].bytes = (nh * base + extra) * (uint64_t)o->elem;
    at += nh * base + extra;
    for (int d = 0; d < v->D; d++) cs->chunk[c].order[d] = d;
  }
  return 0;
}

int mt_themis_baseline(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, mt_err *e) {
  if (mt_themis_split(cs, v, bytes, o, e)) return -1;
  if (mt_themis_order(cs, lm, NULL, e)) {
    mt_chunksched_free(cs);
    return -1;
  }
  return 0;
}

/* The Latency Model's load of one chunk of `bytes` in RS order `order` on every dimension
 * (lines 28-29): n_K x B_K for its reduce-scatter and the same again for the all-gather that
 * mirrors it (the fixed A_K are in the tracker's initial loads). */
void mt_themis_chunk_loads(const mt_latmodel *lm, const mt_mdview *v, const int *order, double bytes, double *add) {
  for (int k = 0; k < v->D; k++) {
    const int d = order[k];
    add[d] = 2 * bytes * lm->d[d].share * lm->d[d].B;
    bytes /= v->size[d];
  }
}

int mt_themis_schedule(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, mt_err *e) {
  if (mt_themis_split(cs, v, bytes, o, e)) return -1;
  const int D = v->D;
  double *load = cs->load;
  /* line 2: the tracker starts at A_K of the all-reduce (a reduce-scatter and an all-gather) */
  for (int d = 0; d < D; d++) load[d] = 2 * lm->d[d].A;
  for (int c = 0; c < cs->n_chunks; c++) {
    int *ord = cs->chunk[c].order, lo = 0, hi = 0;
    for (int d = 1; d < D; d++) {
      if (load[d] < load[lo]) lo = d;
      if (load[d] > load[hi]) hi = d;
    }
    /* line 19: the threshold is a reduce-scatter of chunkSize/16 on the least-loaded dimension */
    const double thr = mt_latmodel_time(lm, lo, (double)cs->chunk[c].bytes / 16);
    for (int d = 0; d < D; d++) ord[d] = d;
    if (load[hi] - load[lo] >= thr) /* line 23: ascending load; ties keep the lower dimension first */
      for (int i = 1; i < D; i++)
        for (int j = i; j > 0 && load[ord[j]] < load[ord[j - 1]]; j--) {
          int x = ord[j];
          ord[j] = ord[j - 1];
          ord[j - 1] = x;
        }
    double add[MT_MD_MAX_DIMS] = {0};
    mt_themis_chunk_loads(lm, v, ord, (double)cs->chunk[c].bytes, add);
    for (int d = 0; d < D; d++) load[d] += add[d];
  }
  if (mt_themis_order(cs, lm, NULL, e)) {
    mt_chunksched_free(cs);
    return -1;
  }
  return 0;
}

int mt_themis_order(mt_chunksched *cs, const mt_latmodel *lm, double *finish, mt_err *e) {
  const int C = cs->n_chunks, D = cs->v.D, S = 2 * D;
  for (int d = 0; d < MT_MD_MAX_DIMS; d++) {
    free(cs->queue[d]);
    cs->queue[d] = NULL;
    cs->qlen[d] = 0;
  }
  for (int c = 0; c < C; c++)
    for (int s = 0; s < S; s++) cs->qlen[mt_cs_stage_dim(cs, c, s)]++;
  for (int d = 0; d < D; d++) {
    cs->queue[d] = mt_xcalloc((size_t)cs->qlen[d] + 1, sizeof *cs->queue[d]);
    cs->qlen[d] = 0;
  }
  /* every chunk has one pending stage next[c], ready at ready[c]; each step of the loop
   * starts the earliest possible stage of any dimension (ties: the lower dimension), so
   * that no stage still to come could have been ready before it */
  int *next = mt_xcalloc((size_t)C, sizeof *next), left = C * S;
  double *ready = mt_xcalloc((size_t)C, sizeof *ready), busy[MT_MD_MAX_DIMS] = {0}, end = 0;
  while (left > 0) {
    int best_d = -1, best_c = -1;
    double best_t = 0;
    for (int d = 0; d < D; d++) {
      double t0 = -1; /* when d can start: its previous stage done and some stage ready */
      for (int c = 0; c < C; c++)
        if (next[c] < S && mt_cs_stage_dim(cs, c, next[c]) == d && (t0 < 0 || ready[c] < t0)) t0 = ready[c];
      if (t0 < 0) continue;
      if (busy[d] > t0) t0 = busy[d];
      int pick = -1;
      for (int c = 0; c < C; c++) {
        if (next[c] >= S || mt_cs_stage_dim(cs, c, next[c]) != d || ready[c] > t0) continue;
        if (pick < 0) pick = c;
        else if (cs->intra == MT_INTRA_SCF) {
          uint64_t bc = mt_cs_stage_bytes(cs, c, next[c]), bp = mt_cs_stage_bytes(cs, pick, next[pick]);
          if (bc < bp || (bc == bp && ready[c] < ready[pick])) pick = c;
        } else if (ready[c] < ready[pick]) pick = c;
      }
      if (best_d < 0 || t0 < best_t) {
        best_d = d;
        best_c = pick;
        best_t = t0;
      }
    }
    if (best_d < 0) break; /* cannot happen: some chunk has a pending stage */
    const int c = best_c, s = next[c];
    const double sb = (double)mt_cs_stage_bytes(cs, c, s), t1 = best_t + mt_latmodel_time(lm, best_d, sb);
    cs->queue[best_d][cs->qlen[best_d]++] = (mt_cs_stage){c, s};
    /* as the flow level's front end 2 runs it: with overlap the dimension is free again
     * after the stage's wire time, the chunk only after the whole stage */
    ready[c] = t1;
    busy[best_d] = cs->overlap ? best_t + sb * lm->d[best_d].share * lm->d[best_d].B : t1;
    if (t1 > end) end = t1;
    next[c]++;
    left--;
  }
  free(next);
  free(ready);
  if (left) return mt_fail(e, "themis: the intra-dimension simulation stopped with %d stages unplaced", left);
  if (finish) *finish = end;
  return 0;
}
