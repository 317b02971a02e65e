/* strata tests — ILU(k) (strata/ilu.h): the pattern for k = 0..3 against a host reference (a dense
 * work row per row, written apart from the library's linked-list symbolic phase), the factors'
 * values against a host IKJ, EDGE_CASES S10–S13 exactly, a small case by hand, Poisson 2D / 3D,
 * random unsorted matrices, the serial backend as oracle, level counts, solves, refactor,
 * Chow–Patel, the diagonal shift, n = 0 and bad input. strata_precond_create_ilu is not tested
 * here (the generic preconditioner layer lands separately). */
#include "test_common.h"

#include "strata/solvers.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"
#include "ilu_impl.h"

/* ------------------------------------------------------------------ host reference */

/* ILU(K) of h (rows with sorted unique columns, every diagonal present): pattern and values, the
 * diagonal shifted by shift·|a_ii|. */
static host_crs_t ref_ilu(const host_crs_t *h, int K, double shift) {
  const int32_t n = h->nr;
  const int BIG = 1 << 29;
  int *w = (int *)t_malloc(sizeof(int) * (size_t)n);
  double *val = (double *)t_malloc(sizeof(double) * (size_t)n);
  int64_t cap = h->nnz + 16;
  host_crs_t f = hc_new(n, n, cap);
  int *flev = (int *)t_malloc(sizeof(int) * (size_t)cap);
  int64_t *dpos = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)n);
  for (int32_t j = 0; j < n; ++j) w[j] = BIG;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) val[j] = 0.0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      w[h->ci[k]] = 0;
      val[h->ci[k]] = h->v[k];
    }
    val[i] += shift * fabs(val[i]);
    /* levels: k ascending over the dense row */
    for (int32_t k = 0; k < i; ++k) {
      if (w[k] > K) continue;
      for (int64_t q = dpos[k] + 1; q < f.ro[k + 1]; ++q) {
        const int nl = w[k] + flev[q] + 1;
        if (nl < w[f.ci[q]]) w[f.ci[q]] = nl;
      }
    }
    /* values: IKJ on the kept pattern */
    for (int32_t k = 0; k < i; ++k) {
      if (w[k] > K) continue;
      val[k] /= f.v[dpos[k]];
      for (int64_t q = dpos[k] + 1; q < f.ro[k + 1]; ++q)
        if (w[f.ci[q]] <= K) val[f.ci[q]] -= val[k] * f.v[q];
    }
    for (int32_t j = 0; j < n; ++j) {
      if (w[j] > K) continue;
      if (f.nnz == cap) {
        cap *= 2;
        f.ci = (int32_t *)realloc(f.ci, sizeof(int32_t) * (size_t)cap);
        f.v = (double *)realloc(f.v, sizeof(double) * (size_t)cap);
        flev = (int *)realloc(flev, sizeof(int) * (size_t)cap);
      }
      if (j == i) dpos[i] = f.nnz;
      flev[f.nnz] = w[j];
      hc_push(&f, j, val[j]);
      w[j] = BIG;
    }
    f.ro[i + 1] = f.nnz;
  }
  free(w);
  free(val);
  free(flev);
  free(dpos);
  return f;
}

/* Levels of the lower (or upper) triangle of a host pattern: 1 + the deepest dependency. */
static int32_t ref_levels(const host_crs_t *h, int lower) {
  int32_t *lev = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(h->nr + 1)), m = 0;
  for (int32_t q = 0; q < h->nr; ++q) {
    const int32_t i = lower ? q : h->nr - 1 - q;
    int32_t l = 0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      const int32_t j = h->ci[k];
      if ((lower ? j < i : j > i) && lev[j] + 1 > l) l = lev[j] + 1;
    }
    lev[i] = l;
    if (l + 1 > m) m = l + 1;
  }
  free(lev);
  return m;
}

/* A sorted copy of a host CSR (rows sorted by column; no duplicates expected). */
static host_crs_t hc_sorted(const host_crs_t *h) {
  host_crs_t s = hc_new(h->nr, h->nc, h->nnz);
  for (int32_t i = 0; i < h->nr; ++i) {
    const int64_t b = s.nnz;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      int64_t q = s.nnz;
      hc_push(&s, h->ci[k], h->v[k]);
      for (; q > b && s.ci[q - 1] > s.ci[q]; --q) {
        const int32_t c = s.ci[q];
        const double v = s.v[q];
        s.ci[q] = s.ci[q - 1];
        s.v[q] = s.v[q - 1];
        s.ci[q - 1] = c;
        s.v[q - 1] = v;
      }
    }
    s.ro[i + 1] = s.nnz;
  }
  return s;
}

static void expect_factors(const char *what, const host_crs_t *want, const host_crs_t *got, double tol) {
  if (want->nnz != got->nnz) fail_msg("%s: %lld entries in the factors, expected %lld", what, (long long)got->nnz, (long long)want->nnz);
  for (int32_t i = 0; i <= want->nr; ++i)
    if (want->ro[i] != got->ro[i])
      fail_msg("%s: row_offsets[%d] = %lld, expected %lld", what, i, (long long)got->ro[i], (long long)want->ro[i]);
  for (int64_t k = 0; k < want->nnz; ++k) {
    if (want->ci[k] != got->ci[k]) fail_msg("%s: entry %lld in column %d, expected %d", what, (long long)k, got->ci[k], want->ci[k]);
    if (!(fabs(got->v[k] - want->v[k]) <= tol * (fabs(want->v[k]) > 1.0 ? fabs(want->v[k]) : 1.0)))
      fail_msg("%s: entry %lld (col %d) = %.17g, expected %.17g (seed %llu)", what, (long long)k, got->ci[k], got->v[k],
               want->v[k], (unsigned long long)T_seed);
  }
}

static strata_ilu_options_t ilu_opts(int K) {
  strata_ilu_options_t o;
  strata_ilu_options_default(&o);
  o.fill_level = K;
  return o;
}

/* Factors h on exec with o; *F kept when F != NULL; returns the factors on the host. */
static host_crs_t factor_on(strata_exec_t *exec, const host_crs_t *h, const strata_ilu_options_t *o,
                            strata_precond_stats_t *stats) {
  strata_crs_matrix_t *A = hc_on(exec, h);
  strata_ilu_t *F = NULL;
  T_OK(strata_ilu_create(exec, A, o, &F));
  const strata_crs_matrix_t *LU = NULL;
  T_OK(strata_ilu_factors(F, &LU));
  assert_int_equal(LU->fill_complete, 1);
  host_crs_t got = crs_to_host(LU);
  if (stats) T_OK(strata_ilu_stats(F, stats));
  T_OK(strata_ilu_destroy(&F));
  assert_null(F);
  T_OK(strata_crs_destroy(&A));
  return got;
}

/* Factors on T_exec and serial against the reference; levels and solve checked too. */
static void check_ilu(const char *what, const host_crs_t *h, const strata_ilu_options_t *o) {
  host_crs_t hs = hc_sorted(h);
  host_crs_t want = ref_ilu(&hs, o->fill_level, o->diag_shift);
  strata_precond_stats_t st, sts;
  host_crs_t got = factor_on(T_exec, h, o, &st), ser = factor_on(T_serial, h, o, &sts);
  expect_factors(what, &want, &got, 1e-12);
  expect_factors(what, &ser, &got, strata_exec_is_host(T_exec) ? 0.0 : 1e-13);
  assert_int_equal(st.nnz, want.nnz);
  assert_int_equal(st.levels_lower, ref_levels(&want, 1));
  assert_int_equal(st.levels_upper, ref_levels(&want, 0));
  assert_int_equal(st.levels_lower, sts.levels_lower);
  /* z = U^{-1} L^{-1} r against the host solves on the reference factors */
  const int32_t n = h->nr;
  double *r = (double *)t_malloc(sizeof(double) * (size_t)n), *w = (double *)t_malloc(sizeof(double) * (size_t)n);
  double *zw = (double *)t_malloc(sizeof(double) * (size_t)n), *z = (double *)t_malloc(sizeof(double) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) r[i] = 1.0 + (i % 5) * 0.25;
  host_tri_solve(&want, 1, 1, r, w);
  host_tri_solve(&want, 0, 0, w, zw);
  strata_crs_matrix_t *A = hc_on(T_exec, h);
  strata_ilu_t *F = NULL;
  T_OK(strata_ilu_create(T_exec, A, o, &F));
  double *dr = vec_on(T_exec, r, n), *dz = vec_on(T_exec, NULL, n);
  T_OK(strata_ilu_solve(NULL, F, dr, dz));
  vec_get(T_exec, z, dz, n);
  for (int32_t i = 0; i < n; ++i)
    if (!(fabs(z[i] - zw[i]) <= 1e-12 * (fabs(zw[i]) > 1.0 ? fabs(zw[i]) : 1.0)))
      fail_msg("%s: solve z[%d] = %.17g, expected %.17g", what, i, z[i], zw[i]);
  vec_free(T_exec, dr);
  vec_free(T_exec, dz);
  T_OK(strata_ilu_destroy(&F));
  T_OK(strata_crs_destroy(&A));
  free(r);
  free(w);
  free(zw);
  free(z);
  host_crs_free(&hs);
  host_crs_free(&want);
  host_crs_free(&got);
  host_crs_free(&ser);
}

/* ------------------------------------------------------------------ S13 and the hand-checked case */

static host_crs_t arrow(int reversed) {
  const int32_t n = 6;
  double a[36];
  memset(a, 0, sizeof a);
  const int32_t hub = reversed ? n - 1 : 0;
  for (int32_t i = 0; i < n; ++i) {
    a[i * n + i] = 10.0;
    if (i != hub) a[hub * n + i] = a[i * n + hub] = -1.0;
  }
  return hc_dense(n, n, a);
}

static void test_s13_counts(void **state) {
  (void)state;
  host_crs_t p = hc_poisson(3, 3, 1), ar = arrow(0), rv = arrow(1);
  assert_int_equal(p.nnz, 33);
  const int64_t want_p[4] = {33, 41, 45, 49};
  for (int K = 0; K <= 3; ++K) {
    strata_ilu_options_t o = ilu_opts(K);
    strata_precond_stats_t st;
    host_crs_t f = factor_on(T_exec, &p, &o, &st);
    assert_int_equal(f.nnz, want_p[K]);
    assert_int_equal(st.nnz, want_p[K]);
    host_crs_free(&f);
    f = factor_on(T_exec, &ar, &o, NULL);
    assert_int_equal(f.nnz, K == 0 ? 16 : 36);
    host_crs_free(&f);
    f = factor_on(T_exec, &rv, &o, NULL);
    assert_int_equal(f.nnz, 16);
    host_crs_free(&f);
    check_ilu("poisson 3x3", &p, &o);
    check_ilu("arrow", &ar, &o);
    check_ilu("reversed arrow", &rv, &o);
  }
  host_crs_free(&p);
  host_crs_free(&ar);
  host_crs_free(&rv);
}

/* S12, checked by hand: tridiag(-1, 4, -1) 3x3, row 1 stored as columns [2, 1, 0]:
 * l10 = -1/4, u11 = 4 - 1/4 = 15/4, l21 = -4/15, u22 = 4 - 4/15 = 56/15. */
static void test_s12_by_hand(void **state) {
  (void)state;
  host_crs_t h = hc_new(3, 3, 7);
  hc_push(&h, 0, 4.0);
  hc_push(&h, 1, -1.0);
  h.ro[1] = h.nnz;
  hc_push(&h, 2, -1.0);
  hc_push(&h, 1, 4.0);
  hc_push(&h, 0, -1.0);
  h.ro[2] = h.nnz;
  hc_push(&h, 1, -1.0);
  hc_push(&h, 2, 4.0);
  h.ro[3] = h.nnz;
  const double want[7] = {4.0, -1.0, -0.25, 15.0 / 4.0, -1.0, -4.0 / 15.0, 56.0 / 15.0};
  const int32_t wcols[7] = {0, 1, 0, 1, 2, 1, 2};
  for (int alg = 0; alg < 2; ++alg) {
    strata_ilu_options_t o = ilu_opts(0);
    if (alg) {
      o.algorithm = STRATA_ILU_CHOW_PATEL;
      o.sweeps = 10;
    }
    host_crs_t f = factor_on(T_exec, &h, &o, NULL);
    assert_int_equal(f.nnz, 7);
    for (int k = 0; k < 7; ++k) {
      assert_int_equal(f.ci[k], wcols[k]);
      if (!(fabs(f.v[k] - want[k]) <= 1e-15 * fabs(want[k])))
        fail_msg("S12 (%s): entry %d = %.17g, expected %.17g", alg ? "chow-patel" : "levels", k, f.v[k], want[k]);
    }
    host_crs_free(&f);
  }
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ S10, S11: refusals */

static void test_s10_s11(void **state) {
  (void)state;
  const double a1[4] = {0, 1, 1, 0}, a2[4] = {1, 1, 1, 1}, a3[9] = {2, 1, 0, 1, 0.5, 0, 0, 0, 3};
  const double g1[4] = {2, 1, 1, 2}, g3[9] = {2, 1, 0, 1, 2, 0, 0, 0, 3};
  const struct { int32_t n; const double *bad, *good; const char *row; } cases[] = {
      {2, a1, g1, "row 0"}, {2, a2, g1, "row 1"}, {3, a3, g3, "row 1"}};
  for (int c = 0; c < 3; ++c)
    for (int K = 0; K <= 1; ++K) {
      host_crs_t hb = hc_dense(cases[c].n, cases[c].n, cases[c].bad), hg = hc_dense(cases[c].n, cases[c].n, cases[c].good);
      assert_int_equal(hb.nnz, hg.nnz);
      strata_crs_matrix_t *B = hc_on(T_exec, &hb), *G = hc_on(T_exec, &hg);
      strata_ilu_options_t o = ilu_opts(K);
      strata_ilu_t *F = NULL;
      t_expect_msg(strata_ilu_create(T_exec, B, &o, &F), STRATA_ERR_INVALID_DATA, cases[c].row, "pivot");
      assert_null(F);
      /* refactor of a good factorization with the bad values: refused the same, no Inf left */
      T_OK(strata_ilu_create(T_exec, G, &o, &F));
      t_expect_msg(strata_ilu_refactor(T_exec, F, B), STRATA_ERR_INVALID_DATA, cases[c].row, NULL);
      const strata_crs_matrix_t *LU = NULL;
      T_OK(strata_ilu_factors(F, &LU));
      host_crs_t f = crs_to_host(LU);
      for (int64_t k = 0; k < f.nnz; ++k)
        if (isinf(f.v[k])) fail_msg("S10 case %d: an Inf in the factors at entry %lld", c, (long long)k);
      double *dr = vec_on(T_exec, g1, 2), *dz = vec_on(T_exec, NULL, cases[c].n);
      t_expect_msg(strata_ilu_solve(T_exec, F, dr, dz), STRATA_ERR_INVALID_ARGUMENT, "failed", NULL);
      /* and good values again: usable */
      T_OK(strata_ilu_refactor(T_exec, F, G));
      vec_free(T_exec, dr);
      vec_free(T_exec, dz);
      host_crs_free(&f);
      T_OK(strata_ilu_destroy(&F));
      T_OK(strata_crs_destroy(&B));
      T_OK(strata_crs_destroy(&G));
      host_crs_free(&hb);
      host_crs_free(&hg);
    }
  /* S11: offsets [0, 2, 4, 6], columns [0, 1, 0, 2, 1, 2]: row 1 has no diagonal */
  host_crs_t h = hc_new(3, 3, 6);
  const int32_t cols[6] = {0, 1, 0, 2, 1, 2};
  const double vals[6] = {4, -1, -1, -1, -1, 4};
  for (int k = 0; k < 6; ++k) hc_push(&h, cols[k], vals[k]);
  h.ro[1] = 2;
  h.ro[2] = 4;
  h.ro[3] = 6;
  strata_crs_matrix_t *A = hc_on(T_exec, &h);
  for (int K = 0; K <= 3; ++K) {
    strata_ilu_options_t o = ilu_opts(K);
    strata_ilu_t *F = NULL;
    t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_DATA, "row 1", "diagonal");
    assert_null(F);
  }
  T_OK(strata_crs_destroy(&A));
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ Poisson, random */

static void test_poisson(void **state) {
  (void)state;
  static const int32_t grids[][3] = {{20, 17, 1}, {8, 7, 6}};
  for (int g = 0; g < 2; ++g) {
    host_crs_t p = hc_poisson(grids[g][0], grids[g][1], grids[g][2]);
    for (int K = 0; K <= 3; ++K) {
      char what[64];
      snprintf(what, sizeof what, "poisson %dx%dx%d, ilu(%d)", grids[g][0], grids[g][1], grids[g][2], K);
      strata_ilu_options_t o = ilu_opts(K);
      check_ilu(what, &p, &o);
    }
    /* ILU(0): the levels of A's lower triangle, nx + ny + nz - 2 */
    strata_ilu_options_t o = ilu_opts(0);
    strata_precond_stats_t st;
    host_crs_t f = factor_on(T_exec, &p, &o, &st);
    assert_int_equal(st.levels_lower, grids[g][0] + grids[g][1] + grids[g][2] - 2);
    assert_int_equal(st.levels_upper, st.levels_lower);
    assert_int_equal(st.nnz, p.nnz);
    host_crs_free(&f);
    host_crs_free(&p);
  }
}

/* random diagonally dominant unsymmetric matrices, unsorted columns, several diagonal blocks */
static host_crs_t gen_dd(uint64_t *s, int32_t n, int per_row, int32_t block) {
  host_crs_t h = hc_new(n, n, (int64_t)n * (per_row + 1));
  for (int32_t i = 0; i < n; ++i) {
    const int64_t b = h.nnz;
    const int32_t lo = i / block * block, hi = lo + block < n ? lo + block : n;
    hc_push(&h, i, (double)per_row + 1.0 + t_uniform(s));
    for (int k = 0; k < per_row; ++k) {
      const int32_t j = lo + (int32_t)(t_rand(s) % (uint64_t)(hi - lo));
      int dup = 0;
      for (int64_t q = b; q < h.nnz; ++q) dup |= h.ci[q] == j;
      if (!dup) hc_push(&h, j, t_uniform(s) - 0.5);
    }
    hc_shuffle_tail(&h, b, s);
    h.ro[i + 1] = h.nnz;
  }
  return h;
}

static void test_random(void **state) {
  (void)state;
  uint64_t s = T_seed;
  static const struct { int32_t n; int per_row; int32_t block; } sizes[] = {{1, 0, 1}, {5, 2, 5}, {60, 4, 60},
                                                                             {500, 5, 50}, {800, 3, 800}};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t)
    for (int K = 0; K <= 3; ++K) {
      host_crs_t h = gen_dd(&s, sizes[t].n, sizes[t].per_row, sizes[t].block);
      char what[64];
      snprintf(what, sizeof what, "random n %d, ilu(%d)", sizes[t].n, K);
      strata_ilu_options_t o = ilu_opts(K);
      check_ilu(what, &h, &o);
      o.diag_shift = 0.25;
      check_ilu(what, &h, &o);
      host_crs_free(&h);
    }
}

/* LEVELS by one walk of L's levels (GPUs where L's solve walks and its levels are narrow; host
 * backends by the hook): the walk is taken where every row and its update list fit the lanes'
 * registers, and its factors are the launches per level's, bit for bit on host backends; check_ilu
 * then holds them to the reference and to serial. */
static void test_walk(void **state) {
  (void)state;
  strata_impl_ilu_lists = 0;
  uint64_t s = T_seed + 7;
  host_crs_t hs[4] = {hc_poisson(20, 17, 1), hc_poisson(8, 7, 6), gen_dd(&s, 500, 5, 50), gen_dd(&s, 300, 6, 300)};
  for (int m = 0; m < 4; ++m)
    for (int K = 0; K <= 2; ++K) {
      char what[64];
      snprintf(what, sizeof what, "walk, matrix %d, ilu(%d)", m, K);
      strata_ilu_options_t o = ilu_opts(K);
      strata_impl_ilu_walk = 0;
      host_crs_t launches = factor_on(T_exec, &hs[m], &o, NULL);
      strata_impl_ilu_walk = 1;
      strata_crs_matrix_t *A = hc_on(T_exec, &hs[m]);
      strata_ilu_t *F = NULL;
      T_OK(strata_ilu_create(T_exec, A, &o, &F));
      /* on host backends (one lane, 32 slots) the walk must be taken for ILU(0) (rows of at most 7
       * entries, lists of at most 10 elements), the 2D Poisson's ILU(1) and ILU(2) (lists of at most
       * 10 and 16) and the 3D one's ILU(1) (28); the others' fill outgrows the slots */
      if ((K == 0 || m == 0 || (m == 1 && K == 1)) && strata_exec_is_host(T_exec) && F->walk_lanes == 0)
        fail_msg("%s: the walk was not taken", what);
      T_OK(strata_ilu_destroy(&F));
      T_OK(strata_crs_destroy(&A));
      host_crs_t walked = factor_on(T_exec, &hs[m], &o, NULL);
      expect_factors(what, &launches, &walked, strata_exec_is_host(T_exec) ? 0.0 : 1e-13);
      check_ilu(what, &hs[m], &o);
      strata_impl_ilu_walk = 0;
      host_crs_free(&launches);
      host_crs_free(&walked);
    }
  for (int m = 0; m < 4; ++m) host_crs_free(&hs[m]);
}

/* LEVELS's launches read update lists made at create (each pair's positions found once); with the
 * lists turned off they merge rows as before. Same arithmetic in the same order: the same bits on
 * every backend, ILU(0..2), on matrices whose rows share columns in many ways. */
static void test_update_lists(void **state) {
  (void)state;
  strata_impl_ilu_walk = 0;
  uint64_t s = T_seed + 11;
  host_crs_t hs[3] = {hc_poisson(12, 11, 5), gen_dd(&s, 400, 7, 60), gen_dd(&s, 250, 9, 250)};
  for (int m = 0; m < 3; ++m)
    for (int K = 0; K <= 2; ++K) {
      char what[64];
      snprintf(what, sizeof what, "update lists, matrix %d, ilu(%d)", m, K);
      strata_ilu_options_t o = ilu_opts(K);
      o.sptrsv = STRATA_SPTRSV_LEVELS; /* no walk: the launches are what is compared */
      strata_impl_ilu_lists = -1;
      host_crs_t merged = factor_on(T_exec, &hs[m], &o, NULL);
      strata_impl_ilu_lists = m == 0 ? 0 : 1; /* Poisson's lists fit the cap; the others at any length */
      strata_crs_matrix_t *A = hc_on(T_exec, &hs[m]);
      strata_ilu_t *F = NULL;
      T_OK(strata_ilu_create(T_exec, A, &o, &F));
      if (!F->list) fail_msg("%s: no update lists were made", what);
      T_OK(strata_ilu_destroy(&F));
      T_OK(strata_crs_destroy(&A));
      host_crs_t listed = factor_on(T_exec, &hs[m], &o, NULL);
      strata_impl_ilu_lists = 0;
      expect_factors(what, &merged, &listed, 0.0);
      check_ilu(what, &hs[m], &o);
      host_crs_free(&merged);
      host_crs_free(&listed);
    }
  for (int m = 0; m < 3; ++m) host_crs_free(&hs[m]);
}

/* ------------------------------------------------------------------ refactor, Chow–Patel, shift */

static void test_refactor(void **state) {
  (void)state;
  uint64_t s = T_seed + 3;
  host_crs_t h = gen_dd(&s, 300, 4, 300);
  for (int K = 0; K <= 2; ++K) {
    strata_ilu_options_t o = ilu_opts(K);
    strata_crs_matrix_t *A = hc_on(T_exec, &h);
    strata_ilu_t *F = NULL;
    T_OK(strata_ilu_create(T_exec, A, &o, &F));
    host_crs_t h2 = h;
    h2.v = (double *)t_malloc(sizeof(double) * (size_t)h.nnz);
    for (int64_t k = 0; k < h.nnz; ++k) h2.v[k] = h.v[k] * (1.0 + 0.1 * (double)(k % 3));
    strata_crs_matrix_t *A2 = hc_on(T_exec, &h2);
    T_OK(strata_ilu_refactor(NULL, F, A2));
    const strata_crs_matrix_t *LU = NULL;
    T_OK(strata_ilu_factors(F, &LU));
    host_crs_t got = crs_to_host(LU), fresh = factor_on(T_exec, &h2, &o, NULL);
    expect_factors("refactor", &fresh, &got, 0.0);
    /* its solves use the new values */
    check_ilu("refactored values", &h2, &o);
    /* another pattern is refused */
    host_crs_t p = hc_poisson(20, 15, 1);
    strata_crs_matrix_t *P = hc_on(T_exec, &p);
    t_expect_msg(strata_ilu_refactor(T_exec, F, P), STRATA_ERR_INVALID_ARGUMENT, "entries", NULL);
    T_OK(strata_crs_destroy(&P));
    host_crs_free(&p);
    host_crs_free(&got);
    host_crs_free(&fresh);
    free(h2.v);
    T_OK(strata_ilu_destroy(&F));
    T_OK(strata_crs_destroy(&A));
    T_OK(strata_crs_destroy(&A2));
  }
  host_crs_free(&h);
}

static void test_chow_patel(void **state) {
  (void)state;
  host_crs_t p = hc_poisson(8, 6, 1);
  for (int K = 0; K <= 2; ++K) {
    strata_ilu_options_t o = ilu_opts(K);
    host_crs_t exact = factor_on(T_exec, &p, &o, NULL);
    o.algorithm = STRATA_ILU_CHOW_PATEL;
    o.sweeps = 60; /* past the dependency depth: the fixed point, i.e. the exact factors */
    host_crs_t cp = factor_on(T_exec, &p, &o, NULL), cps = factor_on(T_serial, &p, &o, NULL);
    expect_factors("chow-patel, 60 sweeps", &exact, &cp, 1e-12);
    expect_factors("chow-patel against serial", &cps, &cp, strata_exec_is_host(T_exec) ? 0.0 : 1e-13);
    /* one sweep from the guess: u_00 = a_00, l_10 = a_10 / a_00 exactly; u_11 = a_11 - l_10 u_01 */
    o.sweeps = 1;
    host_crs_t one = factor_on(T_exec, &p, &o, NULL);
    assert_true(one.v[0] == 4.0);
    host_crs_free(&exact);
    host_crs_free(&cp);
    host_crs_free(&cps);
    host_crs_free(&one);
  }
  host_crs_free(&p);
}

static void test_diag_shift(void **state) {
  (void)state;
  /* [[1, 1], [1, 1]] with shift 0.5: u00 = 1.5, l10 = 1/1.5, u11 = 1.5 - 1/1.5 */
  const double a[4] = {1, 1, 1, 1};
  host_crs_t h = hc_dense(2, 2, a);
  strata_ilu_options_t o = ilu_opts(0);
  o.diag_shift = 0.5;
  host_crs_t f = factor_on(T_exec, &h, &o, NULL);
  assert_true(f.v[0] == 1.5);
  assert_true(f.v[1] == 1.0);
  assert_true(f.v[2] == 1.0 / 1.5);
  assert_true(f.v[3] == 1.5 - (1.0 / 1.5) * 1.0);
  host_crs_free(&f);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ n = 0, bad input */

static void test_empty(void **state) {
  (void)state;
  host_crs_t h = hc_new(0, 0, 0);
  strata_crs_matrix_t *A = hc_on(T_exec, &h);
  for (int K = 0; K <= 2; ++K) {
    strata_ilu_options_t o = ilu_opts(K);
    strata_ilu_t *F = NULL;
    T_OK(strata_ilu_create(T_exec, A, &o, &F));
    T_OK(strata_ilu_solve(T_exec, F, NULL, NULL));
    T_OK(strata_ilu_refactor(T_exec, F, A));
    strata_precond_stats_t st;
    T_OK(strata_ilu_stats(F, &st));
    assert_int_equal(st.nnz, 0);
    assert_int_equal(st.levels_lower, 0);
    assert_int_equal(st.levels_upper, 0);
    T_OK(strata_ilu_destroy(&F));
  }
  T_OK(strata_ilu_destroy(NULL));
  T_OK(strata_crs_destroy(&A));
  host_crs_free(&h);
}

static void test_bad_input(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(4, 3, 1);
  strata_crs_matrix_t *A = hc_on(T_exec, &h);
  strata_ilu_t *F = NULL;
  strata_ilu_options_t o = ilu_opts(0);
  t_expect_msg(strata_ilu_create(T_exec, A, &o, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_ilu_create(T_exec, NULL, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_ilu_create(NULL, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  o.fill_level = 65;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "65", "[0, 64]");
  o.fill_level = -1;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "-1", "[0, 64]");
  o = ilu_opts(0);
  o.sweeps = 0;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "sweeps = 0", ">= 1");
  o = ilu_opts(0);
  o.diag_shift = -1.0;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "diag_shift = -1", ">= 0");
  o.diag_shift = NAN;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "diag_shift", NULL);
  o = ilu_opts(0);
  o.algorithm = (strata_ilu_algorithm_t)5;
  t_expect_msg(strata_ilu_create(T_exec, A, &o, &F), STRATA_ERR_INVALID_ARGUMENT, "5", NULL);
  assert_null(F);
  host_crs_t r = hc_new(3, 4, 3);
  for (int32_t i = 0; i < 3; ++i) {
    hc_push(&r, i, 1.0);
    r.ro[i + 1] = r.nnz;
  }
  strata_crs_matrix_t *R = hc_on(T_exec, &r);
  t_expect_msg(strata_ilu_create(T_exec, R, NULL, &F), STRATA_ERR_INVALID_ARGUMENT, "3 x 4", NULL);
  T_OK(strata_ilu_create(T_exec, A, NULL, &F));
  t_expect_msg(strata_ilu_refactor(T_exec, NULL, A), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_ilu_refactor(T_exec, F, R), STRATA_ERR_INVALID_ARGUMENT, "3 x 4", NULL);
  double *v = vec_on(T_exec, NULL, 24);
  t_expect_msg(strata_ilu_solve(T_exec, NULL, v, v + 12), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_ilu_solve(T_exec, F, NULL, v), STRATA_ERR_INVALID_ARGUMENT, "NULL r", "12");
  t_expect_msg(strata_ilu_solve(T_exec, F, v, v + 6), STRATA_ERR_INVALID_ARGUMENT, "overlap", NULL);
  const strata_crs_matrix_t *LU = NULL;
  t_expect_msg(strata_ilu_factors(NULL, &LU), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  t_expect_msg(strata_ilu_stats(F, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  vec_free(T_exec, v);
  T_OK(strata_ilu_destroy(&F));
  T_OK(strata_crs_destroy(&R));
  T_OK(strata_crs_destroy(&A));
  host_crs_free(&r);
  host_crs_free(&h);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_s13_counts, t_setup), cmocka_unit_test_setup(test_s12_by_hand, t_setup),
      cmocka_unit_test_setup(test_s10_s11, t_setup),    cmocka_unit_test_setup(test_poisson, t_setup),
      cmocka_unit_test_setup(test_random, t_setup),     cmocka_unit_test_setup(test_walk, t_setup), cmocka_unit_test_setup(test_update_lists, t_setup),     cmocka_unit_test_setup(test_refactor, t_setup),
      cmocka_unit_test_setup(test_chow_patel, t_setup), cmocka_unit_test_setup(test_diag_shift, t_setup),
      cmocka_unit_test_setup(test_empty, t_setup),      cmocka_unit_test_setup(test_bad_input, t_setup),
  };
  return T_RUN("ilu", tests);
}
