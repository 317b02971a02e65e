/* strata solvers — argument structs of the Krylov methods' fused vector kernels
 * (solvers/kernels/krylov.kl.c), shared with solvers/src/{cg,bicgstab,gmres}.c. Plain C, valid as
 * C11 and C++17. Every pointer is exec memory.
 *
 * The scalars of an iteration (dot products) stay in device memory, s[], written by asynchronous
 * reductions and read by the next launches; the host copies s once per iteration for its tests.
 * Every division a kernel makes is guarded (a zero or non-positive divisor gives 0, never Inf or
 * NaN), so that a breakdown the host detects after the launch has left finite vectors. */
#ifndef STRATA_SOLVERS_KRYLOV_ARGS_H
#define STRATA_SOLVERS_KRYLOV_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CG's scalars: s[CG_PQ] = p·Ap, s[CG_RZ + k] = r·z of alternate iterations (cur: this one's),
 * s[CG_RR] = r·r (preconditioned CG; unpreconditioned CG's r·r is its r·z). */
enum { STRATA_CG_PQ = 0, STRATA_CG_RZ = 1, STRATA_CG_RR = 3, STRATA_CG_NUM = 4 };

/** CG. update (reduce): alpha = s[RZ+cur] / s[PQ] (0 unless p·Ap > 0), x += alpha p,
 *  r -= alpha q; the sum of r_i·(dinv_i r_i) with dinv (Jacobi, z never stored), else of r_i².
 *  direction: beta = s[RZ+1-cur] / s[RZ+cur] (0 when that is 0); p = z + beta p, z = dinv .* r
 *  with dinv; the reduce form (direction_jacobi) also sums r_i². */
typedef struct strata_cg_args {
  double *x, *r, *p;
  const double *q, *z, *dinv;
  const double *s;
  int cur;
} strata_cg_args_t;

/* BiCGSTAB's scalars: s[BI_RHO + k] = r̂·r of alternate iterations, s[BI_RV] = r̂·v, s[BI_SS] = s·s,
 * s[BI_TS] = t·s, s[BI_TT] = t·t, s[BI_RR] = r·r. alpha = rho / r̂·v, omega = t·s / t·t. */
enum { STRATA_BI_RHO = 0, STRATA_BI_RV = 2, STRATA_BI_SS = 3, STRATA_BI_TS = 4, STRATA_BI_TT = 5, STRATA_BI_RR = 6,
       STRATA_BI_NUM = 7 };

/** BiCGSTAB (van der Vorst 1992, right preconditioning; s is kept in r's storage).
 *  direction: first: p = r; else beta = (rho_new / rho_old)(alpha / omega) of the last iteration,
 *  p = r + beta (p - omega v). half (reduce): alpha = s[RHO+cur] / s[RV], r -= alpha v (r now holds
 *  s); the sum of s_i². update (reduce): converged at the half step when s·s <= thresh (omega = 0);
 *  else omega = t·s / t·t (0 when t·t = 0); x += alpha ph + omega sh, r = s - omega t; the sum of
 *  r_i². */
typedef struct strata_bicgstab_args {
  double *x, *r, *p;
  const double *v, *t, *ph, *sh;
  const double *s;
  int cur;   /* s[RHO+cur]: this iteration's rho; s[RHO+1-cur]: the last one's */
  int first; /* the first iteration after a (re)start: p = r */
  double thresh;
} strata_bicgstab_args_t;

/** GMRES. mgs (reduce, one modified Gram–Schmidt step): w -= s[prev]·vprev (vprev NULL: none),
 *  then the sum of w_i·vnext_i, or of w_i² when vnext is NULL. normalize: w = w / sqrt(s[prev])
 *  (0 when that is 0: a happy breakdown, w is not used). combo: y = beta·y + sign·Σ_{i<k} s[prev+i]·
 *  V[i·ld + ·] (V: k vectors of stride ld; beta 0: y not read). */
typedef struct strata_gmres_args {
  double *w;
  const double *vprev, *vnext;
  const double *V;
  int64_t ld;
  int k;
  double beta, sign;
  const double *s;
  int prev;
} strata_gmres_args_t;

#ifdef __cplusplus
}
#endif
#endif
