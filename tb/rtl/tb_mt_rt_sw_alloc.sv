// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_sw_alloc: round-robin order, hold until the unit ends, step priority.
`timescale 1ns/1ps
module tb_mt_rt_sw_alloc;
  localparam int N = 5;
  logic clk = 0, rst_n = 0;
  logic [N-1:0] req = 0, go = 0, last = 0;
  logic [N*16-1:0] prio = 0;
  logic gnt, gnt_p, held, held_p;
  logic [2:0] idx, idx_p, holder, holder_p;
  int n_pass = 0, n_fail = 0;
  mt_rt_sw_alloc #(.N(N), .StepPrio(0), .IdxW(3)) rr (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .go_i(go),
    .last_i(last), .prio_i(prio), .gnt_o(gnt), .idx_o(idx), .held_o(held), .holder_o(holder));
  mt_rt_sw_alloc #(.N(N), .StepPrio(1), .IdxW(3)) pr (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .go_i(go),
    .last_i(last), .prio_i(prio), .gnt_o(gnt_p), .idx_o(idx_p), .held_o(held_p), .holder_o(holder_p));
  always #5 clk = ~clk;
  task automatic check(input string what, input bit ok);
    if (ok) n_pass++; else begin n_fail++; $display("FAIL %s t=%0t gnt %0d idx %0d held %0d", what, $time, gnt, idx, held); end
  endtask
  initial begin
    #12 rst_n = 1;
    // all request single-flit units: RR order 0,1,2,3,4,0
    @(negedge clk); req = 5'b11111; last = 5'b11111;
    for (int k = 0; k < 6; k++) begin
      #1 check("rr order", gnt && idx == 3'(k % N));
      @(negedge clk);
    end
    // input 2 starts a 3-flit unit: holds the output; others wait
    req = 5'b00100; last = 5'b00000; go = 5'b11111;
    #1 check("grant 2", gnt && idx == 2);
    @(negedge clk); req = 5'b11011;
    #1 check("held by 2", held && holder == 2 && gnt && idx == 2);
    @(negedge clk); go = 5'b11011;
    #1 check("holder stalls: no grant", !gnt);
    @(negedge clk); go = 5'b11111; last = 5'b00100;
    #1 check("holder ends unit", gnt && idx == 2);
    @(negedge clk); last = 5'b11111;
    #1 check("released, RR after 2 -> 3", !held && gnt && idx == 3);
    // step priority: lowest step wins, RR among equals
    @(negedge clk); req = 5'b10110; prio = {16'd3, 16'd9, 16'd3, 16'd5, 16'd0};
    #1 check("prio picks a step-3 requester", gnt_p && (idx_p == 2 || idx_p == 4));
    $display("RESULT tb_mt_rt_sw_alloc pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
