/* strata — device-wide sort by key on CUDA: CUB radix sort (DESIGN §2). */
#include <cub/device/device_radix_sort.cuh>

#include "strata_kl_cuda.h"
#include "../../core/src/internal.h"

extern "C" strata_status_t strata_impl_cuda_sort_pairs_i64(strata_exec_t *exec, int64_t n, int key_bits,
                                                           int64_t *keys, int64_t *values) {
  cudaStream_t s = (cudaStream_t)exec->stream;
  size_t tmp_bytes = 0;
  const int nn = (int)n;
  if ((int64_t)nn != n)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "cuda sort: n = %lld exceeds the limit %d", (long long)n, 0x7fffffff);
  cudaError_t e = cub::DeviceRadixSort::SortPairs(NULL, tmp_bytes, (const int64_t *)keys, (int64_t *)NULL,
                                                  (const int64_t *)values, (int64_t *)NULL, nn, 0, key_bits, s);
  if (e != cudaSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "cuda sort: %s", cudaGetErrorString(e));
  size_t need = tmp_bytes + 2 * (size_t)n * sizeof(int64_t) + 256;
  void *buf = NULL;
  strata_status_t st = strata_impl_exec_temp(exec, need, &buf);
  if (st != STRATA_SUCCESS) return st;
  int64_t *k2 = (int64_t *)buf, *v2 = k2 + n;
  void *tmp = (void *)(((uintptr_t)(v2 + n) + 255) & ~(uintptr_t)255);
  e = cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, (const int64_t *)keys, k2, (const int64_t *)values, v2,
                                      nn, 0, key_bits, s);
  if (e != cudaSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "cuda sort: %s", cudaGetErrorString(e));
  cudaMemcpyAsync(keys, k2, (size_t)n * sizeof(int64_t), cudaMemcpyDeviceToDevice, s);
  cudaMemcpyAsync(values, v2, (size_t)n * sizeof(int64_t), cudaMemcpyDeviceToDevice, s);
  e = cudaStreamSynchronize(s);
  if (e != cudaSuccess) return strata_impl_error(STRATA_ERR_DEVICE, "cuda sort: %s", cudaGetErrorString(e));
  return STRATA_SUCCESS;
}
