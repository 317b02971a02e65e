/* strata — linear operators (DESIGN §9): anything that computes y = alpha·A·x + beta·y.
 * Krylov methods and preconditioners see only this interface, so every matrix type (CrsMatrix,
 * the storage formats of <strata/formats.h>, a user callback; later the distributed and H²
 * matrices) gets every method. Ginkgo's LinOp and PETSc's MatShell are the models. */
#ifndef STRATA_OPERATOR_H
#define STRATA_OPERATOR_H

#include "strata/sparse.h"
#include "strata/spmv.h"
#include "strata/formats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_operator strata_operator_t;

/** A user operator's product: y = alpha·A·x + beta·y on exec's stream. x [num_cols], y [num_rows]
 *  in exec memory. beta == 0: y must not be read (it may hold NaN). Return STRATA_SUCCESS or an
 *  error status (with strata_error_set); the caller passes it on. */
typedef strata_status_t (*strata_operator_apply_fn)(void *ctx, strata_exec_t *exec, double alpha,
                                                    const double *x, double beta, double *y);

/** An operator for a CrsMatrix, applied through the row-class SpMV plan (<strata/spmv.h>) built
 *  here once. A is borrowed: it must outlive the operator, and its values may change between
 *  applies (its pattern may not). spmv_opts NULL: the plan's defaults. Checks that every value of
 *  A is finite: INVALID_DATA naming the first non-finite entry (its row, column and value).
 *  Errors: INVALID_ARGUMENT (NULL exec, A or op; A of another backend than exec), INVALID_DATA,
 *  those of strata_spmv_plan_create. Synchronous. */
strata_status_t strata_operator_create_crs(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           const strata_spmv_options_t *spmv_opts,
                                           strata_operator_t **op);

/** An operator for a matrix in a storage format (strata_format_spmv); M is borrowed. Sizes: M's
 *  rows and columns (those of the CrsMatrix it was converted from). strata_operator_crs gives
 *  NULL for it, so the built-in preconditioners need the CrsMatrix operator. Errors:
 *  INVALID_ARGUMENT (NULL arguments). Synchronous. */
strata_status_t strata_operator_create_format(strata_exec_t *exec, const strata_sparse_format_t *M,
                                              strata_operator_t **op);

/** A user operator of num_rows × num_cols: apply(ctx, ...) computes its products; destroy (may be
 *  NULL) is called with ctx by strata_operator_destroy. Errors: INVALID_ARGUMENT (negative
 *  sizes, NULL apply or op). */
strata_status_t strata_operator_create_user(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                            strata_operator_apply_fn apply, void *ctx,
                                            void (*destroy)(void *ctx), strata_operator_t **op);

/** y = alpha·A·x + beta·y (DESIGN §4 semantics: beta == 0 does not read y; alpha == 0 does not
 *  read A or x). x [num_cols], y [num_rows], exec memory, not overlapping. exec NULL: the
 *  operator's. Errors: INVALID_ARGUMENT (NULL op; NULL x or y with a nonzero extent), those of
 *  the product. Asynchronous on exec's stream. */
strata_status_t strata_operator_apply(strata_exec_t *exec, const strata_operator_t *op, double alpha,
                                      const double *x, double beta, double *y);

/** The operator's sizes. Errors: INVALID_ARGUMENT (NULL op). */
strata_status_t strata_operator_size(const strata_operator_t *op, int32_t *num_rows, int32_t *num_cols);

/** The CrsMatrix behind an operator made by strata_operator_create_crs, else NULL (preconditioners
 *  that factor or scale a matrix need it). Errors: INVALID_ARGUMENT (NULL op or A). */
strata_status_t strata_operator_crs(const strata_operator_t *op, const strata_crs_matrix_t **A);

/* ------------------------------------------------------------------ operators over several processes */

/** How strata_operator_comm_t.reduce combines the processes' values. */
typedef enum strata_operator_reduce_op {
  STRATA_OPERATOR_SUM = 0, /**< the sum over the processes */
  STRATA_OPERATOR_MAX = 1  /**< the largest value; NaN on any process gives NaN */
} strata_operator_reduce_op_t;

/** The hook of an operator whose rows are spread over several processes (a distributed matrix,
 *  <strata/dist.h>): each process holds its own rows of x, b and the work vectors, and the
 *  Krylov methods combine their local reductions through these callbacks. The solvers module
 *  knows no transport (no MPI): the owner of the operator supplies them.
 *  reduce: values [count] (host memory, count >= 1) are replaced in place by their combination
 *  over every process; every process must call it in the same order with the same count and op,
 *  and every process must receive the same bits (combine in a fixed order, not by a reduction
 *  whose rounding may differ between processes), so that every decision of a method (converged,
 *  breakdown, the iteration count) is the same on every process.
 *  agree: st is this process's status; returns the status agreed by every process (an error of
 *  one process is every process's, with a message naming it), so that no process goes on to a
 *  collective another one skipped.
 *  Both are collective over the operator's processes and synchronous; ctx is passed to both.
 *  The Krylov methods call reduce after every local reduction (dot products, norms, the
 *  Gram–Schmidt coefficients of one pass in one call; MAX for the largest |b_i| and the flags of
 *  non-finite values), agree on their argument checks and the allocation of their work memory,
 *  and check that the options and the presence of a preconditioner are the same on every
 *  process. An error of a product or a preconditioner inside the iteration is the operator's and
 *  the preconditioner's to agree (the distributed ones of <strata/dist.h> do); a device fault on
 *  one process is not agreed. */
typedef struct strata_operator_comm {
  void *ctx;
  strata_status_t (*reduce)(void *ctx, strata_operator_reduce_op_t op, double *values, int count);
  strata_status_t (*agree)(void *ctx, strata_status_t st);
} strata_operator_comm_t;

/** Makes op an operator over several processes (comm is copied; comm NULL: back to one process,
 *  the default of every operator). Its sizes are then this process's rows and columns.
 *  Errors: INVALID_ARGUMENT (NULL op; comm with a NULL reduce or agree). */
strata_status_t strata_operator_set_comm(strata_operator_t *op, const strata_operator_comm_t *comm);

/** *comm = the operator's hook (NULL for a single-process operator: every operator not given one
 *  by strata_operator_set_comm). Preconditioners may query it. Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_operator_comm(const strata_operator_t *op, const strata_operator_comm_t **comm);

/** Frees the operator (not the matrix it borrows); NULL-safe, sets *op to NULL. */
strata_status_t strata_operator_destroy(strata_operator_t **op);

#ifdef __cplusplus
}
#endif
#endif
