/* SPDX-License-Identifier: Apache-2.0
 * test_planner: the planner against independent expectations: Fig. 5 derived by hand
 * from Algorithm 1, the ring seed's chunk formula, the checker on every algorithm and
 * topology it applies to (and on mutated tables it must reject), exact int32 sums and a
 * hand-ordered fp32 sum through mt_ref, and bad input. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "util/mt_fp32.h"
#include "table/mt_json.h"
#include "plan/mt_ref.h"
#include "plan/mt_sched.h"
#include "util/mt_rng.h"
#include "topo/mt_hier.h"
#include "mt_test.h"

static int plan(const char *topo, const char *algo, uint64_t bytes, mt_topo *t, mt_sched *s, mt_tables *tb, mt_err *e) {
  if (mt_topo_from_name(t, topo, e)) return -1;
  if (mt_plan(s, t, algo, bytes, 4, e)) {
    mt_topo_free(t);
    return -1;
  }
  if (mt_sched_tables(s, 0, tb, e)) {
    mt_sched_free(s);
    mt_topo_free(t);
    return -1;
  }
  return 0;
}
static void done(mt_topo *t, mt_sched *s, mt_tables *tb) {
  mt_tables_free(tb);
  mt_sched_free(s);
  mt_topo_free(t);
}

/* Fig. 5 notation, root reduce entries left out (Fig. 5 leaves them implicit) */
static void fig5_row(const mt_tables *tb, int n, int roots, char *out, size_t cap) {
  size_t k = 0;
  out[0] = 0;
  const mt_entry *en = mt_node_entries(tb, n);
  for (int i = 0; i < tb->count[n]; i++) {
    const mt_entry *x = &en[i];
    int is_root_reduce = x->op == MT_OP_REDUCE && !x->has_parent;
    if (is_root_reduce != roots || x->op == MT_OP_NOP) continue;
    char par[16], ch[64] = "-";
    if (x->has_parent) snprintf(par, sizeof par, "%d", x->parent.node);
    else snprintf(par, sizeof par, "%s", roots ? "root" : "root");
    if (x->nchild) {
      size_t q = 0;
      q += (size_t)snprintf(ch, sizeof ch, "[");
      for (int c = 0; c < x->nchild; c++) q += (size_t)snprintf(ch + q, sizeof ch - q, "%s%d", c ? "," : "", x->child[c].node);
      snprintf(ch + q, sizeof ch - q, "]");
    }
    k += (size_t)snprintf(out + k, cap - k, "%s%s(%d,%s,%s,%d)", k ? " " : "", mt_op_name(x->op), x->flow, x->has_parent || x->op == MT_OP_REDUCE ? par : "root", ch, x->step);
  }
}

static void test_fig5(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("mesh:2x2", "multitree", 1024, &t, &s, &tb, &e) == 0, "%s", e.msg);
  /* Derived by hand from Algorithm 1 (ids 0 1 / 2 3, Y before X): the table */
  static const char *want[4] = {
    "reduce(3,1,-,1) reduce(1,1,-,2) reduce(2,2,[1],2) gather(0,root,[2,1],3) gather(2,2,[1],4)",
    "reduce(2,0,-,1) reduce(0,0,-,2) reduce(3,3,[0],2) gather(1,root,[3,0],3) gather(3,3,[0],4)",
    "reduce(1,3,-,1) reduce(0,0,[3],2) reduce(3,3,-,2) gather(2,root,[0,3],3) gather(0,0,[3],4)",
    "reduce(0,2,-,1) reduce(1,1,[2],2) reduce(2,2,-,2) gather(3,root,[1,2],3) gather(1,1,[2],4)"};
  /* root reduce entries: root r waits for its tree's children (both send in step 2), by id;
   * the entry sits in step 3 (the step after its children send, so that it never holds up
   * a send of step 2 in the NI's in-order issue), just before the root's gather */
  static const char *want_root[4] = {"reduce(0,root,[1,2],3)", "reduce(1,root,[0,3],3)", "reduce(2,root,[0,3],3)", "reduce(3,root,[1,2],3)"};
  for (int n = 0; n < 4; n++) {
    const mt_entry *en = mt_node_entries(&tb, n);
    int ir = -1, ig = -1;
    for (int i = 0; i < tb.count[n]; i++) {
      if (en[i].flow != n) continue;
      if (en[i].op == MT_OP_REDUCE && !en[i].has_parent) ir = i;
      if (en[i].op == MT_OP_GATHER && !en[i].has_parent) ig = i;
    }
    CHECK(ir >= 0 && ig == ir + 1, "node %d: root reduce entry %d not right before the root gather %d", n, ir, ig);
  }
  char row[512];
  for (int n = 0; n < 4; n++) {
    fig5_row(&tb, n, 0, row, sizeof row);
    CHECK(!strcmp(row, want[n]), "node %d:\n  got  %s\n  want %s", n, row, want[n]);
    fig5_row(&tb, n, 1, row, sizeof row);
    CHECK(!strcmp(row, want_root[n]), "node %d roots: got %s want %s", n, row, want_root[n]);
  }
  CHECK(s.steps == 4 && s.reduce_steps == 2, "steps %d/%d", s.steps, s.reduce_steps);
  /* Start Addr / Size: flow f is bytes [256f, 256f+256) */
  for (int i = 0; i < tb.n_entries; i++)
    if (tb.entries[i].op != MT_OP_NOP)
      CHECK(tb.entries[i].addr == 256u * (unsigned)tb.entries[i].flow && tb.entries[i].size == 256, "entry %d chunk", i);
  /* one-hop slots: node 0 sends flow 3's reduce to node 1 through its +X port (0);
   * node 1 receives it on its -X port (1), which is its ejection port 1 (L = 4) */
  const mt_entry *e0 = mt_node_entries(&tb, 0);
  CHECK(e0[0].parent.port == 0 && e0[0].parent.eject == 1, "node 0 reduce port %d eject %d", e0[0].parent.port, e0[0].parent.eject);
  done(&t, &s, &tb);
}

static const char *topos[] = {"mesh:2x2", "torus:2x2", "torus:4x4", "mesh:4x4", "torus:3x5", "mesh:3x5", "torus:4x8", "mesh:8x4",
                              "torus:2x4", "torus:8x8", "mesh:8x8", "torus:16x16", "mesh:16x16", "torus:4x4x4", "torus:2x3x4",
                              "ring:8", "ring:5", "fattree:4,2", "fattree:8,2", "fattree:2,3", "dgx2", "bigraph:4x8", "bigraph:4x16",
                              "file:" MT_TEST_DATA "/multilink.topo", "file:" MT_TEST_DATA "/switched.topo",
                              "dims:ring4@100x2,sw4@50x1", "dims:fc3@10x2,ring2@5x1", "dims:sw2@1x1,ring3@1x1", NULL};

/* Where each algorithm of MT_ALGO_LIST applies (the test's own knowledge; a new algorithm
 * in the list fails to compile here, -Wswitch, until it is added). */
static int applies(const mt_topo *t, const char *algo) {
  int pow2 = !(t->n_nodes & (t->n_nodes - 1));
  switch ((mt_algo)mt_algo_from_name(algo)) {
  case mt_algo_multitree:
  case mt_algo_ring:
  case mt_algo_best: /* multitree where bucket does not apply */
  case mt_algo_dbtree: return 1;
  case mt_algo_bucket: return mt_topo_is_grid(t);
  case mt_algo_meshtree: return t->n_sw == 0 && t->kind != MT_TOPO_DIMS;
  case mt_algo_ring2d: return mt_topo_is_grid(t) && t->ndims == 2 && t->dim[0] > 1 && t->dim[1] > 1;
  case mt_algo_hd: return pow2;
  case mt_algo_hdrm: return pow2 && t->kind == MT_TOPO_BIGRAPH;
  case mt_algo_hier:
  case mt_algo_themis:
  case mt_algo_dimbal: return t->kind == MT_TOPO_TORUS || t->kind == MT_TOPO_DIMS; /* the tests' switch dimensions are powers of two */
  case mt_algo_flexreduce:
  case mt_algo_blueconnect: {
    /* a tree of switches (blueconnect: a symmetric one) */
    mt_htree h;
    char why[160];
    mt_err e;
    if (mt_htree_of(t, &h, &e)) return 0;
    int ok = !strcmp(algo, "flexreduce") || mt_htree_symmetric(&h, why, sizeof why);
    mt_htree_free(&h);
    return ok;
  }
  case MT_ALGO_COUNT: break;
  }
  return 1;
}

static void test_checker_all(void) {
  for (int i = 0; topos[i]; i++)
    for (int a = 0; mt_algo_names[a]; a++) {
      mt_topo t;
      mt_sched s;
      mt_tables tb;
      mt_err e;
      CHECK(mt_topo_from_name(&t, topos[i], &e) == 0, "%s", e.msg);
      if (!t.n_nodes) continue;
      int ok = applies(&t, mt_algo_names[a]);
      uint64_t bytes = 4ull * (uint64_t)t.n_nodes * 37 + 12; /* does not divide evenly */
      /* themis: 2 chunks (its default 64 x N x H flows need more than the 37 elements per node) */
      mt_plan_opt.chunks = !strcmp(mt_algo_names[a], "themis") ? 2 : 0;
      int rc = mt_plan(&s, &t, mt_algo_names[a], bytes, 4, &e);
      mt_plan_opt.chunks = 0;
      if (!ok) {
        CHECK(rc != 0 && strlen(e.msg) > 10, "%s on %s should be refused", mt_algo_names[a], topos[i]);
        mt_topo_free(&t);
        continue;
      }
      CHECK(rc == 0, "%s on %s: %s", mt_algo_names[a], topos[i], e.msg);
      if (rc) {
        mt_topo_free(&t);
        continue;
      }
      CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
      mt_check_report r;
      CHECK(mt_check(&s, &tb, stderr, &r, &e) == 0, "%s", e.msg);
      CHECK(r.violations == 0, "%s on %s: %d violations", mt_algo_names[a], topos[i], r.violations);
      if (!strcmp(mt_algo_names[a], "multitree")) {
        CHECK(r.max_link_load <= 1, "multitree on %s: %d messages share a link-step", topos[i], r.max_link_load);
        CHECK(r.multihop == 0, "multitree on %s: multi-hop transfers", topos[i]);
        CHECK(r.gather_steps >= r.lower_bound, "multitree on %s beats the lower bound?", topos[i]);
      }
      /* chunks tile the buffer exactly, sizes differ by at most one element (FlexReduce and
       * BlueConnect: uneven portions, in order) */
      uint64_t sum = 0;
      for (int f = 0; f < s.n_flows; f++) {
        CHECK(s.chunk[f].addr == sum, "%s on %s: flow %d at %llu", mt_algo_names[a], topos[i], f, (unsigned long long)s.chunk[f].addr);
        sum += s.chunk[f].size;
        CHECK(mt_sched_uneven(&s) || s.chunk[f].size - s.chunk[s.n_flows - 1].size <= 4, "tiling");
      }
      CHECK(sum == bytes, "%s on %s: chunks sum to %llu of %llu", mt_algo_names[a], topos[i], (unsigned long long)sum, (unsigned long long)bytes);
      done(&t, &s, &tb);
    }
}

/* The checker must be able to fail: mutate valid tables and expect violations. */
static int violations(const mt_sched *s, const mt_tables *tb) {
  mt_check_report r;
  mt_err e;
  if (mt_check(s, tb, NULL, &r, &e)) return -1;
  return r.violations;
}
static void test_checker_catches(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("torus:4x4", "multitree", 4096, &t, &s, &tb, &e) == 0, "%s", e.msg);
  CHECK(violations(&s, &tb) == 0, "baseline must be clean");
  /* find a reduce entry with a child */
  mt_entry *x = NULL;
  for (int i = 0; i < tb.n_entries && !x; i++)
    if (tb.entries[i].op == MT_OP_REDUCE && tb.entries[i].has_parent && tb.entries[i].nchild) x = &tb.entries[i];
  CHECK(x != NULL, "no reduce entry with children");
  if (x) {
    int keep = x->nchild;
    x->nchild = 0; /* drop a child */
    CHECK(violations(&s, &tb) > 0, "dropped child not caught");
    x->nchild = keep;
    mt_slot c0 = x->child[0];
    int st = x->step;
    x->step = 1; /* send before the child */
    CHECK(violations(&s, &tb) > 0, "early send not caught");
    x->step = st;
    x->child[0].node = (c0.node + 1) % 16; /* wrong child */
    CHECK(violations(&s, &tb) > 0, "wrong child not caught");
    x->child[0] = c0;
    CHECK(violations(&s, &tb) == 0, "restored tables must be clean");
  }
  /* two transfers on one link in one step: move a gather transfer onto another's step */
  int moved = 0;
  for (int i = 0; i < s.nx && !moved; i++)
    for (int j = i + 1; j < s.nx && !moved; j++)
      if (s.x[i].op == MT_OP_GATHER && s.x[j].op == MT_OP_GATHER && MT_XLINK(&s, &s.x[i], 0) == MT_XLINK(&s, &s.x[j], 0) && s.x[i].step != s.x[j].step) {
        s.x[j].step = s.x[i].step;
        moved = 1;
      }
  CHECK(moved && violations(&s, &tb) > 0, "link contention not caught");
  done(&t, &s, &tb);
  /* a gather sent before the root has everything */
  CHECK(plan("ring:4", "ring", 64, &t, &s, &tb, &e) == 0, "%s", e.msg);
  for (int i = 0; i < tb.n_entries; i++)
    if (tb.entries[i].op == MT_OP_GATHER && !tb.entries[i].has_parent) {
      tb.entries[i].step = 1;
      break;
    }
  CHECK(violations(&s, &tb) > 0, "early root gather not caught");
  done(&t, &s, &tb);
}

/* Ring seed (002): at step k (0-based) node i sends chunk (i - k) mod N in reduce-scatter
 * and chunk (i + 1 - k) mod N in all-gather; our flow f is chunk f + 1 (flows are named
 * by their root, and chunk c ends reduced on node c - 1). */
static void test_ring_seed(void) {
  for (int N = 3; N <= 6; N++) {
    char name[32];
    snprintf(name, sizeof name, "ring:%d", N);
    mt_topo t;
    mt_sched s;
    mt_tables tb;
    mt_err e;
    CHECK(plan(name, "ring", 4ull * N * 8, &t, &s, &tb, &e) == 0, "%s", e.msg);
    CHECK(s.steps == 2 * (N - 1), "ring:%d steps %d", N, s.steps);
    for (int i = 0; i < s.nx; i++) {
      const mt_xfer *x = &s.x[i];
      int chunk = (x->flow + 1) % N;
      CHECK(x->dst == (x->src + 1) % N && !x->multihop, "ring transfer %d->%d", x->src, x->dst);
      if (x->op == MT_OP_REDUCE) {
        int k = x->step - 1;
        CHECK(chunk == ((x->src - k) % N + N) % N, "rs step %d node %d chunk %d", x->step, x->src, chunk);
      } else {
        int k = x->step - N;
        CHECK(chunk == ((x->src + 1 - k) % N + N) % N, "ag step %d node %d chunk %d", x->step, x->src, chunk);
      }
    }
    done(&t, &s, &tb);
  }
  /* on a torus with an even side the ring is a cycle of neighbours: no multi-hop */
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("torus:4x3", "ring", 4096, &t, &s, &tb, &e) == 0, "%s", e.msg);
  int mh = 0;
  for (int i = 0; i < s.nx; i++) mh += s.x[i].multihop;
  CHECK(mh == 0, "ring on torus:4x3 has %d multi-hop transfers", mh);
  done(&t, &s, &tb);
}

/* mt_ref: int32 equals the exact wrap-around sum; fp32 follows the tree order. */
static void test_reference(void) {
  const char *cases[][2] = {{"mesh:2x2", "multitree"}, {"torus:4x4", "multitree"}, {"mesh:3x5", "ring"}, {"torus:4x4", "dbtree"}, {"torus:4x4", "ring2d"}, {"mesh:4x4", "hd"}, {"dgx2", "multitree"}, {"bigraph:4x8", "hdrm"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mt_topo t;
    mt_sched s;
    mt_tables tb;
    mt_err e;
    CHECK(plan(cases[c][0], cases[c][1], 4ull * 997, &t, &s, &tb, &e) == 0, "%s", e.msg);
    const int N = s.n_nodes;
    const uint64_t nw = s.bytes / 4;
    uint32_t **in = calloc((size_t)N, sizeof *in), *out = calloc(nw, 4);
    for (int n = 0; n < N; n++) {
      in[n] = calloc(nw, 4);
      mt_ref_inputs(7, n, MT_DTYPE_INT32, in[n], nw);
    }
    CHECK(mt_ref_result(&s, &tb, MT_DTYPE_INT32, in, out, &e) == 0, "%s", e.msg);
    int bad = 0;
    for (uint64_t k = 0; k < nw; k++) {
      uint32_t sum = 0;
      for (int n = 0; n < N; n++) sum += in[n][k];
      bad += sum != out[k];
    }
    CHECK(bad == 0, "%s on %s: %d int32 elements differ from the exact sum", cases[c][1], cases[c][0], bad);
    for (int n = 0; n < N; n++) free(in[n]);
    free(in);
    free(out);
    done(&t, &s, &tb);
  }
  /* fp32 on the 2x2 mesh, flow 0: root 0 adds child 1 then child 2, and node 2 first
   * added its child 3: (a0 + a1) + (a2 + a3), computed here with the host's floats */
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("mesh:2x2", "multitree", 4ull * 64, &t, &s, &tb, &e) == 0, "%s", e.msg);
  uint32_t *in[4], out[64];
  for (int n = 0; n < 4; n++) {
    in[n] = calloc(64, 4);
    mt_ref_inputs(3, n, MT_DTYPE_FP32, in[n], 64);
  }
  CHECK(mt_ref_result(&s, &tb, MT_DTYPE_FP32, in, out, &e) == 0, "%s", e.msg);
  int bad = 0;
  for (int k = 0; k < 16; k++) {
    volatile float a[4];
    for (int n = 0; n < 4; n++) memcpy((void *)&a[n], &in[n][k], 4);
    volatile float l = a[0] + a[1], r = a[2] + a[3], want = l + r;
    uint32_t w;
    float wf = want;
    memcpy(&w, &wf, 4);
    bad += w != out[k];
  }
  CHECK(bad == 0, "fp32 flow 0: %d elements differ from (a0+a1)+(a2+a3)", bad);
  for (int n = 0; n < 4; n++) free(in[n]);
  done(&t, &s, &tb);
}

static void test_json_roundtrip(void) {
  const char *cases[][2] = {{"torus:4x4", "multitree"}, {"mesh:3x5", "ring"}, {"fattree:4,2", "multitree"}, {"file:" MT_TEST_DATA "/multilink.topo", "multitree"}};
  for (size_t c = 0; c < 4; c++) {
    mt_topo t, t2;
    mt_sched s, s2;
    mt_tables tb, tb2;
    mt_err e;
    CHECK(plan(cases[c][0], cases[c][1], 4096, &t, &s, &tb, &e) == 0, "%s", e.msg);
    const char *path = "build/test_planner_roundtrip.json";
    CHECK(mt_json_write(&s, &tb, path, &e) == 0, "%s", e.msg);
    CHECK(mt_json_read(path, &t2, &s2, &tb2, &e) == 0, "%s", e.msg);
    s2.topo = &t2;
    mt_check_report r;
    CHECK(mt_check(&s2, &tb2, stderr, &r, &e) == 0 && r.violations == 0, "re-read %s: violations", cases[c][0]);
    CHECK(tb2.n_entries == tb.n_entries && s2.nx == s.nx && t2.n_links == t.n_links, "round trip sizes");
    int diff = 0;
    for (int i = 0; i < tb.n_entries && i < tb2.n_entries; i++) {
      const mt_entry *a = &tb.entries[i], *b = &tb2.entries[i];
      diff += a->op != b->op || a->step != b->step || a->nchild != b->nchild || a->has_parent != b->has_parent || a->addr != b->addr;
      if (a->has_parent && b->has_parent) diff += a->parent.node != b->parent.node || a->parent.port != b->parent.port || a->parent.eject != b->parent.eject;
    }
    CHECK(diff == 0, "%s: %d entries differ after the JSON round trip", cases[c][0], diff);
    mt_tables_free(&tb2);
    mt_sched_free(&s2);
    mt_topo_free(&t2);
    done(&t, &s, &tb);
  }
}

static void expect_err(const char *topo, const char *algo, uint64_t bytes, const char *needle) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  int rc = mt_topo_from_name(&t, topo, &e);
  if (rc == 0) {
    rc = mt_plan(&s, &t, algo, bytes, 4, &e);
    if (rc == 0) mt_sched_free(&s);
    mt_topo_free(&t);
  }
  CHECK(rc != 0 && strstr(e.msg, needle), "%s/%s/%llu: expected an error containing '%s', got rc=%d '%s'", topo, algo, (unsigned long long)bytes, needle, rc, e.msg);
}
static void test_bad_input(void) {
  static const struct {
    const char *topo, *algo;
    uint64_t bytes;
    const char *needle;
  } cases[] = {
    {"torus:1x1", "multitree", 64, "at least 2"},
    {"mesh:1", "multitree", 64, "at least 2"},
    {"torus:65x64", "multitree", 64, "4096"},
    {"torus:4x", "multitree", 64, "torus:XxY"},
    {"cube:4", "multitree", 64, "unknown topology"},
    {"torus:4x4", "bogus", 64, "unknown algorithm"},
    {"torus:4x4", "multitree", 0, "zero"},
    {"torus:4x4", "multitree", 66, "whole number"},
    {"torus:4x4", "multitree", 32, "fewer than the 16 flows"},
    {"torus:4x4x4", "ring2d", 4096, "2-D"},
    {"mesh:3x5", "hd", 4096, "power-of-two"},
    {"torus:4x4", "hdrm", 4096, "BiGraph"},
    {"file:" MT_TEST_DATA "/bad_disconnected.topo", "multitree", 4096, "disconnected"},
    {"file:" MT_TEST_DATA "/bad_syntax.topo", "multitree", 4096, "bad_syntax.topo:4:"},
    {"file:" MT_TEST_DATA "/bad_range.topo", "multitree", 4096, "bad_range.topo:3:"},
    {"file:" MT_TEST_DATA "/bad_dup.topo", "multitree", 4096, "bad_dup.topo:4:"},
    {"file:" MT_TEST_DATA "/missing.topo", "multitree", 4096, "cannot open"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) expect_err(cases[i].topo, cases[i].algo, cases[i].bytes, cases[i].needle);
}

/* Multi-links, derived by hand from Algorithm 1 on star.topo (0 in the middle, 0-1 of
 * multiplicity 3). Step 1: T0 adds 1 (0->1), T1, T2, T3 add 0; T0 adds 2, then 3.
 * Step 2: T1 adds 2 via 0->2, T2 adds 1 via 0->1, T3 adds 1 via 0->1 (second unit);
 * T1 adds 3 via 0->3. Step 3: T2 adds 3, T3 adds 2. */
static void test_multilink(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("file:" MT_TEST_DATA "/star.topo", "multitree", 4096, &t, &s, &tb, &e) == 0, "%s", e.msg);
  CHECK(s.reduce_steps == 3, "star: %d steps per phase, want 3", s.reduce_steps);
  int l01 = mt_topo_find_link(&t, 0, 1), mask = 0, n = 0;
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    if (x->op == MT_OP_GATHER && x->step - s.reduce_steps == 2 && MT_XLINK(&s, x, 0) == l01) {
      mask |= 1 << x->flow;
      n++;
    }
  }
  CHECK(n == 2 && mask == ((1 << 2) | (1 << 3)), "step 2 on 0->1: %d messages, flows mask %x (want flows 2 and 3)", n, mask);
  mt_check_report r;
  CHECK(mt_check(&s, &tb, stderr, &r, &e) == 0 && r.violations == 0 && r.max_link_load == 1, "star check");
  done(&t, &s, &tb);
}

/* HDRM's rank mapping (docs/reference/planner.md) puts at most one exchange on any link in any step
 * on BiGraph 4x8 and 4x16; plain hd on the same network does not. */
static void test_hdrm_contention(void) {
  const char *nets[] = {"bigraph:4x8", "bigraph:4x16"};
  for (int i = 0; i < 2; i++)
    for (int rm = 0; rm < 2; rm++) {
      mt_topo t;
      mt_sched s;
      mt_tables tb;
      mt_err e;
      mt_check_report r;
      CHECK(plan(nets[i], rm ? "hdrm" : "hd", 1 << 20, &t, &s, &tb, &e) == 0, "%s", e.msg);
      CHECK(mt_check(&s, &tb, stderr, &r, &e) == 0 && r.violations == 0, "%s check", nets[i]);
      if (rm) CHECK(r.max_link_pairs == 1, "hdrm on %s: %d exchanges share a link-step", nets[i], r.max_link_pairs);
      else CHECK(r.max_link_pairs > 1, "hd on %s unexpectedly contention-free", nets[i]);
      done(&t, &s, &tb);
    }
}


/* The checks of issue #11 items 1-4, each on a valid schedule corrupted in memory: routing
 * fields against the topology, contention without a transfer list, the transfer list as a
 * multiset, the derived steps, reduce_steps, one_hop, NOPs and elem. */
static mt_entry *first_send(mt_tables *tb, int n) {
  for (int i = 0; i < tb->count[n]; i++)
    if (tb->entries[tb->start[n] + i].op == MT_OP_REDUCE && tb->entries[tb->start[n] + i].has_parent) return &tb->entries[tb->start[n] + i];
  return NULL;
}
static void test_checker_fields(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e;
  CHECK(plan("torus:4x4", "multitree", 1 << 20, &t, &s, &tb, &e) == 0, "%s", e.msg);
  CHECK(violations(&s, &tb) == 0, "baseline must be clean");
  mt_entry *x = first_send(&tb, 5);
  int port = x->parent.port, ej = x->parent.eject;
  x->parent.port = (port + 1) % 4; /* a valid port that leads elsewhere */
  CHECK(violations(&s, &tb) >= 2, "wrong parent_port not caught at both ends");
  x->parent.port = port;
  x->parent.eject = (ej + 1) % 4;
  CHECK(violations(&s, &tb) > 0, "wrong parent_eject not caught");
  x->parent.eject = ej;
  x->parent.port = MT_PORT_ROUTED;
  CHECK(violations(&s, &tb) > 0, "a one-hop message marked routed not caught");
  x->parent.port = port;
  /* contention without the transfer list: two sends of node 5 over one link in one step */
  int nx = s.nx;
  s.nx = 0;
  CHECK(violations(&s, &tb) == 0, "without transfers the valid schedule must stay clean");
  mt_entry *a = NULL, *b = NULL;
  for (int i = 0; i < tb.n_entries && !b; i++) {
    mt_entry *y = &tb.entries[i];
    if (y->op != MT_OP_REDUCE || !y->has_parent || y->nchild) continue;
    for (int j = i + 1; j < tb.n_entries && !b; j++) {
      mt_entry *z = &tb.entries[j];
      if (z->op == MT_OP_REDUCE && z->has_parent && z->parent.node == y->parent.node && z->parent.port == y->parent.port && z->step != y->step &&
          z >= tb.entries + tb.start[5] && y >= tb.entries + tb.start[5] && z < tb.entries + tb.start[5] + tb.count[5])
        a = y, b = z;
    }
  }
  CHECK(b != NULL, "no two sends of node 5 over one link");
  if (b) {
    int st = a->step;
    a->step = b->step; /* order in the table no longer sorted: the checker says so too */
    s.one_hop = 1;
    mt_check_report r;
    CHECK(mt_check(&s, &tb, NULL, &r, &e) == 0 && r.violations > 0 && r.max_link_load == 2, "contention without transfers not caught (load %d)",
          r.max_link_load);
    a->step = st;
  }
  s.nx = nx;
  /* the transfer list: a duplicate in place of another */
  mt_xfer keep = s.x[0];
  s.x[0] = s.x[1];
  CHECK(violations(&s, &tb) >= 2, "duplicated transfer not caught (missing and repeated)");
  s.x[0] = keep;
  /* fields taken on trust before */
  s.steps++;
  CHECK(violations(&s, &tb) > 0, "steps + 1 not caught");
  s.steps--;
  s.reduce_steps--;
  CHECK(violations(&s, &tb) > 0, "reduce_steps - 1 not caught");
  s.reduce_steps++;
  s.one_hop = 0;
  CHECK(violations(&s, &tb) > 0, "one_hop false on a multitree schedule not caught");
  s.one_hop = 1;
  s.elem = 3;
  CHECK(violations(&s, &tb) > 0, "elem 3 with 1 MiB not caught");
  s.elem = 4;
  mt_entry *nop = NULL;
  for (int i = 0; i < tb.n_entries && !nop; i++)
    if (tb.entries[i].op == MT_OP_NOP) nop = &tb.entries[i];
  if (nop) {
    nop->size += 4;
    CHECK(violations(&s, &tb) > 0, "NOP size not caught");
    nop->size -= 4;
    nop->op = MT_OP_GATHER; /* a NOP turned into an empty gather: its step has no NOP */
    CHECK(violations(&s, &tb) > 0, "dropped NOP not caught");
    nop->op = MT_OP_NOP;
  }
  CHECK(violations(&s, &tb) == 0, "restored schedule must be clean");
  done(&t, &s, &tb);
}

/* The algorithm table (MT_ALGO_LIST): names, enum, look-up and the command line's list agree. */
static void test_algo_table(void) {
  char list[256] = "";
  for (int a = 0; a < MT_ALGO_COUNT; a++) {
    CHECK(mt_algo_from_name(mt_algo_names[a]) == a && strlen(mt_algo_descs[a]) > 10, "algorithm %d '%s'", a, mt_algo_names[a]);
    snprintf(list + strlen(list), sizeof list - strlen(list), " %s", mt_algo_names[a]);
  }
  CHECK(mt_algo_names[MT_ALGO_COUNT] == NULL && mt_algo_from_name("bogus") < 0, "end of the list");
  CHECK(!strcmp(list, MT_ALGO_NAMES_STR), "names '%s', list '%s'", list, MT_ALGO_NAMES_STR);
}

/* Switch networks: the guided child search (docs/reference/planner.md, "Planning time on switch
 * networks") must give exactly the breadth-first search's node and path on every search
 * of a plan (mt_plan_verify_search runs both and fails the plan on a difference): on
 * fat-trees, DGX-2, BiGraph, the switched test files and seeded irregular networks (nodes
 * on one or two switches, multiplicities, cross links, direct node links). */
static void test_guided_search(void) {
  const char *nets[] = {"fattree:2,5", "fattree:2,7", "fattree:3,3", "fattree:4,3", "fattree:8,2", "fattree:16,2", "dgx2", "bigraph:4x8", "bigraph:2x6",
                        "file:" MT_TEST_DATA "/star.topo", "file:" MT_TEST_DATA "/switched.topo",
                        "file:" MT_TEST_DATA "/multilink.topo", NULL};
  mt_plan_verify_search = 1;
  for (int i = 0; nets[i]; i++) {
    mt_topo t;
    mt_sched s;
    mt_err e = {{0}};
    CHECK(mt_topo_from_name(&t, nets[i], &e) == 0, "%s", e.msg);
    CHECK(mt_plan(&s, &t, "multitree", 1 << 20, 4, &e) == 0, "%s: %s", nets[i], e.msg);
    mt_sched_free(&s);
    mt_topo_free(&t);
  }
  for (uint32_t seed = 1; seed <= 6; seed++) {
    uint32_t rs = seed * 2654435761u;
    const int n = 20 + (int)(mt_xs32(&rs) % 60), S = 2 + (int)(mt_xs32(&rs) % 9), V = n + S;
    int(*L)[3] = calloc((size_t)(2 * n + 2 * S + n / 5 + 1), sizeof *L), nl = 0;
    unsigned char *seen = calloc((size_t)V * (size_t)V, 1);
#define ADD_LINK(a, b, m) \
  do { \
    int a_ = (a), b_ = (b); \
    if (a_ != b_ && !seen[a_ * V + b_]) { \
      seen[a_ * V + b_] = seen[b_ * V + a_] = 1; \
      L[nl][0] = a_, L[nl][1] = b_, L[nl++][2] = (m); \
    } \
  } while (0)
    for (int v = 0; v < n; v++) {
      ADD_LINK(v, n + (int)(mt_xs32(&rs) % (uint32_t)S), 1 + (mt_xs32(&rs) % 4 == 0));
      if (mt_xs32(&rs) % 5 == 0) ADD_LINK(v, n + (int)(mt_xs32(&rs) % (uint32_t)S), 1);
    }
    for (int x = 1; x < S; x++) ADD_LINK(n + x, n + (int)(mt_xs32(&rs) % (uint32_t)x), 1 + (int)(mt_xs32(&rs) % 3));
    for (int x = 0; x < S; x++) ADD_LINK(n + (int)(mt_xs32(&rs) % (uint32_t)S), n + (int)(mt_xs32(&rs) % (uint32_t)S), 1);
    for (int k = 0; k < n / 5; k++) ADD_LINK((int)(mt_xs32(&rs) % (uint32_t)n), (int)(mt_xs32(&rs) % (uint32_t)n), 1);
#undef ADD_LINK
    mt_topo t = {0};
    mt_sched s;
    mt_err e = {{0}};
    char name[32];
    snprintf(name, sizeof name, "irregular%u", seed);
    CHECK(mt_topo_from_links(&t, name, n, S, nl, (const int(*)[3])L, &e) == 0, "%s: %s", name, e.msg);
    CHECK(mt_plan(&s, &t, "multitree", 1 << 20, 4, &e) == 0, "%s (%d nodes, %d switches): %s", name, n, S, e.msg);
    mt_sched_free(&s);
    mt_topo_free(&t);
    free(L);
    free(seen);
  }
  mt_plan_verify_search = 0;
}

/* Ranges of the reference (--data sample and the network model's check in ranges): the
 * inputs from any word on equal that part of the whole inputs (xorshift32 jumps), and the
 * result of a range equals that part of the whole result, int32 and fp32. */
static void test_reference_ranges(void) {
  mt_xs32_jumps J;
  mt_xs32_jumps_init(&J);
  uint32_t x = 12345u, y = 12345u;
  for (int i = 0; i < 1000; i++) mt_xs32(&x);
  CHECK(mt_xs32_jump(&J, y, 1000) == x, "jump of 1000 steps: %08x, stepping: %08x", mt_xs32_jump(&J, y, 1000), x);
  const uint64_t a = 0x123456789ull, b = 987654321ull;
  CHECK(mt_xs32_jump(&J, mt_xs32_jump(&J, y, a), b) == mt_xs32_jump(&J, y, a + b), "jumps do not compose");
  const char *cases[][2] = {{"torus:4x4", "multitree"}, {"mesh:3x5", "ring"}, {"dgx2", "multitree"}, {"torus:4x4", "dbtree"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int dt = 0; dt < 2; dt++) {
      mt_topo t;
      mt_sched s;
      mt_tables tb;
      mt_err e;
      CHECK(plan(cases[c][0], cases[c][1], 4ull * 2999, &t, &s, &tb, &e) == 0, "%s", e.msg);
      const int N = s.n_nodes;
      const uint64_t nw = s.bytes / 4;
      uint32_t **in = calloc((size_t)N, sizeof *in), **rin = calloc((size_t)N, sizeof *rin), *out = calloc(nw, 4), *rout = calloc(nw, 4);
      for (int n = 0; n < N; n++) {
        in[n] = calloc(nw, 4);
        rin[n] = calloc(nw, 4);
        mt_ref_inputs(9, n, dt, in[n], nw);
      }
      CHECK(mt_ref_result(&s, &tb, dt, in, out, &e) == 0, "%s", e.msg);
      const uint64_t rg[][2] = {{0, 1}, {5, 100}, {nw - 37, 37}, {0, nw}, {1023, 1025}, {nw / 3, nw / 3}};
      for (size_t k = 0; k < sizeof rg / sizeof rg[0]; k++) {
        const uint64_t w0 = rg[k][0], m = rg[k][1];
        int bad_in = 0;
        for (int n = 0; n < N; n++) {
          mt_ref_inputs_at(&J, 9, n, dt, w0, rin[n], m);
          bad_in += memcmp(rin[n], in[n] + w0, m * 4) != 0;
        }
        CHECK(bad_in == 0, "%s %s dtype %d: inputs from word %llu differ at %d nodes", cases[c][1], cases[c][0], dt,
              (unsigned long long)w0, bad_in);
        CHECK(mt_ref_result_range(&s, &tb, dt, rin, w0, m, rout, &e) == 0, "%s", e.msg);
        CHECK(memcmp(rout, out + w0, m * 4) == 0, "%s %s dtype %d: the result of words %llu..+%llu differs from the whole result's",
              cases[c][1], cases[c][0], dt, (unsigned long long)w0, (unsigned long long)m);
      }
      for (int n = 0; n < N; n++) {
        free(in[n]);
        free(rin[n]);
      }
      free(in);
      free(rin);
      free(out);
      free(rout);
      done(&t, &s, &tb);
    }
}

int main(void) {
  test_reference_ranges();
  test_algo_table();
  test_hdrm_contention();
  test_fig5();
  test_checker_all();
  test_checker_catches();
  test_checker_fields();
  test_ring_seed();
  test_reference();
  test_json_roundtrip();
  test_bad_input();
  test_multilink();
  test_guided_search();
  return MT_TEST_END("test_planner");
}
