/* strata solvers — preconditioned conjugate gradients (Hestenes–Stiefel 1952; the recurrence of
 * Saad, Iterative Methods, Alg. 9.1). An iteration: the SpMV q = A p, p·q, the fused update
 * x += αp, r -= αq with the new r·z (or r·r), M⁻¹ (fused for Jacobi: z = D⁻¹ r is never stored),
 * the direction p = z + βp; every scalar in device memory, one copy to the host for the tests. */
#include <float.h>
#include <math.h>

#include "../kernels/krylov_args.h"
#include "krylov_impl.h"

STRATA_KERNEL_DECLARE(strata_cg_update);
STRATA_KERNEL_DECLARE(strata_cg_direction);
STRATA_KERNEL_DECLARE(strata_cg_direction_jacobi);

/* p = M⁻¹ r and s[RZ + cur] = r·p, from the true residual r (the start and every restart) */
static strata_status_t cg_start(strata_impl_krylov_t *K, const double *dinv, double *r, double *p, double *z, int cur) {
  strata_status_t st = STRATA_SUCCESS;
  const double *zz = p;
  if (!K->M)
    st = strata_vec_copy(K->exec, K->n, r, p);
  else if (dinv)
    st = strata_precond_apply(K->exec, K->M, r, p);
  else {
    st = strata_precond_apply(K->exec, K->M, r, z);
    if (!st) st = strata_vec_copy(K->exec, K->n, z, p);
    zz = z;
  }
  if (!st) st = strata_vec_dot_async(K->exec, K->n, r, zz, K->ds + STRATA_CG_RZ + cur);
  const int slot = STRATA_CG_RZ + cur;
  if (!st) st = strata_impl_krylov_global(K, &slot, 1);
  return st;
}

strata_status_t strata_impl_cg(strata_impl_krylov_t *K) {
  strata_exec_t *e = K->exec;
  const int32_t n = K->n;
  strata_krylov_result_t *res = K->res;
  double *r = strata_impl_krylov_vector(K, 0), *p = strata_impl_krylov_vector(K, 1);
  double *q = strata_impl_krylov_vector(K, 2), *z = strata_impl_krylov_vector(K, 3);
  const double *dinv = strata_impl_jacobi_dinv(K->M);
  strata_status_t st;
  if (K->comm && K->M) { /* every process takes the same path (the same reductions) */
    double other = dinv ? 0.0 : 1.0;
    if ((st = strata_impl_krylov_max(K, &other, 1))) return st;
    if (other > 0) dinv = NULL;
  }
  const int general = K->M && !dinv;
  const double bnorm_est = sqrt(K->bb);
  int done = 0;
  if ((st = strata_impl_krylov_start(K, r, &done)) || done) return st;
  double rel = 0.0; /* a true residual recomputed in the iteration */
  int cur = 0;
  if ((st = cg_start(K, dinv, r, p, z, cur))) return st;
  strata_cg_args_t a = {K->x, r, p, q, general ? z : r, dinv, K->ds, cur};
  for (int it = 1; it <= K->opts->max_iter; ++it) {
    a.cur = cur;
    const int rz_new = STRATA_CG_RZ + 1 - cur;
    if ((st = strata_operator_apply(e, K->A, 1.0, p, 0.0, q))) return st;
    if ((st = strata_vec_dot_async(e, n, p, q, K->ds + STRATA_CG_PQ))) return st;
    const int pq_slot = STRATA_CG_PQ;
    if ((st = strata_impl_krylov_global(K, &pq_slot, 1))) return st; /* over the processes: the update reads it */
    if ((st = strata_parallel_reduce_async(e, NULL, strata_range(0, n), &strata_cg_update, &a, STRATA_REDUCE_SUM,
                                           K->ds + (general ? STRATA_CG_RR : rz_new))))
      return st;
    if (general) {
      if ((st = strata_precond_apply(e, K->M, r, z))) return st;
      if ((st = strata_vec_dot_async(e, n, r, z, K->ds + rz_new))) return st;
      const int slots[2] = {STRATA_CG_RR, rz_new};
      if ((st = strata_impl_krylov_global(K, slots, 2))) return st;
    } else if ((st = strata_impl_krylov_global(K, &rz_new, 1))) {
      return st;
    }
    if (dinv)
      st = strata_parallel_reduce_async(e, NULL, strata_range(0, n), &strata_cg_direction_jacobi, &a, STRATA_REDUCE_SUM,
                                        K->ds + STRATA_CG_RR);
    else
      st = strata_parallel_for(e, NULL, strata_range(0, n), &strata_cg_direction, &a);
    if (!st && dinv) {
      const int rr_slot = STRATA_CG_RR;
      st = strata_impl_krylov_global(K, &rr_slot, 1);
    }
    if (st) return st;
    if ((st = strata_impl_krylov_scalars(K, STRATA_CG_NUM))) return st; /* the iteration's one wait */
    K->true_current = 0;
    res->iterations = it;
    const double *h = K->hs;
    const double pq = h[STRATA_CG_PQ], rz = h[rz_new], rr = K->M ? h[STRATA_CG_RR] : rz;
    if (!(fabs(pq) <= DBL_MAX) || !(fabs(rz) <= DBL_MAX) || !(rr <= DBL_MAX)) {
      strata_impl_krylov_nonfinite(K);
      return STRATA_SUCCESS;
    }
    if (!(pq > 0)) { /* the update kernel left x and r as they were */
      strata_impl_krylov_breakdown(K, "p·Ap");
      return STRATA_SUCCESS;
    }
    const double est = sqrt(rr) / bnorm_est;
    strata_impl_krylov_history(K, it, est);
    if (est <= K->tol) {
      if ((st = strata_impl_krylov_residual(K, r, &rel))) return st;
      strata_impl_krylov_history(K, it, rel);
      if (strata_impl_krylov_check(K, rel)) return STRATA_SUCCESS;
      cur = 1 - cur;
      if ((st = cg_start(K, dinv, r, p, z, cur))) return st; /* restart from the true residual */
      continue;
    }
    if (!(rz > 0)) { /* r·z <= 0 with r != 0: M (or A) is not positive definite */
      strata_impl_krylov_breakdown(K, "r·z");
      return STRATA_SUCCESS;
    }
    cur = 1 - cur;
  }
  return STRATA_SUCCESS;
}
