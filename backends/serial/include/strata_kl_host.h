/* strata kernel language — what the two host mappings (serial, OpenMP) share: a team is one OS
 * thread with one lane, so team-level reductions and scans are plain loops and a broadcast is the
 * value itself. Included by strata_kl_serial.h and strata_kl_openmp.h after they define two hooks:
 *   STRATA_KL_HOST_SIMD_REDUCE(OP, ACC)  what precedes a vector reduce loop (OpenMP: `omp simd
 *                                        reduction(op: acc)`; serial: nothing)
 *   STRATA_KL_HOST_ATOMIC(clauses)       what makes the next statement atomic (OpenMP: `omp atomic
 *                                        clauses`; serial: nothing)
 *   STRATA_KL_HOST_FENCE                 a memory fence statement (OpenMP: `omp flush`; serial:
 *                                        nothing) */
#ifndef STRATA_KL_HOST_H
#define STRATA_KL_HOST_H

#if !defined(STRATA_KL_HOST_SIMD_REDUCE) || !defined(STRATA_KL_HOST_ATOMIC) || !defined(STRATA_KL_HOST_FENCE)
#error "include strata_kl_serial.h or strata_kl_openmp.h, not strata_kl_host.h"
#endif


/* --- reductions: acc = identity, the loop folds, the team of one holds the result ----------- */
#define STRATA_KL_HOST_REDUCE_(J, B, E, OP, VT, ACC)                                        \
  for (int strata_once_ = ((ACC) = strata_kl_identity_##VT(STRATA_REDUCE_##OP), 1); strata_once_; \
       strata_once_ = 0)
#define STRATA_THREAD_VECTOR_REDUCE(T, J, B, E, OP, VT, ACC) \
  STRATA_KL_HOST_REDUCE_(J, B, E, OP, VT, ACC)               \
  STRATA_KL_HOST_SIMD_REDUCE(OP, ACC) for (int64_t J = (B); J < (E); ++J)
#define STRATA_TEAM_VECTOR_REDUCE(T, J, B, E, OP, VT, ACC) \
  STRATA_KL_HOST_REDUCE_(J, B, E, OP, VT, ACC)             \
  STRATA_KL_HOST_SIMD_REDUCE(OP, ACC) for (int64_t J = (B); J < (E); ++J)
/* no simd: the body of a team-thread loop may hold vector loops of its own */
#define STRATA_TEAM_THREAD_REDUCE(T, I, B, E, OP, VT, ACC) \
  STRATA_KL_HOST_REDUCE_(I, B, E, OP, VT, ACC) for (int64_t I = (B); I < (E); ++I)

/* --- scans: one in-order pass with final = 1; s ends as the total --------------------------- */
#define STRATA_KL_HOST_SCAN_(J, B, E, S, FINAL)              \
  for (int FINAL = ((S) = 0, 1); FINAL; FINAL = 0)           \
    for (int64_t J = (B); J < (E); ++J)
#define STRATA_THREAD_VECTOR_SCAN(T, J, B, E, S, FINAL) STRATA_KL_HOST_SCAN_(J, B, E, S, FINAL)
#define STRATA_TEAM_THREAD_SCAN(T, I, B, E, S, FINAL) STRATA_KL_HOST_SCAN_(I, B, E, S, FINAL)
#define STRATA_TEAM_VECTOR_SCAN(T, J, B, E, S, FINAL) STRATA_KL_HOST_SCAN_(J, B, E, S, FINAL)

/* --- broadcast from team rank 0: the team is that rank ------------------------------------ */
#define STRATA_KL_HOST_BROADCAST_(s, TYPE)                                                  \
  STRATA_KL_FUNC TYPE strata_team_broadcast_##s(const strata_team_t *t, TYPE v) { \
    (void)t;                                                                                \
    return v;                                                                               \
  }
STRATA_KL_HOST_BROADCAST_(i32, int32_t)
STRATA_KL_HOST_BROADCAST_(i64, int64_t)
STRATA_KL_HOST_BROADCAST_(f32, float)
STRATA_KL_HOST_BROADCAST_(f64, double)
#undef STRATA_KL_HOST_BROADCAST_

/* --- a shuffle among a thread's lanes: the thread has one lane ------------------------------ */
#define STRATA_KL_HOST_SHUFFLE_(s, TYPE)                                                          \
  STRATA_KL_FUNC TYPE strata_thread_vector_shuffle_##s(const strata_team_t *t, TYPE v, int64_t lane) { \
    (void)t;                                                                                      \
    (void)lane;                                                                                   \
    return v;                                                                                     \
  }
STRATA_KL_HOST_SHUFFLE_(i32, int32_t)
STRATA_KL_HOST_SHUFFLE_(i64, int64_t)
STRATA_KL_HOST_SHUFFLE_(f64, double)
#undef STRATA_KL_HOST_SHUFFLE_

/* --- scan sums: integers wrap as two's complement (no signed overflow), floating point adds --- */
STRATA_KL_FUNC int32_t strata_kl_scan_add_i32(int32_t x, int32_t y) { return (int32_t)((uint32_t)x + (uint32_t)y); }
STRATA_KL_FUNC int64_t strata_kl_scan_add_i64(int64_t x, int64_t y) { return (int64_t)((uint64_t)x + (uint64_t)y); }
STRATA_KL_FUNC float strata_kl_scan_add_f32(float x, float y) { return x + y; }
STRATA_KL_FUNC double strata_kl_scan_add_f64(double x, double y) { return x + y; }

/* --- atomics ---------------------------------------------------------------------------------- */
/* OpenMP 5.1 `atomic compare` (gcc >= 12) for integer min / max and CAS. `(void)` on a parameter used only
 * inside an atomic compare: gcc 12 warns "set but not used" otherwise. */
#define STRATA_KL_HOST_ATOMICS_(s, TYPE)                                                   \
  STRATA_KL_FUNC void strata_atomic_add_##s(TYPE *p, TYPE v) {                             \
    STRATA_KL_HOST_ATOMIC(update)                                                          \
    *p += v;                                                                               \
  }                                                                                        \
  STRATA_KL_FUNC TYPE strata_atomic_fetch_add_##s(TYPE *p, TYPE v) {                       \
    TYPE old;                                                                              \
    STRATA_KL_HOST_ATOMIC(capture)                                                         \
    { old = *p; *p += v; }                                                                 \
    return old;                                                                            \
  }                                                                                        \
  STRATA_KL_FUNC TYPE strata_atomic_exchange_##s(TYPE *p, TYPE v) {                        \
    TYPE old;                                                                              \
    STRATA_KL_HOST_ATOMIC(capture)                                                         \
    { old = *p; *p = v; }                                                                  \
    return old;                                                                            \
  }                                                                                        \
  STRATA_KL_FUNC TYPE strata_atomic_load_##s(const TYPE *p) {                              \
    TYPE v;                                                                                \
    STRATA_KL_HOST_ATOMIC(read)                                                            \
    v = *p;                                                                                \
    return v;                                                                              \
  }
/* the fence (strata/kl.h): OpenMP flush; one serial thread has nothing to order */
STRATA_KL_FUNC void strata_memory_fence(void) { STRATA_KL_HOST_FENCE }
/* the most lanes a team thread can have (strata/kl.h): one on host backends */
#define STRATA_KL_VECTOR_MAX 1
/* the pause (strata/kl.h): none on host backends (a spinning thread there loads from its own core's cache) */
STRATA_KL_FUNC void strata_kl_nanosleep(unsigned ns) { (void)ns; }

STRATA_KL_HOST_ATOMICS_(i32, int32_t)
STRATA_KL_HOST_ATOMICS_(i64, int64_t)
STRATA_KL_HOST_ATOMICS_(f32, float)
STRATA_KL_HOST_ATOMICS_(f64, double)
#undef STRATA_KL_HOST_ATOMICS_

/* integer min / max: OpenMP atomic compare */
#define STRATA_KL_HOST_MINMAX_INT_(s, TYPE)                                                \
  STRATA_KL_FUNC TYPE strata_atomic_min_##s(TYPE *p, TYPE v) {                             \
    TYPE old;                                                                              \
    (void)v;                                                                               \
    STRATA_KL_HOST_ATOMIC(compare capture)                                                 \
    { old = *p; if (v < *p) { *p = v; } }                                                  \
    return old;                                                                            \
  }                                                                                        \
  STRATA_KL_FUNC TYPE strata_atomic_max_##s(TYPE *p, TYPE v) {                             \
    TYPE old;                                                                              \
    (void)v;                                                                               \
    STRATA_KL_HOST_ATOMIC(compare capture)                                                 \
    { old = *p; if (v > *p) { *p = v; } }                                                  \
    return old;                                                                            \
  }
STRATA_KL_HOST_MINMAX_INT_(i32, int32_t)
STRATA_KL_HOST_MINMAX_INT_(i64, int64_t)
#undef STRATA_KL_HOST_MINMAX_INT_

/* CAS on the bit pattern, through integer views that may alias any object */
typedef uint32_t __attribute__((__may_alias__)) strata_kl_u32_alias;
typedef uint64_t __attribute__((__may_alias__)) strata_kl_u64_alias;
#define STRATA_KL_HOST_CAS_(u, U)                                                               \
  STRATA_KL_FUNC U strata_kl_host_cas_##u(U *p, U expected, U desired) {                        \
    U old;                                                                                      \
    (void)desired;                                                                              \
    STRATA_KL_HOST_ATOMIC(compare capture)                                                      \
    { old = *p; if (*p == expected) { *p = desired; } }                                         \
    return old;                                                                                 \
  }
STRATA_KL_HOST_CAS_(u32, strata_kl_u32_alias)
STRATA_KL_HOST_CAS_(u64, strata_kl_u64_alias)
#undef STRATA_KL_HOST_CAS_
STRATA_KL_FUNC uint64_t strata_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired) {
  return strata_kl_host_cas_u64(p, expected, desired);
}
STRATA_KL_FUNC int32_t strata_atomic_cas_i32(int32_t *p, int32_t expected, int32_t desired) {
  return (int32_t)strata_kl_host_cas_u32((strata_kl_u32_alias *)p, (uint32_t)expected,
                                         (uint32_t)desired);
}
STRATA_KL_FUNC int64_t strata_atomic_cas_i64(int64_t *p, int64_t expected, int64_t desired) {
  return (int64_t)strata_kl_host_cas_u64((strata_kl_u64_alias *)p, (uint64_t)expected,
                                         (uint64_t)desired);
}
STRATA_KL_FUNC float strata_atomic_cas_f32(float *p, float expected, float desired) {
  return strata_kl_u32_as_f32(strata_kl_host_cas_u32(
      (strata_kl_u32_alias *)p, strata_kl_f32_as_u32(expected), strata_kl_f32_as_u32(desired)));
}
STRATA_KL_FUNC double strata_atomic_cas_f64(double *p, double expected, double desired) {
  return strata_kl_u64_as_f64(strata_kl_host_cas_u64(
      (strata_kl_u64_alias *)p, strata_kl_f64_as_u64(expected), strata_kl_f64_as_u64(desired)));
}

/* floating-point min / max: a CAS loop with kl.h's comparison (the update happens only if
 * v < *p, resp. v > *p), so that a NaN is never stored, a NaN in *p stays and signed zeros are
 * left alone. gcc 12 compiles `atomic compare` on doubles to minsd / maxsd, which does neither
 * (a newcomer review found min(2, NaN) = NaN and max(NaN, 1) = 1 on OpenMP). */
#define STRATA_KL_HOST_MINMAX_FP_(s, TYPE, u, U)                                              \
  STRATA_KL_FUNC TYPE strata_kl_host_minmax_##s(TYPE *p, TYPE v, int is_max) {               \
    U cur = strata_kl_##s##_as_##u(strata_atomic_load_##s(p));                               \
    for (;;) {                                                                               \
      const TYPE c = strata_kl_##u##_as_##s(cur);                                            \
      if (!(is_max ? v > c : v < c)) return c;                                               \
      const U prev = strata_kl_host_cas_##u((strata_kl_##u##_alias *)p, cur, strata_kl_##s##_as_##u(v)); \
      if (prev == cur) return c;                                                             \
      cur = prev;                                                                            \
    }                                                                                        \
  }                                                                                          \
  STRATA_KL_FUNC TYPE strata_atomic_min_##s(TYPE *p, TYPE v) { return strata_kl_host_minmax_##s(p, v, 0); } \
  STRATA_KL_FUNC TYPE strata_atomic_max_##s(TYPE *p, TYPE v) { return strata_kl_host_minmax_##s(p, v, 1); }
STRATA_KL_HOST_MINMAX_FP_(f32, float, u32, uint32_t)
STRATA_KL_HOST_MINMAX_FP_(f64, double, u64, uint64_t)
#undef STRATA_KL_HOST_MINMAX_FP_

#endif
