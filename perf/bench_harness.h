/* strata bench — what the files of `strata bench` share (private to perf/): the run's
 * configuration, the result records, the inputs (--matrix specs) and the suite table.
 *
 *   bench_cmd.c      the command line: options, input specs, the run (cmd_bench)
 *   bench_suites.c   the suite table: the suites in the order they run
 *   bench_record.c   result records, their JSON lines, the progress line, the oracle's comparison
 *   bench_report.c   the summary tables and the gnuplot plots (--out)
 *   bench_system.c   the linear systems of the solve and amg suites, their checks and timed runs
 *   suite_NAME.c     one suite each: stream, spmv, unpack, fem, solve, spgemm, amg, h2
 * The measuring module (timing, generators, the vendor peer, unpack baselines) is bench.h. */
#ifndef STRATA_BENCH_HARNESS_H
#define STRATA_BENCH_HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "strata/formats.h"
#include "strata/solvers.h"

/* the paths of the files written under --out DIR (DIR/NAME) */
#define OUT_PATH_BYTES 1024
/* "no limit": the largest threshold strata_spmv_options_t takes */
#define THR_INF ((int64_t)1 << 40)

/* ------------------------------------------------------------------------ configuration */
typedef struct bench_config {
  int quick, progress, sweep;
  int fmt[STRATA_NUM_FORMATS]; /* spmv: the storage formats measured besides the plan (--format) */
  int fmt_set;                 /* --format given (else: every implemented format but csr) */
  int done, total; /* measurements done, and the estimate of all (progress line) */
  const char *mesh; /* fem: --mesh FILE instead of the box */
  const char *partition; /* dist: --partition block|metis|auto (NULL: block rows) */
  int no_fe;             /* dist: --no-fe, the matrices' records only (no FE assembly records) */
  strata_unpack_options_t uopt; /* unpack: --unpack-options (all zero: the defaults) */
  int uopt_given;
  int64_t sopt[7]; /* spmv: --spmv-options, the plan's thresholds (0: the defaults; bench_cmd.c) */
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
  int silent;       /* 1: no header line on stderr (dist: ranks other than 0 under mpirun) */
  double t_start;
} bench_config_t;
/** The run's configuration: set by the command line (bench_cmd.c), read by the suites. */
extern bench_config_t bench_cfg;

/* ------------------------------------------------------------------------------ results */
typedef struct bench_result {
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
  char extra[1536];   /* suite-specific JSON members (", \"NAME\": VALUE ..."), appended to the line */
} bench_result_t;
/** The records of the run so far, in the order they were added (bench_nrec of them). */
extern bench_result_t *bench_rec;
extern int bench_nrec;
/** A new record (status error until set; the backend's stream reference filled in). The pointer
 *  holds until the next bench_record_add. */
bench_result_t *bench_record_add(const char *suite, strata_backend_t b, const char *name, const char *algo);
/** The record as one JSON line on bench_cfg.json (unpack and fem: ratio_to_serial filled in). */
void bench_record_emit(bench_result_t *r);
/** One line per measurement on stderr (with --progress): elapsed time, count done / estimated. */
void bench_progress(const char *suite, const char *name, const char *backend, const char *algo);
void bench_records_free(void);

/** A result checked against a reference: |y - yref| <= tol per entry, non-finite values equal to
 *  themselves (both NaN, the same infinity). */
typedef struct { const double *yref, *tol; int64_t n; } bench_oracle_t;
/** The entries of y (host) that differ from o's reference; *first receives the first (-1: none). */
int64_t bench_oracle_compare(const bench_oracle_t *o, const double *y, int64_t *first);

/* ------------------------------------------------------------------------- inputs (--matrix) */
typedef struct { char **v; int n, cap; } bench_list_t;
void bench_list_push(bench_list_t *l, const char *s);
void bench_list_free(bench_list_t *l);
/** --matrix specs as a list of inputs: gen:all and shared expanded (a shared folder that cannot be
 *  read or holds no matrix: an error record of `suite`). */
void bench_expand_specs(const char *suite, const bench_list_t *specs, bench_list_t *list);
/** One input (gen:NAME[:params] or a Matrix Market file) on the serial backend, and its name; on
 *  failure a record "input" of the suite with the message, said on stderr, and -1. */
int bench_load_spec(const char *suite, const char *s, strata_crs_matrix_t **A, char *name, size_t name_len);
/** An input of `suite` that could not be built: a record "input" with the message (exit 4). */
void bench_input_error(const char *suite, const char *spec, const char *msg);
/** Each input of specs (expanded as bench_expand_specs does) loaded by bench_load_spec, its name made
 *  unique among the suite's records, given to fn(A, name, ctx) (A: host memory) and destroyed. */
typedef void (*bench_input_fn)(const strata_crs_matrix_t *A, const char *name, void *ctx);
void bench_each_input(const char *suite, const bench_list_t *specs, bench_input_fn fn, void *ctx);
/** name made unique among the records of `suite` so far ("x.mtx", "x.mtx#2"). */
void bench_unique_name(const char *suite, char *name, size_t cap);
/** Cubes per edge of a suite's box mesh of `edge` cubes at --scale 1: edge x cbrt(--scale). */
int bench_box_of_scale(int edge);
/** The --unpack-options in force, as the records say them (only those given). */
void bench_unpack_options_text(char *out, size_t n);
/** The --spmv-options in force as NAME=VALUE text; returns the length written. */
size_t bench_spmv_options_text(char *out, size_t n);
/** The plan options of --spmv-options into *o (the algorithm untouched). */
void bench_spmv_options_apply(strata_spmv_options_t *o);

/* ------------------------------------------------------------------------------- suites */
/** What a suite's run sees of the command line's inputs. */
typedef struct bench_inputs {
  const bench_list_t *specs; /* the --matrix specs; gen:all when none was given */
  int given;                 /* --matrix was given */
  int matrices;              /* inputs the specs name (gen:all as its generators, others as one each) */
} bench_inputs_t;

/* the options that only some suites take: given for a run of none of them, refused (exit 2) */
#define BENCH_OPT_MATRIX (1u << 0)         /* --matrix */
#define BENCH_OPT_FORMAT (1u << 1)         /* --format */
#define BENCH_OPT_SWEEP (1u << 2)          /* --sweep */
#define BENCH_OPT_REPLICATE (1u << 3)      /* --replicate */
#define BENCH_OPT_UNPACK_OPTIONS (1u << 4) /* --unpack-options */
#define BENCH_OPT_SPMV_OPTIONS (1u << 5)   /* --spmv-options */
#define BENCH_OPT_MESH (1u << 6)           /* --mesh */
#define BENCH_OPT_PARTITION (1u << 7)      /* --partition */
#define BENCH_OPT_NO_FE (1u << 8)          /* --no-fe */

/** One suite of `strata bench` (an entry of the table in bench_suites.c). */
typedef struct bench_suite {
  const char *name;  /* `strata bench NAME` and the records' "suite" (at most 7 characters) */
  const char *help;  /* one line of --help */
  unsigned options;  /* BENCH_OPT_* it takes */
  /* runs on every backend of bench_cfg, adding and emitting its records */
  void (*run)(const bench_inputs_t *in);
  /* the measurements it will make (the progress line's total) */
  int (*estimate)(const bench_inputs_t *in);
  /* NULL, or the cubes per edge of its box mesh at --scale 1 in this run (0: no box mesh); a
   * --scale that leaves less than one cube per edge is refused (exit 2) */
  int (*box_edge)(const bench_inputs_t *in);
  /* NULL, or the suite's own tables in the summary (after the records' table), when it ran */
  void (*summary)(FILE *f);
  /* NULL, or called once when the options are checked, before the run writes anything (dist: MPI
   * started, ranks other than 0 silenced): 0 to go on, else the exit status, after saying why */
  int (*start)(void);
} bench_suite_t;
/** The suites in the order they run (`all`: every one), NULL-terminated. */
extern const bench_suite_t *const bench_suites[];
/** 1 when the suite of that name runs in this invocation. */
int bench_suite_selected(const char *name);

/* ---------------------------------------------------------- what suites share beyond records */
/** The stream suite on backend bench_cfg.be[bi]: its records emitted, bench_cfg.stream_bw set. */
void bench_stream_backend(int bi);
/* the linear systems of the solve and amg suites (bench_system.c) */
struct bench_hypre;
typedef struct bench_system {
  const strata_crs_matrix_t *Ah; /* host memory, square */
  const char *name;
  int given;             /* a --matrix input: a solve that does not converge is skipped, not wrong */
  double *b, *x, *w;     /* host [n]: b = ones, x a solution read back, w a work vector */
  struct bench_hypre *h; /* hypre's copy of A where a host backend runs and the build has hypre (else
                            NULL; herr says why when hypre could not take it) */
  char herr[200];
} bench_system_t;
/** The system of Ah for `suite`: 0, or -1 after an input error record (not square; no memory). */
int bench_system_create(const char *suite, const strata_crs_matrix_t *Ah, const char *name, int given, bench_system_t *s);
void bench_system_destroy(bench_system_t *s);
/** The system on backend bench_cfg.be[bi]: A copied, its operator, b (ones) and x in exec memory. */
typedef struct bench_system_exec {
  strata_crs_matrix_t *A;
  strata_operator_t *op;
  double *b, *x; /* [n + 1] exec memory */
} bench_system_exec_t;
/** 0, or -1 after an input error record of `suite` naming the backend. */
int bench_system_exec_create(const char *suite, const bench_system_t *s, int bi, bench_system_exec_t *d);
void bench_system_exec_destroy(int bi, bench_system_exec_t *d);
/** ||b - A x|| / ||b|| (||b - A x|| when b = 0) on the host, A x by strata's SpMV on the serial
 *  backend (Ah, b, x, w: host memory, w [n] a work vector); NaN when the SpMV fails. */
double bench_true_residual(const strata_crs_matrix_t *Ah, const double *b, const double *x, double *w);
/** The timed runs of a whole solve, after a checked warm-up run (its time in res->solve_s): the
 *  same solve again from the same x0 while fewer than 20 are kept and either fewer than the minimum
 *  (1 with --quick or when the warm-up took over 2 --min-time, else 3) or --min-time has not passed;
 *  their median and spread into *t, res the last run's. The first error of a run is returned. */
strata_status_t bench_krylov_timed(strata_exec_t *e, const strata_operator_t *op, const strata_precond_t *P, const double *b,
                                   double *x, const strata_krylov_options_t *ko, strata_krylov_result_t *res, bench_stats_t *t);
/** The same for hypre's solver s on the system's b and x (the warm-up took `first` seconds): 0, or -1
 *  with hypre's message in err. */
struct bench_hypre_solver;
int bench_hypre_timed(struct bench_hypre_solver *s, const bench_system_t *in, double first, bench_stats_t *t, char *err,
                      size_t err_len);

/* ------------------------------------------------------------------------------- report */
/** The summary tables (and the last line, "strata bench: N results, ...") on f. */
void bench_report_summary(FILE *f);
/** With --out: the plots' data, plots.gp, and the PNGs where gnuplot is. */
void bench_report_plots(void);
/** A file under --out: opened for writing, or NULL after saying why (counted: exit 4). */
FILE *bench_out_open(const char *path);
/** Closes f, counting a write that failed (a full disk shows at the flush). */
void bench_out_close(FILE *f, const char *path);

#endif
