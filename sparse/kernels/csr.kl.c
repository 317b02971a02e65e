/* strata sparse — kernels over user-given CSR arrays (DESIGN §4): validation of the row
 * offsets, per-row checks (sorted and unique, longest row, row of an entry), row ids for the
 * sort-and-merge of strata_crs_fill_complete. */
#include <strata/kl.h>

#include "sparse_args.h"

STRATA_REDUCE_KERNEL(strata_sparse_csr_offsets_check, strata_sparse_csr_offsets_check_args_t, a, r,
                     i64, acc) {
  const int64_t v = a->row_offsets[r];
  const int bad = (r == 0 && v != 0) || (r > 0 && v < a->row_offsets[r - 1]) ||
                  (r == a->num_rows && v != a->nnz);
  if (bad && r < *acc) *acc = r;
}

STRATA_REDUCE_KERNEL(strata_sparse_csr_rows, strata_sparse_csr_rows_args_t, a, r, i64, acc) {
  const int64_t b = a->row_offsets[r], e = a->row_offsets[r + 1];
  if (a->what == STRATA_SPARSE_CSR_MAX_LEN) {
    if (e - b > *acc) *acc = e - b;
  } else if (a->what == STRATA_SPARSE_CSR_ROW_OF) {
    if (e <= a->entry) *acc += 1;
  } else {
    for (int64_t k = b + 1; k < e; ++k)
      if (a->col_indices[k] <= a->col_indices[k - 1]) {
        *acc += 1;
        break;
      }
  }
}

STRATA_FOR_KERNEL(strata_sparse_csr_row_ids, strata_sparse_csr_row_ids_args_t, a, r) {
  const int64_t e = a->row_offsets[r + 1];
  for (int64_t k = a->row_offsets[r]; k < e; ++k) a->rows[k] = (int32_t)r;
}
