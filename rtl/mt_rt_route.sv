// SPDX-License-Identifier: Apache-2.0
// mt_rt_route: route computation for the head flit at the front of one input VC.
// Contract (docs/router.md): combinational. Normal packet: dimension order X, Y, Z; torus:
// the shorter way round, ties to +; mesh: toward the destination. Allowed output VCs: on a
// torus class 1 (upper half) if this hop is the wrap link of the dimension, or the packet
// arrived in class 1 on a port of the same dimension; else class 0 (lower half); all VCs on
// a mesh and toward local ports; a packet injected at a local input for a neighbour (one hop
// in total): only the highest VC of that set. Destination reached: local port 2D + eject (eject >= L -> 0).
// All-reduce head: at a network input, local port 2D + next (next >= L -> 0); at a local
// input (source router), port next (next >= NP -> 0) and swap_o = 1 (next <-> eject).
`default_nettype none
module mt_rt_route #(
  parameter int D = 2,
  parameter int L = 4,
  parameter int NumVcs = 4,
  parameter int K0 = 4,
  parameter int K1 = 4,
  parameter int K2 = 1,
  parameter int Torus = 1
) (
  input  logic [11:0]       node_id_i,
  input  logic [3:0]        in_port_i,  // arrival port (a constant per instance)
  input  logic              in_cls1_i,  // arrival VC is in the upper half
  input  logic              normal_i,   // type bit 2: a normal packet (else all-reduce)
  input  logic [31:0]       info_i,     // packet info word 0: dst, src, next, eject
  output logic [3:0]        port_o,
  output logic [NumVcs-1:0] mask_o,
  output logic              swap_o
);
  localparam int ND = 2 * D;
  localparam int NP = 2 * D + L;
  localparam int K1e = (D > 1) ? K1 : 1;
  localparam int K2e = (D > 2) ? K2 : 1;
  localparam logic [47:0] KV = {16'(K2e), 16'(K1e), 16'(K0)};
  localparam logic [NumVcs-1:0] Lower = NumVcs'((1 << (NumVcs / 2)) - 1);
  localparam logic [NumVcs-1:0] All = '1;

  initial begin
    if (D < 1 || D > 3) $fatal(1, "mt_rt_route: D=%0d must be 1..3", D);
    if (NP > 16) $fatal(1, "mt_rt_route: 2*D+L=%0d must be <= 16", NP);
    if (K0 < 2 || (D > 1 && K1 < 2) || (D > 2 && K2 < 2)) $fatal(1, "mt_rt_route: K < 2");
    if (K0 * K1e * K2e > 4096) $fatal(1, "mt_rt_route: more than 4096 nodes");
  end

  logic [15:0] me16, dst16;
  logic [47:0] mc, dc;  // coordinates, 16 bits per dimension
  assign me16  = {4'b0, node_id_i};
  assign dst16 = {4'b0, info_i[mt_common_pkg::HD_DST_LSB +: mt_common_pkg::HD_DST_W]};
  assign mc = {me16 / 16'(K0 * K1e) % 16'(K2e), me16 / 16'(K0) % 16'(K1e), me16 % 16'(K0)};
  assign dc = {dst16 / 16'(K0 * K1e) % 16'(K2e), dst16 / 16'(K0) % 16'(K1e), dst16 % 16'(K0)};

  logic [3:0] nxt, ej;
  assign nxt = info_i[mt_common_pkg::HD_NEXT_LSB +: mt_common_pkg::HD_NEXT_W];
  assign ej  = info_i[mt_common_pkg::HD_EJECT_LSB +: mt_common_pkg::HD_EJECT_W];

  logic        found, plus, wrap, cls1, one;
  logic [NumVcs-1:0] hi;
  logic [15:0] m, c, k, dp;

  always @(*) begin
    port_o = 4'(ND) + ((ej < 4'(L)) ? ej : 4'd0);
    mask_o = All;
    swap_o = 1'b0;
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
    if (!normal_i) begin
      if (in_port_i < 4'(ND)) begin
        port_o = 4'(ND) + ((nxt < 4'(L)) ? nxt : 4'd0);
      end else begin
        port_o = ({1'b0, nxt} < 5'(NP)) ? nxt : 4'd0;
        swap_o = 1'b1;
      end
    end else begin
      for (int d = 0; d < D; d++) begin
        if (!found && mc[d*16 +: 16] != dc[d*16 +: 16]) begin
          found = 1'b1;
          m = mc[d*16 +: 16];
          c = dc[d*16 +: 16];
          k = KV[d*16 +: 16];
          if (Torus != 0) begin
            dp = (c >= m) ? (c - m) : (c + k - m);
            plus = ({dp, 1'b0} <= {1'b0, k});
            wrap = plus ? (m == k - 16'd1) : (m == 16'd0);
            cls1 = wrap || (in_port_i < 4'(ND) && in_port_i[3:1] == 3'(d) && in_cls1_i);
            mask_o = cls1 ? ~Lower : Lower;
            one = plus ? (dp == 16'd1) : (dp == k - 16'd1);
          end else begin
            plus = (c > m);
            one = plus ? (c == m + 16'd1) : (m == c + 16'd1);
          end
          port_o = 4'(2 * d) + (plus ? 4'd0 : 4'd1);
        end else if (found && mc[d*16 +: 16] != dc[d*16 +: 16]) begin
          one = 1'b0;  // another dimension to go: more than one hop
        end
      end
      // injected here for a neighbour: only the highest VC of the class, so a source's
      // packets to a neighbour stay in injection order (docs/router.md "In-order injection")
      if (found && one && in_port_i >= 4'(ND)) begin
        hi = mask_o;
        for (int v = 0; v < NumVcs - 1; v++) if (hi[v + 1]) hi[v] = 1'b0;
        mask_o = hi;
      end
    end
  end

  // src field and the rest of info_i are not needed for routing
  logic unused_ok;
  assign unused_ok = ^info_i[mt_common_pkg::HD_SRC_LSB +: mt_common_pkg::HD_SRC_W];
endmodule
