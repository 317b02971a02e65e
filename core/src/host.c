/* strata — host memory, host scratch and the serial merge sort, shared by the host backends. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* Host memory is the host backends' device memory. A size header before each block keeps the
 * live total, so that an allocation that would take the live total past the physical memory is
 * refused with OUT_OF_MEMORY and the sizes, instead of succeeding lazily (Linux overcommits) and
 * having the process killed when the pages are touched (a review: a 60-byte Matrix Market file
 * declaring 2^31 - 1 rows asked for 48 GB on a 23 GB machine and was killed without a word). */
#define STRATA_HOST_HEADER 64
static size_t host_live; /* bytes held by live blocks (atomic) */

static size_t host_physical(void) {
  static size_t phys; /* 0 until the first call (threads that race store the same value) */
  size_t v = __atomic_load_n(&phys, __ATOMIC_RELAXED);
  if (!v) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    v = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : SIZE_MAX;
    __atomic_store_n(&phys, v, __ATOMIC_RELAXED);
  }
  return v;
}

strata_status_t strata_impl_host_alloc(int device, strata_mem_space_t space, size_t bytes, void **p) {
  (void)device;
  (void)space;
  size_t rounded = (bytes + 63) & ~(size_t)63;
  if (rounded < bytes || rounded + STRATA_HOST_HEADER < rounded)
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY,
                             "host allocation of %zu bytes: rounded to 64 bytes with its %d-byte header it "
                             "exceeds the largest size, %zu bytes",
                             bytes, (int)STRATA_HOST_HEADER, SIZE_MAX);
  const size_t phys = host_physical();
  const size_t live = __atomic_add_fetch(&host_live, rounded, __ATOMIC_RELAXED);
  if (live < rounded || live > phys) {
    __atomic_sub_fetch(&host_live, rounded, __ATOMIC_RELAXED);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY,
                             "host allocation of %zu bytes: with the %zu bytes already allocated it exceeds the "
                             "%zu bytes of physical memory",
                             bytes, live - rounded, phys);
  }
  char *b = (char *)aligned_alloc(64, rounded + STRATA_HOST_HEADER);
  if (!b) {
    __atomic_sub_fetch(&host_live, rounded, __ATOMIC_RELAXED);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "host allocation of %zu bytes failed", bytes);
  }
  memcpy(b, &rounded, sizeof rounded);
  *p = b + STRATA_HOST_HEADER;
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_host_dealloc(int device, strata_mem_space_t space, void *p) {
  (void)device;
  (void)space;
  if (!p) return STRATA_SUCCESS;
  char *b = (char *)p - STRATA_HOST_HEADER;
  size_t rounded;
  memcpy(&rounded, b, sizeof rounded);
  __atomic_sub_fetch(&host_live, rounded, __ATOMIC_RELAXED);
  free(b);
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_host_copy(int device, void *stream, void *dst, const void *src,
                                      size_t bytes, int async) {
  (void)device;
  (void)stream;
  (void)async;
  if (dst != src) memmove(dst, src, bytes);
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_host_set(int device, void *stream, void *dst, int value, size_t bytes) {
  (void)device;
  (void)stream;
  memset(dst, value, bytes);
  return STRATA_SUCCESS;
}

static size_t align16(size_t x) { return (x + 15) & ~(size_t)15; }

strata_status_t strata_impl_host_scratch(const strata_launch_t *L, int threads, char **base,
                                         size_t *stride) {
  strata_exec_t *e = L->exec;
  size_t s = (align16(L->scratch_team) + align16(L->scratch_thread) + 63) & ~(size_t)63;
  if (s == 0) s = 64;
  size_t need = s * (size_t)threads;
  if (need > e->host_scratch_bytes) {
    free(e->host_scratch);
    e->host_scratch = (char *)aligned_alloc(64, need);
    e->host_scratch_bytes = e->host_scratch ? need : 0;
    if (!e->host_scratch)
      return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "team scratch: %zu bytes for %d threads", need, threads);
  }
  *base = e->host_scratch;
  *stride = s;
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_host_partials(const strata_launch_t *L, size_t bytes, void **buf) {
  strata_exec_t *e = L->exec;
  if (bytes > e->host_partials_bytes) {
    free(e->host_partials);
    e->host_partials = malloc(bytes);
    e->host_partials_bytes = e->host_partials ? bytes : 0;
    if (!e->host_partials)
      return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "reduction partials: %zu bytes", bytes);
  }
  *buf = e->host_partials;
  return STRATA_SUCCESS;
}

void strata_impl_merge_pairs(const int64_t *ka, const int64_t *va, int64_t na, const int64_t *kb,
                             const int64_t *vb, int64_t nb, int64_t *ko, int64_t *vo) {
  int64_t i = 0, j = 0, o = 0;
  while (i < na && j < nb) {
    if (kb[j] < ka[i]) {
      ko[o] = kb[j];
      vo[o++] = vb[j++];
    } else {
      ko[o] = ka[i];
      vo[o++] = va[i++];
    }
  }
  while (i < na) {
    ko[o] = ka[i];
    vo[o++] = va[i++];
  }
  while (j < nb) {
    ko[o] = kb[j];
    vo[o++] = vb[j++];
  }
}

strata_status_t strata_impl_host_sort_pairs_serial(strata_exec_t *exec, int64_t n, int key_bits,
                                                   int64_t *keys, int64_t *values) {
  (void)exec;
  int64_t *tk = (int64_t *)malloc((size_t)n * sizeof *tk), *tv = (int64_t *)malloc((size_t)n * sizeof *tv);
  if (!tk || !tv) {
    free(tk);
    free(tv);
    return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "sort: %lld pairs need %lld bytes of buffer",
                             (long long)n, (long long)(16 * n));
  }
  if (key_bits <= 12) { /* few key bits (e.g. row-length classes): one stable counting pass, O(n) */
    const int64_t nb = (int64_t)1 << key_bits;
    int64_t *start = (int64_t *)calloc((size_t)nb + 1, sizeof *start);
    if (!start) {
      free(tk);
      free(tv);
      return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "sort: %lld bucket counters", (long long)nb);
    }
    for (int64_t i = 0; i < n; ++i) ++start[keys[i] + 1];
    for (int64_t b = 0; b < nb; ++b) start[b + 1] += start[b];
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = start[keys[i]]++;
      tk[d] = keys[i];
      tv[d] = values[i];
    }
    memcpy(keys, tk, (size_t)n * sizeof *keys);
    memcpy(values, tv, (size_t)n * sizeof *values);
    free(start);
    free(tk);
    free(tv);
    return STRATA_SUCCESS;
  }
  /* bottom-up merge sort: insertion-sorted runs of 32, then merges, ping-ponging buffers */
  const int64_t run = 32;
  for (int64_t s = 0; s < n; s += run) {
    int64_t e = s + run < n ? s + run : n;
    for (int64_t i = s + 1; i < e; ++i) {
      int64_t k = keys[i], v = values[i], j = i - 1;
      while (j >= s && keys[j] > k) {
        keys[j + 1] = keys[j];
        values[j + 1] = values[j];
        --j;
      }
      keys[j + 1] = k;
      values[j + 1] = v;
    }
  }
  int64_t *sk = keys, *sv = values, *dk = tk, *dv = tv;
  for (int64_t w = run; w < n; w *= 2) {
    for (int64_t s = 0; s < n; s += 2 * w) {
      int64_t m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
      strata_impl_merge_pairs(sk + s, sv + s, m - s, sk + m, sv + m, e - m, dk + s, dv + s);
    }
    int64_t *t = sk; sk = dk; dk = t;
    t = sv; sv = dv; dv = t;
  }
  if (sk != keys) {
    memcpy(keys, sk, (size_t)n * sizeof *keys);
    memcpy(values, sv, (size_t)n * sizeof *values);
  }
  free(tk);
  free(tv);
  return STRATA_SUCCESS;
}
