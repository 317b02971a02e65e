/* strata tests — argument structs of the MINLOC / MAXLOC test kernels (reduce_loc_kernels.kl.c),
 * shared by the kernel source and test_reduce_loc.c. Pointers are memory of the launching
 * execution space; x is indexed by the launch index i (x[i], i in [begin, end)). */
#ifndef STRATA_TEST_REDUCE_LOC_KERNELS_H
#define STRATA_TEST_REDUCE_LOC_KERNELS_H
#include <stdint.h>

/* (value, index) reduction of x over the range with op MINLOC or MAXLOC (a strata_reduce_op_t
 * value; the body folds with strata_kl_minloc_s / strata_kl_maxloc_s accordingly) */
typedef struct rl_i32_args {
  int op;
  const int32_t *x;
} rl_i32_args_t;
typedef struct rl_i64_args {
  int op;
  const int64_t *x;
} rl_i64_args_t;
typedef struct rl_f32_args {
  int op;
  const float *x;
} rl_f32_args_t;
typedef struct rl_f64_args {
  int op;
  const double *x;
} rl_f64_args_t;

#endif
