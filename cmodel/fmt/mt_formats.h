/* SPDX-License-Identifier: Apache-2.0
 * mt_formats.h: the ONE definition of every format the C model and the RTL share
 * (docs/reference/formats.md, docs/reference/interfaces.md), as X-macro tables (rv32emu's RV_INSN_LIST style):
 *   MT_OPS            table entry op codes (incl. END)
 *   MT_ENTRY_FIELDS   table entry fields, from bit 0 up, with their widths
 *   MT_SLOT_FIELDS    fields of one slot (parent / child), from its bit 0 up
 *   MT_FLIT_TYPES     flit types (Table II), in flit bits [PayloadW +: MT_FT_W]
 *   MT_HEAD_FIELDS    head-flit packet info: bit offset and width in the payload
 *   MT_NI_ERRS        NI error codes (err_code): value, name, meaning
 *   MT_NI_STATES      NI control states (status st)
 * C uses them directly (fmt/mt_entry.h, fmt/mt_flit.h, hw/mt_ni.h expand the enums, the name
 * tables and the offset derivation). scripts/gen_mt_pkg.c expands the same tables into
 * rtl/mt_common_pkg.sv (committed); `make lint` regenerates it and fails on any difference.
 *
 * Width expressions of MT_ENTRY_FIELDS / MT_SLOT_FIELDS are written in the common subset of
 * C and SystemVerilog, over the names op_w (= MT_OP_W), compact, children, flow_w, step_w,
 * id_w, port_w, ej_w, addr_w, size_w and slot_w (the slot width from MT_SLOT_FIELDS); the
 * generator prints them verbatim into SV functions with those argument / local names. Each X(...) entry's last argument is its one-line
 * meaning (the `///` comment in the package). Header only, no code. */
#ifndef MT_FORMATS_H
#define MT_FORMATS_H

/* The tables are text shared with rtl/mt_common_pkg.sv (widths are stringized into SystemVerilog): keep
 * them as written. */
// clang-format off
/* ---- table entry ---- */
#define MT_OP_W 2
/* X(NAME, value, meaning) */
#define MT_OPS(X)                                                                 \
  X(NOP, 0, "no operation: lockstep wait only (compact layout)")                  \
  X(REDUCE, 1, "Reduce: receive from the children, add, send to the parent")      \
  X(GATHER, 2, "Gather: receive from the parent, forward to the children")        \
  X(END, 3, "the word after a node's last entry")

/* X(name, width, meaning): packed from bit 0 upwards in this order */
#define MT_ENTRY_FIELDS(X)                                                        \
  X(op, op_w, "op code (MT_OPS)")                                              \
  X(flow, flow_w, "flow (tree) index")                                            \
  X(step, step_w, "time step: issue no earlier")                                  \
  X(parent, slot_w, "parent slot")                                                \
  X(child, children * slot_w, "child slots, child k at o_child + k * slot_w")     \
  X(addr, (compact != 0 ? 0 : addr_w), "chunk address, full layout only")         \
  X(size, (compact != 0 ? 0 : size_w), "chunk size in bytes, full layout only")

/* X(name, width, meaning): one slot, from its bit 0 upwards */
#define MT_SLOT_FIELDS(X)                                                         \
  X(valid, 1, "slot in use")                                                      \
  X(id, (compact != 0 ? 0 : id_w), "peer node id, full layout only")              \
  X(port, port_w, "router port (all ones: routed by destination)")                \
  X(ej, ej_w, "ejection port at the peer")

/* ---- flit: type in bits [PayloadW +: MT_FT_W], VC in [PayloadW + MT_FT_W +: VcW] ---- */
#define MT_FT_W 3
/* X(NAME, value, meaning); bit 2 = normal packet */
#define MT_FLIT_TYPES(X)                                                          \
  X(AR_HEAD, 0, "all-reduce message head")                                        \
  X(AR_BODY, 1, "all-reduce body flit")                                           \
  X(AR_SUBTAIL, 2, "all-reduce: ends a sub-packet")                               \
  X(AR_TAIL, 3, "all-reduce: ends the last sub-packet and the message")           \
  X(HEAD, 4, "normal packet head")                                                \
  X(BODY, 5, "normal packet body flit")                                           \
  X(TAIL, 6, "normal packet tail")                                                \
  X(HEADTAIL, 7, "normal packet of one flit")

/* Head-flit packet info (Fig. 8), in payload bits [lsb +: width]. X(NAME, lsb, width, meaning) */
#define MT_HEAD_FIELDS(X)                                                         \
  X(DST, 0, 12, "destination node")                                               \
  X(SRC, 12, 12, "source node")                                                   \
  X(NEXT, 24, 4, "next router port (swapped with EJECT at the source router)")    \
  X(EJECT, 28, 4, "ejection port at the destination")                             \
  X(FLOW, 32, 12, "flow (tree) index")                                            \
  X(OP, 44, 2, "op code (MT_OPS)")                                                \
  X(LAST, 46, 1, "last message of the flow")                                      \
  X(STEP, 48, 16, "time step (router priority)")                                  \
  X(ADDR, 64, 32, "byte address of the data")                                     \
  X(LEN, 96, 32, "length in bytes")
#define MT_HEAD_W 128 /* payload bits the packet info occupies */

/* ---- network interface ---- */
#define MT_NI_ERR_W 4
/* X(NAME, value, name, meaning) (docs/reference/ni.md) */
#define MT_NI_ERRS(X)                                                                        \
  X(NONE, 0, "none", "no error")                                                             \
  X(ENTRY, 1, "entry", "malformed entry: Gather without child, Reduce that neither sends nor " \
    "receives, child slot after an empty one, second Reduce entry of a flow, zero or "         \
    "unaligned size/addr")                                                                   \
  X(STEP, 2, "step", "step 0, or steps going backwards")                                     \
  X(FLOW, 3, "flow", "entry flow >= nflows")                                                 \
  X(PORT, 4, "port", "slot port >= network ports (and not routed), eject >= L, routed in compact") \
  X(NOEND, 5, "noend", "no END word within the table depth")                                 \
  X(RX_FLOW, 6, "rx_flow", "message: op not Reduce/Gather, flow out of range, no reduce "    \
    "entry for the flow, or a Gather for a flow this node is root of")                       \
  X(RX_SRC, 7, "rx_src", "message: sender is not one of the Children (Reduce) / not the "    \
    "Parent (Gather)")                                                                       \
  X(RX_RANGE, 8, "rx_range", "message: addr/len outside the flow's chunk, len 0 or not a "  \
    "multiple of 4")                                                                         \
  X(RX_FRAME, 9, "rx_frame", "flit sequence: no head at a message start, head/early tail "   \
    "inside one")                                                                            \
  X(EJ_OVF, 10, "ej_ovf", "flit arrived on a full ejection FIFO (credit violation)")         \
  X(WATCHDOG, 11, "watchdog", "nothing progressed for wd_limit cycles")

#define MT_NI_ST_W 3
/* X(NAME, value, meaning) */
#define MT_NI_STATES(X)                                                           \
  X(IDLE, 0, "waiting for start")                                                 \
  X(SCAN, 1, "start-up scan: validates the table, indexes it per flow")           \
  X(RUN, 2, "issuing entries")                                                    \
  X(FIN, 3, "all entries issued, waiting for the data path to drain")             \
  X(DONE, 4, "finished")                                                          \
  X(ERR, 5, "stopped on an error (err_code)")

// clang-format on
#endif
