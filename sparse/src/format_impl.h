/* strata sparse — what each storage format implements (strata/formats.h), never installed.
 * A format is one ops table, strata_impl_format_ops_<ENUM>, defined in its own source
 * (sparse/src/format_<name>.c, kernels in sparse/kernels/format_<name>.kl.c); formats not
 * implemented yet are defined in format_stubs.c with NULL operations. */
#ifndef STRATA_FORMAT_IMPL_H
#define STRATA_FORMAT_IMPL_H

#include "sparse_impl.h"
#include "strata/formats.h"

struct strata_sparse_format {
  strata_format_t format;
  strata_exec_t *exec;
  int32_t num_rows, num_cols;
  int64_t nnz;
  strata_format_footprint_t footprint; /* filled by create */
  void *impl;                          /* the format's own state */
  const struct strata_impl_format_ops *ops;
  /* M's permuted basis (strata_format_permute_in), set by the create of a format that has one
   * and NULL otherwise (M starts zeroed): basis_rows [num_rows] / basis_cols [num_cols] the
   * original row / column of each row / column of the basis (exec memory owned by impl; NULL:
   * that side is not permuted); spmv_permuted the SpMV in that basis, alpha != 0 as ops->spmv
   * (NULL: ops->spmv). */
  const int32_t *basis_rows, *basis_cols;
  strata_status_t (*spmv_permuted)(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                                   const double *x_perm, double beta, double *y_perm);
};

typedef struct strata_impl_format_ops {
  /** Converts A (on exec, A's backend) into M->impl and fills M->footprint. M's other fields are
   *  set by the caller. On error the format frees what it allocated. */
  strata_status_t (*create)(strata_exec_t *exec, const strata_crs_matrix_t *A,
                            const strata_format_options_t *opts, strata_sparse_format_t *M);
  /** y = alpha M x + beta y; alpha != 0 here (the caller handles alpha == 0 and empty shapes). */
  strata_status_t (*spmv)(strata_exec_t *exec, const strata_sparse_format_t *M, double alpha,
                          const double *x, double beta, double *y);
  /** Frees M->impl (and what it holds). */
  void (*destroy)(strata_sparse_format_t *M);
} strata_impl_format_ops_t;

/** format "auto": the format its heuristic picks for A on exec (format_auto.c). */
strata_status_t strata_impl_format_auto_choice(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                strata_format_t *choice);

#define STRATA_X_DECL(E, n) extern const strata_impl_format_ops_t strata_impl_format_ops_##E;
STRATA_FORMAT_LIST(STRATA_X_DECL)
#undef STRATA_X_DECL

#endif
