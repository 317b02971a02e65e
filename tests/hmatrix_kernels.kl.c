/* strata tests — user kernel functions for H² matrices (strata/hmatrix_kl.h): the constant kernel
 * (K = params[0]: exact when the bases reproduce constants, Σ_α L_α = 1) and EDGE_CASES Q7's
 * non-symmetric K(x, y) = exp(-‖x - y‖)·(1 + 0.5·(x₀ - y₀)); Q6's scaled exp(-‖x - y‖). */
#include <strata/kl.h>

#include "strata/hmatrix_kl.h"

STRATA_KL_FUNC double t_h2_const(const double *x, const double *y, const double *params) {
  (void)x;
  (void)y;
  return params[0];
}
STRATA_H2_USER_KERNELS(t_h2_const, t_h2_const)

STRATA_KL_FUNC double t_h2_nonsym(const double *x, const double *y, const double *params) {
  const double dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
  (void)params;
  return exp(-sqrt(dx * dx + dy * dy + dz * dz)) * (1.0 + 0.5 * dx);
}
STRATA_H2_USER_KERNELS(t_h2_nonsym, t_h2_nonsym)

/* EDGE_CASES Q6: params[0]·exp(-‖x - y‖) (a scaled matrix: the same ranks at a relative tolerance) */
STRATA_KL_FUNC double t_h2_scaled(const double *x, const double *y, const double *params) {
  const double dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
  return params[0] * exp(-sqrt(dx * dx + dy * dy + dz * dz));
}
STRATA_H2_USER_KERNELS(t_h2_scaled, t_h2_scaled)
