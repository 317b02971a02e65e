/* strata example: y = a*x + y and the dot product x.y on the default backend (the build's,
 * or STRATA_BACKEND=serial|openmp|cuda|hip), checked against the exact result. Exit status 0
 * when the result is right, 1 when it is wrong or strata fails, 77 when the default backend
 * has no device. */
#include <stdio.h>
#include <stdlib.h>

#include <strata/strata.h>

#include "saxpy.h"

STRATA_KERNEL_DECLARE(saxpy);
STRATA_KERNEL_DECLARE(saxpy_dot);

#define CHECK(call)                                                                        \
  do {                                                                                     \
    strata_status_t st_ = (call);                                                          \
    if (st_ != STRATA_SUCCESS) {                                                           \
      fprintf(stderr, "saxpy: %s: %s: %s\n", #call, strata_status_name(st_), strata_error_message()); \
      strata_finalize();                                                                   \
      return st_ == STRATA_ERR_NO_DEVICE ? 77 : 1;                                         \
    }                                                                                      \
  } while (0)

int main(void) {
  const int64_t n = 1 << 20;
  const float a = 2.0f;
  CHECK(strata_init(NULL));
  strata_exec_t *exec = NULL;
  CHECK(strata_exec_default(STRATA_BACKEND_DEFAULT, &exec));
  printf("saxpy on backend '%s', n = %lld\n", strata_backend_name(strata_exec_backend(exec)), (long long)n);

  /* small integers: every product and sum below is exact in float and double, so the check is
   * exact whatever the backend (fused multiply-add or not) */
  float *hx = (float *)malloc((size_t)n * sizeof(float)), *hy = (float *)malloc((size_t)n * sizeof(float));
  if (!hx || !hy) return 1;
  for (int64_t i = 0; i < n; ++i) {
    hx[i] = (float)(i % 7);
    hy[i] = (float)(i % 5);
  }
  float *x = NULL, *y = NULL;
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(float), (void **)&x));
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(float), (void **)&y));
  CHECK(strata_mem_copy(exec, x, hx, (size_t)n * sizeof(float)));
  CHECK(strata_mem_copy(exec, y, hy, (size_t)n * sizeof(float)));

  saxpy_args_t args = {a, x, y};
  CHECK(strata_parallel_for(exec, "saxpy", strata_range(0, n), &saxpy, &args));
  double dot = 0.0;
  CHECK(strata_parallel_reduce(exec, "dot", strata_range(0, n), &saxpy_dot, &args, STRATA_REDUCE_SUM, &dot));
  CHECK(strata_mem_copy(exec, hy, y, (size_t)n * sizeof(float)));

  int64_t wrong = 0;
  double want_dot = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const float want = a * (float)(i % 7) + (float)(i % 5);
    if (hy[i] != want && wrong++ < 5)
      fprintf(stderr, "saxpy: y[%lld] = %g, expected %g\n", (long long)i, hy[i], want);
    want_dot += (double)(i % 7) * (double)want;
  }
  if (dot != want_dot) {
    fprintf(stderr, "saxpy: dot = %.17g, expected %.17g\n", dot, want_dot);
    ++wrong;
  }
  CHECK(strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&x));
  CHECK(strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&y));
  free(hx);
  free(hy);
  CHECK(strata_finalize());
  printf("saxpy: %s (dot = %.1f)\n", wrong ? "WRONG" : "ok", dot);
  return wrong ? 1 : 0;
}
