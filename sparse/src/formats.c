/* strata sparse — the one entry point of the storage formats (strata/formats.h): names,
 * conversion, SpMV (original order and permuted basis), the basis permutations, footprint; each
 * format's work is in its own ops table (format_impl.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format_impl.h"

#include "../kernels/format_perm_args.h"

STRATA_KERNEL_DECLARE(strata_fmt_perm_gather);
STRATA_KERNEL_DECLARE(strata_fmt_perm_scatter);
STRATA_KERNEL_DECLARE(strata_fmt_axpby);

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
  if (!name || !format)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format name: NULL %s", !name ? "name" : "output");
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
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "format_create");
  if (st != STRATA_SUCCESS) return st;
  if (format == STRATA_FORMAT_AUTO) { /* the heuristic of format_auto.c, then that format */
    st = strata_impl_format_auto_choice(exec, A, &format);
    if (st != STRATA_SUCCESS) return st;
  }
  const strata_impl_format_ops_t *ops = format_ops[format];
  if (!ops->create)
    return strata_error_set(STRATA_ERR_UNSUPPORTED, "format '%s' is not implemented yet", format_names[format]);
  strata_format_options_t o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  /* every field is checked whatever the format, so that a bad value never passes unnoticed */
  const struct { const char *name; int64_t v; } field[] = {
      {"chunk_height", o.chunk_height}, {"sigma", o.sigma},        {"threads_per_row", o.threads_per_row},
      {"block_rows", o.block_rows},     {"ell_width", o.ell_width}};
  for (size_t q = 0; q < sizeof field / sizeof field[0]; ++q)
    if (field[q].v < 0)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_create: option %s = %lld must be >= 0 (0: the default)",
                              field[q].name, (long long)field[q].v);
  if (o.hyb_strategy < 0 || o.hyb_strategy > 2)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_create: option hyb_strategy = %d is not in 0..2",
                            o.hyb_strategy);
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

/* SpMV in the original order or (permuted, what = "format_spmv_permuted") in M's basis: the
 * checks and the alpha == 0 path are the same; y = beta y does not depend on the basis.
 * alpha infinite or NaN: t = M x is computed first (alpha 1, a temporary of num_rows doubles,
 * synchronous), then y = alpha t + beta y, so that every row gets alpha times its whole sum as in
 * csr: formats that scale partial sums (hyb / hec's ELL part and remainder, coo / csr-lb / merge
 * pieces of a row) gave inf * 0 + inf * s = NaN, or inf - inf, where csr gives +-inf. */
static strata_status_t format_apply(strata_exec_t *exec, const strata_sparse_format_t *M, int permuted,
                                    const char *what, double alpha, const double *x, double beta, double *y) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL matrix", what);
  strata_status_t st = strata_sparse_impl_exec(&exec, M->exec, what);
  if (st != STRATA_SUCCESS) return st;
  st = strata_sparse_impl_check_xy(what, alpha, x, M->num_cols, y, M->num_rows);
  if (st != STRATA_SUCCESS) return st;
  if (M->num_rows == 0) return STRATA_SUCCESS;
  if (alpha == 0.0 || M->nnz == 0) { /* y = beta y (0 when beta == 0): M and x are not read */
    return strata_sparse_impl_scale(exec, M->num_rows, alpha, beta, y);
  }
  if (!isfinite(alpha)) { /* t = M x whole, then y = alpha t + beta y (see below) */
    double *t = NULL;
    st = strata_sparse_impl_alloc(exec, (size_t)M->num_rows * sizeof(double), (void **)&t);
    if (st == STRATA_SUCCESS) st = format_apply(exec, M, permuted, what, 1.0, x, 0.0, t);
    strata_fmt_axpby_args_t a = {t, y, alpha, beta};
    if (st == STRATA_SUCCESS)
      st = strata_parallel_for(exec, "strata_fmt_axpby", strata_range(0, M->num_rows), &strata_fmt_axpby, &a);
    const strata_status_t fst = strata_exec_fence(exec);
    if (st == STRATA_SUCCESS) st = fst;
    strata_sparse_impl_free(exec, t);
    return st;
  }
  if (permuted && M->spmv_permuted) return M->spmv_permuted(exec, M, alpha, x, beta, y);
  return M->ops->spmv(exec, M, alpha, x, beta, y);
}

strata_status_t strata_format_spmv(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                   const double *x, double beta, double *y) {
  return format_apply(exec, M, 0, "format_spmv", alpha, x, beta, y);
}

strata_status_t strata_format_spmv_permuted(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                            const double *x_perm, double beta, double *y_perm) {
  return format_apply(exec, M, 1, "format_spmv_permuted", alpha, x_perm, beta, y_perm);
}

strata_status_t strata_format_is_permuted(const strata_sparse_format_t *M, int *rows_permuted, int *cols_permuted) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_is_permuted: NULL matrix");
  if (rows_permuted) *rows_permuted = M->basis_rows != NULL;
  if (cols_permuted) *cols_permuted = M->basis_cols != NULL;
  return STRATA_SUCCESS;
}

/* dst = src through M's basis on one side: in (columns): dst[i] = src[cols[i]]; out (rows):
 * dst[rows[i]] = src[i]; a copy where that side is not permuted */
static strata_status_t format_permute(strata_exec_t *exec, const strata_sparse_format_t *M, int out, const double *src,
                                      double *dst) {
  const char *what = out ? "format_permute_out" : "format_permute_in";
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL matrix", what);
  strata_status_t st = strata_sparse_impl_exec(&exec, M->exec, what);
  if (st != STRATA_SUCCESS) return st;
  const int32_t n = out ? M->num_rows : M->num_cols;
  if (n == 0) return STRATA_SUCCESS;
  if (!src || !dst)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s vector of length %d", what,
                            src ? "output" : "input", n);
  if (src == dst)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: input and output are the same vector (length %d)",
                            what, n);
  strata_fmt_perm_args_t a;
  memset(&a, 0, sizeof a);
  a.map = out ? M->basis_rows : M->basis_cols;
  a.src = src;
  a.dst = dst;
  if (!a.map) return strata_mem_copy_async(exec, dst, src, (size_t)n * sizeof(double));
  return out ? strata_parallel_for(exec, "strata_fmt_perm_scatter", strata_range(0, n), &strata_fmt_perm_scatter, &a)
             : strata_parallel_for(exec, "strata_fmt_perm_gather", strata_range(0, n), &strata_fmt_perm_gather, &a);
}

strata_status_t strata_format_permute_in(strata_exec_t *exec, const strata_sparse_format_t *M, const double *x,
                                         double *x_perm) {
  return format_permute(exec, M, 0, x, x_perm);
}

strata_status_t strata_format_permute_out(strata_exec_t *exec, const strata_sparse_format_t *M, const double *y_perm,
                                          double *y) {
  return format_permute(exec, M, 1, y_perm, y);
}

strata_status_t strata_format_info(const strata_sparse_format_t *M, strata_format_t *format,
                                   strata_format_footprint_t *footprint) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_info: NULL matrix");
  if (format) *format = M->format;
  if (footprint) *footprint = M->footprint;
  return STRATA_SUCCESS;
}

strata_status_t strata_format_size(const strata_sparse_format_t *M, int32_t *num_rows, int32_t *num_cols) {
  if (!M) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "format_size: NULL matrix");
  if (num_rows) *num_rows = M->num_rows;
  if (num_cols) *num_cols = M->num_cols;
  return STRATA_SUCCESS;
}

strata_status_t strata_format_destroy(strata_sparse_format_t **M) {
  if (!M || !*M) return STRATA_SUCCESS;
  if ((*M)->ops && (*M)->ops->destroy) (*M)->ops->destroy(*M);
  free(*M);
  *M = NULL;
  return STRATA_SUCCESS;
}
