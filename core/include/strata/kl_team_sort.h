/* strata kernel language — team sort of (key, value) pairs, written once over a mapping's
 * primitives (team ranks, strata_team_barrier, STRATA_KL_TEAM_FUNC). Included at the end of each
 * mapping header; the semantics are in <strata/kl.h>.
 *
 * Bitonic network on the next power of two N >= n, with the positions n..N-1 read as +infinity.
 * The variant whose compare-exchanges all put the smaller key at the lower index (each merge
 * stage of width k first pairs i with its mirror in the k-block, then i with i + j for
 * j = k/4, ..., 1) never moves a padding position, so pairs with hi >= n are skipped and no
 * padding is stored. Each step pairs every index at most once (no two threads touch one
 * element); a team barrier separates the steps. Host teams (one thread, one lane) run the same
 * network sequentially. */
#ifndef STRATA_KL_TEAM_SORT_H
#define STRATA_KL_TEAM_SORT_H

#define STRATA_KL_TEAM_SORT_(KS, KT, VS, VT)                                                    \
  STRATA_KL_TEAM_FUNC void strata_team_sort_##KS##_##VS(const strata_team_t *t, KT *keys,        \
                                                        VT *values, int64_t n) {                 \
    const int64_t P = (int64_t)t->team_size * t->vector_length;                                 \
    const int64_t me = (int64_t)t->team_rank * t->vector_length + t->vector_rank;               \
    int64_t N = 1;                                                                               \
    while (N < n) N <<= 1;                                                                       \
    strata_team_barrier(t);                                                                      \
    for (int64_t k = 2; k <= N; k <<= 1)                                                         \
      for (int64_t j = k >> 1; j > 0; j >>= 1) {                                                 \
        for (int64_t q = me; q < N / 2; q += P) {                                                \
          const int64_t blk = q / j, off = q % j;                                                \
          const int64_t lo = j == k >> 1 ? blk * k + off : blk * 2 * j + off;                    \
          const int64_t hi = j == k >> 1 ? blk * k + k - 1 - off : lo + j;                       \
          if (hi < n && keys[hi] < keys[lo]) {                                                   \
            const KT tk = keys[lo];                                                              \
            const VT tv = values[lo];                                                            \
            keys[lo] = keys[hi];                                                                 \
            values[lo] = values[hi];                                                             \
            keys[hi] = tk;                                                                       \
            values[hi] = tv;                                                                     \
          }                                                                                      \
        }                                                                                        \
        strata_team_barrier(t);                                                                  \
      }                                                                                          \
  }
STRATA_KL_TEAM_SORT_(i64, int64_t, i64, int64_t)
STRATA_KL_TEAM_SORT_(i32, int32_t, i32, int32_t)
STRATA_KL_TEAM_SORT_(i64, int64_t, f64, double)
STRATA_KL_TEAM_SORT_(i32, int32_t, f64, double)
#undef STRATA_KL_TEAM_SORT_

#endif
