/* strata solvers — what every Krylov method shares (strata/krylov.h): argument checks, the
 * power-of-two scaling of the system, the work vectors, the stopping rule on the true residual,
 * history and results. The iterations are in cg.c, bicgstab.c and gmres.c. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/krylov_args.h"
#include "krylov_impl.h"

static const char *method_name(strata_krylov_method_t m) {
  switch (m) {
    case STRATA_KRYLOV_CG: return "cg";
    case STRATA_KRYLOV_BICGSTAB: return "bicgstab";
    case STRATA_KRYLOV_GMRES: return "gmres";
    case STRATA_KRYLOV_FGMRES: return "fgmres";
    default: return "unknown";
  }
}

const char *strata_solve_status_name(strata_solve_status_t status) {
  switch (status) {
    case STRATA_SOLVE_CONVERGED: return "converged";
    case STRATA_SOLVE_MAX_ITER: return "iteration limit";
    case STRATA_SOLVE_BREAKDOWN: return "breakdown";
    case STRATA_SOLVE_STAGNATION: return "stagnation";
    case STRATA_SOLVE_NONFINITE: return "non-finite";
    default: return "unknown";
  }
}

void strata_krylov_options_default(strata_krylov_options_t *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->method = STRATA_KRYLOV_CG;
  opts->tol = 1e-8;
  opts->max_iter = 1000;
  opts->restart = 30;
  opts->ortho = STRATA_ORTHO_MGS;
}

void strata_krylov_result_free(strata_krylov_result_t *res) {
  if (!res) return;
  free(res->history);
  res->history = NULL;
  res->num_history = 0;
}

/* ------------------------------------------------------------------ helpers of the methods */

double *strata_impl_krylov_vector(const strata_impl_krylov_t *K, int i) { return K->work + (size_t)i * (size_t)K->n; }

int strata_impl_any_nonfinite(const double *v, int count) {
  for (int i = 0; i < count; ++i)
    if (!(fabs(v[i]) <= DBL_MAX)) return 1;
  return 0;
}

strata_status_t strata_impl_krylov_residual(strata_impl_krylov_t *K, double *r, double *rel) {
  strata_status_t st = strata_vec_copy(K->exec, K->n, K->b, r);
  if (!st) st = strata_operator_apply(K->exec, K->A, -1.0, K->x, 1.0, r);
  double nr = 0;
  if (!st) st = strata_impl_krylov_nrm2(K, r, &nr);
  if (st) return st;
  *rel = nr / K->bnorm;
  K->res->true_residual_checks++;
  K->true_current = 1;
  K->last_true = *rel;
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_krylov_start(strata_impl_krylov_t *K, double *r, int *done) {
  strata_krylov_result_t *res = K->res;
  strata_status_t st;
  double rel = 1.0;
  *done = 0;
  if (K->opts->x0_given) {
    if ((st = strata_impl_krylov_residual(K, r, &rel))) return st;
    res->true_residual_checks--; /* the initial residual, not a recomputation */
  } else {
    if ((st = strata_vec_copy(K->exec, K->n, K->b, r))) return st;
    K->true_current = 1;
    K->last_true = rel;
  }
  strata_impl_krylov_history(K, 0, rel);
  if (rel <= K->tol) {
    res->status = STRATA_SOLVE_CONVERGED;
    *done = 1;
  } else if (!(rel <= DBL_MAX)) {
    strata_impl_krylov_nonfinite(K);
    *done = 1;
  }
  return STRATA_SUCCESS;
}

int strata_impl_krylov_check(strata_impl_krylov_t *K, double rel) {
  strata_krylov_result_t *res = K->res;
  if (!(rel == rel) || rel > DBL_MAX) {
    strata_impl_krylov_nonfinite(K);
    return 1;
  }
  if (rel <= K->tol) {
    res->status = STRATA_SOLVE_CONVERGED;
    return 1;
  }
  /* the estimate said converged, the true residual did not: go on from it, unless the last few
   * such checks no longer brought it down by a meaningful factor (the attainable accuracy) */
  if (K->failed_checks > 0 && rel > STRATA_IMPL_STAGNATION_FACTOR * K->last_failed)
    K->stalls++;
  else
    K->stalls = 0;
  K->failed_checks++;
  K->last_failed = rel;
  if (K->stalls >= STRATA_IMPL_STAGNATION_CHECKS) {
    res->status = STRATA_SOLVE_STAGNATION;
    return 1;
  }
  return 0;
}

void strata_impl_krylov_history(strata_impl_krylov_t *K, int it, double rel) {
  strata_krylov_result_t *res = K->res;
  if (!K->opts->history) return;
  if (it >= K->hist_cap) {
    int cap = K->hist_cap ? 2 * K->hist_cap : 64;
    while (cap <= it) cap *= 2;
    double *h = (double *)realloc(res->history, (size_t)cap * sizeof *h);
    if (!h) return; /* the history stops where memory did; the solve goes on */
    res->history = h;
    K->hist_cap = cap;
  }
  /* a restart (GMRES's end of cycle, a failed check) records the iteration again: the last wins */
  for (int i = res->num_history; i < it; ++i) res->history[i] = res->history[i > 0 ? i - 1 : 0];
  res->history[it] = rel;
  if (it + 1 > res->num_history) res->num_history = it + 1;
}

/* ------------------------------------------------------------------ operators over several processes */

strata_status_t strata_impl_krylov_agree(const strata_operator_comm_t *comm, strata_status_t st) {
  return comm ? comm->agree(comm->ctx, st) : st;
}

strata_status_t strata_impl_krylov_sum(const strata_impl_krylov_t *K, double *v, int count) {
  if (!K->comm || count <= 0) return STRATA_SUCCESS;
  return K->comm->reduce(K->comm->ctx, STRATA_OPERATOR_SUM, v, count);
}

strata_status_t strata_impl_krylov_max(const strata_impl_krylov_t *K, double *v, int count) {
  if (!K->comm || count <= 0) return STRATA_SUCCESS;
  return K->comm->reduce(K->comm->ctx, STRATA_OPERATOR_MAX, v, count);
}

strata_status_t strata_impl_krylov_global(strata_impl_krylov_t *K, const int *slots, int count) {
  if (!K->comm || count <= 0) return STRATA_SUCCESS;
  int hi = 0;
  for (int i = 0; i < count; ++i)
    if (slots[i] + 1 > hi) hi = slots[i] + 1;
  double *hg = K->hs + K->nscalars; /* the packed values (krylov.c allocates hs twice as long) */
  strata_status_t st = strata_mem_copy(K->exec, K->hs, K->ds, (size_t)hi * sizeof(double));
  if (st) return st;
  for (int i = 0; i < count; ++i) hg[i] = K->hs[slots[i]];
  if ((st = K->comm->reduce(K->comm->ctx, STRATA_OPERATOR_SUM, hg, count))) return st;
  for (int i = 0; i < count; ++i) K->hs[slots[i]] = hg[i];
  return strata_mem_copy(K->exec, K->ds, K->hs, (size_t)hi * sizeof(double));
}

strata_status_t strata_impl_krylov_nrm2(const strata_impl_krylov_t *K, const double *x, double *result) {
  if (!K->comm) return strata_vec_nrm2(K->exec, K->n, x, result);
  double m = 0;
  strata_status_t st = strata_vec_amax(K->exec, K->n, x, &m);
  if (!st) st = strata_impl_krylov_max(K, &m, 1);
  if (st) return st;
  if (m == 0.0 || !(m <= DBL_MAX)) { /* 0, +inf or NaN on some process: the norm itself */
    *result = m;
    return STRATA_SUCCESS;
  }
  const int k = -ilogb(m); /* the global largest |x_i| in [1, 2): strata_vec_nrm2's scaling */
  double ss = 0;
  if ((st = strata_impl_vec_sumsq(K->exec, K->n, x, k, &ss))) return st;
  if ((st = strata_impl_krylov_sum(K, &ss, 1))) return st;
  *result = ldexp(sqrt(ss), -k);
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_krylov_scalars(strata_impl_krylov_t *K, int count) {
  return strata_mem_copy(K->exec, K->hs, K->ds, (size_t)count * sizeof(double));
}

strata_status_t strata_impl_krylov_precond(strata_impl_krylov_t *K, const double *r, double *z) {
  if (K->M) return strata_precond_apply(K->exec, K->M, r, z);
  return strata_vec_copy(K->exec, K->n, r, z);
}

void strata_impl_krylov_breakdown(strata_impl_krylov_t *K, const char *scalar) {
  K->res->status = STRATA_SOLVE_BREAKDOWN;
  K->res->breakdown = scalar;
}

void strata_impl_krylov_nonfinite(strata_impl_krylov_t *K) { K->res->status = STRATA_SOLVE_NONFINITE; }

/* ------------------------------------------------------------------------------ the solve */

static strata_status_t check_args(strata_exec_t *exec, const strata_operator_t *A, const strata_precond_t *M,
                                  const double *b, const double *x, const strata_krylov_options_t *o,
                                  strata_krylov_result_t *res, int32_t *n) {
  const char *w = "strata_krylov_solve";
  if (!exec || !A || !res)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", w, !exec ? "exec" : !A ? "A" : "res");
  int32_t rows = 0, cols = 0;
  strata_operator_size(A, &rows, &cols);
  if (rows != cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: A is %d x %d (num_rows %d != num_cols %d); a Krylov method needs a square operator", w,
                            (int)rows, (int)cols, (int)rows, (int)cols);
  *n = rows;
  if (rows > 0 && (!b || !x))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s with n = %d", w, !b ? "b" : "x", (int)rows);
  if ((int)o->method < 0 || (int)o->method > STRATA_KRYLOV_FGMRES)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: method = %d (must be 0..3: cg, bicgstab, gmres, fgmres)",
                            w, (int)o->method);
  if (!(o->tol > 0) || !(o->tol <= DBL_MAX))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: tol = %g (must be finite and > 0)", w, o->tol);
  if (o->max_iter < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: max_iter = %d (must be >= 0)", w, o->max_iter);
  const int gm = o->method == STRATA_KRYLOV_GMRES || o->method == STRATA_KRYLOV_FGMRES;
  if (gm && o->restart < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s (%s): restart = %d (must be >= 1)", w,
                            method_name(o->method), o->restart);
  if (gm && (o->ortho != STRATA_ORTHO_MGS && o->ortho != STRATA_ORTHO_CGS2))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s (%s): ortho = %d (must be 0 MGS or 1 CGS2)", w,
                            method_name(o->method), (int)o->ortho);
  if (M) {
    if (strata_precond_is_variable(M) && o->method != STRATA_KRYLOV_FGMRES)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "%s: preconditioner '%s' is variable (it changes between applications); %s needs a "
                              "fixed one: use fgmres",
                              w, strata_precond_name(M), method_name(o->method));
    if (!M->set_up)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "%s: preconditioner '%s' is not set up (call strata_precond_setup first)", w,
                              strata_precond_name(M));
    if (M->n != rows)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "%s: preconditioner '%s' was set up for %d rows, A has %d", w, strata_precond_name(M),
                              (int)M->n, (int)rows);
  }
  int64_t bad = -1;
  strata_status_t st = strata_vec_find_nonfinite(exec, rows, b, &bad);
  if (st) return st;
  if (bad >= 0) {
    double v = 0;
    strata_mem_copy(exec, &v, b + bad, sizeof v);
    return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: b[%lld] = %g is not finite (b must be finite)", w,
                            (long long)bad, v);
  }
  if (o->x0_given) {
    if ((st = strata_vec_find_nonfinite(exec, rows, x, &bad))) return st;
    if (bad >= 0) {
      double v = 0;
      strata_mem_copy(exec, &v, x + bad, sizeof v);
      return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: x0[%lld] = %g is not finite (the initial guess must be finite)",
                              w, (long long)bad, v);
    }
  }
  return STRATA_SUCCESS;
}

/* Over several processes: the options and the presence of M the same on every process (else
 * their iterations would part at a collective). */
static strata_status_t same_options(const strata_operator_comm_t *comm, const strata_precond_t *M,
                                    const strata_krylov_options_t *o) {
  enum { NV = 7 };
  const double v[NV] = {(double)o->method, o->tol, (double)o->max_iter, (double)o->restart, (double)o->ortho,
                        (double)(o->x0_given != 0), (double)(M != NULL)};
  double hi[2 * NV];
  for (int i = 0; i < NV; ++i) hi[i] = v[i], hi[NV + i] = -v[i];
  strata_status_t st = comm->reduce(comm->ctx, STRATA_OPERATOR_MAX, hi, 2 * NV);
  if (st) return st;
  static const char *const names[NV] = {"method", "tol", "max_iter", "restart", "ortho", "x0_given", "a preconditioner"};
  for (int i = 0; i < NV; ++i)
    if (hi[i] != -hi[NV + i])
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "strata_krylov_solve: %s differs between the processes of A (from %g to %g); it must be "
                              "the same on all of them",
                              names[i], -hi[NV + i], hi[i]);
  return STRATA_SUCCESS;
}

/* vectors and device scalars of each method */
static void method_sizes(const strata_krylov_options_t *o, const strata_precond_t *M, int *nvec, int *nscalars) {
  const int m = o->restart;
  switch (o->method) {
    case STRATA_KRYLOV_CG:
      *nvec = 4; /* r, p, q, z */
      *nscalars = STRATA_CG_NUM;
      break;
    case STRATA_KRYLOV_BICGSTAB:
      *nvec = M ? 7 : 5; /* r, r̂, p, v, t (, p̂, ŝ) */
      *nscalars = STRATA_BI_NUM;
      break;
    case STRATA_KRYLOV_GMRES:
      *nvec = m + 3; /* V [m+1], z, u */
      *nscalars = 3 * m + 4;
      break;
    default:
      *nvec = 2 * m + 1; /* V [m+1], Z [m] */
      *nscalars = 3 * m + 4;
      break;
  }
}

strata_status_t strata_krylov_solve(strata_exec_t *exec, const strata_operator_t *A, const strata_precond_t *M,
                                    const double *b, double *x, const strata_krylov_options_t *opts,
                                    strata_krylov_result_t *res) {
  if (res) memset(res, 0, sizeof *res);
  strata_krylov_options_t o;
  if (opts)
    o = *opts;
  else
    strata_krylov_options_default(&o);
  int32_t n = 0;
  const strata_operator_comm_t *comm = NULL;
  if (A) strata_operator_comm(A, &comm);
  /* an argument refused on one process is refused on all of them */
  strata_status_t st = strata_impl_krylov_agree(comm, check_args(exec, A, M, b, x, &o, res, &n));
  if (st) return st;
  if (comm && (st = same_options(comm, M, &o))) return st;
  const double t0 = strata_timer_now();
  res->status = STRATA_SOLVE_MAX_ITER;

  strata_impl_krylov_t K;
  memset(&K, 0, sizeof K);
  K.exec = exec;
  K.A = A;
  K.M = M;
  K.comm = comm;
  K.n = n;
  K.opts = &o;
  K.res = res;
  K.x = x;
  K.tol = o.tol;

  double bmax = 0;
  if ((st = strata_vec_amax(exec, n, b, &bmax))) return st;
  if ((st = strata_impl_krylov_max(&K, &bmax, 1))) return st;
  if (bmax == 0.0) { /* b = 0: x = 0 after 0 iterations */
    if ((st = strata_vec_fill(exec, n, 0.0, x))) return st;
    res->status = STRATA_SOLVE_CONVERGED;
    strata_impl_krylov_history(&K, 0, 0.0);
    res->setup_s = strata_timer_now() - t0;
    return strata_exec_fence(exec);
  }
  /* 2^scale · b has its largest entry in [1, 2) (exact: a power of two) */
  const int scale = -ilogb(bmax);
  int nvec = 0;
  method_sizes(&o, M, &nvec, &K.nscalars);
  K.nvec = nvec;
  const size_t nd = (size_t)(nvec + 1) * (size_t)n + (size_t)K.nscalars;
  st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, nd * sizeof(double), (void **)&K.work);
  K.hs = (double *)calloc(2 * (size_t)K.nscalars, sizeof(double)); /* and the packed values of krylov_global */
  if (!st && !K.hs) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_krylov_solve: %d scalars", K.nscalars);
  if ((st = strata_impl_krylov_agree(comm, st))) { /* memory short on one process: on all */
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&K.work);
    free(K.hs);
    return st;
  }
  K.ds = K.work + (size_t)(nvec + 1) * (size_t)n;
  double *bs = strata_impl_krylov_vector(&K, nvec);
  K.b = bs;
  if (!st) st = strata_impl_vec_ldexp(exec, n, b, scale, bs);
  if (!st) st = o.x0_given ? strata_impl_vec_ldexp(exec, n, x, scale, x) : strata_vec_fill(exec, n, 0.0, x);
  if (!st) st = strata_impl_krylov_nrm2(&K, bs, &K.bnorm);
  if (!st) st = strata_vec_dot(exec, n, bs, bs, &K.bb);
  if (!st) st = strata_impl_krylov_sum(&K, &K.bb, 1);
  if (!st) st = strata_exec_fence(exec);
  const double t1 = strata_timer_now();
  res->setup_s = t1 - t0;

  if (!st) {
    switch (o.method) {
      case STRATA_KRYLOV_CG: st = strata_impl_cg(&K); break;
      case STRATA_KRYLOV_BICGSTAB: st = strata_impl_bicgstab(&K); break;
      case STRATA_KRYLOV_GMRES: st = strata_impl_gmres(&K, 0); break;
      default: st = strata_impl_gmres(&K, 1); break;
    }
  }
  /* the final true residual of x as it is (the methods leave it current when they checked last) */
  if (!st && !K.true_current) {
    double rel = 0;
    const int checks = res->true_residual_checks;
    st = strata_impl_krylov_residual(&K, strata_impl_krylov_vector(&K, 0), &rel);
    res->true_residual_checks = checks; /* the result's, not a recomputation of the stopping rule */
  }
  if (!st) {
    res->rel_residual = K.last_true;
    if (!(K.last_true <= DBL_MAX))
      res->status = STRATA_SOLVE_NONFINITE;
    else if (res->status == STRATA_SOLVE_MAX_ITER && K.last_true <= o.tol)
      res->status = STRATA_SOLVE_CONVERGED; /* the definition: the true residual is within tol */
    if (res->status != STRATA_SOLVE_BREAKDOWN) res->breakdown = NULL;
    st = strata_impl_vec_ldexp(exec, n, x, -scale, x);
  }
  /* the scaled x may be finite and the caller's not (b near the largest double, A contracting): a
   * solution that does not fit in a double is not converged */
  int64_t bad = -1;
  if (!st) st = strata_vec_find_nonfinite(exec, n, x, &bad);
  if (!st && comm) { /* a non-finite x on any process */
    double any = bad >= 0 ? 1.0 : 0.0;
    st = strata_impl_krylov_max(&K, &any, 1);
    if (!st && any > 0 && bad < 0) bad = INT64_MAX;
  }
  if (!st && bad >= 0 && res->status != STRATA_SOLVE_NONFINITE) {
    res->status = STRATA_SOLVE_NONFINITE;
    res->breakdown = NULL;
  }
  if (!st) st = strata_exec_fence(exec);
  res->solve_s = strata_timer_now() - t1;
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&K.work);
  free(K.hs);
  if (st) return st;
  if (res->status != STRATA_SOLVE_CONVERGED) {
    if (res->status == STRATA_SOLVE_BREAKDOWN)
      return strata_error_set(STRATA_ERR_NOT_CONVERGED,
                              "strata_krylov_solve (%s, %s): breakdown: %s vanished after %d iterations; true relative "
                              "residual %g (tol %g)",
                              method_name(o.method), strata_precond_name(M), res->breakdown, res->iterations,
                              res->rel_residual, o.tol);
    if (res->status == STRATA_SOLVE_NONFINITE)
      return strata_error_set(STRATA_ERR_NOT_CONVERGED,
                              "strata_krylov_solve (%s, %s): non-finite after %d iterations: %s holds a NaN or an "
                              "infinity (a solution beyond the double range, or an overflow in the iteration)",
                              method_name(o.method), strata_precond_name(M), res->iterations,
                              bad >= 0 ? "x" : "an iterate");
    return strata_error_set(STRATA_ERR_NOT_CONVERGED,
                            "strata_krylov_solve (%s, %s): %s after %d iterations (max_iter %d); true relative residual "
                            "%g > tol %g",
                            method_name(o.method), strata_precond_name(M), strata_solve_status_name(res->status),
                            res->iterations, o.max_iter, res->rel_residual, o.tol);
  }
  return STRATA_SUCCESS;
}
