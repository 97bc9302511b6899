/* SPDX-License-Identifier: Apache-2.0
 * mt_entry: the one bit format of a schedule-table entry (docs/reference/formats.md), shared by the
 * planner's layouts (table/mt_layout), the NI model (hw/mt_ni) and rtl/mt_ni_entry_dec.sv.
 * The field widths depend on the network and the buffer; the order does not (the one
 * definition of order and widths: MT_ENTRY_FIELDS / MT_SLOT_FIELDS in fmt/mt_formats.h,
 * also the source of rtl/mt_common_pkg.sv's entry_off / entry_width):
 *
 *   full    (Fig. 5): op | flow | step | parent slot | C child slots | addr | size
 *                     slot = valid | node id | port | eject
 *   compact (one-hop schedules only): op | flow | step | parent slot | C child slots
 *                     slot = valid | port | eject
 *
 * Fields are packed from bit 0 upwards in the order listed. A port field of all ones is
 * "routed by destination". This header knows nothing of schedules or files. */
#ifndef MT_ENTRY_H
#define MT_ENTRY_H
#include <stdint.h>
#include "fmt/mt_formats.h"
#ifdef __cplusplus
extern "C" {
#endif

/* op field (fmt/mt_formats.h MT_OPS): NOP (lockstep only), Reduce, Gather; END is the word
 * after a node's last entry. MT_OP_W is its width. */
#define MT_OP_ENUM_(n, v, d) MT_OP_##n = v,
enum { MT_OPS(MT_OP_ENUM_) };
#undef MT_OP_ENUM_

/* The fields of a format, as a macro so that a layout or a parameter set can hold them as
 * its own members (an anonymous struct beside an mt_entry_fmt in a union) and still hand
 * the format on whole. */
#define MT_ENTRY_FMT_FIELDS \
  int compact;                                                  /* 1: slots without node ids, no addr/size */ \
  int children;                                                 /* child slots per entry */ \
  int op_w, flow_w, step_w, id_w, port_w, ej_w, addr_w, size_w; /* field widths */ \
  int slot_w, width;                                            /* derived: bits */ \
  int o_op, o_flow, o_step, o_parent, o_child, o_addr, o_size;  /* derived: offsets */

typedef struct {
  MT_ENTRY_FMT_FIELDS
} mt_entry_fmt;

/* Set op_w, slot_w, the offsets and width from compact, children and the field widths. In
 * the compact format o_addr and o_size are 0 (no such fields). */
void mt_entry_fmt_offsets(mt_entry_fmt *f);

/* Bits [off, off + width) of a little-endian array of 64-bit words. */
static inline uint64_t mt_bits_get(const uint64_t *w, int off, int width) {
  uint64_t v = 0;
  for (int i = 0; i < width; i++) v |= ((w[(off + i) / 64] >> ((off + i) % 64)) & 1ull) << i;
  return v;
}
static inline void mt_bits_put(uint64_t *w, int off, int width, uint64_t v) {
  for (int i = 0; i < width; i++)
    if ((v >> i) & 1) w[(off + i) / 64] |= 1ull << ((off + i) % 64);
}

#ifdef __cplusplus
}
#endif
#endif
