// SPDX-License-Identifier: Apache-2.0
// mt_ni_ejbuf: the NI's ejection buffers, one FIFO of EjDepth flits per (local port, VC):
// stream s = port*NumVcs + vc. A flit arriving on port l is stored in the FIFO of its VC
// field if that FIFO was not full before the edge (otherwise it is dropped and ovf_o is
// high in that cycle: a credit violation). The oldest flit of every stream s is on
// head_o[s] (valid when nonempty_o[s]); each receive engine picks among the heads of its
// own streams (mt_ni.sv), so a read costs an EjDepth:1 multiplexer per stream and a
// (streams of the engine):1 per engine, not an (S*EjDepth):1 per engine. NR pop ports, one
// per receive engine: port r pops stream pop_s_i[r] (pop_i[r]; the engines serve disjoint
// streams, so the pops of one cycle are of different streams). Every pop returns one
// credit pulse on ej_credit_o[s] in the next cycle (registered). nonempty_nx_o[s] says whether
// stream s holds a flit after this edge if it is not popped at it, nonempty_nxp_o[s] if it is
// (both from registers and this edge's write: the engines pick from them a cycle ahead).
`default_nettype none

module mt_ni_ejbuf #(
  parameter int L        = 4,
  parameter int NumVcs   = 2,
  parameter int EjDepth  = 4,
  parameter int PayloadW = 128,
  parameter int NR       = 1,      // read ports (receive engines)
  localparam int VcW     = mt_common_pkg::vc_w(NumVcs),
  localparam int FlitW   = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int S       = L * NumVcs,
  localparam int SW      = mt_common_pkg::idx_w(S),
  localparam int CW      = $clog2(EjDepth + 1),
  localparam int PW      = mt_common_pkg::idx_w(EjDepth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [L*FlitW-1:0] ej_flit_i,
  input  logic [L-1:0]     ej_valid_i,
  output logic [S-1:0]     ej_credit_o,
  input  logic [NR-1:0]       pop_i,
  input  logic [NR*SW-1:0]    pop_s_i,
  output logic [S*FlitW-1:0]  head_o,
  output logic [S-1:0]     nonempty_o,
  output logic [S-1:0]     nonempty_nx_o,
  output logic [S-1:0]     nonempty_nxp_o,
  output logic             ovf_o
);
  initial begin
    // 1024: the C model's MT_NI_MAX_EJD (a 150-cycle NI link of a switch network needs 318)
    if (EjDepth < 1 || EjDepth > 1024) $fatal(1, "mt_ni_ejbuf: EjDepth=%0d: must be 1..1024", EjDepth);
    if (L < 1 || NumVcs < 1) $fatal(1, "mt_ni_ejbuf: L/NumVcs");
    if (NR < 1) $fatal(1, "mt_ni_ejbuf: NR=%0d", NR);
  end

  logic [S*PW-1:0]  rd_q;
  logic [S*CW-1:0]  cnt_q;
  logic [S-1:0]     cred_q;

  // per port: target stream and fullness (before the edge)
  logic [L*SW-1:0] tgt;
  logic [L-1:0]    full;
  for (genvar l = 0; l < L; l++) begin : g_port
    logic [VcW-1:0] vc;
    logic [SW-1:0]  s;
    assign vc = ej_flit_i[l*FlitW + PayloadW + 3 +: VcW];
    assign s  = SW'(l * NumVcs) + ((32'(vc) < NumVcs) ? SW'(vc) : '0);
    assign tgt[l*SW +: SW] = s;
    assign full[l] = (32'(cnt_q[CW*s +: CW]) >= EjDepth);
  end
  assign ovf_o = |(ej_valid_i & full);

  function automatic [PW-1:0] wrap(input logic [31:0] x);
    wrap = (x >= 32'(EjDepth)) ? PW'(x - 32'(EjDepth)) : PW'(x);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q <= '0; cnt_q <= '0; cred_q <= '0;
    end else begin
      logic [S*CW-1:0] c;
      c = cnt_q;
      cred_q <= '0;
      for (int r = 0; r < NR; r++)
        if (pop_i[r]) begin
          rd_q[PW*pop_s_i[SW*r +: SW] +: PW] <= wrap(32'(rd_q[PW*pop_s_i[SW*r +: SW] +: PW]) + 32'd1);
          c[CW*pop_s_i[SW*r +: SW] +: CW] = c[CW*pop_s_i[SW*r +: SW] +: CW] - 1'b1;
          cred_q[pop_s_i[SW*r +: SW]] <= 1'b1;
        end
      for (int l = 0; l < L; l++)
        if (ej_valid_i[l] && !full[l]) c[CW*tgt[l*SW +: SW] +: CW] = c[CW*tgt[l*SW +: SW] +: CW] + 1'b1;
      cnt_q <= c;
    end
  end

  for (genvar s = 0; s < S; s++) begin : g_ne
    assign nonempty_o[s] = (cnt_q[CW*s +: CW] != '0);
  end
  // the storage, one memory per stream with one write port: stream s is written only by its
  // port s / NumVcs, so each FIFO is a one-write, one-read memory (distributed RAM on an FPGA)
  // rather than words that any of the L ports may write
  for (genvar s = 0; s < S; s++) begin : g_rd
    localparam int Lp = s / NumVcs;
    logic [FlitW-1:0] mem_q [0:EjDepth-1];
    logic we;
    logic [PW-1:0] wa;
    assign we = ej_valid_i[Lp] && !full[Lp] && (tgt[Lp*SW +: SW] == SW'(s));
    assign wa = wrap(32'(rd_q[PW*s +: PW]) + 32'(cnt_q[CW*s +: CW]));
    always_ff @(posedge clk_i) begin
      if (we) mem_q[wa] <= ej_flit_i[Lp*FlitW +: FlitW];
    end
    assign head_o[FlitW*s +: FlitW] = mem_q[rd_q[PW*s +: PW]];
    assign nonempty_nx_o[s]  = nonempty_o[s] || we;
    assign nonempty_nxp_o[s] = (32'(cnt_q[CW*s +: CW]) >= 2) || we;
  end
  assign ej_credit_o = cred_q;
endmodule
