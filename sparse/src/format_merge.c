/* strata sparse — format "merge": merge-path CSR (Merrill & Garland, SC'16). A copy of the CSR
 * arrays and, per tile of n + nnz path steps, the row where the tile starts (a search kernel at
 * conversion). The SpMV is one launch over tiles (every thread the same number of steps, partial
 * rows combined in team scratch in thread order) and a fixup launch that adds the rows still open
 * at tile ends, in tile order: deterministic, no atomics. Kernels: sparse/kernels/format_merge.kl.c.
 * Tiles: GPU 128 threads × 7 steps (Merrill & Garland's fp64 setting is of that size); host one
 * thread × 4096 steps. */
#include <stdlib.h>
#include <string.h>

#include "format_impl.h"

#include "../kernels/format_merge_args.h"

STRATA_KERNEL_DECLARE(strata_fmt_merge_tiles);
STRATA_KERNEL_DECLARE(strata_fmt_merge_spmv);
STRATA_KERNEL_DECLARE(strata_fmt_merge_fixup);

typedef struct merge_impl {
  strata_crs_matrix_t *A;
  int64_t *tile_row;
  int32_t *carry_row;
  double *carry_val;
  int team_size;
  strata_fmt_merge_args_t m;
} merge_impl_t;

static void merge_destroy(strata_sparse_format_t *M) {
  merge_impl_t *c = (merge_impl_t *)M->impl;
  if (!c) return;
  strata_sparse_impl_free(M->exec, c->tile_row);
  strata_sparse_impl_free(M->exec, c->carry_row);
  strata_sparse_impl_free(M->exec, c->carry_val);
  strata_crs_destroy(&c->A);
  free(c);
  M->impl = NULL;
}

static strata_status_t merge_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                    const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  merge_impl_t *c = (merge_impl_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format merge: %zu bytes", sizeof *c);
  M->impl = c;
  const int host = strata_exec_is_host(exec);
  c->team_size = host ? 1 : 128;
  strata_fmt_merge_args_t *m = &c->m;
  memset(m, 0, sizeof *m);
  m->per = host ? 4096 : 7;
  m->tile = c->team_size * m->per;
  m->num_rows = A->num_rows;
  m->nnz = A->nnz;
  m->num_teams = (A->num_rows + A->nnz + m->tile - 1) / m->tile;
  strata_status_t st = strata_crs_copy(exec, A, &c->A);
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_alloc(exec, (size_t)(m->num_teams + 1) * sizeof(int64_t), (void **)&c->tile_row);
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_alloc(exec, (size_t)m->num_teams * sizeof(int32_t), (void **)&c->carry_row);
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_alloc(exec, (size_t)m->num_teams * sizeof(double), (void **)&c->carry_val);
  if (st == STRATA_SUCCESS) {
    m->row_offsets = c->A->row_offsets;
    m->cols = c->A->col_indices;
    m->vals = c->A->values;
    m->tile_row = c->tile_row;
    m->carry_row = c->carry_row;
    m->carry_val = c->carry_val;
    st = strata_parallel_for(exec, "strata_fmt_merge_tiles", strata_range(0, m->num_teams + 1),
                             &strata_fmt_merge_tiles, m);
    if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  }
  if (st != STRATA_SUCCESS) {
    merge_destroy(M);
    return st;
  }
  M->footprint.bytes = (size_t)(A->num_rows + 1) * sizeof(int64_t) +
                       (size_t)A->nnz * (sizeof(int32_t) + sizeof(double)) +
                       (size_t)(m->num_teams + 1) * sizeof(int64_t) +
                       (size_t)m->num_teams * (sizeof(int32_t) + sizeof(double));
  M->footprint.stored = A->nnz;
  M->footprint.padding = 0;
  M->footprint.overhead = 0.0;
  return STRATA_SUCCESS;
}

static strata_status_t merge_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                  const double *x, double beta, double *y) {
  const merge_impl_t *c = (const merge_impl_t *)M->impl;
  strata_fmt_merge_args_t m = c->m;
  m.alpha = alpha;
  m.beta = beta;
  m.x = x;
  m.y = y;
  strata_team_policy_t pol = strata_team_policy(m.num_teams, c->team_size, 1);
  pol.scratch_team = (size_t)(2 * m.tile + 1) * sizeof(double) + (size_t)c->team_size * (sizeof(double) + sizeof(int32_t));
  strata_status_t st = strata_parallel_for_team(exec, "strata_fmt_merge_spmv", &pol, &strata_fmt_merge_spmv, &m);
  if (st != STRATA_SUCCESS) return st;
  return strata_parallel_for(exec, "strata_fmt_merge_fixup", strata_range(0, m.num_teams), &strata_fmt_merge_fixup, &m);
}

const strata_impl_format_ops_t strata_impl_format_ops_MERGE = {merge_create, merge_spmv, merge_destroy};
