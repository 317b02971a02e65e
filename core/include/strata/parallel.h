/* strata — launching kernels: range and team policies (DESIGN §2).
 *
 * Kernels are defined in kernel sources with <strata/kl.h> and declared to host code with
 * STRATA_KERNEL_DECLARE(name). These calls validate the policy, run the profiling hooks and call
 * the launcher that the exec's backend compiled. Kokkos semantics unless stated.
 */
#ifndef STRATA_PARALLEL_H
#define STRATA_PARALLEL_H

#include "strata/kernel.h"
#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A half-open index range [begin, end); end < begin is refused, end == begin is a no-op. */
typedef struct strata_range {
  int64_t begin, end;
} strata_range_t;

static inline strata_range_t strata_range(int64_t begin, int64_t end) {
  strata_range_t r;
  r.begin = begin;
  r.end = end;
  return r;
}

/** A team policy. league_size teams; team_size threads per team (STRATA_AUTO: 1 on host; on GPUs
 *  chosen per kernel from occupancy at launch); vector_length lanes per thread (STRATA_AUTO; else a power of two up to the
 *  warp size: 32 on CUDA, 64 on CDNA, 1 on host); scratch_team bytes shared by a team and
 *  scratch_thread bytes private to each team thread. Limits are checked, never clamped:
 *  team_size × vector_length <= 1024 on GPUs, team_size <= 1 and vector_length <= 1 on host,
 *  scratch up to the device's maximum (max_scratch_bytes), counted after rounding: scratch_team
 *  and scratch_thread are each rounded up to a multiple of 16 bytes (alignment) and
 *  rounded(scratch_team) + team_size × rounded(scratch_thread) must not exceed it, so parts that
 *  sum exactly to the maximum are refused unless both are multiples of 16 (the message gives the
 *  rounded sizes). league_size == 0 is a valid no-op. */
typedef struct strata_team_policy {
  int64_t league_size;
  int team_size;
  int vector_length;
  size_t scratch_team;
  size_t scratch_thread;
} strata_team_policy_t;

static inline strata_team_policy_t strata_team_policy(int64_t league_size, int team_size,
                                                      int vector_length) {
  strata_team_policy_t p;
  p.league_size = league_size;
  p.team_size = team_size;
  p.vector_length = vector_length;
  p.scratch_team = 0;
  p.scratch_thread = 0;
  return p;
}

/** Runs a FOR kernel over range. label NULL: the kernel's name. Asynchronous on exec's stream.
 *  Errors: INVALID_ARGUMENT (NULL kernel/args, wrong pattern, end < begin), BACKEND_UNAVAILABLE
 *  (the kernel was not compiled for exec's backend), DEVICE (launch failure). */
strata_status_t strata_parallel_for(strata_exec_t *exec, const char *label, strata_range_t range,
                                    const strata_kernel_t *kernel, const void *args);

/** Runs a REDUCE kernel over range with op and stores the result in *result (host memory, of
 *  the kernel's value type). op: SUM, MIN, MAX for kernels of value type i32, i64, f32, f64;
 *  MINLOC, MAXLOC (Kokkos MinLoc / MaxLoc) for kernels of a loc type (i32loc ... f64loc: result a
 *  strata_i32loc_t ... strata_f64loc_t { val; loc; }), which give the best value and, among equal
 *  values, the smallest index: the same result on every backend. An empty range gives op's
 *  identity (0, +inf/max, -inf/lowest; the loc forms: that value with loc = INT64_MAX, as Kokkos's
 *  reduction_identity). Deterministic for a fixed backend, device and thread count (fixed-order
 *  tree combine, no atomics). Synchronous. Errors: as strata_parallel_for, INVALID_ARGUMENT for a
 *  NULL result, an unknown op, or an op that does not fit the kernel's value type (the message
 *  names both). */
strata_status_t strata_parallel_reduce(strata_exec_t *exec, const char *label,
                                       strata_range_t range, const strata_kernel_t *kernel,
                                       const void *args, strata_reduce_op_t op, void *result);

/** As strata_parallel_reduce, but asynchronous: the result goes to *result in exec's memory space
 *  (STRATA_MEM_DEVICE memory of exec: device memory on GPU backends, host memory on host
 *  backends), written in stream order, so that later launches on exec's stream read it with no
 *  round trip through the host (Kokkos: parallel_reduce into a View; an iterative solver keeps
 *  its scalars on the device so, as Ginkgo's do). result: memory exec's kernels can write,
 *  aligned for the kernel's value type, of its size (8 bytes for f64, 16 for the loc types), kept
 *  allocated until the reduction has run; it is written once, after every call of the body has
 *  returned, so it may be memory the body reads. An empty range writes op's identity there (in
 *  stream order too). The host sees the value after a fence or a strata_mem_copy on exec, another
 *  instance after a fence or an event (strata_event_t). Same result as strata_parallel_reduce
 *  (same kernels and combine order). Host backends have run it when it returns. Errors: those of
 *  strata_parallel_reduce found before the launch (NULL result, op, value type, range, policy);
 *  a fault while the kernel runs (e.g. a result pointer the device cannot write) is reported by
 *  the next call that waits for exec (a fence, a copy, a synchronous reduce), or by this one
 *  under STRATA_LAUNCH_BLOCKING=1. */
strata_status_t strata_parallel_reduce_async(strata_exec_t *exec, const char *label, strata_range_t range,
                                             const strata_kernel_t *kernel, const void *args,
                                             strata_reduce_op_t op, void *result);

/** Runs a SCAN kernel over range (Kokkos parallel_scan: the body is called with a running partial
 *  sum and a `final` flag; exclusive or inclusive is the body's choice). *total (host; may be
 *  NULL) receives the sum of all contributions. Synchronous if total != NULL, else asynchronous.
 *  Errors: as strata_parallel_for (INVALID_ARGUMENT also for a kernel that is not a SCAN kernel). */
strata_status_t strata_parallel_scan(strata_exec_t *exec, const char *label, strata_range_t range,
                                     const strata_kernel_t *kernel, const void *args, void *total);

/** Runs a TEAM kernel under a team policy. Asynchronous. Errors as strata_parallel_for plus
 *  INVALID_POLICY (message names the value and the limit). */
strata_status_t strata_parallel_for_team(strata_exec_t *exec, const char *label,
                                         const strata_team_policy_t *policy,
                                         const strata_kernel_t *kernel, const void *args);

/** Resolves AUTO fields of a policy for exec's backend and validates it, without launching.
 *  On success *resolved has team_size and vector_length >= 1 and the scratch sizes rounded up to
 *  16 bytes. AUTO vector_length is 1. AUTO team_size is 1 on host backends; on GPU backends the
 *  launcher chooses it per kernel from occupancy (see strata_team_policy_resolve_kernel), and
 *  this reports its upper bound: max_threads_per_team / vector_length, fewer if the per-thread
 *  scratch would not fit (so buffers sized by it hold every team). An AUTO team size is
 *  validated as a team of one. Errors: INVALID_ARGUMENT (NULL), INVALID_POLICY. */
strata_status_t strata_team_policy_resolve(strata_exec_t *exec, const strata_team_policy_t *policy,
                                           strata_team_policy_t *resolved);

/** As strata_team_policy_resolve, but AUTO team_size is resolved exactly as a launch of kernel
 *  (a TEAM kernel) on exec would resolve it: on GPU backends the team size with the most resident
 *  threads per multiprocessor for that kernel's registers and dynamic shared memory (scratch_team
 *  + team_size x scratch_thread + the team reductions' reserve), ties to the larger team, over
 *  block sizes max_threads_per_team, /2, ..., the warp (Kokkos team_size_recommended; cached per
 *  kernel). Errors: as strata_team_policy_resolve, INVALID_ARGUMENT (wrong pattern),
 *  BACKEND_UNAVAILABLE, DEVICE. */
strata_status_t strata_team_policy_resolve_kernel(strata_exec_t *exec,
                                                  const strata_team_policy_t *policy,
                                                  const strata_kernel_t *kernel,
                                                  strata_team_policy_t *resolved);

#ifdef __cplusplus
}
#endif
#endif
