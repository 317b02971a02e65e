/* strata hmatrix — point sets (strata/hmatrix.h): given, uniform random, regular grids, Matrix
 * Market arrays. Host only. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/hmatrix.h"
#include "strata/mmio.h"

static strata_status_t points_alloc(int32_t dim, int64_t n, strata_points_t **pts) {
  if (!pts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points: NULL output pointer");
  *pts = NULL;
  if (dim != 2 && dim != 3)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points: dim = %d (must be 2 or 3)", (int)dim);
  if (n < 0 || (uint64_t)n > SIZE_MAX / 64)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points: n = %lld (must be in [0, %llu])", (long long)n,
                            (unsigned long long)(SIZE_MAX / 64));
  strata_points_t *p = (strata_points_t *)calloc(1, sizeof *p);
  if (p) p->coords = (double *)malloc((size_t)(n > 0 ? n : 1) * (size_t)dim * sizeof(double));
  if (!p || !p->coords) {
    free(p);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_points: %lld points of dimension %d", (long long)n, (int)dim);
  }
  p->dim = dim;
  p->n = n;
  *pts = p;
  return STRATA_SUCCESS;
}

/* the first point with a NaN or infinite coordinate, named */
static strata_status_t check_finite(const strata_points_t *p, const char *where) {
  for (int64_t i = 0; i < p->n; ++i)
    for (int32_t d = 0; d < p->dim; ++d) {
      const double v = p->coords[i * p->dim + d];
      if (!isfinite(v))
        return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: point %lld has coordinate %d = %g (coordinates must be finite)",
                                where, (long long)i, (int)d, v);
    }
  return STRATA_SUCCESS;
}

strata_status_t strata_points_create(int32_t dim, int64_t n, const double *coords, strata_points_t **pts) {
  if (n > 0 && !coords) {
    if (pts) *pts = NULL;
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points_create: coords is NULL with n = %lld", (long long)n);
  }
  strata_points_t *p;
  strata_status_t st = points_alloc(dim, n, &p);
  if (st) return st;
  if (n > 0) memcpy(p->coords, coords, (size_t)n * (size_t)dim * sizeof(double));
  st = check_finite(p, "strata_points_create");
  if (st) {
    strata_points_destroy(&p);
    return st;
  }
  *pts = p;
  return STRATA_SUCCESS;
}

static uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

strata_status_t strata_points_create_random(int32_t dim, int64_t n, uint64_t seed, strata_points_t **pts) {
  strata_status_t st = points_alloc(dim, n, pts);
  if (st) return st;
  uint64_t s = seed;
  for (int64_t e = 0; e < n * dim; ++e) (*pts)->coords[e] = (double)(splitmix64(&s) >> 11) * 0x1.0p-53;
  return STRATA_SUCCESS;
}

strata_status_t strata_points_create_grid(int32_t dim, int64_t n, strata_points_t **pts) {
  strata_status_t st = points_alloc(dim, n, pts);
  if (st) return st;
  int64_t m = (int64_t)floor(pow((double)n, 1.0 / dim));
  if (m < 1) m = 1;
  for (;;) { /* the least m with m^dim >= n, whatever pow rounded to */
    int64_t c = 1;
    for (int32_t d = 0; d < dim; ++d) c *= m;
    if (c >= n) break;
    ++m;
  }
  while (m > 1) {
    int64_t c = 1;
    for (int32_t d = 0; d < dim; ++d) c *= m - 1;
    if (c < n) break;
    --m;
  }
  const double h = m > 1 ? 1.0 / (double)(m - 1) : 0.0;
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = i;
    for (int32_t d = 0; d < dim; ++d) {
      (*pts)->coords[i * dim + d] = (double)(r % m) * h;
      r /= m;
    }
  }
  return STRATA_SUCCESS;
}

strata_status_t strata_points_read(const char *path, strata_points_t **pts) {
  if (!path || !pts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points_read: NULL argument");
  *pts = NULL;
  strata_coo_t *coo = NULL;
  strata_status_t st = strata_mm_read_coo(path, &coo);
  if (st) return st;
  if (coo->header.format != STRATA_MM_ARRAY) {
    st = strata_error_set(STRATA_ERR_INVALID_DATA, "%s: a coordinate file; points must be an n x d Matrix Market array", path);
  } else if (coo->num_cols != 2 && coo->num_cols != 3) {
    st = strata_error_set(STRATA_ERR_INVALID_DATA, "%s is %d x %d: points must be n x d with d = 2 or 3 (columns %d)", path,
                          (int)coo->num_rows, (int)coo->num_cols, (int)coo->num_cols);
  } else {
    strata_points_t *p = NULL;
    st = points_alloc(coo->num_cols, coo->num_rows, &p);
    if (!st) {
      for (int64_t e = 0; e < coo->nnz; ++e) p->coords[(int64_t)coo->rows[e] * p->dim + coo->cols[e]] = coo->values[e];
      st = check_finite(p, path);
      if (st) strata_points_destroy(&p);
      *pts = p;
    }
  }
  strata_coo_destroy(&coo);
  return st;
}

strata_status_t strata_points_write(const char *path, const strata_points_t *pts) {
  if (!path || !pts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_points_write: NULL argument");
  FILE *f = fopen(path, "w");
  if (!f) return strata_error_set(STRATA_ERR_IO, "%s: cannot open for writing: %s", path, strerror(errno));
  fprintf(f, "%%%%MatrixMarket matrix array real general\n%lld %d\n", (long long)pts->n, (int)pts->dim);
  for (int32_t d = 0; d < pts->dim; ++d)
    for (int64_t i = 0; i < pts->n; ++i) fprintf(f, "%.17g\n", pts->coords[i * pts->dim + d]);
  const int bad = ferror(f);
  if (fclose(f) != 0 || bad) return strata_error_set(STRATA_ERR_IO, "%s: write failed: %s", path, strerror(errno ? errno : EIO));
  return STRATA_SUCCESS;
}

strata_status_t strata_points_destroy(strata_points_t **pts) {
  if (pts && *pts) {
    free((*pts)->coords);
    free(*pts);
    *pts = NULL;
  }
  return STRATA_SUCCESS;
}
