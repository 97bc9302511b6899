/* SPDX-License-Identifier: Apache-2.0
 * mt_json: the schedule as JSON, schema "multitree-schedule/1" (docs/reference/formats.md). */
#ifndef MT_JSON_H
#define MT_JSON_H
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif

struct json_t;
/* The topology as a JSON object (spec, kind, dims, nodes, switches, links) and back. */
struct json_t *mt_json_topology(const mt_topo *t);
int mt_json_topology_parse(struct json_t *jt, const char *file, mt_topo *t, mt_err *e);

int mt_json_write(const mt_sched *s, const mt_tables *tb, const char *path, mt_err *e);
/* The same file with the tables derived a node at a time as they are written (the tables of
 * a 4096-node schedule need 2.3 GB when held whole): byte-identical to mt_json_write of
 * mt_sched_tables(s, local_ports). */
int mt_json_write_sched(const mt_sched *s, int local_ports, const char *path, mt_err *e);
/* Read a schedule file: rebuilds the topology into *t, the chunks, roots and
 * transfers into *s (s->topo = t) and the tables into *tb. Every problem is reported
 * with the file and the JSON path of the offending field. */
int mt_json_read(const char *path, mt_topo *t, mt_sched *s, mt_tables *tb, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
