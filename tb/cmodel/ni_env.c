/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_env.c: scripted environment of one NI (see mt_ni_env.h). Test code: allocates in
 * mt_ni_env_new/begin only. */
#include "ni_env.h"
#include "util/mt_rng.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"
#include "plan/mt_ref.h"

#define RSPQ 256
#define MAXU (MT_NI_MAX_L * MT_NI_MAX_VCS)

typedef struct {
  int src, op, flow, step, sport, ej, routed;
  uint32_t addr, size;
  int drop; /* fault: never delivered */
} emsg;

typedef struct { /* a unit (message, or one packet of it) being delivered */
  int act, msg, normal, last;
  uint32_t addr, len, nfl, j; /* j: next flit (0 = head) */
} eunit;

typedef struct { /* a message the node must send */
  int op, flow, dst, port, ej, step, pm;
  uint32_t addr, size, sent;
} esend;

typedef struct {
  int in_unit, normal, idx;
  mt_head_info h;
  uint32_t j, nfl;
} emon;

typedef struct {
  uint8_t ready_q;
  struct {
    uint64_t due;
    uint32_t d[MT_NI_MAX_LANES];
  } rsp[RSPQ];
  unsigned rsp_rd, rsp_cnt;
  uint64_t last_due;
} emport;

struct mt_ni_env {
  const mt_sched *s;
  const mt_tables *tb;
  const mt_layout *ly;
  const mt_topo *t;
  int node;
  mt_ni_params p;
  mt_ni_env_run run;
  uint32_t rng;
  unsigned lanes, fb;
  uint64_t nw;
  uint32_t **in, **part, *res, *mem;
  uint64_t *image;
  unsigned depth;
  mt_ni_in cfg;
  /* processor */
  int phase;
  unsigned wr_i, since_start;
  int table_written, finished;
  mt_ni_out last_out;
  /* memory */
  unsigned nmp; /* memory ports (params.mem_ports) */
  emport mp[MT_NI_MAX_MP];
  /* incoming messages, grouped by source in send order */
  emsg *msg;
  int nmsg;
  int *src_first, *src_count, *src_k;
  uint32_t *src_off;
  uint64_t *src_rel;
  eunit u[MAXU]; /* per stream (port * NV + vc) */
  uint8_t ejv_q[MT_NI_MAX_L];
  mt_flit ejf_q[MT_NI_MAX_L];
  int ecred[MT_NI_MAX_L][MT_NI_MAX_VCS];
  unsigned rr[MT_NI_MAX_L];
  /* injection side */
  unsigned occ[MT_NI_MAX_L][MT_NI_MAX_VCS];
  uint8_t icred_q[MT_NI_MAX_L][MT_NI_MAX_VCS];
  emon mon[MT_NI_MAX_L];
  esend *snd;
  int nsnd;
  uint8_t *need_red, *red_sent;
  unsigned env_err, data_bad, hdr_bad;
  uint64_t cyc;
};

static unsigned rnd(mt_ni_env *v, unsigned n) { return n ? mt_xs32(&v->rng) % n : 0; }
static int pct(mt_ni_env *v, unsigned p) { return rnd(v, 100) < p; }

const char *mt_ni_fault_name(int f) {
  static const char *const n[] = {"none", "tbl_step", "tbl_flow", "tbl_port", "tbl_entry", "tbl_noend",
                                  "rx_flow", "rx_src", "rx_range", "rx_frame", "ej_ovf", "drop"};
  return f >= 0 && f < MT_NI_F_COUNT ? n[f] : "?";
}
int mt_ni_fault_code(int f) {
  static const int c[] = {0, MT_NI_E_STEP, MT_NI_E_FLOW, MT_NI_E_PORT, MT_NI_E_ENTRY, MT_NI_E_NOEND,
                          MT_NI_E_RX_FLOW, MT_NI_E_RX_SRC, MT_NI_E_RX_RANGE, MT_NI_E_RX_FRAME,
                          MT_NI_E_EJ_OVF, MT_NI_E_WATCHDOG};
  return f >= 0 && f < MT_NI_F_COUNT ? c[f] : -1;
}

mt_ni_env *mt_ni_env_new(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, const mt_topo *t,
                         int node, const mt_ni_params *p, mt_err *e) {
  mt_ni_env *v = calloc(1, sizeof *v);
  if (!v) {
    mt_fail(e, "out of memory");
    return NULL;
  }
  v->s = s;
  v->tb = tb;
  v->ly = ly;
  v->t = t;
  v->node = node;
  v->p = *p;
  {
    unsigned E = p->rx_engines;
    v->nmp = p->mem_ports;
    mt_ni_bw_defaults(p->nlocal, &E, &v->nmp);
  }
  v->lanes = p->payload_w / 32;
  v->fb = p->payload_w / 8;
  v->nw = s->bytes / 4;
  int N = s->n_nodes;
  v->in = mt_xcalloc((size_t)N, sizeof(uint32_t *));
  v->part = mt_xcalloc((size_t)N, sizeof(uint32_t *));
  for (int n = 0; n < N; n++) {
    v->in[n] = mt_xcalloc(v->nw, 4);
    v->part[n] = mt_xcalloc(v->nw, 4);
  }
  v->res = mt_xcalloc(v->nw, 4);
  v->mem = mt_xcalloc(v->nw, 4);
  v->src_first = mt_xcalloc((size_t)N, sizeof(int));
  v->src_count = mt_xcalloc((size_t)N, sizeof(int));
  v->src_k = mt_xcalloc((size_t)N, sizeof(int));
  v->src_off = mt_xcalloc((size_t)N, 4);
  v->src_rel = mt_xcalloc((size_t)N, 8);
  v->need_red = mt_xcalloc((size_t)s->n_flows, 1);
  v->red_sent = mt_xcalloc((size_t)s->n_flows, 1);
  /* configuration */
  mt_ni_in *c = &v->cfg;
  c->node_id = (uint16_t)node;
  c->nflows = (uint16_t)s->n_flows;
  c->base_units = (uint32_t)ly->base_units;
  c->rem_units = (uint32_t)ly->rem_units;
  c->elem = (uint32_t)ly->elem;
  c->nop_bytes = (uint32_t)ly->nop_bytes;
  for (int l = 0; l < t->n_links; l++) {
    const mt_edge *k = &t->links[l];
    if (k->src == node && k->src_port < MT_NI_MAX_PORTS) c->nbr_tx[k->src_port] = (uint16_t)k->dst;
    if (k->dst == node && k->src_port < MT_NI_MAX_PORTS) c->nbr_rx[k->src_port] = (uint16_t)k->src;
  }
  if (p->tbl_depth < (unsigned)tb->count[node] + 1) {
    mt_fail(e, "table depth %u < %d entries + END", p->tbl_depth, tb->count[node]);
    mt_ni_env_free(v);
    return NULL;
  }
  v->image = mt_xcalloc((size_t)p->tbl_depth * MT_NI_EW, 8);
  return v;
}

void mt_ni_env_free(mt_ni_env *v) {
  if (!v) return;
  for (int n = 0; n < v->s->n_nodes; n++) {
    free(v->in[n]);
    free(v->part[n]);
  }
  free(v->in);
  free(v->part);
  free(v->res);
  free(v->mem);
  free(v->src_first);
  free(v->src_count);
  free(v->src_k);
  free(v->src_off);
  free(v->src_rel);
  free(v->need_red);
  free(v->red_sent);
  free(v->image);
  free(v->msg);
  free(v->snd);
  free(v);
}

static void encode(const mt_ni_env *v, const mt_entry *en, uint64_t *w) {
  uint64_t tmp[MT_LAYOUT_MAX_WORDS];
  mt_layout_encode(v->ly, en, tmp);
  memset(w, 0, MT_NI_EW * 8);
  for (int k = 0; k < mt_layout_words(v->ly) && k < MT_NI_EW; k++) w[k] = tmp[k];
}

static void build_image(mt_ni_env *v) {
  const mt_entry *en = mt_node_entries(v->tb, v->node);
  int cnt = v->tb->count[v->node], f = v->run.fault, done = 0;
  mt_slot slots[MT_NI_MAX_C + 1];
  memset(v->image, 0, (size_t)v->p.tbl_depth * MT_NI_EW * 8);
  for (int i = 0; i < cnt; i++) {
    mt_entry x = en[i];
    if (!done && f == MT_NI_F_TBL_STEP && i > 0 && en[i - 1].step >= 2) {
      x.step = en[i - 1].step - 1;
      done = 1;
    }
    if (!done && f == MT_NI_F_TBL_PORT && x.has_parent && x.op != MT_OP_NOP) {
      x.parent.port = v->p.net_ports;
      done = 1;
    }
    if (!done && f == MT_NI_F_TBL_ENTRY && x.op == MT_OP_GATHER) {
      x.nchild = 0;
      done = 1;
    }
    (void)slots;
    encode(v, &x, v->image + (size_t)i * MT_NI_EW);
  }
  if (f == MT_NI_F_TBL_NOEND) {
    mt_entry nop;
    memset(&nop, 0, sizeof nop);
    nop.op = MT_OP_NOP;
    nop.step = en[cnt - 1].step;
    nop.size = 16;
    for (unsigned i = (unsigned)cnt; i < v->p.tbl_depth; i++) encode(v, &nop, v->image + (size_t)i * MT_NI_EW);
  } else encode(v, NULL, v->image + (size_t)cnt * MT_NI_EW);
}
/* The slot entry x sends to at k = -1 (a reduce's parent) or k = 0.. (a gather's k-th
 * child); NULL when x sends nothing there. */
static const mt_slot *sent_slot(const mt_entry *x, int k) {
  if (x->op == MT_OP_REDUCE && k < 0 && x->has_parent) return &x->parent;
  if (x->op == MT_OP_GATHER && k >= 0) return &x->child[k];
  return NULL;
}

mt_ni_env_run mt_ni_env_run_default(uint32_t seed, int dtype, int pkt_mode) {
  return (mt_ni_env_run){.seed = seed, .dtype = dtype, .pkt_mode = pkt_mode, .p_ready = 70, .lat_max = 6, .p_flit = 80, .p_drain = 60, .max_delay = 40, .wd_limit = 5000};
}


int mt_ni_env_begin(mt_ni_env *v, const mt_ni_env_run *run, mt_err *e) {
  const mt_sched *s = v->s;
  const mt_tables *tb = v->tb;
  int N = s->n_nodes, me = v->node;
  v->run = *run;
  v->rng = run->seed * 2654435761u + 12345u + (uint32_t)me * 7919u;
  if (!v->rng) v->rng = 1;
  for (int n = 0; n < N; n++) mt_ref_inputs(run->seed, n, run->dtype, v->in[n], v->nw);
  if (mt_ref_partials(s, tb, run->dtype, v->in, v->part, e)) return -1;
  if (mt_ref_result(s, tb, run->dtype, v->in, v->res, e)) return -1;
  memcpy(v->mem, v->in[me], v->nw * 4);
  v->cfg.dtype = (uint8_t)run->dtype;
  v->cfg.pkt_mode = (uint8_t)run->pkt_mode;
  v->cfg.wd_limit = run->wd_limit;
  v->cfg.nflows = (uint16_t)(run->fault == MT_NI_F_TBL_FLOW ? s->n_flows - 1 : s->n_flows);
  /* incoming messages, per source in table order */
  free(v->msg);
  v->msg = NULL;
  v->nmsg = 0;
  int cap = 0;
  for (int m = 0; m < N; m++) {
    v->src_first[m] = v->nmsg;
    v->src_count[m] = 0;
    v->src_k[m] = 0;
    v->src_off[m] = 0;
    v->src_rel[m] = v->cyc + rnd(v, run->max_delay + 1);
    if (m == me) continue;
    const mt_entry *en = mt_node_entries(tb, m);
    for (int i = 0; i < tb->count[m]; i++) {
      const mt_entry *x = &en[i];
      for (int k = -1; k < x->nchild; k++) {
        const mt_slot *sl = sent_slot(x, k);
        if (!sl || sl->node != me) continue;
        if (v->nmsg == cap) {
          cap = cap ? 2 * cap : 64;
          v->msg = mt_xrealloc(v->msg, (size_t)cap * sizeof(emsg));
        }
        emsg *g = &v->msg[v->nmsg++];
        memset(g, 0, sizeof *g);
        g->src = m;
        g->op = x->op;
        g->flow = x->flow;
        g->step = x->step;
        g->sport = sl->port;
        g->ej = sl->eject;
        g->routed = sl->port == MT_PORT_ROUTED;
        g->addr = (uint32_t)x->addr;
        g->size = (uint32_t)x->size;
        v->src_count[m]++;
      }
    }
  }
  /* faults on incoming messages: the first reduce message (the last message for DROP) */
  int fm = -1;
  for (int i = 0; i < v->nmsg; i++)
    if (v->msg[i].op == MT_OP_REDUCE) {
      fm = i;
      break;
    }
  if (run->fault == MT_NI_F_DROP && v->nmsg) v->msg[v->nmsg - 1].drop = 1;
  if (fm >= 0 && run->fault == MT_NI_F_RX_FLOW) v->msg[fm].flow = s->n_flows;
  if (fm >= 0 && run->fault == MT_NI_F_RX_SRC) v->msg[fm].src = me;
  if (fm >= 0 && run->fault == MT_NI_F_RX_RANGE) v->msg[fm].addr += 4;
  /* messages this node sends */
  free(v->snd);
  v->snd = NULL;
  v->nsnd = 0;
  cap = 0;
  memset(v->need_red, 0, (size_t)s->n_flows);
  memset(v->red_sent, 0, (size_t)s->n_flows);
  const mt_entry *en = mt_node_entries(tb, me);
  for (int i = 0; i < tb->count[me]; i++) {
    const mt_entry *x = &en[i];
    for (int k = -1; k < x->nchild; k++) {
      const mt_slot *sl = sent_slot(x, k);
      if (!sl) continue;
      if (v->nsnd == cap) {
        cap = cap ? 2 * cap : 64;
        v->snd = mt_xrealloc(v->snd, (size_t)cap * sizeof(esend));
      }
      esend *d = &v->snd[v->nsnd++];
      d->op = x->op;
      d->flow = x->flow;
      d->dst = sl->node;
      d->port = sl->port;
      d->ej = sl->eject;
      d->step = x->step;
      d->addr = (uint32_t)x->addr;
      d->size = (uint32_t)x->size;
      d->sent = 0;
      d->pm = run->pkt_mode || sl->port == MT_PORT_ROUTED;
      if (x->op == MT_OP_REDUCE) v->need_red[x->flow] = 1;
    }
  }
  for (int i = 0; i < MAXU; i++) v->u[i].act = 0;
  memset(v->mon, 0, sizeof v->mon);
  v->finished = 0;
  v->since_start = 0;
  v->phase = v->table_written ? 1 : 0;
  v->wr_i = 0;
  if (!v->table_written) build_image(v);
  for (unsigned l = 0; l < v->p.nlocal; l++)
    for (unsigned c = 0; c < v->p.num_vcs; c++)
      if (!v->cyc) v->ecred[l][c] = (int)v->p.ej_depth;
  return 0;
}

void mt_ni_env_comb(mt_ni_env *v, mt_ni_in *in) {
  *in = v->cfg;
  in->start = v->phase == 1;
  if (v->phase == 0) {
    in->tbl_we = 1;
    in->tbl_waddr = v->wr_i;
    memcpy(in->tbl_wdata, v->image + (size_t)v->wr_i * MT_NI_EW, MT_NI_EW * 8);
  }
  for (unsigned l = 0; l < v->p.nlocal; l++) {
    in->ej_valid[l] = v->ejv_q[l];
    in->ej_flit[l] = v->ejf_q[l];
    for (unsigned c = 0; c < v->p.num_vcs; c++) in->inj_credit[l][c] = v->icred_q[l][c];
  }
  for (unsigned m = 0; m < v->nmp; m++) {
    in->mem_req_ready[m] = v->mp[m].ready_q;
    in->mem_rsp_valid[m] = 0;
    if (v->mp[m].rsp_cnt && v->mp[m].rsp[v->mp[m].rsp_rd].due <= v->cyc) {
      in->mem_rsp_valid[m] = 1;
      memcpy(in->mem_rsp_data[m], v->mp[m].rsp[v->mp[m].rsp_rd].d, sizeof in->mem_rsp_data[m]);
    }
  }
}

static void envfail(mt_ni_env *v, const char *what, long a, long b) {
  if (v->env_err < 20) fprintf(stderr, "ENV node %d cycle %llu: %s (%ld, %ld)\n", v->node, (unsigned long long)v->cyc, what, a, b);
  v->env_err++;
}

/* flit j of unit u (0 = head), as the receiving NI sees it */
static mt_flit unit_flit(mt_ni_env *v, const eunit *u, unsigned vc) {
  const emsg *g = &v->msg[u->msg];
  mt_flit f;
  mt_flit_clear(&f);
  unsigned ty;
  if (u->j == 0) {
    mt_head_info h;
    memset(&h, 0, sizeof h);
    h.dst = (unsigned)v->node;
    h.src = (unsigned)g->src;
    h.flow = (unsigned)g->flow;
    h.op = (unsigned)g->op;
    h.step = (unsigned)g->step;
    h.addr = u->addr;
    h.len = u->len;
    h.last = (unsigned)u->last;
    if (u->normal) {
      h.next = 0;
      h.eject = (unsigned)g->ej;
      ty = MT_FT_HEAD;
    } else {
      h.next = (unsigned)g->ej;
      h.eject = (unsigned)g->sport;
      ty = MT_FT_AR_HEAD;
    }
    mt_hd_pack(&f, &h);
  } else {
    uint32_t q = u->j - 1;
    const uint32_t *src = g->op == MT_OP_REDUCE ? v->part[g->src] : v->res;
    uint32_t w0 = (u->addr - 0) / 4 + q * v->lanes, wend = (u->addr + u->len) / 4;
    if (v->run.fault == MT_NI_F_RX_RANGE) w0 = (u->addr - 4) / 4 + q * v->lanes; /* data of the real chunk */
    for (unsigned k = 0; k < v->lanes; k++)
      if (w0 + k < wend && w0 + k < v->nw) f.w[k] = src[w0 + k];
    int last = q + 1 == u->nfl;
    if (u->normal) ty = last ? MT_FT_TAIL : MT_FT_BODY;
    else ty = last ? MT_FT_AR_TAIL : ((q + 1) % v->p.subpkt_flits == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
    if (v->run.fault == MT_NI_F_RX_FRAME && u->msg == 0 && q == 0) ty = u->normal ? MT_FT_HEAD : MT_FT_AR_HEAD;
  }
  mt_flit_set_type(&f, v->p.payload_w, ty);
  mt_flit_set_vc(&f, v->p.payload_w, v->p.num_vcs, vc);
  return f;
}

static void monitor(mt_ni_env *v, unsigned l, const mt_flit *f) {
  emon *m = &v->mon[l];
  unsigned pw = v->p.payload_w, ty = mt_flit_type(f, pw);
  if (!m->in_unit) {
    if (!mt_ft_is_head(ty) || ty == MT_FT_HEADTAIL) {
      envfail(v, "injected flit outside a message", l, ty);
      return;
    }
    mt_hd_unpack(f, &m->h);
    m->normal = mt_ft_is_normal(ty);
    m->j = 0;
    m->in_unit = 1;
    m->nfl = (m->h.len + v->fb - 1) / v->fb;
    m->idx = -1;
    for (int i = 0; i < v->nsnd; i++) {
      esend *d = &v->snd[i];
      if (d->op == (int)m->h.op && d->flow == (int)m->h.flow && d->dst == (int)m->h.dst) {
        m->idx = i;
        break;
      }
    }
    if (m->idx < 0) {
      envfail(v, "injected message not in the tables (op, flow)", (long)m->h.op, (long)m->h.flow);
      v->hdr_bad++;
      return;
    }
    esend *d = &v->snd[m->idx];
    int ok = m->h.src == (unsigned)v->node && m->h.eject == (unsigned)d->ej && m->h.step == (unsigned)d->step &&
      m->normal == d->pm;
    if (d->pm) ok = ok && m->h.next == 0 && m->h.addr >= d->addr && m->h.addr + m->h.len <= d->addr + d->size &&
      m->h.len <= v->p.pkt_bytes && m->h.len > 0 && m->h.last == (m->h.addr + m->h.len == d->addr + d->size);
    else ok = ok && m->h.next == (unsigned)d->port && m->h.addr == d->addr && m->h.len == d->size && m->h.last == 1;
    if (!ok) {
      envfail(v, "injected head fields wrong (op, flow)", (long)m->h.op, (long)m->h.flow);
      v->hdr_bad++;
    }
    return;
  }
  /* payload flit */
  if (mt_ft_is_head(ty) || mt_ft_is_normal(ty) != m->normal) {
    envfail(v, "head or wrong class inside a message", l, ty);
    m->in_unit = 0;
    return;
  }
  int last = m->j + 1 == m->nfl;
  unsigned want = m->normal ? (last ? MT_FT_TAIL : MT_FT_BODY)
                            : (last ? MT_FT_AR_TAIL : ((m->j + 1) % v->p.subpkt_flits == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY));
  if (ty != want) envfail(v, "payload flit type", (long)ty, (long)want);
  if (m->idx >= 0) {
    esend *d = &v->snd[m->idx];
    const uint32_t *src = d->op == MT_OP_REDUCE ? v->part[v->node] : v->res;
    uint32_t w0 = m->h.addr / 4 + m->j * v->lanes, wend = (m->h.addr + m->h.len) / 4;
    for (unsigned k = 0; k < v->lanes; k++) {
      uint32_t want_w = (w0 + k < wend && w0 + k < v->nw) ? src[w0 + k] : 0;
      if (f->w[k] != want_w) {
        if (v->data_bad < 5) fprintf(stderr, "ENV node %d: injected data op %d flow %d word %u: %08x, want %08x\n",
                                     v->node, d->op, d->flow, w0 + k, f->w[k], want_w);
        v->data_bad++;
      }
    }
  }
  m->j++;
  if (mt_ft_is_tail(ty) || last) {
    m->in_unit = 0;
    if (m->idx >= 0) {
      esend *d = &v->snd[m->idx];
      d->sent += m->h.len;
      if (d->op == MT_OP_REDUCE && d->sent == d->size) v->red_sent[d->flow] = 1;
    }
  }
}

void mt_ni_env_edge(mt_ni_env *v, const mt_ni_out *o) {
  const unsigned L = v->p.nlocal, NV = v->p.num_vcs;
  v->last_out = *o;
  /* ---- processor ---- */
  if (v->phase == 0) {
    v->wr_i++;
    unsigned need = v->run.fault == MT_NI_F_TBL_NOEND ? v->p.tbl_depth : (unsigned)v->tb->count[v->node] + 1;
    if (v->wr_i >= need) {
      v->phase = 1;
      v->table_written = 1;
    }
  } else if (v->phase == 1) {
    v->phase = 2;
    v->since_start = 0;
  } else if (v->phase == 2) {
    v->since_start++;
    if (v->since_start >= 2 && (o->done || o->err)) {
      v->phase = 3;
      v->finished = 1;
    }
  }
  /* ---- memory ---- */
  /* ports in index order: a read sees a write accepted at the same edge on a lower port */
  for (unsigned mi = 0; mi < v->nmp; mi++) {
    emport *q = &v->mp[mi];
    if (q->rsp_cnt && q->rsp[q->rsp_rd].due <= v->cyc) {
      q->rsp_rd = (q->rsp_rd + 1) % RSPQ;
      q->rsp_cnt--;
    }
    if (!(o->mem_req_valid[mi] && q->ready_q)) continue;
    uint32_t a = o->mem_req_addr[mi];
    if (a & 3u) envfail(v, "unaligned memory address", a, 0);
    uint32_t w0 = a / 4;
    if (o->mem_req_we[mi]) {
      for (unsigned k = 0; k < v->lanes; k++)
        if ((o->mem_req_be[mi] >> k) & 1u) {
          if (w0 + k < v->nw) v->mem[w0 + k] = o->mem_req_wdata[mi][k];
          else envfail(v, "write beyond the buffer", a, k);
        }
    } else {
      if (q->rsp_cnt == RSPQ) envfail(v, "response queue full", 0, 0);
      else {
        unsigned wi = (q->rsp_rd + q->rsp_cnt) % RSPQ;
        memset(q->rsp[wi].d, 0, sizeof q->rsp[wi].d);
        for (unsigned k = 0; k < v->lanes; k++)
          if ((o->mem_req_be[mi] >> k) & 1u) {
            if (w0 + k < v->nw) q->rsp[wi].d[k] = v->mem[w0 + k];
            else envfail(v, "read beyond the buffer", a, k);
          }
        uint64_t due = v->cyc + rnd(v, v->run.lat_max);
        if (q->rsp_cnt && due <= q->last_due) due = q->last_due + 1;
        if (due <= v->cyc) due = v->cyc + 1;
        q->rsp[wi].due = due;
        q->last_due = due;
        q->rsp_cnt++;
      }
    }
  }
  for (unsigned mi = 0; mi < v->nmp; mi++) v->mp[mi].ready_q = (uint8_t)pct(v, v->run.p_ready);
  /* ---- injection side: router input buffers ---- */
  for (unsigned l = 0; l < L; l++) {
    for (unsigned c = 0; c < NV; c++) v->icred_q[l][c] = 0;
    if (o->inj_valid[l]) {
      unsigned c = mt_flit_vc(&o->inj_flit[l], v->p.payload_w, NV);
      if (c >= NV || v->occ[l][c] >= v->p.vc_depth) envfail(v, "injection without a credit", l, c);
      else v->occ[l][c]++;
      monitor(v, l, &o->inj_flit[l]);
    }
    for (unsigned c = 0; c < NV; c++)
      if (v->occ[l][c] && pct(v, v->run.p_drain)) {
        v->occ[l][c]--;
        v->icred_q[l][c] = 1;
      }
  }
  /* ---- ejection side ---- */
  for (unsigned l = 0; l < L; l++)
    for (unsigned c = 0; c < NV; c++)
      if (o->ej_credit[l][c]) {
        v->ecred[l][c]++;
        if (v->ecred[l][c] > (int)v->p.ej_depth) envfail(v, "credit beyond the depth", l, c);
      }
  /* start units: the next unit of every source when released and a VC is free */
  if (v->phase >= 2) {
    /* messages start in step order: none before every message of an earlier step started */
    int min_step = 1 << 30;
    for (int m = 0; m < v->s->n_nodes; m++) {
      while (v->src_k[m] < v->src_count[m] && v->msg[v->src_first[m] + v->src_k[m]].drop) v->src_k[m]++;
      if (v->src_k[m] < v->src_count[m] && v->msg[v->src_first[m] + v->src_k[m]].step < min_step)
        min_step = v->msg[v->src_first[m] + v->src_k[m]].step;
    }
    for (int m = 0; m < v->s->n_nodes; m++) {
      if (v->src_k[m] >= v->src_count[m] || v->src_rel[m] > v->cyc) continue;
      int mi = v->src_first[m] + v->src_k[m];
      emsg *g = &v->msg[mi];
      if (g->step > min_step) continue;
      if (g->op == MT_OP_GATHER && g->flow < v->s->n_flows && v->need_red[g->flow] && !v->red_sent[g->flow]) continue;
      unsigned l = (unsigned)g->ej, free_vc[MT_NI_MAX_VCS], nf = 0;
      for (unsigned c = 0; c < NV; c++)
        if (!v->u[l * NV + c].act) free_vc[nf++] = c;
      if (!nf) continue;
      unsigned c = free_vc[rnd(v, nf)];
      eunit *u = &v->u[l * NV + c];
      int normal = v->run.pkt_mode || g->routed;
      uint32_t off = v->src_off[m], len = normal ? (g->size - off < v->p.pkt_bytes ? g->size - off : v->p.pkt_bytes) : g->size;
      u->act = 1;
      u->msg = mi;
      u->normal = normal;
      u->addr = g->addr + off;
      u->len = len;
      u->j = 0;
      u->nfl = (len + v->fb - 1) / v->fb;
      u->last = off + len >= g->size;
      if (u->last) {
        v->src_k[m]++;
        v->src_off[m] = 0;
      } else v->src_off[m] = off + len;
      v->src_rel[m] = v->cyc + 1 + rnd(v, v->run.max_delay + 1);
    }
  }
  /* one flit per port per cycle */
  for (unsigned l = 0; l < L; l++) {
    v->ejv_q[l] = 0;
    mt_flit_clear(&v->ejf_q[l]);
    int ovf = v->run.fault == MT_NI_F_EJ_OVF;
    if (!ovf && !pct(v, v->run.p_flit)) continue;
    for (unsigned k = 0; k < NV; k++) {
      unsigned c = (v->rr[l] + k) % NV;
      eunit *u = &v->u[l * NV + c];
      if (!u->act || (!ovf && v->ecred[l][c] <= 0)) continue;
      v->ejf_q[l] = unit_flit(v, u, c);
      v->ejv_q[l] = 1;
      v->ecred[l][c]--;
      if (u->j == u->nfl) u->act = 0;
      else u->j++;
      v->rr[l] = c + 1;
      break;
    }
  }
  v->cyc++;
}

int mt_ni_env_finished(const mt_ni_env *v) { return v->finished; }
uint64_t mt_ni_env_cycle(const mt_ni_env *v) { return v->cyc; }
unsigned mt_ni_env_env_errors(const mt_ni_env *v) { return v->env_err + v->data_bad + v->hdr_bad; }

unsigned mt_ni_env_check(mt_ni_env *v, const mt_ni_out *last, const char *tag, unsigned *pass) {
  unsigned fail = 0;
  (void)last;
  const mt_ni_out *o = &v->last_out;
  if (v->run.fault != MT_NI_F_NONE) {
    int want = mt_ni_fault_code(v->run.fault);
    if (o->err && o->err_code == want) (*pass)++;
    else {
      fail++;
      fprintf(stderr, "%s: fault %s: err=%d code=%d (%s), want code %d\n", tag, mt_ni_fault_name(v->run.fault), o->err, o->err_code, mt_ni_err_name(o->err_code), want);
    }
    return fail;
  }
  if (!o->done || o->err) {
    fail++;
    fprintf(stderr, "%s: not done: done=%d err=%d code=%d (%s) idx=%u step=%u\n", tag, o->done, o->err, o->err_code, mt_ni_err_name(o->err_code), o->err_idx, o->step);
  } else (*pass)++;
  uint64_t bad = 0;
  for (uint64_t i = 0; i < v->nw; i++)
    if (v->mem[i] != v->res[i]) {
      if (bad < 5) fprintf(stderr, "%s: buffer word %llu = %08x, mt_ref_result %08x\n", tag, (unsigned long long)i, v->mem[i], v->res[i]);
      bad++;
    }
  if (bad) {
    fail++;
    fprintf(stderr, "%s: %llu buffer words differ from mt_ref_result\n", tag, (unsigned long long)bad);
  } else (*pass)++;
  unsigned ns = 0;
  for (int i = 0; i < v->nsnd; i++)
    if (v->snd[i].sent != v->snd[i].size) {
      if (ns < 5) fprintf(stderr, "%s: send %d (op %d flow %d -> %d) %u of %u bytes\n", tag, i, v->snd[i].op, v->snd[i].flow, v->snd[i].dst, v->snd[i].sent, v->snd[i].size);
      ns++;
    }
  if (ns) fail++;
  else (*pass)++;
  unsigned nd = 0;
  for (int m = 0; m < v->s->n_nodes; m++)
    if (v->src_k[m] < v->src_count[m]) nd++;
  for (int i = 0; i < MAXU; i++)
    if (v->u[i].act) nd++;
  if (nd) {
    fail++;
    fprintf(stderr, "%s: %u incoming messages not delivered\n", tag, nd);
  } else (*pass)++;
  unsigned ee = mt_ni_env_env_errors(v);
  if (ee) {
    fail++;
    fprintf(stderr, "%s: %u environment/protocol errors\n", tag, ee);
  } else (*pass)++;
  return fail;
}

void mt_ni_direct_flit(const mt_ni_params *p, unsigned src, unsigned flow, uint32_t addr, uint32_t nfl, unsigned port, uint32_t pos,
                       const uint32_t *words, mt_flit *f) {
  mt_flit_clear(f);
  if (pos == 0) {
    mt_head_info h;
    memset(&h, 0, sizeof h);
    h.src = src;
    h.flow = flow;
    h.op = MT_OP_REDUCE;
    h.step = 1;
    h.addr = addr;
    h.len = nfl * (p->payload_w / 8);
    h.last = 1;
    h.next = port;
    mt_hd_pack(f, &h);
    mt_flit_set_type(f, p->payload_w, MT_FT_AR_HEAD);
  } else {
    const uint32_t q = pos - 1;
    for (unsigned k = 0; k < p->payload_w / 32; k++) f->w[k] = words[k];
    mt_flit_set_type(f, p->payload_w, q + 1 == nfl ? MT_FT_AR_TAIL : ((q + 1) % p->subpkt_flits == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY));
  }
  mt_flit_set_vc(f, p->payload_w, p->num_vcs, 0);
}
