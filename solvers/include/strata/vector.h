/* strata — vector kernels of the solvers (BLAS level 1 on exec memory; KokkosBlas's dot, nrm2,
 * axpby). n is the length; n = 0 is valid (dot and norms give 0). Pointers are exec memory.
 * Reductions are deterministic per backend, device and thread count. Errors of every call:
 * INVALID_ARGUMENT (NULL exec; negative n; NULL vectors with n > 0; a NULL result). */
#ifndef STRATA_VECTOR_H
#define STRATA_VECTOR_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

/** *result = x·y (host memory). Synchronous. */
strata_status_t strata_vec_dot(strata_exec_t *exec, int32_t n, const double *x, const double *y,
                               double *result);

/** As strata_vec_dot, with the result written to exec memory in stream order (8 bytes, aligned).
 *  Asynchronous. */
strata_status_t strata_vec_dot_async(strata_exec_t *exec, int32_t n, const double *x, const double *y,
                                     double *result);

/** *result = ||x||_2 (host memory), scaled so that it neither underflows nor overflows where the
 *  norm itself is representable (x = [1e-170, 0] gives 1e-170, not 0: LAPACK dnrm2's contract):
 *  the largest |x_i| first, then the sum of squares of x_i scaled by a power of two. A NaN in x
 *  gives NaN; an infinity gives +inf. Synchronous. */
strata_status_t strata_vec_nrm2(strata_exec_t *exec, int32_t n, const double *x, double *result);

/** *result = max_i |x_i| (host memory); NaN if any x_i is NaN. Synchronous. */
strata_status_t strata_vec_amax(strata_exec_t *exec, int32_t n, const double *x, double *result);

/** y = alpha·x + beta·y. beta == 0: y is not read (NaN in y never leaks); alpha == 0: x is not
 *  read. x == y is allowed. Asynchronous. */
strata_status_t strata_vec_axpby(strata_exec_t *exec, int32_t n, double alpha, const double *x,
                                 double beta, double *y);

/** y = alpha·x + y (strata_vec_axpby with beta = 1). Asynchronous. */
strata_status_t strata_vec_axpy(strata_exec_t *exec, int32_t n, double alpha, const double *x, double *y);

/** x = alpha·x (alpha == 0 writes zeros, NaN in x does not leak). Asynchronous. */
strata_status_t strata_vec_scale(strata_exec_t *exec, int32_t n, double alpha, double *x);

/** x_i = value for every i. Asynchronous. */
strata_status_t strata_vec_fill(strata_exec_t *exec, int32_t n, double value, double *x);

/** y = x (not overlapping, unless x == y). Asynchronous. */
strata_status_t strata_vec_copy(strata_exec_t *exec, int32_t n, const double *x, double *y);

/** The first index whose value is NaN or infinite in *index (host memory; -1 if all are finite).
 *  Synchronous. */
strata_status_t strata_vec_find_nonfinite(strata_exec_t *exec, int32_t n, const double *x,
                                          int64_t *index);

#ifdef __cplusplus
}
#endif
#endif
