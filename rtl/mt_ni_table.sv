// SPDX-License-Identifier: Apache-2.0
// mt_ni_table: the all-reduce schedule table (Fig. 6): Depth words of Width bits, one write
// port (loading at initialisation) and registered read ports: A (scan/issue head entry) and
// NB B ports (receive look-up, one per receive engine). Optional $readmemh image (InitFile)
// for FPGA use.
// Contract: rd*_o holds mem[r*_i] sampled at the last rising edge; a write and a read of
// the same word at one edge read the old word. Addresses must be < Depth.
`default_nettype none

module mt_ni_table #(
  parameter int Depth    = 64,
  parameter int Width    = 86,
  parameter int NB       = 1,
  parameter     InitFile = "",
  localparam int AW      = mt_common_pkg::idx_w(Depth)
) (
  input  logic                clk_i,
  input  logic                we_i,
  input  logic [AW-1:0]       waddr_i,
  input  logic [Width-1:0]    wdata_i,
  input  logic [AW-1:0]       ra_i,
  output logic [Width-1:0]    rda_o,
  input  logic [NB*AW-1:0]    rb_i,     // port B of engine e at [e*AW +: AW]
  output logic [NB*Width-1:0] rdb_o
);
  initial begin
    if (Depth < 2) $fatal(1, "mt_ni_table: Depth=%0d, need >= 2", Depth);
    if (Width < 1) $fatal(1, "mt_ni_table: Width=%0d", Width);
    if (NB < 1) $fatal(1, "mt_ni_table: NB=%0d, need >= 1", NB);
  end

  // block RAM on an FPGA (DP16KD, SB_RAM40_4K) even when it is shallow: a new schedule is then
  // patched into a bitstream without place and route (docs/reference/fpga.md)
  (* ram_style = "block" *) logic [Width-1:0] mem [0:Depth-1];
  logic [Width-1:0] rda_q;
  logic [NB*Width-1:0] rdb_q;

  initial if (InitFile != "") $readmemh(InitFile, mem);

  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rda_q <= mem[ra_i];
    for (int b = 0; b < NB; b++) rdb_q[b*Width +: Width] <= mem[rb_i[b*AW +: AW]];
  end

  assign rda_o = rda_q;
  assign rdb_o = rdb_q;
endmodule
