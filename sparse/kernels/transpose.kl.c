/* strata sparse — the COO of A^T from a CrsMatrix: entry k of row r becomes (col[k], r). */
#include <strata/kl.h>

#include "transpose_args.h"

STRATA_FOR_KERNEL(strata_sparse_transpose_coo, strata_sparse_transpose_args_t, a, r) {
  for (int64_t k = a->row_offsets[r]; k < a->row_offsets[r + 1]; ++k) {
    a->rows[k] = a->col_indices[k];
    a->cols[k] = (int32_t)r;
  }
}
