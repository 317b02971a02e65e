/* strata tests — MINLOC / MAXLOC range reductions (issue 3) on the backend under test: every loc
 * type (i32loc, i64loc, f32loc, f64loc), data with many ties (values mod 5), the identity values
 * themselves as data, NaNs, sizes 0, 1, 7, 1000, 2^20+3 and ranges that do not start at 0. Each
 * result (value and index, exactly) equals a host reference and the serial backend's; refused
 * op / type combinations name both; the loc types' sizes and names, and views refuse them. */
#include "test_common.h"

#include "reduce_loc_kernels.h"

STRATA_KERNEL_DECLARE(rl_i32loc);
STRATA_KERNEL_DECLARE(rl_i64loc);
STRATA_KERNEL_DECLARE(rl_f32loc);
STRATA_KERNEL_DECLARE(rl_f64_argmin);
STRATA_KERNEL_DECLARE(rl_f64_argmax);
STRATA_KERNEL_DECLARE(rl_f64_min);

static const int64_t k_sizes[] = {0, 1, 7, 1000, (1 << 20) + 3};

/* data sets: 0 values mod 5 (ties everywhere), 1 the op's identity value everywhere, 2 NaN at
 * every other index (floating point; others mod 5), 3 all NaN (floating point), 4 a unique best
 * value at the last index, the rest mod 5 */
enum { RL_MOD5, RL_IDENTITY, RL_HALF_NAN, RL_ALL_NAN, RL_LAST, RL_NSETS };

static const char *op_str(strata_reduce_op_t op) { return op == STRATA_REDUCE_MINLOC ? "MINLOC" : "MAXLOC"; }

/* Per type: fill, host reference (the documented rule: better value, then the smaller index;
 * NaNs never win; identity (val, INT64_MAX)), run on T_exec and on the serial backend, compare.
 * IS_FP: whether the type has NaN / inf. */
#define RL_DEFINE(s, T, IS_FP, MAXV, LOWV, KMIN, KMAX)                                          \
  static int fill_##s(T *x, int64_t n, int set, strata_reduce_op_t op) {                        \
    const T best = op == STRATA_REDUCE_MINLOC ? (T)(LOWV) : (T)(MAXV);                          \
    const T ident = op == STRATA_REDUCE_MINLOC ? (T)(MAXV) : (T)(LOWV);                         \
    if ((set == RL_HALF_NAN || set == RL_ALL_NAN) && !(IS_FP)) return 0;                        \
    for (int64_t i = 0; i < n; ++i) {                                                           \
      const T m = (T)((int)(t_rand(&T_rng) % 5) - 2);                                           \
      switch (set) {                                                                            \
        case RL_IDENTITY: x[i] = ident; break;                                                  \
        case RL_HALF_NAN: x[i] = (i % 2 == 0) ? (T)NAN : m; break;                              \
        case RL_ALL_NAN: x[i] = (T)NAN; break;                                                  \
        case RL_LAST: x[i] = i == n - 1 ? best : m; break;                                      \
        default: x[i] = m; break;                                                               \
      }                                                                                         \
    }                                                                                           \
    return 1;                                                                                   \
  }                                                                                             \
  static strata_##s##loc_t ref_##s(const T *x, int64_t b, int64_t e, strata_reduce_op_t op) {   \
    strata_##s##loc_t r;                                                                        \
    r.val = op == STRATA_REDUCE_MINLOC ? (T)(MAXV) : (T)(LOWV);                                 \
    r.loc = INT64_MAX;                                                                          \
    for (int64_t i = b; i < e; ++i) {                                                           \
      const int better = op == STRATA_REDUCE_MINLOC ? x[i] < r.val : x[i] > r.val;              \
      if (better || (x[i] == r.val && i < r.loc)) {                                             \
        r.val = x[i];                                                                           \
        r.loc = i;                                                                              \
      }                                                                                         \
    }                                                                                           \
    return r;                                                                                   \
  }                                                                                             \
  static strata_##s##loc_t run_##s(strata_exec_t *e, const T *x, int64_t b, int64_t end,        \
                                   strata_reduce_op_t op) {                                     \
    rl_##s##_args_t a;                                                                          \
    a.op = (int)op;                                                                             \
    a.x = x;                                                                                    \
    strata_##s##loc_t r;                                                                        \
    memset(&r, 0x5A, sizeof r);                                                                 \
    const strata_kernel_t *k = KMIN;                                                            \
    if (op == STRATA_REDUCE_MAXLOC) k = KMAX;                                                   \
    T_OK(strata_parallel_reduce(e, #s "loc", strata_range(b, end), k, &a, op, &r));             \
    return r;                                                                                   \
  }                                                                                             \
  static void check_##s(void) {                                                                 \
    const strata_reduce_op_t ops[] = {STRATA_REDUCE_MINLOC, STRATA_REDUCE_MAXLOC};              \
    int checked = 0;                                                                            \
    for (size_t si = 0; si < sizeof k_sizes / sizeof k_sizes[0]; ++si) {                        \
      const int64_t n = k_sizes[si];                                                            \
      T *x = (T *)t_malloc((size_t)n * sizeof(T));                                              \
      for (int o = 0; o < 2; ++o)                                                               \
        for (int set = 0; set < RL_NSETS; ++set) {                                              \
          if (!fill_##s(x, n, set, ops[o])) continue;                                           \
          T *dx = (T *)t_to_dev(x, (size_t)n * sizeof(T));                                      \
          const int64_t begins[] = {0, n / 3};                                                  \
          for (int bi = 0; bi < (n >= 7 ? 2 : 1); ++bi) {                                       \
            const int64_t b = begins[bi];                                                       \
            /* x[i] for the launch index i: the device pointer as is */                         \
            const strata_##s##loc_t want = ref_##s(x, b, n, ops[o]);                            \
            const strata_##s##loc_t got = run_##s(T_exec, dx, b, n, ops[o]);                    \
            const strata_##s##loc_t ser = run_##s(T_serial, x, b, n, ops[o]);                   \
            const int same_val = (got.val == want.val) || (got.val != got.val && want.val != want.val); \
            if (!same_val || got.loc != want.loc || ser.val != want.val || ser.loc != want.loc) \
              fail_msg(#s "loc %s n %lld begin %lld set %d: got (%.17g, %lld), serial (%.17g, "  \
                       "%lld), reference (%.17g, %lld) (seed %llu)",                            \
                       op_str(ops[o]), (long long)n, (long long)b, set, (double)got.val,        \
                       (long long)got.loc, (double)ser.val, (long long)ser.loc,                 \
                       (double)want.val, (long long)want.loc, (unsigned long long)T_seed);      \
            /* the documented empty / no-winner result */                                       \
            if (b == n || set == RL_ALL_NAN ||                                                  \
                (set == RL_HALF_NAN && n - b == 1 && b % 2 == 0)) { /* only NaNs, or none */     \
              assert_true(got.loc == INT64_MAX);                                                \
              assert_true(got.val == (ops[o] == STRATA_REDUCE_MINLOC ? (T)(MAXV) : (T)(LOWV))); \
            } else {                                                                            \
              assert_true(got.loc >= b && got.loc < n);                                         \
              if (set == RL_IDENTITY || set == RL_MOD5) assert_true(got.loc < b + 64);          \
              if (set == RL_LAST) assert_true(got.loc == n - 1);                                \
            }                                                                                   \
            ++checked;                                                                          \
          }                                                                                     \
          t_dev_free(dx);                                                                       \
        }                                                                                       \
      free(x);                                                                                  \
    }                                                                                           \
    assert_true(checked >= 2 * 9 * ((IS_FP) ? 5 : 3) - 2 * ((IS_FP) ? 5 : 3));                  \
  }

RL_DEFINE(i32, int32_t, 0, INT32_MAX, INT32_MIN, &rl_i32loc, &rl_i32loc)
RL_DEFINE(i64, int64_t, 0, INT64_MAX, INT64_MIN, &rl_i64loc, &rl_i64loc)
RL_DEFINE(f32, float, 1, INFINITY, -INFINITY, &rl_f32loc, &rl_f32loc)
RL_DEFINE(f64, double, 1, INFINITY, -INFINITY, &rl_f64_argmin, &rl_f64_argmax)

static void test_minloc_maxloc_i32(void **state) { (void)state; check_i32(); }
static void test_minloc_maxloc_i64(void **state) { (void)state; check_i64(); }
static void test_minloc_maxloc_f32(void **state) { (void)state; check_f32(); }
static void test_minloc_maxloc_f64(void **state) { (void)state; check_f64(); }

/* a hand-made case: ties of the best value at 3 places, the middle one first in no chunk order */
static void test_ties_smallest_index(void **state) {
  (void)state;
  const int64_t n = 100003;
  double *x = (double *)t_malloc((size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) x[i] = (double)(i % 97);
  x[70001] = -1.0;
  x[99999] = -1.0;
  x[50000] = -1.0;
  x[20] = 500.0;
  x[n - 1] = 500.0;
  double *dx = (double *)t_to_dev(x, (size_t)n * sizeof(double));
  rl_f64_args_t a;
  a.op = STRATA_REDUCE_MINLOC;
  a.x = dx;
  strata_f64loc_t r;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &rl_f64_argmin, &a,
                              STRATA_REDUCE_MINLOC, &r));
  assert_true(r.val == -1.0);
  assert_int_equal(r.loc, 50000);
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(50001, n), &rl_f64_argmin, &a,
                              STRATA_REDUCE_MINLOC, &r));
  assert_int_equal(r.loc, 70001);
  a.op = STRATA_REDUCE_MAXLOC;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &rl_f64_argmax, &a,
                              STRATA_REDUCE_MAXLOC, &r));
  assert_true(r.val == 500.0);
  assert_int_equal(r.loc, 20);
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(21, n), &rl_f64_argmax, &a,
                              STRATA_REDUCE_MAXLOC, &r));
  assert_int_equal(r.loc, n - 1);
  t_dev_free(dx);
  free(x);
}

/* SUM / MIN / MAX on a loc kernel and MINLOC / MAXLOC on a scalar kernel are refused, naming the
 * op and the kernel's type; unknown ops too */
static void test_wrong_combinations(void **state) {
  (void)state;
  rl_f64_args_t a;
  a.op = 0;
  a.x = NULL;
  strata_f64loc_t rl;
  double rs = 0;
  t_expect_msg(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_argmin, &a,
                                      STRATA_REDUCE_MIN, &rl),
               STRATA_ERR_INVALID_ARGUMENT, "MIN", "f64loc");
  t_expect_msg(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_argmax, &a,
                                      STRATA_REDUCE_SUM, &rl),
               STRATA_ERR_INVALID_ARGUMENT, "SUM", "f64loc");
  t_expect_msg(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_min, &a,
                                      STRATA_REDUCE_MINLOC, &rs),
               STRATA_ERR_INVALID_ARGUMENT, "MINLOC", "rl_f64_min");
  assert_non_null(strstr(strata_error_message(), "f64"));
  t_expect_msg(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_min, &a,
                                      STRATA_REDUCE_MAXLOC, &rs),
               STRATA_ERR_INVALID_ARGUMENT, "MAXLOC", "f64");
  t_expect_msg(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_argmin, &a,
                                      (strata_reduce_op_t)5, &rl),
               STRATA_ERR_INVALID_ARGUMENT, "op 5", NULL);
  /* the accepted combinations still run (empty range: the identity) */
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_min, &a,
                              STRATA_REDUCE_MIN, &rs));
  assert_true(isinf(rs) && rs > 0);
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, 0), &rl_f64_argmax, &a,
                              STRATA_REDUCE_MAXLOC, &rl));
  assert_true(isinf(rl.val) && rl.val < 0);
  assert_true(rl.loc == INT64_MAX);
}

/* the loc types: struct sizes, names, kernel tables; not view element types */
static void test_loc_types(void **state) {
  (void)state;
  assert_int_equal(strata_type_size(STRATA_TYPE_I32LOC), sizeof(strata_i32loc_t));
  assert_int_equal(strata_type_size(STRATA_TYPE_I64LOC), sizeof(strata_i64loc_t));
  assert_int_equal(strata_type_size(STRATA_TYPE_F32LOC), sizeof(strata_f32loc_t));
  assert_int_equal(strata_type_size(STRATA_TYPE_F64LOC), 16);
  assert_string_equal(strata_type_name(STRATA_TYPE_I32LOC), "i32loc");
  assert_string_equal(strata_type_name(STRATA_TYPE_F64LOC), "f64loc");
  assert_int_equal(strata_type_size(STRATA_TYPE_U8), 1); /* U8 kept its value and size */
  assert_int_equal((int)STRATA_TYPE_U8, 5);
  assert_true(strata_type_is_loc(STRATA_TYPE_F32LOC) && !strata_type_is_loc(STRATA_TYPE_F32) &&
              !strata_type_is_loc(STRATA_TYPE_U8) && !strata_type_is_loc(STRATA_TYPE_NONE));
  assert_int_equal(rl_i32loc.value_type, STRATA_TYPE_I32LOC);
  assert_int_equal(rl_f64_argmin.value_type, STRATA_TYPE_F64LOC);
  assert_int_equal(rl_f64_min.value_type, STRATA_TYPE_F64);
  const int64_t ext[1] = {4};
  strata_view_t *v = NULL;
  t_expect_msg(strata_view_create(T_exec, STRATA_MEM_DEVICE, "locview", STRATA_TYPE_F64LOC,
                                  STRATA_LAYOUT_DEFAULT, 1, ext, &v),
               STRATA_ERR_INVALID_ARGUMENT, "locview", NULL);
  assert_null(v);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_minloc_maxloc_i32, t_setup),
      cmocka_unit_test_setup(test_minloc_maxloc_i64, t_setup),
      cmocka_unit_test_setup(test_minloc_maxloc_f32, t_setup),
      cmocka_unit_test_setup(test_minloc_maxloc_f64, t_setup),
      cmocka_unit_test_setup(test_ties_smallest_index, t_setup),
      cmocka_unit_test_setup(test_wrong_combinations, t_setup),
      cmocka_unit_test_setup(test_loc_types, t_setup),
  };
  return T_RUN("reduce_loc", tests);
}
