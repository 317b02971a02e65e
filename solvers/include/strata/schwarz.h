/* strata — block-Jacobi and (restricted) additive Schwarz on one device (DESIGN §9; Cai & Sarkis
 * 1999 for RAS). The rows are split into P partitions (METIS on the graph of A + Aᵀ, or
 * contiguous blocks), each extended by `overlap` layers of neighbours in A's graph; the blocks'
 * submatrices are stored together as one block-diagonal matrix and ILU(k)-factored and solved in
 * the same launches (the level schedule spans every block: no host loop over blocks). Apply:
 * z = Σ_p R̃_pᵀ · (L_p U_p)⁻¹ · R_p · r, with R̃_p = R_p (additive Schwarz) or restricted to the
 * partition's own rows (RAS, the default). Overlap 0 is block-Jacobi. */
#ifndef STRATA_SCHWARZ_H
#define STRATA_SCHWARZ_H

#include "strata/ilu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_partitioner {
  STRATA_PARTITION_AUTO = 0,      /**< METIS where strata was built with it, else CONTIGUOUS */
  STRATA_PARTITION_METIS = 1,     /**< METIS_PartGraphKway on the graph of A + Aᵀ (diagonal dropped) */
  STRATA_PARTITION_CONTIGUOUS = 2 /**< P blocks of consecutive rows, sizes differing by at most one */
} strata_partitioner_t;

/** Nonzero if strata was built with METIS. */
int strata_have_metis(void);

/** part[i] in [0, num_parts) for every row of A (host memory [num_rows]). A square.
 *  Errors: INVALID_ARGUMENT (NULL; num_parts < 1 or more than the rows, both named; METIS asked
 *  for in a build without it: UNSUPPORTED); INTERNAL (METIS's own error code named). Synchronous.
 *  Deterministic (METIS with a fixed seed). */
strata_status_t strata_partition_rows(strata_exec_t *exec, const strata_crs_matrix_t *A, int32_t num_parts,
                                      strata_partitioner_t partitioner, int32_t *part);

typedef struct strata_schwarz_options {
  int32_t num_parts;            /**< P >= 1 and at most the rows (unless parts is given); default 1 */
  int overlap;                  /**< layers of neighbours >= 0; default 0 (block-Jacobi) */
  int restricted;               /**< nonzero (default): RAS; 0: additive Schwarz */
  strata_partitioner_t partitioner; /**< default AUTO */
  const int32_t *parts;         /**< optional user partition, host memory [rows], values in
                                     [0, num_parts); empty partitions are allowed (they are
                                     skipped); NULL: the partitioner's */
  strata_ilu_options_t ilu;     /**< the blocks' factorization (fill level, algorithm) */
} strata_schwarz_options_t;

/** The defaults above (ilu: strata_ilu_options_default). */
void strata_schwarz_options_default(strata_schwarz_options_t *opts);

/** Block-Jacobi / Schwarz as a preconditioner. opts copied (parts too, at setup). Setup errors:
 *  INVALID_ARGUMENT (num_parts < 1, or more than the rows without parts; overlap < 0; a parts
 *  value outside [0, num_parts), its row named); those of strata_ilu_create for a block (the
 *  pivot's row named in A's numbering). */
strata_status_t strata_precond_create_schwarz(strata_exec_t *exec, const strata_schwarz_options_t *opts,
                                              strata_precond_t **P);

#ifdef __cplusplus
}
#endif
#endif
