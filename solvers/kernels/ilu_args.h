/* strata solvers — argument structs of the ILU(k) kernels (ilu.kl.c). Plain C, valid as C11 and
 * C++17; pointers are exec memory. The factors live in one fill-complete CrsMatrix LU: L strictly
 * below the diagonal (unit diagonal not stored), U on and above it; diag_pos[i] is the position of
 * (i, i) in it. */
#ifndef STRATA_SOLVERS_ILU_ARGS_H
#define STRATA_SOLVERS_ILU_ARGS_H

#include <stdint.h>

/** diag_pos[i] (NULL: not stored) = the position of column i in fill-complete row i; the
 *  reduction gives the first row (MIN) without it. */
typedef struct strata_ilu_diag_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int64_t *diag_pos;
} strata_ilu_diag_args_t;

/** Row i of LU := row i of A (fill-complete, its pattern inside LU's), fill entries 0, the
 *  diagonal shifted: a_ii + shift·|a_ii|. The reduction counts A's entries missing from LU. */
typedef struct strata_ilu_init_args {
  const int64_t *lu_offsets;
  const int32_t *lu_cols;
  double *lu_vals;
  const int64_t *a_offsets;
  const int32_t *a_cols;
  const double *a_vals;
  const int64_t *diag_pos;
  double shift;
} strata_ilu_init_args_t;

/** The rows at positions [begin + i·per, ...) of the lower solve's level order (perm), each by
 *  IKJ: for k in L's part of row i, ascending: l_ik = a_ik / u_kk, row i -= l_ik · (U's part of row
 *  k) on row i's pattern. A zero or non-finite u_kk gives l_ik = 0 (its row is refused later). */
typedef struct strata_ilu_rows_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  double *vals;
  const int64_t *diag_pos;
  const int32_t *perm;
  int64_t begin, end, per;
  const int64_t *list_start; /* the update lists (below); list NULL: U(k) merged with row i */
  const int64_t *list;
} strata_ilu_rows_args_t;

/** The update lists of IKJ (rows' merges done once, at create): row i's list starts at element
 *  list_start[i] of list (an element is two int64) and holds, for each k of L's part of row i,
 *  ascending, a header {diag_pos[k], c} and then c pairs {position of u_kj in row k, position of
 *  (i, j) in row i, counted from the row's first}, one for each j > k of U(k) that row i's pattern
 *  holds, ascending. With list =
 *  NULL the kernel writes each row's element count into len[i] instead. */
typedef struct strata_ilu_list_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const int64_t *diag_pos;
  int64_t *len;
  const int64_t *list_start;
  int64_t *list;
} strata_ilu_list_args_t;

/** Rows whose pivot u_ii is zero or not finite, or that hold a non-finite entry: the first (MIN) or
 *  how many (SUM, count = 1). */
typedef struct strata_ilu_check_args {
  const int64_t *row_offsets;
  const double *vals;
  const int64_t *diag_pos;
  int count;
} strata_ilu_check_args_t;

/** Chow–Patel: one Jacobi-style sweep, out from in (a0 = A's values on LU's pattern): for (i, j)
 *  with m = min(i, j), s = a0_ij - sum over k < m of in_ik·in_kj; l_ij = s / in_jj (j < i), u_ij = s.
 *  With scale set instead: out = a0 with its strict lower part divided by a0's diagonal (the first
 *  guess). */
typedef struct strata_ilu_sweep_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const int64_t *diag_pos;
  const double *a0;
  const double *in;
  double *out;
  int scale;
} strata_ilu_sweep_args_t;

/** The rows by IKJ as strata_ilu_rows does them from the update lists (the same arithmetic in the
 *  same order), in one launch that walks the lower solve's levels: teams take chunks of `chunk`
 *  positions (perm, bounds) by a ticket and solve a chunk level by level. Row i's values start in
 *  a0; `out` starts as STRATA_ILU_UNSET everywhere and each row's U part is written once, final, as
 *  its own flag (rows read the pivots and u_kj their list names from `out`, waiting for each
 *  value). list_start has n + 1 entries here. A row and its list each have at most vector_length x
 *  the slots elements (STRATA_ILU_WALK_SLOTS_GPU where lanes exist, STRATA_KL_VECTOR_MAX > 1;
 *  _HOST for the one lane of host backends): lane j holds elements j, j + V, ... of both in
 *  registers. */
#define STRATA_ILU_WALK_SLOTS_GPU 8
#define STRATA_ILU_WALK_SLOTS_HOST 32
#define STRATA_ILU_UNSET 0xFFFFFFFFFFFFFFFFull
#define STRATA_ILU_QNAN 0x7FF8000000000000ull
typedef struct strata_ilu_walk_args {
  const int64_t *row_offsets;
  const int64_t *list_start;
  const int64_t *list;
  const double *a0;
  double *out;
  const int64_t *diag_pos;
  const int32_t *perm;
  const int64_t *bounds;
  int64_t num_levels;
  int64_t n;
  int64_t chunk;
  int64_t *ticket;
} strata_ilu_walk_args_t;

/** The longest row of row_offsets [n + 1] (MAX): also the longest update list, from list_start. */
typedef struct strata_ilu_row_max_args {
  const int64_t *row_offsets;
} strata_ilu_row_max_args_t;

#endif
