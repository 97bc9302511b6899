/* SPDX-License-Identifier: Apache-2.0
 * mt_iter: the non-overlapped and the layer-wise overlapped iteration. */
#include "train/mt_iter.h"

mt_iter_result mt_iter_run(const mt_iter_layer *l, int n, uint64_t ar_all, int overlap) {
  mt_iter_result r = {0, 0, 0, 0, 0};
  uint64_t t = 0, net_free = 0;
  for (int i = 0; i < n; i++) t += l[i].fwd;
  for (int i = n - 1; i >= 0; i--) {
    t += l[i].bwd_w;
    if (overlap && l[i].ar) { /* queued now; the network takes one all-reduce at a time */
      const uint64_t start = t > net_free ? t : net_free;
      net_free = start + l[i].ar;
      r.comm += l[i].ar;
    }
    t += l[i].bwd_in;
  }
  r.compute = t;
  if (!overlap) {
    r.comm = ar_all;
    net_free = t + ar_all;
  }
  r.total = net_free > t ? net_free : t;
  r.exposed = r.total - r.compute;
  r.overlapped = r.comm - r.exposed;
  return r;
}
