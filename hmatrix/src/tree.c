/* strata hmatrix — the KD-tree and the block tree of an H² matrix (strata_h2_tree_create), on the
 * host. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata/hmatrix.h"

typedef struct key_idx {
  double key;
  int64_t idx;
} key_idx_t;

/* (key, index) order: a total order, as indices are distinct */
static int less_key_idx(const key_idx_t *a, const key_idx_t *b) {
  return a->key < b->key || (a->key == b->key && a->idx < b->idx);
}

static void swap_key_idx(key_idx_t *a, key_idx_t *b) {
  const key_idx_t t = *a;
  *a = *b;
  *b = t;
}

/* Rearranges v[0, n) so that v[0, m) holds its m smallest elements (std::nth_element: Hoare
 * partitions around a median of three, O(n) expected); deterministic. */
static void select_smallest(key_idx_t *v, int64_t n, int64_t m) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo && m > lo && m <= hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (less_key_idx(&v[mid], &v[lo])) swap_key_idx(&v[mid], &v[lo]);
    if (less_key_idx(&v[hi], &v[lo])) swap_key_idx(&v[hi], &v[lo]);
    if (less_key_idx(&v[hi], &v[mid])) swap_key_idx(&v[hi], &v[mid]);
    const key_idx_t pivot = v[mid];
    int64_t i = lo - 1, j = hi + 1;
    for (;;) {
      do ++i; while (less_key_idx(&v[i], &pivot));
      do --j; while (less_key_idx(&pivot, &v[j]));
      if (i >= j) break;
      swap_key_idx(&v[i], &v[j]);
    }
    /* v[lo, j] <= pivot <= v[j + 1, hi] */
    if (m <= j) hi = j;
    else lo = j + 1;
  }
}

typedef struct pair {
  int64_t t, s;
} pair_t;

static int cmp_pair(const void *pa, const void *pb) {
  const pair_t *a = (const pair_t *)pa, *b = (const pair_t *)pb;
  if (a->t != b->t) return a->t < b->t ? -1 : 1;
  return a->s < b->s ? -1 : a->s > b->s;
}

typedef struct pairs {
  pair_t *p;
  int64_t n, cap;
  int oom;
} pairs_t;

static void pairs_push(pairs_t *v, int64_t t, int64_t s) {
  if (v->n == v->cap) {
    const int64_t cap = v->cap ? 2 * v->cap : 256;
    pair_t *q = (pair_t *)realloc(v->p, (size_t)cap * sizeof *q);
    if (!q) {
      v->oom = 1;
      return;
    }
    v->p = q;
    v->cap = cap;
  }
  v->p[v->n].t = t;
  v->p[v->n].s = s;
  ++v->n;
}

typedef struct build {
  strata_h2_tree_t *T;
  const strata_points_t *pts;
  key_idx_t *tmp;
  double root_h;
  pairs_t coupling, dense;
} build_t;

/* node g holds tree positions [b, e) of T->index_map: its box, then (above the leaves) the split */
static void split_node(build_t *B, int64_t g, int level, int64_t b, int64_t e) {
  strata_h2_tree_t *T = B->T;
  const int32_t dim = T->dim;
  T->node_begin[g] = b;
  T->node_end[g] = e;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  if (e > b) {
    for (int32_t d = 0; d < dim; ++d) lo[d] = hi[d] = B->pts->coords[T->index_map[b] * dim + d];
    for (int64_t q = b + 1; q < e; ++q)
      for (int32_t d = 0; d < dim; ++d) {
        const double v = B->pts->coords[T->index_map[q] * dim + d];
        if (v < lo[d]) lo[d] = v;
        if (v > hi[d]) hi[d] = v;
      }
  }
  int32_t axis = 0;
  double hmax = 0.0;
  for (int32_t d = 0; d < dim; ++d)
    if (0.5 * hi[d] - 0.5 * lo[d] > hmax) { /* halves first: no overflow near DBL_MAX (Q8) */
      hmax = 0.5 * hi[d] - 0.5 * lo[d];
      axis = d;
    }
  if (g == 0) B->root_h = hmax > 0.0 ? hmax : 1.0;
  for (int32_t d = 0; d < 3; ++d) {
    T->center[3 * g + d] = d < dim ? 0.5 * lo[d] + 0.5 * hi[d] : 0.0;
    double h = 0.0;
    if (d < dim && e > b) { /* positive widths for collinear, coplanar, identical points (Q2) */
      h = 0.5 * hi[d] - 0.5 * lo[d];
      if (h < 1e-2 * hmax) h = 1e-2 * hmax;
      if (h < 1e-8 * B->root_h) h = 1e-8 * B->root_h;
    }
    T->half[3 * g + d] = h;
  }
  if (level == T->depth) return;
  const int64_t mid = b + (e - b) / 2;
  if (e - b > 1) { /* the ⌊m/2⌋ smallest along the longest edge first; ties by the user's index */
    for (int64_t q = b; q < e; ++q) {
      B->tmp[q - b].key = B->pts->coords[T->index_map[q] * dim + axis];
      B->tmp[q - b].idx = T->index_map[q];
    }
    select_smallest(B->tmp, e - b, mid - b);
    for (int64_t q = b; q < e; ++q) T->index_map[q] = B->tmp[q - b].idx;
  }
  split_node(B, 2 * g + 1, level + 1, b, mid);
  split_node(B, 2 * g + 2, level + 1, mid, e);
}

/* The Euclidean length of v[3], scaled by its largest component before squaring: no overflow or
 * underflow of the squares for coordinates near DBL_MAX or DBL_MIN (EDGE_CASES Q8) */
static double length3(const double *v) {
  double m = 0.0, s = 0.0;
  for (int d = 0; d < 3; ++d)
    if (fabs(v[d]) > m) m = fabs(v[d]);
  if (!(m > 0.0) || !isfinite(m)) return m;
  for (int d = 0; d < 3; ++d) s += (v[d] / m) * (v[d] / m);
  return m * sqrt(s);
}

static int admissible(const strata_h2_tree_t *T, int64_t t, int64_t s) {
  double c[3];
  for (int d = 0; d < 3; ++d) c[d] = 0.5 * T->center[3 * t + d] - 0.5 * T->center[3 * s + d];
  const double dist = 2.0 * length3(c); /* halves first: no overflow of the difference */
  return dist > 0.0 && length3(T->half + 3 * t) + length3(T->half + 3 * s) <= T->eta * dist;
}

static void traverse(build_t *B, int64_t t, int64_t s, int level) {
  const strata_h2_tree_t *T = B->T;
  if (T->node_end[t] == T->node_begin[t] || T->node_end[s] == T->node_begin[s]) return;
  if (admissible(T, t, s)) {
    pairs_push(&B->coupling, t, s);
  } else if (level == T->depth) {
    pairs_push(&B->dense, t, s);
  } else {
    for (int64_t ct = 2 * t + 1; ct <= 2 * t + 2; ++ct)
      for (int64_t cs = 2 * s + 1; cs <= 2 * s + 2; ++cs) traverse(B, ct, cs, level + 1);
  }
}

/* CSR over rows [0, rows) (row of a pair: its t minus first) of pairs sorted by (t, s) */
static int64_t *csr_rows(const pairs_t *v, int64_t rows, int64_t first) {
  int64_t *ptr = (int64_t *)calloc((size_t)rows + 1, sizeof *ptr);
  if (!ptr) return NULL;
  for (int64_t q = 0; q < v->n; ++q) ++ptr[v->p[q].t - first + 1];
  for (int64_t r = 0; r < rows; ++r) ptr[r + 1] += ptr[r];
  return ptr;
}

strata_status_t strata_h2_tree_create(const strata_points_t *pts, int32_t leaf, double eta, strata_h2_tree_t **tree) {
  if (!tree) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_tree_create: NULL tree");
  *tree = NULL;
  if (!pts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_tree_create: NULL points");
  if (leaf < 1) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_tree_create: leaf = %d (must be >= 1)", (int)leaf);
  if (!(eta > 0.0) || !isfinite(eta))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_tree_create: eta = %g (must be finite and > 0)", eta);
  strata_h2_tree_t *T = (strata_h2_tree_t *)calloc(1, sizeof *T);
  if (!T) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_tree_create: the tree");
  T->dim = pts->dim;
  T->n = pts->n;
  T->leaf = leaf;
  T->eta = eta;
  while (T->depth < 60 && (T->n + ((int64_t)1 << T->depth) - 1) >> T->depth > leaf) ++T->depth;
  T->num_nodes = ((int64_t)2 << T->depth) - 1;
  T->num_leaves = (int64_t)1 << T->depth;
  const size_t nn = (size_t)T->num_nodes, n1 = (size_t)(T->n > 0 ? T->n : 1);
  T->index_map = (int64_t *)malloc(n1 * sizeof(int64_t));
  T->node_begin = (int64_t *)malloc(nn * sizeof(int64_t));
  T->node_end = (int64_t *)malloc(nn * sizeof(int64_t));
  T->center = (double *)malloc(3 * nn * sizeof(double));
  T->half = (double *)malloc(3 * nn * sizeof(double));
  build_t B;
  memset(&B, 0, sizeof B);
  B.T = T;
  B.pts = pts;
  B.tmp = (key_idx_t *)malloc(n1 * sizeof(key_idx_t));
  strata_status_t st = STRATA_SUCCESS;
  if (!T->index_map || !T->node_begin || !T->node_end || !T->center || !T->half || !B.tmp) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_tree_create: a tree of %lld nodes over %lld points",
                          (long long)T->num_nodes, (long long)T->n);
    goto done;
  }
  for (int64_t i = 0; i < T->n; ++i) T->index_map[i] = i;
  split_node(&B, 0, 0, 0, T->n);
  traverse(&B, 0, 0, 0);
  if (B.coupling.oom || B.dense.oom) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_tree_create: the block lists");
    goto done;
  }
  if (B.coupling.n > 0) qsort(B.coupling.p, (size_t)B.coupling.n, sizeof(pair_t), cmp_pair); /* p NULL when empty */
  if (B.dense.n > 0) qsort(B.dense.p, (size_t)B.dense.n, sizeof(pair_t), cmp_pair);
  T->num_coupling = B.coupling.n;
  T->num_dense = B.dense.n;
  T->coupling_row_ptr = csr_rows(&B.coupling, T->num_nodes, 0);
  T->dense_row_ptr = csr_rows(&B.dense, T->num_leaves, T->num_leaves - 1);
  T->coupling_cols = (int64_t *)malloc((size_t)(T->num_coupling + 1) * sizeof(int64_t));
  T->dense_cols = (int64_t *)malloc((size_t)(T->num_dense + 1) * sizeof(int64_t));
  T->dense_offsets = (int64_t *)malloc((size_t)(T->num_dense + 1) * sizeof(int64_t));
  if (!T->coupling_row_ptr || !T->dense_row_ptr || !T->coupling_cols || !T->dense_cols || !T->dense_offsets) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_tree_create: the block tree");
    goto done;
  }
  for (int64_t q = 0; q < T->num_coupling; ++q) T->coupling_cols[q] = B.coupling.p[q].s;
  T->dense_offsets[0] = 0;
  for (int64_t q = 0; q < T->num_dense; ++q) {
    const int64_t t = B.dense.p[q].t, s = B.dense.p[q].s;
    T->dense_cols[q] = s;
    T->dense_offsets[q + 1] =
        T->dense_offsets[q] + (T->node_end[t] - T->node_begin[t]) * (T->node_end[s] - T->node_begin[s]);
  }
done:
  free(B.tmp);
  free(B.coupling.p);
  free(B.dense.p);
  if (st) strata_h2_tree_destroy(&T);
  *tree = T;
  return st;
}

strata_status_t strata_h2_tree_destroy(strata_h2_tree_t **tree) {
  if (tree && *tree) {
    strata_h2_tree_t *T = *tree;
    free(T->index_map);
    free(T->node_begin);
    free(T->node_end);
    free(T->center);
    free(T->half);
    free(T->coupling_row_ptr);
    free(T->coupling_cols);
    free(T->dense_row_ptr);
    free(T->dense_cols);
    free(T->dense_offsets);
    free(T);
    *tree = NULL;
  }
  return STRATA_SUCCESS;
}
