/* strata sparse — the one entry point of the storage formats (strata/formats.h): names,
 * conversion, SpMV, footprint; each format's work is in its own ops table (format_impl.h). */
#include <stdlib.h>
#include <string.h>

#include "format_impl.h"

static const strata_impl_format_ops_t *const format_ops[STRATA_NUM_FORMATS] = {
#define STRATA_X_REF(E, n) &strata_impl_format_ops_##E,
    STRATA_FORMAT_LIST(STRATA_X_REF)
#undef STRATA_X_REF
};

static const char *const format_names[STRATA_NUM_FORMATS] = {
#define STRATA_X_NAME(E, n) #n,
    STRATA_FORMAT_LIST(STRATA_X_NAME)
#undef STRATA_X_NAME
};

const char *strata_format_name(strata_format_t f) {
  return (int)f >= 0 && (int)f < STRATA_NUM_FORMATS ? format_names[f] : "unknown";
}

strata_status_t strata_format_from_name(const char *name, strata_format_t *format) {
  if (!name || !format) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format name: NULL argument");
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f)
    if (!strcmp(name, format_names[f])) {
      *format = (strata_format_t)f;
      return STRATA_SUCCESS;
    }
  char list[512] = "";
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f) {
    strncat(list, format_names[f], sizeof list - strlen(list) - 1);
    if (f + 1 < STRATA_NUM_FORMATS) strncat(list, ", ", sizeof list - strlen(list) - 1);
  }
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "unknown format '%s' (accepted: %s)", name, list);
}

strata_status_t strata_format_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                     strata_format_t format, const strata_format_options_t *opts,
                                     strata_sparse_format_t **M) {
  if (!A || !M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_create: NULL %s", A ? "output" : "matrix");
  *M = NULL;
  if ((int)format < 0 || (int)format >= STRATA_NUM_FORMATS)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_create: format %d is not 0..%d", (int)format,
                            STRATA_NUM_FORMATS - 1);
  const strata_impl_format_ops_t *ops = format_ops[format];
  if (!ops->create)
    return strata_error_set(STRATA_ERR_UNSUPPORTED, "format '%s' is not implemented yet", format_names[format]);
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "format_create");
  if (st != STRATA_SUCCESS) return st;
  strata_format_options_t o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  strata_sparse_format_t *m = (strata_sparse_format_t *)calloc(1, sizeof *m);
  if (!m) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "format_create: %zu bytes", sizeof *m);
  m->format = format;
  m->exec = exec;
  m->num_rows = A->num_rows;
  m->num_cols = A->num_cols;
  m->nnz = A->nnz;
  m->ops = ops;
  st = ops->create(exec, A, &o, m);
  if (st != STRATA_SUCCESS) {
    free(m);
    return st;
  }
  *M = m;
  return STRATA_SUCCESS;
}

strata_status_t strata_format_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                   const double *x, double beta, double *y) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_spmv: NULL matrix");
  strata_status_t st = strata_sparse_impl_exec(&exec, M->exec, "format_spmv");
  if (st != STRATA_SUCCESS) return st;
  if (!y && M->num_rows > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_spmv: NULL y with %d rows", M->num_rows);
  if (!x && M->num_cols > 0 && alpha != 0.0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_spmv: NULL x with %d columns", M->num_cols);
  if (M->num_rows == 0) return STRATA_SUCCESS;
  if (alpha == 0.0 || M->nnz == 0) { /* y = beta y (0 when beta == 0): M and x are not read */
    return strata_sparse_impl_scale(exec, M->num_rows, beta, y);
  }
  return M->ops->spmv(exec, M, alpha, x, beta, y);
}

strata_status_t strata_format_info(const strata_sparse_format_t *M, strata_format_t *format,
                                   strata_format_footprint_t *footprint) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_info: NULL matrix");
  if (format) *format = M->format;
  if (footprint) *footprint = M->footprint;
  return STRATA_SUCCESS;
}

strata_status_t strata_format_destroy(strata_sparse_format_t **M) {
  if (!M || !*M) return STRATA_SUCCESS;
  if ((*M)->ops && (*M)->ops->destroy) (*M)->ops->destroy(*M);
  free(*M);
  *M = NULL;
  return STRATA_SUCCESS;
}
