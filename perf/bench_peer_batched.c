/* strata bench — the peers of the batched suite (bench_peer_batched.h): cuBLAS / cuSOLVER on CUDA
 * (BENCH_HAVE_CUBLAS), LAPACKE / CBLAS per block on host backends (BENCH_HAVE_LAPACKE). */
#include "bench_peer_batched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if STRATA_HAVE_CUDA && BENCH_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#define BP_CUDA 1
#else
#define BP_CUDA 0
#endif
#if BENCH_HAVE_LAPACKE
#include <cblas.h>
#include <lapacke.h>
#endif

struct bench_bpeer {
  strata_exec_t *e;
  int host, threads;
  char err[200];
#if BP_CUDA
  cublasHandle_t cb;
  cusolverDnHandle_t cs;
  cudaStream_t s;
  /* QR: the device arrays of block pointers, for (qa, qt, qm, qn, qcount) */
  double **aptr, **tptr;
  const double *qa, *qt;
  int qm, qn;
  int64_t qcount;
  /* SVD: gesvdj's parameters, workspace, info and full U, V, for (sm, sn, scount) */
  gesvdjInfo_t params;
  double *work, *su, *sv;
  int *info, lwork, sm, sn;
  int64_t scount;
#endif
};

static int fail(bench_bpeer_t *p, const char *what) {
  snprintf(p->err, sizeof p->err, "%s", what);
  return -1;
}

const char *bench_bpeer_error(const bench_bpeer_t *p) { return p ? p->err : "no peer"; }

const char *bench_bpeer_name(strata_backend_t b, int op, int m, int n) {
  if (b == STRATA_BACKEND_SERIAL || b == STRATA_BACKEND_OPENMP)
    return BENCH_HAVE_LAPACKE ? (op == 0 ? "cblas_dgemm" : op == 1 ? "lapacke_dgeqrf" : "lapacke_dgesvd") : NULL;
  if (b == STRATA_BACKEND_CUDA && BP_CUDA) {
    if (op == 0) return "cublas_gemm_strided";
    if (op == 1) return "cublas_geqrf_batched";
    return m <= 32 && n <= 32 ? "cusolver_gesvdj_batched" : NULL;
  }
  return NULL;
}

int bench_bpeer_create(strata_exec_t *e, bench_bpeer_t **out, char *err, size_t err_len) {
  *out = NULL;
  bench_bpeer_t *p = (bench_bpeer_t *)calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, err_len, "batched peer: no memory");
    return -1;
  }
  p->e = e;
  p->host = strata_exec_is_host(e);
  p->threads = strata_exec_concurrency(e);
#if BP_CUDA
  if (!p->host) {
    p->s = (cudaStream_t)strata_exec_native_stream(e);
    if (cublasCreate(&p->cb) != CUBLAS_STATUS_SUCCESS || cublasSetStream(p->cb, p->s) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&p->cs) != CUSOLVER_STATUS_SUCCESS || cusolverDnSetStream(p->cs, p->s) != CUSOLVER_STATUS_SUCCESS ||
        cusolverDnCreateGesvdjInfo(&p->params) != CUSOLVER_STATUS_SUCCESS) {
      snprintf(err, err_len, "batched peer: cuBLAS / cuSOLVER handles could not be made");
      bench_bpeer_destroy(&p);
      return -1;
    }
  }
#endif
  *out = p;
  return 0;
}

void bench_bpeer_destroy(bench_bpeer_t **pp) {
  bench_bpeer_t *p = *pp;
  if (!p) return;
#if BP_CUDA
  if (!p->host) {
    cudaStreamSynchronize(p->s);
    cudaFree(p->aptr), cudaFree(p->tptr), cudaFree(p->work), cudaFree(p->su), cudaFree(p->sv), cudaFree(p->info);
    if (p->params) cusolverDnDestroyGesvdjInfo(p->params);
    if (p->cs) cusolverDnDestroy(p->cs);
    if (p->cb) cublasDestroy(p->cb);
  }
#endif
  free(p);
  *pp = NULL;
}

int bench_bpeer_gemm(bench_bpeer_t *p, int m, int n, int k, const double *A, const double *B, double *C, int64_t count) {
  const double one = 1.0, zero = 0.0;
  (void)one, (void)zero, (void)A, (void)B, (void)C;
  if (!p->host) {
#if BP_CUDA
    if (count > INT32_MAX) return fail(p, "cublas: more than 2^31 blocks");
    return cublasDgemmStridedBatched(p->cb, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m, (long long)m * k, B, k,
                                     (long long)k * n, &zero, C, m, (long long)m * n, (int)count) == CUBLAS_STATUS_SUCCESS
               ? 0
               : fail(p, "cublasDgemmStridedBatched failed");
#endif
  }
#if BENCH_HAVE_LAPACKE
#pragma omp parallel for schedule(static) num_threads(p->threads)
  for (int64_t b = 0; b < count; ++b)
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, one, A + b * m * k, m, B + b * k * n, k, zero,
                C + b * m * n, m);
  return 0;
#else
  (void)m, (void)n, (void)k, (void)count;
  return fail(p, "no peer in this build");
#endif
}

int bench_bpeer_qr(bench_bpeer_t *p, int m, int n, double *A, double *tau, int64_t count) {
  const int r = m < n ? m : n;
  (void)r, (void)A, (void)tau;
  if (!p->host) {
#if BP_CUDA
    if (count > INT32_MAX) return fail(p, "cublas: more than 2^31 blocks");
    if (p->qa != A || p->qt != tau || p->qm != m || p->qn != n || p->qcount != count) {
      cudaStreamSynchronize(p->s);
      cudaFree(p->aptr), cudaFree(p->tptr);
      p->aptr = p->tptr = NULL;
      double **h = (double **)malloc(sizeof(double *) * 2 * (size_t)count);
      if (!h) return fail(p, "cublas geqrf: no host memory for the pointer arrays");
      for (int64_t b = 0; b < count; ++b) h[b] = A + b * m * n, h[count + b] = tau + b * r;
      int ok = cudaMalloc((void **)&p->aptr, sizeof(double *) * count) == cudaSuccess &&
               cudaMalloc((void **)&p->tptr, sizeof(double *) * count) == cudaSuccess &&
               cudaMemcpy(p->aptr, h, sizeof(double *) * count, cudaMemcpyHostToDevice) == cudaSuccess &&
               cudaMemcpy(p->tptr, h + count, sizeof(double *) * count, cudaMemcpyHostToDevice) == cudaSuccess;
      free(h);
      if (!ok) return fail(p, "cublas geqrf: the pointer arrays could not be made");
      p->qa = A, p->qt = tau, p->qm = m, p->qn = n, p->qcount = count;
    }
    int info = 0;
    if (cublasDgeqrfBatched(p->cb, m, n, p->aptr, m, p->tptr, &info, (int)count) != CUBLAS_STATUS_SUCCESS || info != 0)
      return fail(p, "cublasDgeqrfBatched failed");
    return 0;
#endif
  }
#if BENCH_HAVE_LAPACKE
  int bad = 0;
#pragma omp parallel for schedule(static) num_threads(p->threads) reduction(+ : bad)
  for (int64_t b = 0; b < count; ++b) bad += LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, A + b * m * n, m, tau + b * r) != 0;
  return bad ? fail(p, "LAPACKE_dgeqrf failed") : 0;
#else
  (void)m, (void)n, (void)count;
  return fail(p, "no peer in this build");
#endif
}

int bench_bpeer_svd(bench_bpeer_t *p, int m, int n, const double *A0, double *A, double *S, double *U, double *V,
                    int64_t count) {
  const int r = m < n ? m : n;
  (void)r, (void)A0, (void)A, (void)S, (void)U, (void)V;
  if (!p->host) {
#if BP_CUDA
    if (m > 32 || n > 32 || count > INT32_MAX) return fail(p, "cusolver gesvdjBatched: blocks up to 32 x 32");
    if (p->sm != m || p->sn != n || p->scount != count) {
      cudaStreamSynchronize(p->s);
      cudaFree(p->work), cudaFree(p->su), cudaFree(p->sv), cudaFree(p->info);
      p->work = p->su = p->sv = NULL;
      p->info = NULL;
      int ok = cudaMalloc((void **)&p->su, sizeof(double) * m * m * (size_t)count) == cudaSuccess &&
               cudaMalloc((void **)&p->sv, sizeof(double) * n * n * (size_t)count) == cudaSuccess &&
               cudaMalloc((void **)&p->info, sizeof(int) * (size_t)count) == cudaSuccess &&
               cusolverDnDgesvdjBatched_bufferSize(p->cs, CUSOLVER_EIG_MODE_VECTOR, m, n, A, m, S, p->su, m, p->sv, n,
                                                   &p->lwork, p->params, (int)count) == CUSOLVER_STATUS_SUCCESS &&
               cudaMalloc((void **)&p->work, sizeof(double) * (size_t)(p->lwork > 0 ? p->lwork : 1)) == cudaSuccess;
      if (!ok) return fail(p, "cusolver gesvdjBatched: workspace");
      p->sm = m, p->sn = n, p->scount = count;
    }
    /* gesvdj destroys A: a fresh copy each call (counted in its time) */
    if (cudaMemcpyAsync(A, A0, sizeof(double) * m * n * (size_t)count, cudaMemcpyDeviceToDevice, p->s) != cudaSuccess ||
        cusolverDnDgesvdjBatched(p->cs, CUSOLVER_EIG_MODE_VECTOR, m, n, A, m, S, p->su, m, p->sv, n, p->work, p->lwork,
                                 p->info, p->params, (int)count) != CUSOLVER_STATUS_SUCCESS)
      return fail(p, "cusolverDnDgesvdjBatched failed");
    return 0;
#endif
  }
#if BENCH_HAVE_LAPACKE
  int bad = 0;
#pragma omp parallel num_threads(p->threads) reduction(+ : bad)
  {
    double *vt = (double *)malloc(sizeof(double) * (size_t)r * n), *sup = (double *)malloc(sizeof(double) * (size_t)r);
#pragma omp for schedule(static)
    for (int64_t b = 0; b < count; ++b) {
      double *a = A + b * m * n;
      memcpy(a, A0 + b * m * n, sizeof(double) * (size_t)m * n); /* dgesvd destroys A */
      bad += !vt || !sup ||
             LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'S', 'S', m, n, a, m, S + b * r, U + b * m * r, m, vt, r, sup) != 0;
      for (int i = 0; vt && i < r; ++i) /* V = VTᵀ, n × r */
        for (int j = 0; j < n; ++j) V[b * n * r + j + (int64_t)i * n] = vt[i + (int64_t)j * r];
    }
    free(vt), free(sup);
  }
  return bad ? fail(p, "LAPACKE_dgesvd failed") : 0;
#else
  (void)m, (void)n, (void)count;
  return fail(p, "no peer in this build");
#endif
}
