/* strata bench — the stream suite: copy, triad (through parallel_for) and sum (through
 * parallel_reduce) per backend, and the reference of the backend's bandwidth: a device-to-device
 * memcpy on GPUs, a plain OpenMP triad on host backends. Results are checked before they are
 * timed. The reference is what the spmv suite's "% of stream" divides by (same backend, same run). */
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "stream_kernels.h"

STRATA_KERNEL_DECLARE(stream_copy);
STRATA_KERNEL_DECLARE(stream_triad);
STRATA_KERNEL_DECLARE(stream_sum);

typedef enum { K_COPY, K_TRIAD, K_SUM, K_MEMCPY, K_PLAIN_TRIAD } kind_t;
typedef struct { strata_exec_t *e; stream_args_t a; int64_t n; double sum; kind_t k; } stream_ctx;

static int stream_run(void *v, int64_t call) {
  stream_ctx *c = (stream_ctx *)v;
  (void)call;
  switch (c->k) {
    case K_COPY: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_copy, &c->a);
    case K_TRIAD: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_triad, &c->a);
    case K_SUM:
      return strata_parallel_reduce(c->e, NULL, strata_range(0, c->n), &stream_sum, &c->a, STRATA_REDUCE_SUM, &c->sum);
    case K_MEMCPY: return strata_mem_copy_async(c->e, c->a.c, c->a.a, (size_t)c->n * sizeof(double));
    case K_PLAIN_TRIAD: {
      const double *a = c->a.a, *b = c->a.b, s = c->a.s;
      double *d = c->a.c;
      const int64_t n = c->n;
#pragma omp parallel for schedule(static) num_threads(strata_exec_concurrency(c->e))
      for (int64_t i = 0; i < n; ++i) d[i] = a[i] + s * b[i];
      return 0;
    }
  }
  return -1;
}

void bench_stream_backend(int bi) {
  strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  const int host = strata_exec_is_host(e);
  const int64_t n = bench_cfg.quick ? (int64_t)1 << 20 : host ? (int64_t)1 << 25 : (int64_t)1 << 27;
  const size_t bytes = (size_t)n * sizeof(double);
  char name[64];
  snprintf(name, sizeof name, "n=%lld", (long long)n);
  stream_ctx c;
  memset(&c, 0, sizeof c);
  c.e = e;
  c.n = n;
  c.a.s = 3.0;
  double *a = NULL, *bb = NULL, *cc = NULL, *h = (double *)malloc(bytes);
  const char *ref = host ? "reference_plain_omp_triad" : "reference_memcpy";
  const char *algos[4] = {"copy", "triad", "sum", ref};
  const kind_t kinds[4] = {K_COPY, K_TRIAD, K_SUM, host ? K_PLAIN_TRIAD : K_MEMCPY};
  const double per[4] = {16, 24, 8, host ? 24 : 16};
  int first = bench_nrec;
  for (int q = 0; q < 4; ++q) bench_record_add("stream", b, name, algos[q])->n = n;
  bench_result_t *res = &bench_rec[first];
  if (strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&a) || strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&bb) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&cc)) {
    for (int q = 0; q < 4; ++q) snprintf(res[q].msg, sizeof res[q].msg, "%s", strata_error_message());
    goto done;
  }
  /* a[i] = 1 + (i mod 8), b[i] = 2: exact sums and triads, checked before timing */
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 1.0 + (double)(i % 8);
  strata_mem_copy(e, a, h, bytes);
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 2.0;
  strata_mem_copy(e, bb, h, bytes);
  c.a.a = a;
  c.a.b = bb;
  c.a.c = cc;
  for (int q = 0; q < 4; ++q) {
    bench_progress("stream", name, strata_backend_name(b), algos[q]);
    c.k = kinds[q];
    strata_mem_set_async(e, cc, 0xFF, bytes);
    int ok = stream_run(&c, 0) == 0;
    bench_sync(e);
    if (kinds[q] == K_SUM) {
      ok = ok && c.sum == 4.5 * (double)(n - n % 8) + (double)((n % 8) * (n % 8 + 1) / 2);
    } else {
      strata_mem_copy(e, h, cc, bytes);
      const double add_ = kinds[q] == K_COPY || kinds[q] == K_MEMCPY ? 0.0 : 6.0;
      for (int64_t i = 0; i < n && ok; ++i) ok = h[i] == 1.0 + (double)(i % 8) + add_;
    }
    res[q].bytes = per[q] * (double)n;
    res[q].entries = (double)n;
    res[q].ok = ok ? 1 : 0;
    if (!ok) {
      snprintf(res[q].msg, sizeof res[q].msg, "wrong result: time not counted");
      continue;
    }
    int st = bench_time(e, stream_run, &c, bench_cfg.min_time, &res[q].t);
    if (st) {
      res[q].ok = -1;
      snprintf(res[q].msg, sizeof res[q].msg, "%s", strata_error_message());
    }
  }
  if (res[3].ok == 1) bench_cfg.stream_bw[b] = res[3].bytes / res[3].t.median / 1e9;
  for (int q = 0; q < 4; ++q) res[q].ref_bw = bench_cfg.stream_bw[b];
done:
  for (int q = 0; q < 4; ++q) bench_record_emit(&res[q]);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&a);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&bb);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&cc);
  free(h);
}

static void stream_suite_run(const bench_inputs_t *in) {
  (void)in;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) bench_stream_backend(bi);
}
static int stream_estimate(const bench_inputs_t *in) {
  (void)in;
  return 4 * bench_cfg.nb;
}

const bench_suite_t bench_suite_stream = {
    .name = "stream",
    .help = "copy, triad, sum per backend; reference: device memcpy on GPUs, a plain OpenMP triad on hosts",
    .options = 0,
    .run = stream_suite_run,
    .estimate = stream_estimate,
};
