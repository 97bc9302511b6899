// SPDX-License-Identifier: Apache-2.0
// mt_fp32_add: combinational IEEE-754 binary32 adder of the reduction unit.
// Contract: sum_o = a_i + b_i, round to nearest even, subnormals kept (no flush), signed
// zeros and infinities as IEEE, any NaN result (NaN operand, inf + -inf) is the canonical
// quiet NaN 32'h7FC00000. Bit-exact with mt_fp32_add() of cmodel/mt_fp32.c, which models
// these steps one by one (see docs/reference/reduction.md). No clock: mt_reduce_alu registers it.
`default_nettype none

module mt_fp32_add (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] sum_o
);
  localparam logic [31:0] QNaN = 32'h7FC0_0000;

  // Leading zeros of a 27-bit value (27 for zero): a priority encoder of constants (no
  // adders in the loop; an incrementing loop makes Yosys' SAT-based `share` pass blow up).
  function automatic logic [4:0] lzc27(input logic [26:0] v);
    lzc27 = 5'd27;
    for (int i = 0; i < 27; i++) begin
      if (v[i]) lzc27 = 5'(26 - i);
    end
  endfunction

  // ---- classify ----
  logic [7:0]  ea, eb;
  logic [22:0] fa, fb;
  logic        a_nan, b_nan, a_inf, b_inf;
  assign ea    = a_i[30:23];
  assign eb    = b_i[30:23];
  assign fa    = a_i[22:0];
  assign fb    = b_i[22:0];
  assign a_nan = (ea == 8'hFF) && (fa != 23'd0);
  assign b_nan = (eb == 8'hFF) && (fb != 23'd0);
  assign a_inf = (ea == 8'hFF) && (fa == 23'd0);
  assign b_inf = (eb == 8'hFF) && (fb == 23'd0);

  // ---- order by magnitude, unpack ----
  logic        swap, sub, sign;
  logic [31:0] op_big, op_small;
  logic [7:0]  ebf, esf, ebig, esmall;
  logic [26:0] xbig, xsmall;          // [26:3] significand, [2:0] guard/round/sticky
  assign swap   = (b_i[30:0] > a_i[30:0]);
  assign op_big   = swap ? b_i : a_i;
  assign op_small = swap ? a_i : b_i;
  assign sign   = op_big[31];
  assign sub    = a_i[31] ^ b_i[31];
  assign ebf    = op_big[30:23];
  assign esf    = op_small[30:23];
  assign ebig   = (ebf != 8'd0) ? ebf : 8'd1;
  assign esmall = (esf != 8'd0) ? esf : 8'd1;
  assign xbig   = {(ebf != 8'd0), op_big[22:0], 3'b000};
  assign xsmall = {(esf != 8'd0), op_small[22:0], 3'b000};

  // ---- align: shift op_small right by min(ebig - esmall, 27), lost bits -> sticky ----
  logic [7:0]  dexp;
  logic [4:0]  dsh;
  logic [53:0] wide;
  logic [26:0] xal;
  assign dexp = ebig - esmall;
  assign dsh  = (dexp > 8'd27) ? 5'd27 : dexp[4:0];
  assign wide = {xsmall, 27'd0} >> dsh;
  assign xal  = wide[53:27] | {26'd0, (wide[26:0] != 27'd0)};

  // ---- add / subtract (one adder) and normalize ----
  logic [27:0] addend, sum;
  logic [26:0] diff, norm;
  logic [4:0]  lz, lsh;
  logic [8:0]  e;                     // 1..255
  logic        zero;
  // different signs: xbig - xal = xbig + ~xal + 1, never negative (|big| >= |small|)
  assign addend = sub ? ~{1'b0, xal} : {1'b0, xal};
  assign sum    = {1'b0, xbig} + addend + {27'd0, sub};
  assign diff   = sum[26:0];
  assign lz   = lzc27(diff);
  // shift left by min(lz, ebig - 1): ebig - 1 >= 27 never limits (lz <= 27)
  assign lsh  = ((ebig - 8'd1) < {3'd0, lz}) ? 5'(ebig - 8'd1) : lz;
  assign zero = sub && (diff == 27'd0);

  // same signs: a carry shifts right by one (sticky kept); different signs: shift left
  assign norm = !sub    ? (sum[27] ? {sum[27:2], sum[1] | sum[0]} : sum[26:0])
                        : (diff << lsh);
  assign e    = !sub    ? ({1'b0, ebig} + {8'd0, sum[27]})
                        : ({1'b0, ebig} - {4'd0, lsh});

  // ---- round to nearest even, pack ----
  logic [23:0] m24;
  logic        g, r, s, up;
  logic [7:0]  efield;
  logic [30:0] mag;
  assign m24    = norm[26:3];
  assign g      = norm[2];
  assign r      = norm[1];
  assign s      = norm[0];
`ifdef MT_FP32_MUTANT_TRUNC
  assign up     = 1'b0;               // negative test only: truncation instead of RNE
`else
  assign up     = g & (r | s | m24[0]);
`endif
  assign efield = m24[23] ? e[7:0] : 8'd0;
  assign mag    = {efield, m24[22:0]} + {30'd0, up};

  assign sum_o = (a_nan || b_nan || (a_inf && b_inf && sub)) ? QNaN
               : a_inf           ? a_i
               : b_inf           ? b_i
               : zero            ? 32'd0                  // x + (-x) = +0
               : (e >= 9'd255)   ? {sign, 8'hFF, 23'd0}   // carry out of 254
               :                   {sign, mag};

  // the operands' signs enter through sub and sign; op_small's own sign bit is not needed
  logic unused_sign;
  assign unused_sign = op_small[31];
endmodule
