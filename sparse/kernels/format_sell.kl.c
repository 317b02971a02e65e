/* strata sparse — SELL-C-σ and SELL-P (format_sell.c), and the slice widths shared with pJDS:
 * conversion and SpMV written once for every backend. */
#include <strata/kl.h>

#include "product.h"

#include "format_sliced_args.h"
#include "store_y.h"

/* a thread per slice c: its width (the longest of its rows, rounded up to a multiple of round)
 * and its size width * h */
STRATA_FOR_KERNEL(strata_fmt_sell_width, strata_fmt_sell_args_t, a, c) {
  const int64_t b = c * a->C, e = b + a->C < a->num_rows ? b + a->C : a->num_rows;
  int64_t w = 0;
  for (int64_t i = b; i < e; ++i) {
    const int32_t r = a->perm[i];
    const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
    if (len > w) w = len;
  }
  w = (w + a->round - 1) / a->round * a->round;
  a->width[c] = (int32_t)w;
  a->size[c] = w * (e - b);
}

/* a thread per sorted position i: row perm[i]'s entries, then padding (column -1, value 0), at
 * off[c] + k h + lane inside its slice c */
STRATA_FOR_KERNEL(strata_fmt_sell_fill, strata_fmt_sell_args_t, a, i) {
  const int64_t c = i / a->C, lane = i - c * a->C;
  const int64_t h = c * a->C + a->C < a->num_rows ? a->C : a->num_rows - c * a->C;
  const int32_t r = a->perm[i];
  const int64_t b = a->row_offsets[r], len = a->row_offsets[r + 1] - b, w = a->width[c];
  for (int64_t k = 0; k < w; ++k) {
    const int64_t p = a->off[c] + k * h + lane;
    a->cols[p] = k < len ? a->col_indices[b + k] : -1;
    a->vals[p] = k < len ? a->values[b + k] : 0.0;
  }
}

STRATA_KL_FUNC void strata_fmt_sell_store(const strata_fmt_sell_args_t *a, int64_t i, double s) {
  const int32_t r = a->perm[i];
  strata_sparse_store_y(&a->y[r], a->alpha, s, a->beta);
}

/* SELL-C-σ: a thread per sorted position over its slice's width; y in the original order */
STRATA_FOR_KERNEL(strata_fmt_sell_spmv, strata_fmt_sell_args_t, a, i) {
  const int64_t c = i / a->C, lane = i - c * a->C;
  const int64_t h = c * a->C + a->C < a->num_rows ? a->C : a->num_rows - c * a->C;
  const int64_t w = a->width[c], base = a->off[c] + lane;
  double s = 0.0;
  for (int64_t k = 0; k < w; ++k) strata_sparse_product_add(&s, a->vals, a->cols, a->x, base + k * h);
  strata_fmt_sell_store(a, i, s);
}

/* SELL-P: a team per rows_per_team sorted positions, a team thread per position, its vector
 * lanes (threads_per_row) over the slice's width (a multiple of the lanes) */
STRATA_TEAM_KERNEL(strata_fmt_sellp_spmv, strata_fmt_sell_args_t, a, team) {
  const int64_t b = team->league_rank * a->rows_per_team;
  const int64_t e = b + a->rows_per_team < a->num_rows ? b + a->rows_per_team : a->num_rows;
  STRATA_TEAM_THREAD_RANGE(team, i, b, e) {
    const int64_t c = i / a->C, lane = i - c * a->C;
    const int64_t h = c * a->C + a->C < a->num_rows ? a->C : a->num_rows - c * a->C;
    const int64_t base = a->off[c] + lane;
    double s;
    STRATA_THREAD_VECTOR_SUM(team, k, 0, (int64_t)a->width[c], s) {
      strata_sparse_product_add(&s, a->vals, a->cols, a->x, base + k * h);
    }
    if (team->vector_rank == 0) strata_fmt_sell_store(a, i, s);
  }
}
