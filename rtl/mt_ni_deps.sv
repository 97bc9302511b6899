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
// NE receive engines: engine e has read port B e and done event e (done_*_i[e]); several
// engines finishing at one edge are applied in engine order (two packets of one flow add up).
// Chained reduction (Chain, docs/reference/ni.md "Chained reduction"), per flow f and child position k:
//   act      child positions started (>= cnt): an engine admitting child k's unit sets k+1
//   pb       bytes of child k's packets added; pwm: its completed prefix of the chunk;
//   pl/ph    up to Pend completed ranges beyond the prefix (0/0 = free), merged into the
//            prefix when it reaches them; children complete (cnt) in order when pb = size.
// Read ports A (issue) and B (receive look-up) are combinational.
`default_nettype none

module mt_ni_deps #(
  parameter int MaxFlows = 16,
  parameter int TIW      = 6,     // table index width
  parameter int CntW     = 4,
  parameter int NE       = 1,     // receive engines
  parameter int Children = 4,     // child slots of an entry (chain state per slot)
  parameter int Chain    = 0      // chained reduction state (with NE > 1)
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
  // chained reduction, engine e at [e]: done_flow_i is the engine's flow in LOOK and BUSY
  input  logic [NE-1:0]    go_i,         // LOOK: unit admitted
  input  logic [NE-1:0]    go_act_i,     // ... and it starts child position go_pos_i (act)
  input  logic [NE*4-1:0]  go_pos_i,
  input  logic [NE-1:0]    done_pk_i,    // done: a chained packet of child done_pos_i ...
  input  logic [NE*4-1:0]  done_pos_i,
  input  logic [NE*32-1:0] done_lo_i,    // ... at this offset in the chunk
  // read port A
  input  logic [11:0]     a_flow_i,
  output logic            a_rv_o,
  output logic [CntW-1:0] a_cnt_o,
  output logic            a_grx_o,
  output logic            a_rdone_o,
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
  output logic [NE*32-1:0]   b_pwm_o,
  // every flow < nflows is rooted here or has its Gather
  output logic            all_gathers_o
);
  initial begin
    if (MaxFlows < 1 || MaxFlows > 4096) $fatal(1, "mt_ni_deps: MaxFlows=%0d", MaxFlows);
    if (TIW < 1 || CntW < 1) $fatal(1, "mt_ni_deps: TIW/CntW");
    if (NE < 1) $fatal(1, "mt_ni_deps: NE=%0d", NE);
  end
  localparam int FW   = mt_common_pkg::idx_w(MaxFlows);
  localparam int NC   = Children;
  localparam int Pend = 4;                        // cmodel MT_NI_PEND
  localparam int CF   = (Chain != 0) ? MaxFlows : 1;  // flows of chain state (1 unused without)
  // a chain row (flow f, child position k): pb [31:0], pwm [63:32], range q at pl 64+32q,
  // ph 64+32*(Pend+q)
  localparam int RW   = 32 * (2 + 2 * Pend);

  localparam int NR   = CF * NC;                  // chain rows
  localparam int RXW  = mt_common_pkg::idx_w(NR); // row index
  localparam int CFW  = mt_common_pkg::idx_w(CF); // chained flow index

  logic [MaxFlows-1:0]      rv_q, gv_q, root_q, grx_q, rdone_q;
  logic [MaxFlows*TIW-1:0]  ridx_q, gidx_q;
  logic [MaxFlows*CntW-1:0] cnt_q;
  logic [MaxFlows*32-1:0]   rxb_q;
  logic [CF*CntW-1:0]       act_q;
  logic [NR*RW-1:0]         row_q;
  // chained packets completed at this edge: engine e's row index and the row after it (the
  // rows of earlier engines of this edge forwarded), and pb of its flow's rows after it
  logic [NE-1:0]            pkd;
  logic [NE*RXW-1:0]        rix;
  logic [NE*RW-1:0]         rout;
  logic [NE*NC*32-1:0]      pbf;

  function automatic [FW-1:0] fidx(input logic [11:0] f);
    fidx = (32'(f) < MaxFlows) ? FW'(f) : '0;
  endfunction

  logic [FW-1:0] sf, rf, af;
  assign sf = fidx(scan_flow_i);
  assign rf = fidx(rdone_flow_i);
  assign af = fidx(a_flow_i);

  // Every access to the rows is by a narrow index, read as a loop of compares against
  // constant row numbers (a NR:1 multiplexer) and written per row: synthesis must not see a
  // dynamic part-select of the whole NR*RW-bit vector with a 32-bit offset, for which Yosys
  // builds shifters over all of it and does not finish (docs/results/area.md "The chaining
  // state"). The readers name row_q directly rather than taking it as
  // an argument: Verilator copies a function's arguments, and a copy of all NR*RW bits per
  // call would dominate the simulation of large networks (docs/results/bench.md "RTL
  // simulation speed").
  // row ix (NR:1 multiplexer)
  function automatic [RW-1:0] row_rd(input logic [RXW-1:0] ix);
    row_rd = '0;
    for (int r = 0; r < NR; r++)
      if (ix == RXW'(r)) row_rd = row_q[RW*r +: RW];
  endfunction
  // the completed prefix (pwm) of row ix: the same multiplexer, 32 bits wide
  function automatic [31:0] pwm_rd(input logic [RXW-1:0] ix);
    pwm_rd = '0;
    for (int r = 0; r < NR; r++)
      if (ix == RXW'(r)) pwm_rd = row_q[RW*r + 32 +: 32];
  endfunction
  // pb of row (f, k) (a MaxFlows:1 multiplexer)
  function automatic [31:0] pb_rd(input logic [FW-1:0] f, input int k);
    pb_rd = '0;
    for (int g = 0; g < CF; g++)
      if (f == FW'(g)) pb_rd = row_q[RW*(g*NC+k) +: 32];
  endfunction
  // the row of flow f, child position p (positions >= NC use 0, as flows >= MaxFlows use 0)
  function automatic [RXW-1:0] row_ix(input logic [FW-1:0] f, input logic [3:0] p);
    row_ix = RXW'(32'(f) * NC + ((32'(p) < NC) ? 32'(p) : 0));
  endfunction

  // a chained packet [lo, lo+len) of a child done: its bytes, its completed prefix (merged
  // with the ranges it reaches), or a range kept beyond the prefix (cmodel chain_done)
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

  // The chain logic below is combinational (one always_comb over all rows and engines in a
  // clocked process keeps Yosys' PROC passes busy for minutes) and follows the node's
  // memory-port inputs through the engines' completions, so Verilator evaluates it several
  // times per cycle: it reads rows only for an engine that completes a chained packet in
  // this cycle (or a message, for pb), and writes rows only when one does, so that in most
  // evaluations it is a few tests (docs/results/bench.md "RTL simulation speed").
  if (Chain != 0) begin : g_chain
    // the rows the engines read: continuous assignments (as combinational processes Yosys'
    // PROC_MUX takes minutes over these multiplexers), and only for an engine that
    // completes a chained packet (rows) or anything (pb) in this cycle, so that Verilator's
    // repeated evaluations are cheap in the other cycles
    logic [NE*RXW-1:0]   ix;
    logic [NE*RW-1:0]    rrd;
    logic [NE*NC*32-1:0] prd;
    for (genvar e = 0; e < NE; e++) begin : g_rd
      logic [FW-1:0] f;
      assign f = fidx(done_flow_i[12*e +: 12]);
      assign ix[RXW*e +: RXW] = row_ix(f, done_pos_i[4*e +: 4]);
      assign rrd[RW*e +: RW]  = (done_i[e] && done_pk_i[e]) ? row_rd(ix[RXW*e +: RXW]) : '0;
      for (genvar k = 0; k < NC; k++) begin : g_pb
        // pb of row (f, k): a MaxFlows:1 multiplexer
        assign prd[32*(NC*e+k) +: 32] = done_i[e] ? pb_rd(f, k) : '0;
      end
    end
    // engine by engine, the rows of earlier engines of this edge forwarded
    always_comb begin
      logic [NE-1:0]       d;
      logic [NE*RW-1:0]    ro;
      logic [NE*NC*32-1:0] pf;
      logic [RW-1:0]       rin;
      logic [31:0]         pbk;
      d   = '0;
      ro  = '0;
      pf  = '0;
      rin = '0;
      pbk = '0;
      for (int e = 0; e < NE; e++) begin
        d[e] = done_i[e] && done_pk_i[e];
        if (d[e]) begin
          rin = rrd[RW*e +: RW];
          for (int e2 = 0; e2 < NE; e2++)
            if (e2 < e && d[e2] && ix[RXW*e2 +: RXW] == ix[RXW*e +: RXW]) rin = ro[RW*e2 +: RW];
          ro[RW*e +: RW] = chain_row(rin, done_lo_i[32*e +: 32], done_len_i[32*e +: 32]);
        end
        if (done_i[e])
          for (int k = 0; k < NC; k++) begin
            pbk = prd[32*(NC*e+k) +: 32];
            for (int e2 = 0; e2 < NE; e2++)
              if (e2 <= e && d[e2] && ix[RXW*e2 +: RXW] == row_ix(fidx(done_flow_i[12*e +: 12]), 4'(k)))
                pbk = ro[RW*e2 +: 32];
            pf[32*(NC*e+k) +: 32] = pbk;
          end
      end
      pkd  = d;
      rout = ro;
      pbf  = pf;
    end
    assign rix = ix;
  end else begin : g_plain_rows
    assign pkd   = '0;
    assign rix   = '0;
    assign rout  = '0;
    assign pbf   = '0;
  end

  // the engines' events, in engine order (cmodel mt_ni_deps_update)
  logic [MaxFlows*CntW-1:0] cnt_d;
  logic [MaxFlows*32-1:0]   rxb_d;
  logic [MaxFlows-1:0]      grx_d;
  logic [CF*CntW-1:0]       act_d;
  always_comb begin
    logic [FW-1:0]   df;
    logic [31:0]     size;
    logic [CntW-1:0] c;
    // the chained flow's index (narrow, as every index here): always 0 without chaining
    logic [CFW-1:0]  cf;
    df    = '0;
    size  = '0;
    c     = '0;
    cf    = '0;
    cnt_d = cnt_q;
    rxb_d = rxb_q;
    grx_d = grx_q;
    act_d = act_q;
    for (int e = 0; e < NE; e++) begin
      df   = fidx(done_flow_i[12*e +: 12]);
      cf   = (Chain != 0) ? CFW'(df) : '0;
      size = done_size_i[32*e +: 32];
      if (Chain != 0 && go_i[e]) begin
        // a unit of child k admitted: children up to k have started
        c = CntW'(go_pos_i[4*e +: 4]) + 1'b1;
        if (go_act_i[e] && act_d[CntW*cf +: CntW] < c) act_d[CntW*cf +: CntW] = c;
      end else if (done_i[e] && (Chain == 0 || !done_pk_i[e]) && rxb_d[32*df +: 32] + done_len_i[32*e +: 32] != size) begin
        rxb_d[32*df +: 32] = rxb_d[32*df +: 32] + done_len_i[32*e +: 32];
      end else if (done_i[e]) begin
        // a message (or its last packet) complete, or (Chain) a chained packet: the child's
        // dependency clears when its packets or message are all in, children in order
        if (Chain == 0 || !done_pk_i[e]) begin
          rxb_d[32*df +: 32] = '0;
          if (done_op_i[2*e +: 2] == 2'd1) cnt_d[CntW*df +: CntW] = cnt_d[CntW*df +: CntW] + 1'b1;
          else grx_d[df] = 1'b1;
        end
        if (Chain != 0 && (done_pk_i[e] || done_op_i[2*e +: 2] == 2'd1)) begin
          for (int k = 0; k < NC; k++)
            if (32'(cnt_d[CntW*df +: CntW]) == k && pbf[32*(NC*e+k) +: 32] == size)
              cnt_d[CntW*df +: CntW] = CntW'(k + 1);
          if (act_d[CntW*cf +: CntW] < cnt_d[CntW*df +: CntW]) act_d[CntW*cf +: CntW] = cnt_d[CntW*df +: CntW];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rv_q <= '0; gv_q <= '0; root_q <= '0; grx_q <= '0; rdone_q <= '0;
      ridx_q <= '0; gidx_q <= '0; cnt_q <= '0; rxb_q <= '0;
      act_q <= '0;
      for (int r = 0; r < NR; r++) row_q[RW*r +: RW] <= '0;
    end else if (clear_i) begin
      rv_q <= '0; gv_q <= '0; root_q <= '0; grx_q <= '0; rdone_q <= '0;
      ridx_q <= '0; gidx_q <= '0; cnt_q <= '0; rxb_q <= '0;
      act_q <= '0;
      for (int r = 0; r < NR; r++) row_q[RW*r +: RW] <= '0;
    end else begin
      if (scan_i && scan_op_i == 2'd1) begin
        rv_q[sf]               <= 1'b1;
        ridx_q[TIW*sf +: TIW]  <= scan_idx_i;
        root_q[sf]             <= !scan_pv_i;
      end
      if (scan_i && scan_op_i == 2'd2 && scan_pv_i && !gv_q[sf]) begin
        gv_q[sf]              <= 1'b1;
        gidx_q[TIW*sf +: TIW] <= scan_idx_i;
      end
      if (rdone_i) rdone_q[rf] <= 1'b1;
      cnt_q <= cnt_d;
      rxb_q <= rxb_d;
      grx_q <= grx_d;
      act_q <= act_d;
      // a row changes only when an engine completed a packet of it at this edge (the last
      // such engine wins): written here, at the edge, rather than as a next-state vector of
      // all NR rows, which Verilator would re-evaluate with every change of the node's inputs
      for (int e = 0; e < NE; e++)
        if (pkd[e])
          for (int r = 0; r < NR; r++)
            if (rix[RXW*e +: RXW] == RXW'(r)) row_q[RW*r +: RW] <= rout[RW*e +: RW];
    end
  end

  assign a_rv_o    = rv_q[af];
  assign a_cnt_o   = cnt_q[CntW*af +: CntW];
  assign a_grx_o   = grx_q[af];
  assign a_rdone_o = rdone_q[af];
  for (genvar e = 0; e < NE; e++) begin : g_b
    logic [FW-1:0] bf;
    assign bf = fidx(b_flow_i[12*e +: 12]);
    assign b_rv_o[e]                = rv_q[bf];
    assign b_ridx_o[TIW*e +: TIW]   = ridx_q[TIW*bf +: TIW];
    assign b_gv_o[e]                = gv_q[bf];
    assign b_gidx_o[TIW*e +: TIW]   = gidx_q[TIW*bf +: TIW];
    assign b_root_o[e]              = root_q[bf];
    assign b_cnt_o[CntW*e +: CntW]  = cnt_q[CntW*bf +: CntW];
    assign b_grx_o[e]               = grx_q[bf];
    if (Chain != 0) begin : g_chain
      assign b_act_o[CntW*e +: CntW] = act_q[CntW*bf +: CntW];
      assign b_pwm_o[32*e +: 32]     = pwm_rd(row_ix(bf, b_pos_i[4*e +: 4]));
    end else begin : g_plain
      logic unused_pos;
      assign unused_pos = ^b_pos_i[4*e +: 4];
      assign b_act_o[CntW*e +: CntW] = '0;
      assign b_pwm_o[32*e +: 32]     = '0;
    end
  end
  if (Chain == 0) begin : g_nochain
    logic unused_chain;
    assign unused_chain = ^{go_i, go_act_i, go_pos_i, done_pk_i, done_pos_i, done_lo_i, act_q, row_q, pkd, rix, rout, pbf};
  end

  always_comb begin
    all_gathers_o = 1'b1;
    for (int f = 0; f < MaxFlows; f++)
      if (f < 32'(nflows_i) && !root_q[f] && !grx_q[f]) all_gathers_o = 1'b0;
  end
endmodule
