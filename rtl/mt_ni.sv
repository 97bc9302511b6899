// SPDX-License-Identifier: Apache-2.0
// mt_ni: the MultiTree network interface (ISCA 2021 Section IV-A, Fig. 6; message-based
// flow control of Section IV-B). Cycle-level rules and interface: docs/ni.md; flits, ports,
// credits and reduction order: docs/interfaces.md. C model: cmodel/mt_ni.c (same cycle).
// Blocks: mt_ni_table (schedule table, write port or $readmemh image), mt_ni_entry_dec (x2),
// mt_ni_issue (scan, issue, timestep mt_ni_timestep, lockstep mt_ni_lockstep, errors,
// watchdog), mt_ni_deps (per-flow dependencies), mt_ni_pktz (one DMA reader + packetiser
// per local port), mt_ni_dma (memory port), mt_ni_ejbuf (ejection FIFOs), mt_ni_depktz
// (receive engine with mt_reduce_alu).
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
  parameter int WdW         = 24,
  localparam int NiN        = 1,
  localparam int Lanes      = PayloadW / 32,
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int EntryW     = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth),
  localparam int S          = L * NumVcs,
  localparam int SW         = mt_common_pkg::idx_w(S),
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
  end

  // ---------------- schedule table and decoders ----------------
  logic [TIW-1:0]    hp_d, rb;
  logic [EntryW-1:0] wa, wb;
  logic              busy;
  mt_ni_table #(.Depth(Depth), .Width(EntryW), .InitFile(InitFile)) u_table (
    .clk_i,
    .we_i   (tbl_we_i && !busy),
    .waddr_i(tbl_waddr_i),
    .wdata_i(tbl_wdata_i),
    .ra_i   (hp_d),
    .rda_o  (wa),
    .rb_i   (rb),
    .rdb_o  (wb)
  );

  logic [1:0]             e_op, b_op;
  logic [11:0]            e_flow, b_flowf;
  logic [15:0]            e_step, b_step;
  logic                   e_pv, b_pv, e_gap, b_gap;
  logic [11:0]            e_pnode, b_pnode;
  logic [3:0]             e_pport, b_pport, e_pej, b_pej, e_nchild, b_nchild;
  logic [Children-1:0]    e_cv, b_cv;
  logic [Children*12-1:0] e_cnode, b_cnode;
  logic [Children*4-1:0]  e_cport, b_cport, e_cej, b_cej;
  logic [31:0]            e_addr, b_addr, e_size, b_size;

  mt_ni_entry_dec #(.Compact(Compact), .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW),
                    .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW), .Children(Children)) u_dec_a (
    .word_i(wa), .nbr_tx_i, .nbr_rx_i, .base_units_i, .rem_units_i, .elem_i, .nop_bytes_i,
    .op_o(e_op), .flow_o(e_flow), .step_o(e_step), .pv_o(e_pv), .pnode_o(e_pnode),
    .pport_o(e_pport), .pej_o(e_pej), .cv_o(e_cv), .cnode_o(e_cnode), .cport_o(e_cport),
    .cej_o(e_cej), .nchild_o(e_nchild), .gap_o(e_gap), .addr_o(e_addr), .size_o(e_size)
  );
  mt_ni_entry_dec #(.Compact(Compact), .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW),
                    .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW), .Children(Children)) u_dec_b (
    .word_i(wb), .nbr_tx_i, .nbr_rx_i, .base_units_i, .rem_units_i, .elem_i, .nop_bytes_i,
    .op_o(b_op), .flow_o(b_flowf), .step_o(b_step), .pv_o(b_pv), .pnode_o(b_pnode),
    .pport_o(b_pport), .pej_o(b_pej), .cv_o(b_cv), .cnode_o(b_cnode), .cport_o(b_cport),
    .cej_o(b_cej), .nchild_o(b_nchild), .gap_o(b_gap), .addr_o(b_addr), .size_o(b_size)
  );
  logic unused_b;
  assign unused_b = ^{b_op, b_flowf, b_step, b_pv, b_gap, b_pport, b_pej, b_cv, b_cport, b_cej};

  // ---------------- dependency state ----------------
  logic            clear, run, scan_rec, rdone, rx_done, all_gathers;
  logic [TIW-1:0]  scan_idx;
  logic            a_rv, a_grx, a_rdone;
  logic [CntW-1:0] a_cnt, b_cnt;
  logic [11:0]     b_flow, done_flow;
  logic            b_rv, b_gv, b_root, b_grx;
  logic [TIW-1:0]  b_ridx, b_gidx;
  logic [1:0]      done_op;
  logic [31:0]     done_len, done_size;
  mt_ni_deps #(.MaxFlows(MaxFlows), .TIW(TIW), .CntW(CntW)) u_deps (
    .clk_i, .rst_ni, .clear_i(clear), .nflows_i,
    .scan_i(scan_rec), .scan_flow_i(e_flow), .scan_op_i(e_op), .scan_pv_i(e_pv), .scan_idx_i(scan_idx),
    .rdone_i(rdone), .rdone_flow_i(e_flow),
    .done_i(rx_done), .done_flow_i(done_flow), .done_op_i(done_op), .done_len_i(done_len),
    .done_size_i(done_size),
    .a_flow_i(e_flow), .a_rv_o(a_rv), .a_cnt_o(a_cnt), .a_grx_o(a_grx), .a_rdone_o(a_rdone),
    .b_flow_i(b_flow), .b_rv_o(b_rv), .b_ridx_o(b_ridx), .b_gv_o(b_gv), .b_gidx_o(b_gidx),
    .b_root_o(b_root), .b_cnt_o(b_cnt), .b_grx_o(b_grx), .all_gathers_o(all_gathers)
  );

  // ---------------- issue / control ----------------
  logic [L-1:0] tx_busy, act, send, req_tx, gnt_tx, rsp_tx;
  logic [11:0]  act_node;
  logic [3:0]   act_port, act_ej, rx_err;
  logic         act_routed, rx_idle, mem_quiet, ovf, look_go, prog, issue;
  logic [31:0]  lock;
  mt_ni_issue #(.L(L), .NetPorts(NetPorts), .PortW(PortW), .Children(Children), .Depth(Depth),
                .MaxFlows(MaxFlows), .PayloadW(PayloadW), .Compact(Compact), .WdW(WdW),
                .CntW(CntW)) u_issue (
    .clk_i, .rst_ni, .start_i, .tbl_we_i, .nflows_i, .wd_limit_i,
    .e_op_i(e_op), .e_flow_i(e_flow), .e_step_i(e_step), .e_pv_i(e_pv), .e_pnode_i(e_pnode),
    .e_pport_i(e_pport), .e_pej_i(e_pej), .e_cv_i(e_cv), .e_cnode_i(e_cnode), .e_cport_i(e_cport),
    .e_cej_i(e_cej), .e_nchild_i(e_nchild), .e_gap_i(e_gap), .e_addr_i(e_addr), .e_size_i(e_size),
    .hp_d_o(hp_d),
    .a_rv_i(a_rv), .a_cnt_i(a_cnt), .a_grx_i(a_grx), .a_rdone_i(a_rdone), .all_gathers_i(all_gathers),
    .clear_o(clear), .scan_rec_o(scan_rec), .scan_idx_o(scan_idx), .rdone_o(rdone),
    .tx_busy_i(tx_busy), .act_o(act), .act_node_o(act_node), .act_port_o(act_port),
    .act_ej_o(act_ej), .act_routed_o(act_routed),
    .rx_idle_i(rx_idle), .mem_quiet_i(mem_quiet), .rx_err_i(rx_err), .ovf_i(ovf), .prog_i(prog),
    .run_o(run), .st_o, .busy_o(busy), .done_o, .err_o, .err_code_o, .err_idx_o, .idx_o, .step_o,
    .issue_o(issue), .lock_o(lock)
  );
  assign busy_o = busy;
  logic unused_obs;
  assign unused_obs = issue ^ (^lock);

  // ---------------- memory port ----------------
  logic [L:0]           req, req_we, gnt;
  logic [(L+1)*32-1:0]  req_addr;
  logic [(L+1)*Lanes-1:0] req_be;
  logic [PayloadW-1:0]  rx_wdata;
  logic                 rsp_v;
  logic [$clog2(L+1)-1:0] rsp_tag;
  mt_ni_dma #(.L(L), .PayloadW(PayloadW), .TqDepth(L * SQ + RQ)) u_dma (
    .clk_i, .rst_ni, .run_i(run),
    .req_i(req), .req_we_i(req_we), .req_addr_i(req_addr), .req_be_i(req_be), .rx_wdata_i(rx_wdata),
    .gnt_o(gnt),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_we_o, .mem_req_addr_o, .mem_req_be_o,
    .mem_req_wdata_o, .mem_rsp_valid_i,
    .rsp_v_o(rsp_v), .rsp_tag_o(rsp_tag), .quiet_o(mem_quiet)
  );

  // ---------------- packetisers ----------------
  for (genvar l = 0; l < L; l++) begin : g_tx
    assign rsp_tx[l] = rsp_v && (32'(rsp_tag) == l);
    assign gnt_tx[l] = gnt[l];
    assign req[l]    = req_tx[l];
    assign req_we[l] = 1'b0;
    mt_ni_pktz #(.PayloadW(PayloadW), .NumVcs(NumVcs), .VcDepth(VcDepth), .SubPktFlits(SubPktFlits),
                 .PktBytes(PktBytes), .InjVc(InjVc), .SQ(SQ)) u_pktz (
      .clk_i, .rst_ni, .clear_i(clear), .run_i(run), .node_id_i, .pkt_mode_i,
      .act_i(act[l]), .a_op_i(e_op), .a_flow_i(e_flow), .a_step_i(e_step), .a_dst_i(act_node),
      .a_port_i(act_port), .a_routed_i(act_routed), .a_ej_i(act_ej), .a_addr_i(e_addr),
      .a_len_i(e_size), .busy_o(tx_busy[l]),
      .req_o(req_tx[l]), .req_addr_o(req_addr[32*l +: 32]), .req_be_o(req_be[Lanes*l +: Lanes]),
      .gnt_i(gnt_tx[l]), .rsp_i(rsp_tx[l]), .rsp_data_i(mem_rsp_data_i),
      .credit_i(inj_credit_i[NumVcs*l +: NumVcs]), .send_o(send[l]),
      .flit_o(inj_flit_o[FlitW*l +: FlitW]), .valid_o(inj_valid_o[l])
    );
  end

  // ---------------- ejection and receive ----------------
  logic [S-1:0]     nonempty;
  logic [FlitW-1:0] front;
  logic [SW-1:0]    sel, pop_s;
  logic             pop;
  mt_ni_ejbuf #(.L(L), .NumVcs(NumVcs), .EjDepth(EjDepth), .PayloadW(PayloadW)) u_ejbuf (
    .clk_i, .rst_ni, .ej_flit_i, .ej_valid_i, .ej_credit_o,
    .pop_i(pop), .pop_s_i(pop_s), .sel_i(sel), .front_o(front), .nonempty_o(nonempty), .ovf_o(ovf)
  );
  mt_ni_depktz #(.L(L), .NumVcs(NumVcs), .PayloadW(PayloadW), .RQ(RQ), .MaxFlows(MaxFlows),
                 .TIW(TIW), .CntW(CntW), .Children(Children)) u_depktz (
    .clk_i, .rst_ni, .clear_i(clear), .run_i(run), .dtype_i, .nflows_i,
    .nonempty_i(nonempty), .front_i(front), .sel_o(sel), .pop_o(pop), .pop_s_o(pop_s),
    .b_flow_o(b_flow), .b_rv_i(b_rv), .b_ridx_i(b_ridx), .b_gv_i(b_gv), .b_gidx_i(b_gidx),
    .b_root_i(b_root), .b_cnt_i(b_cnt), .b_grx_i(b_grx),
    .rb_o(rb), .eb_cnode_i(b_cnode), .eb_nchild_i(b_nchild), .eb_pnode_i(b_pnode),
    .eb_addr_i(b_addr), .eb_size_i(b_size),
    .done_o(rx_done), .done_flow_o(done_flow), .done_op_o(done_op), .done_len_o(done_len),
    .done_size_o(done_size),
    .req_o(req[L]), .req_we_o(req_we[L]), .req_addr_o(req_addr[32*L +: 32]),
    .req_be_o(req_be[Lanes*L +: Lanes]), .req_wdata_o(rx_wdata),
    .gnt_i(gnt[L]), .rsp_i(rsp_v && (32'(rsp_tag) == L)), .rsp_data_i(mem_rsp_data_i),
    .err_o(rx_err), .look_go_o(look_go), .idle_o(rx_idle)
  );

  assign prog = (|gnt) || mem_rsp_valid_i || (|send) || rx_done || look_go;
endmodule
