/* SPDX-License-Identifier: Apache-2.0
 * mt_layout: packing schedule-table entries into ROM words and back. */
#include "table/mt_layout.h"
#include <string.h>

int mt_bits(uint64_t x) {
  int b = 1;
  while (b < 64 && (x >> b)) b++;
  return b;
}

#define put mt_bits_put
#define get mt_bits_get

void mt_layout_make(mt_layout *ly, int compact, int N, int ports, int L, int C, int F, uint64_t bytes, int steps) {
  memset(ly, 0, sizeof *ly);
  ly->compact = compact;
  ly->n_nodes = N;
  ly->ports = ports;
  ly->local_ports = L;
  ly->children = C;
  ly->n_flows = F;
  ly->bytes = bytes;
  ly->max_steps = steps > 2 * N - 2 ? steps : 2 * N - 2;
  ly->op_w = 2;
  ly->flow_w = mt_bits((uint64_t)(F > 1 ? F - 1 : 1));
  ly->step_w = mt_bits((uint64_t)ly->max_steps); /* ring, the longest schedule, has 2(N-1) steps */
  ly->id_w = mt_bits((uint64_t)(N - 1));
  ly->port_w = mt_bits((uint64_t)ports); /* all ones = routed by destination */
  ly->ej_w = mt_bits((uint64_t)(L > 1 ? L - 1 : 1));
  ly->addr_w = mt_bits(bytes > 1 ? bytes - 1 : 1);
  ly->size_w = mt_bits(bytes);
  mt_layout_offsets(ly);
}

void mt_layout_offsets(mt_layout *ly) { mt_entry_fmt_offsets(&ly->fmt); }

#define MT_MAXI(a, b) ((a) > (b) ? (a) : (b))
void mt_layout_widen(mt_layout *ly, const mt_layout *min) {
  ly->op_w = MT_MAXI(ly->op_w, min->op_w);
  ly->flow_w = MT_MAXI(ly->flow_w, min->flow_w);
  ly->step_w = MT_MAXI(ly->step_w, min->step_w);
  ly->id_w = MT_MAXI(ly->id_w, min->id_w);
  ly->port_w = MT_MAXI(ly->port_w, min->port_w);
  ly->ej_w = MT_MAXI(ly->ej_w, min->ej_w);
  ly->addr_w = MT_MAXI(ly->addr_w, min->addr_w);
  ly->size_w = MT_MAXI(ly->size_w, min->size_w);
  ly->children = MT_MAXI(ly->children, min->children);
  mt_layout_offsets(ly);
}

int mt_layout_fit(mt_layout *ly, const mt_layout *hw, mt_err *e) {
  if (ly->compact != hw->compact)
    return mt_fail(e, "table layout: the schedule is encoded %s, the hardware layout is %s", ly->compact ? "compact" : "full",
                   hw->compact ? "compact" : "full");
  const struct {
    const char *name;
    int need, have;
  } f[] = {
    {"op", ly->op_w, hw->op_w}, {"FlowW", ly->flow_w, hw->flow_w}, {"StepW", ly->step_w, hw->step_w}, {"IdW", ly->id_w, hw->id_w}, {"PortW", ly->port_w, hw->port_w}, {"EjW", ly->ej_w, hw->ej_w}, {"AddrW", ly->compact ? 0 : ly->addr_w, ly->compact ? 0 : hw->addr_w}, {"SizeW", ly->compact ? 0 : ly->size_w, ly->compact ? 0 : hw->size_w}, {"Children", ly->children, hw->children}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (f[i].need > f[i].have)
      return mt_fail(e, "table layout: the schedule needs %s=%d, the hardware layout has %s=%d", f[i].name, f[i].need, f[i].name,
                     f[i].have);
  mt_layout_widen(ly, hw);
  if (mt_layout_words(ly) > MT_LAYOUT_MAX_WORDS) return mt_fail(e, "table entries of %d bits exceed %d", ly->width, 64 * MT_LAYOUT_MAX_WORDS);
  return 0;
}

int mt_layout_words(const mt_layout *ly) { return (ly->width + 63) / 64; }

int mt_layout_for(const mt_sched *s, const mt_tables *tb, int compact, mt_layout *ly, mt_err *e) {
  const mt_topo *t = s->topo;
  /* port fields name end nodes' own ports (slots: the sender's output port, the receiver's
   * ejection port); switches' ports never appear (on grids every vertex is an end node) */
  const int P = mt_topo_node_ports(t);
  int L = tb->local_ports > 0 ? tb->local_ports : P;
  int C = tb->max_children > 0 ? tb->max_children : 1;
  mt_layout_make(ly, compact, s->n_nodes, P, L, C, s->n_flows, s->bytes, s->steps);
  if (mt_layout_words(ly) > MT_LAYOUT_MAX_WORDS) return mt_fail(e, "table entries of %d bits exceed %d", ly->width, 64 * MT_LAYOUT_MAX_WORDS);
  ly->elem = s->elem;
  ly->base_units = s->bytes / (uint64_t)s->elem / (uint64_t)s->n_flows;
  ly->rem_units = s->bytes / (uint64_t)s->elem % (uint64_t)s->n_flows;
  ly->nop_bytes = 0;
  for (int i = 0; i < tb->n_entries; i++)
    if (tb->entries[i].op == MT_OP_NOP && tb->entries[i].size > ly->nop_bytes) ly->nop_bytes = tb->entries[i].size;
  if (!compact) return 0;
  if (t->n_sw) return mt_fail(e, "compact layout is for direct networks (node ids follow from ports); %s has switches", t->spec);
  /* compact: every transfer one hop, every sender told apart by its output port */
  for (int n = 0; n < tb->n_nodes; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++) {
      const mt_entry *x = &en[i];
      if (x->op == MT_OP_NOP) {
        if (x->size != ly->nop_bytes) return mt_fail(e, "compact layout: NOP estimates differ between steps (node %d step %d); use the full layout", n, x->step);
        continue;
      }
      int recv_parent = x->op == MT_OP_GATHER;
      for (int k = -1; k < x->nchild; k++) {
        const mt_slot *sl = k < 0 ? (x->has_parent ? &x->parent : NULL) : &x->child[k];
        if (!sl) continue;
        if (sl->port == MT_PORT_ROUTED) return mt_fail(e, "compact layout needs one-hop transfers; node %d step %d flow %d has a routed one (use the full layout)", n, x->step, x->flow);
        int receiving = (k < 0) == recv_parent;
        if (receiving && mt_topo_rx_peer(t, n, sl->port) < 0)
          return mt_fail(e, "compact layout: node %d cannot tell its senders apart by output port %d", n, sl->port);
      }
    }
  }
  return 0;
}

static void put_slot(const mt_layout *ly, uint64_t *w, int off, const mt_slot *sl) {
  int o = off;
  put(w, o, 1, 1);
  o += 1;
  if (!ly->compact) {
    put(w, o, ly->id_w, (uint64_t)sl->node);
    o += ly->id_w;
  }
  uint64_t port = sl->port == MT_PORT_ROUTED ? (1ull << ly->port_w) - 1 : (uint64_t)sl->port;
  put(w, o, ly->port_w, port);
  o += ly->port_w;
  put(w, o, ly->ej_w, (uint64_t)sl->eject);
}

void mt_layout_encode(const mt_layout *ly, const mt_entry *en, uint64_t *w) {
  memset(w, 0, (size_t)mt_layout_words(ly) * 8);
  if (!en) {
    put(w, ly->o_op, ly->op_w, MT_OP_END);
    return;
  }
  put(w, ly->o_op, ly->op_w, (uint64_t)en->op);
  put(w, ly->o_flow, ly->flow_w, (uint64_t)en->flow);
  put(w, ly->o_step, ly->step_w, (uint64_t)en->step);
  if (en->has_parent) put_slot(ly, w, ly->o_parent, &en->parent);
  for (int c = 0; c < en->nchild && c < ly->children; c++) put_slot(ly, w, ly->o_child + c * ly->slot_w, &en->child[c]);
  if (!ly->compact) {
    put(w, ly->o_addr, ly->addr_w, en->addr);
    put(w, ly->o_size, ly->size_w, en->size);
  }
}

/* compact: the neighbour behind a port (sending slot) or the sender using a port (receiving) */
static int peer_of(const mt_topo *t, int node, int port, int receiving) {
  if (!t || port < 0) return -1;
  if (!receiving) {
    int l = port < t->max_ports ? t->port_link[node * t->max_ports + port] : -1;
    return l < 0 ? -1 : t->links[l].dst;
  }
  int v = mt_topo_rx_peer(t, node, port);
  return v < 0 ? -1 : v;
}

static int get_slot(const mt_layout *ly, const uint64_t *w, int off, mt_slot *sl) {
  int o = off;
  if (!get(w, o, 1)) return 0;
  o += 1;
  sl->node = -1;
  if (!ly->compact) {
    sl->node = (int)get(w, o, ly->id_w);
    o += ly->id_w;
  }
  uint64_t port = get(w, o, ly->port_w);
  o += ly->port_w;
  sl->port = port == (1ull << ly->port_w) - 1 ? MT_PORT_ROUTED : (int)port;
  sl->eject = (int)get(w, o, ly->ej_w);
  return 1;
}

int mt_layout_decode(const mt_layout *ly, const mt_topo *t, int node, const uint64_t *w,
                     mt_entry *en, mt_slot *slots, mt_err *e) {
  memset(en, 0, sizeof *en);
  en->op = (int)get(w, ly->o_op, ly->op_w);
  if (en->op == MT_OP_END) return MT_OP_END;
  en->flow = (int)get(w, ly->o_flow, ly->flow_w);
  en->step = (int)get(w, ly->o_step, ly->step_w);
  if (en->op != MT_OP_NOP && en->flow >= ly->n_flows) return mt_fail(e, "node %d: entry names flow %d of %d", node, en->flow, ly->n_flows);
  en->has_parent = get_slot(ly, w, ly->o_parent, &en->parent);
  en->child = slots;
  en->nchild = 0;
  for (int c = 0; c < ly->children; c++) {
    mt_slot sl;
    if (get_slot(ly, w, ly->o_child + c * ly->slot_w, &sl)) {
      if (c != en->nchild) return mt_fail(e, "node %d: child slot %d used after an empty one", node, c);
      slots[en->nchild++] = sl;
    }
  }
  if (!ly->compact) {
    en->addr = get(w, ly->o_addr, ly->addr_w);
    en->size = get(w, ly->o_size, ly->size_w);
  } else {
    if (en->op == MT_OP_NOP) {
      en->addr = 0;
      en->size = ly->nop_bytes;
    } else {
      uint64_t f = (uint64_t)en->flow, u = ly->base_units + (f < ly->rem_units ? 1 : 0);
      en->addr = (uint64_t)ly->elem * (f * ly->base_units + (f < ly->rem_units ? f : ly->rem_units));
      en->size = (uint64_t)ly->elem * u;
    }
    int recv_parent = en->op == MT_OP_GATHER;
    if (en->has_parent) en->parent.node = peer_of(t, node, en->parent.port, recv_parent);
    for (int c = 0; c < en->nchild; c++) slots[c].node = peer_of(t, node, slots[c].port, !recv_parent);
  }
  if (en->op == MT_OP_NOP) {
    en->flow = 0;
    en->has_parent = 0;
    en->nchild = 0;
  }
  return en->op;
}

int mt_layout_depth(const mt_tables *tb) { return tb->max_entries + 1; }

void mt_layout_node_image(const mt_layout *ly, const mt_tables *tb, int node, int depth, int stride, uint64_t *img) {
  const int nw = mt_layout_words(ly);
  const mt_entry *en = mt_node_entries(tb, node);
  memset(img, 0, (size_t)depth * (size_t)stride * 8);
  for (int k = 0; k <= tb->count[node] && k < depth; k++) {
    uint64_t word[MT_LAYOUT_MAX_WORDS];
    mt_layout_encode(ly, k < tb->count[node] ? &en[k] : NULL, word);
    memcpy(img + (size_t)k * (size_t)stride, word, (size_t)nw * 8);
  }
}
