/* strata solvers — ILU(k) as a preconditioner (strata_precond_create_ilu): setup factors the
 * operator's CrsMatrix, or refactors when the pattern is the one already factored (same rows and
 * entries); apply is strata_ilu_solve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilu_impl.h"
#include "solvers_impl.h"

typedef struct {
  strata_ilu_options_t opts;
  strata_ilu_t *F;
} ilu_precond_t;

static strata_status_t ilu_setup(void *ctx, strata_exec_t *exec, const strata_operator_t *op) {
  ilu_precond_t *c = (ilu_precond_t *)ctx;
  const strata_crs_matrix_t *A = NULL;
  strata_status_t st = strata_operator_crs(op, &A);
  if (st != STRATA_SUCCESS) return st;
  if (c->F && c->F->n == A->num_rows && A->fill_complete && c->F->nnz_a == A->nnz) {
    st = strata_ilu_refactor(exec, c->F, A);
    if (st != STRATA_ERR_INVALID_ARGUMENT) return st; /* INVALID_ARGUMENT: another pattern after all */
  }
  strata_ilu_destroy(&c->F);
  return strata_ilu_create(exec, A, &c->opts, &c->F);
}

static strata_status_t ilu_apply(void *ctx, strata_exec_t *exec, const double *r, double *z) {
  const ilu_precond_t *c = (const ilu_precond_t *)ctx;
  return strata_ilu_solve(exec, c->F, r, z);
}

static void ilu_free(void *ctx) {
  ilu_precond_t *c = (ilu_precond_t *)ctx;
  if (!c) return;
  strata_ilu_destroy(&c->F);
  free(c);
}

static strata_status_t ilu_stats(const void *ctx, strata_precond_stats_t *stats) {
  const ilu_precond_t *c = (const ilu_precond_t *)ctx;
  if (!c->F) {
    memset(stats, 0, sizeof *stats);
    return STRATA_SUCCESS;
  }
  return strata_ilu_stats(c->F, stats);
}

strata_status_t strata_precond_create_ilu(strata_exec_t *exec, const strata_ilu_options_t *opts, strata_precond_t **P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "precond_create_ilu: NULL output");
  *P = NULL;
  ilu_precond_t *c = (ilu_precond_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "precond_create_ilu: its context");
  strata_ilu_options_default(&c->opts);
  if (opts) c->opts = *opts;
  if (c->opts.fill_level < 0 || c->opts.fill_level > 64) {
    const int k = c->opts.fill_level;
    free(c);
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "precond_create_ilu: fill_level = %d (must be in [0, 64])", k);
  }
  char name[32];
  snprintf(name, sizeof name, "ilu(%d)", c->opts.fill_level);
  strata_precond_ops_t ops = {name, ilu_setup, ilu_apply, ilu_free, 0};
  return strata_impl_precond_create(exec, &ops, c, name, ilu_stats, P);
}
