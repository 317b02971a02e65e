/* strata solvers — ILU(k) (strata/ilu.h). Host code orchestrates; the numeric phase and the
 * solves' analysis are kernels (solvers/kernels/ilu.kl.c, sptrsv.kl.c). The symbolic phase of
 * k >= 1 runs on the host (ilu_symbolic.c); ILU(0) takes A's pattern as it is on the device.
 *
 * The numeric phase runs the rows in the dependency levels of L's pattern, which are those of the
 * lower triangular solve: the plan of L (made from the pattern before any value is known) gives
 * the level order and the launches, so the analysis is done once for both and reused by
 * refactor. Many independent diagonal blocks (block-Jacobi / Schwarz factor one block-diagonal
 * matrix) share the levels: a level's rows of every block are one launch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ilu_impl.h"
#include "sptrsv_impl.h"

#include "../kernels/ilu_args.h"

/* The row of A named by the last INVALID_DATA error of an ILU call on this thread (-1: none). */
static _Thread_local int64_t ilu_refused_row = -1;

int64_t strata_impl_ilu_refused_row(void) { return ilu_refused_row; }

STRATA_KERNEL_DECLARE(strata_ilu_diag);
STRATA_KERNEL_DECLARE(strata_ilu_init);
STRATA_KERNEL_DECLARE(strata_ilu_rows);
STRATA_KERNEL_DECLARE(strata_ilu_walk);
STRATA_KERNEL_DECLARE(strata_ilu_row_max);
STRATA_KERNEL_DECLARE(strata_ilu_list);

int strata_impl_ilu_walk = 0;
int strata_impl_ilu_lists = 0;

/* The walk's team on GPUs: threads per team (lanes per row: the longest row, or the longest list
 * over the slots, rounded up to a power of two, at most a warp; the rest rows), and rows in flight
 * as a multiple of L's widest level */
#define WALK_TEAM_THREADS 128
#define WALK_FLIGHT 1
/* On GPUs the walk where L's launches are narrow: at most this many rows per launch on average
 * (the FEM matrix's 230 rows a level: the walk 3.1x faster than launches reading update lists;
 * Poisson 150^3's 7,533: the launches 1.7x faster; perf/NOTES.md, session 23) */
#define WALK_MAX_ROWS_PER_LAUNCH 2048

/* Whether LEVELS runs as one walk of L's levels, and its shape: on GPUs where L's solve walks
 * and its launches would be narrow (WALK_MAX_ROWS_PER_LAUNCH), on host backends for the tests' hook
 * only; and only where the update lists were made and every row and its list fit the lanes' registers
 * (STRATA_ILU_WALK_SLOTS_GPU / _HOST per lane). */
static strata_status_t walk_shape(strata_exec_t *exec, strata_ilu_t *F) {
  F->walk_lanes = 0;
  const strata_sptrsv_t *Lp = F->lower;
  const int host = strata_exec_is_host(exec);
  if (F->n == 0 || F->opts.algorithm != STRATA_ILU_LEVELS || !Lp->bounds || !F->list) return STRATA_SUCCESS;
  if (host ? !strata_impl_ilu_walk
           : Lp->algorithm != STRATA_SPTRSV_WALK || Lp->num_steps < 1 ||
                 F->n / Lp->num_steps > WALK_MAX_ROWS_PER_LAUNCH)
    return STRATA_SUCCESS;
  strata_device_info_t info;
  strata_status_t st = strata_exec_device_info(exec, &info);
  if (st != STRATA_SUCCESS) return st;
  const int warp = host || info.warp_size < 1 ? 1 : info.warp_size;
  strata_ilu_row_max_args_t ma = {F->LU->row_offsets};
  int64_t longest = 0;
  st = strata_parallel_reduce(exec, "strata_ilu_row_max", strata_range(0, F->n), &strata_ilu_row_max, &ma,
                              STRATA_REDUCE_MAX, &longest);
  if (st != STRATA_SUCCESS) return st;
  int64_t longest_list = 0;
  ma.row_offsets = F->list_start;
  st = strata_parallel_reduce(exec, "strata_ilu_row_max", strata_range(0, F->n), &strata_ilu_row_max, &ma,
                              STRATA_REDUCE_MAX, &longest_list);
  if (st != STRATA_SUCCESS) return st;
  const int64_t slots = host ? STRATA_ILU_WALK_SLOTS_HOST : STRATA_ILU_WALK_SLOTS_GPU;
  int lanes = 1;
  while (lanes < warp && (lanes < longest || lanes * slots < longest_list)) lanes *= 2;
  if (longest > lanes * slots || longest_list > lanes * slots) return STRATA_SUCCESS;
  int64_t widest = 1;
  for (int l = 0; l < Lp->num_levels; ++l)
    if (Lp->level_bounds[l + 1] - Lp->level_bounds[l] > widest) widest = Lp->level_bounds[l + 1] - Lp->level_bounds[l];
  F->walk_lanes = lanes;
  F->walk_rows = host ? 1 : WALK_TEAM_THREADS / lanes;
  const int64_t chunks = (F->n + F->walk_rows - 1) / F->walk_rows;
  const int64_t flight = host ? chunks : (WALK_FLIGHT * widest + F->walk_rows - 1) / F->walk_rows;
  F->walk_league = flight < chunks ? flight : chunks;
  return STRATA_SUCCESS;
}
STRATA_KERNEL_DECLARE(strata_ilu_check);
STRATA_KERNEL_DECLARE(strata_ilu_sweep);

/* Update lists above this many elements per entry of the factors (16 bytes each: at most 64 bytes
 * per entry, some 5x the factors' 12) are not kept: the launches merge instead (the same
 * arithmetic), and there is no walk. The FEM matrix's ILU(0) takes 2.5 per entry, its ILU(1) 6.5. */
#define LIST_PER_ENTRY 4

/* The update lists of LEVELS (ilu_args.h: strata_ilu_list_args_t) for its launches and its walk,
 * made once from the factors' pattern: counted, scanned, filled. None for Chow–Patel, or above the
 * cap. */
static strata_status_t update_lists(strata_exec_t *exec, strata_ilu_t *F) {
  if (F->n == 0 || F->opts.algorithm != STRATA_ILU_LEVELS || strata_impl_ilu_lists < 0) return STRATA_SUCCESS;
  const strata_crs_matrix_t *LU = F->LU;
  strata_ilu_list_args_t la = {LU->row_offsets, LU->col_indices, F->diag_pos, NULL, NULL, NULL};
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * ((size_t)F->n + 1), (void **)&la.len);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_ilu_list_count", strata_range(0, F->n), &strata_ilu_list, &la);
  int64_t total = 0;
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, F->n, la.len, la.len, &total);
  if (st != STRATA_SUCCESS || (total > LIST_PER_ENTRY * LU->nnz && strata_impl_ilu_lists == 0)) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&la.len);
    return st;
  }
  la.list_start = la.len;
  st = strata_mem_copy(exec, la.len + F->n, &total, sizeof total); /* list_start[n]: the walk's last row's end */
  if (st == STRATA_SUCCESS)
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * 2 * (size_t)(total + 1), (void **)&la.list);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_ilu_list_fill", strata_range(0, F->n), &strata_ilu_list, &la);
  if (st != STRATA_SUCCESS) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&la.len);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&la.list);
    return st;
  }
  F->list_start = la.len;
  F->list = la.list;
  return STRATA_SUCCESS;
}

void strata_ilu_options_default(strata_ilu_options_t *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->fill_level = 0;
  opts->algorithm = STRATA_ILU_LEVELS;
  opts->sweeps = 5;
  opts->diag_shift = 0.0;
  opts->sptrsv = STRATA_SPTRSV_AUTO;
}

static strata_status_t check_options(const strata_ilu_options_t *o) {
  if (o->fill_level < 0 || o->fill_level > 64)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu: fill_level = %d (must be in [0, 64])", o->fill_level);
  if (o->algorithm != STRATA_ILU_LEVELS && o->algorithm != STRATA_ILU_CHOW_PATEL)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu: algorithm = %d (LEVELS 0 or CHOW_PATEL 1)",
                            (int)o->algorithm);
  if (o->sweeps < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu: sweeps = %d (must be >= 1)", o->sweeps);
  if (!(o->diag_shift >= 0.0) || !isfinite(o->diag_shift))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu: diag_shift = %g (must be >= 0 and finite)",
                            o->diag_shift);
  if (o->sptrsv < STRATA_SPTRSV_AUTO || o->sptrsv > STRATA_SPTRSV_WALK)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu: sptrsv algorithm = %d (AUTO 0, LEVELS 1, WALK 2)",
                            (int)o->sptrsv);
  return STRATA_SUCCESS;
}

static strata_status_t check_matrix(strata_exec_t *exec, const strata_crs_matrix_t *A, const char *what) {
  return strata_impl_check_square(exec, A, what, "A", "ILU");
}

/* A itself when fill-complete, else a sorted and merged copy (*owned, to destroy). */
static strata_status_t sorted(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t **As,
                              strata_crs_matrix_t **owned) {
  *owned = NULL;
  *As = A;
  if (A->fill_complete) return STRATA_SUCCESS;
  strata_status_t st = strata_crs_copy(exec, A, owned);
  if (st == STRATA_SUCCESS) st = strata_crs_fill_complete(exec, *owned);
  if (st != STRATA_SUCCESS) {
    strata_crs_destroy(owned);
    return st;
  }
  *As = *owned;
  return STRATA_SUCCESS;
}

/* The first row of fill-complete M without a stored diagonal (-1: none); diag_pos (may be NULL)
 * receives the diagonal positions. */
static strata_status_t diag_positions(strata_exec_t *exec, const strata_crs_matrix_t *M, int64_t *diag_pos,
                                      int64_t *missing) {
  *missing = -1;
  if (M->num_rows == 0) return STRATA_SUCCESS;
  strata_ilu_diag_args_t da = {M->row_offsets, M->col_indices, diag_pos};
  int64_t first = INT64_MAX;
  strata_status_t st = strata_parallel_reduce(exec, "strata_ilu_diag", strata_range(0, M->num_rows), &strata_ilu_diag,
                                              &da, STRATA_REDUCE_MIN, &first);
  if (first != INT64_MAX) *missing = first;
  return st;
}

/* The factors' pattern from As's: As's own (k = 0) or the host symbolic phase's. */
static strata_status_t symbolic(strata_exec_t *exec, strata_ilu_t *F, const strata_crs_matrix_t *As) {
  const int32_t n = F->n;
  if (F->opts.fill_level == 0) return strata_crs_copy(exec, As, &F->LU);
  int64_t *ro = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  int32_t *ci = (int32_t *)malloc(sizeof(int32_t) * (size_t)(As->nnz + 1));
  if (!ro || !ci) {
    free(ro);
    free(ci);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "ilu: host copy of A's pattern (%lld entries)", (long long)As->nnz);
  }
  strata_status_t st = strata_mem_copy(exec, ro, As->row_offsets, sizeof(int64_t) * ((size_t)n + 1));
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, ci, As->col_indices, sizeof(int32_t) * (size_t)As->nnz);
  int64_t *lro = NULL, nnz = 0;
  int32_t *lci = NULL;
  if (st == STRATA_SUCCESS) st = strata_impl_ilu_symbolic(n, ro, ci, F->opts.fill_level, &lro, &lci, &nnz);
  free(ro);
  free(ci);
  void *dro = NULL, *dci = NULL;
  if (st == STRATA_SUCCESS) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * ((size_t)n + 1), &dro);
  if (st == STRATA_SUCCESS) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)nnz, &dci);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, dro, lro, sizeof(int64_t) * ((size_t)n + 1));
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, dci, lci, sizeof(int32_t) * (size_t)nnz);
  free(lro);
  free(lci);
  if (st == STRATA_SUCCESS)
    st = strata_crs_create_from_csr(exec, n, n, nnz, (const int64_t *)dro, (const int32_t *)dci, NULL, STRATA_CRS_ADOPT,
                                    &F->LU);
  if (st != STRATA_SUCCESS) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, &dro);
    strata_mem_free(exec, STRATA_MEM_DEVICE, &dci);
  }
  return st;
}

/* The first bad row of the factors, named in an INVALID_DATA error (F->ok stays 0). */
static strata_status_t check_pivots(strata_exec_t *exec, strata_ilu_t *F, const char *what) {
  const strata_crs_matrix_t *LU = F->LU;
  strata_ilu_check_args_t ca = {LU->row_offsets, LU->values, F->diag_pos, 0};
  int64_t first = INT64_MAX, count = 0;
  strata_status_t st = strata_parallel_reduce(exec, "strata_ilu_check", strata_range(0, F->n), &strata_ilu_check, &ca,
                                              STRATA_REDUCE_MIN, &first);
  if (st != STRATA_SUCCESS || first == INT64_MAX) return st;
  ca.count = 1;
  st = strata_parallel_reduce(exec, "strata_ilu_check", strata_range(0, F->n), &strata_ilu_check, &ca, STRATA_REDUCE_SUM,
                              &count);
  int64_t d = 0;
  double u = 0.0;
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, &d, F->diag_pos + first, sizeof d);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, &u, LU->values + d, sizeof u);
  if (st != STRATA_SUCCESS) return st;
  ilu_refused_row = first;
  if (u != 0.0 && isfinite(u))
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: row %d of the factors holds a non-finite entry (its pivot is %g; %lld of %d rows "
                            "refused)",
                            what, (int)first, u, (long long)count, (int)F->n);
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "%s: pivot u(%d,%d) = %g at row %d (zero or not finite; %lld of %d rows refused; a "
                          "diag_shift > 0 may help)",
                          what, (int)first, (int)first, u, (int)first, (long long)count, (int)F->n);
}

/* The numeric phase: A's values onto the factors (As sorted, its pattern inside LU's), then the rows
 * level by level (or the Chow–Patel sweeps), then the pivot check and the solves' values. */
static strata_status_t numeric(strata_exec_t *exec, strata_ilu_t *F, const strata_crs_matrix_t *As, const char *what) {
  strata_crs_matrix_t *LU = F->LU;
  const int32_t n = F->n;
  F->ok = 0;
  if (n == 0) {
    F->ok = 1;
    return STRATA_SUCCESS;
  }
  /* the walk reads A's values from a0 and writes the factors into LU's values, set to UNSET */
  double *a0 = NULL;
  strata_status_t st = STRATA_SUCCESS;
  if (F->walk_lanes > 0) st = strata_mem_alloc_async(exec, sizeof(double) * (size_t)LU->nnz, (void **)&a0);
  if (st != STRATA_SUCCESS) return st;
  strata_ilu_init_args_t ia = {LU->row_offsets, LU->col_indices, a0 ? a0 : LU->values, As->row_offsets,
                               As->col_indices, As->values,     F->diag_pos, F->opts.diag_shift};
  int64_t misses = 0;
  st = strata_parallel_reduce(exec, "strata_ilu_init", strata_range(0, n), &strata_ilu_init, &ia, STRATA_REDUCE_SUM,
                              &misses);
  if (st != STRATA_SUCCESS || misses > 0) strata_mem_free_async(exec, (void **)&a0);
  if (st == STRATA_SUCCESS && misses > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: %lld entries of A lie outside the factored pattern (A's pattern changed since create; "
                            "make a new factorization)",
                            what, (long long)misses);
  if (st == STRATA_SUCCESS && a0) {
    const strata_sptrsv_t *Lp = F->lower;
    strata_ilu_walk_args_t wa = {LU->row_offsets, F->list_start, F->list,       a0, LU->values, F->diag_pos,
                                 Lp->perm,        Lp->bounds,    Lp->num_levels, n,  F->walk_rows, Lp->ticket};
    st = strata_mem_set_async(exec, LU->values, 0xFF, sizeof(double) * (size_t)LU->nnz);
    if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, Lp->ticket, 0, sizeof(int64_t));
    strata_team_policy_t pol = strata_team_policy(F->walk_league, F->walk_rows, F->walk_lanes);
    if (st == STRATA_SUCCESS) st = strata_parallel_for_team(exec, "strata_ilu_walk", &pol, &strata_ilu_walk, &wa);
    strata_status_t fs = strata_mem_free_async(exec, (void **)&a0);
    if (st == STRATA_SUCCESS) st = fs;
  } else if (st == STRATA_SUCCESS && F->opts.algorithm == STRATA_ILU_LEVELS) {
    const strata_sptrsv_t *Lp = F->lower;
    strata_ilu_rows_args_t ra = {LU->row_offsets, LU->col_indices, LU->values, F->diag_pos, Lp->perm, 0, 0, 1,
                                 F->list_start, F->list};
    for (int s = 0; s < Lp->num_steps && st == STRATA_SUCCESS; ++s) {
      const strata_impl_sptrsv_step_t *q = &Lp->steps[s];
      ra.begin = q->begin;
      ra.end = q->end;
      ra.per = q->per;
      st = strata_parallel_for(exec, "strata_ilu_rows", strata_range(0, (q->end - q->begin + q->per - 1) / q->per),
                               &strata_ilu_rows, &ra);
    }
  } else if (st == STRATA_SUCCESS) { /* Chow–Patel: a0 = the values just placed, then sweeps */
    double *a0 = NULL, *buf = NULL;
    st = strata_mem_alloc_async(exec, sizeof(double) * (size_t)LU->nnz, (void **)&a0);
    if (st == STRATA_SUCCESS) st = strata_mem_alloc_async(exec, sizeof(double) * (size_t)LU->nnz, (void **)&buf);
    if (st == STRATA_SUCCESS) st = strata_mem_copy_async(exec, a0, LU->values, sizeof(double) * (size_t)LU->nnz);
    strata_ilu_sweep_args_t sa = {LU->row_offsets, LU->col_indices, F->diag_pos, a0, NULL, LU->values, 1};
    if (st == STRATA_SUCCESS)
      st = strata_parallel_for(exec, "strata_ilu_cp_guess", strata_range(0, n), &strata_ilu_sweep, &sa);
    sa.scale = 0;
    double *cur = LU->values, *other = buf;
    for (int s = 0; s < F->opts.sweeps && st == STRATA_SUCCESS; ++s) {
      sa.in = cur;
      sa.out = other;
      st = strata_parallel_for(exec, "strata_ilu_cp_sweep", strata_range(0, n), &strata_ilu_sweep, &sa);
      other = cur;
      cur = sa.out;
    }
    if (st == STRATA_SUCCESS && cur != LU->values)
      st = strata_mem_copy_async(exec, LU->values, cur, sizeof(double) * (size_t)LU->nnz);
    strata_mem_free_async(exec, (void **)&a0);
    strata_mem_free_async(exec, (void **)&buf);
  }
  if (st == STRATA_SUCCESS) st = check_pivots(exec, F, what);
  if (st == STRATA_SUCCESS) st = strata_sptrsv_update_values(exec, F->lower, LU);
  if (st == STRATA_SUCCESS && F->upper) st = strata_sptrsv_update_values(exec, F->upper, LU);
  if (st == STRATA_SUCCESS) F->ok = 1;
  return st;
}

static strata_status_t check_common(strata_exec_t *exec, const strata_crs_matrix_t *A, const char *what) {
  if (!exec || !A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, exec ? "matrix A" : "execution space");
  return check_matrix(exec, A, what);
}

strata_status_t strata_ilu_create(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_ilu_options_t *opts,
                                  strata_ilu_t **Fp) {
  ilu_refused_row = -1;
  if (!Fp) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_create: NULL output");
  *Fp = NULL;
  strata_status_t st = check_common(exec, A, "ilu_create");
  if (st != STRATA_SUCCESS) return st;
  strata_ilu_options_t o;
  strata_ilu_options_default(&o);
  if (opts) o = *opts;
  st = check_options(&o);
  if (st != STRATA_SUCCESS) return st;
  strata_ilu_t *F = (strata_ilu_t *)calloc(1, sizeof *F);
  if (!F) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "ilu_create: the factorization");
  F->exec = exec;
  F->opts = o;
  F->n = A->num_rows;
  const strata_crs_matrix_t *As = NULL;
  strata_crs_matrix_t *owned = NULL;
  double t0 = strata_timer_now();
  st = sorted(exec, A, &As, &owned);
  int64_t missing = -1;
  if (st == STRATA_SUCCESS) st = diag_positions(exec, As, NULL, &missing);
  if (st == STRATA_SUCCESS && missing >= 0) {
    ilu_refused_row = missing;
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "ilu_create: row %lld has no stored diagonal entry (every row of A needs one; store an "
                          "explicit zero and set diag_shift, or fix the matrix)",
                          (long long)missing);
  }
  if (st == STRATA_SUCCESS) {
    F->nnz_a = As->nnz;
    st = symbolic(exec, F, As);
  }
  if (st == STRATA_SUCCESS) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * (size_t)F->n, (void **)&F->diag_pos);
  if (st == STRATA_SUCCESS) st = diag_positions(exec, F->LU, F->diag_pos, &missing);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  double t1 = strata_timer_now();
  F->stats.symbolic_s = t1 - t0;
  strata_sptrsv_options_t so = {STRATA_LOWER, STRATA_DIAG_UNIT, 0, o.sptrsv};
  if (st == STRATA_SUCCESS) st = strata_sptrsv_create(exec, F->LU, &so, &F->lower);
  if (st == STRATA_SUCCESS) st = update_lists(exec, F);
  if (st == STRATA_SUCCESS) st = walk_shape(exec, F);
  double t2 = strata_timer_now();
  if (st == STRATA_SUCCESS) st = numeric(exec, F, As, "ilu_create");
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  double t3 = strata_timer_now();
  so.triangle = STRATA_UPPER;
  so.diag = STRATA_DIAG_NON_UNIT;
  if (st == STRATA_SUCCESS) st = strata_sptrsv_create(exec, F->LU, &so, &F->upper);
  if (st == STRATA_SUCCESS) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(double) * (size_t)F->n, (void **)&F->work);
  double t4 = strata_timer_now();
  strata_crs_destroy(&owned);
  if (st != STRATA_SUCCESS) {
    strata_ilu_destroy(&F);
    return st;
  }
  F->stats.numeric_s = t3 - t2;
  F->stats.analysis_s = (t2 - t1) + (t4 - t3);
  F->stats.nnz = F->LU->nnz;
  strata_sptrsv_levels(F->lower, &F->stats.levels_lower);
  strata_sptrsv_levels(F->upper, &F->stats.levels_upper);
  *Fp = F;
  return STRATA_SUCCESS;
}

strata_status_t strata_ilu_refactor(strata_exec_t *exec, strata_ilu_t *F, const strata_crs_matrix_t *A) {
  ilu_refused_row = -1;
  if (!F) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_refactor: NULL factorization");
  if (!exec) exec = F->exec;
  strata_status_t st = check_common(exec, A, "ilu_refactor");
  if (st != STRATA_SUCCESS) return st;
  if (A->num_rows != F->n)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_refactor: A has %d rows, the factorization %d",
                            (int)A->num_rows, (int)F->n);
  const strata_crs_matrix_t *As = NULL;
  strata_crs_matrix_t *owned = NULL;
  const double t0 = strata_timer_now();
  st = sorted(exec, A, &As, &owned);
  if (st == STRATA_SUCCESS && As->nnz != F->nnz_a)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "ilu_refactor: A has %lld entries (sorted, duplicates merged), the factored one had %lld "
                          "(the same pattern is needed; make a new factorization)",
                          (long long)As->nnz, (long long)F->nnz_a);
  if (st == STRATA_SUCCESS) {
    F->ok = 0;
    st = numeric(exec, F, As, "ilu_refactor");
  }
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  strata_crs_destroy(&owned);
  F->stats.numeric_s = strata_timer_now() - t0;
  return st;
}

strata_status_t strata_ilu_solve(strata_exec_t *exec, const strata_ilu_t *F, const double *r, double *z) {
  if (!F) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_solve: NULL factorization");
  if (!F->ok)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "ilu_solve: the last factorization failed (see its error); refactor with valid values first");
  if (!exec) exec = F->exec;
  const int64_t n = F->n;
  if (n == 0) return STRATA_SUCCESS;
  if (!r || !z)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_solve: NULL %s with n = %lld", r ? "z" : "r", (long long)n);
  if ((uintptr_t)r < (uintptr_t)(z + n) && (uintptr_t)z < (uintptr_t)(r + n))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "ilu_solve: r [%lld doubles at %p] and z [%lld at %p] overlap; give z its own array",
                            (long long)n, (const void *)r, (long long)n, (const void *)z);
  strata_status_t st = strata_sptrsv_solve(exec, F->lower, r, F->work);
  if (st == STRATA_SUCCESS) st = strata_sptrsv_solve(exec, F->upper, F->work, z);
  return st;
}

strata_status_t strata_ilu_factors(const strata_ilu_t *F, const strata_crs_matrix_t **LU) {
  if (!F || !LU) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_factors: NULL %s", F ? "output" : "factorization");
  *LU = F->LU;
  return STRATA_SUCCESS;
}

strata_status_t strata_ilu_stats(const strata_ilu_t *F, strata_precond_stats_t *stats) {
  if (!F || !stats) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "ilu_stats: NULL %s", F ? "output" : "factorization");
  *stats = F->stats;
  return STRATA_SUCCESS;
}

strata_status_t strata_ilu_destroy(strata_ilu_t **Fp) {
  if (!Fp || !*Fp) return STRATA_SUCCESS;
  strata_ilu_t *F = *Fp;
  strata_sptrsv_destroy(&F->lower);
  strata_sptrsv_destroy(&F->upper);
  strata_mem_free(F->exec, STRATA_MEM_DEVICE, (void **)&F->diag_pos);
  strata_mem_free(F->exec, STRATA_MEM_DEVICE, (void **)&F->work);
  strata_mem_free(F->exec, STRATA_MEM_DEVICE, (void **)&F->list_start);
  strata_mem_free(F->exec, STRATA_MEM_DEVICE, (void **)&F->list);
  strata_crs_destroy(&F->LU);
  free(F);
  *Fp = NULL;
  return STRATA_SUCCESS;
}
