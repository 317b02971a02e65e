/* strata sparse — format "csr": a copy of the matrix and its row-class SpMV plan (strata/spmv.h),
 * the reference every other format is tested against. */
#include <stdlib.h>

#include "format_impl.h"
#include "strata/spmv.h"

typedef struct csr_impl {
  strata_crs_matrix_t *A;
  strata_spmv_plan_t *plan;
} csr_impl_t;

static void csr_destroy(strata_sparse_format_t *M) {
  csr_impl_t *c = (csr_impl_t *)M->impl;
  if (!c) return;
  strata_spmv_plan_destroy(&c->plan);
  strata_crs_destroy(&c->A);
  free(c);
  M->impl = NULL;
}

static strata_status_t csr_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_format_options_t *opts, strata_sparse_format_t *M) {
  (void)opts;
  csr_impl_t *c = (csr_impl_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format csr: %zu bytes", sizeof *c);
  M->impl = c;
  strata_status_t st = strata_crs_copy(exec, A, &c->A);
  if (st == STRATA_SUCCESS) st = strata_spmv_plan_create(exec, c->A, NULL, &c->plan);
  if (st != STRATA_SUCCESS) {
    csr_destroy(M);
    return st;
  }
  M->footprint.bytes = (size_t)(A->num_rows + 1) * sizeof(int64_t) + (size_t)A->nnz * (sizeof(int32_t) + sizeof(double));
  M->footprint.stored = A->nnz;
  M->footprint.padding = 0;
  M->footprint.overhead = 0.0;
  return STRATA_SUCCESS;
}

static strata_status_t csr_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                const double *x, double beta, double *y) {
  const csr_impl_t *c = (const csr_impl_t *)M->impl;
  return strata_spmv_plan_apply(exec, c->plan, alpha, c->A, x, beta, y);
}

const strata_impl_format_ops_t strata_impl_format_ops_CSR = {csr_create, csr_spmv, csr_destroy};
