/* SPDX-License-Identifier: Apache-2.0
 * mt_app: what the subcommands of the `multitree` command line share: the parsed options,
 * the table row of a subcommand, and the helpers that more than one subcommand uses.
 * A subcommand returns the exit status: 0 success, 1 a check or comparison found a
 * violation, 2 bad input (the reason printed to stderr). */
#ifndef MT_APP_H
#define MT_APP_H
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>
#include "flow/mt_flow.h"
#include "net/mt_net_cfg.h"
#include "plan/mt_sched.h"
#include "topo/mt_bound.h"

/* Every option of the commands that share mt_app_parse_opts, as a bit of mt_app_opts.given;
 * MT_OPT_FILE is the operand (check FILE.json, decode DIR). mt_main.c's table says which a
 * command (in each of its modes) uses; it refuses the others. */
enum {
  MT_OPT_TOPO,
  MT_OPT_ALGO,
  MT_OPT_BYTES,
  MT_OPT_ELEM,
  MT_OPT_LOCAL_PORTS,
  MT_OPT_CHUNKS,
  MT_OPT_INTRA,
  MT_OPT_PROGRESS,
  MT_OPT_JSON,
  MT_OPT_DOT,
  MT_OPT_PRINT,
  MT_OPT_QUIET,
  MT_OPT_FORMAT,
  MT_OPT_COMPACT,
  MT_OPT_OUT,
  MT_OPT_COMPARE,
  MT_OPT_DTYPE,
  MT_OPT_SEED,
  MT_OPT_FLOW,
  MT_OPT_CONFIG,
  MT_OPT_SET,
  MT_OPT_DUMP_DIR,
  MT_OPT_TRACE,
  MT_OPT_MEM_LIMIT,
  MT_OPT_DATA,
  MT_OPT_THREADS,
  MT_OPT_LEVEL,
  MT_OPT_EXPAND,
  MT_OPT_OVERLAP,
  MT_OPT_RUNS,
  MT_OPT_FIT,
  MT_OPT_FILE,
  MT_OPT_N
};
/* "--topo", ... by MT_OPT_*; "FILE" for the operand */
extern const char *const mt_app_opt_names[MT_OPT_N];

typedef struct {
  uint64_t given; /* bit MT_OPT_x: option x appears on the command line */
  const char *topo, *algo, *json, *dot, *format, *out, *compare, *file;
  const char *dtype, *flow, *config, *dump_dir, *trace, *data, *level;
  const char *fit; /* rom --fit: an NI shape file whose table layout and depth the images take */
  const char *sets[32];
  int nsets;
  uint64_t bytes, mem_limit; /* --mem-limit: bytes sim may use (0: what the machine has free) */
  int have_bytes, elem, local_ports, compact, print, quiet, threads;
  int expand;  /* sim --level flow --chunks K --expand: front end 1 on the expanded schedule */
  int overlap; /* sim --level flow --chunks K --overlap: a dimension overlaps its stages' latency */
  int chunks;  /* sim --level flow --chunks K: the chunked dimension schedule (front end 2) */
  int runs;    /* sim --runs N: N all-reduces back to back on one network (0: one) */
  uint32_t seed;
} mt_app_opts;

/* One subcommand: its name, its function, its --help text (synopsis, then indented lines). */
typedef struct {
  const char *name;
  int (*run)(const mt_app_opts *o);
  const char *help;
  int (*run_argv)(int argc, char **argv); /* instead of run: a subcommand with its own arguments */
} mt_app_cmd;

/* argv[2..]: options of subcommand argv[1]; -1 (message printed) on a bad option. */
int mt_app_parse_opts(int argc, char **argv, mt_app_opts *o);
/* Plan from --topo/--algo/--bytes into s (topology into t) and derive the tables (not
 * when tb is NULL);
 * returns 0 or the exit status 2 (message printed). secs: planning time, may be NULL. */
int mt_app_plan_from_opts(const mt_app_opts *o, mt_topo *t, mt_sched *s, mt_tables *tb, double *secs);
/* --dtype: int32 (default) or fp32 into *dtype; 0, or 2 (message printed). */
int mt_app_dtype(const char *cmd, const mt_app_opts *o, int *dtype);
/* --bytes, when given, a whole number of 4-byte elements: 0, or 2 (message printed). */
int mt_app_whole_words(const char *cmd, const mt_app_opts *o);
/* Fig. 5 notation, one line per node: op(flow,parent,children,step). */
void mt_app_print_tables(FILE *f, const mt_tables *tb);

int mt_app_plan(const mt_app_opts *o);
int mt_app_rom(const mt_app_opts *o);
int mt_app_check(const mt_app_opts *o);
int mt_app_decode(const mt_app_opts *o);
int mt_app_ref(const mt_app_opts *o);
int mt_app_sim(const mt_app_opts *o);
/* sim --level flow (mt_cmd_flowsim.c) */
int mt_app_flowsim(const mt_app_opts *o);
/* The flow level's parameters for cycles of the network configuration cfg (its flow control;
 * local_ports packetisers a node), as sim --level flow and train --level flow use them. */
void mt_app_flow_params(const mt_net_cfg *cfg, int local_ports, mt_flow_params *p);
/* Peak resident memory of this process so far (getrusage), 0: unknown. */
uint64_t mt_app_peak_rss(void);
/* sim's summary j (NULL: not built) as one line of JSON into path; releases j; 0 or -1 (printed). */
int mt_app_json_write(const char *cmd, const char *path, json_t *j);
/* sim's --config and --set into cfg: 0, or 2 (message printed). */
int mt_app_net_cfg(const char *cmd, const mt_app_opts *o, mt_net_cfg *cfg);
/* --flow message (default) or packet into *flow (MT_NET_FLOW_*; mt_net_cfg.flow): 0, or 2
 * (message printed). */
int mt_app_flow(const char *cmd, const mt_app_opts *o, unsigned *flow);
/* `multitree shape` (mt_cmd_shape.c): argv[0] is "shape". */
int mt_app_shape(int argc, char **argv);
int mt_app_sizes(const mt_app_opts *o);
/* `multitree train` (mt_cmd_train.c): argv[0] is "train". */
int mt_app_train(int argc, char **argv);
/* `multitree bound` (mt_cmd_bound.c) */
int mt_app_bound(const mt_app_opts *o);
/* The bounds of b into j (sim's and bound's JSON): *_bound_cycles, bound_cycles and
 * binding_bound (the largest), and with cycles > 0 the fractions *_bound_fraction = bound /
 * cycles. */
void mt_app_bound_json(json_t *j, const mt_bound *b, double cycles);
/* sim's line of the bounds of a run of `time` units; -1 (reason in e) when the run finished
 * below its lower bound (mt_bound_assert). */
int mt_app_bound_report(const mt_bound *b, double time, const char *units, mt_err *e);
#endif
