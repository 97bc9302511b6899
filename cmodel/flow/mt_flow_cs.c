/* SPDX-License-Identifier: Apache-2.0
 * mt_flow_cs: front end 2, a chunked dimension schedule (mt_chunksched) run directly.
 * The schedule is the same on every NPU (Themis Section 4.6) and every NPU's links in a
 * dimension are its own (a ring's two neighbour links, an FC group's peer links, the up-
 * and down-link of its switch), each carrying exactly one message of a collective step; so
 * one NPU's messages stand for all (NPU 0's links; docs/reference/flowsim.md "Front end 2"). A stage
 * (a chunk's reduce-scatter or all-gather in one dimension) runs its collective steps one
 * after another, a step ending when its messages arrived (the next step's data depends on
 * them); a dimension runs the stages of its queue one at a time in queue order, a stage
 * starting when its dimension is free and its chunk's previous stage has ended. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flow/mt_flow.h"
#include "topo/mt_mdtopo.h"

typedef struct {
  double t;     /* the step's time: its slowest message (latency + wire bytes / rate) */
  double wire;  /* the part of t the links are busy: the slowest message's wire bytes / rate */
  double bytes; /* payload the NPU sends in it */
} cs_step;

/* The rate and latency of a path of links (cap, lat indexed by link). */
static void path_of(const double *cap, const double *lat, const int *l, int n, double msg_cap, double *rate, double *plat) {
  double r = msg_cap > 0 ? msg_cap : INFINITY, a = 0;
  for (int i = 0; i < n; i++) {
    if (cap[l[i]] < r) r = cap[l[i]];
    a += lat[l[i]];
  }
  *rate = r;
  *plat = a;
}

/* Time and bytes of one collective step in dimension d: `msgs` messages of `size` bytes on
 * the NPU's links `links` (paths of `plen` links each). */
static cs_step step_time(const mt_flow_params *p, const double *cap, const double *lat, const int *links, int msgs, int plen, uint64_t size) {
  cs_step st = {0, 0, 0};
  const double w = mt_flow_wire(p, size, p->pkt_mode), ni = p->units == MT_FLOW_CYCLES ? p->ni_extra : 0;
  for (int m = 0; m < msgs; m++) {
    double r, a;
    path_of(cap, lat, links + m * plen, plen, p->pkt_mode ? p->pkt_cap : p->msg_cap, &r, &a);
    const double x = a + ni + w / r;
    if (x > st.t) st.t = x;
    if (w / r > st.wire) st.wire = w / r;
    st.bytes += (double)size;
  }
  return st;
}

/* NPU 0's links per dimension: ring + (and -), FC peers, switch up and down; their rates. */
typedef struct {
  const mt_flow_params *p;
  const mt_mdview *v;
  double *cap, *lat;
  int lk[MT_MD_MAX_DIMS][2 * 64], nm[MT_MD_MAX_DIMS], pl[MT_MD_MAX_DIMS];
  double dcap[MT_MD_MAX_DIMS];
} cs_ctx;

static void ctx_free(cs_ctx *x) {
  free(x->cap);
  free(x->lat);
}

static int ctx_init(cs_ctx *x, const mt_chunksched *cs, const mt_topo *t, const mt_flow_params *p, mt_err *e) {
  memset(x, 0, sizeof *x);
  x->p = p;
  x->v = &cs->v;
  const mt_mdview *v = &cs->v;
  mt_mdview tv;
  if (mt_mdview_of(t, "flow level (chunk schedule)", &tv, e)) return -1;
  if (tv.D != v->D) return mt_fail(e, "chunk schedule: %d dimensions, topology %s has %d", v->D, t->spec, tv.D);
  for (int d = 0; d < v->D; d++)
    if (tv.size[d] != v->size[d] || tv.kind[d] != v->kind[d] || tv.stride[d] != v->stride[d] || tv.bidir[d] != v->bidir[d])
      return mt_fail(e, "chunk schedule: dimension %d is %s%d (stride %d%s), topology %s has %s%d", d + 1, mt_dim_kind_name(v->kind[d]), v->size[d],
                     v->stride[d], v->bidir[d] ? ", both ways" : "", t->spec, mt_dim_kind_name(tv.kind[d]), tv.size[d]);
  x->cap = mt_xcalloc((size_t)t->n_links + 1, sizeof(double));
  x->lat = mt_xcalloc((size_t)t->n_links + 1, sizeof(double));
  if (mt_flow_links(t, p, x->cap, x->lat, e)) return -1;
  for (int d = 0; d < v->D; d++) {
    const int k = v->size[d], st = v->stride[d];
    if (k < 2) continue;
    if (v->kind[d] == MT_DIM_RING) {
      x->pl[d] = 1;
      x->lk[d][x->nm[d]++] = mt_topo_find_link(t, 0, st);
      if (v->bidir[d]) x->lk[d][x->nm[d]++] = mt_topo_find_link(t, 0, (k - 1) * st);
    } else if (v->kind[d] == MT_DIM_FC) {
      if (k > 65) return mt_fail(e, "chunk schedule: fully-connected dimension %d of %d NPUs; at most 65", d + 1, k);
      x->pl[d] = 1;
      for (int u = 1; u < k; u++) x->lk[d][x->nm[d]++] = mt_topo_find_link(t, 0, u * st);
    } else {
      const int sw = mt_dims_switch_of(&t->md, 0, d);
      x->pl[d] = 2;
      x->nm[d] = 1;
      x->lk[d][0] = mt_topo_find_link(t, 0, sw);
      x->lk[d][1] = sw < 0 ? -1 : mt_topo_find_link(t, sw, st);
    }
    for (int i = 0; i < x->nm[d] * x->pl[d]; i++)
      if (x->lk[d][i] < 0) return mt_fail(e, "chunk schedule on %s: NPU 0 has no dimension-%d link", t->spec, d + 1);
    for (int i = 0; i < x->nm[d]; i++) x->dcap[d] += x->cap[x->lk[d][i * x->pl[d]]];
  }
  return 0;
}

/* Stage s of chunk c: its time, the part of it its links are busy (*wire), the bytes NPU 0
 * sends and its messages. */
static double stage(const cs_ctx *x, const mt_chunksched *cs, int c, int s, double *wire, double *sent, uint64_t *msgs) {
  const mt_mdview *v = x->v;
  const int d = mt_cs_stage_dim(cs, c, s), k = v->size[d], rs = s < v->D;
  const uint64_t B = mt_cs_stage_bytes(cs, c, s);
  double ts = 0;
  *sent = 0;
  *msgs = 0;
  *wire = 0;
  if (k < 2) return 0;
  if (v->kind[d] != MT_DIM_SW) {
    /* ring: k-1 steps of B/k (halves both ways round a bidirectional ring); direct: one step, B/k to each peer */
    const uint64_t div = (uint64_t)k * (v->kind[d] == MT_DIM_RING ? (uint64_t)x->nm[d] : 1u), sz = (B + div - 1) / div;
    const int steps = v->kind[d] == MT_DIM_RING ? k - 1 : 1;
    cs_step q = step_time(x->p, x->cap, x->lat, x->lk[d], x->nm[d], 1, sz);
    *sent = steps * q.bytes;
    *msgs = (uint64_t)steps * (uint64_t)x->nm[d];
    *wire = steps * q.wire;
    return steps * q.t;
  }
  /* halving-doubling: reduce-scatter B/2, B/4, ... B/k; all-gather the reverse */
  for (int j = 1; j < k; j <<= 1) {
    const uint64_t div = rs ? 2u * (uint64_t)j : (uint64_t)k / (uint64_t)j, sz = (B + div - 1) / div;
    cs_step q = step_time(x->p, x->cap, x->lat, x->lk[d], 1, 2, sz);
    ts += q.t;
    *wire += q.wire;
    *sent += q.bytes;
    ++*msgs;
  }
  return ts;
}

static int check_cs(const mt_chunksched *cs, mt_err *e) {
  const int D = cs->v.D, C = cs->n_chunks;
  if (C < 1) return mt_fail(e, "chunk schedule: no chunks");
  char *seen = mt_xcalloc((size_t)C * (size_t)(2 * D), 1);
  int rc = 0;
  for (int c = 0; c < C && !rc; c++) {
    unsigned used = 0;
    for (int k = 0; k < D; k++)
      if (cs->chunk[c].order[k] >= 0 && cs->chunk[c].order[k] < D) used |= 1u << cs->chunk[c].order[k];
    if (used != (1u << D) - 1) rc = mt_fail(e, "chunk schedule: chunk %d's order is not a permutation of the %d dimensions", c, D);
  }
  for (int d = 0; d < D && !rc; d++)
    for (int i = 0; i < cs->qlen[d] && !rc; i++) {
      const mt_cs_stage q = cs->queue[d][i];
      if (q.chunk < 0 || q.chunk >= C || q.stage < 0 || q.stage >= 2 * D)
        rc = mt_fail(e, "chunk schedule: dimension %d queue[%d] = (chunk %d, stage %d): out of range (%d chunks, stages 0..%d)", d + 1, i, q.chunk,
                     q.stage, C, 2 * D - 1);
      else if (mt_cs_stage_dim(cs, q.chunk, q.stage) != d)
        rc = mt_fail(e, "chunk schedule: dimension %d queue[%d] = (chunk %d, stage %d), a stage of dimension %d", d + 1, i, q.chunk, q.stage,
                     mt_cs_stage_dim(cs, q.chunk, q.stage) + 1);
      else if (seen[(size_t)q.chunk * (2 * D) + q.stage]++)
        rc = mt_fail(e, "chunk schedule: dimension %d queue[%d] = (chunk %d, stage %d) appears twice", d + 1, i, q.chunk, q.stage);
    }
  for (int c = 0; c < C && !rc; c++)
    for (int s = 0; s < 2 * D && !rc; s++)
      if (!seen[(size_t)c * (2 * D) + s]) rc = mt_fail(e, "chunk schedule: chunk %d's stage %d is in no queue", c, s);
  free(seen);
  return rc;
}

int mt_flow_run_cs(const mt_chunksched *cs, const mt_topo *t, const mt_flow_params *p, mt_flow_result *r, mt_err *e) {
  memset(r, 0, sizeof *r);
  cs_ctx x;
  memset(&x, 0, sizeof x);
  if (check_cs(cs, e) || ctx_init(&x, cs, t, p, e)) {
    ctx_free(&x);
    return -1;
  }
  const int D = cs->v.D, C = cs->n_chunks;
  double *cready = mt_xcalloc((size_t)C, sizeof(double)), dfree[MT_MD_MAX_DIMS] = {0}, dbusy[MT_MD_MAX_DIMS] = {0}, dbytes[MT_MD_MAX_DIMS] = {0};
  int *cnext = mt_xcalloc((size_t)C, sizeof(int)), qpos[MT_MD_MAX_DIMS] = {0}, rc = 0;
  double end = 0;
  /* a stage's start depends only on its dimension's previous stage and its chunk's previous
   * stage, both known when it is at its queue's head and its chunk's next: any order of
   * visiting the dimensions gives the same times */
  for (int progress = 1; progress;) {
    progress = 0;
    for (int d = 0; d < D; d++)
      while (qpos[d] < cs->qlen[d]) {
        const mt_cs_stage q = cs->queue[d][qpos[d]];
        if (cnext[q.chunk] != q.stage) break;
        double sent, wire;
        uint64_t msgs;
        const double ts = stage(&x, cs, q.chunk, q.stage, &wire, &sent, &msgs);
        const double st0 = dfree[d] > cready[q.chunk] ? dfree[d] : cready[q.chunk];
        /* overlap: the dimension is taken for the stage's wire time only, its latency is
         * hidden behind the next stages (each still ends no sooner than its own st0 + ts) */
        dfree[d] = st0 + (p->overlap ? wire : ts);
        cready[q.chunk] = st0 + ts;
        dbusy[d] += p->overlap ? wire : ts;
        dbytes[d] += sent;
        if (st0 + ts > end) end = st0 + ts;
        cnext[q.chunk]++;
        qpos[d]++;
        r->messages += msgs;
        r->events++;
        progress = 1;
      }
  }
  for (int d = 0; d < D && !rc; d++)
    if (qpos[d] < cs->qlen[d]) {
      const mt_cs_stage q = cs->queue[d][qpos[d]];
      rc = mt_fail(e, "chunk schedule: dimension %d waits forever at queue[%d] = (chunk %d, stage %d): chunk %d's stage %d comes later in its queue",
                   d + 1, qpos[d], q.chunk, q.stage, q.chunk, cnext[q.chunk]);
    }
  if (!rc) {
    uint64_t bytes = 0;
    for (int c = 0; c < C; c++) bytes += cs->chunk[c].bytes;
    r->time = end;
    r->ndims = D;
    double tot = 0, tcap = 0;
    for (int d = 0; d < D; d++) {
      r->dim_util[d] = end > 0 && x.dcap[d] > 0 ? dbytes[d] / (end * x.dcap[d]) : 0;
      r->dim_busy[d] = end > 0 ? dbusy[d] / end : 0;
      if (r->dim_util[d] > r->util_max) r->util_max = r->dim_util[d];
      tot += dbytes[d];
      tcap += x.dcap[d];
    }
    r->util_mean = end > 0 && tcap > 0 ? tot / (end * tcap) : 0;
    mt_flow_bound(t, x.cap, bytes, r);
  }
  free(cready);
  free(cnext);
  ctx_free(&x);
  return rc;
}

/* The baseline in compact form: every chunk reduce-scatters dims 1..D and all-gathers D..1;
 * each dimension runs its stages first come, first served (the order they become ready,
 * found by running them: the dimension free earliest decides first; ties by chunk). */
int mt_flow_cs_baseline(mt_chunksched *cs, const mt_topo *t, const mt_flow_params *p, uint64_t bytes, int elem, int chunks, mt_err *e) {
  memset(cs, 0, sizeof *cs);
  if (mt_mdview_of(t, "hier", &cs->v, e)) return -1;
  const int D = cs->v.D;
  if (chunks < 1 || elem < 1 || bytes % (uint64_t)elem || bytes / (uint64_t)elem < (uint64_t)chunks)
    return mt_fail(e, "chunk schedule: %llu bytes do not make %d chunks of whole %d-byte elements", (unsigned long long)bytes, chunks, elem);
  cs->n_chunks = chunks;
  cs->chunk = mt_xcalloc((size_t)chunks, sizeof *cs->chunk);
  const uint64_t el = bytes / (uint64_t)elem, q = el / (uint64_t)chunks, rem = el % (uint64_t)chunks;
  for (int c = 0, a = 0; c < chunks; c++) {
    cs->chunk[c].addr = (uint64_t)a * (uint64_t)elem;
    cs->chunk[c].bytes = (q + ((uint64_t)c < rem)) * (uint64_t)elem;
    a += (int)(q + ((uint64_t)c < rem));
    for (int k = 0; k < D; k++) cs->chunk[c].order[k] = k;
  }
  cs->intra = MT_INTRA_FIFO;
  for (int d = 0; d < D; d++) {
    cs->queue[d] = mt_xcalloc((size_t)chunks * 2, sizeof(mt_cs_stage));
    cs->qlen[d] = 0;
  }
  cs_ctx x;
  if (ctx_init(&x, cs, t, p, e)) {
    ctx_free(&x);
    mt_chunksched_free(cs);
    return -1;
  }
  double *cready = mt_xcalloc((size_t)chunks, sizeof(double)), dfree[MT_MD_MAX_DIMS] = {0};
  int *cnext = mt_xcalloc((size_t)chunks, sizeof(int)), left = chunks * 2 * D;
  while (left > 0) {
    /* the decision due first: a dimension's time is when it is free and has a stage ready */
    int bd = -1, bc = -1;
    double bt = INFINITY;
    for (int d = 0; d < D; d++) {
      int best = -1;
      double br = INFINITY;
      for (int c = 0; c < chunks; c++)
        if (cnext[c] < 2 * D && mt_cs_stage_dim(cs, c, cnext[c]) == d && cready[c] < br) {
          br = cready[c];
          best = c;
        }
      if (best < 0) continue;
      /* first come among those ready when it is free */
      const double when = br > dfree[d] ? br : dfree[d];
      if (when < bt) {
        bt = when;
        bd = d;
        bc = best;
      }
    }
    double sent;
    uint64_t msgs;
    double wire;
    const double ts = stage(&x, cs, bc, cnext[bc], &wire, &sent, &msgs);
    cs->queue[bd][cs->qlen[bd]++] = (mt_cs_stage){bc, cnext[bc]};
    dfree[bd] = cready[bc] = bt + ts;
    cnext[bc]++;
    left--;
  }
  free(cready);
  free(cnext);
  ctx_free(&x);
  return 0;
}
