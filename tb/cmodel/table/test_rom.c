/* SPDX-License-Identifier: Apache-2.0
 * test_rom: every ROM format and both layouts round-trip to identical tables; the bit
 * layout puts fields where layout.json says; damaged images are refused. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "table/mt_layout.h"
#include "table/mt_rom.h"
#include "plan/mt_sched.h"
#include "mt_test.h"

static int same_tables(const mt_tables *a, const mt_tables *b) {
  if (a->n_nodes != b->n_nodes) return 0;
  for (int n = 0; n < a->n_nodes; n++) {
    if (a->count[n] != b->count[n]) return 0;
    const mt_entry *x = mt_node_entries(a, n), *y = mt_node_entries(b, n);
    for (int i = 0; i < a->count[n]; i++) {
      if (x[i].op != y[i].op || x[i].step != y[i].step || x[i].addr != y[i].addr || x[i].size != y[i].size) return 0;
      if (x[i].op == MT_OP_NOP) continue;
      if (x[i].flow != y[i].flow || x[i].has_parent != y[i].has_parent || x[i].nchild != y[i].nchild) return 0;
      if (x[i].has_parent && (x[i].parent.node != y[i].parent.node || x[i].parent.port != y[i].parent.port || x[i].parent.eject != y[i].parent.eject)) return 0;
      for (int c = 0; c < x[i].nchild; c++)
        if (x[i].child[c].node != y[i].child[c].node || x[i].child[c].port != y[i].child[c].port || x[i].child[c].eject != y[i].child[c].eject) return 0;
    }
  }
  return 1;
}

static void roundtrip(const char *topo, const char *algo, uint64_t bytes, int compact) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, topo, &e) == 0, "%s", e.msg);
  CHECK(mt_plan(&s, &t, algo, bytes, 4, &e) == 0, "%s", e.msg);
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  int rc = mt_layout_for(&s, &tb, compact, &ly, &e);
  CHECK(rc == 0, "%s %s compact=%d: %s", topo, algo, compact, e.msg);
  for (int f = 0; rc == 0 && f < MT_ROM_NFORMATS; f++) {
    char dir[256];
    snprintf(dir, sizeof dir, "build/test_rom/%s_%s_%s_%s", algo, topo + 0, compact ? "compact" : "full", mt_rom_format_name(f));
    for (char *p = dir + 15; *p; p++)
      if (*p == ':' || *p == ',') *p = '_';
    mkdir("build", 0777);
    mkdir("build/test_rom", 0777);
    if (f == MT_ROM_MEM && ly.width > 256) {
      CHECK(mt_rom_write_dir(&s, &tb, &ly, f, dir, &e) != 0 && strstr(e.msg, "256"), "mem must refuse %d-bit words", ly.width);
      continue;
    }
    CHECK(mt_rom_write_dir(&s, &tb, &ly, f, dir, &e) == 0, "%s: %s", dir, e.msg);
    mt_topo t2;
    mt_layout ly2;
    mt_tables tb2;
    int r2 = mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e);
    CHECK(r2 == 0, "%s: %s", dir, e.msg);
    if (r2) continue;
    CHECK(ly2.width == ly.width, "%s: width %d vs %d", dir, ly2.width, ly.width);
    CHECK(same_tables(&tb, &tb2), "%s: decoded tables differ", dir);
    mt_tables_free(&tb2);
    mt_topo_free(&t2);
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* Field placement, by hand: mesh:2x2, 1024 bytes, full layout. N=4: flow 2 bits, step
 * bits(2N-2=6)=3, id 2, ports 4 -> port 3 bits, L=4 -> eject 2 bits, slot 1+2+3+2=8,
 * C=2 children, addr bits(1023)=10, size bits(1024)=11: 2+2+3+8+16+10+11 = 52 bits.
 * Node 0's first entry reduce(3, parent 1 via port 0, eject 1, step 1, addr 768, size 256). */
static void test_fields(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, "mesh:2x2", &e) == 0 && mt_plan(&s, &t, "multitree", 1024, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly, &e) == 0, "%s", e.msg);
  CHECK(ly.width == 52, "width %d, want 52", ly.width);
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  mt_layout_encode(&ly, mt_node_entries(&tb, 0), w);
  uint64_t want = 1ull /* op reduce, bits 0-1 */
    | 3ull << 2        /* flow 3, bits 2-3 */
    | 1ull << 4        /* step 1, bits 4-6 */
    | 1ull << 7        /* parent valid, bit 7 */
    | 1ull << 8        /* parent node 1, bits 8-9 */
    | 0ull << 10       /* parent port 0 (+X), bits 10-12 */
    | 1ull << 13       /* parent eject 1 (node 1's -X input), bits 13-14 */
                       /* 2 child slots empty, bits 15-30 */
    | 768ull << 31     /* addr, bits 31-40 */
    | 256ull << 41;    /* size, bits 41-51 */
  CHECK(w[0] == want, "word %016llx want %016llx", (unsigned long long)w[0], (unsigned long long)want);
  mt_layout_encode(&ly, NULL, w);
  CHECK(w[0] == 3, "END word %llx", (unsigned long long)w[0]);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

static void test_damaged(void) {
  /* a truncated image must be refused (it would load as X in simulation) */
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, "torus:4x4", &e) == 0 && mt_plan(&s, &t, "multitree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly, &e) == 0, "%s", e.msg);
  mkdir("build", 0777);
  mkdir("build/test_rom", 0777);
  const char *dir = "build/test_rom/damaged";
  CHECK(mt_rom_write_dir(&s, &tb, &ly, MT_ROM_HEX, dir, &e) == 0, "%s", e.msg);
  FILE *f = fopen("build/test_rom/damaged/node3.hex", "r+");
  CHECK(f != NULL, "open node3.hex");
  if (f) {
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fclose(f);
    CHECK(truncate("build/test_rom/damaged/node3.hex", len / 2) == 0, "truncate");
  }
  mt_topo t2;
  mt_layout ly2;
  mt_tables tb2;
  CHECK(mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e) != 0 && strstr(e.msg, "node3.hex"), "truncated image accepted: %s", e.msg);
  /* compact layout refuses routed (multi-hop) schedules and switch networks */
  mt_tables_free(&tb);
  mt_sched_free(&s);
  CHECK(mt_plan(&s, &t, "dbtree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 1, &ly, &e) != 0 && strstr(e.msg, "one-hop"), "compact dbtree accepted: %s", e.msg);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

int main(void) {
  roundtrip("mesh:2x2", "multitree", 1024, 0);
  roundtrip("mesh:2x2", "multitree", 1024, 1);
  roundtrip("torus:4x4", "multitree", 65536 + 12, 0);
  roundtrip("torus:4x4", "multitree", 65536 + 12, 1);
  roundtrip("mesh:3x5", "multitree", 12000, 1);
  roundtrip("mesh:3x5", "ring", 12000, 0); /* routed closing hop */
  roundtrip("torus:8x8", "multitree", 1 << 20, 1);
  roundtrip("fattree:4,2", "multitree", 4096, 0);
  roundtrip("torus:4x4", "dbtree", 4096, 0);
  test_fields();
  test_damaged();
  return MT_TEST_END("test_rom");
}
