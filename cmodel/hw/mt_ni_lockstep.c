/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_lockstep.c: twins of rtl/mt_ni_lockstep.sv and rtl/mt_ni_timestep.sv, the two
 * counters of Fig. 6 (both tiny, so one file; included by mt_ni.c, see mt_ni_blocks.h).
 * Lockstep: a NOP loads the estimated step time (flits of the NOP size, +1 when perturbed);
 * the counter then decrements once per cycle and stops at zero; issue is stalled while it
 * is non-zero. Start and the end of the scan empty it; clear has priority over load.
 * Timestep: start sets 0, the end of the scan 1, the issue logic's advance adds 1. */
#include "hw/mt_ni_blocks.h"

static inline void mt_ni_lockstep_update(mt_ni *s, const mt_ni_wires *w) {
  if (w->clear || w->scan_done) s->lock = 0;
  else if (w->lock_load) s->lock = w->lock_val;
  else if (s->lock != 0) s->lock--;
}

static inline void mt_ni_timestep_update(mt_ni *s, const mt_ni_wires *w) {
  if (w->clear) s->ts = 0;
  else if (w->scan_done) s->ts = 1;
  else if (w->advance) s->ts++;
}
