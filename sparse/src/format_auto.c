/* strata sparse — format "auto": a documented heuristic picks a format per matrix from its row
 * lengths (one MAX reduce on the device; n and nnz are known), then converts to it. The matrix
 * then reports the chosen format (strata_format_info).
 *
 * GPUs (measured on an H200 with `strata bench spmv --format all`, 2026-11-29: the fastest format
 * per matrix of the generated suite was ELL on the 7- and 27-point stencils, banded and 3-per-row
 * matrices, ELLPACK-R on the HMEp-like one, HYB/HEC (ELL within 5 %) on random 16 per row, and the
 * row-class CSR plan on the power-law and dense-row ones, where ELL would pad by 10^4x):
 *   padding of ELL, p = (n · max_len − nnz) / nnz,
 *   p <= 0.25          → ell        (every row within a quarter of the longest: nothing to skip)
 *   0.25 < p <= 2      → ellpack-r  (a moderate tail: threads stop at their row's end)
 *   p > 2              → csr        (the row-class plan: long rows get teams, very long ones split)
 * Host backends → csr (the plan; column-major ELL layouts only pay off with coalescing).
 * Empty matrices → csr. */
#include "format_impl.h"

strata_status_t strata_impl_format_auto_choice(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                strata_format_t *choice) {
  *choice = STRATA_FORMAT_CSR;
  if (strata_exec_is_host(exec) || A->num_rows == 0 || A->nnz == 0) return STRATA_SUCCESS;
  int64_t max_len = 0;
  strata_status_t st = strata_crs_row_lengths_max(exec, A, &max_len);
  if (st != STRATA_SUCCESS) return st;
  const double p = ((double)A->num_rows * (double)max_len - (double)A->nnz) / (double)A->nnz;
  *choice = p <= 0.25 ? STRATA_FORMAT_ELL : p <= 2.0 ? STRATA_FORMAT_ELLPACK_R : STRATA_FORMAT_CSR;
  return STRATA_SUCCESS;
}
