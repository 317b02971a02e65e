/* strata solvers — the block decomposition behind block-Jacobi and Schwarz (private; built by
 * partition.c, used by schwarz.c and the tests). DESIGN §9.
 *
 * From A (n × n) and a partition part [n] into P parts, everything on the device:
 *   - the extended index sets: layer 0 is the pairs (part[i], i); each of `overlap` layers adds,
 *     for every pair (p, g) added by the layer before, the pairs (p, c) for the columns c of A's
 *     row g (PETSc's MatIncreaseOverlap rule: the neighbours of a row are its stored columns).
 *     The pairs live as sorted keys p·n + g (a device sort a layer, then a scan that drops the
 *     pairs already in the set), so block p's rows lie together, ascending: work
 *     O((n + new pairs) log) a layer, nothing O(P·n);
 *   - B, one block-diagonal CrsMatrix of E × E (E = all blocks' rows together): row e (block p,
 *     row g = map[e] of A) holds A's entries (g, c) with c in block p, at column e' = the
 *     position of (p, c); fill-complete when A is. Empty partitions have no rows in it;
 *   - own[g] = the extended row of g in its own partition (restricted prolongation: a pure write)
 *     and, for additive Schwarz, the copies of each row, ascending (a fixed order of the sum). */
#ifndef STRATA_SCHWARZ_IMPL_H
#define STRATA_SCHWARZ_IMPL_H

#include "strata/schwarz.h"

typedef struct strata_impl_schwarz_blocks {
  strata_exec_t *exec;
  int32_t n;              /* rows of A */
  int32_t num_parts;      /* P, empty partitions included */
  int32_t num_nonempty;   /* partitions with at least one row */
  int overlap;
  int32_t num_ext;        /* E */
  int64_t *block_start;   /* [P + 1] host: block p is extended rows [block_start[p], block_start[p + 1]) */
  int64_t *keys;          /* [E] exec: p·n + g, ascending */
  int32_t *map;           /* [E] exec: extended row -> row of A */
  int32_t *own;           /* [n] exec: row of A -> its extended row in its own partition */
  int64_t *copy_offsets;  /* [n + 1] exec, additive Schwarz only (else NULL) */
  int64_t *copies;        /* [E] exec: the extended rows of row g, ascending, from copy_offsets[g] */
  strata_crs_matrix_t *B; /* E × E block-diagonal */
  int64_t *src;           /* [nnz(B)] exec: the index in A's entries of each entry of B */
} strata_impl_schwarz_blocks_t;

/** Builds the decomposition of A (square, exec memory) for part (host [n], values in
 *  [0, num_parts), checked: INVALID_ARGUMENT naming the first bad row, its value and the limit),
 *  overlap >= 0 layers, and the copies of additive Schwarz when additive is nonzero. Errors:
 *  INVALID_ARGUMENT (NULL; A not square; num_parts < 1; overlap < 0; E above INT32_MAX),
 *  OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_impl_schwarz_blocks_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                  const int32_t *part, int32_t num_parts, int overlap,
                                                  int additive, strata_impl_schwarz_blocks_t **out);

/** B's values from A's current values (A's pattern the one at create). Asynchronous. */
strata_status_t strata_impl_schwarz_blocks_values(strata_exec_t *exec, strata_impl_schwarz_blocks_t *b,
                                                  const strata_crs_matrix_t *A);

/** x_ext[e] = x[map[e]]: x [n], x_ext [E], exec memory. Asynchronous. */
strata_status_t strata_impl_schwarz_gather(strata_exec_t *exec, const strata_impl_schwarz_blocks_t *b,
                                           const double *x, double *x_ext);

/** z [n] from z_ext [E]: restricted, the own copy of each row; else (the decomposition made with
 *  additive set) the sum of its copies in ascending order. Asynchronous. */
strata_status_t strata_impl_schwarz_scatter(strata_exec_t *exec, const strata_impl_schwarz_blocks_t *b,
                                            int restricted, const double *z_ext, double *z);

/** The partition of extended row e and its row in A (copies one value back). Synchronous. */
strata_status_t strata_impl_schwarz_row_origin(const strata_impl_schwarz_blocks_t *b, int32_t e,
                                               int32_t *part, int32_t *row);

/** NULL-safe; sets *b to NULL. */
void strata_impl_schwarz_blocks_destroy(strata_impl_schwarz_blocks_t **b);

#endif
