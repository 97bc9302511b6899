// board_sim: the ULX3S board top (fpga/ulx3s/top.sv) simulated as the board runs it: the 25 MHz
// clock, no button pressed, every memory loaded from the images at time 0; it runs until the pass
// or the fail LED lights (or --max-cycles) and checks the outcome against --expect.
// Usage: board_sim --expect pass|fail [--cycles C] [--max-cycles N] [--name NAME]
//   --cycles C: with pass, the all-reduce must take C cycles (multitree sim --config fpga's count)
// Prints the LEDs, the cause of a failure and the all-reduce's cycles, and
// "RESULT board_sim_<name> pass=N fail=M" (scripts/runbench.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include "Vtop.h"
#include "Vtop___024root.h"
#include "verilated.h"

double sc_time_stamp() { return 0; }

int main(int argc, char **argv) {
  const char *expect = nullptr, *name = "board";
  long want_cycles = -1, max_cycles = 1000000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--expect") && i + 1 < argc) expect = argv[++i];
    else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) want_cycles = atol(argv[++i]);
    else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) max_cycles = atol(argv[++i]);
    else if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
    else if (argv[i][0] != '+') {
      fprintf(stderr, "usage: board_sim --expect pass|fail [--cycles C] [--max-cycles N] [--name NAME]\n");
      return 2;
    }
  }
  if (!expect || (strcmp(expect, "pass") && strcmp(expect, "fail"))) {
    fprintf(stderr, "board_sim: --expect pass or fail\n");
    return 2;
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto d = std::make_unique<Vtop>(ctx.get());
  d->btn = 0;
  d->clk_25mhz = 0;
  d->eval();
  long cyc = 0;
  while (cyc < max_cycles && !(d->led & 3)) {
    d->clk_25mhz = 1;
    d->eval();
    d->clk_25mhz = 0;
    d->eval();
    cyc++;
  }
  static const char *const causes[] = {"none", "an NI error", "a router error", "timeout", "a result checksum differs"};
  const unsigned led = d->led, cause = d->rootp->top__DOT__cause, rcyc = d->rootp->top__DOT__cycles;
  const char *got = (led & 1) ? "pass" : (led & 2) ? "fail"
                                                   : "neither";
  printf("board: after %ld cycles LEDs %02x: %s (cause: %s), node results equal to the reference: %u%u%u%u (nodes 0..3), "
         "all-reduce %u cycles",
         cyc, led, got, cause < 5 ? causes[cause] : "?", (led >> 4) & 1, (led >> 5) & 1, (led >> 6) & 1, (led >> 7) & 1, rcyc);
  if (want_cycles >= 0) printf(" (multitree sim: %ld)", want_cycles);
  printf("\n");
  int pass = 0, fail = 0;
  if (!strcmp(got, expect)) pass++;
  else {
    printf("board: expected %s, got %s\n", expect, got);
    fail++;
  }
  if (!strcmp(expect, "pass") && want_cycles >= 0) {
    if ((long)rcyc == want_cycles) pass++;
    else {
      printf("board: the all-reduce took %u cycles, multitree sim %ld\n", rcyc, want_cycles);
      fail++;
    }
  }
  d->final();
  printf("RESULT board_sim_%s pass=%d fail=%d\n", name, pass, fail);
  return fail ? 1 : 0;
}
