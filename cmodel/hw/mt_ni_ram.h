/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_ram.h: twin of rtl/mt_ni_ram.sv, the 1R1W RAM of the NI's per-flow state: depth words
 * of w 32-bit words, one write port and one synchronous read port. At an edge with re the read
 * register takes the word at raddr (with bypass, the word written at this edge when waddr ==
 * raddr; without, the old one); it holds otherwise. The memory and the read register are the
 * owner's (the RAM has no reset). */
#ifndef MT_NI_RAM_H
#define MT_NI_RAM_H
#include <stdint.h>
#include <string.h>

typedef struct {
  uint32_t *mem; /* [depth * w] */
  uint32_t *rd;  /* [w]: the read register (rdata_o) */
  unsigned w;
  uint8_t bypass;
} mt_ni_ram;

/* the rising edge: the read, then the write */
static inline void mt_ni_ram_edge(mt_ni_ram *m, int re, uint32_t raddr, int we, uint32_t waddr, const uint32_t *wdata) {
  if (re) memcpy(m->rd, m->bypass && we && waddr == raddr ? wdata : m->mem + (size_t)raddr * m->w, m->w * 4u);
  if (we) memcpy(m->mem + (size_t)waddr * m->w, wdata, m->w * 4u);
}
#endif
