/* SPDX-License-Identifier: Apache-2.0
 * test_paper_ni: the paper simulator's NI (cmodel/hw/mt_paper_ni.c, docs/reference/papersim.md) on
 * hand-worked cases. The NIs are wired to each other directly (no routers): a flit an NI
 * outputs after call k is at its receiver's ejection port (the head's eject field) in call
 * k + 1, and every injected flit returns its credit the next call. Calls count from 1 (the
 * start); the expected call at which every NI is done is worked out below from the rules
 * alone, then every buffer is checked against mt_ref_result. Each case also runs with one
 * rule broken (perturb), which must change the count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"
#include "hw/mt_mem.h"
#include "hw/mt_paper_ni.h"
#include "plan/mt_ref.h"
#include "ni_scen.h"
#include "mt_test.h"

#define MAXN 8

/* Runs topo/algo at bytes with R NI ports and the given rules; returns the first call after
 * which every NI is done (0: not within the limit or an error), *ok: buffers as mt_ref. */
static uint64_t run(const char *topo, const char *algo, uint64_t bytes, unsigned R, unsigned strict, unsigned sendq, unsigned perturb,
                    int dtype, int *ok) {
  scen c;
  mt_err e;
  *ok = 0;
  if (scen_make(&c, topo, algo, bytes, 0)) return 0;
  const int N = c.t.n_nodes;
  const uint64_t nw = bytes / 4;
  mt_ni t[MAXN];
  mt_mem mem[MAXN];
  mt_pni pn[MAXN];
  mt_ni_in in[MAXN];
  mt_ni_out out[MAXN], prev[MAXN];
  uint32_t *inputs[MAXN];
  unsigned rdst[MAXN][MT_NI_MAX_L], rej[MAXN][MT_NI_MAX_L];
  mt_pni_params pp;
  memset(&pp, 0, sizeof pp);
  pp.payload_w = 128;
  pp.num_vcs = 2;
  pp.nlocal = c.p.nlocal;
  pp.vc_depth = 64;
  pp.subpkt_flits = 16;
  pp.pkt_bytes = 256;
  pp.ports = R;
  pp.strict = strict;
  pp.nop_wait = strict;
  pp.step_prio = strict;
  pp.sendq = sendq;
  pp.acc_width = 32;
  pp.acc_pes = 16;
  pp.chunk_bytes = bytes / (uint64_t)N;
  pp.keep_data = 1;
  pp.perturb = perturb;
  const int nwd = mt_layout_words(&c.ly);
  uint64_t *img = mt_xcalloc(c.p.tbl_depth * (size_t)nwd, 8);
  c.p.num_vcs = 2;
  for (int i = 0; i < N; i++) {
    memset(&in[i], 0, sizeof in[i]);
    in[i].dtype = (uint8_t)dtype;
    in[i].pkt_mode = 1;
    in[i].node_id = (uint16_t)i;
    in[i].nflows = (uint16_t)c.s.n_flows;
    if (mt_ni_init(&t[i], &c.p, &e) || mt_mem_init(&mem[i], nw, 4, 100, 1, 1u + (unsigned)i, &e)) {
      fprintf(stderr, "%s\n", e.msg);
      exit(2);
    }
    mt_layout_node_image(&c.ly, &c.tb, i, (int)c.p.tbl_depth, nwd, img);
    mt_ni_table_load(&t[i], img, c.p.tbl_depth, (unsigned)nwd);
    inputs[i] = mt_xcalloc(nw, 4);
    mt_ref_inputs(7, i, dtype, inputs[i], nw);
    memcpy(mem[i].w, inputs[i], nw * 4);
    CHECK(mt_pni_init(&pn[i], &pp, &t[i], &in[i], &mem[i], &e) == 0, "%s", e.msg);
    memset(&prev[i], 0, sizeof prev[i]);
  }
  free(img);
  /* each sender port's flits wait in a queue (64 = the credits it starts with); an
   * ejection port takes one flit a call from the sender it is locked to (head to tail), else
   * from the lowest sender whose front is a head, like a router's output; the credit goes
   * back when the flit is taken. The hand-worked cases never have two senders at one port. */
  static mt_flit q[MAXN][MT_NI_MAX_L][64];
  unsigned qr[MAXN][MT_NI_MAX_L], qn[MAXN][MT_NI_MAX_L];
  int lock[MAXN][MT_NI_MAX_L];
  memset(qr, 0, sizeof qr);
  memset(qn, 0, sizeof qn);
  for (int i = 0; i < MAXN; i++)
    for (unsigned l = 0; l < MT_NI_MAX_L; l++) lock[i][l] = -1;
  uint64_t k, done_at = 0, waits = 0;
  for (k = 1; k < 100000 && !done_at; k++) {
    for (int i = 0; i < N; i++) {
      in[i].start = k == 1;
      memset(in[i].ej_valid, 0, sizeof in[i].ej_valid);
      memset(in[i].inj_credit, 0, sizeof in[i].inj_credit);
    }
    for (int a = 0; a < N; a++)
      for (unsigned r = 0; r < pp.nlocal; r++)
        if (prev[a].inj_valid[r]) {
          CHECK(qn[a][r] < 64, "call %llu: node %d port %u sent without a credit", (unsigned long long)k, a, r);
          q[a][r][(qr[a][r] + qn[a][r]++) % 64] = prev[a].inj_flit[r];
        }
    for (int a = 0; a < N; a++)
      for (unsigned r = 0; r < pp.nlocal; r++)
        if (qn[a][r] && mt_ft_is_head(mt_flit_type(&q[a][r][qr[a][r]], 128))) {
          rdst[a][r] = mt_hd_dst(&q[a][r][qr[a][r]]);
          rej[a][r] = mt_hd_eject(&q[a][r][qr[a][r]]);
        }
    for (int d = 0; d < N; d++)
      for (unsigned l = 0; l < pp.nlocal; l++) {
        int x = lock[d][l], hit = 0;
        for (int a = 0; x < 0 && a < N; a++)
          for (unsigned r = 0; x < 0 && r < pp.nlocal; r++)
            if (qn[a][r] && rdst[a][r] == (unsigned)d && rej[a][r] == l && mt_ft_is_head(mt_flit_type(&q[a][r][qr[a][r]], 128))) x = a * MT_NI_MAX_L + (int)r;
        for (int a = 0; a < N; a++) /* others waiting for this port */
          for (unsigned r = 0; r < pp.nlocal; r++)
            hit |= a * MT_NI_MAX_L + (int)r != x && qn[a][r] && rdst[a][r] == (unsigned)d && rej[a][r] == l;
        waits += (uint64_t)hit;
        if (x < 0 || !qn[x / MT_NI_MAX_L][x % MT_NI_MAX_L]) continue;
        const int a = x / MT_NI_MAX_L, r = x % MT_NI_MAX_L;
        const mt_flit *f = &q[a][r][qr[a][r]];
        in[d].ej_valid[l] = 1;
        in[d].ej_flit[l] = *f;
        lock[d][l] = mt_ft_is_tail(mt_flit_type(f, 128)) ? -1 : x;
        qr[a][r] = (qr[a][r] + 1u) % 64u;
        qn[a][r]--;
        in[a].inj_credit[r][0] = 1;
      }
    int all = 1, err = 0;
    for (int i = 0; i < N; i++) {
      mt_pni_step(&pn[i], &in[i], &out[i]);
      all &= out[i].done;
      err |= out[i].err;
    }
    memcpy(prev, out, sizeof out);
    if (err) break;
    if (all) done_at = k;
  }
  uint32_t *ref = mt_xcalloc(nw, 4);
  if (done_at && !mt_ref_result(&c.s, &c.tb, dtype, inputs, ref, &e)) {
    *ok = 1;
    for (int i = 0; i < N; i++) *ok &= memcmp(mem[i].w, ref, nw * 4) == 0;
  }
  free(ref);
  if (!perturb) CHECK(waits == 0, "%s %s: %llu port-cycles with two senders for one ejection port (the hand-work assumes none)", topo, algo, (unsigned long long)waits);
  for (int i = 0; i < N; i++) {
    mt_pni_free(&pn[i]);
    mt_ni_free(&t[i]);
    mt_mem_free(&mem[i]);
    free(inputs[i]);
  }
  scen_free(&c);
  return done_at;
}

static void expect(const char *what, const char *topo, const char *algo, uint64_t bytes, unsigned R, unsigned strict, unsigned sendq,
                   unsigned perturb, uint64_t want, int dtype) {
  int ok;
  const uint64_t got = run(topo, algo, bytes, R, strict, sendq, perturb, dtype, &ok);
  if (perturb) {
    CHECK(got != want, "%s: the broken rule (perturb %u) went unnoticed: %llu calls", what, perturb, (unsigned long long)got);
    printf("%s, rule broken (perturb %u): %llu calls, not %llu\n", what, perturb, (unsigned long long)got, (unsigned long long)want);
    return;
  }
  CHECK(got == want, "%s: done after %llu calls, hand-worked %llu", what, (unsigned long long)got, (unsigned long long)want);
  CHECK(ok, "%s: a buffer differs from mt_ref_result", what);
  printf("%s: %llu calls (expected %llu), buffers %s\n", what, (unsigned long long)got, (unsigned long long)want, ok ? "as mt_ref" : "WRONG");
}

int main(void) {
  /* hmc.py load_model's estimate and npu.py aggregate, by hand */
  mt_pni_params p;
  memset(&p, 0, sizeof p);
  p.payload_w = 128;
  p.pkt_bytes = 256;
  p.sendq = 58;
  p.acc_width = 32;
  p.acc_pes = 16;
  p.chunk_bytes = 131072; /* 8 MiB / 64: P = 512 units of 256 B */
  CHECK(mt_pni_estimate(&p, 1) == 512u * 17u - 58u * 16u, "estimate, packets: %llu", (unsigned long long)mt_pni_estimate(&p, 1));
  CHECK(mt_pni_estimate(&p, 0) == 512u * 16u - 58u * 16u, "estimate, messages: %llu", (unsigned long long)mt_pni_estimate(&p, 0));
  p.chunk_bytes = 1000; /* P = 4 <= 58: P */
  CHECK(mt_pni_estimate(&p, 1) == 4u, "estimate, small: %llu", (unsigned long long)mt_pni_estimate(&p, 1));
  /* 131072 B = 32768 elements: ceil(32768 / 16) = 2048, ceil(2048 / 32) = 64, x 16 = 1024 */
  CHECK(mt_pni_agg_cycles(&p, 131072) == 1024u, "aggregation of 128 KiB: %llu", (unsigned long long)mt_pni_agg_cycles(&p, 131072));
  /* 512 B = 2 units = 128 elements: ceil(128/16) = 8, ceil(8/32) = 1, x 16 = 16 */
  CHECK(mt_pni_agg_cycles(&p, 512) == 16u, "aggregation of 512 B: %llu", (unsigned long long)mt_pni_agg_cycles(&p, 512));
  /* 100 B rounds up to one 256-B unit = 64 elements: 4, 1, x 16 = 16 */
  CHECK(mt_pni_agg_cycles(&p, 100) == 16u, "aggregation of 100 B: %llu", (unsigned long long)mt_pni_agg_cycles(&p, 100));

  /* 2 nodes, ring, 1024 B: two flows of 512 B = 2 packets = 34 flits each, one NI port.
   * Call 1: step 1's Reduce (a leaf) goes to the port; flits out in calls 1..34, in at the
   * other node in 2..35; the child flow is complete at 35, queued for the accelerator from 36
   * (hmc.py: 'aggregation' at cur_cycle + 1), 16 cycles: done at 52; step 2 (the root's
   * Reduce and its Gather) issues at 52: flits out 52..85, in 53..86: done at call 86. */
  expect("ring:2 ring 1 KiB", "ring:2", "ring", 1024, 1, 0, 0, 0, 86, MT_DTYPE_INT32);
  expect("ring:2 ring 1 KiB fp32", "ring:2", "ring", 1024, 1, 0, 0, 0, 86, MT_DTYPE_FP32);
  expect("ring:2 ring 1 KiB", "ring:2", "ring", 1024, 1, 0, 0, 2, 86, MT_DTYPE_INT32); /* aggregation free: 70 */

  /* 4-node ring, ring, 1024 B: flows of 256 B = 17 flits, one port. Every step waits for
   * the child flow sent in the step before: send 17 calls, + 1 wire, + 1 queue, + 16
   * aggregation. Step 1 sends 1..17 (in 2..18, aggregated 19..35); step 2 sends 35..51,
   * step 3 69..85, step 4 (the root's Gather) 103..119, in at the next node 104..120; the
   * Gathers of steps 5 and 6 wait only for the parent's: 120..136, 137..153; the last
   * arrives 138..154: done at call 154. */
  expect("ring:4 ring 1 KiB", "ring:4", "ring", 1024, 1, 0, 0, 0, 154, MT_DTYPE_INT32);
  expect("ring:4 ring 1 KiB", "ring:4", "ring", 1024, 1, 0, 0, 2, 154, MT_DTYPE_INT32);

  /* 2x2 torus, MultiTree, 1024 B: flows of 256 B = 17 flits, 2 NI ports, strict steps, ports
   * free only when their flow is injected (sendq 0). Node 0 (every node alike):
   *  step 1: Reduce flow 3 -> 1 on port 0, calls 1..17;
   *  step 2: strict: waits for both ports free, call 18: Reduce flow 1 (a leaf) -> port 0,
   *          18..34; Reduce flow 2 waits for child 1's flow 2 (in 2..18, aggregated
   *          19..35): at 35 on port 0 (free again at 35), 35..51;
   *  step 3: strict: from 52; root of flow 0: child 1's leaf flow in 19..35, aggregated
   *          36..52, child 2's (sent 35..51) in 36..52, aggregated 53..69: at 69 the Gather
   *          to both children on ports 0 and 1, 69..85;
   *  step 4: Gather flow 2 -> 1 waits for flow 2 from node 2 (in 70..86) and free ports:
   *          86..102; flow 3 arrives from node 1 (its step 4) 87..103: done at call 103. */
  expect("torus:2x2 multitree 1 KiB", "torus:2x2", "multitree", 1024, 2, 1, 0, 0, 103, MT_DTYPE_INT32);
  expect("torus:2x2 multitree 1 KiB fp32", "torus:2x2", "multitree", 1024, 2, 1, 0, 0, 103, MT_DTYPE_FP32);
  /* The same at 4 KiB: flows of 1 KiB = 4 packets = F = 68 flits; aggregation still 16.
   *  step 1: port 0, 1..68; child 1's flow 2 in 2..69, aggregated 70..86;
   *  step 2: both ports free at 69: the leaf flow 1 on port 0, 69..136; flow 2 ready at 86,
   *          port 0 busy: port 1, 86..153;
   *  step 3: both ports free at 154; child 1's leaf flow (sent 69..136) in 70..137,
   *          aggregated 138..154; child 2's (86..153) in 87..154, aggregated 155..171: the
   *          Gathers at 171 on ports 0 and 1, 171..238;
   *  step 4: flow 2 from node 2 in 172..239 and both ports free at 239: 239..306; flow 3
   *          from node 1 in 240..307: done at call 307. */
  expect("torus:2x2 multitree 4 KiB", "torus:2x2", "multitree", 4096, 2, 1, 0, 0, 307, MT_DTYPE_INT32);
  expect("torus:2x2 multitree 4 KiB", "torus:2x2", "multitree", 4096, 2, 1, 0, 2, 307, MT_DTYPE_INT32); /* aggregation free */
  /* On 2x2 the strict rule never binds (the aggregations and the parents' Gathers come later
   * than the ports free up; ignoring it gives 103 and 307 too). On 2x4 it does: not
   * hand-worked, the count is the model's own (168 calls), and the rule broken
   * must make it differ */
  expect("torus:2x4 multitree 1 KiB", "torus:2x4", "multitree", 1024, 2, 1, 0, 0, 168, MT_DTYPE_INT32);
  expect("torus:2x4 multitree 1 KiB", "torus:2x4", "multitree", 1024, 2, 1, 0, 1, 168, MT_DTYPE_INT32); /* strict ignored: 160 */
  expect("torus:2x2 multitree 1 KiB", "torus:2x2", "multitree", 1024, 2, 1, 0, 2, 103, MT_DTYPE_INT32); /* aggregation free */
  return MT_TEST_END("t-c-paper_ni");
}
