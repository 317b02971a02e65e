/* strata — the kernel language (DESIGN §2). Include this from kernel sources (*.kl.c) only.
 *
 * A kernel source is compiled once per enabled backend (strata_add_kernels), each time after that
 * backend's mapping header (backends/<b>/include/strata_kl_<b>.h). Kernel sources are written in
 * the common subset of C11 and C++17: no VLAs, no implicit void* conversions, no _Generic,
 * restrict only as STRATA_RESTRICT.
 *
 * Defining kernels (a functor = an argument struct + a body; `A` names the const pointer to the
 * argument struct inside the body):
 *
 *   STRATA_FOR_KERNEL(name, args_t, A, i) { ... }                 body(A, int64_t i)
 *   STRATA_REDUCE_KERNEL(name, args_t, A, i, f64, acc) { ... }    body(A, i, strata_kl_f64 *acc):
 *        the body folds its contribution into *acc with the reduction's own operation
 *        (sum: *acc += v; max: if (v > *acc) *acc = v), as a Kokkos functor does.
 *   STRATA_SCAN_KERNEL(name, args_t, A, i, i64, partial, final) { ... }
 *        body(A, i, strata_kl_i64 *partial, int final): Kokkos parallel_scan — when final is
 *        nonzero *partial holds the sum of all earlier contributions; the body adds its own
 *        contribution to *partial in every call (exclusive: read then add; inclusive: add then read).
 *        The contribution must not depend on *partial or final.
 *   STRATA_TEAM_KERNEL(name, args_t, A, team) { ... }             body(A, const strata_team_t *team)
 *
 * Inside a team body:
 *   STRATA_TEAM_THREAD_RANGE(team, i, begin, end) { ... }   the team's threads share [begin, end)
 *   STRATA_THREAD_VECTOR_RANGE(team, j, begin, end) { ... } one thread's vector lanes share it
 *   STRATA_TEAM_VECTOR_RANGE(team, j, begin, end) { ... }   all threads × lanes of the team share it
 *   STRATA_THREAD_VECTOR_SUM(team, j, begin, end, s) { s += ...; }
 *        reduce-form vector loop: sets s to 0, each lane adds its terms, and afterwards every lane
 *        of the thread holds the total (warp shuffles on GPUs, `omp simd reduction` on OpenMP).
 *        s is a double, float, int32_t or int64_t lvalue declared by the caller.
 *   strata_team_barrier(team)                               all threads of the team
 *   team->scratch, team->thread_scratch                     team / per-thread scratch memory
 * Anywhere in a body:
 *   strata_atomic_add_f64(double *p, double v), strata_atomic_add_i64, strata_atomic_add_i32
 *   strata_atomic_fetch_add_i64(int64_t *p, int64_t v)       returns the value before the add
 *   strata_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired)
 *        stores desired if *p == expected; returns the value *p had (CAS loops: compare the
 *        return with expected). For doubles, CAS on the bits: strata_kl_f64_as_u64 / _u64_as_f64.
 *   STRATA_KL_FUNC                                          qualifier of helper functions
 *   STRATA_KL_TEAM_FUNC                                     qualifier of helpers that use team
 *                                                           constructs (device-only on GPUs)
 * Declaring a kernel for host code: STRATA_KERNEL_DECLARE(name) (strata/kernel.h).
 */
#ifndef STRATA_KL_H
#define STRATA_KL_H

#ifndef STRATA_KL_MAPPING
#error "kernel sources are compiled through strata_add_kernels(), which includes a backend mapping header first"
#endif

#include <math.h>
#include <string.h>

#include "strata/kernel.h"

#ifdef __cplusplus
#define STRATA_KL_EXTERN_C extern "C"
#else
#define STRATA_KL_EXTERN_C
#endif

#define STRATA_KL_CAT_(a, b) a##b
#define STRATA_KL_CAT(a, b) STRATA_KL_CAT_(a, b)
#define STRATA_KL_PRAGMA(x) _Pragma(#x)

/* Qualifier of helper functions that use team-level constructs (barriers, vector reductions):
 * device-only on GPUs, where STRATA_KL_FUNC is host+device. */
#ifndef STRATA_KL_TEAM_FUNC
#define STRATA_KL_TEAM_FUNC STRATA_KL_FUNC
#endif

/* Value types by suffix, for reduce and scan kernels. */
typedef int32_t strata_kl_i32;
typedef int64_t strata_kl_i64;
typedef float strata_kl_f32;
typedef double strata_kl_f64;
#define STRATA_KL_TYPEID_i32 STRATA_TYPE_I32
#define STRATA_KL_TYPEID_i64 STRATA_TYPE_I64
#define STRATA_KL_TYPEID_f32 STRATA_TYPE_F32
#define STRATA_KL_TYPEID_f64 STRATA_TYPE_F64

/** What a team body sees of its team (Kokkos TeamMember). */
typedef struct strata_team {
  int64_t league_rank;  /* this team's index in [0, league_size) */
  int64_t league_size;
  int team_rank;        /* this thread's index in [0, team_size) */
  int team_size;
  int vector_rank;      /* this lane's index in [0, vector_length); 0 on host */
  int vector_length;
  void *scratch;        /* scratch_team bytes shared by the team, 16-byte aligned */
  void *thread_scratch; /* scratch_thread bytes private to this team thread, 16-byte aligned */
} strata_team_t;

/* Identities and joins of the three reductions, per value type (Kokkos reduction_identity:
 * sum 0; min the largest value, +inf for floating point; max the lowest, -inf). */
#define STRATA_KL_IDENTITY_JOIN(s, T, MAXV, LOWV)                                           \
  STRATA_KL_FUNC T strata_kl_identity_##s(int op) {                                         \
    return op == STRATA_REDUCE_SUM ? (T)0 : op == STRATA_REDUCE_MIN ? (T)(MAXV) : (T)(LOWV); \
  }                                                                                         \
  STRATA_KL_FUNC T strata_kl_join_##s(int op, T a, T b) {                                   \
    return op == STRATA_REDUCE_SUM ? a + b                                                  \
           : op == STRATA_REDUCE_MIN ? (b < a ? b : a)                                      \
                                     : (b > a ? b : a);                                     \
  }
STRATA_KL_IDENTITY_JOIN(i32, int32_t, INT32_MAX, INT32_MIN)
STRATA_KL_IDENTITY_JOIN(i64, int64_t, INT64_MAX, INT64_MIN)
STRATA_KL_IDENTITY_JOIN(f32, float, __builtin_inff(), -__builtin_inff())
STRATA_KL_IDENTITY_JOIN(f64, double, __builtin_inf(), -__builtin_inf())
#undef STRATA_KL_IDENTITY_JOIN

/* Bit casts between double and uint64_t, for CAS loops on doubles (memcpy: valid C and C++, and
 * supported in CUDA and HIP device code). */
STRATA_KL_FUNC uint64_t strata_kl_f64_as_u64(double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return u;
}
STRATA_KL_FUNC double strata_kl_u64_as_f64(uint64_t u) {
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* The backend's dispatch-table hook (defined only by the serial mapping, which emits the table;
 * the other mappings define it empty). */
#ifndef STRATA_KL_TABLE
#define STRATA_KL_TABLE(NAME, PATTERN, TYPEID, ARGS_T)
#endif

#endif
