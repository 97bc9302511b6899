// SPDX-License-Identifier: Apache-2.0
// mt_ni_ram: the memory primitive of the NI's per-flow state (docs/reference/ni.md "State in
// RAM"): Depth words of Width bits, one write port and one synchronous read port (1R1W), the
// shape Yosys maps to block RAM (synth_ice40, synth_ecp5) and synth/ black-boxes and counts as
// memory bits.
// Contract: we_i writes wdata_i at waddr_i at the rising edge; rdata_o holds the word at the
// raddr_i sampled at the last rising edge where re_i was high (it holds otherwise). A read and a
// write of the same address at one edge: Bypass = 1 returns the new word (a forwarding register
// beside the array, as FPGA block RAM in read-first mode needs), Bypass = 0 the old one. No reset:
// the owner clears what it uses. Addresses must be < Depth.
`default_nettype none
module mt_ni_ram #(
  parameter int Depth  = 16,
  parameter int Width  = 32,
  parameter int Bypass = 1,
  localparam int AW    = mt_common_pkg::idx_w(Depth)
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AW-1:0]    waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AW-1:0]    raddr_i,
  output logic [Width-1:0] rdata_o
);
  initial begin
    if (Depth < 1) $fatal(1, "mt_ni_ram: Depth=%0d must be >= 1", Depth);
    if (Width < 1) $fatal(1, "mt_ni_ram: Width=%0d must be >= 1", Width);
    if (Bypass != 0 && Bypass != 1) $fatal(1, "mt_ni_ram: Bypass=%0d must be 0 or 1", Bypass);
  end
  logic [Width-1:0] mem [Depth];
  logic [Width-1:0] rd_q, fw_q;
  logic             fwd_q;
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    if (re_i) rd_q <= mem[raddr_i];
  end
  // the forwarding register: the word written at the edge of the read, when the read needs it
  always_ff @(posedge clk_i) begin
    if (re_i) fwd_q <= (Bypass != 0) && we_i && (waddr_i == raddr_i);
    if (re_i && we_i) fw_q <= wdata_i;
  end
  assign rdata_o = fwd_q ? fw_q : rd_q;
endmodule
