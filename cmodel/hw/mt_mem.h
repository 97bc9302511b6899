/* SPDX-License-Identifier: Apache-2.0
 * mt_mem: behavioural gradient buffer behind the NI's valid/ready memory ports
 * (docs/reference/ni.md): byte addresses aligned to 4, per port one request per cycle taken when
 * ready, one enable bit per 32-bit lane, read responses of a port in order after
 * 1..lat_max cycles, at most one response per port per cycle, writes have no response.
 * Several ports (mt_mem_init_mp) are all served every cycle; the requests accepted at one
 * edge take effect in port-index order (a read on port q sees a write accepted at the same
 * edge on a port p < q, not one on p > q). Ready and latency are drawn from xorshift32,
 * so a run is reproducible from its seed. Used by the network model; the RTL harnesses
 * model the same memory in C++ with the same PRNG. */
#ifndef MT_MEM_H
#define MT_MEM_H
#include <stdint.h>
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_MEM_MAX_LANES 16
#define MT_MEM_RSPQ 64
#define MT_MEM_MAX_PORTS 24
#define MT_MEM_LAT_MAX 1000 /* longest read latency a port models, cycles */

typedef struct {
  uint64_t last_due;
  unsigned rsp_rd, rsp_cnt;
  struct {
    uint64_t due;
    uint32_t d[MT_MEM_MAX_LANES];
  } rsp[MT_MEM_RSPQ];
} mt_mem_port;

/* Pages of a partly backed memory (mt_mem_init_pages): 4 KiB */
#define MT_MEM_PAGE_SHIFT 10u
#define MT_MEM_PAGE_WORDS (1u << MT_MEM_PAGE_SHIFT)
#define MT_MEM_NOPAGE 0xffffffffu

typedef struct {
  uint32_t *w;
  uint64_t nw;  /* the buffer, 32-bit words */
  uint32_t *pg; /* NULL: w holds all nw words; else per page the index of its copy in w, or
                 * MT_MEM_NOPAGE: not backed (reads give 0, writes are dropped; timing alike) */
  unsigned lanes, p_ready, lat_max, nports;
  uint32_t rng;
  uint64_t cyc, errors;
  mt_mem_port *port;               /* [nports] */
  uint8_t ready[MT_MEM_MAX_PORTS]; /* per port: ready during this cycle (drawn at the last edge) */
  uint32_t readym;                 /* the same as a bit mask (bit p: port p) */
  uint32_t rspm;                   /* bit p: port p has responses queued (rsp_cnt != 0) */
} mt_mem;

/* p_ready: % of cycles a port is ready (1..100); lat_max >= 1. Returns -1 on bad args. */
int mt_mem_init(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned p_ready, unsigned lat_max, uint32_t seed, mt_err *e);
/* The same with nports ports (1..MT_MEM_MAX_PORTS); nports = 1 is mt_mem_init. */
int mt_mem_init_mp(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned nports, unsigned p_ready, unsigned lat_max, uint32_t seed,
                   mt_err *e);
/* mt_mem_init_mp with only some pages backed by storage (--data sample|none: docs/reference/network.md
 * "Data modes"): backed[k] != 0 for page k (MT_MEM_PAGE_WORDS words); backed NULL: none. The
 * timing (ready and latency draws, responses, errors) is that of mt_mem_init_mp exactly. */
int mt_mem_init_pages(mt_mem *m, uint64_t nwords, const uint8_t *backed, unsigned lanes, unsigned nports, unsigned p_ready,
                      unsigned lat_max, uint32_t seed, mt_err *e);
/* Word k's storage, NULL if k is past the end or on a page without storage. */
static inline uint32_t *mt_mem_word(const mt_mem *m, uint64_t k) {
  if (k >= m->nw) return NULL;
  if (!m->pg) return &m->w[k];
  const uint32_t b = m->pg[k >> MT_MEM_PAGE_SHIFT];
  return b == MT_MEM_NOPAGE ? NULL : &m->w[((uint64_t)b << MT_MEM_PAGE_SHIFT) | (k & (MT_MEM_PAGE_WORDS - 1u))];
}
void mt_mem_free(mt_mem *m);
/* Values the memory presents during this cycle (port 0). */
void mt_mem_comb(const mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data);
/* The same for port p. */
void mt_mem_comb_port(const mt_mem *m, unsigned p, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data);
/* The edge (one port): take the request presented during this cycle (if ready), retire a response. */
void mt_mem_edge(mt_mem *m, uint8_t req_valid, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata);
/* The edge, every port: arrays of nports; wdata of port p at wdata + p * wstride. */
void mt_mem_edge_mp(mt_mem *m, const uint8_t *req_valid, const uint8_t *req_we, const uint32_t *addr, const uint32_t *be,
                    const uint32_t *wdata, unsigned wstride);
/* A whole cycle of every port: first what the memory presents during it, mt_mem_comb_port
 * for every port at once (arrays of nports; rsp_data of port p at rsp_data + p * dstride;
 * only the live lanes of a valid response are written: the response data of a port is
 * meaningful only while its rsp_valid is 1), then mt_mem_edge_mp with the requests
 * presented during the cycle (req_valid ..., which must not be those outputs), in one pass
 * over the responses. */
void mt_mem_cycle_mp(mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data, unsigned dstride, const uint8_t *req_valid,
                     const uint8_t *req_we, const uint32_t *addr, const uint32_t *be, const uint32_t *wdata, unsigned wstride);

#ifdef __cplusplus
}
#endif
#endif
