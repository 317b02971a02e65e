/* strata bench — the dist suite (issue 29 item 8; DESIGN §10), in builds with MPI only:
 *
 *   mpirun -np N strata bench dist [--matrix gen:laplace7:M|gen:poisson27:M|FILE.mtx ...] [--quick]
 *
 * Inputs: each --matrix (default gen:laplace7: 100^3 rows, 16^3 with --quick) is read or generated
 * on rank 0 and given whole to strata_dist_crs_create_from_entries, which sends every row to its
 * owner: block rows (strata_dist_map_create_block), x distributed like the columns; with
 * --partition metis|auto (square inputs) the rows are partitioned on rank 0 by
 * strata_dist_partition_crs, the matrix renumbered there (P A P^T, each rank's rows contiguous) and
 * the partition's map used for rows and columns (the reference is that of the renumbered matrix). Records per
 * input and backend, each aggregated over the ranks (every rank holds the same records; rank 0
 * prints, the others print nothing — dist_start):
 *   strata_vector, strata_overlap, strata_task   y = A x by strata_dist_crs_spmv in that mode
 *   phase_pack     strata_dist_plan_import_begin of a plan with the matrix's ghosts (receives
 *                  posted, the pack kernel, the fence, the sends started): dist.h exposes no phase
 *                  timings inside strata_dist_crs_spmv, so each phase is timed on its own
 *   phase_wait     strata_dist_plan_end of that import (the wait; staged: the copy to exec memory);
 *                  pack and wait come from one loop of begin + end, clocked between the two
 *   phase_local    the diagonal block's row-class SpMV alone (its own loop)
 *   phase_offdiag  the off-diagonal block's, on the imported ghost buffer (its own loop)
 *   cg_iteration   one CG iteration by hand (vector-mode SpMV, 2 strata_dist_vec_dot, 3 updates);
 *                  checked: 10 iterations against a host CG; skipped, as the two below, for inputs
 *                  that are not symmetric with a positive diagonal
 *   cg_jacobi, cg_ras  one iteration of strata_krylov_solve's CG over strata_dist_operator_create
 *                  (vector mode) with strata_dist_precond_create's Jacobi, or RAS (outer overlap 1,
 *                  one inner partition, ILU(0)): b = ones, x0 = 0, tol 1e-14, DIST_SOLVE_ITERS
 *                  iterations (--quick: fewer); the time is the slowest rank's solve_s / iterations,
 *                  the median of DIST_SOLVE_RUNS solves after a warm-up solve; the setup times in the
 *                  record (precond_setup_s). Only for inputs that are symmetric with a positive
 *                  diagonal (checked on rank 0; else skipped, said why). Checked: the solve ends at
 *                  the iteration limit, converged or stagnated, with a finite true residual (no
 *                  breakdown, nothing non-finite); the iterates themselves are tested in
 *                  tests/test_dist_solve.c, and cg_iteration's check covers the operator
 *   hypre_parcsr_matvec  HYPRE_ParCSRMatrixMatvec on the same rows per rank (host backends, builds
 *                  with hypre; 1 thread for serial, OpenMP's default for openmp)
 * Checks before any time counts: every mode's y (poisoned first), gathered to rank 0, against a
 * host reference there (plain CSR loop over the whole matrix; |y - yref| <= 4 eps (len + 2)
 * sum |a x| per row) and bit for bit against vector mode's; the ghost buffer bit for bit against
 * x at the ghost ids; D x + O x_ghost of the phases and hypre's y against the reference.
 * Timing (dist_time): the harness's method (bench.h) made collective: two warm-up calls, a fence;
 * every sample starts at an MPI_Barrier, makes R calls, fences, and counts the slowest rank's time
 * (MPI_Allreduce MAX), so every rank takes the same decisions (R, the number of samples); the
 * median over samples of sample / R. Phase times inside one loop are each the max over ranks.
 * Bytes (the minimal-traffic model, summed over ranks): 12 nnz + 8 (rows + 1) + 8 cols + 8 rows
 * of each rank's blocks and vectors, plus 16 per value sent (x read, send buffer written) and 8
 * per ghost (read by the off-diagonal block); gbytes_per_s divides by the slowest rank's time.
 * The phases' own: pack 16 per value sent; wait 8 per ghost (written); local the diagonal block's
 * 12 nnz + 8 (rows + 1) + 8 cols + 8 rows; offdiag 12 nnz + 8 (rows + 1) + 8 ghosts + 16 rows.
 * Halo bytes from strata_dist_plan_info (MPI traffic per import, the rank itself excluded).
 * Record members beyond the harness's: ranks, partition, threads_per_rank, halo_recv_bytes_sum (over ranks),
 * halo_recv_bytes_max, halo_send_bytes_max, ghosts_max, rows_per_rank_max, neighbors_max,
 * offdiag_nnz, build_s (strata_dist_crs_create_from_entries, slowest rank), the check's outcome
 * (check_wrong_rows, check_wrong_ghosts, check_max_rel_diff); the modes add pack_s, wait_s,
 * local_s, offdiag_s (the phase records' medians), exchange_hidden_fraction = (vector's time -
 * this mode's) / (pack + wait), bitwise_equal_vector and strata_over_hypre (this mode's time /
 * hypre's); ratio_to_peer is the harness's hypre / strata.
 * After the matrices: the FE assembly records and their Tpetra peer (suite_dist_fem.c; not with --no-fe). */
#include "strata/config.h"

#include "bench_harness.h"

#if STRATA_HAVE_MPI
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_hypre.h"
#include "strata/dist.h"
#include "suite_dist.h"
#include "strata/vector.h"
#if BENCH_HAVE_HYPRE
#include "HYPRE.h"
#include "HYPRE_IJ_mv.h"
#include "HYPRE_parcsr_mv.h"
#endif

#define SUITE "dist"
#define MSG_LEN 200 /* bench_result_t.msg */
static int g_rank, g_size = 1;

/* ------------------------------------------------------------------ MPI, agreement */
static void dist_mpi_stop(void) { strata_dist_finalize(); }

/* MPI started (at MPI_THREAD_SERIALIZED, for task mode; through hypre's start where the build has
 * hypre, so that hypre is started once), ranks other than 0 silenced; under several ranks only
 * this suite may run (the others are single-process: exit 2) */
static int dist_start(void) {
  char err[300] = "";
  int init = 0;
  if (bench_hypre_available()) {
    if (bench_hypre_start(err, sizeof err)) {
      fprintf(stderr, "strata bench: dist: %s\n", err);
      return 4;
    }
  } else {
    MPI_Initialized(&init);
    int provided = 0;
    if (!init) {
      if (strata_dist_init(NULL, NULL, MPI_THREAD_SERIALIZED, &provided)) {
        fprintf(stderr, "strata bench: dist: %s\n", strata_error_message());
        return 4;
      }
      atexit(dist_mpi_stop);
    }
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (g_rank > 0) { /* every record is the same on every rank: rank 0 says it */
    if (!freopen("/dev/null", "w", stdout)) return 4;
    bench_cfg.silent = 1, bench_cfg.progress = 0, bench_cfg.out = NULL;
  }
  for (int q = 0; bench_suites[q] && g_size > 1; ++q)
    if (strcmp(bench_suites[q]->name, SUITE) && bench_suite_selected(bench_suites[q]->name)) {
      if (g_rank == 0)
        fprintf(stderr, "strata bench: under mpirun with %d ranks only the dist suite runs (the %s suite is "
                "single-process; run it without mpirun)\n", g_size, bench_suites[q]->name);
      return 2;
    }
  return 0;
}

/* 1 on every rank when `failed` on any; msg (MSG_LEN) then holds the lowest failing rank's message
 * ("rank R: ..." under several ranks, unless it names its rank already: dist's agreed messages) */
static int agree_fail(int failed, char *msg) {
  int in[2] = {failed ? 0 : 1, g_rank}, out[2];
  MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  if (out[0]) return 0;
  char buf[MSG_LEN];
  if (g_rank == out[1]) snprintf(buf, sizeof buf, "%s", msg);
  MPI_Bcast(buf, MSG_LEN, MPI_CHAR, out[1], MPI_COMM_WORLD);
  buf[MSG_LEN - 1] = '\0';
  if (g_size > 1 && strncmp(buf, "rank ", 5)) snprintf(msg, MSG_LEN, "rank %d: %.*s", out[1], MSG_LEN - 16, buf);
  else snprintf(msg, MSG_LEN, "%s", buf);
  return 1;
}

int dist_agree_fail(int failed, char *msg) { return agree_fail(failed, msg); }

/* ------------------------------------------------------------------ collective timing */
#define DT_MAX_SAMPLES 2000
#define DT_MAX_PHASES 2
#define DT_MIN_BATCH_S 1e-3
#define DT_MAX_REPS 1000000
#define DT_CALIBRATED 1.2

/* One sample: the ranks start together (MPI_Barrier), make reps calls (all of them, also after an
 * error: the calls may be collective), fence; returns the slowest rank's time, pmax[i] the largest
 * acc[i] (the phases the calls added up), *fail 1 on every rank when a call failed on any. */
static double dist_sample(strata_exec_t *e, bench_fn f, void *ctx, int64_t *call, int64_t reps, double *acc, int nacc,
                          double *pmax, int *st, int *fail) {
  for (int i = 0; i < nacc; ++i) acc[i] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = strata_timer_now();
  for (int64_t r = 0; r < reps; ++r) {
    const int s = f(ctx, (*call)++);
    if (s && !*st) *st = s;
  }
  bench_sync(e);
  double v[2 + DT_MAX_PHASES];
  v[0] = strata_timer_now() - t0;
  for (int i = 0; i < nacc; ++i) v[1 + i] = acc[i];
  v[1 + nacc] = *st ? 1.0 : 0.0;
  MPI_Allreduce(MPI_IN_PLACE, v, 2 + nacc, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < nacc; ++i) pmax[i] = v[1 + i];
  *fail = v[1 + nacc] > 0;
  return v[0];
}

static int64_t grow_reps(int64_t reps, double dt, double target) {
  const double grow = dt > 0 ? DT_CALIBRATED * 1.25 * target / dt : 10.0;
  return (int64_t)fmin((double)DT_MAX_REPS, ceil((double)reps * fmin(grow, 10.0)));
}

/* bench_time (bench.h) over the ranks: warm-up, R calibrated from agreed (max) times, samples of at
 * least 1 ms until --min-time and 5 samples; *s the median of sample / R, ps[i] that of phase i
 * (f adds phase times to acc[0, nacc)). 0, or -1 on every rank with the message in msg. */
static int dist_time(strata_exec_t *e, bench_fn f, void *ctx, double *acc, int nacc, bench_stats_t *s,
                     bench_stats_t *ps, char *msg) {
  int st = 0, fail = 0, rc = -1;
  int64_t call = 0;
  double pm[DT_MAX_PHASES], *t = NULL, *pt = NULL;
  for (int w = 0; w < 2; ++w) {
    const int x = f(ctx, call++);
    if (x && !st) st = x;
  }
  bench_sync(e);
  const double one = dist_sample(e, f, ctx, &call, 1, acc, nacc, pm, &st, &fail);
  if (fail) goto out;
  double target = fmax(bench_cfg.min_time / 20, DT_MIN_BATCH_S);
  int64_t reps = one > 0 ? (int64_t)ceil(target / one) : 1000;
  reps = reps < 1 ? 1 : reps > DT_MAX_REPS ? DT_MAX_REPS : reps;
  for (int tries = 0; tries < 20 && reps < DT_MAX_REPS; ++tries) {
    const double dt = dist_sample(e, f, ctx, &call, reps, acc, nacc, pm, &st, &fail);
    if (fail) goto out;
    if (dt >= DT_CALIBRATED * target) break;
    reps = grow_reps(reps, dt, target);
  }
  t = (double *)malloc(DT_MAX_SAMPLES * sizeof(double));
  pt = (double *)malloc((size_t)(nacc + 1) * DT_MAX_SAMPLES * sizeof(double));
  int nomem = !t || !pt;
  MPI_Allreduce(MPI_IN_PLACE, &nomem, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (nomem) {
    snprintf(msg, MSG_LEN, "out of host memory for the samples");
    goto out;
  }
  int n = 0, restarts = 0;
  double elapsed = 0; /* the sum of agreed times: the same on every rank, so are the decisions */
  while (n < DT_MAX_SAMPLES && (n < 5 || elapsed < bench_cfg.min_time)) {
    const double dt = dist_sample(e, f, ctx, &call, reps, acc, nacc, pm, &st, &fail);
    if (fail) goto out;
    elapsed += dt;
    if (dt < DT_MIN_BATCH_S && reps < DT_MAX_REPS && restarts < 8) { /* as bench_time: every sample >= 1 ms */
      reps = grow_reps(reps, dt, target);
      n = 0, elapsed = 0, ++restarts;
      continue;
    }
    t[n] = dt / (double)reps;
    for (int i = 0; i < nacc; ++i) pt[i * DT_MAX_SAMPLES + n] = pm[i] / (double)reps;
    ++n;
  }
  bench_stats_from_samples(t, n, (int)reps, s);
  for (int i = 0; i < nacc; ++i) bench_stats_from_samples(pt + i * DT_MAX_SAMPLES, n, (int)reps, &ps[i]);
  rc = 0;
out:
  if (fail) {
    snprintf(msg, MSG_LEN, "%s", st ? strata_error_message() : "");
    agree_fail(st != 0, msg);
  }
  free(t);
  free(pt);
  return rc;
}

/* ------------------------------------------------------------------ one input on one backend */
/* x's value at global column j: not constant, never zero (METHOD: never time on zeros) */
static double x_value(int64_t j) { return 1.0 + (double)((j * 37) % 101) / 128.0; }

/* the input on rank 0 (host memory), the reference there */
typedef struct dist_input {
  const strata_crs_matrix_t *Ah; /* rank 0 only */
  int64_t *rows, *cols;          /* rank 0: the entries' global ids */
  double *yref, *tol, *yall, *yvec; /* rank 0: [rows] reference, tolerance, gathered y, vector mode's y */
  int have_vec;                  /* rank 0: yvec holds this backend's vector-mode y */
  int64_t nrows, ncols, nnz;     /* every rank */
  const char *name;
  const char *partition;         /* every rank: "block", or the partitioner's name */
  int spd;                       /* every rank: 1 symmetric with a positive diagonal (rank 0's check) */
  char spd_why[120];             /* every rank: why not, when spd is 0 */
  double partition_s;            /* strata_dist_partition_crs and the renumbering, the slowest rank */
} dist_input_t;

typedef struct dist_case {
  strata_exec_t *e;
  strata_backend_t b;
  strata_dist_crs_t *A;
  strata_dist_crs_info_t info;
  strata_dist_plan_t *plan; /* the phases' import: the matrix's ghosts */
  strata_spmv_plan_t *pdiag, *poff;
  double *x, *y, *dummy;    /* exec memory: [cols + 1], [rows + 1], [1] */
  const double *ghost;      /* the plan's ghost buffer after an import (dummy when empty) */
  double *yh;               /* host [rows + 1] */
  strata_dist_mode_t mode;
  double acc[DT_MAX_PHASES];
  int64_t first_row, first_col;
  int *counts, *displs;     /* rank 0: rows per rank, first rows (Gatherv) */
#if BENCH_HAVE_HYPRE
  HYPRE_IJMatrix hij;
  HYPRE_ParCSRMatrix hA;
  HYPRE_IJVector hix, hiy;
  HYPRE_ParVector hx, hy;
  int hthreads;
#endif
} dist_case_t;

static int run_mode(void *v, int64_t call) {
  dist_case_t *k = (dist_case_t *)v;
  (void)call;
  return strata_dist_crs_spmv(k->e, k->mode, 1.0, k->A, k->x, 0.0, k->y);
}

/* begin + end of the phases' import, clocked between them (acc[0] pack, acc[1] wait) */
static int run_exchange(void *v, int64_t call) {
  dist_case_t *k = (dist_case_t *)v;
  (void)call;
  const double t0 = strata_timer_now();
  const strata_status_t s0 = strata_dist_plan_import_begin(k->plan, k->e, k->x, NULL);
  const double t1 = strata_timer_now();
  const strata_status_t s1 = s0 ? s0 : strata_dist_plan_end(k->plan);
  bench_sync(k->e); /* the copy out of a staged buffer is asynchronous on the plan's exec */
  k->acc[0] += t1 - t0;
  k->acc[1] += strata_timer_now() - t1;
  return s1;
}

static int run_local(void *v, int64_t call) {
  dist_case_t *k = (dist_case_t *)v;
  (void)call;
  return strata_spmv_plan_apply(k->e, k->pdiag, 1.0, k->info.diag, k->x, 0.0, k->y);
}

static int run_offdiag(void *v, int64_t call) {
  dist_case_t *k = (dist_case_t *)v;
  (void)call;
  return strata_spmv_plan_apply(k->e, k->poff, 1.0, k->info.offdiag, k->ghost, 1.0, k->y);
}

/* y (exec memory, this rank's rows) gathered to rank 0 and checked there against the reference
 * (and, vec != NULL, bit for bit against vector mode's y); 1 on every rank when it passed, else 0
 * (r->ok 0 and the message: wrong rows; or r->ok -1: y could not be read) */
static int check_y(dist_input_t *in, dist_case_t *k, const double *y, int keep_vector, bench_result_t *r, int *bitwise) {
  char msg[MSG_LEN] = "";
  const int32_t nr = k->info.num_local_rows;
  bench_sync(k->e);
  int failed = nr > 0 && strata_mem_copy(k->e, k->yh, y, (size_t)nr * sizeof(double)) != STRATA_SUCCESS;
  if (failed) snprintf(msg, sizeof msg, "copying y to the host for the check failed: %s", strata_error_message());
  if (agree_fail(failed, msg)) {
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    return 0;
  }
  MPI_Gatherv(k->yh, nr, MPI_DOUBLE, in->yall, k->counts, k->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double res[5] = {0, -1, 0, 0, 1}; /* wrong rows, first, its y, its reference, bit for bit as vector mode's */
  if (g_rank == 0) {
    bench_oracle_t o = {in->yref, in->tol, in->nrows};
    int64_t first = -1;
    res[0] = (double)bench_oracle_compare(&o, in->yall, &first);
    res[1] = (double)first;
    if (first >= 0) res[2] = in->yall[first], res[3] = in->yref[first];
    if (keep_vector) memcpy(in->yvec, in->yall, (size_t)in->nrows * sizeof(double)), in->have_vec = 1;
    else if (bitwise) res[4] = in->have_vec ? !memcmp(in->yvec, in->yall, (size_t)in->nrows * sizeof(double)) : -1;
  }
  MPI_Bcast(res, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (bitwise) *bitwise = (int)res[4]; /* 1 equal, 0 not, -1 not compared (vector mode's y missing) */
  snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"check_wrong_rows\": %.0f", res[0]);
  if (res[0] > 0) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "%.0f wrong rows against the host reference on rank 0 (first %.0f: %.17g, reference "
             "%.17g): time not counted", res[0], res[1], res[2], res[3]);
    return 0;
  }
  return 1;
}

/* the per-rank numbers of the records: sums and maxima over ranks */
typedef struct dist_sizes {
  double bytes;                          /* the model's bytes per SpMV, all ranks */
  double phase_bytes[4];                 /* the same for pack, wait, local, offdiag */
  int64_t halo_recv_sum, halo_recv_max, halo_send_max, ghosts_max, rows_max, neighbors_max, offdiag_nnz;
  int threads;
  double build_s; /* strata_dist_crs_create_from_entries from rank 0's entries, the slowest rank */
} dist_sizes_t;

static void sizes_of(dist_case_t *k, dist_sizes_t *z) {
  strata_dist_plan_info_t pi;
  memset(&pi, 0, sizeof pi);
  strata_dist_plan_info(k->info.plan, &pi);
  const strata_dist_crs_info_t *I = &k->info;
  const double bytes = 12.0 * (double)I->nnz_local + 8.0 * (double)(I->num_local_rows + 1) + 8.0 * I->num_local_cols +
                       8.0 * I->num_local_rows + 16.0 * (double)pi.num_sends + 8.0 * I->num_ghosts;
  const int64_t nd = I->diag->nnz, no = I->offdiag->nnz, rows = I->num_local_rows;
  double s[7] = {bytes, (double)pi.recv_bytes, (double)no, 16.0 * (double)pi.num_sends, 8.0 * I->num_ghosts,
                 12.0 * (double)nd + 8.0 * (double)(rows + 1) + 8.0 * I->num_local_cols + 8.0 * (double)rows,
                 12.0 * (double)no + 8.0 * (double)(rows + 1) + 8.0 * I->num_ghosts + 16.0 * (double)rows};
  int64_t m[5] = {pi.recv_bytes, pi.send_bytes, I->num_ghosts, I->num_local_rows,
                  pi.num_recv_neighbors > pi.num_send_neighbors ? pi.num_recv_neighbors : pi.num_send_neighbors};
  MPI_Allreduce(MPI_IN_PLACE, s, 7, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 4; ++i) z->phase_bytes[i] = s[3 + i];
  MPI_Allreduce(MPI_IN_PLACE, m, 5, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  z->bytes = s[0], z->halo_recv_sum = (int64_t)s[1], z->offdiag_nnz = (int64_t)s[2];
  z->halo_recv_max = m[0], z->halo_send_max = m[1], z->ghosts_max = m[2], z->rows_max = m[3], z->neighbors_max = m[4];
  z->threads = strata_exec_concurrency(k->e);
}

static bench_result_t *add_record(const dist_input_t *in, const dist_case_t *k, const dist_sizes_t *z, const char *algo) {
  bench_result_t *r = bench_record_add(SUITE, k->b, in->name, algo);
  r->rows = in->nrows, r->cols = in->ncols, r->nnz = in->nnz;
  r->entries = (double)in->nnz;
  if (z) {
    r->bytes = z->bytes;
    snprintf(r->extra, sizeof r->extra, ", \"ranks\": %d, \"partition\": \"%s\", \"threads_per_rank\": %d, "
             "\"halo_recv_bytes_sum\": %lld, \"halo_recv_bytes_max\": %lld, \"halo_send_bytes_max\": %lld, \"ghosts_max\": %lld, "
             "\"rows_per_rank_max\": %lld, \"neighbors_max\": %lld, \"offdiag_nnz\": %lld, \"build_s\": %.6g, \"partition_s\": %.6g", g_size,
             in->partition, z->threads, (long long)z->halo_recv_sum,
             (long long)z->halo_recv_max, (long long)z->halo_send_max, (long long)z->ghosts_max, (long long)z->rows_max,
             (long long)z->neighbors_max, (long long)z->offdiag_nnz, z->build_s, in->partition_s);
  }
  return r;
}

/* the records of one input on one backend, in this order */
enum { R_VECTOR, R_OVERLAP, R_TASK, R_PACK, R_WAIT, R_LOCAL, R_OFFDIAG, R_CG, R_CG_JACOBI, R_CG_RAS, R_HYPRE, R_N };
static const char *const rec_algo[R_N] = {"strata_vector", "strata_overlap", "strata_task", "phase_pack",
                                          "phase_wait", "phase_local", "phase_offdiag", "cg_iteration",
                                          "cg_jacobi", "cg_ras", "hypre_parcsr_matvec"};

static void copy_msg(bench_result_t *dst, const bench_result_t *src) { memcpy(dst->msg, src->msg, sizeof dst->msg); }

/* a measurement that could not run on some rank: the message agreed, r an error */
static int failed_here(int failed, const char *what, bench_result_t *r) {
  char msg[MSG_LEN];
  snprintf(msg, sizeof msg, "%s: %s", what, failed ? strata_error_message() : "");
  if (!agree_fail(failed, msg)) return 0;
  snprintf(r->msg, sizeof r->msg, "%s", msg);
  return 1;
}

static void time_into(dist_case_t *k, bench_fn f, bench_result_t *r, bench_stats_t *ps, int nacc) {
  r->ok = dist_time(k->e, f, k, k->acc, nacc, &r->t, ps, r->msg) ? -1 : 1;
}

#if BENCH_HAVE_HYPRE
static int run_hypre(void *v, int64_t call) {
  dist_case_t *k = (dist_case_t *)v;
  (void)call;
  const int old = bench_hypre_threads_set(k->hthreads);
  const int code = (int)HYPRE_ParCSRMatrixMatvec(1.0, k->hA, k->hx, 0.0, k->hy);
  bench_hypre_threads_restore(old);
  return code;
}

static void hypre_free(dist_case_t *k) {
  if (k->hij) HYPRE_IJMatrixDestroy(k->hij);
  if (k->hix) HYPRE_IJVectorDestroy(k->hix);
  if (k->hiy) HYPRE_IJVectorDestroy(k->hiy);
  k->hij = NULL, k->hix = k->hiy = NULL;
}

/* hypre's IJ matrix of this rank's rows, as strata holds them (the same partition): the diagonal
 * block's columns shifted by the first owned column, the off-diagonal block's by its ghost ids */
static int hypre_build(dist_case_t *k, char *err) {
  const strata_dist_crs_info_t *I = &k->info;
  strata_crs_matrix_t *D = NULL, *O = NULL;
  const int32_t nr = I->num_local_rows, nc = I->num_local_cols;
  if (strata_crs_copy(bench_cfg.serial, I->diag, &D) || strata_crs_copy(bench_cfg.serial, I->offdiag, &O)) {
    snprintf(err, MSG_LEN, "copying the blocks to the host: %s", strata_error_message());
    strata_crs_destroy(&D);
    return -1;
  }
  const int64_t nnz = D->nnz + O->nnz;
  HYPRE_Int *nd = (HYPRE_Int *)malloc(((size_t)nr + 1) * sizeof(HYPRE_Int));
  HYPRE_Int *no = (HYPRE_Int *)malloc(((size_t)nr + 1) * sizeof(HYPRE_Int));
  HYPRE_Int *ncols = (HYPRE_Int *)malloc(((size_t)nr + 1) * sizeof(HYPRE_Int));
  HYPRE_BigInt *rows = (HYPRE_BigInt *)malloc(((size_t)(nr > nc ? nr : nc) + 1) * sizeof(HYPRE_BigInt));
  HYPRE_BigInt *cols = (HYPRE_BigInt *)malloc(((size_t)nnz + 1) * sizeof(HYPRE_BigInt));
  double *vals = (double *)malloc(((size_t)nnz + 1) * sizeof(double));
  double *xv = (double *)malloc(((size_t)nc + 1) * sizeof(double));
  int rc = -1;
  if (!nd || !no || !ncols || !rows || !cols || !vals || !xv) {
    snprintf(err, MSG_LEN, "out of host memory for hypre's copy (%lld entries)", (long long)nnz);
    goto out;
  }
  int64_t q = 0;
  for (int32_t i = 0; i < nr; ++i) {
    nd[i] = (HYPRE_Int)(D->row_offsets[i + 1] - D->row_offsets[i]);
    no[i] = (HYPRE_Int)(O->row_offsets[i + 1] - O->row_offsets[i]);
    ncols[i] = nd[i] + no[i];
    rows[i] = (HYPRE_BigInt)(k->first_row + i);
    for (int64_t p = D->row_offsets[i]; p < D->row_offsets[i + 1]; ++p)
      cols[q] = (HYPRE_BigInt)(k->first_col + D->col_indices[p]), vals[q++] = D->values[p];
    for (int64_t p = O->row_offsets[i]; p < O->row_offsets[i + 1]; ++p)
      cols[q] = (HYPRE_BigInt)I->ghost_gids[O->col_indices[p]], vals[q++] = O->values[p];
  }
  const HYPRE_BigInt r0 = (HYPRE_BigInt)k->first_row, c0 = (HYPRE_BigInt)k->first_col;
  HYPRE_Int code = HYPRE_IJMatrixCreate(MPI_COMM_WORLD, r0, r0 + nr - 1, c0, c0 + nc - 1, &k->hij);
  if (!code) code = HYPRE_IJMatrixSetObjectType(k->hij, HYPRE_PARCSR);
  if (!code) code = HYPRE_IJMatrixSetDiagOffdSizes(k->hij, nd, no);
  if (!code) code = HYPRE_IJMatrixInitialize(k->hij);
  if (!code && nr) code = HYPRE_IJMatrixSetValues(k->hij, nr, ncols, rows, cols, vals);
  if (!code) code = HYPRE_IJMatrixAssemble(k->hij);
  if (!code) code = HYPRE_IJMatrixGetObject(k->hij, (void **)&k->hA);
  for (int32_t j = 0; j < nc; ++j) xv[j] = x_value(k->first_col + j);
  for (int v = 0; v < 2 && !code; ++v) {
    HYPRE_IJVector *iv = v ? &k->hiy : &k->hix;
    const HYPRE_BigInt lo = v ? r0 : c0, n = v ? nr : nc;
    code = HYPRE_IJVectorCreate(MPI_COMM_WORLD, lo, lo + n - 1, iv);
    if (!code) code = HYPRE_IJVectorSetObjectType(*iv, HYPRE_PARCSR);
    if (!code) code = HYPRE_IJVectorInitialize(*iv);
    for (HYPRE_BigInt j = 0; j < n; ++j) rows[j] = lo + j;
    if (!code && n && !v) code = HYPRE_IJVectorSetValues(*iv, (HYPRE_Int)n, rows, xv);
    if (!code) code = HYPRE_IJVectorAssemble(*iv);
    if (!code) code = HYPRE_IJVectorGetObject(*iv, (void **)(v ? &k->hy : &k->hx));
  }
  if (!bench_hypre_code_failed((int)code, "building the IJ matrix and vectors", err, MSG_LEN)) rc = 0;
out:
  free(nd), free(no), free(ncols), free(rows), free(cols), free(vals), free(xv);
  strata_crs_destroy(&D);
  strata_crs_destroy(&O);
  return rc;
}

/* y of hypre's matvec read into exec-independent host memory k->yh (this rank's rows) */
static int hypre_y(dist_case_t *k, char *err) {
  const int32_t nr = k->info.num_local_rows;
  HYPRE_BigInt *idx = (HYPRE_BigInt *)malloc(((size_t)nr + 1) * sizeof(HYPRE_BigInt));
  if (!idx) {
    snprintf(err, MSG_LEN, "out of host memory");
    return -1;
  }
  for (int32_t i = 0; i < nr; ++i) idx[i] = (HYPRE_BigInt)(k->first_row + i);
  const HYPRE_Int code = nr ? HYPRE_IJVectorGetValues(k->hiy, nr, idx, k->yh) : 0;
  free(idx);
  return bench_hypre_code_failed((int)code, "reading y", err, MSG_LEN) ? -1 : 0;
}
#endif

/* the hypre peer on a host backend: built, applied once (y poisoned), checked, timed */
static void measure_hypre(dist_input_t *in, dist_case_t *k, bench_result_t *r) {
#if BENCH_HAVE_HYPRE
  k->hthreads = k->b == STRATA_BACKEND_SERIAL ? 1 : 0;
  char msg[MSG_LEN] = "";
  int failed = hypre_build(k, msg);
  if (!failed) {
    for (int32_t i = 0; i < k->info.num_local_rows; ++i) k->yh[i] = NAN;
    HYPRE_ParVectorSetConstantValues(k->hy, NAN); /* poisoned: the matvec must write every row */
    failed = bench_hypre_code_failed(run_hypre(k, 0), "the matvec", msg, MSG_LEN);
    if (!failed) failed = hypre_y(k, msg);
  }
  if (agree_fail(failed, msg)) {
    snprintf(r->msg, sizeof r->msg, "%s", msg);
  } else {
    /* the check reads k->yh, where hypre's y is: copy it to k->y (exec memory, a host backend) */
    if (k->info.num_local_rows) memcpy(k->y, k->yh, (size_t)k->info.num_local_rows * sizeof(double));
    if (check_y(in, k, k->y, 0, r, NULL)) {
      time_into(k, run_hypre, r, NULL, 0);
      const int old = bench_hypre_threads_set(0); /* the count hypre ran with */
      snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"hypre_threads\": %d",
               k->hthreads ? k->hthreads : old);
      if (r->ok == 1) snprintf(r->msg, sizeof r->msg, "HYPRE_ParCSRMatrixMatvec, the same rows per rank as strata");
    }
  }
  hypre_free(k);
#else
  (void)in, (void)k, (void)r;
#endif
}

/* ---- one CG iteration by hand: strata_dist_crs_spmv (vector mode), two strata_dist_vec_dot and
 * three vector updates, b = ones, from x = 0 (again from x = 0 once r·r < 1e-30 r0·r0: the timed
 * loop runs past convergence). A stand-in until the distributed Krylov solvers exist (issue 29
 * item 6): their own CG records replace it. */
#define CG_CHECK_ITERS 10
#define CG_CHECK_TOL 1e-9
typedef struct dist_cg {
  dist_case_t *k;
  const strata_dist_map_t *map;
  double *r, *p, *q, *x; /* exec memory [rows + 1] */
  double rr, rr0;        /* the same bits on every rank (strata_dist_vec_dot) */
} dist_cg_t;

#define CG_KEEP(call)         \
  do {                        \
    const strata_status_t s_ = (call); \
    if (!st) st = s_;         \
  } while (0)

static strata_status_t cg_reset(dist_cg_t *c) {
  strata_exec_t *e = c->k->e;
  const int32_t n = c->k->info.num_local_rows;
  strata_status_t st = STRATA_SUCCESS;
  CG_KEEP(strata_vec_fill(e, n, 0.0, c->x));
  CG_KEEP(strata_vec_fill(e, n, 1.0, c->r));
  CG_KEEP(strata_vec_fill(e, n, 1.0, c->p));
  c->rr = c->rr0;
  return st;
}

/* every call is made on every rank whatever failed before (the collective ones agree) */
static int run_cg(void *v, int64_t call) {
  dist_cg_t *c = (dist_cg_t *)v;
  dist_case_t *k = c->k;
  strata_exec_t *e = k->e;
  const int32_t n = k->info.num_local_rows;
  (void)call;
  strata_status_t st = STRATA_SUCCESS;
  if (!(c->rr > 1e-30 * c->rr0)) CG_KEEP(cg_reset(c));
  double pq = 0, rr1 = 0;
  CG_KEEP(strata_dist_crs_spmv(e, STRATA_DIST_VECTOR, 1.0, k->A, c->p, 0.0, c->q));
  CG_KEEP(strata_dist_vec_dot(e, c->map, c->p, c->q, &pq));
  const double alpha = pq != 0 ? c->rr / pq : 0;
  CG_KEEP(strata_vec_axpy(e, n, alpha, c->p, c->x));
  CG_KEEP(strata_vec_axpy(e, n, -alpha, c->q, c->r));
  CG_KEEP(strata_dist_vec_dot(e, c->map, c->r, c->r, &rr1));
  CG_KEEP(strata_vec_axpby(e, n, 1.0, c->r, c->rr > 0 ? rr1 / c->rr : 0, c->p));
  c->rr = pq != 0 ? rr1 : 0; /* a breakdown restarts the next call */
  return st;
}

/* the same iterations on the host, rank 0, over the whole matrix: x after `iters` from x = 0 */
static int host_cg(const strata_crs_matrix_t *A, int iters, double *x) {
  const int64_t n = A->num_rows;
  double *r = (double *)malloc(((size_t)n + 1) * sizeof(double)), *p = (double *)malloc(((size_t)n + 1) * sizeof(double));
  double *q = (double *)malloc(((size_t)n + 1) * sizeof(double));
  if (!r || !p || !q) {
    free(r), free(p), free(q);
    return -1;
  }
  double rr = (double)n;
  for (int64_t i = 0; i < n; ++i) x[i] = 0, r[i] = p[i] = 1;
  for (int it = 0; it < iters; ++it) {
    double pq = 0, rr1 = 0;
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t t = A->row_offsets[i]; t < A->row_offsets[i + 1]; ++t) s += A->values[t] * p[A->col_indices[t]];
      q[i] = s, pq += p[i] * s;
    }
    const double alpha = rr / pq;
    for (int64_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i], rr1 += r[i] * r[i];
    for (int64_t i = 0; i < n; ++i) p[i] = r[i] + rr1 / rr * p[i];
    rr = rr1;
  }
  free(r), free(p), free(q);
  return 0;
}

/* cg_iteration: CG_CHECK_ITERS iterations checked against host_cg (max |x - x_host| <= tol max
 * |x_host|), then one iteration timed */
static void measure_cg(dist_input_t *in, dist_case_t *k, const strata_dist_map_t *rmap, bench_result_t *r) {
  if (!in->spd) { /* CG on a matrix that is not SPD amplifies rounding: no check would hold */
    r->ok = -2;
    snprintf(r->msg, sizeof r->msg, "skipped: CG needs a symmetric matrix with a positive diagonal (%s)", in->spd_why);
    return;
  }
  dist_cg_t c;
  memset(&c, 0, sizeof c);
  c.k = k, c.map = rmap, c.rr0 = (double)in->nrows;
  const int32_t n = k->info.num_local_rows;
  double **v[4] = {&c.r, &c.p, &c.q, &c.x};
  strata_status_t st = STRATA_SUCCESS;
  for (int i = 0; i < 4; ++i) CG_KEEP(strata_mem_alloc(k->e, STRATA_MEM_DEVICE, ((size_t)n + 1) * 8, (void **)v[i]));
  if (!failed_here(st != 0, "CG's vectors", r)) {
    st = cg_reset(&c);
    for (int it = 0; it < CG_CHECK_ITERS; ++it) CG_KEEP(run_cg(&c, it));
    bench_sync(k->e);
    if (!failed_here(st != 0, "CG's iterations", r)) {
      double res[2] = {0, 0}; /* max |x - x_host| / max |x_host|; 1: the host CG failed */
      const int failed = n > 0 && strata_mem_copy(k->e, k->yh, c.x, (size_t)n * 8) != STRATA_SUCCESS;
      int any = failed;
      MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      if (!any) MPI_Gatherv(k->yh, n, MPI_DOUBLE, in->yall, k->counts, k->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (!any && g_rank == 0) {
        if (host_cg(in->Ah, CG_CHECK_ITERS, in->yvec)) res[1] = 1;
        double d = 0, m = 0;
        for (int64_t i = 0; !res[1] && i < in->nrows; ++i) {
          d = fmax(d, fabs(in->yall[i] - in->yvec[i]));
          m = fmax(m, fabs(in->yvec[i]));
          if (in->yall[i] != in->yall[i]) d = INFINITY;
        }
        res[0] = m > 0 ? d / m : d;
        in->have_vec = 0; /* yvec now holds the host CG's x */
      }
      MPI_Bcast(res, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      if (any || res[1]) {
        snprintf(r->msg, sizeof r->msg, "%s", any ? "copying x to the host failed on some rank" : "rank 0: no memory for the host CG");
      } else {
        snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"check_cg_iterations\": %d, "
                 "\"check_max_rel_diff\": %.3g", CG_CHECK_ITERS, res[0]);
        if (!(res[0] <= CG_CHECK_TOL)) {
          r->ok = 0;
          snprintf(r->msg, sizeof r->msg, "x after %d iterations differs from the host CG's by %.3g of max |x| (> %g): "
                   "time not counted", CG_CHECK_ITERS, res[0], CG_CHECK_TOL);
        } else {
          r->ok = dist_time(k->e, run_cg, &c, k->acc, 0, &r->t, NULL, r->msg) ? -1 : 1;
          if (r->ok == 1)
            snprintf(r->msg, sizeof r->msg, "one CG iteration by hand: vector-mode SpMV, 2 strata_dist_vec_dot, 3 vector "
                     "updates (b = ones, x = 0 again once r.r < 1e-30 r0.r0)");
        }
      }
    }
  }
  for (int i = 0; i < 4; ++i) strata_mem_free(k->e, STRATA_MEM_DEVICE, (void **)v[i]);
}

/* ---- CG of the solvers over the distributed operator, with a preconditioner over ranks */
#define DIST_SOLVE_ITERS 30
#define DIST_SOLVE_ITERS_QUICK 10
#define DIST_SOLVE_RUNS 3
#define DIST_SOLVE_RUNS_QUICK 2

/* cg_jacobi / cg_ras: the setup once, a warm-up solve, then a fixed number of solves (the same on
 * every rank: no decision depends on a clock); each run's time the slowest rank's solve_s divided by
 * its iterations (the same on every rank: the solver agrees) */
static void measure_solve(dist_input_t *in, dist_case_t *k, strata_dist_precond_kind_t kind, bench_result_t *r) {
  if (!in->spd) {
    r->ok = -2;
    snprintf(r->msg, sizeof r->msg, "skipped: CG needs a symmetric matrix with a positive diagonal (%s)", in->spd_why);
    return;
  }
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  double *b = NULL, *x = NULL;
  strata_krylov_result_t res;
  memset(&res, 0, sizeof res);
  const int32_t n = k->info.num_local_rows;
  strata_status_t st = strata_dist_operator_create(k->e, k->A, STRATA_DIST_VECTOR, &op); /* agreed */
  if (st) {
    snprintf(r->msg, sizeof r->msg, "strata_dist_operator_create: %s", strata_error_message());
    return;
  }
  st = strata_mem_alloc(k->e, STRATA_MEM_DEVICE, ((size_t)n + 1) * 8, (void **)&b);
  if (!st) st = strata_mem_alloc(k->e, STRATA_MEM_DEVICE, ((size_t)n + 1) * 8, (void **)&x);
  if (!st) st = strata_vec_fill(k->e, n, 1.0, b);
  if (failed_here(st != 0, "the solve's vectors", r)) goto out;
  strata_dist_precond_options_t po;
  strata_dist_precond_options_default(&po);
  po.kind = kind; /* RAS: outer overlap 1, one inner partition, ILU(0) (the defaults) */
  MPI_Barrier(MPI_COMM_WORLD);
  double setup = strata_timer_now();
  st = strata_dist_precond_create(k->e, k->A, &po, &P); /* agreed */
  setup = strata_timer_now() - setup;
  if (st) {
    snprintf(r->msg, sizeof r->msg, "strata_dist_precond_create: %s", strata_error_message());
    goto out;
  }
  MPI_Allreduce(MPI_IN_PLACE, &setup, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = STRATA_KRYLOV_CG;
  ko.tol = 1e-14;
  const int runs = bench_cfg.quick ? DIST_SOLVE_RUNS_QUICK : DIST_SOLVE_RUNS;
  double t[DIST_SOLVE_RUNS + 1];
  int iters = 0;
  for (int q = 0; q <= runs; ++q) { /* q = 0: the warm-up */
    ko.max_iter = q ? (bench_cfg.quick ? DIST_SOLVE_ITERS_QUICK : DIST_SOLVE_ITERS) : 2;
    strata_krylov_result_free(&res);
    memset(&res, 0, sizeof res);
    st = strata_krylov_solve(k->e, op, P, b, x, &ko, &res); /* agreed; an iteration limit is expected */
    if (st == STRATA_ERR_NOT_CONVERGED) st = STRATA_SUCCESS;
    if (st) {
      snprintf(r->msg, sizeof r->msg, "strata_krylov_solve: %s", strata_error_message());
      goto out;
    }
    double s = res.solve_s;
    MPI_Allreduce(MPI_IN_PLACE, &s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (q) t[q - 1] = res.iterations > 0 ? s / res.iterations : s, iters = res.iterations;
  }
  snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"iterations\": %d, \"runs\": %d, "
           "\"precond_setup_s\": %.6g, \"rel_residual\": %.6g, \"solve_status\": \"%s\"", iters, runs, setup,
           res.rel_residual, strata_solve_status_name(res.status));
  if (!isfinite(res.rel_residual) || iters < 1 ||
      (res.status != STRATA_SOLVE_CONVERGED && res.status != STRATA_SOLVE_MAX_ITER && res.status != STRATA_SOLVE_STAGNATION)) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "%d iterations ended in %s%s%s with the true relative residual %.3g: time not counted",
             iters, strata_solve_status_name(res.status), res.breakdown ? " of " : "", res.breakdown ? res.breakdown : "",
             res.rel_residual);
    goto out;
  }
  { /* x checked on rank 0: the true residual ||1 - A_h x|| / ||1|| of the gathered x over the whole
       host matrix must be the one the solver reports (its own reduction over the ranks) */
    double chk[2] = {0, 0}; /* the host's relative residual; 1: the check could not run */
    int bad = n > 0 && strata_mem_copy(k->e, k->yh, x, (size_t)n * 8) != STRATA_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!bad) MPI_Gatherv(k->yh, n, MPI_DOUBLE, in->yall, k->counts, k->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!bad && g_rank == 0) {
      const strata_crs_matrix_t *A = in->Ah;
      double rr = 0;
      for (int64_t i = 0; i < A->num_rows; ++i) {
        double s = 1.0;
        for (int64_t q = A->row_offsets[i]; q < A->row_offsets[i + 1]; ++q) s -= A->values[q] * in->yall[A->col_indices[q]];
        rr += s * s;
      }
      chk[0] = A->num_rows > 0 ? sqrt(rr / (double)A->num_rows) : 0.0;
    }
    chk[1] = bad;
    MPI_Bcast(chk, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"check_host_rel_residual\": %.6g", chk[0]);
    if (chk[1] || !(fabs(chk[0] - res.rel_residual) <= 1e-6 * res.rel_residual + 1e-12)) {
      r->ok = 0;
      snprintf(r->msg, sizeof r->msg, chk[1] ? "copying x to the host failed on some rank: time not counted"
                                             : "the host's true residual of x, %.6g, is not the solver's %.6g: time not counted",
               chk[0], res.rel_residual);
      goto out;
    }
  }
  bench_stats_from_samples(t, runs, 1, &r->t); /* the same t on every rank: the same statistics */
  r->ok = 1;
  snprintf(r->msg, sizeof r->msg, "one iteration of strata_krylov_solve CG (%s over ranks, vector-mode SpMV): the slowest "
           "rank's solve_s / iterations", kind == STRATA_DIST_PRECOND_RAS ? "RAS, outer overlap 1, ILU(0)" : "Jacobi");
out:
  strata_krylov_result_free(&res);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_mem_free(k->e, STRATA_MEM_DEVICE, (void **)&b);
  strata_mem_free(k->e, STRATA_MEM_DEVICE, (void **)&x);
}

/* phase_pack and phase_wait: a plan of the matrix's ghosts; one import checked (its ghost buffer
 * bit for bit x at the ghost ids), then begin + end timed, clocked between them */
static void measure_exchange(dist_case_t *k, const strata_dist_map_t *dmap, bench_result_t *rp, bench_result_t *rw) {
  const int32_t ng = k->info.num_ghosts;
  strata_status_t st = strata_dist_plan_create(k->e, dmap, ng, k->info.ghost_gids, NULL, &k->plan); /* agreed */
  if (st) {
    snprintf(rp->msg, sizeof rp->msg, "strata_dist_plan_create: %s", strata_error_message());
    copy_msg(rw, rp);
    return;
  }
  double *gh = (double *)malloc(((size_t)ng + 1) * sizeof(double));
  const double *gb = NULL;
  st = gh ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%d ghost values on the host", (int)ng);
  if (failed_here(st != 0, "the phases' check", rp)) {
    free(gh); /* allocated on the ranks where it did not fail */
    copy_msg(rw, rp);
    return;
  }
  st = strata_dist_plan_import_begin(k->plan, k->e, k->x, NULL);
  if (!st) st = strata_dist_plan_end(k->plan); /* (the begin's deferred errors are agreed here) */
  bench_sync(k->e);
  if (!st) st = strata_dist_plan_ghost_buffer(k->plan, &gb);
  if (!st && ng > 0) st = strata_mem_copy(k->e, gh, gb, (size_t)ng * 8);
  int64_t bad = 0;
  for (int32_t g = 0; !st && g < ng; ++g) bad += gh[g] != x_value(k->info.ghost_gids[g]);
  k->ghost = ng > 0 && gb ? gb : k->dummy;
  free(gh);
  if (failed_here(st != 0, "the phases' import", rp)) {
    copy_msg(rw, rp);
    return;
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  snprintf(rp->extra + strlen(rp->extra), sizeof rp->extra - strlen(rp->extra), ", \"check_wrong_ghosts\": %lld",
           (long long)bad);
  memcpy(rw->extra, rp->extra, sizeof rw->extra);
  if (bad > 0) {
    rp->ok = rw->ok = 0;
    snprintf(rp->msg, sizeof rp->msg, "%lld ghost values (over the ranks) differ from x at their ids: time not counted",
             (long long)bad);
    copy_msg(rw, rp);
    return;
  }
  bench_stats_t ps[2];
  memset(ps, 0, sizeof ps);
  time_into(k, run_exchange, rp, ps, 2);
  rw->ok = rp->ok;
  if (rp->ok != 1) {
    copy_msg(rw, rp);
    return;
  }
  rp->t = ps[0], rw->t = ps[1];
  snprintf(rp->msg, sizeof rp->msg, "strata_dist_plan_import_begin: receives posted, pack, fence, sends started");
  snprintf(rw->msg, sizeof rw->msg, "strata_dist_plan_end: the wait (and a staged buffer's copy), clocked in pack's loop");
}

/* every measurement of one input on backend bi */
static void dist_backend(dist_input_t *in, int bi, const strata_dist_map_t *rmap, const strata_dist_map_t *dmap) {
  dist_case_t k;
  memset(&k, 0, sizeof k);
  k.e = bench_cfg.ex[bi], k.b = bench_cfg.be[bi];
  const int first = bench_nrec;
  in->have_vec = 0;
  strata_dist_build_report_t rep;
  const int64_t n0 = g_rank == 0 ? in->nnz : 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double build_s = strata_timer_now();
  const strata_status_t bst = strata_dist_crs_create_from_entries(k.e, rmap, dmap, n0, in->rows, in->cols,
                                                                  g_rank == 0 ? in->Ah->values : NULL, NULL, &rep, &k.A);
  if (bst) { /* agreed by dist: the same on every rank */
    bench_result_t *r = add_record(in, &k, NULL, "build");
    snprintf(r->msg, sizeof r->msg, "strata_dist_crs_create_from_entries: %s", strata_error_message());
    bench_record_emit(r);
    return;
  }
  build_s = strata_timer_now() - build_s;
  MPI_Allreduce(MPI_IN_PLACE, &build_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  strata_dist_crs_info(k.A, &k.info);
  strata_dist_map_info_t rmi, dmi;
  strata_dist_map_info(rmap, &rmi);
  strata_dist_map_info(dmap, &dmi);
  k.first_row = rmi.first_gid, k.first_col = dmi.first_gid;
  const int32_t nr = k.info.num_local_rows, nc = k.info.num_local_cols;
  dist_sizes_t z;
  sizes_of(&k, &z);
  z.build_s = build_s;
  /* vectors, the gather's counts, x by its global ids */
  char msg[MSG_LEN] = "";
  double *xh = (double *)malloc(((size_t)nc + 1) * sizeof(double));
  k.yh = (double *)malloc(((size_t)nr + 1) * sizeof(double));
  if (g_rank == 0) {
    k.counts = (int *)malloc((size_t)g_size * sizeof(int));
    k.displs = (int *)malloc((size_t)g_size * sizeof(int));
  }
  int failed = !xh || !k.yh || (g_rank == 0 && (!k.counts || !k.displs));
  if (failed) snprintf(msg, sizeof msg, "out of host memory for x and y");
  if (!failed)
    failed = strata_mem_alloc(k.e, STRATA_MEM_DEVICE, ((size_t)nc + 1) * 8, (void **)&k.x) ||
             strata_mem_alloc(k.e, STRATA_MEM_DEVICE, ((size_t)nr + 1) * 8, (void **)&k.y) ||
             strata_mem_alloc(k.e, STRATA_MEM_DEVICE, 8, (void **)&k.dummy);
  if (!failed) {
    for (int32_t j = 0; j < nc; ++j) xh[j] = x_value(k.first_col + j);
    failed = nc > 0 && strata_mem_copy(k.e, k.x, xh, (size_t)nc * 8);
  }
  if (failed && !msg[0]) snprintf(msg, sizeof msg, "x and y in exec memory: %s", strata_error_message());
  int cnt = nr, dsp = (int)k.first_row;
  MPI_Gather(&cnt, 1, MPI_INT, k.counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(&dsp, 1, MPI_INT, k.displs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (agree_fail(failed, msg)) {
    bench_result_t *r = add_record(in, &k, &z, "build");
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    bench_record_emit(r);
    goto done;
  }
  /* ---- the records, all made first (their pointers then hold): the modes, the phases, hypre */
  const int nrec = bench_hypre_available() && strata_exec_is_host(k.e) ? R_N : R_HYPRE;
  for (int i = 0; i < nrec; ++i) add_record(in, &k, &z, rec_algo[i]);
  bench_result_t *R = &bench_rec[first];
  for (int i = 0; i < 4; ++i) R[R_PACK + i].bytes = z.phase_bytes[i];
  R[R_CG].bytes = z.bytes + 96.0 * (double)in->nrows; /* + 2 dots (16 + 8 per row), 3 updates (24 each) */
  R[R_CG_JACOBI].bytes = R[R_CG_RAS].bytes = 0;         /* no traffic model for the solvers' iterations */
  /* ---- the three modes */
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  for (int m = 0; m < 3; ++m) {
    bench_result_t *r = &R[R_VECTOR + m];
    bench_progress(SUITE, in->name, r->backend, r->algo);
    k.mode = (strata_dist_mode_t)m;
    if (m == STRATA_DIST_TASK && level < MPI_THREAD_SERIALIZED) {
      r->ok = -2;
      snprintf(r->msg, sizeof r->msg, "skipped: task mode needs MPI_THREAD_SERIALIZED, MPI was started at %s",
               strata_dist_thread_level_name(level));
      continue;
    }
    failed = strata_mem_set_async(k.e, k.y, 0xFF, ((size_t)nr + 1) * 8) != STRATA_SUCCESS; /* NaN */
    bench_sync(k.e);
    if (failed_here(failed, "poisoning y", r)) continue;
    const strata_status_t st = strata_dist_crs_spmv(k.e, k.mode, 1.0, k.A, k.x, 0.0, k.y); /* agreed */
    if (st) {
      snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
      continue;
    }
    int same = 1;
    if (!check_y(in, &k, k.y, m == STRATA_DIST_VECTOR, r, m == STRATA_DIST_VECTOR ? NULL : &same)) continue;
    if (m != STRATA_DIST_VECTOR)
      snprintf(r->extra + strlen(r->extra), sizeof r->extra - strlen(r->extra), ", \"bitwise_equal_vector\": %s",
               same > 0 ? "true" : same == 0 ? "false" : "null");
    if (same == 0) { /* dist.h: every mode gives the same bits */
      r->ok = 0;
      snprintf(r->msg, sizeof r->msg, "y within the tolerance but not bit for bit vector mode's (dist.h promises the same "
               "bits): time not counted");
      continue;
    }
    time_into(&k, run_mode, r, NULL, 0);
  }
  /* ---- the phases: a plan of the matrix's ghosts (begin + end), then each block alone */
  bench_result_t *rp = &R[R_PACK], *rw = &R[R_WAIT], *rl = &R[R_LOCAL], *ro = &R[R_OFFDIAG];
  bench_progress(SUITE, in->name, rp->backend, "phase_pack+phase_wait");
  measure_exchange(&k, dmap, rp, rw);
  bench_progress(SUITE, in->name, rl->backend, "phase_local+phase_offdiag");
  failed = strata_spmv_plan_create(k.e, k.info.diag, NULL, &k.pdiag) || strata_spmv_plan_create(k.e, k.info.offdiag, NULL, &k.poff);
  if (failed_here(failed, "the blocks' SpMV plans", rl)) {
    copy_msg(ro, rl);
  } else if (rp->ok != 1) {
    snprintf(rl->msg, sizeof rl->msg, "not measured: the phases' import did not pass");
    copy_msg(ro, rl);
  } else {
    /* the check: D x, then += O x_ghost, against the reference */
    failed = strata_mem_set_async(k.e, k.y, 0xFF, ((size_t)nr + 1) * 8) || run_local(&k, 0) || run_offdiag(&k, 0);
    if (!failed_here(failed, "D x + O x_ghost", rl) && check_y(in, &k, k.y, 0, rl, NULL)) {
      memcpy(ro->extra, rl->extra, sizeof ro->extra);
      time_into(&k, run_local, rl, NULL, 0);
      if (z.offdiag_nnz == 0) {
        ro->ok = -2;
        snprintf(ro->msg, sizeof ro->msg, "skipped: no off-diagonal entries on any rank (%d rank%s)", g_size,
                 g_size > 1 ? "s" : "");
      } else
        time_into(&k, run_offdiag, ro, NULL, 0);
    } else {
      ro->ok = rl->ok;
      copy_msg(ro, rl);
    }
  }
  /* ---- the peer */
  if (nrec > R_HYPRE) {
    bench_progress(SUITE, in->name, R[R_HYPRE].backend, R[R_HYPRE].algo);
    measure_hypre(in, &k, &R[R_HYPRE]);
  }
  /* ---- CG per iteration: by hand, and the solvers' CG with Jacobi and RAS (hypre's PCG on the
   * same ranks would go beside them) */
  bench_progress(SUITE, in->name, R[R_CG].backend, R[R_CG].algo);
  measure_cg(in, &k, rmap, &R[R_CG]);
  bench_progress(SUITE, in->name, R[R_CG_JACOBI].backend, R[R_CG_JACOBI].algo);
  measure_solve(in, &k, STRATA_DIST_PRECOND_JACOBI, &R[R_CG_JACOBI]);
  bench_progress(SUITE, in->name, R[R_CG_RAS].backend, R[R_CG_RAS].algo);
  measure_solve(in, &k, STRATA_DIST_PRECOND_RAS, &R[R_CG_RAS]);
  /* ---- derived numbers: the phases and the share of the exchange each mode hides, hypre */
  const double tex = rp->ok == 1 ? rp->t.median + rw->t.median : 0;
  const double th = nrec > R_HYPRE && R[R_HYPRE].ok == 1 ? R[R_HYPRE].t.median : 0;
  for (int m = 0; m < 3; ++m) {
    bench_result_t *r = &R[R_VECTOR + m];
    if (r->ok != 1) continue;
    size_t l = strlen(r->extra);
    if (rp->ok == 1)
      l += (size_t)snprintf(r->extra + l, sizeof r->extra - l, ", \"pack_s\": %.6g, \"wait_s\": %.6g", rp->t.median, rw->t.median);
    if (rl->ok == 1) l += (size_t)snprintf(r->extra + l, sizeof r->extra - l, ", \"local_s\": %.6g", rl->t.median);
    if (ro->ok == 1) l += (size_t)snprintf(r->extra + l, sizeof r->extra - l, ", \"offdiag_s\": %.6g", ro->t.median);
    if (m != STRATA_DIST_VECTOR && R[R_VECTOR].ok == 1 && tex > 0 && z.halo_recv_sum > 0) /* an exchange to hide */
      l += (size_t)snprintf(r->extra + l, sizeof r->extra - l, ", \"exchange_hidden_fraction\": %.4f",
                            (R[R_VECTOR].t.median - r->t.median) / tex);
    if (th > 0) {
      r->ratio_peer = th / r->t.median;
      l += (size_t)snprintf(r->extra + l, sizeof r->extra - l, ", \"strata_over_hypre\": %.4f", r->t.median / th);
    }
  }
  for (int i = first; i < bench_nrec; ++i) bench_record_emit(&bench_rec[i]);
done:
  free(xh);
  free(k.yh);
  free(k.counts);
  free(k.displs);
  strata_spmv_plan_destroy(&k.pdiag);
  strata_spmv_plan_destroy(&k.poff);
  strata_dist_plan_destroy(&k.plan);
  strata_mem_free(k.e, STRATA_MEM_DEVICE, (void **)&k.x);
  strata_mem_free(k.e, STRATA_MEM_DEVICE, (void **)&k.y);
  strata_mem_free(k.e, STRATA_MEM_DEVICE, (void **)&k.dummy);
  strata_dist_crs_destroy(&k.A);
}

/* ------------------------------------------------------------------ inputs */
/* the host reference on rank 0: y = A x by a plain loop, its tolerance per row (the spmv suite's) */
static int reference(dist_input_t *in) {
  const strata_crs_matrix_t *A = in->Ah;
  const int64_t n = A->num_rows;
  in->yref = (double *)malloc(((size_t)n + 1) * sizeof(double));
  in->tol = (double *)malloc(((size_t)n + 1) * sizeof(double));
  in->yall = (double *)malloc(((size_t)n + 1) * sizeof(double));
  in->yvec = (double *)malloc(((size_t)n + 1) * sizeof(double));
  in->rows = (int64_t *)malloc(((size_t)A->nnz + 1) * sizeof(int64_t));
  in->cols = (int64_t *)malloc(((size_t)A->nnz + 1) * sizeof(int64_t));
  if (!in->yref || !in->tol || !in->yall || !in->yvec || !in->rows || !in->cols) return -1;
  for (int64_t i = 0; i < n; ++i) {
    double s = 0, a = 0;
    for (int64_t p = A->row_offsets[i]; p < A->row_offsets[i + 1]; ++p) {
      const double v = A->values[p] * x_value(A->col_indices[p]);
      s += v, a += fabs(v);
      in->rows[p] = i, in->cols[p] = A->col_indices[p];
    }
    in->yref[i] = s;
    in->tol[i] = 4.0 * 0x1.0p-52 * (double)(A->row_offsets[i + 1] - A->row_offsets[i] + 2) * a;
  }
  return 0;
}

/* rank 0: 1 when A is symmetric (pattern and values, bit for bit) with a positive diagonal, else 0
 * and why (the first row that fails); rows' columns are sorted (fill-complete) */
static int spd_check(const strata_crs_matrix_t *A, char *why, size_t cap) {
  if (A->num_rows != A->num_cols) {
    snprintf(why, cap, "%d x %d: not square", A->num_rows, A->num_cols);
    return 0;
  }
  for (int32_t i = 0; i < A->num_rows; ++i) {
    int diag = 0;
    for (int64_t p = A->row_offsets[i]; p < A->row_offsets[i + 1]; ++p) {
      const int32_t j = A->col_indices[p];
      if (j == i) {
        diag = A->values[p] > 0;
        if (!diag) break;
        continue;
      }
      int64_t lo = A->row_offsets[j], hi = A->row_offsets[j + 1]; /* A(j, i) by bisection in row j */
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (A->col_indices[mid] < i) lo = mid + 1;
        else hi = mid;
      }
      if (lo == A->row_offsets[j + 1] || A->col_indices[lo] != i || A->values[lo] != A->values[p]) {
        snprintf(why, cap, "A(%d, %d) = %.17g but A(%d, %d) %s", i, j, A->values[p], j, i,
                 lo < A->row_offsets[j + 1] && A->col_indices[lo] == i ? "differs" : "is not stored");
        return 0;
      }
    }
    if (!diag) {
      snprintf(why, cap, "row %d has no positive diagonal entry", i);
      return 0;
    }
  }
  return 1;
}

typedef struct { int32_t c; double v; } col_val_t;
static int cmp_col_val(const void *a, const void *b) {
  const int32_t x = ((const col_val_t *)a)->c, y = ((const col_val_t *)b)->c;
  return x < y ? -1 : x > y;
}

/* rank 0: *B = P A P^T on the serial backend (host memory), row and column i of A becoming
 * new_ids[i] of B, each row's columns sorted; 0, or -1 with the message in err */
static int permute_crs(const strata_crs_matrix_t *A, const int64_t *new_ids, strata_crs_matrix_t **B, char *err) {
  const int64_t n = A->num_rows, nnz = A->nnz;
  strata_exec_t *h = bench_cfg.serial;
  int64_t *off = NULL;
  int32_t *col = NULL;
  double *val = NULL;
  int64_t *old_of = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  col_val_t *row = NULL;
  int64_t longest = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t len = A->row_offsets[i + 1] - A->row_offsets[i];
    if (len > longest) longest = len;
  }
  row = (col_val_t *)malloc(((size_t)longest + 1) * sizeof(col_val_t));
  if (!old_of || !row || strata_mem_alloc(h, STRATA_MEM_DEVICE, ((size_t)n + 1) * 8, (void **)&off) ||
      strata_mem_alloc(h, STRATA_MEM_DEVICE, ((size_t)nnz + 1) * 4, (void **)&col) ||
      strata_mem_alloc(h, STRATA_MEM_DEVICE, ((size_t)nnz + 1) * 8, (void **)&val)) {
    snprintf(err, MSG_LEN, "rank 0: out of host memory for the renumbered matrix (%lld entries)", (long long)nnz);
    goto fail;
  }
  for (int64_t i = 0; i < n; ++i) old_of[new_ids[i]] = i;
  off[0] = 0;
  for (int64_t r = 0; r < n; ++r) off[r + 1] = off[r] + (A->row_offsets[old_of[r] + 1] - A->row_offsets[old_of[r]]);
  for (int64_t r = 0; r < n; ++r) {
    const int64_t s0 = A->row_offsets[old_of[r]], len = A->row_offsets[old_of[r] + 1] - s0;
    for (int64_t q = 0; q < len; ++q) row[q].c = (int32_t)new_ids[A->col_indices[s0 + q]], row[q].v = A->values[s0 + q];
    qsort(row, (size_t)len, sizeof(col_val_t), cmp_col_val);
    for (int64_t q = 0; q < len; ++q) col[off[r] + q] = row[q].c, val[off[r] + q] = row[q].v;
  }
  free(old_of);
  free(row);
  if (strata_crs_create_from_csr(h, (int32_t)n, (int32_t)n, nnz, off, col, val, STRATA_CRS_ADOPT, B)) {
    snprintf(err, MSG_LEN, "rank 0: the renumbered matrix: %s", strata_error_message());
    old_of = NULL, row = NULL;
    goto fail;
  }
  return 0;
fail:
  free(old_of);
  free(row);
  strata_mem_free(h, STRATA_MEM_DEVICE, (void **)&off);
  strata_mem_free(h, STRATA_MEM_DEVICE, (void **)&col);
  strata_mem_free(h, STRATA_MEM_DEVICE, (void **)&val);
  return -1;
}

/* a record of the input that every rank emits alike (msg: the same on every rank) */
static void input_record(const char *name, const char *msg, int ok) {
  bench_result_t *r = bench_record_add(SUITE, STRATA_BACKEND_SERIAL, name, "input");
  r->ok = ok;
  snprintf(r->msg, sizeof r->msg, "%s", msg);
  bench_record_emit(r);
}

static void input_free(dist_input_t *in) {
  free(in->yref), free(in->tol), free(in->yall), free(in->yvec), free(in->rows), free(in->cols);
}

/* one spec: loaded on rank 0 (a failure there is every rank's record), distributed, measured */
static void dist_spec(const char *spec) {
  dist_input_t in;
  memset(&in, 0, sizeof in);
  strata_crs_matrix_t *A = NULL;
  char name[160] = "";
  int info[2] = {0, -1}; /* loaded (0) or not (-1); the failure record's ok */
  char msg[MSG_LEN] = "";
  if (g_rank == 0) {
    info[0] = bench_load_spec(SUITE, spec, &A, name, sizeof name);
    if (info[0]) info[1] = bench_rec[bench_nrec - 1].ok, snprintf(msg, sizeof msg, "%s", bench_rec[bench_nrec - 1].msg);
  }
  MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (info[0]) {
    MPI_Bcast(msg, MSG_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (g_rank > 0) { /* rank 0's record, so that every rank exits alike */
      bench_result_t *r = bench_record_add(SUITE, STRATA_BACKEND_SERIAL, spec, "input");
      r->ok = info[1];
      snprintf(r->msg, sizeof r->msg, "%s", msg);
      bench_record_emit(r);
    }
    return;
  }
  int64_t sz[3] = {0, 0, 0};
  if (g_rank == 0) sz[0] = A->num_rows, sz[1] = A->num_cols, sz[2] = A->nnz;
  MPI_Bcast(sz, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  in.nrows = sz[0], in.ncols = sz[1], in.nnz = sz[2];
  bench_unique_name(SUITE, name, sizeof name);
  in.name = name;
  /* the rows' partition: block rows, or strata_dist_partition_crs on rank 0 and P A P^T there */
  strata_dist_partitioner_t method = STRATA_DIST_PARTITION_BLOCK;
  strata_dist_map_t *rmap = NULL, *dmap = NULL;
  strata_status_t st = STRATA_SUCCESS;
  if (bench_cfg.partition) (void)strata_dist_partitioner_from_name(bench_cfg.partition, &method); /* checked in bench_cmd.c */
  in.partition = strata_dist_partitioner_name(strata_dist_partitioner_resolve(method));
  double part_s = 0;
  if (method != STRATA_DIST_PARTITION_BLOCK) {
    if (in.nrows != in.ncols) {
      snprintf(msg, sizeof msg, "skipped: --partition %s needs a square matrix (%lld x %lld)", bench_cfg.partition,
               (long long)in.nrows, (long long)in.ncols);
      input_record(name, msg, -2);
      strata_crs_destroy(&A);
      return;
    }
    int64_t nr = 0, *new_ids = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    part_s = strata_timer_now();
    st = strata_dist_partition_crs(MPI_COMM_WORLD, 0, bench_cfg.serial, g_rank == 0 ? A : NULL, method, &nr, &new_ids,
                                   &rmap); /* agreed */
    if (st) {
      snprintf(msg, sizeof msg, "strata_dist_partition_crs (%s): %s", in.partition, strata_error_message());
      input_record(name, msg, -1);
      strata_crs_destroy(&A);
      return;
    }
    strata_crs_matrix_t *B = NULL;
    int failed = g_rank == 0 && new_ids && permute_crs(A, new_ids, &B, msg);
    free(new_ids);
    if (agree_fail(failed, msg)) {
      input_record(name, msg, -1);
      strata_dist_map_destroy(&rmap);
      strata_crs_destroy(&A);
      return;
    }
    if (g_rank == 0 && B) strata_crs_destroy(&A), A = B;
    part_s = strata_timer_now() - part_s;
    MPI_Allreduce(MPI_IN_PLACE, &part_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    dmap = rmap; /* square: x distributed like the rows */
  }
  in.partition_s = part_s;
  int nomem = 0, spd = 0;
  if (g_rank == 0) {
    in.Ah = A;
    nomem = reference(&in) != 0;
    spd = spd_check(A, in.spd_why, sizeof in.spd_why);
  }
  MPI_Bcast(&nomem, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(&spd, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(in.spd_why, sizeof in.spd_why, MPI_CHAR, 0, MPI_COMM_WORLD);
  in.spd = spd;
  if (nomem) {
    snprintf(msg, sizeof msg, "rank 0: out of host memory for the reference and the entries (%lld)", (long long)in.nnz);
    input_record(name, msg, -1);
  } else {
    if (!rmap) st = strata_dist_map_create_block(MPI_COMM_WORLD, in.nrows, &rmap);
    if (!st && !dmap && in.nrows == in.ncols) dmap = rmap; /* square: x like the rows (the preconditioners need it) */
    if (!st && !dmap) st = strata_dist_map_create_block(MPI_COMM_WORLD, in.ncols, &dmap);
    if (st) {
      snprintf(msg, sizeof msg, "the block maps: %s", strata_error_message());
      input_record(name, msg, -1);
    }
    for (int bi = 0; !st && bi < bench_cfg.nb; ++bi) dist_backend(&in, bi, rmap, dmap);
  }
  if (dmap != rmap) strata_dist_map_destroy(&dmap);
  strata_dist_map_destroy(&rmap);
  input_free(&in);
  strata_crs_destroy(&A);
}

static const char *const default_specs[] = {"gen:laplace7"};

static void dist_run(const bench_inputs_t *inp) {
  bench_list_t specs = {0}, list = {0};
  if (inp->given) {
    for (int i = 0; i < inp->specs->n; ++i) bench_list_push(&specs, inp->specs->v[i]);
  } else
    for (size_t i = 0; i < sizeof default_specs / sizeof default_specs[0]; ++i) bench_list_push(&specs, default_specs[i]);
  bench_expand_specs(SUITE, &specs, &list);
  for (int i = 0; i < list.n; ++i) dist_spec(list.v[i]);
  if (!bench_cfg.no_fe) dist_fem_run(); /* the FE assembly records and the Tpetra peer (suite_dist_fem.c) */
  bench_list_free(&list);
  bench_list_free(&specs);
}

/* per input and backend: 3 modes, 4 phases, 3 CG; hypre on host backends where the build has it */
#define DIST_PER_BACKEND 10
static int dist_estimate(const bench_inputs_t *in) {
  const int mats = in->given ? in->matrices : (int)(sizeof default_specs / sizeof default_specs[0]);
  int host = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) host += strata_exec_is_host(bench_cfg.ex[bi]);
  return mats * (bench_cfg.nb * DIST_PER_BACKEND + (bench_hypre_available() ? host : 0)) + (bench_cfg.no_fe ? 0 : dist_fem_estimate());
}

/* the suite's table: per input and backend, the modes, the phases, hypre */
static double rec_ms(const char *name, const char *backend, const char *algo) {
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (r->ok == 1 && !strcmp(r->suite, SUITE) && !strcmp(r->name, name) && !strcmp(r->backend, backend) &&
        !strcmp(r->algo, algo))
      return 1e3 * r->t.median;
  }
  return NAN;
}

/* a number of the table, "-" when not measured (NaN, infinite) */
static void cell(FILE *f, int width, int prec, double v) {
  if (isfinite(v)) fprintf(f, " %*.*f", width, prec, v);
  else fprintf(f, " %*s", width, "-");
}

static void dist_summary(FILE *f) {
  static const char *const cols[] = {"strata_vector", "strata_overlap", "strata_task", "phase_pack", "phase_wait",
                                     "phase_local", "phase_offdiag", "hypre_parcsr_matvec", "cg_iteration", "cg_jacobi",
                                     "cg_ras"};
  fprintf(f, "\n== dist: distributed SpMV on %d rank%s, ms per call (slowest rank; phases each timed alone), hidden = "
          "(vector - mode) / (pack + wait), x_hypre = hypre / vector (as x_peer: above 1, strata faster), cg_iter: one CG iteration (by hand; cg_jac, "
          "cg_ras: the solvers' CG with Jacobi, RAS), partition %s\n", g_size, g_size > 1 ? "s" : "",
          bench_cfg.partition ? bench_cfg.partition : "block");
  fprintf(f, "%-7s %-24s %9s %9s %9s %9s %9s %9s %9s %9s %7s %7s %8s %9s %9s %9s\n", "backend", "name", "vector", "overlap",
          "task", "pack", "wait", "local", "offdiag", "hypre", "hid_ov", "hid_tk", "x_hypre", "cg_iter", "cg_jac", "cg_ras");
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (strcmp(r->suite, SUITE) || strcmp(r->algo, "strata_vector")) continue;
    double v[11];
    for (int c = 0; c < 11; ++c) v[c] = rec_ms(r->name, r->backend, cols[c]);
    const double ex = v[3] + v[4];
    const double nx = g_size > 1 ? 1.0 : NAN; /* one rank: no exchange to hide */
    const double d[3] = {nx * (v[0] - v[1]) / ex, nx * (v[0] - v[2]) / ex, v[7] / v[0]};
    fprintf(f, "%-7s %-24.24s", r->backend, r->name);
    for (int c = 0; c < 8; ++c) cell(f, 9, 4, v[c]);
    cell(f, 7, 2, d[0]), cell(f, 7, 2, d[1]), cell(f, 8, 3, d[2]), cell(f, 9, 4, v[8]), cell(f, 9, 4, v[9]);
    cell(f, 9, 4, v[10]);
    fputc('\n', f);
  }
  dist_fem_summary(f);
}

const bench_suite_t bench_suite_dist = {
    .name = SUITE,
    .help = "distributed SpMV under mpirun (vector, overlap, task; pack/wait/local/offdiag; halo bytes); CG with Jacobi, RAS; hypre ParCSR; FE assembly per rank, Tpetra FECrsMatrix",
    .options = BENCH_OPT_MATRIX | BENCH_OPT_PARTITION | BENCH_OPT_NO_FE,
    .run = dist_run,
    .estimate = dist_estimate,
    .summary = dist_summary,
    .start = dist_start,
};

#endif /* STRATA_HAVE_MPI */
