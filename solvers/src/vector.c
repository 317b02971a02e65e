/* strata solvers — BLAS-1 on exec memory (strata/vector.h); the kernels are in
 * solvers/kernels/vector.kl.c. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "krylov_impl.h"
#include "../kernels/vector_args.h"

STRATA_KERNEL_DECLARE(strata_vec_dot_kernel);
STRATA_KERNEL_DECLARE(strata_vec_sumsq_kernel);
STRATA_KERNEL_DECLARE(strata_vec_abs_bits_kernel);
STRATA_KERNEL_DECLARE(strata_vec_nonfinite_kernel);
STRATA_KERNEL_DECLARE(strata_vec_axpby_kernel);
STRATA_KERNEL_DECLARE(strata_vec_fill_kernel);
STRATA_KERNEL_DECLARE(strata_vec_copy_kernel);
STRATA_KERNEL_DECLARE(strata_vec_ldexp_kernel);

/* The checks every call of vector.h makes: exec, n, the vectors it reads or writes, the result. */
static strata_status_t check(const char *what, strata_exec_t *exec, int32_t n, const void *x,
                             const void *y, const void *result) {
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL execution space", what);
  if (n < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: n = %d is negative (must be >= 0)", what, (int)n);
  if (n > 0 && !x) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL x with n = %d", what, (int)n);
  if (n > 0 && !y) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL y with n = %d", what, (int)n);
  if (!result) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL result", what);
  return STRATA_SUCCESS;
}

static strata_vec_args_t vargs(double a, const double *x, double b, double *y) {
  strata_vec_args_t v;
  memset(&v, 0, sizeof v);
  v.a = a;
  v.b = b;
  v.x = x;
  v.w = y;
  v.y = y;
  return v;
}

strata_status_t strata_vec_dot(strata_exec_t *exec, int32_t n, const double *x, const double *y, double *result) {
  strata_status_t st = check("strata_vec_dot", exec, n, x, y, result);
  if (st) return st;
  strata_vec_args_t v = vargs(0, x, 0, (double *)y);
  return strata_parallel_reduce(exec, NULL, strata_range(0, n), &strata_vec_dot_kernel, &v, STRATA_REDUCE_SUM,
                                result);
}

strata_status_t strata_vec_dot_async(strata_exec_t *exec, int32_t n, const double *x, const double *y,
                                     double *result) {
  strata_status_t st = check("strata_vec_dot_async", exec, n, x, y, result);
  if (st) return st;
  strata_vec_args_t v = vargs(0, x, 0, (double *)y);
  return strata_parallel_reduce_async(exec, NULL, strata_range(0, n), &strata_vec_dot_kernel, &v,
                                      STRATA_REDUCE_SUM, result);
}

/* max |x_i| as a double (NaN when some x_i is NaN) */
static strata_status_t abs_max(strata_exec_t *exec, int32_t n, const double *x, double *result) {
  strata_vec_args_t v = vargs(0, x, 0, NULL);
  int64_t bits = 0;
  strata_status_t st = strata_parallel_reduce(exec, NULL, strata_range(0, n), &strata_vec_abs_bits_kernel, &v,
                                              STRATA_REDUCE_MAX, &bits);
  if (st) return st;
  if (n == 0) bits = 0; /* the identity of MAX (the lowest int64) is no double's bits */
  uint64_t u = (uint64_t)bits;
  memcpy(result, &u, sizeof u);
  return STRATA_SUCCESS;
}

strata_status_t strata_vec_amax(strata_exec_t *exec, int32_t n, const double *x, double *result) {
  strata_status_t st = check("strata_vec_amax", exec, n, x, x, result);
  if (st) return st;
  return abs_max(exec, n, x, result);
}

strata_status_t strata_vec_nrm2(strata_exec_t *exec, int32_t n, const double *x, double *result) {
  strata_status_t st = check("strata_vec_nrm2", exec, n, x, x, result);
  if (st) return st;
  double m = 0;
  if ((st = abs_max(exec, n, x, &m))) return st;
  if (m == 0.0 || !(m <= DBL_MAX)) { /* 0, +inf or NaN: the norm itself */
    *result = m;
    return STRATA_SUCCESS;
  }
  /* scale by 2^k so that the largest |x_i| is in [1, 2): no square underflows to 0 unless it is
   * negligible next to the largest, and the sum of n squares stays below 4n */
  const int k = -ilogb(m);
  double ss = 0;
  if ((st = strata_impl_vec_sumsq(exec, n, x, k, &ss))) return st;
  *result = ldexp(sqrt(ss), -k);
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_vec_sumsq(strata_exec_t *exec, int32_t n, const double *x, int k, double *result) {
  strata_vec_args_t v = vargs(0, x, 0, NULL);
  v.k = k;
  return strata_parallel_reduce(exec, NULL, strata_range(0, n), &strata_vec_sumsq_kernel, &v, STRATA_REDUCE_SUM,
                                result);
}

strata_status_t strata_vec_axpby(strata_exec_t *exec, int32_t n, double alpha, const double *x, double beta,
                                 double *y) {
  int dummy = 0;
  strata_status_t st = check("strata_vec_axpby", exec, n, alpha != 0.0 ? (const void *)x : (const void *)y, y, &dummy);
  if (st) return st;
  strata_vec_args_t v = vargs(alpha, x, beta, y);
  return strata_parallel_for(exec, NULL, strata_range(0, n), &strata_vec_axpby_kernel, &v);
}

strata_status_t strata_vec_axpy(strata_exec_t *exec, int32_t n, double alpha, const double *x, double *y) {
  return strata_vec_axpby(exec, n, alpha, x, 1.0, y);
}

strata_status_t strata_vec_scale(strata_exec_t *exec, int32_t n, double alpha, double *x) {
  return strata_vec_axpby(exec, n, 0.0, NULL, alpha, x);
}

strata_status_t strata_vec_fill(strata_exec_t *exec, int32_t n, double value, double *x) {
  int dummy = 0;
  strata_status_t st = check("strata_vec_fill", exec, n, x, x, &dummy);
  if (st) return st;
  strata_vec_args_t v = vargs(value, NULL, 0, x);
  return strata_parallel_for(exec, NULL, strata_range(0, n), &strata_vec_fill_kernel, &v);
}

strata_status_t strata_vec_copy(strata_exec_t *exec, int32_t n, const double *x, double *y) {
  int dummy = 0;
  strata_status_t st = check("strata_vec_copy", exec, n, x, y, &dummy);
  if (st || x == y) return st;
  strata_vec_args_t v = vargs(0, x, 0, y);
  return strata_parallel_for(exec, NULL, strata_range(0, n), &strata_vec_copy_kernel, &v);
}

strata_status_t strata_impl_vec_find_nonfinite(strata_exec_t *exec, int64_t n, const double *x, int64_t *index) {
  strata_vec_args_t v = vargs(0, x, 0, NULL);
  int64_t first = INT64_MAX;
  strata_status_t st = strata_parallel_reduce(exec, NULL, strata_range(0, n), &strata_vec_nonfinite_kernel, &v,
                                              STRATA_REDUCE_MIN, &first);
  if (st) return st;
  *index = first == INT64_MAX ? -1 : first;
  return STRATA_SUCCESS;
}

strata_status_t strata_vec_find_nonfinite(strata_exec_t *exec, int32_t n, const double *x, int64_t *index) {
  strata_status_t st = check("strata_vec_find_nonfinite", exec, n, x, x, index);
  if (st) return st;
  return strata_impl_vec_find_nonfinite(exec, n, x, index);
}

strata_status_t strata_impl_vec_ldexp(strata_exec_t *exec, int32_t n, const double *x, int k, double *y) {
  strata_vec_args_t v = vargs(0, x, 0, y);
  v.k = k;
  return strata_parallel_for(exec, NULL, strata_range(0, n), &strata_vec_ldexp_kernel, &v);
}
