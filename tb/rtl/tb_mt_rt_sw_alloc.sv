// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_sw_alloc: round-robin order, hold until the unit ends, step priority.
// Two allocators see the same inputs: rr (StepPrio=0) and pr (StepPrio=1).
//  1. directed round-robin and hold (rr);
//  2. directed step priority (pr): requests of different steps compete for the output in one
//     cycle, each with the round-robin pointer placed so that plain round-robin picks the
//     smaller step and so that it picks a larger one; the expected winners are derived by hand
//     below, and rr's (round-robin) answer is checked too, so every case that is meant to
//     discriminate does (a case where both agree is marked "agree");
//  3. random: 10,000 cycles of random req/go/last/prio against a reference model of the
//     contract (ref_* below), both instances, every output; at least 1,000 of those cycles
//     must be ones where priority changes pr's winner (else the case proves nothing).
// +expect_fail (make t-router-tb-sw-alloc-mutants): the allocator is a mutant; the bench passes
// only if both the directed step-priority checks and the random checks failed.
`timescale 1ns/1ps
module tb_mt_rt_sw_alloc;
  localparam int N = 5;
  localparam int RandCycles = 10000, MinDecisive = 1000;
  logic clk = 0, rst_n = 0;
  logic [N-1:0] req = 0, go = 0, last = 0;
  logic [N*16-1:0] prio = 0;
  logic gnt, gnt_p, held, held_p;
  logic [2:0] idx, idx_p, holder, holder_p;
  `include "mt_tb.svh"
  mt_rt_sw_alloc #(.N(N), .StepPrio(0), .IdxW(3)) rr (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .go_i(go),
    .last_i(last), .prio_i(prio), .gnt_o(gnt), .idx_o(idx), .held_o(held), .holder_o(holder));
  mt_rt_sw_alloc #(.N(N), .StepPrio(1), .IdxW(3)) pr (.clk_i(clk), .rst_ni(rst_n), .req_i(req), .go_i(go),
    .last_i(last), .prio_i(prio), .gnt_o(gnt_p), .idx_o(idx_p), .held_o(held_p), .holder_o(holder_p));
  always #5 clk = ~clk;

  // ---- reference model of the contract (docs/reference/router.md "Arbitration") ----
  // winner among req (only the smallest prio if sp) in order ptr+1, ..., N-1, 0, ..., ptr; -1: none
  function automatic int ref_win(input logic [N-1:0] r, input logic [N*16-1:0] p, input int ptr, input bit sp);
    int unsigned m;
    m = 32'h10000;
    for (int i = 0; i < N; i++) if (r[i] && p[i*16 +: 16] < m) m = p[i*16 +: 16];
    ref_win = -1;
    for (int k = 1; k <= N; k++) begin
      int i;
      i = (ptr + k) % N;
      if (ref_win < 0 && r[i] && (!sp || p[i*16 +: 16] == m)) ref_win = i;
    end
  endfunction
  // one allocator's state: pointer (reset N-1: input 0 first), hold flag, holder
  int ref_ptr [0:1], ref_holder [0:1];
  bit ref_held [0:1];
  int decisive = 0;
  // compare instance sp (0 rr, 1 pr) with the model for the inputs now applied, then advance it
  task automatic ref_cycle(input int sp);
    bit eg, ok;
    int ei, w;  // (failure text formatted only on a failure: the random case makes 40,000 checks)
    logic g, h;
    logic [2:0] x, hd;
    g = sp ? gnt_p : gnt;
    x = sp ? idx_p : idx;
    h = sp ? held_p : held;
    hd = sp ? holder_p : holder;
    ok = h == ref_held[sp] && (!h || hd == 3'(ref_holder[sp]));
    check(ok ? "" : $sformatf("random: %s held %0d holder %0d (model %0d %0d)", sp ? "pr" : "rr", h, hd, ref_held[sp],
                              ref_holder[sp]), ok);
    if (ref_held[sp]) begin
      eg = go[ref_holder[sp]];
      ei = ref_holder[sp];
    end else begin
      w = ref_win(req, prio, ref_ptr[sp], sp[0]);
      eg = w >= 0;
      ei = eg ? w : 0;
      if (sp && w != ref_win(req, prio, ref_ptr[sp], 1'b0)) decisive++;
    end
    ok = g == eg && (!eg || x == 3'(ei));
    check(ok ? "" : $sformatf("random: %s req %b prio %h ptr %0d: gnt %0d idx %0d, model %0d %0d", sp ? "pr" : "rr", req,
                              prio, ref_ptr[sp], g, x, eg, ei), ok);
    if (eg) begin
      if (!ref_held[sp]) ref_ptr[sp] = ei;
      ref_held[sp] = !last[ei];
      ref_holder[sp] = ei;
    end
  endtask

  // ---- directed step-priority helpers ----
  // place both pointers at k: input k alone sends a one-flit unit (both instances grant it)
  task automatic set_ptr(input int k);
    @(negedge clk);
    req = N'(1) << k; go = '1; last = '1; prio = '0;
    #1 check($sformatf("set pointer to %0d", k), gnt && gnt_p && idx == 3'(k) && idx_p == 3'(k) && !held && !held_p);
  endtask
  // apply req/prio (one-flit units, all go) and check pr's winner exp_p and rr's exp_r
  task automatic compete(input string what, input logic [N-1:0] r, input logic [N*16-1:0] p, input int exp_p,
                         input int exp_r);
    @(negedge clk);
    req = r; prio = p; go = '1; last = '1;
    #1 check($sformatf("prio %s: pr gnt %0d idx %0d, expected %0d", what, gnt_p, idx_p, exp_p), gnt_p && idx_p == 3'(exp_p));
    check($sformatf("prio %s: rr gnt %0d idx %0d, expected %0d", what, gnt, idx, exp_r), gnt && idx == 3'(exp_r));
  endtask
  // prio vector from the steps of inputs 4..0
  function automatic logic [N*16-1:0] st(input int s4, input int s3, input int s2, input int s1, input int s0);
    st = {16'(s4), 16'(s3), 16'(s2), 16'(s1), 16'(s0)};
  endfunction

  bit expect_fail;
  int f_dir, f_rand;
  initial begin
    expect_fail = $test$plusargs("expect_fail");
    #12 rst_n = 1;
    // ---- 1. round-robin and hold (rr) ----
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

    // ---- 2. step priority (pr), expected winners by hand ----
    // Order after pointer p: p+1, ..., 4, 0, ..., p. pr takes the first of that order among the
    // requesters of the smallest step; rr the first requester.
    f_dir = n_fail;
    // (a) two steps: inputs 1 (step 2) and 3 (step 7)
    //   p=0: order 1,2,3,4,0 -> rr 1; pr: only 1 has step 2 -> 1 (agree)
    set_ptr(0);
    compete("a p=0 (agree)", 5'b01010, st(0, 7, 0, 2, 0), 1, 1);
    //   p=1: order 2,3,4,0,1 -> rr 3 (step 7); pr 1
    set_ptr(1);
    compete("a p=1", 5'b01010, st(0, 7, 0, 2, 0), 1, 3);
    // (b) three steps: 0 (step 9), 2 (step 4), 4 (step 1); pr always 4
    //   p=4: order 0,1,2,3,4 -> rr 0 (step 9)
    set_ptr(4);
    compete("b p=4", 5'b10101, st(1, 0, 4, 0, 9), 4, 0);
    //   p=1: order 2,3,4,0,1 -> rr 2 (step 4)
    set_ptr(1);
    compete("b p=1", 5'b10101, st(1, 0, 4, 0, 9), 4, 2);
    //   p=3: order 4,0,1,2,3 -> rr 4 (agree)
    set_ptr(3);
    compete("b p=3 (agree)", 5'b10101, st(1, 0, 4, 0, 9), 4, 4);
    // (c) a tie on the smallest step is round-robin, not lowest index: 0 (step 3), 1 (step 6),
    // 3 (step 3)
    //   p=0: order 1,2,3,4,0 -> rr 1 (step 6); pr: 3 (first of {0,3})
    set_ptr(0);
    compete("c p=0", 5'b01011, st(0, 3, 0, 6, 3), 3, 1);
    //   same requests again: pointers now pr 3, rr 1. pr: order 4,0 -> 0; rr: order 2,3 -> 3
    compete("c again (pr pointer moved to 3)", 5'b01011, st(0, 3, 0, 6, 3), 0, 3);
    //   p=3: order 4,0,1,2,3 -> rr 0; pr 0 (agree)
    set_ptr(3);
    compete("c p=3 (agree)", 5'b01011, st(0, 3, 0, 6, 3), 0, 0);
    // (d) only requesters' steps count: 2 (step 5), 4 (step 6) request; 0 (step 0) and 3
    // (step 1) do not. p=2: order 3,4,0 -> rr 4 (step 6); pr: smallest requesting step 5 -> 2
    set_ptr(2);
    compete("d p=2 (non-requesters' steps ignored)", 5'b10100, st(6, 1, 5, 0, 0), 2, 4);
    // (e) steps are unsigned 16-bit: 1 (step 0x8000), 3 (step 0x0001). p=0: rr 1; pr 3
    set_ptr(0);
    compete("e p=0 (unsigned)", 5'b01010, st(0, 1, 0, 16'h8000, 0), 3, 1);
    //   1 (0xffff), 2 (0xfffe). p=2: order 3,4,0,1 -> rr 1 (0xffff); pr 2 (0xfffe)
    set_ptr(2);
    compete("e p=2 (0xfffe before 0xffff)", 5'b00110, st(0, 0, 16'hfffe, 16'hffff, 0), 2, 1);
    //   all at 0xffff: 0 and 3. p=0: order 1,2,3 -> 3 for both (agree)
    set_ptr(0);
    compete("e all 0xffff (agree)", 5'b01001, st(0, 16'hffff, 0, 0, 16'hffff), 3, 3);
    // (f) a unit in progress keeps the output against a smaller step; after it ends, priority
    // decides again with the pointer still at the holder
    set_ptr(0);
    @(negedge clk); req = 5'b00010; prio = st(0, 0, 0, 8, 0); last = '0;  // 1 (step 8) starts a unit
    #1 check("prio f: 1 starts a unit", gnt_p && idx_p == 1);
    @(negedge clk); req = 5'b01010; prio = st(0, 0, 0, 8, 0);  // 3 (step 0) now requests
    #1 check("prio f: held by 1 against step 0", held_p && holder_p == 1 && gnt_p && idx_p == 1);
    @(negedge clk); last = 5'b00010;  // 1 sends its last flit
    #1 check("prio f: 1 ends its unit", held_p && gnt_p && idx_p == 1);
    //   released, pointer 1: requesters 2 (step 5), 4 (step 2): order 2,3,4 -> rr 2; pr 4
    compete("f released, p=1", 5'b10100, st(2, 0, 5, 0, 0), 4, 2);
    f_dir = n_fail - f_dir;

    // ---- 3. random against the model ----
    @(negedge clk); req = '0; go = '0; last = '0;
    rst_n = 0;
    #1 rst_n = 1;
    for (int s = 0; s < 2; s++) begin
      ref_ptr[s] = N - 1;
      ref_held[s] = 0;
      ref_holder[s] = 0;
    end
    f_rand = n_fail;
    // (stops after 20 failures: enough to see what is wrong)
    for (int c = 0; c < RandCycles && n_fail - f_rand <= 20; c++) begin
      @(negedge clk);
      for (int i = 0; i < N; i++) begin
        req[i] = xs() % 2 == 0;
        go[i] = xs() % 5 != 0;
        last[i] = xs() % 2 == 0;
        // mostly small steps (ties and clear orders), sometimes any 16-bit value
        prio[i*16 +: 16] = xs() % 10 == 0 ? 16'(xs()) : 16'(xs() % 4);
      end
      #1 ref_cycle(0);
      ref_cycle(1);
    end
    f_rand = n_fail - f_rand;
    check($sformatf("random: %0d cycles where priority decides (need %0d)", decisive, MinDecisive),
          decisive >= MinDecisive || f_rand > 0);
    $display("tb_mt_rt_sw_alloc: directed priority failures %0d, random failures %0d, decisive cycles %0d", f_dir, f_rand,
             decisive);
    if (expect_fail) begin
      // a mutant allocator must be caught by both the directed and the random step-priority checks
      $display("RESULT tb_mt_rt_sw_alloc_mutant pass=%0d fail=%0d", f_dir > 0 && f_rand > 0, !(f_dir > 0 && f_rand > 0));
    end else $display("RESULT tb_mt_rt_sw_alloc pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
