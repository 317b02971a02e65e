/* strata — preconditioners (DESIGN §9): z = M⁻¹·r for a Krylov method. A preconditioner is set up
 * on an operator (built-in ones need the CrsMatrix behind it: strata_operator_crs), then applied
 * any number of times; strata_precond_setup again after A's values changed (same pattern: the
 * symbolic phases are reused). User preconditioners plug in through strata_precond_ops_t. */
#ifndef STRATA_PRECOND_H
#define STRATA_PRECOND_H

#include "strata/operator.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_precond strata_precond_t;

/** A user preconditioner's callbacks. setup (may be NULL): prepare for operator A. apply:
 *  z = M⁻¹·r, r and z [n] in exec memory, not overlapping, on exec's stream. destroy (may be
 *  NULL): free ctx. Each returns STRATA_SUCCESS or an error status set with strata_error_set.
 *  variable: nonzero if M changes from one application to the next (an inner iteration): CG,
 *  BiCGSTAB and GMRES then refuse it, FGMRES takes it. */
typedef struct strata_precond_ops {
  const char *name;
  strata_status_t (*setup)(void *ctx, strata_exec_t *exec, const strata_operator_t *A);
  strata_status_t (*apply)(void *ctx, strata_exec_t *exec, const double *r, double *z);
  void (*destroy)(void *ctx);
  int variable;
} strata_precond_ops_t;

/** Timings and sizes of the last setup, for reports. Fields a preconditioner does not have are 0. */
typedef struct strata_precond_stats {
  double symbolic_s;     /**< pattern phases: ILU(k) levels of fill, partitions and overlap */
  double numeric_s;      /**< values: the diagonal, the ILU factorization */
  double analysis_s;     /**< the triangular solves' level analysis */
  int64_t nnz;           /**< entries stored by the preconditioner (factors: L and U together) */
  int32_t levels_lower;  /**< dependency levels of the lower / upper triangular solve */
  int32_t levels_upper;
  int32_t num_parts;     /**< Schwarz: partitions (nonempty ones) */
  int32_t rows_extended; /**< Schwarz: rows of all blocks with their overlap, together */
} strata_precond_stats_t;

/** A preconditioner from user callbacks (ops is copied; ctx is passed to every callback).
 *  Errors: INVALID_ARGUMENT (NULL ops, ops->apply or P). */
strata_status_t strata_precond_create_user(strata_exec_t *exec, const strata_precond_ops_t *ops,
                                           void *ctx, strata_precond_t **P);

/** Kinds of the diagonal preconditioners. */
typedef enum strata_jacobi_kind {
  STRATA_JACOBI = 0,   /**< z_i = r_i / a_ii */
  STRATA_L1_JACOBI = 1 /**< z_i = r_i / d_i, d_i = a_ii + sign(a_ii)·Σ_{j≠i} |a_ij| (Baker, Falgout,
                            Kolev, Yang 2011, every off-diagonal entry taken as off-block): a
                            convergent smoother for SPD A without a damping factor */
} strata_jacobi_kind_t;

/** Jacobi or l1-Jacobi. Setup refuses a zero, missing or non-finite diagonal: INVALID_DATA
 *  naming the first such row (the same row on every backend; D⁻¹ never holds Inf). */
strata_status_t strata_precond_create_jacobi(strata_exec_t *exec, strata_jacobi_kind_t kind,
                                             strata_precond_t **P);

/** Sets up a Jacobi or l1-Jacobi preconditioner P (made by strata_precond_create_jacobi) on the
 *  rows of A itself, without an operator: A is num_rows x num_cols with num_cols >= num_rows
 *  (exec memory), a_ii is row i's entry in column i and every other entry of the row is
 *  off-diagonal for l1-Jacobi, columns beyond num_rows included — they stand for unknowns of other
 *  processes (a distributed matrix's local rows with its ghost columns appended after the owned
 *  ones, <strata/dist.h>). P then applies to vectors of num_rows (and CG fuses it as for a square
 *  A). Errors: INVALID_ARGUMENT (NULL exec, P or A; P not a Jacobi preconditioner; num_cols <
 *  num_rows, both named), those of the setup (INVALID_DATA naming the first bad row).
 *  Synchronous. */
strata_status_t strata_precond_setup_jacobi_rows(strata_exec_t *exec, strata_precond_t *P,
                                                 const strata_crs_matrix_t *A);

/** A preconditioner from its name, as `strata solve --precond` takes it: none | jacobi |
 *  l1-jacobi | ilu0 | iluk:K | bjacobi:P[:K] | ras:P:OVERLAP[:K] (K the ILU fill level, default 0).
 *  "none" gives *P = NULL (no preconditioner). Errors: INVALID_ARGUMENT naming the unknown name or
 *  the bad value and its limit (K in [0, 64], P >= 1, OVERLAP >= 0). */
strata_status_t strata_precond_create_from_name(strata_exec_t *exec, const char *name,
                                                strata_precond_t **P);

/** Prepares P for operator A (symbolic and numeric phases; again after A's values changed).
 *  Errors: those of the preconditioner (INVALID_DATA naming a bad row; INVALID_ARGUMENT for an
 *  operator without the CrsMatrix a built-in one needs). Synchronous. */
strata_status_t strata_precond_setup(strata_exec_t *exec, strata_precond_t *P, const strata_operator_t *A);

/** z = M⁻¹·r, r and z [n] (n = the rows of the operator set up), exec memory, not overlapping.
 *  Errors: INVALID_ARGUMENT (NULL P; P not set up). Asynchronous on exec's stream. */
strata_status_t strata_precond_apply(strata_exec_t *exec, const strata_precond_t *P, const double *r,
                                     double *z);

/** The preconditioner's name ("jacobi", "ilu(2)", "ras(8, overlap 1, ilu(0))", or the user's). */
const char *strata_precond_name(const strata_precond_t *P);

/** Nonzero for a variable preconditioner (strata_precond_ops_t.variable). */
int strata_precond_is_variable(const strata_precond_t *P);

/** Timings and sizes of the last setup. Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_precond_stats(const strata_precond_t *P, strata_precond_stats_t *stats);

/** Frees P (calls the user's destroy); NULL-safe, sets *P to NULL. */
strata_status_t strata_precond_destroy(strata_precond_t **P);

#ifdef __cplusplus
}
#endif
#endif
