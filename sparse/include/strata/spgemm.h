/* strata — sparse matrix-matrix products C = A·B (CSR, double, int64 offsets), on the device
 * (Gustavson's row-by-row formulation; Nagasaka, Nukada, Matsuoka 2017 and Deveci, Trott,
 * Rajamanickam 2018 (KokkosKernels) for accumulators by row class). A symbolic pass gives C's exact
 * pattern (row sizes, then columns) and a plan; a numeric pass fills the values, again for new
 * values of A and B with the same patterns (the plan reused: AMG's RAP when only values change).
 * Rows are grouped by their number of intermediate products: short rows with small accumulators
 * per thread or team in scratch, long rows with larger ones in device memory, each class its own
 * launch. Every entry of C is summed in a fixed order (deterministic on every backend). */
#ifndef STRATA_SPGEMM_H
#define STRATA_SPGEMM_H

#include "strata/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_spgemm strata_spgemm_t;

/** Symbolic phase: C's pattern (fill-complete: sorted, unique columns; values 0) for C = A·B and a
 *  plan for the numeric phase. A [m × k], B [k × n], both on exec's backend (exec memory); their
 *  columns need not be sorted (duplicates count once in the pattern). Errors: INVALID_ARGUMENT (NULL
 *  arguments; inner sizes differ, both named; an exec of another backend); INVALID_DATA (C would
 *  have more than 2^62 entries, or an intermediate count overflows: the row named); OUT_OF_MEMORY
 *  (naming the bytes). Synchronous. */
strata_status_t strata_crs_spgemm_symbolic(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           const strata_crs_matrix_t *B, strata_spgemm_t **plan,
                                           strata_crs_matrix_t **C);

/** Numeric phase: C's values = A·B for A and B of the patterns the plan was made for (their values
 *  may have changed). Errors: INVALID_ARGUMENT (NULL; sizes or entry counts other than the plan's).
 *  Asynchronous on exec's stream. */
strata_status_t strata_crs_spgemm_numeric(strata_exec_t *exec, const strata_spgemm_t *plan,
                                          const strata_crs_matrix_t *A, const strata_crs_matrix_t *B,
                                          strata_crs_matrix_t *C);

/** C = A·B in one call (symbolic + numeric; no plan kept). Errors as the two phases. Synchronous. */
strata_status_t strata_crs_spgemm(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *B,
                                  strata_crs_matrix_t **C);

/** The Galerkin product Ac = Pᵀ·A·P (A square n × n, P n × nc): Pᵀ by strata_crs_transpose, then
 *  A·P and Pᵀ·(A·P). Errors as strata_crs_spgemm, INVALID_ARGUMENT for sizes that do not fit
 *  (named). Synchronous. */
strata_status_t strata_crs_galerkin(strata_exec_t *exec, const strata_crs_matrix_t *P, const strata_crs_matrix_t *A,
                                    strata_crs_matrix_t **Ac);

/** Frees a plan; NULL-safe, sets *plan to NULL. */
strata_status_t strata_spgemm_destroy(strata_spgemm_t **plan);

#ifdef __cplusplus
}
#endif
#endif
