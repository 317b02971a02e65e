/* strata tests — CrsMatrix from CSR arrays (validated on the device), fill-complete in place, row
 * accessors. Every result is checked against a host reference, against the COO path
 * (strata_crs_create_from_coo) bit for bit, and against the serial backend. */
#include "test_common.h"

#include "strata/sparse.h"
#include "test_sparse_host.h"

/* ------------------------------------------------------------------ host helpers */

enum { GEN_SORTED = 0, GEN_UNSORTED = 1, GEN_DUPS = 2 };

/* A random host CSR: row lengths up to max_len (a few rows long); GEN_SORTED rows are strictly
 * ascending, GEN_UNSORTED rows unique but shuffled, GEN_DUPS rows hold repeated columns. */
static host_crs_t gen_csr(uint64_t *s, int32_t nr, int32_t nc, int64_t max_len, int kind) {
  host_crs_t h;
  h.nr = nr;
  h.nc = nc;
  h.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nr + 1));
  int64_t cap = 16;
  h.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)cap);
  h.v = (double *)t_malloc(sizeof(double) * (size_t)cap);
  h.ro[0] = 0;
  for (int32_t r = 0; r < nr; ++r) {
    int64_t len = nc == 0 ? 0 : (int64_t)(t_rand(s) % (uint64_t)(max_len + 1));
    if (nc > 0 && t_rand(s) % 50 == 0) len = nc; /* a long row now and then */
    if (kind != GEN_DUPS && len > nc) len = nc;
    const int64_t b = h.ro[r];
    while (b + len > cap) {
      cap *= 2;
      h.ci = (int32_t *)realloc(h.ci, sizeof(int32_t) * (size_t)cap);
      h.v = (double *)realloc(h.v, sizeof(double) * (size_t)cap);
    }
    if (kind == GEN_DUPS) {
      for (int64_t k = 0; k < len; ++k) {
        h.ci[b + k] = (int32_t)(t_rand(s) % (uint64_t)nc);
        if (k > 0 && t_rand(s) % 3 == 0) h.ci[b + k] = h.ci[b + (int64_t)(t_rand(s) % (uint64_t)k)];
      }
    } else { /* selection sampling (Knuth's algorithm S): len distinct columns, ascending */
      int64_t k = 0;
      for (int32_t c = 0; c < nc && k < len; ++c)
        if ((int64_t)(t_rand(s) % (uint64_t)(nc - c)) < len - k) h.ci[b + k++] = c;
      if (kind == GEN_UNSORTED)
        for (int64_t j = len - 1; j > 0; --j) {
          const int64_t i = (int64_t)(t_rand(s) % (uint64_t)(j + 1));
          const int32_t t = h.ci[b + i];
          h.ci[b + i] = h.ci[b + j];
          h.ci[b + j] = t;
        }
    }
    for (int64_t k = 0; k < len; ++k) h.v[b + k] = t_uniform(s) * 2.0 - 1.0;
    h.ro[r + 1] = b + len;
  }
  h.nnz = h.ro[nr];
  return h;
}

/* 1 when every row is strictly ascending (sorted and unique). */
static int host_fill_complete(const host_crs_t *h) {
  for (int32_t r = 0; r < h->nr; ++r)
    for (int64_t k = h->ro[r] + 1; k < h->ro[r + 1]; ++k)
      if (h->ci[k] <= h->ci[k - 1]) return 0;
  return 1;
}

static int64_t host_max_len(const host_crs_t *h) {
  int64_t m = 0;
  for (int32_t r = 0; r < h->nr; ++r)
    if (h->ro[r + 1] - h->ro[r] > m) m = h->ro[r + 1] - h->ro[r];
  return m;
}

/* Device copies of a host CSR (NULL for empty arrays). */
typedef struct {
  int64_t *ro;
  int32_t *ci;
  double *v;
} dev_csr_t;

static dev_csr_t to_dev(const host_crs_t *h) {
  dev_csr_t d;
  d.ro = (int64_t *)t_to_dev(h->ro, sizeof(int64_t) * ((size_t)h->nr + 1));
  d.ci = (int32_t *)t_to_dev(h->ci, sizeof(int32_t) * (size_t)h->nnz);
  d.v = (double *)t_to_dev(h->v, sizeof(double) * (size_t)h->nnz);
  return d;
}
static void dev_free(dev_csr_t *d) {
  t_dev_free(d->ro);
  t_dev_free(d->ci);
  t_dev_free(d->v);
}

/* A CrsMatrix on T_exec from host arrays (copied to the device and back out); v NULL: zeros. */
static strata_status_t csr_create(int32_t nr, int32_t nc, int64_t nnz, const int64_t *ro,
                                  const int32_t *ci, const double *v, strata_crs_matrix_t **A) {
  int64_t *dro = ro ? (int64_t *)t_to_dev(ro, sizeof(int64_t) * ((size_t)nr + 1)) : NULL;
  int32_t *dci = ci ? (int32_t *)t_to_dev(ci, sizeof(int32_t) * (size_t)nnz) : NULL;
  double *dv = v ? (double *)t_to_dev(v, sizeof(double) * (size_t)nnz) : NULL;
  strata_status_t st = strata_crs_create_from_csr(T_exec, nr, nc, nnz, dro, dci, dv, STRATA_CRS_COPY, A);
  t_dev_free(dro);
  t_dev_free(dci);
  t_dev_free(dv);
  return st;
}

/* ------------------------------------------------------------------ valid CSR */

static void test_csr_random(void **state) {
  (void)state;
  static const struct { int32_t nr, nc; int64_t max_len; } sizes[] = {
      {0, 0, 0}, {0, 5, 3}, {5, 0, 3}, {1, 1, 3}, {7, 5, 6}, {50, 40, 12},
      {300, 1000, 30}, {1000, 3, 5}, {2000, 2000, 20}};
  static const char *kinds[] = {"sorted", "unsorted", "duplicates"};
  uint64_t s = T_seed;
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; ++t)
    for (int kind = 0; kind < 3; ++kind)
      for (int with_vals = 0; with_vals < 2; ++with_vals) {
        const int32_t nr = sizes[t].nr, nc = sizes[t].nc;
        host_crs_t in = gen_csr(&s, nr, nc, sizes[t].max_len, kind);
        const int want_fc = host_fill_complete(&in);
        if (kind == GEN_SORTED) assert_int_equal(want_fc, 1);
        char what[160];
        snprintf(what, sizeof what, "%d x %d, %lld entries, %s%s", nr, nc, (long long)in.nnz,
                 kinds[kind], with_vals ? "" : ", no values");
        dev_csr_t d = to_dev(&in);
        strata_crs_matrix_t *A = NULL, *B = NULL, *S = NULL;
        T_OK(strata_crs_create_from_csr(T_exec, nr, nc, in.nnz, d.ro, d.ci, with_vals ? d.v : NULL,
                                        STRATA_CRS_COPY, &A));
        if (A->fill_complete != want_fc)
          fail_msg("%s: fill_complete = %d, expected %d (seed %llu)", what, A->fill_complete, want_fc,
                   (unsigned long long)T_seed);
        /* the arrays are copied as given */
        host_crs_t want = in, got = crs_to_host(A);
        double *zeros = (double *)calloc((size_t)in.nnz + 1, sizeof(double));
        if (!with_vals) want.v = zeros;
        expect_same_crs(what, &want, &got);
        host_crs_free(&got);
        int64_t max_len = -1;
        T_OK(strata_crs_row_lengths_max(NULL, A, &max_len));
        assert_int_equal(max_len, host_max_len(&in));
        /* fill_complete equals the COO path on the same entries, bit for bit */
        int32_t *rows = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(in.nnz + 1));
        for (int32_t r = 0; r < nr; ++r)
          for (int64_t k = in.ro[r]; k < in.ro[r + 1]; ++k) rows[k] = r;
        int32_t *drows = (int32_t *)t_to_dev(rows, sizeof(int32_t) * (size_t)in.nnz);
        T_OK(strata_crs_create_from_coo(T_exec, nr, nc, in.nnz, drows, d.ci, with_vals ? d.v : NULL, &B));
        T_OK(strata_crs_fill_complete(NULL, A));
        assert_int_equal(A->fill_complete, 1);
        T_OK(strata_crs_fill_complete(T_exec, A)); /* no-op */
        host_crs_t hb = crs_to_host(B), ha = crs_to_host(A);
        expect_same_crs(what, &hb, &ha);
        /* and the serial backend (host arrays are its exec memory) */
        T_OK(strata_crs_create_from_csr(T_serial, nr, nc, in.nnz, in.ro, in.ci, with_vals ? in.v : NULL,
                                        STRATA_CRS_COPY, &S));
        assert_int_equal(S->fill_complete, want_fc);
        T_OK(strata_crs_fill_complete(NULL, S));
        host_crs_t hs = crs_to_host(S);
        expect_same_crs(what, &hs, &ha);
        /* get_row of a few rows of the sorted matrix */
        for (int32_t r = 0; r < nr; r += 1 + nr / 7) {
          int64_t cnt = -1;
          int32_t *cols = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(nc + 1));
          double *vals = (double *)t_malloc(sizeof(double) * (size_t)(nc + 1));
          T_OK(strata_crs_get_row(NULL, A, r, &cnt, cols, vals, nc));
          assert_int_equal(cnt, hb.ro[r + 1] - hb.ro[r]);
          assert_memory_equal(cols, hb.ci + hb.ro[r], sizeof(int32_t) * (size_t)cnt);
          assert_memory_equal(vals, hb.v + hb.ro[r], sizeof(double) * (size_t)cnt);
          free(cols);
          free(vals);
        }
        host_crs_free(&hb);
        host_crs_free(&ha);
        host_crs_free(&hs);
        free(zeros);
        free(rows);
        t_dev_free(drows);
        dev_free(&d);
        host_crs_free(&in);
        T_OK(strata_crs_destroy(&A));
        T_OK(strata_crs_destroy(&B));
        T_OK(strata_crs_destroy(&S));
      }
}

/* Rows sorted but one with a duplicate, or one unsorted: not fill-complete; fill_complete merges
 * by sum in storage order. */
static void test_csr_small(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3, 3, 5};
  const int32_t dup[] = {0, 2, 2, 1, 3};
  const double v[] = {1, 2, 3, 4, 5};
  strata_crs_matrix_t *A = NULL;
  T_OK(csr_create(3, 4, 5, ro, dup, v, &A));
  assert_int_equal(A->fill_complete, 0); /* row 0 is sorted, not unique */
  T_OK(strata_crs_fill_complete(NULL, A));
  assert_int_equal(A->nnz, 4);
  int64_t want_ro[] = {0, 2, 2, 4};
  int32_t want_ci[] = {0, 2, 1, 3};
  double want_v[] = {1, 5, 4, 5};
  host_crs_t want = {3, 4, 4, want_ro, want_ci, want_v};
  host_crs_t got = crs_to_host(A);
  expect_same_crs("merged duplicates", &want, &got);
  host_crs_free(&got);
  T_OK(strata_crs_destroy(&A));

  const int32_t unsorted[] = {0, 1, 2, 3, 1}; /* row 2 = {3, 1} */
  T_OK(csr_create(3, 4, 5, ro, unsorted, v, &A));
  assert_int_equal(A->fill_complete, 0);
  T_OK(strata_crs_fill_complete(NULL, A));
  int32_t want_ci2[] = {0, 1, 2, 1, 3};
  double want_v2[] = {1, 2, 3, 5, 4};
  int64_t want_ro2[] = {0, 3, 3, 5};
  host_crs_t want2 = {3, 4, 5, want_ro2, want_ci2, want_v2};
  got = crs_to_host(A);
  expect_same_crs("sorted row 2", &want2, &got);
  host_crs_free(&got);
  T_OK(strata_crs_destroy(&A));

  const int32_t sorted[] = {0, 1, 3, 0, 3};
  T_OK(csr_create(3, 4, 5, ro, sorted, v, &A));
  assert_int_equal(A->fill_complete, 1);
  T_OK(strata_crs_destroy(&A));
}

/* E3 through CSR: row offsets [0,2,2,2], columns [0,2], values [1,2], x = ones: y = [3, 0, 0]. */
static void test_csr_e3_spmv(void **state) {
  (void)state;
  const int64_t ro[] = {0, 2, 2, 2};
  const int32_t ci[] = {0, 2};
  const double v[] = {1, 2}, x[] = {1, 1, 1};
  strata_crs_matrix_t *A = NULL;
  T_OK(csr_create(3, 3, 2, ro, ci, v, &A));
  assert_int_equal(A->fill_complete, 1);
  double *dx = (double *)t_to_dev(x, sizeof x), *dy = (double *)t_dev_alloc(3 * sizeof(double));
  T_OK(strata_crs_spmv(NULL, 1.0, A, dx, 0.0, dy));
  double y[3];
  t_to_host(y, dy, sizeof y);
  assert_true(y[0] == 3.0 && y[1] == 0.0 && y[2] == 0.0);
  int64_t m = 0;
  T_OK(strata_crs_row_lengths_max(NULL, A, &m));
  assert_int_equal(m, 2);
  t_dev_free(dx);
  t_dev_free(dy);
  T_OK(strata_crs_destroy(&A));
}

/* ------------------------------------------------------------------ zero sizes, adopt */

static void test_csr_zero_sizes(void **state) {
  (void)state;
  static const int32_t shapes[][2] = {{0, 0}, {0, 6}, {6, 0}, {1000, 1000}};
  for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; ++t) {
    const int32_t nr = shapes[t][0], nc = shapes[t][1];
    for (int null_offsets = 0; null_offsets < 2; ++null_offsets) {
      int64_t *ro = (int64_t *)calloc((size_t)nr + 1, sizeof(int64_t));
      strata_crs_matrix_t *A = NULL;
      T_OK(csr_create(nr, nc, 0, null_offsets ? NULL : ro, NULL, NULL, &A));
      assert_int_equal(A->num_rows, nr);
      assert_int_equal(A->num_cols, nc);
      assert_int_equal(A->nnz, 0);
      assert_int_equal(A->fill_complete, 1);
      host_crs_t got = crs_to_host(A);
      for (int32_t i = 0; i <= nr; ++i) assert_int_equal(got.ro[i], 0);
      host_crs_free(&got);
      int64_t m = -1, cnt = -1;
      T_OK(strata_crs_row_lengths_max(NULL, A, &m));
      assert_int_equal(m, 0);
      if (nr > 0) {
        T_OK(strata_crs_get_row(NULL, A, nr - 1, &cnt, NULL, NULL, 0));
        assert_int_equal(cnt, 0);
      }
      T_OK(strata_crs_fill_complete(NULL, A));
      T_OK(strata_crs_destroy(&A));
      free(ro);
    }
  }
  /* a non-fill-complete matrix without entries (flag cleared by hand) still completes */
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 4, 4, 0, NULL, NULL, NULL, 0, &A));
  A->fill_complete = 0;
  T_OK(strata_crs_fill_complete(NULL, A));
  assert_int_equal(A->fill_complete, 1);
  assert_int_equal(A->nnz, 0);
  T_OK(strata_crs_destroy(&A));
}

static void test_csr_adopt(void **state) {
  (void)state;
  const int64_t ro[] = {0, 2, 2, 5};
  const int32_t ci[] = {3, 1, 0, 0, 2};
  int64_t *dro = (int64_t *)t_to_dev(ro, sizeof ro);
  int32_t *dci = (int32_t *)t_to_dev(ci, sizeof ci);
  strata_crs_matrix_t *A = NULL;
  /* refused: the caller still owns the arrays */
  T_ERR(strata_crs_create_from_csr(T_exec, 3, 3, 5, dro, dci, NULL, STRATA_CRS_ADOPT, &A),
        STRATA_ERR_INVALID_DATA);
  assert_null(A);
  T_OK(strata_crs_create_from_csr(T_exec, 3, 4, 5, dro, dci, NULL, STRATA_CRS_ADOPT, &A));
  assert_ptr_equal(A->row_offsets, dro);
  assert_ptr_equal(A->col_indices, dci);
  assert_int_equal(A->fill_complete, 0);
  double vals[5];
  t_to_host(vals, A->values, sizeof vals);
  for (int k = 0; k < 5; ++k) assert_true(vals[k] == 0.0);
  T_OK(strata_crs_fill_complete(NULL, A)); /* replaces (frees) the adopted arrays */
  assert_int_equal(A->nnz, 4);
  int64_t cnt = 0;
  int32_t cols[4];
  T_OK(strata_crs_get_row(NULL, A, 2, &cnt, cols, NULL, 4));
  assert_int_equal(cnt, 2);
  assert_true(cols[0] == 0 && cols[1] == 2);
  T_OK(strata_crs_destroy(&A)); /* frees what it owns (sanitizer builds check) */
}

/* ------------------------------------------------------------------ invalid CSR */

static void test_csr_invalid(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  const int32_t ci[] = {0, 1, 2, 3};
  const double v[] = {1, 2, 3, 4};
  {
    const int64_t ro[] = {1, 2, 3, 4};
    t_expect_msg(csr_create(3, 4, 4, ro, ci, v, &A), STRATA_ERR_INVALID_DATA, "row_offsets[0] = 1", "must be 0");
    assert_null(A);
  }
  {
    const int64_t ro[] = {0, 3, 2, 4};
    t_expect_msg(csr_create(3, 4, 4, ro, ci, v, &A), STRATA_ERR_INVALID_DATA,
                 "decrease at row 1", "row_offsets[2] = 2 < row_offsets[1] = 3");
    assert_null(A);
  }
  {
    const int64_t ro[] = {0, 1, 2, 5};
    t_expect_msg(csr_create(3, 4, 4, ro, ci, v, &A), STRATA_ERR_INVALID_DATA,
                 "row_offsets[num_rows = 3] = 5", "nnz = 4");
    const int64_t ro2[] = {0, 1, 2, 3};
    t_expect_msg(csr_create(3, 4, 4, ro2, ci, v, &A), STRATA_ERR_INVALID_DATA,
                 "row_offsets[num_rows = 3] = 3", "nnz = 4");
    const int64_t ro3[] = {2};
    t_expect_msg(csr_create(0, 4, 0, ro3, NULL, NULL, &A), STRATA_ERR_INVALID_DATA,
                 "row_offsets[0] = 2", NULL);
    const int64_t ro4[] = {0, 0};
    t_expect_msg(csr_create(1, 4, 4, ro4, ci, v, &A), STRATA_ERR_INVALID_DATA,
                 "row_offsets[num_rows = 1] = 0", "nnz = 4");
    assert_null(A);
  }
  { /* the first of several decreases, deep in a long array */
    const int32_t nr = 2000;
    int64_t *ro = (int64_t *)t_malloc(sizeof(int64_t) * (nr + 1));
    int32_t *cols = (int32_t *)t_malloc(sizeof(int32_t) * nr);
    for (int32_t i = 0; i <= nr; ++i) ro[i] = i;
    for (int32_t i = 0; i < nr; ++i) cols[i] = 0;
    ro[1501] = 1499;
    ro[1801] = 1000;
    t_expect_msg(csr_create(nr, 1, nr, ro, cols, NULL, &A), STRATA_ERR_INVALID_DATA,
                 "decrease at row 1500:", "row_offsets[1501] = 1499 < row_offsets[1500] = 1500");
    free(ro);
    free(cols);
  }
  {
    const int64_t ro[] = {0, 1, 3, 4};
    const int32_t bad[] = {0, 1, 4, -1};
    t_expect_msg(csr_create(3, 4, 4, ro, bad, v, &A), STRATA_ERR_INVALID_DATA, "2 of 4", "num_cols = 4");
    t_expect_msg(csr_create(3, 4, 4, ro, bad, v, &A), STRATA_ERR_INVALID_DATA,
                 "first is entry 2 (row 1) = column 4", NULL);
    const int64_t ro2[] = {0, 0, 0, 2};
    const int32_t bad2[] = {1, 7};
    t_expect_msg(csr_create(3, 4, 2, ro2, bad2, v, &A), STRATA_ERR_INVALID_DATA,
                 "1 of 2", "entry 1 (row 2) = column 7");
    const int32_t neg[] = {-3};
    const int64_t ro3[] = {0, 0, 1};
    t_expect_msg(csr_create(2, 4, 1, ro3, neg, v, &A), STRATA_ERR_INVALID_DATA,
                 "entry 0 (row 1) = column -3", "[0, num_cols = 4)");
    const int64_t ro4[] = {0, 1};
    t_expect_msg(csr_create(1, 0, 1, ro4, ci, v, &A), STRATA_ERR_INVALID_DATA, "num_cols = 0", NULL);
    assert_null(A);
  }
  /* arguments */
  const int64_t ro[] = {0, 1, 2, 4};
  t_expect_msg(strata_crs_create_from_csr(T_exec, -1, 4, 0, NULL, NULL, NULL, 0, &A),
               STRATA_ERR_INVALID_ARGUMENT, "num_rows = -1", NULL);
  t_expect_msg(strata_crs_create_from_csr(T_exec, 3, -2, 0, NULL, NULL, NULL, 0, &A),
               STRATA_ERR_INVALID_ARGUMENT, "num_cols = -2", NULL);
  t_expect_msg(strata_crs_create_from_csr(T_exec, 3, 4, -3, NULL, NULL, NULL, 0, &A),
               STRATA_ERR_INVALID_ARGUMENT, "nnz = -3", NULL);
  t_expect_msg(strata_crs_create_from_csr(T_exec, 3, 4, 4, NULL, NULL, NULL, 0, &A),
               STRATA_ERR_INVALID_ARGUMENT, "NULL row offsets", NULL);
  int64_t *dro = (int64_t *)t_to_dev(ro, sizeof ro);
  t_expect_msg(strata_crs_create_from_csr(T_exec, 3, 4, 4, dro, NULL, NULL, 0, &A),
               STRATA_ERR_INVALID_ARGUMENT, "NULL column index", NULL);
  t_expect_msg(strata_crs_create_from_csr(T_exec, 3, 4, 0, NULL, NULL, NULL, 6, &A),
               STRATA_ERR_INVALID_ARGUMENT, "unknown flags 0x6", NULL);
  T_ERR(strata_crs_create_from_csr(NULL, 3, 4, 0, NULL, NULL, NULL, 0, &A), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_create_from_csr(T_exec, 3, 4, 0, NULL, NULL, NULL, 0, NULL), STRATA_ERR_INVALID_ARGUMENT);
  assert_null(A);
  t_dev_free(dro);
  T_ERR(strata_crs_fill_complete(NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------ accessors */

static void test_csr_get_row(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3, 3, 4};
  const int32_t ci[] = {2, 0, 1, 3};
  const double v[] = {1.5, -2, 3, 4};
  strata_crs_matrix_t *A = NULL;
  T_OK(csr_create(3, 5, 4, ro, ci, v, &A));
  int64_t cnt = -1, m = -1;
  int32_t cols[4];
  double vals[4];
  T_OK(strata_crs_get_row(NULL, A, 0, &cnt, cols, vals, 4));
  assert_int_equal(cnt, 3);
  assert_true(cols[0] == 2 && cols[1] == 0 && cols[2] == 1); /* storage order */
  assert_true(vals[0] == 1.5 && vals[1] == -2 && vals[2] == 3);
  T_OK(strata_crs_get_row(T_exec, A, 1, &cnt, cols, vals, 0));
  assert_int_equal(cnt, 0);
  T_OK(strata_crs_get_row(NULL, A, 2, &cnt, NULL, vals, 1));
  assert_int_equal(cnt, 1);
  assert_true(vals[0] == 4);
  T_OK(strata_crs_get_row(NULL, A, 0, &cnt, NULL, NULL, 0)); /* count only */
  assert_int_equal(cnt, 3);
  T_OK(strata_crs_row_lengths_max(NULL, A, &m));
  assert_int_equal(m, 3);
  /* errors */
  t_expect_msg(strata_crs_get_row(NULL, A, 0, &cnt, cols, vals, 2), STRATA_ERR_INVALID_ARGUMENT,
               "3 entries", "capacity 2");
  assert_int_equal(cnt, 3); /* still set, to size the buffers */
  t_expect_msg(strata_crs_get_row(NULL, A, 3, &cnt, cols, vals, 4), STRATA_ERR_INVALID_ARGUMENT,
               "row 3", "num_rows = 3");
  t_expect_msg(strata_crs_get_row(NULL, A, -1, &cnt, cols, vals, 4), STRATA_ERR_INVALID_ARGUMENT,
               "row -1", "num_rows = 3");
  T_ERR(strata_crs_get_row(NULL, A, 0, NULL, cols, vals, 4), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_get_row(NULL, NULL, 0, &cnt, cols, vals, 4), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_row_lengths_max(NULL, A, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_crs_row_lengths_max(NULL, NULL, &m), STRATA_ERR_INVALID_ARGUMENT);
  if (strata_exec_backend(T_exec) != strata_exec_backend(T_serial)) /* another backend's exec */
    t_expect_msg(strata_crs_get_row(T_serial, A, 0, &cnt, cols, vals, 4), STRATA_ERR_INVALID_ARGUMENT,
                 "crs_get_row", "serial");
  T_OK(strata_crs_destroy(&A));
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_csr_random, t_setup),
      cmocka_unit_test_setup(test_csr_small, t_setup),
      cmocka_unit_test_setup(test_csr_e3_spmv, t_setup),
      cmocka_unit_test_setup(test_csr_zero_sizes, t_setup),
      cmocka_unit_test_setup(test_csr_adopt, t_setup),
      cmocka_unit_test_setup(test_csr_invalid, t_setup),
      cmocka_unit_test_setup(test_csr_get_row, t_setup),
  };
  return T_RUN("crs", tests);
}
