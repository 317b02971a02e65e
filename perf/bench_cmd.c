/* strata bench — the benchmark harness as a subcommand of the strata tool (issue 6): the command
 * line (options, input specs) and the run. The suites are in the table of bench_suites.c, one file
 * each (suite_NAME.c); records and JSON lines in bench_record.c; summary and plots in
 * bench_report.c.
 *
 *   strata bench stream|spmv|unpack|fem|all [--backend B]... [--matrix SPEC]... [--replicate K|auto]
 *                [--quick] [--min-time S] [--seed N] [--scale S] [--out DIR] [--sweep] [--mesh FILE]
 *                [--progress|--no-progress]
 *
 * Every result is checked against its reference (serial's; unpack: sums built on the host) before
 * its time counts. Output: JSON lines (stdout, or DIR/results.jsonl with --out), then a summary
 * table; with --out and gnuplot, PNG plots. Method of timing: bench.h (strata_event: device events
 * on GPUs, host clock between fences on host backends; samples of >= 1 ms). Options that only some
 * suites take (bench_suite_t.options) are refused for the others. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_harness.h"
#include "strata/config.h" /* STRATA_HAVE_MPI: the dist suite */
#include "cli_error.h"
#include "cli_spmv.h"

int cmd_bench(int argc, char **argv);

#ifndef BENCH_SHARED_MATRICES
#define BENCH_SHARED_MATRICES "../shared/matrices"
#endif

bench_config_t bench_cfg;

int bench_box_of_scale(int edge) { return (int)(edge * cbrt(bench_cfg.scale)); }

/* ------------------------------------------------------------------------- inputs (--matrix) */
void bench_list_push(bench_list_t *l, const char *s) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = (char **)realloc(l->v, (size_t)l->cap * sizeof(char *));
  }
  l->v[l->n++] = strdup(s);
}
static bench_list_t g_walk;
static int walk_cb(const char *p, const struct stat *sb, int type, struct FTW *f) {
  (void)sb, (void)f;
  size_t len = strlen(p);
  if (type == FTW_F && ((len > 4 && !strcmp(p + len - 4, ".mtx")) || (len > 7 && !strcmp(p + len - 7, ".mtx.gz"))))
    bench_list_push(&g_walk, p);
  return 0;
}
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* An input of `suite` that could not be built: a record "input" with the message (exit 4), said on
 * stderr too. */
void bench_input_error(const char *suite, const char *spec, const char *msg) {
  bench_result_t *r = bench_record_add(suite, STRATA_BACKEND_SERIAL, spec, "input");
  snprintf(r->msg, sizeof r->msg, "%.*s", (int)sizeof r->msg - 1, msg); /* the message, cut to fit */
  bench_record_emit(r);
  fprintf(stderr, "strata bench: %s (an input error: its runs are not made; exit 4)\n", msg);
}

/* the files `--matrix shared` found: the shared folder keeps malformed and complex files on
 * purpose (EDGE_CASES.md), so a file of it that the reader refuses is a record "skipped" with the
 * reader's message, not an error (the reader's verdict on every shared file is test_mmio's) */
static bench_list_t g_shared;
static int from_shared(const char *s) {
  for (int i = 0; i < g_shared.n; ++i)
    if (!strcmp(g_shared.v[i], s)) return 1;
  return 0;
}
static void input_refused_shared(const char *suite, const char *spec, const char *msg) {
  bench_result_t *r = bench_record_add(suite, STRATA_BACKEND_SERIAL, spec, "input");
  r->ok = -2;
  snprintf(r->msg, sizeof r->msg, "(a shared file) %.*s", (int)sizeof r->msg - 20, msg);
  bench_record_emit(r);
  fprintf(stderr, "strata bench: %s (skipped: a shared file the reader refuses)\n", msg);
}

/* --matrix specs as a list of inputs: gen:all and shared expanded (a shared folder that cannot be
 * read or holds no matrix: an error record of `suite`) */
void bench_expand_specs(const char *suite, const bench_list_t *specs, bench_list_t *list) {
  for (int i = 0; i < specs->n; ++i) {
    const char *s = specs->v[i];
    if (!strcmp(s, "gen:all")) {
      for (int g = 0; bench_gen_names[g]; ++g) {
        char buf[64];
        snprintf(buf, sizeof buf, "gen:%s", bench_gen_names[g]);
        bench_list_push(list, buf);
      }
    } else if (!strcmp(s, "shared")) {
      const char *dir = getenv("STRATA_MATRICES") ? getenv("STRATA_MATRICES") : BENCH_SHARED_MATRICES;
      char msg[1200];
      g_walk.n = 0;
      errno = 0;
      if (nftw(dir, walk_cb, 16, FTW_PHYS) != 0) {
        snprintf(msg, sizeof msg, "shared: cannot read %s: %s", dir, strerror(errno ? errno : EIO));
        bench_input_error(suite, "shared", msg);
      } else if (!g_walk.n) {
        snprintf(msg, sizeof msg, "shared: no .mtx or .mtx.gz file under %s ($STRATA_MATRICES or %s)", dir, BENCH_SHARED_MATRICES);
        bench_input_error(suite, "shared", msg);
      }
      if (g_walk.n) qsort(g_walk.v, (size_t)g_walk.n, sizeof(char *), cmp_str); /* NULL v when none */
      for (int j = 0; j < g_walk.n; ++j) bench_list_push(list, g_walk.v[j]), bench_list_push(&g_shared, g_walk.v[j]), free(g_walk.v[j]);
    } else
      bench_list_push(list, s);
  }
}
void bench_list_free(bench_list_t *list) {
  for (int i = 0; i < list->n; ++i) free(list->v[i]);
  free(list->v);
  list->v = NULL;
  list->n = 0;
}

/* One input (gen:NAME[:params] or a Matrix Market file) on the serial backend, and its name; on
 * failure a record "input" of the suite with the message, said on stderr, and -1. */
int bench_load_spec(const char *suite, const char *s, strata_crs_matrix_t **A, char *name, size_t name_len) {
  char err[300] = "";
  int rc;
  *A = NULL;
  if (!strncmp(s, "gen:", 4))
    rc = bench_gen(bench_cfg.serial, s + 4, bench_cfg.quick, bench_cfg.scale, bench_cfg.seed, A, name, name_len, err,
                   sizeof err);
  else {
    const char *base = strrchr(s, '/');
    snprintf(name, name_len, "%s", base ? base + 1 : s);
    rc = strata_mm_read_crs(bench_cfg.serial, s, A) ? -1 : 0;
    if (rc) snprintf(err, sizeof err, "%s", strata_error_message());
  }
  if (rc) {
    if (strncmp(s, "gen:", 4) && from_shared(s))
      input_refused_shared(suite, s, err);
    else
      bench_input_error(suite, s, err); /* err names the input */
    return -1;
  }
  return 0;
}

void bench_each_input(const char *suite, const bench_list_t *specs, bench_input_fn fn, void *ctx) {
  bench_list_t list = {0};
  bench_expand_specs(suite, specs, &list);
  for (int i = 0; i < list.n; ++i) {
    char name[160];
    strata_crs_matrix_t *A = NULL;
    if (bench_load_spec(suite, list.v[i], &A, name, sizeof name)) continue;
    bench_unique_name(suite, name, sizeof name);
    fn(A, name, ctx);
    strata_crs_destroy(&A);
  }
  bench_list_free(&list);
}

/* name made unique among the records of `suite` so far: two inputs of the same name (d1/x.mtx,
 * d2/x.mtx) get "x.mtx" and "x.mtx#2", so that the summary and the plots keep them apart */
void bench_unique_name(const char *suite, char *name, size_t cap) {
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
    for (int i = 0; i < bench_nrec && !used; ++i) used = !strcmp(bench_rec[i].suite, suite) && !strcmp(bench_rec[i].name, name);
    if (!used) return;
  }
}

/* --spmv-options: the row-class plan's thresholds (strata_spmv_options_t, strata/spmv.h) for the
 * plan's records (strata_auto and the forced algorithms; not --sweep's grid, which sets its own) */
#define SPMV_NUM_FIELDS 7 /* bench_cfg.sopt */
static const char *const spmv_field_names[SPMV_NUM_FIELDS] = {"one_level_max", "two_level_max", "three_level_max",
                                                              "split_chunk", "entries_per_lane", "stream_max",
                                                              "stream_block"};
static void spmv_fields(int64_t **f) {
  for (int i = 0; i < SPMV_NUM_FIELDS; ++i) f[i] = &bench_cfg.sopt[i];
}
void bench_spmv_options_apply(strata_spmv_options_t *o) {
  o->one_level_max = bench_cfg.sopt[0], o->two_level_max = bench_cfg.sopt[1], o->three_level_max = bench_cfg.sopt[2];
  o->split_chunk = bench_cfg.sopt[3], o->entries_per_lane = (int)bench_cfg.sopt[4], o->stream_max = bench_cfg.sopt[5];
  o->stream_block = bench_cfg.sopt[6];
  o->stream_pad = bench_cfg.spad;
}

/* ----------------------------------------------------------------------------------- suites */
static const bench_suite_t *const *selected; /* the suites of this run (bench_run), num_selected of them */
static int num_selected;
int bench_suite_selected(const char *name) {
  for (int q = 0; q < num_selected; ++q)
    if (!strcmp(selected[q]->name, name)) return 1;
  return 0;
}

/* the options that only some suites take, in the order a refusal checks them */
static const struct { const char *flag; unsigned bit; } suite_options[] = {
    {"--matrix", BENCH_OPT_MATRIX},         {"--format", BENCH_OPT_FORMAT},
    {"--sweep", BENCH_OPT_SWEEP},           {"--replicate", BENCH_OPT_REPLICATE},
    {"--unpack-options", BENCH_OPT_UNPACK_OPTIONS}, {"--spmv-options", BENCH_OPT_SPMV_OPTIONS},
    {"--mesh", BENCH_OPT_MESH},             {"--partition", BENCH_OPT_PARTITION},
    {"--no-fe", BENCH_OPT_NO_FE}};

/* The names of the suites that take option `bit` (0: every suite) into out: "a, b and c" with
 * last_sep " and " ("a|b|c" with "|"). Returns how many. */
static int suite_names(char *out, size_t n, const char *sep, const char *last_sep, unsigned bit) {
  int count = 0, k = 0;
  size_t l = 0;
  out[0] = '\0';
  for (int q = 0; bench_suites[q]; ++q) count += !bit || (bench_suites[q]->options & bit);
  for (int q = 0; bench_suites[q] && l < n; ++q) {
    if (bit && !(bench_suites[q]->options & bit)) continue;
    l += (size_t)snprintf(out + l, n - l, "%s%s", k == 0 ? "" : k == count - 1 ? last_sep : sep, bench_suites[q]->name);
    ++k;
  }
  return count;
}

/* ------------------------------------------------------------------------------------ CLI */
static void usage(FILE *f) {
  char names[256];
  suite_names(names, sizeof names, "|", "|", 0);
  fprintf(f, "usage: strata bench %s|all [options]\n", names);
  for (int q = 0; bench_suites[q]; ++q) fprintf(f, "  %-18s %s\n", bench_suites[q]->name, bench_suites[q]->help);
#if !STRATA_HAVE_MPI
  fprintf(f, "  %-18s %s\n", "(dist)", "distributed SpMV under mpirun: only in builds with MPI (this one has none)");
#endif
  fprintf(f, "  %-18s %s\n", "all", "every suite above, in this order");
  fprintf(f,
          "  --backend B        serial|openmp|cuda|hip|all, repeatable (default: every compiled backend with a device)\n"
          "  --matrix SPEC      FILE.mtx | gen:NAME[:params] | gen:all (the default) | shared (every .mtx under\n"
          "                     $STRATA_MATRICES or ../shared/matrices; files the reader refuses are skipped, said why);\n"
          "                     repeatable. Generators: poisson7:M poisson27:M laplace7:M laplace5:N (the SPD\n"
          "                     Laplacians on M^3 and N^2 grids; laplace7:MX:MY:MZ on a box) conduct5:N:DEC (2D,\n"
          "                     random conductances over DEC decades)\n"
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
          "  --partition P      dist: the rows' partition over the ranks, block (contiguous blocks, the default),\n"
          "                     metis (METIS on the graph of A + A^T, rows renumbered so that each rank's are\n"
          "                     contiguous) or auto (metis where the build has METIS), made on rank 0\n"
          "  --no-fe            dist: the matrices' records only, not the FE assembly records of the box mesh\n"
          "  --progress         one line per measurement on stderr, with the count left (default unless --quick)\n"
          "  --no-progress      no progress lines\n"
          "Exit status: 0 every result checked and timed (or skipped, said why); 2 a usage error (bad option, no\n"
          "backend to run, `dist` in a build without MPI, another suite than dist under mpirun with several ranks); 3 a result differed from its reference (serial's; unpack: sums built on the host);\n"
          "4 an input could not be built, a measurement failed or --out could not be written.\n"
          "Timing: strata_event (device events on GPUs, host clock between fences on host backends), samples of\n"
          "at least 1 ms, median over samples until --min-time; fem: whole fem_run jobs until --min-time, after 2\n"
          "runs not timed (the first one checked).\n");
}

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
 * into bench_cfg.uopt (strata_unpack_options_t; unnamed fields keep their defaults) */
static const char *const unpack_class_names[] = {"auto", "short", "medium", "long", "very_long"};
#define UNPACK_NUM_FIELDS 4
static const char *const unpack_field_names[UNPACK_NUM_FIELDS] = {"short_max", "medium_max", "long_max", "chunk"};
static void unpack_fields(int64_t **f) {
  f[0] = &bench_cfg.uopt.short_max, f[1] = &bench_cfg.uopt.medium_max, f[2] = &bench_cfg.uopt.long_max;
  f[3] = &bench_cfg.uopt.chunk;
}
static int unpack_force(const char *name, const char *val) {
  if (strcmp(name, "force")) return 0;
  int c = -1;
  for (int i = 0; i < 5; ++i) if (!strcmp(val, unpack_class_names[i])) c = i;
  if (c < 0) {
    bad_opt("--unpack-options: force=%s is not auto, short, medium, long or very_long", val);
    return -1;
  }
  bench_cfg.uopt.force_class = (strata_unpack_class_t)c;
  return 1;
}
static int parse_unpack_options(const char *v) {
  int64_t *f[UNPACK_NUM_FIELDS];
  unpack_fields(f);
  return parse_name_values("--unpack-options", v, unpack_field_names, f, UNPACK_NUM_FIELDS, INT64_MAX,
                           "2^63 - 1 = 9223372036854775807", "short_max, medium_max, long_max, chunk, force", unpack_force);
}
void bench_unpack_options_text(char *out, size_t n) {
  int64_t *f[UNPACK_NUM_FIELDS];
  unpack_fields(f);
  const size_t l = name_values_text(out, n, unpack_field_names, f, UNPACK_NUM_FIELDS);
  if (bench_cfg.uopt.force_class != STRATA_UNPACK_CLASS_AUTO && l < n)
    snprintf(out + l, n - l, "%sforce=%s", l ? "," : "", unpack_class_names[bench_cfg.uopt.force_class]);
}

size_t bench_spmv_options_text(char *out, size_t n) {
  int64_t *f[SPMV_NUM_FIELDS];
  spmv_fields(f);
  size_t l = name_values_text(out, n, spmv_field_names, f, SPMV_NUM_FIELDS);
  if (bench_cfg.spad && l < n)
    l += (size_t)snprintf(out + l, n - l, "%sstream_pad=%s", l ? "," : "", cli_stream_pad_name(bench_cfg.spad));
  return l;
}

static int spmv_stream_pad(const char *name, const char *val) {
  if (strcmp(name, "stream_pad")) return 0;
  if (cli_stream_pad_from_name(val, &bench_cfg.spad)) return 1;
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
  if (rc == 0 && bench_cfg.sopt[4] > INT_MAX)
    return bad_opt("--spmv-options: entries_per_lane=%lld exceeds the limit %d", (long long)bench_cfg.sopt[4], INT_MAX);
  return rc;
}

/* --format LIST: comma-separated names of strata/formats.h, "all" (every one, csr included) or
 * "none"; repeatable. 0, or 2 after saying what is wrong. */
static int parse_formats(const char *v) {
  char *buf = strdup(v); /* the whole list, however long */
  if (!buf) return bad_opt("--format: out of memory");
  bench_cfg.fmt_set = 1;
  for (char *t = buf, *next; t; t = next) { /* every item, the empty ones too (strtok skips them) */
    next = strchr(t, ',');
    if (next) *next++ = '\0';
    strata_format_t f;
    if (!*t) {
      free(buf);
      return bad_opt("--format '%s': an empty item (a comma-separated list of formats, all or none)", v);
    }
    if (!strcmp(t, "all"))
      for (int q = 0; q < STRATA_NUM_FORMATS; ++q) bench_cfg.fmt[q] = 1;
    else if (!strcmp(t, "none"))
      memset(bench_cfg.fmt, 0, sizeof bench_cfg.fmt);
    else if (strata_format_from_name(t, &f) == STRATA_SUCCESS)
      bench_cfg.fmt[f] = 1;
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
static int bench_run(int argc, char **argv, bench_list_t *specs_out) {
  bench_list_t *const specs = specs_out;
  memset(&bench_cfg, 0, sizeof bench_cfg);
  bench_cfg.min_time = -1;
  bench_cfg.scale = 1;
  bench_cfg.seed = 1;
  bench_cfg.replicate = 1;
  bench_cfg.progress = -1; /* default: on for full runs, off in --quick */
  const char *suite = NULL;
  int want[STRATA_NUM_BACKENDS] = {0}, any = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    static const char *const valued[] = {"--backend", "--matrix", "--replicate", "--min-time", "--seed", "--scale", "--out", "--mesh", "--partition",
                                         "--format", "--unpack-options", "--spmv-options"};
    int takes = 0;
    for (size_t q = 0; q < sizeof valued / sizeof valued[0]; ++q) takes |= !strcmp(a, valued[q]);
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else if (!strcmp(a, "--quick")) bench_cfg.quick = 1;
    else if (!strcmp(a, "--progress")) bench_cfg.progress = 1;
    else if (!strcmp(a, "--no-progress")) bench_cfg.progress = 0;
    else if (!strcmp(a, "--sweep")) bench_cfg.sweep = 1;
    else if (!strcmp(a, "--no-fe")) bench_cfg.no_fe = 1;
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
    } else if (!strcmp(a, "--matrix")) bench_list_push(specs, argv[++i]);
    else if (!strcmp(a, "--format")) {
      ++i;
      if (parse_formats(v)) return 2;
    } else if (!strcmp(a, "--unpack-options")) {
      ++i;
      if (parse_unpack_options(v)) return 2;
      bench_cfg.uopt_given = 1;
    } else if (!strcmp(a, "--spmv-options")) {
      ++i;
      if (parse_spmv_options(v)) return 2;
      bench_cfg.sopt_given = 1;
    }
    else if (!strcmp(a, "--out")) {
      bench_cfg.out = argv[++i];
      /* the files' paths, bench_cfg.out + "/spmv_pct_stream.dat" and the like (20 characters at most), are built
       * in buffers of OUT_PATH_BYTES: a longer folder name wrote cut names ("resul", "summa") beside it */
      if (strlen(bench_cfg.out) > OUT_PATH_BYTES - 32)
        return bad_opt("--out: a folder name of %zu characters; at most %d", strlen(bench_cfg.out), OUT_PATH_BYTES - 32);
    }
    else if (!strcmp(a, "--mesh")) bench_cfg.mesh = argv[++i];
    else if (!strcmp(a, "--partition")) {
      if (strcmp(v, "block") && strcmp(v, "metis") && strcmp(v, "auto"))
        return bad_opt("--partition %s: block, metis or auto (the dist suite's row partition)", v);
      bench_cfg.partition = argv[++i];
    }
    else if (!strcmp(a, "--replicate")) {
      ++i;
      if (!strcmp(v, "auto")) bench_cfg.replicate = 0;
      else {
        long k = strtol(v, &end, 10);
        if (!end || *end || end == v || k < 1 || k > 1000000) return bad_opt("--replicate %s: auto or an integer in [1, 1000000]", v);
        bench_cfg.replicate = (int)k;
      }
    } else if (!strcmp(a, "--min-time") || !strcmp(a, "--scale")) {
      double d = cli_strtod(v, &end);
      ++i;
      if (!end || *end || end == v || !(d > 0 && d < 1e6)) return bad_opt("%s %s: a positive decimal number below 1e6", a, v);
      *(!strcmp(a, "--scale") ? &bench_cfg.scale : &bench_cfg.min_time) = d;
    } else if (!strcmp(a, "--seed")) {
      ++i;
      errno = 0;
      bench_cfg.seed = strtoull(v, &end, 10);
      if (!end || *end || end == v || v[0] < '0' || v[0] > '9' || errno) /* digits only: strtoull takes " -1" as 2^64-1 */
        return bad_opt("--seed %s: an integer in [0, 2^64) (digits only)", v);
    } else if (a[0] == '-') return bad_opt("unknown option %s", a);
    else if (suite) return bad_opt("one suite only (second: %s)", a);
    else suite = a;
  }
  if (!suite) { usage(stderr); return 2; }
  const bench_suite_t *const *sel = NULL; /* the suites that run: one, or all of them */
  int nsel = 0;
  for (int q = 0; bench_suites[q]; ++q)
    if (!strcmp(suite, "all") || !strcmp(suite, bench_suites[q]->name)) {
      if (!sel) sel = &bench_suites[q];
      ++nsel;
    }
  if (!nsel && !strcmp(suite, "dist")) /* suite_dist.c: built with MPI only */
    return bad_opt("the dist suite needs MPI, and this build has none (STRATA_HAVE_MPI 0: configure with "
                   "-DSTRATA_MPI=ON and libopenmpi-dev)");
  if (!nsel) {
    char names[256];
    suite_names(names, sizeof names, ", ", ", ", 0);
    return bad_opt("unknown suite %s (%s, all)", suite, names);
  }
  unsigned takes = 0;
  for (int q = 0; q < nsel; ++q) takes |= sel[q]->options;
  /* an option for suites that do not run is refused rather than ignored */
  const unsigned given = (specs->n ? BENCH_OPT_MATRIX : 0) | (bench_cfg.fmt_set ? BENCH_OPT_FORMAT : 0) |
                         (bench_cfg.sweep ? BENCH_OPT_SWEEP : 0) | (bench_cfg.replicate != 1 ? BENCH_OPT_REPLICATE : 0) |
                         (bench_cfg.uopt_given ? BENCH_OPT_UNPACK_OPTIONS : 0) |
                         (bench_cfg.sopt_given ? BENCH_OPT_SPMV_OPTIONS : 0) | (bench_cfg.mesh ? BENCH_OPT_MESH : 0) |
                         (bench_cfg.partition ? BENCH_OPT_PARTITION : 0) | (bench_cfg.no_fe ? BENCH_OPT_NO_FE : 0);
  for (size_t q = 0; q < sizeof suite_options / sizeof suite_options[0]; ++q)
    if (given & ~takes & suite_options[q].bit) {
      char names[256];
      const int n = suite_names(names, sizeof names, ", ", " and ", suite_options[q].bit);
      return bad_opt("%s applies to the %s suite%s, not %s", suite_options[q].flag, names, n > 1 ? "s" : "", suite);
    }
  bench_inputs_t in = {specs, specs->n > 0, 0};
  /* a box mesh needs at least one cube per edge: box 0 would mean a Gmsh mesh to fem_run, not a
   * smaller box (the suite with the fewest cubes, whose smallest scale is the largest, is named) */
  const bench_suite_t *boxed = NULL;
  int edge = 0;
  for (int q = 0; q < nsel && !bench_cfg.quick; ++q) {
    const int ed = sel[q]->box_edge ? sel[q]->box_edge(&in) : 0;
    if (ed > 0 && bench_box_of_scale(ed) < 1 && (!boxed || ed < edge)) boxed = sel[q], edge = ed;
  }
  if (boxed)
    return bad_opt("--scale %g: the %s suite's box mesh would have %d x cbrt(%g) < 1 cubes per edge; the smallest "
                   "scale is %.6g (1/%d^3: box 1)", bench_cfg.scale, boxed->name, edge, bench_cfg.scale,
                   1.0 / ((double)edge * edge * edge), edge);
  selected = sel, num_selected = nsel;
  if (bench_cfg.min_time < 0) bench_cfg.min_time = bench_cfg.quick ? 0.05 : 0.5;
  if (bench_cfg.progress < 0) bench_cfg.progress = !bench_cfg.quick;
  if (!specs->n) bench_list_push(specs, "gen:all");
  if (!bench_cfg.fmt_set) /* default: every implemented format but csr (the plan, measured as strata_auto) */
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f) bench_cfg.fmt[f] = f != STRATA_FORMAT_CSR;
  if (strata_exec_default(STRATA_BACKEND_SERIAL, &bench_cfg.serial)) {
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
    bench_cfg.be[bench_cfg.nb] = (strata_backend_t)b;
    bench_cfg.ex[bench_cfg.nb++] = e;
  }
  if (!bench_cfg.nb) return bad_opt("no backend to run (those given are not compiled in or have no device)");
  { /* under a launcher with several ranks only the dist suite runs (it starts MPI and refuses the
       others beside it); without dist, every rank would run the same single-process suites */
    const char *ws = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE") : getenv("PMI_SIZE");
    const char *wr = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
    const long size = ws ? strtol(ws, NULL, 10) : 1;
    int has_dist = 0;
    for (int q = 0; q < nsel; ++q) has_dist |= strcmp(sel[q]->name, "dist") == 0;
    if (size > 1 && !has_dist && nsel > 0) {
      if (!wr || strtol(wr, NULL, 10) == 0)
        fprintf(stderr, "strata bench: under mpirun with %ld ranks only the dist suite runs (the %s suite is "
                "single-process; run it without mpirun)\n", size, sel[0]->name);
      return 2;
    }
  }
  for (int q = 0; q < nsel; ++q) { /* what a suite starts before the run writes anything (dist: MPI) */
    const int rc = sel[q]->start ? sel[q]->start() : 0;
    if (rc) return rc;
  }
  bench_cfg.json = stdout;
  if (bench_cfg.out) {
    char path[OUT_PATH_BYTES];
    if (mkdir(bench_cfg.out, 0777) && errno != EEXIST) {
      fprintf(stderr, "strata bench: --out %s: %s\n", bench_cfg.out, strerror(errno));
      return 4;
    }
    snprintf(path, sizeof path, "%s/results.jsonl", bench_cfg.out);
    if (!(bench_cfg.json = fopen(path, "w"))) {
      fprintf(stderr, "strata bench: %s: %s\n", path, strerror(errno));
      return 4;
    }
  }
  bench_cfg.t_start = strata_timer_now();
  /* the progress line's estimate of the measurements to come (matrices from files count as one) */
  for (int i = 0; i < specs->n; ++i) {
    if (!strcmp(specs->v[i], "gen:all"))
      for (int g = 0; bench_gen_names[g]; ++g) ++in.matrices;
    else ++in.matrices;
  }
  for (int q = 0; q < nsel; ++q) bench_cfg.total += sel[q]->estimate(&in);
  if (!bench_cfg.silent) {
    fprintf(stderr, "strata bench: timing method:");
    for (int bi = 0; bi < bench_cfg.nb; ++bi)
      fprintf(stderr, " %s: %s;", strata_backend_name(bench_cfg.be[bi]), bench_time_method(bench_cfg.ex[bi]));
    fprintf(stderr, " samples >= 1 ms, median over >= 5 samples and --min-time %.3g s\n", bench_cfg.min_time);
  }
  for (int q = 0; q < nsel; ++q) sel[q]->run(&in);
  if (bench_cfg.out) {
    char path[OUT_PATH_BYTES];
    snprintf(path, sizeof path, "%s/results.jsonl", bench_cfg.out);
    bench_out_close(bench_cfg.json, path);
    snprintf(path, sizeof path, "%s/summary.txt", bench_cfg.out);
    FILE *f = bench_out_open(path);
    if (f) bench_report_summary(f), bench_out_close(f, path);
    bench_report_plots();
  }
  bench_report_summary(stdout);
  errno = 0;
  /* flushed before whatever the process prints at exit (LeakSanitizer's report) can cut the last
   * line; a stdout that could not be written (full disk, closed pipe) is an error (exit 4) */
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "strata bench: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
    ++bench_cfg.write_errors;
  }
  int bad = 0, errors = bench_cfg.write_errors; /* exit status: 3 a wrong result, 4 an input, a measurement or an output that failed */
  for (int i = 0; i < bench_nrec; ++i) bad += bench_rec[i].ok == 0, errors += bench_rec[i].ok == -1;
  bench_records_free();
  selected = NULL, num_selected = 0;
  return bad ? 3 : errors ? 4 : 0;
}

int cmd_bench(int argc, char **argv) {
  bench_list_t specs = {0};
  const int rc = bench_run(argc, argv, &specs);
  bench_list_free(&specs);
  return rc;
}
