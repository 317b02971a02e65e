/* strata solvers — argument structs of AMG's smoother kernels (solvers/kernels/amg_smoother.kl.c),
 * shared with solvers/src/amg_smoother.c and amg_coloring.c. Plain C, valid as C11 and C++17.
 * Every pointer is exec memory. Every row sum runs over the row's entries in storage order, one
 * thread per row, so that every backend does the same arithmetic (bitwise the same results). */
#ifndef STRATA_SOLVERS_AMG_SMOOTHER_ARGS_H
#define STRATA_SOLVERS_AMG_SMOOTHER_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Rows per block of the hybrid Gauss–Seidel smoother, the same on every backend (the result
 *  depends on it). */
#define STRATA_AMG_HGS_BLOCK 128

/** Jacobi-type and Chebyshev steps (range over rows), r_i = dinv_i (b_i - Σ_j a_ij x_j)
 *  (x_zero: x = 0, not read, r_i = dinv_i b_i):
 *  jacobi: y_i = x_i + c2 · r_i (c2 the weight);
 *  cheby:  d_i = c1 · d_i + c2 · r_i (first: d_i = c2 · r_i, d not read), y_i = x_i + d_i. */
typedef struct strata_amg_sm_step_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  const double *dinv;
  const double *b;
  const double *x;
  double *y;
  double *d;
  double c1, c2;
  int x_zero, first;
} strata_amg_sm_step_args_t;

/** Hybrid Gauss–Seidel, one sweep (team kernel, a team per block of STRATA_AMG_HGS_BLOCK rows;
 *  scratch_team: block doubles): rows of other blocks from x_old (x at the start of the sweep),
 *  rows of the team's own block from x as they are updated; rows in increasing order (backward:
 *  decreasing). x_i += dinv_i · (b_i - Σ_{j outside the block} a_ij x_old_j - Σ_{j in the block}
 *  a_ij x_j) (x_i's own old value in the second sum; dinv the l1 diagonal below), the two sums in
 *  that order, each in storage order. */
typedef struct strata_amg_sm_hgs_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  const double *dinv;
  const double *b;
  const double *x_old;
  double *x;
  int64_t n;
  int64_t block;
  int backward;
} strata_amg_sm_hgs_args_t;

/** The l1 diagonal of the hybrid Gauss–Seidel smoother (range over rows, the fields of
 *  strata_amg_sm_hgs_args_t; dinv = D⁻¹ in, x = the result out): x_i = 1 / (a_ii + sgn(a_ii)
 *  Σ_{j outside i's block} |a_ij|), the sum in storage order (Baker, Falgout, Kolev, Yang 2011:
 *  with it the hybrid sweep converges for every SPD A, whatever the coupling across blocks). */

/** Multicolor Gauss–Seidel, the rows perm[begin .. end) of one colour (range over positions
 *  0 .. end - begin): x_i = dinv_i (b_i - Σ_{j != i} a_ij x_j), x in place (no two rows of a colour
 *  are coupled). */
typedef struct strata_amg_sm_color_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  const double *dinv;
  const double *b;
  double *x;
  const int64_t *perm;
  int64_t begin;
} strata_amg_sm_color_args_t;

/** Lanczos on M = S·sgn(D)·A·S, S = |D|^(-1/2) (similar to D⁻¹A): w_i = sgn(d_i) s_i Σ_j a_ij s_j v_j,
 *  s_j = sqrt(|dinv_j|). start: v_i = a hashed number in [-1, 1) from i and seed (the same on
 *  every backend). */
typedef struct strata_amg_sm_lanczos_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  const double *vals;
  const double *dinv;
  const double *v;
  double *w;
  uint64_t seed;
} strata_amg_sm_lanczos_args_t;

/** Jones–Plassmann colouring (Jones & Plassmann 1993) of the graph of A + Aᵀ (the rows of A and of
 *  its transpose T give the neighbours), one round (a reduce over rows, SUM of the rows still
 *  uncoloured after it): a row uncoloured in prev whose priority (hash of the seed and the row,
 *  ties to the larger row) exceeds that of every uncoloured neighbour takes the smallest colour
 *  no coloured neighbour has, into cur (cur = prev on entry). The rows coloured in one round are
 *  independent, and they read only prev, so the result does not depend on the order. */
typedef struct strata_amg_sm_jp_args {
  const int64_t *a_offsets;
  const int32_t *a_cols;
  const int64_t *t_offsets;
  const int32_t *t_cols;
  const int32_t *prev;
  int32_t *cur;
  uint64_t seed;
} strata_amg_sm_jp_args_t;

/** The colour classes: keys (colour · n + row, rows sorted by them, ties impossible) and the row
 *  index as the value (keys kernel); the largest colour (MAX reduce, i32); after the sort, the
 *  start of each colour class (offsets kernel over positions: offs[c] = the first position of
 *  colour c; colours are 0 .. max without gaps under first-fit). */
typedef struct strata_amg_sm_class_args {
  const int32_t *color;
  int64_t n;
  int64_t *keys;
  int64_t *perm;
  int64_t *offs;
} strata_amg_sm_class_args_t;

#ifdef __cplusplus
}
#endif
#endif
