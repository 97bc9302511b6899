/* SPDX-License-Identifier: Apache-2.0
 * mt_flow: units and NI costs, and front end 1: an mt_sched run with the NI's issue rules
 * (docs/reference/ni.md "Issue"): per node the table entries in step order; the timestep advances when
 * every packetiser is idle (all messages issued are injected); a Reduce entry waits until
 * all its children's contributions arrived, a Gather for the parent's data (the root's for
 * its own Reduce); a send needs its packetiser (port mod L; routed ones the lowest idle);
 * a NOP holds the node for the lockstep estimate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flow/mt_flow.h"

void mt_flow_params_ns(mt_flow_params *p) {
  memset(p, 0, sizeof *p);
  p->units = MT_FLOW_NS;
}

/* Calibrated on single messages of `multitree sim` (docs/reference/flowsim.md "NI costs in cycles"): a 1-hop
 * message's last byte is reduced link_lat + 12.7 cycles after its last flit left (3 of them
 * the router, the rest the NI); a VC's credit loop is 2 link_lat + 5 cycles, so with
 * vc_depth flits per VC a message moves at most vc_depth / (2 link_lat + 5) flits a cycle. */
#define MT_FLOW_HOP_EXTRA 3.0
#define MT_FLOW_NI_EXTRA 9.7
#define MT_FLOW_RTT_EXTRA 5.0

void mt_flow_params_cycles(mt_flow_params *p, int flit_bytes, int link_lat, int vc_depth, int pkt_bytes, int pkt_mode, int local_ports) {
  memset(p, 0, sizeof *p);
  p->units = MT_FLOW_CYCLES;
  p->link_bpu = flit_bytes;
  p->link_lat = link_lat;
  p->hop_extra = MT_FLOW_HOP_EXTRA;
  p->ni_extra = MT_FLOW_NI_EXTRA;
  const double rtt = 2.0 * link_lat + MT_FLOW_RTT_EXTRA, fr = (double)vc_depth / rtt;
  p->msg_cap = fr < 1.0 ? fr * flit_bytes : 0;
  /* packets of pf flits (with the head) under virtual cut-through: floor(vc_depth / pf) of
   * them fit a VC, a window of fit * pf flits per rtt - 2 cycles (fitted: 5 flits per 7
   * cycles measured in `small`, MultiTree packets on torus:4x4, docs/reference/flowsim.md) */
  const int pf = pkt_bytes / (flit_bytes > 0 ? flit_bytes : 1) + 1, fit = pf > 0 ? vc_depth / pf : 0;
  const double pr = fit > 0 ? (double)(fit * pf) / (rtt - 2.0) : 1.0 / rtt;
  p->pkt_cap = pr < 1.0 ? pr * flit_bytes : 0;
  p->flit_bytes = flit_bytes;
  p->pkt_bytes = pkt_bytes;
  p->pkt_mode = pkt_mode;
  p->lockstep = 1;
  p->local_ports = local_ports;
}

int mt_flow_topo_has_bw(const mt_topo *t) {
  for (int l = 0; l < t->n_links; l++)
    if (!(t->links[l].bw > 0)) return 0;
  return t->n_links > 0;
}

/* Per-link capacity (bytes per unit: mult parallel links make one wider pipe) and latency. */
int mt_flow_links(const mt_topo *t, const mt_flow_params *p, double *cap, double *lat, mt_err *e) {
  for (int l = 0; l < t->n_links; l++) {
    const mt_edge *x = &t->links[l];
    const int m = x->mult > 0 ? x->mult : 1;
    if (p->units == MT_FLOW_NS) {
      if (!(x->bw > 0))
        return mt_fail(e, "%s: link %d (%d -> %d) has no bandwidth; time in ns needs every link's bw (dims:, dimsfile:, themis:)", t->spec, l,
                       x->src, x->dst);
      cap[l] = m * x->bw;
      lat[l] = x->lat;
    } else {
      cap[l] = m * p->link_bpu;
      lat[l] = p->link_lat + p->hop_extra;
    }
  }
  return 0;
}

/* Bytes on the wire for a message of `size` payload bytes: header flits in cycles. */
double mt_flow_wire(const mt_flow_params *p, uint64_t size, int packets) {
  if (p->units != MT_FLOW_CYCLES || p->flit_bytes <= 0) return (double)size;
  const uint64_t fb = (uint64_t)p->flit_bytes, flits = (size + fb - 1) / fb;
  const uint64_t heads = packets && p->pkt_bytes > 0 ? (size + (uint64_t)p->pkt_bytes - 1) / (uint64_t)p->pkt_bytes : 1;
  return (double)((flits + heads) * fb);
}

void mt_flow_finish(const mt_topo *t, const double *cap, const double *lbytes, uint64_t bytes, mt_flow_result *r, double *link_util) {
  double tot = 0;
  r->util_mean = r->util_max = 0;
  double dcap[MT_FLOW_MAX_DIMS] = {0}, db[MT_FLOW_MAX_DIMS] = {0};
  r->ndims = 0;
  for (int l = 0; l < t->n_links; l++) {
    const mt_edge *x = &t->links[l];
    const double u = r->time > 0 ? lbytes[l] / (r->time * cap[l]) : 0;
    if (link_util) link_util[l] = u;
    tot += u;
    if (u > r->util_max) r->util_max = u;
    if (x->dim >= 0 && x->dim < MT_FLOW_MAX_DIMS) {
      dcap[x->dim] += cap[l];
      db[x->dim] += lbytes[l];
      if (x->dim + 1 > r->ndims) r->ndims = x->dim + 1;
    }
  }
  if (t->n_links) r->util_mean = tot / t->n_links;
  for (int d = 0; d < r->ndims; d++) r->dim_util[d] = r->time > 0 && dcap[d] > 0 ? db[d] / (r->time * dcap[d]) : 0;
  mt_flow_bound(t, cap, bytes, r);
}

void mt_flow_bound(const mt_topo *t, const double *cap, uint64_t bytes, mt_flow_result *r) {
  mt_err e = {{0}};
  if (mt_bound_rated(t, bytes, 1.0, cap, &r->bounds, &e)) memset(&r->bounds, 0, sizeof r->bounds); /* a node without links: no run */
  r->bound = r->bounds.bound;
}

/* ---- front end 1 ---- */
typedef struct {
  int step, nchild, send0, nsend, flow, ch0; /* ch0: its children's node ids in fe.chn (Reduce) */
  uint8_t op, has_parent;
  uint64_t size; /* NOP: the step's largest chunk */
} fe_ent;

typedef struct {
  int e0, ne, hp, ts, gi, marked;
  double lock_until;
} fe_node;

enum { EV_ARRIVE = 1,
       EV_WAKE = 2,
       EV_STAGE = 3 };

typedef struct {
  const mt_sched *s;
  const mt_flow_params *p;
  mt_flow_eng *g;
  int N, F, L;
  fe_ent *ent;
  int *send; /* transfer ids in issue order */
  fe_node *nd;
  uint16_t *cnt;     /* [N*F] children arrived */
  uint8_t *fl;       /* [N*F] 1: gather received, 2: reduce done */
  double *plat;      /* [nx] path latency (+ NI), set when the transfer is sent */
  const double *lat; /* [links] a link's latency */
  int *mark, nmark;
  int *pl, plcap;
  uint8_t *pc;            /* [plcap] VC class per hop (head-of-line rule) */
  int hol;                /* the rule is on: VCs per class */
  int *chn, nchn, capchn; /* Reduce entries' children, in the table's (reduction) order */
  int *rent;              /* [N*F] node's Reduce entry of the flow (index into ent), or -1 */
  int *wx, *ws, nw, capw; /* routed reduce transfers not due yet, and their streams */
  int *curx;              /* [N*L] the transfer each stream (packetiser) sends, -1 none */
  double *lastp;          /* [N] the last arrival at the node (its NI's progress) */
  uint8_t *staging;       /* [N] the node's NI stager is on: it takes not-due messages */
  double last;
} fe;

#define FL_GRX 1
#define FL_RDONE 2

static int cmp_x(const void *a, const void *b, const mt_sched *s) {
  const mt_xfer *x = &s->x[*(const int *)a], *y = &s->x[*(const int *)b];
  if (x->step != y->step) return x->step < y->step ? -1 : 1;
  if (x->flow != y->flow) return x->flow < y->flow ? -1 : 1;
  if (x->op != y->op) return x->op < y->op ? -1 : 1;
  return *(const int *)a < *(const int *)b ? -1 : *(const int *)a > *(const int *)b;
}
static const mt_sched *cmp_s;
static int cmp_x_(const void *a, const void *b) { return cmp_x(a, b, cmp_s); }

/* Node n's transfer to `dst` of (flow, op, step) in its sorted list, or -1. */
static int find_send(const mt_sched *s, const int *lst, int n, int flow, int op, int step, int dst) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    const mt_xfer *x = &s->x[lst[mid]];
    int c = x->step != step ? (x->step < step ? -1 : 1) : x->flow != flow ? (x->flow < flow ? -1 : 1)
      : x->op != op                                                       ? (x->op < op ? -1 : 1)
                                                                          : 0;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  for (int i = lo; i < n; i++) {
    const mt_xfer *x = &s->x[lst[i]];
    if (x->step != step || x->flow != flow || x->op != op) break;
    if (x->dst == dst) return lst[i];
  }
  return -1;
}

static int build(fe *fs, mt_err *e) {
  const mt_sched *s = fs->s;
  const int N = s->n_nodes;
  int *off = mt_xcalloc((size_t)N + 1, sizeof(int)), *lst = mt_xcalloc((size_t)s->nx + 1, sizeof(int)), *fill = mt_xcalloc((size_t)N, sizeof(int));
  for (int i = 0; i < s->nx; i++) off[s->x[i].src + 1]++;
  for (int n = 0; n < N; n++) off[n + 1] += off[n];
  for (int i = 0; i < s->nx; i++) lst[off[s->x[i].src] + fill[s->x[i].src]++] = i;
  cmp_s = s;
  for (int n = 0; n < N; n++) qsort(lst + off[n], (size_t)(off[n + 1] - off[n]), sizeof(int), cmp_x_);
  free(fill);
  size_t cape = (size_t)s->nx + (size_t)s->n_flows + (size_t)N * 4 + 16, ne = 0, ns = 0;
  fs->ent = mt_xcalloc(cape, sizeof(fe_ent));
  fs->send = mt_xcalloc((size_t)s->nx + 1, sizeof(int));
  mt_tables_gen *tg = mt_tables_gen_new(s, fs->L);
  int rc = 0;
  for (int n = 0; n < N && !rc; n++) {
    const mt_entry *en;
    int cnt;
    if (mt_tables_gen_node(tg, n, &en, &cnt, e)) {
      rc = -1;
      break;
    }
    fs->nd[n].e0 = (int)ne;
    fs->nd[n].ne = cnt;
    for (int i = 0; i < cnt && !rc; i++) {
      if (ne == cape) {
        cape *= 2;
        fs->ent = mt_xrealloc(fs->ent, cape * sizeof(fe_ent));
      }
      fe_ent *q = &fs->ent[ne++];
      memset(q, 0, sizeof *q);
      q->op = (uint8_t)en[i].op;
      q->flow = en[i].flow;
      q->step = en[i].step;
      q->has_parent = (uint8_t)en[i].has_parent;
      q->size = en[i].size;
      q->send0 = (int)ns;
      if (en[i].op == MT_OP_REDUCE) {
        q->nchild = en[i].nchild;
        if (fs->hol) {
          fs->rent[(size_t)n * (size_t)fs->F + (size_t)en[i].flow] = (int)(ne - 1);
          if (fs->nchn + en[i].nchild > fs->capchn) {
            fs->capchn = 2 * (fs->nchn + en[i].nchild) + 64;
            fs->chn = mt_xrealloc(fs->chn, (size_t)fs->capchn * sizeof(int));
          }
          q->ch0 = fs->nchn;
          for (int c = 0; c < en[i].nchild; c++) fs->chn[fs->nchn++] = en[i].child[c].node;
        }
        if (en[i].has_parent) {
          int x = find_send(s, lst + off[n], off[n + 1] - off[n], en[i].flow, MT_OP_REDUCE, en[i].step, en[i].parent.node);
          if (x < 0) rc = mt_fail(e, "node %d: no reduce transfer of flow %d to %d at step %d", n, en[i].flow, en[i].parent.node, en[i].step);
          else fs->send[ns++] = x;
        }
      } else if (en[i].op == MT_OP_GATHER) {
        for (int c = 0; c < en[i].nchild && !rc; c++) {
          int x = find_send(s, lst + off[n], off[n + 1] - off[n], en[i].flow, MT_OP_GATHER, en[i].step, en[i].child[c].node);
          if (x < 0) rc = mt_fail(e, "node %d: no gather transfer of flow %d to %d at step %d", n, en[i].flow, en[i].child[c].node, en[i].step);
          else fs->send[ns++] = x;
        }
      }
      q->nsend = (int)ns - q->send0;
    }
  }
  mt_tables_gen_free(tg);
  free(off);
  free(lst);
  return rc;
}

static void mark(fe *fs, int n) {
  if (!fs->nd[n].marked) {
    fs->nd[n].marked = 1;
    fs->mark[fs->nmark++] = n;
  }
}

/* The packetiser a transfer goes out by: port mod L, or for a routed one the lowest idle
 * (-1: none idle, or its own is busy). */
static int packetiser(fe *fs, int n, const mt_xfer *x) {
  const mt_sched *s = fs->s;
  if (x->multihop) {
    for (int q = 0; q < fs->L; q++)
      if (!mt_flow_eng_busy(fs->g, n * fs->L + q)) return q;
    return -1;
  }
  int q = s->topo->links[MT_XLINK(s, x, 0)].src_port % fs->L;
  return mt_flow_eng_busy(fs->g, n * fs->L + q) ? -1 : q;
}

static void send_x(fe *fs, int n, int q, int xi) {
  const mt_sched *s = fs->s;
  const mt_xfer *x = &s->x[xi];
  if (x->path_len > fs->plcap) {
    fs->plcap = x->path_len;
    fs->pl = mt_xrealloc(fs->pl, (size_t)fs->plcap * sizeof(int));
    fs->pc = mt_xrealloc(fs->pc, (size_t)fs->plcap);
  }
  const mt_edge *lk = s->topo->links;
  mt_sched_path_links(s, x, fs->pl); /* decoded once per send: paths may be coded (mt_sched.h) */
  double a = fs->p->units == MT_FLOW_CYCLES ? fs->p->ni_extra : 0;
  for (int i = 0; i < x->path_len; i++) {
    const int l = fs->pl[i];
    a += fs->lat[l];
    /* the router's dateline class (docs/reference/router.md): 1 on the wrap link and after it in the
     * same dimension, else 0; a mesh has one class */
    fs->pc[i] = s->topo->kind == MT_TOPO_TORUS && (lk[l].wrap || (i > 0 && fs->pc[i - 1] && lk[fs->pl[i - 1]].dim == lk[l].dim));
  }
  const int pk = fs->p->pkt_mode || x->multihop;
  const double w = mt_flow_wire(fs->p, s->chunk[x->flow].size, pk), cap = pk ? fs->p->pkt_cap : fs->p->msg_cap;
  mt_flow_eng_start_pkt(fs->g, n * fs->L + q, fs->pl, x->path_len, w, cap > 0 ? cap : INFINITY, xi, pk && fs->hol ? fs->pc : NULL);
  fs->curx[n * fs->L + q] = xi;
  fs->plat[xi] = a;
}

/* In-order reduction (docs/reference/ni.md "Receive path"): the receiver's NI takes a reduce message
 * only from the next child of its Reduce entry's list; a routed one sent earlier waits in
 * the network (mt_flow_eng_stall). Its position in that list, or -1. */
static int child_pos(const fe *fs, const mt_xfer *x) {
  const int e = fs->rent[(size_t)x->dst * (size_t)fs->F + (size_t)x->flow];
  if (e < 0) return -1;
  for (int c = 0; c < fs->ent[e].nchild; c++)
    if (fs->chn[fs->ent[e].ch0 + c] == x->src) return c;
  return -1;
}

static void send_due(fe *fs, int n, int q, int xi) {
  send_x(fs, n, q, xi);
  const mt_xfer *x = &fs->s->x[xi];
  if (!fs->hol || !x->multihop || x->op != MT_OP_REDUCE) return;
  const int pos = child_pos(fs, x);
  if (pos <= (int)fs->cnt[(size_t)x->dst * (size_t)fs->F + (size_t)x->flow] || fs->staging[x->dst]) return;
  mt_flow_eng_stall(fs->g, n * fs->L + q, 1);
  if (fs->p->stage_after > 0) mt_flow_eng_at(fs->g, mt_flow_eng_now(fs->g) + fs->p->stage_after, EV_STAGE, x->dst);
  if (fs->nw == fs->capw) {
    fs->capw = fs->capw ? 2 * fs->capw : 64;
    fs->wx = mt_xrealloc(fs->wx, (size_t)fs->capw * sizeof(int));
    fs->ws = mt_xrealloc(fs->ws, (size_t)fs->capw * sizeof(int));
  }
  fs->wx[fs->nw] = xi;
  fs->ws[fs->nw++] = n * fs->L + q;
}

/* A child of (dst, flow) arrived: the waiting transfers it made due move. */
static void make_due(fe *fs, int dst, int flow) {
  const unsigned got = fs->cnt[(size_t)dst * (size_t)fs->F + (size_t)flow];
  for (int i = 0; i < fs->nw;) {
    const mt_xfer *x = &fs->s->x[fs->wx[i]];
    if (x->dst == dst && x->flow == flow && child_pos(fs, x) <= (int)got) {
      mt_flow_eng_stall(fs->g, fs->ws[i], 0);
      fs->wx[i] = fs->wx[--fs->nw];
      fs->ws[i] = fs->ws[fs->nw];
    } else i++;
  }
}

/* The stager's check at node r (docs/reference/ni.md "Staging not-due units"): a not-due routed message
 * waits for r, and r's NI made no progress for stage_after cycles (no arrival, nothing
 * flowing in): from now on r takes not-due messages (it stages them); those waiting move. */
static void stage_check(fe *fs, int r, double now) {
  int waits = 0;
  for (int i = 0; i < fs->nw && !waits; i++) waits = fs->s->x[fs->wx[i]].dst == r;
  if (!waits || fs->staging[r]) return;
  const double T = fs->p->stage_after;
  int flowing = 0;
  for (int sid = 0; sid < fs->N * fs->L && !flowing; sid++)
    flowing = fs->curx[sid] >= 0 && fs->s->x[fs->curx[sid]].dst == r && mt_flow_eng_rate(fs->g, sid) > 0;
  if (flowing || now - fs->lastp[r] < T) {
    mt_flow_eng_at(fs->g, (flowing ? now : fs->lastp[r]) + T, EV_STAGE, r);
    return;
  }
  fs->staging[r] = 1;
  for (int i = 0; i < fs->nw;)
    if (fs->s->x[fs->wx[i]].dst == r) {
      mt_flow_eng_stall(fs->g, fs->ws[i], 0);
      fs->wx[i] = fs->wx[--fs->nw];
      fs->ws[i] = fs->ws[fs->nw];
    } else i++;
}

static int idle(fe *fs, int n) {
  for (int q = 0; q < fs->L; q++)
    if (mt_flow_eng_busy(fs->g, n * fs->L + q)) return 0;
  return 1;
}

static void issue(fe *fs, int n, double now) {
  fe_node *d = &fs->nd[n];
  const size_t base = (size_t)n * (size_t)fs->F;
  while (d->hp < d->ne && now >= d->lock_until) {
    const fe_ent *E = &fs->ent[d->e0 + d->hp];
    if (E->step > d->ts) {
      if (!idle(fs, n)) return;
      d->ts++;
      continue;
    }
    uint8_t *fl = &fs->fl[base + (size_t)E->flow];
    if (E->op == MT_OP_NOP) {
      d->hp++;
      if (fs->p->lockstep && fs->p->flit_bytes > 0 && E->size > 0) {
        d->lock_until = now + (double)((E->size + (uint64_t)fs->p->flit_bytes - 1) / (uint64_t)fs->p->flit_bytes);
        mt_flow_eng_at(fs->g, d->lock_until, EV_WAKE, n);
      }
      continue;
    }
    if (E->op == MT_OP_REDUCE) {
      if (fs->cnt[base + (size_t)E->flow] < E->nchild) return;
      if (E->nsend) {
        const int xi = fs->send[E->send0];
        int q = packetiser(fs, n, &fs->s->x[xi]);
        if (q < 0) return;
        send_due(fs, n, q, xi);
      }
      *fl |= FL_RDONE;
      d->hp++;
      continue;
    }
    /* gather */
    if (!(E->has_parent ? *fl & FL_GRX : *fl & FL_RDONE)) return;
    while (d->gi < E->nsend) {
      const int xi = fs->send[E->send0 + d->gi];
      int q = packetiser(fs, n, &fs->s->x[xi]);
      if (q < 0) return;
      send_x(fs, n, q, xi);
      d->gi++;
    }
    d->gi = 0;
    d->hp++;
  }
}

int mt_flow_run_sched(const mt_sched *s, const mt_flow_params *p, mt_flow_result *r, double *link_util, mt_err *e) {
  memset(r, 0, sizeof *r);
  const mt_topo *t = s->topo;
  fe fs;
  memset(&fs, 0, sizeof fs);
  fs.s = s;
  fs.p = p;
  fs.N = s->n_nodes;
  fs.F = s->n_flows;
  fs.L = p->local_ports > 0 ? p->local_ports : mt_topo_node_ports(t);
  if (s->n_flows > 65535) return mt_fail(e, "flow level: %d flows, at most 65535", s->n_flows);
  double *cap = mt_xcalloc((size_t)t->n_links + 1, sizeof(double)), *lat = mt_xcalloc((size_t)t->n_links + 1, sizeof(double));
  int rc = mt_flow_links(t, p, cap, lat, e);
  fs.nd = mt_xcalloc((size_t)fs.N, sizeof(fe_node));
  if (p->units == MT_FLOW_CYCLES && p->num_vcs > 0 && mt_topo_is_grid(t)) fs.hol = t->kind == MT_TOPO_TORUS ? p->num_vcs / 2 : p->num_vcs;
  if (fs.hol) {
    fs.rent = mt_xcalloc((size_t)fs.N * (size_t)fs.F + 1, sizeof(int));
    for (size_t i = 0; i < (size_t)fs.N * (size_t)fs.F; i++) fs.rent[i] = -1;
  }
  if (!rc) rc = build(&fs, e);
  if (rc) goto out;
  fs.cnt = mt_xcalloc((size_t)fs.N * (size_t)fs.F, sizeof(uint16_t));
  fs.fl = mt_xcalloc((size_t)fs.N * (size_t)fs.F, 1);
  fs.plat = mt_xcalloc((size_t)s->nx + 1, sizeof(double));
  fs.lat = lat;
  fs.mark = mt_xcalloc((size_t)fs.N, sizeof(int));
  fs.curx = mt_xcalloc((size_t)fs.N * (size_t)fs.L + 1, sizeof(int));
  for (int i = 0; i < fs.N * fs.L; i++) fs.curx[i] = -1;
  fs.lastp = mt_xcalloc((size_t)fs.N + 1, sizeof(double));
  fs.staging = mt_xcalloc((size_t)fs.N + 1, 1);
  fs.g = mt_flow_eng_new(t->n_links, cap, lat, p->msg_cap);
  mt_flow_eng_reference(fs.g, p->reference);
  mt_flow_eng_hol(fs.g, fs.hol);
  for (int i = 0; i < fs.N * fs.L; i++) mt_flow_eng_stream(fs.g);
  for (int n = 0; n < fs.N; n++) {
    fs.nd[n].ts = 1;
    mark(&fs, n);
  }
  double now = 0;
  for (;;) {
    for (int i = 0; i < fs.nmark; i++) {
      fs.nd[fs.mark[i]].marked = 0;
      issue(&fs, fs.mark[i], now);
    }
    fs.nmark = 0;
    mt_flow_eng_settle(fs.g);
    double t0, tt;
    int kind;
    int64_t id, tag;
    if (!mt_flow_eng_pop(fs.g, &t0, &kind, &id, &tag)) break;
    now = t0;
    do {
      if (kind == 0) {
        const int xi = (int)tag;
        fs.curx[id] = -1;
        r->messages++;
        mt_flow_eng_at(fs.g, now + fs.plat[xi], EV_ARRIVE, xi);
        mark(&fs, (int)(id / fs.L));
      } else if (kind == EV_ARRIVE) {
        const mt_xfer *x = &s->x[id];
        const size_t k = (size_t)x->dst * (size_t)fs.F + x->flow;
        if (x->op == MT_OP_REDUCE) {
          fs.cnt[k]++;
          if (fs.nw) make_due(&fs, x->dst, x->flow);
        } else fs.fl[k] |= FL_GRX;
        if (now > fs.last) fs.last = now;
        fs.lastp[x->dst] = now;
        mark(&fs, x->dst);
      } else if (kind == EV_STAGE) stage_check(&fs, (int)id, now);
      else mark(&fs, (int)id);
      tt = mt_flow_eng_peek(fs.g);
    } while (tt <= now && mt_flow_eng_pop(fs.g, &t0, &kind, &id, &tag));
  }
  /* every node ran its table and holds every flow's sum */
  for (int n = 0; n < fs.N && !rc; n++) {
    const fe_node *d = &fs.nd[n];
    if (d->hp < d->ne) {
      const fe_ent *E = &fs.ent[d->e0 + d->hp];
      const size_t k = (size_t)n * fs.F + (size_t)E->flow;
      rc = mt_fail(e, "node %d never issues entry %d (%s flow %d step %d; timestep %d): %s", n, d->hp, mt_op_name(E->op), E->flow, E->step,
                   d->ts,
                   E->step > d->ts                                    ? "its earlier messages never left"
                     : E->op == MT_OP_REDUCE && fs.cnt[k] < E->nchild ? "a child's contribution never arrives"
                                                                      : "the data it waits for never arrives");
    }
    for (int f = 0; f < fs.F && !rc; f++)
      if (s->root[f] != n && !(fs.fl[(size_t)n * fs.F + f] & FL_GRX)) rc = mt_fail(e, "node %d never receives flow %d's result", n, f);
  }
  if (rc) goto out;
  r->time = fs.last > now ? fs.last : now;
  mt_flow_eng_stats(fs.g, &r->events, &r->solves, &r->steady);
  r->solved = mt_flow_eng_solved(fs.g);
  mt_flow_finish(t, cap, mt_flow_eng_link_bytes(fs.g), s->bytes, r, link_util);
out:
  mt_flow_eng_free(fs.g);
  free(cap);
  free(lat);
  free(fs.ent);
  free(fs.send);
  free(fs.nd);
  free(fs.cnt);
  free(fs.fl);
  free(fs.plat);
  free(fs.mark);
  free(fs.pl);
  free(fs.pc);
  free(fs.chn);
  free(fs.rent);
  free(fs.wx);
  free(fs.ws);
  free(fs.curx);
  free(fs.lastp);
  free(fs.staging);
  return rc;
}
