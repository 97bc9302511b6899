/* SPDX-License-Identifier: Apache-2.0
 * test_mdtopo: multi-dimensional topologies (topo/mt_mdtopo): the spec string and the
 * ASTRA-sim style files with bad inputs (each error names its file, line, key and what is
 * allowed), the six Themis Table 2 presets' sizes and link counts worked out by hand, and
 * the graph of a small 2-D system against a hand-written link list. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "topo/mt_mdtopo.h"
#include "mt_test.h"

static char tmpdir[] = "/tmp/test_mdtopo.XXXXXX";

static const char *write_file(const char *name, const char *text) {
  static char path[4][256];
  static int k;
  char *p = path[k++ % 4];
  snprintf(p, 256, "%s/%s", tmpdir, name);
  FILE *f = fopen(p, "w");
  fputs(text, f);
  fclose(f);
  return p;
}

/* name must be refused with every one of the substrings (up to 3) in its message */
static void expect_fail(const char *name, const char *s1, const char *s2, const char *s3) {
  mt_topo t;
  mt_err e = {{0}};
  int rc = mt_topo_from_name(&t, name, &e);
  CHECK(rc != 0, "'%s' accepted", name);
  if (rc == 0) {
    mt_topo_free(&t);
    return;
  }
  const char *want[3] = {s1, s2, s3};
  for (int i = 0; i < 3; i++)
    if (want[i]) CHECK(strstr(e.msg, want[i]) != NULL, "'%s': message '%s' lacks '%s'", name, e.msg, want[i]);
}

static void test_spec_errors(void) {
  expect_fail("dims:", "no dimensions", "KIND SIZE", NULL);
  expect_fail("dims:torus4@1x2", "dimension 1 'torus4@1x2'", "unknown kind", "ring, fc or sw");
  expect_fail("dims:ring4@100x2,sw", "dimension 2 'sw'", "expected a size 2..4096", NULL);
  expect_fail("dims:ring4@x2", "expected a bandwidth in GB/s", NULL, NULL);
  expect_fail("dims:ring4@-1x2", "expected a bandwidth", NULL, NULL);
  expect_fail("dims:ring4@1e3x2", "unexpected 'e'", NULL, NULL);
  expect_fail("dims:ring4@0x10x2", "unexpected 'x'", NULL, NULL); /* no hex */
  expect_fail("dims:ring4@nanx2", "expected a bandwidth", NULL, NULL);
  expect_fail("dims:ring4@10x", "links per NPU 1..1024", NULL, NULL);
  expect_fail("dims:ring4@10x0", "0 links per NPU; allowed 1..1024", NULL, NULL);
  expect_fail("dims:ring4@10x3", "dimension 1 (ring4): 3 links per NPU", "1 (one direction) or an even number", NULL);
  expect_fail("dims:fc4@10x4", "dimension 1 (fc4): 4 links", "multiple of 3", NULL);
  expect_fail("dims:ring1@10x2", "dimension 1 (ring): size 1; allowed 2..4096", NULL, NULL);
  expect_fail("dims:ring4@10x2:", "expected a latency in ns after ':'", NULL, NULL);
  expect_fail("dims:ring4@10x2:5us", "unexpected 'u'", NULL, NULL);
  expect_fail("dims:ring4@10x2,,sw2", "dimension 2 is empty", "allowed KIND SIZE", NULL);
  expect_fail("dims:ring4@10x2,", "dimension 2 is empty", NULL, NULL);
  expect_fail("dims:ring4@10x2,sw2", "dimension 1 (ring4) has 10 GB/s but dimension 2 (sw2) has no bandwidth", "on every dimension", "or on none");
  expect_fail("dims:ring4,sw2@5:700", "dimension 2 (sw2) has 5 GB/s but dimension 1 (ring4) has no bandwidth", NULL, NULL);
  expect_fail("dims:ring4@10x2,sw2@0", "dimension 2 (sw2) has no bandwidth", NULL, NULL);
  expect_fail("dims:sw64,sw64,sw2", "more than 4096 NPUs", NULL, NULL);
  expect_fail("dims:ring2,ring2,ring2,ring2,ring2,ring2,ring2,ring2,ring2", "more than 8 dimensions", NULL, NULL);
  expect_fail("themis:3d-sw-sw", "unknown preset", "3d-sw-sw-sw-hetero", "4d-ring-fc-ring-sw");
}

/* a spec: its dimensions as given, and the defaults */
static void test_spec_values(void) {
  mt_dims md;
  mt_err e = {{0}};
  CHECK(mt_dims_parse_spec(&md, "ring4@1000x2,sw8@200.5x4:700ns,fc8@5:20,ring2@1", &e) == 0, "%s", e.msg);
  CHECK(md.D == 4, "D %d", md.D);
  CHECK(md.d[0].kind == MT_DIM_RING && md.d[0].size == 4 && md.d[0].bw == 1000 && md.d[0].links == 2 && md.d[0].lat == 0, "dim 1");
  CHECK(md.d[1].kind == MT_DIM_SW && md.d[1].size == 8 && md.d[1].bw == 200.5 && md.d[1].links == 4 && md.d[1].lat == 700, "dim 2");
  CHECK(md.d[2].kind == MT_DIM_FC && md.d[2].links == 7 && md.d[2].bw == 5 && md.d[2].lat == 20, "dim 3: default links 7");
  CHECK(md.d[3].kind == MT_DIM_RING && md.d[3].links == 2, "dim 4: default links 2");
  /* no bandwidth anywhere: 0 ("not given"), a latency still read */
  CHECK(mt_dims_parse_spec(&md, "fc8:20,ring2", &e) == 0, "%s", e.msg);
  CHECK(md.D == 2 && md.d[0].bw == 0 && md.d[0].lat == 20 && md.d[0].links == 7 && md.d[1].bw == 0, "unrated spec");
}

static int same_dims(const mt_dims *a, const mt_dims *b) {
  if (a->D != b->D) return 0;
  for (int d = 0; d < a->D; d++)
    if (a->d[d].kind != b->d[d].kind || a->d[d].size != b->d[d].size || a->d[d].links != b->d[d].links || a->d[d].bw != b->d[d].bw ||
        a->d[d].lat != b->d[d].lat)
      return 0;
  return 1;
}

static void expect_file_fail(const char *name, const char *text, const char *s1, const char *s2, const char *s3) {
  const char *p = write_file(name, text);
  char spec[300];
  snprintf(spec, sizeof spec, "dimsfile:%s", p);
  expect_fail(spec, s1, s2, s3);
}

static void test_files(void) {
  mt_dims want, got;
  mt_err e = {{0}};
  CHECK(mt_dims_parse_spec(&want, "ring2@200x2:50ns,fc8@100x7:500ns,sw4@50.5x1:2000ns", &e) == 0, "%s", e.msg);
  /* ASTRA-sim's JSON form, with keys it has that this layer ignores */
  const char *js = write_file("a.json", "{\n  \"topology-name\": \"Hierarchical\", \"dimensions-count\": 3,\n"
                                        "  \"topologies-per-dim\": [\"Ring\", \"FullyConnected\", \"Switch\"],\n"
                                        "  \"dimension-type\": [\"N\", \"N\", \"N\"], \"units-count\": [2, 8, 4],\n"
                                        "  \"links-count\": [2, 7, 1], \"link-latency\": [50, 500, 2000],\n"
                                        "  \"link-bandwidth\": [200, 100.0, 50.5], \"nic-latency\": [0, 0, 0]\n}\n");
  CHECK(mt_dims_read_file(&got, js, &e) == 0, "%s", e.msg);
  CHECK(same_dims(&got, &want), "JSON file differs from the spec");
  /* the YAML subset, with the newer ASTRA-sim key names and comments */
  const char *ym = write_file("a.yml", "# 3-D\ntopology: [ Ring, FullyConnected, Switch ]  # kinds\nnpus_count: [2, 8, 4]\n"
                                       "links-count: [2, 7, 1]\n\nbandwidth: [200.0, 100, 50.5]   # GB/s\nlatency: [ 50, 500, 2000 ]\n");
  CHECK(mt_dims_read_file(&got, ym, &e) == 0, "%s", e.msg);
  CHECK(same_dims(&got, &want), "YAML file differs from the spec");
  /* links-count omitted: the defaults of each kind */
  const char *yd = write_file("d.yml", "topologies-per-dim: [Ring, Switch]\nunits-count: [4, 2]\nlink-bandwidth: [1, 1]\nlink-latency: [0, 0]\n");
  CHECK(mt_dims_read_file(&got, yd, &e) == 0 && got.d[0].links == 2 && got.d[1].links == 1, "defaults: %s", e.msg);

  expect_file_fail("b1.yml", "topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwith: [1, 1]\n", "b1.yml:3: unknown key 'bandwith'",
                   "allowed: topologies-per-dim", NULL);
  expect_file_fail("b2.yml", "topology: [Ring, Switch]\nnpus_count: [4, 2, 2]\nbandwidth: [1, 1]\nlatency: [1, 1]\n",
                   "b2.yml:2: key 'units-count': 3 values", "b2.yml:1: key 'topologies-per-dim' has 2", NULL);
  expect_file_fail("b3.yml", "topology: [Ring, Torus]\nnpus_count: [4, 2]\nbandwidth: [1, 1]\nlatency: [1, 1]\n",
                   "b3.yml:1: key 'topologies-per-dim': value 2 'Torus'", "allowed Ring, FullyConnected, Switch", NULL);
  expect_file_fail("b4.yml", "topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [1, fast]\nlatency: [1, 1]\n",
                   "b4.yml:3: key 'link-bandwidth': value 2 (a bandwidth in GB/s): 'fast': not a number", "GB/s", NULL);
  expect_file_fail("b5.yml", "topology: [Ring, Switch]\nnpus_count: [4, 2]\nbandwidth: [1, 1]\n", "missing key 'link-latency'", NULL, NULL);
  expect_file_fail("b6.yml", "topology: [Ring, Switch]\nnpus_count:\n  - 4\n  - 2\n", "b6.yml:2: key 'units-count' has no value", NULL, NULL);
  expect_file_fail("b7.yml", "topology: [Ring, Switch\n", "b7.yml:1: key 'topologies-per-dim': a list must close", NULL, NULL);
  expect_file_fail("b8.yml", "topology: [Ring, Switch]\nnpus_count: [4, 2]\nlinks-count: [3, 1]\nbandwidth: [1, 1]\nlatency: [1, 1]\n",
                   "b8.yml:3: key 'links-count'", "dimension 1 (ring4): 3 links per NPU", NULL);
  expect_file_fail("b9.yml", "topology: [Ring, Switch]\ntopology: [Ring]\n", "b9.yml:2: key 'topologies-per-dim' given twice (first on line 1)", NULL,
                   NULL);
  expect_file_fail("b10.yml", "topology: [Ring, Switch]\nnpus_count: [4, 1]\nbandwidth: [1, 1]\nlatency: [1, -1]\n",
                   "b10.yml:2: key 'units-count': value 2: '1': out of range; expected a whole number 2..4096", NULL, NULL);
  expect_file_fail("b11.yml", "topology Ring\n", "b11.yml:1: expected 'key: [a, b, ...]'", NULL, NULL);
  expect_file_fail("b12.yml", "topology: Ring\nnpus_count: [4]\nbandwidth: [1]\nlatency: [1]\n", "b12.yml:1: key 'topologies-per-dim'",
                   "expected a list", NULL);
  expect_file_fail("b1.json", "{\"topologies-per-dim\": [\"Ring\"],\n \"units-count\": [4],\n \"link-bandwidth\": [1],\n \"link-latency\": [1],,}\n",
                   "b1.json:4: not valid JSON", NULL, NULL);
  expect_file_fail("b2.json", "{\"topologies-per-dim\": [\"Ring\"], \"units-count\": [4], \"link-bandwidth\": [1], \"link-latency\": [-5]}",
                   "b2.json: key 'link-latency': value 1 (a latency in ns): '-5': a sign", "expected a number 0..", NULL);
  expect_file_fail("b3.json", "{\"topologies-per-dim\": [\"Ring\"], \"units-count\": [4], \"link-bandwidth\": [1], \"link-latency\": [5], \"hops\": 3}",
                   "b3.json: unknown key 'hops'", NULL, NULL);
  expect_file_fail("b4.json",
                   "{\"topologies-per-dim\": [\"Ring\"], \"units-count\": [4], \"link-bandwidth\": [1], \"link-latency\": [5], \"dimensions-count\": 2}",
                   "key 'dimensions-count': '2' is not the number of dimensions the lists give (1)", NULL, NULL);
  expect_file_fail("b5.json", "{\"topologies-per-dim\": [\"Ring\"], \"units-count\": [4], \"link-bandwidth\": [1], \"link-latency\": [5], \"topology\": [\"Ring\"]}",
                   "given twice", NULL, NULL);
  expect_fail("dimsfile:/nonexistent/x.yml", "/nonexistent/x.yml: cannot open", NULL, NULL);
}

/* Table 2 as the paper prints it (BW in Gb/s), and the graph's counts worked out by hand:
 * undirected links = sum over dimensions of N (ring > 2, switch) or N (k-1)/2 (FC). */
static void test_presets(void) {
  static const struct {
    const char *name;
    int D, size[4], links[4], gbit[4], ns[4], sw, ulinks;
  } T[] = {
    {"2d-sw-sw", 2, {16, 64}, {6, 1}, {200, 800}, {700, 1700}, 64 + 16, 1024 + 1024},
    {"3d-sw-sw-sw-homo", 3, {16, 8, 8}, {4, 4, 1}, {200, 200, 800}, {700, 700, 1700}, 64 + 128 + 128, 3 * 1024},
    {"3d-sw-sw-sw-hetero", 3, {16, 8, 8}, {8, 4, 1}, {200, 200, 400}, {700, 700, 1700}, 64 + 128 + 128, 3 * 1024},
    {"3d-fc-ring-sw", 3, {8, 16, 8}, {7, 4, 1}, {200, 200, 400}, {700, 700, 1700}, 128, 3584 + 1024 + 1024},
    {"4d-ring-sw-sw-sw", 4, {4, 4, 8, 8}, {2, 8, 4, 1}, {1000, 200, 200, 400}, {20, 700, 700, 1700}, 256 + 128 + 128, 4 * 1024},
    {"4d-ring-fc-ring-sw", 4, {4, 8, 4, 8}, {2, 7, 6, 1}, {1500, 200, 200, 800}, {20, 700, 700, 1700}, 128, 1024 + 3584 + 1024 + 1024},
  };
  CHECK(mt_themis_n_presets == 6, "%d presets", mt_themis_n_presets);
  for (int i = 0; i < 6; i++) {
    char name[64];
    snprintf(name, sizeof name, "themis:%s", T[i].name);
    mt_topo t;
    mt_err e = {{0}};
    CHECK(mt_topo_from_name(&t, name, &e) == 0, "%s", e.msg);
    if (!t.n_nodes) continue;
    CHECK(t.n_nodes == 1024 && t.kind == MT_TOPO_DIMS && t.md.D == T[i].D, "%s: %d nodes, D %d", name, t.n_nodes, t.md.D);
    CHECK(t.n_sw == T[i].sw, "%s: %d switches, want %d", name, t.n_sw, T[i].sw);
    CHECK(t.n_links == 2 * T[i].ulinks, "%s: %d directed links, want %d", name, t.n_links, 2 * T[i].ulinks);
    for (int d = 0; d < T[i].D && d < t.md.D; d++) {
      const mt_dimspec *s = &t.md.d[d];
      CHECK(s->size == T[i].size[d] && s->links == T[i].links[d] && s->bw == T[i].gbit[d] / 8.0 && s->lat == T[i].ns[d],
            "%s dim %d: %d x%d %g GB/s %g ns", name, d + 1, s->size, s->links, s->bw, s->lat);
    }
    /* every NPU: in each dimension, parallel links out = links per NPU (a 2-ring excepted: none here),
     * each link with its dimension's bandwidth and latency */
    int bad = 0;
    for (int v = 0; v < t.n_nodes; v++) {
      int out[8] = {0};
      for (int k = t.out_start[v]; k < t.out_start[v + 1]; k++) {
        const mt_edge *l = &t.links[t.out_list[k]];
        if (l->dim < 0 || l->dim >= t.md.D || l->bw != t.md.d[l->dim].bw || l->lat != t.md.d[l->dim].lat) bad++;
        else out[l->dim] += l->mult;
      }
      for (int d = 0; d < t.md.D; d++) bad += out[d] != t.md.d[d].links;
    }
    CHECK(bad == 0, "%s: %d NPU/dimension link counts or attributes wrong", name, bad);
    mt_topo_free(&t);
  }
}

/* dims:ring4@100x1,ring2@50x1: NPU x + 4y; the 4-rings along x (mult 1, 100 GB/s), the
 * 2-rings one link each (mult 1, 50 GB/s). Every physical link in both directions. */
static void test_graph_by_hand(void) {
  static const int want[][4] = {/* a, b, dim, bw */
                                {0, 1, 0, 100},
                                {1, 2, 0, 100},
                                {2, 3, 0, 100},
                                {3, 0, 0, 100},
                                {4, 5, 0, 100},
                                {5, 6, 0, 100},
                                {6, 7, 0, 100},
                                {7, 4, 0, 100},
                                {0, 4, 1, 50},
                                {1, 5, 1, 50},
                                {2, 6, 1, 50},
                                {3, 7, 1, 50}};
  const int W = (int)(sizeof want / sizeof want[0]);
  mt_topo t;
  mt_err e = {{0}};
  CHECK(mt_topo_from_name(&t, "dims:ring4@100x1,ring2@50x1", &e) == 0, "%s", e.msg);
  CHECK(t.n_nodes == 8 && t.n_sw == 0 && t.n_links == 2 * W, "%d nodes %d switches %d links", t.n_nodes, t.n_sw, t.n_links);
  int *hit = calloc((size_t)W, sizeof(int));
  for (int i = 0; i < t.n_links; i++) {
    const mt_edge *l = &t.links[i];
    int found = 0;
    for (int j = 0; j < W; j++)
      if (((l->src == want[j][0] && l->dst == want[j][1]) || (l->src == want[j][1] && l->dst == want[j][0])) && l->mult == 1 &&
          l->dim == want[j][2] && l->bw == want[j][3]) {
        hit[j]++;
        found = 1;
      }
    CHECK(found, "link %d: %d->%d x%d dim %d %g GB/s is not in the hand-written list", i, l->src, l->dst, l->mult, l->dim, l->bw);
    CHECK(t.links[t.rev_link[i]].src == l->dst && t.links[t.rev_link[i]].dst == l->src, "link %d: reverse", i);
  }
  for (int j = 0; j < W; j++) CHECK(hit[j] == 2, "link %d-%d: %d directions, want 2", want[j][0], want[j][1], hit[j]);
  free(hit);
  mt_topo_free(&t);
  /* a 2-ring of 2 links per NPU: one link, multiplicity 2; FC 4 with 6 links: multiplicity 2 */
  CHECK(mt_topo_from_name(&t, "dims:ring2@1x2,fc4@1x6,sw2@1", &e) == 0, "%s", e.msg);
  CHECK(t.n_nodes == 16 && t.n_sw == 8 && t.n_links == 2 * (8 + 16 * 3 / 2 + 16), "%d nodes %d sw %d links", t.n_nodes, t.n_sw, t.n_links);
  for (int i = 0; i < t.n_links; i++)
    CHECK(t.links[i].mult == (t.links[i].dim == 2 ? 1 : 2), "link %d dim %d mult %d", i, t.links[i].dim, t.links[i].mult);
  /* switch vertex of NPU 5 (coordinates 1, 1, 0) in dimension 3: the third switch dimension's group (1,1) */
  CHECK(mt_dims_switch_of(&t.md, 5, 2) == 16 + 5, "switch of 5: %d", mt_dims_switch_of(&t.md, 5, 2));
  CHECK(mt_topo_find_link(&t, 5, 16 + 5) >= 0 && mt_topo_find_link(&t, 13, 16 + 5) >= 0, "NPUs 5 and 13 on switch 21");
  mt_topo_free(&t);
}

int main(void) {
  if (!mkdtemp(tmpdir)) return 2;
  test_spec_errors();
  test_spec_values();
  test_files();
  test_presets();
  test_graph_by_hand();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd)) fprintf(stderr, "could not remove %s\n", tmpdir);
  return MT_TEST_END("mdtopo");
}
