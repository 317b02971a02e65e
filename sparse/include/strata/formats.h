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
 *   coo           COO with a load-balanced kernel (equal entries per team, segmented reduction)
 *   hyb           ELL + COO, split by a Ginkgo-style strategy
 *   hec           ELL + CSR (the HEC boundary)
 *   csr-lb        load-balanced CSR (equal entries per team, row-start map)
 *   merge         merge-path CSR
 *   auto          a documented heuristic picks one of the above per matrix
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

/** Format parameters; 0 = the format's documented default. */
typedef struct strata_format_options {
  int chunk_height;     /**< SELL: rows per chunk C (default: the warp size on GPUs, 8 on host) */
  int sigma;            /**< SELL-C-σ: sorting window in rows (default 256; 1 = no sorting) */
  int threads_per_row;  /**< SELL-P: threads per row the slices are padded for (default 1) */
  int block_rows;       /**< pJDS: rows per padding block b_r (default: the warp size, 8 on host) */
  int64_t ell_width;    /**< HYB / HEC: ELL width; 0 = the strategy's choice */
  int hyb_strategy;     /**< HYB: 0 percentile of row lengths (80 %), 1 bounded, 2 minimal storage */
} strata_format_options_t;

/** Memory footprint of a converted matrix (the pJDS paper's table). */
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
 *  does not read y, alpha == 0 reads neither M nor x). x [num_cols], y [num_rows], exec memory.
 *  Asynchronous on exec's stream. */
strata_status_t strata_format_spmv(strata_exec_t *exec, const strata_sparse_format_t *M,
                                   double alpha, const double *x, double beta, double *y);

/** The format that M holds (for auto: the one chosen), and its footprint. */
strata_status_t strata_format_info(const strata_sparse_format_t *M, strata_format_t *format,
                                   strata_format_footprint_t *footprint);

/** NULL-safe; sets *M to NULL. */
strata_status_t strata_format_destroy(strata_sparse_format_t **M);

#ifdef __cplusplus
}
#endif
#endif
