/* strata sparse — host helpers shared by the padded formats (ELL, ELLPACK-R, SELL-C-σ, SELL-P,
 * pJDS), defined in format_ell.c; never installed. */
#ifndef STRATA_FORMAT_SLICED_H
#define STRATA_FORMAT_SLICED_H

#include "format_impl.h"

#include "../kernels/format_sliced_args.h"

/** The longest row of A (a reduce kernel); 0 for no rows. Synchronous. */
strata_status_t strata_impl_fmt_max_len(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t *max_len);

/** perm (exec memory, [A->num_rows] int32, allocated here): the rows sorted by length,
 *  descending, within windows of sigma rows (sigma >= 1; 1 = the identity), stable — a device
 *  sort of (window, -length, row) keys. Synchronous. */
strata_status_t strata_impl_fmt_sort_rows(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t sigma,
                                          int64_t max_len, int32_t **perm);

/** The padded entries: checks stored, allocates *cols / *vals ([stored], exec memory; freed by
 *  the caller's destroy also on error), points the fill kernel's argument fields *acols / *avals
 *  at them, runs the kernel over A's rows, waits, and fills M->footprint (the entries' bytes plus
 *  extra_bytes; padding = stored - nnz). `name` names the format in messages. */
strata_status_t strata_impl_fmt_fill(strata_exec_t *exec, const strata_crs_matrix_t *A, strata_sparse_format_t *M,
                                     const char *name, int64_t stored, size_t extra_bytes, const char *label,
                                     const strata_kernel_t *fill, const void *args, int32_t **cols, double **vals,
                                     int32_t **acols, double **avals);

/** The state of the sliced formats (SELL-C-σ, SELL-P: slices of C rows at off[c]; pJDS: blocks
 *  of C = b_r rows, off = the column starts [max_len + 1]). */
typedef struct strata_impl_fmt_sliced {
  int64_t C, num_slices, max_len;
  int lanes;      /* SELL-P: vector lanes per row in SpMV (threads_per_row on GPUs, 1 on host); 0: one-level */
  int32_t *perm;  /* [num_rows] row of each sorted position */
  int32_t *width; /* [num_slices] */
  int64_t *off;
  int32_t *cols;
  int32_t *cols_basis; /* pJDS, square with rows moved: cols in the permuted basis [stored]; else NULL */
  double *vals;
} strata_impl_fmt_sliced_t;

/** Frees M->impl, a strata_impl_fmt_sliced_t. */
void strata_impl_fmt_sliced_destroy(strata_sparse_format_t *M);

/** The SpMV arguments of a sliced format. */
void strata_impl_fmt_sliced_args(const strata_sparse_format_t *M, double alpha, const double *x, double beta,
                                 double *y, strata_fmt_sell_args_t *a);

/** The warp size of exec's device (1 on host). */
strata_status_t strata_impl_fmt_warp(strata_exec_t *exec, int *warp);

#endif
