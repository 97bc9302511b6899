// SPDX-License-Identifier: Apache-2.0
// mt_rt_vc_alloc_fn.svh: the output VC choice of the router (contract: rtl/mt_rt_vc_alloc.sv),
// `include'd in the body of mt_rt_vc_alloc (its unit bench) and of mt_router, which calls it
// only for an idle input VC with a head at its front (docs/results/bench.md "RTL simulation speed").
// Uses the includer's parameters NumVcs, CntW, FlitBytes, EjDepth, VcW.

// (c - 1) * FlitBytes >= len in VaW bits: the product is below 2^VaW, so it holds iff len has no
// bit from VaW up and the low bits compare (a narrow comparison, not a 48-bit one per VC)
localparam int VaW = CntW + $clog2(FlitBytes + 1);

// {ok, vc[VcW-1:0]}: the lowest eligible VC; join_ok: VCs of a local output whose last unit was
// of this head's transfer (docs/reference/switch.md "Empty ejection VCs, and joining"; '0 at Table = 0)
function automatic logic [VcW:0] mt_rt_vc_alloc_f(input logic [NumVcs-1:0] mask, input logic [NumVcs-1:0] busy,
                                                 input logic [NumVcs*CntW-1:0] cred, input logic [2:0] ftype,
                                                 input logic local_o, input logic cap, input logic [31:0] len,
                                                 input logic [NumVcs-1:0] join_ok);
  logic [NumVcs-1:0] elig;
  logic [CntW-1:0] c;
  logic [CntW-1:0] cm1;
  logic fit;
  logic [VcW-1:0] vc;
  logic len_hi0;
  elig = '0;
  c = '0;
  cm1 = '0;
  fit = 1'b0;
  len_hi0 = (len >> VaW) == 32'd0;
  for (int v = 0; v < NumVcs; v++) begin
    c = cred[v*CntW +: CntW];
    if (mask[v] && !busy[v] && c != '0) begin
      cm1 = c - 1'b1;
      fit = len_hi0 && (VaW'(cm1) * VaW'(FlitBytes) >= len[VaW-1:0]);  // (c - 1) * FlitBytes >= len
      // >=: credits past Depth only after an overflow. join_ok[v] (a switch's packet head of
      // the transfer of VC v's last unit): a non-empty VC with the credits of the packet
      if (local_o) elig[v] = (32'(c) >= 32'(EjDepth)) ? !cap
                           : (join_ok[v] && ftype == mt_common_pkg::FT_HEAD && fit);
      else if (ftype == mt_common_pkg::FT_HEAD) elig[v] = fit;
      else elig[v] = 1'b1;
    end
  end
  vc = '0;
  for (int v = NumVcs - 1; v >= 0; v--) begin
    if (elig[v]) vc = VcW'(v);
  end
  mt_rt_vc_alloc_f = {|elig, vc};
endfunction
