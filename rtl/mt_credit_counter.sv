// SPDX-License-Identifier: Apache-2.0
// mt_credit_counter: credits toward one downstream buffer (one output port, one VC).
// Contract: starts at Depth after reset; take_i (a flit sent) at most once per cycle and only
// while avail_o; give_i one pulse per slot freed downstream. Each edge: cnt - take + give, so
// a credit that arrives in cycle t can be used in cycle t+1. The count stays in 0..Depth.
// Formal (read_verilog -formal): with FormalTop=1 the module is its own environment (a
// shadow occupancy of the downstream buffer), else the properties are assertions on the
// surrounding design (e.g. the router never takes without a credit).
`default_nettype none
module mt_credit_counter #(
  parameter int Depth = 4,
  parameter int CntW = $clog2(Depth + 1),
  // verilator lint_off UNUSEDPARAM
  parameter bit FormalTop = 1'b0  // used only under `ifdef FORMAL
  // verilator lint_on UNUSEDPARAM
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            take_i,
  input  logic            give_i,
  output logic [CntW-1:0] cnt_o,
  output logic            avail_o
);
  initial begin
    if (Depth < 1) $fatal(1, "mt_credit_counter: Depth=%0d must be >= 1", Depth);
    if ((1 << CntW) <= Depth) $fatal(1, "mt_credit_counter: CntW=%0d too small", CntW);
  end

  logic [CntW-1:0] cnt_q;

  // next state inside the clocked block: the Verilated model evaluates it at the clock edge
  // only, not at every evaluation in which give_i (a port) might have changed
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= CntW'(Depth);
    else if (take_i && !give_i) cnt_q <= cnt_q - 1'b1;
    else if (give_i && !take_i) cnt_q <= cnt_q + 1'b1;
  end

  assign cnt_o   = cnt_q;
  assign avail_o = (cnt_q != '0);

`ifdef FORMAL
  // occupancy of the downstream buffer plus credits in flight, as the environment sees it
  logic [CntW-1:0] f_occ_q;
  logic            f_past_valid = 1'b0;
  always_ff @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) f_occ_q <= '0;
    else f_occ_q <= f_occ_q + CntW'(take_i) - CntW'(give_i);
  end
  if (FormalTop) begin : g_env
    always @(*) if (rst_ni) assume (!(take_i && cnt_q == '0));   // sender obeys avail_o
    always @(*) if (rst_ni) assume (!(give_i && f_occ_q == '0)); // one pulse per used slot
  end else begin : g_chk
    always @(*) if (rst_ni && f_past_valid) assert (!(take_i && cnt_q == '0));
  end
  always @(*) if (rst_ni && f_past_valid) begin
    assert (cnt_q <= CntW'(Depth));
    assert ({1'b0, cnt_q} + {1'b0, f_occ_q} == (CntW + 1)'(Depth));
  end
`endif
endmodule
