/* strata sparse — ELL and ELLPACK-R (format_ell.c), and the row-length kernels shared by the
 * padded formats (SELL-C-σ, SELL-P, pJDS): conversion and SpMV written once for every backend. */
#include <strata/kl.h>

#include "product.h"

#include "format_sliced_args.h"
#include "store_y.h"

/* the longest row (MAX) */
STRATA_REDUCE_KERNEL(strata_fmt_max_len, strata_fmt_len_args_t, a, r, i64, acc) {
  const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
  if (len > *acc) *acc = len;
}

/* keys of rows sorted by length, descending, within windows of sigma rows */
STRATA_FOR_KERNEL(strata_fmt_sort_keys, strata_fmt_sort_key_args_t, a, r) {
  const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
  a->keys[r] = r / a->sigma * (a->max_len + 1) + (a->max_len - len);
  a->perm[r] = r;
}

/* a thread per row: its entries, then padding (column -1, value 0) up to the width */
STRATA_FOR_KERNEL(strata_fmt_ell_fill, strata_fmt_ell_args_t, a, r) {
  const int64_t b = a->row_offsets[r], len = a->row_offsets[r + 1] - b;
  for (int64_t k = 0; k < a->width; ++k) {
    const int64_t p = k * a->num_rows + r;
    a->cols[p] = k < len ? a->col_indices[b + k] : -1;
    a->vals[p] = k < len ? a->values[b + k] : 0.0;
  }
  if (a->row_len) a->row_len[r] = (int32_t)len;
}

STRATA_KL_FUNC void strata_fmt_ell_store(const strata_fmt_ell_args_t *a, int64_t r, double s) {
  strata_sparse_store_y(&a->y[r], a->alpha, s, a->beta);
}

/* ELL: a thread per row over the whole width (the padding's columns are read and skipped) */
STRATA_FOR_KERNEL(strata_fmt_ell_spmv, strata_fmt_ell_args_t, a, r) {
  double s = 0.0;
  for (int64_t k = 0; k < a->width; ++k) strata_sparse_product_add(&s, a->vals, a->cols, a->x, k * a->num_rows + r);
  strata_fmt_ell_store(a, r, s);
}

/* ELLPACK-R: a thread per row up to its stored length (the padding is skipped) */
STRATA_FOR_KERNEL(strata_fmt_ellr_spmv, strata_fmt_ell_args_t, a, r) {
  const int64_t len = a->row_len[r];
  double s = 0.0;
  for (int64_t k = 0; k < len; ++k) {
    const int64_t p = k * a->num_rows + r;
    s += strata_sparse_product(a->vals, a->cols, a->x, p);
  }
  strata_fmt_ell_store(a, r, s);
}
