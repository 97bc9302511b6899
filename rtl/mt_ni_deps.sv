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
// NE receive engines: engine e has read port B e and done event e (done_*_i[e]); several
// engines finishing at one edge are applied in engine order (two packets of one flow add up).
// Read ports A (issue) and B (receive look-up) are combinational.
`default_nettype none

module mt_ni_deps #(
  parameter int MaxFlows = 16,
  parameter int TIW      = 6,     // table index width
  parameter int CntW     = 4,
  parameter int NE       = 1      // receive engines
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
  // receive: message or packet written, engine e at [e]
  input  logic [NE-1:0]    done_i,
  input  logic [NE*12-1:0] done_flow_i,
  input  logic [NE*2-1:0]  done_op_i,
  input  logic [NE*32-1:0] done_len_i,
  input  logic [NE*32-1:0] done_size_i,
  // read port A
  input  logic [11:0]     a_flow_i,
  output logic            a_rv_o,
  output logic [CntW-1:0] a_cnt_o,
  output logic            a_grx_o,
  output logic            a_rdone_o,
  // read ports B, engine e at [e]
  input  logic [NE*12-1:0]   b_flow_i,
  output logic [NE-1:0]      b_rv_o,
  output logic [NE*TIW-1:0]  b_ridx_o,
  output logic [NE-1:0]      b_gv_o,
  output logic [NE*TIW-1:0]  b_gidx_o,
  output logic [NE-1:0]      b_root_o,
  output logic [NE*CntW-1:0] b_cnt_o,
  output logic [NE-1:0]      b_grx_o,
  // every flow < nflows is rooted here or has its Gather
  output logic            all_gathers_o
);
  initial begin
    if (MaxFlows < 1 || MaxFlows > 4096) $fatal(1, "mt_ni_deps: MaxFlows=%0d", MaxFlows);
    if (TIW < 1 || CntW < 1) $fatal(1, "mt_ni_deps: TIW/CntW");
    if (NE < 1) $fatal(1, "mt_ni_deps: NE=%0d", NE);
  end
  localparam int FW = mt_common_pkg::idx_w(MaxFlows);

  logic [MaxFlows-1:0]      rv_q, gv_q, root_q, grx_q, rdone_q;
  logic [MaxFlows*TIW-1:0]  ridx_q, gidx_q;
  logic [MaxFlows*CntW-1:0] cnt_q;
  logic [MaxFlows*32-1:0]   rxb_q;

  function automatic [FW-1:0] fidx(input logic [11:0] f);
    fidx = (32'(f) < MaxFlows) ? FW'(f) : '0;
  endfunction

  logic [FW-1:0] sf, rf, af;
  assign sf = fidx(scan_flow_i);
  assign rf = fidx(rdone_flow_i);
  assign af = fidx(a_flow_i);

  // the engines' done events, in engine order
  logic [MaxFlows*CntW-1:0] cnt_d;
  logic [MaxFlows*32-1:0]   rxb_d;
  logic [MaxFlows-1:0]      grx_d;
  always_comb begin
    logic [FW-1:0] df;
    logic [31:0]   nb;
    df    = '0;
    nb    = '0;
    cnt_d = cnt_q;
    rxb_d = rxb_q;
    grx_d = grx_q;
    for (int e = 0; e < NE; e++)
      if (done_i[e]) begin
        df = fidx(done_flow_i[12*e +: 12]);
        nb = rxb_d[32*df +: 32] + done_len_i[32*e +: 32];
        if (nb == done_size_i[32*e +: 32]) begin
          rxb_d[32*df +: 32] = '0;
          if (done_op_i[2*e +: 2] == 2'd1) cnt_d[CntW*df +: CntW] = cnt_d[CntW*df +: CntW] + 1'b1;
          else grx_d[df] = 1'b1;
        end else rxb_d[32*df +: 32] = nb;
      end
  end

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
      cnt_q <= cnt_d;
      rxb_q <= rxb_d;
      grx_q <= grx_d;
    end
  end

  assign a_rv_o    = rv_q[af];
  assign a_cnt_o   = cnt_q[CntW*af +: CntW];
  assign a_grx_o   = grx_q[af];
  assign a_rdone_o = rdone_q[af];
  for (genvar e = 0; e < NE; e++) begin : g_b
    logic [FW-1:0] bf;
    assign bf = fidx(b_flow_i[12*e +: 12]);
    assign b_rv_o[e]                = rv_q[bf];
    assign b_ridx_o[TIW*e +: TIW]   = ridx_q[TIW*bf +: TIW];
    assign b_gv_o[e]                = gv_q[bf];
    assign b_gidx_o[TIW*e +: TIW]   = gidx_q[TIW*bf +: TIW];
    assign b_root_o[e]              = root_q[bf];
    assign b_cnt_o[CntW*e +: CntW]  = cnt_q[CntW*bf +: CntW];
    assign b_grx_o[e]               = grx_q[bf];
  end

  always_comb begin
    all_gathers_o = 1'b1;
    for (int f = 0; f < MaxFlows; f++)
      if (f < 32'(nflows_i) && !root_q[f] && !grx_q[f]) all_gathers_o = 1'b0;
  end
endmodule
