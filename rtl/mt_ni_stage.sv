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
//             Per (flow, child slot) x: bytes claimed (sgc) and written (sgb), the child's id
//             (sgs); the staged ranges [lo, hi) of buffer addresses, adjacent units merged, in
//             one pool of StageRanges entries (valid, owner x, lo, hi). The C model keeps each
//             x's ranges as a list in address order; the pool here is searched instead (the
//             lowest range of x = the smallest lo): the same ranges, the same choices.
//  replay     one x looked at per cycle (scan pointer sgp); one whose claimed bytes are all
//             written offers its lowest range as a head (op Reduce, src sgs, the range) on the
//             replay stream R (EjDepth flits, no credits; the last entry of every engine's
//             list). Not due (the engine on R waits): taken back, the next x. Due: the stager
//             reads the range back flit by flit (room in R reserved for every read in flight)
//             into R, lanes past the length 0, Body flits and a Tail; the engine adds them as
//             if from the network.
// The stager's reads are one more requester of a memory port (mt_ni_mports: the last of the
// one port, M = 1, or the second of port L, M > 1). Everything is registered.
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
  localparam int Lanes      = PayloadW / 32,
  localparam int FB         = PayloadW / 8,
  localparam int LgFb       = $clog2(FB),
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int FC         = MaxFlows * Children,
  localparam int XW         = mt_common_pkg::idx_w(FC),
  localparam int FW         = mt_common_pkg::idx_w(MaxFlows),
  localparam int KW         = mt_common_pkg::idx_w(Children),
  localparam int RW         = mt_common_pkg::idx_w(StageRanges),
  localparam int PW         = mt_common_pkg::idx_w(EjDepth),
  localparam int CW         = $clog2(EjDepth + 1)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clear_i,
  input  logic                   run_i,
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
  end
  localparam logic [1:0] SgScan = 2'd0, SgOffer = 2'd1, SgStream = 2'd2;

  function automatic [FW-1:0] fidx(input logic [11:0] f);
    fidx = (32'(f) < MaxFlows) ? FW'(f) : '0;
  endfunction
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
  logic [1:0]          sgst_q;
  logic [FW-1:0]       sgp_f_q, sgx_f_q;
  logic [KW-1:0]       sgp_k_q, sgx_k_q;
  logic [RW-1:0]       sgq_q;
  logic [31:0]         sga_q, sgl_q, sgj_q, sgn_q, sgo_q;
  logic [FlitW-1:0]    rf_q [0:EjDepth-1];
  logic [PW-1:0]       rrd_q;
  logic [CW-1:0]       rcnt_q;

  // per (flow, slot) x and per range q (flat vectors of the registers in g_x / g_q)
  logic [FC*32-1:0]          sgc_d, sgb_d;
  logic [FC*12-1:0]          sgs_d;
  logic [FC-1:0]             sgnz, sgnz_d;
  logic [StageRanges-1:0]    rv, rv_d;
  logic [StageRanges*XW-1:0] rown, rown_d;
  logic [StageRanges*32-1:0] rlo, rhi, rlo_d, rhi_d;

  logic [XW-1:0] sgp, sgx;
  assign sgp = XW'(32'(sgp_f_q) * Children + 32'(sgp_k_q));
  assign sgx = XW'(32'(sgx_f_q) * Children + 32'(sgx_k_q));

  // ---- eval ----
  logic any_free;
  assign any_free = ~&rv;
  // engine e's unit extends one of its x's ranges, or a range is free; never while one of
  // x's ranges is offered (the offered head's length must stay the range's)
  for (genvar e = 0; e < NE; e++) begin : g_fit
    logic [XW-1:0] x;
    logic [31:0]   a, b;
    logic          touch;
    assign x = xof(e_flow_i[12*e +: 12], e_k_i[4*e +: 4]);
    assign a = e_addr_i[32*e +: 32];
    assign b = e_addr_i[32*e +: 32] + e_len_i[32*e +: 32];
    always_comb begin
      touch = 1'b0;
      for (int q = 0; q < StageRanges; q++)
        if (rv[q] && rown[XW*q +: XW] == x && (rhi[32*q +: 32] == a || rlo[32*q +: 32] == b)) touch = 1'b1;
    end
    assign fits_o[e] = !(sgst_q == SgOffer && sgx == x) && (any_free || touch);
    for (genvar k = 0; k < Children; k++) begin : g_k
      assign staged_o[Children*e + k] = sgnz[XW'(32'(fidx(e_flow_i[12*e +: 12])) * Children + k)];
    end
  end
  assign sgon_o = sgon_q;

  assign r_nonempty_o = (rcnt_q != '0);
  assign r_head_o     = rf_q[rrd_q];
  assign r_avail_o    = run_i && sgst_q == SgOffer && rcnt_q != '0 && !r_held_i;
  assign rq_o         = run_i && sgst_q == SgStream && sgj_q < sgn_q && sgo_q + 32'(rcnt_q) < 32'(EjDepth);
  assign rq_addr_o    = stage_base_i + 32'(sgx_k_q) * stage_slot_i + sga_q + (sgj_q << LgFb);
  assign rq_be_o      = mask_of(sgj_q, sgn_q, sgl_q);
  assign idle_o       = sgst_q == SgScan && !(|sgnz);

  // the claim of this edge (one engine at most)
  logic          cl;
  logic [XW-1:0] cx;
  logic [31:0]   ca, clen;
  logic [11:0]   csrc;
  always_comb begin
    cl = 1'b0; cx = '0; ca = '0; clen = '0; csrc = '0;
    for (int e = 0; e < NE; e++)
      if (!cl && claim_i[e]) begin
        cl   = 1'b1;
        cx   = xof(e_flow_i[12*e +: 12], e_k_i[4*e +: 4]);
        ca   = e_addr_i[32*e +: 32];
        clen = e_len_i[32*e +: 32];
        csrc = e_src_i[12*e +: 12];
      end
  end
  // the claim against x's ranges: the one it extends (hi == a), the one it reaches (lo == a
  // + len), else the lowest free range
  logic          cprev, cnext, cfree;
  logic [31:0]   cnext_hi;
  logic [RW-1:0] cfree_q;
  always_comb begin
    cprev = 1'b0; cnext = 1'b0; cfree = 1'b0; cnext_hi = '0; cfree_q = '0;
    for (int q = 0; q < StageRanges; q++) begin
      if (rv[q] && rown[XW*q +: XW] == cx && rhi[32*q +: 32] == ca) cprev = 1'b1;
      if (rv[q] && rown[XW*q +: XW] == cx && rlo[32*q +: 32] == ca + clen) begin
        cnext    = 1'b1;
        cnext_hi = rhi[32*q +: 32];
      end
      if (!cfree && !rv[q]) begin
        cfree   = 1'b1;
        cfree_q = RW'(q);
      end
    end
  end
  // the lowest range of x = sgp after this edge's claim (offered when x's claimed bytes are
  // all written)
  logic          lo_any;
  logic [RW-1:0] lo_q;
  logic [31:0]   lo_lo, lo_hi;
  always_comb begin
    lo_any = 1'b0; lo_q = '0; lo_lo = '0; lo_hi = '0;
    for (int q = 0; q < StageRanges; q++)
      if (rv_d[q] && rown_d[XW*q +: XW] == sgp && (!lo_any || rlo_d[32*q +: 32] < lo_lo)) begin
        lo_any = 1'b1;
        lo_q   = RW'(q);
        lo_lo  = rlo_d[32*q +: 32];
        lo_hi  = rhi_d[32*q +: 32];
      end
  end

  // ---- update: the replay state machine ----
  logic offer, due, back;
  assign offer = sgst_q == SgScan && run_i && (|sgnz_d) && rcnt_q == '0 && !r_held_next_i && sgc_d[32*sgp +: 32] != '0 &&
                 sgb_d[32*sgp +: 32] == sgc_d[32*sgp +: 32] && lo_any;
  assign back  = sgst_q == SgOffer && r_wait_i;
  assign due   = sgst_q == SgOffer && !r_wait_i && r_go_i;
  logic        push_rsp;
  assign push_rsp = sgst_q == SgStream && rsp_i;
  // the flit pushed into R at this edge
  logic [FlitW-1:0] pf;
  always_comb begin
    logic [31:0]      j;
    logic [Lanes-1:0] m;
    pf = '0;
    j  = '0;
    m  = '0;
    if (offer) begin
      pf[mt_common_pkg::HD_W-1:0] = mt_common_pkg::head_pack(12'd0, sgs_d[12*sgp +: 12], 4'd0, 4'd0, 12'(sgp_f_q),
                                                             mt_common_pkg::OP_REDUCE, 1'b1, 16'd0, lo_lo, lo_hi - lo_lo);
      pf[PayloadW +: mt_common_pkg::FT_W] = mt_common_pkg::FT_AR_HEAD;
    end else begin
      j = sgj_q - sgo_q;  // flits pushed so far
      m = mask_of(j, sgn_q, sgl_q);
      for (int k = 0; k < Lanes; k++) pf[32*k +: 32] = m[k] ? rsp_data_i[32*k +: 32] : 32'd0;
      pf[PayloadW +: mt_common_pkg::FT_W] = (j + 32'd1 == sgn_q) ? mt_common_pkg::FT_AR_TAIL : mt_common_pkg::FT_AR_BODY;
    end
  end
  logic push;
  assign push = offer || push_rsp;

  always_ff @(posedge clk_i) begin
    if (push) rf_q[wrap(32'(rrd_q) + 32'(rcnt_q))] <= pf;
  end

  function automatic logic [FW+KW-1:0] next_x(input logic [FW-1:0] f, input logic [KW-1:0] k);
    if (32'(k) + 1 >= Children) next_x = {(32'(f) + 1 >= MaxFlows) ? FW'(0) : FW'(f + 1'b1), KW'(0)};
    else next_x = {f, KW'(k + 1'b1)};
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sgon_q <= 1'b0; sgst_q <= SgScan; sgp_f_q <= '0; sgp_k_q <= '0; sgx_f_q <= '0; sgx_k_q <= '0;
      sgq_q <= '0; sga_q <= '0; sgl_q <= '0; sgj_q <= '0; sgn_q <= '0; sgo_q <= '0;
      rrd_q <= '0; rcnt_q <= '0;
    end else begin
      logic [31:0] j2, o2;
      // stalled T cycles with a not-due head: stage from now on (until the next start)
      if (|look_wait_i && wd_i >= 32'(StageAfter)) sgon_q <= 1'b1;
      // R: pushes, pops
      if (r_pop_i) rrd_q <= wrap(32'(rrd_q) + 32'd1);
      rcnt_q <= rcnt_q + CW'(push) - CW'(r_pop_i);
      j2 = sgj_q + 32'(gnt_i);
      o2 = sgo_q - 32'(push_rsp) + 32'(gnt_i);
      if (sgst_q == SgScan && run_i && (|sgnz_d) && rcnt_q == '0 && !r_held_next_i) begin
        if (offer) begin
          sgst_q <= SgOffer; sgx_f_q <= sgp_f_q; sgx_k_q <= sgp_k_q; sgq_q <= lo_q;
          sga_q <= lo_lo; sgl_q <= lo_hi - lo_lo;
        end else {sgp_f_q, sgp_k_q} <= next_x(sgp_f_q, sgp_k_q);
      end else if (sgst_q == SgOffer) begin
        if (back) begin
          rcnt_q <= '0; sgst_q <= SgScan; {sgp_f_q, sgp_k_q} <= next_x(sgx_f_q, sgx_k_q);
        end else if (due) begin
          sgst_q <= SgStream; sgn_q <= (sgl_q + 32'(FB - 1)) >> LgFb; sgj_q <= '0; sgo_q <= '0;
        end
      end else if (sgst_q == SgStream) begin
        sgj_q <= j2; sgo_q <= o2;
        if (j2 == sgn_q && o2 == 32'd0) begin
          sgst_q <= SgScan; {sgp_f_q, sgp_k_q} <= next_x(sgx_f_q, sgx_k_q);
        end
      end
      if (clear_i) begin
        sgon_q <= 1'b0; sgst_q <= SgScan; sgp_f_q <= '0; sgp_k_q <= '0; rcnt_q <= '0; rrd_q <= '0;
      end
    end
  end

`ifdef MT_STAGE_TRACE
  // debugging (a Verilator build with +define+MT_STAGE_TRACE): the stager's state every edge,
  // to set beside cosim_ni's STAGE_TRACE=1 print of the C model's
  always @(posedge clk_i) $display("RTL sgst %0d sgp %0d sgx %0d sgj %0d sgo %0d R %0d avail %0d held %0d/%0d go %0d wait %0d rq %0d gnt %0d on %0d lw %b",
    sgst_q, sgp, sgx, sgj_q, sgo_q, rcnt_q, r_avail_o, r_held_i, r_held_next_i, r_go_i, r_wait_i, rq_o, gnt_i, sgon_q, look_wait_i);
`endif
  // ---- per (flow, slot) x: claimed and written bytes, the child's id ----
  // (the next values *_d: the replay scan of this edge sees this edge's claims and completed
  // staging writes, as the C model's mt_ni_stage_update, which applies them first)
  for (genvar x = 0; x < FC; x++) begin : g_x
    logic [31:0] c_q, b_q, c_d, b_d;
    logic [11:0] s_q, s_d;
    always_comb begin
      b_d = b_q;
      for (int e = 0; e < NE; e++)
        if (sdone_i[e] && xof(e_flow_i[12*e +: 12], e_cpos_i[4*e +: 4]) == XW'(x)) b_d = b_d + e_len_i[32*e +: 32];
      c_d = c_q + ((cl && cx == XW'(x)) ? clen : 32'd0);
      s_d = (cl && cx == XW'(x)) ? csrc : s_q;
      if (due && sgx == XW'(x)) begin
        c_d = c_d - sgl_q;
        b_d = b_d - sgl_q;
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        c_q <= '0; b_q <= '0; s_q <= '0;
      end else begin
        s_q <= s_d;
        c_q <= clear_i ? '0 : c_d;
        b_q <= clear_i ? '0 : b_d;
      end
    end
    assign sgnz[x]           = (c_q != '0);
    assign sgc_d[32*x +: 32] = c_d;
    assign sgb_d[32*x +: 32] = b_d;
    assign sgs_d[12*x +: 12] = s_d;
    assign sgnz_d[x]         = (c_d != '0);
  end

  // ---- the range pool ----
  for (genvar q = 0; q < StageRanges; q++) begin : g_q
    logic          v_q, v_d;
    logic [XW-1:0] o_q, o_d;
    logic [31:0]   l_q, h_q, l_d, h_d;
    logic          mine;
    assign mine = v_q && o_q == cx;
    always_comb begin
      v_d = v_q; o_d = o_q; l_d = l_q; h_d = h_q;
      if (cl && mine && h_q == ca) h_d = cnext ? cnext_hi : ca + clen;  // extended (and joined)
      if (cl && mine && l_q == ca + clen) begin
        if (cprev) v_d = 1'b0;  // joined into the one before
        else l_d = ca;
      end
      if (cl && !cprev && !cnext && cfree_q == RW'(q)) begin
        v_d = 1'b1; o_d = cx; l_d = ca; h_d = ca + clen;
      end
      if (due && sgq_q == RW'(q)) v_d = 1'b0;  // replayed
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        v_q <= 1'b0; o_q <= '0; l_q <= '0; h_q <= '0;
      end else begin
        v_q <= v_d && !clear_i; o_q <= o_d; l_q <= l_d; h_q <= h_d;
      end
    end
    assign rv[q]              = v_q;
    assign rown[XW*q +: XW]   = o_q;
    assign rlo[32*q +: 32]    = l_q;
    assign rhi[32*q +: 32]    = h_q;
    assign rv_d[q]            = v_d;
    assign rown_d[XW*q +: XW] = o_d;
    assign rlo_d[32*q +: 32]  = l_d;
    assign rhi_d[32*q +: 32]  = h_d;
  end
endmodule
