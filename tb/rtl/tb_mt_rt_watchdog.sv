// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_watchdog: err rises after exactly `limit` consecutive stalled cycles; sticky; 0 = off.
`timescale 1ns/1ps
module tb_mt_rt_watchdog;
  logic clk = 0, rst_n = 0, stall = 0, err;
  logic [7:0] limit = 8'd5;
  mt_rt_watchdog #(.WdW(8)) dut (.clk_i(clk), .rst_ni(rst_n), .stall_i(stall), .limit_i(limit), .err_o(err));
  always #5 clk = ~clk;
  `include "mt_tb.svh"
  task automatic cyc(input bit s);
    @(negedge clk); stall = s; @(posedge clk); #1;
  endtask
  initial begin
    #12 rst_n = 1;
    // 4 stalls, a break, 4 stalls: never 5 in a row
    for (int i = 0; i < 4; i++) cyc(1);
    cyc(0);
    for (int i = 0; i < 4; i++) begin cyc(1); check("no err before limit", !err); end
    cyc(1);
    check("err at 5th consecutive stall", err);
    cyc(0);
    check("sticky", err);
    // limit 0: off
    rst_n = 0; #1 rst_n = 1; limit = 0;
    for (int i = 0; i < 300; i++) cyc(1);
    check("off when limit 0 (saturating counter)", !err);
    $display("RESULT tb_mt_rt_watchdog pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
