/* strata solvers — argument structs of the Jacobi kernels (solvers/kernels/jacobi.kl.c), shared
 * with solvers/src/jacobi.c. Plain C, valid as C11 and C++17. Every pointer is exec memory. */
#ifndef STRATA_SOLVERS_JACOBI_ARGS_H
#define STRATA_SOLVERS_JACOBI_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** dinv[i] = 1 / d_i over the rows of a CrsMatrix: d_i = a_ii (kind 0), or a_ii + sign(a_ii)·
 *  Σ_{j≠i} |a_ij| (kind 1, l1-Jacobi); a_ii is the sum of the row's entries in column i (a row
 *  not fill-complete may hold several). A row whose a_ii is missing or 0, or whose d_i or 1/d_i
 *  is not finite, gets dinv[i] = 0 and is a candidate of the MIN reduce (the first such row). */
typedef struct strata_jacobi_diag_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  int kind;
  double *dinv;
} strata_jacobi_diag_args_t;

/** z[i] = dinv[i] · r[i]. */
typedef struct strata_jacobi_apply_args {
  const double *dinv;
  const double *r;
  double *z;
} strata_jacobi_apply_args_t;

#ifdef __cplusplus
}
#endif
#endif
