// SPDX-License-Identifier: Apache-2.0
// mt_ni_entry_dec: decodes one schedule-table word (cmodel/fmt/mt_entry.h, full or compact
// layout) into its fields. Purely combinational.
// Contract: fields packed from bit 0: op(2) | flow | step | parent slot | Children slots |
// [addr | size] (full only); slot = valid | [node id] (full only) | port | eject. Offsets from
// mt_common_pkg::entry_off / slot_off (one source: cmodel/fmt/mt_formats.h).
// Compact: node ids from the per-port neighbour tables (sending slots: nbr_tx_i[port], the
// node behind our output port; receiving slots: nbr_rx_i[port], the node that sends to us
// through its output port), addr/size from the chunk tiling of the flow
// (elem * (f*base + min(f, rem)), elem * (base + (f < rem))), NOP size = nop_bytes_i.
// nchild_o counts the leading valid child slots, gap_o flags a valid slot after an empty one.
// C model: mt_ni_decode() in cmodel/hw/mt_ni.c.
`default_nettype none

module mt_ni_entry_dec #(
`include "mt_ni_layout_params.svh"
  // field offsets: the one derivation in mt_common_pkg (cmodel/fmt/mt_formats.h MT_ENTRY_FIELDS)
  localparam int SlotW   = mt_common_pkg::slot_off(mt_common_pkg::SLOT_F_NUM, Compact, IdW, PortW, EjW),
  localparam int OSlotId = mt_common_pkg::slot_off(mt_common_pkg::SLOT_F_ID, Compact, IdW, PortW, EjW),
  localparam int OSlotPt = mt_common_pkg::slot_off(mt_common_pkg::SLOT_F_PORT, Compact, IdW, PortW, EjW),
  localparam int OSlotEj = mt_common_pkg::slot_off(mt_common_pkg::SLOT_F_EJ, Compact, IdW, PortW, EjW),
  localparam int OOp     = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_OP, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OFlow   = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_FLOW, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OStep   = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_STEP, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OParent = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_PARENT, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OChild  = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_CHILD, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OAddr   = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_ADDR, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int OSize   = mt_common_pkg::entry_off(mt_common_pkg::ENTRY_F_SIZE, Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int EntryW  = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW)
) (
  input  logic [EntryW-1:0]       word_i,
  input  logic [16*12-1:0]        nbr_tx_i,
  input  logic [16*12-1:0]        nbr_rx_i,
  input  logic [31:0]             base_units_i,
  input  logic [31:0]             rem_units_i,
  input  logic [31:0]             elem_i,
  input  logic [31:0]             nop_bytes_i,
  output logic [1:0]              op_o,
  output logic [11:0]             flow_o,
  output logic [15:0]             step_o,
  output logic                    pv_o,
  output logic [11:0]             pnode_o,
  output logic [3:0]              pport_o,
  output logic [3:0]              pej_o,
  output logic [Children-1:0]     cv_o,
  output logic [Children*12-1:0]  cnode_o,
  output logic [Children*4-1:0]   cport_o,
  output logic [Children*4-1:0]   cej_o,
  output logic [3:0]              nchild_o,
  output logic                    gap_o,
  output logic [31:0]             addr_o,
  output logic [31:0]             size_o
);
  initial begin
    if (PortW < 1 || PortW > 4 || EjW < 1 || EjW > 4) $fatal(1, "mt_ni_entry_dec: PortW/EjW must be 1..4");
    if (FlowW < 1 || FlowW > 12 || IdW < 1 || IdW > 12 || StepW < 1 || StepW > 16) $fatal(1, "mt_ni_entry_dec: FlowW/IdW/StepW");
    if (Children < 1 || Children > 8) $fatal(1, "mt_ni_entry_dec: Children=%0d, need 1..8", Children);
    if (Compact == 0 && (AddrW > 32 || SizeW > 32)) $fatal(1, "mt_ni_entry_dec: AddrW/SizeW > 32");
  end

  logic is_gather;
  assign op_o      = word_i[OOp +: mt_common_pkg::OP_W];
  assign flow_o    = 12'(word_i[OFlow +: FlowW]);
  assign step_o    = 16'(word_i[OStep +: StepW]);
  assign is_gather = (op_o == mt_common_pkg::OP_GATHER);

  // slot 0 = parent, slot k+1 = child k
  logic [Children:0]    sv;
  logic [12*(Children+1)-1:0] snode;
  logic [4*(Children+1)-1:0]  sport, sej;
  for (genvar k = 0; k <= Children; k++) begin : g_slot
    localparam int O = (k == 0) ? OParent : OChild + (k - 1) * SlotW;
    localparam int OP = O + OSlotPt;
    logic [3:0] port;
    logic       recv;  // this node receives through the slot
    assign sv[k]   = word_i[O];
    assign port    = 4'(word_i[OP +: PortW]);
    assign sport[4*k +: 4] = port;
    assign sej[4*k +: 4]   = 4'(word_i[O + OSlotEj +: EjW]);
    assign recv    = (k == 0) ? is_gather : !is_gather;
    if (Compact != 0) begin : g_cmp
      assign snode[12*k +: 12] = recv ? nbr_rx_i[12*port +: 12] : nbr_tx_i[12*port +: 12];
    end else begin : g_full
      assign snode[12*k +: 12] = 12'(word_i[O + OSlotId +: IdW]);
      logic unused_recv;
      assign unused_recv = recv;
    end
  end
  assign pv_o    = sv[0];
  assign pnode_o = snode[11:0];
  assign pport_o = sport[3:0];
  assign pej_o   = sej[3:0];
  assign cv_o    = sv[Children:1];
  assign cnode_o = snode[12*(Children+1)-1:12];
  assign cport_o = sport[4*(Children+1)-1:4];
  assign cej_o   = sej[4*(Children+1)-1:4];

  always_comb begin
    logic seen;
    seen     = 1'b0;
    nchild_o = 4'd0;
    gap_o    = 1'b0;
    for (int k = 0; k < Children; k++) begin
      if (cv_o[k]) begin
        if (seen) gap_o = 1'b1;
        else nchild_o = nchild_o + 4'd1;
      end else seen = 1'b1;
    end
  end

  if (Compact != 0) begin : g_tiling
    logic [31:0] f32, fmin;
    logic        f_lt;
    assign f32  = 32'(flow_o);
    assign f_lt = f32 < rem_units_i;
    assign fmin = f_lt ? f32 : rem_units_i;
    always_comb begin
      if (op_o == mt_common_pkg::OP_NOP) begin
        addr_o = 32'd0;
        size_o = nop_bytes_i;
      end else begin
        addr_o = elem_i * (f32 * base_units_i + fmin);
        size_o = elem_i * (base_units_i + (f_lt ? 32'd1 : 32'd0));
      end
    end
  end else begin : g_fields
    assign addr_o = 32'(word_i[OAddr +: AddrW]);
    assign size_o = 32'(word_i[OSize +: SizeW]);
    logic unused_cfg;
    assign unused_cfg = ^{nbr_tx_i, nbr_rx_i, base_units_i, rem_units_i, elem_i, nop_bytes_i};
  end
endmodule
