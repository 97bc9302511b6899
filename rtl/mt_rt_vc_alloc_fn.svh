// SPDX-License-Identifier: Apache-2.0
// mt_rt_vc_alloc_fn.svh: the output VC choice of the router (contract: rtl/mt_rt_vc_alloc.sv),
// `include'd in the body of mt_rt_vc_alloc (its unit bench) and of mt_router, which calls it
// only for an idle input VC with a head at its front (docs/results/bench.md "RTL simulation speed").
// Uses the includer's parameters NumVcs, CntW, FlitBytes, EjDepth, VcW.

// {ok, vc[VcW-1:0]}: the lowest eligible VC; join_ok: VCs of a local output whose last unit was
// of this head's transfer (docs/reference/switch.md "Empty ejection VCs, and joining"; '0 at Table = 0)
function automatic logic [VcW:0] mt_rt_vc_alloc_f(input logic [NumVcs-1:0] mask, input logic [NumVcs-1:0] busy,
                                                 input logic [NumVcs*CntW-1:0] cred, input logic [2:0] ftype,
                                                 input logic local_o, input logic cap, input logic [31:0] len,
                                                 input logic [NumVcs-1:0] join_ok);
  logic [NumVcs-1:0] elig;
  logic [CntW-1:0] c;
  logic [47:0] cm1;
  logic [VcW-1:0] vc;
  elig = '0;
  c = '0;
  cm1 = '0;
  for (int v = 0; v < NumVcs; v++) begin
    c = cred[v*CntW +: CntW];
    if (mask[v] && !busy[v] && c != '0) begin
      cm1 = 48'(c) - 48'd1;
      // >=: credits past Depth only after an overflow. join_ok[v] (a switch's packet head of
      // the transfer of VC v's last unit): a non-empty VC with the credits of the packet
      if (local_o) elig[v] = (32'(c) >= 32'(EjDepth)) ? !cap
                           : (join_ok[v] && ftype == mt_common_pkg::FT_HEAD && cm1 * 48'(FlitBytes) >= {16'b0, len});
      else if (ftype == mt_common_pkg::FT_HEAD) elig[v] = (cm1 * 48'(FlitBytes) >= {16'b0, len});
      else elig[v] = 1'b1;
    end
  end
  vc = '0;
  for (int v = NumVcs - 1; v >= 0; v--) begin
    if (elig[v]) vc = VcW'(v);
  end
  mt_rt_vc_alloc_f = {|elig, vc};
endfunction
