/* strata sparse — row sums of a team's staged products along a merge path (Merrill & Garland,
 * "Merge-based parallel sparse matrix-vector multiplication", SC'16), inside one team. The path
 * merges the team's row ends with its entries: a step either consumes an entry (adds its product)
 * or closes a row, and every team thread takes the same number of consecutive steps, whatever the
 * row lengths — a row of 1000 entries among rows of 2 costs no thread more than its share.
 * Rows crossing threads are combined in a fixed order (carries in team scratch), so sums are
 * reproducible run to run. Used by the merge-path format (a team per tile of the whole matrix's
 * path) and by the row-class plan's stream level (a team per block of whole rows). Include from
 * kernel sources only. */
#ifndef STRATA_SPARSE_MERGE_ROWS_H
#define STRATA_SPARSE_MERGE_ROWS_H

#include <strata/kl.h>

#include "store_y.h"

/* The path coordinate on diagonal d of the merge of row ends ends[0, a_len) (ascending; shifted
 * by -base so that they compare with entry indices 0..b_len-1) with the entries: the number of
 * row ends consumed before step d. A row end is consumed when it is <= the next entry index.
 * _i64 for row offsets in global memory, _i32 for ends staged in scratch. */
#define STRATA_SPARSE_MERGE_SEARCH(s, T)                                                              \
  STRATA_KL_FUNC int64_t strata_sparse_merge_search_##s(const T *ends, int64_t base, int64_t a_len, \
                                                        int64_t b_len, int64_t d) {                 \
    int64_t lo = d > b_len ? d - b_len : 0, hi = d < a_len ? d : a_len;                             \
    while (lo < hi) {                                                                               \
      const int64_t mid = lo + (hi - lo) / 2;                                                       \
      if ((int64_t)ends[mid] - base <= d - mid - 1)                                                 \
        lo = mid + 1;                                                                               \
      else                                                                                          \
        hi = mid;                                                                                   \
    }                                                                                               \
    return lo;                                                                                      \
  }
STRATA_SPARSE_MERGE_SEARCH(i64, int64_t)
STRATA_SPARSE_MERGE_SEARCH(i32, int32_t)
#undef STRATA_SPARSE_MERGE_SEARCH

/* Row sums of prod[0, b_len) by the rows whose ends (relative to prod, ascending) are ends[0,
 * a_len): row q holds the products from the previous end (ends[q - 1], or 0 for q = 0) up to
 * ends[q]. An end beyond b_len is allowed (a row cut by the stage): it closes after every staged
 * product. Each closed row q is stored to y[row0 + q] as alpha·sum + beta·y (store_y.h) unless its
 * length ends[q] - ends[q - 1] (q = 0: ends[0]) exceeds max_len (rows another launch sums). The
 * row open at a thread's end is its carry: cv[p] (partial sum), crow[p] (the row, a_len: none
 * left); on return (after a team barrier) cv / crow hold every thread's carry, for the caller's
 * own carry out of the team. Scratch: ends, prod, cv[team_size], crow[team_size]. Vector length
 * 1 (each team thread walks alone); every team thread must call it. */
STRATA_KL_TEAM_FUNC void strata_sparse_merge_rows(const strata_team_t *team, const int32_t *ends, int64_t a_len,
                                                  int64_t b_len, const double *prod, double *cv, int32_t *crow,
                                                  double *y, int64_t row0, double alpha, double beta,
                                                  int64_t max_len) {
  const int64_t total = a_len + b_len, T = team->team_size, p = team->team_rank;
  const int64_t per = (total + T - 1) / T;
  const int64_t dp = p * per < total ? p * per : total, de = dp + per < total ? dp + per : total;
  int64_t qi = strata_sparse_merge_search_i32(ends, 0, a_len, b_len, dp), qj = dp - qi;
  double run = 0.0, first_sum = 0.0;
  int64_t first_row = -1;
  for (int64_t s = dp; s < de; ++s) {
    if (qi < a_len && (ends[qi] <= qj || qj >= b_len)) { /* close row qi */
      if (first_row < 0) {
        first_row = qi;
        first_sum = run;
      } else if (ends[qi] - ends[qi - 1] <= max_len) { /* qi > first_row >= 0 */
        strata_sparse_store_y(&y[row0 + qi], alpha, run, beta);
      }
      run = 0.0;
      ++qi;
    } else {
      run += prod[qj];
      ++qj;
    }
  }
  crow[p] = (int32_t)qi;
  cv[p] = run;
  strata_team_barrier(team);
  /* the first row this thread closes also holds the carries of the threads before it still in it */
  if (first_row >= 0 && ends[first_row] - (first_row > 0 ? ends[first_row - 1] : 0) <= max_len) {
    double s = first_sum;
    for (int64_t q = p - 1; q >= 0 && crow[q] == first_row; --q) s += cv[q];
    strata_sparse_store_y(&y[row0 + first_row], alpha, s, beta);
  }
}

#endif
