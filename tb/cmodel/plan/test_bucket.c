/* SPDX-License-Identifier: Apache-2.0
 * test_bucket: the multi-dimensional bucket planner (plan/mt_plan_bucket.c).
 * - check proves it on tori and meshes (square, non-square, odd, 3-D, a ring, 2-wide);
 * - the buffer is tiled and every part has N flows;
 * - the lockstep time of the schedule (per step the most bytes on one directed link, summed
 *   over the steps) equals the node load max_v 2(N-1)/N S / links(v) on square tori and
 *   meshes (up to one 4-byte element per step: parts are whole elements): the node with the
 *   fewest links sends and receives 2(N-1)/N S over them and keeps every busiest link busy
 *   in every step; on tori that load is the aggregate lower bound (topo/mt_bound), on meshes
 *   the corner's, above the bound (docs/reference/bounds.md); on torus:4x8 (not square) the
 *   lockstep time is above it;
 * - the pipeline on torus:4x8 (docs/reference/planner.md "Pipelined chunks"): at 8 MiB 7 chunks of the
 *   X-first parts starting at steps 1, 4, ..., 19 and 3 of the Y-first ones at 1, 8, 15
 *   (C = round(21 / (k - 1)), spaced k - 1 apart), each chunk's all-gather starting R + k - 1
 *   steps after its reduce-scatter (X-first at 14, 17, ..., 32, Y-first at 18, 25, 32: 41
 *   steps, interleaved), lockstep bytes 1.054 x the bound (1.064 with mirrored all-gathers,
 *   which is why they are translated) and 1.025 x at 64 MiB (28 + 12 chunks), against
 *   1.42 x with one chunk at 32 KiB (all worked out with an independent model of the load
 *   rule, described in docs/reference/planner.md); a chunk's reduce moved a
 *   step earlier is refused by check;
 * - the per-node issue order (MT_ISSUE_BYTES) worked by hand on ring:4, and on torus:4x8 at
 *   8 MiB every node's entries of a step in the order of the bytes queued before them on their
 *   packetiser (the flow order of the same schedule is caught);
 * - mutated schedules are refused by check: a reduce transfer moved to step 1 (before its
 *   child), a flow's size changed (the part rule), a transfer dropped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_sched.h"
#include "topo/mt_bound.h"
#include "mt_test.h"
#include "plan_test.h"

static int plan(const char *topo, uint64_t bytes, mt_topo *t, mt_sched *s) { return pt_plan(topo, "bucket", bytes, t, s); }
static int violations(const mt_sched *s) { return pt_violations(s); }

/* sum over steps of the most bytes on one directed link in the step */
static double lockstep_bytes(const mt_sched *s) {
  double *load = calloc((size_t)s->topo->n_links * (size_t)(s->steps + 1), sizeof(double)), tot = 0;
  for (int i = 0; i < s->nx; i++)
    for (int j = 0; j < s->x[i].path_len; j++) load[(size_t)s->x[i].step * (size_t)s->topo->n_links + (size_t)MT_XLINK(s, &s->x[i], j)] += (double)s->chunk[s->x[i].flow].size;
  for (int st = 1; st <= s->steps; st++) {
    double mx = 0;
    for (int l = 0; l < s->topo->n_links; l++)
      if (load[(size_t)st * (size_t)s->topo->n_links + (size_t)l] > mx) mx = load[(size_t)st * (size_t)s->topo->n_links + (size_t)l];
    tot += mx;
  }
  free(load);
  return tot;
}

/* rsteps: the reduce-scatter's steps (the last reduce message); steps / 2 unless the
 * all-gathers are interleaved */
/* max_v 2(N-1)/N S / links(v), links(v) the multiplicities out of v */
static double node_load(const mt_topo *t, uint64_t bytes) {
  double mx = 0;
  for (int v = 0; v < t->n_nodes; v++) {
    int k = 0;
    for (int l = 0; l < t->n_links; l++) k += t->links[l].src == v ? t->links[l].mult : 0;
    const double x = 2.0 * (t->n_nodes - 1) / t->n_nodes * (double)bytes / k;
    if (x > mx) mx = x;
  }
  return mx;
}

static void proven(const char *topo, uint64_t bytes, int parts, int steps, int rsteps, int at_bound) {
  mt_topo t;
  mt_sched s;
  if (plan(topo, bytes, &t, &s)) return;
  CHECK(s.n_flows == parts * t.n_nodes, "%s: %d flows, expected %d parts x %d nodes", topo, s.n_flows, parts, t.n_nodes);
  CHECK(s.steps == steps && s.reduce_steps == rsteps && s.interleaved == (rsteps != steps / 2), "%s: %d steps (%d reduce, interleaved %d), expected %d (%d)", topo,
        s.steps, s.reduce_steps, s.interleaved, steps, rsteps);
  uint64_t at = 0;
  for (int f = 0; f < s.n_flows; f++) {
    CHECK(s.chunk[f].addr == at && s.chunk[f].size > 0 && s.chunk[f].size % 4 == 0, "%s: flow %d at %llu", topo, f,
          (unsigned long long)s.chunk[f].addr);
    at += s.chunk[f].size;
  }
  CHECK(at == bytes, "%s: flows tile %llu of %llu bytes", topo, (unsigned long long)at, (unsigned long long)bytes);
  CHECK(violations(&s) == 0, "%s: check found %d violations", topo, violations(&s));
  mt_bound b;
  mt_err e = {{0}};
  mt_bound_of(&t, bytes, 1, &b, &e);
  const double lb = lockstep_bytes(&s), load = node_load(&t, bytes);
  /* exact up to whole elements: a flow of a part may hold one element more than another */
  if (at_bound) CHECK(fabs(lb - load) <= 4.0 * s.steps, "%s: lockstep bytes %.1f, node load %.1f", topo, lb, load);
  else CHECK(lb > load * 1.01, "%s: lockstep bytes %.1f not above the node load %.1f", topo, lb, load);
  /* on tori the node load is the aggregate lower bound; never below the lower bound */
  if (t.kind == MT_TOPO_TORUS) CHECK(fabs(load - b.aggregate) <= 1e-6 * load, "%s: node load %.1f, aggregate bound %.1f", topo, load, b.aggregate);
  CHECK(lb >= b.bound * (1 - 1e-9), "%s: lockstep bytes %.1f below the lower bound %.1f", topo, lb, b.bound);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

static void mutations(const char *topo) {
  mt_topo t;
  mt_sched s;
  if (plan(topo, 1 << 20, &t, &s)) return;
  /* a reduce transfer of the second step moved to step 1: it sends before its child arrives */
  int i = 0;
  while (i < s.nx && !(s.x[i].op == MT_OP_REDUCE && s.x[i].step == 2)) i++;
  CHECK(i < s.nx, "%s: no step-2 reduce", topo);
  if (i < s.nx) {
    s.x[i].step = 1;
    CHECK(violations(&s) > 0, "%s: a reduce moved before its child passed check", topo);
    s.x[i].step = 2;
  }
  CHECK(violations(&s) == 0, "%s: restored schedule refused", topo);
  /* a flow 4 bytes larger, the next 4 bytes smaller: still tiles the buffer, not the rule */
  s.chunk[0].size += 4;
  s.chunk[1].addr += 4;
  s.chunk[1].size -= 4;
  CHECK(violations(&s) > 0, "%s: a flow off the part rule passed check", topo);
  s.chunk[0].size -= 4;
  s.chunk[1].addr -= 4;
  s.chunk[1].size += 4;
  /* the last transfer dropped: some node misses a contribution or the full sum */
  s.nx--;
  CHECK(violations(&s) > 0, "%s: a dropped transfer passed check", topo);
  s.nx++;
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* The bytes queued before each sending entry of a step on its packetiser (port mod L), in
 * table order, must not decrease (MT_ISSUE_BYTES); returns the number of entries that break
 * it. */
static int byte_order_breaks(const mt_sched *s, const mt_tables *tb) {
  int bad = 0;
  for (int n = 0; n < tb->n_nodes; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    const int L = s->topo->n_ports[n];
    uint64_t q[16] = {0}, last = 0;
    for (int i = 0; i < tb->count[n]; i++) {
      if (i == 0 || en[i].step != en[i - 1].step) {
        memset(q, 0, sizeof q);
        last = 0;
      }
      const mt_slot *sl = en[i].op == MT_OP_GATHER ? &en[i].child[0] : en[i].op == MT_OP_REDUCE && en[i].has_parent ? &en[i].parent
                                                                                                                    : NULL;
      if (!sl) continue;
      if (q[sl->port % L] < last) bad++;
      last = q[sl->port % L];
      for (int c = 0; c < (en[i].op == MT_OP_GATHER ? en[i].nchild : 1); c++)
        q[(en[i].op == MT_OP_GATHER ? en[i].child[c].port : sl->port) % L] += en[i].size;
    }
  }
  return bad;
}

/* torus:4x8: which steps a part type's chunks start their reduce-scatter and all-gather in
 * (first transfer of each op of a flow), read from the schedule; X-first flows have their
 * first transfer along X (dimension 0). */
static void pipelined(void) {
  mt_topo t;
  mt_sched s;
  if (plan("torus:4x8", 8 << 20, &t, &s)) return;
  CHECK(s.n_flows == 640 && s.steps == 41 && s.reduce_steps == 28 && s.interleaved == 1,
        "torus:4x8 8 MiB: %d flows, %d steps (%d reduce, interleaved %d), want 640, 41, 28, 1", s.n_flows, s.steps, s.reduce_steps, s.interleaved);
  int *first = calloc((size_t)s.n_flows, sizeof(int)), *gfirst = calloc((size_t)s.n_flows, sizeof(int)), *dim = calloc((size_t)s.n_flows, sizeof(int));
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    if (x->op == MT_OP_GATHER && (!gfirst[x->flow] || gfirst[x->flow] > (int)x->step)) gfirst[x->flow] = x->step;
    if (x->op != MT_OP_REDUCE || (first[x->flow] && first[x->flow] <= (int)x->step)) continue;
    first[x->flow] = x->step;
    /* torus:4x8 numbers nodes x-fastest: an X hop changes the node id by 1 or 3 */
    const int a = s.topo->links[MT_XLINK(&s, x, 0)].src, b = s.topo->links[MT_XLINK(&s, x, 0)].dst;
    dim[x->flow] = a / 4 == b / 4 ? 0 : 1;
  }
  uint64_t seen[2] = {0, 0}, gseen[2] = {0, 0};
  int nx0 = 0;
  for (int f = 0; f < s.n_flows; f++) {
    if (first[f] > 0 && first[f] < 64) seen[dim[f]] |= 1ull << first[f];
    if (gfirst[f] > 0 && gfirst[f] < 64) gseen[dim[f]] |= 1ull << gfirst[f];
    nx0 += dim[f] == 0;
  }
  uint64_t want0 = 0, want1 = 0, gwant0 = 0, gwant1 = 0;
  for (int c = 0; c < 7; c++) {
    want0 |= 1ull << (1 + 3 * c);
    gwant0 |= 1ull << (14 + 3 * c);
  }
  for (int c = 0; c < 3; c++) {
    want1 |= 1ull << (1 + 7 * c);
    gwant1 |= 1ull << (18 + 7 * c);
  }
  CHECK(seen[0] == want0 && seen[1] == want1 && nx0 == 7 * 2 * 32, "torus:4x8 8 MiB chunk starts: X-first %#llx (want %#llx), Y-first %#llx (want %#llx), %d X-first flows",
        (unsigned long long)seen[0], (unsigned long long)want0, (unsigned long long)seen[1], (unsigned long long)want1, nx0);
  CHECK(gseen[0] == gwant0 && gseen[1] == gwant1, "torus:4x8 8 MiB all-gather starts: X-first %#llx (want %#llx), Y-first %#llx (want %#llx)",
        (unsigned long long)gseen[0], (unsigned long long)gwant0, (unsigned long long)gseen[1], (unsigned long long)gwant1);
  mt_bound b;
  mt_err e = {{0}};
  mt_bound_of(&t, 8 << 20, 1, &b, &e);
  const double r8 = lockstep_bytes(&s) / b.aggregate;
  CHECK(r8 > 1.050 && r8 < 1.058, "torus:4x8 8 MiB: lockstep bytes %.4f x the aggregate bound, want 1.054", r8);
  /* the tables: every node's entries of a step by the bytes queued before them on their port;
   * the same schedule issued in flow order breaks it */
  CHECK(s.issue_order == MT_ISSUE_BYTES, "torus:4x8 8 MiB: issue order %d, want bytes", s.issue_order);
  mt_tables tb;
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  const int ok_breaks = byte_order_breaks(&s, &tb);
  mt_tables_free(&tb);
  s.issue_order = MT_ISSUE_FLOW;
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  const int flow_breaks = byte_order_breaks(&s, &tb);
  mt_tables_free(&tb);
  s.issue_order = MT_ISSUE_BYTES;
  CHECK(ok_breaks == 0 && flow_breaks > 0, "torus:4x8 8 MiB: %d entries out of byte order (want 0), %d in flow order (want > 0)", ok_breaks, flow_breaks);
  /* a chunk's first transfer moved a step earlier: sends before its data (the chunk's child) exists */
  int i = 0;
  while (i < s.nx && !(s.x[i].op == MT_OP_REDUCE && s.x[i].step == 5 && dim[s.x[i].flow] == 0)) i++;
  if (i < s.nx) {
    s.x[i].step = 4;
    CHECK(violations(&s) > 0, "torus:4x8 8 MiB: a chunk's reduce moved a step earlier passed check");
    s.x[i].step = 5;
  }
  CHECK(i < s.nx && violations(&s) == 0, "torus:4x8 8 MiB: restored schedule refused (or no step-5 X reduce)");
  /* a chunk's all-gather moved a step earlier, before its reduce-scatter ends: refused */
  i = 0;
  while (i < s.nx && !(s.x[i].op == MT_OP_GATHER && s.x[i].step == 14 && dim[s.x[i].flow] == 0)) i++;
  if (i < s.nx) {
    s.x[i].step = 10;
    CHECK(violations(&s) > 0, "torus:4x8 8 MiB: a chunk's gather moved into its reduce-scatter passed check");
    s.x[i].step = 14;
  }
  CHECK(i < s.nx, "torus:4x8 8 MiB: no step-14 X-first gather");
  free(first);
  free(gfirst);
  free(dim);
  mt_sched_free(&s);
  mt_topo_free(&t);
  if (plan("torus:4x8", 64 << 20, &t, &s)) return;
  mt_bound_of(&t, 64 << 20, 1, &b, &e);
  const double r64 = lockstep_bytes(&s) / b.aggregate;
  CHECK(s.n_flows == 2560 && s.steps == 104 && r64 > 1.022 && r64 < 1.028,
        "torus:4x8 64 MiB: %d flows, %d steps, lockstep %.4f x the bound, want 2560 (28 + 12 chunks), 104, 1.025", s.n_flows, s.steps, r64);
  mt_sched_free(&s);
  mt_topo_free(&t);
  if (plan("torus:4x8", 32 << 10, &t, &s)) return;
  mt_bound_of(&t, 32 << 10, 1, &b, &e);
  const double r32 = lockstep_bytes(&s) / b.aggregate;
  CHECK(s.steps == 20 && r32 > 1.4 && r32 < 1.45 && s.issue_order == MT_ISSUE_FLOW,
        "torus:4x8 32 KiB: %d steps, lockstep %.4f x the bound, issue order %d, want 20, 1.42 (one chunk), flow", s.steps, r32, s.issue_order);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* MT_ISSUE_BYTES by hand on ring:4 (node 0's ports: + to node 1, - to node 3; L = 2). Node 0
 * sends the reduces of flows 0-2 to root 1 (400, 1200, 1200 bytes) and of flows 3-5 to root 3
 * (400 each) in step 1: bytes queued before them 0, 400, 1600 and 0, 400, 800, so the order is
 * 0, 3, 1, 4, 5, 2 (flow order 0-5). Root 1 in step 2: root reduce entries of flows 0, 1, 2
 * and the gathers of 1 and 2 back to node 0 (flow 0's gather is in step 3): R1 G1 (0), R2 G2
 * (1200), then R0, which has no gather in the step, last (flow order R0 R1 G1 R2 G2). */
static void issue_order_by_hand(void) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  if (mt_topo_from_name(&t, "ring:4", &e)) {
    CHECK(0, "%s", e.msg);
    return;
  }
  static const int root[6] = {1, 1, 1, 3, 3, 3}, size[6] = {400, 1200, 1200, 400, 400, 400};
  for (int order = 0; order < 2; order++) {
    mt_sched_init(&s, &t, "bucket", 6);
    uint64_t a = 0;
    for (int f = 0; f < 6; f++) {
      s.root[f] = root[f];
      s.chunk[f].addr = a;
      s.chunk[f].size = (uint64_t)size[f];
      a += (uint64_t)size[f];
      CHECK(mt_sched_add_routed(&s, f, MT_OP_REDUCE, 0, root[f], 1, &e) >= 0 && mt_sched_add_routed(&s, f, MT_OP_GATHER, root[f], 0, f == 0 ? 3 : 2, &e) >= 0,
            "%s", e.msg);
    }
    s.bytes = a;
    s.elem = 4;
    s.steps = 3;
    s.reduce_steps = 1;
    s.issue_order = order ? MT_ISSUE_BYTES : MT_ISSUE_FLOW;
    mt_tables tb;
    if (mt_sched_tables(&s, 0, &tb, &e)) {
      CHECK(0, "ring:4 by hand: %s", e.msg);
      mt_sched_free(&s);
      continue;
    }
    char got0[64] = "", got1[64] = "";
    for (int n = 0; n < 2; n++) {
      const mt_entry *en = mt_node_entries(&tb, n);
      for (int i = 0; i < tb.count[n]; i++)
        if (en[i].step == n + 1 && en[i].op != MT_OP_NOP) {
          char *g = n ? got1 : got0;
          snprintf(g + strlen(g), 8, "%s%d ", n ? (en[i].op == MT_OP_REDUCE ? "R" : "G") : "", en[i].flow);
        }
    }
    const char *w0 = order ? "0 3 1 4 5 2 " : "0 1 2 3 4 5 ", *w1 = order ? "R1 G1 R2 G2 R0 " : "R0 R1 G1 R2 G2 ";
    CHECK(!strcmp(got0, w0) && !strcmp(got1, w1), "ring:4 by hand, %s order: node 0 step 1 '%s' (want '%s'), node 1 step 2 '%s' (want '%s')",
          order ? "bytes" : "flow", got0, w0, got1, w1);
    CHECK(byte_order_breaks(&s, &tb) == (order ? 0 : 1), "ring:4 by hand, %s order: %d entries out of byte order", order ? "bytes" : "flow",
          byte_order_breaks(&s, &tb));
    mt_tables_free(&tb);
    mt_sched_free(&s);
  }
  mt_topo_free(&t);
}

static void refusals(void) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(!mt_topo_from_name(&t, "fattree:4,2", &e), "%s", e.msg);
  CHECK(mt_plan(&s, &t, "bucket", 1 << 20, 4, &e) && strstr(e.msg, "bucket needs a torus or a mesh"), "fattree accepted: %s", e.msg);
  mt_topo_free(&t);
  CHECK(!mt_topo_from_name(&t, "torus:4x4", &e), "%s", e.msg);
  CHECK(mt_plan(&s, &t, "bucket", 128, 4, &e) && strstr(e.msg, "fewer than its 16 flows"), "128 bytes accepted: %s", e.msg);
  mt_topo_free(&t);
}

int main(void) {
  proven("torus:4x4", 1 << 20, 4, 12, 6, 1);
  proven("torus:8x8", 1 << 20, 4, 28, 14, 1);
  proven("mesh:4x4", 1 << 20, 2, 12, 6, 1);
  proven("mesh:8x8", 1 << 20, 2, 28, 14, 1);
  proven("mesh:3x3", 9 * 2 * 4 * 100, 2, 8, 4, 1);
  proven("torus:4x4x4", 1 << 20, 6, 18, 9, 1);
  proven("torus:4x8", 1 << 20, 6, 26, 13, 0); /* pipelined: 2 chunks of the X-first parts */
  proven("torus:3x5", 15 * 4 * 4 * 64, 4, 12, 6, 0);
  proven("mesh:2x5", 1 << 20, 25, 30, 24, 0);
  proven("torus:4x6", 8 << 20, 16, 31, 20, 0);
  proven("mesh:3x4x2", 24 * 3 * 4 * 64, 3, 12, 6, 0);
  proven("ring:8", 1 << 20, 2, 14, 7, 1);
  pipelined();
  issue_order_by_hand();
  mutations("torus:4x4");
  mutations("mesh:4x4");
  refusals();
  return MT_TEST_END("test_bucket");
}
