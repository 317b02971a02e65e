/* strata sparse — format "hec" = ELL + CSR (the HEC boundary): each row's first ell_width entries
 * (default 20) in an ELL part, the rest in a CSR remainder applied by the load-balanced CSR SpMV
 * with its row-start map (format_lb.h). Built and applied by the hybrid code of format_hyb.c
 * (kernels in sparse/kernels/format_hyb.kl.c). */
#include <stdlib.h>

#include "format_lb.h"

static void hec_destroy(strata_sparse_format_t *M) {
  strata_fmt_hybrid_t *h = (strata_fmt_hybrid_t *)M->impl;
  if (!h) return;
  strata_fmt_hybrid_free(M->exec, h);
  free(h);
  M->impl = NULL;
}

static strata_status_t hec_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_format_options_t *opts, strata_sparse_format_t *M) {
  strata_fmt_hybrid_t *h = (strata_fmt_hybrid_t *)calloc(1, sizeof *h);
  if (!h) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format hec: %zu bytes", sizeof *h);
  const int64_t width = opts->ell_width ? opts->ell_width : 20;
  strata_status_t st = strata_fmt_hybrid_create(exec, A, width, 0, 1, h, &M->footprint);
  if (st != STRATA_SUCCESS) {
    free(h);
    return st;
  }
  M->impl = h;
  return STRATA_SUCCESS;
}

static strata_status_t hec_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                const double *x, double beta, double *y) {
  return strata_fmt_hybrid_spmv(exec, (const strata_fmt_hybrid_t *)M->impl, alpha, x, beta, y);
}

const strata_impl_format_ops_t strata_impl_format_ops_HEC = {hec_create, hec_spmv, hec_destroy};
