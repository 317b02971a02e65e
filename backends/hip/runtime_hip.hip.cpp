/* strata — HIP runtime glue: names only; the code is backends/gpu/runtime_gpu.inc. */
#include "strata_kl_hip.h"
#define STRATA_GPU_ATTR_MEMORY_POOLS hipDeviceAttributeMemoryPoolsSupported
#define STRATA_GPU_BACKEND_NAME "hip"
#define STRATA_GPU_BACKEND_ID STRATA_BACKEND_HIP
#define STRATA_GPU_MAX_SHARED(p) ((size_t)(p).sharedMemPerBlock)
#define STRATA_GPU_DEVICE_PROP hipDeviceProp_t
#ifdef __HIP_DEVICE_COMPILE__
#define STRATA_GPU_HOST_PASS 0
#else
#define STRATA_GPU_HOST_PASS 1
#endif
/* roctx ranges when strata was configured with roctracer (STRATA_HAVE_ROCTX; Debian packages
 * none): otherwise the HIP backend has no range hook and profiling still works through the hooks */
#if STRATA_HAVE_ROCTX && STRATA_GPU_HOST_PASS
#include <roctracer/roctx.h>
#define STRATA_GPU_RANGE_PUSH(name) roctxRangePushA(name)
#define STRATA_GPU_RANGE_POP() roctxRangePop()
#endif
#include "../gpu/runtime_gpu.inc"
