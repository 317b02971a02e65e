/* strata bench — the cuSPARSE peers of the solve suite (bench_peer_sptrsv.h): cusparseSpSV on the
 * ILU(0) factors strata computed (the same device arrays; 32-bit row offsets built once, as
 * cuSPARSE's CSR wants them) and cusparseDcsrilu02 on A's values. Both on the exec's stream.
 * Stubs in builds without CUDA. */
#include "bench_peer_sptrsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#include <cusparse.h>

int bench_sptrsv_peer(strata_backend_t b) { return b == STRATA_BACKEND_CUDA; }

/* 32-bit row offsets of A in exec memory (cuSPARSE's CSR), or NULL after the message */
static int32_t *offsets32(const strata_crs_matrix_t *A, char *err, size_t err_len) {
  const int32_t n = A->num_rows;
  if (A->nnz > INT32_MAX) {
    snprintf(err, err_len, "cusparse: %lld entries exceed the 32-bit offsets", (long long)A->nnz);
    return NULL;
  }
  int64_t *off = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  int32_t *h = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t)), *d = NULL;
  if (off && h && !strata_mem_copy(A->exec, off, A->row_offsets, ((size_t)n + 1) * sizeof(int64_t))) {
    for (int32_t i = 0; i <= n; ++i) h[i] = (int32_t)off[i];
    if (strata_mem_alloc(A->exec, STRATA_MEM_DEVICE, ((size_t)n + 1) * sizeof(int32_t), (void **)&d) ||
        strata_mem_copy(A->exec, d, h, ((size_t)n + 1) * sizeof(int32_t))) {
      strata_mem_free(A->exec, STRATA_MEM_DEVICE, (void **)&d);
      d = NULL;
    }
  }
  if (!d) snprintf(err, err_len, "cusparse: the 32-bit row offsets: %s", strata_error_message());
  free(off), free(h);
  return d;
}

struct bench_spsv {
  strata_exec_t *e;
  cusparseHandle_t h;
  int32_t *off;
  cusparseSpMatDescr_t mat[2]; /* L (lower, unit), U (upper, non-unit) */
  cusparseDnVecDescr_t r, tmp, z;
  cusparseSpSVDescr_t sv[2];
  void *buf[2];
};

int bench_spsv_create(const strata_crs_matrix_t *LU, void *stream, const double *r, double *tmp, double *z,
                      bench_spsv_t **out, char *err, size_t err_len) {
  *out = NULL;
  bench_spsv_t *p = (bench_spsv_t *)calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, err_len, "cusparse: out of host memory");
    return -1;
  }
  p->e = LU->exec;
  const int64_t n = LU->num_rows;
  const double one = 1.0;
  cusparseStatus_t cs = cusparseCreate(&p->h);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetStream(p->h, (cudaStream_t)stream);
  if (cs == CUSPARSE_STATUS_SUCCESS && !(p->off = offsets32(LU, err, err_len))) {
    bench_spsv_destroy(&p);
    return -1;
  }
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateDnVec(&p->r, n, (void *)r, CUDA_R_64F);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateDnVec(&p->tmp, n, tmp, CUDA_R_64F);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateDnVec(&p->z, n, z, CUDA_R_64F);
  for (int t = 0; t < 2 && cs == CUSPARSE_STATUS_SUCCESS; ++t) {
    cusparseFillMode_t fill = t ? CUSPARSE_FILL_MODE_UPPER : CUSPARSE_FILL_MODE_LOWER;
    cusparseDiagType_t diag = t ? CUSPARSE_DIAG_TYPE_NON_UNIT : CUSPARSE_DIAG_TYPE_UNIT;
    cs = cusparseCreateCsr(&p->mat[t], n, n, LU->nnz, p->off, LU->col_indices, LU->values, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSpMatSetAttribute(p->mat[t], CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSpMatSetAttribute(p->mat[t], CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSpSV_createDescr(&p->sv[t]);
    size_t bytes = 0;
    cusparseDnVecDescr_t in = t ? p->tmp : p->r, outv = t ? p->z : p->tmp;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpSV_bufferSize(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[t], in, outv, CUDA_R_64F,
                                   CUSPARSE_SPSV_ALG_DEFAULT, p->sv[t], &bytes);
    if (cs == CUSPARSE_STATUS_SUCCESS && strata_mem_alloc(p->e, STRATA_MEM_DEVICE, bytes ? bytes : 1, &p->buf[t]))
      cs = CUSPARSE_STATUS_ALLOC_FAILED;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpSV_analysis(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[t], in, outv, CUDA_R_64F,
                                 CUSPARSE_SPSV_ALG_DEFAULT, p->sv[t], p->buf[t]);
  }
  if (cs != CUSPARSE_STATUS_SUCCESS) {
    snprintf(err, err_len, "cusparseSpSV setup: %s", cusparseGetErrorString(cs));
    bench_spsv_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_spsv_apply(void *v, int64_t call) {
  (void)call;
  bench_spsv_t *p = (bench_spsv_t *)v;
  const double one = 1.0;
  cusparseStatus_t cs = cusparseSpSV_solve(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[0], p->r, p->tmp,
                                           CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, p->sv[0]);
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpSV_solve(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[1], p->tmp, p->z, CUDA_R_64F,
                            CUSPARSE_SPSV_ALG_DEFAULT, p->sv[1]);
  return cs == CUSPARSE_STATUS_SUCCESS ? 0 : -1;
}

void bench_spsv_destroy(bench_spsv_t **pp) {
  bench_spsv_t *p = *pp;
  if (!p) return;
  if (p->h) cudaDeviceSynchronize(); /* no analysis or solve in flight on the buffers freed below */
  for (int t = 0; t < 2; ++t) {
    if (p->sv[t]) cusparseSpSV_destroyDescr(p->sv[t]);
    if (p->mat[t]) cusparseDestroySpMat(p->mat[t]);
    strata_mem_free(p->e, STRATA_MEM_DEVICE, &p->buf[t]);
  }
  if (p->r) cusparseDestroyDnVec(p->r);
  if (p->tmp) cusparseDestroyDnVec(p->tmp);
  if (p->z) cusparseDestroyDnVec(p->z);
  strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->off);
  if (p->h) cusparseDestroy(p->h);
  free(p);
  *pp = NULL;
}

int bench_spsv_analysis(void *args, int64_t call) {
  (void)call;
  const bench_spsv_args_t *a = (const bench_spsv_args_t *)args;
  bench_spsv_t *p = NULL;
  char err[200];
  if (bench_spsv_create(a->LU, a->stream, a->r, a->tmp, a->z, &p, err, sizeof err)) return -1;
  bench_spsv_destroy(&p);
  return 0;
}

struct bench_csrilu02 {
  const strata_crs_matrix_t *A;
  cusparseHandle_t h;
  cusparseMatDescr_t descr;
  csrilu02Info_t info;
  int32_t *off;
  double *vals;
  void *buf;
  cudaStream_t stream;
};

int bench_csrilu02_create(const strata_crs_matrix_t *A, void *stream, double *vals, bench_csrilu02_t **out, char *err,
                          size_t err_len) {
  *out = NULL;
  bench_csrilu02_t *p = (bench_csrilu02_t *)calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, err_len, "cusparse: out of host memory");
    return -1;
  }
  p->A = A, p->vals = vals, p->stream = (cudaStream_t)stream;
  const int n = A->num_rows, nnz = (int)A->nnz;
  cusparseStatus_t cs = cusparseCreate(&p->h);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetStream(p->h, p->stream);
  if (cs == CUSPARSE_STATUS_SUCCESS && !(p->off = offsets32(A, err, err_len))) {
    bench_csrilu02_destroy(&p);
    return -1;
  }
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateMatDescr(&p->descr);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetMatIndexBase(p->descr, CUSPARSE_INDEX_BASE_ZERO);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSetMatType(p->descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateCsrilu02Info(&p->info);
  int bytes = 0;
  if (cs == CUSPARSE_STATUS_SUCCESS &&
      cudaMemcpyAsync(vals, A->values, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToDevice, p->stream) != cudaSuccess)
    cs = CUSPARSE_STATUS_EXECUTION_FAILED;
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseDcsrilu02_bufferSize(p->h, n, nnz, p->descr, vals, p->off, A->col_indices, p->info, &bytes);
  if (cs == CUSPARSE_STATUS_SUCCESS && strata_mem_alloc(A->exec, STRATA_MEM_DEVICE, bytes > 0 ? (size_t)bytes : 1, &p->buf))
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseDcsrilu02_analysis(p->h, n, nnz, p->descr, vals, p->off, A->col_indices, p->info,
                                    CUSPARSE_SOLVE_POLICY_USE_LEVEL, p->buf);
  if (cs != CUSPARSE_STATUS_SUCCESS) {
    snprintf(err, err_len, "cusparseDcsrilu02 setup: %s", cusparseGetErrorString(cs));
    bench_csrilu02_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_csrilu02_factor(void *v, int64_t call) {
  (void)call;
  bench_csrilu02_t *p = (bench_csrilu02_t *)v;
  const int n = p->A->num_rows, nnz = (int)p->A->nnz;
  if (cudaMemcpyAsync(p->vals, p->A->values, (size_t)nnz * sizeof(double), cudaMemcpyDeviceToDevice, p->stream) != cudaSuccess)
    return -1;
  cusparseStatus_t cs = cusparseDcsrilu02(p->h, n, nnz, p->descr, p->vals, p->off, p->A->col_indices, p->info,
                                          CUSPARSE_SOLVE_POLICY_USE_LEVEL, p->buf);
  if (cs != CUSPARSE_STATUS_SUCCESS) return -1;
  if (call == 0) { /* the checked call: a zero pivot is a failure (it synchronizes; the timed calls do not ask) */
    int pos = -1;
    if (cusparseXcsrilu02_zeroPivot(p->h, p->info, &pos) == CUSPARSE_STATUS_ZERO_PIVOT) return -1;
  }
  return 0;
}

void bench_csrilu02_destroy(bench_csrilu02_t **pp) {
  bench_csrilu02_t *p = *pp;
  if (!p) return;
  if (p->h) cudaStreamSynchronize(p->stream);
  if (p->info) cusparseDestroyCsrilu02Info(p->info);
  if (p->descr) cusparseDestroyMatDescr(p->descr);
  strata_mem_free(p->A->exec, STRATA_MEM_DEVICE, &p->buf);
  strata_mem_free(p->A->exec, STRATA_MEM_DEVICE, (void **)&p->off);
  if (p->h) cusparseDestroy(p->h);
  free(p);
  *pp = NULL;
}

#else /* no CUDA: no peer */

static int none(char *err, size_t err_len) {
  if (err) snprintf(err, err_len, "no cuSPARSE in this build (CUDA builds only)");
  return -1;
}
int bench_sptrsv_peer(strata_backend_t b) {
  (void)b;
  return 0;
}
int bench_spsv_create(const strata_crs_matrix_t *LU, void *stream, const double *r, double *tmp, double *z,
                      bench_spsv_t **p, char *err, size_t err_len) {
  (void)LU, (void)stream, (void)r, (void)tmp, (void)z;
  *p = NULL;
  return none(err, err_len);
}
int bench_spsv_apply(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
void bench_spsv_destroy(bench_spsv_t **p) { *p = NULL; }
int bench_spsv_analysis(void *args, int64_t call) {
  (void)args, (void)call;
  return -1;
}
int bench_csrilu02_create(const strata_crs_matrix_t *A, void *stream, double *vals, bench_csrilu02_t **p, char *err,
                          size_t err_len) {
  (void)A, (void)stream, (void)vals;
  *p = NULL;
  return none(err, err_len);
}
int bench_csrilu02_factor(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
void bench_csrilu02_destroy(bench_csrilu02_t **p) { *p = NULL; }

#endif
