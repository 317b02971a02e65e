/* strata — every storage format of strata/formats.h against the csr format (the row-class plan)
 * on generated structures: empty rows in runs and at the end, one dense row, power-law rows,
 * rectangular shapes, zero sizes; alpha/beta semantics; footprints. A format not implemented yet
 * must be refused with STRATA_ERR_UNSUPPORTED naming it. */
#include "strata/sparse.h"
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
      for (int t = 0; t < 3; ++t) {
        /* reference */
        T_OK(strata_mem_copy(T_exec, dy, y0, (size_t)g.m * sizeof(double)));
        T_OK(strata_format_spmv(T_exec, ref, ab[t][0], dx, ab[t][1], dy));
        T_OK(strata_exec_fence(T_exec));
        t_to_host(yref, dy, (size_t)g.m * sizeof(double));
        /* the format; beta == 0: y poisoned with NaN must not leak */
        if (ab[t][1] == 0.0)
          T_OK(strata_mem_set_async(T_exec, dy, 0xFF, (size_t)g.m * sizeof(double)));
        else
          T_OK(strata_mem_copy(T_exec, dy, y0, (size_t)g.m * sizeof(double)));
        T_OK(strata_format_spmv(T_exec, M, ab[t][0], dx, ab[t][1], dy));
        T_OK(strata_exec_fence(T_exec));
        t_to_host(y, dy, (size_t)g.m * sizeof(double));
        for (int32_t i = 0; i < g.m; ++i)
          if (memcmp(&y[i], &yref[i], sizeof(double)) != 0 && !(y[i] == yref[i]))
            fail_msg("format %s, structure %d, alpha %g beta %g: y[%d] = %.17g, csr gives %.17g (seed %llu)",
                     strata_format_name((strata_format_t)f), kind, ab[t][0], ab[t][1], i, y[i], yref[i],
                     (unsigned long long)T_seed);
      }
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

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_format), cmocka_unit_test(test_names)};
  return T_RUN("formats", tests);
}
