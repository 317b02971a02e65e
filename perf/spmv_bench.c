/* strata perf — SpMV against the peers in the same run (issue: Sparse I, section 5).
 *
 * Generated matrices large enough to leave a 60 MB L2; for each: strata's row-class plan (auto),
 * strata forced one-level (a thread per row: the plain kernel), and, in CUDA builds, cuSPARSE
 * cusparseSpMV CSR ALG1 and ALG2 after cusparseSpMV_preprocess. Time = median over 7 samples of
 * (20 back-to-back SpMVs between two fences) / 20, after 3 warm-ups. Bytes by the minimal-traffic
 * model 12·nnz + 4·(n+1) + 16·n; % of the device-to-device copy bandwidth measured in the same run
 * (strata_mem_copy of 1 GiB, read + write counted). Every y is checked against a host reference
 * before its time is printed. Usage: strata_spmv_bench [--backend B] [--only NAME] [--scale S] */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/sparse.h"

#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#include <cusparse.h>
#endif

typedef struct csr {
  const char *name;
  int64_t n, nnz;
  int64_t *off;
  int32_t *col;
  double *val;
} csr_t;

static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Builds a CSR from a row-length function and a column function, in parallel. */
typedef int64_t (*len_fn)(int64_t r, const void *ctx);
typedef int64_t (*col_fn)(int64_t r, int64_t k, int64_t len, const void *ctx);

static void build(csr_t *A, int64_t n, len_fn lf, col_fn cf, const void *ctx) {
  A->n = n;
  A->off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  A->off[0] = 0;
  for (int64_t r = 0; r < n; ++r) A->off[r + 1] = A->off[r] + lf(r, ctx);
  A->nnz = A->off[n];
  A->col = (int32_t *)malloc((size_t)A->nnz * sizeof(int32_t));
  A->val = (double *)malloc((size_t)A->nnz * sizeof(double));
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < n; ++r) {
    int64_t b = A->off[r], len = A->off[r + 1] - b;
    for (int64_t k = 0; k < len; ++k) {
      A->col[b + k] = (int32_t)cf(r, k, len, ctx);
      A->val[b + k] = 0.5 + (double)(mix((uint64_t)(b + k)) >> 11) * 0x1.0p-53;
    }
  }
}

/* --- generators ---------------------------------------------------------------------------- */
typedef struct { int64_t m, pts; } stencil_ctx;
static int64_t st_len(int64_t r, const void *c) {
  const stencil_ctx *s = (const stencil_ctx *)c;
  int64_t m = s->m, i = r % m, j = (r / m) % m, k = r / (m * m), cnt = 0;
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        if (s->pts == 7 && abs(di) + abs(dj) + abs(dk) > 1) continue;
        if (i + di >= 0 && i + di < m && j + dj >= 0 && j + dj < m && k + dk >= 0 && k + dk < m) ++cnt;
      }
  return cnt;
}
static int64_t st_col(int64_t r, int64_t q, int64_t len, const void *c) {
  const stencil_ctx *s = (const stencil_ctx *)c;
  int64_t m = s->m, i = r % m, j = (r / m) % m, k = r / (m * m), cnt = 0;
  (void)len;
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        if (s->pts == 7 && abs(di) + abs(dj) + abs(dk) > 1) continue;
        if (i + di >= 0 && i + di < m && j + dj >= 0 && j + dj < m && k + dk >= 0 && k + dk < m) {
          if (cnt == q) return r + di + dj * m + dk * m * m;
          ++cnt;
        }
      }
  return r;
}
typedef struct { int64_t n, per; int random; } band_ctx;
static int64_t band_len(int64_t r, const void *c) { (void)r; return ((const band_ctx *)c)->per; }
static int64_t band_col(int64_t r, int64_t k, int64_t len, const void *c) {
  const band_ctx *b = (const band_ctx *)c;
  if (b->random) { /* sorted random columns: k-th of len strata of [0, n) */
    int64_t w = b->n / len;
    return k * w + (int64_t)(mix((uint64_t)(r * 131 + k)) % (uint64_t)w);
  }
  int64_t s = r - len / 2;
  if (s < 0) s = 0;
  if (s + len > b->n) s = b->n - len;
  return s + k;
}
typedef struct { int64_t n, maxlen; double expo; } pl_ctx;
static int64_t pl_len(int64_t r, const void *c) {
  const pl_ctx *p = (const pl_ctx *)c;
  double u = (double)(mix((uint64_t)r ^ 0x5151) >> 11) * 0x1.0p-53;
  int64_t len = (int64_t)pow(1.0 - u, -1.0 / (p->expo - 1.0)); /* density ~ len^-expo */
  if (r == 0) len = p->maxlen;
  return len > p->maxlen ? p->maxlen : len;
}
static int64_t spread_col(int64_t r, int64_t k, int64_t len, const void *c) {
  int64_t n = ((const pl_ctx *)c)->n, w = n / len;
  (void)r;
  return w > 0 ? k * w + (r + k) % w : k;
}
typedef struct { int64_t n, dense_rows, dense_len, per; } dense_ctx;
static int64_t dense_len(int64_t r, const void *c) {
  const dense_ctx *d = (const dense_ctx *)c;
  return r % (d->n / d->dense_rows) == 0 ? d->dense_len : d->per;
}
static int64_t dense_col(int64_t r, int64_t k, int64_t len, const void *c) {
  const dense_ctx *d = (const dense_ctx *)c;
  int64_t w = d->n / len;
  return len > d->per ? k * w : (r + k) % d->n;
}

/* --- measurement --------------------------------------------------------------------------- */
static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
#define SAMPLES 7
#define REPS 20
typedef int (*run_fn)(void *ctx);
static double time_it(strata_exec_t *e, run_fn f, void *ctx) {
  double t[SAMPLES];
  for (int w = 0; w < 3; ++w) f(ctx);
  strata_exec_fence(e);
#if STRATA_HAVE_CUDA
  cudaDeviceSynchronize();
#endif
  for (int s = 0; s < SAMPLES; ++s) {
    double t0 = strata_timer_now();
    for (int r = 0; r < REPS; ++r) f(ctx);
    strata_exec_fence(e);
#if STRATA_HAVE_CUDA
    cudaDeviceSynchronize();
#endif
    t[s] = (strata_timer_now() - t0) / REPS;
  }
  qsort(t, SAMPLES, sizeof t[0], cmp_d);
  return t[SAMPLES / 2];
}

typedef struct { strata_exec_t *e; void *a, *b; size_t bytes; } copy_ctx;
static int run_copy(void *c) {
  copy_ctx *k = (copy_ctx *)c;
  return strata_mem_copy_async(k->e, k->b, k->a, k->bytes);
}
typedef struct { strata_exec_t *e; strata_spmv_plan_t *p; strata_crs_matrix_t *A; double *x, *y; } spmv_ctx;
static int run_plan(void *c) {
  spmv_ctx *k = (spmv_ctx *)c;
  return strata_spmv_plan_apply(k->e, k->p, 1.0, k->A, k->x, 0.0, k->y);
}

static int check(const csr_t *H, const double *x, const double *y, const char *who) {
  int64_t bad = 0, first = -1;
#pragma omp parallel for reduction(+ : bad) schedule(dynamic, 4096)
  for (int64_t r = 0; r < H->n; ++r) {
    double s = 0, sc = 0;
    for (int64_t k = H->off[r]; k < H->off[r + 1]; ++k) {
      s += H->val[k] * x[H->col[k]];
      sc += fabs(H->val[k] * x[H->col[k]]);
    }
    if (!(fabs(y[r] - s) <= 1e-12 * sc + 1e-300)) {
      ++bad;
#pragma omp critical
      if (first < 0 || r < first) first = r;
    }
  }
  if (bad) fprintf(stderr, "  %s: %lld wrong rows (first %lld) — time not counted\n", who, (long long)bad, (long long)first);
  return bad == 0;
}

int main(int argc, char **argv) {
  const char *only = NULL, *bname = "default";
  int sweep = 0;
  double scale = 1.0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--backend") && i + 1 < argc) bname = argv[++i];
    else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atof(argv[++i]);
    else if (!strcmp(argv[i], "--sweep")) sweep = 1;
    else { fprintf(stderr, "usage: %s [--backend B] [--only NAME] [--scale S]\n", argv[0]); return 2; }
  }
  strata_backend_t b;
  strata_exec_t *e = NULL;
  if (strata_init(NULL) || strata_backend_from_name(bname, &b) || strata_exec_default(b, &e)) {
    fprintf(stderr, "%s\n", strata_error_message());
    return 1;
  }
  /* copy bandwidth of the same run */
  copy_ctx cc = {e, NULL, NULL, (size_t)(scale * (1u << 30))};
  strata_mem_alloc(e, STRATA_MEM_DEVICE, cc.bytes, &cc.a);
  strata_mem_alloc(e, STRATA_MEM_DEVICE, cc.bytes, &cc.b);
  strata_mem_set_async(e, cc.a, 1, cc.bytes);
  double tc = time_it(e, run_copy, &cc);
  double copy_bw = 2.0 * (double)cc.bytes / tc / 1e9;
  strata_mem_free(e, STRATA_MEM_DEVICE, &cc.a);
  strata_mem_free(e, STRATA_MEM_DEVICE, &cc.b);
  printf("# backend %s, device-to-device copy %.1f GB/s (read+write, %zu MiB)\n",
         strata_backend_name(strata_exec_backend(e)), copy_bw, cc.bytes >> 20);
  printf("%-22s %9s %10s | %-16s %-16s %-16s %-16s\n", "matrix", "rows", "nnz", "strata auto", "strata 1-level",
         "cusparse alg1", "cusparse alg2");
  printf("%-22s %9s %10s | %-16s %-16s %-16s %-16s\n", "", "", "", "ms  GB/s  %bw", "ms  GB/s  %bw",
         "ms  GB/s  %bw", "ms  GB/s  %bw");

  const int64_t M4 = (int64_t)(4000000 * scale), M3 = (int64_t)(3000000 * scale);
  stencil_ctx p7 = {(int64_t)(150 * cbrt(scale)), 7}, p27 = {(int64_t)(100 * cbrt(scale)), 27};
  band_ctx bd = {M4, 16, 0}, rnd = {M4, 16, 1}, sh = {M4, 3, 1};
  pl_ctx pl = {M3, (int64_t)(200000 * scale), 2.1};
  dense_ctx dn = {M4, 16, (int64_t)(500000 * scale), 8};
  struct { const char *name; int64_t n; len_fn lf; col_fn cf; const void *ctx; } gens[] = {
      {"poisson7_150^3", p7.m * p7.m * p7.m, st_len, st_col, &p7},
      {"poisson27_100^3", p27.m * p27.m * p27.m, st_len, st_col, &p27},
      {"banded16_4M", M4, band_len, band_col, &bd},
      {"random16_4M", M4, band_len, band_col, &rnd},
      {"short3_4M", M4, band_len, band_col, &sh},
      {"powerlaw2.1_3M", M3, pl_len, spread_col, &pl},
      {"dense16x500k_4M", M4, dense_len, dense_col, &dn},
  };
  for (size_t g = 0; g < sizeof gens / sizeof gens[0]; ++g) {
    if (only && !strstr(gens[g].name, only)) continue;
    csr_t H;
    memset(&H, 0, sizeof H);
    H.name = gens[g].name;
    build(&H, gens[g].n, gens[g].lf, gens[g].cf, gens[g].ctx);
    const double bytes = 12.0 * (double)H.nnz + 4.0 * (double)(H.n + 1) + 16.0 * (double)H.n;
    strata_crs_matrix_t A;
    memset(&A, 0, sizeof A);
    A.exec = e;
    A.num_rows = (int32_t)H.n;
    A.num_cols = (int32_t)H.n;
    A.nnz = H.nnz;
    A.fill_complete = 1;
    strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(H.n + 1) * 8, (void **)&A.row_offsets);
    strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)H.nnz * 4, (void **)&A.col_indices);
    strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)H.nnz * 8, (void **)&A.values);
    strata_mem_copy(e, A.row_offsets, H.off, (size_t)(H.n + 1) * 8);
    strata_mem_copy(e, A.col_indices, H.col, (size_t)H.nnz * 4);
    strata_mem_copy(e, A.values, H.val, (size_t)H.nnz * 8);
    double *x = (double *)malloc((size_t)H.n * 8), *y = (double *)malloc((size_t)H.n * 8);
    for (int64_t j = 0; j < H.n; ++j) x[j] = 1.0 + (double)(j % 7) / 8.0;
    double *dx = NULL, *dy = NULL;
    strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)H.n * 8, (void **)&dx);
    strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)H.n * 8, (void **)&dy);
    strata_mem_copy(e, dx, x, (size_t)H.n * 8);
    double ms[4] = {-1, -1, -1, -1};
    for (int v = 0; v < 2; ++v) {
      strata_spmv_options_t o;
      memset(&o, 0, sizeof o);
      o.algorithm = v == 0 ? STRATA_SPMV_AUTO : STRATA_SPMV_ONE_LEVEL;
      spmv_ctx sc = {e, NULL, &A, dx, dy};
      if (strata_spmv_plan_create(e, &A, &o, &sc.p)) {
        fprintf(stderr, "plan: %s\n", strata_error_message());
        return 1;
      }
      strata_mem_set_async(e, dy, 0xFF, (size_t)H.n * 8);
      run_plan(&sc);
      strata_mem_copy(e, y, dy, (size_t)H.n * 8);
      if (check(&H, x, y, v ? "strata 1-level" : "strata auto")) ms[v] = 1e3 * time_it(e, run_plan, &sc);
      strata_spmv_plan_destroy(&sc.p);
    }
#if STRATA_HAVE_CUDA
    if (strata_exec_backend(e) == STRATA_BACKEND_CUDA) {
      cusparseHandle_t h;
      cusparseCreate(&h);
      int32_t *off32 = (int32_t *)malloc((size_t)(H.n + 1) * 4), *doff32 = NULL;
      for (int64_t r = 0; r <= H.n; ++r) off32[r] = (int32_t)H.off[r];
      cudaMalloc((void **)&doff32, (size_t)(H.n + 1) * 4);
      cudaMemcpy(doff32, off32, (size_t)(H.n + 1) * 4, cudaMemcpyHostToDevice);
      cusparseSpMatDescr_t mat;
      cusparseDnVecDescr_t vx, vy;
      cusparseCreateCsr(&mat, H.n, H.n, H.nnz, doff32, A.col_indices, A.values, CUSPARSE_INDEX_32I,
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
      cusparseCreateDnVec(&vx, H.n, dx, CUDA_R_64F);
      cusparseCreateDnVec(&vy, H.n, dy, CUDA_R_64F);
      const double one = 1.0, zero = 0.0;
      cusparseSpMVAlg_t algs[2] = {CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2};
      for (int a = 0; a < 2; ++a) {
        size_t bsz = 0;
        void *buf = NULL;
        cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_64F, algs[a], &bsz);
        cudaMalloc(&buf, bsz ? bsz : 1);
        cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_64F, algs[a], buf);
        cudaMemset(dy, 0xFF, (size_t)H.n * 8);
        cusparseStatus_t cs = cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_64F, algs[a], buf);
        cudaDeviceSynchronize();
        cudaMemcpy(y, dy, (size_t)H.n * 8, cudaMemcpyDeviceToHost);
        if (cs == CUSPARSE_STATUS_SUCCESS && check(&H, x, y, a ? "cusparse alg2" : "cusparse alg1")) {
          double t[SAMPLES];
          for (int w = 0; w < 3; ++w)
            cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_64F, algs[a], buf);
          cudaDeviceSynchronize();
          for (int s = 0; s < SAMPLES; ++s) {
            double t0 = strata_timer_now();
            for (int r = 0; r < REPS; ++r)
              cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_64F, algs[a], buf);
            cudaDeviceSynchronize();
            t[s] = (strata_timer_now() - t0) / REPS;
          }
          qsort(t, SAMPLES, sizeof t[0], cmp_d);
          ms[2 + a] = 1e3 * t[SAMPLES / 2];
        }
        cudaFree(buf);
      }
      cusparseDestroySpMat(mat);
      cusparseDestroyDnVec(vx);
      cusparseDestroyDnVec(vy);
      cusparseDestroy(h);
      cudaFree(doff32);
      free(off32);
    }
#endif
    if (sweep) { /* class thresholds: one-level max, entries per lane, two-level max, three-level max */
      static const int64_t cfg[][4] = {{8, 4, 256, 32768}, {8, 1, 256, 32768}, {8, 2, 256, 32768},
                                       {4, 1, 256, 32768}, {16, 2, 256, 32768}, {8, 2, 4096, 32768},
                                       {8, 2, 256, 1 << 30}, {2, 1, 64, 32768}};
      printf("%-22s sweep (one,epl,two,three -> ms):", H.name);
      for (size_t q = 0; q < sizeof cfg / sizeof cfg[0]; ++q) {
        strata_spmv_options_t o;
        memset(&o, 0, sizeof o);
        o.one_level_max = cfg[q][0];
        o.entries_per_lane = (int)cfg[q][1];
        o.two_level_max = cfg[q][2];
        o.three_level_max = cfg[q][3];
        spmv_ctx sc = {e, NULL, &A, dx, dy};
        if (strata_spmv_plan_create(e, &A, &o, &sc.p)) continue;
        printf(" [%lld,%lld,%lld,%lld] %.3f", (long long)cfg[q][0], (long long)cfg[q][1], (long long)cfg[q][2],
               (long long)cfg[q][3], 1e3 * time_it(e, run_plan, &sc));
        strata_spmv_plan_destroy(&sc.p);
      }
      printf("\n");
    }
    printf("%-22s %9lld %10lld |", H.name, (long long)H.n, (long long)H.nnz);
    for (int v = 0; v < 4; ++v) {
      if (ms[v] < 0)
        printf(" %-16s", "-");
      else {
        double gbs = bytes / (ms[v] * 1e-3) / 1e9;
        printf(" %6.3f %5.0f %3.0f%%", ms[v], gbs, 100.0 * gbs / copy_bw);
      }
    }
    printf("\n");
    fflush(stdout);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dx);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dy);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&A.row_offsets);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&A.col_indices);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&A.values);
    free(x);
    free(y);
    free(H.off);
    free(H.col);
    free(H.val);
  }
  strata_finalize();
  return 0;
}
