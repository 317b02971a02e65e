/* strata solvers — the triangular solve plan's layout (sptrsv.c), read by ILU's numeric phase
 * (ilu.c), which runs its rows in the levels of the lower solve's plan. Not installed. */
#ifndef STRATA_SOLVERS_SPTRSV_IMPL_H
#define STRATA_SOLVERS_SPTRSV_IMPL_H

#include "strata/sptrsv.h"

/* One launch of the LEVELS solve: positions [begin, end) of the level order, `per` consecutive
 * positions per index of the launch (1: a level's rows in parallel; above 1: a run of small levels
 * on one thread, in order), lanes > 0: a team kernel with that many lanes per row instead. */
typedef struct strata_impl_sptrsv_step {
  int64_t begin, end, per;
  int lanes;
} strata_impl_sptrsv_step_t;

struct strata_sptrsv {
  strata_exec_t *exec;
  strata_sptrsv_options_t opts;
  int32_t n;
  int lower;                   /* op(T) is lower triangular: rows depend on smaller rows */
  strata_crs_matrix_t *Tt;     /* transpose: T^T (owned); the triangle is read from it */
  int64_t nnz_t;               /* T's entries at create (update_values checks) */
  strata_sptrsv_algorithm_t algorithm; /* resolved: LEVELS or WALK */
  int32_t num_levels;
  int64_t *level_bounds;       /* host [num_levels + 1]: positions of each level */
  int64_t *bounds;             /* [num_levels + 1] exec: the same (WALK reads it) */
  int32_t *perm;               /* [n] exec: position -> row, rows grouped by level */
  int64_t *offsets;            /* [n + 1] exec: the compact triangle's rows in position order */
  int64_t m;                   /* its entries (strict triangle) */
  int32_t *cols;               /* [m] exec */
  double *vals;                /* [m] exec */
  double *diag;                /* [n] exec, by position (non-unit; NULL for unit) */
  int64_t *ticket;             /* one int64 (exec): the WALK launch's chunk counter */
  int num_steps;
  strata_impl_sptrsv_step_t *steps; /* host: the LEVELS launches */
  int walk_lanes, walk_rows;   /* WALK's team: lanes per row and rows (team threads) per team */
  int64_t walk_chunk;          /* WALK: positions per ticket */
  int64_t walk_league;         /* WALK: teams launched (each takes tickets until none are left) */
  double analysis_s;           /* seconds of the level analysis at create */
};

/* INVALID_ARGUMENT unless M is square and of exec's backend (the message: what, name, the sizes,
 * and what needs a square matrix). */
strata_status_t strata_impl_check_square(strata_exec_t *exec, const strata_crs_matrix_t *M, const char *what,
                                         const char *name, const char *needs);

/* The matrix whose rows the plan reads: T, or T^T when transposed. */
static inline const strata_crs_matrix_t *strata_impl_sptrsv_matrix(const strata_sptrsv_t *p,
                                                                   const strata_crs_matrix_t *T) {
  return p->Tt ? p->Tt : T;
}

/* Tests: nonzero makes host backends analyse by the GPUs' relaxation sweeps too (the levels are
 * the same either way: the unique fixed point). */
extern int strata_impl_sptrsv_relax;

#endif
