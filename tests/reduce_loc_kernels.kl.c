/* strata tests — MINLOC / MAXLOC range reduce kernels (test_reduce_loc.c), one per loc type, plus
 * a scalar MIN kernel for the refused op / type combinations. Valid C11 and C++17. */
#include <strata/kl.h>

#include "reduce_loc_kernels.h"

STRATA_REDUCE_KERNEL(rl_i32loc, rl_i32_args_t, a, i, i32loc, acc) {
  if (a->op == STRATA_REDUCE_MAXLOC)
    strata_kl_maxloc_i32(acc, a->x[i], i);
  else
    strata_kl_minloc_i32(acc, a->x[i], i);
}

STRATA_REDUCE_KERNEL(rl_i64loc, rl_i64_args_t, a, i, i64loc, acc) {
  if (a->op == STRATA_REDUCE_MAXLOC)
    strata_kl_maxloc_i64(acc, a->x[i], i);
  else
    strata_kl_minloc_i64(acc, a->x[i], i);
}

STRATA_REDUCE_KERNEL(rl_f32loc, rl_f32_args_t, a, i, f32loc, acc) {
  if (a->op == STRATA_REDUCE_MAXLOC)
    strata_kl_maxloc_f32(acc, a->x[i], i);
  else
    strata_kl_minloc_f32(acc, a->x[i], i);
}

/* the documented one-line forms */
STRATA_REDUCE_KERNEL(rl_f64_argmin, rl_f64_args_t, a, i, f64loc, acc) { strata_kl_minloc_f64(acc, a->x[i], i); }
STRATA_REDUCE_KERNEL(rl_f64_argmax, rl_f64_args_t, a, i, f64loc, acc) { strata_kl_maxloc_f64(acc, a->x[i], i); }

STRATA_REDUCE_KERNEL(rl_f64_min, rl_f64_args_t, a, i, f64, acc) {
  if (a->x[i] < *acc) *acc = a->x[i];
}
