/* strata solvers — private declarations of the operators, vector kernels and Krylov methods
 * (not installed). */
#ifndef STRATA_KRYLOV_IMPL_H
#define STRATA_KRYLOV_IMPL_H

#include "solvers_impl.h"

/* y = ldexp(x, k) (exact power-of-two scaling; x == y allowed). Asynchronous. */
strata_status_t strata_impl_vec_ldexp(strata_exec_t *exec, int32_t n, const double *x, int k, double *y);

/* *result = Σ_i ldexp(x_i, k)^2 (the scaled sum of squares of strata_vec_nrm2). Synchronous. */
strata_status_t strata_impl_vec_sumsq(strata_exec_t *exec, int32_t n, const double *x, int k, double *result);

/* strata_vec_find_nonfinite over an int64 length (the values of a CrsMatrix). Synchronous. */
strata_status_t strata_impl_vec_find_nonfinite(strata_exec_t *exec, int64_t n, const double *x, int64_t *index);

/* The execution space an operator was made on. */
strata_exec_t *strata_impl_operator_exec(const strata_operator_t *op);

/* D⁻¹ of a set-up Jacobi / l1-Jacobi preconditioner (exec memory, [n]), else NULL: CG fuses
 * z = D⁻¹ r into its vector kernels. */
const double *strata_impl_jacobi_dinv(const strata_precond_t *P);

/* True-residual checks in a row whose residual did not fall below STRATA_IMPL_STAGNATION_FACTOR
 * times the one before, after which a method stops with STRATA_SOLVE_STAGNATION. */
#define STRATA_IMPL_STAGNATION_CHECKS 3
#define STRATA_IMPL_STAGNATION_FACTOR 0.5

/* GMRES(m): cycles in a row (ended at m, the estimate above tol) whose true residual is not below
 * (1 - STRATA_IMPL_CYCLE_DECREASE) times the best one before, after which GMRES stops with
 * STRATA_SOLVE_STAGNATION (restarted GMRES never increases the residual; at this rate tol would
 * take thousands of cycles, or never come: GMRES(1) with 0 in the field of values of A). */
#define STRATA_IMPL_STALLED_CYCLES 5
#define STRATA_IMPL_CYCLE_DECREASE 1e-3

/* One solve's state, shared by the methods (krylov.c sets it up). The system is the scaled one:
 * b = 2^scale · (the caller's b), x = 2^scale · (the caller's x), so that max |b_i| is in [1, 2). */
typedef struct strata_impl_krylov {
  strata_exec_t *exec;
  const strata_operator_t *A;
  const strata_precond_t *M; /* NULL: none */
  const strata_operator_comm_t *comm; /* A's processes (NULL: one process, no extra call) */
  int32_t n;
  const strata_krylov_options_t *opts;
  strata_krylov_result_t *res;
  const double *b; /* [n] exec memory: the scaled b */
  double *x;       /* [n] exec memory: the caller's x, scaled */
  double bnorm;    /* ||b||_2 (strata_vec_nrm2) */
  double bb;       /* b·b (the plain dot the methods' estimates compare with) */
  double tol;
  double *work;    /* the method's vectors and device scalars, one allocation (exec memory) */
  int nvec;
  double *ds;      /* device scalars inside work */
  double *hs;      /* their host copy */
  int nscalars;
  int hist_cap;
  int true_current; /* the last true residual computed is that of x as it is now */
  double last_true; /* its relative value */
  int failed_checks, stalls;
  double last_failed;
} strata_impl_krylov_t;

/* Work vector i of the method ([n] exec memory; krylov.c allocates strata_impl_krylov_sizes'
 * vectors and scalars in one block before the iteration). */
double *strata_impl_krylov_vector(const strata_impl_krylov_t *K, int i);

/* Each method runs the iteration on K, sets K->res's status (and breakdown) and iterations;
 * krylov.c computes the final true residual and unscales x. Errors: device faults only. */
strata_status_t strata_impl_cg(strata_impl_krylov_t *K);
strata_status_t strata_impl_bicgstab(strata_impl_krylov_t *K);
strata_status_t strata_impl_gmres(strata_impl_krylov_t *K, int flexible);

/* The start of CG and BiCGSTAB: r = b - A x0 (or r = b without x0), history entry 0; *done = 1
 * when the method stops there (converged, or non-finite: the status is set). */
strata_status_t strata_impl_krylov_start(strata_impl_krylov_t *K, double *r, int *done);

/* r = b - A x and its relative norm ||r|| / ||b|| (scaled norms); counted in
 * res->true_residual_checks. Synchronous. */
strata_status_t strata_impl_krylov_residual(strata_impl_krylov_t *K, double *r, double *rel);

/* After a true residual rel computed because the estimate said converged: 1 when the method
 * stops (converged, or stagnation: the status is set), 0 when it goes on from the true
 * residual. */
int strata_impl_krylov_check(strata_impl_krylov_t *K, double rel);

/* Records the relative residual estimate after iteration it (0: before the first). */
void strata_impl_krylov_history(strata_impl_krylov_t *K, int it, double rel);

/* Operators over several processes (K->comm; nothing without it, the same bits as before):
 * global: the device scalars s[slots[0..count)] (local partial sums) replaced by their sums over
 * the processes (s copied to the host and back); sum / max: host values combined in place;
 * nrm2: ||x||_2 over the processes (the global max |x_i| first, then the scaled sum of squares:
 * with one process the bits of strata_vec_nrm2); agree: the status every process returns. */
strata_status_t strata_impl_krylov_global(strata_impl_krylov_t *K, const int *slots, int count);
strata_status_t strata_impl_krylov_sum(const strata_impl_krylov_t *K, double *v, int count);
strata_status_t strata_impl_krylov_max(const strata_impl_krylov_t *K, double *v, int count);
strata_status_t strata_impl_krylov_nrm2(const strata_impl_krylov_t *K, const double *x, double *result);
strata_status_t strata_impl_krylov_agree(const strata_operator_comm_t *comm, strata_status_t st);

/* Copies the device scalars s[0, count) to K->hs: the iteration's one wait. */
strata_status_t strata_impl_krylov_scalars(strata_impl_krylov_t *K, int count);

/* z = M⁻¹ r (the copy z = r without M; z == r: nothing). */
strata_status_t strata_impl_krylov_precond(strata_impl_krylov_t *K, const double *r, double *z);

/* Sets a breakdown (name the scalar) or a non-finite status. */
void strata_impl_krylov_breakdown(strata_impl_krylov_t *K, const char *scalar);
void strata_impl_krylov_nonfinite(strata_impl_krylov_t *K);

/* Nonzero when one of the doubles is NaN or infinite. */
int strata_impl_any_nonfinite(const double *v, int count);

#endif
