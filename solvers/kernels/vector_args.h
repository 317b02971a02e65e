/* strata solvers — argument structs of the vector kernels (solvers/kernels/vector.kl.c), shared
 * with the host code that launches them (solvers/src/vector.c). Plain C, valid as C11 and C++17.
 * Every pointer is exec memory. */
#ifndef STRATA_SOLVERS_VECTOR_ARGS_H
#define STRATA_SOLVERS_VECTOR_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The BLAS-1 kernels: y = a·x + b·y (axpby: b == 0 does not read y, a == 0 does not read x),
 *  x·y (dot), y = ldexp(x, k) (ldexp: an exact power-of-two scaling, k beyond the exponent range
 *  of one double), sum of ldexp(x_i, k)^2 (sumsq), the bits of max |x_i| (abs_bits: the bit
 *  pattern of a non-negative double orders as the double does, and a NaN's, sign cleared, lies
 *  above +inf's, so a MAX reduce of the bits finds NaN first), the first non-finite index. */
typedef struct strata_vec_args {
  double a, b;
  int k;
  const double *x;
  const double *w;
  double *y;
} strata_vec_args_t;

#ifdef __cplusplus
}
#endif
#endif
