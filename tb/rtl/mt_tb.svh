// SPDX-License-Identifier: Apache-2.0
// mt_tb.svh: what every self-checking bench shares, `include`d inside the bench module:
// the pass/fail counters, check(what, ok) (prints FAIL with the time), and the project PRNG
// xs(): xorshift32 (shifts 13/17/5, as cmodel/util/mt_rng.h) on `seed`, which starts at
// `MT_TB_SEED (define it before the include; default 1). The bench prints its own
//   $display("RESULT tb_<module> pass=%0d fail=%0d", n_pass, n_fail);
// which scripts/runbench.sh reads.
`ifndef MT_TB_SEED
`define MT_TB_SEED 1
`endif
  int n_pass = 0, n_fail = 0;
  task automatic check(input string what, input bit ok);
    if (ok) n_pass++; else begin n_fail++; $display("FAIL %s t=%0t", what, $time); end
  endtask
  int unsigned seed = `MT_TB_SEED;
  function automatic int unsigned xs();  // project PRNG (xorshift32) on `seed`
    seed = seed ^ (seed << 13); seed = seed ^ (seed >> 17); seed = seed ^ (seed << 5); xs = seed;
  endfunction
`undef MT_TB_SEED
