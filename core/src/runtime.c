/* strata — init/finalize, backends, execution spaces, memory, device-wide primitives. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

static struct {
  int initialized;
  strata_init_options_t opts;
  int device_id; /* the GPU ordinal of the GPU backends' spaces: opts.device_id or STRATA_DEVICE */
  strata_backend_t default_backend;
  strata_exec_t *defaults[STRATA_NUM_BACKENDS];
} g;

/* Guards g.defaults: the default spaces are made on first use, and host threads that each launch
 * on their own instance reach that first use concurrently (strata_view_create asks for its
 * backend's default space), so the check and the creation must be one step. */
static pthread_mutex_t defaults_lock = PTHREAD_MUTEX_INITIALIZER;

/* The devices of each backend on which an execution space (default or instance) was ever made,
 * one bit per device ordinal (< 64), under defaults_lock: what strata_fence_all waits for. */
static uint64_t opened_devices[STRATA_NUM_BACKENDS];

strata_init_options_t strata_init_options_default(void) {
  strata_init_options_t o;
  o.device_id = 0;
  o.host_threads = 0;
  o.default_backend = STRATA_BACKEND_DEFAULT;
  return o;
}

const char *strata_backend_name(strata_backend_t backend) {
  if (backend == STRATA_BACKEND_DEFAULT) return "default"; /* as strata_backend_from_name takes it */
  const strata_impl_backend_t *b = strata_impl_backend(backend);
  return b ? b->name : "unknown";
}

strata_status_t strata_backend_from_name(const char *name, strata_backend_t *backend) {
  if (!name || !backend)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "backend name: NULL %s", !name ? "name" : "output");
  if (strcmp(name, "default") == 0) {
    *backend = STRATA_BACKEND_DEFAULT;
    return STRATA_SUCCESS;
  }
  for (int i = 0; i < STRATA_NUM_BACKENDS; ++i)
    if (strcmp(name, strata_backend_name((strata_backend_t)i)) == 0) {
      *backend = (strata_backend_t)i;
      return STRATA_SUCCESS;
    }
  return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                           "unknown backend '%s' (accepted: serial, openmp, cuda, hip, default)", name);
}

int strata_backend_compiled(strata_backend_t backend) {
  const strata_impl_backend_t *b = strata_impl_backend(backend);
  return b && b->compiled;
}

strata_backend_t strata_backend_default(void) {
  return g.initialized ? g.default_backend : (strata_backend_t)STRATA_DEFAULT_BACKEND_ID;
}

strata_status_t strata_init(const strata_init_options_t *opts) {
  if (g.initialized) { /* again: the same options (or none) are fine, others are not silently dropped */
    if (!opts || (opts->device_id == g.opts.device_id && opts->host_threads == g.opts.host_threads &&
                  opts->default_backend == g.opts.default_backend))
      return STRATA_SUCCESS;
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "strata_init: already initialized with device_id %d, host_threads %d, default_backend "
                             "%s; called again with device_id %d, host_threads %d, default_backend %s (call "
                             "strata_finalize first to change them)",
                             g.opts.device_id, g.opts.host_threads, strata_backend_name(g.opts.default_backend),
                             opts->device_id, opts->host_threads, strata_backend_name(opts->default_backend));
  }
  g.opts = opts ? *opts : strata_init_options_default();
  if (g.opts.device_id < 0)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "device_id %d is negative", g.opts.device_id);
  g.device_id = g.opts.device_id;
  { /* the environment's STRATA_DEVICE overrides device_id (as STRATA_BACKEND the default backend) */
    const char *env = getenv("STRATA_DEVICE");
    if (env && *env) {
      char *end = NULL;
      const long v = strtol(env, &end, 10);
      if (!end || *end || v < 0 || v > 1000000)
        return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                                 "environment STRATA_DEVICE='%s' is not a device ordinal (an integer in [0, 1000000])", env);
      g.device_id = (int)v;
    }
  }
  if (g.opts.host_threads < 0 || g.opts.host_threads > STRATA_MAX_HOST_THREADS)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "host_threads %d outside [0, %d] (0: OpenMP's default)",
                             g.opts.host_threads, STRATA_MAX_HOST_THREADS);
  if (g.opts.host_threads == 0) { /* OpenMP's default is held to the same limit */
    const int t = strata_impl_host_thread_count();
    const char *env = getenv("OMP_NUM_THREADS");
    if (t > STRATA_MAX_HOST_THREADS)
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "OpenMP's default is %d host threads (OMP_NUM_THREADS=%s, capped by "
                               "OMP_THREAD_LIMIT), above the limit %d "
                               "(STRATA_MAX_HOST_THREADS: more makes libgomp fail inside a launch); set "
                               "OMP_NUM_THREADS or strata_init_options_t.host_threads to at most %d",
                               t, env ? env : "unset", STRATA_MAX_HOST_THREADS, STRATA_MAX_HOST_THREADS);
  }
  strata_backend_t def = g.opts.default_backend;
  if (def == STRATA_BACKEND_DEFAULT) {
    const char *env = getenv("STRATA_BACKEND");
    def = (strata_backend_t)STRATA_DEFAULT_BACKEND_ID;
    if (env && *env) {
      strata_status_t st = strata_backend_from_name(env, &def);
      if (st != STRATA_SUCCESS)
        return strata_impl_error(st, "environment STRATA_BACKEND='%s' is not a backend (accepted: serial, openmp, cuda, hip)", env);
      if (def == STRATA_BACKEND_DEFAULT) def = (strata_backend_t)STRATA_DEFAULT_BACKEND_ID;
      if (!strata_backend_compiled(def))
        return strata_impl_error(STRATA_ERR_BACKEND_UNAVAILABLE,
                                 "environment STRATA_BACKEND='%s' names a backend this build did not compile "
                                 "(rebuild with -DBACKEND=%s)", env, env);
    }
  }
  if (!strata_impl_backend(def))
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "default backend %d is not a backend (0 .. %d, or STRATA_BACKEND_DEFAULT = -1)", (int)def,
                             STRATA_NUM_BACKENDS - 1);
  if (!strata_backend_compiled(def)) /* refused now, as STRATA_BACKEND is, not at the first launch */
    return strata_impl_error(STRATA_ERR_BACKEND_UNAVAILABLE,
                             "default backend '%s' was not compiled in this build (rebuild with -DBACKEND=%s)",
                             strata_backend_name(def), strata_backend_name(def));
  strata_status_t pst = strata_impl_profile_init();
  if (pst != STRATA_SUCCESS) return pst;
  g.default_backend = def;
  g.initialized = 1;
  return STRATA_SUCCESS;
}

int strata_is_initialized(void) { return g.initialized; }

static void exec_release(strata_exec_t *e) {
  const strata_impl_backend_t *b = strata_impl_backend(e->backend);
  if (e->stream || !b->is_host) b->fence(e->device, e->stream);
  if (e->temp) b->dealloc(e->device, STRATA_MEM_DEVICE, e->temp);
  if (e->stream) b->stream_destroy(e->device, e->stream);
  free(e->host_scratch);
  free(e->host_partials);
  free(e);
}

strata_status_t strata_finalize(void) {
  if (!g.initialized) return STRATA_SUCCESS;
  for (int i = 0; i < STRATA_NUM_BACKENDS; ++i)
    if (g.defaults[i]) {
      exec_release(g.defaults[i]);
      g.defaults[i] = NULL;
    }
  pthread_mutex_lock(&defaults_lock); /* strata_fence_all after finalize: no device to fence */
  memset(opened_devices, 0, sizeof opened_devices);
  pthread_mutex_unlock(&defaults_lock);
  strata_impl_profile_finalize();
  g.initialized = 0;
  return STRATA_SUCCESS;
}

int strata_impl_host_thread_count(void);

strata_status_t strata_backend_device_count(strata_backend_t backend, int *count) {
  if (backend == STRATA_BACKEND_DEFAULT) backend = strata_backend_default();
  const strata_impl_backend_t *b = strata_impl_backend(backend);
  if (!count) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "device count: NULL output");
  *count = 0;
  if (!b)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "backend %d is not a backend (0 .. %d, or STRATA_BACKEND_DEFAULT = -1)",
                             (int)backend, STRATA_NUM_BACKENDS - 1);
  if (!b->compiled)
    return strata_impl_error(STRATA_ERR_BACKEND_UNAVAILABLE,
                             "backend '%s' is not compiled into this build (rebuild with -DBACKEND=%s)",
                             b->name, b->name);
  return b->device_count(count);
}

strata_status_t strata_backend_device_info(strata_backend_t backend, int device,
                                           strata_device_info_t *info) {
  int n = 0;
  strata_status_t st = strata_backend_device_count(backend, &n);
  if (st != STRATA_SUCCESS) return st;
  if (backend == STRATA_BACKEND_DEFAULT) backend = strata_backend_default();
  if (!info) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "device info: NULL output");
  if (device < 0 || device >= n)
    return strata_impl_error(STRATA_ERR_NO_DEVICE, "backend '%s': device %d requested, %d device(s) present",
                             strata_backend_name(backend), device, n);
  memset(info, 0, sizeof *info);
  st = strata_impl_backend(backend)->device_info(device, info);
  info->device_id = device;
  return st;
}

static strata_status_t exec_new(strata_backend_t backend, int is_default, strata_exec_t **out) {
  if (!g.initialized)
    return strata_impl_error(STRATA_ERR_NOT_INITIALIZED, "strata_init has not been called");
  if (backend == STRATA_BACKEND_DEFAULT) backend = g.default_backend;
  int n = 0;
  strata_status_t st = strata_backend_device_count(backend, &n);
  if (st != STRATA_SUCCESS) return st;
  const strata_impl_backend_t *b = strata_impl_backend(backend);
  int dev = b->is_host ? 0 : g.device_id;
  if (dev >= n)
    return strata_impl_error(STRATA_ERR_NO_DEVICE,
                             "backend '%s' has no device %d: %d device(s) found", b->name, dev, n);
  strata_exec_t *e = (strata_exec_t *)calloc(1, sizeof *e);
  if (!e) return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "execution space: %zu bytes", sizeof *e);
  e->backend = backend;
  e->device = dev;
  e->is_default = is_default;
  e->host_threads = backend == STRATA_BACKEND_SERIAL ? 1
                    : g.opts.host_threads > 0        ? g.opts.host_threads
                                                     : strata_impl_host_thread_count();
  st = b->device_info(dev, &e->info);
  e->info.device_id = dev;
  if (st == STRATA_SUCCESS && (!b->is_host || !is_default)) st = b->stream_create(dev, &e->stream);
  if (st != STRATA_SUCCESS) {
    free(e);
    return st;
  }
  if (dev >= 0 && dev < 64) {
    /* exec_new runs under defaults_lock for a default space (strata_exec_default holds it) */
    if (!is_default) pthread_mutex_lock(&defaults_lock);
    opened_devices[backend] |= (uint64_t)1 << dev;
    if (!is_default) pthread_mutex_unlock(&defaults_lock);
  }
  *out = e;
  return STRATA_SUCCESS;
}

strata_status_t strata_exec_default(strata_backend_t backend, strata_exec_t **exec) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "exec: NULL output");
  if (!g.initialized)
    return strata_impl_error(STRATA_ERR_NOT_INITIALIZED, "strata_init has not been called");
  if (backend == STRATA_BACKEND_DEFAULT) backend = g.default_backend;
  if (!strata_impl_backend(backend))
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "backend %d is not a backend (0 .. %d, or STRATA_BACKEND_DEFAULT = -1)",
                             (int)backend, STRATA_NUM_BACKENDS - 1);
  strata_status_t st = STRATA_SUCCESS;
  pthread_mutex_lock(&defaults_lock);
  if (!g.defaults[backend]) st = exec_new(backend, 1, &g.defaults[backend]);
  if (st == STRATA_SUCCESS) *exec = g.defaults[backend];
  pthread_mutex_unlock(&defaults_lock);
  return st;
}

strata_status_t strata_exec_host(strata_exec_t **exec) {
  return strata_exec_default(strata_backend_compiled(STRATA_BACKEND_OPENMP) ? STRATA_BACKEND_OPENMP
                                                                             : STRATA_BACKEND_SERIAL,
                             exec);
}

strata_status_t strata_exec_create(strata_backend_t backend, strata_exec_t **exec) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "exec: NULL output");
  return exec_new(backend, 0, exec);
}

strata_status_t strata_exec_destroy(strata_exec_t **exec) {
  if (!exec || !*exec) return STRATA_SUCCESS;
  if ((*exec)->is_default)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "the default execution space of '%s' is owned by the library",
                             strata_backend_name((*exec)->backend));
  exec_release(*exec);
  *exec = NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_exec_fence(strata_exec_t *exec) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "fence: NULL exec");
  return strata_impl_backend(exec->backend)->fence(exec->device, exec->stream);
}

/* Every device of every backend on which a space was made, default or instance: a device-wide
 * fence (GPUs: cudaDeviceSynchronize / hipDeviceSynchronize, which waits for every stream of the
 * device). Fencing only the default spaces' devices missed the work of instances made on a
 * backend whose default space was never asked for. */
strata_status_t strata_fence_all(void) {
  for (int i = 0; i < STRATA_NUM_BACKENDS; ++i) {
    pthread_mutex_lock(&defaults_lock);
    const uint64_t devs = opened_devices[i];
    pthread_mutex_unlock(&defaults_lock);
    for (int dev = 0; dev < 64; ++dev)
      if (devs >> dev & 1) {
        strata_status_t st = strata_impl_backend((strata_backend_t)i)->fence(dev, NULL);
        if (st != STRATA_SUCCESS) return st;
      }
  }
  return STRATA_SUCCESS;
}

strata_backend_t strata_exec_backend(const strata_exec_t *exec) { return exec ? exec->backend : STRATA_BACKEND_DEFAULT; }
int strata_exec_is_host(const strata_exec_t *exec) { return exec ? strata_impl_backend(exec->backend)->is_host : 0; }
int strata_exec_concurrency(const strata_exec_t *exec) { return exec ? exec->host_threads : 0; }
strata_status_t strata_exec_device_info(const strata_exec_t *exec, strata_device_info_t *info) {
  if (!exec || !info)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "exec device info: NULL %s", exec ? "info" : "exec");
  *info = exec->info;
  return STRATA_SUCCESS;
}
void *strata_exec_native_stream(const strata_exec_t *exec) {
  return exec && !strata_impl_backend(exec->backend)->is_host ? exec->stream : NULL;
}

/* ---------------------------------------------------------------- events */
struct strata_event {
  strata_backend_t backend;
  int device;
  void *native; /* GPU event; NULL on host backends */
  double t;     /* host backends: strata_timer_now at record */
  int recorded;
};

strata_status_t strata_event_create(strata_exec_t *exec, strata_event_t **event) {
  if (!exec || !event)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "event_create: NULL %s", !exec ? "execution space" : "output");
  strata_event_t *ev = (strata_event_t *)calloc(1, sizeof *ev);
  if (!ev) return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "event: %zu bytes", sizeof *ev);
  ev->backend = exec->backend;
  ev->device = exec->device;
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  if (b->event_create) {
    strata_status_t st = b->event_create(exec->device, &ev->native);
    if (st != STRATA_SUCCESS) {
      free(ev);
      return st;
    }
  }
  *event = ev;
  return STRATA_SUCCESS;
}

void strata_event_destroy(strata_event_t **event) {
  if (!event || !*event) return;
  const strata_impl_backend_t *b = strata_impl_backend((*event)->backend);
  if ((*event)->native && b->event_destroy) b->event_destroy((*event)->device, (*event)->native);
  free(*event);
  *event = NULL;
}

/* exec and event given and of one backend and device; fn names the call, verb what exec does */
static strata_status_t check_exec_event(const strata_exec_t *exec, const strata_event_t *event, const char *fn,
                                        const char *verb) {
  if (!exec || !event)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", fn, !exec ? "execution space" : "event");
  if (exec->backend != event->backend || exec->device != event->device)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "%s: event of '%s' device %d %s '%s' device %d", fn,
                             strata_backend_name(event->backend), event->device, verb, strata_backend_name(exec->backend),
                             exec->device);
  return STRATA_SUCCESS;
}

strata_status_t strata_event_record(strata_exec_t *exec, strata_event_t *event) {
  strata_status_t chk = check_exec_event(exec, event, "event_record", "recorded on");
  if (chk) return chk;
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  strata_status_t st;
  if (event->native && b->event_record) {
    st = b->event_record(exec->device, exec->stream, event->native);
  } else {
    st = b->fence(exec->device, exec->stream);
    event->t = strata_timer_now();
  }
  if (st == STRATA_SUCCESS) event->recorded = 1;
  return st;
}

strata_status_t strata_exec_wait_event(strata_exec_t *exec, strata_event_t *event) {
  strata_status_t chk = check_exec_event(exec, event, "exec_wait_event", "waited on by");
  if (chk) return chk;
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  if (!event->recorded || !event->native || !b->event_wait) return STRATA_SUCCESS;
  return b->event_wait(exec->device, exec->stream, event->native);
}

strata_status_t strata_event_elapsed(strata_event_t *start, strata_event_t *stop, double *seconds) {
  if (!start || !stop || !seconds)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "event_elapsed: NULL %s",
                             !start ? "start event" : !stop ? "stop event" : "output");
  if (!start->recorded || !stop->recorded)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "event_elapsed: the %s event was never recorded",
                             start->recorded ? "stop" : "start");
  if (start->backend != stop->backend || start->device != stop->device)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "event_elapsed: events of different backends or devices");
  const strata_impl_backend_t *b = strata_impl_backend(start->backend);
  if (start->native && b->event_elapsed) return b->event_elapsed(start->device, start->native, stop->native, seconds);
  *seconds = stop->t - start->t;
  return STRATA_SUCCESS;
}

strata_status_t strata_mem_alloc(strata_exec_t *exec, strata_mem_space_t space, size_t bytes,
                                 void **ptr) {
  if (!exec || !ptr)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_alloc: NULL %s", !exec ? "execution space" : "output");
  *ptr = NULL;
  if (space < STRATA_MEM_HOST || space > STRATA_MEM_DEVICE)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "memory space %d is not 0..2", (int)space);
  if (bytes == 0) return STRATA_SUCCESS;
  if (space == STRATA_MEM_HOST) return strata_impl_host_alloc(0, space, bytes, ptr);
  return strata_impl_backend(exec->backend)->alloc(exec->device, space, bytes, ptr);
}

strata_status_t strata_mem_free(strata_exec_t *exec, strata_mem_space_t space, void **ptr) {
  if (!ptr || !*ptr) return STRATA_SUCCESS;
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_free: NULL exec");
  if (space < STRATA_MEM_HOST || space > STRATA_MEM_DEVICE) /* nothing freed: *ptr is kept */
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_free: memory space %d is not 0..2", (int)space);
  strata_status_t st = space == STRATA_MEM_HOST
                           ? strata_impl_host_dealloc(0, space, *ptr)
                           : strata_impl_backend(exec->backend)->dealloc(exec->device, space, *ptr);
  *ptr = NULL;
  return st;
}

strata_status_t strata_mem_alloc_async(strata_exec_t *exec, size_t bytes, void **ptr) {
  if (!exec || !ptr)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_alloc_async: NULL %s",
                             !exec ? "execution space" : "output");
  *ptr = NULL;
  if (bytes == 0) return STRATA_SUCCESS;
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  if (b->alloc_async) return b->alloc_async(exec->device, exec->stream, bytes, ptr);
  return b->alloc(exec->device, STRATA_MEM_DEVICE, bytes, ptr);
}

strata_status_t strata_mem_free_async(strata_exec_t *exec, void **ptr) {
  if (!ptr || !*ptr) return STRATA_SUCCESS;
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_free_async: NULL exec");
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  strata_status_t st = b->free_async ? b->free_async(exec->device, exec->stream, *ptr)
                                     : b->dealloc(exec->device, STRATA_MEM_DEVICE, *ptr);
  *ptr = NULL;
  return st;
}

static strata_status_t copy_common(strata_exec_t *exec, void *dst, const void *src, size_t bytes,
                                   int async) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_copy: NULL exec");
  if (bytes == 0) return STRATA_SUCCESS;
  if (!dst || !src)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_copy: %zu bytes with a NULL %s", bytes,
                             dst ? "source" : "destination");
  if (dst == src) return STRATA_SUCCESS; /* the same bytes */
  /* overlapping ranges: memmove on the host, undefined for cudaMemcpyAsync / hipMemcpyAsync, so
   * refused on every backend (unified addressing: host and device pointers compare) */
  const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
  if (d < s ? s - d < bytes : d - s < bytes)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "mem_copy: destination [%p, +%zu bytes) and source [%p, +%zu bytes) overlap "
                             "(by %zu bytes); copy through a temporary",
                             dst, bytes, src, bytes, bytes - (d < s ? s - d : d - s));
  return strata_impl_backend(exec->backend)->copy(exec->device, exec->stream, dst, src, bytes, async);
}

strata_status_t strata_mem_copy(strata_exec_t *exec, void *dst, const void *src, size_t bytes) {
  return copy_common(exec, dst, src, bytes, 0);
}
strata_status_t strata_mem_copy_async(strata_exec_t *exec, void *dst, const void *src, size_t bytes) {
  return copy_common(exec, dst, src, bytes, 1);
}

strata_status_t strata_mem_set_async(strata_exec_t *exec, void *dst, int value, size_t bytes) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_set: NULL exec");
  if (bytes == 0) return STRATA_SUCCESS;
  if (!dst) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "mem_set: %zu bytes at NULL", bytes);
  return strata_impl_backend(exec->backend)->set(exec->device, exec->stream, dst, value, bytes);
}

strata_status_t strata_impl_exec_temp(strata_exec_t *exec, size_t bytes, void **p) {
  if (bytes > exec->temp_bytes) {
    const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
    if (exec->temp) {
      b->fence(exec->device, exec->stream);
      b->dealloc(exec->device, STRATA_MEM_DEVICE, exec->temp);
      exec->temp = NULL;
      exec->temp_bytes = 0;
    }
    size_t want = bytes < 4096 ? 4096 : bytes + bytes / 4;
    strata_status_t st = b->alloc(exec->device, STRATA_MEM_DEVICE, want, &exec->temp);
    if (st != STRATA_SUCCESS) return st;
    exec->temp_bytes = want;
  }
  *p = exec->temp;
  return STRATA_SUCCESS;
}

#include "../kernels/scan_args.h"
#include "../kernels/sort_keys_args.h"
STRATA_KERNEL_DECLARE(strata_impl_scan_exclusive_i64);
STRATA_KERNEL_DECLARE(strata_impl_sort_first_bad_key);

strata_status_t strata_sort_pairs_i64(strata_exec_t *exec, int64_t n, int key_bits, int64_t *keys,
                                       int64_t *values) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "sort: NULL exec");
  if (n < 0) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "sort: n = %lld is negative", (long long)n);
  if (key_bits < 1 || key_bits > 63)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "sort: key_bits = %d outside 1..63", key_bits);
  if (n == 0) return STRATA_SUCCESS;
  if (!keys || !values) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "sort: NULL keys or values with n = %lld", (long long)n);
  /* refuse keys outside [0, 2^key_bits): a radix sort over key_bits bits would misorder them */
  strata_impl_sort_keys_args_t ka = {keys, key_bits};
  int64_t bad = INT64_MAX;
  strata_status_t st = strata_parallel_reduce(exec, "strata_sort_pairs_i64 key check", strata_range(0, n),
                                              &strata_impl_sort_first_bad_key, &ka, STRATA_REDUCE_MIN, &bad);
  if (st != STRATA_SUCCESS) return st;
  if (bad != INT64_MAX) {
    int64_t key = 0;
    st = strata_mem_copy(exec, &key, keys + bad, sizeof key);
    if (st != STRATA_SUCCESS) return st;
    if (key_bits == 63)
      return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                               "sort: keys[%lld] = %lld is outside [0, 2^63) (key_bits = 63): keys must be non-negative",
                               (long long)bad, (long long)key);
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "sort: keys[%lld] = %lld is outside [0, 2^%d) = [0, %lld) (key_bits = %d)",
                             (long long)bad, (long long)key, key_bits, (long long)((int64_t)1 << key_bits), key_bits);
  }
  if (n == 1) return STRATA_SUCCESS;
  return strata_impl_backend(exec->backend)->sort_pairs_i64(exec, n, key_bits, keys, values);
}

int strata_impl_host_thread_count(void) {
  const strata_impl_backend_t *b = strata_impl_backend(STRATA_BACKEND_OPENMP);
  strata_device_info_t info;
  if (b->compiled && b->device_info(0, &info) == STRATA_SUCCESS && info.multiprocessors > 0)
    return info.multiprocessors;
  return 1;
}

strata_status_t strata_scan_exclusive_i64(strata_exec_t *exec, int64_t n, const int64_t *in,
                                          int64_t *out, int64_t *total) {
  if (!exec) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "scan: NULL exec");
  if (n < 0) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "scan: n = %lld is negative", (long long)n);
  if (n == 0) {
    if (total) *total = 0;
    return STRATA_SUCCESS;
  }
  if (!in || !out)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "scan: NULL %s with n = %lld",
                             in ? "output" : "input", (long long)n);
  const strata_impl_backend_t *b = strata_impl_backend(exec->backend);
  if (b->scan_exclusive_i64) return b->scan_exclusive_i64(exec, n, in, out, total);
  strata_impl_scan_args_t a = {in, out};
  return strata_parallel_scan(exec, "strata_scan_exclusive_i64", strata_range(0, n),
                              &strata_impl_scan_exclusive_i64, &a, total);
}

double strata_timer_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
