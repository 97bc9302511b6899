// SPDX-License-Identifier: Apache-2.0
// mt_fp32_add.svh: the IEEE-754 binary32 addition of the reduction unit as a function,
// `include'd inside the body of mt_fp32_add (its combinational adder) and of mt_reduce_alu
// (which calls it in its clocked block, so that a simulator evaluates it only on an fp32
// edge with a valid operand pair). Contract: mt_fp32_add_f(a, b) = a + b, round to nearest
// even, subnormals kept (no flush), signed zeros and infinities as IEEE, any NaN result (NaN
// operand, inf + -inf) is the canonical quiet NaN 32'h7FC00000. Bit-exact with mt_fp32_add()
// of cmodel/util/mt_fp32.c, which models these steps one by one (docs/reference/reduction.md).

// Leading zeros of a 27-bit value (27 for zero): a priority encoder of constants (no adders
// in the loop; an incrementing loop makes Yosys' SAT-based `share` pass blow up).
function automatic logic [4:0] mt_fp32_lzc27(input logic [26:0] v);
  mt_fp32_lzc27 = 5'd27;
  for (int i = 0; i < 27; i++) begin
    if (v[i]) mt_fp32_lzc27 = 5'(26 - i);
  end
endfunction

function automatic logic [31:0] mt_fp32_add_f(input logic [31:0] a, input logic [31:0] b);
  logic [7:0]  ea, eb;
  logic [22:0] fa, fb;
  logic        a_nan, b_nan, a_inf, b_inf;
  logic        swap, sub, sign;
  logic [31:0] op_big;
  logic [30:0] op_small;           // its sign is not needed: the signs enter through sub and sign
  logic [7:0]  ebf, esf, ebig, esmall;
  logic [26:0] xbig, xsmall;          // [26:3] significand, [2:0] guard/round/sticky
  logic [7:0]  dexp;
  logic [4:0]  dsh;
  logic [53:0] wide;
  logic [26:0] xal;
  logic [27:0] addend, sum;
  logic [26:0] diff, norm;
  logic [4:0]  lz, lsh;
  logic [8:0]  e;                     // 1..255
  logic        zero;
  logic [23:0] m24;
  logic        g, r, s, up;
  logic [7:0]  efield;
  logic [30:0] mag;
  // ---- classify ----
  ea    = a[30:23];
  eb    = b[30:23];
  fa    = a[22:0];
  fb    = b[22:0];
  a_nan = (ea == 8'hFF) && (fa != 23'd0);
  b_nan = (eb == 8'hFF) && (fb != 23'd0);
  a_inf = (ea == 8'hFF) && (fa == 23'd0);
  b_inf = (eb == 8'hFF) && (fb == 23'd0);
  // ---- order by magnitude, unpack ----
  swap     = (b[30:0] > a[30:0]);
  op_big   = swap ? b : a;
  op_small = swap ? a[30:0] : b[30:0];
  sign     = op_big[31];
  sub      = a[31] ^ b[31];
  ebf      = op_big[30:23];
  esf      = op_small[30:23];
  ebig     = (ebf != 8'd0) ? ebf : 8'd1;
  esmall   = (esf != 8'd0) ? esf : 8'd1;
  xbig     = {(ebf != 8'd0), op_big[22:0], 3'b000};
  xsmall   = {(esf != 8'd0), op_small[22:0], 3'b000};
  // ---- align: shift op_small right by min(ebig - esmall, 27), lost bits -> sticky ----
  dexp = ebig - esmall;
  dsh  = (dexp > 8'd27) ? 5'd27 : dexp[4:0];
  wide = {xsmall, 27'd0} >> dsh;
  xal  = wide[53:27] | {26'd0, (wide[26:0] != 27'd0)};
  // ---- add / subtract (one adder) and normalize ----
  // different signs: xbig - xal = xbig + ~xal + 1, never negative (|big| >= |small|)
  addend = sub ? ~{1'b0, xal} : {1'b0, xal};
  sum    = {1'b0, xbig} + addend + {27'd0, sub};
  diff   = sum[26:0];
  lz     = mt_fp32_lzc27(diff);
  // shift left by min(lz, ebig - 1): ebig - 1 >= 27 never limits (lz <= 27)
  lsh    = ((ebig - 8'd1) < {3'd0, lz}) ? 5'(ebig - 8'd1) : lz;
  zero   = sub && (diff == 27'd0);
  // same signs: a carry shifts right by one (sticky kept); different signs: shift left
  norm   = !sub ? (sum[27] ? {sum[27:2], sum[1] | sum[0]} : sum[26:0]) : (diff << lsh);
  e      = !sub ? ({1'b0, ebig} + {8'd0, sum[27]}) : ({1'b0, ebig} - {4'd0, lsh});
  // ---- round to nearest even, pack ----
  m24    = norm[26:3];
  g      = norm[2];
  r      = norm[1];
  s      = norm[0];
`ifdef MT_FP32_MUTANT_TRUNC
  up     = 1'b0;                      // negative test only: truncation instead of RNE
`else
  up     = g & (r | s | m24[0]);
`endif
  efield = m24[23] ? e[7:0] : 8'd0;
  mag    = {efield, m24[22:0]} + {30'd0, up};
  mt_fp32_add_f = (a_nan || b_nan || (a_inf && b_inf && sub)) ? 32'h7FC0_0000
                : a_inf           ? a
                : b_inf           ? b
                : zero            ? 32'd0                  // x + (-x) = +0
                : (e >= 9'd255)   ? {sign, 8'hFF, 23'd0}   // carry out of 254
                :                   {sign, mag};
endfunction
