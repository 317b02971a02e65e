/* strata bench — what the solve and amg suites share (bench_harness.h): the linear system of an
 * input (b = ones, host work vectors, hypre's copy), its copy on a backend, the true residual that
 * checks a solution, and the rule for the timed runs of a whole solve. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "bench_hypre.h"
#include "strata/solvers.h"

int bench_system_create(const char *suite, const strata_crs_matrix_t *Ah, const char *name, int given, bench_system_t *s) {
  memset(s, 0, sizeof *s);
  const int32_t n = Ah->num_rows;
  if (n != Ah->num_cols) {
    char msg[300];
    snprintf(msg, sizeof msg, "%s is %d x %d: the %s suite needs a square matrix", name, n, Ah->num_cols, suite);
    bench_input_error(suite, name, msg);
    return -1;
  }
  s->Ah = Ah, s->name = name, s->given = given;
  s->b = (double *)malloc(((size_t)n + 1) * sizeof(double));
  s->x = (double *)malloc(((size_t)n + 1) * sizeof(double));
  s->w = (double *)malloc(((size_t)n + 1) * sizeof(double));
  if (!s->b || !s->x || !s->w) {
    bench_input_error(suite, name, "out of host memory for b, x and the residual");
    bench_system_destroy(s);
    return -1;
  }
  for (int32_t i = 0; i < n; ++i) s->b[i] = 1.0;
  int any_host = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) any_host |= strata_exec_is_host(bench_cfg.ex[bi]);
  if (any_host && bench_hypre_available()) bench_hypre_create(Ah, &s->h, s->herr, sizeof s->herr);
  return 0;
}

void bench_system_destroy(bench_system_t *s) {
  bench_hypre_destroy(&s->h);
  free(s->b), free(s->x), free(s->w);
  s->b = s->x = s->w = NULL;
}

int bench_system_exec_create(const char *suite, const bench_system_t *s, int bi, bench_system_exec_t *d) {
  strata_exec_t *e = bench_cfg.ex[bi];
  const int32_t n = s->Ah->num_rows;
  const size_t vb = ((size_t)n + 1) * sizeof(double);
  memset(d, 0, sizeof *d);
  if (strata_crs_copy(e, s->Ah, &d->A) || strata_operator_create_crs(e, d->A, NULL, &d->op) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&d->b) || strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&d->x) ||
      strata_vec_fill(e, n, 1.0, d->b)) {
    char msg[400];
    snprintf(msg, sizeof msg, "%s on %s: %s", s->name, strata_backend_name(bench_cfg.be[bi]), strata_error_message());
    bench_input_error(suite, s->name, msg);
    bench_system_exec_destroy(bi, d);
    return -1;
  }
  return 0;
}

void bench_system_exec_destroy(int bi, bench_system_exec_t *d) {
  strata_exec_t *e = bench_cfg.ex[bi];
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->b);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&d->x);
  strata_operator_destroy(&d->op);
  strata_crs_destroy(&d->A);
}

double bench_true_residual(const strata_crs_matrix_t *Ah, const double *b, const double *x, double *w) {
  if (strata_crs_spmv(bench_cfg.serial, 1.0, Ah, x, 0.0, w)) return NAN;
  double rr = 0, bb = 0;
  for (int32_t i = 0; i < Ah->num_rows; ++i) rr += (b[i] - w[i]) * (b[i] - w[i]), bb += b[i] * b[i];
  return bb > 0 ? sqrt(rr / bb) : sqrt(rr);
}

/* the timed runs of a whole solve: after a checked warm-up run that took `first` seconds, one more
 * while fewer than MAX_RUNS are kept and either fewer than the minimum (1 with --quick or when the
 * warm-up took over 2 --min-time, else 3) or --min-time has not passed since t0 */
#define MAX_RUNS 20
static int more_runs(int kept, double t0, double first) {
  const int min_runs = bench_cfg.quick || first > 2 * bench_cfg.min_time ? 1 : 3;
  return kept < MAX_RUNS && (kept < min_runs || strata_timer_now() - t0 < bench_cfg.min_time);
}

strata_status_t bench_krylov_timed(strata_exec_t *e, const strata_operator_t *op, const strata_precond_t *P, const double *b,
                                   double *x, const strata_krylov_options_t *ko, strata_krylov_result_t *res, bench_stats_t *t) {
  double times[MAX_RUNS];
  int kept = 0;
  const double first = res->solve_s, t0 = strata_timer_now();
  while (more_runs(kept, t0, first)) {
    strata_krylov_result_free(res);
    const strata_status_t st = strata_krylov_solve(e, op, P, b, x, ko, res);
    if (st) return st;
    times[kept++] = res->solve_s;
  }
  bench_stats_from_samples(times, kept, 1, t);
  return STRATA_SUCCESS;
}

int bench_hypre_timed(struct bench_hypre_solver *s, const bench_system_t *in, double first, bench_stats_t *t, char *err,
                      size_t err_len) {
  double times[MAX_RUNS], res = 0;
  int kept = 0, iters = 0;
  const double t0 = strata_timer_now();
  while (more_runs(kept, t0, first)) {
    if (bench_hypre_solve(s, in->b, in->x, &iters, &res, &times[kept], err, err_len)) return -1;
    ++kept;
  }
  bench_stats_from_samples(times, kept, 1, t);
  return 0;
}
