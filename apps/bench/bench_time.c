/* strata bench — timing: warm-up, samples until min_time, median and spread (bench.h). */
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

int bench_time(strata_exec_t *e, bench_fn f, void *ctx, double min_time, bench_stats_t *s) {
  int64_t call = 0;
  int st;
  for (int w = 0; w < 2; ++w)
    if ((st = f(ctx, call++)) != 0) return st;
  bench_sync(e);
  double t0 = strata_timer_now();
  if ((st = f(ctx, call++)) != 0) return st;
  bench_sync(e);
  double one = strata_timer_now() - t0, target = min_time / 20;
  if (target < 2e-5) target = 2e-5;
  int64_t reps = one > 0 ? (int64_t)(target / one) : 1000;
  if (reps < 1) reps = 1;
  if (reps > 100000) reps = 100000;
  double *t = (double *)malloc(MAX_SAMPLES * sizeof(double));
  int n = 0;
  const double start = strata_timer_now();
  while (n < MAX_SAMPLES && (n < 5 || strata_timer_now() - start < min_time)) {
    t0 = strata_timer_now();
    for (int64_t r = 0; r < reps; ++r)
      if ((st = f(ctx, call++)) != 0) {
        free(t);
        return st;
      }
    bench_sync(e);
    t[n++] = (strata_timer_now() - t0) / (double)reps;
  }
  qsort(t, (size_t)n, sizeof t[0], cmp_d);
  s->median = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  s->min = t[0];
  s->max = t[n - 1];
  s->q1 = t[n / 4];
  s->q3 = t[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
  s->samples = n;
  s->reps = (int)reps;
  free(t);
  return 0;
}
