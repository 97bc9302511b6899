// SPDX-License-Identifier: Apache-2.0
// mt_rt_vc_buffer: FIFO of one input VC of the router (Depth flits without the VC field).
// Contract: push_i writes data_i unless the FIFO is full before the edge (then the flit is
// dropped and ovf_o pulses: an upstream credit bug); pop_i (only while !empty_o) removes
// data_o, the front flit, which is visible combinationally. Push and pop in one cycle are fine.
// FrontReg = 1 (mt_router Pipe = 1): the same FIFO, with the same cycles, whose front flit comes
// from a register (a copy of the front slot): the memory is read at the slot after the front
// (a registered address), and that read, or a flit written into an empty buffer (or one that
// the pop leaves empty), is loaded into the register at the edge; pop_i only selects.
// BufRam = 1: the same FIFO, with the same cycles, in a block RAM (docs/reference/router.md
// "VC buffers in block RAM"): the memory's synchronous read port (mt_rt_ram SyncRd = 1) reads
// the slot after the front at a pop that leaves a flit in the memory, and its read register,
// which the block RAM holds, is the front; a flit written into an empty buffer (or one that the
// pop leaves empty) goes into a bypass register instead, and a select register says which of
// the two is the front. The read register is not muxed into (Yosys merges it into the block
// RAM's read port); the front passes one 2:1 multiplexer. Excludes FrontReg = 1.
`default_nettype none
module mt_rt_vc_buffer #(
  parameter int Depth = 4,
  parameter int Width = 8,
  parameter int FrontReg = 0,
  parameter int BufRam = 0
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  input  logic             pop_i,
  output logic [Width-1:0] data_o,
  output logic             empty_o,
  output logic             ovf_o
);
  localparam int AddrW = mt_common_pkg::idx_w(Depth);
  localparam int CntW = $clog2(Depth + 1);
  initial begin
    if (Depth < 1) $fatal(1, "mt_rt_vc_buffer: Depth=%0d must be >= 1", Depth);
    if (FrontReg != 0 && FrontReg != 1) $fatal(1, "mt_rt_vc_buffer: FrontReg=%0d must be 0 or 1", FrontReg);
    if (BufRam != 0 && BufRam != 1) $fatal(1, "mt_rt_vc_buffer: BufRam=%0d must be 0 or 1", BufRam);
    if (BufRam != 0 && FrontReg != 0) $fatal(1, "mt_rt_vc_buffer: BufRam=1 has its own front register (FrontReg=%0d must be 0)", FrontReg);
  end

  logic [AddrW-1:0] rd_q, wr_q, raddr;
  logic [CntW-1:0] cnt_q;
  logic [Width-1:0] rdata;
  logic full, we, re, ren;

  assign full    = (cnt_q == CntW'(Depth));
  assign empty_o = (cnt_q == '0);
  assign we      = push_i && !full;
  assign re      = pop_i && !empty_o;
  assign ovf_o   = push_i && full;

  // next state inside the clocked block: the Verilated model evaluates it at the clock edge
  // only, not at every evaluation in which push_i (fed by a port) might have changed
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q <= '0;
      wr_q <= '0;
      cnt_q <= '0;
    end else begin
      if (re) rd_q <= (rd_q == AddrW'(Depth - 1)) ? '0 : rd_q + 1'b1;
      if (we) wr_q <= (wr_q == AddrW'(Depth - 1)) ? '0 : wr_q + 1'b1;
      if (we && !re) cnt_q <= cnt_q + 1'b1;
      else if (re && !we) cnt_q <= cnt_q - 1'b1;
    end
  end

  // rd1_q (FrontReg = 1, BufRam = 1): the slot after the front (rd_q + 1 mod Depth)
  logic [AddrW-1:0] rd1_q;
  if (FrontReg != 0 || BufRam != 0) begin : g_rd1
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rd1_q <= AddrW'((Depth > 1) ? 1 : 0);
      else if (re) rd1_q <= (rd1_q == AddrW'(Depth - 1)) ? '0 : rd1_q + 1'b1;
    end
  end else begin : g_nord1
    assign rd1_q = '0;
  end
  // a flit written now is the front after the edge: into an empty buffer or one the pop empties
  logic wfront;
  assign wfront = we && (empty_o || (re && cnt_q == CntW'(1)));

  if (BufRam != 0) begin : g_bram
    // the read at a pop that leaves a flit in the memory (re: cnt_q >= 1; cnt_q >= 2: the slot
    // after the front was written at an earlier edge, never the one written now)
    logic byp_sel_q;
    logic [Width-1:0] byp_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) byp_sel_q <= 1'b0;
      else if (ren) byp_sel_q <= 1'b0;
      else if (wfront) byp_sel_q <= 1'b1;
    end
    // no reset: the count says whether it holds a flit
    always_ff @(posedge clk_i) begin
      if (wfront) byp_q <= data_i;
    end
    assign ren = re && cnt_q != CntW'(1);
    assign raddr = rd1_q;
    assign data_o = byp_sel_q ? byp_q : rdata;
  end else if (FrontReg == 0) begin : g_async
    assign ren = 1'b0;
    assign raddr = rd_q;
    assign data_o = rdata;
    logic unused_async;
    assign unused_async = ^{rd1_q, wfront};
  end else begin : g_front
    logic [Width-1:0] front_q;
    // no reset: the count says whether it holds a flit
    always_ff @(posedge clk_i) begin
      if (re && cnt_q != CntW'(1)) front_q <= rdata;  // the next flit (re: cnt_q >= 1) is in the memory
      else if (wfront) front_q <= data_i;  // written now
    end
    assign ren = 1'b0;
    assign raddr = rd1_q;
    assign data_o = front_q;
  end

  mt_rt_ram #(.Depth(Depth), .Width(Width), .AddrW(AddrW), .SyncRd(BufRam)) u_ram (
    .clk_i,
    .we_i   (we),
    .waddr_i(wr_q),
    .wdata_i(data_i),
    .re_i   (ren),
    .raddr_i(raddr),
    .rdata_o(rdata)
  );
endmodule
