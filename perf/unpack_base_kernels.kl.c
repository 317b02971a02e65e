/* strata bench — Tpetra's unpackAndCombine schemes as baselines (issue 5 "Performance"), ADD
 * only, written in the kernel language. As in Tpetra, an entry whose column is not in the target
 * row is dropped without a word (the harness checks every result against serial before timing). */
#include <strata/kl.h>

#include "unpack_base_kernels.h"

/* packet k's entry e: a binary search in the target row, then an atomic add */
#define UNPACK_BASE_ENTRY(a, rb, re, gids, vals, e)                                       \
  do {                                                                                   \
    const int64_t lid_ = (gids)[e];                                                      \
    const int64_t pos_ = strata_kl_lower_bound_i32((a)->col_indices, (rb), (re), lid_);  \
    if (pos_ < (re) && (int64_t)(a)->col_indices[pos_] == lid_)                          \
      strata_atomic_add_f64((a)->values + pos_, (vals)[e]);                              \
  } while (0)

/* Tpetra's original one-level scheme: a thread per incoming row (packet), a binary search per
 * entry, an atomic add. */
STRATA_FOR_KERNEL(unpack_base_one_level, unpack_base_args_t, a, k) {
  const unsigned char *p = a->data + a->offsets[k];
  const int64_t count = *(const int64_t *)p;
  const int64_t *gids = (const int64_t *)(p + 8);
  const double *vals = (const double *)(gids + count);
  const int64_t row = a->import_rows[k], rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  for (int64_t e = 0; e < count; ++e) UNPACK_BASE_ENTRY(a, rb, re, gids, vals, e);
}

/* Tpetra's current scheme: uniform batches of UNPACK_BASE_BATCH entries, a team per batch (its
 * vector lanes over the batch's entries), the batch table built on the host. */
STRATA_TEAM_KERNEL(unpack_base_batched, unpack_base_args_t, a, team) {
  const int64_t q = team->league_rank;
  const int64_t k = a->batch_pkt[q], b = a->batch_begin[q];
  const unsigned char *p = a->data + a->offsets[k];
  const int64_t count = *(const int64_t *)p;
  const int64_t *gids = (const int64_t *)(p + 8);
  const double *vals = (const double *)(gids + count);
  const int64_t row = a->import_rows[k], rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  const int64_t e = b + UNPACK_BASE_BATCH < count ? b + UNPACK_BASE_BATCH : count;
  STRATA_TEAM_VECTOR_RANGE(team, j, b, e) { UNPACK_BASE_ENTRY(a, rb, re, gids, vals, j); }
}
