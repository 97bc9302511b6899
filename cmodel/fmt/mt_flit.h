/* SPDX-License-Identifier: Apache-2.0
 * mt_flit.h: the flit of docs/reference/interfaces.md as an array of 32-bit words with the exact RTL
 * bit layout (bit b of the RTL vector is bit b%32 of w[b/32], as in Verilator's VlWide).
 * Contract: PayloadW is a multiple of 32, so type and VC sit in word PayloadW/32:
 * type = bits [MT_FT_W-1:0], VC = bits [MT_FT_W+VcW-1:MT_FT_W] (MT_FT_W = 3). Bits above FlitW are always 0.
 * Header-only (static inline): shared by the router and the network interface. */
#ifndef MT_FLIT_H
#define MT_FLIT_H
#include <stdint.h>
#include <string.h>
#include "fmt/mt_formats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_FLIT_MAX_PAYLOAD_W 512u
#define MT_FLIT_WORDS (MT_FLIT_MAX_PAYLOAD_W / 32u + 1u)

typedef struct {
  uint32_t w[MT_FLIT_WORDS];
} mt_flit;

/* Table II flit types (bit 2 = normal packet), MT_FLIT_TYPES in fmt/mt_formats.h. */
#define MT_FT_ENUM_(n, v, d) MT_FT_##n = v,
enum { MT_FLIT_TYPES(MT_FT_ENUM_) };
#undef MT_FT_ENUM_

static inline unsigned mt_clog2(unsigned v) {
  unsigned r = 0;
  while ((1u << r) < v) r++;
  return r;
}
/* VcW = max(1, clog2(NumVcs)) */
static inline unsigned mt_flit_vcw(unsigned num_vcs) {
  unsigned r = mt_clog2(num_vcs);
  return r ? r : 1u;
}
static inline unsigned mt_flit_bits(unsigned payload_w, unsigned num_vcs) {
  return payload_w + MT_FT_W + mt_flit_vcw(num_vcs);
}
static inline unsigned mt_flit_words(unsigned payload_w, unsigned num_vcs) {
  return (mt_flit_bits(payload_w, num_vcs) + 31u) / 32u;
}

static inline void mt_flit_clear(mt_flit *f) { memset(f, 0, sizeof *f); }
static inline int mt_flit_eq(const mt_flit *a, const mt_flit *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

static inline unsigned mt_flit_type(const mt_flit *f, unsigned payload_w) {
  return f->w[payload_w / 32u] & ((1u << MT_FT_W) - 1u);
}
static inline unsigned mt_flit_vc(const mt_flit *f, unsigned payload_w, unsigned num_vcs) {
  return (f->w[payload_w / 32u] >> MT_FT_W) & ((1u << mt_flit_vcw(num_vcs)) - 1u);
}
static inline void mt_flit_set_type(mt_flit *f, unsigned payload_w, unsigned type) {
  uint32_t *x = &f->w[payload_w / 32u];
  const uint32_t m = (1u << MT_FT_W) - 1u;
  *x = (*x & ~m) | (type & m);
}
static inline void mt_flit_set_vc(mt_flit *f, unsigned payload_w, unsigned num_vcs, unsigned vc) {
  unsigned m = (1u << mt_flit_vcw(num_vcs)) - 1u;
  uint32_t *x = &f->w[payload_w / 32u];
  *x = (*x & ~(m << MT_FT_W)) | ((vc & m) << MT_FT_W);
}

/* Type predicates (Table II). */
static inline int mt_ft_is_normal(unsigned t) { return (t & 4u) != 0; }
static inline int mt_ft_is_head(unsigned t) {
  return t == MT_FT_AR_HEAD || t == MT_FT_HEAD || t == MT_FT_HEADTAIL;
}
/* Ends the packet / message (frees the downstream VC). */
static inline int mt_ft_is_tail(unsigned t) {
  return t == MT_FT_AR_TAIL || t == MT_FT_TAIL || t == MT_FT_HEADTAIL;
}

/* Head flit payload: packet info (docs/reference/interfaces.md, Fig. 8), payload bits [127:0]; the
 * field offsets and widths are MT_HEAD_FIELDS of fmt/mt_formats.h (MT_HD_<F>_LSB, _W).
 * No field crosses a 32-bit word. */
#define MT_HD_ENUM_(n, l, w, d) MT_HD_##n##_LSB = l, MT_HD_##n##_W = w,
enum { MT_HEAD_FIELDS(MT_HD_ENUM_) };
#undef MT_HD_ENUM_
#ifdef __cplusplus
#define MT_HD_SASSERT_ static_assert
#else
#define MT_HD_SASSERT_ _Static_assert
#endif
#define MT_HD_CHECK_(n, l, w, d) MT_HD_SASSERT_((l) / 32 == ((l) + (w)-1) / 32 && (l) + (w) <= MT_HEAD_W, "head field " #n);
MT_HEAD_FIELDS(MT_HD_CHECK_)
#undef MT_HD_CHECK_
#undef MT_HD_SASSERT_
static inline uint32_t mt_hd_mask(unsigned w) { return w >= 32u ? 0xffffffffu : (1u << w) - 1u; }
static inline uint32_t mt_hd_get(const mt_flit *f, unsigned lsb, unsigned w) {
  return (f->w[lsb / 32u] >> (lsb % 32u)) & mt_hd_mask(w);
}
static inline void mt_hd_put(mt_flit *f, unsigned lsb, unsigned w, uint32_t v) {
  uint32_t m = mt_hd_mask(w) << (lsb % 32u);
  f->w[lsb / 32u] = (f->w[lsb / 32u] & ~m) | ((v << (lsb % 32u)) & m);
}
static inline unsigned mt_hd_dst(const mt_flit *f) { return mt_hd_get(f, MT_HD_DST_LSB, MT_HD_DST_W); }
static inline unsigned mt_hd_src(const mt_flit *f) { return mt_hd_get(f, MT_HD_SRC_LSB, MT_HD_SRC_W); }
static inline unsigned mt_hd_next(const mt_flit *f) { return mt_hd_get(f, MT_HD_NEXT_LSB, MT_HD_NEXT_W); }
static inline unsigned mt_hd_eject(const mt_flit *f) { return mt_hd_get(f, MT_HD_EJECT_LSB, MT_HD_EJECT_W); }
static inline unsigned mt_hd_flow(const mt_flit *f) { return mt_hd_get(f, MT_HD_FLOW_LSB, MT_HD_FLOW_W); }
static inline unsigned mt_hd_op(const mt_flit *f) { return mt_hd_get(f, MT_HD_OP_LSB, MT_HD_OP_W); }
static inline unsigned mt_hd_last(const mt_flit *f) { return mt_hd_get(f, MT_HD_LAST_LSB, MT_HD_LAST_W); }
static inline unsigned mt_hd_step(const mt_flit *f) { return mt_hd_get(f, MT_HD_STEP_LSB, MT_HD_STEP_W); }
static inline uint32_t mt_hd_addr(const mt_flit *f) { return mt_hd_get(f, MT_HD_ADDR_LSB, MT_HD_ADDR_W); }
static inline uint32_t mt_hd_len(const mt_flit *f) { return mt_hd_get(f, MT_HD_LEN_LSB, MT_HD_LEN_W); }

typedef struct {
  unsigned dst, src, next, eject, flow, op, last, step;
  uint32_t addr, len;
} mt_head_info;

/* Writes the packet info into payload bits [127:0] (bits of no field are 0); leaves the other
 * words alone. */
static inline void mt_hd_pack(mt_flit *f, const mt_head_info *h) {
  for (unsigned i = 0; i < MT_HEAD_W / 32u; i++) f->w[i] = 0;
  mt_hd_put(f, MT_HD_DST_LSB, MT_HD_DST_W, h->dst);
  mt_hd_put(f, MT_HD_SRC_LSB, MT_HD_SRC_W, h->src);
  mt_hd_put(f, MT_HD_NEXT_LSB, MT_HD_NEXT_W, h->next);
  mt_hd_put(f, MT_HD_EJECT_LSB, MT_HD_EJECT_W, h->eject);
  mt_hd_put(f, MT_HD_FLOW_LSB, MT_HD_FLOW_W, h->flow);
  mt_hd_put(f, MT_HD_OP_LSB, MT_HD_OP_W, h->op);
  mt_hd_put(f, MT_HD_LAST_LSB, MT_HD_LAST_W, h->last);
  mt_hd_put(f, MT_HD_STEP_LSB, MT_HD_STEP_W, h->step);
  mt_hd_put(f, MT_HD_ADDR_LSB, MT_HD_ADDR_W, h->addr);
  mt_hd_put(f, MT_HD_LEN_LSB, MT_HD_LEN_W, h->len);
}
/* The head flit of a transfer of len bytes at addr (h's routing fields set): with packets
 * (pm) the packet at byte off, at most pkt_bytes, last when it is the transfer's last; as one
 * message (sub-packet flow control) the whole transfer, `next` the ejection it continues on.
 * One writer for every NI model (hw/mt_ni_pktz.c, hw/mt_paper_ni.c). */
static inline void mt_hd_write(mt_flit *f, unsigned payload_w, mt_head_info *h, int pm, uint32_t addr, uint32_t len,
                               uint32_t off, uint32_t pkt_bytes, unsigned last, unsigned next) {
  if (pm) {
    const uint32_t rem = len - off;
    h->next = 0;
    h->addr = addr + off;
    h->len = rem < pkt_bytes ? rem : pkt_bytes;
    h->last = last;
  } else {
    h->next = next;
    h->addr = addr;
    h->len = len;
    h->last = 1;
  }
  mt_hd_pack(f, h);
  mt_flit_set_type(f, payload_w, pm ? MT_FT_HEAD : MT_FT_AR_HEAD);
}
static inline void mt_hd_unpack(const mt_flit *f, mt_head_info *h) {
  h->dst = mt_hd_dst(f);
  h->src = mt_hd_src(f);
  h->next = mt_hd_next(f);
  h->eject = mt_hd_eject(f);
  h->flow = mt_hd_flow(f);
  h->op = mt_hd_op(f);
  h->last = mt_hd_last(f);
  h->step = mt_hd_step(f);
  h->addr = mt_hd_addr(f);
  h->len = mt_hd_len(f);
}
/* Swap next and eject (done by the source router after route computation). */
static inline void mt_hd_swap_next_eject(mt_flit *f) {
  uint32_t nx = mt_hd_next(f), ej = mt_hd_eject(f);
  mt_hd_put(f, MT_HD_NEXT_LSB, MT_HD_NEXT_W, ej);
  mt_hd_put(f, MT_HD_EJECT_LSB, MT_HD_EJECT_W, nx);
}

/* Payload flits of a message/packet of len bytes: ceil(len / (PayloadW/8)). */
static inline uint32_t mt_payload_flits(uint32_t len, unsigned payload_w) {
  uint32_t fb = payload_w / 8u;
  return (uint32_t)(((uint64_t)len + fb - 1u) / fb);
}

#ifdef __cplusplus
}
#endif
#endif
