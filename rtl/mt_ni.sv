// SPDX-License-Identifier: Apache-2.0
// mt_ni: the MultiTree network interface (ISCA 2021 Section IV-A, Fig. 6; message-based
// flow control of Section IV-B). Cycle-level rules and interface: docs/reference/ni.md; flits, ports,
// credits and reduction order: docs/reference/interfaces.md. C model: cmodel/mt_ni.c (same cycle).
// Blocks: mt_ni_table (schedule table, write port or $readmemh image), mt_ni_entry_dec (port
// A, and port B of every engine), mt_ni_issue (scan, issue, timestep mt_ni_timestep, lockstep
// mt_ni_lockstep, errors, watchdog), mt_ni_deps (per-flow dependencies), mt_ni_pktz (one DMA
// reader + packetiser per local port), mt_ni_mports (MemPorts memory ports, mt_ni_dma each),
// mt_ni_ejbuf (ejection FIFOs), mt_ni_depktz (RxEngines receive engines, each with its
// mt_reduce_alu). RxEngines = MemPorts = 1 is the one-engine NI; docs/reference/ni.md "Bandwidth".
// Every output comes from a register. Configuration inputs (dtype_i .. nbr_rx_i) must be
// stable while busy_o.
`default_nettype none

module mt_ni #(
  // network side
  parameter int PayloadW    = 128,
  parameter int NumVcs      = 2,
  parameter int L           = 4,
  parameter int NetPorts    = 4,
  parameter int EjDepth     = 4,
  parameter int VcDepth     = 8,
  parameter int SubPktFlits = 16,
  parameter int PktBytes    = 256,
  parameter int InjVc       = 0,
  // schedule table (mt_layout)
  parameter int Depth       = 64,
`include "mt_ni_layout_params.svh"
  parameter     InitFile    = "",
  // micro-architecture
  parameter int MaxFlows    = 16,
  parameter int SQ          = 4,
  parameter int RQ          = 4,
  parameter int AluPipe     = 0,   // registers inside the reduction unit's adder (mt_reduce_alu Pipe: 0, 1, 2)
  parameter int WdW         = 24,
  // bandwidth (docs/reference/ni.md "Bandwidth"; cmodel mt_ni_params rx_engines, mem_ports): 0 is 1
  parameter int RxEngines   = 1,   // E: a divisor of L, or m*L with m dividing NumVcs (<= 8)
  parameter int MemPorts    = 1,   // M: 1, L+E or L+2E
  parameter int ReduceChain = 0,   // chained reduction (docs/reference/ni.md "Chained reduction"; with E > 1)
  parameter int PerturbChain = 0,  // test only (t-ni-perturb-chain): 1 = engines ignore the chaining order
  parameter int PerturbPick = 0,   // test only (t-ni-perturb-pick): the engines' pick made a cycle
                                   // ahead ignores the edge's FIFO writes (1) or the round robin (2)
  parameter int PerturbRam  = 0,   // test only (t-ni-perturb-ram-*): mt_ni_chain's RAMs without
                                   // bypass (1), its completions queued in the other engine order
                                   // (2), its loads granted the other way (3); mt_ni_deps' rxb RAMs
                                   // without bypass (4), its done grant the other way (5)
  // the stager (docs/reference/ni.md "Staging not-due units"; cmodel stage_after, stage_ranges): 0 = none
  parameter int StageAfter  = 0,   // T: stage not-due units after T cycles without progress
  parameter int StageRanges = 16,  // staged ranges per NI (one pool)
  parameter int PerturbStage = 0,  // test only (t-ni-perturb-stage-*): mt_ni_stage's RAMs without
                                   // bypass (1), its list walk stopping at the first range (2)
  localparam int NiN        = 1,
  localparam int SG         = (StageAfter > 0) ? 1 : 0,
  localparam int NE         = (RxEngines < 1) ? 1 : RxEngines,
  localparam int NiMp       = (MemPorts < 1) ? 1 : MemPorts,
  localparam int Lanes      = PayloadW / 32,
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int EntryW     = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth),
  localparam int S          = L * NumVcs,
  localparam int SW         = mt_common_pkg::idx_w(S),
  localparam int Ses        = S / NE,                  // streams per engine
  localparam int ESW        = mt_common_pkg::idx_w(Ses + SG),  // + the stager's replay stream
  localparam int CntW       = $clog2(Children + 1)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [11:0]           node_id_i,
  input  logic [31:0]           wd_limit_i,    // 0 = watchdog off
`include "mt_ni_ports.svh"
  // injection: router local input ports 2D+l
  output logic [L*FlitW-1:0]    inj_flit_o,
  output logic [L-1:0]          inj_valid_o,
  input  logic [L*NumVcs-1:0]   inj_credit_i,
  // ejection: router local output ports 2D+l
  input  logic [L*FlitW-1:0]    ej_flit_i,
  input  logic [L-1:0]          ej_valid_i,
  output logic [L*NumVcs-1:0]   ej_credit_o
);
  initial begin
    if (PayloadW != 128 && PayloadW != 256 && PayloadW != 512) $fatal(1, "mt_ni: PayloadW=%0d, need 128/256/512", PayloadW);
    if (L < 1 || L > 8) $fatal(1, "mt_ni: L=%0d, need 1..8", L);
    if (NumVcs < 1 || NumVcs > 8) $fatal(1, "mt_ni: NumVcs=%0d", NumVcs);
    if (MaxFlows < 1 || MaxFlows > 4096) $fatal(1, "mt_ni: MaxFlows=%0d", MaxFlows);
    if (Depth < 2) $fatal(1, "mt_ni: Depth=%0d", Depth);
    // the C model's rules (mt_ni_check_params)
    if (NE > 8) $fatal(1, "mt_ni: RxEngines=%0d: at most 8", NE);
    if (L % NE != 0 && (NE % L != 0 || NumVcs % (NE / L) != 0))
      $fatal(1, "mt_ni: RxEngines=%0d: a divisor of L=%0d, or m*L with m dividing NumVcs=%0d", NE, L, NumVcs);
    if (NiMp != 1 && NiMp != L + NE && NiMp != L + 2 * NE)
      $fatal(1, "mt_ni: MemPorts=%0d: 1, L+E=%0d or L+2E=%0d", NiMp, L + NE, L + 2 * NE);
    if (ReduceChain != 0 && ReduceChain != 1) $fatal(1, "mt_ni: ReduceChain=%0d: 0 or 1", ReduceChain);
    if (StageAfter < 0) $fatal(1, "mt_ni: StageAfter=%0d: 0 (no stager) or T > 0", StageAfter);
    if (StageAfter > 0 && (StageRanges < 1 || StageRanges > 1024))
      $fatal(1, "mt_ni: StageRanges=%0d: 1..1024 with the stager on", StageRanges);
    if (StageAfter > 0 && Children > 16) $fatal(1, "mt_ni: Children=%0d: at most 16 with the stager", Children);
  end

  // stream (port l, VC v: l*NumVcs + v) of entry i of engine e's list (cmodel mt_ni.c estr):
  // E <= L: ports e, e+E, ... with all their VCs; E = m*L: port e mod L, VCs g, g+m, ...
  // (g = e div L; the router gives consecutive packets alternating VCs, so the m engines of
  // a port take turns)
  function automatic int estr(input int e, input int i);
    if (NE <= L) estr = (e + (i / NumVcs) * NE) * NumVcs + i % NumVcs;
    else estr = (e % L) * NumVcs + e / L + i * (NE / L);
  endfunction

  // ---------------- schedule table and decoders ----------------
  logic [TIW-1:0]       hp_d;
  logic [NE*TIW-1:0]    rb;
  logic [EntryW-1:0]    wa;
  logic [NE*EntryW-1:0] wb;
  logic                 busy;
  mt_ni_table #(.Depth(Depth), .Width(EntryW), .NB(NE), .InitFile(InitFile)) u_table (
    .clk_i,
    .we_i   (tbl_we_i && !busy),
    .waddr_i(tbl_waddr_i),
    .wdata_i(tbl_wdata_i),
    .ra_i   (hp_d),
    .rda_o  (wa),
    .rb_i   (rb),
    .rdb_o  (wb)
  );

  logic [1:0]             e_op;
  logic [11:0]            e_flow;
  logic [15:0]            e_step;
  logic                   e_pv, e_gap;
  logic [11:0]            e_pnode;
  logic [3:0]             e_pport, e_pej, e_nchild;
  logic [Children-1:0]    e_cv;
  logic [Children*12-1:0] e_cnode;
  logic [Children*4-1:0]  e_cport, e_cej;
  logic [31:0]            e_addr, e_size;

  mt_ni_entry_dec #(.Compact(Compact), .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW),
                    .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW), .Children(Children)) u_dec_a (
    .word_i(wa), .nbr_tx_i, .nbr_rx_i, .base_units_i, .rem_units_i, .elem_i, .nop_bytes_i,
    .op_o(e_op), .flow_o(e_flow), .step_o(e_step), .pv_o(e_pv), .pnode_o(e_pnode),
    .pport_o(e_pport), .pej_o(e_pej), .cv_o(e_cv), .cnode_o(e_cnode), .cport_o(e_cport),
    .cej_o(e_cej), .nchild_o(e_nchild), .gap_o(e_gap), .addr_o(e_addr), .size_o(e_size)
  );
  // port B of engine e: its look-up entry
  logic [NE*Children*12-1:0] b_cnode;
  logic [NE*12-1:0]          b_pnode;
  logic [NE*4-1:0]           b_nchild;
  logic [NE*Children*4-1:0]  b_cport, b_cej;
  logic [NE*32-1:0]          b_addr, b_size;
  for (genvar e = 0; e < NE; e++) begin : g_dec_b
    logic [1:0]            op;
    logic [11:0]           flowf;
    logic [15:0]           step;
    logic                  pv, gap;
    logic [3:0]            pport, pej;
    logic [Children-1:0]   cv;
    mt_ni_entry_dec #(.Compact(Compact), .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW),
                      .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW), .Children(Children)) u_dec_b (
      .word_i(wb[EntryW*e +: EntryW]), .nbr_tx_i, .nbr_rx_i, .base_units_i, .rem_units_i, .elem_i,
      .nop_bytes_i,
      .op_o(op), .flow_o(flowf), .step_o(step), .pv_o(pv), .pnode_o(b_pnode[12*e +: 12]),
      .pport_o(pport), .pej_o(pej), .cv_o(cv), .cnode_o(b_cnode[Children*12*e +: Children*12]),
      .cport_o(b_cport[Children*4*e +: Children*4]), .cej_o(b_cej[Children*4*e +: Children*4]),
      .nchild_o(b_nchild[4*e +: 4]), .gap_o(gap),
      .addr_o(b_addr[32*e +: 32]), .size_o(b_size[32*e +: 32])
    );
    logic unused_b;
    assign unused_b = ^{op, flowf, step, pv, gap, pport, pej, cv};
  end

  // ---------------- dependency state ----------------
  logic               clear, run, scan_rec, rdone, all_gathers;
  logic [TIW-1:0]     scan_idx;
  logic               a_rv, a_grx, a_rdone;
  logic [11:0]        a_rflow;
  logic [11:0]        sg_pf;     // the stager's scan pointer's flow, and its rv
  logic               sg_prv;
  logic [CntW-1:0]    a_cnt;
  // per engine e at [e]
  logic [NE-1:0]      rx_done, dreq, dgnt;
  logic [NE*CntW-1:0] b_cnt;
  logic [NE*12-1:0]   b_flow, done_flow;
  logic [NE-1:0]      b_rv, b_gv, b_root, b_grx;
  logic [NE*TIW-1:0]  b_ridx, b_gidx;
  logic [NE*2-1:0]    done_op;
  logic [NE*32-1:0]   done_len, done_size;
  // chained reduction (engine e at [e])
  logic [NE-1:0]      go, go_act, done_pk, pr_cw, wacc, b_pwv, pw_req;
  logic               chain_room;
  // stager: staging writes (look-up, busy), not-due waits; engines on the replay stream R
  logic [NE-1:0]      look_stg, e_stg, look_wait, on_r, on_r_next, pick_r, sg_fits;
  logic [NE*12-1:0]   e_src;
  logic [NE*32-1:0]   rx_addr;
  logic [NE*Children-1:0] sg_staged;
  logic               sg_on, sg_idle, r_avail, r_nonempty;
  logic [FlitW-1:0]   r_head;
  logic [NE*4-1:0]    go_pos, done_pos, b_pos, pr_cpos;
  logic [NE*32-1:0]   done_lo, b_pwm, pr_wa;
  logic [NE*CntW-1:0] b_act;
  mt_ni_deps #(.MaxFlows(MaxFlows), .TIW(TIW), .CntW(CntW), .NE(NE), .Children(Children),
               .Chain((ReduceChain != 0 && NE > 1) ? 1 : 0), .PerturbRam(PerturbRam)) u_deps (
    .clk_i, .rst_ni, .clear_i(clear), .nflows_i,
    .scan_i(scan_rec), .scan_flow_i(e_flow), .scan_op_i(e_op), .scan_pv_i(e_pv), .scan_idx_i(scan_idx),
    .rdone_i(rdone), .rdone_flow_i(e_flow),
    .done_i(rx_done & ~e_stg), .done_flow_i(done_flow), .done_op_i(done_op), .done_len_i(done_len),
    .done_size_i(done_size), .dreq_i(dreq), .dgnt_o(dgnt),
    .go_i(go & ~look_stg), .go_act_i(go_act), .go_pos_i(go_pos), .done_pk_i(done_pk), .done_pos_i(done_pos),
    .done_lo_i(done_lo), .room_o(chain_room),
    .s_flow_i(sg_pf), .s_rv_o(sg_prv),
    .a_flow_i(e_flow), .a_rflow_i(a_rflow), .a_rv_o(a_rv), .a_cnt_o(a_cnt), .a_grx_o(a_grx), .a_rdone_o(a_rdone),
    .b_flow_i(b_flow), .b_rv_o(b_rv), .b_ridx_o(b_ridx), .b_gv_o(b_gv), .b_gidx_o(b_gidx),
    .b_root_o(b_root), .b_cnt_o(b_cnt), .b_grx_o(b_grx), .b_act_o(b_act), .b_pos_i(b_pos),
    .pw_req_i(pw_req), .b_pwv_o(b_pwv), .b_pwm_o(b_pwm), .all_gathers_o(all_gathers)
  );

  // ---------------- issue / control ----------------
  logic [L-1:0] tx_busy, act, send, req_tx, gnt_tx, rsp_tx;
  logic [11:0]  act_node;
  logic [3:0]   act_port, act_ej, rx_err;
  logic         act_routed, rx_idle, mem_quiet, ovf, prog, issue;
  logic [31:0]  lock, wd;
  mt_ni_issue #(.L(L), .NetPorts(NetPorts), .PortW(PortW), .Children(Children), .Depth(Depth),
                .MaxFlows(MaxFlows), .PayloadW(PayloadW), .Compact(Compact), .WdW(WdW),
                .CntW(CntW)) u_issue (
    .clk_i, .rst_ni, .start_i, .tbl_we_i, .nflows_i, .wd_limit_i,
    .e_op_i(e_op), .e_flow_i(e_flow), .e_step_i(e_step), .e_pv_i(e_pv), .e_pnode_i(e_pnode),
    .e_pport_i(e_pport), .e_pej_i(e_pej), .e_cv_i(e_cv), .e_cnode_i(e_cnode), .e_cport_i(e_cport),
    .e_cej_i(e_cej), .e_nchild_i(e_nchild), .e_gap_i(e_gap), .e_addr_i(e_addr), .e_size_i(e_size),
    .hp_d_o(hp_d), .a_rflow_o(a_rflow),
    .a_rv_i(a_rv), .a_cnt_i(a_cnt), .a_grx_i(a_grx), .a_rdone_i(a_rdone), .all_gathers_i(all_gathers),
    .clear_o(clear), .scan_rec_o(scan_rec), .scan_idx_o(scan_idx), .rdone_o(rdone),
    .tx_busy_i(tx_busy), .act_o(act), .act_node_o(act_node), .act_port_o(act_port),
    .act_ej_o(act_ej), .act_routed_o(act_routed),
    .rx_idle_i(rx_idle), .mem_quiet_i(mem_quiet), .rx_err_i(rx_err), .ovf_i(ovf), .prog_i(prog),
    .run_o(run), .st_o, .busy_o(busy), .done_o, .err_o, .err_code_o, .err_idx_o, .idx_o, .step_o,
    .issue_o(issue), .lock_o(lock), .wd_o(wd)
  );
  assign busy_o = busy;
  logic unused_obs;
  assign unused_obs = issue ^ (^lock) ^ (SG == 0 && ^{wd, stage_base_i, stage_slot_i});

  // ---------------- memory ports ----------------
  logic [L*32-1:0]        tx_addr;
  logic [L*Lanes-1:0]     tx_be;
  logic [L*PayloadW-1:0]  tx_rsp_data;
  logic [NE-1:0]          rx_rd, rx_wr, gnt_rd, gnt_wr, wfree, rsp_rx;
  logic [NE*32-1:0]       rd_addr, wr_addr;
  logic [NE*Lanes-1:0]    rd_be, wr_be;
  logic [NE*PayloadW-1:0] wr_data, rx_rsp_data;
  logic                   gnt_any;
  logic                   sg_rq, sg_gnt, sg_rsp;
  logic [31:0]            sg_addr;
  logic [Lanes-1:0]       sg_be;
  logic [PayloadW-1:0]    sg_rsp_data;
  mt_ni_mports #(.L(L), .E(NE), .M(NiMp), .PayloadW(PayloadW), .SQ(SQ), .RQ(RQ), .SG(SG), .SgTq(EjDepth)) u_mports (
    .clk_i, .rst_ni, .run_i(run),
    .tx_req_i(req_tx), .tx_addr_i(tx_addr), .tx_be_i(tx_be), .tx_gnt_o(gnt_tx), .tx_rsp_o(rsp_tx),
    .tx_rsp_data_o(tx_rsp_data),
    .rx_rd_i(rx_rd), .rx_rd_addr_i(rd_addr), .rx_rd_be_i(rd_be),
    .rx_wr_i(rx_wr), .rx_wr_addr_i(wr_addr), .rx_wr_be_i(wr_be), .rx_wr_data_i(wr_data),
    .rx_gnt_rd_o(gnt_rd), .rx_gnt_wr_o(gnt_wr), .rx_wfree_o(wfree), .rx_wacc_o(wacc), .rx_rsp_o(rsp_rx),
    .rx_rsp_data_o(rx_rsp_data),
    .sg_rq_i(sg_rq), .sg_addr_i(sg_addr), .sg_be_i(sg_be), .sg_gnt_o(sg_gnt), .sg_rsp_o(sg_rsp),
    .sg_rsp_data_o(sg_rsp_data),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_we_o, .mem_req_addr_o, .mem_req_be_o,
    .mem_req_wdata_o, .mem_rsp_valid_i, .mem_rsp_data_i,
    .gnt_any_o(gnt_any), .quiet_o(mem_quiet)
  );

  // ---------------- packetisers ----------------
  for (genvar l = 0; l < L; l++) begin : g_tx
    mt_ni_pktz #(.PayloadW(PayloadW), .NumVcs(NumVcs), .VcDepth(VcDepth), .SubPktFlits(SubPktFlits),
                 .PktBytes(PktBytes), .InjVc(InjVc), .SQ(SQ)) u_pktz (
      .clk_i, .rst_ni, .clear_i(clear), .run_i(run), .node_id_i, .pkt_mode_i,
      .act_i(act[l]), .a_op_i(e_op), .a_flow_i(e_flow), .a_step_i(e_step), .a_dst_i(act_node),
      .a_port_i(act_port), .a_routed_i(act_routed), .a_ej_i(act_ej), .a_addr_i(e_addr),
      .a_len_i(e_size), .busy_o(tx_busy[l]),
      .req_o(req_tx[l]), .req_addr_o(tx_addr[32*l +: 32]), .req_be_o(tx_be[Lanes*l +: Lanes]),
      .gnt_i(gnt_tx[l]), .rsp_i(rsp_tx[l]), .rsp_data_i(tx_rsp_data[PayloadW*l +: PayloadW]),
      .credit_i(inj_credit_i[NumVcs*l +: NumVcs]), .send_o(send[l]),
      .flit_o(inj_flit_o[FlitW*l +: FlitW]), .valid_o(inj_valid_o[l])
    );
  end

  // ---------------- ejection and receive engines ----------------
  logic [S-1:0]        nonempty, nonempty_nx, nonempty_nxp;
  logic [S*FlitW-1:0]  head;
  logic [NE*FlitW-1:0] front;
  logic [NE*SW-1:0]    pop_s;
  logic [NE-1:0]       pop, pop_ej, rx_idle_e;
  logic [NE*4-1:0]     rx_err_e;
  mt_ni_ejbuf #(.L(L), .NumVcs(NumVcs), .EjDepth(EjDepth), .PayloadW(PayloadW), .NR(NE)) u_ejbuf (
    .clk_i, .rst_ni, .ej_flit_i, .ej_valid_i, .ej_credit_o,
    .pop_i(pop_ej), .pop_s_i(pop_s), .head_o(head), .nonempty_o(nonempty),
    .nonempty_nx_o(nonempty_nx), .nonempty_nxp_o(nonempty_nxp), .ovf_o(ovf)
  );
  for (genvar e = 0; e < NE; e++) begin : g_rx
    // engine e's streams: list entry i is stream estr(e, i); with the stager entry Ses is
    // its replay stream R (offered to an idle engine if no lower engine takes it now)
    logic [Ses+SG-1:0]       ne_l, ne_nx_l, ne_nxp_l;   // (the stager's entry Ses: ne_l only)
    logic [(Ses+SG)*SW-1:0]  smap;
    logic [(Ses+SG)*FlitW-1:0] heads;
    logic [ESW-1:0]          sel_l, pop_l;
    for (genvar i = 0; i < Ses; i++) begin : g_s
      localparam int G = estr(e, i);
      assign ne_l[i]                 = nonempty[G];
      assign ne_nx_l[i]              = nonempty_nx[G];
      assign ne_nxp_l[i]             = nonempty_nxp[G];
      assign smap[SW*i +: SW]        = SW'(G);
      assign heads[FlitW*i +: FlitW] = head[FlitW*G +: FlitW];
    end
    if (SG != 0) begin : g_r
      if (e == 0) begin : g_first
        assign ne_l[Ses] = rx_idle_e[e] ? r_avail : r_nonempty;
      end else begin : g_later
        assign ne_l[Ses] = rx_idle_e[e] ? (r_avail && !(|pick_r[e-1:0])) : r_nonempty;
      end
      assign smap[SW*Ses +: SW]        = '0;
      assign ne_nx_l[Ses]              = 1'b0;
      assign ne_nxp_l[Ses]             = 1'b0;
      assign heads[FlitW*Ses +: FlitW] = r_head;
      assign pop_ej[e] = pop[e] && 32'(pop_l) != Ses;
    end else begin : g_nor
      assign pop_ej[e] = pop[e];
    end
    // the front of the engine's selected stream: a Ses:1 multiplexer of its own heads
    assign front[FlitW*e +: FlitW] = heads[FlitW*sel_l +: FlitW];
    assign pop_s[SW*e +: SW] = smap[SW*pop_l +: SW];
    mt_ni_depktz #(.L(L), .NumVcs(NumVcs), .PayloadW(PayloadW), .RQ(RQ), .MaxFlows(MaxFlows),
                   .TIW(TIW), .CntW(CntW), .Children(Children), .Engines(NE), .Eng(e),
                   .ReduceChain(ReduceChain), .PortW(PortW), .PerturbChain(PerturbChain), .Stage(SG),
                   .AluPipe(AluPipe), .PerturbPick(PerturbPick)) u_depktz (
      .clk_i, .rst_ni, .clear_i(clear), .run_i(run), .dtype_i, .nflows_i,
      .nonempty_i(ne_l), .nonempty_nx_i(ne_nx_l), .nonempty_nxp_i(ne_nxp_l), .front_i(front[FlitW*e +: FlitW]), .sel_o(sel_l), .pop_o(pop[e]), .pop_s_o(pop_l),
      .b_flow_o(b_flow[12*e +: 12]), .b_rv_i(b_rv[e]), .b_ridx_i(b_ridx[TIW*e +: TIW]),
      .b_gv_i(b_gv[e]), .b_gidx_i(b_gidx[TIW*e +: TIW]), .b_root_i(b_root[e]),
      .b_cnt_i(b_cnt[CntW*e +: CntW]), .b_grx_i(b_grx[e]),
      .rb_o(rb[TIW*e +: TIW]), .eb_cnode_i(b_cnode[Children*12*e +: Children*12]),
      .eb_nchild_i(b_nchild[4*e +: 4]), .eb_cport_i(b_cport[Children*4*e +: Children*4]),
      .eb_cej_i(b_cej[Children*4*e +: Children*4]), .eb_pnode_i(b_pnode[12*e +: 12]),
      .eb_addr_i(b_addr[32*e +: 32]), .eb_size_i(b_size[32*e +: 32]),
      .b_act_i(b_act[CntW*e +: CntW]), .b_pos_o(b_pos[4*e +: 4]), .b_pwm_i(b_pwm[32*e +: 32]),
      .b_pwv_i(b_pwv[e]), .pw_req_o(pw_req[e]), .room_i(chain_room),
      .pr_cw_i(pr_cw), .pr_flow_i(done_flow), .pr_cpos_i(pr_cpos), .pr_wa_i(pr_wa),
      .cw_o(pr_cw[e]), .cpos_o(pr_cpos[4*e +: 4]), .wa_o(pr_wa[32*e +: 32]), .wacc_i(wacc[e]),
      .go_act_o(go_act[e]), .go_pos_o(go_pos[4*e +: 4]), .done_pk_o(done_pk[e]),
      .done_pos_o(done_pos[4*e +: 4]), .done_lo_o(done_lo[32*e +: 32]),
      .dreq_o(dreq[e]), .dgnt_i(dgnt[e]), .done_o(rx_done[e]), .done_flow_o(done_flow[12*e +: 12]), .done_op_o(done_op[2*e +: 2]),
      .done_len_o(done_len[32*e +: 32]), .done_size_o(done_size[32*e +: 32]),
      .rd_o(rx_rd[e]), .rd_addr_o(rd_addr[32*e +: 32]), .rd_be_o(rd_be[Lanes*e +: Lanes]),
      .gnt_rd_i(gnt_rd[e]),
      .wr_o(rx_wr[e]), .wr_addr_o(wr_addr[32*e +: 32]), .wr_be_o(wr_be[Lanes*e +: Lanes]),
      .wr_data_o(wr_data[PayloadW*e +: PayloadW]), .gnt_wr_i(gnt_wr[e]), .wfree_i(wfree[e]),
      .rsp_i(rsp_rx[e]), .rsp_data_i(rx_rsp_data[PayloadW*e +: PayloadW]),
      .err_o(rx_err_e[4*e +: 4]), .look_go_o(go[e]), .idle_o(rx_idle_e[e]),
      .sgon_i(sg_on), .claim_in_i((e == 0) ? 1'b0 : |look_stg[(e > 0 ? e - 1 : 0):0]), .fits_i(sg_fits[e]),
      .staged_i(sg_staged[Children*e +: Children]), .stage_base_i, .stage_slot_i,
      .look_wait_o(look_wait[e]), .look_stg_o(look_stg[e]), .stg_o(e_stg[e]), .on_r_o(on_r[e]), .on_r_next_o(on_r_next[e]),
      .pick_r_o(pick_r[e]), .src_o(e_src[12*e +: 12]), .addr_o(rx_addr[32*e +: 32])
    );
  end
  // the NI finishes only with the stager idle and nothing staged
  assign rx_idle = &rx_idle_e && sg_idle;

  // ---------------- the stager (StageAfter > 0) ----------------
  if (SG != 0) begin : g_stage
    mt_ni_stage #(.PayloadW(PayloadW), .NumVcs(NumVcs), .EjDepth(EjDepth), .MaxFlows(MaxFlows),
                  .Children(Children), .NE(NE), .StageAfter(StageAfter), .StageRanges(StageRanges),
                  .PerturbStage(PerturbStage)) u_stage (
      .clk_i, .rst_ni, .clear_i(clear), .run_i(run), .wd_i(wd), .stage_base_i, .stage_slot_i,
      .scan_i(scan_rec && e_op == mt_common_pkg::OP_REDUCE), .scan_f_i(e_flow), .sgp_f_o(sg_pf),
      .s_rv_i(sg_prv),
      .look_wait_i(look_wait), .claim_i(look_stg), .e_flow_i(done_flow), .e_k_i(go_pos), .e_src_i(e_src),
      .e_addr_i(rx_addr), .e_len_i(done_len), .sdone_i(rx_done & e_stg), .e_cpos_i(done_pos),
      .fits_o(sg_fits), .staged_o(sg_staged), .sgon_o(sg_on),
      .r_avail_o(r_avail), .r_nonempty_o(r_nonempty), .r_head_o(r_head), .r_pop_i(|(pop & ~pop_ej)),
      .r_held_i(|on_r), .r_held_next_i(|on_r_next), .r_go_i(|(on_r & go)), .r_wait_i(|(on_r & look_wait)),
      .rq_o(sg_rq), .rq_addr_o(sg_addr), .rq_be_o(sg_be), .gnt_i(sg_gnt), .rsp_i(sg_rsp),
      .rsp_data_i(sg_rsp_data), .idle_o(sg_idle)
    );
  end else begin : g_nostage
    assign sg_on = 1'b0; assign sg_idle = 1'b1; assign sg_fits = '0; assign sg_staged = '0;
    assign r_avail = 1'b0; assign r_nonempty = 1'b0; assign r_head = '0;
    assign sg_rq = 1'b0; assign sg_addr = '0; assign sg_be = '0; assign sg_pf = '0;
    logic unused_sg;
    assign unused_sg = ^{look_wait, on_r, on_r_next, pick_r, e_src, rx_addr, sg_gnt, sg_rsp, sg_rsp_data, sg_prv};
  end
  logic unused_r;
  assign unused_r = pick_r[NE-1] ^ (SG == 0 && ^{r_avail, r_nonempty, r_head});  // the last engine's pick: nobody after it
  // the first error of the engines (C model order: frame errors of any engine, then the
  // look-up errors in engine order)
  always_comb begin
    rx_err = mt_common_pkg::NI_E_NONE;
    for (int e = NE - 1; e >= 0; e--)
      if (rx_err_e[4*e +: 4] != mt_common_pkg::NI_E_NONE) rx_err = rx_err_e[4*e +: 4];
    for (int e = 0; e < NE; e++)
      if (rx_err_e[4*e +: 4] == mt_common_pkg::NI_E_RX_FRAME) rx_err = mt_common_pkg::NI_E_RX_FRAME;
  end

  assign prog = gnt_any || (|mem_rsp_valid_i) || (|send) || (|rx_done) || (|go);
endmodule
