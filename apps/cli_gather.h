/* strata — the layout of an MPI_Gatherv to one rank (the command-line tool and the FEM job under
 * mpirun; MPI builds only). */
#ifndef STRATA_CLI_GATHER_H
#define STRATA_CLI_GATHER_H

#include <mpi.h>

/* every rank's count gathered on root into counts [size], displs [size] their prefix sums
 * (root only; counts and displs may be NULL elsewhere). Collective. */
static inline void cli_gather_layout(MPI_Comm comm, int root, int count, int *counts, int *displs) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, root, comm);
  if (rank != root) return;
  displs[0] = 0;
  for (int r = 1; r < size; ++r) displs[r] = displs[r - 1] + counts[r - 1];
}

#endif
