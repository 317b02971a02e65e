/* strata sparse — format "csr-lb": load-balanced CSR. A copy of the CSR arrays and a row-start
 * map (team_row[t] = the row holding team t's first entry, found by a binary-search kernel over
 * the row offsets); the SpMV is the segmented one of format_lb.h shared with coo (y = beta·y,
 * then equal tiles of entries per team, rows crossing pieces combined by atomic adds). */
#include <stdlib.h>
#include <string.h>

#include "format_lb.h"

typedef struct csr_lb_impl {
  strata_crs_matrix_t *A;
  int32_t *team_row;
  strata_fmt_lb_args_t lb;
} csr_lb_impl_t;

static void csr_lb_destroy(strata_sparse_format_t *M) {
  csr_lb_impl_t *c = (csr_lb_impl_t *)M->impl;
  if (!c) return;
  strata_sparse_impl_free(M->exec, c->team_row);
  strata_crs_destroy(&c->A);
  free(c);
  M->impl = NULL;
}

static strata_status_t csr_lb_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                     const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  csr_lb_impl_t *c = (csr_lb_impl_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format csr-lb: %zu bytes", sizeof *c);
  M->impl = c;
  strata_status_t st = strata_crs_copy(exec, A, &c->A);
  memset(&c->lb, 0, sizeof c->lb);
  if (st == STRATA_SUCCESS) {
    c->lb.row_offsets = c->A->row_offsets;
    c->lb.cols = c->A->col_indices;
    c->lb.vals = c->A->values;
    c->lb.nnz = A->nnz;
    c->lb.num_rows = A->num_rows;
    strata_fmt_lb_tiling(exec, A->nnz, &c->lb.tile, &c->lb.per, &c->lb.num_teams);
    st = strata_sparse_impl_alloc(exec, (size_t)c->lb.num_teams * sizeof(int32_t), (void **)&c->team_row);
  }
  if (st == STRATA_SUCCESS && c->lb.num_teams > 0) {
    st = strata_fmt_lb_row_map(exec, &c->lb, c->team_row);
    if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  }
  if (st != STRATA_SUCCESS) {
    csr_lb_destroy(M);
    return st;
  }
  c->lb.team_row = c->team_row;
  M->footprint.bytes = (size_t)(A->num_rows + 1) * sizeof(int64_t) +
                       (size_t)A->nnz * (sizeof(int32_t) + sizeof(double)) +
                       (size_t)c->lb.num_teams * sizeof(int32_t);
  M->footprint.stored = A->nnz;
  M->footprint.padding = 0;
  M->footprint.overhead = 0.0;
  return STRATA_SUCCESS;
}

static strata_status_t csr_lb_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                   const double *x, double beta, double *y) {
  const csr_lb_impl_t *c = (const csr_lb_impl_t *)M->impl;
  /* y = beta y, then the kernel adds alpha x each row's sum (alpha is finite here: formats.c
   * applies a non-finite alpha to the whole sums) */
  strata_status_t st = strata_sparse_impl_scale(exec, c->lb.num_rows, 0.0, beta, y);
  if (st != STRATA_SUCCESS) return st;
  return strata_fmt_lb_apply(exec, c->lb, alpha, x, y);
}

const strata_impl_format_ops_t strata_impl_format_ops_CSR_LB = {csr_lb_create, csr_lb_spmv, csr_lb_destroy};
