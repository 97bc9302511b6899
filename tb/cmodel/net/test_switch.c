/* SPDX-License-Identifier: Apache-2.0
 * test_switch: the switch (mt_router with table = 1) and switch networks (mt_switch,
 * mt_net on fat-tree, DGX-2-like and BiGraph), against hand-derived expectations
 * (docs/reference/switch.md): table routes with port sets and hop classes, the VC and credit rules at
 * an NI port, the 2-cycle hop; the route tables built from topologies (up/down d-mod-k on
 * fat-trees, parallel links, hop classes on BiGraph); bad switches, tables and topologies
 * refused; a whole all-reduce correct, and one perturbed table entry caught. */
#include <stdio.h>
#include <string.h>
#include "hw/mt_router.h"
#include "net/mt_net.h"
#include "net/mt_net_cfg.h"
#include "net/mt_rate_net.h"
#include "net/mt_switch.h"
#include "mt_test.h"

static mt_flit head(const mt_router_params *p, unsigned type, unsigned vc, unsigned src, unsigned dst) {
  mt_flit f;
  mt_head_info h;
  mt_flit_clear(&f);
  memset(&h, 0, sizeof h);
  h.src = src;
  h.dst = dst;
  h.next = 5; /* next and eject mean nothing to a switch */
  h.eject = 3;
  h.op = mt_ft_is_normal(type) ? 0 : 1;
  mt_hd_pack(&f, &h);
  mt_flit_set_type(&f, p->payload_w, type);
  mt_flit_set_vc(&f, p->payload_w, p->num_vcs, vc);
  return f;
}

/* A switch of 2 network ports (0, 1) and 2 NI ports (2, 3), 4 VCs in 2 hop classes. */
static void switch_params(mt_router_params *p) {
  mt_router_default_params(p);
  p->table = 1;
  p->nnet = 2;
  p->nlocal = 2;
  p->hop_classes = 2;
  p->vc_depth = 4;
  p->ej_depth = 4;
  p->subpkt_flits = 2;
}

static void test_table_route(void) {
  mt_router_params p;
  mt_router r;
  mt_err e;
  switch_params(&p);
  CHECK(mt_router_init(&r, &p, &e) == 0, "init: %s", e.msg);
  uint16_t tab[10] = {0};
  tab[5] = MT_RT_TAB(3, 1); /* node 5 behind NI port 3 */
  tab[7] = MT_RT_TAB(0, 2); /* node 7 over either network port: port src mod 2 */
  CHECK(mt_router_load_table(&r, tab, 10, &e) == 0, "load: %s", e.msg);
  struct {
    unsigned type, src, dst, in_port, in_vc, port;
    uint32_t mask;
  } c[] = {
    {MT_FT_HEAD, 3, 7, 2, 0, 1, 0x3},     /* from an NI: port 0 + 3 mod 2, class 0 (VCs 0, 1) */
    {MT_FT_HEAD, 4, 7, 2, 0, 0, 0x3},     /* another source, the other port of the set */
    {MT_FT_HEAD, 3, 7, 0, 1, 1, 0xc},     /* arrived in class 0 on a network port: class 1 */
    {MT_FT_HEAD, 3, 7, 1, 3, 1, 0xc},     /* arrived in class 1: stays in the last class */
    {MT_FT_HEAD, 3, 5, 0, 2, 3, 0xf},     /* toward an NI: every VC */
    {MT_FT_AR_HEAD, 2, 7, 3, 0, 0, 0x3},  /* all-reduce heads route by destination too */
    {MT_FT_AR_HEAD, 2, 5, 1, 0, 3, 0xf},  /* ... and eject at the destination's NI port */
    {MT_FT_HEADTAIL, 1, 9, 2, 0, 0, 0x3}, /* no entry: port 0, as out-of-range ports */
  };
  for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
    mt_flit f = head(&p, c[k].type, c[k].in_vc, c[k].src, c[k].dst);
    unsigned op;
    uint32_t m;
    int sw;
    mt_router_route(&r, 0, c[k].in_port, c[k].in_vc, &f, &op, &m, &sw);
    CHECK(op == c[k].port && m == c[k].mask && sw == 0, "case %u: port %u mask %#x swap %d, expected %u %#x 0", k, op, m, sw, c[k].port,
          c[k].mask);
  }
  tab[7] = MT_RT_TAB(3, 2); /* ports 3..4: the switch has 0..3 */
  CHECK(mt_router_load_table(&r, tab, 10, &e) == -1 && strstr(e.msg, "entry 7"), "bad entry refused: %s", e.msg);
  mt_router_free(&r);
  /* illegal switches */
  switch_params(&p);
  p.hop_classes = 3;
  CHECK(mt_router_check_params(&p, &e) == -1 && strstr(e.msg, "hop_classes=3"), "hop classes: %s", e.msg);
  switch_params(&p);
  p.nnet = 15;
  CHECK(mt_router_check_params(&p, &e) == -1 && strstr(e.msg, "radix 17"), "radix: %s", e.msg);
  mt_router_default_params(&p);
  CHECK(mt_router_init(&r, &p, &e) == 0, "torus init");
  CHECK(mt_router_load_table(&r, tab, 10, &e) == -1 && strstr(e.msg, "not a switch"), "torus refuses a table: %s", e.msg);
  mt_router_free(&r);
}

/* Cycle rules at an NI port: a one-flit packet leaves 2 cycles after it is presented; the
 * input credit pulse comes with it; the next unit to the same NI port takes another VC
 * (ejection VCs take a unit only when empty) until the credit returns. */
static void test_credits(void) {
  mt_router_params p;
  mt_router r;
  mt_err e;
  static mt_router_in in;
  static mt_router_out out;
  switch_params(&p);
  CHECK(mt_router_init(&r, &p, &e) == 0, "init");
  uint16_t tab[8] = {0};
  tab[5] = MT_RT_TAB(3, 1);
  CHECK(mt_router_load_table(&r, tab, 8, &e) == 0, "load");
  memset(&in, 0, sizeof in);
  in.in_valid[2] = 1; /* from NI port 2, node 1 to node 5 */
  in.in_flit[2] = head(&p, MT_FT_HEADTAIL, 0, 1, 5);
  mt_router_step(&r, &in, &out); /* edge 0: written into input VC (2, 0) */
  CHECK(!out.out_valid[3], "not out after one edge");
  in.in_valid[2] = 1; /* a second packet, another source, input VC 1 */
  in.in_flit[2] = head(&p, MT_FT_HEADTAIL, 1, 2, 5);
  mt_router_step(&r, &in, &out); /* edge 1: the first leaves, the second is written */
  CHECK(out.out_valid[3] && mt_flit_vc(&out.out_flit[3], p.payload_w, p.num_vcs) == 0, "first packet out on port 3 VC 0 at edge 1");
  CHECK(out.in_credit[2][0] == 1 && out.in_credit[2][1] == 0, "its credit pulse on input (2, 0)");
  CHECK(mt_hd_src(&out.out_flit[3]) == 1 && mt_hd_dst(&out.out_flit[3]) == 5, "head intact");
  in.in_valid[2] = 0;
  mt_router_step(&r, &in, &out); /* edge 2: the second leaves on VC 1 (VC 0 not empty) */
  CHECK(out.out_valid[3] && mt_flit_vc(&out.out_flit[3], p.payload_w, p.num_vcs) == 1, "second packet on VC 1");
  CHECK(out.in_credit[2][1] == 1, "credit (2, 1)");
  CHECK(r.cred[3][0] == 3 && r.cred[3][1] == 3, "ejection credits 3, 3 (depth 4): %u %u", r.cred[3][0], r.cred[3][1]);
  in.out_credit[3][0] = 1; /* the NI frees VC 0 */
  mt_router_step(&r, &in, &out);
  CHECK(r.cred[3][0] == 4 && !out.out_valid[3], "credit back: %u", r.cred[3][0]);
  /* a head to node 6 (no entry) leaves on port 0 and raises the sticky no-route flag of its
   * input VC (2, 2) at the edge where it is routed, the same as it leaves the buffer */
  memset(&in, 0, sizeof in);
  in.in_valid[2] = 1;
  in.in_flit[2] = head(&p, MT_FT_HEADTAIL, 2, 1, 6);
  mt_router_step(&r, &in, &out);
  CHECK(!out.rt_err[2][2], "no flag before the head is routed");
  in.in_valid[2] = 0;
  mt_router_step(&r, &in, &out);
  CHECK(out.rt_err[2][2] == 1 && out.out_valid[0] && mt_hd_dst(&out.out_flit[0]) == 6, "no entry: out on port 0, flag (2, 2) up");
  mt_router_step(&r, &in, &out);
  CHECK(out.rt_err[2][2] == 1 && !out.out_valid[0], "the flag is sticky");
  mt_router_free(&r);
}

static void test_tables(void) {
  mt_topo t;
  mt_switch_net w;
  mt_err e;
  /* fattree:4,2: leaf s0..s3 (nodes 4s..4s+3 on ports 4..7), top s4..s7; up port of a
   * leaf toward d is d mod 4 (d-mod-k); two switch hops between leaves */
  CHECK(mt_topo_from_name(&t, "fattree:4,2", &e) == 0, "topo");
  CHECK(mt_switch_build(&w, &t, 4, &e) == 0, "build: %s", e.msg);
  CHECK(w.n_sw == 8 && w.nnet[0] == 4 && w.nloc[0] == 4 && w.nnet[4] == 4 && w.nloc[4] == 0, "ports");
  CHECK(w.ni_sw[5] == 1 && w.ni_port[5] == 5, "node 5 on s1 port 5: s%d port %d", w.ni_sw[5], w.ni_port[5]);
  CHECK(w.tab[0 * 16 + 5] == MT_RT_TAB(1, 1), "s0 toward 5: up port 1 (%#x)", w.tab[5]);
  CHECK(w.tab[0 * 16 + 2] == MT_RT_TAB(6, 1), "s0 toward 2: its NI port 6");
  CHECK(mt_switch_walk(&w, 0, 5) == 2 && mt_switch_walk(&w, 0, 1) == 0, "hops");
  CHECK(w.updown == 1 && w.hop_classes == 1 && w.max_hops == 2, "up/down, no classes");
  /* every top switch carries the traffic to one node per leaf (nodes off s0's leaf) */
  for (int d = 4; d < 16; d++) {
    const int top = 4 + (int)(w.tab[d] & 15u);
    CHECK(top - 4 == d % 4, "d-mod-k: node %d via top %d", d, top);
  }
  mt_switch_free(&w);
  mt_topo_free(&t);
  /* dgx2: 8 parallel links (ports 0..7), a source's choice src mod 8 */
  CHECK(mt_topo_from_name(&t, "dgx2", &e) == 0, "dgx2");
  CHECK(mt_switch_build(&w, &t, 4, &e) == 0, "build: %s", e.msg);
  CHECK(w.nl == 16 && w.nnet[0] == 8 && w.nloc[0] == 8, "16 directed physical links");
  CHECK(w.tab[9] == MT_RT_TAB(0, 8), "s0 toward 9: the set of 8 ports (%#x)", w.tab[9]);
  CHECK(w.hop_classes == 1 && w.max_hops == 1, "one switch hop");
  mt_switch_free(&w);
  mt_topo_free(&t);
  /* bigraph:4x8: two switch hops within a group, two hop classes */
  CHECK(mt_topo_from_name(&t, "bigraph:4x8", &e) == 0, "bigraph");
  CHECK(mt_switch_build(&w, &t, 4, &e) == 0, "build: %s", e.msg);
  CHECK(w.hop_classes == 2 && w.max_hops == 2 && !w.updown, "hop classes 2");
  CHECK(mt_switch_walk(&w, 0, 4) == 2 && mt_switch_walk(&w, 0, 16) == 1, "upper to upper 2 hops, upper to lower 1");
  mt_switch_free(&w);
  CHECK(mt_switch_build(&w, &t, 3, &e) == -1 && strstr(e.msg, "num_vcs=3"), "odd VCs refused: %s", e.msg);
  mt_topo_free(&t);
  /* refused topologies */
  CHECK(mt_topo_from_name(&t, "fattree:16,2", &e) == 0, "fattree 16");
  CHECK(mt_switch_build(&w, &t, 4, &e) == -1 && strstr(e.msg, "32 ports"), "radix 32 refused: %s", e.msg);
  mt_topo_free(&t);
  static const int direct[][3] = {{0, 1, 1}, {0, 2, 1}, {1, 2, 1}};
  CHECK(mt_topo_from_links(&t, "file:direct", 2, 1, 3, direct, &e) == 0, "file topo");
  CHECK(mt_switch_build(&w, &t, 4, &e) == -1 && strstr(e.msg, "end node 0 has 2 links"), "node-node link refused: %s", e.msg);
  mt_topo_free(&t);
}

/* A whole all-reduce on fattree:4,2 (small configuration), then the same with one table entry
 * perturbed: leaf s1 sends node 5's units to node 4's NI. */
static void test_net_perturbed(void) {
  for (int perturb = 0; perturb < 2; perturb++) {
    mt_topo t;
    mt_sched s;
    mt_tables tb;
    mt_err e;
    mt_net_cfg c;
    mt_net_result r;
    mt_net_cfg_small(&c);
    CHECK(mt_topo_from_name(&t, "fattree:4,2", &e) == 0 && mt_plan(&s, &t, "multitree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0,
          "plan: %s", e.msg);
    mt_net *n = mt_net_new(&c, &s, &tb, 0, &e);
    CHECK(n != NULL, "net: %s", e.msg);
    if (n) {
      if (perturb) CHECK(mt_net_set_route(n, 1, 5, MT_RT_TAB(4, 1), &e) == 0, "perturb: %s", e.msg);
      int rc = mt_net_start(n, 1, &e) || mt_net_run(n, &r, NULL, &e);
      const int ok = !rc && r.done && r.correct && r.err_node < 0 && !r.router_err;
      if (!perturb) CHECK(ok, "fattree:4,2 multitree 4 KiB correct (%llu cycles)", (unsigned long long)r.cycles);
      else
        CHECK(!ok, "perturbed entry caught: rc %d done %d correct %d NI error %d (node %d) router flag %d", rc, r.done, r.correct, r.err_code,
              r.err_node, r.router_err);
      printf("fattree:4,2 multitree 4 KiB small%s: %llu cycles, done %d correct %d, NI error %d at node %d\n", perturb ? ", s1 entry 5 -> port 4" : "",
             (unsigned long long)r.cycles, r.done, r.correct, r.err_code, r.err_node);
    }
    mt_net_free(n);
    mt_tables_free(&tb);
    mt_sched_free(&s);
    mt_topo_free(&t);
  }
}

/* The rates of a switch network's links (net/mt_rate_net.h, docs/reference/network.md "Link rate
 * and latency"): hier:4+4@16:500,@2:5000 with 16-byte flits runs at 1 GHz, the learners'
 * links period 1 and 500 cycles, the top links period 8 and 5000; without ns a link takes
 * link_lat; unrated topologies have no rates; ratios that are not whole, slow learner links
 * and latencies past the link's maximum are refused. */
static void test_rates(void) {
  mt_net_cfg c;
  mt_topo t;
  mt_err e;
  unsigned per, lat;
  CHECK(mt_net_cfg_by_name(&c, "small", &e) == 0, "small: %s", e.msg);
  CHECK(mt_topo_from_name(&t, "hier:4+4@16:500,@2:5000", &e) == 0, "topo");
  CHECK(mt_rate_net_has(&t) && mt_rate_net_ghz(&t, &c) == 1.0, "rated, 1 GHz: %g", mt_rate_net_ghz(&t, &c));
  CHECK(mt_rate_net_check(&t, &c, &e) == 0, "check: %s", e.msg);
  for (int k = 0; k < t.n_links; k++) {
    const int top = mt_is_switch(&t, t.links[k].src) && mt_is_switch(&t, t.links[k].dst);
    mt_rate_net_link(&t, &c, k, &per, &lat);
    CHECK(per == (top ? 8u : 1u) && lat == (top ? 5000u : 500u), "link %d: period %u latency %u", k, per, lat);
  }
  mt_net_cfg m = c;
  char d[256];
  CHECK(mt_rate_net_map(&t, &m, d, sizeof d, &e) == 0 && m.clock_ghz == 1.0 && strstr(d, "2 GB/s 5000 ns -> period 8, latency 5000"), "map: %s", d);
  mt_topo_free(&t);
  CHECK(mt_topo_from_name(&t, "hier:4+4@32,@4", &e) == 0, "topo");
  mt_rate_net_link(&t, &c, t.n_links - 1, &per, &lat);
  CHECK(mt_rate_net_ghz(&t, &c) == 2.0 && per == 8u && lat == c.link_lat, "no ns: link_lat (%u, %u)", per, lat);
  mt_topo_free(&t);
  CHECK(mt_topo_from_name(&t, "hier:4+4,2", &e) == 0, "topo");
  mt_rate_net_link(&t, &c, 0, &per, &lat);
  CHECK(!mt_rate_net_has(&t) && mt_rate_net_ghz(&t, &c) == 0 && per == 1u && lat == c.link_lat, "unrated");
  mt_topo_free(&t);
  static const struct {
    const char *spec, *why;
  } bad[] = {{"hier:4+4@16,@1.25", "1/12.8 of the fastest"},
             {"hier:4+4@2,@16", "must be the fastest"},
             {"hier:4+4@16,@2:2000000", "a link holds at most 1000000"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(mt_topo_from_name(&t, bad[i].spec, &e) == 0, "topo %s", bad[i].spec);
    e.msg[0] = 0;
    CHECK(mt_rate_net_check(&t, &c, &e) != 0 && strstr(e.msg, bad[i].why), "%s: '%s'", bad[i].spec, e.msg);
    mt_topo_free(&t);
  }
}

int main(void) {
  test_rates();
  test_table_route();
  test_credits();
  test_tables();
  test_net_perturbed();
  return MT_TEST_END("switch");
}
