/* strata sparse — one SpMV product a_k·x[col_k] with the load hints of strata/kl.h: the entry
 * (value and column) is read once, with the streaming hint, so that it does not push x out of the
 * L2; x is read with the cached hint. H200 (strata bench spmv, 2026-11-29, the row-class plan):
 * power law 0.292 -> 0.267 ms, random 16/row 0.678 -> 0.592, 27-point 0.141 -> 0.126; the cached
 * hint on x alone changed nothing measurable. Shared by every SpMV kernel. Include from kernel
 * sources only. */
#ifndef STRATA_SPARSE_PRODUCT_H
#define STRATA_SPARSE_PRODUCT_H

#include <strata/kl.h>

STRATA_KL_FUNC double strata_sparse_product(const double *vals, const int32_t *cols, const double *x, int64_t k) {
  return strata_load_stream_f64(vals + k) * strata_load_cached_f64(x + strata_load_stream_i32(cols + k));
}

#endif
