/* strata bench — the cuSPARSE SpGEMM peer of the spgemm suite (bench_peer_spgemm.h): the generic
 * API for the whole product and the reuse API for the numeric phase, on the exec's stream, on the
 * same device arrays as strata (32-bit row offsets built once). Stubs in builds without CUDA. */
#include "bench_peer_spgemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#include <cusparse.h>

int bench_spgemm_peer(strata_backend_t b) { return b == STRATA_BACKEND_CUDA; }

struct bench_spgemm {
  cusparseHandle_t h;
  cudaStream_t s;
  int64_t m, k, n;
  int32_t *off[2];              /* A's and B's 32-bit row offsets (device) */
  cusparseSpMatDescr_t mat[2];  /* A, B */
  const strata_crs_matrix_t *in[2];
  /* the reuse plan and its C */
  cusparseSpGEMMDescr_t rd;
  cusparseSpMatDescr_t rc;
  void *rbuf[5];
  int32_t *c_off, *c_col;
  double *c_val;
  int64_t c_nnz;
};

#define SG_OPS CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE
#define SG_ALG CUSPARSE_SPGEMM_DEFAULT

/* the descriptor of M with 32-bit offsets (narrowed on the host once) */
static int describe(bench_spgemm_t *p, int w, const strata_crs_matrix_t *M, char *err, size_t err_len) {
  if (M->nnz > INT32_MAX) {
    snprintf(err, err_len, "cusparse spgemm: %lld entries exceed its 32-bit indices", (long long)M->nnz);
    return -1;
  }
  const size_t rows = (size_t)M->num_rows + 1;
  int64_t *wide = (int64_t *)malloc(rows * sizeof *wide);
  int32_t *narrow = (int32_t *)malloc(rows * sizeof *narrow);
  int ok = wide && narrow && strata_mem_copy(M->exec, wide, M->row_offsets, rows * sizeof *wide) == STRATA_SUCCESS;
  for (size_t r = 0; ok && r < rows; ++r) narrow[r] = (int32_t)wide[r];
  ok = ok && cudaMalloc((void **)&p->off[w], rows * sizeof(int32_t)) == cudaSuccess &&
       cudaMemcpy(p->off[w], narrow, rows * sizeof(int32_t), cudaMemcpyHostToDevice) == cudaSuccess;
  free(wide), free(narrow);
  if (ok)
    ok = cusparseCreateCsr(&p->mat[w], M->num_rows, M->num_cols, M->nnz, p->off[w], M->col_indices, M->values,
                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                           CUDA_R_64F) == CUSPARSE_STATUS_SUCCESS;
  if (!ok) snprintf(err, err_len, "cusparse spgemm: the descriptor of %s failed", w ? "B" : "A");
  return ok ? 0 : -1;
}

/* buffer q of the reuse plan: size asked, then allocated */
static int rbuf(bench_spgemm_t *p, int q, size_t bytes) {
  return cudaMalloc(&p->rbuf[q], bytes ? bytes : 1) == cudaSuccess ? 0 : -1;
}

int bench_spgemm_create(const strata_crs_matrix_t *A, const strata_crs_matrix_t *B, void *stream, bench_spgemm_t **out,
                        char *err, size_t err_len) {
  *out = NULL;
  bench_spgemm_t *p = (bench_spgemm_t *)calloc(1, sizeof *p);
  if (!p) {
    snprintf(err, err_len, "cusparse spgemm: out of host memory");
    return -1;
  }
  p->s = (cudaStream_t)stream;
  p->m = A->num_rows, p->k = A->num_cols, p->n = B->num_cols;
  p->in[0] = A, p->in[1] = B;
  int ok = cusparseCreate(&p->h) == CUSPARSE_STATUS_SUCCESS && cusparseSetStream(p->h, p->s) == CUSPARSE_STATUS_SUCCESS;
  if (ok) ok = describe(p, 0, A, err, err_len) == 0 && describe(p, 1, B, err, err_len) == 0;
  else snprintf(err, err_len, "cusparse spgemm: cusparseCreate failed");
  size_t b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0;
  cusparseStatus_t cs = CUSPARSE_STATUS_SUCCESS;
  if (ok) {
    cs = cusparseSpGEMM_createDescr(&p->rd);
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseCreateCsr(&p->rc, p->m, p->n, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_workEstimation(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b1, NULL);
    if (cs == CUSPARSE_STATUS_SUCCESS && rbuf(p, 0, b1)) cs = CUSPARSE_STATUS_ALLOC_FAILED;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_workEstimation(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b1, p->rbuf[0]);
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_nnz(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b2, NULL, &b3, NULL, &b4,
                                   NULL);
    if (cs == CUSPARSE_STATUS_SUCCESS && (rbuf(p, 1, b2) || rbuf(p, 2, b3) || rbuf(p, 3, b4)))
      cs = CUSPARSE_STATUS_ALLOC_FAILED;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_nnz(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b2, p->rbuf[1], &b3,
                                   p->rbuf[2], &b4, p->rbuf[3]);
    int64_t r = 0, c = 0;
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSpMatGetSize(p->rc, &r, &c, &p->c_nnz);
    if (cs == CUSPARSE_STATUS_SUCCESS &&
        (cudaMalloc((void **)&p->c_off, ((size_t)p->m + 1) * sizeof(int32_t)) != cudaSuccess ||
         cudaMalloc((void **)&p->c_col, ((size_t)p->c_nnz + 1) * sizeof(int32_t)) != cudaSuccess ||
         cudaMalloc((void **)&p->c_val, ((size_t)p->c_nnz + 1) * sizeof(double)) != cudaSuccess))
      cs = CUSPARSE_STATUS_ALLOC_FAILED;
    if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCsrSetPointers(p->rc, p->c_off, p->c_col, p->c_val);
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_copy(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b5, NULL);
    if (cs == CUSPARSE_STATUS_SUCCESS && rbuf(p, 4, b5)) cs = CUSPARSE_STATUS_ALLOC_FAILED;
    if (cs == CUSPARSE_STATUS_SUCCESS)
      cs = cusparseSpGEMMreuse_copy(p->h, SG_OPS, p->mat[0], p->mat[1], p->rc, SG_ALG, p->rd, &b5, p->rbuf[4]);
    if (cs != CUSPARSE_STATUS_SUCCESS) {
      snprintf(err, err_len, "cusparse spgemm reuse plan: %s", cusparseGetErrorString(cs));
      ok = 0;
    }
  }
  if (!ok) {
    bench_spgemm_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_spgemm_reuse(void *v, int64_t call) {
  (void)call;
  bench_spgemm_t *p = (bench_spgemm_t *)v;
  const double one = 1.0, zero = 0.0;
  return (int)cusparseSpGEMMreuse_compute(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, p->rc, CUDA_R_64F, SG_ALG,
                                          p->rd);
}

int bench_spgemm_full(void *v, int64_t call) {
  (void)call;
  bench_spgemm_t *p = (bench_spgemm_t *)v;
  const double one = 1.0, zero = 0.0;
  cusparseSpGEMMDescr_t d = NULL;
  cusparseSpMatDescr_t C = NULL;
  void *buf1 = NULL, *buf2 = NULL, *off = NULL, *col = NULL, *val = NULL;
  size_t b1 = 0, b2 = 0;
  int64_t r = 0, c = 0, nnz = 0;
  cusparseStatus_t cs = cusparseSpGEMM_createDescr(&d);
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseCreateCsr(&C, p->m, p->n, 0, NULL, NULL, NULL, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpGEMM_workEstimation(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, C, CUDA_R_64F, SG_ALG, d, &b1,
                                       NULL);
  if (cs == CUSPARSE_STATUS_SUCCESS && cudaMallocAsync(&buf1, b1 ? b1 : 1, p->s) != cudaSuccess)
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpGEMM_workEstimation(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, C, CUDA_R_64F, SG_ALG, d, &b1,
                                       buf1);
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpGEMM_compute(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, C, CUDA_R_64F, SG_ALG, d, &b2, NULL);
  if (cs == CUSPARSE_STATUS_SUCCESS && cudaMallocAsync(&buf2, b2 ? b2 : 1, p->s) != cudaSuccess)
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpGEMM_compute(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, C, CUDA_R_64F, SG_ALG, d, &b2, buf2);
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseSpMatGetSize(C, &r, &c, &nnz);
  if (cs == CUSPARSE_STATUS_SUCCESS && (cudaMallocAsync(&off, ((size_t)p->m + 1) * sizeof(int32_t), p->s) != cudaSuccess ||
                                        cudaMallocAsync(&col, ((size_t)nnz + 1) * sizeof(int32_t), p->s) != cudaSuccess ||
                                        cudaMallocAsync(&val, ((size_t)nnz + 1) * sizeof(double), p->s) != cudaSuccess))
    cs = CUSPARSE_STATUS_ALLOC_FAILED;
  if (cs == CUSPARSE_STATUS_SUCCESS) cs = cusparseCsrSetPointers(C, off, col, val);
  if (cs == CUSPARSE_STATUS_SUCCESS)
    cs = cusparseSpGEMM_copy(p->h, SG_OPS, &one, p->mat[0], p->mat[1], &zero, C, CUDA_R_64F, SG_ALG, d);
  void *bufs[5] = {buf1, buf2, off, col, val};
  for (int q = 0; q < 5; ++q)
    if (bufs[q]) cudaFreeAsync(bufs[q], p->s);
  if (C) cusparseDestroySpMat(C);
  if (d) cusparseSpGEMM_destroyDescr(d);
  return (int)cs;
}

int bench_spgemm_result(const bench_spgemm_t *p, int64_t **off, int32_t **col, double **val, int64_t *nnz, char *err,
                        size_t err_len) {
  *nnz = p->c_nnz;
  int32_t *o32 = (int32_t *)malloc(((size_t)p->m + 1) * sizeof(int32_t));
  *off = (int64_t *)malloc(((size_t)p->m + 1) * sizeof(int64_t));
  *col = (int32_t *)malloc(((size_t)p->c_nnz + 1) * sizeof(int32_t));
  *val = (double *)malloc(((size_t)p->c_nnz + 1) * sizeof(double));
  int ok = o32 && *off && *col && *val && cudaStreamSynchronize(p->s) == cudaSuccess &&
           cudaMemcpy(o32, p->c_off, ((size_t)p->m + 1) * sizeof(int32_t), cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(*col, p->c_col, (size_t)p->c_nnz * sizeof(int32_t), cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(*val, p->c_val, (size_t)p->c_nnz * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int64_t r = 0; ok && r <= p->m; ++r) (*off)[r] = o32[r];
  free(o32);
  if (!ok) {
    snprintf(err, err_len, "cusparse spgemm: copying C to the host failed");
    free(*off), free(*col), free(*val);
    *off = NULL, *col = NULL, *val = NULL;
    return -1;
  }
  return 0;
}

void bench_spgemm_destroy(bench_spgemm_t **pp) {
  if (!pp || !*pp) return;
  bench_spgemm_t *p = *pp;
  if (p->h) cudaStreamSynchronize(p->s);
  for (int w = 0; w < 2; ++w) {
    if (p->mat[w]) cusparseDestroySpMat(p->mat[w]);
    cudaFree(p->off[w]);
  }
  if (p->rc) cusparseDestroySpMat(p->rc);
  if (p->rd) cusparseSpGEMM_destroyDescr(p->rd);
  for (int q = 0; q < 5; ++q) cudaFree(p->rbuf[q]);
  cudaFree(p->c_off), cudaFree(p->c_col), cudaFree(p->c_val);
  if (p->h) cusparseDestroy(p->h);
  free(p);
  *pp = NULL;
}

#else /* no CUDA: no peer */

int bench_spgemm_peer(strata_backend_t b) {
  (void)b;
  return 0;
}
int bench_spgemm_create(const strata_crs_matrix_t *A, const strata_crs_matrix_t *B, void *stream, bench_spgemm_t **p,
                        char *err, size_t err_len) {
  (void)A, (void)B, (void)stream;
  *p = NULL;
  snprintf(err, err_len, "no cuSPARSE in this build");
  return -1;
}
int bench_spgemm_full(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
int bench_spgemm_reuse(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
int bench_spgemm_result(const bench_spgemm_t *p, int64_t **off, int32_t **col, double **val, int64_t *nnz, char *err,
                        size_t err_len) {
  (void)p;
  *off = NULL, *col = NULL, *val = NULL, *nnz = 0;
  snprintf(err, err_len, "no cuSPARSE in this build");
  return -1;
}
void bench_spgemm_destroy(bench_spgemm_t **p) {
  if (p) *p = NULL;
}

#endif
