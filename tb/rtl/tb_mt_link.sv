// SPDX-License-Identifier: Apache-2.0
// tb_mt_link: Lat = 1 is a wire, Lat = n delays by n-1 edges (n = 2, 3, 4, 9: a register, and
// rings of 2, 3 and 8 words); zeros after reset until the delay line has filled.
`timescale 1ns/1ps
module tb_mt_link;
  logic clk = 0, rst_n = 0;
  logic [7:0] d = 0, q1, q2, q3, q4, q9;
  logic [7:0] hist [0:15];
  mt_link #(.Width(8), .Lat(1)) u1 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q1));
  mt_link #(.Width(8), .Lat(2)) u2 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q2));
  mt_link #(.Width(8), .Lat(3)) u3 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q3));
  mt_link #(.Width(8), .Lat(4)) u4 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q4));
  mt_link #(.Width(8), .Lat(9)) u9 (.clk_i(clk), .rst_ni(rst_n), .d_i(d), .q_o(q9));
  always #5 clk = ~clk;
  `include "mt_tb.svh"
  initial begin
    for (int i = 0; i < 16; i++) hist[i] = 0;
    d = 8'hA5;  // driven during reset: must not come out
    #12 rst_n = 1;
    d = 0;
    check("reset zeros", q2 == 0 && q3 == 0 && q4 == 0 && q9 == 0);
    for (int t = 1; t < 60; t++) begin
      @(negedge clk);
      d = 8'(t * 7 + 1);
      #1 check("wire", q1 == d);
      @(posedge clk); #1;
      for (int i = 15; i > 0; i--) hist[i] = hist[i-1];
      hist[0] = d;
      // after this edge q<n> holds the value driven n-2 edges earlier than the last one
      check("lat2", q2 == hist[0]);
      check("lat3", q3 == hist[1]);
      check("lat4", q4 == hist[2]);
      check("lat9", q9 == hist[7]);
    end
    $display("RESULT tb_mt_link pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
