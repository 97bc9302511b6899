// SPDX-License-Identifier: Apache-2.0
// mt_ni_deps: per-flow dependency state of the issue logic, filled by the start-up scan of
// the table and cleared by received messages:
//   rv/ridx  the node's Reduce entry of the flow (sending or root) and its table index
//   gv/gidx  the first Gather entry of the flow with a Parent (the one that receives)
//   root     the node is the flow's root (its Reduce entry has no Parent)
//   cnt      Children of the Reduce entry aggregated so far (in Children order)
//   rxb      bytes of the current message (or packets of it) received so far
//   grx      the Parent's Gather received and written
//   rdone    the root Reduce entry completed
// Events (one edge each): clear_i (start) > scan_i (record one entry) | rdone_i | done_i
// (a received message or packet fully written: rxb += len; at rxb == size the sender's
// dependency clears: cnt+1 for a Reduce, grx for a Gather). Flow indices >= MaxFlows use 0.
// NE receive engines: engine e has read port B e and done event e (done_*_i[e]).
// rxb is in RAM (docs/reference/ni.md "State in RAM"): one mt_ni_ram copy per engine, read at
// every edge at the engine's port-B flow (b_flow_i: the flow it holds in LOOK and BUSY), one
// write port shared by the copies. A done that counts bytes (dreq_i: not a chained packet, not
// staged) needs that write port: one engine per edge (dgnt_o), round robin from the engine
// after the last one granted; the scan's Reduce entry of a flow zeroes its rxb.
// Chained reduction (Chain, docs/reference/ni.md "Chained reduction"), per flow f:
//   act      child positions started (>= cnt): an engine admitting child k's unit sets k+1
//   cc       child positions whose packets are all added (bit k)
// and per (flow, child position) the rows of mt_ni_chain (in RAM: bytes added, completed
// prefix, ranges beyond it), which a chained packet's completion updates a few cycles later
// (docs/reference/ni.md "State in RAM"); children complete (cnt) in order.
// The entry indices ridx and gidx, root and gv are in RAM (written only by the scan): one
// mt_ni_ram copy of each per engine, read at every edge at the engine's port-B flow, so
// b_ridx_o / b_gidx_o / b_root_o / b_gv_o are the words of the engine's flow after the last
// edge (the engine reads them in LOAD, the cycle after its pick, and in LOOK). cnt, grx, act
// and cc of port B are RAM copies too, one per writer ("The engines' reads" below; act is not
// stored: max(cnt, the largest start)). Port A (issue) reads cnt, grx and rdone from copies
// of its own, read at every edge at a_rflow_i, the flow of the head entry after that edge
// (mt_ni_issue's look-ahead), so a_cnt_o / a_grx_o / a_rdone_o are the words of the head's
// flow. Flip-flops per flow: rv (read at a_flow_i by the scan's check, and gating every RAM
// word: the RAMs have no reset) and gv (read by the scan: only the first Gather entry with a
// Parent is kept). all_gathers_o counts the flows rooted here or gathered (each counted once:
// root is set by the flow's one Reduce entry before any message of the flow, grx once). rxb
// is the engine's RAM copy, read only here, for the granted done; the completed prefix an
// engine reads (b_pwm_o) is its working register in mt_ni_chain, valid when b_pwv_o.
`default_nettype none

module mt_ni_deps #(
  parameter int MaxFlows = 16,
  parameter int TIW      = 6,     // table index width
  parameter int CntW     = 4,
  parameter int NE       = 1,     // receive engines
  parameter int Children = 4,     // child slots of an entry (chain state per slot)
  parameter int Chain    = 0,     // chained reduction state (with NE > 1)
  parameter int PerturbRam = 0    // test only: 1-3 mt_ni_chain's PerturbRam; 4 the rxb RAMs
                                  // without bypass, 5 the done grant round robin downwards, 6
                                  // the index RAMs read one edge late (the previous flow), 7
                                  // the copies of cnt, grx and act without bypass, 8 act
                                  // from the engine's own start copy, not the largest, 9
                                  // port A's copies read at the head's flow (no look-ahead)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,
  input  logic [11:0]     nflows_i,
  // scan: record one entry
  input  logic            scan_i,
  input  logic [11:0]     scan_flow_i,
  input  logic [1:0]      scan_op_i,
  input  logic            scan_pv_i,
  input  logic [TIW-1:0]  scan_idx_i,
  // issue: root Reduce entry completed
  input  logic            rdone_i,
  input  logic [11:0]     rdone_flow_i,
  // receive: message or packet written, engine e at [e]
  input  logic [NE-1:0]    done_i,
  input  logic [NE*12-1:0] done_flow_i,
  input  logic [NE*2-1:0]  done_op_i,
  input  logic [NE*32-1:0] done_len_i,
  input  logic [NE*32-1:0] done_size_i,
  input  logic [NE-1:0]    dreq_i,       // done waits for the write port (rxb) ...
  output logic [NE-1:0]    dgnt_o,       // ... granted: done_i at this edge
  // chained reduction, engine e at [e]: done_flow_i is the engine's flow in LOOK and BUSY
  input  logic [NE-1:0]    go_i,         // LOOK: unit admitted
  input  logic [NE-1:0]    go_act_i,     // ... and it starts child position go_pos_i (act)
  input  logic [NE*4-1:0]  go_pos_i,
  input  logic [NE-1:0]    done_pk_i,    // done: a chained packet of child done_pos_i ...
  input  logic [NE*4-1:0]  done_pos_i,
  input  logic [NE*32-1:0] done_lo_i,    // ... at this offset in the chunk
  output logic             room_o,       // a chained packet may complete (mt_ni_chain room_o)
  // read port A: rv at a_flow_i (the head entry's flow); cnt, grx, rdone of a_rflow_i's flow
  // read at this edge (the head's flow after it; nflows_i holds from start to done)
  input  logic [11:0]     a_flow_i,
  input  logic [11:0]     a_rflow_i,
  output logic            a_rv_o,
  output logic [CntW-1:0] a_cnt_o,
  output logic            a_grx_o,
  output logic            a_rdone_o,
  // rv of the stager's scan pointer's flow
  input  logic [11:0]     s_flow_i,
  output logic            s_rv_o,
  // read ports B, engine e at [e]
  input  logic [NE*12-1:0]   b_flow_i,
  output logic [NE-1:0]      b_rv_o,
  output logic [NE*TIW-1:0]  b_ridx_o,
  output logic [NE-1:0]      b_gv_o,
  output logic [NE*TIW-1:0]  b_gidx_o,
  output logic [NE-1:0]      b_root_o,
  output logic [NE*CntW-1:0] b_cnt_o,
  output logic [NE-1:0]      b_grx_o,
  output logic [NE*CntW-1:0] b_act_o,
  input  logic [NE*4-1:0]    b_pos_i,    // child position whose completed prefix is read
  input  logic [NE-1:0]      pw_req_i,   // ... needed and not held: load it
  output logic [NE-1:0]      b_pwv_o,    // the engine's working register holds it
  output logic [NE*32-1:0]   b_pwm_o,
  // every flow < nflows is rooted here or has its Gather
  output logic            all_gathers_o
);
  initial begin
    if (MaxFlows < 1 || MaxFlows > 4096) $fatal(1, "mt_ni_deps: MaxFlows=%0d", MaxFlows);
    if (TIW < 1 || CntW < 1) $fatal(1, "mt_ni_deps: TIW/CntW");
    if (NE < 1) $fatal(1, "mt_ni_deps: NE=%0d", NE);
    if (PerturbRam < 0 || PerturbRam > 9) $fatal(1, "mt_ni_deps: PerturbRam=%0d", PerturbRam);
  end
  localparam int FW   = mt_common_pkg::idx_w(MaxFlows);
  localparam int NC   = Children;
  localparam int EW   = mt_common_pkg::idx_w(NE);

  logic [MaxFlows-1:0]      rv_q, gv_q;
`include "mt_ni_fidx_fn.svh"

  logic [FW-1:0] sf, rf, af, arf;
  assign sf  = fidx(scan_flow_i);
  assign rf  = fidx(rdone_flow_i);
  assign af  = fidx(a_flow_i);
  assign arf = (PerturbRam == 9) ? af : fidx(a_rflow_i);

  // the done grant: round robin from drr_q (PerturbRam 5: downwards)
  logic          dgv;
  logic [EW-1:0] dg, drr_q;
  function automatic [EW-1:0] rr_at(input logic [EW-1:0] p, input int n);
    rr_at = EW'((PerturbRam == 5) ? (32'(p) + NE - n) % NE : (32'(p) + n) % NE);
  endfunction
  always_comb begin
    dgv = 1'b0;
    dg  = '0;
    for (int n = 0; n < NE; n++)
      if (!dgv && dreq_i[rr_at(drr_q, n)]) begin
        dgv = 1'b1;
        dg  = rr_at(drr_q, n);
      end
  end
  for (genvar e = 0; e < NE; e++) begin : g_dg
    assign dgnt_o[e] = dgv && dg == EW'(e);
  end
  // the granted done: its flow, length, message size, op
  logic [FW-1:0] gf;
  logic [31:0]   glen, gsize;
  logic [1:0]    gop;
  always_comb begin
    gf    = '0;
    glen  = '0;
    gsize = '0;
    gop   = '0;
    for (int e = 0; e < NE; e++)
      if (dg == EW'(e)) begin
        gf    = fidx(done_flow_i[12*e +: 12]);
        glen  = done_len_i[32*e +: 32];
        gsize = done_size_i[32*e +: 32];
        gop   = done_op_i[2*e +: 2];
      end
  end

  // rxb in RAM: a copy per engine, read at its port-B flow at every edge (so that its output is
  // the word of the engine's flow after the last edge, as a flip-flop read would be); the write:
  // the scan zeroes the flow of a Reduce entry, a granted done stores rxb + len (0 at size)
  logic [NE*32-1:0] rxb_rd;
  logic             rxw, dfin;
  logic [FW-1:0]    rxw_f;
  logic [31:0]      rxw_d, rxb_g, rxb_n;
  always_comb begin
    rxb_g = '0;
    for (int e = 0; e < NE; e++)
      if (dg == EW'(e)) rxb_g = rxb_rd[32*e +: 32];
  end
  assign rxb_n = rxb_g + glen;
  assign dfin  = dgv && rxb_n == gsize;   // the granted done completes its message
  assign rxw   = (scan_i && scan_op_i == 2'd1) || dgv;
  assign rxw_f = dgv ? gf : sf;
  assign rxw_d = (dgv && !dfin) ? rxb_n : '0;
  localparam int RxByp = (PerturbRam == 4) ? 0 : 1;
  for (genvar e = 0; e < NE; e++) begin : g_rxb
    mt_ni_ram #(.Depth(MaxFlows), .Width(32), .Bypass(RxByp)) u_rxb (
      .clk_i, .we_i(rxw), .waddr_i(rxw_f), .wdata_i(rxw_d),
      .re_i(1'b1), .raddr_i(fidx(b_flow_i[12*e +: 12])), .rdata_o(rxb_rd[32*e +: 32]));
  end

  // the entry indices in RAM, written by the scan (the flow's Reduce entry with root = no
  // Parent; its first Gather entry with a Parent), a copy of each per engine read at its port-B
  // flow at every edge; gv of the engines: set by that Gather entry, and written at the
  // Reduce entry (gv so far), so that a flow with rv reads this start's gv
  logic ridx_we, gidx_we;
  logic [NE*(TIW+1)-1:0] b_rw;
  logic [NE-1:0]         b_gw;
  assign ridx_we = scan_i && scan_op_i == 2'd1;
  assign gidx_we = scan_i && scan_op_i == 2'd2 && scan_pv_i && !gv_q[sf];
  for (genvar e = 0; e < NE; e++) begin : g_idx
    logic [FW-1:0] ia;
    if (PerturbRam == 6) begin : g_late
      logic [FW-1:0] ia_q;
      always_ff @(posedge clk_i) ia_q <= fidx(b_flow_i[12*e +: 12]);
      assign ia = ia_q;
    end else begin : g_ia
      assign ia = fidx(b_flow_i[12*e +: 12]);
    end
    mt_ni_ram #(.Depth(MaxFlows), .Width(TIW + 1)) u_ridx (
      .clk_i, .we_i(ridx_we), .waddr_i(sf), .wdata_i({!scan_pv_i, scan_idx_i}),
      .re_i(1'b1), .raddr_i(ia), .rdata_o(b_rw[(TIW+1)*e +: TIW+1]));
    mt_ni_ram #(.Depth(MaxFlows), .Width(TIW)) u_gidx (
      .clk_i, .we_i(gidx_we), .waddr_i(sf), .wdata_i(scan_idx_i),
      .re_i(1'b1), .raddr_i(ia), .rdata_o(b_gidx_o[TIW*e +: TIW]));
    mt_ni_ram #(.Depth(MaxFlows), .Width(1)) u_gv (
      .clk_i, .we_i(gidx_we || ridx_we), .waddr_i(sf), .wdata_i(gidx_we || gv_q[sf]),
      .re_i(1'b1), .raddr_i(ia), .rdata_o(b_gw[e]));
    assign b_ridx_o[TIW*e +: TIW] = b_rw[(TIW+1)*e +: TIW];
  end

  // chained reduction: the rows in RAM (mt_ni_chain); per flow the child positions whose
  // packets are all added (cc, set by the chain unit's writes; in RAM, below)
  logic             cw, cw_full, crd;
  logic [FW-1:0]    cw_f, crd_f;
  logic [3:0]       cw_k;
  if (Chain != 0) begin : g_chain
    logic [NE*FW-1:0] pf, bfl;
    for (genvar e = 0; e < NE; e++) begin : g_f
      assign pf[FW*e +: FW]  = fidx(done_flow_i[12*e +: 12]);
      assign bfl[FW*e +: FW] = fidx(b_flow_i[12*e +: 12]);
    end
    mt_ni_chain #(.MaxFlows(MaxFlows), .NE(NE), .Children(Children), .PerturbRam((PerturbRam <= 3) ? PerturbRam : 0)) u_chain (
      .clk_i, .rst_ni, .clear_i, .scan_i(ridx_we), .scan_f_i(sf),
      .push_i(done_i & done_pk_i), .push_f_i(pf), .push_k_i(done_pos_i), .push_lo_i(done_lo_i),
      .push_len_i(done_len_i), .push_size_i(done_size_i), .room_o(room_o),
      .wr_o(cw), .wr_f_o(cw_f), .wr_k_o(cw_k), .wr_full_o(cw_full), .rd_o(crd), .rd_f_o(crd_f),
      .b_f_i(bfl), .b_pos_i(b_pos_i), .req_i(pw_req_i), .b_hit_o(b_pwv_o), .b_pwm_o(b_pwm_o));
  end else begin : g_plain_rows
    logic unused_rows;
    assign unused_rows = ^{done_i, done_pk_i, done_pos_i, done_lo_i, b_pos_i, pw_req_i};
    assign room_o  = 1'b1;
    assign cw      = 1'b0;
    assign cw_full = 1'b0;
    assign cw_f    = '0;
    assign cw_k    = '0;
    assign crd     = 1'b0;
    assign crd_f   = '0;
    assign b_pwv_o = '0;
    assign b_pwm_o = '0;
  end

  // reads of the per-flow bits at a flow index (a multiplexer of MaxFlows bits)
  function automatic bit_at(input logic [MaxFlows-1:0] v, input logic [FW-1:0] f);
    bit_at = v[f];   // f < MaxFlows (fidx)
  endfunction
  // cnt passed over the complete child positions b, in order; the larger of two counts
  function automatic [CntW-1:0] cnt_adv(input logic [CntW-1:0] c, input logic [NC-1:0] b);
    cnt_adv = c;
    for (int k = 0; k < NC; k++)
      if (32'(cnt_adv) == k && b[k]) cnt_adv = CntW'(k + 1);
  endfunction
  function automatic [CntW-1:0] cnt_max(input logic [CntW-1:0] x, input logic [CntW-1:0] y);
    cnt_max = (x < y) ? y : x;
  endfunction

  // The next words of cnt, cc and grx: the chain unit's write first (a child complete: cnt
  // passes the complete children in order), then the granted done (cmodel mt_ni_deps_update).
  // A row complete (W1): its bit, cnt over the complete positions. A row not complete moves
  // nothing. Each is written into the copies (below).
  // act is not stored as such: every change of cnt is followed in its edge by act = max(act,
  // cnt) and a start raises act to its position + 1, so act = max(cnt, S) where S is the largest
  // start since clear, kept in the start banks below.
  logic [NE*CntW-1:0]       b_cnt, b_act;
  logic [NE-1:0]            b_grx;
  logic                     w1;
  logic [NC-1:0]            cc1;
  logic [CntW-1:0]          cnt1;
  assign w1  = Chain != 0 && cw && cw_full;
  logic [NC-1:0]            cc_w1;    // cc of the chain unit's flow (RAM, read at stage 0)
  logic [CntW-1:0]          cnt_w1;   // ... and its cnt (RAM copies, read at stage 0)
  assign cc1 = cc_w1 | (NC'(1) << cw_k);
  assign cnt1 = cnt_adv(cnt_w1, cc1);
  // the starts, engine e: child position go_pos_i + 1 started in its flow
  logic [NE-1:0]      g;
  logic [NE*FW-1:0]   gfl;
  logic [NE*CntW-1:0] gc;
  for (genvar e = 0; e < NE; e++) begin : g_go
    assign g[e]                 = Chain != 0 && go_i[e] && go_act_i[e];
    assign gfl[FW*e +: FW]      = fidx(done_flow_i[12*e +: 12]);
    assign gc[CntW*e +: CntW]   = CntW'(go_pos_i[4*e +: 4]) + 1'b1;
  end
  // the granted done (W3): cnt + 1 for a Reduce (Chain: over the complete positions), grx for
  // any other op
  logic            h1w3, w3r;
  logic [CntW-1:0] cnt3b, cnt3a, cnt3;
  logic            grx3b;
  logic [NC-1:0]   cc3;
  // the granted engine's words (dg < NE; used only with a grant)
  assign cnt3b = b_cnt[CntW*32'(dg) +: CntW];
  assign grx3b = |(b_grx & dgnt_o);
  assign h1w3 = w1 && cw_f == gf;
  assign w3r  = dfin && gop == 2'd1;
  logic [NE*NC-1:0] b_cc;    // cc of each engine's flow (RAM copies, below)
  assign cc3  = h1w3 ? cc1 : b_cc[NC*32'(dg) +: NC];
  assign cnt3a = (h1w3 ? cnt1 : cnt3b) + 1'b1;
  if (Chain != 0) begin : g_w3c
    assign cnt3 = cnt_adv(cnt3a, cc3);
  end else begin : g_w3p
    assign cnt3 = cnt3a;
  end
  // all_gathers: the flows < nflows rooted here (the scan of a root Reduce entry; grx is 0
  // then: no message of a flow passes LOOK before its Reduce entry is scanned) or gathered
  // (the granted done completing a Gather message of a flow neither root nor gathered yet)
  logic [FW:0] ng_q;
  logic        ng_root, ng_grx, b_root_g;
  assign b_root_g = |(b_root_o & dgnt_o);
  assign ng_root  = ridx_we && !scan_pv_i && 32'(sf) < 32'(nflows_i);
  assign ng_grx   = dfin && gop != 2'd1 && !grx3b && !b_root_g && 32'(gf) < 32'(nflows_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv_q <= '0; gv_q <= '0; ng_q <= '0; drr_q <= '0;
    end else if (clear_i) begin
      rv_q <= '0; gv_q <= '0; ng_q <= '0; drr_q <= '0;
    end else begin
      if (ridx_we) rv_q[sf] <= 1'b1;
      if (gidx_we) gv_q[sf] <= 1'b1;
      if (dgv) drr_q <= (32'(dg) + 1 == NE) ? '0 : dg + 1'b1;
      ng_q <= ng_q + (FW+1)'(ng_root) + (FW+1)'(ng_grx);
    end
  end

  // The engines' reads of cnt, grx and act (docs/reference/ni.md "State in RAM"): per engine,
  // copies in RAM read at every edge at its port-B flow, one copy per writer, since each RAM
  // has one write port. cnt and act never decrease between clears, so every write stores the
  // flow's current word or less and the largest word over the writers' copies is the current
  // one (no table of which copy was written last). Copies: C1 (cnt, written by the chain
  // unit's complete rows, Chain only), C3 ({cnt, grx}, the granted done) and, Chain only, one
  // start copy per engine j (S, written by j's starts: max(act, position + 1)). The scan's
  // Reduce entry of a flow writes zeros into every copy (the RAMs have no reset); an engine uses
  // the words only for a flow with rv (its Reduce entry scanned since start), else 0, as the
  // flip-flops would be (every write names a flow with rv: an engine passes LOOK only then).
  localparam int CpByp = (PerturbRam == 7) ? 0 : 1;
  logic            w3w;
  logic [CntW:0]   w3d;
  assign w3w = dfin;
  assign w3d = {w3r ? cnt3 : cnt3b, gop != 2'd1 || grx3b};
  // the write ports of the copies, one per writer (shared by every copy of that writer): the
  // scan's Reduce entry writes zeros, W1 cnt and cc, W3 {cnt, grx}
  logic            p1_we, p3_we;
  logic [FW-1:0]   p1_wa, p3_wa;
  logic [CntW-1:0] p1_cnt;
  logic [NC-1:0]   p1_cc;
  logic [CntW:0]   p3_d;
  assign p1_we  = ridx_we || w1;
  assign p1_wa  = w1 ? cw_f : sf;
  assign p1_cnt = w1 ? cnt1 : '0;
  assign p1_cc  = w1 ? cc1 : '0;
  assign p3_we  = ridx_we || w3w;
  assign p3_wa  = w3w ? gf : sf;
  assign p3_d   = w3w ? w3d : '0;
  // cc and cnt of the chain unit's flow: read by its pipe's stage 0, used by stage 1 (W1) at
  // the next edge, when a write at the edge of the read reaches it through the bypass (the
  // flow has rv: its packets passed LOOK)
  if (Chain != 0) begin : g_ccp
    logic [CntW-1:0] p1, p3;
    mt_ni_ram #(.Depth(MaxFlows), .Width(NC), .Bypass(CpByp)) u_ccp (
      .clk_i, .we_i(p1_we), .waddr_i(p1_wa), .wdata_i(p1_cc),
      .re_i(crd), .raddr_i(crd_f), .rdata_o(cc_w1));
    mt_ni_ram #(.Depth(MaxFlows), .Width(CntW), .Bypass(CpByp)) u_c1p (
      .clk_i, .we_i(p1_we), .waddr_i(p1_wa), .wdata_i(p1_cnt),
      .re_i(crd), .raddr_i(crd_f), .rdata_o(p1));
    mt_ni_ram #(.Depth(MaxFlows), .Width(CntW), .Bypass(CpByp)) u_c3p (
      .clk_i, .we_i(p3_we), .waddr_i(p3_wa), .wdata_i(p3_d[CntW:1]),
      .re_i(crd), .raddr_i(crd_f), .rdata_o(p3));
    assign cnt_w1 = cnt_max(p1, p3);
  end else begin : g_ccp_plain
    assign cc_w1  = '0;
    assign cnt_w1 = '0;
  end
  // port A's cnt, grx and rdone: copies read at every edge at a_rflow_i (rdone: set by the
  // issue of the flow's root Reduce entry, in RUN; zeroed by the scan)
  logic [CntW:0]   a3;
  logic [CntW-1:0] a1;
  logic            ard;
  mt_ni_ram #(.Depth(MaxFlows), .Width(CntW + 1), .Bypass(CpByp)) u_c3a (
    .clk_i, .we_i(p3_we), .waddr_i(p3_wa), .wdata_i(p3_d),
    .re_i(1'b1), .raddr_i(arf), .rdata_o(a3));
  if (Chain != 0) begin : g_c1a
    mt_ni_ram #(.Depth(MaxFlows), .Width(CntW), .Bypass(CpByp)) u_c1a (
      .clk_i, .we_i(p1_we), .waddr_i(p1_wa), .wdata_i(p1_cnt),
      .re_i(1'b1), .raddr_i(arf), .rdata_o(a1));
  end else begin : g_c1a_plain
    assign a1 = '0;
  end
  mt_ni_ram #(.Depth(MaxFlows), .Width(1), .Bypass(CpByp)) u_rda (
    .clk_i, .we_i(ridx_we || rdone_i), .waddr_i(rdone_i ? rf : sf), .wdata_i(rdone_i),
    .re_i(1'b1), .raddr_i(arf), .rdata_o(ard));
  for (genvar e = 0; e < NE; e++) begin : g_cp
    logic [FW-1:0]   ra;
    logic [CntW:0]   c3;
    logic [CntW-1:0] cm, am;
    assign ra = fidx(b_flow_i[12*e +: 12]);
    mt_ni_ram #(.Depth(MaxFlows), .Width(CntW + 1), .Bypass(CpByp)) u_c3 (
      .clk_i, .we_i(p3_we), .waddr_i(p3_wa), .wdata_i(p3_d),
      .re_i(1'b1), .raddr_i(ra), .rdata_o(c3));
    if (Chain != 0) begin : g_c1
      logic [NE*CntW-1:0] sj;
      logic [CntW-1:0]    c1;
      mt_ni_ram #(.Depth(MaxFlows), .Width(CntW), .Bypass(CpByp)) u_c1 (
        .clk_i, .we_i(p1_we), .waddr_i(p1_wa), .wdata_i(p1_cnt),
        .re_i(1'b1), .raddr_i(ra), .rdata_o(c1));
      for (genvar j = 0; j < NE; j++) begin : g_s
        mt_ni_ram #(.Depth(MaxFlows), .Width(CntW), .Bypass(CpByp)) u_s (
          .clk_i, .we_i(ridx_we || g[j]), .waddr_i(g[j] ? gfl[FW*j +: FW] : sf),
          .wdata_i(g[j] ? cnt_max(b_act[CntW*j +: CntW], gc[CntW*j +: CntW]) : '0),
          .re_i(1'b1), .raddr_i(ra), .rdata_o(sj[CntW*j +: CntW]));
      end
      assign cm = cnt_max(c1, c3[CntW:1]);
      always_comb begin
        am = cm;
        for (int j = 0; j < NE; j++)
          if (PerturbRam != 8 || j == e) am = cnt_max(am, sj[CntW*j +: CntW]);
      end
      // cc of the engine's flow, for the granted done
      mt_ni_ram #(.Depth(MaxFlows), .Width(NC), .Bypass(CpByp)) u_cc (
        .clk_i, .we_i(p1_we), .waddr_i(p1_wa), .wdata_i(p1_cc),
        .re_i(1'b1), .raddr_i(ra), .rdata_o(b_cc[NC*e +: NC]));
    end else begin : g_c1p
      assign cm = c3[CntW:1];
      assign am = '0;
      assign b_cc[NC*e +: NC] = '0;
    end
    assign b_cnt[CntW*e +: CntW] = b_rv_o[e] ? cm : '0;
    assign b_act[CntW*e +: CntW] = (b_rv_o[e] && Chain != 0) ? am : '0;
    assign b_grx[e]              = b_rv_o[e] && c3[0];
  end

  assign a_rv_o    = bit_at(rv_q, af);
  assign s_rv_o    = bit_at(rv_q, fidx(s_flow_i));
  assign a_cnt_o   = a_rv_o ? cnt_max(a1, a3[CntW:1]) : '0;
  assign a_grx_o   = a_rv_o && a3[0];
  assign a_rdone_o = a_rv_o && ard;
  for (genvar e = 0; e < NE; e++) begin : g_b
    logic [FW-1:0] bf;
    assign bf = fidx(b_flow_i[12*e +: 12]);
    assign b_rv_o[e]   = bit_at(rv_q, bf);
    assign b_gv_o[e]   = b_rv_o[e] && b_gw[e];
    assign b_root_o[e] = b_rv_o[e] && b_rw[(TIW+1)*e + TIW];
  end
  assign b_cnt_o = b_cnt;
  assign b_act_o = b_act;
  assign b_grx_o = b_grx;
  if (Chain == 0) begin : g_nochain
    logic unused_chain;
    assign unused_chain = ^{go_i, go_act_i, go_pos_i, cw_f, cw_k, cc3, g, gfl, gc, crd, crd_f, b_cc, p1_we, p1_wa, p1_cnt, p1_cc};
  end

  assign all_gathers_o = 32'(ng_q) >= ((32'(nflows_i) < MaxFlows) ? 32'(nflows_i) : MaxFlows);
endmodule
