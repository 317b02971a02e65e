/* strata bench — the benchmark harness as a subcommand of the strata tool (issue 6).
 *
 *   strata bench stream|spmv|unpack|fem|all [--backend B]... [--matrix SPEC]... [--replicate K|auto]
 *                [--quick] [--min-time S] [--seed N] [--scale S] [--out DIR] [--sweep] [--mesh FILE]
 *                [--progress|--no-progress]
 *
 * Suites: stream (copy, triad, sum per backend and the reference: device-to-device memcpy on GPUs,
 * a plain OpenMP triad on host backends); spmv (every algorithm of the row-class plan: auto and
 * each forced level, and in CUDA builds cuSPARSE CSR ALG1, CSR ALG2 and COO, in HIP builds with
 * hipSPARSE the same three of hipSPARSE, all in one run);
 * unpack (pack + unpack_combine(ADD) of the FEM element rows of a box mesh; then, beside auto,
 * Tpetra's one-level and uniform-batch (16) baselines of bench_unpack_base.c on 27-point rows,
 * power-law rows, 27-point and banded rows of the power law's size, and FEM element rows with
 * bulk nodes); fem (the FEM job's
 * phases through fem_run on a box mesh). Every SpMV result is checked against the serial
 * backend's y before its time counts (unpack, every backend's serial included: against the sums
 * built on the host from the element rows, bench_unpack_reference).
 * Bytes (SpMV) by the minimal-traffic model 12·nnz + 4·(rows+1) + 8·cols + 8·rows; % of the
 * stream reference bandwidth of the same backend measured in the same run. Output: JSON lines
 * (stdout, or DIR/results.jsonl with --out), then a summary table; with --out and gnuplot,
 * PNG plots (spmv_pct_stream.png, backend_ratio.png, unpack_rowlen.png, stream_bw.png). Method of
 * timing: bench.h (strata_event: device events on GPUs, host clock between fences on host backends;
 * samples of >= 1 ms). --sweep adds the spmv plan's thresholds over a small grid (records carry
 * "thresholds"); the unpack suite adds unpack time per entry against the incoming row length
 * (rowlenL records, "row_length"); fem repeats fem_run until --min-time (at least 3 runs, 1 in
 * --quick) after 2 runs not timed (the first checked); unpack and fem records carry ratio_to_serial
 * where serial ran. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <limits.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "strata/formats.h"
#include "cli_error.h"
#include "cli_json.h"
#include "cli_spmv.h"
#include "fem.h"
#include "stream_kernels.h"

int cmd_bench(int argc, char **argv);

STRATA_KERNEL_DECLARE(stream_copy);
STRATA_KERNEL_DECLARE(stream_triad);
STRATA_KERNEL_DECLARE(stream_sum);

#ifndef BENCH_SHARED_MATRICES
#define BENCH_SHARED_MATRICES "../shared/matrices"
#endif
/* the paths of the files written under --out DIR (DIR/NAME) */
#define OUT_PATH_BYTES 1024

/* ------------------------------------------------------------------------ configuration */
static struct {
  int quick, progress, sweep;
  int fmt[STRATA_NUM_FORMATS]; /* spmv: the storage formats measured besides the plan (--format) */
  int fmt_set;                 /* --format given (else: every implemented format but csr) */
  int done, total; /* measurements done, and the estimate of all (progress line) */
  const char *mesh; /* fem: --mesh FILE instead of the box */
  strata_unpack_options_t uopt; /* unpack: --unpack-options (all zero: the defaults) */
  int uopt_given;
  int64_t sopt[7]; /* spmv: --spmv-options, the plan's thresholds (0: the defaults; spmv_field_names) */
  int spad;        /* spmv: --spmv-options stream_pad (strata_spmv_options_t.stream_pad: -1, 0, 1) */
  int sopt_given;
  double min_time, scale;
  uint64_t seed;
  int replicate; /* 0 = auto */
  int nb;
  strata_backend_t be[STRATA_NUM_BACKENDS];
  strata_exec_t *ex[STRATA_NUM_BACKENDS];
  strata_exec_t *serial;
  double stream_bw[STRATA_NUM_BACKENDS]; /* reference GB/s of each backend, 0 = not measured */
  FILE *json;
  const char *out;
  int write_errors; /* files under --out (or stdout) that could not be written: exit 4 */
  double t_start;
} G;

/* ------------------------------------------------------------------------------ results */
typedef struct result {
  char suite[8], backend[8], name[160], algo[32], msg[200];
  int64_t rows, cols, nnz, n, copies;
  double bytes, entries; /* per call */
  bench_stats_t t;
  int ok; /* 1 checked and timed, 0 wrong result, -1 error, -2 skipped (said in msg) */
  double ref_bw, ratio_serial, ratio_peer;
  int64_t row_length; /* unpack rowlen records: entries per incoming row (packet) */
  int has_thr;        /* spmv --sweep records: [one_level_max, entries_per_lane, two_level_max, three_level_max] */
  int64_t thr[4];     /* thr[3] < 0: no limit (never split) */
  int has_fmt;        /* spmv format records: footprint and (auto) the chosen format */
  double fmt_bytes, fmt_overhead;
  char fmt_chosen[16];
} result_t;
static result_t *R;
static int nR, capR;

static result_t *add(const char *suite, strata_backend_t b, const char *name, const char *algo) {
  if (nR == capR) {
    capR = capR ? 2 * capR : 64;
    R = (result_t *)realloc(R, (size_t)capR * sizeof *R);
  }
  result_t *r = &R[nR++];
  memset(r, 0, sizeof *r);
  snprintf(r->suite, sizeof r->suite, "%s", suite);
  snprintf(r->backend, sizeof r->backend, "%s", strata_backend_name(b));
  snprintf(r->name, sizeof r->name, "%s", name);
  snprintf(r->algo, sizeof r->algo, "%s", algo);
  r->ok = -1;
  r->ref_bw = G.stream_bw[b];
  return r;
}

#define THR_INF ((int64_t)1 << 40) /* "no limit": the largest threshold strata_spmv_options_t takes */

/* unpack and fem: the serial backend's same record (backends run in enum order, serial first) */
static void fill_ratio_serial(result_t *r) {
  if (r->ok != 1 || r->ratio_serial > 0 || (strcmp(r->suite, "unpack") && strcmp(r->suite, "fem"))) return;
  for (const result_t *q = R; q < r + 1; ++q)
    if (q->ok == 1 && !strcmp(q->backend, "serial") && !strcmp(q->suite, r->suite) && !strcmp(q->name, r->name) &&
        !strcmp(q->algo, r->algo) && q->t.median > 0)
      r->ratio_serial = q->t.median / r->t.median;
}

/* --spmv-options: the row-class plan's thresholds (strata_spmv_options_t, strata/spmv.h) for the
 * plan's records (strata_auto and the forced algorithms; not --sweep's grid, which sets its own) */
#define SPMV_NUM_FIELDS 7
static const char *const spmv_field_names[SPMV_NUM_FIELDS] = {"one_level_max", "two_level_max", "three_level_max",
                                                              "split_chunk", "entries_per_lane", "stream_max",
                                                              "stream_block"};
static void spmv_fields(int64_t **f) {
  for (int i = 0; i < SPMV_NUM_FIELDS; ++i) f[i] = &G.sopt[i];
}
/* the plan options of --spmv-options into *o (the algorithm untouched) */
static void spmv_options_apply(strata_spmv_options_t *o) {
  o->one_level_max = G.sopt[0], o->two_level_max = G.sopt[1], o->three_level_max = G.sopt[2];
  o->split_chunk = G.sopt[3], o->entries_per_lane = (int)G.sopt[4], o->stream_max = G.sopt[5];
  o->stream_block = G.sopt[6];
  o->stream_pad = G.spad;
}

static void unpack_options_text(char *out, size_t n);
static size_t name_values_text(char *out, size_t n, const char *const *names, int64_t *const *fields, int nf);
static void emit(result_t *r) {
  char nm[400], ms[450], b[11][48], extra[160] = "";
  fill_ratio_serial(r);
  if (G.uopt_given && !strcmp(r->suite, "unpack") && !strcmp(r->algo, "unpack_combine_add") && !r->msg[0]) {
    char t[160]; /* the record says how it ran (at most about 140 characters) */
    unpack_options_text(t, sizeof t);
    if (t[0]) snprintf(r->msg, sizeof r->msg, "--unpack-options %s", t); /* force=auto alone: the defaults */
  }
  if (G.sopt_given && !strcmp(r->suite, "spmv") && !strncmp(r->algo, "strata_", 7) && !r->msg[0]) {
    char t[200];
    int64_t *f[SPMV_NUM_FIELDS];
    spmv_fields(f);
    const size_t l = name_values_text(t, sizeof t, spmv_field_names, f, SPMV_NUM_FIELDS);
    if (G.spad && l < sizeof t) snprintf(t + l, sizeof t - l, "%sstream_pad=%s", l ? "," : "", cli_stream_pad_name(G.spad));
    if (t[0]) snprintf(r->msg, sizeof r->msg, "--spmv-options %.*s", (int)sizeof r->msg - 16, t); /* cut to fit */
  }
  if (r->row_length > 0) snprintf(extra, sizeof extra, ", \"row_length\": %lld", (long long)r->row_length);
  if (r->has_thr) {
    char t3[24];
    if (r->thr[3] < 0) snprintf(t3, sizeof t3, "null");
    else snprintf(t3, sizeof t3, "%lld", (long long)r->thr[3]);
    snprintf(extra, sizeof extra, ", \"thresholds\": [%lld, %lld, %lld, %s], \"thresholds_keys\": "
             "\"one_level_max, entries_per_lane, two_level_max, three_level_max (null: never split)\"",
             (long long)r->thr[0], (long long)r->thr[1], (long long)r->thr[2], t3);
  }
  if (r->has_fmt) {
    size_t l = strlen(extra);
    snprintf(extra + l, sizeof extra - l, ", \"format_bytes\": %.0f, \"format_overhead\": %.4f, \"format_chosen\": \"%s\"",
             r->fmt_bytes, r->fmt_overhead, r->fmt_chosen);
  }
  cli_utf8_trim_cut(r->name, sizeof r->name); /* a name or message cut to fit keeps whole characters */
  cli_utf8_trim_cut(r->msg, sizeof r->msg);
  cli_json_escape(nm, sizeof nm, r->name);
  cli_json_escape(ms, sizeof ms, r->msg);
  const double t = r->t.median;
  const double gbs = r->ok == 1 && r->bytes > 0 ? r->bytes / t / 1e9 : NAN;
  fprintf(G.json,
          "{\"suite\": \"%s\", \"backend\": \"%s\", \"name\": \"%s\", \"algorithm\": \"%s\", \"status\": \"%s\", "
          "\"rows\": %lld, \"cols\": %lld, \"nnz\": %lld, \"n\": %lld, \"copies\": %lld, \"time_s\": %s, "
          "\"time_min_s\": %s, \"time_max_s\": %s, \"time_q1_s\": %s, \"time_q3_s\": %s, \"samples\": %d, "
          "\"reps_per_sample\": %d, \"bytes\": %.0f, \"gbytes_per_s\": %s, \"entries_per_s\": %s, "
          "\"stream_gbytes_per_s\": %s, \"pct_stream\": %s, \"ratio_to_serial\": %s, \"ratio_to_peer\": %s, "
          "\"message\": \"%s\"%s}\n",
          r->suite, r->backend, nm, r->algo, r->ok == 1 ? "ok" : r->ok == 0 ? "wrong" : r->ok == -2 ? "skipped" : "error", (long long)r->rows,
          (long long)r->cols, (long long)r->nnz, (long long)r->n, (long long)r->copies,
          cli_json_number(b[0], 48, "%.9g", r->ok == 1 ? t : NAN),
          cli_json_number(b[1], 48, "%.9g", r->ok == 1 ? r->t.min : NAN),
          cli_json_number(b[2], 48, "%.9g", r->ok == 1 ? r->t.max : NAN),
          cli_json_number(b[3], 48, "%.9g", r->ok == 1 ? r->t.q1 : NAN),
          cli_json_number(b[4], 48, "%.9g", r->ok == 1 ? r->t.q3 : NAN), r->t.samples, r->t.reps, r->bytes,
          cli_json_number(b[5], 48, "%.4f", gbs),
          cli_json_number(b[6], 48, "%.6g", r->ok == 1 && r->entries > 0 ? r->entries / t : NAN),
          cli_json_number(b[7], 48, "%.3f", r->ref_bw > 0 ? r->ref_bw : NAN),
          cli_json_number(b[8], 48, "%.2f", r->ref_bw > 0 ? 100.0 * gbs / r->ref_bw : NAN),
          cli_json_number(b[9], 48, "%.4g", r->ratio_serial > 0 ? r->ratio_serial : NAN),
          cli_json_number(b[10], 48, "%.4g", r->ratio_peer > 0 ? r->ratio_peer : NAN), ms, extra);
  fflush(G.json);
}

/* one line per measurement on stderr: elapsed time, count done / estimated total, what runs */
static void progress(const char *suite, const char *name, const char *backend, const char *algo) {
  ++G.done;
  if (G.done > G.total) G.total = G.done;
  if (!G.progress) return;
  fprintf(stderr, "[bench %7.1f s] %4d/%-4d (~%d left) %-6s %-28.28s %-7s %s\n", strata_timer_now() - G.t_start, G.done,
          G.total, G.total - G.done, suite, name, backend, algo);
  fflush(stderr);
}

/* --------------------------------------------------------------------------------- stream */
typedef enum { K_COPY, K_TRIAD, K_SUM, K_MEMCPY, K_PLAIN_TRIAD } kind_t;
typedef struct { strata_exec_t *e; stream_args_t a; int64_t n; double sum; kind_t k; } stream_ctx;

static int stream_run(void *v, int64_t call) {
  stream_ctx *c = (stream_ctx *)v;
  (void)call;
  switch (c->k) {
    case K_COPY: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_copy, &c->a);
    case K_TRIAD: return strata_parallel_for(c->e, NULL, strata_range(0, c->n), &stream_triad, &c->a);
    case K_SUM:
      return strata_parallel_reduce(c->e, NULL, strata_range(0, c->n), &stream_sum, &c->a, STRATA_REDUCE_SUM, &c->sum);
    case K_MEMCPY: return strata_mem_copy_async(c->e, c->a.c, c->a.a, (size_t)c->n * sizeof(double));
    case K_PLAIN_TRIAD: {
      const double *a = c->a.a, *b = c->a.b, s = c->a.s;
      double *d = c->a.c;
      const int64_t n = c->n;
#pragma omp parallel for schedule(static) num_threads(strata_exec_concurrency(c->e))
      for (int64_t i = 0; i < n; ++i) d[i] = a[i] + s * b[i];
      return 0;
    }
  }
  return -1;
}

static void suite_stream(int bi, int emit_now) {
  strata_backend_t b = G.be[bi];
  strata_exec_t *e = G.ex[bi];
  const int host = strata_exec_is_host(e);
  const int64_t n = G.quick ? (int64_t)1 << 20 : host ? (int64_t)1 << 25 : (int64_t)1 << 27;
  const size_t bytes = (size_t)n * sizeof(double);
  char name[64];
  snprintf(name, sizeof name, "n=%lld", (long long)n);
  stream_ctx c;
  memset(&c, 0, sizeof c);
  c.e = e;
  c.n = n;
  c.a.s = 3.0;
  double *a = NULL, *bb = NULL, *cc = NULL, *h = (double *)malloc(bytes);
  const char *ref = host ? "reference_plain_omp_triad" : "reference_memcpy";
  const char *algos[4] = {"copy", "triad", "sum", ref};
  const kind_t kinds[4] = {K_COPY, K_TRIAD, K_SUM, host ? K_PLAIN_TRIAD : K_MEMCPY};
  const double per[4] = {16, 24, 8, host ? 24 : 16};
  int first = nR;
  for (int q = 0; q < 4; ++q) add("stream", b, name, algos[q])->n = n;
  result_t *res = &R[first];
  if (strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&a) || strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&bb) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&cc)) {
    for (int q = 0; q < 4; ++q) snprintf(res[q].msg, sizeof res[q].msg, "%s", strata_error_message());
    goto done;
  }
  /* a[i] = 1 + (i mod 8), b[i] = 2: exact sums and triads, checked before timing */
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 1.0 + (double)(i % 8);
  strata_mem_copy(e, a, h, bytes);
#pragma omp parallel for
  for (int64_t i = 0; i < n; ++i) h[i] = 2.0;
  strata_mem_copy(e, bb, h, bytes);
  c.a.a = a;
  c.a.b = bb;
  c.a.c = cc;
  for (int q = 0; q < 4; ++q) {
    progress("stream", name, strata_backend_name(b), algos[q]);
    c.k = kinds[q];
    strata_mem_set_async(e, cc, 0xFF, bytes);
    int ok = stream_run(&c, 0) == 0;
    bench_sync(e);
    if (kinds[q] == K_SUM) {
      ok = ok && c.sum == 4.5 * (double)(n - n % 8) + (double)((n % 8) * (n % 8 + 1) / 2);
    } else {
      strata_mem_copy(e, h, cc, bytes);
      const double add_ = kinds[q] == K_COPY || kinds[q] == K_MEMCPY ? 0.0 : 6.0;
      for (int64_t i = 0; i < n && ok; ++i) ok = h[i] == 1.0 + (double)(i % 8) + add_;
    }
    res[q].bytes = per[q] * (double)n;
    res[q].entries = (double)n;
    res[q].ok = ok ? 1 : 0;
    if (!ok) {
      snprintf(res[q].msg, sizeof res[q].msg, "wrong result: time not counted");
      continue;
    }
    int st = bench_time(e, stream_run, &c, G.min_time, &res[q].t);
    if (st) {
      res[q].ok = -1;
      snprintf(res[q].msg, sizeof res[q].msg, "%s", strata_error_message());
    }
  }
  if (res[3].ok == 1) G.stream_bw[b] = res[3].bytes / res[3].t.median / 1e9;
  for (int q = 0; q < 4; ++q) res[q].ref_bw = G.stream_bw[b];
done:
  if (emit_now)
    for (int q = 0; q < 4; ++q) emit(&res[q]);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&a);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&bb);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&cc);
  free(h);
}

/* ----------------------------------------------------------------------------------- spmv */
static const char *const algo_names[] = {"strata_auto", "strata_one_level", "strata_two_level", "strata_three_level",
                                         "strata_split", "strata_stream"};
#define NUM_ALGOS ((int)(sizeof algo_names / sizeof algo_names[0]))
#define MAX_COPIES 16
/* --sweep grid: [one_level_max, entries_per_lane, two_level_max, three_level_max (-1: no limit)] */
static const int64_t sweep_grid[][4] = {{8, 4, 256, 32768},  {8, 1, 256, 32768},    {8, 2, 256, 32768}, {4, 1, 256, 32768},
                                        {16, 2, 256, 32768}, {8, 2, 4096, 32768}, {8, 2, 256, -1},    {2, 1, 64, 32768}};
#define SWEEP_N ((int)(sizeof sweep_grid / sizeof sweep_grid[0]))

typedef struct {
  strata_exec_t *e;
  strata_spmv_plan_t *p;
  int copies;
  strata_crs_matrix_t *A[MAX_COPIES];
  double *x[MAX_COPIES], *y[MAX_COPIES];
} spmv_ctx;

static int spmv_run(void *v, int64_t call) {
  spmv_ctx *k = (spmv_ctx *)v;
  const int c = (int)(call % k->copies);
  return strata_spmv_plan_apply(k->e, k->p, 1.0, k->A[c], k->x[c], 0.0, k->y[c]);
}

static double cache_bytes(strata_exec_t *e) {
  if (!strata_exec_is_host(e)) return 64.0 * 1048576.0; /* H200 L2 (60 MB) rounded up */
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return l3 > 0 ? (double)l3 : 32.0 * 1048576.0;
}

typedef struct { const double *yref, *tol; int64_t n; } oracle_t;

/* Exact equality where non-finite values count as themselves: both NaN, or the same infinity
 * (a matrix may hold Inf and NaN: the reader accepts them). */
static int same_value(double a, double b) { return a == b || (isnan(a) && isnan(b)); }

/* y against the oracle's yref within tol; a non-finite on either side must be the same value (a
 * finite result where serial gave Inf or NaN, or the reverse, is wrong) */
static int close_enough(double y, double yref, double tol) {
  if (!isfinite(y) || !isfinite(yref)) return same_value(y, yref);
  return fabs(y - yref) <= tol;
}

/* y (host) against the serial backend's y: |y - yref| <= tol per row; returns wrong rows */
static int64_t compare(const oracle_t *o, const double *y, int64_t *first) {
  int64_t bad = 0, f = -1;
  for (int64_t r = 0; r < o->n; ++r)
    if (!close_enough(y[r], o->yref[r], o->tol[r])) {
      if (f < 0) f = r;
      ++bad;
    }
  *first = f;
  return bad;
}

static int check_y(strata_exec_t *e, double *dy, int64_t n, double *h, const oracle_t *o, result_t *r) {
  bench_sync(e);
  if (strata_mem_copy(e, h, dy, (size_t)n * sizeof(double)) != STRATA_SUCCESS) { /* h would hold an old y */
    snprintf(r->msg, sizeof r->msg, "copying y to the host for the check failed: %s", strata_error_message());
    return 0; /* r->ok stays -1: an error, not a result */
  }
  int64_t first;
  int64_t bad = compare(o, h, &first);
  if (bad) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "%lld wrong rows against serial (first %lld: %.17g, serial %.17g): time not counted",
             (long long)bad, (long long)first, h[first], o->yref[first]);
    return 0;
  }
  return 1;
}

/* The common step of every SpMV record: for each rotated copy c (ys[c], copies of them), y
 * poisoned (NaN), run(ctx, c) once, its y checked against the oracle (every copy: each has its own
 * matrix, format conversion or vendor handle), then run timed; what failed goes into r->msg
 * (run_fail: the message when run fails without a strata error, e.g. a vendor library's; NULL:
 * strata's message). */
static void check_then_time(strata_exec_t *e, int (*run)(void *, int64_t), void *ctx, double *const *ys, int copies,
                            int64_t n, double *h, const oracle_t *o, const char *run_fail, result_t *r) {
  for (int c = 0; c < copies; ++c) {
    if (strata_mem_set_async(e, ys[c], 0xFF, (size_t)n * 8) != STRATA_SUCCESS) { /* y not poisoned: unchecked */
      snprintf(r->msg, sizeof r->msg, "poisoning y before the check failed: %s", strata_error_message());
      return;
    }
    bench_sync(e);
    if (run(ctx, c)) {
      snprintf(r->msg, sizeof r->msg, "%s", run_fail ? run_fail : strata_error_message());
      return;
    }
    if (!check_y(e, ys[c], n, h, o, r)) {
      if (copies > 1) { /* which copy (the others may be right); check_y's message is short */
        char m[sizeof r->msg + 32];
        snprintf(m, sizeof m, "copy %d of %d: %s", c, copies, r->msg);
        memcpy(r->msg, m, sizeof r->msg - 1);
        r->msg[sizeof r->msg - 1] = '\0';
      }
      return;
    }
  }
  r->ok = bench_time(e, run, ctx, G.min_time, &r->t) ? -1 : 1;
  if (r->ok < 0) snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
}

/* One plan of A with opt: built, applied once with y poisoned, checked against the oracle, then
 * timed; what failed goes into r->msg. */
static void measure_plan(spmv_ctx *k, const strata_spmv_options_t *opt, int setup, int64_t n, double *h,
                         const oracle_t *o, result_t *r) {
  strata_exec_t *e = k->e;
  if (!setup || strata_spmv_plan_create(e, k->A[0], opt, &k->p)) {
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
    return;
  }
  check_then_time(e, spmv_run, k, k->y, k->copies, n, h, o, NULL, r);
  strata_spmv_plan_destroy(&k->p);
}

/* A storage format of strata/formats.h, one conversion per rotated copy */
typedef struct {
  strata_exec_t *e;
  int copies;
  strata_sparse_format_t *M[MAX_COPIES];
  double *x[MAX_COPIES], *y[MAX_COPIES];
} fmt_ctx;

static int fmt_run(void *v, int64_t call) {
  fmt_ctx *k = (fmt_ctx *)v;
  const int c = (int)(call % k->copies);
  return strata_format_spmv(k->e, k->M[c], 1.0, k->x[c], 0.0, k->y[c]);
}

/* Format f of k's matrices: converted (conversion not timed), applied once with y poisoned,
 * checked against the oracle, then timed; r gets the footprint and, for auto, the choice. */
static void measure_format(const spmv_ctx *k, strata_format_t f, int64_t n, double *h, const oracle_t *o, result_t *r) {
  fmt_ctx m;
  memset(&m, 0, sizeof m);
  m.e = k->e;
  m.copies = k->copies;
  for (int c = 0; c < k->copies; ++c) {
    m.x[c] = k->x[c], m.y[c] = k->y[c];
    if (strata_format_create(k->e, k->A[c], f, NULL, &m.M[c])) {
      snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
      goto done;
    }
  }
  strata_format_t chosen;
  strata_format_footprint_t fp;
  strata_format_info(m.M[0], &chosen, &fp);
  r->has_fmt = 1;
  r->fmt_bytes = (double)fp.bytes;
  r->fmt_overhead = fp.overhead;
  snprintf(r->fmt_chosen, sizeof r->fmt_chosen, "%s", strata_format_name(chosen));
  check_then_time(k->e, fmt_run, &m, m.y, m.copies, n, h, o, NULL, r);
done:
  for (int c = 0; c < k->copies; ++c) strata_format_destroy(&m.M[c]);
}

static void spmv_matrix(const strata_crs_matrix_t *Ah, const char *name) {
  const int64_t n = Ah->num_rows, nc = Ah->num_cols, nnz = Ah->nnz;
  const double bytes = 12.0 * (double)nnz + 4.0 * (double)(n + 1) + 8.0 * (double)nc + 8.0 * (double)n;
  double *x = (double *)malloc((size_t)(nc + 1) * sizeof(double)), *yref = (double *)malloc((size_t)(n + 1) * sizeof(double));
  double *tol = (double *)malloc((size_t)(n + 1) * sizeof(double)), *h = (double *)malloc((size_t)(n + 1) * sizeof(double));
  if (!x || !yref || !tol || !h) { /* an error record of the input (exit 4), not a crash */
    result_t *r = add("spmv", STRATA_BACKEND_SERIAL, name, "input");
    r->rows = n, r->cols = nc, r->nnz = nnz;
    snprintf(r->msg, sizeof r->msg, "out of host memory: x needs %zu bytes, yref, tol and y %zu bytes each",
             (size_t)(nc + 1) * sizeof(double), (size_t)(n + 1) * sizeof(double));
    fprintf(stderr, "strata bench: %s: %s\n", name, r->msg);
    emit(r);
    free(x), free(yref), free(tol), free(h);
    return;
  }
  for (int64_t j = 0; j < nc; ++j) x[j] = 1.0 + (double)(j % 7) / 8.0;
  /* the oracle: the serial backend's plain SpMV; tolerance from the row's |a||x| and length */
  if (strata_crs_spmv(G.serial, 1.0, Ah, x, 0.0, yref)) { /* no reference: nothing can be checked (exit 4) */
    result_t *r = add("spmv", STRATA_BACKEND_SERIAL, name, "input");
    r->rows = n, r->cols = nc, r->nnz = nnz;
    snprintf(r->msg, sizeof r->msg, "the reference y = A x (strata_crs_spmv on serial) failed: %s", strata_error_message());
    fprintf(stderr, "strata bench: %s: %s\n", name, r->msg);
    emit(r);
    free(x), free(yref), free(tol), free(h);
    return;
  }
  for (int64_t r = 0; r < n; ++r) {
    double s = 0;
    for (int64_t k = Ah->row_offsets[r]; k < Ah->row_offsets[r + 1]; ++k) s += fabs(Ah->values[k] * x[Ah->col_indices[k]]);
    tol[r] = 4.0 * 0x1.0p-52 * (double)(Ah->row_offsets[r + 1] - Ah->row_offsets[r] + 2) * s;
  }
  oracle_t o = {yref, tol, n};
  const int first = nR;
  int64_t maxlen = 0;
  for (int64_t r = 0; r < n; ++r) maxlen = fmax(maxlen, Ah->row_offsets[r + 1] - Ah->row_offsets[r]);
  for (int bi = 0; bi < G.nb; ++bi) {
    strata_backend_t b = G.be[bi];
    strata_exec_t *e = G.ex[bi];
    if (G.stream_bw[b] <= 0) suite_stream(bi, 1); /* % of stream needs the same run's bandwidth */
    spmv_ctx k;
    memset(&k, 0, sizeof k);
    k.e = e;
    /* rotate copies when the data fit in cache (not in --quick) */
    const double cb = cache_bytes(e);
    k.copies = G.quick || bytes >= 4 * cb ? 1 : (int)fmin(MAX_COPIES, ceil(4 * cb / bytes));
    int setup = 1;
    for (int c = 0; c < k.copies && setup; ++c) {
      setup = strata_crs_copy(e, Ah, &k.A[c]) == STRATA_SUCCESS &&
              strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nc + 1) * 8, (void **)&k.x[c]) == STRATA_SUCCESS &&
              strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(n + 1) * 8, (void **)&k.y[c]) == STRATA_SUCCESS &&
              strata_mem_copy(e, k.x[c], x, (size_t)nc * 8) == STRATA_SUCCESS;
    }
    for (int a = 0; a < NUM_ALGOS; ++a) {
      result_t *r = add("spmv", b, name, algo_names[a]);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      progress("spmv", name, r->backend, r->algo);
      strata_spmv_options_t opt;
      memset(&opt, 0, sizeof opt);
      spmv_options_apply(&opt);
      opt.algorithm = (strata_spmv_algorithm_t)a;
      measure_plan(&k, &opt, setup, n, h, &o, r);
    }
    /* --sweep: the auto plan's class thresholds over a small grid (the former spmv_bench's) */
    for (int g = 0; G.sweep && g < SWEEP_N; ++g) {
      char al[48], t3[24];
      const int64_t *q = sweep_grid[g];
      if (q[3] < 0) snprintf(t3, sizeof t3, "inf");
      else snprintf(t3, sizeof t3, "%lld", (long long)q[3]);
      snprintf(al, sizeof al, "sweep[%lld,%lld,%lld,%s]", (long long)q[0], (long long)q[1], (long long)q[2], t3);
      result_t *r = add("spmv", b, name, al);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      r->has_thr = 1;
      memcpy(r->thr, q, sizeof r->thr);
      progress("spmv", name, r->backend, r->algo);
      strata_spmv_options_t opt;
      memset(&opt, 0, sizeof opt);
      opt.one_level_max = q[0], opt.entries_per_lane = (int)q[1], opt.two_level_max = q[2];
      opt.three_level_max = q[3] < 0 ? THR_INF : q[3];
      measure_plan(&k, &opt, setup, n, h, &o, r);
    }
    for (int f = 0; f < STRATA_NUM_FORMATS && setup; ++f) {
      if (!G.fmt[f]) continue;
      char al[32];
      snprintf(al, sizeof al, "format_%s", strata_format_name((strata_format_t)f));
      result_t *r = add("spmv", b, name, al);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      progress("spmv", name, r->backend, r->algo);
      if ((f == STRATA_FORMAT_ELL || f == STRATA_FORMAT_ELLPACK_R) && (double)n * maxlen > 16.0 * (double)nnz + 1e6) {
        r->ok = -2; /* padding to the longest row: not worth converting (nor the memory) */
        snprintf(r->msg, sizeof r->msg, "skipped: %lld rows x longest %lld = %.3g stored entries, %.0fx the %lld nonzeros "
                 "(limit 16x + 10^6)", (long long)n, (long long)maxlen, (double)n * maxlen,
                 (double)n * maxlen / fmax(1.0, (double)nnz), (long long)nnz);
      } else
        measure_format(&k, (strata_format_t)f, n, h, &o, r);
    }
    for (int a = 0; a < bench_peer_count(b) && setup; ++a) { /* cuSPARSE / hipSPARSE */
      result_t *r = add("spmv", b, name, bench_peer_name(a));
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      progress("spmv", name, r->backend, r->algo);
      bench_peer_t *p = NULL;
      if (bench_peer_create(a, k.copies, k.A, k.x, k.y, strata_exec_native_stream(e), &p, r->msg, sizeof r->msg))
        continue;
      char fail[64];
      snprintf(fail, sizeof fail, "%s: SpMV failed", r->algo);
      check_then_time(e, bench_peer_apply, p, k.y, k.copies, n, h, &o, fail, r);
      bench_peer_destroy(&p);
    }
    for (int c = 0; c < k.copies; ++c) {
      strata_crs_destroy(&k.A[c]);
      strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&k.x[c]);
      strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&k.y[c]);
    }
  }
  /* ratios: to the serial backend's same algorithm, and to the peer (cuSPARSE / hipSPARSE CSR ALG1
   * on the same backend when measured, else the serial backend's auto plan) */
  for (int i = first; i < nR; ++i) {
    if (R[i].ok != 1) continue;
    double ts = 0, tp = 0, tsa = 0;
    for (int j = first; j < nR; ++j) {
      if (R[j].ok != 1) continue;
      if (!strcmp(R[j].backend, "serial") && !strcmp(R[j].algo, R[i].algo)) ts = R[j].t.median;
      if (!strcmp(R[j].backend, "serial") && !strcmp(R[j].algo, "strata_auto")) tsa = R[j].t.median;
      if (!strcmp(R[j].backend, R[i].backend) && !strcmp(R[j].algo, bench_peer_name(BENCH_PEER_CSR_ALG1))) tp = R[j].t.median;
    }
    R[i].ratio_serial = ts > 0 ? ts / R[i].t.median : 0;
    R[i].ratio_peer = (tp > 0 ? tp : tsa) / R[i].t.median;
  }
  for (int i = first; i < nR; ++i) emit(&R[i]);
  free(x);
  free(yref);
  free(tol);
  free(h);
}

typedef struct { char **v; int n, cap; } strlist;
static void push(strlist *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = (char **)realloc(l->v, (size_t)l->cap * sizeof(char *));
  }
  l->v[l->n++] = strdup(s);
}
static strlist g_walk;
static int walk_cb(const char *p, const struct stat *sb, int type, struct FTW *f) {
  (void)sb, (void)f;
  size_t len = strlen(p);
  if (type == FTW_F && ((len > 4 && !strcmp(p + len - 4, ".mtx")) || (len > 7 && !strcmp(p + len - 7, ".mtx.gz"))))
    push(&g_walk, p);
  return 0;
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* An input of `suite` that could not be built: a record "input" with the message (exit 4), said on
 * stderr too. */
static void input_error(const char *suite, const char *spec, const char *msg) {
  result_t *r = add(suite, STRATA_BACKEND_SERIAL, spec, "input");
  snprintf(r->msg, sizeof r->msg, "%.*s", (int)sizeof r->msg - 1, msg); /* the message, cut to fit */
  emit(r);
  fprintf(stderr, "strata bench: %s (an input error: its runs are not made; exit 4)\n", msg);
}

/* the files `--matrix shared` found: the shared folder keeps malformed and complex files on
 * purpose (EDGE_CASES.md), so a file of it that the reader refuses is a record "skipped" with the
 * reader's message, not an error (the reader's verdict on every shared file is test_mmio's) */
static strlist g_shared;
static int from_shared(const char *s) {
  for (int i = 0; i < g_shared.n; ++i)
    if (!strcmp(g_shared.v[i], s)) return 1;
  return 0;
}
static void input_refused_shared(const char *suite, const char *spec, const char *msg) {
  result_t *r = add(suite, STRATA_BACKEND_SERIAL, spec, "input");
  r->ok = -2;
  snprintf(r->msg, sizeof r->msg, "(a shared file) %.*s", (int)sizeof r->msg - 20, msg);
  emit(r);
  fprintf(stderr, "strata bench: %s (skipped: a shared file the reader refuses)\n", msg);
}

/* --matrix specs as a list of inputs: gen:all and shared expanded (a shared folder that cannot be
 * read or holds no matrix: an error record of `suite`) */
static void expand_specs(const char *suite, const strlist *specs, strlist *list) {
  for (int i = 0; i < specs->n; ++i) {
    const char *s = specs->v[i];
    if (!strcmp(s, "gen:all")) {
      for (int g = 0; bench_gen_names[g]; ++g) {
        char buf[64];
        snprintf(buf, sizeof buf, "gen:%s", bench_gen_names[g]);
        push(list, buf);
      }
    } else if (!strcmp(s, "shared")) {
      const char *dir = getenv("STRATA_MATRICES") ? getenv("STRATA_MATRICES") : BENCH_SHARED_MATRICES;
      char msg[1200];
      g_walk.n = 0;
      errno = 0;
      if (nftw(dir, walk_cb, 16, FTW_PHYS) != 0) {
        snprintf(msg, sizeof msg, "shared: cannot read %s: %s", dir, strerror(errno ? errno : EIO));
        input_error(suite, "shared", msg);
      } else if (!g_walk.n) {
        snprintf(msg, sizeof msg, "shared: no .mtx or .mtx.gz file under %s ($STRATA_MATRICES or %s)", dir, BENCH_SHARED_MATRICES);
        input_error(suite, "shared", msg);
      }
      if (g_walk.n) qsort(g_walk.v, (size_t)g_walk.n, sizeof(char *), cmp_str); /* NULL v when none */
      for (int j = 0; j < g_walk.n; ++j) push(list, g_walk.v[j]), push(&g_shared, g_walk.v[j]), free(g_walk.v[j]);
    } else
      push(list, s);
  }
}
static void free_list(strlist *list) {
  for (int i = 0; i < list->n; ++i) free(list->v[i]);
  free(list->v);
  list->v = NULL;
  list->n = 0;
}

/* One input (gen:NAME[:params] or a Matrix Market file) on the serial backend, and its name; on
 * failure a record "input" of the suite with the message, said on stderr, and -1. */
static int load_spec(const char *suite, const char *s, strata_crs_matrix_t **A, char *name, size_t name_len) {
  char err[300] = "";
  int rc;
  *A = NULL;
  if (!strncmp(s, "gen:", 4)) rc = bench_gen(G.serial, s + 4, G.quick, G.scale, G.seed, A, name, name_len, err, sizeof err);
  else {
    const char *base = strrchr(s, '/');
    snprintf(name, name_len, "%s", base ? base + 1 : s);
    rc = strata_mm_read_crs(G.serial, s, A) ? -1 : 0;
    if (rc) snprintf(err, sizeof err, "%s", strata_error_message());
  }
  if (rc) {
    if (strncmp(s, "gen:", 4) && from_shared(s))
      input_refused_shared(suite, s, err);
    else
      input_error(suite, s, err); /* err names the input */
    return -1;
  }
  return 0;
}

/* name made unique among the records of `suite` so far: two inputs of the same name (d1/x.mtx,
 * d2/x.mtx) get "x.mtx" and "x.mtx#2", so that the summary and the plots keep them apart */
static void unique_name(const char *suite, char *name, size_t cap) {
  char base[160];
  snprintf(base, sizeof base, "%.*s", (int)(cap > 12 ? cap - 12 : 1), name); /* room for "#N" */
  for (int k = 1;; ++k) {
    if (k > 1) { /* base (cut to cap - 12) + "#k" fits in cap */
      char num[16];
      const size_t bl = strlen(base), nl = (size_t)snprintf(num, sizeof num, "#%d", k);
      memcpy(name, base, bl);
      memcpy(name + bl, num, nl + 1);
    }
    int used = 0;
    for (int i = 0; i < nR && !used; ++i) used = !strcmp(R[i].suite, suite) && !strcmp(R[i].name, name);
    if (!used) return;
  }
}

/* --replicate auto under --quick: at most this many rows (A ⊗ I_k with k cut down to fit) */
#define QUICK_REPLICATE_ROWS ((int64_t)1 << 20)

static void suite_spmv(const strlist *specs) {
  strlist list = {0};
  expand_specs("spmv", specs, &list);
  for (int i = 0; i < list.n; ++i) {
    char name[160], err[300] = "";
    strata_crs_matrix_t *A = NULL;
    if (load_spec("spmv", list.v[i], &A, name, sizeof name)) continue;
    int k = G.replicate;
    if (k == 0) { /* auto: A ⊗ I_k until the data are 4 times the largest cache of the backends */
      double cb = 0, bytes = 12.0 * (double)A->nnz + 20.0 * (double)A->num_rows + 8.0 * (double)A->num_cols;
      for (int bi = 0; bi < G.nb; ++bi) cb = fmax(cb, cache_bytes(G.ex[bi]));
      k = bytes >= 4 * cb || bytes <= 0 ? 1 : (int)ceil(4 * cb / bytes);
      while (k > 1 && (double)A->num_rows * k > INT32_MAX / 2) k /= 2;
      if (G.quick && (double)A->num_rows * k > QUICK_REPLICATE_ROWS) /* --quick stays small */
        k = A->num_rows >= QUICK_REPLICATE_ROWS ? 1 : (int)(QUICK_REPLICATE_ROWS / A->num_rows);
    }
    if (k > 1) {
      strata_crs_matrix_t *B = NULL;
      if (bench_replicate(A, k, &B, err, sizeof err)) { /* an error: the unreplicated matrix is not what was asked */
        char msg[500];
        snprintf(msg, sizeof msg, "%s: A (x) I_%d: %s", name, k, err);
        input_error("spmv", list.v[i], msg);
        strata_crs_destroy(&A);
        continue;
      } else {
        strata_crs_destroy(&A);
        A = B;
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "(xI%d)", k);
      }
    }
    unique_name("spmv", name, sizeof name);
    spmv_matrix(A, name);
    strata_crs_destroy(&A);
  }
  free_list(&list);
}

/* --------------------------------------------------------------------------------- unpack */
typedef struct {
  strata_exec_t *e;
  strata_crs_matrix_t *E, *G;
  int32_t *rows;
  strata_packets_t *pk;
} unpack_ctx;
static void unpack_ctx_free(unpack_ctx *u) {
  strata_packets_destroy(&u->pk);
  strata_crs_destroy(&u->E);
  strata_crs_destroy(&u->G);
  strata_mem_free(u->e, STRATA_MEM_DEVICE, (void **)&u->rows);
}
/* the serial buffers of an unpack input: element rows (offsets, columns, values), COO pattern */
static void serial_bufs_free(int64_t **off, int32_t **col, double **val, int32_t **gr, int32_t **gc) {
  strata_exec_t *s = G.serial;
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)off);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)col);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)val);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)gr);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)gc);
}
/* An unpack result h (host, nnz values) against the host reference o (bench_unpack_reference)
 * with strata's status st and report rep (NULL: a Tpetra baseline, which reports nothing): 1 when
 * it may be timed, else 0 and r is wrong, its message says why. */
static int unpack_checked(const oracle_t *o, const double *h, int st, const strata_unpack_report_t *rep, result_t *r) {
  int64_t first = -1;
  const int64_t bad = compare(o, h, &first), inv = rep ? rep->invalid_entries : 0;
  if (!st && !inv && !bad) return 1;
  r->ok = 0;
  if (bad)
    snprintf(r->msg, sizeof r->msg, "status %d, %lld invalid entries, %lld values differ from the host reference (first "
             "%lld: %.17g, reference %.17g): time not counted", st, (long long)inv, (long long)bad, (long long)first,
             h[first], o->yref[first]);
  else
    snprintf(r->msg, sizeof r->msg, "status %d, %lld invalid entries: time not counted", st, (long long)inv);
  return 0;
}
static int pack_run(void *v, int64_t call) {
  unpack_ctx *u = (unpack_ctx *)v;
  strata_packets_t *p = NULL;
  (void)call;
  int st = strata_sparse_pack(u->e, u->E, u->E->num_rows, NULL, NULL, &p);
  strata_packets_destroy(&p);
  return st;
}
static int unpack_run(void *v, int64_t call) {
  unpack_ctx *u = (unpack_ctx *)v;
  (void)call;
  return strata_sparse_unpack_combine_opts(u->e, u->G, u->rows, u->pk, NULL, u->G->num_cols, STRATA_COMBINE_ADD, &G.uopt, NULL);
}

/* cubes per edge of the fem and unpack suites' box meshes at --scale 1; EDGE x cbrt(scale) */
#define FEM_BOX_EDGE 40
#define UNPACK_BOX_EDGE 60
static int bench_box_of_scale(int edge) { return (int)(edge * cbrt(G.scale)); }

/* The unpack suite's box mesh (60^3 cubes x 6 tets, scaled; 8^3 with --quick): 0, or -1 (an error
 * record "input" of `what` with the message: exit 4) */
static int unpack_box_mesh(fem_mesh_t *mesh, int *box, const char *what) {
  char msg[256], m2[400], name[64];
  *box = G.quick ? 8 : bench_box_of_scale(UNPACK_BOX_EDGE);
  if (fem_mesh_box(*box, mesh, msg, sizeof msg) == 0) return 0;
  snprintf(name, sizeof name, "box%d", *box);
  snprintf(m2, sizeof m2, "unpack %s: the box mesh: %s", what, msg);
  input_error("unpack", name, m2);
  return -1;
}

/* An unpack input whose building failed (what: the step), said as an error record of name: exit 4.
 * st != 0: a strata call failed (its message follows), else host memory ran out. */
static void unpack_input_failed(const char *name, const char *what, int st) {
  char msg[400];
  snprintf(msg, sizeof msg, "unpack %s: %s: %s", name, what, st ? strata_error_message() : "out of host memory");
  input_error("unpack", name, msg);
}

/* The host reference of an unpack input (bench_unpack_reference: the sums of E's rows into Gs's
 * pattern, and their tolerances) and a host buffer h for the results, Gs->nnz doubles each, into
 * *ref, *tol, *h (the caller frees them, also on failure). 0, or -1 after an input error record. */
static int unpack_oracle(const char *name, const strata_crs_matrix_t *E, const int32_t *rows,
                         const strata_crs_matrix_t *Gs, double **ref, double **tol, double **h) {
  char err[300] = "";
  *ref = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  *tol = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  *h = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  if (!*ref || !*tol || !*h) {
    unpack_input_failed(name, "the reference's arrays", 0);
    return -1;
  }
  if (bench_unpack_reference(E, rows, Gs, *ref, *tol, err, sizeof err)) {
    input_error("unpack", name, err);
    return -1;
  }
  return 0;
}

static void suite_unpack(void) {
  int box;
  fem_mesh_t mesh;
  char name[64];
  if (unpack_box_mesh(&mesh, &box, "element rows")) return;
  const int64_t nt = mesh.num_tets, nn = mesh.num_nodes, ne = 16 * nt;
  snprintf(name, sizeof name, "box%d_%lldtets", box, (long long)nt);
  /* element rows on the serial backend: row 4t+i holds tet t's nodes; values multiples of 1/4 */
  strata_exec_t *s = G.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *rows = NULL, *gr = NULL, *gc = NULL;
  double *val = NULL, *ref = NULL, *tol = NULL, *h = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(4 * nt + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gc);
  if (st0 || !(rows = (int32_t *)malloc((size_t)(4 * nt) * 4))) {
    unpack_input_failed(name, "the element rows' buffers", st0);
    goto done;
  }
  for (int64_t t = 0; t < nt; ++t)
    for (int i = 0; i < 4; ++i) {
      off[4 * t + i] = 16 * t + 4 * i;
      rows[4 * t + i] = mesh.tets[4 * t + i];
      for (int j = 0; j < 4; ++j) {
        const int64_t q = 16 * t + 4 * i + j;
        col[q] = gc[q] = mesh.tets[4 * t + j];
        gr[q] = mesh.tets[4 * t + i];
        val[q] = 0.25 * (double)(1 + (q * 7 + (int64_t)G.seed) % 9) * (i == j ? 3 : -1);
      }
    }
  off[4 * nt] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)(4 * nt), (int32_t)nn, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL; /* E owns them */
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)nn, (int32_t)nn, ne, gr, gc, NULL, &Gs))) {
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the element rows (strata_crs_create_from_csr)", st0);
    goto done;
  }
  if (unpack_oracle(name, E, rows, Gs, &ref, &tol, &h)) goto done; /* the reference of every backend */
  const oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < G.nb; ++bi) {
    strata_exec_t *e = G.ex[bi];
    strata_backend_t b = G.be[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    result_t *rp = add("unpack", b, name, "pack"), *ru = add("unpack", b, name, "unpack_combine_add");
    rp->rows = ru->rows = 4 * nt, rp->cols = ru->cols = nn, rp->nnz = ne, ru->nnz = Gs->nnz;
    rp->entries = ru->entries = (double)ne;
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(4 * nt) * 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows, (size_t)(4 * nt) * 4) || strata_sparse_pack(e, u.E, u.E->num_rows, NULL, NULL, &u.pk)) {
      snprintf(rp->msg, sizeof rp->msg, "%s", strata_error_message()), snprintf(ru->msg, sizeof ru->msg, "%s", rp->msg);
      goto next;
    }
    strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
    strata_unpack_report_t rep;
    memset(&rep, 0, sizeof rep);
    int st = strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, nn, STRATA_COMBINE_ADD, &G.uopt, &rep);
    bench_sync(e);
    const int copied = strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8) == STRATA_SUCCESS;
    if (!copied) snprintf(ru->msg, sizeof ru->msg, "the result to the host: %s", strata_error_message());
    rp->bytes = 12.0 * (double)ne + 8.0 * (double)(4 * nt + 1) + 2.0 * (double)u.pk->num_bytes; /* read E, write + scan */
    ru->bytes = (double)u.pk->num_bytes + 16.0 * (double)ne + 4.0 * (double)(4 * nt); /* packets, RMW values, rows */
    const int64_t bad_packets = bench_packets_wrong(E, u.pk); /* pack checked before its time counts */
    if (bad_packets) {
      rp->ok = 0;
      snprintf(rp->msg, sizeof rp->msg, "%lld of %lld packets differ from E's rows: time not counted",
               (long long)bad_packets, (long long)u.pk->num_rows);
    } else {
      progress("unpack", name, rp->backend, "pack");
      rp->ok = bench_time(e, pack_run, &u, G.min_time, &rp->t) ? -1 : 1;
      if (rp->ok < 0) snprintf(rp->msg, sizeof rp->msg, "%s", strata_error_message());
    }
    if (copied && unpack_checked(&o, h, st, &rep, ru)) {
      progress("unpack", name, ru->backend, "unpack_combine_add");
      ru->ok = bench_time(e, unpack_run, &u, G.min_time, &ru->t) ? -1 : 1;
      if (ru->ok < 0) snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
    }
  next:
    emit(rp), emit(ru);
    unpack_ctx_free(&u);
  }
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(ref);
  free(tol);
  free(h);
  fem_mesh_destroy(&mesh);
}

/* Unpack time per entry against the incoming row length (issue 6): TOTAL entries arrive as
 * packets of L entries each (L = 1, 2, 4, ...), so the plan's classes (short, medium, long, very
 * long) are each exercised; about 4 packets per global row, a packet's columns are L distinct
 * columns of its row's pattern (2L wide, spread over the columns). Values are multiples of 1/4;
 * every backend's sums are checked against the host reference before its time counts. */
static void unpack_rowlen_one(int64_t L, int64_t total) {
  const int64_t P = total / L > 0 ? total / L : 1, ne = P * L;
  const int64_t W = 2 * L > 4 ? 2 * L : 4;
  const int64_t n = P / 4 > 0 ? P / 4 : 1, nc = n > W ? n : W, step = nc / W;
  char name[64];
  snprintf(name, sizeof name, "rowlen%lld_%lldentries", (long long)L, (long long)ne);
  strata_exec_t *s = G.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *gr = NULL, *gc = NULL, *rows = (int32_t *)malloc((size_t)P * 4);
  double *val = NULL, *ref = NULL, *tol = NULL, *h = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(P + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(n * W) * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(n * W) * 4, (void **)&gc);
  if (st0 || !rows) {
    unpack_input_failed(name, "the packets' and pattern's buffers", st0);
    goto done;
  }
  for (int64_t r = 0; r < n; ++r)
    for (int64_t k = 0; k < W; ++k) gr[r * W + k] = (int32_t)r, gc[r * W + k] = (int32_t)((r + k * step) % nc);
  uint64_t x = G.seed * 0x9E3779B97F4A7C15ull + 12345;
  for (int64_t i = 0; i < P; ++i) {
    const int64_t r = i % n;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int64_t s0 = (int64_t)(x % (uint64_t)W);
    rows[i] = (int32_t)r;
    off[i] = i * L;
    for (int64_t j = 0; j < L; ++j) {
      const int64_t q = i * L + j;
      col[q] = (int32_t)((r + ((s0 + j) % W) * step) % nc);
      val[q] = 0.25 * (double)(1 + (q * 7 + (int64_t)G.seed) % 9);
    }
  }
  off[P] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)P, (int32_t)nc, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL;
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)n, (int32_t)nc, n * W, gr, gc, NULL, &Gs))) {
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the packets' rows (strata_crs_create_from_csr)", st0);
    goto done;
  }
  if (unpack_oracle(name, E, rows, Gs, &ref, &tol, &h)) goto done;
  const oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < G.nb; ++bi) {
    strata_exec_t *e = G.ex[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    result_t *ru = add("unpack", G.be[bi], name, "unpack_combine_add");
    ru->rows = P, ru->cols = nc, ru->nnz = Gs->nnz, ru->entries = (double)ne, ru->row_length = L;
    progress("unpack", name, ru->backend, "unpack_combine_add");
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)P * 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows, (size_t)P * 4) || strata_sparse_pack(e, u.E, u.E->num_rows, NULL, NULL, &u.pk)) {
      snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
      goto next;
    }
    strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
    strata_unpack_report_t rep;
    memset(&rep, 0, sizeof rep);
    int st = strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, (int32_t)nc, STRATA_COMBINE_ADD, &G.uopt, &rep);
    bench_sync(e);
    ru->bytes = (double)u.pk->num_bytes + 16.0 * (double)ne + 4.0 * (double)P; /* packets, RMW values, rows */
    if (strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8))
      snprintf(ru->msg, sizeof ru->msg, "the result to the host: %s", strata_error_message());
    else if (unpack_checked(&o, h, st, &rep, ru)) {
      ru->ok = bench_time(e, unpack_run, &u, G.min_time, &ru->t) ? -1 : 1;
      if (ru->ok < 0) snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
    }
  next:
    emit(ru);
    unpack_ctx_free(&u);
  }
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(ref);
  free(tol);
  free(h);
}

/* Baselines beside auto (issue 5 "Performance"): strata_sparse_unpack_combine (auto classes),
 * Tpetra's original one-level scheme and its uniform batches of 16 (bench_unpack_base.c), on the
 * packets of E's rows (serial) into targets rows_h[k] of G's pattern (serial). Every result, the
 * serial backend's too, is checked against the sums built on the host from E's rows
 * (bench_unpack_reference) before its time counts. */
static void unpack_versus(const char *name, strata_crs_matrix_t *E, strata_crs_matrix_t *Gs, const int32_t *rows_h) {
  static const char *const algo[3] = {"unpack_combine_add", "tpetra_one_level", "tpetra_batched16"};
  const int64_t np = E->num_rows;
  double *ref = NULL, *tol = NULL, *h = NULL;
  if (unpack_oracle(name, E, rows_h, Gs, &ref, &tol, &h)) goto done;
  const oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < G.nb; ++bi) {
    strata_exec_t *e = G.ex[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    bench_unpack_base_t *base = NULL;
    result_t *r[3] = {NULL, NULL, NULL};
    for (int a = 0; a < 3; ++a) {
      r[a] = add("unpack", G.be[bi], name, algo[a]);
      r[a]->rows = np, r[a]->cols = Gs->num_cols, r[a]->nnz = Gs->nnz, r[a]->entries = (double)E->nnz;
    }
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)np * 4 + 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows_h, (size_t)np * 4) || strata_sparse_pack(e, u.E, np, NULL, NULL, &u.pk) ||
        bench_unpack_base_create(e, u.G, u.rows, u.pk, &base)) {
      for (int a = 0; a < 3; ++a) snprintf(r[a]->msg, sizeof r[a]->msg, "%s", strata_error_message());
      goto next;
    }
    for (int a = 0; a < 3; ++a) {
      strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
      strata_unpack_report_t rep;
      memset(&rep, 0, sizeof rep);
      int st = a == 0 ? strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, u.G->num_cols, STRATA_COMBINE_ADD, &G.uopt, &rep)
               : a == 1 ? bench_unpack_one_level(base, 0) : bench_unpack_batched(base, 0);
      bench_sync(e);
      progress("unpack", name, r[a]->backend, algo[a]);
      r[a]->bytes = (double)u.pk->num_bytes + 16.0 * (double)E->nnz + 4.0 * (double)np; /* packets, RMW values, rows */
      if (strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8)) {
        snprintf(r[a]->msg, sizeof r[a]->msg, "the result to the host: %s", strata_error_message());
        continue;
      }
      if (!unpack_checked(&o, h, st, a == 0 ? &rep : NULL, r[a])) continue;
      r[a]->ok = bench_time(e, a == 0 ? unpack_run : a == 1 ? bench_unpack_one_level : bench_unpack_batched,
                            a == 0 ? (void *)&u : (void *)base, G.min_time, &r[a]->t) ? -1 : 1;
      if (r[a]->ok < 0) snprintf(r[a]->msg, sizeof r[a]->msg, "%s", strata_error_message());
    }
  next:
    for (int a = 0; a < 3; ++a) emit(r[a]);
    bench_unpack_base_destroy(&base);
    unpack_ctx_free(&u);
  }
done:
  free(ref);
  free(tol);
  free(h);
}

/* A generated matrix as packets: row i of A is a packet for row i of its own pattern (each target
 * entry receives exactly one value: exact on every backend). */
static void unpack_versus_gen(const char *spec) {
  strata_crs_matrix_t *A = NULL;
  char name[96];
  if (load_spec("unpack", spec, &A, name, sizeof name)) return;
  int32_t *rows = (int32_t *)malloc((size_t)A->num_rows * 4 + 4);
  int64_t longest = 0;
  int st = 0;
  if (!rows || (st = strata_crs_row_lengths_max(G.serial, A, &longest))) {
    unpack_input_failed(name, rows ? "its longest row (strata_crs_row_lengths_max)" : "the target rows", st);
    free(rows);
    strata_crs_destroy(&A);
    return;
  }
  for (int32_t i = 0; i < A->num_rows; ++i) rows[i] = i;
  char full[160];
  snprintf(full, sizeof full, "%s_%lldentries_longest%lld", name, (long long)A->nnz, (long long)longest);
  unique_name("unpack", full, sizeof full);
  unpack_versus(full, A, A, rows);
  free(rows);
  strata_crs_destroy(&A);
}

/* The FEM element rows of a box mesh with K bulk nodes (issue 5 §4 as in `strata fem`), tied
 * by springs to every 2nd boundary node: per tet 4 rows of 4; per bulk node one row of 2 entries
 * per tie; per spring a row of 2. Values multiples of 1/4: exact sums. */
static void unpack_versus_fem_bulk(void) {
  const int64_t K = 4;
  int box;
  fem_mesh_t mesh;
  char name[96];
  if (unpack_box_mesh(&mesh, &box, "fem rows with bulk nodes")) return;
  const int64_t nt = mesh.num_tets, nm = mesh.num_nodes, n = nm + K;
  int64_t m = 0, c = 0;
  int32_t *sel = (int32_t *)malloc((size_t)nm * 4);
  if (!sel) {
    snprintf(name, sizeof name, "fem_box%d_bulk%lld", box, (long long)K);
    unpack_input_failed(name, "the tied nodes", 0);
    fem_mesh_destroy(&mesh);
    return;
  }
  for (int64_t i = 0; i < nm; ++i)
    if (mesh.on_boundary[i] && c++ % 2 == 0) sel[m++] = (int32_t)i;
  const int64_t nr = 4 * nt + K + K * m, ne = 16 * nt + 4 * K * m;
  snprintf(name, sizeof name, "fem_box%d_bulk%lldx%lld_%lldentries", box, (long long)K, (long long)m, (long long)ne);
  strata_exec_t *s = G.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *gr = NULL, *gc = NULL, *rows = (int32_t *)malloc((size_t)nr * 4);
  double *val = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(nr + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gc);
  if (st0 || !rows) {
    unpack_input_failed(name, "the element rows' buffers", st0);
    goto done;
  }
  int64_t q = 0, r = 0;
#define PUT(row, cc, v) (col[q] = gc[q] = (int32_t)(cc), gr[q] = (int32_t)(row), val[q] = (v), ++q)
  for (int64_t t = 0; t < nt; ++t)
    for (int i = 0; i < 4; ++i, ++r) {
      off[r] = q;
      rows[r] = mesh.tets[4 * t + i];
      for (int j = 0; j < 4; ++j) PUT(rows[r], mesh.tets[4 * t + j], 0.25 * (double)(1 + (q * 7 + (int64_t)G.seed) % 9) * (i == j ? 3 : -1));
    }
  for (int64_t b = 0; b < K; ++b, ++r) { /* bulk node nm + b: its springs' rows concatenated */
    off[r] = q;
    rows[r] = (int32_t)(nm + b);
    for (int64_t k = 0; k < m; ++k) PUT(nm + b, nm + b, 1.0), PUT(nm + b, sel[k], -1.0);
  }
  for (int64_t b = 0; b < K; ++b)
    for (int64_t k = 0; k < m; ++k, ++r) {
      off[r] = q;
      rows[r] = sel[k];
      PUT(sel[k], sel[k], 1.0), PUT(sel[k], nm + b, -1.0);
    }
#undef PUT
  off[nr] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)nr, (int32_t)n, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL;
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)n, (int32_t)n, ne, gr, gc, NULL, &Gs)))
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the element rows (strata_crs_create_from_csr)", st0);
  else
    unpack_versus(name, E, Gs, rows);
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(sel);
  fem_mesh_destroy(&mesh);
}

/* 27-point uniform rows, power-law rows (full run: about 4.4 M entries, the longest 200 k, 7.6 a
 * row on average; --quick and --scale shrink them), then two uniform inputs of about the power
 * law's entries: 27-point rows (55^3: 4.33 M; --quick 24^3: 343 k against 349 k) and banded rows
 * of the power law's mean length (550 k rows of 8: 4.4 M; --quick 50 k of 7), then FEM element
 * rows with bulk nodes. Issue 5 compares the power law's time per entry with the uniform one's:
 * at one size, a call's fixed cost (about 0.05-0.06 ms on the H200: two waits for the device, the
 * small launches; 11-14 ps an entry at 4.4 M entries, 2 at the 26 M of 100^3) counts alike, and
 * with rows of one mean length, so do the costs that depend on the packets' lengths (packets of 8
 * cost more per entry than packets of 27); what the last comparison leaves is the cost of the
 * spread of the power law's lengths. */
#define UNPACK_BASE_RECORDS 15
static void suite_unpack_baselines(void) {
  unpack_versus_gen("gen:poisson27");
  unpack_versus_gen(G.quick ? "gen:powerlaw" : "gen:powerlaw:580000:2.1:200000");
  unpack_versus_gen(G.quick ? "gen:poisson27:24" : "gen:poisson27:55");
  unpack_versus_gen(G.quick ? "gen:banded:50000:7" : "gen:banded:550000:8");
  unpack_versus_fem_bulk();
}
/* --matrix given: those inputs alone (row i a packet for row i), against the baselines */
static void suite_unpack_inputs(const strlist *specs) {
  strlist list = {0};
  expand_specs("unpack", specs, &list);
  for (int i = 0; i < list.n; ++i) unpack_versus_gen(list.v[i]);
  free_list(&list);
}

static int rowlen_count(void) { return G.quick ? 5 : 13; }
static void suite_unpack_rowlen(void) {
  int host_only = 1;
  for (int bi = 0; bi < G.nb; ++bi) host_only &= strata_exec_is_host(G.ex[bi]);
  const int64_t total = (int64_t)((G.quick ? 1 << 15 : host_only ? 1 << 22 : 1 << 24) * G.scale);
  for (int i = 0; i < rowlen_count(); ++i) unpack_rowlen_one(G.quick ? (int64_t)1 << (2 * i) : (int64_t)1 << i, total);
}

/* ------------------------------------------------------------------------------------ fem */
/* fem_run repeated until --min-time has passed (at least 3 runs, 1 in --quick; FEM_MAX_RUNS at
 * most) after FEM_WARMUP runs that are not kept, the first of them the checked one (as bench_time's
 * 2 warm-up calls): each run is a whole job, so its phases are timed by fem_run's own fences, one
 * sample per run and phase (no batching: a phase cannot be repeated alone) */
#define FEM_MAX_RUNS 50
#define FEM_WARMUP 2
/* the assembled matrix of a backend's first run against the host assembly of the same mesh
 * (bench_fem_matrix_diff; serial's too) and, on other backends, against serial's: max_i max_j
 * |a_ij - s_ij| / max_j |s_ij| (fem_result_t.matrix_diff) at most this, else the record is wrong
 * (exit 3) */
#define FEM_BENCH_MATRIX_TOL 1e-12
#define FEM_BENCH_BULK 4 /* the job again with 4 bulk nodes (--bulk-fraction 0.5; issue 5) */
static void suite_fem(void) {
  const int box = G.quick ? 6 : bench_box_of_scale(FEM_BOX_EDGE);
  /* the reference of every backend's assembled matrix: the same mesh, assembled on the host */
  strata_crs_matrix_t *S = NULL;
  {
    fem_mesh_t mesh;
    char msg[300], what[200];
    snprintf(what, sizeof what, "%s", G.mesh ? G.mesh : "box");
    int mrc = G.mesh ? fem_mesh_load(G.mesh, &mesh, msg, sizeof msg) : fem_mesh_box(box, &mesh, msg, sizeof msg);
    if (!mrc) {
      mrc = bench_fem_assemble(G.serial, &mesh, 1, &S, msg, sizeof msg);
      fem_mesh_destroy(&mesh);
    }
    if (mrc) {
      char m2[600];
      snprintf(m2, sizeof m2, "fem %s: the host assembly (the reference): %s", what, msg);
      input_error("fem", what, m2);
      return;
    }
  }
  for (int bi = 0; bi < G.nb; ++bi) {
    for (int bulk = 0; bulk <= FEM_BENCH_BULK; bulk += FEM_BENCH_BULK) {
      fem_options_t o = fem_options_default();
      o.bulk_nodes = bulk;
      if (G.mesh) o.mesh_path = G.mesh, o.box = 0;
      else o.box = box;
      o.backend = G.be[bi];
      const int min_runs = G.quick ? 1 : 3;
      double sec[FEM_NUM_PHASES][FEM_MAX_RUNS];
      fem_result_t res;
      int ok = 1, runs = 0, kept = 0; /* runs made, samples kept (runs after the warm-up) */
      char name[200], err[200] = "";
      const char *base = G.mesh ? strrchr(G.mesh, '/') : NULL;
      if (G.mesh) snprintf(name, sizeof name, "%s", base ? base + 1 : G.mesh);
      else snprintf(name, sizeof name, "box%d", box);
      progress("fem", name, strata_backend_name(G.be[bi]), "fem_run");
      double t0 = strata_timer_now(), diff = 0, hdiff = 0; /* the first run's assembled matrix against serial's, the host's */
      const int on_serial = G.be[bi] == STRATA_BACKEND_SERIAL;
      while (ok == 1 && kept < FEM_MAX_RUNS && (kept < min_runs || strata_timer_now() - t0 < G.min_time)) {
        strata_crs_matrix_t *A = NULL;
        o.compare = runs == 0 && !on_serial; /* after the timed phases: a check, not timed */
        o.matrix_out = runs == 0 ? &A : NULL;
        if (fem_run(&o, &res)) {
          ok = -1;
          snprintf(err, sizeof err, "%s", strata_error_message());
        } else if (!res.converged || res.unpack_invalid) {
          ok = 0;
          snprintf(err, sizeof err, "CG converged %d, %lld invalid unpack entries", res.converged, (long long)res.unpack_invalid);
        } else if (runs == 0 && bench_fem_matrix_diff(S, A, res.bulk_ties, &hdiff, err, sizeof err)) {
          ok = -1;
        } else if (runs == 0 && !(hdiff <= FEM_BENCH_MATRIX_TOL)) { /* NaN: wrong too */
          ok = 0;
          snprintf(err, sizeof err, "assembled matrix differs from the host assembly: max relative difference %.3g > %g: "
                   "time not counted", hdiff, FEM_BENCH_MATRIX_TOL);
        } else if (runs == 0 && !on_serial && !((diff = res.matrix_diff) <= FEM_BENCH_MATRIX_TOL)) {
          ok = 0;
          snprintf(err, sizeof err, "assembled matrix differs from serial: max relative difference %.3g > %g: time not counted",
                   res.matrix_diff, FEM_BENCH_MATRIX_TOL);
        }
        strata_crs_destroy(&A);
        if (runs++ < FEM_WARMUP) { /* not a sample; --min-time counts from the first sample */
          t0 = strata_timer_now();
          continue;
        }
        for (int p = 0; p < FEM_NUM_PHASES; ++p) sec[p][kept] = res.seconds[p];
        ++kept;
      }
      if (ok == 1 && !G.mesh) snprintf(name, sizeof name, "box%d_%lldtets", box, (long long)res.num_tets);
      else if (ok == 1) {
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "_%lldtets", (long long)res.num_tets);
      }
      if (ok == 1 && bulk) {
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "_bulk%dx%lld", bulk, (long long)res.bulk_ties);
      }
      for (int p = 0; p < FEM_NUM_PHASES; ++p) {
        if (p == FEM_PHASE_MESH) continue;
        result_t *r = add("fem", G.be[bi], name, fem_phase_names[p]);
        r->ok = ok;
        snprintf(r->msg, sizeof r->msg, "%s", err);
        if (ok != 1) { emit(r); continue; }
        r->rows = res.num_nodes, r->nnz = res.nnz;
        if (p == FEM_PHASE_SOLVE && on_serial)
          snprintf(r->msg, sizeof r->msg, "%d CG iterations, error %.3e, matrix against the host assembly %.3g; "
                   "%d warm-up runs not timed", res.iterations, res.error, hdiff, FEM_WARMUP);
        else if (p == FEM_PHASE_SOLVE)
          snprintf(r->msg, sizeof r->msg, "%d CG iterations, error %.3e, matrix against the host assembly %.3g, "
                   "against serial %.3g; %d warm-up runs not timed", res.iterations, res.error, hdiff, diff, FEM_WARMUP);
        double *v = sec[p];
        const int m = kept;
        for (int i = 1; i < m; ++i) /* sort the samples (insertion: at most FEM_MAX_RUNS) */
          for (int j = i; j > 0 && v[j] < v[j - 1]; --j) { double t = v[j]; v[j] = v[j - 1]; v[j - 1] = t; }
        r->t.median = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
        r->t.min = v[0], r->t.max = v[m - 1], r->t.q1 = v[m / 4], r->t.q3 = v[(3 * m) / 4 < m ? (3 * m) / 4 : m - 1];
        r->t.samples = m, r->t.reps = 1;
        if (p == FEM_PHASE_UNPACK || p == FEM_PHASE_PACK) /* 4 x 4 per tet, 2 rows of 2 per spring */
          r->entries = 16.0 * (double)res.num_tets + 4.0 * (double)res.bulk_nodes * (double)res.bulk_ties;
        emit(r);
      }
    }
  }
  strata_crs_destroy(&S);
}

/* -------------------------------------------------------------------------- summary, plots */
/* Storage formats: per backend and matrix the fastest format record, the row-class plan
 * (strata_auto), cuSPARSE ALG1 when measured, and format auto's choice with its time over the
 * best format's (issue: auto within 10 % of the best; "MISS" marks more). */
static void formats_summary(FILE *f) {
  int head = 0;
  for (int i = 0; i < nR; ++i) {
    const result_t *r = &R[i];
    if (strcmp(r->suite, "spmv") || strncmp(r->algo, "format_", 7)) continue;
    int first = 1; /* the first format record of this backend and matrix makes the line */
    for (int j = 0; j < i && first; ++j)
      first = !(!strcmp(R[j].suite, "spmv") && !strncmp(R[j].algo, "format_", 7) && !strcmp(R[j].name, r->name) &&
                !strcmp(R[j].backend, r->backend));
    if (!first) continue;
    const result_t *best = NULL, *au = NULL, *plan = NULL, *peer = NULL;
    for (int j = i; j < nR; ++j) {
      const result_t *q = &R[j];
      if (strcmp(q->suite, "spmv") || strcmp(q->name, r->name) || strcmp(q->backend, r->backend) || q->ok != 1) continue;
      if (!strcmp(q->algo, "format_auto")) au = q;
      else if (!strncmp(q->algo, "format_", 7) && (!best || q->t.median < best->t.median)) best = q;
      if (!strcmp(q->algo, "strata_auto")) plan = q;
      if (!strcmp(q->algo, bench_peer_name(BENCH_PEER_CSR_ALG1))) peer = q;
    }
    for (int j = 0; j < i && !plan; ++j) /* the plan's record comes before the formats' */
      if (!strcmp(R[j].suite, "spmv") && !strcmp(R[j].name, r->name) && !strcmp(R[j].backend, r->backend) &&
          R[j].ok == 1 && !strcmp(R[j].algo, "strata_auto"))
        plan = &R[j];
    if (!head++)
      fprintf(f, "== spmv formats: fastest format, auto's choice and its time over the fastest (ms)\n%-7s %-32s %-28s %-10s %-10s %-28s %s\n",
              "backend", "name", "fastest format", "plan", "cusparse", "auto (choice)", "auto/fastest");
    char b1[48] = "-", b2[16] = "-", b3[16] = "-", b4[48] = "-", b5[24] = "-";
    if (best) snprintf(b1, sizeof b1, "%s %.4f", best->algo + 7, 1e3 * best->t.median);
    if (plan) snprintf(b2, sizeof b2, "%.4f", 1e3 * plan->t.median);
    if (peer) snprintf(b3, sizeof b3, "%.4f", 1e3 * peer->t.median);
    if (au) snprintf(b4, sizeof b4, "%.4f (%s)", 1e3 * au->t.median, au->fmt_chosen);
    if (au && best) {
      const double q = au->t.median / fmin(best->t.median, au->t.median);
      snprintf(b5, sizeof b5, "%.3f%s", q, q > 1.10 ? " MISS" : "");
    }
    fprintf(f, "%-7s %-32.32s %-28s %-10s %-10s %-28s %s\n", r->backend, r->name, b1, b2, b3, b4, b5);
  }
}

static void summary(FILE *f) {
  int ok = 0, wrong = 0, err = 0, skipped = 0;
  fprintf(f, "\n== strata bench summary (%s, min-time %.3g s; %% = of the same backend's stream reference) ==\n",
          G.quick ? "quick" : "full", G.min_time);
  fprintf(f, "# timing:");
  for (int bi = 0; bi < G.nb; ++bi) fprintf(f, " %s: %s;", strata_backend_name(G.be[bi]), bench_time_method(G.ex[bi]));
  fprintf(f, " samples >= 1 ms; fem: whole fem_run jobs, phases by its fences\n");
  fprintf(f, "%-6s %-7s %-32s %-26s %10s %21s %9s %7s %8s %8s\n", "suite", "backend", "name", "algorithm", "time_ms",
          "[min .. max]", "GB/s", "%stream", "x_serial", "x_peer");
  for (int i = 0; i < nR; ++i) {
    const result_t *r = &R[i];
    ok += r->ok == 1, wrong += r->ok == 0, err += r->ok == -1, skipped += r->ok == -2;
    if (r->ok != 1) {
      fprintf(f, "%-6s %-7s %-32.32s %-26s %s: %.80s\n", r->suite, r->backend, r->name, r->algo,
              r->ok == -2 ? "SKIPPED" : r->ok ? "ERROR" : "WRONG", r->msg);
      continue;
    }
    const double gbs = r->bytes > 0 ? r->bytes / r->t.median / 1e9 : NAN;
    char pct[16] = "-", xs[16] = "-", xp[16] = "-", gb[16] = "-";
    if (gbs == gbs) snprintf(gb, sizeof gb, "%.2f", gbs);
    if (r->ref_bw > 0 && gbs == gbs) snprintf(pct, sizeof pct, "%.1f", 100 * gbs / r->ref_bw);
    if (r->ratio_serial > 0) snprintf(xs, sizeof xs, "%.2f", r->ratio_serial);
    if (r->ratio_peer > 0) snprintf(xp, sizeof xp, "%.2f", r->ratio_peer);
    fprintf(f, "%-6s %-7s %-32.32s %-26s %10.4f [%8.4f .. %8.4f] %9s %7s %8s %8s\n", r->suite, r->backend, r->name,
            r->algo, 1e3 * r->t.median, 1e3 * r->t.min, 1e3 * r->t.max, gb, pct, xs, xp);
  }
  /* --sweep: one line per matrix and backend, as the former spmv_bench printed it */
  int any_sweep = 0;
  for (int i = 0; i < nR && !any_sweep; ++i) any_sweep = R[i].has_thr;
  if (any_sweep) {
    fprintf(f, "== spmv threshold sweep: [one-level max, entries per lane, two-level max, three-level max] -> median ms\n");
    for (int i = 0; i < nR; ++i) {
      if (!R[i].has_thr) continue;
      int first = 1; /* the first sweep record of this matrix and backend starts the line */
      for (int j = 0; j < i && first; ++j)
        first = !(R[j].has_thr && !strcmp(R[j].name, R[i].name) && !strcmp(R[j].backend, R[i].backend));
      if (!first) continue;
      fprintf(f, "%-7s %-32.32s", R[i].backend, R[i].name);
      for (int j = i; j < nR; ++j)
        if (R[j].has_thr && !strcmp(R[j].name, R[i].name) && !strcmp(R[j].backend, R[i].backend)) {
          if (R[j].ok == 1) fprintf(f, " %s %.3f", R[j].algo + 5, 1e3 * R[j].t.median);
          else fprintf(f, " %s %s", R[j].algo + 5, R[j].ok ? "ERROR" : "WRONG");
        }
      fprintf(f, "\n");
    }
  }
  formats_summary(f);
  fprintf(f, "strata bench: %d results, %d checked and timed, %d wrong, %d errors, %d skipped, %.1f s\n", nR, ok, wrong,
          err, skipped, strata_timer_now() - G.t_start);
}

/* A file under --out that could not be created or written: said on stderr, counted (exit 4). */
static void write_failed(const char *path) {
  fprintf(stderr, "strata bench: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
  ++G.write_errors;
}
static FILE *out_open(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) write_failed(path);
  return f;
}
/* closes f, counting a write that failed (a full disk shows at the flush) */
static void out_close(FILE *f, const char *path) {
  errno = 0;
  const int bad = ferror(f);
  if (fclose(f) || bad) write_failed(path);
}

/* stream_bw.png: GB/s of copy, triad, sum and the reference per backend (bars). 1 if drawn. */
static int stream_plot(FILE *gp) {
  char path[OUT_PATH_BYTES];
  int rows = 0;
  snprintf(path, sizeof path, "%s/stream_bw.dat", G.out);
  FILE *d = out_open(path);
  if (!d) return 0;
  fprintf(d, "backend copy triad sum reference\n");
  for (int bi = 0; bi < G.nb; ++bi) {
    const char *bn = strata_backend_name(G.be[bi]);
    double v[4] = {-1, -1, -1, -1};
    int any = 0;
    for (int i = 0; i < nR; ++i) {
      if (strcmp(R[i].suite, "stream") || strcmp(R[i].backend, bn) || R[i].ok != 1) continue;
      const int q = !strcmp(R[i].algo, "copy") ? 0 : !strcmp(R[i].algo, "triad") ? 1 : !strcmp(R[i].algo, "sum") ? 2 : 3;
      v[q] = R[i].bytes / R[i].t.median / 1e9, any = 1;
    }
    if (!any) continue;
    fprintf(d, "%s", bn);
    for (int q = 0; q < 4; ++q) v[q] < 0 ? fprintf(d, " -") : fprintf(d, " %.2f", v[q]);
    fprintf(d, "\n");
    ++rows;
  }
  out_close(d, path);
  if (!rows) return 0;
  fprintf(gp,
          "reset\nset datafile missing '-'\nset grid ytics\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset yrange [0:*]\n"
          "set output 'stream_bw.png'\nset title 'Stream bandwidth per backend (GB/s; reference: device memcpy on GPUs, "
          "plain OpenMP triad on host backends)'\nset ylabel 'GB/s'\n"
          "plot for [i=2:5] 'stream_bw.dat' using i:xtic(1)\n");
  return 1;
}

/* unpack_rowlen.png: unpack time per entry (ns) against the incoming row length, one line per
 * backend (log-log). 1 if drawn. */
static int rowlen_plot(FILE *gp) {
  char path[OUT_PATH_BYTES];
  int64_t Ls[64];
  int nL = 0;
  for (int i = 0; i < nR; ++i) {
    if (R[i].row_length <= 0) continue;
    int f = 0;
    for (int j = 0; j < nL && !f; ++j) f = Ls[j] == R[i].row_length;
    if (!f && nL < 64) Ls[nL++] = R[i].row_length;
  }
  if (!nL) return 0;
  snprintf(path, sizeof path, "%s/unpack_rowlen.dat", G.out);
  FILE *d = out_open(path);
  if (!d) return 0;
  fprintf(d, "row_length");
  for (int bi = 0; bi < G.nb; ++bi) fprintf(d, " %s", strata_backend_name(G.be[bi]));
  fprintf(d, "\n");
  for (int l = 0; l < nL; ++l) {
    fprintf(d, "%lld", (long long)Ls[l]);
    for (int bi = 0; bi < G.nb; ++bi) {
      double v = -1;
      for (int i = 0; i < nR; ++i)
        if (R[i].row_length == Ls[l] && R[i].ok == 1 && !strcmp(R[i].backend, strata_backend_name(G.be[bi])))
          v = 1e9 * R[i].t.median / R[i].entries;
      v < 0 ? fprintf(d, " -") : fprintf(d, " %.4f", v);
    }
    fprintf(d, "\n");
  }
  out_close(d, path);
  fprintf(gp,
          "reset\nset datafile missing '-'\nset grid xtics ytics\nset key outside right autotitle columnheader\n"
          "set output 'unpack_rowlen.png'\nset title 'unpack_combine(ADD): time per entry against the incoming row length "
          "(packets of L entries, ~4 per global row)'\nset xlabel 'entries per incoming row (L)'\n"
          "set ylabel 'ns per entry'\nset logscale xy 2\nset format y '%%g'\n"
          "plot for [i=2:%d] 'unpack_rowlen.dat' using 1:i with linespoints lw 2 pt 7\n",
          G.nb + 1);
  return 1;
}

/* series = backend/algorithm pairs that occur in the spmv results; rows = matrices */
/* One bar chart of % of the stream reference per matrix: series (backend/algorithm) of ser that
 * belong to `backend`, or, with backend NULL, the headline ones: each backend's row-class plan
 * (strata_auto) and automatic format (format_auto), and the vendor peers' CSR algorithms.
 * Writes STEM.dat and the gnuplot commands for STEM.png; 1 when drawn. */
static int pct_plot(FILE *gp, char (*ser)[48], int ns, char (*mat)[160], int nm, const char *stem, const char *title,
                    const char *backend) {
  char path[OUT_PATH_BYTES];
  int pick[256], np = 0;
  for (int j = 0; j < ns && np < 256; ++j) {
    const char *slash = strchr(ser[j], '/'), *algo = slash ? slash + 1 : ser[j];
    const int ok = backend ? !strncmp(ser[j], backend, strlen(backend)) && ser[j][strlen(backend)] == '/'
                           : !strcmp(algo, "strata_auto") || !strcmp(algo, "format_auto") || strstr(algo, "sparse_csr_alg");
    if (ok) pick[np++] = j;
  }
  if (!np) return 0;
  snprintf(path, sizeof path, "%s/%s.dat", G.out, stem);
  FILE *d = out_open(path);
  if (!d) return 0;
  fprintf(d, "matrix");
  for (int q = 0; q < np; ++q) fprintf(d, " %s", ser[pick[q]]);
  fprintf(d, "\n");
  for (int m = 0; m < nm; ++m) {
    fprintf(d, "\"%s\"", mat[m]);
    for (int q = 0; q < np; ++q) {
      double v = -1;
      for (int i = 0; i < nR; ++i) {
        char sn[48];
        snprintf(sn, sizeof sn, "%s/%s", R[i].backend, R[i].algo);
        if (R[i].ok == 1 && !strcmp(R[i].suite, "spmv") && !strcmp(R[i].name, mat[m]) && !strcmp(sn, ser[pick[q]]) &&
            R[i].ref_bw > 0)
          v = 100.0 * R[i].bytes / R[i].t.median / 1e9 / R[i].ref_bw;
      }
      if (v < 0) fprintf(d, " -");
      else fprintf(d, " %.2f", v);
    }
    fprintf(d, "\n");
  }
  out_close(d, path);
  fprintf(gp,
          "reset\nset datafile missing '-'\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset xtics rotate by -35\n"
          "set grid ytics\nset yrange [0:*]\nset bmargin 12\n"
          "set output '%s.png'\nset title '%s'\n"
          "set ylabel '%% of stream'\nplot for [i=2:%d] '%s.dat' using i:xtic(1)\n",
          stem, title, np + 1, stem);
  return 1;
}

/* gnuplot plots.gp in --out, its stderr to gnuplot.log there: fork and exec with chdir, no shell,
 * so that no --out text is ever read as a command. 0 drawn, 127 no gnuplot, else failed. */
static int run_gnuplot(void) {
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (chdir(G.out)) _exit(126);
    const int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) dup2(fd, 2), close(fd);
    execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
    _exit(errno == ENOENT ? 127 : 126);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void plots(void) {
  char path[OUT_PATH_BYTES];
  int ns = 0, nm = 0;
  char (*ser)[48] = (char (*)[48])calloc((size_t)nR + 1, 48), (*mat)[160] = (char (*)[160])calloc((size_t)nR + 1, 160);
  for (int i = 0; i < nR; ++i) {
    if (strcmp(R[i].suite, "spmv") || !strcmp(R[i].algo, "input") || R[i].has_thr) continue;
    char s[48];
    snprintf(s, sizeof s, "%s/%s", R[i].backend, R[i].algo);
    int f = 0;
    for (int j = 0; j < ns && !f; ++j) f = !strcmp(ser[j], s);
    if (!f) snprintf(ser[ns++], 48, "%s", s);
    f = 0;
    for (int j = 0; j < nm && !f; ++j) f = !strcmp(mat[j], R[i].name);
    if (!f) snprintf(mat[nm++], 160, "%s", R[i].name);
  }
  FILE *d2 = NULL, *gp = NULL;
  snprintf(path, sizeof path, "%s/plots.gp", G.out);
  char gp_path[OUT_PATH_BYTES];
  snprintf(gp_path, sizeof gp_path, "%s", path);
  if (!(gp = out_open(path))) goto out;
  fprintf(gp,
          "# strata bench plots (gnuplot plots.gp in this folder)\n"
          "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1600,800 noenhanced } "
          "else { set terminal png size 1600,800 noenhanced }\n"
          "set datafile missing '-'\nset grid ytics\n");
  int pngs = stream_plot(gp) + rowlen_plot(gp);
  if (!ns) goto run;
  /* % of stream per matrix and series; backend ratios (x_serial of each auto plan, and the
   * cuSPARSE peer over strata auto on the same backend) */
  pngs += pct_plot(gp, ser, ns, mat, nm, "spmv_pct_stream",
                   "SpMV: strata (row-class plan; automatic format) and the vendor peer, % of the stream reference of the same backend (same run)",
                   NULL);
  for (int bi = 0; bi < G.nb; ++bi) {
    char stem[64], title[160];
    snprintf(stem, sizeof stem, "spmv_all_%s", strata_backend_name(G.be[bi]));
    snprintf(title, sizeof title, "SpMV on %s: every plan algorithm and storage format, %% of its stream reference",
             strata_backend_name(G.be[bi]));
    pngs += pct_plot(gp, ser, ns, mat, nm, stem, title, strata_backend_name(G.be[bi]));
  }
  snprintf(path, sizeof path, "%s/backend_ratio.dat", G.out);
  d2 = out_open(path);
  if (!d2) goto close;
  fprintf(d2, "matrix");
  int nr2 = 0, nvals = 0; /* ratio columns before the peer's; values written (none: no plot) */
  for (int bi = 0; bi < G.nb; ++bi)
    if (G.be[bi] != STRATA_BACKEND_SERIAL) fprintf(d2, " %s/serial", strata_backend_name(G.be[bi])), ++nr2;
  fprintf(d2, " strata_auto/%s\n", bench_peer_name(BENCH_PEER_CSR_ALG1));
  for (int m = 0; m < nm; ++m) {
    fprintf(d2, "\"%s\"", mat[m]);
    double peer = -1;
    for (int bi = 0; bi < G.nb; ++bi) {
      if (G.be[bi] == STRATA_BACKEND_SERIAL) continue;
      double v = -1;
      for (int i = 0; i < nR; ++i)
        if (R[i].ok == 1 && !strcmp(R[i].suite, "spmv") && !strcmp(R[i].name, mat[m]) &&
            !strcmp(R[i].backend, strata_backend_name(G.be[bi])) && !strcmp(R[i].algo, "strata_auto")) {
          v = R[i].ratio_serial > 0 ? R[i].ratio_serial : -1;
          if (bench_peer_count(G.be[bi]) && R[i].ratio_peer > 0) peer = R[i].ratio_peer;
        }
      if (v < 0) fprintf(d2, " -");
      else fprintf(d2, " %.3f", v), ++nvals;
    }
    if (peer < 0) fprintf(d2, " -\n");
    else fprintf(d2, " %.3f\n", peer), ++nvals;
  }
  out_close(d2, path);
  d2 = NULL;
  /* a run on serial alone, or whose ratios all failed, has nothing to draw (gnuplot refused the
   * empty range and left an empty PNG) */
  if (nvals == 0) goto run;
  pngs += 1;
  fprintf(gp,
          "reset\nset datafile missing '-'\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset xtics rotate by -35\n"
          "set grid ytics\nset bmargin 12\n"
          "set output 'backend_ratio.png'\nset title 'SpMV speed-up, strata auto: backend over serial, and over the vendor CSR ALG1 (last)'\n"
          "set ylabel 'ratio of times (>1: faster)'\nset logscale y\nset yrange [*:*]\n"
          "plot for [i=2:%d] 'backend_ratio.dat' using i:xtic(1)\n",
          nr2 + 2);
run:
  out_close(gp, gp_path);
  gp = NULL;
  if (!pngs || G.write_errors) goto close;
  switch (run_gnuplot()) {
    case 0: fprintf(stderr, "strata bench: %d plots in %s (*.png)\n", pngs, G.out); break;
    case 127: fprintf(stderr, "strata bench: no gnuplot; plot data and script in %s (plots.gp)\n", G.out); break;
    default: fprintf(stderr, "strata bench: gnuplot failed (see %s/gnuplot.log)\n", G.out);
  }
close:
  if (d2) fclose(d2);
  if (gp) fclose(gp);
out:
  free(ser);
  free(mat);
}

/* ------------------------------------------------------------------------------------ CLI */
static void usage(FILE *f) {
  fprintf(f,
          "usage: strata bench stream|spmv|unpack|fem|all [options]\n"
          "  --backend B        serial|openmp|cuda|hip|all, repeatable (default: every compiled backend with a device)\n"
          "  --matrix SPEC      FILE.mtx | gen:NAME[:params] | gen:all (the default) | shared (every .mtx under\n"
          "                     $STRATA_MATRICES or ../shared/matrices; files the reader refuses are skipped, said why);\n"
          "                     repeatable. Generators: poisson7:M poisson27:M\n"
          "                     banded:N:PER random:N:PER short:N:PER powerlaw:N:EXP:MAX dense:N:ROWS:LEN:PER hmep:N:SEG\n"
          "                     fem:H elasticity:H (the FEM job's Gmsh mesh at element size H: P1 Laplace, and 3-dof\n"
          "                     elasticity in 3x3 blocks; Dirichlet rows as in the job; need Gmsh; bench.h).\n"
          "                     unpack: given, only these inputs (row i of the matrix a packet for its own row\n"
          "                     i), strata against the Tpetra baselines; else the suite's own inputs\n"
          "  --replicate K|auto A ⊗ I_K (auto: until 4x the largest cache of the backends, with --quick at most\n"
          "                     2^20 rows); default 1\n"
          "  --quick            small sizes, --min-time 0.05, no buffer rotation\n"
          "  --min-time S       seconds of samples per measurement (default 0.5)\n"
          "  --seed N           random patterns and values (default 1)\n"
          "  --scale S          multiplies the default sizes (default 1)\n"
          "  --out DIR          JSON lines to DIR/results.jsonl (else stdout), summary to DIR/summary.txt too, PNG plots\n"
          "  --format LIST      spmv: storage formats measured besides the plan (comma-separated names of\n"
          "                     strata/formats.h: ell ellpack-r pjds sell-c-sigma sell-p coo hyb hec csr-lb merge auto\n"
          "                     csr; all; none); repeatable. Default: all but csr (= strata_auto). Records\n"
          "                     format_NAME carry format_bytes, format_overhead and (auto) format_chosen\n"
          "  --sweep            spmv: also the plan's thresholds [one-level max, entries per lane, two-level max,\n"
          "                     three-level max] over a small grid (records carry \"thresholds\")\n"
          "  --unpack-options S unpack: strata_unpack_options_t for strata's calls, comma-separated NAME=VALUE\n"
          "                     (short_max, medium_max, long_max, chunk: entries; force=short|medium|long|\n"
          "                     very_long); unnamed: the backend defaults\n"
          "  --spmv-options S   spmv: strata_spmv_options_t for the plan's records (strata_auto and the forced\n"
          "                     algorithms), comma-separated NAME=VALUE: one_level_max, two_level_max,\n"
          "                     three_level_max, split_chunk, stream_max, stream_block (entries),\n"
          "                     entries_per_lane, stream_pad=auto|always|never; unnamed: the backend\n"
          "                     defaults (strata/spmv.h)\n"
          "  --mesh FILE        fem: a \"strata mesh v1\" file (strata fem --save-mesh) instead of the box mesh\n"
          "                     (fem: each backend's first run checks its assembled matrix against the same\n"
          "                     mesh's host assembly, and other backends' against serial's: max relative row\n"
          "                     difference <= 1e-12, else the result is wrong)\n"
          "  --progress         one line per measurement on stderr, with the count left (default unless --quick)\n"
          "  --no-progress      no progress lines\n"
          "Exit status: 0 every result checked and timed (or skipped, said why); 2 a usage error (bad option, no\n"
          "backend to run); 3 a result differed from its reference (serial's; unpack: sums built on the host);\n"
          "4 an input could not be built, a measurement failed or --out could not be written.\n"
          "Timing: strata_event (device events on GPUs, host clock between fences on host backends), samples of\n"
          "at least 1 ms, median over samples until --min-time; fem: whole fem_run jobs until --min-time, after 2\n"
          "runs not timed (the first one checked).\n");
}

/* --format LIST: comma-separated names of strata/formats.h, "all" (every one, csr included) or
 * "none"; repeatable. 0, or 2 after saying what is wrong. */
#define bad_opt(...) cli_usage_error("strata bench", " (strata bench --help)", __VA_ARGS__)

/* NAME=VALUE items, comma-separated, for `flag`: a name of names[0, nf) sets *fields[i] to a
 * positive integer up to max (named max_text in the message); special (may be NULL) takes the other names first (returns 1 when it knew
 * the name, -1 for a bad value after reporting it, 0 when unknown). The last value of a repeated
 * name counts. Refuses empty items, items without '=', empty and unknown names (listing the known ones in
 * `known`) and values that are not positive integers. */
static int parse_name_values(const char *flag, const char *v, const char *const *names, int64_t *const *fields, int nf,
                             int64_t max, const char *max_text, const char *known,
                             int (*special)(const char *name, const char *val)) {
  char *buf = strdup(v);
  if (!buf) return bad_opt("%s: out of memory", flag);
  int rc = 0;
  const char *p = v;
  for (;;) { /* items between commas; an empty one is refused */
    const char *comma = strchr(p, ',');
    const size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char *t = buf + (p - v);
    t[len] = 0;
    char *eq = strchr(t, '=');
    if (!len) { rc = bad_opt("%s '%s': an empty item (NAME=VALUE, comma-separated)", flag, v); break; }
    if (!eq) { rc = bad_opt("%s: '%s' is not NAME=VALUE", flag, t); break; }
    *eq = 0;
    if (!*t) { rc = bad_opt("%s: '=%s' has an empty name (NAME=VALUE; %s)", flag, eq + 1, known); break; }
    const char *val = eq + 1;
    const int sp = special ? special(t, val) : 0;
    if (sp < 0) { rc = 2; break; }
    if (sp == 0) {
      int64_t *f = NULL;
      for (int i = 0; i < nf; ++i)
        if (!strcmp(t, names[i])) f = fields[i];
      if (!f) { rc = bad_opt("%s: unknown name %s (%s)", flag, t, known); break; }
      char *end = NULL;
      errno = 0;
      const long long x = val[0] >= '0' && val[0] <= '9' ? strtoll(val, &end, 10) : 0;
      if (!end || *end || (x < 1 && errno != ERANGE)) { rc = bad_opt("%s: %s=%s is not a positive integer", flag, t, val); break; }
      if (errno == ERANGE || x > max) { rc = bad_opt("%s: %s=%s exceeds the limit %s", flag, t, val, max_text); break; }
      *f = x;
    }
    if (!comma) break;
    p = comma + 1;
  }
  free(buf);
  return rc;
}
/* the given fields (nonzero) as NAME=VALUE text, comma-separated; returns the length written */
static size_t name_values_text(char *out, size_t n, const char *const *names, int64_t *const *fields, int nf) {
  size_t l = 0;
  out[0] = 0;
  for (int i = 0; i < nf && l < n; ++i)
    if (*fields[i]) l += (size_t)snprintf(out + l, n - l, "%s%s=%lld", l ? "," : "", names[i], (long long)*fields[i]);
  return l;
}

/* --unpack-options short_max=N,medium_max=N,long_max=N,chunk=N,force=short|medium|long|very_long
 * into G.uopt (strata_unpack_options_t; unnamed fields keep their defaults) */
static const char *const unpack_class_names[] = {"auto", "short", "medium", "long", "very_long"};
#define UNPACK_NUM_FIELDS 4
static const char *const unpack_field_names[UNPACK_NUM_FIELDS] = {"short_max", "medium_max", "long_max", "chunk"};
static int unpack_force(const char *name, const char *val) {
  if (strcmp(name, "force")) return 0;
  int c = -1;
  for (int i = 0; i < 5; ++i) if (!strcmp(val, unpack_class_names[i])) c = i;
  if (c < 0) {
    bad_opt("--unpack-options: force=%s is not auto, short, medium, long or very_long", val);
    return -1;
  }
  G.uopt.force_class = (strata_unpack_class_t)c;
  return 1;
}
static int parse_unpack_options(const char *v) {
  int64_t *const f[UNPACK_NUM_FIELDS] = {&G.uopt.short_max, &G.uopt.medium_max, &G.uopt.long_max, &G.uopt.chunk};
  return parse_name_values("--unpack-options", v, unpack_field_names, f, UNPACK_NUM_FIELDS, INT64_MAX,
                           "2^63 - 1 = 9223372036854775807", "short_max, medium_max, long_max, chunk, force", unpack_force);
}
/* the options in force, as the records say them (only those given) */
static void unpack_options_text(char *out, size_t n) {
  int64_t *const f[UNPACK_NUM_FIELDS] = {&G.uopt.short_max, &G.uopt.medium_max, &G.uopt.long_max, &G.uopt.chunk};
  const size_t l = name_values_text(out, n, unpack_field_names, f, UNPACK_NUM_FIELDS);
  if (G.uopt.force_class != STRATA_UNPACK_CLASS_AUTO && l < n)
    snprintf(out + l, n - l, "%sforce=%s", l ? "," : "", unpack_class_names[G.uopt.force_class]);
}

static int spmv_stream_pad(const char *name, const char *val) {
  if (strcmp(name, "stream_pad")) return 0;
  if (cli_stream_pad_from_name(val, &G.spad)) return 1;
  bad_opt("--spmv-options: stream_pad=%s is not auto, always or never", val);
  return -1;
}
static int parse_spmv_options(const char *v) {
  int64_t *f[SPMV_NUM_FIELDS];
  spmv_fields(f);
  /* strata_spmv_options_t's thresholds are at most 2^40 (THR_INF), entries_per_lane an int */
  const int rc = parse_name_values("--spmv-options", v, spmv_field_names, f, SPMV_NUM_FIELDS, THR_INF,
                                   "2^40 = 1099511627776", "one_level_max, two_level_max, three_level_max, split_chunk, entries_per_lane, "
                                   "stream_max, stream_block, stream_pad=auto|always|never", spmv_stream_pad);
  if (rc == 0 && G.sopt[4] > INT_MAX) return bad_opt("--spmv-options: entries_per_lane=%lld exceeds the limit %d", (long long)G.sopt[4], INT_MAX);
  return rc;
}

static int parse_formats(const char *v) {
  char *buf = strdup(v); /* the whole list, however long */
  if (!buf) return bad_opt("--format: out of memory");
  G.fmt_set = 1;
  for (char *t = buf, *next; t; t = next) { /* every item, the empty ones too (strtok skips them) */
    next = strchr(t, ',');
    if (next) *next++ = '\0';
    strata_format_t f;
    if (!*t) {
      free(buf);
      return bad_opt("--format '%s': an empty item (a comma-separated list of formats, all or none)", v);
    }
    if (!strcmp(t, "all"))
      for (int q = 0; q < STRATA_NUM_FORMATS; ++q) G.fmt[q] = 1;
    else if (!strcmp(t, "none"))
      memset(G.fmt, 0, sizeof G.fmt);
    else if (strata_format_from_name(t, &f) == STRATA_SUCCESS)
      G.fmt[f] = 1;
    else {
      fprintf(stderr, "strata bench: --format: %s (or all, none)\n", strata_error_message());
      free(buf);
      return 2;
    }
  }
  free(buf);
  return 0;
}

/* The bench command; *specs (the --matrix inputs) is the caller's, freed by it whatever this
 * returns, so that an early return (a refused option) leaks nothing. */
static int bench_run(int argc, char **argv, strlist *specs_out) {
  strlist *const specs = specs_out;
  memset(&G, 0, sizeof G);
  G.min_time = -1;
  G.scale = 1;
  G.seed = 1;
  G.replicate = 1;
  G.progress = -1; /* default: on for full runs, off in --quick */
  const char *suite = NULL;
  int want[STRATA_NUM_BACKENDS] = {0}, any = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    static const char *const valued[] = {"--backend", "--matrix", "--replicate", "--min-time", "--seed", "--scale", "--out", "--mesh",
                                         "--format", "--unpack-options", "--spmv-options"};
    int takes = 0;
    for (size_t q = 0; q < sizeof valued / sizeof valued[0]; ++q) takes |= !strcmp(a, valued[q]);
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else if (!strcmp(a, "--quick")) G.quick = 1;
    else if (!strcmp(a, "--progress")) G.progress = 1;
    else if (!strcmp(a, "--no-progress")) G.progress = 0;
    else if (!strcmp(a, "--sweep")) G.sweep = 1;
    else if (takes && !v) return bad_opt("option %s needs a value", a);
    else if (!strcmp(a, "--backend")) {
      ++i;
      if (!strcmp(v, "all")) {
        for (int b = 0; b < STRATA_NUM_BACKENDS; ++b) want[b] = strata_backend_compiled((strata_backend_t)b);
      } else {
        strata_backend_t b;
        if (strata_backend_from_name(v, &b)) return bad_opt("--backend %s: not a backend name", v);
        if (b == STRATA_BACKEND_DEFAULT) b = strata_backend_default();
        want[b] = 1;
      }
      any = 1;
    } else if (!strcmp(a, "--matrix")) push(specs, argv[++i]);
    else if (!strcmp(a, "--format")) {
      ++i;
      if (parse_formats(v)) return 2;
    } else if (!strcmp(a, "--unpack-options")) {
      ++i;
      if (parse_unpack_options(v)) return 2;
      G.uopt_given = 1;
    } else if (!strcmp(a, "--spmv-options")) {
      ++i;
      if (parse_spmv_options(v)) return 2;
      G.sopt_given = 1;
    }
    else if (!strcmp(a, "--out")) {
      G.out = argv[++i];
      /* the files' paths, G.out + "/spmv_pct_stream.dat" and the like (20 characters at most), are built
       * in buffers of OUT_PATH_BYTES: a longer folder name wrote cut names ("resul", "summa") beside it */
      if (strlen(G.out) > OUT_PATH_BYTES - 32)
        return bad_opt("--out: a folder name of %zu characters; at most %d", strlen(G.out), OUT_PATH_BYTES - 32);
    }
    else if (!strcmp(a, "--mesh")) G.mesh = argv[++i];
    else if (!strcmp(a, "--replicate")) {
      ++i;
      if (!strcmp(v, "auto")) G.replicate = 0;
      else {
        long k = strtol(v, &end, 10);
        if (!end || *end || end == v || k < 1 || k > 1000000) return bad_opt("--replicate %s: auto or an integer in [1, 1000000]", v);
        G.replicate = (int)k;
      }
    } else if (!strcmp(a, "--min-time") || !strcmp(a, "--scale")) {
      double d = cli_strtod(v, &end);
      ++i;
      if (!end || *end || end == v || !(d > 0 && d < 1e6)) return bad_opt("%s %s: a positive decimal number below 1e6", a, v);
      *(!strcmp(a, "--scale") ? &G.scale : &G.min_time) = d;
    } else if (!strcmp(a, "--seed")) {
      ++i;
      errno = 0;
      G.seed = strtoull(v, &end, 10);
      if (!end || *end || end == v || v[0] < '0' || v[0] > '9' || errno) /* digits only: strtoull takes " -1" as 2^64-1 */
        return bad_opt("--seed %s: an integer in [0, 2^64) (digits only)", v);
    } else if (a[0] == '-') return bad_opt("unknown option %s", a);
    else if (suite) return bad_opt("one suite only (second: %s)", a);
    else suite = a;
  }
  if (!suite) { usage(stderr); return 2; }
  const int s_stream = !strcmp(suite, "stream") || !strcmp(suite, "all"), s_spmv = !strcmp(suite, "spmv") || !strcmp(suite, "all"),
            s_unpack = !strcmp(suite, "unpack") || !strcmp(suite, "all"), s_fem = !strcmp(suite, "fem") || !strcmp(suite, "all");
  if (!(s_stream || s_spmv || s_unpack || s_fem)) return bad_opt("unknown suite %s (stream, spmv, unpack, fem, all)", suite);
  /* an option for suites that do not run is refused rather than ignored */
  if (specs->n && !s_spmv && !s_unpack) return bad_opt("--matrix applies to the spmv and unpack suites, not %s", suite);
  if (!s_spmv && (G.fmt_set || G.sweep || G.replicate != 1))
    return bad_opt("%s applies to the spmv suite, not %s", G.fmt_set ? "--format" : G.sweep ? "--sweep" : "--replicate", suite);
  if (G.uopt_given && !s_unpack) return bad_opt("--unpack-options applies to the unpack suite, not %s", suite);
  if (G.sopt_given && !s_spmv) return bad_opt("--spmv-options applies to the spmv suite, not %s", suite);
  if (G.mesh && !s_fem) return bad_opt("--mesh applies to the fem suite, not %s", suite);
  /* the box meshes (edge 40 cbrt(S) for fem, 60 cbrt(S) for unpack's own inputs) need at least one
   * cube per edge: box 0 would mean a Gmsh mesh to fem_run, not a smaller box */
  if (!G.quick && ((s_fem && !G.mesh && bench_box_of_scale(FEM_BOX_EDGE) < 1) ||
                   (s_unpack && !specs->n && bench_box_of_scale(UNPACK_BOX_EDGE) < 1))) {
    const int edge = s_fem && !G.mesh && bench_box_of_scale(FEM_BOX_EDGE) < 1 ? FEM_BOX_EDGE : UNPACK_BOX_EDGE;
    return bad_opt("--scale %g: the %s suite's box mesh would have %d x cbrt(%g) < 1 cubes per edge; the smallest "
                   "scale is %.6g (1/%d^3: box 1)", G.scale, edge == FEM_BOX_EDGE ? "fem" : "unpack", edge, G.scale,
                   1.0 / ((double)edge * edge * edge), edge);
  }
  if (G.min_time < 0) G.min_time = G.quick ? 0.05 : 0.5;
  if (G.progress < 0) G.progress = !G.quick;
  const int specs_given = specs->n > 0;
  if (!specs->n) push(specs, "gen:all");
  if (!G.fmt_set) /* default: every implemented format but csr (the plan, measured as strata_auto) */
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f) G.fmt[f] = f != STRATA_FORMAT_CSR;
  if (strata_exec_default(STRATA_BACKEND_SERIAL, &G.serial)) {
    fprintf(stderr, "strata bench: %s\n", strata_error_message());
    return 4;
  }
  for (int b = 0; b < STRATA_NUM_BACKENDS; ++b) {
    if (any ? !want[b] : !strata_backend_compiled((strata_backend_t)b)) continue;
    strata_exec_t *e = NULL;
    if (strata_exec_default((strata_backend_t)b, &e)) {
      if (any) fprintf(stderr, "strata bench: backend %s skipped: %s\n", strata_backend_name((strata_backend_t)b), strata_error_message());
      continue;
    }
    G.be[G.nb] = (strata_backend_t)b;
    G.ex[G.nb++] = e;
  }
  if (!G.nb) return bad_opt("no backend to run (those given are not compiled in or have no device)");
  G.json = stdout;
  if (G.out) {
    char path[OUT_PATH_BYTES];
    if (mkdir(G.out, 0777) && errno != EEXIST) {
      fprintf(stderr, "strata bench: --out %s: %s\n", G.out, strerror(errno));
      return 4;
    }
    snprintf(path, sizeof path, "%s/results.jsonl", G.out);
    if (!(G.json = fopen(path, "w"))) {
      fprintf(stderr, "strata bench: %s: %s\n", path, strerror(errno));
      return 4;
    }
  }
  G.t_start = strata_timer_now();
  /* the progress line's estimate of the measurements to come (matrices from files count as one) */
  {
    int nmat = 0, per_mat = NUM_ALGOS + (G.sweep ? SWEEP_N : 0), cusp = 0;
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f) per_mat += G.fmt[f];
    for (int i = 0; i < specs->n; ++i) {
      if (!strcmp(specs->v[i], "gen:all"))
        for (int g = 0; bench_gen_names[g]; ++g) ++nmat;
      else ++nmat;
    }
    for (int bi = 0; bi < G.nb; ++bi) cusp += bench_peer_count(G.be[bi]);
    G.total = G.nb * ((s_stream || s_spmv ? 4 : 0) + (s_spmv ? nmat * per_mat : 0) + (s_unpack ? (specs_given ? 3 * nmat : 2 + rowlen_count() + UNPACK_BASE_RECORDS) : 0) +
                      (s_fem ? 2 : 0)) + (s_spmv ? nmat * cusp : 0);
  }
  fprintf(stderr, "strata bench: timing method:");
  for (int bi = 0; bi < G.nb; ++bi) fprintf(stderr, " %s: %s;", strata_backend_name(G.be[bi]), bench_time_method(G.ex[bi]));
  fprintf(stderr, " samples >= 1 ms, median over >= 5 samples and --min-time %.3g s\n", G.min_time);
  if (s_stream)
    for (int bi = 0; bi < G.nb; ++bi) suite_stream(bi, 1);
  if (s_spmv) suite_spmv(specs);
  if (s_unpack && specs_given) suite_unpack_inputs(specs);
  else if (s_unpack) suite_unpack(), suite_unpack_rowlen(), suite_unpack_baselines();
  if (s_fem) suite_fem();
  if (G.out) {
    char path[OUT_PATH_BYTES];
    snprintf(path, sizeof path, "%s/results.jsonl", G.out);
    out_close(G.json, path);
    snprintf(path, sizeof path, "%s/summary.txt", G.out);
    FILE *f = out_open(path);
    if (f) summary(f), out_close(f, path);
    plots();
  }
  summary(stdout);
  errno = 0;
  /* flushed before whatever the process prints at exit (LeakSanitizer's report) can cut the last
   * line; a stdout that could not be written (full disk, closed pipe) is an error (exit 4) */
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "strata bench: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
    ++G.write_errors;
  }
  int bad = 0, errors = G.write_errors; /* exit status: 3 a wrong result, 4 an input, a measurement or an output that failed */
  for (int i = 0; i < nR; ++i) bad += R[i].ok == 0, errors += R[i].ok == -1;
  free(R);
  R = NULL, nR = capR = 0;
  return bad ? 3 : errors ? 4 : 0;
}

int cmd_bench(int argc, char **argv) {
  strlist specs = {0};
  const int rc = bench_run(argc, argv, &specs);
  free_list(&specs);
  return rc;
}
