/* strata sparse — explicit transpose on the device: A^T's COO by a kernel, then the COO builder
 * (device sort by (row, col), so A^T comes out fill-complete; values follow their entries). */
#include "sparse_impl.h"

#include "../kernels/transpose_args.h"

STRATA_KERNEL_DECLARE(strata_sparse_transpose_coo);

strata_status_t strata_crs_transpose(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                     strata_crs_matrix_t **At) {
  return strata_sparse_impl_transpose_map(exec, A, At, NULL);
}

strata_status_t strata_sparse_impl_transpose_map(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                 strata_crs_matrix_t **At, strata_sparse_coo_map_t *map) {
  if (map) map->perm = map->starts = NULL;
  if (!A || !At) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_transpose: NULL %s", A ? "output" : "matrix");
  *At = NULL;
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "crs_transpose");
  if (st != STRATA_SUCCESS) return st;
  int32_t *rows = NULL, *cols = NULL;
  st = strata_sparse_impl_alloc(exec, (size_t)A->nnz * sizeof(int32_t), (void **)&rows);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)A->nnz * sizeof(int32_t), (void **)&cols);
  if (st == STRATA_SUCCESS && A->nnz > 0) {
    strata_sparse_transpose_args_t a = {A->row_offsets, A->col_indices, rows, cols};
    st = strata_parallel_for(exec, "strata_crs_transpose", strata_range(0, A->num_rows),
                             &strata_sparse_transpose_coo, &a);
  }
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_coo_create_map(exec, A->num_cols, A->num_rows, A->nnz, rows, cols, A->values, At, map);
  strata_sparse_impl_free(exec, rows);
  strata_sparse_impl_free(exec, cols);
  return st;
}
