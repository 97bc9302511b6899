/* SPDX-License-Identifier: Apache-2.0
 * mt_net_par: work split over threads for mt_net_start and the final check (net/mt_net_priv.h
 * lists the other parts). */
#include <pthread.h>
#include "net/mt_net_priv.h"

/* Work outside the blocks, split over mt_net_cfg.threads (set-up, the final check): fn(arg, k,
 * nt) for k = 0..nt-1, k = 0 on the caller's thread; a share whose thread the system refused
 * runs on the caller's too. Each share writes only its own outputs, so the result is the
 * same for any nt. */
typedef struct {
  mt_net_par_fn fn;
  void *arg;
  int k, nt;
} par_arg;
static void *par_tramp(void *v) {
  const par_arg *a = v;
  a->fn(a->arg, a->k, a->nt);
  return NULL;
}
int mt_net_threads(const mt_net *n) {
  int nt = n->c.threads > 1 ? (int)n->c.threads : 1;
  if (nt > n->N) nt = n->N;
  return nt > NET_MAX_THREADS ? NET_MAX_THREADS : nt;
}
void mt_net_par_run(int nt, mt_net_par_fn fn, void *arg) {
  pthread_t th[NET_MAX_THREADS];
  par_arg a[NET_MAX_THREADS];
  int ok[NET_MAX_THREADS] = {0};
  for (int k = 1; k < nt; k++) {
    a[k] = (par_arg){fn, arg, k, nt};
    ok[k] = !pthread_create(&th[k], NULL, par_tramp, &a[k]);
  }
  fn(arg, 0, nt);
  for (int k = 1; k < nt; k++)
    if (ok[k]) pthread_join(th[k], NULL);
    else fn(arg, k, nt);
}
