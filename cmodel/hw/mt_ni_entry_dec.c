/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_entry_dec.c: twin of rtl/mt_ni_entry_dec.sv, the decoder of a schedule-table word
 * (fmt/mt_entry.h, full or compact), instantiated twice: u_dec_a on table port A (head
 * entry E of the scan and issue logic), u_dec_b on port B (the receive engines' look-up;
 * in the C model one per engine). Purely combinational. 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

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
    if (!p->compact) {
      node = (int)getb(w, o, p->id_w);
      o += p->id_w;
    }
    port = (int)getb(w, o, p->port_w);
    o += p->port_w;
    ej = (int)getb(w, o, p->ej_w);
    if (k < 0) {
      en->pv = v;
      en->pnode = node;
      en->pport = port;
      en->pej = ej;
    } else {
      en->cv[k] = v;
      en->cnode[k] = node;
      en->cport[k] = port;
      en->cej[k] = ej;
    }
  }
  /* nchild: leading valid slots; gap: a valid slot after an empty one */
  int seen_empty = 0;
  for (int k = 0; k < p->children; k++) {
    if (en->cv[k]) {
      if (seen_empty) en->gap = 1;
      else en->nchild++;
    } else seen_empty = 1;
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
    en->addr = 0;
    en->size = cfg->nop_bytes;
  } else {
    uint32_t f = (uint32_t)en->flow, rem = cfg->rem_units;
    en->addr = cfg->elem * (f * cfg->base_units + (f < rem ? f : rem));
    en->size = cfg->elem * (cfg->base_units + (f < rem ? 1u : 0u));
  }
}

/* decoded entry of read port c (0: A, 1 + e: B of engine e) holding word w: cached until
 * the port's register is reloaded (mt_ni_table_update clears dcok; speed only: the cache
 * holds no RTL state) */
static const mt_ni_entry *dec_port(mt_ni *s, unsigned c, const mt_ni_in *cfg, const uint64_t *w) {
  mt_ni_entry *en = &s->dce[c];
  if (!s->dcok[c]) {
    dec_raw(s, w, en);
    s->dcok[c] = 1;
  }
  if (s->p.compact) dec_cfg(s, cfg, en);
  return en;
}

/* u_dec_a: the head entry E (port A, every cycle); u_dec_b: engine e's look-up entry
 * (port B, only while the engine is in LOOK, the only state that reads it; eb[e] is set for
 * those engines only) */
static inline void mt_ni_entry_dec_eval(mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  w->ea = dec_port(s, 0, in, s->tba);
  w->ef = mt_ni_fi(s, (uint32_t)w->ea->flow);
  for (uint32_t em = s->rxlk; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    w->eb[e] = dec_port(s, 1 + e, in, s->tbb[e]);
  }
}
