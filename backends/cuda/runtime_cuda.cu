/* strata — CUDA runtime glue: names only; the code is backends/gpu/runtime_gpu.inc. */
#include "strata_kl_cuda.h"
#define STRATA_GPU_ATTR_MEMORY_POOLS cudaDevAttrMemoryPoolsSupported
#define STRATA_GPU_BACKEND_NAME "cuda"
#define STRATA_GPU_BACKEND_ID STRATA_BACKEND_CUDA
#define STRATA_GPU_MAX_SHARED(p) ((size_t)(p).sharedMemPerBlockOptin)
#define STRATA_GPU_DEVICE_PROP cudaDeviceProp
#define STRATA_GPU_HOST_PASS 1
/* NVTX ranges: nvtx3 is header-only in the CUDA toolkit (a no-op unless a tool such as Nsight
 * Systems is attached) */
#include <nvtx3/nvToolsExt.h>
#define STRATA_GPU_RANGE_PUSH(name) nvtxRangePushA(name)
#define STRATA_GPU_RANGE_POP() nvtxRangePop()
#include "../gpu/runtime_gpu.inc"
