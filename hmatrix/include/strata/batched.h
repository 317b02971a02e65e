/* strata — small batched dense kernels (DESIGN §11): GEMM and GEMV, Householder QR with the
 * application of Q, and the one-sided Jacobi SVD with a truncation rule, for many small f64
 * blocks at once. Written once in the kernel language (hmatrix/kernels/batched*.kl.c), so every
 * backend has them; one team per block (GPU: a thread block; host: one OS thread). They serve the
 * H² construction and compression (H2Opus's batched marshaling: Boukaram, Turkiyyah, Keyes,
 * "Hierarchical matrix operations on GPUs", SIAM J. Sci. Comput. 2019). LAPACK (dgeqrf, dormqr,
 * dgesvd) and cuBLAS / cuSOLVER batched routines are the oracles and peers.
 *
 * Conventions of every call:
 *  - Blocks are column-major f64. Block i of a batch starts at data + offset_i (offset_i =
 *    i·stride, or offsets[i] when an offsets array is given: pointer marshaling done as offset
 *    arithmetic on the device, with no data movement) and has leading dimension ld, or, with
 *    ld = 0, its own row count (blocks stored tightly one after another; at least 1).
 *  - Sizes come in a strata_batched_shape_t: count blocks, each m × n (× k); the optional per-block
 *    arrays m_each / n_each / k_each (exec memory, [count] int32) give each block its own sizes,
 *    and the uniform m / n / k are then the upper bounds (a per-block size outside [0, bound] is
 *    bad data, reported as below). Every size is at most STRATA_BATCHED_MAX_DIM.
 *  - Every pointer (data, offsets, per-block sizes) is memory of exec's space (device memory on
 *    GPUs; host memory on host backends). Output blocks must not overlap each other or an input.
 *  - count = 0 and zero sizes are valid no-ops (no pointer is read).
 *  - info: NULL makes the call synchronous, and bad data in a block (a NaN or Inf in an input
 *    block that is read, a per-block size out of its bound, an SVD that did not converge, a
 *    singular-value list that is not sorted) is returned as STRATA_ERR_INVALID_DATA (or
 *    STRATA_ERR_NOT_CONVERGED) naming the first such block and what was wrong; the outputs of the
 *    other blocks are still computed. A non-NULL info is a device error word (one int64 in exec
 *    memory, set by strata_batched_info_reset): the call is then asynchronous on exec's stream
 *    and folds its first bad block into *info (the smallest block index wins, so the result does
 *    not depend on the order teams run); strata_batched_info_check reads it later. Several calls
 *    may share one word.
 *  - Errors found before launching (on the host, in every mode): INVALID_ARGUMENT for a NULL exec,
 *    a negative count or size, a size beyond STRATA_BATCHED_MAX_DIM, a leading dimension below
 *    the rows, a NULL data pointer of a block that is read or written, an op other than N / T, an
 *    output stride below the block's span; each message names the value and the limit.
 *    OUT_OF_MEMORY for workspace. */
#ifndef STRATA_BATCHED_H
#define STRATA_BATCHED_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest m, n or k of any batched call (blocks are small; a team handles one). */
#define STRATA_BATCHED_MAX_DIM 1024
/** The largest min(m, n) of strata_batched_svd (the number of Jacobi columns). */
#define STRATA_BATCHED_SVD_MAX_DIM 256

/** Transposition of an operand: op(X) = X (N) or Xᵀ (T). */
typedef enum strata_batched_op { STRATA_BATCHED_N = 0, STRATA_BATCHED_T = 1 } strata_batched_op_t;

/** Where the blocks of one operand lie (see the conventions above). data: exec memory; stride in
 *  elements (doubles) between consecutive blocks when offsets is NULL (0: every block is the same
 *  matrix, allowed for inputs only); offsets: exec memory [count] of element offsets, or NULL;
 *  ld: leading dimension in elements, or 0 for each block's own row count. Vectors (GEMV's x, y,
 *  QR's tau, SVD's S) use the same struct with ld unused. */
typedef struct strata_batched_blocks {
  double *data;
  int64_t stride;
  const int64_t *offsets;
  int32_t ld;
} strata_batched_blocks_t;

/** Blocks at data + i·stride, leading dimension ld. */
static inline strata_batched_blocks_t strata_batched_strided(double *data, int32_t ld, int64_t stride) {
  strata_batched_blocks_t b;
  b.data = data;
  b.stride = stride;
  b.offsets = NULL;
  b.ld = ld;
  return b;
}
/** Blocks at data + offsets[i] (offsets: exec memory [count]), leading dimension ld. */
static inline strata_batched_blocks_t strata_batched_at(double *data, int32_t ld, const int64_t *offsets) {
  strata_batched_blocks_t b;
  b.data = data;
  b.stride = 0;
  b.offsets = offsets;
  b.ld = ld;
  return b;
}

/** The sizes of a batch: count blocks; m, n, k the sizes of every block, or the bounds of the
 *  per-block sizes m_each / n_each / k_each (exec memory [count] int32, or NULL). What m, n, k
 *  mean is each call's. */
typedef struct strata_batched_shape {
  int64_t count;
  int32_t m, n, k;
  const int32_t *m_each, *n_each, *k_each;
} strata_batched_shape_t;

/** A shape of count uniform blocks. */
static inline strata_batched_shape_t strata_batched_shape(int64_t count, int32_t m, int32_t n, int32_t k) {
  strata_batched_shape_t s;
  s.count = count;
  s.m = m;
  s.n = n;
  s.k = k;
  s.m_each = s.n_each = s.k_each = NULL;
  return s;
}

/** Sets the device error word *info (exec memory, one int64) to "no error", ordered on exec's
 *  stream. Errors: INVALID_ARGUMENT (NULL). Asynchronous. */
strata_status_t strata_batched_info_reset(strata_exec_t *exec, int64_t *info);

/** Waits for exec, reads the error word and returns what the first bad block recorded in it:
 *  SUCCESS, INVALID_DATA (non-finite input, a per-block size out of bound, unsorted singular
 *  values) or NOT_CONVERGED (an SVD), with a message naming the block and the fault, prefixed by
 *  what (may be NULL). *block (may be NULL) receives that block's index, or -1. The word is left
 *  as it is. Synchronous. */
strata_status_t strata_batched_info_check(strata_exec_t *exec, const int64_t *info, const char *what,
                                          int64_t *block);

/** Batched GEMM: C_i = α·op(A_i)·op(B_i) + β·C_i for every block i, op(A_i) m_i × k_i,
 *  op(B_i) k_i × n_i, C_i m_i × n_i (shape: m, n, k and their per-block arrays). β = 0: C is not
 *  read (a NaN there does not leak); α = 0 or k_i = 0: A and B are not read (C_i = β·C_i). Each
 *  entry is the sum over l in ascending order (the same order on every backend; GPU compilers
 *  may contract into FMAs). Checks for non-finite entries in the blocks it reads. Errors: see
 *  the conventions; INVALID_ARGUMENT also for an α or β that is not finite (both named).
 *  Asynchronous iff info != NULL. BLAS dgemm semantics per block (cuBLAS
 *  cublasDgemmStridedBatched / cublasDgemmBatched as a peer). */
strata_status_t strata_batched_gemm(strata_exec_t *exec, strata_batched_op_t opA, strata_batched_op_t opB,
                                    const strata_batched_shape_t *shape, double alpha,
                                    strata_batched_blocks_t A, strata_batched_blocks_t B, double beta,
                                    strata_batched_blocks_t C, int64_t *info);

/** Batched GEMV: y_i = α·op(A_i)·x_i + β·y_i, A_i m_i × n_i (shape m, n; k unused), x_i of length
 *  n_i (op N) or m_i (op T), y_i of the other length. β = 0: y is not read; α = 0: A, x not read.
 *  The GEMM kernel with one column. Errors, asynchrony: as strata_batched_gemm. */
strata_status_t strata_batched_gemv(strata_exec_t *exec, strata_batched_op_t opA, const strata_batched_shape_t *shape,
                                    double alpha, strata_batched_blocks_t A, strata_batched_blocks_t x, double beta,
                                    strata_batched_blocks_t y, int64_t *info);

/** Batched Householder QR (LAPACK dgeqr2 per block, unblocked): A_i (m_i × n_i, shape m, n) is
 *  overwritten with R_i in its upper triangle (upper trapezoid when m_i < n_i) and the
 *  Householder vectors below the diagonal; tau_i (min(m_i, n_i) doubles) receives the scalar
 *  factors, so that Q_i = H_0 ··· H_{r-1}, H_j = I − tau_j v_j v_jᵀ, v_j = (0…0, 1, A(j+1:m, j)),
 *  r = min(m_i, n_i), as LAPACK's compact form (R equals dgeqrf's up to rounding). A column whose
 *  part below the diagonal is zero gets tau = 0 (H = I). Works in place in exec memory. Checks A
 *  for non-finite entries. Errors, asynchrony: see the conventions. */
strata_status_t strata_batched_qr(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                  strata_batched_blocks_t tau, int64_t *info);

/** Batched QR with column pivoting (LAPACK dgeqpf / dlaqp2 per block, unblocked): A_i·P_i = Q_i·R_i,
 *  at step j the remaining column of the largest norm (below row j; the first such) taking place
 *  j, the norms downdated after each step and recomputed where cancellation has lost half of the
 *  digits (LAPACK's rule), so that |R(0,0)| >= |R(1,1)| >= …: a rank-revealing factorization
 *  whose |R(j,j)| estimate the singular values (truncate where they fall below a tolerance).
 *  A_i, tau_i as strata_batched_qr (strata_batched_qr_apply applies its Q); perm (exec memory,
 *  count × n int32, block i's at perm + i·n with n the shape's bound): column j of A_i·P_i is
 *  column perm[j] of A_i (0-based; LAPACK's jpvt − 1). Team scratch of 32·n bytes. Errors,
 *  asynchrony: see the conventions; INVALID_ARGUMENT for a NULL perm. */
strata_status_t strata_batched_qrcp(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                    strata_batched_blocks_t tau, int32_t *perm, int64_t *info);

/** Applies the Q_i of strata_batched_qr (or strata_batched_qrcp): C_i = op(Q_i)·C_i (LAPACK
 *  dormqr, side left), Q_i m_i × m_i from the first k_i reflectors stored in A_i / tau_i (m_i × k_i,
 *  k_i <= m_i: the first k_i columns of the QR's output); C_i m_i × n_i (shape m, n, k). With form_q nonzero C_i is
 *  first set to the first n_i columns of the identity, so that the result is Q_i's first n_i
 *  columns (explicit thin Q: n_i = min(m_i, QR's n_i) = k_i; LAPACK dorgqr). A k_i > m_i is bad
 *  data for that block; uniform sizes with k > m are refused (INVALID_ARGUMENT). Errors,
 *  asynchrony: see the conventions. */
strata_status_t strata_batched_qr_apply(strata_exec_t *exec, strata_batched_op_t op, const strata_batched_shape_t *shape,
                                        strata_batched_blocks_t A, strata_batched_blocks_t tau, int form_q,
                                        strata_batched_blocks_t C, int64_t *info);

/** Batched thin SVD A_i = U_i·diag(S_i)·V_iᵀ of m_i × n_i blocks (shape m, n; p_i = min(m_i, n_i)
 *  <= STRATA_BATCHED_SVD_MAX_DIM) by one-sided Jacobi (Hestenes 1958, in the parallel round-robin
 *  order of Brent and Luk 1985): the columns of A_i (of A_iᵀ when n_i > m_i) are rotated
 *  until every pair is orthogonal to sqrt(max(m_i, n_i))·ε relative to their norms, at most 40
 *  sweeps. S_i (p_i doubles) descending, ties in column order; U_i m_i × p_i and V_i n_i × p_i with
 *  orthonormal columns (the columns of singular values below 1e-140·max|A_i|, returned as 0, are
 *  completed to an orthonormal set). U.data or V.data NULL: that factor is not computed. A is
 *  only read. Working copies live in team scratch when they fit, else in workspace taken from
 *  exec (in chunks of the batch). Checks A for non-finite entries; a block that did not converge
 *  is reported as NOT_CONVERGED (its outputs are those of the last sweep). Errors, asynchrony:
 *  see the conventions (also min(m, n) above STRATA_BATCHED_SVD_MAX_DIM). */
strata_status_t strata_batched_svd(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                   strata_batched_blocks_t S, strata_batched_blocks_t U, strata_batched_blocks_t V,
                                   int64_t *info);

/** How strata_batched_svd_rank measures the truncation error of keeping r singular values. */
typedef enum strata_batched_rank_norm {
  /** spectral norm: ‖A − A_r‖₂ = σ_r (0-based); keeps the σ_j > tol (relative: > tol·σ_0) */
  STRATA_BATCHED_RANK_2 = 0,
  /** Frobenius norm: ‖A − A_r‖_F = sqrt(Σ_{j>=r} σ_j²); the smallest r with that <= tol (relative:
   *  <= tol·‖A‖_F = tol·sqrt(Σ_j σ_j²)) */
  STRATA_BATCHED_RANK_FRO = 1
} strata_batched_rank_norm_t;

/** The truncation rank of each block: ranks[i] (exec memory [count] int32) = the smallest r such
 *  that the error of the best rank-r approximation, in the norm named by norm, is at most tol
 *  (relative nonzero: tol times the norm of the block itself, so that scaling A scales nothing;
 *  else absolute). S_i: the n_i singular values of block i in descending order (shape n and
 *  n_each; m, k unused), as strata_batched_svd gives them. A zero block has rank 0. tol >= 0 and
 *  finite. Negative, non-finite or unsorted S_i are bad data for that block (its rank is then
 *  n_i). Errors, asynchrony: see the conventions; INVALID_ARGUMENT for tol or norm. */
strata_status_t strata_batched_svd_rank(strata_exec_t *exec, const strata_batched_shape_t *shape,
                                        strata_batched_blocks_t S, double tol, strata_batched_rank_norm_t norm,
                                        int relative, int32_t *ranks, int64_t *info);

#ifdef __cplusplus
}
#endif
#endif
