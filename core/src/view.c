/* strata — views (strata/view.h): allocation and reference counting, accessors, mirrors, deep copy
 * (2-D strided copies), subviews. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* An allocation, shared by a view and its subviews; freed when the last of them goes. */
typedef struct view_alloc {
  atomic_llong refs;        /* views that see this allocation */
  strata_exec_t *exec;      /* the default execution space of the backend (library-owned) */
  strata_mem_space_t space;
  void *ptr;
} view_alloc_t;

struct strata_view {
  atomic_llong refs; /* references to this view object */
  view_alloc_t *alloc;
  char *data;        /* element (0, 0, 0); NULL without elements */
  int rank;
  strata_type_t type;
  strata_layout_t layout;
  int64_t ext[STRATA_VIEW_MAX_RANK]; /* 1 beyond the rank */
  int64_t str[STRATA_VIEW_MAX_RANK]; /* elements; 0 beyond the rank */
  char *label;
};

static const char *layout_name(strata_layout_t l) {
  return l == STRATA_LAYOUT_LEFT ? "left" : l == STRATA_LAYOUT_RIGHT ? "right" : "?";
}

/* "'label' f64 [3, 4] left" for messages */
static const char *describe(const strata_view_t *v, char *buf, size_t n) {
  int o = snprintf(buf, n, "'%s' %s [", v->label, strata_type_name(v->type));
  for (int d = 0; d < v->rank && o > 0 && (size_t)o < n; ++d)
    o += snprintf(buf + o, n - (size_t)o, d ? ", %lld" : "%lld", (long long)v->ext[d]);
  if (o > 0 && (size_t)o < n) snprintf(buf + o, n - (size_t)o, "] %s", layout_name(v->layout));
  return buf;
}

static int64_t view_size(const strata_view_t *v) { return v->ext[0] * v->ext[1] * v->ext[2]; }

static int space_is_host(const strata_exec_t *exec, strata_mem_space_t space) {
  return space != STRATA_MEM_DEVICE || strata_exec_is_host(exec);
}

static int view_host_accessible(const strata_view_t *v) {
  return space_is_host(v->alloc->exec, v->alloc->space);
}

static char *copy_label(const char *label, const char *suffix) {
  size_t a = strlen(label), b = strlen(suffix);
  char *s = (char *)malloc(a + b + 1);
  if (s) {
    memcpy(s, label, a);
    memcpy(s + a, suffix, b + 1);
  }
  return s;
}

/* ============================================================ create / retain / release */

static strata_status_t view_create(strata_exec_t *exec, strata_mem_space_t space, const char *label,
                                   const char *suffix, strata_type_t type, strata_layout_t layout,
                                   int rank, const int64_t *extents, int zero, strata_view_t **view) {
  if (!view) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create: NULL output");
  *view = NULL;
  if (!label) label = "";
  if (!exec || !extents)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create '%s': NULL %s", label,
                             exec ? "extents" : "exec");
  if (rank < 1 || rank > STRATA_VIEW_MAX_RANK)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create '%s': rank %d is outside 1..%d",
                             label, rank, STRATA_VIEW_MAX_RANK);
  /* only the view element types (the loc types of MINLOC / MAXLOC have a size, but are not) */
  const size_t es = strata_type_is_loc(type) ? 0 : strata_type_size(type);
  if (es == 0)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "view_create '%s': type %d is not a view element type (I32, I64, F32, F64, U8)",
                             label, (int)type);
  if (layout == STRATA_LAYOUT_DEFAULT) layout = strata_exec_is_host(exec) ? STRATA_LAYOUT_RIGHT : STRATA_LAYOUT_LEFT;
  if (layout != STRATA_LAYOUT_LEFT && layout != STRATA_LAYOUT_RIGHT)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "view_create '%s': layout %d is not LEFT (0), RIGHT (1) or DEFAULT (-1)",
                             label, (int)layout);
  if ((int)space < STRATA_MEM_HOST || (int)space > STRATA_MEM_DEVICE)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "view_create '%s': memory space %d is not HOST (0), HOST_PINNED (1) or DEVICE (2)",
                             label, (int)space);
  /* the bytes of the nonzero extents must fit in int64 (strides of an empty view stay defined) */
  uint64_t bytes = es, size = 1;
  for (int d = 0; d < rank; ++d) {
    if (extents[d] < 0)
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "view_create '%s': extent %lld of dimension %d is negative", label,
                               (long long)extents[d], d);
    size *= (uint64_t)extents[d];
    if (extents[d] > 0 && bytes > (uint64_t)INT64_MAX / (uint64_t)extents[d]) {
      char ext[96];
      int o = 0;
      for (int k = 0; k < rank; ++k)
        o += snprintf(ext + o, sizeof ext - (size_t)o, k ? ", %lld" : "%lld", (long long)extents[k]);
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "view_create '%s': extents [%s] of %zu-byte elements overflow: more than "
                               "the limit %lld bytes",
                               label, ext, es, (long long)INT64_MAX);
    }
    if (extents[d] > 0) bytes *= (uint64_t)extents[d];
  }
  if (size == 0) bytes = 0;
  if (bytes > (uint64_t)SIZE_MAX)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create '%s': %llu bytes exceed the limit %zu",
                             label, (unsigned long long)bytes, (size_t)SIZE_MAX);

  strata_exec_t *def = NULL;
  strata_status_t st = strata_exec_default(strata_exec_backend(exec), &def);
  if (st != STRATA_SUCCESS) return st;
  view_alloc_t *a = (view_alloc_t *)calloc(1, sizeof *a);
  strata_view_t *v = (strata_view_t *)calloc(1, sizeof *v);
  char *lbl = copy_label(label, suffix);
  if (!a || !v || !lbl) {
    free(a);
    free(v);
    free(lbl);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "view_create '%s': out of host memory", label);
  }
  st = strata_mem_alloc(def, space, (size_t)bytes, &a->ptr);
  if (st == STRATA_SUCCESS && zero && bytes > 0) {
    if (space_is_host(def, space)) {
      memset(a->ptr, 0, (size_t)bytes);
    } else {
      st = strata_mem_set_async(def, a->ptr, 0, (size_t)bytes);
      if (st == STRATA_SUCCESS) st = strata_exec_fence(def);
    }
  }
  if (st != STRATA_SUCCESS) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", strata_error_message());
    strata_mem_free(def, space, &a->ptr);
    free(a);
    free(v);
    free(lbl);
    return strata_impl_error(st, "view_create '%s' (%llu bytes): %s", label, (unsigned long long)bytes, msg);
  }
  atomic_init(&a->refs, 1);
  a->exec = def;
  a->space = space;
  atomic_init(&v->refs, 1);
  v->alloc = a;
  v->data = size ? (char *)a->ptr : NULL;
  v->rank = rank;
  v->type = type;
  v->layout = layout;
  v->label = lbl;
  for (int d = 0; d < STRATA_VIEW_MAX_RANK; ++d) {
    v->ext[d] = d < rank ? extents[d] : 1;
    v->str[d] = 0;
  }
  /* left: stride(0) = 1, stride(d) = stride(d-1) * e(d-1); right: mirrored. A zero extent makes
   * the strides after it 0, as Kokkos's (its LayoutRight stride(0) is e1 * e2 * ...); the ones
   * before it are products of nonzero extents, bounded by the overflow check above */
  int64_t s = 1;
  for (int k = 0; k < rank; ++k) {
    const int d = layout == STRATA_LAYOUT_LEFT ? k : rank - 1 - k;
    v->str[d] = s;
    s *= v->ext[d];
  }
  *view = v;
  return STRATA_SUCCESS;
}

strata_status_t strata_view_create(strata_exec_t *exec, strata_mem_space_t space, const char *label,
                                   strata_type_t type, strata_layout_t layout, int rank,
                                   const int64_t *extents, strata_view_t **view) {
  return view_create(exec, space, label, "", type, layout, rank, extents, 1, view);
}

strata_status_t strata_view_retain(strata_view_t *view) {
  if (!view) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_retain: NULL view");
  atomic_fetch_add(&view->refs, 1);
  return STRATA_SUCCESS;
}

strata_status_t strata_view_release(strata_view_t **view) {
  if (!view || !*view) return STRATA_SUCCESS;
  strata_view_t *v = *view;
  *view = NULL;
  if (atomic_fetch_sub(&v->refs, 1) != 1) return STRATA_SUCCESS;
  strata_status_t st = STRATA_SUCCESS;
  view_alloc_t *a = v->alloc;
  if (atomic_fetch_sub(&a->refs, 1) == 1) {
    st = strata_mem_free(a->exec, a->space, &a->ptr);
    free(a);
  }
  free(v->label);
  free(v);
  return st;
}

/* ============================================================ accessors */

void *strata_view_data(const strata_view_t *view) { return view ? view->data : NULL; }
int64_t strata_view_extent(const strata_view_t *view, int dim) {
  return view && dim >= 0 && dim < STRATA_VIEW_MAX_RANK ? view->ext[dim] : 0;
}
int64_t strata_view_stride(const strata_view_t *view, int dim) {
  return view && dim >= 0 && dim < view->rank ? view->str[dim] : 0;
}
int strata_view_rank(const strata_view_t *view) { return view ? view->rank : 0; }
strata_type_t strata_view_type(const strata_view_t *view) { return view ? view->type : STRATA_TYPE_NONE; }
strata_layout_t strata_view_layout(const strata_view_t *view) {
  return view ? view->layout : STRATA_LAYOUT_DEFAULT;
}
const char *strata_view_label(const strata_view_t *view) { return view ? view->label : ""; }
int64_t strata_view_size(const strata_view_t *view) { return view ? view_size(view) : 0; }

static int64_t span_elements(const strata_view_t *v) {
  if (view_size(v) == 0) return 0;
  int64_t s = 1;
  for (int d = 0; d < v->rank; ++d) s += (v->ext[d] - 1) * v->str[d];
  return s;
}
size_t strata_view_span_bytes(const strata_view_t *view) {
  return view ? (size_t)span_elements(view) * strata_type_size(view->type) : 0;
}
int strata_view_is_contiguous(const strata_view_t *view) {
  return !view || span_elements(view) == view_size(view); /* NULL: no elements, as an empty view */
}
strata_mem_space_t strata_view_space(const strata_view_t *view) {
  return view ? view->alloc->space : STRATA_MEM_HOST;
}
strata_exec_t *strata_view_exec(const strata_view_t *view) { return view ? view->alloc->exec : NULL; }
int strata_view_is_host_accessible(const strata_view_t *view) { return view && view_host_accessible(view); }
int64_t strata_view_use_count(const strata_view_t *view) { return view ? (int64_t)atomic_load(&view->refs) : 0; }

/* ============================================================ subview */

strata_status_t strata_view_subview(strata_view_t *view, const strata_range_t *ranges, strata_view_t **sub) {
  if (!sub) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_subview: NULL output");
  *sub = NULL;
  if (!view || !ranges)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_subview: NULL %s", view ? "ranges" : "view");
  int64_t offset = 0;
  for (int d = 0; d < view->rank; ++d) {
    const strata_range_t r = ranges[d];
    if (r.end < r.begin)
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "view_subview of '%s': range [%lld, %lld) of dimension %d is inverted (end < begin)",
                               view->label, (long long)r.begin, (long long)r.end, d);
    if (r.begin < 0 || r.end > view->ext[d])
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "view_subview of '%s': range [%lld, %lld) of dimension %d is outside the "
                               "extent [0, %lld)",
                               view->label, (long long)r.begin, (long long)r.end, d, (long long)view->ext[d]);
    offset += r.begin * view->str[d];
  }
  strata_view_t *v = (strata_view_t *)calloc(1, sizeof *v);
  char *lbl = copy_label(view->label, "");
  if (!v || !lbl) {
    free(v);
    free(lbl);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "view_subview of '%s': out of host memory", view->label);
  }
  *v = *view; /* rank, type, layout, strides, allocation */
  atomic_init(&v->refs, 1);
  v->label = lbl;
  for (int d = 0; d < view->rank; ++d) v->ext[d] = ranges[d].end - ranges[d].begin;
  v->data = view_size(v) ? view->data + (size_t)offset * strata_type_size(view->type) : NULL;
  atomic_fetch_add(&v->alloc->refs, 1);
  *sub = v;
  return STRATA_SUCCESS;
}

/* ============================================================ deep copy */

static strata_status_t check_pair(const char *what, const strata_view_t *dst, const strata_view_t *src) {
  if (!dst || !src)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s view", what, dst ? "source" : "destination");
  int same = dst->type == src->type && dst->rank == src->rank;
  for (int d = 0; same && d < dst->rank; ++d) same = dst->ext[d] == src->ext[d];
  if (!same) {
    char a[256], b[256];
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "%s: destination %s and source %s differ in %s (they must match exactly)", what,
                             describe(dst, a, sizeof a), describe(src, b, sizeof b),
                             dst->type != src->type ? "type" : "shape");
  }
  return STRATA_SUCCESS;
}

/* Copies src into dst (same type and extents) as 2-D strided copies: dimensions in dst's memory
 * order, extent-1 dimensions dropped, neighbours that are contiguous in both views merged; the
 * innermost dimension, when it has unit stride in both, becomes the row (else a row is one
 * element), the next one the rows of a 2-D copy, the remaining ones (at most two) loops.
 * b NULL: host memmove. */
static strata_status_t copy_views(const strata_impl_backend_t *b, strata_exec_t *exec, strata_view_t *dst,
                                  const strata_view_t *src) {
  const size_t es = strata_type_size(dst->type);
  if (view_size(dst) == 0) return STRATA_SUCCESS;
  if (dst->data == src->data && memcmp(dst->str, src->str, sizeof dst->str) == 0) return STRATA_SUCCESS;
  struct {
    int64_t e, ds, ss;
  } dim[STRATA_VIEW_MAX_RANK];
  int nd = 0;
  for (int k = 0; k < dst->rank; ++k) {
    const int d = dst->layout == STRATA_LAYOUT_LEFT ? k : dst->rank - 1 - k;
    if (dst->ext[d] == 1) continue;
    if (nd > 0 && dst->str[d] == dim[nd - 1].ds * dim[nd - 1].e && src->str[d] == dim[nd - 1].ss * dim[nd - 1].e) {
      dim[nd - 1].e *= dst->ext[d]; /* contiguous continuation in both: merge */
      continue;
    }
    dim[nd].e = dst->ext[d];
    dim[nd].ds = dst->str[d];
    dim[nd].ss = src->str[d];
    ++nd;
  }
  size_t width = es;
  int f = 0;
  if (nd > 0 && dim[0].ds == 1 && dim[0].ss == 1) {
    width = (size_t)dim[0].e * es;
    f = 1;
  }
  const size_t height = f < nd ? (size_t)dim[f].e : 1;
  const size_t dpitch = f < nd ? (size_t)dim[f].ds * es : width, spitch = f < nd ? (size_t)dim[f].ss * es : width;
  const int64_t n1 = f + 1 < nd ? dim[f + 1].e : 1, n2 = f + 2 < nd ? dim[f + 2].e : 1;
  const int64_t d1 = f + 1 < nd ? dim[f + 1].ds : 0, s1 = f + 1 < nd ? dim[f + 1].ss : 0;
  const int64_t d2 = f + 2 < nd ? dim[f + 2].ds : 0, s2 = f + 2 < nd ? dim[f + 2].ss : 0;
  for (int64_t i2 = 0; i2 < n2; ++i2)
    for (int64_t i1 = 0; i1 < n1; ++i1) {
      char *dp = dst->data + (size_t)(i1 * d1 + i2 * d2) * es;
      const char *sp = src->data + (size_t)(i1 * s1 + i2 * s2) * es;
      if (b) {
        strata_status_t st = b->copy_2d(exec->device, exec->stream, dp, dpitch, sp, spitch, width, height, 1);
        if (st != STRATA_SUCCESS) return st;
      } else {
        for (size_t r = 0; r < height; ++r) memmove(dp + r * dpitch, sp + r * spitch, width);
      }
    }
  return STRATA_SUCCESS;
}

/* 1 if dst and src lie in one allocation with intersecting spans (and are not the same elements):
 * then a copy in place may overwrite source elements before it reads them (host memmove row by
 * row), or is undefined (cudaMemcpy2DAsync / hipMemcpy2DAsync with overlapping ranges) */
static int views_overlap(const strata_view_t *dst, const strata_view_t *src) {
  if (dst->alloc != src->alloc || view_size(dst) == 0) return 0;
  if (dst->data == src->data && memcmp(dst->str, src->str, sizeof dst->str) == 0) return 0;
  const size_t es = strata_type_size(dst->type);
  const char *d0 = dst->data, *d1 = d0 + (size_t)span_elements(dst) * es;
  const char *s0 = src->data, *s1 = s0 + (size_t)span_elements(src) * es;
  return d0 < s1 && s0 < d1;
}

/* Copies overlapping views as if through a temporary (Kokkos deep_copy gives the source's values
 * too): src into a compact buffer in the allocation's memory, then the buffer into dst. The buffer
 * is stream-ordered on exec (freed after the copies on GPUs), host memory when exec is NULL. */
static strata_status_t copy_views_staged(const strata_impl_backend_t *b, strata_exec_t *exec, strata_view_t *dst,
                                         const strata_view_t *src) {
  const size_t bytes = (size_t)view_size(src) * strata_type_size(src->type);
  strata_view_t tmp = *src; /* src's shape and type, compact strides in dst's layout */
  tmp.layout = dst->layout;
  int64_t s = 1;
  for (int k = 0; k < tmp.rank; ++k) {
    const int d = tmp.layout == STRATA_LAYOUT_LEFT ? k : tmp.rank - 1 - k;
    tmp.str[d] = s;
    s *= tmp.ext[d];
  }
  void *buf = NULL;
  strata_status_t st = exec ? strata_mem_alloc_async(exec, bytes, &buf) : strata_impl_host_alloc(0, STRATA_MEM_HOST, bytes, &buf);
  if (st != STRATA_SUCCESS) return st;
  tmp.data = (char *)buf;
  st = copy_views(b, exec, &tmp, src);
  if (st == STRATA_SUCCESS) st = copy_views(b, exec, dst, &tmp);
  strata_status_t fs = exec ? strata_mem_free_async(exec, &buf) : strata_impl_host_dealloc(0, STRATA_MEM_HOST, buf);
  return st != STRATA_SUCCESS ? st : fs;
}

/* the backend whose 2-D copy serves exec (NULL: host memmove) */
static const strata_impl_backend_t *copier(strata_exec_t *exec) {
  const strata_impl_backend_t *b = strata_impl_backend(strata_exec_backend(exec));
  return b->copy_2d ? b : NULL;
}

strata_status_t strata_view_deep_copy(strata_view_t *dst, const strata_view_t *src) {
  strata_status_t st = check_pair("deep_copy", dst, src);
  if (st != STRATA_SUCCESS || view_size(dst) == 0) return st;
  st = strata_fence_all(); /* Kokkos: deep_copy(dst, src) fences before */
  if (st != STRATA_SUCCESS) return st;
  strata_exec_t *e = !view_host_accessible(dst) ? dst->alloc->exec
                     : !view_host_accessible(src) ? src->alloc->exec
                                                  : NULL;
  const int staged = views_overlap(dst, src);
  if (!e) return staged ? copy_views_staged(NULL, NULL, dst, src) : copy_views(NULL, NULL, dst, src);
  st = staged ? copy_views_staged(copier(e), e, dst, src) : copy_views(copier(e), e, dst, src);
  strata_status_t fs = strata_exec_fence(e);
  return st != STRATA_SUCCESS ? st : fs;
}

strata_status_t strata_view_deep_copy_async(strata_exec_t *exec, strata_view_t *dst, const strata_view_t *src) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "deep_copy_async: NULL exec");
  strata_status_t st = check_pair("deep_copy_async", dst, src);
  if (st != STRATA_SUCCESS) return st;
  const strata_view_t *vs[2] = {dst, src};
  for (int i = 0; i < 2; ++i) {
    const strata_exec_t *ve = vs[i]->alloc->exec;
    if (!view_host_accessible(vs[i]) && (ve->backend != exec->backend || ve->device != exec->device))
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "deep_copy_async on backend '%s' (device %d): %s view '%s' is in device memory "
                               "of backend '%s' device %d, which this execution space cannot reach",
                               strata_backend_name(exec->backend), exec->device, i ? "source" : "destination",
                               vs[i]->label, strata_backend_name(ve->backend), ve->device);
  }
  if (views_overlap(dst, src)) return copy_views_staged(copier(exec), exec, dst, src);
  return copy_views(copier(exec), exec, dst, src);
}

/* ============================================================ mirrors */

static strata_status_t mirror_new(strata_exec_t *exec, strata_mem_space_t space, const strata_view_t *src,
                                  int copy, strata_view_t **mirror) {
  strata_status_t st = view_create(exec, space, src->label, "_mirror", src->type, src->layout, src->rank, src->ext,
                                   !copy, mirror);
  if (st == STRATA_SUCCESS && copy) {
    st = strata_view_deep_copy(*mirror, src);
    if (st != STRATA_SUCCESS) strata_view_release(mirror);
  }
  return st;
}

strata_status_t strata_view_create_mirror(strata_exec_t *exec, strata_mem_space_t space, const strata_view_t *src,
                                          int copy, strata_view_t **mirror) {
  if (!mirror) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create_mirror: NULL output");
  *mirror = NULL;
  if (!src) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create_mirror: NULL source view");
  return mirror_new(exec ? exec : src->alloc->exec, space, src, copy, mirror);
}

strata_status_t strata_view_create_mirror_view(strata_exec_t *exec, strata_mem_space_t space, strata_view_t *src,
                                               int copy, strata_view_t **mirror) {
  if (!mirror) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create_mirror_view: NULL output");
  *mirror = NULL;
  if (!src) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "view_create_mirror_view: NULL source view");
  if (!exec) exec = src->alloc->exec;
  if ((int)space < STRATA_MEM_HOST || (int)space > STRATA_MEM_DEVICE)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "view_create_mirror_view of '%s': memory space %d is not HOST (0), HOST_PINNED (1) "
                             "or DEVICE (2)",
                             src->label, (int)space);
  const int want_host = space_is_host(exec, space), src_host = view_host_accessible(src);
  const strata_exec_t *se = src->alloc->exec;
  if ((want_host && src_host) ||
      (!want_host && !src_host && se->backend == exec->backend && se->device == exec->device)) {
    strata_view_retain(src);
    *mirror = src;
    return STRATA_SUCCESS;
  }
  return mirror_new(exec, space, src, copy, mirror);
}
