/* strata sparse — SpGEMM internals shared with the tests (never installed): the symbolic phase
 * with given class thresholds, and a plan's rows per class. */
#ifndef STRATA_SPGEMM_IMPL_H
#define STRATA_SPGEMM_IMPL_H

#include "strata/spgemm.h"

#include "../kernels/spgemm_args.h"

/** strata_crs_spgemm_symbolic with the classes' most products per row class_max [3] (short,
 *  medium-small, medium-large; the long class takes the rest), nondecreasing, each at most its
 *  class's capacity (STRATA_SPGEMM_SHORT_MAX, _MED_S_MAX, _MED_L_MAX); NULL: the backend's
 *  defaults (GPUs: the capacities; host backends: the short class's, every longer row to the
 *  dense accumulator). Errors: those of strata_crs_spgemm_symbolic, INVALID_ARGUMENT (a threshold
 *  out of order or above its capacity). */
strata_status_t strata_sparse_impl_spgemm_symbolic(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                   const strata_crs_matrix_t *B, const int64_t *class_max,
                                                   strata_spgemm_t **plan, strata_crs_matrix_t **C);

/** rows[c] = the plan's rows in class c (host). */
void strata_sparse_impl_spgemm_class_rows(const strata_spgemm_t *plan, int64_t rows[STRATA_SPGEMM_NUM_CLASSES]);

/* Tests: nonzero makes host backends take the GPUs' NUMERIC of short rows (lanes over C's entries)
 * too; the values are the same bits either way on host backends (the same products, the same order). */
extern int strata_impl_spgemm_gather;
extern int strata_impl_spgemm_lanes; /* tests: the short class's NUMERIC by lanes (the GPUs' way) on host backends too */

#endif
