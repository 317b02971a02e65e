/* strata sparse — CrsMatrix: build from COO on the device, copy, destroy, SpMV. Host code only
 * orchestrates (allocations, copies, launches); every loop over rows or entries is a kernel in
 * sparse/kernels. */
#include <stdlib.h>
#include <string.h>

#include "sparse_impl.h"

STRATA_KERNEL_DECLARE(strata_sparse_range_check);
STRATA_KERNEL_DECLARE(strata_sparse_coo_keys);
STRATA_KERNEL_DECLARE(strata_sparse_coo_run_starts);
STRATA_KERNEL_DECLARE(strata_sparse_coo_merge);
STRATA_KERNEL_DECLARE(strata_sparse_row_offsets);
STRATA_KERNEL_DECLARE(strata_sparse_spmv_rows);

/* ------------------------------------------------------------------ helpers (sparse_impl.h) */

strata_status_t strata_sparse_impl_check_xy(const char *what, double alpha, const double *x, int64_t nx,
                                            const double *y, int64_t ny) {
  if (!y && ny > 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL y with %lld rows", what, (long long)ny);
  if (alpha == 0.0 || nx == 0 || ny == 0) return STRATA_SUCCESS; /* x is not read */
  if (!x) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL x with %lld columns", what, (long long)nx);
  const uintptr_t xb = (uintptr_t)x, xe = (uintptr_t)(x + nx), yb = (uintptr_t)y, ye = (uintptr_t)(y + ny);
  if (xb < ye && yb < xe)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: x [%lld doubles at %p] and y [%lld doubles at %p] overlap: y is written while "
                            "x is read; give y its own array",
                            what, (long long)nx, (const void *)x, (long long)ny, (const void *)y);
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_impl_exec(strata_exec_t **exec, strata_exec_t *owner,
                                        const char *what) {
  if (!*exec) *exec = owner;
  if (!*exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL execution space", what);
  if (owner && strata_exec_backend(*exec) != strata_exec_backend(owner))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: execution space of backend '%s' given, the data lives on '%s' "
                            "(copy it with strata_crs_copy first)",
                            what, strata_backend_name(strata_exec_backend(*exec)),
                            strata_backend_name(strata_exec_backend(owner)));
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_impl_check_shape(int32_t num_rows, int32_t num_cols, int64_t nnz,
                                               const char *what) {
  if (num_rows < 0 || num_cols < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: num_rows = %d, num_cols = %d (must be >= 0)", what, (int)num_rows,
                            (int)num_cols);
  if (nnz < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: nnz = %lld is negative", what,
                            (long long)nnz);
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_impl_alloc(strata_exec_t *exec, size_t bytes, void **p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, p);
}

void strata_sparse_impl_free(strata_exec_t *exec, void *p) {
  strata_mem_free(exec, STRATA_MEM_DEVICE, &p);
}

strata_status_t strata_sparse_impl_check_indices(strata_exec_t *exec, int64_t n, const int32_t *a,
                                                 int64_t a_end, const int32_t *b, int64_t b_end,
                                                 int64_t *count, int64_t *first, int32_t *a_first,
                                                 int32_t *b_first) {
  strata_sparse_range_check_args_t args;
  args.a = a;
  args.a_end = a_end;
  args.b = b;
  args.b_end = b_end;
  args.first = 0;
  *count = 0;
  *first = -1;
  if (n == 0) return STRATA_SUCCESS;
  strata_status_t st = strata_parallel_reduce(exec, "strata_sparse_check_indices", strata_range(0, n),
                                              &strata_sparse_range_check, &args, STRATA_REDUCE_SUM,
                                              count);
  if (st != STRATA_SUCCESS || *count == 0) return st;
  args.first = 1;
  st = strata_parallel_reduce(exec, "strata_sparse_first_bad_index", strata_range(0, n),
                              &strata_sparse_range_check, &args, STRATA_REDUCE_MIN, first);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, a_first, a + *first, sizeof *a_first);
  if (st == STRATA_SUCCESS && b) st = strata_mem_copy(exec, b_first, b + *first, sizeof *b_first);
  return st;
}

/* ------------------------------------------------------------------ COO -> CrsMatrix */

static strata_crs_matrix_t *crs_new(strata_exec_t *exec, int32_t num_rows, int32_t num_cols) {
  strata_crs_matrix_t *M = (strata_crs_matrix_t *)calloc(1, sizeof *M);
  if (!M) return NULL;
  M->exec = exec;
  M->num_rows = num_rows;
  M->num_cols = num_cols;
  M->fill_complete = 1;
  return M;
}

/* Bits needed for keys in [0, n) (at least 1). */
static int key_bits_for(int64_t n) {
  int bits = 1;
  while (bits < 63 && ((int64_t)1 << bits) < n) ++bits;
  return bits;
}

/* Sorts the COO keys and merges duplicate runs into M's columns and values; sets M->nnz.
 * keys, perm [nnz_in] and starts [nnz_in + 1] are scratch; *ukeys [M->nnz] is allocated. */
static strata_status_t coo_sort_merge(strata_exec_t *exec, strata_crs_matrix_t *M, int64_t nnz_in,
                                      const int32_t *rows, const int32_t *cols, const double *vals,
                                      int64_t *keys, int64_t *perm, int64_t *starts,
                                      int64_t **ukeys) {
  strata_sparse_coo_keys_args_t ka;
  ka.rows = rows;
  ka.cols = cols;
  ka.num_cols = M->num_cols;
  ka.keys = keys;
  ka.perm = perm;
  strata_status_t st = strata_parallel_for(exec, "strata_sparse_coo_keys", strata_range(0, nnz_in),
                                           &strata_sparse_coo_keys, &ka);
  const int key_bits = key_bits_for((int64_t)M->num_rows * M->num_cols);
  if (st == STRATA_SUCCESS) st = strata_sort_pairs_i64(exec, nnz_in, key_bits, keys, perm);
  strata_sparse_run_starts_args_t ra;
  ra.keys = keys;
  ra.starts = starts;
  int64_t nnz = 0;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_scan(exec, "strata_sparse_coo_run_starts", strata_range(0, nnz_in),
                              &strata_sparse_coo_run_starts, &ra, &nnz);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, starts + nnz, &nnz_in, sizeof nnz_in);
  M->nnz = nnz;
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(int32_t), (void **)&M->col_indices);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(double), (void **)&M->values);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(int64_t), (void **)ukeys);
  if (st != STRATA_SUCCESS) return st;
  strata_sparse_coo_merge_args_t ma;
  ma.keys = keys;
  ma.perm = perm;
  ma.starts = starts;
  ma.vals = vals;
  ma.num_cols = M->num_cols;
  ma.ukeys = *ukeys;
  ma.col_indices = M->col_indices;
  ma.values = M->values;
  return strata_parallel_for(exec, "strata_sparse_coo_merge", strata_range(0, nnz),
                             &strata_sparse_coo_merge, &ma);
}

strata_status_t strata_crs_create_from_coo(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                           int64_t nnz_in, const int32_t *rows, const int32_t *cols,
                                           const double *vals, strata_crs_matrix_t **A) {
  return strata_sparse_impl_coo_create_map(exec, num_rows, num_cols, nnz_in, rows, cols, vals, A, NULL);
}

strata_status_t strata_sparse_impl_coo_regather(strata_exec_t *exec, const strata_sparse_coo_map_t *map,
                                                const double *vals, strata_crs_matrix_t *M) {
  if (M->nnz == 0) return STRATA_SUCCESS;
  strata_sparse_coo_merge_args_t ma;
  memset(&ma, 0, sizeof ma);
  ma.perm = map->perm;
  ma.starts = map->starts;
  ma.vals = vals;
  ma.values = M->values;
  return strata_parallel_for(exec, "strata_sparse_coo_regather", strata_range(0, M->nnz), &strata_sparse_coo_merge,
                             &ma);
}

void strata_sparse_impl_coo_map_free(strata_exec_t *exec, strata_sparse_coo_map_t *map) {
  strata_sparse_impl_free(exec, map->perm);
  strata_sparse_impl_free(exec, map->starts);
  map->perm = map->starts = NULL;
}

strata_status_t strata_sparse_impl_coo_create_map(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                                  int64_t nnz_in, const int32_t *rows, const int32_t *cols,
                                                  const double *vals, strata_crs_matrix_t **A,
                                                  strata_sparse_coo_map_t *map) {
  if (map) map->perm = map->starts = NULL;
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_create_from_coo: NULL output");
  *A = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_create_from_coo: NULL execution space");
  strata_status_t st = strata_sparse_impl_check_shape(num_rows, num_cols, nnz_in, "crs_create_from_coo");
  if (st != STRATA_SUCCESS) return st;
  if (nnz_in > 0 && (!rows || !cols))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_create_from_coo: NULL %s array with nnz = %lld",
                            rows ? "column" : "row", (long long)nnz_in);
  int64_t bad = 0, first = -1;
  int32_t brow = 0, bcol = 0;
  st = strata_sparse_impl_check_indices(exec, nnz_in, rows, num_rows, cols, num_cols,
                                                        &bad, &first, &brow, &bcol);
  if (st != STRATA_SUCCESS) return st;
  if (bad > 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "crs_create_from_coo: %lld of %lld entries outside the %d x %d matrix; "
                            "first is entry %lld = (row %d, col %d) (rows must be in [0, %d), "
                            "cols in [0, %d))",
                            (long long)bad, (long long)nnz_in, (int)num_rows, (int)num_cols,
                            (long long)first, (int)brow, (int)bcol, (int)num_rows, (int)num_cols);

  strata_crs_matrix_t *M = crs_new(exec, num_rows, num_cols);
  if (!M) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "crs_create_from_coo: %zu bytes", sizeof *M);
  int64_t *keys = NULL, *perm = NULL, *starts = NULL, *ukeys = NULL;
  const size_t n = (size_t)nnz_in;
  st = strata_sparse_impl_alloc(exec, ((size_t)num_rows + 1) * sizeof(int64_t), (void **)&M->row_offsets);
  if (st == STRATA_SUCCESS && nnz_in > 0) {
    st = strata_sparse_impl_alloc(exec, n * sizeof(int64_t), (void **)&keys);
    if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, n * sizeof(int64_t), (void **)&perm);
    if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (n + 1) * sizeof(int64_t), (void **)&starts);
    if (st == STRATA_SUCCESS)
      st = coo_sort_merge(exec, M, nnz_in, rows, cols, vals, keys, perm, starts, &ukeys);
  }
  strata_sparse_row_offsets_args_t oa;
  oa.ukeys = ukeys;
  oa.nnz = M->nnz;
  oa.num_cols = num_cols;
  oa.row_offsets = M->row_offsets;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_row_offsets", strata_range(0, (int64_t)num_rows + 1),
                             &strata_sparse_row_offsets, &oa);
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
  strata_sparse_impl_free(exec, keys);
  strata_sparse_impl_free(exec, ukeys);
  if (st == STRATA_SUCCESS && map) { /* the caller keeps the sort permutation and the runs */
    map->perm = perm;
    map->starts = starts;
    perm = starts = NULL;
  }
  strata_sparse_impl_free(exec, perm);
  strata_sparse_impl_free(exec, starts);
  if (st != STRATA_SUCCESS) {
    strata_crs_destroy(&M);
    return st;
  }
  *A = M;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ copy / destroy */

/* Copies bytes from src (memory of src_exec) to dst (memory of exec); through host memory when
 * the two execution spaces are of different backends. */
static strata_status_t copy_between(strata_exec_t *exec, void *dst, strata_exec_t *src_exec,
                                    const void *src, size_t bytes) {
  if (bytes == 0) return STRATA_SUCCESS;
  if (strata_exec_backend(exec) == strata_exec_backend(src_exec))
    return strata_mem_copy(exec, dst, src, bytes);
  void *stage = NULL;
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_HOST, bytes, &stage);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(src_exec, stage, src, bytes);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, dst, stage, bytes);
  strata_mem_free(exec, STRATA_MEM_HOST, &stage);
  return st;
}

strata_status_t strata_crs_copy(strata_exec_t *exec, const strata_crs_matrix_t *src,
                                strata_crs_matrix_t **dst) {
  if (!dst) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_copy: NULL output");
  *dst = NULL;
  if (!src || !exec || !src->exec)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_copy: NULL %s",
                            !src ? "source matrix" : !exec ? "execution space" : "source execution space");
  strata_status_t st = strata_exec_fence(src->exec);
  if (st != STRATA_SUCCESS) return st;
  strata_crs_matrix_t *M = crs_new(exec, src->num_rows, src->num_cols);
  if (!M) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "crs_copy: %zu bytes", sizeof *M);
  M->nnz = src->nnz;
  M->fill_complete = src->fill_complete;
  const size_t ob = ((size_t)src->num_rows + 1) * sizeof(int64_t);
  const size_t cb = (size_t)src->nnz * sizeof(int32_t), vb = (size_t)src->nnz * sizeof(double);
  st = strata_sparse_impl_alloc(exec, ob, (void **)&M->row_offsets);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, cb, (void **)&M->col_indices);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, vb, (void **)&M->values);
  if (st == STRATA_SUCCESS) st = copy_between(exec, M->row_offsets, src->exec, src->row_offsets, ob);
  if (st == STRATA_SUCCESS) st = copy_between(exec, M->col_indices, src->exec, src->col_indices, cb);
  if (st == STRATA_SUCCESS) st = copy_between(exec, M->values, src->exec, src->values, vb);
  if (st != STRATA_SUCCESS) {
    strata_crs_destroy(&M);
    return st;
  }
  *dst = M;
  return STRATA_SUCCESS;
}

strata_status_t strata_crs_destroy(strata_crs_matrix_t **A) {
  if (!A || !*A) return STRATA_SUCCESS;
  strata_crs_matrix_t *M = *A;
  strata_sparse_impl_free(M->exec, M->row_offsets);
  strata_sparse_impl_free(M->exec, M->col_indices);
  strata_sparse_impl_free(M->exec, M->values);
  free(M);
  *A = NULL;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ SpMV */

strata_status_t strata_crs_spmv(strata_exec_t *exec, double alpha, const strata_crs_matrix_t *A,
                                const double *x, double beta, double *y) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_spmv: NULL matrix");
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "crs_spmv");
  if (st != STRATA_SUCCESS) return st;
  st = strata_sparse_impl_check_xy("crs_spmv", alpha, x, A->num_cols, y, A->num_rows);
  if (st != STRATA_SUCCESS) return st;
  strata_sparse_spmv_args_t a;
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.x = x;
  a.y = y;
  a.alpha = alpha;
  a.beta = beta;
  return strata_parallel_for(exec, "strata_crs_spmv", strata_range(0, A->num_rows),
                             &strata_sparse_spmv_rows, &a);
}
