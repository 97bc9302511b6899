/* SPDX-License-Identifier: Apache-2.0
 * mt_paper_ni.c: the paper simulator's network interface (mt_paper_ni.h, docs/reference/papersim.md).
 * Each rule names the function of the authors' code it comes from. */
#include "hw/mt_paper_ni.h"
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"

uint64_t mt_pni_estimate(const mt_pni_params *p, int pkt_mode) {
  /* hmc.py load_model: estimated_steptime, from the message count of one flow */
  const unsigned fb = p->payload_w / 8u, uf = p->pkt_bytes / fb;
  const uint64_t P = (p->chunk_bytes + p->pkt_bytes - 1u) / p->pkt_bytes;
  if (P <= p->sendq) return P;
  return P * (uf + (pkt_mode ? 1u : 0u)) - (uint64_t)p->sendq * uf;
}

uint64_t mt_pni_agg_cycles(const mt_pni_params *p, uint64_t bytes) {
  /* hmc.py aggregate: data_size = messages received x sub-message bytes / 4 elements;
   * npu.py aggregate: ceil(ceil(data_size / num_npus) / max(PE rows, cols)) x num_npus */
  const uint64_t units = (bytes + p->pkt_bytes - 1u) / p->pkt_bytes, P = units * p->pkt_bytes / 4u;
  const uint64_t per = (P + p->acc_pes - 1u) / p->acc_pes;
  return (per + p->acc_width - 1u) / p->acc_width * p->acc_pes;
}

int mt_pni_check_params(const mt_pni_params *p, mt_err *e) {
  if (p->nlocal < 1 || p->nlocal > MT_NI_MAX_L) return mt_fail(e, "paper NI: local ports %u: 1..%d", p->nlocal, MT_NI_MAX_L);
  if (p->ports < 1 || p->ports > p->nlocal) return mt_fail(e, "paper NI: %u NI ports with %u local ports: 1..%u", p->ports, p->nlocal, p->nlocal);
  if (p->num_vcs < 1 || p->num_vcs > MT_NI_MAX_VCS) return mt_fail(e, "paper NI: num_vcs=%u: 1..%d", p->num_vcs, MT_NI_MAX_VCS);
  if (p->payload_w % 32u || p->payload_w < 128u || p->payload_w > 512u)
    return mt_fail(e, "paper NI: payload_w=%u: 128..512, a multiple of 32", p->payload_w);
  if (!p->pkt_bytes || p->pkt_bytes % (p->payload_w / 8u))
    return mt_fail(e, "paper NI: pkt_bytes=%u: a multiple of the %u-byte flit", p->pkt_bytes, p->payload_w / 8u);
  if (!p->acc_width || !p->acc_pes) return mt_fail(e, "paper NI: ni_paper_acc_width=%u ni_paper_acc_pes=%u: both at least 1", p->acc_width, p->acc_pes);
  if (!p->subpkt_flits || !p->vc_depth) return mt_fail(e, "paper NI: subpkt_flits and vc_depth must be at least 1");
  return 0;
}

void mt_pni_free(mt_pni *s) {
  if (s->stg)
    for (uint32_t i = 0; i < s->nflows * s->maxc; i++) free(s->stg[i]);
  free(s->stg);
  free(s->en);
  free(s->ridx);
  free(s->root);
  free(s->rdone);
  free(s->grx);
  free(s->cnt);
  free(s->caddr);
  free(s->csize);
  free(s->gk);
  free(s->gsum);
  free(s->rxb);
  free(s->fin);
  free(s->aq);
  free(s->aq_t);
  memset(s, 0, sizeof *s);
}

int mt_pni_init(mt_pni *s, const mt_pni_params *p, const mt_ni *t, const mt_ni_in *cfg, mt_mem *mem, mt_err *e) {
  memset(s, 0, sizeof *s);
  if (mt_pni_check_params(p, e)) return -1;
  s->p = *p;
  s->fb = p->payload_w / 8u;
  s->L = p->nlocal;
  s->ns = p->nlocal * p->num_vcs;
  s->mem = mem;
  s->node = cfg->node_id;
  s->nflows = cfg->nflows;
  s->maxc = (uint32_t)t->p.children;
  s->routed = (1u << t->p.port_w) - 1u;
  const unsigned depth = t->p.tbl_depth;
  s->en = mt_xcalloc(depth ? depth : 1, sizeof *s->en);
  for (unsigned i = 0; i < depth; i++) {
    mt_ni_decode(t, cfg, &t->tbl[(size_t)i * t->words], &s->en[i]);
    if (s->en[i].op == MT_OP_END) break;
    s->ne = i + 1;
  }
  if (s->ne == depth) return mt_fail(e, "paper NI %u: no END word within the table's %u words", s->node, depth);
  const uint32_t F = s->nflows ? s->nflows : 1u;
  s->ridx = mt_xcalloc(F, sizeof *s->ridx);
  s->root = mt_xcalloc(F, 1);
  s->rdone = mt_xcalloc(F, 1);
  s->grx = mt_xcalloc(F, 1);
  s->cnt = mt_xcalloc(F, sizeof *s->cnt);
  s->caddr = mt_xcalloc(F, sizeof *s->caddr);
  s->csize = mt_xcalloc(F, sizeof *s->csize);
  s->gsum = mt_xcalloc(F, sizeof *s->gsum);
  s->gk = mt_xcalloc(s->ne + 1u, sizeof *s->gk);
  s->fin = mt_xcalloc(s->ne + 1u, 1);
  s->rxb = mt_xcalloc((size_t)F * s->maxc, sizeof *s->rxb);
  s->stg = mt_xcalloc((size_t)F * s->maxc, sizeof *s->stg);
  s->aq_cap = F * s->maxc + 1u;
  s->aq = mt_xcalloc(s->aq_cap, 2 * sizeof *s->aq);
  s->aq_t = mt_xcalloc(s->aq_cap, sizeof *s->aq_t);
  for (uint32_t f = 0; f < F; f++) s->ridx[f] = -1;
  for (uint32_t i = 0; i < s->ne; i++) {
    const mt_ni_entry *E = &s->en[i];
    if (E->op == MT_OP_NOP) continue;
    if ((uint32_t)E->flow >= s->nflows) return mt_fail(e, "paper NI %u: entry %u: flow %d >= %u flows", s->node, i, E->flow, s->nflows);
    if (E->op == MT_OP_REDUCE) {
      if (s->ridx[E->flow] >= 0) return mt_fail(e, "paper NI %u: entry %u: a second Reduce entry of flow %d", s->node, i, E->flow);
      s->ridx[E->flow] = (int32_t)i;
      s->root[E->flow] = !E->pv;
      s->caddr[E->flow] = E->addr;
      s->csize[E->flow] = E->size;
    }
  }
  for (uint32_t f = 0; f < s->nflows; f++)
    if (s->ridx[f] < 0) return mt_fail(e, "paper NI %u: flow %u has no Reduce entry", s->node, f);
  s->wd_limit = cfg->wd_limit;
  return 0;
}

/* ---- the run ---- */

static void set_err(mt_pni *s, uint8_t code) {
  if (!s->err) {
    s->err = 1;
    s->err_code = code;
  }
}

static void start(mt_pni *s) {
  const mt_pni_params *p = &s->p;
  for (uint32_t i = 0; i < s->nflows * s->maxc; i++) {
    free(s->stg[i]);
    s->stg[i] = NULL;
    s->rxb[i] = 0;
  }
  memset(s->rdone, 0, s->nflows);
  memset(s->grx, 0, s->nflows);
  memset(s->cnt, 0, s->nflows * sizeof *s->cnt);
  memset(s->gsum, 0, s->nflows * sizeof *s->gsum);
  memset(s->gk, 0, (s->ne + 1u) * sizeof *s->gk);
  memset(s->fin, 0, s->ne + 1u);
  memset(s->port, 0, sizeof s->port);
  memset(s->rx, 0, sizeof s->rx);
  for (unsigned l = 0; l < MT_NI_MAX_L; l++)
    for (unsigned v = 0; v < MT_NI_MAX_VCS; v++) s->cred[l][v] = (uint16_t)p->vc_depth;
  s->aq_rd = s->aq_cnt = 0;
  s->acc_busy = 0;
  s->started = 1;
  s->done = s->err = 0;
  s->err_code = 0;
  s->new_step = 1;
  s->last_nop = 0;
  s->any_assigned = 0;
  s->hp = 0;
  s->step = 0;
  s->t_start = s->cyc;
  s->t_last = s->cyc;
  s->nop_end = s->nop_prev = 0;
  s->wd = 0;
}

/* child position of node src in flow f's Reduce entry, or -1 */
static int child_pos(const mt_pni *s, uint32_t f, uint32_t src) {
  const mt_ni_entry *R = &s->en[s->ridx[f]];
  for (int k = 0; k < R->nchild; k++)
    if ((uint32_t)R->cnode[k] == src) return k;
  return -1;
}

/* hmc.py incoming_message_update: a child's flow counts once all of it has arrived; it is
 * queued for the accelerator (pending_aggregations, in order of completion) */
static void rx_done(mt_pni *s, const mt_pni_rx *r) {
  if (r->op == MT_OP_REDUCE) {
    uint32_t *b = &s->rxb[r->flow * s->maxc + r->k];
    *b += r->len;
    if (*b > s->csize[r->flow]) set_err(s, MT_NI_E_RX_RANGE);
    else if (*b == s->csize[r->flow]) {
      const uint32_t x = (s->aq_rd + s->aq_cnt) % s->aq_cap;
      s->aq[2 * x] = r->flow;
      s->aq[2 * x + 1] = r->k;
      s->aq_t[x] = s->cyc + 1u; /* finish_training/incoming: 'aggregation' at cur_cycle + 1 */
      s->aq_cnt++;
    }
  } else {
    s->gsum[r->flow] += r->len;
    if (s->gsum[r->flow] > s->csize[r->flow]) set_err(s, MT_NI_E_RX_RANGE);
    else if (s->gsum[r->flow] == s->csize[r->flow]) s->grx[r->flow] = 1; /* all-gather dependency cleared */
  }
}

/* one flit on ejection port l */
static void rx_flit(mt_pni *s, unsigned l, const mt_flit *fl) {
  const mt_pni_params *p = &s->p;
  const unsigned vc = mt_flit_vc(fl, p->payload_w, p->num_vcs), ty = mt_flit_type(fl, p->payload_w);
  mt_pni_rx *r = &s->rx[l * p->num_vcs + vc];
  if (mt_ft_is_head(ty)) {
    mt_head_info h;
    mt_hd_unpack(fl, &h);
    if (r->act || (h.op != MT_OP_REDUCE && h.op != MT_OP_GATHER) || h.flow >= s->nflows) {
      set_err(s, r->act ? MT_NI_E_RX_FRAME : MT_NI_E_RX_FLOW);
      return;
    }
    const uint32_t a = s->caddr[h.flow], z = a + s->csize[h.flow];
    if (h.addr < a || h.len == 0 || h.len % 4u || h.len > z - h.addr) {
      set_err(s, MT_NI_E_RX_RANGE);
      return;
    }
    int k = 0;
    if (h.op == MT_OP_REDUCE && (k = child_pos(s, h.flow, h.src)) < 0) {
      set_err(s, MT_NI_E_RX_SRC);
      return;
    }
    r->act = 1;
    r->op = (uint8_t)h.op;
    r->flow = h.flow;
    r->k = (uint32_t)k;
    r->addr = h.addr;
    r->len = h.len;
    r->off = 0;
    if (h.op == MT_OP_REDUCE && p->keep_data && !s->stg[h.flow * s->maxc + (uint32_t)k])
      s->stg[h.flow * s->maxc + (uint32_t)k] = mt_xcalloc(s->csize[h.flow] / 4u + 1u, 4);
    return;
  }
  if (!r->act || r->off >= r->len) {
    set_err(s, MT_NI_E_RX_FRAME);
    return;
  }
  const uint32_t nb = r->len - r->off < s->fb ? r->len - r->off : s->fb, at = r->addr + r->off;
  if (p->keep_data) {
    if (r->op == MT_OP_REDUCE) {
      uint32_t *d = s->stg[r->flow * s->maxc + r->k] + (at - s->caddr[r->flow]) / 4u;
      for (uint32_t w = 0; w < nb / 4u; w++) d[w] = fl->w[w];
    } else
      for (uint32_t w = 0; w < nb / 4u; w++) {
        uint32_t *m = mt_mem_word(s->mem, at / 4u + w);
        if (m) *m = fl->w[w];
      }
  }
  r->off += nb;
  if (mt_ft_is_tail(ty)) {
    if (r->off != r->len) set_err(s, MT_NI_E_RX_FRAME);
    r->act = 0;
    rx_done(s, r);
  }
}

/* the sum of flow f in the documented child order (docs/reference/interfaces.md): formed when its last
 * child is aggregated, so the result does not depend on the order the accelerator took them */
static void reduce_data(mt_pni *s, uint32_t f, int dtype) {
  const mt_ni_entry *R = &s->en[s->ridx[f]];
  const uint32_t a = s->caddr[f] / 4u, n = s->csize[f] / 4u;
  for (int k = 0; k < R->nchild; k++) {
    uint32_t **b = &s->stg[f * s->maxc + (uint32_t)k];
    if (!*b) continue;
    for (uint32_t w = 0; w < n; w++) {
      uint32_t *m = mt_mem_word(s->mem, a + w);
      if (m) *m = mt_reduce_add(dtype, *m, (*b)[w]);
    }
    free(*b);
    *b = NULL;
  }
}

/* hmc.py aggregation_update / finish_aggregation_update: one child flow at a time */
static void accelerator(mt_pni *s, int dtype) {
  if (s->acc_busy && s->cyc >= s->acc_end) {
    s->acc_busy = 0;
    s->aggs++;
    if (++s->cnt[s->acc_f] == (uint32_t)s->en[s->ridx[s->acc_f]].nchild && s->p.keep_data) reduce_data(s, s->acc_f, dtype);
  }
  if (!s->acc_busy && s->aq_cnt && s->aq_t[s->aq_rd] <= s->cyc) {
    s->acc_f = s->aq[2 * s->aq_rd];
    s->acc_k = s->aq[2 * s->aq_rd + 1];
    s->aq_rd = (s->aq_rd + 1u) % s->aq_cap;
    s->aq_cnt--;
    const uint64_t c = s->p.perturb == 2 ? 0 : mt_pni_agg_cycles(&s->p, s->csize[s->acc_f]);
    s->acc_busy = 1;
    s->acc_end = s->cyc + c;
    s->agg_cycles += c;
    if (!c) { /* nothing to wait for */
      s->acc_busy = 0;
      s->aggs++;
      if (++s->cnt[s->acc_f] == (uint32_t)s->en[s->ridx[s->acc_f]].nchild && s->p.keep_data) reduce_data(s, s->acc_f, dtype);
    }
  }
}

/* a port is free once its last flow is in its send buffers (send_*_message_update frees the NI
 * when the last message is enqueued into to_network_message_buffers) */
static int port_free(const mt_pni *s, unsigned r) {
  const mt_pni_port *q = &s->port[r];
  if (!q->cnt) return 1;
  return q->cnt < MT_PNI_JOBS && q->left <= (uint64_t)s->p.sendq * s->p.pkt_bytes;
}

static int all_free(const mt_pni *s) {
  for (unsigned r = 0; r < s->p.ports; r++)
    if (!port_free(s, r)) return 0;
  return 1;
}

static void assign(mt_pni *s, unsigned r, uint32_t i, int node, int port, int ej) {
  /* a routed slot (port all ones) travels as packets, as in the project's NI */
  const mt_ni_entry *E = &s->en[i];
  mt_pni_port *q = &s->port[r];
  mt_pni_job *j = &q->q[(q->rd + q->cnt) % MT_PNI_JOBS];
  memset(j, 0, sizeof *j);
  j->e = i;
  j->dst = (uint32_t)node;
  j->nxt = (uint32_t)port;
  j->ej = (uint32_t)ej;
  j->flow = (uint32_t)E->flow;
  j->op = (uint32_t)E->op;
  /* booksim priority: the step with --prioritize-schedule (reduce) and always for gathers
   * (send_gather_message_evaluate passes timestep), else 0 (the highest) */
  j->step = s->p.step_prio || E->op == MT_OP_GATHER ? (uint32_t)E->step : 0u;
  j->pm = (uint32_t)port == s->routed;
  j->addr = E->addr;
  j->len = E->size;
  j->nfl = (E->size + s->fb - 1u) / s->fb;
  q->cnt++;
  q->left += E->size;
  s->any_assigned = 1;
}

/* hmc.py reduce_scatter_evaluate / all_gather_evaluate: the step's entries in any order as
 * they become ready, each on a free NI port */
static void issue(mt_pni *s, int pkt_mode) {
  const mt_pni_params *p = &s->p;
  while (s->hp < s->ne) {
    const mt_ni_entry *H = &s->en[s->hp];
    s->step = (uint32_t)H->step;
    if (H->op == MT_OP_NOP) {
      /* estimate_lockstep: the first NOP after a sending step ends 2 x estimate after that
       * step's last assignment, each further one an estimate later, a leading one an estimate
       * after the start; without it NOPs are popped at once */
      if (p->nop_wait) {
        if (!s->nop_end) s->nop_end = s->last_nop ? s->nop_prev + s->est : s->any_assigned ? s->t_last + 2u * s->est
                                                                                           : s->t_start + s->est;
        if (s->cyc < s->nop_end) return;
        s->nop_prev = s->nop_end;
        s->nop_end = 0;
        s->last_nop = 1;
      }
      s->hp++;
      return;
    }
    uint32_t he = s->hp;
    while (he < s->ne && s->en[he].step == H->step && s->en[he].op != MT_OP_NOP) he++;
    if (s->new_step && p->strict && p->perturb != 1 && !all_free(s)) return;
    s->new_step = 0;
    for (unsigned r = 0; r < p->ports; r++) {
      if (!port_free(s, r)) continue;
      for (uint32_t i = s->hp; i < he; i++) {
        const mt_ni_entry *E = &s->en[i];
        if (s->fin[i]) continue;
        const uint32_t f = (uint32_t)E->flow;
        if (E->op == MT_OP_REDUCE) {
          if (s->cnt[f] != (uint32_t)E->nchild) continue;
          s->fin[i] = 1;
          if (!E->pv) { /* the root: the flow is reduced here, nothing to send */
            s->rdone[f] = 1;
            s->any_assigned = 1;
            continue;
          }
          assign(s, r, i, E->pnode, E->pport, E->pej);
          break;
        }
        if (E->op == MT_OP_GATHER) {
          if (!(E->pv ? s->grx[f] : s->rdone[f])) continue;
          const uint32_t k = s->gk[i]++;
          if (s->gk[i] >= (uint32_t)E->nchild) s->fin[i] = 1;
          assign(s, r, i, E->cnode[k], E->cport[k], E->cej[k]);
          break;
        }
      }
    }
    for (uint32_t i = s->hp; i < he; i++)
      if (!s->fin[i]) return;
    s->hp = he; /* the step is fully assigned */
    s->new_step = 1;
    s->last_nop = 0;
    s->t_last = s->cyc;
    return;
  }
  (void)pkt_mode;
}

static void send(mt_pni *s, const mt_ni_in *in, mt_ni_out *out) {
  const mt_pni_params *p = &s->p;
  const unsigned pf = p->pkt_bytes / s->fb, lanes = p->payload_w / 32u;
  for (unsigned r = 0; r < p->ports; r++) {
    mt_pni_port *q = &s->port[r];
    if (!q->cnt || !s->cred[r][p->inj_vc]) continue;
    mt_pni_job *j = &q->q[q->rd];
    mt_flit *fl = &out->inj_flit[r];
    const int pm = in->pkt_mode || j->pm;
    if (!j->hd) {
      mt_head_info h;
      memset(&h, 0, sizeof h);
      h.dst = j->dst;
      h.src = s->node;
      h.eject = j->ej;
      h.flow = j->flow;
      h.op = j->op;
      h.step = j->step;
      mt_hd_write(fl, p->payload_w, &h, pm, j->addr, j->len, j->txj * s->fb, p->pkt_bytes, j->txj + pf >= j->nfl, j->nxt);
      j->hd = 1;
    } else {
      const uint32_t off = j->txj * s->fb, nb = j->len - off < s->fb ? j->len - off : s->fb;
      for (unsigned k = 0; k < lanes; k++) {
        const uint32_t *m = k < nb / 4u && p->keep_data ? mt_mem_word(s->mem, (j->addr + off) / 4u + k) : NULL;
        fl->w[k] = m ? *m : 0u;
      }
      const int last = j->txj + 1u == j->nfl;
      unsigned ty;
      if (pm) {
        ty = last || j->pc + 1u == pf ? MT_FT_TAIL : MT_FT_BODY;
        if (j->pc + 1u == pf) {
          j->pc = 0;
          j->hd = 0;
        } else j->pc++;
      } else {
        ty = last ? MT_FT_AR_TAIL : (j->pc + 1u == p->subpkt_flits ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
        j->pc = j->pc + 1u == p->subpkt_flits ? 0 : j->pc + 1u;
      }
      mt_flit_set_type(fl, p->payload_w, ty);
      j->txj++;
      q->left -= nb;
      if (last) {
        q->rd = (q->rd + 1u) % MT_PNI_JOBS;
        q->cnt--;
      }
    }
    mt_flit_set_vc(fl, p->payload_w, p->num_vcs, p->inj_vc);
    out->inj_valid[r] = 1;
    s->cred[r][p->inj_vc]--;
  }
}

static int finished(const mt_pni *s) {
  if (s->hp < s->ne || s->acc_busy || s->aq_cnt) return 0;
  for (unsigned r = 0; r < s->p.ports; r++)
    if (s->port[r].cnt) return 0;
  for (uint32_t f = 0; f < s->nflows; f++)
    if (!(s->root[f] ? s->rdone[f] : s->grx[f])) return 0;
  return 1;
}

void mt_pni_step(mt_pni *s, const mt_ni_in *in, mt_ni_out *out) {
  const mt_pni_params *p = &s->p;
  const int pkt_mode = in->pkt_mode;
  memset(out, 0, sizeof *out);
  s->cyc++;
  if (in->start && !(s->started && !s->done && !s->err)) {
    s->est = mt_pni_estimate(p, pkt_mode);
    start(s);
  }
  /* credits from the router */
  for (unsigned l = 0; l < s->L; l++)
    for (unsigned v = 0; v < p->num_vcs; v++) s->cred[l][v] = (uint16_t)(s->cred[l][v] + (in->inj_credit[l][v] & 1u));
  const int run = s->started && !s->done && !s->err;
  /* booksim.py process: every ejected flit is taken at once (one per port per cycle), its
   * credit returned the next cycle */
  for (unsigned l = 0; l < s->L; l++)
    if (in->ej_valid[l]) {
      out->ej_credit[l][mt_flit_vc(&in->ej_flit[l], p->payload_w, p->num_vcs)] = 1;
      if (run) rx_flit(s, l, &in->ej_flit[l]);
      else set_err(s, MT_NI_E_RX_FRAME);
    }
  uint64_t before = s->aggs + s->hp;
  if (run && !s->err) {
    accelerator(s, in->dtype);
    issue(s, pkt_mode);
    send(s, in, out);
  }
  int moved = s->aggs + s->hp != before || s->acc_busy;
  for (unsigned l = 0; l < s->L; l++) moved |= in->ej_valid[l] || out->inj_valid[l];
  if (run && !s->err && finished(s)) s->done = 1;
  s->wd = moved ? 0 : s->wd + 1u;
  if (run && !s->done && s->wd_limit && s->wd >= s->wd_limit) set_err(s, MT_NI_E_WATCHDOG);
  out->busy = (uint8_t)(s->started && !s->done && !s->err);
  out->done = s->done;
  out->err = s->err;
  out->err_code = s->err_code;
  out->st = s->err ? MT_NI_ST_ERR : s->done ? MT_NI_ST_DONE
    : s->started                            ? MT_NI_ST_RUN
                                            : MT_NI_ST_IDLE;
  out->idx = s->hp;
  out->err_idx = s->hp;
  out->step = (uint16_t)s->step;
}
