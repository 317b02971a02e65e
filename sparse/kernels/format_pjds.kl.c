/* strata sparse — pJDS (format_pjds.c): jagged diagonals of rows sorted by length, padded per
 * block of b_r rows; conversion and SpMV written once for every backend. The block widths come
 * from strata_fmt_sell_width (format_sell.kl.c) with C = b_r. */
#include <strata/kl.h>

#include "product.h"

#include "format_sliced_args.h"
#include "store_y.h"

/* a thread per diagonal k: the sorted positions whose block is wider than k — the blocks' widths
 * do not increase, so a binary search for the first block of width <= k — times b_r (at most the
 * number of rows) */
STRATA_FOR_KERNEL(strata_fmt_pjds_diag, strata_fmt_sell_args_t, a, k) {
  int64_t lo = 0, hi = a->num_slices;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if ((int64_t)a->width[mid] > k)
      lo = mid + 1;
    else
      hi = mid;
  }
  a->size[k] = lo * a->C < a->num_rows ? lo * a->C : a->num_rows;
}

/* a thread per sorted position i: row perm[i]'s entries, then its block's padding (column -1,
 * value 0), entry k at col_start[k] + i; with colmap also the columns of the permuted basis */
STRATA_FOR_KERNEL(strata_fmt_pjds_fill, strata_fmt_sell_args_t, a, i) {
  const int32_t r = a->perm[i];
  const int64_t b = a->row_offsets[r], len = a->row_offsets[r + 1] - b, w = a->width[i / a->C];
  for (int64_t k = 0; k < w; ++k) {
    const int64_t p = a->off[k] + i;
    a->cols[p] = k < len ? a->col_indices[b + k] : -1;
    a->vals[p] = k < len ? a->values[b + k] : 0.0;
    if (a->colmap) a->cols_basis[p] = k < len ? a->colmap[a->col_indices[b + k]] : -1;
  }
}

/* a thread per sorted position i over its block's width; y at perm[i] (the original row order)
 * or, when perm is NULL, at i (the permuted basis: contiguous) */
STRATA_FOR_KERNEL(strata_fmt_pjds_spmv, strata_fmt_sell_args_t, a, i) {
  const int64_t w = a->width[i / a->C];
  double s = 0.0;
  for (int64_t k = 0; k < w; ++k) strata_sparse_product_add(&s, a->vals, a->cols, a->x, a->off[k] + i);
  const int64_t r = a->perm ? (int64_t)a->perm[i] : i;
  strata_sparse_store_y(&a->y[r], a->alpha, s, a->beta);
}
