/* SPDX-License-Identifier: Apache-2.0
 * ni_ref.c: TEST ONLY. A frozen copy of the original (unoptimized) cmodel/mt_ni.c step function
 * (and the init, table load and decoder it needs), state struct renamed mt_nref, functions
 * nref_*. It is #included by tb/cmodel/test_ni_diff.c, which runs it next to the optimized
 * mt_ni_step on the scenarios of test_ni.c and compares every output and the whole state every
 * cycle. Never compiled into libmt. Only change from the original: names (and static linkage);
 * parameter checking is the library's mt_ni_check_params (unchanged). */
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"
#include "hw/mt_ni.h"

typedef struct {
  uint8_t act, pm, op, hd;
  uint16_t step;
  uint32_t dst, nxt, ej, flow, addr, len, nfl, rdj, txj, pc, lastmask;
  uint32_t fifo[MT_NI_MAX_SQ][MT_NI_MAX_LANES];
  uint32_t frd, fcnt, outst;
} nref_tx;

typedef struct {
  uint8_t st;            /* 0 idle, 1 look, 2 busy */
  uint32_t s;            /* stream = l * NumVcs + vc */
  uint32_t sl;           /* the same stream in this engine's own list */
  uint32_t rr;           /* next stream to look at (index in this engine's list) */
  uint8_t op, normal;
  uint32_t flow, src, addr, len, size, nfl, popj, wj, infl, lastmask, tidx;
  uint32_t inq[MT_NI_MAX_RQ][MT_NI_MAX_LANES];
  uint32_t inq_rd, inq_cnt;
  uint32_t wq[MT_NI_MAX_RQ][MT_NI_MAX_LANES];
  uint32_t wq_rd, wq_cnt;
  uint8_t alu_v;
  uint32_t alu_sum[MT_NI_MAX_LANES];
} nref_rx;

typedef struct {
  mt_ni_params p;
  /* derived */
  unsigned lanes, fb, lg_fb, pkt_flits, nstreams, tq_depth, width, words;
  int o_op, o_flow, o_step, o_parent, o_child, o_addr, o_size, slot_w;
  unsigned ne, nmp, ses;  /* engines, memory ports, streams per engine */
  /* requesters of each memory port, in round-robin order: agent a < L is sender a,
   * a >= L engine a - L; mode 0 reads and writes (writes first), 1 reads only, 2 writes only */
  uint8_t na[MT_NI_MAX_MP], ag[MT_NI_MAX_MP][2 * MT_NI_MAX_L], agm[MT_NI_MAX_MP][2 * MT_NI_MAX_L];
  uint8_t wport[MT_NI_MAX_L]; /* the port that carries engine e's writes */
  /* table memory and its registered read ports: A (scan/issue), B one per engine (look-up) */
  uint64_t *tbl;          /* [tbl_depth * MT_NI_EW] */
  uint64_t tba[MT_NI_EW], tbb[MT_NI_MAX_L][MT_NI_EW];
  uint32_t rb[MT_NI_MAX_L]; /* port B address registers */
  /* control */
  uint8_t st;
  uint32_t hp, ci, lock, wd, err_idx;
  uint16_t ts, prev_step;
  uint8_t err_code, done;
  /* per flow [max_flows] */
  uint8_t *rv, *gv, *root, *grx, *rdone, *cnt;
  uint32_t *ridx, *gidx, *rxb;
  /* senders, credits */
  nref_tx tx[MT_NI_MAX_L];
  uint16_t cred[MT_NI_MAX_L][MT_NI_MAX_VCS];
  /* ejection FIFOs [stream][slot] */
  mt_flit *ej;
  uint32_t ej_rd[MT_NI_MAX_L * MT_NI_MAX_VCS], ej_cnt[MT_NI_MAX_L * MT_NI_MAX_VCS];
  nref_rx rx[MT_NI_MAX_L];
  /* memory ports: request registers, round-robin pointers, tag FIFOs [nmp][tq_depth] */
  uint8_t rq_v[MT_NI_MAX_MP], rq_we[MT_NI_MAX_MP];
  uint32_t rq_addr[MT_NI_MAX_MP], rq_be[MT_NI_MAX_MP], rq_data[MT_NI_MAX_MP][MT_NI_MAX_LANES];
  uint8_t *tq;
  uint32_t tq_rd[MT_NI_MAX_MP], tq_cnt[MT_NI_MAX_MP], mrr[MT_NI_MAX_MP];
  mt_ni_out q;            /* registered outputs */
  uint64_t cycles;
} mt_nref;

typedef struct {
  int op, flow, step, nchild, gap;
  int pv, pnode, pport, pej;
  int cv[MT_NI_MAX_C], cnode[MT_NI_MAX_C], cport[MT_NI_MAX_C], cej[MT_NI_MAX_C];
  uint32_t addr, size;
} nref_entry;

static void nref_free(mt_nref *s);

static void nref_layout_offsets(const mt_ni_params *p, int *o) {
  /* o: op, flow, step, parent, child, addr, size, slot_w, width (as mt_layout_make) */
  int slot_w = 1 + (p->compact ? 0 : p->id_w) + p->port_w + p->ej_w, x = 0;
  o[0] = x; x += 2;
  o[1] = x; x += p->flow_w;
  o[2] = x; x += p->step_w;
  o[3] = x; x += slot_w;
  o[4] = x; x += p->children * slot_w;
  o[5] = x; if (!p->compact) x += p->addr_w;
  o[6] = x; if (!p->compact) x += p->size_w;
  o[7] = slot_w; o[8] = x;
}

static int nref_init(mt_nref *s, const mt_ni_params *p, mt_err *e) {
  memset(s, 0, sizeof *s);
  if (mt_ni_check_params(p, e)) return -1;
  s->p = *p;
  s->lanes = p->payload_w / 32; s->fb = p->payload_w / 8;
  s->lg_fb = 0; while ((1u << s->lg_fb) < s->fb) s->lg_fb++;
  s->pkt_flits = p->pkt_bytes / s->fb;
  s->nstreams = p->nlocal * p->num_vcs;
  s->ne = p->rx_engines ? p->rx_engines : 1;
  s->nmp = p->mem_ports ? p->mem_ports : 1;
  s->ses = s->nstreams / s->ne;
  s->tq_depth = p->nlocal * p->sq + s->ne * p->rq;
  {
    const unsigned L = p->nlocal, E = s->ne;
    if (s->nmp == 1) {
      for (unsigned a = 0; a < L + E; a++) { s->ag[0][a] = (uint8_t)a; s->agm[0][a] = 0; }
      s->na[0] = (uint8_t)(L + E);
      for (unsigned e2 = 0; e2 < E; e2++) s->wport[e2] = 0;
    } else {
      for (unsigned l = 0; l < L; l++) { s->na[l] = 1; s->ag[l][0] = (uint8_t)l; s->agm[l][0] = 0; }
      const int split = s->nmp == L + 2 * E;
      for (unsigned e2 = 0; e2 < E; e2++) {
        s->na[L + e2] = 1; s->ag[L + e2][0] = (uint8_t)(L + e2); s->agm[L + e2][0] = (uint8_t)(split ? 1 : 0);
        s->wport[e2] = (uint8_t)(L + e2);
        if (split) { s->na[L + E + e2] = 1; s->ag[L + E + e2][0] = (uint8_t)(L + e2); s->agm[L + E + e2][0] = 2; s->wport[e2] = (uint8_t)(L + E + e2); }
      }
    }
  }
  int o[9]; nref_layout_offsets(p, o);
  s->o_op = o[0]; s->o_flow = o[1]; s->o_step = o[2]; s->o_parent = o[3]; s->o_child = o[4];
  s->o_addr = o[5]; s->o_size = o[6]; s->slot_w = o[7]; s->width = (unsigned)o[8];
  s->tbl = calloc((size_t)p->tbl_depth * MT_NI_EW, 8);
  size_t F = p->max_flows;
  s->rv = calloc(F, 1); s->gv = calloc(F, 1); s->root = calloc(F, 1); s->grx = calloc(F, 1);
  s->rdone = calloc(F, 1); s->cnt = calloc(F, 1);
  s->ridx = calloc(F, 4); s->gidx = calloc(F, 4); s->rxb = calloc(F, 4);
  s->ej = calloc((size_t)s->nstreams * p->ej_depth, sizeof(mt_flit));
  s->tq = calloc((size_t)s->nmp * s->tq_depth, 1);
  if (!s->tbl || !s->rv || !s->gv || !s->root || !s->grx || !s->rdone || !s->cnt || !s->ridx ||
      !s->gidx || !s->rxb || !s->ej || !s->tq) { nref_free(s); return mt_fail(e, "out of memory"); }
  for (unsigned l = 0; l < p->nlocal; l++)
    for (unsigned v = 0; v < p->num_vcs; v++) s->cred[l][v] = (uint16_t)p->vc_depth;
  return 0;
}

static void nref_free(mt_nref *s) {
  free(s->tbl); free(s->rv); free(s->gv); free(s->root); free(s->grx); free(s->rdone); free(s->cnt);
  free(s->ridx); free(s->gidx); free(s->rxb); free(s->ej); free(s->tq);
  s->tbl = NULL; s->rv = s->gv = s->root = s->grx = s->rdone = s->cnt = NULL;
  s->ridx = s->gidx = s->rxb = NULL; s->ej = NULL; s->tq = NULL;
}

static void nref_table_load(mt_nref *s, const uint64_t *words, unsigned n, unsigned stride) {
  for (unsigned i = 0; i < n && i < s->p.tbl_depth; i++)
    for (unsigned k = 0; k < MT_NI_EW; k++) s->tbl[(size_t)i * MT_NI_EW + k] = k < stride ? words[(size_t)i * stride + k] : 0;
}

static uint32_t nref_getb(const uint64_t *w, int off, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; i++) v |= ((w[(off + i) / 64] >> ((off + i) % 64)) & 1ull) << i;
  return (uint32_t)v;
}

static void nref_decode(const mt_nref *s, const mt_ni_in *cfg, const uint64_t *w, nref_entry *en) {
  const mt_ni_params *p = &s->p;
  memset(en, 0, sizeof *en);
  en->op = (int)nref_getb(w, s->o_op, 2);
  en->flow = (int)nref_getb(w, s->o_flow, p->flow_w);
  en->step = (int)nref_getb(w, s->o_step, p->step_w);
  int rx_parent = en->op == MT_OP_GATHER; /* parent slot receives for Gather */
  for (int k = -1; k < p->children; k++) {
    int o = k < 0 ? s->o_parent : s->o_child + k * s->slot_w;
    int v = (int)nref_getb(w, o, 1), node = 0, port, ej;
    o += 1;
    if (!p->compact) { node = (int)nref_getb(w, o, p->id_w); o += p->id_w; }
    port = (int)nref_getb(w, o, p->port_w); o += p->port_w;
    ej = (int)nref_getb(w, o, p->ej_w);
    if (p->compact) {
      int receiving = (k < 0) == rx_parent;
      node = receiving ? cfg->nbr_rx[port & 15] : cfg->nbr_tx[port & 15];
    }
    if (k < 0) { en->pv = v; en->pnode = node; en->pport = port; en->pej = ej; }
    else { en->cv[k] = v; en->cnode[k] = node; en->cport[k] = port; en->cej[k] = ej; }
  }
  /* nchild: leading valid slots; gap: a valid slot after an empty one */
  int seen_empty = 0;
  for (int k = 0; k < p->children; k++) {
    if (en->cv[k]) { if (seen_empty) en->gap = 1; else en->nchild++; }
    else seen_empty = 1;
  }
  if (!p->compact) {
    en->addr = nref_getb(w, s->o_addr, p->addr_w);
    en->size = nref_getb(w, s->o_size, p->size_w);
  } else if (en->op == MT_OP_NOP) {
    en->addr = 0; en->size = cfg->nop_bytes;
  } else {
    uint32_t f = (uint32_t)en->flow, rem = cfg->rem_units;
    en->addr = cfg->elem * (f * cfg->base_units + (f < rem ? f : rem));
    en->size = cfg->elem * (cfg->base_units + (f < rem ? 1u : 0u));
  }
}

/* lane mask of flit j of a message of nfl flits whose last flit has mask lastmask */
static uint32_t nref_lane_mask(const mt_nref *s, uint32_t j, uint32_t nfl, uint32_t lastmask) {
  return j + 1 == nfl ? lastmask : (s->lanes == 32 ? 0xffffffffu : (1u << s->lanes) - 1u);
}
static uint32_t nref_last_mask(const mt_nref *s, uint32_t len) {
  uint32_t r = (len - 1u) & (s->fb - 1u); /* bytes in the last flit - 1 */
  uint32_t lanes = r / 4u + 1u;
  return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
}

static void nref_set_err(uint8_t *code, int c) { if (!*code) *code = (uint8_t)c; }

/* global stream of entry i in engine e's list: ports e, e+E, e+2E, ..., NumVcs VCs each */
static unsigned nref_eng_stream(const mt_nref *s, unsigned e, unsigned i) {
  const unsigned NV = s->p.num_vcs;
  return (e + (i / NV) * s->ne) * NV + i % NV;
}

static void nref_step(mt_nref *s, const mt_ni_in *in, mt_ni_out *out) {
  const mt_ni_params *p = &s->p;
  const unsigned L = p->nlocal, NV = p->num_vcs, lanes = s->lanes;
  const unsigned F = p->max_flows, NE = s->ne, M = s->nmp, TQD = s->tq_depth;
  const uint32_t all1_port = (1u << p->port_w) - 1u;
  const int running = s->st == MT_NI_ST_RUN || s->st == MT_NI_ST_FIN;
  const int busy = s->st == MT_NI_ST_SCAN || running;
  int mem_quiet = 1; /* before the edge */
  for (unsigned m = 0; m < M; m++) if (s->rq_v[m] || s->tq_cnt[m]) mem_quiet = 0;
  uint8_t ecode = 0;          /* error raised this cycle */
  int progress = 0;
  mt_ni_out nq;
  memset(&nq, 0, sizeof nq);

  /* ---------------- combinational: decode the table read ports ---------------- */
  nref_entry E, EB[MT_NI_MAX_L];
  nref_decode(s, in, s->tba, &E);
  for (unsigned e = 0; e < NE; e++) if (s->rx[e].st == 1) nref_decode(s, in, s->tbb[e], &EB[e]);

  /* ---------------- memory response routing (tag FIFO fronts) ---------------- */
  int rsp_tag[MT_NI_MAX_MP];
  int eng_rsp[MT_NI_MAX_L];   /* port whose response goes to engine e this cycle, or -1 */
  for (unsigned e = 0; e < NE; e++) eng_rsp[e] = -1;
  for (unsigned m = 0; m < M; m++) {
    rsp_tag[m] = -1;
    if (in->mem_rsp_valid[m] && s->tq_cnt[m]) rsp_tag[m] = s->tq[m * TQD + s->tq_rd[m]];
    if (in->mem_rsp_valid[m]) progress = 1;
    if (rsp_tag[m] >= (int)L) eng_rsp[rsp_tag[m] - (int)L] = (int)m;
  }

  /* ---------------- requests to the memory arbiters ---------------- */
  int sreq[MT_NI_MAX_L];
  for (unsigned l = 0; l < L; l++) {
    const nref_tx *t = &s->tx[l];
    sreq[l] = running && t->act && t->rdj < t->nfl && t->fcnt + t->outst < p->sq;
  }
  int front_v[MT_NI_MAX_L], rx_busy[MT_NI_MAX_L], rx_wr[MT_NI_MAX_L], rx_rd[MT_NI_MAX_L];
  const mt_flit *front[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) {
    const nref_rx *r = &s->rx[e];
    const unsigned rs = r->s;
    front_v[e] = r->st == 2 && s->ej_cnt[rs] != 0;
    front[e] = front_v[e] ? &s->ej[(size_t)rs * p->ej_depth + s->ej_rd[rs]] : NULL;
    int front_bad = 0;
    if (front_v[e] && r->popj < r->nfl) {
      unsigned t = mt_flit_type(front[e], p->payload_w);
      front_bad = mt_ft_is_head(t) || (unsigned)mt_ft_is_normal(t) != r->normal ||
                  mt_ft_is_tail(t) != (r->popj + 1 == r->nfl);
    }
    rx_busy[e] = running && r->st == 2;
    const int rx_pop_ok = front_v[e] && r->popj < r->nfl && !front_bad;
    rx_wr[e] = rx_busy[e] && (r->op == MT_OP_REDUCE ? r->wq_cnt != 0 : rx_pop_ok);
    rx_rd[e] = rx_busy[e] && r->op == MT_OP_REDUCE && rx_pop_ok && r->infl < p->rq;
    if (rx_busy[e] && front_v[e] && r->popj < r->nfl && front_bad) nref_set_err(&ecode, MT_NI_E_RX_FRAME);
  }

  /* ---------------- memory arbiters: per port, round robin after the last grant ---------------- */
  int gnt[MT_NI_MAX_MP];      /* index into the port's requester list, or -1 */
  int any_gnt = 0;
  for (unsigned m = 0; m < M; m++) {
    gnt[m] = -1;
    if (!running || !(!s->rq_v[m] || in->mem_req_ready[m])) continue;
    const unsigned na = s->na[m];
    for (unsigned k = 1; k <= na; k++) {
      unsigned i = (s->mrr[m] + k) % na, a = s->ag[m][i], md = s->agm[m][i];
      int rq;
      if (a < L) rq = sreq[a];
      else rq = md == 0 ? (rx_wr[a - L] || rx_rd[a - L]) : md == 1 ? rx_rd[a - L] : rx_wr[a - L];
      if (rq) { gnt[m] = (int)i; any_gnt = 1; break; }
    }
  }

  /* ---------------- senders: flit to send this cycle ---------------- */
  int send[MT_NI_MAX_L];
  for (unsigned l = 0; l < L; l++) {
    const nref_tx *t = &s->tx[l];
    send[l] = running && t->act && s->cred[l][p->inj_vc] != 0 && (!t->hd || t->fcnt != 0);
  }

  /* ---------------- receive engines: idle pick / look-up ---------------- */
  int rx_pick[MT_NI_MAX_L], rx_pick_l[MT_NI_MAX_L], rx_look_go[MT_NI_MAX_L], rx_look_wait[MT_NI_MAX_L], rx_done[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) {
    const nref_rx *r = &s->rx[e];
    rx_pick[e] = -1; rx_pick_l[e] = -1; rx_look_go[e] = 0; rx_look_wait[e] = 0; rx_done[e] = 0;
    if (running && r->st == 0) {
      for (unsigned k = 0; k < s->ses; k++) {
        unsigned i = (r->rr + k) % s->ses, g = nref_eng_stream(s, e, i);
        if (s->ej_cnt[g]) { rx_pick[e] = (int)g; rx_pick_l[e] = (int)i; break; }
      }
      if (rx_pick[e] >= 0) {
        const mt_flit *f = &s->ej[(size_t)rx_pick[e] * p->ej_depth + s->ej_rd[rx_pick[e]]];
        if (!mt_ft_is_head(mt_flit_type(f, p->payload_w))) { nref_set_err(&ecode, MT_NI_E_RX_FRAME); rx_pick[e] = -1; }
      }
    }
  }
  for (unsigned e = 0; e < NE; e++) {
    const nref_rx *r = &s->rx[e];
    if (!(running && r->st == 1)) continue;
    const nref_entry *B = &EB[e];
    int look_code = 0;
    unsigned f = r->flow, fi = f < F ? f : 0;
    uint32_t ea = B->addr, es = B->size;
    if ((r->op != MT_OP_REDUCE && r->op != MT_OP_GATHER) || f >= in->nflows || f >= F || !s->rv[fi] ||
        (r->op == MT_OP_GATHER && s->root[fi])) look_code = MT_NI_E_RX_FLOW;
    else if (r->op == MT_OP_REDUCE) {
      int k = -1;
      for (int c = 0; c < B->nchild; c++) if ((uint32_t)B->cnode[c] == r->src) { k = c; break; }
      if (k < 0) look_code = MT_NI_E_RX_SRC;
      else if ((uint32_t)k != s->cnt[fi]) rx_look_wait[e] = 1;
    } else {
      if (s->gv[fi] && (uint32_t)B->pnode != r->src) look_code = MT_NI_E_RX_SRC;
      else if (s->grx[fi]) rx_look_wait[e] = 1;
    }
    if (!look_code && (r->len == 0 || (r->len & 3u) || r->addr < ea ||
                       (uint64_t)r->addr + r->len > (uint64_t)ea + es)) look_code = MT_NI_E_RX_RANGE;
    if (look_code) { nref_set_err(&ecode, look_code); rx_look_wait[e] = 0; }
    else if (!rx_look_wait[e]) rx_look_go[e] = 1;
    if (rx_look_wait[e]) rx_look_go[e] = 0;
  }
  for (unsigned e = 0; e < NE; e++) {
    const nref_rx *r = &s->rx[e];
    /* done when every write is issued; with its own write port, also accepted by the
     * memory (nothing held), so a later reader on another port sees the data */
    if (rx_busy[e] && r->wj == r->nfl) {
      unsigned wp = s->wport[e];
      rx_done[e] = M == 1 || !s->rq_v[wp] || in->mem_req_ready[wp];
    }
  }

  /* ---------------- issue logic (RUN) and scan (SCAN) ---------------- */
  int any_free = -1, sidle = 1;
  for (unsigned l = 0; l < L; l++) {
    if (s->tx[l].act) sidle = 0;
    else if (any_free < 0) any_free = (int)l;
  }
  int issue = 0, advance = 0, to_fin = 0, act_l = -1, act_k = -2;
  unsigned ef = (unsigned)E.flow < F ? (unsigned)E.flow : 0;
  if (s->st == MT_NI_ST_RUN && s->lock == 0) {
    if (E.op == MT_OP_END) to_fin = 1;
    else if ((unsigned)E.step > s->ts) advance = sidle;
    else if ((unsigned)E.step == s->ts) {
      if (E.op == MT_OP_NOP) issue = 1;
      else {
        /* the packetiser of the slot to send to: port p -> packetiser p mod L, so that a
         * source's units to a neighbour leave through one router input FIFO, in order
         * (docs/ni.md "Packetiser per port"); a routed slot takes the lowest idle one */
        const uint32_t sp = (uint32_t)(E.op == MT_OP_REDUCE ? E.pport : E.cport[s->ci < MT_NI_MAX_C ? s->ci : 0]);
        const int own = sp == all1_port ? any_free : (s->tx[sp % L].act ? -1 : (int)(sp % L));
        if (E.op == MT_OP_REDUCE) {
          if (s->cnt[ef] == (unsigned)E.nchild) {
            if (!E.pv) issue = 1;
            else if (own >= 0) { issue = 1; act_l = own; act_k = -1; }
          }
        } else { /* Gather */
          int dep = E.pv ? s->grx[ef] : s->rdone[ef];
          if (dep && own >= 0) { issue = 1; act_l = own; act_k = (int)s->ci; }
        }
      }
    } else nref_set_err(&ecode, MT_NI_E_STEP);
  }
  int scan_code = 0, scan_end = 0;
  if (s->st == MT_NI_ST_SCAN) {
    progress = 1;
    if (E.op == MT_OP_END) scan_end = 1;
    else {
      int bad_port = 0;
      for (int k = -1; k < p->children; k++) {
        int v = k < 0 ? E.pv : E.cv[k], port = k < 0 ? E.pport : E.cport[k], ej = k < 0 ? E.pej : E.cej[k];
        if (!v) continue;
        if ((uint32_t)port == all1_port ? p->compact : (unsigned)port >= p->net_ports) bad_port = 1;
        if ((unsigned)ej >= L) bad_port = 1;
      }
      if (E.step == 0 || (unsigned)E.step < s->prev_step) scan_code = MT_NI_E_STEP;
      else if (E.op == MT_OP_NOP) scan_code = 0;
      else if ((unsigned)E.flow >= in->nflows || (unsigned)E.flow >= F) scan_code = MT_NI_E_FLOW;
      else if (bad_port) scan_code = MT_NI_E_PORT;
      else if (E.gap || (E.op == MT_OP_GATHER && E.nchild == 0) ||
               (E.op == MT_OP_REDUCE && !E.pv && E.nchild == 0) ||
               (E.op == MT_OP_REDUCE && s->rv[ef]) || E.size == 0 || (E.size & 3u) || (E.addr & 3u))
        scan_code = MT_NI_E_ENTRY;
      if (!scan_code && s->hp + 1 >= p->tbl_depth) scan_code = MT_NI_E_NOEND;
      if (scan_code) nref_set_err(&ecode, scan_code);
    }
  }

  /* ---------------- END / finish condition ---------------- */
  int fin_ok = 0;
  if (s->st == MT_NI_ST_FIN) {
    int g = 1;
    for (unsigned f = 0; f < F; f++) if (f < in->nflows && !s->root[f] && !s->grx[f]) g = 0;
    int ridle = 1;
    for (unsigned e = 0; e < NE; e++) if (s->rx[e].st != 0) ridle = 0;
    fin_ok = sidle && ridle && mem_quiet && g;
  }

  /* ---------------- ejection overflow ---------------- */
  int ej_full[MT_NI_MAX_L] = {0};
  for (unsigned l = 0; l < L; l++) {
    if (!in->ej_valid[l]) continue;
    unsigned v = mt_flit_vc(&in->ej_flit[l], p->payload_w, NV);
    unsigned i = l * NV + (v < NV ? v : 0);
    ej_full[l] = s->ej_cnt[i] >= p->ej_depth;
    if (ej_full[l]) nref_set_err(&ecode, MT_NI_E_EJ_OVF);
  }

  /* ---------------- progress and watchdog ---------------- */
  if (any_gnt || issue || advance || s->lock != 0) progress = 1;
  for (unsigned e = 0; e < NE; e++) if (rx_done[e] || rx_look_go[e]) progress = 1;
  for (unsigned l = 0; l < L; l++) if (send[l]) progress = 1;
  uint32_t wmax = p->wd_w >= 32 ? 0xffffffffu : (1u << p->wd_w) - 1u;
  uint32_t wd_d = (progress || !busy) ? 0 : (s->wd == wmax ? wmax : s->wd + 1);
  uint32_t wlim = in->wd_limit & wmax;
  if (busy && wlim != 0 && wd_d >= wlim) nref_set_err(&ecode, MT_NI_E_WATCHDOG);

  /* ======================= register updates ======================= */
  /* ---- memory request registers and tag FIFOs ---- */
  uint32_t ej_pop[MT_NI_MAX_L]; /* stream popped by engine e this cycle */
  for (unsigned e = 0; e < NE; e++) ej_pop[e] = 0xffffffffu;
  for (unsigned m = 0; m < M; m++) {
    if (s->rq_v[m] && in->mem_req_ready[m]) s->rq_v[m] = 0;
    if (rsp_tag[m] >= 0) { s->tq_rd[m] = (s->tq_rd[m] + 1) % TQD; s->tq_cnt[m]--; }
    if (gnt[m] < 0) continue;
    const unsigned a = s->ag[m][gnt[m]], md = s->agm[m][gnt[m]];
    uint8_t *tq = s->tq + (size_t)m * TQD;
    s->mrr[m] = (uint32_t)gnt[m];
    s->rq_v[m] = 1;
    if (a < L) {
      nref_tx *t = &s->tx[a];
      s->rq_we[m] = 0;
      s->rq_addr[m] = t->addr + (t->rdj << s->lg_fb);
      s->rq_be[m] = nref_lane_mask(s, t->rdj, t->nfl, t->lastmask);
      memset(s->rq_data[m], 0, sizeof s->rq_data[m]);
      t->rdj++;
      t->outst++;
      tq[(s->tq_rd[m] + s->tq_cnt[m]) % TQD] = (uint8_t)a;
      s->tq_cnt[m]++;
      continue;
    }
    const unsigned e = a - L;
    nref_rx *r = &s->rx[e];
    if (md == 2 || (md == 0 && rx_wr[e])) {
      s->rq_we[m] = 1;
      s->rq_addr[m] = r->addr + (r->wj << s->lg_fb);
      s->rq_be[m] = nref_lane_mask(s, r->wj, r->nfl, r->lastmask);
      if (r->op == MT_OP_REDUCE) {
        memcpy(s->rq_data[m], r->wq[r->wq_rd], sizeof s->rq_data[m]);
        r->wq_rd = (r->wq_rd + 1) % p->rq; r->wq_cnt--; r->infl--;
      } else {
        memset(s->rq_data[m], 0, sizeof s->rq_data[m]);
        for (unsigned k = 0; k < lanes; k++) s->rq_data[m][k] = front[e]->w[k];
        ej_pop[e] = r->s; r->popj++;
      }
      r->wj++;
    } else { /* engine read (reduce) */
      s->rq_we[m] = 0;
      s->rq_addr[m] = r->addr + (r->popj << s->lg_fb);
      s->rq_be[m] = nref_lane_mask(s, r->popj, r->nfl, r->lastmask);
      memset(s->rq_data[m], 0, sizeof s->rq_data[m]);
      unsigned wi = (r->inq_rd + r->inq_cnt) % p->rq;
      for (unsigned k = 0; k < lanes; k++) r->inq[wi][k] = front[e]->w[k];
      r->inq_cnt++;
      ej_pop[e] = r->s; r->popj++; r->infl++;
      tq[(s->tq_rd[m] + s->tq_cnt[m]) % TQD] = (uint8_t)a;
      s->tq_cnt[m]++;
    }
  }

  /* ---- reduction units (mt_reduce_alu: registered, one vector per cycle per engine) ---- */
  for (unsigned e = 0; e < NE; e++) {
    nref_rx *r = &s->rx[e];
    if (r->alu_v) { /* result of the previous cycle into the write queue */
      unsigned wi = (r->wq_rd + r->wq_cnt) % p->rq;
      memcpy(r->wq[wi], r->alu_sum, sizeof r->alu_sum);
      r->wq_cnt++;
    }
    r->alu_v = 0;
    if (eng_rsp[e] >= 0) {
      const uint32_t *d = in->mem_rsp_data[eng_rsp[e]];
      for (unsigned k = 0; k < lanes; k++) r->alu_sum[k] = mt_reduce_add(in->dtype, d[k], r->inq[r->inq_rd][k]);
      r->alu_v = 1;
      r->inq_rd = (r->inq_rd + 1) % p->rq; r->inq_cnt--;
    }
  }
  for (unsigned m = 0; m < M; m++) {
    if (rsp_tag[m] < 0 || rsp_tag[m] >= (int)L) continue;
    nref_tx *t = &s->tx[rsp_tag[m]];
    unsigned wi = (t->frd + t->fcnt) % p->sq;
    for (unsigned k = 0; k < lanes; k++) t->fifo[wi][k] = in->mem_rsp_data[m][k];
    t->fcnt++; t->outst--;
  }

  /* ---- senders: flit out ---- */
  for (unsigned l = 0; l < L; l++) {
    nref_tx *t = &s->tx[l];
    if (!send[l]) continue;
    mt_flit fl; mt_flit_clear(&fl);
    if (!t->hd) {
      mt_head_info h; memset(&h, 0, sizeof h);
      h.dst = t->dst; h.src = in->node_id; h.eject = t->ej; h.flow = t->flow; h.op = t->op;
      h.step = t->step;
      if (t->pm) {
        uint32_t off = t->txj << s->lg_fb, rem = t->len - off;
        h.next = 0; h.addr = t->addr + off; h.len = rem < p->pkt_bytes ? rem : p->pkt_bytes;
        h.last = t->txj + s->pkt_flits >= t->nfl;
        mt_hd_pack(&fl, &h);
        mt_flit_set_type(&fl, p->payload_w, MT_FT_HEAD);
      } else {
        h.next = t->nxt; h.addr = t->addr; h.len = t->len; h.last = 1;
        mt_hd_pack(&fl, &h);
        mt_flit_set_type(&fl, p->payload_w, MT_FT_AR_HEAD);
      }
      t->hd = 1;
    } else {
      uint32_t m = nref_lane_mask(s, t->txj, t->nfl, t->lastmask);
      for (unsigned k = 0; k < lanes; k++) fl.w[k] = (m >> k) & 1u ? t->fifo[t->frd][k] : 0;
      int last = t->txj + 1 == t->nfl;
      unsigned ty;
      if (t->pm) {
        ty = (last || t->pc + 1 == s->pkt_flits) ? MT_FT_TAIL : MT_FT_BODY;
        if (t->pc + 1 == s->pkt_flits) { t->pc = 0; t->hd = 0; } else t->pc++;
      } else {
        ty = last ? MT_FT_AR_TAIL : (t->pc + 1 == p->subpkt_flits ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
        t->pc = t->pc + 1 == p->subpkt_flits ? 0 : t->pc + 1;
      }
      mt_flit_set_type(&fl, p->payload_w, ty);
      t->frd = (t->frd + 1) % p->sq; t->fcnt--;
      t->txj++;
      if (last) t->act = 0;
    }
    mt_flit_set_vc(&fl, p->payload_w, NV, p->inj_vc);
    nq.inj_valid[l] = 1;
    nq.inj_flit[l] = fl;
  }
  /* ---- injection credits ---- */
  for (unsigned l = 0; l < L; l++)
    for (unsigned v = 0; v < NV; v++)
      s->cred[l][v] = (uint16_t)(s->cred[l][v] - (send[l] && v == p->inj_vc ? 1 : 0) + (in->inj_credit[l][v] ? 1 : 0));

  /* ---- receive engine state ---- */
  uint32_t rb_d[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) {
    nref_rx *r = &s->rx[e];
    rb_d[e] = s->rb[e];
    if (rx_pick[e] >= 0) {
      const mt_flit *f = &s->ej[(size_t)rx_pick[e] * p->ej_depth + s->ej_rd[rx_pick[e]]];
      mt_head_info h; mt_hd_unpack(f, &h);
      unsigned fi = h.flow < F ? h.flow : 0;
      r->st = 1; r->s = (uint32_t)rx_pick[e]; r->sl = (uint32_t)rx_pick_l[e];
      r->op = (uint8_t)h.op; r->flow = h.flow; r->src = h.src; r->addr = h.addr; r->len = h.len;
      r->normal = (uint8_t)mt_ft_is_normal(mt_flit_type(f, p->payload_w));
      rb_d[e] = (h.op == MT_OP_GATHER && s->gv[fi]) ? s->gidx[fi] : s->ridx[fi];
    } else if (r->st == 1 && running) {
      if (rx_look_go[e]) {
        r->st = 2; r->size = EB[e].size;
        r->nfl = (r->len + s->fb - 1u) >> s->lg_fb;
        r->lastmask = nref_last_mask(s, r->len);
        r->popj = 0; r->wj = 0; r->infl = 0;
        ej_pop[e] = r->s;
      } else if (rx_look_wait[e]) {
        r->st = 0; r->rr = (r->sl + 1) % s->ses;
      }
    } else if (rx_done[e]) {
      unsigned fi = r->flow < F ? r->flow : 0;
      uint32_t nb = s->rxb[fi] + r->len;
      if (nb == r->size) {
        s->rxb[fi] = 0;
        if (r->op == MT_OP_REDUCE) s->cnt[fi]++; else s->grx[fi] = 1;
      } else s->rxb[fi] = nb;
      r->st = 0; r->rr = (r->sl + 1) % s->ses;
    }
    s->rb[e] = rb_d[e];
  }

  /* ---- ejection FIFOs: pop, push, credit pulses ---- */
  for (unsigned e = 0; e < NE; e++) {
    const uint32_t q = ej_pop[e];
    if (q == 0xffffffffu) continue;
    s->ej_rd[q] = (s->ej_rd[q] + 1) % p->ej_depth;
    s->ej_cnt[q]--;
    nq.ej_credit[q / NV][q % NV] = 1;
  }
  for (unsigned l = 0; l < L; l++) {
    if (!in->ej_valid[l] || ej_full[l]) continue; /* accepted iff not full before the edge */
    unsigned v = mt_flit_vc(&in->ej_flit[l], p->payload_w, NV);
    unsigned i = l * NV + (v < NV ? v : 0);
    unsigned wi = (s->ej_rd[i] + s->ej_cnt[i]) % p->ej_depth;
    s->ej[(size_t)i * p->ej_depth + wi] = in->ej_flit[l];
    s->ej_cnt[i]++;
  }

  /* ---- control: start, scan, issue, timestep, lockstep, errors ---- */
  uint32_t hp_d = s->hp;
  if (s->lock != 0) s->lock--;
  if (s->st == MT_NI_ST_SCAN && !ecode) {
    if (scan_end) {
      s->st = MT_NI_ST_RUN; hp_d = 0; s->ts = 1; s->lock = 0; s->ci = 0;
    } else {
      if (E.op == MT_OP_REDUCE) { s->rv[ef] = 1; s->ridx[ef] = s->hp; s->root[ef] = (uint8_t)!E.pv; }
      if (E.op == MT_OP_GATHER && E.pv && !s->gv[ef]) { s->gv[ef] = 1; s->gidx[ef] = s->hp; }
      s->prev_step = (uint16_t)E.step;
      hp_d = s->hp + 1;
    }
  }
  if (s->st == MT_NI_ST_RUN) {
    if (to_fin) s->st = MT_NI_ST_FIN;
    if (advance) s->ts++;
    if (issue) {
      if (E.op == MT_OP_NOP) {
        uint32_t est = (E.size + s->fb - 1u) >> s->lg_fb;
        s->lock = est + (p->perturb == 1 ? 1u : 0u);
        hp_d = s->hp + 1;
      } else if (E.op == MT_OP_REDUCE) {
        if (!E.pv) s->rdone[ef] = 1;
        hp_d = s->hp + 1;
      } else {
        if (s->ci + 1 >= (unsigned)E.nchild) { s->ci = 0; hp_d = s->hp + 1; }
        else s->ci++;
      }
      if (act_l >= 0) {
        nref_tx *t = &s->tx[act_l];
        int node, port, ej;
        if (act_k < 0) { node = E.pnode; port = E.pport; ej = E.pej; }
        else { node = E.cnode[act_k]; port = E.cport[act_k]; ej = E.cej[act_k]; }
        t->act = 1; t->op = (uint8_t)E.op; t->flow = (uint32_t)E.flow; t->step = (uint16_t)E.step;
        t->dst = (uint32_t)node; t->nxt = (uint32_t)port; t->ej = (uint32_t)ej;
        t->pm = (uint8_t)(in->pkt_mode || (uint32_t)port == all1_port);
        t->addr = E.addr; t->len = E.size;
        t->nfl = (E.size + s->fb - 1u) >> s->lg_fb;
        t->lastmask = nref_last_mask(s, E.size);
        t->rdj = 0; t->txj = 0; t->pc = 0; t->hd = 0;
      }
    }
  }
  if (s->st == MT_NI_ST_FIN && fin_ok) { s->st = MT_NI_ST_DONE; s->done = 1; }
  s->wd = wd_d;
  if (ecode && s->st != MT_NI_ST_ERR) {
    s->st = MT_NI_ST_ERR; s->err_code = ecode; s->err_idx = s->hp;
  }
  /* start: accepted when not busy, the memory ports quiet and no table write this cycle */
  if (in->start && !busy && !ecode && mem_quiet && !in->tbl_we) {
    s->st = MT_NI_ST_SCAN; hp_d = 0; s->ts = 0; s->lock = 0; s->ci = 0; s->prev_step = 0;
    s->err_code = 0; s->err_idx = 0; s->done = 0; s->wd = 0;
    memset(s->rv, 0, F); memset(s->gv, 0, F); memset(s->root, 0, F); memset(s->grx, 0, F);
    memset(s->rdone, 0, F); memset(s->cnt, 0, F);
    memset(s->ridx, 0, F * 4); memset(s->gidx, 0, F * 4); memset(s->rxb, 0, F * 4);
    for (unsigned l = 0; l < L; l++) { s->tx[l].act = 0; s->tx[l].fcnt = 0; s->tx[l].frd = 0; s->tx[l].outst = 0; }
    for (unsigned e = 0; e < NE; e++) {
      nref_rx *r = &s->rx[e];
      r->st = 0; r->inq_cnt = 0; r->inq_rd = 0; r->wq_cnt = 0; r->wq_rd = 0; r->alu_v = 0;
    }
  }
  s->hp = hp_d;

  /* ---- table: registered read ports (read before write), write port ---- */
  memcpy(s->tba, s->tbl + (size_t)(hp_d < p->tbl_depth ? hp_d : 0) * MT_NI_EW, sizeof s->tba);
  for (unsigned e = 0; e < NE; e++)
    memcpy(s->tbb[e], s->tbl + (size_t)(rb_d[e] < p->tbl_depth ? rb_d[e] : 0) * MT_NI_EW, sizeof s->tbb[e]);
  if (in->tbl_we && !busy && in->tbl_waddr < p->tbl_depth)
    for (unsigned k = 0; k < MT_NI_EW; k++) s->tbl[(size_t)in->tbl_waddr * MT_NI_EW + k] = in->tbl_wdata[k];

  /* ---- registered outputs (fields 0 while not valid) ---- */
  for (unsigned m = 0; m < M; m++) {
    if (!s->rq_v[m]) continue;
    nq.mem_req_valid[m] = 1; nq.mem_req_we[m] = s->rq_we[m]; nq.mem_req_addr[m] = s->rq_addr[m];
    nq.mem_req_be[m] = s->rq_be[m];
    memcpy(nq.mem_req_wdata[m], s->rq_data[m], sizeof nq.mem_req_wdata[m]);
  }
  nq.st = s->st;
  nq.busy = s->st == MT_NI_ST_SCAN || s->st == MT_NI_ST_RUN || s->st == MT_NI_ST_FIN;
  nq.done = s->done; nq.err = s->st == MT_NI_ST_ERR; nq.err_code = s->err_code;
  nq.err_idx = s->err_idx; nq.idx = s->hp; nq.step = s->ts;
  s->q = nq;
  s->cycles++;
  *out = nq;
}
