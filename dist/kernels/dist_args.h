/* strata dist — argument structs of the exchange kernels (dist/kernels/dist.kl.c), shared with
 * dist/src/plan.c. Plain C, valid as C11 and C++17. Every pointer is exec memory. */
#ifndef STRATA_DIST_ARGS_H
#define STRATA_DIST_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** out[k] = in[idx[k]]: the import's pack (idx = the owned local ids each neighbour needs), and
 *  the export's pack in receive order (idx = the plan's permutation). */
typedef struct strata_dist_gather_args {
  const int32_t *idx;
  const double *in;
  double *out;
} strata_dist_gather_args_t;

/** out[idx[k]] = in[k]: the import's unpack into the caller's ghost order. */
typedef struct strata_dist_scatter_args {
  const int32_t *idx;
  const double *in;
  double *out;
} strata_dist_scatter_args_t;

/** The export's combine, a thread per target local id t: y[lids[t]] combined with
 *  buf[pos[q]] for q in [offsets[t], offsets[t + 1]) in that order. mode: 0 ADD, 1 REPLACE,
 *  2 ABSMAX (strata_combine_mode_t's values). */
typedef struct strata_dist_combine_args {
  const int32_t *lids;
  const int64_t *offsets;
  const int64_t *pos;
  const double *buf;
  double *y;
  int mode;
} strata_dist_combine_args_t;

#ifdef __cplusplus
}
#endif
#endif
