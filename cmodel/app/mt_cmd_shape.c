/* SPDX-License-Identifier: Apache-2.0
 * `multitree shape`: hardware shapes as files (configs/{net,router,ni}/NAME.cfg,
 * cmodel/net/mt_net_cfg.h) turned into what each tool takes, so the file is the one source:
 *   --keys           every key: where it may appear, C field, RTL parameter, allowed range
 *   --gflags FILE    Verilator -G flags (keys with an RTL parameter), in file order
 *   --cflags FILE    the harness macros -DCFG_NAME=\"NAME\" -DCFG_<KEY>=value (every key),
 *                    quoted for a Verilator -CFLAGS "..." argument
 *   --chparam FILE   Yosys `chparam` arguments: -set Param value ...
 *   --check FILE     parse only: exit 0 if the file is valid
 * Errors name the file, the line and the key, and what is allowed; exit 2. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "app/mt_app.h"
#include "net/mt_net_cfg.h"

static void shape_usage(FILE *f) {
  fprintf(f, "multitree shape --keys | --gflags FILE | --cflags FILE | --chparam FILE | --check FILE\n"
             "  Hardware shapes as files (configs/{net,router,ni}/NAME.cfg: key = value lines, # comments,\n"
             "  base = NAME to start from NAME.cfg of the same folder, else the built-in NAME): the keys, or a\n"
             "  file's flags.\n");
}

int mt_app_shape(int argc, char **argv) {
  int nk;
  const mt_cfg_key *k = mt_cfg_keys(&nk);
  if (argc == 2 && !strcmp(argv[1], "--keys")) {
    printf("# key           where        RTL parameter  allowed             C field: what\n");
    for (int i = 0; i < nk; i++) {
      char where[16], range[48];
      snprintf(where, sizeof where, "%s%s%s", k[i].scope & MT_KEY_NET ? "net," : "", k[i].scope & MT_KEY_ROUTER ? "router," : "",
               k[i].scope & MT_KEY_NI ? "ni," : "");
      where[strlen(where) - 1] = 0;
      if (k[i].real) snprintf(range, sizeof range, "%g..%g", k[i].min, k[i].max);
      else snprintf(range, sizeof range, "%.0f..%.0f", k[i].min, k[i].max);
      printf("%-15s %-12s %-14s %-19s %s: %s\n", k[i].key, where, k[i].rtl ? k[i].rtl : "-", range, k[i].c_field, k[i].what);
    }
    return 0;
  }
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    shape_usage(stdout);
    return 0;
  }
  if (argc != 3 || (strcmp(argv[1], "--gflags") && strcmp(argv[1], "--cflags") && strcmp(argv[1], "--chparam") && strcmp(argv[1], "--check"))) {
    shape_usage(stderr);
    return 2;
  }
  mt_shape s;
  mt_err e;
  if (mt_shape_load(&s, argv[2], MT_KEY_ANY, &e)) {
    fprintf(stderr, "multitree shape: %s\n", e.msg);
    return 2;
  }
  const char *what = argv[1];
  if (!strcmp(what, "--check")) return 0;
  if (!strcmp(what, "--cflags")) printf("-DCFG_NAME=\\\"%s\\\"", s.name);
  int sp = !strcmp(what, "--cflags");
  for (int i = 0; i < s.n; i++) {
    const mt_cfg_key *q = &k[s.kv[i].key];
    const double v = s.kv[i].v;
    char val[40];
    if (q->real) snprintf(val, sizeof val, "%.17g", v);
    else snprintf(val, sizeof val, "%.0f", v);
    if (!strcmp(what, "--cflags")) {
      char up[40];
      size_t j = 0;
      for (; q->key[j] && j + 1 < sizeof up; j++) up[j] = (char)toupper((unsigned char)q->key[j]);
      up[j] = 0;
      printf(" -DCFG_%s=%s", up, val);
    } else if (q->rtl) {
      if (!strcmp(what, "--gflags")) printf("%s-G%s=%s", sp ? " " : "", q->rtl, val);
      else printf("%s-set %s %s", sp ? " " : "", q->rtl, val);
      sp = 1;
    }
  }
  printf("\n");
  return 0;
}
