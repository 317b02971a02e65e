/* strata hmatrix — argument structs of the H² compression's marshaling kernels (h2_compress.kl.c),
 * shared with hmatrix/src/h2_compress.c. Plain C, valid as C11 and C++17. Every pointer is exec
 * memory. K is the slot rank of every node (cheb^dim), KK = K·K; per-node K × K matrices (R, W, P)
 * are column-major at [g·KK]; E and S are row-major K × K as strata/hmatrix.h describes. */
#ifndef STRATA_HMATRIX_H2_COMPRESS_ARGS_H
#define STRATA_HMATRIX_H2_COMPRESS_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Over e in [0, count·KK): block i = e / KK, QR'd in place at src + off[i] with rows[i] rows (leading
 *  dimension rows[i], K columns); R_{first + i}(q, j) = the block's (q, j) for q <= j, q < rows[i],
 *  else 0. */
typedef struct strata_h2c_extract_args {
  int64_t first;
  int32_t K;
  const int64_t *off;
  const int32_t *rows;
  const double *src;
  double *R;
} strata_h2c_extract_args_t;

/** One team per parent P = first + league rank (index i): T_i = [R_c1 E_c1; R_c2 E_c2] with the
 *  first rk[c] rows of each child's R, (rk[c1] + rk[c2]) × K column-major at T + off[i]. */
typedef struct strata_h2c_stack_re_args {
  int64_t first;
  int32_t K;
  const int32_t *rk;
  const int64_t *off;
  const double *R, *E;
  double *T;
} strata_h2c_stack_re_args_t;

/** Over e in [0, count·KK), the children c = first + e / KK of one level: E_c(α, β) = row α of the
 *  child's part of its parent's orthonormal factor Q (rows [0, rc[c1]) for c1, [rc[c1], ..) for
 *  c2), column β, when α < rc[c] and β < rp[parent], else 0. The parent's Q is at Q + off[pi]
 *  (off NULL: Q + pi·stride), pi the parent's index in its level, leading dimension ld (0: the
 *  parent's rc[c1] + rc[c2]). */
typedef struct strata_h2c_scatter_args {
  int64_t first, stride;
  int32_t K, ld;
  const int32_t *rc, *rp;
  const int64_t *off;
  const double *Q;
  double *E;
} strata_h2c_scatter_args_t;

/** One team per node t = first + league rank (index i) of a level: M_i (rows[i] × K column-major at
 *  M + off[i]) = [head; entries j0 .. of t's list], head (K rows, when head != 0) W_parent E_tᵀ
 *  (head_parent != 0) or W_t; the list: S_bᵀ for the q blocks b = row_ptr[t] + j of t's row, then
 *  (btr non-NULL: a non-symmetric kernel) S_btr[b], the transposed block (s, t) of each; the entry
 *  count is rows[i] / K − (head != 0). */
typedef struct strata_h2c_stack_w_args {
  int64_t first, j0;
  int32_t K, head, head_parent;
  const int32_t *rows;
  const int64_t *off, *row_ptr, *btr;
  const double *W, *E, *S;
  double *M;
} strata_h2c_stack_w_args_t;

/** One team per block i (at R + i·stride, leading dimension ld, m × n, after a pivoted QR):
 *  rank[first + i] = the smallest r with Σ_{j >= r} ‖R(j, j:n)‖² <= tol2 (the squared Frobenius
 *  error of keeping the first r columns of Q); tail (count·n doubles) is workspace. */
typedef struct strata_h2c_rank_args {
  int64_t first, stride;
  int32_t ld, m, n;
  double tol2;
  const double *R;
  double *tail;
  int32_t *rank;
} strata_h2c_rank_args_t;

/** Over e in [0, count·2K·K), the parents P = first + e / (2K·K) of a level (index i): Est_i (2K × K
 *  column-major at Est + i·2K·K) = [Ehat_c1 rows < r[c1]; Ehat_c2 rows < r[c2]; 0], Ehat of the
 *  level's child j at Ehat + j·KK (K × K column-major). */
typedef struct strata_h2c_stack_est_args {
  int64_t first;
  int32_t K;
  const int32_t *r;
  const double *Ehat;
  double *Est;
} strata_h2c_stack_est_args_t;

/** Over e in [0, count·KK): dst block i = the transpose of src block i (K × K each, KK apart). */
typedef struct strata_h2c_transpose_args {
  int32_t K;
  const double *src;
  double *dst;
} strata_h2c_transpose_args_t;

/** Σ x[i]² over the range. */
typedef struct strata_h2c_sumsq_args {
  const double *x;
} strata_h2c_sumsq_args_t;

#ifdef __cplusplus
}
#endif
#endif
