/* SPDX-License-Identifier: Apache-2.0
 * fuzz_sched: the schedule-JSON loader (cmodel/table/mt_json.c, mt_json_read) and then the
 * checker (cmodel/plan/mt_check.c) on whatever it loaded. Both may refuse; neither may crash,
 * hang or leak (docs/reference/fuzz.md). Input: the JSON text. */
#include "fuzz.h"
#include "plan/mt_check.h"
#include "table/mt_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  if (mt_json_read(fz_file(0, data, size), &t, &s, &tb, &e)) {
    if (!e.msg[0]) FZ_BUG("the loader refused the file without a reason");
    return 0;
  }
  mt_check_report rep;
  mt_check(&s, &tb, NULL, &rep, &e);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return 0;
}
