/* SPDX-License-Identifier: Apache-2.0 */
#include "mt_mem.h"
#include <stdlib.h>
#include <string.h>

static uint32_t xs32(uint32_t *s) { uint32_t x = *s; x ^= x << 13; x ^= x >> 17; x ^= x << 5; return *s = x; }

int mt_mem_init(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned p_ready, unsigned lat_max, uint32_t seed) {
  memset(m, 0, sizeof *m);
  if (lanes < 1 || lanes > MT_MEM_MAX_LANES || p_ready < 1 || p_ready > 100 || lat_max < 1 || lat_max > 1000) return -1;
  m->w = calloc(nwords ? nwords : 1, 4);
  if (!m->w) return -1;
  m->nw = nwords; m->lanes = lanes; m->p_ready = p_ready; m->lat_max = lat_max;
  m->rng = seed ? seed : 1;
  m->ready_q = 1;
  return 0;
}

void mt_mem_free(mt_mem *m) { free(m->w); memset(m, 0, sizeof *m); }

void mt_mem_comb(const mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
  *req_ready = m->ready_q;
  *rsp_valid = 0;
  if (m->rsp_cnt && m->rsp[m->rsp_rd].due <= m->cyc) {
    *rsp_valid = 1;
    memcpy(rsp_data, m->rsp[m->rsp_rd].d, sizeof m->rsp[0].d);
  }
}

void mt_mem_edge(mt_mem *m, uint8_t req_valid, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata) {
  if (m->rsp_cnt && m->rsp[m->rsp_rd].due <= m->cyc) { m->rsp_rd = (m->rsp_rd + 1) % MT_MEM_RSPQ; m->rsp_cnt--; }
  if (req_valid && m->ready_q) {
    uint64_t w0 = addr / 4;
    if (addr & 3u) m->errors++;
    if (req_we) {
      for (unsigned k = 0; k < m->lanes; k++)
        if ((be >> k) & 1u) { if (w0 + k < m->nw) m->w[w0 + k] = wdata[k]; else m->errors++; }
    } else if (m->rsp_cnt == MT_MEM_RSPQ) m->errors++;
    else {
      unsigned wi = (m->rsp_rd + m->rsp_cnt) % MT_MEM_RSPQ;
      memset(m->rsp[wi].d, 0, sizeof m->rsp[wi].d);
      for (unsigned k = 0; k < m->lanes; k++)
        if ((be >> k) & 1u) { if (w0 + k < m->nw) m->rsp[wi].d[k] = m->w[w0 + k]; else m->errors++; }
      uint64_t due = m->cyc + (m->lat_max > 1 ? 1 + xs32(&m->rng) % m->lat_max : 1);
      if (m->rsp_cnt && due <= m->last_due) due = m->last_due + 1; /* in order */
      m->rsp[wi].due = due; m->last_due = due; m->rsp_cnt++;
    }
  }
  m->ready_q = (uint8_t)(m->p_ready >= 100 || xs32(&m->rng) % 100 < m->p_ready);
  m->cyc++;
}
