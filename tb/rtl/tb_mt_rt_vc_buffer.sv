// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_vc_buffer: random push/pop against a queue model; overflow when pushing into full.
`timescale 1ns/1ps
module tb_mt_rt_vc_buffer;
  localparam int Depth = 3;
  logic clk = 0, rst_n = 0, push = 0, pop = 0, empty, ovf;
  logic [15:0] din = 0, dout;
  logic [15:0] q [$];
  mt_rt_vc_buffer #(.Depth(Depth), .Width(16)) dut (.clk_i(clk), .rst_ni(rst_n), .push_i(push),
    .data_i(din), .pop_i(pop), .data_o(dout), .empty_o(empty), .ovf_o(ovf));
  always #5 clk = ~clk;
  `define MT_TB_SEED 7
  `include "mt_tb.svh"
  initial begin
    #12 rst_n = 1;
    for (int t = 0; t < 4000; t++) begin
      @(negedge clk);
      push = xs() % 2 == 0;
      pop = (xs() % 2 == 0) && q.size() > 0;
      din = 16'(xs());
      #1;
      check("empty", empty == (q.size() == 0));
      if (q.size() > 0) check("front", dout == q[0]);
      check("ovf", ovf == (push && q.size() == Depth));
      @(posedge clk); #1;
      // accepted iff not full before the edge
      if (push && q.size() < Depth) q.push_back(din);
      if (pop) q.delete(0);
    end
    $display("RESULT tb_mt_rt_vc_buffer pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
