/* strata spmv — y = alpha·op(A)·x + beta·y on a Matrix Market matrix, through the row-class plan.
 * Prints the row classes, the median time of --repeat applications and GB/s by the
 * minimal-traffic model 12·nnz + 4·(rows+1) + 8·cols + 8·rows (+ 8·rows when beta != 0). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_dist.h"
#include "cli_error.h"
#include "cli_host.h"
#include "cli_json.h"
#include "cli_spmv.h"
#include "strata/sparse.h"

int cmd_spmv(int argc, char **argv);

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* a host allocation that failed: what and how many bytes (status 1, as the other errors) */
static int out_of_memory(const char *what, size_t bytes) {
  fprintf(stderr, "strata spmv: out of host memory: %s needs %zu bytes\n", what, bytes);
  return 1;
}

/* The run's memory from the file's sizes, before A is built: A (64-bit row offsets, 12 bytes an
 * entry) and x, y on the host (x; y before and after) and on the device (on host backends the
 * same memory). Refused when above the machine's physical memory: the vectors are allocated
 * lazily (Linux overcommits), and a three-line file declaring 2^31 - 1 rows ran for minutes at
 * 15 GB before the kernel would have killed it (a review). Returns 1 after the message. */
static int too_big(const strata_coo_t *coo, int transpose) {
  const double rows = (double)coo->num_rows, cols = (double)coo->num_cols, nnz = (double)coo->nnz;
  const double nx = transpose ? rows : cols, ny = transpose ? cols : rows;
  const double need = 8 * (rows + 1) + 12 * nnz + (transpose ? 40 * nnz + 8 * (cols + 1) : 0) + 16 * (nx + 1) +
                      24 * (ny + 1);
  const double phys = cli_physical_memory();
  if (phys <= 0 || need <= phys) return 0;
  fprintf(stderr,
          "strata spmv: a %d x %d matrix with %lld entries%s needs about %.3g bytes (A, x and y on the host and "
          "the device), above the %.3g bytes of physical memory\n",
          coo->num_rows, coo->num_cols, (long long)coo->nnz, transpose ? " and its transpose" : "", need, phys);
  return 1;
}

#define bad(...) cli_usage_error("strata spmv", "", __VA_ARGS__)

static int fail(strata_status_t st) {
  fprintf(stderr, "strata spmv: %s: %s\n", strata_status_name(st), strata_error_message());
  return 1;
}

static const char *level_name(strata_spmv_level_t l) {
  return l == STRATA_SPMV_LEVEL_ONE ? "one-level" : l == STRATA_SPMV_LEVEL_TWO ? "two-level"
         : l == STRATA_SPMV_LEVEL_THREE                                          ? "three-level"
         : l == STRATA_SPMV_LEVEL_SPLIT                                          ? "split"
                                                                                 : "stream";
}

#define CHECK(call)                  \
  do {                               \
    st = (call);                     \
    if (st != STRATA_SUCCESS) {      \
      rc = fail(st);                 \
      goto done;                     \
    }                                \
  } while (0)

int cmd_spmv(int argc, char **argv) {
  /* under mpirun with several ranks, or asked for: the distributed SpMV (apps/dist_cmd.c) */
  int dist = cli_dist_size() > 1;
  for (int i = 0; i < argc; ++i) dist |= !strcmp(argv[i], "--dist-mode") || !strcmp(argv[i], "--partition");
  if (dist) return cmd_spmv_dist(argc, argv);
  const char *path = NULL, *xspec = "ones", *ypath = NULL, *out = NULL;
  double alpha = 1.0, beta = 0.0;
  static const char *const alg_names[] = {"auto", "one", "two", "three", "split", "stream"}; /* --algorithm */
  int json = 0, repeat = 10;
  strata_backend_t backend = STRATA_BACKEND_DEFAULT;
  strata_format_t format = STRATA_FORMAT_CSR; /* csr: the row-class plan (with --algorithm, --transpose) */
  int alg_given = 0;
  strata_spmv_options_t o;
  memset(&o, 0, sizeof o);
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    static const char *const valued[] = {"--x", "--y", "--out", "--alpha", "--beta", "--repeat", "--backend", "--algorithm", "--format",
                                         "--stream-pad"};
    int takes = 0;
    for (size_t q = 0; q < sizeof valued / sizeof valued[0]; ++q) takes |= !strcmp(a, valued[q]);
    if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--transpose")) o.transpose = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf("usage: strata spmv A.mtx [--x ones|random:SEED|FILE.mtx] [--alpha A] [--beta B] [--y FILE.mtx]\n"
             "       [--transpose] [--backend B] [--algorithm auto|one|two|three|split|stream] [--format NAME] [--repeat N]\n"
             "       [--stream-pad auto|always|never] [--out y.mtx] [--json]\n"
             "  y = alpha op(A) x + beta y0; y0 is --y (needs a nonzero --beta) or zeros; alpha and beta are finite\n"
             "  decimal numbers (default 1 and 0)\n"
             "  formats: csr (the row-class plan; --algorithm, --transpose, --stream-pad apply to it only), ell, ellpack-r,\n"
             "           pjds, sell-c-sigma, sell-p, coo, hyb, hec, csr-lb, merge, auto (strata/formats.h)\n"
             "  --json: one line; \"classes\" has the plan's row classes: rows of min_len..max_len entries each\n"
             "          (max_len null: no upper bound; the stream class, GPU auto or --algorithm stream, also holds\n"
             "          longer rows that end inside their window), their lanes per row (vector_length), team size,\n"
             "          count, stored entries, and padded: the stream kernel's padded scratch; \"stream_pad\": as asked\n"
             "  --stream-pad: the stream kernel's team scratch with one unused double after every 16 products\n"
             "          (strata/spmv.h, stream_pad): auto (the default) pads on GPUs where rows would start in a few\n"
             "          shared-memory bank pairs; always pads, never does not; either only where the stream kernel\n"
             "          runs alone (no rows beside it in a fused launch) and the padded scratch fits, and not with\n"
             "          --algorithm one, two, three or split (no stream class)\n");
      return 0;
    } else if (takes && (!v || (v[0] == '-' && v[1] == '-'))) return bad("option %s needs a value", a);
    else if (!strcmp(a, "--x")) xspec = argv[++i];
    else if (!strcmp(a, "--y")) ypath = argv[++i];
    else if (!strcmp(a, "--out")) out = argv[++i];
    else if (!strcmp(a, "--alpha") || !strcmp(a, "--beta")) {
      double d = cli_strtod(v, &end);
      if (!end || *end || end == v || !isfinite(d)) return bad("%s %s: not a finite decimal number", a, v);
      *(!strcmp(a, "--alpha") ? &alpha : &beta) = d;
      ++i;
    } else if (!strcmp(a, "--repeat")) {
      errno = 0;
      long r = strtol(v, &end, 10);
      if (!end || *end || end == v || errno || r < 1 || r > 1000000) return bad("--repeat %s: an integer in [1, 1000000]", v);
      repeat = (int)r;
      ++i;
    } else if (!strcmp(a, "--backend")) {
      if (strata_backend_from_name(v, &backend) != STRATA_SUCCESS) return bad("--backend %s: %s", v, strata_error_message());
      ++i;
    } else if (!strcmp(a, "--format")) {
      if (strata_format_from_name(v, &format) != STRATA_SUCCESS) return bad("--format %s: %s", v, strata_error_message());
      ++i;
    } else if (!strcmp(a, "--algorithm")) {
      int found = -1;
      for (int k = 0; k < 6; ++k)
        if (!strcmp(v, alg_names[k])) found = k;
      if (found < 0) return bad("--algorithm %s: one of auto, one, two, three, split, stream", v);
      o.algorithm = (strata_spmv_algorithm_t)found;
      alg_given = found != 0; /* auto, the default, goes with every format */
      ++i;
    } else if (!strcmp(a, "--stream-pad")) {
      if (!cli_stream_pad_from_name(v, &o.stream_pad)) return bad("--stream-pad %s: one of auto, always, never", v);
      ++i;
    } else if (a[0] == '-' && a[1] != '\0') return bad("unknown option %s (strata spmv --help)", a);
    else if (path) return bad("one matrix file only (second: %s)", a);
    else path = a;
  }
  if (!path) return bad("%s", "usage: strata spmv A.mtx [--x ones|random:SEED|FILE.mtx] [--alpha A] [--beta B] [--y FILE.mtx] [--transpose] [--backend B] [--algorithm auto|one|two|three|split|stream] [--format NAME] [--repeat N] [--stream-pad auto|always|never] [--out y.mtx] [--json] (strata spmv --help)");
  if (ypath && beta == 0.0) /* DESIGN §4: beta = 0 does not read y; the file would be dropped unread */
    return bad("--y %s: beta is 0 (the default, or as given), so y0 would not be read (y = alpha op(A) x); give a nonzero --beta", ypath);
  if (o.stream_pad && o.algorithm != STRATA_SPMV_AUTO && o.algorithm != STRATA_SPMV_STREAM)
    return bad("--stream-pad %s: --algorithm %s has no stream class (the padding is the stream kernel's)",
               cli_stream_pad_name(o.stream_pad), alg_names[o.algorithm]);
  if (format != STRATA_FORMAT_CSR && (alg_given || o.transpose || o.stream_pad))
    return bad("--format %s: --algorithm (other than auto), --transpose and --stream-pad (other than auto) are available "
               "with the csr format only", strata_format_name(format));

  int rc = 0;
  strata_status_t st;
  strata_exec_t *e = NULL;
  strata_crs_matrix_t *A = NULL;
  strata_spmv_plan_t *plan = NULL;
  strata_sparse_format_t *fm = NULL;
  double *x = NULL, *y0 = NULL, *y = NULL, *dx = NULL, *dy = NULL, *times = NULL;
  CHECK(strata_exec_default(backend, &e));
  /* the file read once (a pipe cannot be read twice), kept as COO until A is built, so that the
   * output can say how the file's entries became A's (symmetric storage mirrored, duplicates
   * summed: strata_mm_coo_to_crs) */
  strata_mm_header_t hdr;
  int64_t expanded = 0;
  {
    strata_coo_t *coo = NULL;
    CHECK(strata_mm_read_coo(path, &coo));
    hdr = coo->header;
    expanded = coo->nnz;
    if (too_big(coo, o.transpose)) {
      strata_coo_destroy(&coo);
      rc = 1;
      goto done;
    }
    st = strata_mm_coo_to_crs(e, coo, &A);
    strata_coo_destroy(&coo);
    CHECK(st);
  }
  const int32_t nx = o.transpose ? A->num_rows : A->num_cols, ny = o.transpose ? A->num_cols : A->num_rows;
  /* x */
  if (!strcmp(xspec, "ones") || !strncmp(xspec, "random:", 7)) {
    x = (double *)malloc(((size_t)nx + 1) * sizeof(double));
    if (!x) {
      rc = out_of_memory("x", ((size_t)nx + 1) * sizeof(double));
      goto done;
    }
    uint64_t seed = 0;
    int random = 0;
    if (!cli_x_spec(xspec, &random, &seed)) {
      rc = bad("--x %s: random:SEED with a seed in [0, 2^64)", xspec);
      goto done;
    }
    cli_x_fill(random, seed, nx, x);
  } else {
    int32_t n = 0;
    CHECK(strata_mm_read_vector(xspec, &n, &x));
    if (n != nx) {
      rc = 2;
      fprintf(stderr, "strata spmv: --x %s has %d entries, op(A) has %d columns\n", xspec, n, nx);
      goto done;
    }
  }
  y0 = (double *)calloc((size_t)ny + 1, sizeof(double));
  if (!y0) {
    rc = out_of_memory("y0", ((size_t)ny + 1) * sizeof(double));
    goto done;
  }
  if (ypath) {
    int32_t n = 0;
    double *yf = NULL;
    CHECK(strata_mm_read_vector(ypath, &n, &yf));
    if (n != ny) {
      free(yf);
      rc = 2;
      fprintf(stderr, "strata spmv: --y %s has %d entries, op(A) has %d rows\n", ypath, n, ny);
      goto done;
    }
    if (ny > 0) memcpy(y0, yf, (size_t)ny * sizeof(double)); /* n = 0: the reader gives NULL */
    free(yf);
  }
  y = (double *)malloc(((size_t)ny + 1) * sizeof(double));
  times = (double *)malloc((size_t)repeat * sizeof(double));
  if (!x && nx > 0) { /* a file of 0 entries reads as NULL (strata_mm_read_vector) */
    rc = out_of_memory("x", (size_t)nx * sizeof(double));
    goto done;
  }
  if (!y || !times) {
    rc = out_of_memory(!y ? "y" : "the timings", !y ? ((size_t)ny + 1) * sizeof(double) : (size_t)repeat * sizeof(double));
    goto done;
  }
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)nx * sizeof(double), (void **)&dx));
  CHECK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)ny * sizeof(double), (void **)&dy));
  CHECK(strata_mem_copy(e, dx, x, (size_t)nx * sizeof(double)));
  if (format == STRATA_FORMAT_CSR) CHECK(strata_spmv_plan_create(e, A, &o, &plan));
  else CHECK(strata_format_create(e, A, format, NULL, &fm));
  for (int r = 0; r < repeat; ++r) { /* y is reset each time, so every run computes the same y */
    CHECK(strata_mem_copy(e, dy, y0, (size_t)ny * sizeof(double)));
    double t0 = strata_timer_now();
    if (fm)
      CHECK(strata_format_spmv(e, fm, alpha, dx, beta, dy));
    else
      CHECK(strata_spmv_plan_apply(e, plan, alpha, A, dx, beta, dy));
    CHECK(strata_exec_fence(e));
    times[r] = strata_timer_now() - t0;
  }
  CHECK(strata_mem_copy(e, y, dy, (size_t)ny * sizeof(double)));
  qsort(times, (size_t)repeat, sizeof(double), cmp_d);
  const double t = times[repeat / 2];
  const double bytes = 12.0 * (double)A->nnz + 4.0 * ((double)ny + 1) + 8.0 * nx + 8.0 * ny + (beta != 0 ? 8.0 * ny : 0);
  if (out) CHECK(strata_mm_write_vector(out, ny, y));
  double sum = 0, norm = 0, maxabs = 0;
  for (int32_t i = 0; i < ny; ++i) {
    sum += y[i];
    maxabs = isnan(maxabs) || isnan(y[i]) ? NAN : fmax(maxabs, fabs(y[i])); /* a NaN in y shows */
  }
  /* the 2-norm scaled by max |y| (as LAPACK's dnrm2): y^2 would overflow above 1e154 and vanish
   * below 1e-162 */
  if (isnan(maxabs) || isinf(maxabs) || maxabs == 0) {
    norm = maxabs;
  } else {
    for (int32_t i = 0; i < ny; ++i) norm += (y[i] / maxabs) * (y[i] / maxabs);
    norm = maxabs * sqrt(norm);
  }
  int nc = 0; /* the row classes belong to the csr plan */
  strata_spmv_class_t cls[STRATA_SPMV_MAX_CLASSES];
  if (plan) CHECK(strata_spmv_plan_classes(plan, &nc, cls));
  strata_format_footprint_t fp;
  memset(&fp, 0, sizeof fp);
  fp.bytes = (size_t)(A->num_rows + 1) * sizeof(int64_t) + (size_t)A->nnz * (sizeof(int32_t) + sizeof(double));
  fp.stored = A->nnz;
  strata_format_t chosen = format; /* auto: the format its heuristic picked */
  if (fm) CHECK(strata_format_info(fm, &chosen, &fp));
  if (json) {
    char b1[40], b2[40], b3[40], b4[40];
    const size_t pj_bytes = 6 * strlen(path) + 1; /* a byte escaped takes at most 6 (\u00XX, \ufffd) */
    char *path_json = (char *)malloc(pj_bytes);   /* the whole path, however long (PATH_MAX is 4096) */
    if (!path_json) {
      rc = out_of_memory("the JSON path", pj_bytes);
      goto done;
    }
    cli_json_escape(path_json, pj_bytes, path);
    printf("{\"matrix\": \"%s\", \"backend\": \"%s\", \"rows\": %d, \"cols\": %d, \"nnz\": %lld, \"transpose\": %s, "
           "\"format\": \"%s\", \"format_chosen\": \"%s\", \"format_bytes\": %zu, \"format_stored\": %lld, "
           "\"format_padding\": %lld, \"format_overhead\": %.6f, \"file_entries\": %lld, \"file_symmetric\": %s, "
           "\"duplicates_summed\": %lld, \"stream_pad\": \"%s\", "
           "\"classes\": [", path_json,
           strata_backend_name(strata_exec_backend(e)), A->num_rows, A->num_cols, (long long)A->nnz,
           o.transpose ? "true" : "false", strata_format_name(format), strata_format_name(chosen), fp.bytes, (long long)fp.stored, (long long)fp.padding, fp.overhead,
           (long long)hdr.num_stored, hdr.symmetry != STRATA_MM_GENERAL ? "true" : "false",
           (long long)(expanded - A->nnz), cli_stream_pad_name(o.stream_pad));
    free(path_json);
    for (int c = 0, first = 1; c < nc; ++c) {
      if (!cls[c].num_rows) continue;
      char hi[32] = "null"; /* no upper bound (INT64_MAX): null, as the JSON's other "none" values */
      if (cls[c].max_len != INT64_MAX) snprintf(hi, sizeof hi, "%lld", (long long)cls[c].max_len);
      printf("%s{\"level\": \"%s\", \"vector_length\": %d, \"team_size\": %d, \"min_len\": %lld, \"max_len\": %s, \"rows\": %lld, "
             "\"entries\": %lld, \"padded\": %s}",
             first ? "" : ", ", level_name(cls[c].level), cls[c].vector_length, cls[c].team_size,
             (long long)cls[c].min_len, hi, (long long)cls[c].num_rows, (long long)cls[c].num_entries,
             cls[c].padded ? "true" : "false");
      first = 0;
    }
    printf("], \"repeat\": %d, \"median_time_s\": %.9f, \"gbytes_per_s\": %s, \"y_sum\": %s, \"y_norm2\": %s, "
           "\"y_max_abs\": %s}\n", repeat, t, cli_json_number(b1, sizeof b1, "%.3f", bytes / t / 1e9),
           cli_json_number(b2, sizeof b2, "%.17g", sum), cli_json_number(b3, sizeof b3, "%.17g", norm),
           cli_json_number(b4, sizeof b4, "%.17g", maxabs));
  } else {
    char from[200] = "", dup[64] = ""; /* how the file's entries became A's, when their counts differ */
    const int64_t ndup = expanded - A->nnz;
    if (ndup > 0) snprintf(dup, sizeof dup, ": %lld duplicate%s summed", (long long)ndup, ndup > 1 ? "s" : "");
    if (expanded != hdr.num_stored)
      snprintf(from, sizeof from, " (%lld stored in the file, %lld after symmetric mirroring%s)",
               (long long)hdr.num_stored, (long long)expanded, dup);
    else if (ndup > 0)
      snprintf(from, sizeof from, " (%lld stored in the file%s)", (long long)hdr.num_stored, dup);
    printf("strata spmv %s: %d x %d, %lld entries%s, backend %s%s\n", path, A->num_rows, A->num_cols, (long long)A->nnz,
           from, strata_backend_name(strata_exec_backend(e)), o.transpose ? ", y = alpha A^T x + beta y" : "");
    for (int c = 0; c < nc; ++c) {
      if (!cls[c].num_rows) continue;
      char hi[32] = "inf";
      if (cls[c].max_len != INT64_MAX) snprintf(hi, sizeof hi, "%lld", (long long)cls[c].max_len);
      printf("  class %-11s lanes %2d team %3d  rows of %lld..%s entries%s: %lld rows, %lld entries%s\n",
             level_name(cls[c].level), cls[c].vector_length, cls[c].team_size, (long long)cls[c].min_len, hi,
             cls[c].level == STRATA_SPMV_LEVEL_STREAM ? " (and longer ones ending in their window)" : "",
             (long long)cls[c].num_rows, (long long)cls[c].num_entries, cls[c].padded ? ", padded scratch" : "");
    }
    printf("  format %s%s%s%s: %zu bytes, %lld stored entries (%lld padding, %.1f %% of nnz)\n", strata_format_name(format),
           chosen != format ? " (chose " : "", chosen != format ? strata_format_name(chosen) : "", chosen != format ? ")" : "",
           fp.bytes, (long long)fp.stored, (long long)fp.padding, 100.0 * fp.overhead);
    printf("  median of %d: %.3f ms, %.1f GB/s (minimal traffic)\n", repeat, 1e3 * t, bytes / t / 1e9);
    printf("  y: sum %.17g, 2-norm %.17g, max |y| %.17g\n", sum, norm, maxabs);
  }
  if (cli_stdout_failed("strata spmv")) rc = 1; /* the result is lost: an error as the others */
done:
  if (e) {
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dx);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dy);
  }
  strata_spmv_plan_destroy(&plan);
  strata_format_destroy(&fm);
  strata_crs_destroy(&A);
  free(x);
  free(y0);
  free(y);
  free(times);
  return rc;
}
