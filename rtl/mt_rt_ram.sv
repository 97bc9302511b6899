// SPDX-License-Identifier: Apache-2.0
// mt_rt_ram: storage of one VC input buffer: one write port, one read port.
// Contract: we_i writes wdata_i at waddr_i on the clock edge. SyncRd = 0: rdata_o = mem[raddr_i]
// at once (asynchronous read: distributed RAM on an FPGA). SyncRd = 1: rdata_o holds the word at
// the raddr_i sampled at the last edge where re_i was high (it holds otherwise; a read and a
// write of the same address at one edge return the old word), the read port of a block RAM
// (ECP5 DP16KD, iCE40 SB_RAM40_4K), which the block RAM's own output latch holds; re_i is
// unused at SyncRd = 0. No reset (the buffer's pointers say what is valid). Black-boxed for
// area (synth/).
`default_nettype none
module mt_rt_ram #(
  parameter int Depth = 4,
  parameter int Width = 8,
  parameter int AddrW = mt_common_pkg::idx_w(Depth),
  parameter int SyncRd = 0
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);
  initial begin
    if (Depth < 1) $fatal(1, "mt_rt_ram: Depth=%0d must be >= 1", Depth);
    if (SyncRd != 0 && SyncRd != 1) $fatal(1, "mt_rt_ram: SyncRd=%0d must be 0 or 1", SyncRd);
  end
  if (SyncRd == 0) begin : g_async
    logic [Width-1:0] mem [Depth];
    always_ff @(posedge clk_i) begin
      if (we_i) mem[waddr_i] <= wdata_i;
    end
    assign rdata_o = mem[raddr_i];
    logic unused_re;
    assign unused_re = re_i;
  end else begin : g_sync
    // ram_style: a buffer of a few words is block RAM too (Yosys would pick LUT RAM for it)
    (* ram_style = "block" *) logic [Width-1:0] mem [Depth];
    logic [Width-1:0] rd_q;
    always_ff @(posedge clk_i) begin
      if (we_i) mem[waddr_i] <= wdata_i;
      // a read of the address written at the same edge is undefined: the owner never does it
      // (so Yosys needs no soft logic for the block RAM's read-during-write behaviour)
      if (re_i) rd_q <= (we_i && waddr_i == raddr_i) ? 'x : mem[raddr_i];
    end
    assign rdata_o = rd_q;
  end
endmodule
