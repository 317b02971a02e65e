/* strata — initialization, execution spaces, memory, device information (DESIGN §3). */
#ifndef STRATA_RUNTIME_H
#define STRATA_RUNTIME_H

#include "strata/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- init / finalize */

typedef struct strata_init_options {
  int device_id;    /**< GPU ordinal for the GPU backends (host backends ignore it); default 0.
                         The environment variable STRATA_DEVICE, when set, overrides it. Under
                         MPI, one GPU per rank: strata_dist_device_select (strata/dist.h). */
  int host_threads; /**< OpenMP threads; 0 = OpenMP's default (OMP_NUM_THREADS or all cores);
                         at most STRATA_MAX_HOST_THREADS. */
  strata_backend_t default_backend; /**< STRATA_BACKEND_DEFAULT: the build's choice, unless the
                                         environment variable STRATA_BACKEND names another. */
} strata_init_options_t;

/** The largest host_threads strata_init accepts (more makes libgomp fail inside a launch). */
#define STRATA_MAX_HOST_THREADS 4096

/** Options with every field at its default. */
strata_init_options_t strata_init_options_default(void);

/** Initializes the library. opts may be NULL (defaults). GPU backends are opened lazily, on the
 *  first execution space that needs them, so a machine without a GPU initializes fine.
 *  Errors: STRATA_ERR_INVALID_ARGUMENT (negative device id, STRATA_DEVICE not an integer in
 *  [0, 10^6] — an ordinal beyond the devices present is refused by the first execution space of
 *  a GPU backend, NO_DEVICE —, thread count negative or above
 *  STRATA_MAX_HOST_THREADS — OpenMP's default too, with host_threads 0: OMP_NUM_THREADS —, unknown
 *  backend name in STRATA_BACKEND, or a second call, before strata_finalize, with options other
 *  than the first's; NULL or the same options succeed and change nothing),
 *  STRATA_ERR_BACKEND_UNAVAILABLE (a default backend, from opts or STRATA_BACKEND, that this build
 *  did not compile). Not thread-safe; call once before anything else. Synchronous. */
strata_status_t strata_init(const strata_init_options_t *opts);
/** Releases the default execution spaces and every backend. Release every view, matrix, plan and
 *  execution space instance first: pointers from strata_exec_default (and objects tied to them)
 *  are invalid afterwards, as Kokkos objects are after Kokkos::finalize. Calling it twice, or
 *  strata_init twice, is harmless. */
strata_status_t strata_finalize(void);
/** 1 between strata_init and strata_finalize. */
int strata_is_initialized(void);

/* ---------------------------------------------------------------- backends */

/** Lower-case name of a backend ("openmp"); "default" for STRATA_BACKEND_DEFAULT (as
 *  strata_backend_from_name takes it); "unknown" for other values. */
const char *strata_backend_name(strata_backend_t backend);
/** Parses "serial", "openmp", "cuda", "hip" or "default". Errors: STRATA_ERR_INVALID_ARGUMENT
 *  naming the text and the accepted names. */
strata_status_t strata_backend_from_name(const char *name, strata_backend_t *backend);
/** 1 if the backend was compiled into this library. */
int strata_backend_compiled(strata_backend_t backend);
/** The backend that STRATA_BACKEND_DEFAULT stands for after strata_init. */
strata_backend_t strata_backend_default(void);

typedef struct strata_device_info {
  char name[256];
  int multiprocessors;       /**< SMs / CUs; host: number of cores OpenMP sees */
  size_t memory_bytes;       /**< total device memory; host: 0 (not queried) */
  int warp_size;             /**< 32 on NVIDIA, 64 on CDNA; 1 on host */
  int max_threads_per_team;  /**< 1024 on GPUs; 1 on host */
  size_t max_scratch_bytes;  /**< per team: opt-in shared memory on GPUs less the few hundred bytes
                                  the team launcher keeps for team reductions; host: a set limit */
  int compute_major, compute_minor;
  int device_id;             /**< the device's ordinal in its backend (host backends 0) */
} strata_device_info_t;

/** Number of devices the backend sees: host backends 1; GPU backends 0 when no GPU (not an
 *  error). Errors: STRATA_ERR_BACKEND_UNAVAILABLE if not compiled in. */
strata_status_t strata_backend_device_count(strata_backend_t backend, int *count);
/** Describes device `device` of a backend. Errors: BACKEND_UNAVAILABLE, NO_DEVICE (ordinal not
 *  below the count, both named), DEVICE. */
strata_status_t strata_backend_device_info(strata_backend_t backend, int device,
                                           strata_device_info_t *info);

/** Seconds on a monotonic host clock (Kokkos::Timer's clock): differences time host-side
 *  regions; fence the execution space first to include its asynchronous work. */
double strata_timer_now(void);

/* ---------------------------------------------------------------- execution spaces */

typedef struct strata_exec strata_exec_t;

/** The default execution space of a backend (shared, owned by the library, never destroyed by
 *  the caller); its stream is the backend's default stream. backend may be STRATA_BACKEND_DEFAULT.
 *  Errors: NOT_INITIALIZED, BACKEND_UNAVAILABLE (not compiled), NO_DEVICE (compiled, but no
 *  device: the message names the backend and the device count). Thread-safe: the space is made
 *  once, on the first call for its backend (strata_view_create makes that call too). */
strata_status_t strata_exec_default(strata_backend_t backend, strata_exec_t **exec);
/** The default execution space of the best host backend compiled into this build: OpenMP when
 *  compiled, else serial (Kokkos DefaultHostExecutionSpace). Shared and library-owned like
 *  strata_exec_default's; memory of any of its spaces is host-accessible. Use it for host
 *  mirrors and host-side work next to a GPU default. Errors: NOT_INITIALIZED, INVALID_ARGUMENT
 *  (NULL exec). Synchronous. */
strata_status_t strata_exec_host(strata_exec_t **exec);
/** A new execution space instance of a backend with its own stream (GPU) — work on different
 *  instances may overlap. Destroy with strata_exec_destroy. Errors as strata_exec_default.
 *  An instance (default ones included) is used by one host thread at a time: launches on it
 *  share its reduction and scratch buffers, so host threads that launch concurrently need an
 *  instance each (as a CUDA stream or a Kokkos execution space instance would be used). */
strata_status_t strata_exec_create(strata_backend_t backend, strata_exec_t **exec);
/** Destroys an instance made by strata_exec_create (fences it first). NULL-safe; sets *exec NULL.
 *  Passing a default space is refused with STRATA_ERR_INVALID_ARGUMENT. */
strata_status_t strata_exec_destroy(strata_exec_t **exec);
/** Waits for all work submitted to this instance. Errors: INVALID_ARGUMENT (NULL exec), DEVICE
 *  (an asynchronous fault surfaced, named). */
strata_status_t strata_exec_fence(strata_exec_t *exec);
/** Waits for all work on every instance of every opened backend. */
strata_status_t strata_fence_all(void);
/** The instance's backend (NULL: STRATA_BACKEND_DEFAULT). */
strata_backend_t strata_exec_backend(const strata_exec_t *exec);
/** 1 if memory allocated with STRATA_MEM_DEVICE on this instance is host-accessible (host
 *  backends); 0 for NULL. */
int strata_exec_is_host(const strata_exec_t *exec);
/** Threads the host backends use (1 for serial); for GPU backends the host threads available;
 *  0 for NULL. */
int strata_exec_concurrency(const strata_exec_t *exec);
/** The device the instance runs on, as strata_backend_device_info describes it (the instance's
 *  device, not device 0), from a copy made when the instance was created: no device call, cheap
 *  enough for every launch (cudaGetDeviceProperties, behind strata_backend_device_info, takes
 *  tens of microseconds). Errors: INVALID_ARGUMENT (NULL exec or info). Synchronous. */
strata_status_t strata_exec_device_info(const strata_exec_t *exec, strata_device_info_t *info);
/** The instance's native stream (cudaStream_t / hipStream_t) for interoperation with vendor
 *  libraries (cusparseSetStream, ...); NULL on host backends (and for a GPU's legacy stream). */
void *strata_exec_native_stream(const strata_exec_t *exec);

/* ---------------------------------------------------------------- events (timing) */

/** A timing event (Kokkos-tools / cudaEvent style): recorded in an execution space's order of
 *  work; the time between two recorded events of one instance is the device time of the work
 *  submitted between them. GPUs: cudaEvent_t / hipEvent_t recorded on the instance's stream
 *  (no host synchronization at record; resolution about 0.5 us). Host backends: record fences
 *  the instance and reads strata_timer_now. */
typedef struct strata_event strata_event_t;
/** An event of exec's backend and device. Errors: OUT_OF_MEMORY, DEVICE. */
strata_status_t strata_event_create(strata_exec_t *exec, strata_event_t **event);
/** NULL-safe; sets *event NULL. Waits for the event if it is still pending. */
void strata_event_destroy(strata_event_t **event);
/** Records the event after all work submitted to exec so far (exec of the event's backend).
 *  Asynchronous on GPUs; host backends fence first. Errors: INVALID_ARGUMENT, DEVICE. */
strata_status_t strata_event_record(strata_exec_t *exec, strata_event_t *event);
/** *seconds = time from start to stop (both recorded, same backend); waits for stop to complete.
 *  Errors: INVALID_ARGUMENT (not recorded, or backends differ), DEVICE. */
strata_status_t strata_event_elapsed(strata_event_t *start, strata_event_t *stop, double *seconds);
/** Orders exec after an event (cross-instance dependency, cudaStreamWaitEvent semantics): work
 *  submitted to exec after this call starts only after the work that the event's last
 *  strata_event_record captured has completed; work submitted to exec before it is not affected,
 *  and the host does not wait. exec may be another instance of the event's backend and device than
 *  the one that recorded it (that is its use: one instance consumes what another produced). An
 *  event never recorded is already complete (a no-op, as in CUDA). GPUs: cudaStreamWaitEvent /
 *  hipStreamWaitEvent on exec's stream. Host backends: a no-op after the checks — their launches
 *  and copies have completed when the call that submitted them returns, and record fences. Errors:
 *  INVALID_ARGUMENT (NULL exec or event; an event of another backend or device than exec's, both
 *  named), DEVICE. Asynchronous. */
strata_status_t strata_exec_wait_event(strata_exec_t *exec, strata_event_t *event);

/* ---------------------------------------------------------------- memory */

typedef enum strata_mem_space {
  STRATA_MEM_HOST = 0,        /**< pageable host memory (malloc, 64-byte aligned) */
  STRATA_MEM_HOST_PINNED = 1, /**< page-locked host memory (cudaMallocHost); host backends: HOST */
  STRATA_MEM_DEVICE = 2       /**< the execution space's memory: GPU memory, or host memory on host backends */
} strata_mem_space_t;

/** Allocates `bytes` in a memory space of the exec's backend; *ptr = NULL for bytes == 0.
 *  Errors: OUT_OF_MEMORY (message gives the bytes asked for and, on GPUs, the bytes free).
 *  Synchronous. */
strata_status_t strata_mem_alloc(strata_exec_t *exec, strata_mem_space_t space, size_t bytes,
                                 void **ptr);
/** Frees memory from strata_mem_alloc with the same exec and space. NULL-safe; sets *ptr NULL.
 *  Errors: INVALID_ARGUMENT (NULL exec; a space outside 0..2: nothing freed, *ptr kept). */
strata_status_t strata_mem_free(strata_exec_t *exec, strata_mem_space_t space, void **ptr);

/** Stream-ordered allocation of `bytes` of the exec's device memory (STRATA_MEM_DEVICE), for
 *  temporaries of work queued on this exec: CUDA cudaMallocAsync / HIP hipMallocAsync on the
 *  exec's stream, from the device's default memory pool, which strata sets to keep freed memory
 *  for reuse (release threshold UINT64_MAX; a failing strata_mem_alloc or alloc_async returns the
 *  pool's unused memory to the device and tries again). Host backends: as strata_mem_alloc.
 *  *ptr = NULL for bytes == 0. The memory may be used by work queued on exec after this call
 *  (use on another stream or exec needs a fence first). Asynchronous on GPUs: no device sync
 *  (cudaMalloc / cudaFree synchronize), which is what makes per-call temporaries of sparse
 *  operations cheap (CUB / RMM practice). Devices without memory pools: strata_mem_alloc.
 *  Errors: INVALID_ARGUMENT (NULL exec or ptr), OUT_OF_MEMORY (the bytes asked for and free). */
strata_status_t strata_mem_alloc_async(strata_exec_t *exec, size_t bytes, void **ptr);
/** Frees memory from strata_mem_alloc_async with the same exec, ordered on its stream: work
 *  queued on exec before the call may still use it; the memory is reused only by later work.
 *  Asynchronous on GPUs; host backends free at once. NULL-safe; sets *ptr NULL. */
strata_status_t strata_mem_free_async(strata_exec_t *exec, void **ptr);
/** Copies `bytes` between any two pointers allocated by strata (or plain host memory), ordered
 *  on exec's stream. Synchronous: returns when the copy is complete. bytes == 0 and dst == src
 *  are no-ops. Errors: INVALID_ARGUMENT (NULL exec; NULL dst or src with bytes > 0; ranges that
 *  overlap without being the same: refused on every backend, as GPU copies of overlapping ranges
 *  are undefined — the message gives both ranges). */
strata_status_t strata_mem_copy(strata_exec_t *exec, void *dst, const void *src, size_t bytes);
/** As strata_mem_copy but asynchronous on exec's stream (host memory should be pinned for true
 *  overlap). The caller fences before reading dst on the host. Errors as strata_mem_copy. */
strata_status_t strata_mem_copy_async(strata_exec_t *exec, void *dst, const void *src,
                                      size_t bytes);
/** Sets `bytes` bytes at dst (memory of exec's space) to `value`, ordered on exec's stream;
 *  asynchronous. bytes == 0 does nothing (dst may be NULL). Errors: INVALID_ARGUMENT (NULL exec;
 *  NULL dst with bytes > 0), DEVICE (the backend's memset failed, named). */
strata_status_t strata_mem_set_async(strata_exec_t *exec, void *dst, int value, size_t bytes);

/* ---------------------------------------------------------------- device-wide primitives */

/** Sorts n (key, value) pairs by key, ascending and stable, in place (exec memory). Keys must be
 *  non-negative and below 2^key_bits (key_bits <= 63 lets GPU radix sorts skip bits); values
 *  travel with their keys. The keys are checked first with a reduce kernel (a radix sort would
 *  silently misorder such keys). CUB on CUDA, rocPRIM on HIP, a parallel merge sort on OpenMP, a
 *  merge sort on serial. Temporary memory is taken from exec's space. Errors: INVALID_ARGUMENT
 *  (n < 0, key_bits outside 1..63; a key outside [0, 2^key_bits): the message names the first
 *  such key, its index and the limit, and keys and values are left unchanged), OUT_OF_MEMORY.
 *  Synchronous. */
strata_status_t strata_sort_pairs_i64(strata_exec_t *exec, int64_t n, int key_bits, int64_t *keys,
                                       int64_t *values);

/** Exclusive prefix sum of n int64 values (exec memory) into out (may alias in); out[n] is not
 *  written; *total (host) receives the sum of all n when total != NULL. Synchronous when total is
 *  requested, else asynchronous on exec. CUB's DeviceScan::ExclusiveSum on CUDA, rocPRIM's
 *  exclusive_scan on HIP (DESIGN §2), the parallel_scan pattern on serial and OpenMP. Sums wrap
 *  as two's complement on overflow. Errors: INVALID_ARGUMENT (NULL exec, n < 0, NULL in/out with
 *  n > 0), OUT_OF_MEMORY, DEVICE. */
strata_status_t strata_scan_exclusive_i64(strata_exec_t *exec, int64_t n, const int64_t *in,
                                          int64_t *out, int64_t *total);

#ifdef __cplusplus
}
#endif
#endif
