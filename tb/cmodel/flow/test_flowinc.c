/* SPDX-License-Identifier: Apache-2.0
 * test_flowinc: the flow engine's incremental max-min solve (only the components of streams
 * joined by shared links that a change touched; docs/reference/flowsim.md "The incremental max-min solve") gives exactly what
 * solving every message at every change gives (mt_flow_eng_reference, the first engine's
 * way): the same events at the same times in the same order, the same bytes per link, on
 * random traffic driven through two engines side by side and on planned schedules (tori,
 * meshes, switch networks; messages, packets, routed multi-hop transfers; credit caps). It
 * also checks that it solves fewer message rates, so a solve that falls back to everything
 * fails. Exact comparisons (==): both engines do the same arithmetic in the same order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flow/mt_flow.h"
#include "mt_test.h"

static uint64_t rng = 88172645463325252ull;
static unsigned rnd(unsigned n) { /* xorshift64: the same sequence on every machine */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

enum { MAXL = 400,
       NS = 40,
       WAKE = 1,
       UNSTALL = 2 };
static int NL;  /* links of the current run */
static int HOL; /* the head-of-line rule: input VCs per class (0: off) */
static uint8_t cls[NS][4];
static int pkt[NS];

/* Start stream s in both engines; with HOL half the streams are routed packets with random
 * VC classes, and now and then one starts stalled (not due) until an UNSTALL timer. */
static void start2(mt_flow_eng **g, int s, const int *path, int n, double b, double c, double now) {
  if (HOL) {
    pkt[s] = (int)rnd(2);
    for (int i = 0; i < n; i++) cls[s][i] = (uint8_t)rnd(2);
  }
  for (int k = 0; k < 2; k++) mt_flow_eng_start_pkt(g[k], s, path, n, b, c, s, HOL && pkt[s] ? cls[s] : NULL);
  if (HOL && pkt[s] && rnd(6) == 0) {
    const double w = now + rnd(80);
    for (int k = 0; k < 2; k++) {
      mt_flow_eng_stall(g[k], s, 1);
      mt_flow_eng_at(g[k], w, UNSTALL, s);
    }
  }
}

/* A random path of 1..4 distinct links. */
static int rand_path(int *l) {
  int n = 1 + (int)rnd(4);
  for (int i = 0; i < n; i++) {
    int x, dup;
    do {
      x = (int)rnd(NL);
      dup = 0;
      for (int j = 0; j < i; j++) dup |= l[j] == x;
    } while (dup);
    l[i] = x;
  }
  return n;
}

/* Random traffic through g[0] (reference) and g[1] (incremental), the same calls to both:
 * streams end and restart (some back to back on the same path, some on a new one, some
 * after a timer), with own caps of none, 3 or 7 bytes per ns on links of 10-40. The events
 * each pops must be equal; returns the number compared. With few links all streams form
 * one component, with many they form many small ones (only some solved again). */
static long random_traffic(int rounds, double msg_cap, uint64_t *solved) {
  double cap[MAXL], lat[MAXL] = {0};
  for (int l = 0; l < NL; l++) cap[l] = 10.0 * (1 + rnd(4));
  mt_flow_eng *g[2];
  int path[NS][4], plen[NS];
  for (int k = 0; k < 2; k++) {
    g[k] = mt_flow_eng_new(NL, cap, lat, msg_cap);
    mt_flow_eng_reference(g[k], k == 0);
    mt_flow_eng_hol(g[k], HOL);
    for (int i = 0; i < NS; i++) mt_flow_eng_stream(g[k]);
  }
  const double caps[3] = {0, 3, 7};
  for (int i = 0; i < NS; i++) plen[i] = rand_path(path[i]);
  for (int i = 0; i < NS; i += 2) {
    double b = 50 + rnd(500), c = caps[rnd(3)];
    start2(g, i, path[i], plen[i], b, c, 0);
  }
  long n = 0, bad = 0;
  for (int r = 0; r < rounds && !bad; r++) {
    for (int k = 0; k < 2; k++) mt_flow_eng_settle(g[k]);
    double t[2];
    int kind[2], got[2];
    int64_t id[2], tag[2];
    for (int k = 0; k < 2; k++) got[k] = mt_flow_eng_pop(g[k], &t[k], &kind[k], &id[k], &tag[k]);
    if (!got[0] && !got[1]) break;
    /* a batch: every event of this time, handled alike in both */
    for (;;) {
      n++;
      if (got[0] != got[1] || t[0] != t[1] || kind[0] != kind[1] || id[0] != id[1] || tag[0] != tag[1]) {
        CHECK(0, "event %ld: reference %d t=%.17g kind %d id %lld, incremental %d t=%.17g kind %d id %lld", n, got[0], t[0], kind[0],
              (long long)id[0], got[1], t[1], kind[1], (long long)id[1]);
        bad = 1;
        break;
      }
      const int s = (int)id[0], what = (int)rnd(10);
      if (kind[0] == 0 && what < 3) { /* back to back on the same path */
        double b = 50 + rnd(500);
        for (int k = 0; k < 2; k++) mt_flow_eng_start_pkt(g[k], s, path[s], plen[s], b, -1, s, HOL && pkt[s] ? cls[s] : NULL);
      } else if (kind[0] == 0 && what < 6) { /* a new path */
        plen[s] = rand_path(path[s]);
        double b = 50 + rnd(500), c = caps[rnd(3)];
        start2(g, s, path[s], plen[s], b, c, t[0]);
      } else if (kind[0] == UNSTALL) {
        for (int k = 0; k < 2; k++) mt_flow_eng_stall(g[k], s, 0);
      } else if (kind[0] == 0 && what < 9) { /* later */
        const double w = t[0] + rnd(50);
        for (int k = 0; k < 2; k++) mt_flow_eng_at(g[k], w, WAKE, s);
      } else if (kind[0] == WAKE && !mt_flow_eng_busy(g[0], s)) {
        plen[s] = rand_path(path[s]);
        double b = 50 + rnd(500);
        start2(g, s, path[s], plen[s], b, 0, t[0]);
      }
      /* an idle stream joins now and then */
      int j = (int)rnd(NS);
      if (rnd(4) == 0 && !mt_flow_eng_busy(g[0], j)) {
        plen[j] = rand_path(path[j]);
        double b = 50 + rnd(500);
        start2(g, j, path[j], plen[j], b, 0, t[0]);
      }
      if (mt_flow_eng_peek(g[0]) > t[0] || mt_flow_eng_peek(g[1]) > t[1]) break;
      for (int k = 0; k < 2; k++) got[k] = mt_flow_eng_pop(g[k], &t[k], &kind[k], &id[k], &tag[k]);
    }
  }
  const double *b0 = mt_flow_eng_link_bytes(g[0]), *b1 = mt_flow_eng_link_bytes(g[1]);
  int same = 1;
  for (int l = 0; l < NL; l++) same &= b0[l] == b1[l];
  CHECK(same, "bytes per link differ after %ld events", n);
  uint64_t e[2], s[2], st[2];
  for (int k = 0; k < 2; k++) {
    mt_flow_eng_stats(g[k], &e[k], &s[k], &st[k]);
    solved[k] = mt_flow_eng_solved(g[k]);
  }
  CHECK(e[0] == e[1] && s[0] == s[1] && st[0] == st[1], "statistics: events %llu/%llu solves %llu/%llu steady %llu/%llu",
        (unsigned long long)e[0], (unsigned long long)e[1], (unsigned long long)s[0], (unsigned long long)s[1], (unsigned long long)st[0],
        (unsigned long long)st[1]);
  for (int k = 0; k < 2; k++) mt_flow_eng_free(g[k]);
  return bad ? -1 : n;
}

static void test_random(void) {
  const double mcap[3] = {0, 5, 12};
  for (int c = 0; c < 6; c++) {
    uint64_t solved[2];
    NL = c < 3 ? 24 : MAXL;
    long n = random_traffic(20000, mcap[c % 3], solved);
    CHECK(n > 20000, "random traffic (engine cap %g): %ld events compared, want > 20000", mcap[c % 3], n);
    printf("random traffic, %d links, engine cap %g: %ld events equal; message rates solved: %llu incremental, %llu reference\n", NL, mcap[c % 3], n,
           (unsigned long long)solved[1], (unsigned long long)solved[0]);
    CHECK(solved[1] < solved[0], "random traffic: incremental solved %llu rates, reference %llu", (unsigned long long)solved[1],
          (unsigned long long)solved[0]);
  }
  /* the head-of-line rule: routed streams in input-VC groups, some stalled for a while */
  for (int c = 0; c < 2; c++) {
    uint64_t solved[2];
    NL = c ? MAXL : 24;
    HOL = c ? 1 : 2;
    long n = random_traffic(20000, 0, solved);
    CHECK(n > 20000, "random traffic, HOL %d: %ld events compared, want > 20000", HOL, n);
    printf("random traffic, %d links, HOL rule with %d VCs per class: %ld events equal; message rates solved: %llu incremental, %llu reference\n", NL,
           HOL, n, (unsigned long long)solved[1], (unsigned long long)solved[0]);
    HOL = 0;
  }
}

/* The moved stream: a release moves the last active stream into the freed place, which
 * changes the order its component is solved in, and with two bottleneck links tied at 1/3
 * the order decides which is filled first: (1 - 1/3) / 2 is not 1/3 in doubles, so the
 * rates differ in the last bits. Links 0 and 1 carry A, C, S and B, D, S (capacity 1 each),
 * Y alone on link 2 ends first; S moves from last to first and the tie breaks the other way.
 * The incremental solve must solve S's component again (it did not change otherwise). */
static void test_moved(void) {
  const double cap[3] = {1, 1, 1}, lat[3] = {0, 0, 0};
  const int l0[1] = {0}, l1[1] = {1}, l2[1] = {2}, l01[2] = {0, 1};
  const int *path[6] = {l2, l1, l1, l0, l0, l01}, plen[6] = {1, 1, 1, 1, 1, 2}; /* Y, B, D, A, C, S */
  double end[2][6] = {{0}};
  for (int k = 0; k < 2; k++) {
    mt_flow_eng *g = mt_flow_eng_new(3, cap, lat, 0);
    mt_flow_eng_reference(g, k == 0);
    for (int i = 0; i < 6; i++) mt_flow_eng_stream(g);
    for (int i = 0; i < 6; i++) mt_flow_eng_start(g, i, path[i], plen[i], i ? 10 : 0.1, 0, i);
    double t;
    int kind;
    int64_t id, tag;
    mt_flow_eng_settle(g);
    while (mt_flow_eng_pop(g, &t, &kind, &id, &tag)) {
      end[k][id] = t;
      mt_flow_eng_settle(g);
    }
    mt_flow_eng_free(g);
  }
  int same = 1;
  for (int i = 0; i < 6; i++) same &= end[0][i] == end[1][i];
  CHECK(same && end[0][0] == 0.1, "moved stream: ends B %.17g / %.17g, A %.17g / %.17g (reference / incremental)", end[0][1], end[1][1], end[0][3],
        end[1][3]);
}

/* A planned schedule at the flow level with both solves: every number of the result and
 * every link's utilisation equal; the incremental one solved at most `frac` of the rates. */
static void same_sched(const char *spec, const char *algo, uint64_t bytes, const char *cfg, int packets, double frac) {
  mt_topo t;
  mt_err e = {{0}};
  if (mt_topo_from_name(&t, spec, &e)) {
    CHECK(0, "%s: %s", spec, e.msg);
    return;
  }
  mt_sched s;
  if (mt_plan(&s, &t, algo, bytes, 4, &e)) {
    CHECK(0, "%s %s: %s", spec, algo, e.msg);
    mt_topo_free(&t);
    return;
  }
  mt_flow_params p;
  if (!strcmp(cfg, "ns")) mt_flow_params_ns(&p);
  else if (!strcmp(cfg, "small")) mt_flow_params_cycles(&p, 16, 2, 8, 64, packets, 0); /* configs/net/small.cfg and paper.cfg */
  else mt_flow_params_cycles(&p, 16, 150, 318, 256, packets, 0);
  if (strcmp(cfg, "ns")) { /* both configs: the head-of-line rule and the stager on (no-ops off tori and meshes) */
    p.num_vcs = 4;
    p.stage_after = 20000;
  }
  mt_flow_result r[2];
  double *lu[2];
  int rc[2];
  for (int k = 0; k < 2; k++) {
    lu[k] = mt_xcalloc((size_t)t.n_links + 1, sizeof(double));
    p.reference = k == 0;
    rc[k] = mt_flow_run_sched(&s, &p, &r[k], lu[k], &e);
  }
  CHECK(rc[0] == 0 && rc[1] == 0, "%s %s: %s", spec, algo, e.msg);
  int same_links = 1;
  for (int l = 0; l < t.n_links; l++) same_links &= lu[0][l] == lu[1][l];
  CHECK(r[0].time == r[1].time && r[0].util_mean == r[1].util_mean && r[0].util_max == r[1].util_max && r[0].messages == r[1].messages &&
          r[0].events == r[1].events && r[0].solves == r[1].solves && r[0].steady == r[1].steady && same_links,
        "%s %s %s: time %.17g / %.17g, events %llu / %llu, solves %llu / %llu, links %s", spec, algo, cfg, r[0].time, r[1].time,
        (unsigned long long)r[0].events, (unsigned long long)r[1].events, (unsigned long long)r[0].solves, (unsigned long long)r[1].solves,
        same_links ? "equal" : "differ");
  CHECK(r[0].time > 0 && (double)r[1].solved <= frac * (double)r[0].solved, "%s %s: incremental solved %llu rates, reference %llu (want <= %g of it)",
        spec, algo, (unsigned long long)r[1].solved, (unsigned long long)r[0].solved, frac);
  printf("%s %s %s%s: %.17g, %llu events, %llu solves; message rates solved: %llu incremental, %llu reference\n", spec, algo, cfg,
         packets ? " packets" : "", r[1].time, (unsigned long long)r[1].events, (unsigned long long)r[1].solves, (unsigned long long)r[1].solved,
         (unsigned long long)r[0].solved);
  for (int k = 0; k < 2; k++) free(lu[k]);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* Schedules: tori, a mesh, switch networks, routed multi-hop transfers (hd, dbtree), packets
 * and the credit caps of `small`; the last three in ns. The 64-NPU 3-D switch system of
 * docs/results/themis.md (3d-sw-sw-sw-hetero's links) has many small components: the case the
 * incremental solve is for, so it must solve under a tenth of the rates there. */
static const struct {
  const char *spec, *algo;
  uint64_t bytes;
  const char *cfg;
  int packets;
  double frac;
} cases[] = {
  {"torus:4x4", "multitree", 1 << 20, "small", 0, 1.0},
  {"torus:4x4", "multitree", 1 << 20, "small", 1, 1.0},
  {"torus:4x4", "ring", 1 << 20, "paper", 0, 1.0},
  {"torus:4x4", "dbtree", 1 << 20, "small", 0, 1.0},
  {"ring:8", "dbtree", 256 << 10, "small", 0, 1.0},
  {"ring:16", "hd", 256 << 10, "paper", 0, 1.0},
  {"torus:4x4", "dbtree", 256 << 10, "paper", 1, 1.0},
  {"torus:4x4", "hd", 1 << 20, "paper", 0, 1.0},
  {"torus:8x8", "hd", 1 << 20, "paper", 0, 0.5},
  {"mesh:4x4", "dbtree", 4 << 20, "paper", 0, 1.0},
  {"fattree:4,2", "ring", 1 << 20, "paper", 0, 1.0},
  {"dgx2", "hd", 1 << 20, "paper", 0, 1.0},
  {"torus:4x4x4", "hier", 1 << 20, "paper", 0, 1.0},
  {"dims:sw4@25x8:700ns,sw4@25x4:700ns,sw4@50x1:1700ns", "multitree", 1 << 30, "ns", 0, 0.1},
  {"dims:sw4@25x8:700ns,sw4@25x4:700ns,sw4@50x1:1700ns", "ring", 64 << 20, "ns", 0, 1.0},
  {"dims:ring4@100x2:20ns,fc4@50x3:100ns,sw2@25x1:700ns", "hier", 1 << 20, "ns", 0, 1.0},
};

int main(void) {
  test_random();
  test_moved();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    same_sched(cases[i].spec, cases[i].algo, cases[i].bytes, cases[i].cfg, cases[i].packets, cases[i].frac);
  return MT_TEST_END("flowinc");
}
