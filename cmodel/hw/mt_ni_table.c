/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_table.c: twin of rtl/mt_ni_table.sv, the schedule table: tbl_depth words, one
 * write port (loading while not busy) and registered read ports, A at the head index
 * (scan/issue) and B, one per receive engine, at its look-up address. A write and a read of
 * the same word at one edge read the old word. (The back door, like the RTL's $readmemh
 * image, is mt_ni_table_load in mt_ni.c.)
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include "hw/mt_ni_blocks.h"

/* A read port's register is reloaded only when its address changed or the table was written
 * since it was last loaded (it then holds tbl[addr] already; speed only, the same values as
 * reloading every edge). Loading port c clears its decoded-entry cache (dcok). */
static inline void mt_ni_table_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  /* words: the parts of a word below the entry width (the RTL's Width bits); the parts above
   * stay 0 in tba / tbb and are never decoded */
  const unsigned D = s->p.tbl_depth, NE = s->ne, W = s->words;
  const uint32_t ha = w->hp_d < D ? w->hp_d : 0;
  if (s->tbw || ha != s->tbad[0]) {
    const uint64_t *a = s->tbl + (size_t)ha * W;
    for (unsigned k = 0; k < W; k++) s->tba[k] = a[k];
    s->tbad[0] = ha;
    s->dcok[0] = 0;
  }
  /* port B addresses change only when an engine leaves LOAD (rx_ldm) */
  for (uint32_t em = s->tbw ? (1u << NE) - 1u : w->rx_ldm; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const uint32_t ba = s->rb[e] < D ? s->rb[e] : 0; /* rb_d, loaded by mt_ni_depktz_update */
    if (!s->tbw && ba == s->tbad[1 + e]) continue;
    const uint64_t *b = s->tbl + (size_t)ba * W;
    for (unsigned k = 0; k < W; k++) s->tbb[e][k] = b[k];
    s->tbad[1 + e] = ba;
    s->dcok[1 + e] = 0;
  }
  s->tbw = 0;
  if (in->tbl_we && !w->busy && in->tbl_waddr < D) {
    for (unsigned k = 0; k < W; k++) s->tbl[(size_t)in->tbl_waddr * W + k] = in->tbl_wdata[k];
    s->tbw = 1;
  }
}
