/* strata fem — the distributed assembly (issue 29 item 5): built only with MPI (STRATA_HAVE_MPI). */
#ifndef STRATA_FEM_DIST_H
#define STRATA_FEM_DIST_H

#include <mpi.h>

#include "fem.h"
#include "strata/dist.h"

typedef struct fem_dist_options {
  MPI_Comm comm;
  strata_dist_partitioner_t partitioner; /* of the mesh's node graph (BLOCK, METIS, AUTO) */
  const int32_t *part;                   /* non-NULL, on rank 0: the rank of each node (mesh nodes,
                                            then the K bulk nodes), instead of the partitioner
                                            (tests: a rank owning no nodes) */
  int staging;                           /* strata_dist_packets_options_t.staging */
  int64_t *new_ids;                      /* non-NULL: receives [nodes] each node's id in the
                                            renumbering, on every rank (the bench's Tpetra peer) */
  int64_t *first_ids;                    /* non-NULL: receives [ranks + 1] each rank's first new id */
} fem_dist_options_t;

/* One rank's part of the mesh in a renumbering (fem_dist_assemble's step 2; the bench's Tpetra
 * peer): host arrays (malloc) and their copies in exec memory (the _d ones). */
typedef struct fem_dist_local {
  int64_t ntl, msl, ner; /* its tets, its ties per bulk node, its element rows */
  int32_t *tl, *sl, *bulk; /* [ntl][4] its tets, [msl] its ties, [K] the bulk nodes: new ids */
  int64_t *row_gids;     /* [ner] the new id of each element row's node (fem_element_rows' order) */
  double *xyz;           /* [nodes][3] the coordinates in the renumbering */
  double *xyz_d;
  int32_t *tl_d, *sl_d, *bulk_d;
} fem_dist_local_t;

/** The elements of rank `rank`: the tets whose first node it owns and the springs whose boundary
 *  node it owns (owner [nodes]: the rank of each new id; new_ids [nodes]: the renumbering of m's
 *  nodes, the K bulk nodes last; sel [nsel] their ties in m's numbering), renumbered, with their
 *  copies in exec memory. Not collective. Errors: OUT_OF_MEMORY, INVALID_ARGUMENT (more than
 *  INT32_MAX element rows), those of the copies; L is filled as far as it got (free it). */
strata_status_t fem_dist_local_create(strata_exec_t *e, const fem_mesh_t *m, int64_t K, const int32_t *sel, int64_t nsel,
                                      const int64_t *new_ids, const int32_t *owner, int rank, fem_dist_local_t *L);
/** fem_element_rows of L's elements (n nodes in all, the first nmesh the mesh's, K bulk): E's
 *  rows in L->row_gids' order, columns new ids. Free with fem_element_rows_free. */
strata_status_t fem_dist_local_elements(strata_exec_t *e, const fem_dist_local_t *L, int64_t n, int64_t nmesh, int64_t K,
                                        strata_crs_matrix_t *E, int32_t **import_rows);
/** Frees L's arrays and zeroes it; safe on a zeroed L. */
void fem_dist_local_free(strata_exec_t *e, fem_dist_local_t *L);

/** What the distributed assembly leaves for the solve (fem_dist_system_free releases it). */
typedef struct fem_dist_system {
  strata_dist_map_t *map; /* the contiguous map of the renumbered nodes */
  strata_dist_crs_t *A;   /* the owned rows, Dirichlet rows applied, columns in the new numbering */
  void *xyz_own;          /* [nown][3] exec memory: the owned nodes' coordinates */
  int64_t first;          /* this rank's first node in the new numbering */
  int32_t nown;           /* owned nodes (rows) */
  int32_t nown_mesh;      /* of them mesh nodes: the first nown_mesh (the bulk nodes come last) */
  strata_exec_t *exec;
} fem_dist_system_t;

/** The distributed assembly of fem_run's matrix, collective over o->comm (every rank holds the
 *  whole mesh m, bulk nodes appended, and the same sel [nsel] ties of each of the K bulk nodes;
 *  tets_dev, sel_dev, bnd_dev: their copies in exec memory).
 *  1. The node graph (fem_graph_build) is partitioned on rank 0 (strata_dist_partition_crs) or
 *     o->part is taken, and the nodes renumbered so that each rank owns a contiguous range.
 *  2. Each rank assembles its elements only: a tet belongs to the owner of its first node
 *     (tets[4e]), a spring to the owner of its boundary node (so that the owner of the bulk nodes
 *     receives their nearly dense rows from every rank): every element once over all ranks.
 *  3. Its element rows go to their nodes' owners (strata_dist_export_rows): once with INSERT into
 *     an empty matrix (the graph: the owner's pattern is the union of what it receives); then, on
 *     that pattern, values zeroed, a row export is made (strata_dist_row_export_create, counted in
 *     the graph phase) and applied with ADD — the timed pass (element; pack: the shared rows'
 *     values gathered and sent; exchange: the wait; unpack_combine: the owners' combine).
 *  4. The Dirichlet rows are applied to the owned rows (fem_dirichlet's rule, fem_laplace_diagonal's
 *     values: the single-rank job's bits) and sys->A made of them (strata_dist_crs_create_from_entries,
 *     every entry on its owner): sys (every rank) is what fem_dist_solve needs.
 *  5. Only when A is not NULL (the checks: --compare, fem_options_t.matrix_out): the owned rows
 *     are gathered to rank 0 in the mesh's numbering: *A on rank 0, NULL elsewhere.
 *  res: ranks, partitioner, seconds[GRAPH] (partition + INSERT pass + the distributed matrix),
 *  [ELEMENT], [PACK], [UNPACK] (this rank's), nnz (global), dist_invalid, bytes_exchanged,
 *  entries_combined, per_rank (rank 0). Errors (agreed on every rank): INVALID_DATA (entries not combined: counted,
 *  the assembly stops; the mesh differing between ranks), those of the dist and sparse calls;
 *  sys is empty after an error. */
strata_status_t fem_dist_assemble(const fem_dist_options_t *o, strata_exec_t *e, const fem_mesh_t *m,
                                  const int32_t *tets_dev, const uint8_t *bnd_dev, int64_t K, const int32_t *sel,
                                  const int32_t *sel_dev, int64_t nsel, strata_crs_matrix_t **A, fem_dist_system_t *sys,
                                  fem_result_t *res);

/** The distributed solve of the assembled system, collective over sys's map: u_exact on the owned
 *  nodes (the manufactured solution of fem.c, rescaled by the same powers of two from the maxima
 *  over all ranks), b = A u_exact, then o's Krylov method (default CG) over
 *  strata_dist_operator_create (vector mode) with o's preconditioner over the ranks
 *  (strata_dist_precond_options_from_name: none, jacobi, l1-jacobi, bjacobi:P[:K],
 *  ras:P:OVERLAP[:K] with outer overlap 1; other names INVALID_ARGUMENT), from u = 0. res (every
 *  rank, the same values): iterations, converged, stalled, solver, residual (||b - A u|| / ||b||
 *  recomputed), error, solution_norm, u_scale_log2, seconds[SOLVE] (operator, preconditioner
 *  setup and the solve). Errors (agreed): INVALID_DATA (u_exact or b not finite; b 0), those of
 *  the dist and solver calls (NOT_CONVERGED for a breakdown or a non-finite iterate). */
strata_status_t fem_dist_solve(const fem_options_t *o, strata_exec_t *e, fem_dist_system_t *sys, fem_result_t *res);

/** Releases what fem_dist_assemble left in sys (collective: the matrix and the map). NULL-safe. */
void fem_dist_system_free(fem_dist_system_t *sys);

#endif
