/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_table.c: twin of rtl/mt_ni_table.sv, the schedule table: tbl_depth words, one
 * write port (loading while not busy) and registered read ports, A at the head index
 * (scan/issue) and B, one per receive engine, at its look-up address. A write and a read of
 * the same word at one edge read the old word. (The back door, like the RTL's $readmemh
 * image, is mt_ni_table_load in mt_ni.c.)
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include "hw/mt_ni_blocks.h"

static inline void mt_ni_table_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  /* words: the parts of a word below the entry width (the RTL's Width bits); the parts above
   * stay 0 in tba / tbb and are never decoded */
  const unsigned D = s->p.tbl_depth, NE = s->ne, W = s->words;
  const uint64_t *a = s->tbl + (size_t)(w->hp_d < D ? w->hp_d : 0) * W;
  for (unsigned k = 0; k < W; k++) s->tba[k] = a[k];
  for (unsigned e = 0; e < NE; e++) {
    const uint64_t *b = s->tbl + (size_t)(w->rb_d[e] < D ? w->rb_d[e] : 0) * W;
    for (unsigned k = 0; k < W; k++) s->tbb[e][k] = b[k];
  }
  if (in->tbl_we && !w->busy && in->tbl_waddr < D)
    for (unsigned k = 0; k < W; k++) s->tbl[(size_t)in->tbl_waddr * W + k] = in->tbl_wdata[k];
}
