/* SPDX-License-Identifier: Apache-2.0 */
#include "mt_mem.h"
#include <stdlib.h>
#include <string.h>

static uint32_t xs32(uint32_t *s) { uint32_t x = *s; x ^= x << 13; x ^= x >> 17; x ^= x << 5; return *s = x; }

int mt_mem_init_mp(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned nports, unsigned p_ready, unsigned lat_max, uint32_t seed) {
  memset(m, 0, sizeof *m);
  if (lanes < 1 || lanes > MT_MEM_MAX_LANES || p_ready < 1 || p_ready > 100 || lat_max < 1 || lat_max > 1000 ||
      nports < 1 || nports > MT_MEM_MAX_PORTS) return -1;
  m->w = calloc(nwords ? nwords : 1, 4);
  m->port = calloc(nports, sizeof *m->port);
  if (!m->w || !m->port) { free(m->w); free(m->port); m->w = NULL; m->port = NULL; return -1; }
  m->nw = nwords; m->lanes = lanes; m->p_ready = p_ready; m->lat_max = lat_max; m->nports = nports;
  m->rng = seed ? seed : 1;
  for (unsigned p = 0; p < nports; p++) m->port[p].ready_q = 1;
  return 0;
}

int mt_mem_init(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned p_ready, unsigned lat_max, uint32_t seed) {
  return mt_mem_init_mp(m, nwords, lanes, 1, p_ready, lat_max, seed);
}

void mt_mem_free(mt_mem *m) { free(m->w); free(m->port); memset(m, 0, sizeof *m); }

void mt_mem_comb_port(const mt_mem *m, unsigned p, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
  const mt_mem_port *q = &m->port[p];
  *req_ready = q->ready_q;
  *rsp_valid = 0;
  if (q->rsp_cnt && q->rsp[q->rsp_rd].due <= m->cyc) {
    *rsp_valid = 1;
    memcpy(rsp_data, q->rsp[q->rsp_rd].d, sizeof q->rsp[0].d);
  }
}

void mt_mem_comb(const mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
  mt_mem_comb_port(m, 0, req_ready, rsp_valid, rsp_data);
}

static void port_edge(mt_mem *m, mt_mem_port *q, uint8_t req_valid, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata) {
  if (q->rsp_cnt && q->rsp[q->rsp_rd].due <= m->cyc) { q->rsp_rd = (q->rsp_rd + 1) % MT_MEM_RSPQ; q->rsp_cnt--; }
  if (req_valid && q->ready_q) {
    uint64_t w0 = addr / 4;
    if (addr & 3u) m->errors++;
    if (req_we) {
      for (unsigned k = 0; k < m->lanes; k++)
        if ((be >> k) & 1u) { if (w0 + k < m->nw) m->w[w0 + k] = wdata[k]; else m->errors++; }
    } else if (q->rsp_cnt == MT_MEM_RSPQ) m->errors++;
    else {
      unsigned wi = (q->rsp_rd + q->rsp_cnt) % MT_MEM_RSPQ;
      memset(q->rsp[wi].d, 0, sizeof q->rsp[wi].d);
      for (unsigned k = 0; k < m->lanes; k++)
        if ((be >> k) & 1u) { if (w0 + k < m->nw) q->rsp[wi].d[k] = m->w[w0 + k]; else m->errors++; }
      uint64_t due = m->cyc + (m->lat_max > 1 ? 1 + xs32(&m->rng) % m->lat_max : 1);
      if (q->rsp_cnt && due <= q->last_due) due = q->last_due + 1; /* in order */
      q->rsp[wi].due = due; q->last_due = due; q->rsp_cnt++;
    }
  }
}

static void ready_draws(mt_mem *m) {
  for (unsigned p = 0; p < m->nports; p++)
    m->port[p].ready_q = (uint8_t)(m->p_ready >= 100 || xs32(&m->rng) % 100 < m->p_ready);
  m->cyc++;
}

void mt_mem_edge(mt_mem *m, uint8_t req_valid, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata) {
  port_edge(m, &m->port[0], req_valid, req_we, addr, be, wdata);
  for (unsigned p = 1; p < m->nports; p++) port_edge(m, &m->port[p], 0, 0, 0, 0, wdata);
  ready_draws(m);
}

void mt_mem_edge_mp(mt_mem *m, const uint8_t *req_valid, const uint8_t *req_we, const uint32_t *addr, const uint32_t *be,
                    const uint32_t *wdata, unsigned wstride) {
  for (unsigned p = 0; p < m->nports; p++)
    port_edge(m, &m->port[p], req_valid[p], req_we[p], addr[p], be[p], wdata + (size_t)p * wstride);
  ready_draws(m);
}
