/* strata kernel language — the GPU mapping shared by CUDA and HIP (DESIGN §2 table), written once.
 * The vendor glue (strata_kl_cuda.h / strata_kl_hip.h) defines the runtime-API prefix, the warp
 * size, lane masks and shuffles, then includes this file.
 *
 * league -> thread blocks (grid-stride over league ranks); team thread -> threadIdx.y;
 * vector lane -> threadIdx.x inside one warp (shuffles for vector reductions); scratch -> dynamic
 * shared memory (opted in above 48 KiB); barrier -> __syncthreads.
 * Range reduce/scan: fixed-shape block trees, partials combined in block order by a second pass —
 * deterministic for a fixed device, no atomics. */
#ifndef STRATA_KL_GPU_H
#define STRATA_KL_GPU_H

#if !defined(STRATA_GPU_API) || !defined(STRATA_GPU_WARP)
#error "include strata_kl_cuda.h or strata_kl_hip.h, not strata_kl_gpu.h"
#endif

#define STRATA_KL_FUNC static __host__ __device__ inline
#define STRATA_KL_TEAM_FUNC static __device__ __forceinline__
#define STRATA_RESTRICT __restrict__

#include <stdint.h>

#include "strata/config.h"
#include "strata/kernel.h"
#include "strata/kl.h"

#define STRATA_GPU_STREAM STRATA_GPU_API(Stream_t)

/* Host-side helpers of the vendor runtime (backends/gpu/runtime_gpu.inc). */
extern "C" {
unsigned STRATA_GPU_IMPL(grid)(const strata_launch_t *L, int64_t work, int block, unsigned cap);
strata_status_t STRATA_GPU_IMPL(after_launch)(const strata_launch_t *L);
strata_status_t STRATA_GPU_IMPL(temp)(const strata_launch_t *L, size_t bytes, void **p);
strata_status_t STRATA_GPU_IMPL(fetch)(const strata_launch_t *L, void *host_dst,
                                       const void *dev_src, size_t bytes);
strata_status_t STRATA_GPU_IMPL(team_fits)(const strata_launch_t *L, const void *kernel_fn, int team_size,
                                           int bound);
strata_status_t STRATA_GPU_IMPL(shared_optin)(const strata_launch_t *L, const void *kernel_fn,
                                              size_t bytes);
strata_status_t STRATA_GPU_IMPL(team_auto)(const strata_launch_t *L, const void *kernel_fn,
                                           size_t reserve_bytes, int bound, int *team_size);
}

/* --- device building blocks ------------------------------------------------------------------ */
/* __host__ too: the launchers set an empty reduction's result to the identity on the host. */
#define STRATA_GPU_JOIN_OVERLOADS(s, T)                                                        \
  __host__ __device__ __forceinline__ T strata_gpu_identity(int op, T) { return strata_kl_identity_##s(op); } \
  __host__ __device__ __forceinline__ T strata_gpu_join(int op, T a, T b) { return strata_kl_join_##s(op, a, b); }
STRATA_GPU_JOIN_OVERLOADS(i32, int32_t)
STRATA_GPU_JOIN_OVERLOADS(i64, int64_t)
STRATA_GPU_JOIN_OVERLOADS(f32, float)
STRATA_GPU_JOIN_OVERLOADS(f64, double)
/* MINLOC / MAXLOC (value, index) pairs */
STRATA_GPU_JOIN_OVERLOADS(i32loc, strata_i32loc_t)
STRATA_GPU_JOIN_OVERLOADS(i64loc, strata_i64loc_t)
STRATA_GPU_JOIN_OVERLOADS(f32loc, strata_f32loc_t)
STRATA_GPU_JOIN_OVERLOADS(f64loc, strata_f64loc_t)
#undef STRATA_GPU_JOIN_OVERLOADS

/* Butterfly shuffle of a reduction value: scalars directly, the (value, index) pairs of MINLOC /
 * MAXLOC one field at a time (val, then loc). */
template <class T>
__device__ __forceinline__ T strata_gpu_shfl_xor(strata_gpu_mask_t mask, T v, int o, int w) {
  return STRATA_GPU_SHFL_XOR(mask, v, o, w);
}
#define STRATA_GPU_SHFL_LOC_(T)                                                                 \
  __device__ __forceinline__ T strata_gpu_shfl_xor(strata_gpu_mask_t mask, T v, int o, int w) { \
    v.val = STRATA_GPU_SHFL_XOR(mask, v.val, o, w);                                             \
    v.loc = STRATA_GPU_SHFL_XOR(mask, v.loc, o, w);                                             \
    return v;                                                                                   \
  }
STRATA_GPU_SHFL_LOC_(strata_i32loc_t)
STRATA_GPU_SHFL_LOC_(strata_i64loc_t)
STRATA_GPU_SHFL_LOC_(strata_f32loc_t)
STRATA_GPU_SHFL_LOC_(strata_f64loc_t)
#undef STRATA_GPU_SHFL_LOC_

template <class T>
__device__ __forceinline__ T strata_gpu_warp_reduce(int op, T v) {
  for (int o = STRATA_GPU_WARP / 2; o > 0; o >>= 1)
    v = strata_gpu_join(op, v, strata_gpu_shfl_xor(STRATA_GPU_FULL_MASK, v, o, STRATA_GPU_WARP));
  return v;
}

/* Reduces v over a 1-D block; the result is valid in thread 0. smem: >= 1024/warp entries.
 * Scalars and the MINLOC / MAXLOC pairs (strata_gpu_warp_reduce shuffles both fields). */
template <class T>
__device__ T strata_gpu_block_reduce(int op, T v, T *smem) {
  const int lane = threadIdx.x % STRATA_GPU_WARP, wid = threadIdx.x / STRATA_GPU_WARP;
  const int nw = (blockDim.x + STRATA_GPU_WARP - 1) / STRATA_GPU_WARP;
  v = strata_gpu_warp_reduce(op, v);
  __syncthreads();
  if (lane == 0) smem[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < nw ? smem[lane] : strata_gpu_identity(op, v);
    v = strata_gpu_warp_reduce(op, v);
  }
  return v;
}

/* Exclusive sum over a 1-D block: returns this thread's exclusive prefix, *total the block sum
 * (every thread). smem: >= 1024/warp + 1 entries; the block total goes to smem[1024/warp] (the
 * last entry; smem[warp] would lie outside the array when the warp is 64). */
template <class T>
__device__ T strata_gpu_block_scan(T v, T *smem, T *total) {
  const int lane = threadIdx.x % STRATA_GPU_WARP, wid = threadIdx.x / STRATA_GPU_WARP;
  const int nw = (blockDim.x + STRATA_GPU_WARP - 1) / STRATA_GPU_WARP;
  T inc = v;
  for (int d = 1; d < STRATA_GPU_WARP; d <<= 1) {
    T u = STRATA_GPU_SHFL_UP(STRATA_GPU_FULL_MASK, inc, d, STRATA_GPU_WARP);
    if (lane >= d) inc += u;
  }
  __syncthreads();
  if (lane == STRATA_GPU_WARP - 1) smem[wid] = inc;
  __syncthreads();
  if (wid == 0) {
    T w = lane < nw ? smem[lane] : (T)0;
    T winc = w;
    for (int d = 1; d < STRATA_GPU_WARP; d <<= 1) {
      T u = STRATA_GPU_SHFL_UP(STRATA_GPU_FULL_MASK, winc, d, STRATA_GPU_WARP);
      if (lane >= d) winc += u;
    }
    if (lane < nw) smem[lane] = winc - w; /* exclusive prefix of warp totals */
    if (lane == nw - 1) smem[1024 / STRATA_GPU_WARP] = winc;
  }
  __syncthreads();
  *total = smem[1024 / STRATA_GPU_WARP];
  return smem[wid] + inc - v;
}

/* --- nested levels inside a team (blockDim = (vector_length, team_size)) -------------------
 * Lanes are numbered linearly, tid = threadIdx.y * vector_length + threadIdx.x, and cut into warps
 * of STRATA_GPU_WARP; a lane group (one team thread) is vector_length consecutive lanes inside one
 * warp (vector_length is a power of two <= the warp). Only the last warp of a block can be partly
 * filled (team_size x vector_length not a multiple of the warp): shuffles across a warp use the
 * mask of the lanes that exist. */
__device__ __forceinline__ int strata_gpu_tid() { return (int)(threadIdx.y * blockDim.x + threadIdx.x); }
__device__ __forceinline__ int strata_gpu_nthreads() { return (int)(blockDim.x * blockDim.y); }

/* Reduces v with op over the vector lanes of one team thread; every lane receives the result. */
template <class T>
__device__ __forceinline__ T strata_gpu_vector_reduce(const strata_team_t *t, int op, T v) {
  const int vl = t->vector_length;
  if (vl == 1) return v;
  const strata_gpu_mask_t mask = STRATA_GPU_GROUP_MASK(vl, strata_gpu_tid() % STRATA_GPU_WARP);
  for (int o = vl / 2; o > 0; o >>= 1) v = strata_gpu_join(op, v, STRATA_GPU_SHFL_XOR(mask, v, o, vl));
  return v;
}
template <class T>
__device__ __forceinline__ T strata_gpu_vector_sum(const strata_team_t *t, T v) {
  return strata_gpu_vector_reduce(t, STRATA_REDUCE_SUM, v);
}

/* The v of lane `lane` of this team thread's lane group, to every lane of it (strata/kl.h). */
template <class T>
__device__ __forceinline__ T strata_gpu_vector_shuffle(const strata_team_t *t, T v, int64_t lane) {
  const int vl = t->vector_length;
  if (vl == 1) return v;
  const strata_gpu_mask_t mask = STRATA_GPU_GROUP_MASK(vl, strata_gpu_tid() % STRATA_GPU_WARP);
  return STRATA_GPU_SHFL(mask, v, (int)lane, vl);
}
#define STRATA_KL_GPU_SHUFFLE_(s, TYPE)                                                                   \
  static __device__ __forceinline__ TYPE strata_thread_vector_shuffle_##s(const strata_team_t *t, TYPE v, \
                                                                          int64_t lane) {                 \
    return strata_gpu_vector_shuffle<TYPE>(t, v, lane);                                                   \
  }
STRATA_KL_GPU_SHUFFLE_(i32, int32_t)
STRATA_KL_GPU_SHUFFLE_(i64, int64_t)
STRATA_KL_GPU_SHUFFLE_(f64, double)
#undef STRATA_KL_GPU_SHUFFLE_

/* Reserved shared memory of a team, after the user's scratch (t->internal, 16-byte aligned),
 * 8-byte slots: warp partials [0, S), warp prefixes [S, 2S), the result slot 2S, the broadcast
 * slot 2S+1, with S = 1024 / warp. Every operation writes a slot region only between barriers
 * that all threads pass after their last read of it by the previous operation (see below), so
 * back-to-back reductions, scans and broadcasts need no extra barrier. */
#define STRATA_GPU_TEAM_SLOTS (1024 / STRATA_GPU_WARP)
#define STRATA_GPU_TEAM_RESERVE_BYTES ((2 * STRATA_GPU_TEAM_SLOTS + 2) * 8)
template <class T>
__device__ __forceinline__ T *strata_gpu_team_slot(const strata_team_t *t, int slot) {
  return (T *)((char *)t->internal + (size_t)slot * 8);
}

/* Warp-level reduce over the existing lanes [0, count) of this warp: the result in lane 0. */
template <class T>
__device__ __forceinline__ T strata_gpu_warp_reduce_n(int op, T v, int lane, int count) {
  const strata_gpu_mask_t mask = STRATA_GPU_LOW_MASK(count);
  for (int o = STRATA_GPU_WARP / 2; o > 0; o >>= 1) {
    T u = STRATA_GPU_SHFL_DOWN(mask, v, o, STRATA_GPU_WARP);
    if (lane + o < count) v = strata_gpu_join(op, v, u);
  }
  return v;
}

/* Reduces v with op over all lanes of the team; every lane must call; all receive the result.
 * Writes: warp partials (lane 0 of each warp) before barrier 1; the result (warp 0) between
 * barrier 1 and 2; reads of partials between 1 and 2, of the result after 2. */
template <class T>
__device__ T strata_gpu_team_reduce(const strata_team_t *t, int op, T v) {
  const int tid = strata_gpu_tid(), n = strata_gpu_nthreads();
  const int lane = tid % STRATA_GPU_WARP, wid = tid / STRATA_GPU_WARP;
  const int nw = (n + STRATA_GPU_WARP - 1) / STRATA_GPU_WARP;
  const int count = n - wid * STRATA_GPU_WARP < STRATA_GPU_WARP ? n - wid * STRATA_GPU_WARP : STRATA_GPU_WARP;
  T *part = strata_gpu_team_slot<T>(t, 0);
  T *res = strata_gpu_team_slot<T>(t, 2 * STRATA_GPU_TEAM_SLOTS);
  v = strata_gpu_warp_reduce_n(op, v, lane, count);
  if (lane == 0) part[wid] = v;
  __syncthreads();
  if (wid == 0) {
    T w = lane < nw ? part[lane] : strata_gpu_identity(op, v);
    w = strata_gpu_warp_reduce_n(op, w, lane, count);
    if (lane == 0) *res = w;
  }
  __syncthreads();
  return *res;
}

/* Inclusive sum over the lanes [0, count) of a segment of width w (shuffles of width w). */
template <class T>
__device__ __forceinline__ T strata_gpu_inclusive_n(strata_gpu_mask_t mask, T v, int lane, int w) {
  for (int d = 1; d < w; d <<= 1) {
    T u = STRATA_GPU_SHFL_UP(mask, v, d, w);
    if (lane >= d) v += u;
  }
  return v;
}

/* Exclusive sum of c over all lanes of the team in tid order; every lane must call; *total gets
 * the sum of all c. Writes: warp totals before barrier 1; warp prefixes and the total (warp 0)
 * between 1 and 2; reads of warp totals between 1 and 2, of prefixes and total after 2 (the
 * prefixes have their own slots, so the next operation's warp totals cannot overwrite a prefix
 * that a slow lane of the same warp has still to read). */
template <class T>
__device__ T strata_gpu_team_scan(const strata_team_t *t, T c, T *total) {
  const int tid = strata_gpu_tid(), n = strata_gpu_nthreads();
  const int lane = tid % STRATA_GPU_WARP, wid = tid / STRATA_GPU_WARP;
  const int nw = (n + STRATA_GPU_WARP - 1) / STRATA_GPU_WARP;
  const int count = n - wid * STRATA_GPU_WARP < STRATA_GPU_WARP ? n - wid * STRATA_GPU_WARP : STRATA_GPU_WARP;
  const strata_gpu_mask_t mask = STRATA_GPU_LOW_MASK(count);
  T *tot = strata_gpu_team_slot<T>(t, 0);
  T *pre = strata_gpu_team_slot<T>(t, STRATA_GPU_TEAM_SLOTS);
  T *res = strata_gpu_team_slot<T>(t, 2 * STRATA_GPU_TEAM_SLOTS);
  const T inc = strata_gpu_inclusive_n(mask, c, lane, STRATA_GPU_WARP);
  T exc = STRATA_GPU_SHFL_UP(mask, inc, 1, STRATA_GPU_WARP);
  if (lane == 0) exc = (T)0;
  if (lane == count - 1) tot[wid] = inc;
  __syncthreads();
  if (wid == 0) {
    const T w = lane < nw ? tot[lane] : (T)0;
    const T winc = strata_gpu_inclusive_n(mask, w, lane, STRATA_GPU_WARP);
    T wexc = STRATA_GPU_SHFL_UP(mask, winc, 1, STRATA_GPU_WARP);
    if (lane == 0) wexc = (T)0;
    if (lane < nw) pre[lane] = wexc;
    if (lane == nw - 1) *res = winc;
  }
  __syncthreads();
  *total = *res;
  return pre[wid] + exc;
}

/* Exclusive sum of v over the vector lanes of one team thread; *total the thread's sum. */
template <class T>
__device__ __forceinline__ T strata_gpu_vector_scan(const strata_team_t *t, T v, T *total) {
  const int vl = t->vector_length;
  if (vl == 1) {
    *total = v;
    return (T)0;
  }
  const strata_gpu_mask_t mask = STRATA_GPU_GROUP_MASK(vl, strata_gpu_tid() % STRATA_GPU_WARP);
  const T inc = strata_gpu_inclusive_n(mask, v, t->vector_rank, vl);
  T exc = STRATA_GPU_SHFL_UP(mask, inc, 1, vl);
  if (t->vector_rank == 0) exc = (T)0;
  *total = STRATA_GPU_SHFL(mask, inc, vl - 1, vl);
  return exc;
}

/* State of a nested scan (STRATA_THREAD_VECTOR_SCAN / STRATA_TEAM_THREAD_SCAN): each of `parts`
 * participants takes the contiguous block [jb, je) of [b, e); step() runs before each pass. */
template <class T>
struct strata_gpu_nested_scan {
  const strata_team_t *t;
  int team_level; /* 0: the lanes of a thread; 1: the threads of the team; 2: threads x lanes */
  int live;
  int64_t jb, je;
  T total;
  __device__ strata_gpu_nested_scan(const strata_team_t *tm, int64_t b, int64_t e, int level)
      : t(tm), team_level(level), live(1), total((T)0) {
    const int64_t n = e > b ? e - b : 0;
    const int parts = level == 2 ? tm->team_size * tm->vector_length : level ? tm->team_size : tm->vector_length;
    const int rank = level == 2 ? tm->team_rank * tm->vector_length + tm->vector_rank
                     : level    ? tm->team_rank
                                : tm->vector_rank;
    const int64_t chunk = (n + parts - 1) / parts;
    jb = b + (int64_t)rank * chunk < b + n ? b + (int64_t)rank * chunk : b + n;
    je = jb + chunk < b + n ? jb + chunk : b + n;
  }
  /* final -1 -> 0: s = 0, the pass that sums the block; 0 -> 1: s = the block's exclusive
   * prefix, the final pass; after it: s = the total, done. Every participant calls it alike. */
  __device__ bool step(int &final, T &s) {
    if (final < 0) {
      s = (T)0;
      final = 0;
      return true;
    }
    if (final == 0) {
      /* team level: all lanes of a thread hold the same block sum; count it once, from the last
       * lane, so that every lane of the thread receives the thread's exclusive prefix */
      s = team_level == 2 ? strata_gpu_team_scan(t, s, &total) /* each participant its own block */
          : team_level    ? strata_gpu_team_scan(t, t->vector_rank == t->vector_length - 1 ? s : (T)0, &total)
                          : strata_gpu_vector_scan(t, s, &total);
      final = 1;
      return true;
    }
    s = total;
    return false;
  }
};
template <class T>
__device__ __forceinline__ strata_gpu_nested_scan<T> strata_gpu_make_scan(const strata_team_t *t,
                                                                           int64_t b, int64_t e,
                                                                           int level, const T &) {
  return strata_gpu_nested_scan<T>(t, b, e, level);
}

/* Broadcast from team rank 0, lane 0. The leading barrier keeps the slot from being rewritten
 * while a lane still reads the previous broadcast. */
template <class T>
__device__ __forceinline__ T strata_gpu_team_broadcast(const strata_team_t *t, T v) {
  T *slot = strata_gpu_team_slot<T>(t, 2 * STRATA_GPU_TEAM_SLOTS + 1);
  __syncthreads();
  if (t->team_rank == 0 && t->vector_rank == 0) *slot = v;
  __syncthreads();
  return *slot;
}

extern __shared__ double2 strata_gpu_dynamic_smem[];

/* --- pattern kernels and launchers (F::call is the kernel body) --------------------------- */
/* Range loops run over offsets k from begin (k < e - b, which the launch checks fits int64): an
 * index b + k never passes e, so ranges ending near INT64_MAX do not wrap. */
template <class F, class ARGS>
__global__ void strata_gpu_for_kernel(ARGS a, int64_t b, int64_t e) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x, n = e - b;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) F::call(&a, b + k);
}

template <class F, class ARGS>
static strata_status_t strata_gpu_for_launch(const strata_launch_t *L, const void *args) {
  const int64_t n = L->end - L->begin;
  if (n <= 0) return STRATA_SUCCESS;
  const int block = 256;
  const unsigned grid = STRATA_GPU_IMPL(grid)(L, n, block, 0);
  strata_gpu_for_kernel<F, ARGS>
      <<<grid, block, 0, (STRATA_GPU_STREAM)L->stream>>>(*(const ARGS *)args, L->begin, L->end);
  return STRATA_GPU_IMPL(after_launch)(L);
}

#define STRATA_GPU_REDUCE_BLOCK 256
#define STRATA_GPU_MAX_PARTIALS 1024

template <class F, class ARGS, class T>
__global__ void strata_gpu_reduce_kernel(ARGS a, int64_t b, int64_t e, int op, T *partials) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  T acc = strata_gpu_identity(op, T());
  const int64_t stride = (int64_t)gridDim.x * blockDim.x, n = e - b;
  for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) F::call(&a, b + k, &acc);
  acc = strata_gpu_block_reduce(op, acc, smem);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <class T>
__global__ void strata_gpu_reduce_final(int op, const T *partials, int n, T *out) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  T acc = strata_gpu_identity(op, T());
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = strata_gpu_join(op, acc, partials[i]);
  acc = strata_gpu_block_reduce(op, acc, smem);
  if (threadIdx.x == 0) *out = acc;
}

template <class F, class ARGS, class T>
static strata_status_t strata_gpu_reduce_launch(const strata_launch_t *L, const void *args) {
  const int64_t n = L->end - L->begin;
  const int op = (int)L->op;
  if (n <= 0 && !L->result_in_exec) {
    *(T *)L->result = strata_gpu_identity(op, T());
    return STRATA_SUCCESS;
  }
  if (n <= 0) { /* the identity, written in stream order */
    strata_gpu_reduce_final<T><<<1, STRATA_GPU_WARP, 0, (STRATA_GPU_STREAM)L->stream>>>(op, (const T *)NULL, 0, (T *)L->result);
    return STRATA_GPU_IMPL(after_launch)(L);
  }
  const int block = STRATA_GPU_REDUCE_BLOCK;
  const unsigned grid = STRATA_GPU_IMPL(grid)(L, n, block, STRATA_GPU_MAX_PARTIALS);
  T *tmp = NULL;
  strata_status_t st = STRATA_GPU_IMPL(temp)(L, (grid + 1) * sizeof(T), (void **)&tmp);
  if (st != STRATA_SUCCESS) return st;
  /* the result: straight into exec's memory (asynchronous), else through tmp and a copy */
  T *out = L->result_in_exec ? (T *)L->result : tmp + grid;
  strata_gpu_reduce_kernel<F, ARGS, T>
      <<<grid, block, 0, (STRATA_GPU_STREAM)L->stream>>>(*(const ARGS *)args, L->begin, L->end, op, tmp);
  strata_gpu_reduce_final<T><<<1, 1024, 0, (STRATA_GPU_STREAM)L->stream>>>(op, tmp, (int)grid, out);
  st = STRATA_GPU_IMPL(after_launch)(L);
  if (st != STRATA_SUCCESS || L->result_in_exec) return st;
  return STRATA_GPU_IMPL(fetch)(L, L->result, tmp + grid, sizeof(T));
}

/* Scan: (1) each block sums a contiguous chunk; (2) one block scans the chunk sums;
 * (3) each block walks its chunk in tiles, block-scanning contributions, and calls the body with
 * final = 1 and the running prefix. The total is the last index's partial after its final call
 * (the chunk sums' total differs from it in floating point: another association). */
template <class F, class ARGS, class T>
__global__ void strata_gpu_scan_up(ARGS a, int64_t b, int64_t e, int64_t chunk, T *sums) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  const int64_t n = e - b, ob = (int64_t)blockIdx.x * chunk; /* this block's offsets [ob, oe) */
  const int64_t oe = n - ob > chunk ? ob + chunk : n;
  T acc = 0;
  for (int64_t k = ob + threadIdx.x; k < oe; k += blockDim.x) F::call(&a, b + k, &acc, 0);
  acc = strata_gpu_block_reduce(STRATA_REDUCE_SUM, acc, smem);
  if (threadIdx.x == 0) sums[blockIdx.x] = acc;
}

template <class T>
__global__ void strata_gpu_scan_sums(T *sums, int n) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  /* n <= blockDim.x */
  T v = threadIdx.x < n ? sums[threadIdx.x] : (T)0, total;
  T ex = strata_gpu_block_scan(v, smem, &total);
  if (threadIdx.x < n) sums[threadIdx.x] = ex;
  if (threadIdx.x == 0) sums[n] = total;
}

template <class F, class ARGS, class T>
__global__ void strata_gpu_scan_down(ARGS a, int64_t b, int64_t e, int64_t chunk, T *sums) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  const int64_t n = e - b, ob = (int64_t)blockIdx.x * chunk; /* this block's offsets [ob, oe) */
  const int64_t oe = n - ob > chunk ? ob + chunk : n;
  T carry = sums[blockIdx.x];
  for (int64_t t0 = ob; t0 < oe; t0 += blockDim.x) {
    const int64_t k = t0 + threadIdx.x;
    T v = 0;
    if (k < oe) F::call(&a, b + k, &v, 0);
    T total;
    T ex = strata_gpu_block_scan(v, smem, &total);
    if (k < oe) {
      T p = carry + ex;
      F::call(&a, b + k, &p, 1);
      if (k == n - 1) sums[gridDim.x] = p; /* the total: the last inclusive value, as the body made it */
    }
    carry += total;
  }
}

template <class F, class ARGS, class T>
static strata_status_t strata_gpu_scan_launch(const strata_launch_t *L, const void *args) {
  const int64_t n = L->end - L->begin;
  if (n <= 0) {
    if (L->result) *(T *)L->result = (T)0;
    return STRATA_SUCCESS;
  }
  const int block = 256;
  unsigned nb = STRATA_GPU_IMPL(grid)(L, n, block, STRATA_GPU_MAX_PARTIALS);
  const int64_t chunk = (n + nb - 1) / nb;
  nb = (unsigned)((n + chunk - 1) / chunk);
  T *sums = NULL;
  strata_status_t st = STRATA_GPU_IMPL(temp)(L, (nb + 1) * sizeof(T), (void **)&sums);
  if (st != STRATA_SUCCESS) return st;
  STRATA_GPU_STREAM s = (STRATA_GPU_STREAM)L->stream;
  const ARGS &a = *(const ARGS *)args;
  strata_gpu_scan_up<F, ARGS, T><<<nb, block, 0, s>>>(a, L->begin, L->end, chunk, sums);
  strata_gpu_scan_sums<T><<<1, 1024, 0, s>>>(sums, (int)nb);
  strata_gpu_scan_down<F, ARGS, T><<<nb, block, 0, s>>>(a, L->begin, L->end, chunk, sums);
  st = STRATA_GPU_IMPL(after_launch)(L);
  if (st != STRATA_SUCCESS || !L->result) return st;
  return STRATA_GPU_IMPL(fetch)(L, L->result, sums + nb, sizeof(T));
}

template <class F, class ARGS>
__device__ __forceinline__ void strata_gpu_team_body(const ARGS &a, int64_t league_size, size_t scratch_team,
                                                     size_t scratch_thread, size_t scratch_bytes) {
  char *s = (char *)strata_gpu_dynamic_smem;
  strata_team_t t;
  t.league_size = league_size;
  t.team_rank = (int)threadIdx.y;
  t.team_size = (int)blockDim.y;
  t.vector_rank = (int)threadIdx.x;
  t.vector_length = (int)blockDim.x;
  t.scratch = s;
  t.thread_scratch = s + scratch_team + (size_t)threadIdx.y * scratch_thread;
  t.internal = s + scratch_bytes; /* STRATA_GPU_TEAM_RESERVE_BYTES after the user's scratch */
  for (int64_t r = blockIdx.x; r < league_size; r += gridDim.x) {
    t.league_rank = r;
    F::call(&a, &t);
    if (r + gridDim.x < league_size) __syncthreads(); /* scratch is reused by the next rank */
  }
}

template <class F, class ARGS>
__global__ void strata_gpu_team_kernel(ARGS a, int64_t league_size, size_t scratch_team,
                                       size_t scratch_thread, size_t scratch_bytes) {
  strata_gpu_team_body<F, ARGS>(a, league_size, scratch_team, scratch_thread, scratch_bytes);
}

/* STRATA_TEAM_KERNEL_BOUNDS: at most MAXT threads a team, registers capped so that MINT teams of
 * MAXT threads fit a multiprocessor (CUDA __launch_bounds__(MAXT, MINT)). HIP takes the first only:
 * its second parameter means waves per execution unit, not teams. */
#if defined(STRATA_KL_BACKEND_HIP)
#define STRATA_GPU_LAUNCH_BOUNDS(MAXT, MINT) __launch_bounds__(MAXT)
#else
#define STRATA_GPU_LAUNCH_BOUNDS(MAXT, MINT) __launch_bounds__(MAXT, MINT)
#endif
template <class F, class ARGS, int MAXT, int MINT>
__global__ void STRATA_GPU_LAUNCH_BOUNDS(MAXT, MINT)
    strata_gpu_team_kernel_bounded(ARGS a, int64_t league_size, size_t scratch_team, size_t scratch_thread,
                                   size_t scratch_bytes) {
  strata_gpu_team_body<F, ARGS>(a, league_size, scratch_team, scratch_thread, scratch_bytes);
}

/* L->team_size 0 (AUTO): chosen from the kernel's occupancy (STRATA_GPU_IMPL(team_auto)).
 * L->team_size_query: only store the team size the launch would use. bound: the kernel's launch
 * bound MAXT (STRATA_TEAM_KERNEL_BOUNDS), 0 without one; the refusals name it. */
template <class ARGS>
using strata_gpu_team_kernel_t = void (*)(ARGS, int64_t, size_t, size_t, size_t);

template <class F, class ARGS>
static strata_status_t strata_gpu_team_launch(const strata_launch_t *L, const void *args,
                                              strata_gpu_team_kernel_t<ARGS> kernel, int bound) {
  const void *fn = (const void *)kernel;
  int ts = L->team_size;
  if (ts == 0) {
    strata_status_t st = STRATA_GPU_IMPL(team_auto)(L, fn, STRATA_GPU_TEAM_RESERVE_BYTES, bound, &ts);
    if (st != STRATA_SUCCESS) return st;
  } else { /* an explicit team must also fit this kernel's bound and registers, refused before launch */
    strata_status_t st = STRATA_GPU_IMPL(team_fits)(L, fn, ts, bound);
    if (st != STRATA_SUCCESS) return st;
  }
  if (L->team_size_query) {
    *L->team_size_query = ts;
    return STRATA_SUCCESS;
  }
  if (L->league_size <= 0) return STRATA_SUCCESS;
  const size_t user = L->scratch_team + (size_t)ts * L->scratch_thread;
  const size_t shmem = user + STRATA_GPU_TEAM_RESERVE_BYTES;
  if (shmem > 48 * 1024) {
    strata_status_t st = STRATA_GPU_IMPL(shared_optin)(L, fn, shmem);
    if (st != STRATA_SUCCESS) return st;
  }
  /* at most 2^31 - 1 blocks (gridDim.x); on HIP also at most 2^32 - 1 work-items in all (the AQL
   * dispatch packet's grid size is a 32-bit count of threads: a league of 2^26 teams of 64 lanes
   * was refused as an invalid configuration). The teams grid-stride over the league ranks. */
  int64_t max_grid = 0x7fffffff;
#if defined(STRATA_KL_BACKEND_HIP)
  const int64_t per_team = (int64_t)ts * L->vector_length;
  if (0xffffffffll / per_team < max_grid) max_grid = 0xffffffffll / per_team;
#endif
  const unsigned grid = (unsigned)(L->league_size > max_grid ? max_grid : L->league_size);
  dim3 block((unsigned)L->vector_length, (unsigned)ts, 1);
  kernel<<<grid, block, shmem, (STRATA_GPU_STREAM)L->stream>>>(
      *(const ARGS *)args, L->league_size, L->scratch_team, L->scratch_thread, user);
  return STRATA_GPU_IMPL(after_launch)(L);
}

/* --- the kernel-definition macros -------------------------------------------------------------- */
#define STRATA_FOR_KERNEL(NAME, ARGS_T, A, I)                                                 \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I); \
  struct NAME##__functor {                                                                    \
    static __device__ __forceinline__ void call(const ARGS_T *a, int64_t i) { NAME##__body(a, i); } \
  };                                                                                          \
  extern "C" strata_status_t STRATA_KL_GPU_NAME(NAME)(const strata_launch_t *L, const void *args) { \
    return strata_gpu_for_launch<NAME##__functor, ARGS_T>(L, args);                           \
  }                                                                                           \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I)

#define STRATA_REDUCE_KERNEL(NAME, ARGS_T, A, I, VT, ACC)                                      \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, \
                                                      strata_kl_##VT *ACC);                     \
  struct NAME##__functor {                                                                     \
    static __device__ __forceinline__ void call(const ARGS_T *a, int64_t i, strata_kl_##VT *acc) { \
      NAME##__body(a, i, acc);                                                                 \
    }                                                                                          \
  };                                                                                           \
  extern "C" strata_status_t STRATA_KL_GPU_NAME(NAME)(const strata_launch_t *L, const void *args) { \
    return strata_gpu_reduce_launch<NAME##__functor, ARGS_T, strata_kl_##VT>(L, args);         \
  }                                                                                            \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, \
                                                      strata_kl_##VT *ACC)

#define STRATA_SCAN_KERNEL(NAME, ARGS_T, A, I, VT, PARTIAL, FINAL)                             \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, \
                                                      strata_kl_##VT *PARTIAL, int FINAL);      \
  struct NAME##__functor {                                                                     \
    static __device__ __forceinline__ void call(const ARGS_T *a, int64_t i, strata_kl_##VT *p, \
                                                int f) {                                       \
      NAME##__body(a, i, p, f);                                                                \
    }                                                                                          \
  };                                                                                           \
  extern "C" strata_status_t STRATA_KL_GPU_NAME(NAME)(const strata_launch_t *L, const void *args) { \
    return strata_gpu_scan_launch<NAME##__functor, ARGS_T, strata_kl_##VT>(L, args);           \
  }                                                                                            \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A, int64_t I, \
                                                      strata_kl_##VT *PARTIAL, int FINAL)

/* A team kernel whose launcher runs KERNEL, the __global__ instantiation to launch (parenthesized:
 * its template arguments hold commas): strata_gpu_team_kernel, or the launch-bounded one with its
 * MAXT as BOUND (0: none). */
#define STRATA_GPU_TEAM_KERNEL_DEF(NAME, ARGS_T, A, TEAM, KERNEL, BOUND)                        \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A,          \
                                                      const strata_team_t *TEAM);               \
  struct NAME##__functor {                                                                      \
    static __device__ __forceinline__ void call(const ARGS_T *a, const strata_team_t *t) {     \
      NAME##__body(a, t);                                                                       \
    }                                                                                           \
  };                                                                                            \
  extern "C" strata_status_t STRATA_KL_GPU_NAME(NAME)(const strata_launch_t *L, const void *args) { \
    return strata_gpu_team_launch<NAME##__functor, ARGS_T>(L, args, KERNEL, BOUND);             \
  }                                                                                             \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A,          \
                                                      const strata_team_t *TEAM)

#define STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM) \
  STRATA_GPU_TEAM_KERNEL_DEF(NAME, ARGS_T, A, TEAM, (strata_gpu_team_kernel<NAME##__functor, ARGS_T>), 0)

#define STRATA_TEAM_KERNEL_BOUNDS(NAME, ARGS_T, A, TEAM, MAXT, MINT) \
  STRATA_GPU_TEAM_KERNEL_DEF(NAME, ARGS_T, A, TEAM,                  \
                             (strata_gpu_team_kernel_bounded<NAME##__functor, ARGS_T, MAXT, MINT>), (MAXT))

#define STRATA_TEAM_THREAD_RANGE(T, I, B, E) \
  for (int64_t I = (B) + (T)->team_rank; I < (E); I += (T)->team_size)
#define STRATA_THREAD_VECTOR_RANGE(T, J, B, E) \
  for (int64_t J = (B) + (T)->vector_rank; J < (E); J += (T)->vector_length)
#define STRATA_TEAM_VECTOR_RANGE(T, J, B, E)                                           \
  for (int64_t J = (B) + (int64_t)(T)->team_rank * (T)->vector_length + (T)->vector_rank; \
       J < (E); J += (int64_t)(T)->team_size * (T)->vector_length)
#define STRATA_THREAD_VECTOR_SUM(T, J, B, E, ACC)                                           \
  for (int strata_once_ = ((ACC) = 0, 1); strata_once_;                                    \
       strata_once_ = 0, (ACC) = strata_gpu_vector_sum((T), (ACC)))                        \
    STRATA_THREAD_VECTOR_RANGE(T, J, B, E)
#define strata_team_barrier(T) __syncthreads()

/* reduce-form loops: acc = identity, the range loop folds, the increment combines */
#define STRATA_KL_GPU_REDUCE_(OP, VT, ACC, COMBINE)                                                \
  for (int strata_once_ = ((ACC) = strata_kl_identity_##VT(STRATA_REDUCE_##OP), 1); strata_once_; \
       strata_once_ = 0, (ACC) = (COMBINE))
#define STRATA_THREAD_VECTOR_REDUCE(T, J, B, E, OP, VT, ACC)                                   \
  STRATA_KL_GPU_REDUCE_(OP, VT, ACC, strata_gpu_vector_reduce((T), STRATA_REDUCE_##OP, (ACC))) \
  STRATA_THREAD_VECTOR_RANGE(T, J, B, E)
/* the lanes of a thread hold the same value: counted once, from lane 0 */
#define STRATA_TEAM_THREAD_REDUCE(T, I, B, E, OP, VT, ACC)                                         \
  STRATA_KL_GPU_REDUCE_(OP, VT, ACC,                                                              \
                        strata_gpu_team_reduce((T), STRATA_REDUCE_##OP,                           \
                                               (T)->vector_rank == 0                              \
                                                   ? (ACC)                                        \
                                                   : strata_kl_identity_##VT(STRATA_REDUCE_##OP))) \
  STRATA_TEAM_THREAD_RANGE(T, I, B, E)
#define STRATA_TEAM_VECTOR_REDUCE(T, J, B, E, OP, VT, ACC)                                   \
  STRATA_KL_GPU_REDUCE_(OP, VT, ACC, strata_gpu_team_reduce((T), STRATA_REDUCE_##OP, (ACC))) \
  STRATA_TEAM_VECTOR_RANGE(T, J, B, E)

/* scans: a block of indices per participant, two passes (strata_gpu_nested_scan) */
#define STRATA_KL_GPU_SCAN_(T, J, B, E, S, FINAL, LEVEL)                                          \
  for (auto strata_scan_ = strata_gpu_make_scan((T), (B), (E), (LEVEL), (S)); strata_scan_.live; \
       strata_scan_.live = 0)                                                                    \
    for (int FINAL = -1; strata_scan_.step(FINAL, (S));)                                         \
      for (int64_t J = strata_scan_.jb; J < strata_scan_.je; ++J)
#define STRATA_THREAD_VECTOR_SCAN(T, J, B, E, S, FINAL) STRATA_KL_GPU_SCAN_(T, J, B, E, S, FINAL, 0)
#define STRATA_TEAM_THREAD_SCAN(T, I, B, E, S, FINAL) STRATA_KL_GPU_SCAN_(T, I, B, E, S, FINAL, 1)
#define STRATA_TEAM_VECTOR_SCAN(T, J, B, E, S, FINAL) STRATA_KL_GPU_SCAN_(T, J, B, E, S, FINAL, 2)

#define STRATA_KL_GPU_BROADCAST_(s, TYPE)                                                 \
  static __device__ __forceinline__ TYPE strata_team_broadcast_##s(const strata_team_t *t, TYPE v) { \
    return strata_gpu_team_broadcast(t, v);                                               \
  }
STRATA_KL_GPU_BROADCAST_(i32, int32_t)
STRATA_KL_GPU_BROADCAST_(i64, int64_t)
STRATA_KL_GPU_BROADCAST_(f32, float)
STRATA_KL_GPU_BROADCAST_(f64, double)
#undef STRATA_KL_GPU_BROADCAST_

/* --- atomics ---------------------------------------------------------------------------------
 * Native where the vendor has the operation for the type (add and exchange, i32 min / max);
 * int64_t through unsigned long long (two's complement); CAS of f32 / f64 on the bits; i64, f32
 * and f64 min / max by an atomicCAS loop on the bits that stops as soon as v does not improve. */
template <class T, class U>
__device__ __forceinline__ U strata_gpu_bits(T v) {
  U u;
  memcpy(&u, &v, sizeof u);
  return u;
}
template <class T, class U>
__device__ __forceinline__ T strata_gpu_from_bits(U u) {
  T v;
  memcpy(&v, &u, sizeof v);
  return v;
}
/* U: int for 4-byte T, unsigned long long for 8-byte T (atomicCAS's types) */
template <class T, class U>
__device__ T strata_gpu_atomic_minmax(T *p, T v, int is_max) {
  U *q = (U *)p;
  U old = *(volatile U *)q;
  for (;;) {
    const T cur = strata_gpu_from_bits<T, U>(old);
    if (!(is_max ? v > cur : v < cur)) return cur;
    const U assumed = old;
    old = atomicCAS(q, assumed, strata_gpu_bits<T, U>(v));
    if (old == assumed) return cur;
  }
}
template <class T, class U>
__device__ __forceinline__ T strata_gpu_atomic_cas(T *p, T expected, T desired) {
  return strata_gpu_from_bits<T, U>(atomicCAS((U *)p, strata_gpu_bits<T, U>(expected),
                                               strata_gpu_bits<T, U>(desired)));
}
typedef unsigned long long strata_gpu_ull;

static __device__ __forceinline__ int32_t strata_atomic_fetch_add_i32(int32_t *p, int32_t v) {
  return atomicAdd(p, v);
}
static __device__ __forceinline__ int64_t strata_atomic_fetch_add_i64(int64_t *p, int64_t v) {
  return (int64_t)atomicAdd((strata_gpu_ull *)p, (strata_gpu_ull)v);
}
static __device__ __forceinline__ float strata_atomic_fetch_add_f32(float *p, float v) {
  return atomicAdd(p, v);
}
static __device__ __forceinline__ double strata_atomic_fetch_add_f64(double *p, double v) {
  return atomicAdd(p, v);
}

/* add = fetch-add with the result unused (the compiler emits the reduction form, RED) */
#define STRATA_KL_GPU_ADD_(s, TYPE)                                                        \
  static __device__ __forceinline__ void strata_atomic_add_##s(TYPE *p, TYPE v) {          \
    (void)strata_atomic_fetch_add_##s(p, v);                                               \
  }
STRATA_KL_GPU_ADD_(i32, int32_t)
STRATA_KL_GPU_ADD_(i64, int64_t)
STRATA_KL_GPU_ADD_(f32, float)
STRATA_KL_GPU_ADD_(f64, double)
#undef STRATA_KL_GPU_ADD_

/* atomic load: a volatile read (one naturally aligned access, never torn, never cached in a
 * register across the loop of a CAS retry) */
#define STRATA_KL_GPU_LOAD_(s, TYPE)                                                            \
  static __device__ __forceinline__ TYPE strata_atomic_load_##s(const TYPE *p) { return *(const volatile TYPE *)p; }
STRATA_KL_GPU_LOAD_(i32, int32_t)
STRATA_KL_GPU_LOAD_(i64, int64_t)
STRATA_KL_GPU_LOAD_(f32, float)
STRATA_KL_GPU_LOAD_(f64, double)
#undef STRATA_KL_GPU_LOAD_

/* the fence (strata/kl.h): device scope */
static __device__ __forceinline__ void strata_memory_fence(void) { __threadfence(); }

/* the most lanes a team thread can have (strata/kl.h): the warp */
#define STRATA_KL_VECTOR_MAX STRATA_GPU_WARP

/* a pause of about ns nanoseconds (strata/kl.h): __nanosleep (sm_70 on), on AMD s_sleep 1 (64
 * clocks) repeated ns / 32 times, 1 to 127 */
static __device__ __forceinline__ void strata_kl_nanosleep(unsigned ns) {
#if defined(STRATA_KL_BACKEND_HIP)
  const unsigned u = ns / 32 < 1 ? 1 : ns / 32 > 127 ? 127 : ns / 32;
  for (unsigned k = 0; k < u; ++k) __builtin_amdgcn_s_sleep(1);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(ns);
#else
  (void)ns;
#endif
}

static __device__ __forceinline__ int32_t strata_atomic_exchange_i32(int32_t *p, int32_t v) {
  return atomicExch(p, v);
}
static __device__ __forceinline__ int64_t strata_atomic_exchange_i64(int64_t *p, int64_t v) {
  return (int64_t)atomicExch((strata_gpu_ull *)p, (strata_gpu_ull)v);
}
static __device__ __forceinline__ float strata_atomic_exchange_f32(float *p, float v) {
  return atomicExch(p, v);
}
static __device__ __forceinline__ double strata_atomic_exchange_f64(double *p, double v) {
  return strata_gpu_from_bits<double, strata_gpu_ull>(
      atomicExch((strata_gpu_ull *)p, strata_gpu_bits<double, strata_gpu_ull>(v)));
}

static __device__ __forceinline__ int32_t strata_atomic_min_i32(int32_t *p, int32_t v) { return atomicMin(p, v); }
static __device__ __forceinline__ int32_t strata_atomic_max_i32(int32_t *p, int32_t v) { return atomicMax(p, v); }
#define STRATA_KL_GPU_MINMAX_(s, TYPE, U)                                             \
  static __device__ __forceinline__ TYPE strata_atomic_min_##s(TYPE *p, TYPE v) {     \
    return strata_gpu_atomic_minmax<TYPE, U>(p, v, 0);                                \
  }                                                                                   \
  static __device__ __forceinline__ TYPE strata_atomic_max_##s(TYPE *p, TYPE v) {     \
    return strata_gpu_atomic_minmax<TYPE, U>(p, v, 1);                                \
  }
STRATA_KL_GPU_MINMAX_(i64, int64_t, strata_gpu_ull)
STRATA_KL_GPU_MINMAX_(f32, float, int)
STRATA_KL_GPU_MINMAX_(f64, double, strata_gpu_ull)
#undef STRATA_KL_GPU_MINMAX_

static __device__ __forceinline__ int32_t strata_atomic_cas_i32(int32_t *p, int32_t e, int32_t d) {
  return atomicCAS(p, e, d);
}
static __device__ __forceinline__ int64_t strata_atomic_cas_i64(int64_t *p, int64_t e, int64_t d) {
  return strata_gpu_atomic_cas<int64_t, strata_gpu_ull>(p, e, d);
}
static __device__ __forceinline__ float strata_atomic_cas_f32(float *p, float e, float d) {
  return strata_gpu_atomic_cas<float, int>(p, e, d);
}
static __device__ __forceinline__ double strata_atomic_cas_f64(double *p, double e, double d) {
  return strata_gpu_atomic_cas<double, strata_gpu_ull>(p, e, d);
}
static __device__ __forceinline__ uint64_t strata_atomic_cas_u64(uint64_t *p, uint64_t e, uint64_t d) {
  return strata_gpu_atomic_cas<uint64_t, strata_gpu_ull>(p, e, d);
}

#include "strata/kl_team_sort.h"

#endif
