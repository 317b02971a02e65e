/* strata — user kernel functions for H² matrices (strata/hmatrix.h), in the kernel language.
 * Include from a kernel source (*.kl.c, compiled with strata_add_kernels) after <strata/kl.h>.
 *
 *   STRATA_KL_FUNC double my_kernel(const double *x, const double *y, const double *params) {
 *     const double dx = x[0] - y[0], dy = x[1] - y[1], dz = x[2] - y[2];
 *     return exp(-sqrt(dx * dx + dy * dy + dz * dz) / params[0]);
 *   }
 *   STRATA_H2_USER_KERNELS(my, my_kernel)
 *
 * defines the construction kernels my_coupling and my_dense and the exact-row kernel my_rows,
 * each evaluating func(x, y, params) at two points x, y of 3 coordinates (the third 0 in 2D) with
 * the four parameters of strata_h2_user_kernel_t. Host code declares them with
 * STRATA_H2_USER_KERNEL_DECLARE(my) and fills a strata_h2_user_kernel_t with
 * STRATA_H2_USER_KERNEL_INIT(&uk, my) before setting params, kernel = STRATA_H2_USER and user = &uk.
 * func must be a pure function of its arguments, callable on the device (STRATA_KL_FUNC).
 * K(x, y) need not be symmetric: the construction evaluates K(row point, column point) everywhere.
 */
#ifndef STRATA_HMATRIX_KL_H
#define STRATA_HMATRIX_KL_H

#include "strata/hmatrix_args.h"

/* The two Chebyshev nodes of coupling entry e (see strata_h2_coupling_args_t). */
STRATA_KL_FUNC void strata_h2_kl_coupling_points(const strata_h2_coupling_args_t *a, int64_t e, double *x, double *y) {
  const int64_t k = a->k, kk = k * k;
  const int64_t b = e / kk, t = a->row_node[b], s = a->col_node[b];
  int64_t al = (e / k) % k, be = e % k;
  for (int d = 0; d < 3; ++d) {
    x[d] = 0.0;
    y[d] = 0.0;
    if (d < a->dim) {
      x[d] = a->center[3 * t + d] + a->half[3 * t + d] * a->cheb[al % a->p];
      y[d] = a->center[3 * s + d] + a->half[3 * s + d] * a->cheb[be % a->p];
      al /= a->p;
      be /= a->p;
    }
  }
}

/* The two points of dense entry e (see strata_h2_dense_args_t). */
STRATA_KL_FUNC void strata_h2_kl_dense_points(const strata_h2_dense_args_t *a, int64_t e, const double **x,
                                              const double **y) {
  const int64_t b = strata_kl_lower_bound_i64(a->offsets, 0, a->num_blocks + 1, e + 1) - 1;
  const int64_t t = a->row_node[b], s = a->col_node[b];
  const int64_t ns = a->node_end[s] - a->node_begin[s], loc = e - a->offsets[b];
  *x = a->pts + 3 * (a->node_begin[t] + loc / ns);
  *y = a->pts + 3 * (a->node_begin[s] + loc % ns);
}

#define STRATA_H2_USER_KERNELS(PREFIX, FUNC)                                                          \
  STRATA_FOR_KERNEL(PREFIX##_coupling, strata_h2_coupling_args_t, a_, e_) {                           \
    double x_[3], y_[3];                                                                              \
    strata_h2_kl_coupling_points(a_, e_, x_, y_);                                                     \
    a_->S[e_] = FUNC(x_, y_, a_->params);                                                             \
  }                                                                                                   \
  STRATA_FOR_KERNEL(PREFIX##_dense, strata_h2_dense_args_t, a_, e_) {                                 \
    const double *x_, *y_;                                                                            \
    strata_h2_kl_dense_points(a_, e_, &x_, &y_);                                                      \
    a_->D[e_] = FUNC(x_, y_, a_->params);                                                             \
  }                                                                                                   \
  STRATA_TEAM_KERNEL(PREFIX##_rows, strata_h2_rows_args_t, a_, team_) {                               \
    const int64_t r_ = team_->league_rank;                                                            \
    const double *x_ = a_->pts + 3 * a_->inv_map[a_->rows[r_]];                                       \
    for (int32_t v_ = 0; v_ < a_->nv; ++v_) {                                                         \
      double s_;                                                                                      \
      STRATA_TEAM_VECTOR_REDUCE(team_, j_, 0, a_->n, SUM, f64, s_) {                                  \
        s_ += FUNC(x_, a_->pts + 3 * j_, a_->params) * a_->X[a_->index_map[j_] + v_ * a_->ldx];       \
      }                                                                                               \
      if (strata_team_single(team_)) a_->out[r_ + v_ * a_->m] = s_;                                   \
    }                                                                                                 \
  }

#endif
