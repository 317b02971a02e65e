/* strata solvers — BiCGSTAB (van der Vorst 1992; Saad, Iterative Methods, Alg. 7.7) with right
 * preconditioning: A M⁻¹ u = b, x = M⁻¹ u, so that r is the true recurrence residual. One
 * iteration (two SpMVs): the direction p = r + β(p - ωv), p̂ = M⁻¹p, v = A p̂, r̂·v, the half step
 * s = r - αv with s·s, ŝ = M⁻¹s, t = A ŝ, t·s, t·t, the update x += αp̂ + ωŝ, r = s - ωt with r·r,
 * and r̂·r. The test at the half step happens on the device (the update takes ω = 0 when s·s is
 * below the threshold), so that the iteration still waits for the host once. */
#include <float.h>
#include <math.h>

#include "../kernels/krylov_args.h"
#include "krylov_impl.h"

STRATA_KERNEL_DECLARE(strata_bicgstab_direction);
STRATA_KERNEL_DECLARE(strata_bicgstab_half);
STRATA_KERNEL_DECLARE(strata_bicgstab_update);

strata_status_t strata_impl_bicgstab(strata_impl_krylov_t *K) {
  strata_exec_t *e = K->exec;
  const int32_t n = K->n;
  strata_krylov_result_t *res = K->res;
  double *r = strata_impl_krylov_vector(K, 0), *rh = strata_impl_krylov_vector(K, 1);
  double *p = strata_impl_krylov_vector(K, 2), *v = strata_impl_krylov_vector(K, 3);
  double *t = strata_impl_krylov_vector(K, 4);
  double *ph = K->M ? strata_impl_krylov_vector(K, 5) : p;
  double *sh = K->M ? strata_impl_krylov_vector(K, 6) : r; /* s lives in r */
  const double bn = sqrt(K->bb);
  strata_status_t st;
  int done = 0;
  if ((st = strata_impl_krylov_start(K, r, &done)) || done) return st;
  double rel = 0.0; /* a true residual recomputed in the iteration */
  /* thresholds on s·s and r·r: sqrt(ss) <= tol·||b|| */
  const double thr = (K->tol * bn) * (K->tol * bn);
  strata_bicgstab_args_t a = {K->x, r, p, v, t, ph, sh, K->ds, 0, 1, thr};
  int cur = 0;
  /* (re)start: r̂ = r, rho = r̂·r */
  if ((st = strata_vec_copy(e, n, r, rh))) return st;
  if ((st = strata_vec_dot_async(e, n, rh, r, K->ds + STRATA_BI_RHO + cur))) return st;
  int slots[3] = {STRATA_BI_RHO + cur, 0, 0}; /* the scalars summed over the processes before their use */
  if ((st = strata_impl_krylov_global(K, slots, 1))) return st;
  for (int it = 1; it <= K->opts->max_iter; ++it) {
    a.cur = cur;
    if ((st = strata_parallel_for(e, NULL, strata_range(0, n), &strata_bicgstab_direction, &a))) return st;
    a.first = 0;
    if (K->M && (st = strata_precond_apply(e, K->M, p, ph))) return st;
    if ((st = strata_operator_apply(e, K->A, 1.0, ph, 0.0, v))) return st;
    if ((st = strata_vec_dot_async(e, n, rh, v, K->ds + STRATA_BI_RV))) return st;
    slots[0] = STRATA_BI_RV;
    if ((st = strata_impl_krylov_global(K, slots, 1))) return st;
    if ((st = strata_parallel_reduce_async(e, NULL, strata_range(0, n), &strata_bicgstab_half, &a, STRATA_REDUCE_SUM,
                                           K->ds + STRATA_BI_SS)))
      return st;
    if (K->M && (st = strata_precond_apply(e, K->M, r, sh))) return st;
    if ((st = strata_operator_apply(e, K->A, 1.0, sh, 0.0, t))) return st;
    if ((st = strata_vec_dot_async(e, n, t, r, K->ds + STRATA_BI_TS))) return st;
    if ((st = strata_vec_dot_async(e, n, t, t, K->ds + STRATA_BI_TT))) return st;
    slots[0] = STRATA_BI_SS, slots[1] = STRATA_BI_TS, slots[2] = STRATA_BI_TT;
    if ((st = strata_impl_krylov_global(K, slots, 3))) return st;
    if ((st = strata_parallel_reduce_async(e, NULL, strata_range(0, n), &strata_bicgstab_update, &a, STRATA_REDUCE_SUM,
                                           K->ds + STRATA_BI_RR)))
      return st;
    if ((st = strata_vec_dot_async(e, n, rh, r, K->ds + STRATA_BI_RHO + 1 - cur))) return st;
    slots[0] = STRATA_BI_RR, slots[1] = STRATA_BI_RHO + 1 - cur;
    if ((st = strata_impl_krylov_global(K, slots, 2))) return st;
    if ((st = strata_impl_krylov_scalars(K, STRATA_BI_NUM))) return st; /* the iteration's one wait */
    K->true_current = 0;
    res->iterations = it;
    const double *h = K->hs;
    const double rho = h[STRATA_BI_RHO + cur], rv = h[STRATA_BI_RV], ss = h[STRATA_BI_SS];
    const double ts = h[STRATA_BI_TS], tt = h[STRATA_BI_TT], rr = h[STRATA_BI_RR];
    const double rho_new = h[STRATA_BI_RHO + 1 - cur];
    const int half = ss <= thr; /* the kernels' own test, on the same doubles */
    if (!(fabs(rv) <= DBL_MAX) || !(ss <= DBL_MAX) ||
        (!half && (!(fabs(ts) <= DBL_MAX) || !(tt <= DBL_MAX) || !(rr <= DBL_MAX) || !(fabs(rho_new) <= DBL_MAX)))) {
      strata_impl_krylov_nonfinite(K);
      return STRATA_SUCCESS;
    }
    if (rv == 0.0) { /* alpha = rho / r̂·v: the kernels took alpha = 0 */
      strata_impl_krylov_breakdown(K, "r̂·v");
      return STRATA_SUCCESS;
    }
    const double est = sqrt(half ? ss : rr) / bn;
    strata_impl_krylov_history(K, it, est);
    if (half || est <= K->tol) {
      if ((st = strata_impl_krylov_residual(K, r, &rel))) return st;
      strata_impl_krylov_history(K, it, rel);
      if (strata_impl_krylov_check(K, rel)) return STRATA_SUCCESS;
      /* restart from the true residual */
      a.first = 1;
      cur = 1 - cur;
      if ((st = strata_vec_copy(e, n, r, rh))) return st;
      if ((st = strata_vec_dot_async(e, n, rh, r, K->ds + STRATA_BI_RHO + cur))) return st;
      slots[0] = STRATA_BI_RHO + cur;
      if ((st = strata_impl_krylov_global(K, slots, 1))) return st;
      continue;
    }
    if (tt == 0.0) { /* t = A ŝ = 0 with s != 0 */
      strata_impl_krylov_breakdown(K, "t·t");
      return STRATA_SUCCESS;
    }
    if (ts == 0.0) {
      strata_impl_krylov_breakdown(K, "omega");
      return STRATA_SUCCESS;
    }
    if (rho_new == 0.0) {
      strata_impl_krylov_breakdown(K, "rho");
      return STRATA_SUCCESS;
    }
    (void)rho;
    cur = 1 - cur;
  }
  return STRATA_SUCCESS;
}
