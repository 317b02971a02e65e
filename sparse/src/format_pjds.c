/* strata sparse — format "pjds" (pJDS, Kreutzer et al. 2011): rows sorted by length over the
 * whole matrix (a stable device sort), padded per block of b_r sorted rows to the block's longest
 * row, stored as jagged diagonals: entry k of sorted position i at col_start[k] + i, where
 * diagonal k holds the positions of the blocks wider than k (a kernel per diagonal, col_start by
 * a device scan). SpMV reads x in the original column order and writes y in the original row
 * order through the kept permutation. Kernels: sparse/kernels/format_pjds.kl.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_sliced.h"

STRATA_KERNEL_DECLARE(strata_fmt_sell_width);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_diag);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_fill);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_spmv);

static strata_status_t pjds_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                   const strata_format_options_t *o, strata_sparse_format_t *M) {
  int warp = 1;
  strata_status_t st = strata_impl_fmt_warp(exec, &warp);
  if (st != STRATA_SUCCESS) return st;
  const int64_t br = o->block_rows ? o->block_rows : warp > 1 ? warp : 8;
  if (br < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format pjds: block_rows %lld must be >= 1", (long long)br);
  strata_impl_fmt_sliced_t *p = (strata_impl_fmt_sliced_t *)calloc(1, sizeof *p);
  if (!p) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format pjds: %zu bytes", sizeof *p);
  M->impl = p;
  const int64_t m = A->num_rows;
  p->C = br;
  p->num_slices = (m + br - 1) / br;
  int64_t stored = 0, *size = NULL;
  st = strata_impl_fmt_max_len(exec, A, &p->max_len);
  const int64_t nb = p->num_slices, K = p->max_len;
  if (st == STRATA_SUCCESS) st = strata_impl_fmt_sort_rows(exec, A, m > 1 ? m : 1, K, &p->perm);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nb * sizeof(int32_t), (void **)&p->width);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)(K + 1) * sizeof(int64_t), (void **)&p->off);
  if (st == STRATA_SUCCESS) /* block sizes, then diagonal sizes */
    st = strata_sparse_impl_alloc(exec, (size_t)(nb > K ? nb : K) * sizeof(int64_t), (void **)&size);
  strata_fmt_sell_args_t a;
  memset(&a, 0, sizeof a);
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.perm = p->perm;
  a.num_rows = m;
  a.C = br;
  a.round = 1;
  a.width = p->width;
  a.size = size;
  a.off = p->off;
  a.num_slices = nb;
  if (st == STRATA_SUCCESS && nb > 0)
    st = strata_parallel_for(exec, "strata_fmt_sell_width", strata_range(0, nb), &strata_fmt_sell_width, &a);
  if (st == STRATA_SUCCESS && K > 0)
    st = strata_parallel_for(exec, "strata_fmt_pjds_diag", strata_range(0, K), &strata_fmt_pjds_diag, &a);
  if (st == STRATA_SUCCESS && K > 0) st = strata_scan_exclusive_i64(exec, K, size, p->off, &stored);
  if (st == STRATA_SUCCESS && p->off) st = strata_mem_copy(exec, p->off + K, &stored, sizeof(int64_t));
  if (st == STRATA_SUCCESS)
    st = strata_impl_fmt_fill(exec, A, M, "pjds", stored,
                              (size_t)m * sizeof(int32_t) + (size_t)nb * sizeof(int32_t) + (size_t)(K + 1) * sizeof(int64_t),
                              "strata_fmt_pjds_fill", &strata_fmt_pjds_fill, &a, &p->cols, &p->vals, &a.cols, &a.vals);
  strata_sparse_impl_free(exec, size);
  if (st != STRATA_SUCCESS) {
    strata_impl_fmt_sliced_destroy(M);
    return st;
  }
  return STRATA_SUCCESS;
}

static strata_status_t pjds_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                 const double *x, double beta, double *y) {
  strata_fmt_sell_args_t a;
  strata_impl_fmt_sliced_args(M, alpha, x, beta, y, &a);
  return strata_parallel_for(exec, "strata_fmt_pjds_spmv", strata_range(0, M->num_rows), &strata_fmt_pjds_spmv, &a);
}

const strata_impl_format_ops_t strata_impl_format_ops_PJDS = {pjds_create, pjds_spmv, strata_impl_fmt_sliced_destroy};
