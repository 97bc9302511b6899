/* SPDX-License-Identifier: Apache-2.0
 * mt_flit.h: the flit of docs/interfaces.md as an array of 32-bit words with the exact RTL
 * bit layout (bit b of the RTL vector is bit b%32 of w[b/32], as in Verilator's VlWide).
 * Contract: PayloadW is a multiple of 32, so type and VC sit in word PayloadW/32:
 * type = bits [2:0], VC = bits [3+VcW-1:3]. Bits above FlitW are always 0.
 * Header-only (static inline): shared by the router and the network interface. */
#ifndef MT_FLIT_H
#define MT_FLIT_H
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MT_FLIT_MAX_PAYLOAD_W 512u
#define MT_FLIT_WORDS (MT_FLIT_MAX_PAYLOAD_W / 32u + 1u)

typedef struct {
  uint32_t w[MT_FLIT_WORDS];
} mt_flit;

/* Table II flit types (bit 2 = normal packet). */
enum {
  MT_FT_AR_HEAD = 0,    /* all-reduce message head */
  MT_FT_AR_BODY = 1,
  MT_FT_AR_SUBTAIL = 2, /* ends a sub-packet */
  MT_FT_AR_TAIL = 3,    /* ends the last sub-packet and the message */
  MT_FT_HEAD = 4,       /* normal packet */
  MT_FT_BODY = 5,
  MT_FT_TAIL = 6,
  MT_FT_HEADTAIL = 7
};

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
  return payload_w + 3u + mt_flit_vcw(num_vcs);
}
static inline unsigned mt_flit_words(unsigned payload_w, unsigned num_vcs) {
  return (mt_flit_bits(payload_w, num_vcs) + 31u) / 32u;
}

static inline void mt_flit_clear(mt_flit *f) { memset(f, 0, sizeof *f); }
static inline int mt_flit_eq(const mt_flit *a, const mt_flit *b) {
  return memcmp(a, b, sizeof *a) == 0;
}

static inline unsigned mt_flit_type(const mt_flit *f, unsigned payload_w) {
  return f->w[payload_w / 32u] & 7u;
}
static inline unsigned mt_flit_vc(const mt_flit *f, unsigned payload_w, unsigned num_vcs) {
  return (f->w[payload_w / 32u] >> 3) & ((1u << mt_flit_vcw(num_vcs)) - 1u);
}
static inline void mt_flit_set_type(mt_flit *f, unsigned payload_w, unsigned type) {
  uint32_t *x = &f->w[payload_w / 32u];
  *x = (*x & ~7u) | (type & 7u);
}
static inline void mt_flit_set_vc(mt_flit *f, unsigned payload_w, unsigned num_vcs, unsigned vc) {
  unsigned m = (1u << mt_flit_vcw(num_vcs)) - 1u;
  uint32_t *x = &f->w[payload_w / 32u];
  *x = (*x & ~(m << 3)) | ((vc & m) << 3);
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

/* Head flit payload: packet info (docs/interfaces.md, Fig. 8). Word 0..3 of the payload. */
static inline unsigned mt_hd_dst(const mt_flit *f) { return f->w[0] & 0xfffu; }
static inline unsigned mt_hd_src(const mt_flit *f) { return (f->w[0] >> 12) & 0xfffu; }
static inline unsigned mt_hd_next(const mt_flit *f) { return (f->w[0] >> 24) & 0xfu; }
static inline unsigned mt_hd_eject(const mt_flit *f) { return (f->w[0] >> 28) & 0xfu; }
static inline unsigned mt_hd_flow(const mt_flit *f) { return f->w[1] & 0xfffu; }
static inline unsigned mt_hd_op(const mt_flit *f) { return (f->w[1] >> 12) & 3u; }
static inline unsigned mt_hd_last(const mt_flit *f) { return (f->w[1] >> 14) & 1u; }
static inline unsigned mt_hd_step(const mt_flit *f) { return (f->w[1] >> 16) & 0xffffu; }
static inline uint32_t mt_hd_addr(const mt_flit *f) { return f->w[2]; }
static inline uint32_t mt_hd_len(const mt_flit *f) { return f->w[3]; }

typedef struct {
  unsigned dst, src, next, eject, flow, op, last, step;
  uint32_t addr, len;
} mt_head_info;

/* Writes the packet info into payload bits [127:0]; leaves the other words alone. */
static inline void mt_hd_pack(mt_flit *f, const mt_head_info *h) {
  f->w[0] = (h->dst & 0xfffu) | ((h->src & 0xfffu) << 12) | ((h->next & 0xfu) << 24) |
            ((uint32_t)(h->eject & 0xfu) << 28);
  f->w[1] = (h->flow & 0xfffu) | ((h->op & 3u) << 12) | ((h->last & 1u) << 14) |
            ((uint32_t)(h->step & 0xffffu) << 16);
  f->w[2] = h->addr;
  f->w[3] = h->len;
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
  uint32_t nx = (f->w[0] >> 24) & 0xfu, ej = (f->w[0] >> 28) & 0xfu;
  f->w[0] = (f->w[0] & 0x00ffffffu) | (ej << 24) | (nx << 28);
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
