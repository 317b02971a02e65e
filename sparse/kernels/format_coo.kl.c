/* strata sparse — the load-balanced segmented SpMV
 * that coo, csr-lb, hyb (COO part) and hec (CSR part) share (one kernel, two row sources). */
#include <strata/kl.h>

#include "stage_products.h"

#include "format_lb_args.h"

/* A participant's row parts that it cannot add alone (a row crossing a piece boundary):
 *   head: its first run, when that run's row began before the piece (hrow, hsum; hend: the run
 *         reaches its row's end inside the piece, else the row goes on into the next piece);
 *   tail: its last run, when that run began inside the piece and its row goes on past the piece
 *         (trow, tsum). A piece lying strictly inside one row has a head with hend = 0 only.
 * hrow / trow are -1 when absent. */
typedef struct {
  int64_t hrow, trow;
  double hsum, tsum;
  int hend;
} strata_fmt_lb_part_t;

/* One participant's piece [lo, hi) of entries, r its first entry's row (row_offsets form), the
 * product of entry k at prod[STRATA_SPARSE_STAGE_PAD(k - k0)] (the team's staged tile, padded).
 * The piece is cut into runs of one row; a run that holds its whole row (it starts at the row's
 * first entry and ends at its last) belongs to this participant alone and is added with a plain
 * store; the first and last runs, when their row crosses the piece's ends, go to *out (which the
 * caller sets to "none" first). y already holds beta·y (or an earlier part's result), so every
 * run only adds. */
STRATA_KL_TEAM_FUNC void strata_fmt_lb_piece(const strata_fmt_lb_args_t *a, const double *prod, int64_t k0,
                                             int64_t lo, int64_t hi, int64_t r, strata_fmt_lb_part_t *out) {
  int64_t k = lo;
  while (k < hi) {
    const int64_t kb = k;
    double s = 0.0;
    int starts, ends;
    if (a->rows) {
      r = a->rows[k];
      for (; k < hi && a->rows[k] == r; ++k) s += prod[STRATA_SPARSE_STAGE_PAD(k - k0)];
      starts = kb == 0 || a->rows[kb - 1] != r;
      ends = k == a->nnz || a->rows[k] != r;
    } else {
      if (a->row_offsets[r + 1] <= k) { /* the row ended: the next one, or a search past empty rows */
        ++r;
        if (a->row_offsets[r + 1] <= k) { /* galloping: empty rows may run for millions (hec) */
          int64_t b = r + 1, step = 1;
          while (b + step <= a->num_rows && a->row_offsets[b + step] <= k) {
            b += step;
            step *= 2;
          }
          const int64_t e = b + step <= a->num_rows ? b + step : a->num_rows;
          r = strata_kl_lower_bound_i64(a->row_offsets, b + 1, e + 1, k + 1) - 1;
        }
      }
      const int64_t re = a->row_offsets[r + 1], e = re < hi ? re : hi;
      for (; k < e; ++k) s += prod[STRATA_SPARSE_STAGE_PAD(k - k0)];
      starts = kb == a->row_offsets[r];
      ends = k == re;
    }
    if (starts && ends) {
      a->y[r] += a->alpha * s;
    } else if (!starts) { /* only the first run can continue a row */
      out->hrow = r;
      out->hsum = s;
      out->hend = ends;
    } else { /* starts inside, goes on: only the last run */
      out->trow = r;
      out->tsum = s;
    }
  }
}

/* A team per tile of entries, a piece per participant (thread × lane). Rows crossing pieces are
 * summed inside the team first (a segmented reduction over the participants' heads and tails),
 * so that a row costs at most one atomic add per team it touches, and none when it lies inside
 * one team: long rows no longer serialize one atomic per piece on the same y entry.
 * The reduction: participant p's head continues the row of p - 1's tail (or of p - 1's head,
 * when p - 1 lies inside the row). Each head links to the next participant's head while its row
 * goes on; pointer jumping over those links (rounds while any link is left: log2 of the longest
 * chain, none when no piece lies strictly inside a row) gives every head the sum of its chain,
 * agg, and whether the chain ends at its row's end inside the team, fin. A tail then adds its sum plus the next
 * participant's agg: with a plain store when fin (its row begins and ends in this team), else
 * atomically; participant 0's head (its row began in an earlier team) adds its agg atomically.
 * The tile's products are staged first with coalesced reads (stage_products.h); the pieces then
 * walk scratch. Scratch: [P] doubles agg, [P] int32 next, [P] int32 fin, STRATA_FMT_LB_ROUNDS
 * int32 flags, then the tile's products in the padded layout of stage_products.h
 * (STRATA_FMT_LB_SCRATCH). */
STRATA_TEAM_KERNEL(strata_fmt_lb_spmv, strata_fmt_lb_args_t, a, team) {
  const int64_t P = (int64_t)team->team_size * team->vector_length;
  const int64_t p = (int64_t)team->team_rank * team->vector_length + team->vector_rank;
  const int64_t t = team->league_rank;
  const int64_t lo = t * a->tile + p * a->per;
  int64_t hi = lo + a->per;
  if (hi > a->nnz) hi = a->nnz;
  const int64_t k0 = t * a->tile, k1 = k0 + a->tile < a->nnz ? k0 + a->tile : a->nnz;
  double *agg = (double *)team->scratch;
  int32_t *next = (int32_t *)(agg + P), *fin = next + P, *any = fin + P;
  double *prod = agg + 2 * P + STRATA_FMT_LB_ROUNDS / 2; /* [tile] after the sums (8-byte aligned) */
  strata_sparse_stage_products(team, a->cols, a->vals, a->x, k0, k1, prod, 1, 0);
  strata_team_barrier(team);
  strata_fmt_lb_part_t part = {-1, -1, 0.0, 0.0, 0}; /* none (strata_fmt_lb_piece fills what crosses) */
  if (lo < hi) {
    int64_t r = 0;
    if (!a->rows) { /* the row holding lo, searched between this team's row and the next team's */
      const int64_t b = (int64_t)a->team_row[t] + 1;
      const int64_t e = t + 1 < a->num_teams ? (int64_t)a->team_row[t + 1] + 1 : a->num_rows;
      r = strata_kl_lower_bound_i64(a->row_offsets, b, e, lo + 1) - 1;
    }
    strata_fmt_lb_piece(a, prod, k0, lo, hi, r, &part);
  }
  const int link = part.hrow >= 0 && !part.hend && p + 1 < P;
  for (int64_t i = p; i < STRATA_FMT_LB_ROUNDS; i += P) any[i] = 0;
  agg[p] = part.hsum;
  next[p] = link ? (int32_t)(p + 1) : -1;
  fin[p] = part.hrow >= 0 && part.hend;
  strata_team_barrier(team);
  if (link) strata_atomic_max_i32(any, 1);
  strata_team_barrier(team);
  /* pointer jumping while any link is left (any[round]: set by the participants still linked) */
  for (int round = 0; round + 1 < STRATA_FMT_LB_ROUNDS && any[round]; ++round) {
    const int32_t n = next[p];
    double an = 0.0;
    int32_t fn = 0, nn = -1;
    if (n >= 0) {
      an = agg[n];
      fn = fin[n];
      nn = next[n];
    }
    strata_team_barrier(team);
    if (n >= 0) {
      agg[p] += an;
      fin[p] = fn;
      next[p] = nn;
      if (nn >= 0) strata_atomic_max_i32(any + round + 1, 1);
    }
    strata_team_barrier(team);
  }
  if (part.trow >= 0) {
    const int inside = p + 1 < P; /* else the row goes on into the next team */
    const double total = part.tsum + (inside ? agg[p + 1] : 0.0);
    if (inside && fin[p + 1])
      a->y[part.trow] += a->alpha * total;
    else
      strata_atomic_add_f64(&a->y[part.trow], a->alpha * total);
  }
  if (p == 0 && part.hrow >= 0) strata_atomic_add_f64(&a->y[part.hrow], a->alpha * agg[0]);
}
