/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_chain.c: twin of rtl/mt_ni_chain.sv, the chained-reduction rows in RAM
 * (docs/reference/ni.md "State in RAM"): a row per (flow, child position) in RAM R (bytes
 * added, completed prefix pwm, ranges beyond it) and its pwm in RAM P, both 1R1W with bypass.
 *  - completed chained packets enter a FIFO (engine order within an edge) of cqd = 2^ceil(log2
 *    (2 E)) entries; an engine completes one only while cqn + E <= cqd (mt_ni_chain_room);
 *  - the update pipe: stage 0 pops the head and reads its row (R), stage 1 merges the packet
 *    (chain_row) and writes R and P; when the bytes reach the chunk's size the child position
 *    is complete (ccc) and cnt passes the complete positions in order;
 *  - each engine's working register holds the pwm of one row; an engine that needs a row it
 *    does not hold (rx_pwreq, row rx_pwix) asks for a load: one per cycle, round robin from
 *    the engine after the last one served, reads P, arrives one edge later; a held row follows
 *    the pipe's writes (snoop);
 *  - a row not written since the last clear reads as zero (crv).
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* the row of (flow index fi, child position k) */
static inline uint32_t mt_ni_crow(const mt_ni *s, unsigned fi, unsigned k) { return (uint32_t)mt_ni_fc(s, fi, k); }

/* engine e's working register holds row (fi, k) */
static inline int mt_ni_chain_hit(const mt_ni *s, unsigned e, unsigned fi, unsigned k) {
  return ((s->cwv >> e) & 1u) && s->cwtag[e] == mt_ni_crow(s, fi, k);
}

/* every engine may complete a chained packet at this edge */
static inline int mt_ni_chain_room(const mt_ni *s) { return s->cqn + s->ne <= s->cqd; }

/* a chained packet [lo, lo + len) of a child merged into its row: its bytes, its completed
 * prefix (with the ranges it reaches), or a range kept beyond the prefix */
static void chain_row(uint32_t *row, uint32_t lo, uint32_t len) {
  uint32_t *pl = row + 2, *ph = row + 2 + MT_NI_PEND;
  row[0] += len;
  if (lo == row[1]) {
    row[1] = lo + len;
    for (int merged = 1; merged;) {
      merged = 0;
      for (unsigned q = 0; q < MT_NI_PEND; q++)
        if (ph[q] && pl[q] == row[1]) {
          row[1] = ph[q];
          pl[q] = ph[q] = 0;
          merged = 1;
        }
    }
  } else {
    /* beyond the prefix: kept in a free slot; with none free the range is not recorded
     * and the successor waits for this child to complete (still correct) */
    for (unsigned q = 0; q < MT_NI_PEND; q++)
      if (!ph[q]) {
        pl[q] = lo;
        ph[q] = lo + len;
        break;
      }
  }
}

/* cnt of flow fi passes the complete child positions, in order */
static inline void mt_ni_chain_advance(mt_ni *s, unsigned fi) {
  while (s->cnt[fi] < (unsigned)s->p.children && ((s->ccc[fi] >> s->cnt[fi]) & 1u)) s->cnt[fi]++;
  if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
}

/* the edge: stage 1's write (and its effect on cnt, before the engines' events of
 * mt_ni_deps_update), the loads, stage 0's read, the FIFO */
static inline void mt_ni_chain_update(mt_ni *s, const mt_ni_wires *w) {
  const unsigned NE = s->ne;
  uint32_t row[MT_NI_ROWW];
  const int wr = s->c1v;
  const uint32_t wix = wr ? mt_ni_crow(s, s->c1.f, s->c1.k) : 0;
  if (wr) {
    if (s->c1z) memset(row, 0, sizeof row);
    else memcpy(row, s->crd, sizeof row);
    chain_row(row, s->c1.lo, s->c1.len);
    if (row[0] == s->c1.size) {
      s->ccc[s->c1.f] |= 1ull << s->c1.k;
      mt_ni_chain_advance(s, s->c1.f);
    }
    /* a row not complete moves neither cnt nor act: act >= cnt holds (every change of cnt is
     * followed by act = max(act, cnt), act never decreases) */
  }
  /* held rows follow the write; the load in flight completes */
  if (wr)
    for (uint32_t em = s->cwv; em; em &= em - 1u) {
      const unsigned e = (unsigned)__builtin_ctz(em);
      if (s->cwtag[e] == wix) s->cwpwm[e] = row[1];
    }
  if (s->clv) {
    const unsigned e = s->cle;
    s->cwv |= 1u << e;
    s->cwtag[e] = s->clix;
    s->cwpwm[e] = wr && wix == s->clix ? row[1] : s->clz ? 0
                                                         : s->cprd;
  }
  /* a load granted (round robin from crrp), its word read from RAM P */
  const uint32_t rq = w->rx_pwreq & ~(s->clv ? 1u << s->cle : 0u);
  s->clv = 0;
  if (rq) {
    unsigned g = s->crrp;
    while (!((rq >> g) & 1u)) g = g + 1 == NE ? 0 : g + 1;
    const uint32_t gix = w->rx_pwix[g];
    s->clv = 1;
    s->cle = g;
    s->clix = gix;
    s->clz = !s->crv[gix] && !(wr && wix == gix);
    s->crrp = g + 1 == NE ? 0 : g + 1;
    mt_ni_ram_edge(&s->ram_p, 1, gix, wr, wix, &row[1]);
  } else mt_ni_ram_edge(&s->ram_p, 0, 0, wr, wix, &row[1]);
  /* stage 0: the FIFO's head read from RAM R */
  s->c1v = s->cqn != 0;
  if (s->c1v) {
    s->c1 = s->cq[s->cqh];
    const uint32_t hix = mt_ni_crow(s, s->c1.f, s->c1.k);
    s->c1z = !s->crv[hix] && !(wr && wix == hix);
    mt_ni_ram_edge(&s->ram_r, 1, hix, wr, wix, row);
    s->cqh = s->cqh + 1 == s->cqd ? 0 : s->cqh + 1;
    s->cqn--;
  } else mt_ni_ram_edge(&s->ram_r, 0, 0, wr, wix, row);
  if (wr) s->crv[wix] = 1;
  /* completed chained packets, in engine order */
  for (uint32_t em = w->rx_done; em; em &= em - 1u) {
    const mt_ni_rx *r = &s->rx[__builtin_ctz(em)];
    if (!r->pk) continue;
    const uint32_t t = (s->cqh + s->cqn) & (s->cqd - 1u);
    s->cq[t].f = mt_ni_fi(s, r->flow);
    s->cq[t].k = r->cpos;
    s->cq[t].lo = r->addr - r->cbase;
    s->cq[t].len = r->len;
    s->cq[t].size = r->size;
    s->cqn++;
  }
}

static inline void mt_ni_chain_clear(mt_ni *s) {
  memset(s->crv, 0, (size_t)s->p.max_flows * (unsigned)s->p.children);
  memset(s->ccc, 0, (size_t)s->p.max_flows * 8);
  s->cqh = s->cqn = 0;
  s->c1v = 0;
  s->cwv = 0;
  s->clv = 0;
  s->crrp = 0;
}
