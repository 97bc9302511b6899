// SPDX-License-Identifier: Apache-2.0
// mt_reduce_alu: the NI's reduction unit, Lanes element adders (int32 or fp32) and one
// output register (latency 1 + Pipe cycles, one vector per cycle, no stall).
// Contract: when valid_i is high at a rising edge, sum_o takes, 1 + Pipe edges later, per lane k
// (bits [32k+31:32k]), a_i + b_i as int32 wrap-around (dtype_i = 0, MT_DTYPE_INT32) or as
// mt_fp32_add (dtype_i = 1, MT_DTYPE_FP32: binary32 RNE, canonical NaN 7FC00000), and
// valid_o is high for that one cycle. The NI passes a = running sum (acc), b = incoming.
// sum_o holds its value while no result arrives. After reset valid_o = 0 (sum_o is not reset).
// Pipe (docs/reference/reduction.md "Pipeline"): registers between the adder's steps of
// mt_fp32_add.svh, for the clock of an FPGA: 0 none; 1 after the 32-bit adder (align and add,
// then normalize and round); 2 also after the align step. Every vector in flight carries its
// dtype. C model: mt_reduce_add(dtype, a, b) of cmodel/util/mt_fp32.c, lane by lane, and the
// ring of cmodel/hw/mt_ni_reduce.c.
// The steps are computed in the clocked blocks, each under the valid bit of its operands, so
// that a simulator evaluates them only at an edge with a valid operand pair.
`default_nettype none

module mt_reduce_alu #(
  parameter int Lanes = 4,                  // PayloadW / 32
  parameter int Pipe  = 0                   // registers inside the adder: 0, 1 or 2
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // operands
  input  logic                  valid_i,
  input  logic                  dtype_i,    // 0 = int32, 1 = fp32
  input  logic [Lanes*32-1:0]   a_i,
  input  logic [Lanes*32-1:0]   b_i,
  // result, 1 + Pipe cycles later
  output logic                  valid_o,
  output logic [Lanes*32-1:0]   sum_o
);
  initial begin
    if (Lanes < 1) $fatal(1, "mt_reduce_alu: Lanes=%0d, need >= 1", Lanes);
    if (Pipe < 0 || Pipe > 2) $fatal(1, "mt_reduce_alu: Pipe=%0d, must be 0, 1 or 2", Pipe);
  end

`include "mt_fp32_add.svh"
  localparam int AlignW = 79;               // mt_fp32_align_f's result
  localparam int SumW   = 46;               // mt_fp32_sum_f's result
  logic [Lanes*32-1:0] sum_q;
  // v_q[i]: the registers i steps after the operands hold a vector (v_q[Pipe]: sum_q, valid_o)
  logic [Pipe:0]       v_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) v_q <= '0;
    else         v_q <= (v_q << 1) | (Pipe + 1)'(valid_i);
  end

  if (Pipe == 0) begin : g_p0
    always_ff @(posedge clk_i) begin
      if (valid_i) begin
        for (int k = 0; k < Lanes; k++)
          sum_q[k*32 +: 32] <= mt_reduce_add_f(dtype_i, a_i[k*32 +: 32], b_i[k*32 +: 32]);
      end
    end
  end else begin : g_pipe
    // the adder's sum (and what rounding needs), in front of the round step
    logic [Lanes*SumW-1:0] sum_p_q;
    if (Pipe == 1) begin : g_p1
      always_ff @(posedge clk_i) begin
        if (valid_i) begin
          for (int k = 0; k < Lanes; k++)
            sum_p_q[k*SumW +: SumW] <= mt_fp32_sum_f(mt_fp32_align_f(dtype_i, a_i[k*32 +: 32], b_i[k*32 +: 32]));
        end
      end
    end else begin : g_p2
      // the aligned operands, in front of the adder
      logic [Lanes*AlignW-1:0] al_p_q;
      always_ff @(posedge clk_i) begin
        if (valid_i) begin
          for (int k = 0; k < Lanes; k++)
            al_p_q[k*AlignW +: AlignW] <= mt_fp32_align_f(dtype_i, a_i[k*32 +: 32], b_i[k*32 +: 32]);
        end
        if (v_q[0]) begin
          for (int k = 0; k < Lanes; k++)
            sum_p_q[k*SumW +: SumW] <= mt_fp32_sum_f(al_p_q[k*AlignW +: AlignW]);
        end
      end
    end
    always_ff @(posedge clk_i) begin
      if (v_q[Pipe-1]) begin
        for (int k = 0; k < Lanes; k++)
          sum_q[k*32 +: 32] <= mt_fp32_round_f(sum_p_q[k*SumW +: SumW]);
      end
    end
  end

  assign valid_o = v_q[Pipe];
  assign sum_o   = sum_q;
endmodule
