/* strata bench — matrix generators and block replication (bench.h); moved here from the former
 * perf/spmv_bench.c. Every generator is a row-length function plus a column function, so the
 * rows are built in parallel and each row's columns come out sorted and unique. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_error.h"
#include "bench.h"

#ifndef BENCH_HAVE_GMSH
#define BENCH_HAVE_GMSH 0
#endif
const char *const bench_gen_names[] = {"poisson7", "poisson27", "banded", "random", "short", "powerlaw", "dense", "hmep",
#if BENCH_HAVE_GMSH
                                       "fem", "elasticity",
#endif
                                       NULL};

/* fem:H and elasticity:H default element sizes (full run; --quick) */
#define FEM_H 0.01
#define FEM_QUICK_H 0.05
#define FEM_H_EL 0.015
#define FEM_QUICK_H_EL 0.06

static uint64_t g_seed;
static uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull + g_seed * 0xd1b54a32d192ed03ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

typedef int64_t (*len_fn)(int64_t r, const void *ctx);
typedef int64_t (*col_fn)(int64_t r, int64_t k, int64_t len, const void *ctx);

static int build(strata_exec_t *serial, int64_t n, len_fn lf, col_fn cf, const void *ctx, strata_crs_matrix_t **A,
                 char *err, size_t err_len) {
  int64_t *off = NULL;
  int32_t *col = NULL;
  double *val = NULL;
  if (n > INT32_MAX || n < 1) {
    snprintf(err, err_len, "%lld rows: outside [1, %d]", (long long)n, INT32_MAX);
    return -1;
  }
  if (strata_mem_alloc(serial, STRATA_MEM_DEVICE, (size_t)(n + 1) * sizeof(int64_t), (void **)&off)) goto oom;
  off[0] = 0;
  for (int64_t r = 0; r < n; ++r) off[r + 1] = off[r] + lf(r, ctx);
  const int64_t nnz = off[n];
  if (strata_mem_alloc(serial, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * sizeof(int32_t), (void **)&col) ||
      strata_mem_alloc(serial, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * sizeof(double), (void **)&val))
    goto oom;
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < n; ++r) {
    int64_t b = off[r], len = off[r + 1] - b;
    for (int64_t k = 0; k < len; ++k) {
      col[b + k] = (int32_t)cf(r, k, len, ctx);
      val[b + k] = 0.5 + (double)(mix((uint64_t)(b + k)) >> 11) * 0x1.0p-53;
    }
  }
  if (strata_crs_create_from_csr(serial, (int32_t)n, (int32_t)n, nnz, off, col, val, STRATA_CRS_ADOPT, A)) {
    snprintf(err, err_len, "%s", strata_error_message());
    goto fail;
  }
  return 0;
oom:
  snprintf(err, err_len, "out of host memory for %lld rows", (long long)n);
fail:
  strata_mem_free(serial, STRATA_MEM_DEVICE, (void **)&off);
  strata_mem_free(serial, STRATA_MEM_DEVICE, (void **)&col);
  strata_mem_free(serial, STRATA_MEM_DEVICE, (void **)&val);
  return -1;
}

/* --- 3D stencils ------------------------------------------------------------------------- */
/* an m x m (x m) grid, or a box of m x my x mz points when my, mz > 0 (laplace7:MX:MY:MZ) */
typedef struct { int64_t m, pts, my, mz; } stencil_ctx;
static int64_t st_walk(int64_t r, int64_t q, const stencil_ctx *s, int64_t *count) {
  const int64_t m = s->m, my = s->my > 0 ? s->my : m, mz = s->mz > 0 ? s->mz : m;
  int64_t i = r % m, j = (r / m) % my, k = r / (m * my), cnt = 0;
  const int kd = s->pts == 5 ? 0 : 1; /* 5: the 2D stencil on an m x m grid (k = 0) */
  for (int dk = -kd; dk <= kd; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di) {
        if (s->pts != 27 && abs(di) + abs(dj) + abs(dk) > 1) continue;
        if (i + di >= 0 && i + di < m && j + dj >= 0 && j + dj < my && k + dk >= 0 && k + dk < mz) {
          if (cnt == q) return r + di + dj * m + dk * m * my;
          ++cnt;
        }
      }
  *count = cnt;
  return r;
}
static int64_t st_len(int64_t r, const void *c) {
  int64_t cnt = 0;
  st_walk(r, -1, (const stencil_ctx *)c, &cnt);
  return cnt;
}
static int64_t st_col(int64_t r, int64_t q, int64_t len, const void *c) {
  int64_t cnt;
  (void)len;
  return st_walk(r, q, (const stencil_ctx *)c, &cnt);
}

/* --- random conductances on the 5-point pattern ------------------------------------------- */
/* The conductance of the edge between cells a and b (b < 0: a's boundary edge -1 - b), the same
 * from either end: 10^(decades (u - 1/2)) with u uniform in [0, 1) from the edge's key. */
static double conductance(int64_t a, int64_t b, double decades, int64_t m) {
  const int64_t n = m * m;
  const uint64_t key = b < 0 ? (uint64_t)(n * n + 4 * a - 1 - b) : (uint64_t)((a < b ? a : b) * n + (a < b ? b : a));
  const double u = (double)(mix(key) >> 11) * 0x1.0p-53;
  return pow(10.0, decades * (u - 0.5));
}

/* --- banded, uniform random, short rows -------------------------------------------------- */
typedef struct { int64_t n, per; int random; } band_ctx;
static int64_t band_len(int64_t r, const void *c) {
  (void)r;
  return ((const band_ctx *)c)->per;
}
static int64_t band_col(int64_t r, int64_t k, int64_t len, const void *c) {
  const band_ctx *b = (const band_ctx *)c;
  if (b->random) { /* sorted random columns: the k-th of len strata of [0, n) */
    int64_t w = b->n / len;
    return k * w + (int64_t)(mix((uint64_t)(r * 131 + k)) % (uint64_t)w);
  }
  int64_t s = r - len / 2;
  if (s < 0) s = 0;
  if (s + len > b->n) s = b->n - len;
  return s + k;
}

/* --- power law and dense bulk rows ------------------------------------------------------- */
typedef struct { int64_t n, maxlen; double expo; } pl_ctx;
static int64_t pl_len(int64_t r, const void *c) {
  const pl_ctx *p = (const pl_ctx *)c;
  double u = (double)(mix((uint64_t)r ^ 0x5151) >> 11) * 0x1.0p-53;
  const double len = pow(1.0 - u, -1.0 / (p->expo - 1.0)); /* density ~ len^-expo */
  /* capped before the conversion: with an exponent near 1 the draw exceeds INT64_MAX (inf at
   * 1.0001), whose conversion is undefined (x86: INT64_MIN, a negative row length) */
  return r == 0 || !(len < (double)p->maxlen) ? p->maxlen : (int64_t)len;
}
static int64_t spread_col(int64_t r, int64_t k, int64_t len, const void *c) {
  int64_t n = ((const pl_ctx *)c)->n, w = n / len;
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
  if (len > d->per) return k * w;
  int64_t s = r - len / 2; /* a band, so that the columns are sorted and unique */
  if (s < 0) s = 0;
  if (s + len > d->n) s = d->n - len;
  return s + k;
}

/* --- HMEp-like (Kreutzer et al., pJDS, 2012): diagonal plus off-diagonals whose offsets stay
 * fixed for SEG consecutive rows (contiguous off-diagonal runs), 12..17 of them per block ---- */
#define HMEP_MAX 18
typedef struct { int64_t n, seg, nblocks; int64_t *offs; int *cnt; } hmep_ctx;
static int64_t hmep_len(int64_t r, const void *c) {
  const hmep_ctx *h = (const hmep_ctx *)c;
  const int64_t b = r / h->seg, *o = h->offs + b * HMEP_MAX;
  int64_t len = 0;
  for (int q = 0; q < h->cnt[b]; ++q) len += r + o[q] >= 0 && r + o[q] < h->n;
  return len;
}
static int64_t hmep_col(int64_t r, int64_t k, int64_t len, const void *c) {
  const hmep_ctx *h = (const hmep_ctx *)c;
  const int64_t b = r / h->seg, *o = h->offs + b * HMEP_MAX;
  (void)len;
  for (int q = 0, i = 0; q < h->cnt[b]; ++q)
    if (r + o[q] >= 0 && r + o[q] < h->n && i++ == k) return r + o[q];
  return r;
}
static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* parses the numeric parameters after NAME ("name:1:2.5") into p (np at most; more: an error, the
 * generator's own limit is checked by the caller); *count gets how many were given, *bad the first
 * (1-based) that is not a positive finite decimal number, 0 if none */
static int params(const char *spec, double *p, int np, int *count, int *bad, char *err, size_t err_len) {
  const char *s = strchr(spec, ':');
  int i = 0;
  *bad = 0;
  while (s && *s == ':') {
    char *end = NULL;
    if (i >= np) {
      snprintf(err, err_len, "gen:%s: at most %d parameters", spec, np);
      return -1;
    }
    double v = cli_strtod(s + 1, &end);
    if (end == s + 1 || (*end && *end != ':') || !(v > 0) || !isfinite(v)) {
      if (!*bad) *bad = i + 1;
      v = 0;
      end = (char *)strchr(s + 1, ':');
      if (!end) end = (char *)s + strlen(s);
    }
    p[i++] = v;
    s = end;
  }
  *count = i;
  return 0;
}

int bench_gen(strata_exec_t *serial, const char *spec, int quick, double scale, uint64_t seed,
              strata_crs_matrix_t **A, char *name, size_t name_len, char *err, size_t err_len) {
  g_seed = seed;
  size_t nl = strcspn(spec, ":");
  const double S = scale;
  double p[4] = {0, 0, 0, 0};
#define IS(x) (nl == strlen(x) && !strncmp(spec, x, nl))
#define DEF(i, full, q) (p[i] > 0 ? p[i] : (quick ? (q) : (full)) * S)
  int count = 0, bad = 0;
  if (params(spec, p, 4, &count, &bad, err, err_len)) return -1;
  /* a generator takes at most k parameters: a (k+1)-th is refused, not ignored; then each given one
   * must be a positive number, and those of bit i in `ints` (sizes, counts) integers in
   * [1, INT32_MAX] (a fraction is refused, not truncated) */
#define AT_MOST(k, ints, what)                                                                        \
  do {                                                                                                \
    if (count > (k)) {                                                                                \
      snprintf(err, err_len, "gen:%s: at most %d parameter%s (%s)", spec, (k), (k) == 1 ? "" : "s", what); \
      return -1;                                                                                      \
    }                                                                                                 \
    if (bad) {                                                                                        \
      snprintf(err, err_len, "gen:%s: parameter %d is not a positive finite decimal number (%s)", spec, bad, what);  \
      return -1;                                                                                      \
    }                                                                                                 \
    for (int q_ = 0; q_ < count; ++q_)                                                                \
      if (((ints) >> q_ & 1) && (p[q_] != floor(p[q_]) || p[q_] > INT32_MAX)) {                       \
        snprintf(err, err_len, "gen:%s: parameter %d is %.15g, not an integer in [1, %d] (%s)", spec, q_ + 1, p[q_], \
                 INT32_MAX, what);                                                                    \
        return -1;                                                                                    \
      }                                                                                               \
  } while (0)
  if (IS("poisson7") || IS("poisson27")) {
    AT_MOST(1, 1, "the grid edge");
    stencil_ctx s = {(int64_t)(p[0] > 0 ? p[0] : (quick ? (nl == 8 ? 24 : 16) : (nl == 8 ? 150 : 100)) * cbrt(S)),
                     nl == 8 ? 7 : 27, 0, 0};
    snprintf(name, name_len, "%s_%lld^3", nl == 8 ? "poisson7" : "poisson27", (long long)s.m);
    if (s.m < 2 || s.m > 1290) { snprintf(err, err_len, "gen:%s: grid edge %lld outside [2, 1290]", spec, (long long)s.m); return -1; }
    return build(serial, s.m * s.m * s.m, st_len, st_col, &s, A, err, err_len);
  }
  if (IS("laplace7") || IS("laplace5")) { /* the Laplacian's values on the 7- / 5-point pattern: SPD, for the solvers */
    const int two_d = IS("laplace5");
    if (two_d) AT_MOST(1, 1, "the grid edge");
    else AT_MOST(3, 7, "the grid edge, or the box's three edges MX:MY:MZ");
    if (!two_d && count == 2) {
      snprintf(err, err_len, "gen:%s: one grid edge M (an M^3 cube) or three box edges MX:MY:MZ, not two", spec);
      return -1;
    }
    const int64_t lim = two_d ? 46340 : 1290; /* m^2 or m^3 rows <= INT32_MAX */
    stencil_ctx s = {(int64_t)(p[0] > 0 ? p[0] : two_d ? (quick ? 40 : 1000) * sqrt(S) : (quick ? 16 : 100) * cbrt(S)),
                     two_d ? 5 : 7, 0, 0};
    if (count == 3) { /* a box: MX x MY x MZ points, rows numbered x fastest, then y, then z */
      s.my = (int64_t)p[1], s.mz = (int64_t)p[2];
      const int64_t e[3] = {s.m, s.my, s.mz};
      for (int q = 0; q < 3; ++q)
        if (e[q] < 2) {
          snprintf(err, err_len, "gen:%s: box edge %d is %lld, below 2", spec, q + 1, (long long)e[q]);
          return -1;
        }
      if ((double)s.m * (double)s.my * (double)s.mz > (double)INT32_MAX) {
        snprintf(err, err_len, "gen:%s: %.0f rows exceed %d", spec, (double)s.m * (double)s.my * (double)s.mz, INT32_MAX);
        return -1;
      }
      snprintf(name, name_len, "laplace7_%lldx%lldx%lld", (long long)s.m, (long long)s.my, (long long)s.mz);
      if (build(serial, s.m * s.my * s.mz, st_len, st_col, &s, A, err, err_len)) return -1;
    } else {
      snprintf(name, name_len, "laplace%d_%lld^%d", two_d ? 5 : 7, (long long)s.m, two_d ? 2 : 3);
      if (s.m < 2 || s.m > lim) {
        snprintf(err, err_len, "gen:%s: grid edge %lld outside [2, %lld]", spec, (long long)s.m, (long long)lim);
        return -1;
      }
      if (build(serial, two_d ? s.m * s.m : s.m * s.m * s.m, st_len, st_col, &s, A, err, err_len)) return -1;
    }
    const strata_crs_matrix_t *L = *A; /* serial: host memory */
    const double diag = two_d ? 4.0 : 6.0;
    for (int32_t r = 0; r < L->num_rows; ++r)
      for (int64_t k = L->row_offsets[r]; k < L->row_offsets[r + 1]; ++k) L->values[k] = L->col_indices[k] == r ? diag : -1.0;
    return 0;
  }
  if (IS("conduct5")) { /* 2D 5-point finite volumes with random conductances: ecology2's kind (Circuitscape) */
    AT_MOST(2, 1, "the grid edge, decades");
    const stencil_ctx s = {(int64_t)(p[0] > 0 ? p[0] : (quick ? 40 : 1000) * sqrt(S)), 5, 0, 0};
    const double decades = p[1] > 0 ? p[1] : 4.0;
    snprintf(name, name_len, "conduct5_%lld^2_%gdec", (long long)s.m, decades);
    if (s.m < 2 || s.m > 46340) {
      snprintf(err, err_len, "gen:%s: grid edge %lld outside [2, 46340]", spec, (long long)s.m);
      return -1;
    }
    if (decades > 12) {
      snprintf(err, err_len, "gen:%s: %g decades of conductance exceed 12 (the matrix would be singular in double)", spec, decades);
      return -1;
    }
    if (build(serial, s.m * s.m, st_len, st_col, &s, A, err, err_len)) return -1;
    const strata_crs_matrix_t *L = *A; /* serial: host memory */
    const int64_t m = s.m;
    for (int32_t r = 0; r < L->num_rows; ++r) {
      /* four edges per cell; those leaving the grid go to a grounded boundary (Dirichlet) */
      const int64_t i = r % m, j = r / m;
      double diag = 0;
      const int64_t nb[4] = {i > 0 ? r - 1 : -1, i < m - 1 ? r + 1 : -1, j > 0 ? r - m : -1, j < m - 1 ? r + m : -1};
      for (int q = 0; q < 4; ++q) diag += conductance(r, nb[q] >= 0 ? nb[q] : -1 - q, decades, m);
      for (int64_t k = L->row_offsets[r]; k < L->row_offsets[r + 1]; ++k) {
        const int32_t c = L->col_indices[k];
        L->values[k] = c == r ? diag : -conductance(r, c, decades, m);
      }
    }
    return 0;
  }
  if (IS("banded") || IS("random") || IS("short")) {
    const int sh = IS("short");
    AT_MOST(2, 3, "rows, entries per row");
    band_ctx b = {(int64_t)DEF(0, 4e6, 5e4), (int64_t)(p[1] > 0 ? p[1] : sh ? 3 : 16), !IS("banded")};
    if (b.per > b.n) { snprintf(err, err_len, "gen:%s: %lld per row exceed %lld rows", spec, (long long)b.per, (long long)b.n); return -1; }
    snprintf(name, name_len, "%.*s%lld_%lld", (int)nl, spec, (long long)b.per, (long long)b.n);
    return build(serial, b.n, band_len, band_col, &b, A, err, err_len);
  }
  if (IS("powerlaw")) {
    AT_MOST(3, 5, "rows, exponent, longest row");
    pl_ctx q = {(int64_t)DEF(0, 3e6, 5e4), 0, p[1] > 0 ? p[1] : 2.1};
    q.maxlen = (int64_t)DEF(2, 2e5, 5e3);
    if (q.expo <= 1.0) { snprintf(err, err_len, "gen:%s: exponent %g must exceed 1", spec, q.expo); return -1; }
    if (q.maxlen > q.n) {
      snprintf(err, err_len, "gen:%s: longest row %lld%s exceeds the %lld columns", spec, (long long)q.maxlen,
               p[2] > 0 ? "" : " (the default: give MAX)", (long long)q.n);
      return -1;
    }
    snprintf(name, name_len, "powerlaw%.3g_%lld", q.expo, (long long)q.n);
    return build(serial, q.n, pl_len, spread_col, &q, A, err, err_len);
  }
  if (IS("dense")) {
    AT_MOST(4, 15, "rows, dense rows, their length, entries per other row");
    dense_ctx d = {(int64_t)DEF(0, 4e6, 5e4), (int64_t)(p[1] > 0 ? p[1] : quick ? 4 : 16), (int64_t)DEF(2, 5e5, 2e4),
                   (int64_t)(p[3] > 0 ? p[3] : 8)};
    const int64_t dsize[3] = {d.dense_rows, d.dense_len, d.per};
    static const char *const dname[3] = {"dense rows", "dense row length", "entries per other row"};
    for (int q = 0; q < 3; ++q)
      if (dsize[q] > d.n) {
        snprintf(err, err_len, "gen:%s: %s %lld%s exceeds the %lld rows", spec, dname[q], (long long)dsize[q],
                 p[q + 1] > 0 ? "" : " (the default)", (long long)d.n);
        return -1;
      }
    snprintf(name, name_len, "dense%lldx%lld_%lld", (long long)d.dense_rows, (long long)d.dense_len, (long long)d.n);
    return build(serial, d.n, dense_len, dense_col, &d, A, err, err_len);
  }
  if (IS("hmep")) {
    AT_MOST(2, 3, "rows, segment length");
    hmep_ctx h = {(int64_t)DEF(0, 4e6, 6e4), (int64_t)(p[1] > 0 ? p[1] : 15000), 0, NULL, NULL};
    h.nblocks = (h.n + h.seg - 1) / h.seg;
    h.offs = (int64_t *)malloc((size_t)h.nblocks * HMEP_MAX * sizeof(int64_t));
    h.cnt = (int *)malloc((size_t)h.nblocks * sizeof(int));
    if (!h.offs || !h.cnt) { /* N / SEG blocks of offsets: 148 bytes each */
      snprintf(err, err_len, "gen:%s: out of host memory for the offsets of %lld blocks of %lld rows (%lld bytes)", spec,
               (long long)h.nblocks, (long long)h.seg, (long long)h.nblocks * (HMEP_MAX * 8 + 4));
      free(h.offs);
      free(h.cnt);
      return -1;
    }
    for (int64_t b = 0; b < h.nblocks; ++b) {
      int64_t *o = h.offs + b * HMEP_MAX;
      int c = 0;
      o[c++] = 0;
      const int want = 13 + (int)(mix((uint64_t)b * 7 + 3) % 5); /* 13..17 with the diagonal: ~15 */
      for (int t = 0; c < want && t < 200; ++t) {
        uint64_t z = mix((uint64_t)b * 1009 + (uint64_t)t);
        int64_t d = 1 + (int64_t)(z % (uint64_t)(h.n / 4 > 1 ? h.n / 4 : 1));
        if (z >> 63) d = -d;
        int dup = 0;
        for (int q = 0; q < c; ++q) dup |= o[q] == d;
        if (!dup) o[c++] = d;
      }
      qsort(o, (size_t)c, sizeof(int64_t), cmp_i64);
      h.cnt[b] = c;
    }
    snprintf(name, name_len, "hmep_%lld_seg%lld", (long long)h.n, (long long)h.seg);
    int rc = build(serial, h.n, hmep_len, hmep_col, &h, A, err, err_len);
    free(h.offs);
    free(h.cnt);
    return rc;
  }
  if (IS("fem") || IS("elasticity")) { /* element size H: nodes grow as H^-3 */
    const int el = IS("elasticity");
    AT_MOST(1, 0, "the element size H");
    return bench_gen_fem(serial, el ? 3 : 1, p[0] > 0 ? p[0] : (quick ? (el ? FEM_QUICK_H_EL : FEM_QUICK_H) : (el ? FEM_H_EL : FEM_H)) / cbrt(S),
                         A, name, name_len, err, err_len);
  }
  snprintf(err, err_len, "gen:%s: unknown generator (poisson7, poisson27, laplace7, laplace5, conduct5, banded, random, short, powerlaw, dense, hmep, fem, "
           "elasticity)", spec);
  return -1;
#undef IS
#undef DEF
}

int bench_replicate(const strata_crs_matrix_t *A, int k, strata_crs_matrix_t **out, char *err, size_t err_len) {
  strata_exec_t *e = A->exec;
  const int64_t n = (int64_t)A->num_rows * k, nc = (int64_t)A->num_cols * k, nnz = A->nnz * k;
  if (n > INT32_MAX || nc > INT32_MAX) { /* name the extent that is too large (a wide matrix: its columns) */
    snprintf(err, err_len, "--replicate %d: %lld %s exceed %d", k, (long long)(n > INT32_MAX ? n : nc),
             n > INT32_MAX ? "rows" : "columns", INT32_MAX);
    return -1;
  }
  int64_t *off = NULL;
  int32_t *col = NULL;
  double *val = NULL;
  if (strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(n + 1) * 8, (void **)&off) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * 4, (void **)&col) ||
      strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(nnz ? nnz : 1) * 8, (void **)&val)) {
    snprintf(err, err_len, "--replicate %d: out of memory for %lld rows and %lld entries (%.3g GB)%s%s", k,
             (long long)n, (long long)nnz, ((double)(n + 1) * 8 + (double)nnz * 12) / 1e9,
             strata_error_message()[0] ? ": " : "", strata_error_message());
    goto fail;
  }
  off[0] = 0;
  for (int64_t r = 0; r < n; ++r) {
    int64_t i = r / k;
    off[r + 1] = off[r] + (A->row_offsets[i + 1] - A->row_offsets[i]);
  }
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t r = 0; r < n; ++r) {
    const int64_t i = r / k, b = r % k, s = A->row_offsets[i], len = A->row_offsets[i + 1] - s;
    for (int64_t q = 0; q < len; ++q) {
      col[off[r] + q] = (int32_t)(A->col_indices[s + q] * (int64_t)k + b);
      val[off[r] + q] = A->values ? A->values[s + q] : 0.0;
    }
  }
  if (strata_crs_create_from_csr(e, (int32_t)n, (int32_t)nc, nnz, off, col, val, STRATA_CRS_ADOPT, out)) {
    snprintf(err, err_len, "%s", strata_error_message());
    goto fail;
  }
  return 0;
fail:
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&off);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&col);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&val);
  return -1;
}
