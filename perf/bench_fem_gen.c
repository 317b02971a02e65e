/* strata bench — generators from the FEM job's mesh (bench.h: fem:H, elasticity:H): the unit cube
 * with a cylindrical hole meshed by Gmsh at element size H (fem_mesh_generate, the job's own
 * mesher and node order), P1 tetrahedra, Dirichlet rows as in the job.
 *
 * The matrix graph (every node pair of every tetrahedron) is built by strata_crs_create_from_coo
 * on the exec it is given (sort, merge); the values are then gathered row by row on the host, a
 * row from the tetrahedra around its node in tetrahedron order (deterministic, no atomics).
 * Generators are inputs, not measured kernels, so the element matrices are computed on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fem.h"
#include "fem_mesh.h"

#ifndef BENCH_HAVE_GMSH
#define BENCH_HAVE_GMSH 0
#endif

/* linear isotropic elasticity: Young's modulus and Poisson's ratio, Lamé parameters from them */
#define FEM_GEN_E 1.0
#define FEM_GEN_NU 0.3

/* Gradients of the barycentric coordinates of tet t (rows of the inverse of J = [x1-x0, x2-x0,
 * x3-x0]) into g[4][3]; returns the volume det(J) / 6 (positive: the mesh is oriented). */
static double tet_gradients(const fem_mesh_t *m, int64_t t, double g[4][3]) {
  const int32_t *v = m->tets + 4 * t;
  double J[3][3];
  for (int d = 0; d < 3; ++d)
    for (int c = 0; c < 3; ++c) J[d][c] = m->xyz[3 * (int64_t)v[c + 1] + d] - m->xyz[3 * (int64_t)v[0] + d];
  /* inverse = adjugate / det; row k of the inverse is grad l_{k+1} */
  for (int k = 0; k < 3; ++k) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    for (int d = 0; d < 3; ++d) {
      const int d1 = (d + 1) % 3, d2 = (d + 2) % 3;
      g[k + 1][d] = J[d1][k1] * J[d2][k2] - J[d1][k2] * J[d2][k1];
    }
  }
  const double det = J[0][0] * g[1][0] + J[1][0] * g[1][1] + J[2][0] * g[1][2];
  for (int k = 1; k < 4; ++k)
    for (int d = 0; d < 3; ++d) g[k][d] /= det;
  for (int d = 0; d < 3; ++d) g[0][d] = -(g[1][d] + g[2][d] + g[3][d]);
  return det / 6.0;
}

/* Block (i, j) of a tet's element matrix, dof x dof, added into out (row-major):
 *   dof 1 (Laplace):     vol gi.gj
 *   dof 3 (elasticity):  vol (lambda gi[a] gj[b] + mu gi[b] gj[a] + mu delta_ab gi.gj)
 * (the bilinear form of lambda div u div v + 2 mu eps(u):eps(v) on u = l_j e_b, v = l_i e_a). */
static void add_block(int dof, double lambda, double mu, double vol, const double *gi, const double *gj, double *out) {
  const double dot = gi[0] * gj[0] + gi[1] * gj[1] + gi[2] * gj[2];
  if (dof == 1) {
    out[0] += vol * dot;
    return;
  }
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) out[3 * a + b] += vol * (lambda * gi[a] * gj[b] + mu * gi[b] * gj[a] + (a == b ? mu * dot : 0.0));
}

/* The node graph (fill-complete, pattern only) of mesh m: every (node, node) pair of every tet,
 * through strata_crs_create_from_coo on exec e. */
static int node_graph(strata_exec_t *e, const fem_mesh_t *m, strata_crs_matrix_t **G, char *err, size_t err_len) {
  const int64_t nt = m->num_tets, nc = 16 * nt;
  int32_t *rows = NULL, *cols = NULL;
  int rc = -1;
  if (strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)nc * sizeof(int32_t), (void **)&rows) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)nc * sizeof(int32_t), (void **)&cols)) {
    snprintf(err, err_len, "graph of %lld tetrahedra: %s", (long long)nt, strata_error_message());
    goto done;
  }
#pragma omp parallel for schedule(static)
  for (int64_t k = 0; k < nc; ++k) {
    rows[k] = m->tets[4 * (k >> 4) + ((k >> 2) & 3)];
    cols[k] = m->tets[4 * (k >> 4) + (k & 3)];
  }
  if (strata_crs_create_from_coo(e, (int32_t)m->num_nodes, (int32_t)m->num_nodes, nc, rows, cols, NULL, G))
    snprintf(err, err_len, "graph: %s", strata_error_message());
  else
    rc = 0;
done:
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&rows);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&cols);
  return rc;
}

/* The assembled matrix of mesh m with dof unknowns per node (node-major: unknown d*i + a is
 * component a of node i; each node pair gives a dof x dof block). Dirichlet as in the job
 * (fem_dirichlet): a boundary node's rows are identity rows, its columns in the other rows are
 * zero; the zeros stay stored, so the pattern is the full graph's. */
int bench_fem_assemble(strata_exec_t *e, const fem_mesh_t *m, int dof, strata_crs_matrix_t **A, char *err, size_t err_len) {
  const int64_t n = m->num_nodes, nt = m->num_tets, N = n * dof;
  const double lambda = FEM_GEN_E * FEM_GEN_NU / ((1 + FEM_GEN_NU) * (1 - 2 * FEM_GEN_NU)),
               mu = FEM_GEN_E / (2 * (1 + FEM_GEN_NU));
  strata_crs_matrix_t *G = NULL;
  int64_t *inc_off = NULL, *inc = NULL, *off = NULL;
  int32_t *col = NULL;
  double *val = NULL;
  int rc = -1;
  if (dof != 1 && dof != 3) {
    snprintf(err, err_len, "bench_fem_assemble: %d unknowns per node (1 or 3)", dof);
    return -1;
  }
  if (N > INT32_MAX) {
    snprintf(err, err_len, "%lld nodes x %d unknowns exceed %d rows", (long long)n, dof, INT32_MAX);
    return -1;
  }
  if (node_graph(e, m, &G, err, err_len)) return -1;
  const int64_t nnz = G->nnz * dof * dof;
  /* node -> (tet, local node) incidence, 4 tet + local per entry, in tet order */
  inc_off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  inc = (int64_t *)malloc((size_t)(4 * nt + 1) * sizeof(int64_t));
  if (!inc_off || !inc || strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(N + 1) * sizeof(int64_t), (void **)&off) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * sizeof(int32_t), (void **)&col) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * sizeof(double), (void **)&val)) {
    snprintf(err, err_len, "out of host memory for %lld rows and %lld entries", (long long)N, (long long)nnz);
    goto done;
  }
  for (int64_t k = 0; k < 4 * nt; ++k) ++inc_off[m->tets[k] + 1];
  for (int64_t i = 0; i < n; ++i) inc_off[i + 1] += inc_off[i];
  for (int64_t k = 0; k < 4 * nt; ++k) inc[inc_off[m->tets[k]]++] = k; /* inc_off[i] now ends row i */
  for (int64_t i = n; i > 0; --i) inc_off[i] = inc_off[i - 1];
  inc_off[0] = 0;
#pragma omp parallel for schedule(dynamic, 256)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t gb = G->row_offsets[i], glen = G->row_offsets[i + 1] - gb, base = dof * dof * gb;
    const int32_t *gc = G->col_indices + gb;
    /* row dof*i + a holds dof*glen entries: for each neighbour p, columns dof*gc[p] + b */
    for (int a = 0; a < dof; ++a) {
      const int64_t r = base + a * dof * glen;
      off[dof * i + a] = r;
      for (int64_t p = 0; p < glen; ++p)
        for (int b = 0; b < dof; ++b) {
          col[r + dof * p + b] = dof * gc[p] + b;
          val[r + dof * p + b] = 0.0;
        }
    }
    for (int64_t q = inc_off[i]; q < inc_off[i + 1] && !m->on_boundary[i]; ++q) {
      const int64_t t = inc[q] / 4;
      const int li = (int)(inc[q] % 4);
      double g[4][3];
      const double vol = tet_gradients(m, t, g);
      for (int lj = 0; lj < 4; ++lj) {
        const int32_t j = m->tets[4 * t + lj];
        if (m->on_boundary[j]) continue; /* Dirichlet column: zero */
        int64_t lo = 0, hi = glen - 1; /* j's place in row i of the graph */
        while (lo < hi) {
          const int64_t mid = (lo + hi) / 2;
          if (gc[mid] < j) lo = mid + 1;
          else hi = mid;
        }
        double blk[9] = {0};
        add_block(dof, lambda, mu, vol, g[li], g[lj], blk);
        for (int a = 0; a < dof; ++a)
          for (int b = 0; b < dof; ++b) val[off[dof * i + a] + dof * lo + b] += blk[dof * a + b];
      }
    }
  }
  { /* Dirichlet rows: diag[i] times identity rows, as the job's (fem_laplace_diagonal) */
    double *diag = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    if (!diag) {
      snprintf(err, err_len, "out of host memory for %lld doubles (the Dirichlet rows' diagonals)", (long long)n);
      goto done;
    }
    fem_laplace_diagonal(m, diag);
    for (int64_t i = 0; i < n; ++i)
      if (m->on_boundary[i])
        for (int a = 0; a < dof; ++a)
          for (int64_t k = off[dof * i + a]; k < off[dof * i + a] + dof * (G->row_offsets[i + 1] - G->row_offsets[i]); ++k)
            if (col[k] == dof * i + a) val[k] = diag[i];
    free(diag);
  }
  off[N] = nnz;
  if (strata_crs_create_from_csr(e, (int32_t)N, (int32_t)N, nnz, off, col, val, STRATA_CRS_ADOPT, A)) {
    snprintf(err, err_len, "%s", strata_error_message());
    goto done;
  }
  off = NULL, col = NULL, val = NULL; /* adopted */
  rc = 0;
done:
  strata_crs_destroy(&G);
  free(inc_off);
  free(inc);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&off);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&col);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&val);
  return rc;
}

int bench_gen_fem(strata_exec_t *serial, int dof, double h, strata_crs_matrix_t **A, char *name, size_t name_len,
                  char *err, size_t err_len) {
  const char *gen = dof == 1 ? "fem" : "elasticity";
  if (!BENCH_HAVE_GMSH) {
    snprintf(err, err_len, "gen:%s:%g needs Gmsh, and this build has none (libgmsh-dev not found at configure time, "
             "or STRATA_WITH_GMSH=OFF)", gen, h);
    return -1;
  }
  fem_mesh_t mesh;
  char msg[400];
  if (fem_mesh_generate(h, 0, &mesh, msg, sizeof msg)) {
    snprintf(err, err_len, "gen:%s:%g: %s", gen, h, msg);
    return -1;
  }
  snprintf(name, name_len, "%s_h%g_%lld", gen, h, (long long)(mesh.num_nodes * dof));
  const int rc = bench_fem_assemble(serial, &mesh, dof, A, err, err_len);
  fem_mesh_destroy(&mesh);
  return rc;
}

/* Row r of A against the expected row: columns cols[0..len) with values vals (NULL: all zero; in
 * a bulk row the diagonal diag instead), then (mesh rows) only bulk columns >= nmesh holding 0.
 * Returns max |a - s| / max |s| of the row, +inf for another pattern, NaN for a NaN. */
static double row_diff(const strata_crs_matrix_t *A, int32_t r, const int32_t *cols, const double *vals, int64_t len,
                       int32_t nmesh, double diag) {
  const int64_t b = A->row_offsets[r], e = A->row_offsets[r + 1];
  double smax = 0, dmax = 0;
  if (e - b < len) return INFINITY;
  for (int64_t k = b; k < e; ++k) {
    const int64_t p = k - b;
    const int32_t c = A->col_indices[k];
    double s = 0;
    if (p < len) {
      if (c != cols[p]) return INFINITY;
      s = vals ? vals[p] : c == r ? diag : 0.0;
    } else if (c < nmesh || (p > len && c <= A->col_indices[k - 1])) /* after S's: bulk columns, ascending */
      return INFINITY;
    const double a = A->values[k];
    if (isnan(a) || isnan(s)) return NAN;
    smax = fmax(smax, fabs(s));
    dmax = fmax(dmax, fabs(a - s));
  }
  return dmax == 0 ? 0 : smax > 0 ? dmax / smax : INFINITY;
}

int bench_fem_matrix_diff(const strata_crs_matrix_t *S, const strata_crs_matrix_t *A, int64_t bulk_ties, double *diff,
                          char *err, size_t err_len) {
  strata_crs_matrix_t *Ah = NULL;
  *diff = INFINITY;
  if (strata_crs_copy(S->exec, A, &Ah)) {
    snprintf(err, err_len, "the assembled matrix to the host: %s", strata_error_message());
    return -1;
  }
  const int32_t n = S->num_rows, nall = Ah->num_rows;
  if (Ah->num_cols != nall || nall < n) {
    strata_crs_destroy(&Ah);
    return 0; /* not the mesh's nodes and bulk nodes: another pattern */
  }
  double d = 0;
  for (int32_t r = 0; r < nall && !isnan(d) && !isinf(d); ++r) {
    double x;
    if (r < n) {
      const int64_t sb = S->row_offsets[r];
      x = row_diff(Ah, r, S->col_indices + sb, S->values + sb, S->row_offsets[r + 1] - sb, n, 0);
    } else { /* a bulk row: its ties (any columns of mesh nodes, ascending), then its diagonal */
      const int64_t b = Ah->row_offsets[r], e = Ah->row_offsets[r + 1];
      x = e - b >= 1 && Ah->col_indices[e - 1] == r ? 0 : INFINITY;
      for (int64_t k = b; k < e - 1 && x == 0; ++k)
        if (Ah->col_indices[k] >= n || (k > b && Ah->col_indices[k] <= Ah->col_indices[k - 1])) x = INFINITY;
      if (x == 0) x = row_diff(Ah, r, Ah->col_indices + b, NULL, e - b, n, (double)bulk_ties * FEM_SPRING_K);
    }
    d = isnan(x) ? NAN : fmax(d, x);
  }
  strata_crs_destroy(&Ah);
  *diff = d;
  return 0;
}
