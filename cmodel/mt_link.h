/* SPDX-License-Identifier: Apache-2.0
 * mt_link.h: cycle-accurate C model of rtl/mt_link.sv, the link delay line.
 * Contract: a link of latency Lat >= 1 carries one slot per cycle (a flit with its valid bit
 * one way, a credit pulse vector the other way; both are delayed alike). Lat counts the
 * driving block's output register: Lat = 1 is a plain wire, Lat = n adds n-1 register
 * stages. Unlike the blocks, mt_link_step returns what the link presents DURING the current
 * cycle (for Lat = 1 that is *in itself; for Lat = n the input of n-1 calls ago, zeros
 * before that), then takes the edge. Harness use, per cycle: in = sender's registered
 * output; mt_link_step(&l, &in, &mid); receiver_step(..., mid, ...). A flit leaving the
 * sender's register after edge k is sampled by the receiver at edge k+Lat. */
#ifndef MT_LINK_H
#define MT_LINK_H
#include <stdint.h>
#include "mt_flit.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint8_t valid;    /* flit valid */
  mt_flit flit;     /* flit (zero when not valid, by convention of the senders) */
  uint32_t credits; /* credit pulses, bit vc */
} mt_link_slot;

typedef struct {
  unsigned lat;       /* latency in cycles, >= 1 */
  unsigned pos;       /* ring position */
  mt_link_slot *ring; /* lat-1 slots (NULL when lat == 1) */
} mt_link;

/* Returns 0 on success, -1 on a bad latency or no memory. Reset state: all slots zero. */
int mt_link_init(mt_link *l, unsigned lat);
void mt_link_reset(mt_link *l);
void mt_link_free(mt_link *l);
/* Writes the slot presented during this cycle to *out, then takes the edge (samples *in). */
void mt_link_step(mt_link *l, const mt_link_slot *in, mt_link_slot *out);

#ifdef __cplusplus
}
#endif
#endif
