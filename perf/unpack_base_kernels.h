/* strata bench — arguments of the unpack baselines (unpack_base_kernels.kl.c): Tpetra's
 * unpackAndCombine schemes, measured beside strata_sparse_unpack_combine (issue 5 "Performance").
 * All pointers exec memory. Packets in the strata_packets_t format; global column id = local id. */
#ifndef STRATA_UNPACK_BASE_KERNELS_H
#define STRATA_UNPACK_BASE_KERNELS_H
#include <stdint.h>

#define UNPACK_BASE_BATCH 16 /* entries per batch (Tpetra on CUDA: 16 entries, a team of 16) */

typedef struct unpack_base_args {
  const int64_t *row_offsets; /* the fill-complete target */
  const int32_t *col_indices;
  double *values;
  const int32_t *import_rows; /* [packets] */
  const int64_t *offsets;     /* [packets + 1] byte offsets into data */
  const unsigned char *data;
  const int64_t *batch_pkt;   /* batched: [batches] packet of batch q */
  const int64_t *batch_begin; /* batched: [batches] its first entry */
} unpack_base_args_t;

#endif
