// SPDX-License-Identifier: Apache-2.0
// mt_rt_vc_alloc_fn.svh: the output VC choice of the router (contract: rtl/mt_rt_vc_alloc.sv),
// `include'd in the body of mt_rt_vc_alloc (its unit bench) and of mt_router, which calls it
// only for an idle input VC with a head at its front (docs/results/bench.md "RTL simulation speed").
// Uses the includer's parameters NumVcs, CntW, FlitBytes, EjDepth, VcW.

// (c - 1) * FlitBytes >= len in VaW bits: the product is below 2^VaW, so it holds iff len has no
// bit from VaW up and the low bits compare (a narrow comparison, not a 48-bit one per VC)
localparam int VaW = CntW + $clog2(FlitBytes + 1);

// {ok, vc[VcW-1:0]}: the lowest eligible VC; fitv[v]: VC v's credits hold the head's packet
// ((c - 1) * FlitBytes >= len); join_ok: VCs of a local output whose last unit was of this
// head's transfer (docs/reference/switch.md "Empty ejection VCs, and joining"; '0 at Table = 0)
function automatic logic [VcW:0] mt_rt_vc_alloc_core_f(input logic [NumVcs-1:0] mask, input logic [NumVcs-1:0] busy,
                                                      input logic [NumVcs*CntW-1:0] cred, input logic [2:0] ftype,
                                                      input logic local_o, input logic cap, input logic [NumVcs-1:0] fitv,
                                                      input logic [NumVcs-1:0] join_ok);
  logic [NumVcs-1:0] elig;
  logic [CntW-1:0] c;
  logic [VcW-1:0] vc;
  elig = '0;
  c = '0;
  for (int v = 0; v < NumVcs; v++) begin
    c = cred[v*CntW +: CntW];
    if (mask[v] && !busy[v] && c != '0) begin
      // >=: credits past Depth only after an overflow. join_ok[v] (a switch's packet head of
      // the transfer of VC v's last unit): a non-empty VC with the credits of the packet
      if (local_o) elig[v] = (32'(c) >= 32'(EjDepth)) ? !cap
                           : (join_ok[v] && ftype == mt_common_pkg::FT_HEAD && fitv[v]);
      else if (ftype == mt_common_pkg::FT_HEAD) elig[v] = fitv[v];
      else elig[v] = 1'b1;
    end
  end
  vc = '0;
  for (int v = NumVcs - 1; v >= 0; v--) begin
    if (elig[v]) vc = VcW'(v);
  end
  mt_rt_vc_alloc_core_f = {|elig, vc};
endfunction

// the VC choice of a head of payload length len
function automatic logic [VcW:0] mt_rt_vc_alloc_f(input logic [NumVcs-1:0] mask, input logic [NumVcs-1:0] busy,
                                                 input logic [NumVcs*CntW-1:0] cred, input logic [2:0] ftype,
                                                 input logic local_o, input logic cap, input logic [31:0] len,
                                                 input logic [NumVcs-1:0] join_ok);
  logic [NumVcs-1:0] fitv;
  logic [CntW-1:0] cm1;
  logic len_hi0;
  len_hi0 = (len >> VaW) == 32'd0;
  for (int v = 0; v < NumVcs; v++) begin
    cm1 = cred[v*CntW +: CntW] - 1'b1;
    fitv[v] = len_hi0 && (VaW'(cm1) * VaW'(FlitBytes) >= len[VaW-1:0]);  // (c - 1) * FlitBytes >= len
  end
  mt_rt_vc_alloc_f = mt_rt_vc_alloc_core_f(mask, busy, cred, ftype, local_o, cap, fitv, join_ok);
endfunction

// Pipe = 1 (mt_router): the same choice with the credits the head needs computed when it was
// written into its VC buffer (mt_rt_need_f): c >= need <=> (c - 1) * FlitBytes >= len
function automatic logic [VcW:0] mt_rt_vc_alloc_need_f(input logic [NumVcs-1:0] mask, input logic [NumVcs-1:0] busy,
                                                      input logic [NumVcs*CntW-1:0] cred, input logic [2:0] ftype,
                                                      input logic local_o, input logic cap, input logic [CntW:0] need,
                                                      input logic [NumVcs-1:0] join_ok);
  logic [NumVcs-1:0] fitv;
  for (int v = 0; v < NumVcs; v++) fitv[v] = {1'b0, cred[v*CntW +: CntW]} >= need;
  mt_rt_vc_alloc_need_f = mt_rt_vc_alloc_core_f(mask, busy, cred, ftype, local_o, cap, fitv, join_ok);
endfunction

// the credits a head of payload length len needs, 1 + ceil(len / FlitBytes), saturated at
// 2^(CntW+1) - 1: more than any credit count, so it never fits
function automatic logic [CntW:0] mt_rt_need_f(input logic [31:0] len);
  logic [31:0] q;
  logic [32:0] n;
  q = len / 32'(FlitBytes);
  n = {1'b0, q} + 33'((len % 32'(FlitBytes)) != 32'd0) + 33'd1;
  mt_rt_need_f = (n >> (CntW + 1)) != 33'd0 ? '1 : n[CntW:0];
endfunction
