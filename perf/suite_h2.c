/* strata bench — the h2 suite: the H² matrix-vector product (strata/hmatrix.h) of exp(-r/0.1) on
 * uniform random points, 2D (p = 8) and 3D (p = 5), leaf 64, eta 1, for growing n (full runs 2^14 ..
 * 2^22 points in 2D, 2^14 .. 2^21 in 3D; the list stops, with a skipped record, at the first n whose
 * matrix and work arrays would not fit in the exec's memory): time and bytes per point (flat when
 * the product is O(n)), the effective bandwidth (U, E, S, D read once, X read and Y written once)
 * against the same run's copy bandwidth (the stream suite's copy kernel; on host backends the
 * memory-bandwidth model the product should stay within 2× of), GFLOP/s by a flop model for 1, 4
 * and 16 vectors, the dense phase overlapped with the low-rank phases or not (strata_h2_overlap_t:
 * the default and the other mode, the same bits), the construction time, and a dense GEMV peer
 * (bench_peer_gemv.h: cuBLAS on CUDA, CBLAS on the host) on the dense kernel matrix up to the n
 * where it fits, as what a user would otherwise do. Each product is checked first against exact
 * rows computed on the device (the relative error on 100 sampled rows below 1e-3 in 2D, 1e-2 in 3D)
 * before its time counts. The "compress" records: strata_h2_compress to eps (2D 1e-4, 3D 1e-3) of the
 * same matrices, its time, GFLOP/s (nominal counts), ranks per level before and after, the sampled
 * error against eps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_harness.h"
#include "bench_peer_gemv.h"
#include "strata/hmatrix.h"

#define H2_NV_MAX 16

typedef struct {
  strata_exec_t *e;
  const strata_h2_matrix_t *A;
  int64_t n;
  int nv;
  const double *x;
  double *y;
} h2_ctx;

static int h2_run(void *v, int64_t call) {
  h2_ctx *c = (h2_ctx *)v;
  (void)call;
  return strata_h2_matvec(c->e, c->A, c->nv, 1.0, c->x, c->n, 0.0, c->y, c->n);
}

/* the sizes of one dimension: log2 n from lo to hi in steps of step */
static void h2_sizes(int dim, int *lo, int *hi, int *step) {
  *lo = bench_cfg.quick ? 12 : 14;
  *hi = bench_cfg.quick ? (dim == 2 ? 14 : 12) : dim == 2 ? 22 : 21;
  *step = bench_cfg.quick ? 2 : 1;
}

/* GB/s of the stream suite's copy on backend b in this run (the last such record), 0 when none */
static double copy_bw(strata_backend_t b) {
  for (int q = bench_nrec - 1; q >= 0; --q)
    if (!strcmp(bench_rec[q].suite, "stream") && !strcmp(bench_rec[q].algo, "copy") && bench_rec[q].ok == 1 &&
        !strcmp(bench_rec[q].backend, strata_backend_name(b)))
      return bench_rec[q].bytes / bench_rec[q].t.median / 1e9;
  return 0.0;
}

/* the bytes of exec memory the suite lets one case use: 90 % of a GPU's memory; on host backends
 * 80 % of the memory Linux reports available (MemAvailable), else of the physical memory */
static double h2_mem_budget(strata_exec_t *e) {
  strata_device_info_t info;
  if (!strata_exec_is_host(e)) return strata_exec_device_info(e, &info) == STRATA_SUCCESS ? 0.9 * (double)info.memory_bytes : 0.0;
  double kb = 0.0;
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    fclose(f);
  }
  if (kb > 0) return 0.8 * kb * 1024.0;
  return 0.8 * (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
}

/* bytes of the work arrays of the suite's products at n points (up to H2_NV_MAX vectors): X and Y,
 * the matvec's temporaries (strata_h2_matvec: 2·num_nodes·k·nv + 3·n·nv doubles with overlap; at
 * most 4n/leaf nodes), the saved results on the host are not device memory */
static double h2_work_bytes(int dim, int64_t n) {
  const double k = dim == 2 ? 64.0 : 125.0, nodes = 4.0 * (double)n / 64.0 + 1.0;
  return 8.0 * H2_NV_MAX * (2.0 * (double)n + 2.0 * nodes * k + 3.0 * (double)n);
}

/* the flop model of one product of nv vectors: 2 flops per entry of U (twice: up and down), of E
 * (twice), of every S block and of every D block, per vector */
static double h2_flops(const strata_h2_info_t *info, int nv) {
  return 2.0 * (double)nv * (2.0 * (double)info->bytes_lowrank / 8.0 - (double)info->num_coupling * info->rank * info->rank +
                             (double)info->bytes_dense / 8.0);
}

/* a record of `algo` skipped, with the reason, emitted */
static void h2_skip(strata_backend_t b, const char *name, const char *algo, int64_t n, const char *why) {
  bench_result_t *r = bench_record_add("h2", b, name, algo);
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->ok = -2;
  snprintf(r->msg, sizeof r->msg, "%s", why);
  bench_record_emit(r);
}

/* the relative Frobenius difference of two host arrays, against b */
static double rel_diff(int64_t m, const double *a, const double *b) {
  double num = 0.0, den = 0.0;
  for (int64_t e = 0; e < m; ++e) {
    num += (a[e] - b[e]) * (a[e] - b[e]);
    den += b[e] * b[e];
  }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* the first product's outcome into r: an error (st) or a sampled error above the dimension's bound
 * marks it (error, wrong) and gives 0; else 1 with r marked checked (ok 1, until its timing fails) */
static int h2_checked(bench_result_t *r, strata_status_t st, int dim, double err) {
  if (st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
    return 0;
  }
  if (!(err <= (dim == 2 ? 1e-3 : 1e-2))) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "sampled relative error %.3e: time not counted", err);
    return 0;
  }
  r->ok = 1;
  return 1;
}

/* the matvec in the mode other than A's default (the A/B of the overlapped dense phase): a record
 * "matvec_1stream" (the default overlaps) or "matvec_2stream"; its result must equal the default's
 * (ydef, host) bit for bit; the default mode restored */
static void h2_overlap_ab(int bi, const char *name, strata_h2_matrix_t *A, h2_ctx *c, const double *ydef, double *yh,
                          double bytes, double t_default) {
  const strata_backend_t b = bench_cfg.be[bi];
  int on = 0;
  strata_h2_get_overlap(A, &on);
  bench_result_t *r = bench_record_add("h2", b, name, on ? "matvec_1stream" : "matvec_2stream");
  bench_progress("h2", name, r->backend, r->algo);
  r->n = c->n;
  r->entries = (double)c->n;
  r->bytes = bytes;
  strata_status_t st = strata_h2_set_overlap(A, on ? STRATA_H2_OVERLAP_OFF : STRATA_H2_OVERLAP_ON);
  if (!st) st = (strata_status_t)h2_run(c, 0);
  if (!st) st = strata_mem_copy(c->e, yh, c->y, (size_t)c->n * sizeof(double));
  int64_t diff = -1;
  for (int64_t i = 0; !st && i < c->n && diff < 0; ++i)
    if (memcmp(&yh[i], &ydef[i], sizeof(double))) diff = i;
  if (st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  } else if (diff >= 0) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "y[%lld] = %.17g, the default mode's %.17g: not the same bits", (long long)diff, yh[diff],
             ydef[diff]);
  } else if (bench_time(c->e, h2_run, c, bench_cfg.min_time, &r->t)) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  } else {
    r->ok = 1;
    snprintf(r->extra, sizeof r->extra, ", \"overlap\": %d, \"ns_per_point\": %.6g, \"default_over_this\": %.4g", !on,
             r->t.median / (double)c->n * 1e9, t_default / r->t.median);
  }
  bench_record_emit(r);
  strata_h2_set_overlap(A, STRATA_H2_OVERLAP_AUTO);
}

/* nv vectors at once (record "matvec_nvNV"): X's columns sin(0.37 i + v), checked on sampled rows,
 * timed; GFLOP/s by h2_flops and bytes per point (the matrix once, X and Y nv times) */
static void h2_multivector(int bi, int dim, const char *name, const strata_h2_matrix_t *A, int64_t n, int nv, double *X,
                           double *Y, double *hx) {
  const strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  char algo[32];
  snprintf(algo, sizeof algo, "matvec_nv%d", nv);
  bench_result_t *r = bench_record_add("h2", b, name, algo);
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->entries = (double)n * nv;
  strata_h2_info_t info;
  strata_h2_get_info(A, &info);
  r->bytes = (double)info.bytes_lowrank + (double)info.bytes_dense + 16.0 * (double)n * nv;
  for (int v = 0; v < nv; ++v)
    for (int64_t i = 0; i < n; ++i) hx[i + v * n] = sin(0.37 * (double)i + (double)v);
  h2_ctx c = {e, A, n, nv, X, Y};
  double err = NAN;
  strata_status_t st = strata_mem_copy(e, X, hx, (size_t)(n * nv) * sizeof(double));
  if (!st) st = (strata_status_t)h2_run(&c, 0);
  if (!st) st = strata_h2_sampled_error(e, A, nv, X, Y, 100, bench_cfg.seed, &err);
  if (!h2_checked(r, st, dim, err) || bench_time(e, h2_run, &c, bench_cfg.min_time, &r->t)) {
    if (r->ok == 1) { /* checked, then the timing failed */
      r->ok = -1;
      snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
    }
  } else {
    snprintf(r->extra, sizeof r->extra,
             ", \"dim\": %d, \"vectors\": %d, \"gflops\": %.6g, \"bytes_per_point\": %.6g, \"ns_per_point_per_vector\": %.6g, "
             "\"error\": %.3e",
             dim, nv, h2_flops(&info, nv) / r->t.median / 1e9, r->bytes / (double)n, r->t.median / (double)n / nv * 1e9, err);
  }
  bench_record_emit(r);
}

/* the dense GEMV peer (record "dense_gemv") on P's kernel matrix when its n² doubles fit beside the
 * H² matrix (in budget) and n <= 2^16 (2^12 with --quick); its y checked against the H² product's
 * (yh2, host) to the suite's error bound; returns its median time, 0 when it did not run */
static double h2_dense_peer(int bi, int dim, const char *name, const strata_points_t *P, double length, const double *x,
                            double *y, const double *yh2, double *yh, double room) {
  const strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  const int64_t n = P->n, cap = bench_cfg.quick ? (int64_t)1 << 12 : (int64_t)1 << 16;
  const char *peer = bench_gemv_peer_name(b);
  const double kbytes = 8.0 * (double)n * (double)n;
  char why[200];
  if (!peer) {
    h2_skip(b, name, "dense_gemv", n, "no dense GEMV peer for this backend in this build");
    return 0.0;
  }
  if (n > cap || kbytes > room) {
    if (n > cap)
      snprintf(why, sizeof why, "dense K of n = %lld points: n above the suite's limit %lld", (long long)n, (long long)cap);
    else
      snprintf(why, sizeof why, "dense K of %.3g GB does not fit in the %.3g GB left beside the H² matrix", kbytes / 1e9,
               fmax(room, 0.0) / 1e9);
    h2_skip(b, name, "dense_gemv", n, why);
    return 0.0;
  }
  bench_result_t *r = bench_record_add("h2", b, name, "dense_gemv");
  const int at = bench_nrec - 1;
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->entries = (double)n * (double)n;
  r->bytes = kbytes + 16.0 * (double)n;
  bench_gemv_peer_t *p = NULL;
  char err[200] = "";
  double t0 = strata_timer_now(), t_form = 0.0, d = NAN;
  int rc = bench_gemv_peer_create(e, P, length, x, y, &p, err, sizeof err);
  t_form = strata_timer_now() - t0;
  if (!rc) rc = bench_gemv_peer_apply(p, 0);
  if (!rc && strata_mem_copy(e, yh, y, (size_t)n * sizeof(double))) {
    snprintf(err, sizeof err, "%s", strata_error_message());
    rc = -2;
  } else if (rc == -1 && p)
    snprintf(err, sizeof err, "%s", bench_gemv_peer_error(p));
  if (!rc) d = rel_diff(n, yh2, yh);
  r = &bench_rec[at];
  if (rc) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", err);
  } else if (!(d <= (dim == 2 ? 1e-3 : 1e-2))) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "%s's y differs from the H² product's by %.3e (relative): time not counted", peer, d);
  } else if (bench_time(e, bench_gemv_peer_apply, p, bench_cfg.min_time, &r->t)) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", p ? bench_gemv_peer_error(p) : "dense GEMV peer");
  } else {
    r->ok = 1;
    snprintf(r->extra, sizeof r->extra, ", \"peer\": \"%s\", \"dim\": %d, \"form_s\": %.6g, \"diff_to_h2\": %.3e, \"ns_per_point\": %.6g",
             peer, dim, t_form, d, r->t.median / (double)n * 1e9);
  }
  const double t = r->ok == 1 ? r->t.median : 0.0;
  bench_record_emit(r);
  bench_gemv_peer_destroy(&p);
  return t;
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

/* one n: the matvec (the default overlap mode) and its A/B, 4 and 16 vectors (--quick: 4 vectors at
 * the smallest n of each dimension only), the dense peer. *bpp: bytes per point of the last matrix built
 * in this dimension (the next size's estimate, with a margin of 15 %: in 3D it grows by about 9 %
 * per doubling; 0 before the first). Returns -1 when n did not fit, by the estimate or by an
 * allocation that failed (a skipped record made: the sizes stop here), else 0. */
static int h2_case(int bi, int dim, int64_t n, int first, double *bpp) {
  const strata_backend_t b = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  char name[64];
  snprintf(name, sizeof name, "%dd_n=%lld", dim, (long long)n);
  const double budget = h2_mem_budget(e), need = 1.15 * *bpp * (double)n + h2_work_bytes(dim, n);
  if (*bpp > 0 && budget > 0 && need > budget) {
    char why[200];
    snprintf(why, sizeof why, "needs about %.3g GB (%.0f bytes per point at the last size, plus work arrays), above the %.3g GB "
             "budget of this exec: the sizes stop here", need / 1e9, *bpp, budget / 1e9);
    h2_skip(b, name, "matvec", n, why);
    return -1;
  }
  bench_result_t *r = bench_record_add("h2", b, name, "matvec");
  const int at = bench_nrec - 1;
  bench_progress("h2", name, r->backend, r->algo);
  r->n = n;
  r->entries = (double)n;
  const int nvs = !bench_cfg.quick ? H2_NV_MAX : first ? 4 : 1; /* the most vectors of this case */
  strata_points_t *P = NULL;
  strata_h2_matrix_t *A = NULL;
  double *x = NULL, *y = NULL;
  double *hx = (double *)malloc((size_t)n * nvs * sizeof(double)), *ydef = (double *)malloc((size_t)n * sizeof(double));
  double *yh = (double *)malloc((size_t)n * sizeof(double));
  strata_h2_options_t o;
  strata_h2_options_default(dim, &o);
  o.length = 0.1;
  double t_build = 0, err = NAN, t_peer = 0;
  strata_status_t st = hx && ydef && yh ? strata_points_create_random(dim, n, bench_cfg.seed, &P) : STRATA_ERR_OUT_OF_MEMORY;
  if (!st) {
    const double t0 = strata_timer_now();
    st = strata_h2_create(e, P, &o, &A);
    t_build = strata_timer_now() - t0;
  }
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * nvs * sizeof(double), (void **)&x);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * nvs * sizeof(double), (void **)&y);
  if (!st) {
    for (int64_t i = 0; i < n; ++i) hx[i] = sin(0.37 * (double)i);
    st = strata_mem_copy(e, x, hx, (size_t)n * sizeof(double));
  }
  h2_ctx c = {e, A, n, 1, x, y};
  if (!st) st = (strata_status_t)h2_run(&c, 0);
  if (!st) st = strata_h2_sampled_error(e, A, 1, x, y, 100, bench_cfg.seed, &err);
  if (!st) st = strata_mem_copy(e, ydef, y, (size_t)n * sizeof(double));
  r = &bench_rec[at];
  strata_h2_info_t info;
  memset(&info, 0, sizeof info);
  int on = 0, stop = 0;
  if (st == STRATA_ERR_OUT_OF_MEMORY) { /* the estimate let it through, the device did not */
    r->ok = -2;
    snprintf(r->msg, sizeof r->msg, "the sizes stop here, out of memory: %.150s", strata_error_message());
    stop = 1;
  } else if (h2_checked(r, st, dim, err)) {
    strata_h2_get_info(A, &info);
    strata_h2_get_overlap(A, &on);
    *bpp = (double)info.bytes_total / (double)n;
    r->bytes = (double)info.bytes_lowrank + (double)info.bytes_dense + 16.0 * (double)n;
    if (bench_time(e, h2_run, &c, bench_cfg.min_time, &r->t)) {
      r->ok = -1;
      snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
    }
  }
  if (r->ok == 1) { /* the records of the same matrix; the matvec's record emitted last, with the peer's ratio */
    const double t_h2 = r->t.median, bytes = r->bytes;
    h2_overlap_ab(bi, name, A, &c, ydef, yh, bytes, t_h2);
    for (int nv = 4; nv <= nvs; nv *= 4) h2_multivector(bi, dim, name, A, n, nv, x, y, hx);
    st = strata_mem_copy(e, x, hx, (size_t)n * sizeof(double)); /* column 0 is sin(0.37 i) again */
    if (!st)
      t_peer = h2_dense_peer(bi, dim, name, P, o.length, x, y, ydef, yh,
                             budget - (double)info.bytes_total - h2_work_bytes(dim, n));
    r = &bench_rec[at];
    if (t_peer > 0) r->ratio_peer = t_peer / r->t.median;
    const double gbs = r->bytes / r->t.median / 1e9, cb = copy_bw(b);
    snprintf(r->extra, sizeof r->extra,
             ", \"dim\": %d, \"rank\": %d, \"levels\": %d, \"coupling_blocks\": %lld, \"dense_blocks\": %lld, \"overlap\": %d, "
             "\"bytes_per_point\": %.6g, \"ns_per_point\": %.6g, \"gflops\": %.6g, \"construction_s\": %.6g, \"error\": %.3e, "
             "\"copy_gbs\": %.6g, \"pct_of_copy\": %.4g, \"copy_over_matvec_bw\": %.4g, \"dense_gemv_s\": %.6g",
             dim, (int)info.rank, (int)info.depth + 1, (long long)info.num_coupling, (long long)info.num_dense, on,
             r->bytes / (double)n, r->t.median / (double)n * 1e9, h2_flops(&info, 1) / r->t.median / 1e9, t_build, err, cb,
             cb > 0 ? 100.0 * gbs / cb : 0.0, cb > 0 && gbs > 0 ? cb / gbs : 0.0, t_peer);
  }
  h2_case_end(r, e, x, y, &A, &P, hx);
  free(ydef);
  free(yh);
  return stop ? -1 : 0;
}

/* ---------------------------------------------------------------- compression (strata_h2_compress) */

/* the compression cases of a backend: log2 n per dimension (2D eps 1e-4, 3D eps 1e-3) */
static int h2c_sizes(int dim, int host, int *lo, int *hi) {
  *lo = bench_cfg.quick ? (dim == 2 ? 12 : 10) : 14; /* quick 3D: 2^10 (2^12 took seconds on the host, a minute under ASan) */
  *hi = bench_cfg.quick ? *lo : host ? 14 : dim == 2 ? 18 : 16;
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
  r->n = n; /* no entries or bytes rate: the record's rate is its GFLOP/s (extra) */
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
    for (int dim = 2; dim <= 3; ++dim) {
      int lo, hi, step;
      double bpp = 0.0;
      h2_sizes(dim, &lo, &hi, &step);
      for (int l = lo; l <= hi; l += step)
        if (h2_case(bi, dim, (int64_t)1 << l, l == lo, &bpp)) break;
    }
    h2c_cases(bi, 1);
  }
}

/* per size: the matvec, its A/B and the dense peer; 4 and 16 vectors where they run */
static int h2_estimate(const bench_inputs_t *in) {
  (void)in;
  int count = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    for (int dim = 2; dim <= 3; ++dim) {
      int lo, hi, step;
      h2_sizes(dim, &lo, &hi, &step);
      const int sizes = (hi - lo) / step + 1;
      count += 3 * sizes + (bench_cfg.quick ? 1 : 2 * sizes);
    }
  for (int bi = 0; bi < bench_cfg.nb; ++bi) count += h2c_cases(bi, 0);
  return count;
}

const bench_suite_t bench_suite_h2 = {
    .name = "h2",
    .help = "H² matvec of exp(-r/0.1) on random 2D / 3D points for growing n: time and bytes per point, % of copy bandwidth, "
            "1 / 4 / 16 vectors, overlap A/B, dense GEMV peer; compression: time, GFLOP/s, ranks, error against eps",
    .options = 0,
    .run = h2_suite_run,
    .estimate = h2_estimate,
};
