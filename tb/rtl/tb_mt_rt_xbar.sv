// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_xbar: random selections; invalid outputs are all zeros.
`timescale 1ns/1ps
module tb_mt_rt_xbar;
  localparam int N = 6, NP = 3, W = 12, IdxW = 3;
  logic [N*W-1:0] in;
  logic [NP*IdxW-1:0] sel;
  logic [NP-1:0] valid;
  logic [NP*W-1:0] out;
  mt_rt_xbar #(.N(N), .NP(NP), .W(W), .IdxW(IdxW)) dut (.in_i(in), .sel_i(sel), .valid_i(valid), .out_o(out));
  `define MT_TB_SEED 3
  `include "mt_tb.svh"
  initial begin
    for (int t = 0; t < 500; t++) begin
      for (int i = 0; i < N; i++) in[i*W +: W] = W'(xs());
      for (int o = 0; o < NP; o++) begin
        sel[o*IdxW +: IdxW] = IdxW'(xs() % N);
        valid[o] = xs() % 4 != 0;
      end
      #1;
      for (int o = 0; o < NP; o++) begin
        if (out[o*W +: W] == (valid[o] ? in[sel[o*IdxW +: IdxW]*W +: W] : '0)) n_pass++;
        else begin n_fail++; $display("FAIL out %0d", o); end
      end
    end
    $display("RESULT tb_mt_rt_xbar pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
