/* strata solvers — ILU(k) numeric phase (strata/ilu.h), written once for every backend: the
 * diagonal positions, A's values onto the factors' pattern, the rows of one dependency level by
 * IKJ (a thread per row, in a fixed order: the same bits on every backend and thread count), the
 * pivot check, and the Chow–Patel sweeps. */
#include <strata/kl.h>

#include "ilu_args.h"
#include "level_walk.h"

STRATA_KL_FUNC int strata_ilu_good_pivot(double u) { return u != 0.0 && isfinite(u); }

STRATA_REDUCE_KERNEL(strata_ilu_diag, strata_ilu_diag_args_t, a, i, i64, acc) {
  const int64_t b = a->row_offsets[i], e = a->row_offsets[i + 1];
  const int64_t p = strata_kl_lower_bound_i32(a->col_indices, b, e, i);
  const int has = p < e && (int64_t)a->col_indices[p] == i;
  if (a->diag_pos) a->diag_pos[i] = has ? p : -1;
  if (!has && i < *acc) *acc = i;
}

STRATA_REDUCE_KERNEL(strata_ilu_init, strata_ilu_init_args_t, a, i, i64, acc) {
  const int64_t b = a->lu_offsets[i], e = a->lu_offsets[i + 1];
  for (int64_t q = b; q < e; ++q) a->lu_vals[q] = 0.0;
  int64_t q = b;
  for (int64_t k = a->a_offsets[i]; k < a->a_offsets[i + 1]; ++k) {
    const int32_t c = a->a_cols[k];
    while (q < e && a->lu_cols[q] < c) ++q;
    if (q < e && a->lu_cols[q] == c)
      a->lu_vals[q] = a->a_vals[k];
    else
      *acc += 1;
  }
  const int64_t d = a->diag_pos[i];
  if (a->shift != 0.0) a->lu_vals[d] += a->shift * fabs(a->lu_vals[d]);
}

/* The next column that row k's U part (ci[*jj], *jj below kend) and row i's pattern (ci[*q], *q
 * below e) share, both ascending: 1 with *jj and *q at it, 0 when there is none left. IKJ's merge,
 * for the launches without lists and for making the lists. */
STRATA_KL_FUNC int strata_ilu_next_shared(const int32_t *ci, int64_t *jj, int64_t kend, int64_t *q, int64_t e) {
  for (; *jj < kend; ++*jj) {
    const int32_t j = ci[*jj];
    while (*q < e && ci[*q] < j) ++*q;
    if (*q == e) return 0;
    if (ci[*q] == j) return 1;
  }
  return 0;
}

STRATA_FOR_KERNEL(strata_ilu_rows, strata_ilu_rows_args_t, a, idx) {
  const int64_t pb = a->begin + idx * a->per, pe = pb + a->per < a->end ? pb + a->per : a->end;
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  double *v = a->vals;
  for (int64_t p = pb; p < pe; ++p) {
    const int64_t i = a->perm[p];
    const int64_t d = a->diag_pos[i], e = ro[i + 1];
    if (a->list) { /* the update list: no search, each pair's positions known */
      const int64_t *L = a->list + 2 * a->list_start[i];
      for (int64_t kk = ro[i]; kk < d; ++kk) {
        const double piv = v[L[0]];
        const int64_t c = L[1];
        const int64_t *u = L + 2;
        L = u + 2 * c;
        if (!strata_ilu_good_pivot(piv)) {
          v[kk] = 0.0;
          continue;
        }
        const double l = v[kk] / piv;
        v[kk] = l;
        for (int64_t t = 0; t < c; ++t) v[ro[i] + u[2 * t + 1]] -= l * v[u[2 * t]];
      }
      continue;
    }
    for (int64_t kk = ro[i]; kk < d; ++kk) {
      const int64_t k = ci[kk];
      const double piv = v[a->diag_pos[k]];
      if (!strata_ilu_good_pivot(piv)) {
        v[kk] = 0.0;
        continue;
      }
      const double l = v[kk] / piv;
      v[kk] = l;
      int64_t q = kk + 1; /* row k's U part, merged with row i */
      for (int64_t jj = a->diag_pos[k] + 1; strata_ilu_next_shared(ci, &jj, ro[k + 1], &q, e); ++jj) v[q] -= l * v[jj];
    }
  }
}

/* Row i's update list (strata_ilu_list_args_t): the merges of strata_ilu_rows, their hits kept. */
STRATA_FOR_KERNEL(strata_ilu_list, strata_ilu_list_args_t, a, i) {
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  const int64_t d = a->diag_pos[i], e = ro[i + 1];
  int64_t *out = a->list ? a->list + 2 * a->list_start[i] : NULL;
  int64_t m = 0;
  for (int64_t kk = ro[i]; kk < d; ++kk) {
    const int64_t k = ci[kk], dk = a->diag_pos[k], h = m++;
    int64_t c = 0, q = kk + 1;
    for (int64_t jj = dk + 1; strata_ilu_next_shared(ci, &jj, ro[k + 1], &q, e); ++jj, ++m, ++c)
      if (out) {
        out[2 * m] = jj;
        out[2 * m + 1] = q - ro[i];
      }
    if (out) {
      out[2 * h] = dk;
      out[2 * h + 1] = c;
    }
  }
  if (!out) a->len[i] = m;
}

STRATA_REDUCE_KERNEL(strata_ilu_check, strata_ilu_check_args_t, a, i, i64, acc) {
  int bad = !strata_ilu_good_pivot(a->vals[a->diag_pos[i]]);
  for (int64_t q = a->row_offsets[i]; q < a->row_offsets[i + 1] && !bad; ++q) bad = !isfinite(a->vals[q]);
  if (!bad) return;
  if (a->count)
    *acc += 1;
  else if (i < *acc)
    *acc = i;
}

STRATA_FOR_KERNEL(strata_ilu_sweep, strata_ilu_sweep_args_t, a, i) {
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  for (int64_t q = ro[i]; q < ro[i + 1]; ++q) {
    const int64_t j = ci[q];
    if (a->scale) {
      const double d = a->a0[a->diag_pos[j]];
      a->out[q] = j < i ? (strata_ilu_good_pivot(d) ? a->a0[q] / d : 0.0) : a->a0[q];
      continue;
    }
    const int64_t m = j < i ? j : i;
    double s = a->a0[q];
    for (int64_t kk = ro[i]; kk < ro[i + 1] && ci[kk] < m; ++kk) {
      const int64_t k = ci[kk];
      const int64_t p = strata_kl_lower_bound_i32(ci, a->diag_pos[k] + 1, ro[k + 1], j);
      if (p < ro[k + 1] && (int64_t)ci[p] == j) s -= a->in[kk] * a->in[p];
    }
    if (j < i) {
      const double d = a->in[a->diag_pos[j]];
      a->out[q] = strata_ilu_good_pivot(d) ? s / d : 0.0;
    } else {
      a->out[q] = s;
    }
  }
}

STRATA_REDUCE_KERNEL(strata_ilu_row_max, strata_ilu_row_max_args_t, a, i, i64, acc) {
  const int64_t len = a->row_offsets[i + 1] - a->row_offsets[i];
  if (len > *acc) *acc = len;
}

/* ILU's walk: one row by IKJ from its update list. Lane j holds the row's entries j, j + V, ...
 * (slot s: entry j + sV, starting as A's value) and the list's elements j, j + V, ... with their
 * values read first, every load issued before any wait (the pivots u_kk and the u_kj, all of
 * earlier levels); then for each k of L's part, ascending: the header's pivot and count and a_ik
 * shuffled to all lanes, l = a_ik / u_kk, and each pair's (u_kj, position) shuffled from the lane
 * holding it and subtracted by the lane holding (i, j): strata_ilu_rows' arithmetic, in its order. */
#define ILU_WALK_SLOTS (STRATA_KL_VECTOR_MAX > 1 ? STRATA_ILU_WALK_SLOTS_GPU : STRATA_ILU_WALK_SLOTS_HOST)
STRATA_KL_TEAM_FUNC double strata_ilu_slot_f64(const double *x, int64_t s) {
  double r = 0.0;
  for (int t = 0; t < ILU_WALK_SLOTS; ++t)
    if (t == s) r = x[t];
  return r;
}
STRATA_KL_TEAM_FUNC int32_t strata_ilu_slot_i32(const int32_t *x, int64_t s) {
  int32_t r = 0;
  for (int t = 0; t < ILU_WALK_SLOTS; ++t)
    if (t == s) r = x[t];
  return r;
}
STRATA_KL_TEAM_FUNC void strata_ilu_walk_row(const strata_ilu_walk_args_t *a, const strata_team_t *team, int64_t p) {
  const int64_t V = team->vector_length, j = team->vector_rank;
  const int64_t i = a->perm[p];
  const int64_t rb = a->row_offsets[i], re = a->row_offsets[i + 1], d = a->diag_pos[i];
  const int64_t ls = a->list_start[i], len = a->list_start[i + 1] - ls;
  const int64_t *el = a->list + 2 * ls;
  double v[ILU_WALK_SLOTS], u[ILU_WALK_SLOTS];
  int32_t w[ILU_WALK_SLOTS];
  for (int s = 0; s < ILU_WALK_SLOTS; ++s) {
    const int64_t q = rb + j + s * V, e = j + s * V;
    v[s] = q < re ? a->a0[q] : 0.0;
    u[s] = e < len ? strata_atomic_load_f64(a->out + el[2 * e]) : 0.0;
    w[s] = e < len ? (int32_t)el[2 * e + 1] : 0;
  }
  for (int s = 0; s < ILU_WALK_SLOTS; ++s) {
    const int64_t e = j + s * V;
    if (e < len && strata_kl_f64_as_u64(u[s]) == STRATA_ILU_UNSET) u[s] = strata_walk_wait_f64(a->out + el[2 * e], STRATA_ILU_UNSET);
  }
  int64_t e = 0;
  for (int64_t m = 0; m < d - rb; ++m) {
    const double piv = strata_thread_vector_shuffle_f64(team, strata_ilu_slot_f64(u, e / V), e % V);
    const int32_t c = strata_thread_vector_shuffle_i32(team, strata_ilu_slot_i32(w, e / V), e % V);
    const double aik = strata_thread_vector_shuffle_f64(team, strata_ilu_slot_f64(v, m / V), m % V);
    const int good = strata_ilu_good_pivot(piv);
    const double l = good ? aik / piv : 0.0;
    if (j == m % V)
      for (int s = 0; s < ILU_WALK_SLOTS; ++s)
        if (s == m / V) v[s] = l;
    for (int64_t t = good ? 1 : c + 1; t <= c; ++t) {
      const int64_t f = e + t;
      const double ukj = strata_thread_vector_shuffle_f64(team, strata_ilu_slot_f64(u, f / V), f % V);
      const int32_t q = strata_thread_vector_shuffle_i32(team, strata_ilu_slot_i32(w, f / V), f % V);
      if (j == q % V)
        for (int s = 0; s < ILU_WALK_SLOTS; ++s)
          if (s == q / V) v[s] -= l * ukj;
    }
    e += 1 + c;
  }
  for (int s = 0; s < ILU_WALK_SLOTS; ++s) {
    const int64_t q = rb + j + s * V;
    if (q >= re) break;
    double x = v[s];
    if (q < d) {
      a->out[q] = x;
    } else {
      if (strata_kl_f64_as_u64(x) == STRATA_ILU_UNSET) x = strata_kl_u64_as_f64(STRATA_ILU_QNAN);
      strata_atomic_exchange_f64(a->out + q, x);
    }
  }
}

/* ILU's walk (strata_ilu_walk_args_t): chunks by ticket, each level by level with a team barrier
 * between levels, as the triangular solve's WALK (sptrsv.kl.c says why it cannot deadlock). */
STRATA_TEAM_KERNEL(strata_ilu_walk, strata_ilu_walk_args_t, a, team) {
  const int64_t T = team->team_size;
  for (;;) {
    const int64_t b = strata_walk_take_chunk(team, a->ticket, a->chunk);
    if (b >= a->n) break;
    const int64_t e = b + a->chunk < a->n ? b + a->chunk : a->n;
    const int64_t mine = b + team->team_rank;
    int64_t l = strata_walk_level_of(a->bounds, a->num_levels, b);
    for (int64_t s = b; s < e; ++l) {
      const int64_t se = a->bounds[l + 1] < e ? a->bounds[l + 1] : e;
      for (int64_t p = strata_walk_first_at(mine, T, s); p < se; p += T) strata_ilu_walk_row(a, team, p);
      strata_team_barrier(team);
      s = se;
    }
  }
}
