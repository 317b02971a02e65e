/* strata hmatrix — H² matrices (strata/hmatrix.h) on the backend under test: the product against
 * the dense product K·X computed here on the host (2D random, 2D grid, 3D grid; three kernels), the
 * error falling as p grows, every backend equal to serial, NV = 4 column by column equal to NV = 1,
 * symmetry, degenerate point sets, EDGE_CASES Q1-Q8, β = 0 never reading Y, bad input; compression
 * (strata_h2_compress): the error against the dense product, ranks falling as eps grows, orthonormal
 * bases (read from the stored U and E), every backend equal to serial, degenerate sets, bad eps. */
#include "h2_impl.h" /* the stored U and E, for the compression's orthogonality check */
#include "strata/hmatrix.h"
#include "test_common.h"

STRATA_H2_USER_KERNEL_DECLARE(t_h2_const);
STRATA_H2_USER_KERNEL_DECLARE(t_h2_nonsym);
STRATA_H2_USER_KERNEL_DECLARE(t_h2_scaled);

/* compression helpers (defined with the compression tests below) */
static double compress_error_ref(strata_exec_t *exec, const strata_points_t *P, const strata_h2_options_t *o, int kind,
                                 double len, double scale, double eps, double *err_before, strata_h2_compress_info_t *ci);
static void print_ranks(const char *what, const strata_h2_compress_info_t *ci);

/* ------------------------------------------------------------------ host references */

/* the kernels, written here independently of the library */
static double ref_kernel(int kind, double len, const double *x, const double *y, int dim) {
  double r2 = 0.0;
  for (int d = 0; d < dim; ++d) r2 += (x[d] - y[d]) * (x[d] - y[d]);
  const double r = sqrt(r2) / len;
  switch (kind) {
  case STRATA_H2_EXP: return exp(-r);
  case STRATA_H2_GAUSS: return exp(-r * r);
  case STRATA_H2_MATERN32: return (1.0 + sqrt(3.0) * r) * exp(-sqrt(3.0) * r);
  case 100: return exp(-sqrt(r2)) * (1.0 + 0.5 * (x[0] - y[0])); /* Q7 */
  default: return len; /* the constant kernel */
  }
}

/* Y = K X on the host, X, Y n x nv column-major */
static void dense_product(const strata_points_t *P, int kind, double len, int nv, const double *X, double *Y) {
  const int d = P->dim;
  for (int64_t i = 0; i < P->n; ++i) {
    for (int v = 0; v < nv; ++v) Y[i + v * P->n] = 0.0;
    for (int64_t j = 0; j < P->n; ++j) {
      const double a = ref_kernel(kind, len, P->coords + i * d, P->coords + j * d, d);
      for (int v = 0; v < nv; ++v) Y[i + v * P->n] += a * X[j + v * P->n];
    }
  }
}

static double rel_fro(int64_t m, const double *y, const double *ref) {
  double num = 0.0, den = 0.0;
  for (int64_t e = 0; e < m; ++e) {
    if (!isfinite(y[e])) return INFINITY;
    num += (y[e] - ref[e]) * (y[e] - ref[e]);
    den += ref[e] * ref[e];
  }
  return den > 0 ? sqrt(num / den) : sqrt(num);
}

static double *random_x(int64_t m) {
  double *x = (double *)t_malloc((size_t)m * sizeof(double));
  for (int64_t e = 0; e < m; ++e) x[e] = 2.0 * t_uniform(&T_rng) - 1.0;
  return x;
}

static strata_h2_options_t opts_of(int dim, int leaf, int p, double eta, int kind, double len) {
  strata_h2_options_t o;
  strata_h2_options_default(dim, &o);
  o.leaf = leaf;
  o.cheb = p;
  o.eta = eta;
  o.kernel = (strata_h2_kernel_kind_t)kind;
  o.length = len;
  return o;
}

/* Y = α A X + β Y0 on exec (host arrays in and out); A built there with o */
static void h2_apply(strata_exec_t *exec, const strata_points_t *P, const strata_h2_options_t *o, int nv, double alpha,
                     const double *X, double beta, const double *Y0, double *Y) {
  const int64_t n = P->n;
  const size_t bytes = (size_t)(n * nv > 0 ? n * nv : 1) * sizeof(double);
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(exec, P, o, &A));
  double *dx, *dy;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dx));
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dy));
  T_OK(strata_mem_set_async(exec, dy, 0xFF, bytes)); /* NaN: β = 0 must not read it */
  if (n * nv > 0) T_OK(strata_mem_copy(exec, dx, X, (size_t)(n * nv) * sizeof(double)));
  if (Y0 && n * nv > 0) T_OK(strata_mem_copy(exec, dy, Y0, (size_t)(n * nv) * sizeof(double)));
  T_OK(strata_h2_matvec(exec, A, nv, alpha, dx, n, beta, dy, n));
  if (n * nv > 0) T_OK(strata_mem_copy(exec, Y, dy, (size_t)(n * nv) * sizeof(double)));
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dx);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dy);
  T_OK(strata_h2_destroy(&A));
}

/* the relative error of A x against the dense product (one vector) */
static double h2_error(const strata_points_t *P, const strata_h2_options_t *o, int kind, double len) {
  const int64_t n = P->n;
  double *x = random_x(n), *y = (double *)t_malloc((size_t)n * 8), *r = (double *)t_malloc((size_t)n * 8);
  h2_apply(T_exec, P, o, 1, 1.0, x, 0.0, NULL, y);
  dense_product(P, kind, len, 1, x, r);
  const double e = rel_fro(n, y, r);
  free(x);
  free(y);
  free(r);
  return e;
}

#define EXPECT_ERR_BELOW(e, tol, what)                                                                       \
  do {                                                                                                       \
    const double e_ = (e);                                                                                   \
    if (!(e_ <= (tol))) fail_msg("%s: relative error %.3e above %.1e (seed %llu)", what, e_, (double)(tol), \
                                 (unsigned long long)T_seed);                                                \
  } while (0)

/* ------------------------------------------------------------------ accuracy */

/* A x against the dense product for one point set (destroyed here) and kernel */
static void expect_dense(strata_points_t *P, int leaf, int p, int kind, double len, double tol, const char *what) {
  strata_h2_options_t o = opts_of(P->dim, leaf, p, 1.0, kind, len);
  const double e = h2_error(P, &o, kind, len);
  print_message("%s, n %lld, p %d, kernel %d: error %.3e\n", what, (long long)P->n, p, kind, e);
  EXPECT_ERR_BELOW(e, tol, what);
  strata_points_destroy(&P);
}

static void test_dense_2d_random(void **state) {
  (void)state;
  const int kinds[] = {STRATA_H2_EXP, STRATA_H2_GAUSS, STRATA_H2_MATERN32};
  for (int q = 0; q < 3; ++q) {
    strata_points_t *P;
    T_OK(strata_points_create_random(2, 4000, T_seed, &P));
    expect_dense(P, 64, 8, kinds[q], 0.3, 2e-4, "2D random");
  }
}

static void test_dense_grids(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_grid(2, 6400, &P));
  expect_dense(P, 64, 8, STRATA_H2_EXP, 0.2, 5e-4, "2D grid 80 x 80");
  T_OK(strata_points_create_grid(3, 8000, &P));
  expect_dense(P, 64, 5, STRATA_H2_MATERN32, 0.5, 5e-4, "3D grid 20^3");
}

static void test_error_falls_with_p(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 3000, T_seed + 1, &P));
  double e[3];
  for (int q = 0; q < 3; ++q) {
    strata_h2_options_t o = opts_of(2, 64, 4 + 2 * q, 1.0, STRATA_H2_EXP, 0.3);
    e[q] = h2_error(P, &o, STRATA_H2_EXP, 0.3);
  }
  print_message("p 4 / 6 / 8: %.3e %.3e %.3e\n", e[0], e[1], e[2]);
  assert_true(e[1] < 0.5 * e[0]);
  assert_true(e[2] < 0.5 * e[1]);
  strata_points_destroy(&P);
}

/* ------------------------------------------------------------------ backends, vectors, symmetry */

static void test_backend_equals_serial(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(3, 3000, T_seed + 2, &P));
  strata_h2_options_t o = opts_of(3, 32, 4, 1.0, STRATA_H2_GAUSS, 0.4);
  const int nv = 3;
  double *x = random_x(3000 * nv), *y0 = random_x(3000 * nv);
  double *yb = (double *)t_malloc(3000 * nv * 8), *ys = (double *)t_malloc(3000 * nv * 8);
  h2_apply(T_exec, P, &o, nv, 0.75, x, -0.5, y0, yb);
  h2_apply(T_serial, P, &o, nv, 0.75, x, -0.5, y0, ys);
  double m = 0.0, d = 0.0;
  for (int e = 0; e < 3000 * nv; ++e) {
    m = fmax(m, fabs(ys[e]));
    d = fmax(d, fabs(yb[e] - ys[e]));
  }
  if (!(d <= 1e-12 * m)) fail_msg("backend vs serial: max difference %.3e, max |y| %.3e", d, m);
  /* and α A x + β y0 against the dense product */
  double *r = (double *)t_malloc(3000 * nv * 8);
  dense_product(P, STRATA_H2_GAUSS, 0.4, nv, x, r);
  for (int e = 0; e < 3000 * nv; ++e) r[e] = 0.75 * r[e] - 0.5 * y0[e];
  EXPECT_ERR_BELOW(rel_fro(3000 * nv, yb, r), 1e-2, "alpha A x + beta y, 3D");
  free(x);
  free(y0);
  free(yb);
  free(ys);
  free(r);
  strata_points_destroy(&P);
}

/* the dense phase on the matrix's second instance (overlap ON) against one stream (OFF): the same
 * bits, run after run, on the matrix's exec and on another instance; both against the dense
 * product; AUTO is ON exactly on GPU backends; the mode refused outside AUTO / OFF / ON */
static void overlap_case(strata_points_t *P, int leaf, int p, int nv, double alpha, double beta, const char *what) {
  const int64_t n = P->n, m = n * nv;
  strata_h2_options_t o = opts_of(P->dim, leaf, p, 1.0, STRATA_H2_EXP, 0.5);
  o.overlap = STRATA_H2_OVERLAP_ON;
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  int on = -1;
  T_OK(strata_h2_get_overlap(A, &on));
  assert_int_equal(on, 1);
  strata_exec_t *other = NULL;
  T_OK(strata_exec_create(strata_exec_backend(T_exec), &other));
  double *x = random_x(m), *y0 = random_x(m), *yon = (double *)t_malloc((size_t)m * 8), *yoff = (double *)t_malloc((size_t)m * 8);
  double *dx, *dy;
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, (size_t)m * 8, (void **)&dx));
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, (size_t)m * 8, (void **)&dy));
  T_OK(strata_mem_copy(T_exec, dx, x, (size_t)m * 8));
  for (int round = 0; round < 6; ++round) { /* ON, OFF, ON, ... ; rounds 4, 5 on another instance */
    strata_exec_t *e = round < 4 ? T_exec : other;
    T_OK(strata_h2_set_overlap(A, round % 2 ? STRATA_H2_OVERLAP_OFF : STRATA_H2_OVERLAP_ON));
    T_OK(strata_h2_get_overlap(A, &on));
    assert_int_equal(on, round % 2 ? 0 : 1);
    T_OK(strata_mem_copy(e, dy, y0, (size_t)m * 8));
    T_OK(strata_h2_matvec(e, A, nv, alpha, dx, n, beta, dy, n));
    double *y = round == 1 ? yoff : round == 0 ? yon : (double *)t_malloc((size_t)m * 8);
    T_OK(strata_mem_copy(e, y, dy, (size_t)m * 8));
    if (round > 1) {
      const double *want = round % 2 ? yoff : yon;
      if (memcmp(y, want, (size_t)m * 8)) fail_msg("%s: round %d differs from round %d (seed %llu)", what, round, round % 2, (unsigned long long)T_seed);
      free(y);
    }
  }
  for (int64_t e = 0; e < m; ++e)
    if (memcmp(&yon[e], &yoff[e], 8))
      fail_msg("%s: entry %lld is %.17g with the dense phase overlapped, %.17g without (seed %llu)", what, (long long)e, yon[e],
               yoff[e], (unsigned long long)T_seed);
  double *r = (double *)t_malloc((size_t)m * 8);
  dense_product(P, STRATA_H2_EXP, 0.5, nv, x, r);
  for (int64_t e = 0; e < m; ++e) r[e] = alpha * r[e] + beta * y0[e];
  EXPECT_ERR_BELOW(rel_fro(m, yon, r), 1e-3, what);
  T_OK(strata_h2_set_overlap(A, STRATA_H2_OVERLAP_AUTO));
  T_OK(strata_h2_get_overlap(A, &on));
  assert_int_equal(on, !strata_exec_is_host(T_exec));
  strata_mem_free(T_exec, STRATA_MEM_DEVICE, (void **)&dx);
  strata_mem_free(T_exec, STRATA_MEM_DEVICE, (void **)&dy);
  T_OK(strata_exec_destroy(&other));
  T_OK(strata_h2_destroy(&A));
  free(x);
  free(y0);
  free(yon);
  free(yoff);
  free(r);
  strata_points_destroy(&P);
}

static void test_overlap_same_bits(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 3000, T_seed + 11, &P));
  overlap_case(P, 32, 6, 3, 0.75, -0.5, "overlap, 2D random, nv 3");
  T_OK(strata_points_create_grid(3, 1000, &P));
  overlap_case(P, 50, 4, 1, 1.0, 0.0, "overlap, 3D grid, leaf 50");
  T_OK(strata_points_create_random(2, 40, T_seed + 12, &P));
  overlap_case(P, 64, 4, 2, -2.0, 1.0, "overlap, n below the leaf (all dense)");
  /* bad modes */
  T_OK(strata_points_create_random(2, 100, T_seed, &P));
  strata_h2_options_t o = opts_of(2, 16, 4, 1.0, STRATA_H2_EXP, 0.5);
  strata_h2_matrix_t *A = NULL;
  o.overlap = (strata_h2_overlap_t)3;
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "overlap = 3", "AUTO 0, OFF 1 or ON 2");
  assert_null(A);
  o.overlap = STRATA_H2_OVERLAP_AUTO;
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  t_expect_msg(strata_h2_set_overlap(A, (strata_h2_overlap_t)-1), STRATA_ERR_INVALID_ARGUMENT, "mode = -1", "AUTO 0, OFF 1 or ON 2");
  t_expect_msg(strata_h2_set_overlap(NULL, STRATA_H2_OVERLAP_ON), STRATA_ERR_INVALID_ARGUMENT, "NULL matrix", NULL);
  int on = -1;
  T_ERR(strata_h2_get_overlap(A, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_h2_get_overlap(A, &on));
  assert_int_equal(on, !strata_exec_is_host(T_exec));
  T_OK(strata_h2_destroy(&A));
  strata_points_destroy(&P);
}

static void test_multivector(void **state) {
  (void)state;
  const int64_t n = 2500;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, n, T_seed + 3, &P));
  strata_h2_options_t o = opts_of(2, 40, 6, 1.0, STRATA_H2_EXP, 0.5);
  double *x = random_x(4 * n), *y4 = (double *)t_malloc(4 * n * 8), *y1 = (double *)t_malloc(n * 8);
  h2_apply(T_exec, P, &o, 4, 1.0, x, 0.0, NULL, y4);
  for (int v = 0; v < 4; ++v) {
    h2_apply(T_exec, P, &o, 1, 1.0, x + v * n, 0.0, NULL, y1);
    for (int64_t i = 0; i < n; ++i)
      if (!(fabs(y1[i] - y4[i + v * n]) <= 1e-14 * (fabs(y1[i]) + 1e-300)))
        fail_msg("column %d row %lld: NV=4 gives %.17g, NV=1 %.17g", v, (long long)i, y4[i + v * n], y1[i]);
  }
  free(x);
  free(y4);
  free(y1);
  strata_points_destroy(&P);
}

static double dot(int64_t n, const double *a, const double *b) {
  double s = 0.0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
}

/* a symmetric kernel gives a symmetric H² matrix: <u, A v> = <A u, v>; and Aᵀ x = A x by the
 * dense check (the dense K is symmetric) */
static void test_symmetric(void **state) {
  (void)state;
  const int64_t n = 3000;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, n, T_seed + 4, &P));
  strata_h2_options_t o = opts_of(2, 64, 6, 1.0, STRATA_H2_MATERN32, 0.3);
  double *uv = random_x(2 * n), *A2 = (double *)t_malloc(2 * n * 8), *ref = (double *)t_malloc(2 * n * 8);
  h2_apply(T_exec, P, &o, 2, 1.0, uv, 0.0, NULL, A2);
  const double a = dot(n, uv, A2 + n), b = dot(n, A2, uv + n);
  if (!(fabs(a - b) <= 1e-12 * fabs(a))) fail_msg("<u, A v> = %.17g, <A u, v> = %.17g", a, b);
  dense_product(P, STRATA_H2_MATERN32, 0.3, 2, uv, ref);
  EXPECT_ERR_BELOW(rel_fro(2 * n, A2, ref), 1e-4, "symmetric, matern");
  free(uv);
  free(A2);
  free(ref);
  strata_points_destroy(&P);
}

/* ------------------------------------------------------------------ point sets */

static void test_points(void **state) {
  (void)state;
  strata_points_t *P, *Q;
  T_OK(strata_points_create_grid(2, 7, &P)); /* the first 7 of a 3 x 3 grid, x fastest */
  const double g[14] = {0, 0, 0.5, 0, 1, 0, 0, 0.5, 0.5, 0.5, 1, 0.5, 0, 1};
  assert_int_equal(P->n, 7);
  assert_memory_equal(P->coords, g, sizeof g);
  strata_points_destroy(&P);
  T_OK(strata_points_create_grid(3, 8, &P)); /* 2 x 2 x 2: spacing 1 */
  assert_true(P->coords[3 * 7] == 1 && P->coords[3 * 7 + 1] == 1 && P->coords[3 * 7 + 2] == 1);
  strata_points_destroy(&P);
  T_OK(strata_points_create_grid(3, 1, &P));
  assert_true(P->coords[0] == 0 && P->coords[2] == 0);
  strata_points_destroy(&P);
  T_OK(strata_points_create_random(3, 1000, 42, &P));
  T_OK(strata_points_create_random(3, 1000, 42, &Q));
  assert_memory_equal(P->coords, Q->coords, 3000 * sizeof(double));
  for (int e = 0; e < 3000; ++e) assert_true(P->coords[e] >= 0 && P->coords[e] < 1);
  strata_points_destroy(&Q);
  T_OK(strata_points_create_random(3, 1000, 43, &Q));
  assert_true(memcmp(P->coords, Q->coords, 3000 * sizeof(double)) != 0);
  strata_points_destroy(&P);
  strata_points_destroy(&Q);
}

/* ------------------------------------------------------------------ the trees */

/* the block tree covers every (i, j) exactly once; coupling blocks are admissible by the header's
 * rule, dense blocks are leaves; leaves hold at most `leaf` points; children split their parent at
 * ⌊m/2⌋ with the first child's points not above the second's along some axis */
static void check_tree(const strata_points_t *P, int leaf, double eta) {
  strata_h2_tree_t *T;
  T_OK(strata_h2_tree_create(P, leaf, eta, &T));
  const int64_t n = P->n;
  unsigned char *cover = (unsigned char *)calloc((size_t)(n * n > 0 ? n * n : 1), 1);
  int64_t *seen = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  assert_non_null(cover);
  for (int64_t q = 0; q < n; ++q) ++seen[T->index_map[q]];
  for (int64_t i = 0; i < n; ++i) assert_int_equal(seen[i], 1); /* a permutation */
  for (int64_t g = 0; g < T->num_nodes; ++g) {
    const int64_t m = T->node_end[g] - T->node_begin[g];
    if (g >= T->num_leaves - 1) assert_true(m <= leaf);
    else {
      const int64_t c = 2 * g + 1;
      assert_int_equal(T->node_begin[c], T->node_begin[g]);
      assert_int_equal(T->node_end[c], T->node_begin[g] + m / 2);
      assert_int_equal(T->node_end[c + 1], T->node_end[g]);
      int split = m < 2;
      for (int d = 0; d < P->dim && !split; ++d) {
        double hi1 = -INFINITY, lo2 = INFINITY;
        for (int64_t q = T->node_begin[c]; q < T->node_end[c]; ++q) hi1 = fmax(hi1, P->coords[T->index_map[q] * P->dim + d]);
        for (int64_t q = T->node_begin[c + 1]; q < T->node_end[c + 1]; ++q) lo2 = fmin(lo2, P->coords[T->index_map[q] * P->dim + d]);
        split = hi1 <= lo2;
      }
      if (!split) fail_msg("node %lld: no axis separates its children", (long long)g);
    }
  }
  assert_int_equal(T->coupling_row_ptr[T->num_nodes], T->num_coupling);
  for (int64_t t = 0; t < T->num_nodes; ++t)
    for (int64_t q = T->coupling_row_ptr[t]; q < T->coupling_row_ptr[t + 1]; ++q) {
      const int64_t s = T->coupling_cols[q];
      double dt = 0, ds = 0, dc = 0;
      for (int d = 0; d < 3; ++d) {
        dt += 4 * T->half[3 * t + d] * T->half[3 * t + d];
        ds += 4 * T->half[3 * s + d] * T->half[3 * s + d];
        dc += (T->center[3 * t + d] - T->center[3 * s + d]) * (T->center[3 * t + d] - T->center[3 * s + d]);
      }
      assert_true(0.5 * (sqrt(dt) + sqrt(ds)) <= eta * sqrt(dc) && dc > 0);
      for (int64_t a = T->node_begin[t]; a < T->node_end[t]; ++a)
        for (int64_t b = T->node_begin[s]; b < T->node_end[s]; ++b) ++cover[T->index_map[a] * n + T->index_map[b]];
    }
  for (int64_t l = 0; l < T->num_leaves; ++l)
    for (int64_t q = T->dense_row_ptr[l]; q < T->dense_row_ptr[l + 1]; ++q) {
      const int64_t t = T->num_leaves - 1 + l, s = T->dense_cols[q];
      assert_true(s >= T->num_leaves - 1);
      assert_int_equal(T->dense_offsets[q + 1] - T->dense_offsets[q],
                       (T->node_end[t] - T->node_begin[t]) * (T->node_end[s] - T->node_begin[s]));
      for (int64_t a = T->node_begin[t]; a < T->node_end[t]; ++a)
        for (int64_t b = T->node_begin[s]; b < T->node_end[s]; ++b) ++cover[T->index_map[a] * n + T->index_map[b]];
    }
  for (int64_t e = 0; e < n * n; ++e)
    if (cover[e] != 1) fail_msg("entry (%lld, %lld) covered %d times", (long long)(e / n), (long long)(e % n), cover[e]);
  free(cover);
  free(seen);
  strata_h2_tree_destroy(&T);
}

static void test_tree_structure(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 1000, T_seed + 12, &P));
  check_tree(P, 16, 1.0);
  check_tree(P, 1, 0.5);
  check_tree(P, 7, 2.0);
  strata_points_destroy(&P);
  T_OK(strata_points_create_grid(3, 729, &P));
  check_tree(P, 20, 1.0);
  strata_points_destroy(&P);
  T_OK(strata_points_create_random(3, 0, 1, &P));
  check_tree(P, 4, 1.0);
  strata_points_destroy(&P);
}

/* ------------------------------------------------------------------ degenerate point sets */

static strata_points_t *make_points(int dim, int64_t n, double *c) {
  strata_points_t *P;
  T_OK(strata_points_create(dim, n, c, &P));
  free(c);
  return P;
}

/* Q1: 1000 copies of one point plus 1000 uniform; all points identical */
static void test_duplicates(void **state) {
  (void)state;
  double *c = (double *)t_malloc(2000 * 2 * 8);
  for (int i = 0; i < 2000; ++i) {
    c[2 * i] = i < 1000 ? 0.5 : t_uniform(&T_rng);
    c[2 * i + 1] = i < 1000 ? 0.5 : t_uniform(&T_rng);
  }
  strata_points_t *P = make_points(2, 2000, c);
  strata_h2_options_t o = opts_of(2, 32, 8, 1.0, STRATA_H2_EXP, 0.3);
  strata_h2_tree_t *T;
  T_OK(strata_h2_tree_create(P, 32, 1.0, &T));
  assert_true(T->depth <= (int)ceil(log2(2000.0 / 32)) + 2);
  strata_h2_tree_destroy(&T);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 5e-4, "duplicates");
  strata_points_destroy(&P);
  c = (double *)t_malloc(700 * 3 * 8);
  for (int e = 0; e < 700 * 3; ++e) c[e] = 0.25;
  P = make_points(3, 700, c);
  o = opts_of(3, 32, 4, 1.0, STRATA_H2_EXP, 1.0);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 1.0), 1e-14, "all points equal");
  strata_points_destroy(&P);
}

/* Q2: collinear (2D), on a line (3D), coplanar (3D): accurate; the constant kernel is exact (the
 * bases reproduce constants: Σ L = 1) */
static void test_collinear_coplanar(void **state) {
  (void)state;
  for (int shape = 0; shape < 3; ++shape) {
    const int dim = shape == 0 ? 2 : 3;
    const int64_t n = 2048;
    double *c = (double *)t_malloc((size_t)n * dim * 8);
    for (int64_t i = 0; i < n; ++i) {
      const double u = 2.0 * t_uniform(&T_rng), w = t_uniform(&T_rng);
      if (shape == 0) { c[2 * i] = u; c[2 * i + 1] = 1.0; }
      if (shape == 1) { c[3 * i] = u; c[3 * i + 1] = 0.5 * u; c[3 * i + 2] = -0.25 * u; }
      if (shape == 2) { c[3 * i] = u; c[3 * i + 1] = w; c[3 * i + 2] = 0.0; }
    }
    strata_points_t *P = make_points(dim, n, c);
    strata_h2_options_t o = opts_of(dim, 32, dim == 2 ? 8 : 5, 1.0, STRATA_H2_EXP, 0.5);
    const double e = h2_error(P, &o, STRATA_H2_EXP, 0.5);
    print_message("degenerate shape %d: error %.3e\n", shape, e);
    EXPECT_ERR_BELOW(e, shape == 0 ? 1e-6 : 1e-2, "collinear / coplanar");
    strata_h2_user_kernel_t uk;
    STRATA_H2_USER_KERNEL_INIT(&uk, t_h2_const);
    uk.params[0] = 2.0;
    o.kernel = STRATA_H2_USER;
    o.user = &uk;
    double *x = random_x(n), *y = (double *)t_malloc(n * 8), *r = (double *)t_malloc(n * 8);
    h2_apply(T_exec, P, &o, 1, 1.0, x, 0.0, NULL, y);
    dense_product(P, -1, 2.0, 1, x, r);
    EXPECT_ERR_BELOW(rel_fro(n, y, r), 1e-12, "constant kernel (partition of unity)");
    free(x);
    free(y);
    free(r);
    strata_points_destroy(&P);
  }
}

/* Q3 / Q4: leaf 1..3; leaf >= n (one dense leaf, exact), n = 0, 1, 2, 10; n not a multiple */
static void test_leaf_sizes(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 512, T_seed + 5, &P));
  for (int leaf = 1; leaf <= 3; ++leaf) {
    strata_h2_options_t o = opts_of(2, leaf, 6, 1.0, STRATA_H2_EXP, 0.3);
    EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 1e-3, "leaf 1..3");
  }
  strata_points_destroy(&P);
  const int64_t ns[] = {0, 1, 2, 10};
  for (int a = 0; a < 4; ++a) {
    const int64_t n = ns[a];
    const int64_t leaves[] = {1, n - 1, n, 2 * n, 3 * n, 4 * n, 64};
    T_OK(strata_points_create_random(3, n, T_seed + 6, &P));
    for (int b = 0; b < 7; ++b) {
      if (leaves[b] < 1) continue;
      strata_h2_options_t o = opts_of(3, (int)leaves[b], 5, 1.0, STRATA_H2_EXP, 0.2);
      if (n == 0) {
        double y = 0;
        h2_apply(T_exec, P, &o, 1, 1.0, NULL, 0.0, NULL, &y);
        continue;
      }
      const double e = h2_error(P, &o, STRATA_H2_EXP, 0.2);
      EXPECT_ERR_BELOW(e, leaves[b] >= n ? 1e-14 : 1e-2, "small n");
    }
    strata_points_destroy(&P);
  }
  T_OK(strata_points_create_random(2, 1000, T_seed + 7, &P));
  strata_h2_options_t o = opts_of(2, 64, 8, 1.0, STRATA_H2_GAUSS, 0.25);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_GAUSS, 0.25), 5e-4, "n 1000 leaf 64");
  strata_points_destroy(&P);
}

/* Q5: admissibility never met: equal to dense, no coupling blocks */
static void test_all_dense(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 1500, T_seed + 8, &P));
  strata_h2_options_t o = opts_of(2, 32, 4, 1e-9, STRATA_H2_EXP, 0.3);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 1e-14, "eta 1e-9");
  strata_h2_tree_t *T;
  T_OK(strata_h2_tree_create(P, 32, 1e-9, &T));
  assert_int_equal(T->num_coupling, 0);
  strata_h2_tree_destroy(&T);
  strata_points_destroy(&P);
  double *c = (double *)t_malloc(100 * 2 * 8);
  for (int e = 0; e < 200; ++e) c[e] = 0.5 + 1e-12 * t_uniform(&T_rng);
  P = make_points(2, 100, c);
  o = opts_of(2, 32, 4, 1.0, STRATA_H2_EXP, 1e-12);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 1e-12), 1e-3, "a 1e-12 box");
  strata_points_destroy(&P);
}

/* the dense product by columns mapped in scratch (the GPUs' path, forced on host backends): a leaf's
 * blocks of fewer than leaf_max columns (2D random), all blocks of a row at once (everything dense,
 * 1,500 columns a leaf), against the dense product and serial; past H2_DENSE_MAP_MAX (2,048)
 * columns a leaf the block-by-block loop on every backend */
static int64_t dense_width_of(const strata_points_t *P, const strata_h2_options_t *o) {
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(T_exec, P, o, &A));
  const int64_t w = A->dense_width;
  T_OK(strata_h2_destroy(&A));
  return w;
}

static void test_dense_map(void **state) {
  strata_impl_h2_dense_map = 1;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 4000, T_seed + 20, &P));
  strata_h2_options_t o = opts_of(2, 64, 8, 1.0, STRATA_H2_EXP, 0.3);
  const int64_t w = dense_width_of(P, &o);
  if (w < 64 || w > 2048) fail_msg("dense map: width %lld, expected 64..2048", (long long)w);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 2e-4, "dense map, 2D random");
  strata_points_destroy(&P);
  T_OK(strata_points_create_random(2, 1500, T_seed + 21, &P));
  o = opts_of(2, 32, 4, 1e-9, STRATA_H2_EXP, 0.3);
  assert_int_equal(dense_width_of(P, &o), 1500);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 1e-14, "dense map, all dense");
  strata_points_destroy(&P);
  test_backend_equals_serial(state);
  T_OK(strata_points_create_random(2, 2500, T_seed + 22, &P));
  o = opts_of(2, 32, 4, 1e-9, STRATA_H2_EXP, 0.3);
  assert_int_equal(dense_width_of(P, &o), 0);
  EXPECT_ERR_BELOW(h2_error(P, &o, STRATA_H2_EXP, 0.3), 1e-14, "all dense, 2,500 columns a leaf");
  strata_points_destroy(&P);
  strata_impl_h2_dense_map = 0;
}

/* the labels of the launches one call makes (Q5: everything dense launches no low-rank phase) */
static char t_labels[4096];
static void t_label_hook(const char *label, strata_backend_t b, strata_pattern_t k, uint64_t id, void *u) {
  (void)b, (void)k, (void)id, (void)u;
  if (strlen(t_labels) + strlen(label) + 2 < sizeof t_labels) {
    strcat(t_labels, label);
    strcat(t_labels, " ");
  }
}

static void test_all_dense_launches(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 300, T_seed + 13, &P));
  for (int c = 0; c < 2; ++c) {
    strata_h2_options_t o = opts_of(2, 32, 4, c == 0 ? 1e-9 : 1.0, STRATA_H2_EXP, 0.3);
    strata_h2_matrix_t *A;
    T_OK(strata_h2_create(T_exec, P, &o, &A));
    double *x = (double *)t_dev_alloc(300 * 8), *y = (double *)t_dev_alloc(300 * 8);
    T_OK(strata_mem_set_async(T_exec, x, 0, 300 * 8));
    t_labels[0] = '\0';
    strata_profile_set_hooks(t_label_hook, NULL, NULL);
    T_OK(strata_h2_matvec(T_exec, A, 1, 1.0, x, 300, 0.0, y, 300));
    strata_profile_set_hooks(NULL, NULL, NULL);
    T_OK(strata_exec_fence(T_exec));
    print_message("eta %g: %s\n", o.eta, t_labels);
    if (c == 0) assert_string_equal(t_labels, "strata_h2_gather strata_h2_leaf_product ");
    else assert_non_null(strstr(t_labels, "strata_h2_coupling "));
    t_dev_free(x);
    t_dev_free(y);
    T_OK(strata_h2_destroy(&A));
  }
  strata_points_destroy(&P);
}

/* Q7: a non-symmetric user kernel: A x equals the dense product, also after compression */
static void test_nonsymmetric_kernel(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 2048, T_seed + 9, &P));
  strata_h2_user_kernel_t uk;
  STRATA_H2_USER_KERNEL_INIT(&uk, t_h2_nonsym);
  strata_h2_options_t o = opts_of(2, 32, 8, 1.0, STRATA_H2_USER, 1.0);
  o.user = &uk;
  const double e = h2_error(P, &o, 100, 1.0);
  print_message("non-symmetric kernel: error %.3e\n", e);
  EXPECT_ERR_BELOW(e, 1e-4, "non-symmetric kernel");
  /* compressed (its weights take both sides of each block) */
  strata_h2_compress_info_t ci;
  double e0;
  const double ec = compress_error_ref(T_exec, P, &o, 100, 1.0, 1.0, 1e-6, &e0, &ci);
  print_ranks("non-symmetric kernel", &ci);
  print_message("non-symmetric kernel: error before %.3e, compressed %.3e\n", e0, ec);
  EXPECT_ERR_BELOW(ec, 3e-6 + 2.0 * e0, "non-symmetric kernel, compressed");
  assert_true(ci.rank_after[ci.levels - 1] < ci.rank_before[ci.levels - 1]);
  strata_points_destroy(&P);
}

/* Q8: points and ℓ scaled together by 2^530 (about 3.5e159) and 2^-665 (about 1e-200) give the
 * product of unit-scale points: the squares of such coordinates overflow or underflow, so r/ℓ must
 * be formed before squaring (powers of two: the scaled inputs are exact, the products agree to
 * rounding); and A x against the host product of the unit-scale points */
static void test_scaled_points(void **state) {
  (void)state;
  const int64_t n = 1500;
  const double len = 0.3, scales[2] = {ldexp(1.0, 530), ldexp(1.0, -665)};
  double *c = (double *)t_malloc((size_t)(2 * n) * sizeof(double));
  for (int64_t e = 0; e < 2 * n; ++e) c[e] = t_uniform(&T_rng);
  strata_points_t *P = NULL;
  T_OK(strata_points_create(2, n, c, &P));
  strata_h2_options_t o = opts_of(2, 32, 6, 1.0, STRATA_H2_EXP, len);
  double *x = random_x(n), *y = (double *)t_malloc((size_t)n * 8), *ys = (double *)t_malloc((size_t)n * 8);
  double *r = (double *)t_malloc((size_t)n * 8);
  h2_apply(T_exec, P, &o, 1, 1.0, x, 0.0, NULL, y);
  dense_product(P, STRATA_H2_EXP, len, 1, x, r);
  EXPECT_ERR_BELOW(rel_fro(n, y, r), 1e-3, "unit-scale points");
  for (int q = 0; q < 2; ++q) {
    double *cs = (double *)t_malloc((size_t)(2 * n) * sizeof(double));
    for (int64_t e = 0; e < 2 * n; ++e) cs[e] = c[e] * scales[q];
    strata_points_t *Ps = NULL;
    T_OK(strata_points_create(2, n, cs, &Ps));
    strata_h2_options_t os = opts_of(2, 32, 6, 1.0, STRATA_H2_EXP, len * scales[q]);
    h2_apply(T_exec, Ps, &os, 1, 1.0, x, 0.0, NULL, ys);
    const double d = rel_fro(n, ys, y);
    if (!(d <= 1e-13)) fail_msg("points and length scaled by %g: the product differs from the unit-scale one by %.3e", scales[q], d);
    strata_points_destroy(&Ps);
    free(cs);
  }
  strata_points_destroy(&P);
  free(c), free(x), free(y), free(ys), free(r);
}

/* Q8: the sampled error uses >= 1 row (all for small n), normalizes by the exact product, NaN is a
 * failure, a corrupted row is caught */
static void test_sampled_error(void **state) {
  (void)state;
  for (int c = 0; c < 2; ++c) {
    const int64_t n = c == 0 ? 64 : 4096;
    strata_points_t *P;
    T_OK(strata_points_create_random(2, n, T_seed + 10, &P));
    strata_h2_options_t o = opts_of(2, 16, 8, 1.0, STRATA_H2_EXP, 0.3);
    strata_h2_matrix_t *A;
    T_OK(strata_h2_create(T_exec, P, &o, &A));
    double *x = random_x(n), *y = (double *)t_malloc(n * 8), *r = (double *)t_malloc(n * 8);
    double *dx = (double *)t_to_dev(x, n * 8), *dy = (double *)t_dev_alloc(n * 8), err = -1;
    T_OK(strata_h2_matvec(T_exec, A, 1, 1.0, dx, n, 0.0, dy, n));
    T_OK(strata_h2_sampled_error(T_exec, A, 1, dx, dy, 100, 7, &err));
    t_to_host(y, dy, n * 8);
    dense_product(P, STRATA_H2_EXP, 0.3, 1, x, r);
    if (n == 64) assert_true(fabs(err - rel_fro(n, y, r)) <= 1e-6 * rel_fro(n, y, r) + 1e-16); /* all rows */
    assert_true(err >= 0 && err < 1e-3);
    T_OK(strata_h2_sampled_error(T_exec, A, 1, dx, dy, 0, 7, &err)); /* max_rows 0: one row */
    assert_true(err >= 0 && err < 1e-3);
    if (n == 4096) { /* one corrupted row, every row checked */
      y[1234] += 1.0;
      t_dev_free(dy);
      dy = (double *)t_to_dev(y, n * 8);
      T_OK(strata_h2_sampled_error(T_exec, A, 1, dx, dy, n, 7, &err));
      assert_true(err > 1e-3);
    }
    memset(y, 0, n * 8); /* a result forced to zero */
    t_dev_free(dy);
    dy = (double *)t_to_dev(y, n * 8);
    T_OK(strata_h2_sampled_error(T_exec, A, 1, dx, dy, 100, 7, &err));
    assert_true(fabs(err - 1.0) < 1e-15);
    y[0] = NAN;
    t_dev_free(dy);
    dy = (double *)t_to_dev(y, n * 8);
    T_OK(strata_h2_sampled_error(T_exec, A, 1, dx, dy, n, 7, &err));
    assert_true(isnan(err));
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y);
    free(r);
    T_OK(strata_h2_destroy(&A));
    strata_points_destroy(&P);
  }
}

/* E1: β = 0 does not read Y (poisoned with NaN by h2_apply) */
static void test_beta_zero(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 500, T_seed + 11, &P));
  strata_h2_options_t o = opts_of(2, 16, 4, 1.0, STRATA_H2_EXP, 0.3);
  double *x = random_x(500), *y = (double *)t_malloc(500 * 8);
  h2_apply(T_exec, P, &o, 1, 2.0, x, 0.0, NULL, y);
  for (int i = 0; i < 500; ++i) assert_true(isfinite(y[i]));
  free(x);
  free(y);
  strata_points_destroy(&P);
}

/* ------------------------------------------------------------------ bad input */

static void test_bad_input(void **state) {
  (void)state;
  strata_points_t *P = NULL;
  double c[6] = {0, 0, 1, NAN, 2, 2};
  t_expect_msg(strata_points_create(2, 3, c, &P), STRATA_ERR_INVALID_DATA, "point 1", "nan");
  c[3] = INFINITY;
  t_expect_msg(strata_points_create(2, 3, c, &P), STRATA_ERR_INVALID_DATA, "point 1", "inf");
  t_expect_msg(strata_points_create(4, 1, c, &P), STRATA_ERR_INVALID_ARGUMENT, "dim = 4", "2 or 3");
  t_expect_msg(strata_points_create_random(2, -1, 1, &P), STRATA_ERR_INVALID_ARGUMENT, "n = -1", NULL);
  assert_null(P);
  T_OK(strata_points_create_random(2, 100, 1, &P));
  strata_h2_options_t o;
  strata_h2_matrix_t *A = NULL;
  o = opts_of(2, 0, 4, 1.0, STRATA_H2_EXP, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "leaf = 0", ">= 1");
  o = opts_of(2, 8, 4, 0.0, STRATA_H2_EXP, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "eta = 0", "> 0");
  o = opts_of(2, 8, 4, NAN, STRATA_H2_EXP, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "eta = nan", "> 0");
  o = opts_of(2, 8, 0, 1.0, STRATA_H2_EXP, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "cheb = 0", "[1, 16]");
  o = opts_of(2, 8, 17, 1.0, STRATA_H2_EXP, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "cheb = 17", "[1, 16]");
  o = opts_of(2, 8, 4, 1.0, STRATA_H2_EXP, 0.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "length = 0", "> 0");
  o = opts_of(2, 8, 4, 1.0, STRATA_H2_GAUSS, -1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "length = -1", "> 0");
  o = opts_of(2, 8, 4, 1.0, STRATA_H2_USER, 1.0);
  t_expect_msg(strata_h2_create(T_exec, P, &o, &A), STRATA_ERR_INVALID_ARGUMENT, "USER", NULL);
  assert_null(A);
  strata_h2_tree_t *T = NULL;
  t_expect_msg(strata_h2_tree_create(P, 0, 1.0, &T), STRATA_ERR_INVALID_ARGUMENT, "leaf = 0", NULL);
  t_expect_msg(strata_h2_tree_create(P, 4, -2.0, &T), STRATA_ERR_INVALID_ARGUMENT, "eta = -2", NULL);
  o = opts_of(2, 8, 4, 1.0, STRATA_H2_EXP, 1.0);
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  double *d = (double *)t_dev_alloc(100 * 8);
  t_expect_msg(strata_h2_matvec(T_exec, A, -1, 1.0, d, 100, 0.0, d, 100), STRATA_ERR_INVALID_ARGUMENT, "nv = -1", NULL);
  t_expect_msg(strata_h2_matvec(T_exec, A, 1, 1.0, d, 99, 0.0, d, 100), STRATA_ERR_INVALID_ARGUMENT, "ldx = 99", "n = 100");
  t_expect_msg(strata_h2_matvec(T_exec, A, 1, NAN, d, 100, 0.0, d, 100), STRATA_ERR_INVALID_ARGUMENT, "alpha = nan", NULL);
  T_OK(strata_h2_matvec(T_exec, A, 0, 1.0, NULL, 100, 0.0, NULL, 100)); /* nv = 0: nothing */
  if (T_exec != T_serial)
    t_expect_msg(strata_h2_matvec(T_serial, A, 1, 1.0, d, 100, 0.0, d, 100), STRATA_ERR_INVALID_ARGUMENT, "backend", NULL);
  t_dev_free(d);
  T_OK(strata_h2_destroy(&A));
  strata_points_destroy(&P);
  /* files of the wrong shape */
  const char *f1 = "hmatrix_bad_shape.mtx", *f2 = "hmatrix_coord.mtx", *f3 = "hmatrix_nan.mtx", *f4 = "hmatrix_ok.mtx";
  FILE *f = fopen(f1, "w");
  fprintf(f, "%%%%MatrixMarket matrix array real general\n2 4\n1\n2\n3\n4\n5\n6\n7\n8\n");
  fclose(f);
  t_expect_msg(strata_points_read(f1, &P), STRATA_ERR_INVALID_DATA, "2 x 4", "d = 2 or 3");
  f = fopen(f2, "w");
  fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n");
  fclose(f);
  t_expect_msg(strata_points_read(f2, &P), STRATA_ERR_INVALID_DATA, "coordinate", NULL);
  f = fopen(f3, "w");
  fprintf(f, "%%%%MatrixMarket matrix array real general\n3 2\n1\n2\nnan\n4\n5\n6\n");
  fclose(f);
  t_expect_msg(strata_points_read(f3, &P), STRATA_ERR_INVALID_DATA, "point 2", "coordinate 0");
  /* the write / read round trip */
  T_OK(strata_points_create_random(3, 7, 3, &P));
  T_OK(strata_points_write(f4, P));
  strata_points_t *Q;
  T_OK(strata_points_read(f4, &Q));
  assert_int_equal(Q->n, 7);
  assert_int_equal(Q->dim, 3);
  assert_memory_equal(P->coords, Q->coords, 21 * sizeof(double));
  strata_points_destroy(&P);
  strata_points_destroy(&Q);
  remove(f1);
  remove(f2);
  remove(f3);
  remove(f4);
}

/* ------------------------------------------------------------------ compression (strata_h2_compress) */

/* y = A x on exec (host arrays) */
static void apply_one(strata_exec_t *exec, const strata_h2_matrix_t *A, int64_t n, const double *x, double *y) {
  const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double);
  double *dx, *dy;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dx));
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dy));
  T_OK(strata_mem_set_async(exec, dy, 0xFF, bytes));
  if (n > 0) T_OK(strata_mem_copy(exec, dx, x, (size_t)n * sizeof(double)));
  T_OK(strata_h2_matvec(exec, A, 1, 1.0, dx, n, 0.0, dy, n));
  if (n > 0) T_OK(strata_mem_copy(exec, y, dy, (size_t)n * sizeof(double)));
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dx);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dy);
}

static void print_ranks(const char *what, const strata_h2_compress_info_t *ci) {
  char b[512];
  int o = 0;
  for (int l = 0; l < ci->levels && l < 64 && o < 480; ++l)
    o += snprintf(b + o, sizeof b - (size_t)o, " %d->%d", (int)ci->rank_before[l], (int)ci->rank_after[l]);
  print_message("%s: eps %.0e, ranks%s, |A|_F %.4e, tol %.3e\n", what, ci->eps, b, ci->norm_estimate, ci->node_tol);
}

/* builds A on exec, its error before, compresses to eps, its error after (both against the dense
 * product of one random vector with the reference kernel kind, len, times scale); returns the
 * error after, ci filled */
static double compress_error_ref(strata_exec_t *exec, const strata_points_t *P, const strata_h2_options_t *o, int kind,
                                 double len, double scale, double eps, double *err_before, strata_h2_compress_info_t *ci) {
  const int64_t n = P->n;
  double *x = random_x(n), *y = (double *)t_malloc((size_t)(n + 1) * 8), *r = (double *)t_malloc((size_t)(n + 1) * 8);
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(exec, P, o, &A));
  dense_product(P, kind, len, 1, x, r);
  for (int64_t i = 0; i < n; ++i) r[i] *= scale;
  apply_one(exec, A, n, x, y);
  if (err_before) *err_before = rel_fro(n, y, r);
  T_OK(strata_h2_compress(exec, A, eps, ci));
  strata_h2_compress_info_t c2;
  T_OK(strata_h2_get_compress_info(A, &c2));
  assert_true(c2.eps == eps && c2.rank_after[c2.levels - 1] == ci->rank_after[ci->levels - 1]);
  apply_one(exec, A, n, x, y);
  const double e = rel_fro(n, y, r);
  T_OK(strata_h2_destroy(&A));
  free(x);
  free(y);
  free(r);
  return e;
}

static double compress_error(strata_exec_t *exec, const strata_points_t *P, const strata_h2_options_t *o, double eps,
                             double *err_before, strata_h2_compress_info_t *ci) {
  return compress_error_ref(exec, P, o, o->kernel, o->length, 1.0, eps, err_before, ci);
}

/* ------------------------------------------------------------------ compression: accuracy and ranks */

static void expect_compress(strata_points_t *P, const strata_h2_options_t *o, double eps, const char *what) {
  double e0 = 0.0;
  strata_h2_compress_info_t ci;
  const double e = compress_error(T_exec, P, o, eps, &e0, &ci);
  print_ranks(what, &ci);
  print_message("%s: n %lld, error before %.3e, after %.3e, %.3g s, %.3g GFLOP\n", what, (long long)P->n, e0, e,
                ci.seconds, ci.flops * 1e-9);
  /* the bound is eps in the Frobenius norm on top of the construction's error */
  EXPECT_ERR_BELOW(e, 3.0 * eps + 2.0 * e0, what);
  for (int l = 0; l < ci.levels; ++l) assert_true(ci.rank_after[l] <= ci.rank_before[l]);
  assert_true(ci.bytes_lowrank_after <= ci.bytes_lowrank_before);
  assert_true(ci.norm_estimate > 0.0 && ci.flops > 0.0);
}

static void test_compress_2d_random(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 4000, T_seed, &P));
  strata_h2_options_t o = opts_of(2, 64, 8, 1.0, STRATA_H2_EXP, 0.2);
  expect_compress(P, &o, 1e-4, "2D random, exp");
  o.kernel = STRATA_H2_GAUSS;
  expect_compress(P, &o, 1e-6, "2D random, gauss");
  strata_points_destroy(&P);
}

static void test_compress_3d_grid(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_grid(3, 4096, &P));
  strata_h2_options_t o = opts_of(3, 64, 4, 0.9, STRATA_H2_EXP, 0.5);
  expect_compress(P, &o, 1e-3, "3D grid, exp");
  strata_points_destroy(&P);
}

static int rank_sum(const strata_h2_compress_info_t *ci) {
  int s = 0;
  for (int l = 0; l < ci->levels; ++l) s += ci->rank_after[l];
  return s;
}

static void test_compress_ranks_fall(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 3000, T_seed + 1, &P));
  strata_h2_options_t o = opts_of(2, 32, 8, 1.0, STRATA_H2_EXP, 0.3);
  strata_h2_compress_info_t c6, c2;
  double e0;
  const double e6 = compress_error(T_exec, P, &o, 1e-6, &e0, &c6);
  const double e2 = compress_error(T_exec, P, &o, 1e-2, NULL, &c2);
  print_ranks("eps 1e-6", &c6);
  print_ranks("eps 1e-2", &c2);
  print_message("errors: before %.3e, eps 1e-6 %.3e, eps 1e-2 %.3e\n", e0, e6, e2);
  for (int l = 0; l < c6.levels; ++l) assert_true(c2.rank_after[l] <= c6.rank_after[l]);
  if (!(rank_sum(&c2) < rank_sum(&c6))) fail_msg("ranks at eps 1e-2 (sum %d) not below those at 1e-6 (sum %d)", rank_sum(&c2), rank_sum(&c6));
  if (!(c2.rank_after[c2.levels - 1] < 64)) fail_msg("leaf rank %d at eps 1e-2 not below the construction's 64", (int)c2.rank_after[c2.levels - 1]);
  EXPECT_ERR_BELOW(e2, 3e-2, "eps 1e-2");
  EXPECT_ERR_BELOW(e6, 3e-6 + 2.0 * e0, "eps 1e-6");
  if (!(e2 > e6)) fail_msg("error at eps 1e-2 (%.3e) not above that at 1e-6 (%.3e)", e2, e6);
  strata_points_destroy(&P);
}

/* G = QᵀQ of the K columns of Q (rows x K, element (i, j) at q[i·rs + j·cs]) is diag(1..1, 0..0)
 * to tol, the ones first; returns the number of ones */
static int expect_orthonormal(const double *q, int64_t rows, int K, int64_t rs, int64_t cs, double tol, const char *what) {
  int ones = 0;
  for (int j = 0; j < K; ++j)
    for (int jj = 0; jj < K; ++jj) {
      double g = 0.0;
      for (int64_t i = 0; i < rows; ++i) g += q[i * rs + j * cs] * q[i * rs + jj * cs];
      if (j == jj && g > 0.5) {
        if (j != ones) fail_msg("%s: column %d of norm 1 after a zero column", what, j);
        ++ones;
      }
      const double want = j == jj && g > 0.5 ? 1.0 : 0.0;
      if (!(fabs(g - want) <= tol)) fail_msg("%s: (QᵀQ)(%d, %d) = %.17g, expected %g", what, j, jj, g, want);
    }
  return ones;
}

static void test_compress_orthonormal(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 3000, T_seed + 2, &P));
  strata_h2_options_t o = opts_of(2, 32, 6, 1.0, STRATA_H2_EXP, 0.3);
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  strata_h2_compress_info_t ci;
  T_OK(strata_h2_compress(T_exec, A, 1e-5, &ci));
  const strata_h2_tree_t *T;
  T_OK(strata_h2_get_tree(A, &T));
  const int K = A->k;
  double *U = (double *)t_malloc((size_t)(T->n * K) * 8), *E = (double *)t_malloc((size_t)((T->num_nodes - 1) * K * K) * 8);
  T_OK(strata_mem_copy(T_exec, U, A->U, (size_t)(T->n * K) * 8));
  T_OK(strata_mem_copy(T_exec, E, A->E, (size_t)((T->num_nodes - 1) * K * K) * 8));
  const int L = T->depth;
  int maxr = 0;
  for (int64_t i = 0; i < T->num_leaves; ++i) { /* every leaf basis: m x K column-major */
    const int64_t g = T->num_leaves - 1 + i, b = T->node_begin[g], m = T->node_end[g] - b;
    const int r = expect_orthonormal(U + b * K, m, K, 1, m, 1e-12, "leaf basis");
    if (r > maxr) maxr = r;
  }
  if (maxr != ci.rank_after[L]) fail_msg("leaf level: %d orthonormal columns at most, info says rank %d", maxr, (int)ci.rank_after[L]);
  /* the transfer level above the leaves: [E_c1; E_c2] (rows α of the children, columns β) */
  maxr = 0;
  for (int64_t pnode = ((int64_t)1 << (L - 1)) - 1; pnode < ((int64_t)2 << (L - 1)) - 1; ++pnode) {
    double *st = (double *)t_malloc((size_t)(2 * K * K) * 8);
    for (int c = 0; c < 2; ++c)
      for (int al = 0; al < K; ++al)
        for (int be = 0; be < K; ++be) st[(c * K + al) * K + be] = E[(2 * pnode + 1 + c - 1) * K * K + al * K + be];
    const int r = expect_orthonormal(st, 2 * K, K, K, 1, 1e-12, "transfer level");
    if (r > maxr) maxr = r;
    free(st);
  }
  if (maxr != ci.rank_after[L - 1]) fail_msg("level %d: %d orthonormal columns at most, info says %d", L - 1, maxr, (int)ci.rank_after[L - 1]);
  free(U);
  free(E);
  T_OK(strata_h2_destroy(&A));
  strata_points_destroy(&P);
}

/* ------------------------------------------------------------------ compression: backends, degenerate sets */

static void test_compress_backend_equals_serial(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(3, 3000, T_seed + 3, &P));
  strata_h2_options_t o = opts_of(3, 32, 4, 1.0, STRATA_H2_GAUSS, 0.4);
  const int64_t n = P->n;
  double *x = random_x(n), *yb = (double *)t_malloc((size_t)n * 8), *ys = (double *)t_malloc((size_t)n * 8);
  strata_h2_matrix_t *Ab = NULL, *As = NULL;
  strata_h2_compress_info_t cb, cs;
  T_OK(strata_h2_create(T_exec, P, &o, &Ab));
  T_OK(strata_h2_create(T_serial, P, &o, &As));
  T_OK(strata_h2_compress(T_exec, Ab, 1e-4, &cb));
  T_OK(strata_h2_compress(T_serial, As, 1e-4, &cs));
  for (int l = 0; l < cb.levels; ++l)
    if (cb.rank_after[l] != cs.rank_after[l]) fail_msg("level %d: rank %d here, %d on serial", l, (int)cb.rank_after[l], (int)cs.rank_after[l]);
  apply_one(T_exec, Ab, n, x, yb);
  apply_one(T_serial, As, n, x, ys);
  double m = 0.0, d = 0.0;
  for (int64_t e = 0; e < n; ++e) {
    m = fmax(m, fabs(ys[e]));
    d = fmax(d, fabs(yb[e] - ys[e]));
  }
  if (!(d <= 1e-12 * m)) fail_msg("compressed, backend vs serial: max difference %.3e, max |y| %.3e", d, m);
  T_OK(strata_h2_destroy(&Ab));
  T_OK(strata_h2_destroy(&As));
  free(x);
  free(yb);
  free(ys);
  strata_points_destroy(&P);
}

static void expect_compress_degenerate(strata_points_t *P, int leaf, double tol, const char *what) {
  strata_h2_options_t o = opts_of(P->dim, leaf, 6, 1.0, STRATA_H2_EXP, 0.5);
  double e0 = 0.0;
  strata_h2_compress_info_t ci;
  const double e = compress_error(T_exec, P, &o, 1e-5, &e0, &ci);
  print_message("%s: n %lld, error before %.3e, after %.3e\n", what, (long long)P->n, e0, e);
  EXPECT_ERR_BELOW(e, tol + 2.0 * e0, what);
  strata_points_destroy(&P);
}

static void test_compress_degenerate(void **state) {
  (void)state;
  strata_points_t *P;
  /* duplicates: 1200 distinct points, each three times */
  {
    strata_points_t *Q;
    T_OK(strata_points_create_random(2, 1200, T_seed + 4, &Q));
    double *c = (double *)t_malloc(3600 * 2 * 8);
    for (int i = 0; i < 3600; ++i) {
      c[2 * i] = Q->coords[2 * (i % 1200)];
      c[2 * i + 1] = Q->coords[2 * (i % 1200) + 1];
    }
    T_OK(strata_points_create(2, 3600, c, &P));
    free(c);
    strata_points_destroy(&Q);
    expect_compress_degenerate(P, 32, 3e-5, "duplicates");
  }
  /* all points equal: every block dense, nothing to compress */
  {
    double *c = (double *)t_malloc(300 * 3 * 8);
    for (int i = 0; i < 900; ++i) c[i] = 0.25;
    T_OK(strata_points_create(3, 300, c, &P));
    free(c);
    expect_compress_degenerate(P, 16, 1e-13, "all points equal");
  }
  /* n below the leaf size */
  T_OK(strata_points_create_random(2, 40, T_seed + 5, &P));
  expect_compress_degenerate(P, 64, 1e-13, "n below leaf");
  /* collinear in 2D, n not a multiple of the leaf */
  {
    double *c = (double *)t_malloc(2001 * 2 * 8);
    for (int i = 0; i < 2001; ++i) {
      c[2 * i] = i / 2000.0;
      c[2 * i + 1] = 0.5 * i / 2000.0;
    }
    T_OK(strata_points_create(2, 2001, c, &P));
    free(c);
    expect_compress_degenerate(P, 30, 3e-5, "collinear");
  }
  /* leaves of fewer points than the rank (leaf 8 < k = 36): per-node ranks */
  T_OK(strata_points_create_random(2, 1000, T_seed + 6, &P));
  expect_compress_degenerate(P, 8, 3e-5, "leaves below the rank");
}

static void test_compress_again_large_eps(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 2000, T_seed + 7, &P));
  strata_h2_options_t o = opts_of(2, 32, 6, 1.0, STRATA_H2_EXP, 0.3);
  const int64_t n = P->n;
  double *x = random_x(n), *y = (double *)t_malloc((size_t)n * 8), *r = (double *)t_malloc((size_t)n * 8);
  dense_product(P, o.kernel, o.length, 1, x, r);
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  strata_h2_compress_info_t c1, c2, c3;
  T_OK(strata_h2_compress(T_exec, A, 1e-4, &c1));
  T_OK(strata_h2_compress(T_exec, A, 1e-4, &c2)); /* again: ranks do not grow */
  for (int l = 0; l < c1.levels; ++l) {
    assert_int_equal(c2.rank_before[l], c1.rank_after[l]);
    assert_true(c2.rank_after[l] <= c1.rank_after[l]);
  }
  apply_one(T_exec, A, n, x, y);
  EXPECT_ERR_BELOW(rel_fro(n, y, r), 6e-4, "recompressed");
  T_OK(strata_h2_compress(T_exec, A, 10.0, &c3)); /* eps >= 1: allowed, the low-rank part may go */
  print_ranks("eps 10", &c3);
  apply_one(T_exec, A, n, x, y);
  const double e = rel_fro(n, y, r);
  print_message("eps 10: error %.3e\n", e);
  EXPECT_ERR_BELOW(e, 10.0, "eps 10");
  T_OK(strata_h2_destroy(&A));
  free(x);
  free(y);
  free(r);
  strata_points_destroy(&P);
}

/* EDGE_CASES Q6: K and 10^6·K (exp(-r), 4096 points in 2D, a user kernel) at relative tolerance
 * 1e-6: the same ranks, the errors within the bound */
static void test_compress_user_kernels(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 4096, T_seed + 10, &P));
  strata_h2_user_kernel_t uk;
  STRATA_H2_USER_KERNEL_INIT(&uk, t_h2_scaled);
  strata_h2_options_t o = opts_of(2, 64, 8, 1.0, STRATA_H2_USER, 1.0);
  o.user = &uk;
  strata_h2_compress_info_t c1, c6;
  double e0;
  uk.params[0] = 1.0;
  const double ea = compress_error_ref(T_exec, P, &o, STRATA_H2_EXP, 1.0, 1.0, 1e-6, &e0, &c1);
  uk.params[0] = 1e6;
  double e0b;
  const double eb = compress_error_ref(T_exec, P, &o, STRATA_H2_EXP, 1.0, 1e6, 1e-6, &e0b, &c6);
  print_ranks("K", &c1);
  print_ranks("1e6 K", &c6);
  print_message("K: error before %.3e, after %.3e; 1e6 K: before %.3e, after %.3e\n", e0, ea, e0b, eb);
  for (int l = 0; l < c1.levels; ++l)
    if (c1.rank_after[l] != c6.rank_after[l]) fail_msg("level %d: rank %d for K, %d for 1e6 K", l, (int)c1.rank_after[l], (int)c6.rank_after[l]);
  EXPECT_ERR_BELOW(ea, 3e-6 + 2.0 * e0, "K, compressed");
  EXPECT_ERR_BELOW(eb, 3e-6 + 2.0 * e0b, "1e6 K, compressed");
  assert_true(fabs(c6.norm_estimate / c1.norm_estimate - 1e6) <= 1e-6 * 1e6);
  strata_points_destroy(&P);
}

/* the contract's bound itself: with H the H² matrix as built and C compressed (both formed densely
 * by products with the identity), ‖C − H‖_F <= eps·‖H‖_F, and the norm estimate is ‖H‖_F */
static void test_compress_frobenius_bound(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 1200, T_seed + 11, &P));
  const int64_t n = P->n;
  const size_t bytes = (size_t)(n * n) * sizeof(double);
  double *I = (double *)t_malloc(bytes), *H = (double *)t_malloc(bytes), *C = (double *)t_malloc(bytes);
  memset(I, 0, bytes);
  for (int64_t i = 0; i < n; ++i) I[i + i * n] = 1.0;
  const double epss[2] = {1e-2, 1e-6};
  for (int q = 0; q < 2; ++q) {
    strata_h2_options_t o = opts_of(2, 32, 6, 1.0, STRATA_H2_EXP, 0.3);
    h2_apply(T_exec, P, &o, (int)n, 1.0, I, 0.0, NULL, H);
    strata_h2_matrix_t *A = NULL;
    T_OK(strata_h2_create(T_exec, P, &o, &A));
    strata_h2_compress_info_t ci;
    T_OK(strata_h2_compress(T_exec, A, epss[q], &ci));
    double *dI, *dC;
    T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, bytes, (void **)&dI));
    T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, bytes, (void **)&dC));
    T_OK(strata_mem_copy(T_exec, dI, I, bytes));
    T_OK(strata_h2_matvec(T_exec, A, (int)n, 1.0, dI, n, 0.0, dC, n));
    T_OK(strata_mem_copy(T_exec, C, dC, bytes));
    strata_mem_free(T_exec, STRATA_MEM_DEVICE, (void **)&dI);
    strata_mem_free(T_exec, STRATA_MEM_DEVICE, (void **)&dC);
    T_OK(strata_h2_destroy(&A));
    double hn = 0.0, dn = 0.0;
    for (int64_t e = 0; e < n * n; ++e) {
      hn += H[e] * H[e];
      dn += (C[e] - H[e]) * (C[e] - H[e]);
    }
    hn = sqrt(hn);
    dn = sqrt(dn);
    print_ranks("Frobenius bound", &ci);
    print_message("eps %.0e: |C - H|_F / |H|_F = %.3e, norm estimate / |H|_F - 1 = %.2e\n", epss[q], dn / hn, ci.norm_estimate / hn - 1.0);
    if (!(dn <= epss[q] * hn)) fail_msg("eps %.0e: |C - H|_F = %.6e above eps |H|_F = %.6e", epss[q], dn, epss[q] * hn);
    if (!(fabs(ci.norm_estimate - hn) <= 1e-10 * hn)) fail_msg("norm estimate %.17g, |H|_F %.17g", ci.norm_estimate, hn);
  }
  free(I);
  free(H);
  free(C);
  strata_points_destroy(&P);
}

static void test_compress_bad_eps(void **state) {
  (void)state;
  strata_points_t *P;
  T_OK(strata_points_create_random(2, 500, T_seed, &P));
  strata_h2_options_t o = opts_of(2, 32, 4, 1.0, STRATA_H2_EXP, 0.3);
  strata_h2_matrix_t *A = NULL;
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  const double bad[] = {0.0, -1e-3, NAN, INFINITY};
  for (int q = 0; q < 4; ++q) {
    T_ERR(strata_h2_compress(T_exec, A, bad[q], NULL), STRATA_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(strata_error_message(), "eps = "));
  }
  T_ERR(strata_h2_compress(NULL, A, 1e-3, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_h2_compress(T_exec, NULL, 1e-3, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_h2_get_compress_info(A, NULL), STRATA_ERR_INVALID_ARGUMENT);
  strata_h2_compress_info_t ci;
  T_OK(strata_h2_get_compress_info(A, &ci));
  assert_true(ci.eps == 0.0); /* never compressed */
  T_OK(strata_h2_destroy(&A));
  /* a rank above the limit 512: 3D p = 9, k = 729 (refused even with nothing to compress) */
  strata_points_destroy(&P);
  T_OK(strata_points_create_random(3, 20, T_seed, &P));
  o = opts_of(3, 32, 9, 1.0, STRATA_H2_EXP, 0.3);
  T_OK(strata_h2_create(T_exec, P, &o, &A));
  T_ERR(strata_h2_compress(T_exec, A, 1e-3, NULL), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "729"));
  T_OK(strata_h2_destroy(&A));
  strata_points_destroy(&P);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_dense_2d_random, t_setup),
      cmocka_unit_test_setup(test_dense_grids, t_setup),
      cmocka_unit_test_setup(test_error_falls_with_p, t_setup),
      cmocka_unit_test_setup(test_backend_equals_serial, t_setup),
      cmocka_unit_test_setup(test_dense_map, t_setup),
      cmocka_unit_test_setup(test_multivector, t_setup),
      cmocka_unit_test_setup(test_overlap_same_bits, t_setup),
      cmocka_unit_test_setup(test_symmetric, t_setup),
      cmocka_unit_test_setup(test_points, t_setup),
      cmocka_unit_test_setup(test_tree_structure, t_setup),
      cmocka_unit_test_setup(test_duplicates, t_setup),
      cmocka_unit_test_setup(test_collinear_coplanar, t_setup),
      cmocka_unit_test_setup(test_leaf_sizes, t_setup),
      cmocka_unit_test_setup(test_all_dense, t_setup),
      cmocka_unit_test_setup(test_all_dense_launches, t_setup),
      cmocka_unit_test_setup(test_nonsymmetric_kernel, t_setup),
      cmocka_unit_test_setup(test_scaled_points, t_setup),
      cmocka_unit_test_setup(test_sampled_error, t_setup),
      cmocka_unit_test_setup(test_beta_zero, t_setup),
      cmocka_unit_test_setup(test_bad_input, t_setup),
      cmocka_unit_test_setup(test_compress_2d_random, t_setup),
      cmocka_unit_test_setup(test_compress_3d_grid, t_setup),
      cmocka_unit_test_setup(test_compress_ranks_fall, t_setup),
      cmocka_unit_test_setup(test_compress_orthonormal, t_setup),
      cmocka_unit_test_setup(test_compress_backend_equals_serial, t_setup),
      cmocka_unit_test_setup(test_compress_degenerate, t_setup),
      cmocka_unit_test_setup(test_compress_again_large_eps, t_setup),
      cmocka_unit_test_setup(test_compress_user_kernels, t_setup),
      cmocka_unit_test_setup(test_compress_frobenius_bound, t_setup),
      cmocka_unit_test_setup(test_compress_bad_eps, t_setup),
  };
  return T_RUN("hmatrix", tests);
}
