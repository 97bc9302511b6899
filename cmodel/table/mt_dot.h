/* SPDX-License-Identifier: Apache-2.0
 * mt_dot: Graphviz picture of a schedule's trees (like Fig. 3 d/e). */
#ifndef MT_DOT_H
#define MT_DOT_H
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif
/* One cluster per flow; node "f-n" is node n in tree f. Solid edges: gather
 * (parent -> child), dashed: reduce (child -> parent); each labelled with its step. */
int mt_dot_write(const mt_sched *s, const char *path, mt_err *e);
#ifdef __cplusplus
}
#endif
#endif
