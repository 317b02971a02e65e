/* strata solvers — Jacobi and l1-Jacobi kernels (strata/precond.h). */
#include <strata/kl.h>

#include "jacobi_args.h"

STRATA_REDUCE_KERNEL(strata_jacobi_diag, strata_jacobi_diag_args_t, a, i, i64, acc) {
  double diag = 0.0, off = 0.0;
  int found = 0;
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
    const double v = a->vals[k];
    if (a->cols[k] == (int32_t)i) {
      diag += v;
      found = 1;
    } else {
      off += fabs(v);
    }
  }
  double d = diag;
  if (a->kind == 1) d = diag >= 0.0 ? diag + off : diag - off;
  const double inv = 1.0 / d;
  const int bad = !found || diag == 0.0 || !(fabs(d) <= 1.7976931348623157e308) ||
                  !(fabs(inv) <= 1.7976931348623157e308);
  a->dinv[i] = bad ? 0.0 : inv;
  if (bad && i < *acc) *acc = i;
}

STRATA_FOR_KERNEL(strata_jacobi_apply_kernel, strata_jacobi_apply_args_t, a, i) { a->z[i] = a->dinv[i] * a->r[i]; }
