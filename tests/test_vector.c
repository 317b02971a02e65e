/* strata solvers — vector kernels (strata/vector.h) on the backend under test: dot, nrm2, amax,
 * axpby / axpy / scale / fill / copy, find_nonfinite against host references; reductions equal
 * bit for bit run to run; nrm2 scaled (no underflow or overflow where the norm is representable);
 * NaN never leaking where a vector is not read; n = 0; every bad input. */
#include <float.h>

#include "strata/solvers.h"
#include "test_common.h"

static double *dev_copy(const double *h, int n) { return (double *)t_to_dev(h, (size_t)(n > 0 ? n : 1) * sizeof(double)); }

static void random_vec(double *v, int n, uint64_t *s) {
  for (int i = 0; i < n; ++i) v[i] = 2.0 * t_uniform(s) - 1.0;
}

static void test_vector_reductions(void **state) {
  (void)state;
  const int sizes[] = {0, 1, 7, 1000, 100003};
  for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; ++c) {
    const int n = sizes[c];
    double *x = (double *)t_malloc((size_t)n * sizeof(double)), *y = (double *)t_malloc((size_t)n * sizeof(double));
    random_vec(x, n, &T_rng);
    random_vec(y, n, &T_rng);
    if (n > 2) x[n / 2] = -3.5; /* the largest |x_i| */
    double dot = 0, ss = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
      dot += x[i] * y[i];
      ss += x[i] * x[i];
      if (fabs(x[i]) > amax) amax = fabs(x[i]);
    }
    double *dx = dev_copy(x, n), *dy = dev_copy(y, n);
    double r1 = -1, r2 = -2, nr = -1, am = -1, sd = -1;
    T_OK(strata_vec_dot(T_exec, n, dx, dy, &r1));
    T_OK(strata_vec_dot(T_exec, n, dx, dy, &r2));
    assert_memory_equal(&r1, &r2, sizeof r1); /* the same bits every run */
    assert_true(fabs(r1 - dot) <= 1e-13 * (1.0 + sqrt(ss) * n));
    T_OK(strata_vec_nrm2(T_exec, n, dx, &nr));
    assert_true(t_reldiff(nr, sqrt(ss)) <= 1e-14);
    T_OK(strata_vec_amax(T_exec, n, dx, &am));
    assert_true(am == amax);
    /* the asynchronous dot writes exec memory, the same bits as the synchronous one */
    double *dres = (double *)t_dev_alloc(sizeof(double));
    T_OK(strata_vec_dot_async(T_exec, n, dx, dy, dres));
    t_to_host(&sd, dres, sizeof sd);
    assert_memory_equal(&sd, &r1, sizeof sd);
    /* the serial backend's result agrees to rounding */
    double *sx = (double *)t_malloc((size_t)n * sizeof(double) + 8), *sy = (double *)t_malloc((size_t)n * sizeof(double) + 8);
    memcpy(sx, x, (size_t)n * sizeof(double));
    memcpy(sy, y, (size_t)n * sizeof(double));
    double rs = 0;
    T_OK(strata_vec_dot(T_serial, n, sx, sy, &rs));
    assert_true(fabs(rs - r1) <= 1e-13 * (1.0 + n));
    free(sx);
    free(sy);
    t_dev_free(dres);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y);
  }
}

static void test_vector_nrm2_scaled(void **state) {
  (void)state;
  struct {
    double v[3];
    int n;
    double want;
  } cases[] = {
      {{1e-170, 0, 0}, 2, 1e-170},                       /* S7: not sqrt(1e-340) = 0 */
      {{1e200, 1e200, 0}, 2, 1.4142135623730951e200},    /* not sqrt(inf) */
      {{4.9406564584124654e-324, 0, 0}, 1, 4.9406564584124654e-324},
      {{3, -4, 0}, 2, 5},
      {{0, 0, 0}, 3, 0},
      {{-INFINITY, 1, 0}, 2, INFINITY},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    double *d = dev_copy(cases[c].v, 3), r = -1;
    T_OK(strata_vec_nrm2(T_exec, cases[c].n, d, &r));
    if (!(r == cases[c].want || t_reldiff(r, cases[c].want) <= 1e-15)) fail_msg("case %zu: nrm2 = %.17g, want %.17g", c, r, cases[c].want);
    t_dev_free(d);
  }
  double nanv[3] = {1, NAN, INFINITY};
  double *d = dev_copy(nanv, 3), r = 0;
  T_OK(strata_vec_nrm2(T_exec, 3, d, &r));
  assert_true(isnan(r));
  T_OK(strata_vec_amax(T_exec, 3, d, &r));
  assert_true(isnan(r));
  int64_t idx = 0;
  T_OK(strata_vec_find_nonfinite(T_exec, 3, d, &idx));
  assert_int_equal(idx, 1);
  T_OK(strata_vec_find_nonfinite(T_exec, 1, d, &idx));
  assert_int_equal(idx, -1);
  T_OK(strata_vec_find_nonfinite(T_exec, 0, NULL, &idx));
  assert_int_equal(idx, -1);
  t_dev_free(d);
}

static void test_vector_updates(void **state) {
  (void)state;
  const int n = 777;
  double *x = (double *)t_malloc(n * sizeof(double)), *y = (double *)t_malloc(n * sizeof(double));
  double *out = (double *)t_malloc(n * sizeof(double));
  random_vec(x, n, &T_rng);
  random_vec(y, n, &T_rng);
  double *dx = dev_copy(x, n), *dy = dev_copy(y, n);
  T_OK(strata_vec_axpby(T_exec, n, 0.5, dx, -2.0, dy));
  t_to_host(out, dy, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == 0.5 * x[i] + -2.0 * y[i]);
  T_OK(strata_vec_axpy(T_exec, n, 3.0, dx, dy));
  t_to_host(out, dy, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == (0.5 * x[i] + -2.0 * y[i]) + 3.0 * x[i]);
  /* beta = 0: y is not read (it holds NaN) */
  double *dn = (double *)t_dev_alloc(n * sizeof(double));
  T_OK(strata_vec_axpby(T_exec, n, 2.0, dx, 0.0, dn));
  t_to_host(out, dn, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == 2.0 * x[i]);
  /* alpha = 0: x is not read (NULL); scale by 0 of a NaN vector writes zeros */
  t_dev_free(dn);
  dn = (double *)t_dev_alloc(n * sizeof(double));
  T_OK(strata_vec_scale(T_exec, n, 0.0, dn));
  t_to_host(out, dn, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == 0.0);
  T_OK(strata_vec_axpby(T_exec, n, 0.0, NULL, 2.0, dx));
  t_to_host(out, dx, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == 2.0 * x[i]);
  /* x == y */
  T_OK(strata_vec_axpby(T_exec, n, 1.0, dx, 1.0, dx));
  t_to_host(out, dx, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == 4.0 * x[i]);
  T_OK(strata_vec_fill(T_exec, n, -7.25, dn));
  t_to_host(out, dn, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == -7.25);
  T_OK(strata_vec_copy(T_exec, n, dy, dn));
  T_OK(strata_vec_copy(T_exec, n, dn, dn));
  t_to_host(out, dn, n * sizeof(double));
  for (int i = 0; i < n; ++i) assert_true(out[i] == (0.5 * x[i] + -2.0 * y[i]) + 3.0 * x[i]);
  /* n = 0: nothing read or written, norms 0 */
  double r = -1;
  T_OK(strata_vec_axpby(T_exec, 0, 1.0, NULL, 1.0, NULL));
  T_OK(strata_vec_fill(T_exec, 0, 1.0, NULL));
  T_OK(strata_vec_copy(T_exec, 0, NULL, NULL));
  T_OK(strata_vec_dot(T_exec, 0, NULL, NULL, &r));
  assert_true(r == 0.0);
  T_OK(strata_vec_nrm2(T_exec, 0, NULL, &r));
  assert_true(r == 0.0);
  T_OK(strata_vec_amax(T_exec, 0, NULL, &r));
  assert_true(r == 0.0);
  t_dev_free(dn);
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  free(y);
  free(out);
}

static void test_vector_invalid(void **state) {
  (void)state;
  double *d = (double *)t_dev_alloc(4 * sizeof(double)), r = 0;
  int64_t idx = 0;
  t_expect_msg(strata_vec_dot(NULL, 4, d, d, &r), STRATA_ERR_INVALID_ARGUMENT, "NULL execution space", NULL);
  t_expect_msg(strata_vec_dot(T_exec, -1, d, d, &r), STRATA_ERR_INVALID_ARGUMENT, "n = -1", ">= 0");
  t_expect_msg(strata_vec_dot(T_exec, 4, NULL, d, &r), STRATA_ERR_INVALID_ARGUMENT, "NULL x", "n = 4");
  t_expect_msg(strata_vec_dot(T_exec, 4, d, NULL, &r), STRATA_ERR_INVALID_ARGUMENT, "NULL y", "n = 4");
  t_expect_msg(strata_vec_dot(T_exec, 4, d, d, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL result", NULL);
  t_expect_msg(strata_vec_dot_async(T_exec, 4, d, d, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL result", NULL);
  t_expect_msg(strata_vec_nrm2(T_exec, 4, NULL, &r), STRATA_ERR_INVALID_ARGUMENT, "NULL x", NULL);
  t_expect_msg(strata_vec_amax(T_exec, -3, d, &r), STRATA_ERR_INVALID_ARGUMENT, "n = -3", NULL);
  t_expect_msg(strata_vec_axpby(T_exec, 4, 1.0, NULL, 1.0, d), STRATA_ERR_INVALID_ARGUMENT, "NULL x", NULL);
  t_expect_msg(strata_vec_axpby(T_exec, 4, 1.0, d, 1.0, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL y", NULL);
  t_expect_msg(strata_vec_scale(T_exec, 4, 2.0, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_vec_fill(T_exec, 4, 2.0, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_vec_copy(T_exec, 4, NULL, d), STRATA_ERR_INVALID_ARGUMENT, "NULL x", NULL);
  t_expect_msg(strata_vec_find_nonfinite(T_exec, 4, d, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL result", NULL);
  t_expect_msg(strata_vec_find_nonfinite(NULL, 4, d, &idx), STRATA_ERR_INVALID_ARGUMENT, "NULL execution space", NULL);
  t_dev_free(d);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_vector_reductions, t_setup),
      cmocka_unit_test_setup(test_vector_nrm2_scaled, t_setup),
      cmocka_unit_test_setup(test_vector_updates, t_setup),
      cmocka_unit_test_setup(test_vector_invalid, t_setup),
  };
  return T_RUN("vector", tests);
}
