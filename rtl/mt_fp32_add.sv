// SPDX-License-Identifier: Apache-2.0
// mt_fp32_add: combinational IEEE-754 binary32 adder of the reduction unit.
// Contract: sum_o = a_i + b_i, round to nearest even, subnormals kept (no flush), signed
// zeros and infinities as IEEE, any NaN result (NaN operand, inf + -inf) is the canonical
// quiet NaN 32'h7FC00000. Bit-exact with mt_fp32_add() of cmodel/util/mt_fp32.c. The steps
// are the function mt_fp32_add_f of mt_fp32_add.svh, which mt_reduce_alu calls too. No clock.
`default_nettype none

// a top of its own (the reduction unit's benches, the FPGA flow's fp32_add block): mt_reduce_alu
// calls the function, so a lint of all of rtl/ without a top sees this module as a top too
/* verilator lint_off MULTITOP */
module mt_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);
`include "mt_fp32_add.svh"
  assign sum_o = mt_fp32_add_f(a_i, b_i);
endmodule
