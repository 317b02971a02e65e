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

static const char *const names[3] = {VS_LIB "_csr_alg1", VS_LIB "_csr_alg2", VS_LIB "_coo"};
const char *bench_peer_name(int alg) { return alg >= 0 && alg < 3 ? names[alg] : "?"; }

#ifdef VS_BACKEND
struct bench_peer {
  strata_exec_t *e;
  VS(Handle_t) h;
  int copies;
  VS(SpMVAlg_t) alg;
  VS(SpMatDescr_t) *mat;
  VS(DnVecDescr_t) *vx, *vy;
  void **buf;
  int32_t **idx32; /* per copy: 32-bit row offsets (CSR) or row indices (COO), exec memory */
};

int bench_peer_count(strata_backend_t b) { return b == VS_BACKEND ? 3 : 0; }

int bench_peer_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                      void *stream, bench_peer_t **out, char *err, size_t err_len) {
  *out = NULL;
  if (alg < 0 || alg > 2) {
    snprintf(err, err_len, "peer algorithm %d (0..2)", alg);
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
  /* 32-bit offsets / row indices, built on the host from copy 0's offsets (all copies are equal) */
  int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  strata_mem_copy(p->e, off, A[0]->row_offsets, (size_t)(n + 1) * sizeof(int64_t));
  const size_t len = alg == BENCH_PEER_COO ? (size_t)nnz : (size_t)n + 1;
  int32_t *h32 = (int32_t *)malloc((len ? len : 1) * sizeof(int32_t));
  if (alg == BENCH_PEER_COO)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t k = off[r]; k < off[r + 1]; ++k) h32[k] = (int32_t)r;
  else
    for (int64_t r = 0; r <= n; ++r) h32[r] = (int32_t)off[r];
  free(off);
  const double one = 1.0, zero = 0.0;
  int rc = 0;
  for (int c = 0; c < copies && !rc; ++c) {
    VS(Status_t) cs = VS_C(STATUS_ALLOC_FAILED);
    size_t bsz = 0;
    const int uploaded = !strata_mem_alloc(p->e, STRATA_MEM_DEVICE, (len ? len : 1) * sizeof(int32_t), (void **)&p->idx32[c]) &&
                         !strata_mem_copy(p->e, p->idx32[c], h32, len * sizeof(int32_t));
    if (!uploaded)
      snprintf(err, err_len, "%s: %s", names[alg], strata_error_message());
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
  }
  if (p->h) VS(Destroy)(p->h);
  free(p->mat);
  free(p->vx);
  free(p->vy);
  free(p->buf);
  free(p->idx32);
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
