/* strata solvers — level-scheduled sparse triangular solves (strata/sptrsv.h), written once for
 * every backend: the level analysis, the grouping of rows by level, the compact triangle, and the
 * two solves (a launch per level; one launch walking the positions in level order).
 *
 * The one-launch kernels (the analysis and WALK) wait inside the launch for values other teams
 * write. Why they cannot deadlock: a team takes its chunk with a ticket (atomic fetch-add) when it
 * starts, so chunks are handed out in processing order to teams that are already running, and a
 * row waits only for rows earlier in that order. In the analysis the threads own positions in
 * order, each thread its positions one after the other; a thread's lanes work on one row together
 * and the rows they wait for are owned by other team threads, i.e. other warps on GPUs (the lanes
 * of a team thread are the whole warp there, see sptrsv.c). WALK solves a chunk level by level with
 * a team barrier between levels, so a row waits only for rows of other teams. Either way no warp
 * waits for one of its own lanes: safe without independent thread scheduling, HIP included. Hence the earliest unsolved row always has
 * every dependency solved and its owner running and at that row: it finishes, and by induction all
 * do. On OpenMP a thread runs one team body at a time to its end (fewer threads than teams only
 * means the later tickets are taken later); on serial tickets come in order and nothing waits. The
 * value is its own flag (STRATA_SPTRSV_UNSET until written, read with atomic loads, written with
 * one atomic exchange), so no fence orders a flag against its data. */
#include <strata/kl.h>

#include "level_walk.h"
#include "sptrsv_args.h"

/* ----------------------------------------------------------------------------- analysis */

/* The largest level among the dependencies of row r that lane j of V sees (entries j, j + V, ...);
 * -1 without any. Waits for each dependency's level. */
STRATA_KL_TEAM_FUNC int32_t strata_sptrsv_lane_level(const strata_sptrsv_levels_args_t *a, int64_t r, int64_t j,
                                                     int64_t V) {
  int32_t m = -1;
  const int64_t e = a->row_offsets[r + 1];
  for (int64_t k = a->row_offsets[r] + j; k < e; k += V) {
    const int64_t c = a->col_indices[k];
    if (a->lower ? c < r : c > r) {
      int32_t l = strata_atomic_load_i32(&a->level[c]);
      while (l < 0) l = strata_atomic_load_i32(&a->level[c]);
      if (l > m) m = l;
    }
  }
  return m;
}

STRATA_TEAM_KERNEL(strata_sptrsv_analyse, strata_sptrsv_levels_args_t, a, team) {
  const int64_t b = strata_walk_take_chunk(team, a->ticket, a->chunk);
  const int64_t e = b + a->chunk < a->n ? b + a->chunk : a->n;
  const int64_t V = team->vector_length;
  STRATA_TEAM_THREAD_RANGE(team, q, b, e) {
    const int64_t r = a->lower ? q : a->n - 1 - q;
    int32_t m;
    STRATA_THREAD_VECTOR_REDUCE(team, j, 0, V, MAX, i32, m) {
      const int32_t v = strata_sptrsv_lane_level(a, r, j, V);
      if (v > m) m = v;
    }
    if (team->vector_rank == 0) strata_atomic_exchange_i32(&a->level[r], m < 0 ? 0 : m + 1);
  }
}

STRATA_FOR_KERNEL(strata_sptrsv_relax, strata_sptrsv_relax_args_t, a, q) {
  const int64_t r = a->lower ? q : a->n - 1 - q;
  int32_t m = -1;
  for (int64_t k = a->row_offsets[r]; k < a->row_offsets[r + 1]; ++k) {
    const int64_t c = a->col_indices[k];
    if (a->lower ? c < r : c > r) {
      const int32_t l = strata_atomic_load_i32(&a->level[c]);
      if (l > m) m = l;
    }
  }
  if (m >= 0 && strata_atomic_max_i32(&a->level[r], m + 1) < m + 1 && strata_atomic_load_i64(a->changed) == 0)
    strata_atomic_exchange_i64(a->changed, 1);
}

STRATA_REDUCE_KERNEL(strata_sptrsv_level_max, strata_sptrsv_group_args_t, a, r, i64, acc) {
  const int64_t l = a->level[r];
  if (l > *acc) *acc = l;
}

STRATA_FOR_KERNEL(strata_sptrsv_group_keys, strata_sptrsv_group_args_t, a, r) {
  a->keys[r] = a->level[r];
  a->perm[r] = r;
}

STRATA_REDUCE_KERNEL(strata_sptrsv_key_descents, strata_sptrsv_group_args_t, a, r, i64, acc) {
  if (a->keys[r] < a->keys[r - 1]) *acc += 1;
}

STRATA_FOR_KERNEL(strata_sptrsv_group_bounds, strata_sptrsv_group_args_t, a, l) {
  a->bounds[l] = strata_kl_lower_bound_i64(a->keys, 0, a->n, l);
}

STRATA_FOR_KERNEL(strata_sptrsv_group_rows, strata_sptrsv_group_args_t, a, p) {
  a->rows[p] = (int32_t)a->perm[p];
}

/* ----------------------------------------------------------------------------- compact triangle */

STRATA_FOR_KERNEL(strata_sptrsv_gather, strata_sptrsv_gather_args_t, a, p) {
  const int64_t r = a->perm[p];
  const int64_t b = a->row_offsets[r], e = a->row_offsets[r + 1];
  if (a->cnt) {
    int64_t c = 0;
    for (int64_t k = b; k < e; ++k) {
      const int64_t j = a->col_indices[k];
      c += (a->lower ? j < r : j > r) ? 1 : 0;
    }
    a->cnt[p] = c;
    return;
  }
  int64_t q = a->offsets[p];
  double d = 0.0;
  int has = 0;
  for (int64_t k = b; k < e; ++k) {
    const int64_t j = a->col_indices[k];
    if (j == r) {
      d = has ? d + a->values[k] : a->values[k];
      has = 1;
    } else if (a->lower ? j < r : j > r) {
      if (a->write_cols) a->cols[q] = (int32_t)j;
      a->vals[q] = a->values[k];
      ++q;
    }
  }
  if (!a->unit) a->diag[p] = has ? d : __builtin_nan("");
}

STRATA_REDUCE_KERNEL(strata_sptrsv_bad_diag, strata_sptrsv_diag_args_t, a, r, i64, acc) {
  double d = 0.0;
  int has = 0;
  for (int64_t k = a->row_offsets[r]; k < a->row_offsets[r + 1]; ++k)
    if ((int64_t)a->col_indices[k] == r) {
      d = has ? d + a->values[k] : a->values[k];
      has = 1;
    }
  if ((!has || d == 0.0 || !isfinite(d)) && r < *acc) *acc = r;
}

STRATA_FOR_KERNEL(strata_sptrsv_bound_entries, strata_sptrsv_bound_entries_args_t, a, l) {
  a->out[l] = a->offsets[a->bounds[l]];
}

/* ----------------------------------------------------------------------------- solves */

STRATA_KL_FUNC double strata_sptrsv_finish(const strata_sptrsv_solve_args_t *a, int64_t p, int32_t r, double s) {
  const double v = a->b[r] - s;
  return a->diag ? v / a->diag[p] : v;
}

/* LEVELS, a thread per index: its positions in order, each row's terms summed in storage order */
STRATA_FOR_KERNEL(strata_sptrsv_level_rows, strata_sptrsv_solve_args_t, a, i) {
  const int64_t b = a->begin + i * a->per, e = b + a->per < a->end ? b + a->per : a->end;
  for (int64_t p = b; p < e; ++p) {
    double s = 0.0;
    for (int64_t k = a->offsets[p]; k < a->offsets[p + 1]; ++k) s += a->vals[k] * a->x[a->cols[k]];
    const int32_t r = a->perm[p];
    a->x[r] = strata_sptrsv_finish(a, p, r, s);
  }
}

/* LEVELS, a team per rows_per_team positions of a level, a team thread per row, lanes over it */
STRATA_TEAM_KERNEL(strata_sptrsv_level_team, strata_sptrsv_solve_args_t, a, team) {
  const int64_t b = a->begin + team->league_rank * a->rows_per_team;
  const int64_t e = b + a->rows_per_team < a->end ? b + a->rows_per_team : a->end;
  STRATA_TEAM_THREAD_RANGE(team, p, b, e) {
    double s;
    STRATA_THREAD_VECTOR_SUM(team, k, a->offsets[p], a->offsets[p + 1], s) { s += a->vals[k] * a->x[a->cols[k]]; }
    if (team->vector_rank == 0) {
      const int32_t r = a->perm[p];
      a->x[r] = strata_sptrsv_finish(a, p, r, s);
    }
  }
}

/* WALK: what a position's solve reads that no other row writes (its row, b, the diagonal, lane j's
 * first term), loaded before any wait so that only the dependencies' x are on the critical path */
typedef struct strata_sptrsv_walk_row {
  int64_t k, e;  /* lane j's first term and the row's end */
  int32_t r;     /* the row */
  int32_t c;     /* lane j's first column (valid when k < e) */
  double w;      /* its value */
  double rhs;    /* b[r] */
  double d;      /* the diagonal (1 for unit) */
} strata_sptrsv_walk_row_t;

STRATA_KL_FUNC strata_sptrsv_walk_row_t strata_sptrsv_walk_load(const strata_sptrsv_solve_args_t *a, int64_t p,
                                                                 int64_t j) {
  strata_sptrsv_walk_row_t w;
  w.k = a->offsets[p] + j;
  w.e = a->offsets[p + 1];
  w.r = a->perm[p];
  w.c = w.k < w.e ? a->cols[w.k] : 0;
  w.w = w.k < w.e ? a->vals[w.k] : 0.0;
  w.rhs = a->b[w.r];
  w.d = a->diag ? a->diag[p] : 1.0;
  return w;
}

/* WALK: lane j of V's share of the row's terms (entries j, j + V, ... in order), each x waited for */
STRATA_KL_TEAM_FUNC double strata_sptrsv_walk_terms(const strata_sptrsv_solve_args_t *a, const strata_sptrsv_walk_row_t *w,
                                               int64_t V) {
  double s = 0.0;
  for (int64_t k = w->k; k < w->e; k += V) {
    const int32_t c = k == w->k ? w->c : a->cols[k];
    const double *xc = a->x + c;
    const double v = strata_walk_wait_f64(xc, STRATA_SPTRSV_UNSET);
    s += (k == w->k ? w->w : a->vals[k]) * v;
  }
  return s;
}

/* WALK: a team takes chunks of `chunk` positions by ticket until none are left; a chunk's
 * positions are solved level by level (a team barrier after each level's share), team thread t
 * taking positions b + t, b + t + T, ... (its first one's reads made when the chunk is taken). So
 * no row waits for a row of its own team (those of earlier levels are done at the barrier, those of
 * its level are independent of it): lanes of one warp never wait for each other, whatever the
 * lanes per row. */
STRATA_TEAM_KERNEL(strata_sptrsv_walk, strata_sptrsv_solve_args_t, a, team) {
  const int64_t V = team->vector_length, T = team->team_size, j = team->vector_rank;
  for (;;) {
    const int64_t b = strata_walk_take_chunk(team, a->ticket, a->chunk);
    if (b >= a->end) break;
    const int64_t e = b + a->chunk < a->end ? b + a->chunk : a->end;
    const int64_t mine = b + team->team_rank;
    strata_sptrsv_walk_row_t first;
    if (mine < e) first = strata_sptrsv_walk_load(a, mine, j);
    int64_t l = strata_walk_level_of(a->bounds, a->num_levels, b);
    for (int64_t s = b; s < e; ++l) {
      const int64_t se = a->bounds[l + 1] < e ? a->bounds[l + 1] : e;
      for (int64_t p = strata_walk_first_at(mine, T, s); p < se; p += T) { /* this thread's: mine + k T */
        strata_sptrsv_walk_row_t w;
        if (p == mine)
          w = first;
        else
          w = strata_sptrsv_walk_load(a, p, j);
        const double part = strata_sptrsv_walk_terms(a, &w, V);
        double sum;
        STRATA_THREAD_VECTOR_SUM(team, jj, 0, V, sum) { sum += part; }
        if (j == 0) {
          double v = w.rhs - sum;
          if (a->diag) v /= w.d;
          if (strata_kl_f64_as_u64(v) == STRATA_SPTRSV_UNSET) v = strata_kl_u64_as_f64(STRATA_SPTRSV_QNAN);
          strata_atomic_exchange_f64(&a->x[w.r], v);
        }
      }
      strata_team_barrier(team);
      s = se;
    }
  }
}
