/* strata bench — the h2 suite: the H² matrix-vector product (strata/hmatrix.h) of exp(-r/0.1) on
 * uniform random points, 2D (p = 8) and 3D (p = 5), leaf 64, eta 1, for growing n: time and bytes
 * per point (flat when the product is O(n)), the effective bandwidth (U, E, S, D read once, X read
 * and Y written once) against the same run's copy bandwidth (the stream suite's copy kernel), the
 * construction time. Each product is checked first against exact rows computed on the device (the
 * relative error on 100 sampled rows below 1e-3 in 2D, 1e-2 in 3D) before its time counts. The
 * "compress" records: strata_h2_compress to eps (2D 1e-4, 3D 1e-3) of the same matrices, its time,
 * GFLOP/s (nominal counts), ranks per level before and after, the sampled error against eps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "strata/hmatrix.h"

typedef struct { strata_exec_t *e; const strata_h2_matrix_t *A; int64_t n; const double *x; double *y; } h2_ctx;

static int h2_run(void *v, int64_t call) {
  h2_ctx *c = (h2_ctx *)v;
  (void)call;
  return strata_h2_matvec(c->e, c->A, 1, 1.0, c->x, c->n, 0.0, c->y, c->n);
}

/* the sizes of one dimension: log2 n from lo to hi in steps of 2 */
static void h2_sizes(int dim, int host, int *lo, int *hi) {
  *lo = bench_cfg.quick ? 12 : 14;
  *hi = bench_cfg.quick ? (dim == 2 ? 14 : 12) : host ? 16 : dim == 2 ? 20 : 18;
}

/* GB/s of the stream suite's copy on backend b in this run (the last such record), 0 when none */
static double copy_bw(strata_backend_t b) {
  for (int q = bench_nrec - 1; q >= 0; --q)
    if (!strcmp(bench_rec[q].suite, "stream") && !strcmp(bench_rec[q].algo, "copy") && bench_rec[q].ok == 1 &&
        !strcmp(bench_rec[q].backend, strata_backend_name(b)))
      return bench_rec[q].bytes / bench_rec[q].t.median / 1e9;
  return 0.0;
}

/* emits r and frees a case's vectors (exec memory x, y; host hx), matrix and points */
static void h2_case_end(bench_result_t *r, strata_exec_t *e, double *x, double *y, strata_h2_matrix_t **A, strata_points_t **P,
                        double *hx) {
  bench_record_emit(r);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&y);
  strata_h2_destroy(A);
  strata_points_destroy(P);
  free(hx);
}

static void h2_case(int bi, int dim, int64_t n) {
  const strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  char name[64];
  snprintf(name, sizeof name, "%dd_n=%lld", dim, (long long)n);
  bench_result_t *r = bench_record_add("h2", b, name, "matvec");
  const int at = bench_nrec - 1;
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->entries = (double)n;
  strata_points_t *P = NULL;
  strata_h2_matrix_t *A = NULL;
  double *x = NULL, *y = NULL, *hx = (double *)malloc((size_t)n * sizeof(double));
  strata_h2_options_t o;
  strata_h2_options_default(dim, &o);
  o.length = 0.1;
  double t_build = 0, err = NAN;
  strata_status_t st = hx ? strata_points_create_random(dim, n, bench_cfg.seed, &P) : STRATA_ERR_OUT_OF_MEMORY;
  if (!st) {
    const double t0 = strata_timer_now();
    st = strata_h2_create(e, P, &o, &A);
    t_build = strata_timer_now() - t0;
  }
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&x);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&y);
  if (!st) {
    for (int64_t i = 0; i < n; ++i) hx[i] = sin(0.37 * (double)i);
    st = strata_mem_copy(e, x, hx, (size_t)n * sizeof(double));
  }
  h2_ctx c = {e, A, n, x, y};
  if (!st) st = (strata_status_t)h2_run(&c, 0);
  if (!st) st = strata_h2_sampled_error(e, A, 1, x, y, 100, bench_cfg.seed, &err);
  r = &bench_rec[at];
  if (st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  } else if (!(err <= (dim == 2 ? 1e-3 : 1e-2))) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "sampled relative error %.3e: time not counted", err);
  } else {
    strata_h2_info_t info;
    strata_h2_get_info(A, &info);
    r->bytes = (double)info.bytes_lowrank + (double)info.bytes_dense + 16.0 * (double)n;
    r->ok = 1;
    if (bench_time(e, h2_run, &c, bench_cfg.min_time, &r->t)) {
      r->ok = -1;
      snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
    } else {
      const double gbs = r->bytes / r->t.median / 1e9, cb = copy_bw(b);
      snprintf(r->extra, sizeof r->extra,
               ", \"dim\": %d, \"rank\": %d, \"levels\": %d, \"coupling_blocks\": %lld, \"dense_blocks\": %lld, "
               "\"bytes_per_point\": %.6g, \"ns_per_point\": %.6g, \"construction_s\": %.6g, \"error\": %.3e, "
               "\"copy_gbs\": %.6g, \"pct_of_copy\": %.4g",
               dim, (int)info.rank, (int)info.depth + 1, (long long)info.num_coupling, (long long)info.num_dense,
               r->bytes / (double)n, r->t.median / (double)n * 1e9, t_build, err, cb, cb > 0 ? 100.0 * gbs / cb : 0.0);
    }
  }
  h2_case_end(r, e, x, y, &A, &P, hx);
}

/* ---------------------------------------------------------------- compression (strata_h2_compress) */

/* the compression cases of a backend: log2 n per dimension (2D eps 1e-4, 3D eps 1e-3) */
static int h2c_sizes(int dim, int host, int *lo, int *hi) {
  *lo = bench_cfg.quick ? 12 : 14;
  *hi = bench_cfg.quick ? 12 : host ? 14 : dim == 2 ? 18 : 16;
  return (*hi - *lo) / 2 + 1;
}

/* one record "compress": a fresh matrix per repetition (the call works in place), the median of
 * strata_h2_compress's own times; GFLOP/s by its nominal count; checked: the compressed product's
 * sampled error at most 3 eps + 2 (the error as built) */
static void h2c_case(int bi, int dim, int64_t n, double eps) {
  const strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  char name[64];
  snprintf(name, sizeof name, "%dd_n=%lld_eps=%g", dim, (long long)n, eps);
  bench_result_t *r = bench_record_add("h2", b, name, "compress");
  const int at = bench_nrec - 1;
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->entries = (double)n;
  const int reps = bench_cfg.quick ? 1 : 3;
  double times[3], err0 = NAN, err = NAN;
  strata_points_t *P = NULL;
  strata_h2_matrix_t *A = NULL;
  strata_h2_compress_info_t ci;
  memset(&ci, 0, sizeof ci);
  double *x = NULL, *y = NULL, *hx = (double *)malloc((size_t)n * sizeof(double));
  strata_h2_options_t o;
  strata_h2_options_default(dim, &o);
  o.length = 0.1;
  strata_status_t st = hx ? strata_points_create_random(dim, n, bench_cfg.seed, &P) : STRATA_ERR_OUT_OF_MEMORY;
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&x);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&y);
  if (!st) {
    for (int64_t i = 0; i < n; ++i) hx[i] = sin(0.37 * (double)i);
    st = strata_mem_copy(e, x, hx, (size_t)n * sizeof(double));
  }
  for (int q = 0; q < reps && !st; ++q) {
    strata_h2_destroy(&A);
    st = strata_h2_create(e, P, &o, &A);
    if (!st && q == 0) st = strata_h2_matvec(e, A, 1, 1.0, x, n, 0.0, y, n);
    if (!st && q == 0) st = strata_h2_sampled_error(e, A, 1, x, y, 100, bench_cfg.seed, &err0);
    if (!st) st = strata_h2_compress(e, A, eps, &ci);
    if (!st) times[q] = ci.seconds;
  }
  if (!st) st = strata_h2_matvec(e, A, 1, 1.0, x, n, 0.0, y, n);
  if (!st) st = strata_h2_sampled_error(e, A, 1, x, y, 100, bench_cfg.seed, &err);
  r = &bench_rec[at];
  if (st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  } else {
    bench_stats_from_samples(times, reps, 1, &r->t);
    r->ok = err <= 3.0 * eps + 2.0 * err0 ? 1 : 0;
    if (!r->ok) snprintf(r->msg, sizeof r->msg, "sampled error %.3e after compression above 3 eps + 2 x %.3e", err, err0);
    char before[256] = "", after[256] = "";
    for (int l = 0, ob = 0, oa = 0; l < ci.levels && l < 64 && ob < 240 && oa < 240; ++l) {
      ob += snprintf(before + ob, sizeof before - (size_t)ob, "%s%d", l ? ", " : "", (int)ci.rank_before[l]);
      oa += snprintf(after + oa, sizeof after - (size_t)oa, "%s%d", l ? ", " : "", (int)ci.rank_after[l]);
    }
    snprintf(r->extra, sizeof r->extra,
             ", \"dim\": %d, \"eps\": %g, \"ranks_before\": [%s], \"ranks_after\": [%s], \"lowrank_bytes_before\": %zu, "
             "\"lowrank_bytes_after\": %zu, \"gflop\": %.6g, \"gflops\": %.6g, \"error_before\": %.3e, \"error\": %.3e, "
             "\"error_over_eps\": %.4g",
             dim, eps, before, after, ci.bytes_lowrank_before, ci.bytes_lowrank_after, ci.flops * 1e-9,
             ci.flops / r->t.median * 1e-9, err0, err, err / eps);
  }
  h2_case_end(r, e, x, y, &A, &P, hx);
}

/* every compression case of backend bi; returns their count (run 0: only count them) */
static int h2c_cases(int bi, int run) {
  int count = 0;
  for (int dim = 2; dim <= 3; ++dim) {
    int lo, hi;
    count += h2c_sizes(dim, strata_exec_is_host(bench_cfg.ex[bi]), &lo, &hi);
    for (int l = lo; l <= hi && run; l += 2) h2c_case(bi, dim, (int64_t)1 << l, dim == 2 ? 1e-4 : 1e-3);
  }
  return count;
}

static void h2_suite_run(const bench_inputs_t *in) {
  (void)in;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    if (copy_bw(bench_cfg.be[bi]) <= 0) bench_stream_backend(bi); /* the same run's copy bandwidth */
    const int host = strata_exec_is_host(bench_cfg.ex[bi]);
    for (int dim = 2; dim <= 3; ++dim) {
      int lo, hi;
      h2_sizes(dim, host, &lo, &hi);
      for (int l = lo; l <= hi; l += 2) h2_case(bi, dim, (int64_t)1 << l);
    }
    h2c_cases(bi, 1);
  }
}

static int h2_estimate(const bench_inputs_t *in) {
  (void)in;
  int count = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    for (int dim = 2; dim <= 3; ++dim) {
      int lo, hi;
      h2_sizes(dim, strata_exec_is_host(bench_cfg.ex[bi]), &lo, &hi);
      count += (hi - lo) / 2 + 1;
    }
  for (int bi = 0; bi < bench_cfg.nb; ++bi) count += h2c_cases(bi, 0);
  return count;
}

const bench_suite_t bench_suite_h2 = {
    .name = "h2",
    .help = "H² matvec of exp(-r/0.1) on random 2D / 3D points for growing n: time and bytes per point, % of copy bandwidth; "
            "compression: time, GFLOP/s, ranks, error against eps",
    .options = 0,
    .run = h2_suite_run,
    .estimate = h2_estimate,
};
