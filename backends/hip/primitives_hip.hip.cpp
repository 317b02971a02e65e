/* strata — device-wide sort by key on HIP: rocPRIM radix sort (DESIGN §2). */
#include <rocprim/device/device_radix_sort.hpp>

#include "strata_kl_hip.h"
#include "../../core/src/internal.h"

extern "C" strata_status_t strata_impl_hip_sort_pairs_i64(strata_exec_t *exec, int64_t n, int key_bits,
                                                          int64_t *keys, int64_t *values) {
  hipStream_t s = (hipStream_t)exec->stream;
  size_t tmp_bytes = 0;
  hipError_t e = rocprim::radix_sort_pairs(NULL, tmp_bytes, (const int64_t *)keys, (int64_t *)NULL,
                                           (const int64_t *)values, (int64_t *)NULL, (size_t)n, 0,
                                           (unsigned)key_bits, s);
  if (e != hipSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "hip sort: %s", hipGetErrorString(e));
  size_t need = tmp_bytes + 2 * (size_t)n * sizeof(int64_t) + 256;
  void *buf = NULL;
  strata_status_t st = strata_impl_exec_temp(exec, need, &buf);
  if (st != STRATA_SUCCESS) return st;
  int64_t *k2 = (int64_t *)buf, *v2 = k2 + n;
  void *tmp = (void *)(((uintptr_t)(v2 + n) + 255) & ~(uintptr_t)255);
  e = rocprim::radix_sort_pairs(tmp, tmp_bytes, (const int64_t *)keys, k2, (const int64_t *)values, v2,
                                (size_t)n, 0, (unsigned)key_bits, s);
  if (e != hipSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "hip sort: %s", hipGetErrorString(e));
  (void)hipMemcpyAsync(keys, k2, (size_t)n * sizeof(int64_t), hipMemcpyDeviceToDevice, s);
  (void)hipMemcpyAsync(values, v2, (size_t)n * sizeof(int64_t), hipMemcpyDeviceToDevice, s);
  e = hipStreamSynchronize(s);
  if (e != hipSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "hip sort: %s", hipGetErrorString(e));
  return STRATA_SUCCESS;
}
