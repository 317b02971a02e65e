/* strata solvers — ILU(k) numeric phase (strata/ilu.h), written once for every backend: the
 * diagonal positions, A's values onto the factors' pattern, the rows of one dependency level by
 * IKJ (a thread per row, in a fixed order: the same bits on every backend and thread count), the
 * pivot check, and the Chow–Patel sweeps. */
#include <strata/kl.h>

#include "ilu_args.h"

STRATA_KL_FUNC int strata_ilu_good_pivot(double u) { return u != 0.0 && isfinite(u); }

STRATA_REDUCE_KERNEL(strata_ilu_diag, strata_ilu_diag_args_t, a, i, i64, acc) {
  const int64_t b = a->row_offsets[i], e = a->row_offsets[i + 1];
  const int64_t p = strata_kl_lower_bound_i32(a->col_indices, b, e, i);
  const int has = p < e && (int64_t)a->col_indices[p] == i;
  if (a->diag_pos) a->diag_pos[i] = has ? p : -1;
  if (!has && i < *acc) *acc = i;
}

STRATA_REDUCE_KERNEL(strata_ilu_init, strata_ilu_init_args_t, a, i, i64, acc) {
  const int64_t b = a->lu_offsets[i], e = a->lu_offsets[i + 1];
  for (int64_t q = b; q < e; ++q) a->lu_vals[q] = 0.0;
  int64_t q = b;
  for (int64_t k = a->a_offsets[i]; k < a->a_offsets[i + 1]; ++k) {
    const int32_t c = a->a_cols[k];
    while (q < e && a->lu_cols[q] < c) ++q;
    if (q < e && a->lu_cols[q] == c)
      a->lu_vals[q] = a->a_vals[k];
    else
      *acc += 1;
  }
  const int64_t d = a->diag_pos[i];
  if (a->shift != 0.0) a->lu_vals[d] += a->shift * fabs(a->lu_vals[d]);
}

STRATA_FOR_KERNEL(strata_ilu_rows, strata_ilu_rows_args_t, a, idx) {
  const int64_t pb = a->begin + idx * a->per, pe = pb + a->per < a->end ? pb + a->per : a->end;
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  double *v = a->vals;
  for (int64_t p = pb; p < pe; ++p) {
    const int64_t i = a->perm[p];
    const int64_t d = a->diag_pos[i], e = ro[i + 1];
    for (int64_t kk = ro[i]; kk < d; ++kk) {
      const int64_t k = ci[kk];
      const double piv = v[a->diag_pos[k]];
      if (!strata_ilu_good_pivot(piv)) {
        v[kk] = 0.0;
        continue;
      }
      const double l = v[kk] / piv;
      v[kk] = l;
      int64_t q = kk + 1;
      for (int64_t jj = a->diag_pos[k] + 1; jj < ro[k + 1]; ++jj) { /* row k's U part, merged with row i */
        const int32_t j = ci[jj];
        while (q < e && ci[q] < j) ++q;
        if (q == e) break;
        if (ci[q] == j) v[q] -= l * v[jj];
      }
    }
  }
}

STRATA_REDUCE_KERNEL(strata_ilu_check, strata_ilu_check_args_t, a, i, i64, acc) {
  int bad = !strata_ilu_good_pivot(a->vals[a->diag_pos[i]]);
  for (int64_t q = a->row_offsets[i]; q < a->row_offsets[i + 1] && !bad; ++q) bad = !isfinite(a->vals[q]);
  if (!bad) return;
  if (a->count)
    *acc += 1;
  else if (i < *acc)
    *acc = i;
}

STRATA_FOR_KERNEL(strata_ilu_sweep, strata_ilu_sweep_args_t, a, i) {
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  for (int64_t q = ro[i]; q < ro[i + 1]; ++q) {
    const int64_t j = ci[q];
    if (a->scale) {
      const double d = a->a0[a->diag_pos[j]];
      a->out[q] = j < i ? (strata_ilu_good_pivot(d) ? a->a0[q] / d : 0.0) : a->a0[q];
      continue;
    }
    const int64_t m = j < i ? j : i;
    double s = a->a0[q];
    for (int64_t kk = ro[i]; kk < ro[i + 1] && ci[kk] < m; ++kk) {
      const int64_t k = ci[kk];
      const int64_t p = strata_kl_lower_bound_i32(ci, a->diag_pos[k] + 1, ro[k + 1], j);
      if (p < ro[k + 1] && (int64_t)ci[p] == j) s -= a->in[kk] * a->in[p];
    }
    if (j < i) {
      const double d = a->in[a->diag_pos[j]];
      a->out[q] = strata_ilu_good_pivot(d) ? s / d : 0.0;
    } else {
      a->out[q] = s;
    }
  }
}
