/* strata solvers — GMRES(m) (Saad & Schultz 1986) and flexible GMRES(m) (Saad 1993), right
 * preconditioned: the Arnoldi basis V of A M⁻¹ by modified Gram–Schmidt (one fused pass per basis
 * vector: w -= h_{i-1} v_{i-1} with the next dot product) or classical Gram–Schmidt with one
 * reorthogonalization; the Hessenberg matrix on the host, reduced by Givens rotations as its columns
 * come, so that |g_{j+1}| estimates ||b - A x_j|| without forming x_j. Each cycle ends with
 * x += M⁻¹ V y (FGMRES: x += Z y, Z the preconditioned vectors) and the true residual, which
 * starts the next cycle. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../kernels/krylov_args.h"
#include "krylov_impl.h"

/* Breakdown tests of GMRES relative to the scale of the new column (||A z_j|| before the
 * orthogonalization): an exact-zero test missed breakdowns at rounding level on singular matrices
 * (diag(1, 0, 1) gave x_1 = 1.1e16), dividing by noise and growing the basis past n. */
#define GMRES_BREAKDOWN_REL (64.0 * DBL_EPSILON)

STRATA_KERNEL_DECLARE(strata_gmres_mgs);
STRATA_KERNEL_DECLARE(strata_gmres_normalize);
STRATA_KERNEL_DECLARE(strata_gmres_combo);

/* w = beta·w + sign·Σ_{i<k} s[prev + i]·V_i */
static strata_status_t combo(strata_impl_krylov_t *K, double *w, const double *V, int k, double beta, double sign, int prev) {
  strata_gmres_args_t a = {w, NULL, NULL, V, K->n, k, beta, sign, K->ds, prev};
  return strata_parallel_for(K->exec, NULL, strata_range(0, K->n), &strata_gmres_combo, &a);
}

/* w -= s[prev]·vprev (vprev NULL: nothing), then s[slot] = w·vnext (vnext NULL: w·w) */
static strata_status_t mgs(strata_impl_krylov_t *K, double *w, const double *vprev, int prev, const double *vnext, int slot) {
  strata_gmres_args_t a = {w, vprev, vnext, NULL, 0, 0, 0, 0, K->ds, prev};
  strata_status_t st = strata_parallel_reduce_async(K->exec, NULL, strata_range(0, K->n), &strata_gmres_mgs, &a,
                                                    STRATA_REDUCE_SUM, K->ds + slot);
  /* over the processes: the next step reads it (MGS: one sum per basis vector) */
  if (!st) st = strata_impl_krylov_global(K, &slot, 1);
  return st;
}

/* ds[first, first + count) summed over the processes (one call for a Gram–Schmidt pass) */
static strata_status_t global_range(strata_impl_krylov_t *K, int first, int count) {
  if (!K->comm) return STRATA_SUCCESS;
  int *slots = (int *)malloc((size_t)count * sizeof *slots);
  if (!slots) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "gmres: %d slots", count);
  for (int i = 0; i < count; ++i) slots[i] = first + i;
  strata_status_t st = strata_impl_krylov_global(K, slots, count);
  free(slots);
  return st;
}

/* Orthogonalizes w = V_{j+1} against V_0..V_j: the column h_{0..j} in ds[0..j] (CGS2: plus ds[c2 + i]) and
 * ||w||² in ds[j + 1], then w /= ||w||. */
static strata_status_t orthogonalize(strata_impl_krylov_t *K, int j, int c2) {
  const double *V = strata_impl_krylov_vector(K, 0);
  double *w = strata_impl_krylov_vector(K, j + 1);
  const size_t n = (size_t)K->n;
  strata_status_t st = STRATA_SUCCESS;
  if (K->opts->ortho == STRATA_ORTHO_MGS) {
    st = mgs(K, w, NULL, 0, V, 0);
    for (int i = 1; !st && i <= j; ++i) st = mgs(K, w, V + (i - 1) * n, i - 1, V + i * n, i);
    if (!st) st = mgs(K, w, V + j * n, j, NULL, j + 1);
  } else {
    for (int pass = 0; !st && pass < 2; ++pass) {
      const int base = pass ? c2 : 0;
      for (int i = 0; !st && i <= j; ++i) st = strata_vec_dot_async(K->exec, K->n, w, V + i * n, K->ds + base + i);
      if (!st) st = global_range(K, base, j + 1);
      if (!st) st = combo(K, w, V, j + 1, 1.0, -1.0, base);
    }
    if (!st) st = strata_vec_dot_async(K->exec, K->n, w, w, K->ds + j + 1);
    if (!st) st = global_range(K, j + 1, 1);
  }
  strata_gmres_args_t a = {w, NULL, NULL, NULL, 0, 0, 0, 0, K->ds, j + 1};
  if (!st) st = strata_parallel_for(K->exec, NULL, strata_range(0, K->n), &strata_gmres_normalize, &a);
  return st;
}

strata_status_t strata_impl_gmres(strata_impl_krylov_t *K, int flexible) {
  strata_exec_t *e = K->exec;
  const int32_t n = K->n;
  const int m = K->opts->restart;
  strata_krylov_result_t *res = K->res;
  double *V = strata_impl_krylov_vector(K, 0);
  double *Z = flexible ? strata_impl_krylov_vector(K, m + 1) : NULL;
  double *z = flexible ? NULL : strata_impl_krylov_vector(K, m + 1);
  double *u = flexible ? NULL : strata_impl_krylov_vector(K, m + 2);
  const int ys = m + 2, c2 = 2 * m + 2; /* device slots: y [m] and the second CGS pass [m + 1] */
  /* host: H (m+1) x m column-major, the rotations, g, y */
  double *H = (double *)malloc(((size_t)(m + 1) * (size_t)m + 4 * (size_t)(m + 1)) * sizeof(double));
  if (!H) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "gmres: the Hessenberg matrix of restart %d", m);
  double *cs = H + (size_t)(m + 1) * (size_t)m, *sn = cs + m + 1, *g = sn + m + 1, *y = g + m + 1;
  strata_status_t st = STRATA_SUCCESS;
  double rel = 1.0;
  if (K->opts->x0_given) {
    st = strata_impl_krylov_residual(K, V, &rel);
    res->true_residual_checks--;
  } else {
    st = strata_vec_copy(e, n, K->b, V);
    K->true_current = 1;
    K->last_true = rel;
  }
  if (st) goto done;
  strata_impl_krylov_history(K, 0, rel);
  int it = 0, cycles = 0, stalled = 0;
  double best = rel;
  for (;;) {
    if (!(rel <= DBL_MAX)) {
      strata_impl_krylov_nonfinite(K);
      break;
    }
    if (rel <= K->tol) {
      res->status = STRATA_SOLVE_CONVERGED;
      break;
    }
    if (it >= K->opts->max_iter) break;
    const double beta = rel * K->bnorm;
    if ((st = strata_vec_scale(e, n, 1.0 / beta, V))) break;
    g[0] = beta;
    int k = 0, happy = 0, est_conv = 0, singular = 0;
    for (int j = 0; j < m && it < K->opts->max_iter; ++j) {
      ++it;
      const double *vj = V + (size_t)j * (size_t)n;
      double *zj = flexible ? Z + (size_t)j * (size_t)n : z;
      if (K->M) {
        if ((st = strata_precond_apply(e, K->M, vj, zj))) break;
      } else {
        zj = (double *)vj;
      }
      if ((st = strata_operator_apply(e, K->A, 1.0, zj, 0.0, V + (size_t)(j + 1) * (size_t)n))) break;
      if ((st = orthogonalize(K, j, c2))) break;
      if ((st = strata_impl_krylov_scalars(K, K->nscalars))) break; /* the iteration's one wait */
      K->true_current = 0;
      res->iterations = it;
      double *h = H + (size_t)j * (size_t)(m + 1);
      for (int i = 0; i <= j; ++i) h[i] = K->hs[i] + (K->opts->ortho == STRATA_ORTHO_CGS2 ? K->hs[c2 + i] : 0.0);
      const double hn = sqrt(K->hs[j + 1]);
      double wn = hn * hn; /* ||A z_j||^2 before the orthogonalization: the scale of column j */
      for (int i = 0; i <= j; ++i) wn += h[i] * h[i];
      wn = sqrt(wn);
      if (strata_impl_any_nonfinite(h, j + 1) || !(hn <= DBL_MAX)) {
        strata_impl_krylov_nonfinite(K);
        singular = -1;
        break;
      }
      for (int i = 0; i < j; ++i) { /* the earlier rotations */
        const double t = cs[i] * h[i] + sn[i] * h[i + 1];
        h[i + 1] = -sn[i] * h[i] + cs[i] * h[i + 1];
        h[i] = t;
      }
      const double rho = hypot(h[j], hn);
      if (rho <= GMRES_BREAKDOWN_REL * wn) { /* h(j,j) and h(j+1,j) vanish next to column j's scale:
                                                the least-squares problem is singular */
        singular = 1;
        break;
      }
      cs[j] = h[j] / rho;
      sn[j] = hn / rho;
      h[j] = rho;
      h[j + 1] = 0.0;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k = j + 1;
      const double est = fabs(g[j + 1]) / K->bnorm;
      strata_impl_krylov_history(K, it, est);
      if (hn <= GMRES_BREAKDOWN_REL * wn) { /* happy breakdown: the Krylov space is invariant (to rounding:
                                               the next basis vector would be noise), x_j is exact */
        happy = 1;
        break;
      }
      if (est <= K->tol) {
        est_conv = 1;
        break;
      }
    }
    if (st || singular < 0) break;
    if (k > 0) { /* y = R⁻¹ g, then x += M⁻¹ V y (FGMRES: Z y) */
      for (int i = k - 1; i >= 0; --i) {
        double t = g[i];
        for (int l = i + 1; l < k; ++l) t -= H[(size_t)l * (size_t)(m + 1) + (size_t)i] * y[l];
        y[i] = t / H[(size_t)i * (size_t)(m + 1) + (size_t)i];
      }
      if ((st = strata_mem_copy(e, K->ds + ys, y, (size_t)k * sizeof(double)))) break;
      if (flexible && K->M)
        st = combo(K, K->x, Z, k, 1.0, 1.0, ys);
      else if (!K->M)
        st = combo(K, K->x, V, k, 1.0, 1.0, ys);
      else {
        st = combo(K, u, V, k, 0.0, 1.0, ys);
        if (!st) st = strata_precond_apply(e, K->M, u, z);
        if (!st) st = strata_vec_axpy(e, n, 1.0, z, K->x);
      }
      if (st) break;
    }
    if ((st = strata_impl_krylov_residual(K, V, &rel))) break;
    strata_impl_krylov_history(K, it, rel);
    if (singular) {
      if (rel <= K->tol)
        res->status = STRATA_SOLVE_CONVERGED;
      else
        strata_impl_krylov_breakdown(K, "h(j+1,j)");
      break;
    }
    if (est_conv || happy) {
      if (strata_impl_krylov_check(K, rel)) break;
    } else if (rel > K->tol) {
      /* a cycle that ended at m: GMRES(m) can stall for good (0 in the field of values of A M⁻¹,
       * or the attainable accuracy reached before tol); a few cycles in a row that do not improve
       * on the best residual by STRATA_IMPL_CYCLE_DECREASE end it */
      if (cycles > 0 && rel > (1.0 - STRATA_IMPL_CYCLE_DECREASE) * best)
        ++stalled;
      else
        stalled = 0;
      if (cycles == 0 || rel < best) best = rel;
      ++cycles;
      if (stalled >= STRATA_IMPL_STALLED_CYCLES) {
        res->status = STRATA_SOLVE_STAGNATION;
        break;
      }
    }
  }
done:
  free(H);
  return st;
}
