/* strata bench — the dist suite's Tpetra peer (perf/peer_tpetra/bench_tpetra_fem.cpp, compiled
 * into strata_bench when CMake finds Trilinos's Tpetra; Debian's libtrilinos-tpetra-dev): the
 * distributed FE assembly of the same mesh on the same ranks and partition as fem_dist_assemble,
 * by Tpetra::FECrsMatrix (beginAssembly, the local matrix's sumIntoValues, endAssembly = the export
 * of the shared rows to their owners with ADD). Built with MPI only (STRATA_HAVE_MPI). */
#ifndef STRATA_BENCH_TPETRA_H
#define STRATA_BENCH_TPETRA_H

#include <stdint.h>

#include "fem_mesh.h"
#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_tpetra_fem {
  /* in, the same on every rank (MPI_COMM_WORLD) */
  strata_exec_t *e;           /* where strata's element kernel computes the element matrices
                                 (a host backend: Tpetra reads them in place) */
  const fem_mesh_t *m;        /* the mesh, its K bulk nodes appended (host) */
  int64_t K;
  const int32_t *sel;         /* [nsel] the bulk nodes' ties, m's numbering */
  int64_t nsel;
  const int64_t *new_ids;     /* [m->num_nodes] fem_dist_assemble's renumbering (fem_dist_options_t.new_ids) */
  const int64_t *first_ids;   /* [ranks + 1] each rank's first new id: rank r owns [first_ids[r], first_ids[r+1]) */
  int min_samples;            /* at least this many timed assemblies */
  double min_time;            /* and until their slowest-rank times add up to this (seconds) */
  /* out: medians over the samples of the slowest rank's seconds (_min: the fastest rank's) */
  double element_s, fill_s, assemble_s, total_s; /* strata's element kernel; beginAssembly + zero +
                                                    the sums; endAssembly; their sum */
  double element_min_s, fill_min_s, assemble_min_s, total_min_s;
  double graph_s;             /* FECrsGraph built once (slowest rank), not in the samples */
  int samples;
  double *total_samples;      /* [samples] each sample's slowest-rank total (malloc'd; bench_tpetra_fem_free) */
  int64_t nnz;                /* of the owned matrix, over all ranks */
  /* rank 0: the owned rows of every rank after the last sample, in m's numbering (malloc'd;
     bench_tpetra_fem_free) */
  int64_t num_entries;
  int32_t *rows, *cols;
  double *vals;
  char msg[200];              /* the error, the same on every rank */
} bench_tpetra_fem_t;

/** 1 when the build has the peer. */
int bench_tpetra_available(void);

/** The peer's assembly, collective over MPI_COMM_WORLD (started by the caller; Tpetra and Kokkos
 *  are initialized on the first call and finalized at exit): the FECrsGraph of every rank's
 *  element rows (its tets and springs, fem_dist_local_create's), then min_samples or more
 *  assemblies, each started at an MPI_Barrier. Returns 0 on every rank, or -1 on every rank with
 *  t->msg (an exception of Tpetra's, strata's element kernel's error). */
int bench_tpetra_fem_run(bench_tpetra_fem_t *t);

/** Frees t's gathered arrays and total_samples. */
void bench_tpetra_fem_free(bench_tpetra_fem_t *t);

#ifdef __cplusplus
}
#endif

#endif
