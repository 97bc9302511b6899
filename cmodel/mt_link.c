/* SPDX-License-Identifier: Apache-2.0
 * mt_link.c: link delay line (see mt_link.h). */
#include "mt_link.h"
#include <stdlib.h>
#include <string.h>

int mt_link_init(mt_link *l, unsigned lat) {
  memset(l, 0, sizeof *l);
  if (lat < 1u || lat > 1000000u) return -1;
  l->lat = lat;
  if (lat > 1u) {
    l->ring = (mt_link_slot *)calloc(lat - 1u, sizeof *l->ring);
    if (!l->ring) return -1;
  }
  return 0;
}

void mt_link_reset(mt_link *l) {
  l->pos = 0;
  if (l->ring) memset(l->ring, 0, (l->lat - 1u) * sizeof *l->ring);
}

void mt_link_free(mt_link *l) {
  free(l->ring);
  l->ring = NULL;
}

void mt_link_step(mt_link *l, const mt_link_slot *in, mt_link_slot *out) {
  if (l->lat == 1u) {
    *out = *in;
    return;
  }
  /* ring[pos] holds the slot sampled lat-1 edges ago: it is the last stage's output
   * during this cycle; then this cycle's input enters at the edge. */
  *out = l->ring[l->pos];
  l->ring[l->pos] = *in;
  l->pos = (l->pos + 1u == l->lat - 1u) ? 0u : l->pos + 1u;
}
