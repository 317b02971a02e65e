/* strata h2 — an H² matrix of a kernel on a point set (strata/hmatrix.h): built on the device,
 * Y = A·X timed, checked against exact rows computed on the device. Exit codes: 0 done, 1 an input
 * error (files, their values), 2 a usage error, 3 a product that is not finite (the sampled error
 * is NaN or infinite). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "strata/hmatrix.h"
#include "strata/mmio.h"

int cmd_h2(int argc, char **argv);

#define CMD "strata h2"
#define bad(...) cli_usage_error(CMD, "", __VA_ARGS__)

static const char *const kernel_names[] = {"exp", "gauss", "matern32"};

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata h2 --points SPEC [--kernel K:L] [--leaf M] [--cheb P] [--eta E] [--vectors NV]\n"
          "       [--x ones|random:SEED|FILE.mtx] [--samples R] [--repeat N] [--seed S] [--backend B]\n"
          "       [--compress EPS] [--out y.mtx] [--points-out p.mtx] [--json]\n"
          "  builds the H² approximation of A[i][j] = K(x_i, x_j) (Chebyshev interpolation, rank P^d) on\n"
          "  the device, times Y = A X and checks it against exact rows computed on the device\n"
          "  --points   2d:N | 3d:N (uniform in the unit square / cube, seed --seed, default 1),\n"
          "             grid2d:N | grid3d:N (the first N points of a regular grid on [0, 1]^d),\n"
          "             or FILE.mtx (an n x d Matrix Market array, d = 2 or 3, one point per row);\n"
          "             at least one point: N = 0 is a usage error (exit 2), a file of 0 rows an input\n"
          "             error (exit 1) — the library takes n = 0 (an empty product), the command has nothing to time\n"
          "  --kernel   exp:L (exp(-r/L)), gauss:L (exp(-(r/L)^2)), matern32:L ((1 + sqrt3 r/L) exp(-sqrt3 r/L));\n"
          "             L finite and > 0 (default exp:0.1)\n"
          "  --leaf     leaf size M >= 1 (64)      --cheb  P in [1, 16] (8 in 2D, 5 in 3D)\n"
          "  --eta      admissibility: (diam_s + diam_t) / 2 <= E dist(centers), E finite and > 0 (1.0)\n"
          "  --vectors  NV >= 1 columns of X (1; a FILE.mtx for --x gives its columns)\n"
          "  --x        ones (default), random:SEED (uniform in [-1, 1)) or an n x NV Matrix Market array\n"
          "  --compress recompresses A to the relative tolerance EPS (finite, > 0) before the product:\n"
          "             orthogonalization, weights, truncation by pivoted QR (strata_h2_compress);\n"
          "             ranks per level before and after, the low-rank bytes the new ranks need, the time,\n"
          "             GFLOP/s (nominal LAPACK counts) and the error before; the product and its error are\n"
          "             then the compressed matrix's; EPS >= 1 may drop every low-rank block (ranks 0: only the\n"
          "             dense near field is left, an approximation within EPS of ||A||)\n"
          "  --samples  rows of the exact check (100; all rows when n is at most that)\n"
          "  --repeat   timed products (10; the median is reported, after one warm-up)\n"
          "  --backend  serial|openmp|cuda|hip|default\n"
          "  --out      writes Y (n x NV Matrix Market array, the points' order)\n"
          "  --points-out  writes the points (n x d Matrix Market array, their order)\n"
          "  --json     one JSON object: sizes, blocks per level, storage bytes, times, GB/s, error\n"
          "  GB/s counts the bytes of U, E, S and D read once plus X read and Y written once\n");
}

static double parse_positive(const char *s, int *ok) {
  char *end = NULL;
  const double v = cli_strtod(s, &end);
  *ok = end && end != s && !*end && isfinite(v) && v > 0;
  return v;
}

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* writes Y (n x nv, column-major: the Matrix Market array order) */
static int write_array(const char *path, int64_t n, int nv, const double *y) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, CMD ": --out %s: cannot open for writing: %s\n", path, strerror(errno));
    return 1;
  }
  fprintf(f, "%%%%MatrixMarket matrix array real general\n%lld %d\n", (long long)n, nv);
  for (int64_t e = 0; e < n * nv; ++e) fprintf(f, "%.17g\n", y[e]);
  const int err = ferror(f);
  if (fclose(f) != 0 || err) {
    fprintf(stderr, CMD ": --out %s: write failed: %s\n", path, strerror(errno ? errno : EIO));
    return 1;
  }
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* X from --x: ones, random:SEED or a file (whose columns set *nv unless given; then they must agree) */
static int make_x(const char *spec, int64_t n, int *nv, int nv_given, double **X) {
  *X = NULL;
  if (!strncmp(spec, "random:", 7) || !strcmp(spec, "ones")) {
    double *x = (double *)malloc((size_t)(n * *nv > 0 ? n * *nv : 1) * sizeof(double));
    if (!x) {
      fprintf(stderr, CMD ": out of host memory: X of %lld x %d\n", (long long)n, *nv);
      return 1;
    }
    uint64_t s = strncmp(spec, "random:", 7) ? 0 : strtoull(spec + 7, NULL, 10);
    for (int64_t e = 0; e < n * *nv; ++e) x[e] = spec[0] == 'o' ? 1.0 : 2.0 * ((double)(splitmix(&s) >> 11) * 0x1.0p-53) - 1.0;
    *X = x;
    return 0;
  }
  strata_coo_t *coo = NULL;
  strata_status_t st = strata_mm_read_coo(spec, &coo);
  if (st) {
    fprintf(stderr, CMD ": --x %s: %s\n", spec, strata_error_message());
    return 1;
  }
  int rc = 0;
  if (coo->header.format != STRATA_MM_ARRAY || coo->num_rows != n || (nv_given && coo->num_cols != *nv) || coo->num_cols < 1) {
    fprintf(stderr, CMD ": --x %s is a %d x %d %s: X must be an n x NV array (n = %lld, NV = %s%d)\n", spec, (int)coo->num_rows,
            (int)coo->num_cols, coo->header.format == STRATA_MM_ARRAY ? "array" : "coordinate file", (long long)n,
            nv_given ? "" : "any >= ", nv_given ? *nv : 1);
    rc = 1;
  } else {
    *nv = coo->num_cols;
    double *x = (double *)calloc((size_t)(n * *nv > 0 ? n * *nv : 1), sizeof(double));
    if (!x) {
      fprintf(stderr, CMD ": out of host memory: X of %lld x %d\n", (long long)n, *nv);
      rc = 1;
    } else {
      for (int64_t e = 0; e < coo->nnz; ++e) x[coo->rows[e] + (int64_t)coo->cols[e] * n] = coo->values[e];
      for (int64_t e = 0; e < n * *nv && !rc; ++e)
        if (!isfinite(x[e])) {
          fprintf(stderr, CMD ": --x %s: X(%lld, %lld) = %g is not finite\n", spec, (long long)(e % n), (long long)(e / n), x[e]);
          rc = 1;
        }
      if (rc) free(x);
      else *X = x;
    }
  }
  strata_coo_destroy(&coo);
  return rc;
}

/* the point set of --points: a generator spec or a file; 0 done, else the exit code */
static int make_points(const char *spec, uint64_t seed, strata_points_t **P) {
  static const char *const gens[] = {"2d:", "3d:", "grid2d:", "grid3d:"};
  for (int g = 0; g < 4; ++g) {
    const size_t len = strlen(gens[g]);
    if (strncmp(spec, gens[g], len)) continue;
    char *end = NULL;
    errno = 0;
    const long long n = strtoll(spec + len, &end, 10);
    if (!end || end == spec + len || *end || errno == ERANGE || n < 0 || n > ((long long)1 << 40))
      return bad("--points %s: N must be an integer in [1, %lld]", spec, (long long)1 << 40);
    if (n == 0) return bad("--points %s: no points (N must be at least 1)", spec);
    const int dim = g % 2 == 0 ? 2 : 3;
    const strata_status_t st = g < 2 ? strata_points_create_random(dim, n, seed, P) : strata_points_create_grid(dim, n, P);
    if (st) {
      fprintf(stderr, CMD ": --points %s: %s\n", spec, strata_error_message());
      return 1;
    }
    return 0;
  }
  const strata_status_t st = strata_points_read(spec, P);
  if (st) {
    const char *colon = strchr(spec, ':');
    if (st == STRATA_ERR_IO && colon && !strchr(spec, '/') && !strstr(spec, ".mtx")) /* a spec mistyped, most likely */
      fprintf(stderr, CMD ": --points %s: neither a generator (2d:N, 3d:N, grid2d:N, grid3d:N; '%.*s:' is none of them) nor a "
                      "readable file (%s)\n", spec, (int)(colon - spec), spec, strata_error_message());
    else
      fprintf(stderr, CMD ": --points %s: %s\n", spec, strata_error_message());
    return 1;
  }
  if ((*P)->n == 0) {
    fprintf(stderr, CMD ": --points %s: no points (the file has 0 rows; at least 1 needed)\n", spec);
    strata_points_destroy(P);
    return 1;
  }
  return 0;
}

int cmd_h2(int argc, char **argv) {
  const char *pspec = NULL, *kspec = "exp:0.1", *xspec = "ones", *out = NULL, *pout = NULL;
  int json = 0, leaf = 64, cheb = 0, nv = 1, nv_given = 0, samples = 100, repeat = 10, seed = 1;
  double eta = 1.0, eps = 0.0;
  strata_backend_t backend = STRATA_BACKEND_DEFAULT;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    static const char *const valued[] = {"--points", "--kernel", "--leaf", "--cheb", "--eta", "--vectors", "--x", "--samples",
                                         "--repeat", "--seed", "--backend", "--out", "--points-out", "--compress"};
    const int takes = cli_takes_value(a, valued, sizeof valued / sizeof valued[0]);
    if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    else if (takes && (!v || (v[0] == '-' && v[1] == '-'))) return bad("option %s needs a value", a);
    else if (takes) {
      ++i;
      int ok = 1;
      if (!strcmp(a, "--points")) pspec = v;
      else if (!strcmp(a, "--kernel")) kspec = v;
      else if (!strcmp(a, "--x")) xspec = v;
      else if (!strcmp(a, "--out")) out = v;
      else if (!strcmp(a, "--points-out")) pout = v;
      else if (!strcmp(a, "--leaf")) ok = cli_int_option(CMD, a, v, 1, INT_MAX, &leaf);
      else if (!strcmp(a, "--cheb")) ok = cli_int_option(CMD, a, v, 1, 16, &cheb);
      else if (!strcmp(a, "--vectors")) ok = cli_int_option(CMD, a, v, 1, 1024, &nv), nv_given = 1;
      else if (!strcmp(a, "--samples")) ok = cli_int_option(CMD, a, v, 1, INT_MAX, &samples);
      else if (!strcmp(a, "--repeat")) ok = cli_int_option(CMD, a, v, 1, 100000, &repeat);
      else if (!strcmp(a, "--seed")) ok = cli_int_option(CMD, a, v, 0, INT_MAX, &seed);
      else if (!strcmp(a, "--eta")) {
        eta = parse_positive(v, &ok);
        if (!ok) return bad("--eta %s: must be a finite decimal number > 0", v);
      } else if (!strcmp(a, "--compress")) {
        eps = parse_positive(v, &ok);
        if (!ok) return bad("--compress %s: EPS must be a finite decimal number > 0", v);
      } else if (strata_backend_from_name(v, &backend) != STRATA_SUCCESS) /* --backend */
        return bad("--backend %s: %s", v, strata_error_message());
      if (!ok) return 2;
    } else return bad("unknown option %s (strata h2 --help)", a);
  }
  if (!pspec) return bad("%s", "no points: --points 2d:N|3d:N|grid2d:N|grid3d:N|FILE.mtx is required (strata h2 --help)");
  int kind = -1;
  double length = 0;
  for (int q = 0; q < 3; ++q) {
    const size_t len = strlen(kernel_names[q]);
    if (!strncmp(kspec, kernel_names[q], len) && kspec[len] == ':') {
      int ok;
      length = parse_positive(kspec + len + 1, &ok);
      if (!ok) return bad("--kernel %s: the length L '%s' must be a finite decimal number > 0", kspec, kspec + len + 1);
      kind = q;
    }
  }
  if (kind < 0) return bad("--kernel %s: unknown kernel (exp:L, gauss:L, matern32:L)", kspec);
  if (strcmp(xspec, "ones") && !strncmp(xspec, "random:", 7)) {
    int s;
    if (!cli_int_option(CMD, "--x random:SEED, SEED", xspec + 7, 0, INT_MAX, &s)) return 2;
  }

  strata_exec_t *e = NULL;
  strata_status_t st = strata_exec_default(backend, &e);
  if (st) {
    fprintf(stderr, CMD ": %s: %s\n", strata_status_name(st), strata_error_message());
    return 1;
  }
  int rc = 0;
  strata_points_t *P = NULL;
  strata_h2_matrix_t *A = NULL;
  double *X = NULL, *Y = NULL, *dX = NULL, *dY = NULL, *times = NULL;
  const double t0 = strata_timer_now();
  if ((rc = make_points(pspec, (uint64_t)seed, &P))) return rc;
  const double t_points = strata_timer_now() - t0;
  const int64_t n = P->n;
  if ((rc = make_x(xspec, n, &nv, nv_given, &X))) goto done;
  strata_h2_options_t o;
  strata_h2_options_default(P->dim, &o);
  o.leaf = leaf;
  if (cheb) o.cheb = cheb;
  o.eta = eta;
  o.kernel = (strata_h2_kernel_kind_t)kind;
  o.length = length;
  const double t1 = strata_timer_now();
  if ((st = strata_h2_create(e, P, &o, &A))) goto fail;
  const double t_build = strata_timer_now() - t1;
  const size_t xb = (size_t)n * (size_t)nv * sizeof(double);
  if ((st = strata_mem_alloc(e, STRATA_MEM_DEVICE, xb, (void **)&dX)) || (st = strata_mem_alloc(e, STRATA_MEM_DEVICE, xb, (void **)&dY)) ||
      (st = strata_mem_copy(e, dX, X, xb)))
    goto fail;
  strata_h2_compress_info_t ci;
  memset(&ci, 0, sizeof ci);
  double err_before = 0.0;
  if (eps > 0.0) { /* the error of the matrix as built, then compress */
    if ((st = strata_h2_matvec(e, A, nv, 1.0, dX, n, 0.0, dY, n)) ||
        (st = strata_h2_sampled_error(e, A, nv, dX, dY, samples, (uint64_t)seed, &err_before)) || (st = strata_h2_compress(e, A, eps, &ci)))
      goto fail;
  }
  times = (double *)malloc((size_t)repeat * sizeof(double));
  if (!times) {
    fprintf(stderr, CMD ": out of host memory\n");
    rc = 1;
    goto done;
  }
  for (int r = -1; r < repeat; ++r) { /* one warm-up */
    const double a = strata_timer_now();
    if ((st = strata_h2_matvec(e, A, nv, 1.0, dX, n, 0.0, dY, n)) || (st = strata_exec_fence(e))) goto fail;
    if (r >= 0) times[r] = strata_timer_now() - a;
  }
  qsort(times, (size_t)repeat, sizeof(double), cmp_double);
  const double t_mv = repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
  double err = 0.0;
  if ((st = strata_h2_sampled_error(e, A, nv, dX, dY, samples, (uint64_t)seed, &err))) goto fail;
  strata_h2_info_t info;
  strata_h2_get_info(A, &info);
  const double gbs = ((double)info.bytes_lowrank + (double)info.bytes_dense + 2.0 * (double)xb) / t_mv * 1e-9;
  if (out) {
    Y = (double *)malloc(xb ? xb : 1);
    if (!Y || (st = strata_mem_copy(e, Y, dY, xb))) {
      if (!Y) fprintf(stderr, CMD ": out of host memory for --out\n");
      rc = 1;
      if (st) goto fail;
      goto done;
    }
    if ((rc = write_array(out, n, nv, Y))) goto done;
  }
  if (pout && (st = strata_points_write(pout, P))) {
    fprintf(stderr, CMD ": --points-out %s: %s\n", pout, strata_error_message());
    rc = 1;
    goto done;
  }
  const char *bname = strata_backend_name(strata_exec_backend(e));
  const int64_t rows = n < samples ? n : samples;
  if (json) {
    printf("{\"n\": %lld, \"d\": %d, \"levels\": %d, \"leaf\": %d, \"cheb\": %d, \"rank\": %d, \"eta\": %.17g, \"kernel\": \"%s\", "
           "\"length\": %.17g, \"vectors\": %d, \"backend\": \"%s\", \"coupling_blocks\": [",
           (long long)n, (int)info.dim, (int)info.depth + 1, (int)info.leaf, (int)info.cheb, (int)info.rank, info.eta,
           kernel_names[kind], length, nv, bname);
    for (int l = 0; l <= info.depth && l < 64; ++l) printf("%s%lld", l ? ", " : "", (long long)info.coupling_per_level[l]);
    printf("], \"dense_blocks\": %lld, \"storage_bytes\": {\"lowrank\": %zu, \"dense\": %zu, \"total\": %zu}, "
           "\"times_s\": {\"points\": %.6g, \"construction\": %.6g, \"matvec_median\": %.6g}, \"matvec_gbs\": %.6g, ",
           (long long)info.num_dense, info.bytes_lowrank, info.bytes_dense, info.bytes_total, t_points, t_build, t_mv, gbs);
    if (eps > 0.0) {
      printf("\"compression\": {\"eps\": %.6g, \"ranks_before\": [", eps);
      for (int l = 0; l < ci.levels && l < 64; ++l) printf("%s%d", l ? ", " : "", (int)ci.rank_before[l]);
      printf("], \"ranks_after\": [");
      for (int l = 0; l < ci.levels && l < 64; ++l) printf("%s%d", l ? ", " : "", (int)ci.rank_after[l]);
      printf("], \"storage_bytes_after\": {\"lowrank\": %zu, \"dense\": %zu, \"total\": %zu}, \"time_s\": %.6g, \"gflops\": %.6g, "
             "\"norm_estimate\": %.6e, \"error_before\": %.6e}, ",
             ci.bytes_lowrank_after, info.bytes_dense, info.bytes_total - info.bytes_lowrank + ci.bytes_lowrank_after, ci.seconds,
             ci.seconds > 0 ? ci.flops / ci.seconds * 1e-9 : 0.0, ci.norm_estimate, err_before);
    }
    if (isfinite(err)) printf("\"error\": %.6e, \"error_rows\": %lld}\n", err, (long long)rows);
    else printf("\"error\": null, \"error_rows\": %lld}\n", (long long)rows);
  } else {
    printf(CMD ": %lld points in %dD, backend %s, kernel %s:%g\n", (long long)n, (int)info.dim, bname, kernel_names[kind], length);
    printf("  tree        %d levels, leaf %d, eta %g; %lld coupling blocks, %lld dense blocks\n", (int)info.depth + 1,
           (int)info.leaf, info.eta, (long long)info.num_coupling, (long long)info.num_dense);
    printf("  rank        %d (Chebyshev p = %d)\n", (int)info.rank, (int)info.cheb);
    printf("  storage     low-rank %.3f MB, dense %.3f MB, total %.3f MB (%.1f bytes per point)\n", info.bytes_lowrank * 1e-6,
           info.bytes_dense * 1e-6, info.bytes_total * 1e-6, n ? (double)info.bytes_total / (double)n : 0.0);
    printf("  construction %.4f s (tree on the host, U, E, S, D on the device)\n", t_build);
    if (eps > 0.0) {
      printf("  compression eps %g: %.4f s, %.2f GFLOP/s; ranks per level", eps, ci.seconds, ci.seconds > 0 ? ci.flops / ci.seconds * 1e-9 : 0.0);
      for (int l = 0; l < ci.levels && l < 64; ++l) printf(" %d->%d", (int)ci.rank_before[l], (int)ci.rank_after[l]);
      printf("\n              low-rank %.3f MB with the new ranks; error before %.3e\n", ci.bytes_lowrank_after * 1e-6, err_before);
    }
    printf("  matvec      %d vector%s: median %.4e s of %d, %.2f GB/s\n", nv, nv > 1 ? "s" : "", t_mv, repeat, gbs);
    printf("  error       %.3e relative, against %lld exact rows\n", err, (long long)rows);
  }
  if (!isfinite(err)) {
    fprintf(stderr, CMD ": the product is not finite (sampled error %g)\n", err);
    rc = 3;
  }
  goto done;
fail:
  fprintf(stderr, CMD ": %s: %s\n", strata_status_name(st), strata_error_message());
  rc = 1;
done:
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dX);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dY);
  strata_h2_destroy(&A);
  strata_points_destroy(&P);
  free(X);
  free(Y);
  free(times);
  if (!rc) rc = cli_stdout_failed(CMD);
  return rc;
}
