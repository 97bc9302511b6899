// SPDX-License-Identifier: Apache-2.0
// tb_mt_router_formal: bounded proof (yosys-smtbmc + z3) on a minimal router (D=1, L=1, 2 VCs,
// depth 2): with an upstream that obeys the router's credits and a downstream that returns one
// credit per flit it holds, (a) no downstream buffer ever holds more than its depth, i.e. no
// flit leaves without a credit, (b) inside every mt_credit_counter the count stays in 0..depth,
// equals depth minus the flits in flight, and no take happens at count 0.
// Only meaningful under `read_verilog -formal` (FORMAL defined); not a simulation bench.
module tb_mt_router_formal #(
  parameter int NP = 3,
  parameter int NV = 2,
  parameter int Depth = 2,
  parameter int FlitW = 128 + 3 + 1
) (
  input logic                clk_i,
  input logic                rst_ni,
  input logic [11:0]         node_id_i,
  // free inputs, narrowed to what routing and flow control read: flit type, VC, packet
  // info word 0 (dst/src/next/eject) and a 3-bit len; the other payload bits are 0
  input logic [NP*32-1:0]    in_w0_i,
  input logic [NP*3-1:0]     in_len_i,
  input logic [NP*3-1:0]     in_type_i,
  input logic [NP-1:0]       in_vc_i,
  input logic [NP-1:0]       in_valid_i,
  input logic [NP*NV-1:0]    out_credit_i
);
  logic [NP*NV-1:0] in_credit, wd_err, ovf_err;
  logic [NP*FlitW-1:0] out_flit;
  logic [NP-1:0] out_valid;
  logic [NP*FlitW-1:0] in_flit_i;
  for (genvar p = 0; p < NP; p++) begin : g_in
    assign in_flit_i[p*FlitW +: FlitW] = {in_vc_i[p], in_type_i[p*3 +: 3], 29'b0, in_len_i[p*3 +: 3],
                                          64'b0, in_w0_i[p*32 +: 32]};
  end
  mt_router #(.D(1), .L(1), .K0(3), .K1(1), .K2(1), .Torus(1), .PayloadW(128), .NumVcs(NV),
              .VcDepth(Depth), .EjDepth(Depth), .SubPktFlits(1), .StepPrio(0), .WdW(4)) dut (
    .clk_i, .rst_ni, .node_id_i, .wd_limit_i(4'd3),
    .in_flit_i, .in_valid_i, .in_credit_o(in_credit),
    .out_flit_o(out_flit), .out_valid_o(out_valid), .out_credit_i,
    .wd_err_o(wd_err), .ovf_err_o(ovf_err),
    .tab_we_i(1'b0), .tab_addr_i(12'd0), .tab_data_i(16'd0), .rt_err_o());

`ifdef FORMAL
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  logic [2:0] up_q [NP*NV];   // upstream credit counters
  logic [2:0] occ_q [NP*NV];  // downstream buffer occupancy
  for (genvar j = 0; j < NP*NV; j++) begin : g_env
    localparam int P = j / NV;
    localparam int V = j % NV;
    logic snd, arr;
    assign snd = in_valid_i[P] && (in_flit_i[P*FlitW + 131] == 1'(V));
    assign arr = out_valid[P] && (out_flit[P*FlitW + 131] == 1'(V));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        up_q[j] <= 3'(Depth);
        occ_q[j] <= '0;
      end else begin
        up_q[j] <= up_q[j] - 3'(snd) + 3'(in_credit[j]);
        occ_q[j] <= occ_q[j] + 3'(arr) - 3'(out_credit_i[j]);
      end
    end
    always @(*) if (rst_ni) begin
      assume (!(snd && up_q[j] == '0));          // upstream never sends without a credit
      assume (!(out_credit_i[j] && occ_q[j] == '0)); // downstream frees only what it holds
    end
    always @(*) if (rst_ni && f_past_valid) begin
      assert (occ_q[j] <= 3'(Depth));            // no flit was sent without a credit
      assert (up_q[j] <= 3'(Depth));             // router returns no extra credits
      assert (!ovf_err[j]);                      // input buffers never overflow
    end
  end
`else
  logic unused_ok;
  assign unused_ok = ^{in_credit, wd_err, ovf_err, out_flit, out_valid};
`endif
endmodule
