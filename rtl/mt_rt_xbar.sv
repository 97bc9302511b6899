// SPDX-License-Identifier: Apache-2.0
// mt_rt_xbar: crossbar from N input VCs to NP output ports.
// Contract: combinational; out_o[o] = in_i[sel_i[o]] when valid_i[o], else all zeros.
`default_nettype none
module mt_rt_xbar #(
  parameter int N = 8,
  parameter int NP = 2,
  parameter int W = 8,
  parameter int IdxW = mt_common_pkg::idx_w(N)
) (
  input  logic [N*W-1:0]     in_i,
  input  logic [NP*IdxW-1:0] sel_i,
  input  logic [NP-1:0]      valid_i,
  output logic [NP*W-1:0]    out_o
);
  for (genvar o = 0; o < NP; o++) begin : g_out
    assign out_o[o*W +: W] = valid_i[o] ? in_i[sel_i[o*IdxW +: IdxW]*W +: W] : '0;
  end
endmodule
