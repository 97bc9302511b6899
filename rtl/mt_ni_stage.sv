// SPDX-License-Identifier: Apache-2.0
// mt_ni_stage: the NI stager (docs/reference/ni.md "Staging not-due units"; C twin cmodel/hw/mt_ni_stage.c,
// cycle for cycle). mt_ni has it only with StageAfter = T > 0. A routed deadlock needs a unit
// that reached its NI and can never leave it (not due, holding its ejection VC and the
// network VCs behind it); the stager lets the NI always sink such units:
//  stage out  once the NI made no progress for T cycles (the watchdog's stall counter wd_i) in
//             a cycle where an engine's LOOK found a unit not due, sgon is set (until the next
//             start); from then on an engine's LOOK admits a not-due reduce unit of a child that
//             has not started as a staging write (claim_i, at most one per edge, mt_ni_depktz):
//             the engine writes it, as a gather, to stage_base + k * stage_slot + its address.
//             The staged ranges [lo, hi) of buffer addresses, adjacent units merged, per (flow,
//             child slot) x in a list in address order, in RAM (docs/reference/ni.md "The
//             stager's state in RAM"): RAM H (per x: its first range, the child's id), RAM Q
//             (per range: lo, hi, next), a free list; a list walker inserts each claim.
//  replay     one x looked at per cycle (scan pointer sgp); one with staged units and no
//             staging write in flight: its H word, then its first range are read, and the
//             range is offered as a head (op Reduce, src sgs, the range) on the
//             replay stream R (EjDepth flits, no credits; the last entry of every engine's
//             list). Not due (the engine on R waits): taken back, the next x. Due: the stager
//             reads the range back flit by flit (room in R reserved for every read in flight)
//             into R, lanes past the length 0, Body flits and a Tail; the engine adds them as
//             if from the network.
// sgnz (per x: has staged units) is in RAM too: a bank of MaxFlows bits per child slot, one set
// of banks per reader (each engine, read at its flow; the scan, read at the scan pointer the
// next edge gives it, sgp_d), zeroed by the table scan's Reduce entry of the flow (scan_i),
// taken only for a flow with rv (the scan's: s_rv_i; an engine's flow has it), and counted
// (nz_q) for "anything staged".
// The stager's reads are one more requester of a memory port (mt_ni_mports: the last of the
// one port, M = 1, or the second of port L, M > 1). Everything else is registered.
`default_nettype none

module mt_ni_stage #(
  parameter int PayloadW    = 128,
  parameter int NumVcs      = 2,
  parameter int EjDepth     = 4,
  parameter int MaxFlows    = 16,
  parameter int Children    = 4,
  parameter int NE          = 1,      // receive engines
  parameter int StageAfter  = 1,      // T (> 0)
  parameter int StageRanges = 8,      // the range pool
  parameter int PerturbStage = 0,     // test only: 1 the RAMs without bypass, 2 the walk stops at
                                      // x's first range, 3 the scan's sgnz read one edge late
                                      // (at the pointer before the last edge; t-ni-perturb-stage-*)
  localparam int Lanes      = PayloadW / 32,
  localparam int FB         = PayloadW / 8,
  localparam int LgFb       = $clog2(FB),
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int FC         = MaxFlows * Children,
  localparam int XW         = mt_common_pkg::idx_w(FC),
  localparam int FW         = mt_common_pkg::idx_w(MaxFlows),
  localparam int KW         = mt_common_pkg::idx_w(Children),
  localparam int RW         = mt_common_pkg::idx_w(StageRanges),
  localparam int NW         = mt_common_pkg::idx_w(StageRanges + 1),  // a range or "none"
  localparam int EW         = mt_common_pkg::idx_w(NE),
  localparam int PW         = mt_common_pkg::idx_w(EjDepth),
  localparam int CW         = $clog2(EjDepth + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clear_i,
  input  logic                   run_i,
  // the table scan records a flow's Reduce entry (its x's have nothing staged); rv of the flow
  // of the scan pointer (sgp_f_o)
  input  logic                   scan_i,
  input  logic [11:0]            scan_f_i,
  output logic [11:0]            sgp_f_o,
  input  logic                   s_rv_i,
  input  logic [31:0]            wd_i,          // the watchdog's stall counter (register)
  input  logic [31:0]            stage_base_i,  // staging area (byte address)
  input  logic [31:0]            stage_slot_i,  // bytes per child slot
  // engines (engine e at [e]): LOOK (flow, child k, src, addr, len of the head), completions
  input  logic [NE-1:0]          look_wait_i,   // LOOK: not due, waits
  input  logic [NE-1:0]          claim_i,       // LOOK: staged out instead (at most one)
  input  logic [NE*12-1:0]       e_flow_i,
  input  logic [NE*4-1:0]        e_k_i,
  input  logic [NE*12-1:0]       e_src_i,
  input  logic [NE*32-1:0]       e_addr_i,
  input  logic [NE*32-1:0]       e_len_i,
  input  logic [NE-1:0]          sdone_i,       // a staging write complete ...
  input  logic [NE*4-1:0]        e_cpos_i,      // ... of this child slot (flow e_flow_i, e_len_i bytes)
  output logic [NE-1:0]          fits_o,        // engine e's LOOK unit may be staged
  output logic [NE*Children-1:0] staged_o,      // slots of engine e's flow with staged units
  output logic                   sgon_o,
  // the replay stream R
  output logic                   r_avail_o,     // a replay head offered, no engine on R
  output logic                   r_nonempty_o,
  output logic [FlitW-1:0]       r_head_o,
  input  logic                   r_pop_i,       // an engine pops R
  input  logic                   r_held_i,      // an engine is on R (LOOK or BUSY)
  input  logic                   r_held_next_i, // ... after this edge (the C model's update order)
  input  logic                   r_go_i,        // the engine on R admits the head
  input  logic                   r_wait_i,      // ... or waits (not due)
  // memory reads (mt_ni_mports)
  output logic                   rq_o,
  output logic [31:0]            rq_addr_o,
  output logic [Lanes-1:0]       rq_be_o,
  input  logic                   gnt_i,
  input  logic                   rsp_i,
  input  logic [PayloadW-1:0]    rsp_data_i,
  output logic                   idle_o         // nothing staged, nothing offered or replaying
);
  initial begin
    if (StageAfter < 1) $fatal(1, "mt_ni_stage: StageAfter=%0d: must be > 0", StageAfter);
    if (StageRanges < 1 || StageRanges > 1024) $fatal(1, "mt_ni_stage: StageRanges=%0d: must be 1..1024", StageRanges);
    if (Children < 1 || Children > 16) $fatal(1, "mt_ni_stage: Children=%0d: must be 1..16", Children);
    if (PerturbStage < 0 || PerturbStage > 3) $fatal(1, "mt_ni_stage: PerturbStage=%0d: must be 0..3", PerturbStage);
  end
  // replay: scan, head offered, streaming the body, reading x's H word, reading its first range
  localparam logic [2:0] SgScan = 3'd0, SgOffer = 3'd1, SgStream = 3'd2, SgRdH = 3'd3, SgRdQ = 3'd4;
  // list walker: idle, H word read, walking, decide, allocate (free range read), link, free
  localparam logic [2:0] WIdle = 3'd0, WHead = 3'd1, WWalk = 3'd2, WDec = 3'd3, WAlloc = 3'd4, WLink = 3'd5, WFree = 3'd6;
  localparam logic [NW-1:0] NONE = NW'(StageRanges);
  localparam int HW  = 12 + NW;  // RAM H word: {src, first range}
  localparam int QW  = 64 + NW;  // RAM Q word: {next, hi, lo}
  localparam int Byp = (PerturbStage == 1) ? 0 : 1;

`include "mt_ni_fidx_fn.svh"
  function automatic [XW-1:0] xof(input logic [11:0] f, input logic [3:0] k);
    xof = XW'(32'(fidx(f)) * Children + 32'(k));
  endfunction
  function automatic [PW-1:0] wrap(input logic [31:0] x);
    wrap = (x >= 32'(EjDepth)) ? PW'(x - 32'(EjDepth)) : PW'(x);
  endfunction
  function automatic [Lanes-1:0] mask_of(input logic [31:0] j, input logic [31:0] nfl, input logic [31:0] len);
    logic [31:0] r;
    r = (len - 32'd1) & 32'(FB - 1);
    for (int k = 0; k < Lanes; k++) mask_of[k] = (j + 32'd1 != nfl) || (32'(k) <= (r >> 2));
  endfunction

  logic                sgon_q;
  logic [2:0]          sgst_q;
  logic [FW-1:0]       sgp_f_q, sgx_f_q;
  logic [KW-1:0]       sgp_k_q, sgx_k_q;
  logic [NW-1:0]       sgq_q, sgnq_q;
  logic [11:0]         sgsrc_q;
  logic [31:0]         sga_q, sgl_q, sgj_q, sgn_q, sgo_q;
  logic [FlitW-1:0]    rf_q [0:EjDepth-1];
  logic [PW-1:0]       rrd_q;
  logic [CW-1:0]       rcnt_q;
  logic [XW:0]         nz_q;                      // x's with staged units
  logic [NW-1:0]       sgfree_q, sgbump_q, sgused_q;
  // the walker: the claim [wa, wb) of x (child id wsrc); x's first range, the range read, the
  // range before the claim (prev: lo, hi), the one at or after it (q: lo, hi, next), the new one
  logic [2:0]          wst_q;
  logic [XW-1:0]       wx_q;
  logic [31:0]         wa_q, wb_q, wplo_q, wphi_q, wqlo_q, wqhi_q;
  logic [11:0]         wsrc_q;
  logic [NW-1:0]       whead_q, wcur_q, wprev_q, wq_q, wqnx_q, wnn_q;
  // a replayed range to unlink (release): entry x, range q, its next, x's src
  logic                rel_q;
  logic [XW-1:0]       relx_q;
  logic [FW-1:0]       relf_q;
  logic [KW-1:0]       relk_q;
  logic [NW-1:0]       relq_q, relnx_q;
  logic [11:0]         relsrc_q;
  // staging writes in flight, per engine: valid, entry
  logic [NE-1:0]       pv_q;
  logic [NE*XW-1:0]    px_q;

  logic [XW-1:0] sgp, sgx;
  assign sgp = XW'(32'(sgp_f_q) * Children + 32'(sgp_k_q));
  assign sgx = XW'(32'(sgx_f_q) * Children + 32'(sgx_k_q));

  // ---- the RAMs ----
  logic          h_re, h_we, q_re, q_we;
  logic [XW-1:0] h_ra, h_wa;
  logic [NW-1:0] q_ra, q_wa;
  logic [HW-1:0] h_wd, h_rd;
  logic [QW-1:0] q_wd, q_rd;
  mt_ni_ram #(.Depth(FC), .Width(HW), .Bypass(Byp)) u_h (
    .clk_i, .we_i(h_we), .waddr_i(h_wa), .wdata_i(h_wd), .re_i(h_re), .raddr_i(h_ra), .rdata_o(h_rd));
  mt_ni_ram #(.Depth(StageRanges), .Width(QW), .Bypass(Byp)) u_q (
    .clk_i, .we_i(q_we), .waddr_i(RW'(q_wa)), .wdata_i(q_wd), .re_i(q_re), .raddr_i(RW'(q_ra)), .rdata_o(q_rd));
  logic [NW-1:0] h_first, q_nx;
  logic [11:0]   h_src;
  logic [31:0]   q_lo, q_hi;
  assign h_first = h_rd[NW-1:0];
  assign h_src   = h_rd[NW +: 12];
  assign q_lo    = q_rd[31:0];
  assign q_hi    = q_rd[63:32];
  assign q_nx    = q_rd[64 +: NW];

  // ---- the walker's decision (WDec): 1 joins prev and q, 2 extends prev, 3 extends q, 4 new ----
  logic       c_prev, c_next, wbump, wlast, walloc;
  logic [2:0] wcase;
  assign c_prev = wprev_q != NONE && wphi_q == wa_q;
  assign c_next = wq_q != NONE && wqlo_q == wb_q;
  assign wcase  = c_prev ? (c_next ? 3'd1 : 3'd2) : (c_next ? 3'd3 : 3'd4);
  assign wbump  = wst_q == WDec && wcase == 3'd4 && sgfree_q == NONE;
  // the walker's last edge (the next claim may start at it)
  assign wlast  = (wst_q == WDec && (wcase == 3'd2 || wcase == 3'd3 || (wbump && wprev_q == NONE))) ||
                  (wst_q == WAlloc && wprev_q == NONE) || wst_q == WLink || wst_q == WFree;
  assign walloc = wbump || wst_q == WAlloc;

  // ---- eval ----
  // engine e's unit may be staged: the walker free (or at its last edge), no release or scan
  // read pending, a range free after this edge, none of x's ranges offered
  logic fit_ok;
  assign fit_ok = !rel_q && sgst_q != SgRdH && sgst_q != SgRdQ && (wst_q == WIdle || wlast) &&
                  32'(sgused_q) + 32'(walloc) < 32'(StageRanges);
  for (genvar e = 0; e < NE; e++) begin : g_fit
    logic [XW-1:0] x;
    assign x = xof(e_flow_i[12*e +: 12], e_k_i[4*e +: 4]);
    assign fits_o[e] = fit_ok && !(sgst_q == SgOffer && sgx == x);
  end
  assign sgon_o = sgon_q;

  assign r_nonempty_o = (rcnt_q != '0);
  assign r_head_o     = rf_q[rrd_q];
  assign r_avail_o    = run_i && sgst_q == SgOffer && rcnt_q != '0 && !r_held_i;
  assign rq_o         = run_i && sgst_q == SgStream && sgj_q < sgn_q && sgo_q + 32'(rcnt_q) < 32'(EjDepth);
  assign rq_addr_o    = stage_base_i + 32'(sgx_k_q) * stage_slot_i + sga_q + (sgj_q << LgFb);
  assign rq_be_o      = mask_of(sgj_q, sgn_q, sgl_q);
  assign idle_o       = sgst_q == SgScan && nz_q == '0;

  // the claim of this edge (one engine at most)
  logic          cl;
  logic [EW-1:0] ce;
  logic [XW-1:0] cx;
  logic [FW-1:0] cf;
  logic [KW-1:0] ck;
  logic [31:0]   ca, clen;
  logic [11:0]   csrc;
  always_comb begin
    cl = 1'b0; ce = '0; cx = '0; cf = '0; ck = '0; ca = '0; clen = '0; csrc = '0;
    for (int e = 0; e < NE; e++)
      if (!cl && claim_i[e]) begin
        cl   = 1'b1;
        ce   = EW'(e);
        cx   = xof(e_flow_i[12*e +: 12], e_k_i[4*e +: 4]);
        cf   = fidx(e_flow_i[12*e +: 12]);
        ck   = KW'(e_k_i[4*e +: 4]);
        ca   = e_addr_i[32*e +: 32];
        clen = e_len_i[32*e +: 32];
        csrc = e_src_i[12*e +: 12];
      end
  end
  // a staging write of sgp in flight
  logic pend;
  always_comb begin
    pend = 1'b0;
    for (int e = 0; e < NE; e++)
      if (pv_q[e] && px_q[XW*e +: XW] == sgp) pend = 1'b1;
  end
  // the scan moves (not while the walker, a release or a claim uses the RAMs); it reads sgp's
  // H word when sgp has staged units and no staging write in flight
  logic go, issue, rel_go;
  assign go     = sgst_q == SgScan && run_i && nz_q != '0 && rcnt_q == '0 && !r_held_next_i && wst_q == WIdle && !rel_q && !cl;
  assign issue  = go && nz_sgp && !pend;
  assign rel_go = rel_q && wst_q == WIdle;
  // the walk moves on past range wcur (its lo below the claim's address)
  logic past;
  assign past = PerturbStage != 2 && q_lo < wa_q;

  // ---- the RAM ports of this edge (the walker, the release, the scan and a claim never use
  // one port at the same edge) ----
  always_comb begin
    logic [NW-1:0] n;
    h_re = 1'b0; h_ra = '0; h_we = 1'b0; h_wa = '0; h_wd = '0;
    q_re = 1'b0; q_ra = '0; q_we = 1'b0; q_wa = '0; q_wd = '0;
    n = (wst_q == WAlloc) ? sgfree_q : sgbump_q;
    case (wst_q)
      WHead: begin
        q_re = 1'b1; q_ra = h_first;
      end
      WWalk: if (past && q_nx != NONE) begin
        q_re = 1'b1; q_ra = q_nx;
      end
      WDec: begin
        if (wcase != 3'd4) begin
          h_we = 1'b1; h_wa = wx_q; h_wd = {wsrc_q, whead_q};
          q_we = 1'b1;
        end
        if (wcase == 3'd1) begin
          q_wa = wprev_q; q_wd = {wqnx_q, wqhi_q, wplo_q};
        end else if (wcase == 3'd2) begin
          q_wa = wprev_q; q_wd = {wq_q, wb_q, wplo_q};
        end else if (wcase == 3'd3) begin
          q_wa = wq_q; q_wd = {wqnx_q, wqhi_q, wa_q};
        end else if (sgfree_q != NONE) begin
          q_re = 1'b1; q_ra = sgfree_q;
        end
      end
      WLink: begin
        q_we = 1'b1; q_wa = wprev_q; q_wd = {wnn_q, wphi_q, wplo_q};
      end
      WFree: begin
        q_we = 1'b1; q_wa = wq_q; q_wd = {sgfree_q, 64'd0};
      end
      default: ;
    endcase
    // a new range n holds the claim, before q: first of x, or after prev (linked next edge)
    if (wbump || wst_q == WAlloc) begin
      q_we = 1'b1; q_wa = n; q_wd = {wq_q, wb_q, wa_q};
      h_we = 1'b1; h_wa = wx_q; h_wd = {wsrc_q, (wprev_q == NONE) ? n : whead_q};
    end
    if (rel_go) begin
      h_we = 1'b1; h_wa = relx_q; h_wd = {relsrc_q, relnx_q};
      q_we = 1'b1; q_wa = relq_q; q_wd = {sgfree_q, 64'd0};
    end
    if (issue) begin
      h_re = 1'b1; h_ra = sgp;
    end
    if (sgst_q == SgRdH) begin
      q_re = 1'b1; q_ra = h_first;
    end
    if (cl && nz_cx) begin
      h_re = 1'b1; h_ra = cx;
    end
  end

  // ---- update: the replay state machine ----
  logic back, due;
  assign back = sgst_q == SgOffer && r_wait_i;
  assign due  = sgst_q == SgOffer && !r_wait_i && r_go_i;
  logic        push_rsp;
  assign push_rsp = sgst_q == SgStream && rsp_i;
  logic [31:0] j2, o2;
  assign j2 = sgj_q + 32'(gnt_i);
  assign o2 = sgo_q - 32'(push_rsp) + 32'(gnt_i);

  function automatic logic [FW+KW-1:0] next_x(input logic [FW-1:0] f, input logic [KW-1:0] k);
    if (32'(k) + 1 >= Children) next_x = {(32'(f) + 1 >= MaxFlows) ? FW'(0) : FW'(f + 1'b1), KW'(0)};
    else next_x = {f, KW'(k + 1'b1)};
  endfunction
  // the scan pointer after this edge
  logic [FW+KW-1:0] sgp_d;
  always_comb begin
    sgp_d = {sgp_f_q, sgp_k_q};
    if (sgst_q == SgScan) begin
      if (!issue && go) sgp_d = next_x(sgp_f_q, sgp_k_q);
    end else if (sgst_q == SgOffer) begin
      if (back) sgp_d = next_x(sgx_f_q, sgx_k_q);
    end else if (sgst_q == SgStream) begin
      if (j2 == sgn_q && o2 == 32'd0) sgp_d = next_x(sgx_f_q, sgx_k_q);
    end
    if (clear_i) sgp_d = '0;
  end
  assign sgp_f_o = 12'(sgp_f_q);

  // sgnz in RAM: bank c of every set holds the bits of x = (f, c) at address f. Writes (one
  // per edge: the table scan runs before any claim; a claim needs no release pending): the
  // scan's Reduce entry of f zeroes f in every bank, a claim sets (cf, ck), a release that
  // empties x's list clears it
  logic          clr_x;
  logic [NE*Children-1:0] sg_e;
  logic [Children-1:0]    sg_s;
  assign clr_x = rel_go && relnx_q == NONE;
  logic [FW-1:0] sra;
  assign sra = (PerturbStage == 3) ? sgp_f_q : sgp_d[KW +: FW];
  for (genvar c = 0; c < Children; c++) begin : g_nz
    logic          vw;
    logic [FW-1:0] va;
    assign vw = scan_i || (cl && 32'(ck) == c) || (clr_x && 32'(relk_q) == c);
    assign va = scan_i ? fidx(scan_f_i) : cl ? cf : relf_q;
    for (genvar e = 0; e < NE; e++) begin : g_e
      mt_ni_ram #(.Depth(MaxFlows), .Width(1), .Bypass(Byp)) u_ve (
        .clk_i, .we_i(vw), .waddr_i(va), .wdata_i(!scan_i && cl),
        .re_i(1'b1), .raddr_i(fidx(e_flow_i[12*e +: 12])), .rdata_o(sg_e[Children*e + c]));
    end
    mt_ni_ram #(.Depth(MaxFlows), .Width(1), .Bypass(Byp)) u_vs (
      .clk_i, .we_i(vw), .waddr_i(va), .wdata_i(!scan_i && cl),
      .re_i(1'b1), .raddr_i(sra), .rdata_o(sg_s[c]));
  end
  assign staged_o = sg_e;
  // sgnz of sgp (the scan's banks, at the pointer of the last edge) and of the claim's x (the
  // claiming engine's banks)
  logic nz_sgp, nz_cx;
  logic [KW-1:0] sk;
  if (PerturbStage == 3) begin : g_late
    logic [KW-1:0] pk_q;   // the mutant reads x of the edge before: its slot, too
    always_ff @(posedge clk_i) pk_q <= sgp_k_q;
    assign sk = pk_q;
  end else begin : g_sk
    assign sk = sgp_k_q;
  end
  assign nz_sgp = s_rv_i && sg_s[sk];
  always_comb begin
    nz_cx = 1'b0;
    for (int e = 0; e < NE; e++)
      if (ce == EW'(e)) nz_cx = sg_e[Children*e + 32'(ck)];
  end
  // the flit pushed into R at this edge
  logic [FlitW-1:0] pf;
  always_comb begin
    logic [31:0]      j;
    logic [Lanes-1:0] m;
    pf = '0;
    j  = '0;
    m  = '0;
    if (sgst_q == SgRdQ) begin
      pf[mt_common_pkg::HD_W-1:0] = mt_common_pkg::head_pack(12'd0, sgsrc_q, 4'd0, 4'd0, 12'(sgx_f_q),
                                                             mt_common_pkg::OP_REDUCE, 1'b1, 16'd0, q_lo, q_hi - q_lo);
      pf[PayloadW +: mt_common_pkg::FT_W] = mt_common_pkg::FT_AR_HEAD;
    end else begin
      j = sgj_q - sgo_q;  // flits pushed so far
      m = mask_of(j, sgn_q, sgl_q);
      for (int k = 0; k < Lanes; k++) pf[32*k +: 32] = m[k] ? rsp_data_i[32*k +: 32] : 32'd0;
      pf[PayloadW +: mt_common_pkg::FT_W] = (j + 32'd1 == sgn_q) ? mt_common_pkg::FT_AR_TAIL : mt_common_pkg::FT_AR_BODY;
    end
  end
  logic push;
  assign push = sgst_q == SgRdQ || push_rsp;

  always_ff @(posedge clk_i) begin
    if (push) rf_q[wrap(32'(rrd_q) + 32'(rcnt_q))] <= pf;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sgon_q <= 1'b0; sgst_q <= SgScan; sgp_f_q <= '0; sgp_k_q <= '0; sgx_f_q <= '0; sgx_k_q <= '0;
      sgq_q <= '0; sgnq_q <= '0; sgsrc_q <= '0; sga_q <= '0; sgl_q <= '0; sgj_q <= '0; sgn_q <= '0; sgo_q <= '0;
      rrd_q <= '0; rcnt_q <= '0; nz_q <= '0; sgfree_q <= NONE; sgbump_q <= '0; sgused_q <= '0;
      wst_q <= WIdle; wx_q <= '0; wa_q <= '0; wb_q <= '0; wsrc_q <= '0; wplo_q <= '0; wphi_q <= '0;
      wqlo_q <= '0; wqhi_q <= '0; whead_q <= '0; wcur_q <= '0; wprev_q <= NONE; wq_q <= NONE; wqnx_q <= '0;
      wnn_q <= '0; rel_q <= 1'b0; relx_q <= '0; relf_q <= '0; relk_q <= '0; relq_q <= '0; relnx_q <= '0; relsrc_q <= '0;
      pv_q <= '0; px_q <= '0;
    end else begin
      // stalled T cycles with a not-due head: stage from now on (until the next start)
      if (|look_wait_i && wd_i >= 32'(StageAfter)) sgon_q <= 1'b1;
      // R: pushes, pops
      if (r_pop_i) rrd_q <= wrap(32'(rrd_q) + 32'd1);
      rcnt_q <= rcnt_q + CW'(push) - CW'(r_pop_i);
      {sgp_f_q, sgp_k_q} <= sgp_d;
      nz_q <= nz_q + (XW+1)'(cl && !nz_cx) - (XW+1)'(clr_x);
      // the walker
      case (wst_q)
        WHead: begin
          whead_q <= h_first; wcur_q <= h_first; wst_q <= WWalk;
        end
        WWalk: if (past) begin
          wprev_q <= wcur_q; wplo_q <= q_lo; wphi_q <= q_hi;
          if (q_nx == NONE) begin
            wq_q <= NONE; wst_q <= WDec;
          end else wcur_q <= q_nx;
        end else begin
          wq_q <= wcur_q; wqlo_q <= q_lo; wqhi_q <= q_hi; wqnx_q <= q_nx; wst_q <= WDec;
        end
        WDec: begin
          if (wcase == 3'd1) wst_q <= WFree;
          else if (wcase != 3'd4) wst_q <= WIdle;
          else if (sgfree_q != NONE) wst_q <= WAlloc;
          else sgbump_q <= sgbump_q + 1'b1;
        end
        WAlloc: sgfree_q <= q_nx;
        WLink: wst_q <= WIdle;
        WFree: begin
          sgfree_q <= wq_q; sgused_q <= sgused_q - 1'b1; wst_q <= WIdle;
        end
        default: ;
      endcase
      if (wbump || wst_q == WAlloc) begin  // a new range taken
        sgused_q <= sgused_q + 1'b1;
        wnn_q    <= (wst_q == WAlloc) ? sgfree_q : sgbump_q;
        wst_q    <= (wprev_q == NONE) ? WIdle : WLink;
      end
      // a replayed range unlinked (the walker idle)
      if (rel_go) begin
        sgfree_q <= relq_q; sgused_q <= sgused_q - 1'b1; rel_q <= 1'b0;
      end
      // the replay
      if (sgst_q == SgScan) begin
        if (issue) begin
          sgst_q <= SgRdH; sgx_f_q <= sgp_f_q; sgx_k_q <= sgp_k_q;
        end
      end else if (sgst_q == SgRdH) begin
        sgq_q <= h_first; sgsrc_q <= h_src; sgst_q <= SgRdQ;
      end else if (sgst_q == SgRdQ) begin
        sgnq_q <= q_nx; sga_q <= q_lo; sgl_q <= q_hi - q_lo; sgst_q <= SgOffer;
      end else if (sgst_q == SgOffer) begin
        if (back) begin
          rcnt_q <= '0; sgst_q <= SgScan;
        end else if (due) begin
          sgst_q <= SgStream; sgn_q <= (sgl_q + 32'(FB - 1)) >> LgFb; sgj_q <= '0; sgo_q <= '0;
          rel_q <= 1'b1; relx_q <= sgx; relf_q <= sgx_f_q; relk_q <= sgx_k_q; relq_q <= sgq_q;
          relnx_q <= sgnq_q; relsrc_q <= sgsrc_q;
        end
      end else if (sgst_q == SgStream) begin
        sgj_q <= j2; sgo_q <= o2;
        if (j2 == sgn_q && o2 == 32'd0) sgst_q <= SgScan;
      end
      // a claim starts the walker: x's H word read, or (nothing staged for x) a new first range
      if (cl) begin
        wx_q <= cx; wa_q <= ca; wb_q <= ca + clen; wsrc_q <= csrc; wprev_q <= NONE; wq_q <= NONE;
        wst_q <= nz_cx ? WHead : WDec;
        px_q[XW*ce +: XW] <= cx;
      end
      pv_q <= (pv_q & ~sdone_i) | (cl ? NE'(1) << ce : '0);
      if (clear_i) begin
        sgon_q <= 1'b0; sgst_q <= SgScan; rcnt_q <= '0; rrd_q <= '0;
        nz_q <= '0; sgfree_q <= NONE; sgbump_q <= '0; sgused_q <= '0; wst_q <= WIdle; rel_q <= 1'b0; pv_q <= '0;
      end
    end
  end
  logic unused_st;
  assign unused_st = ^{e_cpos_i, q_ra, q_wa};  // (q_ra, q_wa: their top bit when StageRanges is a power of 2)

`ifdef MT_STAGE_TRACE
  // debugging (a Verilator build with +define+MT_STAGE_TRACE): the stager's state every edge,
  // to set beside cosim_ni's STAGE_TRACE=1 print of the C model's
  always @(posedge clk_i) $display("RTL sgst %0d sgp %0d sgx %0d sgj %0d sgo %0d R %0d avail %0d held %0d/%0d go %0d wait %0d rq %0d gnt %0d on %0d lw %b wst %0d rel %0d used %0d",
    sgst_q, sgp, sgx, sgj_q, sgo_q, rcnt_q, r_avail_o, r_held_i, r_held_next_i, r_go_i, r_wait_i, rq_o, gnt_i, sgon_q, look_wait_i, wst_q, rel_q, sgused_q);
`endif
endmodule
