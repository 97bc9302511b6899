// SPDX-License-Identifier: Apache-2.0
// mt_reduce_alu: the NI's reduction unit, Lanes element adders (int32 or fp32) and one
// output register (latency 1 cycle, one vector per cycle, no stall).
// Contract: when valid_i is high at a rising edge, sum_o takes, per lane k
// (bits [32k+31:32k]), a_i + b_i as int32 wrap-around (dtype_i = 0, MT_DTYPE_INT32) or as
// mt_fp32_add (dtype_i = 1, MT_DTYPE_FP32: binary32 RNE, canonical NaN 7FC00000), and
// valid_o is high for that one cycle. The NI passes a = running sum (acc), b = incoming.
// sum_o holds its value while valid_i is low. After reset valid_o = 0 (sum_o is not reset).
// C model: mt_reduce_add(dtype, a, b) of cmodel/util/mt_fp32.c, lane by lane.
// The adders are computed in the clocked block, under valid_i (mt_reduce_add_f of
// mt_fp32_add.svh: per lane one 32-bit adder serves the int32 sum and the fp32 significands),
// so that a simulator evaluates them only at an edge with a valid operand pair. The int32
// lanes add directly under Verilator (the same sum; synthesis and other simulators keep the
// one shared adder).
`default_nettype none

module mt_reduce_alu #(
  parameter int Lanes = 4                   // PayloadW / 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // operands
  input  logic                  valid_i,
  input  logic                  dtype_i,    // 0 = int32, 1 = fp32
  input  logic [Lanes*32-1:0]   a_i,
  input  logic [Lanes*32-1:0]   b_i,
  // result, one cycle later
  output logic                  valid_o,
  output logic [Lanes*32-1:0]   sum_o
);
  initial begin
    if (Lanes < 1) $fatal(1, "mt_reduce_alu: Lanes=%0d, need >= 1", Lanes);
  end

`include "mt_fp32_add.svh"
  logic [Lanes*32-1:0] sum_q;
  logic                valid_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= valid_i;
  end

  always_ff @(posedge clk_i) begin
    if (valid_i) begin
      for (int k = 0; k < Lanes; k++)
`ifdef VERILATOR
        // the same sums (mt_reduce_add_f(0, a, b) is a + b), with the binary32 path computed
        // only at an fp32 edge: Verilator evaluates a function's every statement
        if (dtype_i) sum_q[k*32 +: 32] <= mt_reduce_add_f(1'b1, a_i[k*32 +: 32], b_i[k*32 +: 32]);
        else         sum_q[k*32 +: 32] <= a_i[k*32 +: 32] + b_i[k*32 +: 32];
`else
        sum_q[k*32 +: 32] <= mt_reduce_add_f(dtype_i, a_i[k*32 +: 32], b_i[k*32 +: 32]);
`endif
    end
  end

  assign valid_o = valid_q;
  assign sum_o   = sum_q;
endmodule
