// SPDX-License-Identifier: Apache-2.0
// top: the ULX3S board (LFE5U-85F, CABGA381; pins in ulx3s.lpf) running one MultiTree all-reduce
// on a 2x2 torus of complete nodes (fpga/mt_board.sv). The design's clock: the board's 25 MHz
// oscillator, or with BOARD_PLL defined (fpga/ulx3s/build.sh, BOARD_MHZ) the output of an
// EHXPLLL that ecppll configured (board_pll, generated beside the images), since the 2x2 does not
// meet 25 MHz; the power-on reset holds until the PLL locks. The schedule
// tables, gradients and expected checksums are block RAM and LUT contents from the images of
// fpga/board_images.py; board_params.svh (generated beside them, found through the include
// path) sets mt_board's parameters. The all-reduce starts 16 cycles after configuration (and lock); FIRE1
// (btn[1]) held resets the board, and its release starts the all-reduce again on the buffers
// as they are (already reduced: the check then fails; reconfigure to run from the images).
// LEDs: 0 pass, 1 fail, 2 running, 3 checking, 4..7 node 0..3's result equal to the reference.
`default_nettype none

module top (
  input  wire       clk_25mhz,
  input  wire [6:0] btn,
  output wire [7:0] led
);
  logic clk, locked;
`ifdef BOARD_PLL
  board_pll u_pll (.clkin(clk_25mhz), .clkout0(clk), .locked(locked));
`else
  assign clk    = clk_25mhz;
  assign locked = 1'b1;
`endif

  // power-on reset: the counter starts at 0 in the configured device
  logic [4:0] por_q = 5'd0;
  always_ff @(posedge clk) begin
    if (btn[1] || !locked) por_q <= 5'd0;
    else if (!por_q[4]) por_q <= por_q + 5'd1;
  end

  logic       pass, fail, running, checking;
  logic [3:0] node_ok;
  logic [2:0]  cause  /*verilator public_flat_rd*/;  // read by the simulation (tb/fpga/board_sim.cpp)
  logic [31:0] cycles /*verilator public_flat_rd*/;
  mt_board #(
`include "board_params.svh"
  ) u_board (
    .clk_i     (clk),
    .rst_ni    (por_q[4]),
    .running_o (running),
    .checking_o(checking),
    .pass_o    (pass),
    .fail_o    (fail),
    .node_ok_o (node_ok),
    .cause_o   (cause),
    .cycles_o  (cycles)
  );
  assign led = {node_ok, checking, running, fail, pass};

  logic unused;
  assign unused = ^{btn[6:2], btn[0], cause, cycles};
endmodule
