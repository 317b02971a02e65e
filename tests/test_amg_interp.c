/* strata tests — AMG interpolation (solvers/src/amg_interp.c: strata_impl_amg_interp): direct,
 * standard and extended+i against host references written here from the formulas (dense work rows
 * per row, apart from the library's segments), with S from a host classical strength and C/F
 * splittings chosen here (every other point, red-black, a small host Ruge–Stüben first pass);
 * EDGE_CASES S18's P exactly; the constant interpolated exactly for zero-sum rows; positive
 * off-diagonals (direct's β with S by magnitude), Dirichlet and zero rows, truncation, F points
 * without strong C neighbours, the thread and the team kernels forced, the serial backend as the
 * oracle (1e-14 relative), n = 0 and bad input. */
#include "test_common.h"

#include "strata/solvers.h"
#include "amg_impl.h"
#include "amg_interp_impl.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"

/* ------------------------------------------------------------------ host helpers */

static double hval(const host_crs_t *h, int32_t i, int32_t j) {
  for (int64_t q = h->ro[i]; q < h->ro[i + 1]; ++q)
    if (h->ci[q] == j) return h->v[q];
  return 0.0;
}

/* classical strength: j strong for i when -s·a_ij >= theta · max_{k != i} (-s·a_ik) > 0, s the
 * sign of a_ii (+ for 0); by_magnitude: |a_ij| >= theta · max |a_ik| instead */
static host_crs_t ref_strength(const host_crs_t *A, double theta, int by_magnitude) {
  host_crs_t S = hc_new(A->nr, A->nc, A->nnz);
  for (int32_t i = 0; i < A->nr; ++i) {
    const double s = hval(A, i, i) < 0 ? -1.0 : 1.0;
    double mx = 0.0;
    for (int64_t q = A->ro[i]; q < A->ro[i + 1]; ++q) {
      if (A->ci[q] == i) continue;
      const double v = by_magnitude ? fabs(A->v[q]) : -s * A->v[q];
      if (v > mx) mx = v;
    }
    for (int64_t q = A->ro[i]; q < A->ro[i + 1]; ++q) {
      if (A->ci[q] == i || mx <= 0.0) continue;
      const double v = by_magnitude ? fabs(A->v[q]) : -s * A->v[q];
      if (v >= theta * mx) hc_push(&S, A->ci[q], 1.0);
    }
    S.ro[i + 1] = S.nnz;
  }
  return S;
}

static int hstrong(const host_crs_t *S, int32_t i, int32_t j) {
  for (int64_t q = S->ro[i]; q < S->ro[i + 1]; ++q)
    if (S->ci[q] == j) return 1;
  return 0;
}

/* Ruge–Stüben's first pass on the host: the unassigned point of largest measure (strong
 * influences, ties to the smaller index) becomes C, the points it influences F, and the measures
 * of the points the new F points depend on grow. Points with no strong connection either way: F. */
static int32_t ref_rs(const host_crs_t *S, int32_t *cf) {
  const int32_t n = S->nr;
  int *lam = (int *)calloc((size_t)n + 1, sizeof(int));
  for (int32_t i = 0; i < n; ++i)
    for (int64_t q = S->ro[i]; q < S->ro[i + 1]; ++q) lam[S->ci[q]]++;
  for (int32_t i = 0; i < n; ++i) cf[i] = (lam[i] == 0 && S->ro[i + 1] == S->ro[i]) ? -1 : 0;
  int32_t nc = 0;
  for (;;) {
    int32_t best = -1;
    for (int32_t i = 0; i < n; ++i)
      if (cf[i] == 0 && (best < 0 || lam[i] > lam[best])) best = i;
    if (best < 0) break;
    cf[best] = 1;
    ++nc;
    for (int32_t j = 0; j < n; ++j) {
      if (cf[j] != 0 || !hstrong(S, j, best)) continue;
      cf[j] = -1;
      for (int64_t q = S->ro[j]; q < S->ro[j + 1]; ++q)
        if (cf[S->ci[q]] == 0) lam[S->ci[q]]++;
    }
  }
  free(lam);
  return nc;
}

static int32_t count_c(const int32_t *cf, int32_t n) {
  int32_t c = 0;
  for (int32_t i = 0; i < n; ++i) c += cf[i] == 1;
  return c;
}

static int opp(double a, double d) { return d < 0.0 ? a > 0.0 : a < 0.0; }

/* keeps the truncated entries of w [n] (dense, nonzero where set[j]): the rule of amg_impl.h */
static void ref_truncate(double *w, char *set, int32_t n, double trunc, int max_el) {
  double mx = 0.0, before = 0.0, after = 0.0;
  int dropped = 0;
  for (int32_t j = 0; j < n; ++j)
    if (set[j] && fabs(w[j]) > mx) mx = fabs(w[j]);
  for (int32_t j = 0; j < n; ++j)
    if (set[j]) before += w[j];
  for (int32_t j = 0; j < n; ++j)
    if (set[j] && fabs(w[j]) < trunc * mx) set[j] = 0, dropped = 1;
  if (max_el > 0) {
    for (int32_t j = 0; j < n; ++j) {
      if (!set[j]) continue;
      int rank = 0; /* larger magnitudes, and equal ones at smaller columns */
      for (int32_t o = 0; o < n; ++o)
        if (set[o] && (fabs(w[o]) > fabs(w[j]) || (fabs(w[o]) == fabs(w[j]) && o < j))) ++rank;
      if (rank >= max_el) set[j] = 2; /* dropped after the ranking of all */
    }
    for (int32_t j = 0; j < n; ++j)
      if (set[j] == 2) set[j] = 0, dropped = 1;
  }
  for (int32_t j = 0; j < n; ++j)
    if (set[j]) after += w[j];
  if (dropped && after != 0.0)
    for (int32_t j = 0; j < n; ++j)
      if (set[j]) w[j] *= before / after;
}

/* The interpolation of the formulas in amg_interp.c, one F row at a time over dense rows. */
static host_crs_t ref_interp(const host_crs_t *A, const host_crs_t *S, const int32_t *cf, int method, double trunc,
                             int max_el) {
  const int32_t n = A->nr;
  int32_t *cmap = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  int32_t nc = 0;
  for (int32_t i = 0; i < n; ++i) cmap[i] = cf[i] == 1 ? nc++ : -1;
  double *w = (double *)t_malloc(sizeof(double) * (size_t)n);
  char *set = (char *)t_malloc((size_t)n);
  host_crs_t P = hc_new(n, nc, (int64_t)n * n);
  for (int32_t i = 0; i < n; ++i) {
    if (cf[i] == 1) {
      hc_push(&P, cmap[i], 1.0);
      P.ro[i + 1] = P.nnz;
      continue;
    }
    memset(set, 0, (size_t)n);
    for (int32_t j = 0; j < n; ++j) w[j] = 0.0;
    const double aii = hval(A, i, i);
    int any = 0;
    for (int32_t j = 0; j < n; ++j) {
      if (j == i || !hstrong(S, i, j)) continue;
      if (cf[j] == 1) set[j] = 1, any = 1;
      if (cf[j] != 1 && method == 2)
        for (int32_t m = 0; m < n; ++m)
          if (m != j && cf[m] == 1 && hstrong(S, j, m)) set[m] = 1, any = 1;
    }
    if (any && method == 0) {
      double nn = 0, np = 0, pn = 0, pp = 0;
      for (int32_t j = 0; j < n; ++j) {
        const double v = j == i ? 0.0 : hval(A, i, j);
        if (opp(v, aii)) {
          nn += v;
          pn += set[j] ? v : 0.0;
        } else {
          np += v;
          pp += set[j] ? v : 0.0;
        }
      }
      double d = aii;
      if (pn == 0.0) d += nn;
      if (pp == 0.0) d += np;
      const double alpha = pn != 0.0 ? nn / pn : 0.0, beta = pp != 0.0 ? np / pp : 0.0;
      for (int32_t j = 0; j < n; ++j) {
        if (!set[j]) continue;
        const double v = hval(A, i, j);
        w[j] = -(opp(v, aii) ? alpha : beta) * v / d;
      }
    } else if (any) {
      double d = aii;
      for (int32_t j = 0; j < n; ++j) w[j] = set[j] ? hval(A, i, j) : 0.0;
      for (int32_t k = 0; k < n; ++k) {
        const double aik = k == i ? 0.0 : hval(A, i, k);
        if (k == i || (aik == 0.0 && !hstrong(S, i, k))) continue;
        if (set[k]) continue;
        if (!hstrong(S, i, k) || cf[k] == 1) { /* weak, outside the set */
          d += aik;
          continue;
        }
        const double akk = hval(A, k, k);
        double sk = 0.0;
        for (int32_t m = 0; m < n; ++m) {
          const double v = m == k ? 0.0 : hval(A, k, m);
          if ((set[m] || (method == 2 && m == i)) && opp(v, akk)) sk += v;
        }
        if (sk == 0.0) {
          d += aik;
          continue;
        }
        for (int32_t j = 0; j < n; ++j) {
          const double v = hval(A, k, j);
          if (set[j] && opp(v, akk)) w[j] += aik * v / sk;
        }
        if (method == 2 && opp(hval(A, k, i), akk)) d += aik * hval(A, k, i) / sk;
      }
      for (int32_t j = 0; j < n; ++j) w[j] = set[j] ? -w[j] / d : 0.0;
    }
    if (any) ref_truncate(w, set, n, trunc, max_el);
    for (int32_t j = 0; j < n; ++j)
      if (set[j]) hc_push(&P, cmap[j], w[j]);
    P.ro[i + 1] = P.nnz;
  }
  free(cmap);
  free(w);
  free(set);
  return P;
}

/* ------------------------------------------------------------------ running it */

/* P of the library on exec */
static host_crs_t run_interp(strata_exec_t *exec, const host_crs_t *A, const host_crs_t *S, const int32_t *cf, int method,
                             double trunc, int max_el) {
  strata_crs_matrix_t *dA = hc_on(exec, A), *dS = hc_on(exec, S), *dP = NULL;
  const int32_t n = A->nr;
  void *dcf = NULL;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)n, &dcf));
  T_OK(strata_mem_copy(exec, dcf, cf, sizeof(int32_t) * (size_t)n));
  T_OK(strata_impl_amg_interp(exec, dA, dS, (const int32_t *)dcf, count_c(cf, n), (strata_amg_interp_t)method, trunc,
                              max_el, &dP));
  assert_int_equal(dP->fill_complete, 1);
  host_crs_t P = crs_to_host(dP);
  strata_crs_destroy(&dP);
  strata_crs_destroy(&dA);
  strata_crs_destroy(&dS);
  strata_mem_free(exec, STRATA_MEM_DEVICE, &dcf);
  return P;
}

/* same pattern, values to tol relative */
static void expect_close(const char *what, const host_crs_t *want, const host_crs_t *got, double tol) {
  if (want->nr != got->nr || want->nc != got->nc || want->nnz != got->nnz)
    fail_msg("%s: %d x %d with %lld entries, expected %d x %d with %lld", what, got->nr, got->nc, (long long)got->nnz,
             want->nr, want->nc, (long long)want->nnz);
  for (int32_t i = 0; i <= want->nr; ++i)
    if (want->ro[i] != got->ro[i])
      fail_msg("%s: row_offsets[%d] = %lld, expected %lld", what, i, (long long)got->ro[i], (long long)want->ro[i]);
  for (int64_t k = 0; k < want->nnz; ++k)
    if (want->ci[k] != got->ci[k] || !(t_reldiff(want->v[k], got->v[k]) <= tol))
      fail_msg("%s: entry %lld: (col %d, %.17g), expected (col %d, %.17g)", what, (long long)k, got->ci[k], got->v[k],
               want->ci[k], want->v[k]);
}

static const char *method_name[3] = {"direct", "standard", "ext+i"};

/* P on the backend under test against the host reference and against serial, with every class of
 * kernel; returns the backend's P (auto class) */
static host_crs_t check_all(const char *what, const host_crs_t *A, const host_crs_t *S, const int32_t *cf, int method,
                            double trunc, int max_el) {
  char buf[200];
  host_crs_t ref = ref_interp(A, S, cf, method, trunc, max_el);
  host_crs_t ser = run_interp(T_serial, A, S, cf, method, trunc, max_el);
  host_crs_t got = run_interp(T_exec, A, S, cf, method, trunc, max_el);
  snprintf(buf, sizeof buf, "%s, %s: serial vs host reference", what, method_name[method]);
  expect_close(buf, &ref, &ser, 1e-13);
  snprintf(buf, sizeof buf, "%s, %s: backend vs serial", what, method_name[method]);
  expect_close(buf, &ser, &got, 1e-14);
  const strata_impl_amg_interp_class_t classes[3] = {STRATA_IMPL_AMG_INTERP_THREAD, STRATA_IMPL_AMG_INTERP_TEAM,
                                                     STRATA_IMPL_AMG_INTERP_TEAM_NO_SCRATCH};
  for (int c = 0; c < 3; ++c) {
    strata_impl_amg_interp_force_class(classes[c]);
    host_crs_t forced = run_interp(T_exec, A, S, cf, method, trunc, max_el);
    strata_impl_amg_interp_force_class(STRATA_IMPL_AMG_INTERP_AUTO);
    snprintf(buf, sizeof buf, "%s, %s: class %d vs serial", what, method_name[method], (int)classes[c]);
    expect_close(buf, &ser, &forced, 1e-14);
    host_crs_free(&forced);
  }
  host_crs_free(&ref);
  host_crs_free(&ser);
  return got;
}

/* Σ_j p_ij = 1 (to 1e-13) for every row of A with zero row sum whose row of P is not empty */
static void expect_constant(const char *what, const host_crs_t *A, const host_crs_t *P) {
  int checked = 0;
  for (int32_t i = 0; i < A->nr; ++i) {
    double s = 0.0, sp = 0.0, mx = 0.0;
    for (int64_t q = A->ro[i]; q < A->ro[i + 1]; ++q) s += A->v[q], mx = fmax(mx, fabs(A->v[q]));
    if (fabs(s) > 1e-14 * mx || P->ro[i + 1] == P->ro[i]) continue;
    for (int64_t q = P->ro[i]; q < P->ro[i + 1]; ++q) sp += P->v[q];
    if (fabs(sp - 1.0) > 1e-13) fail_msg("%s: row %d of P sums to %.17g, expected 1", what, i, sp);
    ++checked;
  }
  assert_true(checked > 0);
}

static host_crs_t lap1d(int32_t n) { return hc_poisson(n, 1, 1); } /* 4 on the diagonal: fixed below */

/* the 1D Laplacian tridiag(-1, 2, -1) */
static host_crs_t tridiag(int32_t n) {
  host_crs_t h = lap1d(n);
  for (int64_t q = 0; q < h.nnz; ++q)
    if (h.v[q] > 0) h.v[q] = 2.0;
  return h;
}

/* ------------------------------------------------------------------ the tests */

/* EDGE_CASES S18: n = 5, C = {1, 3}: P = [[1/2, 0], [1, 0], [1/2, 1/2], [0, 1], [0, 1/2]], exactly,
 * for all three methods (the F points have strong C neighbours only) */
static void test_s18(void **state) {
  (void)state;
  host_crs_t A = tridiag(5), S = ref_strength(&A, 0.25, 0);
  const int32_t cf[5] = {-1, 1, -1, 1, -1};
  const int64_t ro[6] = {0, 1, 2, 4, 5, 6};
  const int32_t ci[6] = {0, 0, 0, 1, 1, 1};
  const double v[6] = {0.5, 1.0, 0.5, 0.5, 1.0, 0.5};
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("S18", &A, &S, cf, m, 0.0, 0);
    assert_int_equal(P.nr, 5);
    assert_int_equal(P.nc, 2);
    assert_int_equal(P.nnz, 6);
    for (int i = 0; i <= 5; ++i) assert_int_equal(P.ro[i], ro[i]);
    for (int k = 0; k < 6; ++k) {
      assert_int_equal(P.ci[k], ci[k]);
      if (P.v[k] != v[k]) fail_msg("%s: S18 entry %d = %.17g, expected %g", method_name[m], k, P.v[k], v[k]);
    }
    host_crs_free(&P);
  }
  host_crs_free(&A);
  host_crs_free(&S);
}

/* the 1D Laplacian, every other point C (odd points): averaging weights 1/2, 1/2 (1/2 at an end) */
static void test_lap1d_every_other(void **state) {
  (void)state;
  const int32_t n = 101;
  host_crs_t A = tridiag(n), S = ref_strength(&A, 0.25, 0);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
  for (int32_t i = 0; i < n; ++i) cf[i] = i % 2 ? 1 : -1;
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("1D Laplacian", &A, &S, cf, m, 0.0, 0);
    for (int32_t i = 0; i < n; ++i) {
      if (cf[i] == 1) {
        assert_int_equal(P.ro[i + 1] - P.ro[i], 1);
        assert_int_equal(P.ci[P.ro[i]], i / 2);
        assert_true(P.v[P.ro[i]] == 1.0);
        continue;
      }
      assert_int_equal(P.ro[i + 1] - P.ro[i], (i == 0 || i == n - 1) ? 1 : 2);
      for (int64_t q = P.ro[i]; q < P.ro[i + 1]; ++q) assert_true(P.v[q] == 0.5);
    }
    host_crs_free(&P);
  }
  free(cf);
  host_crs_free(&A);
  host_crs_free(&S);
}

/* 2D 5-point: red-black (direct weights 1/4 inside) and the host RS splitting; the constant
 * interpolated exactly for zero-sum rows */
static void test_lap2d(void **state) {
  (void)state;
  const int32_t nx = 14, n = nx * nx;
  host_crs_t A = hc_poisson(nx, nx, 1), S = ref_strength(&A, 0.25, 0);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
  for (int32_t i = 0; i < n; ++i) cf[i] = ((i % nx) + (i / nx)) % 2 ? 1 : -1;
  host_crs_t P = check_all("2D red-black", &A, &S, cf, 0, 0.0, 0);
  for (int32_t y = 1; y < nx - 1; ++y)
    for (int32_t x = 1; x < nx - 1; ++x) {
      const int32_t i = x + nx * y;
      if (cf[i] == 1) continue;
      assert_int_equal(P.ro[i + 1] - P.ro[i], 4);
      for (int64_t q = P.ro[i]; q < P.ro[i + 1]; ++q) assert_true(P.v[q] == 0.25);
    }
  expect_constant("2D red-black, direct", &A, &P);
  host_crs_free(&P);
  ref_rs(&S, cf);
  for (int m = 0; m < 3; ++m) {
    P = check_all("2D RS", &A, &S, cf, m, 0.0, 0);
    expect_constant("2D RS", &A, &P);
    host_crs_free(&P);
  }
  free(cf);
  host_crs_free(&A);
  host_crs_free(&S);
}

/* 3D 7-point with the host RS splitting, and PMIS-like sparse splittings (every fourth point C:
 * F points without strong C neighbours, long distance-two sets for ext+i) */
static void test_lap3d(void **state) {
  (void)state;
  const int32_t nx = 7, n = nx * nx * nx;
  host_crs_t A = hc_poisson(nx, nx, nx), S = ref_strength(&A, 0.25, 0);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
  ref_rs(&S, cf);
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("3D RS", &A, &S, cf, m, 0.0, 0);
    expect_constant("3D RS", &A, &P);
    host_crs_free(&P);
  }
  for (int32_t i = 0; i < n; ++i) cf[i] = i % 4 == 0 ? 1 : -1;
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("3D every fourth", &A, &S, cf, m, 0.0, 0);
    host_crs_free(&P);
  }
  free(cf);
  host_crs_free(&A);
  host_crs_free(&S);
}

/* a random symmetric matrix with long rows (about 90 neighbours, weights of both signs, a
 * dominant diagonal): sets beyond the GPU's long-row threshold, positive off-diagonals; direct
 * also with S by magnitude (positive strong C neighbours: β) */
/* a random symmetric n x n matrix, about fill · n neighbours a row, 80 % of them negative, a
 * dominant diagonal */
static host_crs_t random_matrix(int32_t n, double fill) {
  double *d = (double *)t_malloc(sizeof(double) * (size_t)n * n);
  memset(d, 0, sizeof(double) * (size_t)n * n);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t j = i + 1; j < n; ++j) {
      if (t_uniform(&T_rng) > fill) continue;
      const double v = t_uniform(&T_rng) < 0.8 ? -t_uniform(&T_rng) - 0.05 : 0.5 * t_uniform(&T_rng);
      d[(size_t)i * n + j] = d[(size_t)j * n + i] = v;
    }
  for (int32_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (int32_t j = 0; j < n; ++j) s += fabs(d[(size_t)i * n + j]);
    d[(size_t)i * n + i] = s + 1.0;
  }
  host_crs_t A = hc_dense(n, n, d);
  free(d);
  return A;
}

static void test_long_rows_positive(void **state) {
  (void)state;
  const int32_t n = 300;
  host_crs_t A = random_matrix(n, 0.3);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
  for (int by_mag = 0; by_mag < 2; ++by_mag) {
    host_crs_t S = ref_strength(&A, by_mag ? 0.2 : 0.5, by_mag);
    ref_rs(&S, cf);
    for (int m = 0; m < 3; ++m) {
      if (by_mag && m > 0) continue; /* the magnitude rule only for direct's β */
      host_crs_t P = check_all(by_mag ? "random, S by magnitude" : "random", &A, &S, cf, m, 0.0, 0);
      host_crs_free(&P);
    }
    host_crs_free(&S);
  }
  free(cf);
  host_crs_free(&A);
}

/* Dirichlet rows (identity rows; their neighbours keep the coupling: strong F neighbours without
 * any coupling back, s_k = 0, lumped) and zero rows (isolated F points: empty rows) */
static void test_dirichlet_zero_rows(void **state) {
  (void)state;
  const int32_t nx = 10, n = nx * nx;
  host_crs_t P0 = hc_poisson(nx, nx, 1);
  host_crs_t A = hc_new(n, n, P0.nnz);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = i % nx, y = i / nx;
    const int dir = x == 0 || y == 0 || x == nx - 1 || y == nx - 1, zero = i == 44 || i == 55;
    for (int64_t q = P0.ro[i]; q < P0.ro[i + 1]; ++q)
      if (!zero && (!dir || P0.ci[q] == i)) hc_push(&A, P0.ci[q], dir ? 1.0 : P0.v[q]);
    A.ro[i + 1] = A.nnz;
  }
  host_crs_t S = ref_strength(&A, 0.25, 0);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
  ref_rs(&S, cf);
  for (int32_t i = 0; i < n; ++i) {
    const int32_t x = i % nx, y = i / nx;
    if (x == 0 || y == 0 || x == nx - 1 || y == nx - 1 || i == 44 || i == 55) cf[i] = -1;
  }
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("Dirichlet and zero rows", &A, &S, cf, m, 0.0, 0);
    for (int32_t i = 0; i < n; ++i) {
      const int32_t x = i % nx, y = i / nx;
      if (x == 0 || y == 0 || x == nx - 1 || y == nx - 1 || i == 44 || i == 55)
        assert_int_equal(P.ro[i + 1] - P.ro[i], 0);
    }
    host_crs_free(&P);
  }
  free(cf);
  host_crs_free(&P0);
  host_crs_free(&A);
  host_crs_free(&S);
}

/* truncation: max_elements 2, trunc_factor 0.3, both, on ext+i and standard rows; row sums kept */
static void test_truncation(void **state) {
  (void)state;
  for (int which = 0; which < 2; ++which) {
    host_crs_t A = which ? random_matrix(120, 0.1) : hc_poisson(7, 7, 7), S = ref_strength(&A, 0.25, 0);
    const int32_t n = A.nr;
    int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * n);
    ref_rs(&S, cf);
    const double tf[3] = {0.0, 0.3, 0.3};
    const int me[3] = {2, 0, 2};
    for (int m = 0; m < 3; ++m) {
      host_crs_t full = ref_interp(&A, &S, cf, m, 0.0, 0);
      for (int t = 0; t < 3; ++t) {
        host_crs_t P = check_all(which ? "truncation, random" : "truncation, 3D", &A, &S, cf, m, tf[t], me[t]);
        int shorter = 0;
        for (int32_t i = 0; i < n; ++i) {
          const int64_t len = P.ro[i + 1] - P.ro[i];
          if (me[t] > 0) assert_true(len <= me[t]);
          shorter += len < full.ro[i + 1] - full.ro[i];
          double s0 = 0.0, s1 = 0.0;
          for (int64_t q = full.ro[i]; q < full.ro[i + 1]; ++q) s0 += full.v[q];
          for (int64_t q = P.ro[i]; q < P.ro[i + 1]; ++q) s1 += P.v[q];
          if (fabs(s0 - s1) > 1e-13 * fabs(s0))
            fail_msg("truncation: row %d sums to %.17g, untruncated %.17g", i, s1, s0);
        }
        if (shorter == 0 && (which == 1 || me[t] > 0))
          fail_msg("truncation %s, trunc %g, max %d: nothing dropped", method_name[m], tf[t], me[t]);
        host_crs_free(&P);
      }
      host_crs_free(&full);
    }
    free(cf);
    host_crs_free(&A);
    host_crs_free(&S);
  }
}

/* an F point with no strong C neighbour: direct and standard give it an empty row, ext+i reaches
 * the C points of its strong F neighbours (1D, n = 7, C = {0, 6}: row 3 is 2 F points from each) */
static void test_no_strong_c(void **state) {
  (void)state;
  host_crs_t A = tridiag(7), S = ref_strength(&A, 0.25, 0);
  const int32_t cf[7] = {1, -1, -1, -1, -1, -1, 1};
  for (int m = 0; m < 3; ++m) {
    host_crs_t P = check_all("no strong C neighbour", &A, &S, cf, m, 0.0, 0);
    assert_int_equal(P.ro[3] - P.ro[2], m == 2 ? 1 : 0); /* row 2: C 0 through F 1 (ext+i) */
    assert_int_equal(P.ro[4] - P.ro[3], 0);               /* row 3: neighbours 2, 4 have no C */
    assert_int_equal(P.ro[2] - P.ro[1], 1);               /* row 1: C 0 */
    host_crs_free(&P);
  }
  host_crs_free(&A);
  host_crs_free(&S);
}

/* all C: the identity; all F: n x 0 and empty; n = 0 */
static void test_all_c_all_f_empty(void **state) {
  (void)state;
  host_crs_t A = hc_poisson(5, 5, 1), S = ref_strength(&A, 0.25, 0);
  int32_t cf[25];
  for (int i = 0; i < 25; ++i) cf[i] = 1;
  host_crs_t P = check_all("all C", &A, &S, cf, 2, 0.0, 0);
  assert_int_equal(P.nnz, 25);
  for (int i = 0; i < 25; ++i) assert_true(P.ci[i] == i && P.v[i] == 1.0);
  host_crs_free(&P);
  for (int i = 0; i < 25; ++i) cf[i] = -1;
  P = check_all("all F", &A, &S, cf, 1, 0.0, 0);
  assert_int_equal(P.nc, 0);
  assert_int_equal(P.nnz, 0);
  host_crs_free(&P);
  host_crs_free(&A);
  host_crs_free(&S);
  host_crs_t Z = hc_new(0, 0, 0);
  strata_crs_matrix_t *dZ = hc_on(T_exec, &Z), *dP = NULL;
  T_OK(strata_impl_amg_interp(T_exec, dZ, dZ, NULL, 0, STRATA_AMG_EXT_I, 0.0, 0, &dP));
  assert_int_equal(dP->num_rows, 0);
  assert_int_equal(dP->num_cols, 0);
  assert_int_equal(dP->nnz, 0);
  strata_crs_destroy(&dP);
  strata_crs_destroy(&dZ);
  host_crs_free(&Z);
}

/* bad input, each named */
static void test_bad_input(void **state) {
  (void)state;
  host_crs_t A = tridiag(5), S = ref_strength(&A, 0.25, 0);
  const int32_t cf[5] = {-1, 1, -1, 1, -1};
  strata_crs_matrix_t *dA = hc_on(T_exec, &A), *dS = hc_on(T_exec, &S), *dP = NULL;
  int32_t *dcf = (int32_t *)t_to_dev(cf, sizeof cf);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, STRATA_AMG_DIRECT, -0.1, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "trunc_factor = -0.1", "[0, 1)");
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, STRATA_AMG_DIRECT, 1.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "trunc_factor = 1", "[0, 1)");
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, STRATA_AMG_DIRECT, NAN, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "trunc_factor = nan", NULL);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, STRATA_AMG_DIRECT, 0.0, -1, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "max_elements = -1", ">= 0");
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, (strata_amg_interp_t)7, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "method = 7", NULL);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 3, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "num_coarse = 3", "2 C points");
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 6, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "num_coarse = 6", "[0, 5]");
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf, 2, STRATA_AMG_DIRECT, 0.0, 0, NULL),
               STRATA_ERR_INVALID_ARGUMENT, "NULL output P", NULL);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, NULL, dcf, 2, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "NULL strength matrix S", NULL);
  assert_null(dP);
  /* cf outside {1, -1} */
  const int32_t cf0[5] = {-1, 1, 0, 1, -1};
  int32_t *dcf0 = (int32_t *)t_to_dev(cf0, sizeof cf0);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS, dcf0, 2, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_DATA, "cf[2] = 0", NULL);
  /* S with an entry outside A's pattern (row 0, column 4) */
  host_crs_t S2 = hc_new(5, 5, S.nnz + 1);
  for (int32_t i = 0; i < 5; ++i) {
    for (int64_t q = S.ro[i]; q < S.ro[i + 1]; ++q) hc_push(&S2, S.ci[q], 1.0);
    if (i == 0) hc_push(&S2, 4, 1.0);
    S2.ro[i + 1] = S2.nnz;
  }
  strata_crs_matrix_t *dS2 = hc_on(T_exec, &S2);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS2, dcf, 2, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_DATA, "row 0 of S", "outside A's pattern");
  /* S of another size; A not square */
  host_crs_t S3 = ref_strength(&A, 0.25, 0);
  S3.nr = 4;
  S3.nnz = S3.ro[4];
  strata_crs_matrix_t *dS3 = hc_on(T_exec, &S3);
  t_expect_msg(strata_impl_amg_interp(T_exec, dA, dS3, dcf, 2, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "S is 4 x 5", "A is 5 x 5");
  t_expect_msg(strata_impl_amg_interp(T_exec, dS3, dS3, dcf, 2, STRATA_AMG_DIRECT, 0.0, 0, &dP),
               STRATA_ERR_INVALID_ARGUMENT, "A is 4 x 5", "square");
  /* a zero diagonal at an F row with a strong C neighbour: d_2 = 0 */
  host_crs_t Z = tridiag(5);
  for (int64_t q = Z.ro[2]; q < Z.ro[3]; ++q)
    if (Z.ci[q] == 2) Z.v[q] = 0.0;
  strata_crs_matrix_t *dZ = hc_on(T_exec, &Z);
  for (int m = 0; m < 3; ++m)
    t_expect_msg(strata_impl_amg_interp(T_exec, dZ, dS, dcf, 2, (strata_amg_interp_t)m, 0.0, 0, &dP),
                 STRATA_ERR_INVALID_DATA, "F row 2", "a_ii = 0");
  assert_null(dP);
  strata_crs_destroy(&dZ);
  strata_crs_destroy(&dS2);
  strata_crs_destroy(&dS3);
  strata_crs_destroy(&dA);
  strata_crs_destroy(&dS);
  t_dev_free(dcf);
  t_dev_free(dcf0);
  host_crs_free(&A);
  host_crs_free(&S);
  host_crs_free(&S2);
  host_crs_free(&S3);
  host_crs_free(&Z);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_s18, t_setup),
      cmocka_unit_test_setup(test_lap1d_every_other, t_setup),
      cmocka_unit_test_setup(test_lap2d, t_setup),
      cmocka_unit_test_setup(test_lap3d, t_setup),
      cmocka_unit_test_setup(test_long_rows_positive, t_setup),
      cmocka_unit_test_setup(test_dirichlet_zero_rows, t_setup),
      cmocka_unit_test_setup(test_truncation, t_setup),
      cmocka_unit_test_setup(test_no_strong_c, t_setup),
      cmocka_unit_test_setup(test_all_c_all_f_empty, t_setup),
      cmocka_unit_test_setup(test_bad_input, t_setup),
  };
  return T_RUN("amg_interp", tests);
}
