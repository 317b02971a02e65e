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
} fem_dist_options_t;

/** The distributed assembly of fem_run's matrix, collective over o->comm (every rank holds the
 *  whole mesh m, bulk nodes appended, and the same sel [nsel] ties of each of the K bulk nodes;
 *  tets_dev, sel_dev, bnd_dev: their copies in exec memory).
 *  1. The node graph (fem_graph_build) is partitioned on rank 0 (strata_dist_partition_crs) or
 *     o->part is taken, and the nodes renumbered so that each rank owns a contiguous range.
 *  2. Each rank assembles its elements only: a tet belongs to the owner of its first node
 *     (tets[4e]), a spring to the owner of its boundary node (so that the owner of the bulk nodes
 *     receives their nearly dense rows from every rank): every element once over all ranks.
 *  3. Its element rows go to their nodes' owners (strata_dist_export_rows): once with INSERT into
 *     an empty matrix (the graph: the owner's pattern is the union of what it receives), then,
 *     values zeroed, with ADD — the timed pass (element, pack, exchange, unpack_combine).
 *  4. The owned rows are gathered to rank 0 in the mesh's numbering, the Dirichlet rows applied
 *     there (fem_dirichlet_apply): *A on rank 0, NULL elsewhere.
 *  res: ranks, partitioner, seconds[GRAPH] (partition + INSERT pass), [ELEMENT], [PACK],
 *  [UNPACK] (this rank's), nnz (global), dist_invalid, bytes_exchanged, per_rank (rank 0).
 *  Errors (agreed on every rank): INVALID_DATA (entries not combined: counted, the assembly
 *  stops; the mesh differing between ranks), those of the dist and sparse calls. */
strata_status_t fem_dist_assemble(const fem_dist_options_t *o, strata_exec_t *e, const fem_mesh_t *m,
                                  const int32_t *tets_dev, const uint8_t *bnd_dev, int64_t K, const int32_t *sel,
                                  const int32_t *sel_dev, int64_t nsel, strata_crs_matrix_t **A, fem_result_t *res);

#endif
