// SPDX-License-Identifier: Apache-2.0
// mt_rt_ram: storage of one VC input buffer: one write port, one asynchronous read port.
// Contract: we_i writes wdata_i at waddr_i on the clock edge; rdata_o = mem[raddr_i] at once.
// No reset (the buffer's pointers say what is valid). Black-boxed for area (synth/).
`default_nettype none
module mt_rt_ram #(
  parameter int Depth = 4,
  parameter int Width = 8,
  parameter int AddrW = mt_common_pkg::idx_w(Depth)
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);
  initial begin
    if (Depth < 1) $fatal(1, "mt_rt_ram: Depth=%0d must be >= 1", Depth);
  end
  logic [Width-1:0] mem [Depth];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end
  assign rdata_o = mem[raddr_i];
endmodule
