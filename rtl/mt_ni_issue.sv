// SPDX-License-Identifier: Apache-2.0
// mt_ni_issue: the NI's control (Fig. 6): start, start-up scan of the table, issue of the
// head entry, timestep and lockstep counters, END, errors and the watchdog.
//  SCAN  one entry per cycle from index 0: checks it (codes in docs/reference/ni.md) and records it
//        in mt_ni_deps; END -> RUN with timestep 1, head index 0.
//  RUN   head entry E (table port A, registered read of hp_d_o). Nothing while the lockstep
//        counter is non-zero. END -> FIN. E.step > timestep: advance the timestep when every
//        packetiser is idle. E.step == timestep: issue when the dependencies hold:
//          NOP     loads the lockstep counter with ceil(size / flit bytes);
//          Reduce  all Children aggregated (cnt == nchild); with a Parent it needs an idle
//                  packetiser (the lowest), without one (root) it completes (rdone);
//          Gather  Parent's gather received (or, at the root, rdone); one child per cycle
//                  to the lowest idle packetiser, the entry retires with its last child.
//  FIN   waits until packetisers, receive engine and memory port are idle and every flow
//        has its result (rooted here or gathered) -> DONE.
//  ERR   any error (first one kept, with the head index): no more issue, grants or flits.
// start_i is accepted when not busy, the memory port quiet and no table write that cycle.
`default_nettype none

module mt_ni_issue #(
  parameter int L        = 4,
  parameter int NetPorts = 4,
  parameter int PortW    = 3,
  parameter int Children = 4,
  parameter int Depth    = 64,
  parameter int MaxFlows = 16,
  parameter int PayloadW = 128,
  parameter int Compact  = 0,
  parameter int WdW      = 24,
  parameter int CntW     = 4,
  localparam int TIW     = mt_common_pkg::idx_w(Depth),
  localparam int LgFb    = $clog2(PayloadW / 8)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   start_i,
  input  logic                   tbl_we_i,
  input  logic [11:0]            nflows_i,
  input  logic [31:0]            wd_limit_i,
  // head entry (decoded table port A)
  input  logic [1:0]             e_op_i,
  input  logic [11:0]            e_flow_i,
  input  logic [15:0]            e_step_i,
  input  logic                   e_pv_i,
  input  logic [11:0]            e_pnode_i,
  input  logic [3:0]             e_pport_i,
  input  logic [3:0]             e_pej_i,
  input  logic [Children-1:0]    e_cv_i,
  input  logic [Children*12-1:0] e_cnode_i,
  input  logic [Children*4-1:0]  e_cport_i,
  input  logic [Children*4-1:0]  e_cej_i,
  input  logic [3:0]             e_nchild_i,
  input  logic                   e_gap_i,
  input  logic [31:0]            e_addr_i,
  input  logic [31:0]            e_size_i,
  output logic [TIW-1:0]         hp_d_o,        // table port A address
  output logic [11:0]            a_rflow_o,     // the flow of entry hp_d_o (port A's RAM reads)
  // dependency state (read port A at e_flow_i) and its updates
  input  logic                   a_rv_i,
  input  logic [CntW-1:0]        a_cnt_i,
  input  logic                   a_grx_i,
  input  logic                   a_rdone_i,
  input  logic                   all_gathers_i,
  output logic                   clear_o,       // start accepted
  output logic                   scan_rec_o,
  output logic [TIW-1:0]         scan_idx_o,
  output logic                   rdone_o,
  // packetisers
  input  logic [L-1:0]           tx_busy_i,
  output logic [L-1:0]           act_o,
  output logic [11:0]            act_node_o,
  output logic [3:0]             act_port_o,
  output logic [3:0]             act_ej_o,
  output logic                   act_routed_o,
  // others
  input  logic                   rx_idle_i,
  input  logic                   mem_quiet_i,
  input  logic [mt_common_pkg::NI_ERR_W-1:0] rx_err_i,
  input  logic                   ovf_i,
  input  logic                   prog_i,        // grants, responses, flits sent, receive progress
  output logic                   run_o,
  // status
  output logic [mt_common_pkg::NI_ST_W-1:0] st_o,
  output logic                   busy_o,
  output logic                   done_o,
  output logic                   err_o,
  output logic [mt_common_pkg::NI_ERR_W-1:0] err_code_o,
  output logic [15:0]            err_idx_o,
  output logic [15:0]            idx_o,
  output logic [15:0]            step_o,
  output logic                   issue_o,       // formal / observation
  output logic [31:0]            lock_o,
  output logic [31:0]            wd_o           // the watchdog's stall counter (the stager's T)
);
  initial begin
    if (L < 1 || L > 8) $fatal(1, "mt_ni_issue: L=%0d", L);
    if (Depth < 2) $fatal(1, "mt_ni_issue: Depth=%0d", Depth);
    if (WdW < 2 || WdW > 32) $fatal(1, "mt_ni_issue: WdW=%0d", WdW);
    if (NetPorts < 1 || NetPorts + L > 16) $fatal(1, "mt_ni_issue: NetPorts=%0d", NetPorts);
  end
  localparam logic [3:0] All1 = 4'((1 << PortW) - 1);
  localparam logic [31:0] WMax = (WdW >= 32) ? 32'hffff_ffff : 32'((64'd1 << WdW) - 1);

  logic [mt_common_pkg::NI_ST_W-1:0] st_q;
  logic [TIW-1:0] hp_q;
  logic [3:0]     ci_q;
  logic [15:0]    prev_q;
  logic           done_q;
  logic [mt_common_pkg::NI_ERR_W-1:0] err_code_q;
  logic [TIW-1:0] err_idx_q;
  logic [31:0]    wd_q;
  assign wd_o = wd_q;

  logic [15:0] ts;
  logic [31:0] lock;
  logic        lock_zero;

  logic running, busy, sidle, any_free;
  logic [L-1:0] free1;  // one-hot lowest idle packetiser
  assign running = (st_q == mt_common_pkg::NI_ST_RUN) || (st_q == mt_common_pkg::NI_ST_FIN);
  assign busy    = (st_q == mt_common_pkg::NI_ST_SCAN) || running;
  always_comb begin
    any_free = 1'b0;
    free1    = '0;
    for (int l = 0; l < L; l++)
      if (!tx_busy_i[l] && !any_free) begin any_free = 1'b1; free1[l] = 1'b1; end
  end
  assign sidle = (tx_busy_i == '0);

  // the packetiser of the slot to send to: port p -> packetiser p mod L, so that a source's
  // units to a neighbour leave through one router input FIFO, in order (docs/reference/ni.md
  // "Packetiser per port"); a routed slot takes the lowest idle one
  logic [3:0]   sel_port;
  logic [L-1:0] want1;
  logic         avail;
  always_comb begin
    sel_port = (e_op_i == mt_common_pkg::OP_REDUCE) ? e_pport_i : e_cport_i[4*ci_q +: 4];
    want1 = '0;
    for (int l = 0; l < L; l++) if (32'(sel_port) % L == l) want1[l] = 1'b1;
    avail = (tx_busy_i & want1) == '0;
    if (sel_port == All1) begin want1 = free1; avail = any_free; end
  end

  // ---- RUN: issue / advance ----
  logic issue, advance, to_fin, act_parent, act_child, run_step_err;
  always_comb begin
    issue = 1'b0; advance = 1'b0; to_fin = 1'b0; act_parent = 1'b0; act_child = 1'b0;
    run_step_err = 1'b0;
    if (st_q == mt_common_pkg::NI_ST_RUN && lock_zero) begin
      if (e_op_i == mt_common_pkg::OP_END) to_fin = 1'b1;
      else if (e_step_i > ts) advance = sidle;
      else if (e_step_i == ts) begin
        if (e_op_i == mt_common_pkg::OP_NOP) issue = 1'b1;
        else if (e_op_i == mt_common_pkg::OP_REDUCE) begin
          if (32'(a_cnt_i) == 32'(e_nchild_i)) begin
            if (!e_pv_i) issue = 1'b1;
            else if (avail) begin issue = 1'b1; act_parent = 1'b1; end
          end
        end else begin
          if ((e_pv_i ? a_grx_i : a_rdone_i) && avail) begin issue = 1'b1; act_child = 1'b1; end
        end
      end else run_step_err = 1'b1;
    end
  end
  assign issue_o = issue;

  // ---- SCAN: checks ----
  logic       scan_end;
  logic [mt_common_pkg::NI_ERR_W-1:0] scan_code;
  always_comb begin
    logic bad_port;
    bad_port = 1'b0;
    if (e_pv_i && ((e_pport_i == All1) ? (Compact != 0) : (32'(e_pport_i) >= NetPorts))) bad_port = 1'b1;
    if (e_pv_i && 32'(e_pej_i) >= L) bad_port = 1'b1;
    for (int k = 0; k < Children; k++) begin
      if (e_cv_i[k] && ((e_cport_i[4*k +: 4] == All1) ? (Compact != 0) : (32'(e_cport_i[4*k +: 4]) >= NetPorts))) bad_port = 1'b1;
      if (e_cv_i[k] && 32'(e_cej_i[4*k +: 4]) >= L) bad_port = 1'b1;
    end
    scan_end  = 1'b0;
    scan_code = mt_common_pkg::NI_E_NONE;
    if (st_q == mt_common_pkg::NI_ST_SCAN) begin
      if (e_op_i == mt_common_pkg::OP_END) scan_end = 1'b1;
      else begin
        if (e_step_i == 16'd0 || e_step_i < prev_q) scan_code = mt_common_pkg::NI_E_STEP;
        else if (e_op_i == mt_common_pkg::OP_NOP) scan_code = mt_common_pkg::NI_E_NONE;
        else if (e_flow_i >= nflows_i || 32'(e_flow_i) >= MaxFlows) scan_code = mt_common_pkg::NI_E_FLOW;
        else if (bad_port) scan_code = mt_common_pkg::NI_E_PORT;
        else if (e_gap_i || (e_op_i == mt_common_pkg::OP_GATHER && e_nchild_i == 4'd0) ||
                 (e_op_i == mt_common_pkg::OP_REDUCE && !e_pv_i && e_nchild_i == 4'd0) ||
                 (e_op_i == mt_common_pkg::OP_REDUCE && a_rv_i) || e_size_i == 32'd0 || e_size_i[1:0] != 2'd0 ||
                 e_addr_i[1:0] != 2'd0)
          scan_code = mt_common_pkg::NI_E_ENTRY;
        if (scan_code == mt_common_pkg::NI_E_NONE && 32'(hp_q) + 32'd1 >= Depth) scan_code = mt_common_pkg::NI_E_NOEND;
      end
    end
  end

  // ---- FIN ----
  logic fin_ok;
  assign fin_ok = (st_q == mt_common_pkg::NI_ST_FIN) && sidle && rx_idle_i && mem_quiet_i && all_gathers_i;

  // ---- errors and watchdog ----
  logic        progress;
  logic [31:0] wd_d, wlim;
  logic [3:0]  ecode;
  logic        wd_hit;
  assign progress = prog_i || (st_q == mt_common_pkg::NI_ST_SCAN) || issue || advance || !lock_zero;
  assign wd_d     = (progress || !busy) ? 32'd0 : ((wd_q == WMax) ? WMax : wd_q + 32'd1);
  assign wlim     = wd_limit_i & WMax;
  // wd_d >= wlim without progress (the saturating count one more reaches the limit), from
  // registers only: progress, late in the cycle, meets it in one gate
  assign wd_hit   = {1'b0, wd_q} + 33'd1 >= {1'b0, wlim};
  always_comb begin
    ecode = mt_common_pkg::NI_E_NONE;
    if (rx_err_i != mt_common_pkg::NI_E_NONE) ecode = rx_err_i;
    else if (run_step_err) ecode = mt_common_pkg::NI_E_STEP;
    else if (scan_code != mt_common_pkg::NI_E_NONE) ecode = scan_code;
    else if (ovf_i) ecode = mt_common_pkg::NI_E_EJ_OVF;
    else if (busy && wlim != 32'd0 && !progress && wd_hit) ecode = mt_common_pkg::NI_E_WATCHDOG;
  end

  // ecode == NONE as these two states see it, without the terms that cannot be raised in them
  // (the step error only in RUN, the scan's checks only in SCAN, the watchdog only while busy and
  // never in SCAN, which makes progress at every edge): the watchdog's counter and comparison
  // stay off the path from the table into the next head index (hp_d_o) and the RAM reads at it
  logic start_acc, scan_ok;
  assign start_acc = start_i && !busy && (rx_err_i == mt_common_pkg::NI_E_NONE) && !ovf_i && mem_quiet_i && !tbl_we_i;
  assign scan_ok   = (st_q == mt_common_pkg::NI_ST_SCAN) && (rx_err_i == mt_common_pkg::NI_E_NONE) &&
                     (scan_code == mt_common_pkg::NI_E_NONE) && !ovf_i;
  assign clear_o   = start_acc;
  assign run_o     = running;

  // ---- counters ----
  mt_ni_timestep #(.W(16)) u_ts (
    .clk_i, .rst_ni,
    .clear_i(start_acc),
    .set1_i (scan_ok && scan_end),
    .inc_i  (advance),
    .ts_o   (ts)
  );
  mt_ni_lockstep #(.W(32)) u_lock (
    .clk_i, .rst_ni,
    .clear_i(start_acc || (scan_ok && scan_end)),
    .load_i (issue && e_op_i == mt_common_pkg::OP_NOP),
    .val_i  ((e_size_i + 32'(PayloadW / 8 - 1)) >> LgFb),
    .cnt_o  (lock),
    .zero_o (lock_zero)
  );
  assign lock_o = lock;

  // ---- next head index ----
  logic gather_last;
  assign gather_last = (32'(ci_q) + 32'd1 >= 32'(e_nchild_i));
  // the head moves to hp_q + 1 (mv1) or to entry 0 (mv0), else stays; the addresses that follow
  // from each are computed from hp_q beside the decision, not after it
  logic mv1, mv0;
  always_comb begin
    mv1 = 1'b0;
    mv0 = 1'b0;
    if (scan_ok) begin mv0 = scan_end; mv1 = !scan_end; end
    if (issue && (e_op_i != mt_common_pkg::OP_GATHER || gather_last)) begin mv1 = 1'b1; mv0 = 1'b0; end
    if (start_acc) begin mv1 = 1'b0; mv0 = 1'b1; end
  end
  assign hp_d_o = mv0 ? '0 : mv1 ? hp_q + 1'b1 : hp_q;

  // ---- the look-ahead of the head's flow ----
  // mt_ni_deps reads port A's words from RAM at the flow of the next head entry (hp_d_o): the
  // head stays (its flow: e_flow_i), moves to the next entry (its flow: a copy of the flow
  // column, written by the scan and read at hp_d_o + 1 at every edge) or to entry 0 (flow0_q,
  // recorded by the scan). Flows >= MaxFlows are stored as 0 (as mt_ni_deps indexes them).
  localparam int FW = mt_common_pkg::idx_w(MaxFlows);
  logic [FW-1:0]  ef, la_flow, flow0_q;
  logic [TIW-1:0] la_addr, hp1;
  function automatic [TIW-1:0] after(input logic [TIW-1:0] x);  // the entry after x
    after = (32'(x) + 1 >= Depth) ? '0 : x + 1'b1;
  endfunction
`include "mt_ni_fidx_fn.svh"
  assign ef      = fidx(e_flow_i);
  assign hp1     = hp_q + 1'b1;
  assign la_addr = mv0 ? after('0) : mv1 ? after(hp1) : after(hp_q);   // after(hp_d_o)
  mt_ni_ram #(.Depth(Depth), .Width(FW)) u_fcol (
    .clk_i, .we_i(scan_rec_o), .waddr_i(hp_q), .wdata_i(ef),
    .re_i(1'b1), .raddr_i(la_addr), .rdata_o(la_flow));
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) flow0_q <= '0;
    else if (scan_rec_o && hp_q == '0) flow0_q <= ef;
  end
  logic [FW-1:0] rfl;
  // (hp_d_o == hp_q) ? ef : (hp_d_o == 0) ? flow0_q : la_flow, from the decision
  assign rfl       = (mv0 ? (hp_q == '0) : !mv1) ? ef : (mv0 || hp1 == '0) ? flow0_q : la_flow;
  assign a_rflow_o = 12'(rfl);

  // ---- packetiser activation ----
  assign act_o = (act_parent || act_child) ? want1 : '0;
  always_comb begin
    act_node_o = e_pnode_i; act_port_o = e_pport_i; act_ej_o = e_pej_i;
    if (!act_parent) begin
      act_node_o = e_cnode_i[12*ci_q +: 12];
      act_port_o = e_cport_i[4*ci_q +: 4];
      act_ej_o   = e_cej_i[4*ci_q +: 4];
    end
  end
  assign act_routed_o = (act_port_o == All1);

  assign scan_rec_o = scan_ok && !scan_end;
  assign scan_idx_o = hp_q;
  assign rdone_o    = issue && e_op_i == mt_common_pkg::OP_REDUCE && !e_pv_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= mt_common_pkg::NI_ST_IDLE; hp_q <= '0; ci_q <= '0; prev_q <= '0; done_q <= 1'b0;
      err_code_q <= '0; err_idx_q <= '0; wd_q <= '0;
    end else begin
      hp_q <= hp_d_o;
      wd_q <= wd_d;
      if (scan_ok) begin
        if (scan_end) begin st_q <= mt_common_pkg::NI_ST_RUN; ci_q <= '0; end
        else prev_q <= e_step_i;
      end
      if (st_q == mt_common_pkg::NI_ST_RUN) begin
        if (to_fin) st_q <= mt_common_pkg::NI_ST_FIN;
        if (issue && e_op_i == mt_common_pkg::OP_GATHER) ci_q <= gather_last ? '0 : ci_q + 4'd1;
      end
      if (fin_ok) begin st_q <= mt_common_pkg::NI_ST_DONE; done_q <= 1'b1; end
      if (ecode != mt_common_pkg::NI_E_NONE && st_q != mt_common_pkg::NI_ST_ERR) begin
        st_q <= mt_common_pkg::NI_ST_ERR; err_code_q <= ecode; err_idx_q <= hp_q;
      end
      if (start_acc) begin
        st_q <= mt_common_pkg::NI_ST_SCAN; ci_q <= '0; prev_q <= '0; err_code_q <= '0; err_idx_q <= '0;
        done_q <= 1'b0; wd_q <= '0;
      end
    end
  end

  logic unused_addr;
  assign unused_addr = ^e_addr_i[31:2];

  assign st_o       = st_q;
  assign busy_o     = busy;
  assign done_o     = done_q;
  assign err_o      = (st_q == mt_common_pkg::NI_ST_ERR);
  assign err_code_o = err_code_q;
  assign err_idx_o  = 16'(err_idx_q);
  assign idx_o      = 16'(hp_q);
  assign step_o     = ts;

`ifdef FORMAL
  // no entry issues before (or after) its step, nor while the lockstep counter runs
  always @(*) if (rst_ni && issue) begin
    assert (e_step_i == ts);
    assert (lock == 32'd0);
    assert (st_q == mt_common_pkg::NI_ST_RUN);
`ifdef MT_NI_FORMAL_MUTANT
    assert (e_step_i != ts);  // deliberately wrong: the check must fail
`endif
  end
  // the timestep only moves forward by one while running, towards the head entry's step
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  always_ff @(posedge clk_i) if (f_past_valid && rst_ni && $past(rst_ni) && $past(st_q) == mt_common_pkg::NI_ST_RUN && ts != $past(ts))
    assert (ts == $past(ts) + 16'd1 && $past(e_step_i) > $past(ts));
`endif
endmodule
