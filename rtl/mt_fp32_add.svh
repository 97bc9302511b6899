// SPDX-License-Identifier: Apache-2.0
// mt_fp32_add.svh: the adder of the reduction unit as functions, `include'd inside the body
// of mt_fp32_add (its combinational adder) and of mt_reduce_alu (which calls it in its
// clocked block, so that a simulator evaluates it only at an edge with a valid operand pair).
// Contract: mt_reduce_add_f(dtype, a, b) = a + b as int32 wrap-around (dtype 0) or as binary32
// (dtype 1): round to nearest even, subnormals kept (no flush), signed zeros and infinities as
// IEEE, any NaN result (NaN operand, inf + -inf) is the canonical quiet NaN 32'h7FC00000;
// mt_fp32_add_f(a, b) is its binary32 half. Bit-exact with mt_reduce_add() / mt_fp32_add() of
// cmodel/util/mt_fp32.c, which models these steps one by one (docs/reference/reduction.md).
// One 32-bit adder serves both: the int32 sum, or the significands' add/subtract (28 bits).

// Leading zeros of a 27-bit value (27 for zero): a tree over 32 bits (the value, then five
// ones), each node the count of its upper half when that half has a one, else the half's
// width plus the count of its lower half (a priority chain of constants costs twice the gates;
// an incrementing loop makes Yosys' SAT-based `share` pass blow up).
function automatic logic [4:0] mt_fp32_lzc27(input logic [26:0] v);
  logic [31:0] w;
  logic [15:0] v1, c1;                     // 16 nodes of 2 bits: a one in it, its count (1 bit)
  logic [7:0]  v2;
  logic [15:0] c2;                         // 8 nodes of 4 bits: counts of 2 bits
  logic [3:0]  v3;
  logic [11:0] c3;                         // 4 of 8 bits: 3 bits
  logic [7:0]  c4;                         // 2 of 16 bits: 4 bits
  w = {v, 5'b11111};
  for (int i = 0; i < 16; i++) begin
    v1[i] = w[2*i+1] | w[2*i];
    c1[i] = !w[2*i+1];
  end
  for (int i = 0; i < 8; i++) begin
    v2[i]        = v1[2*i+1] | v1[2*i];
    c2[2*i +: 2] = v1[2*i+1] ? {1'b0, c1[2*i+1]} : {1'b1, c1[2*i]};
  end
  for (int i = 0; i < 4; i++) begin
    v3[i]        = v2[2*i+1] | v2[2*i];
    c3[3*i +: 3] = v2[2*i+1] ? {1'b0, c2[4*i+2 +: 2]} : {1'b1, c2[4*i +: 2]};
  end
  for (int i = 0; i < 2; i++)
    c4[4*i +: 4] = v3[2*i+1] ? {1'b0, c3[6*i+3 +: 3]} : {1'b1, c3[6*i +: 3]};
  // the lower 16 bits hold the five ones: the root needs only whether the upper half has a one
  mt_fp32_lzc27 = (v3[3] | v3[2]) ? {1'b0, c4[7:4]} : {1'b1, c4[3:0]};
endfunction

// The adder in three steps, so that mt_reduce_alu can put registers between them (Pipe):
//   mt_fp32_align_f  classify, order by magnitude, unpack, align: the adder's operands x, y
//                    and carry in (the int32 operands as they are for dtype 0), and what the
//                    last step needs of the operands;
//   mt_fp32_sum_f    the one 32-bit adder, x + y + carry in;
//   mt_fp32_round_f  normalize, round to nearest even, pack (or the int32 sum for dtype 0).
// Between the steps (bits, high to low):
//   align: {dtype, nan, inf, inf sign, sub, sign, ebig[7:0], cin, x[31:0], y[31:0]}  79 bits
//   sum:   {dtype, nan, inf, inf sign, sub, sign, ebig[7:0], s[31:0]}                46 bits
function automatic logic [78:0] mt_fp32_align_f(input logic dtype, input logic [31:0] a, input logic [31:0] b);
  logic [7:0]  ea, eb;
  logic        a_nan, b_nan, a_inf, b_inf, nan, inf, inf_sign;
  logic        swap, sub, sign;
  logic [31:0] op_big;
  logic [30:0] op_small;           // its sign is not needed: the signs enter through sub and sign
  logic [7:0]  ebf, esf, ebig, esmall;
  logic [26:0] xbig, xsmall;       // [26:3] significand, [2:0] guard/round/sticky
  logic [7:0]  dexp;
  logic [4:0]  dsh;
  logic        lost;
  logic [26:0] xal;
  logic [31:0] x, y;
  // ---- classify ----
  ea       = a[30:23];
  eb       = b[30:23];
  a_nan    = (ea == 8'hFF) && (a[22:0] != 23'd0);
  b_nan    = (eb == 8'hFF) && (b[22:0] != 23'd0);
  a_inf    = (ea == 8'hFF) && (a[22:0] == 23'd0);
  b_inf    = (eb == 8'hFF) && (b[22:0] == 23'd0);
  sub      = a[31] ^ b[31];
  nan      = a_nan || b_nan || (a_inf && b_inf && sub);
  inf      = a_inf || b_inf;
  inf_sign = a_inf ? a[31] : b[31];
  // ---- order by magnitude, unpack ----
  swap     = (b[30:0] > a[30:0]);
  op_big   = swap ? b : a;
  op_small = swap ? a[30:0] : b[30:0];
  sign     = op_big[31];
  ebf      = op_big[30:23];
  esf      = op_small[30:23];
  ebig     = (ebf != 8'd0) ? ebf : 8'd1;
  esmall   = (esf != 8'd0) ? esf : 8'd1;
  xbig     = {(ebf != 8'd0), op_big[22:0], 3'b000};
  xsmall   = {(esf != 8'd0), op_small[22:0], 3'b000};
  // ---- align: shift op_small right by min(ebig - esmall, 27), lost bits -> sticky ----
  dexp = ebig - esmall;
  dsh  = (dexp > 8'd27) ? 5'd27 : dexp[4:0];
  lost = 1'b0;
  for (int i = 3; i < 27; i++) lost |= xsmall[i] && (5'(i) < dsh);   // bit i shifted out
  xal  = (xsmall >> dsh) | {26'd0, lost};
  // ---- the adder's operands: the int32 sum, or add / subtract the significands ----
  // different signs: xbig - xal = xbig + ~xal + 1, never negative (|big| >= |small|)
  x    = dtype ? {5'd0, xbig} : a;
  y    = dtype ? {{5{sub}}, sub ? ~xal : xal} : b;
  mt_fp32_align_f = {dtype, nan, inf, inf_sign, sub, sign, ebig, dtype && sub, x, y};
endfunction

function automatic logic [45:0] mt_fp32_sum_f(input logic [78:0] p);
  // the one adder: x + y + cin
  mt_fp32_sum_f = {p[78:65], p[63:32] + p[31:0] + {31'd0, p[64]}};
endfunction

function automatic logic [31:0] mt_fp32_round_f(input logic [45:0] p);
  logic        dtype, nan, inf, inf_sign, sub, sign;
  logic [7:0]  ebig;
  logic [31:0] s;
  logic [27:0] sum;
  logic [26:0] diff, norm;
  logic [4:0]  lz, lsh;
  logic [8:0]  e;                  // 1..255
  logic        zero, eovf;
  logic [23:0] m24;
  logic        g, r, st, up;
  logic [30:0] mag;
  logic [31:0] fp;
  {dtype, nan, inf, inf_sign, sub, sign, ebig, s} = p;
  sum  = s[27:0];
  diff = sum[26:0];
  // ---- normalize ----
  lz   = mt_fp32_lzc27(diff);
  // shift left by min(lz, ebig - 1): ebig - 1 >= 27 never limits (lz <= 27)
  lsh  = ({3'd0, lz} >= ebig) ? 5'(ebig - 8'd1) : lz;
  zero = sub && (lz == 5'd27);     // diff == 0
  // same signs: a carry shifts right by one (sticky kept); different signs: shift left
  norm = !sub ? (sum[27] ? {sum[27:2], sum[1] | sum[0]} : sum[26:0]) : (diff << lsh);
  e    = {1'b0, ebig} + (sub ? ~{4'd0, lsh} + 9'd1 : {8'd0, sum[27]});
  // ---- round to nearest even, pack ----
  m24  = norm[26:3];
  g    = norm[2];
  r    = norm[1];
  st   = norm[0];
`ifdef MT_FP32_MUTANT_TRUNC
  up   = 1'b0;                     // negative test only: truncation instead of RNE
`else
  up   = g & (r | st | m24[0]);
`endif
  mag  = {m24[23] ? e[7:0] : 8'd0, m24[22:0]} + {30'd0, up};
  eovf = e >= 9'd255;              // carry out of 254
  // the result by field: NaN 7FC00000; an infinite operand, or the carry out of 254:
  // infinity; x + (-x) = +0
  fp[31]    = !nan && (inf ? inf_sign : !zero && sign);
  fp[30:23] = (nan || inf || eovf) ? 8'hFF : zero ? 8'd0 : mag[30:23];
  fp[22]    = nan || (!inf && !zero && !eovf && mag[22]);
  fp[21:0]  = (nan || inf || zero || eovf) ? 22'd0 : mag[21:0];
  mt_fp32_round_f = dtype ? fp : s;
endfunction

function automatic logic [31:0] mt_reduce_add_f(input logic dtype, input logic [31:0] a, input logic [31:0] b);
  mt_reduce_add_f = mt_fp32_round_f(mt_fp32_sum_f(mt_fp32_align_f(dtype, a, b)));
endfunction

function automatic logic [31:0] mt_fp32_add_f(input logic [31:0] a, input logic [31:0] b);
  mt_fp32_add_f = mt_reduce_add_f(1'b1, a, b);
endfunction
