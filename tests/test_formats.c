/* strata — every storage format of strata/formats.h against the csr format (the row-class plan)
 * on generated structures: empty rows in runs and at the end, one dense row, power-law rows,
 * rectangular shapes, zero sizes; alpha/beta semantics; footprints. A format not implemented yet
 * must be refused with STRATA_ERR_UNSUPPORTED naming it. The permuted basis (permute in, SpMV
 * there, permute out; iterations there) on generated and shared matrices, against the original
 * order and host references. */
#include "strata/sparse.h"
#include "formats_check.h"
#include "test_common.h"
#include "test_sparse_host.h"

typedef struct gen {
  int32_t m, n;
  int64_t nnz;
  int32_t *r, *c;
  double *v;
} gen_t;

static void push(gen_t *g, int64_t *cap, int32_t r, int32_t c, double v) {
  if (g->nnz == *cap) {
    *cap = *cap ? 2 * *cap : 256;
    g->r = (int32_t *)realloc(g->r, (size_t)*cap * sizeof(int32_t));
    g->c = (int32_t *)realloc(g->c, (size_t)*cap * sizeof(int32_t));
    g->v = (double *)realloc(g->v, (size_t)*cap * sizeof(double));
  }
  g->r[g->nnz] = r;
  g->c[g->nnz] = c;
  g->v[g->nnz++] = v;
}

/* kind 0: random short rows with runs of empty rows and empty rows at the end; 1: one dense row;
 * 2: power-law rows; 3: rectangular wide; 4: rectangular tall; 5: no entries; 6: 0 x 0; 7: 9 x 0;
 * 8: row lengths that do not increase (sorting by length moves no row) */
static gen_t make(int kind, uint64_t *s) {
  gen_t g;
  memset(&g, 0, sizeof g);
  int64_t cap = 0;
  g.m = kind == 3 ? 37 : kind == 4 ? 900 : kind == 6 ? 0 : kind == 7 ? 9 : kind == 8 ? 300 : 500;
  g.n = kind == 3 ? 1200 : kind == 4 ? 40 : kind >= 6 && kind <= 7 ? 0 : kind == 8 ? 300 : 500;
  for (int32_t i = 0; i < g.m; ++i) {
    int64_t len = 0;
    if (kind == 0) len = (i / 7) % 3 == 1 || i > g.m - 9 ? 0 : (int64_t)(t_rand(s) % 9);
    if (kind == 1) len = i == 17 ? g.n : (int64_t)(t_rand(s) % 4);
    if (kind == 2) len = (int64_t)pow(1.0 - t_uniform(s), -1.0 / 1.1);
    if (kind == 3 || kind == 4) len = (int64_t)(t_rand(s) % 12);
    if (kind == 8) len = 9 - 10 * (int64_t)i / g.m;
    if (len > g.n) len = g.n;
    const int64_t start = g.n ? (int64_t)(t_rand(s) % (uint64_t)g.n) : 0;
    for (int64_t k = 0; k < len; ++k)
      push(&g, &cap, i, (int32_t)((start + k) % g.n), (double)((int64_t)(t_rand(s) % 17) - 8) / 4.0);
  }
  return g;
}

/* g as a fill-complete CrsMatrix on T_exec */
static strata_crs_matrix_t *gen_crs(const gen_t *g) {
  int32_t *dr = (int32_t *)t_to_dev(g->r, (size_t)g->nnz * sizeof(int32_t));
  int32_t *dc = (int32_t *)t_to_dev(g->c, (size_t)g->nnz * sizeof(int32_t));
  double *dv = (double *)t_to_dev(g->v, (size_t)g->nnz * sizeof(double));
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_coo(T_exec, g->m, g->n, g->nnz, dr, dc, dv, &A));
  t_dev_free(dr);
  t_dev_free(dc);
  t_dev_free(dv);
  return A;
}

static void gen_free(gen_t *g) {
  free(g->r);
  free(g->c);
  free(g->v);
}

static void test_every_format(void **state) {
  (void)state;
  uint64_t s = T_seed;
  for (int kind = 0; kind <= 8; ++kind) {
    gen_t g = make(kind, &s);
    strata_crs_matrix_t *A = gen_crs(&g);
    double *x = (double *)malloc(((size_t)g.n + 1) * sizeof(double));
    double *y0 = (double *)malloc(((size_t)g.m + 1) * sizeof(double));
    double *yref = (double *)malloc(((size_t)g.m + 1) * sizeof(double));
    double *y = (double *)malloc(((size_t)g.m + 1) * sizeof(double));
    /* quarter-integers: every summation order gives the same bits */
    for (int32_t j = 0; j < g.n; ++j) x[j] = (double)((int64_t)(t_rand(&s) % 9) - 4) / 4.0;
    for (int32_t i = 0; i < g.m; ++i) y0[i] = (double)((int64_t)(t_rand(&s) % 9) - 4);
    double *dx = (double *)t_to_dev(x, (size_t)g.n * sizeof(double));
    double *dy = (double *)t_dev_alloc(((size_t)g.m + 1) * sizeof(double));
    strata_sparse_format_t *ref = NULL;
    T_OK(strata_format_create(T_exec, A, STRATA_FORMAT_CSR, NULL, &ref));
    const double ab[3][2] = {{1.0, 0.0}, {-0.5, 2.0}, {0.0, 0.25}};
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f) {
      strata_sparse_format_t *M = NULL;
      strata_status_t st = strata_format_create(T_exec, A, (strata_format_t)f, NULL, &M);
      if (st == STRATA_ERR_UNSUPPORTED) {
        assert_non_null(strstr(strata_error_message(), strata_format_name((strata_format_t)f)));
        assert_null(M);
        continue;
      }
      T_OK(st);
      strata_format_footprint_t fp;
      strata_format_t held;
      T_OK(strata_format_info(M, &held, &fp));
      /* stored entries hold every nonzero; padding is what they add */
      assert_true(fp.stored >= g.nnz);
      assert_int_equal(fp.padding, fp.stored - g.nnz);
      assert_true(fp.bytes > 0 || g.nnz == 0 || g.m == 0);
      char label[96];
      snprintf(label, sizeof label, "format %s, structure %d", strata_format_name((strata_format_t)f), kind);
      for (int t = 0; t < 3; ++t) formats_expect_csr(ref, M, g.m, dx, dy, y0, yref, y, ab[t][0], ab[t][1], label);
      T_OK(strata_format_destroy(&M));
      assert_null(M);
    }
    strata_format_destroy(&ref);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y0);
    free(yref);
    free(y);
    gen_free(&g);
    strata_crs_destroy(&A);
  }
}

static void test_names(void **state) {
  (void)state;
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f) {
    strata_format_t back;
    T_OK(strata_format_from_name(strata_format_name((strata_format_t)f), &back));
    assert_int_equal(back, f);
  }
  strata_format_t x;
  T_ERR(strata_format_from_name("ellpack-q", &x), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "ellpack-q"));
  assert_non_null(strstr(strata_error_message(), "sell-c-sigma"));
  strata_sparse_format_t *M = NULL;
  T_ERR(strata_format_create(T_exec, NULL, STRATA_FORMAT_CSR, NULL, &M), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_format_destroy(&M)); /* NULL-safe */
}

/* Stored entries of sorted, sliced padding on the host: rows sorted by length, descending,
 * within windows of sigma rows (stable), slices of C rows each padded to its longest row rounded
 * up to a multiple of round. ELLPACK-R: sigma 1, C = m. */
static int cmp_desc(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}
static int64_t sliced_stored(const gen_t *g, int64_t C, int64_t sigma, int64_t round) {
  int64_t *len = (int64_t *)calloc((size_t)g->m + 1, sizeof(int64_t));
  for (int64_t k = 0; k < g->nnz; ++k) len[g->r[k]]++;
  for (int64_t w = 0; w < g->m; w += sigma)
    qsort(len + w, (size_t)(w + sigma < g->m ? sigma : g->m - w), sizeof(int64_t), cmp_desc);
  int64_t stored = 0;
  for (int64_t c = 0; c < g->m; c += C) {
    const int64_t h = c + C < g->m ? C : g->m - c;
    int64_t mx = 0;
    for (int64_t i = c; i < c + h; ++i) mx = len[i] > mx ? len[i] : mx;
    stored += h * ((mx + round - 1) / round * round);
  }
  free(len);
  return stored;
}

/* ELLPACK-R of a matrix with one dense row stores m x n; SELL-C-σ with σ = m and pJDS store far
 * less (the pJDS paper's point); non-default options (C = 4; σ = 1, 32, m; SELL-P lanes 4; pJDS
 * b_r = 4) give the expected stored entries and the same y as csr; invalid options are refused. */
static void test_sliced_footprints(void **state) {
  (void)state;
  uint64_t s = T_seed;
  const int kinds[3] = {1, 2, 4};
  for (int kk = 0; kk < 3; ++kk) {
    const int kind = kinds[kk];
    gen_t g = make(kind, &s);
    strata_crs_matrix_t *A = gen_crs(&g);
    double *x = (double *)malloc((size_t)g.n * sizeof(double));
    double *yref = (double *)malloc((size_t)g.m * sizeof(double));
    double *y = (double *)malloc((size_t)g.m * sizeof(double));
    for (int32_t j = 0; j < g.n; ++j) x[j] = (double)((int64_t)(t_rand(&s) % 9) - 4) / 4.0;
    double *dx = (double *)t_to_dev(x, (size_t)g.n * sizeof(double));
    double *dy = (double *)t_dev_alloc((size_t)g.m * sizeof(double));
    strata_sparse_format_t *ref = NULL;
    T_OK(strata_format_create(T_exec, A, STRATA_FORMAT_CSR, NULL, &ref));
    T_OK(strata_format_spmv(T_exec, ref, 1.5, dx, 0.0, dy));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(yref, dy, (size_t)g.m * sizeof(double));
    strata_format_footprint_t ellr;
    strata_sparse_format_t *M = NULL;
    T_OK(strata_format_create(T_exec, A, STRATA_FORMAT_ELLPACK_R, NULL, &M));
    T_OK(strata_format_info(M, NULL, &ellr));
    T_OK(strata_format_destroy(&M));
    assert_int_equal(ellr.stored, sliced_stored(&g, g.m, 1, 1));
    if (kind == 1) assert_int_equal(ellr.stored, (int64_t)g.m * g.n); /* the dense row's width */
    struct { strata_format_t f; int C, sigma, tpr, br; int64_t expect; } cases[8] = {
        {STRATA_FORMAT_SELL_C_SIGMA, 4, 1, 0, 0, sliced_stored(&g, 4, 1, 1)},
        {STRATA_FORMAT_SELL_C_SIGMA, 4, 32, 0, 0, sliced_stored(&g, 4, 32, 1)},
        {STRATA_FORMAT_SELL_C_SIGMA, 4, g.m, 0, 0, sliced_stored(&g, 4, g.m, 1)},
        {STRATA_FORMAT_SELL_C_SIGMA, 3, 7, 0, 0, sliced_stored(&g, 3, 7, 1)},
        {STRATA_FORMAT_SELL_P, 4, 32, 4, 0, sliced_stored(&g, 4, 32, 4)},
        {STRATA_FORMAT_SELL_P, 4, 1, 2, 0, sliced_stored(&g, 4, 1, 2)},
        {STRATA_FORMAT_PJDS, 0, 0, 0, 4, sliced_stored(&g, 4, g.m, 1)},
        {STRATA_FORMAT_PJDS, 0, 0, 0, 1, g.nnz}};
    for (int c = 0; c < 8; ++c) {
      strata_format_options_t o;
      memset(&o, 0, sizeof o);
      o.chunk_height = cases[c].C;
      o.sigma = cases[c].sigma;
      o.threads_per_row = cases[c].tpr;
      o.block_rows = cases[c].br;
      T_OK(strata_format_create(T_exec, A, cases[c].f, &o, &M));
      strata_format_footprint_t fp;
      T_OK(strata_format_info(M, NULL, &fp));
      if (fp.stored != cases[c].expect)
        fail_msg("%s case %d structure %d: %lld stored, expected %lld", strata_format_name(cases[c].f), c, kind,
                 (long long)fp.stored, (long long)cases[c].expect);
      assert_int_equal(fp.padding, fp.stored - g.nnz);
      assert_true(fabs(fp.overhead - (double)fp.padding / (double)g.nnz) < 1e-12);
      assert_true(fp.bytes >= (size_t)fp.stored * 12);
      T_OK(strata_mem_set_async(T_exec, dy, 0xFF, (size_t)g.m * sizeof(double)));
      T_OK(strata_format_spmv(T_exec, M, 1.5, dx, 0.0, dy));
      T_OK(strata_exec_fence(T_exec));
      t_to_host(y, dy, (size_t)g.m * sizeof(double));
      for (int32_t i = 0; i < g.m; ++i)
        if (!(y[i] == yref[i]))
          fail_msg("%s case %d structure %d: y[%d] = %.17g, csr gives %.17g", strata_format_name(cases[c].f), c, kind, i,
                   y[i], yref[i]);
      T_OK(strata_format_destroy(&M));
    }
    /* one dense row: SELL-C-σ with σ = m and pJDS (default C and b_r) store far less than
     * ELLPACK-R */
    if (kind == 1) {
      const strata_format_t fs[2] = {STRATA_FORMAT_SELL_C_SIGMA, STRATA_FORMAT_PJDS};
      for (int k = 0; k < 2; ++k) {
        strata_format_options_t o;
        memset(&o, 0, sizeof o);
        o.sigma = g.m;
        strata_format_footprint_t fp;
        T_OK(strata_format_create(T_exec, A, fs[k], &o, &M));
        T_OK(strata_format_info(M, NULL, &fp));
        T_OK(strata_format_destroy(&M));
        if (!(fp.stored * 10 < ellr.stored))
          fail_msg("%s stores %lld entries, ELLPACK-R %lld", strata_format_name(fs[k]), (long long)fp.stored,
                   (long long)ellr.stored);
      }
    }
    /* invalid options */
    strata_format_options_t o;
    memset(&o, 0, sizeof o);
    o.threads_per_row = 3;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_SELL_P, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    assert_null(M);
    o.threads_per_row = 128; /* above every backend's limit (the warp; 64 on host backends) */
    t_expect_msg(strata_format_create(T_exec, A, STRATA_FORMAT_SELL_P, &o, &M), STRATA_ERR_INVALID_ARGUMENT,
                 "threads_per_row 128", strata_exec_is_host(T_exec) ? "up to 64" : "up to");
    assert_null(M);
    o.threads_per_row = 0;
    o.chunk_height = -1;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_SELL_C_SIGMA, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    o.chunk_height = 0;
    o.block_rows = -2;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_PJDS, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    /* options of other formats are checked too: a bad value never passes unnoticed */
    o.block_rows = 0;
    o.sigma = -1;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_ELL, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(strata_error_message(), "sigma = -1")); /* the offending field, named */
    o.sigma = 0;
    o.hyb_strategy = 5;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_HEC, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(strata_error_message(), "hyb_strategy = 5"));
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_AUTO, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    assert_null(M);
    strata_format_destroy(&ref);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(yref);
    free(y);
    gen_free(&g);
    strata_crs_destroy(&A);
  }
}

/* ------------------------------------------------------------------ permuted basis */

/* The expected row order of M's basis: pjds's rows by length, descending, stable (a counting
 * sort); the identity for every other format. [nr] host. */
static int32_t *expected_basis(const host_crs_t *h, int sorted) {
  int32_t *p = (int32_t *)t_malloc(((size_t)h->nr + 1) * sizeof(int32_t));
  int64_t max_len = 0;
  for (int32_t i = 0; i < h->nr; ++i) {
    p[i] = i;
    if (h->ro[i + 1] - h->ro[i] > max_len) max_len = h->ro[i + 1] - h->ro[i];
  }
  if (!sorted) return p;
  int64_t *first = (int64_t *)t_malloc(((size_t)max_len + 2) * sizeof(int64_t)); /* by length, longest first */
  memset(first, 0, ((size_t)max_len + 2) * sizeof(int64_t));
  for (int32_t i = 0; i < h->nr; ++i) first[max_len - (h->ro[i + 1] - h->ro[i]) + 1]++;
  for (int64_t l = 1; l <= max_len + 1; ++l) first[l] += first[l - 1];
  for (int32_t i = 0; i < h->nr; ++i) p[first[max_len - (h->ro[i + 1] - h->ro[i])]++] = i;
  free(first);
  return p;
}

/* y = alpha A x + beta y (beta == 0: y not read) on the host, each row in stored order */
static void host_spmv(const host_crs_t *h, double alpha, const double *x, double beta, double *y) {
  for (int32_t i = 0; i < h->nr; ++i) {
    double s = 0.0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) s += h->v[k] * x[h->ci[k]];
    y[i] = beta == 0.0 ? alpha * s : alpha * s + beta * y[i];
  }
}

/* got [n] must equal want: bit for bit (tol == 0) or within tol * max(1, max |want|) */
static void expect_vec(const char *label, const char *what, const double *got, const double *want, int32_t n,
                       double tol) {
  double scale = 1.0;
  for (int32_t i = 0; i < n; ++i) scale = fabs(want[i]) > scale ? fabs(want[i]) : scale;
  for (int32_t i = 0; i < n; ++i)
    if (tol == 0.0 ? !(got[i] == want[i]) : !(fabs(got[i] - want[i]) <= tol * scale))
      fail_msg("%s: %s[%d] = %.17g, expected %.17g (seed %llu)", label, what, i, got[i], want[i],
               (unsigned long long)T_seed);
}

static double *dev_vec(int32_t n) { return (double *)t_dev_alloc(((size_t)n + 1) * sizeof(double)); }
static void vec_to_host(double *h, const double *d, int32_t n) {
  T_OK(strata_exec_fence(T_exec));
  t_to_host(h, d, (size_t)n * sizeof(double));
}

/* M = A in format f (options o): the basis that strata_format_is_permuted reports and
 * permute_in produces is the expected one; for several alpha / beta, SpMV in the basis equals
 * strata_format_spmv's y read through the row order and permute_out puts it back in place;
 * strata_format_spmv equals the host reference (tol as expect_vec: 0 for quarter-integer data);
 * square: six iterations v <- 0.5 A v (+ -0.25 v on every other one) in the basis, permuted
 * out, equal the same iterations in the original order. pjds runs one kernel in both orders, so
 * it must agree bit for bit; the other formats run the same call twice, which the ones with
 * atomics (coo, csr-lb, ...) do not reproduce to the last bit on multithreaded backends. */
static void check_permuted_basis(const strata_crs_matrix_t *A, const host_crs_t *h, strata_format_t f,
                                 const strata_format_options_t *o, double tol, const char *what, uint64_t *s) {
  strata_sparse_format_t *M = NULL;
  const strata_status_t st = strata_format_create(T_exec, A, f, o, &M);
  if (st == STRATA_ERR_UNSUPPORTED) return;
  T_OK(st);
  const int32_t m = h->nr, n = h->nc;
  char label[300];
  snprintf(label, sizeof label, "%s, format %s%s", what, strata_format_name(f), o ? " (options)" : "");
  strata_format_t held; /* auto: the format chosen */
  T_OK(strata_format_info(M, &held, NULL));
  int32_t *rp = expected_basis(h, held == STRATA_FORMAT_PJDS);
  /* two runs: bit for bit (pjds on host) or normwise (on GPUs the two pjds kernels may contract
   * their multiply-adds differently: 1 ulp seen on an H200) */
  const double same = held == STRATA_FORMAT_PJDS && strata_exec_is_host(T_exec) ? 0.0 : 1e-12;
  int rows_moved = 0;
  for (int32_t i = 0; i < m; ++i) rows_moved |= rp[i] != i;
  const int cols_moved = rows_moved && m == n;
  int got_rows = -1, got_cols = -1;
  T_OK(strata_format_is_permuted(M, &got_rows, &got_cols));
  if (got_rows != rows_moved || got_cols != cols_moved)
    fail_msg("%s: is_permuted gives rows %d, cols %d, expected %d, %d", label, got_rows, got_cols, rows_moved,
             cols_moved);
  const size_t mb = ((size_t)m + 1) * sizeof(double), nb = ((size_t)n + 1) * sizeof(double);
  double *x = (double *)t_malloc(nb), *xp = (double *)t_malloc(nb), *want = (double *)t_malloc(mb > nb ? mb : nb);
  double *y0 = (double *)t_malloc(mb), *y = (double *)t_malloc(mb), *yp = (double *)t_malloc(mb);
  for (int32_t j = 0; j < n; ++j) x[j] = (double)((int64_t)(t_rand(s) % 9) - 4) / 4.0;
  for (int32_t i = 0; i < m; ++i) y0[i] = (double)((int64_t)(t_rand(s) % 9) - 4);
  double *dx = (double *)t_to_dev(x, nb), *dxp = dev_vec(n), *dy = dev_vec(m), *dyp = dev_vec(m), *dyo = dev_vec(m);
  /* x_perm[j] = x[colperm[j]] */
  T_OK(strata_format_permute_in(T_exec, M, dx, dxp));
  vec_to_host(xp, dxp, n);
  for (int32_t j = 0; j < n; ++j) want[j] = x[cols_moved ? rp[j] : j];
  expect_vec(label, "x_perm", xp, want, n, 0.0);
  const double ab[4][2] = {{1.0, 0.0}, {-0.5, 2.0}, {0.0, 0.25}, {1.5, -1.0}};
  for (int t = 0; t < 4; ++t) {
    const double alpha = ab[t][0], beta = ab[t][1];
    char lab[360];
    snprintf(lab, sizeof lab, "%s, alpha %g beta %g", label, alpha, beta);
    memcpy(want, y0, mb);
    host_spmv(h, alpha, x, beta, want);
    /* original order; beta == 0: y starts as NaN (poisoned), which must not leak */
    if (beta != 0.0) T_OK(strata_mem_copy(T_exec, dy, y0, (size_t)m * sizeof(double)));
    else T_OK(strata_mem_set_async(T_exec, dy, 0xFF, mb));
    T_OK(strata_format_spmv(T_exec, M, alpha, dx, beta, dy));
    vec_to_host(y, dy, m);
    expect_vec(lab, "y (original order vs host)", y, want, m, tol);
    /* in the basis: y_perm starts as y0 in the basis's row order, or NaN */
    for (int32_t i = 0; i < m; ++i) yp[i] = y0[rp[i]];
    if (beta != 0.0) T_OK(strata_mem_copy(T_exec, dyp, yp, (size_t)m * sizeof(double)));
    else T_OK(strata_mem_set_async(T_exec, dyp, 0xFF, mb));
    T_OK(strata_format_spmv_permuted(T_exec, M, alpha, dxp, beta, dyp));
    vec_to_host(yp, dyp, m);
    for (int32_t i = 0; i < m; ++i) want[i] = y[rp[i]];
    expect_vec(lab, "y_perm (vs y in the basis order)", yp, want, m, same);
    T_OK(strata_mem_set_async(T_exec, dyo, 0xFF, mb));
    T_OK(strata_format_permute_out(T_exec, M, dyp, dyo));
    vec_to_host(y, dyo, m);
    for (int32_t i = 0; i < m; ++i) want[rp[i]] = yp[i];
    expect_vec(lab, "permute_out(y_perm)", y, want, m, 0.0);
  }
  if (m == n) { /* iterations: dy / dyp hold v, dyo / dxp the next one */
    double *v = dx, *w = dy, *vp = dxp, *wp = dyp;
    memcpy(want, x, nb);
    for (int it = 0; it < 6; ++it) {
      const double beta = it % 2 ? -0.25 : 0.0;
      memcpy(y, want, mb);
      host_spmv(h, 0.5, y, 0.0, want);
      for (int32_t i = 0; i < m; ++i) want[i] += beta * y[i];
      if (beta != 0.0) {
        T_OK(strata_mem_copy(T_exec, w, v, (size_t)m * sizeof(double)));
        T_OK(strata_mem_copy(T_exec, wp, vp, (size_t)m * sizeof(double)));
      }
      T_OK(strata_format_spmv(T_exec, M, 0.5, v, beta, w));
      T_OK(strata_format_spmv_permuted(T_exec, M, 0.5, vp, beta, wp));
      double *t1 = v, *t2 = vp;
      v = w, vp = wp, w = t1, wp = t2;
    }
    T_OK(strata_mem_set_async(T_exec, dyo, 0xFF, mb));
    T_OK(strata_format_permute_out(T_exec, M, vp, dyo));
    vec_to_host(y, v, m);
    vec_to_host(yp, dyo, m);
    expect_vec(label, "6 iterations in the basis, permuted out (vs the original order)", yp, y, m, same);
    expect_vec(label, "6 iterations (vs host)", y, want, m, 1e-12);
  }
  T_OK(strata_format_destroy(&M));
  t_dev_free(dx);
  t_dev_free(dxp);
  t_dev_free(dy);
  t_dev_free(dyp);
  t_dev_free(dyo);
  free(rp);
  free(x);
  free(xp);
  free(want);
  free(y0);
  free(y);
  free(yp);
}

/* every format (pjds also with b_r = 1 and 4) on the generated structures 0-8 */
static void test_permuted_basis(void **state) {
  (void)state;
  uint64_t s = T_seed;
  for (int kind = 0; kind <= 8; ++kind) {
    gen_t g = make(kind, &s);
    strata_crs_matrix_t *A = gen_crs(&g);
    host_crs_t h = crs_to_host(A);
    char what[64];
    snprintf(what, sizeof what, "structure %d (%d x %d)", kind, g.m, g.n);
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f) check_permuted_basis(A, &h, (strata_format_t)f, NULL, 0.0, what, &s);
    strata_format_options_t o;
    memset(&o, 0, sizeof o);
    for (o.block_rows = 1; o.block_rows <= 4; o.block_rows += 3)
      check_permuted_basis(A, &h, STRATA_FORMAT_PJDS, &o, 0.0, what, &s);
    host_crs_free(&h);
    strata_crs_destroy(&A);
    gen_free(&g);
  }
}

/* every format on shared matrices (../shared/matrices, or $STRATA_MATRICES): symmetric FEM, empty
 * rows, a dense row and column, both rectangular shapes, nnz 0, no rows */
static void test_permuted_basis_shared(void **state) {
  (void)state;
  static const char *files[] = {"suitesparse/LAGraph/bcsstk13.mtx", "suitesparse/Mongoose/Erdos971.mtx",
                                "suitesparse/KLU/arrow.mtx",        "suitesparse/ParU/lp_e226.mtx",
                                "scipy/illc1033.mtx",               "suitesparse/LAGraph/west0067_jumbled.mtx",
                                "suitesparse/ParU/rajat19.mtx",     "suitesparse/LAGraph/empty.mtx",
                                "suitesparse/SPQR/a04.mtx"};
  const char *dir = getenv("STRATA_MATRICES");
  if (!dir || !*dir) dir = STRATA_TEST_MATRICES;
  uint64_t s = T_seed;
  int done = 0;
  for (size_t t = 0; t < sizeof files / sizeof files[0]; ++t) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, files[t]);
    strata_crs_matrix_t *A = NULL;
    const strata_status_t st = strata_mm_read_crs(T_exec, path, &A);
    if (st == STRATA_ERR_IO) {
      printf("[ strata   ] %s: skipped\n", strata_error_message());
      continue;
    }
    T_OK(st);
    host_crs_t h = crs_to_host(A);
    for (int f = 0; f < STRATA_NUM_FORMATS; ++f)
      check_permuted_basis(A, &h, (strata_format_t)f, NULL, 1e-13, files[t], &s);
    host_crs_free(&h);
    strata_crs_destroy(&A);
    ++done;
  }
  if (done == 0) skip();
}

/* NULL arguments, the same vector in and out, and an execution space of another backend are
 * refused by every call; alpha == 0 reads no x_perm; zero sizes take NULL vectors */
static void test_permuted_errors(void **state) {
  (void)state;
  /* 3 x 3, row lengths 1, 3, 2: pjds's basis is rows (1, 2, 0) */
  int32_t r[6] = {0, 1, 1, 1, 2, 2}, c[6] = {2, 0, 1, 2, 0, 1};
  double v[6] = {1, 2, 3, 4, 5, 6};
  const gen_t g3 = {3, 3, 6, r, c, v}, g0 = {0, 0, 0, NULL, NULL, NULL};
  strata_crs_matrix_t *A = gen_crs(&g3), *Z = gen_crs(&g0);
  double *dx = dev_vec(3), *dy = dev_vec(3);
  strata_exec_t *other = NULL;
  if (strata_exec_backend(T_exec) != STRATA_BACKEND_SERIAL) other = T_serial;
  else if (strata_exec_host(&other) != STRATA_SUCCESS || strata_exec_backend(other) == STRATA_BACKEND_SERIAL)
    other = NULL;
  const strata_format_t fs[2] = {STRATA_FORMAT_PJDS, STRATA_FORMAT_CSR};
  for (int k = 0; k < 2; ++k) {
    strata_sparse_format_t *M = NULL, *M0 = NULL;
    T_OK(strata_format_create(T_exec, A, fs[k], NULL, &M));
    T_OK(strata_format_create(T_exec, Z, fs[k], NULL, &M0));
    int rows = -1, cols = -1;
    T_OK(strata_format_is_permuted(M, &rows, &cols));
    assert_int_equal(rows, k == 0);
    assert_int_equal(cols, k == 0);
    T_OK(strata_format_is_permuted(M, NULL, NULL));
    T_ERR(strata_format_is_permuted(NULL, &rows, &cols), STRATA_ERR_INVALID_ARGUMENT);
    T_ERR(strata_format_permute_in(T_exec, NULL, dx, dy), STRATA_ERR_INVALID_ARGUMENT);
    T_ERR(strata_format_permute_out(T_exec, NULL, dx, dy), STRATA_ERR_INVALID_ARGUMENT);
    T_ERR(strata_format_spmv_permuted(T_exec, NULL, 1.0, dx, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT);
    t_expect_msg(strata_format_permute_in(T_exec, M, NULL, dy), STRATA_ERR_INVALID_ARGUMENT, "NULL input", "3");
    t_expect_msg(strata_format_permute_in(T_exec, M, dx, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL output", NULL);
    t_expect_msg(strata_format_permute_out(T_exec, M, NULL, dy), STRATA_ERR_INVALID_ARGUMENT, "NULL input", NULL);
    t_expect_msg(strata_format_permute_out(T_exec, M, dx, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL output", NULL);
    t_expect_msg(strata_format_permute_in(T_exec, M, dx, dx), STRATA_ERR_INVALID_ARGUMENT, "same vector", NULL);
    t_expect_msg(strata_format_permute_out(T_exec, M, dy, dy), STRATA_ERR_INVALID_ARGUMENT, "same vector", NULL);
    t_expect_msg(strata_format_spmv_permuted(T_exec, M, 1.0, NULL, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT, "NULL x", "3");
    t_expect_msg(strata_format_spmv_permuted(T_exec, M, 1.0, dx, 0.0, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL y", "3");
    /* alpha == 0: y_perm = beta y_perm, x_perm not read */
    const double y0[3] = {4.0, -2.0, 1.0};
    double y[3];
    T_OK(strata_mem_copy(T_exec, dy, y0, sizeof y0));
    T_OK(strata_format_spmv_permuted(T_exec, M, 0.0, NULL, -0.5, dy));
    vec_to_host(y, dy, 3);
    for (int i = 0; i < 3; ++i) assert_true(y[i] == -0.5 * y0[i]);
    /* pjds: y_perm = A' x_perm with rows and columns in the order (1, 2, 0) */
    const double xp[3] = {1.0, 10.0, 100.0}; /* x = (100, 1, 10) */
    T_OK(strata_mem_copy(T_exec, dx, xp, sizeof xp));
    T_OK(strata_format_spmv_permuted(T_exec, M, 1.0, dx, 0.0, dy));
    vec_to_host(y, dy, 3);
    const double want_pjds[3] = {2 * 100 + 3 * 1 + 4 * 10, 5 * 100 + 6 * 1, 1 * 10}, want_csr[3] = {100, 2 + 30 + 400, 5 + 60};
    for (int i = 0; i < 3; ++i)
      if (!(y[i] == (k == 0 ? want_pjds[i] : want_csr[i])))
        fail_msg("%s: y_perm[%d] = %g, expected %g", strata_format_name(fs[k]), i, y[i], k == 0 ? want_pjds[i] : want_csr[i]);
    /* zero sizes: NULL vectors are fine */
    T_OK(strata_format_permute_in(T_exec, M0, NULL, NULL));
    T_OK(strata_format_permute_out(T_exec, M0, NULL, NULL));
    T_OK(strata_format_spmv_permuted(T_exec, M0, 1.0, NULL, 0.0, NULL));
    T_OK(strata_format_spmv_permuted(NULL, M0, 1.0, NULL, 0.0, NULL)); /* NULL exec: M's */
    if (other) {
      const char *bn = strata_backend_name(strata_exec_backend(other));
      t_expect_msg(strata_format_permute_in(other, M, dx, dy), STRATA_ERR_INVALID_ARGUMENT, bn, NULL);
      t_expect_msg(strata_format_permute_out(other, M, dx, dy), STRATA_ERR_INVALID_ARGUMENT, bn, NULL);
      t_expect_msg(strata_format_spmv_permuted(other, M, 1.0, dx, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT, bn, NULL);
    } else {
      printf("[ strata   ] no second backend: execution spaces of another backend not checked\n");
    }
    T_OK(strata_format_destroy(&M));
    T_OK(strata_format_destroy(&M0));
  }
  strata_crs_destroy(&A);
  strata_crs_destroy(&Z);
  t_dev_free(dx);
  t_dev_free(dy);
}

/* x and y that overlap are refused by every SpMV entry point while x is read (a newcomer review:
 * spmv(1, v, 0, v) returned SUCCESS with wrong rows in every format); with alpha == 0 x is not
 * read and the same array is fine. alpha infinite or NaN: an empty row's y is alpha * 0 = NaN in
 * every format, also when the matrix has no entries (coo and csr-lb gave 0 there), and a row
 * with entries keeps alpha * its sum (+inf: a second review found NaN there in coo and csr-lb). A plan's
 * transpose option other than 0 / 1 is refused. */
static void test_spmv_arguments(void **state) {
  (void)state;
  /* 4 x 4, row 1 empty */
  int32_t r[5] = {0, 0, 2, 3, 3}, c[5] = {0, 3, 2, 1, 3};
  double v[5] = {1, 2, 3, 4, 5};
  const gen_t g = {4, 4, 5, r, c, v}, g0 = {4, 4, 0, NULL, NULL, NULL};
  strata_crs_matrix_t *A = gen_crs(&g), *Z = gen_crs(&g0);
  double *dv = dev_vec(8);
  const double ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f)
    for (int z = 0; z <= 1; ++z) {
      strata_sparse_format_t *M = NULL;
      const char *name = strata_format_name((strata_format_t)f);
      strata_status_t st = strata_format_create(T_exec, z ? Z : A, (strata_format_t)f, NULL, &M);
      if (st == STRATA_ERR_UNSUPPORTED) continue;
      T_OK(st);
      if (!z) {
        t_expect_msg(strata_format_spmv(T_exec, M, 1.0, dv, 0.0, dv), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
        t_expect_msg(strata_format_spmv(T_exec, M, 1.0, dv + 2, 0.0, dv), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
        T_OK(strata_format_spmv(T_exec, M, 1.0, dv + 4, 0.0, dv)); /* adjacent, not overlapping */
      }
      T_OK(strata_mem_copy(T_exec, dv, ones, sizeof ones));
      T_OK(strata_format_spmv(T_exec, M, 0.0, dv, 2.0, dv)); /* alpha == 0: x not read */
      double y[4];
      vec_to_host(y, dv, 4);
      for (int i = 0; i < 4; ++i)
        if (y[i] != 2.0) fail_msg("format %s: alpha 0, beta 2: y[%d] = %g", name, i, y[i]);
      const double bad[2] = {NAN, INFINITY};
      for (int b = 0; b < 2; ++b) {
        T_OK(strata_mem_copy(T_exec, dv, ones, sizeof ones));
        T_OK(strata_format_spmv(T_exec, M, bad[b], dv + 4, 0.0, dv));
        vec_to_host(y, dv, 4);
        if (!isnan(y[1])) fail_msg("format %s%s, alpha %g: empty row y[1] = %g, expected NaN (alpha * 0)", name,
                                   z ? " (no entries)" : "", bad[b], y[1]);
        for (int i = 0; i < 4 && !z && b == 1; ++i) /* rows with positive sums: +inf, not NaN */
          if (i != 1 && !(isinf(y[i]) && y[i] > 0))
            fail_msg("format %s, alpha inf: row %d (entries summing > 0) y = %g, expected +inf", name, i, y[i]);
      }
      T_OK(strata_format_destroy(&M));
    }
  t_expect_msg(strata_crs_spmv(T_exec, 1.0, A, dv, 0.0, dv + 3), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
  strata_spmv_plan_t *P = NULL;
  T_OK(strata_spmv_plan_create(T_exec, A, NULL, &P));
  t_expect_msg(strata_spmv_plan_apply(T_exec, P, 1.0, A, dv, 0.0, dv), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
  T_OK(strata_spmv_plan_destroy(&P));
  strata_spmv_options_t o;
  memset(&o, 0, sizeof o);
  o.transpose = 2;
  t_expect_msg(strata_spmv_plan_create(T_exec, A, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "transpose = 2", NULL);
  t_dev_free(dv);
  strata_crs_destroy(&A);
  strata_crs_destroy(&Z);
}

/* The padding of the padded formats (ell, pjds, sell-c-sigma, sell-p) is not a product: an
 * infinite or NaN x must reach exactly the rows whose entries read it, as in csr (a newcomer
 * review: padding stored as column 0 with value 0 was read as 0 * x[0], so x[0] = inf or NaN gave
 * NaN in every row shorter than its block). Also in pjds's permuted basis, whose first column is
 * the longest row's. 6 x 6, row lengths 3, 1, 0, 2, 1, 3; column 0 only in row 0. */
static void test_padding_nonfinite_x(void **state) {
  (void)state;
  int32_t r[10] = {0, 0, 0, 1, 3, 3, 4, 5, 5, 5}, c[10] = {0, 2, 4, 1, 3, 5, 2, 1, 3, 4};
  double v[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const gen_t g = {6, 6, 10, r, c, v};
  strata_crs_matrix_t *A = gen_crs(&g);
  double *dx = dev_vec(6), *dxp = dev_vec(6), *dy = dev_vec(6), *dyp = dev_vec(6);
  const double bad[2] = {INFINITY, NAN};
  for (int b = 0; b < 2; ++b) {
    double x[6] = {1, 1, 1, 1, 1, 1};
    for (int j = 0; j < 6; ++j) {
      for (int q = 0; q < 6; ++q) x[q] = 1.0;
      x[j] = bad[b];
      T_OK(strata_mem_copy(T_exec, dx, x, sizeof x));
      for (int f = 0; f < STRATA_NUM_FORMATS; ++f) {
        strata_sparse_format_t *M = NULL;
        const char *name = strata_format_name((strata_format_t)f);
        strata_status_t st = strata_format_create(T_exec, A, (strata_format_t)f, NULL, &M);
        if (st == STRATA_ERR_UNSUPPORTED) continue;
        T_OK(st);
        for (int perm = 0; perm <= 1; ++perm) {
          double y[6];
          if (perm) {
            T_OK(strata_format_permute_in(T_exec, M, dx, dxp));
            T_OK(strata_format_spmv_permuted(T_exec, M, 1.0, dxp, 0.0, dyp));
            T_OK(strata_format_permute_out(T_exec, M, dyp, dy));
          } else {
            T_OK(strata_format_spmv(T_exec, M, 1.0, dx, 0.0, dy));
          }
          vec_to_host(y, dy, 6);
          for (int i = 0; i < 6; ++i) {
            double s = 0.0;
            int reads = 0;
            for (int k = 0; k < 10; ++k)
              if (r[k] == i) {
                s += v[k] * x[c[k]];
                reads |= c[k] == j;
              }
            if (reads ? !(isnan(s) ? isnan(y[i]) : y[i] == s) : y[i] != s)
              fail_msg("format %s%s, x[%d] = %g: y[%d] = %g, expected %g (row %s x[%d])", name,
                       perm ? " (permuted basis)" : "", j, bad[b], i, y[i], s, reads ? "reads" : "does not read", j);
          }
        }
        T_OK(strata_format_destroy(&M));
      }
    }
  }
  t_dev_free(dx);
  t_dev_free(dxp);
  t_dev_free(dy);
  t_dev_free(dyp);
  strata_crs_destroy(&A);
}

/* alpha infinite: a row with entries gets alpha times its whole sum, as csr gives it, in every
 * format (a newcomer review: the formats that scale partial sums by alpha — hyb / hec's ELL part
 * and remainder, coo / csr-lb pieces crossing a tile — gave inf * 0 + inf * 2 = NaN, or
 * inf - inf = NaN, for rows whose csr result is inf). 3 x 4: row 0 of 2046 entries (so that row 1
 * crosses the host tile of 2048 entries), row 1 = [1, -1, 1, 1] (its first two entries sum to 0),
 * row 2 = [2, -1, ...]: the ELL part of width 2 sums to 1 or 0 and the remainder to the rest. */
static void test_alpha_inf_whole_rows(void **state) {
  (void)state;
  const int64_t n0 = 2046, nnz = n0 + 4 + 6;
  int32_t *r = (int32_t *)t_malloc((size_t)nnz * sizeof(int32_t)), *c = (int32_t *)t_malloc((size_t)nnz * sizeof(int32_t));
  double *v = (double *)t_malloc((size_t)nnz * sizeof(double));
  const double row1[4] = {1, -1, 1, 1}, row2[6] = {1, -1, -3, 1, 1, 2};
  for (int64_t k = 0; k < nnz; ++k) {
    r[k] = k < n0 ? 0 : k < n0 + 4 ? 1 : 2;
    c[k] = (int32_t)(k < n0 ? k : k < n0 + 4 ? k - n0 : k - n0 - 4);
    v[k] = k < n0 ? 0.25 : k < n0 + 4 ? row1[k - n0] : row2[k - n0 - 4];
  }
  const gen_t g = {3, (int32_t)n0, nnz, r, c, v};
  strata_crs_matrix_t *A = gen_crs(&g);
  double *x = (double *)t_malloc((size_t)n0 * sizeof(double));
  for (int64_t j = 0; j < n0; ++j) x[j] = 1.0;
  double *dx = (double *)t_to_dev(x, (size_t)n0 * sizeof(double)), *dy = dev_vec(3);
  const double alphas[2] = {INFINITY, -INFINITY};
  for (int f = 0; f < STRATA_NUM_FORMATS; ++f)
    for (int w = 0; w <= 2; w += 2) {
      strata_format_options_t o;
      memset(&o, 0, sizeof o);
      o.ell_width = w;
      strata_sparse_format_t *M = NULL;
      const char *name = strata_format_name((strata_format_t)f);
      strata_status_t st = strata_format_create(T_exec, A, (strata_format_t)f, &o, &M);
      if (st == STRATA_ERR_UNSUPPORTED) continue;
      T_OK(st);
      for (int b = 0; b < 2; ++b) {
        const double y0[3] = {1, 1, 1};
        T_OK(strata_mem_copy(T_exec, dy, y0, sizeof y0));
        T_OK(strata_format_spmv(T_exec, M, alphas[b], dx, b ? 1.0 : 0.0, dy));
        double y[3];
        vec_to_host(y, dy, 3);
        for (int i = 0; i < 3; ++i) /* every row sums to a positive number */
          if (!(isinf(y[i]) && (y[i] > 0) == (alphas[b] > 0)))
            fail_msg("format %s (ell_width %d), alpha %g: y[%d] = %g, expected %g (alpha times the row's sum)", name, w,
                     alphas[b], i, y[i], alphas[b]);
      }
      T_OK(strata_format_destroy(&M));
    }
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  free(r);
  free(c);
  free(v);
  strata_crs_destroy(&A);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_format),       cmocka_unit_test(test_names),
                                     cmocka_unit_test(test_sliced_footprints),  cmocka_unit_test(test_permuted_basis),
                                     cmocka_unit_test(test_permuted_basis_shared), cmocka_unit_test(test_permuted_errors),
                                     cmocka_unit_test(test_spmv_arguments),     cmocka_unit_test(test_padding_nonfinite_x),
                                     cmocka_unit_test(test_alpha_inf_whole_rows)};
  return T_RUN("formats", tests);
}
