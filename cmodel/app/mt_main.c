/* SPDX-License-Identifier: Apache-2.0
 * multitree: command-line front end: the table of subcommands, --help and dispatch.
 * Each subcommand is one file cmodel/app/mt_cmd_<name>.c; shared helpers in mt_app.c.
 * Exit status: 0 success, 1 a check or comparison found a violation, 2 bad input. */
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "app/mt_app.h"
#include "util/mt_err.h"

static const mt_app_cmd commands[] = {
  {"plan", mt_app_plan,
   "multitree plan --topo T --algo A --bytes N [--elem B] [--local-ports L] [--json FILE] [--dot FILE] [--print] [--quiet]\n"
   "              [--progress] [--chunks C] [--intra fifo|scf]\n"
   "  Build an all-reduce schedule and its per-node schedule tables. Planning that runs for\n"
   "  seconds prints a progress line to stderr every 2 s when stderr is a terminal, or always\n"
   "  with --progress. hier, themis and dimbal (docs/reference/themis.md; also for rom, check, ref,\n"
   "  sim): --chunks C chunks per collective (hier default 1, themis 64, dimbal the best of 1..256\n"
   "  by its Latency Model; each chunk is N x H flows,\n"
   "  H = 2 with a bidirectional ring), --intra the order of the stages queued at a dimension\n"
   "  (fifo: first ready first, hier's default; scf: smallest chunk first, themis's default).\n",
   NULL},
  {"rom", mt_app_rom,
   "multitree rom --topo T --algo A --bytes N --format hex|mif|coe|mem|bin|h|bram [--compact] [--fit SHAPE] --out DIR\n"
   "  Write one ROM image of the schedule table per node (DIR/node<i>.<fmt>) and DIR/layout.json.\n"
   "  bram: hexadecimal words alone (ecpbram/icebram -f/-t images). --fit configs/ni/NAME.cfg: the\n"
   "  images in that hardware's table layout (its field widths and child slots) and depth\n"
   "  (tbl_depth words), its local_ports unless --local-ports; a schedule that does not fit is refused.\n",
   NULL},
  {"check", mt_app_check,
   "multitree check FILE.json | --topo T --algo A --bytes N\n"
   "  Prove a schedule correct by running its tables symbolically; exit 1 on any violation.\n",
   NULL},
  {"decode", mt_app_decode,
   "multitree decode DIR [--compare FILE.json | --topo T --algo A --bytes N] [--print]\n"
   "  Read ROM images back; with a schedule to compare, exit 1 unless the tables are identical.\n",
   NULL},
  {"ref", mt_app_ref,
   "multitree ref --topo T --algo A --bytes N [--dtype int32|fp32] [--seed S]\n"
   "  Untimed all-reduce of seeded inputs through the schedule tables (the reference the\n"
   "  cycle models are checked against); int32 is compared with the exact sum.\n",
   NULL},
  {"sim", mt_app_sim,
   "multitree sim --topo T --algo A --bytes N [--dtype int32|fp32] [--flow message|packet] [--config NAME|FILE]\n"
   "              [--set name=value]... [--seed S] [--json FILE] [--dump-dir DIR] [--trace FILE] [--mem-limit BYTES]\n"
   "              [--data full|sample|none] [--threads N] [--level cycle|flow] [--chunks K] [--expand] [--overlap] [--runs N]\n"
   "  Cycle-accurate all-reduce on a torus or mesh (routers + network interfaces + links), checked\n"
   "  against the reference sums; a wrong result exits 1. --data: what the node memories hold and\n"
   "  what is checked: every word (full, default), every flow chunk's first and last 4 KiB page at\n"
   "  every node (sample), nothing (none: timing only); the cycles are the same in every mode.\n"
   "  --threads: simulate with N threads (1..64, default 1; tori and meshes), the same results.\n"
   "  --config: configs/net/NAME.cfg (built in: paper, small; default small) or a file path;\n"
   "  keys for the file and --set: multitree shape --keys.\n"
   "  --level flow: the flow-level simulator (docs/reference/flowsim.md): messages on links, max-min fair,\n"
   "  the NI's step and dependency rules, no data (nothing checked); time in cycles of --config,\n"
   "  or in ns on dims:/dimsfile:/themis: topologies. --chunks K with --algo hier|themis, and\n"
   "  --algo dimbal with or without --chunks: at the\n"
   "  flow level the planner's chunk schedule itself (one message per NPU per link per step, no\n"
   "  expansion into flows: 1024 NPUs x 64 chunks in milliseconds); at the cycle level (and at the\n"
   "  flow level with --expand or without --chunks) the schedule expanded into N x H flows per\n"
   "  chunk. --overlap (front end 2): a dimension starts its next stage while earlier ones wait\n"
   "  on latency (Themis: several chunks per dimension).\n"
   "  --runs N (cycle level): N all-reduces back to back on one network without a reset, seeds S,\n"
   "  S+1, ..., each checked and reported (--json, --dump-dir: the last).\n",
   NULL},
  {"sizes", mt_app_sizes,
   "multitree sizes [--bytes N] | --algo hier|themis [--chunks C] [--intra fifo|scf] [--bytes N]\n"
   "  Table sizes (full and compact layouts) for MultiTree on 4x4..32x32 tori; with --algo, the\n"
   "  table entries and bits per NPU of hier or themis on the six Themis Table 2 systems (1024\n"
   "  NPUs, counted from the chunk schedule without expanding it; default 64 chunks, 1 GiB).\n",
   NULL},
  {"train", NULL,
   "multitree train --model NAME|FILE.csv --topo T --algo A [--msg] [--overlap] [--config C] [--json FILE] [--cache FILE]\n"
   "  One DNN training iteration: compute on the paper's accelerators, the gradients' all-reduce on\n"
   "  the cycle model, overlapped layer-wise or not (docs/reference/training.md; --help for every option).\n",
   mt_app_train},
  {"bound", mt_app_bound,
   "multitree bound --topo T --bytes N [--config NAME|FILE] [--json FILE]\n"
   "  Lower bounds of an all-reduce of N bytes in cycles of --config's links (default small: 16 B/cycle;\n"
   "  in ns when every link has a bandwidth): per node (S over its links out, and over its links in),\n"
   "  cut (the same for every node set up to 20 nodes, else every sub-box of a torus or mesh, else\n"
   "  single nodes) and aggregate (2(N-1)S over all links into nodes); the largest binds, and no\n"
   "  simulation may finish below it. docs/reference/bounds.md.\n",
   NULL},
  {"shape", NULL,
   "multitree shape --keys | --gflags FILE | --cflags FILE | --chparam FILE | --check FILE\n"
   "  Hardware shapes as files (configs/{net,router,ni}/NAME.cfg): the keys, or a file's flags.\n",
   mt_app_shape},
};
enum { NCMD = sizeof commands / sizeof commands[0] };

/* Which options each command uses, by mode: the first row of the command whose `when` bits
 * are all given (AT_FLOW: --level flow) applies, and every option outside its `takes` is
 * refused before the command runs. */
#define O(x) (1ull << MT_OPT_##x)
#define AT_FLOW (1ull << MT_OPT_N)
#define PLANNING (O(TOPO) | O(ALGO) | O(BYTES) | O(ELEM) | O(LOCAL_PORTS) | O(CHUNKS) | O(INTRA) | O(PROGRESS))
#define SIM_ANY (PLANNING | O(FLOW) | O(CONFIG) | O(SET) | O(JSON) | O(DATA) | O(THREADS) | O(LEVEL))
static const struct {
  const char *cmd;
  uint64_t when, takes;
  const char *mode;
} uses[] = {
  {"plan", 0, PLANNING | O(JSON) | O(DOT) | O(PRINT) | O(QUIET), ""},
  {"rom", 0, PLANNING | O(FORMAT) | O(COMPACT) | O(OUT) | O(QUIET) | O(FIT), ""},
  {"check", O(FILE), O(FILE), " FILE.json"},
  {"check", 0, PLANNING, " --topo T --algo A --bytes N"},
  {"decode", O(COMPARE), O(FILE) | O(PRINT) | O(COMPARE), " DIR --compare FILE.json"},
  {"decode", 0, O(FILE) | O(PRINT) | PLANNING, " DIR"},
  {"ref", 0, PLANNING | O(DTYPE) | O(SEED), ""},
  {"sim", AT_FLOW, SIM_ANY | O(EXPAND) | O(OVERLAP), " --level flow"},
  {"sim", 0, SIM_ANY | O(DTYPE) | O(SEED) | O(DUMP_DIR) | O(TRACE) | O(MEM_LIMIT) | O(RUNS), " at the cycle level"},
  {"sizes", 0, O(ALGO) | O(BYTES) | O(CHUNKS) | O(INTRA) | O(PROGRESS), ""},
  {"bound", 0, O(TOPO) | O(BYTES) | O(CONFIG) | O(SET) | O(JSON), ""},
};

/* 0, or 2 (message printed) when o gives an option command cmd does not use in its mode. */
static int refuse_unused(const char *cmd, const mt_app_opts *o) {
  const uint64_t key = o->given | (o->level && !strcmp(o->level, "flow") ? AT_FLOW : 0);
  size_t r = 0;
  while (r < sizeof uses / sizeof uses[0] && (strcmp(uses[r].cmd, cmd) || (key & uses[r].when) != uses[r].when)) r++;
  if (r == sizeof uses / sizeof uses[0]) return 0;
  for (int b = 0; b < MT_OPT_N; b++) {
    if (!(o->given >> b & 1) || uses[r].takes >> b & 1) continue;
    if (b == MT_OPT_FILE) fprintf(stderr, "multitree %s: unexpected argument '%s'\n", cmd, o->file);
    else {
      char list[512] = "";
      for (int k = 0; k < MT_OPT_FILE; k++)
        if (uses[r].takes >> k & 1) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? " " : "", mt_app_opt_names[k]);
      fprintf(stderr, "multitree %s: %s: not used by %s%s (it takes %s)\n", cmd, mt_app_opt_names[b], cmd, uses[r].mode,
              *list ? list : "no options");
    }
    return 2;
  }
  return 0;
}

/* The help of one subcommand, or (cmd NULL) of all of them and the common notes. */
static void usage(FILE *f, const mt_app_cmd *cmd) {
  for (int i = 0; i < NCMD; i++)
    if (!cmd || cmd == &commands[i]) fputs(commands[i].help, f);
  if (!cmd)
    fputs("\nTopologies: torus:XxY[xZ] mesh:XxY[xZ] ring:N fattree:K,L dgx2 bigraph:MxN file:PATH\n"
          "  dims:SPEC (e.g. dims:ring4@125x2:20ns,sw8@25x4:700ns) dimsfile:PATH themis:PRESET (docs/reference/topologies.md)\n"
          "Algorithms:" MT_ALGO_NAMES_STR "\n"
          "Sizes take K, M, G suffixes (powers of 1024), e.g. --bytes 64M.\n",
          f);
}

/* jansson drops a value whose allocation failed without a word (json_object_set_new of
 * NULL): under memory pressure `plan --json` wrote an 18 KB file and exited 0 (issue #11).
 * Its allocations end the program with "out of memory" instead. */
static void *json_xmalloc(size_t n) { return mt_xrealloc(NULL, n); }

static int run(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout, NULL);
    return argc < 2 ? 2 : 0;
  }
  const mt_app_cmd *cmd = NULL;
  for (int i = 0; i < NCMD; i++)
    if (!strcmp(argv[1], commands[i].name)) cmd = &commands[i];
  if (!cmd) {
    fprintf(stderr, "multitree: unknown command '%s'\n", argv[1]);
    usage(stderr, NULL);
    return 2;
  }
  if (cmd->run_argv) return cmd->run_argv(argc - 1, argv + 1);
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout, cmd);
      return 0;
    }
  mt_app_opts o;
  if (mt_app_parse_opts(argc, argv, &o)) {
    usage(stderr, cmd);
    return 2;
  }
  if (refuse_unused(cmd->name, &o)) {
    usage(stderr, cmd);
    return 2;
  }
  return cmd->run(&o);
}

/* Standard output is checked once, here: a full disk or a closed pipe under any command's output
 * is an error of the run, not a silent truncation. */
int main(int argc, char **argv) {
  json_set_alloc_funcs(json_xmalloc, free);
  int rc = run(argc, argv);
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "multitree: standard output: write error: %s\n", strerror(errno ? errno : EIO));
    return rc ? rc : 2;
  }
  return rc;
}
