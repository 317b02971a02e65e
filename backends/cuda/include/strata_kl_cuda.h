/* strata kernel language — CUDA glue: runtime-API names, warp 32, 32-bit lane masks. */
#ifndef STRATA_KL_CUDA_H
#define STRATA_KL_CUDA_H
#define STRATA_KL_MAPPING "cuda"
#define STRATA_KL_BACKEND_CUDA 1
#include <cuda_runtime.h>
#define STRATA_GPU_API(x) cuda##x
#define STRATA_GPU_IMPL(x) strata_impl_cuda_##x
#define STRATA_KL_GPU_NAME(N) N##__cuda
#define STRATA_GPU_WARP 32
typedef unsigned strata_gpu_mask_t;
#define STRATA_GPU_FULL_MASK 0xffffffffu
#define STRATA_GPU_GROUP_MASK(vl, lane) \
  ((vl) == 32 ? 0xffffffffu : (((1u << (vl)) - 1u) << ((lane) & ~((vl)-1))))
/* lanes 0..n-1 of a warp (1 <= n <= 32): the existing lanes of a partly filled last warp */
#define STRATA_GPU_LOW_MASK(n) ((n) >= 32 ? 0xffffffffu : ((1u << (n)) - 1u))
#define STRATA_GPU_SHFL_XOR(mask, v, o, w) __shfl_xor_sync((mask), (v), (o), (w))
#define STRATA_GPU_SHFL_UP(mask, v, d, w) __shfl_up_sync((mask), (v), (d), (w))
#define STRATA_GPU_SHFL_DOWN(mask, v, d, w) __shfl_down_sync((mask), (v), (d), (w))
#define STRATA_GPU_SHFL(mask, v, src, w) __shfl_sync((mask), (v), (src), (w))
#include "strata_kl_gpu.h"
#endif
