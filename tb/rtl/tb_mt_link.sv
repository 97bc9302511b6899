// SPDX-License-Identifier: Apache-2.0
// tb_mt_link: Lat = 1 is a wire, Lat = 4 delays by 3 edges; zeros after reset.
`timescale 1ns/1ps
module tb_mt_link;
  logic clk = 0, rst_n = 0;
  logic [7:0] d = 0, q1, q4;
  logic [7:0] hist [0:7];
  mt_link #(.Width(8), .Lat(1)) u1 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q1));
  mt_link #(.Width(8), .Lat(4)) u4 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q4));
  always #5 clk = ~clk;
  `include "mt_tb.svh"
  initial begin
    for (int i = 0; i < 8; i++) hist[i] = 0;
    #12 rst_n = 1;
    check("reset zeros", q4 == 0);
    for (int t = 1; t < 60; t++) begin
      @(negedge clk);
      d = 8'(t * 7 + 1);
      #1 check("wire", q1 == d);
      @(posedge clk); #1;
      for (int i = 7; i > 0; i--) hist[i] = hist[i-1];
      hist[0] = d;
      // after this edge q4 holds the value driven 2 edges earlier than the last one
      check("lat4", q4 == hist[2]);
    end
    $display("RESULT tb_mt_link pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
