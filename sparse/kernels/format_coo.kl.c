/* strata sparse — the load-balanced segmented SpMV
 * that coo, csr-lb, hyb (COO part) and hec (CSR part) share (one kernel, two row sources). */
#include <strata/kl.h>

#include "product.h"

#include "format_lb_args.h"

/* One participant's piece [lo, hi) of entries, r its first entry's row (row_offsets form). The
 * piece is cut into runs of one row; a run that holds its whole row (it starts at the row's
 * first entry and ends at its last) belongs to this participant alone and is added with a plain
 * store; a run of a row that crosses into a neighbouring piece (or team) is added atomically.
 * y already holds beta·y (or an earlier part's result), so every run only adds. */
STRATA_KL_TEAM_FUNC void strata_fmt_lb_piece(const strata_fmt_lb_args_t *a, int64_t lo, int64_t hi, int64_t r) {
  int64_t k = lo;
  while (k < hi) {
    const int64_t kb = k;
    double s = 0.0;
    int whole;
    if (a->rows) {
      r = a->rows[k];
      for (; k < hi && a->rows[k] == r; ++k) s += strata_sparse_product_walk(a->vals, a->cols, a->x, k);
      whole = (kb == 0 || a->rows[kb - 1] != r) && (k == a->nnz || a->rows[k] != r);
    } else {
      while (r + 1 < a->num_rows && a->row_offsets[r + 1] <= k) ++r; /* skip empty rows */
      const int64_t re = a->row_offsets[r + 1], e = re < hi ? re : hi;
      for (; k < e; ++k) s += strata_sparse_product_walk(a->vals, a->cols, a->x, k);
      whole = kb == a->row_offsets[r] && k == re;
    }
    if (whole)
      a->y[r] += a->alpha * s;
    else
      strata_atomic_add_f64(&a->y[r], a->alpha * s);
  }
}

/* a team per tile of entries, a piece per participant (thread × lane) */
STRATA_TEAM_KERNEL(strata_fmt_lb_spmv, strata_fmt_lb_args_t, a, team) {
  const int64_t p = (int64_t)team->team_rank * team->vector_length + team->vector_rank;
  const int64_t t = team->league_rank;
  const int64_t lo = t * a->tile + p * a->per;
  int64_t hi = lo + a->per;
  if (hi > a->nnz) hi = a->nnz;
  if (lo >= hi) return;
  int64_t r = 0;
  if (!a->rows) { /* the row holding lo, searched between this team's row and the next team's */
    const int64_t b = (int64_t)a->team_row[t] + 1;
    const int64_t e = t + 1 < a->num_teams ? (int64_t)a->team_row[t + 1] + 1 : a->num_rows;
    r = strata_kl_lower_bound_i64(a->row_offsets, b, e, lo + 1) - 1;
  }
  strata_fmt_lb_piece(a, lo, hi, r);
}
