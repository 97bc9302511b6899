/* SPDX-License-Identifier: Apache-2.0
 * mt_entry: field offsets of the table entry format (docs/formats.md). */
#include "fmt/mt_entry.h"

void mt_entry_fmt_offsets(mt_entry_fmt *f) {
  f->op_w = MT_OP_W;
  f->slot_w = 1 + (f->compact ? 0 : f->id_w) + f->port_w + f->ej_w;
  int o = 0;
  f->o_op = o; o += f->op_w;
  f->o_flow = o; o += f->flow_w;
  f->o_step = o; o += f->step_w;
  f->o_parent = o; o += f->slot_w;
  f->o_child = o; o += f->children * f->slot_w;
  f->o_addr = f->o_size = 0;
  if (!f->compact) { f->o_addr = o; o += f->addr_w; f->o_size = o; o += f->size_w; }
  f->width = o;
}
