/* strata bench — the spmv suite: every algorithm of the row-class plan (auto and each forced
 * level), the storage formats of strata/formats.h (--format), with --sweep the plan's thresholds
 * over a small grid, and the vendor peer (cuSPARSE in CUDA builds, hipSPARSE in HIP builds that
 * have it; bench_peer.c), on every input of --matrix (A (x) I_k with --replicate). Every result,
 * each rotated copy's, is checked against the serial backend's y before its time counts. Bytes by
 * the minimal-traffic model 12 nnz + 4 (rows + 1) + 8 cols + 8 rows; % of the stream reference of
 * the same backend measured in the same run (suite_stream.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_harness.h"

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

static int check_y(strata_exec_t *e, double *dy, int64_t n, double *h, const bench_oracle_t *o, bench_result_t *r) {
  bench_sync(e);
  if (strata_mem_copy(e, h, dy, (size_t)n * sizeof(double)) != STRATA_SUCCESS) { /* h would hold an old y */
    snprintf(r->msg, sizeof r->msg, "copying y to the host for the check failed: %s", strata_error_message());
    return 0; /* r->ok stays -1: an error, not a result */
  }
  int64_t first;
  int64_t bad = bench_oracle_compare(o, h, &first);
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
                            int64_t n, double *h, const bench_oracle_t *o, const char *run_fail, bench_result_t *r) {
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
  r->ok = bench_time(e, run, ctx, bench_cfg.min_time, &r->t) ? -1 : 1;
  if (r->ok < 0) snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
}

/* One plan of A with opt: built, applied once with y poisoned, checked against the oracle, then
 * timed; what failed goes into r->msg. */
static void measure_plan(spmv_ctx *k, const strata_spmv_options_t *opt, int setup, int64_t n, double *h,
                         const bench_oracle_t *o, bench_result_t *r) {
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
static void measure_format(const spmv_ctx *k, strata_format_t f, int64_t n, double *h, const bench_oracle_t *o, bench_result_t *r) {
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
    bench_result_t *r = bench_record_add("spmv", STRATA_BACKEND_SERIAL, name, "input");
    r->rows = n, r->cols = nc, r->nnz = nnz;
    snprintf(r->msg, sizeof r->msg, "out of host memory: x needs %zu bytes, yref, tol and y %zu bytes each",
             (size_t)(nc + 1) * sizeof(double), (size_t)(n + 1) * sizeof(double));
    fprintf(stderr, "strata bench: %s: %s\n", name, r->msg);
    bench_record_emit(r);
    free(x), free(yref), free(tol), free(h);
    return;
  }
  for (int64_t j = 0; j < nc; ++j) x[j] = 1.0 + (double)(j % 7) / 8.0;
  /* the oracle: the serial backend's plain SpMV; tolerance from the row's |a||x| and length */
  if (strata_crs_spmv(bench_cfg.serial, 1.0, Ah, x, 0.0, yref)) { /* no reference: nothing can be checked (exit 4) */
    bench_result_t *r = bench_record_add("spmv", STRATA_BACKEND_SERIAL, name, "input");
    r->rows = n, r->cols = nc, r->nnz = nnz;
    snprintf(r->msg, sizeof r->msg, "the reference y = A x (strata_crs_spmv on serial) failed: %s", strata_error_message());
    fprintf(stderr, "strata bench: %s: %s\n", name, r->msg);
    bench_record_emit(r);
    free(x), free(yref), free(tol), free(h);
    return;
  }
  for (int64_t r = 0; r < n; ++r) {
    double s = 0;
    for (int64_t k = Ah->row_offsets[r]; k < Ah->row_offsets[r + 1]; ++k) s += fabs(Ah->values[k] * x[Ah->col_indices[k]]);
    tol[r] = 4.0 * 0x1.0p-52 * (double)(Ah->row_offsets[r + 1] - Ah->row_offsets[r] + 2) * s;
  }
  bench_oracle_t o = {yref, tol, n};
  const int first = bench_nrec;
  int64_t maxlen = 0;
  for (int64_t r = 0; r < n; ++r) maxlen = fmax(maxlen, Ah->row_offsets[r + 1] - Ah->row_offsets[r]);
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_backend_t b = bench_cfg.be[bi];
    strata_exec_t *e = bench_cfg.ex[bi];
    if (bench_cfg.stream_bw[b] <= 0) bench_stream_backend(bi); /* % of stream needs the same run's bandwidth */
    spmv_ctx k;
    memset(&k, 0, sizeof k);
    k.e = e;
    /* rotate copies when the data fit in cache (not in --quick) */
    const double cb = cache_bytes(e);
    k.copies = bench_cfg.quick || bytes >= 4 * cb ? 1 : (int)fmin(MAX_COPIES, ceil(4 * cb / bytes));
    int setup = 1;
    for (int c = 0; c < k.copies && setup; ++c) {
      setup = strata_crs_copy(e, Ah, &k.A[c]) == STRATA_SUCCESS &&
              strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nc + 1) * 8, (void **)&k.x[c]) == STRATA_SUCCESS &&
              strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(n + 1) * 8, (void **)&k.y[c]) == STRATA_SUCCESS &&
              strata_mem_copy(e, k.x[c], x, (size_t)nc * 8) == STRATA_SUCCESS;
    }
    for (int a = 0; a < NUM_ALGOS; ++a) {
      bench_result_t *r = bench_record_add("spmv", b, name, algo_names[a]);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      bench_progress("spmv", name, r->backend, r->algo);
      strata_spmv_options_t opt;
      memset(&opt, 0, sizeof opt);
      bench_spmv_options_apply(&opt);
      opt.algorithm = (strata_spmv_algorithm_t)a;
      measure_plan(&k, &opt, setup, n, h, &o, r);
    }
    /* --sweep: the auto plan's class thresholds over a small grid (the former spmv_bench's) */
    for (int g = 0; bench_cfg.sweep && g < SWEEP_N; ++g) {
      char al[48], t3[24];
      const int64_t *q = sweep_grid[g];
      if (q[3] < 0) snprintf(t3, sizeof t3, "inf");
      else snprintf(t3, sizeof t3, "%lld", (long long)q[3]);
      snprintf(al, sizeof al, "sweep[%lld,%lld,%lld,%s]", (long long)q[0], (long long)q[1], (long long)q[2], t3);
      bench_result_t *r = bench_record_add("spmv", b, name, al);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      r->has_thr = 1;
      memcpy(r->thr, q, sizeof r->thr);
      bench_progress("spmv", name, r->backend, r->algo);
      strata_spmv_options_t opt;
      memset(&opt, 0, sizeof opt);
      opt.one_level_max = q[0], opt.entries_per_lane = (int)q[1], opt.two_level_max = q[2];
      opt.three_level_max = q[3] < 0 ? THR_INF : q[3];
      measure_plan(&k, &opt, setup, n, h, &o, r);
    }
    for (int f = 0; f < STRATA_NUM_FORMATS && setup; ++f) {
      if (!bench_cfg.fmt[f]) continue;
      char al[32];
      snprintf(al, sizeof al, "format_%s", strata_format_name((strata_format_t)f));
      bench_result_t *r = bench_record_add("spmv", b, name, al);
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      bench_progress("spmv", name, r->backend, r->algo);
      if ((f == STRATA_FORMAT_ELL || f == STRATA_FORMAT_ELLPACK_R) && (double)n * maxlen > 16.0 * (double)nnz + 1e6) {
        r->ok = -2; /* padding to the longest row: not worth converting (nor the memory) */
        snprintf(r->msg, sizeof r->msg, "skipped: %lld rows x longest %lld = %.3g stored entries, %.0fx the %lld nonzeros "
                 "(limit 16x + 10^6)", (long long)n, (long long)maxlen, (double)n * maxlen,
                 (double)n * maxlen / fmax(1.0, (double)nnz), (long long)nnz);
      } else
        measure_format(&k, (strata_format_t)f, n, h, &o, r);
    }
    for (int a = 0; a < bench_peer_count(b) && setup; ++a) { /* cuSPARSE / hipSPARSE */
      bench_result_t *r = bench_record_add("spmv", b, name, bench_peer_name(a));
      r->rows = n, r->cols = nc, r->nnz = nnz, r->bytes = bytes, r->entries = (double)nnz, r->copies = k.copies;
      bench_progress("spmv", name, r->backend, r->algo);
      bench_peer_t *p = NULL;
      const int pc = bench_peer_create(a, k.copies, k.A, k.x, k.y, strata_exec_native_stream(e), &p, r->msg, sizeof r->msg);
      if (pc > 0) r->ok = -2; /* not for this matrix: skipped, the message says why */
      if (pc) continue;
      char fail[64];
      snprintf(fail, sizeof fail, "%s: SpMV failed", r->algo);
      check_then_time(e, bench_peer_apply, p, k.y, k.copies, n, h, &o, fail, r);
      if (r->ok == 1 && bench_peer_note(p)[0]) snprintf(r->msg, sizeof r->msg, "%s", bench_peer_note(p));
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
  for (int i = first; i < bench_nrec; ++i) {
    if (bench_rec[i].ok != 1) continue;
    double ts = 0, tp = 0, tsa = 0;
    for (int j = first; j < bench_nrec; ++j) {
      if (bench_rec[j].ok != 1) continue;
      if (!strcmp(bench_rec[j].backend, "serial") && !strcmp(bench_rec[j].algo, bench_rec[i].algo)) ts = bench_rec[j].t.median;
      if (!strcmp(bench_rec[j].backend, "serial") && !strcmp(bench_rec[j].algo, "strata_auto")) tsa = bench_rec[j].t.median;
      if (!strcmp(bench_rec[j].backend, bench_rec[i].backend) && !strcmp(bench_rec[j].algo, bench_peer_name(BENCH_PEER_CSR_ALG1)))
        tp = bench_rec[j].t.median;
    }
    bench_rec[i].ratio_serial = ts > 0 ? ts / bench_rec[i].t.median : 0;
    bench_rec[i].ratio_peer = (tp > 0 ? tp : tsa) / bench_rec[i].t.median;
  }
  for (int i = first; i < bench_nrec; ++i) bench_record_emit(&bench_rec[i]);
  free(x);
  free(yref);
  free(tol);
  free(h);
}

/* --replicate auto under --quick: at most this many rows (A ⊗ I_k with k cut down to fit) */
#define QUICK_REPLICATE_ROWS ((int64_t)1 << 20)

static void spmv_suite_run(const bench_inputs_t *in) {
  bench_list_t list = {0};
  bench_expand_specs("spmv", in->specs, &list);
  for (int i = 0; i < list.n; ++i) {
    char name[160], err[300] = "";
    strata_crs_matrix_t *A = NULL;
    if (bench_load_spec("spmv", list.v[i], &A, name, sizeof name)) continue;
    int k = bench_cfg.replicate;
    if (k == 0) { /* auto: A ⊗ I_k until the data are 4 times the largest cache of the backends */
      double cb = 0, bytes = 12.0 * (double)A->nnz + 20.0 * (double)A->num_rows + 8.0 * (double)A->num_cols;
      for (int bi = 0; bi < bench_cfg.nb; ++bi) cb = fmax(cb, cache_bytes(bench_cfg.ex[bi]));
      k = bytes >= 4 * cb || bytes <= 0 ? 1 : (int)ceil(4 * cb / bytes);
      while (k > 1 && (double)A->num_rows * k > INT32_MAX / 2) k /= 2;
      if (bench_cfg.quick && (double)A->num_rows * k > QUICK_REPLICATE_ROWS) /* --quick stays small */
        k = A->num_rows >= QUICK_REPLICATE_ROWS ? 1 : (int)(QUICK_REPLICATE_ROWS / A->num_rows);
    }
    if (k > 1) {
      strata_crs_matrix_t *B = NULL;
      if (bench_replicate(A, k, &B, err, sizeof err)) { /* an error: the unreplicated matrix is not what was asked */
        char msg[500];
        snprintf(msg, sizeof msg, "%s: A (x) I_%d: %s", name, k, err);
        bench_input_error("spmv", list.v[i], msg);
        strata_crs_destroy(&A);
        continue;
      } else {
        strata_crs_destroy(&A);
        A = B;
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "(xI%d)", k);
      }
    }
    bench_unique_name("spmv", name, sizeof name);
    spmv_matrix(A, name);
    strata_crs_destroy(&A);
  }
  bench_list_free(&list);
}

static int spmv_estimate(const bench_inputs_t *in) {
  int per_mat = NUM_ALGOS + (bench_cfg.sweep ? SWEEP_N : 0), peers = 0;
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f) per_mat += bench_cfg.fmt[f];
  for (int bi = 0; bi < bench_cfg.nb; ++bi) peers += bench_peer_count(bench_cfg.be[bi]);
  /* the stream reference of each backend is measured here when the stream suite does not run */
  return bench_cfg.nb * ((bench_suite_selected("stream") ? 0 : 4) + in->matrices * per_mat) + in->matrices * peers;
}

const bench_suite_t bench_suite_spmv = {
    .name = "spmv",
    .help = "the row-class plan's algorithms, the storage formats, the vendor peer; checked against serial",
    .options = BENCH_OPT_MATRIX | BENCH_OPT_FORMAT | BENCH_OPT_SWEEP | BENCH_OPT_REPLICATE | BENCH_OPT_SPMV_OPTIONS,
    .run = spmv_suite_run,
    .estimate = spmv_estimate,
};
