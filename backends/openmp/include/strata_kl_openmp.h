/* strata kernel language — OpenMP mapping (DESIGN §2 table): range patterns are `omp parallel`
 * loops over static chunks (reductions and scans split the range into host_threads chunks, the
 * exec's thread count, and combine the chunks' partials in chunk order, so that results are
 * deterministic for a fixed thread count even when OpenMP grants fewer threads: OMP_DYNAMIC,
 * OMP_THREAD_LIMIT); a league is shared among OS threads with a
 * dynamic schedule, one OS thread per team (team_size 1); vector lanes are `omp simd` lanes. */
#ifndef STRATA_KL_OPENMP_H
#define STRATA_KL_OPENMP_H

#define STRATA_KL_MAPPING "openmp"
#define STRATA_KL_BACKEND_OPENMP 1
#define STRATA_KL_FUNC static inline
#define STRATA_RESTRICT restrict

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#include "strata/config.h"
#include "strata/kernel.h"
#include "strata/kl.h"

strata_status_t strata_impl_host_scratch(const strata_launch_t *L, int threads, char **base,
                                         size_t *stride);
strata_status_t strata_impl_host_partials(const strata_launch_t *L, size_t bytes, void **buf);

/* [b, e) split into nth static chunks; chunk t is [*cb, *ce). */
static inline void strata_kl_omp_chunk(int64_t b, int64_t e, int t, int nth, int64_t *cb,
                                       int64_t *ce) {
  int64_t n = e - b, q = n / nth, r = n % nth;
  *cb = b + q * t + (t < r ? t : r);
  *ce = *cb + q + (t < r ? 1 : 0);
}

#define STRATA_FOR_KERNEL(NAME, ARGS_T, A, I)                                              \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I);             \
  strata_status_t NAME##__openmp(const strata_launch_t *L, const void *args_) {            \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                              \
    const int64_t b_ = L->begin, e_ = L->end;                                              \
    const int nt_ = L->host_threads;                                                       \
    STRATA_KL_PRAGMA(omp parallel for schedule(static) num_threads(nt_))                   \
    for (int64_t i_ = b_; i_ < e_; ++i_) NAME##__body(a_, i_);                             \
    return STRATA_SUCCESS;                                                                 \
  }                                                                                        \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I)

#define STRATA_REDUCE_KERNEL(NAME, ARGS_T, A, I, VT, ACC)                                      \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *ACC);                                         \
  strata_status_t NAME##__openmp(const strata_launch_t *L, const void *args_) {                \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                                  \
    const int nt_ = L->host_threads, op_ = (int)L->op;                                         \
    strata_kl_##VT *part_ = NULL;                                                              \
    strata_status_t st_ =                                                                      \
        strata_impl_host_partials(L, (size_t)nt_ * sizeof(strata_kl_##VT), (void **)&part_);   \
    if (st_ != STRATA_SUCCESS) return st_;                                                     \
    for (int t_ = 0; t_ < nt_; ++t_) part_[t_] = strata_kl_identity_##VT(op_);                 \
    STRATA_KL_PRAGMA(omp parallel num_threads(nt_)) {                                          \
      /* chunk c of nt_ (one a thread, unless OpenMP granted fewer) */                         \
      for (int c_ = omp_get_thread_num(); c_ < nt_; c_ += omp_get_num_threads()) {             \
        int64_t cb_, ce_;                                                                      \
        strata_kl_omp_chunk(L->begin, L->end, c_, nt_, &cb_, &ce_);                            \
        /* four interleaved accumulators (index mod 4, joined in a fixed order): four          \
         * independent dependency chains instead of one, and still deterministic */            \
        strata_kl_##VT q0_ = strata_kl_identity_##VT(op_), q1_ = q0_, q2_ = q0_, q3_ = q0_;     \
        int64_t i_ = cb_;                                                                       \
        for (; ce_ - i_ > 3; i_ += 4) { /* not i_ + 3 < ce_: that overflows near INT64_MAX */     \
          NAME##__body(a_, i_, &q0_);                                                           \
          NAME##__body(a_, i_ + 1, &q1_);                                                       \
          NAME##__body(a_, i_ + 2, &q2_);                                                       \
          NAME##__body(a_, i_ + 3, &q3_);                                                       \
        }                                                                                       \
        for (; i_ < ce_; ++i_) NAME##__body(a_, i_, &q0_);                                      \
        part_[c_] = strata_kl_join_##VT(op_, strata_kl_join_##VT(op_, q0_, q1_),                \
                                        strata_kl_join_##VT(op_, q2_, q3_));                    \
      }                                                                                        \
    }                                                                                          \
    strata_kl_##VT r_ = part_[0];                                                              \
    for (int t_ = 1; t_ < nt_; ++t_) r_ = strata_kl_join_##VT(op_, r_, part_[t_]);             \
    *(strata_kl_##VT *)L->result = r_;                                                         \
    return STRATA_SUCCESS;                                                                     \
  }                                                                                            \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, strata_kl_##VT *ACC)

#define STRATA_SCAN_KERNEL(NAME, ARGS_T, A, I, VT, PARTIAL, FINAL)                             \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *PARTIAL, int FINAL);                          \
  strata_status_t NAME##__openmp(const strata_launch_t *L, const void *args_) {                \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                                  \
    const int nt_ = L->host_threads;                                                           \
    strata_kl_##VT *part_ = NULL;                                                              \
    strata_status_t st_ = strata_impl_host_partials(                                           \
        L, (size_t)(nt_ + 1) * sizeof(strata_kl_##VT), (void **)&part_);                       \
    if (st_ != STRATA_SUCCESS) return st_;                                                     \
    strata_kl_##VT total_ = 0; /* the last thread's final accumulator: the last inclusive value */ \
    STRATA_KL_PRAGMA(omp parallel num_threads(nt_)) {                                          \
      /* chunk c of nt_ (one a thread, unless OpenMP granted fewer) */                         \
      const int t_ = omp_get_thread_num(), nth_ = omp_get_num_threads();                      \
      for (int c_ = t_; c_ < nt_; c_ += nth_) {                                                \
        int64_t cb_, ce_;                                                                      \
        strata_kl_omp_chunk(L->begin, L->end, c_, nt_, &cb_, &ce_);                            \
        strata_kl_##VT acc_ = 0;                                                               \
        for (int64_t i_ = cb_; i_ < ce_; ++i_) NAME##__body(a_, i_, &acc_, 0);                 \
        part_[c_ + 1] = acc_;                                                                  \
      }                                                                                        \
      STRATA_KL_PRAGMA(omp barrier)                                                            \
      STRATA_KL_PRAGMA(omp single) {                                                           \
        part_[0] = 0;                                                                          \
        for (int k_ = 1; k_ <= nt_; ++k_) part_[k_] = strata_kl_scan_add_##VT(part_[k_], part_[k_ - 1]); \
      }                                                                                        \
      for (int c_ = t_; c_ < nt_; c_ += nth_) {                                                \
        int64_t cb_, ce_;                                                                      \
        strata_kl_omp_chunk(L->begin, L->end, c_, nt_, &cb_, &ce_);                            \
        strata_kl_##VT acc_ = part_[c_];                                                       \
        for (int64_t i_ = cb_; i_ < ce_; ++i_) NAME##__body(a_, i_, &acc_, 1);                 \
        if (c_ == nt_ - 1) total_ = acc_;                                                      \
      }                                                                                        \
    }                                                                                          \
    if (L->result) *(strata_kl_##VT *)L->result = total_;                                      \
    return STRATA_SUCCESS;                                                                     \
  }                                                                                            \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I,                  \
                                  strata_kl_##VT *PARTIAL, int FINAL)

/* launch bounds are a GPU register hint: the host ignores them */
#define STRATA_TEAM_KERNEL_BOUNDS(NAME, ARGS_T, A, TEAM, MAXT, MINT) STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM)
#define STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM)                                             \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, const strata_team_t *TEAM); \
  strata_status_t NAME##__openmp(const strata_launch_t *L, const void *args_) {               \
    const ARGS_T *a_ = (const ARGS_T *)args_;                                                 \
    const int nt_ = L->host_threads;                                                          \
    char *s_ = NULL;                                                                          \
    size_t stride_ = 0;                                                                       \
    strata_status_t st_ = strata_impl_host_scratch(L, nt_, &s_, &stride_);                    \
    if (st_ != STRATA_SUCCESS) return st_;                                                    \
    const int64_t ls_ = L->league_size;                                                       \
    STRATA_KL_PRAGMA(omp parallel num_threads(nt_)) {                                         \
      char *my_ = s_ + stride_ * (size_t)omp_get_thread_num();                                \
      strata_team_t t_ = {0, ls_, 0, 1, 0, 1, my_, my_ + L->scratch_team, NULL};                 \
      STRATA_KL_PRAGMA(omp for schedule(dynamic, 1))                                          \
      for (int64_t r_ = 0; r_ < ls_; ++r_) {                                                  \
        t_.league_rank = r_;                                                                  \
        NAME##__body(a_, &t_);                                                                \
      }                                                                                       \
    }                                                                                         \
    return STRATA_SUCCESS;                                                                    \
  }                                                                                           \
  static inline void NAME##__body(const ARGS_T *STRATA_RESTRICT A, const strata_team_t *TEAM)

#define STRATA_TEAM_THREAD_RANGE(T, I, B, E) for (int64_t I = (B); I < (E); ++I)
#define STRATA_THREAD_VECTOR_RANGE(T, J, B, E) \
  STRATA_KL_PRAGMA(omp simd) for (int64_t J = (B); J < (E); ++J)
#define STRATA_TEAM_VECTOR_RANGE(T, J, B, E) \
  STRATA_KL_PRAGMA(omp simd) for (int64_t J = (B); J < (E); ++J)
#define STRATA_THREAD_VECTOR_SUM(T, J, B, E, ACC)                          \
  for (int strata_once_ = ((ACC) = 0, 1); strata_once_; strata_once_ = 0) \
    STRATA_KL_PRAGMA(omp simd reduction(+ : ACC)) for (int64_t J = (B); J < (E); ++J)
#define strata_team_barrier(T) ((void)(T))

/* reductions, scans, broadcasts, atomics (strata_kl_host.h): vector reduce loops are
 * `omp simd reduction(op: acc)` (DESIGN §2: a plain `omp simd` over an accumulator is a race and
 * stays scalar); atomics are `omp atomic` (update, capture, 5.1 compare). */
#define STRATA_KL_OMP_OP_SUM +
#define STRATA_KL_OMP_OP_MIN min
#define STRATA_KL_OMP_OP_MAX max
#define STRATA_KL_PRAGMA_X(x) STRATA_KL_PRAGMA(x) /* expands macros inside x first */
#define STRATA_KL_HOST_SIMD_REDUCE(OP, ACC) \
  STRATA_KL_PRAGMA_X(omp simd reduction(STRATA_KL_OMP_OP_##OP : ACC))
#define STRATA_KL_HOST_ATOMIC(clauses) STRATA_KL_PRAGMA(omp atomic clauses)
#define STRATA_KL_HOST_FENCE STRATA_KL_PRAGMA(omp flush)
#include "strata_kl_host.h"
#include "strata/kl_team_sort.h"

#endif
