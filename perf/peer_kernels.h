/* strata bench — arguments of the vendor peer's index kernels (peer_kernels.kl.c): the 64-bit
 * index arrays cuSPARSE / hipSPARSE get for a matrix of 2^31 entries or more, built on the device
 * from strata's CrsMatrix (int64 row offsets, int32 columns). All pointers exec memory. */
#ifndef STRATA_PEER_KERNELS_H
#define STRATA_PEER_KERNELS_H
#include <stdint.h>
typedef struct peer_index_args {
  const int32_t *in;      /* peer_widen: [n] 32-bit indices */
  const int64_t *offsets; /* peer_coo_rows: [rows + 1] row offsets */
  int64_t *out;           /* peer_widen: [n]; peer_coo_rows: [nnz] the row of each entry */
} peer_index_args_t;

/* the dense GEMV peer of the h2 suite (bench_peer_gemv.c): K[i·n + j] = exp(-‖x_i - x_j‖₂ · inv_length)
 * for e = i·n + j in [0, n²), pts [n·dim] row-major (the points in the user's order) */
typedef struct peer_kernel_matrix_args {
  int64_t n;
  int32_t dim;
  double inv_length;
  const double *pts;
  double *K;
} peer_kernel_matrix_args_t;
#endif
