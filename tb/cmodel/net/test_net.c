/* SPDX-License-Identifier: Apache-2.0
 * test_net: the C network model (routers + NIs + links + memories) runs whole all-reduces
 * and every node must end with mt_ref_result (int32: the exact sum; fp32: the documented
 * order); runs are reproducible; message-based flow control moves fewer flits than
 * packets; no run beats the bandwidth lower bound; bad configurations are refused. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include "util/mt_fp32.h"
#include "net/mt_net.h"
#include "mt_test.h"
#include "net_plan.h"

static int run_cfg(const mt_net_cfg *cfg, const char *topo, const char *algo, uint64_t bytes, int dtype, int pkt, uint32_t seed, mt_net_result *r) {
  tb_planned p;
  mt_err e;
  mt_net_cfg c = *cfg;
  c.flow = pkt ? MT_NET_FLOW_PACKET : MT_NET_FLOW_MESSAGE;
  if (tb_plan(&p, topo, algo, bytes, &e)) {
    fprintf(stderr, "%s\n", e.msg);
    return -1;
  }
  mt_net *n = mt_net_new(&c, &p.s, &p.tb, dtype, &e);
  int rc = -1;
  if (n && !mt_net_start(n, seed, &e) && !mt_net_run(n, r, NULL, &e)) rc = 0;
  else fprintf(stderr, "%s %s: %s\n", topo, algo, e.msg);
  mt_net_free(n);
  tb_unplan(&p);
  return rc;
}

static int run(const char *topo, const char *algo, uint64_t bytes, int dtype, int pkt, uint32_t seed, mt_net_result *r) {
  mt_net_cfg c;
  mt_net_cfg_small(&c);
  return run_cfg(&c, topo, algo, bytes, dtype, pkt, seed, r);
}

/* The small configuration with `set` applied: accepted by mt_net_cfg_set, refused by
 * mt_net_new (MultiTree on torus:4x4) with a message naming `needle`. */
static void expect_refused(const char *set, const char *needle) {
  mt_net_cfg c;
  mt_err e;
  tb_planned p;
  mt_net_cfg_small(&c);
  CHECK(mt_net_cfg_set(&c, set, &e) == 0, "set %s", set);
  CHECK(tb_plan(&p, "torus:4x4", "multitree", 4096, &e) == 0, "%s", e.msg);
  mt_net *n = mt_net_new(&c, &p.s, &p.tb, 0, &e);
  CHECK(!n && strstr(e.msg, needle), "%s accepted: %s", set, n ? "" : e.msg);
  mt_net_free(n);
  tb_unplan(&p);
}

/* NI bandwidth: the small configuration (two receive engines per ejection port, L + 4L
 * memory ports) against the RTL's NI (ni_rx_engines=1 ni_mem_ports=1): both correct
 * (fp32: the same reference, so the same bits), and MultiTree, which receives on every
 * link at once, faster with the wider NI */
static void test_ni_bandwidth(void) {
  mt_net_cfg c1, cw;
  mt_err e;
  mt_net_cfg_small(&cw);
  c1 = cw;
  CHECK(mt_net_cfg_set(&c1, "ni_rx_engines=1", &e) == 0 && mt_net_cfg_set(&c1, "ni_mem_ports=1", &e) == 0, "--set ni_*: %s", e.msg);
  static const char *const algo[] = {"multitree", "ring"};
  for (int a = 0; a < 2; a++) {
    mt_net_result r1, rw;
    CHECK(run_cfg(&c1, "torus:4x4", algo[a], 16384, MT_DTYPE_FP32, 0, 9, &r1) == 0 && r1.correct, "%s, 1 engine 1 port: run failed or wrong", algo[a]);
    CHECK(run_cfg(&cw, "torus:4x4", algo[a], 16384, MT_DTYPE_FP32, 0, 9, &rw) == 0 && rw.correct, "%s, 2L engines: run failed or wrong", algo[a]);
    CHECK(rw.cycles < r1.cycles, "%s: %llu cycles with 2L engines, %llu with one", algo[a], (unsigned long long)rw.cycles, (unsigned long long)r1.cycles);
    printf("torus:4x4 %s 16 KiB fp32: %llu cycles (1 engine, 1 memory port), %llu (2L engines, L+4L ports)\n", algo[a],
           (unsigned long long)r1.cycles, (unsigned long long)rw.cycles);
  }
  /* two engines per ejection port (the default, E = 2L) against one (E = L): packets are
   * never chained, so one engine per port pays its per-packet look-up and write drain on
   * every 64-B packet; two take turns. Ring, one sender per node, must get faster. */
  {
    mt_net_cfg cl = cw;
    mt_net_result rl, r2;
    CHECK(mt_net_cfg_set(&cl, "ni_rx_engines=4", &e) == 0, "set");
    CHECK(run_cfg(&cl, "torus:4x4", "ring", 16384, MT_DTYPE_FP32, 1, 9, &rl) == 0 && rl.correct, "ring packets E=L: failed or wrong");
    CHECK(run_cfg(&cw, "torus:4x4", "ring", 16384, MT_DTYPE_FP32, 1, 9, &r2) == 0 && r2.correct, "ring packets E=2L: failed or wrong");
    CHECK(r2.cycles < rl.cycles, "ring packets: %llu cycles with 2L engines, %llu with L", (unsigned long long)r2.cycles, (unsigned long long)rl.cycles);
    printf("torus:4x4 ring 16 KiB fp32 64-B packets: %llu cycles (L engines), %llu (2L engines)\n", (unsigned long long)rl.cycles,
           (unsigned long long)r2.cycles);
    /* 3 is within the key's range (0..8) but not a divisor of L = 4 nor m*L: the NI refuses
     * it; 12 and 16 are above MT_NI_MAX_L, refused already by --set (its range is the
     * NI's, issue #11) */
    expect_refused("ni_rx_engines=3", "rx_engines");
    static const char *const over[] = {"ni_rx_engines=12", "ni_rx_engines=16"};
    for (int i = 0; i < 2; i++) {
      CHECK(mt_net_cfg_set(&cl, over[i], &e) != 0 && strstr(e.msg, "out of range; expected a whole number 0..8"), "%s: %s", over[i], e.msg);
    }
  }
  expect_refused("ni_mem_ports=5", "mem_ports");
}

/* Chained reduction (ni_chain, docs/reference/ni.md): a flow's children are added by several engines
 * at once, each flit after its predecessor's write. fp32 inputs make any change of the
 * order of additions visible in the result (the reference adds in the documented order),
 * also with a slow, random memory (ready 50%, latency 1..6) that reorders the engines'
 * progress; MultiTree must get faster (whole messages and packets, whose flits wait for the
 * predecessor's completed prefix), and E=2 or E=L engines, hd (routed slots: never chained
 * across a shared port) and dbtree stay correct. */
static void test_chain(void) {
  static const struct {
    const char *topo, *algo;
    int pkt;
    const char *set1, *set2;
  } cases[] = {
    {"torus:4x4", "multitree", 0, NULL, NULL}, {"mesh:4x4", "multitree", 0, "mem_p_ready=50", "mem_lat_max=6"}, {"mesh:3x5", "multitree", 0, "ni_rx_engines=2", NULL}, {"torus:4x4", "multitree", 1, NULL, NULL}, {"mesh:3x5", "dbtree", 0, "mem_p_ready=70", "mem_lat_max=3"}, {"torus:4x4", "ring2d", 0, NULL, NULL}, {"mesh:4x4", "multitree", 1, "mem_p_ready=50", "mem_lat_max=6"}, {"mesh:3x5", "dbtree", 1, NULL, NULL}, {"mesh:4x4", "hd", 0, NULL, NULL}, {"torus:4x4", "multitree", 1, "ni_rx_engines=4", NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mt_net_result r[2];
    mt_err e;
    for (int ch = 0; ch < 2; ch++) {
      mt_net_cfg c;
      mt_net_cfg_small(&c);
      CHECK(mt_net_cfg_set(&c, ch ? "ni_chain=1" : "ni_chain=0", &e) == 0, "%s", e.msg);
      if (cases[i].set1) CHECK(mt_net_cfg_set(&c, cases[i].set1, &e) == 0, "%s", e.msg);
      if (cases[i].set2) CHECK(mt_net_cfg_set(&c, cases[i].set2, &e) == 0, "%s", e.msg);
      memset(&r[ch], 0, sizeof r[ch]);
      int rc = run_cfg(&c, cases[i].topo, cases[i].algo, 16384 + 4 * 7, MT_DTYPE_FP32, cases[i].pkt, 21 + (uint32_t)i, &r[ch]);
      CHECK(rc == 0 && r[ch].done && r[ch].correct, "%s %s pkt=%d chain=%d: run failed or wrong (%llu words)", cases[i].topo,
            cases[i].algo, cases[i].pkt, ch, (unsigned long long)r[ch].wrong_words);
    }
    printf("chain: %s %s %s%s%s: %llu cycles strict, %llu chained\n", cases[i].topo, cases[i].algo, cases[i].pkt ? "packets " : "",
           cases[i].set1 ? cases[i].set1 : "", cases[i].set2 ? " ..." : "", (unsigned long long)r[0].cycles, (unsigned long long)r[1].cycles);
    if (!strcmp(cases[i].algo, "multitree") && !(cases[i].set1 && strstr(cases[i].set1, "engines")))
      CHECK(r[1].cycles * 10 < r[0].cycles * 9, "%s: chained %llu cycles, strict %llu: not 10%% faster", cases[i].topo,
            (unsigned long long)r[1].cycles, (unsigned long long)r[0].cycles);
  }
  mt_net_cfg c;
  mt_err e;
  mt_net_cfg_small(&c);
  CHECK(mt_net_cfg_set(&c, "ni_chain=2", &e) != 0 && strstr(e.msg, "ni_chain"), "--set ni_chain=2 accepted"); /* range 0..1 */
  c.ni_chain = 2;                                                                                             /* and the model refuses it too */
  tb_planned p;
  CHECK(tb_plan(&p, "torus:4x4", "multitree", 4096, &e) == 0, "%s", e.msg);
  mt_net *n = mt_net_new(&c, &p.s, &p.tb, 0, &e);
  CHECK(!n && strstr(e.msg, "ni_chain"), "ni_chain=2 accepted: %s", n ? "" : e.msg);
  mt_net_free(n);
  tb_unplan(&p);
}

static void test_matrix(void) {
  static const struct {
    const char *topo, *algo;
    int pkt;
  } cases[] = {
    {"mesh:2x2", "multitree", 0},
    {"mesh:2x2", "multitree", 1},
    {"mesh:2x2", "ring", 0},
    {"mesh:2x2", "dbtree", 0},
    {"torus:4x4", "multitree", 0},
    {"torus:4x4", "ring", 0},
    {"torus:4x4", "ring", 1},
    {"torus:4x4", "ring2d", 0},
    {"mesh:4x4", "multitree", 0},
    {"mesh:4x4", "multitree", 1},
    {"mesh:4x4", "ring", 0},
    {"mesh:4x4", "dbtree", 0},
    {"mesh:3x5", "multitree", 0},
    {"mesh:3x5", "ring", 1},
    {"mesh:3x5", "dbtree", 0},
    {"mesh:3x5", "ring2d", 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int dt = 0; dt < 2; dt++) {
      mt_net_result r;
      int rc = run(cases[i].topo, cases[i].algo, 4 * 1000 + 4 * 16 * 3, dt, cases[i].pkt, 11 + (uint32_t)i, &r);
      CHECK(rc == 0, "%s %s pkt=%d dtype=%d: run failed", cases[i].topo, cases[i].algo, cases[i].pkt, dt);
      if (rc) continue;
      CHECK(r.done && r.err_node < 0 && !r.router_err, "%s %s pkt=%d: done=%d err_node=%d code=%d router_err=%d", cases[i].topo,
            cases[i].algo, cases[i].pkt, r.done, r.err_node, r.err_code, r.router_err);
      CHECK(r.correct, "%s %s pkt=%d dtype=%d: %llu words differ from the reference", cases[i].topo, cases[i].algo, cases[i].pkt, dt,
            (unsigned long long)r.wrong_words);
      CHECK((double)r.cycles >= r.lb_cycles, "%s %s: %llu cycles beat the lower bound %.0f", cases[i].topo, cases[i].algo,
            (unsigned long long)r.cycles, r.lb_cycles);
    }
}

static void test_repeatable_and_flits(void) {
  mt_net_result a, b, pk;
  CHECK(run("mesh:4x4", "multitree", 16384, MT_DTYPE_FP32, 0, 5, &a) == 0, "run a");
  CHECK(run("mesh:4x4", "multitree", 16384, MT_DTYPE_FP32, 0, 5, &b) == 0, "run b");
  CHECK(a.cycles == b.cycles && a.link_flits == b.link_flits, "same seed, different runs: %llu vs %llu cycles",
        (unsigned long long)a.cycles, (unsigned long long)b.cycles);
  CHECK(run("mesh:4x4", "multitree", 16384, MT_DTYPE_FP32, 1, 5, &pk) == 0, "run packet");
  /* 16384 B / 16 flows = 1 KiB per message: message mode 64 payload flits + 1 head, packet
   * mode (64-B packets in the small configuration) 16 packets of 4 + 1 flits; the same
   * messages cross the same links, so the flit counts are exactly 65 : 80 */
  CHECK(a.link_flits * 80 == pk.link_flits * 65, "link flits message %llu packet %llu, want ratio 65:80",
        (unsigned long long)a.link_flits, (unsigned long long)pk.link_flits);
}

static void test_bad_input(void) {
  tb_planned p;
  mt_err e;
  mt_net_cfg c;
  mt_net_cfg_small(&c);
  CHECK(tb_plan(&p, "torus:4x4", "multitree", 4096, &e) == 0, "%s", e.msg);
  mt_net_cfg c2 = c;
  c2.vc_depth = 3;
  c2.flow = MT_NET_FLOW_PACKET;
  mt_net *n = mt_net_new(&c2, &p.s, &p.tb, 0, &e);
  CHECK(!n && strstr(e.msg, "virtual cut-through"), "too small buffers for packets accepted: %s", e.msg);
  mt_net_free(n);
  c2 = c;
  c2.max_cycles = 100;
  n = mt_net_new(&c2, &p.s, &p.tb, 0, &e);
  mt_net_result r;
  CHECK(n && mt_net_start(n, 1, &e) == 0, "new");
  CHECK(n && mt_net_run(n, &r, NULL, &e) != 0 && strstr(e.msg, "cycle limit"), "cycle limit not reported: %s", e.msg);
  mt_net_free(n);
  CHECK(mt_net_cfg_set(&c2, "vc_depth=abc", &e) != 0 && strstr(e.msg, "vc_depth"), "bad --set accepted");
  CHECK(mt_net_cfg_set(&c2, "bogus=1", &e) != 0 && strstr(e.msg, "unknown field"), "unknown field accepted");
  CHECK(mt_net_cfg_by_name(&c2, "huge", &e) != 0, "unknown config accepted");
  tb_unplan(&p);
  CHECK(tb_plan(&p, "fattree:4,2", "multitree", 4096, &e) == 0, "%s", e.msg);
  c2 = c; /* switch networks run (docs/reference/switch.md, test_switch.c); an NI has one NI link there */
  c2.local_ports = 2;
  n = mt_net_new(&c2, &p.s, &p.tb, 0, &e);
  CHECK(!n && strstr(e.msg, "in a switch network"), "two NI links per node accepted: %s", e.msg);
  mt_net_free(n);
  tb_unplan(&p);
}

/* Data modes (docs/reference/network.md "Data modes"): full, sample and none give the same cycles, link
 * flits and utilisation; full checks every word, sample only the sampled pages (and is
 * correct), none checks nothing. A word corrupted at one node's input after the start is
 * caught by full everywhere, by sample only on a sampled page. */
static void test_data_modes(void) {
  static const struct {
    const char *topo, *algo, *cfg;
    int pkt, dt;
    uint64_t bytes;
  } cases[] = {
    {"torus:4x4", "multitree", "small", 0, 0, 40000 * 4},
    {"mesh:3x5", "ring", "small", 1, 1, 30000 * 4},
    {"torus:4x4", "dbtree", "small", 0, 1, 20000 * 4},
    {"mesh:4x4", "ring2d", "small", 1, 0, 20000 * 4},
    {"torus:2x2", "multitree", "paper", 0, 1, 70000 * 4},
    {"torus:4x4", "hd", "small", 0, 0, 65536 * 4},
    {"fattree:4,2", "multitree", "small", 0, 0, 49152 * 4},
    {"dgx2", "ring", "paper", 1, 1, 49152 * 4},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mt_net_result r[3];
    tb_planned p;
    mt_err e;
    CHECK(tb_plan(&p, cases[i].topo, cases[i].algo, cases[i].bytes, &e) == 0, "%s", e.msg);
    for (unsigned d = 0; d < 3; d++) {
      mt_net_cfg c;
      CHECK(mt_net_cfg_by_name(&c, cases[i].cfg, &e) == 0, "%s", e.msg);
      c.data = d;
      c.flow = cases[i].pkt ? MT_NET_FLOW_PACKET : MT_NET_FLOW_MESSAGE;
      mt_net *n = mt_net_new(&c, &p.s, &p.tb, cases[i].dt, &e);
      memset(&r[d], 0, sizeof r[d]);
      CHECK(n && !mt_net_start(n, 3, &e) && !mt_net_run(n, &r[d], NULL, &e), "%s %s data %u: %s", cases[i].topo, cases[i].algo, d, e.msg);
      mt_net_free(n);
    }
    const uint64_t nw = cases[i].bytes / 4;
    CHECK(r[0].correct && r[0].checked_words == nw, "%s %s full: correct %d, %llu words checked", cases[i].topo, cases[i].algo,
          r[0].correct, (unsigned long long)r[0].checked_words);
    CHECK(r[1].correct && r[1].checked_words > 0 && r[1].checked_words < nw, "%s %s sample: correct %d, %llu of %llu words checked",
          cases[i].topo, cases[i].algo, r[1].correct, (unsigned long long)r[1].checked_words, (unsigned long long)nw);
    CHECK(!r[2].correct && r[2].checked_words == 0, "%s %s none: correct %d, %llu words checked", cases[i].topo, cases[i].algo,
          r[2].correct, (unsigned long long)r[2].checked_words);
    for (int d = 1; d < 3; d++)
      CHECK(r[d].cycles == r[0].cycles && r[d].link_flits == r[0].link_flits && r[d].util_max == r[0].util_max && r[d].done == r[0].done,
            "%s %s data %d: %llu cycles %llu flits, full: %llu cycles %llu flits", cases[i].topo, cases[i].algo, d,
            (unsigned long long)r[d].cycles, (unsigned long long)r[d].link_flits, (unsigned long long)r[0].cycles,
            (unsigned long long)r[0].link_flits);
    tb_unplan(&p);
  }
  /* a corrupted input word: at word 0 (the first flow chunk's first page: sampled), in the
   * middle of a chunk's inner page and in an inner page of the third range of the check
   * (MT_NET_REF_WORDS = 64 Ki words; not sampled); torus:4x4 MultiTree, 16 chunks of 40 KiB.
   * With 1 and 3 threads (the check splits its ranges among them): the same words wrong. */
  tb_planned p;
  mt_err e;
  CHECK(tb_plan(&p, "torus:4x4", "multitree", 16 * 10240 * 4, &e) == 0, "%s", e.msg);
  const uint64_t at[3] = {0, 10240 / 2, 2 * 65536 + 7};
  for (int w = 0; w < 3; w++)
    for (unsigned d = 0; d < 2; d++)
      for (unsigned th = 1; th <= 3; th += 2) {
        mt_net_cfg c;
        mt_net_cfg_small(&c);
        c.data = d;
        c.threads = th;
        mt_net *n = mt_net_new(&c, &p.s, &p.tb, 0, &e);
        mt_net_result r;
        CHECK(n && !mt_net_start(n, 3, &e), "%s", e.msg);
        if (!n) continue;
        uint32_t *x = mt_mem_word(mt_net_mem(n, 5), at[w]);
        if (x) *x ^= 1u; /* node 5's input, before any cycle */
        CHECK(!mt_net_run(n, &r, NULL, &e), "%s", e.msg);
        const int caught = !r.correct, want = d == 0 || w == 0;
        CHECK(caught == want, "data %s, %u threads, input word %llu corrupted at node 5: caught %d, want %d (%llu words wrong)",
              d ? "sample" : "full", th, (unsigned long long)at[w], caught, want, (unsigned long long)r.wrong_words);
        static uint64_t wrong1;
        if (th == 1) wrong1 = r.wrong_words;
        else CHECK(r.wrong_words == wrong1, "data %s, input word %llu: %llu words wrong with 3 threads, %llu with 1", d ? "sample" : "full",
                   (unsigned long long)at[w], (unsigned long long)r.wrong_words, (unsigned long long)wrong1);
        mt_net_free(n);
      }
  tb_unplan(&p);
}

/* Threads (mt_net_cfg.threads): 1, 2, 3 and 7 threads give the same cycles, flits and buffers;
 * with more threads than nodes too; a cycle limit inside a block stops every thread count at it.
 * The run uses min(threads, nodes, blk * nodes / 64) threads (blk = link_lat - 1; at least 1):
 * torus:2x2 with link_lat=5 (16 node-cycles a block) runs on one, with link_lat=40 on two. */
static void test_threads(void) {
  static const struct {
    const char *topo, *algo, *cfg, *set;
    int pkt;
    uint64_t bytes;
  } cases[] = {
    {"torus:4x4", "multitree", "paper", NULL, 0, 65536},
    {"mesh:3x5", "ring", "paper", "link_lat=20", 1, 30000 * 4},
    {"torus:2x2", "dbtree", "paper", "link_lat=5", 0, 4096},
    {"torus:2x2", "dbtree", "paper", "link_lat=40", 0, 4096},
    {"torus:4x2x2", "multitree", "small", "link_lat=37", 0, 16384},
    {"torus:4x4", "multitree", "paper", "max_cycles=2000", 0, 65536},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    tb_planned p;
    mt_err e;
    CHECK(tb_plan(&p, cases[i].topo, cases[i].algo, cases[i].bytes, &e) == 0, "%s", e.msg);
    const unsigned nth[] = {1, 2, 3, 7, 64};
    mt_net_result r0;
    memset(&r0, 0, sizeof r0);
    uint32_t *buf0 = NULL;
    const uint64_t nw = cases[i].bytes / 4;
    for (size_t k = 0; k < sizeof nth / sizeof nth[0]; k++) {
      mt_net_cfg c;
      CHECK(mt_net_cfg_by_name(&c, cases[i].cfg, &e) == 0, "%s", e.msg);
      if (cases[i].set) CHECK(mt_net_cfg_set(&c, cases[i].set, &e) == 0, "%s", e.msg);
      c.threads = nth[k];
      c.flow = cases[i].pkt ? MT_NET_FLOW_PACKET : MT_NET_FLOW_MESSAGE;
      mt_net *n = mt_net_new(&c, &p.s, &p.tb, 1, &e);
      mt_net_result r;
      memset(&r, 0, sizeof r);
      const int cut = i == sizeof cases / sizeof cases[0] - 1; /* the cycle limit, within a block */
      CHECK(n && !mt_net_start(n, 4, &e) && !mt_net_run(n, &r, NULL, &e) == !cut, "%s %s %u threads: %s", cases[i].topo, cases[i].algo,
            nth[k], e.msg);
      if (!n) continue;
      if (cut) r.cycles = mt_net_cycle(n);
      const int N = p.s.n_nodes;
      {
        const uint64_t blk = (c.link_lat > 1 ? c.link_lat : 2u) - 1u, cap = blk * (uint64_t)N / 64u;
        uint64_t want = nth[k] < (unsigned)N ? nth[k] : (unsigned)N;
        if (want > cap) want = cap;
        if (want < 1) want = 1;
        CHECK(cut || (uint64_t)r.threads == want, "%s %s %s: %u threads asked, %d used, want %llu", cases[i].topo, cases[i].algo,
              cases[i].set ? cases[i].set : "", nth[k], r.threads, (unsigned long long)want);
      }
      if (k == 0) {
        r0 = r;
        buf0 = calloc((size_t)N * nw + 1, 4);
        for (int x = 0; x < N; x++) memcpy(buf0 + (size_t)x * nw, mt_net_buffer(n, x), nw * 4);
      } else {
        int same = 1;
        for (int x = 0; x < N; x++) same &= !memcmp(buf0 + (size_t)x * nw, mt_net_buffer(n, x), nw * 4);
        CHECK(r.cycles == r0.cycles && r.link_flits == r0.link_flits && r.err_node == r0.err_node && r.err_code == r0.err_code &&
                r.correct == r0.correct && same,
              "%s %s %s: %u threads: %llu cycles, %llu flits, err node %d code %d, buffers %s; 1 thread: %llu, %llu, %d, %d",
              cases[i].topo, cases[i].algo, cases[i].set ? cases[i].set : "", nth[k], (unsigned long long)r.cycles,
              (unsigned long long)r.link_flits, r.err_node, r.err_code, same ? "the same" : "differ", (unsigned long long)r0.cycles,
              (unsigned long long)r0.link_flits, r0.err_node, r0.err_code);
      }
      mt_net_free(n);
    }
    CHECK(i == sizeof cases / sizeof cases[0] - 1 ? r0.cycles == 2000 : r0.correct, "%s %s: the 1-thread run: err node %d, correct %d",
          cases[i].topo, cases[i].algo, r0.err_node, r0.correct);
    free(buf0);
    tb_unplan(&p);
  }
}

int main(void) {
  test_threads();
  test_data_modes();
  test_matrix();
  test_repeatable_and_flits();
  test_ni_bandwidth();
  test_chain();
  test_bad_input();
  return MT_TEST_END("test_net");
}
