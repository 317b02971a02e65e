/* strata sparse — SpMV, one-level: a thread per row (DESIGN §4 semantics). */
#include <strata/kl.h>

#include "product.h"

#include "sparse_args.h"
#include "store_y.h"

STRATA_FOR_KERNEL(strata_sparse_spmv_rows, strata_sparse_spmv_args_t, a, i) {
  if (a->alpha == 0.0) { /* A and x are not read */
    a->y[i] = a->beta == 0.0 ? 0.0 : a->beta * a->y[i];
    return;
  }
  const int64_t b = a->row_offsets[i], e = a->row_offsets[i + 1];
  double s = 0.0;
  for (int64_t j = b; j < e; ++j) s += strata_sparse_product_walk(a->values, a->col_indices, a->x, j);
  strata_sparse_store_y(&a->y[i], a->alpha, s, a->beta);
}
