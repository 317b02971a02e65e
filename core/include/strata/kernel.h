/* strata — what a compiled kernel is, and what its launcher receives.
 *
 * A kernel is a functor (DESIGN §2): an argument struct (its captures) plus a body, written once
 * in a kernel source (*.kl.c) with the macros of <strata/kl.h>. The build compiles each kernel
 * source once per enabled backend; the serial pass also emits a strata_kernel_t table that holds
 * the launcher of every compiled backend. strata_parallel_* (parallel.h) picks the launcher from
 * the execution space at run time.
 */
#ifndef STRATA_KERNEL_H
#define STRATA_KERNEL_H

#include "strata/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_pattern {
  STRATA_PATTERN_FOR = 0,    /* range parallel_for       */
  STRATA_PATTERN_REDUCE = 1, /* range parallel_reduce    */
  STRATA_PATTERN_SCAN = 2,   /* range parallel_scan      */
  STRATA_PATTERN_TEAM = 3    /* team-policy parallel_for */
} strata_pattern_t;

struct strata_exec;

/** Everything a backend launcher needs, resolved and validated by the runtime (parallel.c).
 *  Kernel authors never build one; it is internal to the launch path. */
typedef struct strata_launch {
  const char *label;
  struct strata_exec *exec;
  void *stream;              /* cudaStream_t / hipStream_t; NULL on host backends */
  int device;                /* device ordinal (GPU backends) */
  int host_threads;          /* OpenMP threads to use */
  int64_t begin, end;        /* range patterns: [begin, end) */
  int64_t league_size;       /* team pattern */
  int team_size;             /* >= 1, or 0: AUTO, chosen by a GPU launcher from the kernel's
                                occupancy (host launchers always get 1) */
  int vector_length;         /* resolved, power of two, >= 1 */
  size_t scratch_team;       /* bytes of team scratch (16-byte aligned) */
  size_t scratch_thread;     /* bytes of scratch per team thread (16-byte aligned) */
  strata_reduce_op_t op;     /* reduce pattern */
  void *result;              /* reduce result / scan total (may be NULL for scan): host memory, or
                                exec memory when result_in_exec is set */
  int *team_size_query;      /* team pattern, GPU launchers: non-NULL asks only for the team size
                                the launch would use (AUTO resolved), stored here; nothing runs */
  int result_in_exec;        /* reduce: result is memory of exec's space (device memory on GPUs),
                                written in stream order with no copy to the host */
} strata_launch_t;

typedef strata_status_t (*strata_kernel_fn_t)(const strata_launch_t *launch, const void *args);

/** The per-kernel dispatch table, emitted by the kernel language (never written by hand). */
typedef struct strata_kernel {
  const char *name;
  strata_pattern_t pattern;
  strata_type_t value_type; /* reduce / scan value type; NONE otherwise */
  size_t args_size;
  strata_kernel_fn_t launch[STRATA_NUM_BACKENDS]; /* NULL: backend not compiled */
} strata_kernel_t;

/** Declares a kernel defined in some kernel source, for host code that launches it. */
#define STRATA_KERNEL_DECLARE(NAME) extern const strata_kernel_t NAME

#ifdef __cplusplus
}
#endif
#endif
