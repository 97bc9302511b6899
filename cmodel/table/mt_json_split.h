/* SPDX-License-Identifier: Apache-2.0
 * mt_json_split: read a large JSON document piece by piece. The top-level object's members
 * are parsed by jansson one at a time, except the big arrays a reader names: their elements
 * are handed out one at a time later, each parsed by jansson. A 1024-node schedule file
 * (517 MB) then needs memory for one node's entries, not for a tree of the whole file
 * (6.8 GB). This file only finds where a value's text ends (strings, nesting); jansson
 * parses and checks every value. */
#ifndef MT_JSON_SPLIT_H
#define MT_JSON_SPLIT_H
#include <jansson.h>
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_JSPLIT_MAX_BIG 4
typedef struct mt_jsplit mt_jsplit;

/* Reads the whole file once: every top-level member goes into *head (a new object, the
 * caller's to json_decref), but members named in big[0..nbig-1] whose values are arrays:
 * those are only located. A syntax error anywhere outside those arrays, or a top level that is
 * not an object, is reported as "FILE:LINE: invalid JSON: ..." (NULL returned). */
mt_jsplit *mt_jsplit_open(const char *path, const char *const *big, int nbig, json_t **head, mt_err *e);
/* 1 when the member big[k] was there and an array (else it is in head, if there at all). */
int mt_jsplit_has(const mt_jsplit *j, int k);
/* The elements of array big[k], in order: mt_jsplit_begin, then mt_jsplit_next until it
 * returns 0 (the end) or -1 (an error, reported with the line). 1: *elem is the next element
 * (the caller's to json_decref). */
int mt_jsplit_begin(mt_jsplit *j, int k, mt_err *e);
int mt_jsplit_next(mt_jsplit *j, json_t **elem, mt_err *e);
void mt_jsplit_close(mt_jsplit *j);

#ifdef __cplusplus
}
#endif
#endif
