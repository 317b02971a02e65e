/* strata solvers — AMG's smoothers (amg_impl.h): x <- x + M⁻¹ (b - A x), `sweeps` times, on the
 * device, deterministic. Kernels in solvers/kernels/amg_smoother.kl.c; each row's sum runs over
 * its entries in storage order by one thread, with explicit fma(), so that every backend computes the same bits as
 * serial for Jacobi, l1-Jacobi and the Gauss–Seidel variants (weighted Jacobi and Chebyshev
 * depend, through their eigenvalue estimates, on dot products whose order is the backend's).
 *
 * - Damped Jacobi: M = D / omega. l1-Jacobi: M = D_l1, d_i = a_ii + sgn(a_ii) Σ_{j≠i} |a_ij| (the
 *   diagonal code of solvers/src/jacobi.c, through its preconditioner). Weighted Jacobi: omega =
 *   2 / (λ_max + max(λ_min, λ_max / 2)), the weight minimising max |1 - omega λ| over
 *   [max(λ_min, λ_max / 2), λ_max]: the spectrum's upper half, the modes a smoother must damp
 *   (4 / (3 λ_max) unless the spectrum is narrower; 2 / (λ_max + λ_min) for a narrow one).
 * - Chebyshev of degree k (Saad, Iterative Methods, 2nd ed., Alg. 12.1, with the preconditioner
 *   D⁻¹) on [a, b] = [λ_max / 30, 1.1 λ_max] of D⁻¹A: θ = (b + a) / 2, δ = (b - a) / 2,
 *   σ = θ / δ, ρ_0 = 1 / σ; r_j = D⁻¹ (b - A x_j) (computed, not recurred), d_0 = r_0 / θ,
 *   ρ_j = 1 / (2σ - ρ_{j-1}), d_j = ρ_j ρ_{j-1} d_{j-1} + (2 ρ_j / δ) r_j, x_{j+1} = x_j + d_j, j < k:
 *   the error is multiplied by T_k((θ - D⁻¹A) / δ) / T_k(σ) each sweep, at most 1 / T_k(σ) in
 *   modulus on [a, b]. The upper end 1.1 λ_max covers an estimate up to 10 % low; the lower end
 *   leaves the smooth modes (below λ_max / 30) to the coarse grid.
 * - The eigenvalue estimates: STRATA_AMG_LANCZOS_STEPS Lanczos steps on M = S sgn(D) A S,
 *   S = |D|^(-1/2), which is similar to D⁻¹A (symmetric when A is symmetric with a diagonal of one
 *   sign), from a hashed start vector (the same on every backend); the extreme eigenvalues of the
 *   tridiagonal matrix by bisection (Sturm counts) on the host.
 * - Hybrid Gauss–Seidel: rows in blocks of STRATA_AMG_HGS_BLOCK consecutive rows, a team per
 *   block; inside its block a team runs Gauss–Seidel on the newest values of the block's rows,
 *   other blocks' rows read as they were at the start of the sweep (a copy): Gauss–Seidel inside
 *   a block, Jacobi across blocks, each row's diagonal augmented by the l1 norm of its entries
 *   outside the block (hypre's l1 relax types 13 / 14; Baker, Falgout, Kolev, Yang 2011): without
 *   it the sweep diverges where the coupling across blocks is strong (the FEM job's P1 matrix:
 *   AMG-CG broke down on r·z), with it it converges for every SPD A. The result depends on the block
 *   size, so it is one constant, the same on every backend: serial runs the same blocks in order
 *   with the same arithmetic, and every backend's result is bitwise serial's. Symmetric GS: a
 *   forward then a backward hybrid sweep in each sweep.
 * - Multicolor Gauss–Seidel: a Jones–Plassmann colouring (amg_coloring.c), then colour by
 *   colour (colours in increasing order; backward: decreasing), the rows of a colour in parallel:
 *   exactly Gauss–Seidel in the order of the colours (within a colour the order does not matter).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/amg_smoother_args.h"
#include "amg_impl.h"
#include "krylov_impl.h"

STRATA_KERNEL_DECLARE(strata_amg_sm_jacobi);
STRATA_KERNEL_DECLARE(strata_amg_sm_cheby);
STRATA_KERNEL_DECLARE(strata_amg_sm_hgs);
STRATA_KERNEL_DECLARE(strata_amg_sm_hgs_l1);
STRATA_KERNEL_DECLARE(strata_amg_sm_color);
STRATA_KERNEL_DECLARE(strata_amg_sm_lanczos_start);
STRATA_KERNEL_DECLARE(strata_amg_sm_lanczos_apply);

/* Lanczos steps of the eigenvalue estimates (fewer when n is smaller or the Krylov space closes) */
#define STRATA_AMG_LANCZOS_STEPS 12
/* the seeds of the Lanczos start vector and of the colouring's priorities */
#define STRATA_AMG_SMOOTHER_SEED 0x5eed5a17u

struct strata_impl_smoother {
  strata_exec_t *exec;
  strata_amg_smoother_t kind;
  const strata_crs_matrix_t *A; /* borrowed */
  int32_t n;
  strata_precond_t *jac;        /* Jacobi / l1-Jacobi: owns dinv */
  const double *dinv;           /* [n] exec memory */
  double *dl1;                  /* [n] exec memory: hybrid / symmetric GS's l1 D⁻¹ (dinv points here) */
  double *work;                 /* [2n] exec memory: the other x and Chebyshev's d */
  double omega, lmax, lmin, cheby_lo, cheby_hi;
  int degree;
  int32_t *color;               /* multicolor: [n] exec memory */
  int64_t *perm;                /* [n] exec memory */
  int64_t *offs;                /* [num_colors + 1] host */
  int num_colors;
};

static const char *kind_name(strata_amg_smoother_t k) {
  static const char *names[] = {"jacobi", "wjacobi", "l1-jacobi", "cheby", "hgs", "mcgs", "sgs"};
  return (int)k >= 0 && (int)k < 7 ? names[k] : "?";
}

/* ------------------------------------------------------------------ eigenvalue estimates */

/* Number of eigenvalues of the symmetric tridiagonal (alpha [m], beta [m-1]) below x (Sturm). */
static int sturm_count(const double *alpha, const double *beta, int m, double x) {
  int count = 0;
  double q = 1.0;
  for (int i = 0; i < m; ++i) {
    const double b2 = i > 0 ? beta[i - 1] * beta[i - 1] : 0.0;
    q = alpha[i] - x - (i > 0 ? b2 / q : 0.0);
    if (q == 0.0) q = -1e-300;
    if (q < 0) ++count;
  }
  return count;
}

/* The k-th smallest eigenvalue (0-based) of the tridiagonal by bisection inside its Gershgorin
 * interval. */
static double tridiag_eig(const double *alpha, const double *beta, int m, int k) {
  double lo = INFINITY, hi = -INFINITY;
  for (int i = 0; i < m; ++i) {
    const double r = (i > 0 ? fabs(beta[i - 1]) : 0.0) + (i < m - 1 ? fabs(beta[i]) : 0.0);
    if (alpha[i] - r < lo) lo = alpha[i] - r;
    if (alpha[i] + r > hi) hi = alpha[i] + r;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (fabs(lo) + fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (sturm_count(alpha, beta, m, mid) > k)
      hi = mid;
    else
      lo = mid;
  }
  return 0.5 * (lo + hi);
}

/* λ_min, λ_max of D⁻¹A estimated by Lanczos on S sgn(D) A S. */
static strata_status_t lanczos(strata_impl_smoother_t *sm) {
  strata_exec_t *exec = sm->exec;
  const strata_crs_matrix_t *A = sm->A;
  const int32_t n = sm->n;
  double alpha[STRATA_AMG_LANCZOS_STEPS], beta[STRATA_AMG_LANCZOS_STEPS];
  double *V = NULL;
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, 3 * (size_t)n * sizeof(double), (void **)&V);
  if (st) return st;
  double *vprev = V, *v = V + n, *w = V + 2 * (size_t)n;
  strata_amg_sm_lanczos_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, v, w,
                                    STRATA_AMG_SMOOTHER_SEED};
  double nrm = 0.0;
  int m = 0;
  st = strata_parallel_for(exec, "amg_lanczos_start", strata_range(0, n), &strata_amg_sm_lanczos_start, &a);
  if (!st) st = strata_vec_nrm2(exec, n, w, &nrm);
  if (!st) st = strata_vec_axpby(exec, n, 1.0 / nrm, w, 0.0, v);
  if (!st) st = strata_vec_fill(exec, n, 0.0, vprev);
  const int steps = n < STRATA_AMG_LANCZOS_STEPS ? (int)n : STRATA_AMG_LANCZOS_STEPS;
  while (!st && m < steps) {
    a.v = v;
    a.w = w;
    double al = 0.0, be = 0.0;
    st = strata_parallel_for(exec, "amg_lanczos_apply", strata_range(0, n), &strata_amg_sm_lanczos_apply, &a);
    if (!st) st = strata_vec_dot(exec, n, w, v, &al);
    if (!st) st = strata_vec_axpy(exec, n, -al, v, w);
    if (!st && m > 0) st = strata_vec_axpy(exec, n, -beta[m - 1], vprev, w);
    if (!st) st = strata_vec_nrm2(exec, n, w, &be);
    if (st) break;
    alpha[m] = al;
    beta[m] = be;
    ++m;
    /* the Krylov space closed: the Ritz values are eigenvalues */
    if (!(be > 1e-14 * (fabs(al) + (m > 1 ? beta[m - 2] : 0.0)))) break;
    double *t = vprev;
    vprev = v;
    v = t;
    st = strata_vec_axpby(exec, n, 1.0 / be, w, 0.0, v);
  }
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&V);
  if (st) return st;
  sm->lmin = tridiag_eig(alpha, beta, m, 0);
  sm->lmax = tridiag_eig(alpha, beta, m, m - 1);
  if (!(sm->lmax > 0.0) || !isfinite(sm->lmax))
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "AMG smoother %s: the estimate of λ_max(D^-1 A) is %g (must be > 0 and finite: "
                            "the smoother needs D^-1 A with a positive spectrum, e.g. A SPD)",
                            kind_name(sm->kind), sm->lmax);
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ create / destroy */

static strata_status_t check_options(const strata_amg_options_t *o) {
  if ((int)o->smoother < 0 || (int)o->smoother > STRATA_SMOOTH_SYMMETRIC_GS)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother: smoother = %d (must be 0 .. %d)",
                            (int)o->smoother, (int)STRATA_SMOOTH_SYMMETRIC_GS);
  if (o->smoother == STRATA_SMOOTH_JACOBI && !(o->omega > 0.0 && o->omega < 2.0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother jacobi: omega = %g (must be in (0, 2))",
                            o->omega);
  if (o->smoother == STRATA_SMOOTH_CHEBYSHEV && o->cheby_degree < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother cheby: cheby_degree = %d (must be >= 1)",
                            o->cheby_degree);
  return STRATA_SUCCESS;
}

/* D⁻¹ (or D_l1⁻¹) through the Jacobi preconditioner's setup, whose errors name the row; the
 * message is prefixed with the smoother. */
static strata_status_t diagonal(strata_impl_smoother_t *sm) {
  strata_operator_t *op = NULL;
  const strata_jacobi_kind_t jk = sm->kind == STRATA_SMOOTH_L1_JACOBI ? STRATA_L1_JACOBI : STRATA_JACOBI;
  strata_status_t st = strata_operator_create_crs(sm->exec, sm->A, NULL, &op);
  if (!st) st = strata_precond_create_jacobi(sm->exec, jk, &sm->jac);
  if (!st) st = strata_precond_setup(sm->exec, sm->jac, op);
  strata_operator_destroy(&op);
  if (st) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", strata_error_message());
    return strata_error_set(st, "AMG smoother %s: %s", kind_name(sm->kind), msg);
  }
  sm->dinv = strata_impl_jacobi_dinv(sm->jac);
  return STRATA_SUCCESS;
}

static strata_status_t setup(strata_impl_smoother_t *sm, const strata_amg_options_t *opts) {
  const int32_t n = sm->n;
  strata_status_t st = diagonal(sm);
  if (!st) st = strata_mem_alloc(sm->exec, STRATA_MEM_DEVICE, 2 * (size_t)n * sizeof(double), (void **)&sm->work);
  if (st || n == 0) return st;
  switch (sm->kind) {
    case STRATA_SMOOTH_JACOBI: sm->omega = opts->omega; break;
    case STRATA_SMOOTH_WJACOBI:
      if ((st = lanczos(sm))) return st;
      sm->omega = 2.0 / (sm->lmax + (sm->lmin > 0.5 * sm->lmax ? sm->lmin : 0.5 * sm->lmax));
      break;
    case STRATA_SMOOTH_CHEBYSHEV:
      if ((st = lanczos(sm))) return st;
      sm->cheby_lo = sm->lmax / 30.0;
      sm->cheby_hi = 1.1 * sm->lmax;
      break;
    case STRATA_SMOOTH_HYBRID_GS:
    case STRATA_SMOOTH_SYMMETRIC_GS: {
      if ((st = strata_mem_alloc(sm->exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&sm->dl1)))
        return st;
      const strata_crs_matrix_t *A = sm->A;
      strata_amg_sm_hgs_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, NULL, NULL, sm->dl1,
                                    n, STRATA_AMG_HGS_BLOCK, 0};
      st = strata_parallel_for(sm->exec, "amg_smooth_hgs_l1", strata_range(0, n), &strata_amg_sm_hgs_l1, &a);
      sm->dinv = sm->dl1;
      break;
    }
    case STRATA_SMOOTH_MULTICOLOR_GS:
      if ((st = strata_mem_alloc(sm->exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(int32_t), (void **)&sm->color)) ||
          (st = strata_mem_alloc(sm->exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(int64_t), (void **)&sm->perm)))
        return st;
      st = strata_impl_amg_color(sm->exec, sm->A, STRATA_AMG_SMOOTHER_SEED, sm->color, sm->perm, &sm->num_colors,
                                 &sm->offs);
      break;
    default: break;
  }
  return st;
}

strata_status_t strata_impl_smoother_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                            const strata_amg_options_t *opts, strata_impl_smoother_t **sm) {
  if (!sm) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother: NULL sm");
  *sm = NULL;
  if (!exec || !A || !opts)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother: NULL %s", !exec ? "exec" : !A ? "A" : "opts");
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother: A is %lld x %lld (must be square)",
                            (long long)A->num_rows, (long long)A->num_cols);
  strata_status_t st = check_options(opts);
  if (st) return st;
  strata_impl_smoother_t *s = (strata_impl_smoother_t *)calloc(1, sizeof *s);
  if (!s) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "AMG smoother: %zu bytes", sizeof *s);
  s->exec = exec;
  s->kind = opts->smoother;
  s->A = A;
  s->n = A->num_rows;
  s->omega = 1.0;
  s->degree = opts->smoother == STRATA_SMOOTH_CHEBYSHEV ? opts->cheby_degree : 0;
  if ((st = setup(s, opts))) {
    strata_impl_smoother_destroy(&s);
    return st;
  }
  if (s->kind == STRATA_SMOOTH_CHEBYSHEV) s->omega = 0.0;
  *sm = s;
  return STRATA_SUCCESS;
}

void strata_impl_smoother_destroy(strata_impl_smoother_t **sm) {
  if (!sm || !*sm) return;
  strata_impl_smoother_t *s = *sm;
  strata_precond_destroy(&s->jac);
  strata_mem_free(s->exec, STRATA_MEM_DEVICE, (void **)&s->work);
  strata_mem_free(s->exec, STRATA_MEM_DEVICE, (void **)&s->dl1);
  strata_mem_free(s->exec, STRATA_MEM_DEVICE, (void **)&s->color);
  strata_mem_free(s->exec, STRATA_MEM_DEVICE, (void **)&s->perm);
  free(s->offs);
  free(s);
  *sm = NULL;
}

strata_status_t strata_impl_smoother_info(const strata_impl_smoother_t *sm, strata_impl_smoother_info_t *info) {
  if (!sm || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother info: NULL %s", !sm ? "sm" : "info");
  memset(info, 0, sizeof *info);
  info->kind = sm->kind;
  info->n = sm->n;
  info->omega = sm->omega;
  info->lambda_max = sm->lmax;
  info->lambda_min = sm->lmin;
  info->cheby_lo = sm->cheby_lo;
  info->cheby_hi = sm->cheby_hi;
  info->degree = sm->degree;
  info->block_rows = STRATA_AMG_HGS_BLOCK;
  info->num_colors = sm->num_colors;
  info->colors = sm->color;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ apply */

/* One Jacobi-type sweep (src -> dst) or a Chebyshev polynomial (x -> ... ; the result's vector in
 * *cur). */
static strata_status_t jacobi_sweep(const strata_impl_smoother_t *sm, const double *b, double **cur, double **other,
                                    int x_zero) {
  const strata_crs_matrix_t *A = sm->A;
  strata_amg_sm_step_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, b, *cur, *other, NULL,
                                 0.0, sm->omega, x_zero, 1};
  strata_status_t st =
      strata_parallel_for(sm->exec, "amg_smooth_jacobi", strata_range(0, sm->n), &strata_amg_sm_jacobi, &a);
  double *t = *cur;
  *cur = *other;
  *other = t;
  return st;
}

static strata_status_t cheby_sweep(const strata_impl_smoother_t *sm, const double *b, double **cur, double **other,
                                   double *d, int x_zero) {
  const strata_crs_matrix_t *A = sm->A;
  const double theta = 0.5 * (sm->cheby_hi + sm->cheby_lo), delta = 0.5 * (sm->cheby_hi - sm->cheby_lo);
  const double sigma = theta / delta;
  double rho = 1.0 / sigma;
  strata_status_t st = STRATA_SUCCESS;
  for (int j = 0; !st && j < sm->degree; ++j) {
    strata_amg_sm_step_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, b, *cur, *other, d,
                                   0.0, 1.0 / theta, j == 0 && x_zero, j == 0};
    if (j > 0) {
      const double rho_new = 1.0 / (2.0 * sigma - rho);
      a.c1 = rho_new * rho;
      a.c2 = 2.0 * rho_new / delta;
      rho = rho_new;
    }
    st = strata_parallel_for(sm->exec, "amg_smooth_cheby", strata_range(0, sm->n), &strata_amg_sm_cheby, &a);
    double *t = *cur;
    *cur = *other;
    *other = t;
  }
  return st;
}

static strata_status_t hgs_sweep(const strata_impl_smoother_t *sm, const double *b, double *x, double *x_old,
                                 int backward) {
  const strata_crs_matrix_t *A = sm->A;
  const int64_t n = sm->n;
  strata_status_t st = strata_vec_copy(sm->exec, sm->n, x, x_old);
  strata_amg_sm_hgs_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, b, x_old, x,
                                n, STRATA_AMG_HGS_BLOCK, backward};
  strata_team_policy_t p = strata_team_policy((n + STRATA_AMG_HGS_BLOCK - 1) / STRATA_AMG_HGS_BLOCK, STRATA_AUTO, 1);
  p.scratch_team = STRATA_AMG_HGS_BLOCK * sizeof(double);
  if (!st) st = strata_parallel_for_team(sm->exec, "amg_smooth_hgs", &p, &strata_amg_sm_hgs, &a);
  return st;
}

static strata_status_t mcgs_sweep(const strata_impl_smoother_t *sm, const double *b, double *x, int backward) {
  const strata_crs_matrix_t *A = sm->A;
  strata_status_t st = STRATA_SUCCESS;
  for (int q = 0; !st && q < sm->num_colors; ++q) {
    const int c = backward ? sm->num_colors - 1 - q : q;
    strata_amg_sm_color_args_t a = {A->row_offsets, A->col_indices, A->values, sm->dinv, b, x, sm->perm,
                                    sm->offs[c]};
    st = strata_parallel_for(sm->exec, "amg_smooth_mcgs", strata_range(0, sm->offs[c + 1] - sm->offs[c]),
                             &strata_amg_sm_color, &a);
  }
  return st;
}

strata_status_t strata_impl_smoother_apply(strata_exec_t *exec, const strata_impl_smoother_t *sm, const double *b,
                                           double *x, int sweeps, int backward, int x_is_zero) {
  if (!sm) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother apply: NULL sm");
  if (sweeps < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother %s: sweeps = %d (must be >= 0)",
                            kind_name(sm->kind), sweeps);
  if (sm->n > 0 && (!b || !x))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG smoother %s: NULL %s with n = %lld", kind_name(sm->kind),
                            !b ? "b" : "x", (long long)sm->n);
  if (sm->n == 0 || sweeps == 0) return STRATA_SUCCESS;
  strata_impl_smoother_t local = *sm; /* the kernels run on exec (NULL: the smoother's) */
  if (exec) local.exec = exec;
  const strata_impl_smoother_t *s = &local;
  const int32_t n = s->n;
  strata_status_t st = STRATA_SUCCESS;
  if (s->kind >= STRATA_SMOOTH_HYBRID_GS) {
    if (x_is_zero) st = strata_vec_fill(s->exec, n, 0.0, x);
    for (int k = 0; !st && k < sweeps; ++k) {
      if (s->kind == STRATA_SMOOTH_MULTICOLOR_GS) {
        st = mcgs_sweep(s, b, x, backward);
      } else if (s->kind == STRATA_SMOOTH_HYBRID_GS) {
        st = hgs_sweep(s, b, x, s->work, backward);
      } else {
        st = hgs_sweep(s, b, x, s->work, 0);
        if (!st) st = hgs_sweep(s, b, x, s->work, 1);
      }
    }
    return st;
  }
  double *cur = x, *other = s->work;
  for (int k = 0; !st && k < sweeps; ++k) {
    const int zero = k == 0 && x_is_zero;
    st = s->kind == STRATA_SMOOTH_CHEBYSHEV ? cheby_sweep(s, b, &cur, &other, s->work + n, zero)
                                            : jacobi_sweep(s, b, &cur, &other, zero);
  }
  if (!st && cur != x) st = strata_vec_copy(s->exec, n, cur, x);
  return st;
}
