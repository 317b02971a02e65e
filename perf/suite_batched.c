/* strata bench — the batched suite: the small batched dense kernels of <strata/batched.h> that the
 * H² compression runs (GEMM, Householder QR, one-sided Jacobi SVD) on batches of uniform blocks
 * filling a few hundred MB (GPUs; tens of MB on hosts), per backend, and their peers in the same
 * run (bench_peer_batched.h: cuBLAS / cuSOLVER on CUDA, LAPACKE / CBLAS per block on hosts).
 * Every result is checked on sampled blocks against host identities (GEMM: the naive product; QR:
 * RᵀR = AᵀA; SVD: UΣVᵀ = A, or Σσ² = ‖A‖_F² for a peer whose vectors stay inside it) before its time
 * counts. GFLOP/s: GEMM 2mnk, QR 2n²(m − n/3) (m >= n) per block; the SVD's rate is blocks per
 * second (Jacobi's operation count depends on its sweeps), and x_peer compares the times. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "bench_peer_batched.h"
#include "strata/batched.h"

typedef enum { B_GEMM = 0, B_QR = 1, B_SVD = 2 } bop_t;
typedef struct bcase {
  bop_t op;
  int m, n, k;
} bcase_t;
static const bcase_t cases[] = {
    {B_GEMM, 32, 32, 32}, {B_GEMM, 64, 64, 64}, {B_GEMM, 128, 128, 128}, {B_GEMM, 64, 64, 16},
    {B_QR, 32, 32, 0},    {B_QR, 64, 32, 0},    {B_QR, 128, 64, 0},      {B_SVD, 16, 16, 0},
    {B_SVD, 32, 32, 0},   {B_SVD, 64, 64, 0},   {B_SVD, 128, 32, 0},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
static const char *const op_name[3] = {"gemm", "qr", "svd"};

/* everything one timed call needs (device arrays of exec e, count blocks tightly packed) */
typedef struct bctx {
  strata_exec_t *e;
  bench_bpeer_t *peer;
  bcase_t c;
  int64_t count;
  double *A, *B, *C, *A0, *S, *U, *V;
} bctx_t;

static int run_strata(void *v, int64_t call) {
  bctx_t *x = (bctx_t *)v;
  (void)call;
  const bcase_t *c = &x->c;
  const int p = c->m < c->n ? c->m : c->n;
  const int64_t mn = (int64_t)c->m * c->n;
  if (c->op == B_GEMM) {
    strata_batched_shape_t s = strata_batched_shape(x->count, c->m, c->n, c->k);
    return strata_batched_gemm(x->e, STRATA_BATCHED_N, STRATA_BATCHED_N, &s, 1.0,
                               strata_batched_strided(x->A, c->m, (int64_t)c->m * c->k),
                               strata_batched_strided(x->B, c->k, (int64_t)c->k * c->n), 0.0,
                               strata_batched_strided(x->C, c->m, mn), NULL);
  }
  strata_batched_shape_t s = strata_batched_shape(x->count, c->m, c->n, 0);
  if (c->op == B_QR)
    return strata_batched_qr(x->e, &s, strata_batched_strided(x->A, c->m, mn), strata_batched_strided(x->S, 0, p), NULL);
  return strata_batched_svd(x->e, &s, strata_batched_strided(x->A0, c->m, mn), strata_batched_strided(x->S, 0, p),
                            strata_batched_strided(x->U, c->m, (int64_t)c->m * p),
                            strata_batched_strided(x->V, c->n, (int64_t)c->n * p), NULL);
}

static int run_peer(void *v, int64_t call) {
  bctx_t *x = (bctx_t *)v;
  (void)call;
  const bcase_t *c = &x->c;
  if (c->op == B_GEMM) return bench_bpeer_gemm(x->peer, c->m, c->n, c->k, x->A, x->B, x->C, x->count);
  if (c->op == B_QR) return bench_bpeer_qr(x->peer, c->m, c->n, x->A, x->S, x->count);
  return bench_bpeer_svd(x->peer, c->m, c->n, x->A0, x->A, x->S, x->U, x->V, x->count);
}

/* ---------------------------------------------------------------- checks on sampled blocks */

/* 0, or -1 with the reason in msg: block b of the host copies (A0, B) against the outputs */
static int check_block(const bcase_t *c, int64_t b, const double *A0, const double *B, const double *out,
                       const double *S, const double *U, const double *V, char *msg, size_t len) {
  const int m = c->m, n = c->n, k = c->k, p = m < n ? m : n;
  const double *a = A0 + b * m * (c->op == B_GEMM ? k : n);
  if (c->op == B_GEMM) {
    const double *bb = B + b * k * n, *cc = out + b * m * n;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double s = 0.0, mag = 0.0;
        for (int l = 0; l < k; ++l) s += a[i + l * m] * bb[l + j * k], mag += fabs(a[i + l * m] * bb[l + j * k]);
        if (!(fabs(cc[i + j * m] - s) <= 1e-13 * (k + 1) * mag + 1e-300)) {
          snprintf(msg, len, "gemm block %lld: C(%d,%d) = %.17g, naive %.17g", (long long)b, i, j, cc[i + j * m], s);
          return -1;
        }
      }
    return 0;
  }
  if (c->op == B_QR) { /* RᵀR = AᵀA over R's upper part */
    const double *R = out + b * m * n;
    double big = 0.0, err = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) {
        double ra = 0.0, aa = 0.0;
        for (int l = 0; l < p && l <= i; ++l) ra += R[l + i * m] * R[l + j * m];
        for (int l = 0; l < m; ++l) aa += a[l + i * m] * a[l + j * m];
        big = fmax(big, fabs(aa));
        err = fmax(err, fabs(ra - aa));
      }
    if (!(err <= 1e-13 * m * big)) {
      snprintf(msg, len, "qr block %lld: |R'R - A'A| = %.3g (|A'A| %.3g)", (long long)b, err, big);
      return -1;
    }
    return 0;
  }
  const double *s = S + b * p;
  double fro = 0.0, ss = 0.0;
  for (int i = 0; i < m * n; ++i) fro += a[i] * a[i];
  for (int j = 0; j < p; ++j) ss += s[j] * s[j];
  if (!(fabs(ss - fro) <= 1e-12 * fro)) {
    snprintf(msg, len, "svd block %lld: sum of sigma^2 %.17g, |A|_F^2 %.17g", (long long)b, ss, fro);
    return -1;
  }
  if (!U) return 0;
  const double *u = U + b * m * p, *vv = V + b * n * p;
  double err = 0.0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double t = 0.0;
      for (int l = 0; l < p; ++l) t += u[i + l * m] * s[l] * vv[j + l * n];
      err = fmax(err, fabs(t - a[i + j * m]));
    }
  if (!(err <= 1e-12 * (m + n) * (p ? s[0] : 1.0))) {
    snprintf(msg, len, "svd block %lld: |A - U S V'| = %.3g (sigma_0 %.3g)", (long long)b, err, p ? s[0] : 0.0);
    return -1;
  }
  return 0;
}

/* the outputs of x (after one call) checked on blocks 0, count/2, count - 1 */
static int check_run(const bctx_t *x, const double *hA0, const double *hB, int vectors, char *msg, size_t len) {
  const bcase_t *c = &x->c;
  const int m = c->m, n = c->n, p = m < n ? m : n;
  const int64_t cnt = x->count, mn = (int64_t)m * n;
  double *out = (double *)malloc(sizeof(double) * (size_t)(mn * cnt + 1));
  double *S = (double *)malloc(sizeof(double) * (size_t)(p * cnt + 1));
  double *U = vectors ? (double *)malloc(sizeof(double) * (size_t)(m * p * cnt + 1)) : NULL;
  double *V = vectors ? (double *)malloc(sizeof(double) * (size_t)(n * p * cnt + 1)) : NULL;
  int rc = -1;
  if (!out || !S || (vectors && (!U || !V))) {
    snprintf(msg, len, "no host memory for the check");
    goto done;
  }
  if ((c->op != B_SVD && strata_mem_copy(x->e, out, c->op == B_GEMM ? x->C : x->A, sizeof(double) * mn * cnt)) ||
      (c->op == B_SVD && strata_mem_copy(x->e, S, x->S, sizeof(double) * p * cnt)) ||
      (U && strata_mem_copy(x->e, U, x->U, sizeof(double) * m * p * cnt)) ||
      (V && strata_mem_copy(x->e, V, x->V, sizeof(double) * n * p * cnt))) {
    snprintf(msg, len, "%s", strata_error_message());
    goto done;
  }
  const int64_t at[3] = {0, cnt / 2, cnt - 1};
  rc = 0;
  for (int q = 0; q < 3 && rc == 0; ++q) rc = check_block(c, at[q], hA0, hB, out, S, U, V, msg, len);
done:
  free(out), free(S), free(U), free(V);
  return rc;
}

/* ---------------------------------------------------------------- one case on one backend */

static double flops_of(const bcase_t *c) {
  const double m = c->m, n = c->n, k = c->k;
  if (c->op == B_GEMM) return 2 * m * n * k;
  if (c->op == B_QR) return m >= n ? 2 * n * n * (m - n / 3) : 2 * m * m * (n - m / 3);
  return 0.0;
}

static void finish(bench_result_t *r, const bctx_t *x, int st) {
  if (r->ok == 1 && st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  }
  if (r->ok != 1) return;
  const double f = flops_of(&x->c) * (double)x->count;
  char gf[48] = ", \"gflops\": null";
  if (f > 0) snprintf(gf, sizeof gf, ", \"gflops\": %.6g", f / r->t.median / 1e9);
  snprintf(r->extra, sizeof r->extra,
           ", \"op\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"blocks\": %lld, \"blocks_per_s\": %.6g%s",
           op_name[x->c.op], x->c.m, x->c.n, x->c.k, (long long)x->count, (double)x->count / r->t.median, gf);
}

static void one_case(int bi, const bcase_t *c) {
  strata_backend_t be = bench_cfg.be[bi];
  strata_exec_t *e = bench_cfg.ex[bi];
  const int host = strata_exec_is_host(e);
  const int m = c->m, n = c->n, k = c->k, p = m < n ? m : n;
  const double budget = bench_cfg.quick ? 4e6 : host ? 64e6 : 512e6;
  const double per = 8.0 * (c->op == B_GEMM ? (double)m * k + (double)k * n + (double)m * n
                                            : 2.0 * m * n + p + (double)m * p + (double)n * p);
  int64_t count = (int64_t)(budget * bench_cfg.scale / per);
  if (count < 3) count = 3;
  char name[96];
  if (c->op == B_GEMM)
    snprintf(name, sizeof name, "gemm %dx%dx%d x%lld", m, n, k, (long long)count);
  else
    snprintf(name, sizeof name, "%s %dx%d x%lld", op_name[c->op], m, n, (long long)count);
  const char *pname = bench_bpeer_name(be, c->op, m, n);
  bctx_t x;
  memset(&x, 0, sizeof x);
  x.e = e;
  x.c = *c;
  x.count = count;
  const size_t sa = sizeof(double) * (size_t)count * (size_t)m * (size_t)(c->op == B_GEMM ? k : n);
  const size_t sb = c->op == B_GEMM ? sizeof(double) * (size_t)count * k * n : 0;
  const size_t sc = sizeof(double) * (size_t)count * m * n;
  double *hA = (double *)malloc(sa), *hB = sb ? (double *)malloc(sb) : NULL;
  uint64_t rng = bench_cfg.seed + 17 * (uint64_t)c->op + (uint64_t)m * 131 + (uint64_t)n;
  char msg[200] = "";
  int ok = hA && (!sb || hB);
  for (size_t i = 0; ok && i < sa / sizeof(double); ++i) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    hA[i] = (double)(rng >> 11) * 0x1.0p-52 - 1.0;
  }
  for (size_t i = 0; ok && i < sb / sizeof(double); ++i) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    hB[i] = (double)(rng >> 11) * 0x1.0p-52 - 1.0;
  }
  if (!ok) snprintf(msg, sizeof msg, "no host memory for %zu bytes", sa + sb);
  if (ok && (strata_mem_alloc(e, STRATA_MEM_DEVICE, sa, (void **)&x.A) ||
             strata_mem_alloc(e, STRATA_MEM_DEVICE, sa, (void **)&x.A0) ||
             (sb && strata_mem_alloc(e, STRATA_MEM_DEVICE, sb, (void **)&x.B)) ||
             strata_mem_alloc(e, STRATA_MEM_DEVICE, sc, (void **)&x.C) ||
             strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * count * p, (void **)&x.S) ||
             strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * count * m * p, (void **)&x.U) ||
             strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * count * n * p, (void **)&x.V) ||
             strata_mem_copy(e, x.A, hA, sa) || strata_mem_copy(e, x.A0, hA, sa) ||
             (sb && strata_mem_copy(e, x.B, hB, sb)))) {
    snprintf(msg, sizeof msg, "%s", strata_error_message());
    ok = 0;
  }
  /* strata */
  bench_result_t *r = bench_record_add("batched", be, name, "strata");
  bench_progress("batched", name, r->backend, "strata");
  r->rows = m, r->cols = n, r->n = count, r->entries = (double)count;
  /* bytes by a minimal-traffic model: GEMM reads A, B and writes C; QR reads and writes A; the SVD
   * reads A and writes S, U, V */
  r->bytes = c->op == B_GEMM ? (double)(sa + sb + sc)
             : c->op == B_QR ? 2.0 * (double)sa
                             : 8.0 * (double)count * ((double)m * n + p + (double)m * p + (double)n * p);
  int st = 0;
  if (ok) {
    st = run_strata(&x, 0);
    bench_sync(e);
    if (st == 0) ok = check_run(&x, hA, hB, 1, msg, sizeof msg) == 0;
  }
  r->ok = ok ? 1 : st ? -1 : 0;
  if (!ok) snprintf(r->msg, sizeof r->msg, "%s", st ? strata_error_message() : msg);
  st = 0;
  if (ok) st = bench_time(e, run_strata, &x, bench_cfg.min_time, &r->t);
  finish(r, &x, st);
  const int mine = bench_nrec - 1;
  /* the peer, on fresh inputs */
  if (pname && ok) {
    char err[200] = "";
    int pok = bench_bpeer_create(e, &x.peer, err, sizeof err) == 0 && strata_mem_copy(e, x.A, hA, sa) == 0;
    bench_result_t *q = bench_record_add("batched", be, name, pname);
    bench_progress("batched", name, q->backend, pname);
    q->rows = m, q->cols = n, q->n = count, q->entries = (double)count;
    q->bytes = bench_rec[mine].bytes;
    int pst = pok ? run_peer(&x, 0) : -1;
    bench_sync(e);
    if (pst) snprintf(err, sizeof err, "%s", x.peer ? bench_bpeer_error(x.peer) : err);
    /* gesvdj keeps its vectors (full U, V) inside: its check is on Σ only */
    pok = pok && pst == 0 && check_run(&x, hA, hB, !(c->op == B_SVD && !host), err, sizeof err) == 0;
    q->ok = pok ? 1 : 0;
    if (!pok) snprintf(q->msg, sizeof q->msg, "%s", err);
    pst = 0;
    if (pok) pst = bench_time(e, run_peer, &x, bench_cfg.min_time, &q->t);
    if (pok && pst) {
      q->ok = -1;
      snprintf(q->msg, sizeof q->msg, "%s", bench_bpeer_error(x.peer));
      pst = 0;
    }
    finish(q, &x, pst);
    if (q->ok == 1 && bench_rec[mine].ok == 1) bench_rec[mine].ratio_peer = q->t.median / bench_rec[mine].t.median;
    bench_record_emit(&bench_rec[mine]);
    bench_record_emit(&bench_rec[bench_nrec - 1]);
    bench_bpeer_destroy(&x.peer);
  } else {
    bench_record_emit(&bench_rec[mine]);
  }
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.A), strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.A0);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.B), strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.C);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.S), strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.U);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x.V);
  free(hA), free(hB);
}

static void batched_run(const bench_inputs_t *in) {
  (void)in;
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    for (int q = 0; q < NCASES; ++q) one_case(bi, &cases[q]);
}

static int batched_estimate(const bench_inputs_t *in) {
  (void)in;
  return 2 * NCASES * bench_cfg.nb;
}

/* GFLOP/s and blocks per second of every batched record (the main table shows GB/s) */
static void batched_summary(FILE *f) {
  fprintf(f, "== batched: GFLOP/s (GEMM 2mnk, QR 2n^2(m - n/3) per block) and blocks per ms ==\n");
  fprintf(f, "%-7s %-28s %-26s %10s %12s %8s\n", "backend", "name", "algorithm", "GFLOP/s", "blocks/ms", "x_peer");
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (strcmp(r->suite, "batched") || r->ok != 1) continue;
    const char *g = strstr(r->extra, "\"gflops\": ");
    char gf[24] = "-", xp[16] = "-";
    if (g && strncmp(g + 10, "null", 4)) snprintf(gf, sizeof gf, "%.2f", atof(g + 10));
    if (r->ratio_peer > 0) snprintf(xp, sizeof xp, "%.2f", r->ratio_peer);
    fprintf(f, "%-7s %-28.28s %-26s %10s %12.2f %8s\n", r->backend, r->name, r->algo, gf,
            (double)r->n / r->t.median / 1e3, xp);
  }
}

const bench_suite_t bench_suite_batched = {
    .name = "batched",
    .help = "batched dense GEMM, QR, Jacobi SVD of small blocks (H² compression); cuBLAS / cuSOLVER or LAPACKE beside them",
    .options = 0,
    .run = batched_run,
    .estimate = batched_estimate,
    .summary = batched_summary,
};
