// SPDX-License-Identifier: Apache-2.0
// mt_rt_watchdog: progress watchdog of one input VC.
// Contract: stall_i = the VC holds a flit and sent none this cycle. The counter counts
// consecutive stalled cycles (saturating at 2^WdW-1) and clears on any other cycle;
// err_o is sticky and rises after the edge at which the count reaches limit_i (0 = off).
`default_nettype none
module mt_rt_watchdog #(
  parameter int WdW = 24
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           stall_i,
  input  logic [WdW-1:0] limit_i,
  output logic           err_o
);
  initial begin
    if (WdW < 1 || WdW > 31) $fatal(1, "mt_rt_watchdog: WdW=%0d must be 1..31", WdW);
  end
  logic [WdW-1:0] inc, cnt_q;
  logic err_q, hit;
  // the incremented count and its comparison with the limit do not depend on stall_i, which
  // only selects (a late stall signal then passes one gate, not an adder and a comparator);
  // a cleared count (0) never reaches a nonzero limit
  assign inc = (cnt_q == '1) ? cnt_q : cnt_q + 1'b1;
  assign hit = limit_i != '0 && inc >= limit_i;
  // the update inside the clocked block: the Verilated model evaluates it at the clock edge
  // only, not at every evaluation in which the input might have changed
  // (docs/results/bench.md "RTL simulation speed")
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
      err_q <= 1'b0;
    end else begin
      cnt_q <= stall_i ? inc : '0;
      if (stall_i && hit) err_q <= 1'b1;
    end
  end
  assign err_o = err_q;
endmodule
