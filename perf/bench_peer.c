/* strata bench — the vendor SpMV peer (bench.h): cusparseSpMV in CUDA builds, hipsparseSpMV in HIP
 * builds that found hipSPARSE, stubs elsewhere. CSR ALG1, CSR ALG2 and COO (ALG1), after
 * SpMV_preprocess, on the same device arrays as strata, on the exec's stream. One body serves both
 * libraries through the thin name shim below (Ginkgo's common/cuda_hip idea); their generic SpMV
 * APIs match call for call. Index arrays are 32-bit, as both libraries' CSR SpMV want them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef BENCH_HAVE_HIPSPARSE
#define BENCH_HAVE_HIPSPARSE 0
#endif

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#include <cusparse.h>
#define VS_LIB "cusparse"
#define VS_BACKEND STRATA_BACKEND_CUDA
#define VS(x) cusparse##x
#define VS_C(x) CUSPARSE_##x
#define VS_R_64F CUDA_R_64F
#if CUSPARSE_VER_MAJOR > 12 || (CUSPARSE_VER_MAJOR == 12 && CUSPARSE_VER_MINOR >= 1)
#define VS_SELL 1 /* cusparseCreateSlicedEll, CUSPARSE_SPMV_SELL_ALG1: cuSPARSE 12.1 (CUDA 12.1) on */
#endif
typedef cudaStream_t vs_stream_t;
static const char *vs_status_string(cusparseStatus_t s) { return cusparseGetErrorString(s); }
#elif STRATA_HAVE_HIP && BENCH_HAVE_HIPSPARSE
#include <hipsparse/hipsparse.h>
#define VS_LIB "hipsparse"
#define VS_BACKEND STRATA_BACKEND_HIP
#define VS(x) hipsparse##x
#define VS_C(x) HIPSPARSE_##x
#define VS_R_64F HIP_R_64F
typedef hipStream_t vs_stream_t;
static const char *vs_status_string(hipsparseStatus_t s) { /* hipSPARSE 5.3 has no GetErrorString */
  static const char *const names[] = {"SUCCESS",        "NOT_INITIALIZED", "ALLOC_FAILED",     "INVALID_VALUE",
                                      "ARCH_MISMATCH",  "MAPPING_ERROR",   "EXECUTION_FAILED", "INTERNAL_ERROR",
                                      "MATRIX_TYPE_NOT_SUPPORTED", "ZERO_PIVOT", "NOT_SUPPORTED",
                                      "INSUFFICIENT_RESOURCES"};
  return (int)s >= 0 && (int)s < (int)(sizeof names / sizeof names[0]) ? names[s] : "unknown status";
}
#else
#define VS_LIB "none"
#endif

#ifndef VS_SELL
#define VS_SELL 0
#endif
static const char *const names[4] = {VS_LIB "_csr_alg1", VS_LIB "_csr_alg2", VS_LIB "_coo", VS_LIB "_sell"};
const char *bench_peer_name(int alg) { return alg >= 0 && alg < 3 + VS_SELL ? names[alg] : "?"; }

#ifdef VS_BACKEND
struct bench_peer {
  strata_exec_t *e;
  VS(Handle_t) h;
  int copies;
  VS(SpMVAlg_t) alg;
  VS(SpMatDescr_t) *mat;
  VS(DnVecDescr_t) *vx, *vy;
  void **buf;
  int32_t **idx32; /* per copy: 32-bit row offsets (CSR), row indices (COO) or slice offsets (SELL), exec memory */
  int32_t **sell_col; /* SELL, per copy: padded column indices (-1 in padding) */
  double **sell_val;  /* SELL, per copy: padded values */
};

int bench_peer_count(strata_backend_t b) { return b == VS_BACKEND ? 3 + VS_SELL : 0; }

#if VS_SELL
/* The sliced ELL arrays of copy 0 on the host (slices of `slice` rows, each padded to its longest
 * row, column-major inside a slice as cuSPARSE wants them; padding: column -1, value 0). */
static int sell_build(const strata_crs_matrix_t *A, int64_t slice, int32_t **soff, int32_t **scol, double **sval,
                      int64_t *stored, char *err, size_t err_len) {
  const int64_t n = A->num_rows, nnz = A->nnz, ns = (n + slice - 1) / slice;
  int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  int32_t *col = (int32_t *)malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
  double *val = (double *)malloc((size_t)(nnz ? nnz : 1) * sizeof(double));
  *soff = (int32_t *)malloc((size_t)(ns + 1) * sizeof(int32_t));
  *scol = NULL, *sval = NULL;
  strata_mem_copy(A->exec, off, A->row_offsets, (size_t)(n + 1) * sizeof(int64_t));
  strata_mem_copy(A->exec, col, A->col_indices, (size_t)nnz * sizeof(int32_t));
  strata_mem_copy(A->exec, val, A->values, (size_t)nnz * sizeof(double));
  int64_t total = 0;
  for (int64_t s = 0; s < ns; ++s) {
    int64_t w = 0;
    for (int64_t r = s * slice; r < n && r < (s + 1) * slice; ++r) w = off[r + 1] - off[r] > w ? off[r + 1] - off[r] : w;
    (*soff)[s] = (int32_t)(total < INT32_MAX ? total : INT32_MAX);
    total += w * slice;
  }
  *stored = total;
  int rc = 0;
  if (total > INT32_MAX) {
    snprintf(err, err_len, "sliced ELL would store %lld entries, beyond cuSPARSE's 32-bit slice offsets", (long long)total);
    rc = -1;
  } else {
    (*soff)[ns] = (int32_t)total;
    *scol = (int32_t *)malloc((size_t)(total ? total : 1) * sizeof(int32_t));
    *sval = (double *)malloc((size_t)(total ? total : 1) * sizeof(double));
    for (int64_t s = 0; s < ns; ++s) {
      const int64_t b = (*soff)[s], w = ((*soff)[s + 1] - b) / slice;
      for (int64_t i = 0; i < slice; ++i) {
        const int64_t r = s * slice + i, len = r < n ? off[r + 1] - off[r] : 0;
        for (int64_t j = 0; j < w; ++j) {
          (*scol)[b + j * slice + i] = j < len ? col[off[r] + j] : -1;
          (*sval)[b + j * slice + i] = j < len ? val[off[r] + j] : 0.0;
        }
      }
    }
  }
  free(off);
  free(col);
  free(val);
  return rc;
}
#endif

int bench_peer_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                      void *stream, bench_peer_t **out, char *err, size_t err_len) {
  *out = NULL;
  if (alg < 0 || alg >= 3 + VS_SELL) {
    snprintf(err, err_len, "peer algorithm %d (0..%d)", alg, 2 + VS_SELL);
    return -1;
  }
  const int64_t n = A[0]->num_rows, nnz = A[0]->nnz;
  if (nnz > INT32_MAX) {
    snprintf(err, err_len, "%lld entries exceed %s's 32-bit index", (long long)nnz, VS_LIB);
    return -1;
  }
  bench_peer_t *p = (bench_peer_t *)calloc(1, sizeof *p);
  p->e = A[0]->exec;
  p->copies = copies;
  p->alg = alg == BENCH_PEER_CSR_ALG1 ? VS_C(SPMV_CSR_ALG1) : alg == BENCH_PEER_CSR_ALG2 ? VS_C(SPMV_CSR_ALG2)
                                                                                       : VS_C(SPMV_COO_ALG1);
#if VS_SELL
  if (alg == BENCH_PEER_SELL) p->alg = CUSPARSE_SPMV_SELL_ALG1;
#endif
  p->sell_col = (int32_t **)calloc((size_t)copies, sizeof *p->sell_col);
  p->sell_val = (double **)calloc((size_t)copies, sizeof *p->sell_val);
  p->mat = (VS(SpMatDescr_t) *)calloc((size_t)copies, sizeof *p->mat);
  p->vx = (VS(DnVecDescr_t) *)calloc((size_t)copies, sizeof *p->vx);
  p->vy = (VS(DnVecDescr_t) *)calloc((size_t)copies, sizeof *p->vy);
  p->buf = (void **)calloc((size_t)copies, sizeof *p->buf);
  p->idx32 = (int32_t **)calloc((size_t)copies, sizeof *p->idx32);
  if (VS(Create)(&p->h) != VS_C(STATUS_SUCCESS)) {
    snprintf(err, err_len, "%sCreate failed", VS_LIB);
    p->h = NULL;
    bench_peer_destroy(&p);
    return -1;
  }
  /* the exec's stream: strata's events bracket the library's work as they bracket strata's */
  if (VS(SetStream)(p->h, (vs_stream_t)stream) != VS_C(STATUS_SUCCESS)) {
    snprintf(err, err_len, "%sSetStream failed", VS_LIB);
    bench_peer_destroy(&p);
    return -1;
  }
  /* 32-bit offsets / row indices (SELL: slice offsets and the padded arrays), built on the host
   * from copy 0 (all copies are equal) */
  size_t len = alg == BENCH_PEER_COO ? (size_t)nnz : (size_t)n + 1;
  int32_t *h32 = NULL, *hcol = NULL;
  double *hval = NULL;
  int64_t stored = 0;
  const int64_t slice = 32;
  (void)hcol, (void)hval, (void)stored, (void)slice;
#if VS_SELL
  if (alg == BENCH_PEER_SELL) {
    if (sell_build(A[0], slice, &h32, &hcol, &hval, &stored, err, err_len)) {
      free(h32);
      bench_peer_destroy(&p);
      return -1;
    }
    len = (size_t)((n + slice - 1) / slice + 1);
  } else
#endif
  {
    int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    strata_mem_copy(p->e, off, A[0]->row_offsets, (size_t)(n + 1) * sizeof(int64_t));
    h32 = (int32_t *)malloc((len ? len : 1) * sizeof(int32_t));
    if (alg == BENCH_PEER_COO)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t k = off[r]; k < off[r + 1]; ++k) h32[k] = (int32_t)r;
    else
      for (int64_t r = 0; r <= n; ++r) h32[r] = (int32_t)off[r];
    free(off);
  }
  const double one = 1.0, zero = 0.0;
  int rc = 0;
  for (int c = 0; c < copies && !rc; ++c) {
    VS(Status_t) cs = VS_C(STATUS_ALLOC_FAILED);
    size_t bsz = 0;
    const int uploaded = !strata_mem_alloc(p->e, STRATA_MEM_DEVICE, (len ? len : 1) * sizeof(int32_t), (void **)&p->idx32[c]) &&
                         !strata_mem_copy(p->e, p->idx32[c], h32, len * sizeof(int32_t));
    if (!uploaded)
      snprintf(err, err_len, "%s: %s", names[alg], strata_error_message());
#if VS_SELL
    else if (alg == BENCH_PEER_SELL) {
      const size_t sb = (size_t)(stored ? stored : 1);
      if (strata_mem_alloc(p->e, STRATA_MEM_DEVICE, sb * sizeof(int32_t), (void **)&p->sell_col[c]) ||
          strata_mem_alloc(p->e, STRATA_MEM_DEVICE, sb * sizeof(double), (void **)&p->sell_val[c]) ||
          strata_mem_copy(p->e, p->sell_col[c], hcol, (size_t)stored * sizeof(int32_t)) ||
          strata_mem_copy(p->e, p->sell_val[c], hval, (size_t)stored * sizeof(double)))
        snprintf(err, err_len, "%s: %s", names[alg], strata_error_message());
      else
        cs = cusparseCreateSlicedEll(&p->mat[c], n, A[c]->num_cols, nnz, stored, slice, p->idx32[c], p->sell_col[c],
                                     p->sell_val[c], CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                     CUDA_R_64F);
    }
#endif
    else if (alg == BENCH_PEER_COO)
      cs = VS(CreateCoo)(&p->mat[c], n, A[c]->num_cols, nnz, p->idx32[c], A[c]->col_indices, A[c]->values,
                         VS_C(INDEX_32I), VS_C(INDEX_BASE_ZERO), VS_R_64F);
    else
      cs = VS(CreateCsr)(&p->mat[c], n, A[c]->num_cols, nnz, p->idx32[c], A[c]->col_indices, A[c]->values,
                         VS_C(INDEX_32I), VS_C(INDEX_32I), VS_C(INDEX_BASE_ZERO), VS_R_64F);
    if (cs == VS_C(STATUS_SUCCESS)) cs = VS(CreateDnVec)(&p->vx[c], A[c]->num_cols, x[c], VS_R_64F);
    if (cs == VS_C(STATUS_SUCCESS)) cs = VS(CreateDnVec)(&p->vy[c], n, y[c], VS_R_64F);
    if (cs == VS_C(STATUS_SUCCESS))
      cs = VS(SpMV_bufferSize)(p->h, VS_C(OPERATION_NON_TRANSPOSE), &one, p->mat[c], p->vx[c], &zero, p->vy[c],
                               VS_R_64F, p->alg, &bsz);
    if (cs == VS_C(STATUS_SUCCESS))
      cs = strata_mem_alloc(p->e, STRATA_MEM_DEVICE, bsz ? bsz : 1, &p->buf[c]) ? VS_C(STATUS_ALLOC_FAILED)
           : VS(SpMV_preprocess)(p->h, VS_C(OPERATION_NON_TRANSPOSE), &one, p->mat[c], p->vx[c], &zero, p->vy[c],
                                 VS_R_64F, p->alg, p->buf[c]);
    if (cs != VS_C(STATUS_SUCCESS)) {
      if (uploaded) snprintf(err, err_len, "%s: %s", names[alg], vs_status_string(cs));
      rc = -1;
    }
  }
  free(h32);
  free(hcol);
  free(hval);
  if (rc) {
    bench_peer_destroy(&p);
    return -1;
  }
  *out = p;
  return 0;
}

int bench_peer_apply(void *v, int64_t call) {
  bench_peer_t *p = (bench_peer_t *)v;
  const int c = (int)(call % p->copies);
  const double one = 1.0, zero = 0.0;
  VS(Status_t) cs = VS(SpMV)(p->h, VS_C(OPERATION_NON_TRANSPOSE), &one, p->mat[c], p->vx[c], &zero, p->vy[c],
                             VS_R_64F, p->alg, p->buf[c]);
  return cs == VS_C(STATUS_SUCCESS) ? 0 : (int)cs;
}

void bench_peer_destroy(bench_peer_t **pp) {
  bench_peer_t *p = *pp;
  if (!p) return;
  for (int c = 0; c < p->copies; ++c) {
    if (p->mat[c]) VS(DestroySpMat)(p->mat[c]);
    if (p->vx[c]) VS(DestroyDnVec)(p->vx[c]);
    if (p->vy[c]) VS(DestroyDnVec)(p->vy[c]);
    strata_mem_free(p->e, STRATA_MEM_DEVICE, &p->buf[c]);
    strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->idx32[c]);
    strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->sell_col[c]);
    strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->sell_val[c]);
  }
  if (p->h) VS(Destroy)(p->h);
  free(p->mat);
  free(p->vx);
  free(p->vy);
  free(p->buf);
  free(p->idx32);
  free(p->sell_col);
  free(p->sell_val);
  free(p);
  *pp = NULL;
}

#else /* no vendor library in this build: the peer is absent */
int bench_peer_count(strata_backend_t b) {
  (void)b;
  return 0;
}
int bench_peer_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                      void *stream, bench_peer_t **out, char *err, size_t err_len) {
  (void)alg, (void)copies, (void)A, (void)x, (void)y, (void)stream;
  *out = NULL;
  snprintf(err, err_len, "no vendor SpMV peer in this build (cuSPARSE: CUDA builds; hipSPARSE: HIP builds with "
           "libhipsparse-dev)");
  return -1;
}
int bench_peer_apply(void *p, int64_t call) {
  (void)p, (void)call;
  return -1;
}
void bench_peer_destroy(bench_peer_t **p) { *p = NULL; }
#endif
