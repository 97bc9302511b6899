/* SPDX-License-Identifier: Apache-2.0
 * test_flow: the flow-level simulator (cmodel/flow): times derived by hand (one message on
 * one link, messages sharing links max-min fairly, a ring on 3 nodes), the NI's rules (the
 * step barrier, a Reduce waiting for its children) each in a case whose time changes when
 * the rule is broken, schedules that can never finish refused with the node named, the
 * chunk-schedule front end against front end 1 on the same all-reduce, and its refusals; the
 * engine's max-min rates against progressive filling written from the definition on 400
 * random instances, at every change of the active set. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flow/mt_flow.h"
#include "mt_test.h"

static int near_(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-9; }
#define NEAR(a, b) near_((a), (b))

/* A topology of n nodes from undirected links {a, b}, every link bw 10 B/ns, lat 5 ns. */
static int topo(mt_topo *t, int n, int nl, const int (*ab)[2]) {
  int ll[16][3], dim[16];
  double bw[16], lat[16];
  for (int i = 0; i < nl; i++) {
    ll[i][0] = ab[i][0];
    ll[i][1] = ab[i][1];
    ll[i][2] = 1;
    dim[i] = -1;
    bw[i] = 10;
    lat[i] = 5;
  }
  mt_err e = {{0}};
  int rc = mt_topo_from_links_attr(t, "test", n, 0, nl, (const int(*)[3])ll, dim, bw, lat, &e);
  CHECK(rc == 0, "%s", e.msg);
  return rc;
}

/* A schedule on t from rows {flow, op (R or G), src, dst, step} (single-link transfers), run
 * at the flow level in ns with `bytes` over nf flows: its time, or -1 (reason in e). */
enum { R = MT_OP_REDUCE,
       G = MT_OP_GATHER };
static double run_rows(const mt_topo *t, int nf, const int *root, int nx, const int (*x)[5], int steps, int rsteps, uint64_t bytes, mt_err *e) {
  mt_sched s;
  mt_sched_init(&s, t, "test", nf);
  for (int f = 0; f < nf; f++) s.root[f] = root[f];
  for (int i = 0; i < nx; i++) {
    int l = mt_topo_find_link(t, x[i][2], x[i][3]);
    CHECK(l >= 0, "no link %d -> %d", x[i][2], x[i][3]);
    mt_sched_add(&s, x[i][0], x[i][1], x[i][2], x[i][3], x[i][4], &l, 1);
  }
  s.steps = steps;
  s.reduce_steps = rsteps;
  mt_flow_params p;
  mt_flow_params_ns(&p);
  mt_flow_result r;
  CHECK(mt_sched_set_bytes(&s, bytes, 4, e) == 0, "%s", e->msg);
  double time = mt_flow_run_sched(&s, &p, &r, NULL, e) ? -1 : r.time;
  mt_sched_free(&s);
  return time;
}

/* The engine alone: one message on one link takes size / bw; two on one link share it
 * equally (max-min, not FIFO: under FIFO the short one would end at 10, not 20); a
 * message on two links is held to its share on the busier one and a third message takes
 * what is left on the other (progressive filling); a message's own cap binds first. */
static void test_engine(void) {
  const double cap[3] = {10, 20, 10}, lat[3] = {0, 0, 0};
  mt_flow_eng *g = mt_flow_eng_new(3, cap, lat, 0);
  int a = mt_flow_eng_stream(g), b = mt_flow_eng_stream(g), c = mt_flow_eng_stream(g);
  const int l0[1] = {0}, l01[2] = {0, 1}, l1[1] = {1};
  double t, endt[3] = {0};
  int kind;
  int64_t id, tag;
  /* alone: 100 bytes on a 10 B/ns link */
  mt_flow_eng_start(g, a, l0, 1, 100, 0, 0);
  mt_flow_eng_settle(g);
  CHECK(mt_flow_eng_pop(g, &t, &kind, &id, &tag) && kind == 0 && id == a && NEAR(t, 10), "one message: end %g, want 10", t);
  mt_flow_eng_settle(g);
  /* at 10: A 100 B on link 0, B 300 B on links 0, 1, C 300 B on link 1 (cap 20) */
  mt_flow_eng_start(g, a, l0, 1, 100, 0, 0);
  mt_flow_eng_start(g, b, l01, 2, 300, 0, 1);
  mt_flow_eng_start(g, c, l1, 1, 300, 0, 2);
  mt_flow_eng_settle(g);
  while (mt_flow_eng_pop(g, &t, &kind, &id, &tag)) {
    endt[tag] = t;
    mt_flow_eng_settle(g);
  }
  /* A, B at 5 each on link 0; C gets 20 - 5 = 15. A ends at 10 + 20 = 30; then B alone on
   * link 0 (10) but shares link 1 with C: max-min on link 1 gives 10 each: C has 300 - 15*20
   * = 0 left at 30 -> C ends at 30 too; B has 200 left, alone now: at 10, ends at 50. */
  CHECK(NEAR(endt[0], 30), "shared: A ends %g, want 30 (FIFO would give 20)", endt[0]);
  CHECK(NEAR(endt[2], 30), "progressive filling: C ends %g, want 30", endt[2]);
  CHECK(NEAR(endt[1], 50), "B ends %g, want 50", endt[1]);
  mt_flow_eng_free(g);
  /* a cap of 4 per message on a 10 link with two messages: 4 each, not 5 */
  g = mt_flow_eng_new(3, cap, lat, 4);
  a = mt_flow_eng_stream(g);
  b = mt_flow_eng_stream(g);
  mt_flow_eng_start(g, a, l0, 1, 40, 0, 0);
  mt_flow_eng_start(g, b, l0, 1, 80, 0, 1);
  mt_flow_eng_settle(g);
  while (mt_flow_eng_pop(g, &t, &kind, &id, &tag)) {
    endt[tag] = t;
    mt_flow_eng_settle(g);
  }
  CHECK(NEAR(endt[0], 10) && NEAR(endt[1], 20), "capped: ends %g %g, want 10 20", endt[0], endt[1]);
  mt_flow_eng_free(g);
}

/* One message on one link: a reduce 0 -> 1 then the gather back, 400 bytes at 10 B/ns and
 * 5 ns: each 5 + 40 = 45, 90 in all. */
static void test_one_link(void) {
  mt_topo t;
  const int ab[1][2] = {{0, 1}}, root[1] = {1}, x[2][5] = {{0, R, 0, 1, 1}, {0, G, 1, 0, 2}};
  if (topo(&t, 2, 1, ab)) return;
  mt_err e = {{0}};
  double time = run_rows(&t, 1, root, 2, x, 2, 1, 400, &e);
  CHECK(NEAR(time, 90), "one link: %g, want 90 (%s)", time, e.msg);
  mt_topo_free(&t);
}

/* ring all-reduce on 3 nodes (the ring planner): 2 reduce-scatter and 2 all-gather steps of
 * 1200 / 3 = 400 bytes, each 5 + 40 ns, each waiting for the previous step's data: 180. */
static void test_ring3(void) {
  mt_topo t;
  const int ab[3][2] = {{0, 1}, {1, 2}, {2, 0}};
  if (topo(&t, 3, 3, ab)) return;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(mt_plan(&s, &t, "ring", 1200, 4, &e) == 0, "%s", e.msg);
  if (s.n_flows) {
    mt_flow_params p;
    mt_flow_params_ns(&p);
    mt_flow_result r;
    double lu[6] = {0};
    CHECK(t.n_links == 6 && mt_flow_run_sched(&s, &p, &r, lu, &e) == 0, "%s", e.msg);
    /* one direction round the ring carries everything: three links at 1600/1800, three idle */
    int busy = 0, idle = 0;
    for (int l = 0; l < 6; l++) busy += NEAR(lu[l], 1600.0 / 1800.0), idle += lu[l] == 0;
    CHECK(busy == 3 && idle == 3, "per link: %d at 1600/1800, %d idle", busy, idle);
    CHECK(s.steps == 4 && NEAR(r.time, 180), "ring on 3 nodes: %d steps, %g ns, want 4, 180", s.steps, r.time);
    /* each directed ring link carries 4 messages of 400 B in 180 ns at 10 B/ns */
    CHECK(NEAR(r.util_max, 1600.0 / 1800.0), "utilisation max %g, want %g", r.util_max, 1600.0 / 1800.0);
    /* bound: the aggregate 2 (N-1) S over the 6 x 10 B/ns into nodes, 2 * 2 * 1200 / 60 = 80 (per node 1200 / 20 = 60) */
    CHECK(NEAR(r.bound, 80), "bound %g, want 80", r.bound);
    mt_sched_free(&s);
  }
  mt_topo_free(&t);
}

/* The step barrier, on a triangle: flow 1 (root 1) gets 0's and 2's data at step 1, flow 0
 * (root 2) 0's and 1's at step 2, gathers at step 3. Node 0's step-2 send needs nothing
 * but its step-1 message gone (40), not 0: it reaches 2 at 85, node 2's gathers end at
 * 85 + 45 = 130 (without the barrier: 90). (Flow 0 is node 1's step-2 send so that it
 * issues before node 1's root entry of flow 1, which waits for data until 45.) */
static void test_barrier(void) {
  mt_topo t;
  const int ab[3][2] = {{0, 1}, {0, 2}, {1, 2}}, root[2] = {2, 1};
  const int x[8][5] = {{1, R, 0, 1, 1}, {1, R, 2, 1, 1}, {0, R, 0, 2, 2}, {0, R, 1, 2, 2}, {1, G, 1, 0, 3}, {1, G, 1, 2, 3}, {0, G, 2, 0, 3}, {0, G, 2, 1, 3}};
  if (topo(&t, 3, 3, ab)) return;
  mt_err e = {{0}};
  double time = run_rows(&t, 2, root, 8, x, 3, 2, 800, &e);
  CHECK(NEAR(time, 130), "step barrier: %g, want 130 (90 without it) %s", time, e.msg);
  mt_topo_free(&t);
}

/* A Reduce waits for its children: chain 2 -> 1 -> 0 (flow root 0), node 1 idle at step 1
 * (a NOP) so its timestep reaches 2 at once; its send waits for 2's data (45): 45 + 45 = 90,
 * then the gathers 0 -> 1 -> 2: 180 (90 when a Reduce does not wait). */
static void test_reduce_waits(void) {
  mt_topo t;
  const int ab[2][2] = {{0, 1}, {1, 2}}, root[1] = {0};
  const int x[4][5] = {{0, R, 2, 1, 1}, {0, R, 1, 0, 2}, {0, G, 0, 1, 3}, {0, G, 1, 2, 4}};
  if (topo(&t, 3, 2, ab)) return;
  mt_err e = {{0}};
  double time = run_rows(&t, 1, root, 4, x, 4, 2, 400, &e);
  CHECK(NEAR(time, 180), "reduce waits for children: %g, want 180 (90 when a Reduce does not wait) %s", time, e.msg);
  mt_topo_free(&t);
}

/* Schedules that cannot finish are refused, naming the node: a dependency cycle (node 1's
 * step-1 Reduce of flow 0 waits for 2, whose step-1 Reduce of flow 1 waits for 1's step-2
 * send: the tables refuse the order), and a node that never receives a flow's result (a
 * gather left out: the run ends with node 2 short of flow 0). */
static void test_stuck(void) {
  mt_topo t;
  const int ab[3][2] = {{0, 1}, {1, 2}, {2, 0}}, root[2] = {0, 0};
  const int cyc[8][5] = {{0, R, 1, 0, 1}, {0, R, 2, 1, 2}, {1, R, 2, 0, 1}, {1, R, 1, 2, 2}, {0, G, 0, 1, 3}, {0, G, 0, 2, 3}, {1, G, 0, 1, 3}, {1, G, 0, 2, 3}};
  const int miss[3][5] = {{0, R, 1, 0, 1}, {0, R, 2, 0, 1}, {0, G, 0, 1, 2}};
  if (topo(&t, 3, 3, ab)) return;
  mt_err e = {{0}};
  double time = run_rows(&t, 2, root, 8, cyc, 3, 2, 800, &e);
  CHECK(time < 0 && strstr(e.msg, "node 1 sends the reduce of flow 0 at step 1, but its child 2 sends at step 2"), "cycle: %g, '%s'", time, e.msg);
  e.msg[0] = 0;
  time = run_rows(&t, 1, root, 3, miss, 2, 1, 400, &e);
  CHECK(time < 0 && strstr(e.msg, "node 2 never receives flow 0's result"), "missing gather: %g, '%s'", time, e.msg);
  mt_topo_free(&t);
}

/* Front end 2 on the baseline's compact form (1 chunk) against front end 1 on hier's
 * expansion: equal without latency (front end 1 pipelines a step's flows; with no latency
 * that gains nothing); with latency front end 2 waits for a whole step's message where
 * front end 1 waits for the first flow's, so 0 <= fe2 - fe1 <= the steps' latencies. */
static void test_equiv(const char *spec, uint64_t bytes, double lat_sum) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, spec, &e) == 0, "%s", e.msg);
  if (!t.n_nodes) return;
  mt_flow_params p;
  mt_flow_params_ns(&p);
  mt_sched s;
  mt_chunksched cs;
  mt_flow_result r1, r2;
  CHECK(mt_plan(&s, &t, "hier", bytes, 4, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_run_sched(&s, &p, &r1, NULL, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, bytes, 4, 1, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r2, &e) == 0, "%s", e.msg);
  const double d = r2.time - r1.time;
  if (lat_sum == 0) CHECK(NEAR(r1.time, r2.time), "%s: front end 1 %.6f, front end 2 %.6f ns", spec, r1.time, r2.time);
  else CHECK(d >= -1e-6 && d <= lat_sum + 1e-6, "%s: fe2 - fe1 = %.3f ns, want 0..%g", spec, d, lat_sum);
  CHECK(NEAR(r1.bound, r2.bound), "%s: bounds %g %g", spec, r1.bound, r2.bound);
  mt_chunksched_free(&cs);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* The baseline on ring x ring (1 chunk): reduce-scatter and all-gather, 2 (k-1) steps per
 * dimension, each lat + the message over the link: dim 1 (ring4, both ways) B/8 per link,
 * dim 2 (ring3, both ways) B/4/6 per link: the closed form, exact. More chunks pipeline the
 * dimensions: faster, never below the bound. */
static void test_closed_form(void) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "dims:ring4@100x2:20ns,ring3@50x2:100ns", &e) == 0, "%s", e.msg);
  if (!t.n_nodes) return;
  const double B = 12 * 1024 * 1024; /* whole bytes per message: B / 8 and B / 24 */
  const double want = 2 * 3 * (20 + B / 8 / 100) + 2 * 2 * (100 + B / 4 / 6 / 50);
  mt_flow_params p;
  mt_flow_params_ns(&p);
  mt_chunksched cs;
  mt_flow_result r;
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, (uint64_t)B, 4, 1, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) == 0, "%s", e.msg);
  CHECK(fabs(r.time - want) <= 0.01 * want && NEAR(r.time, want), "ring x ring: %.3f ns, closed form %.3f", r.time, want);
  mt_chunksched_free(&cs);
  double t1 = r.time;
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, (uint64_t)B, 4, 8, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) == 0, "%s", e.msg);
  CHECK(r.time < t1 && r.time >= r.bound, "8 chunks: %.1f ns, 1 chunk %.1f, bound %.1f", r.time, t1, r.bound);
  /* FIFO queues: dimension 1's queue runs every chunk's reduce-scatter in chunk order */
  int inorder = cs.qlen[0] == 16;
  for (int i = 0; i + 1 < 8 && inorder; i++) inorder = cs.queue[0][i].chunk == i && cs.queue[0][i].stage == 0;
  CHECK(inorder, "dimension 1's queue does not start with chunks 0..7's reduce-scatter");
  /* broken compact schedules: an all-gather queued before its reduce-scatter waits
   * forever; a stage in the wrong dimension's queue; a stage left out */
  mt_cs_stage keep = cs.queue[0][0];
  int at = -1;
  for (int i = 0; i < cs.qlen[0]; i++)
    if (cs.queue[0][i].chunk == 0 && cs.queue[0][i].stage == 3) at = i;
  cs.queue[0][0] = cs.queue[0][at];
  cs.queue[0][at] = keep;
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) != 0 && strstr(e.msg, "dimension 1 waits forever at queue[0] = (chunk 0, stage 3)"), "'%s'", e.msg);
  cs.queue[0][at] = cs.queue[0][0];
  cs.queue[0][0] = keep;
  cs.queue[0][0].stage = 1;
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) != 0 && strstr(e.msg, "(chunk 0, stage 1), a stage of dimension 2"), "'%s'", e.msg);
  cs.queue[0][0].stage = 0;
  cs.qlen[1]--;
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) != 0 && strstr(e.msg, "is in no queue"), "'%s'", e.msg);
  cs.qlen[1]++;
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) == 0, "restored: %s", e.msg);
  mt_chunksched_free(&cs);
  mt_topo_free(&t);
}

/* --overlap on one dimension (ring4, both ways, 20 ns links), 2 chunks of 4 MiB: a stage is
 * 3 steps of 20 ns + w, w = 4 MiB / 8 / 100 GB/s = 5242.88 ns, T = 15788.64 ns. One stage at a
 * time: RS0 RS1 AG0 AG1 back to back, 4 T = 63154.56. Overlapped, the ring is taken for 3 w a
 * stage and only the last stage's latency shows: 12 w + 60 = 62974.56. */
static void test_overlap(void) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "dims:ring4@100x2:20ns", &e) == 0, "%s", e.msg);
  if (!t.n_nodes) return;
  mt_flow_params p;
  mt_flow_params_ns(&p);
  mt_chunksched cs;
  mt_flow_result r;
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, 8u << 20, 4, 2, &e) == 0, "%s", e.msg);
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) == 0, "%s", e.msg);
  CHECK(NEAR(r.time, 63154.56), "one stage at a time: %.3f ns, want 63154.56", r.time);
  p.overlap = 1;
  CHECK(mt_flow_run_cs(&cs, &t, &p, &r, &e) == 0, "%s", e.msg);
  CHECK(NEAR(r.time, 62974.56), "overlapped: %.3f ns, want 62974.56", r.time);
  CHECK(NEAR(r.dim_busy[0] * r.time, 12 * 5242.88), "overlapped: the ring busy %.3f ns, want 12 w", r.dim_busy[0] * r.time);
  mt_chunksched_free(&cs);
  mt_topo_free(&t);
}

/* ns needs every link's bandwidth */
static void test_refused(void) {
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "torus:4x4", &e) == 0, "%s", e.msg);
  CHECK(!mt_flow_topo_has_bw(&t), "a torus has no link bandwidths");
  mt_sched s;
  CHECK(mt_plan(&s, &t, "ring", 1 << 16, 4, &e) == 0, "%s", e.msg);
  mt_flow_params p;
  mt_flow_params_ns(&p);
  mt_flow_result r;
  CHECK(mt_flow_run_sched(&s, &p, &r, NULL, &e) != 0 && strstr(e.msg, "has no bandwidth"), "'%s'", e.msg);
  mt_sched_free(&s);
  mt_chunksched cs;
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, 1 << 16, 4, 1 << 15, &e) != 0 && strstr(e.msg, "do not make 32768 chunks"), "'%s'", e.msg);
  mt_topo_free(&t);
  CHECK(mt_topo_from_name(&t, "mesh:4x4", &e) == 0, "%s", e.msg);
  CHECK(mt_flow_cs_baseline(&cs, &t, &p, 1 << 16, 4, 1, &e) != 0 && strstr(e.msg, "hier needs a multi-dimensional topology"), "'%s'", e.msg);
  mt_topo_free(&t);
}

/* Run the engine g until no event is left; each stream's last end into end[] (ids < 8);
 * a timer of kind 2 unstalls stream id. */
static void drain(mt_flow_eng *g, double *end) {
  double t;
  int kind;
  int64_t id, tag;
  mt_flow_eng_settle(g);
  while (mt_flow_eng_pop(g, &t, &kind, &id, &tag)) {
    if (kind == 0 && id >= 0 && id < 8) end[id] = t;
    if (kind == 2) mt_flow_eng_stall(g, (int)id, 0);
    mt_flow_eng_settle(g);
  }
}

/* The head-of-line rule (docs/reference/flowsim.md "Head-of-line blocking"), by hand. Links 0 (A -> B)
 * and 1 (B -> C), 10 B/unit each, one input VC per class (vpc 1); 100 B each: X routed A ->
 * B -> C (class 0, 0), Y routed A -> B (ejects at B), Z routed B -> C (injected at B). X and Y
 * share B's input VC from link 0. At link 1 the requesters are Z's packetiser and that one
 * input VC: k = 2, so X's packets pass B's input VC at 10 / 2 = 5 and Y's (ejecting) at 10;
 * the VC's time: rX / 5 + rY / 10 <= 1, with rX = rY = x: x = 10/3 (link 0 alone would give
 * 5). Z takes link 1's rest, 10 - 10/3 = 20/3, and ends at 100 / (20/3) = 15. Then k = 1:
 * X and Y share link 0 at 5 each; 100 - 15 x 10/3 = 50 B left: they end at 25. Without the
 * rule all three move at 5 and end at 20.
 * Stalled: X not due until a timer at 20 and Z now in class 1: X moves nothing and Y, behind
 * it in the same VC, neither; Z, in another VC of link 1, alone, ends at 10. From 20 X and Y
 * share link 0 (5 each, k = 1): 40. (Z in class 0 would wait behind X too.) */
static void test_hol(void) {
  const double cap[2] = {10, 10}, lat[2] = {0, 0};
  const int lx[2] = {0, 1}, ly[1] = {0}, lz[1] = {1};
  const uint8_t c0[2] = {0, 0}, c1[1] = {1};
  for (int rule = 0; rule < 2; rule++) {
    mt_flow_eng *g = mt_flow_eng_new(2, cap, lat, 0);
    mt_flow_eng_hol(g, rule);
    int x = mt_flow_eng_stream(g), y = mt_flow_eng_stream(g), z = mt_flow_eng_stream(g);
    double end[8] = {0};
    mt_flow_eng_start_pkt(g, x, lx, 2, 100, 0, 0, c0);
    mt_flow_eng_start_pkt(g, y, ly, 1, 100, 0, 1, c0);
    mt_flow_eng_start_pkt(g, z, lz, 1, 100, 0, 2, c0);
    drain(g, end);
    if (rule)
      CHECK(NEAR(end[x], 25) && NEAR(end[y], 25) && NEAR(end[z], 15), "HOL: X %g Y %g Z %g, want 25 25 15", end[x], end[y], end[z]);
    else CHECK(NEAR(end[x], 20) && NEAR(end[y], 20) && NEAR(end[z], 20), "no HOL: X %g Y %g Z %g, want 20 20 20", end[x], end[y], end[z]);
    mt_flow_eng_free(g);
  }
  mt_flow_eng *g = mt_flow_eng_new(2, cap, lat, 0);
  mt_flow_eng_hol(g, 1);
  int x = mt_flow_eng_stream(g), y = mt_flow_eng_stream(g), z = mt_flow_eng_stream(g);
  double end[8] = {0};
  mt_flow_eng_start_pkt(g, x, lx, 2, 100, 0, 0, c0);
  mt_flow_eng_stall(g, x, 1);
  mt_flow_eng_at(g, 20, 2, x);
  mt_flow_eng_start_pkt(g, y, ly, 1, 100, 0, 1, c0);
  mt_flow_eng_start_pkt(g, z, lz, 1, 100, 0, 2, c1);
  drain(g, end);
  CHECK(NEAR(end[x], 40) && NEAR(end[y], 40) && NEAR(end[z], 10), "stalled X: X %g Y %g Z %g, want 40 40 10", end[x], end[y], end[z]);
  mt_flow_eng_free(g);
}

/* Planned routed schedules in `paper` / `small` cycles against the cycle model (`multitree
 * sim --data none`, docs/reference/flowsim.md "Validation"): within 10 % with the rule
 * (num_vcs 4), and the bufferless level without it (num_vcs 0) far below, so the rule is what
 * closes the gap. hd on torus:4x4 1 MiB `paper`: 316,294 cycles (HOL groups); DBTree on
 * ring:8 256 KiB `small`: 149,559 (in-order reduction: node 5's message to 3 waits for node
 * 1's and fills the VCs node 4's message to 3 needs, docs/reference/flowsim.md). */
static void test_vs_cycle(const char *spec, const char *algo, uint64_t bytes, int paper, double cyc, double off_below) {
  mt_topo t;
  mt_err e = {{0}};
  mt_sched s;
  CHECK(mt_topo_from_name(&t, spec, &e) == 0 && mt_plan(&s, &t, algo, bytes, 4, &e) == 0, "%s %s: %s", spec, algo, e.msg);
  mt_flow_params p;
  if (paper) mt_flow_params_cycles(&p, 16, 150, 318, 256, 0, 0);
  else mt_flow_params_cycles(&p, 16, 2, 8, 64, 0, 0);
  mt_flow_result r;
  double tm[2];
  for (int k = 0; k < 2; k++) {
    p.num_vcs = k ? 4 : 0;
    CHECK(mt_flow_run_sched(&s, &p, &r, NULL, &e) == 0, "%s", e.msg);
    tm[k] = r.time;
  }
  CHECK(fabs(tm[1] - cyc) <= 0.10 * cyc, "%s %s: %.0f cycles with the rule, cycle model %.0f (want within 10 %%)", spec, algo, tm[1], cyc);
  CHECK(tm[0] < off_below * cyc, "%s %s: %.0f cycles without the rule, want below %.2f x %.0f", spec, algo, tm[0], off_below, cyc);
  printf("%s %s: cycle model %.0f, flow level %.0f (%+.1f %%), without the rule %.0f (%+.1f %%)\n", spec, algo, cyc, tm[1], 100 * (tm[1] - cyc) / cyc, tm[0],
         100 * (tm[0] - cyc) / cyc);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* The NI stager (docs/reference/ni.md "Staging not-due units") at the flow level: hd on ring:16,
 * 256 KiB, `paper`. Not-due routed messages block each other's input VCs in a cycle (a
 * receiver's due child waits behind a message that another receiver's due child makes due),
 * so without the stager the run never ends, refused naming a node; with T = 20,000 cycles
 * (ni_stage_after) a jammed receiver takes not-due messages after T cycles without progress:
 * within 10 % of the cycle model's 330,773 cycles (`multitree sim --topo ring:16
 * --algo hd --bytes 256K --config paper --data none`). */
static void test_stager(void) {
  mt_topo t;
  mt_err e = {{0}};
  mt_sched s;
  CHECK(mt_topo_from_name(&t, "ring:16", &e) == 0 && mt_plan(&s, &t, "hd", 256 << 10, 4, &e) == 0, "%s", e.msg);
  mt_flow_params p;
  mt_flow_params_cycles(&p, 16, 150, 318, 256, 0, 0);
  p.num_vcs = 4;
  mt_flow_result r;
  CHECK(mt_flow_run_sched(&s, &p, &r, NULL, &e) != 0 && strstr(e.msg, "never"), "no stager: want a refusal, got %g ('%s')", r.time, e.msg);
  p.stage_after = 20000;
  CHECK(mt_flow_run_sched(&s, &p, &r, NULL, &e) == 0 && fabs(r.time - 330773) <= 0.10 * 330773, "stager: %.0f cycles (%s), cycle model 330773",
        r.time, e.msg);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* Max-min fair rates by progressive filling, written from the definition (independent of
 * the engine): messages msg[0..n) with their links; every message not yet fixed rises at
 * one level until a link it crosses is full or it reaches its own cap; those are fixed. */
typedef struct {
  int nl, l[4];
  double cap; /* INFINITY: none */
} mm_msg;
static void maxmin_ref(const double *cap, int nlinks, const mm_msg *m, const int *on, int n, double *rate) {
  int fixed[16] = {0}, left = 0;
  for (int i = 0; i < n; i++) left += on[i], fixed[i] = !on[i], rate[i] = 0;
  while (left > 0) {
    /* each link's share: what the fixed messages leave, over the messages still rising */
    double share[8], level = INFINITY;
    for (int l = 0; l < nlinks; l++) {
      double used = 0;
      int cnt = 0;
      for (int i = 0; i < n; i++)
        for (int k = 0; k < m[i].nl; k++)
          if (on[i] && m[i].l[k] == l) {
            if (fixed[i]) used += rate[i];
            else cnt++;
          }
      share[l] = cnt ? (cap[l] - used) / cnt : INFINITY;
      if (share[l] < level) level = share[l];
    }
    for (int i = 0; i < n; i++)
      if (!fixed[i] && m[i].cap < level) level = m[i].cap;
    /* fix the messages at their cap, and those on a link the level fills */
    for (int i = 0; i < n; i++) {
      if (fixed[i]) continue;
      int full = m[i].cap <= level * (1 + 1e-12);
      for (int k = 0; k < m[i].nl && !full; k++) full = share[m[i].l[k]] <= level * (1 + 1e-12);
      if (full) rate[i] = level, fixed[i] = 2, left--;
    }
    for (int i = 0; i < n; i++)
      if (fixed[i] == 2) fixed[i] = 1;
  }
}

/* The engine's rates against maxmin_ref on random instances (3-6 links, 2-10 messages of
 * 1-3 links, some with their own cap, start times 0 or later), at every change of the active
 * set until all end, with the incremental solve and with the reference solve; and every
 * message's end time against the bytes the reference rates move. */
static void test_maxmin_random(void) {
  uint64_t x = 0x9E3779B97F4A7C15ull;
#define RND(k) ((int)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33) % (k))
  int cases = 0, bad_rate = 0, bad_end = 0;
  for (int inst = 0; inst < 400; inst++) {
    const int nlinks = 3 + RND(4), n = 2 + RND(9), refmode = inst & 1;
    double cap[8], lat[8] = {0}, bytes[16], start[16], left[16], rate[16], want[16];
    mm_msg m[16];
    int on[16] = {0}, sid[16], done[16] = {0};
    for (int l = 0; l < nlinks; l++) cap[l] = 1 + RND(20);
    for (int i = 0; i < n; i++) {
      m[i].nl = 1 + RND(3);
      for (int k = 0; k < m[i].nl; k++) {
        int l, dup;
        do {
          l = RND(nlinks);
          dup = 0;
          for (int q = 0; q < k; q++) dup |= m[i].l[q] == l;
        } while (dup);
        m[i].l[k] = l;
      }
      m[i].cap = RND(4) == 0 ? 1 + RND(8) : INFINITY;
      bytes[i] = 10 + RND(300);
      start[i] = RND(3) == 0 ? RND(20) : 0;
    }
    mt_flow_eng *g = mt_flow_eng_new(nlinks, cap, lat, 0);
    mt_flow_eng_reference(g, refmode);
    for (int i = 0; i < n; i++) {
      sid[i] = mt_flow_eng_stream(g);
      mt_flow_eng_at(g, start[i], 1, i);
    }
    /* the reference's own clock: the bytes left of each message at the reference rates */
    double now = 0;
    for (int i = 0; i < n; i++) left[i] = bytes[i], rate[i] = 0;
    double t;
    int kind;
    int64_t id, tag;
    while (isfinite(mt_flow_eng_peek(g))) {
      const double tn = mt_flow_eng_peek(g);
      for (int i = 0; i < n; i++) left[i] -= rate[i] * (tn - now);
      now = tn;
      /* every event of this time before the rates are solved again */
      while (mt_flow_eng_peek(g) == tn && mt_flow_eng_pop(g, &t, &kind, &id, &tag)) {
        if (kind == 1) {
          mt_flow_eng_start(g, sid[id], m[id].l, m[id].nl, bytes[id], isinf(m[id].cap) ? 0 : m[id].cap, id);
          on[id] = 1;
        } else {
          on[tag] = 0;
          done[tag] = 1;
          if (fabs(left[tag]) > 1e-6 * bytes[tag]) bad_end++;
        }
      }
      mt_flow_eng_settle(g);
      maxmin_ref(cap, nlinks, m, on, n, want);
      for (int i = 0; i < n; i++) {
        rate[i] = on[i] ? want[i] : 0;
        if (on[i] && !near_(mt_flow_eng_rate(g, sid[i]), want[i])) {
          if (bad_rate < 5)
            fprintf(stderr, "instance %d (%s solve), t %g: message %d rate %g, max-min %g\n", inst, refmode ? "reference" : "incremental", t, i,
                    mt_flow_eng_rate(g, sid[i]), want[i]);
          bad_rate++;
        }
      }
      cases++;
    }
    for (int i = 0; i < n; i++) CHECK(done[i], "instance %d: message %d never ended", inst, i);
    mt_flow_eng_free(g);
  }
#undef RND
  CHECK(bad_rate == 0, "random max-min: %d rates differ from progressive filling over %d solves", bad_rate, cases);
  CHECK(bad_end == 0, "random max-min: %d messages end with bytes left at the max-min rates", bad_end);
  CHECK(cases > 2000, "random max-min: only %d solves checked", cases);
  printf("random max-min: 400 instances, %d solves checked, %d rates and %d end times differ\n", cases, bad_rate, bad_end);
}

int main(void) {
  test_engine();
  test_one_link();
  test_ring3();
  test_barrier();
  test_reduce_waits();
  test_stuck();
  test_equiv("dims:ring4@100x2:0ns,sw4@50x1:0ns", 64 * 1024, 0);
  test_equiv("dims:ring2@100x1:0ns,sw4@50x4:0ns,fc3@20x2:0ns", 4 * 24 * 100, 0);
  /* latencies: ring 3 steps x 2 x 20, switch 2 steps x 2 x (2 x 700) */
  test_equiv("dims:ring4@100x2:20ns,sw4@50x1:700ns", 64 * 1024, 6 * 20 + 4 * 1400);
  test_equiv("dims:ring4@100x2:20ns,fc4@50x3:100ns,sw2@25x1:700ns", 1 << 20, 6 * 20 + 2 * 100 + 2 * 1400);
  test_closed_form();
  test_overlap();
  test_refused();
  test_hol();
  test_vs_cycle("torus:4x4", "hd", 1 << 20, 1, 316294, 0.75);
  test_vs_cycle("ring:8", "dbtree", 256 << 10, 0, 149559, 0.90);
  test_stager();
  test_maxmin_random();
  return MT_TEST_END("flow");
}
