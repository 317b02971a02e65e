/* strata hmatrix — construction of an H² matrix on the device (strata/hmatrix.h): the leaf bases
 * U and transfers E of Chebyshev interpolation, and the built-in kernels' coupling, dense and
 * exact-row kernels (through <strata/hmatrix_kl.h>, as a user's kernel would be). */
#include <strata/kl.h>

#include "h2_args.h"
#include "strata/hmatrix_kl.h"

/* Lagrange polynomial m of the p reference nodes t at u: Π_{j≠m} (u − t_j) / (t_m − t_j). */
STRATA_KL_FUNC double strata_h2_lagrange(const double *t, int32_t p, int32_t m, double u) {
  double r = 1.0;
  for (int32_t j = 0; j < p; ++j)
    if (j != m) r *= (u - t[j]) / (t[m] - t[j]);
  return r;
}

/* Π_d L_{α_d}((x_d − c_d) / h_d) over the box of node g. */
STRATA_KL_FUNC double strata_h2_basis_value(const double *cheb, int32_t p, int32_t dim, const double *c,
                                            const double *h, int64_t al, const double *x) {
  double r = 1.0;
  for (int32_t d = 0; d < dim; ++d) {
    r *= strata_h2_lagrange(cheb, p, (int32_t)(al % p), (x[d] - c[d]) / h[d]);
    al /= p;
  }
  return r;
}

STRATA_FOR_KERNEL(strata_h2_build_basis, strata_h2_basis_args_t, a, e) {
  const int64_t i = e / a->k, al = e % a->k;
  const int64_t l = strata_kl_lower_bound_i64(a->node_end + a->first_leaf, 0, a->num_leaves, i + 1);
  const int64_t g = a->first_leaf + l, b = a->node_begin[g], m = a->node_end[g] - b;
  a->U[b * a->k + al * m + (i - b)] =
      strata_h2_basis_value(a->cheb, a->p, a->dim, a->center + 3 * g, a->half + 3 * g, al, a->pts + 3 * i);
}

STRATA_FOR_KERNEL(strata_h2_build_transfer, strata_h2_transfer_build_args_t, a, e) {
  const int64_t kk = (int64_t)a->k * a->k, g = 1 + e / kk, P = (g - 1) / 2;
  int64_t al = (e / a->k) % a->k;
  const int64_t be = e % a->k;
  if (a->half[3 * g] == 0.0) { /* an empty node (no points): never used */
    a->E[e] = 0.0;
    return;
  }
  double xi[3] = {0.0, 0.0, 0.0};
  for (int32_t d = 0; d < a->dim; ++d) {
    xi[d] = a->center[3 * g + d] + a->half[3 * g + d] * a->cheb[al % a->p];
    al /= a->p;
  }
  a->E[e] = strata_h2_basis_value(a->cheb, a->p, a->dim, a->center + 3 * P, a->half + 3 * P, be, xi);
}

/* The built-in kernel functions (strata_h2_kernel_kind_t in params[0], 1/ℓ in params[1]). */
/* One coordinate difference over ℓ, scaled before any square: r/ℓ does not change when the points
 * and ℓ are scaled together, down to DBL_MIN and up to DBL_MAX (EDGE_CASES Q8) */
STRATA_KL_FUNC double strata_h2_scaled_diff(double x, double y, double inv_length) {
  const double d = x - y;
  if (d == 0.0) return 0.0; /* also when 1/ℓ overflowed (a subnormal ℓ): 0·inf would be NaN */
  return isfinite(d) ? d * inv_length : x * inv_length - y * inv_length;
}

STRATA_KL_FUNC double strata_h2_builtin_eval(const double *x, const double *y, const double *params) {
  const double dx = strata_h2_scaled_diff(x[0], y[0], params[1]), dy = strata_h2_scaled_diff(x[1], y[1], params[1]),
               dz = strata_h2_scaled_diff(x[2], y[2], params[1]);
  double m = fabs(dx);
  if (fabs(dy) > m) m = fabs(dy);
  if (fabs(dz) > m) m = fabs(dz);
  const double r = m > 0.0 && isfinite(m) ? m * sqrt((dx / m) * (dx / m) + (dy / m) * (dy / m) + (dz / m) * (dz / m)) : m;
  const int kind = (int)params[0];
  if (kind == 0) return exp(-r);
  if (kind == 1) return exp(-r * r);
  const double s = 1.7320508075688772 * r; /* Matérn ν = 3/2 */
  return (1.0 + s) * exp(-s);
}

STRATA_H2_USER_KERNELS(strata_h2_builtin, strata_h2_builtin_eval)
