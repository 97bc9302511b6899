/* SPDX-License-Identifier: Apache-2.0
 * mt_ni.c: cycle-accurate model of rtl/mt_ni.sv. Written as the RTL is: every cycle first
 * computes the combinational signals from the registers (and the inputs), then the next
 * register values. The cycle-level rules are in docs/ni.md. */
#include "hw/mt_ni.h"
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const char *mt_ni_err_name(int c) {
#define MT_NI_E_NAME_(n, v, s, d) [v] = s,
  static const char *const n[] = {MT_NI_ERRS(MT_NI_E_NAME_)};
#undef MT_NI_E_NAME_
  return c >= 0 && c < (int)(sizeof n / sizeof n[0]) && n[c] ? n[c] : "?";
}

void mt_ni_default_params(mt_ni_params *p) {
  memset(p, 0, sizeof *p);
  p->payload_w = 128; p->num_vcs = 2; p->nlocal = 4; p->net_ports = 4; p->ej_depth = 4;
  p->vc_depth = 8; p->subpkt_flits = 16; p->pkt_bytes = 256; p->inj_vc = 0;
  p->tbl_depth = 64; p->max_flows = 16; p->sq = 4; p->rq = 4; p->wd_w = 24;
  p->rx_engines = 1; p->mem_ports = 1;
  p->flow_w = 4; p->step_w = 5; p->id_w = 4; p->port_w = 3; p->ej_w = 2; p->addr_w = 12;
  p->size_w = 13; p->children = 4;
}

int mt_ni_entry_bits(const mt_ni_params *p) { mt_entry_fmt f = p->fmt; mt_entry_fmt_offsets(&f); return f.width; }

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

int mt_ni_check_params(const mt_ni_params *p, mt_err *e) {
  if (p->payload_w != 128 && p->payload_w != 256 && p->payload_w != 512) return mt_fail(e, "PayloadW=%u: 128, 256 or 512", p->payload_w);
  if (p->num_vcs < 1 || p->num_vcs > MT_NI_MAX_VCS) return mt_fail(e, "NumVcs=%u", p->num_vcs);
  if (p->nlocal < 1 || p->nlocal > MT_NI_MAX_L) return mt_fail(e, "L=%u", p->nlocal);
  if (p->net_ports < 1 || p->net_ports + p->nlocal > MT_NI_MAX_PORTS) return mt_fail(e, "NetPorts=%u", p->net_ports);
  if (p->ej_depth < 1 || p->ej_depth > MT_NI_MAX_EJD) return mt_fail(e, "EjDepth=%u", p->ej_depth);
  if (p->vc_depth < 1 || p->vc_depth > 65535) return mt_fail(e, "VcDepth=%u", p->vc_depth);
  if (p->subpkt_flits < 1) return mt_fail(e, "SubPktFlits=%u", p->subpkt_flits);
  if (p->pkt_bytes < p->payload_w / 8 || p->pkt_bytes % (p->payload_w / 8)) return mt_fail(e, "PktBytes=%u: a multiple of the flit bytes", p->pkt_bytes);
  if (p->inj_vc >= p->num_vcs) return mt_fail(e, "InjVc=%u", p->inj_vc);
  if (p->tbl_depth < 2) return mt_fail(e, "TblDepth=%u", p->tbl_depth);
  if (p->children < 1 || p->children > MT_NI_MAX_C) return mt_fail(e, "Children=%d", p->children);
  if (p->port_w < 1 || p->port_w > 4 || p->ej_w < 1 || p->ej_w > 4) return mt_fail(e, "PortW/EjW");
  if (p->flow_w < 1 || p->flow_w > 12 || p->id_w < 1 || p->id_w > 12 || p->step_w < 1 || p->step_w > 16) return mt_fail(e, "FlowW/IdW/StepW");
  if (!p->compact && (p->addr_w < 1 || p->addr_w > 32 || p->size_w < 1 || p->size_w > 32)) return mt_fail(e, "AddrW/SizeW");
  if (mt_ni_entry_bits(p) > 64 * MT_NI_EW) return mt_fail(e, "entry of %d bits", mt_ni_entry_bits(p));
  if (p->max_flows < 1 || p->max_flows > 4096) return mt_fail(e, "MaxFlows=%u", p->max_flows);
  if (p->sq < 1 || p->sq > MT_NI_MAX_SQ || p->rq < 1 || p->rq > MT_NI_MAX_RQ) return mt_fail(e, "SQ/RQ");
  if (p->wd_w < 2 || p->wd_w > 32) return mt_fail(e, "WdW=%u", p->wd_w);
  if (!is_pow2(p->payload_w)) return mt_fail(e, "PayloadW");
  {
    unsigned E = p->rx_engines ? p->rx_engines : 1, M = p->mem_ports ? p->mem_ports : 1;
    if (E > MT_NI_MAX_L) return mt_fail(e, "rx_engines=%u: at most %d", E, MT_NI_MAX_L);
    if (p->nlocal % E && (E % p->nlocal || p->num_vcs % (E / p->nlocal)))
      return mt_fail(e, "rx_engines=%u: a divisor of L=%u, or m*L with m dividing NumVcs=%u", E, p->nlocal, p->num_vcs);
    if (M != 1 && M != p->nlocal + E && M != p->nlocal + 2 * E)
      return mt_fail(e, "mem_ports=%u: 1, L+E=%u or L+2E=%u", M, p->nlocal + E, p->nlocal + 2 * E);
  }
  return 0;
}

int mt_ni_init(mt_ni *s, const mt_ni_params *p, mt_err *e) {
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
  /* streams of engine e: E <= L: ports e, e+E, ... (all VCs each); E = m*L: port e mod L,
   * VCs g, g+m, g+2m, ... with g = e div L: the router gives consecutive packets the lowest
   * free VC, i.e. alternating VCs, so the m engines of a port take turns */
  for (unsigned e2 = 0; e2 < s->ne; e2++)
    for (unsigned i = 0; i < s->ses; i++)
      s->estr[e2][i] = (uint8_t)(s->ne <= p->nlocal ? (e2 + (i / p->num_vcs) * s->ne) * p->num_vcs + i % p->num_vcs
                                                    : (e2 % p->nlocal) * p->num_vcs + (e2 / p->nlocal) + i * (s->ne / p->nlocal));
  for (unsigned e2 = 0; e2 < s->ne; e2++)
    for (unsigned i = 0; i < s->ses; i++) s->engm[e2] |= 1ull << s->estr[e2][i];
  for (unsigned m = 0; m < s->nmp; m++)
    for (unsigned k = 0; k < s->na[m]; k++) s->apm[s->ag[m][k]][s->agm[m][k]] |= 1u << m;
  s->f = p->fmt; mt_entry_fmt_offsets(&s->f); s->width = (unsigned)s->f.width;
  s->tbl = calloc((size_t)p->tbl_depth * MT_NI_EW, 8);
  size_t F = p->max_flows;
  s->rv = calloc(F, 1); s->gv = calloc(F, 1); s->root = calloc(F, 1); s->grx = calloc(F, 1);
  s->rdone = calloc(F, 1); s->cnt = calloc(F, 1); s->act = calloc(F, 1);
  s->ridx = calloc(F, 4); s->gidx = calloc(F, 4); s->rxb = calloc(F, 4);
  s->ej = calloc((size_t)s->nstreams * p->ej_depth, sizeof(mt_flit));
  s->tq = calloc((size_t)s->nmp * s->tq_depth, 1);
  if (p->reduce_chain) {
    const size_t FC = F * MT_NI_MAX_C;
    s->pb = calloc(FC, 4); s->pwm = calloc(FC, 4); s->ppl = calloc(FC * MT_NI_PEND, 4); s->pph = calloc(FC * MT_NI_PEND, 4);
    if (!s->pb || !s->pwm || !s->ppl || !s->pph) { mt_ni_free(s); return mt_fail(e, "out of memory"); }
  }
  if (!s->tbl || !s->rv || !s->gv || !s->root || !s->grx || !s->rdone || !s->cnt || !s->act || !s->ridx ||
      !s->gidx || !s->rxb || !s->ej || !s->tq) { mt_ni_free(s); return mt_fail(e, "out of memory"); }
  for (unsigned l = 0; l < p->nlocal; l++)
    for (unsigned v = 0; v < p->num_vcs; v++) s->cred[l][v] = (uint16_t)p->vc_depth;
  return 0;
}

void mt_ni_free(mt_ni *s) {
  free(s->tbl); free(s->rv); free(s->gv); free(s->root); free(s->grx); free(s->rdone); free(s->cnt); free(s->act);
  free(s->pb); free(s->pwm); free(s->ppl); free(s->pph); s->pb = s->pwm = s->ppl = s->pph = NULL;
  free(s->ridx); free(s->gidx); free(s->rxb); free(s->ej); free(s->tq);
  s->tbl = NULL; s->rv = s->gv = s->root = s->grx = s->rdone = s->cnt = s->act = NULL;
  s->ridx = s->gidx = s->rxb = NULL; s->ej = NULL; s->tq = NULL;
}

void mt_ni_table_load(mt_ni *s, const uint64_t *words, unsigned n, unsigned stride) {
  for (unsigned i = 0; i < n && i < s->p.tbl_depth; i++)
    for (unsigned k = 0; k < MT_NI_EW; k++) s->tbl[(size_t)i * MT_NI_EW + k] = k < stride ? words[(size_t)i * stride + k] : 0;
}

/* bits [off, off+width) of the word, width 1..32, off + width <= 64 * MT_NI_EW */
static inline uint32_t getb(const uint64_t *w, int off, int width) {
  const unsigned i = (unsigned)off >> 6, sh = (unsigned)off & 63u;
  uint64_t v = w[i] >> sh;
  if (sh + (unsigned)width > 64u) v |= w[i + 1] << (64u - sh);
  return (uint32_t)(v & ((1ull << width) - 1ull));
}

/* the part of the decoder that depends on the word only (compact: slot node ids, addr and
 * size are left 0 for dec_cfg) */
static void dec_raw(const mt_ni *s, const uint64_t *w, mt_ni_entry *en) {
  const mt_ni_params *p = &s->p;
  memset(en, 0, sizeof *en);
  en->op = (int)getb(w, s->f.o_op, 2);
  en->flow = (int)getb(w, s->f.o_flow, p->flow_w);
  en->step = (int)getb(w, s->f.o_step, p->step_w);
  for (int k = -1; k < p->children; k++) {
    int o = k < 0 ? s->f.o_parent : s->f.o_child + k * s->f.slot_w;
    int v = (int)getb(w, o, 1), node = 0, port, ej;
    o += 1;
    if (!p->compact) { node = (int)getb(w, o, p->id_w); o += p->id_w; }
    port = (int)getb(w, o, p->port_w); o += p->port_w;
    ej = (int)getb(w, o, p->ej_w);
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
    en->addr = getb(w, s->f.o_addr, p->addr_w);
    en->size = getb(w, s->f.o_size, p->size_w);
  }
}

/* compact layout: the fields that come from the configuration inputs */
static void dec_cfg(const mt_ni *s, const mt_ni_in *cfg, mt_ni_entry *en) {
  const mt_ni_params *p = &s->p;
  const int rx_parent = en->op == MT_OP_GATHER; /* parent slot receives for Gather */
  en->pnode = rx_parent ? cfg->nbr_rx[en->pport & 15] : cfg->nbr_tx[en->pport & 15];
  const uint16_t *cn = rx_parent ? cfg->nbr_tx : cfg->nbr_rx;
  for (int k = 0; k < p->children; k++) en->cnode[k] = cn[en->cport[k] & 15];
  if (en->op == MT_OP_NOP) {
    en->addr = 0; en->size = cfg->nop_bytes;
  } else {
    uint32_t f = (uint32_t)en->flow, rem = cfg->rem_units;
    en->addr = cfg->elem * (f * cfg->base_units + (f < rem ? f : rem));
    en->size = cfg->elem * (cfg->base_units + (f < rem ? 1u : 0u));
  }
}

void mt_ni_decode(const mt_ni *s, const mt_ni_in *cfg, const uint64_t *w, mt_ni_entry *en) {
  dec_raw(s, w, en);
  if (s->p.compact) dec_cfg(s, cfg, en);
}

/* decoded entry of read port c (0: A, 1 + e: B of engine e) holding word w: cached on w */
static const mt_ni_entry *dec_port(mt_ni *s, unsigned c, const mt_ni_in *cfg, const uint64_t *w) {
  mt_ni_entry *en = &s->dce[c];
  uint64_t *k = s->dcw[c];
  if (!s->dcok[c] || k[0] != w[0] || k[1] != w[1] || k[2] != w[2] || k[3] != w[3]) {
    dec_raw(s, w, en);
    k[0] = w[0]; k[1] = w[1]; k[2] = w[2]; k[3] = w[3];
    s->dcok[c] = 1;
  }
  if (s->p.compact) dec_cfg(s, cfg, en);
  return en;
}

/* lane mask of flit j of a message of nfl flits whose last flit has mask lastmask */
static uint32_t lane_mask(const mt_ni *s, uint32_t j, uint32_t nfl, uint32_t lastmask) {
  return j + 1 == nfl ? lastmask : (s->lanes == 32 ? 0xffffffffu : (1u << s->lanes) - 1u);
}
static uint32_t last_mask(const mt_ni *s, uint32_t len) {
  uint32_t r = (len - 1u) & (s->fb - 1u); /* bytes in the last flit - 1 */
  uint32_t lanes = r / 4u + 1u;
  return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
}

/* bit i set iff byte a[i] != 0, i < 8 */
static inline uint32_t nz8(const uint8_t *a) {
#if defined(__SSE2__)
  const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)a);
  return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xffu;
#else
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; i++) r |= (uint32_t)(a[i] != 0) << i;
  return r;
#endif
}
/* the same for the MT_NI_MAX_MP (24) bytes of a per-memory-port array, first n */
static inline uint32_t nz_mp(const uint8_t *a, unsigned n) {
  if (n <= 8) return nz8(a) & ((1u << n) - 1u);
#if defined(__SSE2__)
  const __m128i z = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)a);
  const __m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(a + 16));
  const uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, z)) | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, z)) << 16;
  return ~eq & (uint32_t)((1ull << n) - 1u);
#else
  return (nz8(a) | nz8(a + 8) << 8 | nz8(a + 16) << 16) & (uint32_t)((1ull << n) - 1u);
#endif
}

/* a mod n (a < 2n on every path of the model; exact anyway) */
static inline uint32_t wrap(uint32_t a, uint32_t n) { return a < n ? a : a - n < n ? a - n : a % n; }

static void set_err(uint8_t *code, int c) { if (!*code) *code = (uint8_t)c; }

void mt_ni_step(mt_ni *s, const mt_ni_in *in, mt_ni_out *out) {
  const mt_ni_params *p = &s->p;
  const unsigned L = p->nlocal, NV = p->num_vcs, lanes = s->lanes;
  const unsigned F = p->max_flows, NE = s->ne, M = s->nmp, TQD = s->tq_depth;
  const uint32_t all1_port = (1u << p->port_w) - 1u;
  const int running = s->st == MT_NI_ST_RUN || s->st == MT_NI_ST_FIN;
  const int busy = s->st == MT_NI_ST_SCAN || running;
  const uint32_t rqv0 = nz_mp(s->rq_v, M); /* request registers full before the edge */
  int mem_quiet = rqv0 == 0; /* before the edge */
  if (mem_quiet) for (unsigned m = 0; m < M; m++) if (s->tq_cnt[m]) { mem_quiet = 0; break; }
  uint8_t ecode = 0;          /* error raised this cycle */
  int progress = 0;
  mt_ni_out *const nq = &s->q; /* registered outputs: only live lanes/ports are ever non-zero */
  /* clear last cycle's pulses and valid fields (everything else stays 0) */
  for (uint32_t lm = nz8(nq->inj_valid); lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    nq->inj_valid[l] = 0; memset(&nq->inj_flit[l], 0, sizeof nq->inj_flit[l]);
  }
  if (s->ncred) { memset(nq->ej_credit, 0, sizeof nq->ej_credit); s->ncred = 0; }
  for (uint32_t mm = nz_mp(nq->mem_req_valid, M); mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    nq->mem_req_valid[m] = 0; nq->mem_req_we[m] = 0; nq->mem_req_addr[m] = 0; nq->mem_req_be[m] = 0;
    memset(nq->mem_req_wdata[m], 0, sizeof nq->mem_req_wdata[m]);
  }

  /* ---------------- combinational: decode the table read ports ---------------- */
  const mt_ni_entry *const Ep = dec_port(s, 0, in, s->tba);
#define E (*Ep)
  const mt_ni_entry *EB[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) EB[e] = s->rx[e].st == 1 ? dec_port(s, 1 + e, in, s->tbb[e]) : NULL;

  /* ---------------- memory response routing (tag FIFO fronts) ---------------- */
  int rsp_tag[MT_NI_MAX_MP];
  int eng_rsp[MT_NI_MAX_L];   /* port whose response goes to engine e this cycle, or -1 */
  for (unsigned e = 0; e < NE; e++) eng_rsp[e] = -1;
  uint32_t rspm = 0;          /* ports whose tag FIFO front is answered (rsp_tag >= 0) */
  {
    const uint32_t rv = nz_mp(in->mem_rsp_valid, M);
    if (rv) progress = 1;
    for (uint32_t mm = rv; mm; mm &= mm - 1u) {
      const unsigned m = (unsigned)__builtin_ctz(mm);
      if (!s->tq_cnt[m]) continue;
      rsp_tag[m] = s->tq[m * TQD + s->tq_rd[m]];
      rspm |= 1u << m;
      if (rsp_tag[m] >= (int)L) eng_rsp[rsp_tag[m] - (int)L] = (int)m;
    }
  }

  /* ---------------- requests to the memory arbiters ---------------- */
  int sreq[MT_NI_MAX_L];
  for (unsigned l = 0; l < L; l++) {
    const mt_ni_tx *t = &s->tx[l];
    sreq[l] = running && t->act && t->rdj < t->nfl && t->fcnt + t->outst < p->sq;
  }
  int front_v[MT_NI_MAX_L], rx_busy[MT_NI_MAX_L], rx_wr[MT_NI_MAX_L], rx_rd[MT_NI_MAX_L];
  const mt_flit *front[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) {
    const mt_ni_rx *r = &s->rx[e];
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
    /* chained: flit popj of child k is read only after child k-1 wrote it (or finished) */
    if (rx_rd[e] && r->chn && r->cpos != s->cnt[r->flow < F ? r->flow : 0] && s->rx[r->pe].wa <= r->popj) rx_rd[e] = 0;
    /* chained packet: flit at chunk offset off waits for child k-1's completed prefix */
    if (rx_rd[e] && r->pk) {
      const unsigned fi = r->flow < F ? r->flow : 0;
      if (r->cpos > s->cnt[fi] && s->pwm[fi * MT_NI_MAX_C + r->cpos - 1] <= r->addr - r->cbase + (r->popj << s->lg_fb)) rx_rd[e] = 0;
    }
    if (rx_busy[e] && front_v[e] && r->popj < r->nfl && front_bad) set_err(&ecode, MT_NI_E_RX_FRAME);
  }

  /* ---------------- memory arbiters: per port, round robin after the last grant ---------------- */
  int gnt[MT_NI_MAX_MP];      /* index into the port's requester list, or -1 */
  int any_gnt = 0;
  uint32_t gntm = 0;          /* ports with a grant */
  /* ports with at least one requester (the others grant nothing) */
  uint32_t cand = 0;
  if (running) {
    for (unsigned l = 0; l < L; l++) if (sreq[l]) cand |= s->apm[l][0];
    for (unsigned e = 0; e < NE; e++) {
      if (rx_wr[e] || rx_rd[e]) cand |= s->apm[L + e][0];
      if (rx_rd[e]) cand |= s->apm[L + e][1];
      if (rx_wr[e]) cand |= s->apm[L + e][2];
    }
    cand &= ~rqv0 | nz_mp(in->mem_req_ready, M);
  }
  for (uint32_t cm = cand; cm; cm &= cm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(cm);
    const unsigned na = s->na[m];
    unsigned i = s->mrr[m];
    for (unsigned k = 1; k <= na; k++) {
      if (++i >= na) i = 0;
      const unsigned a = s->ag[m][i], md = s->agm[m][i];
      int rq;
      if (a < L) rq = sreq[a];
      else rq = md == 0 ? (rx_wr[a - L] || rx_rd[a - L]) : md == 1 ? rx_rd[a - L] : rx_wr[a - L];
      if (rq) { gnt[m] = (int)i; gntm |= 1u << m; any_gnt = 1; break; }
    }
  }

  /* ---------------- senders: flit to send this cycle ---------------- */
  int send[MT_NI_MAX_L], any_send = 0;
  for (unsigned l = 0; l < L; l++) {
    const mt_ni_tx *t = &s->tx[l];
    send[l] = running && t->act && s->cred[l][p->inj_vc] != 0 && (!t->hd || t->fcnt != 0);
    any_send |= send[l];
  }

  /* ---------------- receive engines: idle pick / look-up ---------------- */
  int rx_pick[MT_NI_MAX_L], rx_pick_l[MT_NI_MAX_L], rx_look_go[MT_NI_MAX_L], rx_look_wait[MT_NI_MAX_L], rx_done[MT_NI_MAX_L];
  int rx_chain_k[MT_NI_MAX_L], rx_chain_pe[MT_NI_MAX_L]; /* reduce look-up: child position, predecessor engine */
  int any_rx = 0;
  for (unsigned e = 0; e < NE; e++) {
    const mt_ni_rx *r = &s->rx[e];
    rx_pick[e] = -1; rx_pick_l[e] = -1; rx_look_go[e] = 0; rx_look_wait[e] = 0; rx_done[e] = 0;
    rx_chain_k[e] = -1; rx_chain_pe[e] = -1;
    if (running && r->st == 0 && (s->ejnz & s->engm[e])) {
      const unsigned ses = s->ses;
      unsigned i = r->rr < ses ? r->rr : r->rr % ses;
      for (unsigned k = 0; k < ses; k++) {
        const unsigned g = s->estr[e][i];
        if (s->ej_cnt[g]) { rx_pick[e] = (int)g; rx_pick_l[e] = (int)i; break; }
        if (++i == ses) i = 0;
      }
      if (rx_pick[e] >= 0) {
        const mt_flit *f = &s->ej[(size_t)rx_pick[e] * p->ej_depth + s->ej_rd[rx_pick[e]]];
        if (!mt_ft_is_head(mt_flit_type(f, p->payload_w))) { set_err(&ecode, MT_NI_E_RX_FRAME); rx_pick[e] = -1; }
      }
    }
  }
  for (unsigned e = 0; e < NE; e++) {
    const mt_ni_rx *r = &s->rx[e];
    if (!(running && r->st == 1)) continue;
    const mt_ni_entry *B = EB[e];
    int look_code = 0;
    unsigned f = r->flow, fi = f < F ? f : 0;
    uint32_t ea = B->addr, es = B->size;
    if ((r->op != MT_OP_REDUCE && r->op != MT_OP_GATHER) || f >= in->nflows || f >= F || !s->rv[fi] ||
        (r->op == MT_OP_GATHER && s->root[fi])) look_code = MT_NI_E_RX_FLOW;
    else if (r->op == MT_OP_REDUCE) {
      int k = -1;
      for (int c = 0; c < B->nchild; c++) if ((uint32_t)B->cnode[c] == r->src) { k = c; break; }
      if (k < 0) look_code = MT_NI_E_RX_SRC;
      else if (p->reduce_chain && NE > 1 && !(r->addr == ea && r->len == es)) {
        /* packet unit: child cnt's at once; child k > cnt once k-1 started, if k's ejection
         * port is not that of any child in between (none routed) */
        const uint32_t c0 = s->cnt[fi];
        int ok = (uint32_t)k >= c0 && (uint32_t)k <= s->act[fi];
        for (uint32_t j = c0; ok && j < (uint32_t)k; j++)
          if (B->cej[j] == B->cej[k] || (uint32_t)B->cport[j] == all1_port || (uint32_t)B->cport[k] == all1_port) ok = 0;
        if (ok) rx_chain_k[e] = k; else rx_look_wait[e] = 1;
      } else if ((uint32_t)k == s->cnt[fi] && s->act[fi] <= s->cnt[fi]) rx_chain_k[e] = k; /* its turn */
      else if (p->reduce_chain && NE > 1 && (uint32_t)k == s->act[fi] && (uint32_t)k > s->cnt[fi] &&
               r->addr == ea && r->len == es) {
        /* chained behind child k-1, whose whole message another engine is adding now */
        for (unsigned e2 = 0; e2 < NE; e2++) {
          const mt_ni_rx *q = &s->rx[e2];
          if (e2 != e && q->st == 2 && q->op == MT_OP_REDUCE && q->whole && q->flow == f && q->cpos + 1 == (uint32_t)k) { rx_chain_pe[e] = (int)e2; break; }
        }
        if (rx_chain_pe[e] >= 0) rx_chain_k[e] = k; else rx_look_wait[e] = 1;
      } else rx_look_wait[e] = 1;
    } else {
      if (s->gv[fi] && (uint32_t)B->pnode != r->src) look_code = MT_NI_E_RX_SRC;
      else if (s->grx[fi]) rx_look_wait[e] = 1;
    }
    if (!look_code && (r->len == 0 || (r->len & 3u) || r->addr < ea ||
                       (uint64_t)r->addr + r->len > (uint64_t)ea + es)) look_code = MT_NI_E_RX_RANGE;
    if (look_code) { set_err(&ecode, look_code); rx_look_wait[e] = 0; }
    else if (!rx_look_wait[e]) rx_look_go[e] = 1;
    if (rx_look_wait[e]) rx_look_go[e] = 0;
    any_rx |= rx_look_go[e];
  }
  for (unsigned e = 0; e < NE; e++) {
    const mt_ni_rx *r = &s->rx[e];
    /* done when every write is issued; with its own write port, also accepted by the
     * memory (nothing held), so a later reader on another port sees the data */
    if (rx_busy[e] && r->wj == r->nfl) {
      unsigned wp = s->wport[e];
      rx_done[e] = (M == 1 || !s->rq_v[wp] || in->mem_req_ready[wp]) &&
                   (!r->chn || r->cpos == s->cnt[r->flow < F ? r->flow : 0]);
      any_rx |= rx_done[e];
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
    } else set_err(&ecode, MT_NI_E_STEP);
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
      if (scan_code) set_err(&ecode, scan_code);
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
    if (ej_full[l]) set_err(&ecode, MT_NI_E_EJ_OVF);
  }

  /* ---------------- progress and watchdog ---------------- */
  if (any_gnt || issue || advance || s->lock != 0) progress = 1;
  if (any_rx || any_send) progress = 1; /* an engine finished or looked up, a flit was sent */
  uint32_t wmax = p->wd_w >= 32 ? 0xffffffffu : (1u << p->wd_w) - 1u;
  uint32_t wd_d = (progress || !busy) ? 0 : (s->wd == wmax ? wmax : s->wd + 1);
  uint32_t wlim = in->wd_limit & wmax;
  if (busy && wlim != 0 && wd_d >= wlim) set_err(&ecode, MT_NI_E_WATCHDOG);

  /* ======================= register updates ======================= */
  /* ---- memory request registers and tag FIFOs ---- */
  uint32_t ej_pop[MT_NI_MAX_L]; /* stream popped by engine e this cycle */
  for (unsigned e = 0; e < NE; e++) ej_pop[e] = 0xffffffffu;
  for (uint32_t um = (rqv0 & nz_mp(in->mem_req_ready, M)) | rspm | gntm; um; um &= um - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(um);
    if (s->rq_v[m] && in->mem_req_ready[m]) {
      s->rq_v[m] = 0;
      if (s->rq_we[m] && s->rq_ag[m] >= L) s->rx[s->rq_ag[m] - L].wa++;
    }
    if ((rspm >> m) & 1u) { if (++s->tq_rd[m] == TQD) s->tq_rd[m] = 0; s->tq_cnt[m]--; }
    if (!((gntm >> m) & 1u)) continue;
    const unsigned a = s->ag[m][gnt[m]], md = s->agm[m][gnt[m]];
    uint8_t *tq = s->tq + (size_t)m * TQD;
    s->mrr[m] = (uint32_t)gnt[m];
    s->rq_v[m] = 1;
    s->rq_ag[m] = (uint8_t)a;
    if (a < L) {
      mt_ni_tx *t = &s->tx[a];
      s->rq_we[m] = 0;
      s->rq_addr[m] = t->addr + (t->rdj << s->lg_fb);
      s->rq_be[m] = lane_mask(s, t->rdj, t->nfl, t->lastmask);
      memset(s->rq_data[m], 0, sizeof s->rq_data[m]);
      t->rdj++;
      t->outst++;
      tq[wrap(s->tq_rd[m] + s->tq_cnt[m], TQD)] = (uint8_t)a;
      s->tq_cnt[m]++;
      continue;
    }
    const unsigned e = a - L;
    mt_ni_rx *r = &s->rx[e];
    if (md == 2 || (md == 0 && rx_wr[e])) {
      s->rq_we[m] = 1;
      s->rq_addr[m] = r->addr + (r->wj << s->lg_fb);
      s->rq_be[m] = lane_mask(s, r->wj, r->nfl, r->lastmask);
      if (r->op == MT_OP_REDUCE) {
        memcpy(s->rq_data[m], r->wq[r->wq_rd], sizeof s->rq_data[m]);
        if (++r->wq_rd == p->rq) r->wq_rd = 0;
        r->wq_cnt--; r->infl--;
      } else {
        for (unsigned k = 0; k < lanes; k++) s->rq_data[m][k] = front[e]->w[k];
        ej_pop[e] = r->s; r->popj++;
      }
      r->wj++;
    } else { /* engine read (reduce) */
      s->rq_we[m] = 0;
      s->rq_addr[m] = r->addr + (r->popj << s->lg_fb);
      s->rq_be[m] = lane_mask(s, r->popj, r->nfl, r->lastmask);
      memset(s->rq_data[m], 0, sizeof s->rq_data[m]);
      unsigned wi = wrap(r->inq_rd + r->inq_cnt, p->rq);
      for (unsigned k = 0; k < lanes; k++) r->inq[wi][k] = front[e]->w[k];
      r->inq_cnt++;
      ej_pop[e] = r->s; r->popj++; r->infl++;
      tq[wrap(s->tq_rd[m] + s->tq_cnt[m], TQD)] = (uint8_t)a;
      s->tq_cnt[m]++;
    }
  }

  /* ---- reduction units (mt_reduce_alu: registered, one vector per cycle per engine) ---- */
  for (unsigned e = 0; e < NE; e++) {
    mt_ni_rx *r = &s->rx[e];
    if (r->alu_v) { /* result of the previous cycle into the write queue */
      unsigned wi = wrap(r->wq_rd + r->wq_cnt, p->rq);
      memcpy(r->wq[wi], r->alu_sum, sizeof r->alu_sum);
      r->wq_cnt++;
    }
    r->alu_v = 0;
    if (eng_rsp[e] >= 0) {
      const uint32_t *d = in->mem_rsp_data[eng_rsp[e]];
      for (unsigned k = 0; k < lanes; k++) r->alu_sum[k] = mt_reduce_add(in->dtype, d[k], r->inq[r->inq_rd][k]);
      r->alu_v = 1;
      if (++r->inq_rd == p->rq) r->inq_rd = 0;
      r->inq_cnt--;
    }
  }
  for (uint32_t mm = rspm; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    if (rsp_tag[m] >= (int)L) continue;
    mt_ni_tx *t = &s->tx[rsp_tag[m]];
    unsigned wi = wrap(t->frd + t->fcnt, p->sq);
    for (unsigned k = 0; k < lanes; k++) t->fifo[wi][k] = in->mem_rsp_data[m][k];
    t->fcnt++; t->outst--;
  }

  /* ---- senders: flit out ---- */
  uint32_t vmask = 0; /* injection ports valid after the edge */
  for (unsigned l = 0; l < L; l++) {
    mt_ni_tx *t = &s->tx[l];
    if (!send[l]) continue;
    mt_flit *const fp = &nq->inj_flit[l]; /* all zero (not valid last cycle, or cleared above) */
#define fl (*fp)
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
      uint32_t m = lane_mask(s, t->txj, t->nfl, t->lastmask);
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
      if (++t->frd == p->sq) t->frd = 0;
      t->fcnt--;
      t->txj++;
      if (last) t->act = 0;
    }
    mt_flit_set_vc(&fl, p->payload_w, NV, p->inj_vc);
#undef fl
    nq->inj_valid[l] = 1;
    vmask |= 1u << l;
  }
  /* ---- injection credits ---- */
  for (unsigned l = 0; l < L; l++) {
    if (send[l]) s->cred[l][p->inj_vc]--;
    for (uint32_t vm = nz8(in->inj_credit[l]) & ((1u << NV) - 1u); vm; vm &= vm - 1u) s->cred[l][__builtin_ctz(vm)]++;
  }

  /* ---- receive engine state ---- */
  uint32_t rb_d[MT_NI_MAX_L];
  for (unsigned e = 0; e < NE; e++) {
    mt_ni_rx *r = &s->rx[e];
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
        r->st = 2; r->size = EB[e]->size;
        r->nfl = (r->len + s->fb - 1u) >> s->lg_fb;
        r->lastmask = last_mask(s, r->len);
        r->popj = 0; r->wj = 0; r->infl = 0; r->wa = 0;
        r->chn = rx_chain_pe[e] >= 0; r->pe = rx_chain_pe[e] >= 0 ? (uint32_t)rx_chain_pe[e] : 0;
        r->cpos = rx_chain_k[e] >= 0 ? (uint32_t)rx_chain_k[e] : 0;
        r->whole = (uint8_t)(r->addr == EB[e]->addr && r->len == EB[e]->size);
        r->pk = (uint8_t)(p->reduce_chain && NE > 1 && r->op == MT_OP_REDUCE && !r->whole);
        r->cbase = EB[e]->addr;
        if (p->reduce_chain && r->op == MT_OP_REDUCE && (r->whole || r->pk)) {
          unsigned fi = r->flow < F ? r->flow : 0;
          if (s->act[fi] < r->cpos + 1) s->act[fi] = (uint8_t)(r->cpos + 1);
        }
        ej_pop[e] = r->s;
      } else if (rx_look_wait[e]) {
        r->st = 0; r->rr = r->sl + 1 == s->ses ? 0 : r->sl + 1;
      }
    } else if (rx_done[e] && r->pk) {
      /* chained packet: the child's bytes, its completed prefix; children complete in order */
      const unsigned fi = r->flow < F ? r->flow : 0, ix = fi * MT_NI_MAX_C + r->cpos;
      uint32_t lo = r->addr - r->cbase, hi = lo + r->len;
      uint32_t *pl = s->ppl + (size_t)ix * MT_NI_PEND, *ph = s->pph + (size_t)ix * MT_NI_PEND;
      s->pb[ix] += r->len;
      if (lo == s->pwm[ix]) {
        s->pwm[ix] = hi;
        for (int merged = 1; merged;) {
          merged = 0;
          for (unsigned q = 0; q < MT_NI_PEND; q++)
            if (ph[q] && pl[q] == s->pwm[ix]) { s->pwm[ix] = ph[q]; pl[q] = ph[q] = 0; merged = 1; }
        }
      } else {
        /* beyond the prefix: kept in a free slot; with none free the range is not recorded
         * and the successor waits for this child to complete (still correct) */
        for (unsigned q = 0; q < MT_NI_PEND; q++) if (!ph[q]) { pl[q] = lo; ph[q] = hi; break; }
      }
      while (s->cnt[fi] < MT_NI_MAX_C && s->pb[fi * MT_NI_MAX_C + s->cnt[fi]] == r->size) s->cnt[fi]++;
      if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
      r->st = 0; r->rr = r->sl + 1 == s->ses ? 0 : r->sl + 1;
    } else if (rx_done[e]) {
      unsigned fi = r->flow < F ? r->flow : 0;
      uint32_t nb = s->rxb[fi] + r->len;
      if (nb == r->size) {
        s->rxb[fi] = 0;
        if (r->op == MT_OP_REDUCE) {
          s->cnt[fi]++;
          if (s->pb) while (s->cnt[fi] < MT_NI_MAX_C && s->pb[fi * MT_NI_MAX_C + s->cnt[fi]] == r->size) s->cnt[fi]++;
          if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
        } else s->grx[fi] = 1;
      } else s->rxb[fi] = nb;
      r->st = 0; r->rr = r->sl + 1 == s->ses ? 0 : r->sl + 1;
    }
    s->rb[e] = rb_d[e];
  }

  /* ---- ejection FIFOs: pop, push, credit pulses ---- */
  for (unsigned e = 0; e < NE; e++) {
    const uint32_t q = ej_pop[e];
    if (q == 0xffffffffu) continue;
    if (++s->ej_rd[q] == p->ej_depth) s->ej_rd[q] = 0;
    if (--s->ej_cnt[q] == 0) s->ejnz &= ~(1ull << q);
    nq->ej_credit[q / NV][q % NV] = 1;
    s->ncred = 1;
  }
  for (unsigned l = 0; l < L; l++) {
    if (!in->ej_valid[l] || ej_full[l]) continue; /* accepted iff not full before the edge */
    unsigned v = mt_flit_vc(&in->ej_flit[l], p->payload_w, NV);
    unsigned i = l * NV + (v < NV ? v : 0);
    unsigned wi = wrap(s->ej_rd[i] + s->ej_cnt[i], p->ej_depth);
    s->ej[(size_t)i * p->ej_depth + wi] = in->ej_flit[l];
    s->ej_cnt[i]++;
    s->ejnz |= 1ull << i;
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
        mt_ni_tx *t = &s->tx[act_l];
        int node, port, ej;
        if (act_k < 0) { node = E.pnode; port = E.pport; ej = E.pej; }
        else { node = E.cnode[act_k]; port = E.cport[act_k]; ej = E.cej[act_k]; }
        t->act = 1; t->op = (uint8_t)E.op; t->flow = (uint32_t)E.flow; t->step = (uint16_t)E.step;
        t->dst = (uint32_t)node; t->nxt = (uint32_t)port; t->ej = (uint32_t)ej;
        t->pm = (uint8_t)(in->pkt_mode || (uint32_t)port == all1_port);
        t->addr = E.addr; t->len = E.size;
        t->nfl = (E.size + s->fb - 1u) >> s->lg_fb;
        t->lastmask = last_mask(s, E.size);
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
    memset(s->rdone, 0, F); memset(s->cnt, 0, F); memset(s->act, 0, F);
    if (s->pb) {
      const size_t FC = (size_t)F * MT_NI_MAX_C;
      memset(s->pb, 0, FC * 4); memset(s->pwm, 0, FC * 4); memset(s->ppl, 0, FC * MT_NI_PEND * 4); memset(s->pph, 0, FC * MT_NI_PEND * 4);
    }
    memset(s->ridx, 0, F * 4); memset(s->gidx, 0, F * 4); memset(s->rxb, 0, F * 4);
    for (unsigned l = 0; l < L; l++) { s->tx[l].act = 0; s->tx[l].fcnt = 0; s->tx[l].frd = 0; s->tx[l].outst = 0; }
    for (unsigned e = 0; e < NE; e++) {
      mt_ni_rx *r = &s->rx[e];
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
  const uint32_t mmask = nz_mp(s->rq_v, M); /* memory ports with a request after the edge */
  for (uint32_t mm = mmask; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    nq->mem_req_valid[m] = 1; nq->mem_req_we[m] = s->rq_we[m]; nq->mem_req_addr[m] = s->rq_addr[m];
    nq->mem_req_be[m] = s->rq_be[m];
    memcpy(nq->mem_req_wdata[m], s->rq_data[m], sizeof nq->mem_req_wdata[m]);
  }
  nq->st = s->st;
  nq->busy = s->st == MT_NI_ST_SCAN || s->st == MT_NI_ST_RUN || s->st == MT_NI_ST_FIN;
  nq->done = s->done; nq->err = s->st == MT_NI_ST_ERR; nq->err_code = s->err_code;
  nq->err_idx = s->err_idx; nq->idx = s->hp; nq->step = s->ts;
  s->cycles++;
  /* *out = s->q. Only the live parts of s->q are ever non-zero (ports < L, memory ports < M,
   * live lanes, flit words and VCs), and of those only the valid ports and the credit pulses
   * of this cycle. A buffer that one of the last two steps of this NI wrote (callers never
   * write their output buffers) holds zeros but where that step's masks say otherwise, so
   * only those parts and this cycle's are written; any other buffer is written in full. */
  const int b = out == s->ob[0] ? 0 : out == s->ob[1] ? 1 : -1;
  if (b >= 0) {
    for (uint32_t lm = vmask | s->obi[b]; lm; lm &= lm - 1u) {
      const unsigned l = (unsigned)__builtin_ctz(lm);
      out->inj_valid[l] = nq->inj_valid[l]; out->inj_flit[l] = nq->inj_flit[l];
    }
    if (s->ncred || s->obc[b]) memcpy(out->ej_credit, nq->ej_credit, sizeof out->ej_credit);
    for (uint32_t mm = mmask | s->obm[b]; mm; mm &= mm - 1u) {
      const unsigned m = (unsigned)__builtin_ctz(mm);
      out->mem_req_valid[m] = nq->mem_req_valid[m]; out->mem_req_we[m] = nq->mem_req_we[m];
      out->mem_req_addr[m] = nq->mem_req_addr[m]; out->mem_req_be[m] = nq->mem_req_be[m];
      memcpy(out->mem_req_wdata[m], nq->mem_req_wdata[m], sizeof out->mem_req_wdata[m]);
    }
    out->busy = nq->busy; out->done = nq->done; out->err = nq->err; out->err_code = nq->err_code;
    out->st = nq->st; out->err_idx = nq->err_idx; out->idx = nq->idx; out->step = nq->step;
  } else {
    memcpy(out, nq, sizeof *out);
    s->ob[1] = s->ob[0]; s->obi[1] = s->obi[0]; s->obc[1] = s->obc[0]; s->obm[1] = s->obm[0];
    s->ob[0] = out;
  }
  const unsigned bb = b >= 0 ? (unsigned)b : 0u;
  s->obi[bb] = vmask; s->obc[bb] = s->ncred; s->obm[bb] = mmask;
#undef E
}
