/* strata dist — the exchange kernels of import / export plans (strata/dist.h): pack, unpack in
 * the caller's order, and the export's combine into owned values (deterministic: each target's
 * contributions in receive order, a thread per target, no atomics). */
#include <strata/kl.h>

#include "dist_args.h"

STRATA_FOR_KERNEL(strata_dist_gather, strata_dist_gather_args_t, a, k) { a->out[k] = a->in[a->idx[k]]; }

STRATA_FOR_KERNEL(strata_dist_scatter, strata_dist_scatter_args_t, a, k) { a->out[a->idx[k]] = a->in[k]; }

STRATA_FOR_KERNEL(strata_dist_combine, strata_dist_combine_args_t, a, t) {
  const int32_t l = a->lids[t];
  double v = a->y[l];
  for (int64_t q = a->offsets[t]; q < a->offsets[t + 1]; ++q) {
    const double b = a->buf[a->pos[q]];
    if (a->mode == 0) v += b;
    else if (a->mode == 1) v = b;
    else { /* ABSMAX: a NaN on either side stays NaN */
      const double av = fabs(v), ab = fabs(b);
      v = (ab > av || ab != ab) ? ab : av;
    }
  }
  a->y[l] = v;
}
