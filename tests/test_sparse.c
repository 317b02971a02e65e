/* strata tests — the sparse module: CrsMatrix from COO, copy, SpMV, pack / unpack_combine.
 * Every result is checked against a host reference and, for SpMV, against the serial backend.
 * Edge cases from /work/shared/cases/EDGE_CASES.md are named E<n>. */
#include "test_common.h"

#include "strata/sparse.h"
#include "test_sparse_host.h"

/* ------------------------------------------------------------------ host helpers */

static const int32_t *g_sort_r, *g_sort_c;
static int cmp_entry(const void *pa, const void *pb) {
  const int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
  if (g_sort_r[a] != g_sort_r[b]) return g_sort_r[a] < g_sort_r[b] ? -1 : 1;
  if (g_sort_c[a] != g_sort_c[b]) return g_sort_c[a] < g_sort_c[b] ? -1 : 1;
  return a < b ? -1 : a > b; /* input order among duplicates */
}

/* Reference CrsMatrix of COO entries: sorted, duplicates summed in input order. */
static host_crs_t ref_from_coo(int32_t nr, int32_t nc, int64_t n, const int32_t *r, const int32_t *c,
                               const double *v) {
  host_crs_t h;
  h.nr = nr;
  h.nc = nc;
  int64_t *idx = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; ++i) idx[i] = i;
  g_sort_r = r;
  g_sort_c = c;
  qsort(idx, (size_t)n, sizeof *idx, cmp_entry);
  h.ro = (int64_t *)calloc((size_t)nr + 1, sizeof(int64_t));
  h.ci = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
  h.v = (double *)malloc(sizeof(double) * (size_t)(n + 1));
  int64_t k = -1;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t i = idx[j];
    if (j == 0 || r[i] != r[idx[j - 1]] || c[i] != c[idx[j - 1]]) {
      ++k;
      h.ci[k] = c[i];
      h.v[k] = v ? v[i] : 0.0;
      h.ro[r[i] + 1]++;
    } else if (v) {
      h.v[k] += v[i];
    }
  }
  h.nnz = k + 1;
  for (int32_t i = 0; i < nr; ++i) h.ro[i + 1] += h.ro[i];
  free(idx);
  return h;
}

/* Builds a CrsMatrix on T_exec from host COO arrays (copied to the device, freed after). */
static strata_status_t coo_create(int32_t nr, int32_t nc, int64_t n, const int32_t *r, const int32_t *c,
                                  const double *v, strata_crs_matrix_t **A) {
  int32_t *dr = (int32_t *)t_to_dev(r, sizeof(int32_t) * (size_t)n);
  int32_t *dc = (int32_t *)t_to_dev(c, sizeof(int32_t) * (size_t)n);
  double *dv = v ? (double *)t_to_dev(v, sizeof(double) * (size_t)n) : NULL;
  strata_status_t st = strata_crs_create_from_coo(T_exec, nr, nc, n, dr, dc, dv, A);
  t_dev_free(dr);
  t_dev_free(dc);
  t_dev_free(dv);
  return st;
}

/* Random COO with many duplicates (entries drawn from a small set of positions). */
static void random_coo(uint64_t *s, int32_t nr, int32_t nc, int64_t n, int32_t *r, int32_t *c, double *v) {
  for (int64_t i = 0; i < n; ++i) {
    r[i] = (int32_t)(t_rand(s) % (uint64_t)nr);
    c[i] = (int32_t)(t_rand(s) % (uint64_t)nc);
    if (t_rand(s) % 3 == 0 && i > 0) { /* force a duplicate of an earlier entry */
      const int64_t j = (int64_t)(t_rand(s) % (uint64_t)i);
      r[i] = r[j];
      c[i] = c[j];
    }
    v[i] = t_uniform(s) * 2.0 - 1.0;
  }
}

/* ------------------------------------------------------------------ COO -> CrsMatrix */

static void test_coo_random(void **state) {
  (void)state;
  static const struct { int32_t nr, nc; int64_t n; } sizes[] = {
      {0, 0, 0}, {0, 7, 0}, {7, 0, 0}, {1, 1, 1}, {1, 1, 9}, {7, 5, 30},
      {50, 40, 600}, {300, 1000, 5000}, {1000, 3, 4000}, {2000, 2000, 20000}};
  uint64_t s = T_seed;
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t) {
    const int32_t nr = sizes[t].nr, nc = sizes[t].nc;
    const int64_t n = sizes[t].n;
    int32_t *r = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
    int32_t *c = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + 1));
    double *v = (double *)malloc(sizeof(double) * (size_t)(n + 1));
    random_coo(&s, nr, nc, n, r, c, v);
    for (int with_vals = 0; with_vals < 2; ++with_vals) {
      strata_crs_matrix_t *A = NULL;
      T_OK(coo_create(nr, nc, n, r, c, with_vals ? v : NULL, &A));
      assert_int_equal(A->fill_complete, 1);
      host_crs_t want = ref_from_coo(nr, nc, n, r, c, with_vals ? v : NULL);
      host_crs_t got = crs_to_host(A);
      expect_same_crs("COO -> CrsMatrix", &want, &got);
      host_crs_free(&want);
      host_crs_free(&got);
      T_OK(strata_crs_destroy(&A));
      assert_null(A);
    }
    free(r);
    free(c);
    free(v);
  }
}

static void test_coo_empty_null(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_coo(T_exec, 10, 12, 0, NULL, NULL, NULL, &A));
  assert_int_equal(A->nnz, 0);
  host_crs_t got = crs_to_host(A);
  for (int i = 0; i <= 10; ++i) assert_int_equal(got.ro[i], 0);
  host_crs_free(&got);
  T_OK(strata_crs_destroy(&A));
  T_OK(strata_crs_destroy(&A)); /* NULL-safe */
  T_OK(strata_crs_destroy(NULL));
  T_OK(strata_crs_create_from_coo(T_exec, 0, 0, 0, NULL, NULL, NULL, &A));
  assert_int_equal(A->num_rows, 0);
  T_OK(strata_crs_destroy(&A));
}

static void test_coo_invalid(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  const int32_t r[] = {0, 1, 3, 2, -1, 1};
  const int32_t c[] = {0, 1, 1, 4, 0, 2};
  const double v[] = {1, 2, 3, 4, 5, 6};
  /* 3 x 4: entry 2 (row 3), entry 3 (col 4), entry 4 (row -1) are outside */
  T_ERR(coo_create(3, 4, 6, r, c, v, &A), STRATA_ERR_INVALID_DATA);
  assert_null(A);
  const char *m = strata_error_message();
  if (!strstr(m, "3 of 6") || !strstr(m, "entry 2") || !strstr(m, "row 3"))
    fail_msg("message does not name the count and the first bad entry: %s", m);
  T_ERR(strata_crs_create_from_coo(T_exec, -1, 4, 0, NULL, NULL, NULL, &A), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_create_from_coo(T_exec, 3, 4, -2, NULL, NULL, NULL, &A), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_create_from_coo(T_exec, 3, 4, 5, NULL, NULL, NULL, &A), STRATA_ERR_INVALID_ARGUMENT);
  /* any entry of a matrix with zero columns is outside */
  T_ERR(coo_create(3, 0, 1, r, c, v, &A), STRATA_ERR_INVALID_DATA);
}

static void test_crs_copy(void **state) {
  (void)state;
  uint64_t s = T_seed + 1;
  const int32_t nr = 200, nc = 150;
  const int64_t n = 2000;
  int32_t r[2000], c[2000];
  double v[2000];
  random_coo(&s, nr, nc, n, r, c, v);
  strata_crs_matrix_t *A = NULL, *B = NULL, *C = NULL;
  T_OK(coo_create(nr, nc, n, r, c, v, &A));
  T_OK(strata_crs_copy(T_serial, A, &B)); /* to the serial backend (through host if needed) */
  T_OK(strata_crs_copy(T_exec, B, &C));   /* and back */
  host_crs_t want = ref_from_coo(nr, nc, n, r, c, v);
  host_crs_t hb = crs_to_host(B), hc = crs_to_host(C);
  expect_same_crs("copy to serial", &want, &hb);
  expect_same_crs("copy back", &want, &hc);
  assert_int_equal(C->fill_complete, 1);
  host_crs_free(&want);
  host_crs_free(&hb);
  host_crs_free(&hc);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
  strata_crs_destroy(&C);
}

/* ------------------------------------------------------------------ SpMV */

/* y = alpha A x + beta y on the host; scale[i] = |alpha| sum |a_ij x_j| + |beta y_i|, the size of
 * the terms, against which rounding differences (GPU FMA contraction) are measured. */
static void ref_spmv(const host_crs_t *h, double alpha, const double *x, double beta, double *y,
                     double *scale) {
  for (int32_t i = 0; i < h->nr; ++i) {
    double s = 0, a = 0;
    for (int64_t j = h->ro[i]; j < h->ro[i + 1]; ++j) {
      s += h->v[j] * x[h->ci[j]];
      a += fabs(h->v[j] * x[h->ci[j]]);
    }
    scale[i] = fabs(alpha) * a + (beta == 0 ? 0 : fabs(beta * y[i]));
    y[i] = beta == 0 ? alpha * s : alpha * s + beta * y[i];
  }
}

static void test_spmv_random(void **state) {
  (void)state;
  static const struct { int32_t nr, nc; int64_t n; } sizes[] = {
      {1, 1, 1}, {30, 20, 100}, {500, 700, 8000}, {3000, 100, 30000}};
  static const double ab[][2] = {{1.0, 0.0}, {1.5, -0.5}, {-2.0, 1.0}};
  uint64_t s = T_seed + 2;
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t) {
    const int32_t nr = sizes[t].nr, nc = sizes[t].nc;
    const int64_t n = sizes[t].n;
    int32_t *r = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *c = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    double *v = (double *)malloc(sizeof(double) * (size_t)n);
    double *x = (double *)malloc(sizeof(double) * (size_t)nc);
    double *y0 = (double *)malloc(sizeof(double) * (size_t)nr), *yr = (double *)malloc(sizeof(double) * (size_t)nr);
    double *ys = (double *)malloc(sizeof(double) * (size_t)nr), *yd = (double *)malloc(sizeof(double) * (size_t)nr);
    double *scale = (double *)malloc(sizeof(double) * (size_t)nr);
    random_coo(&s, nr, nc, n, r, c, v);
    for (int32_t j = 0; j < nc; ++j) x[j] = t_uniform(&s) - 0.5;
    for (int32_t i = 0; i < nr; ++i) y0[i] = t_uniform(&s) - 0.5;
    strata_crs_matrix_t *A = NULL, *As = NULL;
    T_OK(coo_create(nr, nc, n, r, c, v, &A));
    T_OK(strata_crs_copy(T_serial, A, &As));
    host_crs_t h = ref_from_coo(nr, nc, n, r, c, v);
    double *dx = (double *)t_to_dev(x, sizeof(double) * (size_t)nc);
    for (size_t k = 0; k < sizeof ab / sizeof ab[0]; ++k) {
      const double alpha = ab[k][0], beta = ab[k][1];
      memcpy(yr, y0, sizeof(double) * (size_t)nr);
      ref_spmv(&h, alpha, x, beta, yr, scale);
      memcpy(ys, y0, sizeof(double) * (size_t)nr); /* serial oracle: host memory is its memory */
      T_OK(strata_crs_spmv(T_serial, alpha, As, x, beta, ys));
      double *dy = (double *)t_to_dev(y0, sizeof(double) * (size_t)nr);
      T_OK(strata_crs_spmv(T_exec, alpha, A, dx, beta, dy));
      T_OK(strata_exec_fence(T_exec));
      t_to_host(yd, dy, sizeof(double) * (size_t)nr);
      t_dev_free(dy);
      for (int32_t i = 0; i < nr; ++i) {
        const double tol = 1e-14 * (scale[i] + 1e-300);
        if (fabs(yd[i] - yr[i]) > tol || fabs(yd[i] - ys[i]) > tol)
          fail_msg("%dx%d alpha %g beta %g: y[%d] = %.17g, reference %.17g, serial %.17g (seed %llu)",
                   nr, nc, alpha, beta, i, yd[i], yr[i], ys[i], (unsigned long long)T_seed);
      }
    }
    t_dev_free(dx);
    host_crs_free(&h);
    strata_crs_destroy(&A);
    strata_crs_destroy(&As);
    free(r); free(c); free(v); free(x); free(y0); free(yr); free(ys); free(yd); free(scale);
  }
}

/* E1: beta = 0 must not read y. */
static void test_spmv_e1_beta0(void **state) {
  (void)state;
  const int32_t r[] = {0, 1}, c[] = {0, 1};
  const double v[] = {1, 2}, x[] = {1, 1}, y0[] = {NAN, 5};
  strata_crs_matrix_t *A = NULL;
  T_OK(coo_create(2, 2, 2, r, c, v, &A));
  double *dx = (double *)t_to_dev(x, sizeof x), *dy = (double *)t_to_dev(y0, sizeof y0), y[2];
  T_OK(strata_crs_spmv(T_exec, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 1.0 && y[1] == 2.0);
  t_dev_free(dx);
  t_dev_free(dy);
  strata_crs_destroy(&A);
}

/* E2: 1000 x 1000 with nnz = 0, NULL column and value arrays: y = 0, no fault. */
static void test_spmv_e2_nnz0(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_coo(T_exec, 1000, 1000, 0, NULL, NULL, NULL, &A));
  assert_null(A->col_indices);
  assert_null(A->values);
  double *dx = (double *)t_dev_alloc(1000 * sizeof(double)); /* NaN-poisoned */
  double *dy = (double *)t_dev_alloc(1000 * sizeof(double));
  double y[1000];
  T_OK(strata_crs_spmv(T_exec, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  for (int i = 0; i < 1000; ++i)
    if (y[i] != 0.0) fail_msg("y[%d] = %g, expected 0", i, y[i]);
  t_dev_free(dx);
  t_dev_free(dy);
  strata_crs_destroy(&A);
}

/* E3: empty rows at the end (and in runs). */
static void test_spmv_e3_empty_rows(void **state) {
  (void)state;
  const int32_t r[] = {0, 0}, c[] = {2, 0};
  const double v[] = {2, 1}, x[] = {1, 1, 1};
  strata_crs_matrix_t *A = NULL;
  T_OK(coo_create(3, 3, 2, r, c, v, &A));
  host_crs_t h = crs_to_host(A);
  assert_true(h.ro[0] == 0 && h.ro[1] == 2 && h.ro[2] == 2 && h.ro[3] == 2);
  assert_true(h.ci[0] == 0 && h.ci[1] == 2 && h.v[0] == 1 && h.v[1] == 2);
  host_crs_free(&h);
  double *dx = (double *)t_to_dev(x, sizeof x), *dy = (double *)t_dev_alloc(3 * sizeof(double)), y[3];
  T_OK(strata_crs_spmv(T_exec, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 3 && y[1] == 0 && y[2] == 0);
  t_dev_free(dx);
  t_dev_free(dy);
  strata_crs_destroy(&A);
}

/* alpha = 0: A and x are not read (NaN in x and in A's values never leak). */
static void test_spmv_alpha0(void **state) {
  (void)state;
  const int32_t r[] = {0, 1, 1}, c[] = {0, 0, 1};
  const double v[] = {NAN, 1, 2}, y0[] = {3, -4};
  strata_crs_matrix_t *A = NULL;
  T_OK(coo_create(2, 2, 3, r, c, v, &A));
  double *dx = (double *)t_dev_alloc(2 * sizeof(double)); /* NaN */
  double *dy = (double *)t_to_dev(y0, sizeof y0), y[2];
  T_OK(strata_crs_spmv(T_exec, 0.0, A, dx, 2.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 6 && y[1] == -8);
  t_dev_free(dy);
  dy = (double *)t_dev_alloc(2 * sizeof(double)); /* NaN y, alpha = beta = 0: y = 0 */
  T_OK(strata_crs_spmv(T_exec, 0.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 0 && y[1] == 0);
  T_ERR(strata_crs_spmv(T_exec, 1.0, A, NULL, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_spmv(T_exec, 1.0, NULL, dx, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT);
  /* alpha == 0: x is not read, so it may be NULL (as the plan and the formats take it) */
  T_OK(strata_mem_copy(T_exec, dy, y0, sizeof y0));
  T_OK(strata_crs_spmv(T_exec, 0.0, A, NULL, -1.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == -3 && y[1] == 4);
  t_dev_free(dx);
  t_dev_free(dy);
  strata_crs_destroy(&A);
}

/* ------------------------------------------------------------------ Matrix Market (strata/mmio.h) */

static void test_spmv_matrix_market(void **state) {
  (void)state;
  /* file, sum, 2-norm, max|y| of y = A x, x[j] = 1 + (j mod 7)/8 (REFERENCE_SPMV.tsv) */
  static const struct { const char *file; double sum, norm2, maxabs; } ref[] = {
      {"suitesparse/LAGraph/west0067_jumbled.mtx", 47.59155292, 25.644725849285582, 7.5},
      {"suitesparse/KLU/arrow.mtx", 373.875, 141.01213378642279, 139},
      {"suitesparse/ParU/lp_e226.mtx", -3772.50234125, 6171.6128005908213, 3077.8250000000003},
      {"scipy/illc1033.mtx", 1277.054458284149, 41.870923814474004, 3.0412657238999996},
      {"fmm/coordinate_symmetric_row_general_dup.mtx", 145.0, 111.07429945761531, 107.5},
      {"suitesparse/LAGraph/empty.mtx", 0, 0, 0}};
  const char *dir = getenv("STRATA_MATRICES");
  if (!dir || !*dir) dir = STRATA_TEST_MATRICES;
  int done = 0;
  for (size_t t = 0; t < sizeof ref / sizeof ref[0]; ++t) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, ref[t].file);
    strata_coo_t *coo = NULL;
    const strata_status_t rst = strata_mm_read_coo(path, &coo);
    if (rst == STRATA_ERR_IO) {
      printf("[ strata   ] %s\n  skipped\n", strata_error_message());
      continue;
    }
    T_OK(rst);
    const int32_t nr = coo->num_rows, nc = coo->num_cols;
    strata_crs_matrix_t *A = NULL;
    T_OK(coo_create(nr, nc, coo->nnz, coo->rows, coo->cols, coo->values, &A));
    double *x = (double *)malloc(sizeof(double) * ((size_t)nc + 1));
    double *y = (double *)malloc(sizeof(double) * ((size_t)nr + 1));
    for (int32_t j = 0; j < nc; ++j) x[j] = 1.0 + (double)(j % 7) / 8.0;
    double *dx = (double *)t_to_dev(x, sizeof(double) * (size_t)nc);
    double *dy = (double *)t_dev_alloc(sizeof(double) * (size_t)nr);
    T_OK(strata_crs_spmv(T_exec, 1.0, A, dx, 0.0, dy));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(y, dy, sizeof(double) * (size_t)nr);
    double sum = 0, sq = 0, mx = 0;
    for (int32_t i = 0; i < nr; ++i) {
      sum += y[i];
      sq += y[i] * y[i];
      if (fabs(y[i]) > mx) mx = fabs(y[i]);
    }
    if (t_reldiff(sum, ref[t].sum) > 1e-10 || t_reldiff(sqrt(sq), ref[t].norm2) > 1e-12 ||
        t_reldiff(mx, ref[t].maxabs) > 1e-12)
      fail_msg("%s: sum %.17g (ref %.17g), norm2 %.17g (ref %.17g), max %.17g (ref %.17g)",
               ref[t].file, sum, ref[t].sum, sqrt(sq), ref[t].norm2, mx, ref[t].maxabs);
    ++done;
    t_dev_free(dx);
    t_dev_free(dy);
    strata_crs_destroy(&A);
    strata_coo_destroy(&coo);
    free(x);
    free(y);
  }
  if (done == 0) skip();
}

/* ------------------------------------------------------------------ pack / unpack_combine */

/* A fill-complete matrix on T_exec from a short host COO list. */
static strata_crs_matrix_t *small(int32_t nr, int32_t nc, int64_t n, const int32_t *r, const int32_t *c,
                                  const double *v) {
  strata_crs_matrix_t *A = NULL;
  T_OK(coo_create(nr, nc, n, r, c, v, &A));
  return A;
}

static void expect_values(const strata_crs_matrix_t *A, const double *want) {
  host_crs_t h = crs_to_host(A);
  for (int64_t k = 0; k < h.nnz; ++k)
    if (h.v[k] != want[k])
      fail_msg("value %lld (col %d) = %.17g, expected %.17g", (long long)k, h.ci[k], h.v[k], want[k]);
  host_crs_free(&h);
}

static strata_status_t unpack_rows(strata_crs_matrix_t *A, int64_t np, const int32_t *import_rows,
                                   const strata_packets_t *P, strata_combine_mode_t mode,
                                   strata_unpack_report_t *rep) {
  int32_t *di = (int32_t *)t_to_dev(import_rows, sizeof(int32_t) * (size_t)np);
  strata_status_t st = strata_sparse_unpack_combine(T_exec, A, di, P, NULL, 0, mode, rep);
  t_dev_free(di);
  return st;
}

/* pack all rows of B (same pattern as A), unpack ADD into A: A becomes A + B exactly; then the
 * same with a global column numbering (col_gids / col_lids) and an explicit row list. */
static void test_pack_unpack_add_roundtrip(void **state) {
  (void)state;
  uint64_t s = T_seed + 3;
  const int32_t nr = 400, nc = 300;
  const int64_t n = 3000;
  int32_t *r = (int32_t *)malloc(sizeof(int32_t) * n), *c = (int32_t *)malloc(sizeof(int32_t) * n);
  double *va = (double *)malloc(sizeof(double) * n), *vb = (double *)malloc(sizeof(double) * n);
  random_coo(&s, nr, nc, n, r, c, va);
  for (int64_t k = 0; k < n; ++k) vb[k] = t_uniform(&s);
  strata_crs_matrix_t *A = small(nr, nc, n, r, c, va), *B = small(nr, nc, n, r, c, vb);
  host_crs_t ha = crs_to_host(A), hb = crs_to_host(B);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, nr, NULL, NULL, &P));
  assert_int_equal(P->num_rows, nr);
  assert_int_equal(P->num_bytes, 8 * nr + 16 * hb.nnz);
  int32_t *ident = (int32_t *)malloc(sizeof(int32_t) * nr);
  for (int32_t i = 0; i < nr; ++i) ident[i] = i;
  strata_unpack_report_t rep;
  T_OK(unpack_rows(A, nr, ident, P, STRATA_COMBINE_ADD, &rep));
  assert_int_equal(rep.rows_unpacked, nr);
  assert_int_equal(rep.entries_combined, ha.nnz);
  assert_int_equal(rep.invalid_entries + rep.invalid_rows + rep.malformed_packets, 0);
  double *want = (double *)malloc(sizeof(double) * (size_t)ha.nnz);
  for (int64_t k = 0; k < ha.nnz; ++k) want[k] = ha.v[k] + hb.v[k];
  expect_values(A, want);
  strata_packets_destroy(&P);
  assert_null(P);

  /* global ids g = 3 c + 1; rows packed in reverse order, unpacked into their own rows */
  int64_t *gids = (int64_t *)malloc(sizeof(int64_t) * nc);
  const int64_t ng = 3 * (int64_t)nc + 1;
  int32_t *lids = (int32_t *)malloc(sizeof(int32_t) * (size_t)ng);
  for (int32_t j = 0; j < nc; ++j) gids[j] = 3 * (int64_t)j + 1;
  for (int64_t g = 0; g < ng; ++g) lids[g] = (g % 3 == 1) ? (int32_t)(g / 3) : -1;
  int32_t *rev = (int32_t *)malloc(sizeof(int32_t) * nr);
  for (int32_t i = 0; i < nr; ++i) rev[i] = nr - 1 - i;
  int32_t *drev = (int32_t *)t_to_dev(rev, sizeof(int32_t) * nr);
  int64_t *dg = (int64_t *)t_to_dev(gids, sizeof(int64_t) * nc);
  int32_t *dl = (int32_t *)t_to_dev(lids, sizeof(int32_t) * (size_t)ng);
  T_OK(strata_sparse_pack(T_exec, B, nr, drev, dg, &P));
  T_OK(strata_sparse_unpack_combine(T_exec, A, drev, P, dl, ng, STRATA_COMBINE_ADD, &rep));
  for (int64_t k = 0; k < ha.nnz; ++k) want[k] += hb.v[k];
  expect_values(A, want);
  strata_packets_destroy(&P);

  /* packing no rows is valid */
  T_OK(strata_sparse_pack(T_exec, B, 0, NULL, NULL, &P));
  assert_int_equal(P->num_bytes, 0);
  T_OK(strata_sparse_unpack_combine(T_exec, A, NULL, P, NULL, 0, STRATA_COMBINE_ADD, &rep));
  strata_packets_destroy(&P);
  /* invalid pack arguments */
  T_ERR(strata_sparse_pack(T_exec, B, nr + 1, NULL, NULL, &P), STRATA_ERR_INVALID_ARGUMENT);
  rev[7] = nr;
  rev[9] = -3;
  t_dev_free(drev);
  drev = (int32_t *)t_to_dev(rev, sizeof(int32_t) * nr);
  T_ERR(strata_sparse_pack(T_exec, B, nr, drev, NULL, &P), STRATA_ERR_INVALID_DATA);
  if (!strstr(strata_error_message(), "2 of 400") || !strstr(strata_error_message(), "rows[7]"))
    fail_msg("message: %s", strata_error_message());
  assert_null(P);

  t_dev_free(drev);
  t_dev_free(dg);
  t_dev_free(dl);
  host_crs_free(&ha);
  host_crs_free(&hb);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
  free(r); free(c); free(va); free(vb); free(ident); free(want); free(gids); free(lids); free(rev);
}

/* E8: ADD touches only the entries it names. */
static void test_unpack_e8(void **state) {
  (void)state;
  const int32_t r[] = {0, 0, 0}, c[] = {0, 1, 2}, br[] = {0, 0}, bc[] = {1, 2}, row0[] = {0};
  const double v[] = {1, 1, 1}, bv[] = {10, 10};
  strata_crs_matrix_t *A = small(1, 3, 3, r, c, v), *B = small(1, 3, 2, br, bc, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 1, NULL, NULL, &P));
  strata_unpack_report_t rep;
  T_OK(unpack_rows(A, 1, row0, P, STRATA_COMBINE_ADD, &rep));
  const double want[] = {1, 11, 11};
  expect_values(A, want);
  assert_int_equal(rep.entries_combined, 2);
  strata_packets_destroy(&P);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
}

/* E9: a column not in a fill-complete row's pattern is reported (count 1, its (row, col)); the
 * valid entries of the same packet are applied all the same. */
static void test_unpack_e9(void **state) {
  (void)state;
  const int32_t r[] = {0, 0, 0, 1}, c[] = {0, 1, 2, 0}, br[] = {0, 0}, bc[] = {1, 3}, rows[] = {0};
  const double v[] = {1, 1, 1, 1}, bv[] = {5, 10};
  strata_crs_matrix_t *A = small(2, 3, 4, r, c, v), *B = small(1, 4, 2, br, bc, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 1, NULL, NULL, &P));
  strata_unpack_report_t rep;
  T_ERR(unpack_rows(A, 1, rows, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.invalid_entries, 1);
  assert_int_equal(rep.invalid_rows, 0);
  assert_int_equal(rep.malformed_packets, 0);
  assert_int_equal(rep.num_examples, 1);
  assert_int_equal(rep.examples[0].row, 0);
  assert_int_equal(rep.examples[0].col, 3);
  assert_int_equal(rep.entries_combined, 1);
  const char *m = strata_error_message();
  if (!strstr(m, "1 invalid entries") || !strstr(m, "row 0, global column 3"))
    fail_msg("message: %s", m);
  const double want[] = {1, 6, 1, 1};
  expect_values(A, want);
  /* in range but not in the pattern: row 1 has only column 0 */
  const int32_t rows1[] = {1};
  T_ERR(unpack_rows(A, 1, rows1, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.invalid_entries, 2);
  assert_int_equal(rep.num_examples, 2);
  strata_packets_destroy(&P);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
}

/* E10: the same row arriving twice in one unpack (two senders). */
static void test_unpack_e10(void **state) {
  (void)state;
  const int32_t r[] = {0, 0}, c[] = {0, 1}, br[] = {0, 0, 1, 1}, bc[] = {0, 1, 0, 1}, rows[] = {0, 0};
  const double v[] = {0, 0}, bv[] = {1, 1, 1, 1};
  strata_crs_matrix_t *A = small(1, 2, 2, r, c, v), *B = small(2, 2, 4, br, bc, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 2, NULL, NULL, &P));
  strata_unpack_report_t rep;
  T_OK(unpack_rows(A, 2, rows, P, STRATA_COMBINE_ADD, &rep));
  const double want[] = {2, 2};
  expect_values(A, want);
  assert_int_equal(rep.rows_unpacked, 2);
  assert_int_equal(rep.entries_combined, 4);
  strata_packets_destroy(&P);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
}

/* A target row outside the matrix: every entry of that packet skipped and reported. */
static void test_unpack_invalid_row(void **state) {
  (void)state;
  const int32_t r[] = {0, 0}, c[] = {0, 1}, rows[] = {0, 5, -1};
  const double v[] = {1, 2};
  strata_crs_matrix_t *A = small(1, 2, 2, r, c, v);
  const int32_t br[] = {0, 1, 2}, bc[] = {0, 1, 0};
  const double bv[] = {1, 1, 1};
  strata_crs_matrix_t *B = small(3, 2, 3, br, bc, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 3, NULL, NULL, &P));
  strata_unpack_report_t rep;
  T_ERR(unpack_rows(A, 3, rows, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.invalid_rows, 2);
  assert_int_equal(rep.rows_unpacked, 1);
  assert_int_equal(rep.num_examples, 2);
  for (int e = 0; e < 2; ++e) {
    assert_int_equal(rep.examples[e].col, -1);
    assert_true(rep.examples[e].row == 5 || rep.examples[e].row == -1);
  }
  const double want[] = {2, 2};
  expect_values(A, want);
  strata_packets_destroy(&P);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
}

/* P's offsets and bytes against the packet layout of sparse.h built here from B's host copy:
 * packet k is row rows[k] (rows NULL: row k), its columns mapped by gids */
static void expect_packets(const strata_packets_t *P, int64_t np, const int32_t *rows, const host_crs_t *hb,
                           const int64_t *gids) {
  int64_t *off = (int64_t *)malloc(sizeof(int64_t) * (size_t)(np + 1));
  unsigned char *data = (unsigned char *)malloc((size_t)P->num_bytes + 8);
  t_to_host(off, P->offsets, sizeof(int64_t) * (size_t)(np + 1));
  t_to_host(data, P->data, (size_t)P->num_bytes);
  int64_t at = 0;
  for (int64_t k = 0; k < np; ++k) {
    const int32_t row = rows ? rows[k] : (int32_t)k;
    const int64_t b = hb->ro[row], cnt = hb->ro[row + 1] - b;
    if (off[k] != at) fail_msg("packet %lld: offset %lld, expected %lld", (long long)k, (long long)off[k], (long long)at);
    int64_t head;
    memcpy(&head, data + at, 8);
    if (head != cnt) fail_msg("packet %lld (row %d): count %lld, expected %lld", (long long)k, row, (long long)head, (long long)cnt);
    for (int64_t j = 0; j < cnt; ++j) {
      int64_t g;
      double x;
      memcpy(&g, data + at + 8 + 8 * j, 8);
      memcpy(&x, data + at + 8 + 8 * cnt + 8 * j, 8);
      const int64_t want = gids ? gids[hb->ci[b + j]] : hb->ci[b + j];
      if (g != want || x != hb->v[b + j])
        fail_msg("packet %lld (row %d) entry %lld: (%lld, %g), expected (%lld, %g)", (long long)k, row, (long long)j,
                 (long long)g, x, (long long)want, hb->v[b + j]);
    }
    at += 8 + 16 * cnt;
  }
  assert_int_equal(off[np], at);
  assert_int_equal(P->num_bytes, at);
  free(off), free(data);
}

/* Packets byte for byte against the documented layout, for rows short and long (above the GPU
 * path's 128 entries: a team per row there), an explicit reversed row list with repeats, global
 * ids, and empty rows: count, then the global ids, then the values, at the scanned offsets;
 * then rows NULL (the offsets from the row offsets), all rows and a prefix. */
static void test_pack_layout_long_rows(void **state) {
  (void)state;
  const int32_t nr = 300, nc = 5000;
  int64_t n = 0;
  for (int32_t i = 0; i < nr; ++i) n += i % 37 == 0 ? 129 + 97 * (i % 11) : i % 7;
  int32_t *r = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *c = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
  double *v = (double *)malloc(sizeof(double) * (size_t)n);
  int64_t q = 0;
  for (int32_t i = 0; i < nr; ++i) {
    const int64_t len = i % 37 == 0 ? 129 + 97 * (i % 11) : i % 7;
    for (int64_t j = 0; j < len; ++j, ++q) {
      r[q] = i;
      c[q] = (int32_t)((j * (nc / len) + i) % nc);
      v[q] = (double)(q % 1000) - 0.25;
    }
  }
  strata_crs_matrix_t *B = small(nr, nc, n, r, c, v);
  host_crs_t hb = crs_to_host(B);
  const int64_t np = 2 * (int64_t)nr;
  int32_t *rows = (int32_t *)malloc(sizeof(int32_t) * (size_t)np);
  for (int64_t k = 0; k < np; ++k) rows[k] = (int32_t)(nr - 1 - k % nr); /* every row twice */
  int64_t *gids = (int64_t *)malloc(sizeof(int64_t) * nc);
  for (int32_t j = 0; j < nc; ++j) gids[j] = 7 * (int64_t)j + 3;
  int32_t *drows = (int32_t *)t_to_dev(rows, sizeof(int32_t) * (size_t)np);
  int64_t *dg = (int64_t *)t_to_dev(gids, sizeof(int64_t) * nc);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, np, drows, dg, &P));
  expect_packets(P, np, rows, &hb, gids);
  strata_packets_destroy(&P);
  /* rows NULL (offsets from B's row offsets, no scan): all rows, and the first nr - 1 */
  T_OK(strata_sparse_pack(T_exec, B, nr, NULL, dg, &P));
  expect_packets(P, nr, NULL, &hb, gids);
  strata_packets_destroy(&P);
  T_OK(strata_sparse_pack(T_exec, B, nr - 1, NULL, NULL, &P));
  expect_packets(P, nr - 1, NULL, &hb, NULL);
  strata_packets_destroy(&P);
  t_dev_free(drows);
  t_dev_free(dg);
  host_crs_free(&hb);
  strata_crs_destroy(&B);
  free(r), free(c), free(v), free(rows), free(gids);
}

/* Malformed packets: a corrupted count, an offset past the buffer. */
static void test_unpack_malformed(void **state) {
  (void)state;
  const int32_t r[] = {0, 0, 1}, c[] = {0, 1, 1}, rows[] = {0, 1};
  const double v[] = {1, 2, 3}, bv[] = {1, 1, 1};
  strata_crs_matrix_t *A = small(2, 2, 3, r, c, v), *B = small(2, 2, 3, r, c, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 2, NULL, NULL, &P));
  int64_t off[3];
  t_to_host(off, P->offsets, sizeof off);
  assert_true(off[0] == 0 && off[1] == 40 && off[2] == 64 && P->num_bytes == 64);
  unsigned char *data = (unsigned char *)malloc((size_t)P->num_bytes);
  t_to_host(data, P->data, (size_t)P->num_bytes);
  const int64_t bad_count = 1000;
  memcpy(data, &bad_count, sizeof bad_count); /* packet 0 claims 1000 entries */
  T_OK(strata_mem_copy(T_exec, P->data, data, (size_t)P->num_bytes));
  strata_unpack_report_t rep;
  T_ERR(unpack_rows(A, 2, rows, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.malformed_packets, 1);
  assert_int_equal(rep.rows_unpacked, 1);
  assert_int_equal(rep.examples[0].row, 0);
  assert_int_equal(rep.examples[0].col, -1);
  const double want[] = {1, 2, 4};
  expect_values(A, want);
  /* negative count */
  const int64_t neg = -1;
  memcpy(data, &neg, sizeof neg);
  T_OK(strata_mem_copy(T_exec, P->data, data, (size_t)P->num_bytes));
  T_ERR(unpack_rows(A, 2, rows, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.malformed_packets, 1);
  /* an offset beyond the buffer */
  off[2] = 72;
  T_OK(strata_mem_copy(T_exec, P->offsets, off, sizeof off));
  T_ERR(unpack_rows(A, 2, rows, P, STRATA_COMBINE_ADD, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.malformed_packets, 2);
  assert_int_equal(rep.rows_unpacked, 0);
  free(data);
  strata_packets_destroy(&P);
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
}

/* REPLACE, ABSMAX, ZERO, INSERT. */
static void test_unpack_modes(void **state) {
  (void)state;
  const int32_t r[] = {0, 0, 0}, c[] = {0, 1, 2}, rows[] = {0};
  const double v[] = {1, -5, 3}, bv[] = {-4, 2, -3};
  strata_crs_matrix_t *B = small(1, 3, 3, r, c, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, 1, NULL, NULL, &P));
  strata_unpack_report_t rep;

  strata_crs_matrix_t *A = small(1, 3, 3, r, c, v);
  T_OK(unpack_rows(A, 1, rows, P, STRATA_COMBINE_REPLACE, &rep));
  const double w_replace[] = {-4, 2, -3};
  expect_values(A, w_replace);
  strata_crs_destroy(&A);

  A = small(1, 3, 3, r, c, v);
  T_OK(unpack_rows(A, 1, rows, P, STRATA_COMBINE_ABSMAX, &rep));
  const double w_absmax[] = {-4, -5, 3}; /* the value of larger magnitude; a tie keeps the target */
  expect_values(A, w_absmax);
  strata_crs_destroy(&A);

  A = small(1, 3, 3, r, c, v);
  T_OK(unpack_rows(A, 1, rows, P, STRATA_COMBINE_ZERO, &rep));
  expect_values(A, v);
  assert_int_equal(rep.entries_combined, 0);
  /* INSERT into a fill-complete target whose pattern holds every column: as ADD, no growth
   * (tests/test_unpack.c covers growth) */
  T_OK(unpack_rows(A, 1, rows, P, STRATA_COMBINE_INSERT, &rep));
  const double w_insert[] = {-3, -3, 0};
  expect_values(A, w_insert);
  assert_int_equal(rep.entries_inserted, 0);
  assert_int_equal(rep.entries_combined, 3);
  T_ERR(unpack_rows(A, 1, rows, P, (strata_combine_mode_t)9, &rep), STRATA_ERR_INVALID_ARGUMENT);
  /* ZERO still validates */
  const int32_t bad[] = {3};
  T_ERR(unpack_rows(A, 1, bad, P, STRATA_COMBINE_ZERO, &rep), STRATA_ERR_INVALID_DATA);
  assert_int_equal(rep.invalid_rows, 1);
  strata_crs_destroy(&A);
  strata_packets_destroy(&P);
  strata_crs_destroy(&B);
}

/* ABSMAX and ADD with many packets racing for the same entries. */
static void test_unpack_contended(void **state) {
  (void)state;
  uint64_t s = T_seed + 4;
  enum { NP = 2000, NC = 4 };
  int32_t br[NP * NC], bc[NP * NC], rows[NP];
  double bv[NP * NC], best[NC] = {0, 0, 0, 0};
  for (int p = 0; p < NP; ++p) {
    rows[p] = 0;
    for (int j = 0; j < NC; ++j) {
      const int k = p * NC + j;
      br[k] = p;
      bc[k] = j;
      bv[k] = (double)(int)(t_rand(&s) % 2001) - 1000.0; /* integers: sums are exact */
      if (fabs(bv[k]) > fabs(best[j])) best[j] = bv[k];
    }
  }
  const int32_t r[] = {0, 0, 0, 0}, c[] = {0, 1, 2, 3};
  const double zero[] = {0, 0, 0, 0};
  strata_crs_matrix_t *B = small(NP, NC, NP * NC, br, bc, bv);
  strata_packets_t *P = NULL;
  T_OK(strata_sparse_pack(T_exec, B, NP, NULL, NULL, &P));
  strata_crs_matrix_t *A = small(1, NC, NC, r, c, zero);
  strata_unpack_report_t rep;
  T_OK(unpack_rows(A, NP, rows, P, STRATA_COMBINE_ABSMAX, &rep));
  host_crs_t h = crs_to_host(A);
  for (int j = 0; j < NC; ++j) assert_true(fabs(h.v[j]) == fabs(best[j]));
  host_crs_free(&h);
  strata_crs_destroy(&A);
  A = small(1, NC, NC, r, c, zero);
  T_OK(unpack_rows(A, NP, rows, P, STRATA_COMBINE_ADD, &rep));
  double sum[NC] = {0, 0, 0, 0};
  for (int k = 0; k < NP * NC; ++k) sum[bc[k]] += bv[k];
  expect_values(A, sum);
  assert_int_equal(rep.entries_combined, NP * NC);
  strata_crs_destroy(&A);
  strata_packets_destroy(&P);
  strata_crs_destroy(&B);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coo_random),
      cmocka_unit_test(test_coo_empty_null),
      cmocka_unit_test(test_coo_invalid),
      cmocka_unit_test(test_crs_copy),
      cmocka_unit_test(test_spmv_random),
      cmocka_unit_test(test_spmv_e1_beta0),
      cmocka_unit_test(test_spmv_e2_nnz0),
      cmocka_unit_test(test_spmv_e3_empty_rows),
      cmocka_unit_test(test_spmv_alpha0),
      cmocka_unit_test(test_spmv_matrix_market),
      cmocka_unit_test(test_pack_unpack_add_roundtrip),
      cmocka_unit_test(test_pack_layout_long_rows),
      cmocka_unit_test(test_unpack_e8),
      cmocka_unit_test(test_unpack_e9),
      cmocka_unit_test(test_unpack_e10),
      cmocka_unit_test(test_unpack_invalid_row),
      cmocka_unit_test(test_unpack_malformed),
      cmocka_unit_test(test_unpack_modes),
      cmocka_unit_test(test_unpack_contended),
  };
  return T_RUN("sparse", tests);
}
