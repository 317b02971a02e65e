/* strata — SpMV by row-length class (strata/spmv.h) on the backend under test: generated
 * structures that put rows at every class boundary ±1, a row of 10^6 entries, power-law rows,
 * all rows in one class, runs of empty rows and empty rows at the end; every forced algorithm
 * equals auto to rounding; y reproducible bitwise; DESIGN §4 alpha/beta semantics. */
#include "strata/sparse.h"
#include "test_common.h"

typedef struct host_coo {
  int32_t m, n;
  int64_t nnz, cap;
  int32_t *r, *c;
  double *v;
} host_coo_t;

static void coo_push(host_coo_t *h, int32_t r, int32_t c, double v) {
  if (h->nnz == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 1024;
    h->r = (int32_t *)realloc(h->r, (size_t)h->cap * sizeof(int32_t));
    h->c = (int32_t *)realloc(h->c, (size_t)h->cap * sizeof(int32_t));
    h->v = (double *)realloc(h->v, (size_t)h->cap * sizeof(double));
  }
  h->r[h->nnz] = r;
  h->c[h->nnz] = c;
  h->v[h->nnz++] = v;
}

/* a row of `len` distinct random columns (len <= n) */
static void add_row(host_coo_t *h, int32_t r, int64_t len, uint64_t *s) {
  int64_t start = h->n > 0 ? (int64_t)(t_rand(s) % (uint64_t)h->n) : 0;
  for (int64_t k = 0; k < len; ++k)
    coo_push(h, r, (int32_t)((start + k * 7919) % h->n), t_uniform(s) - 0.5);
}

static void coo_free(host_coo_t *h) {
  free(h->r);
  free(h->c);
  free(h->v);
  memset(h, 0, sizeof *h);
}

static strata_crs_matrix_t *to_crs(const host_coo_t *h) {
  int32_t *dr = (int32_t *)t_to_dev(h->r, (size_t)h->nnz * sizeof(int32_t));
  int32_t *dc = (int32_t *)t_to_dev(h->c, (size_t)h->nnz * sizeof(int32_t));
  double *dv = (double *)t_to_dev(h->v, (size_t)h->nnz * sizeof(double));
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_coo(T_exec, h->m, h->n, h->nnz, dr, dc, dv, &A));
  t_dev_free(dr);
  t_dev_free(dc);
  t_dev_free(dv);
  return A;
}

/* reference y = alpha A x + beta y0 in long double, and the row scale sum |a x| for tolerances */
static void reference(const host_coo_t *h, double alpha, const double *x, double beta, const double *y0,
                      double *yref, double *scale) {
  long double *acc = (long double *)calloc((size_t)h->m + 1, sizeof(long double));
  for (int32_t i = 0; i < h->m; ++i) scale[i] = 0;
  for (int64_t k = 0; k < h->nnz; ++k) {
    acc[h->r[k]] += (long double)h->v[k] * x[h->c[k]];
    scale[h->r[k]] += fabs(h->v[k] * x[h->c[k]]);
  }
  for (int32_t i = 0; i < h->m; ++i) {
    yref[i] = (double)(alpha * acc[i] + (beta == 0 ? 0.0L : (long double)beta * y0[i]));
    scale[i] = fabs(alpha) * scale[i] + (beta == 0 ? 0 : fabs(beta * y0[i]));
  }
  free(acc);
}

static const char *level_name(strata_spmv_level_t l) {
  return l == STRATA_SPMV_LEVEL_ONE     ? "one"
         : l == STRATA_SPMV_LEVEL_TWO   ? "two"
         : l == STRATA_SPMV_LEVEL_THREE ? "three"
         : l == STRATA_SPMV_LEVEL_SPLIT ? "split"
                                        : "stream";
}

/* Runs every algorithm (and the given options) on h and checks against the reference. */
static void check_all(const host_coo_t *h, const strata_spmv_options_t *base, int expect_levels) {
  strata_crs_matrix_t *A = to_crs(h);
  uint64_t s = T_seed ^ (uint64_t)h->nnz;
  double *x = (double *)malloc(((size_t)h->n + 1) * sizeof(double));
  double *y0 = (double *)malloc(((size_t)h->m + 1) * sizeof(double));
  double *yref = (double *)malloc(((size_t)h->m + 1) * sizeof(double));
  double *scale = (double *)malloc(((size_t)h->m + 1) * sizeof(double));
  double *yh = (double *)malloc(((size_t)h->m + 1) * sizeof(double));
  double *yfirst = (double *)malloc(((size_t)h->m + 1) * sizeof(double));
  for (int32_t j = 0; j < h->n; ++j) x[j] = 1.0 + (double)(t_rand(&s) % 1000) / 256.0;
  for (int32_t i = 0; i < h->m; ++i) y0[i] = t_uniform(&s);
  double *dx = (double *)t_to_dev(x, (size_t)h->n * sizeof(double));
  double *dy = (double *)t_dev_alloc(((size_t)h->m + 1) * sizeof(double));
  const double ab[3][2] = {{1.0, 0.0}, {-0.75, 2.5}, {0.0, 0.5}};
  for (int alg = STRATA_SPMV_AUTO; alg <= STRATA_SPMV_STREAM; ++alg) {
    strata_spmv_options_t o = *base;
    o.algorithm = (strata_spmv_algorithm_t)alg;
    strata_spmv_plan_t *plan = NULL;
    T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
    int nc = 0, levels = 0;
    strata_spmv_class_t cls[STRATA_SPMV_MAX_CLASSES];
    T_OK(strata_spmv_plan_classes(plan, &nc, cls));
    int64_t rows = 0, ents = 0;
    for (int c = 0; c < nc; ++c) {
      rows += cls[c].num_rows;
      ents += cls[c].num_entries;
      if (cls[c].num_rows) levels |= 1 << cls[c].level;
      else assert_int_equal(cls[c].num_entries, 0);
    }
    assert_int_equal(rows, h->m);
    assert_int_equal(ents, h->nnz);
    if (alg == STRATA_SPMV_AUTO && expect_levels) {
      if ((levels & expect_levels) != expect_levels) {
        for (int c = 0; c < nc; ++c)
          print_message("  class %d: %s vl %d team %d len %lld..%lld rows %lld\n", c, level_name(cls[c].level),
                        cls[c].vector_length, cls[c].team_size, (long long)cls[c].min_len,
                        (long long)cls[c].max_len, (long long)cls[c].num_rows);
        fail_msg("levels used 0x%x, expected at least 0x%x", levels, expect_levels);
      }
    }
    for (int t = 0; t < 3; ++t) {
      const double alpha = ab[t][0], beta = ab[t][1];
      /* beta == 0: y must not be read, so poison it with NaN */
      if (beta == 0.0)
        T_OK(strata_mem_set_async(T_exec, dy, 0xFF, (size_t)h->m * sizeof(double)));
      else
        T_OK(strata_mem_copy(T_exec, dy, y0, (size_t)h->m * sizeof(double)));
      T_OK(strata_spmv_plan_apply(T_exec, plan, alpha, A, dx, beta, dy));
      T_OK(strata_exec_fence(T_exec));
      t_to_host(yh, dy, (size_t)h->m * sizeof(double));
      reference(h, alpha, x, beta, y0, yref, scale);
      for (int32_t i = 0; i < h->m; ++i) {
        const double tol = 1e-13 * (scale[i] + 1e-300);
        if (!(fabs(yh[i] - yref[i]) <= tol))
          fail_msg("algorithm %d, alpha %g beta %g: y[%d] = %.17g, reference %.17g (seed %llu)", alg, alpha, beta,
                   i, yh[i], yref[i], (unsigned long long)T_seed);
      }
      if (t == 0) {
        if (alg == STRATA_SPMV_AUTO) {
          memcpy(yfirst, yh, (size_t)h->m * sizeof(double));
          /* reproducible: the same plan applied again gives the same bits */
          T_OK(strata_spmv_plan_apply(T_exec, plan, alpha, A, dx, beta, dy));
          T_OK(strata_exec_fence(T_exec));
          t_to_host(yh, dy, (size_t)h->m * sizeof(double));
          assert_memory_equal(yh, yfirst, (size_t)h->m * sizeof(double));
        }
      }
    }
    T_OK(strata_spmv_plan_destroy(&plan));
    assert_null(plan);
  }
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  free(y0);
  free(yref);
  free(scale);
  free(yh);
  free(yfirst);
  strata_crs_destroy(&A);
}

#define L_ONE (1 << STRATA_SPMV_LEVEL_ONE)
#define L_TWO (1 << STRATA_SPMV_LEVEL_TWO)
#define L_THREE (1 << STRATA_SPMV_LEVEL_THREE)
#define L_SPLIT (1 << STRATA_SPMV_LEVEL_SPLIT)
#define L_STREAM (1 << STRATA_SPMV_LEVEL_STREAM)
/* auto's levels for short and medium rows: the stream level on GPUs, one- and two-level on host */
#define L_SHORT (strata_exec_is_host(T_exec) ? L_ONE : L_STREAM)
#define L_MEDIUM (strata_exec_is_host(T_exec) ? L_TWO : L_STREAM)

/* rows at every default class boundary +-1 of this backend (128: the GPU stream level's rows
 * reduced by the whole team begin above it), plus runs of empty rows */
static void test_class_boundaries(void **state) {
  (void)state;
  strata_device_info_t info;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &info));
  const int gpu = !strata_exec_is_host(T_exec);
  const int64_t b[] = {gpu ? 8 : 32, 16, 32, 64, 128, gpu ? 256 : 8192, gpu ? 512 : 16384, gpu ? 1024 : 65536, gpu ? 32768 : 4096};
  host_coo_t h = {0};
  h.n = 70000;
  uint64_t s = T_seed;
  int32_t r = 0;
  for (size_t k = 0; k < sizeof b / sizeof b[0]; ++k)
    for (int64_t d = -1; d <= 1; ++d) {
      add_row(&h, r++, b[k] + d, &s);
      r += 3; /* a run of empty rows */
    }
  for (int i = 0; i < 500; ++i) add_row(&h, r++, 1 + (int64_t)(t_rand(&s) % 40), &s);
  h.m = r + 5; /* empty rows at the end */
  strata_spmv_options_t o = {0};
  check_all(&h, &o, L_SHORT | L_MEDIUM | L_THREE | L_SPLIT);
  coo_free(&h);
}

/* one row of 10^6 entries among short rows */
static void test_huge_row(void **state) {
  (void)state;
  host_coo_t h = {0};
  h.n = 1000003;
  h.m = 3000;
  uint64_t s = T_seed + 1;
  for (int32_t r = 0; r < h.m; ++r) add_row(&h, r, r == 1234 ? 1000000 : (int64_t)(t_rand(&s) % 9), &s);
  strata_spmv_options_t o = {0};
  check_all(&h, &o, L_SHORT | L_SPLIT);
  coo_free(&h);
}

/* rows of 8 beside three of 70000 (the dense-row matrix of the benchmarks, small): one-level and
 * split rows only, which GPUs run in one launch (strata_spmv_fused_one) */
static void test_dense_rows(void **state) {
  (void)state;
  host_coo_t h = {0};
  h.n = 70003;
  h.m = 20000;
  uint64_t s = T_seed + 3;
  for (int32_t r = 0; r < h.m; ++r) add_row(&h, r, r % 6000 == 17 ? 70000 : r % 97 == 5 ? 0 : 8, &s);
  strata_spmv_options_t o = {0};
  check_all(&h, &o, L_ONE | L_SPLIT);
  coo_free(&h);
}

/* power-law row lengths (exponent about 2.1) */
static void test_power_law(void **state) {
  (void)state;
  host_coo_t h = {0};
  h.n = 50000;
  h.m = 20000;
  uint64_t s = T_seed + 2;
  for (int32_t r = 0; r < h.m; ++r) {
    double u = t_uniform(&s);
    int64_t len = (int64_t)pow(1.0 - u, -1.0 / 1.1); /* P(len > k) ~ k^-1.1 */
    if (len > 40000) len = 40000;
    add_row(&h, r, len, &s);
  }
  strata_spmv_options_t o = {0};
  check_all(&h, &o, L_SHORT | L_MEDIUM);
  coo_free(&h);
}

/* all rows in one class, and small thresholds that put a small matrix in every level */
static void test_one_class_and_small_thresholds(void **state) {
  (void)state;
  host_coo_t h = {0};
  h.n = 300;
  h.m = 257;
  uint64_t s = T_seed + 3;
  for (int32_t r = 0; r < h.m; ++r) add_row(&h, r, 5, &s);
  strata_spmv_options_t o = {0};
  check_all(&h, &o, L_ONE); /* every row short: one-level on every backend */
  coo_free(&h);
  h.n = 300;
  h.m = 400;
  for (int32_t r = 0; r < h.m; ++r) add_row(&h, r, (int64_t)(t_rand(&s) % 120), &s);
  o.one_level_max = 2;
  o.two_level_max = 9;
  o.three_level_max = 33;
  o.split_chunk = 7;
  o.stream_max = 40; /* forced stream: rows up to 40 there (below its team-reduced length, 128) */
  o.stream_block = 64;
  check_all(&h, &o, L_ONE | L_TWO | L_THREE | L_SPLIT);
  coo_free(&h);
}

/* The stream level takes a row longer than stream_max when it ends inside its window (staged
 * whole: STRATA_SPMV_IN_WINDOW), reduced by its thread's lanes or, above 128 entries, by the whole
 * team; other longer rows are the three-level class's and not staged. Rows of every length up to
 * twice the window, so that long rows both end inside and cross windows, and the stream class's
 * row count against the rule counted here. */
static void test_stream_windows(void **state) {
  (void)state;
  const int64_t cfg[2][2] = {{40, 64}, {100, 400}}; /* stream_max, stream_block */
  for (int t = 0; t < 2; ++t) {
    host_coo_t h = {0};
    h.n = 1000;
    h.m = 3000;
    uint64_t s = T_seed + 40 + (uint64_t)t;
    int64_t *len = (int64_t *)malloc((size_t)h.m * sizeof(int64_t));
    for (int32_t r = 0; r < h.m; ++r) {
      len[r] = t_rand(&s) % 4 == 0 ? (int64_t)(t_rand(&s) % (uint64_t)(2 * cfg[t][1])) : (int64_t)(t_rand(&s) % 6);
      add_row(&h, r, len[r], &s);
    }
    int64_t expect = 0, expect_entries = 0, off = 0, inside = 0;
    for (int32_t r = 0; r < h.m; ++r) {
      const int64_t block = cfg[t][1], e = off + len[r];
      const int in = (e + r + 1) / block == (off + r) / block;
      expect += len[r] <= cfg[t][0] || in;
      expect_entries += len[r] <= cfg[t][0] || in ? len[r] : 0;
      inside += len[r] > cfg[t][0] && in;
      off = e;
    }
    assert_true(inside > 20); /* the case is exercised */
    strata_spmv_options_t o = {0};
    o.algorithm = STRATA_SPMV_STREAM;
    o.stream_max = cfg[t][0];
    o.stream_block = cfg[t][1];
    strata_crs_matrix_t *A = to_crs(&h);
    strata_spmv_plan_t *plan = NULL;
    T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
    int nc = 0;
    strata_spmv_class_t cls[STRATA_SPMV_MAX_CLASSES];
    T_OK(strata_spmv_plan_classes(plan, &nc, cls));
    assert_int_equal(nc, 2);
    assert_int_equal(cls[0].level, STRATA_SPMV_LEVEL_STREAM);
    assert_int_equal(cls[0].num_rows, expect);
    assert_int_equal(cls[1].num_rows, h.m - expect);
    assert_int_equal(cls[0].num_entries, expect_entries);
    assert_int_equal(cls[1].num_entries, h.nnz - expect_entries);
    strata_spmv_plan_destroy(&plan);
    strata_crs_destroy(&A);
    o.algorithm = STRATA_SPMV_AUTO;
    check_all(&h, &o, 0); /* every algorithm (STREAM among them) against the reference */
    free(len);
    coo_free(&h);
  }
}

/* The stream level's lanes per row (GPUs; spmv.h): rows of 27 entries take nextpow2(27 / 4) = 8
 * lanes by the mean alone, and 2 by default when no row is longer than stream_max (128 threads
 * cover a window's 2048 / 28 = 73 rows, 64 would not); entries_per_lane set, or a row longer
 * than stream_max, keeps the mean's 8. Host backends: one lane (no stream level by default). Every
 * plan's SpMV against the reference (check_all). */
/* the class table of the plan of h with options o (its number of classes) */
static int plan_classes(const host_coo_t *h, const strata_spmv_options_t *o, strata_spmv_class_t *cls) {
  strata_crs_matrix_t *A = to_crs(h);
  strata_spmv_plan_t *plan = NULL;
  T_OK(strata_spmv_plan_create(T_exec, A, o, &plan));
  int nc = 0;
  T_OK(strata_spmv_plan_classes(plan, &nc, cls));
  strata_spmv_plan_destroy(&plan);
  strata_crs_destroy(&A);
  return nc;
}

/* the stream class's lanes per row (0: none), and whether it is padded */
static int stream_class(const host_coo_t *h, const strata_spmv_options_t *o, int *padded) {
  strata_spmv_class_t cls[STRATA_SPMV_MAX_CLASSES];
  const int nc = plan_classes(h, o, cls);
  int vl = 0;
  for (int c = 0; c < nc; ++c)
    if (cls[c].level == STRATA_SPMV_LEVEL_STREAM) {
      vl = cls[c].vector_length;
      if (padded) *padded = cls[c].padded;
    }
  return vl;
}

/* 20000 rows of 27 consecutive entries (20027 columns) */
static void rows_of_27(host_coo_t *h, uint64_t *s) {
  h->m = 20000;
  h->n = h->m + 27;
  for (int32_t r = 0; r < h->m; ++r)
    for (int32_t k = 0; k < 27; ++k) coo_push(h, r, r + k, t_uniform(s) - 0.5);
}

static int64_t fused_chunk(int64_t nnz);
static void expect_fused(const host_coo_t *h, const strata_spmv_options_t *o, int lanes, int64_t smax, int64_t tmax,
                         int64_t three_rows);

static void test_stream_lanes(void **state) {
  (void)state;
  const int gpu = !strata_exec_is_host(T_exec);
  host_coo_t h = {0};
  uint64_t s = T_seed + 7;
  rows_of_27(&h, &s);
  strata_spmv_options_t o = {0};
  o.algorithm = gpu ? STRATA_SPMV_AUTO : STRATA_SPMV_STREAM;
  assert_int_equal(stream_class(&h, &o, NULL), gpu ? 2 : 1);
  check_all(&h, &o, 0);
  o.entries_per_lane = 4; /* the default, but set: no cap */
  assert_int_equal(stream_class(&h, &o, NULL), gpu ? 8 : 1);
  check_all(&h, &o, 0);
  o.entries_per_lane = 0;
  /* one row of 1000 entries beside them (above stream_max 512 and longer than a window, so it
   * cannot end inside one; the mean stays below 28) */
  for (int32_t k = 0; k < 1000; ++k) coo_push(&h, h.m, k, t_uniform(&s) - 0.5);
  h.m += 1;
  assert_int_equal(stream_class(&h, &o, NULL), gpu ? 8 : 1);
  check_all(&h, &o, 0);
  if (gpu) /* the one-launch defaults (spmv.h): stream up to 128 in teams of 128 threads, the long
               rows in the same shape, three-level up to C (541,000 entries: 4096 unless the device
               has at most 6 multiprocessors) */
    expect_fused(&h, &o, 8, 128, fused_chunk(h.nnz), 1);
  coo_free(&h);
}

/* The one launch's chunk C on this device (spmv.h: 1.5 nnz / (multiprocessors x 16) rounded down to
 * a multiple of 4096, within [4096, 65536]) */
static int64_t fused_chunk(int64_t nnz) {
  strata_device_info_t info;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &info));
  int64_t c = nnz / 2 * 3 / ((int64_t)info.multiprocessors * 16) / 4096 * 4096;
  return c < 4096 ? 4096 : c > 65536 ? 65536 : c;
}

/* GPU auto with rows above stream_max (the one launch): every class in teams of 128 threads of
 * `lanes` lanes, stream up to smax, three-level smax + 1 .. tmax holding `three_rows` rows, split
 * above tmax */
static void expect_fused(const host_coo_t *h, const strata_spmv_options_t *o, int lanes, int64_t smax, int64_t tmax,
                         int64_t three_rows) {
  strata_spmv_class_t cls[STRATA_SPMV_MAX_CLASSES];
  const int nc = plan_classes(h, o, cls);
  int seen = 0;
  for (int c = 0; c < nc; ++c) {
    assert_int_equal(cls[c].team_size * cls[c].vector_length, 128);
    assert_int_equal(cls[c].vector_length, lanes);
    if (cls[c].level == STRATA_SPMV_LEVEL_STREAM) assert_int_equal(cls[c].max_len, smax), seen |= 1;
    if (cls[c].level == STRATA_SPMV_LEVEL_THREE) {
      assert_int_equal(cls[c].min_len, smax + 1);
      assert_int_equal(cls[c].max_len, tmax);
      assert_int_equal(cls[c].num_rows, three_rows);
      seen |= 2;
    }
    if (cls[c].level == STRATA_SPMV_LEVEL_SPLIT) assert_int_equal(cls[c].min_len, tmax + 1), seen |= 4;
  }
  assert_int_equal(seen, 7);
}

/* The one launch's defaults beside options given (spmv.h): split_chunk replaces the chunk only, a
 * stream_max given moves the three-level limit to the next multiple of 4096 above it when C is
 * not above it, three_level_max replaces that limit only; each against the reference (a review:
 * split_chunk 100 had become the three-level limit too, below stream_max: refused) */
static void test_fused_options(void **state) {
  (void)state;
  host_coo_t h = {0};
  uint64_t s = T_seed + 8;
  rows_of_27(&h, &s);
  for (int32_t k = 0; k < 1000; ++k) coo_push(&h, h.m, k, t_uniform(&s) - 0.5); /* longer than a window */
  for (int32_t k = 0; k < 9000; ++k) coo_push(&h, h.m + 1, 2 * k, t_uniform(&s) - 0.5);
  h.m += 2;
  const int gpu = !strata_exec_is_host(T_exec);
  const int64_t C = fused_chunk(h.nnz);
  strata_spmv_options_t o = {0};
  o.split_chunk = 100;
  if (gpu) expect_fused(&h, &o, 8, 128, C, C >= 9000 ? 2 : 1);
  check_all(&h, &o, 0);
  o.split_chunk = 0;
  o.stream_max = 5000; /* the row of 9000 is above it: the one launch */
  if (gpu) expect_fused(&h, &o, 8, 5000, C > 5000 ? C : 8192, 0);
  check_all(&h, &o, 0);
  o.stream_max = 0;
  o.three_level_max = 2000; /* below the host's two-level limit (8192): GPUs only */
  if (gpu) {
    expect_fused(&h, &o, 8, 128, 2000, 1);
    check_all(&h, &o, 0);
  }
  coo_free(&h);
}

/* The largest stream_max whose unpadded team scratch fits this backend's teams beside a
 * stream_block of 2048 (spmv.h: 8 (block + max) bytes of products and 4 ((block + max) / 129 + 2)
 * of a row list) */
static int64_t stream_max_limit(void) {
  strata_device_info_t info;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &info));
  int64_t max = (int64_t)(info.max_scratch_bytes / sizeof(double)) - 2048;
  while (8 * (2048 + max) + 4 * ((2048 + max) / 129 + 2) > (int64_t)info.max_scratch_bytes) --max;
  return max;
}

/* rows of the lengths len[r % nlen] (consecutive columns from r) */
static void rows_of(host_coo_t *h, int32_t m, const int64_t *len, int nlen, uint64_t *s) {
  memset(h, 0, sizeof *h);
  h->m = m;
  int64_t longest = 0;
  for (int i = 0; i < nlen; ++i) longest = len[i] > longest ? len[i] : longest;
  h->n = m + (int32_t)longest;
  for (int32_t r = 0; r < m; ++r)
    for (int64_t k = 0; k < len[r % nlen]; ++k) coo_push(h, r, r + (int32_t)k, t_uniform(s) - 0.5);
}

/* The stream kernel's padded scratch (spmv.h, strata_spmv_class_t.padded, options.stream_pad),
 * with the stream level forced. By default (stream_pad 0) hosts never pad, and GPUs pad when
 * the lanes are 1 or 2 and at least half of the nonempty rows up to 128 entries have lengths that
 * are multiples of 4 x lanes: the lanes below are the cap's (spmv.h), worked out by hand for warps
 * of 32 and 64 alike: rows of 16, 27 and 20: 2 lanes; 8, 12, 6, 10 and the mixes: 1; 32: 4 (never
 * padded by default). Never beside a row of 5000 entries (the fused launch), nor when the padded
 * scratch would not fit. stream_pad 1 pads on every backend (so the hosts' tests run the padded
 * kernel): rows of 128 beside rows of 129..300 reduced by the whole team, and windows of 1024
 * whose last row runs up to 300 past them (stream_max 300: 1324 products, 1407 doubles padded,
 * then the team's row list). Every case's SpMV, all algorithms, against the reference. */
static void test_stream_padded(void **state) {
  (void)state;
  const int gpu = !strata_exec_is_host(T_exec);
  strata_spmv_options_t o = {0};
  o.algorithm = STRATA_SPMV_STREAM;
  uint64_t s = T_seed + 11;
  const struct {
    int64_t len[5];
    int nlen, padded; /* padded: by default on a GPU */
  } c[] = {
      {{16}, 1, 1},          {{8}, 1, 1},          {{12}, 1, 1},          {{6}, 1, 0},
      {{10}, 1, 0},          {{27}, 1, 0},         {{20}, 1, 0},          {{32}, 1, 0},
      {{16, 13}, 2, 1},      {{16, 13, 13, 16, 13}, 5, 0},                {{0, 16}, 2, 1},
      {{0, 0, 0, 16, 16}, 5, 1},                   {{13, 0, 13, 0, 0}, 5, 0},
      {{0}, 1, 0},
  };
  for (size_t t = 0; t < sizeof c / sizeof c[0]; ++t) {
    host_coo_t h;
    rows_of(&h, 6000, c[t].len, c[t].nlen, &s);
    for (int force = -1; force <= 1; ++force) {
      o.stream_pad = force;
      int padded = -1;
      assert_true(stream_class(&h, &o, &padded) >= 1);
      const int expect = force < 0 ? 0 : force > 0 ? 1 : gpu && c[t].padded;
      if (padded != expect)
        fail_msg("case %zu (first length %lld), stream_pad %d: padded %d, expected %d", t, (long long)c[t].len[0],
                 force, padded, expect);
    }
    o.stream_pad = 0;
    check_all(&h, &o, 0);
    o.stream_pad = 1;
    check_all(&h, &o, 0);
    if (t == 0) {
      for (int32_t k = 0; k < 5000; ++k) coo_push(&h, h.m, k, t_uniform(&s) - 0.5);
      h.m += 1;
      h.n = h.n > 5000 ? h.n : 5000;
      int padded = -1;
      assert_true(stream_class(&h, &o, &padded) >= 1);
      assert_int_equal(padded, 0);
      check_all(&h, &o, 0);
      o.stream_pad = 0;
    }
    coo_free(&h);
  }
  host_coo_t h = {0};
  h.m = 4000;
  h.n = h.m + 300;
  for (int32_t r = 0; r < h.m; ++r) {
    const int64_t len = r % 5 < 3 ? 128 : 129 + (int64_t)(t_rand(&s) % 172);
    for (int64_t k = 0; k < len; ++k) coo_push(&h, r, r + (int32_t)k, t_uniform(&s) - 0.5);
  }
  o.stream_pad = 1;
  for (int w = 0; w < 2; ++w) {
    o.stream_max = w ? 300 : 0;
    o.stream_block = w ? 1024 : 0;
    int padded = -1;
    assert_true(stream_class(&h, &o, &padded) >= 1);
    assert_int_equal(padded, 1);
    check_all(&h, &o, 0);
  }
  coo_free(&h);
  /* the padded scratch not fitting, the unpadded one exactly at the limit: unpadded, and right */
  o.stream_max = stream_max_limit();
  o.stream_block = 2048;
  const int64_t sixteen = 16;
  rows_of(&h, 3000, &sixteen, 1, &s);
  int padded = -1;
  assert_true(stream_class(&h, &o, &padded) >= 1);
  assert_int_equal(padded, 0);
  o.three_level_max = o.stream_max + 1; /* GPU auto: thresholds must increase */
  check_all(&h, &o, 0);
  coo_free(&h);
  o.three_level_max = 0;
  o.stream_pad = 2; /* refused, naming the value */
  strata_crs_matrix_t *A = NULL;
  rows_of(&h, 10, &sixteen, 1, &s);
  A = to_crs(&h);
  strata_spmv_plan_t *plan = NULL;
  T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "stream_pad 2"));
  assert_null(plan);
  strata_crs_destroy(&A);
  coo_free(&h);
}

/* zero sizes, nnz = 0, and the E1-E3 semantics through the plan */
static void test_edges(void **state) {
  (void)state;
  host_coo_t h = {0};
  strata_spmv_options_t o = {0};
  for (int m = 0; m <= 3; m += 3)
    for (int n = 0; n <= 2; n += 2) {
      h.m = m;
      h.n = n;
      if (m && n) {
        coo_push(&h, 0, 0, 1.0);
        coo_push(&h, 0, 1, 2.0); /* E3: rows 1 and 2 empty at the end */
      }
      check_all(&h, &o, 0);
      coo_free(&h);
    }
  /* bad arguments */
  strata_spmv_plan_t *plan = NULL;
  T_ERR(strata_spmv_plan_create(T_exec, NULL, NULL, &plan), STRATA_ERR_INVALID_ARGUMENT);
  h.m = 4;
  h.n = 4;
  coo_push(&h, 1, 1, 1.0);
  strata_crs_matrix_t *A = to_crs(&h), *B = NULL;
  o.one_level_max = -1;
  T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "negative"));
  o.one_level_max = 50;
  o.two_level_max = 10;
  T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "increase"));
  /* lengths near INT64_MAX (sums of thresholds would overflow) are refused, naming the limit */
  memset(&o, 0, sizeof o);
  o.algorithm = STRATA_SPMV_SPLIT;
  o.split_chunk = INT64_MAX;
  T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "split_chunk"));
  assert_non_null(strstr(strata_error_message(), "2^40"));
  memset(&o, 0, sizeof o);
  o.stream_max = (int64_t)1 << 41;
  T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "stream_max"));
  /* stream options beyond the team scratch: refused where the stream level runs (forced, or GPU
   * auto), naming the values in force; not checked on the host's auto plan, which never uses it */
  {
    memset(&o, 0, sizeof o);
    o.stream_block = 2048;
    o.stream_max = stream_max_limit() + 1; /* the largest that fits, plus one */
    o.transpose = 1; /* refused before A^T is built */
    o.algorithm = STRATA_SPMV_STREAM;
    T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(strata_error_message(), "stream_block 2048"));
    assert_null(plan);
    o.algorithm = STRATA_SPMV_AUTO;
    if (strata_exec_is_host(T_exec)) {
      T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
      strata_spmv_plan_destroy(&plan);
    } else {
      T_ERR(strata_spmv_plan_create(T_exec, A, &o, &plan), STRATA_ERR_INVALID_ARGUMENT);
    }
    if (strata_exec_is_host(T_exec)) { /* the sum exactly at the limit (host: 1 MiB teams) */
      o.stream_max -= 1;
      o.algorithm = STRATA_SPMV_STREAM;
      T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
      strata_spmv_plan_destroy(&plan);
    }
  }
  memset(&o, 0, sizeof o);
  T_OK(strata_spmv_plan_create(T_exec, A, NULL, &plan));
  coo_push(&h, 2, 2, 1.0);
  B = to_crs(&h);
  double *d = (double *)t_dev_alloc(4 * sizeof(double));
  T_ERR(strata_spmv_plan_apply(T_exec, plan, 1.0, B, d, 0.0, d), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "plan built for"));
  T_ERR(strata_spmv_plan_apply(T_exec, plan, 1.0, A, NULL, 0.0, d), STRATA_ERR_INVALID_ARGUMENT);
  t_dev_free(d);
  strata_spmv_plan_destroy(&plan);
  strata_spmv_plan_destroy(&plan); /* NULL-safe */
  strata_crs_destroy(&A);
  strata_crs_destroy(&B);
  coo_free(&h);
}

/* op = T: E6 and random rectangular matrices against a host reference of A^T x */
static void test_transpose(void **state) {
  (void)state;
  for (int t = 0; t < 4; ++t) {
    host_coo_t h = {0};
    uint64_t s = T_seed + 10 + (uint64_t)t;
    if (t == 0) { /* E6: A 2x3 = {(0,0,1),(0,2,2),(1,1,3)}, x = [1, 1] -> y = [1, 3, 2] */
      h.m = 2;
      h.n = 3;
      coo_push(&h, 0, 0, 1.0);
      coo_push(&h, 0, 2, 2.0);
      coo_push(&h, 1, 1, 3.0);
    } else {
      h.m = t == 1 ? 0 : 300 * t;
      h.n = t == 3 ? 1 : 70000 / t;
      for (int32_t r = 0; r < h.m; ++r) add_row(&h, r, (int64_t)(t_rand(&s) % (uint64_t)(h.n < 50 ? h.n + 1 : 50)), &s);
    }
    /* the transpose's COO, for the reference */
    host_coo_t ht = {0};
    ht.m = h.n;
    ht.n = h.m;
    for (int64_t k = 0; k < h.nnz; ++k) coo_push(&ht, h.c[k], h.r[k], h.v[k]);
    strata_crs_matrix_t *A = to_crs(&h);
    strata_spmv_options_t o = {0};
    o.transpose = 1;
    strata_spmv_plan_t *plan = NULL;
    T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
    double *x = (double *)malloc(((size_t)h.m + 1) * sizeof(double));
    double *y = (double *)malloc(((size_t)h.n + 1) * sizeof(double));
    double *yref = (double *)malloc(((size_t)h.n + 1) * sizeof(double));
    double *scale = (double *)malloc(((size_t)h.n + 1) * sizeof(double));
    for (int32_t i = 0; i < h.m; ++i) x[i] = t == 0 ? 1.0 : t_uniform(&s);
    double *dx = (double *)t_to_dev(x, (size_t)h.m * sizeof(double));
    double *dy = (double *)t_dev_alloc(((size_t)h.n + 1) * sizeof(double));
    T_OK(strata_spmv_plan_apply(T_exec, plan, 1.0, A, dx, 0.0, dy));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(y, dy, (size_t)h.n * sizeof(double));
    reference(&ht, 1.0, x, 0.0, NULL, yref, scale);
    if (t == 0) {
      assert_true(y[0] == 1.0 && y[1] == 3.0 && y[2] == 2.0);
    }
    for (int32_t j = 0; j < h.n; ++j)
      if (!(fabs(y[j] - yref[j]) <= 1e-13 * scale[j] + 1e-300))
        fail_msg("transpose case %d: y[%d] = %.17g, reference %.17g", t, j, y[j], yref[j]);
    /* new values in A (as unpack_combine gives them), the same plan: A^T x of the new values */
    if (A->nnz > 0) {
      const size_t nb = (size_t)A->nnz * sizeof(double);
      double *av = (double *)malloc(nb);
      int64_t *ro = (int64_t *)malloc(((size_t)A->num_rows + 1) * sizeof(int64_t));
      int32_t *ci = (int32_t *)malloc((size_t)A->nnz * sizeof(int32_t));
      t_to_host(av, A->values, nb);
      t_to_host(ro, A->row_offsets, ((size_t)A->num_rows + 1) * sizeof(int64_t));
      t_to_host(ci, A->col_indices, (size_t)A->nnz * sizeof(int32_t));
      host_coo_t h2 = {0};
      h2.m = h.n;
      h2.n = h.m;
      for (int32_t r = 0; r < A->num_rows; ++r)
        for (int64_t k = ro[r]; k < ro[r + 1]; ++k) {
          av[k] = av[k] * av[k] - 0.5 * (double)(k % 7);
          coo_push(&h2, ci[k], r, av[k]);
        }
      T_OK(strata_mem_copy(T_exec, A->values, av, nb));
      T_OK(strata_spmv_plan_apply(T_exec, plan, 1.0, A, dx, 0.0, dy));
      T_OK(strata_exec_fence(T_exec));
      t_to_host(y, dy, (size_t)h.n * sizeof(double));
      reference(&h2, 1.0, x, 0.0, NULL, yref, scale);
      for (int32_t j = 0; j < h.n; ++j)
        if (!(fabs(y[j] - yref[j]) <= 1e-13 * scale[j] + 1e-300))
          fail_msg("transpose case %d, new values of A: y[%d] = %.17g, reference %.17g", t, j, y[j], yref[j]);
      free(av);
      free(ro);
      free(ci);
      coo_free(&h2);
    }
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y);
    free(yref);
    free(scale);
    strata_spmv_plan_destroy(&plan);
    strata_crs_destroy(&A);
    coo_free(&h);
    coo_free(&ht);
  }
}

/* a transpose plan built for A not fill-complete, then A made fill-complete in place (the same
 * entries and nnz, rows sorted): the plan's map of A's storage order no longer holds */
static void test_transpose_fill_complete(void **state) {
  (void)state;
  /* A 2x3: row 0 columns {2, 0} (unsorted), row 1 {1}; values 2, 1, 3 */
  const int64_t ro[3] = {0, 2, 3};
  const int32_t ci[3] = {2, 0, 1};
  const double va[3] = {2.0, 1.0, 3.0};
  int64_t *dro = (int64_t *)t_to_dev(ro, sizeof ro);
  int32_t *dci = (int32_t *)t_to_dev(ci, sizeof ci);
  double *dva = (double *)t_to_dev(va, sizeof va);
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 2, 3, 3, dro, dci, dva, STRATA_CRS_COPY, &A));
  assert_int_equal(A->fill_complete, 0);
  strata_spmv_options_t o = {0};
  o.transpose = 1;
  strata_spmv_plan_t *plan = NULL;
  T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan));
  const double x[2] = {1.0, 10.0};
  double *dx = (double *)t_to_dev(x, sizeof x);
  double *dy = (double *)t_dev_alloc(3 * sizeof(double));
  double y[3];
  T_OK(strata_spmv_plan_apply(T_exec, plan, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 1.0 && y[1] == 30.0 && y[2] == 2.0);
  T_OK(strata_crs_fill_complete(T_exec, A)); /* same entries, storage order now sorted */
  assert_int_equal(A->nnz, 3);
  /* the plan's map follows A's old storage order: refused (before the fix: [2 30 1], silently) */
  T_ERR(strata_spmv_plan_apply(T_exec, plan, 1.0, A, dx, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "fill-complete"));
  strata_spmv_plan_destroy(&plan);
  T_OK(strata_spmv_plan_create(T_exec, A, &o, &plan)); /* a plan built again follows it */
  T_OK(strata_spmv_plan_apply(T_exec, plan, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  t_to_host(y, dy, sizeof y);
  if (!(y[0] == 1.0 && y[1] == 30.0 && y[2] == 2.0))
    fail_msg("A^T x after fill_complete(A): [%g %g %g], want [1 30 2]", y[0], y[1], y[2]);
  t_dev_free(dro); t_dev_free(dci); t_dev_free(dva); t_dev_free(dx); t_dev_free(dy);
  strata_spmv_plan_destroy(&plan);
  strata_crs_destroy(&A);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_class_boundaries), cmocka_unit_test(test_huge_row),
      cmocka_unit_test(test_dense_rows), cmocka_unit_test(test_power_law),
      cmocka_unit_test(test_one_class_and_small_thresholds),
      cmocka_unit_test(test_stream_windows), cmocka_unit_test(test_stream_lanes), cmocka_unit_test(test_fused_options),
      cmocka_unit_test(test_stream_padded),
      cmocka_unit_test(test_edges), cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_transpose_fill_complete),
  };
  return T_RUN("spmv_plan", tests);
}
