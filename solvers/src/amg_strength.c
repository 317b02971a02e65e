/* strata solvers — AMG's classical strength of connection (amg_impl.h), on the device: a kernel
 * per row counts the strong connections (the row's largest off-diagonal magnitude of the sign
 * opposite to the diagonal's, and the row-sum test), a device scan gives S's row offsets, the same
 * kernel fills the columns, and S adopts the arrays (strata_crs_create_from_csr). Source: Ruge &
 * Stüben (1987); hypre's BoomerAMGCreateS for the sign of a negative diagonal and max_row_sum. */
#include <math.h>

#include "../kernels/amg_coarsen_args.h"
#include "amg_impl.h"

STRATA_KERNEL_DECLARE(strata_amg_strength_rows);

static void dev_free(strata_exec_t *exec, void *p) { strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)p); }

strata_status_t strata_impl_amg_strength(strata_exec_t *exec, const strata_crs_matrix_t *A, double theta,
                                         double max_row_sum, strata_crs_matrix_t **S) {
  if (!S) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg strength: NULL output S");
  *S = NULL;
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg strength: NULL matrix");
  if (!exec) exec = A->exec;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg strength: NULL exec");
  if (!(theta > 0.0 && theta < 1.0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg strength: theta = %g (must be in (0, 1))", theta);
  if (!(max_row_sum > 0.0 && max_row_sum <= 1.0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "amg strength: max_row_sum = %g (must be in (0, 1]; 1 turns the test off)", max_row_sum);
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg strength: A is %d x %d (must be square)",
                            (int)A->num_rows, (int)A->num_cols);
  if (!A->fill_complete)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "amg strength: A is not fill-complete (sorted unique columns; strata_crs_fill_complete)");
  const int32_t n = A->num_rows;
  int64_t *ro = NULL, nnz = 0;
  int32_t *cols = NULL;
  double *vals = NULL;
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * ((size_t)n + 1), (void **)&ro);
  if (st) return st;
  strata_amg_strength_args_t a = {A->row_offsets, A->col_indices, A->values, theta, max_row_sum, ro, NULL, NULL, NULL};
  st = strata_parallel_for(exec, "strata_amg_strength_count", strata_range(0, n), &strata_amg_strength_rows, &a);
  if (!st) st = strata_scan_exclusive_i64(exec, n, ro, ro, &nnz);
  if (!st) st = strata_mem_copy(exec, ro + n, &nnz, sizeof nnz);
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)nnz, (void **)&cols);
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(double) * (size_t)nnz, (void **)&vals);
  if (!st && nnz > 0) {
    a.counts = NULL;
    a.offsets = ro;
    a.cols = cols;
    a.vals = vals;
    st = strata_parallel_for(exec, "strata_amg_strength_fill", strata_range(0, n), &strata_amg_strength_rows, &a);
  }
  if (!st) st = strata_crs_create_from_csr(exec, n, n, nnz, ro, cols, vals, STRATA_CRS_ADOPT, S);
  if (!st) return st;
  dev_free(exec, &ro);
  dev_free(exec, &cols);
  dev_free(exec, &vals);
  return st;
}
