/* strata — sparse matrix-matrix products C = A·B (CSR, double, int64 offsets), on the device
 * (Gustavson's row-by-row formulation; Nagasaka, Nukada, Matsuoka 2017 and Deveci, Trott,
 * Rajamanickam 2018 (KokkosKernels) for accumulators by row class). A symbolic pass gives C's exact
 * pattern (row sizes, then columns) and a plan; a numeric pass fills the values, again for new
 * values of A and B with the same patterns (the plan reused: AMG's RAP when only values change).
 * Rows are grouped by their number of intermediate products (Σ over A's row of B's row lengths,
 * computed on the device): short rows (at most 64) a team thread each with a sorted list in
 * thread scratch (numeric on GPUs: lanes over A's row or over C's row); medium rows (at most 512,
 * 2048) a team each, the (column, product) pairs sorted in team scratch (numeric, B's rows unique:
 * a team thread per row, its lanes adding each A entry's products into C's row held in scratch,
 * A's entries in order; else by buckets per C entry); long rows
 * a team each with a dense accumulator of n columns in device memory; each class its own launch. Host backends (teams of one thread) send every row beyond the short
 * class to the dense accumulator. Every entry of C is the sum of its products in a fixed order —
 * A's row entries in storage order, for each B's row entries in storage order — starting from
 * -0.0 (so a lone product keeps its sign): the same bits on every run and thread count, and on
 * the host backends the same bits as a sequential Gustavson product (GPU compilers may contract
 * a·b + s into an FMA). Kernels: sparse/kernels/spgemm.kl.c. */
#ifndef STRATA_SPGEMM_H
#define STRATA_SPGEMM_H

#include "strata/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_spgemm strata_spgemm_t;

/** Symbolic phase: C's pattern (fill-complete: sorted, unique columns; values 0) for C = A·B and a
 *  plan for the numeric phase. A [m × k], B [k × n], both on exec's backend (exec memory; exec NULL:
 *  A's); their columns need not be sorted (duplicates count once in the pattern; in the values each
 *  stored entry contributes its own products). C's row offsets are 64-bit: nnz beyond 2^31 works
 *  (EDGE_CASES S16). The plan keeps the rows grouped by class and the long class's accumulators.
 *  Errors: INVALID_ARGUMENT (NULL arguments; inner sizes differ, both named; an exec of another
 *  backend); INVALID_DATA (a row of A with more than 2^62 intermediate products: the row named; more
 *  than 2^62 in all, or C with more than 2^62 entries: the count and the limit named); OUT_OF_MEMORY
 *  (naming the bytes). Synchronous. */
strata_status_t strata_crs_spgemm_symbolic(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           const strata_crs_matrix_t *B, strata_spgemm_t **plan,
                                           strata_crs_matrix_t **C);

/** Numeric phase: C's values = A·B for A and B of the patterns the plan was made for (their values
 *  may have changed): one launch per class, bit for bit the values of a fresh strata_crs_spgemm.
 *  C is the symbolic phase's matrix (or one of its pattern). exec NULL: A's. A plan serves one
 *  numeric call at a time (its long rows' accumulators are shared). Errors: INVALID_ARGUMENT
 *  (NULL; sizes or entry counts other than the plan's, both named; an exec of another backend).
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
