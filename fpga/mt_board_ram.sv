// SPDX-License-Identifier: Apache-2.0
// mt_board_ram: one node's gradient buffer on an FPGA board (fpga/mt_board.sv): Bytes bytes of
// 32-bit elements in Lanes banks of block RAM, element e in bank e % Lanes, row e / Lanes, so
// that a request at any 4-aligned byte address reads or writes its Lanes elements in one cycle
// (lane k = element addr/4 + k: the NI's memory port contract, docs/reference/ni.md "Memory port
// contract"). Always ready; a read is answered the cycle after its acceptance (latency 1, in
// order); a write takes effect at its acceptance edge, so a later read sees it. Bank b is
// initialised from "<InitPrefix><b>.hex" ($readmemh, one 32-bit element a line: the board's
// seeded gradients). The check port reads row chk_row_i of every bank (the elements
// Lanes*row .. Lanes*row+Lanes-1, element Lanes*row in lane 0) one cycle later, when chk_en_i
// is high; it must not be used while the NI has a request (the board's sequencer uses it after
// the all-reduce).
`default_nettype none

module mt_board_ram #(
  parameter int PayloadW   = 128,
  parameter int Bytes      = 4096,
  parameter     InitPrefix = "",
  localparam int Lanes     = PayloadW / 32,
  localparam int Rows      = Bytes / (4 * Lanes),
  localparam int RW        = mt_common_pkg::idx_w(Rows)
) (
  input  logic                clk_i,
  // the NI's memory port
  input  logic                req_valid_i,
  output logic                req_ready_o,
  input  logic                req_we_i,
  input  logic [31:0]         req_addr_i,
  input  logic [Lanes-1:0]    req_be_i,
  input  logic [PayloadW-1:0] req_wdata_i,
  output logic                rsp_valid_o,
  output logic [PayloadW-1:0] rsp_data_o,
  // the check port
  input  logic                chk_en_i,
  input  logic [RW-1:0]       chk_row_i,
  output logic [PayloadW-1:0] chk_data_o
);
  localparam int LB = $clog2(Lanes);
  initial begin
    if (PayloadW % 32 != 0 || Lanes < 2 || (1 << LB) != Lanes)
      $fatal(1, "mt_board_ram: PayloadW=%0d must be 32 times a power of two, at least 64", PayloadW);
    if (Bytes % (4 * Lanes) != 0 || Rows < 2)
      $fatal(1, "mt_board_ram: Bytes=%0d must be a multiple of %0d, at least two rows", Bytes, 4 * Lanes);
  end

  // the request's first element: its bank (lane 0's) and row
  logic [LB-1:0] e0_bank;
  logic [RW-1:0] e0_row;
  assign e0_bank = req_addr_i[2 +: LB];
  assign e0_row  = RW'(req_addr_i >> (2 + LB));
  assign req_ready_o = 1'b1;

  logic [LB-1:0]       rd_bank_q;  // lane 0's bank of the read being answered
  logic                rsp_q;
  logic [PayloadW-1:0] bank_q;     // every bank's read word, bank b at [32b +: 32]

  for (genvar b = 0; b < Lanes; b++) begin : g_bank
    // the lane bank b serves in this request, and its row (the next row for the banks before
    // lane 0's: their element wraps into it)
    logic [LB-1:0] k;
    logic [RW-1:0] row;
    logic          we;
    logic [RW-1:0] a;
    assign k   = LB'(b) - e0_bank;
    /* verilator lint_off CMPCONST */  // constant for bank 0
    assign row = e0_row + RW'(LB'(b) < e0_bank);
    /* verilator lint_on CMPCONST */
    assign we  = req_valid_i && req_we_i && req_be_i[k] && !chk_en_i;
    assign a   = chk_en_i ? chk_row_i : row;

    localparam logic [7:0] Digit = (b < 10) ? 8'(48 + b) : 8'(87 + b);  // b as a hex digit
    logic [31:0] mem [Rows];
    initial if (InitPrefix != "") $readmemh({InitPrefix, Digit, ".hex"}, mem);
    always_ff @(posedge clk_i) begin
      if (we) mem[a] <= req_wdata_i[32*k +: 32];
      bank_q[32*b +: 32] <= mem[a];
    end
  end

  always_ff @(posedge clk_i) begin
    rsp_q <= req_valid_i && !req_we_i && !chk_en_i;
    rd_bank_q <= e0_bank;
  end
  assign rsp_valid_o = rsp_q;
  // lane k of the response: the word of bank (lane 0's bank + k)
  for (genvar k = 0; k < Lanes; k++) begin : g_lane
    logic [LB-1:0] b;
    assign b = rd_bank_q + LB'(k);
    assign rsp_data_o[32*k +: 32] = bank_q[32*b +: 32];
  end
  assign chk_data_o = bank_q;
endmodule
