/* strata perf — memory bandwidth per backend (issue: Core complete, "Performance").
 *
 * copy c = a and triad c = a + s·b through strata_parallel_for, sum through
 * strata_parallel_reduce, against the same run's references: on GPUs the runtime's
 * device-to-device copy (cudaMemcpyAsync / hipMemcpyAsync through strata_mem_copy_async), on host
 * backends a plain C OpenMP triad compiled with the same flags. Bytes counted as read + write
 * (copy 16, triad 24, sum 8 per element). Time: median of 15 samples, each 10 back-to-back launches
 * between two fences, after warm-up; arrays of --n doubles (default 2^27 on GPUs = 1 GiB each,
 * 2^25 on host), several times any L2/L3. Results are checked before the times are printed.
 * Usage: strata_stream_bench [--backend B]... [--n N] */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream_kernels.h"
#include "strata/strata.h"

STRATA_KERNEL_DECLARE(stream_copy);
STRATA_KERNEL_DECLARE(stream_triad);
STRATA_KERNEL_DECLARE(stream_sum);

#define SAMPLES 15
#define REPS 10

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef enum { K_COPY, K_TRIAD, K_SUM, K_MEMCPY, K_PLAIN_TRIAD } kind_t;
typedef struct { strata_exec_t *e; stream_args_t a; int64_t n; double sum; } ctx_t;

static strata_status_t run(ctx_t *c, kind_t k) {
  switch (k) {
    case K_COPY: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_copy, &c->a);
    case K_TRIAD: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_triad, &c->a);
    case K_SUM: return strata_parallel_reduce(c->e, NULL, strata_range(0, c->n), &stream_sum, &c->a, STRATA_REDUCE_SUM, &c->sum);
    case K_MEMCPY: return strata_mem_copy_async(c->e, c->a.c, c->a.a, (size_t)c->n * sizeof(double));
    case K_PLAIN_TRIAD: {
      const double *a = c->a.a, *b = c->a.b, s = c->a.s;
      double *d = c->a.c;
      const int64_t n = c->n;
#pragma omp parallel for schedule(static) num_threads(strata_exec_concurrency(c->e))
      for (int64_t i = 0; i < n; ++i) d[i] = a[i] + s * b[i];
      return STRATA_SUCCESS;
    }
  }
  return STRATA_ERR_INVALID_ARGUMENT;
}

static double measure(ctx_t *c, kind_t k) {
  double t[SAMPLES];
  for (int w = 0; w < 3; ++w) run(c, k);
  strata_exec_fence(c->e);
  for (int s = 0; s < SAMPLES; ++s) {
    double t0 = strata_timer_now();
    for (int r = 0; r < REPS; ++r) {
      strata_status_t st = run(c, k);
      if (st != STRATA_SUCCESS) {
        fprintf(stderr, "launch: %s\n", strata_error_message());
        exit(1);
      }
    }
    strata_exec_fence(c->e);
    t[s] = (strata_timer_now() - t0) / REPS;
  }
  qsort(t, SAMPLES, sizeof t[0], cmp_d);
  return t[SAMPLES / 2];
}

static int bench(strata_backend_t b, int64_t n_opt) {
  strata_exec_t *e = NULL;
  if (strata_exec_default(b, &e) != STRATA_SUCCESS) {
    printf("%-8s skipped: %s\n", strata_backend_name(b), strata_error_message());
    return 0;
  }
  const int host = strata_exec_is_host(e);
  const int64_t n = n_opt > 0 ? n_opt : host ? (int64_t)1 << 25 : (int64_t)1 << 27;
  const size_t bytes = (size_t)n * sizeof(double);
  ctx_t c;
  memset(&c, 0, sizeof c);
  c.e = e;
  c.n = n;
  c.a.s = 3.0;
  double *a = NULL, *bb = NULL, *cc = NULL;
  if (strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&a) || strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&bb) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&cc)) {
    fprintf(stderr, "%s\n", strata_error_message());
    return 1;
  }
  /* a[i] = 1 + (i mod 8), b[i] = 2: exact sums and triads */
  double *h = (double *)malloc(bytes);
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 1.0 + (double)(i % 8);
  strata_mem_copy(e, a, h, bytes);
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 2.0;
  strata_mem_copy(e, bb, h, bytes);
  c.a.a = a;
  c.a.b = bb;
  c.a.c = cc;
  /* check each kernel once */
  int ok = 1;
  run(&c, K_TRIAD);
  strata_exec_fence(e);
  strata_mem_copy(e, h, cc, bytes);
  for (int64_t i = 0; i < n && ok; ++i) ok = h[i] == 1.0 + (double)(i % 8) + 6.0;
  run(&c, K_COPY);
  strata_exec_fence(e);
  strata_mem_copy(e, h, cc, bytes);
  for (int64_t i = 0; i < n && ok; ++i) ok = h[i] == 1.0 + (double)(i % 8);
  run(&c, K_SUM);
  const double want = 4.5 * (double)(n - n % 8) + (double)((n % 8) * (n % 8 + 1) / 2);
  ok = ok && c.sum == want;
  free(h);
  if (!ok) {
    printf("%-8s results WRONG — no times reported\n", strata_backend_name(b));
    return 1;
  }
  const double tc = measure(&c, K_COPY), tt = measure(&c, K_TRIAD), ts = measure(&c, K_SUM);
  const kind_t refk = host ? K_PLAIN_TRIAD : K_MEMCPY;
  const double tr = measure(&c, refk);
  const double ref_bw = (host ? 24.0 : 16.0) * (double)n / tr / 1e9;
  const char *ref_name = host ? "plain OpenMP triad" : "device-to-device memcpy";
  printf("%-8s n=%lld (%.0f MiB/array)  reference %s %.1f GB/s\n", strata_backend_name(b), (long long)n,
         (double)bytes / 1048576.0, ref_name, ref_bw);
  const struct { const char *name; double t, per; } rows[3] = {{"copy", tc, 16}, {"triad", tt, 24}, {"sum", ts, 8}};
  for (int r = 0; r < 3; ++r) {
    const double bw = rows[r].per * (double)n / rows[r].t / 1e9;
    printf("%-8s %-6s %9.3f ms %9.1f GB/s %6.1f %% of %s\n", strata_backend_name(b), rows[r].name, 1e3 * rows[r].t, bw,
           100.0 * bw / ref_bw, ref_name);
  }
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&a);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&bb);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&cc);
  return 0;
}

int main(int argc, char **argv) {
  int64_t n = 0;
  strata_backend_t list[STRATA_NUM_BACKENDS];
  int nb = 0;
  if (strata_init(NULL) != STRATA_SUCCESS) {
    fprintf(stderr, "%s\n", strata_error_message());
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--n") && i + 1 < argc) {
      n = atoll(argv[++i]);
      if (n < 8) {
        fprintf(stderr, "--n %s: at least 8\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--backend") && i + 1 < argc && nb < STRATA_NUM_BACKENDS) {
      if (strata_backend_from_name(argv[++i], &list[nb]) != STRATA_SUCCESS) {
        fprintf(stderr, "%s\n", strata_error_message());
        return 2;
      }
      if (list[nb] == STRATA_BACKEND_DEFAULT) list[nb] = strata_backend_default();
      ++nb;
    } else {
      fprintf(stderr, "usage: %s [--backend B]... [--n N]\n", argv[0]);
      return 2;
    }
  }
  if (nb == 0) /* every compiled backend but serial */
    for (int b = STRATA_BACKEND_OPENMP; b < STRATA_NUM_BACKENDS; ++b)
      if (strata_backend_compiled((strata_backend_t)b)) list[nb++] = (strata_backend_t)b;
  int rc = 0;
  for (int i = 0; i < nb; ++i) rc |= bench(list[i], n);
  strata_finalize();
  return rc;
}
