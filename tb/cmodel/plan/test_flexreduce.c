/* SPDX-License-Identifier: Apache-2.0
 * test_flexreduce: FlexReduce (plan/mt_flexreduce.c) on the paper's Fig. 2 example worked by
 * hand; FlexReduce equals BlueConnect (entries, flows, transfers) on symmetric hierarchies;
 * check passes and the reference sums are exact on asymmetric ones (roots that do not hold
 * their range included) and broken schedules are caught; Eq. 2, 3/10, 6 and 12 against
 * hand-computed values; bad inputs refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan/mt_check.h"
#include "plan/mt_flexreduce.h"
#include "mt_test.h"
#include "ref_sum.h"

static int tree_of(const char *topo, mt_topo *t, mt_htree *h) {
  mt_err e = {{0}};
  int rc = mt_topo_from_name(t, topo, &e);
  CHECK(rc == 0, "%s: %s", topo, e.msg);
  if (rc) return -1;
  rc = mt_htree_of(t, h, &e);
  CHECK(rc == 0, "%s: %s", topo, e.msg);
  if (rc) mt_topo_free(t);
  return rc;
}

/* the schedule passes check and gives exact sums; returns 0 when it does */
static int sched_ok(const mt_sched *s, const char *what) {
  mt_tables tb;
  mt_err e = {{0}};
  int rc = mt_sched_tables(s, 0, &tb, &e);
  CHECK(rc == 0, "%s: tables: %s", what, e.msg);
  if (rc) return -1;
  mt_check_report r;
  rc = mt_check(s, &tb, stderr, &r, &e) != 0 || r.violations;
  CHECK(!rc, "%s: check: %d violations", what, r.violations);
  const uint64_t bad = tb_ref_sum_mismatch(s, &tb, 7, &e);
  CHECK(bad == 0, "%s: %llu words differ from the exact sum (%s)", what, (unsigned long long)bad, e.msg);
  mt_tables_free(&tb);
  return rc || bad;
}

/* Fig. 2 / Section III: 12 items, root A, B = {D, E}, C = {F, G, H}; hier:2+3 numbers D..H
 * 0..4, B 5, C 6, A 7. */
static void test_fig2(void) {
  mt_topo t;
  mt_htree h;
  mt_fr_plan p;
  mt_err e = {{0}};
  if (tree_of("hier:2+3@16,@1.25", &t, &h)) return;
  CHECK(h.root == 7 && h.L == 2 && h.level[5] == 0 && h.level[7] == 1, "tree: root %d L %d", h.root, h.L);
  CHECK(mt_fr_plan_build(&h, &p, &e) == 0, "%s", e.msg);
  CHECK(p.den == 12, "den %llu, want lcm(2x2, 3x2) = 12", (unsigned long long)p.den);
  /* level 0: one entry per learner, its machine's learners all hold it */
  static const int l0[5][2] = {{0, 6}, {6, 12}, {0, 4}, {4, 8}, {8, 12}};
  int n0 = 0;
  for (int i = 0; i < p.n_ent; i++)
    if (p.ent[i].level == 0) {
      const mt_fr_entry *x = &p.ent[i];
      n0++;
      CHECK(x->lo == (uint64_t)l0[x->root][0] && x->hi == (uint64_t)l0[x->root][1], "level 0 root %d [%llu,%llu)", x->root,
            (unsigned long long)x->lo, (unsigned long long)x->hi);
      CHECK(x->np == (x->root < 2 ? 2 : 3), "level 0 root %d: %d participants", x->root, x->np);
    }
  CHECK(n0 == 5, "%d level-0 entries", n0);
  /* level 1: order F, D, G, E, H (by end 4, 6, 8, then E [6,12) before H [8,12) by start):
   * F [0,2), D [2,5), G [5,7), E [7,10), H [10,12); cut where the holders change */
  static const int l1[8][5] = {
    /* root, lo, hi, holders (one in B, one in C) */
    {2, 0, 2, 0, 2},
    {0, 2, 4, 0, 2},
    {0, 4, 5, 0, 3},
    {3, 5, 6, 0, 3},
    {3, 6, 7, 1, 3},
    {1, 7, 8, 1, 3},
    {1, 8, 10, 1, 4},
    {4, 10, 12, 1, 4},
  };
  int n1 = 0;
  for (int i = 0; i < p.n_ent; i++) {
    const mt_fr_entry *x = &p.ent[i];
    if (x->level != 1) continue;
    int k = -1;
    for (int j = 0; j < 8; j++)
      if ((uint64_t)l1[j][1] == x->lo) k = j;
    CHECK(k >= 0 && x->root == l1[k][0] && x->hi == (uint64_t)l1[k][2] && x->np == 2 && p.parts[x->poff] == l1[k][3] &&
            p.parts[x->poff + 1] == l1[k][4],
          "level 1 entry root %d [%llu,%llu)", x->root, (unsigned long long)x->lo, (unsigned long long)x->hi);
    n1++;
  }
  CHECK(n1 == 8, "%d level-1 entries, want 8", n1);
  int calls[5];
  CHECK(mt_fr_calls(&p, &h, 1, calls) == 8, "level 1: 8 reduce calls");
  static const int want_calls[5] = {2, 2, 1, 2, 1};
  for (int v = 0; v < 5; v++) CHECK(calls[v] == want_calls[v], "learner %d: %d calls at level 1, want %d", v, calls[v], want_calls[v]);
  CHECK(mt_fr_calls(&p, &h, 0, calls) == 5, "level 0: one call per learner");
  static const int fin[5][2] = {{2, 5}, {7, 10}, {0, 2}, {5, 7}, {10, 12}};
  for (int v = 0; v < 5; v++) CHECK(p.lo[v] == (uint64_t)fin[v][0] && p.hi[v] == (uint64_t)fin[v][1], "learner %d final range", v);
  /* the schedule: 8 pieces (boundaries 0 2 4 5 6 7 8 10 12), 6 items each way across A */
  mt_sched s;
  memset(&s, 0, sizeof s);
  CHECK(mt_fr_emit(&s, &t, &h, &p, 12 * 4, 4, &e) == 0, "%s", e.msg);
  /* steps: level 0 in 2 rotations (C has 3 learners), level 1 in 1 (A has 2 children) */
  CHECK(s.n_flows == 8 && s.steps == 6 && s.reduce_steps == 3, "%d flows, %d steps", s.n_flows, s.steps);
  const int BA = mt_topo_find_link(&t, 5, 7), CA = mt_topo_find_link(&t, 6, 7), AB = mt_topo_find_link(&t, 7, 5), AC = mt_topo_find_link(&t, 7, 6);
  uint64_t up[2] = {0, 0}, down[2] = {0, 0};
  for (int i = 0; i < s.nx; i++) {
    const mt_xfer *x = &s.x[i];
    for (int k = 0; k < x->path_len; k++) {
      int l = MT_XLINK(&s, x, k);
      uint64_t el = s.chunk[x->flow].size / 4;
      if (x->op == MT_OP_REDUCE) up[0] += l == BA ? el : 0, up[1] += l == CA ? el : 0;
      else down[0] += l == AB ? el : 0, down[1] += l == AC ? el : 0;
    }
  }
  CHECK(up[0] == 6 && up[1] == 6 && down[0] == 6 && down[1] == 6, "across A: reduce B->A %llu, C->A %llu, gather A->B %llu, A->C %llu; want 6 each",
        (unsigned long long)up[0], (unsigned long long)up[1], (unsigned long long)down[0], (unsigned long long)down[1]);
  sched_ok(&s, "fig2");
  /* Eq. 12 at level 1: next range 1/4 (D, E) or 1/6 (F, G, H) against current ranges of
   * at least 1/3: ceil(.) = 1 for each of B and C, + 1 = 3; level 0: 1 */
  for (int v = 0; v < 5; v++) CHECK(mt_fr_calls_bound(&h, v, 1) == 3 && mt_fr_calls_bound(&h, v, 0) == 1, "Eq. 12 learner %d", v);
  /* Eq. 6 with alpha 0, n = 12 bytes, 16 and 1.25 GB/s: level 0 max(T_r(12,2,16) = 0.375,
   * T_r(12,3,16) = 0.5) = 0.5; level 1 max(T_r(6,2,16), T_r(4,2,16), T_r(12,2,1.25) = 4.8)
   * = 4.8; x 2 = 10.6 */
  CHECK(fabs(mt_fr_cost_fr(&h, 12, 0) - 10.6) < 1e-9, "Eq. 6 %g, want 10.6", mt_fr_cost_fr(&h, 12, 0));
  /* alpha counts once per ring step: level 0 has 2 (C), level 1 has 1: 2 x 3 alpha */
  CHECK(fabs(mt_fr_cost_fr(&h, 12, 100) - 10.6 - 600) < 1e-9, "Eq. 6 with alpha %g", mt_fr_cost_fr(&h, 12, 100));
  mt_sched_free(&s);
  mt_fr_plan_free(&p);
  mt_htree_free(&h);
  mt_topo_free(&t);
}

/* hier:1+4: X alone under B; C's learners c0..c3 take 1/8, X 1/2. Level 1 order c0 [0,2)
 * .. c2, then X (end 8, start 0) before c3 (end 8, start 6): c0 [0,1), c1 [1,2), c2 [2,3),
 * X [3,7), c3 [7,8) (units of 1/8). c1 and c2 do not hold their new ranges (held by c0 and
 * c1): their own partial sums stay at them. X's range meets c1, c2, c3: 3 calls. */
static void test_stale_root(void) {
  mt_topo t;
  mt_htree h;
  mt_fr_plan p;
  mt_err e = {{0}};
  if (tree_of("hier:1+4,2", &t, &h)) return;
  CHECK(mt_fr_plan_build(&h, &p, &e) == 0, "%s", e.msg);
  static const int fin[5][2] = {{3, 7}, {0, 1}, {1, 2}, {2, 3}, {7, 8}};
  CHECK(p.den == 8, "den %llu", (unsigned long long)p.den);
  for (int v = 0; v < 5; v++) CHECK(p.lo[v] == (uint64_t)fin[v][0] && p.hi[v] == (uint64_t)fin[v][1], "learner %d final [%llu,%llu)", v,
                                    (unsigned long long)p.lo[v], (unsigned long long)p.hi[v]);
  int calls[5];
  mt_fr_calls(&p, &h, 1, calls);
  CHECK(calls[0] == 3 && calls[1] == 1 && calls[2] == 1 && calls[3] == 1 && calls[4] == 1, "calls %d %d %d %d %d", calls[0], calls[1], calls[2], calls[3], calls[4]);
  /* Eq. 12: X: next 1/2; B's current 1 -> 1, C's smallest current 1/4 -> ceil(2) = 2; + 1 = 4.
   * c_i: next 1/8: 1 + 1 + 1 = 3 */
  CHECK(mt_fr_calls_bound(&h, 0, 1) == 4, "Eq. 12 X: %d, want 4", mt_fr_calls_bound(&h, 0, 1));
  CHECK(mt_fr_calls_bound(&h, 1, 1) == 3, "Eq. 12 c0: %d, want 3", mt_fr_calls_bound(&h, 1, 1));
  mt_sched s;
  memset(&s, 0, sizeof s);
  CHECK(mt_fr_emit(&s, &t, &h, &p, 8 * 4 * 3, 4, &e) == 0, "%s", e.msg);
  sched_ok(&s, "hier:1+4 stale roots");
  mt_sched_free(&s);
  mt_fr_plan_free(&p);
  mt_htree_free(&h);
  mt_topo_free(&t);
}

static int xfer_cmp(const void *a, const void *b) {
  const mt_xfer *x = a, *y = b;
  if (x->flow != y->flow) return (int)x->flow - (int)y->flow;
  if (x->op != y->op) return (int)x->op - (int)y->op;
  if (x->src != y->src) return x->src - y->src;
  return x->dst - y->dst;
}

/* on a symmetric hierarchy FlexReduce's plan is BlueConnect's: entries, flows, transfers */
static void test_equal_blc(const char *topo, uint64_t bytes) {
  mt_topo t;
  mt_htree h;
  mt_fr_plan a, b;
  mt_err e = {{0}};
  if (tree_of(topo, &t, &h)) return;
  CHECK(mt_fr_plan_build(&h, &a, &e) == 0, "%s: %s", topo, e.msg);
  CHECK(mt_blc_plan_build(&h, &b, &e) == 0, "%s: %s", topo, e.msg);
  int same = a.n_ent == b.n_ent && a.den == b.den;
  for (int i = 0; same && i < a.n_ent; i++) {
    const mt_fr_entry *x = &a.ent[i], *y = &b.ent[i];
    same = x->level == y->level && x->node == y->node && x->root == y->root && x->lo == y->lo && x->hi == y->hi && x->np == y->np &&
      !memcmp(a.parts + x->poff, b.parts + y->poff, (size_t)x->np * sizeof(int));
    CHECK(same, "%s: entry %d differs: flexreduce root %d [%llu,%llu) %d parts, blueconnect root %d [%llu,%llu) %d parts", topo, i, x->root,
          (unsigned long long)x->lo, (unsigned long long)x->hi, x->np, y->root, (unsigned long long)y->lo, (unsigned long long)y->hi, y->np);
  }
  CHECK(a.n_ent == b.n_ent, "%s: %d entries against %d", topo, a.n_ent, b.n_ent);
  mt_sched sa, sb;
  memset(&sa, 0, sizeof sa);
  memset(&sb, 0, sizeof sb);
  CHECK(mt_fr_emit(&sa, &t, &h, &a, bytes, 4, &e) == 0 && mt_fr_emit(&sb, &t, &h, &b, bytes, 4, &e) == 0, "%s: %s", topo, e.msg);
  int eq = sa.n_flows == sb.n_flows && sa.nx == sb.nx && sa.steps == sb.steps && !memcmp(sa.chunk, sb.chunk, (size_t)sa.n_flows * sizeof *sa.chunk) &&
    !memcmp(sa.root, sb.root, (size_t)sa.n_flows * sizeof(int));
  if (eq) {
    qsort(sa.x, (size_t)sa.nx, sizeof *sa.x, xfer_cmp);
    qsort(sb.x, (size_t)sb.nx, sizeof *sb.x, xfer_cmp);
    for (int i = 0; eq && i < sa.nx; i++)
      eq = sa.x[i].flow == sb.x[i].flow && sa.x[i].op == sb.x[i].op && sa.x[i].src == sb.x[i].src && sa.x[i].dst == sb.x[i].dst &&
        sa.x[i].step == sb.x[i].step;
  }
  CHECK(eq, "%s: the schedules differ (%d/%d flows, %d/%d transfers)", topo, sa.n_flows, sb.n_flows, sa.nx, sb.nx);
  mt_sched_free(&sa);
  mt_sched_free(&sb);
  /* and through mt_plan, both pass check with exact sums */
  static const char *algos[] = {"flexreduce", "blueconnect"};
  for (int k = 0; k < 2; k++) {
    mt_sched s;
    CHECK(mt_plan(&s, &t, algos[k], bytes, 4, &e) == 0, "%s %s: %s", topo, algos[k], e.msg);
    if (!s.n_flows) continue;
    sched_ok(&s, topo);
    mt_sched_free(&s);
  }
  mt_fr_plan_free(&a);
  mt_fr_plan_free(&b);
  mt_htree_free(&h);
  mt_topo_free(&t);
}

/* asymmetric: check passes, exact sums, a level's calls at most Eq. 12's bound; then three
 * corruptions of the schedule are caught */
static void test_asym(const char *topo, uint64_t bytes) {
  mt_topo t;
  mt_htree h;
  mt_fr_plan p;
  mt_err e = {{0}};
  if (tree_of(topo, &t, &h)) return;
  CHECK(mt_fr_plan_build(&h, &p, &e) == 0, "%s: %s", topo, e.msg);
  int *calls = mt_xcalloc((size_t)h.n_leaves, sizeof(int));
  for (int l = 1; l < h.L; l++) {
    mt_fr_calls(&p, &h, l, calls);
    for (int v = 0; v < h.n_leaves; v++) {
      int bnd = mt_fr_calls_bound(&h, v, l);
      CHECK(calls[v] <= bnd, "%s: learner %d level %d: %d calls above the Eq. 12 bound %d", topo, v, l, calls[v], bnd);
    }
  }
  free(calls);
  mt_fr_plan_free(&p);
  mt_sched s;
  const int rc = mt_plan(&s, &t, "flexreduce", bytes, 4, &e);
  CHECK(rc == 0, "%s: %s", topo, e.msg);
  if (rc) goto out;
  sched_ok(&s, topo);
  mt_tables tb;
  mt_check_report r;
  /* 1: a gap between two flows */
  if (s.n_flows > 1) {
    s.chunk[1].addr += 4;
    s.chunk[1].size -= 4;
    CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
    CHECK(mt_check(&s, &tb, NULL, &r, &e) == 0 && r.violations > 0, "%s: a gap between flows 0 and 1 passed check", topo);
    mt_tables_free(&tb);
    s.chunk[1].addr -= 4;
    s.chunk[1].size += 4;
  }
  /* 2: a reduce sent in the step its receiver forwards it (too late); 3: a reduce sent to a
   * learner that is not its parent in the tree */
  for (int i = 0; i < s.nx; i++) {
    mt_xfer *x = &s.x[i];
    if (x->op != MT_OP_REDUCE) continue;
    int fwd = 0;
    for (int j = 0; j < s.nx; j++)
      if (s.x[j].op == MT_OP_REDUCE && s.x[j].flow == x->flow && s.x[j].src == x->dst) fwd = s.x[j].step;
    if (!fwd) continue;
    const int old = x->step;
    x->step = (uint16_t)fwd;
    int caught = mt_sched_tables(&s, 0, &tb, &e) != 0;
    if (!caught) {
      caught = mt_check(&s, &tb, NULL, &r, &e) != 0 || r.violations > 0;
      mt_tables_free(&tb);
    }
    CHECK(caught, "%s: a reduce sent in its parent's step passed check", topo);
    x->step = (uint16_t)old;
    break;
  }
  {
    mt_xfer *x = &s.x[0];
    const int old = x->dst;
    x->dst = (uint16_t)((x->dst + 1) % s.n_nodes == x->src ? (x->dst + 2) % s.n_nodes : (x->dst + 1) % s.n_nodes);
    int caught = mt_sched_tables(&s, 0, &tb, &e) != 0;
    if (!caught) {
      caught = mt_check(&s, &tb, NULL, &r, &e) != 0 || r.violations > 0;
      mt_tables_free(&tb);
    }
    CHECK(caught, "%s: a reduce sent to the wrong learner passed check", topo);
    x->dst = (uint16_t)old;
  }
  mt_sched_free(&s);
out:
  mt_htree_free(&h);
  mt_topo_free(&t);
}

/* Eq. 2 and Eq. 3 (as Eq. 10) by hand; Eq. 6 equals Eq. 3 on symmetric hierarchies (Eq. 7-11) */
static void test_cost(void) {
  CHECK(fabs(mt_fr_tr(12, 3, 2, 1) - 6) < 1e-12, "T_r(12,3,2,1) = 2 (1 + 2) = 6");
  CHECK(mt_fr_tr(12, 1, 2, 1) == 0, "T_r on 1 learner");
  /* delta (4, 2), omega (16, 1.25), n 120: 3 x 120/64 = 5.625; then 30 over min(16, 1.25/4)
   * = 0.3125: 30 / 0.625 = 48; 2 x 53.625 */
  const int delta[2] = {4, 2};
  const double omega[2] = {16, 1.25};
  CHECK(fabs(mt_fr_cost_blc(120, 2, delta, omega, 0) - 107.25) < 1e-9, "Eq. 3 %g, want 107.25", mt_fr_cost_blc(120, 2, delta, omega, 0));
  static const char *sym[] = {"hier:4+4@16:500,@1.25:5000", "hier:2+2+2@16:500,@1.25:5000", "hier:3+3+3+3@10,2+2@3,@1:100"};
  static const int sd[3][3] = {{4, 2, 0}, {2, 3, 0}, {3, 2, 2}};
  static const double so[3][3] = {{16, 1.25, 0}, {16, 1.25, 0}, {10, 3, 1}};
  for (int i = 0; i < 3; i++) {
    mt_topo t;
    mt_htree h;
    if (tree_of(sym[i], &t, &h)) continue;
    for (int a = 0; a < 2; a++) {
      const double fr = mt_fr_cost_fr(&h, 1e6, a * 300.0), blc = mt_fr_cost_blc(1e6, h.L, sd[i], so[i], a * 300.0);
      CHECK(fabs(fr - blc) < 1e-6 * blc, "%s alpha %d: Eq. 6 %g, Eq. 3 %g", sym[i], a * 300, fr, blc);
    }
    mt_htree_free(&h);
    mt_topo_free(&t);
  }
}

static void refused(const char *topo, const char *algo, const char *want) {
  mt_topo t;
  mt_sched s;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, topo, &e) == 0, "%s: %s", topo, e.msg);
  if (!t.n_nodes) return;
  int rc = mt_plan(&s, &t, algo, 4096, 4, &e);
  CHECK(rc != 0 && strstr(e.msg, want), "%s %s: rc %d '%s', want '%s'", topo, algo, rc, e.msg, want);
  if (!rc) mt_sched_free(&s);
  mt_topo_free(&t);
}

static void topo_refused(const char *topo, const char *want) {
  mt_topo t;
  mt_err e = {{0}};
  int rc = mt_topo_from_name(&t, topo, &e);
  CHECK(rc != 0 && strstr(e.msg, want), "%s: rc %d '%s', want '%s'", topo, rc, e.msg, want);
  if (!rc) mt_topo_free(&t);
}

int main(void) {
  test_fig2();
  test_stale_root();
  static const char *sym[] = {"hier:2+2,2", "hier:4+4@16,@1.25", "hier:3+3+3,3", "hier:4+4+4@16,@1.25", "hier:2+2+2+2,2+2,2",
                              "hier:3+3+3+3+3+3,3+3,2", "hier:5,1", "hier:2+2+2+2+2+2+2+2,2+2+2+2,2+2,2"};
  for (int i = 0; i < 8; i++) {
    test_equal_blc(sym[i], 4 * 1000 * 12);
    test_equal_blc(sym[i], 4 * 997); /* a prime element count: rounded portions */
  }
  static const char *asym[] = {"hier:2+3,2", "hier:3+2,2", "hier:4+3,2", "hier:4+4+3,3", "hier:4+3+3,3", "hier:1+4,2",
                               "hier:3+2+2+3+1,2+3,2", "hier:1+1+5,2+1,2", "dgx2", "hier:4+1+2+3,1+3,2",
                               "file:" MT_TEST_DATA "/hier_dangling.topo"};
  for (int i = 0; i < 11; i++) {
    test_asym(asym[i], 4 * 1000 * 12);
    test_asym(asym[i], 4 * 997);
    test_asym(asym[i], 4 * 13);
  }
  test_cost();
  refused("hier:4+3,2", "blueconnect", "falls back to a flat ring");
  refused("torus:4x4", "flexreduce", "has no switches");
  refused("fattree:4,2", "blueconnect", "do not form a tree");
  topo_refused("hier:4+3", "the last level must be one switch");
  topo_refused("hier:4+x,@1", "at character 3 ('x'): expected a learner count");
  topo_refused("hier:4+3,3,1", "level 1 groups 3 switches but level 0 has 2");
  topo_refused("hier:4+3@-1,@1", "expected a bandwidth in GB/s > 0");
  topo_refused("hier:4+3@16:500,@1.25:5000,", "at the end: level 2 is empty");
  topo_refused("hier:4+3,,2", "at character 5 (','): level 1 is empty");
  topo_refused("hier:4+3,@1", "level 1 has '@1' but level 0 has no bandwidth");
  topo_refused("hier:2+2+2+2@16,2+2@4,2", "level 0 has '@16' but level 2 has no bandwidth");
  return MT_TEST_END("flexreduce");
}
