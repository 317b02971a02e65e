/* strata — argument structs of the kernel-dependent H² construction kernels (strata/hmatrix.h),
 * shared by host code and kernel sources (<strata/hmatrix_kl.h>). Plain C, valid as C11 and
 * C++17. Every pointer is exec memory; node indices are global (heap order, strata_h2_tree_t);
 * points are in tree order, 3 coordinates each (the third 0 in 2D). */
#ifndef STRATA_HMATRIX_ARGS_H
#define STRATA_HMATRIX_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** S[e] for e in [0, blocks·k²): block b = e / k², entry (α, β) = ((e / k) % k, e % k) is
 *  K(ξ^t_α, ξ^s_β), t = row_node[b], s = col_node[b]; ξ^g_α has coordinate d
 *  center[3g+d] + half[3g+d]·cheb[(α / p^d) % p]. */
typedef struct strata_h2_coupling_args {
  int32_t p, k, dim;
  const double *cheb;
  const double *center, *half;
  const int64_t *row_node, *col_node;
  double params[4];
  double *S;
} strata_h2_coupling_args_t;

/** D[e] for e in [0, offsets[num_blocks]): block b (offsets[b] <= e < offsets[b+1]) of leaves
 *  t = row_node[b], s = col_node[b]; local entry (i, j) row-major over n_t x n_s is
 *  K(pts[begin_t + i], pts[begin_s + j]). */
typedef struct strata_h2_dense_args {
  int64_t num_blocks;
  const int64_t *offsets;
  const int64_t *row_node, *col_node;
  const int64_t *node_begin, *node_end;
  const double *pts;
  double params[4];
  double *D;
} strata_h2_dense_args_t;

/** One team per sampled row r < m: out[r + v·m] = Σ_j K(x_{rows[r]}, pts[j]) X[index_map[j] + v·ldx]
 *  over tree positions j < n; inv_map[user index] = tree position. */
typedef struct strata_h2_rows_args {
  int64_t n, ldx, m;
  int32_t nv;
  const int64_t *rows, *inv_map, *index_map;
  const double *pts, *X;
  double params[4];
  double *out;
} strata_h2_rows_args_t;

#ifdef __cplusplus
}
#endif
#endif
