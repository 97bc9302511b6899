// SPDX-License-Identifier: Apache-2.0
// mt_rt_sw_alloc: switch allocation for one output port over N input VCs.
// Contract: while not held, grants one requester (req_i: an allocation unit may start:
// a packet, an all-reduce head, or an all-reduce sub-packet) round-robin after the last
// winner; with StepPrio, only requesters with the smallest prio_i take part. The winner's
// flit leaves this cycle; unless it ends the unit (last_i) the output is held by it, and
// while held only the holder may send, whenever go_i[holder] (flit and credit ready).
// gnt_o/idx_o are combinational; held_o/holder_o are the registered hold state.
`default_nettype none
module mt_rt_sw_alloc #(
  parameter int N = 8,
  parameter int StepPrio = 0,
  parameter int IdxW = mt_common_pkg::idx_w(N)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic [N-1:0]    go_i,
  input  logic [N-1:0]    last_i,
  input  logic [N*16-1:0] prio_i,
  output logic            gnt_o,
  output logic [IdxW-1:0] idx_o,
  output logic            held_o,
  output logic [IdxW-1:0] holder_o
);
  logic [IdxW-1:0] ptr_d, ptr_q, holder_d, holder_q, win, hwin;
  logic held_d, held_q, found;
  logic [N-1:0] el, hi;
  logic [15:0] minp;

  // the search only when it can matter (not held, some request): the Verilated model then
  // skips it for the idle outputs of every router, most cycles (docs/results/bench.md)
  always @(*) begin
    minp = 16'hffff;
    el = '0;
    found = 1'b0;
    win = '0;
    hwin = '0;
    hi = '0;
    if (!held_q && req_i != '0) begin
      for (int i = 0; i < N; i++) begin
        if (req_i[i] && prio_i[i*16 +: 16] < minp) minp = prio_i[i*16 +: 16];
      end
      for (int i = 0; i < N; i++) begin
        el[i] = req_i[i] && (StepPrio == 0 || prio_i[i*16 +: 16] == minp);
      end
      // round robin from ptr_q + 1: the lowest eligible input above ptr_q, else the lowest
      // (a mask and two priority encoders, not a search through N added indices)
      for (int i = 0; i < N; i++) hi[i] = el[i] && (IdxW'(i) > ptr_q);
      found = el != '0;
      for (int i = N - 1; i >= 0; i--) begin
        if (el[i]) win = IdxW'(i);
      end
      for (int i = N - 1; i >= 0; i--) begin
        if (hi[i]) hwin = IdxW'(i);
      end
      if (hi != '0) win = hwin;
    end
    if (held_q) begin
      gnt_o = go_i[holder_q];
      idx_o = holder_q;
    end else begin
      gnt_o = found;
      idx_o = win;
    end
    held_d = held_q;
    holder_d = holder_q;
    ptr_d = ptr_q;
    if (gnt_o) begin
      held_d = !last_i[idx_o];
      holder_d = idx_o;
      if (!held_q) ptr_d = idx_o;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q <= IdxW'(N - 1);
      held_q <= 1'b0;
      holder_q <= '0;
    end else begin
      ptr_q <= ptr_d;
      held_q <= held_d;
      holder_q <= holder_d;
    end
  end
  assign held_o = held_q;
  assign holder_o = holder_q;
endmodule
