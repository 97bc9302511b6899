// SPDX-License-Identifier: Apache-2.0
// mt_ni_deps: per-flow dependency state of the issue logic, filled by the start-up scan of
// the table and cleared by received messages:
//   rv/ridx  the node's Reduce entry of the flow (sending or root) and its table index
//   gv/gidx  the first Gather entry of the flow with a Parent (the one that receives)
//   root     the node is the flow's root (its Reduce entry has no Parent)
//   cnt      Children of the Reduce entry aggregated so far (in Children order)
//   rxb      bytes of the current message (or packets of it) received so far
//   grx      the Parent's Gather received and written
//   rdone    the root Reduce entry completed
// Events (one edge each): clear_i (start) > scan_i (record one entry) | rdone_i | done_i
// (a received message or packet fully written: rxb += len; at rxb == size the sender's
// dependency clears: cnt+1 for a Reduce, grx for a Gather). Flow indices >= MaxFlows use 0.
// Read ports A (issue) and B (receive look-up) are combinational.
`default_nettype none

module mt_ni_deps #(
  parameter int MaxFlows = 16,
  parameter int TIW      = 6,     // table index width
  parameter int CntW     = 4
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic [11:0]     nflows_i,
  // scan: record one entry
  input  logic            scan_i,
  input  logic [11:0]     scan_flow_i,
  input  logic [1:0]      scan_op_i,
  input  logic            scan_pv_i,
  input  logic [TIW-1:0]  scan_idx_i,
  // issue: root Reduce entry completed
  input  logic            rdone_i,
  input  logic [11:0]     rdone_flow_i,
  // receive: message or packet written
  input  logic            done_i,
  input  logic [11:0]     done_flow_i,
  input  logic [1:0]      done_op_i,
  input  logic [31:0]     done_len_i,
  input  logic [31:0]     done_size_i,
  // read port A
  input  logic [11:0]     a_flow_i,
  output logic            a_rv_o,
  output logic [CntW-1:0] a_cnt_o,
  output logic            a_grx_o,
  output logic            a_rdone_o,
  // read port B
  input  logic [11:0]     b_flow_i,
  output logic            b_rv_o,
  output logic [TIW-1:0]  b_ridx_o,
  output logic            b_gv_o,
  output logic [TIW-1:0]  b_gidx_o,
  output logic            b_root_o,
  output logic [CntW-1:0] b_cnt_o,
  output logic            b_grx_o,
  // every flow < nflows is rooted here or has its Gather
  output logic            all_gathers_o
);
  initial begin
    if (MaxFlows < 1 || MaxFlows > 4096) $fatal(1, "mt_ni_deps: MaxFlows=%0d", MaxFlows);
    if (TIW < 1 || CntW < 1) $fatal(1, "mt_ni_deps: TIW/CntW");
  end
  localparam int FW = mt_common_pkg::idx_w(MaxFlows);

  logic [MaxFlows-1:0]      rv_q, gv_q, root_q, grx_q, rdone_q;
  logic [MaxFlows*TIW-1:0]  ridx_q, gidx_q;
  logic [MaxFlows*CntW-1:0] cnt_q;
  logic [MaxFlows*32-1:0]   rxb_q;

  function automatic [FW-1:0] fidx(input logic [11:0] f);
    fidx = (32'(f) < MaxFlows) ? FW'(f) : '0;
  endfunction

  logic [FW-1:0] sf, rf, df, af, bf;
  assign sf = fidx(scan_flow_i);
  assign rf = fidx(rdone_flow_i);
  assign df = fidx(done_flow_i);
  assign af = fidx(a_flow_i);
  assign bf = fidx(b_flow_i);

  logic [31:0] rxb_new;
  logic        complete;
  assign rxb_new  = rxb_q[32*df +: 32] + done_len_i;
  assign complete = (rxb_new == done_size_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv_q <= '0; gv_q <= '0; root_q <= '0; grx_q <= '0; rdone_q <= '0;
      ridx_q <= '0; gidx_q <= '0; cnt_q <= '0; rxb_q <= '0;
    end else if (clear_i) begin
      rv_q <= '0; gv_q <= '0; root_q <= '0; grx_q <= '0; rdone_q <= '0;
      ridx_q <= '0; gidx_q <= '0; cnt_q <= '0; rxb_q <= '0;
    end else begin
      if (scan_i && scan_op_i == 2'd1) begin
        rv_q[sf]               <= 1'b1;
        ridx_q[TIW*sf +: TIW]  <= scan_idx_i;
        root_q[sf]             <= !scan_pv_i;
      end
      if (scan_i && scan_op_i == 2'd2 && scan_pv_i && !gv_q[sf]) begin
        gv_q[sf]              <= 1'b1;
        gidx_q[TIW*sf +: TIW] <= scan_idx_i;
      end
      if (rdone_i) rdone_q[rf] <= 1'b1;
      if (done_i) begin
        if (complete) begin
          rxb_q[32*df +: 32] <= '0;
          if (done_op_i == 2'd1) cnt_q[CntW*df +: CntW] <= cnt_q[CntW*df +: CntW] + 1'b1;
          else grx_q[df] <= 1'b1;
        end else rxb_q[32*df +: 32] <= rxb_new;
      end
    end
  end

  assign a_rv_o    = rv_q[af];
  assign a_cnt_o   = cnt_q[CntW*af +: CntW];
  assign a_grx_o   = grx_q[af];
  assign a_rdone_o = rdone_q[af];
  assign b_rv_o    = rv_q[bf];
  assign b_ridx_o  = ridx_q[TIW*bf +: TIW];
  assign b_gv_o    = gv_q[bf];
  assign b_gidx_o  = gidx_q[TIW*bf +: TIW];
  assign b_root_o  = root_q[bf];
  assign b_cnt_o   = cnt_q[CntW*bf +: CntW];
  assign b_grx_o   = grx_q[bf];

  always_comb begin
    all_gathers_o = 1'b1;
    for (int f = 0; f < MaxFlows; f++)
      if (f < 32'(nflows_i) && !root_q[f] && !grx_q[f]) all_gathers_o = 1'b0;
  end
endmodule
