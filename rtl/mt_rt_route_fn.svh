// SPDX-License-Identifier: Apache-2.0
// mt_rt_route_fn.svh: the route function of the router (contract: rtl/mt_rt_route.sv),
// `include'd in the body of mt_rt_route (its unit bench) and of mt_router, which calls it only
// for an idle input VC with a head at its front (docs/results/bench.md "RTL simulation speed"). Uses
// the includer's parameters D, L, NumVcs, K0, K1, K2, Torus.

localparam int RtK1e = (D > 1) ? K1 : 1;
localparam int RtK2e = (D > 2) ? K2 : 1;
localparam logic [NumVcs-1:0] RtLower = NumVcs'((1 << (NumVcs / 2)) - 1);
localparam int RtL = (L > 0) ? L : 1;  // = L where this function is called (Table = 0, L >= 1)

// coordinates of node id, 16 bits per dimension (X lowest)
function automatic logic [47:0] mt_rt_coords(input logic [11:0] id);
  logic [15:0] id16;
  id16 = {4'b0, id};
  mt_rt_coords = {id16 / 16'(K0 * RtK1e) % 16'(RtK2e), id16 / 16'(K0) % 16'(RtK1e), id16 % 16'(K0)};
endfunction

// {port[3:0], mask[NumVcs-1:0], swap} of a head flit (fields dst, next, eject of its info
// word, mt_common_pkg::HD_*) that arrived on port in_port in VC class in_cls1, at the node
// with coordinates mc
function automatic logic [NumVcs+4:0] mt_rt_route_f(input logic [47:0] mc, input logic [3:0] in_port,
                                                    input logic in_cls1, input logic normal,
                                                    input logic [11:0] dst, input logic [3:0] nxt,
                                                    input logic [3:0] ej);
  logic [47:0] dc, kv;
  logic [3:0] port;
  logic [NumVcs-1:0] mask, hi;
  logic swap, found, plus, wrap, cls1, one;
  logic [15:0] m, c, k, dp;
  kv = {16'(RtK2e), 16'(RtK1e), 16'(K0)};
  dc = mt_rt_coords(dst);
  port = 4'(2 * D) + ((ej < 4'(RtL)) ? ej : 4'd0);
  mask = '1;
  swap = 1'b0;
  found = 1'b0;
  plus = 1'b0;
  wrap = 1'b0;
  cls1 = 1'b0;
  one = 1'b0;
  hi = '0;
  m = '0;
  c = '0;
  k = '0;
  dp = '0;
  if (!normal) begin
    if (in_port < 4'(2 * D)) begin
      port = 4'(2 * D) + ((nxt < 4'(RtL)) ? nxt : 4'd0);
    end else begin
      port = ({1'b0, nxt} < 5'(2 * D + L)) ? nxt : 4'd0;
      swap = 1'b1;
    end
  end else begin
    for (int d = 0; d < D; d++) begin
      if (!found && mc[d*16 +: 16] != dc[d*16 +: 16]) begin
        found = 1'b1;
        m = mc[d*16 +: 16];
        c = dc[d*16 +: 16];
        k = kv[d*16 +: 16];
        if (Torus != 0) begin
          dp = (c >= m) ? (c - m) : (c + k - m);
          plus = ({dp, 1'b0} <= {1'b0, k});
          wrap = plus ? (m == k - 16'd1) : (m == 16'd0);
          cls1 = wrap || (in_port < 4'(2 * D) && in_port[3:1] == 3'(d) && in_cls1);
          mask = cls1 ? ~RtLower : RtLower;
          one = plus ? (dp == 16'd1) : (dp == k - 16'd1);
        end else begin
          plus = (c > m);
          one = plus ? (c == m + 16'd1) : (m == c + 16'd1);
        end
        port = 4'(2 * d) + (plus ? 4'd0 : 4'd1);
      end else if (found && mc[d*16 +: 16] != dc[d*16 +: 16]) begin
        one = 1'b0;  // another dimension to go: more than one hop
      end
    end
    // injected here for a neighbour: only the highest VC of the class, so a source's
    // packets to a neighbour stay in injection order (docs/reference/router.md "In-order injection")
    if (found && one && in_port >= 4'(2 * D)) begin
      hi = mask;
      for (int v = 0; v < NumVcs - 1; v++) if (hi[v + 1]) hi[v] = 1'b0;
      mask = hi;
    end
  end
  mt_rt_route_f = {port, mask, swap};
endfunction
