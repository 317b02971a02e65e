/* strata tests — host copies of a CrsMatrix and their bitwise comparison (test_sparse,
 * test_mmio). Include after test_common.h and strata/sparse.h. */
#ifndef STRATA_TEST_SPARSE_HOST_H
#define STRATA_TEST_SPARSE_HOST_H

typedef struct {
  int32_t nr, nc;
  int64_t nnz;
  int64_t *ro;
  int32_t *ci;
  double *v;
} host_crs_t;

static inline void host_crs_free(host_crs_t *h) {
  free(h->ro);
  free(h->ci);
  free(h->v);
  memset(h, 0, sizeof *h);
}

/* A host copy of A (any backend; strata_mem_copy is synchronous and ordered after A's work). */
static inline host_crs_t crs_to_host(const strata_crs_matrix_t *A) {
  host_crs_t h;
  h.nr = A->num_rows;
  h.nc = A->num_cols;
  h.nnz = A->nnz;
  h.ro = (int64_t *)malloc(sizeof(int64_t) * ((size_t)A->num_rows + 1));
  h.ci = (int32_t *)malloc(sizeof(int32_t) * (size_t)(A->nnz + 1));
  h.v = (double *)malloc(sizeof(double) * (size_t)(A->nnz + 1));
  T_OK(strata_mem_copy(A->exec, h.ro, A->row_offsets, sizeof(int64_t) * ((size_t)A->num_rows + 1)));
  T_OK(strata_mem_copy(A->exec, h.ci, A->col_indices, sizeof(int32_t) * (size_t)A->nnz));
  T_OK(strata_mem_copy(A->exec, h.v, A->values, sizeof(double) * (size_t)A->nnz));
  return h;
}

/* Same shape, row offsets, columns and value bits; `what` names the comparison in a failure. */
static inline void expect_same_crs(const char *what, const host_crs_t *want, const host_crs_t *got) {
  if (want->nr != got->nr || want->nc != got->nc || want->nnz != got->nnz)
    fail_msg("%s: %d x %d with %lld entries, expected %d x %d with %lld", what, got->nr, got->nc,
             (long long)got->nnz, want->nr, want->nc, (long long)want->nnz);
  for (int32_t i = 0; i <= want->nr; ++i)
    if (want->ro[i] != got->ro[i])
      fail_msg("%s: row_offsets[%d] = %lld, expected %lld (seed %llu)", what, i, (long long)got->ro[i],
               (long long)want->ro[i], (unsigned long long)T_seed);
  for (int64_t k = 0; k < want->nnz; ++k)
    if (want->ci[k] != got->ci[k] || memcmp(&want->v[k], &got->v[k], sizeof(double)) != 0)
      fail_msg("%s: entry %lld: (col %d, %.17g), expected (col %d, %.17g) (seed %llu)", what,
               (long long)k, got->ci[k], got->v[k], want->ci[k], want->v[k], (unsigned long long)T_seed);
}

#endif
