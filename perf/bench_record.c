/* strata bench — the result records (bench_harness.h): kept in the order they are made, each
 * written as one JSON line when its measurement is done (stdout, or DIR/results.jsonl with --out);
 * the progress line; the comparison of a result with its reference (the oracle). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "cli_json.h"

bench_result_t *bench_rec;
int bench_nrec;
static int cap;

bench_result_t *bench_record_add(const char *suite, strata_backend_t b, const char *name, const char *algo) {
  if (bench_nrec == cap) {
    cap = cap ? 2 * cap : 64;
    bench_rec = (bench_result_t *)realloc(bench_rec, (size_t)cap * sizeof *bench_rec);
  }
  bench_result_t *r = &bench_rec[bench_nrec++];
  memset(r, 0, sizeof *r);
  snprintf(r->suite, sizeof r->suite, "%s", suite);
  snprintf(r->backend, sizeof r->backend, "%s", strata_backend_name(b));
  snprintf(r->name, sizeof r->name, "%s", name);
  snprintf(r->algo, sizeof r->algo, "%s", algo);
  r->ok = -1;
  r->ref_bw = bench_cfg.stream_bw[b];
  return r;
}

/* unpack and fem: the serial backend's same record (backends run in enum order, serial first) */
static void fill_ratio_serial(bench_result_t *r) {
  if (r->ok != 1 || r->ratio_serial > 0 || (strcmp(r->suite, "unpack") && strcmp(r->suite, "fem"))) return;
  for (const bench_result_t *q = bench_rec; q < r + 1; ++q)
    if (q->ok == 1 && !strcmp(q->backend, "serial") && !strcmp(q->suite, r->suite) && !strcmp(q->name, r->name) &&
        !strcmp(q->algo, r->algo) && q->t.median > 0)
      r->ratio_serial = q->t.median / r->t.median;
}

void bench_record_emit(bench_result_t *r) {
  char nm[400], ms[450], b[11][48], extra[160 + sizeof r->extra] = "";
  fill_ratio_serial(r);
  if (bench_cfg.uopt_given && !strcmp(r->suite, "unpack") && !strcmp(r->algo, "unpack_combine_add") && !r->msg[0]) {
    char t[160]; /* the record says how it ran (at most about 140 characters) */
    bench_unpack_options_text(t, sizeof t);
    if (t[0]) snprintf(r->msg, sizeof r->msg, "--unpack-options %s", t); /* force=auto alone: the defaults */
  }
  if (bench_cfg.sopt_given && !strcmp(r->suite, "spmv") && !strncmp(r->algo, "strata_", 7) && !r->msg[0]) {
    char t[200];
    bench_spmv_options_text(t, sizeof t);
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
  if (r->extra[0]) { /* the suite's own members */
    size_t l = strlen(extra);
    snprintf(extra + l, sizeof extra - l, "%s", r->extra);
  }
  cli_utf8_trim_cut(r->name, sizeof r->name); /* a name or message cut to fit keeps whole characters */
  cli_utf8_trim_cut(r->msg, sizeof r->msg);
  cli_json_escape(nm, sizeof nm, r->name);
  cli_json_escape(ms, sizeof ms, r->msg);
  const double t = r->t.median;
  const double gbs = r->ok == 1 && r->bytes > 0 ? r->bytes / t / 1e9 : NAN;
  fprintf(bench_cfg.json,
          "{\"suite\": \"%s\", \"backend\": \"%s\", \"name\": \"%s\", \"algorithm\": \"%s\", \"status\": \"%s\", "
          "\"rows\": %lld, \"cols\": %lld, \"nnz\": %lld, \"n\": %lld, \"copies\": %lld, \"time_s\": %s, "
          "\"time_min_s\": %s, \"time_max_s\": %s, \"time_q1_s\": %s, \"time_q3_s\": %s, \"samples\": %d, "
          "\"reps_per_sample\": %d, \"bytes\": %.0f, \"gbytes_per_s\": %s, \"entries_per_s\": %s, "
          "\"stream_gbytes_per_s\": %s, \"pct_stream\": %s, \"ratio_to_serial\": %s, \"ratio_to_peer\": %s, "
          "\"message\": \"%s\"%s}\n",
          r->suite, r->backend, nm, r->algo,
          r->ok == 1 ? "ok" : r->ok == 0 ? "wrong" : r->ok == -2 ? "skipped" : "error", (long long)r->rows,
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
  fflush(bench_cfg.json);
}

/* one line per measurement on stderr: elapsed time, count done / estimated total, what runs */
void bench_progress(const char *suite, const char *name, const char *backend, const char *algo) {
  ++bench_cfg.done;
  if (bench_cfg.done > bench_cfg.total) bench_cfg.total = bench_cfg.done;
  if (!bench_cfg.progress) return;
  fprintf(stderr, "[bench %7.1f s] %4d/%-4d (~%d left) %-6s %-28.28s %-7s %s\n", strata_timer_now() - bench_cfg.t_start,
          bench_cfg.done, bench_cfg.total, bench_cfg.total - bench_cfg.done, suite, name, backend, algo);
  fflush(stderr);
}

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
int64_t bench_oracle_compare(const bench_oracle_t *o, const double *y, int64_t *first) {
  int64_t bad = 0, f = -1;
  for (int64_t r = 0; r < o->n; ++r)
    if (!close_enough(y[r], o->yref[r], o->tol[r])) {
      if (f < 0) f = r;
      ++bad;
    }
  *first = f;
  return bad;
}

void bench_records_free(void) {
  free(bench_rec);
  bench_rec = NULL, bench_nrec = cap = 0;
}
