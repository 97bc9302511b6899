/* SPDX-License-Identifier: Apache-2.0
 * mt_ni.c: cycle-accurate model of rtl/mt_ni.sv, the top that wires the blocks: parameters,
 * reset (init), the table's back door and the cycle step. mt_ni_step is written as the RTL
 * is: first the eval phases compute this cycle's combinational values (mt_ni_wires) from
 * the registers and the inputs, then the update phases take the edge. Each phase lives in
 * the C twin of its RTL block (cmodel/hw/mt_ni_<block>.c, listed in mt_ni_blocks.h). The
 * cycle-level rules are in docs/reference/ni.md. */
#include "hw/mt_ni.h"
#include <stdlib.h>
#include <string.h>
#include "hw/mt_ni_blocks.h"
/* the blocks (static phases, inlined into mt_ni_step; see mt_ni_blocks.h) */
#include "hw/mt_ni_entry_dec.c"
#include "hw/mt_ni_dma.c"
#include "hw/mt_ni_pktz.c"
#include "hw/mt_ni_stage.c"
#include "hw/mt_ni_chain.c"
#include "hw/mt_ni_depktz.c"
#include "hw/mt_ni_ejbuf.c"
#include "hw/mt_ni_issue.c"
#include "hw/mt_ni_reduce.c"
#include "hw/mt_ni_deps.c"
#include "hw/mt_ni_lockstep.c"
#include "hw/mt_ni_table.c"

const char *mt_ni_err_name(int c) {
#define MT_NI_E_NAME_(n, v, s, d) [v] = s,
  static const char *const n[] = {MT_NI_ERRS(MT_NI_E_NAME_)};
#undef MT_NI_E_NAME_
  return c >= 0 && c < (int)(sizeof n / sizeof n[0]) && n[c] ? n[c] : "?";
}

void mt_ni_default_params(mt_ni_params *p) {
  memset(p, 0, sizeof *p);
  p->payload_w = 128;
  p->num_vcs = 2;
  p->nlocal = 4;
  p->net_ports = 4;
  p->ej_depth = 4;
  p->vc_depth = 8;
  p->subpkt_flits = 16;
  p->pkt_bytes = 256;
  p->inj_vc = 0;
  p->tbl_depth = 64;
  p->max_flows = 16;
  p->sq = 4;
  p->rq = 4;
  p->wd_w = 24;
  p->rx_engines = 1;
  p->mem_ports = 1;
  p->flow_w = 4;
  p->step_w = 5;
  p->id_w = 4;
  p->port_w = 3;
  p->ej_w = 2;
  p->addr_w = 12;
  p->size_w = 13;
  p->children = 4;
  p->stage_after = 0;
  p->stage_ranges = 1024;
}

int mt_ni_entry_bits(const mt_ni_params *p) {
  mt_entry_fmt f = p->fmt;
  mt_entry_fmt_offsets(&f);
  return f.width;
}

void mt_ni_bw_defaults(unsigned L, unsigned *rx_engines, unsigned *mem_ports) {
  if (!*rx_engines) *rx_engines = (2u * L <= MT_NI_MAX_L ? 2u : 1u) * L;
  if (!*mem_ports) *mem_ports = L + 2u * *rx_engines;
}

static int is_pow2(unsigned x) { return x && !(x & (x - 1)); }

int mt_ni_check_params(const mt_ni_params *p, mt_err *e) {
  if (p->payload_w != 128 && p->payload_w != 256 && p->payload_w != 512) return mt_fail(e, "PayloadW=%u: must be 128, 256 or 512", p->payload_w);
  if (p->num_vcs < 1 || p->num_vcs > MT_NI_MAX_VCS) return mt_fail(e, "NumVcs=%u: must be 1..%d", p->num_vcs, MT_NI_MAX_VCS);
  if (p->nlocal < 1 || p->nlocal > MT_NI_MAX_L) return mt_fail(e, "L=%u: must be 1..%d", p->nlocal, MT_NI_MAX_L);
  if (p->net_ports < 1 || p->net_ports + p->nlocal > MT_NI_MAX_PORTS) return mt_fail(e, "NetPorts=%u: must be >= 1 with NetPorts + L <= %d", p->net_ports, MT_NI_MAX_PORTS);
  if (p->ej_depth < 1 || p->ej_depth > MT_NI_MAX_EJD) return mt_fail(e, "EjDepth=%u: must be 1..%d", p->ej_depth, MT_NI_MAX_EJD);
  if (p->vc_depth < 1 || p->vc_depth > 65535) return mt_fail(e, "VcDepth=%u: must be 1..65535", p->vc_depth);
  if (p->subpkt_flits < 1) return mt_fail(e, "SubPktFlits=%u: must be >= 1", p->subpkt_flits);
  if (p->pkt_bytes < p->payload_w / 8 || p->pkt_bytes % (p->payload_w / 8)) return mt_fail(e, "PktBytes=%u: must be a positive multiple of the flit bytes (%u)", p->pkt_bytes, p->payload_w / 8);
  if (p->inj_vc >= p->num_vcs) return mt_fail(e, "InjVc=%u: must be below NumVcs=%u", p->inj_vc, p->num_vcs);
  if (p->tbl_depth < 2) return mt_fail(e, "TblDepth=%u: must be >= 2", p->tbl_depth);
  if (p->children < 1 || p->children > MT_NI_MAX_C) return mt_fail(e, "Children=%d: must be 1..%d", p->children, MT_NI_MAX_C);
  if (p->port_w < 1 || p->port_w > 4 || p->ej_w < 1 || p->ej_w > 4) return mt_fail(e, "PortW=%d, EjW=%d: each must be 1..4", p->port_w, p->ej_w);
  if (p->flow_w < 1 || p->flow_w > 12 || p->id_w < 1 || p->id_w > 12 || p->step_w < 1 || p->step_w > 16) return mt_fail(e, "FlowW=%d, IdW=%d, StepW=%d: must be 1..12, 1..12, 1..16", p->flow_w, p->id_w, p->step_w);
  if (!p->compact && (p->addr_w < 1 || p->addr_w > 32 || p->size_w < 1 || p->size_w > 32)) return mt_fail(e, "AddrW=%d, SizeW=%d: each must be 1..32", p->addr_w, p->size_w);
  if (mt_ni_entry_bits(p) > 64 * MT_NI_EW) return mt_fail(e, "table entry of %d bits: at most %d", mt_ni_entry_bits(p), 64 * MT_NI_EW);
  if (p->max_flows < 1 || p->max_flows > 4096) return mt_fail(e, "MaxFlows=%u: must be 1..4096", p->max_flows);
  if (p->sq < 1 || p->sq > MT_NI_MAX_SQ || p->rq < 1 || p->rq > MT_NI_MAX_RQ) return mt_fail(e, "SQ=%u, RQ=%u: must be 1..%d and 1..%d", p->sq, p->rq, MT_NI_MAX_SQ, MT_NI_MAX_RQ);
  if (p->alu_pipe > MT_NI_MAX_ALU_PIPE) return mt_fail(e, "AluPipe=%u: must be 0..%d", p->alu_pipe, MT_NI_MAX_ALU_PIPE);
  if (p->stage_after && (p->stage_ranges < 1 || p->stage_ranges > 1u << 20)) return mt_fail(e, "stage_ranges=%u: must be 1..%u with the stager on", p->stage_ranges, 1u << 20);
  if (p->wd_w < 2 || p->wd_w > 32) return mt_fail(e, "WdW=%u: must be 2..32", p->wd_w);
  if (!is_pow2(p->payload_w)) return mt_fail(e, "PayloadW=%u: must be a power of two", p->payload_w);
  {
    unsigned E = p->rx_engines, M = p->mem_ports;
    mt_ni_bw_defaults(p->nlocal, &E, &M);
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
  s->lanes = p->payload_w / 32;
  s->fb = p->payload_w / 8;
  s->lg_fb = 0;
  while ((1u << s->lg_fb) < s->fb) s->lg_fb++;
  s->pkt_flits = p->pkt_bytes / s->fb;
  s->vcm = (1u << mt_flit_vcw(p->num_vcs)) - 1u;
  for (unsigned l = 0; l < p->nlocal; l++) s->credm |= (uint64_t)((1u << p->num_vcs) - 1u) << (8u * l);
  s->tbw = 1;
  s->nstreams = p->nlocal * p->num_vcs;
  for (unsigned g = 0; g < s->nstreams; g++) s->scr[g] = (uint8_t)(g / p->num_vcs * MT_NI_MAX_VCS + g % p->num_vcs);
  s->ne = p->rx_engines;
  s->nmp = p->mem_ports;
  mt_ni_bw_defaults(p->nlocal, &s->ne, &s->nmp);
  s->ses = s->nstreams / s->ne;
  s->tq_depth = p->nlocal * p->sq + s->ne * p->rq + (p->stage_after ? p->ej_depth : 0u); /* stager: reads for room in R */
  {
    const unsigned L = p->nlocal, E = s->ne;
    if (s->nmp == 1) {
      for (unsigned a = 0; a < L + E; a++) {
        s->ag[0][a] = (uint8_t)a;
        s->agm[0][a] = 0;
      }
      s->na[0] = (uint8_t)(L + E);
      for (unsigned e2 = 0; e2 < E; e2++) s->wport[e2] = 0;
      if (p->stage_after) { /* the stager: last requester of the one port (reads) */
        s->ag[0][L + E] = (uint8_t)(L + E);
        s->agm[0][L + E] = 1;
        s->na[0] = (uint8_t)(L + E + 1);
      }
    } else {
      for (unsigned l = 0; l < L; l++) {
        s->na[l] = 1;
        s->ag[l][0] = (uint8_t)l;
        s->agm[l][0] = 0;
      }
      const int split = s->nmp == L + 2 * E;
      for (unsigned e2 = 0; e2 < E; e2++) {
        s->na[L + e2] = 1;
        s->ag[L + e2][0] = (uint8_t)(L + e2);
        s->agm[L + e2][0] = (uint8_t)(split ? 1 : 0);
        s->wport[e2] = (uint8_t)(L + e2);
        if (split) {
          s->na[L + E + e2] = 1;
          s->ag[L + E + e2][0] = (uint8_t)(L + e2);
          s->agm[L + E + e2][0] = 2;
          s->wport[e2] = (uint8_t)(L + E + e2);
        }
      }
      if (p->stage_after) { /* the stager: second requester of port L, engine 0's (read) port */
        s->ag[L][1] = (uint8_t)(L + E);
        s->agm[L][1] = 1;
        s->na[L] = 2;
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
    for (unsigned i = 0; i < s->ses; i++) {
      s->engm[e2] |= 1ull << s->estr[e2][i];
      s->seng[s->estr[e2][i]] = (uint8_t)(1u << e2);
    }
  for (unsigned m = 0; m < s->nmp; m++)
    for (unsigned k = 0; k < s->na[m]; k++) s->apm[s->ag[m][k]][s->agm[m][k]] |= 1u << m;
  s->f = p->fmt;
  mt_entry_fmt_offsets(&s->f);
  s->width = (unsigned)s->f.width;
  s->words = (s->width + 63u) / 64u;
  s->tbl = calloc((size_t)p->tbl_depth * s->words, 8);
  size_t F = p->max_flows;
  s->rv = calloc(F, 1);
  s->gv = calloc(F, 1);
  s->root = calloc(F, 1);
  s->grx = calloc(F, 1);
  s->rdone = calloc(F, 1);
  s->cnt = calloc(F, 1);
  s->act = calloc(F, 1);
  s->ridx = calloc(F, 4);
  s->gidx = calloc(F, 4);
  s->rxb = calloc(F, 4);
  s->ej = calloc((size_t)(s->nstreams + 1u) * p->ej_depth, sizeof(mt_flit)); /* + the stager's replay stream */
  s->tq = calloc((size_t)s->nmp * s->tq_depth, 1);
  if (p->reduce_chain && s->ne > 1) { /* the chain unit (mt_ni_chain.c) */
    const size_t FC = F * (size_t)p->children;
    s->crow = calloc(FC * MT_NI_ROWW, 4);
    s->cpwm = calloc(FC, 4);
    s->crv = calloc(FC, 1);
    s->ccc = calloc(F, 8);
    if (!s->crow || !s->cpwm || !s->crv || !s->ccc) {
      mt_ni_free(s);
      return mt_fail(e, "out of memory");
    }
    s->ram_r = (mt_ni_ram){s->crow, s->crd, MT_NI_ROWW, 1};
    s->ram_p = (mt_ni_ram){s->cpwm, &s->cprd, 1, 1};
    for (s->cqd = 1; s->cqd < 2 * s->ne;) s->cqd <<= 1;
  }
  if (p->stage_after) {
    const size_t FC = F * (size_t)p->children;
    s->sgnz = calloc(FC, 1);
    s->sghm = calloc(FC * 2, 4);
    s->sgqm = calloc((size_t)p->stage_ranges * 3, 4);
    s->ram_h = (mt_ni_ram){s->sghm, s->sghr, 2, 1};
    s->ram_q = (mt_ni_ram){s->sgqm, s->sgqr, 3, 1};
    if (s->sgnz) mt_ni_stage_reset(s);
  }
  if ((p->stage_after && (!s->sgnz || !s->sghm || !s->sgqm)) || !s->tbl || !s->rv || !s->gv || !s->root || !s->grx || !s->rdone || !s->cnt || !s->act || !s->ridx ||
      !s->gidx || !s->rxb || !s->ej || !s->tq) {
    mt_ni_free(s);
    return mt_fail(e, "out of memory");
  }
  for (unsigned l = 0; l < p->nlocal; l++)
    for (unsigned v = 0; v < p->num_vcs; v++) s->cred[l][v] = (uint16_t)p->vc_depth;
  return 0;
}

void mt_ni_free(mt_ni *s) {
  free(s->tbl);
  free(s->rv);
  free(s->gv);
  free(s->root);
  free(s->grx);
  free(s->rdone);
  free(s->cnt);
  free(s->act);
  free(s->crow);
  free(s->cpwm);
  free(s->crv);
  free(s->ccc);
  s->crow = s->cpwm = NULL;
  s->crv = NULL;
  s->ccc = NULL;
  free(s->sgnz);
  free(s->sghm);
  free(s->sgqm);
  s->sgnz = NULL;
  s->sghm = s->sgqm = NULL;
  free(s->ridx);
  free(s->gidx);
  free(s->rxb);
  free(s->ej);
  free(s->tq);
  s->tbl = NULL;
  s->rv = s->gv = s->root = s->grx = s->rdone = s->cnt = s->act = NULL;
  s->ridx = s->gidx = s->rxb = NULL;
  s->ej = NULL;
  s->tq = NULL;
}

void mt_ni_table_load(mt_ni *s, const uint64_t *words, unsigned n, unsigned stride) {
  for (unsigned i = 0; i < n && i < s->p.tbl_depth; i++)
    for (unsigned k = 0; k < s->words; k++) s->tbl[(size_t)i * s->words + k] = k < stride ? words[(size_t)i * stride + k] : 0;
  s->tbw = 1; /* the read ports reload at the next edge */
}

void mt_ni_decode(const mt_ni *s, const mt_ni_in *cfg, const uint64_t *w, mt_ni_entry *en) {
  dec_raw(s, w, en);
  if (s->p.compact) dec_cfg(s, cfg, en);
}

/* registered outputs, before the edge: last cycle's valid flits and credit pulses cleared
 * (only live lanes and ports are ever non-zero; the memory requests are the request
 * registers themselves, mt_ni_dma_update). A port that sends again at this edge (w->send)
 * is not cleared: mt_ni_pktz_update writes its valid and every live word of its flit (it
 * clears the register itself before a head, whose writer leaves words alone). */
static void outputs_clear(mt_ni *s, const mt_ni_wires *w) {
  mt_ni_out *const nq = &s->q;
  for (uint32_t lm = mt_ni_nz8(nq->inj_valid) & ~w->send; lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    nq->inj_valid[l] = 0;
    mt_ni_zl(nq->inj_flit[l].w, s->lanes); /* a flit's lanes + 1 words: those above FlitW are never set */
    nq->inj_flit[l].w[s->lanes] = 0;
  }
  if (s->ncred) {
    memset(nq->ej_credit, 0, sizeof nq->ej_credit);
    s->ncred = 0;
  }
}

_Static_assert(MT_NI_ST_SCAN + 1 == MT_NI_ST_RUN && MT_NI_ST_RUN + 1 == MT_NI_ST_FIN, "busy: SCAN..FIN consecutive");

/* registered outputs after the edge (the packetisers and the ejection buffers wrote theirs),
 * copied to *out */
static void outputs_update(mt_ni *s, const mt_ni_wires *w, mt_ni_out *out) {
  mt_ni_out *const nq = &s->q;
  const uint32_t mmask = mt_ni_nz_mp(s->rq_v, s->nmp); /* memory ports with a request after the edge */
  nq->st = s->st;
  nq->busy = (uint8_t)((unsigned)s->st - MT_NI_ST_SCAN <= MT_NI_ST_FIN - MT_NI_ST_SCAN); /* SCAN, RUN or FIN */
  nq->done = s->done;
  nq->err = s->st == MT_NI_ST_ERR;
  nq->err_code = s->err_code;
  nq->err_idx = s->err_idx;
  nq->idx = s->hp;
  nq->step = s->ts;
  /* *out = s->q. Only the live parts of s->q are ever non-zero (ports < L, memory ports < M,
   * live lanes, flit words and VCs), and of those only the valid ports and the credit pulses
   * of this cycle. A buffer that one of the last two steps of this NI wrote (callers never
   * write their output buffers) holds zeros but where that step's masks say otherwise, so
   * only those parts and this cycle's are written; any other buffer is written in full. */
  const uint32_t vmask = w->vmask;
  const int b = out == s->ob[0] ? 0 : out == s->ob[1] ? 1
                                                      : -1;
  if (b >= 0) {
    memcpy(out->inj_valid, nq->inj_valid, sizeof out->inj_valid); /* 8 bytes: at once */
    for (uint32_t lm = vmask | s->obi[b]; lm; lm &= lm - 1u) {
      const unsigned l = (unsigned)__builtin_ctz(lm);
      mt_ni_cpl(out->inj_flit[l].w, nq->inj_flit[l].w, s->lanes); /* lanes + 1 words: the rest is 0 in both */
      out->inj_flit[l].w[s->lanes] = nq->inj_flit[l].w[s->lanes];
    }
    if (s->ncred || s->obc[b]) memcpy(out->ej_credit, nq->ej_credit, sizeof out->ej_credit);
    /* wdata is non-zero only with we (reads and empty registers hold 0), in live lanes: the
     * ports with a write in either (before the per-port fields are copied) */
    const uint32_t wm = (mmask | s->obm[b]) & (mt_ni_nz_mp(out->mem_req_we, s->nmp) | mt_ni_nz_mp(nq->mem_req_we, s->nmp));
    for (uint32_t mm = wm; mm; mm &= mm - 1u) {
      const unsigned m = (unsigned)__builtin_ctz(mm);
      if (s->lanes == 4) memcpy(out->mem_req_wdata[m], nq->mem_req_wdata[m], 16);
      else memcpy(out->mem_req_wdata[m], nq->mem_req_wdata[m], sizeof out->mem_req_wdata[m]);
    }
    /* valid, we, addr, be of every port (ports outside mmask | obm[b] are equal already):
     * fixed-size copies of the whole arrays cost less than a walk of the ports */
    memcpy(out->mem_req_valid, nq->mem_req_valid, sizeof out->mem_req_valid);
    memcpy(out->mem_req_we, nq->mem_req_we, sizeof out->mem_req_we);
    memcpy(out->mem_req_addr, nq->mem_req_addr, sizeof out->mem_req_addr);
    memcpy(out->mem_req_be, nq->mem_req_be, sizeof out->mem_req_be);
    out->busy = nq->busy;
    out->done = nq->done;
    out->err = nq->err;
    out->err_code = nq->err_code;
    out->st = nq->st;
    out->err_idx = nq->err_idx;
    out->idx = nq->idx;
    out->step = nq->step;
  } else {
    memcpy(out, nq, sizeof *out);
    s->ob[1] = s->ob[0];
    s->obi[1] = s->obi[0];
    s->obc[1] = s->obc[0];
    s->obm[1] = s->obm[0];
    s->ob[0] = out;
  }
  const unsigned bb = b >= 0 ? (unsigned)b : 0u;
  s->obi[bb] = vmask;
  s->obc[bb] = s->ncred;
  s->obm[bb] = mmask;
}

void mt_ni_step(mt_ni *s, const mt_ni_in *in, mt_ni_out *out) {
  mt_ni_wires w;
  /* the registers before the edge that many blocks look at */
  w.st = s->st;
  w.running = s->st == MT_NI_ST_RUN || s->st == MT_NI_ST_FIN;
  w.busy = s->st == MT_NI_ST_SCAN || w.running;
  w.rqv = mt_ni_nz_mp(s->rq_v, s->nmp);
  w.rdy = mt_ni_nz_mp(in->mem_req_ready, s->nmp);
  w.mem_quiet = w.rqv == 0;
  if (w.mem_quiet)
    for (unsigned m = 0; m < s->nmp; m++)
      if (s->tq_cnt[m]) {
        w.mem_quiet = 0;
        break;
      }
  w.ecode = 0;
  w.progress = 0;

  /* evaluate: this cycle's combinational values */
  mt_ni_entry_dec_eval(s, in, &w); /* table words -> entries E (port A), B (port B) */
  mt_ni_pktz_eval(s, &w);          /* packetisers: busy, read requests, flits to send */
  mt_ni_stage_eval(s, &w);         /* stager: replay head offered, read request */
  mt_ni_depktz_eval(s, in, &w);    /* engines: requests, frame check, pick, look-up, done */
  mt_ni_ejbuf_eval(s, in, &w);     /* ejection overflow */
  mt_ni_dma_eval(s, in, &w);       /* memory responses -> requesters; arbiters: grants */
  mt_ni_issue_eval(s, in, &w);     /* issue, advance, END, scan, finish, errors, watchdog,
                                        start, next head index */

  /* update: the rising edge */
  outputs_clear(s, &w);
  mt_ni_dma_update(s, in, &w);    /* request registers, tag FIFOs */
  mt_ni_reduce_update(s, in, &w); /* adders' output register -> wq; response + inq -> adders */
  mt_ni_pktz_update(s, in, &w);   /* reads, data FIFOs, flits out, credits, activation */
  mt_ni_depktz_update(s, in, &w); /* engines' queues and state */
  mt_ni_deps_update(s, &w);       /* per-flow counters, scan records */
  mt_ni_stage_update(s, in, &w);  /* stager: staged counters, replay stream pushes */
  mt_ni_ejbuf_update(s, in, &w);  /* ejection FIFOs, credit pulses */
  mt_ni_issue_update(s, &w);      /* control state, errors, head index */
  mt_ni_lockstep_update(s, &w);
  mt_ni_timestep_update(s, &w);
  mt_ni_table_update(s, in, &w); /* read ports A and B, write port */
  outputs_update(s, &w, out);
  s->cycles++;
}
