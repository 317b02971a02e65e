/* strata kernel language — HIP glue: runtime-API names, warp 64 (CDNA, gfx90a), shuffles without
 * masks (HIP's __shfl_* act on the active lanes; masks are kept 64-bit for the shared code). */
#ifndef STRATA_KL_HIP_H
#define STRATA_KL_HIP_H
#define STRATA_KL_MAPPING "hip"
#define STRATA_KL_BACKEND_HIP 1
#include <hip/hip_runtime.h>
#define STRATA_GPU_API(x) hip##x
#define STRATA_GPU_IMPL(x) strata_impl_hip_##x
#define STRATA_KL_GPU_NAME(N) N##__hip
#define STRATA_GPU_WARP 64
typedef unsigned long long strata_gpu_mask_t;
#define STRATA_GPU_FULL_MASK 0xffffffffffffffffull
#define STRATA_GPU_GROUP_MASK(vl, lane) \
  ((vl) == 64 ? STRATA_GPU_FULL_MASK : (((1ull << (vl)) - 1ull) << ((lane) & ~((vl)-1))))
/* lanes 0..n-1 of a wavefront (1 <= n <= 64): the existing lanes of a partly filled last one */
#define STRATA_GPU_LOW_MASK(n) ((n) >= 64 ? STRATA_GPU_FULL_MASK : ((1ull << (n)) - 1ull))
#define STRATA_GPU_SHFL_XOR(mask, v, o, w) ((void)(mask), __shfl_xor((v), (o), (w)))
#define STRATA_GPU_SHFL_UP(mask, v, d, w) ((void)(mask), __shfl_up((v), (d), (w)))
#define STRATA_GPU_SHFL_DOWN(mask, v, d, w) ((void)(mask), __shfl_down((v), (d), (w)))
#define STRATA_GPU_SHFL(mask, v, src, w) ((void)(mask), __shfl((v), (src), (w)))
#include "strata_kl_gpu.h"
#endif
