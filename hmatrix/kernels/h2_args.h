/* strata hmatrix — argument structs of the kernel-independent H² kernels (h2_build.kl.c,
 * h2_matvec.kl.c), shared with hmatrix/src/h2.c. Plain C, valid as C11 and C++17. Every pointer is
 * exec memory; layouts as strata/hmatrix.h describes; x̂ and ŷ of node g, vector v, index α are at
 * [(g·nv + v)·k + α]. */
#ifndef STRATA_HMATRIX_H2_ARGS_H
#define STRATA_HMATRIX_H2_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The built-in kernels' evaluation: params[0] the kind (strata_h2_kernel_kind_t), params[1] 1/ℓ. */

/** U entries e in [0, n·k): point position i = e / k, α = e % k; the point's leaf is found among
 *  the num_leaves leaves (global first_leaf ..) by their ends. */
typedef struct strata_h2_basis_args {
  int32_t p, k, dim;
  int64_t first_leaf, num_leaves;
  const double *cheb, *center, *half, *pts;
  const int64_t *node_begin, *node_end;
  double *U;
} strata_h2_basis_args_t;

/** E entries e in [0, (num_nodes - 1)·k²): node g = 1 + e / k², (α child, β parent). */
typedef struct strata_h2_transfer_build_args {
  int32_t p, k, dim;
  const double *cheb, *center, *half;
  double *E;
} strata_h2_transfer_build_args_t;

/** xp[i + v·n] = X[index_map[i] + v·ldx] over e = i + v·n in [0, n·nv). */
typedef struct strata_h2_gather_args {
  int64_t n, ldx;
  const int64_t *index_map;
  const double *X;
  double *xp;
} strata_h2_gather_args_t;

/** Nodes in batches (this and the next two structs): a team takes the per_team nodes
 *  first + league rank·per_team + [0, per_team) of a level, at most count in all (first + count
 *  is the level's end); the team's threads (or lanes) share the batch's outputs. */

/** Leaves (global first ..): x̂ = Uᵀ x. */
typedef struct strata_h2_upleaf_args {
  int64_t first, n, count;
  int32_t k, nv, per_team;
  const int64_t *node_begin, *node_end;
  const double *U, *xp;
  double *xhat;
} strata_h2_upleaf_args_t;

/** Upsweep: parent nodes g (first ..): x̂_g = Σ_c E_cᵀ x̂_c.
 *  Downsweep: child nodes g (first ..): ŷ_g += E_g ŷ_parent. */
typedef struct strata_h2_transfer_args {
  int64_t first, count;
  int32_t k, nv, per_team;
  const double *E;
  double *v;
} strata_h2_transfer_args_t;

/** One team per node g = first + league rank of a level: ŷ_g = Σ_b S_b x̂_cols[b]. */
typedef struct strata_h2_coupling_mv_args {
  int64_t first;
  int32_t k, nv;
  const int64_t *row_ptr, *cols;
  const double *S, *xhat;
  double *yhat;
} strata_h2_coupling_mv_args_t;

/** Leaves (global first ..). strata_h2_leaf_basis, per_team leaves to a team: yp = U ŷ (tree
 *  order, n x nv); strata_h2_leaf_product, one leaf to a team (league rank), mode 0: y = yp (when lowrank) + Σ_b D_b x_s, then
 *  Y[index_map[pos] + v·ldy] = α·y + β·Y (β == 0: Y not read); mode 1: yd = Σ_b D_b x_s only (tree
 *  order, n x nv); strata_h2_combine (a range kernel over n·nv): mode 0's last step from yd. */
/** team scratch of strata_h2_leaf_product per mapped column: its block's first entry of the row
 *  (from the leaf's first block), the block's row stride, its position in x (int32 each) */
#define STRATA_H2_DENSE_MAP_BYTES 12
typedef struct strata_h2_leaf_args {
  int64_t first, n, ldy, leaf_max; /* leaf_max: the most points of a leaf */
  int32_t k, nv, lowrank, mode;
  int64_t count; /* the leaves */
  int32_t per_team;
  double *yd;
  const int64_t *node_begin, *node_end, *index_map;
  const int64_t *dense_row_ptr, *dense_cols, *dense_offsets;
  const double *U, *yhat, *D, *xp;
  double *yp;
  double alpha, beta;
  double *Y;
  int64_t width; /* leaf_product: > 0 maps the leaf's dense columns (at most width) in team scratch,
                    STRATA_H2_DENSE_MAP_BYTES each, and lanes run over all of them; 0 block by block */
} strata_h2_leaf_args_t;

#ifdef __cplusplus
}
#endif
#endif
