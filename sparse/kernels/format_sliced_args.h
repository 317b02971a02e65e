/* strata sparse — argument structs of the padded (sliced ELLPACK) formats: ELL, ELLPACK-R,
 * SELL-C-σ, SELL-P, pJDS (format_ell.kl.c, format_sell.kl.c, format_pjds.kl.c). Plain C, valid
 * as C11 and C++17; pointers are exec memory. */
#ifndef STRATA_FORMAT_SLICED_ARGS_H
#define STRATA_FORMAT_SLICED_ARGS_H

#include <stdint.h>

/** Longest row: a MAX reduce over rows of row_offsets[r + 1] - row_offsets[r]. */
typedef struct strata_fmt_len_args {
  const int64_t *row_offsets;
} strata_fmt_len_args_t;

/** Sort keys of rows by length, descending, within windows of sigma rows:
 *  keys[r] = (r / sigma) * (max_len + 1) + (max_len - len(r)), perm[r] = r (a stable sort keeps
 *  the row order among equal lengths). */
typedef struct strata_fmt_sort_key_args {
  const int64_t *row_offsets;
  int64_t sigma, max_len;
  int64_t *keys;
  int64_t *perm;
} strata_fmt_sort_key_args_t;

/** ELL / ELLPACK-R: column-major [width][num_rows]; padding has column -1 and value 0 (skipped:
 *  never a product 0 * x[c], NaN for an infinite x[c]);
 *  row_len (ELLPACK-R only, else NULL) the row lengths. */
typedef struct strata_fmt_ell_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  int64_t num_rows, width;
  int32_t *cols;
  double *vals;
  int32_t *row_len;
  const double *x;
  double *y;
  double alpha, beta;
} strata_fmt_ell_args_t;

/** Slices of C rows in a row order perm (sorted position i holds row perm[i]): slice c holds
 *  positions [c C, min(c C + C, num_rows)) = h rows, width[c] entries each (the longest of them
 *  rounded up to a multiple of `round`), column-major inside the slice from offset off[c]:
 *  entry k of position i at off[c] + k h + (i - c C). size[c] = width[c] h (for the scan).
 *  Padding has column -1 and value 0 (also in cols_basis), skipped by the SpMV kernels.
 *  pJDS uses the widths of its blocks (C = b_r) and, instead of off, col_start[k]: entry k of
 *  position i at col_start[k] + i; diag_rows[k] = positions whose width exceeds k. pJDS's fill
 *  also writes cols_basis[p] = colmap[cols[p]] when colmap (the inverse of perm) is given: the
 *  columns of the permuted basis of a square matrix; its SpMV writes y at perm[i] (the original
 *  order) or, when perm is NULL, at i (the permuted basis). */
typedef struct strata_fmt_sell_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  const int32_t *perm;
  const int32_t *colmap;
  int64_t num_rows, C, round;
  int32_t *width;
  int64_t *size;
  int64_t *off;
  int64_t num_slices;
  int32_t *cols;
  int32_t *cols_basis;
  double *vals;
  int64_t rows_per_team;
  const double *x;
  double *y;
  double alpha, beta;
} strata_fmt_sell_args_t;

#endif
