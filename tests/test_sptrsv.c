/* strata tests — level-scheduled sparse triangular solves (strata/sptrsv.h): EDGE_CASES S14
 * exactly, random triangles (other triangle present, unsorted columns, duplicates, empty rows)
 * against a host reference and against the serial backend, both algorithms, transposes, level
 * counts (one chain of 10^4 rows, a diagonal, 2D Poisson), value updates, refusals and bad input. */
#include "test_common.h"

#include "strata/solvers.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"
#include "sptrsv_impl.h"

static const strata_sptrsv_algorithm_t ALGS[] = {STRATA_SPTRSV_AUTO, STRATA_SPTRSV_LEVELS, STRATA_SPTRSV_WALK};
static const char *ALG_NAMES[] = {"auto", "levels", "walk"};

static strata_sptrsv_options_t opts_of(int lower, int unit, int transpose, strata_sptrsv_algorithm_t alg) {
  strata_sptrsv_options_t o;
  o.triangle = lower ? STRATA_LOWER : STRATA_UPPER;
  o.diag = unit ? STRATA_DIAG_UNIT : STRATA_DIAG_NON_UNIT;
  o.transpose = transpose;
  o.algorithm = alg;
  return o;
}

/* x = op(T)^{-1} b on exec (plan made and destroyed here); x_host [n] receives it. */
static void solve_on(strata_exec_t *exec, const host_crs_t *h, const strata_sptrsv_options_t *o, const double *b,
                     double *x_host, int32_t *levels) {
  strata_crs_matrix_t *T = hc_on(exec, h);
  strata_sptrsv_t *plan = NULL;
  T_OK(strata_sptrsv_create(exec, T, o, &plan));
  double *db = vec_on(exec, b, h->nr), *dx = vec_on(exec, NULL, h->nr);
  T_OK(strata_sptrsv_solve(NULL, plan, db, dx));
  T_OK(strata_exec_fence(exec));
  vec_get(exec, x_host, dx, h->nr);
  if (levels) T_OK(strata_sptrsv_levels(plan, levels));
  /* a second solve on the same plan gives the same bits */
  double *x2 = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
  T_OK(strata_sptrsv_solve(exec, plan, db, dx));
  vec_get(exec, x2, dx, h->nr);
  if (memcmp(x2, x_host, sizeof(double) * (size_t)h->nr) != 0) fail_msg("second solve differs from the first");
  free(x2);
  vec_free(exec, db);
  vec_free(exec, dx);
  T_OK(strata_sptrsv_destroy(&plan));
  assert_null(plan);
  T_OK(strata_crs_destroy(&T));
}

static void expect_vec(const char *what, const double *got, const double *want, int64_t n, double tol) {
  for (int64_t i = 0; i < n; ++i) {
    const double s = fabs(want[i]) > 1.0 ? fabs(want[i]) : 1.0;
    if (!(fabs(got[i] - want[i]) <= tol * s))
      fail_msg("%s: x[%lld] = %.17g, expected %.17g (seed %llu)", what, (long long)i, got[i], want[i],
               (unsigned long long)T_seed);
  }
}

/* ------------------------------------------------------------------ S14 */

static void test_s14(void **state) {
  (void)state;
  const double L[16] = {3, 0, 0, 0, 0, 1, 0, 0, 0, -3, 2, 0, -5, 0, 0, 4};
  const double one[4] = {1, 1, 1, 1};
  const double want[4] = {1.0 / 3, 1, 2, 2.0 / 3}, want_t[4] = {0.75, 2.5, 0.5, 0.25}, want_u[4] = {1, 1, 4, 6};
  host_crs_t h = hc_dense(4, 4, L);
  double Lu[16];
  memcpy(Lu, L, sizeof Lu);
  for (int i = 0; i < 4; ++i) Lu[i * 5] = 0.4;
  host_crs_t hu = hc_dense(4, 4, Lu);
  for (int a = 0; a < 3; ++a) {
    double x[4];
    strata_sptrsv_options_t o = opts_of(1, 0, 0, ALGS[a]);
    solve_on(T_exec, &h, &o, one, x, NULL);
    expect_vec(ALG_NAMES[a], x, want, 4, 1e-15);
    o.transpose = 1;
    solve_on(T_exec, &h, &o, one, x, NULL);
    expect_vec(ALG_NAMES[a], x, want_t, 4, 1e-15);
    o = opts_of(1, 1, 0, ALGS[a]);
    solve_on(T_exec, &hu, &o, one, x, NULL);
    expect_vec(ALG_NAMES[a], x, want_u, 4, 0.0);
    /* the upper triangle of L^T is L^T itself: the same answer as the transpose flag */
    host_crs_t ht = hc_transpose(&h);
    o = opts_of(0, 0, 0, ALGS[a]);
    solve_on(T_exec, &ht, &o, one, x, NULL);
    expect_vec(ALG_NAMES[a], x, want_t, 4, 1e-15);
    host_crs_free(&ht);
  }
  host_crs_free(&h);
  host_crs_free(&hu);
}

/* ------------------------------------------------------------------ random triangles */

/* A random n x n matrix with entries in both triangles (the solve ignores one), shuffled columns,
 * a few duplicates, empty rows (only the diagonal kept when non-unit), diagonally dominant. */
static host_crs_t gen_tri(uint64_t *s, int32_t n, int max_off, int unit) {
  host_crs_t h = hc_new(n, n, (int64_t)n * (2 * max_off + 3));
  for (int32_t i = 0; i < n; ++i) {
    const int64_t b = h.nnz;
    const int empty = t_rand(s) % 7 == 0;
    const int len = empty ? 0 : (int)(t_rand(s) % (uint64_t)(2 * max_off + 1));
    for (int k = 0; k < len && n > 1; ++k) {
      int32_t j = (int32_t)(t_rand(s) % (uint64_t)n);
      if (j == i) continue;
      if (k > 0 && t_rand(s) % 9 == 0) j = h.ci[h.nnz - 1]; /* a duplicate */
      hc_push(&h, j, (t_uniform(s) - 0.5) / (max_off + 1));
    }
    if (!unit || t_rand(s) % 3 == 0) { /* unit: a stored diagonal, ignored */
      hc_push(&h, i, 1.0 + t_uniform(s));
      if (!unit && t_rand(s) % 11 == 0) hc_push(&h, i, 0.25); /* a duplicate diagonal: summed */
    }
    hc_shuffle_tail(&h, b, s);
    h.ro[i + 1] = h.nnz;
  }
  return h;
}

static void test_random(void **state) {
  (void)state;
  static const struct { int32_t n; int off; } sizes[] = {{1, 2}, {2, 2}, {17, 3}, {300, 4}, {2000, 12}, {5000, 3}};
  uint64_t s = T_seed;
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t)
    for (int cfg = 0; cfg < 8; ++cfg) {
      const int lower = cfg & 1, unit = (cfg >> 1) & 1, transpose = (cfg >> 2) & 1;
      const int32_t n = sizes[t].n;
      host_crs_t h = gen_tri(&s, n, sizes[t].off, unit);
      double *b = (double *)t_malloc(sizeof(double) * (size_t)n), *want = (double *)t_malloc(sizeof(double) * (size_t)n);
      double *x = (double *)t_malloc(sizeof(double) * (size_t)n), *xs = (double *)t_malloc(sizeof(double) * (size_t)n);
      for (int32_t i = 0; i < n; ++i) b[i] = t_uniform(&s) * 2.0 - 1.0;
      if (transpose) {
        host_crs_t ht = hc_transpose(&h);
        host_tri_solve(&ht, !lower, unit, b, want);
        host_crs_free(&ht);
      } else {
        host_tri_solve(&h, lower, unit, b, want);
      }
      for (int a = 0; a < 3; ++a) {
        char what[128];
        snprintf(what, sizeof what, "n %d, %s, %s, %s, %s", n, lower ? "lower" : "upper", unit ? "unit" : "non-unit",
                 transpose ? "transposed" : "plain", ALG_NAMES[a]);
        strata_sptrsv_options_t o = opts_of(lower, unit, transpose, ALGS[a]);
        int32_t lev = -1, lev_s = -1;
        solve_on(T_exec, &h, &o, b, x, &lev);
        expect_vec(what, x, want, n, 1e-12);
        solve_on(T_serial, &h, &o, b, xs, &lev_s);
        expect_vec(what, x, xs, n, 1e-13);
        if (lev != lev_s) fail_msg("%s: %d levels, serial %d", what, lev, lev_s);
        /* host backends sum every row in storage order, whatever the algorithm: serial's bits */
        if (strata_exec_is_host(T_exec) && memcmp(x, xs, sizeof(double) * (size_t)n) != 0)
          fail_msg("%s: not bitwise equal to serial", what);
      }
      free(b);
      free(want);
      free(x);
      free(xs);
      host_crs_free(&h);
    }
}

/* ------------------------------------------------------------------ level counts */

static void test_levels(void **state) {
  (void)state;
  const int32_t n = 10000;
  /* bidiagonal: one chain of n levels; x_i = 1 for b = (2, 3, 3, ...) with diag 2, sub 1... */
  host_crs_t h = hc_new(n, n, 2 * (int64_t)n);
  for (int32_t i = 0; i < n; ++i) {
    if (i > 0) hc_push(&h, i - 1, -1.0);
    hc_push(&h, i, 2.0);
    h.ro[i + 1] = h.nnz;
  }
  double *b = (double *)t_malloc(sizeof(double) * n), *x = (double *)t_malloc(sizeof(double) * n);
  for (int32_t i = 0; i < n; ++i) b[i] = i == 0 ? 2.0 : 1.0; /* x = 1: 2 - 1 = 1 */
  for (int a = 0; a < 3; ++a) {
    strata_sptrsv_options_t o = opts_of(1, 0, 0, ALGS[a]);
    int32_t lev = 0;
    solve_on(T_exec, &h, &o, b, x, &lev);
    assert_int_equal(lev, n);
    for (int32_t i = 0; i < n; ++i)
      if (x[i] != 1.0) fail_msg("chain, %s: x[%d] = %.17g, expected 1", ALG_NAMES[a], i, x[i]);
    /* the upper triangle of the same matrix is its diagonal: one level, x = b / 2 */
    o.triangle = STRATA_UPPER;
    solve_on(T_exec, &h, &o, b, x, &lev);
    assert_int_equal(lev, 1);
    for (int32_t i = 0; i < n; ++i) assert_true(x[i] == b[i] / 2.0);
    /* transposed: the upper bidiagonal chain, n levels again */
    o = opts_of(1, 0, 1, ALGS[a]);
    solve_on(T_exec, &h, &o, b, x, &lev);
    assert_int_equal(lev, n);
  }
  host_crs_free(&h);
  free(b);
  free(x);
  /* 2D Poisson nx x ny: nx + ny - 1 levels each way; 3D: nx + ny + nz - 2 */
  static const int32_t grids[][3] = {{7, 5, 1}, {30, 20, 1}, {6, 5, 4}};
  for (int g = 0; g < 3; ++g) {
    host_crs_t p = hc_poisson(grids[g][0], grids[g][1], grids[g][2]);
    const int32_t want = grids[g][0] + grids[g][1] + grids[g][2] - 2;
    double *pb = (double *)t_malloc(sizeof(double) * (size_t)p.nr), *px = (double *)t_malloc(sizeof(double) * (size_t)p.nr);
    double *pw = (double *)t_malloc(sizeof(double) * (size_t)p.nr);
    for (int32_t i = 0; i < p.nr; ++i) pb[i] = 1.0 + i % 3;
    for (int lower = 0; lower < 2; ++lower) {
      strata_sptrsv_options_t o = opts_of(lower, 0, 0, STRATA_SPTRSV_AUTO);
      int32_t lev = 0;
      solve_on(T_exec, &p, &o, pb, px, &lev);
      assert_int_equal(lev, want);
      host_tri_solve(&p, lower, 0, pb, pw);
      expect_vec("poisson", px, pw, p.nr, 1e-14);
    }
    host_crs_free(&p);
    free(pb);
    free(px);
    free(pw);
  }
}

/* t_setup with the analysis-forcing flag cleared (a failed test_relax leaves it set: its fail_msg
 * returns past the line that clears it) */
static int setup(void **state) {
  strata_impl_sptrsv_relax = 0;
  return t_setup(state);
}

/* The GPUs' analysis (relaxation sweeps, the walk after RELAX_MAX: the 10,000-level chain) on
 * every backend: the same levels and solutions. */
static void test_relax(void **state) {
  strata_impl_sptrsv_relax = 1;
  test_levels(state);
  test_random(state);
  strata_impl_sptrsv_relax = 0;
}

/* ------------------------------------------------------------------ updates, n = 0 */

static void test_update_values(void **state) {
  (void)state;
  uint64_t s = T_seed + 7;
  const int32_t n = 400;
  for (int transpose = 0; transpose < 2; ++transpose) {
    host_crs_t h = gen_tri(&s, n, 5, 0);
    strata_crs_matrix_t *T = hc_on(T_exec, &h);
    strata_sptrsv_options_t o = opts_of(1, 0, transpose, STRATA_SPTRSV_AUTO);
    strata_sptrsv_t *plan = NULL;
    T_OK(strata_sptrsv_create(T_exec, T, &o, &plan));
    /* new values of the same pattern */
    for (int64_t k = 0; k < h.nnz; ++k) h.v[k] = h.v[k] * 1.5 + 0.125;
    strata_crs_matrix_t *T2 = hc_on(T_exec, &h);
    T_OK(strata_sptrsv_update_values(NULL, plan, T2));
    double *b = (double *)t_malloc(sizeof(double) * n), *want = (double *)t_malloc(sizeof(double) * n);
    double *x = (double *)t_malloc(sizeof(double) * n);
    for (int32_t i = 0; i < n; ++i) b[i] = t_uniform(&s);
    if (transpose) {
      host_crs_t ht = hc_transpose(&h);
      host_tri_solve(&ht, 0, 0, b, want);
      host_crs_free(&ht);
    } else {
      host_tri_solve(&h, 1, 0, b, want);
    }
    double *db = vec_on(T_exec, b, n), *dx = vec_on(T_exec, NULL, n);
    T_OK(strata_sptrsv_solve(T_exec, plan, db, dx));
    vec_get(T_exec, x, dx, n);
    expect_vec("updated values", x, want, n, 1e-12);
    /* a zero diagonal in the new values is refused, naming the row */
    for (int64_t k = h.ro[37]; k < h.ro[38]; ++k)
      if (h.ci[k] == 37) h.v[k] = 0.0;
    int32_t d37 = 0;
    for (int64_t k = h.ro[37]; k < h.ro[38]; ++k) d37 += h.ci[k] == 37;
    if (d37 == 1) { /* (a row with a duplicate diagonal keeps a nonzero sum) */
      strata_crs_matrix_t *T3 = hc_on(T_exec, &h);
      t_expect_msg(strata_sptrsv_update_values(T_exec, plan, T3), STRATA_ERR_INVALID_DATA, "row 37", NULL);
      T_OK(strata_crs_destroy(&T3));
    }
    /* another pattern is refused */
    host_crs_t hp = hc_poisson(20, 20, 1);
    strata_crs_matrix_t *P = hc_on(T_exec, &hp);
    t_expect_msg(strata_sptrsv_update_values(T_exec, plan, P), STRATA_ERR_INVALID_ARGUMENT, "400", NULL);
    T_OK(strata_crs_destroy(&P));
    host_crs_free(&hp);
    vec_free(T_exec, db);
    vec_free(T_exec, dx);
    free(b);
    free(want);
    free(x);
    T_OK(strata_sptrsv_destroy(&plan));
    T_OK(strata_crs_destroy(&T));
    T_OK(strata_crs_destroy(&T2));
    host_crs_free(&h);
  }
}

static void test_empty(void **state) {
  (void)state;
  host_crs_t h = hc_new(0, 0, 0);
  strata_crs_matrix_t *T = hc_on(T_exec, &h);
  for (int cfg = 0; cfg < 8; ++cfg) {
    strata_sptrsv_options_t o = opts_of(cfg & 1, (cfg >> 1) & 1, (cfg >> 2) & 1, ALGS[cfg % 3]);
    strata_sptrsv_t *plan = NULL;
    T_OK(strata_sptrsv_create(T_exec, T, &o, &plan));
    int32_t lev = -1;
    T_OK(strata_sptrsv_levels(plan, &lev));
    assert_int_equal(lev, 0);
    T_OK(strata_sptrsv_solve(T_exec, plan, NULL, NULL));
    T_OK(strata_sptrsv_update_values(T_exec, plan, T));
    T_OK(strata_sptrsv_destroy(&plan));
  }
  T_OK(strata_sptrsv_destroy(NULL));
  strata_sptrsv_t *none = NULL;
  T_OK(strata_sptrsv_destroy(&none));
  T_OK(strata_crs_destroy(&T));
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ refusals and bad input */

static void test_refused(void **state) {
  (void)state;
  /* a missing diagonal (row 2), a zero one (row 1), a NaN one (row 3): the first row named */
  const double a[16] = {2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, NAN};
  host_crs_t h = hc_dense(4, 4, a);
  /* drop row 2's diagonal: rebuild without it */
  host_crs_t m = hc_new(4, 4, h.nnz);
  for (int32_t i = 0; i < 4; ++i) {
    for (int64_t k = h.ro[i]; k < h.ro[i + 1]; ++k)
      if (!(i == 2 && h.ci[k] == 2)) hc_push(&m, h.ci[k], h.v[k]);
    m.ro[i + 1] = m.nnz;
  }
  strata_crs_matrix_t *T = hc_on(T_exec, &m);
  strata_sptrsv_t *plan = NULL;
  strata_sptrsv_options_t o = opts_of(1, 0, 0, STRATA_SPTRSV_AUTO);
  t_expect_msg(strata_sptrsv_create(T_exec, T, &o, &plan), STRATA_ERR_INVALID_DATA, "row 1", "0");
  assert_null(plan);
  /* the upper solve: the same diagonal, the same first row */
  o.triangle = STRATA_UPPER;
  t_expect_msg(strata_sptrsv_create(T_exec, T, &o, &plan), STRATA_ERR_INVALID_DATA, "row 1", NULL);
  T_OK(strata_crs_destroy(&T));
  /* only the missing one: row 2 named as missing */
  for (int64_t k = m.ro[1]; k < m.ro[2]; ++k)
    if (m.ci[k] == 1) m.v[k] = 5.0;
  for (int64_t k = m.ro[3]; k < m.ro[4]; ++k)
    if (m.ci[k] == 3) m.v[k] = 1.0;
  T = hc_on(T_exec, &m);
  o = opts_of(1, 0, 0, STRATA_SPTRSV_AUTO);
  t_expect_msg(strata_sptrsv_create(T_exec, T, &o, &plan), STRATA_ERR_INVALID_DATA, "row 2", "no stored diagonal");
  /* the unit solve does not need it */
  o.diag = STRATA_DIAG_UNIT;
  T_OK(strata_sptrsv_create(T_exec, T, &o, &plan));
  T_OK(strata_sptrsv_destroy(&plan));
  /* the NaN: row 3 */
  for (int64_t k = m.ro[3]; k < m.ro[4]; ++k)
    if (m.ci[k] == 3) m.v[k] = INFINITY;
  host_crs_t m2 = hc_new(4, 4, m.nnz + 1);
  for (int32_t i = 0; i < 4; ++i) {
    for (int64_t k = m.ro[i]; k < m.ro[i + 1]; ++k) hc_push(&m2, m.ci[k], m.v[k]);
    if (i == 2) hc_push(&m2, 2, 1.0);
    m2.ro[i + 1] = m2.nnz;
  }
  strata_crs_matrix_t *T2 = hc_on(T_exec, &m2);
  o.diag = STRATA_DIAG_NON_UNIT;
  t_expect_msg(strata_sptrsv_create(T_exec, T2, &o, &plan), STRATA_ERR_INVALID_DATA, "row 3", "inf");
  T_OK(strata_crs_destroy(&T2));
  host_crs_free(&m2);
  T_OK(strata_crs_destroy(&T));
  host_crs_free(&m);
  host_crs_free(&h);
}

static void test_bad_input(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(4, 3, 1);
  strata_crs_matrix_t *T = hc_on(T_exec, &h);
  strata_sptrsv_t *plan = NULL;
  t_expect_msg(strata_sptrsv_create(T_exec, T, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL plan", NULL);
  t_expect_msg(strata_sptrsv_create(T_exec, NULL, NULL, &plan), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_sptrsv_create(NULL, T, NULL, &plan), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  strata_sptrsv_options_t o = opts_of(1, 0, 0, STRATA_SPTRSV_AUTO);
  o.algorithm = (strata_sptrsv_algorithm_t)7;
  t_expect_msg(strata_sptrsv_create(T_exec, T, &o, &plan), STRATA_ERR_INVALID_ARGUMENT, "7", NULL);
  o = opts_of(1, 0, 0, STRATA_SPTRSV_AUTO);
  o.triangle = (strata_triangle_t)3;
  t_expect_msg(strata_sptrsv_create(T_exec, T, &o, &plan), STRATA_ERR_INVALID_ARGUMENT, "3", NULL);
  /* not square: both sizes */
  host_crs_t r = hc_new(3, 5, 3);
  for (int32_t i = 0; i < 3; ++i) {
    hc_push(&r, i, 1.0);
    r.ro[i + 1] = r.nnz;
  }
  strata_crs_matrix_t *R = hc_on(T_exec, &r);
  t_expect_msg(strata_sptrsv_create(T_exec, R, NULL, &plan), STRATA_ERR_INVALID_ARGUMENT, "3 x 5", NULL);
  assert_null(plan);
  /* another backend's matrix */
  if (strata_exec_backend(T_exec) != STRATA_BACKEND_SERIAL)
    t_expect_msg(strata_sptrsv_create(T_serial, T, NULL, &plan), STRATA_ERR_INVALID_ARGUMENT, "backend", NULL);
  T_OK(strata_sptrsv_create(T_exec, T, NULL, &plan));
  double *db = vec_on(T_exec, NULL, 12), *dx = vec_on(T_exec, NULL, 24);
  t_expect_msg(strata_sptrsv_solve(T_exec, NULL, db, dx), STRATA_ERR_INVALID_ARGUMENT, "NULL plan", NULL);
  t_expect_msg(strata_sptrsv_solve(T_exec, plan, NULL, dx), STRATA_ERR_INVALID_ARGUMENT, "NULL b", "12");
  t_expect_msg(strata_sptrsv_solve(T_exec, plan, db, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL x", NULL);
  t_expect_msg(strata_sptrsv_solve(T_exec, plan, dx, dx + 6), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
  int32_t lev = 0;
  t_expect_msg(strata_sptrsv_levels(NULL, &lev), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_sptrsv_levels(plan, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_sptrsv_update_values(T_exec, NULL, T), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_sptrsv_update_values(T_exec, plan, R), STRATA_ERR_INVALID_ARGUMENT, "3 x 5", NULL);
  vec_free(T_exec, db);
  vec_free(T_exec, dx);
  T_OK(strata_sptrsv_destroy(&plan));
  T_OK(strata_crs_destroy(&R));
  T_OK(strata_crs_destroy(&T));
  host_crs_free(&r);
  host_crs_free(&h);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_s14, setup),          cmocka_unit_test_setup(test_random, setup),
      cmocka_unit_test_setup(test_levels, setup),       cmocka_unit_test_setup(test_relax, setup),       cmocka_unit_test_setup(test_update_values, setup),
      cmocka_unit_test_setup(test_empty, setup),        cmocka_unit_test_setup(test_refused, setup),
      cmocka_unit_test_setup(test_bad_input, setup),
  };
  return T_RUN("sptrsv", tests);
}
