/* strata tests — partitions of the rows (contiguous, METIS) and the block decomposition of the
 * Schwarz preconditioners: the overlap layers against a host BFS, the block-diagonal matrix B
 * against a host extraction (bit for bit), gather and scatter (restricted and additive), empty
 * partitions (EDGE_CASES S15), bad inputs and n = 0. Every backend runs the same checks against
 * exact host references. */
#include "test_common.h"

#include "strata/solvers.h"
#include "schwarz_impl.h"
#include "test_sparse_host.h"

/* ------------------------------------------------------------------ host matrices */

static host_crs_t host_alloc(int32_t n, int64_t cap) {
  host_crs_t h;
  h.nr = h.nc = n;
  h.nnz = 0;
  h.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)n + 1));
  h.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)cap);
  h.v = (double *)t_malloc(sizeof(double) * (size_t)cap);
  h.ro[0] = 0;
  return h;
}

/* The 5-point Laplacian of an nx × ny grid (4 on the diagonal, -1 to each neighbour). */
static host_crs_t grid2d(int32_t nx, int32_t ny) {
  host_crs_t h = host_alloc(nx * ny, 5 * (int64_t)nx * ny);
  int64_t k = 0;
  for (int32_t y = 0; y < ny; ++y)
    for (int32_t x = 0; x < nx; ++x) {
      const int32_t i = y * nx + x;
      const int32_t nb[5] = {y > 0 ? i - nx : -1, x > 0 ? i - 1 : -1, i, x < nx - 1 ? i + 1 : -1,
                             y < ny - 1 ? i + nx : -1};
      for (int j = 0; j < 5; ++j)
        if (nb[j] >= 0) {
          h.ci[k] = nb[j];
          h.v[k++] = nb[j] == i ? 4.0 : -1.0;
        }
      h.ro[i + 1] = k;
    }
  h.nnz = k;
  return h;
}

/* The 1D Laplacian tridiag(-1, 2, -1) of n rows. */
static host_crs_t laplace1d(int32_t n) {
  host_crs_t h = host_alloc(n, 3 * (int64_t)n + 1);
  int64_t k = 0;
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t c = i - 1; c <= i + 1; ++c)
      if (c >= 0 && c < n) {
        h.ci[k] = c;
        h.v[k++] = c == i ? 2.0 : -1.0;
      }
    h.ro[i + 1] = k;
  }
  h.nnz = k;
  return h;
}

/* A random unsymmetric matrix: a dominant diagonal and up to `extra` random columns a row,
 * sorted and unique; values random. */
static host_crs_t random_unsym(int32_t n, int extra) {
  host_crs_t h = host_alloc(n, (int64_t)n * (extra + 1));
  unsigned char *mark = (unsigned char *)t_malloc((size_t)n);
  memset(mark, 0, (size_t)n);
  int64_t k = 0;
  for (int32_t i = 0; i < n; ++i) {
    mark[i] = 1;
    const int len = (int)(t_rand(&T_rng) % (uint64_t)(extra + 1));
    for (int j = 0; j < len; ++j) mark[t_rand(&T_rng) % (uint64_t)n] = 1;
    for (int32_t c = 0; c < n; ++c)
      if (mark[c]) {
        h.ci[k] = c;
        h.v[k++] = c == i ? 8.0 + t_uniform(&T_rng) : t_uniform(&T_rng) * 2.0 - 1.0;
        mark[c] = 0;
      }
    h.ro[i + 1] = k;
  }
  h.nnz = k;
  free(mark);
  return h;
}

static strata_crs_matrix_t *to_device(const host_crs_t *h) {
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, h->nr, h->nc, h->nnz, h->nnz ? h->ro : NULL, h->ci, h->v,
                                  STRATA_CRS_COPY, &A));
  return A;
}

/* ------------------------------------------------------------------ host references */

/* The extended sets as sorted keys p·n + g, by a breadth-first search per partition. */
static int64_t host_sets(const host_crs_t *A, const int32_t *part, int32_t P, int overlap, int64_t **keys_out) {
  const int32_t n = A->nr;
  unsigned char *in = (unsigned char *)t_malloc((size_t)n);
  int32_t *front = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  int32_t *next = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  int64_t cap = 16, E = 0;
  int64_t *keys = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)cap);
  for (int32_t p = 0; p < P; ++p) {
    memset(in, 0, (size_t)n);
    int32_t nf = 0;
    for (int32_t i = 0; i < n; ++i)
      if (part[i] == p) {
        in[i] = 1;
        front[nf++] = i;
      }
    for (int l = 0; l < overlap; ++l) {
      int32_t nn = 0;
      for (int32_t q = 0; q < nf; ++q)
        for (int64_t k = A->ro[front[q]]; k < A->ro[front[q] + 1]; ++k)
          if (!in[A->ci[k]]) {
            in[A->ci[k]] = 1;
            next[nn++] = A->ci[k];
          }
      memcpy(front, next, sizeof(int32_t) * (size_t)nn);
      nf = nn;
    }
    for (int32_t g = 0; g < n; ++g)
      if (in[g]) {
        if (E == cap) keys = (int64_t *)realloc(keys, sizeof(int64_t) * (size_t)(cap *= 2));
        keys[E++] = (int64_t)p * n + g;
      }
  }
  free(in);
  free(front);
  free(next);
  *keys_out = keys;
  return E;
}

static int64_t find_key(const int64_t *keys, int64_t lo, int64_t hi, int64_t key) {
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* B from the sets: row e holds A's entries (g, c) with (p, c) in the set, at column pos(p, c). */
static host_crs_t host_blocks(const host_crs_t *A, const int64_t *keys, int64_t E) {
  const int64_t n = A->nr;
  int64_t cap = 1;
  for (int64_t e = 0; e < E; ++e) cap += A->ro[keys[e] % n + 1] - A->ro[keys[e] % n];
  host_crs_t B = host_alloc((int32_t)E, cap);
  int64_t o = 0;
  for (int64_t e = 0; e < E; ++e) {
    const int64_t p = keys[e] / n, g = keys[e] % n;
    for (int64_t k = A->ro[g]; k < A->ro[g + 1]; ++k) {
      const int64_t want = p * n + A->ci[k], pos = find_key(keys, 0, E, want);
      if (pos < E && keys[pos] == want) {
        B.ci[o] = (int32_t)pos;
        B.v[o++] = A->v[k];
      }
    }
    B.ro[e + 1] = o;
  }
  B.nnz = o;
  return B;
}

/* ------------------------------------------------------------------ checks of a decomposition */

/* Builds the decomposition of h for part on the backend under test and checks everything against
 * the host: keys, block starts, nonempty count, map, own, B (bit for bit), the copies, gather,
 * restricted and additive scatter. */
static void check_blocks(const host_crs_t *h, const int32_t *part, int32_t P, int overlap, const char *what) {
  strata_crs_matrix_t *A = to_device(h);
  strata_impl_schwarz_blocks_t *b = NULL;
  T_OK(strata_impl_schwarz_blocks_create(T_exec, A, part, P, overlap, 1, &b));
  int64_t *want = NULL;
  const int64_t E = host_sets(h, part, P, overlap, &want);
  const int32_t n = h->nr;
  if (b->num_ext != E) fail_msg("%s, overlap %d: %d extended rows, expected %lld", what, overlap, b->num_ext, (long long)E);
  int64_t *keys = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)E);
  t_to_host(keys, b->keys, sizeof(int64_t) * (size_t)E);
  for (int64_t e = 0; e < E; ++e)
    if (keys[e] != want[e])
      fail_msg("%s, overlap %d: key %lld = (part %lld, row %lld), expected (part %lld, row %lld)", what, overlap,
               (long long)e, (long long)(keys[e] / n), (long long)(keys[e] % n), (long long)(want[e] / n),
               (long long)(want[e] % n));
  int32_t nonempty = 0;
  for (int32_t p = 0; p < P; ++p) {
    const int64_t s = find_key(want, 0, E, (int64_t)p * n), t = find_key(want, 0, E, (int64_t)(p + 1) * n);
    if (b->block_start[p] != s || b->block_start[p + 1] != t)
      fail_msg("%s: block %d spans [%lld, %lld), expected [%lld, %lld)", what, p, (long long)b->block_start[p],
               (long long)b->block_start[p + 1], (long long)s, (long long)t);
    nonempty += t > s;
  }
  assert_int_equal(b->num_nonempty, nonempty);
  /* map and own */
  int32_t *map = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)E), *own = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  t_to_host(map, b->map, sizeof(int32_t) * (size_t)E);
  t_to_host(own, b->own, sizeof(int32_t) * (size_t)n);
  for (int64_t e = 0; e < E; ++e) assert_int_equal(map[e], (int32_t)(want[e] % n));
  for (int32_t i = 0; i < n; ++i) assert_int_equal(own[i], (int32_t)find_key(want, 0, E, (int64_t)part[i] * n + i));
  /* B */
  host_crs_t hb = host_blocks(h, want, E), gb = crs_to_host(b->B);
  expect_same_crs(what, &hb, &gb);
  assert_int_equal(b->B->fill_complete, 1);
  /* new values through src: B of 3·A - 1 on the stored entries */
  host_crs_t h2 = *h;
  h2.v = (double *)t_malloc(sizeof(double) * (size_t)(h->nnz + 1));
  for (int64_t k = 0; k < h->nnz; ++k) h2.v[k] = 3.0 * h->v[k] - 1.0;
  strata_crs_matrix_t *A2 = to_device(&h2);
  T_OK(strata_impl_schwarz_blocks_values(T_exec, b, A2));
  host_crs_t hb2 = host_blocks(&h2, want, E), gb2 = crs_to_host(b->B);
  expect_same_crs(what, &hb2, &gb2);
  /* gather, restricted and additive scatter */
  double *x = (double *)t_malloc(sizeof(double) * (size_t)n), *xe = (double *)t_malloc(sizeof(double) * (size_t)E);
  double *z = (double *)t_malloc(sizeof(double) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) x[i] = t_uniform(&T_rng) - 0.5;
  for (int64_t e = 0; e < E; ++e) xe[e] = t_uniform(&T_rng) - 0.5;
  double *dx = (double *)t_to_dev(x, sizeof(double) * (size_t)n), *dxe = (double *)t_dev_alloc(sizeof(double) * (size_t)E);
  double *dz = (double *)t_dev_alloc(sizeof(double) * (size_t)n);
  T_OK(strata_impl_schwarz_gather(T_exec, b, dx, dxe));
  double *got = (double *)t_malloc(sizeof(double) * (size_t)(E > n ? E : n));
  t_to_host(got, dxe, sizeof(double) * (size_t)E);
  for (int64_t e = 0; e < E; ++e) assert_memory_equal(&got[e], &x[want[e] % n], sizeof(double));
  T_OK(strata_mem_copy(T_exec, dxe, xe, sizeof(double) * (size_t)E));
  T_OK(strata_impl_schwarz_scatter(T_exec, b, 1, dxe, dz));
  t_to_host(got, dz, sizeof(double) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) assert_memory_equal(&got[i], &xe[own[i]], sizeof(double));
  T_OK(strata_impl_schwarz_scatter(T_exec, b, 0, dxe, dz));
  t_to_host(got, dz, sizeof(double) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) { /* the copies of row i in ascending extended order */
    double s = 0.0;
    int first = 1;
    for (int64_t e = 0; e < E; ++e)
      if (want[e] % n == i) {
        s = first ? xe[e] : s + xe[e];
        first = 0;
      }
    if (memcmp(&got[i], &s, sizeof s) != 0)
      fail_msg("%s, overlap %d: additive z[%d] = %.17g, expected %.17g", what, overlap, i, got[i], s);
  }
  t_dev_free(dx);
  t_dev_free(dxe);
  t_dev_free(dz);
  free(x);
  free(xe);
  free(z);
  free(got);
  free(map);
  free(own);
  free(keys);
  free(want);
  host_crs_free(&hb);
  host_crs_free(&gb);
  host_crs_free(&hb2);
  host_crs_free(&gb2);
  free(h2.v);
  strata_impl_schwarz_blocks_destroy(&b);
  assert_null(b);
  strata_crs_destroy(&A);
  strata_crs_destroy(&A2);
}

/* ------------------------------------------------------------------ partitions */

static void expect_valid_parts(const int32_t *part, int32_t n, int32_t P) {
  for (int32_t i = 0; i < n; ++i)
    if (part[i] < 0 || part[i] >= P) fail_msg("part[%d] = %d outside [0, %d)", i, part[i], P);
}

static void test_partition_contiguous(void **state) {
  (void)state;
  host_crs_t h = grid2d(7, 5);
  strata_crs_matrix_t *A = to_device(&h);
  const int32_t n = h.nr, Ps[] = {1, 2, 3, 6, 34, 35};
  int32_t *part = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  for (size_t t = 0; t < sizeof Ps / sizeof Ps[0]; ++t) {
    const int32_t P = Ps[t];
    memset(part, 0xFF, sizeof(int32_t) * (size_t)n);
    T_OK(strata_partition_rows(T_exec, A, P, STRATA_PARTITION_CONTIGUOUS, part));
    expect_valid_parts(part, n, P);
    int32_t *size = (int32_t *)calloc((size_t)P, sizeof(int32_t));
    for (int32_t i = 0; i < n; ++i) {
      if (i > 0 && part[i] != part[i - 1] && part[i] != part[i - 1] + 1)
        fail_msg("P = %d: rows %d, %d in parts %d, %d: not consecutive blocks", P, i - 1, i, part[i - 1], part[i]);
      size[part[i]]++;
    }
    assert_int_equal(part[0], 0);
    assert_int_equal(part[n - 1], P - 1);
    for (int32_t p = 0; p < P; ++p)
      if (size[p] != n / P && size[p] != n / P + 1) fail_msg("P = %d: part %d holds %d rows", P, p, size[p]);
    free(size);
  }
  free(part);
  strata_crs_destroy(&A);
  host_crs_free(&h);
}

/* METIS: valid, the same twice, the same as the serial backend's, AUTO = METIS. */
static void test_partition_metis(void **state) {
  (void)state;
  if (!strata_have_metis()) {
    print_message("strata built without METIS: METIS partitions not tested here\n");
    return;
  }
  host_crs_t h = grid2d(12, 11), hu = random_unsym(150, 4);
  const host_crs_t *hs[2] = {&h, &hu};
  for (int m = 0; m < 2; ++m) {
    strata_crs_matrix_t *A = to_device(hs[m]), *As = NULL;
    T_OK(strata_crs_copy(T_serial, A, &As));
    const int32_t n = hs[m]->nr, Ps[] = {2, 5, 16, 60};
    int32_t *p1 = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n), *p2 = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
    int32_t *ps = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
    for (size_t t = 0; t < sizeof Ps / sizeof Ps[0]; ++t) {
      memset(p1, 0xFF, sizeof(int32_t) * (size_t)n);
      memset(p2, 0xFF, sizeof(int32_t) * (size_t)n);
      T_OK(strata_partition_rows(T_exec, A, Ps[t], STRATA_PARTITION_METIS, p1));
      expect_valid_parts(p1, n, Ps[t]);
      T_OK(strata_partition_rows(T_exec, A, Ps[t], STRATA_PARTITION_AUTO, p2));
      assert_memory_equal(p1, p2, sizeof(int32_t) * (size_t)n);
      T_OK(strata_partition_rows(T_serial, As, Ps[t], STRATA_PARTITION_METIS, ps));
      assert_memory_equal(p1, ps, sizeof(int32_t) * (size_t)n);
      int used = 0; /* more than one part used: METIS did split */
      for (int32_t i = 1; i < n; ++i) used |= p1[i] != p1[0];
      assert_true(used);
    }
    free(p1);
    free(p2);
    free(ps);
    strata_crs_destroy(&A);
    strata_crs_destroy(&As);
  }
  /* a diagonal matrix has no edges: contiguous blocks */
  host_crs_t hd = host_alloc(10, 10);
  for (int32_t i = 0; i < 10; ++i) {
    hd.ci[i] = i;
    hd.v[i] = 1.0;
    hd.ro[i + 1] = i + 1;
  }
  hd.nnz = 10;
  strata_crs_matrix_t *D = to_device(&hd);
  int32_t pd[10], pc[10];
  T_OK(strata_partition_rows(T_exec, D, 3, STRATA_PARTITION_METIS, pd));
  T_OK(strata_partition_rows(T_exec, D, 3, STRATA_PARTITION_CONTIGUOUS, pc));
  assert_memory_equal(pd, pc, sizeof pd);
  strata_crs_destroy(&D);
  host_crs_free(&hd);
  host_crs_free(&h);
  host_crs_free(&hu);
}

static void test_partition_bad(void **state) {
  (void)state;
  host_crs_t h = laplace1d(5);
  strata_crs_matrix_t *A = to_device(&h);
  int32_t part[5];
  t_expect_msg(strata_partition_rows(T_exec, A, 0, STRATA_PARTITION_CONTIGUOUS, part), STRATA_ERR_INVALID_ARGUMENT,
               "num_parts = 0", "[1, 5]");
  t_expect_msg(strata_partition_rows(T_exec, A, 6, STRATA_PARTITION_AUTO, part), STRATA_ERR_INVALID_ARGUMENT,
               "num_parts = 6", "[1, 5]");
  t_expect_msg(strata_partition_rows(T_exec, A, 2, (strata_partitioner_t)7, part), STRATA_ERR_INVALID_ARGUMENT,
               "partitioner 7", NULL);
  T_ERR(strata_partition_rows(T_exec, NULL, 2, STRATA_PARTITION_AUTO, part), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_partition_rows(T_exec, A, 2, STRATA_PARTITION_AUTO, NULL), STRATA_ERR_INVALID_ARGUMENT);
  if (!strata_have_metis())
    t_expect_msg(strata_partition_rows(T_exec, A, 2, STRATA_PARTITION_METIS, part), STRATA_ERR_UNSUPPORTED, "METIS",
                 NULL);
  else
    print_message("strata built with METIS: the refusal of METIS without it is not tested here\n");
  /* not square */
  strata_crs_matrix_t *R = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 5, 4, 0, NULL, NULL, NULL, STRATA_CRS_COPY, &R));
  t_expect_msg(strata_partition_rows(T_exec, R, 2, STRATA_PARTITION_CONTIGUOUS, part), STRATA_ERR_INVALID_ARGUMENT,
               "5 x 4", NULL);
  strata_crs_destroy(&R);
  strata_crs_destroy(&A);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ decompositions */

static void test_blocks_grid(void **state) {
  (void)state;
  host_crs_t h = grid2d(9, 7);
  const int32_t n = h.nr;
  int32_t *part = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  strata_crs_matrix_t *A = to_device(&h);
  const int32_t Ps[] = {1, 4, 9, 63};
  for (size_t t = 0; t < sizeof Ps / sizeof Ps[0]; ++t)
    for (int kind = 0; kind < 2; ++kind) {
      if (kind == 1 && !strata_have_metis()) continue;
      T_OK(strata_partition_rows(T_exec, A, Ps[t], kind ? STRATA_PARTITION_METIS : STRATA_PARTITION_CONTIGUOUS, part));
      for (int overlap = 0; overlap <= 3; ++overlap) check_blocks(&h, part, Ps[t], overlap, kind ? "metis" : "contiguous");
    }
  strata_crs_destroy(&A);
  free(part);
  host_crs_free(&h);
}

/* An unsymmetric pattern (the layers follow the rows' columns) and a random partition. */
static void test_blocks_unsymmetric(void **state) {
  (void)state;
  host_crs_t h = random_unsym(120, 3);
  int32_t *part = (int32_t *)t_malloc(sizeof(int32_t) * 120);
  for (int32_t P = 1; P <= 13; P += 6) {
    for (int32_t i = 0; i < 120; ++i) part[i] = (int32_t)(t_rand(&T_rng) % (uint64_t)P);
    for (int overlap = 0; overlap <= 2; ++overlap) check_blocks(&h, part, P, overlap, "random partition");
  }
  free(part);
  host_crs_free(&h);
}

/* S15: the 1D Laplacian n = 4 in 6 partitions, three of them empty: the same B, map and own as
 * the partition over the nonempty blocks alone. */
static void test_blocks_empty_parts(void **state) {
  (void)state;
  host_crs_t h = laplace1d(4);
  const int32_t sparse_part[4] = {0, 2, 2, 5}, dense_part[4] = {0, 1, 1, 2};
  strata_crs_matrix_t *A = to_device(&h);
  for (int overlap = 0; overlap <= 2; ++overlap) {
    check_blocks(&h, sparse_part, 6, overlap, "S15");
    strata_impl_schwarz_blocks_t *b6 = NULL, *b3 = NULL;
    T_OK(strata_impl_schwarz_blocks_create(T_exec, A, sparse_part, 6, overlap, 0, &b6));
    T_OK(strata_impl_schwarz_blocks_create(T_exec, A, dense_part, 3, overlap, 0, &b3));
    assert_int_equal(b6->num_nonempty, 3);
    assert_int_equal(b3->num_nonempty, 3);
    assert_int_equal(b6->num_ext, b3->num_ext);
    host_crs_t B6 = crs_to_host(b6->B), B3 = crs_to_host(b3->B);
    expect_same_crs("S15", &B3, &B6);
    int32_t m6[16], m3[16], o6[4], o3[4];
    t_to_host(m6, b6->map, sizeof(int32_t) * (size_t)b6->num_ext);
    t_to_host(m3, b3->map, sizeof(int32_t) * (size_t)b3->num_ext);
    t_to_host(o6, b6->own, sizeof o6);
    t_to_host(o3, b3->own, sizeof o3);
    assert_memory_equal(m6, m3, sizeof(int32_t) * (size_t)b6->num_ext);
    assert_memory_equal(o6, o3, sizeof o6);
    /* additive scatter without copies is refused */
    T_ERR(strata_impl_schwarz_scatter(T_exec, b6, 0, NULL, NULL), STRATA_ERR_INVALID_ARGUMENT);
    host_crs_free(&B6);
    host_crs_free(&B3);
    strata_impl_schwarz_blocks_destroy(&b6);
    strata_impl_schwarz_blocks_destroy(&b3);
  }
  {
    /* overlap 1: block 0 = rows {0, 1}, block 2 = {0, 1, 2, 3}, block 5 = {2, 3} */
    strata_impl_schwarz_blocks_t *b = NULL;
    T_OK(strata_impl_schwarz_blocks_create(T_exec, A, sparse_part, 6, 1, 0, &b));
    const int64_t starts[7] = {0, 2, 2, 6, 6, 6, 8};
    assert_memory_equal(b->block_start, starts, sizeof starts);
    strata_impl_schwarz_blocks_destroy(&b);
  }
  strata_crs_destroy(&A);
  host_crs_free(&h);
}

static void test_blocks_bad(void **state) {
  (void)state;
  host_crs_t h = laplace1d(5);
  strata_crs_matrix_t *A = to_device(&h);
  strata_impl_schwarz_blocks_t *b = NULL;
  const int32_t good[5] = {0, 0, 1, 1, 1}, bad[5] = {0, 1, 2, 7, 1}, neg[5] = {0, -1, 0, 0, 0};
  t_expect_msg(strata_impl_schwarz_blocks_create(T_exec, A, good, 0, 0, 0, &b), STRATA_ERR_INVALID_ARGUMENT,
               "num_parts = 0", NULL);
  t_expect_msg(strata_impl_schwarz_blocks_create(T_exec, A, good, 2, -1, 0, &b), STRATA_ERR_INVALID_ARGUMENT,
               "overlap = -1", NULL);
  t_expect_msg(strata_impl_schwarz_blocks_create(T_exec, A, bad, 3, 0, 0, &b), STRATA_ERR_INVALID_ARGUMENT,
               "parts[3] = 7", "[0, 3)");
  t_expect_msg(strata_impl_schwarz_blocks_create(T_exec, A, neg, 3, 0, 0, &b), STRATA_ERR_INVALID_ARGUMENT,
               "parts[1] = -1", NULL);
  assert_null(b);
  strata_crs_destroy(&A);
  host_crs_free(&h);
}

/* n = 0: partitions and a decomposition of nothing. */
static void test_empty_matrix(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 0, 0, 0, NULL, NULL, NULL, STRATA_CRS_COPY, &A));
  T_OK(strata_partition_rows(T_exec, A, 1, STRATA_PARTITION_AUTO, NULL));
  T_OK(strata_partition_rows(T_exec, A, 1, STRATA_PARTITION_CONTIGUOUS, NULL));
  strata_impl_schwarz_blocks_t *b = NULL;
  T_OK(strata_impl_schwarz_blocks_create(T_exec, A, NULL, 1, 2, 1, &b));
  assert_int_equal(b->num_ext, 0);
  assert_int_equal(b->num_nonempty, 0);
  assert_int_equal(b->B->num_rows, 0);
  T_OK(strata_impl_schwarz_gather(T_exec, b, NULL, NULL));
  T_OK(strata_impl_schwarz_scatter(T_exec, b, 1, NULL, NULL));
  T_OK(strata_impl_schwarz_scatter(T_exec, b, 0, NULL, NULL));
  strata_impl_schwarz_blocks_destroy(&b);
  strata_crs_destroy(&A);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_partition_contiguous, t_setup),
      cmocka_unit_test_setup(test_partition_metis, t_setup),
      cmocka_unit_test_setup(test_partition_bad, t_setup),
      cmocka_unit_test_setup(test_blocks_grid, t_setup),
      cmocka_unit_test_setup(test_blocks_unsymmetric, t_setup),
      cmocka_unit_test_setup(test_blocks_empty_parts, t_setup),
      cmocka_unit_test_setup(test_blocks_bad, t_setup),
      cmocka_unit_test_setup(test_empty_matrix, t_setup),
  };
  return T_RUN("schwarz", tests);
}
