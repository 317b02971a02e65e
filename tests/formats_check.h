/* strata tests — one comparison of a storage format with the csr reference, shared by
 * test_formats and test_formats_lb. */
#ifndef STRATA_TEST_FORMATS_CHECK_H
#define STRATA_TEST_FORMATS_CHECK_H

#include "strata/sparse.h"
#include "test_common.h"

/* y = alpha M x + beta y0 must equal csr's y bit for bit (quarter-integer data make every order
 * exact); with beta == 0, y starts as NaN, which must not leak. dy [m] device, yref / y [m] host
 * scratch. label names the case in a failure. */
static inline void formats_expect_csr(const strata_sparse_format_t *ref, const strata_sparse_format_t *M,
                                      int32_t m, const double *dx, double *dy, const double *y0,
                                      double *yref, double *y, double alpha, double beta, const char *label) {
  const size_t bytes = (size_t)m * sizeof(double);
  T_OK(strata_mem_copy(T_exec, dy, y0, bytes));
  T_OK(strata_format_spmv(T_exec, ref, alpha, dx, beta, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(yref, dy, bytes);
  if (beta == 0.0)
    T_OK(strata_mem_set_async(T_exec, dy, 0xFF, bytes));
  else
    T_OK(strata_mem_copy(T_exec, dy, y0, bytes));
  T_OK(strata_format_spmv(T_exec, M, alpha, dx, beta, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, bytes);
  for (int32_t i = 0; i < m; ++i)
    if (!(y[i] == yref[i]))
      fail_msg("%s, alpha %g beta %g: y[%d] = %.17g, csr gives %.17g (seed %llu)", label, alpha, beta, i, y[i],
               yref[i], (unsigned long long)T_seed);
}

#endif
