/* strata sparse — format "merge": merge-path CSR SpMV (Merrill & Garland, "Merge-based parallel
 * sparse matrix-vector multiplication", SC'16), written once for every backend. Every thread does
 * the same number of path steps (a step either consumes an entry or closes a row), whatever the
 * row lengths; partial rows crossing threads are combined in a fixed order (in team scratch, then
 * across teams by a fixup pass), so y is reproducible run to run. */
#include <strata/kl.h>

#include "format_merge_args.h"
#include "merge_rows.h"
#include "stage_products.h"

/* tile_row[t]: the row at step min(t·tile, n + nnz) of the whole path (row ends are
 * row_offsets[1..n]). */
STRATA_FOR_KERNEL(strata_fmt_merge_tiles, strata_fmt_merge_args_t, a, t) {
  const int64_t total = a->num_rows + a->nnz;
  const int64_t d = t * a->tile < total ? t * a->tile : total;
  a->tile_row[t] = strata_sparse_merge_search_i64(a->row_offsets + 1, 0, a->num_rows, a->nnz, d);
}

/* A team per tile of steps; vector_length 1. The team stages its row ends and its entries'
 * products vals[k]·x[cols[k]] in scratch (coalesced reads), then its threads walk their steps in
 * scratch (merge_rows.h), storing every row the tile closes; the last thread leaves the team's
 * carry (the row still open at the tile's end) for the fixup pass. */
STRATA_TEAM_KERNEL(strata_fmt_merge_spmv, strata_fmt_merge_args_t, a, team) {
  const int64_t t = team->league_rank;
  const int64_t total = a->num_rows + a->nnz;
  const int64_t d0 = t * a->tile, d1 = d0 + a->tile < total ? d0 + a->tile : total;
  const int64_t i0 = a->tile_row[t], i1 = a->tile_row[t + 1];
  const int64_t j0 = d0 - i0, j1 = d1 - i1;
  const int64_t a_len = i1 - i0, b_len = j1 - j0;
  double *prod = (double *)team->scratch;            /* [tile] */
  double *cv = prod + a->tile;                       /* [team_size] thread carries: partial sums */
  int32_t *ends = (int32_t *)(cv + team->team_size); /* [tile] row ends relative to j0 */
  int32_t *crow = ends + a->tile;                    /* [team_size]: their rows, relative to i0 */
  STRATA_TEAM_VECTOR_RANGE(team, q, 0, a_len) { ends[q] = (int32_t)(a->row_offsets[i0 + q + 1] - j0); }
  strata_sparse_stage_products(team, a->cols, a->vals, a->x, j0, j1, prod);
  strata_team_barrier(team);
  strata_sparse_merge_rows(team, ends, a_len, b_len, prod, cv, crow, a->y, i0, a->alpha, a->beta, INT64_MAX);
  const int64_t p = team->team_rank;
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
