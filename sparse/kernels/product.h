/* strata sparse — one SpMV product a_k·x[col_k], in two flavours by access pattern:
 *   strata_sparse_product: for kernels whose warps read consecutive entries together (coalesced,
 *     each cache line used by one instruction): the entry (value and column) is read with the
 *     streaming hint of strata/kl.h, so that it does not push x out of the L2, and x with the
 *     cached hint (perf/NOTES.md, "Moved from the public headers", product.h).
 *   strata_sparse_product_walk: for a thread (or a few lanes) walking its own row, whose next
 *     entries lie in the cache line just read: plain loads, so that the line stays in L1 (the
 *     streaming hint there was slower: the same notes).
 *   strata_sparse_product_add: strata_sparse_product for the padded formats (ELL, SELL-C-σ,
 *     SELL-P, pJDS), whose padding has column -1: a padding slot adds nothing (it is not a product
 *     0 * x[c], which is NaN when x[c] is infinite or NaN, unlike csr).
 * Shared by every SpMV kernel. Include from kernel sources only. */
#ifndef STRATA_SPARSE_PRODUCT_H
#define STRATA_SPARSE_PRODUCT_H

#include <strata/kl.h>

STRATA_KL_FUNC double strata_sparse_product(const double *vals, const int32_t *cols, const double *x, int64_t k) {
  return strata_load_stream_f64(vals + k) * strata_load_cached_f64(x + strata_load_stream_i32(cols + k));
}

/* *s += vals[k] * x[cols[k]] unless cols[k] < 0 (padding: s is left as it is). Branch-free: a
 * padding slot gathers x[0] (there is one: padding exists only beside a stored entry) and its
 * product is dropped by a select, so that the loads of a whole unrolled row stay independent and
 * in flight together (an `if` around the gather was slower: the same notes). */
STRATA_KL_FUNC void strata_sparse_product_add(double *s, const double *vals, const int32_t *cols, const double *x,
                                              int64_t k) {
  const int32_t c = strata_load_stream_i32(cols + k);
  const double t = strata_load_stream_f64(vals + k) * strata_load_cached_f64(x + (c >= 0 ? c : 0));
  *s = c >= 0 ? *s + t : *s;
}

STRATA_KL_FUNC double strata_sparse_product_walk(const double *vals, const int32_t *cols, const double *x, int64_t k) {
  return vals[k] * x[cols[k]];
}

#endif
