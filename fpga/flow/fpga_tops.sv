// SPDX-License-Identifier: Apache-2.0
// fpga_tops.sv: place-and-route tops of the small blocks (make fpga, docs/reference/fpga.md).
// A block with combinational inputs or outputs has no register-to-register path of its own,
// and its ports outnumber a small package's pins; each top here puts the block between a
// scan chain of input flip-flops and a signature register of output flip-flops, so that
// three pins remain (clk_i, sin_i, sout_o), every input and output bit stays observable (no
// logic is optimised away) and nextpnr times the block's logic as register to register.
// The harness costs IW + OW flip-flops and about OW LUT4s (one XOR per signature bit).
`default_nettype none
/* verilator lint_off DECLFILENAME */  // one file of several tops

// fpga_harness: din_o is an IW-bit shift register fed by sin_i; dout_i is folded every cycle
// into an OW-bit multiple-input signature register whose top bit is sout_o.
module fpga_harness #(
  parameter int IW = 8,
  parameter int OW = 8
) (
  input  logic          clk_i,
  input  logic          sin_i,
  output logic          sout_o,
  output logic [IW-1:0] din_o,
  input  logic [OW-1:0] dout_i
);
  logic [IW-1:0] sh_q;
  logic [OW-1:0] sig_q;
  always_ff @(posedge clk_i) begin
    sh_q  <= (IW > 1) ? {sh_q[IW-2:0], sin_i} : IW'(sin_i);
    sig_q <= ((OW > 1) ? {sig_q[OW-2:0], 1'b0} : '0) ^ dout_i;
  end
  assign din_o  = sh_q;
  assign sout_o = sig_q[OW-1];
endmodule

// mt_fp32_add (combinational): two operands in, the sum out
module fpga_fp32_add (
  input  logic clk_i,
  input  logic sin_i,
  output logic sout_o
);
  logic [63:0] d;
  logic [31:0] q;
  fpga_harness #(.IW(64), .OW(32)) u_h (.clk_i, .sin_i, .sout_o, .din_o(d), .dout_i(q));
  mt_fp32_add u_add (.a_i(d[31:0]), .b_i(d[63:32]), .sum_o(q));
endmodule

// mt_reduce_alu: reset, valid, dtype and both operand vectors from the chain
module fpga_reduce_alu #(
  parameter int Lanes = 4,
  parameter int Pipe  = 0
) (
  input  logic clk_i,
  input  logic sin_i,
  output logic sout_o
);
  localparam int W = Lanes * 32;
  logic [2*W+2:0] d;
  logic [W:0]     q;
  fpga_harness #(.IW(2 * W + 3), .OW(W + 1)) u_h (.clk_i, .sin_i, .sout_o, .din_o(d), .dout_i(q));
  mt_reduce_alu #(.Lanes(Lanes), .Pipe(Pipe)) u_alu (
    .clk_i, .rst_ni(d[0]), .valid_i(d[1]), .dtype_i(d[2]),
    .a_i(d[3 +: W]), .b_i(d[3 + W +: W]), .valid_o(q[W]), .sum_o(q[W-1:0]));
endmodule

// mt_ni_table: the schedule table alone (one write port, port A and NB B read ports)
module fpga_ni_table #(
  parameter int Depth = 27,
  parameter int Width = 114,
  parameter int NB    = 1,
  localparam int AW   = mt_common_pkg::idx_w(Depth)
) (
  input  logic clk_i,
  input  logic sin_i,
  output logic sout_o
);
  localparam int IW = 1 + AW + Width + AW + NB * AW;
  localparam int OW = (1 + NB) * Width;
  logic [IW-1:0] d;
  logic [OW-1:0] q;
  fpga_harness #(.IW(IW), .OW(OW)) u_h (.clk_i, .sin_i, .sout_o, .din_o(d), .dout_i(q));
  mt_ni_table #(.Depth(Depth), .Width(Width), .NB(NB)) u_tab (
    .clk_i, .we_i(d[0]), .waddr_i(d[1 +: AW]), .wdata_i(d[1 + AW +: Width]),
    .ra_i(d[1 + AW + Width +: AW]), .rda_o(q[Width-1:0]),
    .rb_i(d[1 + 2 * AW + Width +: NB * AW]), .rdb_o(q[Width +: NB * Width]));
endmodule

// mt_ni_ram: the NI's 1R1W per-flow state RAM
module fpga_ni_ram #(
  parameter int Depth  = 16,
  parameter int Width  = 32,
  parameter int Bypass = 1,
  localparam int AW    = mt_common_pkg::idx_w(Depth)
) (
  input  logic clk_i,
  input  logic sin_i,
  output logic sout_o
);
  localparam int IW = 2 + 2 * AW + Width;
  logic [IW-1:0]    d;
  logic [Width-1:0] q;
  fpga_harness #(.IW(IW), .OW(Width)) u_h (.clk_i, .sin_i, .sout_o, .din_o(d), .dout_i(q));
  mt_ni_ram #(.Depth(Depth), .Width(Width), .Bypass(Bypass)) u_ram (
    .clk_i, .we_i(d[0]), .waddr_i(d[2 +: AW]), .wdata_i(d[2 + 2 * AW +: Width]),
    .re_i(d[1]), .raddr_i(d[2 + AW +: AW]), .rdata_o(q));
endmodule
