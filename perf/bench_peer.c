/* strata bench — the vendor SpMV peer (bench.h): cusparseSpMV in CUDA builds, hipsparseSpMV in HIP
 * builds that found hipSPARSE, stubs elsewhere. CSR ALG1, CSR ALG2 and COO (ALG1), after
 * SpMV_preprocess, on the same device arrays as strata, on the exec's stream. One body serves both
 * libraries through the thin name shim below (Ginkgo's common/cuda_hip idea); their generic SpMV
 * APIs match call for call. Below 2^31 entries the index arrays are 32-bit (32-bit row offsets
 * built from strata's, strata's own columns); from 2^31 entries on, CSR and COO take 64-bit
 * indices (INDEX_64I): CSR strata's own int64 row offsets, with its int32 columns where the library
 * takes the mix (hipSPARSE), else with a 64-bit copy of the columns (cuSPARSE, which refuses mixed
 * index sizes); COO 64-bit copies of rows and columns
 * (cusparseCreateCoo has one index type). The copies are built on the device (peer_kernels.kl.c)
 * and their bytes are said in the record; sliced ELL stays 32-bit (skipped from 2^31 entries). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "peer_kernels.h"

/* the entries from which the peer takes 64-bit indices: 2^31 (32-bit row offsets end there); a
 * build may lower it (-DBENCH_PEER_INDEX64_FROM=1) to run the 64-bit path on small matrices */
#ifndef BENCH_PEER_INDEX64_FROM
#define BENCH_PEER_INDEX64_FROM ((int64_t)1 << 31)
#endif

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
/* cusparseCreateCsr refuses 64-bit row offsets with 32-bit columns ("different index sizes ... not
 * currently supported", cuSPARSE 12.6 on the H200, 2026-12-01): 64-bit columns are copied */
#define VS_MIXED_INDEX 0
typedef cudaStream_t vs_stream_t;
static const char *vs_status_string(cusparseStatus_t s) { return cusparseGetErrorString(s); }
#elif STRATA_HAVE_HIP && BENCH_HAVE_HIPSPARSE
#include <hipsparse/hipsparse.h>
#define VS_LIB "hipsparse"
#define VS_BACKEND STRATA_BACKEND_HIP
#define VS(x) hipsparse##x
#define VS_C(x) HIPSPARSE_##x
#define VS_R_64F HIP_R_64F
#define VS_MIXED_INDEX 1 /* 64-bit row offsets with 32-bit columns tried first (rocSPARSE takes the mix) */
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
  int64_t **col64, **row64; /* 2^31 entries or more, per copy: 64-bit columns (CSR, COO), rows (COO) */
  char note[200];           /* how a matrix of 2^31 entries or more is indexed, its copies' bytes */
};

STRATA_KERNEL_DECLARE(peer_widen);
STRATA_KERNEL_DECLARE(peer_coo_rows);

const char *bench_peer_note(const bench_peer_t *p) { return p ? p->note : ""; }

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

/* Copy c's vectors, buffer and SpMV_preprocess, once its matrix descriptor exists. */
static VS(Status_t) peer_finish(bench_peer_t *p, int c, int64_t n, int64_t nc, double *x, double *y) {
  const double one = 1.0, zero = 0.0;
  size_t bsz = 0;
  VS(Status_t) cs = VS(CreateDnVec)(&p->vx[c], nc, x, VS_R_64F);
  if (cs == VS_C(STATUS_SUCCESS)) cs = VS(CreateDnVec)(&p->vy[c], n, y, VS_R_64F);
  if (cs == VS_C(STATUS_SUCCESS))
    cs = VS(SpMV_bufferSize)(p->h, VS_C(OPERATION_NON_TRANSPOSE), &one, p->mat[c], p->vx[c], &zero, p->vy[c], VS_R_64F,
                             p->alg, &bsz);
  if (cs == VS_C(STATUS_SUCCESS))
    cs = strata_mem_alloc(p->e, STRATA_MEM_DEVICE, bsz ? bsz : 1, &p->buf[c]) ? VS_C(STATUS_ALLOC_FAILED)
         : VS(SpMV_preprocess)(p->h, VS_C(OPERATION_NON_TRANSPOSE), &one, p->mat[c], p->vx[c], &zero, p->vy[c],
                               VS_R_64F, p->alg, p->buf[c]);
  return cs;
}

/* Copy c's descriptors and buffer released (a setup that failed, or the peer's end). */
static void peer_release(bench_peer_t *p, int c) {
  if (p->mat[c]) VS(DestroySpMat)(p->mat[c]);
  if (p->vx[c]) VS(DestroyDnVec)(p->vx[c]);
  if (p->vy[c]) VS(DestroyDnVec)(p->vy[c]);
  p->mat[c] = NULL, p->vx[c] = NULL, p->vy[c] = NULL;
  strata_mem_free(p->e, STRATA_MEM_DEVICE, &p->buf[c]);
}

/* A 64-bit index array of len entries on the device: the 32-bit in widened (in != NULL), or the
 * row of each entry of the row offsets off (rows n). 0, or -1 with strata's message in err. */
static int peer_index64(bench_peer_t *p, const int32_t *in, const int64_t *off, int64_t n, int64_t len, int64_t **out,
                        char *err, size_t err_len) {
  peer_index_args_t a = {in, off, NULL};
  int st = strata_mem_alloc(p->e, STRATA_MEM_DEVICE, (size_t)len * sizeof(int64_t), (void **)out);
  a.out = *out;
  if (!st) st = in ? strata_parallel_for(p->e, NULL, strata_range(0, len), &peer_widen, &a)
                   : strata_parallel_for(p->e, NULL, strata_range(0, n), &peer_coo_rows, &a);
  if (!st) st = strata_exec_fence(p->e); /* done while a (on this stack) lives; a fault is said here */
  if (st) {
    snprintf(err, err_len, "64-bit indices for %s (%.3g GB): %s", VS_LIB, 8e-9 * (double)len, strata_error_message());
    return -1;
  }
  /* the last index against its source: a launch that left the end of the range unwritten is caught */
  int64_t last = -1, want = -1;
  int32_t w32 = -1;
  if (len > 0 && !strata_mem_copy(p->e, &last, *out + len - 1, sizeof last)) {
    if (in && !strata_mem_copy(p->e, &w32, in + len - 1, sizeof w32)) want = w32;
    for (int64_t r = n - 1; !in && r >= 0 && want < 0; --r) { /* the last row that holds entries */
      int64_t o[2];
      if (strata_mem_copy(p->e, o, off + r, sizeof o)) break;
      if (o[1] > o[0]) want = r;
    }
  }
  if (len > 0 && (last != want || want < 0)) {
    snprintf(err, err_len, "64-bit indices for %s: entry %lld is %lld, not %lld", VS_LIB, (long long)(len - 1),
             (long long)last, (long long)want);
    return -1;
  }
  return 0;
}

/* Copy c of a matrix of 2^31 entries or more (INDEX_64I): CSR with strata's int64 row offsets and,
 * where the library takes the mix, its int32 columns (tried on copy 0), else a 64-bit copy of the
 * columns; COO with 64-bit copies of rows and columns. 0, or -1 with the message in err. */
static int peer_create_wide(bench_peer_t *p, int alg, int c, strata_crs_matrix_t *A, double *x, double *y, char *err,
                            size_t err_len) {
  const int64_t n = A->num_rows, nc = A->num_cols, nnz = A->nnz;
  const double gb = 8e-9 * (double)nnz;
  VS(Status_t) cs;
  if (alg == BENCH_PEER_COO) {
    if (peer_index64(p, NULL, A->row_offsets, n, nnz, &p->row64[c], err, err_len) ||
        peer_index64(p, A->col_indices, NULL, n, nnz, &p->col64[c], err, err_len))
      return -1;
    cs = VS(CreateCoo)(&p->mat[c], n, nc, nnz, p->row64[c], p->col64[c], A->values, VS_C(INDEX_64I),
                       VS_C(INDEX_BASE_ZERO), VS_R_64F);
    if (cs == VS_C(STATUS_SUCCESS)) cs = peer_finish(p, c, n, nc, x, y);
    if (c == 0)
      snprintf(p->note, sizeof p->note, "64-bit indices (%lld entries): 64-bit copies of rows and columns, %.3g GB a copy "
             "on the device", (long long)nnz, 2 * gb);
  } else {
    cs = VS_C(STATUS_NOT_SUPPORTED);
    if (VS_MIXED_INDEX && !p->col64[0]) { /* copy 0, or the mix was taken on copy 0 */
      cs = VS(CreateCsr)(&p->mat[c], n, nc, nnz, A->row_offsets, A->col_indices, A->values, VS_C(INDEX_64I),
                         VS_C(INDEX_32I), VS_C(INDEX_BASE_ZERO), VS_R_64F);
      if (cs == VS_C(STATUS_SUCCESS)) cs = peer_finish(p, c, n, nc, x, y);
      if (cs == VS_C(STATUS_SUCCESS) && c == 0)
        snprintf(p->note, sizeof p->note, "64-bit row offsets (strata's) with 32-bit columns (%lld entries): no index "
                 "copy", (long long)nnz);
    }
    if (cs != VS_C(STATUS_SUCCESS) && cs != VS_C(STATUS_ALLOC_FAILED) && (!VS_MIXED_INDEX || c == 0 || p->col64[0])) {
      const char *why = VS_MIXED_INDEX ? vs_status_string(cs) : "refused by " VS_LIB;
      peer_release(p, c);
      if (peer_index64(p, A->col_indices, NULL, n, nnz, &p->col64[c], err, err_len)) return -1;
      cs = VS(CreateCsr)(&p->mat[c], n, nc, nnz, A->row_offsets, p->col64[c], A->values, VS_C(INDEX_64I),
                         VS_C(INDEX_64I), VS_C(INDEX_BASE_ZERO), VS_R_64F);
      if (cs == VS_C(STATUS_SUCCESS)) cs = peer_finish(p, c, n, nc, x, y);
      if (c == 0)
        snprintf(p->note, sizeof p->note, "64-bit indices (%lld entries): strata's row offsets and a 64-bit copy of the "
               "columns, %.3g GB a copy on the device (64-bit offsets with 32-bit columns: %s)", (long long)nnz, gb, why);
    }
  }
  if (cs != VS_C(STATUS_SUCCESS)) {
    snprintf(err, err_len, "%s (64-bit indices, %lld entries): %s", names[alg], (long long)nnz, vs_status_string(cs));
    return -1;
  }
  return 0;
}

int bench_peer_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                      void *stream, bench_peer_t **out, char *err, size_t err_len) {
  *out = NULL;
  if (alg < 0 || alg >= 3 + VS_SELL) {
    snprintf(err, err_len, "peer algorithm %d (0..%d)", alg, 2 + VS_SELL);
    return -1;
  }
  const int64_t n = A[0]->num_rows, nnz = A[0]->nnz;
  const int wide = nnz >= BENCH_PEER_INDEX64_FROM; /* row offsets beyond 32 bits: 64-bit indices */
  if (wide && alg == BENCH_PEER_SELL) {
    snprintf(err, err_len, "skipped: %lld entries; the sliced ELL peer has 32-bit slice offsets", (long long)nnz);
    return 1;
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
  p->col64 = (int64_t **)calloc((size_t)copies, sizeof *p->col64);
  p->row64 = (int64_t **)calloc((size_t)copies, sizeof *p->row64);
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
  if (wide) {
    int rc = 0;
    for (int c = 0; c < copies && !rc; ++c) rc = peer_create_wide(p, alg, c, A[c], x[c], y[c], err, err_len);
    if (rc) {
      bench_peer_destroy(&p);
      return -1;
    }
    bench_sync(p->e); /* the index kernels done */
    *out = p;
    return 0;
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
  int rc = 0;
  for (int c = 0; c < copies && !rc; ++c) {
    VS(Status_t) cs = VS_C(STATUS_ALLOC_FAILED);
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
    if (cs == VS_C(STATUS_SUCCESS)) cs = peer_finish(p, c, n, A[c]->num_cols, x[c], y[c]);
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
    peer_release(p, c);
    if (p->col64) strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->col64[c]);
    if (p->row64) strata_mem_free(p->e, STRATA_MEM_DEVICE, (void **)&p->row64[c]);
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
  free(p->col64);
  free(p->row64);
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
const char *bench_peer_note(const bench_peer_t *p) {
  (void)p;
  return "";
}
#endif
