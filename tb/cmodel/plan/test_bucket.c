/* SPDX-License-Identifier: Apache-2.0
 * test_bucket: the multi-dimensional bucket planner (plan/mt_plan_bucket.c).
 * - check proves it on tori and meshes (square, non-square, odd, 3-D, a ring, 2-wide);
 * - the buffer is tiled and every part has N flows;
 * - the lockstep time of the schedule (per step the most bytes on one directed link, summed
 *   over the steps) equals the per-node bound (topo/mt_bound) times B on square tori and
 *   meshes (up to one 4-byte element per step: parts are whole elements): the schedule moves no byte more than the bound allows and keeps every busiest
 *   link busy in every step; on torus:4x8 (not square) it is above the bound;
 * - the pipeline on torus:4x8 (docs/planner.md "Pipelined chunks"): at 8 MiB 7 chunks of the
 *   X-first parts starting at steps 1, 4, ..., 19 and 3 of the Y-first ones at 1, 8, 15
 *   (C = round(21 / (k - 1)), spaced k - 1 apart), lockstep bytes 1.064 x the bound against
 *   1.42 x with one chunk at 32 KiB (both worked out with an independent model of the load
 *   rule, docs/planner.md); a chunk's reduce moved a step earlier is refused by check;
 * - mutated schedules are refused by check: a reduce transfer moved to step 1 (before its
 *   child), a flow's size changed (the part rule), a transfer dropped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_sched.h"
#include "topo/mt_bound.h"
#include "mt_test.h"

static int plan(const char *topo, uint64_t bytes, mt_topo *t, mt_sched *s) {
  mt_err e = {{0}};
  if (mt_topo_from_name(t, topo, &e)) {
    CHECK(0, "%s: %s", topo, e.msg);
    return -1;
  }
  if (mt_plan(s, t, "bucket", bytes, 4, &e)) {
    CHECK(0, "%s: plan: %s", topo, e.msg);
    mt_topo_free(t);
    return -1;
  }
  return 0;
}

static int violations(const mt_sched *s) {
  mt_tables tb;
  mt_err e = {{0}};
  mt_check_report r;
  if (mt_sched_tables(s, 0, &tb, &e)) return 1000000;
  FILE *devnull = fopen("/dev/null", "w");
  int rc = mt_check(s, &tb, devnull, &r, &e);
  fclose(devnull);
  mt_tables_free(&tb);
  return rc ? 1000000 : r.violations;
}

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

static void proven(const char *topo, uint64_t bytes, int parts, int steps, int at_bound) {
  mt_topo t;
  mt_sched s;
  if (plan(topo, bytes, &t, &s)) return;
  CHECK(s.n_flows == parts * t.n_nodes, "%s: %d flows, expected %d parts x %d nodes", topo, s.n_flows, parts, t.n_nodes);
  CHECK(s.steps == steps && s.reduce_steps == steps / 2, "%s: %d steps (%d reduce), expected %d", topo, s.steps, s.reduce_steps, steps);
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
  const double lb = lockstep_bytes(&s);
  /* exact up to whole elements: a flow of a part may hold one element more than another */
  if (at_bound) CHECK(fabs(lb - b.per_node) <= 4.0 * s.steps, "%s: lockstep bytes %.1f, per-node bound %.1f", topo, lb, b.per_node);
  else CHECK(lb > b.per_node * 1.01, "%s: lockstep bytes %.1f not above the per-node bound %.1f", topo, lb, b.per_node);
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

/* torus:4x8: which steps a part type's chunks start in (first reduce transfer of a flow),
 * read from the schedule; X-first flows have their first transfer along X (dimension 0). */
static void pipelined(void) {
  mt_topo t;
  mt_sched s;
  if (plan("torus:4x8", 8 << 20, &t, &s)) return;
  CHECK(s.n_flows == 640 && s.steps == 56 && s.reduce_steps == 28, "torus:4x8 8 MiB: %d flows, %d steps (%d reduce), want 640, 56, 28",
        s.n_flows, s.steps, s.reduce_steps);
  int *first = calloc((size_t)s.n_flows, sizeof(int)), *dim = calloc((size_t)s.n_flows, sizeof(int));
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    if (x->op != MT_OP_REDUCE || (first[x->flow] && first[x->flow] <= (int)x->step)) continue;
    first[x->flow] = x->step;
    /* torus:4x8 numbers nodes x-fastest: an X hop changes the node id by 1 or 3 */
    const int a = s.topo->links[MT_XLINK(&s, x, 0)].src, b = s.topo->links[MT_XLINK(&s, x, 0)].dst;
    dim[x->flow] = a / 4 == b / 4 ? 0 : 1;
  }
  unsigned seen[2] = {0, 0};
  int nx0 = 0;
  for (int f = 0; f < s.n_flows; f++) {
    if (first[f] > 0 && first[f] < 32) seen[dim[f]] |= 1u << first[f];
    nx0 += dim[f] == 0;
  }
  const unsigned want0 = (1u << 1) | (1u << 4) | (1u << 7) | (1u << 10) | (1u << 13) | (1u << 16) | (1u << 19);
  const unsigned want1 = (1u << 1) | (1u << 8) | (1u << 15);
  CHECK(seen[0] == want0 && seen[1] == want1 && nx0 == 7 * 2 * 32, "torus:4x8 8 MiB chunk starts: X-first %#x (want %#x), Y-first %#x (want %#x), %d X-first flows",
        seen[0], want0, seen[1], want1, nx0);
  mt_bound b;
  mt_err e = {{0}};
  mt_bound_of(&t, 8 << 20, 1, &b, &e);
  const double r8 = lockstep_bytes(&s) / b.per_node;
  CHECK(r8 > 1.06 && r8 < 1.07, "torus:4x8 8 MiB: lockstep bytes %.4f x the per-node bound, want 1.064", r8);
  /* a chunk's first transfer moved a step earlier: sends before its data (the chunk's child) exists */
  int i = 0;
  while (i < s.nx && !(s.x[i].op == MT_OP_REDUCE && s.x[i].step == 5 && dim[s.x[i].flow] == 0)) i++;
  if (i < s.nx) {
    s.x[i].step = 4;
    CHECK(violations(&s) > 0, "torus:4x8 8 MiB: a chunk's reduce moved a step earlier passed check");
    s.x[i].step = 5;
  }
  CHECK(i < s.nx && violations(&s) == 0, "torus:4x8 8 MiB: restored schedule refused (or no step-5 X reduce)");
  free(first);
  free(dim);
  mt_sched_free(&s);
  mt_topo_free(&t);
  if (plan("torus:4x8", 32 << 10, &t, &s)) return;
  mt_bound_of(&t, 32 << 10, 1, &b, &e);
  const double r32 = lockstep_bytes(&s) / b.per_node;
  CHECK(s.steps == 20 && r32 > 1.4 && r32 < 1.45, "torus:4x8 32 KiB: %d steps, lockstep %.4f x the bound, want 20 and 1.42 (one chunk)", s.steps,
        r32);
  mt_sched_free(&s);
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
  proven("torus:4x4", 1 << 20, 4, 12, 1);
  proven("torus:8x8", 1 << 20, 4, 28, 1);
  proven("mesh:4x4", 1 << 20, 2, 12, 1);
  proven("mesh:8x8", 1 << 20, 2, 28, 1);
  proven("mesh:3x3", 9 * 2 * 4 * 100, 2, 8, 1);
  proven("torus:4x4x4", 1 << 20, 6, 18, 1);
  proven("torus:4x8", 1 << 20, 6, 26, 0); /* pipelined: 2 chunks of the X-first parts */
  proven("torus:3x5", 15 * 4 * 4 * 64, 4, 12, 0);
  proven("mesh:2x5", 1 << 20, 20, 40, 0);
  proven("torus:4x6", 8 << 20, 16, 40, 0);
  proven("mesh:3x4x2", 24 * 3 * 4 * 64, 3, 12, 0);
  proven("ring:8", 1 << 20, 2, 14, 1);
  pipelined();
  mutations("torus:4x4");
  mutations("mesh:4x4");
  refusals();
  return MT_TEST_END("test_bucket");
}
