/* strata — the kernel language (DESIGN §2). Include this from kernel sources (*.kl.c) only.
 *
 * A kernel source is compiled once per enabled backend (strata_add_kernels), each time after that
 * backend's mapping header (backends/<b>/include/strata_kl_<b>.h). Kernel sources are written in
 * the common subset of C11 and C++17: no VLAs, no implicit void* conversions, no _Generic,
 * restrict only as STRATA_RESTRICT. Kokkos semantics unless stated.
 *
 * Defining kernels (a functor = an argument struct + a body; `A` names the const pointer to the
 * argument struct inside the body):
 *
 *   STRATA_FOR_KERNEL(name, args_t, A, i) { ... }                 body(A, int64_t i)
 *   STRATA_REDUCE_KERNEL(name, args_t, A, i, f64, acc) { ... }    body(A, i, strata_kl_f64 *acc):
 *        the body folds its contribution into *acc with the reduction's own operation
 *        (sum: *acc += v; min / max: strata_kl_min_s(acc, v) / strata_kl_max_s(acc, v), whose
 *        result does not depend on the order, ±0 included; a plain `if (v > *acc) *acc = v`
 *        works too, as in a Kokkos functor, but leaves the sign of a zero result to the order).
 *        Value types i32, i64, f32, f64 (ops SUM, MIN, MAX) and, for MINLOC / MAXLOC only (Kokkos
 *        MinLoc / MaxLoc), the (value, index) pairs i32loc, i64loc, f32loc, f64loc:
 *        strata_kl_f64loc = strata_f64loc_t { double val; int64_t loc; } (strata/types.h, so
 *        host code reads the result), and the body folds with one call:
 *          STRATA_REDUCE_KERNEL(argmin, args_t, A, i, f64loc, acc) { strata_kl_minloc_f64(acc, A->x[i], i); }
 *        strata_kl_minloc_s / strata_kl_maxloc_s(acc, v, idx) (s = i32, i64, f32, f64) keep the
 *        better value and, among equal values, the smallest index: the result (value and index)
 *        is the same on every backend and thread count. NaNs never win. Empty range (or no value
 *        better than the identity): val = +inf / the largest value (MINLOC), -inf / the lowest
 *        (MAXLOC), loc = INT64_MAX (Kokkos reduction_identity<index>::min(); not -1: the identity
 *        must lose every tie). strata_parallel_reduce refuses a loc type with SUM / MIN / MAX and
 *        a scalar type with MINLOC / MAXLOC. The loc types are for range reduce kernels only (not
 *        scan kernels, not the nested team reductions).
 *   STRATA_SCAN_KERNEL(name, args_t, A, i, i64, partial, final) { ... }
 *        body(A, i, strata_kl_i64 *partial, int final): Kokkos parallel_scan — when final is
 *        nonzero *partial holds the sum of all earlier contributions; the body adds its own
 *        contribution to *partial in every call (exclusive: read then add; inclusive: add then read).
 *        The contribution must not depend on *partial or final.
 *   STRATA_TEAM_KERNEL(name, args_t, A, team) { ... }             body(A, const strata_team_t *team)
 *   STRATA_TEAM_KERNEL_BOUNDS(name, args_t, A, team, MAXT, MINT) { ... }
 *        the same with launch bounds (Kokkos::LaunchBounds<MAXT, MINT>; CUDA __launch_bounds__):
 *        teams of at most MAXT threads x lanes, and registers capped so that MINT such teams fit a
 *        multiprocessor; the compiler may spill to reach it, so measure. A launch with a bigger
 *        team, or with an AUTO team and a vector_length above MAXT, is refused
 *        (STRATA_ERR_INVALID_POLICY, naming MAXT as the kernel's launch bound). HIP takes MAXT only (its
 *        second parameter counts waves per execution unit); host backends ignore both.
 *
 * Inside a team body. "Every thread" below means every thread and every vector lane of the team
 * (GPU: the whole block) must reach the call, with the same arguments (b, e, n uniform): those
 * constructs contain team barriers. "The thread's lanes" means all vector lanes of one team thread
 * must reach it with the same b and e. Ranges are half-open, [b, e); e <= b is empty.
 *   Loops (nested-parallel ranges):
 *   STRATA_TEAM_THREAD_RANGE(team, i, b, e) { ... }   the team's threads share [b, e) (each index
 *        once per thread; on GPUs all lanes of that thread run the body for it, redundantly)
 *   STRATA_THREAD_VECTOR_RANGE(team, j, b, e) { ... } one thread's vector lanes share [b, e)
 *   STRATA_TEAM_VECTOR_RANGE(team, j, b, e) { ... }   all threads x lanes of the team share it
 *   Reductions (reduce-form loops; OP is the token SUM, MIN or MAX; VT the value type i32, i64,
 *   f32 or f64; acc a local variable of that type, declared by the caller). The macro sets acc to
 *   OP's identity (SUM 0; MIN the largest value, +inf for f32/f64; MAX the lowest, -inf), the body
 *   folds its terms into acc with OP's own operation (SUM: acc += v; MIN: if (v < acc) acc = v;
 *   MAX: if (v > acc) acc = v), and afterwards every participant holds the result:
 *   STRATA_THREAD_VECTOR_REDUCE(team, j, b, e, OP, VT, acc) { ... }
 *        over one thread's lanes; called by the thread's lanes; result in each of its lanes
 *        (GPU: shuffles inside the lane group; OpenMP: `omp simd reduction(OP: acc)`).
 *   STRATA_THREAD_VECTOR_SUM(team, j, b, e, s) { s += ...; }
 *        the SUM form for any of the four types without naming it (s set to 0).
 *   STRATA_TEAM_THREAD_REDUCE(team, i, b, e, OP, VT, acc) { ... }
 *        the team's threads share [b, e) (as TEAM_THREAD_RANGE; the lanes of a thread run the body
 *        redundantly and the thread's value is counted once, taken from its lane 0); every thread
 *        must call it (barriers); the result goes to every thread and lane of the team.
 *   STRATA_TEAM_VECTOR_REDUCE(team, j, b, e, OP, VT, acc) { ... }
 *        all threads x lanes share [b, e) (as TEAM_VECTOR_RANGE); every thread must call it
 *        (barriers); the result goes to every thread and lane.
 *   Scans (Kokkos parallel_scan at the nested levels; exclusive prefix sums in the order of the
 *   index; s a local arithmetic variable, final an int the macro declares for the body):
 *   STRATA_THREAD_VECTOR_SCAN(team, j, b, e, s, final) { v = ...; if (final) out[j] = s; s += v; }
 *        over one thread's lanes; called by the thread's lanes.
 *   STRATA_TEAM_THREAD_SCAN(team, i, b, e, s, final) { ... }
 *        over the team's threads (lanes of a thread redundant, as TEAM_THREAD_RANGE); every
 *        thread must call it (barriers).
 *   STRATA_TEAM_VECTOR_SCAN(team, j, b, e, s, final) { ... }
 *        over all the team's threads x lanes (as TEAM_VECTOR_RANGE: each index in one lane,
 *        consecutive blocks of indices in thread-then-lane order); every thread must call it
 *        (barriers). Kokkos parallel_scan over TeamVectorRange.
 *        The body is called for each index once or twice: when final is nonzero s holds the sum
 *        of the contributions of all earlier indices of [b, e) (the exclusive prefix); in every
 *        call the body adds its own contribution to s (read s then add: exclusive; add then read:
 *        inclusive). The contribution must not depend on s or final. Afterwards s holds the total
 *        of the range in every participant. Host: one in-order pass with final = 1 (not
 *        vectorized); GPU: each lane / thread takes a contiguous block of indices, a pass with
 *        final = 0 sums the block, a shuffle (and for the team, shared-memory) scan of the block
 *        sums, then a pass with final = 1.
 *   Single and broadcast:
 *   strata_team_single(team)    nonzero on exactly one lane of the team (team rank 0, lane 0):
 *                               `if (strata_team_single(team)) { ... }` = Kokkos single(PerTeam).
 *   strata_thread_single(team)  nonzero on one lane of each thread (lane 0) = single(PerThread).
 *        Neither contains a barrier: follow a single(PerTeam) write that others read with
 *        strata_team_barrier or use a broadcast.
 *   strata_team_broadcast_i32 / _i64 / _f32 / _f64(team, v)
 *        every thread must call it (barriers); returns the v of team rank 0, lane 0 to all.
 *   strata_thread_vector_shuffle_i32 / _i64 / _f64(team, v, lane)
 *        every lane of one team thread calls it at the same point (no lane returned or waits
 *        elsewhere); returns the v of that thread's lane `lane` (0 <= lane < vector_length) to
 *        every lane (GPU: a shuffle inside the lane group; host: v, the thread's one lane).
 *   strata_team_barrier(team)   every thread; orders scratch (and global) writes within the team.
 *   Scratch: team->scratch (scratch_team bytes shared by the team), team->thread_scratch
 *        (scratch_thread bytes private to the team thread, shared by its lanes); 16-byte aligned:
 *        each size is rounded up to 16 bytes, and the rounded sizes count against the device's
 *        scratch limit (strata_team_policy_t).
 *   Team sort of (key, value) pairs: strata_team_sort_KS_VS(team, keys, values, n) for
 *        (KS, VS) in (i64, i64), (i32, i32), (i64, f64), (i32, f64): sorts keys[0, n) ascending
 *        and moves values with their keys (pairs with equal keys stay pairs; the order among equal
 *        keys is unspecified: not stable). Usually keys / values live in team scratch. Every
 *        thread must call it; it begins with a barrier (the team's earlier writes are seen) and
 *        ends with one (the sorted pairs are seen by all). Bitonic network over all threads x
 *        lanes: O(n log^2 n) compares, log2(n)(log2(n)+1)/2 barriers; n up to what fits scratch.
 * Anywhere in a body — atomics on memory the kernel can reach (global or scratch), for s in
 * i32, i64, f32, f64 (T the type); every one is a single atomic read-modify-write:
 *   void strata_atomic_add_s(T *p, T v)              *p += v
 *   T strata_atomic_fetch_add_s(T *p, T v)           *p += v, returns the old *p
 *   T strata_atomic_min_s(T *p, T v)                 *p = min(*p, v), returns the old *p
 *   T strata_atomic_max_s(T *p, T v)                 *p = max(*p, v), returns the old *p
 *        (f32/f64: the update happens only if v < *p (v > *p): a NaN is never stored by min/max
 *         and a NaN in *p stays)
 *   T strata_atomic_load_s(const T *p)               *p, read atomically (never torn; the read a
 *        CAS loop starts from — a plain read of memory other threads update is a data race, and
 *        compilers may read it twice)
 *   T strata_atomic_exchange_s(T *p, T v)            *p = v, returns the old *p
 *   T strata_atomic_cas_s(T *p, T expected, T desired)
 *        stores desired if *p equals expected, returns the old *p (success: the return equals
 *        expected). f32/f64 compare the bit patterns (+0 and -0 differ; a NaN can match).
 *   uint64_t strata_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired)  the same
 * Anywhere in a body (device code on GPUs) — a fence, not an atomic:
 *   void strata_memory_fence(void)   orders this thread's memory accesses across the whole device
 *        (global memory): those before it are seen by every thread before those after it
 *        (Kokkos::memory_fence; CUDA / HIP __threadfence, OpenMP flush). With an atomic ticket
 *        it lets the last of several teams read what the others wrote in the same launch:
 *        write, fence, take the ticket (fetch_add); the last one fences, then reads with
 *        strata_atomic_load_s (plain reads may come from a stale cache).
 *   STRATA_KL_VECTOR_MAX   a constant expression: the most lanes a team thread can have on this
 *        backend (the warp on GPUs, 1 on host backends), for sizing per-lane register arrays.
 *   void strata_kl_nanosleep(unsigned ns)   a pause of about ns nanoseconds (a hint, for the
 *        back-off of a loop polling another team's writes: fewer loads for the memory system to
 *        serve); CUDA __nanosleep (sm_70 on), HIP s_sleep; host backends return at once.
 *   Bit casts: strata_kl_f64_as_u64 / _u64_as_f64, strata_kl_f32_as_u32 / _u32_as_f32.
 *   STRATA_KL_FUNC                                   qualifier of helper functions
 *   strata_kl_lower_bound_i32/_i64(a, lo, hi, key)          first p in [lo, hi) with a[p] >= key
 *   strata_load_stream_s(p) / strata_load_cached_s(p)   *p with a cache hint (s in i32 i64 f32
 *        f64): stream for data read once (matrix entries), cached for read-only data read again
 *        (x); see their definitions below
 *   STRATA_KL_TEAM_FUNC                              qualifier of helpers that use team
 *                                                    constructs (device-only on GPUs)
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
/* (value, index) pairs of MINLOC / MAXLOC reduce kernels (strata/types.h, readable by host code) */
typedef strata_i32loc_t strata_kl_i32loc;
typedef strata_i64loc_t strata_kl_i64loc;
typedef strata_f32loc_t strata_kl_f32loc;
typedef strata_f64loc_t strata_kl_f64loc;
#define STRATA_KL_TYPEID_i32loc STRATA_TYPE_I32LOC
#define STRATA_KL_TYPEID_i64loc STRATA_TYPE_I64LOC
#define STRATA_KL_TYPEID_f32loc STRATA_TYPE_F32LOC
#define STRATA_KL_TYPEID_f64loc STRATA_TYPE_F64LOC

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
  void *internal;       /* the mapping's own (GPU: shared memory of team reductions, scans and
                           broadcasts, after the scratch); never used by kernels */
} strata_team_t;

/* Kokkos single(PerTeam) / single(PerThread) predicates (no barrier). */
#define strata_team_single(T) ((T)->team_rank == 0 && (T)->vector_rank == 0)
#define strata_thread_single(T) ((T)->vector_rank == 0)

/* Bit casts between double and uint64_t, float and uint32_t, for CAS loops on floating point
 * (memcpy: valid C and C++, and supported in CUDA and HIP device code). */
#define STRATA_KL_BITCASTS(f, F, u, U)                     \
  STRATA_KL_FUNC U strata_kl_##f##_as_##u(F v) {           \
    U r;                                                   \
    memcpy(&r, &v, sizeof r);                              \
    return r;                                              \
  }                                                        \
  STRATA_KL_FUNC F strata_kl_##u##_as_##f(U v) {           \
    F r;                                                   \
    memcpy(&r, &v, sizeof r);                              \
    return r;                                              \
  }
STRATA_KL_BITCASTS(f64, double, u64, uint64_t)
STRATA_KL_BITCASTS(f32, float, u32, uint32_t)
#undef STRATA_KL_BITCASTS

/* Identities and joins of the three reductions, per value type (Kokkos reduction_identity:
 * sum 0; min the largest value, +inf for floating point; max the lowest, -inf), and the MIN / MAX
 * folds of a reduce kernel's body:
 *   strata_kl_min_s(acc, v) / strata_kl_max_s(acc, v): fold v into *acc. Floating point: -0 is
 *   taken as below +0 and NaNs never win (every compare with a NaN is false), so the result does
 *   not depend on the order of folds and joins: the same on every backend and thread count (a
 *   plain `if (v < *acc) *acc = v` keeps whichever zero came first, so serial and OpenMP could
 *   differ in the sign of a zero minimum). The joins use the same rule. */
#define STRATA_KL_IDENTITY_JOIN(s, T, MAXV, LOWV, NEG)                                      \
  STRATA_KL_FUNC void strata_kl_min_##s(T *acc, T v) {                                      \
    if (v < *acc || (v == *acc && NEG(v))) *acc = v;                                        \
  }                                                                                         \
  STRATA_KL_FUNC void strata_kl_max_##s(T *acc, T v) {                                      \
    if (v > *acc || (v == *acc && !NEG(v))) *acc = v;                                       \
  }                                                                                         \
  STRATA_KL_FUNC T strata_kl_identity_##s(int op) {                                         \
    return op == STRATA_REDUCE_SUM ? (T)0 : op == STRATA_REDUCE_MIN ? (T)(MAXV) : (T)(LOWV); \
  }                                                                                         \
  STRATA_KL_FUNC T strata_kl_join_##s(int op, T a, T b) {                                   \
    if (op == STRATA_REDUCE_SUM) return a + b;                                              \
    if (op == STRATA_REDUCE_MIN)                                                            \
      strata_kl_min_##s(&a, b);                                                             \
    else                                                                                    \
      strata_kl_max_##s(&a, b);                                                             \
    return a;                                                                               \
  }
#define STRATA_KL_NEG_INT(v) 0
#define STRATA_KL_NEG_F64(v) (strata_kl_f64_as_u64(v) >> 63)
#define STRATA_KL_NEG_F32(v) (strata_kl_f32_as_u32(v) >> 31)
STRATA_KL_IDENTITY_JOIN(i32, int32_t, INT32_MAX, INT32_MIN, STRATA_KL_NEG_INT)
STRATA_KL_IDENTITY_JOIN(i64, int64_t, INT64_MAX, INT64_MIN, STRATA_KL_NEG_INT)
STRATA_KL_IDENTITY_JOIN(f32, float, __builtin_inff(), -__builtin_inff(), STRATA_KL_NEG_F32)
STRATA_KL_IDENTITY_JOIN(f64, double, __builtin_inf(), -__builtin_inf(), STRATA_KL_NEG_F64)
#undef STRATA_KL_IDENTITY_JOIN
#undef STRATA_KL_NEG_INT
#undef STRATA_KL_NEG_F64
#undef STRATA_KL_NEG_F32

/* MINLOC / MAXLOC (Kokkos MinLoc / MaxLoc, with Kokkos MinFirstLoc's tie rule for both): the
 * better value wins, and among equal values the smaller index, so the result does not depend on
 * the order of folds and joins (the same on every backend). NaN values never win (every compare
 * with a NaN is false). Identity (Kokkos reduction_identity of MinLoc / MaxLoc): val = the MIN /
 * MAX identity, loc = INT64_MAX (reduction_identity<int64_t>::min()) — it loses every tie, so it
 * is a true identity; an empty range (or one where no value beats the identity, e.g. only NaNs)
 * gives it back.
 *   strata_kl_minloc_s(acc, v, i) / strata_kl_maxloc_s(acc, v, i): fold (v, i) into *acc — the
 *   one line of a MINLOC / MAXLOC kernel body. */
#define STRATA_KL_LOC_OPS(s, T, MAXV, LOWV)                                                   \
  STRATA_KL_FUNC void strata_kl_minloc_##s(strata_kl_##s##loc *acc, T v, int64_t i) {        \
    if (v < acc->val || (v == acc->val && i < acc->loc)) {                                    \
      acc->val = v;                                                                           \
      acc->loc = i;                                                                           \
    }                                                                                         \
  }                                                                                           \
  STRATA_KL_FUNC void strata_kl_maxloc_##s(strata_kl_##s##loc *acc, T v, int64_t i) {        \
    if (v > acc->val || (v == acc->val && i < acc->loc)) {                                    \
      acc->val = v;                                                                           \
      acc->loc = i;                                                                           \
    }                                                                                         \
  }                                                                                           \
  STRATA_KL_FUNC strata_kl_##s##loc strata_kl_identity_##s##loc(int op) {                    \
    strata_kl_##s##loc r;                                                                     \
    r.val = op == STRATA_REDUCE_MAXLOC ? (T)(LOWV) : (T)(MAXV);                               \
    r.loc = INT64_MAX;                                                                        \
    return r;                                                                                 \
  }                                                                                           \
  STRATA_KL_FUNC strata_kl_##s##loc strata_kl_join_##s##loc(int op, strata_kl_##s##loc a,    \
                                                            strata_kl_##s##loc b) {          \
    if (op == STRATA_REDUCE_MAXLOC)                                                           \
      strata_kl_maxloc_##s(&a, b.val, b.loc);                                                 \
    else                                                                                      \
      strata_kl_minloc_##s(&a, b.val, b.loc);                                                 \
    return a;                                                                                 \
  }
STRATA_KL_LOC_OPS(i32, int32_t, INT32_MAX, INT32_MIN)
STRATA_KL_LOC_OPS(i64, int64_t, INT64_MAX, INT64_MIN)
STRATA_KL_LOC_OPS(f32, float, __builtin_inff(), -__builtin_inff())
STRATA_KL_LOC_OPS(f64, double, __builtin_inf(), -__builtin_inf())
#undef STRATA_KL_LOC_OPS


/* Load hints (the value is the plain *p on every backend; only cache placement differs):
 *   strata_load_stream_s(p)  a value the kernel reads once (a matrix entry streamed through):
 *        CUDA ld.global.cs (__ldcs: evict first, so that reused data such as x stays in L2),
 *        HIP a nontemporal load, host a plain load;
 *   strata_load_cached_s(p)  read-only data the kernel may read again (x of an SpMV): CUDA the
 *        read-only path (__ldg), HIP and host a plain load.
 * The memory must not be written during the kernel (neither hint is coherent with such writes). */
#if defined(__CUDA_ARCH__)
#define STRATA_KL_LOADS(s, T, C)                                                                    \
  STRATA_KL_FUNC T strata_load_stream_##s(const T *p) { return (T)__ldcs((const C *)p); }           \
  STRATA_KL_FUNC T strata_load_cached_##s(const T *p) { return (T)__ldg((const C *)p); }
#elif defined(__HIP_DEVICE_COMPILE__)
#define STRATA_KL_LOADS(s, T, C)                                                                    \
  STRATA_KL_FUNC T strata_load_stream_##s(const T *p) { return __builtin_nontemporal_load(p); }     \
  STRATA_KL_FUNC T strata_load_cached_##s(const T *p) { return *p; }
#else
#define STRATA_KL_LOADS(s, T, C)                                                                    \
  STRATA_KL_FUNC T strata_load_stream_##s(const T *p) { return *p; }                                \
  STRATA_KL_FUNC T strata_load_cached_##s(const T *p) { return *p; }
#endif
STRATA_KL_LOADS(i32, int32_t, int)
STRATA_KL_LOADS(i64, int64_t, long long)
STRATA_KL_LOADS(f32, float, float)
STRATA_KL_LOADS(f64, double, double)
#undef STRATA_KL_LOADS

/* Binary search: the first position p in [lo, hi) with a[p] >= key (hi if none), a sorted
 * ascending (std::lower_bound). For row offsets, sorted keys and fill-complete rows. */
#define STRATA_KL_LOWER_BOUND(s, T)                                                             \
  STRATA_KL_FUNC int64_t strata_kl_lower_bound_##s(const T *a, int64_t lo, int64_t hi, int64_t key) { \
    while (lo < hi) {                                                                           \
      const int64_t mid = lo + (hi - lo) / 2;                                                   \
      if ((int64_t)a[mid] < key)                                                                \
        lo = mid + 1;                                                                           \
      else                                                                                      \
        hi = mid;                                                                               \
    }                                                                                           \
    return lo;                                                                                  \
  }
STRATA_KL_LOWER_BOUND(i32, int32_t)
STRATA_KL_LOWER_BOUND(i64, int64_t)
#undef STRATA_KL_LOWER_BOUND

/* The backend's dispatch-table hook (defined only by the serial mapping, which emits the table;
 * the other mappings define it empty). */
#ifndef STRATA_KL_TABLE
#define STRATA_KL_TABLE(NAME, PATTERN, TYPEID, ARGS_T)
#endif

#endif
