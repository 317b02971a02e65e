/* strata tests — the batched dense kernels (strata/batched.h): GEMM and GEMV against a naive
 * host triple loop (every op pair, α = 0, β = 0 with C poisoned, padding left untouched, the
 * staged and the direct path, offsets arrays with tightly packed blocks of per-block sizes); QR
 * by ‖A − QR‖, ‖QᵀQ − I‖, Qᵀ·A = R (upper triangular) and R against LAPACKE_dgeqrf up to row
 * signs; QR with column pivoting by AP = QR, the falling |R_jj| and the pivots of LAPACKE_dgeqp3;
 * the Jacobi SVD by its singular values against LAPACKE_dgesvd (1e-12 relative to σ₁),
 * ‖A − UΣVᵀ‖ and orthogonality, on rank-deficient, zero, 1 × 1, wide, tall and large (workspace)
 * blocks; the truncation rank against a host evaluation of its definition; bad input and the
 * device error word. Every backend against serial too. The LAPACKE comparisons are skipped,
 * visibly, in a build without LAPACKE (STRATA_TEST_HAVE_LAPACKE). */
#include "test_common.h"

#include "strata/batched.h"
#include "batched_impl.h"

#ifdef STRATA_TEST_HAVE_LAPACKE
#include <lapacke.h>
#endif

/* ------------------------------------------------------------------ memory of any exec */

static void *d_alloc(strata_exec_t *ex, size_t bytes) {
  void *p = NULL;
  if (strata_mem_alloc(ex, STRATA_MEM_DEVICE, bytes, &p) != STRATA_SUCCESS)
    fail_msg("allocation of %zu bytes: %s", bytes, strata_error_message());
  if (p && strata_mem_set_async(ex, p, 0xFF, bytes) != STRATA_SUCCESS) fail_msg("poison: %s", strata_error_message());
  strata_exec_fence(ex);
  return p;
}
static void *d_up(strata_exec_t *ex, const void *h, size_t bytes) {
  void *p = d_alloc(ex, bytes);
  if (bytes && strata_mem_copy(ex, p, h, bytes) != STRATA_SUCCESS) fail_msg("copy: %s", strata_error_message());
  return p;
}
static void d_down(strata_exec_t *ex, void *h, const void *d, size_t bytes) {
  if (bytes && strata_mem_copy(ex, h, d, bytes) != STRATA_SUCCESS) fail_msg("copy: %s", strata_error_message());
}
static void d_free(strata_exec_t *ex, void *p) { strata_mem_free(ex, STRATA_MEM_DEVICE, &p); }

static double *rand_fill(size_t n) {
  double *x = (double *)t_malloc(sizeof(double) * (n ? n : 1));
  for (size_t i = 0; i < n; ++i) x[i] = 2.0 * t_uniform(&T_rng) - 1.0;
  return x;
}
static int is_poison(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u == ~0ull;
}

/* a (m × n, ld lda) = x1·y1ᵀ + x2·y2ᵀ + w3·x3·y3ᵀ with random vectors: rank 3 */
static void rank3(double *a, int m, int n, int lda, double w3) {
  double *X = rand_fill((size_t)m * 3), *Y = rand_fill((size_t)n * 3);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      a[i + (size_t)j * lda] = X[i] * Y[j] + X[m + i] * Y[n + j] + w3 * X[2 * m + i] * Y[2 * n + j];
  free(X), free(Y);
}

/* ------------------------------------------------------------------ GEMM */

typedef struct gcase {
  int opA, opB;
  int64_t count;
  int m, n, k, pad;
  double alpha, beta;
} gcase_t;

/* C (count blocks of m × n, ld m + pad) after the call on ex; A, B stored with ld rows + pad */
static void gemm_on(strata_exec_t *ex, const gcase_t *c, const double *A, const double *B, const double *C0,
                    double *out) {
  const int ar = c->opA ? c->k : c->m, ac = c->opA ? c->m : c->k, br = c->opB ? c->n : c->k, bc = c->opB ? c->k : c->n;
  const int lda = ar + c->pad, ldb = br + c->pad, ldc = c->m + c->pad;
  const size_t sa = (size_t)lda * ac, sb = (size_t)ldb * bc, sc = (size_t)ldc * c->n;
  double *dA = (double *)d_up(ex, A, sizeof(double) * sa * c->count);
  double *dB = (double *)d_up(ex, B, sizeof(double) * sb * c->count);
  double *dC = c->beta != 0.0 ? (double *)d_up(ex, C0, sizeof(double) * sc * c->count)
                              : (double *)d_alloc(ex, sizeof(double) * sc * c->count);
  strata_batched_shape_t s = strata_batched_shape(c->count, c->m, c->n, c->k);
  T_OK(strata_batched_gemm(ex, (strata_batched_op_t)c->opA, (strata_batched_op_t)c->opB, &s, c->alpha,
                           strata_batched_strided(dA, lda, (int64_t)sa), strata_batched_strided(dB, ldb, (int64_t)sb),
                           c->beta, strata_batched_strided(dC, ldc, (int64_t)sc), NULL));
  d_down(ex, out, dC, sizeof(double) * sc * c->count);
  d_free(ex, dA);
  d_free(ex, dB);
  d_free(ex, dC);
}

static void gemm_check(const gcase_t *c) {
  const int ar = c->opA ? c->k : c->m, ac = c->opA ? c->m : c->k, br = c->opB ? c->n : c->k, bc = c->opB ? c->k : c->n;
  const int lda = ar + c->pad, ldb = br + c->pad, ldc = c->m + c->pad;
  const size_t sa = (size_t)lda * ac, sb = (size_t)ldb * bc, sc = (size_t)ldc * c->n;
  double *A = rand_fill(sa * c->count), *B = rand_fill(sb * c->count), *C0 = rand_fill(sc * c->count);
  double *out = (double *)t_malloc(sizeof(double) * sc * c->count), *ser = (double *)t_malloc(sizeof(double) * sc * c->count);
  gemm_on(T_exec, c, A, B, C0, out);
  gemm_on(T_serial, c, A, B, C0, ser);
  for (int64_t b = 0; b < c->count; ++b)
    for (int j = 0; j < c->n; ++j)
      for (int i = 0; i < ldc; ++i) {
        const size_t at = b * sc + i + (size_t)j * ldc;
        if (i >= c->m) { /* padding rows: never written */
          if (!is_poison(out[at]) && !(c->beta != 0.0 && out[at] == C0[at]))
            fail_msg("gemm op %d%d %dx%dx%d: padding C(%d,%d) of block %lld written (seed %llu)", c->opA, c->opB, c->m,
                     c->n, c->k, i, j, (long long)b, (unsigned long long)T_seed);
          continue;
        }
        double s = 0.0, mag = 0.0;
        for (int l = 0; l < c->k; ++l) {
          const double x = c->opA ? A[b * sa + l + (size_t)i * lda] : A[b * sa + i + (size_t)l * lda];
          const double y = c->opB ? B[b * sb + j + (size_t)l * ldb] : B[b * sb + l + (size_t)j * ldb];
          s += x * y;
          mag += fabs(x * y);
        }
        double ref = c->alpha * s, bound = fabs(c->alpha) * mag;
        if (c->beta != 0.0) {
          ref += c->beta * C0[at];
          bound += fabs(c->beta * C0[at]);
        }
        if (!(fabs(out[at] - ref) <= 1e-14 * (c->k + 2) * bound + 1e-300))
          fail_msg("gemm op %d%d %dx%dx%d alpha %g beta %g: C(%d,%d) of block %lld = %.17g, reference %.17g (seed %llu)",
                   c->opA, c->opB, c->m, c->n, c->k, c->alpha, c->beta, i, j, (long long)b, out[at], ref,
                   (unsigned long long)T_seed);
        if (!(fabs(out[at] - ser[at]) <= 1e-14 * (c->k + 2) * bound + 1e-300))
          fail_msg("gemm: backend %.17g, serial %.17g at block %lld (seed %llu)", out[at], ser[at], (long long)b,
                   (unsigned long long)T_seed);
      }
  free(A);
  free(B);
  free(C0);
  free(out);
  free(ser);
}

static void test_gemm_ops(void **state) {
  (void)state;
  const int sizes[][3] = {{1, 1, 1}, {5, 3, 7}, {17, 9, 33}, {32, 32, 32}, {64, 40, 64}, {100, 20, 128}, {7, 1, 0},
                          {3, 130, 5}};
  for (int opA = 0; opA < 2; ++opA)
    for (int opB = 0; opB < 2; ++opB)
      for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
        gcase_t c = {opA, opB, 3, sizes[z][0], sizes[z][1], sizes[z][2], (int)(z % 3), 1.25, z % 2 ? 0.0 : -0.5};
        gemm_check(&c);
      }
  gcase_t a0 = {0, 1, 4, 9, 8, 7, 1, 0.0, 2.0}; /* alpha 0: C = beta C */
  gemm_check(&a0);
  gcase_t zz = {1, 0, 2, 6, 5, 4, 0, 0.0, 0.0}; /* both 0: C = 0 from poison */
  gemm_check(&zz);
}

/* The paths other than the default of this backend: lanes over rows (what GPUs run) on host
 * teams, op(A) read in place, op(A) staged up to half the scratch. */
static void test_gemm_paths(void **state) {
  (void)state;
  const int paths[][2] = {{0, -1}, {0, 0}, {-1, 0}, {0, 1}, {-1, 1}};
  const int sizes[][3] = {{5, 3, 7}, {33, 9, 17}, {100, 20, 128}};
  for (size_t p = 0; p < sizeof paths / sizeof paths[0]; ++p) {
    strata_impl_batched_gemm_paths(paths[p][0], paths[p][1]);
    for (int op = 0; op < 4; ++op)
      for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
        gcase_t c = {op / 2, op % 2, 3, sizes[z][0], sizes[z][1], sizes[z][2], 1, 0.5, op % 2 ? 0.0 : 2.0};
        gemm_check(&c);
      }
  }
}
/* teardown of test_gemm_paths: the default paths again, also after a failure */
static int gemm_paths_reset(void **state) {
  (void)state;
  strata_impl_batched_gemm_paths(-1, -1);
  return 0;
}

/* Blocks of per-block sizes packed tightly (ld = 0) in reverse order, found through offsets. */
static void test_gemm_offsets_variable(void **state) {
  (void)state;
  enum { CNT = 9, MB = 20, NB = 11, KB = 13 };
  int32_t ms[CNT], ns[CNT], ks[CNT];
  int64_t oa[CNT], ob[CNT], oc[CNT], ta = 0, tb = 0, tc = 0;
  for (int b = CNT - 1; b >= 0; --b) {
    ms[b] = (int32_t)(t_rand(&T_rng) % (MB + 1));
    ns[b] = (int32_t)(t_rand(&T_rng) % (NB + 1));
    ks[b] = (int32_t)(t_rand(&T_rng) % (KB + 1));
    if (b == 4) ms[b] = MB, ns[b] = NB, ks[b] = KB;
    oa[b] = ta;
    ob[b] = tb;
    oc[b] = tc;
    ta += (int64_t)ks[b] * ms[b]; /* A stored k × m (op T) */
    tb += (int64_t)ks[b] * ns[b];
    tc += (int64_t)ms[b] * ns[b];
  }
  double *A = rand_fill((size_t)ta), *B = rand_fill((size_t)tb), *C0 = rand_fill((size_t)tc);
  double *res[2];
  strata_exec_t *ex[2] = {T_exec, T_serial};
  for (int e = 0; e < 2; ++e) {
    double *dA = (double *)d_up(ex[e], A, sizeof(double) * ta), *dB = (double *)d_up(ex[e], B, sizeof(double) * tb);
    double *dC = (double *)d_up(ex[e], C0, sizeof(double) * tc);
    int64_t *doa = (int64_t *)d_up(ex[e], oa, sizeof oa), *dob = (int64_t *)d_up(ex[e], ob, sizeof ob);
    int64_t *doc = (int64_t *)d_up(ex[e], oc, sizeof oc);
    int32_t *dm = (int32_t *)d_up(ex[e], ms, sizeof ms), *dn = (int32_t *)d_up(ex[e], ns, sizeof ns);
    int32_t *dk = (int32_t *)d_up(ex[e], ks, sizeof ks);
    strata_batched_shape_t s = strata_batched_shape(CNT, MB, NB, KB);
    s.m_each = dm;
    s.n_each = dn;
    s.k_each = dk;
    T_OK(strata_batched_gemm(ex[e], STRATA_BATCHED_T, STRATA_BATCHED_N, &s, 0.75, strata_batched_at(dA, 0, doa),
                             strata_batched_at(dB, 0, dob), 1.5, strata_batched_at(dC, 0, doc), NULL));
    res[e] = (double *)t_malloc(sizeof(double) * tc);
    d_down(ex[e], res[e], dC, sizeof(double) * tc);
    d_free(ex[e], dA), d_free(ex[e], dB), d_free(ex[e], dC), d_free(ex[e], doa), d_free(ex[e], dob);
    d_free(ex[e], doc), d_free(ex[e], dm), d_free(ex[e], dn), d_free(ex[e], dk);
  }
  for (int b = 0; b < CNT; ++b)
    for (int j = 0; j < ns[b]; ++j)
      for (int i = 0; i < ms[b]; ++i) {
        const int lda = ks[b] > 1 ? ks[b] : 1, ldb = ks[b] > 1 ? ks[b] : 1, ldc = ms[b] > 1 ? ms[b] : 1;
        double s = 0.0, mag = 0.0;
        for (int l = 0; l < ks[b]; ++l) {
          const double p = A[oa[b] + l + (int64_t)i * lda] * B[ob[b] + l + (int64_t)j * ldb];
          s += p;
          mag += fabs(p);
        }
        const int64_t at = oc[b] + i + (int64_t)j * ldc;
        const double ref = 0.75 * s + 1.5 * C0[at], bound = 0.75 * mag + 1.5 * fabs(C0[at]);
        if (!(fabs(res[0][at] - ref) <= 1e-14 * 16 * bound) || !(fabs(res[1][at] - ref) <= 1e-14 * 16 * bound))
          fail_msg("gemm offsets: block %d (%dx%dx%d) C(%d,%d) = %.17g / serial %.17g, reference %.17g (seed %llu)", b,
                   ms[b], ns[b], ks[b], i, j, res[0][at], res[1][at], ref, (unsigned long long)T_seed);
      }
  free(A), free(B), free(C0), free(res[0]), free(res[1]);
}

static void test_gemv(void **state) {
  (void)state;
  const int sizes[][2] = {{1, 1}, {9, 4}, {4, 9}, {64, 64}, {130, 70}, {0, 5}, {5, 0}};
  for (int op = 0; op < 2; ++op)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
      const int m = sizes[z][0], n = sizes[z][1], lda = m + 2, cnt = 4;
      const int xl = op ? m : n, yl = op ? n : m;
      double *A = rand_fill((size_t)lda * n * cnt), *x = rand_fill((size_t)xl * cnt), *y0 = rand_fill((size_t)yl * cnt);
      double *y = (double *)t_malloc(sizeof(double) * ((size_t)yl * cnt + 1));
      const double beta = z % 2 ? 0.0 : 0.25;
      double *dA = (double *)d_up(T_exec, A, sizeof(double) * lda * n * cnt);
      double *dx = (double *)d_up(T_exec, x, sizeof(double) * xl * cnt);
      double *dy = beta != 0.0 ? (double *)d_up(T_exec, y0, sizeof(double) * yl * cnt)
                               : (double *)d_alloc(T_exec, sizeof(double) * yl * cnt);
      strata_batched_shape_t s = strata_batched_shape(cnt, m, n, 0);
      T_OK(strata_batched_gemv(T_exec, (strata_batched_op_t)op, &s, -2.0,
                               strata_batched_strided(dA, lda, (int64_t)lda * n), strata_batched_strided(dx, 0, xl),
                               beta, strata_batched_strided(dy, 0, yl), NULL));
      d_down(T_exec, y, dy, sizeof(double) * yl * cnt);
      for (int b = 0; b < cnt; ++b)
        for (int i = 0; i < yl; ++i) {
          double s_ = 0.0, mag = 0.0;
          for (int l = 0; l < xl; ++l) {
            const double av = op ? A[(size_t)b * lda * n + l + (size_t)i * lda] : A[(size_t)b * lda * n + i + (size_t)l * lda];
            s_ += av * x[b * xl + l];
            mag += fabs(av * x[b * xl + l]);
          }
          const double ref = -2.0 * s_ + (beta != 0.0 ? beta * y0[b * yl + i] : 0.0);
          if (!(fabs(y[b * yl + i] - ref) <= 1e-14 * (xl + 2) * (2.0 * mag + fabs(y0[b * yl + i]))))
            fail_msg("gemv op %d %dx%d: y[%d] of block %d = %.17g, reference %.17g (seed %llu)", op, m, n, i, b,
                     y[b * yl + i], ref, (unsigned long long)T_seed);
        }
      d_free(T_exec, dA), d_free(T_exec, dx), d_free(T_exec, dy);
      free(A), free(x), free(y0), free(y);
    }
}

/* ------------------------------------------------------------------ QR */

typedef struct qr_out {
  double *R;   /* the factored blocks (m × n, ld m) */
  double *tau; /* r each */
  double *Q;   /* explicit thin Q, m × r */
  double *QtA; /* Qᵀ·A, m × n */
  int32_t *perm; /* pivot: the permutations, n each */
} qr_out_t;

/* pivot: strata_batched_qrcp, else strata_batched_qr */
static qr_out_t qr_on(strata_exec_t *ex, int64_t cnt, int m, int n, const double *A, int pivot) {
  const int r = m < n ? m : n;
  const size_t sa = (size_t)m * n, sq = (size_t)m * r;
  qr_out_t o;
  o.R = (double *)t_malloc(sizeof(double) * sa * cnt);
  o.tau = (double *)t_malloc(sizeof(double) * r * cnt);
  o.Q = (double *)t_malloc(sizeof(double) * sq * cnt);
  o.QtA = (double *)t_malloc(sizeof(double) * sa * cnt);
  o.perm = (int32_t *)t_malloc(sizeof(int32_t) * n * cnt);
  int32_t *dp = (int32_t *)d_alloc(ex, sizeof(int32_t) * n * cnt);
  double *dA = (double *)d_up(ex, A, sizeof(double) * sa * cnt), *dt = (double *)d_alloc(ex, sizeof(double) * r * cnt);
  double *dQ = (double *)d_alloc(ex, sizeof(double) * sq * cnt), *dC = (double *)d_up(ex, A, sizeof(double) * sa * cnt);
  strata_batched_shape_t s = strata_batched_shape(cnt, m, n, 0);
  strata_batched_blocks_t bA = strata_batched_strided(dA, m, (int64_t)sa), bt = strata_batched_strided(dt, 0, r);
  if (pivot)
    T_OK(strata_batched_qrcp(ex, &s, bA, bt, dp, NULL));
  else
    T_OK(strata_batched_qr(ex, &s, bA, bt, NULL));
  strata_batched_shape_t sq_ = strata_batched_shape(cnt, m, r, r);
  T_OK(strata_batched_qr_apply(ex, STRATA_BATCHED_N, &sq_, bA, bt, 1, strata_batched_strided(dQ, 0, (int64_t)sq), NULL));
  strata_batched_shape_t sc = strata_batched_shape(cnt, m, n, r);
  T_OK(strata_batched_qr_apply(ex, STRATA_BATCHED_T, &sc, bA, bt, 0, strata_batched_strided(dC, m, (int64_t)sa), NULL));
  d_down(ex, o.R, dA, sizeof(double) * sa * cnt);
  d_down(ex, o.tau, dt, sizeof(double) * r * cnt);
  d_down(ex, o.perm, dp, sizeof(int32_t) * n * cnt);
  d_free(ex, dp);
  d_down(ex, o.Q, dQ, sizeof(double) * sq * cnt);
  d_down(ex, o.QtA, dC, sizeof(double) * sa * cnt);
  d_free(ex, dA), d_free(ex, dt), d_free(ex, dQ), d_free(ex, dC);
  return o;
}
static void qr_free(qr_out_t *o) { free(o->R), free(o->tau), free(o->Q), free(o->QtA), free(o->perm); }

static double fro(const double *x, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i) s += x[i] * x[i];
  return sqrt(s);
}

/* kind 0 random, 1 rank-deficient (repeated columns), 2 zero */
static void qr_check(int m, int n, int kind) {
  const int64_t cnt = 3;
  const int r = m < n ? m : n;
  const size_t sa = (size_t)m * n;
  double *A = rand_fill(sa * cnt);
  if (kind == 1)
    for (int64_t b = 0; b < cnt; ++b)
      for (int j = 2; j < n; ++j)
        for (int i = 0; i < m; ++i) A[b * sa + i + (size_t)j * m] = A[b * sa + i + (size_t)(j % 2) * m] * (1.0 + j);
  if (kind == 2) memset(A, 0, sizeof(double) * sa * cnt);
  qr_out_t o = qr_on(T_exec, cnt, m, n, A, 0), ser = qr_on(T_serial, cnt, m, n, A, 0);
  for (int64_t b = 0; b < cnt; ++b) {
    const double *a = A + b * sa, *R = o.R + b * sa, *Q = o.Q + b * (size_t)m * r, *C = o.QtA + b * sa;
    const double na = fro(a, sa) > 0 ? fro(a, sa) : 1.0;
    double err = 0.0, orth = 0.0, qta = 0.0, vs = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double s = 0.0;
        for (int l = 0; l <= (j < r - 1 ? j : r - 1); ++l) s += Q[i + (size_t)l * m] * R[l + (size_t)j * m];
        err = fmax(err, fabs(s - a[i + (size_t)j * m]));
        /* Qᵀ·A = R on and above the diagonal, 0 below */
        const double want = i <= j ? R[i + (size_t)j * m] : 0.0;
        qta = fmax(qta, fabs(C[i + (size_t)j * m] - want));
      }
    for (int p = 0; p < r; ++p)
      for (int q = 0; q < r; ++q) {
        double s = 0.0;
        for (int i = 0; i < m; ++i) s += Q[i + (size_t)p * m] * Q[i + (size_t)q * m];
        orth = fmax(orth, fabs(s - (p == q)));
      }
    /* R (not the reflectors: in a rank-deficient block those of the trailing columns come from
     * rounding noise, which differs with the order of sums) */
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j && i < m; ++i)
        vs = fmax(vs, fabs(o.R[b * sa + i + (size_t)j * m] - ser.R[b * sa + i + (size_t)j * m]));
    if (!(err <= 1e-14 * (m + n) * na) || !(orth <= 1e-14 * (m + 4)) || !(qta <= 1e-14 * (m + n) * na) ||
        !(vs <= 1e-13 * na))
      fail_msg("qr %dx%d kind %d block %lld: |A-QR| %.3g, |QtQ-I| %.3g, |QtA-R| %.3g, vs serial %.3g (|A| %.3g, seed %llu)",
               m, n, kind, (long long)b, err, orth, qta, vs, na, (unsigned long long)T_seed);
#ifdef STRATA_TEST_HAVE_LAPACKE
    double *L = (double *)t_malloc(sizeof(double) * sa), *lt = (double *)t_malloc(sizeof(double) * (r + 1));
    memcpy(L, a, sizeof(double) * sa);
    if (LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, L, m, lt) != 0) fail_msg("LAPACKE_dgeqrf failed");
    for (int i = 0; i < r; ++i) {
      /* row i's sign: from its largest entry in LAPACK's R */
      int jm = i;
      for (int j = i; j < n; ++j)
        if (fabs(L[i + (size_t)j * m]) > fabs(L[i + (size_t)jm * m])) jm = j;
      const double sg = (L[i + (size_t)jm * m] >= 0) == (R[i + (size_t)jm * m] >= 0) ? 1.0 : -1.0;
      for (int j = i; j < n; ++j)
        if (!(fabs(sg * R[i + (size_t)j * m] - L[i + (size_t)j * m]) <= 1e-13 * (m + n) * na))
          fail_msg("qr %dx%d kind %d block %lld: R(%d,%d) = %.17g, LAPACKE_dgeqrf %.17g (seed %llu)", m, n, kind,
                   (long long)b, i, j, R[i + (size_t)j * m], L[i + (size_t)j * m], (unsigned long long)T_seed);
    }
    free(L), free(lt);
#endif
  }
  qr_free(&o);
  qr_free(&ser);
  free(A);
}

static void test_qr(void **state) {
  (void)state;
  const int sizes[][2] = {{1, 1}, {8, 5}, {5, 8}, {40, 40}, {64, 16}, {16, 64}, {100, 60}, {1, 7}, {7, 1}, {130, 3}};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) qr_check(sizes[z][0], sizes[z][1], 0);
  qr_check(20, 12, 1);
  qr_check(12, 20, 1);
  qr_check(9, 6, 2);
  qr_check(6, 9, 2);
#ifndef STRATA_TEST_HAVE_LAPACKE
  printf("[  SKIPPED ] the LAPACKE_dgeqrf comparison: built without LAPACKE\n");
#endif
}

static double orth_err(const double *X, int rows, int cols);

/* ------------------------------------------------------------------ QR with column pivoting */

/* kind 0 random, 1 rank 3 (a product), 2 columns graded by 10^-j/4 in a shuffled order, 3 near copies */
static void qrcp_check(int m, int n, int kind) {
  const int64_t cnt = 3;
  const int r = m < n ? m : n;
  const size_t sa = (size_t)m * n;
  double *A = rand_fill(sa * cnt);
  for (int64_t b = 0; b < cnt; ++b) {
    double *a = A + b * sa;
    if (kind == 1) {
      rank3(a, m, n, m, 1.0);
    } else if (kind == 2) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) a[i + (size_t)j * m] *= pow(10.0, -0.25 * ((j * 7) % n));
    } else if (kind == 3) { /* the second half: the first half plus 1e-9 noise (the norms' recomputation) */
      for (int j = n / 2; j < n; ++j)
        for (int i = 0; i < m; ++i) a[i + (size_t)j * m] = a[i + (size_t)(j - n / 2) * m] * 2.0 + 1e-9 * a[i + (size_t)j * m];
    }
  }
  qr_out_t o = qr_on(T_exec, cnt, m, n, A, 1), ser = qr_on(T_serial, cnt, m, n, A, 1);
  for (int64_t b = 0; b < cnt; ++b) {
    const double *a = A + b * sa, *R = o.R + b * sa, *Q = o.Q + b * (size_t)m * r;
    const int32_t *pm = o.perm + b * n;
    const double na = fro(a, sa) > 0 ? fro(a, sa) : 1.0;
    int *seen = (int *)t_malloc(sizeof(int) * n);
    memset(seen, 0, sizeof(int) * n);
    for (int j = 0; j < n; ++j) {
      if (pm[j] < 0 || pm[j] >= n || seen[pm[j]]++)
        fail_msg("qrcp %dx%d kind %d block %lld: perm[%d] = %d is no permutation (seed %llu)", m, n, kind, (long long)b, j,
                 pm[j], (unsigned long long)T_seed);
      if (pm[j] != ser.perm[b * n + j] && kind != 1)
        fail_msg("qrcp %dx%d: perm[%d] = %d, serial %d (seed %llu)", m, n, j, pm[j], ser.perm[b * n + j],
                 (unsigned long long)T_seed);
    }
    free(seen);
    double err = 0.0, dec = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double t = 0.0;
        for (int l = 0; l <= (j < r - 1 ? j : r - 1); ++l) t += Q[i + (size_t)l * m] * R[l + (size_t)j * m];
        err = fmax(err, fabs(t - a[i + (size_t)pm[j] * m]));
      }
    for (int j = 1; j < r; ++j) dec = fmax(dec, fabs(R[j + (size_t)j * m]) - fabs(R[j - 1 + (size_t)(j - 1) * m]));
    const double r00 = fabs(R[0]) > 0 ? fabs(R[0]) : 1.0;
    if (!(err <= 1e-14 * (m + n) * na) || !(orth_err(Q, m, r) <= 1e-14 * (m + 4)) || !(dec <= 1e-13 * r00))
      fail_msg("qrcp %dx%d kind %d block %lld: |AP-QR| %.3g, |QtQ-I| %.3g, |R_jj| rises by %.3g (seed %llu)", m, n, kind,
               (long long)b, err, orth_err(Q, m, r), dec, (unsigned long long)T_seed);
    if (kind == 1)
      for (int j = 3; j < r; ++j)
        if (!(fabs(R[j + (size_t)j * m]) <= 1e-13 * r00))
          fail_msg("qrcp %dx%d rank 3 block %lld: |R(%d,%d)| = %.3g (|R00| %.3g; seed %llu)", m, n, (long long)b, j, j,
                   fabs(R[j + (size_t)j * m]), r00, (unsigned long long)T_seed);
#ifdef STRATA_TEST_HAVE_LAPACKE
    double *L = (double *)t_malloc(sizeof(double) * sa), *lt = (double *)t_malloc(sizeof(double) * (r + 1));
    lapack_int *jp = (lapack_int *)t_malloc(sizeof(lapack_int) * n);
    memcpy(L, a, sizeof(double) * sa);
    memset(jp, 0, sizeof(lapack_int) * n);
    if (LAPACKE_dgeqp3(LAPACK_COL_MAJOR, m, n, L, m, jp, lt) != 0) fail_msg("LAPACKE_dgeqp3 failed");
    for (int j = 0; j < r; ++j) {
      if (kind != 1 && pm[j] != jp[j] - 1)
        fail_msg("qrcp %dx%d kind %d block %lld: pivot %d is column %d, LAPACKE_dgeqp3's %d (seed %llu)", m, n, kind,
                 (long long)b, j, pm[j], (int)jp[j] - 1, (unsigned long long)T_seed);
      if (!(fabs(fabs(R[j + (size_t)j * m]) - fabs(L[j + (size_t)j * m])) <= 1e-12 * r00))
        fail_msg("qrcp %dx%d kind %d block %lld: |R(%d,%d)| = %.17g, LAPACKE_dgeqp3 %.17g (seed %llu)", m, n, kind,
                 (long long)b, j, j, fabs(R[j + (size_t)j * m]), fabs(L[j + (size_t)j * m]), (unsigned long long)T_seed);
    }
    free(L), free(lt), free(jp);
#endif
  }
  qr_free(&o);
  qr_free(&ser);
  free(A);
}

static void test_qrcp(void **state) {
  (void)state;
  const int sizes[][2] = {{1, 1}, {9, 6}, {6, 9}, {40, 40}, {100, 30}, {1, 5}, {5, 1}};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) qrcp_check(sizes[z][0], sizes[z][1], 0);
  qrcp_check(30, 20, 1);
  qrcp_check(20, 30, 1);
  qrcp_check(48, 32, 2);
  qrcp_check(40, 16, 3);
#ifndef STRATA_TEST_HAVE_LAPACKE
  printf("[  SKIPPED ] the LAPACKE_dgeqp3 comparison: built without LAPACKE\n");
#endif
}

/* ------------------------------------------------------------------ SVD */

typedef struct svd_out {
  double *S, *U, *V;
} svd_out_t;

static svd_out_t svd_on(strata_exec_t *ex, int64_t cnt, int m, int n, const double *A, int lda) {
  const int p = m < n ? m : n;
  svd_out_t o;
  const size_t sa = (size_t)lda * n;
  o.S = (double *)t_malloc(sizeof(double) * p * cnt);
  o.U = (double *)t_malloc(sizeof(double) * (size_t)m * p * cnt);
  o.V = (double *)t_malloc(sizeof(double) * (size_t)n * p * cnt);
  double *dA = (double *)d_up(ex, A, sizeof(double) * sa * cnt), *dS = (double *)d_alloc(ex, sizeof(double) * p * cnt);
  double *dU = (double *)d_alloc(ex, sizeof(double) * (size_t)m * p * cnt);
  double *dV = (double *)d_alloc(ex, sizeof(double) * (size_t)n * p * cnt);
  strata_batched_shape_t s = strata_batched_shape(cnt, m, n, 0);
  T_OK(strata_batched_svd(ex, &s, strata_batched_strided(dA, lda, (int64_t)sa), strata_batched_strided(dS, 0, p),
                          strata_batched_strided(dU, 0, (int64_t)m * p), strata_batched_strided(dV, 0, (int64_t)n * p),
                          NULL));
  d_down(ex, o.S, dS, sizeof(double) * p * cnt);
  d_down(ex, o.U, dU, sizeof(double) * (size_t)m * p * cnt);
  d_down(ex, o.V, dV, sizeof(double) * (size_t)n * p * cnt);
  d_free(ex, dA), d_free(ex, dS), d_free(ex, dU), d_free(ex, dV);
  return o;
}

static double orth_err(const double *X, int rows, int cols) {
  double e = 0.0;
  for (int p = 0; p < cols; ++p)
    for (int q = 0; q < cols; ++q) {
      double s = 0.0;
      for (int i = 0; i < rows; ++i) s += X[i + (size_t)p * rows] * X[i + (size_t)q * rows];
      e = fmax(e, fabs(s - (p == q)));
    }
  return e;
}

/* kind 0 random, 1 rank 3 (a product), 2 zero, 3 graded (columns scaled by 10^-j/2) */
static void svd_check(int m, int n, int kind, int64_t cnt) {
  const int p = m < n ? m : n, lda = m + 1;
  const size_t sa = (size_t)lda * n;
  double *A = rand_fill(sa * cnt);
  for (int64_t b = 0; b < cnt; ++b) {
    double *a = A + b * sa;
    if (kind == 1) {
      rank3(a, m, n, lda, 1e-3);
    } else if (kind == 2) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) a[i + (size_t)j * lda] = 0.0;
    } else if (kind == 3) {
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) a[i + (size_t)j * lda] *= pow(10.0, -0.5 * j);
    }
  }
  svd_out_t o = svd_on(T_exec, cnt, m, n, A, lda), ser = svd_on(T_serial, cnt, m, n, A, lda);
  for (int64_t b = 0; b < cnt; ++b) {
    const double *a = A + b * sa, *S = o.S + b * p, *U = o.U + b * (size_t)m * p, *V = o.V + b * (size_t)n * p;
    const double s1 = S[0] > 0 ? S[0] : 1.0;
    double rec = 0.0, vs = 0.0;
    for (int j = 0; j < p; ++j) {
      if (j > 0 && !(S[j] <= S[j - 1])) fail_msg("svd %dx%d: S not descending at %d (seed %llu)", m, n, j, (unsigned long long)T_seed);
      vs = fmax(vs, fabs(S[j] - ser.S[b * p + j]));
    }
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double s = 0.0;
        for (int l = 0; l < p; ++l) s += U[i + (size_t)l * m] * S[l] * V[j + (size_t)l * n];
        rec = fmax(rec, fabs(s - a[i + (size_t)j * lda]));
      }
    const double ou = orth_err(U, m, p), ov = orth_err(V, n, p);
    if (!(rec <= 1e-13 * s1 * sqrt((double)m + n)) || !(ou <= 1e-12) || !(ov <= 1e-12) || !(vs <= 1e-13 * s1))
      fail_msg("svd %dx%d kind %d block %lld: |A-USV'| %.3g, |U'U-I| %.3g, |V'V-I| %.3g, S vs serial %.3g (s1 %.3g, seed %llu)",
               m, n, kind, (long long)b, rec, ou, ov, vs, s1, (unsigned long long)T_seed);
#ifdef STRATA_TEST_HAVE_LAPACKE
    double *L = (double *)t_malloc(sizeof(double) * sa), *ls = (double *)t_malloc(sizeof(double) * (p + 1));
    double *sup = (double *)t_malloc(sizeof(double) * (p + 1));
    memcpy(L, a, sizeof(double) * sa);
    double dummy = 0.0;
    if (LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, n, L, lda, ls, &dummy, 1, &dummy, 1, sup) != 0)
      fail_msg("LAPACKE_dgesvd failed");
    for (int j = 0; j < p; ++j)
      if (!(fabs(S[j] - ls[j]) <= 1e-12 * s1))
        fail_msg("svd %dx%d kind %d block %lld: S[%d] = %.17g, LAPACKE_dgesvd %.17g (seed %llu)", m, n, kind, (long long)b,
                 j, S[j], ls[j], (unsigned long long)T_seed);
    free(L), free(ls), free(sup);
#endif
  }
  free(o.S), free(o.U), free(o.V), free(ser.S), free(ser.U), free(ser.V);
  free(A);
}

static void test_svd(void **state) {
  (void)state;
  const int sizes[][2] = {{1, 1}, {2, 2}, {7, 7}, {32, 32}, {64, 64}, {50, 20}, {20, 50}, {128, 64}, {64, 1}, {1, 64}, {33, 17}};
  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) svd_check(sizes[z][0], sizes[z][1], 0, 3);
  svd_check(40, 30, 1, 3);
  svd_check(30, 40, 1, 2);
  svd_check(16, 16, 2, 2);
  svd_check(9, 5, 2, 1);
  svd_check(24, 24, 3, 2);
#ifndef STRATA_TEST_HAVE_LAPACKE
  printf("[  SKIPPED ] the LAPACKE_dgesvd comparison: built without LAPACKE\n");
#endif
}

/* Per-block sizes (the leaves of an H² tree): blocks of their own m_i × n_i packed tightly (ld = 0)
 * in reverse order and found through offsets; QR (with the explicit Q of r_i = min(m_i, n_i)
 * columns) and the SVD, each block checked by its identities. */
static void test_variable_qr_svd(void **state) {
  (void)state;
  enum { CNT = 11, MB = 21, NB = 13 };
  int32_t ms[CNT], ns[CNT], rs[CNT];
  int64_t oa[CNT], ot[CNT], oq[CNT], ov[CNT], ta = 0, tt = 0, tq = 0, tv = 0;
  for (int b = CNT - 1; b >= 0; --b) {
    ms[b] = (int32_t)(t_rand(&T_rng) % (MB + 1));
    ns[b] = (int32_t)(t_rand(&T_rng) % (NB + 1));
    if (b == 3) ms[b] = MB, ns[b] = NB;
    if (b == 5) ms[b] = 4, ns[b] = NB; /* wide */
    rs[b] = ms[b] < ns[b] ? ms[b] : ns[b];
    oa[b] = ta, ot[b] = tt, oq[b] = tq, ov[b] = tv;
    ta += (int64_t)ms[b] * ns[b];
    tt += rs[b];
    tq += (int64_t)ms[b] * rs[b];
    tv += (int64_t)ns[b] * rs[b];
  }
  double *A = rand_fill((size_t)ta), *R = (double *)t_malloc(sizeof(double) * (ta + 1));
  double *Q = (double *)t_malloc(sizeof(double) * (tq + 1)), *S = (double *)t_malloc(sizeof(double) * (tt + 1));
  double *U = (double *)t_malloc(sizeof(double) * (tq + 1)), *V = (double *)t_malloc(sizeof(double) * (tv + 1));
  strata_exec_t *ex = T_exec;
  double *dA = (double *)d_up(ex, A, sizeof(double) * ta), *dR = (double *)d_up(ex, A, sizeof(double) * ta);
  double *dt = (double *)d_alloc(ex, sizeof(double) * (tt + 1)), *dQ = (double *)d_alloc(ex, sizeof(double) * (tq + 1));
  double *dS = (double *)d_alloc(ex, sizeof(double) * (tt + 1)), *dU = (double *)d_alloc(ex, sizeof(double) * (tq + 1));
  double *dV = (double *)d_alloc(ex, sizeof(double) * (tv + 1));
  int64_t *doa = (int64_t *)d_up(ex, oa, sizeof oa), *dot = (int64_t *)d_up(ex, ot, sizeof ot);
  int64_t *doq = (int64_t *)d_up(ex, oq, sizeof oq), *dov = (int64_t *)d_up(ex, ov, sizeof ov);
  int32_t *dm = (int32_t *)d_up(ex, ms, sizeof ms), *dn = (int32_t *)d_up(ex, ns, sizeof ns);
  int32_t *dr = (int32_t *)d_up(ex, rs, sizeof rs);
  strata_batched_shape_t s = strata_batched_shape(CNT, MB, NB, 0);
  s.m_each = dm, s.n_each = dn;
  T_OK(strata_batched_qr(ex, &s, strata_batched_at(dR, 0, doa), strata_batched_at(dt, 0, dot), NULL));
  strata_batched_shape_t sq = strata_batched_shape(CNT, MB, NB, NB);
  sq.m_each = dm, sq.n_each = dr, sq.k_each = dr;
  T_OK(strata_batched_qr_apply(ex, STRATA_BATCHED_N, &sq, strata_batched_at(dR, 0, doa), strata_batched_at(dt, 0, dot), 1,
                               strata_batched_at(dQ, 0, doq), NULL));
  T_OK(strata_batched_svd(ex, &s, strata_batched_at(dA, 0, doa), strata_batched_at(dS, 0, dot),
                          strata_batched_at(dU, 0, doq), strata_batched_at(dV, 0, dov), NULL));
  d_down(ex, R, dR, sizeof(double) * ta), d_down(ex, Q, dQ, sizeof(double) * tq), d_down(ex, S, dS, sizeof(double) * tt);
  d_down(ex, U, dU, sizeof(double) * tq), d_down(ex, V, dV, sizeof(double) * tv);
  for (int b = 0; b < CNT; ++b) {
    const int m = ms[b], n = ns[b], r = rs[b];
    const double *a = A + oa[b], *rb = R + oa[b], *q = Q + oq[b], *sg = S + ot[b], *u = U + oq[b], *v = V + ov[b];
    double eq = 0.0, es = 0.0, na = 0.0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double x = 0.0, y = 0.0;
        for (int l = 0; l <= (j < r - 1 ? j : r - 1); ++l) x += q[i + l * m] * rb[l + j * m];
        for (int l = 0; l < r; ++l) y += u[i + l * m] * sg[l] * v[j + l * n];
        eq = fmax(eq, fabs(x - a[i + j * m]));
        es = fmax(es, fabs(y - a[i + j * m]));
        na = fmax(na, fabs(a[i + j * m]));
      }
    const double oq_ = r ? orth_err(q, m, r) : 0.0, ou = r ? orth_err(u, m, r) : 0.0, ov_ = r ? orth_err(v, n, r) : 0.0;
    if (!(eq <= 1e-13 * (na + 1e-300) * (m + n)) || !(es <= 1e-13 * (na + 1e-300) * (m + n)) || !(oq_ <= 1e-13) ||
        !(ou <= 1e-12) || !(ov_ <= 1e-12))
      fail_msg("variable block %d (%dx%d): |A-QR| %.3g, |A-USV'| %.3g, orthogonality Q %.3g U %.3g V %.3g (seed %llu)", b,
               m, n, eq, es, oq_, ou, ov_, (unsigned long long)T_seed);
  }
  d_free(ex, dA), d_free(ex, dR), d_free(ex, dt), d_free(ex, dQ), d_free(ex, dS), d_free(ex, dU), d_free(ex, dV);
  d_free(ex, doa), d_free(ex, dot), d_free(ex, doq), d_free(ex, dov), d_free(ex, dm), d_free(ex, dn), d_free(ex, dr);
  free(A), free(R), free(Q), free(S), free(U), free(V);
}

/* Working copies beyond team scratch (host 1 MiB, GPUs 100 KiB): the workspace path. */
static void test_svd_workspace(void **state) {
  (void)state;
  svd_check(1000, 140, 0, 1);
  svd_check(200, 120, 1, 2);
}

/* ------------------------------------------------------------------ truncation rank */

/* the definition, evaluated directly: the smallest r whose error (2: σ_r; F: sqrt of the tail sum)
 * is <= the threshold */
static int rank_ref(const double *S, int n, double tol, int fro_, int rel) {
  double tot = 0.0;
  for (int j = 0; j < n; ++j) tot += S[j] * S[j];
  const double nrm = fro_ ? sqrt(tot) : (n ? S[0] : 0.0);
  const double thr = rel ? tol * nrm : tol;
  for (int r = 0; r <= n; ++r) {
    double e = 0.0;
    if (fro_) {
      for (int j = r; j < n; ++j) e += S[j] * S[j];
      e = sqrt(e);
    } else {
      e = r < n ? S[r] : 0.0;
    }
    if (e <= thr * (1 + 1e-14)) return r;
  }
  return n;
}

static void test_svd_rank(void **state) {
  (void)state;
  enum { CNT = 6, N = 10 };
  double S[CNT * N];
  for (int j = 0; j < N; ++j) {
    S[0 * N + j] = pow(10.0, -j);         /* geometric */
    S[1 * N + j] = 0.0;                   /* zero block */
    S[2 * N + j] = j < 4 ? 1e6 : 1e-9;    /* a gap */
    S[3 * N + j] = 1e6 * pow(10.0, -j);   /* the geometric one scaled (EDGE_CASES Q6) */
    S[4 * N + j] = 3.0;                   /* ties */
    S[5 * N + j] = j < 5 ? 1.0 / (j + 1) : 0.0;
  }
  double *dS = (double *)d_up(T_exec, S, sizeof S);
  int32_t *dr = (int32_t *)d_alloc(T_exec, sizeof(int32_t) * CNT), r[CNT];
  const double tols[] = {0.0, 1e-3, 0.05, 0.5, 2.0};
  for (int fro_ = 0; fro_ < 2; ++fro_)
    for (int rel = 0; rel < 2; ++rel)
      for (size_t t = 0; t < sizeof tols / sizeof tols[0]; ++t) {
        strata_batched_shape_t s = strata_batched_shape(CNT, 0, N, 0);
        T_OK(strata_batched_svd_rank(T_exec, &s, strata_batched_strided(dS, 0, N), tols[t],
                                     (strata_batched_rank_norm_t)fro_, rel, dr, NULL));
        d_down(T_exec, r, dr, sizeof r);
        for (int b = 0; b < CNT; ++b) {
          const int want = rank_ref(S + b * N, N, tols[t], fro_, rel);
          if (r[b] != want)
            fail_msg("svd_rank fro %d rel %d tol %g block %d: %d, expected %d", fro_, rel, tols[t], b, r[b], want);
        }
        if (rel) assert_int_equal(r[0], r[3]); /* scaling the block changes no relative rank */
      }
  /* unsorted values: bad data naming block 1, whose rank is then n */
  double bad[2 * 3] = {3, 2, 1, 1, 2, 3};
  double *db = (double *)d_up(T_exec, bad, sizeof bad);
  strata_batched_shape_t s2 = strata_batched_shape(2, 0, 3, 0);
  t_expect_msg(strata_batched_svd_rank(T_exec, &s2, strata_batched_strided(db, 0, 3), 0.1, STRATA_BATCHED_RANK_2, 1, dr,
                                       NULL),
               STRATA_ERR_INVALID_DATA, "block 1", "descending");
  d_down(T_exec, r, dr, sizeof(int32_t) * 2);
  assert_int_equal(r[1], 3);
  d_free(T_exec, dS), d_free(T_exec, dr), d_free(T_exec, db);
}

/* ------------------------------------------------------------------ bad input, the error word */

static void test_bad_input(void **state) {
  (void)state;
  double *d = (double *)d_alloc(T_exec, sizeof(double) * 64 * 4);
  strata_batched_blocks_t B = strata_batched_strided(d, 8, 64);
  strata_batched_shape_t s = strata_batched_shape(4, 8, 8, 8);
  s.m = -1;
  t_expect_msg(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_N, &s, 1, B, B, 0, B, NULL),
               STRATA_ERR_INVALID_ARGUMENT, "m = -1", ">= 0");
  s = strata_batched_shape(4, 8, 1025, 8);
  t_expect_msg(strata_batched_qr(T_exec, &s, B, B, NULL), STRATA_ERR_INVALID_ARGUMENT, "n = 1025", "1024");
  s = strata_batched_shape(-3, 8, 8, 8);
  t_expect_msg(strata_batched_qr(T_exec, &s, B, B, NULL), STRATA_ERR_INVALID_ARGUMENT, "count = -3", NULL);
  s = strata_batched_shape(1, 300, 257, 0);
  t_expect_msg(strata_batched_svd(T_exec, &s, B, B, B, B, NULL), STRATA_ERR_INVALID_ARGUMENT, "min(m, n) = 257", "256");
  s = strata_batched_shape(4, 9, 8, 8);
  t_expect_msg(strata_batched_qr(T_exec, &s, B, B, NULL), STRATA_ERR_INVALID_ARGUMENT, "A.ld = 8", "rows 9");
  s = strata_batched_shape(4, 8, 9, 8);
  t_expect_msg(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_N, &s, 1, B, B, 0,
                                   strata_batched_strided(d, 8, 8), NULL),
               STRATA_ERR_INVALID_ARGUMENT, "C.stride = 8", "overlap");
  s = strata_batched_shape(4, 8, 8, 8);
  t_expect_msg(strata_batched_gemm(T_exec, (strata_batched_op_t)2, STRATA_BATCHED_N, &s, 1, B, B, 0, B, NULL),
               STRATA_ERR_INVALID_ARGUMENT, "opA = 2", NULL);
  t_expect_msg(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_N, &s, 1, strata_batched_strided(NULL, 8, 64),
                                   B, 0, B, NULL),
               STRATA_ERR_INVALID_ARGUMENT, "A.data is NULL", NULL);
  t_expect_msg(strata_batched_svd_rank(T_exec, &s, B, -1.0, STRATA_BATCHED_RANK_2, 1, NULL, NULL),
               STRATA_ERR_INVALID_ARGUMENT, "tol = -1", NULL);
  s = strata_batched_shape(4, 8, 8, 9);
  t_expect_msg(strata_batched_qr_apply(T_exec, STRATA_BATCHED_N, &s, B, B, 0, B, NULL), STRATA_ERR_INVALID_ARGUMENT,
               "k = 9", "m = 8");
  /* zero-sized batches and blocks: valid, nothing read */
  strata_batched_blocks_t nul = strata_batched_strided(NULL, 0, 0);
  s = strata_batched_shape(0, 8, 8, 8);
  T_OK(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_T, &s, 1, nul, nul, 1, nul, NULL));
  T_OK(strata_batched_qr(T_exec, &s, nul, nul, NULL));
  T_OK(strata_batched_svd(T_exec, &s, nul, nul, nul, nul, NULL));
  T_OK(strata_batched_svd_rank(T_exec, &s, nul, 0.1, STRATA_BATCHED_RANK_FRO, 1, NULL, NULL));
  s = strata_batched_shape(5, 0, 7, 3);
  T_OK(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_N, &s, 1, nul, nul, 1, nul, NULL));
  T_OK(strata_batched_svd(T_exec, &s, nul, nul, nul, nul, NULL));
  d_free(T_exec, d);
}

static void test_nonfinite_and_word(void **state) {
  (void)state;
  enum { CNT = 5, M = 6, N = 4 };
  double A[CNT * M * N];
  for (int i = 0; i < CNT * M * N; ++i) A[i] = 2.0 * t_uniform(&T_rng) - 1.0;
  A[3 * M * N + 5] = NAN;
  A[4 * M * N + 1] = INFINITY;
  double *dA = (double *)d_up(T_exec, A, sizeof A), *dt = (double *)d_alloc(T_exec, sizeof(double) * CNT * N);
  double *dS = (double *)d_alloc(T_exec, sizeof(double) * CNT * N), *dC = (double *)d_alloc(T_exec, sizeof(double) * CNT * M * M);
  strata_batched_shape_t s = strata_batched_shape(CNT, M, N, 0);
  strata_batched_blocks_t bA = strata_batched_strided(dA, M, M * N);
  t_expect_msg(strata_batched_svd(T_exec, &s, bA, strata_batched_strided(dS, 0, N), strata_batched_strided(NULL, 0, 0),
                                  strata_batched_strided(NULL, 0, 0), NULL),
               STRATA_ERR_INVALID_DATA, "block 3", "NaN or Inf");
  double Sh[CNT * N];
  d_down(T_exec, Sh, dS, sizeof Sh);
  assert_true(isnan(Sh[3 * N]) && isfinite(Sh[2 * N]) && Sh[2 * N] > 0); /* the others computed */
  strata_batched_shape_t g = strata_batched_shape(CNT, M, M, N);
  t_expect_msg(strata_batched_gemm(T_exec, STRATA_BATCHED_N, STRATA_BATCHED_T, &g, 1, bA, bA, 0,
                                   strata_batched_strided(dC, M, M * M), NULL),
               STRATA_ERR_INVALID_DATA, "block 3", NULL);
  /* the asynchronous form: one word over two calls; the smallest bad block wins */
  int64_t *w = (int64_t *)d_alloc(T_exec, sizeof(int64_t));
  T_OK(strata_batched_info_reset(T_exec, w));
  int64_t blk = 0;
  T_OK(strata_batched_info_check(T_exec, w, "clean", &blk));
  assert_int_equal(blk, -1);
  strata_batched_shape_t q4 = strata_batched_shape(1, M, N, 0); /* block 0 only: clean */
  T_OK(strata_batched_qr(T_exec, &q4, bA, strata_batched_strided(dt, 0, N), w));
  T_OK(strata_batched_qr(T_exec, &s, strata_batched_strided(dA, M, M * N), strata_batched_strided(dt, 0, N), w));
  t_expect_msg(strata_batched_info_check(T_exec, w, "two calls", &blk), STRATA_ERR_INVALID_DATA, "two calls: block 3", NULL);
  assert_int_equal(blk, 3);
  /* a per-block size beyond its bound */
  int32_t ms[CNT] = {6, 6, 7, 6, 6};
  int32_t *dm = (int32_t *)d_up(T_exec, ms, sizeof ms);
  strata_batched_shape_t v = strata_batched_shape(3, M, N, 0);
  v.m_each = dm;
  t_expect_msg(strata_batched_qr(T_exec, &v, bA, strata_batched_strided(dt, 0, N), NULL), STRATA_ERR_INVALID_DATA,
               "block 2", "per-block size");
  d_free(T_exec, dA), d_free(T_exec, dt), d_free(T_exec, dS), d_free(T_exec, dC), d_free(T_exec, w), d_free(T_exec, dm);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_gemm_ops, t_setup),
      cmocka_unit_test_setup_teardown(test_gemm_paths, t_setup, gemm_paths_reset),
      cmocka_unit_test_setup(test_gemm_offsets_variable, t_setup),
      cmocka_unit_test_setup(test_gemv, t_setup),
      cmocka_unit_test_setup(test_qr, t_setup),
      cmocka_unit_test_setup(test_qrcp, t_setup),
      cmocka_unit_test_setup(test_svd, t_setup),
      cmocka_unit_test_setup(test_svd_workspace, t_setup),
      cmocka_unit_test_setup(test_variable_qr_svd, t_setup),
      cmocka_unit_test_setup(test_svd_rank, t_setup),
      cmocka_unit_test_setup(test_bad_input, t_setup),
      cmocka_unit_test_setup(test_nonfinite_and_word, t_setup),
  };
  return T_RUN("batched", tests);
}
