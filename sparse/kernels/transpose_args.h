#ifndef STRATA_SPARSE_TRANSPOSE_ARGS_H
#define STRATA_SPARSE_TRANSPOSE_ARGS_H
#include <stdint.h>
/** For each row r of A: rows[k] = col_indices[k], cols[k] = r over its entries k. */
typedef struct strata_sparse_transpose_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int32_t *rows;
  int32_t *cols;
} strata_sparse_transpose_args_t;
#endif
