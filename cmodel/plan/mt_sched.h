/* SPDX-License-Identifier: Apache-2.0
 * mt_sched: an all-reduce schedule and the per-node schedule tables built from it.
 *
 * Every algorithm (MultiTree and the baselines) is expressed the same way: the buffer
 * is cut into flows (chunks) that tile it exactly; each flow f has a root; its reduce
 * transfers (child -> parent, partial sums) form a tree towards the root, its gather
 * transfers (parent -> child, the full sum) a tree away from it. Steps are numbered
 * from 1. The schedule tables of Fig. 5 are derived from the transfers (mt_sched_tables). */
#ifndef MT_SCHED_H
#define MT_SCHED_H
#include <stdint.h>
#include "fmt/mt_entry.h" /* MT_OP_* */
#include "topo/mt_topo.h"
#ifdef __cplusplus
extern "C" {
#endif


/* 16 bytes (a 4096-node MultiTree schedule has 33.5 million): node ids (< MT_MAX_NODES) and
 * steps (at most 65535, mt_plan refuses more) fit 16 bits; flows 24 bits (MT_MAX_FLOWS:
 * chunked schedules have chunks x N x H, docs/reference/themis.md), sharing a word with the flags. */
#define MT_MAX_FLOWS ((1 << 24) - 1)
typedef struct {
  int32_t path_off; /* path_len == 1: the link id itself; else offset in mt_sched.path, or with
                       pcode the byte offset of the path's code in mt_sched.pc */
  uint16_t src, dst, step;
  uint16_t path_len;     /* directed links on the path */
  unsigned flow : 24;    /* < MT_MAX_FLOWS */
  unsigned op : 2;       /* MT_OP_REDUCE or MT_OP_GATHER */
  unsigned multihop : 1; /* routed hop by hop by destination (baselines) */
  unsigned rev : 1;      /* the path is stored backwards (a reversed transfer shares it): link i
                            is the reverse of stored link path_len - 1 - i */
  unsigned pcode : 1;    /* the stored path is a position code (mt_sched.pc), not link ids */
} mt_xfer;

/* Position codes (switch networks, where a MultiTree path crosses up to 2L switches of a
 * fat-tree of L levels): a stored path of 2..MT_PCODE_MAX links is its first vertex and last
 * vertex (16 bits each), then per link its position in its source's out list, in
 * ceil(log2(out-degree)) bits (none for a vertex of one link): about 10 bytes for a 22-link
 * path instead of 88. Transfers fall back to link ids when a vertex id or the code's offset
 * does not fit. */
#define MT_PCODE_MAX 255

typedef struct {
  uint64_t addr, size;
} mt_chunk;

typedef struct {
  const mt_topo *topo; /* not owned */
  char algo[32];
  int n_nodes, n_flows, steps;
  int reduce_steps; /* steps 1..reduce_steps are the reduce-scatter half */
  int one_hop;      /* claims: every transfer on one link (or switch path), no link over capacity */
  int interleaved;  /* claims: some gather is sent in or before step reduce_steps (chunked
                       hier, Themis: chunks' all-gathers overlap later chunks' reduce-scatters);
                       0: the reduce-scatter half ends before any gather, as check requires */
  int nop_link;     /* the NOP (lockstep) estimate of a step: 1 the most bytes on one directed
                       link in it (per unit of multiplicity; bucket, whose steps carry several
                       flows a link), 0 the largest chunk sent in it (one flow a link) */
  int issue_order;  /* order of a node's entries within a step in its tables: MT_ISSUE_FLOW
                       (0, by flow) or MT_ISSUE_BYTES (by bytes queued on the entry's packetiser) */
  uint64_t bytes;
  int elem;
  mt_chunk *chunk; /* [n_flows] */
  int *root;       /* [n_flows] */
  mt_xfer *x;
  int nx, capx;
  int *path;
  int npath, cappath;
  unsigned char *pc;       /* position codes of the pcode transfers' paths */
  long npc, cappc;         /* bytes used, allocated */
  unsigned long long pgen; /* identifies pc's contents (a decoded path is cached by it) */
} mt_sched;

/* Link i of a pcode transfer's path (decoded; the last path decoded is kept per thread). */
int mt_sched_coded_link(const mt_sched *s, const mt_xfer *x, int i);

/* i-th link of a transfer's path */
static inline int mt_xlink(const mt_sched *s, const mt_xfer *x, int i) {
  if (x->path_len == 1) return x->path_off;
  if (x->pcode) return mt_sched_coded_link(s, x, i);
  return x->rev ? s->topo->rev_link[s->path[x->path_off + x->path_len - 1 - i]] : s->path[x->path_off + i];
}
#define MT_XLINK(s, x, i) mt_xlink((s), (x), (i))
/* Every link of a transfer's path in order into out[path_len]: a coded path decoded once. */
void mt_sched_path_links(const mt_sched *s, const mt_xfer *x, int *out);

/* Within a step the NI issues a node's entries in table order, one message per packetiser
 * (port mod L), so an entry whose packetiser is busy holds every entry behind it. FLOW: by
 * flow id (the planner's numbering decides the interleaving). BYTES: each entry at the bytes
 * its packetiser has queued before it in that step (flow order per packetiser), ties by flow:
 * the in-order issue then follows each port's byte rate even when one port carries larger
 * messages than another (docs/reference/planner.md "Per-node issue order"). */
enum { MT_ISSUE_FLOW = 0,
       MT_ISSUE_BYTES = 1 };

/* ---- building (used by the algorithms) ---- */
void mt_sched_init(mt_sched *s, const mt_topo *t, const char *algo, int n_flows);
void mt_sched_free(mt_sched *s);
/* Add a transfer along an explicit path (link ids); returns its index. */
int mt_sched_add(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, int nlinks);
/* mt_sched_add for a path that crosses one router hop (its inner vertices are switches, as
 * MultiTree's are): the path is not walked to count the hops (8 % of the samples of `plan`
 * on fattree:2,12). */
int mt_sched_add_onehop(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, int nlinks);
/* mt_sched_add_onehop for a path whose caller knows where each link is in its source's out
 * list: pw[i] = that position << 8 | the bits of a position there (the width of the position
 * code, 0 for one link, else the bits of out-degree - 1). The path must run from src to dst,
 * each link from the previous one's end, and end with the reverse of dst's only link when
 * dst has one; the code is then the one mt_sched_add_onehop stores, without reading the
 * topology. */
int mt_sched_add_onehop_pos(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, const int *pw,
                            int nlinks);
/* Add transfer i backwards (src and dst swapped, each link reversed) with its own flow, op
 * and step; it shares i's path (no copy). Returns its index. */
int mt_sched_add_reversed(mt_sched *s, int i, int flow, int op, int step);
/* Add a transfer routed by mt_topo_route (multi-hop when more than one router hop). */
int mt_sched_add_routed(mt_sched *s, int flow, int op, int src, int dst, int step, mt_err *e);
/* Cut `bytes` into n_flows chunks of whole elements of `elem` bytes, earlier flows
 * taking the remainder. Errors: zero bytes, not a whole number of elements, fewer
 * elements than flows. */
int mt_sched_set_bytes(mt_sched *s, uint64_t bytes, int elem, mt_err *e);
/* The checks of mt_sched_set_bytes alone (a planner that cuts uneven chunks itself sets
 * s->bytes, s->elem and s->chunk, and mt_plan then leaves them). */
int mt_sched_bytes_ok(uint64_t bytes, int elem, mt_err *e);
/* Algorithms whose flows have uneven sizes (flexreduce, blueconnect, bucket); the others tile the
 * buffer by mt_sched_set_bytes's rule, which check proves. */
int mt_sched_uneven(const mt_sched *s);
/* The NOP lockstep estimate of every step 1..steps (out[0 .. steps+1], out[0] unused): the
 * largest chunk sent in the step, or with nop_link the most bytes on one directed link (per
 * unit of its multiplicity, at most s->bytes). */
void mt_sched_nop_bytes(const mt_sched *s, uint64_t *out);
/* Number of router-to-router hops of a path (switch traversals do not count). */
int mt_sched_hops(const mt_sched *s, const mt_xfer *x);

/* ---- algorithms ----
 * The one list of algorithms: X(name, planner, one-line description). It yields the enum
 * (mt_algo_<name>), the names (mt_algo_names), the descriptions, the dispatch in mt_plan
 * and the command line's list (MT_ALGO_NAMES_STR). A planner fills s from t (steps, roots,
 * transfers; not the chunk sizes) or returns -1 with the reason in e. */
#define MT_ALGO_LIST(X) \
  X(multitree, mt_plan_multitree, "MultiTree (Algorithm 1): one tree per node, grown top-down together") \
  X(ring, mt_plan_ring, "ring: reduce-scatter then all-gather round a Hamiltonian cycle") \
  X(ring2d, mt_plan_ring2d, "2-D ring: rings along X, then along Y (2-D torus or mesh)") \
  X(dbtree, mt_plan_dbtree, "double binary tree: two in-order binary trees, half the buffer each") \
  X(hd, mt_plan_hd, "recursive halving-doubling (power-of-two node count)") \
  X(hdrm, mt_plan_hdrm, "halving-doubling with BiGraph rank mapping (bigraph:MxN)") \
  X(hier, mt_plan_hier, "hierarchical (Themis baseline): reduce-scatter dim 1..D, all-gather D..1; ring, direct, halving-doubling per dimension") \
  X(themis, mt_plan_themis, "Themis (Algorithm 1): chunks ordered across dimensions by a load tracker; --chunks, --intra fifo|scf") \
  X(dimbal, mt_plan_dimbal, "dimension-balanced chunks: each chunk's dimension order evens the wire time per dimension by bandwidth; --chunks, --intra fifo|scf") \
  X(blueconnect, mt_plan_blueconnect, "BlueConnect: reduce-scatter per level bottom-up, all-gather top-down (symmetric hierarchies)") \
  X(flexreduce, mt_plan_flexreduce, "FlexReduce (DAC 2020 Section III): uneven portions per learner on any hierarchy of switches") \
  X(bucket, mt_plan_bucket, "multi-dimensional bucket: one ring per dimension and direction at once, dimensions in rotated order (torus, mesh)") \
  X(meshtree, mt_plan_meshtree, "pipelined load-balanced shortest-path trees, up to 8 per root, list-scheduled (direct networks; for meshes)") \
  X(best, mt_plan_best, "multitree, bucket, (meshes) meshtree or (dims:) dimbal, whichever a latency estimate for these bytes says is faster (the schedule keeps the chosen name)")
typedef enum {
#define MT_ALGO_ENUM_(name, fn, desc) mt_algo_##name,
  MT_ALGO_LIST(MT_ALGO_ENUM_)
#undef MT_ALGO_ENUM_
    MT_ALGO_COUNT
} mt_algo;
#define MT_ALGO_STR_(name, fn, desc) " " #name
/* " multitree ring ring2d dbtree hd hdrm hier": the names, each after a space */
#define MT_ALGO_NAMES_STR MT_ALGO_LIST(MT_ALGO_STR_)
#define MT_ALGO_DECL_(name, fn, desc) int fn(mt_sched *s, const mt_topo *t, mt_err *e);
MT_ALGO_LIST(MT_ALGO_DECL_)
#undef MT_ALGO_DECL_
/* Planners that can run for seconds (MultiTree on thousands of nodes) print a progress
 * line to stderr every 2 s: 1 always, 0 never, -1 (default) when stderr is a terminal. */
extern int mt_plan_progress;
/* Test hook: MultiTree on a switch network runs every child search both guided and breadth
 * first and fails the plan when they disagree (docs/reference/planner.md); 0 (default) off. */
extern int mt_plan_verify_search;
/* Options of the chunked dimension schedules (hier, themis, dimbal; docs/reference/themis.md), set by the
 * command line: chunks per collective (0: the algorithm's default, hier 1, themis 64, dimbal
 * the best of its list) and
 * the intra-dimension order (-1: default, hier FIFO, themis SCF; else MT_INTRA_*). mt_plan
 * refuses them with other algorithms, and fills bytes and elem for the planners that need
 * the size (Themis's loads depend on it). */
typedef struct {
  int chunks, intra;
  uint64_t bytes;
  int elem;
  int overlap; /* the queues are for a dimension that overlaps its stages' latency (sim --overlap) */
} mt_plan_opts;
extern mt_plan_opts mt_plan_opt;
extern const char *const mt_algo_names[]; /* [MT_ALGO_COUNT + 1], NULL-terminated */
extern const char *const mt_algo_descs[]; /* [MT_ALGO_COUNT] */
/* The algorithm called `name`, or -1. */
int mt_algo_from_name(const char *name);
int mt_plan(mt_sched *s, const mt_topo *t, const char *algo, uint64_t bytes, int elem, mt_err *e);
/* --algo best's estimate of a planned schedule in cycles of the paper configuration: per step
 * L + O m + b / 16 (m, b: the most messages and bytes on one directed link in the step;
 * docs/reference/planner.md "best"). */
double mt_plan_estimate(const mt_sched *s);
/* best's estimate on a topology whose links carry bandwidths (dims:, themis:), ns: per step the
 * most bytes on one directed link over its capacity plus the step's longest path latency. */
double mt_plan_estimate_ns(const mt_sched *s);
/* Its constants (cycles; L and O fitted to the 32 KiB runs of MultiTree and bucket on
 * torus:4x4 and torus:8x8), also bucket's choice of pipeline (mt_plan_bucket.c). */
#define MT_EST_L 102.0
#define MT_EST_O 12.0
#define MT_EST_B 16.0
/* meshtree: every message of a step depends on one received in the step before, so a step
 * also waits out the link latency: measured 160-164 cycles per step beyond the chunk's
 * bytes / 16 at the flow level (mesh:4x4, mesh:8x8, 256 KiB to 8 MiB), MT_EST_DEP more than
 * MT_EST_L + MT_EST_O */
#define MT_EST_DEP 50.0
/* best takes meshtree only when its estimate is below this share of the other's: bucket's
 * estimate of its multi-flow steps runs high on mesh:3x4x2 (128-512 KiB), where meshtree
 * would otherwise be picked while bucket is up to 13 % faster (docs/reference/planner.md) */
#define MT_EST_MESHTREE_MARGIN 0.95

/* ---- schedule tables (Fig. 5) ----
 * A slot names a peer of an entry: the parent, or one child. For a slot the node SENDS
 * to (reduce parent, gather children) `port` is this node's output port and `eject`
 * the ejection port at the receiver; for a slot it RECEIVES from (reduce children,
 * gather parent) `port` is the sender's output port and `eject` this node's ejection
 * port. port = MT_PORT_ROUTED marks a multi-hop transfer routed by destination id. */
#define MT_PORT_ROUTED (-2)
typedef struct {
  int node, port, eject;
} mt_slot;

typedef struct {
  int op, flow, step;
  int has_parent;
  mt_slot parent;
  int nchild;
  mt_slot *child;      /* [nchild], points into mt_tables.slots */
  uint64_t addr, size; /* the chunk (NOP: size = the step's largest chunk, for the lockstep estimate) */
} mt_entry;

typedef struct {
  int n_nodes, steps, n_flows;
  int local_ports;    /* L: ejection ports per node */
  int *start, *count; /* node n: entries[start[n] .. start[n]+count[n]) */
  mt_entry *entries;
  int n_entries;
  mt_slot *slots;
  int n_slots;
  int max_entries, max_children;
} mt_tables;

/* Derive per-node tables: reduce entries (including the root's reduce entry, which
 * sends nothing and lists the contributions the root waits for), gather entries (one
 * per node, flow and step, children in allocation order), NOP entries for steps in
 * which a node has nothing to do. Entries sorted by (step, flow, op), or with
 * s->issue_order MT_ISSUE_BYTES by (step, bytes queued before the entry on its packetiser,
 * flow, op). local_ports <= 0
 * means L = the node's number of router ports. */
int mt_sched_tables(const mt_sched *s, int local_ports, mt_tables *tb, mt_err *e);
void mt_tables_free(mt_tables *tb);
/* The same tables a node at a time, without holding them all (a 4096-node MultiTree
 * schedule has 33.5 million entries): mt_tables_gen_node gives node n's entries (and the
 * slots they point to), valid until the next call; nodes are best asked in order 0, 1, ...
 * (each block of nodes costs a pass over the transfers). -1 with the reason in e. */
typedef struct mt_tables_gen mt_tables_gen;
mt_tables_gen *mt_tables_gen_new(const mt_sched *s, int local_ports);
int mt_tables_gen_node(mt_tables_gen *g, int n, const mt_entry **en, int *count, mt_err *e);
void mt_tables_gen_free(mt_tables_gen *g);
static inline const mt_entry *mt_node_entries(const mt_tables *tb, int n) { return tb->entries + tb->start[n]; }
const char *mt_op_name(int op);

#ifdef __cplusplus
}
#endif
#endif
