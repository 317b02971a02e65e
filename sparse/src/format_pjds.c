/* strata sparse — format "pjds" (pJDS, Kreutzer et al. 2011): rows sorted by length over the
 * whole matrix (a stable device sort), padded per block of b_r sorted rows to the block's longest
 * row, stored as jagged diagonals: entry k of sorted position i at col_start[k] + i, where
 * diagonal k holds the positions of the blocks wider than k (a kernel per diagonal, col_start by
 * a device scan). The sorted order is M's permuted basis (strata_format_permute_in): row i of the
 * basis is row perm[i] of A and, for a square matrix, column j is column perm[j]. SpMV in the
 * original order reads x at the original columns and writes y at perm[i]; SpMV in the basis reads
 * x_perm and writes y_perm contiguously, so a square matrix whose rows moved also keeps its
 * columns in the basis (cols_basis, the inverse of perm applied in the fill: 4 bytes more per
 * stored entry, counted in the footprint; reading x through perm instead made the original-order
 * SpMV 1.4x slower on the host). A rectangular matrix keeps its columns (Q = I); a sort that
 * leaves every row in place gives the identity basis. Kernels: sparse/kernels/format_pjds.kl.c,
 * the permutation ones sparse/kernels/format_perm.kl.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_sliced.h"

#include "../kernels/format_perm_args.h"

STRATA_KERNEL_DECLARE(strata_fmt_sell_width);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_diag);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_fill);
STRATA_KERNEL_DECLARE(strata_fmt_pjds_spmv);
STRATA_KERNEL_DECLARE(strata_fmt_perm_invert);
STRATA_KERNEL_DECLARE(strata_fmt_perm_moved);

/* M's basis from the row order perm [m]: basis_rows = perm unless it is the identity, basis_cols
 * = perm too for a square matrix; when the columns move, *inv [m] (allocated here, exec memory)
 * is the inverse of perm, the stored column of each original column. Synchronous. */
static strata_status_t pjds_basis(strata_exec_t *exec, const strata_crs_matrix_t *A, const int32_t *perm,
                                  strata_sparse_format_t *M, int32_t **inv) {
  *inv = NULL;
  const int64_t m = A->num_rows;
  if (m == 0) return STRATA_SUCCESS;
  strata_fmt_perm_args_t pa;
  memset(&pa, 0, sizeof pa);
  pa.map = perm;
  int64_t moved = 0;
  strata_status_t st = strata_parallel_reduce(exec, "strata_fmt_perm_moved", strata_range(0, m), &strata_fmt_perm_moved,
                                              &pa, STRATA_REDUCE_SUM, &moved);
  if (st != STRATA_SUCCESS || moved == 0) return st;
  M->basis_rows = perm;
  if (A->num_cols != A->num_rows) return STRATA_SUCCESS;
  M->basis_cols = perm;
  st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int32_t), (void **)inv);
  pa.inv = *inv;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_fmt_perm_invert", strata_range(0, m), &strata_fmt_perm_invert, &pa);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  return st;
}

static strata_status_t pjds_spmv_permuted(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                          const double *x_perm, double beta, double *y_perm);

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
  int32_t *inv = NULL;
  st = strata_impl_fmt_max_len(exec, A, &p->max_len);
  const int64_t nb = p->num_slices, K = p->max_len;
  if (st == STRATA_SUCCESS) st = strata_impl_fmt_sort_rows(exec, A, m > 1 ? m : 1, K, &p->perm);
  if (st == STRATA_SUCCESS) st = pjds_basis(exec, A, p->perm, M, &inv);
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
  a.colmap = inv;
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
  /* the basis columns of a square matrix whose rows moved (stored's range is checked by the fill) */
  const size_t basis_bytes = inv && stored <= (int64_t)(SIZE_MAX / 16) ? (size_t)stored * sizeof(int32_t) : 0;
  if (st == STRATA_SUCCESS && basis_bytes > 0)
    st = strata_sparse_impl_alloc(exec, basis_bytes, (void **)&p->cols_basis);
  a.cols_basis = p->cols_basis;
  if (st == STRATA_SUCCESS)
    st = strata_impl_fmt_fill(exec, A, M, "pjds", stored,
                              (size_t)m * sizeof(int32_t) + (size_t)nb * sizeof(int32_t) + (size_t)(K + 1) * sizeof(int64_t) +
                                  basis_bytes,
                              "strata_fmt_pjds_fill", &strata_fmt_pjds_fill, &a, &p->cols, &p->vals, &a.cols, &a.vals);
  strata_sparse_impl_free(exec, size);
  strata_sparse_impl_free(exec, inv);
  if (st != STRATA_SUCCESS) {
    strata_impl_fmt_sliced_destroy(M);
    return st;
  }
  M->spmv_permuted = pjds_spmv_permuted;
  return STRATA_SUCCESS;
}

/* the SpMV kernel; permuted: in M's basis (the basis columns, y_perm contiguous), else in the
 * original order (the original columns, y through perm where the rows moved) */
static strata_status_t pjds_apply(strata_exec_t *exec, const strata_sparse_format_t *M, int permuted, double alpha,
                                  const double *x, double beta, double *y) {
  const strata_impl_fmt_sliced_t *p = (const strata_impl_fmt_sliced_t *)M->impl;
  strata_fmt_sell_args_t a;
  strata_impl_fmt_sliced_args(M, alpha, x, beta, y, &a);
  a.perm = permuted ? NULL : M->basis_rows;
  if (permuted && p->cols_basis) a.cols = p->cols_basis;
  return strata_parallel_for(exec, "strata_fmt_pjds_spmv", strata_range(0, M->num_rows), &strata_fmt_pjds_spmv, &a);
}

static strata_status_t pjds_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                 const double *x, double beta, double *y) {
  return pjds_apply(exec, M, 0, alpha, x, beta, y);
}

static strata_status_t pjds_spmv_permuted(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                          const double *x_perm, double beta, double *y_perm) {
  return pjds_apply(exec, M, 1, alpha, x_perm, beta, y_perm);
}

const strata_impl_format_ops_t strata_impl_format_ops_PJDS = {pjds_create, pjds_spmv, strata_impl_fmt_sliced_destroy};
