// SPDX-License-Identifier: Apache-2.0
// tb_mt_net_rom: a second root beside mt_net_top (iverilog -s mt_net_top -s tb_mt_net_rom, the
// net's parameters by -P, RomDir or +mt_rom_dir the ROM directory): drives its clock and reset
// and checks that nodes 0 and 3 (a 2x2 network) hold their images (+rom0=FILE, +rom3=FILE,
// read here by $readmemh too) in their NI's table after reset: every word equal and known.
// tb/rtlsim/test_rtl_sim.sh runs it; a missing image must stop the net's own loader ($fatal).
`timescale 1ns / 1ps
module tb_mt_net_rom;
  localparam int W = 256, DMAX = 1024;  // words: at most DMAX (the net's Depth)
  integer D;
  reg clk = 1'b0, rst_n = 1'b0;
  reg [W-1:0] img0 [0:DMAX-1];
  reg [W-1:0] img3 [0:DMAX-1];
  string f0, f3;
  integer bad = 0, k;
  initial begin
    force mt_net_top.clk_i = clk;
    force mt_net_top.rst_ni = rst_n;
    if (!$value$plusargs("rom0=%s", f0) || !$value$plusargs("rom3=%s", f3)) $fatal(1, "tb_mt_net_rom: +rom0=FILE +rom3=FILE");
    D = mt_net_top.Depth;
    if (D > DMAX) $fatal(1, "tb_mt_net_rom: Depth %0d > %0d", D, DMAX);
    for (k = 0; k < DMAX; k++) begin img0[k] = '0; img3[k] = '0; end
    $readmemh(f0, img0, 0, D - 1);
    $readmemh(f3, img3, 0, D - 1);
    #5 clk = 1'b1; #5 clk = 1'b0; rst_n = 1'b1;
    #5 clk = 1'b1; #5 clk = 1'b0;
    for (k = 0; k < D; k++) begin
      if (^mt_net_top.g_node[0].u_node.u_ni.u_table.mem[k] === 1'bx || W'(mt_net_top.g_node[0].u_node.u_ni.u_table.mem[k]) != img0[k]) begin
        $display("node 0 word %0d: table %h, image %h", k, mt_net_top.g_node[0].u_node.u_ni.u_table.mem[k], img0[k]);
        bad = bad + 1;
      end
      if (^mt_net_top.g_node[3].u_node.u_ni.u_table.mem[k] === 1'bx || W'(mt_net_top.g_node[3].u_node.u_ni.u_table.mem[k]) != img3[k]) begin
        $display("node 3 word %0d: table %h, image %h", k, mt_net_top.g_node[3].u_node.u_ni.u_table.mem[k], img3[k]);
        bad = bad + 1;
      end
    end
    if (bad == 0) $display("tb_mt_net_rom: pass (nodes 0 and 3: %0d words each equal to their images)", D);
    else $display("tb_mt_net_rom: FAIL, %0d words differ", bad);
    $finish;
  end
endmodule
