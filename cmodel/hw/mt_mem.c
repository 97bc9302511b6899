/* SPDX-License-Identifier: Apache-2.0 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise */
#endif
#include "hw/mt_mem.h"
#include "util/mt_rng.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif


/* Speed only. A large buffer is advised to use transparent huge pages (the NI's streams
 * through a buffer of many MiB otherwise miss the TLB on every 4 KiB page); a request
 * prefetches its stream this many words ahead (ports stream through consecutive addresses). */
#define MEM_HUGE_MIN (4u << 20)
#define MEM_PF_WORDS 64u

static void advise_huge(void *p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t hp = (uintptr_t)2 << 20;
  const uintptr_t a = ((uintptr_t)p + hp - 1u) & ~(hp - 1u), e = ((uintptr_t)p + bytes) & ~(hp - 1u);
  if (bytes >= MEM_HUGE_MIN && e > a) (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

static int init_common(mt_mem *m, unsigned lanes, unsigned nports, unsigned p_ready, unsigned lat_max, mt_err *e) {
  memset(m, 0, sizeof *m);
  if (lanes < 1 || lanes > MT_MEM_MAX_LANES) return mt_fail(e, "memory: %u lanes, must be 1..%d", lanes, MT_MEM_MAX_LANES);
  if (p_ready < 1 || p_ready > 100) return mt_fail(e, "memory: mem_p_ready=%u, must be 1..100 (%%)", p_ready);
  if (lat_max < 1 || lat_max > MT_MEM_LAT_MAX) return mt_fail(e, "memory: mem_lat_max=%u, must be 1..%d cycles", lat_max, MT_MEM_LAT_MAX);
  if (nports < 1 || nports > MT_MEM_MAX_PORTS) return mt_fail(e, "memory: %u ports, must be 1..%d", nports, MT_MEM_MAX_PORTS);
  return 0;
}

static int init_rest(mt_mem *m, uint64_t nwords, uint64_t stored, unsigned lanes, unsigned nports, unsigned p_ready, unsigned lat_max,
                     uint32_t seed, mt_err *e) {
  m->w = calloc(stored ? stored : 1, 4);
  m->port = calloc(nports, sizeof *m->port);
  if (!m->w || !m->port) {
    free(m->w);
    free(m->port);
    free(m->pg);
    m->w = NULL;
    m->port = NULL;
    m->pg = NULL;
    return mt_fail(e, "memory of %llu words: out of memory", (unsigned long long)stored);
  }
  advise_huge(m->w, (size_t)(stored ? stored : 1) * 4u);
  m->nw = nwords;
  m->lanes = lanes;
  m->p_ready = p_ready;
  m->lat_max = lat_max;
  m->nports = nports;
  m->rng = seed ? seed : 1;
  for (unsigned p = 0; p < nports; p++) m->ready[p] = 1;
  m->readym = (uint32_t)((1ull << nports) - 1u);
  return 0;
}

int mt_mem_init_mp(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned nports, unsigned p_ready, unsigned lat_max, uint32_t seed,
                   mt_err *e) {
  if (init_common(m, lanes, nports, p_ready, lat_max, e)) return -1;
  return init_rest(m, nwords, nwords, lanes, nports, p_ready, lat_max, seed, e);
}

int mt_mem_init_pages(mt_mem *m, uint64_t nwords, const uint8_t *backed, unsigned lanes, unsigned nports, unsigned p_ready,
                      unsigned lat_max, uint32_t seed, mt_err *e) {
  if (init_common(m, lanes, nports, p_ready, lat_max, e)) return -1;
  const uint64_t np = (nwords + MT_MEM_PAGE_WORDS - 1u) >> MT_MEM_PAGE_SHIFT;
  m->pg = malloc((size_t)(np ? np : 1) * sizeof *m->pg);
  if (!m->pg) return mt_fail(e, "memory of %llu words: out of memory for its page map", (unsigned long long)nwords);
  uint32_t nb = 0;
  for (uint64_t k = 0; k < np; k++) m->pg[k] = backed && backed[k] ? nb++ : MT_MEM_NOPAGE;
  return init_rest(m, nwords, (uint64_t)nb << MT_MEM_PAGE_SHIFT, lanes, nports, p_ready, lat_max, seed, e);
}

int mt_mem_init(mt_mem *m, uint64_t nwords, unsigned lanes, unsigned p_ready, unsigned lat_max, uint32_t seed, mt_err *e) {
  return mt_mem_init_mp(m, nwords, lanes, 1, p_ready, lat_max, seed, e);
}

void mt_mem_free(mt_mem *m) {
  free(m->w);
  free(m->pg);
  free(m->port);
  memset(m, 0, sizeof *m);
}

void mt_mem_comb_port(const mt_mem *m, unsigned p, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
  const mt_mem_port *q = &m->port[p];
  *req_ready = m->ready[p];
  *rsp_valid = 0;
  if (q->rsp_cnt && q->rsp[q->rsp_rd].due <= m->cyc) {
    *rsp_valid = 1;
    memcpy(rsp_data, q->rsp[q->rsp_rd].d, sizeof q->rsp[0].d);
  }
}

void mt_mem_comb(const mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data) {
  mt_mem_comb_port(m, 0, req_ready, rsp_valid, rsp_data);
}

/* Speed only: the n live lanes of a response or request (n = 4, 128-bit flits, the common case,
 * as one fixed-size copy) */
static inline void copy_lanes(uint32_t *d, const uint32_t *s, unsigned n) {
  if (n == 4) memcpy(d, s, 16);
  else memcpy(d, s, n * sizeof *d);
}

/* mt_mem_cycle_mp's ready and valid bytes (valid set below for the ports with a response) */
static inline void ready_valid_bytes(const mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid) {
  unsigned p0 = 0;
  for (; p0 + 8u <= m->nports; p0 += 8u) { /* 8 ports at a time (no calls for a few bytes) */
    memcpy(req_ready + p0, m->ready + p0, 8);
    memset(rsp_valid + p0, 0, 8);
  }
  if (p0 + 4u <= m->nports) {
    memcpy(req_ready + p0, m->ready + p0, 4);
    memset(rsp_valid + p0, 0, 4);
    p0 += 4u;
  }
  for (; p0 < m->nports; p0++) {
    req_ready[p0] = m->ready[p0];
    rsp_valid[p0] = 0;
  }
}

/* The front response of port p retires (it was due). */
static inline void pop_rsp(mt_mem *m, mt_mem_port *q, unsigned p) {
  /* an empty queue restarts at entry 0 (same behaviour; it keeps a port to a few entries) */
  if (--q->rsp_cnt) q->rsp_rd = (q->rsp_rd + 1) % MT_MEM_RSPQ;
  else {
    q->rsp_rd = 0;
    m->rspm &= ~(1u << p);
  }
}

/* The front response of every port with responses queued retires if it is due (no draws). */
static void retire(mt_mem *m) {
  for (uint32_t pm = m->rspm; pm; pm &= pm - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(pm);
    mt_mem_port *q = &m->port[p];
    if (q->rsp[q->rsp_rd].due <= m->cyc) pop_rsp(m, q, p);
  }
}

static inline void read_lanes(uint32_t *d, const uint32_t *x, uint32_t be, unsigned n) {
  for (unsigned k = 0; k < n; k++) d[k] = (be >> k) & 1u ? x[k] : 0u;
}

/* Speed only: the fields of the memory a request reads, in locals for one edge (the stores of
 * data words below could alias m's own 32-bit fields, so the compiler would load them again
 * for every request) */
typedef struct {
  uint32_t *w;
  const uint32_t *pg;
  uint64_t nw, cyc;
  unsigned n, lat_max;
  uint32_t all; /* every lane: (1 << n) - 1 */
} mem_edge;

/* The request presented on port p (valid, port ready) taken at this edge. Lanes of be past
 * the end of the memory are errors; on a page without storage reads give 0 and writes are
 * dropped (the same errors and draws). A read's lanes not enabled are 0 (lanes >= m->lanes of
 * a response are never written: 0 since init). */
static inline void port_req(mt_mem *m, const mem_edge *g, unsigned p, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata) {
  mt_mem_port *q = &m->port[p];
  const unsigned n = g->n;
  const uint64_t w0 = addr / 4;
  if (addr & 3u) m->errors++;
  if (!req_we && q->rsp_cnt == MT_MEM_RSPQ) {
    m->errors++;
    return;
  }
  /* the words from w0 where all n are stored one after the other (whole memory, or one
   * backed page), else x = NULL; none: none of them is stored (a page without storage) */
  uint32_t *x = NULL;
  int none = 0;
  if (w0 + n <= g->nw) {
    if (!g->pg) x = &g->w[w0];
    else if ((w0 & (MT_MEM_PAGE_WORDS - 1u)) + n <= MT_MEM_PAGE_WORDS) { /* not across a page */
      const uint32_t b = g->pg[w0 >> MT_MEM_PAGE_SHIFT];
      if (b == MT_MEM_NOPAGE) none = 1;
      else x = &g->w[((uint64_t)b << MT_MEM_PAGE_SHIFT) | (w0 & (MT_MEM_PAGE_WORDS - 1u))];
    }
  }
  const int pf = x && !g->pg && w0 + MEM_PF_WORDS < g->nw;
  if (req_we) {
    if (pf) __builtin_prefetch(x + MEM_PF_WORDS, 1);
    if (x) {
      if ((be & g->all) == g->all) copy_lanes(x, wdata, n);
      else
        for (unsigned k = 0; k < n; k++)
          if ((be >> k) & 1u) x[k] = wdata[k];
    } else if (!none)
      for (unsigned k = 0; k < n; k++)
        if ((be >> k) & 1u) {
          uint32_t *y = mt_mem_word(m, w0 + k);
          if (w0 + k >= g->nw) m->errors++;
          else if (y) *y = wdata[k];
        }
    return;
  }
  const unsigned wi = (q->rsp_rd + q->rsp_cnt) % MT_MEM_RSPQ;
  uint32_t *d = q->rsp[wi].d;
  if (pf) __builtin_prefetch(x + MEM_PF_WORDS, 0);
  if (x) {
    if ((be & g->all) == g->all) copy_lanes(d, x, n);
    else read_lanes(d, x, be, n);
  } else {
    if (n == 4) memset(d, 0, 16);
    else memset(d, 0, n * sizeof *d);
    if (!none)
      for (unsigned k = 0; k < n; k++)
        if ((be >> k) & 1u) {
          const uint32_t *y = mt_mem_word(m, w0 + k);
          if (w0 + k >= g->nw) m->errors++;
          else if (y) d[k] = *y;
        }
  }
  /* the response joins the port's queue: due after a drawn latency, in order */
  uint64_t due = g->cyc + (g->lat_max > 1 ? 1 + mt_xs32(&m->rng) % g->lat_max : 1);
  if (q->rsp_cnt && due <= q->last_due) due = q->last_due + 1; /* in order */
  q->rsp[wi].due = due;
  q->last_due = due;
  q->rsp_cnt++;
  m->rspm |= 1u << p;
}

static void ready_draws(mt_mem *m) {
  if (m->p_ready < 100) { /* else every port stays ready (and nothing is drawn) */
    m->readym = 0;
    for (unsigned p = 0; p < m->nports; p++) {
      m->ready[p] = (uint8_t)(mt_xs32(&m->rng) % 100 < m->p_ready);
      m->readym |= (uint32_t)m->ready[p] << p;
    }
  }
  m->cyc++;
}

/* The requests of an edge, after the responses that retire: pm = the ports presenting one
 * (arrays indexed by port). The responses that retire and the requests taken touch only
 * their own port's queue, so all retire first; the requests are taken in port-index order
 * (the order of the latency draws, and of a write and a read of one word at the same edge).
 * Then the ready draws of the next cycle. */
static void take(mt_mem *m, uint32_t pm, const uint8_t *req_we, const uint32_t *addr, const uint32_t *be, const uint32_t *wdata,
                 unsigned wstride) {
  pm &= m->readym;
  if (pm) {
    const mem_edge g = {m->w, m->pg, m->nw, m->cyc, m->lanes, m->lat_max, (1u << m->lanes) - 1u}; /* lanes <= MT_MEM_MAX_LANES */
    for (; pm; pm &= pm - 1u) {
      const unsigned p = (unsigned)__builtin_ctz(pm);
      port_req(m, &g, p, req_we[p], addr[p], be[p], wdata + (size_t)p * wstride);
    }
  }
  ready_draws(m);
}

void mt_mem_edge(mt_mem *m, uint8_t req_valid, uint8_t req_we, uint32_t addr, uint32_t be, const uint32_t *wdata) {
  retire(m);
  take(m, req_valid ? 1u : 0u, &req_we, &addr, &be, wdata, 0);
}

/* Speed only: bit k of the result is set iff a[k] != 0, k < n (eight bytes at a time). */
static inline uint32_t nz_mask(const uint8_t *a, unsigned n) {
  uint32_t r = 0;
  unsigned p = 0;
#if defined(__SSE2__)
  for (; p + 16u <= n; p += 16u) { /* sixteen bytes at once */
    const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + p));
    r |= (~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_setzero_si128())) & 0xffffu) << p;
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; p + 8u <= n; p += 8u) {
    uint64_t x;
    memcpy(&x, a + p, 8);
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    x = (((x & lo7) + lo7) | x) & ~lo7; /* high bit of each byte := byte != 0 */
    r |= (uint32_t)((x >> 7) * 0x0102040810204080ull >> 56) << p;
  }
  if (p + 4u <= n) {
    uint32_t x;
    memcpy(&x, a + p, 4);
    const uint32_t lo7 = 0x7f7f7f7fu;
    x = (((x & lo7) + lo7) | x) & ~lo7;
    r |= (uint32_t)((x >> 7) * 0x00204081u >> 21 & 0xfu) << p;
    p += 4u;
  }
#endif
  for (; p < n; p++) r |= (uint32_t)(a[p] != 0) << p;
  return r;
}

void mt_mem_edge_mp(mt_mem *m, const uint8_t *req_valid, const uint8_t *req_we, const uint32_t *addr, const uint32_t *be,
                    const uint32_t *wdata, unsigned wstride) {
  retire(m);
  take(m, nz_mask(req_valid, m->nports), req_we, addr, be, wdata, wstride);
}

void mt_mem_cycle_mp(mt_mem *m, uint8_t *req_ready, uint8_t *rsp_valid, uint32_t *rsp_data, unsigned dstride, const uint8_t *req_valid,
                     const uint8_t *req_we, const uint32_t *addr, const uint32_t *be, const uint32_t *wdata, unsigned wstride) {
  ready_valid_bytes(m, req_ready, rsp_valid);
  /* the responses presented during this cycle are the ones that retire at its edge (cycle
   * and lanes in locals: the stores of valid bytes could alias them) */
  const uint64_t cyc = m->cyc;
  const unsigned n = m->lanes;
  for (uint32_t pm = m->rspm; pm; pm &= pm - 1u) {
    const unsigned p = (unsigned)__builtin_ctz(pm);
    mt_mem_port *q = &m->port[p];
    if (q->rsp[q->rsp_rd].due <= cyc) {
      rsp_valid[p] = 1;
      copy_lanes(rsp_data + (size_t)p * dstride, q->rsp[q->rsp_rd].d, n);
      pop_rsp(m, q, p);
    }
  }
  take(m, nz_mask(req_valid, m->nports), req_we, addr, be, wdata, wstride);
}
