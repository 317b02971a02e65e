/* strata sparse — the load-balanced segmented SpMV shared by the coo, csr-lb, hyb and hec formats
 * (kernel strata_fmt_lb_spmv in sparse/kernels/format_coo.kl.c), never installed. */
#ifndef STRATA_FORMAT_LB_H
#define STRATA_FORMAT_LB_H

#include "format_impl.h"

#include "../kernels/format_lb_args.h"

/** Entries per team and per participant on exec (GPU: 256 threads × 8 entries; host: one thread
 *  × 2048 entries) and the number of teams for nnz entries. */
void strata_fmt_lb_tiling(strata_exec_t *exec, int64_t nnz, int64_t *tile, int64_t *per, int64_t *num_teams);

/** y += alpha · M x through strata_fmt_lb_spmv (a holds the arrays, nnz, tile, per, num_teams;
 *  x, y and alpha are set here). Rows crossing pieces are summed within the team first; rows
 *  crossing team boundaries are then combined by one atomic add per team, so y must already hold
 *  beta·y. Asynchronous. */
strata_status_t strata_fmt_lb_apply(strata_exec_t *exec, strata_fmt_lb_args_t a, double alpha,
                                    const double *x, double *y);

/** The row-start map for a CSR part: team_row (exec, [num_teams]) for a's row_offsets and tile. */
strata_status_t strata_fmt_lb_row_map(strata_exec_t *exec, const strata_fmt_lb_args_t *a, int32_t *team_row);

/** HYB / HEC: an ELL part ([width][num_rows], padding column -1) and a remainder applied by lb
 *  (COO rows for hyb; CSR offsets rem_off [num_rows + 1] and a row-start map for hec). */
typedef struct strata_fmt_hybrid {
  int64_t num_rows, width, rem;
  int32_t *ell_cols;
  double *ell_vals;
  int64_t *rem_off;
  int32_t *rem_rows, *rem_cols;
  double *rem_vals;
  int32_t *team_row;
  strata_fmt_lb_args_t lb;
} strata_fmt_hybrid_t;

/** Builds h from A (width 0: hyb's strategy 0..2, see format_hyb.c; csr_rem: hec's CSR remainder)
 *  and fills fp. Synchronous; on error h holds nothing. */
strata_status_t strata_fmt_hybrid_create(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t width,
                                         int strategy, int csr_rem, strata_fmt_hybrid_t *h,
                                         strata_format_footprint_t *fp);
/** y = alpha (ELL + remainder) x + beta y: the ELL part stores beta·y + its part, the remainder adds. */
strata_status_t strata_fmt_hybrid_spmv(strata_exec_t *exec, const strata_fmt_hybrid_t *h, double alpha,
                                       const double *x, double beta, double *y);
void strata_fmt_hybrid_free(strata_exec_t *exec, strata_fmt_hybrid_t *h);

#endif
