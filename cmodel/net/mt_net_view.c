/* SPDX-License-Identifier: Apache-2.0
 * mt_net_view: read-only views of a network for co-simulation and the command line, the
 * test hooks (perturbation, a route table entry) and the deadlock dump (net/mt_net_priv.h
 * lists the other parts). */
#include <stdio.h>
#include <string.h>
#include "net/mt_net_priv.h"

void mt_net_paper_stats(const mt_net *n, uint64_t *aggs, uint64_t *cycles) {
  *aggs = *cycles = 0;
  for (int i = 0; n->pni && i < n->N; i++) {
    *aggs += n->pni[i].aggs;
    *cycles += n->pni[i].agg_cycles;
  }
}

uint64_t mt_net_cycle(const mt_net *n) { return n->cycle; }
int mt_net_nodes(const mt_net *n) { return n->N; }
unsigned mt_net_mem_ports(const mt_net *n) { return n->nmp; }
void mt_net_stage_stats(const mt_net *n, uint64_t *out, uint64_t *rep, int *nodes, unsigned *peak) {
  *out = *rep = 0;
  *nodes = 0;
  *peak = 0;
  for (int i = 0; i < n->N; i++) {
    if (n->ni[i].sgpeak > *peak) *peak = n->ni[i].sgpeak;
    *out += n->ni[i].sg_out;
    *rep += n->ni[i].sg_rep;
    *nodes += n->ni[i].sg_out != 0;
  }
}
const mt_layout *mt_net_layout(const mt_net *n) { return &n->ly; }
uint32_t mt_net_router_wd_limit(const mt_net *n) { return n->c.wd_limit ? n->rwd : 0; }
const mt_ni_in *mt_net_ni_cfg(const mt_net *n, int node) { return &n->ncfg[node]; }
int mt_net_num_links(const mt_net *n) { return n->nl; }
void mt_net_link_ends(const mt_net *n, int k, int *src, int *src_port, int *dst, int *dst_port) {
  *src = n->lsrc[k];
  *src_port = n->lsport[k];
  *dst = n->ldst[k];
  *dst_port = n->ldport[k];
}
const mt_link_slot *mt_net_link_slot(const mt_net *n, int k) {
  if (n->cycle == 0) memset(&n->lview[k], 0, sizeof n->lview[k]);
  else mt_link_bank_slot(&n->lnk, (unsigned)k, n->cycle - 1, &n->lview[k]);
  return &n->lview[k];
}
const mt_router_out *mt_net_router_out(const mt_net *n, int node) { return &n->rq[node]; }
const mt_ni_out *mt_net_ni_out(const mt_net *n, int node) { return &n->nq[node]; }
const mt_mem *mt_net_mem(const mt_net *n, int node) { return &n->mem[node]; }
void mt_net_set_perturb(mt_net *n, unsigned router_perturb, unsigned ni_perturb) {
  for (int i = 0; i < n->nr; i++) n->rt[i].p.perturb = router_perturb;
  for (int i = 0; i < n->N; i++) n->ni[i].p.perturb = ni_perturb;
  for (int i = 0; n->pni && i < n->N; i++) n->pni[i].p.perturb = ni_perturb;
}

int mt_net_set_route(mt_net *n, int sw, int dst, uint16_t entry, mt_err *e) {
  if (!n->sw || sw < 0 || sw >= n->nr || dst < 0 || dst >= n->N)
    return mt_fail(e, "mt_net_set_route: no switch %d or node %d in this network", sw, dst);
  uint16_t *tab = n->swn.tab + (size_t)sw * (size_t)n->N, old = tab[dst];
  tab[dst] = entry;
  if (mt_router_load_table(&n->rt[sw], tab, (unsigned)n->N, e)) {
    tab[dst] = old;
    return -1;
  }
  return 0;
}

/* A flit's type (mt_flit.h, MT_FT_*) and, for a head, source, destination, flow and op. */
static void dump_flit(FILE *f, const mt_flit *fl, unsigned pw) {
  const unsigned t = mt_flit_type(fl, pw);
  static const char *const tn[8] = {"ar-head", "ar-body", "ar-subtail", "ar-tail", "head", "body", "tail", "headtail"};
  fprintf(f, "%s", tn[t & 7u]);
  if (mt_ft_is_head(t))
    fprintf(f, " src %u dst %u flow %u op %s", mt_hd_src(fl), mt_hd_dst(fl), mt_hd_flow(fl), mt_op_name((int)mt_hd_op(fl)));
}

/* One line per unit a stopped network holds: each non-empty router input VC and NI ejection
 * FIFO with its front flit, and each NI's state, timestep and entry. For a watchdog stop:
 * what waits on what (docs/reference/network.md, "Deadlock dump"). At most max_lines lines (0: all). */

/* Every non-empty input VC of router r, one line each. */
static void dump_router(const mt_net *n, const mt_router *r, FILE *f, unsigned max_lines, unsigned *lines) {
  for (unsigned iv = 0; iv < r->n; iv++) {
    if (!r->cnt[iv]) continue;
    if (max_lines && (*lines)++ >= max_lines) break;
    mt_flit fl;
    mt_flit_clear(&fl);
    memcpy(fl.w, &r->buf[r->rdo[iv]], r->fw * sizeof(uint32_t));
    fprintf(f, "  router in port %u VC %u: %u flits, front ", iv / r->nv, iv % r->nv, r->cnt[iv]);
    dump_flit(f, &fl, n->c.payload_w);
    if (r->active[iv]) fprintf(f, " (unit active on out port %u VC %u)", r->oport[iv], r->ovc[iv]);
    fprintf(f, "\n");
  }
}

void mt_net_dump(const mt_net *n, FILE *f, unsigned max_lines) {
  unsigned lines = 0;
  const unsigned pw = n->c.payload_w, nv = n->c.num_vcs;
#define LINE_OK() (max_lines == 0 || lines++ < max_lines)
  for (int i = 0; i < n->N; i++) {
    const mt_ni *s = &n->ni[i];
    if (!LINE_OK()) break;
    if (n->pni) { /* the paper's NI holds no flits: what it waits for */
      const mt_pni *q = &n->pni[i];
      fprintf(f, "node %d: paper NI %s, step %u, entry %u of %u, %u aggregations queued\n", i, q->err ? "error" : q->done ? "done"
                                                                                                                          : "run",
              q->step, q->hp, q->ne, q->aq_cnt);
      if (!n->sw) dump_router(n, &n->rt[i], f, max_lines, &lines);
      continue;
    }
    static const char *const stn[6] = {"idle", "scan", "run", "fin", "done", "error"};
    fprintf(f, "node %d: NI %s, timestep %u, entry %u\n", i, s->st < 6 ? stn[s->st] : "?", s->ts, s->hp);
    if (!n->sw) dump_router(n, &n->rt[i], f, max_lines, &lines);
    for (unsigned g = 0; g < s->nstreams; g++) {
      if (!s->ej_cnt[g]) continue;
      if (!LINE_OK()) break;
      fprintf(f, "  NI ejection port %u VC %u: %u flits, front ", g / nv, g % nv, s->ej_cnt[g]);
      dump_flit(f, &s->ej[(size_t)g * s->p.ej_depth + s->ej_rd[g]], pw);
      fprintf(f, "\n");
    }
  }
  for (int r = 0; n->sw && r < n->nr; r++) {
    if (!LINE_OK()) break;
    fprintf(f, "switch s%d (%u network + %u NI ports):\n", r, n->rt[r].nd, n->rt[r].np - n->rt[r].nd);
    dump_router(n, &n->rt[r], f, max_lines, &lines);
  }
#undef LINE_OK
}
