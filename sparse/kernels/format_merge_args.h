/* strata sparse — argument struct of the merge-path CSR format ("merge"): kernels in
 * sparse/kernels/format_merge.kl.c, host side in sparse/src/format_merge.c. Plain C, valid as
 * C11 and C++17. Every pointer is exec memory. */
#ifndef STRATA_FORMAT_MERGE_ARGS_H
#define STRATA_FORMAT_MERGE_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Merge-path SpMV (Merrill & Garland, SC'16): the path merges the row ends row_offsets[1..n]
 *  with the entry indices 0..nnz-1 (n + nnz steps); team t walks steps [t·tile, (t+1)·tile),
 *  each of its threads `per` consecutive steps. tile_row[t] (t <= num_teams) = the row where
 *  step t·tile lies (so the entry there is t·tile − tile_row[t]). Carries: the row still open at
 *  the end of team t and its partial sum (carry_row −1: none), added by the fixup pass in team
 *  order. Scratch per team: (tile + 1) int64 row ends, tile doubles of products,
 *  team_size (int32 + double) thread carries. */
typedef struct strata_fmt_merge_args {
  const int64_t *row_offsets; /* [num_rows + 1] */
  const int32_t *cols;
  const double *vals;
  int64_t num_rows, nnz;
  int64_t num_teams;
  int64_t tile; /* steps per team = team_size * per */
  int64_t per;  /* steps per thread */
  int64_t *tile_row;   /* [num_teams + 1] */
  int32_t *carry_row;  /* [num_teams] */
  double *carry_val;   /* [num_teams] */
  const double *x;
  double *y;
  double alpha, beta;
} strata_fmt_merge_args_t;

#ifdef __cplusplus
}
#endif
#endif
