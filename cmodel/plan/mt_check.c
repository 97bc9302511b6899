/* SPDX-License-Identifier: Apache-2.0
 * mt_check: symbolic execution of schedule tables (sets of contributions per chunk). */
#include "plan/mt_check.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FILE *log;
  int viol;
} ck;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
bad(ck *c, const char *fmt, ...) {
  c->viol++;
  if (c->viol <= 20 && c->log) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->log, "violation: ");
    vfprintf(c->log, fmt, ap);
    fputc('\n', c->log);
    va_end(ap);
  } else if (c->viol == 21 && c->log) fprintf(c->log, "violation: (further violations not shown)\n");
}

/* ---------------- the messages the tables send, and the links they use ----------------
 * Everything here comes from the tables and the topology: a message is a reduce entry's
 * send to its parent or a gather entry's send to one child; its path starts at the link of
 * the sender's output port (or, "routed", is the route by destination id) and must end at
 * the receiver on an input port that gives the slot's ejection port. The transfer list,
 * when present, is only matched against these messages. */

typedef struct {
  int op, flow, src, dst, step;
  int ent, slot;      /* the sender's entry (index in its table) and slot: -1 parent, else child index */
  int port, eject;    /* as the sender's slot says */
  int off, len, hops; /* derived path: links path[off .. off+len); len 0 = none (a violation) */
  int sw;             /* crosses switches: the tables fix only its first and last link */
} msg;

static int msg_cmp4(const msg *x, const msg *y) {
  if (x->op != y->op) return x->op - y->op;
  if (x->flow != y->flow) return x->flow - y->flow;
  if (x->src != y->src) return x->src - y->src;
  return x->dst - y->dst;
}
static int msg_cmp(const void *a, const void *b) {
  const msg *x = a, *y = b;
  int r = msg_cmp4(x, y);
  return r ? r : x->step - y->step;
}
static int msg_cmp_nostep(const void *a, const void *b) { return msg_cmp4(a, b); }

typedef struct {
  int link, step, src, dst, op, flow;
} use;
static int use_cmp(const void *a, const void *b) {
  const use *x = a, *y = b;
  if (x->link != y->link) return x->link - y->link;
  if (x->step != y->step) return x->step - y->step;
  if (x->src != y->src) return x->src - y->src;
  return x->dst - y->dst;
}

typedef struct {
  const mt_topo *t;
  const mt_tables *tb;
  int *path; /* every derived path, concatenated */
  size_t np, cap;
  int *prev, *seen, *q, *tmp, stamp; /* breadth-first search through switches */
} deriv;

static void path_push(deriv *d, const int *l, int n) {
  while (d->np + (size_t)n > d->cap) {
    d->cap = d->cap ? 2 * d->cap : 4096;
    d->path = mt_xrealloc(d->path, d->cap * sizeof(int));
  }
  memcpy(d->path + d->np, l, (size_t)n * sizeof(int));
  d->np += (size_t)n;
}

/* Ejection ports of node n: the tables' L, or (0) the node's router ports. */
static int node_L(const deriv *d, int n) {
  if (d->tb->local_ports > 0) return d->tb->local_ports;
  return d->t->n_ports[n] > 0 ? d->t->n_ports[n] : 1;
}

/* Shortest path (preference order) from switch v to node dst through switches only,
 * entering dst on an input port p with p mod L = eject (eject < 0: any); its links go
 * to out; returns the count or -1. */
static int via_switches(deriv *d, int v, int dst, int eject, int *out) {
  const mt_topo *t = d->t;
  int h = 0, qn = 0, L = node_L(d, dst);
  d->stamp++;
  d->seen[v] = d->stamp;
  d->prev[v] = -1;
  d->q[qn++] = v;
  while (h < qn) {
    int u = d->q[h++];
    for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
      int l = t->out_list[k], w = t->links[l].dst;
      if (w == dst && (eject < 0 || t->links[l].dst_port % L == eject)) {
        int n = 0;
        d->tmp[n++] = l;
        for (int x = u; d->prev[x] >= 0; x = t->links[d->prev[x]].src) d->tmp[n++] = d->prev[x];
        for (int i = 0; i < n; i++) out[i] = d->tmp[n - 1 - i];
        return n;
      }
      if (mt_is_switch(t, w) && d->seen[w] != d->stamp) {
        d->seen[w] = d->stamp;
        d->prev[w] = l;
        d->q[qn++] = w;
      }
    }
  }
  return -1;
}

static void slot_field(char *b, size_t n, int slot, const char *what) {
  if (slot < 0) snprintf(b, n, "parent_%s", what);
  else snprintf(b, n, "child_%ss[%d]", what, slot);
}

/* The path of message m from the sender's slot; violations name the entry and field. */
static void derive_path(ck *c, deriv *d, msg *m, int *buf) {
  const mt_topo *t = d->t;
  char where[128], fp[32], fe[32];
  snprintf(where, sizeof where, "node %d entry %d (%s flow %d to node %d, step %d)", m->src, m->ent, mt_op_name(m->op), m->flow, m->dst,
           m->step);
  slot_field(fp, sizeof fp, m->slot, "port");
  slot_field(fe, sizeof fe, m->slot, "eject");
  int n, direct = mt_topo_find_link(t, m->src, m->dst);
  char hint[64] = "";
  if (direct >= 0) snprintf(hint, sizeof hint, " (the link to node %d is port %d)", m->dst, t->links[direct].src_port);
  m->len = 0;
  if (m->port == MT_PORT_ROUTED) {
    n = mt_topo_route(t, m->src, m->dst, buf, t->n_vert + 1);
    if (n <= 0) {
      bad(c, "%s: %s is \"routed\", but there is no route from node %d to node %d", where, fp, m->src, m->dst);
      return;
    }
  } else {
    int l = m->port >= 0 && m->port < t->n_ports[m->src] ? t->port_link[m->src * t->max_ports + m->port] : -1;
    if (l < 0) {
      bad(c, "%s: %s = %d: node %d has ports 0..%d%s", where, fp, m->port, m->src, t->n_ports[m->src] - 1, hint);
      return;
    }
    buf[0] = l;
    n = 1;
    int v = t->links[l].dst;
    if (v != m->dst) {
      if (!mt_is_switch(t, v)) {
        bad(c, "%s: %s = %d leads to node %d, not to node %d%s", where, fp, m->port, v, m->dst, hint);
        return;
      }
      int k = via_switches(d, v, m->dst, m->eject, buf + 1);
      if (k < 0) k = via_switches(d, v, m->dst, -1, buf + 1); /* the eject is wrong: say which is right */
      if (k < 0) {
        bad(c, "%s: %s = %d leads to switch %d, from which node %d cannot be reached through switches alone%s", where, fp, m->port, v, m->dst, hint);
        return;
      }
      n += k;
      m->sw = 1;
    }
  }
  int hops = 0;
  for (int i = 0; i < n; i++) hops += !mt_is_switch(t, t->links[buf[i]].dst);
  if (m->port == MT_PORT_ROUTED && hops <= 1) {
    bad(c, "%s: %s is \"routed\", but node %d is one hop away (port %d)", where, fp, m->dst, t->links[buf[0]].src_port);
    return;
  }
  const mt_edge *last = &t->links[buf[n - 1]];
  int L = node_L(d, m->dst);
  if (last->dst_port % L != m->eject) {
    bad(c, "%s: %s = %d, but the message enters node %d on its input port %d: ejection port %d (input port mod L = %d)", where, fe, m->eject, m->dst,
        last->dst_port, last->dst_port % L, L);
    return;
  }
  m->off = (int)d->np;
  m->len = n;
  m->hops = hops;
  path_push(d, buf, n);
}

/* A transfer's own path through switches, accepted instead of the derived one when it has
 * the same first link (the sender's port) and the same ejection port: the tables do not
 * name the switch-to-switch links. */
static int switch_alternative(const mt_sched *s, const deriv *d, const msg *m, const mt_xfer *x) {
  const mt_topo *t = s->topo;
  if (!m->sw || x->path_len < 2 || MT_XLINK(s, x, 0) != d->path[m->off]) return 0;
  for (int k = 0; k + 1 < x->path_len; k++)
    if (!mt_is_switch(t, t->links[MT_XLINK(s, x, k)].dst)) return 0;
  return t->links[MT_XLINK(s, x, x->path_len - 1)].dst_port % node_L(d, m->dst) == m->eject;
}

static void check_messages(ck *c, const mt_sched *s, const mt_tables *tb, mt_check_report *rep) {
  const mt_topo *t = s->topo;
  const int N = s->n_nodes, F = s->n_flows, T = s->steps;
  size_t nm = 0;
  for (int n = 0; n < N; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++)
      nm += en[i].op == MT_OP_GATHER ? (size_t)en[i].nchild : (en[i].op == MT_OP_REDUCE && en[i].has_parent);
  }
  msg *m = mt_xcalloc(nm + 1, sizeof(msg));
  deriv d = {t, tb, NULL, 0, 0, NULL, NULL, NULL, NULL, 0};
  d.prev = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  d.seen = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  d.q = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  d.tmp = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  int *buf = mt_xcalloc((size_t)t->n_vert + 2, sizeof(int));
  size_t k = 0;
  for (int n = 0; n < N; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++) {
      const mt_entry *x = &en[i];
      if (x->flow < 0 || x->flow >= F) continue;
      if (x->op == MT_OP_REDUCE && x->has_parent)
        m[k++] = (msg){MT_OP_REDUCE, x->flow, n, x->parent.node, x->step, i, -1, x->parent.port, x->parent.eject, 0, 0, 0, 0};
      else if (x->op == MT_OP_GATHER)
        for (int q = 0; q < x->nchild; q++)
          m[k++] = (msg){MT_OP_GATHER, x->flow, n, x->child[q].node, x->step, i, q, x->child[q].port, x->child[q].eject, 0, 0, 0, 0};
    }
  }
  nm = k;
  /* 1. routing fields of the sender's slot, against the topology */
  for (size_t i = 0; i < nm; i++) derive_path(c, &d, &m[i], buf);
  qsort(m, nm, sizeof(msg), msg_cmp);
  /* 2. the receiver's slot names the same port and ejection port */
  for (int n = 0; n < N; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++) {
      const mt_entry *x = &en[i];
      if (x->flow < 0 || x->flow >= F || x->op == MT_OP_NOP) continue;
      int first = x->op == MT_OP_REDUCE ? 0 : -1, last = x->op == MT_OP_REDUCE ? x->nchild - 1 : (x->has_parent ? -1 : -2);
      for (int q = first; q <= last; q++) {
        const mt_slot *sl = q < 0 ? &x->parent : &x->child[q];
        msg key = {x->op, x->flow, sl->node, n, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        const msg *y = bsearch(&key, m, nm, sizeof(msg), msg_cmp_nostep);
        if (!y) continue; /* never sent: the symbolic run reports it */
        char fp[32], fe[32];
        slot_field(fp, sizeof fp, q, "port");
        slot_field(fe, sizeof fe, q, "eject");
        if (sl->port != y->port)
          bad(c, "node %d entry %d (%s flow %d from node %d): %s = %d, but node %d's entry %d sends it through port %d", n, i, mt_op_name(x->op), x->flow,
              sl->node, fp, sl->port, sl->node, y->ent, y->port);
        else if (y->len && sl->eject != y->eject)
          bad(c, "node %d entry %d (%s flow %d from node %d): %s = %d, but the message arrives at ejection port %d", n, i, mt_op_name(x->op), x->flow,
              sl->node, fe, sl->eject, y->eject);
      }
    }
  }
  /* 3. the transfer list, if any, is exactly these messages (a multiset), on these paths */
  if (s->nx) {
    msg *xs = mt_xcalloc((size_t)s->nx, sizeof(msg)); /* transfers as keys; ent = index */
    for (int i = 0; i < s->nx; i++) xs[i] = (msg){s->x[i].op, s->x[i].flow, s->x[i].src, s->x[i].dst, s->x[i].step, i, 0, 0, 0, 0, 0, 0, 0};
    qsort(xs, (size_t)s->nx, sizeof(msg), msg_cmp);
    size_t a = 0, b = 0;
    while (a < nm || b < (size_t)s->nx) {
      int r = a == nm ? 1 : b == (size_t)s->nx ? -1
                                               : msg_cmp(&m[a], &xs[b]);
      if (r < 0) {
        bad(c, "node %d entry %d sends %s flow %d to node %d in step %d; the transfer list does not have it", m[a].src, m[a].ent, mt_op_name(m[a].op),
            m[a].flow, m[a].dst, m[a].step);
        a++;
      } else if (r > 0) {
        if (b > 0 && !msg_cmp(&xs[b - 1], &xs[b]))
          bad(c, "transfers[%d] repeats transfers[%d] (%s flow %d %d->%d step %d)", xs[b].ent, xs[b - 1].ent, mt_op_name(xs[b].op), xs[b].flow,
              xs[b].src, xs[b].dst, xs[b].step);
        else
          bad(c, "transfers[%d] (%s flow %d %d->%d step %d): no table entry sends it", xs[b].ent, mt_op_name(xs[b].op), xs[b].flow, xs[b].src,
              xs[b].dst, xs[b].step);
        b++;
      } else {
        const mt_xfer *x = &s->x[xs[b].ent];
        msg *y = &m[a];
        int same = y->len == x->path_len;
        for (int j = 0; same && j < y->len; j++) same = d.path[y->off + j] == MT_XLINK(s, x, j);
        if (!same && y->len && switch_alternative(s, &d, y, x)) {
          y->off = (int)d.np; /* count the links the transfer names */
          y->len = x->path_len;
          for (int j = 0; j < x->path_len; j++) {
            int l = MT_XLINK(s, x, j);
            path_push(&d, &l, 1);
          }
        } else if (!same && y->len)
          bad(c, "transfers[%d] (%s flow %d %d->%d step %d): its path is not the one the tables' ports give (%d links, first %d->%d, last %d->%d)",
              xs[b].ent, mt_op_name(x->op), x->flow, x->src, x->dst, x->step, y->len, t->links[d.path[y->off]].src, t->links[d.path[y->off]].dst,
              t->links[d.path[y->off + y->len - 1]].src, t->links[d.path[y->off + y->len - 1]].dst);
        a++;
        b++;
      }
    }
    free(xs);
  }
  /* 4. steps, reduce_steps and the NOP entries, from the entries */
  {
    int last = 0, rlast = 0;
    uint64_t *stepmax = mt_xcalloc((size_t)T + 2, sizeof(uint64_t));
    /* nop_estimate "link": per step the most bytes on one directed link of the derived paths
     * (per unit of multiplicity, at most the buffer); else the largest chunk sent */
    const size_t NL = (size_t)t->n_links;
    uint64_t *lb = s->nop_link ? mt_xcalloc(NL * ((size_t)T + 2), sizeof(uint64_t)) : NULL;
    for (size_t i = 0; i < nm; i++) {
      if (m[i].op == MT_OP_REDUCE && m[i].step > rlast) rlast = m[i].step;
      if (m[i].step < 1 || m[i].step > T) continue;
      if (!lb && s->chunk[m[i].flow].size > stepmax[m[i].step]) stepmax[m[i].step] = s->chunk[m[i].flow].size;
      for (int j = 0; lb && j < m[i].len; j++) {
        const size_t l = (size_t)d.path[m[i].off + j];
        uint64_t *b = &lb[(size_t)m[i].step * NL + l];
        const uint64_t mu = t->links[l].mult > 1 ? (uint64_t)t->links[l].mult : 1;
        *b += s->chunk[m[i].flow].size;
        const uint64_t z = (*b + mu - 1) / mu < s->bytes ? (*b + mu - 1) / mu : s->bytes;
        if (z > stepmax[m[i].step]) stepmax[m[i].step] = z;
      }
    }
    free(lb);
    /* chunked schedules (interleaved) overlap one chunk's gathers with another's reduces;
     * each flow's own order is proven by the symbolic run. The claim is derived and compared. */
    size_t early = 0;
    for (size_t i = 0; i < nm; i++)
      if (m[i].op == MT_OP_GATHER && m[i].step <= rlast && ++early && !s->interleaved)
        bad(c, "node %d entry %d: gather of flow %d to node %d in step %d, before the reduce-scatter half ends (its last reduce is sent in step %d)", m[i].src,
            m[i].ent, m[i].flow, m[i].dst, m[i].step, rlast);
    if (s->interleaved && !early) bad(c, "interleaved is true, but every gather is sent after the last reduce (step %d)", rlast);
    int *nop = mt_xcalloc((size_t)T + 2, sizeof(int)), *other = mt_xcalloc((size_t)T + 2, sizeof(int));
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      memset(nop, 0, ((size_t)T + 2) * sizeof(int));
      memset(other, 0, ((size_t)T + 2) * sizeof(int));
      for (int i = 0; i < tb->count[n]; i++) {
        const mt_entry *x = &en[i];
        if (x->step < 1 || x->step > T) continue;
        if (x->op != MT_OP_NOP) {
          other[x->step]++;
          if (x->step > last) last = x->step;
          continue;
        }
        nop[x->step]++;
        if (x->flow != 0 || x->addr != 0 || x->has_parent || x->nchild)
          bad(c, "node %d entry %d: a NOP with flow %d, addr %llu, %s parent, %d children (a NOP has flow 0, addr 0, no peers)", n, i, x->flow,
              (unsigned long long)x->addr, x->has_parent ? "a" : "no", x->nchild);
        if (x->size != stepmax[x->step])
          bad(c, "node %d entry %d: NOP in step %d has size %llu; the %s in that step is %llu (the NI's lockstep estimate, nop_estimate \"%s\")", n, i,
              x->step, (unsigned long long)x->size, s->nop_link ? "most bytes on one directed link" : "largest chunk sent", (unsigned long long)stepmax[x->step],
              s->nop_link ? "link" : "chunk");
      }
      for (int st = 1; st <= T; st++) {
        if (!nop[st] && !other[st]) bad(c, "node %d has no entry in step %d (an idle step needs a NOP entry: the NI counts steps in lockstep)", n, st);
        if (nop[st] > 1) bad(c, "node %d has %d NOP entries in step %d (one is allowed)", n, nop[st], st);
      }
    }
    free(nop);
    free(other);
    free(stepmax);
    if (last != T) bad(c, "steps = %d, but the last entry that is not a NOP is in step %d", T, last);
    if (rlast != s->reduce_steps) bad(c, "reduce_steps = %d, but the last reduce message is sent in step %d", s->reduce_steps, rlast);
  }
  /* 5. contention, from the derived paths: messages per directed link and step against its
   * multiplicity; a schedule is one-hop when every message crosses one link or one switch
   * path and no link is over its multiplicity */
  {
    size_t nu = 0;
    for (size_t i = 0; i < nm; i++) nu += (size_t)m[i].len;
    use *u = mt_xcalloc(nu + 1, sizeof(use));
    size_t ku = 0;
    long multihop = 0, over = 0;
    for (size_t i = 0; i < nm; i++) {
      if (m[i].hops > 1) multihop++;
      for (int j = 0; j < m[i].len; j++) u[ku++] = (use){d.path[m[i].off + j], m[i].step, m[i].src, m[i].dst, m[i].op, m[i].flow};
    }
    qsort(u, nu, sizeof(use), use_cmp);
    for (size_t i = 0; i < nu;) { /* links over their multiplicity, first for the summary */
      size_t j = i;
      while (j < nu && u[j].link == u[i].link && u[j].step == u[i].step) j++;
      over += j - i > (size_t)t->links[u[i].link].mult;
      i = j;
    }
    if (s->one_hop && (multihop || over))
      bad(c, "one_hop is true, but %ld messages cross more than one router hop and %ld link-steps carry more messages than the link's multiplicity",
          multihop, over);
    const int need = s->one_hop || !strcmp(s->algo, "multitree");
    for (size_t i = 0; i < nu;) {
      size_t j = i, pairs = 0;
      for (; j < nu && u[j].link == u[i].link && u[j].step == u[i].step; j++) pairs += j == i || u[j].src != u[j - 1].src || u[j].dst != u[j - 1].dst;
      size_t cnt = j - i, mult = (size_t)t->links[u[i].link].mult;
      int load = (int)((cnt + mult - 1) / mult), pl = (int)((pairs + mult - 1) / mult);
      if (load > rep->max_link_load) rep->max_link_load = load;
      if (pl > rep->max_link_pairs) rep->max_link_pairs = pl;
      if (cnt > mult) {
        if (need)
          bad(c, "link %d->%d carries %zu messages in step %d (multiplicity %zu): %s flow %d %d->%d and %s flow %d %d->%d%s", t->links[u[i].link].src,
              t->links[u[i].link].dst, cnt, u[i].step, mult, mt_op_name(u[i].op), u[i].flow, u[i].src, u[i].dst, mt_op_name(u[i + 1].op), u[i + 1].flow,
              u[i + 1].src, u[i + 1].dst, cnt > 2 ? ", ..." : "");
      }
      i = j;
    }
    free(u);
    if (need)
      for (size_t i = 0; i < nm; i++)
        if (m[i].hops > 1)
          bad(c, "one-hop schedule: node %d entry %d sends %s flow %d to node %d in step %d over %d hops", m[i].src, m[i].ent, mt_op_name(m[i].op), m[i].flow,
              m[i].dst, m[i].step, m[i].hops);
    if (need && !s->one_hop)
      bad(c, "one_hop is false, but %s schedules are one-hop and contention-free (Algorithm 1 gives each link one message per step)", s->algo);
    else if (!s->one_hop && !multihop && !over)
      bad(c, "one_hop is false, but every message crosses one link (or one switch path) and no link carries more than its multiplicity: "
             "the schedule is one-hop");
    rep->transfers = (long)nm;
    rep->multihop = multihop;
  }
  free(buf);
  free(d.path);
  free(d.prev);
  free(d.seen);
  free(d.q);
  free(d.tmp);
  free(m);
}

int mt_check(const mt_sched *s, const mt_tables *tb, FILE *log, mt_check_report *rep, mt_err *e) {
  const mt_topo *t = s->topo;
  const int N = s->n_nodes, F = s->n_flows, T = s->steps, W = (N + 63) / 64;
  memset(rep, 0, sizeof *rep);
  (void)e; /* nothing fails since schedules of any size are checked; kept for callers */
  ck c = {log, 0};
  rep->steps = T;
  rep->reduce_steps = s->reduce_steps;
  rep->gather_steps = T - s->reduce_steps;
  /* chunks tile the buffer by the rule of mt_sched_set_bytes: flow f has base + (f < rem)
   * elements of `elem` bytes; this is what proves `bytes` and `elem` */
  {
    uint64_t units = s->elem > 0 ? s->bytes / (uint64_t)s->elem : 0, at = 0;
    if (s->elem <= 0 || s->bytes % (uint64_t)s->elem)
      bad(&c, "bytes %llu is not a whole number of elements of elem = %d bytes", (unsigned long long)s->bytes, s->elem);
    else if (units < (uint64_t)F)
      bad(&c, "bytes %llu = %llu elements of %d bytes, fewer than the %d flows", (unsigned long long)s->bytes, (unsigned long long)units, s->elem, F);
    else if (mt_sched_uneven(s)) {
      /* FlexReduce's portions (and BlueConnect's): the flows the planner's rule gives for
       * these bytes and elem on this topology (docs/reference/flexreduce.md), which proves both */
      mt_sched ref;
      mt_err pe = {{0}};
      if (mt_plan(&ref, t, s->algo, s->bytes, s->elem, &pe))
        bad(&c, "%s cannot plan %llu bytes of %d-byte elements on %s: %s", s->algo, (unsigned long long)s->bytes, s->elem, t->spec, pe.msg);
      else {
        if (ref.n_flows != F) bad(&c, "%d flows; %s's rule gives %d for %llu bytes of %d-byte elements", F, s->algo, ref.n_flows, (unsigned long long)s->bytes, s->elem);
        for (int f = 0; f < F && f < ref.n_flows; f++)
          if (s->chunk[f].addr != ref.chunk[f].addr || s->chunk[f].size != ref.chunk[f].size)
            bad(&c, "flow %d is [%llu,+%llu); %s's rule for %llu bytes of %d-byte elements gives [%llu,+%llu)", f, (unsigned long long)s->chunk[f].addr,
                (unsigned long long)s->chunk[f].size, s->algo, (unsigned long long)s->bytes, s->elem, (unsigned long long)ref.chunk[f].addr,
                (unsigned long long)ref.chunk[f].size);
        mt_sched_free(&ref);
      }
    } else
      for (int f = 0; f < F; f++) {
        uint64_t size = (units / (uint64_t)F + ((uint64_t)f < units % (uint64_t)F)) * (uint64_t)s->elem;
        if (s->chunk[f].addr != at || s->chunk[f].size != size)
          bad(&c, "flow %d is [%llu,+%llu); %llu bytes of %d-byte elements in %d flows give [%llu,+%llu) (chunks tile the buffer, earlier flows take the remainder)",
              f, (unsigned long long)s->chunk[f].addr, (unsigned long long)s->chunk[f].size, (unsigned long long)s->bytes, s->elem, F,
              (unsigned long long)at, (unsigned long long)size);
        at += size;
      }
  }
  /* table sanity: sorted by step, fields in range, chunk fields right */
  for (int n = 0; n < N; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    int last = 0, busy_other = 0, laststep_nop = -1;
    for (int i = 0; i < tb->count[n]; i++) {
      const mt_entry *x = &en[i];
      if (x->step < last) bad(&c, "node %d entry %d: step %d after step %d (steps must not go backwards)", n, i, x->step, last);
      if (x->step < 1 || x->step > T) bad(&c, "node %d entry %d: step %d outside 1..%d", n, i, x->step, T);
      if (x->op != MT_OP_NOP) {
        if (x->flow < 0 || x->flow >= F) {
          bad(&c, "node %d entry %d: flow %d out of range", n, i, x->flow);
          continue;
        }
        if (x->addr != s->chunk[x->flow].addr || x->size != s->chunk[x->flow].size)
          bad(&c, "node %d entry %d: chunk [%llu,+%llu) is not flow %d's [%llu,+%llu)", n, i, (unsigned long long)x->addr,
              (unsigned long long)x->size, x->flow, (unsigned long long)s->chunk[x->flow].addr, (unsigned long long)s->chunk[x->flow].size);
        if (x->step == laststep_nop) bad(&c, "node %d: NOP and another entry in step %d", n, x->step);
        busy_other = x->step;
      } else {
        if (x->step == busy_other) bad(&c, "node %d: NOP and another entry in step %d", n, x->step);
        laststep_nop = x->step;
      }
      last = x->step;
    }
  }
  /* run step by step, each node's entries in table order: every entry uses what arrived
   * in earlier steps (a root reduce entry sits in the step after its last child sends,
   * before the root's gather of the same step). Flows do not interact, so the run goes a
   * flow at a time, in the order the step-major walk would meet its entries (ord): memory
   * is two bit sets per node of one flow, 4 MB for 4096 nodes, where a set per node and
   * flow would need 16 GB */
  size_t *fofs = mt_xcalloc((size_t)F + 1, sizeof(size_t));
  int(*ord)[2] = NULL;
  int *cursor = mt_xcalloc((size_t)N, sizeof(int));
  for (int pass = 0; pass < 2; pass++) {
    size_t *fill = NULL;
    if (pass) {
      for (int f = 0; f < F; f++) fofs[f + 1] += fofs[f];
      ord = mt_xcalloc(fofs[F] + 1, sizeof *ord);
      fill = mt_xcalloc((size_t)F, sizeof(size_t));
      memset(cursor, 0, (size_t)N * sizeof(int));
    }
    for (int st = 1; st <= T; st++)
      for (int n = 0; n < N; n++) {
        const mt_entry *en = mt_node_entries(tb, n);
        int i = cursor[n];
        for (; i < tb->count[n] && en[i].step == st; i++) {
          const int f = en[i].flow;
          if (en[i].op == MT_OP_NOP || f < 0 || f >= F) continue;
          if (!pass) fofs[f + 1]++;
          else {
            size_t k = fofs[f] + fill[f]++;
            ord[k][0] = n;
            ord[k][1] = i;
          }
        }
        cursor[n] = i;
      }
    free(fill);
  }
  free(cursor);
  uint64_t *set = mt_xcalloc((size_t)N * W, 8);  /* node's contributions to flow f */
  uint64_t *rmsg = mt_xcalloc((size_t)N * W, 8); /* reduce message sent by node for flow f */
  int *rdst = mt_xcalloc((size_t)N, sizeof(int)), *rstep = mt_xcalloc((size_t)N, sizeof(int));
  unsigned char *rclaimed = mt_xcalloc((size_t)N, 1);
  int *gsrc = mt_xcalloc((size_t)N, sizeof(int)), *gstep = mt_xcalloc((size_t)N, sizeof(int));
  int *rootdone = mt_xcalloc((size_t)N, sizeof(int)); /* step the root entry completed, 0 = not */
#define SET(n) (set + (size_t)(n)*W)
#define RMSG(n) (rmsg + (size_t)(n)*W)
  for (int f = 0; f < F; f++) {
    memset(set, 0, (size_t)N * W * 8);
    memset(rmsg, 0, (size_t)N * W * 8);
    memset(rclaimed, 0, (size_t)N);
    memset(rootdone, 0, (size_t)N * sizeof(int));
    memset(rstep, 0, (size_t)N * sizeof(int));
    memset(gstep, 0, (size_t)N * sizeof(int));
    for (int n = 0; n < N; n++) {
      rdst[n] = gsrc[n] = -1;
      SET(n)
      [n / 64] |= 1ull << (n % 64);
    }
    for (size_t k = fofs[f]; k < fofs[f + 1]; k++) {
      const int n = ord[k][0];
      const mt_entry *x = &mt_node_entries(tb, n)[ord[k][1]];
      const int st = x->step;
      int is_root_entry = x->op == MT_OP_REDUCE && !x->has_parent;
      if (x->op == MT_OP_REDUCE) {
        if (is_root_entry && s->root[f] != n) bad(&c, "node %d has a root reduce entry for flow %d whose root is %d", n, f, s->root[f]);
        if (!is_root_entry && s->root[f] == n) bad(&c, "root %d of flow %d sends its reduce to %d", n, f, x->parent.node);
        for (int j = 0; j < x->nchild; j++) {
          int ch = x->child[j].node;
          if (rdst[ch] != n) {
            bad(&c, "node %d step %d flow %d: reduce from child %d has not arrived (it %s)", n, st, f, ch, rdst[ch] < 0 ? "never sent one before this step" : "sent it elsewhere");
            continue;
          }
          if (rstep[ch] >= st) {
            bad(&c, "node %d step %d flow %d: child %d's reduce arrives in step %d", n, st, f, ch, rstep[ch]);
            continue;
          }
          if (rclaimed[ch]) {
            bad(&c, "node %d flow %d: child %d's reduce used twice", n, f, ch);
            continue;
          }
          rclaimed[ch] = 1;
          uint64_t *a = SET(n), *b = RMSG(ch);
          for (int w = 0; w < W; w++) {
            if (a[w] & b[w]) {
              bad(&c, "node %d flow %d: child %d's partial sum repeats contributions already added", n, f, ch);
              break;
            }
          }
          for (int w = 0; w < W; w++) a[w] |= b[w];
        }
        if (is_root_entry) rootdone[n] = st;
        else {
          if (rdst[n] >= 0) bad(&c, "node %d sends the reduce of flow %d twice", n, f);
          rdst[n] = x->parent.node;
          rstep[n] = st;
          memcpy(RMSG(n), SET(n), (size_t)W * 8);
        }
      } else { /* gather */
        if (x->has_parent) {
          if (gsrc[n] != x->parent.node || gstep[n] >= st)
            bad(&c, "node %d step %d flow %d: gather from parent %d has not arrived", n, st, f, x->parent.node);
        } else {
          if (s->root[f] != n) bad(&c, "node %d gathers flow %d without a parent but is not its root", n, f);
          else if (!rootdone[n] || rootdone[n] > st) bad(&c, "root %d step %d: gathers flow %d before its reduction completed", n, st, f);
        }
        int full = 1;
        for (int w = 0; w < W; w++) {
          uint64_t want = (w == W - 1 && N % 64) ? ((1ull << (N % 64)) - 1) : ~0ull;
          if (SET(n)[w] != want) full = 0;
        }
        if (!full) bad(&c, "node %d step %d: gather of flow %d carries an incomplete sum", n, st, f);
        for (int j = 0; j < x->nchild; j++) {
          int ch = x->child[j].node;
          if (gsrc[ch] >= 0) {
            bad(&c, "node %d receives the gather of flow %d twice", ch, f);
            continue;
          }
          gsrc[ch] = n;
          gstep[ch] = st;
          memcpy(SET(ch), SET(n), (size_t)W * 8);
        }
      }
    }
    /* end state of flow f */
    for (int n = 0; n < N; n++) {
      int cnt = 0;
      for (int w = 0; w < W; w++) cnt += __builtin_popcountll(SET(n)[w]);
      if (cnt != N) bad(&c, "node %d ends with flow %d holding %d of %d contributions", n, f, cnt, N);
      if (rdst[n] >= 0 && !rclaimed[n]) bad(&c, "the reduce of flow %d sent by %d to %d is never added", f, n, rdst[n]);
      if (s->root[f] != n && rdst[n] < 0) bad(&c, "node %d never sends its contribution to flow %d", n, f);
      if (s->root[f] != n && gsrc[n] < 0) bad(&c, "node %d never receives the gather of flow %d", n, f);
    }
  }
#undef SET
#undef RMSG
  free(ord);
  free(fofs);
  free(set);
  free(rmsg);
  free(rdst);
  free(rstep);
  free(rclaimed);
  free(gsrc);
  free(gstep);
  free(rootdone);
  check_messages(&c, s, tb, rep);
  /* lower bound of the all-gather half */
  rep->diameter = mt_topo_diameter(t);
  int lb = rep->diameter;
  for (int n = 0; n < N; n++) {
    int cap = mt_topo_in_capacity(t, n);
    if (cap > 0 && (N - 1 + cap - 1) / cap > lb) lb = (N - 1 + cap - 1) / cap;
  }
  rep->lower_bound = lb;
  rep->violations = c.viol;
  return 0;
}
