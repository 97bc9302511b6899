/* SPDX-License-Identifier: Apache-2.0
 * mt_router.c: cycle-accurate model of rtl/mt_router.sv. The step function is written in
 * the RTL's two phases: (1) everything combinational from the state before the edge
 * (route, VC allocation, switch allocation, crossbar), (2) the register updates.
 * docs/reference/router.md describes the rules; every rule here has its twin in rtl/mt_rt_*.sv.
 * For speed the step works per event (docs/reference/router.md, "Speed"); golden traces recorded from
 * the straightforward version (5c3eebf) check every output every cycle (t-c-router_golden,
 * docs/reference/golden.md). */
#include "hw/mt_router.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void mt_router_default_params(mt_router_params *p) {
  memset(p, 0, sizeof *p);
  p->dims = 2;
  p->k[0] = 4;
  p->k[1] = 4;
  p->k[2] = 1;
  p->torus = 1;
  p->nlocal = 4;
  p->payload_w = 128;
  p->num_vcs = 4;
  p->vc_depth = 16;
  p->ej_depth = 16;
  p->subpkt_flits = 16;
  p->step_prio = 0;
  p->wd_w = 24;
  p->period[0] = p->period[1] = p->period[2] = 1;
  p->perturb = 0;
}

int mt_router_check_params(const mt_router_params *p, mt_err *e) {
  if (p->table > 1) return mt_fail(e, "table=%u: 0 (torus/mesh router) or 1 (switch)", p->table);
  if (p->pipe > 2 || (p->pipe && p->table)) return mt_fail(e, "RtPipe=%u: must be 0, or 1 or 2 at table = 0 (table=%u)", p->pipe, p->table);
  if (p->table) {
    if (p->nnet + p->nlocal < 1 || p->nnet + p->nlocal > MT_RT_MAX_PORTS)
      return mt_fail(e, "switch radix %u (%u network + %u NI ports): must be 1..%d", p->nnet + p->nlocal, p->nnet, p->nlocal, MT_RT_MAX_PORTS);
  } else {
    if (p->dims < 1 || p->dims > 3) return mt_fail(e, "D=%u: must be 1..3", p->dims);
    if (p->nlocal < 1) return mt_fail(e, "L=%u: must be >= 1", p->nlocal);
    if (2 * p->dims + p->nlocal > MT_RT_MAX_PORTS) return mt_fail(e, "2*D+L=%u: must be <= %d", 2 * p->dims + p->nlocal, MT_RT_MAX_PORTS);
  }
  if (p->payload_w < 128 || p->payload_w % 32 || p->payload_w > MT_FLIT_MAX_PAYLOAD_W)
    return mt_fail(e, "PayloadW=%u: must be a multiple of 32 in 128..%d", p->payload_w, MT_FLIT_MAX_PAYLOAD_W);
  if (p->num_vcs < 2 || p->num_vcs % 2 || p->num_vcs > MT_RT_MAX_VCS) return mt_fail(e, "NumVcs=%u: must be even, 2..%d", p->num_vcs, MT_RT_MAX_VCS);
  if (p->table && (p->hop_classes < 1 || p->num_vcs % p->hop_classes))
    return mt_fail(e, "hop_classes=%u: must divide NumVcs=%u", p->hop_classes, p->num_vcs);
  if (p->vc_depth < 1 || p->vc_depth > 65535 || p->ej_depth < 1 || p->ej_depth > 65535)
    return mt_fail(e, "VcDepth=%u, EjDepth=%u: must be 1..65535", p->vc_depth, p->ej_depth);
  if (p->subpkt_flits < 1 || p->subpkt_flits > p->vc_depth || p->subpkt_flits > p->ej_depth)
    return mt_fail(e, "SubPktFlits=%u: must be 1..min(VcDepth, EjDepth)", p->subpkt_flits);
  if (p->wd_w < 1 || p->wd_w > 31) return mt_fail(e, "WdW=%u: must be 1..31", p->wd_w);
  for (unsigned d = 0; d < 3; d++)
    if (p->period[d] > 255 || (p->period[d] > 1 && (p->table || d >= p->dims)))
      return mt_fail(e, "LinkPeriods[%u]=%u: must be 0..255 (0 and 1: every cycle), and at most 1 for a dimension the router does not have (D=%u%s)", d, p->period[d],
                     p->dims, p->table ? ", a switch" : "");
  unsigned tot = 1;
  for (unsigned d = 0; !p->table && d < p->dims; d++) {
    if (p->k[d] < 2 || p->k[d] > 4096) return mt_fail(e, "K%u=%u: every used dimension must be 2..4096", d, p->k[d]);
    tot *= p->k[d];
  }
  if (tot > 4096) return mt_fail(e, "%u nodes: at most 4096", tot);
  return 0;
}

int mt_router_init(mt_router *r, const mt_router_params *p, mt_err *e) {
  unsigned i, o;
  memset(r, 0, sizeof *r);
  if (mt_router_check_params(p, e)) return -1;
  r->p = *p;
  r->nd = p->table ? p->nnet : 2 * p->dims;
  r->np = r->nd + p->nlocal;
  r->nv = p->num_vcs;
  r->n = r->np * r->nv;
  r->fb = p->payload_w / 8;
  r->fw = mt_flit_words(p->payload_w, p->num_vcs);
  r->tw = p->payload_w / 32;
  r->nw = (r->n + 63) / 64;
  r->vmask = (1u << mt_flit_vcw(p->num_vcs)) - 1u;
  r->buf = (uint32_t *)calloc((size_t)r->n * p->vc_depth * r->fw, sizeof *r->buf);
  r->dst_rt = (uint8_t *)calloc(4096, 1);
  if (p->table) r->tab = (uint16_t *)calloc(4096, sizeof *r->tab);
  if (!r->buf || !r->dst_rt || (p->table && !r->tab)) {
    mt_router_free(r);
    return mt_fail(e, "router buffers: out of memory (%u VCs of %u flits)", r->n, p->vc_depth);
  }
  for (i = 0; i < r->n; i++) {
    r->ivc_port[i] = (uint8_t)(i / r->nv);
    r->ivc_vc[i] = (uint8_t)(i % r->nv);
    r->ivc_pv[i] = (uint8_t)(i / r->nv * MT_RT_MAX_VCS + i % r->nv);
    r->rdo[i] = r->wro[i] = i * p->vc_depth * r->fw;
    r->bend[i] = (i + 1u) * p->vc_depth * r->fw;
  }
  r->bsz = p->vc_depth * r->fw;
  memset(r->cand_o, 0xff, sizeof r->cand_o);
  memset(r->vc_bytes, 0xff, r->nv);
  r->wd_min = UINT64_MAX;
  r->out_bytes = offsetof(mt_router_out, wd_err);
  for (o = 0; o < r->np; o++) {
    r->rr[o] = (uint16_t)(r->n - 1);
    r->va_rr[o] = (uint16_t)(r->n - 1);
    for (i = 0; i < r->nv; i++)
      r->cred[o][i] = (uint16_t)(o < r->nd ? p->vc_depth : p->ej_depth);
    r->per[o] = (uint8_t)(!p->table && o < r->nd && p->period[o / 2] > 1u ? p->period[o / 2] : 1u);
    if (r->per[o] > 1u) r->pacedm |= 1u << o;
  }
  return 0;
}

int mt_router_load_table(mt_router *r, const uint16_t *tab, unsigned n, mt_err *e) {
  if (!r->p.table) return mt_fail(e, "route table: the router is not a switch (table=0)");
  if (n > 4096) return mt_fail(e, "route table: %u entries, at most 4096 (12-bit node ids)", n);
  for (unsigned d = 0; d < n; d++) {
    const unsigned base = tab[d] & 15u, cnt = ((tab[d] >> 4) & 15u) + 1u;
    if ((tab[d] & MT_RT_TAB_VALID) && base + cnt > r->np)
      return mt_fail(e, "route table entry %u: ports %u..%u, the switch has ports 0..%u", d, base, base + cnt - 1u, r->np - 1u);
  }
  memset(r->tab, 0, 4096 * sizeof *r->tab);
  memcpy(r->tab, tab, (size_t)n * sizeof *tab);
  /* routes of heads classified already change: classify every front flit again */
  memset(r->cand, 0, sizeof r->cand);
  memset(r->vcand, 0, sizeof r->vcand);
  memset(r->cand_o, 0xff, sizeof r->cand_o);
  memcpy(r->fresh, r->ne, sizeof r->fresh);
  return 0;
}

void mt_router_free(mt_router *r) {
  free(r->buf);
  r->buf = NULL;
  free(r->dst_rt);
  r->dst_rt = NULL;
  free(r->tab);
  r->tab = NULL;
}

/* Switch route of a head from source src to dst arriving on in_port / VC in_vc: output port
 * from the table (a set of ports: base + src mod n) and its allowed output VCs (every VC
 * toward an NI; toward a network port the hop class of mt_router_params); *bad: no valid
 * entry (the head leaves on port 0, rtl/mt_rt_table_fn.svh). */
static unsigned table_route(const mt_router *r, unsigned src, unsigned dst, unsigned in_port, unsigned in_vc, uint32_t *mask, int *bad) {
  const unsigned e = r->tab[dst & 0xfffu], nv = r->nv, h = r->p.hop_classes;
  const unsigned cnt = ((e >> 4) & 15u) + 1u, o = (e & MT_RT_TAB_VALID) ? (e & 15u) + (cnt > 1u ? src % cnt : 0u) : 0u;
  *bad = !(e & MT_RT_TAB_VALID);
  *mask = (1u << nv) - 1u;
  if (o < r->nd && h > 1u) {
    const unsigned w = nv / h, c = in_port < r->nd ? (in_vc / w + 1u < h ? in_vc / w + 1u : h - 1u) : 0u;
    *mask = ((1u << w) - 1u) << (c * w);
  }
  return o;
}

/* coordinate of node id in dimension d (K of unused dimensions is 1) */
static unsigned coord(const mt_router_params *p, unsigned id, unsigned d) {
  unsigned k0 = p->k[0], k1 = p->dims > 1 ? p->k[1] : 1, k2 = p->dims > 2 ? p->k[2] : 1;
  if (d == 0) return id % k0;
  if (d == 1) return (id / k0) % k1;
  return (id / (k0 * k1)) % k2;
}

/* The normal-packet part of mt_router_route for destination dst at node node, as one byte
 * (see mt_router.h, dst_rt): computed once per (node, destination). */
static uint8_t dst_route(const mt_router *r, unsigned node, unsigned dst) {
  const mt_router_params *p = &r->p;
  unsigned d;
  for (d = 0; d < p->dims; d++) {
    unsigned k = p->k[d], m = coord(p, node, d), c = coord(p, dst, d);
    int plus, wrap = 0, one;
    if (c == m) continue;
    if (p->torus) {
      unsigned dp = c >= m ? c - m : c + k - m;
      plus = 2 * dp <= k;
      wrap = plus ? (m == k - 1) : (m == 0);
      one = plus ? dp == 1 : dp == k - 1;
    } else {
      plus = c > m;
      one = plus ? c == m + 1 : m == c + 1;
    }
    for (unsigned d2 = d + 1; d2 < p->dims; d2++)
      if (coord(p, node, d2) != coord(p, dst, d2)) one = 0;
    return (uint8_t)(0x80u | (one ? 0x40u : 0u) | (wrap ? 0x10u : 0u) | (2 * d + (plus ? 0u : 1u)));
  }
  return 0xa0u;
}

/* Allowed output VCs of a normal head toward a network port, from its route byte e (not
 * "destination reached"), arriving on in_port / VC in_vc: on a torus its dateline class
 * (class 1 on the wrap link or when it arrived in class 1 along the same dimension), on a
 * mesh every VC; injected here for a neighbour, only the highest of them, so a source's
 * packets to a neighbour stay in injection order (docs/reference/router.md "In-order injection"). */
static inline uint32_t normal_vc_mask(const mt_router *r, unsigned e, unsigned in_port, unsigned in_vc) {
  const unsigned nd = r->nd, o = e & 0xfu;
  const uint32_t all = (1u << r->nv) - 1u, lower = (1u << (r->nv / 2)) - 1u;
  uint32_t mask = all;
  if (r->p.torus) {
    const int cls1 = (e & 0x10u) || (in_port < nd && in_port / 2 == o / 2 && in_vc >= r->nv / 2);
    mask = cls1 ? all & ~lower : lower;
  }
  if (in_port >= nd && (e & 0x40u)) mask = 1u << (31 - __builtin_clz(mask));
  return mask;
}

void mt_router_route(const mt_router *r, unsigned node_id, unsigned in_port, unsigned in_vc,
                     const mt_flit *head, unsigned *out_port, uint32_t *vc_mask, int *swap) {
  const mt_router_params *p = &r->p;
  const unsigned t = mt_flit_type(head, p->payload_w), nd = r->nd;
  *swap = 0;
  *vc_mask = (1u << r->nv) - 1u;
  if (p->table) {
    int bad;
    *out_port = table_route(r, mt_hd_src(head), mt_hd_dst(head), in_port, in_vc, vc_mask, &bad);
    return;
  }
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
  {
    const unsigned e = dst_route(r, node_id, mt_hd_dst(head));
    if (e & 0x20u) {
      unsigned ej = mt_hd_eject(head);
      *out_port = nd + (ej < p->nlocal ? ej : 0);
    } else {
      *out_port = e & 0xfu;
      *vc_mask = normal_vc_mask(r, e, in_port, in_vc);
    }
  }
}

/* Copies n >= 4 words in 16-byte pieces (the last one overlapping): no libc call. */
static inline void copy_words(uint32_t *d, const uint32_t *s, unsigned n) {
  unsigned k;
  if (n == 5u) { /* PayloadW 128: the paper's flit */
    memcpy(d, s, 16);
    d[4] = s[4];
    return;
  }
  for (k = 0; k + 4u <= n; k += 4u) memcpy(d + k, s + k, 16);
  if (k < n) memcpy(d + n - 4u, s + n - 4u, 16);
}

/* Bit b of the result: byte b of the 16 bytes at x (b < nb) is not zero. */
static inline unsigned nonzero_bytes(const uint8_t *x, unsigned nb) {
  uint64_t a, b;
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
  unsigned m;
  memcpy(&a, x, 8);
  memcpy(&b, x + 8, 8);
  /* high bit of each byte := byte != 0 */
  a = ((a & lo7) + lo7) | a;
  b = ((b & lo7) + lo7) | b;
  a &= ~lo7;
  b &= ~lo7;
  /* gather the 8 high bits of each word */
  m = (unsigned)((a >> 7) * 0x0102040810204080ULL >> 56) |
    ((unsigned)((b >> 7) * 0x0102040810204080ULL >> 56) << 8);
  return nb >= 16 ? m : m & ((1u << nb) - 1u);
}

#define SET(s, i) ((s)[(i) >> 6] |= (uint64_t)1 << ((i)&63u))
#define CLR(s, i) ((s)[(i) >> 6] &= ~((uint64_t)1 << ((i)&63u)))

/* The transfer of a switch's packet head (words 0-1 of the packet info): its source, flow,
 * op and step, and bit 47 so that no key is 0. Packets of one transfer share child and flow,
 * so at the NI the one behind is due when the one in front was (docs/reference/switch.md, "Joining a
 * non-empty NI-port VC"). */
static inline uint64_t join_key(const uint32_t *f) {
  const uint32_t w1 = f[1], src = (f[0] >> 12) & 0xfffu;
  return (uint64_t)1 << 47 | (uint64_t)src << 32 | (w1 & ~(uint32_t)0xc000u); /* not LAST, bit 47 */
}

/* A new front flit of input VC i: for a head of an idle VC, its route (as
 * mt_router_route, with the per-destination cache); then the output it asks for, if any:
 * an idle VC's head (pipe 2: a VC of it, vcand), a head whose VC is allocated (pipe 2), or
 * the next sub-packet of an active all-reduce message. */
static void classify(mt_router *r, unsigned i, unsigned node_id) {
  const mt_router_params *p = &r->p;
  const uint32_t *f = &r->buf[r->rdo[i]];
  const unsigned t = f[r->tw] & 7u, nv = r->nv;
  unsigned o;
  if (!r->active[i]) {
    const unsigned ip = r->ivc_port[i], nd = r->nd;
    uint32_t mask = (1u << nv) - 1u;
    int sw = 0;
    if (!mt_ft_is_head(t)) return; /* waits forever (a broken upstream) */
    if (p->table) {
      int bad;
      o = table_route(r, (f[0] >> 12) & 0xfffu, f[0] & 0xfffu, ip, r->ivc_vc[i], &mask, &bad);
      if (bad) {
        r->rt_err[ip][r->ivc_vc[i]] = 1;
        r->nerr = 1;
      }
    } else if (!mt_ft_is_normal(t)) {
      const unsigned nx = (f[0] >> 24) & 0xfu;
      if (ip < nd) {
        o = nd + (nx < p->nlocal ? nx : 0);
      } else {
        o = nx < r->np ? nx : 0;
        sw = 1;
      }
    } else {
      const unsigned dst = f[0] & 0xfffu;
      unsigned e = r->dst_rt[dst];
      if (!e) e = r->dst_rt[dst] = dst_route(r, node_id, dst);
      if (e & 0x20u) {
        const unsigned ej = f[0] >> 28;
        o = nd + (ej < p->nlocal ? ej : 0);
      } else {
        o = e & 0xfu;
        mask = normal_vc_mask(r, e, ip, r->ivc_vc[i]);
      }
    }
    r->rt_port[i] = (uint8_t)o;
    r->rt_mask[i] = (uint16_t)mask;
    r->rt_swap[i] = (uint8_t)sw;
    r->rt_prio[i] = (uint16_t)(f[1] >> 16);
    r->rt_src[i] = (uint16_t)((f[0] >> 12) & 0xfffu);
    r->rt_key[i] = p->table && t == MT_FT_HEAD ? join_key(f) : 0u;
    /* credits >= 1 and (credits - 1) * fb >= len  <=>  credits >= 1 + ceil(len / fb) */
    r->rt_need[i] = t == MT_FT_HEAD ? 1u + (uint32_t)(((uint64_t)f[3] + r->fb - 1u) / r->fb) : 1u;
    if (p->pipe >= 2) {
      SET(r->vcand[o], i);
      return;
    }
  } else if (r->hp[i] || (r->is_ar[i] && !mt_ft_is_normal(t) && !mt_ft_is_head(t))) {
    o = r->oport[i];
  } else {
    return; /* the holder path (normal packets), or waits forever (a broken upstream) */
  }
  SET(r->cand[o], i);
  r->cand_o[i] = (uint8_t)o;
  r->odirty |= 1u << o;
}

/* Can candidate i start a unit on output o now (output not held)? *vc: its output VC.
 * The rule of mt_rt_vc_alloc (lowest allowed free VC with the credits of the first unit) and
 * of sub-packet starts (SubPktFlits credits). */
static inline int eligible(const mt_router *r, unsigned i, unsigned o, unsigned *vc) {
  if (r->active[i]) {
    *vc = r->ovc[i];
    return r->hp[i] || r->cred[o][r->ovc[i]] >= r->p.subpkt_flits;
  }
  {
    uint32_t ok = r->rt_mask[i] & ~(uint32_t)r->busy_vc[o];
    /* a local (ejection) output VC takes a new unit only when empty: the NI consumes units
     * in schedule order, so none may wait behind another in one FIFO (docs/reference/router.md,
     * "Empty ejection VCs"); on a switch a packet may also join a non-empty one whose last
     * unit was of its transfer (rt_key), with the credits of the whole packet */
    const int loc = o >= r->nd;
    const uint32_t ejd = r->p.ej_depth, need = r->rt_need[i];
    const uint64_t key = r->rt_key[i];
    int capped = -1; /* the source cap, computed at the first empty VC */
    while (ok) {
      const unsigned v = (unsigned)__builtin_ctz(ok);
      const uint32_t c = r->cred[o][v];
      ok &= ok - 1u;
      if (!loc) {
        if (c < need) continue;
      } else if (c >= ejd) {
        if (capped < 0) {
          /* one source holds at most NumVcs-1 VCs of a local output (docs/reference/router.md); a
           * joining packet occupies no new VC, so the cap is for empty VCs only */
          unsigned same = 0;
          for (unsigned w = 0; r->nv > 1 && w < r->nv; w++)
            same += (((r->busy_vc[o] >> w) & 1u) || r->cred[o][w] < ejd) && r->ej_src[o][w] == r->rt_src[i];
          capped = r->nv > 1 && same >= r->nv - 1u;
        }
        if (capped) continue;
      } else if (!key || r->ej_key[o][v] != key || c < need) {
        continue;
      }
      *vc = v;
      return 1;
    }
  }
  return 0;
}

/* Round robin: the first eligible candidate of s after rr, cyclically (rr itself last), as
 * rtl/mt_rt_sw_alloc.sv; with step priority only among those of the smallest step.
 * Returns the input VC or -1. The switch allocation of output o (s = cand[o], rr = rr[o]) and,
 * at pipe 2, its VC allocation (vcand[o], va_rr[o]). */
static int sw_alloc(const mt_router *r, unsigned o, unsigned *vc, const uint64_t *s, unsigned rr) {
  const unsigned nw = r->nw, n = r->n, st0 = rr + 1u == n ? 0u : rr + 1u;
  unsigned pass, w;
  if (r->p.step_prio) {
    uint64_t el[MT_RT_SETW];
    unsigned minp = 0x10000u, v;
    for (w = 0; w < nw; w++) {
      el[w] = 0;
      for (uint64_t m = s[w]; m; m &= m - 1u) {
        unsigned i = w * 64u + (unsigned)__builtin_ctzll(m), pr;
        if (!eligible(r, i, o, &v)) continue;
        pr = r->active[i] ? r->step[i] : r->rt_prio[i];
        if (pr < minp) {
          minp = pr;
          memset(el, 0, sizeof el);
        }
        if (pr == minp) el[w] |= (uint64_t)1 << (i & 63u);
      }
    }
    if (minp == 0x10000u) return -1;
    for (pass = 0; pass < 2; pass++)
      for (w = pass ? 0 : st0 >> 6; w < nw; w++) {
        uint64_t m = el[w];
        if (!pass && w == st0 >> 6) m &= ~(uint64_t)0 << (st0 & 63u);
        if (m) {
          unsigned i = w * 64u + (unsigned)__builtin_ctzll(m);
          eligible(r, i, o, vc);
          return (int)i;
        }
      }
    return -1;
  }
  /* in order st0..n-1, then 0..st0-1 */
  for (pass = 0; pass < 2; pass++)
    for (w = pass ? 0 : st0 >> 6; w < nw; w++) {
      uint64_t m = s[w];
      if (!pass && w == st0 >> 6) m &= ~(uint64_t)0 << (st0 & 63u);
      else if (pass && w == st0 >> 6) m &= ((uint64_t)1 << (st0 & 63u)) - 1u;
      for (; m; m &= m - 1u) {
        unsigned i = w * 64u + (unsigned)__builtin_ctzll(m);
        if (eligible(r, i, o, vc)) return (int)i;
      }
      if (pass && w == st0 >> 6) return -1;
    }
  return -1;
}

/* Input VC i sent its front flit: the pop, its credit pulse (row cp, port bit in *credm), the
 * watchdog count 0, and the next flit is a new front. While i holds its output (hold: it sent
 * a Head or Body), the next flit goes out on the holder path, whatever it is: classify would
 * only add it to the output's candidates, which a held output does not look at (the hold
 * ends only with a flit of i sent, and that pop classifies the one behind). */
static inline void pop_front(mt_router *r, unsigned i, unsigned hold, uint8_t (*cp)[MT_RT_MAX_VCS], uint32_t *credm, uint64_t now) {
  const uint32_t rn = r->rdo[i] + r->fw;
  r->rdo[i] = rn == r->bend[i] ? rn - r->bsz : rn;
  if (r->cand_o[i] != 0xffu) {
    CLR(r->cand[r->cand_o[i]], i);
    r->cand_o[i] = 0xffu;
  }
  if (--r->cnt[i] == 0) CLR(r->ne, i);
  else if (!hold) SET(r->fresh, i);
  const unsigned pv = r->ivc_pv[i];
  (&cp[0][0])[pv] = 1; /* cp[pv / MT_RT_MAX_VCS][pv % MT_RT_MAX_VCS] */
  *credm |= 1u << (pv / MT_RT_MAX_VCS);
  r->wd_zero[i] = now;
}

/* A unit of input VC i starts on output o, VC ov (its head of type t allocated that VC): a
 * local output VC records its source and transfer; with start, the packet or message
 * starts (i active on o/ov, the output VC busy). */
static inline void unit_start(mt_router *r, unsigned i, unsigned o, unsigned ov, unsigned t, unsigned start) {
  if (o >= r->nd) {
    r->ej_src[o][ov] = r->rt_src[i];
    r->ej_key[o][ov] = r->rt_key[i];
  }
  if (!start) return;
  r->active[i] = 1;
  r->is_ar[i] = t == MT_FT_AR_HEAD;
  r->oport[i] = (uint8_t)o;
  r->ovc[i] = (uint8_t)ov;
  r->step[i] = r->rt_prio[i];
  r->busy_vc[o] |= (uint16_t)(1u << ov);
}

/* The step does per-event work; its decisions are those of the straightforward two-phase
 * description (its golden traces, on long random and rule-breaking traffic, are checked
 * cycle by cycle by t-c-router_golden). */
void mt_router_step(mt_router *r, const mt_router_in *in, mt_router_out *out) {
  const mt_router_params *p = &r->p;
  const unsigned nv = r->nv, np = r->np, nw = r->nw, fw = r->fw, tw = r->tw;
  const unsigned depth = p->vc_depth;
  const uint32_t vmask = r->vmask;
  const uint64_t now = r->cycles;
  unsigned i, o, v, w;
  unsigned sendo = 0; /* outputs that send */
  uint32_t sendf = 0; /* of those, the ones sent by the free outputs' path (below) */
  unsigned nsent = 0;
  uint16_t win[MT_RT_MAX_PORTS];
  uint8_t wvc[MT_RT_MAX_PORTS];

  if (in->node_id != r->rt_node) { /* routes were computed for another node id */
    memset(r->dst_rt, 0, 4096);
    memset(r->cand, 0, sizeof r->cand);
    memset(r->vcand, 0, sizeof r->vcand);
    memset(r->cand_o, 0xff, sizeof r->cand_o);
    memcpy(r->fresh, r->ne, sizeof r->fresh);
    r->rt_node = in->node_id;
  }
  /* phase 1: from the state before the edge. New front flits first. */
  for (w = 0; w < nw; w++) {
    uint64_t m = r->fresh[w];
    r->fresh[w] = 0;
    for (; m; m &= m - 1u) classify(r, w * 64u + (unsigned)__builtin_ctzll(m), in->node_id);
  }
  /* switch allocation per output port; an output pacing its link sends nothing (and stays
   * dirty: it looks at its candidates when its pause ends). Held outputs are decided where
   * they send (phase 2, from the state before the edge: what they read, no push and no
   * other output's send changes). Free outputs whose state or candidates changed: the
   * round robin among the candidates. */
  for (unsigned om = r->odirty & ~r->heldm & ~r->pacem; om; om &= om - 1u) {
    o = (unsigned)__builtin_ctz(om);
    r->odirty &= ~(1u << o); /* nothing to do until the output or its candidates change */
    uint64_t any = 0;
    for (w = 0; w < nw; w++) any |= r->cand[o][w];
    if (any) {
      unsigned vc = 0;
      const int k = sw_alloc(r, o, &vc, r->cand[o], r->rr[o]);
      if (k >= 0) {
        win[o] = (uint16_t)k;
        wvc[o] = (uint8_t)vc;
        sendo |= 1u << o;
        sendf |= 1u << o;
      }
    }
  }

  /* pipe 2: VC allocation of every output with candidates (not held, not paced) */
  uint32_t vam = 0;
  int16_t vwin[MT_RT_MAX_PORTS];
  uint8_t vvc[MT_RT_MAX_PORTS];
  if (p->pipe >= 2)
    for (o = 0; o < np; o++) {
      uint64_t any = 0;
      for (w = 0; w < nw; w++) any |= r->vcand[o][w];
      unsigned vc = 0;
      const int k = any ? sw_alloc(r, o, &vc, r->vcand[o], r->va_rr[o]) : -1;
      if (k >= 0) {
        vwin[o] = (int16_t)k;
        vvc[o] = (uint8_t)vc;
        vam |= 1u << o;
      }
    }

  /* phase 2: register updates and outputs */
  /* Output buffer: one of the last two this router wrote holds zeros but where that step
   * wrote its valid ports, credit rows and error flags: only those are cleared (the credit
   * rows here, of the valid ports at the end only those that sent nothing now: a port that
   * sends gets all of its flit's live words). Any other buffer is cleared in full but for
   * the error flags (copied or cleared below); a libc call: faster than the inlined rep stos of a constant size. */
  const int ob = out == r->ob[0] ? 0 : out == r->ob[1] ? 1
                                                       : -1;
  uint32_t credm = 0; /* input ports with a credit pulse in *out */
  if (ob >= 0) {
    /* the rows from the first to the last with a pulse (most of them have one) */
    const uint32_t co = r->obc[ob];
    if (co)
      for (o = (unsigned)__builtin_ctz(co); o <= 31u - (unsigned)__builtin_clz(co); o++) memset(out->in_credit[o], 0, sizeof out->in_credit[0]);
  } else {
    memset(out, 0, r->out_bytes);
    r->ob[1] = r->ob[0];
    r->obv[1] = r->obv[0];
    r->obc[1] = r->obc[0];
    r->obe[1] = r->obe[0];
    r->ob[0] = out;
  }
  /* push: accepted iff the buffer was not full before the edge. Before the pops below, so
   * cnt is still the count before the edge; a push writes behind the last flit, never into
   * the front slot a pop reads (an empty VC sends nothing, a full one takes nothing). ne0:
   * the non-empty VCs before the edge, for the held outputs below (a fixed-size copy). */
  uint64_t ne0[MT_RT_SETW];
  memcpy(ne0, r->ne, sizeof ne0);
  for (unsigned vm = nonzero_bytes(in->in_valid, np); vm; vm &= vm - 1u) {
    o = (unsigned)__builtin_ctz(vm);
    v = (in->in_flit[o].w[tw] >> 3) & vmask;
    if (v >= nv) continue; /* VC field beyond NumVcs: dropped (cannot happen for even powers) */
    i = o * nv + v;
    if (r->cnt[i] < depth) {
      const uint32_t wr = r->wro[i], wn = wr + fw;
      r->wro[i] = wn == r->bend[i] ? wn - r->bsz : wn;
      copy_words(&r->buf[wr], in->in_flit[o].w, fw);
      if (r->cnt[i]++ == 0) {
        SET(r->ne, i);
        SET(r->fresh, i);
        r->wd_zero[i] = now;
        if (now < r->wd_min) r->wd_min = now;
      }
    } else {
      r->ovf_err[o][v] = 1;
      r->nerr = 1;
    }
  }
  {
    uint8_t(*cp)[MT_RT_MAX_VCS] = out->in_credit;
    if (p->perturb == 1) { /* credit pulses one cycle late */
      memcpy(out->in_credit, r->pt_cred, sizeof r->pt_cred);
      memset(r->pt_cred, 0, sizeof r->pt_cred);
      cp = r->pt_cred;
      credm = (1u << np) - 1u;
    }
    /* Held outputs: the unit in progress continues, with a flit (before the edge: ne0) and a
     * credit, on the holder's output VC; the round robin stays, no unit starts. The holder of
     * a held output is always an active input VC whose output is this one (held is set only
     * by a winner that sends a Head or a Body: an idle VC's Head activates it with this
     * output; an active VC only wins its own output; its Tail ends the unit and the hold
     * together); were it not active, it would send on the free outputs' path below. */
    for (unsigned om = r->heldm & ~r->pacem; om; om &= om - 1u) {
      o = (unsigned)__builtin_ctz(om);
      i = r->holder[o];
      const unsigned ov = r->ovc[i];
      if (!((ne0[i >> 6] >> (i & 63u)) & 1u) || r->cred[o][ov] == 0) continue;
      sendo |= 1u << o;
      if (!r->active[i]) {
        win[o] = (uint16_t)i;
        wvc[o] = (uint8_t)ov;
        sendf |= 1u << o;
        continue;
      }
      nsent++;
      const uint32_t *f = &r->buf[r->rdo[i]];
      const unsigned t = f[tw] & 7u;
      uint32_t *q = out->out_flit[o].w;
      copy_words(q, f, fw);
      q[tw] = (f[tw] & ~(vmask << 3)) | (ov << 3);
      out->out_valid[o] = 1;
      r->cred[o][ov]--;        /* counted with the credit inputs below */
      if ((0xcdu >> t) & 1u) { /* unit end: the output looks at its candidates again */
        r->held[o] = 0;
        r->heldm &= ~(1u << o);
        r->odirty |= 1u << o;
        if ((0x48u >> t) & 1u) { /* Tail, all-reduce Tail: it ends */
          r->active[i] = 0;
          r->busy_vc[o] &= (uint16_t) ~(1u << ov);
        }
        pop_front(r, i, 0u, cp, &credm, now);
      } else {
        pop_front(r, i, 1u, cp, &credm, now);
      }
    }
    for (unsigned so = sendf; so; so &= so - 1u) {
      o = (unsigned)__builtin_ctz(so);
      i = win[o];
      nsent++;
      const uint32_t *f = &r->buf[r->rdo[i]];
      const unsigned t = f[tw] & 7u, ov = wvc[o];
      const int was_held = r->held[o];
      uint32_t *q = out->out_flit[o].w;
      copy_words(q, f, fw);
      q[tw] = (f[tw] & ~(vmask << 3)) | ((ov & vmask) << 3);
      const unsigned act = r->active[i], ob = 1u << o;
      /* next/eject swap: an all-reduce head routed at a local input (pipe 2: sent after its
       * VC allocation) */
      if (t == MT_FT_AR_HEAD && (!act || r->hp[i]) && r->rt_swap[i]) mt_hd_swap_next_eject(&out->out_flit[o]);
      out->out_valid[o] = 1;
      r->cred[o][ov]--; /* counted with the credit inputs below */
      r->odirty |= ob;
      /* unit end (bit t of 0xcd): Tail, Head&Tail; all-reduce Head, Sub-Tail, Tail */
      const unsigned hold = ((0xcdu >> t) & 1u) ^ 1u;
      r->held[o] = (uint8_t)hold;
      r->heldm = (r->heldm & ~ob) | (hold << o);
      r->holder[o] = hold ? (uint16_t)i : r->holder[o];
      r->rr[o] = was_held ? r->rr[o] : (uint16_t)i;
      if (!act) {
        /* Head, all-reduce Head (bit t of 0x11): the packet/message starts */
        unit_start(r, i, o, ov, t, (0x11u >> t) & 1u);
      } else if ((0x48u >> t) & 1u || (r->hp[i] && t == MT_FT_HEADTAIL)) {
        /* Tail, all-reduce Tail; pipe 2, a Head&Tail after its VC allocation: it ends */
        r->active[i] = 0;
        r->busy_vc[o] &= (uint16_t) ~(1u << ov);
      }
      r->hp[i] = 0;
      pop_front(r, i, hold, cp, &credm, now);
    }
    r->flits_out += nsent;
  }
  /* pipe 2: the heads granted a VC: their packet or message starts (the state an idle VC's
   * sent head sets at pipe 0), and they ask for the switch from the next cycle */
  for (unsigned vm = vam; vm; vm &= vm - 1u) {
    o = (unsigned)__builtin_ctz(vm);
    i = (unsigned)vwin[o];
    const unsigned ov = vvc[o], t = r->buf[r->rdo[i] + tw] & 7u;
    CLR(r->vcand[o], i);
    r->va_rr[o] = (uint16_t)i;
    unit_start(r, i, o, ov, t, 1u);
    r->hp[i] = 1;
    SET(r->cand[o], i);
    r->cand_o[i] = (uint8_t)o;
    r->odirty |= 1u << o;
  }
  if (ob >= 0) /* the valid ports of the buffer's last step that sent nothing now */
    for (unsigned vo = r->obv[ob] & ~sendo; vo; vo &= vo - 1u) {
      o = (unsigned)__builtin_ctz(vo);
      out->out_valid[o] = 0;
      memset(out->out_flit[o].w, 0, fw * sizeof out->out_flit[o].w[0]);
    }
  /* pacing: an output that sent waits per - 1 cycles (the RTL's pace_q) */
  if (r->pacedm) {
    for (unsigned pm = r->pacem; pm; pm &= pm - 1u) {
      o = (unsigned)__builtin_ctz(pm);
      if (--r->pace[o] == 0) r->pacem &= ~(1u << o);
    }
    for (unsigned so = sendo & r->pacedm; so; so &= so - 1u) {
      o = (unsigned)__builtin_ctz(so);
      r->pace[o] = (uint8_t)(r->per[o] - 1u);
      r->pacem |= 1u << o;
    }
  }
  /* credit counters: take (above) and give */
  if (p->perturb == 2) { /* incoming credits counted one cycle late */
    for (o = 0; o < np; o++)
      for (v = 0; v < nv; v++) {
        uint8_t g = r->pt_cred[o][v];
        r->pt_cred[o][v] = in->out_credit[o][v];
        r->cred[o][v] = (uint16_t)(r->cred[o][v] + g);
      }
    r->odirty = (1u << np) - 1u;
  } else {
#if defined(__SSE2__)
    /* a row of credit pulses (bytes) widened to 16-bit lanes and added (mod 2^16) */
    const __m128i msk = _mm_loadu_si128((const __m128i *)r->vc_bytes), z = _mm_setzero_si128();
    o = 0;
    if (nv <= 8) { /* two rows at once: the low 8 bytes of rows o and o + 1 in one register */
      const __m128i msk2 = _mm_unpacklo_epi64(msk, msk);
      uint64_t zr = ~(uint64_t)0; /* byte o: bit v set iff row o's byte v is 0 (rows < 8) */
      for (; o + 1u < np && o < 8u; o += 2u) {
        const __m128i x = _mm_and_si128(_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)in->out_credit[o]),
                                                           _mm_loadl_epi64((const __m128i *)in->out_credit[o + 1u])),
                                        msk2);
        __m128i *c0 = (__m128i *)r->cred[o], *c1 = (__m128i *)r->cred[o + 1u];
        _mm_storeu_si128(c0, _mm_add_epi16(_mm_loadu_si128(c0), _mm_unpacklo_epi8(x, z)));
        _mm_storeu_si128(c1, _mm_add_epi16(_mm_loadu_si128(c1), _mm_unpackhi_epi8(x, z)));
        zr &= ~((uint64_t)0xffffu << (8u * o)) | (uint64_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, z)) << (8u * o);
      }
      /* rows with a pulse: bit o := byte o of ~zr is not 0 */
      const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL, nz = ~zr;
      r->odirty |= (uint32_t)((((((nz & lo7) + lo7) | nz) & ~lo7) >> 7) * 0x0102040810204080ULL >> 56);
    }
    for (; o < np; o++) {
      const __m128i x = _mm_and_si128(_mm_loadu_si128((const __m128i *)in->out_credit[o]), msk);
      __m128i *cr = (__m128i *)r->cred[o];
      _mm_storeu_si128(cr, _mm_add_epi16(_mm_loadu_si128(cr), _mm_unpacklo_epi8(x, z)));
      if (nv > 8) _mm_storeu_si128(cr + 1, _mm_add_epi16(_mm_loadu_si128(cr + 1), _mm_unpackhi_epi8(x, z)));
      r->odirty |= (uint32_t)(_mm_movemask_epi8(_mm_cmpeq_epi8(x, z)) != 0xffff) << o;
    }
#else
    for (o = 0; o < np; o++) {
      unsigned cm = nonzero_bytes(in->out_credit[o], nv);
      if (!cm) continue;
      r->odirty |= 1u << o;
      for (; cm; cm &= cm - 1u) {
        v = (unsigned)__builtin_ctz(cm);
        r->cred[o][v] = (uint16_t)(r->cred[o][v] + in->out_credit[o][v]);
      }
    }
#endif
  }
  /* watchdog: a VC that held a flit and sent none in this cycle has the count
   * min(2^WdW - 1, now - wd_zero); the flag rises when that reaches the limit (<= 2^WdW - 1).
   * Only when the lower bound wd_min says some VC may have reached it are they scanned. */
  {
    const uint32_t lim = in->wd_limit & ((1u << p->wd_w) - 1u);
    if (lim != 0 && r->wd_min <= now && now - r->wd_min >= lim) {
      uint64_t mn = UINT64_MAX;
      for (w = 0; w < nw; w++)
        for (uint64_t m = r->ne[w]; m; m &= m - 1u) {
          i = w * 64u + (unsigned)__builtin_ctzll(m);
          uint8_t *e = &r->wd_err[r->ivc_port[i]][r->ivc_vc[i]];
          if (*e) continue;
          if (now - r->wd_zero[i] >= lim) {
            *e = 1;
            r->nerr = 1;
          } else if (r->wd_zero[i] < mn) {
            mn = r->wd_zero[i];
          }
        }
      r->wd_min = mn;
    }
  }
  if (r->nerr) {
    memcpy(out->wd_err, r->wd_err, sizeof r->wd_err);
    memcpy(out->ovf_err, r->ovf_err, sizeof r->ovf_err);
    memcpy(out->rt_err, r->rt_err, sizeof r->rt_err);
  } else if (ob < 0 || r->obe[ob]) {
    memset(out->wd_err, 0, sizeof out->wd_err);
    memset(out->ovf_err, 0, sizeof out->ovf_err);
    memset(out->rt_err, 0, sizeof out->rt_err);
  }
  {
    const unsigned b = ob >= 0 ? (unsigned)ob : 0u;
    r->obv[b] = sendo;
    r->obc[b] = credm;
    r->obe[b] = (uint8_t)(r->nerr != 0);
  }
  r->cycles++;
}
