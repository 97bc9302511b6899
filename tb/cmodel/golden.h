/* SPDX-License-Identifier: Apache-2.0
 * golden.h: golden traces of a cycle model (test only; docs/reference/golden.md). A test drives a model
 * with a deterministic stimulus and hands the outputs of every cycle, split in named fields,
 * to gold_cycle. Recording (make golden, from a build of the reference commit) writes, per run,
 * one hex digit per cycle (0: every field as in the previous cycle, else a 4-bit hash of the
 * fields) and every GOLD_K cycles one 32-bit hash per field of that window; checking re-runs
 * the stimulus on the current model and reports the first cycle whose digit differs and the
 * fields whose window hash differs. Files are gzip text: zcat shows them.
 *
 *   # header lines (commit and command that produced the file)
 *   run <tag>
 *   c <hex digits, one per cycle, up to 128 per line>
 *   k <cycles so far> <one 8-digit hash per field>
 *   end <cycles> */
#ifndef MT_GOLDEN_H
#define MT_GOLDEN_H
#include <stddef.h>
#include <stdint.h>

#define GOLD_K 1024  /* cycles per checkpoint window */
#define GOLD_MAXF 24 /* fields per cycle */

typedef struct {
  const void *p;
  size_t n;
} gold_field;

typedef struct gold gold;

/* Open `path` for recording (record = 1; header: lines written after "# ") or checking.
 * NULL on error (message on stderr). */
gold *gold_open(const char *path, int record, const char *header);
/* Close; in check mode, -1 if runs of the file were left unchecked. */
int gold_close(gold *g);
/* A run: `tag` names it (must match the recorded tag); fields named by names[0..nf-1]. */
int gold_begin(gold *g, const char *tag, unsigned nf, const char *const *names);
/* One cycle's outputs. */
void gold_cycle(gold *g, const gold_field *f);
/* End of the run: 0 if every cycle matched (or when recording), else -1 after printing
 * "MISMATCH <tag>: ..." with the first differing cycle and the differing fields. */
int gold_end(gold *g);
/* Cycles seen in the last run. */
uint64_t gold_cycles(const gold *g);

/* the one PRNG and clock (header-only; a reference build of a commit before them, 5c3eebf, gets
 * them from this tree: tb/golden/record.sh) */
#include "util/mt_rng.h"
#include "util/mt_time.h"

/* where the traces live (the Makefile passes the absolute path) */
#ifndef MT_GOLDEN_DIR
#define MT_GOLDEN_DIR "tb/golden"
#endif

#endif
