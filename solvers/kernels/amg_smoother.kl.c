/* strata solvers — AMG smoother kernels (solvers/src/amg_smoother.c, amg_coloring.c): Jacobi and
 * Chebyshev steps, hybrid and multicolor Gauss–Seidel sweeps, the Lanczos product of the
 * eigenvalue estimate, the Jones–Plassmann colouring. Every multiply-add of the smoothing steps is
 * an explicit fma(): nvcc would otherwise contract some of them and not others, and serial's
 * host code (no FMA contraction without -mfma) would differ from CUDA's in the last bits; with
 * fma() every backend rounds the same way (bitwise the same results). */
#include <strata/kl.h>

#include "amg_smoother_args.h"

/* splitmix64 finalizer: the hashed priorities and start vectors (the same bits on every backend) */
STRATA_KL_FUNC uint64_t strata_amg_sm_hash(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* dinv_i (b_i - Σ_j a_ij x_j), the sum in storage order */
STRATA_KL_FUNC double strata_amg_sm_residual(const strata_amg_sm_step_args_t *a, int64_t i) {
  if (a->x_zero) return a->dinv[i] * a->b[i];
  double s = a->b[i];
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) s = fma(-a->vals[k], a->x[a->cols[k]], s);
  return a->dinv[i] * s;
}

STRATA_FOR_KERNEL(strata_amg_sm_jacobi, strata_amg_sm_step_args_t, a, i) {
  const double r = strata_amg_sm_residual(a, i);
  a->y[i] = a->x_zero ? a->c2 * r : fma(a->c2, r, a->x[i]);
}

STRATA_FOR_KERNEL(strata_amg_sm_cheby, strata_amg_sm_step_args_t, a, i) {
  const double r = strata_amg_sm_residual(a, i);
  const double d = a->first ? a->c2 * r : fma(a->c1, a->d[i], a->c2 * r);
  a->d[i] = d;
  a->y[i] = a->x_zero ? d : a->x[i] + d;
}

STRATA_TEAM_KERNEL(strata_amg_sm_hgs, strata_amg_sm_hgs_args_t, a, team) {
  const int64_t r0 = team->league_rank * a->block;
  const int64_t r1 = r0 + a->block < a->n ? r0 + a->block : a->n;
  double *s = (double *)team->scratch;
  /* the Jacobi part: b minus the other blocks' old values, every row of the block in parallel */
  STRATA_TEAM_THREAD_RANGE(team, i, r0, r1) {
    double t = a->b[i];
    for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
      const int32_t j = a->cols[k];
      if (j < r0 || j >= r1) t = fma(-a->vals[k], a->x_old[j], t);
    }
    s[i - r0] = t;
  }
  strata_team_barrier(team);
  /* Gauss–Seidel inside the block, in order, by one thread: x_i += dinv_i (the row's residual
   * with the block's newest values, x_i's own old value included) */
  if (strata_team_single(team)) {
    for (int64_t q = 0; q < r1 - r0; ++q) {
      const int64_t i = a->backward ? r1 - 1 - q : r0 + q;
      double t = s[i - r0];
      for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
        const int32_t j = a->cols[k];
        if (j >= r0 && j < r1) t = fma(-a->vals[k], a->x[j], t);
      }
      a->x[i] = fma(a->dinv[i], t, a->x[i]);
    }
  }
}

STRATA_FOR_KERNEL(strata_amg_sm_hgs_l1, strata_amg_sm_hgs_args_t, a, i) {
  const int64_t r0 = i / a->block * a->block, r1 = r0 + a->block;
  double s = 0.0;
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
    const int32_t j = a->cols[k];
    if (j < r0 || j >= r1) s += fabs(a->vals[k]);
  }
  const double d = 1.0 / a->dinv[i];
  a->x[i] = 1.0 / (d < 0.0 ? d - s : d + s);
}

STRATA_FOR_KERNEL(strata_amg_sm_color, strata_amg_sm_color_args_t, a, p) {
  const int64_t i = a->perm[a->begin + p];
  double t = a->b[i];
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
    const int32_t j = a->cols[k];
    if (j != i) t = fma(-a->vals[k], a->x[j], t);
  }
  a->x[i] = a->dinv[i] * t;
}

STRATA_FOR_KERNEL(strata_amg_sm_lanczos_start, strata_amg_sm_lanczos_args_t, a, i) {
  a->w[i] = (double)(strata_amg_sm_hash(a->seed, (uint64_t)i) >> 11) * 0x1.0p-52 - 1.0;
}

STRATA_FOR_KERNEL(strata_amg_sm_lanczos_apply, strata_amg_sm_lanczos_args_t, a, i) {
  double s = 0.0;
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
    const int32_t j = a->cols[k];
    s += a->vals[k] * (sqrt(fabs(a->dinv[j])) * a->v[j]);
  }
  const double di = a->dinv[i];
  a->w[i] = (di < 0.0 ? -sqrt(-di) : sqrt(di)) * s;
}

/* does neighbour j (uncoloured) beat row i? */
STRATA_KL_FUNC int strata_amg_sm_jp_beats(uint64_t seed, uint64_t hi, int64_t i, int64_t j) {
  const uint64_t hj = strata_amg_sm_hash(seed, (uint64_t)j);
  return hj > hi || (hj == hi && j > i);
}

/* the colours in [base, base + 64) that row i's coloured neighbours (of A's row and T's row) hold */
STRATA_KL_FUNC uint64_t strata_amg_sm_jp_used(const strata_amg_sm_jp_args_t *a, int64_t i, int32_t base) {
  uint64_t used = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const int64_t *off = pass ? a->t_offsets : a->a_offsets;
    const int32_t *cols = pass ? a->t_cols : a->a_cols;
    for (int64_t k = off[i]; k < off[i + 1]; ++k) {
      const int32_t c = a->prev[cols[k]];
      if (cols[k] != i && c >= base && c < base + 64) used |= (uint64_t)1 << (c - base);
    }
  }
  return used;
}

STRATA_REDUCE_KERNEL(strata_amg_sm_jp_round, strata_amg_sm_jp_args_t, a, i, i64, acc) {
  if (a->prev[i] >= 0) return;
  const uint64_t hi = strata_amg_sm_hash(a->seed, (uint64_t)i);
  for (int pass = 0; pass < 2; ++pass) {
    const int64_t *off = pass ? a->t_offsets : a->a_offsets;
    const int32_t *cols = pass ? a->t_cols : a->a_cols;
    for (int64_t k = off[i]; k < off[i + 1]; ++k) {
      const int32_t j = cols[k];
      if (j != i && a->prev[j] < 0 && strata_amg_sm_jp_beats(a->seed, hi, i, j)) {
        *acc += 1;
        return;
      }
    }
  }
  int32_t base = 0;
  uint64_t used = strata_amg_sm_jp_used(a, i, base);
  while (used == ~(uint64_t)0) {
    base += 64;
    used = strata_amg_sm_jp_used(a, i, base);
  }
  int32_t c = 0;
  while (used & ((uint64_t)1 << c)) ++c;
  a->cur[i] = base + c;
}

STRATA_REDUCE_KERNEL(strata_amg_sm_color_max, strata_amg_sm_class_args_t, a, i, i32, acc) {
  strata_kl_max_i32(acc, a->color[i]);
}

STRATA_FOR_KERNEL(strata_amg_sm_class_keys, strata_amg_sm_class_args_t, a, i) {
  a->keys[i] = (int64_t)a->color[i] * a->n + i;
  a->perm[i] = i;
}

STRATA_FOR_KERNEL(strata_amg_sm_class_offsets, strata_amg_sm_class_args_t, a, p) {
  const int32_t c = a->color[a->perm[p]];
  if (p == 0 || a->color[a->perm[p - 1]] != c) a->offs[c] = p;
}
