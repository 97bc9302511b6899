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
#include <string.h>
#include "fmt/mt_flit.h"
#include "util/mt_err.h"

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
int mt_link_init(mt_link *l, unsigned lat, mt_err *e);
void mt_link_reset(mt_link *l);
void mt_link_free(mt_link *l);
/* Writes the slot presented during this cycle to *out, then takes the edge (samples *in). */
void mt_link_step(mt_link *l, const mt_link_slot *in, mt_link_slot *out);

/* A bank of nl links of one latency (the network model; links of several latencies:
 * mt_link_bank_set_lat below, each within the bank's lat, rows as for that lat): per
 * link the contract above, stored so that the slots are written and read in place (no copies
 * through mt_link_step) and a link's slots of consecutive cycles lie together. Slots are
 * addressed by the cycle t (from 0) in which the sender drove them: link k keeps the inputs
 * of its last `rows` cycles (rows >= lat), and during cycle t it presents the input of cycle
 * t - (lat - 1) (zeros while t < lat - 1; for lat = 1 the input of cycle t itself). A slot
 * is sw = fw + 2 words, together (one stream of memory per link): a 64-bit header, the
 * credit pulses as the router's bytes (byte v, in memory order, is 1 for a pulse on VC v <
 * 8, else 0) with MT_LINK_VALID (bit 7 of every byte) set when the flit is valid, then the
 * flit's fw live words, meaningful only while valid (the words above them are 0 in every
 * flit, mt_flit.h). Kept as the bytes the blocks use, a pulse vector goes in and out of a
 * slot without packing. A sender's slot of cycle t may be written in any order with the
 * receivers' reads of other cycles as long as every read of cycle t' happens before the
 * write of cycle t' + rows - (lat - 1), that reuses its slot. Reset state: every slot zero. */
#define MT_LINK_VALID 0x8080808080808080ull /* in every byte: the same on any byte order */
#define MT_LINK_CREDITS 0x0101010101010101ull
#define MT_LINK_LAT_MAX 1000000u /* longest link latency a link models, cycles */
typedef struct {
  unsigned lat, nl, fw, rows, sw;
  uint32_t *slot; /* [nl][rows][sw]: header (2 words), flit (fw words) */
  unsigned *klat; /* NULL: every link of latency lat; else link k's latency (1..lat), mt_link_bank_set_lat */
} mt_link_bank;

/* Slot of link k at row r; its header and its flit. */
static inline uint32_t *mt_link_bank_at(const mt_link_bank *b, unsigned k, unsigned r) {
  return b->slot + ((size_t)k * b->rows + r) * b->sw;
}
static inline uint64_t mt_link_hdr(const uint32_t *s) {
  uint64_t h;
  memcpy(&h, s, sizeof h);
  return h;
}
static inline void mt_link_set_hdr(uint32_t *s, uint64_t h) { memcpy(s, &h, sizeof h); }
#define MT_LINK_FLIT 2 /* a slot's flit: s + MT_LINK_FLIT */

/* fw: live words of a flit (mt_flit_words). Returns 0 on success, -1 on a bad latency or
 * no memory. */
int mt_link_bank_init(mt_link_bank *b, unsigned nl, unsigned lat, unsigned rows, unsigned fw, mt_err *e);
void mt_link_bank_free(mt_link_bank *b);
/* Row (slot offset within a link) written during cycle t, and the row presented during it. */
static inline unsigned mt_link_bank_wrow(const mt_link_bank *b, uint64_t t) { return (unsigned)(t % b->rows); }
static inline unsigned mt_link_bank_rrow(const mt_link_bank *b, uint64_t t) {
  return (unsigned)((t + b->rows - (b->lat - 1u)) % b->rows);
}
/* Links of different latencies (a network whose dimensions differ): link k gets latency
 * lat (1..the bank's lat, which is then the longest; rows >= lat as before). 0, or -1 with
 * the reason. */
int mt_link_bank_set_lat(mt_link_bank *b, unsigned k, unsigned lat, mt_err *e);
static inline unsigned mt_link_bank_lat(const mt_link_bank *b, unsigned k) { return b->klat ? b->klat[k] : b->lat; }
/* The row link k presents during cycle t (its own latency). */
static inline unsigned mt_link_bank_rrow_k(const mt_link_bank *b, unsigned k, uint64_t t) {
  return (unsigned)((t + b->rows - (mt_link_bank_lat(b, k) - 1u)) % b->rows);
}
/* What link k presented during cycle t (t >= 0, not yet reused), as a slot. */
void mt_link_bank_slot(const mt_link_bank *b, unsigned k, uint64_t t, mt_link_slot *s);

#ifdef __cplusplus
}
#endif
#endif
