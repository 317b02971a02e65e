/* strata solvers — private declarations shared by the module's sources (not installed). */
#ifndef STRATA_SOLVERS_IMPL_H
#define STRATA_SOLVERS_IMPL_H

#include "strata/solvers.h"

/* Statistics callback of a built-in preconditioner (NULL: the stats are zeros). */
typedef strata_status_t (*strata_impl_precond_stats_fn)(const void *ctx, strata_precond_stats_t *stats);

struct strata_precond {
  strata_exec_t *exec;
  strata_precond_ops_t ops;
  void *ctx;
  strata_impl_precond_stats_fn stats_fn;
  char name[96];
  int set_up;  /* setup succeeded for an operator of n rows */
  int32_t n;
};

/* A preconditioner with the given callbacks, name (copied, cut to 95 bytes) and stats. The
 * built-ins (Jacobi, ILU, Schwarz) are made through it; on error ctx is destroyed with
 * ops->destroy. */
strata_status_t strata_impl_precond_create(strata_exec_t *exec, const strata_precond_ops_t *ops, void *ctx,
                                           const char *name, strata_impl_precond_stats_fn stats_fn,
                                           strata_precond_t **P);

#endif
