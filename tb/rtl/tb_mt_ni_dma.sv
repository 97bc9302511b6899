// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_dma: mt_ni_dma, one memory port (NR 3: requesters 0, 1 = packetisers, 2 = receive engine; PayloadW 128;
// TqDepth 5 = L*SQ + RQ with SQ 2, RQ 1) against hand-derived sequences and a scoreboard.
// Covers: round-robin arbitration after the last grant (all three requesting: grants 1, 2, 0,
// 1, 2, 0 from reset; a requester that is not requesting is skipped); a grant in the same
// cycle as the held request is accepted (one request per cycle with ready high); back-pressure
// (ready low: no grant while the register is full, valid and every field held; grant again at
// the accepting edge); fields 0 while valid is low; write data taken from rx_wdata_i at the
// grant edge, writes get no response; read responses routed in request order to their
// requester (rsp_tag_o), rsp_v_o only with a read outstanding; quiet_o; free_o; run_i low: no grant.
// Random phase: xorshift32 stalls on ready, on the requesters and on the response latency
// (in order), every requester reserving its response space (2, 2, 1 reads outstanding) as
// mt_ni does; scoreboard of granted -> accepted requests (addr/we/be/wdata) and of read tags;
// fairness: a requester holding its request sees at most NR-1 = 2 other grants before its own.
`timescale 1ns/1ps
module tb_mt_ni_dma;
  localparam int L = 2, PW = 128, LN = PW / 32, NR = L + 1, TQ = 5;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `define MT_TB_SEED 11
  `include "mt_tb.svh"

  logic run = 0, ready = 0, rsp_v = 0;
  logic [NR-1:0] req = '0, req_we = '0, gnt;
  logic [NR*32-1:0] req_addr = '0;
  logic [NR*LN-1:0] req_be = '0;
  logic [PW-1:0] wdata = '0;
  logic mvalid, mwe, rspo, quiet;
  logic [31:0] maddr;
  logic [LN-1:0] mbe;
  logic [PW-1:0] mwdata;
  logic [1:0] rtag;
  logic free;
  mt_ni_dma #(.NR(NR), .PayloadW(PW), .TqDepth(TQ)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .run_i(run),
    .req_i(req), .req_we_i(req_we), .req_addr_i(req_addr), .req_be_i(req_be),
    .req_wdata_i({wdata, {(NR - 1) * PW{1'b0}}}),  // only requester L (the engine) writes
    .gnt_o(gnt),
    .mem_req_valid_o(mvalid), .mem_req_ready_i(ready), .mem_req_we_o(mwe), .mem_req_addr_o(maddr),
    .mem_req_be_o(mbe), .mem_req_wdata_o(mwdata), .mem_rsp_valid_i(rsp_v),
    .rsp_v_o(rspo), .rsp_tag_o(rtag), .quiet_o(quiet), .free_o(free));

  // ---- scoreboard (sampled at every edge, before it) ----
  typedef struct packed { logic [1:0] id; logic we; logic [31:0] addr; logic [LN-1:0] be; logic [PW-1:0] d; } rq_t;
  logic [2+1+32+LN+PW-1:0] gq[$];                // granted, not yet accepted by the memory
  logic [1:0] mq[$];           // reads accepted, not yet answered (requester ids)
  int out_rd [0:NR-1];         // reads granted and not answered, per requester
  int others [0:NR-1];         // grants to others while requester i held its request
  int ngnt [0:NR-1];
  logic [1:0] glog[$];         // grant order
  logic pv = 0, pready = 0; logic [31:0] paddr; logic [LN-1:0] pbe; logic [PW-1:0] pd; logic pwe;
  int rsp_mode = 0;            // 0: answer the next cycle, 1: random latency (xorshift)
  initial for (int i = 0; i < NR; i++) begin out_rd[i] = 0; others[i] = 0; ngnt[i] = 0; end
  int rnd = 0;                 // 1: random requesters (phase 3), driven at the end of this block
  int left [0:NR-1];
  rq_t g, r;
  always @(posedge clk) if (rst_n) begin
    check("quiet = nothing held, no read outstanding", quiet == (!mvalid && mq.size() == 0));
    check("free = nothing held or accepted now", free == (!mvalid || ready));
    // grants: one-hot, only to a requester, only with run
    check("gnt one-hot", (gnt & (gnt - 1'b1)) == '0);
    check("gnt only to a requester", (gnt & ~req) == '0);
    check("no grant without run", run || gnt == '0);
    for (int i = 0; i < NR; i++) begin
      if (gnt[i]) begin
        g.id = 2'(i); g.we = req_we[i]; g.addr = req_addr[32*i +: 32]; g.be = req_be[LN*i +: LN];
        g.d = req_we[i] ? wdata : '0;
        gq.push_back(g);
        glog.push_back(2'(i));
        if (!req_we[i]) out_rd[i]++;
        others[i] = 0; ngnt[i]++;
      end else if (req[i] && gnt != '0) begin
        others[i]++;
        check($sformatf("fairness: requester %0d waits <= %0d grants", i, NR - 1), others[i] <= NR - 1);
      end
    end
    // memory port fields
    if (!mvalid) check("fields 0 while not valid", !mwe && maddr == 0 && mbe == 0 && mwdata == 0);
    if (pv && !pready) check("valid and fields held while not ready",
                             mvalid && maddr == paddr && mbe == pbe && mwdata == pd && mwe == pwe);
    if (mvalid && ready) begin
      if (gq.size() == 0) check("accepted request was granted", 0);
      else begin
        r = gq.pop_front();
        check($sformatf("accepted = granted (req %0d addr %h)", r.id, r.addr),
              maddr == r.addr && mwe == r.we && mbe == r.be && mwdata == r.d);
        if (!r.we) mq.push_back(r.id);
      end
    end
    // responses: in order, to the requester of the oldest read
    check("rsp_v_o follows a response with a read outstanding", rspo == rsp_v);
    if (rsp_v) begin
      logic [1:0] t;
      t = mq.pop_front();
      check($sformatf("response tag %0d (got %0d)", t, rtag), rtag == t);
      out_rd[t]--;
    end
    pv <= mvalid; pready <= ready; paddr <= maddr; pbe <= mbe; pd <= mwdata; pwe <= mwe;
    // memory response (in order); mq already reflects this edge's acceptance
    if (rsp_mode == 0) rsp_v <= (mq.size() > 0);
    else rsp_v <= (mq.size() > 0) && (xs() % 3 == 0);
    // ---- random requesters: hold a request until granted, reserve response space ----
    if (rnd) begin
    for (int i = 0; i < NR; i++) begin
      logic busy; int lim; logic w;
      busy = req[i] && !gnt[i];
      if (!busy) begin
        lim = (i == L) ? 1 : 2;
        w = (i == L) && (xs() % 2 == 0);
        if (left[i] > 0 && (xs() % 2 == 0) && (w || out_rd[i] < lim)) begin
          req[i] <= 1'b1; req_we[i] <= w;
          req_addr[32*i +: 32] <= {8'(i), 8'd0, 16'(left[i] << 4)};
          req_be[LN*i +: LN] <= LN'(xs() % 15 + 1);
          left[i] = left[i] - 1;
        end else req[i] <= 1'b0;
      end
    end
    wdata <= {xs(), xs(), xs(), xs()};
    ready <= (xs() % 3 != 0);
    end
  end

  int seen;
  initial begin : main
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    check("reset: quiet, no valid", quiet && !mvalid);
    // ---- run low: requests are not granted ----
    req = 3'b111; #1; check("run low: no grant", gnt == 0);
    // ---- round robin, ready high: requesters 0 and 1 read, 2 writes ----
    run = 1; ready = 1; req_we = 3'b100;
    req_addr = {32'h300, 32'h200, 32'h100}; req_be = {4'b0001, 4'b0011, 4'b1111};
    for (int c = 0; c < 6; c++) begin
      wdata = {4{32'(c)}};
      @(negedge clk);
    end
    check("6 grants, one per cycle", glog.size() == 6);
    if (glog.size() == 6)
      check($sformatf("grant order 1 2 0 1 2 0 (got %0d %0d %0d %0d %0d %0d)", glog[0], glog[1], glog[2],
                      glog[3], glog[4], glog[5]),
            glog[0] == 1 && glog[1] == 2 && glog[2] == 0 && glog[3] == 1 && glog[4] == 2 && glog[5] == 0);
    // skipping a requester that does not ask: only 1 and 2 -> 1, 2, 1, 2 (last grant was 0)
    glog.delete(); req = 3'b110;
    repeat (4) @(negedge clk);
    check("skip: grants 1 2 1 2", glog.size() == 4 && glog[0] == 1 && glog[1] == 2 && glog[2] == 1 && glog[3] == 2);
    req = 3'b000;
    repeat (4) @(negedge clk);
    check("drained: quiet", quiet && gq.size() == 0 && mq.size() == 0);
    // ---- back-pressure: ready low ----
    glog.delete(); ready = 0; req = 3'b011; req_we = 3'b000;
    @(negedge clk);
    check("first grant loads the register (requester 0, after 2)", glog.size() == 1 && glog[0] == 0 && mvalid);
    check("held request fields", maddr == 32'h100 && mbe == 4'b1111 && !mwe);
    repeat (5) @(negedge clk);
    check("ready low: no further grant", glog.size() == 1 && gnt == 0 && mvalid && maddr == 32'h100);
    ready = 1; #1;
    check("ready high: grant at the accepting edge", gnt == 3'b010);
    @(negedge clk); req = 3'b001; ready = 0;
    check("next request in the register", mvalid && maddr == 32'h200 && mbe == 4'b0011);
    @(negedge clk);
    check("not quiet: reads outstanding / held", !quiet);
    ready = 1; #1; check("held request of 0 granted as 1 is accepted", gnt == 3'b001);
    @(negedge clk); req = 0;
    repeat (6) @(negedge clk);
    check("back-pressure: 3 grants 0 1 0", glog.size() == 3 && glog[1] == 1 && glog[2] == 0);
    check("quiet again", quiet);
    // ---- random: stalls on ready, requesters and response latency ----
    for (int i = 0; i < NR; i++) begin left[i] = 60; ngnt[i] = 0; end
    rsp_mode = 1; rnd = 1;
    seen = 0;
    while (seen < 2000 && (left[0] + left[1] + left[2] > 0 || req != 0)) begin @(negedge clk); seen++; end
    rnd = 0; req = 0; ready = 1;
    repeat (40) @(negedge clk);
    check($sformatf("random: every request granted (%0d %0d %0d)", ngnt[0], ngnt[1], ngnt[2]),
          ngnt[0] == 60 && ngnt[1] == 60 && ngnt[2] == 60);
    check("random: all accepted and answered, quiet", gq.size() == 0 && mq.size() == 0 && quiet);
    check("random: no read outstanding", out_rd[0] == 0 && out_rd[1] == 0 && out_rd[2] == 0);
    $display("RESULT tb_mt_ni_dma pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
