/* SPDX-License-Identifier: Apache-2.0
 * mt_entry: field offsets of the table entry format (docs/reference/formats.md). */
#include "fmt/mt_entry.h"

void mt_entry_fmt_offsets(mt_entry_fmt *f) {
  /* the names the width expressions of MT_SLOT_FIELDS / MT_ENTRY_FIELDS use */
  const int op_w = MT_OP_W, compact = f->compact, children = f->children, flow_w = f->flow_w,
            step_w = f->step_w, id_w = f->id_w, port_w = f->port_w, ej_w = f->ej_w,
            addr_w = f->addr_w, size_w = f->size_w;
  int slot_w = 0, o = 0;
#define MT_SLOT_ADD_(n, w, d) slot_w += (w);
  MT_SLOT_FIELDS(MT_SLOT_ADD_)
#undef MT_SLOT_ADD_
#define MT_ENTRY_OFF_(n, w, d) \
  f->o_##n = o; \
  o += (w);
  MT_ENTRY_FIELDS(MT_ENTRY_OFF_)
#undef MT_ENTRY_OFF_
  f->op_w = op_w;
  f->slot_w = slot_w;
  f->width = o;
  if (compact) f->o_addr = f->o_size = 0; /* no such fields */
}
