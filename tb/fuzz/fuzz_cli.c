/* SPDX-License-Identifier: Apache-2.0
 * fuzz_cli: the command line (cmodel/app/mt_app.c mt_app_parse_opts) and the parsers of the
 * option values the subcommands apply before any work: --dtype, --flow, --bytes, --algo, --format,
 * --topo (names only; file: is the topology harness's), --config (built-in names only) and
 * --set. Nothing is planned or simulated. Input: argv[1..] separated by NUL bytes
 * (argv[0] is "multitree"; at most 64 arguments). */
#include <string.h>
#include "app/mt_app.h"
#include "fuzz.h"
#include "net/mt_net_cfg.h"
#include "table/mt_rom.h"

enum { MAX_ARGS = 64 };

static void values(char **argv, const mt_app_opts *o) {
  mt_err e = {{0}};
  int dtype;
  unsigned flow;
  mt_app_dtype(argv[1], o, &dtype);
  mt_app_flow(argv[1], o, &flow);
  mt_app_whole_words(argv[1], o);
  if (o->algo) mt_algo_from_name(o->algo);
  if (o->format) mt_rom_format(o->format);
  if (o->topo && strncmp(o->topo, "file:", 5)) {
    mt_topo t;
    if (!mt_topo_from_name(&t, o->topo, &e)) mt_topo_free(&t);
    else if (!e.msg[0]) FZ_BUG("topology '%s' refused without a reason", o->topo);
  }
  const char *cn = o->config ? o->config : "small";
  size_t cl = strlen(cn);
  mt_net_cfg cfg;
  if (strchr(cn, '/') || (cl > 4 && !strcmp(cn + cl - 4, ".cfg")) || mt_net_cfg_by_name(&cfg, cn, &e)) return;
  for (int i = 0; i < o->nsets; i++)
    if (mt_net_cfg_set(&cfg, o->sets[i], &e)) break;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
  memcpy(buf, data, size);
  buf[size] = 0;
  int argc = 0;
  argv[argc++] = "multitree";
  for (char *p = buf; argc <= MAX_ARGS && p <= buf + size; p += strlen(p) + 1) argv[argc++] = p;
  argv[argc] = NULL;
  mt_app_opts o;
  if (argc >= 2 && !mt_app_parse_opts(argc, argv, &o)) values(argv, &o);
  free(buf);
  return 0;
}
