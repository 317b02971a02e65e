/* strata sparse — CrsMatrix from user-given CSR arrays (validated on the device), fill-complete
 * in place, row accessors. Host code only orchestrates (allocations, copies, launches); every loop
 * over rows or entries is a kernel in sparse/kernels/csr.kl.c. */
#include <stdlib.h>
#include <string.h>

#include "sparse_impl.h"

STRATA_KERNEL_DECLARE(strata_sparse_csr_offsets_check);
STRATA_KERNEL_DECLARE(strata_sparse_csr_rows);
STRATA_KERNEL_DECLARE(strata_sparse_csr_row_ids);

/* A reduce of strata_sparse_csr_rows over rows [0, num_rows) (num_rows > 0). */
static strata_status_t csr_rows_reduce(strata_exec_t *exec, const int64_t *row_offsets,
                                       const int32_t *col_indices, int64_t num_rows, int what,
                                       int64_t entry, int64_t *out) {
  strata_sparse_csr_rows_args_t a;
  a.row_offsets = row_offsets;
  a.col_indices = col_indices;
  a.entry = entry;
  a.what = what;
  return strata_parallel_reduce(exec, "strata_sparse_csr_rows", strata_range(0, num_rows),
                                &strata_sparse_csr_rows, &a,
                                what == STRATA_SPARSE_CSR_MAX_LEN ? STRATA_REDUCE_MAX : STRATA_REDUCE_SUM,
                                out);
}

/* Checks row offsets [num_rows + 1]: the first bad one is named in an INVALID_DATA message. */
static strata_status_t check_offsets(strata_exec_t *exec, int32_t num_rows, int64_t nnz,
                                     const int64_t *ro) {
  strata_sparse_csr_offsets_check_args_t a;
  a.row_offsets = ro;
  a.num_rows = num_rows;
  a.nnz = nnz;
  int64_t r = INT64_MAX;
  strata_status_t st = strata_parallel_reduce(exec, "strata_sparse_csr_offsets_check",
                                              strata_range(0, (int64_t)num_rows + 1),
                                              &strata_sparse_csr_offsets_check, &a, STRATA_REDUCE_MIN, &r);
  if (st != STRATA_SUCCESS || r == INT64_MAX) return st;
  int64_t v[2] = {0, 0}; /* row_offsets[r - 1], row_offsets[r] */
  st = r == 0 ? strata_mem_copy(exec, &v[1], ro, sizeof v[1]) : strata_mem_copy(exec, v, ro + r - 1, sizeof v);
  if (st != STRATA_SUCCESS) return st;
  if (r == 0 && v[1] != 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "crs_create_from_csr: row_offsets[0] = %lld, must be 0", (long long)v[1]);
  if (r > 0 && v[1] < v[0])
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "crs_create_from_csr: row_offsets decrease at row %lld: row_offsets[%lld] "
                            "= %lld < row_offsets[%lld] = %lld (must be non-decreasing)",
                            (long long)(r - 1), (long long)r, (long long)v[1], (long long)(r - 1),
                            (long long)v[0]);
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "crs_create_from_csr: row_offsets[num_rows = %d] = %lld, must equal nnz = %lld",
                          (int)num_rows, (long long)v[1], (long long)nnz);
}

/* Checks every column against [0, num_cols) (offsets already valid): the first bad entry and its
 * row are named in an INVALID_DATA message. */
static strata_status_t check_columns(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                     int64_t nnz, const int64_t *ro, const int32_t *ci) {
  int64_t bad = 0, first = -1, row = -1;
  int32_t col = 0;
  strata_status_t st =
      strata_sparse_impl_check_indices(exec, nnz, ci, num_cols, NULL, 0, &bad, &first, &col, NULL);
  if (st != STRATA_SUCCESS || bad == 0) return st;
  st = csr_rows_reduce(exec, ro, ci, num_rows, STRATA_SPARSE_CSR_ROW_OF, first, &row);
  if (st != STRATA_SUCCESS) return st;
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "crs_create_from_csr: %lld of %lld column indices outside [0, num_cols = %d); "
                          "first is entry %lld (row %lld) = column %d",
                          (long long)bad, (long long)nnz, (int)num_cols, (long long)first,
                          (long long)row, (int)col);
}

/* *dst = a new exec array of bytes: a copy of src, or zeros when src is NULL. */
static strata_status_t new_array(strata_exec_t *exec, const void *src, size_t bytes, void **dst) {
  strata_status_t st = strata_sparse_impl_alloc(exec, bytes, dst);
  if (st != STRATA_SUCCESS || bytes == 0) return st;
  return src ? strata_mem_copy(exec, *dst, src, bytes) : strata_mem_set_async(exec, *dst, 0, bytes);
}

strata_status_t strata_crs_create_from_csr(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                           int64_t nnz, const int64_t *row_offsets,
                                           const int32_t *col_indices, const double *values,
                                           unsigned flags, strata_crs_matrix_t **A) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_create_from_csr: NULL output");
  *A = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_create_from_csr: NULL execution space");
  if (flags & ~(unsigned)STRATA_CRS_ADOPT)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_create_from_csr: unknown flags 0x%x (known: STRATA_CRS_ADOPT = 0x%x)",
                            flags & ~(unsigned)STRATA_CRS_ADOPT, (unsigned)STRATA_CRS_ADOPT);
  strata_status_t st = strata_sparse_impl_check_shape(num_rows, num_cols, nnz, "crs_create_from_csr");
  if (st != STRATA_SUCCESS) return st;
  if (nnz > 0 && (!row_offsets || !col_indices))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_create_from_csr: NULL %s array with nnz = %lld",
                            row_offsets ? "column index" : "row offsets", (long long)nnz);
  if (row_offsets) st = check_offsets(exec, num_rows, nnz, row_offsets);
  if (st == STRATA_SUCCESS && nnz > 0)
    st = check_columns(exec, num_rows, num_cols, nnz, row_offsets, col_indices);
  int64_t unsorted = 0;
  if (st == STRATA_SUCCESS && nnz > 0)
    st = csr_rows_reduce(exec, row_offsets, col_indices, num_rows, STRATA_SPARSE_CSR_UNSORTED, 0, &unsorted);
  if (st != STRATA_SUCCESS) return st;

  strata_crs_matrix_t *M = (strata_crs_matrix_t *)calloc(1, sizeof *M);
  if (!M) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "crs_create_from_csr: %zu bytes", sizeof *M);
  M->exec = exec;
  M->num_rows = num_rows;
  M->num_cols = num_cols;
  M->nnz = nnz;
  M->fill_complete = unsorted == 0;
  const int adopt = (flags & STRATA_CRS_ADOPT) != 0;
  const size_t ob = ((size_t)num_rows + 1) * sizeof(int64_t);
  const size_t cb = (size_t)nnz * sizeof(int32_t), vb = (size_t)nnz * sizeof(double);
  /* adopted arrays are taken over only once nothing can fail any more */
  if (!adopt || !row_offsets) st = new_array(exec, row_offsets, ob, (void **)&M->row_offsets);
  if (st == STRATA_SUCCESS && (!adopt || nnz == 0))
    st = new_array(exec, nnz ? col_indices : NULL, cb, (void **)&M->col_indices);
  if (st == STRATA_SUCCESS && (!adopt || !values || nnz == 0))
    st = new_array(exec, nnz ? values : NULL, vb, (void **)&M->values);
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
  if (st != STRATA_SUCCESS) {
    strata_crs_destroy(&M);
    return st;
  }
  if (adopt) {
    /* nnz == 0: the given column / value arrays (if any) are not stored, so they are freed here */
    if (row_offsets) M->row_offsets = (int64_t *)row_offsets;
    if (nnz > 0) M->col_indices = (int32_t *)col_indices;
    else strata_sparse_impl_free(exec, (void *)col_indices);
    if (values && nnz > 0) M->values = (double *)values;
    else strata_sparse_impl_free(exec, (void *)values);
  }
  *A = M;
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_impl_row_ids(strata_exec_t *exec, const int64_t *row_offsets, int64_t num_rows,
                                           int32_t *rows) {
  strata_sparse_csr_row_ids_args_t ra;
  ra.row_offsets = row_offsets;
  ra.rows = rows;
  return strata_parallel_for(exec, "strata_sparse_csr_row_ids", strata_range(0, num_rows), &strata_sparse_csr_row_ids,
                             &ra);
}

strata_status_t strata_crs_fill_complete(strata_exec_t *exec, strata_crs_matrix_t *A) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_fill_complete: NULL matrix");
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "crs_fill_complete");
  if (st != STRATA_SUCCESS || A->fill_complete) return st;
  int32_t *rows = NULL;
  st = strata_sparse_impl_alloc(exec, (size_t)A->nnz * sizeof(int32_t), (void **)&rows);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_row_ids(exec, A->row_offsets, A->num_rows, rows);
  strata_crs_matrix_t *B = NULL;
  if (st == STRATA_SUCCESS)
    st = strata_crs_create_from_coo(exec, A->num_rows, A->num_cols, A->nnz, rows, A->col_indices,
                                    A->values, &B); /* synchronous */
  strata_sparse_impl_free(exec, rows);
  if (st != STRATA_SUCCESS) return st;
  return strata_sparse_impl_crs_replace(A, &B); /* A takes the sorted, merged arrays */
}

strata_status_t strata_sparse_impl_crs_replace(strata_crs_matrix_t *A, strata_crs_matrix_t **B) {
  strata_crs_matrix_t old = *A;
  A->nnz = (*B)->nnz;
  A->row_offsets = (*B)->row_offsets;
  A->col_indices = (*B)->col_indices;
  A->values = (*B)->values;
  A->fill_complete = 1;
  (*B)->row_offsets = old.row_offsets;
  (*B)->col_indices = old.col_indices;
  (*B)->values = old.values;
  return strata_crs_destroy(B);
}

strata_status_t strata_crs_row_lengths_max(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           int64_t *max_len) {
  if (!A || !max_len)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_row_lengths_max: NULL %s",
                            A ? "output" : "matrix");
  *max_len = 0;
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "crs_row_lengths_max");
  if (st != STRATA_SUCCESS || A->num_rows == 0) return st;
  return csr_rows_reduce(exec, A->row_offsets, A->col_indices, A->num_rows,
                         STRATA_SPARSE_CSR_MAX_LEN, 0, max_len);
}

strata_status_t strata_crs_get_row(strata_exec_t *exec, const strata_crs_matrix_t *A, int32_t row,
                                   int64_t *count, int32_t *cols_host, double *vals_host,
                                   int64_t capacity) {
  if (!A || !count)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_get_row: NULL %s", A ? "count" : "matrix");
  *count = 0;
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "crs_get_row");
  if (st != STRATA_SUCCESS) return st;
  if (row < 0 || row >= A->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_get_row: row %d outside [0, num_rows = %d)",
                            (int)row, (int)A->num_rows);
  int64_t be[2];
  st = strata_mem_copy(exec, be, A->row_offsets + row, sizeof be);
  if (st != STRATA_SUCCESS) return st;
  const int64_t n = be[1] - be[0];
  *count = n;
  if (n > capacity && (cols_host || vals_host))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_get_row: row %d has %lld entries, capacity %lld is too small",
                            (int)row, (long long)n, (long long)capacity);
  if (cols_host) st = strata_mem_copy(exec, cols_host, A->col_indices + be[0], (size_t)n * sizeof(int32_t));
  if (st == STRATA_SUCCESS && vals_host)
    st = strata_mem_copy(exec, vals_host, A->values + be[0], (size_t)n * sizeof(double));
  return st;
}
