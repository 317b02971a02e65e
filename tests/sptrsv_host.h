/* strata tests — host helpers of the triangular-solve and ILU tests (test_sptrsv.c, test_ilu.c):
 * host CSR matrices (Poisson stencils, transposes), device copies on a given execution space,
 * and the host reference of a triangular solve. Include after test_common.h, strata/sparse.h and
 * test_sparse_host.h. */
#ifndef STRATA_TEST_SPTRSV_HOST_H
#define STRATA_TEST_SPTRSV_HOST_H

/* An empty host CSR of nr x nc with room for cap entries (ro[0] = 0). */
static inline host_crs_t hc_new(int32_t nr, int32_t nc, int64_t cap) {
  host_crs_t h;
  h.nr = nr;
  h.nc = nc;
  h.nnz = 0;
  h.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nr + 1));
  h.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(cap + 1));
  h.v = (double *)t_malloc(sizeof(double) * (size_t)(cap + 1));
  h.ro[0] = 0;
  return h;
}
static inline void hc_push(host_crs_t *h, int32_t c, double v) {
  h->ci[h->nnz] = c;
  h->v[h->nnz] = v;
  ++h->nnz;
}

/* From dense row-major a [nr x nc]: the nonzeros and every diagonal entry (zero or not). */
static inline host_crs_t hc_dense(int32_t nr, int32_t nc, const double *a) {
  host_crs_t h = hc_new(nr, nc, (int64_t)nr * nc);
  for (int32_t i = 0; i < nr; ++i) {
    for (int32_t j = 0; j < nc; ++j)
      if (a[(size_t)i * nc + j] != 0.0 || i == j) hc_push(&h, j, a[(size_t)i * nc + j]);
    h.ro[i + 1] = h.nnz;
  }
  return h;
}

/* The 5-point (nz = 1) or 7-point Laplacian on an nx x ny x nz grid, natural order. */
/* The 1D Laplacian tridiag(-1, 2, -1) of n points (hc_poisson's 1D form has 4 on the diagonal). */
static inline host_crs_t hc_lap1d(int32_t n) {
  host_crs_t h = hc_new(n, n, 3 * (int64_t)n);
  for (int32_t i = 0; i < n; ++i) {
    if (i > 0) hc_push(&h, i - 1, -1.0);
    hc_push(&h, i, 2.0);
    if (i < n - 1) hc_push(&h, i + 1, -1.0);
    h.ro[i + 1] = h.nnz;
  }
  return h;
}

static inline host_crs_t hc_poisson(int32_t nx, int32_t ny, int32_t nz) {
  const int32_t n = nx * ny * nz;
  host_crs_t h = hc_new(n, n, (int64_t)n * 7);
  for (int32_t z = 0; z < nz; ++z)
    for (int32_t y = 0; y < ny; ++y)
      for (int32_t x = 0; x < nx; ++x) {
        const int32_t i = x + nx * (y + ny * z);
        if (z > 0) hc_push(&h, i - nx * ny, -1.0);
        if (y > 0) hc_push(&h, i - nx, -1.0);
        if (x > 0) hc_push(&h, i - 1, -1.0);
        hc_push(&h, i, nz > 1 ? 6.0 : 4.0);
        if (x < nx - 1) hc_push(&h, i + 1, -1.0);
        if (y < ny - 1) hc_push(&h, i + nx, -1.0);
        if (z < nz - 1) hc_push(&h, i + nx * ny, -1.0);
        h.ro[i + 1] = h.nnz;
      }
  return h;
}

/* h^T (columns sorted when h's are: entries are visited row by row). */
static inline host_crs_t hc_transpose(const host_crs_t *h) {
  host_crs_t t = hc_new(h->nc, h->nr, h->nnz);
  int64_t *cnt = (int64_t *)calloc((size_t)h->nc + 1, sizeof(int64_t));
  for (int64_t k = 0; k < h->nnz; ++k) ++cnt[h->ci[k] + 1];
  for (int32_t c = 0; c < h->nc; ++c) cnt[c + 1] += cnt[c];
  for (int32_t c = 0; c <= h->nc; ++c) t.ro[c] = cnt[c];
  for (int32_t i = 0; i < h->nr; ++i)
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      const int64_t q = cnt[h->ci[k]]++;
      t.ci[q] = i;
      t.v[q] = h->v[k];
    }
  t.nnz = h->nnz;
  free(cnt);
  return t;
}

/* Shuffles the entries [b, h->nnz) of the row being built (unsorted columns). */
static inline void hc_shuffle_tail(host_crs_t *h, int64_t b, uint64_t *s) {
  for (int64_t k = h->nnz - 1; k > b; --k) {
    const int64_t q = b + (int64_t)(t_rand(s) % (uint64_t)(k - b + 1));
    const int32_t c = h->ci[q];
    const double v = h->v[q];
    h->ci[q] = h->ci[k];
    h->v[q] = h->v[k];
    h->ci[k] = c;
    h->v[k] = v;
  }
}

/* A CrsMatrix on exec from a host CSR (copied). */
static inline strata_crs_matrix_t *hc_on(strata_exec_t *exec, const host_crs_t *h) {
  void *ro = NULL, *ci = NULL, *v = NULL;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * ((size_t)h->nr + 1), &ro));
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)h->nnz, &ci));
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(double) * (size_t)h->nnz, &v));
  T_OK(strata_mem_copy(exec, ro, h->ro, sizeof(int64_t) * ((size_t)h->nr + 1)));
  T_OK(strata_mem_copy(exec, ci, h->ci, sizeof(int32_t) * (size_t)h->nnz));
  T_OK(strata_mem_copy(exec, v, h->v, sizeof(double) * (size_t)h->nnz));
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(exec, h->nr, h->nc, h->nnz, (const int64_t *)ro, (const int32_t *)ci,
                                  (const double *)v, STRATA_CRS_ADOPT, &A));
  return A;
}

/* Device vectors on exec: a copy of host x [n]; and back. */
static inline double *vec_on(strata_exec_t *exec, const double *x, int64_t n) {
  void *p = NULL;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, &p));
  if (x)
    T_OK(strata_mem_copy(exec, p, x, sizeof(double) * (size_t)n));
  else if (n > 0)
    T_OK(strata_mem_set_async(exec, p, 0xFF, sizeof(double) * (size_t)n)); /* poisoned: NaN */
  return (double *)p;
}
static inline void vec_get(strata_exec_t *exec, double *host, const double *dev, int64_t n) {
  T_OK(strata_mem_copy(exec, host, dev, sizeof(double) * (size_t)n));
}
static inline void vec_free(strata_exec_t *exec, double *p) {
  void *q = p;
  strata_mem_free(exec, STRATA_MEM_DEVICE, &q);
}

/* Host reference: x = T^{-1} b with T's lower (or upper) triangle, other entries ignored, duplicate
 * entries summed, the diagonal 1 when unit. */
static inline void host_tri_solve(const host_crs_t *h, int lower, int unit, const double *b, double *x) {
  for (int32_t q = 0; q < h->nr; ++q) {
    const int32_t i = lower ? q : h->nr - 1 - q;
    double s = 0.0, d = 0.0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) {
      const int32_t j = h->ci[k];
      if (j == i)
        d += h->v[k];
      else if (lower ? j < i : j > i)
        s += h->v[k] * x[j];
    }
    x[i] = unit ? b[i] - s : (b[i] - s) / d;
  }
}

/* max_i |a_i - b_i| / max(1, |b_i|) */
static inline double vec_maxdiff(const double *a, const double *b, int64_t n) {
  double m = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double s = fabs(b[i]) > 1.0 ? fabs(b[i]) : 1.0, d = fabs(a[i] - b[i]) / s;
    if (!(d <= m)) m = d; /* NaN wins */
  }
  return m;
}

#endif
