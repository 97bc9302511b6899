/* SPDX-License-Identifier: Apache-2.0
 * mt_net_cfg: hardware shapes as files (configs/{net,router,ni}/NAME.cfg, docs/reference/network.md
 * "Configurations"). A file is `key = value` lines with `#` comments, and optionally
 * `base = NAME` (every key of configs/<same folder>/NAME.cfg, then the lines after it).
 * One table (mt_cfg_keys) names every key once: the C field it sets, the RTL parameter it
 * becomes (-G / chparam), its allowed range. The network configuration mt_net_cfg is one
 * such shape (the keys marked MT_KEY_NET, all required); configs/net/NAME.cfg are compiled
 * into the library (build/gen/mt_net_cfg_builtin.c, generated from the files). The
 * network model (mt_net_*.c) never parses text. */
#ifndef MT_NET_CFG_H
#define MT_NET_CFG_H
#include <stddef.h>
#include <stdint.h>
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  char name[16];
  unsigned payload_w; /* flit payload bits (128 = 16 B/cycle = 16 GB/s at 1 GHz) */
  unsigned num_vcs, vc_depth;
  unsigned ej_depth;      /* NI ejection VCs behind a router's 1-cycle local port (torus, mesh) */
  unsigned ni_link_depth; /* switch networks: NI ejection VCs behind the NI link; 0 = vc_depth */
  unsigned link_lat;      /* cycles, flits and credits alike */
  /* per dimension d (X, Y, Z) of a torus or mesh (docs/reference/network.md "Link rate and latency"):
   * a link of dimension d takes a flit every link_period[d] cycles (1: every cycle) and has
   * the latency link_lat_d[d] (0: link_lat) */
  unsigned link_period[3];
  unsigned link_lat_d[3];
  unsigned subpkt_flits; /* sub-packet of the message-based flow control */
  unsigned pkt_bytes;    /* packet payload of the packet-based flow control */
  unsigned step_prio;    /* router arbitration: 0 round-robin, 1 earlier step first */
  unsigned rt_pipe;      /* router pipeline (mt_router_params.pipe): 0 none, 1 route at buffer write, front register, 2 and a VC/switch allocation register */
  unsigned local_ports;  /* L; 0 = 2*D */
  unsigned mem_p_ready, mem_lat_max;
  unsigned ni_sq, ni_rq;
  unsigned ni_alu_pipe;        /* NI reduction unit's adder pipeline (mt_ni_params.alu_pipe): 0..2 */
  unsigned ni_rx_engines;      /* NI receive engines: 0 = 2L (two per ejection port; L if 2L > 8); 1 = the RTL's single engine */
  unsigned ni_mem_ports;       /* NI memory ports: 0 = L + 2E (full bandwidth); 1 = the RTL's single port; or L + E */
  unsigned ni_chain;           /* NI chained reduction (mt_ni_params.reduce_chain): 1 on (default), 0 strict one-child-at-a-time */
  unsigned ni_stage_ranges;    /* NI stager: staged ranges per NI (mt_ni_params.stage_ranges) */
  unsigned ni_stage_after;     /* NI stager (mt_ni_params.stage_after): stage not-due units after this many cycles without progress; 0 off */
  unsigned ni_model;           /* 0 this project's NI (mt_ni), 1 the paper simulator's (mt_paper_ni, docs/reference/papersim.md) */
  unsigned ni_paper_sendq;     /* paper NI: pkt_bytes units of a port's send buffers (hmc.py: 58) */
  unsigned ni_paper_acc_width; /* paper NI: accelerator elements per cycle (npu.py aggregate: 32) */
  unsigned ni_paper_acc_pes;   /* paper NI: accelerator PEs (Table III: 16) */
  uint32_t wd_limit;           /* NI and router watchdogs, cycles without progress */
  uint64_t max_cycles;         /* a run longer than this is an error */
  double clock_ghz;
  unsigned data;    /* not a key (not hardware): what the memories store, MT_NET_DATA_* (sim --data) */
  unsigned threads; /* not a key: threads of mt_net_run (sim --threads; 0 and 1: one); the results do not depend on it */
  unsigned flow;    /* not a key: the flow control, MT_NET_FLOW_* (sim --flow) */
} mt_net_cfg;

/* mt_net_cfg.data (docs/reference/network.md "Data modes"): every word of every buffer, stored and
 * checked; a sample of pages (every flow chunk's first and last page at every node); nothing
 * (timing only). The cycles are the same in every mode. */
enum { MT_NET_DATA_FULL = 0,
       MT_NET_DATA_SAMPLE = 1,
       MT_NET_DATA_NONE = 2 };

/* mt_net_cfg.flow (docs/reference/ni.md): message-based flow control (a message in sub-packets of
 * subpkt_flits behind one head; multi-hop transfers still travel as packets), or every
 * message in packets of pkt_bytes each with its own head. The default is message (0). */
enum { MT_NET_FLOW_MESSAGE = 0,
       MT_NET_FLOW_PACKET = 1 };
/* The flow control named name ("message", "packet") into *flow: 0, or -1 for another name. */
int mt_net_flow_parse(const char *name, unsigned *flow);
/* The name of flow control flow (MT_NET_FLOW_*). */
const char *mt_net_flow_name(unsigned flow);

/* Where a key may appear: a network configuration (mt_net_cfg, `multitree sim`), a router
 * shape (rtl/mt_router.sv, tb/cosim/cosim_router.cpp), an NI shape (rtl/mt_ni.sv). */
enum { MT_KEY_NET = 1,
       MT_KEY_ROUTER = 2,
       MT_KEY_NI = 4,
       MT_KEY_ANY = 7 };
typedef struct {
  const char *key;     /* the one name: files, --set, CFG_<KEY> macros of the harnesses */
  unsigned scope;      /* MT_KEY_* */
  const char *c_field; /* the C field it sets */
  const char *rtl;     /* the RTL parameter (-G, chparam); NULL: none */
  double min, max;     /* allowed range (whole numbers unless real) */
  int real;
  int net_type; /* where in mt_net_cfg: 0 none, 1 unsigned, 2 uint32_t, 3 uint64_t, 4 double */
  size_t net_off;
  const char *what;
} mt_cfg_key;
const mt_cfg_key *mt_cfg_keys(int *n);

/* A parsed file: the keys in the order first set, each with its last value. */
#define MT_SHAPE_MAX 64
typedef struct {
  char name[32]; /* file name without folder and .cfg */
  int n;
  struct {
    int key;
    double v;
  } kv[MT_SHAPE_MAX];
} mt_shape;
/* Parse text (from src, for messages) allowing the keys of scope; `base = NAME` reads
 * dir/NAME.cfg, or the built-in network configuration NAME when dir is NULL. Errors name
 * src, the line and the key, and what is allowed. */
int mt_shape_parse(mt_shape *s, const char *text, const char *src, const char *dir, unsigned scope, mt_err *e);
int mt_shape_load(mt_shape *s, const char *path, unsigned scope, mt_err *e);

/* Network configurations. by_name: the built-in configs/net/NAME.cfg; load: a file. */
int mt_net_cfg_by_name(mt_net_cfg *c, const char *name, mt_err *e);
int mt_net_cfg_load(mt_net_cfg *c, const char *path, mt_err *e);
/* Override one field: "vc_depth=64", "link_lat=20", ... (the MT_KEY_NET keys). */
int mt_net_cfg_set(mt_net_cfg *c, const char *kv, mt_err *e);
/* configs/net/paper.cfg (Table III) and configs/net/small.cfg (short links and shallow
 * buffers for fast tests); abort if the built-in file is broken (a build error). */
void mt_net_cfg_paper(mt_net_cfg *c);
void mt_net_cfg_small(mt_net_cfg *c);

/* The built-in files (generated from configs/net/NAME.cfg), {NULL, NULL}-terminated. */
typedef struct {
  const char *name, *text;
} mt_cfg_text;
extern const mt_cfg_text mt_net_cfg_builtin[];

#ifdef __cplusplus
}
#endif
#endif
