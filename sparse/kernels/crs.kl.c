/* strata sparse — kernels that build a CrsMatrix from COO entries on the device (DESIGN §4):
 * validate, key, (device sort by the host), run starts, merge of duplicates, row offsets. */
#include <strata/kl.h>

#include "sparse_args.h"

STRATA_REDUCE_KERNEL(strata_sparse_range_check, strata_sparse_range_check_args_t, a, i, i64, acc) {
  const int32_t u = a->a[i];
  int bad = u < 0 || (int64_t)u >= a->a_end;
  if (a->b) {
    const int32_t v = a->b[i];
    bad = bad || v < 0 || (int64_t)v >= a->b_end;
  }
  if (!bad) return;
  if (a->first) {
    if (i < *acc) *acc = i;
  } else {
    *acc += 1;
  }
}

STRATA_FOR_KERNEL(strata_sparse_coo_keys, strata_sparse_coo_keys_args_t, a, i) {
  a->keys[i] = (int64_t)a->rows[i] * a->num_cols + (int64_t)a->cols[i];
  a->perm[i] = i;
}

STRATA_SCAN_KERNEL(strata_sparse_coo_run_starts, strata_sparse_run_starts_args_t, a, i, i64,
                   partial, final) {
  const int64_t flag = (i == 0 || a->keys[i] != a->keys[i - 1]) ? 1 : 0;
  if (final && flag) a->starts[*partial] = i;
  *partial += flag;
}

STRATA_FOR_KERNEL(strata_sparse_coo_merge, strata_sparse_coo_merge_args_t, a, k) {
  const int64_t s = a->starts[k], e = a->starts[k + 1];
  if (a->ukeys) { /* NULL: the values only (a transpose plan refreshing A^T's) */
    const int64_t key = a->keys[s];
    a->ukeys[k] = key;
    a->col_indices[k] = (int32_t)(key % a->num_cols);
  }
  double v = 0.0;
  if (a->vals) {
    v = a->vals[a->perm[s]]; /* not 0 + first: keeps the sign of a lone -0.0 */
    for (int64_t j = s + 1; j < e; ++j) v += a->vals[a->perm[j]];
  }
  a->values[k] = v;
}

STRATA_FOR_KERNEL(strata_sparse_row_offsets, strata_sparse_row_offsets_args_t, a, r) {
  a->row_offsets[r] = strata_kl_lower_bound_i64(a->ukeys, 0, a->nnz, r * a->num_cols);
}
