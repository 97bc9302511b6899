// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_counters: mt_ni_lockstep and mt_ni_timestep against hand-derived sequences.
`timescale 1ns/1ps
module tb_mt_ni_counters;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `include "mt_tb.svh"

  logic clr = 0, load = 0, set1 = 0, inc = 0;
  logic [7:0] val = 0, cnt;
  logic zero;
  logic [15:0] ts;
  mt_ni_lockstep #(.W(8)) u_lock (.clk_i(clk), .rst_ni(rst_n), .clear_i(clr), .load_i(load), .val_i(val), .cnt_o(cnt), .zero_o(zero));
  mt_ni_timestep #(.W(16)) u_ts (.clk_i(clk), .rst_ni(rst_n), .clear_i(clr), .set1_i(set1), .inc_i(inc), .ts_o(ts));

  initial begin : main
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk); check("reset: lock 0", cnt == 0 && zero); check("reset: ts 0", ts == 0);
    // load 3: 3, 2, 1, 0, 0 (never underflows)
    load = 1; val = 3; @(negedge clk); load = 0;
    check("load 3", cnt == 3 && !zero);
    @(negedge clk); check("2", cnt == 2);
    @(negedge clk); check("1", cnt == 1);
    @(negedge clk); check("0", cnt == 0 && zero);
    repeat (3) @(negedge clk); check("stays 0", cnt == 0 && zero);
    // clear wins over load
    load = 1; clr = 1; val = 9; @(negedge clk); load = 0; clr = 0;
    check("clear over load", cnt == 0);
    load = 1; val = 200; @(negedge clk); load = 0;
    repeat (50) @(negedge clk); check("200 - 50", cnt == 150);
    clr = 1; @(negedge clk); clr = 0; check("clear", cnt == 0);
    // timestep: set1, inc x3, clear
    set1 = 1; @(negedge clk); set1 = 0; check("set1", ts == 1);
    inc = 1; repeat (3) @(negedge clk); inc = 0; check("inc x3", ts == 4);
    set1 = 1; inc = 1; @(negedge clk); set1 = 0; inc = 0; check("set1 over inc", ts == 1);
    clr = 1; set1 = 1; @(negedge clk); clr = 0; set1 = 0; check("clear over set1", ts == 0);
    $display("RESULT tb_mt_ni_counters pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
