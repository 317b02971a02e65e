/* strata — the storage formats of the seed papers, converted from a CrsMatrix on the device and
 * applied through one SpMV entry point (issue: Sparse II). Each format's kernels are written once
 * in the kernel language. All arrays live in the memory of the matrix's execution space.
 *
 * Formats (names as accepted by strata_format_from_name):
 *   csr           the row-class plan of <strata/spmv.h> (the reference)
 *   ell           ELLPACK: every row padded to the longest, column-major
 *   ellpack-r     ELLPACK-R: ELLPACK plus stored row lengths, so threads skip the padding
 *   pjds          pJDS (Kreutzer et al. 2011): rows sorted by length, padded per block of b_r rows
 *   sell-c-sigma  SELL-C-σ: chunks of C rows, rows sorted by length within windows of σ rows
 *   sell-p        SELL-P: SELL-C-σ with each slice padded to a multiple of the threads per row
 *   coo           COO with a load-balanced kernel (equal entries per team; rows crossing a
 *                 thread's piece summed inside the team, one atomic add per team a row spans)
 *   hyb           ELL + COO, split by a Ginkgo-style strategy
 *   hec           ELL + CSR (the HEC boundary)
 *   csr-lb        load-balanced CSR (the coo kernel over CSR offsets with a row-start map)
 *   merge         merge-path CSR
 *   auto          a documented heuristic picks one of the above per matrix (sparse/src/format_auto.c:
 *                 on GPUs ell, ellpack-r or csr by the padding ELL would need; csr on host)
 * A format not implemented yet is refused with STRATA_ERR_UNSUPPORTED naming it.
 */
#ifndef STRATA_FORMATS_H
#define STRATA_FORMATS_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct strata_crs_matrix;

#define STRATA_FORMAT_LIST(X)                \
  X(CSR, csr)                                \
  X(ELL, ell)                                \
  X(ELLPACK_R, ellpack-r)                    \
  X(PJDS, pjds)                              \
  X(SELL_C_SIGMA, sell-c-sigma)              \
  X(SELL_P, sell-p)                          \
  X(COO, coo)                                \
  X(HYB, hyb)                                \
  X(HEC, hec)                                \
  X(CSR_LB, csr-lb)                          \
  X(MERGE, merge)                            \
  X(AUTO, auto)

typedef enum strata_format {
#define STRATA_X_ENUM(E, n) STRATA_FORMAT_##E,
  STRATA_FORMAT_LIST(STRATA_X_ENUM)
#undef STRATA_X_ENUM
      STRATA_NUM_FORMATS
} strata_format_t;

/** Format parameters; 0 = the format's documented default. Every field is checked whatever the
 *  format (negative values, hyb_strategy outside 0..2: INVALID_ARGUMENT). */
typedef struct strata_format_options {
  int chunk_height;     /**< SELL: rows per chunk C (default: the warp size on GPUs, 8 on host) */
  int sigma;            /**< SELL-C-σ: sorting window in rows (default 256; 1 = no sorting) */
  int threads_per_row;  /**< SELL-P: threads per row the slices are padded for (default 1): a
                             power of two up to the warp size on GPUs, up to 64 on host backends
                             (which pad for it but sum a row with one lane) */
  int block_rows;       /**< pJDS: rows per padding block b_r (default: the warp size, 8 on host) */
  int64_t ell_width;    /**< HYB / HEC: ELL width; 0 = HYB: hyb_strategy's choice, HEC: 20 (the
                             HEC boundary); a width beyond the longest row is cut to it */
  int hyb_strategy;     /**< HYB only: 0 percentile of row lengths (80 %), 1 bounded, 2 minimal
                             storage (sparse/src/format_hyb.c); HEC ignores it */
} strata_format_options_t;

/** Memory footprint of a converted matrix (the pJDS paper's table). csr (and auto when it picks
 *  csr) counts the CSR arrays only, not its plan's row lists and chunk tables (up to 4 bytes per
 *  row more); merge counts its tile tables. */
typedef struct strata_format_footprint {
  size_t bytes;          /**< device bytes held by the format's arrays */
  int64_t stored;        /**< stored entries, padding included */
  int64_t padding;       /**< padding entries (stored − nnz) */
  double overhead;       /**< padding / nnz (0 for nnz = 0) */
} strata_format_footprint_t;

typedef struct strata_sparse_format strata_sparse_format_t;

/** Lower-case name ("sell-c-sigma"); "unknown" for other values. */
const char *strata_format_name(strata_format_t format);
/** Parses a name of the list above. Errors: INVALID_ARGUMENT naming the text and the names. */
strata_status_t strata_format_from_name(const char *name, strata_format_t *format);

/** Converts A (on exec, NULL = A's) to format on the device. The converted matrix keeps no
 *  reference to A. Errors: UNSUPPORTED (format not implemented yet, named), INVALID_ARGUMENT,
 *  OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_format_create(strata_exec_t *exec, const struct strata_crs_matrix *A,
                                     strata_format_t format, const strata_format_options_t *opts,
                                     strata_sparse_format_t **M);

/** y = alpha·M·x + beta·y in the original row and column order (DESIGN §4 semantics: beta == 0
 *  does not read y, alpha == 0 reads neither M nor x). x [num_cols], y [num_rows], exec memory;
 *  x and y must not overlap when x is read (INVALID_ARGUMENT naming both). alpha infinite or NaN:
 *  every row's y is alpha times its whole sum (an empty row's alpha·0 = NaN), in every format, as
 *  csr gives it; that call computes M·x into a temporary of num_rows doubles first and is
 *  synchronous. Reproducibility: the same call gives the same bits every time, except in coo,
 *  csr-lb, hyb and hec, whose rows spanning several teams are combined by atomic adds in no fixed
 *  order (last-bit differences from run to run).
 *  Errors: INVALID_ARGUMENT (NULL M; NULL y with rows; NULL x with columns unless x is not read:
 *  alpha == 0 or no rows; overlapping x and y; an exec of another backend), OUT_OF_MEMORY (alpha
 *  infinite or NaN: the temporary). Asynchronous on exec's stream (but for an infinite or NaN
 *  alpha). */
strata_status_t strata_format_spmv(strata_exec_t *exec, const strata_sparse_format_t *M,
                                   double alpha, const double *x, double beta, double *y);

/* Permuted basis (pJDS, Kreutzer et al. 2011: SpMV on the sorted rows, so that an iterative
 * method permutes its vectors only at its start and end). A format may work in a basis P A Q^T
 * of A with permutation matrices P (rows) and Q (columns): row i of the basis is row rowperm[i]
 * of A, column j is column colperm[j]. pjds: rowperm = its rows sorted by length (descending,
 * stable); a square matrix takes colperm = rowperm (Q = P, so the y_perm of one SpMV is the
 * x_perm of the next), a rectangular one keeps its columns (Q = I). Every other format works in
 * the original basis (P = Q = I; SELL-C-σ's sorting stays internal): the permute calls are plain
 * copies and spmv_permuted is strata_format_spmv. A sort that leaves every row in place gives
 * the identity too. A square pjds matrix whose rows moved keeps its columns twice, in the
 * original order (for strata_format_spmv, as fast as before) and in its basis: 4 bytes more per
 * stored entry, counted in footprint.bytes. */

/** x_perm[i] = x[colperm[i]]: a column-space vector into M's basis. x, x_perm [num_cols], exec
 *  memory, not overlapping. Errors: INVALID_ARGUMENT (NULL M; NULL x or x_perm with num_cols > 0;
 *  x == x_perm; exec of another backend than M's). exec NULL = M's. Asynchronous on exec's
 *  stream (a kernel, or a device copy for the identity). */
strata_status_t strata_format_permute_in(strata_exec_t *exec, const strata_sparse_format_t *M,
                                         const double *x, double *x_perm);

/** y[rowperm[i]] = y_perm[i]: a row-space vector of M's basis back into the original order.
 *  y_perm, y [num_rows], exec memory, not overlapping. Errors: INVALID_ARGUMENT (NULL M; NULL
 *  y_perm or y with num_rows > 0; y_perm == y; exec of another backend). exec NULL = M's.
 *  Asynchronous on exec's stream. */
strata_status_t strata_format_permute_out(strata_exec_t *exec, const strata_sparse_format_t *M,
                                          const double *y_perm, double *y);

/** y_perm = alpha·(P A Q^T)·x_perm + beta·y_perm: SpMV in M's basis, with the semantics of
 *  strata_format_spmv (beta == 0 does not read y_perm, alpha == 0 reads neither M nor x_perm;
 *  zero sizes and nnz = 0 valid). x_perm [num_cols], y_perm [num_rows], exec memory. pjds reads
 *  x_perm and writes y_perm contiguously (no scatter); permute_in, this, permute_out gives
 *  strata_format_spmv's y (pjds: the same order of operations; bit for bit on host backends,
 *  while on GPUs the compiler may fuse multiply-adds differently in the two kernels: last-bit
 *  differences). Errors:
 *  INVALID_ARGUMENT (NULL M; NULL y_perm with rows; NULL x_perm with columns and alpha != 0;
 *  exec of another backend), OUT_OF_MEMORY (alpha infinite or NaN: the temporary of
 *  strata_format_spmv). Asynchronous on exec's stream (but for an infinite or NaN alpha, as in
 *  strata_format_spmv). */
strata_status_t strata_format_spmv_permuted(strata_exec_t *exec, const strata_sparse_format_t *M,
                                            double alpha, const double *x_perm, double beta,
                                            double *y_perm);

/** *rows_permuted = 1 when M's basis permutes the rows (P != I), *cols_permuted = 1 when it
 *  permutes the columns (Q != I); either pointer may be NULL. Errors: INVALID_ARGUMENT (NULL M).
 *  Host only, synchronous (known since create). */
strata_status_t strata_format_is_permuted(const strata_sparse_format_t *M, int *rows_permuted,
                                          int *cols_permuted);

/** The format that M holds (for auto: the one chosen), and its footprint (host, synchronous;
 *  format or footprint may be NULL: not written). Errors: INVALID_ARGUMENT (NULL M). */
strata_status_t strata_format_info(const strata_sparse_format_t *M, strata_format_t *format,
                                   strata_format_footprint_t *footprint);

/** The sizes of the matrix M was converted from (num_rows, num_cols may each be NULL).
 *  Errors: INVALID_ARGUMENT (NULL M). */
strata_status_t strata_format_size(const strata_sparse_format_t *M, int32_t *num_rows, int32_t *num_cols);

/** NULL-safe; sets *M to NULL. */
strata_status_t strata_format_destroy(strata_sparse_format_t **M);

#ifdef __cplusplus
}
#endif
#endif
