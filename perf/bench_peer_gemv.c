/* strata bench — the dense GEMV peer of the h2 suite (bench_peer_gemv.h). */
#include "bench_peer_gemv.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "peer_kernels.h"

#if STRATA_HAVE_CUDA && BENCH_HAVE_CUBLAS
#include <cublas_v2.h>
#define GP_CUDA 1
#else
#define GP_CUDA 0
#endif
#if BENCH_HAVE_LAPACKE
#include <cblas.h>
#endif

STRATA_KERNEL_DECLARE(peer_kernel_matrix);

struct bench_gemv_peer {
  strata_exec_t *e;
  int host, threads;
  int64_t n;
  double *K, *pts; /* exec memory */
  const double *x;  /* exec memory, [n] */
  double *y;        /* exec memory, [n] */
  const char *err;  /* the last failure of a call */
#if GP_CUDA
  cublasHandle_t cb;
#endif
};

const char *bench_gemv_peer_error(const bench_gemv_peer_t *p) { return p && p->err ? p->err : "no peer"; }

const char *bench_gemv_peer_name(strata_backend_t b) {
  if (b == STRATA_BACKEND_SERIAL || b == STRATA_BACKEND_OPENMP) return BENCH_HAVE_LAPACKE ? "cblas_dgemv" : NULL;
  if (b == STRATA_BACKEND_CUDA) return GP_CUDA ? "cublas_dgemv" : NULL;
  return NULL;
}

int bench_gemv_peer_create(strata_exec_t *e, const strata_points_t *P, double length, const double *x, double *y,
                           bench_gemv_peer_t **out, char *err, size_t err_len) {
  *out = NULL;
  bench_gemv_peer_t *p = (bench_gemv_peer_t *)calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, err_len, "dense GEMV peer: no memory");
    return -1;
  }
  p->e = e;
  p->host = strata_exec_is_host(e);
  p->threads = strata_exec_concurrency(e);
  p->n = P->n;
  p->x = x;
  p->y = y;
  const size_t n = (size_t)P->n;
  int rc = 0;
  if (!bench_gemv_peer_name(strata_exec_backend(e))) rc = snprintf(err, err_len, "no dense GEMV peer for this backend in this build");
  else if (P->n > INT_MAX) rc = snprintf(err, err_len, "dense GEMV peer: n above 2^31 - 1 (BLAS's int)");
  else if (strata_mem_alloc(e, STRATA_MEM_DEVICE, n * n * sizeof(double), (void **)&p->K) ||
           strata_mem_alloc(e, STRATA_MEM_DEVICE, n * (size_t)P->dim * sizeof(double), (void **)&p->pts) ||
           strata_mem_copy(e, p->pts, P->coords, n * (size_t)P->dim * sizeof(double)))
    rc = snprintf(err, err_len, "dense GEMV peer: %s", strata_error_message());
  else {
    peer_kernel_matrix_args_t a = {P->n, P->dim, 1.0 / length, p->pts, p->K};
    if (strata_parallel_for(e, "bench_gemv_peer_matrix", strata_range(0, P->n * P->n), &peer_kernel_matrix, &a) ||
        strata_exec_fence(e))
      rc = snprintf(err, err_len, "dense GEMV peer: forming K: %s", strata_error_message());
  }
#if GP_CUDA
  if (!rc && !p->host &&
      (cublasCreate(&p->cb) != CUBLAS_STATUS_SUCCESS ||
       cublasSetStream(p->cb, (cudaStream_t)strata_exec_native_stream(e)) != CUBLAS_STATUS_SUCCESS))
    rc = snprintf(err, err_len, "dense GEMV peer: the cuBLAS handle could not be made");
#endif
  if (rc) {
    bench_gemv_peer_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_gemv_peer_apply(void *peer, int64_t call) {
  bench_gemv_peer_t *p = (bench_gemv_peer_t *)peer;
  const double *x = p->x;
  double *y = p->y;
  const double one = 1.0, zero = 0.0;
  (void)call;
  const int n = (int)p->n;
  (void)one, (void)zero, (void)n, (void)x, (void)y;
  if (!p->host) {
#if GP_CUDA /* row-major K is column-major Kᵀ: y = (Kᵀ)ᵀ x */
    if (cublasDgemv(p->cb, CUBLAS_OP_T, n, n, &one, p->K, n, x, 1, &zero, y, 1) == CUBLAS_STATUS_SUCCESS) return 0;
    p->err = "cublasDgemv failed";
    return -1;
#else
    p->err = "no dense GEMV peer in this build";
    return -1;
#endif
  }
#if BENCH_HAVE_LAPACKE
  const int t = p->threads > 0 ? p->threads : 1;
#pragma omp parallel for schedule(static) num_threads(t)
  for (int q = 0; q < t; ++q) {
    const int r0 = (int)((int64_t)n * q / t), r1 = (int)((int64_t)n * (q + 1) / t);
    if (r1 > r0) cblas_dgemv(CblasRowMajor, CblasNoTrans, r1 - r0, n, one, p->K + (int64_t)r0 * n, n, x, 1, zero, y + r0, 1);
  }
  return 0;
#else
  p->err = "no dense GEMV peer in this build";
  return -1;
#endif
}

void bench_gemv_peer_destroy(bench_gemv_peer_t **pp) {
  bench_gemv_peer_t *p = *pp;
  if (!p) return;
#if GP_CUDA
  if (p->cb) cublasDestroy(p->cb);
#endif
  strata_exec_fence(p->e);
  strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->K);
  strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->pts);
  free(p);
  *pp = NULL;
}
