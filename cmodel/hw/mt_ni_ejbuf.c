/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_ejbuf.c: twin of rtl/mt_ni_ejbuf.sv, the ejection buffers: one FIFO of EjDepth
 * flits per (local port, VC), stream s = port * NumVcs + vc. A flit arriving on port l is
 * stored in the FIFO of its VC field if that FIFO was not full before the edge (otherwise
 * it is dropped and EJ_OVF raised: a credit violation). Every pop (by a receive engine)
 * returns one credit pulse on ej_credit[l][vc] in the next cycle (registered). 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include "hw/mt_ni_blocks.h"

/* the stream a flit arriving on port l goes to (out-of-range VCs to VC 0) */
static inline unsigned ej_stream(const mt_ni *s, const mt_ni_in *in, unsigned l) {
  const unsigned NV = s->p.num_vcs;
  unsigned v = (in->ej_flit[l].w[s->lanes] >> MT_FT_W) & s->vcm; /* mt_flit_vc */
  return l * NV + (v < NV ? v : 0);
}

/* ovf_o: a flit on a full FIFO (dropped; the issue logic raises EJ_OVF) */
static inline void mt_ni_ejbuf_eval(const mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  w->ej_full = 0;
  w->ej_in = mt_ni_nz8(in->ej_valid) & ((1u << s->p.nlocal) - 1u);
  for (uint32_t lm = w->ej_in; lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    w->ej_s[l] = ej_stream(s, in, l);
    if (s->ej_cnt[w->ej_s[l]] >= s->p.ej_depth) w->ej_full |= 1u << l;
  }
}

/* pops (credit pulses), then pushes of the flits accepted (FIFO not full before the edge) */
static inline void mt_ni_ejbuf_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  /* engines that may pop: a head popped in LOOK (look_go) or a flit with a grant */
  for (uint32_t em = w->rx_look_go | w->gnt_rd | w->gnt_wr; em; em &= em - 1u) {
    const uint32_t q = w->ej_pop[__builtin_ctz(em)];
    if (q == MT_NI_NO_POP) continue;
    if (++s->ej_rd[q] == p->ej_depth) s->ej_rd[q] = 0;
    if (q == s->nstreams) { /* the stager's replay stream: no credits */
      s->ej_cnt[q]--;
      continue;
    }
    if (--s->ej_cnt[q] == 0) s->ejnz &= ~(1ull << q);
    (&s->q.ej_credit[0][0])[s->scr[q]] = 1; /* ej_credit[q / NV][q % NV] */
    s->ncred = 1;
  }
  for (uint32_t lm = w->ej_in & ~w->ej_full; lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    const unsigned i = w->ej_s[l];
    unsigned wi = mt_ni_wrap(s->ej_rd[i] + s->ej_cnt[i], p->ej_depth);
    /* the flit's lanes + 1 words: the words above FlitW are 0 in the FIFO and never read */
    uint32_t *d = s->ej[(size_t)i * p->ej_depth + wi].w;
    mt_ni_cpl(d, in->ej_flit[l].w, s->lanes);
    d[s->lanes] = in->ej_flit[l].w[s->lanes];
    s->ej_cnt[i]++;
    s->ejnz |= 1ull << i;
  }
}
