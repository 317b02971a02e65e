/* strata fem — the main job: assemble a P1 Laplace matrix with strata_sparse_unpack_combine and
 * solve it with the solver module (strata_krylov_solve; Jacobi-preconditioned CG by default). */
#ifndef STRATA_FEM_H
#define STRATA_FEM_H

#include <stdio.h>

#include "fem_mesh.h"
#include "strata/sparse.h"
#include "strata/solvers.h"

typedef struct fem_options {
  double h;              /* Gmsh element size (used when mesh_path is NULL) */
  const char *mesh_path; /* load a "strata mesh v1" file instead of meshing */
  const char *save_mesh; /* write the mesh used to this file */
  int box;               /* > 0: structured box mesh of box^3 cubes x 6 tets (tests; no Gmsh) */
  strata_backend_t backend;
  double tol;            /* relative residual ||r|| / ||b|| (Dirichlet rows keep their assembled
                            diagonal d, b = d u_exact there: every row on the mesh's scale) */
  int max_iter;
  int compare;           /* assemble on serial too and report the largest relative difference */
  int bulk_nodes;        /* K extra "bulk" nodes (issue 5 §4), 0..FEM_MAX_BULK_NODES. Their ties
                            are boundary (Dirichlet) nodes, so once the Dirichlet columns are
                            eliminated a bulk row keeps only its diagonal: the bulk rows load
                            pack, unpack_combine and SpMV through their pattern (the values
                            stay stored, zeros included), not CG's convergence: u_exact is 0 at
                            the bulk nodes, so b is 0 in their rows and ||b|| (CG's stopping
                            test) and the error are the mesh's alone */
  double bulk_fraction;  /* each bulk node is tied by springs to this fraction (0, 1] of the
                            boundary nodes: round(f x their number), at least one, spread evenly
                            in node order (fem_result_t.bulk_ties: how many) */
  int verbose;
  const char *solver;    /* the Krylov method of strata_krylov_solve: "cg" (NULL: the default),
                            "bicgstab", "gmres" or "fgmres" */
  const char *precond;   /* the preconditioner as strata_precond_create_from_name takes it (NULL:
                            "jacobi"); the default, CG with Jacobi, is the fastest verified choice */
  int restart;           /* GMRES / FGMRES basis size (0: 30) */
  const char *save_system; /* non-NULL: a folder (created if missing) receiving A.mtx, b.mtx and
                              u.mtx, the system solved and its solution (Matrix Market) */
  strata_crs_matrix_t **matrix_out; /* non-NULL: receives the assembled matrix (Dirichlet rows
                                       applied; on the job's backend; the caller destroys it), NULL
                                       when the job fails */
  const struct fem_dist_options *dist; /* non-NULL (builds with MPI, fem_dist.h): the assembly and
                                          the solve are distributed over the ranks of dist->comm,
                                          every rank calls fem_run and gets the same solve results
                                          (fem_dist_solve); the matrix is gathered to rank 0 only
                                          for compare and matrix_out (rank 0's; NULL elsewhere);
                                          save_system is refused (INVALID_ARGUMENT) */
} fem_options_t;

#define FEM_MAX_BULK_NODES 1000
#define FEM_SPRING_K 1.0 /* spring stiffness k: element matrix k [[1, -1], [-1, 1]] */

enum { FEM_PHASE_MESH, FEM_PHASE_GRAPH, FEM_PHASE_ELEMENT, FEM_PHASE_PACK, FEM_PHASE_UNPACK,
       FEM_PHASE_SOLVE, FEM_NUM_PHASES };
extern const char *const fem_phase_names[FEM_NUM_PHASES];

typedef struct fem_result {
  char backend[16];
  char device[256];
  const char *mesh;       /* "gmsh", "box" or the mesh file: opts->mesh_path itself, whole (not
                             copied: valid as long as the caller's string) */
  int64_t num_nodes, num_tets, num_boundary, nnz; /* num_nodes: the mesh's (bulk nodes not counted) */
  int64_t bulk_nodes;     /* K */
  double bulk_fraction;   /* f; 0 without bulk nodes (K = 0; JSON: null) */
  int64_t bulk_ties;      /* boundary nodes tied to each bulk node (springs = K x bulk_ties; the
                             JSON gives both: "bulk_ties" per bulk node, "bulk_springs" in all) */
  int iterations;
  int converged;          /* the recomputed residual ||b - A u|| / ||b|| reached tol */
  int stalled;            /* the method's estimate reached tol, the recomputed residual did not
                             and stopped decreasing (strata_krylov_solve's STAGNATION): tol is
                             below the attainable accuracy (the recurrence keeps shrinking while
                             ||b - A u|| stalls near machine precision times the condition) */
  char solver[64];        /* "CG (Jacobi)", "BICGSTAB (ilu(0))", ...: the method and preconditioner */
  double residual;        /* final ||b - A u|| / ||b|| (recomputed, not the recurrence) */
  int u_scale_log2;       /* u_exact's factor 2^u_scale_log2: 0, or what brings max |u| and
                             then max |b| into [1, 2) for a mesh where either is outside
                             [2^-64, 2^64] (JSON u_exact_scale_log2) */
  double error;           /* ||u - u_exact||_2 / ||u_exact||_2 */
  double solution_norm;   /* ||u||_2 (u_exact's scale, u_scale_log2, included) */
  double matrix_diff;     /* max_i max_j |a_ij - s_ij| / max_j |s_ij| against serial; -1 not compared,
                             NaN if either matrix holds a NaN, +inf if the patterns differ */
  int64_t unpack_invalid; /* invalid entries reported by unpack_combine (must be 0) */
  double seconds[FEM_NUM_PHASES];
  /* the distributed assembly (fem_options_t.dist; ranks = 1 and per_rank NULL without it) */
  int ranks;
  char partitioner[16];   /* "metis", "block", "given" */
  int64_t dist_invalid;   /* entries not combined, summed over the ranks (must be 0) */
  int64_t bytes_exchanged; /* payload bytes sent between ranks in the ADD pass, over all ranks */
  int64_t entries_combined; /* entries unpack_combine summed in the ADD pass, over all ranks */
  struct fem_rank_stats {
    int64_t owned_nodes, tets, packets_sent, bytes_sent, bytes_received;
    double element, pack, exchange, unpack_combine; /* seconds: the ADD pass's phases */
    int device;           /* the device ordinal of the rank's execution space (host backends 0) */
  } *per_rank;            /* [ranks] on rank 0 (malloc; fem_result_free) */
} fem_result_t;

/** Frees what fem_run allocated in res (per_rank). NULL-safe. */
void fem_result_free(fem_result_t *res);

fem_options_t fem_options_default(void);
/** Runs the whole job. Returns STRATA_SUCCESS or an error (message in strata_error_message()):
 *  INVALID_DATA for a mesh the loader refuses (fem_mesh.h) or whose element matrix has a
 *  non-finite entry (a tetrahedron too flat for double precision: the element and its nodes are
 *  named), INVALID_ARGUMENT for an unknown solver or preconditioner name, NOT_CONVERGED for a
 *  breakdown or a non-finite iterate (an iteration limit or a stagnation is reported in res:
 *  converged 0, stalled 1 for a stagnation), IO for --save-system, and the library's errors. */
strata_status_t fem_run(const fem_options_t *opts, fem_result_t *res);
/** Structured mesh of the unit cube: n^3 cubes, 6 tets each (Kuhn split), outer faces Dirichlet. */
int fem_mesh_box(int n, fem_mesh_t *mesh, char *msg, size_t msg_len);
/** u from 0 by strata_krylov_solve(op, P) with o's method, tol, max_iter and restart (b, u exec
 *  memory; pname: P's name as given, for res->solver): res->iterations, converged, stalled
 *  (STAGNATION) and solver ("CG (Jacobi)"). An iteration limit or a stagnation is no error
 *  (reported in res); a breakdown or a non-finite iterate returns NOT_CONVERGED. Shared by the
 *  single-rank and the distributed solve (the operator's comm hook makes it collective). */
strata_status_t fem_krylov_run(strata_exec_t *e, strata_operator_t *op, strata_precond_t *P, const char *pname,
                               const double *b, double *u, const fem_options_t *o, fem_result_t *res);
/** 1, and *log2 moved by a power of two, when vmax (a maximum magnitude) is positive and outside
 *  [2^-64, 2^64]: then vmax times the new factor lies in [1, 2); else 0 (u_exact's rescaling). */
int fem_pow2_rescale(double vmax, int *log2);
/** The bulk nodes' limit, checked by fem_run before anything is allocated for them: the n mesh
 *  nodes and the K bulk nodes appended after them (n, K >= 0) must have 32-bit local ids, n + K <=
 *  INT32_MAX. Returns STRATA_SUCCESS, or INVALID_ARGUMENT naming n, K, n + K and the limit. */
strata_status_t fem_bulk_nodes_check(int64_t n, int64_t K);
/** Appends K >= 0 bulk nodes to mesh (host memory, grown in place: num_nodes += K, the bulk
 *  nodes inside the cube, not boundary) and returns in *sel [*nsel] (malloc, the caller frees;
 *  NULL when K = 0) the boundary nodes each bulk node is tied to: round(f x boundary nodes), at
 *  least one, spread evenly in node order (fem_options_t.bulk_fraction f in (0, 1]). The job's
 *  and the bench's bulk nodes. Errors: fem_bulk_nodes_check's, INVALID_DATA (K > 0 and no
 *  boundary node), OUT_OF_MEMORY (the mesh unchanged then, but for its arrays' capacity). */
strata_status_t fem_bulk_nodes_add(fem_mesh_t *mesh, int64_t K, double f, int32_t **sel, int64_t *nsel);
void fem_result_print(const fem_result_t *r, int json, FILE *out);
/** The strata_krylov_method_t of a method's name (cg, bicgstab, gmres, fgmres), -1 for another. */
int fem_solver_from_name(const char *name);
/** d[0, num_nodes) = each node's diagonal of the P1 Laplace matrix (sum over its tets of vol
 *  |grad phi|^2), computed on the host from the geometry in tet order, each tet normalized by its
 *  size (any mesh scale); 1 for a node in no tet (the bulk nodes). The job's Dirichlet rows are
 *  d[r] times identity rows, and the bench's reference assembly uses the same values: the same
 *  bits for every backend, whatever order a device sums in. */
void fem_laplace_diagonal(const fem_mesh_t *m, double *d);

/* The job's pieces, shared with the distributed assembly (fem_dist.c). exec memory unless said. */
/** *G = the n x n pattern (zeros) of the nt tets [nt][4] and the K x m springs (bulk node q =
 *  n - K + q tied to each of sel [m]): the single-rank job's graph phase. */
strata_status_t fem_graph_build(strata_exec_t *e, int64_t n, int64_t nt, const int32_t *tets, int64_t K, int64_t m,
                                const int32_t *sel, strata_crs_matrix_t **G);
/** E = the element rows of the nt tets (4 each; columns = node ids < ncols) then, when K m > 0, of
 *  the springs (bulk node q = bulk[q], or nmesh + q when bulk is NULL, tied to each of sel [m]):
 *  K long rows and K m two-entry rows; import_rows [E rows] = each row's node. tets_host: the
 *  same tets on the host (names a degenerate one). Free with fem_element_rows_free. */
strata_status_t fem_element_rows(strata_exec_t *e, const double *xyz, const int32_t *tets, const int32_t *tets_host,
                                 int64_t nt, int64_t ncols, int64_t nmesh, int64_t K, int64_t m, const int32_t *sel,
                                 const int32_t *bulk, strata_crs_matrix_t *E, int32_t **import_rows);
void fem_element_rows_free(strata_exec_t *e, strata_crs_matrix_t *E, int32_t **import_rows);
/** The Dirichlet rows of A (the mesh's node numbering, all m->num_nodes rows): fem_dirichlet with
 *  fem_laplace_diagonal's diagonals; bnd [num_nodes] the boundary flags. Synchronous. */
strata_status_t fem_dirichlet_apply(strata_exec_t *e, const fem_mesh_t *m, const uint8_t *bnd, strata_crs_matrix_t *A);

#endif
