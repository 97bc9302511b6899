/* SPDX-License-Identifier: Apache-2.0
 * router_ref.c: TEST ONLY. A frozen copy of the original (unoptimized) cmodel/mt_router.c step
 * function, state struct renamed mt_rref, functions rref_*. It is #included by
 * tb/cmodel/test_router_diff.c, which runs it next to the optimized mt_router_step on long
 * random traffic and compares every output every cycle. Never compiled into libmt.
 * Only change from the original: names (and static linkage). */
#include <stdlib.h>
#include <string.h>
#include "hw/mt_router.h"

typedef struct {
  mt_router_params p;
  unsigned np, nv, n, fb; /* ports, VCs, input VCs (np*nv), flit payload bytes */
  /* input VC buffers: ivc i = port*nv + vc, slot s at buf[i*vc_depth + s] */
  mt_flit *buf;
  uint16_t rd[MT_RT_MAX_IVCS], cnt[MT_RT_MAX_IVCS];
  /* per input VC: packet/message state */
  uint8_t active[MT_RT_MAX_IVCS]; /* head sent, tail not yet */
  uint8_t is_ar[MT_RT_MAX_IVCS];
  uint8_t oport[MT_RT_MAX_IVCS], ovc[MT_RT_MAX_IVCS];
  uint16_t step[MT_RT_MAX_IVCS];
  uint32_t wd_cnt[MT_RT_MAX_IVCS];
  uint8_t wd_err[MT_RT_MAX_IVCS], ovf_err[MT_RT_MAX_IVCS];
  /* per output port */
  uint8_t held[MT_RT_MAX_PORTS];
  uint16_t holder[MT_RT_MAX_PORTS], rr[MT_RT_MAX_PORTS];
  uint16_t cred[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  uint8_t busy[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  uint16_t esrc[MT_RT_MAX_PORTS][MT_RT_MAX_VCS]; /* 2026-11-22: local outputs, source of the last unit */
  /* registered outputs */
  mt_router_out q;
  /* perturbation delay registers */
  uint8_t pt_cred[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  /* statistics (not part of the RTL) */
  uint64_t cycles, flits_out;
} mt_rref;

static int rref_init(mt_rref *r, const mt_router_params *p) {
  unsigned i, o;
  memset(r, 0, sizeof *r);
  if (mt_router_check_params(p, NULL)) return -1;
  r->p = *p;
  r->np = 2 * p->dims + p->nlocal;
  r->nv = p->num_vcs;
  r->n = r->np * r->nv;
  r->fb = p->payload_w / 8;
  r->buf = (mt_flit *)calloc((size_t)r->n * p->vc_depth, sizeof *r->buf);
  if (!r->buf) return -1;
  for (o = 0; o < r->np; o++) {
    r->rr[o] = (uint16_t)(r->n - 1);
    for (i = 0; i < r->nv; i++)
      r->cred[o][i] = (uint16_t)(o < 2 * p->dims ? p->vc_depth : p->ej_depth);
  }
  return 0;
}

static void rref_free(mt_rref *r) {
  free(r->buf);
  r->buf = NULL;
}

/* coordinate of node id in dimension d (K of unused dimensions is 1) */
static unsigned rref_coord(const mt_router_params *p, unsigned id, unsigned d) {
  unsigned k0 = p->k[0], k1 = p->dims > 1 ? p->k[1] : 1, k2 = p->dims > 2 ? p->k[2] : 1;
  if (d == 0) return id % k0;
  if (d == 1) return (id / k0) % k1;
  return (id / (k0 * k1)) % k2;
}

/* minimal hops from a to b (torus: the shorter way round in each dimension) */
static unsigned rref_hops(const mt_router_params *p, unsigned a, unsigned b) {
  unsigned d, h = 0;
  for (d = 0; d < p->dims; d++) {
    unsigned x = rref_coord(p, a, d), y = rref_coord(p, b, d), dist = x > y ? x - y : y - x;
    if (p->torus && p->k[d] - dist < dist) dist = p->k[d] - dist;
    h += dist;
  }
  return h;
}

static void rref_route(const mt_rref *r, unsigned node_id, unsigned in_port, unsigned in_vc,
                     const mt_flit *head, unsigned *out_port, uint32_t *vc_mask, int *swap) {
  const mt_router_params *p = &r->p;
  unsigned t = mt_flit_type(head, p->payload_w), nd = 2 * p->dims, d;
  uint32_t all = (1u << r->nv) - 1u, lower = (1u << (r->nv / 2)) - 1u, upper = all & ~lower;
  *swap = 0;
  *vc_mask = all;
  if (!mt_ft_is_normal(t)) {
    /* all-reduce head: one hop, source routed */
    unsigned nx = mt_hd_next(head);
    if (in_port < nd) {
      *out_port = nd + (nx < p->nlocal ? nx : 0);
    } else {
      *out_port = nx < r->np ? nx : 0;
      *swap = 1;
    }
    return;
  }
  for (d = 0; d < p->dims; d++) {
    unsigned k = p->k[d], m = rref_coord(p, node_id, d), c = rref_coord(p, mt_hd_dst(head), d);
    int plus, wrap, cls1;
    if (c == m) continue;
    if (p->torus) {
      unsigned dp = c >= m ? c - m : c + k - m;
      plus = 2 * dp <= k;
      wrap = plus ? (m == k - 1) : (m == 0);
      cls1 = wrap || (in_port < nd && in_port / 2 == d && in_vc >= r->nv / 2);
      *vc_mask = cls1 ? upper : lower;
    } else {
      plus = c > m;
    }
    /* 2026-11-22: injected packets for a neighbour (one hop in total) take the highest VC
     * of their class only (in-order injection, docs/router.md); the one semantic change
     * since this copy was frozen */
    if (in_port >= nd && rref_hops(p, node_id, mt_hd_dst(head)) == 1)
      *vc_mask = 1u << (31 - __builtin_clz(*vc_mask));
    *out_port = 2 * d + (plus ? 0u : 1u);
    return;
  }
  {
    unsigned ej = mt_hd_eject(head);
    *out_port = nd + (ej < p->nlocal ? ej : 0);
  }
}

static void rref_step(mt_rref *r, const mt_router_in *in, mt_router_out *out) {
  const mt_router_params *p = &r->p;
  const unsigned n = r->n, nv = r->nv, np = r->np, pw = p->payload_w;
  unsigned i, o, v;
  /* phase 1: combinational, from the state before the edge */
  uint8_t req[MT_RT_MAX_IVCS], go[MT_RT_MAX_IVCS], swap[MT_RT_MAX_IVCS];
  uint8_t rport[MT_RT_MAX_IVCS], rvc[MT_RT_MAX_IVCS];
  uint16_t prio[MT_RT_MAX_IVCS];
  int send_ivc[MT_RT_MAX_PORTS];
  uint8_t sent[MT_RT_MAX_IVCS];
  const uint32_t sub = p->subpkt_flits;

  for (i = 0; i < n; i++) {
    const mt_flit *f = &r->buf[(size_t)i * p->vc_depth + r->rd[i]];
    unsigned t = mt_flit_type(f, pw);
    int ne = r->cnt[i] != 0;
    req[i] = 0;
    go[i] = 0;
    swap[i] = 0;
    rport[i] = r->oport[i];
    rvc[i] = r->ovc[i];
    prio[i] = r->step[i];
    sent[i] = 0;
    if (!ne) continue;
    if (!r->active[i]) {
      if (mt_ft_is_head(t)) {
        unsigned op;
        uint32_t mask, ok = 0;
        int sw;
        rref_route(r, in->node_id, i / nv, i % nv, f, &op, &mask, &sw);
        rport[i] = (uint8_t)op;
        swap[i] = (uint8_t)sw;
        prio[i] = (uint16_t)mt_hd_step(f);
        for (v = 0; v < nv; v++) {
          uint32_t c = r->cred[op][v];
          int cok;
          if (op >= 2 * p->dims) { /* 2026-11-22: an ejection VC takes a new unit only when empty, */
            unsigned held_by_src = 0, w; /* and a source holds at most nv-1 of them */
            for (w = 0; w < nv; w++)
              if ((r->busy[op][w] || r->cred[op][w] < p->ej_depth) && r->esrc[op][w] == mt_hd_src(f)) held_by_src++;
            cok = c >= p->ej_depth && !(nv > 1 && held_by_src + 1 > nv - 1);
          }
          else if (t == MT_FT_HEAD)
            cok = c >= 1 && (uint64_t)(c - 1) * r->fb >= (uint64_t)mt_hd_len(f);
          else
            cok = c >= 1;
          if (((mask >> v) & 1u) && !r->busy[op][v] && cok) ok |= 1u << v;
        }
        if (ok) {
          for (v = 0; v < nv; v++)
            if ((ok >> v) & 1u) break;
          rvc[i] = (uint8_t)v;
          req[i] = 1;
        }
      }
    } else {
      o = r->oport[i];
      int holding = r->held[o] && r->holder[o] == i;
      if (holding) {
        go[i] = r->cred[o][r->ovc[i]] > 0;
      } else if (r->is_ar[i] && !mt_ft_is_normal(t) && !mt_ft_is_head(t)) {
        req[i] = r->cred[o][r->ovc[i]] >= sub;
      }
    }
  }

  /* switch allocation per output port */
  for (o = 0; o < np; o++) {
    send_ivc[o] = -1;
    if (r->held[o]) {
      if (go[r->holder[o]]) send_ivc[o] = r->holder[o];
      continue;
    }
    {
      uint8_t el[MT_RT_MAX_IVCS];
      unsigned minp = 0xffffu, k;
      int any = 0;
      for (i = 0; i < n; i++) {
        el[i] = req[i] && rport[i] == o;
        if (el[i] && prio[i] < minp) minp = prio[i];
        any |= el[i];
      }
      if (!any) continue;
      if (p->step_prio)
        for (i = 0; i < n; i++) el[i] = el[i] && prio[i] == minp;
      for (k = 1; k <= n; k++) {
        unsigned idx = r->rr[o] + k;
        if (idx >= n) idx -= n;
        if (el[idx]) { send_ivc[o] = (int)idx; break; }
      }
    }
  }

  /* phase 2: register updates */
  mt_router_out nq;
  memset(&nq, 0, sizeof nq);
  for (o = 0; o < np; o++) {
    int s = send_ivc[o];
    if (s < 0) continue;
    i = (unsigned)s;
    {
      const mt_flit *f = &r->buf[(size_t)i * p->vc_depth + r->rd[i]];
      unsigned t = mt_flit_type(f, pw), ov = rvc[i];
      int was_held = r->held[o];
      nq.out_valid[o] = 1;
      nq.out_flit[o] = *f;
      mt_flit_set_vc(&nq.out_flit[o], pw, nv, ov);
      if (swap[i] && t == MT_FT_AR_HEAD) mt_hd_swap_next_eject(&nq.out_flit[o]);
      sent[i] = 1;
      r->cred[o][ov]--; /* counted with the credit inputs below */
      /* unit end: Tail, Head&Tail; all-reduce Head, Sub-Tail, Tail */
      if (t == MT_FT_TAIL || t == MT_FT_HEADTAIL || t == MT_FT_AR_HEAD ||
          t == MT_FT_AR_SUBTAIL || t == MT_FT_AR_TAIL) {
        r->held[o] = 0;
      } else {
        r->held[o] = 1;
        r->holder[o] = (uint16_t)i;
      }
      if (!was_held) r->rr[o] = (uint16_t)i;
      if (!r->active[i] && o >= 2 * p->dims) r->esrc[o][ov] = (uint16_t)mt_hd_src(f);
      if (!r->active[i] && mt_ft_is_head(t) && t != MT_FT_HEADTAIL) {
        r->active[i] = 1;
        r->is_ar[i] = t == MT_FT_AR_HEAD;
        r->oport[i] = (uint8_t)o;
        r->ovc[i] = (uint8_t)ov;
        r->step[i] = prio[i];
        r->busy[o][ov] = 1;
      } else if (r->active[i] && (t == MT_FT_TAIL || t == MT_FT_AR_TAIL)) {
        r->active[i] = 0;
        r->busy[o][ov] = 0;
      }
      r->flits_out++;
    }
  }
  /* credit counters: take (above) and give */
  for (o = 0; o < np; o++)
    for (v = 0; v < nv; v++) {
      uint8_t g = in->out_credit[o][v];
      if (p->perturb == 2) {
        uint8_t d = r->pt_cred[o][v];
        r->pt_cred[o][v] = g;
        g = d;
      }
      r->cred[o][v] = (uint16_t)(r->cred[o][v] + g);
    }
  /* input buffers: pop, push, credit pulses, watchdog */
  {
    const uint32_t wmax = (1u << p->wd_w) - 1u;
    const uint32_t lim = in->wd_limit & wmax;
    for (i = 0; i < n; i++) {
      unsigned c0 = r->cnt[i];
      if (sent[i]) {
        r->rd[i] = (uint16_t)(r->rd[i] + 1u == p->vc_depth ? 0u : r->rd[i] + 1u);
        r->cnt[i]--;
      }
      nq.in_credit[i / nv][i % nv] = sent[i];
      if (c0 != 0 && !sent[i])
        r->wd_cnt[i] = r->wd_cnt[i] == wmax ? wmax : r->wd_cnt[i] + 1u;
      else
        r->wd_cnt[i] = 0;
      if (lim != 0 && r->wd_cnt[i] >= lim) r->wd_err[i] = 1;
    }
    for (o = 0; o < np; o++) {
      if (!in->in_valid[o]) continue;
      v = mt_flit_vc(&in->in_flit[o], pw, nv);
      if (v >= nv) continue; /* VC field beyond NumVcs: dropped (cannot happen for even powers) */
      i = o * nv + v;
      /* accepted iff the buffer was not full before the edge */
      if (r->cnt[i] + (sent[i] ? 1u : 0u) < p->vc_depth) {
        unsigned wr = r->rd[i] + r->cnt[i];
        if (wr >= p->vc_depth) wr -= p->vc_depth;
        r->buf[(size_t)i * p->vc_depth + wr] = in->in_flit[o];
        r->cnt[i]++;
      } else {
        r->ovf_err[i] = 1;
      }
    }
    for (i = 0; i < n; i++) {
      nq.wd_err[i / nv][i % nv] = r->wd_err[i];
      nq.ovf_err[i / nv][i % nv] = r->ovf_err[i];
    }
  }
  if (p->perturb == 1) {
    for (o = 0; o < np; o++)
      for (v = 0; v < nv; v++) {
        uint8_t d = r->pt_cred[o][v];
        r->pt_cred[o][v] = nq.in_credit[o][v];
        nq.in_credit[o][v] = d;
      }
  }
  r->q = nq;
  r->cycles++;
  *out = nq;
}
