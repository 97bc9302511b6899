/* SPDX-License-Identifier: Apache-2.0
 * test_router.c: unit tests of the C router model (cmodel/mt_router.c, cmodel/mt_link.c).
 * Expectations are hand-derived (routes, latencies, efficiencies) or end-to-end
 * (every packet of a random all-to-all run on a torus arrives, intact, at the right node). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fmt/mt_flit.h"
#include "util/mt_rng.h"
#include "hw/mt_link.h"
#include "hw/mt_router.h"
#include "mt_test.h"


static mt_flit mk_head(const mt_router_params *p, unsigned type, unsigned vc, unsigned dst,
                       unsigned next, unsigned eject, unsigned step, uint32_t addr, uint32_t len) {
  mt_flit f;
  mt_head_info h;
  mt_flit_clear(&f);
  memset(&h, 0, sizeof h);
  h.dst = dst;
  h.next = next;
  h.eject = eject;
  h.step = step;
  h.addr = addr;
  h.len = len;
  h.op = mt_ft_is_normal(type) ? 0 : 1;
  mt_hd_pack(&f, &h);
  mt_flit_set_type(&f, p->payload_w, type);
  mt_flit_set_vc(&f, p->payload_w, p->num_vcs, vc);
  return f;
}
static mt_flit mk_data(const mt_router_params *p, unsigned type, unsigned vc, uint32_t tag,
                       uint32_t seq) {
  mt_flit f;
  mt_flit_clear(&f);
  f.w[0] = tag;
  f.w[1] = seq;
  mt_flit_set_type(&f, p->payload_w, type);
  mt_flit_set_vc(&f, p->payload_w, p->num_vcs, vc);
  return f;
}

/* One routing case: a head (type, dst, next, eject, len) at node `node`, input port `in`,
 * VC `vc`, must leave on port `op` with VC mask `mask` (and swap flag `sw`, -1 unchecked). */
typedef struct {
  const char *what;
  int mesh3; /* 0: the default 4x4 torus; 1: a 3x3 mesh */
  unsigned node, in, vc, type, dst, next, eject, len, op;
  uint32_t mask;
  int sw;
} route_case;

static const route_case route_cases[] = {
  /* 4x4 torus; node 0 = (0,0) to 3 = (3,0): +3 or -1 -> minus, wrap at x=0 -> class 1;
   * injected (local input 4) for a neighbour (one hop): the highest VC of the class only, VC 3 */
  {"0->3", 0, 0, 4, 0, MT_FT_HEAD, 3, 0, 0, 16, 1, 0x8, 0},
  /* node 5 = (1,1) to 7 = (3,1): +2 vs -2, tie -> +, no wrap -> class 0; injected but two
   * hops away: the whole class */
  {"5->7", 0, 5, 4, 0, MT_FT_HEAD, 7, 0, 0, 16, 0, 0x3, -1},
  /* node 5 to its +X neighbour 6, injected: class 0's highest VC only, VC 1 */
  {"5->6", 0, 5, 5, 0, MT_FT_HEAD, 6, 0, 0, 16, 0, 0x2, -1},
  /* node 5 to 10 = (2,2): X first, but 2 hops in all: the whole class */
  {"5->10", 0, 5, 4, 0, MT_FT_HEAD, 10, 0, 0, 16, 0, 0x3, -1},
  /* same, arriving on X input (port 1 = -X side? any X port) in class 1: stays class 1 */
  {"5->7 cls1", 0, 5, 1, 2, MT_FT_HEAD, 7, 0, 0, 16, 0, 0xc, -1},
  /* 5 -> 9 = (1,2): Y+; arriving on X in class 1 -> back to class 0 */
  {"5->9", 0, 5, 0, 3, MT_FT_HEAD, 9, 0, 0, 16, 2, 0x3, -1},
  /* 13 = (1,3) to 1 = (1,0): Y+ through the wrap at y=3 -> class 1; injected, one hop: VC 3 */
  {"13->1", 0, 13, 4, 0, MT_FT_HEAD, 1, 0, 0, 16, 2, 0x8, -1},
  /* the same head arriving on a network port (-X, port 1) in class 0: the whole class 1 */
  {"13->1 transit", 0, 13, 1, 0, MT_FT_HEAD, 1, 0, 0, 16, 2, 0xc, -1},
  /* own node: eject at local port eject=2 -> port 6, any VC */
  {"6->6", 0, 6, 0, 0, MT_FT_HEADTAIL, 6, 0, 2, 0, 6, 0xf, -1},
  /* all-reduce head at a local input: next=3 (-Y), swapped */
  {"ar src", 0, 0, 5, 0, MT_FT_AR_HEAD, 4, 3, 1, 64, 3, 0xf, 1},
  /* all-reduce head at a network input: next (after swap) = 2 -> local port 6 */
  {"ar dst", 0, 4, 3, 1, MT_FT_AR_HEAD, 4, 2, 3, 64, 6, 0xf, 0},
  /* 3x3 mesh: node 4 = (1,1) to 0 = (0,0): X-, two hops: all VCs; to 3 = (0,1), one hop,
   * injected: the highest, VC 3 */
  {"mesh 4->0", 1, 4, 4, 0, MT_FT_HEAD, 0, 0, 0, 16, 1, 0xf, -1},
  {"mesh 4->3", 1, 4, 4, 0, MT_FT_HEAD, 3, 0, 0, 16, 1, 0x8, -1},
  /* 0 = (0,0) to 2 = (2,0): two hops along X: all VCs */
  {"mesh 0->2", 1, 0, 4, 0, MT_FT_HEAD, 2, 0, 0, 16, 0, 0xf, -1},
  {"mesh 4->7", 1, 4, 4, 0, MT_FT_HEAD, 7, 0, 0, 16, 2, 0x8, -1},
  {"mesh 4->7 transit", 1, 4, 0, 0, MT_FT_HEAD, 7, 0, 0, 16, 2, 0xf, -1},
};

static void test_route(void) {
  mt_router r;
  mt_router_params p;
  const int nc = (int)(sizeof route_cases / sizeof route_cases[0]);
  for (int mesh3 = 0; mesh3 <= 1; mesh3++) {
    mt_router_default_params(&p);
    if (mesh3) {
      p.k[0] = 3;
      p.k[1] = 3;
      p.torus = 0;
    }
    CHECK(mt_router_init(&r, &p, NULL) == 0, "init %s", mesh3 ? "mesh" : "torus");
    for (int i = 0; i < nc; i++) {
      const route_case *c = &route_cases[i];
      if (c->mesh3 != mesh3) continue;
      mt_flit f = mk_head(&p, c->type, 0, c->dst, c->next, c->eject, 0, 0, c->len);
      unsigned op;
      uint32_t m;
      int sw;
      mt_router_route(&r, c->node, c->in, c->vc, &f, &op, &m, &sw);
      CHECK(op == c->op && m == c->mask && (c->sw < 0 || sw == c->sw), "%s: port %u mask %x sw %d", c->what, op, m, sw);
    }
    mt_router_free(&r);
  }
  /* parameter checks */
  mt_err e;
  mt_router_default_params(&p);
  p.num_vcs = 3;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "NumVcs=3"), "odd NumVcs rejected, naming it");
  mt_router_default_params(&p);
  p.subpkt_flits = 17;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "SubPktFlits=17"), "SubPktFlits > VcDepth rejected, naming it");
  CHECK(mt_router_init(&r, &p, &e) != 0 && strstr(e.msg, "SubPktFlits=17"), "init refuses it too");
  mt_router_default_params(&p);
  CHECK(mt_router_check_params(&p, &e) == 0, "the defaults are legal");
  p.pipe = 1;
  CHECK(mt_router_check_params(&p, &e) == 0, "RtPipe 1 is legal for a torus router");
  p.pipe = 2;
  CHECK(mt_router_check_params(&p, &e) == 0, "RtPipe 2 is legal for a torus router");
  p.pipe = 3;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "RtPipe=3"), "RtPipe 3 rejected, naming it");
  p.pipe = 2;
  p.table = 1;
  p.nnet = 4;
  p.hop_classes = 1;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "RtPipe=2"), "RtPipe 2 rejected for a switch: %s", e.msg);
}

/* A 3-flit packet from local port 0 to the +X neighbour: head in at call 0, out at call 1
 * (2 cycles per hop), VC 1 chosen (injected, class 0 of the torus: its highest VC), one
 * credit pulse per flit at the same calls. */
static void test_latency(void) {
  mt_router r;
  mt_router_params p;
  mt_router_in in;
  mt_router_out out;
  int t;
  mt_router_default_params(&p);
  mt_router_init(&r, &p, NULL);
  memset(&in, 0, sizeof in);
  for (t = 0; t < 6; t++) {
    memset(in.in_valid, 0, sizeof in.in_valid);
    if (t < 3) {
      in.in_valid[4] = 1;
      in.in_flit[4] = t == 0 ? mk_head(&p, MT_FT_HEAD, 1, 1, 0, 0, 0, 0, 32)
                             : mk_data(&p, t == 2 ? MT_FT_TAIL : MT_FT_BODY, 1, 7, (uint32_t)t);
    }
    mt_router_step(&r, &in, &out);
    if (t >= 1 && t <= 3) {
      CHECK(out.out_valid[0] == 1, "t=%d valid", t);
      CHECK(mt_flit_vc(&out.out_flit[0], 128, 4) == 1, "t=%d vc", t);
      CHECK(mt_flit_type(&out.out_flit[0], 128) == (t == 1 ? 4u : t == 2 ? 5u
                                                                         : 6u),
            "t=%d type", t);
      CHECK(out.in_credit[4][1] == 1, "t=%d credit", t);
    } else {
      CHECK(out.out_valid[0] == 0 && out.in_credit[4][1] == 0, "t=%d idle", t);
    }
  }
  CHECK(r.cred[0][1] == 13 && (r.busy_vc[0] & 2u) == 0, "credits %u busy %u", r.cred[0][1], r.busy_vc[0] & 2u);
  mt_router_free(&r);
}

/* Pacing (period[], docs/reference/network.md "Link rate and latency"): with period[0] = 3 a 5-flit
 * packet from local port 4 to the +X neighbour leaves output 0 at calls 1, 4, 7, 10, 13 (one
 * flit every 3 cycles, the first as without pacing), while one from local port 5 to the +Y
 * neighbour (period 1) leaves output 2 at calls 1..5; a period on a dimension the router
 * lacks is refused, naming it. */
static void test_pacing(void) {
  mt_router r;
  mt_router_params p;
  mt_router_in in;
  mt_router_out out;
  mt_router_default_params(&p);
  p.period[0] = 3;
  CHECK(mt_router_init(&r, &p, NULL) == 0, "init paced");
  memset(&in, 0, sizeof in);
  unsigned x = 0, y = 0, bad = 0;
  for (int t = 0; t < 20; t++) {
    memset(in.in_valid, 0, sizeof in.in_valid);
    if (t < 5) {
      const unsigned ty = t == 0 ? MT_FT_HEAD : t == 4 ? MT_FT_TAIL
                                                       : MT_FT_BODY;
      in.in_valid[4] = in.in_valid[5] = 1;
      in.in_flit[4] = t == 0 ? mk_head(&p, ty, 1, 1, 0, 0, 0, 0, 64) : mk_data(&p, ty, 1, 7, (uint32_t)t);
      in.in_flit[5] = t == 0 ? mk_head(&p, ty, 1, 4, 0, 0, 0, 0, 64) : mk_data(&p, ty, 1, 8, (uint32_t)t);
    }
    mt_router_step(&r, &in, &out);
    const int wx = t >= 1 && t <= 13 && (t - 1) % 3 == 0, wy = t >= 1 && t <= 5;
    bad += out.out_valid[0] != wx || out.out_valid[2] != wy || out.in_credit[4][1] != wx;
    x += out.out_valid[0];
    y += out.out_valid[2];
  }
  CHECK(bad == 0 && x == 5 && y == 5, "paced: %u calls off the expected pattern, %u X flits, %u Y flits", bad, x, y);
  mt_router_free(&r);
  mt_err e;
  mt_router_default_params(&p);
  p.period[2] = 2;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "LinkPeriods[2]=2"), "period of a missing dimension rejected: %s", e.msg);
  p.period[2] = 1;
  p.period[1] = 256;
  CHECK(mt_router_check_params(&p, &e) != 0 && strstr(e.msg, "LinkPeriods[1]=256"), "period 256 rejected: %s", e.msg);
}

/* Watchdog: no credits come back; a VC that cannot send raises wd_err after exactly `lim`
 * stalled cycles. Depth 4: a 4-flit packet takes all credits, the next head stalls. */
static void test_watchdog(void) {
  mt_router r;
  mt_router_params p;
  mt_router_in in;
  mt_router_out out;
  int t, first = -1;
  mt_router_default_params(&p);
  p.vc_depth = 4;
  p.ej_depth = 4;
  p.subpkt_flits = 2;
  p.num_vcs = 2;
  CHECK(mt_router_init(&r, &p, NULL) == 0, "init");
  memset(&in, 0, sizeof in);
  in.wd_limit = 10;
  /* two 4-flit packets on local port 0, VC 0, to +X (class 0 = VC 0 only: one VC) */
  for (t = 0; t < 40; t++) {
    memset(in.in_valid, 0, sizeof in.in_valid);
    if (t < 8) {
      int k = t % 4;
      in.in_valid[4] = 1;
      in.in_flit[4] = k == 0 ? mk_head(&p, MT_FT_HEAD, 0, 1, 0, 0, 0, 0, 48)
                             : mk_data(&p, k == 3 ? MT_FT_TAIL : MT_FT_BODY, 0, 1, (uint32_t)k);
    }
    mt_router_step(&r, &in, &out);
    if (first < 0 && out.wd_err[4][0]) first = t;
  }
  /* packet 1 leaves at calls 1..4; packet 2's head is at the front from call 5 (stalled
   * at calls 5..): stalled count reaches 10 at call 14 */
  CHECK(first == 14, "watchdog first raised at call %d, expected 14", first);
  CHECK(r.cred[0][0] == 0, "credits used up");
  mt_router_free(&r);
}

/* ---- a small network: routers, links, NI injectors and sinks ---- */
typedef struct {
  unsigned dst, eject, len, is_ar, next, vc, tag;
} pkt_t;
#define MAXN 16
#define QLEN 4096
typedef struct {
  mt_router_params p;
  unsigned nn, np, nd, linklat;
  mt_router r[MAXN];
  mt_router_out out[MAXN];
  mt_router_in in[MAXN];
  mt_link link[MAXN][MT_RT_MAX_PORTS]; /* link driven by (node, out port) */
  int nb[MAXN][MT_RT_MAX_PORTS], nbp[MAXN][MT_RT_MAX_PORTS];
  /* injection: one queue per (node, local port); NI credit counters per VC */
  pkt_t q[MAXN][8][64];
  unsigned qh[MAXN][8], qt[MAXN][8];
  unsigned sent_flits[MAXN][8]; /* flits of the head-of-queue packet already sent */
  unsigned cred[MAXN][8][MT_RT_MAX_VCS];
  /* ejection monitors per (node, local port, vc) */
  unsigned in_pkt[MAXN][8][MT_RT_MAX_VCS], cur_tag[MAXN][8][MT_RT_MAX_VCS],
    seq[MAXN][8][MT_RT_MAX_VCS];
  unsigned long delivered, injected, bad, flits_on_link, heads_on_link;
  unsigned long link_first, link_last;
  int watch_node, watch_port;
} net_t;

static unsigned node_coord(const mt_router_params *p, unsigned id, unsigned d) {
  unsigned s = 1, i;
  for (i = 0; i < d; i++) s *= p->k[i];
  return (id / s) % p->k[d];
}

static void net_init(net_t *nw, const mt_router_params *p, unsigned linklat) {
  unsigned a, d, i, v, l;
  memset(nw, 0, sizeof *nw);
  nw->p = *p;
  nw->nd = 2 * p->dims;
  nw->np = nw->nd + p->nlocal;
  nw->nn = 1;
  nw->linklat = linklat;
  nw->watch_node = -1;
  for (d = 0; d < p->dims; d++) nw->nn *= p->k[d];
  for (a = 0; a < nw->nn; a++) {
    mt_router_init(&nw->r[a], p, NULL);
    for (i = 0; i < nw->np; i++) {
      nw->nb[a][i] = -1;
      mt_link_init(&nw->link[a][i], i < nw->nd ? linklat : 1, NULL);
    }
    for (l = 0; l < p->nlocal; l++)
      for (v = 0; v < p->num_vcs; v++) nw->cred[a][l][v] = p->vc_depth;
  }
  for (a = 0; a < nw->nn; a++)
    for (d = 0; d < p->dims; d++) {
      unsigned s = 1, k = p->k[d], c = node_coord(p, a, d);
      for (i = 0; i < d; i++) s *= p->k[i];
      if (p->torus || c + 1 < k) { /* + link */
        unsigned b = a - c * s + ((c + 1) % k) * s;
        nw->nb[a][2 * d] = (int)b;
        nw->nbp[a][2 * d] = k == 2 ? (int)(2 * d) : (int)(2 * d + 1);
      }
      if ((p->torus && k > 2) || (!p->torus && c > 0)) { /* - link */
        unsigned b = a - c * s + ((c + k - 1) % k) * s;
        nw->nb[a][2 * d + 1] = (int)b;
        nw->nbp[a][2 * d + 1] = (int)(2 * d);
      }
    }
}
static void net_free(net_t *nw) {
  unsigned a, i;
  for (a = 0; a < nw->nn; a++) {
    mt_router_free(&nw->r[a]);
    for (i = 0; i < nw->np; i++) mt_link_free(&nw->link[a][i]);
  }
}
static void net_push(net_t *nw, unsigned node, unsigned lp, pkt_t k) {
  unsigned t = nw->qt[node][lp];
  nw->q[node][lp][t % 64] = k;
  nw->qt[node][lp] = t + 1;
  nw->injected++;
}
static unsigned pkt_flits(const net_t *nw, const pkt_t *k) {
  return 1 + mt_payload_flits(k->len, nw->p.payload_w);
}
/* flit f (0 = head) of packet k */
static mt_flit pkt_flit(const net_t *nw, const pkt_t *k, unsigned f) {
  const mt_router_params *p = &nw->p;
  unsigned nf = pkt_flits(nw, k), t;
  if (f == 0) {
    t = k->is_ar ? MT_FT_AR_HEAD : (nf == 1 ? MT_FT_HEADTAIL : MT_FT_HEAD);
    return mk_head(p, t, k->vc, k->dst, k->next, k->eject, 0, k->tag, k->len);
  }
  if (k->is_ar)
    t = f == nf - 1 ? MT_FT_AR_TAIL : (f % p->subpkt_flits == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
  else
    t = f == nf - 1 ? MT_FT_TAIL : MT_FT_BODY;
  return mk_data(p, t, k->vc, k->tag, f);
}

static void net_cycle(net_t *nw, unsigned long cyc) {
  const mt_router_params *p = &nw->p;
  unsigned a, i, l, v;
  /* build inputs from the previous outputs */
  for (a = 0; a < nw->nn; a++) {
    mt_router_in *in = &nw->in[a];
    memset(in->in_valid, 0, sizeof in->in_valid);
    memset(in->out_credit, 0, sizeof in->out_credit);
    in->node_id = a;
    in->wd_limit = 100000;
  }
  for (a = 0; a < nw->nn; a++)
    for (i = 0; i < nw->nd; i++) {
      int b = nw->nb[a][i];
      mt_link_slot s, m;
      if (b < 0) continue;
      memset(&s, 0, sizeof s);
      s.valid = nw->out[a].out_valid[i];
      s.flit = nw->out[a].out_flit[i];
      for (v = 0; v < p->num_vcs; v++)
        s.credits |= (uint32_t)nw->out[b].in_credit[nw->nbp[a][i]][v] << v;
      mt_link_step(&nw->link[a][i], &s, &m);
      nw->in[b].in_valid[nw->nbp[a][i]] = m.valid;
      nw->in[b].in_flit[nw->nbp[a][i]] = m.flit;
      for (v = 0; v < p->num_vcs; v++) nw->in[a].out_credit[i][v] = (m.credits >> v) & 1u;
      if ((int)a == nw->watch_node && (int)i == nw->watch_port && m.valid) {
        unsigned t = mt_flit_type(&m.flit, p->payload_w);
        if (!nw->flits_on_link) nw->link_first = cyc;
        nw->link_last = cyc;
        nw->flits_on_link++;
        if (mt_ft_is_head(t)) nw->heads_on_link++;
      }
    }
  for (a = 0; a < nw->nn; a++)
    for (l = 0; l < p->nlocal; l++) {
      unsigned port = nw->nd + l;
      /* NI credits returned by the router */
      for (v = 0; v < p->num_vcs; v++) nw->cred[a][l][v] += nw->out[a].in_credit[port][v];
      /* ejection sink: consume at once, credit straight back, check sequencing */
      if (nw->out[a].out_valid[port]) {
        const mt_flit *f = &nw->out[a].out_flit[port];
        unsigned t = mt_flit_type(f, p->payload_w), vc = mt_flit_vc(f, p->payload_w, p->num_vcs);
        unsigned *ip = &nw->in_pkt[a][l][vc], *tg = &nw->cur_tag[a][l][vc], *sq = &nw->seq[a][l][vc];
        nw->in[a].out_credit[port][vc] = 1;
        if (mt_ft_is_head(t)) {
          if (*ip) nw->bad++;
          *tg = mt_hd_addr(f);
          *sq = 1;
          *ip = t != MT_FT_HEADTAIL;
          /* normal: must be this node and this eject; AR: next (swapped) names the port */
          if (mt_ft_is_normal(t) && (mt_hd_dst(f) != a || mt_hd_eject(f) != l)) nw->bad++;
          if (!mt_ft_is_normal(t) && mt_hd_next(f) != l) nw->bad++;
          if (t == MT_FT_HEADTAIL) nw->delivered++;
        } else {
          if (!*ip || f->w[0] != *tg || f->w[1] != *sq) nw->bad++;
          (*sq)++;
          if (mt_ft_is_tail(t)) {
            *ip = 0;
            nw->delivered++;
          }
        }
      }
      /* injection: the head-of-queue packet, one flit per cycle, with credits */
      if (nw->qh[a][l] != nw->qt[a][l]) {
        pkt_t *k = &nw->q[a][l][nw->qh[a][l] % 64];
        if (nw->cred[a][l][k->vc] > 0) {
          nw->in[a].in_valid[port] = 1;
          nw->in[a].in_flit[port] = pkt_flit(nw, k, nw->sent_flits[a][l]);
          nw->cred[a][l][k->vc]--;
          if (++nw->sent_flits[a][l] == pkt_flits(nw, k)) {
            nw->sent_flits[a][l] = 0;
            nw->qh[a][l]++;
          }
        }
      }
    }
  for (a = 0; a < nw->nn; a++) mt_router_step(&nw->r[a], &nw->in[a], &nw->out[a]);
}

/* Random all-to-all normal packets on a torus (dateline VCs) plus one-hop all-reduce
 * messages: everything must arrive intact, nothing may hang. */
static void test_network(unsigned dims, unsigned k0, unsigned k1, unsigned torus, uint32_t seed) {
  static net_t nw;
  mt_router_params p;
  unsigned long cyc;
  uint32_t s = seed;
  unsigned tag = 1, a, l;
  mt_router_default_params(&p);
  p.dims = dims;
  p.k[0] = k0;
  p.k[1] = k1;
  p.torus = torus;
  p.nlocal = 2;
  p.vc_depth = 6;
  p.ej_depth = 6;
  p.subpkt_flits = 3;
  net_init(&nw, &p, 3);
  for (cyc = 0; cyc < 20000; cyc++) {
    if (cyc < 15000)
      for (a = 0; a < nw.nn; a++)
        for (l = 0; l < p.nlocal; l++) {
          if (mt_xs32(&s) % 8 != 0 || nw.qt[a][l] - nw.qh[a][l] >= 60) continue;
          pkt_t k;
          memset(&k, 0, sizeof k);
          k.tag = tag++;
          k.vc = mt_xs32(&s) % p.num_vcs;
          if (mt_xs32(&s) % 4 == 0) { /* all-reduce to a connected neighbour port */
            unsigned d = mt_xs32(&s) % nw.nd;
            if (nw.nb[a][d] < 0) continue;
            k.is_ar = 1;
            k.next = d;
            k.eject = mt_xs32(&s) % p.nlocal;
            k.len = 1 + mt_xs32(&s) % 200;
          } else {
            k.dst = mt_xs32(&s) % nw.nn;
            k.eject = mt_xs32(&s) % p.nlocal;
            k.len = mt_xs32(&s) % (16 * (p.vc_depth - 1) + 1);
          }
          net_push(&nw, a, l, k);
        }
    net_cycle(&nw, cyc);
  }
  CHECK(nw.bad == 0, "network %ux%u t%u: %lu bad flits", k0, k1, torus, nw.bad);
  CHECK(nw.delivered == nw.injected && nw.injected > 1000,
        "network %ux%u t%u: delivered %lu of %lu", k0, k1, torus, nw.delivered, nw.injected);
  for (a = 0; a < nw.nn; a++) {
    unsigned i, v, errs = 0;
    for (i = 0; i < nw.np; i++)
      for (v = 0; v < p.num_vcs; v++) errs += nw.out[a].wd_err[i][v] + nw.out[a].ovf_err[i][v];
    CHECK(errs == 0, "node %u: %u error flags", a, errs);
  }
  net_free(&nw);
}

/* Efficiency on one link (paper parameters: depth 318, link 150 cycles): one 64 KiB
 * all-reduce message vs 256-byte packets, source node 0 port +X. */
static void test_efficiency(int ar, double *eff, double *rate) {
  static net_t nw;
  mt_router_params p;
  unsigned long cyc;
  unsigned i, tag = 1;
  mt_router_default_params(&p);
  p.vc_depth = 318;
  p.ej_depth = 318;
  net_init(&nw, &p, 150);
  nw.watch_node = 0;
  nw.watch_port = 0;
  if (ar) {
    pkt_t k = {0};
    k.is_ar = 1;
    k.next = 0;
    k.eject = 1;
    k.len = 65536;
    k.tag = tag++;
    net_push(&nw, 0, 0, k);
  } else {
    for (i = 0; i < 256; i++) {
      pkt_t k = {0};
      k.dst = 1;
      k.eject = 1;
      k.len = 256;
      k.tag = tag++;
      k.vc = 0;
      net_push(&nw, 0, 0, k);
      if (i % 60 == 59) { /* queue holds 64: drain in between */
        for (cyc = 0; cyc < 1100; cyc++) net_cycle(&nw, cyc + i * 2000);
      }
    }
  }
  for (cyc = 0; cyc < 6000; cyc++) net_cycle(&nw, 1000000 + cyc);
  CHECK(nw.bad == 0 && nw.delivered == nw.injected, "eff run: bad %lu delivered %lu/%lu", nw.bad,
        nw.delivered, nw.injected);
  *eff = (double)(nw.flits_on_link - nw.heads_on_link) / (double)nw.flits_on_link;
  *rate = (double)nw.flits_on_link / (double)(nw.link_last - nw.link_first + 1);
  if (!ar) *rate = 0; /* the 256-B run injects in batches; only its payload share counts */
  net_free(&nw);
}

/* A long all-reduce message and normal packets share output +X of node 0: neither starves. */
static void test_sharing(void) {
  static net_t nw;
  mt_router_params p;
  unsigned long cyc, ar_f = 0, n_f = 0;
  unsigned i;
  mt_router_default_params(&p);
  net_init(&nw, &p, 2);
  {
    pkt_t k = {0};
    k.is_ar = 1;
    k.next = 0;
    k.eject = 1;
    k.len = 16 * 2000;
    k.tag = 1;
    k.vc = 0;
    net_push(&nw, 0, 0, k);
  }
  for (i = 0; i < 60; i++) {
    pkt_t k = {0};
    k.dst = 1;
    k.eject = 2;
    k.len = 64;
    k.tag = 100 + i;
    k.vc = 1;
    net_push(&nw, 0, 1, k);
  }
  for (cyc = 0; cyc < 800; cyc++) {
    net_cycle(&nw, cyc);
    if (nw.out[0].out_valid[0]) {
      if (mt_ft_is_normal(mt_flit_type(&nw.out[0].out_flit[0], 128))) n_f++;
      else ar_f++;
    }
  }
  /* 800 cycles, both streams backlogged; round-robin per allocation unit alternates one
   * 16-flit sub-packet with one 5-flit packet: shares 16/21 and 5/21 of the busy cycles */
  CHECK(ar_f + n_f >= 790, "sharing: link busy %lu of 800 cycles", ar_f + n_f);
  CHECK(ar_f >= 790 * 16 / 21 - 16 && n_f >= 790 * 5 / 21 - 5,
        "sharing: all-reduce %lu flits, normal %lu flits", ar_f, n_f);
  printf("sharing (C, 800 cycles, link +X of node 0): all-reduce %lu flits, normal %lu flits\n",
         ar_f, n_f);
  net_free(&nw);
}

static void test_link(void) {
  mt_link l;
  mt_link_slot in, out;
  unsigned t;
  CHECK(mt_link_init(&l, 4, NULL) == 0, "link init");
  for (t = 0; t < 12; t++) {
    memset(&in, 0, sizeof in);
    in.valid = 1;
    in.credits = t + 1;
    mt_link_step(&l, &in, &out);
    CHECK(out.credits == (t >= 3 ? t - 2 : 0), "link t=%u out %u", t, out.credits);
  }
  mt_link_free(&l);
  CHECK(mt_link_init(&l, 1, NULL) == 0, "wire init");
  in.credits = 77;
  mt_link_step(&l, &in, &out);
  CHECK(out.credits == 77, "wire");
  mt_link_free(&l);
}

int main(void) {
  double e_ar, r_ar, e_pk, r_pk;
  test_route();
  test_latency();
  test_pacing();
  test_watchdog();
  test_link();
  test_network(2, 4, 4, 1, 11);
  test_network(1, 5, 1, 1, 12);
  test_network(2, 3, 2, 1, 13);
  test_network(2, 3, 3, 0, 14);
  test_sharing();
  test_efficiency(1, &e_ar, &r_ar);
  test_efficiency(0, &e_pk, &r_pk);
  printf("efficiency (C): 64 KiB all-reduce message %.4f payload share, %.4f flits/cycle; "
         "256-B packets %.4f payload share\n",
         e_ar, r_ar, e_pk);
  CHECK(e_ar >= 0.99 && r_ar >= 0.99, "AR efficiency %.4f rate %.4f", e_ar, r_ar);
  CHECK(e_pk > 0.9411 && e_pk < 0.9412, "packet efficiency %.5f (16/17 = 0.94118)", e_pk);
  return MT_TEST_END("test_router");
}
