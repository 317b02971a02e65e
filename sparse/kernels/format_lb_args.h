/* strata sparse — argument structs of the load-balanced formats (coo, csr-lb, hyb, hec): the
 * kernel sources sparse/kernels/format_{coo,csr_lb,hyb,hec}.kl.c and their host sources.
 * Plain C, valid as C11 and C++17. Every pointer is exec memory. */
#ifndef STRATA_FORMAT_LB_ARGS_H
#define STRATA_FORMAT_LB_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The load-balanced segmented SpMV shared by coo, csr-lb, hyb (its COO part) and hec (its CSR
 *  part): y += alpha * M x over entries [0, nnz), team t taking entries [t·tile, (t+1)·tile),
 *  each of its team_size × vector_length participants a contiguous piece of `per` entries.
 *  Rows are given either by rows[k] (COO, sorted by row) or, when rows == NULL, by row_offsets
 *  [num_rows + 1] with team_row[t] = the row holding entry t·tile (the row-start map). */
typedef struct strata_fmt_lb_args {
  const int32_t *rows;        /* COO row ids [nnz], or NULL */
  const int64_t *row_offsets; /* CSR offsets [num_rows + 1] when rows == NULL */
  const int32_t *team_row;    /* [num_teams] when rows == NULL */
  const int32_t *cols;
  const double *vals;
  int64_t nnz;
  int64_t num_rows;
  int64_t num_teams;
  int64_t tile; /* entries per team = team_size * vector_length * per */
  int64_t per;  /* entries per participant */
  const double *x;
  double *y;
  double alpha;
} strata_fmt_lb_args_t;

/** Pointer-jumping rounds of strata_fmt_lb_spmv's in-team row sums at most (one flag each, plus
 *  the initial one): chains of up to 2^(ROUNDS - 1) participants, so teams of up to 2^15. Even. */
#define STRATA_FMT_LB_ROUNDS 16
/** Team scratch bytes of strata_fmt_lb_spmv for P participants and tiles of `tile` entries */
#define STRATA_FMT_LB_SCRATCH(P, tile) \
  ((size_t)(2 * (P) + STRATA_FMT_LB_ROUNDS / 2 + (tile) + (tile) / 16 + 1) * sizeof(double))

/** team_row[t] = the row holding entry t·tile, t < num_teams (csr-lb's row-start map). */
typedef struct strata_fmt_row_map_args {
  const int64_t *row_offsets;
  int64_t num_rows;
  int64_t tile;
  int32_t *team_row;
} strata_fmt_row_map_args_t;

/** HYB / HEC conversion and the ELL part. Row r of A (row_offsets, cols, vals): entries j < width
 *  go to ell_cols / ell_vals[j·num_rows + r] (padding: column -1, value 0, set beforehand), the
 *  rest to the remainder at rem_off[r] + j - width: COO (rem_rows != NULL) or CSR (rem_off has
 *  num_rows + 1 entries). */
typedef struct strata_fmt_ell_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  int64_t num_rows;
  int64_t width;
  int64_t *lens;      /* [num_rows]: row lengths (keys of the width sort) / remainder counts */
  int64_t *perm;      /* [num_rows]: sort values */
  const int64_t *rem_off;
  int32_t *ell_cols;
  double *ell_vals;
  int32_t *rem_rows;  /* HYB: COO rows, or NULL */
  int32_t *rem_cols;
  double *rem_vals;
  const double *x;
  double *y;
  double alpha, beta;
} strata_fmt_ell_args_t;

#ifdef __cplusplus
}
#endif
#endif
