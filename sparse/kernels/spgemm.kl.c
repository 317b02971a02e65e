/* strata sparse — SpGEMM C = A·B by row class (Gustavson), written once for every backend.
 *
 * The products of row r are numbered in a fixed order: A's row entries p in storage order, and for
 * each B's row col[p] entries in storage order (product t). Every entry of C is the sum of its
 * products in that order, starting from -0.0 (the identity of IEEE addition, so a lone product
 * keeps its sign): the short class adds in product order as it walks the row (or sums each C
 * entry's products in t order: the lanes and the gathering), the medium classes' NUMERIC walks A's
 * entries in order into C's row in scratch when B's rows are unique, else puts each product's
 * number t in its C entry's bucket and sums each bucket sorted by t (their COUNT / FILL sort the
 * (column, t) keys), the long class walks A's entries one after
 * another (lanes over one B row touch distinct columns when B's rows are unique; one lane walks
 * the row otherwise). So the values are the same on every run, thread
 * count and backend (up to a compiler's contraction of a·b + s into an FMA on GPUs). */
#include <strata/kl.h>

#include "row_class.h"
#include "spgemm_args.h"

/* ----------------------------------------------------------------------------- products, classes */

/* ub[r] = Σ over A's row r of B's row lengths, saturated at LIMIT + 1 (no overflow) */
STRATA_FOR_KERNEL(strata_spgemm_products, strata_spgemm_args_t, a, r) {
  int64_t s = 0;
  for (int64_t p = a->a_off[r]; p < a->a_off[r + 1]; ++p) {
    const int32_t k = a->a_col[p];
    const int64_t len = a->b_off[k + 1] - a->b_off[k];
    if (len > STRATA_SPGEMM_LIMIT - s) {
      s = STRATA_SPGEMM_LIMIT + 1;
      break;
    }
    s += len;
  }
  a->ub[r] = s;
}

/* the row with the most products (the first among equals) */
STRATA_REDUCE_KERNEL(strata_spgemm_products_max, strata_spgemm_args_t, a, r, i64loc, acc) {
  strata_kl_maxloc_i64(acc, a->ub[r], r);
}

/* all products, in double (no overflow whatever the rows hold) */
STRATA_REDUCE_KERNEL(strata_spgemm_products_sum, strata_spgemm_args_t, a, r, f64, acc) { *acc += (double)a->ub[r]; }

/* the widest row of C among a class's rows rows[begin + i] (c_off: C's row offsets) */
STRATA_REDUCE_KERNEL(strata_spgemm_row_size_max, strata_spgemm_args_t, a, i, i64, acc) {
  const int32_t r = a->rows[a->begin + i];
  const int64_t len = a->c_off[r + 1] - a->c_off[r];
  if (len > *acc) *acc = len;
}

STRATA_FOR_KERNEL(strata_spgemm_classify, strata_spgemm_args_t, a, r) {
  const int c = strata_sparse_row_class(a->ub[r], a->num_classes, a->max_len);
  a->keys[r] = strata_sparse_class_key(c, 0, r);
  a->perm[r] = r;
}

/* ----------------------------------------------------------------------------- short rows */

/* A team thread per row. COUNT / FILL: the row's distinct columns in a sorted list in thread
 * scratch (at most SHORT_MAX, insertion by binary search); NUMERIC: each product added at its
 * column's place in C's row (found by binary search), in product order. */
STRATA_TEAM_KERNEL(strata_spgemm_short, strata_spgemm_args_t, a, team) {
  const int64_t i = team->league_rank * team->team_size + team->team_rank;
  if (i >= a->count || team->vector_rank != 0) return;
  const int32_t r = a->rows[a->begin + i];
  const int64_t ab = a->a_off[r], ae = a->a_off[r + 1];
  if (a->mode == STRATA_SPGEMM_NUMERIC) {
    const int64_t cb = a->c_off[r], ce = a->c_off[r + 1];
    for (int64_t q = cb; q < ce; ++q) a->c_val[q] = -0.0;
    for (int64_t p = ab; p < ae; ++p) {
      const int32_t k = a->a_col[p];
      const double av = a->a_val[p];
      for (int64_t q = a->b_off[k]; q < a->b_off[k + 1]; ++q) {
        const int64_t pos = strata_kl_lower_bound_i32(a->c_col, cb, ce, a->b_col[q]);
        a->c_val[pos] += av * a->b_val[q];
      }
    }
    return;
  }
  int32_t *list = (int32_t *)team->thread_scratch;
  int64_t len = 0;
  for (int64_t p = ab; p < ae; ++p) {
    const int32_t k = a->a_col[p];
    for (int64_t q = a->b_off[k]; q < a->b_off[k + 1]; ++q) {
      const int32_t col = a->b_col[q];
      const int64_t pos = strata_kl_lower_bound_i32(list, 0, len, col);
      if (pos < len && list[pos] == col) continue;
      for (int64_t j = len; j > pos; --j) list[j] = list[j - 1];
      list[pos] = col;
      ++len;
    }
  }
  if (a->mode == STRATA_SPGEMM_COUNT) {
    a->c_off[r] = len;
  } else {
    int32_t *out = a->c_col + a->c_off[r];
    for (int64_t j = 0; j < len; ++j) out[j] = list[j];
  }
}

/* NUMERIC of short rows on GPUs when B's rows are sorted and unique (b_unique): a team thread per
 * row, its lanes over C's row entries; entry (r, col) = Σ over A's row entries p in storage order
 * of a_p · B(k_p, col), B(k_p, col) found by binary search in B's row (each column occurs at most
 * once there), from -0.0: the same products in the same order as the product-order walk above,
 * without its read-modify-write of C per product. */
/* C's entry q of row r (a lane's share of a gathering NUMERIC): Σ over A's row entries p in storage
 * order of a_p · B(k_p, col_q), B(k_p, col) found by binary search in B's row (each column occurs
 * at most once there: b_unique), from -0.0 — the same products in the same order as the
 * product-order walk and the medium class's sorted runs. */
STRATA_KL_FUNC void strata_spgemm_gather_entry(const strata_spgemm_args_t *a, int64_t ab, int64_t ae, int64_t q) {
  const int32_t col = a->c_col[q];
  double s = -0.0;
  for (int64_t p = ab; p < ae; ++p) {
    const int32_t k = a->a_col[p];
    const int64_t be = a->b_off[k + 1], pos = strata_kl_lower_bound_i32(a->b_col, a->b_off[k], be, col);
    if (pos < be && a->b_col[pos] == col) s += a->a_val[p] * a->b_val[pos];
  }
  a->c_val[q] = s;
}

/* NUMERIC of short rows on GPUs when B's rows are sorted and unique (b_unique): a team thread per
 * row, its lanes over C's row entries, without the walk's read-modify-write of C per product. */
STRATA_TEAM_KERNEL(strata_spgemm_short_gather, strata_spgemm_args_t, a, team) {
  const int64_t i = team->league_rank * team->team_size + team->team_rank;
  if (i >= a->count) return;
  const int32_t r = a->rows[a->begin + i];
  const int64_t ab = a->a_off[r], ae = a->a_off[r + 1];
  STRATA_THREAD_VECTOR_RANGE(team, q, a->c_off[r], a->c_off[r + 1]) { strata_spgemm_gather_entry(a, ab, ae, q); }
}

/* NUMERIC of short rows on GPUs: a team thread per row, its lanes over A's row entries (each lane's
 * chain of dependent loads is its own A entries', not the row's). A lane scan of B's row lengths
 * gives each A entry the number t of its first product; each lane writes its entries' products
 * (column, a · b) at their t in thread scratch (STRATA_SPGEMM_SHORT_LANES_SCRATCH); after the
 * team's barrier each lane takes C entries of the row and sums, in t order from -0.0, the products
 * whose column is the entry's: the same terms in the same order as the product-order walk (a
 * product whose column is not in C's row is dropped, as there; products past SHORT_MAX, which only
 * A or B of other patterns than the plan's can give, are not written). Every thread of the team
 * reaches the barrier (those past the class's rows do nothing else). */
STRATA_TEAM_KERNEL(strata_spgemm_short_lanes, strata_spgemm_args_t, a, team) {
  const int64_t i = team->league_rank * team->team_size + team->team_rank;
  const int active = i < a->count;
  const int32_t r = active ? a->rows[a->begin + i] : 0;
  double *tval = (double *)team->thread_scratch;
  int32_t *tcol = (int32_t *)(tval + STRATA_SPGEMM_SHORT_MAX);
  int64_t np = 0;
  if (active) {
    STRATA_THREAD_VECTOR_SCAN(team, p, a->a_off[r], a->a_off[r + 1], np, final) {
      const int32_t k = a->a_col[p];
      const int64_t bb = a->b_off[k], be = a->b_off[k + 1];
      if (final) {
        const double av = a->a_val[p];
        const int64_t t0 = np - bb;
        const int64_t qe = be < STRATA_SPGEMM_SHORT_MAX - t0 ? be : STRATA_SPGEMM_SHORT_MAX - t0;
        for (int64_t q = bb; q < qe; ++q) {
          tcol[t0 + q] = a->b_col[q];
          tval[t0 + q] = av * a->b_val[q];
        }
      }
      np += be - bb;
    }
  }
  strata_team_barrier(team);
  if (!active) return;
  if (np > STRATA_SPGEMM_SHORT_MAX) np = STRATA_SPGEMM_SHORT_MAX;
  STRATA_THREAD_VECTOR_RANGE(team, q, a->c_off[r], a->c_off[r + 1]) {
    const int32_t col = a->c_col[q];
    double s = -0.0;
    for (int64_t t = 0; t < np; ++t)
      if (tcol[t] == col) s += tval[t];
    a->c_val[q] = s;
  }
}

/* ----------------------------------------------------------------------------- medium rows */

/* Row r's products, t the product's number: keys[t] = col · cap + t, or, when C's row columns
 * ccol[0, nc) are given (NUMERIC), pos[t] = the product's place in them (-1 for a column not in
 * C's row: such a product is dropped, as the sorted runs dropped it); when vals is given, vals[t]
 * = a · b. A's entries are taken CHUNK at a time, a team scan of their B row lengths gives each its
 * first t (start, team scratch), then the team's threads take A's entries and their lanes the B
 * row. Returns the row's product count; ends with a barrier. Every thread of the team calls it. */
STRATA_KL_TEAM_FUNC int64_t strata_spgemm_gather(const strata_team_t *team, const strata_spgemm_args_t *a, int32_t r,
                                                 int64_t *keys, double *vals, int64_t *start, const int32_t *ccol,
                                                 int64_t nc, int32_t *pos) {
  const int64_t ab = a->a_off[r], ae = a->a_off[r + 1], cap = a->cap;
  int64_t base = 0;
  for (int64_t c0 = ab; c0 < ae; c0 += STRATA_SPGEMM_CHUNK) {
    const int64_t c1 = c0 + STRATA_SPGEMM_CHUNK < ae ? c0 + STRATA_SPGEMM_CHUNK : ae;
    int64_t s;
    STRATA_TEAM_VECTOR_SCAN(team, p, c0, c1, s, final) {
      const int32_t k = a->a_col[p];
      const int64_t len = a->b_off[k + 1] - a->b_off[k];
      if (final) start[p - c0] = base + s;
      s += len;
    }
    strata_team_barrier(team);
    STRATA_TEAM_THREAD_RANGE(team, p, c0, c1) {
      const int32_t k = a->a_col[p];
      const int64_t bb = a->b_off[k], be = a->b_off[k + 1], t0 = start[p - c0] - bb;
      const double av = vals ? a->a_val[p] : 0.0;
      STRATA_THREAD_VECTOR_RANGE(team, q, bb, be) {
        const int32_t col = a->b_col[q];
        if (ccol) {
          const int64_t e = strata_kl_lower_bound_i32(ccol, 0, nc, col);
          pos[t0 + q] = e < nc && ccol[e] == col ? (int32_t)e : -1;
        } else {
          keys[t0 + q] = (int64_t)col * cap + (t0 + q);
        }
        if (vals) vals[t0 + q] = av * a->b_val[q];
      }
    }
    base += s;
    strata_team_barrier(team);
  }
  return base;
}

/* Sorts x[0, n) ascending in one lane by heapsort: O(n log n) compares. */
STRATA_KL_FUNC void strata_spgemm_heapsort_i32(int32_t *x, int64_t n) {
  for (int64_t end = n, start = n / 2; end > 1;) {
    if (start > 0) {
      --start; /* heap building: sift x[start] down */
    } else {
      --end; /* the largest to the end, then sift the new root down */
      const int32_t t = x[end];
      x[end] = x[0];
      x[0] = t;
    }
    int64_t r = start;
    const int32_t v = x[r];
    for (int64_t c = 2 * r + 1; c < end; c = 2 * r + 1) {
      if (c + 1 < end && x[c + 1] > x[c]) ++c;
      if (x[c] <= v) break;
      x[r] = x[c];
      r = c;
    }
    x[r] = v;
  }
}

/* Sorts x[0, n) ascending in one lane: insertion for short runs and for runs already in order (a
 * team of one fills its buckets in t order, so there this is a check), heapsort otherwise
 * (O(n log n) compares, whatever the order). */
STRATA_KL_FUNC void strata_spgemm_sort_lane_i32(int32_t *x, int64_t n) {
  if (n > STRATA_SPGEMM_INSERTION_MAX) {
    int64_t i = 1;
    while (i < n && x[i - 1] <= x[i]) ++i;
    if (i < n) strata_spgemm_heapsort_i32(x, n);
    return;
  }
  for (int64_t i = 1; i < n; ++i) {
    const int32_t v = x[i];
    int64_t j = i;
    for (; j > 0 && x[j - 1] > v; --j) x[j] = x[j - 1];
    x[j] = v;
  }
}

/* NUMERIC of a medium row by buckets (C's row pattern is known; team scratch as
 * STRATA_SPGEMM_MED_NUMERIC_SCRATCH): C's columns copied to scratch; each product t finds its
 * entry's place pos[t] there by binary search and keeps val[t] = a · b; each entry counts its
 * products (cnt); a team scan turns the counts into bucket offsets; each product takes a slot in
 * its entry's bucket (a scratch fetch_add: any order inside a bucket on GPUs, t order for a team
 * of one) and leaves its t there; a lane per entry sorts its bucket by t and sums val in that order
 * from -0.0 — the same terms in the same order as the product-order walk. O(P log nC) work and
 * four barriers beyond the products' walk (against the bitonic sort's O(P log² P) and
 * log2 P (log2 P + 1) / 2). The loops whose writes can meet (the counts, the slots) stride by hand
 * over threads x lanes: plain loops on host backends, where a team is one participant and plain
 * increments serve (a vectorized loop would not allow them). Every thread of the team calls it. */
STRATA_KL_TEAM_FUNC void strata_spgemm_medium_numeric(const strata_team_t *team, const strata_spgemm_args_t *a,
                                                      int32_t r) {
  const int64_t cap = a->cap;
  double *val = (double *)team->scratch;                    /* [cap] a · b by t */
  int64_t *start = (int64_t *)(val + cap);                  /* [CHUNK] the walk's first t per A entry */
  int32_t *ccol = (int32_t *)(start + STRATA_SPGEMM_CHUNK); /* [cap] C's columns, then the buckets' t */
  int32_t *pos = ccol + cap;                                /* [cap] each product's entry in C's row */
  int32_t *cnt = pos + cap; /* [cap] per entry: its count, then its bucket's start, then its end */
  const int64_t cb = a->c_off[r], nc = a->c_off[r + 1] - cb;
  const int one = team->team_size * team->vector_length == 1;
  const int64_t w = (int64_t)team->team_size * team->vector_length;
  const int64_t me = (int64_t)team->team_rank * team->vector_length + team->vector_rank;
  STRATA_TEAM_VECTOR_RANGE(team, q, 0, nc) {
    ccol[q] = a->c_col[cb + q];
    cnt[q] = 0;
  }
  strata_team_barrier(team);
  const int64_t np = strata_spgemm_gather(team, a, r, NULL, val, start, ccol, nc, pos);
  for (int64_t t = me; t < np; t += w) {
    const int32_t e = pos[t];
    if (e < 0) continue;
    if (one)
      ++cnt[e];
    else
      strata_atomic_add_i32(&cnt[e], 1);
  }
  strata_team_barrier(team);
  int64_t s;
  STRATA_TEAM_VECTOR_SCAN(team, q, 0, nc, s, final) {
    const int32_t v = cnt[q]; /* the same participant reads index q in both passes before it writes it */
    if (final) cnt[q] = (int32_t)s;
    s += v;
  }
  strata_team_barrier(team);
  for (int64_t t = me; t < np; t += w) {
    const int32_t e = pos[t];
    if (e < 0) continue;
    const int32_t slot = one ? cnt[e]++ : strata_atomic_fetch_add_i32(&cnt[e], 1);
    ccol[slot] = (int32_t)t;
  }
  strata_team_barrier(team);
  STRATA_TEAM_VECTOR_RANGE(team, q, 0, nc) { /* bucket q: [cnt[q - 1], cnt[q]) after the slots */
    const int32_t b = q > 0 ? cnt[q - 1] : 0, e = cnt[q];
    strata_spgemm_sort_lane_i32(ccol + b, e - b);
    double sum = -0.0;
    for (int32_t j = b; j < e; ++j) sum += val[ccol[j]];
    a->c_val[cb + q] = sum;
  }
}

/* NUMERIC of medium rows by a walk in product order, B's rows unique: a team thread per row, C's
 * columns and an accumulator for C's row in thread scratch (STRATA_SPGEMM_MED_WALK_SCRATCH(nc_max));
 * A's entries one after another, the thread's lanes over the entry's B row (its columns distinct:
 * no two lanes meet), each product added at its column's place in C's row (a binary search in
 * scratch), a team barrier after each A entry (as many steps as the team's longest row of A). A's
 * entries (their B row bounds, value) are read a vector width at a time, one per lane, and handed
 * round by shuffles. The same terms in the same order as the product-order walk, from -0.0; a
 * product whose column is not in C's row is dropped. */
STRATA_TEAM_KERNEL(strata_spgemm_medium_walk, strata_spgemm_args_t, a, team) {
  const int64_t base = team->league_rank * team->team_size;
  int64_t most;
  STRATA_TEAM_THREAD_REDUCE(team, u, base, base + team->team_size, MAX, i64, most) {
    if (u < a->count) {
      const int32_t ru = a->rows[a->begin + u];
      const int64_t len = a->a_off[ru + 1] - a->a_off[ru];
      if (len > most) most = len;
    }
  }
  const int64_t i = base + team->team_rank;
  const int active = i < a->count;
  const int32_t r = active ? a->rows[a->begin + i] : 0;
  const int64_t cb = active ? a->c_off[r] : 0;
  int64_t nc = active ? a->c_off[r + 1] - cb : 0;
  if (nc > a->nc_max) nc = a->nc_max; /* only a C of another pattern than the plan's: scratch kept */
  const int64_t ab = active ? a->a_off[r] : 0, ae = active ? a->a_off[r + 1] : 0;
  double *acc = (double *)team->thread_scratch;
  int32_t *ccol = (int32_t *)(acc + a->nc_max);
  STRATA_THREAD_VECTOR_RANGE(team, q, 0, nc) {
    ccol[q] = a->c_col[cb + q];
    acc[q] = -0.0;
  }
  strata_team_barrier(team);
  const int64_t vl = team->vector_length;
  for (int64_t c0 = 0; c0 < most; c0 += vl) {
    const int64_t mine = ab + c0 + team->vector_rank;
    int64_t bb = 0, be = 0;
    double av = 0.0;
    if (mine < ae) {
      const int32_t k = a->a_col[mine];
      bb = a->b_off[k];
      be = a->b_off[k + 1];
      av = a->a_val[mine];
    }
    const int64_t nj = most - c0 < vl ? most - c0 : vl;
    for (int64_t j = 0; j < nj; ++j) {
      const int64_t jb = strata_thread_vector_shuffle_i64(team, bb, j);
      const int64_t je = strata_thread_vector_shuffle_i64(team, be, j);
      const double jv = strata_thread_vector_shuffle_f64(team, av, j);
      STRATA_THREAD_VECTOR_RANGE(team, q, jb, je) {
        const int32_t col = a->b_col[q];
        const int64_t e = strata_kl_lower_bound_i32(ccol, 0, nc, col);
        if (e < nc && ccol[e] == col) acc[e] += jv * a->b_val[q];
      }
      strata_team_barrier(team);
    }
  }
  STRATA_THREAD_VECTOR_RANGE(team, q, 0, nc) { a->c_val[cb + q] = acc[q]; }
}

/* A team per row. NUMERIC (B's rows not unique; else strata_spgemm_medium_walk): by buckets
 * (strata_spgemm_medium_numeric). COUNT / FILL: the products' (col · cap +
 * t, a · b) pairs sorted in team scratch, then a team scan over the sorted keys marks each column's
 * first key (its size, its columns). */
STRATA_TEAM_KERNEL(strata_spgemm_medium, strata_spgemm_args_t, a, team) {
  const int64_t cap = a->cap;
  int64_t *keys = (int64_t *)team->scratch;
  double *vals = (double *)(keys + cap);
  int64_t *start = (int64_t *)(vals + cap);
  const int32_t r = a->rows[a->begin + team->league_rank];
  if (a->mode == STRATA_SPGEMM_NUMERIC) {
    strata_spgemm_medium_numeric(team, a, r);
    return;
  }
  const int64_t np = strata_spgemm_gather(team, a, r, keys, NULL, start, NULL, 0, NULL);
  strata_team_sort_i64_f64(team, keys, vals, np);
  const int fill = a->mode == STRATA_SPGEMM_FILL;
  int32_t *out = fill ? a->c_col + a->c_off[r] : NULL;
  int64_t s;
  STRATA_TEAM_VECTOR_SCAN(team, t, 0, np, s, final) {
    const int first = t == 0 || keys[t] / cap != keys[t - 1] / cap;
    if (final && first && fill) out[s] = (int32_t)(keys[t] / cap);
    s += first;
  }
  if (!fill && strata_team_single(team)) a->c_off[r] = s;
}

/* ----------------------------------------------------------------------------- long rows */

/* Sorts a row's columns cols[0, n) ascending: a team of one (host backends) by heapsort, O(n log n)
 * compares; larger teams by the team sort network (vals [n] its companions, left unordered).
 * Every thread of the team calls it; it ends with a barrier. */
STRATA_KL_TEAM_FUNC void strata_spgemm_sort_cols(const strata_team_t *team, int32_t *cols, double *vals, int64_t n) {
  if (team->team_size * team->vector_length > 1) {
    strata_team_sort_i32_f64(team, cols, vals, n);
    return;
  }
  strata_spgemm_heapsort_i32(cols, n);
  strata_team_barrier(team);
}

/* A team per row (league ranks stride over the class's rows), a dense accumulator of n columns
 * per team in device memory. A's entries are taken one after another; the team's lanes share one
 * B row (its columns distinct when b_unique, so no two lanes meet), or one lane walks it.
 * COUNT / FILL: a column is new to the row when its tag is not the row's mark (count and fill use
 * different marks, so the tags need no clearing); FILL appends new columns through a counter in
 * team scratch, then sorts the row in place in C (strata_spgemm_sort_cols; the values serve as the
 * team sort's companions, zeroed afterwards by the host). NUMERIC: the accumulator at C's columns set to -0.0, the
 * products added, the row gathered. */
STRATA_TEAM_KERNEL(strata_spgemm_long, strata_spgemm_args_t, a, team) {
  const int64_t n = a->n;
  const int numeric = a->mode == STRATA_SPGEMM_NUMERIC, fill = a->mode == STRATA_SPGEMM_FILL;
  /* lanes over a B row when its columns are unique and the team has more than one participant */
  const int lanes = a->b_unique && team->team_size * team->vector_length > 1;
  int64_t *counter = (int64_t *)team->scratch;
  for (int64_t i = team->league_rank; i < a->count; i += team->league_size) {
    const int32_t r = a->rows[a->begin + i];
    const int64_t ab = a->a_off[r], ae = a->a_off[r + 1];
    if (numeric) {
      double *acc = a->acc + team->league_rank * n;
      const int64_t cb = a->c_off[r], ce = a->c_off[r + 1];
      STRATA_TEAM_VECTOR_RANGE(team, q, cb, ce) { acc[a->c_col[q]] = -0.0; }
      strata_team_barrier(team);
      for (int64_t p = ab; p < ae; ++p) {
        const int32_t k = a->a_col[p];
        const double av = a->a_val[p];
        const int64_t bb = a->b_off[k], be = a->b_off[k + 1];
        if (lanes) {
          STRATA_TEAM_VECTOR_RANGE(team, q, bb, be) { acc[a->b_col[q]] += av * a->b_val[q]; }
          strata_team_barrier(team);
        } else if (strata_team_single(team)) {
          for (int64_t q = bb; q < be; ++q) acc[a->b_col[q]] += av * a->b_val[q];
        }
      }
      strata_team_barrier(team);
      STRATA_TEAM_VECTOR_RANGE(team, q, cb, ce) { a->c_val[q] = acc[a->c_col[q]]; }
      strata_team_barrier(team);
      continue;
    }
    int32_t *tag = a->tag + team->league_rank * n;
    const int32_t mark = fill ? -(int32_t)(i + 1) : (int32_t)(i + 1);
    const int64_t cb = fill ? a->c_off[r] : 0;
    if (strata_team_single(team)) *counter = 0;
    strata_team_barrier(team);
    for (int64_t p = ab; p < ae; ++p) {
      const int32_t k = a->a_col[p];
      const int64_t bb = a->b_off[k], be = a->b_off[k + 1];
      if (lanes) {
        STRATA_TEAM_VECTOR_RANGE(team, q, bb, be) {
          const int32_t col = a->b_col[q];
          if (tag[col] != mark) {
            tag[col] = mark;
            const int64_t slot = strata_atomic_fetch_add_i64(counter, 1);
            if (fill) a->c_col[cb + slot] = col;
          }
        }
        strata_team_barrier(team);
      } else if (strata_team_single(team)) {
        int64_t cnt = *counter;
        for (int64_t q = bb; q < be; ++q) {
          const int32_t col = a->b_col[q];
          if (tag[col] != mark) {
            tag[col] = mark;
            if (fill) a->c_col[cb + cnt] = col;
            ++cnt;
          }
        }
        *counter = cnt;
      }
    }
    strata_team_barrier(team);
    if (fill)
      strata_spgemm_sort_cols(team, a->c_col + cb, a->c_val + cb, a->c_off[r + 1] - cb);
    else if (strata_team_single(team))
      a->c_off[r] = *counter;
    strata_team_barrier(team);
  }
}
