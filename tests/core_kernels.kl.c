/* strata tests — kernels of the core-pattern tests (test_core.c). Valid C11 and C++17. */
#include <strata/kl.h>

#include "core_kernels.h"

/* folds v into *acc with the reduction's own operation (a Kokkos functor's join) */
#define CORE_FOLD(OP, V, ACC)                                   \
  do {                                                          \
    if ((OP) == STRATA_REDUCE_SUM)                              \
      *(ACC) += (V);                                            \
    else if ((OP) == STRATA_REDUCE_MAX ? (V) > *(ACC) : (V) < *(ACC)) \
      *(ACC) = (V);                                             \
  } while (0)

STRATA_FOR_KERNEL(core_axpy, core_axpy_args_t, a, i) { a->y[i] = a->alpha * a->x[i] + a->y[i]; }

STRATA_REDUCE_KERNEL(core_reduce_f64, core_reduce_f64_args_t, a, i, f64, acc) {
  CORE_FOLD(a->op, a->x[i], acc);
}

/* MIN / MAX through the kernel language's order-independent folds (±0, NaN) */
STRATA_REDUCE_KERNEL(core_minmax_f64, core_reduce_f64_args_t, a, i, f64, acc) {
  if (a->op == STRATA_REDUCE_MIN)
    strata_kl_min_f64(acc, a->x[i]);
  else
    strata_kl_max_f64(acc, a->x[i]);
}

STRATA_REDUCE_KERNEL(core_reduce_i64, core_reduce_i64_args_t, a, i, i64, acc) {
  CORE_FOLD(a->op, a->x[i], acc);
}

STRATA_FOR_KERNEL(core_scalars, core_scalars_args_t, a, i) { a->out[i] = a->s[i % 2]; }

/* MAXLOC of x (a 16-byte value type) */
STRATA_REDUCE_KERNEL(core_argmax_f64, core_reduce_f64_args_t, a, i, f64loc, acc) { strata_kl_maxloc_f64(acc, a->x[i], i); }

STRATA_REDUCE_KERNEL(core_index_sum, core_index_args_t, a, i, i64, acc) { *acc += i - a->base + 1; }
STRATA_FOR_KERNEL(core_index_for, core_index_args_t, a, i) { strata_atomic_add_i64(a->sum, i - a->base + 1); }
STRATA_SCAN_KERNEL(core_index_scan, core_index_args_t, a, i, i64, partial, final) {
  (void)final;
  *partial += i - a->base + 1;
}

STRATA_SCAN_KERNEL(core_scan_excl, core_scan_args_t, a, i, i64, partial, final) {
  const int64_t v = a->in[i];
  if (final) a->out[i] = *partial;
  *partial += v;
}

STRATA_SCAN_KERNEL(core_scan_incl, core_scan_args_t, a, i, i64, partial, final) {
  *partial += a->in[i];
  if (final) a->out[i] = *partial;
}

STRATA_SCAN_KERNEL(core_scan_incl_f64, core_scan_f64_args_t, a, i, f64, partial, final) {
  *partial += a->in[i];
  if (final) a->out[i] = *partial;
}

STRATA_TEAM_KERNEL(core_rowsum, core_rowsum_args_t, a, team) {
  const int64_t r0 = team->league_rank * a->rows_per_team;
  const int64_t r1 = r0 + a->rows_per_team < a->m ? r0 + a->rows_per_team : a->m;
  STRATA_TEAM_THREAD_RANGE(team, r, r0, r1) {
    double s;
    STRATA_THREAD_VECTOR_SUM(team, j, 0, a->k, s) { s += a->A[r * a->k + j] * a->x[j]; }
    int64_t si;
    STRATA_THREAD_VECTOR_SUM(team, j, 0, a->k, si) { si += (int64_t)a->A[r * a->k + j]; }
    if (team->vector_rank == 0) {
      a->y[r] = s;
      a->yi[r] = si;
    }
  }
}

STRATA_TEAM_KERNEL(core_team_vector, core_team_vector_args_t, a, team) {
  STRATA_TEAM_VECTOR_RANGE(team, j, 0, a->w) {
    const int64_t idx = team->league_rank * a->w + j;
    a->out[idx] = team->league_rank * 100000 + j;
    strata_atomic_add_i64(&a->count[idx], 1);
  }
}

STRATA_TEAM_KERNEL(core_scratch, core_scratch_args_t, a, team) {
  int64_t *ts = (int64_t *)team->scratch;
  int64_t *th = (int64_t *)team->thread_scratch;
  const int64_t lr = team->league_rank;
  STRATA_TEAM_VECTOR_RANGE(team, j, 0, a->S) { ts[j] = lr * 7919 + j * 31 + 1; }
  STRATA_THREAD_VECTOR_RANGE(team, j, 0, a->T) {
    th[j] = lr * 104729 + (int64_t)team->team_rank * 1009 + j;
  }
  strata_team_barrier(team);
  STRATA_TEAM_VECTOR_RANGE(team, j, 0, a->S) { a->out_team[lr * a->S + j] = ts[a->S - 1 - j]; }
  STRATA_THREAD_VECTOR_RANGE(team, j, 0, a->T) {
    a->out_thread[(lr * team->team_size + team->team_rank) * a->T + j] = th[a->T - 1 - j];
  }
}

STRATA_FOR_KERNEL(core_atomic, core_atomic_args_t, a, i) {
  const int64_t s = i % a->slots, v = i % 5 + 1;
  strata_atomic_add_i64(&a->ci[s], v);
  strata_atomic_add_f64(&a->cf[s], (double)v);
}
