/* strata — H² matrices (DESIGN §11): point sets, the KD-tree and the block tree, construction by
 * Chebyshev interpolation, the matrix-vector product.
 *
 * An H² matrix approximates the dense kernel matrix A[i][j] = K(x_i, x_j) of n points in 2D or
 * 3D with nested bases: a block of well-separated clusters t, s is U_t S_ts U_sᵀ, where U_t is the
 * leaf basis of t (leaves) or the leaf bases of t's descendants multiplied by the transfer
 * matrices E up the tree (inner nodes); the remaining blocks, between neighbouring leaves, are
 * stored dense. Storage and the product are O(n) for a fixed rank. The layout follows H2Opus
 * (Boukaram, Turkiyyah, Keyes, "Hierarchical matrix operations on GPUs: matrix-vector
 * multiplication and compression", ACM TOMS 2019): a complete binary tree of a fixed depth, every
 * array flat and level by level, one rank per level; the bases are those of Chebyshev
 * interpolation (Börm, Grasedyck, Hackbusch, "Hierarchical matrices", 2003, ch. 4; Fong and
 * Darve's black-box FMM, J. Comput. Phys. 2009).
 *
 * Flat layout (every array of strata_h2_tree_t and of the matrix; k = p^d is the rank):
 *   nodes    heap order over the levels 0 (the root) .. depth (the leaves): node g of level l is
 *            g = 2^l - 1 + i, i in [0, 2^l); its children are 2g + 1 and 2g + 2. A node's points
 *            are the tree-order positions [node_begin[g], node_end[g]); index_map[pos] is the
 *            point's index in the user's order.
 *   blocks   coupling blocks in CSR form over all nodes: row g's column clusters are
 *            coupling_cols[coupling_row_ptr[g] .. coupling_row_ptr[g + 1]), so the blocks of level
 *            l are the contiguous range coupling_row_ptr[2^l - 1] .. coupling_row_ptr[2^(l+1) - 1];
 *            dense blocks likewise in CSR form over the leaves (dense_row_ptr, dense_cols).
 *   U        n x k values: the leaf starting at position b with m points holds its m x k basis
 *            column-major at U + b·k (entry (i, α) at U[b·k + α·m + i]).
 *   E        k x k per node g >= 1, row-major at E + (g - 1)·k² (entry (α_child, β_parent)).
 *   S        k x k per coupling block, row-major, in CSR order (entry (α_t, β_s)).
 *   D        per dense block b of leaves (t, s): n_t x n_s row-major at D + dense_offsets[b].
 * Compression (strata_h2_compress) orthogonalizes and truncates the bases in place, in this layout.
 *
 * Construction: the KD-tree and the block tree are built on the host (sequential, O(n log n));
 * the numerical content (U, E, S, D) is computed on the device by kernels (hmatrix/kernels).
 * The product runs on the device, one batched kernel per phase and level, deterministic (no
 * atomics: one team per output block row).
 */
#ifndef STRATA_HMATRIX_H
#define STRATA_HMATRIX_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------- points */

/** A point set: n points in dim (2 or 3) dimensions, coords [n·dim] row-major (point i's
 *  coordinate d at coords[i·dim + d]), host memory owned by the object. Read-only for users. */
typedef struct strata_points {
  int32_t dim;
  int64_t n;
  double *coords;
} strata_points_t;

/** A point set from coords [n·dim] (host, row-major; copied). n == 0 is valid (coords may be NULL).
 *  Errors: INVALID_ARGUMENT (NULL pts; dim not 2 or 3; n < 0; NULL coords with n > 0),
 *  INVALID_DATA (a NaN or infinite coordinate: the message names the point, the dimension and the
 *  value), OUT_OF_MEMORY. Synchronous, host only. */
strata_status_t strata_points_create(int32_t dim, int64_t n, const double *coords, strata_points_t **pts);

/** n points uniform in the unit cube [0, 1)^dim from a seed (splitmix64; the same points on every
 *  machine for a seed). Errors: as strata_points_create. */
strata_status_t strata_points_create_random(int32_t dim, int64_t n, uint64_t seed, strata_points_t **pts);

/** n points of a regular grid on [0, 1]^dim: m = ⌈n^(1/dim)⌉ points per side, spacing 1/(m - 1)
 *  (0 for m = 1), the first n grid points in lexicographic order (x fastest): a full grid when n
 *  is m^dim. Errors: as strata_points_create. */
strata_status_t strata_points_create_grid(int32_t dim, int64_t n, strata_points_t **pts);

/** Reads points from a Matrix Market file (read with strata_mm_read_coo): an n x d "array real"
 *  (or integer) general matrix, d in {2, 3}, row i = point i. Errors: those of strata_mm_read_coo
 *  (IO, INVALID_DATA with path and line); INVALID_DATA when the file is a coordinate file, or has
 *  a column count other than 2 or 3 (named, with the path), or holds a NaN or an infinite
 *  coordinate (the point named, 0-based). Synchronous, host only. */
strata_status_t strata_points_read(const char *path, strata_points_t **pts);

/** Writes the points as an n x dim "array real general" Matrix Market file (%.17g: exact round
 *  trip), in their order. Errors: INVALID_ARGUMENT (NULL), IO (named). */
strata_status_t strata_points_write(const char *path, const strata_points_t *pts);

/** Frees a point set. NULL-safe; sets *pts to NULL. */
strata_status_t strata_points_destroy(strata_points_t **pts);

/* ------------------------------------------------------------------------ the trees */

/** The KD-tree and the block tree (host memory, read-only for users; layout: the file's comment).
 *  KD-tree: depth = 0 when n <= leaf, else the least L with ⌈n / 2^L⌉ <= leaf; every node's m
 *  points are split at the median position: the first child takes the ⌊m/2⌋ smallest along the
 *  longest edge of the node's bounding box (ties by the user's index; a selection, O(m)), so
 *  duplicate points are split like any others and the recursion always ends (a cluster of equal
 *  points spans several leaves, whose mutual blocks are dense: their centers coincide); leaves
 *  hold at most `leaf` points and may be empty (a node of one point above the leaves has an empty
 *  first child). Each node has an interpolation box center ± half (3 entries per
 *  node; the third 0 in 2D): its bounding box with every half-width raised to at least 1e-2 of
 *  its largest one, and to at least 1e-8 of the root's largest (1e-8 when all points are equal),
 *  so that boxes of collinear, coplanar or identical points have positive widths (EDGE_CASES Q2).
 *  Admissibility of (t, s): both non-empty and ½(diam_t + diam_s) <= η·dist(center_t, center_s)
 *  with dist > 0, diam = the diagonal of the interpolation box. On collinear (coplanar) points the
 *  boxes are nearly flat and touching neighbours meet the rule with equality at η = 1, so they are
 *  admitted: the error is then about 30× that of generic points at the same p; use η < 1 there
 *  (η = 0.9: as accurate as generic points). Dual traversal from (root, root):
 *  an admissible pair is a coupling block of its level, an inadmissible pair of leaves a dense
 *  block, any other inadmissible pair is split into its four child pairs; pairs with an empty node
 *  are dropped (they hold no entry). */
typedef struct strata_h2_tree {
  int32_t dim;
  int64_t n;
  int32_t leaf;            /**< the leaf size asked for */
  double eta;              /**< the admissibility parameter */
  int32_t depth;           /**< levels 0 .. depth; the leaves are level depth */
  int64_t num_nodes;       /**< 2^(depth+1) - 1 */
  int64_t num_leaves;      /**< 2^depth; leaf i is node 2^depth - 1 + i */
  int64_t *index_map;      /**< [n] tree position -> index in the user's order */
  int64_t *node_begin;     /**< [num_nodes] */
  int64_t *node_end;       /**< [num_nodes] */
  double *center;          /**< [3·num_nodes] interpolation box centers */
  double *half;            /**< [3·num_nodes] interpolation box half-widths (0 for empty nodes) */
  int64_t num_coupling;    /**< coupling blocks, all levels */
  int64_t *coupling_row_ptr; /**< [num_nodes + 1] */
  int64_t *coupling_cols;  /**< [num_coupling] column cluster (global node index) */
  int64_t num_dense;       /**< dense blocks */
  int64_t *dense_row_ptr;  /**< [num_leaves + 1] */
  int64_t *dense_cols;     /**< [num_dense] column leaf (global node index) */
  int64_t *dense_offsets;  /**< [num_dense + 1] first entry of each dense block in D */
} strata_h2_tree_t;

/** Builds the KD-tree and the block tree of pts (host, sequential). leaf >= 1, eta > 0 and finite.
 *  n == 0 gives depth 0, one empty node and no blocks. Errors: INVALID_ARGUMENT (NULL; leaf < 1;
 *  eta <= 0, NaN or infinite: each named with its limit), OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_h2_tree_create(const strata_points_t *pts, int32_t leaf, double eta, strata_h2_tree_t **tree);

/** Frees a tree. NULL-safe; sets *tree to NULL. */
strata_status_t strata_h2_tree_destroy(strata_h2_tree_t **tree);

/* --------------------------------------------------------------------- the matrix */

/** The kernel functions built in: r = ‖x - y‖₂, ℓ = length > 0.
 *  EXP exp(-r/ℓ); GAUSS exp(-(r/ℓ)²); MATERN32 (1 + √3 r/ℓ) exp(-√3 r/ℓ); USER: a kernel the
 *  user compiled with strata_add_kernels through <strata/hmatrix_kl.h> (options.user). */
typedef enum strata_h2_kernel_kind {
  STRATA_H2_EXP = 0,
  STRATA_H2_GAUSS = 1,
  STRATA_H2_MATERN32 = 2,
  STRATA_H2_USER = 3
} strata_h2_kernel_kind_t;

/** A user kernel: the three kernels STRATA_H2_USER_KERNELS(prefix, func) of <strata/hmatrix_kl.h>
 *  defines in the user's kernel source (prefix_coupling, prefix_dense, prefix_rows), and four
 *  parameters handed to func unchanged. Fill it with STRATA_H2_USER_KERNEL_INIT. */
typedef struct strata_h2_user_kernel {
  const strata_kernel_t *coupling;
  const strata_kernel_t *dense;
  const strata_kernel_t *rows;
  double params[4];
} strata_h2_user_kernel_t;

/** Host side of a user kernel (see <strata/hmatrix_kl.h>): declares PREFIX_coupling, PREFIX_dense
 *  and PREFIX_rows, and points a strata_h2_user_kernel_t at them (params set to 0). */
#define STRATA_H2_USER_KERNEL_DECLARE(PREFIX)                                                      \
  STRATA_KERNEL_DECLARE(PREFIX##_coupling);                                                        \
  STRATA_KERNEL_DECLARE(PREFIX##_dense);                                                           \
  STRATA_KERNEL_DECLARE(PREFIX##_rows)
#define STRATA_H2_USER_KERNEL_INIT(UK, PREFIX)                                                     \
  do {                                                                                             \
    (UK)->coupling = &PREFIX##_coupling;                                                           \
    (UK)->dense = &PREFIX##_dense;                                                                 \
    (UK)->rows = &PREFIX##_rows;                                                                   \
    (UK)->params[0] = (UK)->params[1] = (UK)->params[2] = (UK)->params[3] = 0.0;                   \
  } while (0)

/** How strata_h2_matvec runs its dense phase (the leaf blocks D, independent of the low-rank phases
 *  until the final sum). OFF: every phase on the matvec's exec, one after the other, the dense sum
 *  fused into the last kernel. ON: the dense sums go to a temporary on a second execution space
 *  instance that the matrix owns (made with strata_exec_create on the matrix's backend), ordered
 *  after the gather of X and before the final sum with events (strata_exec_wait_event), so that on
 *  GPUs the dense phase runs concurrently with the upsweep, coupling and downsweep on another
 *  stream (DESIGN §11; H2Opus overlaps the same phases). AUTO (0, the default): ON on GPU backends,
 *  OFF on host backends (their launches run one after the other anyway). Both give the same bits. */
typedef enum strata_h2_overlap {
  STRATA_H2_OVERLAP_AUTO = 0,
  STRATA_H2_OVERLAP_OFF = 1,
  STRATA_H2_OVERLAP_ON = 2
} strata_h2_overlap_t;

/** Construction options. strata_h2_options_default fills leaf 64, cheb 8 (2D) or 5 (3D),
 *  eta 1, EXP with length 1, overlap AUTO. */
typedef struct strata_h2_options {
  int32_t leaf;                  /**< >= 1 */
  int32_t cheb;                  /**< p, Chebyshev points per dimension: 1 .. 16; rank p^dim */
  double eta;                    /**< > 0 */
  strata_h2_kernel_kind_t kernel;
  double length;                 /**< ℓ > 0, finite (built-in kernels) */
  const strata_h2_user_kernel_t *user; /**< kernel == USER: the user's kernels (host memory, read
                                            during strata_h2_create only) */
  strata_h2_overlap_t overlap;   /**< the matvec's dense phase on a second stream (strata_h2_overlap_t) */
} strata_h2_options_t;

/** Defaults for dim (2 or 3; any other value gets the 2D ones). Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_h2_options_default(int32_t dim, strata_h2_options_t *opts);

typedef struct strata_h2_matrix strata_h2_matrix_t;

/** Builds the H² approximation of K on pts: the trees on the host (strata_h2_tree_create), then on
 *  exec's device the Chebyshev nodes ξ = c + h·cos((2m+1)π/(2p)) of every interpolation box, the
 *  leaf bases U[i][α] = Π_d L_{α_d}(x_{i,d}) (Lagrange polynomials of the leaf's nodes), the
 *  transfers E_c[α][β] = Π_d L^parent_{β_d}(ξ^c_{α_d}), the coupling blocks S_ts = K(ξ_t, ξ_s) and
 *  the dense blocks D_ts = K(x_i, x_j). pts stays the caller's (copied). The matrix belongs to exec's
 *  backend and must be used with an exec of that backend. Errors: INVALID_ARGUMENT (NULL; leaf,
 *  eta, cheb outside [1, 16], length <= 0 or not finite, an unknown kernel, USER without its three
 *  kernels, an overlap outside AUTO / OFF / ON: each named with its limit), BACKEND_UNAVAILABLE (a
 *  USER kernel not compiled for exec's backend, named), OUT_OF_MEMORY, DEVICE.
 *  Synchronous (returns when the device build is done). */
strata_status_t strata_h2_create(strata_exec_t *exec, const strata_points_t *pts, const strata_h2_options_t *opts,
                                 strata_h2_matrix_t **A);

/** Frees the matrix (fences its exec first). NULL-safe; sets *A to NULL. */
strata_status_t strata_h2_destroy(strata_h2_matrix_t **A);

/** Sets how later products run their dense phase (strata_h2_overlap_t; AUTO resolved for the
 *  matrix's backend), for A/B measurements without a rebuild: ON makes the matrix's second
 *  execution space instance and its two events if it has none, OFF destroys them (fencing the
 *  instance first). The products' results are the same bits either way. Not to be called while
 *  another host thread runs a product on A. Errors: INVALID_ARGUMENT (NULL A, a mode outside AUTO /
 *  OFF / ON, named), and those of strata_exec_create and strata_event_create. Synchronous. */
strata_status_t strata_h2_set_overlap(strata_h2_matrix_t *A, strata_h2_overlap_t mode);

/** *on = 1 when products of A run the dense phase on the second instance (strata_h2_overlap_t ON,
 *  or AUTO on a GPU backend), else 0. Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_h2_get_overlap(const strata_h2_matrix_t *A, int *on);

/** The matrix's trees (host memory, owned by A, valid until it is destroyed). Errors: INVALID_ARGUMENT. */
strata_status_t strata_h2_get_tree(const strata_h2_matrix_t *A, const strata_h2_tree_t **tree);

/** Sizes of a matrix. Bytes: low-rank = U + E + S, dense = D (8 bytes a value), total = both plus
 *  the index arrays and points kept on the device. */
typedef struct strata_h2_info {
  int64_t n;
  int32_t dim, depth, cheb, rank, leaf;
  double eta;
  int64_t num_coupling, num_dense;
  int64_t coupling_per_level[64]; /**< coupling blocks of level l, l <= depth */
  size_t bytes_lowrank, bytes_dense, bytes_total;
} strata_h2_info_t;

/** Fills *info. Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_h2_get_info(const strata_h2_matrix_t *A, strata_h2_info_t *info);

/** Y = α·A·X + β·Y for nv vectors: X and Y column-major n x nv with leading dimensions ldx, ldy
 *  >= n, in exec memory, rows in the user's point order. Phases, each a batched kernel over a
 *  level's flat arrays: X gathered to tree order; leaf projections x̂ = Uᵀx; x̂_parent = Σ E_cᵀ x̂_c
 *  level by level up; ŷ_t = Σ_s S_ts x̂_s per level; ŷ_c += E_c ŷ_parent level by level down;
 *  finally per leaf y = U ŷ + Σ D x and Y = α·y + β·Y, scattered back. β == 0: Y is not read (NaN
 *  there is overwritten). No coupling blocks (everything dense): only the last phase runs.
 *  Deterministic: the same bits on every run for a backend and device, with the dense phase
 *  overlapped or not (strata_h2_overlap_t: with overlap, the dense phase runs on A's second
 *  instance into its own temporary and one last kernel adds the two parts in the fixed order of the
 *  fused path). nv == 0 or n == 0: nothing. exec must be of A's backend and device. Temporaries
 *  (2·num_nodes·k·nv + 2·n·nv doubles, n·nv more with overlap) are stream-ordered allocations on exec
 *  (with overlap also used by A's second instance, ordered by events). With overlap, products of
 *  one matrix share its second instance: run them from one host thread at a time. Errors: INVALID_ARGUMENT (NULL A or exec, nv < 0, ld < n, NULL X or Y with work to
 *  do, a NaN or infinite α or β, exec of another backend), OUT_OF_MEMORY, DEVICE. Asynchronous on
 *  exec's stream. Transposed products are not provided: for a symmetric kernel A is symmetric
 *  (S_st = S_tsᵀ and D_st = D_tsᵀ exactly), so A·X is Aᵀ·X. */
strata_status_t strata_h2_matvec(strata_exec_t *exec, const strata_h2_matrix_t *A, int32_t nv, double alpha,
                                 const double *X, int64_t ldx, double beta, double *Y, int64_t ldy);

/** Exact rows of K·X computed on the device: out[r + v·m] = Σ_j K(x_{rows[r]}, x_j) X[j + v·ldx]
 *  for r < m, v < nv; rows (user order indices in [0, n)), X and out in exec memory; the sum in
 *  tree order. Errors: INVALID_ARGUMENT (NULL with m·nv > 0, m < 0, nv < 0, ldx < n), OUT_OF_MEMORY,
 *  DEVICE. A row index outside [0, n) is not checked on the device: the caller's contract.
 *  Asynchronous. */
strata_status_t strata_h2_exact_rows(strata_exec_t *exec, const strata_h2_matrix_t *A, int64_t m, const int64_t *rows,
                                     int32_t nv, const double *X, int64_t ldx, double *out);

/** The relative error of Y (= A·X, as strata_h2_matvec with α 1, β 0 made it) against the exact
 *  product on sampled rows: ‖Y_R - (K·X)_R‖_F / ‖(K·X)_R‖_F over the rows R: all rows when
 *  n <= max_rows, else one row drawn from seed in each of max_rows equal strides of [0, n) (so
 *  distinct; max_rows < 1 is taken as 1: at least one row). Normalized by the exact product, never by Y. NaN or infinite entries anywhere in Y_R or
 *  (K·X)_R give *err = NaN (compare as !(err <= tol)); an exact product of 0 gives 0 when Y_R is 0,
 *  else +inf. X, Y in exec memory (ld n), host *err. Errors: as strata_h2_exact_rows. Synchronous. */
strata_status_t strata_h2_sampled_error(strata_exec_t *exec, const strata_h2_matrix_t *A, int32_t nv, const double *X,
                                        const double *Y, int64_t max_rows, uint64_t seed, double *err);

/* ------------------------------------------------------------------------ compression */

/** What strata_h2_compress did (host memory). Levels l = 0 .. depth; a level carries a basis when
 *  it is at or below the coarsest level with coupling blocks (l_min), others report rank 0. */
typedef struct strata_h2_compress_info {
  double eps;                 /**< the relative tolerance asked for */
  double norm_estimate;       /**< ‖A‖_F of the matrix as it was, after orthogonalization: the
                                   square root of Σ ‖S_ts‖_F² + Σ ‖D‖_F² (exact for A's H² form) */
  double node_tol;            /**< the absolute Frobenius tolerance of each node's truncation */
  int32_t levels;             /**< depth + 1 */
  int32_t rank_before[64];    /**< per level: the largest rank of its nodes before the call */
  int32_t rank_after[64];     /**< per level: the largest rank of its nodes after the call */
  size_t bytes_lowrank_before; /**< U + E + S bytes with the ranks before (per-level layout) */
  size_t bytes_lowrank_after;  /**< U + E + S bytes with the ranks after (per-level layout) */
  double seconds;             /**< wall time of the call (its device work included) */
  double flops;               /**< the nominal flop count of the call (see strata_h2_compress) */
} strata_h2_compress_info_t;

/** Recompresses A in place to a relative tolerance eps (H2Opus's algorithm: Boukaram, Turkiyyah,
 *  Keyes, "Hierarchical matrix operations on GPUs: matrix-vector multiplication and compression",
 *  ACM TOMS 2019: orthogonalization, weights, truncation, projection; the error bound after Börm,
 *  "Efficient numerical methods for non-local operators", 2010, ch. 6). Every phase is a batched kernel over one level's flat arrays on exec's
 *  device (<strata/batched.h>), deterministic:
 *  1. orthogonalization, up the tree: QR of each leaf basis U = Q R (U ← Q), then per level the
 *     children's stacked [R_c1 E_c1; R_c2 E_c2] = Q R (E_c ← the blocks of Q, R the parent's);
 *     the coupling blocks S_ts ← R_t S_ts R_sᵀ;
 *  2. the norm estimate ‖A‖_F (above) and the node tolerance τ = eps·‖A‖_F / sqrt(2·N), N the
 *     nodes of levels l_min .. depth: with the same bases for rows and columns the truncations'
 *     squared Frobenius errors add up to at most 2·N·τ² = (eps·‖A‖_F)², so that
 *     ‖A − A_new‖_F <= eps·‖A‖_F up to rounding (Börm's bound for orthogonal projections); the
 *     relative error of A·x for x of independent random entries is then about eps or less;
 *  3. weights, down the tree: W_t = the R factor of the QR of the stack of S_tsᵀ over t's block
 *     row and W_parent E_tᵀ (so W_tᵀW_t is the Gram matrix of everything t's basis carries);
 *  4. truncation, up the tree, by pivoted QR (strata_batched_qrcp) of the weighted bases — W_tᵀ
 *     at the leaves, the children's projected transfers stacked times W_parentᵀ above: each node
 *     keeps the first r columns of Q, r the fewest for which the discarded ‖R(r:, r:)‖_F (exactly
 *     the Frobenius error of that projection) is <= τ; this gives new leaf bases and transfers
 *     (orthonormal again) and the projections P_t (old basis to new);
 *  5. the coupling blocks S_ts ← P_tᵀ S_ts P_s.
 *  Ranks are per node (at most the level's slot, k = cheb^dim); a level's rank is the largest of
 *  its nodes'. The arrays keep their layout and size (k slots per node, the columns and rows
 *  beyond a node's rank set to 0), so strata_h2_matvec and strata_h2_get_info are unchanged and
 *  the product's cost stays that of rank k; bytes_lowrank_after is what the per-level ranks need.
 *  eps >= 1 is allowed: the tolerance then admits dropping whole bases (ranks 0: the low-rank part
 *  vanishes and A keeps its dense blocks). Calling it again recompresses (ranks never grow).
 *  Flops (info->flops), summed over the blocks of every batched call with the sizes it ran:
 *  QR and pivoted QR of m × n 2mn² − 2n³/3 (m >= n; 2nm² − 2m³/3 otherwise), an explicit Q of m × r
 *  2mr² − 2r³/3 (LAPACK's dgeqrf / dorgqr counts), GEMM 2mnk, the stacking kernels' products 2mnk;
 *  the marshaling copies count 0.
 *  info may be NULL; it is also kept with A (strata_h2_get_compress_info). No coupling blocks or
 *  n == 0: nothing to do (success, ranks 0). Errors: INVALID_ARGUMENT (NULL A or exec, exec of
 *  another backend, eps <= 0, NaN or infinite: named; a rank k above STRATA_BATCHED_MAX_DIM / 2
 *  (512: 3D with cheb 9 or more) or a leaf of more than STRATA_BATCHED_MAX_DIM (1024) points:
 *  named with the limit, also when there is nothing to compress), OUT_OF_MEMORY, INVALID_DATA
 *  from the batched kernels (a non-finite entry: A is then left partly compressed and must not be
 *  used), DEVICE. Synchronous (the ranks are read back). Workspace in exec memory: about
 *  (coupling blocks + 3·nodes + 4·leaves)·k² + n·k doubles, plus one level's weight stack,
 *  (its blocks + nodes)·k². */
strata_status_t strata_h2_compress(strata_exec_t *exec, strata_h2_matrix_t *A, double eps,
                                   strata_h2_compress_info_t *info);

/** The info of A's last strata_h2_compress (all zero, eps 0, when it was never compressed).
 *  Errors: INVALID_ARGUMENT (NULL). */
strata_status_t strata_h2_get_compress_info(const strata_h2_matrix_t *A, strata_h2_compress_info_t *info);

#ifdef __cplusplus
}
#endif
#endif
