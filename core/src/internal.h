/* strata — private runtime declarations shared by core/src and backends/ (never installed). */
#ifndef STRATA_INTERNAL_H
#define STRATA_INTERNAL_H

#include <stdarg.h>

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Sets this thread's error message (printf format) and returns status. */
strata_status_t strata_impl_error(strata_status_t status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** A count of the messages set on this thread (by strata_impl_error or strata_error_set): a call
 *  that sees it unchanged across a failing callee knows the callee set no message of its own. */
unsigned strata_impl_error_serial(void);

/** A backend's runtime operations (libCEED-style: one table per backend, listed in registry.c). */
typedef struct strata_impl_backend {
  strata_backend_t id;
  const char *name;
  int compiled;
  int is_host;
  strata_status_t (*device_count)(int *count);
  strata_status_t (*device_info)(int device, strata_device_info_t *info);
  strata_status_t (*stream_create)(int device, void **stream);
  strata_status_t (*stream_destroy)(int device, void *stream);
  strata_status_t (*fence)(int device, void *stream);
  strata_status_t (*alloc)(int device, strata_mem_space_t space, size_t bytes, void **p);
  strata_status_t (*dealloc)(int device, strata_mem_space_t space, void *p);
  strata_status_t (*copy)(int device, void *stream, void *dst, const void *src, size_t bytes,
                          int async);
  strata_status_t (*set)(int device, void *stream, void *dst, int value, size_t bytes);
  strata_status_t (*sort_pairs_i64)(strata_exec_t *exec, int64_t n, int key_bits, int64_t *keys,
                                    int64_t *values);
  /* Optional device-wide primitives (NULL: the core's portable path is used). */
  /** Exclusive sum of n > 0 values with the vendor library (CUB / rocPRIM); in may alias out;
   *  *total when total != NULL (then synchronous), else asynchronous. NULL: parallel_scan kernel. */
  strata_status_t (*scan_exclusive_i64)(strata_exec_t *exec, int64_t n, const int64_t *in,
                                        int64_t *out, int64_t *total);
  /** 2-D strided copy of `height` rows of `width` bytes, row r from src + r*spitch to
   *  dst + r*dpitch (pitches >= width, in bytes), ordered on stream; synchronous unless async.
   *  NULL: the core copies rows with memmove (host backends). */
  strata_status_t (*copy_2d)(int device, void *stream, void *dst, size_t dpitch, const void *src,
                             size_t spitch, size_t width, size_t height, int async);
  /* the backend's tool ranges (NVTX on CUDA, roctx on HIP) around labelled launches and regions
   * (profiling.c); NULL where it has none */
  void (*range_push)(const char *name);
  void (*range_pop)(void);
  /* timing events (strata_event_*): NULL on host backends, where the core fences and reads the
   * host clock instead; elapsed waits for stop and gives seconds */
  strata_status_t (*event_create)(int device, void **event);
  strata_status_t (*event_destroy)(int device, void *event);
  strata_status_t (*event_record)(int device, void *stream, void *event);
  strata_status_t (*event_elapsed)(int device, void *start, void *stop, double *seconds);
  /* stream-ordered device memory (strata_mem_alloc_async / _free_async): NULL on host backends,
   * where the core allocates and frees at once (their launches have finished when they return) */
  strata_status_t (*alloc_async)(int device, void *stream, size_t bytes, void **p);
  strata_status_t (*free_async)(int device, void *stream, void *p);
  /* cross-instance ordering (strata_exec_wait_event): stream waits for the event's recorded work;
   * NULL on host backends (their work has completed when its call returns: nothing to wait for) */
  strata_status_t (*event_wait)(int device, void *stream, void *event);
} strata_impl_backend_t;

/** The table of a backend (a "not compiled" stub for the others). */
const strata_impl_backend_t *strata_impl_backend(strata_backend_t backend);

struct strata_exec {
  strata_backend_t backend;
  int device;
  void *stream;
  int is_default;
  int host_threads;
  strata_device_info_t info;
  /* scratch owned by the instance, reused across launches (launches on one instance are ordered) */
  void *temp;          /* device temporary (GPU reduce/scan partials, sort buffers) */
  size_t temp_bytes;
  char *host_scratch;  /* host team scratch, one block per OS thread */
  size_t host_scratch_bytes;
  void *host_partials; /* host per-thread reduce/scan partials */
  size_t host_partials_bytes;
};

/** Grows (never shrinks) the instance's device temporary to at least `bytes`. */
strata_status_t strata_impl_exec_temp(strata_exec_t *exec, size_t bytes, void **p);

/* Host memory shared by the host backends. */
strata_status_t strata_impl_host_alloc(int device, strata_mem_space_t space, size_t bytes, void **p);
strata_status_t strata_impl_host_dealloc(int device, strata_mem_space_t space, void *p);
strata_status_t strata_impl_host_copy(int device, void *stream, void *dst, const void *src,
                                      size_t bytes, int async);
strata_status_t strata_impl_host_set(int device, void *stream, void *dst, int value, size_t bytes);
/** Stable merge sort of (key, value) pairs on one thread (the serial backend's sort). */
strata_status_t strata_impl_host_sort_pairs_serial(strata_exec_t *exec, int64_t n, int key_bits,
                                                   int64_t *keys, int64_t *values);
/** Merges sorted runs [a, a+na) and [b, b+nb) of pairs into out (stable: a first on ties). */
void strata_impl_merge_pairs(const int64_t *ka, const int64_t *va, int64_t na, const int64_t *kb,
                             const int64_t *vb, int64_t nb, int64_t *ko, int64_t *vo);

int strata_impl_host_thread_count(void);

/* Profiling (profiling.c), called by the launch path in parallel.c and by init / finalize. */
typedef struct strata_impl_profile_scope {
  uint64_t id;
  double t0;
} strata_impl_profile_scope_t;
/** Before a launch: opens the backend's range, calls the begin hook, starts the timer (profiling
 *  mode: after fencing exec). Returns the fence's status (profiling mode) or SUCCESS. */
strata_status_t strata_impl_profile_begin(const strata_launch_t *L, strata_pattern_t kind,
                                          strata_impl_profile_scope_t *scope);
/** After a launch (whatever its status): in profiling mode fences exec and records the time;
 *  calls the end hook, closes the range. Returns the fence's status or SUCCESS. */
strata_status_t strata_impl_profile_end(const strata_launch_t *L, strata_pattern_t kind,
                                        strata_impl_profile_scope_t *scope);
/** strata_init: reads STRATA_PROFILE. */
strata_status_t strata_impl_profile_init(void);
/** strata_finalize: prints the summary in profiling mode, then clears it. */
void strata_impl_profile_finalize(void);

#ifdef __cplusplus
}
#endif
#endif
