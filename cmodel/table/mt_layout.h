/* SPDX-License-Identifier: Apache-2.0
 * mt_layout: the entry format (fmt/mt_entry.h) sized for a schedule: field widths derived
 * from the node count, the node degree, the children per entry and the buffer size, plus
 * what the compact format leaves to configuration registers (chunk tiling, NOP estimate);
 * encoding of the planner's entries into table words and back, and per-node table images. */
#ifndef MT_LAYOUT_H
#define MT_LAYOUT_H
#include <stdint.h>
#include "fmt/mt_entry.h"
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_LAYOUT_MAX_WORDS 64 /* entries up to 4096 bits */

typedef struct {
  union {
    mt_entry_fmt fmt; /* the format, whole (what the NI is given) */
    struct {
      MT_ENTRY_FMT_FIELDS
    }; /* the same fields by name: ly->flow_w, ly->o_step */
  };
  int n_nodes, ports, local_ports, n_flows, max_steps;
  uint64_t bytes;
  int elem;
  uint64_t base_units, rem_units; /* chunk tiling: flow f has base + (f < rem) elements */
  uint64_t nop_bytes;             /* compact: the lockstep estimate of every NOP */
} mt_layout;

/* Number of bits needed to write x (at least 1). */
int mt_bits(uint64_t x);
/* Layout from first principles (used for the size report): N nodes, `ports` router
 * ports per node, L local ports, C child slots, F flows, `bytes` buffer, `steps` (the
 * step field holds at least 2N-2, the ring's length). */
void mt_layout_make(mt_layout *ly, int compact, int N, int ports, int L, int C, int F, uint64_t bytes, int steps);
/* Layout for a schedule: checks that it can be encoded (compact: one-hop only, and
 * each sender recognisable by its output port). */
int mt_layout_for(const mt_sched *s, const mt_tables *tb, int compact, mt_layout *ly, mt_err *e);
int mt_layout_words(const mt_layout *ly);
/* Recompute slot_w, the field offsets and width from the field widths (op_w .. size_w),
 * children and compact (as mt_layout_make does); for layouts whose widths are set by hand,
 * e.g. a hardware build's fixed parameters. */
void mt_layout_offsets(mt_layout *ly);
/* Grow every field width of ly (and its child slots) to at least min's, then recompute
 * the offsets. The schedule part of ly (n_flows, bytes, tiling, nop_bytes, ...) is kept.
 * Widening a layout by the layouts of several schedules gives one that encodes them all. */
void mt_layout_widen(mt_layout *ly, const mt_layout *min);
/* Fit a schedule's layout ly (mt_layout_for) into a fixed hardware layout hw (an RTL
 * build's FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW, Children): -1 with the first field
 * that does not fit (or a full/compact difference); else ly takes hw's widths and offsets
 * (ly->width == hw->width) and keeps its schedule part. */
int mt_layout_fit(mt_layout *ly, const mt_layout *hw, mt_err *e);
/* Encode one entry (or an END word when en == NULL) into words[] (zeroed here). */
void mt_layout_encode(const mt_layout *ly, const mt_entry *en, uint64_t *words);
/* Decode one word; returns its op (MT_OP_END included) or -1 with a reason. Compact
 * slots get their node ids from topology t (NULL: left -1). */
/* Words per node image: the largest table plus its END word. */
int mt_layout_depth(const mt_tables *tb);
/* Node `node`'s table image: its entries, the END word, zeros up to `depth` words; each word
 * takes `stride` 64-bit parts (>= mt_layout_words(ly)). img holds depth * stride parts. */
void mt_layout_node_image(const mt_layout *ly, const mt_tables *tb, int node, int depth, int stride, uint64_t *img);
int mt_layout_decode(const mt_layout *ly, const mt_topo *t, int node, const uint64_t *words,
                     mt_entry *en, mt_slot *slots, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
