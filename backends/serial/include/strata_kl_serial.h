/* strata kernel language — serial mapping: one host thread, every level a plain loop.
 * The serial pass also emits each kernel's dispatch table (strata_kernel_t), naming the launcher
 * of every backend this build compiled (strata/config.h). It is the reference every other backend
 * is tested against. */
#ifndef STRATA_KL_SERIAL_H
#define STRATA_KL_SERIAL_H

#define STRATA_KL_MAPPING "serial"
#define STRATA_KL_BACKEND_SERIAL 1
#define STRATA_KL_FUNC static inline
#define STRATA_RESTRICT restrict

#include <stdint.h>
#include <stdlib.h>

#include "strata/config.h"
#include "strata/kernel.h"

/* --- dispatch table: a launcher per compiled backend, NULL for the others ------------------ */
#if STRATA_HAVE_OPENMP
#define STRATA_KL_DECL_OPENMP_(N) strata_status_t N##__openmp(const strata_launch_t *, const void *);
#define STRATA_KL_REF_OPENMP_(N) N##__openmp
#else
#define STRATA_KL_DECL_OPENMP_(N)
#define STRATA_KL_REF_OPENMP_(N) NULL
#endif
#if STRATA_HAVE_CUDA
#define STRATA_KL_DECL_CUDA_(N) strata_status_t N##__cuda(const strata_launch_t *, const void *);
#define STRATA_KL_REF_CUDA_(N) N##__cuda
#else
#define STRATA_KL_DECL_CUDA_(N)
#define STRATA_KL_REF_CUDA_(N) NULL
#endif
#if STRATA_HAVE_HIP
#define STRATA_KL_DECL_HIP_(N) strata_status_t N##__hip(const strata_launch_t *, const void *);
#define STRATA_KL_REF_HIP_(N) N##__hip
#else
#define STRATA_KL_DECL_HIP_(N)
#define STRATA_KL_REF_HIP_(N) NULL
#endif

#define STRATA_KL_TABLE(NAME, PATTERN, TYPEID, ARGS_T)                                       \
  STRATA_KL_DECL_OPENMP_(NAME) STRATA_KL_DECL_CUDA_(NAME) STRATA_KL_DECL_HIP_(NAME)          \
  const strata_kernel_t NAME = {#NAME, PATTERN, TYPEID, sizeof(ARGS_T),                      \
                                {NAME##__serial, STRATA_KL_REF_OPENMP_(NAME),                \
                                 STRATA_KL_REF_CUDA_(NAME), STRATA_KL_REF_HIP_(NAME)}};

#include "strata/kl.h"

/* --- patterns -------------------------------------------------------------------------------- */
#define STRATA_FOR_KERNEL(NAME, ARGS_T, A, I)                                              \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I);             \
  strata_status_t NAME##__serial(const strata_launch_t *L, const void *args_) {            \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                              \
    for (int64_t i_ = L->begin; i_ < L->end; ++i_) NAME##__body(a_, i_);                   \
    return STRATA_SUCCESS;                                                                 \
  }                                                                                        \
  STRATA_KL_TABLE(NAME, STRATA_PATTERN_FOR, STRATA_TYPE_NONE, ARGS_T)                      \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I)

#define STRATA_REDUCE_KERNEL(NAME, ARGS_T, A, I, VT, ACC)                                      \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *ACC);                                         \
  strata_status_t NAME##__serial(const strata_launch_t *L, const void *args_) {                \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                                  \
    strata_kl_##VT acc_ = strata_kl_identity_##VT((int)L->op);                                 \
    for (int64_t i_ = L->begin; i_ < L->end; ++i_) NAME##__body(a_, i_, &acc_);               \
    *(strata_kl_##VT *)L->result = acc_;                                                       \
    return STRATA_SUCCESS;                                                                     \
  }                                                                                            \
  STRATA_KL_TABLE(NAME, STRATA_PATTERN_REDUCE, STRATA_KL_TYPEID_##VT, ARGS_T)                  \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, strata_kl_##VT *ACC)

#define STRATA_SCAN_KERNEL(NAME, ARGS_T, A, I, VT, PARTIAL, FINAL)                             \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *PARTIAL, int FINAL);                          \
  strata_status_t NAME##__serial(const strata_launch_t *L, const void *args_) {                \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                                  \
    strata_kl_##VT acc_ = 0;                                                                   \
    for (int64_t i_ = L->begin; i_ < L->end; ++i_) NAME##__body(a_, i_, &acc_, 1);            \
    if (L->result) *(strata_kl_##VT *)L->result = acc_;                                        \
    return STRATA_SUCCESS;                                                                     \
  }                                                                                            \
  STRATA_KL_TABLE(NAME, STRATA_PATTERN_SCAN, STRATA_KL_TYPEID_##VT, ARGS_T)                    \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *PARTIAL, int FINAL)

/* Host team backends: team scratch then thread scratch, one 64-byte aligned block per OS thread,
 * `stride` bytes apart, cached in the execution space (runtime, core/src/exec.c). */
strata_status_t strata_impl_host_scratch(const strata_launch_t *L, int threads, char **base,
                                         size_t *stride);

/* launch bounds are a GPU register hint: the host ignores them */
#define STRATA_TEAM_KERNEL_BOUNDS(NAME, ARGS_T, A, TEAM, MAXT, MINT) STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM)
#define STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM)                                           \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, const strata_team_t *TEAM); \
  strata_status_t NAME##__serial(const strata_launch_t *L, const void *args_) {             \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                               \
    char *s_ = NULL;                                                                        \
    size_t stride_ = 0;                                                                     \
    strata_status_t st_ = strata_impl_host_scratch(L, 1, &s_, &stride_);                    \
    if (st_ != STRATA_SUCCESS) return st_;                                                  \
    strata_team_t t_ = {0, L->league_size, 0, 1, 0, 1, s_, s_ + L->scratch_team, NULL};            \
    for (int64_t r_ = 0; r_ < L->league_size; ++r_) {                                       \
      t_.league_rank = r_;                                                                  \
      NAME##__body(a_, &t_);                                                                \
    }                                                                                       \
    return STRATA_SUCCESS;                                                                  \
  }                                                                                         \
  STRATA_KL_TABLE(NAME, STRATA_PATTERN_TEAM, STRATA_TYPE_NONE, ARGS_T)                      \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, const strata_team_t *TEAM)

/* --- nested levels: all plain loops ------------------------------------------------------- */
#define STRATA_TEAM_THREAD_RANGE(T, I, B, E) for (int64_t I = (B); I < (E); ++I)
#define STRATA_THREAD_VECTOR_RANGE(T, J, B, E) for (int64_t J = (B); J < (E); ++J)
#define STRATA_TEAM_VECTOR_RANGE(T, J, B, E) for (int64_t J = (B); J < (E); ++J)
#define STRATA_THREAD_VECTOR_SUM(T, J, B, E, ACC) \
  for (int strata_once_ = ((ACC) = 0, 1); strata_once_; strata_once_ = 0) \
    for (int64_t J = (B); J < (E); ++J)
#define strata_team_barrier(T) ((void)(T))

/* reductions, scans, broadcasts, atomics (strata_kl_host.h): plain code */
#define STRATA_KL_HOST_SIMD_REDUCE(OP, ACC)
#define STRATA_KL_HOST_ATOMIC(clauses)
#define STRATA_KL_HOST_FENCE
#include "strata_kl_host.h"
#include "strata/kl_team_sort.h"

#endif
