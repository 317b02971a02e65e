/* strata — device-wide primitives on HIP: rocPRIM names only; the code is
 * backends/gpu/primitives_gpu.inc. */
#include <cstdint>
#include <rocprim/device/device_radix_sort.hpp>
#include <rocprim/device/device_scan.hpp>

#include "strata_kl_hip.h"
#define STRATA_GPU_BACKEND_NAME "hip"
#define STRATA_GPU_SORT_COUNT_T size_t
#define STRATA_GPU_SORT_MAX INT64_MAX
#define STRATA_GPU_RADIX_SORT_PAIRS(tmp, bytes, kin, kout, vin, vout, n, bits, s) \
  rocprim::radix_sort_pairs(tmp, bytes, kin, kout, vin, vout, n, 0, (unsigned)(bits), s)
/* rocPRIM takes a size_t count and allows output == input */
#define STRATA_GPU_EXCLUSIVE_SUM(tmp, bytes, in, out, n, s) \
  rocprim::exclusive_scan(tmp, bytes, in, out, (int64_t)0, (size_t)(n), rocprim::plus<int64_t>(), s)
#include "../gpu/primitives_gpu.inc"
