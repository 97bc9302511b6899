// SPDX-License-Identifier: Apache-2.0
// mt_rt_route: route computation for the head flit at the front of one input VC.
// Contract (docs/reference/router.md): combinational. Normal packet: dimension order X, Y, Z; torus:
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
  localparam int NP = 2 * D + L;
`include "mt_rt_route_fn.svh"

  initial begin
    if (D < 1 || D > 3) $fatal(1, "mt_rt_route: D=%0d must be 1..3", D);
    if (NP > 16) $fatal(1, "mt_rt_route: 2*D+L=%0d must be <= 16", NP);
    if (K0 < 2 || (D > 1 && K1 < 2) || (D > 2 && K2 < 2)) $fatal(1, "mt_rt_route: K < 2");
    if (K0 * RtK1e * RtK2e > 4096) $fatal(1, "mt_rt_route: more than 4096 nodes");
  end

  assign {port_o, mask_o, swap_o} = mt_rt_route_f(mt_rt_coords(node_id_i), in_port_i, in_cls1_i, normal_i,
      info_i[mt_common_pkg::HD_DST_LSB +: mt_common_pkg::HD_DST_W],
      info_i[mt_common_pkg::HD_NEXT_LSB +: mt_common_pkg::HD_NEXT_W],
      info_i[mt_common_pkg::HD_EJECT_LSB +: mt_common_pkg::HD_EJECT_W]);

  // src field and the rest of info_i are not needed for routing
  logic unused_ok;
  assign unused_ok = ^info_i[mt_common_pkg::HD_SRC_LSB +: mt_common_pkg::HD_SRC_W];
endmodule
