/* strata — profiling: launch hooks, named regions, the STRATA_PROFILE summary (DESIGN §2).
 *
 * Every launch (strata_parallel_for / _reduce / _scan / _for_team) carries a label, the kernel's
 * name unless the caller gives one. Around each launch the runtime, in this order:
 *   1. opens a range named by the label in the backend's tool interface — NVTX on CUDA
 *      (nvtxRangePushA, visible in Nsight Systems); roctx on HIP when strata was built with
 *      roctracer (Debian packages none; without it the HIP backend has no ranges); nothing on host;
 *   2. calls the begin hook (strata_profile_set_hooks), Kokkos Tools style;
 *   3. launches;
 *   4. in profiling mode only: fences the execution space (see below) and records the time;
 *   5. calls the end hook with the same label, backend, kind and launch id, then closes the range.
 * Launches with an empty range or league are still launches (hooks see them) but run nothing.
 * A launch refused by validation (bad policy, NULL argument, backend not compiled) calls no hook.
 *
 * Profiling mode: STRATA_PROFILE=1 in the environment at strata_init ("0" or empty: off; any
 * other value is refused by strata_init with STRATA_ERR_INVALID_ARGUMENT, naming it).
 * Each launch is then fenced before and after, so that its time is attributed to it (work
 * queued asynchronously before it finishes first) — on GPUs this synchronizes after every
 * launch and removes all overlap; it is a measuring mode, not a production one. strata_finalize
 * prints the summary (strata_profile_report) to stderr: per label and backend the kind, count,
 * total and mean time; per region name the count and the total and mean inclusive time.
 *
 * Thread safety: set hooks while no launch is in flight. Hooks are called from the launching
 * thread. Regions are per thread (each thread has its own stack, at most 64 deep).
 */
#ifndef STRATA_PROFILING_H
#define STRATA_PROFILING_H

#include <stdint.h>
#include <stdio.h>

#include "strata/kernel.h"
#include "strata/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A launch hook. label: the launch's label (valid during the call only); backend: the
 *  execution space's backend; kind: FOR, REDUCE, SCAN or TEAM; launch_id: unique per launch
 *  (counts from 1, in launch order), the same for its begin and end; user_data: as given to
 *  strata_profile_set_hooks. */
typedef void (*strata_profile_launch_fn_t)(const char *label, strata_backend_t backend,
                                           strata_pattern_t kind, uint64_t launch_id,
                                           void *user_data);

/** A region hook. name: the region's name (valid during the call only); depth: 1 for an
 *  outermost region, 2 for one inside it, ... (the depth of the region being opened or closed). */
typedef void (*strata_profile_region_fn_t)(const char *name, int depth, void *user_data);

/** Installs the launch hooks: begin_fn before and end_fn after each labelled launch (Kokkos
 *  Tools' begin/end_parallel_*). Either may be NULL; both NULL removes them. Replaces earlier
 *  hooks. May be called before strata_init. Never fails; returns STRATA_SUCCESS. */
strata_status_t strata_profile_set_hooks(strata_profile_launch_fn_t begin_fn,
                                         strata_profile_launch_fn_t end_fn, void *user_data);

/** Installs the region hooks, called by strata_profile_push_region / _pop_region (Kokkos Tools'
 *  push/pop_region). Either may be NULL. Never fails. */
strata_status_t strata_profile_set_region_hooks(strata_profile_region_fn_t push_fn,
                                                strata_profile_region_fn_t pop_fn,
                                                void *user_data);

/** Opens a named region on this thread (the name is copied): an NVTX / roctx range on the GPU
 *  backends compiled in, the push hook, and in profiling mode a timer. Regions nest.
 *  Errors: INVALID_ARGUMENT (NULL name; more than 64 regions open on this thread). */
strata_status_t strata_profile_push_region(const char *name);

/** Closes this thread's innermost open region. Errors: INVALID_ARGUMENT (no region open). */
strata_status_t strata_profile_pop_region(void);

/** 1 in profiling mode (STRATA_PROFILE set at strata_init), else 0. */
int strata_profile_enabled(void);

/** Writes the profiling summary collected so far to out (a table per label and backend: kind,
 *  count, total and mean seconds, share of all launch time; then the regions). In non-profiling
 *  mode it says that nothing was timed. Errors: INVALID_ARGUMENT (NULL out). */
strata_status_t strata_profile_report(FILE *out);

#ifdef __cplusplus
}
#endif
#endif
