/* strata solve — the parsed options of `strata solve`, shared by the single-process path
 * (solve_cmd.c) and the distributed one under mpirun (solve_dist.c, built with MPI). */
#ifndef STRATA_CLI_SOLVE_ARGS_H
#define STRATA_CLI_SOLVE_ARGS_H

#include "strata/solvers.h"

typedef struct solve_args {
  const char *path, *bspec, *x0path, *out, *pname;
  int json, history, method, restart, max_iter;
  double tol;
  strata_backend_t backend;
  const char *method_name;
  const char *dist_mode;  /* --dist-mode (NULL: vector) */
  int outer_overlap;      /* --outer-overlap K (-1: not given) */
} solve_args_t;

/* Frees what a solve made (every pointer NULL-safe, set to NULL): x (host), the result's
 * history, db and dx (exec memory of e), P, op. */
void solve_release(strata_exec_t *e, double **x, strata_krylov_result_t *res, double **db, double **dx,
                   strata_precond_t **P, strata_operator_t **op);

/* Under mpirun with more than one rank: the distributed solve (rank 0 reads A and distributes
 * it by block rows, x gathered to rank 0 for --out). The exit code of every rank: 0 converged,
 * 3 not converged, 1 input error, 2 usage error (the same on all ranks). MPI is initialized. */
int cmd_solve_dist(const solve_args_t *a);

#endif
