/* strata fem — the FEM application's kernels, written once in the kernel language and built
 * for every backend through strata_add_kernels, exactly as a user's code would be. */
#include <float.h>
#include <strata/kl.h>

#include "fem_kernels.h"

/* The matrix graph: every (node, node) pair of every tetrahedron, as COO entries. */
STRATA_FOR_KERNEL(fem_graph_coo, fem_graph_args_t, a, k) {
  const int64_t e = k >> 4;
  const int i = (int)((k >> 2) & 3), j = (int)(k & 3);
  a->rows[k] = a->tets[4 * e + i];
  a->cols[k] = a->tets[4 * e + j];
}

/* P1 Laplace element stiffness: K_ij = vol * grad(l_i) . grad(l_j), with the barycentric
 * gradients from the inverse of the edge matrix J = [x1-x0, x2-x0, x3-x0] (columns). */
STRATA_FOR_KERNEL(fem_element_laplace, fem_element_args_t, a, e) {
  const int32_t *t = a->tets + 4 * e;
  double p[4][3];
  for (int v = 0; v < 4; ++v)
    for (int d = 0; d < 3; ++d) p[v][d] = a->xyz[3 * (int64_t)t[v] + d];
  double J[3][3];
  for (int d = 0; d < 3; ++d)
    for (int c = 0; c < 3; ++c) J[d][c] = p[c + 1][d] - p[0][d];
  const double c00 = J[1][1] * J[2][2] - J[1][2] * J[2][1];
  const double c01 = J[1][2] * J[2][0] - J[1][0] * J[2][2];
  const double c02 = J[1][0] * J[2][1] - J[1][1] * J[2][0];
  const double det = J[0][0] * c00 + J[0][1] * c01 + J[0][2] * c02;
  /* rows of J^{-1} are the gradients of l1, l2, l3: inv = adj(J) / det */
  double g[4][3];
  g[1][0] = c00 / det;
  g[2][0] = c01 / det;
  g[3][0] = c02 / det;
  g[1][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
  g[2][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
  g[3][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
  g[1][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
  g[2][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
  g[3][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
  for (int d = 0; d < 3; ++d) g[0][d] = -(g[1][d] + g[2][d] + g[3][d]);
  const double vol = det / 6.0;
  int finite = 1;
  for (int i = 0; i < 4; ++i) {
    const int64_t r = 4 * e + i;
    a->row_offsets[r] = 4 * r;
    a->import_rows[r] = t[i];
    for (int j = 0; j < 4; ++j) {
      const double v = vol * (g[i][0] * g[j][0] + g[i][1] * g[j][1] + g[i][2] * g[j][2]);
      a->cols[4 * r + j] = t[j];
      a->vals[4 * r + j] = v;
      finite &= v - v == 0.0; /* inf - inf and NaN - NaN are NaN */
    }
  }
  if (!finite) strata_atomic_min_i64(a->first_bad, e); /* rare: reported by the host */
  if (e == a->num_tets - 1) a->row_offsets[4 * a->num_tets] = 16 * a->num_tets;
}

/* The bulk nodes' springs in the graph's COO (see fem_spring_args_t). */
STRATA_FOR_KERNEL(fem_spring_coo, fem_spring_args_t, a, k) {
  const int64_t p = k >> 2, q = p / a->m, s = p % a->m;
  const int32_t b = (int32_t)(a->nmesh + q), j = a->sel[s];
  const int w = (int)(k & 3);
  a->rows[k] = w < 2 ? b : j;
  a->cols[k] = (w == 0 || w == 2) ? b : j;
}

/* The springs' element rows, appended to E (see fem_spring_args_t): bulk node q's long row and
 * the 2-entry row of each spring's boundary end. */
STRATA_FOR_KERNEL(fem_spring_element, fem_spring_args_t, a, p) {
  const int64_t q = p / a->m, s = p % a->m;
  const int32_t b = a->bulk ? a->bulk[q] : (int32_t)(a->nmesh + q), j = a->sel[s];
  const int64_t bq = a->base + 2 * a->m * q, e1 = bq + 2 * s;
  if (s == 0) {
    a->row_offsets[a->erow0 + q] = bq;
    a->import_rows[a->erow0 + q] = b;
  }
  a->ecols[e1] = b;
  a->evals[e1] = a->k;
  a->ecols[e1 + 1] = j;
  a->evals[e1 + 1] = -a->k;
  const int64_t r2 = a->erow0 + a->K + p, e2 = a->base + 2 * a->m * a->K + 2 * p;
  a->row_offsets[r2] = e2;
  a->import_rows[r2] = j;
  a->ecols[e2] = j;
  a->evals[e2] = a->k;
  a->ecols[e2 + 1] = b;
  a->evals[e2 + 1] = -a->k;
  if (p == a->K * a->m - 1) a->row_offsets[r2 + 1] = e2 + 2;
}

/* Dirichlet row r becomes diag[r] times an identity row (b there is diag[r] u_exact); columns of
 * Dirichlet nodes are zeroed in the other rows (symmetric elimination keeps the matrix SPD).
 * diag[r] is the node's P1 Laplace diagonal from the geometry (fem_laplace_diagonal), so that each
 * Dirichlet row is on the scale of its neighbours and ||b - A u|| / ||b|| weighs them alike. With
 * 1 there, a mesh scaled by 1e-100 (entries ~1e-100) stopped CG at once with a 14 % error; with
 * the assembled diagonal, the springs of bulk nodes (k = 1 on their ties' diagonals) made the tied
 * rows dominate ||b||; with one value for every row (a mean of the interior rows', from any
 * formula), graded meshes did (reviews). */
STRATA_FOR_KERNEL(fem_dirichlet, fem_dirichlet_args_t, a, r) {
  const int bound = a->on_boundary[r];
  for (int64_t k = a->row_offsets[r]; k < a->row_offsets[r + 1]; ++k) {
    const int32_t c = a->cols[k];
    if (bound)
      a->vals[k] = c == r ? a->diag[r] : 0.0;
    else if (a->on_boundary[c])
      a->vals[k] = 0.0;
  }
}

/* The manufactured solution u(x, y, z) = sin(pi x) cos(pi y / 2) exp(z / 2) + x y z at the mesh's
 * nodes, times 2^scale_log2; 0 at the bulk nodes, whose rows hold only their diagonal once the Dirichlet
 * columns are eliminated (their ties are boundary nodes): so b is 0 there and ||b||, CG's
 * stopping test and the error are the mesh's alone, with or without bulk nodes. */
STRATA_FOR_KERNEL(fem_u_exact, fem_node_args_t, a, i) {
  const double x = a->xyz[3 * i], y = a->xyz[3 * i + 1], z = a->xyz[3 * i + 2];
  a->u[i] = i < a->num_mesh_nodes
                ? ldexp(sin(3.141592653589793 * x) * cos(1.5707963267948966 * y) * exp(0.5 * z) + x * y * z,
                        a->scale_log2)
                : 0.0;
}

/* y = a x + b y (b == 0: y not read) */
STRATA_FOR_KERNEL(fem_axpby, fem_vec_args_t, v, i) {
  v->y[i] = v->b == 0.0 ? v->a * v->x[i] : v->a * v->x[i] + v->b * v->y[i];
}

/* sum x .* w */
STRATA_REDUCE_KERNEL(fem_dot, fem_vec_args_t, v, i, f64, acc) { *acc += v->x[i] * v->w[i]; }

/* max |x| (NaN ignored) and the count of x's non-finite entries */
STRATA_REDUCE_KERNEL(fem_abs_max, fem_vec_args_t, v, i, f64, acc) {
  const double d = fabs(v->x[i]);
  if (d > *acc) *acc = d;
}
STRATA_REDUCE_KERNEL(fem_nonfinite, fem_vec_args_t, v, i, i64, acc) { *acc += !(fabs(v->x[i]) <= DBL_MAX); }

