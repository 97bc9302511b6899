// SPDX-License-Identifier: Apache-2.0
// mt_ni_depktz: a receive engine (depacketiser + reduction); mt_ni has RxEngines of them.
// The engine serves Ses = L*NumVcs/Engines ejection streams (FIFOs), numbered 0..Ses-1 in its
// own list (mt_ni maps them to the streams (port, VC), docs/reference/ni.md "Bandwidth"). One message
// (or packet) at a time:
//  IDLE  picks the first non-empty stream from rr (round robin); its front must be a head
//        (else error RX_FRAME) -> LOAD (mt_ni_deps reads the flow's entry indices from RAM).
//  LOAD  reads the flow's table entry on port B (Reduce entry, or the Gather entry with a
//        Parent for a Gather) -> LOOK.
//  LOOK  checks the head against the entry and the dependency state: unexpected op/flow
//        (RX_FLOW), sender not a Child / not the Parent (RX_SRC), addr/len outside the chunk
//        (RX_RANGE); a Reduce from Child k is due when k == cnt (Children order), a Gather
//        when not yet received. Due: pop the head -> BUSY. Not due: back to IDLE, rr = s+1
//        (the message waits in its FIFO).
//  BUSY  Reduce: per payload flit, pop it with a read of the running sum (acc) at the same
//        address (at most RQ flits in flight, counted from the read's grant to the sum's
//        write, so the adder's registers need no room of their own), add acc + incoming in
//        mt_reduce_alu (1 + AluPipe cycles), queue the result, write it back. Gather: write
//        each flit. Flit types are checked (RX_FRAME). When all flits are written (and, with a write port of its own,
//        the last write accepted: wfree_i): done_o (mt_ni_deps counts the bytes and clears
//        the sender's dependency; such a done waits for the deps write port, dgnt_i, one
//        engine per edge) -> IDLE, rr = s+1.
// Chained reduction (ReduceChain with Engines > 1, docs/reference/ni.md "Chained reduction"): a whole
// message of child k may start while child k-1's is added by another engine (its
// predecessor engine pe, from the peers' state pr_*_i), reading flit j only once pe's write
// of flit j was accepted (pe's wa > j) or k's turn has come (cnt == k), and finishing only
// once cnt == k; a packet of child k may start once k-1 started (act), if no child in
// between arrives on a port of its engine group (and, with Engines < L, once k-1's completed
// prefix covers it), each flit waiting for k-1's completed prefix (pwm: the engine's working
// register in mt_ni_chain; while it does not hold k-1's row the engine asks for it and waits,
// in LOOK without leaving it, docs/reference/ni.md "State in RAM"). A chained packet completes
// only while the chain unit's FIFO has room (room_i).
// Stager (Stage = 1, mt_ni_stage; docs/reference/ni.md "Staging not-due units"): list entry S-1 is the
// replay stream R (offered by the stager, no credits); a unit from R is admitted only when
// strictly due (child cnt); with staging on (sgon_i) a not-due Reduce unit of a child that
// has not started (k > cnt, k >= act), not from R, whose range fits (fits_i), and no lower
// engine staging one at this edge (claim_in_i), is admitted as a staging write: written as a
// Gather at stage_base + k * stage_slot + its address; its completion goes to the stager,
// not to mt_ni_deps. A chained packet never waits behind a child with staged units.
// Memory: a read request (rd_o: the running sum of the next flit) and a write request (wr_o:
// a sum or a gathered flit), granted separately (gnt_rd_i, gnt_wr_i; on a port shared with
// others mt_ni_mports grants the write first, with separate read and write ports both at
// once).
`default_nettype none

module mt_ni_depktz #(
  parameter int L        = 4,
  parameter int NumVcs   = 2,
  parameter int PayloadW = 128,
  parameter int RQ       = 4,
  parameter int MaxFlows = 16,
  parameter int TIW      = 6,
  parameter int CntW     = 4,
  parameter int Children = 4,
  parameter int Engines  = 1,      // receive engines of the NI: this one serves S / Engines streams
  parameter int Eng      = 0,      // this engine's index
  parameter int ReduceChain = 0,   // chained reduction (with Engines > 1)
  parameter int PortW    = 3,      // table port field: all ones = routed slot
  parameter int PerturbChain = 0,  // test only: 1 = a chained message reads the running sum
                                   // without waiting for its predecessor's writes (wrong)
  parameter int Stage    = 0,      // the NI has a stager (mt_ni_stage): list entry S-1 is its
                                   // replay stream R; not-due units may be staged out
  parameter int AluPipe  = 0,      // registers inside the adder (mt_reduce_alu Pipe)
  parameter int PerturbPick = 0,   // test only: the pick made a cycle ahead ignores the edge's
                                   // FIFO writes (1) or the round robin's move (2) (wrong)
  localparam int Lanes   = PayloadW / 32,
  localparam int FB      = PayloadW / 8,
  localparam int LgFb    = $clog2(FB),
  localparam int FlitW   = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int S       = L * NumVcs / Engines + Stage,
  localparam int SW      = mt_common_pkg::idx_w(S),
  localparam int RqW     = mt_common_pkg::idx_w(RQ),
  localparam int RqCW    = $clog2(RQ + 1),
  localparam int EW      = mt_common_pkg::idx_w(Engines)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   clear_i,
  input  logic                   run_i,
  input  logic                   dtype_i,
  input  logic [11:0]            nflows_i,
  // ejection FIFOs (this engine's streams, in its list order)
  input  logic [S-1:0]           nonempty_i,
  input  logic [S-1:0]           nonempty_nx_i,   // ... after this edge, not popped at it
  input  logic [S-1:0]           nonempty_nxp_i,  // ... after this edge, popped at it
  input  logic [FlitW-1:0]       front_i,
  output logic [SW-1:0]          sel_o,
  output logic                   pop_o,
  output logic [SW-1:0]          pop_s_o,
  // dependency state, read port B (flow b_flow_o)
  output logic [11:0]            b_flow_o,
  input  logic                   b_rv_i,
  input  logic [TIW-1:0]         b_ridx_i,
  input  logic                   b_gv_i,
  input  logic [TIW-1:0]         b_gidx_i,
  input  logic                   b_root_i,
  input  logic [CntW-1:0]        b_cnt_i,
  input  logic                   b_grx_i,
  // table port B: address for the next edge, decoded entry of the last one
  output logic [TIW-1:0]         rb_o,
  input  logic [Children*12-1:0] eb_cnode_i,
  input  logic [3:0]             eb_nchild_i,
  input  logic [Children*4-1:0]  eb_cport_i,
  input  logic [Children*4-1:0]  eb_cej_i,
  input  logic [11:0]            eb_pnode_i,
  input  logic [31:0]            eb_addr_i,
  input  logic [31:0]            eb_size_i,
  // chained reduction: flow state (mt_ni_deps port B), the peers' state, this engine's
  input  logic [CntW-1:0]        b_act_i,
  output logic [3:0]             b_pos_o,     // child position of b_pwm_i
  input  logic [31:0]            b_pwm_i,     // its completed prefix (the engine's working
  input  logic                   b_pwv_i,     // register in mt_ni_chain, when it holds the row)
  output logic                   pw_req_o,    // the row is needed and not held: load it
  input  logic                   room_i,      // a chained packet may complete at this edge
  input  logic [Engines-1:0]     pr_cw_i,     // engine adds a whole Reduce message ...
  input  logic [Engines*12-1:0]  pr_flow_i,   // ... of this flow ...
  input  logic [Engines*4-1:0]   pr_cpos_i,   // ... from this child position ...
  input  logic [Engines*32-1:0]  pr_wa_i,     // ... and has this many writes accepted
  output logic                   cw_o,
  output logic [3:0]             cpos_o,
  output logic [31:0]            wa_o,
  input  logic                   wacc_i,      // a write of this engine accepted at this edge
  output logic                   go_act_o,    // look_go_o starts child position go_pos_o
  output logic [3:0]             go_pos_o,
  output logic                   done_pk_o,   // done_o: a chained packet of done_pos_o ...
  output logic [3:0]             done_pos_o,
  output logic [31:0]            done_lo_o,   // ... at this offset in the chunk
  // completion (one that counts bytes, dreq_o, needs the deps write port: dgnt_i)
  output logic                   dreq_o,
  input  logic                   dgnt_i,
  output logic                   done_o,
  output logic [11:0]            done_flow_o,
  output logic [1:0]             done_op_o,
  output logic [31:0]            done_len_o,
  output logic [31:0]            done_size_o,
  // memory (mt_ni_mports): reads of the running sum, writes of sums / gathered flits
  output logic                   rd_o,
  output logic [31:0]            rd_addr_o,
  output logic [Lanes-1:0]       rd_be_o,
  input  logic                   gnt_rd_i,
  output logic                   wr_o,
  output logic [31:0]            wr_addr_o,
  output logic [Lanes-1:0]       wr_be_o,
  output logic [PayloadW-1:0]    wr_data_o,
  input  logic                   gnt_wr_i,
  input  logic                   wfree_i,    // the write port holds no request after this edge
  input  logic                   rsp_i,
  input  logic [PayloadW-1:0]    rsp_data_i,
  // status
  output logic [mt_common_pkg::NI_ERR_W-1:0]             err_o,      // error raised this cycle (0 = none)
  output logic                   look_go_o,
  output logic                   idle_o,
  // stager (Stage = 1; mt_ni_stage): stage out not-due units, replay stream R = entry S-1
  input  logic                   sgon_i,      // staging is on
  input  logic                   claim_in_i,  // a lower engine stages a unit out at this edge
  input  logic                   fits_i,      // the unit in LOOK may be staged (its ranges)
  input  logic [Children-1:0]    staged_i,    // child slots of flow_q with staged units
  input  logic [31:0]            stage_base_i,
  input  logic [31:0]            stage_slot_i,
  output logic                   look_wait_o, // LOOK: not due, waits
  output logic                   look_stg_o,  // LOOK: staged out instead (look_go_o too)
  output logic                   stg_o,       // BUSY with a staging write
  output logic                   on_r_o,      // LOOK or BUSY on the replay stream
  output logic                   on_r_next_o, // ... after this edge
  output logic                   pick_r_o,    // IDLE: picks the replay stream at this edge
  output logic [11:0]            src_o,
  output logic [31:0]            addr_o
);
  initial begin
    if (RQ < 1) $fatal(1, "mt_ni_depktz: RQ=%0d", RQ);
    if (MaxFlows < 1) $fatal(1, "mt_ni_depktz: MaxFlows=%0d", MaxFlows);
    if (Engines < 1) $fatal(1, "mt_ni_depktz: Engines=%0d", Engines);  // the allowed set: mt_ni
    if (PerturbPick < 0 || PerturbPick > 2) $fatal(1, "mt_ni_depktz: PerturbPick=%0d", PerturbPick);
  end
  localparam logic [1:0] StIdle = 2'd0, StLook = 2'd1, StBusy = 2'd2, StLoad = 2'd3;
  localparam bit Ch = (ReduceChain != 0) && (Engines > 1);
  localparam logic [3:0] All1 = 4'((1 << PortW) - 1);

  logic [1:0]       st_q;
  logic [SW-1:0]    s_q, rr_q;
  logic [1:0]       op_q;
  logic             normal_q;
  logic [11:0]      flow_q, src_q;
  logic [31:0]      addr_q, len_q, size_q, nfl_q, popj_q, wj_q;
  logic [RqCW-1:0]  infl_q;
  logic [Lanes-1:0] lastmask_q;
  logic [TIW-1:0]   rb_q;
  // the in-flight flits (inq: incoming payload waiting for its running sum) and the sums
  // waiting for their write (wq): RQ-entry FIFOs in mt_ni_ram, each read at the index its head
  // has after the edge (the bypass forwards a word written there at the same edge), so that
  // its output is the head word as a combinational read of a register array would give
  logic [PayloadW-1:0] inq_head, wq_head;
  logic [RqW-1:0]   inq_rd_q, wq_rd_q;
  logic [RqCW-1:0]  inq_cnt_q, wq_cnt_q;
  // chained reduction: child position, chained behind engine pe_q, writes accepted, a whole
  // message / a chained packet, the chunk's address
  logic [3:0]       cpos_q;
  logic [EW-1:0]    pe_q;
  logic [31:0]      wa_q, cbase_q;
  logic             chn_q, whole_q, pk_q;
  logic             stg_q;      // a not-due unit staged out (written as a gather, at an offset)
  assign stg_o = stg_q;

  function automatic [Lanes-1:0] mask_of(input logic [31:0] j, input logic [31:0] nfl, input logic [Lanes-1:0] lm);
    mask_of = (j + 32'd1 == nfl) ? lm : '1;
  endfunction
  function automatic [Lanes-1:0] last_mask(input logic [31:0] len);
    logic [31:0] r;
    r = (len - 32'd1) & 32'(FB - 1);
    for (int k = 0; k < Lanes; k++) last_mask[k] = (32'(k) <= (r >> 2));
  endfunction
  function automatic [RqW-1:0] wrap(input logic [31:0] x);
    wrap = (x >= 32'(RQ)) ? RqW'(x - 32'(RQ)) : RqW'(x);
  endfunction
  function automatic [SW-1:0] next_s(input logic [SW-1:0] x);
    next_s = (32'(x) + 32'd1 >= 32'(S)) ? '0 : x + 1'b1;
  endfunction
  function automatic logic is_head(input logic [2:0] t);
    is_head = (t == mt_common_pkg::FT_AR_HEAD) || (t == mt_common_pkg::FT_HEAD) || (t == mt_common_pkg::FT_HEADTAIL);
  endfunction
  function automatic logic is_tail(input logic [2:0] t);
    is_tail = (t == mt_common_pkg::FT_AR_TAIL) || (t == mt_common_pkg::FT_TAIL) || (t == mt_common_pkg::FT_HEADTAIL);
  endfunction
  // ejection ports p and q share an engine iff their groups are equal (Engines < L: engine e
  // serves ports e, e+Engines, ...; else every port has engines of its own)
  function automatic [3:0] port_group(input logic [3:0] p);
    port_group = (Engines < L) ? 4'(32'(p) % Engines) : p;
  endfunction

  // ---- idle: pick the first non-empty stream from rr ----
  // {found, stream}: the first stream of ne from `from` on, round robin
  function automatic [SW:0] rr_pick(input logic [S-1:0] ne, input logic [SW-1:0] from);
    logic [31:0] i;
    rr_pick = '0;
    for (int k = 0; k < S; k++) begin
      i = 32'(from) + 32'(k);
      if (i >= 32'(S)) i = i - 32'(S);
      if (!rr_pick[SW] && ne[i[SW-1:0]]) rr_pick = {1'b1, i[SW-1:0]};
    end
  endfunction
  logic          pick_any;
  logic [SW-1:0] pick;     // (with Stage = 0 from a register: g_pick_ahead below)
  assign sel_o = (st_q == StIdle) ? pick : s_q;

  logic [2:0]  fty;
  assign fty = front_i[PayloadW +: mt_common_pkg::FT_W];
  logic unused_vc;
  assign unused_vc = ^front_i[FlitW-1:PayloadW+mt_common_pkg::FT_W];
  if (Stage == 0) begin : g_nostage
    logic unused_stage;
    assign unused_stage = ^{sgon_i, claim_in_i, fits_i, staged_i, stage_base_i, stage_slot_i};
  end
  // head fields of the front flit
  logic [11:0] h_flow, h_src;
  logic [1:0]  h_op;
  assign h_src  = front_i[mt_common_pkg::HD_SRC_LSB +: mt_common_pkg::HD_SRC_W];
  assign h_flow = front_i[mt_common_pkg::HD_FLOW_LSB +: mt_common_pkg::HD_FLOW_W];
  assign h_op   = front_i[mt_common_pkg::HD_OP_LSB +: mt_common_pkg::HD_OP_W];

  logic idle_pick, idle_bad;
  assign idle_pick = run_i && (st_q == StIdle) && pick_any && is_head(fty);
  assign idle_bad  = run_i && (st_q == StIdle) && pick_any && !is_head(fty);
  assign b_flow_o  = (st_q == StIdle) ? h_flow : flow_q;

  // ---- look-up ----
  // the sender's child position k in the Reduce entry
  logic       found;
  logic [3:0] k;
  always_comb begin
    logic f;
    logic [3:0] kk;
    f = 1'b0;
    kk = '0;
    for (int c = 0; c < Children; c++)
      if (!f && 4'(c) < eb_nchild_i && eb_cnode_i[12*c +: 12] == src_q) begin
        f = 1'b1;
        kk = 4'(c);
      end
    found = f;
    k = kk;
  end
  logic whole_d;     // the unit is the whole chunk (a message, not a packet)
  assign whole_d = (addr_q == eb_addr_i) && (len_q == eb_size_i);
  // the predecessor's completed prefix: of child k-1 in LOOK, cpos-1 in BUSY
  assign b_pos_o = (st_q == StLook) ? ((k != '0) ? k - 1'b1 : '0) : ((cpos_q != '0) ? cpos_q - 1'b1 : '0);

  logic [3:0]    look_code;
  logic          look_wait, look_go, look_hold, pe_found, stg;
  logic [EW-1:0] pe;
  // evaluated only in LOOK (all zero otherwise), so that the Verilated model skips it then
  always_comb begin
    logic ok, pf;
    logic [EW-1:0] pi;
    look_code = mt_common_pkg::NI_E_NONE;
    look_wait = 1'b0;
    look_hold = 1'b0;
    pf        = 1'b0;
    pi        = '0;
    ok        = 1'b0;
    stg       = 1'b0;
    if (run_i && st_q == StLook) begin
      if ((op_q != mt_common_pkg::OP_REDUCE && op_q != mt_common_pkg::OP_GATHER) || flow_q >= nflows_i || 32'(flow_q) >= MaxFlows || !b_rv_i ||
          (op_q == mt_common_pkg::OP_GATHER && b_root_i))
        look_code = mt_common_pkg::NI_E_RX_FLOW;
      else if (op_q == mt_common_pkg::OP_REDUCE) begin
        if (!found) look_code = mt_common_pkg::NI_E_RX_SRC;
        else if (Ch && !whole_d) begin
          // a packet of child k: child cnt's at once; k > cnt once k-1 started, if no child in
          // between arrives through a port of k's engine group (none routed): a waiting packet
          // never holds the engine its predecessors need; with Engines < L only once k-1's
          // completed prefix covers it (two flows could otherwise wait on each other)
          ok = (32'(k) >= 32'(b_cnt_i)) && (32'(k) <= 32'(b_act_i));
          for (int j = 0; j < Children; j++)
            if (j >= 32'(b_cnt_i) && j < 32'(k) &&
                (port_group(eb_cej_i[4*j +: 4]) == port_group(eb_cej_i[4*k +: 4]) ||
                 eb_cport_i[4*j +: 4] == All1 || eb_cport_i[4*k +: 4] == All1)) ok = 1'b0;
          // stager: never chained behind a child with staged units (their data come back only
          // through the one replay stream, when due)
          for (int j = 0; j < Children; j++)
            if (Stage != 0 && j >= 32'(b_cnt_i) && j < 32'(k) && staged_i[j]) ok = 1'b0;
          // k-1's completed prefix: held until the working register holds its row
          if (ok && Engines < L && 32'(k) > 32'(b_cnt_i)) begin
            if (!b_pwv_i) look_hold = 1'b1;
            else if (b_pwm_i < addr_q - eb_addr_i + len_q) ok = 1'b0;
          end
          look_wait = !ok;
        end else if (32'(k) == 32'(b_cnt_i) && (!Ch || 32'(b_act_i) <= 32'(b_cnt_i))) begin
          // its turn
        end else if (Ch && 32'(k) == 32'(b_act_i) && 32'(k) > 32'(b_cnt_i)) begin
          // a whole message chained behind child k-1's, which another engine adds now
          for (int e2 = 0; e2 < Engines; e2++)
            if (!pf && e2 != Eng && pr_cw_i[e2] && pr_flow_i[12*e2 +: 12] == flow_q &&
                32'(pr_cpos_i[4*e2 +: 4]) + 1 == 32'(k)) begin
              pf = 1'b1;
              pi = EW'(e2);
            end
          look_wait = !pf;
        end else look_wait = 1'b1;
      end else begin
        if (b_gv_i && eb_pnode_i != src_q) look_code = mt_common_pkg::NI_E_RX_SRC;
        else if (b_grx_i) look_wait = 1'b1;
      end
      if (look_code == mt_common_pkg::NI_E_NONE && (len_q == 32'd0 || len_q[1:0] != 2'd0 || addr_q < eb_addr_i ||
          {1'b0, addr_q} + {1'b0, len_q} > {1'b0, eb_addr_i} + {1'b0, eb_size_i}))
        look_code = mt_common_pkg::NI_E_RX_RANGE;
      if (Stage != 0 && look_code == mt_common_pkg::NI_E_NONE) begin
        // a replayed unit only when strictly due (child cnt, never chained ahead): the one
        // replay stream must never wait in BUSY
        if (!look_wait && s_q == SW'(S - 1) && 32'(k) != 32'(b_cnt_i)) begin
          look_wait = 1'b1;
          pf        = 1'b0;
        end
        // a reduce unit of a child that has not started is staged out instead of waiting
        // (one per edge: claim_in_i; never a replay)
        if (look_wait && sgon_i && !claim_in_i && op_q == mt_common_pkg::OP_REDUCE && 32'(k) > 32'(b_cnt_i) &&
            (!Ch || 32'(k) >= 32'(b_act_i)) && s_q != SW'(S - 1) && fits_i) begin
          look_wait = 1'b0;
          stg       = 1'b1;
        end
      end
      if (look_code != mt_common_pkg::NI_E_NONE) look_wait = 1'b0;
      if (look_code != mt_common_pkg::NI_E_NONE || look_wait) look_hold = 1'b0;
    end
    pe_found = pf;
    pe       = pi;
  end
  assign look_go   = run_i && (st_q == StLook) && (look_code == mt_common_pkg::NI_E_NONE) && !look_wait && !look_hold;
  assign look_go_o = look_go;
  assign look_wait_o = look_wait;
  assign look_stg_o  = stg;
  assign on_r_o      = Stage != 0 && st_q != StIdle && s_q == SW'(S - 1);
  assign pick_r_o    = Stage != 0 && run_i && st_q == StIdle && pick_any && pick == SW'(S - 1);
  assign src_o       = src_q;
  assign addr_o      = addr_q;

  // ---- busy: payload flits ----
  logic rx_busy, front_v, front_bad, pop_ok, rx_wr, rx_rd;
  assign rx_busy   = run_i && (st_q == StBusy);
  assign front_v   = (st_q == StBusy) && nonempty_i[s_q];
  assign front_bad = front_v && (popj_q < nfl_q) &&
                     (is_head(fty) || fty[2] != normal_q || is_tail(fty) != (popj_q + 32'd1 == nfl_q));
  assign pop_ok    = front_v && (popj_q < nfl_q) && !front_bad;
  assign rx_wr     = rx_busy && ((op_q == mt_common_pkg::OP_REDUCE) ? (wq_cnt_q != '0) : pop_ok);
  // chained: flit popj of child k is read only after child k-1 wrote it (or finished); a
  // chained packet's flit waits for k-1's completed prefix to cover it (and for the working
  // register to hold k-1's row: pw_busy)
  logic chain_rd_ok, pw_busy;
  assign pw_busy     = rx_busy && Ch && pk_q && 32'(cpos_q) > 32'(b_cnt_i) && !b_pwv_i;
  assign pw_req_o    = pw_busy || look_hold;
  assign chain_rd_ok = !(Ch && PerturbChain == 0 && chn_q && 32'(cpos_q) != 32'(b_cnt_i) && pr_wa_i[32*pe_q +: 32] <= popj_q) &&
                       !(Ch && pk_q && 32'(cpos_q) > 32'(b_cnt_i) && (!b_pwv_i || b_pwm_i <= addr_q - cbase_q + (popj_q << LgFb)));
  assign rx_rd     = rx_busy && (op_q == mt_common_pkg::OP_REDUCE) && pop_ok && (32'(infl_q) < 32'(RQ)) && chain_rd_ok;
  assign rd_o      = rx_rd;
  assign rd_addr_o = addr_q + (popj_q << LgFb);
  assign rd_be_o   = mask_of(popj_q, nfl_q, lastmask_q);
  assign wr_o      = rx_wr;
  // a staging write goes to its child slot's place in the staging area
  assign wr_addr_o = addr_q + (wj_q << LgFb) + (stg_q ? stage_base_i + 32'(cpos_q) * stage_slot_i : 32'd0);
  assign wr_be_o   = mask_of(wj_q, nfl_q, lastmask_q);
  assign wr_data_o = (op_q == mt_common_pkg::OP_REDUCE) ? wq_head : front_i[PayloadW-1:0];

  logic rx_done, done_want;
  assign done_want   = rx_busy && (wj_q == nfl_q) && wfree_i && !(Ch && chn_q && 32'(cpos_q) != 32'(b_cnt_i)) &&
                       !(pk_q && !room_i);
  assign dreq_o      = done_want && !pk_q && !stg_q;
  assign rx_done     = done_want && (!dreq_o || dgnt_i);
  assign done_o      = rx_done;
  // (the C model's stager update reads the engines' new state: mt_ni_stage_update after
  // mt_ni_depktz_update)
  assign on_r_next_o = !clear_i && (idle_pick ? (Stage != 0 && pick == SW'(S - 1)) :
                                    (st_q == StLook && run_i && look_wait) ? 1'b0 : rx_done ? 1'b0 : on_r_o);
  assign done_flow_o = flow_q;
  assign done_op_o   = op_q;
  assign done_len_o  = len_q;
  assign done_size_o = size_q;
  assign done_pk_o   = pk_q;
  assign done_pos_o  = cpos_q;
  assign done_lo_o   = addr_q - cbase_q;
  assign go_act_o    = Ch && (op_q == mt_common_pkg::OP_REDUCE) && !stg;
  assign go_pos_o    = k;
  assign cw_o        = (st_q == StBusy) && (op_q == mt_common_pkg::OP_REDUCE) && whole_q;
  assign cpos_o      = cpos_q;
  assign wa_o        = wa_q;
  assign idle_o      = (st_q == StIdle);

  always_comb begin
    err_o = mt_common_pkg::NI_E_NONE;
    if (rx_busy && front_v && popj_q < nfl_q && front_bad) err_o = mt_common_pkg::NI_E_RX_FRAME;
    else if (idle_bad) err_o = mt_common_pkg::NI_E_RX_FRAME;
    else if (look_code != mt_common_pkg::NI_E_NONE) err_o = look_code;
  end

  // the pick of IDLE. Without the stager it is made a cycle ahead and registered, so that the
  // FIFOs' counts and the round robin are off the path into the dependency state's read
  // address: the same pick, as the streams are this engine's alone and their state after the
  // edge is known before it. An engine IDLE after the edge is IDLE now (rr stays), in LOOK
  // without going on or done in BUSY (rr = s+1, nothing popped), or cleared (rr stays; LOOK's
  // head or a BUSY flit of stream s may be popped at the same edge: nonempty_nxp_i).
  if (Stage == 0) begin : g_pick_ahead
    logic [SW:0]  ahead_q, ahead_a, ahead_p, ahead_b;
    logic [S-1:0] ne_p;
    logic         rr_upd;
    logic [S-1:0] ne_n;
    assign ne_n = (PerturbPick == 1) ? nonempty_i : nonempty_nx_i;
    always_comb begin
      ne_p = ne_n;
      ne_p[s_q] = nonempty_nxp_i[s_q];
    end
    assign ahead_a = rr_pick(ne_n, rr_q);
    assign ahead_p = rr_pick(ne_p, rr_q);
    assign ahead_b = rr_pick(ne_n, next_s(s_q));
    assign rr_upd = PerturbPick != 2 && ((st_q == StLook && run_i && look_wait) || rx_done);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ahead_q <= '0;
      else ahead_q <= rr_upd ? ahead_b : pop_o ? ahead_p : ahead_a;
    end
    assign {pick_any, pick} = ahead_q;
  end else begin : g_pick_now
    assign {pick_any, pick} = rr_pick(nonempty_i, rr_q);
    logic unused_nx;
    assign unused_nx = ^{nonempty_nx_i, nonempty_nxp_i};
  end

  // pops: the head when due, payload flits with their memory request
  logic gnt_rd, gnt_wr, pop_payload;
  assign gnt_wr      = gnt_wr_i;
  assign gnt_rd      = gnt_rd_i;
  assign pop_payload = (gnt_rd) || (gnt_wr && op_q == mt_common_pkg::OP_GATHER);
  assign pop_o       = look_go || pop_payload;
  assign pop_s_o     = s_q;

  // table port B address: in LOAD, the entry index of the flow (mt_ni_deps' RAMs, read at the
  // pick's edge; an index of a flow without its entry is never written: 0, as after start)
  assign rb_o = (st_q == StLoad && run_i) ?
                ((op_q == mt_common_pkg::OP_GATHER && b_gv_i) ? b_gidx_i : b_rv_i ? b_ridx_i : '0) : rb_q;

  // ---- reduction unit ----
  logic                alu_v;
  logic [PayloadW-1:0] alu_sum;
  mt_reduce_alu #(.Lanes(Lanes), .Pipe(AluPipe)) u_alu (
    .clk_i, .rst_ni,
    .valid_i(rsp_i),
    .dtype_i(dtype_i),
    .a_i    (rsp_data_i),
    .b_i    (inq_head),
    .valid_o(alu_v),
    .sum_o  (alu_sum)
  );

  logic [RqW-1:0] inq_rd_n, wq_rd_n;   // the heads after the edge (as the block below sets them)
  assign inq_rd_n = clear_i ? '0 : rsp_i ? wrap(32'(inq_rd_q) + 32'd1) : inq_rd_q;
  assign wq_rd_n  = clear_i ? '0 : (gnt_wr && op_q == mt_common_pkg::OP_REDUCE) ? wrap(32'(wq_rd_q) + 32'd1) : wq_rd_q;
  mt_ni_ram #(.Depth(RQ), .Width(PayloadW), .Bypass(1)) u_inq (
    .clk_i,
    .we_i   (gnt_rd),
    .waddr_i(wrap(32'(inq_rd_q) + 32'(inq_cnt_q))),
    .wdata_i(front_i[PayloadW-1:0]),
    .re_i   (1'b1),
    .raddr_i(inq_rd_n),
    .rdata_o(inq_head)
  );
  mt_ni_ram #(.Depth(RQ), .Width(PayloadW), .Bypass(1)) u_wq (
    .clk_i,
    .we_i   (alu_v),
    .waddr_i(wrap(32'(wq_rd_q) + 32'(wq_cnt_q))),
    .wdata_i(alu_sum),
    .re_i   (1'b1),
    .raddr_i(wq_rd_n),
    .rdata_o(wq_head)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= StIdle; s_q <= '0; rr_q <= '0; op_q <= '0; normal_q <= 1'b0; flow_q <= '0;
      src_q <= '0; addr_q <= '0; len_q <= '0; size_q <= '0; nfl_q <= '0; popj_q <= '0;
      wj_q <= '0; infl_q <= '0; lastmask_q <= '0; rb_q <= '0;
      cpos_q <= '0; pe_q <= '0; wa_q <= '0; cbase_q <= '0; chn_q <= 1'b0; whole_q <= 1'b0; pk_q <= 1'b0;
      stg_q <= 1'b0;
      inq_rd_q <= '0; inq_cnt_q <= '0; wq_rd_q <= '0; wq_cnt_q <= '0;
    end else begin
      rb_q <= rb_o;
      // writes of this message accepted: one accepted while wa == wj is the previous
      // message's (one port: an engine can finish with its last write still held)
      if (wacc_i && wa_q < wj_q) wa_q <= wa_q + 32'd1;
      // memory grants (a read and a write may be granted at one edge on separate ports;
      // a Gather only writes)
      if (gnt_wr) wj_q <= wj_q + 32'd1;
      if (pop_payload) popj_q <= popj_q + 32'd1;
      infl_q <= infl_q + RqCW'(gnt_rd) - RqCW'(gnt_wr && op_q == mt_common_pkg::OP_REDUCE);
      if (gnt_wr && op_q == mt_common_pkg::OP_REDUCE) wq_rd_q <= wrap(32'(wq_rd_q) + 32'd1);
      wq_cnt_q  <= wq_cnt_q + RqCW'(alu_v) - RqCW'(gnt_wr && op_q == mt_common_pkg::OP_REDUCE);
      if (rsp_i) inq_rd_q <= wrap(32'(inq_rd_q) + 32'd1);
      inq_cnt_q <= inq_cnt_q + RqCW'(gnt_rd) - RqCW'(rsp_i);
      // state
      if (idle_pick) begin
        st_q <= StLoad; s_q <= pick; op_q <= h_op; flow_q <= h_flow; src_q <= h_src;
        addr_q <= front_i[mt_common_pkg::HD_ADDR_LSB +: mt_common_pkg::HD_ADDR_W]; len_q <= front_i[mt_common_pkg::HD_LEN_LSB +: mt_common_pkg::HD_LEN_W]; normal_q <= fty[2];
      end else if (st_q == StLoad && run_i) begin
        st_q <= StLook;
      end else if (st_q == StLook && run_i) begin
        if (look_go) begin
          st_q <= StBusy; size_q <= eb_size_i; stg_q <= stg;
          if (stg) op_q <= mt_common_pkg::OP_GATHER;
          nfl_q <= (len_q + 32'(FB - 1)) >> LgFb;
          lastmask_q <= last_mask(len_q);
          popj_q <= '0; wj_q <= '0; infl_q <= '0; wa_q <= '0;
          chn_q <= pe_found; pe_q <= pe;
          cpos_q <= (op_q == mt_common_pkg::OP_REDUCE) ? k : '0;
          whole_q <= whole_d;
          pk_q <= Ch && (op_q == mt_common_pkg::OP_REDUCE) && !whole_d && !stg;
          cbase_q <= eb_addr_i;
        end else if (look_wait) begin
          st_q <= StIdle; rr_q <= next_s(s_q);
        end
      end else if (rx_done) begin
        st_q <= StIdle; rr_q <= next_s(s_q);
      end
      if (clear_i) begin
        st_q <= StIdle; inq_cnt_q <= '0; inq_rd_q <= '0; wq_cnt_q <= '0; wq_rd_q <= '0;
      end
    end
  end
endmodule
