/* SPDX-License-Identifier: Apache-2.0
 * test_net_b2b: back-to-back all-reduces on one network without a reset
 * (docs/reference/network.md "Back-to-back all-reduces"): mt_net_new, then mt_net_start +
 * mt_net_run three times with different data, a new start of the same table and a start of
 * another schedule's tables loaded while idle (mt_net_load); every node's buffer must hold
 * the sum of every node's inputs, computed here word by word from mt_ref_inputs (int32:
 * exact, wrapping), and each run must take about as long as the same all-reduce on a fresh
 * network. The misuses (start while busy, run twice, load while busy, a table that does
 * not fit) must be refused with a message, never rc 0. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net/mt_net.h"
#include "plan/mt_ref.h"
#include "util/mt_fp32.h"
#include "mt_test.h"
#include "net_plan.h"

static int plan(tb_planned *p, const char *topo, const char *algo, uint64_t bytes) {
  mt_err e;
  if (!tb_plan(p, topo, algo, bytes, &e)) return 0;
  fprintf(stderr, "%s %s: %s\n", topo, algo, e.msg);
  return -1;
}

/* Words of node buffers that differ from the sum of every node's int32 inputs of seed. */
static uint64_t wrong_words(mt_net *n, uint64_t bytes, uint32_t seed) {
  const int N = mt_net_nodes(n);
  const uint64_t nw = bytes / 4;
  uint32_t *sum = calloc(nw ? nw : 1, 4), *in = calloc(nw ? nw : 1, 4);
  for (int i = 0; i < N; i++) {
    mt_ref_inputs(seed, i, MT_DTYPE_INT32, in, nw);
    for (uint64_t k = 0; k < nw; k++) sum[k] += in[k];
  }
  uint64_t bad = 0;
  for (int i = 0; i < N; i++) {
    const uint32_t *b = mt_net_buffer(n, i);
    for (uint64_t k = 0; k < nw; k++) bad += !b || b[k] != sum[k];
  }
  free(sum);
  free(in);
  return bad;
}

/* The cycles of one all-reduce of p with seed on a fresh network (0 on failure). */
static uint64_t fresh_cycles(const mt_net_cfg *c, tb_planned *p, const mt_layout *hw, unsigned depth, unsigned flows, uint32_t seed) {
  mt_err e;
  mt_net_result r;
  mt_net *n = mt_net_new_layout(c, &p->s, &p->tb, MT_DTYPE_INT32, hw, depth, flows, &e);
  uint64_t cy = n && !mt_net_start(n, seed, &e) && !mt_net_run(n, &r, NULL, &e) ? r.cycles : 0;
  mt_net_free(n);
  return cy;
}

typedef struct {
  const char *topo, *algo1, *algo2, *set;
  uint64_t bytes;
  int pkt;
} b2b_case;

/* Three all-reduces back to back: algo1 with seeds 101 and 202, then algo2's tables loaded
 * while idle with seed 303; the network built with the layout of both (mt_layout_widen). */
static void b2b(const b2b_case *k) {
  mt_net_cfg c;
  mt_err e;
  mt_net_cfg_small(&c);
  if (k->set) CHECK(mt_net_cfg_set(&c, k->set, &e) == 0, "%s", e.msg);
  c.flow = k->pkt ? MT_NET_FLOW_PACKET : MT_NET_FLOW_MESSAGE;
  tb_planned p1, p2;
  if (plan(&p1, k->topo, k->algo1, k->bytes) || plan(&p2, k->topo, k->algo2, k->bytes)) {
    CHECK(0, "%s: cannot plan", k->topo);
    return;
  }
  mt_layout l1, l2;
  CHECK(mt_layout_for(&p1.s, &p1.tb, 0, &l1, &e) == 0 && mt_layout_for(&p2.s, &p2.tb, 0, &l2, &e) == 0, "%s", e.msg);
  mt_layout_widen(&l1, &l2);
  const int d1 = mt_layout_depth(&p1.tb), d2 = mt_layout_depth(&p2.tb);
  const unsigned depth = (unsigned)(d1 > d2 ? d1 : d2), flows = (unsigned)(p1.s.n_flows > p2.s.n_flows ? p1.s.n_flows : p2.s.n_flows);
  mt_net *n = mt_net_new_layout(&c, &p1.s, &p1.tb, MT_DTYPE_INT32, &l1, depth, flows, &e);
  CHECK(n != NULL, "%s: %s", k->topo, e.msg);
  if (!n) goto out;
  const uint32_t seeds[3] = {101, 202, 303};
  for (int run = 0; run < 3; run++) {
    tb_planned *p = run < 2 ? &p1 : &p2;
    if (run == 2) CHECK(mt_net_load(n, &p2.s, &p2.tb, &e) == 0, "%s load %s: %s", k->topo, k->algo2, e.msg);
    mt_net_result r;
    const int rs = mt_net_start(n, seeds[run], &e);
    CHECK(rs == 0, "%s run %d start: %s", k->topo, run + 1, e.msg);
    const int rc = rs ? -1 : mt_net_run(n, &r, NULL, &e);
    CHECK(rc == 0 && r.done && r.correct, "%s run %d: rc %d done %d correct %d: %s", k->topo, run + 1, rc, rc ? 0 : r.done, rc ? 0 : r.correct,
          rc ? e.msg : "");
    if (rc) continue;
    const uint64_t bad = wrong_words(n, k->bytes, seeds[run]);
    CHECK(bad == 0, "%s %s run %d: %llu words differ from the sum", k->topo, p->s.algo, run + 1, (unsigned long long)bad);
    /* the same all-reduce on a fresh network: the routers' and NIs' round-robin pointers are
     * not reset, so a later run may take a few cycles more or less, not many */
    const uint64_t f = fresh_cycles(&c, p, &l1, depth, flows, seeds[run]);
    CHECK(f && r.cycles * 10 >= f * 9 && r.cycles * 9 <= f * 10, "%s %s run %d: %llu cycles, %llu on a fresh network", k->topo, p->s.algo, run + 1,
          (unsigned long long)r.cycles, (unsigned long long)f);
    printf("%s %s %s %s run %d seed %u: %llu cycles (fresh network %llu), %llu words x %d nodes checked\n", k->topo, k->set ? k->set : "small",
           k->pkt ? "packets" : "messages", p->s.algo, run + 1, seeds[run], (unsigned long long)r.cycles, (unsigned long long)f, (unsigned long long)(k->bytes / 4),
           mt_net_nodes(n));
  }
out:
  mt_net_free(n);
  tb_unplan(&p2);
  tb_unplan(&p1);
}

/* The misuses, each refused with a message naming what is wrong. */
static void misuse(void) {
  mt_net_cfg c;
  mt_err e;
  mt_net_result r;
  mt_net_cfg_small(&c);
  tb_planned p1, p2, p3;
  if (plan(&p1, "torus:4x4", "multitree", 4096) || plan(&p2, "torus:4x4", "ring", 4096) || plan(&p3, "mesh:4x4", "ring", 4096)) {
    CHECK(0, "cannot plan");
    return;
  }
  mt_net *n = mt_net_new(&c, &p1.s, &p1.tb, MT_DTYPE_INT32, &e);
  CHECK(n != NULL, "%s", e.msg);
  if (!n) return;
  CHECK(mt_net_start(n, 1, &e) == 0, "%s", e.msg);
  CHECK(mt_net_start(n, 2, &e) != 0 && strstr(e.msg, "not run"), "start twice: %s", e.msg);
  CHECK(mt_net_load(n, &p1.s, &p1.tb, &e) != 0 && strstr(e.msg, "not run"), "load before the run: %s", e.msg);
  for (int t = 0; t < 20; t++) mt_net_step(n);
  CHECK(mt_net_start(n, 2, &e) != 0 && strstr(e.msg, "runs"), "start while busy: %s", e.msg);
  CHECK(mt_net_load(n, &p1.s, &p1.tb, &e) != 0 && strstr(e.msg, "runs"), "load while busy: %s", e.msg);
  CHECK(mt_net_run(n, &r, NULL, &e) != 0 && strstr(e.msg, "has run"), "run after stepping past the start: %s", e.msg);
  while (mt_net_start(n, 3, &e) && mt_net_cycle(n) < 100000) mt_net_step(n); /* until every NI is done */
  CHECK(mt_net_run(n, &r, NULL, &e) == 0 && r.correct, "run 2: %s", e.msg);
  CHECK(mt_net_run(n, &r, NULL, &e) != 0 && strstr(e.msg, "mt_net_start for the next"), "run twice: %s", e.msg);
  /* ring's tables are deeper than the NIs built for MultiTree's; another topology is refused */
  CHECK(mt_net_load(n, &p2.s, &p2.tb, &e) != 0 && strstr(e.msg, "the NIs hold"), "ring into multitree's NIs: %s", e.msg);
  CHECK(mt_net_load(n, &p3.s, &p3.tb, &e) != 0 && strstr(e.msg, "mesh:4x4"), "another topology: %s", e.msg);
  /* a good load, then a start before its writes are done: the start follows them */
  CHECK(mt_net_load(n, &p1.s, &p1.tb, &e) == 0, "%s", e.msg);
  CHECK(mt_net_load(n, &p1.s, &p1.tb, &e) != 0 && strstr(e.msg, "under way"), "load twice: %s", e.msg);
  CHECK(mt_net_run(n, &r, NULL, &e) != 0 && strstr(e.msg, "before mt_net_start"), "run after a load: %s", e.msg);
  CHECK(mt_net_start(n, 4, &e) == 0, "start after a load: %s", e.msg);
  CHECK(mt_net_run(n, &r, NULL, &e) == 0 && r.correct && wrong_words(n, 4096, 4) == 0, "run after a load: %s", e.msg);
  mt_net_free(n);
  /* after an NI error (a watchdog of 1 cycle... here: a cycle limit) the network is not idle */
  c.max_cycles = 50;
  n = mt_net_new(&c, &p1.s, &p1.tb, MT_DTYPE_INT32, &e);
  CHECK(n && mt_net_start(n, 1, &e) == 0, "%s", e.msg);
  CHECK(n && mt_net_run(n, &r, NULL, &e) != 0 && strstr(e.msg, "cycle limit"), "cycle limit: %s", e.msg);
  CHECK(n && mt_net_start(n, 2, &e) != 0 && strstr(e.msg, "runs"), "start after a cut run: %s", e.msg);
  mt_net_free(n);
  tb_unplan(&p3);
  tb_unplan(&p2);
  tb_unplan(&p1);
}

int main(void) {
  static const b2b_case cases[] = {
    {"torus:4x4", "multitree", "ring", NULL, 4096, 0},
    {"mesh:3x3", "dbtree", "multitree", "link_lat=3", 2304, 0},
    {"torus:3x3", "ring", "multitree", NULL, 1152, 1},
    {"dgx2", "hd", "ring", NULL, 4096, 0},
    {"mesh:4x4", "ring2d", "dbtree", NULL, 4096, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) b2b(&cases[i]);
  misuse();
  return MT_TEST_END("test_net_b2b");
}
