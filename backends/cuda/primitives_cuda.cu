/* strata — device-wide primitives on CUDA: CUB names only; the code is
 * backends/gpu/primitives_gpu.inc. */
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "strata_kl_cuda.h"
#define STRATA_GPU_BACKEND_NAME "cuda"
#define STRATA_GPU_SORT_COUNT_T int
#define STRATA_GPU_SORT_MAX INT_MAX
#define STRATA_GPU_RADIX_SORT_PAIRS(tmp, bytes, kin, kout, vin, vout, n, bits, s) \
  cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, vin, vout, n, 0, bits, s)
/* CUB chooses 64-bit offsets for an int64_t item count and scans in place when in == out */
#define STRATA_GPU_EXCLUSIVE_SUM(tmp, bytes, in, out, n, s) \
  cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int64_t)(n), s)
#include "../gpu/primitives_gpu.inc"
