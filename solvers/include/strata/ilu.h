/* strata — incomplete LU factorization ILU(k) (DESIGN §9; Saad, Iterative Methods, §10.3).
 *
 * Symbolic phase by level of fill: an entry (i, j) of A has level 0; a fill entry created through
 * pivot row k has level(i, j) = min over k of level(i, k) + level(k, j) + 1; entries of level <= k
 * are kept. ILU(0) keeps A's pattern (no symbolic work); for k >= 1 the symbolic phase runs on the
 * host (A's pattern copied there and the factors' pattern back; Saad's row-by-row algorithm).
 * Numeric phase on the device: the rows of the factor in
 * dependency levels (row i waits for the rows k < i of its lower part), each level's rows in
 * parallel, IKJ order inside a row — or, as an option, Chow–Patel fixed-point sweeps (Chow & Patel
 * 2015). The dependency levels are those of the lower solve, whose analysis (on the device) is
 * done once and serves both; many independent diagonal blocks in one matrix share the levels, so a
 * level of every block is one launch. The two triangular solves are level-scheduled
 * (<strata/sptrsv.h>). */
#ifndef STRATA_ILU_H
#define STRATA_ILU_H

#include "strata/precond.h"
#include "strata/sptrsv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_ilu_algorithm {
  STRATA_ILU_LEVELS = 0,     /**< exact ILU(k) arithmetic, rows in dependency levels (default): a
                                  launch per level, each row's updates read from lists made at
                                  create (up to 4 x 16 bytes per entry of the factors; rows merged
                                  above that); or on GPUs, where the lower solve walks, its levels
                                  average at most 2,048 rows and no row of the factors nor its list
                                  exceeds 8 x the warp size of entries, one launch walking the
                                  levels from the same lists. The same arithmetic in the same order
                                  either way (IKJ) */
  STRATA_ILU_CHOW_PATEL = 1  /**< fixed-point sweeps from A's values (first guess: L = A's strict
                                  lower part scaled by its diagonal, U = A's upper part), each
                                  sweep Jacobi-style (new values from the previous sweep's: the
                                  same bits on every run); an approximation of the exact factors
                                  that improves with sweeps and reaches them after as many sweeps
                                  as the entries' dependency depth */
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
 *  solves. A square, exec memory, any column order (a copy is sorted and its duplicates summed:
 *  strata_crs_copy + strata_crs_fill_complete); A is not kept. opts NULL: the defaults.
 *  Errors: INVALID_ARGUMENT (NULL arguments; A not square, both sizes named; A of another backend;
 *  fill_level outside [0, 64]; sweeps < 1; diag_shift negative or not finite; an algorithm outside
 *  its enum); INVALID_DATA (a row without a stored diagonal, the first named; a zero or non-finite
 *  pivot u_ii, or a non-finite entry in a row of the factors, the first such row named — the same
 *  row on every backend: a multiplier of a bad pivot is taken as 0 rather than divided, so no Inf
 *  comes from a division); OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_ilu_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                  const strata_ilu_options_t *opts, strata_ilu_t **F);

/** The numeric phase again for new values of A (same pattern as at create: checked as the same
 *  rows, the same number of entries after sorting, and every entry inside the factors' pattern),
 *  reusing the symbolic phase and the solves' analysis. exec NULL: F's. After an INVALID_DATA the
 *  factors hold no Inf from a division and strata_ilu_solve refuses F until a refactor succeeds.
 *  Errors: INVALID_ARGUMENT (NULL F or A; another pattern, the counts named); strata_ilu_create's
 *  INVALID_DATA. Synchronous. */
strata_status_t strata_ilu_refactor(strata_exec_t *exec, strata_ilu_t *F, const strata_crs_matrix_t *A);

/** z = U⁻¹·L⁻¹·r: the two plans' solves (L unit, then U) on the factors' matrix. r, z [n], exec
 *  memory, not overlapping; a work vector of the factorization is used, so one F serves one stream
 *  at a time. exec NULL: F's. Errors: INVALID_ARGUMENT (NULL F; NULL r or z with n > 0; r and z
 *  overlapping; the last factorization failed). Asynchronous on exec's stream. */
strata_status_t strata_ilu_solve(strata_exec_t *exec, const strata_ilu_t *F, const double *r, double *z);

/** The factors in one fill-complete CrsMatrix (exec memory, owned by F): L strictly below the
 *  diagonal (its unit diagonal not stored), U on and above it. */
strata_status_t strata_ilu_factors(const strata_ilu_t *F, const strata_crs_matrix_t **LU);

/** Timings and sizes (nnz of the factors, levels of the two solves). */
strata_status_t strata_ilu_stats(const strata_ilu_t *F, strata_precond_stats_t *stats);

/** Frees F; NULL-safe, sets *F to NULL. */
strata_status_t strata_ilu_destroy(strata_ilu_t **F);

/** ILU(k) as a preconditioner named "ilu(K)" (setup: strata_ilu_create, or strata_ilu_refactor
 *  when a fill-complete A has the rows and entries already factored). opts is copied; NULL: the
 *  defaults. Errors: INVALID_ARGUMENT (NULL P; fill_level outside [0, 64]; the rest of the options
 *  are checked at setup). */
strata_status_t strata_precond_create_ilu(strata_exec_t *exec, const strata_ilu_options_t *opts,
                                          strata_precond_t **P);

#ifdef __cplusplus
}
#endif
#endif
