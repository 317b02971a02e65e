/* strata tests — AMG's smoothers (solvers/src/amg_impl.h): every kind on the backend under test
 * against serial (bitwise for Jacobi, l1-Jacobi and the Gauss–Seidel variants; 1e-12 for weighted
 * Jacobi and Chebyshev, whose eigenvalue estimates use the backend's dot products) and against
 * host references written here (the same arithmetic: bitwise, or 1e-12); EDGE_CASES S9 (GS on a
 * nonsymmetric matrix) and S8 (a zero diagonal refused naming the row); the smoothing property on
 * the periodic 2D Laplacian with bounds derived from its Fourier modes; a valid colouring; the
 * Lanczos estimate of λ_max(D⁻¹A) of the Dirichlet 2D Laplacian; n = 0; bad options. */
#include "test_common.h"

#include "strata/solvers.h"
#include "amg_impl.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"

#define NKINDS 7
static const char *kname[NKINDS] = {"jacobi", "wjacobi", "l1-jacobi", "cheby", "hgs", "mcgs", "sgs"};
/* the kinds whose result is bitwise the same on every backend */
static int bitwise_kind(int k) { return k != STRATA_SMOOTH_WJACOBI && k != STRATA_SMOOTH_CHEBYSHEV; }

static strata_amg_options_t opts_for(int kind) {
  strata_amg_options_t o;
  memset(&o, 0, sizeof o);
  o.smoother = (strata_amg_smoother_t)kind;
  o.omega = 2.0 / 3.0;
  o.cheby_degree = 2;
  return o;
}

/* ------------------------------------------------------------------ host matrices */

/* The periodic 5-point Laplacian on an m × m torus (4 on the diagonal, -1 to each neighbour). */
static host_crs_t torus2d(int32_t m) {
  host_crs_t h = hc_new(m * m, m * m, 5 * (int64_t)m * m);
  for (int32_t y = 0; y < m; ++y)
    for (int32_t x = 0; x < m; ++x) {
      const int32_t i = y * m + x;
      int32_t c[5] = {((y + m - 1) % m) * m + x, y * m + (x + m - 1) % m, i, y * m + (x + 1) % m,
                      ((y + 1) % m) * m + x};
      for (int a = 1; a < 5; ++a) /* sort the five columns */
        for (int b = a; b > 0 && c[b] < c[b - 1]; --b) {
          const int32_t t = c[b];
          c[b] = c[b - 1];
          c[b - 1] = t;
        }
      for (int a = 0; a < 5; ++a) hc_push(&h, c[a], c[a] == i ? 4.0 : -1.0);
      h.ro[i + 1] = h.nnz;
    }
  return h;
}

/* Unsymmetric in pattern and values: a random sparse matrix, diagonally dominant. */
static host_crs_t random_unsym(int32_t n, int per_row) {
  host_crs_t h = hc_new(n, n, (int64_t)n * (per_row + 1));
  int32_t *mark = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) mark[i] = -1;
  for (int32_t i = 0; i < n; ++i) {
    const int64_t b = h.nnz;
    double off = 0;
    mark[i] = i;
    hc_push(&h, i, 0.0);
    for (int k = 0; k < per_row; ++k) {
      const int32_t j = (int32_t)(t_rand(&T_rng) % (uint64_t)n);
      if (mark[j] == i) continue;
      mark[j] = i;
      const double v = t_uniform(&T_rng) - 0.7;
      off += fabs(v);
      hc_push(&h, j, v);
    }
    h.v[b] = 1.0 + off * (1.0 + t_uniform(&T_rng));
    h.ro[i + 1] = h.nnz;
  }
  free(mark);
  return h;
}

/* 2D convection-diffusion, upwind (unsymmetric values, symmetric pattern). */
static host_crs_t convdiff(int32_t nx, double c) {
  host_crs_t h = hc_new(nx * nx, nx * nx, 5 * (int64_t)nx * nx);
  for (int32_t j = 0; j < nx; ++j)
    for (int32_t i = 0; i < nx; ++i) {
      const int32_t r = j * nx + i;
      if (j > 0) hc_push(&h, r - nx, -1 - c);
      if (i > 0) hc_push(&h, r - 1, -1 - 0.5 * c);
      hc_push(&h, r, 4 + 1.5 * c);
      if (i < nx - 1) hc_push(&h, r + 1, -1);
      if (j < nx - 1) hc_push(&h, r + nx, -1);
      h.ro[r + 1] = h.nnz;
    }
  return h;
}

/* ------------------------------------------------------------------ host references */

static double *host_dinv(const host_crs_t *h, int l1) {
  double *d = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
  for (int32_t i = 0; i < h->nr; ++i) {
    double diag = 0, off = 0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      if (h->ci[k] == i)
        diag += h->v[k];
      else
        off += fabs(h->v[k]);
    }
    d[i] = 1.0 / (l1 ? (diag >= 0 ? diag + off : diag - off) : diag);
  }
  return d;
}

/* y = x + w D⁻¹ (b - A x) (the kernel's arithmetic: fma per entry) */
static void host_jacobi(const host_crs_t *h, const double *dinv, double w, const double *b, const double *x,
                        double *y) {
  for (int32_t i = 0; i < h->nr; ++i) {
    double s = b[i];
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) s = fma(-h->v[k], x[h->ci[k]], s);
    y[i] = fma(w, dinv[i] * s, x[i]);
  }
}

/* one Chebyshev polynomial of degree deg on [lo, hi] (Saad Alg. 12.1, residuals computed) */
static void host_cheby(const host_crs_t *h, const double *dinv, double lo, double hi, int deg, const double *b,
                       double *x) {
  const int32_t n = h->nr;
  double *d = (double *)t_malloc(sizeof(double) * (size_t)n), *r = (double *)t_malloc(sizeof(double) * (size_t)n);
  const double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo), sigma = theta / delta;
  double rho = 1.0 / sigma;
  for (int j = 0; j < deg; ++j) {
    for (int32_t i = 0; i < n; ++i) {
      double s = b[i];
      for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) s -= h->v[k] * x[h->ci[k]];
      r[i] = dinv[i] * s;
    }
    if (j == 0) {
      for (int32_t i = 0; i < n; ++i) d[i] = r[i] / theta;
    } else {
      const double rn = 1.0 / (2.0 * sigma - rho);
      for (int32_t i = 0; i < n; ++i) d[i] = rn * rho * d[i] + 2.0 * rn / delta * r[i];
      rho = rn;
    }
    for (int32_t i = 0; i < n; ++i) x[i] += d[i];
  }
  free(d);
  free(r);
}

/* x_i = dinv_i (b_i - Σ_{j≠i} a_ij x_j) for row i, x in place; `skip_lo/hi`: entries with columns
 * in [lo, hi) are skipped when inside is 0 and only those are taken when inside is 1; -1: all */
static double host_row(const host_crs_t *h, int32_t i, const double *b, const double *x, int64_t lo, int64_t hi,
                       int inside, double t0) {
  double t = inside < 0 || inside == 0 ? b[i] : t0;
  for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
    const int32_t j = h->ci[k];
    const int in = j >= lo && j < hi;
    if (inside < 0 ? j != i : inside ? (in && j != i) : !in) t = fma(-h->v[k], x[j], t);
  }
  return t;
}

/* One l1 hybrid GS sweep with blocks of B rows (the smoother's arithmetic): d_i = 1 / dinv_i plus
 * sgn(d_i) Σ_{j outside the block} |a_ij| (storage order), x_i += (residual with the block's
 * newest values) / d_i. */
static void host_hgs(const host_crs_t *h, const double *dinv, int32_t B, int backward, const double *b, double *x) {
  const int32_t n = h->nr;
  double *old = (double *)t_malloc(sizeof(double) * (size_t)n), *s = (double *)t_malloc(sizeof(double) * (size_t)n);
  memcpy(old, x, sizeof(double) * (size_t)n);
  for (int32_t r0 = 0; r0 < n; r0 += B) {
    const int32_t r1 = r0 + B < n ? r0 + B : n;
    for (int32_t i = r0; i < r1; ++i) s[i] = host_row(h, i, b, old, r0, r1, 0, 0);
    for (int32_t q = 0; q < r1 - r0; ++q) {
      const int32_t i = backward ? r1 - 1 - q : r0 + q;
      double l1 = 0.0, t = s[i];
      for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
        const int32_t j = h->ci[k];
        if (j < r0 || j >= r0 + B) l1 += fabs(h->v[k]);
        else t = fma(-h->v[k], x[j], t);
      }
      const double d = 1.0 / dinv[i];
      x[i] = fma(1.0 / (d < 0.0 ? d - l1 : d + l1), t, x[i]);
    }
  }
  free(old);
  free(s);
}

/* Gauss–Seidel in the order of the rows of order [n] (plain lexicographic when order[i] = i). */
static void host_gs_order(const host_crs_t *h, const double *dinv, const int32_t *order, const double *b, double *x) {
  for (int32_t q = 0; q < h->nr; ++q) {
    const int32_t i = order[q];
    x[i] = dinv[i] * host_row(h, i, b, x, 0, 0, -1, 0);
  }
}

/* rows sorted by colour then index (backward: colours reversed) */
static int32_t *color_order(const int32_t *color, int32_t n, int nc, int backward) {
  int32_t *o = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  int32_t q = 0;
  for (int c = 0; c < nc; ++c)
    for (int32_t i = 0; i < n; ++i)
      if (color[i] == (backward ? nc - 1 - c : c)) o[q++] = i;
  assert_int_equal(q, n);
  return o;
}

/* The host reference of `sweeps` sweeps of kind from x (in place); info: the smoother's setup. */
static void host_smooth(const host_crs_t *h, const strata_impl_smoother_info_t *info, const int32_t *color,
                        const double *b, double *x, int sweeps, int backward) {
  const int32_t n = h->nr;
  const int kind = info->kind;
  double *dinv = host_dinv(h, kind == STRATA_SMOOTH_L1_JACOBI);
  double *y = (double *)t_malloc(sizeof(double) * (size_t)n);
  int32_t *ord = kind == STRATA_SMOOTH_MULTICOLOR_GS ? color_order(color, n, info->num_colors, backward) : NULL;
  for (int s = 0; s < sweeps; ++s) {
    switch (kind) {
      case STRATA_SMOOTH_JACOBI:
      case STRATA_SMOOTH_WJACOBI:
      case STRATA_SMOOTH_L1_JACOBI:
        host_jacobi(h, dinv, info->omega, b, x, y);
        memcpy(x, y, sizeof(double) * (size_t)n);
        break;
      case STRATA_SMOOTH_CHEBYSHEV: host_cheby(h, dinv, info->cheby_lo, info->cheby_hi, info->degree, b, x); break;
      case STRATA_SMOOTH_HYBRID_GS: host_hgs(h, dinv, info->block_rows, backward, b, x); break;
      case STRATA_SMOOTH_MULTICOLOR_GS: host_gs_order(h, dinv, ord, b, x); break;
      default:
        host_hgs(h, dinv, info->block_rows, 0, b, x);
        host_hgs(h, dinv, info->block_rows, 1, b, x);
    }
  }
  free(dinv);
  free(y);
  free(ord);
}

/* ------------------------------------------------------------------ device runs */

typedef struct smoothed {
  double *x;     /* host [n] */
  int32_t *color; /* host [n] (multicolor) */
  strata_impl_smoother_info_t info;
} smoothed_t;

/* sweeps of kind on exec from x0 (host), b (host); x_is_zero: x poisoned (NaN) on entry */
static smoothed_t smooth_on(strata_exec_t *e, const host_crs_t *h, int kind, const double *b, const double *x0,
                            int sweeps, int backward, int x_is_zero) {
  smoothed_t r;
  memset(&r, 0, sizeof r);
  const int32_t n = h->nr;
  strata_crs_matrix_t *A = hc_on(e, h);
  strata_amg_options_t o = opts_for(kind);
  strata_impl_smoother_t *sm = NULL;
  T_OK(strata_impl_smoother_create(e, A, &o, &sm));
  T_OK(strata_impl_smoother_info(sm, &r.info));
  double *db = vec_on(e, b, n), *dx = vec_on(e, x_is_zero ? NULL : x0, n);
  T_OK(strata_impl_smoother_apply(e, sm, db, dx, sweeps, backward, x_is_zero));
  r.x = (double *)t_malloc(sizeof(double) * (size_t)n);
  vec_get(e, r.x, dx, n);
  r.color = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  if (r.info.colors) T_OK(strata_mem_copy(e, r.color, r.info.colors, sizeof(int32_t) * (size_t)n));
  r.info.colors = NULL;
  vec_free(e, db);
  vec_free(e, dx);
  strata_impl_smoother_destroy(&sm);
  assert_null(sm);
  strata_crs_destroy(&A);
  return r;
}
static void smoothed_free(smoothed_t *r) {
  free(r->x);
  free(r->color);
}

static double maxrel(const double *a, const double *b, int32_t n) {
  double d = 0, s = 0;
  for (int32_t i = 0; i < n; ++i) {
    if (fabs(a[i] - b[i]) > d || a[i] != a[i] || b[i] != b[i]) d = a[i] == a[i] && b[i] == b[i] ? fabs(a[i] - b[i]) : INFINITY;
    if (fabs(b[i]) > s) s = fabs(b[i]);
  }
  return s > 0 ? d / s : d;
}

static void expect_same(const char *what, const double *got, const double *want, int32_t n, int bitwise) {
  if (bitwise) {
    for (int32_t i = 0; i < n; ++i)
      if (memcmp(&got[i], &want[i], sizeof(double)) != 0)
        fail_msg("%s: x[%d] = %.17g, expected %.17g (bitwise)", what, (int)i, got[i], want[i]);
  } else {
    const double d = maxrel(got, want, n);
    if (!(d <= 1e-12)) fail_msg("%s: max difference %.3g of max |x| (limit 1e-12)", what, d);
  }
}

/* ------------------------------------------------------------------ EDGE_CASES S9 */

static void test_amg_smoother_s9(void **state) {
  (void)state;
  const double a[9] = {4, -1, 0, -2, 4, -1, 0, -3, 4};
  host_crs_t h = hc_dense(3, 3, a);
  const double b[3] = {3, 1, 1}, zero[3] = {0, 0, 0};
  const double fwd[3] = {0.75, 0.625, 0.71875}, bwd[3] = {0.828125, 0.3125, 0.25};
  for (int xz = 0; xz < 2; ++xz) {
    smoothed_t f = smooth_on(T_exec, &h, STRATA_SMOOTH_HYBRID_GS, b, zero, 1, 0, xz);
    smoothed_t g = smooth_on(T_exec, &h, STRATA_SMOOTH_HYBRID_GS, b, zero, 1, 1, xz);
    assert_true(f.info.block_rows >= 3); /* the whole 3 x 3 in one block: exact GS */
    expect_same("S9 hybrid GS forward", f.x, fwd, 3, 1);
    expect_same("S9 hybrid GS backward", g.x, bwd, 3, 1);
    /* symmetric GS: forward, then backward from the forward result */
    smoothed_t s = smooth_on(T_exec, &h, STRATA_SMOOTH_SYMMETRIC_GS, b, zero, 1, 0, xz);
    double want[3] = {0.75, 0.625, 0.71875};
    const int32_t rev[3] = {2, 1, 0};
    double *dinv = host_dinv(&h, 0);
    host_gs_order(&h, dinv, rev, b, want);
    expect_same("S9 symmetric GS", s.x, want, 3, 1);
    /* multicolor GS: GS in the order of its colours */
    for (int bw = 0; bw < 2; ++bw) {
      smoothed_t m = smooth_on(T_exec, &h, STRATA_SMOOTH_MULTICOLOR_GS, b, zero, 1, bw, xz);
      int32_t *ord = color_order(m.color, 3, m.info.num_colors, bw);
      double x[3] = {0, 0, 0};
      host_gs_order(&h, dinv, ord, b, x);
      expect_same("S9 multicolor GS in colour order", m.x, x, 3, 1);
      /* the path 0 - 1 - 2 takes two colours or three; with {0, 2} one colour, forward GS in
       * colour order is 0, 2, 1 (or 1, then 0 and 2) */
      assert_true(m.info.num_colors == 2 || m.info.num_colors == 3);
      free(ord);
      smoothed_free(&m);
    }
    free(dinv);
    smoothed_free(&f);
    smoothed_free(&g);
    smoothed_free(&s);
  }
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ EDGE_CASES S8 */

static void test_amg_smoother_s8_zero_diagonal(void **state) {
  (void)state;
  const double a[9] = {0, 0, 0, 0, 2, 0, 0, 0, 0};
  host_crs_t h = hc_dense(3, 3, a);
  strata_crs_matrix_t *A = hc_on(T_exec, &h);
  for (int k = 0; k < NKINDS; ++k) {
    strata_amg_options_t o = opts_for(k);
    strata_impl_smoother_t *sm = (strata_impl_smoother_t *)&o; /* not NULL: create must set it */
    t_expect_msg(strata_impl_smoother_create(T_exec, A, &o, &sm), STRATA_ERR_INVALID_DATA, "row 0", kname[k]);
    assert_null(sm);
  }
  /* a row without a diagonal entry: row 1 */
  const double c[4] = {1, 0, 0, 0};
  host_crs_t g = hc_new(2, 2, 2);
  hc_push(&g, 0, c[0]);
  g.ro[1] = 1;
  hc_push(&g, 0, 1.0);
  g.ro[2] = 2;
  strata_crs_matrix_t *G = hc_on(T_exec, &g);
  strata_amg_options_t o = opts_for(STRATA_SMOOTH_HYBRID_GS);
  strata_impl_smoother_t *sm = NULL;
  t_expect_msg(strata_impl_smoother_create(T_exec, G, &o, &sm), STRATA_ERR_INVALID_DATA, "row 1", "diagonal");
  assert_null(sm);
  strata_crs_destroy(&G);
  strata_crs_destroy(&A);
  host_crs_free(&g);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ every backend against serial */

static void test_amg_smoother_backends(void **state) {
  (void)state;
  host_crs_t mats[4] = {hc_poisson(23, 19, 1), convdiff(20, 0.8), random_unsym(700, 6), hc_poisson(9, 8, 7)};
  const char *mname[4] = {"poisson 23x19", "convdiff 20^2", "random unsym 700", "poisson 9x8x7"};
  for (int m = 0; m < 4; ++m) {
    const host_crs_t *h = &mats[m];
    const int32_t n = h->nr;
    double *b = (double *)t_malloc(sizeof(double) * (size_t)n), *x0 = (double *)t_malloc(sizeof(double) * (size_t)n);
    for (int32_t i = 0; i < n; ++i) {
      b[i] = t_uniform(&T_rng) - 0.5;
      x0[i] = t_uniform(&T_rng) - 0.5;
    }
    double *zero = (double *)calloc((size_t)n, sizeof(double));
    for (int k = 0; k < NKINDS; ++k)
      for (int bw = 0; bw < 2; ++bw)
        for (int xz = 0; xz < 2; ++xz) {
          char what[160];
          snprintf(what, sizeof what, "%s, %s, %s, x_is_zero %d", mname[m], kname[k], bw ? "backward" : "forward", xz);
          smoothed_t got = smooth_on(T_exec, h, k, b, x0, 2, bw, xz);
          smoothed_t ser = smooth_on(T_serial, h, k, b, x0, 2, bw, xz);
          expect_same(what, got.x, ser.x, n, bitwise_kind(k));
          if (k == STRATA_SMOOTH_MULTICOLOR_GS)
            assert_memory_equal(got.color, ser.color, sizeof(int32_t) * (size_t)n);
          double *x = (double *)t_malloc(sizeof(double) * (size_t)n);
          memcpy(x, xz ? zero : x0, sizeof(double) * (size_t)n);
          host_smooth(h, &got.info, got.color, b, x, 2, bw);
          snprintf(what, sizeof what, "%s, %s, %s, x_is_zero %d: host reference", mname[m], kname[k],
                   bw ? "backward" : "forward", xz);
          expect_same(what, got.x, x, n, bitwise_kind(k));
          free(x);
          smoothed_free(&got);
          smoothed_free(&ser);
        }
    free(b);
    free(x0);
    free(zero);
  }
  for (int m = 0; m < 4; ++m) host_crs_free(&mats[m]);
}

/* ------------------------------------------------------------------ the colouring */

static void test_amg_smoother_coloring(void **state) {
  (void)state;
  host_crs_t mats[3] = {hc_poisson(31, 17, 1), random_unsym(1500, 9), hc_poisson(12, 11, 10)};
  for (int m = 0; m < 3; ++m) {
    const host_crs_t *h = &mats[m];
    const int32_t n = h->nr;
    double *b = (double *)calloc((size_t)n, sizeof(double));
    smoothed_t r = smooth_on(T_exec, h, STRATA_SMOOTH_MULTICOLOR_GS, b, b, 1, 0, 1);
    const int nc = r.info.num_colors;
    int maxdeg = 0;
    int *used = (int *)calloc((size_t)nc + 1, sizeof(int));
    for (int32_t i = 0; i < n; ++i) {
      if (r.color[i] < 0 || r.color[i] >= nc) fail_msg("row %d has colour %d (of %d)", (int)i, r.color[i], nc);
      used[r.color[i]] = 1;
      int deg = 0;
      for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
        const int32_t j = h->ci[k];
        if (j == i) continue;
        ++deg;
        /* an entry either way: i and j differ in colour (the graph of A + Aᵀ) */
        if (r.color[j] == r.color[i]) fail_msg("rows %d and %d are coupled and share colour %d", (int)i, (int)j, r.color[i]);
      }
      if (deg > maxdeg) maxdeg = deg;
    }
    for (int c = 0; c < nc; ++c)
      if (!used[c]) fail_msg("colour %d of %d unused", c, nc);
    /* first-fit over A + Aᵀ: at most (degree in A + Aᵀ) + 1 colours; A's row degree bounds it for
     * the symmetric patterns */
    if (m != 1) assert_true(nc <= maxdeg + 1);
    assert_true(nc >= 2);
    free(used);
    free(b);
    smoothed_free(&r);
  }
  for (int m = 0; m < 3; ++m) host_crs_free(&mats[m]);
}

/* ------------------------------------------------------------------ the eigenvalue estimate */

static void test_amg_smoother_eigen_estimate(void **state) {
  (void)state;
  const int32_t sizes[2] = {32, 100};
  for (int s = 0; s < 2; ++s) {
    const int32_t m = sizes[s];
    host_crs_t h = hc_poisson(m, m, 1);
    const double pi = 3.14159265358979323846;
    /* D⁻¹A = I - (adjacency) / 4: eigenvalues 1 - (cos(p π/(m+1)) + cos(q π/(m+1))) / 2 */
    const double lmax = 1.0 + cos(pi / (m + 1)), lmin = 1.0 - cos(pi / (m + 1));
    for (int k = STRATA_SMOOTH_WJACOBI; k <= STRATA_SMOOTH_CHEBYSHEV; k += 2) {
      double *b = (double *)calloc((size_t)h.nr, sizeof(double));
      smoothed_t r = smooth_on(T_exec, &h, k, b, b, 1, 0, 1);
      const strata_impl_smoother_info_t *in = &r.info;
      /* Ritz values of a symmetric matrix lie inside its spectrum */
      if (!(in->lambda_max <= lmax * (1 + 1e-12) && in->lambda_max >= 0.95 * lmax))
        fail_msg("%s m = %d: λ_max estimate %.6g, true %.6g (must be within 5 %% below)", kname[k], (int)m,
                 in->lambda_max, lmax);
      assert_true(in->lambda_min >= lmin * (1 - 1e-12) && in->lambda_min < in->lambda_max);
      if (k == STRATA_SMOOTH_CHEBYSHEV) {
        assert_true(in->cheby_lo == in->lambda_max / 30.0);
        assert_true(in->cheby_hi == 1.1 * in->lambda_max);
        assert_int_equal(in->degree, 2);
      } else {
        const double lo = in->lambda_min > 0.5 * in->lambda_max ? in->lambda_min : 0.5 * in->lambda_max;
        assert_true(t_reldiff(in->omega, 2.0 / (in->lambda_max + lo)) < 1e-15);
      }
      free(b);
      smoothed_free(&r);
    }
    host_crs_free(&h);
  }
}

/* ------------------------------------------------------------------ the smoothing property */

/* ||x||² and ||P_hi x||² on the m × m torus: P_hi projects on the Fourier modes (p, q) with
 * λ(p, q) = 1 - (cos 2πp/m + cos 2πq/m) / 2 >= 1 (the oscillatory half of D⁻¹A's spectrum [0, 2]),
 * by Parseval: ||P_hi x||² = (1/n) Σ_{λ >= 1} |X̂(p, q)|². */
static double torus_lambda(int32_t m, int p, int q) {
  const double pi = 3.14159265358979323846;
  return 1.0 - 0.5 * (cos(2 * pi * p / m) + cos(2 * pi * q / m));
}
static double high_norm2(int32_t m, const double *x) {
  const double pi = 3.14159265358979323846;
  double *cs = (double *)t_malloc(sizeof(double) * (size_t)m), *sn = (double *)t_malloc(sizeof(double) * (size_t)m);
  for (int t = 0; t < m; ++t) {
    cs[t] = cos(2 * pi * t / m);
    sn[t] = sin(2 * pi * t / m);
  }
  double hi = 0;
  for (int q = 0; q < m; ++q)
    for (int p = 0; p < m; ++p) {
      if (torus_lambda(m, p, q) < 1.0 - 1e-9) continue;
      double re = 0, im = 0;
      for (int y = 0; y < m; ++y)
        for (int xx = 0; xx < m; ++xx) {
          const int t = (p * xx + q * y) % m;
          re += x[y * m + xx] * cs[t];
          im -= x[y * m + xx] * sn[t];
        }
      hi += re * re + im * im;
    }
  free(cs);
  free(sn);
  return hi / ((double)m * m);
}
static double norm2(const double *x, int32_t n) {
  double s = 0;
  for (int32_t i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
/* the Chebyshev error polynomial T_d((θ - λ)/δ) / T_d(θ/δ) */
static double cheby_poly(double lo, double hi, int d, double lam) {
  const double theta = 0.5 * (hi + lo), delta = 0.5 * (hi - lo);
  double t0 = 1, t1 = (theta - lam) / delta, s0 = 1, s1 = theta / delta;
  for (int k = 1; k < d; ++k) {
    const double t2 = 2 * ((theta - lam) / delta) * t1 - t0, s2 = 2 * (theta / delta) * s1 - s0;
    t0 = t1;
    t1 = t2;
    s0 = s1;
    s1 = s2;
  }
  return d == 0 ? 1 : t1 / s1;
}
/* x^T A x */
static double energy(const host_crs_t *h, const double *x) {
  double e = 0;
  for (int32_t i = 0; i < h->nr; ++i) {
    double s = 0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) s += h->v[k] * x[h->ci[k]];
    e += x[i] * s;
  }
  return e;
}

static void test_amg_smoother_smoothing(void **state) {
  (void)state;
  const int32_t m = 16, n = m * m;
  const int sweeps = 3;
  host_crs_t h = torus2d(m);
  double *x0 = (double *)t_malloc(sizeof(double) * (size_t)n), *b = (double *)calloc((size_t)n, sizeof(double));
  for (int32_t i = 0; i < n; ++i) x0[i] = 2 * t_uniform(&T_rng) - 1;
  const double n0 = norm2(x0, n), h0 = high_norm2(m, x0), e0 = energy(&h, x0);
  for (int k = 0; k < NKINDS; ++k) {
    smoothed_t r = smooth_on(T_exec, &h, k, b, x0, sweeps, 0, 0);
    const double n3 = norm2(r.x, n), h3 = high_norm2(m, r.x), e3 = energy(&h, r.x);
    const double ratio = sqrt(h3 / h0);
    /* The Jacobi kinds and Chebyshev are polynomials in D⁻¹A = A / 4 (every diagonal is 4, and
     * the l1 diagonal 8 = 2 · 4), so every Fourier mode is multiplied by g(λ)^sweeps: the bound is
     * max over the oscillatory modes of |g(λ)|^sweeps (plus rounding). */
    double bound = -1, gmax_all = 0;
    for (int q = 0; q < m; ++q)
      for (int p = 0; p < m; ++p) {
        const double lam = torus_lambda(m, p, q);
        double g;
        switch (k) {
          case STRATA_SMOOTH_JACOBI:
          case STRATA_SMOOTH_WJACOBI: g = 1 - r.info.omega * lam; break;
          case STRATA_SMOOTH_L1_JACOBI: g = 1 - lam / 2; break;
          case STRATA_SMOOTH_CHEBYSHEV: g = cheby_poly(r.info.cheby_lo, r.info.cheby_hi, r.info.degree, lam); break;
          default: g = 0;
        }
        g = pow(fabs(g), sweeps);
        if (g > gmax_all) gmax_all = g;
        if (lam >= 1 - 1e-9 && g > bound) bound = g;
      }
    if (k <= STRATA_SMOOTH_CHEBYSHEV) {
      if (!(ratio <= bound * (1 + 1e-9) + 1e-13))
        fail_msg("%s: oscillatory part reduced by %.4g, the modes' bound is %.4g", kname[k], ratio, bound);
      /* the bounds in closed form: damped Jacobi max |1 - 2λ/3| on [1, 2] = 1/3; l1-Jacobi
       * max |1 - λ/2| = 1/2; weighted Jacobi max(|1 - ω|, |1 - 2ω|); Chebyshev 1 / T_d(σ) with
       * σ = (b + a) / (b - a), the minimax value on [a, b] ⊇ [1, 2] */
      double closed = 0;
      if (k == STRATA_SMOOTH_JACOBI) closed = 1.0 / 3.0;
      if (k == STRATA_SMOOTH_L1_JACOBI) closed = 0.5;
      if (k == STRATA_SMOOTH_WJACOBI) closed = fmax(fabs(1 - r.info.omega), fabs(1 - 2 * r.info.omega));
      if (k == STRATA_SMOOTH_CHEBYSHEV) {
        assert_true(r.info.cheby_lo < 1 && r.info.cheby_hi >= 2);
        closed = 1.0 / cosh(r.info.degree * acosh((r.info.cheby_hi + r.info.cheby_lo) / (r.info.cheby_hi - r.info.cheby_lo)));
      }
      closed = pow(closed, sweeps);
      if (!(bound <= closed * (1 + 1e-9))) fail_msg("%s: modes' bound %.6g above the closed form %.6g", kname[k], bound, closed);
      if (k != STRATA_SMOOTH_CHEBYSHEV) assert_true(closed <= 0.125 + 1e-12);
      /* |g| <= 1 on [0, 2]: the norm does not grow, and it falls (the oscillatory part shrinks) */
      assert_true(gmax_all <= 1 + 1e-12);
    } else {
      /* Gauss–Seidel (every variant is GS in some order, some rows lagging a sweep): for SPD A,
       * x <- x + M⁻¹(-A x) with M + Mᵀ - A positive semidefinite leaves ||x||_A non-increasing
       * (||x_new||_A² = ||x||_A² - cᵀ(M + Mᵀ - A)c, c the correction; M + Mᵀ - A = D for GS in
       * any order; for l1 hybrid GS, D + 2 D_l1 minus the couplings between blocks, which is
       * weakly diagonally dominant for every A (Baker et al. 2011), so semidefinite). */
      if (!(e3 <= e0)) fail_msg("%s: energy grew from %.6g to %.6g", kname[k], e0, e3);
      /* Local Fourier analysis (Brandt 1977; Trottenberg, Oosterlee, Schüller, Multigrid, §4.3)
       * gives the smoothing factor μ = 1/2 per Gauss–Seidel sweep on the 5-point Laplacian
       * (lexicographic; red-black 1/4): the oscillatory part after g sweeps within μ^g, g = 3
       * (hybrid, multicolor) or 6 (symmetric: two sweeps each). LFA's factor is asymptotic, not
       * a bound for every vector; the measured values lie well inside it. */
      const double lfa = pow(0.5, k == STRATA_SMOOTH_SYMMETRIC_GS ? 2 * sweeps : sweeps);
      if (!(ratio <= lfa)) fail_msg("%s: oscillatory part reduced by %.4g, LFA's factor %.4g", kname[k], ratio, lfa);
      bound = lfa;
    }
    if (!(n3 < n0)) fail_msg("%s: ||x|| grew from %.6g to %.6g", kname[k], sqrt(n0), sqrt(n3));
    printf("[ smoothing] %-9s ||x|| %.4f -> %.4f, oscillatory part x %.4g (bound %.4g), energy %.4g -> %.4g\n", kname[k],
           sqrt(n0), sqrt(n3), ratio, bound, e0, e3);
    smoothed_free(&r);
  }
  free(x0);
  free(b);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ n = 0 and bad input */

static void test_amg_smoother_empty(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 0, 0, 0, NULL, NULL, NULL, STRATA_CRS_COPY, &A));
  for (int k = 0; k < NKINDS; ++k) {
    strata_amg_options_t o = opts_for(k);
    strata_impl_smoother_t *sm = NULL;
    T_OK(strata_impl_smoother_create(T_exec, A, &o, &sm));
    assert_non_null(sm);
    T_OK(strata_impl_smoother_apply(T_exec, sm, NULL, NULL, 3, 0, 0));
    T_OK(strata_impl_smoother_apply(T_exec, sm, NULL, NULL, 2, 1, 1));
    strata_impl_smoother_info_t in;
    T_OK(strata_impl_smoother_info(sm, &in));
    assert_int_equal(in.n, 0);
    assert_int_equal(in.num_colors, 0);
    strata_impl_smoother_destroy(&sm);
    assert_null(sm);
  }
  strata_impl_smoother_destroy(NULL);
  strata_crs_destroy(&A);
}

static void test_amg_smoother_invalid(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(5, 5, 1);
  strata_crs_matrix_t *A = hc_on(T_exec, &h);
  strata_impl_smoother_t *sm = NULL;
  strata_amg_options_t o = opts_for(STRATA_SMOOTH_JACOBI);
  const double bad_omega[4] = {0.0, 2.0, -0.5, NAN};
  for (int i = 0; i < 4; ++i) {
    o.omega = bad_omega[i];
    t_expect_msg(strata_impl_smoother_create(T_exec, A, &o, &sm), STRATA_ERR_INVALID_ARGUMENT, "omega", "(0, 2)");
    assert_null(sm);
  }
  o = opts_for(STRATA_SMOOTH_CHEBYSHEV);
  o.cheby_degree = 0;
  t_expect_msg(strata_impl_smoother_create(T_exec, A, &o, &sm), STRATA_ERR_INVALID_ARGUMENT, "cheby_degree = 0",
               ">= 1");
  o = opts_for(7);
  t_expect_msg(strata_impl_smoother_create(T_exec, A, &o, &sm), STRATA_ERR_INVALID_ARGUMENT, "smoother = 7", "0 .. 6");
  o = opts_for(STRATA_SMOOTH_HYBRID_GS);
  t_expect_msg(strata_impl_smoother_create(T_exec, NULL, &o, &sm), STRATA_ERR_INVALID_ARGUMENT, "NULL A", NULL);
  t_expect_msg(strata_impl_smoother_create(T_exec, A, NULL, &sm), STRATA_ERR_INVALID_ARGUMENT, "NULL opts", NULL);
  t_expect_msg(strata_impl_smoother_create(T_exec, A, &o, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL sm", NULL);
  /* non-square */
  const double r[6] = {1, 0, 0, 0, 1, 0};
  host_crs_t g = hc_dense(2, 3, r);
  strata_crs_matrix_t *G = hc_on(T_exec, &g);
  t_expect_msg(strata_impl_smoother_create(T_exec, G, &o, &sm), STRATA_ERR_INVALID_ARGUMENT, "2 x 3", "square");
  /* sweeps < 0, NULL vectors */
  for (int k = 0; k < NKINDS; ++k) {
    o = opts_for(k);
    T_OK(strata_impl_smoother_create(T_exec, A, &o, &sm));
    double *x = vec_on(T_exec, NULL, h.nr), *b = vec_on(T_exec, NULL, h.nr);
    t_expect_msg(strata_impl_smoother_apply(T_exec, sm, b, x, -1, 0, 0), STRATA_ERR_INVALID_ARGUMENT, "sweeps = -1",
                 ">= 0");
    t_expect_msg(strata_impl_smoother_apply(T_exec, sm, NULL, x, 1, 0, 0), STRATA_ERR_INVALID_ARGUMENT, "NULL b", NULL);
    t_expect_msg(strata_impl_smoother_apply(T_exec, sm, b, NULL, 1, 0, 0), STRATA_ERR_INVALID_ARGUMENT, "NULL x", NULL);
    /* sweeps = 0: x untouched (poisoned NaN stays NaN bits) */
    T_OK(strata_impl_smoother_apply(T_exec, sm, b, x, 0, 0, 0));
    vec_free(T_exec, x);
    vec_free(T_exec, b);
    strata_impl_smoother_destroy(&sm);
  }
  strata_crs_destroy(&G);
  strata_crs_destroy(&A);
  host_crs_free(&g);
  host_crs_free(&h);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_amg_smoother_s9, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_s8_zero_diagonal, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_backends, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_coloring, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_eigen_estimate, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_smoothing, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_empty, t_setup),
      cmocka_unit_test_setup(test_amg_smoother_invalid, t_setup),
  };
  return T_RUN("amg_smoother", tests);
}
