/* strata tests — the core patterns on the backend under test, checked against the serial backend
 * and host references: range for / reduce / scan, team policy (nested ranges, vector sums,
 * scratch, limits and E7), atomics under contention, the device-wide sort and scan, memory and
 * execution spaces, error reporting. */
#include <pthread.h>
#include <unistd.h>

#include "test_common.h"

#include "core_kernels.h"

STRATA_KERNEL_DECLARE(core_axpy);
STRATA_KERNEL_DECLARE(core_reduce_f64);
STRATA_KERNEL_DECLARE(core_reduce_i64);
STRATA_KERNEL_DECLARE(core_minmax_f64);
STRATA_KERNEL_DECLARE(core_scan_excl);
STRATA_KERNEL_DECLARE(core_scan_incl);
STRATA_KERNEL_DECLARE(core_scan_incl_f64);
STRATA_KERNEL_DECLARE(core_rowsum);
STRATA_KERNEL_DECLARE(core_team_vector);
STRATA_KERNEL_DECLARE(core_scratch);
STRATA_KERNEL_DECLARE(core_atomic);


static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  assert_non_null(p);
  return p;
}

static int exec_is_gpu(void) { return !strata_exec_is_host(T_exec); }

static strata_device_info_t exec_info(void) {
  strata_device_info_t d;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &d));
  return d;
}

/* ============================================================ range parallel_for */

static void check_axpy(int64_t n, int64_t b, int64_t e) {
  double *x = (double *)xmalloc((size_t)n * sizeof(double));
  double *y = (double *)xmalloc((size_t)n * sizeof(double));
  double *out = (double *)xmalloc((size_t)n * sizeof(double));
  /* multiples of 2^-10 below 2^10: alpha*x+y is exact, so a fused multiply-add (GPUs contract)
   * and a separate multiply and add give the same bits */
  for (int64_t i = 0; i < n; ++i) {
    x[i] = (double)((int64_t)(t_rand(&T_rng) % 2048) - 1024) / 1024.0;
    y[i] = (double)((int64_t)(t_rand(&T_rng) % 2048) - 1024) / 1024.0;
  }
  double *dx = (double *)t_to_dev(x, (size_t)n * sizeof(double));
  double *dy = (double *)t_to_dev(y, (size_t)n * sizeof(double));
  core_axpy_args_t a;
  a.alpha = 1.5;
  a.x = dx;
  a.y = dy;
  T_OK(strata_parallel_for(T_exec, "axpy", strata_range(b, e), &core_axpy, &a));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(out, dy, (size_t)n * sizeof(double));
  /* serial oracle on host memory */
  a.x = x;
  a.y = y;
  T_OK(strata_parallel_for(T_serial, NULL, strata_range(b, e), &core_axpy, &a));
  for (int64_t i = 0; i < n; ++i)
    if (memcmp(&out[i], &y[i], sizeof(double)) != 0)
      fail_msg("axpy n=%lld [%lld,%lld): y[%lld] = %.17g, serial %.17g (seed %llu)", (long long)n,
               (long long)b, (long long)e, (long long)i, out[i], y[i], (unsigned long long)T_seed);
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  free(y);
  free(out);
}

static void test_for_range(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 7, 1000, (1 << 20) + 3};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    int64_t n = sizes[s];
    check_axpy(n, 0, n);
    if (n > 2) check_axpy(n, 1, n - 1); /* begin != 0; outside the range y stays untouched */
    if (n > 0) check_axpy(n, n / 2, n / 2); /* empty range in the middle */
  }
}

static void test_for_invalid_range(void **state) {
  (void)state;
  core_axpy_args_t a;
  a.alpha = 1;
  a.x = NULL;
  a.y = NULL;
  t_expect_msg(strata_parallel_for(T_exec, "axpy", strata_range(5, 4), &core_axpy, &a),
             STRATA_ERR_INVALID_ARGUMENT, "4", "5");
  T_OK(strata_parallel_for(T_exec, "axpy", strata_range(-3, -3), &core_axpy, &a));
  core_reduce_f64_args_t r;
  r.op = STRATA_REDUCE_SUM;
  r.x = NULL;
  double res = 0;
  T_ERR(strata_parallel_reduce(T_exec, NULL, strata_range(1, 0), &core_reduce_f64, &r,
                               STRATA_REDUCE_SUM, &res),
        STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &core_reduce_f64, &r,
                               (strata_reduce_op_t)7, &res),
        STRATA_ERR_INVALID_ARGUMENT);
  core_scan_args_t sa;
  sa.in = NULL;
  sa.out = NULL;
  int64_t tot = 0;
  T_ERR(strata_parallel_scan(T_exec, NULL, strata_range(10, 2), &core_scan_excl, &sa, &tot),
        STRATA_ERR_INVALID_ARGUMENT);
}

/* ranges at both ends of int64: every index visited once, none wrapped (the OpenMP reduce's
 * unrolled loop tested i + 3 < end, which overflowed near INT64_MAX); longer than INT64_MAX
 * indices refused, naming the limit */
STRATA_KERNEL_DECLARE(core_index_sum);
STRATA_KERNEL_DECLARE(core_index_for);
STRATA_KERNEL_DECLARE(core_index_scan);
static void test_ranges_at_int64_limits(void **state) {
  (void)state;
  const int64_t lens[] = {0, 1, 3, 4, 5, 1000003};
  int64_t *dsum = (int64_t *)t_dev_alloc(sizeof(int64_t));
  for (int top = 0; top < 2; ++top)
    for (size_t q = 0; q < sizeof lens / sizeof lens[0]; ++q) {
      const int64_t n = lens[q], base = top ? INT64_MAX - n : INT64_MIN, want = n * (n + 1) / 2;
      core_index_args_t a = {base, dsum};
      int64_t got = -1, zero = 0;
      T_OK(strata_parallel_reduce(T_exec, "index sum", strata_range(base, base + n), &core_index_sum, &a,
                                  STRATA_REDUCE_SUM, &got));
      if (got != want) fail_msg("reduce [%lld, +%lld): %lld, expected %lld", (long long)base, (long long)n, (long long)got, (long long)want);
      got = -1;
      T_OK(strata_parallel_scan(T_exec, "index scan", strata_range(base, base + n), &core_index_scan, &a, &got));
      if (got != want) fail_msg("scan [%lld, +%lld): %lld, expected %lld", (long long)base, (long long)n, (long long)got, (long long)want);
      T_OK(strata_mem_copy(T_exec, dsum, &zero, sizeof zero));
      T_OK(strata_parallel_for(T_exec, "index for", strata_range(base, base + n), &core_index_for, &a));
      t_to_host(&got, dsum, sizeof got);
      if (got != want) fail_msg("for [%lld, +%lld): %lld, expected %lld", (long long)base, (long long)n, (long long)got, (long long)want);
    }
  core_index_args_t a = {0, dsum};
  int64_t got = 0;
  t_expect_msg(strata_parallel_reduce(T_exec, "index sum", strata_range(-1, INT64_MAX), &core_index_sum, &a,
                                      STRATA_REDUCE_SUM, &got),
               STRATA_ERR_INVALID_ARGUMENT, "INT64_MAX", "-1");
  t_expect_msg(strata_parallel_for(T_exec, "index for", strata_range(INT64_MIN, 1), &core_index_for, &a),
               STRATA_ERR_INVALID_ARGUMENT, "INT64_MAX", "1)");
  t_dev_free(dsum);
}

/* ============================================================ parallel_reduce */

static const char *op_name(strata_reduce_op_t op) {
  return op == STRATA_REDUCE_SUM ? "SUM" : op == STRATA_REDUCE_MIN ? "MIN" : "MAX";
}

static void test_reduce(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 7, 1000, (1 << 20) + 3};
  const strata_reduce_op_t ops[] = {STRATA_REDUCE_SUM, STRATA_REDUCE_MAX, STRATA_REDUCE_MIN};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const int64_t n = sizes[s];
    double *xf = (double *)xmalloc((size_t)n * sizeof(double));
    int64_t *xi = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) {
      xf[i] = t_uniform(&T_rng); /* positive: the sum is well conditioned */
      xi[i] = (int64_t)(t_rand(&T_rng) >> 24) - ((int64_t)1 << 39); /* |x| < 2^40: no overflow */
    }
    double *dxf = (double *)t_to_dev(xf, (size_t)n * sizeof(double));
    int64_t *dxi = (int64_t *)t_to_dev(xi, (size_t)n * sizeof(int64_t));
    for (size_t o = 0; o < 3; ++o) {
      const strata_reduce_op_t op = ops[o];
      /* host references */
      long double hs = 0;
      double hmax = -INFINITY, hmin = INFINITY;
      int64_t is = 0, imax = INT64_MIN, imin = INT64_MAX;
      for (int64_t i = 0; i < n; ++i) {
        hs += xf[i];
        if (xf[i] > hmax) hmax = xf[i];
        if (xf[i] < hmin) hmin = xf[i];
        is += xi[i];
        if (xi[i] > imax) imax = xi[i];
        if (xi[i] < imin) imin = xi[i];
      }
      core_reduce_f64_args_t af;
      af.op = (int)op;
      af.x = dxf;
      core_reduce_i64_args_t ai;
      ai.op = (int)op;
      ai.x = dxi;
      double rf, sf;
      int64_t ri, si;
      memset(&rf, 0xFF, sizeof rf); /* poisoned results */
      memset(&ri, 0xFF, sizeof ri);
      T_OK(strata_parallel_reduce(T_exec, "reduce_f64", strata_range(0, n), &core_reduce_f64, &af,
                                  op, &rf));
      T_OK(strata_parallel_reduce(T_exec, "reduce_i64", strata_range(0, n), &core_reduce_i64, &ai,
                                  op, &ri));
      af.x = xf;
      ai.x = xi;
      T_OK(strata_parallel_reduce(T_serial, NULL, strata_range(0, n), &core_reduce_f64, &af, op, &sf));
      T_OK(strata_parallel_reduce(T_serial, NULL, strata_range(0, n), &core_reduce_i64, &ai, op, &si));
      if (ri != si)
        fail_msg("%s i64 n=%lld: %lld, serial %lld (seed %llu)", op_name(op), (long long)n,
                 (long long)ri, (long long)si, (unsigned long long)T_seed);
      const int64_t iref = op == STRATA_REDUCE_SUM ? is : op == STRATA_REDUCE_MAX ? imax : imin;
      assert_int_equal(ri, iref);
      if (op == STRATA_REDUCE_SUM) {
        if (t_reldiff(rf, sf) > 1e-12 || t_reldiff(rf, (double)hs) > 1e-12)
          fail_msg("SUM f64 n=%lld: %.17g, serial %.17g, host %.17Lg (seed %llu)", (long long)n, rf,
                   sf, hs, (unsigned long long)T_seed);
        if (n == 0 && !(rf == 0.0 && !signbit(rf))) fail_msg("empty SUM f64 gives %g, not +0", rf);
      } else {
        const double ref = op == STRATA_REDUCE_MAX ? hmax : hmin;
        if (memcmp(&rf, &ref, sizeof rf) != 0 || memcmp(&sf, &ref, sizeof sf) != 0)
          fail_msg("%s f64 n=%lld: %.17g, serial %.17g, host %.17g (seed %llu)", op_name(op),
                   (long long)n, rf, sf, ref, (unsigned long long)T_seed);
      }
    }
    /* begin != 0: the subrange [n/3, n) */
    if (n > 3) {
      core_reduce_i64_args_t ai;
      ai.op = STRATA_REDUCE_SUM;
      ai.x = dxi;
      int64_t ri = -1, ref = 0;
      for (int64_t i = n / 3; i < n; ++i) ref += xi[i];
      T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(n / 3, n), &core_reduce_i64, &ai,
                                  STRATA_REDUCE_SUM, &ri));
      assert_int_equal(ri, ref);
    }
    t_dev_free(dxf);
    t_dev_free(dxi);
    free(xf);
    free(xi);
  }
}

/* More of strata_parallel_reduce_async: a 16-byte loc result written whole and nothing past it; a
 * result that is the kernel's own input (written after every body call); on a fresh instance, a
 * small reduction and then a large one whose partials outgrow the instance's temporary, with no
 * wait between them. */
STRATA_KERNEL_DECLARE(core_argmax_f64);
static void reduce_async_more(void) {
  const int64_t n = 300007;
  double *x = (double *)xmalloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) x[i] = t_uniform(&T_rng);
  double *dx = (double *)t_to_dev(x, (size_t)n * sizeof(double));
  core_reduce_f64_args_t a = {STRATA_REDUCE_MAXLOC, dx};
  strata_f64loc_t want, got[2];
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_argmax_f64, &a, STRATA_REDUCE_MAXLOC, &want));
  strata_f64loc_t *dg = (strata_f64loc_t *)t_dev_alloc(2 * sizeof(strata_f64loc_t));
  T_OK(strata_mem_set_async(T_exec, dg, 0x77, 2 * sizeof(strata_f64loc_t)));
  T_OK(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, n), &core_argmax_f64, &a, STRATA_REDUCE_MAXLOC, dg));
  T_OK(strata_mem_copy(T_exec, got, dg, sizeof got));
  assert_true(got[0].val == want.val && got[0].loc == want.loc);
  unsigned char guard[sizeof(strata_f64loc_t)];
  memset(guard, 0x77, sizeof guard);
  assert_memory_equal(&got[1], guard, sizeof guard); /* nothing written past the result */
  /* the result aliases the input: x[0] receives the sum of the original x */
  double sum = 0;
  a.op = STRATA_REDUCE_SUM;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &a, STRATA_REDUCE_SUM, &sum));
  T_OK(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &a, STRATA_REDUCE_SUM, dx));
  double x0 = 0;
  T_OK(strata_mem_copy(T_exec, &x0, dx, sizeof x0));
  if (memcmp(&x0, &sum, sizeof sum) != 0) fail_msg("aliased result %.17g, the reduce gives %.17g", x0, sum);
  T_OK(strata_mem_copy(T_exec, dx, x, sizeof(double))); /* x[0] back */
  /* a fresh instance: its temporary starts small */
  strata_exec_t *e2 = NULL;
  T_OK(strata_exec_create(strata_exec_backend(T_exec), &e2));
  double *d2 = NULL, r2[2];
  T_OK(strata_mem_alloc(e2, STRATA_MEM_DEVICE, 2 * sizeof(double), (void **)&d2));
  T_OK(strata_parallel_reduce_async(e2, NULL, strata_range(0, 3), &core_reduce_f64, &a, STRATA_REDUCE_SUM, d2));
  T_OK(strata_parallel_reduce_async(e2, NULL, strata_range(0, n), &core_reduce_f64, &a, STRATA_REDUCE_SUM, d2 + 1));
  T_OK(strata_mem_copy(e2, r2, d2, sizeof r2));
  double w3 = 0;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, 3), &core_reduce_f64, &a, STRATA_REDUCE_SUM, &w3));
  if (memcmp(&r2[0], &w3, sizeof w3) != 0 || memcmp(&r2[1], &sum, sizeof sum) != 0)
    fail_msg("fresh instance: %.17g and %.17g, the reduces give %.17g and %.17g", r2[0], r2[1], w3, sum);
  T_OK(strata_mem_free(e2, STRATA_MEM_DEVICE, (void **)&d2));
  strata_exec_destroy(&e2);
  t_dev_free(dg);
  t_dev_free(dx);
  free(x);
}

/* strata_parallel_reduce_async: the result lands in exec memory in stream order (a kernel
 * launched right after it reads it, with no fence between), equal bit for bit to the synchronous
 * reduce's; an empty range writes the identity there too. */
STRATA_KERNEL_DECLARE(core_scalars);
static void test_reduce_async(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 1000, (1 << 20) + 3};
  double *ds = (double *)t_dev_alloc(2 * sizeof(double));
  int64_t *di = (int64_t *)t_dev_alloc(sizeof(int64_t));
  const int64_t m = 4099; /* the reader's range */
  double *dout = (double *)t_dev_alloc((size_t)m * sizeof(double));
  double *out = (double *)xmalloc((size_t)m * sizeof(double));
  for (size_t q = 0; q < sizeof sizes / sizeof sizes[0]; ++q) {
    const int64_t n = sizes[q];
    double *xf = (double *)xmalloc((size_t)(n ? n : 1) * sizeof(double));
    int64_t *xi = (int64_t *)xmalloc((size_t)(n ? n : 1) * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) {
      xf[i] = t_uniform(&T_rng) - 0.25;
      xi[i] = (int64_t)(t_rand(&T_rng) >> 24) - ((int64_t)1 << 39);
    }
    double *dxf = (double *)t_to_dev(xf, (size_t)n * sizeof(double));
    int64_t *dxi = (int64_t *)t_to_dev(xi, (size_t)n * sizeof(int64_t));
    core_reduce_f64_args_t sum = {STRATA_REDUCE_SUM, dxf}, mx = {STRATA_REDUCE_MAX, dxf};
    core_reduce_i64_args_t mn = {STRATA_REDUCE_MIN, dxi};
    double want[2];
    int64_t wanti = 0;
    T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &sum, STRATA_REDUCE_SUM, &want[0]));
    T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &mx, STRATA_REDUCE_MAX, &want[1]));
    T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_reduce_i64, &mn, STRATA_REDUCE_MIN, &wanti));
    T_OK(strata_mem_set_async(T_exec, ds, 0xFF, 2 * sizeof(double))); /* poisoned: NaN */
    T_OK(strata_mem_set_async(T_exec, di, 0x5A, sizeof(int64_t)));
    T_OK(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &sum, STRATA_REDUCE_SUM, ds));
    T_OK(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &mx, STRATA_REDUCE_MAX, ds + 1));
    T_OK(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, n), &core_reduce_i64, &mn, STRATA_REDUCE_MIN, di));
    core_scalars_args_t rd = {ds, dout};
    T_OK(strata_parallel_for(T_exec, NULL, strata_range(0, m), &core_scalars, &rd));
    T_OK(strata_mem_copy(T_exec, out, dout, (size_t)m * sizeof(double)));
    for (int64_t i = 0; i < m; ++i)
      if (memcmp(&out[i], &want[i % 2], sizeof(double)) != 0)
        fail_msg("n=%lld: the kernel after the async reduce read %.17g at %lld, the reduce gives %.17g", (long long)n,
                 out[i], (long long)i, want[i % 2]);
    int64_t goti = 0;
    T_OK(strata_mem_copy(T_exec, &goti, di, sizeof goti));
    assert_int_equal(goti, wanti);
    if (n == 0) { /* the identities */
      assert_true(want[0] == 0.0 && !signbit(want[0]));
      assert_true(isinf(want[1]) && want[1] < 0);
      assert_true(wanti == INT64_MAX);
    }
    t_dev_free(dxf);
    t_dev_free(dxi);
    free(xf);
    free(xi);
  }
  core_reduce_f64_args_t bad = {STRATA_REDUCE_SUM, NULL};
  T_ERR(strata_parallel_reduce_async(T_exec, NULL, strata_range(0, 1), &core_reduce_f64, &bad, STRATA_REDUCE_SUM, NULL),
        STRATA_ERR_INVALID_ARGUMENT);
  t_dev_free(ds);
  reduce_async_more();
  t_dev_free(di);
  t_dev_free(dout);
  free(out);
}

static void test_reduce_empty_identity(void **state) {
  (void)state;
  core_reduce_f64_args_t af;
  af.x = NULL;
  core_reduce_i64_args_t ai;
  ai.x = NULL;
  double rf;
  int64_t ri;
  const int64_t begins[] = {0, 17};
  for (int k = 0; k < 2; ++k) {
    strata_range_t r = strata_range(begins[k], begins[k]);
    af.op = ai.op = STRATA_REDUCE_SUM;
    rf = NAN;
    ri = 99;
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_f64, &af, STRATA_REDUCE_SUM, &rf));
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_i64, &ai, STRATA_REDUCE_SUM, &ri));
    assert_true(rf == 0.0);
    assert_int_equal(ri, 0);
    af.op = ai.op = STRATA_REDUCE_MAX;
    rf = NAN;
    ri = 99;
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_f64, &af, STRATA_REDUCE_MAX, &rf));
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_i64, &ai, STRATA_REDUCE_MAX, &ri));
    assert_true(isinf(rf) && rf < 0);
    assert_true(ri == INT64_MIN);
    af.op = ai.op = STRATA_REDUCE_MIN;
    rf = NAN;
    ri = 99;
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_f64, &af, STRATA_REDUCE_MIN, &rf));
    T_OK(strata_parallel_reduce(T_exec, NULL, r, &core_reduce_i64, &ai, STRATA_REDUCE_MIN, &ri));
    assert_true(isinf(rf) && rf > 0);
    assert_true(ri == INT64_MAX);
  }
}

/* x (n values) to dx, then its MIN and MAX by core_minmax_f64 */
static void minmax_f64(double *dx, const double *x, int64_t n, double *mn, double *mx) {
  T_OK(strata_mem_copy(T_exec, dx, x, (size_t)n * sizeof(double)));
  core_reduce_f64_args_t a = {STRATA_REDUCE_MIN, dx};
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_minmax_f64, &a, STRATA_REDUCE_MIN, mn));
  a.op = STRATA_REDUCE_MAX;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_minmax_f64, &a, STRATA_REDUCE_MAX, mx));
}

/* MIN / MAX with strata_kl_min_f64 / strata_kl_max_f64: -0 is below +0 and NaNs never win, so
 * the result is the same on every backend and thread count (a plain `v < *acc` fold kept
 * whichever zero came first). Zeros of both signs with the one -0 (or +0) first, last and in the
 * middle; NaNs among them; only NaNs (the identity). */
static void test_reduce_signed_zero(void **state) {
  (void)state;
  const int64_t n = 1000003;
  double *x = (double *)malloc((size_t)n * sizeof(double));
  double *dx = (double *)t_dev_alloc((size_t)n * sizeof(double));
  const int64_t where[3] = {0, n / 2 + 1, n - 1};
  double mn = 1.0, mx = 1.0;
  for (int odd = 0; odd < 2; ++odd)          /* odd: the odd one out is +0 among -0 */
    for (int nan = 0; nan < 2; ++nan)        /* NaN at every third index */
      for (int w = 0; w < 3; ++w) {
        for (int64_t i = 0; i < n; ++i) x[i] = nan && i % 3 == 1 && i != where[w] ? NAN : odd ? -0.0 : 0.0;
        x[where[w]] = odd ? 0.0 : -0.0;
        minmax_f64(dx, x, n, &mn, &mx);
        if (!(mn == 0.0 && signbit(mn) && mx == 0.0 && !signbit(mx)))
          fail_msg("odd %s at %lld (NaNs %d): min %g (sign %d), max %g (sign %d); expected -0 and +0",
                   odd ? "+0" : "-0", (long long)where[w], nan, mn, signbit(mn) != 0, mx, signbit(mx) != 0);
      }
  for (int64_t i = 0; i < n; ++i) x[i] = NAN;
  minmax_f64(dx, x, n, &mn, &mx);
  assert_true(isinf(mn) && mn > 0);
  assert_true(isinf(mx) && mx < 0);
  t_dev_free(dx);
  free(x);
}

/* ============================================================ parallel_scan */

static const int64_t scan_sizes[] = {0, 1, 255, 256, 257, 1000001};

static void fill_scan_input(int64_t *in, int64_t n) {
  for (int64_t i = 0; i < n; ++i) in[i] = (int64_t)(t_rand(&T_rng) % 2001) - 1000;
}

static void check_i64(const char *what, int64_t n, const int64_t *got, const int64_t *want) {
  for (int64_t i = 0; i < n; ++i)
    if (got[i] != want[i])
      fail_msg("%s n=%lld: [%lld] = %lld, expected %lld (seed %llu)", what, (long long)n,
               (long long)i, (long long)got[i], (long long)want[i], (unsigned long long)T_seed);
}

static void test_scan_exclusive_i64(void **state) {
  (void)state;
  for (size_t s = 0; s < sizeof scan_sizes / sizeof scan_sizes[0]; ++s) {
    const int64_t n = scan_sizes[s];
    int64_t *in = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *ref = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *got = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    fill_scan_input(in, n);
    int64_t acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      ref[i] = acc;
      acc += in[i];
    }
    int64_t *din = (int64_t *)t_to_dev(in, (size_t)n * sizeof(int64_t));
    int64_t *dout = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
    int64_t total = -12345;
    T_OK(strata_scan_exclusive_i64(T_exec, n, din, dout, &total));
    assert_int_equal(total, acc);
    t_to_host(got, dout, (size_t)n * sizeof(int64_t));
    check_i64("strata_scan_exclusive_i64", n, got, ref);
    /* in place, without total (asynchronous) */
    T_OK(strata_scan_exclusive_i64(T_exec, n, din, din, NULL));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(got, din, (size_t)n * sizeof(int64_t));
    check_i64("strata_scan_exclusive_i64 in place", n, got, ref);
    t_dev_free(din);
    t_dev_free(dout);
    free(in);
    free(ref);
    free(got);
  }
  T_ERR(strata_scan_exclusive_i64(T_exec, -1, NULL, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
  /* sums wrap as two's complement (runtime.h), without signed overflow (UBSan in CI's ASan build):
   * INT64_MAX + 1 + INT64_MAX + 2 = 2^64 + 1 -> 1; a newcomer review found the overflow */
  for (int rep = 1; rep <= 3000; rep *= 3000) { /* 4 values; then 12000, across threads */
    const int64_t n = 4 * rep;
    int64_t *in = (int64_t *)xmalloc((size_t)n * sizeof(int64_t)), *got = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    for (int64_t i = 0; i < n; ++i) in[i] = i % 4 == 0 || i % 4 == 2 ? INT64_MAX : i % 4 == 1 ? 1 : 2;
    int64_t *din = (int64_t *)t_to_dev(in, (size_t)n * sizeof(int64_t));
    int64_t *dout = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
    int64_t total = 0;
    T_OK(strata_scan_exclusive_i64(T_exec, n, din, dout, &total));
    t_to_host(got, dout, (size_t)n * sizeof(int64_t));
    uint64_t acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (got[i] != (int64_t)acc) fail_msg("wrapping scan: out[%lld] = %lld, expected %lld", (long long)i, (long long)got[i], (long long)(int64_t)acc);
      acc += (uint64_t)in[i];
    }
    assert_int_equal(total, (int64_t)acc);
    if (rep == 1) assert_int_equal(total, 1);
    t_dev_free(din);
    t_dev_free(dout);
    free(in);
    free(got);
  }
}

static void test_scan_user_kernels(void **state) {
  (void)state;
  for (size_t s = 0; s < sizeof scan_sizes / sizeof scan_sizes[0]; ++s) {
    const int64_t n = scan_sizes[s];
    int64_t *in = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *ex = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *inc = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *got = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    int64_t *ser = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
    fill_scan_input(in, n);
    int64_t acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      ex[i] = acc;
      acc += in[i];
      inc[i] = acc;
    }
    int64_t *din = (int64_t *)t_to_dev(in, (size_t)n * sizeof(int64_t));
    const strata_kernel_t *kernels[2] = {&core_scan_excl, &core_scan_incl};
    const int64_t *refs[2] = {ex, inc};
    for (int k = 0; k < 2; ++k) {
      int64_t *dout = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
      core_scan_args_t a;
      a.in = din;
      a.out = dout;
      int64_t total = -777, stotal = -778;
      T_OK(strata_parallel_scan(T_exec, NULL, strata_range(0, n), kernels[k], &a, &total));
      assert_int_equal(total, acc);
      t_to_host(got, dout, (size_t)n * sizeof(int64_t));
      check_i64(kernels[k]->name, n, got, refs[k]);
      a.in = in;
      a.out = ser;
      T_OK(strata_parallel_scan(T_serial, NULL, strata_range(0, n), kernels[k], &a, &stotal));
      assert_int_equal(stotal, total);
      check_i64("serial oracle", n, ser, refs[k]);
      /* begin != 0: [n/2, n), the prefix restarts at begin; outside stays poisoned */
      if (n > 1) {
        T_OK(strata_mem_set_async(T_exec, dout, 0xFF, (size_t)n * sizeof(int64_t)));
        a.in = din;
        a.out = dout;
        const int64_t b = n / 2;
        T_OK(strata_parallel_scan(T_exec, NULL, strata_range(b, n), kernels[k], &a, NULL));
        T_OK(strata_exec_fence(T_exec));
        t_to_host(got, dout, (size_t)n * sizeof(int64_t));
        int64_t p = 0;
        for (int64_t i = 0; i < n; ++i) {
          int64_t want = -1;
          if (i >= b) {
            want = k == 0 ? p : p + in[i];
            p += in[i];
          }
          if (got[i] != want)
            fail_msg("%s on [%lld,%lld): [%lld] = %lld, expected %lld", kernels[k]->name,
                     (long long)b, (long long)n, (long long)i, (long long)got[i], (long long)want);
        }
      }
      t_dev_free(dout);
    }
    t_dev_free(din);
    free(in);
    free(ex);
    free(inc);
    free(got);
    free(ser);
  }
}

/* ============================================================ team policy */

/* Runs core_rowsum on an m x k matrix with a policy; compares with an exact host reference
 * (small integer values: every double sum is exact, so any order gives the same bits). */
static void check_rowsum(int64_t m, int64_t k, int64_t rpt, int team_size, int vector_length) {
  double *A = (double *)xmalloc((size_t)(m * k) * sizeof(double));
  double *x = (double *)xmalloc((size_t)k * sizeof(double));
  double *y = (double *)xmalloc((size_t)m * sizeof(double));
  int64_t *yi = (int64_t *)xmalloc((size_t)m * sizeof(int64_t));
  for (int64_t i = 0; i < m * k; ++i) A[i] = (double)((int64_t)(t_rand(&T_rng) % 17) - 8);
  for (int64_t j = 0; j < k; ++j) x[j] = (double)((int64_t)(t_rand(&T_rng) % 9) - 4);
  core_rowsum_args_t a;
  a.m = m;
  a.k = k;
  a.rows_per_team = rpt;
  a.A = (const double *)t_to_dev(A, (size_t)(m * k) * sizeof(double));
  a.x = (const double *)t_to_dev(x, (size_t)k * sizeof(double));
  a.y = (double *)t_dev_alloc((size_t)m * sizeof(double));
  a.yi = (int64_t *)t_dev_alloc((size_t)m * sizeof(int64_t));
  strata_team_policy_t p = strata_team_policy((m + rpt - 1) / rpt, team_size, vector_length);
  T_OK(strata_parallel_for_team(T_exec, "rowsum", &p, &core_rowsum, &a));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, a.y, (size_t)m * sizeof(double));
  t_to_host(yi, a.yi, (size_t)m * sizeof(int64_t));
  for (int64_t r = 0; r < m; ++r) {
    double s = 0;
    int64_t si = 0;
    for (int64_t j = 0; j < k; ++j) {
      s += A[r * k + j] * x[j];
      si += (int64_t)A[r * k + j];
    }
    if (y[r] != s || yi[r] != si)
      fail_msg("rowsum %lldx%lld rows/team %lld team %d vector %d: row %lld = %.17g / %lld, "
               "expected %.17g / %lld (seed %llu)",
               (long long)m, (long long)k, (long long)rpt, team_size, vector_length, (long long)r,
               y[r], (long long)yi[r], s, (long long)si, (unsigned long long)T_seed);
  }
  t_dev_free((void *)a.A);
  t_dev_free((void *)a.x);
  t_dev_free(a.y);
  t_dev_free(a.yi);
  free(A);
  free(x);
  free(y);
  free(yi);
}

static void test_team_rowsum_auto(void **state) {
  (void)state;
  const int64_t shapes[][2] = {{0, 5}, {1, 1}, {1, 0}, {37, 3}, {100, 129}, {1000, 64}, {5, 1000}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (int64_t rpt = 1; rpt <= 9; rpt += 4) {
      check_rowsum(shapes[s][0], shapes[s][1], rpt, STRATA_AUTO, STRATA_AUTO);
      check_rowsum(shapes[s][0], shapes[s][1], rpt, 1, 1);
      check_rowsum(shapes[s][0], shapes[s][1], rpt, STRATA_AUTO, 1);
      check_rowsum(shapes[s][0], shapes[s][1], rpt, 1, STRATA_AUTO);
    }
}

static void test_team_rowsum_explicit(void **state) {
  (void)state;
  if (!exec_is_gpu()) skip(); /* host backends accept only 1 x 1 (checked above and below) */
  const strata_device_info_t d = exec_info();
  for (int ts = 1; ts <= 32; ++ts)
    for (int vl = 1; vl <= 32 && vl <= d.warp_size; vl *= 2) {
      if (ts * vl > 1024) continue;
      check_rowsum(67, 45, 5, ts, vl);
      if (ts == 16 || ts == 1) check_rowsum(300, 257, 9, ts, vl);
    }
  /* AUTO team size with explicit vector lengths up to the warp size */
  for (int vl = 1; vl <= d.warp_size; vl *= 2) check_rowsum(130, 77, 3, STRATA_AUTO, vl);
}

static void check_team_vector(int64_t league, int64_t w, int ts, int vl) {
  const int64_t n = league * w;
  core_team_vector_args_t a;
  a.w = w;
  a.out = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  a.count = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  T_OK(strata_mem_set_async(T_exec, a.count, 0, (size_t)n * sizeof(int64_t)));
  strata_team_policy_t p = strata_team_policy(league, ts, vl);
  T_OK(strata_parallel_for_team(T_exec, NULL, &p, &core_team_vector, &a));
  int64_t *out = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  int64_t *cnt = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(out, a.out, (size_t)n * sizeof(int64_t));
  t_to_host(cnt, a.count, (size_t)n * sizeof(int64_t));
  for (int64_t r = 0; r < league; ++r)
    for (int64_t j = 0; j < w; ++j)
      if (out[r * w + j] != r * 100000 + j || cnt[r * w + j] != 1)
        fail_msg("team vector range league %lld w %lld team %d vector %d: [%lld][%lld] = %lld, "
                 "visited %lld times",
                 (long long)league, (long long)w, ts, vl, (long long)r, (long long)j,
                 (long long)out[r * w + j], (long long)cnt[r * w + j]);
  t_dev_free(a.out);
  t_dev_free(a.count);
  free(out);
  free(cnt);
}

static void test_team_vector_range(void **state) {
  (void)state;
  const int64_t ws[] = {0, 1, 31, 100, 1025, 4099};
  for (size_t s = 0; s < sizeof ws / sizeof ws[0]; ++s) {
    check_team_vector(13, ws[s], STRATA_AUTO, STRATA_AUTO);
    check_team_vector(3, ws[s], 1, 1);
    if (exec_is_gpu()) {
      check_team_vector(7, ws[s], 3, 8);
      check_team_vector(5, ws[s], 32, 32);
      check_team_vector(4, ws[s], 5, STRATA_AUTO);
    }
  }
}

static void check_scratch(int64_t league, int64_t S, int64_t T, int ts, int vl) {
  strata_team_policy_t p = strata_team_policy(league, ts, vl), r;
  p.scratch_team = (size_t)S * sizeof(int64_t);
  p.scratch_thread = (size_t)T * sizeof(int64_t);
  /* the team size the launch uses (AUTO on GPUs: chosen for this kernel from occupancy) */
  T_OK(strata_team_policy_resolve_kernel(T_exec, &p, &core_scratch, &r));
  assert_true(r.team_size >= 1 && r.vector_length >= 1);
  core_scratch_args_t a;
  a.S = S;
  a.T = T;
  const size_t nt = (size_t)(league * S), nh = (size_t)(league * r.team_size * T);
  a.out_team = (int64_t *)t_dev_alloc(nt * sizeof(int64_t));
  a.out_thread = (int64_t *)t_dev_alloc(nh * sizeof(int64_t));
  T_OK(strata_parallel_for_team(T_exec, "scratch", &p, &core_scratch, &a));
  T_OK(strata_exec_fence(T_exec));
  int64_t *ot = (int64_t *)xmalloc(nt * sizeof(int64_t));
  int64_t *oh = (int64_t *)xmalloc(nh * sizeof(int64_t));
  t_to_host(ot, a.out_team, nt * sizeof(int64_t));
  t_to_host(oh, a.out_thread, nh * sizeof(int64_t));
  for (int64_t lr = 0; lr < league; ++lr) {
    for (int64_t j = 0; j < S; ++j) {
      const int64_t want = lr * 7919 + (S - 1 - j) * 31 + 1;
      if (ot[lr * S + j] != want)
        fail_msg("team scratch league %lld S %lld team %d vector %d: rank %lld [%lld] = %lld, "
                 "expected %lld",
                 (long long)league, (long long)S, r.team_size, r.vector_length, (long long)lr,
                 (long long)j, (long long)ot[lr * S + j], (long long)want);
    }
    for (int64_t tr = 0; tr < r.team_size; ++tr)
      for (int64_t j = 0; j < T; ++j) {
        const int64_t want = lr * 104729 + tr * 1009 + (T - 1 - j);
        const int64_t got = oh[(lr * r.team_size + tr) * T + j];
        if (got != want)
          fail_msg("thread scratch league %lld T %lld team %d vector %d: rank %lld thread %lld "
                   "[%lld] = %lld, expected %lld",
                   (long long)league, (long long)T, r.team_size, r.vector_length, (long long)lr,
                   (long long)tr, (long long)j, (long long)got, (long long)want);
      }
  }
  t_dev_free(a.out_team);
  t_dev_free(a.out_thread);
  free(ot);
  free(oh);
}

static void test_team_scratch(void **state) {
  (void)state;
  check_scratch(1, 1, 1, STRATA_AUTO, STRATA_AUTO);
  check_scratch(37, 1000, 37, STRATA_AUTO, STRATA_AUTO);
  check_scratch(64, 513, 0, 1, 1);
  check_scratch(9, 0, 5, STRATA_AUTO, STRATA_AUTO);
  if (exec_is_gpu()) {
    check_scratch(37, 1000, 37, 8, 4);
    check_scratch(20, 2049, 13, 32, 32);
    check_scratch(11, 77, 64, 3, 2);
  }
  /* team scratch exactly at the device's maximum is accepted and usable (opt-in on GPUs) */
  const strata_device_info_t d = exec_info();
  check_scratch(3, (int64_t)(d.max_scratch_bytes / sizeof(int64_t)), 0, 1, 1);
}

static void test_team_league_zero(void **state) {
  (void)state;
  double *y = (double *)t_dev_alloc(4 * sizeof(double));
  core_rowsum_args_t a;
  a.m = 4;
  a.k = 4;
  a.rows_per_team = 1;
  a.A = NULL; /* never read */
  a.x = NULL;
  a.y = y;
  a.yi = NULL;
  strata_team_policy_t p = strata_team_policy(0, STRATA_AUTO, STRATA_AUTO);
  T_OK(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a));
  p.scratch_team = 4096;
  p.scratch_thread = 64;
  T_OK(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a));
  T_OK(strata_exec_fence(T_exec));
  uint64_t h[4];
  t_to_host(h, y, sizeof h);
  for (int i = 0; i < 4; ++i) assert_true(h[i] == UINT64_MAX); /* still poisoned */
  /* an invalid policy is refused even with league_size 0 */
  p.vector_length = 3;
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  p = strata_team_policy(-1, STRATA_AUTO, STRATA_AUTO);
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  /* a negative team size: the message says what 0 means */
  p = strata_team_policy(1, -5, STRATA_AUTO);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY,
               "team_size -5", "0 = STRATA_AUTO");
  /* a backend id out of range: the message gives the range */
  strata_exec_t *e = NULL;
  t_expect_msg(strata_exec_default((strata_backend_t)7, &e), STRATA_ERR_INVALID_ARGUMENT, "backend 7", "0 .. 3");
  t_dev_free(y);
}

/* Host backends: one thread and one lane per team, by design; more is refused with the value and
 * the limit in the message. */
static void test_team_host_limits(void **state) {
  (void)state;
  if (exec_is_gpu()) skip();
  core_rowsum_args_t a;
  memset(&a, 0, sizeof a);
  strata_team_policy_t p = strata_team_policy(4, 2, 1);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "team_size 2", "limit 1");
  p = strata_team_policy(4, 1, 2);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "vector_length 2", "limit 1");
  p = strata_team_policy(4, 7, STRATA_AUTO);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "team_size 7", "limit 1");
  strata_team_policy_t r;
  p = strata_team_policy(4, STRATA_AUTO, STRATA_AUTO);
  T_OK(strata_team_policy_resolve(T_exec, &p, &r));
  assert_int_equal(r.team_size, 1);
  assert_int_equal(r.vector_length, 1);
  p = strata_team_policy(4, 1, 32);
  t_expect_msg(strata_team_policy_resolve(T_exec, &p, &r), STRATA_ERR_INVALID_POLICY,
             "vector_length 32", "limit 1");
}

/* E7 and the other limits: checked, never clamped silently. */
static void test_team_policy_limits(void **state) {
  (void)state;
  const strata_device_info_t d = exec_info();
  const int warp = strata_exec_is_host(T_exec) ? 1 : d.warp_size;
  char val[64], lim[64];
  core_rowsum_args_t a;
  memset(&a, 0, sizeof a);
  strata_team_policy_t p, r;
  /* E7: team of 16, vector_length 64 where the warp is 32 (or 1 on host) */
  if (warp < 64) {
    p = strata_team_policy(8, 16, 64);
    snprintf(lim, sizeof lim, "limit %d", warp);
    t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
               STRATA_ERR_INVALID_POLICY, "vector_length 64", lim);
    t_expect_msg(strata_team_policy_resolve(T_exec, &p, &r), STRATA_ERR_INVALID_POLICY,
               "vector_length 64", lim);
  }
  /* twice the warp size, whatever the warp */
  p = strata_team_policy(8, 1, 2 * warp);
  snprintf(val, sizeof val, "vector_length %d", 2 * warp);
  snprintf(lim, sizeof lim, "limit %d", warp);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, val, lim);
  /* not a power of two */
  p = strata_team_policy(8, 1, 3);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "vector_length 3", "power of two");
  p = strata_team_policy(8, 1, 12);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "vector_length 12", NULL);
  /* negative sizes */
  p = strata_team_policy(8, -2, 1);
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  p = strata_team_policy(8, 1, -4);
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  /* team_size x vector_length above the threads per team (1024 on GPUs) */
  if (!strata_exec_is_host(T_exec)) {
    const int vl = warp < 32 ? warp : 32;
    p = strata_team_policy(8, 2048 / vl, vl);
    snprintf(lim, sizeof lim, "limit %d", d.max_threads_per_team);
    t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
               STRATA_ERR_INVALID_POLICY, "2048", lim);
    p = strata_team_policy(8, 1025, 1);
    t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
               STRATA_ERR_INVALID_POLICY, "1025", lim);
    p = strata_team_policy(8, 1024 / vl, vl); /* exactly at the limit: accepted */
    T_OK(strata_team_policy_resolve(T_exec, &p, &r));
    assert_int_equal(r.team_size * r.vector_length, 1024);
  }
  /* scratch above the device maximum */
  snprintf(val, sizeof val, "%zu", d.max_scratch_bytes + 16);
  snprintf(lim, sizeof lim, "limit %zu", d.max_scratch_bytes);
  p = strata_team_policy(8, STRATA_AUTO, STRATA_AUTO);
  p.scratch_team = d.max_scratch_bytes + 16;
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, val, lim);
  p.scratch_team = d.max_scratch_bytes + 1; /* rounded up to 16 bytes: still above */
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  /* parts that sum exactly to the maximum, each rounded up to 16 bytes first (team max - 8 -> max,
   * thread 8 -> 16): refused, and the message says so and gives the rounded sizes (it gave only
   * the sizes asked for, whose sum is the limit) */
  p = strata_team_policy(8, 1, 1);
  p.scratch_team = d.max_scratch_bytes - 8;
  p.scratch_thread = 8;
  snprintf(val, sizeof val, "team %zu + 1 threads x 16 bytes", d.max_scratch_bytes);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a),
             STRATA_ERR_INVALID_POLICY, "rounded up to 16 bytes", val);
  t_expect_msg(strata_team_policy_resolve(T_exec, &p, &r), STRATA_ERR_INVALID_POLICY, val, lim);
  p = strata_team_policy(8, STRATA_AUTO, STRATA_AUTO);
  p.scratch_team = 0;
  p.scratch_thread = d.max_scratch_bytes + 16;
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  /* sizes that wrap around when rounded to 16 bytes or multiplied must not pass */
  p.scratch_team = SIZE_MAX - 3;
  p.scratch_thread = 0;
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  p.scratch_team = 0;
  p.scratch_thread = SIZE_MAX - 7;
  T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  T_ERR(strata_team_policy_resolve(T_exec, &p, &r), STRATA_ERR_INVALID_POLICY);
  /* on GPUs the per-thread scratch is multiplied by the team size */
  if (!strata_exec_is_host(T_exec)) {
    p = strata_team_policy(8, 64, 1);
    p.scratch_thread = d.max_scratch_bytes / 32;
    T_ERR(strata_parallel_for_team(T_exec, NULL, &p, &core_rowsum, &a), STRATA_ERR_INVALID_POLICY);
  }
}

/* A launcher that fails without setting a message (as a backend's might): the launch must still
 * report this failure, not the message an earlier error left on the thread. */
static strata_status_t silent_failure(const strata_launch_t *L, const void *args) {
  (void)L;
  (void)args;
  return STRATA_ERR_DEVICE;
}

static void test_launch_failure_message(void **state) {
  (void)state;
  strata_kernel_t k;
  memset(&k, 0, sizeof k);
  k.name = "silent_failure";
  k.pattern = STRATA_PATTERN_FOR;
  k.value_type = STRATA_TYPE_NONE;
  for (int b = 0; b < STRATA_NUM_BACKENDS; ++b) k.launch[b] = silent_failure;
  T_ERR(strata_error_set(STRATA_ERR_IO, "an earlier, unrelated error"), STRATA_ERR_IO);
  t_expect_msg(strata_parallel_for(T_exec, "silent", strata_range(0, 4), &k, NULL), STRATA_ERR_DEVICE,
               "launch 'silent'", "failed: STRATA_ERR_DEVICE");
  if (strstr(strata_error_message(), "earlier")) fail_msg("stale message kept: %s", strata_error_message());
  /* with no message before it too */
  strata_error_clear();
  t_expect_msg(strata_parallel_for(T_exec, "silent", strata_range(0, 4), &k, NULL), STRATA_ERR_DEVICE,
               "launch 'silent'", "failed");
}

/* ============================================================ atomics */

static void test_atomic_contention(void **state) {
  (void)state;
  const int64_t ns[] = {0, 1, 1000, (1 << 20) + 3};
  const int64_t slotss[] = {1, 7};
  for (size_t s = 0; s < sizeof ns / sizeof ns[0]; ++s)
    for (size_t q = 0; q < 2; ++q) {
      const int64_t n = ns[s], slots = slotss[q];
      core_atomic_args_t a;
      a.slots = slots;
      a.ci = (int64_t *)t_dev_alloc((size_t)slots * sizeof(int64_t));
      a.cf = (double *)t_dev_alloc((size_t)slots * sizeof(double));
      T_OK(strata_mem_set_async(T_exec, a.ci, 0, (size_t)slots * sizeof(int64_t)));
      T_OK(strata_mem_set_async(T_exec, a.cf, 0, (size_t)slots * sizeof(double)));
      T_OK(strata_parallel_for(T_exec, "atomics", strata_range(0, n), &core_atomic, &a));
      T_OK(strata_exec_fence(T_exec));
      int64_t ci[7];
      double cf[7];
      t_to_host(ci, a.ci, (size_t)slots * sizeof(int64_t));
      t_to_host(cf, a.cf, (size_t)slots * sizeof(double));
      int64_t ref[7] = {0, 0, 0, 0, 0, 0, 0};
      for (int64_t i = 0; i < n; ++i) ref[i % slots] += i % 5 + 1;
      for (int64_t k = 0; k < slots; ++k)
        if (ci[k] != ref[k] || cf[k] != (double)ref[k])
          fail_msg("atomics n=%lld slots=%lld: slot %lld i64 %lld f64 %.17g, expected %lld",
                   (long long)n, (long long)slots, (long long)k, (long long)ci[k], cf[k],
                   (long long)ref[k]);
      t_dev_free(a.ci);
      t_dev_free(a.cf);
    }
}

/* ============================================================ device-wide sort */

static void check_sort(int64_t n, int key_bits, int dup_mod) {
  int64_t *k = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  int64_t *v = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  int64_t *sk = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  int64_t *sv = (int64_t *)xmalloc((size_t)n * sizeof(int64_t));
  const uint64_t mask = key_bits >= 64 ? UINT64_MAX : ((uint64_t)1 << key_bits) - 1;
  for (int64_t i = 0; i < n; ++i) {
    k[i] = dup_mod ? (int64_t)(t_rand(&T_rng) % (uint64_t)dup_mod) : (int64_t)(t_rand(&T_rng) & mask);
    v[i] = i;
  }
  memcpy(sk, k, (size_t)n * sizeof(int64_t));
  memcpy(sv, v, (size_t)n * sizeof(int64_t));
  int64_t *dk = (int64_t *)t_to_dev(k, (size_t)n * sizeof(int64_t));
  int64_t *dv = (int64_t *)t_to_dev(v, (size_t)n * sizeof(int64_t));
  T_OK(strata_sort_pairs_i64(T_exec, n, key_bits, dk, dv));
  T_OK(strata_sort_pairs_i64(T_serial, n, key_bits, sk, sv));
  t_to_host(k, dk, (size_t)n * sizeof(int64_t));
  t_to_host(v, dv, (size_t)n * sizeof(int64_t));
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0 && (k[i - 1] > k[i] || (k[i - 1] == k[i] && v[i - 1] >= v[i])))
      fail_msg("sort n=%lld key_bits %d: pairs %lld/%lld: (%lld,%lld) then (%lld,%lld): %s (seed %llu)",
               (long long)n, key_bits, (long long)(i - 1), (long long)i, (long long)k[i - 1],
               (long long)v[i - 1], (long long)k[i], (long long)v[i],
               k[i - 1] > k[i] ? "keys out of order" : "not stable", (unsigned long long)T_seed);
    if (k[i] != sk[i] || v[i] != sv[i])
      fail_msg("sort n=%lld: [%lld] = (%lld,%lld), serial (%lld,%lld)", (long long)n, (long long)i,
               (long long)k[i], (long long)v[i], (long long)sk[i], (long long)sv[i]);
  }
  /* a permutation of 0..n-1 travelled with the keys (stable + sorted + serial-equal checks the
   * rest; here: no value lost or duplicated) */
  char *seen = (char *)calloc((size_t)n + 1, 1);
  assert_non_null(seen);
  for (int64_t i = 0; i < n; ++i) {
    assert_true(v[i] >= 0 && v[i] < n && !seen[v[i]]);
    seen[v[i]] = 1;
  }
  free(seen);
  t_dev_free(dk);
  t_dev_free(dv);
  free(k);
  free(v);
  free(sk);
  free(sv);
}

static void test_sort_pairs(void **state) {
  (void)state;
  const int64_t ns[] = {0, 1, 2, 4095, 4096, 100003};
  for (size_t s = 0; s < sizeof ns / sizeof ns[0]; ++s) {
    check_sort(ns[s], 5, 17);  /* many duplicates: stability */
    check_sort(ns[s], 63, 17); /* same keys, all bits */
    check_sort(ns[s], 40, 0);  /* wide random keys */
    check_sort(ns[s], 1, 2);
  }
  int64_t k = 0, v = 0;
  T_ERR(strata_sort_pairs_i64(T_exec, 1, 0, &k, &v), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_sort_pairs_i64(T_exec, 1, 64, &k, &v), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_sort_pairs_i64(T_exec, 1, -3, &k, &v), STRATA_ERR_INVALID_ARGUMENT);
  t_expect_msg(strata_sort_pairs_i64(T_exec, 0, 64, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT, "64",
             NULL);
  T_ERR(strata_sort_pairs_i64(T_exec, -1, 8, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_sort_pairs_i64(T_exec, 10, 8, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_sort_pairs_i64(T_exec, 0, 8, NULL, NULL));
}

/* ============================================================ memory and execution spaces */

/* Host memory (STRATA_MEM_HOST, and the host backends' device memory) is refused with
 * OUT_OF_MEMORY, naming the physical memory, when the live total would exceed it: one block
 * larger than the machine, and a second block of 0.6 x the machine beside a first (the first is
 * never touched, so it costs address space only; skipped where even that is refused). */
static void test_memory_physical_limit(void **state) {
  (void)state;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) skip();
  const size_t phys = (size_t)pages * (size_t)page;
  void *p = NULL;
  t_expect_msg(strata_mem_alloc(T_exec, STRATA_MEM_HOST, phys + 4096, &p), STRATA_ERR_OUT_OF_MEMORY, "physical memory",
               NULL);
  assert_null(p);
  void *a = NULL;
  if (strata_mem_alloc(T_exec, STRATA_MEM_HOST, phys / 10 * 6, &a) == STRATA_SUCCESS) {
    t_expect_msg(strata_mem_alloc(T_exec, STRATA_MEM_HOST, phys / 10 * 6, &p), STRATA_ERR_OUT_OF_MEMORY,
                 "already allocated", NULL);
    T_OK(strata_mem_free(T_exec, STRATA_MEM_HOST, &a));
  }
  /* freed blocks no longer count */
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_HOST, 1 << 20, &p));
  T_OK(strata_mem_free(T_exec, STRATA_MEM_HOST, &p));
}

static void test_memory(void **state) {
  (void)state;
  const strata_mem_space_t spaces[] = {STRATA_MEM_HOST, STRATA_MEM_HOST_PINNED, STRATA_MEM_DEVICE};
  for (int s = 0; s < 3; ++s) {
    void *p = (void *)&T_rng;
    T_OK(strata_mem_alloc(T_exec, spaces[s], 0, &p));
    assert_null(p);
    T_OK(strata_mem_free(T_exec, spaces[s], &p)); /* NULL-safe */
  }
  void *p = NULL;
  T_ERR(strata_mem_alloc(T_exec, (strata_mem_space_t)5, 16, &p), STRATA_ERR_INVALID_ARGUMENT);
  /* round trip host -> pinned -> device -> device -> host */
  const size_t n = 100003;
  int64_t *h = (int64_t *)xmalloc(n * sizeof(int64_t)), *back = (int64_t *)xmalloc(n * sizeof(int64_t));
  for (size_t i = 0; i < n; ++i) h[i] = (int64_t)t_rand(&T_rng);
  void *pin = NULL, *d1 = NULL, *d2 = NULL;
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_HOST_PINNED, n * sizeof(int64_t), &pin));
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, n * sizeof(int64_t), &d1));
  d2 = t_dev_alloc(n * sizeof(int64_t));
  assert_non_null(pin);
  assert_non_null(d1);
  T_OK(strata_mem_copy(T_exec, pin, h, n * sizeof(int64_t)));
  T_OK(strata_mem_copy(T_exec, d1, pin, n * sizeof(int64_t)));
  T_OK(strata_mem_copy_async(T_exec, d2, d1, n * sizeof(int64_t)));
  T_OK(strata_exec_fence(T_exec));
  memset(back, 0, n * sizeof(int64_t));
  T_OK(strata_mem_copy(T_exec, back, d2, n * sizeof(int64_t)));
  assert_memory_equal(back, h, n * sizeof(int64_t));
  /* partial set + copy of zero bytes is a no-op */
  T_OK(strata_mem_set_async(T_exec, d2, 0, 8 * sizeof(int64_t)));
  T_OK(strata_mem_copy(T_exec, NULL, NULL, 0));
  T_OK(strata_mem_copy(T_exec, back, d2, n * sizeof(int64_t)));
  for (size_t i = 0; i < n; ++i) assert_true(back[i] == (i < 8 ? 0 : h[i]));
  T_ERR(strata_mem_copy(T_exec, NULL, h, 8), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_mem_free(T_exec, STRATA_MEM_HOST_PINNED, &pin));
  /* a space outside 0..2: refused, naming it; nothing freed, the pointer kept */
  void *keep = d1;
  t_expect_msg(strata_mem_free(T_exec, (strata_mem_space_t)9, &d1), STRATA_ERR_INVALID_ARGUMENT, "9", "0..2");
  assert_ptr_equal(d1, keep);
  T_OK(strata_mem_free(T_exec, STRATA_MEM_DEVICE, &d1));
  assert_null(pin);
  assert_null(d1);
  t_dev_free(d2);
  free(h);
  free(back);
}

/* overlapping copies: host backends moved the bytes (memmove), GPUs hand them to cudaMemcpyAsync /
 * hipMemcpyAsync, whose result is undefined for overlapping ranges, so a copy that worked on the
 * host silently broke on a GPU (a newcomer review). Now refused on every backend, naming both
 * ranges; dst == src stays a no-op, adjacent ranges are fine. */
static void test_memory_overlap(void **state) {
  (void)state;
  const size_t n = 64;
  int64_t h[64], back[64];
  for (size_t i = 0; i < n; ++i) h[i] = (int64_t)i;
  char *d = (char *)t_to_dev(h, n * sizeof(int64_t));
  t_expect_msg(strata_mem_copy(T_exec, d + 8, d, 32 * sizeof(int64_t)), STRATA_ERR_INVALID_ARGUMENT,
               "overlap", "256 bytes");
  t_expect_msg(strata_mem_copy_async(T_exec, d, d + 8, 32 * sizeof(int64_t)), STRATA_ERR_INVALID_ARGUMENT,
               "overlap", "256 bytes");
  T_OK(strata_exec_fence(T_exec));
  t_to_host(back, d, n * sizeof(int64_t));
  assert_memory_equal(back, h, n * sizeof(int64_t)); /* refused: nothing copied */
  T_OK(strata_mem_copy(T_exec, d, d, n * sizeof(int64_t))); /* the same bytes: a no-op */
  T_OK(strata_mem_copy(T_exec, d + 32 * sizeof(int64_t), d, 32 * sizeof(int64_t))); /* adjacent */
  T_OK(strata_mem_copy_async(T_exec, d, d + 32 * sizeof(int64_t), 32 * sizeof(int64_t)));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(back, d, n * sizeof(int64_t));
  for (size_t i = 0; i < n; ++i) assert_true(back[i] == (int64_t)(i % 32));
  t_dev_free(d);
}

/* stream-ordered temporaries: rounds of alloc -> work -> free with no fence between them (each
 * round's memory may be the last round's, reused in stream order), on the default exec and on an
 * instance; each round's result checked; zero bytes, NULL arguments and an impossible size refused */
static void test_memory_async(void **state) {
  (void)state;
  void *p = (void *)&T_rng;
  T_OK(strata_mem_alloc_async(T_exec, 0, &p));
  assert_null(p);
  T_OK(strata_mem_free_async(T_exec, &p)); /* NULL-safe */
  T_OK(strata_mem_free_async(T_exec, NULL));
  T_ERR(strata_mem_alloc_async(NULL, 8, &p), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_mem_alloc_async(T_exec, 8, NULL), STRATA_ERR_INVALID_ARGUMENT);
  /* the host's malloc may overcommit: GPUs only; not under compute-sanitizer (scripts/gpu-check
   * sets STRATA_SANITIZER), which reports the failing cudaMallocAsync as an API error */
  if (!strata_exec_is_host(T_exec) && !getenv("STRATA_SANITIZER"))
    t_expect_msg(strata_mem_alloc_async(T_exec, (size_t)1 << 62, &p), STRATA_ERR_OUT_OF_MEMORY, "4611686018427387904", NULL);
  strata_exec_t *inst = NULL;
  T_OK(strata_exec_create(strata_exec_backend(T_exec), &inst));
  strata_exec_t *execs[2] = {T_exec, inst};
  const int64_t n = 70001;
  double *x = (double *)xmalloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) x[i] = (double)(i % 97);
  for (int k = 0; k < 2; ++k) {
    strata_exec_t *e = execs[k];
    double sums[6];
    for (int round = 0; round < 6; ++round) {
      double *dx = NULL, *dy = NULL;
      T_OK(strata_mem_alloc_async(e, (size_t)n * sizeof(double), (void **)&dx));
      T_OK(strata_mem_alloc_async(e, (size_t)n * sizeof(double), (void **)&dy));
      assert_non_null(dx);
      assert_true(dx != dy);
      T_OK(strata_mem_copy_async(e, dx, x, (size_t)n * sizeof(double)));
      T_OK(strata_mem_set_async(e, dy, 0, (size_t)n * sizeof(double)));
      core_axpy_args_t a = {(double)(round + 1), dx, dy};
      T_OK(strata_parallel_for(e, "axpy on async memory", strata_range(0, n), &core_axpy, &a));
      core_reduce_f64_args_t r;
      r.op = STRATA_REDUCE_SUM;
      r.x = dy;
      T_OK(strata_parallel_reduce(e, NULL, strata_range(0, n), &core_reduce_f64, &r, STRATA_REDUCE_SUM, &sums[round]));
      T_OK(strata_mem_free_async(e, (void **)&dx));
      T_OK(strata_mem_free_async(e, (void **)&dy));
      assert_null(dx);
      assert_null(dy);
    }
    double base = 0;
    for (int64_t i = 0; i < n; ++i) base += x[i];
    for (int round = 0; round < 6; ++round) assert_true(sums[round] == (double)(round + 1) * base);
  }
  T_OK(strata_exec_fence(inst));
  T_OK(strata_exec_destroy(&inst));
  free(x);
}

/* strata_exec_device_info: the instance's device as strata_backend_device_info describes it (the
 * default device of the build's options: device 0 here), for default spaces and new instances;
 * NULL refused, naming the argument */
static void test_exec_device_info(void **state) {
  (void)state;
  const strata_backend_t b = strata_exec_backend(T_exec);
  strata_exec_t *e = NULL;
  T_OK(strata_exec_create(b, &e));
  strata_device_info_t want, got;
  T_OK(strata_backend_device_info(b, 0, &want));
  for (int k = 0; k < 2; ++k) {
    memset(&got, 0xa5, sizeof got);
    T_OK(strata_exec_device_info(k ? e : T_exec, &got));
    assert_string_equal(got.name, want.name);
    assert_int_equal(got.multiprocessors, want.multiprocessors);
    assert_int_equal(got.warp_size, want.warp_size);
    assert_int_equal(got.max_threads_per_team, want.max_threads_per_team);
    assert_int_equal(got.max_scratch_bytes, want.max_scratch_bytes);
    assert_int_equal(got.memory_bytes, want.memory_bytes);
    assert_int_equal(got.compute_major, want.compute_major);
    assert_int_equal(got.compute_minor, want.compute_minor);
  }
  t_expect_msg(strata_exec_device_info(NULL, &got), STRATA_ERR_INVALID_ARGUMENT, "NULL exec", NULL);
  t_expect_msg(strata_exec_device_info(e, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL info", NULL);
  T_OK(strata_exec_destroy(&e));
}

static void test_exec_instances(void **state) {
  (void)state;
  const strata_backend_t b = strata_exec_backend(T_exec);
  strata_exec_t *e = NULL, *e2 = NULL;
  T_OK(strata_exec_create(b, &e));
  T_OK(strata_exec_create(b, &e2));
  assert_non_null(e);
  assert_true(e != T_exec && e != e2);
  assert_int_equal(strata_exec_backend(e), b);
  assert_int_equal(strata_exec_is_host(e), strata_exec_is_host(T_exec));
  const int64_t n = 50001;
  double *x = (double *)xmalloc((size_t)n * sizeof(double));
  double *y = (double *)xmalloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) {
    x[i] = (double)i;
    y[i] = 1.0;
  }
  /* memory from the instance, work ordered on it, fence */
  double *dx = NULL, *dy = NULL;
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&dx));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&dy));
  T_OK(strata_mem_copy_async(e, dx, x, (size_t)n * sizeof(double)));
  T_OK(strata_mem_copy_async(e, dy, y, (size_t)n * sizeof(double)));
  core_axpy_args_t a;
  a.alpha = 2.0;
  a.x = dx;
  a.y = dy;
  T_OK(strata_parallel_for(e, "axpy on an instance", strata_range(0, n), &core_axpy, &a));
  T_OK(strata_parallel_for(e, "axpy on an instance", strata_range(0, n), &core_axpy, &a));
  core_reduce_f64_args_t r;
  r.op = STRATA_REDUCE_SUM;
  r.x = dy;
  double sum = -1;
  T_OK(strata_parallel_reduce(e, NULL, strata_range(0, n), &core_reduce_f64, &r,
                              STRATA_REDUCE_SUM, &sum));
  /* y = 1 + 4 i: sum = n + 4 n(n-1)/2, exact in double */
  assert_true(sum == (double)n + 2.0 * (double)n * (double)(n - 1));
  int64_t tot = -1;
  int64_t *di = NULL;
  T_OK(strata_mem_alloc(e2, STRATA_MEM_DEVICE, 1000 * sizeof(int64_t), (void **)&di));
  T_OK(strata_mem_set_async(e2, di, 0, 1000 * sizeof(int64_t)));
  T_OK(strata_scan_exclusive_i64(e2, 1000, di, di, &tot));
  assert_int_equal(tot, 0);
  T_OK(strata_exec_fence(e));
  T_OK(strata_exec_fence(e2));
  T_OK(strata_mem_copy(e, y, dy, (size_t)n * sizeof(double)));
  for (int64_t i = 0; i < n; ++i) assert_true(y[i] == 1.0 + 4.0 * (double)i);
  T_OK(strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dx));
  T_OK(strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dy));
  T_OK(strata_mem_free(e2, STRATA_MEM_DEVICE, (void **)&di));
  T_OK(strata_fence_all());
  T_OK(strata_exec_destroy(&e));
  assert_null(e);
  T_OK(strata_exec_destroy(&e)); /* NULL-safe */
  T_OK(strata_exec_destroy(NULL));
  T_OK(strata_exec_destroy(&e2));
  /* the default spaces are the library's */
  strata_exec_t *def = T_exec;
  t_expect_msg(strata_exec_destroy(&def), STRATA_ERR_INVALID_ARGUMENT, strata_backend_name(b), NULL);
  assert_ptr_equal(def, T_exec);
  strata_exec_t *again = NULL;
  T_OK(strata_exec_default(b, &again));
  assert_ptr_equal(again, T_exec);
  free(x);
  free(y);
}

/* Views remember their backend's default execution space, which strata_view_create makes on
 * first use. Host threads that each create views on their own instance (runtime.h: an instance
 * per launching thread) made it concurrently: several threads saw no default, each made one, and
 * views on different threads named different "default" spaces, all but one never released (a
 * newcomer review: 21 of 200 rounds of 8 threads). Now one default per backend, made once.
 * Finalizes and re-initializes: T_exec and T_serial are fetched again afterwards. */
enum { RACE_THREADS = 8 };
static struct {
  pthread_barrier_t bar;
  strata_exec_t *inst[RACE_THREADS];
  strata_exec_t *seen[RACE_THREADS];
  strata_status_t st[RACE_THREADS];
} race;
static void *race_thread(void *p) {
  const int k = (int)(intptr_t)p;
  const int64_t ext = 4;
  strata_view_t *v = NULL;
  pthread_barrier_wait(&race.bar);
  race.st[k] = strata_view_create(race.inst[k], STRATA_MEM_DEVICE, "race", STRATA_TYPE_F64,
                                  STRATA_LAYOUT_DEFAULT, 1, &ext, &v);
  race.seen[k] = strata_view_exec(v);
  strata_view_release(&v);
  return NULL;
}
static void test_exec_default_threads(void **state) {
  (void)state;
  const strata_backend_t b = strata_exec_backend(T_exec);
  int split = 0;
  for (int round = 0; round < 200 && !split; ++round) {
    T_OK(strata_finalize());
    T_OK(strata_init(NULL));
    for (int k = 0; k < RACE_THREADS; ++k) T_OK(strata_exec_create(b, &race.inst[k]));
    pthread_t t[RACE_THREADS];
    assert_int_equal(pthread_barrier_init(&race.bar, NULL, RACE_THREADS), 0);
    for (int k = 0; k < RACE_THREADS; ++k)
      assert_int_equal(pthread_create(&t[k], NULL, race_thread, (void *)(intptr_t)k), 0);
    for (int k = 0; k < RACE_THREADS; ++k) pthread_join(t[k], NULL);
    pthread_barrier_destroy(&race.bar);
    strata_exec_t *def = NULL;
    T_OK(strata_exec_default(b, &def));
    for (int k = 0; k < RACE_THREADS; ++k) {
      T_OK(race.st[k]);
      if (race.seen[k] != def) split = round + 1;
      T_OK(strata_exec_destroy(&race.inst[k]));
    }
  }
  T_OK(strata_exec_default(b, &T_exec));
  T_OK(strata_exec_default(STRATA_BACKEND_SERIAL, &T_serial));
  if (split) fail_msg("round %d: views made on %d threads at once saw different default execution spaces", split, RACE_THREADS);
}

/* ============================================================ errors */

/* events: elapsed time between two records brackets the work between them, on every backend
 * (device events on GPUs, host clock after a fence on host backends); misuse refused */
static void test_events(void **state) {
  (void)state;
  strata_event_t *e0 = NULL, *e1 = NULL, *e2 = NULL;
  T_OK(strata_event_create(T_exec, &e0));
  T_OK(strata_event_create(T_exec, &e1));
  T_OK(strata_event_create(T_exec, &e2));
  double s = -1;
  T_ERR(strata_event_elapsed(e0, e1, &s), STRATA_ERR_INVALID_ARGUMENT); /* never recorded */
  const int64_t n = 1 << 20;
  double *dx = NULL, *dy = NULL;
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&dx));
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(double), (void **)&dy));
  T_OK(strata_mem_set_async(T_exec, dx, 0, (size_t)n * sizeof(double)));
  T_OK(strata_mem_set_async(T_exec, dy, 0, (size_t)n * sizeof(double)));
  core_axpy_args_t a;
  a.alpha = 2.0;
  a.x = dx;
  a.y = dy;
  T_OK(strata_event_record(T_exec, e0));
  T_OK(strata_event_record(T_exec, e1)); /* nothing in between */
  for (int r = 0; r < 20; ++r) T_OK(strata_parallel_for(T_exec, NULL, strata_range(0, n), &core_axpy, &a));
  T_OK(strata_event_record(T_exec, e2));
  double empty = -1, work = -1, all = -1;
  T_OK(strata_event_elapsed(e0, e1, &empty));
  T_OK(strata_event_elapsed(e1, e2, &work));
  T_OK(strata_event_elapsed(e0, e2, &all));
  assert_true(empty >= 0 && work > 0 && all >= work);
  assert_true(empty < work);
  if (!strata_exec_is_host(T_exec)) {
    assert_non_null(strata_exec_native_stream(T_exec));
  } else
    assert_null(strata_exec_native_stream(T_exec));
  /* an event of another backend is refused */
  if (strata_exec_backend(T_exec) != STRATA_BACKEND_SERIAL) {
    T_ERR(strata_event_record(T_serial, e0), STRATA_ERR_INVALID_ARGUMENT);
    strata_error_clear();
  }
  T_OK(strata_exec_fence(T_exec));
  t_dev_free(dx);
  t_dev_free(dy);
  strata_event_destroy(&e0);
  strata_event_destroy(&e1);
  strata_event_destroy(&e2);
  assert_null(e0);
  strata_event_destroy(&e0); /* NULL-safe */
}

/* strata_exec_wait_event: a kernel on instance B submitted after B waits on an event that instance
 * A recorded sees everything A did before the record (A: y = reps·x by reps slow axpy launches;
 * B: z = y; only B is fenced before z is read), on every backend; an event never recorded is
 * complete; misuse refused */
static void test_exec_wait_event(void **state) {
  (void)state;
  const strata_backend_t b = strata_exec_backend(T_exec);
  strata_exec_t *ea = NULL, *eb = NULL;
  strata_event_t *ev = NULL, *fresh = NULL;
  T_OK(strata_exec_create(b, &ea));
  T_OK(strata_exec_create(b, &eb));
  T_OK(strata_event_create(ea, &ev));
  T_OK(strata_event_create(ea, &fresh));
  const int64_t n = (int64_t)1 << 21;
  const int reps = 24;
  const size_t bytes = (size_t)n * sizeof(double);
  double *hx = (double *)xmalloc(bytes), *hz = (double *)xmalloc(bytes);
  for (int64_t i = 0; i < n; ++i) hx[i] = (double)(i % 1000);
  double *dx = NULL, *dy = NULL, *dz = NULL;
  T_OK(strata_mem_alloc(ea, STRATA_MEM_DEVICE, bytes, (void **)&dx));
  T_OK(strata_mem_alloc(ea, STRATA_MEM_DEVICE, bytes, (void **)&dy));
  T_OK(strata_mem_alloc(eb, STRATA_MEM_DEVICE, bytes, (void **)&dz));
  T_OK(strata_mem_copy(ea, dx, hx, bytes));
  T_OK(strata_mem_set_async(eb, dz, 0, bytes));
  T_OK(strata_exec_fence(eb));
  T_OK(strata_exec_wait_event(eb, fresh)); /* never recorded: nothing to wait for */
  for (int round = 0; round < 3; ++round) {
    T_OK(strata_mem_set_async(ea, dy, 0, bytes));
    core_axpy_args_t a = {1.0, dx, dy};
    for (int r = 0; r < reps; ++r) T_OK(strata_parallel_for(ea, "wait_event producer", strata_range(0, n), &core_axpy, &a));
    T_OK(strata_event_record(ea, ev));
    T_OK(strata_exec_wait_event(eb, ev));
    core_axpy_args_t c = {1.0, dy, dz}; /* z = 0 + y */
    T_OK(strata_mem_set_async(eb, dz, 0, bytes));
    T_OK(strata_parallel_for(eb, "wait_event consumer", strata_range(0, n), &core_axpy, &c));
    T_OK(strata_mem_copy(eb, hz, dz, bytes)); /* ordered on B only */
    for (int64_t i = 0; i < n; ++i)
      if (hz[i] != (double)reps * hx[i])
        fail_msg("round %d: z[%lld] = %g after waiting on the event, want %g (A's work not seen)", round, (long long)i, hz[i],
                 (double)reps * hx[i]);
    T_OK(strata_exec_fence(ea)); /* before A's next round rewrites y */
  }
  t_expect_msg(strata_exec_wait_event(NULL, ev), STRATA_ERR_INVALID_ARGUMENT, "NULL execution space", NULL);
  t_expect_msg(strata_exec_wait_event(eb, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL event", NULL);
  if (b != STRATA_BACKEND_SERIAL)
    t_expect_msg(strata_exec_wait_event(T_serial, ev), STRATA_ERR_INVALID_ARGUMENT, strata_backend_name(b), "serial");
  T_OK(strata_mem_free(ea, STRATA_MEM_DEVICE, (void **)&dx));
  T_OK(strata_mem_free(ea, STRATA_MEM_DEVICE, (void **)&dy));
  T_OK(strata_mem_free(eb, STRATA_MEM_DEVICE, (void **)&dz));
  strata_event_destroy(&ev);
  strata_event_destroy(&fresh);
  T_OK(strata_exec_destroy(&ea));
  T_OK(strata_exec_destroy(&eb));
  free(hx);
  free(hz);
}

static void test_wrong_pattern(void **state) {
  (void)state;
  core_axpy_args_t a;
  memset(&a, 0, sizeof a);
  double res = 0;
  t_expect_msg(strata_parallel_reduce(T_exec, "mislabelled", strata_range(0, 10), &core_axpy, &a,
                                    STRATA_REDUCE_SUM, &res),
             STRATA_ERR_INVALID_ARGUMENT, "core_axpy", NULL);
  int64_t tot;
  t_expect_msg(strata_parallel_scan(T_exec, NULL, strata_range(0, 10), &core_axpy, &a, &tot),
             STRATA_ERR_INVALID_ARGUMENT, "core_axpy", NULL);
  core_rowsum_args_t ra;
  memset(&ra, 0, sizeof ra);
  t_expect_msg(strata_parallel_for(T_exec, NULL, strata_range(0, 10), &core_rowsum, &ra),
             STRATA_ERR_INVALID_ARGUMENT, "core_rowsum", NULL);
  strata_team_policy_t p = strata_team_policy(4, STRATA_AUTO, STRATA_AUTO);
  t_expect_msg(strata_parallel_for_team(T_exec, NULL, &p, &core_reduce_i64, &ra),
             STRATA_ERR_INVALID_ARGUMENT, "core_reduce_i64", NULL);
  /* NULL kernel, NULL args, NULL exec, NULL result */
  T_ERR(strata_parallel_for(T_exec, NULL, strata_range(0, 1), NULL, &a), STRATA_ERR_INVALID_ARGUMENT);
  t_expect_msg(strata_parallel_for(T_exec, NULL, strata_range(0, 1), &core_axpy, NULL),
             STRATA_ERR_INVALID_ARGUMENT, "core_axpy", NULL);
  T_ERR(strata_parallel_for(NULL, NULL, strata_range(0, 1), &core_axpy, &a), STRATA_ERR_INVALID_ARGUMENT);
  core_reduce_i64_args_t ri;
  ri.op = STRATA_REDUCE_SUM;
  ri.x = NULL;
  T_ERR(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &core_reduce_i64, &ri,
                               STRATA_REDUCE_SUM, NULL),
        STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_parallel_for_team(T_exec, NULL, NULL, &core_rowsum, &ra), STRATA_ERR_INVALID_ARGUMENT);
}

static void test_status_names(void **state) {
  (void)state;
  int count = 0;
#define CHECK_STATUS(name, value, text)                                          \
  assert_int_equal((int)STRATA_##name, value);                                   \
  assert_string_equal(strata_status_name(STRATA_##name), "STRATA_" #name);       \
  assert_string_equal(strata_status_string(STRATA_##name), text);                \
  assert_true(value == 0 || strncmp(strata_status_name(STRATA_##name), "STRATA_ERR_", 11) == 0); \
  ++count;
  STRATA_STATUS_LIST(CHECK_STATUS)
#undef CHECK_STATUS
  assert_true(count >= 13);
  assert_string_equal(strata_status_name((strata_status_t)1), "STRATA_UNKNOWN");
  assert_string_equal(strata_status_name((strata_status_t)-1000), "STRATA_UNKNOWN");
  assert_non_null(strata_status_string((strata_status_t)42));
  assert_true(strata_status_string((strata_status_t)42)[0] != '\0');
  /* the message: set by a failure, never NULL, cleared on request */
  T_ERR(strata_sort_pairs_i64(T_exec, -5, 8, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "-5"));
  strata_error_clear();
  assert_non_null(strata_error_message());
  assert_string_equal(strata_error_message(), "");
}

/* strata_init refuses host_threads above STRATA_MAX_HOST_THREADS (a huge count made libgomp exit
 * inside the first launch) and a default backend this build did not compile (it was accepted and
 * failed at the first exec); the exec accessors take NULL. Finalizes and re-initializes: T_exec
 * and T_serial are fetched again afterwards. (A newcomer review.) */
static void test_init_options(void **state) {
  (void)state;
  const strata_backend_t b = strata_exec_backend(T_exec);
  assert_int_equal(strata_exec_backend(NULL), STRATA_BACKEND_DEFAULT);
  assert_int_equal(strata_exec_is_host(NULL), 0);
  assert_int_equal(strata_exec_concurrency(NULL), 0);
  T_OK(strata_finalize());
  strata_init_options_t o = strata_init_options_default();
  o.host_threads = STRATA_MAX_HOST_THREADS + 1;
  t_expect_msg(strata_init(&o), STRATA_ERR_INVALID_ARGUMENT, "host_threads 4097", "4096");
  assert_int_equal(strata_is_initialized(), 0);
  o.host_threads = 0;
  int missing = -1;
  for (int k = 0; k < STRATA_NUM_BACKENDS; ++k)
    if (!strata_backend_compiled((strata_backend_t)k)) missing = k;
  if (missing >= 0) {
    o.default_backend = (strata_backend_t)missing;
    t_expect_msg(strata_init(&o), STRATA_ERR_BACKEND_UNAVAILABLE, strata_backend_name((strata_backend_t)missing),
                 "not compiled");
    assert_int_equal(strata_is_initialized(), 0);
  } else {
    printf("[ strata   ] every backend compiled: the refusal of a missing default backend not checked\n");
  }
  /* a second call with other options is refused, naming both (a review: it returned success and
   * kept the first call's, even for host_threads -7); NULL or the same options succeed */
  o = strata_init_options_default();
  o.host_threads = 1;
  T_OK(strata_init(&o));
  T_OK(strata_init(&o));
  T_OK(strata_init(NULL));
  o.host_threads = 3;
  t_expect_msg(strata_init(&o), STRATA_ERR_INVALID_ARGUMENT,
               "already initialized with device_id 0, host_threads 1, default_backend default",
               "called again with device_id 0, host_threads 3, default_backend default");
  o.host_threads = -7;
  t_expect_msg(strata_init(&o), STRATA_ERR_INVALID_ARGUMENT, "host_threads -7", "strata_finalize first");
  if (strata_backend_compiled(STRATA_BACKEND_OPENMP)) { /* the first call's host_threads hold */
    strata_exec_t *one = NULL;
    T_OK(strata_exec_create(STRATA_BACKEND_OPENMP, &one));
    assert_int_equal(strata_exec_concurrency(one), 1);
    T_OK(strata_exec_destroy(&one));
  }
  T_OK(strata_finalize());
  /* STRATA_PROFILE is 1, 0 or empty (a review: "banana", "false" or "no" turned profiling on);
   * profiling mode ends with strata_finalize (a second review: strata_profile_enabled stayed 1) */
  const char *prof = getenv("STRATA_PROFILE");
  char *saved = prof ? strdup(prof) : NULL;
  setenv("STRATA_PROFILE", "1", 1);
  T_OK(strata_init(NULL));
  assert_int_equal(strata_profile_enabled(), 1);
  T_OK(strata_finalize());
  assert_int_equal(strata_profile_enabled(), 0);
  setenv("STRATA_PROFILE", "false", 1);
  t_expect_msg(strata_init(NULL), STRATA_ERR_INVALID_ARGUMENT, "STRATA_PROFILE='false' is not 1", NULL);
  assert_int_equal(strata_is_initialized(), 0);
  assert_int_equal(strata_profile_enabled(), 0);
  if (saved) setenv("STRATA_PROFILE", saved, 1);
  else unsetenv("STRATA_PROFILE");
  free(saved);
  T_OK(strata_init(NULL));
  T_OK(strata_exec_default(b, &T_exec));
  T_OK(strata_exec_default(STRATA_BACKEND_SERIAL, &T_serial));
}

/* OpenMP's f64 sum is the same whatever number of threads OpenMP grants: the range is cut into
 * the exec's host_threads chunks (strata_kl_omp_chunk), each summed with four accumulators (index
 * mod 4, joined (q0 + q1) + (q2 + q3)), the chunks joined in order; replayed here on the host and
 * compared bit for bit. ctest runs this binary also with OMP_NUM_THREADS=3 OMP_THREAD_LIMIT=1 (a
 * review: with OMP_THREAD_LIMIT or OMP_DYNAMIC the chunks followed the threads granted, and the
 * sum changed with them). Other backends: nothing to replay. */
static void test_reduce_chunks_f64(void **state) {
  (void)state;
  if (strata_exec_backend(T_exec) != STRATA_BACKEND_OPENMP) {
    printf("[ strata   ] backend %s: the OpenMP chunking is not replayed\n", strata_backend_name(strata_exec_backend(T_exec)));
    return;
  }
  const int nt = strata_exec_concurrency(T_exec);
  const int64_t n = 100003;
  double *x = (double *)xmalloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) x[i] = 1.0 / (double)(i + 1) * (i % 3 ? 1.0 : -1.7);
  double want = 0.0;
  for (int c = 0; c < nt; ++c) {
    const int64_t q = n / nt, r = n % nt, cb = q * c + (c < r ? c : r), ce = cb + q + (c < r ? 1 : 0);
    double acc[4] = {0, 0, 0, 0};
    int64_t i = cb;
    for (; ce - i > 3; i += 4)
      for (int k = 0; k < 4; ++k) acc[k] += x[i + k];
    for (; i < ce; ++i) acc[0] += x[i];
    want = c == 0 ? (acc[0] + acc[1]) + (acc[2] + acc[3]) : want + ((acc[0] + acc[1]) + (acc[2] + acc[3]));
  }
  core_reduce_f64_args_t a = {STRATA_REDUCE_SUM, (const double *)t_to_dev(x, (size_t)n * sizeof(double))};
  double got = 0.0;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &core_reduce_f64, &a, STRATA_REDUCE_SUM, &got));
  if (memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%d chunks: sum %.17g, the chunked replay %.17g", nt, got, want);
  t_dev_free((void *)a.x);
  free(x);
}

/* A floating-point scan's total is its last inclusive value, bit for bit (a review: OpenMP returned
 * the sum of its threads' chunk sums, another association: -0.10156963085970705 against the last
 * element's -0.10156963085970457 with 3 threads; the GPUs the block sums' scan total). Sizes that
 * give the host threads and the GPU blocks uneven chunks. */
static void test_scan_total_f64(void **state) {
  (void)state;
  const int64_t sizes[] = {1, 7, 1000, 100001, 1 << 20};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    const int64_t n = sizes[s];
    double *in = (double *)xmalloc((size_t)n * sizeof(double)), *got = (double *)xmalloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; ++i) in[i] = 1.0 / (double)(i + 1) * (i % 3 ? 1.0 : -1.7);
    core_scan_f64_args_t a = {(const double *)t_to_dev(in, (size_t)n * sizeof(double)),
                              (double *)t_dev_alloc((size_t)n * sizeof(double))};
    double total = -777.0;
    T_OK(strata_parallel_scan(T_exec, NULL, strata_range(0, n), &core_scan_incl_f64, &a, &total));
    t_to_host(got, a.out, (size_t)n * sizeof(double));
    if (memcmp(&total, &got[n - 1], sizeof total) != 0)
      fail_msg("n = %lld: total %.17g, last inclusive value %.17g", (long long)n, total, got[n - 1]);
    t_dev_free((void *)a.in);
    t_dev_free(a.out);
    free(in);
    free(got);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_for_range, t_setup),
      cmocka_unit_test_setup(test_for_invalid_range, t_setup),
      cmocka_unit_test_setup(test_ranges_at_int64_limits, t_setup),
      cmocka_unit_test_setup(test_reduce, t_setup),
      cmocka_unit_test_setup(test_reduce_empty_identity, t_setup),
      cmocka_unit_test_setup(test_reduce_signed_zero, t_setup),
      cmocka_unit_test_setup(test_reduce_async, t_setup),
      cmocka_unit_test_setup(test_scan_exclusive_i64, t_setup),
      cmocka_unit_test_setup(test_scan_user_kernels, t_setup),
      cmocka_unit_test_setup(test_scan_total_f64, t_setup),
      cmocka_unit_test_setup(test_reduce_chunks_f64, t_setup),
      cmocka_unit_test_setup(test_team_rowsum_auto, t_setup),
      cmocka_unit_test_setup(test_team_rowsum_explicit, t_setup),
      cmocka_unit_test_setup(test_team_vector_range, t_setup),
      cmocka_unit_test_setup(test_team_scratch, t_setup),
      cmocka_unit_test_setup(test_team_league_zero, t_setup),
      cmocka_unit_test_setup(test_team_host_limits, t_setup),
      cmocka_unit_test_setup(test_team_policy_limits, t_setup),
      cmocka_unit_test_setup(test_launch_failure_message, t_setup),
      cmocka_unit_test_setup(test_atomic_contention, t_setup),
      cmocka_unit_test_setup(test_sort_pairs, t_setup),
      cmocka_unit_test_setup(test_memory, t_setup),
      cmocka_unit_test_setup(test_memory_physical_limit, t_setup),
      cmocka_unit_test_setup(test_memory_overlap, t_setup),
      cmocka_unit_test_setup(test_memory_async, t_setup),
      cmocka_unit_test_setup(test_exec_device_info, t_setup),
      cmocka_unit_test_setup(test_exec_instances, t_setup),
      cmocka_unit_test_setup(test_exec_default_threads, t_setup),
      cmocka_unit_test_setup(test_events, t_setup),
      cmocka_unit_test_setup(test_exec_wait_event, t_setup),
      cmocka_unit_test_setup(test_wrong_pattern, t_setup),
      cmocka_unit_test_setup(test_status_names, t_setup),
      cmocka_unit_test_setup(test_init_options, t_setup), /* last: finalizes and re-initializes */
  };
  return T_RUN("core", tests);
}
