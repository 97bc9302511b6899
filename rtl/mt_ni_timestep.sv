// SPDX-License-Identifier: Apache-2.0
// mt_ni_timestep: the timestep counter of Fig. 6. clear_i (start) sets 0, set1_i (end of the
// table scan, the all-reduce begins) sets 1, inc_i (the issue logic advances the step)
// adds 1. Priority clear > set1 > inc.
`default_nettype none

module mt_ni_timestep #(
  parameter int W = 16
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,
  input  logic         set1_i,
  input  logic         inc_i,
  output logic [W-1:0] ts_o
);
  initial if (W < 2) $fatal(1, "mt_ni_timestep: W=%0d", W);
  logic [W-1:0] ts_d, ts_q;
  always_comb begin
    ts_d = ts_q;
    if (inc_i) ts_d = ts_q + 1'b1;
    if (set1_i) ts_d = W'(1);
    if (clear_i) ts_d = '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) ts_q <= '0;
    else ts_q <= ts_d;
  end
  assign ts_o = ts_q;
endmodule
