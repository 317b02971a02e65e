/* strata fem — the main job (see fem.h). Host code orchestrates: the graph, the element matrices,
 * pack, unpack_combine and the Dirichlet rows run in kernels (fem_kernels.kl.c) or in the sparse
 * module; the solve is the solver module's (strata_krylov_solve with a preconditioner). The host also walks the mesh as read, before anything is uploaded: the
 * box mesh of --box, the checks that every node is used and every connected part has a node on
 * the boundary, the boundary count and the bulk nodes' ties; and --compare's matrix difference
 * reads both matrices back and compares them on the host (a check, not part of the timed phases). */
#include "fem.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/stat.h>

#include "fem_kernels.h"
#include "strata/solvers.h"
#if STRATA_HAVE_MPI
#include "fem_dist.h"
#endif

#if STRATA_HAVE_MPI
/* MPI_Bcast of `bytes` bytes from rank 0 in pieces below MPI's int count */
static void bcast_bytes(MPI_Comm comm, void *p, size_t bytes) {
  for (size_t off = 0; off < bytes;) {
    const size_t len = bytes - off < ((size_t)1 << 30) ? bytes - off : ((size_t)1 << 30);
    MPI_Bcast((char *)p + off, (int)len, MPI_BYTE, 0, comm);
    off += len;
  }
}

/* rank 0's mesh (and its status rc, message msg) to every rank of comm; returns the status every
 * rank shares (FEM_MESH_ERR_ALLOC where a rank could not hold the mesh) */
static int fem_mesh_bcast(MPI_Comm comm, int rc, fem_mesh_t *m, char *msg, size_t msg_size) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int64_t hdr[3] = {rc, m->num_nodes, m->num_tets};
  MPI_Bcast(hdr, 3, MPI_INT64_T, 0, comm);
  if (hdr[0] != 0) {
    bcast_bytes(comm, msg, msg_size);
    return (int)hdr[0];
  }
  if (rank != 0) {
    m->num_nodes = hdr[1];
    m->num_tets = hdr[2];
    m->xyz = (double *)malloc((size_t)hdr[1] * 3 * sizeof(double) + 1);
    m->tets = (int32_t *)malloc((size_t)hdr[2] * 4 * sizeof(int32_t) + 1);
    m->on_boundary = (uint8_t *)malloc((size_t)hdr[1] + 1);
  }
  int ok = m->xyz && m->tets && m->on_boundary, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) {
    snprintf(msg, msg_size, "%lld nodes and %lld tetrahedra from rank 0: out of memory on a rank", (long long)hdr[1],
             (long long)hdr[2]);
    return FEM_MESH_ERR_ALLOC;
  }
  bcast_bytes(comm, m->xyz, (size_t)hdr[1] * 3 * sizeof(double));
  bcast_bytes(comm, m->tets, (size_t)hdr[2] * 4 * sizeof(int32_t));
  bcast_bytes(comm, m->on_boundary, (size_t)hdr[1]);
  return 0;
}
#endif
#include "../cli_json.h"

STRATA_KERNEL_DECLARE(fem_graph_coo);
STRATA_KERNEL_DECLARE(fem_element_laplace);
STRATA_KERNEL_DECLARE(fem_dirichlet);
STRATA_KERNEL_DECLARE(fem_spring_coo);
STRATA_KERNEL_DECLARE(fem_spring_element);
STRATA_KERNEL_DECLARE(fem_u_exact);
STRATA_KERNEL_DECLARE(fem_axpby);
STRATA_KERNEL_DECLARE(fem_dot);
STRATA_KERNEL_DECLARE(fem_abs_max);
STRATA_KERNEL_DECLARE(fem_nonfinite);

const char *const fem_phase_names[FEM_NUM_PHASES] = {"mesh", "graph", "element", "pack",
                                                      "unpack_combine", "solve"};

fem_options_t fem_options_default(void) {
  fem_options_t o;
  memset(&o, 0, sizeof o);
  o.h = 0;
  o.backend = STRATA_BACKEND_DEFAULT;
  o.tol = 1e-10;
  o.max_iter = 5000;
  o.compare = 1;
  o.bulk_nodes = 0;
  o.bulk_fraction = 0.5;
  return o;
}

#define CHECK(call)                            \
  do {                                         \
    st = (call);                               \
    if (st != STRATA_SUCCESS) goto done;       \
  } while (0)

int fem_mesh_box(int n, fem_mesh_t *mesh, char *msg, size_t msg_len) {
  memset(mesh, 0, sizeof *mesh);
  if (n < 1 || n > 400) {
    snprintf(msg, msg_len, "box size %d outside 1..400", n);
    return FEM_MESH_ERR_INVALID_ARG;
  }
  const int64_t np = (int64_t)(n + 1) * (n + 1) * (n + 1), nt = 6 * (int64_t)n * n * n;
  mesh->num_nodes = np;
  mesh->num_tets = nt;
  mesh->xyz = (double *)malloc((size_t)np * 3 * sizeof(double));
  mesh->tets = (int32_t *)malloc((size_t)nt * 4 * sizeof(int32_t));
  mesh->on_boundary = (uint8_t *)malloc((size_t)np);
  if (!mesh->xyz || !mesh->tets || !mesh->on_boundary) {
    fem_mesh_destroy(mesh);
    snprintf(msg, msg_len, "box mesh: out of memory for %lld nodes and %lld tets", (long long)np, (long long)nt);
    return FEM_MESH_ERR_ALLOC;
  }
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        int64_t v = ((int64_t)k * (n + 1) + j) * (n + 1) + i;
        mesh->xyz[3 * v] = (double)i / n;
        mesh->xyz[3 * v + 1] = (double)j / n;
        mesh->xyz[3 * v + 2] = (double)k / n;
        mesh->on_boundary[v] = i == 0 || j == 0 || k == 0 || i == n || j == n || k == n;
      }
  /* Kuhn split: the 6 tets of a cube along its main diagonal, one per permutation of axes */
  static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  int64_t t = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (int p = 0; p < 6; ++p) {
          int c[3] = {i, j, k};
          int32_t ids[4];
          for (int s = 0; s < 4; ++s) {
            if (s > 0) c[perm[p][s - 1]] += 1;
            ids[s] = (int32_t)(((int64_t)c[2] * (n + 1) + c[1]) * (n + 1) + c[0]);
          }
          /* orientation: swap two nodes where the volume is negative */
          double J[3][3];
          for (int s = 0; s < 3; ++s)
            for (int dd = 0; dd < 3; ++dd) J[s][dd] = mesh->xyz[3 * ids[s + 1] + dd] - mesh->xyz[3 * ids[0] + dd];
          const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                             J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                             J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
          if (det < 0) {
            int32_t x = ids[2];
            ids[2] = ids[3];
            ids[3] = x;
          }
          memcpy(mesh->tets + 4 * t, ids, sizeof ids);
          ++t;
        }
  return FEM_MESH_OK;
}

strata_status_t fem_bulk_nodes_check(int64_t n, int64_t K) {
  if (n > (int64_t)INT32_MAX - K) /* n, K >= 0: no overflow */
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "bulk nodes: %lld mesh nodes + K = %lld bulk nodes = %lld nodes, above the 32-bit local "
                            "index limit %d", (long long)n, (long long)K, (long long)n + (long long)K, INT32_MAX);
  return STRATA_SUCCESS;
}

typedef struct dev_mesh {
  double *xyz;     /* [n + K][3] */
  int32_t *tets;
  uint8_t *bnd;    /* [n + K] */
  int32_t *sel;    /* [m] boundary nodes tied to every bulk node */
  int64_t K, m;    /* bulk nodes, ties of each */
} dev_mesh_t;

/* bulk nodes: K nodes appended after the mesh's, each tied to the same m = round(f x boundary
 * nodes) boundary nodes (at least one), spread evenly over their order: the c-th boundary node
 * is tied when (c m) mod nb < m, which holds for exactly m of them (f = 0.5: every other one) */
strata_status_t fem_bulk_nodes_add(fem_mesh_t *mesh, int64_t K, double f, int32_t **sel_out, int64_t *nsel_out) {
  *sel_out = NULL;
  *nsel_out = 0;
  if (K <= 0) return STRATA_SUCCESS;
  const int64_t n = mesh->num_nodes;
  int64_t nb = 0, nsel = 0;
  for (int64_t i = 0; i < n; ++i) nb += mesh->on_boundary[i];
  if (nb == 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA, "bulk nodes: K = %lld, and none of the mesh's %lld nodes is a boundary node to tie them to",
                            (long long)K, (long long)n);
  int64_t m = (int64_t)llround(f * (double)nb);
  if (m < 1) m = 1;
  if (m > nb) m = nb;
  strata_status_t st = fem_bulk_nodes_check(n, K); /* before the mesh's arrays grow */
  if (st != STRATA_SUCCESS) return st;
  int32_t *sel = (int32_t *)malloc(((size_t)nb + 1) * sizeof(int32_t));
  double *xyz2 = (double *)realloc(mesh->xyz, (size_t)(n + K) * 3 * sizeof(double));
  if (xyz2) mesh->xyz = xyz2;
  uint8_t *bnd2 = (uint8_t *)realloc(mesh->on_boundary, (size_t)(n + K));
  if (bnd2) mesh->on_boundary = bnd2;
  if (!sel || !xyz2 || !bnd2) {
    free(sel);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "bulk nodes: out of memory for %lld nodes (%lld mesh + %lld bulk)",
                            (long long)(n + K), (long long)n, (long long)K);
  }
  for (int64_t i = 0, c = 0; i < n; ++i)
    if (mesh->on_boundary[i] && (c++ * m) % nb < m) sel[nsel++] = (int32_t)i;
  for (int64_t q = 0; q < K; ++q) { /* near the cube's centre, finite and distinct */
    mesh->xyz[3 * (n + q)] = 0.5;
    mesh->xyz[3 * (n + q) + 1] = 0.5;
    mesh->xyz[3 * (n + q) + 2] = 0.25 + 0.5 * (double)(q + 1) / (double)(K + 1);
    mesh->on_boundary[n + q] = 0;
  }
  mesh->num_nodes = n + K;
  *sel_out = sel;
  *nsel_out = nsel;
  return STRATA_SUCCESS;
}

static void dev_mesh_free(strata_exec_t *e, dev_mesh_t *d) {
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->xyz);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->tets);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->bnd);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->sel);
}

static strata_status_t upload(strata_exec_t *e, void **dst, const void *src, size_t bytes) {
  strata_status_t st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, dst);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(e, *dst, src, bytes);
  return st;
}

strata_status_t fem_graph_build(strata_exec_t *e, int64_t n, int64_t nt, const int32_t *tets, int64_t K, int64_t m,
                                const int32_t *sel, strata_crs_matrix_t **G) {
  strata_status_t st = STRATA_SUCCESS;
  const int64_t ns = K * m;
  int32_t *rows = NULL, *cols = NULL;
  *G = NULL;
  if (n > INT32_MAX) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mesh has %lld nodes, above the 32-bit local index limit %d", (long long)n, INT32_MAX);
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(16 * nt + 4 * ns) * sizeof(int32_t), (void **)&rows));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(16 * nt + 4 * ns) * sizeof(int32_t), (void **)&cols));
  fem_graph_args_t ga = {tets, rows, cols};
  CHECK(strata_parallel_for(e, NULL, strata_range(0, 16 * nt), &fem_graph_coo, &ga));
  if (ns > 0) {
    fem_spring_args_t sa = {.sel = sel, .nmesh = n - K, .m = m, .K = K, .rows = rows + 16 * nt, .cols = cols + 16 * nt};
    CHECK(strata_parallel_for(e, NULL, strata_range(0, 4 * ns), &fem_spring_coo, &sa));
  }
  CHECK(strata_crs_create_from_coo(e, (int32_t)n, (int32_t)n, 16 * nt + 4 * ns, rows, cols, NULL, G));
  CHECK(strata_exec_fence(e));
done:
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&rows);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&cols);
  return st;
}

strata_status_t fem_dirichlet_apply(strata_exec_t *e, const fem_mesh_t *m, const uint8_t *bnd, strata_crs_matrix_t *A) {
  const int64_t n = m->num_nodes;
  double *ddiag = NULL;
  double *hd = (double *)malloc(((size_t)n + 1) * sizeof(double));
  if (!hd)
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem: %lld doubles for the Dirichlet rows' diagonals", (long long)n);
  fem_laplace_diagonal(m, hd);
  strata_status_t st = upload(e, (void **)&ddiag, hd, (size_t)n * sizeof(double));
  free(hd);
  if (st == STRATA_SUCCESS) {
    fem_dirichlet_args_t da = {A->row_offsets, A->col_indices, A->values, bnd, ddiag};
    st = strata_parallel_for(e, NULL, strata_range(0, n), &fem_dirichlet, &da);
  }
  strata_status_t fs = strata_exec_fence(e);
  if (st == STRATA_SUCCESS) st = fs;
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&ddiag);
  return st;
}

strata_status_t fem_element_rows(strata_exec_t *e, const double *xyz, const int32_t *tets, const int32_t *tets_host,
                                 int64_t nt, int64_t ncols, int64_t nmesh, int64_t K, int64_t m, const int32_t *sel,
                                 const int32_t *bulk, strata_crs_matrix_t *E, int32_t **import_rows) {
  strata_status_t st = STRATA_SUCCESS;
  const int64_t ns = K * m;
  int64_t *first_bad = NULL;
  memset(E, 0, sizeof *E);
  *import_rows = NULL;
  const int64_t erows = 4 * nt + (ns > 0 ? K : 0) + ns, enz = 16 * nt + 4 * ns;
  E->exec = e;
  E->num_rows = (int32_t)erows;
  E->num_cols = (int32_t)ncols;
  E->nnz = enz;
  if (erows > INT32_MAX) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%lld element rows exceed the 32-bit local index limit %d", (long long)erows, INT32_MAX);
    goto done;
  }
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(erows + 1) * sizeof(int64_t), (void **)&E->row_offsets));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)enz * sizeof(int32_t), (void **)&E->col_indices));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)enz * sizeof(double), (void **)&E->values));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)erows * sizeof(int32_t), (void **)import_rows));
  if (nt == 0 && ns == 0) {
    int64_t zero = 0;
    CHECK(strata_mem_copy(e, E->row_offsets, &zero, sizeof zero));
  }
  const int64_t none = INT64_MAX;
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(int64_t), (void **)&first_bad));
  CHECK(strata_mem_copy(e, first_bad, &none, sizeof none));
  fem_element_args_t ea = {xyz, tets, E->row_offsets, E->col_indices, E->values, *import_rows, nt, first_bad};
  CHECK(strata_parallel_for(e, NULL, strata_range(0, nt), &fem_element_laplace, &ea));
  { /* a tet so flat that its gradients overflow (its volume finite and positive: the loader's test
       passes) gives inf / NaN entries, which CG would meet only as a breakdown: refused here */
    int64_t bad = INT64_MAX;
    CHECK(strata_mem_copy(e, &bad, first_bad, sizeof bad));
    if (bad != INT64_MAX) {
      double v[16];
      CHECK(strata_mem_copy(e, v, E->values + 16 * bad, sizeof v));
      int j = 0;
      while (j < 15 && v[j] - v[j] == 0.0) ++j;
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "element %lld (nodes %d %d %d %d, 0-based): its stiffness matrix has a non-finite "
                            "entry (%g at %d, %d): the tetrahedron is degenerate (too flat for double precision)",
                            (long long)bad, (int)tets_host[4 * bad], (int)tets_host[4 * bad + 1],
                            (int)tets_host[4 * bad + 2], (int)tets_host[4 * bad + 3], v[j], j / 4, j % 4);
      goto done;
    }
  }
  if (ns > 0) {
    fem_spring_args_t sa = {.sel = sel, .bulk = bulk, .nmesh = nmesh, .m = m, .K = K, .k = FEM_SPRING_K,
                            .erow0 = 4 * nt, .base = 16 * nt, .row_offsets = E->row_offsets, .ecols = E->col_indices,
                            .evals = E->values, .import_rows = *import_rows};
    CHECK(strata_parallel_for(e, NULL, strata_range(0, ns), &fem_spring_element, &sa));
  }
  CHECK(strata_exec_fence(e));
done:
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&first_bad);
  return st;
}

void fem_element_rows_free(strata_exec_t *e, strata_crs_matrix_t *E, int32_t **import_rows) {
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&E->row_offsets);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&E->col_indices);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&E->values);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)import_rows);
}

/* Graph, element kernel, pack, unpack_combine(ADD), Dirichlet rows: the assembled matrix.
 * m->num_nodes includes the K bulk nodes (the last K); their springs (d->K x d->m) add 4 graph
 * entries each and their element rows are appended to E, so one pack and one unpack_combine
 * assemble tets and springs together. */
static strata_status_t assemble(strata_exec_t *e, const fem_mesh_t *m, const dev_mesh_t *d,
                                strata_crs_matrix_t **Aout, double *sec, int64_t *invalid) {
  strata_status_t st = STRATA_SUCCESS;
  const int64_t n = m->num_nodes, nt = m->num_tets;
  int32_t *import_rows = NULL;
  strata_crs_matrix_t *A = NULL;
  strata_crs_matrix_t E;
  memset(&E, 0, sizeof E);
  strata_packets_t *packets = NULL;
  strata_unpack_report_t rep;
  memset(&rep, 0, sizeof rep);
  double t0;

  /* graph: COO of every node pair of every element -> sort -> unique (on the device) */
  t0 = strata_timer_now();
  CHECK(fem_graph_build(e, n, nt, d->tets, d->K, d->m, d->sel, &A));
  sec[FEM_PHASE_GRAPH] += strata_timer_now() - t0;

  /* element kernel: E [(4 nt + K + K m) x n], row 4e+i = row i of the element matrix of tet e,
   * then the springs' rows (fem_spring_args_t) */
  t0 = strata_timer_now();
  CHECK(fem_element_rows(e, d->xyz, d->tets, m->tets, nt, n, n - d->K, d->K, d->m, d->sel, NULL, &E, &import_rows));
  sec[FEM_PHASE_ELEMENT] += strata_timer_now() - t0;

  /* pack the element rows, then unpack-and-combine them into A with ADD */
  t0 = strata_timer_now();
  CHECK(strata_sparse_pack(e, &E, E.num_rows, NULL, NULL, &packets));
  CHECK(strata_exec_fence(e));
  sec[FEM_PHASE_PACK] += strata_timer_now() - t0;
  t0 = strata_timer_now();
  st = strata_sparse_unpack_combine(e, A, import_rows, packets, NULL, n, STRATA_COMBINE_ADD, &rep);
  *invalid = rep.invalid_entries + rep.invalid_rows + rep.malformed_packets;
  if (st != STRATA_SUCCESS) goto done;
  CHECK(strata_exec_fence(e));
  sec[FEM_PHASE_UNPACK] += strata_timer_now() - t0;

  /* the Dirichlet rows' diagonals: each node's P1 Laplace diagonal from the geometry, on the host
   * (fem_laplace_diagonal), the same bits for every backend and for the bench */
  CHECK(fem_dirichlet_apply(e, m, d->bnd, A));
  *Aout = A;
  A = NULL;
done:
  fem_element_rows_free(e, &E, &import_rows);
  strata_packets_destroy(&packets);
  strata_crs_destroy(&A);
  return st;
}

static strata_status_t dot(strata_exec_t *e, int64_t n, const double *x, const double *w, double *r) {
  fem_vec_args_t v = {0, 0, x, w, NULL};
  return strata_parallel_reduce(e, NULL, strata_range(0, n), &fem_dot, &v, STRATA_REDUCE_SUM, r);
}
static strata_status_t axpby(strata_exec_t *e, int64_t n, double a, const double *x, double b, double *y) {
  fem_vec_args_t v = {a, b, x, NULL, y};
  return strata_parallel_for(e, NULL, strata_range(0, n), &fem_axpby, &v);
}

/* The root of node a's part in the union-find forest up (path halving on the way) */
static int32_t part_root(int32_t *up, int32_t a) {
  while (up[a] != a) {
    up[a] = up[up[a]];
    a = up[a];
  }
  return a;
}

/* ||b - A u|| / ||b|| (bb = b.b; plain ||b - A u|| when bb is 0), the residual left in w: fem_run's
 * report, recomputed from u after the solve (strata_crs_spmv and the dot kernel are deterministic). */
static strata_status_t true_residual(strata_exec_t *e, const strata_crs_matrix_t *A, const double *b,
                                     const double *u, double bb, double *w, double *rel) {
  double rr = 0;
  strata_status_t st = axpby(e, A->num_rows, 1.0, b, 0.0, w);
  if (st == STRATA_SUCCESS) st = strata_crs_spmv(e, -1.0, A, u, 1.0, w);
  if (st == STRATA_SUCCESS) st = dot(e, A->num_rows, w, w, &rr);
  *rel = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
  return st;
}

void fem_laplace_diagonal(const fem_mesh_t *m, double *d) {
  /* the P1 Laplace element diagonal of tet node i is vol |grad phi_i|^2 = a_i^2 / (6 |det|), a_i
   * = |(p_j - p_k) x (p_l - p_k)| over the face opposite i (twice its area), det = 6 vol: summed
   * per node in tet order */
  for (int64_t k = 0; k < m->num_nodes; ++k) d[k] = 0.0;
  for (int64_t t = 0; t < m->num_tets; ++t) {
    const int32_t *v = m->tets + 4 * t;
    /* q_c = (p_c - p_0) / h, h the tet's largest coordinate difference: the products below stay
     * in range at any mesh scale (a mesh scaled by 1e-100 underflowed a^2), and a_i^2 / (6 |det|)
     * scales as h */
    double q[4][3], h = 0;
    for (int c = 0; c < 4; ++c)
      for (int e = 0; e < 3; ++e) {
        q[c][e] = m->xyz[3 * (int64_t)v[c] + e] - m->xyz[3 * (int64_t)v[0] + e];
        h = fmax(h, fabs(q[c][e]));
      }
    if (!(h > 0 && h <= DBL_MAX)) continue;
    for (int c = 0; c < 4; ++c)
      for (int e = 0; e < 3; ++e) q[c][e] /= h;
    const double det = fabs(q[1][0] * (q[2][1] * q[3][2] - q[2][2] * q[3][1]) -
                            q[1][1] * (q[2][0] * q[3][2] - q[2][2] * q[3][0]) +
                            q[1][2] * (q[2][0] * q[3][1] - q[2][1] * q[3][0]));
    for (int i = 0; i < 4; ++i) {
      const double *a = q[(i + 1) % 4], *b = q[(i + 2) % 4], *c = q[(i + 3) % 4];
      double e1[3], e2[3];
      for (int e = 0; e < 3; ++e) e1[e] = b[e] - a[e], e2[e] = c[e] - a[e];
      const double x = e1[1] * e2[2] - e1[2] * e2[1], y = e1[2] * e2[0] - e1[0] * e2[2], z = e1[0] * e2[1] - e1[1] * e2[0];
      d[v[i]] += h * ((x * x + y * y + z * z) / (6.0 * det));
    }
  }
  for (int64_t k = 0; k < m->num_nodes; ++k) /* the bulk nodes (in no tet; not Dirichlet nodes) */
    if (!(d[k] > 0 && d[k] <= DBL_MAX)) d[k] = 1.0;
}

/* 1, and *log2 moved by a power of two, when max |v| (vmax) is positive and outside [2^-64,
 * 2^64]: then max |v| times the new factor lies in [1, 2). The factor is kept as its exponent:
 * two rescales of a mesh scaled by 1e81 need 2^-1077, below the smallest double (a review: the
 * factor underflowed to 0, u_exact and b became 0, and the job reported "converged"). */
int fem_pow2_rescale(double vmax, int *log2) {
  if (!(vmax > 0) || (vmax >= 0x1p-64 && vmax <= 0x1p64)) return 0;
  int ex = 0;
  (void)frexp(vmax, &ex);
  *log2 += 1 - ex;
  return 1;
}

/* v times 2^k (exact unless the result leaves the normal range), in steps of at most 2^1000 so
 * that no factor overflows */
static strata_status_t scale_pow2(strata_exec_t *e, int64_t n, double *v, int k) {
  while (k != 0) {
    const int step = k > 1000 ? 1000 : k < -1000 ? -1000 : k;
    strata_status_t st = axpby(e, n, ldexp(1.0, step), v, 0.0, v);
    if (st != STRATA_SUCCESS) return st;
    k -= step;
  }
  return STRATA_SUCCESS;
}

/* ||u - ue|| / ||ue|| (the plain ||u - ue|| when ue is 0); w: n doubles of workspace. Both vectors
 * are first scaled by the power of two that brings max |ue| into [0.5, 1): u_exact is rescaled so
 * that b = A u_exact is near 1, and on strongly stretched meshes (A's entries 10^100 and more)
 * its entries are so small that their squares underflow to 0, which made a wrong solution's
 * error read 0. */
static strata_status_t relative_error(strata_exec_t *e, int64_t n, const double *u, const double *ue, double *w,
                                      double *error) {
  double umax = 0, ee = 0, uu = 0;
  fem_vec_args_t vm = {0, 0, ue, NULL, NULL};
  strata_status_t st = strata_parallel_reduce(e, NULL, strata_range(0, n), &fem_abs_max, &vm, STRATA_REDUCE_MAX, &umax);
  int k = 0;
  if (st == STRATA_SUCCESS && umax > 0) (void)frexp(umax, &k);
  if (st == STRATA_SUCCESS) st = axpby(e, n, 1.0, u, 0.0, w);
  if (st == STRATA_SUCCESS) st = axpby(e, n, -1.0, ue, 1.0, w);
  if (st == STRATA_SUCCESS) st = scale_pow2(e, n, w, -k);
  if (st == STRATA_SUCCESS) st = dot(e, n, w, w, &ee);
  if (st == STRATA_SUCCESS) st = axpby(e, n, 1.0, ue, 0.0, w);
  if (st == STRATA_SUCCESS) st = scale_pow2(e, n, w, -k);
  if (st == STRATA_SUCCESS) st = dot(e, n, w, w, &uu);
  if (st != STRATA_SUCCESS) return st;
  if (umax > 0 && !(uu > 0))
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "relative error: ||u_exact|| is 0 after scaling max |u_exact| = %g to [0.5, 1)", umax);
  *error = umax > 0 ? sqrt(ee / uu) : sqrt(ee);
  return STRATA_SUCCESS;
}

/* u_exact and b = A u_exact (b NULL: not checked) finite, else INVALID_DATA naming how many
 * entries are not and the mesh's bounding box (u_exact or the element matrices overflow there) */
static strata_status_t rhs_check(strata_exec_t *e, const fem_mesh_t *mesh, int64_t n, const double *ue,
                                 const double *b) {
  const int64_t nall = mesh->num_nodes;
  int64_t bad[2] = {0, 0};
  const double *v[2] = {ue, b};
  for (int q = 0; q < 2 && v[q]; ++q) {
    fem_vec_args_t a = {0, 0, v[q], NULL, NULL};
    strata_status_t st = strata_parallel_reduce(e, NULL, strata_range(0, nall), &fem_nonfinite, &a, STRATA_REDUCE_SUM,
                                                &bad[q]);
    if (st != STRATA_SUCCESS) return st;
  }
  if (!bad[0] && !bad[1]) return STRATA_SUCCESS;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int64_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      lo[c] = fmin(lo[c], mesh->xyz[3 * i + c]);
      hi[c] = fmax(hi[c], mesh->xyz[3 * i + c]);
    }
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "the manufactured problem is not finite on this mesh: %lld of %lld entries of u_exact = "
                          "sin(pi x) cos(pi y / 2) exp(z / 2) + x y z and %lld of b = A u_exact are inf or NaN "
                          "(mesh nodes in [%g, %g] x [%g, %g] x [%g, %g]; the job is meant for the unit cube)",
                          (long long)bad[0], (long long)nall, (long long)bad[1], lo[0], hi[0], lo[1], hi[1], lo[2],
                          hi[2]);
}

/* The method's name for fem_options_t.solver: its strata_krylov_method_t, or -1 */
int fem_solver_from_name(const char *name) {
  static const char *const names[] = {"cg", "bicgstab", "gmres", "fgmres"};
  for (int k = 0; k < 4; ++k)
    if (name && !strcmp(name, names[k])) return k;
  return -1;
}

strata_status_t fem_krylov_run(strata_exec_t *e, strata_operator_t *op, strata_precond_t *P, const char *pname,
                               const double *b, double *u, const fem_options_t *o, fem_result_t *res) {
  strata_krylov_result_t kr;
  memset(&kr, 0, sizeof kr);
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = (strata_krylov_method_t)fem_solver_from_name(o->solver ? o->solver : "cg");
  ko.tol = o->tol;
  ko.max_iter = o->max_iter;
  if (o->restart > 0) ko.restart = o->restart;
  strata_status_t st = strata_krylov_solve(e, op, P, b, u, &ko, &kr);
  res->iterations = kr.iterations;
  res->converged = kr.status == STRATA_SOLVE_CONVERGED;
  res->stalled = kr.status == STRATA_SOLVE_STAGNATION;
  if (st == STRATA_ERR_NOT_CONVERGED && (kr.status == STRATA_SOLVE_STAGNATION || kr.status == STRATA_SOLVE_MAX_ITER))
    st = STRATA_SUCCESS; /* reported in res (exit 3 from the tool), not as an error */
  strata_krylov_result_free(&kr);
  char up[16];
  size_t k = 0;
  for (const char *c = o->solver ? o->solver : "cg"; *c && k + 1 < sizeof up; ++c) up[k++] = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
  up[k] = '\0';
  snprintf(res->solver, sizeof res->solver, "%s (%s)", up, P ? (strcmp(pname, "jacobi") ? strata_precond_name(P) : "Jacobi") : "none");
  return st;
}

/* A u = b from u = 0 by strata_krylov_solve with o's method and preconditioner (tol, max_iter).
 * converged: the true residual reached tol; stalled: STAGNATION (the estimate reached tol, the
 * true residual stopped decreasing); an iteration limit: neither; a breakdown or a non-finite
 * iterate: NOT_CONVERGED with the solver's message. */
static strata_status_t krylov(strata_exec_t *e, const strata_crs_matrix_t *A, const double *b, double *u,
                              const fem_options_t *o, fem_result_t *res) {
  strata_status_t st = STRATA_SUCCESS;
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  const int method = fem_solver_from_name(o->solver ? o->solver : "cg");
  const char *pname = o->precond ? o->precond : "jacobi";
  if (method < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "solver '%s': one of cg, bicgstab, gmres, fgmres", o->solver);
  CHECK(strata_precond_create_from_name(e, pname, &P));
  CHECK(strata_operator_create_crs(e, A, NULL, &op));
  if (P) CHECK(strata_precond_setup(e, P, op));
  st = fem_krylov_run(e, op, P, pname, b, u, o, res);
done:
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  return st;
}

/* DIR/A.mtx, DIR/b.mtx, DIR/u.mtx (fem_options_t.save_system); DIR created when missing */
static strata_status_t save_system(strata_exec_t *e, const char *dir, const strata_crs_matrix_t *A, const double *b,
                                   const double *u) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return strata_error_set(STRATA_ERR_IO, "--save-system %s: cannot create the folder: %s", dir, strerror(errno));
  const size_t len = strlen(dir) + 8;
  char *path = (char *)malloc(len);
  const int32_t n = A->num_rows;
  double *h = (double *)malloc(((size_t)n + 1) * sizeof(double));
  strata_status_t st = STRATA_SUCCESS;
  if (!path || !h) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "--save-system: %lld bytes", (long long)n * 8);
  if (!st) snprintf(path, len, "%s/A.mtx", dir), st = strata_mm_write_crs(path, A);
  for (int v = 0; v < 2 && !st; ++v) {
    if (n) st = strata_mem_copy(e, h, v ? u : b, (size_t)n * sizeof(double));
    if (!st) snprintf(path, len, "%s/%s.mtx", dir, v ? "u" : "b"), st = strata_mm_write_vector(path, n, h);
  }
  free(path);
  free(h);
  return st;
}

/* max over rows i of max_j |a_ij - s_ij| / max_j |s_ij|, matrices with the same pattern (host) */
static strata_status_t compare_matrices(strata_exec_t *host, const strata_crs_matrix_t *A,
                                        const strata_crs_matrix_t *S, double *diff) {
  strata_crs_matrix_t *Ah = NULL;
  strata_status_t st = strata_crs_copy(host, A, &Ah);
  if (st != STRATA_SUCCESS) return st;
  if (Ah->nnz != S->nnz || Ah->num_rows != S->num_rows ||
      memcmp(Ah->row_offsets, S->row_offsets, (size_t)(S->num_rows + 1) * sizeof(int64_t)) != 0 ||
      (S->nnz && memcmp(Ah->col_indices, S->col_indices, (size_t)S->nnz * sizeof(int32_t)) != 0)) {
    strata_crs_destroy(&Ah);
    *diff = INFINITY;
    return STRATA_SUCCESS; /* different patterns: reported as an infinite difference */
  }
  /* row-wise relative: entries that cancel to (nearly) zero are measured against their row's
   * largest entry, not against themselves */
  double d = 0;
  for (int32_t r = 0; r < S->num_rows && !isnan(d); ++r) {
    double smax = 0, dmax = 0;
    for (int64_t k = S->row_offsets[r]; k < S->row_offsets[r + 1]; ++k) {
      const double a = Ah->values[k], s = S->values[k];
      if (isnan(a) || isnan(s)) { /* a NaN anywhere is reported, never hidden by fmax */
        dmax = NAN;
        break;
      }
      smax = fmax(smax, fabs(s));
      dmax = fmax(dmax, fabs(a - s));
    }
    if (isnan(dmax))
      d = NAN;
    else if (dmax > 0)
      d = fmax(d, smax > 0 ? dmax / smax : INFINITY);
  }
  strata_crs_destroy(&Ah);
  *diff = d;
  return STRATA_SUCCESS;
}

/* *diff = compare_matrices of A against the same assembly on the serial backend (*S, on *ser) */
static strata_status_t compare_serial(const fem_mesh_t *mesh, dev_mesh_t *ds, const strata_crs_matrix_t *A,
                                      strata_exec_t **ser, strata_crs_matrix_t **S, double *diff) {
  strata_status_t st = strata_exec_default(STRATA_BACKEND_SERIAL, ser);
  double dummy[FEM_NUM_PHASES] = {0};
  int64_t inv = 0;
  ds->xyz = mesh->xyz; /* host memory serves the serial backend directly */
  ds->tets = mesh->tets;
  ds->bnd = mesh->on_boundary;
  if (st == STRATA_SUCCESS) st = assemble(*ser, mesh, ds, S, dummy, &inv);
  if (st == STRATA_SUCCESS) st = compare_matrices(*ser, A, *S, diff);
  return st;
}

strata_status_t fem_run(const fem_options_t *o, fem_result_t *res) {
  strata_status_t st = STRATA_SUCCESS;
  strata_exec_t *e = NULL, *ser = NULL;
  fem_mesh_t mesh;
  memset(&mesh, 0, sizeof mesh);
  memset(res, 0, sizeof *res);
  res->ranks = 1;
  if (o->matrix_out) *o->matrix_out = NULL;
  res->matrix_diff = -1;
  res->mesh = o->mesh_path ? o->mesh_path : o->box > 0 ? "box" : "gmsh";
  dev_mesh_t d, ds;
  memset(&d, 0, sizeof d);
  memset(&ds, 0, sizeof ds);
  strata_crs_matrix_t *A = NULL, *S = NULL;
  double *u = NULL, *ue = NULL, *b = NULL, *res_vec = NULL;
  char msg[512] = "";
  int32_t *host_sel = NULL;

  res->bulk_nodes = o->bulk_nodes;
  res->bulk_fraction = o->bulk_nodes > 0 ? o->bulk_fraction : 0; /* f applies to bulk nodes only */
  if (o->bulk_nodes < 0 || o->bulk_nodes > FEM_MAX_BULK_NODES) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "bulk nodes: K = %d outside [0, %d]", o->bulk_nodes,
                          FEM_MAX_BULK_NODES);
    goto done;
  }
  if (!(o->bulk_fraction > 0 && o->bulk_fraction <= 1)) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "bulk fraction: f = %g outside (0, 1]", o->bulk_fraction);
    goto done;
  }
  if (o->dist && o->save_system) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "--save-system %s: not with the distributed job (the system "
                          "stays distributed over the ranks); run on one rank to save it", o->save_system);
    goto done;
  }
  CHECK(strata_exec_default(o->backend, &e));
  snprintf(res->backend, sizeof res->backend, "%s", strata_backend_name(strata_exec_backend(e)));
  strata_device_info_t info;
  if (strata_exec_device_info(e, &info) == STRATA_SUCCESS)
    snprintf(res->device, sizeof res->device, "%s", info.name);

  /* mesh */
  double t0 = strata_timer_now();
  int mrc;
  if (o->mesh_path)
    mrc = fem_mesh_load(o->mesh_path, &mesh, msg, sizeof msg);
  else if (o->box > 0)
    mrc = fem_mesh_box(o->box, &mesh, msg, sizeof msg);
  else {
#if STRATA_HAVE_MPI
    /* under mpirun rank 0 meshes and the others receive its mesh: Gmsh does not mesh the same way
     * twice, and the distributed assembly needs the same mesh on every rank */
    int mrank = 0;
    if (o->dist) MPI_Comm_rank(o->dist->comm, &mrank);
    mrc = mrank == 0 ? fem_mesh_generate(o->h > 0 ? o->h : (strata_exec_is_host(e) ? 0.04 : 0.0147), o->verbose, &mesh, msg,
                                         sizeof msg)
                     : 0;
    if (o->dist) mrc = fem_mesh_bcast(o->dist->comm, mrc, &mesh, msg, sizeof msg);
#else
    mrc = fem_mesh_generate(o->h > 0 ? o->h : (strata_exec_is_host(e) ? 0.04 : 0.0147), o->verbose, &mesh, msg, sizeof msg);
#endif
  }
  if (mrc != 0) {
    st = strata_error_set(mrc == FEM_MESH_ERR_IO            ? STRATA_ERR_IO
                          : mrc == FEM_MESH_ERR_ALLOC       ? STRATA_ERR_OUT_OF_MEMORY
                          : mrc == FEM_MESH_ERR_UNSUPPORTED ? STRATA_ERR_UNSUPPORTED
                          : mrc == FEM_MESH_ERR_INVALID_ARG ? STRATA_ERR_INVALID_ARGUMENT
                                                            : STRATA_ERR_INVALID_DATA,
                          "mesh: %s", msg);
    goto done;
  }
  res->seconds[FEM_PHASE_MESH] = strata_timer_now() - t0;
  res->num_nodes = mesh.num_nodes;
  res->num_tets = mesh.num_tets;
  for (int64_t i = 0; i < mesh.num_nodes; ++i) res->num_boundary += mesh.on_boundary[i];
  const int64_t n = mesh.num_nodes;
  if (mesh.num_tets == 0) { /* an empty mesh defines no problem (and gives bulk nodes no rows) */
    st = strata_error_set(STRATA_ERR_INVALID_DATA, "mesh: %lld nodes and no tetrahedron: nothing to assemble",
                          (long long)n);
    goto done;
  }
  { /* a node in no element has an empty matrix row (no diagonal, Dirichlet or not): singular */
    uint8_t *used = (uint8_t *)calloc((size_t)n + 1, 1);
    if (!used) {
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mesh: %lld bytes for the node check", (long long)n);
      goto done;
    }
    for (int64_t k = 0; k < 4 * mesh.num_tets; ++k) used[mesh.tets[k]] = 1;
    int64_t first = -1, count = 0;
    for (int64_t i = 0; i < n; ++i)
      if (!used[i]) {
        if (first < 0) first = i;
        ++count;
      }
    free(used);
    if (count) {
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "mesh: %lld node(s) belong to no tetrahedron (first: node %lld, %s); their matrix "
                            "rows would be empty", (long long)count, (long long)first,
                            mesh.on_boundary[first] ? "a Dirichlet node" : "an interior node");
      goto done;
    }
  }
  if (res->num_boundary == 0) {
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "mesh: none of its %lld nodes lies on an outer face: without Dirichlet nodes the "
                          "Laplace problem is singular", (long long)n);
    goto done;
  }
  { /* every connected part needs a Dirichlet node, else the problem is singular on it (a review:
     * a loose tet of interior nodes gave exit 0 and an error of 8e-2): union-find over the tets */
    int32_t *up = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    uint8_t *fixed = (uint8_t *)calloc((size_t)n, 1);
    if (!up || !fixed) {
      free(up);
      free(fixed);
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mesh: %lld bytes for the part check", (long long)n * 5);
      goto done;
    }
    for (int64_t i = 0; i < n; ++i) up[i] = (int32_t)i;
    for (int64_t t = 0; t < mesh.num_tets; ++t)
      for (int c = 1; c < 4; ++c) {
        const int32_t a = part_root(up, mesh.tets[4 * t]), b = part_root(up, mesh.tets[4 * t + c]);
        if (a != b) up[a > b ? a : b] = a < b ? a : b; /* the smaller id is the root */
      }
    int64_t first = -1, count = 0;
    for (int64_t i = 0; i < n; ++i) {
      up[i] = part_root(up, (int32_t)i);
      if (mesh.on_boundary[i]) fixed[up[i]] = 1;
    }
    for (int64_t i = 0; i < n; ++i)
      if (!fixed[up[i]]) {
        if (first < 0) first = i;
        ++count;
      }
    free(up);
    free(fixed);
    if (count) {
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "mesh: %lld node(s) (first: node %lld) lie in parts with no Dirichlet node: the "
                            "Laplace problem is singular there", (long long)count, (long long)first);
      goto done;
    }
  }
  /* saved only once the checks have passed: a refused mesh writes nothing */
  if (o->save_mesh && fem_mesh_save(&mesh, o->save_mesh, msg, sizeof msg) != 0) {
    st = strata_error_set(STRATA_ERR_IO, "save mesh: %s", msg);
    goto done;
  }

  int32_t *sel = NULL;
  int64_t nsel = 0;
  const int64_t K = o->bulk_nodes;
  st = fem_bulk_nodes_add(&mesh, K, o->bulk_fraction, &sel, &nsel);
  host_sel = sel;
  if (st != STRATA_SUCCESS) goto done;
  res->bulk_ties = nsel;
  d.K = ds.K = K;
  d.m = ds.m = nsel;
  ds.sel = sel;
  if (nsel > 0) st = upload(e, (void **)&d.sel, sel, (size_t)nsel * sizeof(int32_t));
  host_sel = sel; /* the serial reference below reads the host copy; freed at the end */
  if (st != STRATA_SUCCESS) goto done;
  const int64_t nall = n + K;
  CHECK(upload(e, (void **)&d.xyz, mesh.xyz, (size_t)nall * 3 * sizeof(double)));
  CHECK(upload(e, (void **)&d.tets, mesh.tets, (size_t)mesh.num_tets * 4 * sizeof(int32_t)));
  CHECK(upload(e, (void **)&d.bnd, mesh.on_boundary, (size_t)nall));

#if STRATA_HAVE_MPI
  if (o->dist) { /* every rank assembles its part and solves its rows; rank 0 alone compares */
    fem_dist_system_t sys;
    st = fem_dist_assemble(o->dist, e, &mesh, d.tets, d.bnd, K, sel, d.sel, nsel,
                           o->compare || o->matrix_out ? &A : NULL, &sys, res);
    if (st == STRATA_SUCCESS) st = fem_dist_solve(o, e, &sys, res);
    fem_dist_system_free(&sys);
    CHECK(st);
    if (A && o->compare) CHECK(compare_serial(&mesh, &ds, A, &ser, &S, &res->matrix_diff));
    if (o->matrix_out) *o->matrix_out = A, A = NULL;
    goto done;
  } else
#endif
  {
    CHECK(assemble(e, &mesh, &d, &A, res->seconds, &res->unpack_invalid));
    res->nnz = A->nnz;
  }

  /* b = A u_exact, then solve A u = b */
  size_t vb = (size_t)nall * sizeof(double);
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&u));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&ue));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&b));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&res_vec));
  /* u_exact, then b = A u_exact; on a mesh far from the unit cube's scale (u_exact ~ its size
   * near x = 0, the entries too), u_exact times a power of two (exact), first so that max |u| and
   * then so that max |b| is in [1, 2): else CG's dot products under- or overflow */
  fem_node_args_t na = {d.xyz, n, 0, ue};
  fem_vec_args_t vm = {0, 0, ue, NULL, NULL};
  double vmax = 0;
  CHECK(strata_parallel_for(e, NULL, strata_range(0, nall), &fem_u_exact, &na));
  CHECK(rhs_check(e, &mesh, n, ue, NULL));
  CHECK(strata_parallel_reduce(e, NULL, strata_range(0, nall), &fem_abs_max, &vm, STRATA_REDUCE_MAX, &vmax));
  const double umax = vmax;
  if (fem_pow2_rescale(vmax, &na.scale_log2)) CHECK(strata_parallel_for(e, NULL, strata_range(0, nall), &fem_u_exact, &na));
  CHECK(strata_crs_spmv(e, 1.0, A, ue, 0.0, b));
  CHECK(rhs_check(e, &mesh, n, ue, b));
  vm.x = b;
  CHECK(strata_parallel_reduce(e, NULL, strata_range(0, nall), &fem_abs_max, &vm, STRATA_REDUCE_MAX, &vmax));
  if (fem_pow2_rescale(vmax, &na.scale_log2)) { /* then vmax again, for b as rescaled */
    CHECK(strata_parallel_for(e, NULL, strata_range(0, nall), &fem_u_exact, &na));
    CHECK(strata_crs_spmv(e, 1.0, A, ue, 0.0, b));
    CHECK(rhs_check(e, &mesh, n, ue, b));
    CHECK(strata_parallel_reduce(e, NULL, strata_range(0, nall), &fem_abs_max, &vm, STRATA_REDUCE_MAX, &vmax));
  }
  res->u_scale_log2 = na.scale_log2;
  if (umax > 0) { /* u_exact is not 0 (nor its Dirichlet values: A is nonsingular), so neither is b */
    if (!(vmax > 0)) {
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "b = A u_exact is 0 while max |u_exact| = %g (2^%d times the manufactured solution): "
                            "the mesh's scale is beyond double precision",
                            umax, na.scale_log2);
      goto done;
    }
  }
  t0 = strata_timer_now();
  CHECK(krylov(e, A, b, u, o, res));
  CHECK(strata_exec_fence(e));
  res->seconds[FEM_PHASE_SOLVE] = strata_timer_now() - t0;
  if (o->save_system) CHECK(save_system(e, o->save_system, A, b, u));

  /* true residual and error */
  double bb = 0, uu = 0;
  CHECK(dot(e, nall, b, b, &bb));
  CHECK(dot(e, nall, u, u, &uu));
  CHECK(true_residual(e, A, b, u, bb, res_vec, &res->residual));
  CHECK(relative_error(e, nall, u, ue, res_vec, &res->error));

  res->solution_norm = sqrt(uu);

  /* the same assembly on the serial backend, the reference */
  if (o->compare && strata_exec_backend(e) != STRATA_BACKEND_SERIAL) {
    CHECK(compare_serial(&mesh, &ds, A, &ser, &S, &res->matrix_diff));
  } else if (o->compare) {
    res->matrix_diff = 0; /* serial is its own reference */
  }
  if (o->matrix_out) *o->matrix_out = A, A = NULL;
done:
  if (st != STRATA_SUCCESS && e) strata_exec_fence(e);
  if (e) {
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&u);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&ue);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&b);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&res_vec);
    dev_mesh_free(e, &d);
  }
  strata_crs_destroy(&A);
  strata_crs_destroy(&S);
  fem_mesh_destroy(&mesh);
  free(host_sel);
  return st;
}

void fem_result_free(fem_result_t *res) {
  if (!res) return;
  free(res->per_rank);
  res->per_rank = NULL;
}

void fem_result_print(const fem_result_t *r, int json, FILE *out) {
  char diff_buf[32]; /* null: not compared, or NaN / infinite (JSON has no such numbers) */
  const char *diff_json = r->matrix_diff >= 0 ? cli_json_number(diff_buf, sizeof diff_buf, "%.6e", r->matrix_diff) : "null";
  char fraction_buf[32]; /* null without bulk nodes, as the text leaves out their line */
  const char *fraction_json = r->bulk_nodes > 0 ? cli_json_number(fraction_buf, sizeof fraction_buf, "%g", r->bulk_fraction) : "null";
  if (json) {
    fprintf(out,
            "{\"job\": \"fem\", \"backend\": \"%s\", \"device\": \"%s\", \"nodes\": %lld, \"tets\": %lld, "
            "\"dirichlet_nodes\": %lld, \"nnz\": %lld, \"solver\": \"%s\", \"iterations\": %d, \"converged\": %s, \"stalled\": %s, "
            "\"relative_residual\": %.6e, \"relative_error\": %.6e, \"solution_norm\": %.17g, \"u_exact_scale_log2\": %d, "
            "\"matrix_max_rel_diff_vs_serial\": %s, "
            "\"unpack_invalid_entries\": %lld, \"bulk_nodes\": %lld, \"bulk_fraction\": %s, \"bulk_ties\": %lld, "
            "\"bulk_springs\": %lld, \"mesh\": \"",
            r->backend, r->device, (long long)r->num_nodes, (long long)r->num_tets,
            (long long)r->num_boundary, (long long)r->nnz, r->solver, r->iterations, r->converged ? "true" : "false",
            r->stalled ? "true" : "false", r->residual, r->error, r->solution_norm, r->u_scale_log2, diff_json, (long long)r->unpack_invalid, (long long)r->bulk_nodes,
            fraction_json, (long long)r->bulk_ties, (long long)(r->bulk_nodes * r->bulk_ties));
    cli_json_fputs(out, r->mesh); /* whole, whatever its length */
    fprintf(out, "\", \"time_s\": {");
    for (int p = 0; p < FEM_NUM_PHASES; ++p)
      fprintf(out, "%s\"%s\": %.6f", p ? ", " : "", fem_phase_names[p], r->seconds[p]);
    fprintf(out, "}");
    if (r->per_rank) { /* the distributed assembly: rank 0's times above, every rank's here */
      fprintf(out, ", \"ranks\": %d, \"partitioner\": \"%s\", \"invalid_entries_all_ranks\": %lld, \"bytes_exchanged\": %lld, "
              "\"per_rank\": [", r->ranks, r->partitioner, (long long)r->dist_invalid, (long long)r->bytes_exchanged);
      for (int k = 0; k < r->ranks; ++k) {
        const struct fem_rank_stats *q = &r->per_rank[k];
        fprintf(out, "%s{\"rank\": %d, \"device\": %d, \"owned_nodes\": %lld, \"tets\": %lld, \"packets_sent\": %lld, \"bytes_sent\": %lld, "
                "\"bytes_received\": %lld, \"time_s\": {\"element\": %.6f, \"pack\": %.6f, \"exchange\": %.6f, "
                "\"unpack_combine\": %.6f}}", k ? ", " : "", k, q->device, (long long)q->owned_nodes, (long long)q->tets,
                (long long)q->packets_sent, (long long)q->bytes_sent, (long long)q->bytes_received, q->element, q->pack,
                q->exchange, q->unpack_combine);
      }
      fprintf(out, "]");
    }
    fprintf(out, "}\n");
    return;
  }
  fprintf(out, "strata fem — P1 Laplace, %s\n",
          strcmp(r->mesh, "gmsh") == 0  ? "unit cube with a cylindrical hole (Gmsh)"
          : strcmp(r->mesh, "box") == 0 ? "unit cube, structured tetrahedra"
                                        : r->mesh);
  fprintf(out, "  backend          %s (%s)\n", r->backend, r->device);
  fprintf(out, "  mesh             %lld nodes, %lld tetrahedra, %lld Dirichlet nodes\n",
          (long long)r->num_nodes, (long long)r->num_tets, (long long)r->num_boundary);
  if (r->bulk_nodes > 0)
    fprintf(out, "  bulk nodes       K = %lld, f = %g: each tied by springs to %lld boundary nodes\n",
            (long long)r->bulk_nodes, r->bulk_fraction, (long long)r->bulk_ties);
  fprintf(out, "  matrix           %lld nonzeros, assembled by unpack_combine(ADD), %lld invalid entries\n",
          (long long)r->nnz, (long long)r->unpack_invalid);
  fprintf(out, "  %-16s %d iterations, %s\n", r->solver, r->iterations,
          r->converged ? "converged"
          : r->stalled ? "NOT converged (the method's estimate reached --tol, the residual below did not)"
                       : "NOT converged");
  fprintf(out, "  final residual   %.3e  (||b - A u|| / ||b||)\n", r->residual);
  fprintf(out, "  error            %.3e  (||u - u_exact|| / ||u_exact||)\n", r->error);
  if (r->u_scale_log2 != 0)
    fprintf(out, "  u_exact scale    2^%d  (max |b| into [1, 2) for this mesh's size)\n", r->u_scale_log2);
  if (isnan(r->matrix_diff))
    fprintf(out, "  vs serial        NaN in the assembled matrix\n");
  else if (isinf(r->matrix_diff))
    fprintf(out, "  vs serial        the patterns differ\n");
  else if (r->matrix_diff >= 0)
    fprintf(out, "  vs serial        %.3e  (assembled matrix: largest difference relative to its row's largest entry)\n", r->matrix_diff);
  if (r->per_rank) {
    fprintf(out, "  ranks            %d (nodes partitioned by %s), %lld bytes exchanged, %lld invalid entries over all ranks\n",
            r->ranks, r->partitioner, (long long)r->bytes_exchanged, (long long)r->dist_invalid);
    for (int k = 0; k < r->ranks; ++k) {
      const struct fem_rank_stats *q = &r->per_rank[k];
      fprintf(out, "  rank %-3d         device %d, %lld nodes, %lld tets, sent %lld packets (%lld B), received %lld B; element %.3f pack %.3f "
              "exchange %.3f unpack_combine %.3f s\n", k, q->device, (long long)q->owned_nodes, (long long)q->tets,
              (long long)q->packets_sent, (long long)q->bytes_sent, (long long)q->bytes_received, q->element, q->pack,
              q->exchange, q->unpack_combine);
    }
  }
  fprintf(out, "  time [s]        ");
  for (int p = 0; p < FEM_NUM_PHASES; ++p) fprintf(out, " %s %.3f", fem_phase_names[p], r->seconds[p]);
  fprintf(out, "\n");
}
