// SPDX-License-Identifier: Apache-2.0
// mt_ni_chain: the chained-reduction rows of mt_ni_deps in RAM (docs/reference/ni.md "State in
// RAM"). A row per (flow f, child position k): pb [31:0] bytes of the child's packets added,
// pwm [63:32] its completed prefix of the chunk, Pend ranges completed beyond the prefix (pl at
// 64+32q, ph at 64+32(Pend+q); 0/0 = free).
//  - Completions of chained packets (push_i, engine order within an edge) enter a FIFO of
//    D = 2^ceil(log2(2 NE)) entries; an engine may complete one only while room_o (at most
//    D - NE entries held), so the FIFO never overflows.
//  - The update pipe: stage 0 pops the FIFO's head and reads its row (RAM R, port R); stage 1
//    merges the packet into the row (chain_row) and writes it (RAM R and the pwm copy RAM P,
//    port W; wr_o, and wr_full_o when pb reaches the chunk's size). A row written at the edge of
//    the next read of the same row reaches it through the RAM's bypass.
//  - Each engine has a working register: the pwm of one row (its tag). An engine that needs a
//    row it does not hold (req_i) asks for a load; one load per cycle reads RAM P (round robin
//    from the engine after the last one served); the word arrives one cycle later. A held row
//    follows every write of the pipe to it (snoop), so it is always the row's current pwm.
//  - Rows written since their flow's Reduce entry was scanned are marked in rowv; a row read
//    before its first write reads as zero (the RAMs have no reset). rowv is in RAM too: a bank
//    of MaxFlows bits per child position, one set of banks per reader (stage 0, the loads);
//    the scan's Reduce entry of a flow (scan_i) zeroes the flow's bit in every bank, stage 1
//    sets its row's. Only flows scanned since start have packets (they pass LOOK only then).
// PerturbRam (test only, 0 in normal builds): 1 = the RAMs without bypass (a read at the edge
// of a write to its row returns the old word), 2 = the completions of one edge queued in the
// other engine order, 3 = loads granted round robin in the other direction.
`default_nettype none

module mt_ni_chain #(
  parameter int MaxFlows   = 16,
  parameter int NE         = 2,     // receive engines
  parameter int Children   = 4,
  parameter int PerturbRam = 0,
  localparam int FW        = mt_common_pkg::idx_w(MaxFlows),
  localparam int Pend      = 4,     // cmodel MT_NI_PEND
  localparam int RW        = 32 * (2 + 2 * Pend)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              clear_i,
  // the scan records a flow's Reduce entry: its rows are not written yet
  input  logic              scan_i,
  input  logic [FW-1:0]     scan_f_i,
  // completed chained packets, engine e at [e]: flow index, child position, offset in the
  // chunk, length, the chunk's size
  input  logic [NE-1:0]     push_i,
  input  logic [NE*FW-1:0]  push_f_i,
  input  logic [NE*4-1:0]   push_k_i,
  input  logic [NE*32-1:0]  push_lo_i,
  input  logic [NE*32-1:0]  push_len_i,
  input  logic [NE*32-1:0]  push_size_i,
  output logic              room_o,     // NE completions fit at this edge
  // the pipe's write at this edge: flow, child position, the child is complete (pb == size)
  output logic              wr_o,
  output logic [FW-1:0]     wr_f_o,
  output logic [3:0]        wr_k_o,
  output logic              wr_full_o,
  // the pipe's read at this edge (stage 0): its flow, written by stage 1 at the next edge
  output logic              rd_o,
  output logic [FW-1:0]     rd_f_o,
  // working registers, engine e at [e]: the row (flow, position) it needs, its load request
  input  logic [NE*FW-1:0]  b_f_i,
  input  logic [NE*4-1:0]   b_pos_i,
  input  logic [NE-1:0]     req_i,
  output logic [NE-1:0]     b_hit_o,    // the register holds that row
  output logic [NE*32-1:0]  b_pwm_o     // ... and its pwm
);
  localparam int NC  = Children;
  localparam int NR  = MaxFlows * NC;
  localparam int RXW = mt_common_pkg::idx_w(NR);
  localparam int D   = 1 << $clog2(2 * NE);
  localparam int DW  = mt_common_pkg::idx_w(D);
  localparam int EW  = mt_common_pkg::idx_w(NE);
  localparam int QW  = FW + 4 + 96;        // FIFO entry: f, k, lo, len, size
  initial begin
    if (NE < 2) $fatal(1, "mt_ni_chain: NE=%0d (chaining needs two engines)", NE);
    if (NC < 1 || NC > 16) $fatal(1, "mt_ni_chain: Children=%0d", NC);
    if (D < 2 * NE) $fatal(1, "mt_ni_chain: FIFO depth %0d < 2 NE", D);
    if (PerturbRam < 0 || PerturbRam > 3) $fatal(1, "mt_ni_chain: PerturbRam=%0d", PerturbRam);
  end

  // the row of flow f, child position p (positions >= NC use 0)
  function automatic int pos_of(input logic [3:0] p);
    pos_of = (32'(p) < NC) ? 32'(p) : 0;
  endfunction
  function automatic [RXW-1:0] row_ix(input logic [FW-1:0] f, input logic [3:0] p);
    row_ix = RXW'(32'(f) * NC + pos_of(p));
  endfunction

  // a chained packet [lo, lo+len) of a child done: its bytes, its completed prefix (merged
  // with the ranges it reaches), or a range kept beyond the prefix (cmodel chain_row)
  function automatic [RW-1:0] chain_row(input logic [RW-1:0] r, input logic [31:0] lo, input logic [31:0] len);
    logic placed;
    chain_row = r;
    chain_row[31:0] = r[31:0] + len;
    placed = 1'b0;
    if (lo == r[63:32]) begin
      chain_row[63:32] = lo + len;
      for (int pass = 0; pass < Pend; pass++)
        for (int q = 0; q < Pend; q++)
          if (chain_row[64+32*(Pend+q) +: 32] != '0 && chain_row[64+32*q +: 32] == chain_row[63:32]) begin
            chain_row[63:32]             = chain_row[64+32*(Pend+q) +: 32];
            chain_row[64+32*q +: 32]     = '0;
            chain_row[64+32*(Pend+q) +: 32] = '0;
          end
    end else
      // beyond the prefix: a free slot (none free: the successor waits for the whole child)
      for (int q = 0; q < Pend; q++)
        if (!placed && chain_row[64+32*(Pend+q) +: 32] == '0) begin
          chain_row[64+32*q +: 32]        = lo;
          chain_row[64+32*(Pend+q) +: 32] = lo + len;
          placed = 1'b1;
        end
  endfunction

  // ---- the FIFO of completions ----
  logic [QW-1:0] fq_q [D];
  logic [DW-1:0] fh_q;
  logic [DW:0]   fn_q;
  logic          pop;
  logic [QW-1:0] head;
  assign room_o = 32'(fn_q) + NE <= D;
  assign pop    = fn_q != '0;
  assign head   = fq_q[fh_q];
  logic [FW-1:0]  h_f;
  logic [3:0]     h_k;
  logic [RXW-1:0] h_ix;
  assign h_f  = head[QW-1 -: FW];
  assign h_k  = head[96 +: 4];
  assign h_ix = row_ix(h_f, h_k);
  assign rd_o   = pop;
  assign rd_f_o = h_f;

  // ---- stage 1: the row read at the last edge, merged and written at this one ----
  logic           s1v_q, s1z;
  logic [FW-1:0]  s1f_q;
  logic [3:0]     s1k_q;
  logic [31:0]    s1lo_q, s1len_q, s1size_q;
  logic [RW-1:0]  r_rd, row_new;
  logic [31:0]    p_rd;
  logic [RXW-1:0] wix;
  assign wix     = row_ix(s1f_q, s1k_q);
  assign row_new = chain_row(s1z ? '0 : r_rd, s1lo_q, s1len_q);
  assign wr_o      = s1v_q;
  assign wr_f_o    = s1f_q;
  assign wr_k_o    = s1k_q;
  assign wr_full_o = s1v_q && row_new[31:0] == s1size_q;

  localparam int Byp = (PerturbRam == 1) ? 0 : 1;
  mt_ni_ram #(.Depth(NR), .Width(RW), .Bypass(Byp)) u_rows (
    .clk_i, .we_i(s1v_q), .waddr_i(wix), .wdata_i(row_new),
    .re_i(pop), .raddr_i(h_ix), .rdata_o(r_rd));

  // ---- the working registers and their loads ----
  logic [NE-1:0]     wv_q;
  logic [NE*RXW-1:0] wtag_q;
  logic [NE*32-1:0]  wpwm_q;
  logic              l1v_q;
  logic [EW-1:0]     l1e_q, rrp_q;
  logic [RXW-1:0]    l1ix_q;
  logic [NE*RXW-1:0] bix;
  logic [NE-1:0]     rq;
  for (genvar e = 0; e < NE; e++) begin : g_w
    assign bix[RXW*e +: RXW] = row_ix(b_f_i[FW*e +: FW], b_pos_i[4*e +: 4]);
    assign b_hit_o[e] = wv_q[e] && wtag_q[RXW*e +: RXW] == bix[RXW*e +: RXW];
    assign b_pwm_o[32*e +: 32] = wpwm_q[32*e +: 32];
    assign rq[e] = req_i[e] && !(l1v_q && 32'(l1e_q) == e);
  end
  // round robin from rrp (PerturbRam 3: downwards)
  logic          gnt;
  logic [EW-1:0] g;
  always_comb begin
    logic [EW-1:0] i;
    gnt = 1'b0;
    g   = '0;
    for (int n = 0; n < NE; n++) begin
      i = EW'((PerturbRam == 3) ? (32'(rrp_q) + NE - n) % NE : (32'(rrp_q) + n) % NE);
      if (!gnt && rq[i]) begin
        gnt = 1'b1;
        g   = i;
      end
    end
  end
  // the granted load's flow, position and row
  logic [FW-1:0]  gf;
  logic [3:0]     gk;
  logic [RXW-1:0] gix;
  always_comb begin
    gf = '0;
    gk = '0;
    for (int e = 0; e < NE; e++)
      if (g == EW'(e)) begin
        gf = b_f_i[FW*e +: FW];
        gk = b_pos_i[4*e +: 4];
      end
  end
  assign gix = row_ix(gf, gk);
  mt_ni_ram #(.Depth(NR), .Width(32), .Bypass(Byp)) u_pwm (
    .clk_i, .we_i(s1v_q), .waddr_i(wix), .wdata_i(row_new[63:32]),
    .re_i(gnt), .raddr_i(gix), .rdata_o(p_rd));

  // rowv: bank c holds the bit of (f, c) at address f; the stage-0 set is read with the row
  // (its bank picked by stage 1's position), the load set with the load (by l1k_q)
  logic [3:0]    l1k_q;
  logic [NC-1:0] v0, v1;
  for (genvar c = 0; c < NC; c++) begin : g_rowv
    logic          vw;
    logic [FW-1:0] va;
    assign vw = scan_i || (s1v_q && pos_of(s1k_q) == c);
    assign va = scan_i ? scan_f_i : s1f_q;
    mt_ni_ram #(.Depth(MaxFlows), .Width(1), .Bypass(Byp)) u_v0 (
      .clk_i, .we_i(vw), .waddr_i(va), .wdata_i(!scan_i),
      .re_i(pop), .raddr_i(h_f), .rdata_o(v0[c]));
    mt_ni_ram #(.Depth(MaxFlows), .Width(1), .Bypass(Byp)) u_v1 (
      .clk_i, .we_i(vw), .waddr_i(va), .wdata_i(!scan_i),
      .re_i(gnt), .raddr_i(gf), .rdata_o(v1[c]));
  end
  assign s1z = !v0[pos_of(s1k_q)];

  // the FIFO's writes: completions in engine order after those held. The pushes of one edge
  // take consecutive slots, at most NE <= B of them, so each bank (slot mod B) takes at most
  // one: a push's word goes through its bank's multiplexer (B of them, not one per slot)
  localparam int B  = 1 << $clog2(NE);     // D = 2B: two slots per bank
  localparam int BW = $clog2(B);
  logic [NE*DW-1:0] pslot;
  always_comb begin
    logic [DW:0] n;
    int e;
    n     = '0;
    pslot = '0;
    for (int j = 0; j < NE; j++) begin
      e = (PerturbRam == 2) ? NE - 1 - j : j;
      pslot[DW*e +: DW] = DW'(32'(fh_q) + 32'(fn_q) + 32'(n));
      if (push_i[e]) n = n + 1'b1;
    end
  end
  logic [B-1:0]    bwr, brow;
  logic [B*QW-1:0] bwd;
  always_comb begin
    bwr  = '0;
    brow = '0;
    bwd  = '0;
    for (int b = 0; b < B; b++)
      for (int e = 0; e < NE; e++)
        if (push_i[e] && 32'(pslot[DW*e +: DW]) % B == b) begin
          bwr[b]          = 1'b1;
          brow[b]         = pslot[DW*e + BW];
          bwd[QW*b +: QW] = {push_f_i[FW*e +: FW], push_k_i[4*e +: 4], push_lo_i[32*e +: 32],
                             push_len_i[32*e +: 32], push_size_i[32*e +: 32]};
        end
  end
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < D; i++)
      if (bwr[i % B] && 32'(brow[i % B]) == i / B) fq_q[i] <= bwd[QW*(i % B) +: QW];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fh_q <= '0; fn_q <= '0;
      s1v_q <= 1'b0; s1f_q <= '0; s1k_q <= '0; s1lo_q <= '0; s1len_q <= '0; s1size_q <= '0;
      wv_q <= '0; wtag_q <= '0; wpwm_q <= '0;
      l1v_q <= 1'b0; l1e_q <= '0; l1k_q <= '0; l1ix_q <= '0; rrp_q <= '0;
    end else if (clear_i) begin
      fh_q <= '0; fn_q <= '0; s1v_q <= 1'b0; wv_q <= '0; l1v_q <= 1'b0; rrp_q <= '0;
    end else begin
      logic [DW:0] np;
      np = '0;
      for (int e = 0; e < NE; e++) np = np + (DW+1)'(push_i[e]);
      fn_q <= fn_q - (DW+1)'(pop) + np;
      if (pop) fh_q <= fh_q + 1'b1;
      // stage 0 -> 1
      s1v_q <= pop;
      if (pop) begin
        s1f_q    <= h_f;
        s1k_q    <= h_k;
        s1lo_q   <= head[64 +: 32];
        s1len_q  <= head[32 +: 32];
        s1size_q <= head[0 +: 32];
      end
      // a load granted: its word arrives at the next edge
      l1v_q <= gnt;
      if (gnt) begin
        l1e_q  <= g;
        l1ix_q <= gix;
        l1k_q  <= gk;
        rrp_q  <= (32'(g) + 1 == NE) ? '0 : g + 1'b1;
      end
      // held rows follow the pipe's writes; a load completes
      for (int e = 0; e < NE; e++) begin
        if (s1v_q && wv_q[e] && wtag_q[RXW*e +: RXW] == wix) wpwm_q[32*e +: 32] <= row_new[63:32];
        if (l1v_q && 32'(l1e_q) == e) begin
          wv_q[e] <= 1'b1;
          wtag_q[RXW*e +: RXW] <= l1ix_q;
          wpwm_q[32*e +: 32] <= (s1v_q && wix == l1ix_q) ? row_new[63:32] : !v1[pos_of(l1k_q)] ? '0 : p_rd;
        end
      end
    end
  end
endmodule
