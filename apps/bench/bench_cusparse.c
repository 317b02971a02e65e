/* strata bench — the cuSPARSE peer (CUDA builds only; stubs elsewhere): cusparseSpMV with CSR
 * ALG1, CSR ALG2 and COO, after cusparseSpMV_preprocess, on the same device arrays as strata. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

static const char *const names[3] = {"cusparse_csr_alg1", "cusparse_csr_alg2", "cusparse_coo"};
const char *bench_cusparse_name(int alg) { return alg >= 0 && alg < 3 ? names[alg] : "?"; }

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#include <cusparse.h>

struct bench_cusparse {
  cusparseHandle_t h;
  int copies;
  cusparseSpMVAlg_t alg;
  cusparseSpMatDescr_t *mat;
  cusparseDnVecDescr_t *vx, *vy;
  void **buf;
  int32_t **idx32; /* per copy: 32-bit row offsets (CSR) or row indices (COO) */
};

int bench_cusparse_available(void) { return 1; }

int bench_cusparse_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                          void *stream, bench_cusparse_t **out, char *err, size_t err_len) {
  bench_cusparse_t *p = (bench_cusparse_t *)calloc(1, sizeof *p);
  *out = NULL;
  p->copies = copies;
  p->alg = alg == BENCH_CUSPARSE_ALG1 ? CUSPARSE_SPMV_CSR_ALG1 : alg == BENCH_CUSPARSE_ALG2 ? CUSPARSE_SPMV_CSR_ALG2
                                                                                           : CUSPARSE_SPMV_COO_ALG1;
  p->mat = (cusparseSpMatDescr_t *)calloc((size_t)copies, sizeof *p->mat);
  p->vx = (cusparseDnVecDescr_t *)calloc((size_t)copies, sizeof *p->vx);
  p->vy = (cusparseDnVecDescr_t *)calloc((size_t)copies, sizeof *p->vy);
  p->buf = (void **)calloc((size_t)copies, sizeof *p->buf);
  p->idx32 = (int32_t **)calloc((size_t)copies, sizeof *p->idx32);
  if (cusparseCreate(&p->h) != CUSPARSE_STATUS_SUCCESS) {
    snprintf(err, err_len, "cusparseCreate failed");
    free(p);
    return -1;
  }
  /* the exec's stream: strata's events bracket cuSPARSE's work as they bracket strata's */
  if (cusparseSetStream(p->h, (cudaStream_t)stream) != CUSPARSE_STATUS_SUCCESS) {
    snprintf(err, err_len, "cusparseSetStream failed");
    bench_cusparse_destroy(&p);
    return -1;
  }
  const int64_t n = A[0]->num_rows, nnz = A[0]->nnz;
  if (nnz > INT32_MAX) {
    snprintf(err, err_len, "%lld entries exceed cuSPARSE's 32-bit index", (long long)nnz);
    bench_cusparse_destroy(&p);
    return -1;
  }
  /* 32-bit offsets / row indices, built on the host from copy 0's offsets (all copies are equal) */
  int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  cudaMemcpy(off, A[0]->row_offsets, (size_t)(n + 1) * sizeof(int64_t), cudaMemcpyDeviceToHost);
  const size_t len = alg == BENCH_CUSPARSE_COO ? (size_t)nnz : (size_t)n + 1;
  int32_t *h32 = (int32_t *)malloc((len ? len : 1) * sizeof(int32_t));
  if (alg == BENCH_CUSPARSE_COO)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t k = off[r]; k < off[r + 1]; ++k) h32[k] = (int32_t)r;
  else
    for (int64_t r = 0; r <= n; ++r) h32[r] = (int32_t)off[r];
  free(off);
  const double one = 1.0, zero = 0.0;
  int rc = 0;
  for (int c = 0; c < copies && !rc; ++c) {
    cudaMalloc((void **)&p->idx32[c], (len ? len : 1) * sizeof(int32_t));
    cudaMemcpy(p->idx32[c], h32, len * sizeof(int32_t), cudaMemcpyHostToDevice);
    cusparseStatus_t cs;
    if (alg == BENCH_CUSPARSE_COO)
      cs = cusparseCreateCoo(&p->mat[c], n, A[c]->num_cols, nnz, p->idx32[c], A[c]->col_indices, A[c]->values,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    else
      cs = cusparseCreateCsr(&p->mat[c], n, A[c]->num_cols, nnz, p->idx32[c], A[c]->col_indices, A[c]->values,
                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateDnVec(&p->vx[c], A[c]->num_cols, x[c], CUDA_R_64F);
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCreateDnVec(&p->vy[c], n, y[c], CUDA_R_64F);
    size_t bsz = 0;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpMV_bufferSize(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[c], p->vx[c], &zero, p->vy[c],
                                   CUDA_R_64F, p->alg, &bsz);
    if (cs == CUSPARSE_STATUS_SUCCESS) {
      cudaMalloc(&p->buf[c], bsz ? bsz : 1);
      cs = cusparseSpMV_preprocess(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[c], p->vx[c], &zero,
                                   p->vy[c], CUDA_R_64F, p->alg, p->buf[c]);
    }
    if (cs != CUSPARSE_STATUS_SUCCESS) {
      snprintf(err, err_len, "%s: %s", names[alg], cusparseGetErrorString(cs));
      rc = -1;
    }
  }
  free(h32);
  if (rc) {
    bench_cusparse_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_cusparse_apply(void *v, int64_t call) {
  bench_cusparse_t *p = (bench_cusparse_t *)v;
  const int c = (int)(call % p->copies);
  const double one = 1.0, zero = 0.0;
  cusparseStatus_t cs = cusparseSpMV(p->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, p->mat[c], p->vx[c], &zero,
                                     p->vy[c], CUDA_R_64F, p->alg, p->buf[c]);
  return cs == CUSPARSE_STATUS_SUCCESS ? 0 : (int)cs;
}

void bench_cusparse_destroy(bench_cusparse_t **pp) {
  bench_cusparse_t *p = *pp;
  if (!p) return;
  for (int c = 0; c < p->copies; ++c) {
    if (p->mat[c]) cusparseDestroySpMat(p->mat[c]);
    if (p->vx[c]) cusparseDestroyDnVec(p->vx[c]);
    if (p->vy[c]) cusparseDestroyDnVec(p->vy[c]);
    cudaFree(p->buf[c]);
    cudaFree(p->idx32[c]);
  }
  cusparseDestroy(p->h);
  free(p->mat);
  free(p->vx);
  free(p->vy);
  free(p->buf);
  free(p->idx32);
  free(p);
  *pp = NULL;
}

#else /* no CUDA: the peer is absent */
int bench_cusparse_available(void) { return 0; }
int bench_cusparse_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                          void *stream, bench_cusparse_t **out, char *err, size_t err_len) {
  (void)alg, (void)copies, (void)A, (void)x, (void)y, (void)stream;
  *out = NULL;
  snprintf(err, err_len, "cuSPARSE: not a CUDA build");
  return -1;
}
int bench_cusparse_apply(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
void bench_cusparse_destroy(bench_cusparse_t **p) { *p = NULL; }
#endif
