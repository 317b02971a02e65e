/* strata tests — partitions of the rows (contiguous, METIS) and the block decomposition of the
 * Schwarz preconditioners: the overlap layers against a host BFS, the block-diagonal matrix B
 * against a host extraction (bit for bit), gather and scatter (restricted and additive), empty
 * partitions (EDGE_CASES S15), bad inputs and n = 0; then the preconditioner: one partition equal
 * to ILU(k) of A, one partition a row equal to Jacobi, exact block solves (fill level above the
 * blocks' sizes) against dense host solves for RAS and additive Schwarz, S15, refactor, a block's
 * zero pivot named in A's numbering. Every backend against exact host references and serial. */
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

/* A CrsMatrix on exec from host CSR h: the arrays copied to exec memory first (create_from_csr
 * reads exec memory: device memory on GPU backends). */
static strata_crs_matrix_t *upload(strata_exec_t *exec, const host_crs_t *h) {
  void *ro = NULL, *ci = NULL, *v = NULL;
  const size_t bro = sizeof(int64_t) * ((size_t)h->nr + 1), bci = sizeof(int32_t) * (size_t)h->nnz,
               bv = sizeof(double) * (size_t)h->nnz;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bro, &ro));
  T_OK(strata_mem_copy(exec, ro, h->ro, bro));
  if (h->nnz > 0) {
    T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bci, &ci));
    T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bv, &v));
    T_OK(strata_mem_copy(exec, ci, h->ci, bci));
    T_OK(strata_mem_copy(exec, v, h->v, bv));
  }
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(exec, h->nr, h->nc, h->nnz, (const int64_t *)ro,
                                  (const int32_t *)ci, (const double *)v, STRATA_CRS_ADOPT, &A));
  return A;
}

static strata_crs_matrix_t *to_device(const host_crs_t *h) { return upload(T_exec, h); }

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
      /* AUTO is METIS's partition when every part is nonempty, else contiguous blocks */
      int nonempty = 0;
      for (int32_t q = 0; q < Ps[t]; ++q) {
        int hit = 0;
        for (int32_t i = 0; i < n && !hit; ++i) hit = p1[i] == q;
        nonempty += hit;
      }
      if (nonempty == Ps[t]) {
        assert_memory_equal(p1, p2, sizeof(int32_t) * (size_t)n);
      } else {
        T_OK(strata_partition_rows(T_exec, A, Ps[t], STRATA_PARTITION_CONTIGUOUS, ps));
        assert_memory_equal(ps, p2, sizeof(int32_t) * (size_t)n);
      }
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

/* A host matrix from rows of column lists (values 1; -1 ends a row's list) */
static host_crs_t from_rows(int32_t n, const int32_t *cols) {
  host_crs_t h = host_alloc(n, 64);
  int64_t k = 0;
  for (int32_t i = 0; i < n; ++i) {
    for (; *cols >= 0; ++cols) h.ci[k] = *cols, h.v[k++] = 1.0;
    ++cols;
    h.ro[i + 1] = k;
  }
  h.nnz = k;
  return h;
}

static void partition_of(const host_crs_t *h, int32_t P, strata_partitioner_t how, int32_t *part) {
  strata_crs_matrix_t *A = to_device(h);
  memset(part, 0xFF, sizeof(int32_t) * (size_t)h->nr);
  T_OK(strata_partition_rows(T_exec, A, P, how, part));
  expect_valid_parts(part, h->nr, P);
  strata_crs_destroy(&A);
}

/* EDGE_CASES D14 (METIS 5.1: nparts = 1 crashes PartGraphKway; nparts > n leaves parts empty) and
 * D15 (METIS's graph from a matrix with a diagonal, an asymmetric entry, a duplicate, an empty row).
 * The path of 6 vertices in 1 part: all zeros by METIS and AUTO; in 8 parts refused (the limit
 * named); 3 vertices in 2 parts: valid ids. A 6 x 6 matrix with all four D15 features gives the
 * partition of its graph written plainly (no diagonal, symmetric, no duplicate). */
static void test_partition_d14_d15(void **state) {
  (void)state;
  if (!strata_have_metis()) {
    print_message("strata built without METIS: D14 / D15 not tested here\n");
    return;
  }
  host_crs_t path = laplace1d(6), three = laplace1d(3);
  int32_t part[6];
  for (int how = 0; how < 2; ++how) {
    partition_of(&path, 1, how ? STRATA_PARTITION_AUTO : STRATA_PARTITION_METIS, part);
    for (int32_t i = 0; i < 6; ++i) assert_int_equal(part[i], 0);
  }
  strata_crs_matrix_t *A = to_device(&path);
  t_expect_msg(strata_partition_rows(T_exec, A, 8, STRATA_PARTITION_METIS, part), STRATA_ERR_INVALID_ARGUMENT,
               "num_parts = 8", "[1, 6]");
  strata_crs_destroy(&A);
  partition_of(&three, 2, STRATA_PARTITION_METIS, part);
  /* D15: rows 0-1-2-3-4 a path plus 0-4, row 5 empty; (0,0), (3,3) diagonals, (1,2) stored on one
   * side only, (2,3) twice */
  static const int32_t messy[] = {0, 1, 4, -1, 0, 2, -1, 3, 3, -1, 2, 3, 4, -1, 3, 0, -1, -1};
  static const int32_t plain[] = {1, 4, -1, 0, 2, -1, 1, 3, -1, 2, 4, -1, 3, 0, -1, -1};
  host_crs_t hm = from_rows(6, messy), hp = from_rows(6, plain);
  int32_t pm[6], pp[6];
  for (int32_t P = 2; P <= 3; ++P) {
    partition_of(&hm, P, STRATA_PARTITION_METIS, pm);
    partition_of(&hp, P, STRATA_PARTITION_METIS, pp);
    for (int32_t i = 0; i < 6; ++i)
      if (pm[i] != pp[i]) fail_msg("D15, %d parts: row %d in part %d, %d without the diagonal and duplicate", P, i, pm[i], pp[i]);
  }
  host_crs_free(&hm), host_crs_free(&hp), host_crs_free(&path), host_crs_free(&three);
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

/* ------------------------------------------------------------------ the preconditioner */

/* z = M⁻¹·r on exec for a Schwarz preconditioner of opts on host matrix h (r host [n], z host). */
static void schwarz_apply_on(strata_exec_t *exec, const host_crs_t *h, const strata_schwarz_options_t *opts,
                             const double *r, double *z, strata_precond_stats_t *stats) {
  strata_crs_matrix_t *A = NULL;
  A = upload(exec, h);
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(exec, A, NULL, &op));
  T_OK(strata_precond_create_schwarz(exec, opts, &P));
  T_OK(strata_precond_setup(exec, P, op));
  const size_t bytes = sizeof(double) * (size_t)h->nr;
  double *dr = NULL, *dz = NULL;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dr));
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&dz));
  T_OK(strata_mem_copy(exec, dr, r, bytes));
  T_OK(strata_mem_set_async(exec, dz, 0xFF, bytes)); /* poisoned: NaN */
  T_OK(strata_precond_apply(exec, P, dr, dz));
  T_OK(strata_mem_copy(exec, z, dz, bytes));
  if (stats) T_OK(strata_precond_stats(P, stats));
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dr);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dz);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
}

static void expect_close(const char *what, const double *want, const double *got, int32_t n, double tol) {
  for (int32_t i = 0; i < n; ++i)
    if (!(t_reldiff(want[i], got[i]) <= tol))
      fail_msg("%s: z[%d] = %.17g, expected %.17g (seed %llu)", what, i, got[i], want[i], (unsigned long long)T_seed);
}

static double *random_vec(int32_t n) {
  double *r = (double *)t_malloc(sizeof(double) * (size_t)n);
  for (int32_t i = 0; i < n; ++i) r[i] = t_uniform(&T_rng) * 2.0 - 1.0;
  return r;
}

/* RAS with one partition is ILU(k) of A (any overlap: the one block is A). */
static void test_ras_one_part_is_ilu(void **state) {
  (void)state;
  host_crs_t hs[2] = {grid2d(10, 9), random_unsym(80, 3)};
  for (int m = 0; m < 2; ++m) {
    const host_crs_t *h = &hs[m];
    double *r = random_vec(h->nr), *z = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
    double *zi = (double *)t_malloc(sizeof(double) * (size_t)h->nr), *zs = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
    for (int k = 0; k <= 2; ++k) {
      /* ILU(k) of A as its own preconditioner */
      strata_crs_matrix_t *A = to_device(h);
      strata_operator_t *op = NULL;
      strata_precond_t *I = NULL;
      strata_ilu_options_t io;
      strata_ilu_options_default(&io);
      io.fill_level = k;
      T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
      T_OK(strata_precond_create_ilu(T_exec, &io, &I));
      T_OK(strata_precond_setup(T_exec, I, op));
      double *dr = (double *)t_to_dev(r, sizeof(double) * (size_t)h->nr), *dz = (double *)t_dev_alloc(sizeof(double) * (size_t)h->nr);
      T_OK(strata_precond_apply(T_exec, I, dr, dz));
      t_to_host(zi, dz, sizeof(double) * (size_t)h->nr);
      t_dev_free(dr);
      t_dev_free(dz);
      strata_precond_destroy(&I);
      strata_operator_destroy(&op);
      strata_crs_destroy(&A);
      for (int overlap = 0; overlap <= 2; overlap += 2) {
        strata_schwarz_options_t o;
        strata_schwarz_options_default(&o);
        o.overlap = overlap;
        o.ilu.fill_level = k;
        strata_precond_stats_t st;
        schwarz_apply_on(T_exec, h, &o, r, z, &st);
        expect_close("RAS(1) against ILU(k)", zi, z, h->nr, 1e-12);
        assert_int_equal(st.num_parts, 1);
        assert_int_equal(st.rows_extended, h->nr);
        schwarz_apply_on(T_serial, h, &o, r, zs, NULL);
        expect_close("RAS(1) against serial", zs, z, h->nr, 1e-12);
      }
    }
    free(r);
    free(z);
    free(zi);
    free(zs);
    host_crs_free(&hs[m]);
  }
}

/* One partition a row, no overlap: Jacobi, z = r / diag(A). */
static void test_rows_parts_is_jacobi(void **state) {
  (void)state;
  host_crs_t hs[2] = {grid2d(7, 6), random_unsym(50, 4)};
  for (int m = 0; m < 2; ++m) {
    const host_crs_t *h = &hs[m];
    double *r = random_vec(h->nr), *z = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
    double *want = (double *)t_malloc(sizeof(double) * (size_t)h->nr);
    for (int32_t i = 0; i < h->nr; ++i)
      for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k)
        if (h->ci[k] == i) want[i] = r[i] / h->v[k];
    for (int restricted = 0; restricted <= 1; ++restricted) {
      strata_schwarz_options_t o;
      strata_schwarz_options_default(&o);
      o.num_parts = h->nr;
      o.partitioner = STRATA_PARTITION_CONTIGUOUS;
      o.restricted = restricted;
      o.ilu.fill_level = 1;
      schwarz_apply_on(T_exec, h, &o, r, z, NULL);
      expect_close("Schwarz(rows, overlap 0) against Jacobi", want, z, h->nr, 1e-14);
    }
    free(r);
    free(z);
    free(want);
    host_crs_free(&hs[m]);
  }
}

/* Dense LU with partial pivoting of the m × m matrix M (row-major, overwritten), solving M x = b
 * in place in b. */
static void dense_solve(double *M, double *b, int m) {
  for (int j = 0; j < m; ++j) {
    int piv = j;
    for (int i = j + 1; i < m; ++i)
      if (fabs(M[i * m + j]) > fabs(M[piv * m + j])) piv = i;
    if (piv != j) {
      for (int c = 0; c < m; ++c) {
        const double t = M[j * m + c];
        M[j * m + c] = M[piv * m + c];
        M[piv * m + c] = t;
      }
      const double t = b[j];
      b[j] = b[piv];
      b[piv] = t;
    }
    for (int i = j + 1; i < m; ++i) {
      const double l = M[i * m + j] / M[j * m + j];
      for (int c = j; c < m; ++c) M[i * m + c] -= l * M[j * m + c];
      b[i] -= l * b[j];
    }
  }
  for (int i = m - 1; i >= 0; --i) {
    double s = b[i];
    for (int c = i + 1; c < m; ++c) s -= M[i * m + c] * b[c];
    b[i] = s / M[i * m + i];
  }
}

/* With a fill level above every block's size ILU(k) is the exact LU of the block, so RAS and
 * additive Schwarz equal Σ R̃_pᵀ A_p⁻¹ R_p r computed here by dense solves of the host blocks. */
static void test_exact_blocks_reference(void **state) {
  (void)state;
  host_crs_t hs[2] = {grid2d(6, 5), random_unsym(40, 3)};
  for (int m = 0; m < 2; ++m) {
    const host_crs_t *h = &hs[m];
    const int32_t n = h->nr, P = 4;
    int32_t *part = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
    double *r = random_vec(n), *z = (double *)t_malloc(sizeof(double) * (size_t)n);
    double *want = (double *)t_malloc(sizeof(double) * (size_t)n);
    for (int by_metis = 0; by_metis <= strata_have_metis(); ++by_metis)
    for (int overlap = 0; overlap <= 2; ++overlap) {
      if (by_metis) { /* the preconditioner partitions; the reference takes the same partition */
        strata_crs_matrix_t *A = to_device(h);
        T_OK(strata_partition_rows(T_exec, A, P, STRATA_PARTITION_METIS, part));
        strata_crs_destroy(&A);
      } else {
        for (int32_t i = 0; i < n; ++i) part[i] = (int32_t)(t_rand(&T_rng) % (uint64_t)P);
      }
      int64_t *keys = NULL;
      const int64_t E = host_sets(h, part, P, overlap, &keys);
      for (int restricted = 0; restricted <= 1; ++restricted) {
        for (int32_t i = 0; i < n; ++i) want[i] = 0.0;
        for (int32_t p = 0, e0 = 0; p < P; ++p) {
          int32_t e1 = e0;
          while (e1 < E && keys[e1] / n == p) ++e1;
          const int mb = e1 - e0;
          double *M = (double *)calloc((size_t)mb * (size_t)mb + 1, sizeof(double)), *x = (double *)t_malloc(sizeof(double) * ((size_t)mb + 1));
          for (int a = 0; a < mb; ++a) {
            const int32_t g = (int32_t)(keys[e0 + a] % n);
            x[a] = r[g];
            for (int64_t k = h->ro[g]; k < h->ro[g + 1]; ++k) {
              const int64_t pos = find_key(keys, e0, e1, (int64_t)p * n + h->ci[k]);
              if (pos < e1 && keys[pos] == (int64_t)p * n + h->ci[k]) M[a * mb + (pos - e0)] += h->v[k];
            }
          }
          dense_solve(M, x, mb);
          for (int a = 0; a < mb; ++a) {
            const int32_t g = (int32_t)(keys[e0 + a] % n);
            if (!restricted || part[g] == p) want[g] += x[a];
          }
          free(M);
          free(x);
          e0 = e1;
        }
        strata_schwarz_options_t o;
        strata_schwarz_options_default(&o);
        o.num_parts = P;
        o.parts = by_metis ? NULL : part;
        o.partitioner = by_metis ? STRATA_PARTITION_METIS : STRATA_PARTITION_AUTO;
        o.overlap = overlap;
        o.restricted = restricted;
        o.ilu.fill_level = 64;
        schwarz_apply_on(T_exec, h, &o, r, z, NULL);
        expect_close(restricted ? "RAS, exact blocks" : "additive Schwarz, exact blocks", want, z, n, 1e-10);
        double *zs = (double *)t_malloc(sizeof(double) * (size_t)n);
        schwarz_apply_on(T_serial, h, &o, r, zs, NULL);
        expect_close("Schwarz against serial", zs, z, n, 1e-12);
        free(zs);
      }
      free(keys);
    }
    free(part);
    free(r);
    free(z);
    free(want);
    host_crs_free(&hs[m]);
  }
}

/* S15: six partitions of the 1D Laplacian n = 4, three empty: the same as the three nonempty. */
static void test_s15_apply(void **state) {
  (void)state;
  host_crs_t h = laplace1d(4);
  const int32_t sparse_part[4] = {0, 2, 2, 5}, dense_part[4] = {0, 1, 1, 2};
  const double r[4] = {1.0, -2.0, 0.5, 3.0};
  for (int overlap = 0; overlap <= 1; ++overlap)
    for (int restricted = 0; restricted <= 1; ++restricted) {
      strata_schwarz_options_t o;
      strata_schwarz_options_default(&o);
      o.overlap = overlap;
      o.restricted = restricted;
      o.num_parts = 6;
      o.parts = sparse_part;
      double z6[4], z3[4];
      strata_precond_stats_t s6, s3;
      schwarz_apply_on(T_exec, &h, &o, r, z6, &s6);
      o.num_parts = 3;
      o.parts = dense_part;
      schwarz_apply_on(T_exec, &h, &o, r, z3, &s3);
      assert_memory_equal(z6, z3, sizeof z6);
      for (int i = 0; i < 4; ++i) assert_true(isfinite(z6[i]));
      assert_int_equal(s6.num_parts, 3);
      assert_int_equal(s6.rows_extended, s3.rows_extended);
    }
  /* overlap 0, blocks {0}, {1, 2}, {3}: z0 = r0 / 2, z3 = r3 / 2 and the 2 × 2 solve */
  strata_schwarz_options_t o;
  strata_schwarz_options_default(&o);
  o.num_parts = 6;
  o.parts = sparse_part;
  double z[4];
  schwarz_apply_on(T_exec, &h, &o, r, z, NULL);
  const double want[4] = {0.5, (2.0 * -2.0 + 0.5) / 3.0, (-2.0 + 2.0 * 0.5) / 3.0, 1.5};
  expect_close("S15 by hand", want, z, 4, 1e-15);
  host_crs_free(&h);
}

/* New values of the same matrix: setup again refactors; the result equals a fresh setup's. */
static void test_refactor(void **state) {
  (void)state;
  host_crs_t h = grid2d(8, 8);
  const int32_t n = h.nr;
  strata_schwarz_options_t o;
  strata_schwarz_options_default(&o);
  o.num_parts = 5;
  o.overlap = 1;
  o.ilu.fill_level = 1;
  o.partitioner = STRATA_PARTITION_CONTIGUOUS;
  strata_crs_matrix_t *A = to_device(&h);
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
  T_OK(strata_precond_create_schwarz(T_exec, &o, &P));
  T_OK(strata_precond_setup(T_exec, P, op));
  for (int64_t k = 0; k < h.nnz; ++k) h.v[k] = h.ci[k] == 0 ? h.v[k] : h.v[k] * (1.0 + 0.1 * (double)(k % 7));
  T_OK(strata_mem_copy(T_exec, A->values, h.v, sizeof(double) * (size_t)h.nnz));
  T_OK(strata_precond_setup(T_exec, P, op));
  double *r = random_vec(n), *z = (double *)t_malloc(sizeof(double) * (size_t)n), *want = (double *)t_malloc(sizeof(double) * (size_t)n);
  double *dr = (double *)t_to_dev(r, sizeof(double) * (size_t)n), *dz = (double *)t_dev_alloc(sizeof(double) * (size_t)n);
  T_OK(strata_precond_apply(T_exec, P, dr, dz));
  t_to_host(z, dz, sizeof(double) * (size_t)n);
  schwarz_apply_on(T_exec, &h, &o, r, want, NULL);
  assert_memory_equal(z, want, sizeof(double) * (size_t)n);
  assert_string_equal(strata_precond_name(P), "ras(5, overlap 1, ilu(1))");
  t_dev_free(dr);
  t_dev_free(dz);
  free(r);
  free(z);
  free(want);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  host_crs_free(&h);
}

static strata_status_t setup_with(const host_crs_t *h, const strata_schwarz_options_t *o) {
  strata_crs_matrix_t *A = to_device(h);
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
  T_OK(strata_precond_create_schwarz(T_exec, o, &P));
  const strata_status_t st = strata_precond_setup(T_exec, P, op);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  return st;
}

static void test_precond_bad(void **state) {
  (void)state;
  strata_schwarz_options_t o;
  strata_precond_t *P = NULL;
  strata_schwarz_options_default(&o);
  o.num_parts = 0;
  t_expect_msg(strata_precond_create_schwarz(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "num_parts = 0", "limit 1");
  strata_schwarz_options_default(&o);
  o.overlap = -2;
  t_expect_msg(strata_precond_create_schwarz(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "overlap = -2", "limit 0");
  assert_null(P);
  if (!strata_have_metis()) {
    strata_schwarz_options_default(&o);
    o.partitioner = STRATA_PARTITION_METIS;
    t_expect_msg(strata_precond_create_schwarz(T_exec, &o, &P), STRATA_ERR_UNSUPPORTED, "METIS", NULL);
  }
  host_crs_t h = laplace1d(6);
  strata_schwarz_options_default(&o);
  o.num_parts = 7;
  t_expect_msg(setup_with(&h, &o), STRATA_ERR_INVALID_ARGUMENT, "num_parts = 7", "limit 6");
  const int32_t bad[6] = {0, 1, 0, 1, 2, 0};
  o.num_parts = 2;
  o.parts = bad;
  t_expect_msg(setup_with(&h, &o), STRATA_ERR_INVALID_ARGUMENT, "parts[4] = 2", "[0, 2)");
  /* a zero pivot in a block: row 3 of A is the first row of partition 0's block (row 0 of B) */
  const int32_t swapped[6] = {1, 1, 1, 0, 0, 0};
  o.parts = swapped;
  for (int64_t k = h.ro[3]; k < h.ro[4]; ++k)
    if (h.ci[k] == 3) h.v[k] = 0.0;
  t_expect_msg(setup_with(&h, &o), STRATA_ERR_INVALID_DATA, "row 3 of A", "partition 0");
  host_crs_free(&h);
}

static void test_precond_empty(void **state) {
  (void)state;
  host_crs_t h = host_alloc(0, 1);
  strata_schwarz_options_t o;
  strata_schwarz_options_default(&o);
  o.overlap = 1;
  for (int restricted = 0; restricted <= 1; ++restricted) {
    o.restricted = restricted;
    schwarz_apply_on(T_exec, &h, &o, NULL, NULL, NULL);
  }
  host_crs_free(&h);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_partition_contiguous, t_setup),
      cmocka_unit_test_setup(test_partition_metis, t_setup),
      cmocka_unit_test_setup(test_partition_d14_d15, t_setup),
      cmocka_unit_test_setup(test_partition_bad, t_setup),
      cmocka_unit_test_setup(test_blocks_grid, t_setup),
      cmocka_unit_test_setup(test_blocks_unsymmetric, t_setup),
      cmocka_unit_test_setup(test_blocks_empty_parts, t_setup),
      cmocka_unit_test_setup(test_blocks_bad, t_setup),
      cmocka_unit_test_setup(test_empty_matrix, t_setup),
      cmocka_unit_test_setup(test_ras_one_part_is_ilu, t_setup),
      cmocka_unit_test_setup(test_rows_parts_is_jacobi, t_setup),
      cmocka_unit_test_setup(test_exact_blocks_reference, t_setup),
      cmocka_unit_test_setup(test_s15_apply, t_setup),
      cmocka_unit_test_setup(test_refactor, t_setup),
      cmocka_unit_test_setup(test_precond_bad, t_setup),
      cmocka_unit_test_setup(test_precond_empty, t_setup),
  };
  return T_RUN("schwarz", tests);
}
