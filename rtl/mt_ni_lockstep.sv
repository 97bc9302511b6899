// SPDX-License-Identifier: Apache-2.0
// mt_ni_lockstep: the lockstep down-counter of Fig. 6. A NOP loads the estimated step time
// (load_i, val_i); the counter then decrements once per cycle and stops at zero; injection
// (issue) is stalled while it is non-zero (zero_o low). clear_i (start) empties it.
// Contract: it never underflows (0 stays 0 unless loaded); clear_i has priority over load_i.
`default_nettype none

module mt_ni_lockstep #(
  parameter int W = 32
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,
  input  logic         load_i,
  input  logic [W-1:0] val_i,
  output logic [W-1:0] cnt_o,
  output logic         zero_o
);
  initial if (W < 1) $fatal(1, "mt_ni_lockstep: W=%0d", W);

  logic [W-1:0] cnt_d, cnt_q;
  always_comb begin
    cnt_d = cnt_q;
    if (cnt_q != '0) cnt_d = cnt_q - 1'b1;
    if (load_i) cnt_d = val_i;
    if (clear_i) cnt_d = '0;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else cnt_q <= cnt_d;
  end
  assign cnt_o  = cnt_q;
  assign zero_o = (cnt_q == '0);

`ifdef FORMAL
  logic f_past_valid = 1'b0;
  always_ff @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  // never underflows: without a load it only counts down to zero and stays there
  always_ff @(posedge clk_i) if (f_past_valid && rst_ni && $past(rst_ni) && !$past(load_i) && !$past(clear_i)) begin
    if ($past(cnt_q) == '0) assert (cnt_q == '0);
    else assert (cnt_q == $past(cnt_q) - 1'b1);
  end
  always_ff @(posedge clk_i) if (f_past_valid && rst_ni && $past(rst_ni) && $past(clear_i)) assert (cnt_q == '0);
`endif
endmodule
