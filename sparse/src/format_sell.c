/* strata sparse — formats "sell-c-sigma" (SELL-C-σ, Kreutzer et al. 2014) and "sell-p" (SELL-P,
 * Anzt et al. 2014). Rows are sorted by length, descending, within windows of σ rows (a stable
 * device sort of (window, -length, row) keys; σ = 1: no sorting), cut into slices of C sorted
 * rows, each slice padded to its longest row (SELL-P: rounded up to a multiple of the threads per
 * row) and stored column-major inside the slice; slice offsets by a device scan of the slice
 * sizes; the row permutation is kept and SpMV writes y in the original row order. Kernels:
 * sparse/kernels/format_sell.kl.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_sliced.h"

STRATA_KERNEL_DECLARE(strata_fmt_sell_width);
STRATA_KERNEL_DECLARE(strata_fmt_sell_fill);
STRATA_KERNEL_DECLARE(strata_fmt_sell_spmv);
STRATA_KERNEL_DECLARE(strata_fmt_sellp_spmv);

static strata_status_t sell_build(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_format_options_t *o,
                                  int sell_p, strata_sparse_format_t *M) {
  const char *name = sell_p ? "sell-p" : "sell-c-sigma";
  int warp = 1;
  strata_status_t st = strata_impl_fmt_warp(exec, &warp);
  if (st != STRATA_SUCCESS) return st;
  const int64_t C = o->chunk_height ? o->chunk_height : warp > 1 ? warp : 8;
  const int64_t sigma = o->sigma ? o->sigma : 256;
  const int64_t tpr = sell_p && o->threads_per_row ? o->threads_per_row : 1;
  if (C < 1 || sigma < 1 || tpr < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format %s: chunk_height %lld, sigma %lld, threads_per_row %lld must be >= 1",
                            name, (long long)C, (long long)sigma, (long long)tpr);
  /* GPUs: lanes of one warp per row; host backends pad for it only (one lane), up to the widest
   * GPU warp so that a host layout can match a GPU's */
  const int64_t tpr_max = warp > 1 ? warp : 64;
  if (tpr & (tpr - 1) || tpr > tpr_max)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "format %s: threads_per_row %lld is not a power of two up to %lld (%s)", name,
                            (long long)tpr, (long long)tpr_max,
                            warp > 1 ? "the warp size" : "host backends: the widest GPU warp");
  strata_impl_fmt_sliced_t *s = (strata_impl_fmt_sliced_t *)calloc(1, sizeof *s);
  if (!s) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format %s: %zu bytes", name, sizeof *s);
  M->impl = s;
  const int64_t m = A->num_rows;
  s->C = C;
  s->num_slices = (m + C - 1) / C;
  s->lanes = sell_p && tpr > 1 ? (warp > 1 ? (int)tpr : 1) : 0;
  int64_t max_len = 0, stored = 0, *size = NULL;
  st = strata_impl_fmt_max_len(exec, A, &max_len);
  if (st == STRATA_SUCCESS) st = strata_impl_fmt_sort_rows(exec, A, sigma, max_len, &s->perm);
  const int64_t ns = s->num_slices;
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)ns * sizeof(int32_t), (void **)&s->width);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)(ns + 1) * sizeof(int64_t), (void **)&s->off);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)ns * sizeof(int64_t), (void **)&size);
  strata_fmt_sell_args_t a;
  memset(&a, 0, sizeof a);
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.perm = s->perm;
  a.num_rows = m;
  a.C = C;
  a.round = tpr;
  a.width = s->width;
  a.size = size;
  a.off = s->off;
  a.num_slices = ns;
  if (st == STRATA_SUCCESS && ns > 0)
    st = strata_parallel_for(exec, "strata_fmt_sell_width", strata_range(0, ns), &strata_fmt_sell_width, &a);
  if (st == STRATA_SUCCESS && ns > 0) st = strata_scan_exclusive_i64(exec, ns, size, s->off, &stored);
  if (st == STRATA_SUCCESS && ns > 0) st = strata_mem_copy(exec, s->off + ns, &stored, sizeof(int64_t));
  if (st == STRATA_SUCCESS)
    st = strata_impl_fmt_fill(exec, A, M, name, stored,
                              (size_t)m * sizeof(int32_t) + (size_t)ns * sizeof(int32_t) + (size_t)(ns + 1) * sizeof(int64_t),
                              "strata_fmt_sell_fill", &strata_fmt_sell_fill, &a, &s->cols, &s->vals, &a.cols, &a.vals);
  strata_sparse_impl_free(exec, size);
  if (st != STRATA_SUCCESS) {
    strata_impl_fmt_sliced_destroy(M);
    return st;
  }
  return STRATA_SUCCESS;
}

static strata_status_t sell_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                   const strata_format_options_t *opts, strata_sparse_format_t *M) {
  return sell_build(exec, A, opts, 0, M);
}

static strata_status_t sellp_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                    const strata_format_options_t *opts, strata_sparse_format_t *M) {
  return sell_build(exec, A, opts, 1, M);
}

static strata_status_t sell_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                 const double *x, double beta, double *y) {
  const strata_impl_fmt_sliced_t *s = (const strata_impl_fmt_sliced_t *)M->impl;
  strata_fmt_sell_args_t a;
  strata_impl_fmt_sliced_args(M, alpha, x, beta, y, &a);
  if (s->lanes == 0)
    return strata_parallel_for(exec, "strata_fmt_sell_spmv", strata_range(0, M->num_rows), &strata_fmt_sell_spmv, &a);
  /* SELL-P with several lanes per row: GPUs a block of 256 threads (256 / lanes rows), host one
   * row per team thread in blocks of 16 */
  const int ts = s->lanes > 1 ? 256 / s->lanes : 1;
  a.rows_per_team = s->lanes > 1 ? ts : 16;
  strata_team_policy_t pol = strata_team_policy((M->num_rows + a.rows_per_team - 1) / a.rows_per_team, ts, s->lanes);
  return strata_parallel_for_team(exec, "strata_fmt_sellp_spmv", &pol, &strata_fmt_sellp_spmv, &a);
}

const strata_impl_format_ops_t strata_impl_format_ops_SELL_C_SIGMA = {sell_create, sell_spmv, strata_impl_fmt_sliced_destroy};
const strata_impl_format_ops_t strata_impl_format_ops_SELL_P = {sellp_create, sell_spmv, strata_impl_fmt_sliced_destroy};
