/* strata solvers — the preconditioner interface (strata/precond.h): every preconditioner, built-in
 * or the user's, is a table of callbacks around a context (solvers_impl.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "krylov_impl.h"

strata_status_t strata_impl_precond_create(strata_exec_t *exec, const strata_precond_ops_t *ops, void *ctx,
                                           const char *name, strata_impl_precond_stats_fn stats_fn,
                                           strata_precond_t **P) {
  strata_status_t st = STRATA_SUCCESS;
  if (!P) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond: NULL P");
  else if (!exec) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond: NULL exec");
  else if (!ops || !ops->apply) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond: NULL %s", !ops ? "ops" : "ops->apply");
  strata_precond_t *p = NULL;
  if (!st) {
    p = (strata_precond_t *)calloc(1, sizeof *p);
    if (!p) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_precond: %zu bytes", sizeof *p);
  }
  if (st) {
    if (ops && ops->destroy) ops->destroy(ctx);
    if (P) *P = NULL;
    return st;
  }
  p->exec = exec;
  p->ops = *ops;
  p->ctx = ctx;
  p->stats_fn = stats_fn;
  snprintf(p->name, sizeof p->name, "%s", name ? name : ops->name ? ops->name : "user");
  p->ops.name = p->name;
  *P = p;
  return STRATA_SUCCESS;
}

strata_status_t strata_precond_create_user(strata_exec_t *exec, const strata_precond_ops_t *ops, void *ctx,
                                           strata_precond_t **P) {
  if (!P || !ops || !ops->apply)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_user: NULL %s",
                            !P ? "P" : !ops ? "ops" : "ops->apply");
  /* the user keeps ctx when the call fails: no destroy callback on this path */
  strata_precond_ops_t o = *ops;
  o.destroy = NULL;
  strata_status_t st = strata_impl_precond_create(exec, &o, ctx, ops->name, NULL, P);
  if (!st) (*P)->ops.destroy = ops->destroy;
  return st;
}

strata_status_t strata_precond_setup(strata_exec_t *exec, strata_precond_t *P, const strata_operator_t *A) {
  if (!P || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_setup: NULL %s", !P ? "P" : "A");
  if (!exec) exec = P->exec;
  int32_t rows = 0, cols = 0;
  strata_operator_size(A, &rows, &cols);
  if (rows != cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "strata_precond_setup (%s): the operator is %d x %d, a preconditioner needs a square one",
                            P->name, (int)rows, (int)cols);
  P->set_up = 0;
  strata_status_t st = P->ops.setup ? P->ops.setup(P->ctx, exec, A) : STRATA_SUCCESS;
  if (st) return st;
  P->n = rows;
  P->set_up = 1;
  return STRATA_SUCCESS;
}

strata_status_t strata_precond_apply(strata_exec_t *exec, const strata_precond_t *P, const double *r, double *z) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_apply: NULL P");
  if (!P->set_up)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "strata_precond_apply (%s): not set up (call strata_precond_setup first)", P->name);
  if (P->n > 0 && (!r || !z))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_apply (%s): NULL %s with n = %d", P->name,
                            !r ? "r" : "z", (int)P->n);
  if (!exec) exec = P->exec;
  return P->ops.apply(P->ctx, exec, r, z);
}

const char *strata_precond_name(const strata_precond_t *P) { return P ? P->name : "none"; }

int strata_precond_is_variable(const strata_precond_t *P) { return P ? P->ops.variable != 0 : 0; }

strata_status_t strata_precond_stats(const strata_precond_t *P, strata_precond_stats_t *stats) {
  if (!P || !stats)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_stats: NULL %s", !P ? "P" : "stats");
  memset(stats, 0, sizeof *stats);
  return P->stats_fn ? P->stats_fn(P->ctx, stats) : STRATA_SUCCESS;
}

strata_status_t strata_precond_destroy(strata_precond_t **P) {
  if (!P || !*P) return STRATA_SUCCESS;
  if ((*P)->ops.destroy) (*P)->ops.destroy((*P)->ctx);
  free(*P);
  *P = NULL;
  return STRATA_SUCCESS;
}
