/* strata solvers — level-scheduled sparse triangular solves (strata/sptrsv.h). Host code only
 * orchestrates; every pass over rows or entries is a kernel (solvers/kernels/sptrsv.kl.c).
 *
 * Create: the diagonal check (non-unit), the level of every row (host backends: one team walking
 * the rows in order; GPUs: relaxation sweeps, a launch each, until one raises no level, the walk
 * after RELAX_MAX), a stable device sort of (level, row) that groups the rows by level
 * (rows ascending within a level), and a compact copy of the strict triangle in that order
 * (columns and values of each row, its diagonal apart): the solves stream it, and read nothing of
 * the other triangle. Host work is O(levels), never O(rows). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sptrsv_impl.h"

#include "../kernels/sptrsv_args.h"

STRATA_KERNEL_DECLARE(strata_sptrsv_analyse);
STRATA_KERNEL_DECLARE(strata_sptrsv_relax);
STRATA_KERNEL_DECLARE(strata_sptrsv_level_max);
STRATA_KERNEL_DECLARE(strata_sptrsv_group_keys);
STRATA_KERNEL_DECLARE(strata_sptrsv_key_descents);
STRATA_KERNEL_DECLARE(strata_sptrsv_group_bounds);
STRATA_KERNEL_DECLARE(strata_sptrsv_group_rows);
STRATA_KERNEL_DECLARE(strata_sptrsv_gather);
STRATA_KERNEL_DECLARE(strata_sptrsv_bad_diag);
STRATA_KERNEL_DECLARE(strata_sptrsv_bound_entries);
STRATA_KERNEL_DECLARE(strata_sptrsv_level_rows);
STRATA_KERNEL_DECLARE(strata_sptrsv_level_team);
STRATA_KERNEL_DECLARE(strata_sptrsv_walk);

/* Levels of at most this many rows in a row run on one thread, in order (one launch for the run
 * instead of one per level): host backends (an OpenMP launch costs microseconds, a row tens of
 * nanoseconds) and GPUs (a launch about as long as a few dependent rows on one thread). Not yet
 * measured on the H200: the harness's solve suite is where to tune these. */
#define SEQ_MAX_HOST 256
#define SEQ_MAX_GPU 4
/* GPU LEVELS: rows of a level averaging more strict entries than this get lanes (a team thread
 * per row); below, a thread per row. */
#define LANES_MIN_ENTRIES 8
/* GPU analysis walk: team threads (rows) per team; each thread's lanes are a whole warp. */
#define WALK_ROWS_GPU 4
/* GPU WALK: threads per team (the lanes per row: the average strict entries per row rounded up to a
 * power of two, at most a warp; the rest of the team's threads are rows), and the rows in flight as
 * a multiple of the widest level (teams beyond it would only wait for the levels before theirs) */
#define WALK_TEAM_THREADS_GPU 128
#define WALK_FLIGHT 1
/* host WALK: rows per ticket, run in order by one thread. The host analysis is one team that walks
 * every row in order (no row ever waits: its dependencies are earlier rows of the same thread): on
 * 3D Poisson 150^3 over 2 loaded cores, chunks of 32 rows taken by several threads spent 5.4 s
 * spinning on dependencies held by descheduled threads (perf/NOTES.md, eighteenth session). */
#define WALK_CHUNK_HOST 32
/* GPU AUTO: WALK from this many levels on (below, the few launches of LEVELS cost little) */
#define WALK_MIN_LEVELS 16
/* GPU analysis: relaxation sweeps per check of their flags (one host read per batch), and the most
 * sweeps before the walk takes over */
#define RELAX_BATCH 16
#define RELAX_MAX 1024

int strata_impl_sptrsv_relax = 0;

static strata_status_t dalloc(strata_exec_t *exec, size_t bytes, void **p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, p);
}
static void dfree(strata_exec_t *exec, void *p) { strata_mem_free(exec, STRATA_MEM_DEVICE, &p); }

static int bits_for(int64_t n) {
  int bits = 1;
  while (bits < 63 && ((int64_t)1 << bits) < n) ++bits;
  return bits;
}

/* The first row of M (lower / upper as selected: the diagonal only matters) whose diagonal is
 * missing, zero or not finite, named in an INVALID_DATA error. */
static strata_status_t check_diag(strata_exec_t *exec, const strata_crs_matrix_t *M, const char *what) {
  if (M->num_rows == 0) return STRATA_SUCCESS;
  strata_sptrsv_diag_args_t da = {M->row_offsets, M->col_indices, M->values};
  int64_t first = INT64_MAX;
  strata_status_t st = strata_parallel_reduce(exec, "strata_sptrsv_bad_diag", strata_range(0, M->num_rows),
                                              &strata_sptrsv_bad_diag, &da, STRATA_REDUCE_MIN, &first);
  if (st != STRATA_SUCCESS || first == INT64_MAX) return st;
  const int32_t r = (int32_t)first;
  int64_t count = 0;
  st = strata_crs_get_row(exec, M, r, &count, NULL, NULL, 0);
  if (st != STRATA_SUCCESS) return st;
  int32_t *c = (int32_t *)malloc(sizeof(int32_t) * (size_t)(count + 1));
  double *v = (double *)malloc(sizeof(double) * (size_t)(count + 1));
  if (!c || !v) {
    free(c);
    free(v);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries of row %d", what, (long long)count, (int)r);
  }
  st = strata_crs_get_row(exec, M, r, &count, c, v, count);
  double d = 0.0;
  int has = 0;
  for (int64_t k = 0; k < count; ++k)
    if (c[k] == r) {
      d = has ? d + v[k] : v[k];
      has = 1;
    }
  free(c);
  free(v);
  if (st != STRATA_SUCCESS) return st;
  if (!has)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: row %d has no stored diagonal entry (a non-unit solve divides by it; rows 0..%d "
                            "are fine)",
                            what, (int)r, (int)r - 1);
  return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: the diagonal of row %d is %g (it must be nonzero and finite)",
                          what, (int)r, d);
}

/* Level of every row of M's triangle, then the rows grouped by level: p->perm, p->level_bounds. */
static strata_status_t analyse(strata_exec_t *exec, strata_sptrsv_t *p, const strata_crs_matrix_t *M, int host,
                               int warp) {
  const int64_t n = p->n;
  int32_t *level = NULL;
  int64_t *keys = NULL, *perm = NULL, *bounds = NULL;
  strata_status_t st = dalloc(exec, sizeof(int32_t) * (size_t)n, (void **)&level);
  /* GPUs: relaxation sweeps until one raises no level. The walk in row order (teams waiting on
   * their dependencies) is latency-bound there: the rows in flight are a window of consecutive
   * rows whose dependency chain is long (3D Poisson 150^3: 90 ms; perf/NOTES.md, session 19). A
   * sweep costs about a hundredth of a nanosecond per row, a row of the walk tens of nanoseconds:
   * after RELAX_MAX sweeps (more levels than that: long chains) the walk does it instead. */
  int walk = host && !strata_impl_sptrsv_relax;
  if (!walk && st == STRATA_SUCCESS) {
    int64_t *flags = NULL, seen[RELAX_BATCH];
    st = dalloc(exec, sizeof(int64_t) * RELAX_BATCH, (void **)&flags);
    if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, level, 0, sizeof(int32_t) * (size_t)n);
    int done = 0;
    for (int sweeps = 0; st == STRATA_SUCCESS && !done && sweeps < RELAX_MAX; sweeps += RELAX_BATCH) {
      st = strata_mem_set_async(exec, flags, 0, sizeof(int64_t) * RELAX_BATCH);
      for (int b = 0; st == STRATA_SUCCESS && b < RELAX_BATCH; ++b) {
        strata_sptrsv_relax_args_t ra = {M->row_offsets, M->col_indices, n, p->lower, level, flags + b};
        st = strata_parallel_for(exec, "strata_sptrsv_relax", strata_range(0, n), &strata_sptrsv_relax, &ra);
      }
      if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, seen, flags, sizeof seen);
      for (int b = 0; b < RELAX_BATCH; ++b) done |= seen[b] == 0;
    }
    dfree(exec, flags);
    walk = !done;
  }
  if (walk && st == STRATA_SUCCESS) { /* host: one team in row order, nothing waits; GPUs: the teams' walk */
    st = strata_mem_set_async(exec, level, 0xFF, sizeof(int32_t) * (size_t)n);
    if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, p->ticket, 0, sizeof(int64_t));
    strata_sptrsv_levels_args_t la = {M->row_offsets, M->col_indices, n, p->lower, host ? n : WALK_ROWS_GPU,
                                      level, p->ticket};
    strata_team_policy_t pol =
        strata_team_policy((n + la.chunk - 1) / la.chunk, host ? 1 : WALK_ROWS_GPU, host ? 1 : warp);
    if (st == STRATA_SUCCESS)
      st = strata_parallel_for_team(exec, "strata_sptrsv_analyse", &pol, &strata_sptrsv_analyse, &la);
  }
  strata_sptrsv_group_args_t ga = {level, NULL, NULL, n, NULL, NULL};
  int64_t max_level = 0;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_reduce(exec, "strata_sptrsv_level_max", strata_range(0, n), &strata_sptrsv_level_max, &ga,
                                STRATA_REDUCE_MAX, &max_level);
  p->num_levels = (int32_t)(max_level + 1);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t) * (size_t)n, (void **)&keys);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t) * (size_t)n, (void **)&perm);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t) * (size_t)(p->num_levels + 1), (void **)&bounds);
  ga.keys = keys;
  ga.perm = perm;
  ga.bounds = bounds;
  ga.rows = p->perm;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sptrsv_group_keys", strata_range(0, n), &strata_sptrsv_group_keys, &ga);
  /* rows already in level order (one level, a chain, levels rising with the row) need no sort */
  int64_t descents = 0;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_reduce(exec, "strata_sptrsv_key_descents", strata_range(1, n), &strata_sptrsv_key_descents,
                                &ga, STRATA_REDUCE_SUM, &descents);
  if (st == STRATA_SUCCESS && descents > 0) st = strata_sort_pairs_i64(exec, n, bits_for(p->num_levels), keys, perm);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sptrsv_group_bounds", strata_range(0, p->num_levels + 1),
                             &strata_sptrsv_group_bounds, &ga);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sptrsv_group_rows", strata_range(0, n), &strata_sptrsv_group_rows, &ga);
  if (st == STRATA_SUCCESS) {
    p->level_bounds = (int64_t *)malloc(sizeof(int64_t) * (size_t)(p->num_levels + 1));
    if (!p->level_bounds) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "sptrsv: %d level bounds", p->num_levels + 1);
  }
  if (st == STRATA_SUCCESS)
    st = strata_mem_copy(exec, p->level_bounds, bounds, sizeof(int64_t) * (size_t)(p->num_levels + 1));
  dfree(exec, level);
  dfree(exec, keys);
  dfree(exec, perm);
  dfree(exec, bounds);
  return st;
}

static strata_status_t gather(strata_exec_t *exec, const strata_sptrsv_t *p, const strata_crs_matrix_t *M,
                              int write_cols) {
  if (p->n == 0) return STRATA_SUCCESS;
  strata_sptrsv_gather_args_t ga;
  memset(&ga, 0, sizeof ga);
  ga.row_offsets = M->row_offsets;
  ga.col_indices = M->col_indices;
  ga.values = M->values;
  ga.perm = p->perm;
  ga.lower = p->lower;
  ga.unit = p->opts.diag == STRATA_DIAG_UNIT;
  ga.write_cols = write_cols;
  ga.offsets = p->offsets;
  ga.cols = p->cols;
  ga.vals = p->vals;
  ga.diag = p->diag;
  return strata_parallel_for(exec, "strata_sptrsv_gather", strata_range(0, p->n), &strata_sptrsv_gather, &ga);
}

/* The compact strict triangle in position order: p->offsets, cols, vals, diag. */
static strata_status_t compact(strata_exec_t *exec, strata_sptrsv_t *p, const strata_crs_matrix_t *M) {
  const int64_t n = p->n;
  strata_sptrsv_gather_args_t ca;
  memset(&ca, 0, sizeof ca);
  ca.row_offsets = M->row_offsets;
  ca.col_indices = M->col_indices;
  ca.perm = p->perm;
  ca.lower = p->lower;
  ca.cnt = p->offsets;
  strata_status_t st =
      strata_parallel_for(exec, "strata_sptrsv_count", strata_range(0, n), &strata_sptrsv_gather, &ca);
  int64_t m = 0;
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, n, p->offsets, p->offsets, &m);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, p->offsets + n, &m, sizeof m);
  p->m = m;
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int32_t) * (size_t)m, (void **)&p->cols);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(double) * (size_t)m, (void **)&p->vals);
  if (st == STRATA_SUCCESS && p->opts.diag != STRATA_DIAG_UNIT)
    st = dalloc(exec, sizeof(double) * (size_t)n, (void **)&p->diag);
  if (st == STRATA_SUCCESS) st = gather(exec, p, M, 1);
  return st;
}

/* The LEVELS launches, from the level bounds and the compact entries at those bounds. */
static strata_status_t make_steps(strata_exec_t *exec, strata_sptrsv_t *p, int host, int warp) {
  const int L = p->num_levels;
  int64_t *dent = NULL, *dbounds = NULL;
  int64_t *ent = (int64_t *)malloc(sizeof(int64_t) * (size_t)(L + 1));
  p->steps = (strata_impl_sptrsv_step_t *)malloc(sizeof *p->steps * (size_t)(L > 0 ? L : 1));
  if (!ent || !p->steps) {
    free(ent);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "sptrsv: the plan of %d levels", L);
  }
  strata_status_t st = dalloc(exec, sizeof(int64_t) * (size_t)(L + 1), (void **)&dent);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t) * (size_t)(L + 1), (void **)&dbounds);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, dbounds, p->level_bounds, sizeof(int64_t) * (size_t)(L + 1));
  strata_sptrsv_bound_entries_args_t ba = {p->offsets, dbounds, dent};
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sptrsv_bound_entries", strata_range(0, L + 1), &strata_sptrsv_bound_entries,
                             &ba);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, ent, dent, sizeof(int64_t) * (size_t)(L + 1));
  dfree(exec, dent);
  p->bounds = dbounds;
  const int64_t seq_max = host ? SEQ_MAX_HOST : SEQ_MAX_GPU;
  int s = 0;
  for (int l = 0; st == STRATA_SUCCESS && l < L;) {
    const int64_t b = p->level_bounds[l];
    int l2 = l;
    while (l2 < L && p->level_bounds[l2 + 1] - p->level_bounds[l2] <= seq_max) ++l2;
    strata_impl_sptrsv_step_t *q = &p->steps[s++];
    q->begin = b;
    q->lanes = 0;
    if (l2 - l >= 2) { /* a run of small levels on one thread */
      q->end = p->level_bounds[l2];
      q->per = q->end - b;
      l = l2;
      continue;
    }
    q->end = p->level_bounds[l + 1];
    q->per = 1;
    const int64_t rows = q->end - b, entries = ent[l + 1] - ent[l];
    if (!host && entries > LANES_MIN_ENTRIES * rows) {
      int lanes = 2;
      while (lanes < warp && lanes * LANES_MIN_ENTRIES < entries / rows) lanes *= 2;
      q->lanes = lanes;
    }
    ++l;
  }
  p->num_steps = s;
  free(ent);
  return st;
}

/* WALK's lanes per row on GPUs: one for rows of at most this many strict entries on average (the
 * average rounded up), else the power of two at least twice the average (up to the warp). H200, BiCGSTAB + ILU(0) (perf/NOTES.md,
 * session 27): laplace7 150^3 (3 strict entries a row) 5.30 ms an iteration with one lane, 9.0
 * with two, 6.77 with four; the FEM matrix (7 a row) 0.615 / 0.52 / 0.354 / 0.267 / 0.232 s with
 * 1 / 2 / 4 / 8 / 16 lanes. */
#define WALK_ONE_LANE_MAX_AVG 4

/* WALK's team and league. Host: one thread per team taking WALK_CHUNK_HOST positions a ticket.
 * GPUs: lanes per row from the average row (WALK_ONE_LANE_MAX_AVG), the team's other threads rows
 * (a chunk is a row per team thread), and enough teams for WALK_FLIGHT times the widest level's rows. */
static void walk_shape(strata_sptrsv_t *p, int host, int warp) {
  int64_t widest = 1;
  for (int l = 0; p->level_bounds && l < p->num_levels; ++l)
    if (p->level_bounds[l + 1] - p->level_bounds[l] > widest) widest = p->level_bounds[l + 1] - p->level_bounds[l];
  if (host) {
    p->walk_lanes = 1;
    p->walk_rows = 1;
    p->walk_chunk = WALK_CHUNK_HOST;
  } else {
    const int64_t avg = p->n > 0 ? (p->m + p->n - 1) / p->n : 1;
    int lanes = 1;
    if (avg > WALK_ONE_LANE_MAX_AVG)
      while (lanes < warp && lanes < 2 * avg) lanes *= 2;
    p->walk_lanes = lanes;
    p->walk_rows = WALK_TEAM_THREADS_GPU / lanes > 0 ? WALK_TEAM_THREADS_GPU / lanes : 1;
    p->walk_chunk = p->walk_rows;
  }
  const int64_t chunks = (p->n + p->walk_chunk - 1) / p->walk_chunk;
  const int64_t flight = host ? chunks : (WALK_FLIGHT * widest + p->walk_chunk - 1) / p->walk_chunk;
  p->walk_league = flight < chunks ? flight : chunks;
  if (p->walk_league < 1) p->walk_league = 1;
}

strata_status_t strata_impl_check_square(strata_exec_t *exec, const strata_crs_matrix_t *M, const char *what,
                                         const char *name, const char *needs) {
  if (strata_exec_backend(M->exec) != strata_exec_backend(exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: %s lives on backend '%s', the execution space is '%s' (copy it with strata_crs_copy)",
                            what, name, strata_backend_name(strata_exec_backend(M->exec)),
                            strata_backend_name(strata_exec_backend(exec)));
  if (M->num_rows != M->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s is %d x %d; %s needs a square matrix", what, name,
                            (int)M->num_rows, (int)M->num_cols, needs);
  return STRATA_SUCCESS;
}

static strata_status_t check_matrix(strata_exec_t *exec, const strata_crs_matrix_t *T, const char *what) {
  return strata_impl_check_square(exec, T, what, "T", "a triangular solve");
}

strata_status_t strata_sptrsv_create(strata_exec_t *exec, const strata_crs_matrix_t *T,
                                     const strata_sptrsv_options_t *opts, strata_sptrsv_t **plan) {
  if (!plan) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_create: NULL plan");
  *plan = NULL;
  if (!exec || !T)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_create: NULL %s", exec ? "matrix T" : "execution space");
  strata_sptrsv_options_t o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  if (o.triangle != STRATA_LOWER && o.triangle != STRATA_UPPER)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_create: triangle = %d (LOWER 0 or UPPER 1)",
                            (int)o.triangle);
  if (o.diag != STRATA_DIAG_NON_UNIT && o.diag != STRATA_DIAG_UNIT)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_create: diag = %d (NON_UNIT 0 or UNIT 1)", (int)o.diag);
  if (o.algorithm < STRATA_SPTRSV_AUTO || o.algorithm > STRATA_SPTRSV_WALK)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_create: algorithm = %d (AUTO 0, LEVELS 1, WALK 2)",
                            (int)o.algorithm);
  strata_status_t st = check_matrix(exec, T, "sptrsv_create");
  if (st != STRATA_SUCCESS) return st;
  strata_sptrsv_t *p = (strata_sptrsv_t *)calloc(1, sizeof *p);
  if (!p) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "sptrsv_create: the plan");
  p->exec = exec;
  p->opts = o;
  p->n = T->num_rows;
  p->nnz_t = T->nnz;
  p->lower = (o.triangle == STRATA_LOWER) != (o.transpose != 0);
  strata_device_info_t info;
  st = strata_exec_device_info(exec, &info);
  const int host = strata_exec_is_host(exec);
  const int warp = info.warp_size > 0 ? info.warp_size : 1;
  const double t0 = strata_timer_now();
  if (st == STRATA_SUCCESS && o.transpose) st = strata_crs_transpose(exec, T, &p->Tt);
  const strata_crs_matrix_t *M = strata_impl_sptrsv_matrix(p, T);
  if (st == STRATA_SUCCESS && o.diag == STRATA_DIAG_NON_UNIT) st = check_diag(exec, M, "sptrsv_create");
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t), (void **)&p->ticket);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int32_t) * (size_t)p->n, (void **)&p->perm);
  if (st == STRATA_SUCCESS) st = dalloc(exec, sizeof(int64_t) * ((size_t)p->n + 1), (void **)&p->offsets);
  if (st == STRATA_SUCCESS && p->n > 0) st = analyse(exec, p, M, host, warp);
  if (st == STRATA_SUCCESS && p->n > 0) st = compact(exec, p, M);
  if (st == STRATA_SUCCESS && p->n > 0) st = make_steps(exec, p, host, warp);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  p->analysis_s = strata_timer_now() - t0;
  walk_shape(p, host, warp);
  p->algorithm = o.algorithm;
  if (p->algorithm == STRATA_SPTRSV_AUTO)
    p->algorithm = !host && p->num_levels >= WALK_MIN_LEVELS ? STRATA_SPTRSV_WALK : STRATA_SPTRSV_LEVELS;
  if (st != STRATA_SUCCESS) {
    strata_sptrsv_destroy(&p);
    return st;
  }
  *plan = p;
  return STRATA_SUCCESS;
}

strata_status_t strata_sptrsv_update_values(strata_exec_t *exec, strata_sptrsv_t *plan, const strata_crs_matrix_t *T) {
  if (!plan || !T)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_update_values: NULL %s", plan ? "matrix T" : "plan");
  if (!exec) exec = plan->exec;
  strata_status_t st = check_matrix(exec, T, "sptrsv_update_values");
  if (st != STRATA_SUCCESS) return st;
  if (T->num_rows != plan->n || T->nnz != plan->nnz_t)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sptrsv_update_values: T has %d rows and %lld entries, the plan was made for %d and %lld "
                            "(the same pattern is needed; make a new plan)",
                            (int)T->num_rows, (long long)T->nnz, (int)plan->n, (long long)plan->nnz_t);
  if (plan->Tt) {
    strata_crs_matrix_t *Tt = NULL;
    st = strata_crs_transpose(exec, T, &Tt);
    if (st == STRATA_SUCCESS && Tt->nnz != plan->Tt->nnz) {
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sptrsv_update_values: T^T has %lld entries, the plan's %lld (not the plan's pattern)",
                            (long long)Tt->nnz, (long long)plan->Tt->nnz);
    }
    if (st != STRATA_SUCCESS) {
      strata_crs_destroy(&Tt);
      return st;
    }
    strata_crs_destroy(&plan->Tt);
    plan->Tt = Tt;
  }
  const strata_crs_matrix_t *M = strata_impl_sptrsv_matrix(plan, T);
  if (plan->opts.diag == STRATA_DIAG_NON_UNIT) st = check_diag(exec, M, "sptrsv_update_values");
  if (st == STRATA_SUCCESS) st = gather(exec, plan, M, 0);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  return st;
}

strata_status_t strata_sptrsv_solve(strata_exec_t *exec, const strata_sptrsv_t *plan, const double *b, double *x) {
  if (!plan) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_solve: NULL plan");
  if (!exec) exec = plan->exec;
  const int64_t n = plan->n;
  if (n == 0) return STRATA_SUCCESS;
  if (!b || !x)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_solve: NULL %s with n = %lld", b ? "x" : "b",
                            (long long)n);
  const uintptr_t bb = (uintptr_t)b, be = (uintptr_t)(b + n), xb = (uintptr_t)x, xe = (uintptr_t)(x + n);
  if (bb < xe && xb < be)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sptrsv_solve: b [%lld doubles at %p] and x [%lld at %p] overlap; give x its own array",
                            (long long)n, (const void *)b, (long long)n, (const void *)x);
  if (strata_exec_backend(exec) != strata_exec_backend(plan->exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_solve: execution space of backend '%s', the plan's is '%s'",
                            strata_backend_name(strata_exec_backend(exec)),
                            strata_backend_name(strata_exec_backend(plan->exec)));
  strata_sptrsv_solve_args_t a;
  memset(&a, 0, sizeof a);
  a.offsets = plan->offsets;
  a.cols = plan->cols;
  a.vals = plan->vals;
  a.diag = plan->diag;
  a.perm = plan->perm;
  a.b = b;
  a.x = x;
  strata_status_t st = STRATA_SUCCESS;
  if (plan->algorithm == STRATA_SPTRSV_WALK) {
    a.begin = 0;
    a.end = n;
    a.chunk = plan->walk_chunk;
    a.ticket = plan->ticket;
    a.bounds = plan->bounds;
    a.num_levels = plan->num_levels;
    st = strata_mem_set_async(exec, x, 0xFF, sizeof(double) * (size_t)n);
    if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, plan->ticket, 0, sizeof(int64_t));
    strata_team_policy_t pol = strata_team_policy(plan->walk_league, plan->walk_rows, plan->walk_lanes);
    if (st == STRATA_SUCCESS) st = strata_parallel_for_team(exec, "strata_sptrsv_walk", &pol, &strata_sptrsv_walk, &a);
    return st;
  }
  for (int s = 0; s < plan->num_steps && st == STRATA_SUCCESS; ++s) {
    const strata_impl_sptrsv_step_t *q = &plan->steps[s];
    a.begin = q->begin;
    a.end = q->end;
    a.per = q->per;
    if (q->lanes > 0) {
      a.rows_per_team = 128 / q->lanes;
      strata_team_policy_t pol =
          strata_team_policy((q->end - q->begin + a.rows_per_team - 1) / a.rows_per_team, (int)a.rows_per_team, q->lanes);
      st = strata_parallel_for_team(exec, "strata_sptrsv_level_team", &pol, &strata_sptrsv_level_team, &a);
    } else {
      st = strata_parallel_for(exec, "strata_sptrsv_level_rows", strata_range(0, (q->end - q->begin + q->per - 1) / q->per),
                               &strata_sptrsv_level_rows, &a);
    }
  }
  return st;
}

strata_status_t strata_sptrsv_levels(const strata_sptrsv_t *plan, int32_t *num_levels) {
  if (!plan || !num_levels)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sptrsv_levels: NULL %s", plan ? "num_levels" : "plan");
  *num_levels = plan->num_levels;
  return STRATA_SUCCESS;
}

strata_status_t strata_sptrsv_destroy(strata_sptrsv_t **plan) {
  if (!plan || !*plan) return STRATA_SUCCESS;
  strata_sptrsv_t *p = *plan;
  strata_exec_t *e = p->exec;
  strata_crs_destroy(&p->Tt);
  dfree(e, p->perm);
  dfree(e, p->offsets);
  dfree(e, p->cols);
  dfree(e, p->vals);
  dfree(e, p->diag);
  dfree(e, p->ticket);
  dfree(e, p->bounds);
  free(p->level_bounds);
  free(p->steps);
  free(p);
  *plan = NULL;
  return STRATA_SUCCESS;
}
