/* strata — every storage format of strata/formats.h against the csr format (the row-class plan)
 * on generated structures: empty rows in runs and at the end, one dense row, power-law rows,
 * rectangular shapes, zero sizes; alpha/beta semantics; footprints. A format not implemented yet
 * must be refused with STRATA_ERR_UNSUPPORTED naming it. */
#include "strata/sparse.h"
#include "formats_check.h"
#include "test_common.h"

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
 * 2: power-law rows; 3: rectangular wide; 4: rectangular tall; 5: no entries */
static gen_t make(int kind, uint64_t *s) {
  gen_t g;
  memset(&g, 0, sizeof g);
  int64_t cap = 0;
  g.m = kind == 3 ? 37 : kind == 4 ? 900 : 500;
  g.n = kind == 3 ? 1200 : kind == 4 ? 40 : 500;
  for (int32_t i = 0; i < g.m; ++i) {
    int64_t len = 0;
    if (kind == 0) len = (i / 7) % 3 == 1 || i > g.m - 9 ? 0 : (int64_t)(t_rand(s) % 9);
    if (kind == 1) len = i == 17 ? g.n : (int64_t)(t_rand(s) % 4);
    if (kind == 2) len = (int64_t)pow(1.0 - t_uniform(s), -1.0 / 1.1);
    if (kind == 3 || kind == 4) len = (int64_t)(t_rand(s) % 12);
    if (len > g.n) len = g.n;
    const int64_t start = (int64_t)(t_rand(s) % (uint64_t)g.n);
    for (int64_t k = 0; k < len; ++k)
      push(&g, &cap, i, (int32_t)((start + k) % g.n), (double)((int64_t)(t_rand(s) % 17) - 8) / 4.0);
  }
  return g;
}

static void test_every_format(void **state) {
  (void)state;
  uint64_t s = T_seed;
  for (int kind = 0; kind <= 5; ++kind) {
    gen_t g = make(kind, &s);
    int32_t *dr = (int32_t *)t_to_dev(g.r, (size_t)g.nnz * sizeof(int32_t));
    int32_t *dc = (int32_t *)t_to_dev(g.c, (size_t)g.nnz * sizeof(int32_t));
    double *dv = (double *)t_to_dev(g.v, (size_t)g.nnz * sizeof(double));
    strata_crs_matrix_t *A = NULL;
    T_OK(strata_crs_create_from_coo(T_exec, g.m, g.n, g.nnz, dr, dc, dv, &A));
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
    t_dev_free(dr);
    t_dev_free(dc);
    t_dev_free(dv);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y0);
    free(yref);
    free(y);
    free(g.r);
    free(g.c);
    free(g.v);
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
    int32_t *dr = (int32_t *)t_to_dev(g.r, (size_t)g.nnz * sizeof(int32_t));
    int32_t *dc = (int32_t *)t_to_dev(g.c, (size_t)g.nnz * sizeof(int32_t));
    double *dv = (double *)t_to_dev(g.v, (size_t)g.nnz * sizeof(double));
    strata_crs_matrix_t *A = NULL;
    T_OK(strata_crs_create_from_coo(T_exec, g.m, g.n, g.nnz, dr, dc, dv, &A));
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
    o.threads_per_row = 0;
    o.chunk_height = -1;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_SELL_C_SIGMA, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    o.chunk_height = 0;
    o.block_rows = -2;
    T_ERR(strata_format_create(T_exec, A, STRATA_FORMAT_PJDS, &o, &M), STRATA_ERR_INVALID_ARGUMENT);
    strata_format_destroy(&ref);
    t_dev_free(dr);
    t_dev_free(dc);
    t_dev_free(dv);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(yref);
    free(y);
    free(g.r);
    free(g.c);
    free(g.v);
    strata_crs_destroy(&A);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_format), cmocka_unit_test(test_names),
                                     cmocka_unit_test(test_sliced_footprints)};
  return T_RUN("formats", tests);
}
