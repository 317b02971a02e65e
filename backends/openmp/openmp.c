/* strata — the OpenMP backend's runtime: host memory, a parallel merge sort. Kernels map through
 * include/strata_kl_openmp.h. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/src/internal.h"

static strata_status_t omp_device_count(int *count) {
  *count = 1;
  return STRATA_SUCCESS;
}

static strata_status_t omp_device_info(int device, strata_device_info_t *info) {
  (void)device;
  memset(info, 0, sizeof *info);
  snprintf(info->name, sizeof info->name, "host (OpenMP %d)", _OPENMP);
  /* the threads a parallel region gets by default: OMP_NUM_THREADS (or the cores), capped by
   * OMP_THREAD_LIMIT */
  const int max = omp_get_max_threads(), limit = omp_get_thread_limit();
  info->multiprocessors = limit > 0 && limit < max ? limit : max;
  info->warp_size = 1;
  info->max_threads_per_team = 1;
  info->max_scratch_bytes = STRATA_HOST_MAX_SCRATCH;
  return STRATA_SUCCESS;
}

static strata_status_t omp_stream_create(int device, void **stream) {
  (void)device;
  *stream = NULL;
  return STRATA_SUCCESS;
}
static strata_status_t omp_stream_destroy(int device, void *stream) {
  (void)device;
  (void)stream;
  return STRATA_SUCCESS;
}
static strata_status_t omp_fence(int device, void *stream) {
  (void)device;
  (void)stream;
  return STRATA_SUCCESS;
}

/* Parallel stable merge sort: each thread sorts a chunk with the serial sort, then rounds of
 * pairwise merges, the merges of one round in parallel. */
static strata_status_t omp_sort_pairs(strata_exec_t *exec, int64_t n, int key_bits, int64_t *keys,
                                      int64_t *values) {
  int p = strata_exec_concurrency(exec);
  if (p < 1) p = 1;
  /* few key bits: the serial sort is one O(n) counting pass */
  if (n < 4096 || p == 1 || key_bits <= 12) return strata_impl_host_sort_pairs_serial(exec, n, key_bits, keys, values);
  int64_t *tk = (int64_t *)malloc((size_t)n * sizeof *tk), *tv = (int64_t *)malloc((size_t)n * sizeof *tv);
  int64_t *bounds = (int64_t *)malloc((size_t)(p + 1) * sizeof *bounds);
  if (!tk || !tv || !bounds) {
    free(tk);
    free(tv);
    free(bounds);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "sort: %lld pairs need %lld bytes of buffer",
                             (long long)n, (long long)(16 * n));
  }
  for (int t = 0; t <= p; ++t) bounds[t] = (int64_t)((__int128)n * t / p);
  strata_status_t st = STRATA_SUCCESS;
#pragma omp parallel for num_threads(p) schedule(static, 1)
  for (int t = 0; t < p; ++t) {
    strata_status_t s = strata_impl_host_sort_pairs_serial(exec, bounds[t + 1] - bounds[t], key_bits,
                                                           keys + bounds[t], values + bounds[t]);
    if (s != STRATA_SUCCESS) {
#pragma omp critical
      st = s;
    }
  }
  int64_t *sk = keys, *sv = values, *dk = tk, *dv = tv;
  for (int w = 1; w < p && st == STRATA_SUCCESS; w *= 2) {
#pragma omp parallel for num_threads(p) schedule(dynamic, 1)
    for (int t = 0; t < p; t += 2 * w) {
      int m = t + w < p ? t + w : p, e = t + 2 * w < p ? t + 2 * w : p;
      strata_impl_merge_pairs(sk + bounds[t], sv + bounds[t], bounds[m] - bounds[t], sk + bounds[m],
                              sv + bounds[m], bounds[e] - bounds[m], dk + bounds[t], dv + bounds[t]);
    }
    int64_t *x = sk; sk = dk; dk = x;
    x = sv; sv = dv; dv = x;
  }
  if (sk != keys) {
    memcpy(keys, sk, (size_t)n * sizeof *keys);
    memcpy(values, sv, (size_t)n * sizeof *values);
  }
  free(tk);
  free(tv);
  free(bounds);
  return st;
}

const strata_impl_backend_t strata_impl_backend_openmp = {
    STRATA_BACKEND_OPENMP, "openmp", 1, 1,
    omp_device_count, omp_device_info, omp_stream_create, omp_stream_destroy, omp_fence,
    strata_impl_host_alloc, strata_impl_host_dealloc, strata_impl_host_copy, strata_impl_host_set,
    omp_sort_pairs,
    NULL, NULL, /* scan_exclusive_i64, copy_2d: the core's portable paths */
    NULL, NULL, /* range_push, range_pop: no tool ranges on the host */
    NULL, NULL, NULL, NULL, /* events: the core's host clock after a fence */
    NULL, NULL,             /* alloc_async, free_async: allocated and freed at once */
    NULL};                  /* event_wait: launches are complete when their call returns */
