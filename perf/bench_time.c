/* strata bench — timing: warm-up, samples until min_time, median and spread (bench.h). */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#endif

void bench_sync(strata_exec_t *e) {
  strata_exec_fence(e);
#if STRATA_HAVE_CUDA
  if (strata_exec_backend(e) == STRATA_BACKEND_CUDA) cudaDeviceSynchronize();
#endif
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define MAX_SAMPLES 2000
#define MIN_BATCH_S 1e-3 /* a sample lasts at least this long: launch and fence overhead amortized */
#define MAX_REPS 1000000
/* R is calibrated until a sample lasts this much over the target: samples vary around the
 * calibrated one, and each must still reach MIN_BATCH_S */
#define CALIBRATED 1.2
#define MAX_RESTARTS 8 /* a sample under MIN_BATCH_S restarts the samples with more calls, at most this often */

const char *bench_time_method(strata_exec_t *e) {
  return strata_exec_is_host(e) ? "host clock between fences (strata_event on a host backend)"
                                : "device events on the exec's stream (strata_event: cudaEvent/hipEvent)";
}

void bench_stats_from_samples(double *t, int n, int reps, bench_stats_t *s) {
  qsort(t, (size_t)n, sizeof t[0], cmp_d);
  s->median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  s->min = t[0];
  s->max = t[n - 1];
  s->q1 = t[n / 4];
  s->q3 = t[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
  s->samples = n;
  s->reps = reps;
}

int bench_time(strata_exec_t *e, bench_fn f, void *ctx, double min_time, bench_stats_t *s) {
  int64_t call = 0;
  int st;
  strata_event_t *ev0 = NULL, *ev1 = NULL;
  double *t = NULL;
  for (int w = 0; w < 2; ++w)
    if ((st = f(ctx, call++)) != 0) return st;
  bench_sync(e);
  if ((st = strata_event_create(e, &ev0)) || (st = strata_event_create(e, &ev1))) goto out;
  double one = 0;
  if ((st = strata_event_record(e, ev0)) || (st = f(ctx, call++)) || (st = strata_event_record(e, ev1)) ||
      (st = strata_event_elapsed(ev0, ev1, &one)))
    goto out;
  double target = min_time / 20;
  if (target < MIN_BATCH_S) target = MIN_BATCH_S;
  /* R sized from the single call (rounded up: a call of 0.6 ms is 2 per sample, not 1), then
   * calibrated on whole samples, not kept: the single call can be slower than calls back to back
   * (a cold start), and a sample must last target, at least MIN_BATCH_S, as bench.h says */
  int64_t reps = one > 0 ? (int64_t)ceil(target / one) : 1000;
  if (reps < 1) reps = 1;
  if (reps > MAX_REPS) reps = MAX_REPS;
  for (int tries = 0; tries < 20 && reps < MAX_REPS; ++tries) {
    double dt = 0;
    if ((st = strata_event_record(e, ev0))) goto out;
    for (int64_t r = 0; r < reps; ++r)
      if ((st = f(ctx, call++)) != 0) goto out;
    if ((st = strata_event_record(e, ev1)) || (st = strata_event_elapsed(ev0, ev1, &dt))) goto out;
    if (dt >= CALIBRATED * target) break;
    const double grow = dt > 0 ? CALIBRATED * 1.25 * target / dt : 10.0;
    reps = (int64_t)fmin((double)MAX_REPS, ceil((double)reps * fmin(grow, 10.0)));
  }
  t = (double *)malloc(MAX_SAMPLES * sizeof(double));
  int n = 0, restarts = 0;
  double start = strata_timer_now();
  while (n < MAX_SAMPLES && (n < 5 || strata_timer_now() - start < min_time)) {
    if ((st = strata_event_record(e, ev0))) goto out;
    for (int64_t r = 0; r < reps; ++r)
      if ((st = f(ctx, call++)) != 0) goto out;
    double dt = 0;
    if ((st = strata_event_record(e, ev1)) || (st = strata_event_elapsed(ev0, ev1, &dt))) goto out;
    if (dt < MIN_BATCH_S && reps < MAX_REPS && restarts < MAX_RESTARTS) {
      /* a sample under 1 ms (calls faster than at calibration): more calls per sample, and the
       * samples taken so far are dropped, so that every sample kept lasts at least 1 ms */
      const double grow = dt > 0 ? CALIBRATED * 1.25 * target / dt : 10.0;
      reps = (int64_t)fmin((double)MAX_REPS, ceil((double)reps * fmin(grow, 10.0)));
      n = 0, ++restarts;
      start = strata_timer_now();
      continue;
    }
    t[n++] = dt / (double)reps;
  }
  bench_sync(e);
  bench_stats_from_samples(t, n, (int)reps, s);
out:
  free(t);
  strata_event_destroy(&ev0);
  strata_event_destroy(&ev1);
  return st;
}
