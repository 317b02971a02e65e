/* strata solvers — AMG interpolation (direct, standard, extended+i) with truncation, written once
 * for every backend; the formulas are in solvers/src/amg_interp.c. Per F row: the interpolation
 * set gathered into the row's segment, sorted and made unique, the distribution denominators s_k,
 * the lumped diagonal, the weights, then truncation (keep flags and the rescale). A thread per
 * row for short sets (strata_amg_interp_rows), a team per row for long ones
 * (strata_amg_interp_rows_team). Every sum runs in the same fixed order in both (ascending
 * positions of A's rows, one lane doing the sums a team needs), so that both give the same bits
 * and every backend equals serial bitwise; the team parallelizes the gather, the sort, the s_k of
 * the strong F neighbours and the weights of the candidates. */
#include <strata/kl.h>

#include "amg_interp_args.h"

/* ------------------------------------------------------------------ small helpers */

/* a has the sign opposite to the diagonal d (a zero diagonal counts as positive): the "negative"
 * couplings of an M-matrix row */
STRATA_KL_FUNC int strata_amg_opp(double a, double d) { return d < 0.0 ? a > 0.0 : a < 0.0; }

/* a_{row,col} (0 when not stored), by binary search in A's fill-complete row */
STRATA_KL_FUNC double strata_amg_entry(const strata_amg_interp_args_t *a, int64_t row, int64_t col) {
  const int64_t b = a->a_ro[row], e = a->a_ro[row + 1];
  const int64_t p = strata_kl_lower_bound_i32(a->a_ci, b, e, col);
  return p < e && (int64_t)a->a_ci[p] == col ? a->a_v[p] : 0.0;
}

/* col among the sorted set x [0, m) */
STRATA_KL_FUNC int strata_amg_in(const int32_t *x, int64_t m, int64_t col) {
  const int64_t p = strata_kl_lower_bound_i32(x, 0, m, col);
  return p < m && (int64_t)x[p] == col;
}

/* the strong C neighbours of row k (entries of S that are C points) */
STRATA_KL_FUNC int64_t strata_amg_strong_c(const strata_amg_interp_args_t *a, int64_t k) {
  int64_t c = 0;
  for (int64_t q = a->a_ro[k]; q < a->a_ro[k + 1]; ++q) c += a->strong[q] && a->cf[a->a_ci[q]] == 1;
  return c;
}

/* the candidates entry q of row i brings: itself when a strong C neighbour; ext+i: the strong C
 * neighbours of a strong F neighbour. out NULL: only their number. */
STRATA_KL_FUNC int64_t strata_amg_gather_entry(const strata_amg_interp_args_t *a, int64_t i, int64_t q, int32_t *out) {
  const int32_t c = a->a_ci[q];
  if (!a->strong[q] || (int64_t)c == i) return 0;
  if (a->cf[c] == 1) {
    if (out) out[0] = c;
    return 1;
  }
  if (a->method != STRATA_AMG_INTERP_K_EXT_I) return 0;
  if (!out) return strata_amg_strong_c(a, c);
  int64_t m = 0;
  for (int64_t r = a->a_ro[c]; r < a->a_ro[c + 1]; ++r)
    if (a->strong[r] && a->cf[a->a_ci[r]] == 1) out[m++] = a->a_ci[r];
  return m;
}

/* sorts x [0, m) ascending in place (insertion sort when short, heapsort else: no memory) and
 * removes repeats; returns the unique count */
STRATA_KL_FUNC int64_t strata_amg_sort_unique(int32_t *x, int64_t m) {
  if (m <= 24) {
    for (int64_t p = 1; p < m; ++p) {
      const int32_t v = x[p];
      int64_t q = p;
      for (; q > 0 && x[q - 1] > v; --q) x[q] = x[q - 1];
      x[q] = v;
    }
  } else {
    for (int64_t start = m / 2 - 1, end = m; end > 1;) { /* heapify, then pop */
      int64_t root;
      if (start >= 0) {
        root = start--;
      } else {
        --end;
        const int32_t t = x[0];
        x[0] = x[end];
        x[end] = t;
        root = 0;
      }
      for (int64_t child = 2 * root + 1; child < end; child = 2 * root + 1) {
        if (child + 1 < end && x[child + 1] > x[child]) ++child;
        if (x[root] >= x[child]) break;
        const int32_t t = x[root];
        x[root] = x[child];
        x[child] = t;
        root = child;
      }
    }
  }
  int64_t u = 0;
  for (int64_t p = 0; p < m; ++p)
    if (u == 0 || x[p] != x[u - 1]) x[u++] = x[p];
  return u;
}

/* ------------------------------------------------------------------ the formulas */

/* s_k for the strong F neighbour k of i: the sum of row k's entries of sign opposite to a_kk whose
 * columns lie in the set (standard: C_i; ext+i: Ĉ_i ∪ {i}), in row order */
STRATA_KL_FUNC double strata_amg_sk(const strata_amg_interp_args_t *a, int64_t i, int64_t k, const int32_t *set,
                                    int64_t m) {
  const double dk = a->diag[k];
  double s = 0.0;
  for (int64_t r = a->a_ro[k]; r < a->a_ro[k + 1]; ++r) {
    const int32_t c = a->a_ci[r];
    const double v = a->a_v[r];
    if ((int64_t)c == k || !strata_amg_opp(v, dk)) continue;
    if ((a->method == STRATA_AMG_INTERP_K_EXT_I && (int64_t)c == i) || strata_amg_in(set, m, c)) s += v;
  }
  return s;
}

/* is entry q of row i (column c, not the diagonal) a strong F neighbour */
STRATA_KL_FUNC int strata_amg_strong_f(const strata_amg_interp_args_t *a, int64_t i, int64_t q) {
  const int32_t c = a->a_ci[q];
  return a->strong[q] && (int64_t)c != i && a->cf[c] != 1;
}

/* The row's scalars: the lumped diagonal d and, for direct interpolation, alpha and beta. */
typedef struct strata_amg_row {
  double d, alpha, beta;
} strata_amg_row_t;

STRATA_KL_FUNC strata_amg_row_t strata_amg_row_scalars(const strata_amg_interp_args_t *a, int64_t i, const int32_t *set,
                                                       int64_t m) {
  strata_amg_row_t r;
  const double di = a->diag[i];
  r.d = di;
  r.alpha = 0.0;
  r.beta = 0.0;
  if (a->method == STRATA_AMG_INTERP_K_DIRECT) {
    double nn = 0.0, np = 0.0, pn = 0.0, pp = 0.0; /* N_i / P_i, negative / positive parts */
    for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q) {
      const int32_t c = a->a_ci[q];
      if ((int64_t)c == i) continue;
      const double v = a->a_v[q];
      const int neg = strata_amg_opp(v, di), in_p = a->strong[q] && a->cf[c] == 1;
      if (neg) {
        nn += v;
        if (in_p) pn += v;
      } else {
        np += v;
        if (in_p) pp += v;
      }
    }
    if (pn != 0.0)
      r.alpha = nn / pn;
    else
      r.d += nn;
    if (pp != 0.0)
      r.beta = np / pp;
    else
      r.d += np;
    return r;
  }
  for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q) {
    const int32_t c = a->a_ci[q];
    if ((int64_t)c == i || strata_amg_in(set, m, c)) continue; /* the diagonal (in d), interpolated */
    const double v = a->a_v[q];
    if (strata_amg_strong_f(a, i, q)) {
      const double s = a->sk[q];
      if (s == 0.0) {
        r.d += v; /* no coupling to the set: lumped */
      } else if (a->method == STRATA_AMG_INTERP_K_EXT_I) {
        const double aki = strata_amg_entry(a, c, i);
        if (strata_amg_opp(aki, a->diag[c])) r.d += v * aki / s; /* the "+i" part */
      }
    } else {
      r.d += v; /* weak, outside the set: lumped */
    }
  }
  return r;
}

/* the weight of candidate j of row i */
STRATA_KL_FUNC double strata_amg_weight(const strata_amg_interp_args_t *a, int64_t i, int64_t j, strata_amg_row_t r) {
  const double aij = strata_amg_entry(a, i, j);
  if (a->method == STRATA_AMG_INTERP_K_DIRECT)
    return -(strata_amg_opp(aij, a->diag[i]) ? r.alpha : r.beta) * aij / r.d;
  double num = aij;
  for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q) {
    if (!strata_amg_strong_f(a, i, q)) continue;
    const double s = a->sk[q];
    if (s == 0.0) continue;
    const int32_t k = a->a_ci[q];
    const double akj = strata_amg_entry(a, k, j);
    if (strata_amg_opp(akj, a->diag[k])) num += a->a_v[q] * akj / s;
  }
  return -num / r.d;
}

STRATA_KL_FUNC int strata_amg_good(double d) { return d != 0.0 && isfinite(d); }

/* truncation of w [0, m): entry p survives when |w_p| >= thr and, with a limit max_el on the nk
 * entries above the threshold, fewer than max_el of those beat it (larger |w|, or equal and
 * earlier) */
STRATA_KL_FUNC int64_t strata_amg_keep(const double *w, int64_t m, int64_t p, double thr, int64_t max_el, int64_t nk) {
  const double x = fabs(w[p]);
  if (!(x >= thr)) return 0;
  if (max_el == 0 || nk <= max_el) return 1;
  int64_t rank = 0;
  for (int64_t o = 0; o < m && rank < max_el; ++o) {
    const double y = fabs(w[o]);
    if (y >= thr && (y > x || (y == x && o < p))) ++rank;
  }
  return rank < max_el;
}

/* the factor that gives the kept entries the row's sum (1 when nothing was dropped or the kept
 * entries sum to 0); sums in order */
STRATA_KL_FUNC double strata_amg_rescale(const double *w, const int64_t *keep, int64_t m) {
  double all = 0.0, kept = 0.0;
  int dropped = 0;
  for (int64_t p = 0; p < m; ++p) {
    all += w[p];
    if (keep[p])
      kept += w[p];
    else
      dropped = 1;
  }
  return dropped && kept != 0.0 ? all / kept : 1.0;
}

/* device-only on GPUs (an atomic) */
STRATA_KL_TEAM_FUNC void strata_amg_refuse(const strata_amg_interp_args_t *a, int64_t i, double d) {
  a->dd[i] = d;
  strata_atomic_min_i64(a->bad_row, i);
}

/* ------------------------------------------------------------------ setup kernels */

/* cmap: the exclusive count of C points before i */
STRATA_SCAN_KERNEL(strata_amg_interp_cmap, strata_amg_interp_args_t, a, i, i64, partial, final) {
  const int c = a->cf[i] == 1;
  if (final) a->cmap[i] = c ? (int32_t)*partial : -1;
  *partial += c;
}

/* MIN: the first i whose cf is neither 1 nor -1 */
STRATA_REDUCE_KERNEL(strata_amg_interp_cf_check, strata_amg_interp_args_t, a, i, i64, acc) {
  if (a->cf[i] != 1 && a->cf[i] != -1 && i < *acc) *acc = i;
}

/* strong[], diag[]; MIN: the first row of S holding a column outside A's row (S's diagonal, if
 * stored, is not a strong connection) */
STRATA_REDUCE_KERNEL(strata_amg_interp_mark, strata_amg_interp_args_t, a, i, i64, acc) {
  const int64_t b = a->a_ro[i], e = a->a_ro[i + 1];
  int64_t q = b, missing = 0;
  double d = 0.0;
  for (int64_t p = b; p < e; ++p) {
    a->strong[p] = 0;
    if ((int64_t)a->a_ci[p] == i) d = a->a_v[p];
  }
  a->diag[i] = d;
  for (int64_t s = a->s_ro[i]; s < a->s_ro[i + 1]; ++s) {
    const int32_t c = a->s_ci[s];
    while (q < e && a->a_ci[q] < c) ++q;
    if (q < e && a->a_ci[q] == c) {
      if ((int64_t)c != i) a->strong[q] = 1;
    } else {
      missing = 1;
    }
  }
  if (missing && i < *acc) *acc = i;
}

/* bound[i]; MAX: the largest bound of an F row */
STRATA_REDUCE_KERNEL(strata_amg_interp_bound, strata_amg_interp_args_t, a, i, i64, acc) {
  int64_t c = 1;
  if (a->cf[i] != 1) {
    c = 0;
    for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q) c += strata_amg_gather_entry(a, i, q, NULL);
    if (c > *acc) *acc = c;
  }
  a->bound[i] = c;
}

/* long_rows: the F rows with bound >= long_min, ascending */
STRATA_SCAN_KERNEL(strata_amg_interp_long_list, strata_amg_interp_args_t, a, i, i64, partial, final) {
  const int l = a->cf[i] != 1 && a->bound[i] >= a->long_min;
  if (final && l) a->long_rows[*partial] = (int32_t)i;
  *partial += l;
}

/* ------------------------------------------------------------------ the rows */

/* a thread per row: C rows, and the F rows below long_min */
STRATA_FOR_KERNEL(strata_amg_interp_rows, strata_amg_interp_args_t, a, i) {
  const int64_t b = a->woff[i], nb = a->bound[i];
  int32_t *set = a->cand + b;
  double *w = a->w + b;
  int64_t *keep = a->keep + b;
  if (a->cf[i] == 1) {
    set[0] = (int32_t)i;
    w[0] = 1.0;
    keep[0] = 1;
    return;
  }
  if (nb >= a->long_min) return; /* the team kernel's */
  int64_t m = 0;
  for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q) m += strata_amg_gather_entry(a, i, q, set + m);
  m = strata_amg_sort_unique(set, m);
  for (int64_t p = 0; p < nb; ++p) keep[p] = 0;
  if (m == 0) return; /* nothing to interpolate from: an empty row */
  if (a->method != STRATA_AMG_INTERP_K_DIRECT)
    for (int64_t q = a->a_ro[i]; q < a->a_ro[i + 1]; ++q)
      if (strata_amg_strong_f(a, i, q)) a->sk[q] = strata_amg_sk(a, i, a->a_ci[q], set, m);
  const strata_amg_row_t r = strata_amg_row_scalars(a, i, set, m);
  a->dd[i] = r.d;
  if (!strata_amg_good(r.d)) {
    strata_amg_refuse(a, i, r.d);
    return;
  }
  double mx = 0.0;
  for (int64_t p = 0; p < m; ++p) {
    w[p] = strata_amg_weight(a, i, set[p], r);
    if (fabs(w[p]) > mx) mx = fabs(w[p]);
  }
  const double thr = a->trunc * mx;
  int64_t nk = 0;
  for (int64_t p = 0; p < m; ++p) nk += fabs(w[p]) >= thr;
  for (int64_t p = 0; p < m; ++p) keep[p] = strata_amg_keep(w, m, p, thr, a->max_elements, nk);
  const double scale = strata_amg_rescale(w, keep, m);
  if (scale != 1.0)
    for (int64_t p = 0; p < m; ++p)
      if (keep[p]) w[p] *= scale;
}

/* a team per long F row (long_rows): the same results as the thread kernel, bit for bit */
STRATA_TEAM_KERNEL(strata_amg_interp_rows_team, strata_amg_interp_args_t, a, team) {
  const int64_t i = a->long_rows[team->league_rank];
  const int64_t b = a->woff[i], nb = a->bound[i], rb = a->a_ro[i], re = a->a_ro[i + 1];
  int32_t *set = a->cand + b;
  double *w = a->w + b;
  int64_t *keep = a->keep + b;
  /* gather: each team thread the candidates of its entries of row i, at their scanned offsets */
  int64_t s;
  STRATA_TEAM_THREAD_SCAN(team, q, rb, re, s, final) {
    if (final && strata_thread_single(team))
      strata_amg_gather_entry(a, i, q, set + s);
    s += strata_amg_gather_entry(a, i, q, NULL);
  }
  strata_team_barrier(team);
  int64_t m;
  if (nb <= a->scratch_cap) { /* sort in scratch, then the first of each run back */
    int32_t *keys = (int32_t *)team->scratch, *vals = keys + a->scratch_cap;
    STRATA_TEAM_VECTOR_RANGE(team, p, 0, nb) {
      keys[p] = set[p];
      vals[p] = 0;
    }
    strata_team_sort_i32_i32(team, keys, vals, nb);
    STRATA_TEAM_VECTOR_SCAN(team, p, 0, nb, m, final) {
      const int first = p == 0 || keys[p] != keys[p - 1];
      if (final && first) set[m] = keys[p];
      m += first;
    }
  } else { /* beyond the scratch: one lane sorts the segment in place */
    int64_t u = 0;
    if (strata_team_single(team)) u = strata_amg_sort_unique(set, nb);
    m = strata_team_broadcast_i64(team, u);
  }
  STRATA_TEAM_VECTOR_RANGE(team, p, 0, nb) { keep[p] = 0; }
  if (m == 0) return; /* uniform over the team */
  strata_team_barrier(team);
  if (a->method != STRATA_AMG_INTERP_K_DIRECT) {
    STRATA_TEAM_THREAD_RANGE(team, q, rb, re) {
      if (strata_amg_strong_f(a, i, q)) {
        const double v = strata_amg_sk(a, i, a->a_ci[q], set, m);
        if (strata_thread_single(team)) a->sk[q] = v;
      }
    }
    strata_team_barrier(team);
  }
  const strata_amg_row_t r = strata_amg_row_scalars(a, i, set, m); /* every lane, the same bits */
  if (!strata_amg_good(r.d)) {
    if (strata_team_single(team)) strata_amg_refuse(a, i, r.d);
    return; /* uniform */
  }
  if (strata_team_single(team)) a->dd[i] = r.d;
  STRATA_TEAM_VECTOR_RANGE(team, p, 0, m) { w[p] = strata_amg_weight(a, i, set[p], r); }
  strata_team_barrier(team);
  double mx;
  STRATA_TEAM_VECTOR_REDUCE(team, p, 0, m, MAX, f64, mx) {
    if (fabs(w[p]) > mx) mx = fabs(w[p]);
  }
  const double thr = a->trunc * mx;
  int64_t nk;
  STRATA_TEAM_VECTOR_REDUCE(team, p, 0, m, SUM, i64, nk) { nk += fabs(w[p]) >= thr; }
  STRATA_TEAM_VECTOR_RANGE(team, p, 0, m) { keep[p] = strata_amg_keep(w, m, p, thr, a->max_elements, nk); }
  strata_team_barrier(team);
  const double scale = strata_amg_rescale(w, keep, m); /* every lane, in order */
  strata_team_barrier(team);
  if (scale != 1.0) {
    STRATA_TEAM_VECTOR_RANGE(team, p, 0, m) {
      if (keep[p]) w[p] *= scale;
    }
  }
}

/* ------------------------------------------------------------------ P */

/* P's row offsets: the scanned keep flags at each segment's start */
STRATA_FOR_KERNEL(strata_amg_interp_offsets, strata_amg_interp_args_t, a, i) {
  const int64_t o = a->woff[i];
  a->p_ro[i] = o < a->total_w ? a->pos[o] : a->nnz_p;
}

/* the kept entries into P: coarse column, weight */
STRATA_FOR_KERNEL(strata_amg_interp_fill, strata_amg_interp_args_t, a, p) {
  const int64_t at = a->pos[p], next = p + 1 < a->total_w ? a->pos[p + 1] : a->nnz_p;
  if (next == at) return;
  a->p_ci[at] = a->cmap[a->cand[p]];
  a->p_v[at] = a->w[p];
}
