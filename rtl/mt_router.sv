// SPDX-License-Identifier: Apache-2.0
// mt_router: MultiTree router (ISCA 2021 §IV-B): NP = 2*D + L ports, NumVcs VCs per port,
// credit flow control, dimension-order routing with dateline VC classes, virtual cut-through
// for normal packets, message-based flow control (one head per all-reduce message, switch
// allocation per sub-packet) for one-hop source-routed all-reduce messages.
// Table = 1 makes it a switch (docs/reference/switch.md): NP = NetPorts + L ports (network ports first,
// then NI ports), every head routed by its destination through a route table of Nodes
// entries (written through tab_*_i), hop-class VCs; everything else unchanged. With Table = 0
// none of the table logic exists.
// Contract: docs/reference/interfaces.md (flit, ports, credits) and docs/reference/router.md (rules, pipeline).
// All outputs are registers: a flit sampled at edge t leaves at edge t+1 at the earliest
// (visible after it); its credit pulse leaves at the same edge. cmodel/mt_router.c is the
// cycle-exact reference.
`default_nettype none
module mt_router #(
  parameter int D = 2,
  parameter int L = 4,
  parameter int K0 = 4,
  parameter int K1 = 4,
  parameter int K2 = 1,
  parameter int Torus = 1,
  parameter int PayloadW = 128,
  parameter int NumVcs = 4,
  parameter int VcDepth = 16,
  parameter int EjDepth = 16,
  parameter int SubPktFlits = 16,
  parameter int StepPrio = 0,
  parameter int WdW = 24,
  parameter int Table = 0,       // 0: torus/mesh router; 1: switch (the parameters below)
  parameter int NetPorts = 4,    // switch: network ports 0..NetPorts-1, NI ports after them
  parameter int HopClasses = 1,  // switch: VC classes by switch hops (dividing NumVcs)
  parameter int Nodes = 16,      // switch: route table entries (destinations 0..Nodes-1)
  // torus/mesh: the outputs of dimension d (ports 2d, 2d+1) send a flit at most every
  // LinkPeriods[8d +: 8] cycles (0 and 1: every cycle), a link slower than the router
  // (docs/reference/network.md "Link rate and latency"; cmodel mt_router_params.period)
  parameter logic [23:0] LinkPeriods = 24'h010101,
  // input ports that the surroundings tie off (bit p: in_valid_i[p] is always 0, e.g. port -d
  // of a torus dimension of width 2, whose one link uses port +d): their VC buffers are left
  // out, which changes nothing else (such a buffer is always empty)
  parameter logic [15:0] InOff = 16'h0,
  // 1 (torus/mesh only): a network input port connects only to the outputs that
  // dimension-order routing can give it: the local ports and the network ports of a higher
  // dimension, or of its own dimension unless that is a torus dimension of width 2 (a head
  // from it routes on in no lower dimension, and its all-reduce heads eject). A smaller
  // crossbar; a head that asks for another output is never granted (it cannot come from a
  // network of such routers).
  parameter int XbarDor = 0,
  // 1 (torus/mesh only): the router pipeline of docs/reference/router.md "Pipeline (RtPipe)":
  // each head's route and credit need computed as it is written into its VC buffer and kept
  // beside it, the front flit of each VC buffer in a register. The same cycles as 0.
  // 2: the same, and a register between VC allocation and switch allocation (an idle input
  // VC's head allocated an output VC in cycle t requests the switch from t+1; a cycle per hop).
  parameter int RtPipe = 0,
  // 1: the VC buffers in block RAM (mt_rt_vc_buffer BufRam: a synchronous read port, a bypass
  // register per VC; docs/reference/router.md "VC buffers in block RAM"). The same cycles as 0;
  // an RTL-only choice (the C model has no twin of it), set by the FPGA shape's builds.
  parameter int BufRam = 0,
  localparam int NP = (Table != 0) ? NetPorts + L : 2 * D + L,
  localparam int VcW = mt_common_pkg::vc_w(NumVcs),
  localparam int FlitW = mt_common_pkg::flit_w(PayloadW, NumVcs)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // static configuration
  input  logic [11:0]          node_id_i,
  input  logic [WdW-1:0]       wd_limit_i,   // 0 = watchdog off
  // switch: route table write (entry tab_addr_i := tab_data_i, an MT_RT_TAB word; addresses
  // from Nodes on are ignored), every entry by the harness or host before traffic (the table
  // has no reset); unused at Table = 0
  input  logic                 tab_we_i,
  input  logic [11:0]          tab_addr_i,
  input  logic [15:0]          tab_data_i,
  // input side: flits in, credits back upstream
  input  logic [NP*FlitW-1:0]  in_flit_i,
  input  logic [NP-1:0]        in_valid_i,
  output logic [NP*NumVcs-1:0] in_credit_o,
  // output side: flits out, credits from downstream
  output logic [NP*FlitW-1:0]  out_flit_o,
  output logic [NP-1:0]        out_valid_o,
  input  logic [NP*NumVcs-1:0] out_credit_i,
  // sticky error flags per input VC (bit port*NumVcs + vc)
  output logic [NP*NumVcs-1:0] wd_err_o,
  output logic [NP*NumVcs-1:0] ovf_err_o,
  output logic [NP*NumVcs-1:0] rt_err_o     // switch: a head without a valid table entry
);
  localparam int ND = (Table != 0) ? NetPorts : 2 * D;  // network ports; the rest are local (NI)
  localparam int N = NP * NumVcs;
  localparam int IdxW = mt_common_pkg::idx_w(N);
  localparam int BufW = PayloadW + 3;
  localparam int MaxDepth = (VcDepth > EjDepth) ? VcDepth : EjDepth;
  localparam int CntW = $clog2(MaxDepth + 1);
  localparam int FlitBytes = PayloadW / 8;
  localparam int TabW = 9;                          // a table entry: {valid, n - 1, base}
  localparam int TabN = (Table != 0) ? Nodes : 1;
  localparam int NodeW = (TabN > 1) ? $clog2(TabN) : 1;
  localparam int LE = (L > 0) ? L : 1;              // local ports, for sizing (a switch may have none)
  localparam logic [15:0] NetMask = 16'((32'd1 << ND) - 32'd1);  // bit p: port p is a network port
`include "mt_rt_route_fn.svh"
`include "mt_rt_vc_alloc_fn.svh"
`include "mt_rt_table_fn.svh"

  // the outputs input port p may use (bit o), XbarDor
  function automatic logic [15:0] conn_f(input int p);
    int kd;
    conn_f = 16'hffff;
    if (XbarDor != 0 && Table == 0 && p < ND) begin
      kd = (p / 2 == 0) ? K0 : (p / 2 == 1) ? K1 : K2;
      for (int o = 0; o < ND; o++)
        if (o / 2 < p / 2 || (o / 2 == p / 2 && Torus != 0 && kd == 2)) conn_f[o] = 1'b0;
    end
  endfunction

  initial begin
    if (Table != 0 && Table != 1) $fatal(1, "mt_router: Table=%0d must be 0 (torus/mesh router) or 1 (switch)", Table);
    if (RtPipe != 0 && (RtPipe > 2 || RtPipe < 0 || Table != 0)) $fatal(1, "mt_router: RtPipe=%0d must be 0, or 1 or 2 at Table = 0 (Table=%0d)", RtPipe, Table);
    if (BufRam != 0 && BufRam != 1) $fatal(1, "mt_router: BufRam=%0d must be 0 or 1", BufRam);
    if (Table == 0) begin
      if (D < 1 || D > 3) $fatal(1, "mt_router: D=%0d must be 1..3", D);
      if (L < 1) $fatal(1, "mt_router: L=%0d must be >= 1", L);
      if (NP > 16) $fatal(1, "mt_router: 2*D+L=%0d must be <= 16 (4-bit port fields)", NP);
    end else begin
      if (NetPorts < 0 || L < 0 || NP < 1 || NP > 16)
        $fatal(1, "mt_router: switch radix NetPorts+L=%0d+%0d must be 1..16 (4-bit port fields)", NetPorts, L);
      if (HopClasses < 1 || NumVcs % HopClasses != 0)
        $fatal(1, "mt_router: HopClasses=%0d must divide NumVcs=%0d", HopClasses, NumVcs);
      if (Nodes < 1 || Nodes > 4096) $fatal(1, "mt_router: Nodes=%0d must be 1..4096 (12-bit node ids)", Nodes);
    end
    if (NumVcs < 2 || NumVcs % 2 != 0 || NumVcs > 16)
      $fatal(1, "mt_router: NumVcs=%0d must be even and 2..16 (dateline classes)", NumVcs);
    if (PayloadW < 128 || PayloadW % 32 != 0 || PayloadW > 512)
      $fatal(1, "mt_router: PayloadW=%0d must be a multiple of 32 in 128..512", PayloadW);
    if (VcDepth < 1 || EjDepth < 1 || MaxDepth > 65535)
      $fatal(1, "mt_router: VcDepth=%0d/EjDepth=%0d out of 1..65535", VcDepth, EjDepth);
    if (SubPktFlits < 1 || SubPktFlits > VcDepth || SubPktFlits > EjDepth)
      $fatal(1, "mt_router: SubPktFlits=%0d must be 1..min(VcDepth, EjDepth)", SubPktFlits);
    for (int d = 0; d < 3; d++)
      if (LinkPeriods[8*d +: 8] > 8'd1 && (Table != 0 || d >= D))
        $fatal(1, "mt_router: LinkPeriods[%0d]=%0d: a dimension the router does not have (D=%0d, Table=%0d) must be 0 or 1",
               d, LinkPeriods[8*d +: 8], D, Table);
  end

  // ---------------- per input VC ----------------
  logic [N-1:0]        ne, req, go, last, sent, is_head, swap, stall, ovf;
  logic [N*16-1:0]     prio;
  logic [N*4-1:0]      rport;       // output port of the current unit (switch allocation)
  logic [N*VcW-1:0]    rvc;         // output VC of the current unit
  // RtPipe = 2: the output port and VC an idle VC's head asks for (VC allocation); otherwise
  // rport and rvc
  logic [N*4-1:0]      vport;
  logic [N*VcW-1:0]    vvc;
  // the front flit (type and payload) of each input VC: what the crossbar selects from, with
  // the VC (rvc) and the swap of next and eject (swap) applied after the selection. A flat
  // vector, so that Yosys builds a mux tree per output (an unpacked array becomes a one-hot
  // $pmux of twice the cells); copying the 32 fronts into it is cheap in Verilator, unlike
  // assembling 32 outgoing flits every cycle.
  logic [N*BufW-1:0]   front;
  logic [N-1:0]        head_new, tail_end;
  // RtPipe = 2: va_req, an idle VC's head with an output VC free for it; va_sel, the head
  // granted by its output's VC allocation arbiter
  logic [N-1:0]        va_req, va_sel;
  // per input VC registers; RtPipe = 2: hp_q, the VC allocated and its head not sent yet;
  // swap_q, that head's next and eject fields to be swapped when it is sent
  logic [N-1:0]        active_q, is_ar_q, hp_q, swap_q;
  logic [N*4-1:0]      oport_q;
  logic [N*VcW-1:0]    ovc_q;
  logic [N*16-1:0]     step_q;
  // per output port
  logic [NP-1:0]       gnt, held;
  logic [NP*IdxW-1:0]  gidx, holder;
  logic [15:0]         held_x;      // held, indexed by a 4-bit port
  assign held_x = 16'(held);
  logic [N*CntW-1:0]   cred;        // (port, vc) credit counters
  logic [N-1:0]        busy_d, busy_q, take;
  logic [NP*FlitW-1:0] xbar_out;
  logic [N-1:0]        ovf_err_d, ovf_err_q;
  logic [N-1:0]        avail;     // = cred != 0; the credit checks compare cred itself
  // local (ejection) output VCs: the source of the last unit started there (one register
  // per VC); a VC is occupied while allocated or while its credits are not all back, and
  // one source holds at most NumVcs-1 occupied VCs of a local output
  localparam int SrcW = mt_common_pkg::HD_SRC_W;
  logic [LE*NumVcs*SrcW-1:0] esrc_q;
  // switch: the transfer of the last unit started on each local output VC, {packet head,
  // SRC, FLOW and OP, STEP} (0 but for a normal Head): a packet of the same transfer may
  // join the VC when it is not empty (docs/reference/switch.md "Empty ejection VCs, and joining")
  localparam int FoW = mt_common_pkg::HD_FLOW_W + mt_common_pkg::HD_OP_W;
  localparam int KeyW = 1 + SrcW + FoW + mt_common_pkg::HD_STEP_W;
  logic [LE*NumVcs*KeyW-1:0] ekey_q;
  // per port (0 for network ports): a head of source ej_src[o] must not take a VC of o
  // when ej_cap[o]
  logic [NP-1:0]       ej_cap;
  logic [NP*SrcW-1:0]  ej_src;

  // static: the coordinates of this node (the id is a register in mt_node)
  logic [47:0] mc;
  assign mc = mt_rt_coords(node_id_i);

  // switch: the route table, one register of TabW bits per destination. Like the NI's
  // schedule table it has no reset (a reset keeps it) and the host writes every entry, the
  // invalid ones as 0, before traffic (the C model starts with every entry invalid).
  logic [TabN*TabW-1:0] tab_q;
  logic [N-1:0] rt_bad, rt_err_q;  // a head without a valid entry at an idle VC's front
  if (Table != 0) begin : g_tab
    always_ff @(posedge clk_i) begin
      if (tab_we_i && {1'b0, tab_addr_i} < 13'(Nodes)) tab_q[tab_addr_i[NodeW-1:0]*TabW +: TabW] <= {tab_data_i[15], tab_data_i[7:0]};
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) rt_err_q <= '0;
      else rt_err_q <= rt_err_q | rt_bad;
    end
  end else begin : g_notab
    assign tab_q = '0;
    assign rt_err_q = '0;
  end
  assign rt_err_o = rt_err_q;

  // ---- RtPipe = 1: per input port, the route of the incoming flit (its VC's class) and the
  // credits it needs (mt_rt_need_f), written with it into its VC buffer: {need, port, mask, swap}
  localparam int SbF = CntW + 1 + 1 + NumVcs + 4;  // the side band's fields
  localparam int SbW = (RtPipe != 0) ? SbF : 0;
  localparam int BufSbW = BufW + SbW;  // a VC buffer's width
  logic [NP*BufSbW-1:0] in_sb;          // in_flit_i's flit with its side band, per port
  for (genvar p = 0; p < NP; p++) begin : g_pin
    logic [BufW-1:0] pf;
    assign pf = in_flit_i[p*FlitW +: BufW];
    if (RtPipe != 0) begin : g_sb
      logic [NumVcs+4:0] prt;
      logic [CntW:0] pneed;
      assign prt = mt_rt_route_f(mc, 4'(p), in_flit_i[p*FlitW + PayloadW + 3 +: VcW] >= VcW'(NumVcs / 2), pf[PayloadW + 2],
                                 pf[mt_common_pkg::HD_DST_LSB +: mt_common_pkg::HD_DST_W],
                                 pf[mt_common_pkg::HD_NEXT_LSB +: mt_common_pkg::HD_NEXT_W],
                                 pf[mt_common_pkg::HD_EJECT_LSB +: mt_common_pkg::HD_EJECT_W]);
      assign pneed = mt_rt_need_f(pf[mt_common_pkg::HD_LEN_LSB +: mt_common_pkg::HD_LEN_W]);
      assign in_sb[p*BufSbW +: BufSbW] = {pneed, prt, pf};
    end else begin : g_nosb
      assign in_sb[p*BufSbW +: BufSbW] = pf;
    end
  end
  // ---- end RtPipe

  for (genvar i = 0; i < N; i++) begin : g_ivc
    localparam int P = i / NumVcs;
    localparam int V = i % NumVcs;
    logic [BufW-1:0] f;
    logic [BufSbW-1:0] fb;  // the buffer's front: f and, at RtPipe = 1, its side band
    logic [SbF-1:0] sb;     // the side band ('0 at RtPipe = 0)
    logic [mt_common_pkg::FT_W-1:0] ft;
    logic push, empty, r_swap, r_err, a_ok, holding, rq;
    logic [TabW-1:0] t_e;
    logic [3:0] r_port, port_cur, port_sa;
    logic [NumVcs-1:0] r_mask;
    logic [VcW-1:0] a_vc, vc_cur, vc_sa;
    logic [NumVcs*CntW-1:0] cvec;
    logic [CntW-1:0] c_cur;
    logic cap_sel;
    logic [SrcW-1:0] src_sel;
    logic [NumVcs-1:0] join_ok;
    logic [KeyW-1:0] key;
    assign key = {ft == mt_common_pkg::FT_HEAD, f[mt_common_pkg::HD_SRC_LSB +: SrcW], f[mt_common_pkg::HD_FLOW_LSB +: FoW],
                  f[mt_common_pkg::HD_STEP_LSB +: mt_common_pkg::HD_STEP_W]};

    assign push = in_valid_i[P] &&
                  (in_flit_i[P*FlitW + PayloadW + 3 +: VcW] == VcW'(V));

    if (InOff[P]) begin : g_off
      assign fb = '0;
      assign empty = 1'b1;
      assign ovf[i] = 1'b0;
      logic unused_off;
      assign unused_off = ^{push, in_flit_i[P*FlitW +: FlitW], in_sb[P*BufSbW +: BufSbW]};
    end else begin : g_on
      mt_rt_vc_buffer #(.Depth(VcDepth), .Width(BufSbW), .FrontReg((RtPipe != 0 && BufRam == 0) ? 1 : 0), .BufRam(BufRam)) u_buf (
        .clk_i, .rst_ni,
        .push_i (push),
        .data_i (in_sb[P*BufSbW +: BufSbW]),
        .pop_i  (sent[i]),
        .data_o (fb),
        .empty_o(empty),
        .ovf_o  (ovf[i])
      );
    end
    assign f = fb[BufW-1:0];
    if (RtPipe != 0) begin : g_sbf
      assign sb = fb[BufW +: SbF];
    end else begin : g_nosbf
      assign sb = '0;
    end
    assign ne[i] = !empty;
    assign ft = f[PayloadW +: mt_common_pkg::FT_W];
    assign is_head[i] = (ft == mt_common_pkg::FT_AR_HEAD) || (ft == mt_common_pkg::FT_HEAD) || (ft == mt_common_pkg::FT_HEADTAIL);
    assign last[i] = (ft == mt_common_pkg::FT_TAIL) || (ft == mt_common_pkg::FT_HEADTAIL) || (ft == mt_common_pkg::FT_AR_HEAD) ||
                     (ft == mt_common_pkg::FT_AR_SUBTAIL) || (ft == mt_common_pkg::FT_AR_TAIL);

    // The unit's output port and VC, its request and the credit count it sends on. Only a
    // VC holding a flit can request or be granted (and only a granted or holding one is
    // read by the allocators, the crossbar and the VC state below), and only an idle one
    // with a head at its front needs route computation and VC allocation: evaluated under
    // these conditions, so that the Verilated model skips them for the others (most VCs,
    // most cycles; docs/results/bench.md "RTL simulation speed"). Hardware: the same logic per VC.
    always @(*) begin
      {r_port, r_mask, r_swap, r_err} = '0;
      t_e = '0;
      {a_ok, a_vc} = '0;
      port_cur = oport_q[i*4 +: 4];
      vc_cur = ovc_q[i*VcW +: VcW];
      port_sa = oport_q[i*4 +: 4];
      vc_sa = ovc_q[i*VcW +: VcW];
      cvec = '0;
      c_cur = '0;
      holding = 1'b0;
      cap_sel = 1'b0;
      src_sel = '0;
      join_ok = '0;
      rq = 1'b0;
      if (!empty) begin
        // one selection of the output's credits and VC for both cases (shared in hardware)
        if (!active_q[i] && is_head[i]) begin
          if (Table != 0) begin
            // the destination's entry; none beyond the table
            if ({1'b0, f[mt_common_pkg::HD_DST_LSB +: mt_common_pkg::HD_DST_W]} < 13'(TabN))
              t_e = tab_q[f[mt_common_pkg::HD_DST_LSB +: NodeW]*TabW +: TabW];
            {r_port, r_mask, r_err} = mt_rt_table_f(t_e, f[mt_common_pkg::HD_SRC_LSB +: mt_common_pkg::HD_SRC_W], 4'(P), 4'(V));
          end else if (RtPipe != 0) begin
            {r_port, r_mask, r_swap} = {sb[1 + NumVcs +: 4], sb[1 +: NumVcs], sb[0]};
          end else begin
            {r_port, r_mask, r_swap} = mt_rt_route_f(mc, 4'(P), V >= NumVcs / 2, ft[2],
              f[mt_common_pkg::HD_DST_LSB +: mt_common_pkg::HD_DST_W],
              f[mt_common_pkg::HD_NEXT_LSB +: mt_common_pkg::HD_NEXT_W],
              f[mt_common_pkg::HD_EJECT_LSB +: mt_common_pkg::HD_EJECT_W]);
          end
        end
        if (!active_q[i]) port_cur = r_port;
        cvec = cred[port_cur*NumVcs*CntW +: NumVcs*CntW];
        if (!active_q[i] && is_head[i]) begin
          // the source cap of port_cur (computed once per output below): one comparison
          for (int o = ND; o < NP; o++) begin
            if (port_cur == 4'(o)) begin
              cap_sel = ej_cap[o];
              src_sel = ej_src[o*SrcW +: SrcW];
              if (Table != 0 && key[KeyW-1])
                for (int v = 0; v < NumVcs; v++) join_ok[v] = ekey_q[((o - ND) * NumVcs + v)*KeyW +: KeyW] == key;
            end
          end
          if (RtPipe != 0)
            {a_ok, a_vc} = mt_rt_vc_alloc_need_f(r_mask, busy_q[port_cur*NumVcs +: NumVcs], cvec, ft, !NetMask[port_cur],
                                                 cap_sel && (src_sel == f[mt_common_pkg::HD_SRC_LSB +: SrcW]),
                                                 sb[SbF-1 -: CntW + 1], join_ok);
          else
            {a_ok, a_vc} = mt_rt_vc_alloc_f(r_mask, busy_q[port_cur*NumVcs +: NumVcs], cvec, ft, !NetMask[port_cur],
                                            cap_sel && (src_sel == f[mt_common_pkg::HD_SRC_LSB +: SrcW]),
                                            f[mt_common_pkg::HD_LEN_LSB +: mt_common_pkg::HD_LEN_W], join_ok);
        end
        if (!active_q[i]) vc_cur = a_vc;
        // the switch allocation's port, VC and credits: at RtPipe = 2 those of the registered
        // allocation only (an idle VC does not request the switch), not of the VC choice
        if (RtPipe >= 2) begin
          c_cur = cred[(32'(port_sa) * NumVcs + 32'(vc_sa))*CntW +: CntW];
        end else begin
          port_sa = port_cur;
          vc_sa = vc_cur;
          c_cur = cvec[vc_cur*CntW +: CntW];
        end
        holding = held_x[port_sa] && (holder[port_sa*IdxW +: IdxW] == IdxW'(i));
        rq = active_q[i] ? (hp_q[i] || (!holding && is_ar_q[i] && !ft[2] && !is_head[i] &&
                                            ({{(32 - CntW){1'b0}}, c_cur} >= 32'(SubPktFlits))))
                         : (RtPipe < 2 && is_head[i] && a_ok);
      end
    end

    localparam logic [15:0] Conn = conn_f(P);
    if (RtPipe >= 2) begin : g_vsa
      // VC allocation registered: the head requests the switch once its VC is allocated (hp_q)
      assign swap[i] = hp_q[i] && swap_q[i];
      assign va_req[i] = !empty && !active_q[i] && is_head[i] && a_ok && Conn[port_cur];
      assign head_new[i] = va_sel[i];
    end else begin : g_nvsa
      assign swap[i] = !active_q[i] && r_swap && (ft == mt_common_pkg::FT_AR_HEAD);
      assign va_req[i] = 1'b0;
      assign head_new[i] = sent[i] && !active_q[i] && is_head[i] && (ft != mt_common_pkg::FT_HEADTAIL);
    end
    assign rt_bad[i] = r_err;
    assign req[i] = rq && Conn[port_sa];
    assign go[i] = ne[i] && (c_cur != '0);
    assign prio[i*16 +: 16] = active_q[i] ? step_q[i*16 +: 16] : f[mt_common_pkg::HD_STEP_LSB +: mt_common_pkg::HD_STEP_W];
    assign rport[i*4 +: 4] = port_sa;
    assign rvc[i*VcW +: VcW] = vc_sa;
    assign vport[i*4 +: 4] = port_cur;
    assign vvc[i*VcW +: VcW] = vc_cur;
    assign front[i*BufW +: BufW] = f;

    // RtPipe = 2: a Head&Tail holds its VC from its allocation until it is sent
    assign tail_end[i] = sent[i] && active_q[i] && ((ft == mt_common_pkg::FT_TAIL) || (ft == mt_common_pkg::FT_AR_TAIL) ||
                                                    (RtPipe >= 2 && hp_q[i] && ft == mt_common_pkg::FT_HEADTAIL));
    assign stall[i] = ne[i] && !sent[i];

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        active_q[i] <= 1'b0;
        is_ar_q[i] <= 1'b0;
        oport_q[i*4 +: 4] <= '0;
        ovc_q[i*VcW +: VcW] <= '0;
        step_q[i*16 +: 16] <= '0;
        hp_q[i] <= 1'b0;
        swap_q[i] <= 1'b0;
      end else if (head_new[i]) begin
        hp_q[i] <= RtPipe >= 2;
        swap_q[i] <= RtPipe >= 2 && r_swap && (ft == mt_common_pkg::FT_AR_HEAD);
        active_q[i] <= 1'b1;
        is_ar_q[i] <= (ft == mt_common_pkg::FT_AR_HEAD);
        oport_q[i*4 +: 4] <= port_cur;
        ovc_q[i*VcW +: VcW] <= vc_cur;
        step_q[i*16 +: 16] <= f[mt_common_pkg::HD_STEP_LSB +: mt_common_pkg::HD_STEP_W];
      end else begin
        if (tail_end[i]) active_q[i] <= 1'b0;
        if (sent[i]) hp_q[i] <= 1'b0;
      end
    end

    mt_rt_watchdog #(.WdW(WdW)) u_wd (
      .clk_i, .rst_ni,
      .stall_i(stall[i]),
      .limit_i(wd_limit_i),
      .err_o  (wd_err_o[i])
    );
  end

  // ---------------- per output port: switch allocation ----------------
  // requests r by output port (pt, 4 bits per input VC): bit o*N + i set only for a requesting
  // input VC i of port o
  function automatic logic [NP*N-1:0] by_port_f(input logic [N-1:0] r, input logic [N*4-1:0] pt);
    by_port_f = '0;
    for (int i = 0; i < N; i++) begin
      for (int o = 0; o < NP; o++) if (r[i] && pt[i*4 +: 4] == 4'(o)) by_port_f[o*N + i] = 1'b1;
    end
  endfunction
  logic [NP*N-1:0] oreq;
  assign oreq = by_port_f(req, rport);
  // the input VCs granted by the output ports' arbiters (g: grant, idx: the input VC, per port)
  function automatic logic [N-1:0] granted_f(input logic [NP-1:0] g, input logic [NP*IdxW-1:0] idx);
    granted_f = '0;
    for (int o = 0; o < NP; o++) begin
      for (int i = 0; i < N; i++) if (g[o] && idx[o*IdxW +: IdxW] == IdxW'(i)) granted_f[i] = 1'b1;
    end
  endfunction
  // pacing: an output of a dimension with LinkPeriods > 1 that sent waits Per - 1 cycles
  // (cycles with en = 0: no request or continuation reaches its allocator)
  logic [NP-1:0] en;
  for (genvar o = 0; o < NP; o++) begin : g_pace
    localparam int Dm = (Table == 0 && o < ND) ? o / 2 : 0;  // its dimension (any for the others)
    localparam int Per = (Table == 0 && o < ND) ? {24'd0, LinkPeriods[8*Dm +: 8]} : 1;
    if (Per > 1) begin : g_on
      logic [7:0] pace_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) pace_q <= '0;
        else if (gnt[o]) pace_q <= 8'(Per - 1);
        else if (pace_q != '0) pace_q <= pace_q - 8'd1;
      end
      assign en[o] = pace_q == '0;
    end else begin : g_off
      assign en[o] = 1'b1;
    end
  end
  for (genvar o = 0; o < NP; o++) begin : g_out
    mt_rt_sw_alloc #(.N(N), .StepPrio(StepPrio), .IdxW(IdxW)) u_sa (
      .clk_i, .rst_ni,
      .req_i   (oreq[o*N +: N] & {N{en[o]}}),
      .go_i    (go & {N{en[o]}}),
      .last_i  (last),
      .prio_i  (prio),
      .gnt_o   (gnt[o]),
      .idx_o   (gidx[o*IdxW +: IdxW]),
      .held_o  (held[o]),
      .holder_o(holder[o*IdxW +: IdxW])
    );
  end

  // RtPipe = 2: VC allocation per output port, registered (head_new: active_q, oport_q, ovc_q,
  // busy_q, hp_q): one head a cycle by the switch allocator's rule (round robin after the last
  // winner; with StepPrio the smallest step first), never held, not paced
  logic [NP-1:0]      va_gnt;
  logic [NP*IdxW-1:0] va_idx;
  if (RtPipe >= 2) begin : g_va
    logic [NP*N-1:0] vreq;
    assign vreq = by_port_f(va_req, vport);
    for (genvar o = 0; o < NP; o++) begin : g_vo
      logic va_held;
      logic [IdxW-1:0] va_holder;
      mt_rt_sw_alloc #(.N(N), .StepPrio(StepPrio), .IdxW(IdxW)) u_va (
        .clk_i, .rst_ni,
        .req_i   (vreq[o*N +: N]),
        .go_i    ({N{1'b0}}),
        .last_i  ({N{1'b1}}),
        .prio_i  (prio),
        .gnt_o   (va_gnt[o]),
        .idx_o   (va_idx[o*IdxW +: IdxW]),
        .held_o  (va_held),
        .holder_o(va_holder)
      );
      logic unused_va;
      assign unused_va = ^{va_held, va_holder};
    end
    assign va_sel = granted_f(va_gnt, va_idx);
  end else begin : g_nva
    assign va_gnt = '0;
    assign va_idx = '0;
    assign va_sel = '0;
  end

  // sent: the input VC granted by its output port
  assign sent = granted_f(gnt, gidx);

  // crossbar: output o carries the flit of the input VC it granted, on its new VC; at the
  // source router of an all-reduce message its head's next and eject fields swapped
  // (mt_common_pkg: EJECT lies directly above NEXT); all zeros without a grant
  for (genvar o = 0; o < NP; o++) begin : g_xb
    logic [N*BufW-1:0] fm;  // the fronts of the input VCs that may use output o (XbarDor), others 0
    logic [BufW-1:0] xf;
    logic [FlitW-1:0] xo;
    for (genvar i = 0; i < N; i++) begin : g_in
      localparam logic [15:0] C = conn_f(i / NumVcs);
      assign fm[i*BufW +: BufW] = C[o] ? front[i*BufW +: BufW] : '0;
    end
    always @(*) begin
      xf = '0;
      xo = '0;
      if (gnt[o]) begin
        xf = fm[gidx[o*IdxW +: IdxW]*BufW +: BufW];
        if (swap[gidx[o*IdxW +: IdxW]])
          xf = {xf[BufW-1:mt_common_pkg::HD_EJECT_LSB + mt_common_pkg::HD_EJECT_W],
                xf[mt_common_pkg::HD_NEXT_LSB +: mt_common_pkg::HD_NEXT_W], xf[mt_common_pkg::HD_EJECT_LSB +: mt_common_pkg::HD_EJECT_W],
                xf[mt_common_pkg::HD_NEXT_LSB-1:0]};
        xo = {rvc[gidx[o*IdxW +: IdxW]*VcW +: VcW], xf};
      end
    end
    assign xbar_out[o*FlitW +: FlitW] = xo;
  end

  // ---------------- output VC state and credits ----------------
  always @(*) begin
    busy_d = busy_q;
    take = '0;
    for (int i = 0; i < N; i++) begin
      if (head_new[i]) busy_d[vport[i*4 +: 4]*NumVcs + 32'(vvc[i*VcW +: VcW])] = 1'b1;
      if (tail_end[i]) busy_d[rport[i*4 +: 4]*NumVcs + 32'(rvc[i*VcW +: VcW])] = 1'b0;
      if (sent[i]) take[rport[i*4 +: 4]*NumVcs + 32'(rvc[i*VcW +: VcW])] = 1'b1;
    end
  end

  for (genvar j = 0; j < N; j++) begin : g_cred
    localparam int P = j / NumVcs;
    mt_credit_counter #(.Depth(P < ND ? VcDepth : EjDepth), .CntW(CntW)) u_cc (
      .clk_i, .rst_ni,
      .take_i (take[j]),
      .give_i (out_credit_i[j]),
      .cnt_o  (cred[j*CntW +: CntW]),
      .avail_o(avail[j])
    );
  end

  // Source cap per local output (docs/reference/router.md): a head may take an empty VC of output o
  // unless its source occupies NumVcs-1 VCs there. A head needs a VC that is not occupied,
  // so the cap matters only when exactly one VC is free; then it holds iff every occupied VC
  // has one source, ej_src[o]. So the output compares its own VCs (NumVcs-1 comparisons)
  // and each input VC compares its head's source once, instead of against every VC.
  for (genvar o = 0; o < NP; o++) begin : g_ecap
    if (o < ND) begin : g_net
      assign ej_cap[o] = 1'b0;
      assign ej_src[o*SrcW +: SrcW] = '0;
    end else begin : g_loc
      localparam int B = (o - ND) * NumVcs;  // first VC of o in esrc_q
      logic [NumVcs-1:0] fr;                  // VCs not occupied (not allocated, all credits back)
      logic one, uni;
      logic [SrcW-1:0] s;
      for (genvar v = 0; v < NumVcs; v++) begin : g_fr
        assign fr[v] = !busy_q[o*NumVcs + v] && (32'(cred[(o*NumVcs + v)*CntW +: CntW]) >= 32'(EjDepth));
      end
      assign one = (fr != '0) && ((fr & (fr - NumVcs'(1))) == '0);
      // an occupied VC when exactly one is free: VC 0, or VC 1 if VC 0 is the free one
      assign s = fr[0] ? esrc_q[(B + 1)*SrcW +: SrcW] : esrc_q[B*SrcW +: SrcW];
      always @(*) begin
        uni = 1'b1;
        for (int v = 0; v < NumVcs; v++)
          if (!fr[v] && esrc_q[(B + v)*SrcW +: SrcW] != s) uni = 1'b0;
      end
      assign ej_cap[o] = one && uni;
      assign ej_src[o*SrcW +: SrcW] = s;
    end
  end

  // source of the unit started on each local output VC: the output's flit, when its input
  // VC was idle (a head; at most one input VC per output and cycle); at RtPipe = 2 the head
  // its VC allocation granted
  logic [NP-1:0] idle_w;  // the winner of output o was an idle input VC
  logic [NP-1:0] st_w;    // a unit starts on output o
  logic [NP*VcW-1:0] st_vc;
  logic [NP*SrcW-1:0] st_src;
  for (genvar o = 0; o < NP; o++) begin : g_idle
    assign idle_w[o] = gnt[o] && !active_q[gidx[o*IdxW +: IdxW]];
    if (RtPipe >= 2) begin : g_va
      assign st_w[o] = va_gnt[o];
      assign st_vc[o*VcW +: VcW] = vvc[va_idx[o*IdxW +: IdxW]*VcW +: VcW];
      assign st_src[o*SrcW +: SrcW] = front[va_idx[o*IdxW +: IdxW]*BufW + mt_common_pkg::HD_SRC_LSB +: SrcW];
    end else begin : g_sa
      assign st_w[o] = idle_w[o];
      assign st_vc[o*VcW +: VcW] = xbar_out[o*FlitW + PayloadW + 3 +: VcW];
      assign st_src[o*SrcW +: SrcW] = xbar_out[o*FlitW + mt_common_pkg::HD_SRC_LSB +: SrcW];
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      esrc_q <= '0;
    end else begin
      for (int o = ND; o < NP; o++)
        for (int v = 0; v < NumVcs; v++)
          if (st_w[o] && st_vc[o*VcW +: VcW] == VcW'(v))
            esrc_q[((o - ND) * NumVcs + v)*SrcW +: SrcW] <= st_src[o*SrcW +: SrcW];
    end
  end
  if (Table != 0) begin : g_ekey
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ekey_q <= '0;
      end else begin
        for (int o = ND; o < NP; o++)
          for (int v = 0; v < NumVcs; v++)
            if (idle_w[o] && xbar_out[o*FlitW + PayloadW + 3 +: VcW] == VcW'(v))
              ekey_q[((o - ND) * NumVcs + v)*KeyW +: KeyW] <=
                {xbar_out[o*FlitW + PayloadW +: mt_common_pkg::FT_W] == mt_common_pkg::FT_HEAD,
                 xbar_out[o*FlitW + mt_common_pkg::HD_SRC_LSB +: SrcW], xbar_out[o*FlitW + mt_common_pkg::HD_FLOW_LSB +: FoW],
                 xbar_out[o*FlitW + mt_common_pkg::HD_STEP_LSB +: mt_common_pkg::HD_STEP_W]};
      end
    end
  end else begin : g_noekey
    assign ekey_q = '0;
  end

  assign ovf_err_d = ovf_err_q | ovf;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= '0;
      out_flit_o <= '0;
      out_valid_o <= '0;
      in_credit_o <= '0;
      ovf_err_q <= '0;
    end else begin
      busy_q <= busy_d;
      out_flit_o <= xbar_out;
      out_valid_o <= gnt;
      in_credit_o <= sent;
      ovf_err_q <= ovf_err_d;
    end
  end
  assign ovf_err_o = ovf_err_q;
  logic unused_ok;
  // avail: the credit checks compare the counts; the table write port at Table = 0; the
  // coordinates and a switch's esrc_q without NI ports at Table = 1
  assign unused_ok = ^{avail, tab_we_i, tab_addr_i, tab_data_i, mc, node_id_i, esrc_q, ekey_q, rt_bad, idle_w, va_req, va_sel, va_gnt, va_idx, swap_q};

`ifdef FORMAL
  // credit safety: no take without a credit (checked inside every mt_credit_counter) and
  // no output VC busy bit set twice
  always @(*) if (rst_ni) begin
    for (int i = 0; i < N; i++) begin
      if (head_new[i]) assert (!busy_q[vport[i*4 +: 4]*NumVcs + 32'(vvc[i*VcW +: VcW])]);
    end
  end
`endif
endmodule
