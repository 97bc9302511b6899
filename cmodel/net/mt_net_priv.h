/* SPDX-License-Identifier: Apache-2.0
 * mt_net_priv: what the files of the network model share and nobody else sees (the
 * public interface is net/mt_net.h). The model is in parts:
 *   mt_net_build.c  mt_net_new: checks, defaults, switches, table layout, blocks, links
 *   mt_net_cycle.c  one cycle: a node's cycle (node_cycle), a switch network's, the trace
 *   mt_net_run.c    mt_net_start, mt_net_run: in blocks over threads, progress, restart
 *   mt_net_check.c  the final check of every buffer against the reference
 *   mt_net_par.c    work split over threads (mt_net_start, the final check)
 *   mt_net_view.c   read-only views, test hooks and the deadlock dump */
#ifndef MT_NET_PRIV_H
#define MT_NET_PRIV_H
#include <stdio.h>
#include "net/mt_net.h"
#include "net/mt_switch.h"

struct mt_net {
  mt_net_cfg c; /* as given but ej_depth, the NIs' (mt_net_ej_depth); c.flow: the flow control */
  const mt_sched *s;
  const mt_tables *tb;
  const mt_topo *t;
  mt_layout ly;
  int N, D, L, NP, dtype;
  /* switch networks (docs/reference/switch.md): nr routers are the switches, the NIs attach through NI
   * links; links nsl.. are NI links: nsl + i node i's NI to its switch, nsl + N + i back */
  int sw, nr, nsl;
  mt_switch_net swn;
  /* a switch network's rated links (net/mt_rate_net.h): every topology link's period and
   * latency in cycles, computed once when the network is built; NULL on a grid or without rates */
  unsigned *tper, *tlat;
  unsigned nmp; /* NI memory ports */
  /* Registered outputs. One buffer per block: a cycle reads a block's outputs (into the
   * inputs of the blocks it drives, the links first) before that block's edge writes them. */
  mt_router *rt;
  mt_router_out *rq;
  mt_ni *ni;
  mt_ni_out *nq;
  mt_ni_in *ncfg; /* per-node configuration part of the NI inputs */
  mt_pni *pni;    /* ni_model=1: the paper simulator's NIs, stepped instead of ni (which only holds the tables) */
  mt_mem *mem;
  uint32_t **input; /* mt_net_input's, made on demand */
  uint8_t *backed;  /* --data sample: the pages every memory stores (mt_mem_init_pages) */
  int nl;           /* directed network links */
  mt_link_bank lnk;
  int *lsrc, *lsport, *ldst, *ldport;
  unsigned dlat[3], minlat, maxlat; /* link latency per dimension (grids; else link_lat), the shortest, the longest */
  int *in_link;                     /* [node*NP + port] -> link feeding it, or -1 */
  int *out_link;                    /* [node*NP + port] -> link it drives, or -1 */
  unsigned blk;                     /* mt_net_run: cycles a node runs ahead alone (0: cycle by cycle) */
  int run_threads;                  /* threads the last mt_net_run used (c.threads, capped) */
  mt_link_slot *lview;              /* [nl] mt_net_link_slot's answers (the model never reads them) */
  uint64_t cycle, *lflits;
  uint64_t cmask; /* link_put: byte v 1 for VC v < num_vcs */
  uint8_t started;
  uint32_t seed;      /* of mt_net_start */
  uint64_t start_at;  /* the cycle whose NI inputs carry the start pulse of mt_net_start */
  uint64_t cap_bytes; /* the buffer the memories hold (the schedule of mt_net_new's bytes) */
  /* mt_net_load: every node's table image, written through the NIs' table write ports one
   * word per cycle (word k at cycle ld_at + k, every node at once); NULL: none */
  uint64_t *ld_img;
  uint64_t ld_at;
  unsigned ld_depth, ld_nw;
  uint32_t wd, rwd; /* effective NI / router watchdog limits */
  unsigned fw;      /* live 32-bit words of a flit (the others are 0) */
  /* Every block's inputs, kept from cycle to cycle: each cycle rewrites the fields that
   * come from registered outputs (valid bits, credits; a flit only when valid: a block
   * reads a flit only when it is valid); the configuration fields are set once. */
  mt_router_in *rin; /* [N] */
  mt_ni_in *nin;     /* [N] */
  FILE *trace;       /* --trace: NI events, CSV (docs/reference/network.md) */
  uint8_t (*tr_tx)[MT_NI_MAX_L], (*tr_rx)[MT_NI_MAX_L];
  uint16_t *tr_ts; /* last traced state */
};

/* Work outside the blocks (set-up, the final check) and mt_net_run's blocks run on at most
 * this many threads (mt_net_cfg.threads, capped by it and by the nodes). */
#define NET_MAX_THREADS 64
int mt_net_threads(const mt_net *n);
/* fn(arg, k, nt) for k = 0..nt-1, k = 0 on the caller's thread (mt_net_par.c). */
typedef void (*mt_net_par_fn)(void *arg, int k, int nt);
void mt_net_par_run(int nt, mt_net_par_fn fn, void *arg);

/* Whether the network may take a new all-reduce (mt_net_start, mt_net_load): no run started
 * and not run, every NI done (no error) and no router flag; load_ok: a table load of
 * mt_net_load may still be under way. 0, or -1 with the reason (what: the caller's name). */
int mt_net_idle(const mt_net *n, const char *what, int load_ok, mt_err *e);
/* Everything mt_net_new allocated but the struct itself (mt_net_build.c). */
void mt_net_release(mt_net *n);
/* Node i's processor inputs of cycle t (mt_net_cycle.c): the start pulse and a table write of mt_net_load. */
static inline void mt_net_proc_inputs(const mt_net *n, int i, uint64_t t, mt_ni_in *ni) {
  ni->start = (uint8_t)(n->started && t == n->start_at);
  ni->tbl_we = 0;
  if (n->ld_img && t >= n->ld_at && t - n->ld_at < n->ld_depth) {
    const unsigned k = (unsigned)(t - n->ld_at);
    ni->tbl_we = 1;
    ni->tbl_waddr = k;
    for (unsigned w = 0; w < n->ld_nw; w++) ni->tbl_wdata[w] = n->ld_img[((size_t)i * n->ld_depth + k) * n->ld_nw + w];
  }
}
/* Node i's part of cycle t (mt_net_cycle.c); put: its links take its router's outputs. */
void mt_net_node_cycle(mt_net *n, int i, uint64_t t, int put);
/* The final check of every node's buffer (mt_net_check.c): 0, or -1 with e set. */
int mt_net_check_buffers(mt_net *n, mt_net_result *r, mt_err *e);

#endif
