/* strata hmatrix — argument structs of the batched dense kernels (hmatrix/kernels/batched.kl.c),
 * shared with the host code that launches them (hmatrix/src/batched.c). Plain C, valid as C11 and
 * C++17. Every pointer is exec memory. The conventions (offsets, ld = 0, per-block sizes as
 * bounded values, the error word) are those of <strata/batched.h>. */
#ifndef STRATA_BATCHED_ARGS_H
#define STRATA_BATCHED_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Codes of the device error word: word = block·8 + code, folded by atomic min (the first bad
 * block wins, then the smallest code); INT64_MAX means none. */
#define STRATA_BT_NONFINITE 1  /* a NaN or Inf in an input block that is read */
#define STRATA_BT_SIZE 2       /* a per-block size outside [0, bound] */
#define STRATA_BT_NOCONV 3     /* the Jacobi SVD did not converge */
#define STRATA_BT_UNSORTED 4   /* singular values negative, non-finite or not descending */
#define STRATA_BT_REFLECTORS 5 /* qr_apply: more reflectors than rows */
#define STRATA_BT_NONE INT64_MAX

/* One operand's blocks: block b at data + (offsets ? offsets[b] : b·stride), leading dimension
 * ld (0: the block's own row count). */
typedef struct strata_bt_mat {
  double *data;
  int64_t stride;
  const int64_t *offsets;
  int32_t ld;
  int32_t pad_;
} strata_bt_mat_t;

/* Sizes: the bounds m, n, k (and per-block arrays, or NULL). */
typedef struct strata_bt_dims {
  int32_t m, n, k, pad_;
  const int32_t *m_each, *n_each, *k_each;
} strata_bt_dims_t;

/** Team per block: C = α·op(A)·op(B) + β·C. stage: op(A) (m × k at the bounds) is first copied
 *  into team scratch, column-major with ld = the block's m. axpy (teams of one lane, the host):
 *  each column of C is summed as axpys into a column of m doubles of scratch after the stage. */
typedef struct strata_bt_gemm_args {
  strata_bt_dims_t d;
  int32_t opA, opB, stage, axpy;
  double alpha, beta;
  strata_bt_mat_t A, B, C;
  int64_t *info;
} strata_bt_gemm_args_t;

/** Team per block: Householder QR in place (d.m × d.n), tau; perm non-NULL: with column pivoting
 *  (block b's permutation at perm + b·d.n), the partial column norms in team scratch (2·d.n). */
typedef struct strata_bt_qr_args {
  strata_bt_dims_t d;
  strata_bt_mat_t A, tau;
  int32_t *perm;
  int64_t *info;
} strata_bt_qr_args_t;

/** Team per block: C (d.m × d.n) = op(Q)·C, Q from the d.k reflectors in A / tau; form_q: C = I first. */
typedef struct strata_bt_qr_apply_args {
  strata_bt_dims_t d;
  int32_t op, form_q;
  strata_bt_mat_t A, tau, C;
  int64_t *info;
} strata_bt_qr_apply_args_t;

/** Team per block of the chunk [first, first + league): one-sided Jacobi SVD of d.m × d.n blocks.
 *  Team scratch: the small arrays (small_bytes), then, when ws is NULL, the working copies W
 *  (d.m·d.n doubles) and V (p·p, p = min(d.m, d.n)); else those live at ws + league_rank·ws_stride. */
typedef struct strata_bt_svd_args {
  strata_bt_dims_t d;
  int64_t first;
  strata_bt_mat_t A, S, U, V;
  double *ws;
  int64_t ws_stride;
  int64_t small_bytes;
  int64_t *info;
} strata_bt_svd_args_t;

/** For over blocks: ranks[b] = the truncation rank of S_b (d.n values) for tol. */
typedef struct strata_bt_rank_args {
  strata_bt_dims_t d;
  strata_bt_mat_t S;
  double tol;
  int32_t fro, relative;
  int32_t *ranks;
  int64_t *info;
} strata_bt_rank_args_t;

/** For over [0, 1): *info = STRATA_BT_NONE. */
typedef struct strata_bt_reset_args {
  int64_t *info;
} strata_bt_reset_args_t;

#ifdef __cplusplus
}
#endif
#endif
