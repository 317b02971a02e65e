/* strata sparse — formats "ell" (ELLPACK) and "ellpack-r" (ELLPACK-R): every row padded to the
 * longest, column-major [width][num_rows] (padding: column -1, value 0, skipped by the SpMV so that
 * an infinite or NaN x[c] reaches only the rows that read it); ELLPACK-R also stores the
 * row lengths so its SpMV stops at each row's end. The width is found by a reduce kernel, the
 * arrays are filled by a kernel with a thread per row (sparse/kernels/format_ell.kl.c). Also the
 * row-length helpers of the other padded formats (format_sliced.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_sliced.h"

#include "../kernels/spmv_plan_args.h"

STRATA_KERNEL_DECLARE(strata_fmt_max_len);
STRATA_KERNEL_DECLARE(strata_fmt_sort_keys);
STRATA_KERNEL_DECLARE(strata_spmv_narrow);
STRATA_KERNEL_DECLARE(strata_fmt_ell_fill);
STRATA_KERNEL_DECLARE(strata_fmt_ell_spmv);
STRATA_KERNEL_DECLARE(strata_fmt_ellr_spmv);

strata_status_t strata_impl_fmt_max_len(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t *max_len) {
  *max_len = 0;
  if (A->num_rows == 0) return STRATA_SUCCESS;
  strata_fmt_len_args_t la = {A->row_offsets};
  return strata_parallel_reduce(exec, "strata_fmt_max_len", strata_range(0, A->num_rows), &strata_fmt_max_len, &la,
                                STRATA_REDUCE_MAX, max_len);
}

strata_status_t strata_impl_fmt_sort_rows(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t sigma,
                                          int64_t max_len, int32_t **perm) {
  const int64_t n = A->num_rows;
  *perm = NULL;
  if (n == 0) return STRATA_SUCCESS;
  int64_t *keys = NULL, *p64 = NULL;
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int64_t), (void **)&keys);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int64_t), (void **)&p64);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int32_t), (void **)perm);
  strata_fmt_sort_key_args_t ka = {A->row_offsets, sigma, max_len, keys, p64};
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_fmt_sort_keys", strata_range(0, n), &strata_fmt_sort_keys, &ka);
  if (st == STRATA_SUCCESS && sigma > 1) {
    const int64_t top = ((n - 1) / sigma + 1) * (max_len + 1);
    int bits = 1;
    while (bits < 63 && ((int64_t)1 << bits) < top) ++bits;
    st = strata_sort_pairs_i64(exec, n, bits, keys, p64);
  }
  strata_spmv_narrow_args_t na = {p64, *perm};
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_spmv_narrow", strata_range(0, n), &strata_spmv_narrow, &na);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  strata_sparse_impl_free(exec, keys);
  strata_sparse_impl_free(exec, p64);
  if (st != STRATA_SUCCESS) {
    strata_sparse_impl_free(exec, *perm);
    *perm = NULL;
  }
  return st;
}

strata_status_t strata_impl_fmt_warp(strata_exec_t *exec, int *warp) {
  *warp = 1;
  if (strata_exec_is_host(exec)) return STRATA_SUCCESS;
  strata_device_info_t info;
  strata_status_t st = strata_exec_device_info(exec, &info);
  if (st == STRATA_SUCCESS) *warp = info.warp_size > 1 ? info.warp_size : 1;
  return st;
}

strata_status_t strata_impl_fmt_fill(strata_exec_t *exec, const strata_crs_matrix_t *A, strata_sparse_format_t *M,
                                     const char *name, int64_t stored, size_t extra_bytes, const char *label,
                                     const strata_kernel_t *fill, const void *args, int32_t **cols, double **vals,
                                     int32_t **acols, double **avals) {
  if (stored < 0 || stored > (int64_t)(SIZE_MAX / 16))
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format %s: %lld stored entries", name, (long long)stored);
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)stored * sizeof(int32_t), (void **)cols);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)stored * sizeof(double), (void **)vals);
  if (st == STRATA_ERR_OUT_OF_MEMORY) { /* say which format asked for how much, and why */
    char prev[200];
    snprintf(prev, sizeof prev, "%s", strata_error_message());
    return strata_error_set(st, "format %s: %lld stored entries (%.4g per row over %d rows, for %lld entries: "
                            "padding %.3gx), %zu bytes: %s", name, (long long)stored,
                            A->num_rows > 0 ? (double)stored / A->num_rows : 0.0, (int)A->num_rows,
                            (long long)A->nnz, A->nnz > 0 ? (double)(stored - A->nnz) / (double)A->nnz : 0.0,
                            (size_t)stored * (sizeof(int32_t) + sizeof(double)), prev);
  }
  *acols = *cols;
  *avals = *vals;
  if (st == STRATA_SUCCESS && A->num_rows > 0)
    st = strata_parallel_for(exec, label, strata_range(0, A->num_rows), fill, args);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  if (st != STRATA_SUCCESS) return st;
  M->footprint.bytes = (size_t)stored * (sizeof(int32_t) + sizeof(double)) + extra_bytes;
  M->footprint.stored = stored;
  M->footprint.padding = stored - A->nnz;
  M->footprint.overhead = A->nnz > 0 ? (double)M->footprint.padding / (double)A->nnz : 0.0;
  return STRATA_SUCCESS;
}

void strata_impl_fmt_sliced_destroy(strata_sparse_format_t *M) {
  strata_impl_fmt_sliced_t *s = (strata_impl_fmt_sliced_t *)M->impl;
  if (!s) return;
  strata_sparse_impl_free(M->exec, s->perm);
  strata_sparse_impl_free(M->exec, s->width);
  strata_sparse_impl_free(M->exec, s->off);
  strata_sparse_impl_free(M->exec, s->cols);
  strata_sparse_impl_free(M->exec, s->cols_basis);
  strata_sparse_impl_free(M->exec, s->vals);
  free(s);
  M->impl = NULL;
}

void strata_impl_fmt_sliced_args(const strata_sparse_format_t *M, double alpha, const double *x, double beta,
                                 double *y, strata_fmt_sell_args_t *a) {
  const strata_impl_fmt_sliced_t *s = (const strata_impl_fmt_sliced_t *)M->impl;
  memset(a, 0, sizeof *a);
  a->perm = s->perm;
  a->num_rows = M->num_rows;
  a->C = s->C;
  a->width = s->width;
  a->off = s->off;
  a->num_slices = s->num_slices;
  a->cols = s->cols;
  a->vals = s->vals;
  a->x = x;
  a->y = y;
  a->alpha = alpha;
  a->beta = beta;
}

typedef struct ell_impl {
  int64_t width;
  int32_t *cols;
  double *vals;
  int32_t *row_len; /* ELLPACK-R only */
} ell_impl_t;

static void ell_destroy(strata_sparse_format_t *M) {
  ell_impl_t *e = (ell_impl_t *)M->impl;
  if (!e) return;
  strata_sparse_impl_free(M->exec, e->cols);
  strata_sparse_impl_free(M->exec, e->vals);
  strata_sparse_impl_free(M->exec, e->row_len);
  free(e);
  M->impl = NULL;
}

static strata_status_t ell_build(strata_exec_t *exec, const strata_crs_matrix_t *A, int with_len,
                                 strata_sparse_format_t *M) {
  ell_impl_t *e = (ell_impl_t *)calloc(1, sizeof *e);
  if (!e) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format ell: %zu bytes", sizeof *e);
  M->impl = e;
  M->exec = exec;
  const int64_t m = A->num_rows;
  strata_status_t st = strata_impl_fmt_max_len(exec, A, &e->width);
  const int64_t stored = e->width * m;
  if (st == STRATA_SUCCESS && with_len)
    st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int32_t), (void **)&e->row_len);
  strata_fmt_ell_args_t fa;
  memset(&fa, 0, sizeof fa);
  fa.row_offsets = A->row_offsets;
  fa.col_indices = A->col_indices;
  fa.values = A->values;
  fa.num_rows = m;
  fa.width = e->width;
  fa.row_len = e->row_len;
  if (st == STRATA_SUCCESS)
    st = strata_impl_fmt_fill(exec, A, M, with_len ? "ellpack-r" : "ell", e->width > 0 && m > INT64_MAX / e->width ? -1 : stored,
                              with_len ? (size_t)m * sizeof(int32_t) : 0, "strata_fmt_ell_fill", &strata_fmt_ell_fill,
                              &fa, &e->cols, &e->vals, &fa.cols, &fa.vals);
  if (st != STRATA_SUCCESS) {
    ell_destroy(M);
    return st;
  }
  return STRATA_SUCCESS;
}

static strata_status_t ell_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  return ell_build(exec, A, 0, M);
}

static strata_status_t ellr_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                   const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  return ell_build(exec, A, 1, M);
}

static strata_status_t ell_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                const double *x, double beta, double *y) {
  const ell_impl_t *e = (const ell_impl_t *)M->impl;
  strata_fmt_ell_args_t a;
  memset(&a, 0, sizeof a);
  a.num_rows = M->num_rows;
  a.width = e->width;
  a.cols = e->cols;
  a.vals = e->vals;
  a.row_len = e->row_len;
  a.x = x;
  a.y = y;
  a.alpha = alpha;
  a.beta = beta;
  if (e->row_len)
    return strata_parallel_for(exec, "strata_fmt_ellr_spmv", strata_range(0, M->num_rows), &strata_fmt_ellr_spmv, &a);
  return strata_parallel_for(exec, "strata_fmt_ell_spmv", strata_range(0, M->num_rows), &strata_fmt_ell_spmv, &a);
}

const strata_impl_format_ops_t strata_impl_format_ops_ELL = {ell_create, ell_spmv, ell_destroy};
const strata_impl_format_ops_t strata_impl_format_ops_ELLPACK_R = {ellr_create, ell_spmv, ell_destroy};
