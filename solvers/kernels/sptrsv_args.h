/* strata solvers — argument structs of the level-scheduled triangular solve's kernels
 * (sptrsv.kl.c). Plain C, valid as C11 and C++17; pointers are exec memory. */
#ifndef STRATA_SOLVERS_SPTRSV_ARGS_H
#define STRATA_SOLVERS_SPTRSV_ARGS_H

#include <stdint.h>

/* The bit pattern that marks an unsolved x[i] (or an unanalysed row) in the one-launch kernels:
 * all ones, what a memset of 0xFF bytes writes (a NaN). A solved value with these bits is stored as
 * the canonical quiet NaN instead, so that no result is ever taken for "not yet". */
#define STRATA_SPTRSV_UNSET 0xFFFFFFFFFFFFFFFFull
#define STRATA_SPTRSV_QNAN 0x7FF8000000000000ull

/** Level analysis of the triangle of M (one launch; teams take chunks of `chunk` rows in order by
 *  a ticket and wait on the levels of the rows they depend on): rows in processing order q
 *  (lower: row q; upper: row n - 1 - q); level[r] = 0 without dependencies, else 1 + the largest
 *  level of the rows c it depends on (lower: c < r; upper: c > r; other entries ignored). level
 *  [n] starts at -1 (memset 0xFF); ticket (one int64) at 0. */
typedef struct strata_sptrsv_levels_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int64_t n;
  int lower;
  int64_t chunk;
  int32_t *level;
  int64_t *ticket;
} strata_sptrsv_levels_args_t;

/** One sweep of the GPU level analysis by relaxation (range over q, rows as above): level[r] =
 *  max(level[r], 1 + the largest level[c] of its dependencies, 0 without any), read and raised in
 *  place with atomics (level [n] starts at 0; every value only rises and never passes the row's
 *  true level, so the sweeps reach it after at most the levels' count, and a sweep that raises
 *  nothing proves it). *changed (one int64, 0 before the sweep) becomes 1 when a level rose. */
typedef struct strata_sptrsv_relax_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int64_t n;
  int lower;
  int32_t *level;
  int64_t *changed;
} strata_sptrsv_relax_args_t;

/** The rows by level: keys[r] = level[r], perm[r] = r (before a stable sort of the pairs); after
 *  it, bounds[l] = lower_bound(keys, l) for l in [0, num_levels] and rows[p] = perm[p]. */
typedef struct strata_sptrsv_group_args {
  const int32_t *level;
  int64_t *keys;
  int64_t *perm;
  int64_t n;
  int64_t *bounds;
  int32_t *rows;
} strata_sptrsv_group_args_t;

/** The compact triangle in position order: row perm[p] of M (its strict-triangle entries, in
 *  storage order: cnt[p] = their number; with offsets, cols / vals [m] receive them and diag[p]
 *  the sum of the row's diagonal entries, NaN when it has none (non-unit only)). */
typedef struct strata_sptrsv_gather_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  const int32_t *perm;
  int lower;
  int unit;
  int write_cols;
  int64_t *cnt;           /* count pass: [n] (NULL in the gather pass) */
  const int64_t *offsets; /* gather pass: [n + 1] */
  int32_t *cols;
  double *vals;
  double *diag;
} strata_sptrsv_gather_args_t;

/** The first row r (MIN) of M whose diagonal is missing, zero or not finite (diagonal entries
 *  summed). */
typedef struct strata_sptrsv_diag_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
} strata_sptrsv_diag_args_t;

/** out[l] = offsets[bounds[l]] for l in [0, count): the compact entries at the level boundaries. */
typedef struct strata_sptrsv_bound_entries_args {
  const int64_t *offsets;
  const int64_t *bounds;
  int64_t *out;
} strata_sptrsv_bound_entries_args_t;

/** The solve over positions. LEVELS: index i of a launch solves positions [begin + i·per,
 *  min(begin + (i + 1)·per, end)) one after the other (per 1: a parallel level; per > 1: a run of
 *  small levels on one thread); the team form gives a team thread (its lanes over the row) to each
 *  position of [begin + league_rank·rows_per_team, ...). WALK: teams take chunks of `chunk`
 *  positions by a ticket until none are left and solve each chunk level by level (bounds), x [n]
 *  starts as STRATA_SPTRSV_UNSET and each term waits for its x. */
typedef struct strata_sptrsv_solve_args {
  const int64_t *offsets;
  const int32_t *cols;
  const double *vals;
  const double *diag; /* NULL: unit diagonal */
  const int32_t *perm;
  const double *b;
  double *x;
  int64_t begin, end, per;
  int64_t rows_per_team;
  int64_t chunk;
  int64_t *ticket;
  const int64_t *bounds; /* WALK: [num_levels + 1] the first position of each level */
  int64_t num_levels;
} strata_sptrsv_solve_args_t;

#endif
