/* strata — the one place where core meets the backends (libCEED-style registry). */
#include "internal.h"

#define STRATA_X_DECL(E, n) extern const strata_impl_backend_t strata_impl_backend_##n;
#if STRATA_HAVE_OPENMP
extern const strata_impl_backend_t strata_impl_backend_openmp;
#else
static const strata_impl_backend_t strata_impl_backend_openmp = {.id = STRATA_BACKEND_OPENMP, .name = "openmp", .is_host = 1};
#endif
#if STRATA_HAVE_CUDA
extern const strata_impl_backend_t strata_impl_cuda_backend;
#define strata_impl_backend_cuda strata_impl_cuda_backend
#else
static const strata_impl_backend_t strata_impl_backend_cuda = {.id = STRATA_BACKEND_CUDA, .name = "cuda"};
#endif
#if STRATA_HAVE_HIP
extern const strata_impl_backend_t strata_impl_hip_backend;
#define strata_impl_backend_hip strata_impl_hip_backend
#else
static const strata_impl_backend_t strata_impl_backend_hip = {.id = STRATA_BACKEND_HIP, .name = "hip"};
#endif
extern const strata_impl_backend_t strata_impl_backend_serial;
#undef STRATA_X_DECL

const strata_impl_backend_t *strata_impl_backend(strata_backend_t backend) {
  static const strata_impl_backend_t *const table[STRATA_NUM_BACKENDS] = {
#define STRATA_X_REF(E, n) &strata_impl_backend_##n,
      STRATA_BACKEND_LIST(STRATA_X_REF)
#undef STRATA_X_REF
  };
  if ((int)backend < 0 || (int)backend >= STRATA_NUM_BACKENDS) return NULL;
  return table[backend];
}
