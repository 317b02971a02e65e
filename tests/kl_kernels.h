/* strata tests — argument structs of the kernel-language tests (kl_kernels.kl.c), shared by the
 * kernel source and test_kl.c. Every pointer is memory of the launching execution space; `void *`
 * arrays hold the kernel's value type (the kernels exist once per type: i32, i64, f32, f64).
 * P is the lanes per team (team_size x vector_length of the launch), V the vector length. */
#ifndef STRATA_TEST_KL_KERNELS_H
#define STRATA_TEST_KL_KERNELS_H
#include <stdint.h>

/* Reductions at the three levels, each of SUM, MIN, MAX (index o = 0, 1, 2):
 *   vec[((r*M + i)*3 + o)*V + lane]  THREAD_VECTOR_REDUCE of row i of team r: x[(r*M+i)*K + j],
 *                                    j < len[r*M+i]
 *   tt[(r*3 + o)*P + tid]            TEAM_THREAD_REDUCE over rows i < M of the row's vector
 *                                    reduce with the same op (nested)
 *   tv[(r*3 + o)*P + tid]            TEAM_VECTOR_REDUCE of x[r*M*K + j], j < flat[r]
 * every participant writes its own copy of the result. */
typedef struct kl_reduce_args {
  int64_t M, K;
  int P, V;
  const int64_t *len;  /* [league*M] */
  const int64_t *flat; /* [league] */
  const void *x;       /* [league*M*K] */
  void *vec, *tt, *tv;
} kl_reduce_args_t;

/* Scans: vector scans of rows (row r*M+i: in[row*K + j], j < len[row]) into vex (exclusive) and
 * vinc (inclusive), the row total per lane into vtot[row*V + lane]; team-thread scan of
 * tin[r*K2 + i], i < tlen[r], into tex / tinc, the total per lane into ttot[r*P + tid]; and the
 * team-vector scan of the same tin into tvex / tvinc, its total per lane into tvtot[r*P + tid]. */
typedef struct kl_scan_args {
  int64_t M, K, K2;
  int P, V;
  const int64_t *len, *tlen;
  const void *in, *tin;
  void *vex, *vinc, *vtot, *tex, *tinc, *ttot, *tvex, *tvinc, *tvtot;
} kl_scan_args_t;

/* single and broadcast: team_count[r] counts team-single executions, thread_count[r] thread-single
 * ones, seen_team_size[r] = team->team_size; per lane k = r*P + tid: b64[3k..3k+2] = broadcasts of
 * v = r*1000 + tid + 7, of -v, and of v + 4950 after a team reduce; b32[k], bf32[k], bf64[k]
 * broadcasts of v + 1, v + 2, v + 0.5; sh64[k], sh32[k], shf64[k] the shuffles (i64, i32, f64) of
 * u = r*1000 + team_rank*64 + vector_rank from lane (3 vector_rank + 1) mod vector_length. */
typedef struct kl_single_args {
  int P;
  int64_t *team_count, *thread_count, *seen_team_size;
  int64_t *b64;
  int32_t *b32;
  float *bf32;
  double *bf64;
  int64_t *sh64;
  int32_t *sh32;
  double *shf64;
} kl_single_args_t;

/* Atomics (a FOR kernel per type), index i, slot s = i % slots:
 *   add[s] += i % 5 + 1; fadd_old[i] = fetch_add(&fadd[s], 1); min / max of w(i) into mn[s] /
 *   mx[s] (w(i) = (i * 7919) % 2001 - 1000); xch_old[i] = exchange(&xch[s], i); for i < ncas a
 *   CAS loop adds 1 to cas[s]. */
typedef struct kl_atomic_args {
  int64_t slots, ncas;
  void *add, *fadd, *mn, *mx, *xch, *cas; /* [slots] */
  void *fadd_old, *xch_old;               /* [n] */
} kl_atomic_args_t;

/* strata_memory_fence with a ticket (kl.h): team t of each group of `group` teams writes part[t]
 * = t + 1, fences and takes its group's ticket; the team that
 * takes the last one sums its group's parts in order into total[g] and resets the ticket. */
typedef struct kl_fence_args {
  int64_t group;
  double *part;    /* [league] */
  int32_t *ticket; /* [league / group]: 0 before and after */
  double *total;   /* [league / group] */
} kl_fence_args_t;

/* Atomic min / max on special values: case i applies op[i] (0 min, 1 max) with v to cell i,
 * f64 and f32 side by side; old[i] gets the returned value. */
typedef struct kl_minmax_args {
  double *c64, *old64;
  const double *v64;
  float *c32, *old32;
  const float *v32;
  const int32_t *op;
} kl_minmax_args_t;

/* Team sort: team r copies n pairs keys/values[r*stride + j] into team scratch (keys at 0, values
 * at byte voff), sorts them with strata_team_sort_*, copies them back. */
typedef struct kl_sort_args {
  int64_t n, stride, voff;
  void *keys, *values;
} kl_sort_args_t;

/* Load hints: for each i < n, the stream and cached hints of each type copy src[i] to
 * dst_stream[i] / dst_cached[i] (i32, i64, f32, f64 arrays side by side). */
typedef struct kl_load_args {
  const int32_t *i32;
  const int64_t *i64;
  const float *f32;
  const double *f64;
  int32_t *i32_out; /* [2n]: stream then cached */
  int64_t *i64_out;
  float *f32_out;
  double *f64_out;
  int64_t n;
} kl_load_args_t;

/* kernels of two sources that share a file name (kl_same_name/{a,b}/same.kl.c): out[i] = f(i) */
typedef struct kl_fill_args {
  double *out;
} kl_fill_args_t;

#endif
