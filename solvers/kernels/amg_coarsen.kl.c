/* strata solvers — AMG's strength of connection and C/F splitting kernels (solvers/src/
 * amg_strength.c, amg_coarsen.c). Every kernel pulls: a point writes only its own entries (and its
 * own St row's edge flags), reading its neighbours' state from the round before, so the result is
 * the same on every backend and thread count. */
#include <strata/kl.h>

#include "amg_coarsen_args.h"

/* ------------------------------------------------------------------ strength */

STRATA_FOR_KERNEL(strata_amg_strength_rows, strata_amg_strength_args_t, a, i) {
  const int64_t b = a->row_offsets[i], e = a->row_offsets[i + 1];
  double diag = 0.0, sum = 0.0;
  for (int64_t k = b; k < e; ++k) {
    sum += a->values[k];
    if (a->col_indices[k] == (int32_t)i) diag += a->values[k];
  }
  const double s = diag < 0.0 ? 1.0 : -1.0; /* s·a_ij > 0 for a connection of the "right" sign */
  double m = 0.0;
  for (int64_t k = b; k < e; ++k)
    if (a->col_indices[k] != (int32_t)i && s * a->values[k] > m) m = s * a->values[k];
  const int weak = !(m > 0.0) || (a->max_row_sum < 1.0 && fabs(sum) > a->max_row_sum * fabs(diag));
  const double thr = a->theta * m;
  int64_t c = 0, o = a->cols ? a->offsets[i] : 0;
  if (!weak)
    for (int64_t k = b; k < e; ++k) {
      const int32_t j = a->col_indices[k];
      if (j == (int32_t)i || !(s * a->values[k] >= thr)) continue;
      if (a->cols) {
        a->cols[o] = j;
        a->vals[o] = 1.0;
        ++o;
      }
      ++c;
    }
  if (!a->cols) a->counts[i] = c;
}

/* ------------------------------------------------------------------ coarsening */

/* The counter-based random numbers of PMIS and CLJP: splitmix64's output for counter i + 1 of
 * the stream whose state is mix(seed) — the same 64 bits on every backend. The weight's random
 * part in [0, 1) is this value times 2⁻⁶⁴ (compared as the integer). */
STRATA_KL_FUNC uint64_t strata_amg_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
STRATA_KL_FUNC uint64_t strata_amg_hash(uint64_t seed, uint64_t i) {
  return strata_amg_mix64(strata_amg_mix64(seed) + (i + 1) * 0x9e3779b97f4a7c15ull);
}

/* An isolated point: no strong influencer (an empty row of S). */
STRATA_KL_FUNC int strata_amg_isolated(const strata_amg_graph_t *g, int64_t i) {
  for (int64_t k = g->s_ro[i]; k < g->s_ro[i + 1]; ++k)
    if (g->s_ci[k] != (int32_t)i) return 0;
  return 1;
}

STRATA_FOR_KERNEL(strata_amg_init, strata_amg_init_args_t, a, i) {
  a->cf[i] = strata_amg_isolated(&a->g, i) ? -1 : 0;
  if (a->lam) {
    int32_t c = 0;
    for (int64_t k = a->g.t_ro[i]; k < a->g.t_ro[i + 1]; ++k) c += a->g.t_ci[k] != (int32_t)i;
    a->lam[i] = c;
  }
}

STRATA_FOR_KERNEL(strata_amg_tpos, strata_amg_tpos_args_t, a, j) {
  for (int64_t q = a->g.t_ro[j]; q < a->g.t_ro[j + 1]; ++q) {
    const int32_t k = a->g.t_ci[q];
    a->tpos[q] = strata_kl_lower_bound_i32(a->g.s_ci, a->g.s_ro[k], a->g.s_ro[k + 1], j);
  }
}

/* Does i (weight wi, tie ti) beat j? */
STRATA_KL_FUNC int strata_amg_beats(const strata_amg_select_args_t *a, int64_t i, int32_t wi, uint64_t ti, int64_t j) {
  const int32_t wj = a->w[j];
  if (wi != wj) return wi > wj;
  const uint64_t tj = strata_amg_hash(a->seed, (uint64_t)j >> a->block_shift);
  if (ti != tj) return ti > tj;
  return a->small_index ? i < j : i > j;
}

STRATA_FOR_KERNEL(strata_amg_select, strata_amg_select_args_t, a, i) {
  int win = a->state[i] == 0;
  if (win) {
    const int32_t wi = a->w[i];
    const uint64_t ti = strata_amg_hash(a->seed, (uint64_t)i >> a->block_shift);
    for (int64_t k = a->g.s_ro[i]; win && k < a->g.s_ro[i + 1]; ++k) {
      const int32_t j = a->g.s_ci[k];
      if (j == (int32_t)i || a->state[j] != 0 || (a->alive && !a->alive[k])) continue;
      win = strata_amg_beats(a, i, wi, ti, j);
    }
    for (int64_t q = a->g.t_ro[i]; win && q < a->g.t_ro[i + 1]; ++q) {
      const int32_t j = a->g.t_ci[q];
      if (j == (int32_t)i || a->state[j] != 0 || (a->alive && !a->alive[a->g.tpos[q]])) continue;
      win = strata_amg_beats(a, i, wi, ti, j);
    }
  }
  a->cand[i] = win;
}

STRATA_REDUCE_KERNEL(strata_amg_apply, strata_amg_apply_args_t, a, i, i64, acc) {
  int32_t c = a->cf[i];
  if (a->cand[i]) {
    c = 1;
  } else if (c == 0 && a->mark_f) {
    for (int64_t k = a->g.s_ro[i]; k < a->g.s_ro[i + 1]; ++k)
      if (a->g.s_ci[k] != (int32_t)i && a->cand[a->g.s_ci[k]]) {
        c = -1;
        break;
      }
  }
  a->cf[i] = c;
  *acc += c == 0;
}

STRATA_FOR_KERNEL(strata_amg_measure, strata_amg_measure_args_t, a, k) {
  if (a->cf[k] != 0) return;
  int32_t m = 0;
  for (int64_t q = a->g.t_ro[k]; q < a->g.t_ro[k + 1]; ++q) {
    const int32_t j = a->g.t_ci[q];
    if (j == (int32_t)k) continue;
    m += a->cf[j] == 0 ? 1 : a->cf[j] == -1 ? 2 : 0;
  }
  a->lam[k] = m;
}

/* The merge of two sorted rows of S, positions *p < pe and *r < re: advances to the next column
 * the two share (*p, *r at it; 1), or to the end (0). The caller steps past a match. */
STRATA_KL_FUNC int strata_amg_next_common(const int32_t *ci, int64_t *p, int64_t pe, int64_t *r, int64_t re) {
  while (*p < pe && *r < re) {
    if (ci[*p] < ci[*r])
      ++*p;
    else if (ci[*r] < ci[*p])
      ++*r;
    else
      return 1;
  }
  return 0;
}

/* CLJP's second rule for the edge k -> j: a new C point i != j with k -> i and j -> i both still
 * in the graph. */
STRATA_KL_FUNC int strata_amg_cljp_common(const strata_amg_cljp_args_t *a, int32_t k, int32_t j) {
  int64_t p = a->g.s_ro[k], r = a->g.s_ro[j];
  for (; strata_amg_next_common(a->g.s_ci, &p, a->g.s_ro[k + 1], &r, a->g.s_ro[j + 1]); ++p, ++r) {
    const int32_t x = a->g.s_ci[p];
    if (x != j && x != k && a->cand[x] && a->alive0[p] && a->alive0[r]) return 1;
  }
  return 0;
}

STRATA_REDUCE_KERNEL(strata_amg_cljp_update, strata_amg_cljp_args_t, a, j, i64, acc) {
  const int cj = a->cand[j];
  int32_t dec = 0;
  for (int64_t q = a->g.t_ro[j]; q < a->g.t_ro[j + 1]; ++q) {
    const int32_t k = a->g.t_ci[q];
    if (k == (int32_t)j) continue;
    const int64_t p = a->g.tpos[q];
    int keep = a->alive0[p] != 0;
    if (!keep) {
      /* removed in an earlier round */
    } else if (a->cand[k]) { /* rule 1: k, a new C point, needs no interpolation from j */
      keep = 0;
      ++dec;
    } else if (cj) { /* k depends on the new C point j: that dependence is met */
      keep = 0;
    } else if (strata_amg_cljp_common(a, k, (int32_t)j)) { /* rule 2: k reaches j through a new C point */
      keep = 0;
      ++dec;
    }
    a->alive1[p] = keep;
  }
  int32_t c = a->cf[j];
  if (cj) {
    c = 1;
  } else if (c == 0) {
    const int32_t w = a->lam[j] - dec;
    a->lam[j] = w;
    if (w <= 0) /* weight w + r < 1: F, when it has a C point to interpolate from */
      for (int64_t k = a->g.s_ro[j]; k < a->g.s_ro[j + 1]; ++k) {
        const int32_t x = a->g.s_ci[k];
        if (x != (int32_t)j && (a->cf[x] == 1 || a->cand[x])) {
          c = -1;
          break;
        }
      }
  }
  a->cf1[j] = c;
  *acc += c == 0;
}

/* Do x and y (y ∈ S_x) form a strong F–F pair without a common strong C point? (An isolated y
 * has nothing to interpolate: no pair.) */
STRATA_KL_FUNC int strata_amg_ff_bad(const strata_amg_ffpairs_args_t *a, int32_t x, int32_t y) {
  if (x == y || a->cf[x] != -1 || a->cf[y] != -1 || strata_amg_isolated(&a->g, y)) return 0;
  int64_t p = a->g.s_ro[x], r = a->g.s_ro[y];
  for (; strata_amg_next_common(a->g.s_ci, &p, a->g.s_ro[x + 1], &r, a->g.s_ro[y + 1]); ++p, ++r)
    if (a->cf[a->g.s_ci[p]] == 1) return 0;
  return 1;
}

STRATA_REDUCE_KERNEL(strata_amg_ffpairs, strata_amg_ffpairs_args_t, a, i, i64, acc) {
  int32_t v = 0;
  for (int64_t k = a->g.s_ro[i]; k < a->g.s_ro[i + 1]; ++k) v += strata_amg_ff_bad(a, (int32_t)i, a->g.s_ci[k]);
  for (int64_t q = a->g.t_ro[i]; q < a->g.t_ro[i + 1]; ++q) v += strata_amg_ff_bad(a, a->g.t_ci[q], (int32_t)i);
  a->v[i] = v;
  a->state[i] = v > 0 ? 0 : 1;
  *acc += v;
}

STRATA_FOR_KERNEL(strata_amg_mark_c, strata_amg_mark_c_args_t, a, i) { a->cand[i] = a->cf[i] == 1; }

STRATA_REDUCE_KERNEL(strata_amg_count_c, strata_amg_count_args_t, a, i, i64, acc) { *acc += a->cf[i] == 1; }
