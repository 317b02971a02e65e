/* strata tests — kernels of the kernel-language tests (test_kl.c): nested reductions and scans,
 * single / broadcast, atomics, team sort; each written once per value type through a generator
 * macro. Valid C11 and C++17. */
#include <strata/kl.h>

#include "kl_kernels.h"

#define KL_LANE(team) ((team)->team_rank * (team)->vector_length + (team)->vector_rank)

/* ---------------------------------------------------------------- reductions */
#define KL_REDUCE_KERNEL(VT, T)                                                           \
  STRATA_TEAM_KERNEL(kl_reduce_##VT, kl_reduce_args_t, a, team) {                         \
    const int64_t r = team->league_rank, M = a->M, K = a->K;                              \
    const int lane = KL_LANE(team);                                                       \
    const T *x = (const T *)a->x + r * M * K;                                             \
    T *tt = (T *)a->tt + r * 3 * a->P + lane, *tv = (T *)a->tv + r * 3 * a->P + lane;      \
    STRATA_TEAM_THREAD_RANGE(team, i, 0, M) {                                             \
      const T *xr = x + i * K;                                                            \
      const int64_t n = a->len[r * M + i];                                                \
      T s, mn, mx;                                                                        \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, n, SUM, VT, s) { s += xr[j]; }              \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, n, MIN, VT, mn) {                           \
        if (xr[j] < mn) mn = xr[j];                                                       \
      }                                                                                   \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, n, MAX, VT, mx) {                           \
        if (xr[j] > mx) mx = xr[j];                                                       \
      }                                                                                   \
      T *o = (T *)a->vec + (r * M + i) * 3 * a->V + team->vector_rank;                    \
      o[0] = s;                                                                           \
      o[a->V] = mn;                                                                       \
      o[2 * a->V] = mx;                                                                   \
    }                                                                                     \
    T s, mn, mx;                                                                          \
    STRATA_TEAM_THREAD_REDUCE(team, i, 0, M, SUM, VT, s) {                                \
      T rs;                                                                               \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, a->len[r * M + i], SUM, VT, rs) { rs += x[i * K + j]; } \
      s += rs;                                                                            \
    }                                                                                     \
    STRATA_TEAM_THREAD_REDUCE(team, i, 0, M, MIN, VT, mn) {                               \
      T rm;                                                                               \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, a->len[r * M + i], MIN, VT, rm) {           \
        if (x[i * K + j] < rm) rm = x[i * K + j];                                         \
      }                                                                                   \
      if (rm < mn) mn = rm;                                                               \
    }                                                                                     \
    STRATA_TEAM_THREAD_REDUCE(team, i, 0, M, MAX, VT, mx) {                               \
      T rm;                                                                               \
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, a->len[r * M + i], MAX, VT, rm) {           \
        if (x[i * K + j] > rm) rm = x[i * K + j];                                         \
      }                                                                                   \
      if (rm > mx) mx = rm;                                                               \
    }                                                                                     \
    tt[0] = s;                                                                            \
    tt[a->P] = mn;                                                                        \
    tt[2 * a->P] = mx;                                                                    \
    STRATA_TEAM_VECTOR_REDUCE(team, j, 0, a->flat[r], SUM, VT, s) { s += x[j]; }          \
    STRATA_TEAM_VECTOR_REDUCE(team, j, 0, a->flat[r], MIN, VT, mn) {                      \
      if (x[j] < mn) mn = x[j];                                                           \
    }                                                                                     \
    STRATA_TEAM_VECTOR_REDUCE(team, j, 0, a->flat[r], MAX, VT, mx) {                      \
      if (x[j] > mx) mx = x[j];                                                           \
    }                                                                                     \
    tv[0] = s;                                                                            \
    tv[a->P] = mn;                                                                        \
    tv[2 * a->P] = mx;                                                                    \
  }
KL_REDUCE_KERNEL(i32, int32_t)
KL_REDUCE_KERNEL(i64, int64_t)
KL_REDUCE_KERNEL(f32, float)
KL_REDUCE_KERNEL(f64, double)

/* ---------------------------------------------------------------- scans */
#define KL_SCAN_KERNEL(VT, T)                                                               \
  STRATA_TEAM_KERNEL(kl_scan_##VT, kl_scan_args_t, a, team) {                               \
    const int64_t r = team->league_rank;                                                    \
    STRATA_TEAM_THREAD_RANGE(team, i, 0, a->M) {                                            \
      const int64_t row = r * a->M + i;                                                     \
      const T *in = (const T *)a->in + row * a->K;                                          \
      T *ex = (T *)a->vex + row * a->K, *inc = (T *)a->vinc + row * a->K;                   \
      T s;                                                                                  \
      STRATA_THREAD_VECTOR_SCAN(team, j, 0, a->len[row], s, final) {                        \
        const T v = in[j];                                                                  \
        if (final) ex[j] = s;                                                               \
        s += v;                                                                             \
        if (final) inc[j] = s;                                                              \
      }                                                                                     \
      ((T *)a->vtot)[row * a->V + team->vector_rank] = s;                                   \
    }                                                                                       \
    const T *tin = (const T *)a->tin + r * a->K2;                                           \
    T *tex = (T *)a->tex + r * a->K2, *tinc = (T *)a->tinc + r * a->K2;                     \
    T s;                                                                                    \
    STRATA_TEAM_THREAD_SCAN(team, i, 0, a->tlen[r], s, final) {                             \
      const T v = tin[i];                                                                   \
      if (final && strata_thread_single(team)) tex[i] = s;                                  \
      s += v;                                                                               \
      if (final && strata_thread_single(team)) tinc[i] = s;                                 \
    }                                                                                       \
    ((T *)a->ttot)[r * a->P + KL_LANE(team)] = s;                                           \
    T *tvex = (T *)a->tvex + r * a->K2, *tvinc = (T *)a->tvinc + r * a->K2;                 \
    T w;                                                                                    \
    STRATA_TEAM_VECTOR_SCAN(team, i, 0, a->tlen[r], w, final) {                             \
      const T v = tin[i];                                                                   \
      if (final) tvex[i] = w;                                                               \
      w += v;                                                                               \
      if (final) tvinc[i] = w;                                                              \
    }                                                                                       \
    ((T *)a->tvtot)[r * a->P + KL_LANE(team)] = w;                                          \
  }
KL_SCAN_KERNEL(i32, int32_t)
KL_SCAN_KERNEL(i64, int64_t)
KL_SCAN_KERNEL(f32, float)
KL_SCAN_KERNEL(f64, double)

/* ---------------------------------------------------------------- single, broadcast */
STRATA_KL_TEAM_FUNC void kl_single_body(const kl_single_args_t *a, const strata_team_t *team) {
  const int64_t r = team->league_rank;
  const int lane = KL_LANE(team);
  const int64_t k = r * a->P + lane;
  if (strata_team_single(team)) {
    strata_atomic_add_i64(&a->team_count[r], 1);
    a->seen_team_size[r] = team->team_size;
  }
  if (strata_thread_single(team)) strata_atomic_add_i64(&a->thread_count[r], 1);
  const int64_t v = r * 1000 + lane + 7;
  a->b64[3 * k] = strata_team_broadcast_i64(team, v);
  a->b64[3 * k + 1] = strata_team_broadcast_i64(team, -v); /* back to back: slot reuse */
  int64_t s;
  STRATA_TEAM_VECTOR_REDUCE(team, j, 0, 100, SUM, i64, s) { s += j; }
  a->b64[3 * k + 2] = strata_team_broadcast_i64(team, v + s);
  a->b32[k] = strata_team_broadcast_i32(team, (int32_t)v + 1);
  a->bf32[k] = strata_team_broadcast_f32(team, (float)(v + 2));
  a->bf64[k] = strata_team_broadcast_f64(team, (double)v + 0.5);
  const int64_t u = r * 1000 + team->team_rank * 64 + team->vector_rank;
  const int64_t src = (3 * team->vector_rank + 1) % team->vector_length;
  a->sh64[k] = strata_thread_vector_shuffle_i64(team, u, src);
  a->sh32[k] = strata_thread_vector_shuffle_i32(team, (int32_t)u + 1, src);
  a->shf64[k] = strata_thread_vector_shuffle_f64(team, (double)u + 0.25, src);
}
STRATA_TEAM_KERNEL(kl_single, kl_single_args_t, a, team) { kl_single_body(a, team); }
/* the same with launch bounds: teams of at most 128 threads x lanes, 4 of them a multiprocessor */
STRATA_TEAM_KERNEL_BOUNDS(kl_single_bounded, kl_single_args_t, a, team, 128, 4) { kl_single_body(a, team); }
/* bounded below a warp: on GPUs a warp-wide vector_length fits no team of it */
STRATA_TEAM_KERNEL_BOUNDS(kl_single_bounded16, kl_single_args_t, a, team, 16, 1) { kl_single_body(a, team); }

/* ---------------------------------------------------------------- atomics */
#define KL_ATOMIC_KERNEL(VT, T)                                                         \
  STRATA_FOR_KERNEL(kl_atomic_##VT, kl_atomic_args_t, a, i) {                           \
    const int64_t s = i % a->slots, w = (i * 7919) % 2001 - 1000;                       \
    strata_atomic_add_##VT(&((T *)a->add)[s], (T)(i % 5 + 1));                         \
    ((T *)a->fadd_old)[i] = strata_atomic_fetch_add_##VT(&((T *)a->fadd)[s], (T)1);     \
    strata_atomic_min_##VT(&((T *)a->mn)[s], (T)w);                                     \
    strata_atomic_max_##VT(&((T *)a->mx)[s], (T)w);                                     \
    ((T *)a->xch_old)[i] = strata_atomic_exchange_##VT(&((T *)a->xch)[s], (T)i);        \
    if (i < a->ncas) {                                                                  \
      T *p = &((T *)a->cas)[s];                                                         \
      T seen = strata_atomic_load_##VT(p);                                              \
      for (;;) {                                                                        \
        const T prev = strata_atomic_cas_##VT(p, seen, (T)(seen + 1));                  \
        if (prev == seen) break;                                                        \
        seen = prev;                                                                    \
      }                                                                                 \
    }                                                                                   \
  }
KL_ATOMIC_KERNEL(i32, int32_t)
KL_ATOMIC_KERNEL(i64, int64_t)
KL_ATOMIC_KERNEL(f32, float)
KL_ATOMIC_KERNEL(f64, double)

STRATA_TEAM_KERNEL(kl_fence_ticket, kl_fence_args_t, a, team) {
  const int64_t t = team->league_rank, g = t / a->group;
  if (!strata_team_single(team)) return;
  a->part[t] = (double)(t + 1);
  strata_memory_fence();
  if (strata_atomic_fetch_add_i32(a->ticket + g, 1) != (int32_t)(a->group - 1)) return;
  strata_memory_fence();
  double s = 0.0;
  for (int64_t q = g * a->group; q < (g + 1) * a->group; ++q) s += strata_atomic_load_f64(a->part + q);
  a->total[g] = s;
  a->ticket[g] = 0;
}

STRATA_FOR_KERNEL(kl_atomic_minmax_special, kl_minmax_args_t, a, i) {
  if (a->op[i]) {
    a->old64[i] = strata_atomic_max_f64(a->c64 + i, a->v64[i]);
    a->old32[i] = strata_atomic_max_f32(a->c32 + i, a->v32[i]);
  } else {
    a->old64[i] = strata_atomic_min_f64(a->c64 + i, a->v64[i]);
    a->old32[i] = strata_atomic_min_f32(a->c32 + i, a->v32[i]);
  }
}

/* ---------------------------------------------------------------- load hints */
STRATA_FOR_KERNEL(kl_load_hints, kl_load_args_t, a, i) {
  a->i32_out[i] = strata_load_stream_i32(a->i32 + i);
  a->i32_out[a->n + i] = strata_load_cached_i32(a->i32 + i);
  a->i64_out[i] = strata_load_stream_i64(a->i64 + i);
  a->i64_out[a->n + i] = strata_load_cached_i64(a->i64 + i);
  a->f32_out[i] = strata_load_stream_f32(a->f32 + i);
  a->f32_out[a->n + i] = strata_load_cached_f32(a->f32 + i);
  a->f64_out[i] = strata_load_stream_f64(a->f64 + i);
  a->f64_out[a->n + i] = strata_load_cached_f64(a->f64 + i);
}

/* ---------------------------------------------------------------- team sort */
#define KL_SORT_KERNEL(KS, KT, VS, VT)                                                   \
  STRATA_TEAM_KERNEL(kl_sort_##KS##_##VS, kl_sort_args_t, a, team) {                     \
    KT *k = (KT *)team->scratch;                                                         \
    VT *v = (VT *)((char *)team->scratch + a->voff);                                     \
    KT *gk = (KT *)a->keys + team->league_rank * a->stride;                              \
    VT *gv = (VT *)a->values + team->league_rank * a->stride;                            \
    STRATA_TEAM_VECTOR_RANGE(team, j, 0, a->n) {                                         \
      k[j] = gk[j];                                                                      \
      v[j] = gv[j];                                                                      \
    }                                                                                    \
    strata_team_sort_##KS##_##VS(team, k, v, a->n);                                      \
    STRATA_TEAM_VECTOR_RANGE(team, j, 0, a->n) {                                         \
      gk[j] = k[j];                                                                      \
      gv[j] = v[j];                                                                      \
    }                                                                                    \
  }
KL_SORT_KERNEL(i64, int64_t, i64, int64_t)
KL_SORT_KERNEL(i32, int32_t, i32, int32_t)
KL_SORT_KERNEL(i64, int64_t, f64, double)
KL_SORT_KERNEL(i32, int32_t, f64, double)
