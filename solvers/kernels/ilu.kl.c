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
        for (int64_t t = 0; t < c; ++t) v[u[2 * t + 1]] -= l * v[u[2 * t]];
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
      int64_t q = kk + 1;
      for (int64_t jj = a->diag_pos[k] + 1; jj < ro[k + 1]; ++jj) { /* row k's U part, merged with row i */
        const int32_t j = ci[jj];
        while (q < e && ci[q] < j) ++q;
        if (q == e) break;
        if (ci[q] == j) v[q] -= l * v[jj];
      }
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
    for (int64_t jj = dk + 1; jj < ro[k + 1]; ++jj) {
      const int32_t j = ci[jj];
      while (q < e && ci[q] < j) ++q;
      if (q == e) break;
      if (ci[q] == j) {
        if (out) {
          out[2 * m] = jj;
          out[2 * m + 1] = q;
        }
        ++m, ++c;
      }
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

/* ILU's walk: one row by IKJ, its entries in the lanes' registers (slot s of lane j: entry
 * rb + j + s V). For each k of L's part, ascending: the pivot and U(k) read from out (each value
 * waited for), l = a_ik / u_kk by the lane holding a_ik, then every U(k) entry shuffled to all lanes
 * and subtracted where row i has its column: the order of strata_ilu_rows, entry by entry. */
STRATA_KL_TEAM_FUNC void strata_ilu_walk_row(const strata_ilu_walk_args_t *a, const strata_team_t *team, int64_t p) {
  const int64_t V = team->vector_length, j = team->vector_rank;
  const int64_t *ro = a->row_offsets;
  const int32_t *ci = a->col_indices;
  const int64_t i = a->perm[p];
  const int64_t rb = ro[i], re = ro[i + 1], d = a->diag_pos[i];
  int32_t c[STRATA_ILU_WALK_SLOTS];
  double v[STRATA_ILU_WALK_SLOTS];
  int64_t dk[STRATA_ILU_WALK_SLOTS], ek[STRATA_ILU_WALK_SLOTS];
  /* what no other row writes, read before any wait: the row, and for its L part each k's U range */
  for (int s = 0; s < STRATA_ILU_WALK_SLOTS; ++s) {
    const int64_t q = rb + j + s * V;
    c[s] = q < re ? ci[q] : -1;
    v[s] = q < re ? a->a0[q] : 0.0;
    dk[s] = q < d ? a->diag_pos[c[s]] : 0;
    ek[s] = q < d ? ro[c[s] + 1] : 0;
  }
  for (int64_t m = 0; m < d - rb; ++m) {
    const int64_t om = m % V, sm = m / V;
    int64_t mydk = 0, myek = 0;
    double mya = 0.0;
    for (int s = 0; s < STRATA_ILU_WALK_SLOTS; ++s)
      if (s == sm) {
        mydk = dk[s];
        myek = ek[s];
        mya = v[s];
      }
    const int64_t kd = strata_thread_vector_shuffle_i64(team, mydk, om);
    const int64_t ke = strata_thread_vector_shuffle_i64(team, myek, om);
    double l = 0.0;
    int good = 0;
    for (int64_t base = kd; base < ke; base += V) {
      const int64_t t = base + j;
      int32_t uc = -1;
      double uv = 0.0;
      if (t < ke) {
        uc = ci[t];
        uv = strata_atomic_load_f64(a->out + t);
        while (strata_kl_f64_as_u64(uv) == STRATA_ILU_UNSET) uv = strata_atomic_load_f64(a->out + t);
      }
      if (base == kd) { /* lane 0 holds the pivot u_kk */
        const double piv = strata_thread_vector_shuffle_f64(team, uv, 0);
        good = strata_ilu_good_pivot(piv);
        l = good ? mya / piv : 0.0;
        l = strata_thread_vector_shuffle_f64(team, l, om);
        if (j == om)
          for (int s = 0; s < STRATA_ILU_WALK_SLOTS; ++s)
            if (s == sm) v[s] = l;
      }
      if (!good) break;
      const int64_t cnt = ke - base < V ? ke - base : V;
      for (int64_t tt = base == kd ? 1 : 0; tt < cnt; ++tt) {
        const int32_t cc = strata_thread_vector_shuffle_i32(team, uc, tt);
        const double u = strata_thread_vector_shuffle_f64(team, uv, tt);
        for (int s = 0; s < STRATA_ILU_WALK_SLOTS; ++s)
          if (c[s] == cc) v[s] -= l * u;
      }
    }
  }
  for (int s = 0; s < STRATA_ILU_WALK_SLOTS; ++s) {
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
