// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_issue: mt_ni_issue (with mt_ni_timestep, mt_ni_lockstep; L 2, NetPorts 2, PortW 2 so
// port 3 = routed, Children 2, Depth 16, MaxFlows 4, PayloadW 128) with a bench table (port A
// read registered at hp_d_o), bench dependency state and packetisers busy for a few cycles
// after each activation. Expectations hand-derived from docs/reference/ni.md "Start and scan", "Issue".
// Covers:
//  - start/scan/END: SCAN one entry per edge, RUN with timestep 1 after END;
//  - the exact edges of every issue and timestep advance of a 7-entry table (NOP, Reduce with
//    Parent, root Reduce, Gather without Parent with a normal and a routed child, Gather with
//    Parent, NOP, END): a NOP loads the lockstep counter with ceil(size/16) and nothing moves
//    until it is back to 0; an entry never issues before its step; the timestep advances only
//    with every packetiser idle; Reduce waits for cnt == nchild, a Gather for grx / rdone and
//    for its slot's packetiser (port p -> packetiser p mod L, routed -> lowest idle); one
//    gather child per edge, the entry retires with its last child; in-order issue; END -> FIN,
//    FIN -> DONE only once all gathers are in;
//  - start refused while the memory port is not quiet or with a table write;
//  - scan errors: step 0 and steps going backwards (2), flow >= nflows (3), port >= NetPorts
//    and eject >= L (4), size not a multiple of 4 and a second Reduce entry of a flow (1),
//    no END within Depth (5), with the head index; receive error passed through (9);
//    watchdog (11); no issue in ERR; restart after an error;
//  - random phase: 30 runs of the same table with xorshift32 packetiser busy times and
//    dependency arrival times, checking the invariants at every edge (issue only at the
//    entry's step, with the lockstep counter 0, in RUN, with its dependencies; activation of
//    an idle packetiser only, the right one; timestep +1 only with all packetisers idle) and
//    the in-order issue sequence.
`timescale 1ns/1ps
module tb_mt_ni_issue;
  localparam int L = 2, CH = 2, DEPTH = 16;
  // ops (docs/reference/ni.md): 0 NOP, 1 Reduce, 2 Gather, 3 END; states: 0 idle 1 scan 2 run 3 fin 4 done 5 err
  localparam logic [1:0] OpNop = 2'd0, OpRed = 2'd1, OpGat = 2'd2, OpEnd = 2'd3;
  localparam logic [2:0] SScan = 3'd1, SRun = 3'd2, SFin = 3'd3, SDone = 3'd4, SErr = 3'd5;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `define MT_TB_SEED 3
  `include "mt_tb.svh"

  // ---- table (registered read at hp_d_o) ----
  logic [1:0] t_op [0:DEPTH-1]; logic [11:0] t_flow [0:DEPTH-1]; logic [15:0] t_step [0:DEPTH-1];
  logic t_pv [0:DEPTH-1]; logic [3:0] t_pport [0:DEPTH-1], t_pej [0:DEPTH-1];
  logic [1:0] t_cv [0:DEPTH-1]; logic [7:0] t_cport [0:DEPTH-1]; logic [3:0] t_nchild [0:DEPTH-1];
  logic [31:0] t_size [0:DEPTH-1];
  logic [3:0] hp_d, hr = '0;
  task automatic ent(input int i, input logic [1:0] op, input int flow, input int step, input bit pv,
                     input int pport, input int pej, input logic [1:0] cv, input int cp0, input int cp1,
                     input int nchild, input int size);
    t_op[i] = op; t_flow[i] = 12'(flow); t_step[i] = 16'(step); t_pv[i] = pv; t_pport[i] = 4'(pport);
    t_pej[i] = 4'(pej); t_cv[i] = cv; t_cport[i] = {4'(cp1), 4'(cp0)}; t_nchild[i] = 4'(nchild);
    t_size[i] = 32'(size);
  endtask

  // ---- dependency state (bench), packetisers, others ----
  logic start = 0, tbl_we = 0, mem_quiet = 1, rx_idle = 1, allg = 0, ovf = 0;
  logic [3:0] rx_err = 0;
  logic [11:0] nflows = 12'd2;
  logic [31:0] wd_limit = 0;
  logic rv [0:3], rdone [0:3], grx [0:3]; logic [3:0] cnt [0:3];
  int bcnt [0:L-1] ;
  initial for (int l = 0; l < L; l++) bcnt[l] = 0;
  logic [L-1:0] tx_busy = '0;   // bcnt[l] != 0, updated with it

  logic [1:0] e_op; logic [11:0] e_flow; logic [15:0] e_step; logic e_pv;
  assign e_op = t_op[hr]; assign e_flow = t_flow[hr]; assign e_step = t_step[hr]; assign e_pv = t_pv[hr];
  logic clear, scan_rec, rdone_o, run_o, busy, done, err, issue;
  logic [3:0] scan_idx; logic [L-1:0] act; logic [11:0] act_node; logic [3:0] act_port, act_ej;
  logic act_routed; logic [2:0] st; logic [3:0] err_code; logic [15:0] err_idx, idx, step; logic [31:0] lock;
  mt_ni_issue #(.L(L), .NetPorts(2), .PortW(2), .Children(CH), .Depth(DEPTH), .MaxFlows(4), .PayloadW(128),
                .Compact(0), .WdW(8), .CntW(4)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .start_i(start), .tbl_we_i(tbl_we), .nflows_i(nflows), .wd_limit_i(wd_limit),
    .e_op_i(e_op), .e_flow_i(e_flow), .e_step_i(e_step), .e_pv_i(e_pv), .e_pnode_i(12'd9),
    .e_pport_i(t_pport[hr]), .e_pej_i(t_pej[hr]), .e_cv_i(t_cv[hr]), .e_cnode_i({12'd6, 12'd5}),
    .e_cport_i(t_cport[hr]), .e_cej_i(8'h10), .e_nchild_i(t_nchild[hr]), .e_gap_i(1'b0),
    .e_addr_i(32'h40), .e_size_i(t_size[hr]), .hp_d_o(hp_d),
    .a_rv_i(rv[e_flow[1:0]]), .a_cnt_i(cnt[e_flow[1:0]]), .a_grx_i(grx[e_flow[1:0]]),
    .a_rdone_i(rdone[e_flow[1:0]]), .all_gathers_i(allg),
    .clear_o(clear), .scan_rec_o(scan_rec), .scan_idx_o(scan_idx), .rdone_o(rdone_o),
    .tx_busy_i(tx_busy), .act_o(act), .act_node_o(act_node), .act_port_o(act_port), .act_ej_o(act_ej),
    .act_routed_o(act_routed), .rx_idle_i(rx_idle), .mem_quiet_i(mem_quiet), .rx_err_i(rx_err), .ovf_i(ovf),
    .prog_i(1'b0), .run_o(run_o), .st_o(st), .busy_o(busy), .done_o(done), .err_o(err),
    .err_code_o(err_code), .err_idx_o(err_idx), .idx_o(idx), .step_o(step), .issue_o(issue), .lock_o(lock));

  // ---- monitor and scripted dependencies (at every edge, values before it) ----
  int cyc = 0, mode = 0;       // mode 1: deterministic script, 2: random
  int t_cnt0, t_grx0, t_allg, bdur;
  int iss_c [$], adv_c [$], iss_idx [$], iss_act [$];
  int maxlock = 0, fin_c = -1, done_c = -1;
  always @(posedge clk) if (rst_n) begin
    logic [3:0] port; logic [L-1:0] want; logic found;
    cyc = clear ? 0 : cyc + 1;
    // invariants
    if (issue) begin
      check($sformatf("issue at its step (entry %0d step %0d, ts %0d)", idx, e_step, step), e_step == step);
      check("issue with the lockstep counter 0", lock == 0);
      check("issue only in RUN", st == SRun);
      if (e_op == OpRed) check("Reduce issues with cnt == nchild", cnt[e_flow[1:0]] == t_nchild[hr]);
      if (e_op == OpGat) check("Gather issues with its dependency", e_pv ? grx[e_flow[1:0]] : rdone[e_flow[1:0]]);
      iss_c.push_back(cyc); iss_idx.push_back(int'(idx)); iss_act.push_back(int'(act));
    end
    check("act only with an issue", act == 0 || issue);
    check("act one-hot, to an idle packetiser", (act & (act - 1'b1)) == 0 && (act & tx_busy) == 0);
    if (act != 0) begin
      port = act_port; want = '0; found = 0;
      if (port == 4'd3) begin
        for (int l = 0; l < L; l++) if (!tx_busy[l] && !found) begin want[l] = 1; found = 1; end
      end else want[port % L] = 1'b1;
      check($sformatf("act to packetiser of port %0d", port), act == want && act_routed == (port == 4'd3));
    end
    if (st == SRun && u_dut.ts != 0 && u_dut.u_ts.ts_d != step) begin
      check("timestep +1 only with every packetiser idle, towards the head's step",
            u_dut.u_ts.ts_d == step + 1 && tx_busy == 0 && e_step > step && lock == 0);
      adv_c.push_back(cyc);
    end
    if (lock > maxlock) maxlock = lock;
    if (u_dut.to_fin) fin_c = cyc;
    if (st == SFin && u_dut.fin_ok) done_c = cyc;
    // table read register, packetisers, dependencies
    hr <= hp_d;
    for (int l = 0; l < L; l++) begin
      bcnt[l] = act[l] ? bdur + (mode == 2 ? int'(xs() % 6) : 0) : (bcnt[l] > 0 ? bcnt[l] - 1 : 0);
      tx_busy[l] <= (bcnt[l] != 0);
    end
    if (clear) for (int f = 0; f < 4; f++) begin rv[f] = 0; rdone[f] = 0; end
    if (scan_rec && e_op == OpRed) rv[e_flow[1:0]] = 1;
    if (rdone_o) rdone[e_flow[1:0]] <= 1;
    if (mode != 0) begin
      if (cyc == t_cnt0) cnt[0] <= 1;
      if (cyc == t_grx0) grx[0] <= 1;
      if (cyc == t_allg) allg <= 1;
    end
  end

  task automatic table_main;
    for (int i = 0; i < DEPTH; i++) ent(i, OpNop, 0, 1, 0, 0, 0, 2'b00, 0, 0, 0, 16);
    ent(0, OpNop, 0, 1, 0, 0, 0, 2'b00, 0, 0, 0, 40);      // lockstep ceil(40/16) = 3
    ent(1, OpRed, 0, 2, 1, 1, 0, 2'b01, 0, 0, 1, 64);      // parent port 1 -> packetiser 1
    ent(2, OpRed, 1, 2, 0, 0, 0, 2'b01, 1, 0, 1, 64);      // root Reduce of flow 1
    ent(3, OpGat, 1, 3, 0, 0, 0, 2'b11, 0, 3, 2, 64);      // children port 0 and routed
    ent(4, OpGat, 0, 3, 1, 1, 0, 2'b01, 1, 0, 1, 64);      // Gather with Parent: waits for grx
    ent(5, OpNop, 0, 4, 0, 0, 0, 2'b00, 0, 0, 0, 16);      // lockstep 1
    ent(6, OpEnd, 0, 0, 0, 0, 0, 2'b00, 0, 0, 0, 0);
  endtask
  task automatic reset_deps;
    for (int f = 0; f < 4; f++) begin cnt[f] = 0; grx[f] = 0; end
    cnt[1] = 1; allg = 0;
    iss_c.delete(); adv_c.delete(); iss_idx.delete(); iss_act.delete(); maxlock = 0; fin_c = -1; done_c = -1;
  endtask
  task automatic do_start;
    start = 1; @(negedge clk); start = 0;
  endtask
  task automatic run_err(input string what, input int code, input int eidx);
    reset_deps; do_start;
    repeat (DEPTH + 4) @(negedge clk);
    check($sformatf("%s: error %0d at index %0d (got %0d at %0d)", what, code, eidx, err_code, err_idx),
          err && st == SErr && err_code == 4'(code) && err_idx == 16'(eidx));
  endtask

  // hand-derived (docs/reference/ni.md): edge of each issue after the start edge, its entry, act_o
  localparam logic [7*8-1:0] ExpIss = {8'd39, 8'd34, 8'd27, 8'd26, 8'd22, 8'd21, 8'd8};
  localparam logic [7*8-1:0] ExpIdx = {8'd5, 8'd4, 8'd3, 8'd3, 8'd2, 8'd1, 8'd0};
  localparam logic [7*8-1:0] ExpAct = {8'd0, 8'd2, 8'd2, 8'd1, 8'd0, 8'd2, 8'd0};
  logic ok;
  initial begin : main
    table_main; reset_deps; bdur = 3;
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    check("reset: idle", st == 0 && !busy && !done && !err);
    // ---- start refused: memory port not quiet, table write ----
    mem_quiet = 0; start = 1; #1; check("start refused while the memory port is busy", !clear);
    mem_quiet = 1; tbl_we = 1; #1; check("start refused with a table write", !clear);
    tbl_we = 0; start = 0;
    // ---- deterministic run (edges counted from the start edge 0): scan of entries 0..5 at
    // edges 1..6, END at 7 -> RUN ts 1; NOP issues at 8 (lockstep 3, 2, 1, 0 after 8..11);
    // ts 2 at 12; Reduce flow 0 waits for cnt (set at edge 20) -> 21 (packetiser 1 busy
    // after 21..23); root Reduce 22; ts 3 at 25 (packetiser 1 idle after 24); Gather children
    // at 26 (port 0 -> packetiser 0) and 27 (routed -> lowest idle = 1); Gather with Parent
    // waits for grx (set at edge 33) -> 34; ts 4 at 38 (packetiser 1 idle after 37); NOP 39
    // (lockstep 1); END -> FIN at 41; all gathers set at edge 44 -> DONE at 45.
    mode = 1; t_cnt0 = 20; t_grx0 = 33; t_allg = 44;
    do_start;
    check("SCAN after start", st == SScan && busy);
    repeat (5) @(negedge clk);
    check("scan: one entry per edge (index 5 after 5 edges)", st == SScan && idx == 5);
    @(negedge clk);
    check("scan: entry 5 (index 6: END next)", st == SScan && idx == 6);
    @(negedge clk);
    check("END (edge 7): RUN, timestep 1, head 0", st == SRun && step == 1 && idx == 0);
    repeat (60) @(negedge clk);
    check("DONE", st == SDone && done && !busy);
    ok = iss_c.size() == 7;
    for (int i = 0; i < 7 && ok; i++) ok = iss_c[i] == int'(ExpIss[8*i +: 8]) && iss_idx[i] == int'(ExpIdx[8*i +: 8]) && iss_act[i] == int'(ExpAct[8*i +: 8]);
    if (!ok) for (int i = 0; i < iss_c.size(); i++) $display("  issue %0d: edge %0d entry %0d act %0d", i, iss_c[i], iss_idx[i], iss_act[i]);
    check("issue edges 8 21 22 26 27 34 39, entries 0 1 2 3 3 4 5, packetisers -,1,-,0,1,1,-", ok);
    check($sformatf("timestep advances at edges 12 25 38 (%0d: %0d %0d %0d)", adv_c.size(),
          adv_c.size() > 0 ? adv_c[0] : -1, adv_c.size() > 1 ? adv_c[1] : -1, adv_c.size() > 2 ? adv_c[2] : -1),
          adv_c.size() == 3 && adv_c[0] == 12 && adv_c[1] == 25 && adv_c[2] == 38);
    check("lockstep loaded with ceil(40/16) = 3", maxlock == 3);
    check($sformatf("END -> FIN at edge 41 (%0d), FIN -> DONE at edge 45 (%0d)", fin_c, done_c), fin_c == 41 && done_c == 45);
    check("root Reduce completes: rdone flow 1", rdone[1] && !rdone[0]);
    // ---- errors ----
    mode = 0;
    table_main; t_step[0] = 0; run_err("step 0", 2, 0);
    table_main; t_step[0] = 2; t_step[1] = 1; run_err("step backwards", 2, 1);
    table_main; t_flow[2] = 2; run_err("flow >= nflows", 3, 2);
    table_main; t_pport[1] = 2; run_err("parent port >= NetPorts", 4, 1);
    table_main; t_cport[3] = 8'h02; run_err("child port >= NetPorts", 4, 3);
    table_main; t_pej[4] = 2; run_err("eject >= L", 4, 4);
    table_main; t_size[1] = 62; run_err("size not a multiple of 4", 1, 1);
    table_main; t_op[4] = OpRed; t_flow[4] = 1; t_pv[4] = 1; run_err("second Reduce entry of a flow", 1, 4);
    table_main; t_op[6] = OpNop; t_step[6] = 4; for (int i = 7; i < DEPTH; i++) t_step[i] = 4;
    run_err("no END within Depth", 5, DEPTH - 1);
    // receive error while waiting for a dependency; no issue afterwards
    table_main; reset_deps; do_start; repeat (12) @(negedge clk);
    check("waiting at entry 1", st == SRun && idx == 1);
    rx_err = 4'd9; @(negedge clk); rx_err = 0;
    check("receive error 9 kept with the head index", err && err_code == 9 && err_idx == 1);
    cnt[0] = 1; iss_c.delete(); repeat (10) @(negedge clk);
    check("no issue in ERR", iss_c.size() == 0 && st == SErr);
    // watchdog: nothing progresses for 5 cycles
    table_main; reset_deps; wd_limit = 5; do_start; repeat (30) @(negedge clk);
    check($sformatf("watchdog: error 11 (got %0d)", err_code), err && err_code == 11 && err_idx == 1);
    wd_limit = 0;
    // ---- random: packetiser busy times and dependency arrivals ----
    mode = 2;
    for (int r = 0; r < 30; r++) begin
      table_main; reset_deps; bdur = 1;
      t_cnt0 = 8 + xs() % 40; t_grx0 = 8 + xs() % 60; t_allg = 8 + xs() % 80;
      do_start;
      for (int c = 0; c < 200 && st != SDone && st != SErr; c++) @(negedge clk);
      ok = st == SDone && iss_idx.size() == 7;
      for (int i = 0; i < 7 && ok; i++) ok = iss_idx[i] == int'(ExpIdx[8*i +: 8]);
      check($sformatf("random run %0d: DONE, entries issued in order", r), ok);
      check($sformatf("random run %0d: Reduce after cnt, Gather after grx, DONE after all gathers", r),
            iss_c.size() == 7 && iss_c[1] > t_cnt0 && iss_c[5] > t_grx0 && done_c > t_allg);
    end
    $display("RESULT tb_mt_ni_issue pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
