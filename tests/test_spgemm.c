/* strata tests — SpGEMM C = A·B and the Galerkin product (strata/spgemm.h). Every product is
 * checked against a host Gustavson product written here, which sums each entry in the order the
 * header fixes (A's row entries in storage order, then B's, from -0.0): bit for bit on host
 * backends, and against the serial backend bit for bit there too; GPU backends to rounding (a
 * compiler may contract a·b + s to an FMA). Inputs: random matrices of several shapes and
 * row-length mixes (every row class runs: the test checks that the products per row cover each
 * class's range), empty rows and matrices, unsorted and duplicate columns, shared matrices (A·A,
 * A·Aᵀ), numeric reuse, determinism, EDGE_CASES S16 and S18, more than 2^31 intermediate products (GPU
 * backends), bad inputs. */
#include "test_common.h"

#include "strata/sparse.h"
#include "spgemm_impl.h"
#include "strata/spgemm.h"
#include "test_sparse_host.h"

/* class thresholds the products run under (the most products per row of the short, medium-small
 * and medium-large classes): the backend's defaults (NULL), the GPU defaults on every backend (so
 * host backends run the medium kernels too), everything in the long class, everything in the
 * medium-large class beside products-free rows, and narrow classes */
static const int64_t T_MAX_GPU[3] = {64, 512, 2048};
static const int64_t T_MAX_LONG[3] = {0, 0, 0};
static const int64_t T_MAX_MEDL[3] = {0, 0, 2048};
static const int64_t T_MAX_NARROW[3] = {1, 4, 16};
static const int64_t *const T_MAX[5] = {NULL, T_MAX_GPU, T_MAX_LONG, T_MAX_MEDL, T_MAX_NARROW};

/* ------------------------------------------------------------------ host side */

enum { SORTED = 0, UNSORTED = 1, DUPS = 2 };

typedef struct {
  int32_t c;
  double v;
} pair_t;
static int cmp_pair(const void *x, const void *y) {
  const int32_t a = ((const pair_t *)x)->c, b = ((const pair_t *)y)->c;
  return (a > b) - (a < b);
}
/* sorts a row's (column, value) pairs by column (unique columns: any sort is stable enough) */
static void sort_row(int32_t *ci, double *v, int64_t len) {
  pair_t *t = (pair_t *)t_malloc(sizeof(pair_t) * (size_t)len);
  for (int64_t k = 0; k < len; ++k) t[k].c = ci[k], t[k].v = v[k];
  qsort(t, (size_t)len, sizeof *t, cmp_pair);
  for (int64_t k = 0; k < len; ++k) ci[k] = t[k].c, v[k] = t[k].v;
  free(t);
}

/* A random host CSR [nr x nc]: row lengths uniform in [0, max_len], and every `long_every`-th row
 * (0: none) of long_len entries; SORTED rows strictly ascending, UNSORTED unique and shuffled, DUPS
 * with repeated columns. Values in [-1, 1). */
static host_crs_t gen(uint64_t *s, int32_t nr, int32_t nc, int64_t max_len, int32_t long_every, int64_t long_len,
                      int kind) {
  host_crs_t h;
  h.nr = nr;
  h.nc = nc;
  h.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nr + 1));
  int64_t cap = 16, *mark = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nc + 1));
  for (int32_t c = 0; c < nc; ++c) mark[c] = -1;
  h.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)cap);
  h.v = (double *)t_malloc(sizeof(double) * (size_t)cap);
  h.ro[0] = 0;
  for (int32_t r = 0; r < nr; ++r) {
    int64_t len = nc == 0 ? 0 : (int64_t)(t_rand(s) % (uint64_t)(max_len + 1));
    if (nc > 0 && long_every > 0 && r % long_every == long_every - 1) len = long_len;
    if (kind != DUPS && len > nc) len = nc;
    const int64_t b = h.ro[r];
    while (b + len > cap) {
      cap *= 2;
      h.ci = (int32_t *)realloc(h.ci, sizeof(int32_t) * (size_t)cap);
      h.v = (double *)realloc(h.v, sizeof(double) * (size_t)cap);
    }
    for (int64_t k = 0; k < len; ++k) {
      int32_t c = (int32_t)(t_rand(s) % (uint64_t)nc);
      if (kind == DUPS) {
        if (k > 0 && t_rand(s) % 3 == 0) c = h.ci[b + (int64_t)(t_rand(s) % (uint64_t)k)];
      } else {
        while (mark[c] == r) c = (int32_t)((c + 1) % nc); /* unique in the row */
        mark[c] = r;
      }
      h.ci[b + k] = c;
      h.v[b + k] = t_uniform(s) * 2.0 - 1.0;
    }
    if (kind == SORTED) sort_row(h.ci + b, h.v + b, len);
    h.ro[r + 1] = b + len;
  }
  h.nnz = h.ro[nr];
  free(mark);
  return h;
}

static int cmp_i32(const void *x, const void *y) {
  const int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
  return (a > b) - (a < b);
}

/* C = A·B on the host (Gustavson, a dense accumulator): each entry the sum of its products in
 * A's then B's storage order, from -0.0; columns sorted. */
static host_crs_t host_product(const host_crs_t *A, const host_crs_t *B) {
  host_crs_t C;
  C.nr = A->nr;
  C.nc = B->nc;
  C.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)A->nr + 1));
  double *acc = (double *)t_malloc(sizeof(double) * ((size_t)B->nc + 1));
  int32_t *seen = (int32_t *)t_malloc(sizeof(int32_t) * ((size_t)B->nc + 1));
  int32_t *list = (int32_t *)t_malloc(sizeof(int32_t) * ((size_t)B->nc + 1));
  for (int32_t j = 0; j < B->nc; ++j) seen[j] = -1;
  int64_t cap = 16;
  C.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)cap);
  C.v = (double *)t_malloc(sizeof(double) * (size_t)cap);
  C.ro[0] = 0;
  for (int32_t i = 0; i < A->nr; ++i) {
    int64_t len = 0;
    for (int64_t p = A->ro[i]; p < A->ro[i + 1]; ++p) {
      const int32_t k = A->ci[p];
      for (int64_t q = B->ro[k]; q < B->ro[k + 1]; ++q) {
        const int32_t j = B->ci[q];
        if (seen[j] != i) {
          seen[j] = i;
          acc[j] = -0.0;
          list[len++] = j;
        }
        acc[j] += A->v[p] * B->v[q];
      }
    }
    qsort(list, (size_t)len, sizeof *list, cmp_i32);
    while (C.ro[i] + len > cap) {
      cap *= 2;
      C.ci = (int32_t *)realloc(C.ci, sizeof(int32_t) * (size_t)cap);
      C.v = (double *)realloc(C.v, sizeof(double) * (size_t)cap);
    }
    for (int64_t q = 0; q < len; ++q) {
      C.ci[C.ro[i] + q] = list[q];
      C.v[C.ro[i] + q] = acc[list[q]];
    }
    C.ro[i + 1] = C.ro[i] + len;
  }
  C.nnz = C.ro[A->nr];
  free(acc), free(seen), free(list);
  return C;
}

static host_crs_t host_transpose(const host_crs_t *A) {
  host_crs_t T;
  T.nr = A->nc;
  T.nc = A->nr;
  T.nnz = A->nnz;
  T.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)A->nc + 1));
  T.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(A->nnz + 1));
  T.v = (double *)t_malloc(sizeof(double) * (size_t)(A->nnz + 1));
  memset(T.ro, 0, sizeof(int64_t) * ((size_t)A->nc + 1));
  for (int64_t p = 0; p < A->nnz; ++p) T.ro[A->ci[p] + 1]++;
  for (int32_t j = 0; j < A->nc; ++j) T.ro[j + 1] += T.ro[j];
  int64_t *next = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)A->nc + 1));
  memcpy(next, T.ro, sizeof(int64_t) * (size_t)A->nc);
  for (int32_t i = 0; i < A->nr; ++i)
    for (int64_t p = A->ro[i]; p < A->ro[i + 1]; ++p) {
      const int64_t q = next[A->ci[p]]++;
      T.ci[q] = i;
      T.v[q] = A->v[p];
    }
  free(next);
  return T;
}

/* a CrsMatrix of h on exec (copied; fill_complete as the rows are) */
static strata_crs_matrix_t *dev_of(strata_exec_t *e, const host_crs_t *h) {
  int64_t *ro = NULL;
  int32_t *ci = NULL;
  double *v = NULL;
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(int64_t) * ((size_t)h->nr + 1), (void **)&ro));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)h->nnz, (void **)&ci));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)h->nnz, (void **)&v));
  T_OK(strata_mem_copy(e, ro, h->ro, sizeof(int64_t) * ((size_t)h->nr + 1)));
  T_OK(strata_mem_copy(e, ci, h->ci, sizeof(int32_t) * (size_t)h->nnz));
  T_OK(strata_mem_copy(e, v, h->v, sizeof(double) * (size_t)h->nnz));
  strata_crs_matrix_t *M = NULL;
  T_OK(strata_crs_create_from_csr(e, h->nr, h->nc, h->nnz, ro, ci, v, STRATA_CRS_ADOPT, &M));
  return M;
}

/* |A|·|B| (the scale of each product entry's rounding: a sum with cancellation is exact only to
 * eps times the sum of its terms' magnitudes), the pattern of A·B */
static host_crs_t abs_product(const host_crs_t *A, const host_crs_t *B) {
  host_crs_t a = *A, b = *B;
  a.v = (double *)t_malloc(sizeof(double) * ((size_t)A->nnz + 1));
  b.v = (double *)t_malloc(sizeof(double) * ((size_t)B->nnz + 1));
  for (int64_t q = 0; q < A->nnz; ++q) a.v[q] = fabs(A->v[q]);
  for (int64_t q = 0; q < B->nnz; ++q) b.v[q] = fabs(B->v[q]);
  host_crs_t S = host_product(&a, &b);
  free(a.v), free(b.v);
  return S;
}

/* got equals want: bit for bit on host backends, to rounding elsewhere (same pattern always):
 * within 1e-12 (|A|·|B|)_ij when scale (abs_product) is given, else 1e-12 (1 + |want_ij|) */
static void expect_product_scaled(const char *what, const host_crs_t *want, const host_crs_t *scale,
                                  const strata_crs_matrix_t *C) {
  host_crs_t got = crs_to_host(C);
  assert_int_equal(C->fill_complete, 1);
  if (strata_exec_is_host(C->exec)) {
    expect_same_crs(what, want, &got);
  } else {
    host_crs_t pat = got; /* the pattern exactly, the values to 1e-12 of the entry's scale */
    double *v = pat.v;
    pat.v = want->v;
    expect_same_crs(what, want, &pat);
    for (int64_t q = 0; q < want->nnz; ++q) {
      const double tol = 1e-12 * (scale ? scale->v[q] : 1.0 + fabs(want->v[q]));
      if (fabs(v[q] - want->v[q]) > tol)
        fail_msg("%s: entry %lld = %.17g, expected %.17g (tolerance %.3g)", what, (long long)q, v[q], want->v[q], tol);
    }
  }
  host_crs_free(&got);
}

static void expect_product(const char *what, const host_crs_t *want, const strata_crs_matrix_t *C) {
  expect_product_scaled(what, want, NULL, C);
}

/* A·B on the backend under test and on serial, with class thresholds th (NULL: the defaults):
 * both against the host product, and the two bit for bit with each other on host backends;
 * rows[4] (may be NULL) receives the rows per class of the backend's plan. */
static void check_product_th(const char *what, const host_crs_t *A, const host_crs_t *B, const int64_t *th,
                             int64_t *rows) {
  host_crs_t want = host_product(A, B), scale = abs_product(A, B);
  strata_crs_matrix_t *dA = dev_of(T_exec, A), *dB = dev_of(T_exec, B), *C = NULL;
  strata_spgemm_t *plan = NULL;
  T_OK(strata_sparse_impl_spgemm_symbolic(T_exec, dA, dB, th, &plan, &C));
  T_OK(strata_crs_spgemm_numeric(T_exec, plan, dA, dB, C));
  if (rows) strata_sparse_impl_spgemm_class_rows(plan, rows);
  expect_product_scaled(what, &want, &scale, C);
  strata_crs_matrix_t *sA = dev_of(T_serial, A), *sB = dev_of(T_serial, B), *sC = NULL;
  T_OK(strata_crs_spgemm(T_serial, sA, sB, &sC));
  expect_product_scaled(what, &want, &scale, sC);
  if (strata_exec_is_host(T_exec)) {
    host_crs_t g = crs_to_host(C), s = crs_to_host(sC);
    expect_same_crs(what, &s, &g);
    host_crs_free(&g), host_crs_free(&s);
  }
  strata_spgemm_destroy(&plan);
  strata_crs_destroy(&C), strata_crs_destroy(&sC);
  strata_crs_destroy(&dA), strata_crs_destroy(&dB), strata_crs_destroy(&sA), strata_crs_destroy(&sB);
  host_crs_free(&want), host_crs_free(&scale);
}

/* under every threshold set of T_MAX (the one-call path for the defaults) */
static void check_product(const char *what, const host_crs_t *A, const host_crs_t *B) {
  for (int t = 0; t < 5; ++t) {
    char w[200];
    snprintf(w, sizeof w, "%s (thresholds %d)", what, t);
    check_product_th(w, A, B, T_MAX[t], NULL);
  }
  host_crs_t want = host_product(A, B), scale = abs_product(A, B);
  strata_crs_matrix_t *dA = dev_of(T_exec, A), *dB = dev_of(T_exec, B), *C = NULL;
  T_OK(strata_crs_spgemm(T_exec, dA, dB, &C));
  expect_product_scaled(what, &want, &scale, C);
  strata_crs_destroy(&C), strata_crs_destroy(&dA), strata_crs_destroy(&dB);
  host_crs_free(&want), host_crs_free(&scale);
}

/* ------------------------------------------------------------------ tests */

/* t_setup with the kernel-forcing flags cleared (a failed test leaves them set: its fail_msg
 * returns past the line that clears them) */
static int setup(void **state) {
  strata_impl_spgemm_gather = 0;
  strata_impl_spgemm_lanes = 0;
  return t_setup(state);
}

/* random shapes and row-length mixes; the products per row cover every class (at most 64, 512,
 * 2048, more) in the mixed cases */
static void test_random(void **state) {
  (void)state;
  static const struct {
    int32_t m, k, n;
    int64_t a_len, b_len;
    int32_t long_every;
    int64_t long_len;
    int kind, mixed;
  } cases[] = {
      {600, 500, 400, 8, 8, 37, 300, SORTED, 1},   /* square-ish, long rows of A and B */
      {500, 700, 300, 10, 12, 41, 300, UNSORTED, 1},
      {400, 300, 600, 9, 9, 29, 300, DUPS, 1},     /* duplicates, B not fill-complete */
      {1000, 20, 900, 3, 40, 0, 0, SORTED, 0},     /* tall and thin inner dimension */
      {30, 2000, 40, 300, 2, 0, 0, UNSORTED, 0},   /* short fat A */
      {200, 200, 5000, 4, 700, 0, 0, DUPS, 0},     /* wide B, long rows */
      {300, 300, 300, 2, 2, 0, 0, SORTED, 0},      /* mostly empty rows */
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    host_crs_t A = gen(&T_rng, cases[c].m, cases[c].k, cases[c].a_len, cases[c].long_every, cases[c].long_len,
                       cases[c].kind);
    host_crs_t B = gen(&T_rng, cases[c].k, cases[c].n, cases[c].b_len, cases[c].long_every, cases[c].long_len,
                       cases[c].kind);
    if (cases[c].mixed) { /* every class runs under the GPU thresholds */
      int64_t rows[4];
      check_product_th("mixed", &A, &B, T_MAX_GPU, rows);
      for (int q = 0; q < 4; ++q)
        if (!rows[q]) fail_msg("case %zu: no row in class %d (seed %llu)", c, q, (unsigned long long)T_seed);
    }
    char what[64];
    snprintf(what, sizeof what, "random case %zu", c);
    check_product(what, &A, &B);
    host_crs_free(&A), host_crs_free(&B);
  }
}


static void test_shared(void **state);

/* the GPUs' NUMERIC of short rows (lanes over C's entries, B unique) on every backend */
static void test_random_gather(void **state) {
  strata_impl_spgemm_gather = 1;
  test_random(state);
  test_shared(state);
  strata_impl_spgemm_gather = 0;
}

/* the GPUs' NUMERIC of short rows (lanes over A's entries, any B) on every backend */
static void test_random_lanes(void **state) {
  strata_impl_spgemm_lanes = 1;
  test_random(state);
  test_shared(state);
  strata_impl_spgemm_lanes = 0;
}

/* The medium classes' NUMERIC by the walk (strata_spgemm_medium_walk: the SORTED case, B's rows
 * unique) and by buckets (strata_spgemm_medium_numeric: the DUPS case): rows of A with 33-52
 * entries, of 66-416 products (medium-small) and 660-1976 (medium-large) landing on 40 columns (buckets of up
 * to ~50 products, past the insertion sort's 32), B with and without repeated columns; one row of
 * A all -0.0 times positive B rows (every entry -0.0: the sums start from -0.0). Bit for bit
 * against the host's product-order sums on host backends, under the GPU thresholds and with every
 * row medium-large; both medium classes must hold rows. */
static void test_medium_buckets(void **state) {
  (void)state;
  const int32_t m = 48, k = 300, n = 40;
  static const int kinds[2] = {SORTED, DUPS};
  for (int c = 0; c < 2; ++c) {
    const int kind = kinds[c];
    host_crs_t A, B;
    A.nr = m, A.nc = k, B.nr = k, B.nc = n;
    A.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)m + 1));
    B.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)k + 1));
    A.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)m * 52);
    A.v = (double *)t_malloc(sizeof(double) * (size_t)m * 52);
    B.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)k * 38);
    B.v = (double *)t_malloc(sizeof(double) * (size_t)k * 38);
    /* B's rows [0, 150) of 2-8 entries, [150, 300) of 20-38 */
    B.ro[0] = 0;
    for (int32_t j = 0; j < k; ++j) {
      const int64_t len = j < 150 ? 2 + (int64_t)(t_rand(&T_rng) % 7) : 20 + (int64_t)(t_rand(&T_rng) % 19);
      int32_t *ci = B.ci + B.ro[j];
      for (int64_t q = 0; q < len; ++q) {
        ci[q] = (int32_t)(t_rand(&T_rng) % (uint64_t)n);
        if (kind == DUPS) continue;
        for (int64_t u = 0; u < q; ++u)
          if (ci[u] == ci[q]) ci[q] = (ci[q] + 1) % n, u = -1; /* unique in the row */
      }
      for (int64_t q = 0; q < len; ++q) /* rows 151, 155, ... (A's row 3) positive */
        B.v[B.ro[j] + q] = j >= 150 && j % 4 == 3 ? t_uniform(&T_rng) + 0.5 : t_uniform(&T_rng) * 2.0 - 1.0;
      if (kind == SORTED) sort_row(ci, B.v + B.ro[j], len);
      B.ro[j + 1] = B.ro[j] + len;
    }
    B.nnz = B.ro[k];
    /* A's row i: 33-52 unique columns, in B's short rows (i even) or long ones (i odd), shuffled;
     * row 3: 33-37 entries of -0.0 in B's positive rows, so each entry of C's row 3 is -0.0 (a sum
     * started from +0.0 would give +0.0) */
    A.ro[0] = 0;
    for (int32_t i = 0; i < m; ++i) {
      const int64_t len = 33 + (int64_t)(t_rand(&T_rng) % (i == 3 ? 5 : 20));
      int32_t *ci = A.ci + A.ro[i];
      const int32_t base = i % 2 ? 150 : 0;
      for (int64_t p = 0; p < len; ++p)
        ci[p] = i == 3 ? 151 + (int32_t)p * 4 : base + (int32_t)p * 2 + (int32_t)(t_rand(&T_rng) % 2);
      for (int64_t p = len - 1; p > 0; --p) { /* shuffled: storage order is not column order */
        const int64_t u = (int64_t)(t_rand(&T_rng) % (uint64_t)(p + 1));
        const int32_t t = ci[p];
        ci[p] = ci[u], ci[u] = t;
      }
      for (int64_t p = 0; p < len; ++p) A.v[A.ro[i] + p] = i == 3 ? -0.0 : t_uniform(&T_rng) * 2.0 - 1.0;
      A.ro[i + 1] = A.ro[i] + len;
    }
    A.nnz = A.ro[m];
    int64_t rows[4];
    check_product_th("medium buckets", &A, &B, T_MAX_GPU, rows);
    if (rows[0] || !rows[1] || !rows[2] || rows[3])
      fail_msg("medium buckets: rows per class %lld %lld %lld %lld, expected all medium (seed %llu)",
               (long long)rows[0], (long long)rows[1], (long long)rows[2], (long long)rows[3],
               (unsigned long long)T_seed);
    check_product_th("medium buckets, all medium-large", &A, &B, T_MAX_MEDL, rows);
    if (rows[2] != m) fail_msg("medium buckets: %lld medium-large rows, expected %d", (long long)rows[2], (int)m);
    host_crs_free(&A), host_crs_free(&B);
  }
}

/* 0 x k, m x 0 inner, m x k times k x 0, nnz = 0 with rows */
static void test_empty(void **state) {
  (void)state;
  static const int32_t shapes[][3] = {{0, 5, 7}, {6, 0, 4}, {5, 3, 0}, {0, 0, 0}, {4, 6, 3}};
  for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; ++c) {
    host_crs_t A = gen(&T_rng, shapes[c][0], shapes[c][1], 0, 0, 0, SORTED);
    host_crs_t B = gen(&T_rng, shapes[c][1], shapes[c][2], c == 4 ? 3 : 0, 0, 0, SORTED);
    strata_crs_matrix_t *dA = dev_of(T_exec, &A), *dB = dev_of(T_exec, &B), *C = NULL;
    T_OK(strata_crs_spgemm(T_exec, dA, dB, &C));
    assert_int_equal(C->num_rows, shapes[c][0]);
    assert_int_equal(C->num_cols, shapes[c][2]);
    assert_int_equal(C->nnz, 0);
    host_crs_t got = crs_to_host(C);
    for (int32_t i = 0; i <= got.nr; ++i) assert_int_equal(got.ro[i], 0);
    host_crs_free(&got);
    check_product("empty", &A, &B);
    strata_crs_destroy(&C), strata_crs_destroy(&dA), strata_crs_destroy(&dB);
    host_crs_free(&A), host_crs_free(&B);
  }
}

/* shared matrices: A·A (square) and A·Aᵀ */
static void test_shared(void **state) {
  (void)state;
  static const char *files[] = {"suitesparse/LAGraph/bcsstk13.mtx", "suitesparse/Mongoose/Erdos971.mtx",
                                "suitesparse/KLU/arrow.mtx", "suitesparse/ParU/lp_e226.mtx",
                                "suitesparse/LAGraph/west0067_jumbled.mtx", "ginkgo/ani4.mtx"};
  const char *dir = getenv("STRATA_MATRICES");
  for (size_t f = 0; f < sizeof files / sizeof files[0]; ++f) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : STRATA_TEST_MATRICES, files[f]);
    strata_crs_matrix_t *S = NULL;
    T_OK(strata_mm_read_crs(T_serial, path, &S));
    host_crs_t A = crs_to_host(S), At = host_transpose(&A);
    if (A.nr == A.nc) check_product(files[f], &A, &A);
    check_product(files[f], &A, &At);
    host_crs_free(&A), host_crs_free(&At);
    strata_crs_destroy(&S);
  }
}

/* numeric with new values of the same patterns equals a fresh product bit for bit; the symbolic C
 * is fill-complete with zero values; the same product twice gives the same bits */
static void test_reuse_determinism(void **state) {
  (void)state;
  for (int it = 0; it < 6; ++it) { /* each input kind under the defaults and the GPU thresholds */
    const int kind = it / 2;
    host_crs_t A = gen(&T_rng, 500, 400, 9, 31, 150, kind), B = gen(&T_rng, 400, 450, 9, 31, 150, kind);
    strata_crs_matrix_t *dA = dev_of(T_exec, &A), *dB = dev_of(T_exec, &B), *C = NULL;
    strata_spgemm_t *plan = NULL;
    if (it % 2)
      T_OK(strata_sparse_impl_spgemm_symbolic(T_exec, dA, dB, T_MAX_GPU, &plan, &C));
    else
      T_OK(strata_crs_spgemm_symbolic(T_exec, dA, dB, &plan, &C));
    host_crs_t want = host_product(&A, &B), sym = crs_to_host(C);
    assert_int_equal(C->fill_complete, 1);
    assert_int_equal(sym.nnz, want.nnz);
    for (int64_t q = 0; q < sym.nnz; ++q) {
      assert_int_equal(sym.ci[q], want.ci[q]);
      assert_true(sym.v[q] == 0.0);
    }
    T_OK(strata_crs_spgemm_numeric(T_exec, plan, dA, dB, C));
    T_OK(strata_exec_fence(T_exec));
    expect_product("numeric", &want, C);
    /* new values, the same patterns */
    for (int64_t p = 0; p < A.nnz; ++p) A.v[p] = t_uniform(&T_rng) * 4.0 - 2.0;
    for (int64_t p = 0; p < B.nnz; ++p) B.v[p] = t_uniform(&T_rng) - 0.5;
    T_OK(strata_mem_copy(T_exec, dA->values, A.v, sizeof(double) * (size_t)A.nnz));
    T_OK(strata_mem_copy(T_exec, dB->values, B.v, sizeof(double) * (size_t)B.nnz));
    T_OK(strata_crs_spgemm_numeric(T_exec, plan, dA, dB, C));
    strata_crs_matrix_t *F = NULL, *G = NULL;
    T_OK(strata_crs_spgemm(T_exec, dA, dB, &F));
    T_OK(strata_crs_spgemm(T_exec, dA, dB, &G));
    host_crs_t c = crs_to_host(C), fr = crs_to_host(F), g = crs_to_host(G);
    expect_same_crs("reuse vs fresh", &fr, &c);
    expect_same_crs("twice", &fr, &g);
    host_crs_t want2 = host_product(&A, &B);
    expect_product("reuse", &want2, C);
    host_crs_free(&c), host_crs_free(&fr), host_crs_free(&g), host_crs_free(&want), host_crs_free(&want2);
    host_crs_free(&sym);
    strata_spgemm_destroy(&plan);
    assert_null(plan);
    T_OK(strata_spgemm_destroy(&plan)); /* NULL-safe */
    strata_crs_destroy(&C), strata_crs_destroy(&F), strata_crs_destroy(&G);
    strata_crs_destroy(&dA), strata_crs_destroy(&dB);
    host_crs_free(&A), host_crs_free(&B);
  }
}

/* S16: a row of 10^5 distinct products (one A entry times a row of 10^5; and 10^5 A entries each
 * hitting a B row of one column), every entry kept; an outer product whose rows are long (2100 x 1
 * times 1 x 2100, every entry a_i b_j exactly); the 2^62 guard on products per row and in all */
static void test_s16(void **state) {
  (void)state;
  const int32_t N = 100000;
  host_crs_t A1 = gen(&T_rng, 1, 1, 1, 1, 1, SORTED), B1 = gen(&T_rng, 1, N, 0, 1, N, SORTED);
  check_product("S16 one row of 1e5", &A1, &B1);
  host_crs_t A2 = gen(&T_rng, 1, N, 0, 1, N, UNSORTED), B2 = gen(&T_rng, N, N, 1, 1, 1, SORTED);
  for (int32_t k = 0; k < N; ++k) B2.ci[k] = (int32_t)(((int64_t)k * 7919) % N); /* a permutation */
  host_crs_t w = host_product(&A2, &B2);
  assert_int_equal(w.nnz, N);
  host_crs_free(&w);
  check_product("S16 1e5 entries of A", &A2, &B2);
  const int32_t M = 2100;
  host_crs_t u = gen(&T_rng, M, 1, 1, 1, 1, SORTED), v = gen(&T_rng, 1, M, 0, 1, M, SORTED);
  strata_crs_matrix_t *du = dev_of(T_exec, &u), *dv = dev_of(T_exec, &v), *C = NULL;
  T_OK(strata_crs_spgemm(T_exec, du, dv, &C));
  assert_int_equal(C->nnz, (int64_t)M * M);
  host_crs_t c = crs_to_host(C);
  for (int32_t i = 0; i < M; ++i) {
    assert_int_equal(c.ro[i], (int64_t)i * M);
    for (int32_t j = 0; j < M; ++j) {
      const int64_t q = (int64_t)i * M + j;
      if (c.ci[q] != j || c.v[q] != u.v[i] * v.v[j])
        fail_msg("outer product entry (%d, %d) = (col %d, %.17g)", i, j, c.ci[q], c.v[q]);
    }
  }
  host_crs_free(&c);
  strata_crs_destroy(&C), strata_crs_destroy(&du), strata_crs_destroy(&dv);
  /* the sizes of S16's 46341 x 1 times 1 x 46341: beyond int32 offsets, far below the 2^62 limit */
  assert_true((int64_t)46341 * 46341 == INT64_C(2147488281));
  assert_true((int64_t)46341 * 46341 > INT32_MAX);
  /* the guard: a B whose row 0 claims 2^61 entries (its offsets alone are read before the check) */
  strata_crs_matrix_t fakeB = {T_exec, 2, 3, INT64_C(1) << 61, NULL, NULL, NULL, 1};
  const int64_t ro[3] = {0, INT64_C(1) << 61, INT64_C(1) << 61};
  fakeB.row_offsets = (int64_t *)t_to_dev(ro, sizeof ro);
  host_crs_t a3 = gen(&T_rng, 2, 2, 0, 0, 0, SORTED);
  a3.ci = (int32_t *)realloc(a3.ci, 8 * sizeof(int32_t));
  a3.v = (double *)realloc(a3.v, 8 * sizeof(double));
  const int64_t aro[3] = {0, 3, 4}; /* row 0: three entries in column 0 (3 x 2^61 > 2^62) */
  memcpy(a3.ro, aro, sizeof aro);
  for (int q = 0; q < 4; ++q) a3.ci[q] = 0, a3.v[q] = 1.0;
  a3.nnz = 4;
  strata_crs_matrix_t *dA3 = dev_of(T_exec, &a3), *X = NULL;
  strata_spgemm_t *plan = NULL;
  t_expect_msg(strata_crs_spgemm_symbolic(T_exec, dA3, &fakeB, &plan, &X), STRATA_ERR_INVALID_DATA, "row 0",
               "2^62");
  assert_null(X), assert_null(plan);
  /* in all: four rows of 2^61 each (each within the limit, 2^63 in all) */
  host_crs_t a4 = gen(&T_rng, 4, 2, 0, 0, 0, SORTED);
  a4.ci = (int32_t *)realloc(a4.ci, 8 * sizeof(int32_t));
  a4.v = (double *)realloc(a4.v, 8 * sizeof(double));
  for (int q = 0; q < 4; ++q) a4.ro[q + 1] = q + 1, a4.ci[q] = 0, a4.v[q] = 1.0;
  a4.nnz = 4;
  strata_crs_matrix_t *dA4 = dev_of(T_exec, &a4);
  t_expect_msg(strata_crs_spgemm_symbolic(T_exec, dA4, &fakeB, &plan, &X), STRATA_ERR_INVALID_DATA, "in all",
               "2^62");
  t_dev_free(fakeB.row_offsets);
  strata_crs_destroy(&dA3), strata_crs_destroy(&dA4);
  host_crs_free(&a3), host_crs_free(&a4);
  host_crs_free(&A1), host_crs_free(&B1), host_crs_free(&A2), host_crs_free(&B2);
  host_crs_free(&u), host_crs_free(&v);
}

/* S18: the 1D Laplacian n = 5, C = {1, 3}, P = [[1/2, 0], [1, 0], [1/2, 1/2], [0, 1], [0, 1/2]]:
 * PᵀAP = [[1, -1/2], [-1/2, 1]] exactly */
static void test_s18(void **state) {
  (void)state;
  const int64_t aro[6] = {0, 2, 5, 8, 11, 13};
  const int32_t aci[13] = {0, 1, 0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4};
  const double av[13] = {2, -1, -1, 2, -1, -1, 2, -1, -1, 2, -1, -1, 2};
  const int64_t pro[6] = {0, 1, 2, 4, 5, 6};
  const int32_t pci[6] = {0, 0, 0, 1, 1, 1};
  const double pv[6] = {0.5, 1, 0.5, 0.5, 1, 0.5};
  host_crs_t A = {5, 5, 13, (int64_t *)aro, (int32_t *)aci, (double *)av};
  host_crs_t P = {5, 2, 6, (int64_t *)pro, (int32_t *)pci, (double *)pv};
  strata_crs_matrix_t *dA = dev_of(T_exec, &A), *dP = dev_of(T_exec, &P), *Ac = NULL;
  T_OK(strata_crs_galerkin(T_exec, dP, dA, &Ac));
  host_crs_t c = crs_to_host(Ac);
  assert_int_equal(c.nr, 2);
  assert_int_equal(c.nc, 2);
  assert_int_equal(c.nnz, 4);
  const int32_t wc[4] = {0, 1, 0, 1};
  const double wv[4] = {1.0, -0.5, -0.5, 1.0};
  for (int q = 0; q < 4; ++q) {
    assert_int_equal(c.ci[q], wc[q]);
    if (c.v[q] != wv[q]) fail_msg("S18: PtAP entry %d = %.17g, expected %g", q, c.v[q], wv[q]);
  }
  host_crs_free(&c);
  strata_crs_destroy(&Ac), strata_crs_destroy(&dA), strata_crs_destroy(&dP);
}

/* More than 2^31 intermediate products (issue 28): C = A·B where every row of B has the same
 * columns 0..nb-1 and values u_l w_j, so that C_ij = w_j Σ_l A_il u_l is checked in O(nnz(A)) on
 * the host; small integers: every sum is exact, whatever the order or FMA contraction. Two shapes:
 * few rows of 2^21 products each (the long class), and 2^22 rows of 528 products each (the medium
 * classes), 2^32 and 2.2·10^9 products in all. GPU backends only: the host backends' 2^32
 * multiply-adds on two cores would take minutes (skipped there, visibly). */
static void check_many_products(int32_t m, int32_t k, int32_t per_row, int32_t nb) {
  host_crs_t A, B;
  A.nr = m, A.nc = k, A.nnz = (int64_t)m * per_row;
  B.nr = k, B.nc = nb, B.nnz = (int64_t)k * nb;
  A.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)m + 1));
  A.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)A.nnz);
  A.v = (double *)t_malloc(sizeof(double) * (size_t)A.nnz);
  B.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)k + 1));
  B.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)B.nnz);
  B.v = (double *)t_malloc(sizeof(double) * (size_t)B.nnz);
  for (int32_t l = 0; l <= k; ++l) B.ro[l] = (int64_t)l * nb;
  for (int32_t l = 0; l < k; ++l)
    for (int32_t j = 0; j < nb; ++j) {
      B.ci[(int64_t)l * nb + j] = j;
      B.v[(int64_t)l * nb + j] = (double)((1 + l % 2) * (1 + j % 3));
    }
  double *rowsum = (double *)t_malloc(sizeof(double) * (size_t)m); /* Σ_l A_il u_l */
  const int32_t stride = k / per_row; /* the row's columns: an arithmetic progression, sorted */
  for (int32_t i = 0; i <= m; ++i) A.ro[i] = (int64_t)i * per_row;
  for (int32_t i = 0; i < m; ++i) {
    double sum = 0;
    for (int32_t t = 0; t < per_row; ++t) {
      const int64_t q = (int64_t)i * per_row + t;
      const int32_t l = (int32_t)((i % stride) + (int64_t)t * stride);
      A.ci[q] = l;
      A.v[q] = (double)(1 + (i + t) % 3);
      sum += A.v[q] * (double)(1 + l % 2);
    }
    rowsum[i] = sum;
  }
  int64_t products = 0;
  for (int64_t q = 0; q < A.nnz; ++q) products += B.ro[A.ci[q] + 1] - B.ro[A.ci[q]];
  assert_true(products > ((int64_t)1 << 31));
  strata_crs_matrix_t *dA = dev_of(T_exec, &A), *dB = dev_of(T_exec, &B), *C = NULL;
  T_OK(strata_crs_spgemm(T_exec, dA, dB, &C));
  assert_int_equal(C->num_rows, m);
  assert_int_equal(C->num_cols, nb);
  assert_int_equal(C->nnz, (int64_t)m * nb);
  host_crs_t got = crs_to_host(C);
  for (int32_t i = 0; i < m; ++i) {
    if (got.ro[i] != (int64_t)i * nb) fail_msg("%lld products: row %d starts at %lld, expected %lld", (long long)products, i, (long long)got.ro[i], (long long)i * nb);
    for (int32_t j = 0; j < nb; ++j) {
      const int64_t q = (int64_t)i * nb + j;
      const double want = rowsum[i] * (double)(1 + j % 3);
      if (got.ci[q] != j || got.v[q] != want)
        fail_msg("%lld products: C(%d, %d) at %lld = (column %d, %.17g), expected %.17g", (long long)products, i, j,
                 (long long)q, got.ci[q], got.v[q], want);
    }
  }
  host_crs_free(&got), host_crs_free(&A), host_crs_free(&B);
  free(rowsum);
  strata_crs_destroy(&C), strata_crs_destroy(&dA), strata_crs_destroy(&dB);
}

static void test_products_beyond_int32(void **state) {
  (void)state;
  if (strata_exec_is_host(T_exec) || getenv("STRATA_SANITIZER")) skip(); /* minutes under compute-sanitizer */
  check_many_products(2048, 2048, 2048, 1024);    /* 2^11 rows of 2^21 products */
  check_many_products(1 << 22, 4096, 33, 16);     /* 2^22 rows of 528 products */
}

/* Galerkin on random P against two host products (the same order: Pᵀ's entries sorted by row) */
static void test_galerkin_random(void **state) {
  (void)state;
  host_crs_t A = gen(&T_rng, 700, 700, 9, 0, 0, UNSORTED);
  /* an aggregation-like P: each row to one of 100 coarse points, a few rows to two */
  host_crs_t P = gen(&T_rng, 700, 100, 2, 0, 0, SORTED);
  host_crs_t Pt = host_transpose(&P), AP = host_product(&A, &P), want = host_product(&Pt, &AP);
  strata_crs_matrix_t *dA = dev_of(T_exec, &A), *dP = dev_of(T_exec, &P), *Ac = NULL;
  T_OK(strata_crs_galerkin(T_exec, dP, dA, &Ac));
  expect_product("galerkin", &want, Ac);
  strata_crs_destroy(&Ac), strata_crs_destroy(&dA), strata_crs_destroy(&dP);
  host_crs_free(&A), host_crs_free(&P), host_crs_free(&Pt), host_crs_free(&AP), host_crs_free(&want);
}

static void test_bad_input(void **state) {
  (void)state;
  host_crs_t a = gen(&T_rng, 3, 4, 2, 0, 0, SORTED), b = gen(&T_rng, 5, 2, 2, 0, 0, SORTED);
  host_crs_t b4 = gen(&T_rng, 4, 6, 2, 0, 0, SORTED), a2 = gen(&T_rng, 3, 4, 3, 0, 0, SORTED);
  strata_crs_matrix_t *A = dev_of(T_exec, &a), *B = dev_of(T_exec, &b), *B4 = dev_of(T_exec, &b4), *C = NULL;
  strata_crs_matrix_t *A2 = dev_of(T_exec, &a2);
  strata_spgemm_t *plan = NULL;
  t_expect_msg(strata_crs_spgemm(T_exec, A, B, &C), STRATA_ERR_INVALID_ARGUMENT, "3 x 4", "5 x 2");
  assert_null(C);
  t_expect_msg(strata_crs_spgemm(T_exec, NULL, B, &C), STRATA_ERR_INVALID_ARGUMENT, "NULL A", NULL);
  t_expect_msg(strata_crs_spgemm(T_exec, A, NULL, &C), STRATA_ERR_INVALID_ARGUMENT, "NULL B", NULL);
  t_expect_msg(strata_crs_spgemm(T_exec, A, B4, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL C", NULL);
  t_expect_msg(strata_crs_spgemm_symbolic(T_exec, A, B4, NULL, &C), STRATA_ERR_INVALID_ARGUMENT, "NULL plan", NULL);
  T_OK(strata_crs_spgemm_symbolic(NULL, A, B4, &plan, &C)); /* NULL exec: A's */
  t_expect_msg(strata_crs_spgemm_numeric(T_exec, NULL, A, B4, C), STRATA_ERR_INVALID_ARGUMENT, "NULL plan", NULL);
  if (A2->nnz != A->nnz) /* another pattern's entry count */
    t_expect_msg(strata_crs_spgemm_numeric(T_exec, plan, A2, B4, C), STRATA_ERR_INVALID_ARGUMENT, "the plan", NULL);
  t_expect_msg(strata_crs_spgemm_numeric(T_exec, plan, A, A, C), STRATA_ERR_INVALID_ARGUMENT, "3 x 4", NULL);
  strata_crs_matrix_t Cw = *C;
  Cw.num_cols = 5;
  t_expect_msg(strata_crs_spgemm_numeric(T_exec, plan, A, B4, &Cw), STRATA_ERR_INVALID_ARGUMENT, "3 x 5", "3 x 6");
  if (B4->fill_complete) { /* the plan's B was fill-complete: a B that is not any more is refused */
    strata_crs_matrix_t Bn = *B4;
    Bn.fill_complete = 0;
    t_expect_msg(strata_crs_spgemm_numeric(T_exec, plan, A, &Bn, C), STRATA_ERR_INVALID_ARGUMENT, "not fill-complete",
                 "new plan");
  } else {
    fail_msg("bad input: the sorted B is not fill-complete");
  }
  T_OK(strata_crs_spgemm_numeric(T_exec, plan, A, B4, C));
  strata_spgemm_destroy(&plan);
  strata_crs_destroy(&C);
  const int64_t disorder[3] = {60, 50, 70}, over[3] = {64, 513, 600};
  t_expect_msg(strata_sparse_impl_spgemm_symbolic(T_exec, A, B4, disorder, &plan, &C), STRATA_ERR_INVALID_ARGUMENT,
               "class 1", "[60, 512]");
  t_expect_msg(strata_sparse_impl_spgemm_symbolic(T_exec, A, B4, over, &plan, &C), STRATA_ERR_INVALID_ARGUMENT,
               "513", "[64, 512]");
  assert_null(plan), assert_null(C);
  strata_crs_destroy(&C);
  /* Galerkin: A not square; P's rows not A's size */
  t_expect_msg(strata_crs_galerkin(T_exec, B4, A, &C), STRATA_ERR_INVALID_ARGUMENT, "3 x 4", "not square");
  host_crs_t sq = gen(&T_rng, 5, 5, 2, 0, 0, SORTED);
  strata_crs_matrix_t *S = dev_of(T_exec, &sq);
  t_expect_msg(strata_crs_galerkin(T_exec, B4, S, &C), STRATA_ERR_INVALID_ARGUMENT, "4 x 6", "5 x 5");
  t_expect_msg(strata_crs_galerkin(T_exec, NULL, S, &C), STRATA_ERR_INVALID_ARGUMENT, "NULL P", NULL);
  /* an exec of another backend */
  if (strata_exec_backend(T_exec) != STRATA_BACKEND_SERIAL) {
    strata_crs_matrix_t *sS = dev_of(T_serial, &sq);
    t_expect_msg(strata_crs_spgemm(T_exec, sS, S, &C), STRATA_ERR_INVALID_ARGUMENT, "serial", NULL);
    strata_crs_destroy(&sS);
  }
  strata_crs_destroy(&S), strata_crs_destroy(&A), strata_crs_destroy(&B), strata_crs_destroy(&B4);
  strata_crs_destroy(&A2);
  host_crs_free(&a), host_crs_free(&b), host_crs_free(&b4), host_crs_free(&a2), host_crs_free(&sq);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_random, setup),
      cmocka_unit_test_setup(test_random_gather, setup),
      cmocka_unit_test_setup(test_random_lanes, setup),
      cmocka_unit_test_setup(test_medium_buckets, setup),
      cmocka_unit_test_setup(test_empty, setup),
      cmocka_unit_test_setup(test_shared, setup),
      cmocka_unit_test_setup(test_reuse_determinism, setup),
      cmocka_unit_test_setup(test_s16, setup),
      cmocka_unit_test_setup(test_s18, setup),
      cmocka_unit_test_setup(test_galerkin_random, setup),
      cmocka_unit_test_setup(test_products_beyond_int32, setup),
      cmocka_unit_test_setup(test_bad_input, setup),
  };
  return T_RUN("spgemm", tests);
}
