/* strata sparse — format "coo": (row, column, value) arrays sorted by row (row ids expanded from
 * the CSR offsets by strata_sparse_impl_row_ids), applied by the load-balanced segmented SpMV of
 * format_lb.h: y = beta·y first, then every team takes an equal tile of entries, each of its
 * participants a contiguous piece; a row held whole by one piece is added with a plain store,
 * a row crossing pieces is summed inside the team (a segmented reduction over the pieces) and
 * added once: a plain store when the row lies inside the team, an atomic add per team it touches
 * otherwise (not a carry-out pass: the order of those adds is not fixed, so y is exact for
 * exactly representable partial sums only). */
#include <stdlib.h>
#include <string.h>

#include "format_lb.h"

STRATA_KERNEL_DECLARE(strata_fmt_lb_spmv);
STRATA_KERNEL_DECLARE(strata_fmt_csr_lb_row_map);

void strata_fmt_lb_tiling(strata_exec_t *exec, int64_t nnz, int64_t *tile, int64_t *per, int64_t *num_teams) {
  const int host = strata_exec_is_host(exec);
  *per = host ? 2048 : 8;
  *tile = host ? 2048 : 256 * 8;
  *num_teams = (nnz + *tile - 1) / *tile;
}

strata_status_t strata_fmt_lb_apply(strata_exec_t *exec, strata_fmt_lb_args_t a, double alpha,
                                    const double *x, double *y) {
  if (a.nnz == 0) return STRATA_SUCCESS;
  a.alpha = alpha;
  a.x = x;
  a.y = y;
  const int threads = (int)(a.tile / a.per);
  strata_team_policy_t pol = strata_team_policy(a.num_teams, threads, 1);
  /* the team's row sums (format_coo.kl.c), then its staged products */
  pol.scratch_team = STRATA_FMT_LB_SCRATCH(threads, a.tile);
  return strata_parallel_for_team(exec, "strata_fmt_lb_spmv", &pol, &strata_fmt_lb_spmv, &a);
}

strata_status_t strata_fmt_lb_row_map(strata_exec_t *exec, const strata_fmt_lb_args_t *a, int32_t *team_row) {
  strata_fmt_row_map_args_t m = {a->row_offsets, a->num_rows, a->tile, team_row};
  return strata_parallel_for(exec, "strata_fmt_csr_lb_row_map", strata_range(0, a->num_teams),
                             &strata_fmt_csr_lb_row_map, &m);
}

typedef struct coo_impl {
  int32_t *rows, *cols;
  double *vals;
  strata_fmt_lb_args_t lb;
} coo_impl_t;

static void coo_destroy(strata_sparse_format_t *M) {
  coo_impl_t *c = (coo_impl_t *)M->impl;
  if (!c) return;
  strata_sparse_impl_free(M->exec, c->rows);
  strata_sparse_impl_free(M->exec, c->cols);
  strata_sparse_impl_free(M->exec, c->vals);
  free(c);
  M->impl = NULL;
}

static strata_status_t coo_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  coo_impl_t *c = (coo_impl_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format coo: %zu bytes", sizeof *c);
  M->impl = c;
  const int64_t nnz = A->nnz;
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(int32_t), (void **)&c->rows);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(int32_t), (void **)&c->cols);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(double), (void **)&c->vals);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, c->cols, A->col_indices, (size_t)nnz * sizeof(int32_t));
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, c->vals, A->values, (size_t)nnz * sizeof(double));
  if (st == STRATA_SUCCESS && nnz > 0) {
    st = strata_sparse_impl_row_ids(exec, A->row_offsets, A->num_rows, c->rows);
    if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  }
  if (st != STRATA_SUCCESS) {
    coo_destroy(M);
    return st;
  }
  memset(&c->lb, 0, sizeof c->lb);
  c->lb.rows = c->rows;
  c->lb.cols = c->cols;
  c->lb.vals = c->vals;
  c->lb.nnz = nnz;
  c->lb.num_rows = A->num_rows;
  strata_fmt_lb_tiling(exec, nnz, &c->lb.tile, &c->lb.per, &c->lb.num_teams);
  M->footprint.bytes = (size_t)nnz * (2 * sizeof(int32_t) + sizeof(double));
  M->footprint.stored = nnz;
  M->footprint.padding = 0;
  M->footprint.overhead = 0.0;
  return STRATA_SUCCESS;
}

static strata_status_t coo_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                const double *x, double beta, double *y) {
  const coo_impl_t *c = (const coo_impl_t *)M->impl;
  /* y = beta y, then the kernel adds alpha x each row's sum (alpha is finite here: formats.c
   * applies a non-finite alpha to the whole sums) */
  strata_status_t st = strata_sparse_impl_scale(exec, c->lb.num_rows, 0.0, beta, y);
  if (st != STRATA_SUCCESS) return st;
  return strata_fmt_lb_apply(exec, c->lb, alpha, x, y);
}

const strata_impl_format_ops_t strata_impl_format_ops_COO = {coo_create, coo_spmv, coo_destroy};
