/* strata sparse — what pack.c and unpack.c share (never installed): the column map's layout,
 * built in pack.c and read by unpack_combine (options.col_map). */
#ifndef STRATA_SPARSE_PACK_IMPL_H
#define STRATA_SPARSE_PACK_IMPL_H

#include "sparse_impl.h"

struct strata_col_map {
  strata_exec_t *exec;
  int64_t num_local, mask; /* capacity mask + 1 */
  int64_t *gids;           /* [num_local] */
  int64_t *keys;           /* [capacity], -1: empty */
  int32_t *vals;           /* [capacity] */
};

#endif
