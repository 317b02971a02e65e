/* strata solvers — the fused vector kernels of CG, BiCGSTAB and GMRES (krylov_args.h): each reads
 * the iteration's scalars from device memory and makes one pass over its vectors. */
#include <strata/kl.h>

#include "krylov_args.h"

/* ---------------------------------------------------------------------------------------- CG */

STRATA_REDUCE_KERNEL(strata_cg_update, strata_cg_args_t, a, i, f64, acc) {
  const double pq = a->s[STRATA_CG_PQ];
  const double alpha = pq > 0.0 ? a->s[STRATA_CG_RZ + a->cur] / pq : 0.0;
  a->x[i] = a->x[i] + alpha * a->p[i];
  const double r = a->r[i] - alpha * a->q[i];
  a->r[i] = r;
  *acc += a->dinv ? r * (a->dinv[i] * r) : r * r;
}

STRATA_FOR_KERNEL(strata_cg_direction, strata_cg_args_t, a, i) {
  const double rz = a->s[STRATA_CG_RZ + a->cur];
  const double beta = rz != 0.0 ? a->s[STRATA_CG_RZ + 1 - a->cur] / rz : 0.0;
  a->p[i] = a->z[i] + beta * a->p[i];
}

STRATA_REDUCE_KERNEL(strata_cg_direction_jacobi, strata_cg_args_t, a, i, f64, acc) {
  const double rz = a->s[STRATA_CG_RZ + a->cur];
  const double beta = rz != 0.0 ? a->s[STRATA_CG_RZ + 1 - a->cur] / rz : 0.0;
  const double r = a->r[i];
  a->p[i] = a->dinv[i] * r + beta * a->p[i];
  *acc += r * r;
}

/* ---------------------------------------------------------------------------------- BiCGSTAB */

STRATA_KL_FUNC double strata_bicgstab_alpha(const double *s, int cur) {
  const double rv = s[STRATA_BI_RV];
  return rv != 0.0 ? s[STRATA_BI_RHO + cur] / rv : 0.0;
}

STRATA_KL_FUNC double strata_bicgstab_omega(const double *s, double thresh) {
  const double tt = s[STRATA_BI_TT];
  return (s[STRATA_BI_SS] <= thresh || tt == 0.0) ? 0.0 : s[STRATA_BI_TS] / tt;
}

STRATA_FOR_KERNEL(strata_bicgstab_direction, strata_bicgstab_args_t, a, i) {
  if (a->first) {
    a->p[i] = a->r[i];
    return;
  }
  /* the last iteration's alpha and omega (its rho is s[RHO + 1 - cur]) */
  const double rho_old = a->s[STRATA_BI_RHO + 1 - a->cur];
  const double alpha = strata_bicgstab_alpha(a->s, 1 - a->cur);
  const double omega = strata_bicgstab_omega(a->s, a->thresh);
  const double beta = (rho_old != 0.0 && omega != 0.0) ? (a->s[STRATA_BI_RHO + a->cur] / rho_old) * (alpha / omega) : 0.0;
  a->p[i] = a->r[i] + beta * (a->p[i] - omega * a->v[i]);
}

STRATA_REDUCE_KERNEL(strata_bicgstab_half, strata_bicgstab_args_t, a, i, f64, acc) {
  const double alpha = strata_bicgstab_alpha(a->s, a->cur);
  const double s = a->r[i] - alpha * a->v[i];
  a->r[i] = s;
  *acc += s * s;
}

STRATA_REDUCE_KERNEL(strata_bicgstab_update, strata_bicgstab_args_t, a, i, f64, acc) {
  const double alpha = strata_bicgstab_alpha(a->s, a->cur);
  const double omega = strata_bicgstab_omega(a->s, a->thresh);
  const double s = a->r[i];
  a->x[i] = a->x[i] + alpha * a->ph[i] + omega * a->sh[i];
  const double r = s - omega * a->t[i];
  a->r[i] = r;
  *acc += r * r;
}

/* ------------------------------------------------------------------------------------- GMRES */

STRATA_REDUCE_KERNEL(strata_gmres_mgs, strata_gmres_args_t, a, i, f64, acc) {
  double w = a->w[i];
  if (a->vprev) {
    w = w - a->s[a->prev] * a->vprev[i];
    a->w[i] = w;
  }
  *acc += a->vnext ? w * a->vnext[i] : w * w;
}

STRATA_FOR_KERNEL(strata_gmres_normalize, strata_gmres_args_t, a, i) {
  const double h = sqrt(a->s[a->prev]);
  a->w[i] = h > 0.0 ? a->w[i] / h : 0.0;
}

STRATA_FOR_KERNEL(strata_gmres_combo, strata_gmres_args_t, a, i) {
  double sum = 0.0;
  for (int j = 0; j < a->k; ++j) sum += a->s[a->prev + j] * a->V[(int64_t)j * a->ld + i];
  a->w[i] = a->beta != 0.0 ? a->beta * a->w[i] + a->sign * sum : a->sign * sum;
}
