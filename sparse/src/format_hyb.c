/* strata sparse — format "hyb" = ELL + COO (Ginkgo's hybrid), and the ELL + remainder builder it
 * shares with "hec" = ELL + CSR (format_hec.c). Each row's first `width` entries go to an ELL part
 * (column-major [width][rows], padding column -1 / value 0, a thread per row), the rest to a COO
 * (hyb) or CSR (hec) remainder applied second by the load-balanced SpMV of format_lb.h, adding
 * into y. All splitting is done by kernels; the host only reads a few sorted row lengths.
 *
 * HYB width (ell_width > 0 forces it; a width beyond the longest row is cut to it):
 *   hyb_strategy 0  percentile: the row length at position ceil(0.8 m) - 1 of the sorted lengths
 *                   (at least 80 % of the rows fit the ELL part whole);
 *   1 bounded       min(percentile, ceil(2 nnz / m));
 *   2 min. storage  the width minimizing ELL bytes (12 per slot, m slots per unit of width) plus
 *                   COO bytes (16 per entry): widening by one saves 16 per row still longer, so the
 *                   optimum is the smallest w with at most floor(3 m / 4) rows longer than w, the
 *                   sorted length at position m - floor(3 m / 4) - 1. */
#include <stdlib.h>
#include <string.h>

#include "format_lb.h"

STRATA_KERNEL_DECLARE(strata_fmt_hyb_lens);
STRATA_KERNEL_DECLARE(strata_fmt_hyb_rem_count);
STRATA_KERNEL_DECLARE(strata_fmt_hyb_fill);
STRATA_KERNEL_DECLARE(strata_fmt_ell_part_spmv);

void strata_fmt_hybrid_free(strata_exec_t *exec, strata_fmt_hybrid_t *h) {
  strata_sparse_impl_free(exec, h->ell_cols);
  strata_sparse_impl_free(exec, h->ell_vals);
  strata_sparse_impl_free(exec, h->rem_off);
  strata_sparse_impl_free(exec, h->rem_rows);
  strata_sparse_impl_free(exec, h->rem_cols);
  strata_sparse_impl_free(exec, h->rem_vals);
  strata_sparse_impl_free(exec, h->team_row);
  memset(h, 0, sizeof *h);
}

#define CHECK(call)                      \
  do {                                   \
    st = (call);                         \
    if (st != STRATA_SUCCESS) goto done; \
  } while (0)

/* sorted[i] (device) to the host */
static strata_status_t sorted_at(strata_exec_t *exec, const int64_t *sorted, int64_t i, int64_t *v) {
  return strata_mem_copy(exec, v, sorted + i, sizeof(int64_t));
}

strata_status_t strata_fmt_hybrid_create(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t width,
                                         int strategy, int csr_rem, strata_fmt_hybrid_t *h,
                                         strata_format_footprint_t *fp) {
  const char *name = csr_rem ? "hec" : "hyb";
  memset(h, 0, sizeof *h);
  if (width < 0 || strategy < 0 || strategy > 2)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format %s: ell_width %lld (>= 0) or hyb_strategy %d (0..2)",
                            name, (long long)width, strategy);
  const int64_t m = A->num_rows, nnz = A->nnz;
  strata_status_t st = STRATA_SUCCESS;
  int64_t *lens = NULL, *perm = NULL;
  strata_fmt_ell_args_t a;
  memset(&a, 0, sizeof a);
  a.row_offsets = A->row_offsets;
  a.cols = A->col_indices;
  a.vals = A->values;
  a.num_rows = m;
  if (m > 0) {
    CHECK(strata_sparse_impl_alloc(exec, (size_t)(m + 1) * sizeof(int64_t), (void **)&lens));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int64_t), (void **)&perm));
    a.lens = lens;
    a.perm = perm;
    CHECK(strata_parallel_for(exec, "strata_fmt_hyb_lens", strata_range(0, m), &strata_fmt_hyb_lens, &a));
    CHECK(strata_sort_pairs_i64(exec, m, 32, lens, perm));
    int64_t longest = 0;
    CHECK(sorted_at(exec, lens, m - 1, &longest));
    if (width == 0) {
      if (strategy == 2) {
        CHECK(sorted_at(exec, lens, m - (3 * m) / 4 - 1, &width));
      } else {
        CHECK(sorted_at(exec, lens, (8 * m + 9) / 10 - 1, &width));
        const int64_t bound = (2 * nnz + m - 1) / m;
        if (strategy == 1 && bound < width) width = bound;
      }
    }
    if (width > longest) width = longest;
    /* the remainder: counts, offsets (rem_off[m] = its size), then one pass over the entries */
    a.width = width;
    CHECK(strata_parallel_for(exec, "strata_fmt_hyb_rem_count", strata_range(0, m), &strata_fmt_hyb_rem_count, &a));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)(m + 1) * sizeof(int64_t), (void **)&h->rem_off));
    CHECK(strata_scan_exclusive_i64(exec, m, lens, h->rem_off, &h->rem));
    CHECK(strata_mem_copy(exec, h->rem_off + m, &h->rem, sizeof(int64_t)));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)(m * width) * sizeof(int32_t), (void **)&h->ell_cols));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)(m * width) * sizeof(double), (void **)&h->ell_vals));
    CHECK(strata_mem_set_async(exec, h->ell_cols, 0xFF, (size_t)(m * width) * sizeof(int32_t))); /* -1 */
    CHECK(strata_mem_set_async(exec, h->ell_vals, 0, (size_t)(m * width) * sizeof(double)));
    if (!csr_rem) CHECK(strata_sparse_impl_alloc(exec, (size_t)h->rem * sizeof(int32_t), (void **)&h->rem_rows));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)h->rem * sizeof(int32_t), (void **)&h->rem_cols));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)h->rem * sizeof(double), (void **)&h->rem_vals));
    a.rem_off = h->rem_off;
    a.ell_cols = h->ell_cols;
    a.ell_vals = h->ell_vals;
    a.rem_rows = h->rem_rows;
    a.rem_cols = h->rem_cols;
    a.rem_vals = h->rem_vals;
    if (nnz > 0) CHECK(strata_parallel_for(exec, "strata_fmt_hyb_fill", strata_range(0, nnz), &strata_fmt_hyb_fill, &a));
  }
  h->width = width;
  h->num_rows = m;
  memset(&h->lb, 0, sizeof h->lb);
  h->lb.rows = h->rem_rows;
  h->lb.row_offsets = csr_rem ? h->rem_off : NULL;
  h->lb.cols = h->rem_cols;
  h->lb.vals = h->rem_vals;
  h->lb.nnz = h->rem;
  h->lb.num_rows = m;
  strata_fmt_lb_tiling(exec, h->rem, &h->lb.tile, &h->lb.per, &h->lb.num_teams);
  if (csr_rem && h->lb.num_teams > 0) {
    CHECK(strata_sparse_impl_alloc(exec, (size_t)h->lb.num_teams * sizeof(int32_t), (void **)&h->team_row));
    CHECK(strata_fmt_lb_row_map(exec, &h->lb, h->team_row));
    h->lb.team_row = h->team_row;
  }
  CHECK(strata_exec_fence(exec));
  fp->stored = m * width + h->rem;
  fp->padding = fp->stored - nnz;
  fp->overhead = nnz > 0 ? (double)fp->padding / (double)nnz : 0.0;
  fp->bytes = (size_t)(m * width) * (sizeof(int32_t) + sizeof(double)) +
              (size_t)h->rem * (sizeof(int32_t) + sizeof(double) + (csr_rem ? 0 : sizeof(int32_t))) +
              (csr_rem ? (size_t)(m + 1) * sizeof(int64_t) + (size_t)h->lb.num_teams * sizeof(int32_t) : 0);
done:
  strata_sparse_impl_free(exec, lens);
  strata_sparse_impl_free(exec, perm);
  if (st != STRATA_SUCCESS) strata_fmt_hybrid_free(exec, h);
  return st;
}

strata_status_t strata_fmt_hybrid_spmv(strata_exec_t *exec, const strata_fmt_hybrid_t *h, double alpha,
                                       const double *x, double beta, double *y) {
  strata_fmt_ell_args_t a;
  memset(&a, 0, sizeof a);
  a.num_rows = h->num_rows;
  a.width = h->width;
  a.ell_cols = h->ell_cols;
  a.ell_vals = h->ell_vals;
  a.x = x;
  a.y = y;
  a.alpha = alpha;
  a.beta = beta;
  strata_status_t st = strata_parallel_for(exec, "strata_fmt_ell_part_spmv", strata_range(0, h->num_rows),
                                           &strata_fmt_ell_part_spmv, &a);
  if (st != STRATA_SUCCESS) return st;
  return strata_fmt_lb_apply(exec, h->lb, alpha, x, y);
}

static void hyb_destroy(strata_sparse_format_t *M) {
  strata_fmt_hybrid_t *h = (strata_fmt_hybrid_t *)M->impl;
  if (!h) return;
  strata_fmt_hybrid_free(M->exec, h);
  free(h);
  M->impl = NULL;
}

static strata_status_t hyb_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_format_options_t *opts, strata_sparse_format_t *M) {
  strata_fmt_hybrid_t *h = (strata_fmt_hybrid_t *)calloc(1, sizeof *h);
  if (!h) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format hyb: %zu bytes", sizeof *h);
  strata_status_t st = strata_fmt_hybrid_create(exec, A, opts->ell_width, opts->hyb_strategy, 0, h, &M->footprint);
  if (st != STRATA_SUCCESS) {
    free(h);
    return st;
  }
  M->impl = h;
  return STRATA_SUCCESS;
}

static strata_status_t hyb_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                const double *x, double beta, double *y) {
  return strata_fmt_hybrid_spmv(exec, (const strata_fmt_hybrid_t *)M->impl, alpha, x, beta, y);
}

const strata_impl_format_ops_t strata_impl_format_ops_HYB = {hyb_create, hyb_spmv, hyb_destroy};
