/* strata sparse — format "merge": merge-path CSR SpMV (Merrill & Garland, "Merge-based parallel
 * sparse matrix-vector multiplication", SC'16), written once for every backend. Every thread does
 * the same number of path steps (a step either consumes an entry or closes a row), whatever the
 * row lengths; partial rows crossing threads are combined in a fixed order (in team scratch, then
 * across teams by a fixup pass), so y is reproducible run to run. */
#include <strata/kl.h>

#include "format_merge_args.h"
#include "store_y.h"
#include "stage_products.h"

/* The path coordinate (row i) on diagonal d of the merge of ends[0, a_len) (row ends, shifted by
 * -base so they compare with entry indices 0..b_len-1) with the entry indices: the number of
 * row ends consumed before step d. A row end is consumed when it is <= the next entry index. */
STRATA_KL_FUNC int64_t strata_fmt_merge_search(const int64_t *ends, int64_t base, int64_t a_len, int64_t b_len,
                                              int64_t d) {
  int64_t lo = d > b_len ? d - b_len : 0, hi = d < a_len ? d : a_len;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ends[mid] - base <= d - mid - 1)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* tile_row[t]: the row at step min(t·tile, n + nnz) of the whole path (row ends are
 * row_offsets[1..n]). */
STRATA_FOR_KERNEL(strata_fmt_merge_tiles, strata_fmt_merge_args_t, a, t) {
  const int64_t total = a->num_rows + a->nnz;
  const int64_t d = t * a->tile < total ? t * a->tile : total;
  a->tile_row[t] = strata_fmt_merge_search(a->row_offsets + 1, 0, a->num_rows, a->nnz, d);
}

STRATA_KL_FUNC void strata_fmt_merge_store(const strata_fmt_merge_args_t *a, int64_t r, double s) {
  strata_sparse_store_y(&a->y[r], a->alpha, s, a->beta);
}

/* A team per tile of steps; vector_length 1. The team stages its row ends and its entries'
 * products vals[k]·x[cols[k]] in scratch (coalesced reads), then each thread walks its steps in
 * scratch. A thread stores every row it closes except the first, whose sum also needs the
 * carries of the earlier threads still in that row: it is stored after a barrier. */
STRATA_TEAM_KERNEL(strata_fmt_merge_spmv, strata_fmt_merge_args_t, a, team) {
  const int64_t t = team->league_rank;
  const int64_t total = a->num_rows + a->nnz;
  const int64_t d0 = t * a->tile, d1 = d0 + a->tile < total ? d0 + a->tile : total;
  const int64_t i0 = a->tile_row[t], i1 = a->tile_row[t + 1];
  const int64_t j0 = d0 - i0, j1 = d1 - i1;
  const int64_t a_len = i1 - i0, b_len = j1 - j0;
  int64_t *ends = (int64_t *)team->scratch;       /* [tile + 1] */
  double *prod = (double *)(ends + a->tile + 1);  /* [tile] */
  double *cv = prod + a->tile;                    /* [team_size] thread carries: partial sums */
  int32_t *crow = (int32_t *)(cv + team->team_size); /* [team_size]: their rows, relative to i0 */
  STRATA_TEAM_VECTOR_RANGE(team, q, 0, a_len) { ends[q] = a->row_offsets[i0 + q + 1] - j0; }
  strata_sparse_stage_products(team, a->cols, a->vals, a->x, j0, j1, prod, 0, 0);
  strata_team_barrier(team);

  const int64_t p = team->team_rank;
  int64_t dp = p * a->per;
  if (dp > a_len + b_len) dp = a_len + b_len;
  int64_t de = dp + a->per;
  if (de > a_len + b_len) de = a_len + b_len;
  int64_t qi = strata_fmt_merge_search(ends, 0, a_len, b_len, dp);
  int64_t qj = dp - qi;
  double run = 0.0, first_sum = 0.0;
  int64_t first_row = -1;
  for (int64_t s = dp; s < de; ++s) {
    if (qi < a_len && ends[qi] <= qj) { /* close row i0 + qi */
      if (first_row < 0) {
        first_row = qi;
        first_sum = run;
      } else {
        strata_fmt_merge_store(a, i0 + qi, run);
      }
      run = 0.0;
      ++qi;
    } else {
      run += prod[qj];
      ++qj;
    }
  }
  crow[p] = (int32_t)qi; /* the row (relative to i0) open at this thread's end, its partial sum */
  cv[p] = run;
  strata_team_barrier(team);
  if (first_row >= 0) {
    double s = first_sum;
    for (int64_t q = p - 1; q >= 0 && crow[q] == first_row; --q) s += cv[q];
    strata_fmt_merge_store(a, i0 + first_row, s);
  }
  if (p == team->team_size - 1) { /* the team's carry: row i1 if it exists */
    double s = 0.0;
    for (int64_t q = p; q >= 0 && crow[q] == a_len; --q) s += cv[q];
    a->carry_row[t] = i1 < a->num_rows ? (int32_t)i1 : -1;
    a->carry_val[t] = s;
  }
}

/* Fixup: the first team of each run of teams carrying the same row adds the run's carries (in
 * team order) to that row, which the team that closed it has stored. */
STRATA_FOR_KERNEL(strata_fmt_merge_fixup, strata_fmt_merge_args_t, a, t) {
  const int32_t r = a->carry_row[t];
  if (r < 0 || (t > 0 && a->carry_row[t - 1] == r)) return;
  double s = 0.0;
  for (int64_t q = t; q < a->num_teams && a->carry_row[q] == r; ++q) s += a->carry_val[q];
  a->y[r] += a->alpha * s;
}
