// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_depktz: mt_ni_depktz (L 2, NumVcs 2: 4 ejection streams; PayloadW 128; RQ 2;
// MaxFlows 4; Children 2; int32) with bench models of the ejection FIFOs, the per-flow
// dependency state (mt_ni_deps behaviour: rxb accumulates len, cnt+1 / grx at the chunk size),
// table port B (registered read) and the memory port (grant and response stalls).
// Expectations are hand-derived from docs/reference/ni.md "Receive path" and docs/reference/interfaces.md.
// Covers:
//  - a Reduce message split in sub-packets (72 B = 5 flits, types Head Body Sub-Tail Body
//    Sub-Tail Tail, last flit 2 lanes): acc + incoming written back, bytes past len untouched;
//  - the reduction order: the message of Child 1 arrives first and waits in its FIFO (look
//    not due, back to IDLE) until Child 0's is done; both summed; done_o fields;
//  - a Gather in packet mode: two 32-B packets (Head Body Tail, normal class), each a unit
//    (done_o with len 32, size 64), data written as received, grx after the second;
//  - every framing / look-up error code the module raises (err_o, docs/reference/ni.md table):
//    9 RX_FRAME: front not a head in IDLE; Head inside a message; wrong class (normal
//      Body in a message); Tail missing (Body as last flit); Tail too early;
//    6 RX_FLOW: flow >= nflows; op 0; no Reduce entry for the flow; Gather for a flow rooted here;
//    7 RX_SRC: Reduce from a node not among the Children; from a Children slot past nchild;
//      Gather from a node that is not the Parent;
//    8 RX_RANGE: addr below the chunk; addr + len past its end; len not a multiple of 4; len 0.
// Random stalls (xorshift32): flits reach the FIFOs with random gaps, memory grants and read
// responses (in order, any latency) are random. Every pop is from a non-empty FIFO; every
// flit pushed is popped once.
`timescale 1ns/1ps
module tb_mt_ni_depktz;
  localparam int PW = 128, FW = PW + 3 + 1, S = 4, LN = 4;
  // flit types (docs/reference/interfaces.md Table II)
  localparam logic [2:0] THead = 3'd0, TBody = 3'd1, TSub = 3'd2, TTail = 3'd3,
                         TNHead = 3'd4, TNBody = 3'd5, TNTail = 3'd6;
  // error codes (docs/reference/ni.md)
  localparam logic [3:0] ERxFlow = 4'd6, ERxSrc = 4'd7, ERxRange = 4'd8, ERxFrame = 4'd9;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `define MT_TB_SEED 5
  `include "mt_tb.svh"

  logic clr = 0, run = 0;
  logic [11:0] nflows = 12'd2;
  logic [S-1:0] nonempty, nonempty_nx, nonempty_nxp;
  logic [FW-1:0] front;  // front of FIFO sel (bench model)
  logic [1:0] sel, pop_s;
  logic pop;
  logic [11:0] b_flow;
  logic b_rv, b_gv, b_root, b_grx;
  logic [3:0] b_ridx, b_gidx, b_cnt, rb;
  logic [23:0] eb_cnode;
  logic [3:0] eb_nchild;
  logic [11:0] eb_pnode;
  logic [31:0] eb_addr, eb_size;
  logic done; logic [11:0] done_flow; logic [1:0] done_op; logic [31:0] done_len, done_size;
  logic req, req_we, gnt, rsp = 0; logic [31:0] req_addr; logic [LN-1:0] req_be;
  logic [PW-1:0] req_wdata, rsp_data = '0;
  // the engine's read and write requests as the one shared port sees them (mt_ni_mports, M = 1:
  // the write first)
  logic rd, wr; logic [31:0] rd_addr, wr_addr; logic [LN-1:0] rd_be, wr_be;
  assign req      = rd || wr;
  assign req_we   = wr;
  assign req_addr = wr ? wr_addr : rd_addr;
  assign req_be   = wr ? wr_be : rd_be;
  logic [3:0] err; logic look_go, idle;
  mt_ni_depktz #(.L(2), .NumVcs(2), .PayloadW(PW), .RQ(2), .MaxFlows(4), .TIW(4), .CntW(4), .Children(2)) u_dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(clr), .run_i(run), .dtype_i(1'b0), .nflows_i(nflows),
    .nonempty_i(nonempty), .nonempty_nx_i(nonempty_nx), .nonempty_nxp_i(nonempty_nxp), .front_i(front), .sel_o(sel), .pop_o(pop), .pop_s_o(pop_s),
    .b_flow_o(b_flow), .b_rv_i(b_rv), .b_ridx_i(b_ridx), .b_gv_i(b_gv), .b_gidx_i(b_gidx),
    .b_root_i(b_root), .b_cnt_i(b_cnt), .b_grx_i(b_grx),
    .rb_o(rb), .eb_cnode_i(eb_cnode), .eb_nchild_i(eb_nchild), .eb_pnode_i(eb_pnode),
    .eb_addr_i(eb_addr), .eb_size_i(eb_size),
    .dreq_o(), .dgnt_i(1'b1), .done_o(done), .done_flow_o(done_flow), .done_op_o(done_op), .done_len_o(done_len), .done_size_o(done_size),
    .rd_o(rd), .rd_addr_o(rd_addr), .rd_be_o(rd_be), .gnt_rd_i(gnt && !wr),
    .wr_o(wr), .wr_addr_o(wr_addr), .wr_be_o(wr_be), .wr_data_o(req_wdata), .gnt_wr_i(gnt && wr),
    .wfree_i(1'b1), .rsp_i(rsp), .rsp_data_i(rsp_data),
    .err_o(err), .look_go_o(look_go), .idle_o(idle));

  // ---- ejection FIFOs: staged flits enter with random gaps ----
  logic [FW-1:0] fmem [0:S-1][0:63];
  int fhd [0:S-1], ftl [0:S-1], fstg [0:S-1];  // FIFO = [fhd, fstg), staged = [fstg, ftl)
  int npop [0:S-1];
  logic gaps = 1'b1;
  logic [S-1:0] stg_go = '1;   // a staged flit of FIFO s enters at the next edge (drawn after each)
  logic [S*FW-1:0] fronts;     // front flit of every FIFO (upd_fifo after every change)
  assign front = fronts[FW*sel +: FW];
  task automatic upd_fifo;
    for (int s = 0; s < S; s++) begin
      nonempty[s] = (fstg[s] != fhd[s]);
      // after the next edge, without and with a pop of s at it (the engine picks a cycle ahead)
      nonempty_nx[s]  = nonempty[s] || (stg_go[s] && fstg[s] != ftl[s]);
      nonempty_nxp[s] = (fstg[s] - fhd[s] >= 2) || (stg_go[s] && fstg[s] != ftl[s]);
      fronts[FW*s +: FW] = fmem[s][fhd[s] % 64];
    end
  endtask
  task automatic put(input int s, input logic [2:0] ty, input logic [PW-1:0] pl);
    fmem[s][ftl[s] % 64] = {s[0], ty, pl}; ftl[s]++; upd_fifo;
  endtask

  // ---- dependency state (flows 0..3) and table port B (16 entries) ----
  logic rv [0:3], gv [0:3], root [0:3], grx [0:3];
  logic [3:0] ridx [0:3], gidx [0:3], cnt [0:3];
  int rxb [0:3];
  logic [23:0] t_cnode [0:15]; logic [3:0] t_nchild [0:15]; logic [11:0] t_pnode [0:15];
  logic [31:0] t_addr [0:15], t_size [0:15];
  logic [3:0] rbr = '0;
  assign b_rv = rv[b_flow[1:0]]; assign b_ridx = ridx[b_flow[1:0]]; assign b_gv = gv[b_flow[1:0]];
  assign b_gidx = gidx[b_flow[1:0]]; assign b_root = root[b_flow[1:0]]; assign b_cnt = cnt[b_flow[1:0]];
  assign b_grx = grx[b_flow[1:0]];
  assign eb_cnode = t_cnode[rbr]; assign eb_nchild = t_nchild[rbr]; assign eb_pnode = t_pnode[rbr];
  assign eb_addr = t_addr[rbr]; assign eb_size = t_size[rbr];

  // ---- memory: 128 words; grants and in-order responses with random stalls ----
  logic [31:0] mem [0:127];
  logic [PW-1:0] rdq[$];
  logic gok = 1'b1;
  assign gnt = req && gok;
  int ndone = 0, ngo = 0, nrd = 0;
  logic [1:0] go_s [0:15];
  logic [11:0] dflow [0:15]; logic [1:0] dop [0:15]; logic [31:0] dlen [0:15], dsize [0:15];
  logic [3:0] first_err = 4'd0;
  always @(posedge clk) if (rst_n) begin
    logic [PW-1:0] d;
    rbr <= rb;
    if (pop) begin
      check($sformatf("pop from a non-empty FIFO %0d", pop_s), nonempty[pop_s]);
      fhd[pop_s]++; npop[pop_s]++;
    end
    for (int s = 0; s < S; s++) if (fstg[s] != ftl[s] && stg_go[s]) fstg[s]++;
    for (int s = 0; s < S; s++) stg_go[s] = !gaps || xs() % 3 != 0;
    upd_fifo;
    if (look_go) begin go_s[ngo % 16] = sel; ngo++; end
    if (err != 0 && first_err == 0) first_err = err;
    if (gnt && req_we) begin
      for (int k = 0; k < LN; k++) if (req_be[k]) mem[(req_addr / 4 + k) % 128] = req_wdata[32*k +: 32];
    end else if (gnt) begin
      for (int k = 0; k < LN; k++) d[32*k +: 32] = mem[(req_addr / 4 + k) % 128];
      rdq.push_back(d); nrd++;
    end
    if (done) begin
      dflow[ndone % 16] = done_flow; dop[ndone % 16] = done_op; dlen[ndone % 16] = done_len;
      dsize[ndone % 16] = done_size; ndone++;
      rxb[done_flow[1:0]] += done_len;
      if (rxb[done_flow[1:0]] == done_size) begin
        rxb[done_flow[1:0]] = 0;
        if (done_op == 2'd1) cnt[done_flow[1:0]]++; else grx[done_flow[1:0]] = 1'b1;
      end
    end
    gok <= !gaps || (xs() % 4 != 0);
    if (rdq.size() > 0 && (!gaps || xs() % 2 == 0)) begin rsp <= 1'b1; rsp_data <= rdq.pop_front(); end
    else rsp <= 1'b0;
  end

  // ---- message builder ----
  function automatic [PW-1:0] headp(input [11:0] src, input [11:0] flow, input [1:0] op, input last,
                                    input [31:0] addr, input [31:0] len);
    headp = {len, addr, 16'd2, 1'b0, last, op, flow, 4'd0, 4'd1, src, 12'd3};
  endfunction
  function automatic [PW-1:0] datap(input int base, input int j, input [31:0] len);
    for (int k = 0; k < LN; k++) datap[32*k +: 32] = (16 * j + 4 * k < len) ? 32'(base + 4 * j + k) : 32'd0;
  endfunction
  // message mode, sub-packets of 2 flits: Head, then Body / Sub-Tail, Tail last
  task automatic put_msg(input int s, input [11:0] src, input [11:0] flow, input [1:0] op,
                         input [31:0] addr, input [31:0] len, input int base);
    int n; n = (len + 15) / 16;
    put(s, THead, headp(src, flow, op, 1'b1, addr, len));
    for (int j = 0; j < n; j++) put(s, (j == n - 1) ? TTail : ((j + 1) % 2 == 0) ? TSub : TBody, datap(base, j, len));
  endtask
  // packet mode: normal Head, Body, Tail at the end
  task automatic put_pkt(input int s, input [11:0] src, input [11:0] flow, input [1:0] op,
                         input [31:0] addr, input [31:0] len, input int base, input last);
    int n; n = (len + 15) / 16;
    put(s, TNHead, headp(src, flow, op, last, addr, len));
    for (int j = 0; j < n; j++) put(s, (j == n - 1) ? TNTail : TNBody, datap(base, j, len));
  endtask
  task automatic reset_state;
    for (int s = 0; s < S; s++) begin fhd[s] = 0; ftl[s] = 0; fstg[s] = 0; npop[s] = 0; end
    upd_fifo;
    for (int f = 0; f < 4; f++) begin
      rv[f] = 0; gv[f] = 0; root[f] = 0; grx[f] = 0; ridx[f] = 0; gidx[f] = 0; cnt[f] = 0; rxb[f] = 0;
    end
    // flow 0: Reduce entry 1, Children 5, 6, Parent 9, chunk 0x40 + 72
    rv[0] = 1; ridx[0] = 4'd1;
    t_cnode[1] = {12'd6, 12'd5}; t_nchild[1] = 4'd2; t_pnode[1] = 12'd9; t_addr[1] = 32'h40; t_size[1] = 32'd72;
    // flow 1: Reduce entry 2 (Child 7, Parent 9), Gather entry 3 with Parent 9, chunk 0x100 + 64
    rv[1] = 1; ridx[1] = 4'd2; gv[1] = 1; gidx[1] = 4'd3;
    t_cnode[2] = {12'd0, 12'd7}; t_nchild[2] = 4'd1; t_pnode[2] = 12'd9; t_addr[2] = 32'h100; t_size[2] = 32'd64;
    t_cnode[3] = {12'd0, 12'd0}; t_nchild[3] = 4'd0; t_pnode[3] = 12'd9; t_addr[3] = 32'h100; t_size[3] = 32'd64;
    // the bench empties its FIFOs at once, which mt_ni_ejbuf's never do (they change only at
    // edges): one edge (run low) lets the engine's pick, made a cycle ahead, see them empty
    @(negedge clk);
  endtask
  task automatic wait_quiet(input int max);
    int c; c = 0;
    while (c < max && !(idle && rdq.size() == 0 && !rsp)) begin @(negedge clk); c++; end
  endtask
  // one error case: flits already in the FIFOs; the first err_o must be `code`
  task automatic expect_err(input string what, input logic [3:0] code);
    first_err = 0; run = 1;
    for (int c = 0; c < 40 && first_err == 0; c++) @(negedge clk);
    check($sformatf("%s: error %0d (got %0d)", what, code, first_err), first_err == code);
    run = 0;
    for (int c = 0; c < 20 && (rdq.size() != 0 || rsp); c++) @(negedge clk);
    clr = 1; @(negedge clk); clr = 0;
    reset_state();
  endtask

  int w0 [0:31];
  logic ok;
  initial begin : main
    for (int i = 0; i < 128; i++) mem[i] = 32'(1000 * i);
    reset_state();
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    check("reset: idle, no request, no error", idle && !req && !pop && err == 0);
    // ---- A: reduction order; message of Child 1 (node 6) first, on stream 2 ----
    put_msg(2, 12'd6, 12'd0, 2'd1, 32'h40, 32'd72, 2000);
    run = 1;
    repeat (30) @(negedge clk);
    check("A: Child 1 not due: no look-up admitted, nothing written", ngo == 0 && ndone == 0 && npop[2] == 0);
    check("A: no error while waiting", first_err == 0);
    put_msg(1, 12'd5, 12'd0, 2'd1, 32'h40, 32'd72, 100);
    for (int c = 0; c < 400 && ndone < 2; c++) @(negedge clk);
    wait_quiet(50);
    check("A: two messages done", ndone == 2);
    check("A: Child 0 (stream 1) admitted before Child 1 (stream 2)", ngo == 2 && go_s[0] == 1 && go_s[1] == 2);
    check("A: done fields", dflow[0] == 0 && dop[0] == 1 && dlen[0] == 72 && dsize[0] == 72 &&
                            dflow[1] == 0 && dop[1] == 1 && dlen[1] == 72 && dsize[1] == 72);
    check("A: cnt 2", cnt[0] == 2);
    check("A: every flit popped (6 + 6)", npop[1] == 6 && npop[2] == 6 && fhd[1] == ftl[1] && fhd[2] == ftl[2]);
    ok = 1;
    for (int i = 0; i < 18; i++) ok &= (mem[16 + i] == 32'(1000 * (16 + i) + 100 + i + 2000 + i));
    check("A: chunk = acc + Child 0 + Child 1 (18 words)", ok);
    check("A: words past len untouched (last flit, 2 lanes)", mem[34] == 34000 && mem[35] == 35000);
    check("A: no error", first_err == 0);
    // ---- B: Gather of flow 1 in packet mode, two 32-B packets from the Parent (node 9) ----
    ndone = 0; ngo = 0;
    put_pkt(3, 12'd9, 12'd1, 2'd2, 32'h100, 32'd32, 500, 1'b0);
    put_pkt(3, 12'd9, 12'd1, 2'd2, 32'h120, 32'd32, 600, 1'b1);
    for (int c = 0; c < 200 && ndone < 2; c++) @(negedge clk);
    wait_quiet(50);
    check("B: two packets done", ndone == 2);
    check("B: done fields (len 32, size 64, op 2, flow 1)", dflow[0] == 1 && dop[0] == 2 && dlen[0] == 32 &&
          dsize[0] == 64 && dflow[1] == 1 && dlen[1] == 32 && dsize[1] == 64);
    check("B: grx after the second packet", grx[1]);
    ok = 1;
    for (int i = 0; i < 8; i++) ok &= (mem[64 + i] == 32'(500 + i)) && (mem[72 + i] == 32'(600 + i));
    check("B: gathered data written", ok);
    check("B: every flit popped (3 + 3)", npop[3] == 6 && fhd[3] == ftl[3]);
    check("B: no error", first_err == 0);
    // a second Gather of flow 1 is not due (grx set): it waits, no error
    put_pkt(0, 12'd9, 12'd1, 2'd2, 32'h100, 32'd32, 700, 1'b0);
    repeat (20) @(negedge clk);
    check("B: Gather already received waits", npop[0] == 0 && first_err == 0 && mem[64] == 500);
    run = 0; clr = 1; @(negedge clk); clr = 0; reset_state();

    // ---- C: errors (no stalls needed; gaps stay on) ----
    put(0, TBody, datap(0, 0, 16));
    expect_err("9 front not a head", ERxFrame);
    put(1, THead, headp(12'd5, 12'd0, 2'd1, 1'b1, 32'h40, 32'd32)); put(1, THead, headp(12'd5, 12'd0, 2'd1, 1'b1, 32'h40, 32'd32));
    expect_err("9 head inside a message", ERxFrame);
    put(1, THead, headp(12'd5, 12'd0, 2'd1, 1'b1, 32'h40, 32'd32)); put(1, TNBody, datap(0, 0, 32)); put(1, TNTail, datap(0, 1, 32));
    expect_err("9 normal flit in a message", ERxFrame);
    put(2, TNHead, headp(12'd9, 12'd1, 2'd2, 1'b1, 32'h100, 32'd32)); put(2, TNBody, datap(0, 0, 32)); put(2, TNBody, datap(0, 1, 32));
    expect_err("9 tail missing", ERxFrame);
    put(3, THead, headp(12'd5, 12'd0, 2'd1, 1'b1, 32'h40, 32'd48)); put(3, TBody, datap(0, 0, 48)); put(3, TTail, datap(0, 1, 48));
    put(3, TTail, datap(0, 2, 48));
    expect_err("9 tail too early", ERxFrame);
    put_msg(0, 12'd5, 12'd2, 2'd1, 32'h40, 32'd16, 0);
    expect_err("6 flow >= nflows", ERxFlow);
    put_msg(0, 12'd5, 12'd0, 2'd0, 32'h40, 32'd16, 0);
    expect_err("6 op 0", ERxFlow);
    rv[0] = 0; put_msg(0, 12'd5, 12'd0, 2'd1, 32'h40, 32'd16, 0);
    expect_err("6 no Reduce entry", ERxFlow);
    root[1] = 1; gv[1] = 0; put_msg(0, 12'd9, 12'd1, 2'd2, 32'h100, 32'd16, 0);
    expect_err("6 Gather for a flow rooted here", ERxFlow);
    put_msg(1, 12'd8, 12'd0, 2'd1, 32'h40, 32'd16, 0);
    expect_err("7 sender not a Child", ERxSrc);
    put_msg(1, 12'd0, 12'd1, 2'd1, 32'h100, 32'd16, 0);
    expect_err("7 sender in a Children slot past nchild", ERxSrc);
    put_msg(1, 12'd7, 12'd1, 2'd2, 32'h100, 32'd16, 0);
    expect_err("7 Gather not from the Parent", ERxSrc);
    put_msg(2, 12'd5, 12'd0, 2'd1, 32'h3c, 32'd16, 0);
    expect_err("8 addr below the chunk", ERxRange);
    put_msg(2, 12'd5, 12'd0, 2'd1, 32'h80, 32'd12, 0);
    expect_err("8 past the chunk end", ERxRange);
    put_msg(2, 12'd5, 12'd0, 2'd1, 32'h40, 32'd18, 0);
    expect_err("8 len not a multiple of 4", ERxRange);
    put(2, THead, headp(12'd5, 12'd0, 2'd1, 1'b1, 32'h40, 32'd0));
    expect_err("8 len 0", ERxRange);
    // boundary: a message ending exactly at the chunk end is accepted (no error)
    put_msg(2, 12'd5, 12'd0, 2'd1, 32'h84, 32'd4, 0);
    first_err = 0; run = 1; ndone = 0;
    for (int c = 0; c < 60 && ndone == 0; c++) @(negedge clk);
    check("8 boundary: addr + len == chunk end accepted", ndone == 1 && first_err == 0);
    $display("RESULT tb_mt_ni_depktz pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
