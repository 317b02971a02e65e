/* strata sparse — a team stages products vals[k]·x[cols[k]] for k in [k0, k1) into scratch
 * prod[k − k0], every participant (thread × lane) a strided share so that reads are coalesced;
 * eight entries per participant and step, loaded before any is used (predicated, no remainder
 * loop), so that each participant has eight independent loads of A and then of x in flight: GPUs
 * need that many bytes in flight to reach the memory bandwidth (perf/NOTES.md, "Moved from the
 * public headers", stage_products.h). The matrix entries are read with the streaming hint and x
 * with the cached one (strata/kl.h), so that the entries, read once, do not push x out of the L2.
 * pad: the padded layout below. Every participant must call it; follow it with a team barrier
 * before reading prod. Used by the stream level of the row-class plan (padded in
 * strata_spmv_stream_padded), the merge-path format and the load-balanced kernel (padded).
 * Include from kernel sources only. */
#ifndef STRATA_SPARSE_STAGE_PRODUCTS_H
#define STRATA_SPARSE_STAGE_PRODUCTS_H

#include <strata/kl.h>

/* entries per participant and step: each participant's loads of one step are independent */
#define STRATA_SPARSE_STAGE_UNROLL 8

/* The padded layout (pad = 1): product i at prod[STRATA_SPARSE_STAGE_PAD(i)], one unused double
 * after every 16, so that threads each reading their own run of products, the runs' starts
 * multiples of 4, 8 or 16 apart, spread over more bank pairs: the load-balanced kernel's pieces of
 * 8 (8 p + j: two threads per 64-bit bank pair, the minimum, instead of sixteen) and the stream
 * level's rows whose lengths are multiples of 4 x lanes (by default with 1 or 2 lanes on GPUs:
 * spmv_plan.c, stream_padded). Scratch: n + n / 16 + 1 doubles for n products. */
#define STRATA_SPARSE_STAGE_PAD(i) ((i) + ((i) >> 4))

/* clamp = 1: the loads of A unconditional, a participant past k1 reading entry k1 - 1 again, and
 * 32-bit offsets from k0 (k1 - k0 products fit a team's scratch): fewer predicates and less
 * integer work per product, at the price of registers: faster in the stream launch alone, slower
 * in the fused launch, which keeps clamp = 0 (predicated loads, 64-bit indices; the same notes). */
STRATA_KL_TEAM_FUNC void strata_sparse_stage_products(const strata_team_t *team, const int32_t *cols,
                                                      const double *vals, const double *x, int64_t k0,
                                                      int64_t k1, double *prod, int pad, int clamp) {
  if (clamp) {
    const int32_t *c0 = cols + k0;
    const double *v0 = vals + k0;
    const int32_t n = (int32_t)(k1 - k0), P = team->team_size * team->vector_length;
    for (int32_t q = team->team_rank * team->vector_length + team->vector_rank; q < n;
         q += STRATA_SPARSE_STAGE_UNROLL * P) {
      int32_t c[STRATA_SPARSE_STAGE_UNROLL];
      double v[STRATA_SPARSE_STAGE_UNROLL];
      for (int u = 0; u < STRATA_SPARSE_STAGE_UNROLL; ++u) { /* all loads of A first */
        const int32_t i = q + u * P < n ? q + u * P : n - 1;
        c[u] = strata_load_stream_i32(c0 + i);
        v[u] = strata_load_stream_f64(v0 + i);
      }
      for (int u = 0; u < STRATA_SPARSE_STAGE_UNROLL; ++u) { /* then the gathers of x */
        const int32_t i = q + u * P;
        if (i < n) prod[pad ? STRATA_SPARSE_STAGE_PAD(i) : i] = v[u] * strata_load_cached_f64(x + c[u]);
      }
    }
    return;
  }
  const int64_t P = (int64_t)team->team_size * team->vector_length;
  for (int64_t q = k0 + (int64_t)team->team_rank * team->vector_length + team->vector_rank; q < k1;
       q += STRATA_SPARSE_STAGE_UNROLL * P) {
    int32_t c[STRATA_SPARSE_STAGE_UNROLL];
    double v[STRATA_SPARSE_STAGE_UNROLL];
    for (int u = 0; u < STRATA_SPARSE_STAGE_UNROLL; ++u) { /* all loads of A first (predicated) */
      const int64_t i = q + u * P;
      c[u] = i < k1 ? strata_load_stream_i32(cols + i) : 0;
      v[u] = i < k1 ? strata_load_stream_f64(vals + i) : 0.0;
    }
    for (int u = 0; u < STRATA_SPARSE_STAGE_UNROLL; ++u) /* then the gathers of x */
      if (q + u * P < k1) {
        const int64_t i = q + u * P - k0;
        prod[pad ? STRATA_SPARSE_STAGE_PAD(i) : i] = v[u] * strata_load_cached_f64(x + c[u]);
      }
  }
}

#endif
