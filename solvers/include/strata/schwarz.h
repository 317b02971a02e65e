/* strata — block-Jacobi and (restricted) additive Schwarz on one device (DESIGN §9; Cai & Sarkis
 * 1999 for RAS). The rows are split into P partitions (METIS on the graph of A + Aᵀ, or
 * contiguous blocks), each extended by `overlap` layers of neighbours in A's graph; the blocks'
 * submatrices are stored together as one block-diagonal matrix and ILU(k)-factored and solved in
 * the same launches (the level schedule spans every block: no host loop over blocks). Apply:
 * z = Σ_p R̃_pᵀ · (L_p U_p)⁻¹ · R_p · r, with R̃_p = R_p (additive Schwarz) or restricted to the
 * partition's own rows (RAS, the default). Overlap 0 is block-Jacobi. The neighbours of a row
 * are its stored columns (PETSc's MatIncreaseOverlap rule; for an unsymmetric pattern, A's graph,
 * not Aᵀ's). The decomposition (layers, B, the row maps) is built on the device by sorts and
 * scans: no host work of order P·n. */
#ifndef STRATA_SCHWARZ_H
#define STRATA_SCHWARZ_H

#include "strata/ilu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_partitioner {
  STRATA_PARTITION_AUTO = 0,      /**< METIS where strata was built with it, else CONTIGUOUS; also
                                       CONTIGUOUS where METIS would leave a partition empty, so
                                       that AUTO always gives num_parts nonempty partitions */
  STRATA_PARTITION_METIS = 1,     /**< METIS_PartGraphKway on the graph of A + Aᵀ (diagonal dropped) */
  STRATA_PARTITION_CONTIGUOUS = 2 /**< P blocks of consecutive rows, sizes differing by at most one */
} strata_partitioner_t;

/** Nonzero if strata was built with METIS. */
int strata_have_metis(void);

/** part[i] in [0, num_parts) for every row of A (host memory [num_rows]; may be NULL when A has no
 *  rows). A square, exec memory; exec NULL: A's (else one of A's backend). METIS: the graph of
 *  A + Aᵀ is built on the device, copied back once, and METIS_PartGraphKway (default options, a
 *  fixed seed) splits it; parts may come back empty when num_parts is near the rows; a graph
 *  without edges (A diagonal) and num_parts = 1 give the contiguous blocks. CONTIGUOUS: the first
 *  num_rows % num_parts blocks hold one row more.
 *  Errors: INVALID_ARGUMENT (NULL; A not square, both sizes named; num_parts outside
 *  [1, max(1, rows)], the value and the limit named; an unknown partitioner; a graph beyond METIS's
 *  32-bit idx_t); UNSUPPORTED (METIS asked for in a build without it); INTERNAL (METIS's own error
 *  code named). Synchronous. Deterministic (METIS with a fixed seed; the same on every backend). */
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

/** Block-Jacobi / Schwarz as a preconditioner; opts NULL: the defaults. opts is copied, but
 *  opts->parts is the caller's pointer: it is read at every setup that builds the blocks (it must
 *  hold the operator's rows then). Name: "bjacobi(P, ilu(K))" for overlap 0, else
 *  "ras(P, overlap O, ilu(K))" or "asm(P, overlap O, ilu(K))" (additive). Setup again for the same
 *  CrsMatrix (same arrays) takes its new values only: B's values are gathered again and
 *  strata_ilu_refactor runs; another matrix rebuilds everything. Stats: symbolic_s = partition +
 *  decomposition + ILU's symbolic phase; num_parts counts the nonempty partitions; nnz and levels
 *  are those of B's factors.
 *  Errors at create: INVALID_ARGUMENT (NULL P; num_parts < 1; overlap < 0; an unknown partitioner,
 *  each value and its limit named); UNSUPPORTED (METIS asked for without parts in a build without
 *  METIS). At setup: INVALID_ARGUMENT (an operator without a CrsMatrix; A not square; num_parts
 *  more than the rows without parts; a parts value outside [0, num_parts), its row named; the
 *  blocks' rows together beyond INT32_MAX); those of strata_partition_rows; those of
 *  strata_ilu_create for B, an INVALID_DATA pivot or diagonal named in A's numbering (A's row, its
 *  partition, then the factorization's message about B's row). */
strata_status_t strata_precond_create_schwarz(strata_exec_t *exec, const strata_schwarz_options_t *opts,
                                              strata_precond_t **P);

#ifdef __cplusplus
}
#endif
#endif
