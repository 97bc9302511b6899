// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_deps: mt_ni_deps (MaxFlows 4, TIW 6, CntW 4) against hand-derived sequences.
// Covers: reset/clear; scan of a Reduce entry (rv, ridx, root = no parent) and of Gather
// entries (only the first with a parent is kept: gv, gidx); rdone; received messages and
// packets (rxb accumulates len until it equals size, then cnt+1 for a Reduce or grx for a
// Gather, rxb back to 0); flow indices >= MaxFlows alias flow 0; all_gathers over nflows;
// both read ports (ridx, gidx, root, gv, cnt and grx of port B and cnt, grx, rdone of port A
// are RAM reads: the word of the flow at the last edge, 0 for a flow without a Reduce entry).
`timescale 1ns/1ps
module tb_mt_ni_deps;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `include "mt_tb.svh"

  logic clr = 0, scan = 0, pv = 0, rdone = 0, done = 0;
  logic [11:0] nflows = 2, sflow = 0, rflow = 0, dflow = 0, aflow = 0, bflow = 0;
  logic [1:0] sop = 0, dop = 0;
  logic [5:0] sidx = 0;
  logic [31:0] dlen = 0, dsize = 0;
  logic a_rv, a_grx, a_rdone, b_rv, b_gv, b_root, b_grx, allg, dgnt;
  logic [3:0] a_cnt, b_cnt;
  logic [5:0] b_ridx, b_gidx;
  mt_ni_deps #(.MaxFlows(4), .TIW(6), .CntW(4)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(clr), .nflows_i(nflows),
    .scan_i(scan), .scan_flow_i(sflow), .scan_op_i(sop), .scan_pv_i(pv), .scan_idx_i(sidx),
    .rdone_i(rdone), .rdone_flow_i(rflow),
    .done_i(done), .done_flow_i(dflow), .done_op_i(dop), .done_len_i(dlen), .done_size_i(dsize),
    .dreq_i(done), .dgnt_o(dgnt),
    .a_flow_i(aflow), .a_rflow_i(aflow), .a_rv_o(a_rv), .a_cnt_o(a_cnt), .a_grx_o(a_grx), .a_rdone_o(a_rdone),
    .b_flow_i(bflow), .b_rv_o(b_rv), .b_ridx_o(b_ridx), .b_gv_o(b_gv), .b_gidx_o(b_gidx), .b_root_o(b_root),
    .b_cnt_o(b_cnt), .b_grx_o(b_grx), .all_gathers_o(allg));

  task automatic do_scan(input int f, input int op, input bit p, input int idx);
    scan = 1; sflow = 12'(f); sop = 2'(op); pv = p; sidx = 6'(idx); @(negedge clk); scan = 0;
  endtask
  // an engine's done: its port-B flow is the done's flow from the edge before (the rxb RAM's
  // read), and the one engine is granted at once
  task automatic do_done(input int f, input int op, input int len, input int size);
    bflow = 12'(f); @(negedge clk);
    done = 1; dflow = 12'(f); dop = 2'(op); dlen = 32'(len); dsize = 32'(size); #1;
    check("done granted", dgnt);
    @(negedge clk); done = 0;
  endtask

  initial begin : main
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    check("reset: empty", !a_rv && a_cnt == 0 && !a_grx && !a_rdone && !b_gv && !b_root);
    check("reset: no gathers", !allg);
    // flow 0: Reduce with parent at idx 3; flow 1: root Reduce at idx 5
    do_scan(0, 1, 1, 3); do_scan(1, 1, 0, 5);
    bflow = 0; @(negedge clk); check("flow0 rv/ridx", b_rv && b_ridx == 3 && !b_root);
    bflow = 1; #1; check("flow1 ridx, root a cycle later", b_rv && b_ridx == 3 && !b_root);
    @(negedge clk); check("flow1 root", b_rv && b_ridx == 5 && b_root);
    // Gathers of flow 0: idx 7 without parent (ignored), idx 8 with parent (kept), idx 9 (not first)
    do_scan(0, 2, 0, 7); bflow = 0; #1; check("gather without parent ignored", !b_gv);
    do_scan(0, 2, 1, 8); do_scan(0, 2, 1, 9); @(negedge clk); check("first gather with parent kept", b_gv && b_gidx == 8);
    // a NOP scanned: nothing
    do_scan(2, 0, 1, 11); bflow = 2; #1; check("nop ignored", !b_rv && !b_gv);
    // flow 1 is root, flow 0 has no Gather received yet: not all gathers
    check("all_gathers: flow 0 missing", !allg);
    // Reduce message of flow 0 in packets 100 + 100 + 56 of size 256: cnt + 1 at the last
    do_done(0, 1, 100, 256); aflow = 0; #1; check("partial: cnt 0", a_cnt == 0);
    do_done(0, 1, 100, 256); #1; check("partial 2: cnt 0", a_cnt == 0);
    do_done(0, 1, 56, 256); #1; check("complete: cnt 1", a_cnt == 1);
    do_done(0, 1, 256, 256); #1; check("second child whole: cnt 2", a_cnt == 2);
    // Gather of flow 0 received whole: grx, all gathers (flow 1 root)
    do_done(0, 2, 64, 64); #1; check("gather: grx", a_grx); check("all_gathers", allg);
    // port B's cnt and grx are RAM copies read at every edge: the done's write at the edge
    // reaches the read of the same edge (bypass); a flow without a Reduce entry reads 0
    check("port B: cnt 2, grx at the done's edge", b_cnt == 2 && b_grx);
    bflow = 2; @(negedge clk); check("port B: no Reduce entry reads 0", b_cnt == 0 && !b_grx);
    // nflows 3: flow 2 neither root nor received
    nflows = 3; #1; check("nflows 3: flow 2 missing", !allg); nflows = 2;
    // rdone of flow 1; flow 5 (>= MaxFlows) aliases flow 0
    rdone = 1; rflow = 1; @(negedge clk); rdone = 0;
    // port A's cnt, grx, rdone are RAM reads at a_rflow_i: the word of the flow at the last edge
    aflow = 1; #1; check("port A: the flow of the last edge", !a_rdone && a_rv);
    @(negedge clk); check("rdone flow 1", a_rdone);
    aflow = 0; @(negedge clk); check("rdone flow 0 untouched", !a_rdone);
    do_done(5, 1, 8, 8); aflow = 0; #1; check("flow 5 aliases flow 0", a_cnt == 3);
    bflow = 6; @(negedge clk); check("port B alias", b_cnt == 3 && b_ridx == 3);
    // clear wins over everything
    clr = 1; scan = 1; sflow = 3; sop = 1; @(negedge clk); clr = 0; scan = 0;
    aflow = 0; bflow = 3; #1; check("clear", !a_rv && a_cnt == 0 && !a_grx && !b_rv && !allg);
    $display("RESULT tb_mt_ni_deps pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
