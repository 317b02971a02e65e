/* strata — incomplete LU factorization ILU(k) (DESIGN §9; Saad, Iterative Methods, §10.3).
 *
 * Symbolic phase by level of fill: an entry (i, j) of A has level 0; a fill entry created through
 * pivot row k has level(i, j) = min over k of level(i, k) + level(k, j) + 1; entries of level <= k
 * are kept. ILU(0) keeps A's pattern. Numeric phase on the device: the rows of the factor in
 * dependency levels (row i waits for the rows k < i of its lower part), each level's rows in
 * parallel, IKJ order inside a row — or, as an option, Chow–Patel fixed-point sweeps (Chow & Patel
 * 2015). The two triangular solves are level-scheduled (<strata/sptrsv.h>). */
#ifndef STRATA_ILU_H
#define STRATA_ILU_H

#include "strata/precond.h"
#include "strata/sptrsv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_ilu_algorithm {
  STRATA_ILU_LEVELS = 0,     /**< exact ILU(k) arithmetic, rows in dependency levels (default) */
  STRATA_ILU_CHOW_PATEL = 1  /**< asynchronous-style fixed-point sweeps from A's values; an
                                  approximation of the exact factors that improves with sweeps */
} strata_ilu_algorithm_t;

typedef struct strata_ilu_options {
  int fill_level;                 /**< k in [0, 64]; default 0 */
  strata_ilu_algorithm_t algorithm; /**< default LEVELS */
  int sweeps;                     /**< Chow–Patel sweeps >= 1; default 5 */
  double diag_shift;              /**< >= 0, default 0: factor A + diag_shift·|diag(A)| instead of
                                       A (Manteuffel's shift), for matrices whose pivots vanish */
  strata_sptrsv_algorithm_t sptrsv; /**< algorithm of the two triangular solves; default AUTO */
} strata_ilu_options_t;

/** The defaults above. */
void strata_ilu_options_default(strata_ilu_options_t *opts);

typedef struct strata_ilu strata_ilu_t;

/** Factors A ≈ L·U: symbolic (level of fill), numeric, and the analysis of both triangular
 *  solves. A square, exec memory, any column order (a copy is sorted). opts NULL: the defaults.
 *  Errors: INVALID_ARGUMENT (NULL arguments; A not square, both sizes named; fill_level outside
 *  [0, 64]; sweeps < 1; diag_shift negative or not finite); INVALID_DATA (a row without a stored
 *  diagonal; a zero or non-finite pivot u_ii, the first such row named: the factors then hold no
 *  Inf); OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_ilu_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_ilu_options_t *opts, strata_ilu_t **F);

/** The numeric phase again for new values of A (same pattern as at create). Errors as
 *  strata_ilu_create's INVALID_DATA. Synchronous. */
strata_status_t strata_ilu_refactor(strata_exec_t *exec, strata_ilu_t *F, const strata_crs_matrix_t *A);

/** z = U⁻¹·L⁻¹·r. r, z [n], exec memory, not overlapping; a work vector of the factorization is
 *  used, so one F serves one stream at a time. Asynchronous on exec's stream. */
strata_status_t strata_ilu_solve(strata_exec_t *exec, const strata_ilu_t *F, const double *r, double *z);

/** The factors in one fill-complete CrsMatrix (exec memory, owned by F): L strictly below the
 *  diagonal (its unit diagonal not stored), U on and above it. */
strata_status_t strata_ilu_factors(const strata_ilu_t *F, const strata_crs_matrix_t **LU);

/** Timings and sizes (nnz of the factors, levels of the two solves). */
strata_status_t strata_ilu_stats(const strata_ilu_t *F, strata_precond_stats_t *stats);

/** Frees F; NULL-safe, sets *F to NULL. */
strata_status_t strata_ilu_destroy(strata_ilu_t **F);

/** ILU(k) as a preconditioner (setup: strata_ilu_create, or strata_ilu_refactor when the pattern
 *  is the one already factored). opts is copied; NULL: the defaults. */
strata_status_t strata_precond_create_ilu(strata_exec_t *exec, const strata_ilu_options_t *opts,
                                          strata_precond_t **P);

#ifdef __cplusplus
}
#endif
#endif
