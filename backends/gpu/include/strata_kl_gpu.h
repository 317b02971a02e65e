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
strata_status_t STRATA_GPU_IMPL(shared_optin)(const strata_launch_t *L, const void *kernel_fn,
                                              size_t bytes);
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
#undef STRATA_GPU_JOIN_OVERLOADS

template <class T>
__device__ __forceinline__ T strata_gpu_warp_reduce(int op, T v) {
  for (int o = STRATA_GPU_WARP / 2; o > 0; o >>= 1)
    v = strata_gpu_join(op, v, STRATA_GPU_SHFL_XOR(STRATA_GPU_FULL_MASK, v, o, STRATA_GPU_WARP));
  return v;
}

/* Reduces v over a 1-D block; the result is valid in thread 0. smem: >= 1024/warp entries. */
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

/* Sum over the vector lanes of one team thread (vector_length lanes, aligned inside a warp);
 * every lane receives the total. */
template <class T>
__device__ __forceinline__ T strata_gpu_vector_sum(const strata_team_t *t, T v) {
  const int vl = t->vector_length;
  if (vl == 1) return v;
  const int lane = (int)((threadIdx.y * blockDim.x + threadIdx.x) % STRATA_GPU_WARP);
  const strata_gpu_mask_t mask = STRATA_GPU_GROUP_MASK(vl, lane);
  for (int o = vl / 2; o > 0; o >>= 1) v += STRATA_GPU_SHFL_XOR(mask, v, o, vl);
  return v;
}

extern __shared__ double2 strata_gpu_dynamic_smem[];

/* --- pattern kernels and launchers (F::call is the kernel body) --------------------------- */
template <class F, class ARGS>
__global__ void strata_gpu_for_kernel(ARGS a, int64_t b, int64_t e) {
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = b + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < e; i += stride)
    F::call(&a, i);
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
  T acc = strata_gpu_identity(op, (T)0);
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  for (int64_t i = b + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < e; i += stride)
    F::call(&a, i, &acc);
  acc = strata_gpu_block_reduce(op, acc, smem);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

template <class T>
__global__ void strata_gpu_reduce_final(int op, const T *partials, int n, T *out) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  T acc = strata_gpu_identity(op, (T)0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc = strata_gpu_join(op, acc, partials[i]);
  acc = strata_gpu_block_reduce(op, acc, smem);
  if (threadIdx.x == 0) *out = acc;
}

template <class F, class ARGS, class T>
static strata_status_t strata_gpu_reduce_launch(const strata_launch_t *L, const void *args) {
  const int64_t n = L->end - L->begin;
  const int op = (int)L->op;
  if (n <= 0) {
    *(T *)L->result = strata_gpu_identity(op, (T)0) ;
    return STRATA_SUCCESS;
  }
  const int block = STRATA_GPU_REDUCE_BLOCK;
  const unsigned grid = STRATA_GPU_IMPL(grid)(L, n, block, STRATA_GPU_MAX_PARTIALS);
  T *tmp = NULL;
  strata_status_t st = STRATA_GPU_IMPL(temp)(L, (grid + 1) * sizeof(T), (void **)&tmp);
  if (st != STRATA_SUCCESS) return st;
  strata_gpu_reduce_kernel<F, ARGS, T>
      <<<grid, block, 0, (STRATA_GPU_STREAM)L->stream>>>(*(const ARGS *)args, L->begin, L->end, op, tmp);
  strata_gpu_reduce_final<T><<<1, 1024, 0, (STRATA_GPU_STREAM)L->stream>>>(op, tmp, (int)grid, tmp + grid);
  st = STRATA_GPU_IMPL(after_launch)(L);
  if (st != STRATA_SUCCESS) return st;
  return STRATA_GPU_IMPL(fetch)(L, L->result, tmp + grid, sizeof(T));
}

/* Scan: (1) each block sums a contiguous chunk; (2) one block scans the chunk sums;
 * (3) each block walks its chunk in tiles, block-scanning contributions, and calls the body with
 * final = 1 and the running prefix. */
template <class F, class ARGS, class T>
__global__ void strata_gpu_scan_up(ARGS a, int64_t b, int64_t e, int64_t chunk, T *sums) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  const int64_t cb = b + (int64_t)blockIdx.x * chunk;
  const int64_t ce = cb + chunk < e ? cb + chunk : e;
  T acc = 0;
  for (int64_t i = cb + threadIdx.x; i < ce; i += blockDim.x) F::call(&a, i, &acc, 0);
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
__global__ void strata_gpu_scan_down(ARGS a, int64_t b, int64_t e, int64_t chunk, const T *sums) {
  __shared__ T smem[1024 / STRATA_GPU_WARP + 1];
  const int64_t cb = b + (int64_t)blockIdx.x * chunk;
  const int64_t ce = cb + chunk < e ? cb + chunk : e;
  T carry = sums[blockIdx.x];
  for (int64_t t0 = cb; t0 < ce; t0 += blockDim.x) {
    const int64_t i = t0 + threadIdx.x;
    T v = 0;
    if (i < ce) F::call(&a, i, &v, 0);
    T total;
    T ex = strata_gpu_block_scan(v, smem, &total);
    if (i < ce) {
      T p = carry + ex;
      F::call(&a, i, &p, 1);
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
__global__ void strata_gpu_team_kernel(ARGS a, int64_t league_size, size_t scratch_team,
                                       size_t scratch_thread) {
  char *s = (char *)strata_gpu_dynamic_smem;
  strata_team_t t;
  t.league_size = league_size;
  t.team_rank = (int)threadIdx.y;
  t.team_size = (int)blockDim.y;
  t.vector_rank = (int)threadIdx.x;
  t.vector_length = (int)blockDim.x;
  t.scratch = s;
  t.thread_scratch = s + scratch_team + (size_t)threadIdx.y * scratch_thread;
  for (int64_t r = blockIdx.x; r < league_size; r += gridDim.x) {
    t.league_rank = r;
    F::call(&a, &t);
    if (r + gridDim.x < league_size) __syncthreads(); /* scratch is reused by the next rank */
  }
}

template <class F, class ARGS>
static strata_status_t strata_gpu_team_launch(const strata_launch_t *L, const void *args) {
  if (L->league_size <= 0) return STRATA_SUCCESS;
  const size_t shmem = L->scratch_team + (size_t)L->team_size * L->scratch_thread;
  if (shmem > 48 * 1024) {
    strata_status_t st =
        STRATA_GPU_IMPL(shared_optin)(L, (const void *)strata_gpu_team_kernel<F, ARGS>, shmem);
    if (st != STRATA_SUCCESS) return st;
  }
  const unsigned grid = L->league_size > 0x7fffffff ? 0x7fffffffu : (unsigned)L->league_size;
  dim3 block((unsigned)L->vector_length, (unsigned)L->team_size, 1);
  strata_gpu_team_kernel<F, ARGS><<<grid, block, shmem, (STRATA_GPU_STREAM)L->stream>>>(
      *(const ARGS *)args, L->league_size, L->scratch_team, L->scratch_thread);
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

#define STRATA_TEAM_KERNEL(NAME, ARGS_T, A, TEAM)                                               \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A,          \
                                                      const strata_team_t *TEAM);               \
  struct NAME##__functor {                                                                      \
    static __device__ __forceinline__ void call(const ARGS_T *a, const strata_team_t *t) {     \
      NAME##__body(a, t);                                                                       \
    }                                                                                           \
  };                                                                                            \
  extern "C" strata_status_t STRATA_KL_GPU_NAME(NAME)(const strata_launch_t *L, const void *args) { \
    return strata_gpu_team_launch<NAME##__functor, ARGS_T>(L, args);                            \
  }                                                                                             \
  static __device__ __forceinline__ void NAME##__body(const ARGS_T *STRATA_RESTRICT A,          \
                                                      const strata_team_t *TEAM)

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

static __device__ __forceinline__ void strata_atomic_add_f64(double *p, double v) { atomicAdd(p, v); }
static __device__ __forceinline__ void strata_atomic_add_i64(int64_t *p, int64_t v) {
  atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
static __device__ __forceinline__ void strata_atomic_add_i32(int32_t *p, int32_t v) { atomicAdd(p, v); }
static __device__ __forceinline__ int64_t strata_atomic_fetch_add_i64(int64_t *p, int64_t v) {
  return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
static __device__ __forceinline__ uint64_t strata_atomic_cas_u64(uint64_t *p, uint64_t expected,
                                                                 uint64_t desired) {
  return (uint64_t)atomicCAS((unsigned long long *)p, (unsigned long long)expected,
                             (unsigned long long)desired);
}

#endif
