/* strata solvers — BLAS-1 kernels on exec memory (strata/vector.h). Reductions go through
 * strata_parallel_reduce, whose fixed combine order makes them reproducible run to run. */
#include <strata/kl.h>

#include "vector_args.h"

STRATA_REDUCE_KERNEL(strata_vec_dot_kernel, strata_vec_args_t, v, i, f64, acc) { *acc += v->x[i] * v->w[i]; }

/* sum of (x_i 2^k)^2: the squares of a vector scaled so that its largest entry is in [1, 2) */
STRATA_REDUCE_KERNEL(strata_vec_sumsq_kernel, strata_vec_args_t, v, i, f64, acc) {
  const double t = ldexp(v->x[i], v->k);
  *acc += t * t;
}

/* MAX over the bits of |x_i| (vector_args.h: NaN above +inf) */
STRATA_REDUCE_KERNEL(strata_vec_abs_bits_kernel, strata_vec_args_t, v, i, i64, acc) {
  const int64_t bits = (int64_t)strata_kl_f64_as_u64(fabs(v->x[i]));
  if (bits > *acc) *acc = bits;
}

/* MIN over the indices of NaN and infinite entries */
STRATA_REDUCE_KERNEL(strata_vec_nonfinite_kernel, strata_vec_args_t, v, i, i64, acc) {
  if (!(fabs(v->x[i]) <= 1.7976931348623157e308) && i < *acc) *acc = i;
}

STRATA_FOR_KERNEL(strata_vec_axpby_kernel, strata_vec_args_t, v, i) {
  const double ax = v->a != 0.0 ? v->a * v->x[i] : 0.0;
  v->y[i] = v->b != 0.0 ? ax + v->b * v->y[i] : ax;
}

STRATA_FOR_KERNEL(strata_vec_fill_kernel, strata_vec_args_t, v, i) { v->y[i] = v->a; }

STRATA_FOR_KERNEL(strata_vec_copy_kernel, strata_vec_args_t, v, i) { v->y[i] = v->x[i]; }

STRATA_FOR_KERNEL(strata_vec_ldexp_kernel, strata_vec_args_t, v, i) { v->y[i] = ldexp(v->x[i], v->k); }
