// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_vc_buffer: random push/pop against a queue model; overflow when pushing into full.
// The three organisations in lockstep on the same inputs: the asynchronous read (FrontReg 0),
// the front register (FrontReg 1) and the block RAM (BufRam 1); each at Depth 3 and Depth 1.
`timescale 1ns/1ps
module tb_mt_rt_vc_buffer;
  localparam int NO = 3;  // organisations
  logic clk = 0, rst_n = 0, push = 0, pop3 = 0, pop1 = 0;
  int s3, s1;
  logic [15:0] din = 0;
  logic [15:0] q3 [$], q1 [$];
  logic [NO-1:0] empty3, ovf3, empty1, ovf1;
  logic [NO*16-1:0] dout3, dout1;
  for (genvar k = 0; k < NO; k++) begin : g_dut
    mt_rt_vc_buffer #(.Depth(3), .Width(16), .FrontReg(k == 1 ? 1 : 0), .BufRam(k == 2 ? 1 : 0)) d3 (
      .clk_i(clk), .rst_ni(rst_n), .push_i(push), .data_i(din), .pop_i(pop3),
      .data_o(dout3[k*16 +: 16]), .empty_o(empty3[k]), .ovf_o(ovf3[k]));
    mt_rt_vc_buffer #(.Depth(1), .Width(16), .FrontReg(k == 1 ? 1 : 0), .BufRam(k == 2 ? 1 : 0)) d1 (
      .clk_i(clk), .rst_ni(rst_n), .push_i(push), .data_i(din), .pop_i(pop1),
      .data_o(dout1[k*16 +: 16]), .empty_o(empty1[k]), .ovf_o(ovf1[k]));
  end
  always #5 clk = ~clk;
  `define MT_TB_SEED 7
  `include "mt_tb.svh"
  initial begin
    #12 rst_n = 1;
    for (int t = 0; t < 4000; t++) begin
      @(negedge clk);
      push = xs() % 2 == 0;
      pop3 = (xs() % 2 == 0) && q3.size() > 0;
      pop1 = (xs() % 2 == 0) && q1.size() > 0;
      din = 16'(xs());
      #1;
      for (int k = 0; k < NO; k++) begin
        check("empty", empty3[k] == (q3.size() == 0));
        if (q3.size() > 0) check("front", dout3[k*16 +: 16] == q3[0]);
        check("ovf", ovf3[k] == (push && q3.size() == 3));
        check("empty d1", empty1[k] == (q1.size() == 0));
        if (q1.size() > 0) check("front d1", dout1[k*16 +: 16] == q1[0]);
        check("ovf d1", ovf1[k] == (push && q1.size() == 1));
      end
      @(posedge clk); #1;
      // accepted iff not full before the edge
      s3 = q3.size();
      s1 = q1.size();
      if (push && s3 < 3) q3.push_back(din);
      if (push && s1 < 1) q1.push_back(din);
      if (pop3) q3.delete(0);
      if (pop1) q1.delete(0);
    end
    $display("RESULT tb_mt_rt_vc_buffer pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
