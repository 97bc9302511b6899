// SPDX-License-Identifier: Apache-2.0
// fp32_add_harness: Verilator co-simulation of rtl/mt_reduce_alu.sv (Lanes = 4, so four
// rtl/mt_fp32_add instances) against the C model's mt_reduce_add (cmodel/mt_fp32.c,
// linked through extern "C"). Stimulus (tb/cosim/fp32_pairs.h): every ordered pair of the
// special-class values, then random fp32 pairs cycling through the 7 distributions, with
// int32 vectors and idle cycles mixed in. Each vector is applied before a rising edge and
// checked right after the edge its result is due at (latency 1 + Pipe, vectors on consecutive
// edges): valid_o, and sum_o lane by lane; an idle cycle must leave valid_o low and sum_o
// unchanged at its edge. Built for the DUT's Pipe with -DALU_PIPE (default 0).
// Usage: fp32_add_harness [fp32_pairs=4000000] [seed=1] [--expect-mismatch]
// Prints `RESULT fp32_rtl pass=N fail=M` (one pass or fail per lane result checked); on a
// mismatch: dtype, a, b, rtl, model in hex. --expect-mismatch (for a deliberately broken
// RTL build) prints `RESULT fp32_rtl_neg pass=1 fail=0` only if a mismatch was seen.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>
#include "Vmt_reduce_alu.h"
#include "verilated.h"
#include "util/mt_fp32.h"
#include "fp32_pairs.h"

namespace {
constexpr int kLanes = 4;
#ifndef ALU_PIPE
#define ALU_PIPE 0
#endif
constexpr int kPipe = ALU_PIPE; // the DUT's Pipe (-GPipe=N -CFLAGS -DALU_PIPE=N): latency 1 + kPipe
uint64_t n_pass = 0, n_fail = 0;

struct Bench {
  std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  std::unique_ptr<Vmt_reduce_alu> dut{new Vmt_reduce_alu{ctx.get()}};
  uint32_t last[kLanes] = {};

  void edge() {
    dut->clk_i = 0;
    dut->eval();
    ctx->timeInc(1);
    dut->clk_i = 1;
    dut->eval();
    ctx->timeInc(1);
  }
  void fail(const char *what, int dtype, uint32_t a, uint32_t b, uint32_t rtl, uint32_t model) {
    if (++n_fail <= 20)
      std::printf("MISMATCH %s dtype=%d a=%08" PRIx32 " b=%08" PRIx32 " rtl=%08" PRIx32
                  " model=%08" PRIx32 "\n",
                  what, dtype, a, b, rtl, model);
  }
  // What went in at an edge: checked kPipe edges later, when its result is due.
  struct Slot {
    bool v;
    int dtype;
    uint32_t a[kLanes], b[kLanes];
  };
  std::deque<Slot> line;
  void step(const Slot &in) {
    dut->valid_i = in.v;
    dut->dtype_i = in.dtype;
    for (int k = 0; k < kLanes; k++) {
      dut->a_i[k] = in.a[k];
      dut->b_i[k] = in.b[k];
    }
    edge();
    line.push_back(in);
    if (line.size() > (size_t)kPipe) {
      check(line.front());
      line.pop_front();
    }
  }
  void check(const Slot &o) {
    if (!o.v) { // an idle cycle: valid_o low, sum_o unchanged
      bool ok = !dut->valid_o;
      for (int k = 0; k < kLanes; k++) ok = ok && dut->sum_o[k] == last[k];
      if (ok) n_pass++;
      else fail("idle cycle changed valid_o/sum_o", -1, 0, 0, 0, 0);
      return;
    }
    if (dut->valid_o) n_pass++;
    else fail("valid_o low", o.dtype, 0, 0, 0, 1);
    for (int k = 0; k < kLanes; k++) {
      uint32_t rtl = dut->sum_o[k], model = mt_reduce_add(o.dtype, o.a[k], o.b[k]);
      if (rtl == model) n_pass++;
      else fail("lane", o.dtype, o.a[k], o.b[k], rtl, model);
      last[k] = rtl;
    }
  }
  // One vector of kLanes pairs through the ALU.
  void vec(int dtype, const uint32_t *a, const uint32_t *b) {
    Slot in{true, dtype, {}, {}};
    std::memcpy(in.a, a, sizeof in.a);
    std::memcpy(in.b, b, sizeof in.b);
    step(in);
  }
  void idle(uint64_t *s) {
    Slot in{false, (int)(fp32_rng32(s) & 1u), {}, {}};
    for (int k = 0; k < kLanes; k++) {
      in.a[k] = fp32_rng32(s);
      in.b[k] = fp32_rng32(s);
    }
    step(in);
  }
  // the results still in the pipeline
  void drain(uint64_t *s) {
    for (int i = 0; i < kPipe; i++) idle(s);
  }
};

// Queues pairs and issues them kLanes at a time.
struct Feeder {
  Bench &b;
  int dtype;
  uint32_t qa[kLanes], qb[kLanes];
  int n = 0;
  void push(uint32_t a, uint32_t bb) {
    qa[n] = a;
    qb[n] = bb;
    if (++n == kLanes) {
      b.vec(dtype, qa, qb);
      n = 0;
    }
  }
  void flush() {
    while (n) push(0, 0);
  }
};
} // namespace

int main(int argc, char **argv) {
  uint64_t pairs = 4000000, seed = 1;
  bool expect_mismatch = false;
  int pos = 0;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--expect-mismatch")) expect_mismatch = true;
    else if (argv[i][0] == '+') continue; // leave plusargs to Verilator
    else if (pos++ == 0) pairs = std::strtoull(argv[i], nullptr, 0);
    else seed = std::strtoull(argv[i], nullptr, 0);
  }
  Bench bench;
  bench.ctx->commandArgs(argc, argv);
  uint64_t s = seed;

  // reset: valid_o must be low
  bench.dut->clk_i = 0;
  bench.dut->rst_ni = 0;
  bench.dut->valid_i = 0;
  bench.dut->eval();
  bench.ctx->timeInc(1);
  bench.dut->rst_ni = 1;
  bench.dut->eval();
  if (!bench.dut->valid_o) n_pass++;
  else bench.fail("valid_o after reset", -1, 0, 0, 1, 0);

  Feeder fp{bench, MT_DTYPE_FP32}, in{bench, MT_DTYPE_INT32};
  // 1. every ordered pair of special-class values (fp32), and the same patterns as int32
  uint32_t sp[160];
  size_t ns = fp32_specials(sp, sizeof sp / sizeof sp[0], &s);
  uint64_t n_special = 0;
  for (size_t i = 0; i < ns; i++)
    for (size_t j = 0; j < ns; j++) {
      fp.push(sp[i], sp[j]);
      in.push(sp[i], sp[j]);
      n_special++;
    }
  fp.flush();
  in.flush();
  // 2. random fp32 pairs; every 16th vector an int32 vector; every 64th an idle cycle
  uint64_t n_int = 0;
  for (uint64_t k = 0; k < pairs; k++) {
    uint32_t a, b;
    fp32_pair(&s, (int)(k % FP32_NMODES), &a, &b);
    fp.push(a, b);
    if ((k & 63) == 0) {
      for (int l = 0; l < kLanes; l++) in.push(fp32_rng32(&s), fp32_rng32(&s));
      n_int += kLanes;
    }
    if ((k & 255) == 1) bench.idle(&s);
  }
  fp.flush();
  in.flush();
  bench.drain(&s);
  std::printf("fp32_add_harness: %zu specials -> %" PRIu64 " special pairs (fp32 and int32), %" PRIu64
              " random fp32 pairs, %" PRIu64 " random int32 pairs, seed %" PRIu64 ", %" PRIu64
              " cycles, %" PRIu64 " mismatches\n",
              ns, n_special, pairs, n_int, seed,
              bench.ctx->time() / 2, n_fail);
  bench.dut->final();
  if (expect_mismatch) {
    std::printf("RESULT fp32_rtl_neg pass=%d fail=%d\n", n_fail > 0, n_fail == 0);
    return 0;
  }
  std::printf("RESULT fp32_rtl pass=%" PRIu64 " fail=%" PRIu64 "\n", n_pass, n_fail);
  return n_fail != 0;
}
