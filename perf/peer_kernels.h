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
#endif
