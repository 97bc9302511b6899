/* SPDX-License-Identifier: Apache-2.0
 * mt_link.c: link delay line (see mt_link.h). */
#include "hw/mt_link.h"
#include <stdlib.h>
#include <string.h>

int mt_link_init(mt_link *l, unsigned lat, mt_err *e) {
  memset(l, 0, sizeof *l);
  if (lat < 1u || lat > MT_LINK_LAT_MAX) return mt_fail(e, "link latency %u: must be 1..%u cycles", lat, MT_LINK_LAT_MAX);
  l->lat = lat;
  if (lat > 1u) {
    l->ring = (mt_link_slot *)calloc(lat - 1u, sizeof *l->ring);
    if (!l->ring) return mt_fail(e, "link of latency %u: out of memory", lat);
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

int mt_link_bank_init(mt_link_bank *b, unsigned nl, unsigned lat, unsigned rows, unsigned fw, mt_err *e) {
  memset(b, 0, sizeof *b);
  if (lat < 1u || lat > MT_LINK_LAT_MAX) return mt_fail(e, "link latency %u: must be 1..%u cycles", lat, MT_LINK_LAT_MAX);
  if (rows < lat || rows > 2000000u) return mt_fail(e, "link bank of %u rows: must be %u..2000000", rows, lat);
  if (fw < 1u || fw > MT_FLIT_WORDS) return mt_fail(e, "flit of %u words: must be 1..%d", fw, MT_FLIT_WORDS);
  b->lat = lat;
  b->nl = nl;
  b->fw = fw;
  b->rows = rows;
  b->sw = fw + MT_LINK_FLIT;
  b->slot = (uint32_t *)calloc((size_t)rows * (nl ? nl : 1u) * b->sw, sizeof *b->slot);
  if (!b->slot) {
    mt_link_bank_free(b);
    return mt_fail(e, "%u links of %u rows: out of memory", nl, rows);
  }
  return 0;
}

int mt_link_bank_set_lat(mt_link_bank *b, unsigned k, unsigned lat, mt_err *e) {
  if (k >= b->nl) return mt_fail(e, "link %u: the bank has %u links", k, b->nl);
  if (lat < 1u || lat > b->lat) return mt_fail(e, "link %u: latency %u cycles; the bank holds links of 1..%u", k, lat, b->lat);
  if (!b->klat) {
    b->klat = (unsigned *)malloc((size_t)b->nl * sizeof *b->klat);
    if (!b->klat) return mt_fail(e, "%u link latencies: out of memory", b->nl);
    for (unsigned j = 0; j < b->nl; j++) b->klat[j] = b->lat;
  }
  b->klat[k] = lat;
  return 0;
}

void mt_link_bank_free(mt_link_bank *b) {
  free(b->klat);
  b->klat = NULL;
  free(b->slot);
  b->slot = NULL;
}

void mt_link_bank_slot(const mt_link_bank *b, unsigned k, uint64_t t, mt_link_slot *s) {
  const uint32_t *p = mt_link_bank_at(b, k, mt_link_bank_rrow_k(b, k, t));
  uint8_t h[8];
  memcpy(h, p, sizeof h);
  memset(s, 0, sizeof *s);
  s->valid = (uint8_t)(h[0] >> 7);
  for (unsigned v = 0; v < 8u; v++) s->credits |= (uint32_t)(h[v] & 1u) << v;
  if (s->valid) memcpy(s->flit.w, p + MT_LINK_FLIT, b->fw * sizeof s->flit.w[0]);
}
