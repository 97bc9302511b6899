// SPDX-License-Identifier: Apache-2.0
// mt_ni_pktz: one injection port's DMA reader and packetiser. Activated by the issue logic
// with one message (destination slot, flow, op, step, chunk addr/len), it reads the chunk
// flit by flit through the memory port (req/gnt; at most SQ flits buffered or in flight)
// and sends, on VC InjVc and only with a credit (mt_credit_counter per VC, reset to
// VcDepth):
//  - message mode: one all-reduce Head (next = source output port, eject = ejection port
//    at the receiver, flow, op, step, addr, len, last = 1), then ceil(len/FlitBytes)
//    payload flits typed Body / Sub-Tail (every SubPktFlits-th) / Tail (the last);
//  - packet mode (pm: baseline flag or a routed slot): packets of PktBytes, each a normal
//    Head (next = 0, addr/len of the packet, last on the last packet) + Body* + Tail.
// Data lanes past len are 0. Outputs (flit, valid) are registered.
`default_nettype none

module mt_ni_pktz #(
  parameter int PayloadW    = 128,
  parameter int NumVcs      = 2,
  parameter int VcDepth     = 8,
  parameter int SubPktFlits = 16,
  parameter int PktBytes    = 256,
  parameter int InjVc       = 0,
  parameter int SQ          = 4,
  localparam int Lanes      = PayloadW / 32,
  localparam int FB         = PayloadW / 8,
  localparam int LgFb       = $clog2(FB),
  localparam int PktFlits   = PktBytes / FB,
  localparam int VcW        = mt_common_pkg::vc_w(NumVcs),
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int SqW        = mt_common_pkg::idx_w(SQ),
  localparam int SqCW       = $clog2(SQ + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                clear_i,     // start: idle, buffers empty
  input  logic                run_i,
  input  logic [11:0]         node_id_i,
  input  logic                pkt_mode_i,
  // activation (one message)
  input  logic                act_i,
  input  logic [1:0]          a_op_i,
  input  logic [11:0]         a_flow_i,
  input  logic [15:0]         a_step_i,
  input  logic [11:0]         a_dst_i,
  input  logic [3:0]          a_port_i,
  input  logic                a_routed_i,
  input  logic [3:0]          a_ej_i,
  input  logic [31:0]         a_addr_i,
  input  logic [31:0]         a_len_i,
  output logic                busy_o,
  // memory reads
  output logic                req_o,
  output logic [31:0]         req_addr_o,
  output logic [Lanes-1:0]    req_be_o,
  input  logic                gnt_i,
  input  logic                rsp_i,
  input  logic [PayloadW-1:0] rsp_data_i,
  // injection
  input  logic [NumVcs-1:0]   credit_i,
  output logic                send_o,
  output logic [FlitW-1:0]    flit_o,
  output logic                valid_o
);
  initial begin
    if (PayloadW != 128 && PayloadW != 256 && PayloadW != 512) $fatal(1, "mt_ni_pktz: PayloadW=%0d", PayloadW);
    if (PktBytes < FB || (PktBytes % FB) != 0) $fatal(1, "mt_ni_pktz: PktBytes=%0d", PktBytes);
    if (InjVc < 0 || InjVc >= NumVcs) $fatal(1, "mt_ni_pktz: InjVc=%0d", InjVc);
    if (SQ < 1 || SubPktFlits < 1) $fatal(1, "mt_ni_pktz: SQ/SubPktFlits");
  end

  logic          act_q, pm_q, hd_q;
  logic [1:0]    op_q;
  logic [11:0]   flow_q, dst_q;
  logic [15:0]   step_q;
  logic [3:0]    nxt_q, ej_q;
  logic [31:0]   addr_q, len_q, nfl_q, rdj_q, txj_q, pc_q;
  logic [Lanes-1:0] lastmask_q;
  logic [PayloadW-1:0] fifo_q [0:SQ-1];
  logic [SqW-1:0]  frd_q;
  logic [SqCW-1:0] fcnt_q, outst_q;
  logic [FlitW-1:0] flit_q;
  logic             valid_q;

  // credits per VC
  logic [NumVcs-1:0] avail;
  logic              send;
  for (genvar v = 0; v < NumVcs; v++) begin : g_cred
    logic [$clog2(VcDepth + 1)-1:0] unused_cnt;
    mt_credit_counter #(.Depth(VcDepth)) u_cred (
      .clk_i, .rst_ni,
      .take_i (send && (v == InjVc)),
      .give_i (credit_i[v]),
      .cnt_o  (unused_cnt),
      .avail_o(avail[v])
    );
  end

  assign send   = run_i && act_q && avail[InjVc] && (!hd_q || fcnt_q != '0);
  assign send_o = send;
  assign busy_o = act_q;

  function automatic [Lanes-1:0] mask_of(input logic [31:0] j, input logic [31:0] nfl, input logic [Lanes-1:0] lm);
    mask_of = (j + 32'd1 == nfl) ? lm : '1;
  endfunction
  function automatic [Lanes-1:0] last_mask(input logic [31:0] len);
    logic [31:0] r;
    r = (len - 32'd1) & 32'(FB - 1);
    for (int k = 0; k < Lanes; k++) last_mask[k] = (32'(k) <= (r >> 2));
  endfunction
  function automatic [SqW-1:0] wrap(input logic [31:0] x);
    wrap = (x >= 32'(SQ)) ? SqW'(x - 32'(SQ)) : SqW'(x);
  endfunction

  assign req_o      = run_i && act_q && (rdj_q < nfl_q) && (32'(fcnt_q) + 32'(outst_q) < 32'(SQ));
  assign req_addr_o = addr_q + (rdj_q << LgFb);
  assign req_be_o   = mask_of(rdj_q, nfl_q, lastmask_q);

  // the flit sent this cycle
  logic [FlitW-1:0] flit_d;
  logic             last_flit;
  assign last_flit = (txj_q + 32'd1 == nfl_q);
  always_comb begin
    logic [31:0] off, rem, plen;
    logic [Lanes-1:0] m;
    logic [mt_common_pkg::FT_W-1:0] ty;
    logic [mt_common_pkg::HD_W-1:0] hd;
    flit_d = '0;
    off  = txj_q << LgFb;
    rem  = len_q - off;
    plen = (rem < 32'(PktBytes)) ? rem : 32'(PktBytes);
    m    = mask_of(txj_q, nfl_q, lastmask_q);
    hd   = '0;
    ty   = mt_common_pkg::FT_AR_HEAD;
    if (!hd_q) begin
      if (pm_q)
        hd = mt_common_pkg::head_pack(dst_q, node_id_i, 4'd0, ej_q, flow_q, op_q,
                               (txj_q + 32'(PktFlits) >= nfl_q), step_q, addr_q + off, plen);
      else
        hd = mt_common_pkg::head_pack(dst_q, node_id_i, nxt_q, ej_q, flow_q, op_q, 1'b1, step_q, addr_q, len_q);
      flit_d[mt_common_pkg::HD_W-1:0] = hd;
      ty = pm_q ? mt_common_pkg::FT_HEAD : mt_common_pkg::FT_AR_HEAD;
    end else begin
      for (int k = 0; k < Lanes; k++) flit_d[32*k +: 32] = m[k] ? fifo_q[frd_q][32*k +: 32] : 32'd0;
      if (pm_q) ty = (last_flit || pc_q + 32'd1 == 32'(PktFlits)) ? mt_common_pkg::FT_TAIL : mt_common_pkg::FT_BODY;
      else ty = last_flit ? mt_common_pkg::FT_AR_TAIL
                          : ((pc_q + 32'd1 == 32'(SubPktFlits)) ? mt_common_pkg::FT_AR_SUBTAIL : mt_common_pkg::FT_AR_BODY);
    end
    flit_d[PayloadW +: mt_common_pkg::FT_W] = ty;
    flit_d[PayloadW + mt_common_pkg::FT_W +: VcW] = VcW'(InjVc);
  end

  always_ff @(posedge clk_i) begin
    if (rsp_i) fifo_q[wrap(32'(frd_q) + 32'(fcnt_q))] <= rsp_data_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q <= 1'b0; pm_q <= 1'b0; hd_q <= 1'b0; op_q <= '0; flow_q <= '0; dst_q <= '0;
      step_q <= '0; nxt_q <= '0; ej_q <= '0; addr_q <= '0; len_q <= '0; nfl_q <= '0;
      rdj_q <= '0; txj_q <= '0; pc_q <= '0; lastmask_q <= '0; frd_q <= '0; fcnt_q <= '0;
      outst_q <= '0; flit_q <= '0; valid_q <= 1'b0;
    end else begin
      flit_q  <= send ? flit_d : '0;
      valid_q <= send;
      if (gnt_i) rdj_q <= rdj_q + 32'd1;
      outst_q <= outst_q + SqCW'(gnt_i) - SqCW'(rsp_i);
      fcnt_q  <= fcnt_q + SqCW'(rsp_i) - SqCW'(send && hd_q);
      if (send) begin
        if (!hd_q) hd_q <= 1'b1;
        else begin
          if (pm_q) begin
            if (pc_q + 32'd1 == 32'(PktFlits)) begin pc_q <= '0; hd_q <= 1'b0; end
            else pc_q <= pc_q + 32'd1;
          end else pc_q <= (pc_q + 32'd1 == 32'(SubPktFlits)) ? 32'd0 : pc_q + 32'd1;
          frd_q <= wrap(32'(frd_q) + 32'd1);
          txj_q <= txj_q + 32'd1;
          if (last_flit) act_q <= 1'b0;
        end
      end
      if (act_i) begin
        act_q <= 1'b1; op_q <= a_op_i; flow_q <= a_flow_i; step_q <= a_step_i;
        dst_q <= a_dst_i; nxt_q <= a_port_i; ej_q <= a_ej_i;
        pm_q <= pkt_mode_i || a_routed_i;
        addr_q <= a_addr_i; len_q <= a_len_i;
        nfl_q <= (a_len_i + 32'(FB - 1)) >> LgFb;
        lastmask_q <= last_mask(a_len_i);
        rdj_q <= '0; txj_q <= '0; pc_q <= '0; hd_q <= 1'b0;
      end
      if (clear_i) begin
        act_q <= 1'b0; fcnt_q <= '0; frd_q <= '0; outst_q <= '0;
      end
    end
  end

  assign flit_o  = flit_q;
  assign valid_o = valid_q;
endmodule
