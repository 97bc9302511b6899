// SPDX-License-Identifier: Apache-2.0
// tb_mt_credit_counter: random legal take/give against a reference count (Icarus, self-checking).
`timescale 1ns/1ps
module tb_mt_credit_counter;
  localparam int Depth = 5;
  localparam int CntW = 3;
  logic clk = 0, rst_n = 0, take = 0, give = 0;
  logic [CntW-1:0] cnt;
  logic avail;
  int ref_cnt = Depth, outst = 0;
  mt_credit_counter #(.Depth(Depth), .CntW(CntW)) dut (.clk_i(clk), .rst_ni(rst_n), .take_i(take),
    .give_i(give), .cnt_o(cnt), .avail_o(avail));
  always #5 clk = ~clk;
  `define MT_TB_SEED 1
  `include "mt_tb.svh"
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    #12 rst_n = 1;
    check("reset value", cnt == CntW'(Depth) && avail);
    for (int t = 0; t < 3000; t++) begin
      @(negedge clk);
      take = (xs() % 3 != 0) && (ref_cnt > 0);
      give = (xs() % 3 != 0) && (outst > 0);
      @(posedge clk); #1;
      ref_cnt = ref_cnt - int'(take) + int'(give);
      outst = outst + int'(take) - int'(give);
      check("count", cnt == CntW'(ref_cnt));
      check("avail", avail == (ref_cnt != 0));
    end
    $display("RESULT tb_mt_credit_counter pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
