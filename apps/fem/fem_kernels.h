/* strata fem — argument structs of the FEM kernels (fem_kernels.kl.c), shared with host code.
 * All pointers are exec memory. Shapes: xyz [n][3], tets [m][4] (int32 node ids). */
#ifndef STRATA_FEM_KERNELS_H
#define STRATA_FEM_KERNELS_H
#include <stdint.h>

typedef struct fem_graph_args {
  const int32_t *tets;
  int32_t *rows, *cols; /* [16 m]: entry 16e+4i+j = (tets[e][i], tets[e][j]) */
} fem_graph_args_t;

typedef struct fem_element_args {
  const double *xyz;
  const int32_t *tets;
  int64_t *row_offsets; /* element-row matrix E [4m x n]: row 4e+i holds row i of Ke */
  int32_t *cols;        /* [16 m] */
  double *vals;         /* [16 m] */
  int32_t *import_rows; /* [4 m]: target row of element row 4e+i = tets[e][i] */
  int64_t num_tets;
  int64_t *first_bad;   /* [1], INT64_MAX before: the lowest e whose element matrix has a
                           non-finite entry (a degenerate tet whose gradients overflow) */
} fem_element_args_t;

typedef struct fem_dirichlet_args {
  const int64_t *row_offsets;
  const int32_t *cols;
  double *vals;
  const uint8_t *on_boundary;
  const double *diag; /* [rows]: the Dirichlet rows' diagonals (fem_dirichlet) */
} fem_dirichlet_args_t;

typedef struct fem_node_args {
  const double *xyz;
  int64_t num_mesh_nodes; /* nodes from num_mesh_nodes on (the bulk nodes) get u = 0 */
  int scale_log2;         /* u = 2^scale_log2 x the manufactured solution (ldexp: the factor
                             itself may be below the smallest double while u is not) */
  double *u;
} fem_node_args_t;

typedef struct fem_vec_args {
  double a, b;
  const double *x;
  const double *w; /* second input of fem_dot */
  double *y;
} fem_vec_args_t;

/* Bulk nodes (issue 5 §4): K nodes numbered nmesh..nmesh+K-1, bulk node q tied by a spring
 * (k [[1, -1], [-1, 1]]) to each of the m boundary nodes sel[0..m). Spring p = q m + s joins
 * nmesh + q and sel[s]. */
typedef struct fem_spring_args {
  const int32_t *sel;   /* [m] boundary node ids */
  const int32_t *bulk;  /* [K] bulk node ids (element rows only; NULL: nmesh + q) */
  int64_t nmesh, m, K;
  double k;
  /* graph: rows, cols [4 K m], entries 4p..4p+3 = (b,b), (b,j), (j,b), (j,j) */
  int32_t *rows, *cols;
  /* element rows appended to E after the 4 nt tet rows (entry base 16 nt):
   *   E row 4nt + q       (q < K): bulk node q's row, the concatenation of its m springs'
   *                        rows: entries base + 2mq + 2s + {0, 1} = (b, k), (sel[s], -k);
   *   E row 4nt + K + p   (p < Km): the boundary end of spring p: entries
   *                        base + 2mK + 2p + {0, 1} = (j, k), (b, -k). */
  int64_t erow0, base;
  int64_t *row_offsets;
  int32_t *ecols;
  double *evals;
  int32_t *import_rows;
} fem_spring_args_t;

#endif
