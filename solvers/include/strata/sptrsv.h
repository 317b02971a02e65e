/* strata — sparse triangular solves, level-scheduled (DESIGN §9; Anderson & Saad 1989, Naumov
 * 2011 for cusparse's csrsv analysis). An analysis on the device gives each row its level (one
 * more than the deepest row it depends on) and groups the rows by level; every solve then runs
 * level after level, the rows of one level in parallel. The plan is built once and reused. */
#ifndef STRATA_SPTRSV_H
#define STRATA_SPTRSV_H

#include "strata/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_triangle { STRATA_LOWER = 0, STRATA_UPPER = 1 } strata_triangle_t;
typedef enum strata_diag {
  STRATA_DIAG_NON_UNIT = 0, /**< the stored diagonal divides */
  STRATA_DIAG_UNIT = 1      /**< the diagonal is 1; stored diagonal entries are ignored */
} strata_diag_t;

typedef enum strata_sptrsv_algorithm {
  STRATA_SPTRSV_AUTO = 0,   /**< the library's choice for the backend and the level profile */
  STRATA_SPTRSV_LEVELS = 1, /**< one launch per level */
  STRATA_SPTRSV_WALK = 2    /**< one launch whose teams walk the levels in order */
} strata_sptrsv_algorithm_t;

typedef struct strata_sptrsv_options {
  strata_triangle_t triangle;          /**< which triangle of T is solved with; default LOWER */
  strata_diag_t diag;                  /**< default NON_UNIT */
  int transpose;                       /**< nonzero: solve with op(T) = Tᵀ of that triangle */
  strata_sptrsv_algorithm_t algorithm; /**< default AUTO */
} strata_sptrsv_options_t;

typedef struct strata_sptrsv strata_sptrsv_t;

/** Analysis of the triangle of T named by opts (entries of the other triangle are ignored, as
 *  cusparseSpSV's fill mode; columns need not be sorted). T square, exec memory, borrowed: it must
 *  outlive the plan, and the solve reads its values (after a change of values with transpose set,
 *  call strata_sptrsv_update_values). opts NULL: lower, non-unit. Errors: INVALID_ARGUMENT (NULL
 *  arguments; T not square, both sizes named; T of another backend); INVALID_DATA (non-unit: a
 *  row whose diagonal is missing, zero or not finite, the first row named). Synchronous. */
strata_status_t strata_sptrsv_create(strata_exec_t *exec, const strata_crs_matrix_t *T,
                                     const strata_sptrsv_options_t *opts, strata_sptrsv_t **plan);

/** Takes T's current values (same pattern) into a plan that keeps copies (transpose). Errors as
 *  strata_sptrsv_create's INVALID_DATA. Synchronous. */
strata_status_t strata_sptrsv_update_values(strata_exec_t *exec, strata_sptrsv_t *plan,
                                            const strata_crs_matrix_t *T);

/** x = op(T)⁻¹·b for the plan's triangle. b, x [n], exec memory, not overlapping. exec NULL: the
 *  plan's. Errors: INVALID_ARGUMENT (NULL plan; NULL b or x with n > 0; b and x overlapping).
 *  Asynchronous on exec's stream. */
strata_status_t strata_sptrsv_solve(strata_exec_t *exec, const strata_sptrsv_t *plan, const double *b,
                                    double *x);

/** The number of dependency levels (0 for n = 0; n for one chain). Errors: INVALID_ARGUMENT. */
strata_status_t strata_sptrsv_levels(const strata_sptrsv_t *plan, int32_t *num_levels);

/** Frees the plan; NULL-safe, sets *plan to NULL. */
strata_status_t strata_sptrsv_destroy(strata_sptrsv_t **plan);

#ifdef __cplusplus
}
#endif
#endif
