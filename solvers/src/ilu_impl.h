/* strata solvers — the ILU(k) factorization's layout (ilu.c, ilu_symbolic.c, ilu_precond.c).
 * Not installed. */
#ifndef STRATA_SOLVERS_ILU_IMPL_H
#define STRATA_SOLVERS_ILU_IMPL_H

#include "strata/ilu.h"

struct strata_ilu {
  strata_exec_t *exec;
  strata_ilu_options_t opts;
  int32_t n;
  int64_t nnz_a;            /* entries of A (sorted, duplicates merged) at create */
  strata_crs_matrix_t *LU;  /* the factors (owned, fill-complete) */
  int64_t *diag_pos;        /* [n] exec: position of (i, i) in LU */
  strata_sptrsv_t *lower;   /* L (unit) on LU; its level order runs the numeric phase */
  strata_sptrsv_t *upper;   /* U (non-unit) on LU */
  double *work;             /* [n] exec: L^{-1} r */
  int ok;                   /* the last numeric phase succeeded */
  int walk_lanes;           /* LEVELS by one walk of L's levels (ilu.c: walk_shape): lanes per row; 0: a launch per level */
  int walk_rows;            /* the walk's team threads (a row each) per team */
  int64_t walk_league;      /* the walk's teams */
  int64_t *list_start;      /* [n + 1] exec: each row's update list (ilu_args.h); NULL: none (launches merge, no walk) */
  int64_t *list;            /* [2 x list_start[n]] exec */
  strata_precond_stats_t stats;
};

/* Tests: nonzero makes host backends run LEVELS by the walk too where rows fit its registers
 * (the same arithmetic as the launches per level: the same bits). */
extern int strata_impl_ilu_walk;
/* Tests: -1 makes LEVELS's launches merge rows instead of reading update lists (the same bits), 1
 * keeps the lists at any length (0: the lists up to their cap, ilu.c). */
extern int strata_impl_ilu_lists;

/* ILU(k)'s pattern from A's (host arrays, rows sorted and unique, every diagonal present):
 * *lu_ro [n + 1] and *lu_ci [*lu_nnz] are malloc'ed host arrays, rows sorted. Errors:
 * OUT_OF_MEMORY. */
strata_status_t strata_impl_ilu_symbolic(int32_t n, const int64_t *ro, const int32_t *ci, int K, int64_t **lu_ro,
                                         int32_t **lu_ci, int64_t *lu_nnz);

/* The row named by the last INVALID_DATA error of strata_ilu_create / strata_ilu_refactor on this
 * thread (a missing diagonal, a zero or non-finite pivot), -1 if that call failed otherwise or
 * succeeded: Schwarz maps it back to A's numbering. */
int64_t strata_impl_ilu_refused_row(void);

#endif
