/* strata — basic types shared by the runtime, the kernel language and the sparse module. */
#ifndef STRATA_TYPES_H
#define STRATA_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "strata/config.h"
#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Backends, listed once (libCEED style): X(ENUM, name). The order is the index used in
 * every per-backend table (strata_kernel_t::launch). */
#define STRATA_BACKEND_LIST(X) \
  X(SERIAL, serial)            \
  X(OPENMP, openmp)            \
  X(CUDA, cuda)                \
  X(HIP, hip)

typedef enum strata_backend {
#define STRATA_X_ENUM(E, n) STRATA_BACKEND_##E,
  STRATA_BACKEND_LIST(STRATA_X_ENUM)
#undef STRATA_X_ENUM
      STRATA_NUM_BACKENDS,
  /** The build's default (-DBACKEND=...), overridable by the environment variable
   *  STRATA_BACKEND=serial|openmp|cuda|hip at strata_init. */
  STRATA_BACKEND_DEFAULT = -1
} strata_backend_t;

/* Scalar types a reduction or scan may carry: X(ENUM, suffix, C type). */
#define STRATA_TYPE_LIST(X) \
  X(I32, i32, int32_t)      \
  X(I64, i64, int64_t)      \
  X(F32, f32, float)        \
  X(F64, f64, double)

/* Element types of views (strata/view.h): the reduce/scan types plus bytes. */
#define STRATA_VIEW_TYPE_LIST(X) \
  STRATA_TYPE_LIST(X)            \
  X(U8, u8, uint8_t)

typedef enum strata_type {
  STRATA_TYPE_NONE = 0,
#define STRATA_X_ENUM(E, s, T) STRATA_TYPE_##E,
  STRATA_TYPE_LIST(STRATA_X_ENUM)
#undef STRATA_X_ENUM
  /** uint8_t: a view element type only (after the reduce/scan types, whose values it does not
   *  change); no reduction or scan carries it. */
  STRATA_TYPE_U8
} strata_type_t;

/** Size in bytes of one value of a strata_type_t (0 for STRATA_TYPE_NONE and unknown values). */
size_t strata_type_size(strata_type_t type);
/** Suffix name of a type ("i32", "i64", "f32", "f64", "u8"); "none" / "unknown" otherwise. */
const char *strata_type_name(strata_type_t type);

typedef enum strata_reduce_op {
  STRATA_REDUCE_SUM = 0,
  STRATA_REDUCE_MIN = 1,
  STRATA_REDUCE_MAX = 2
} strata_reduce_op_t;

/** Policies: AUTO lets the backend choose (from occupancy on GPUs; 1 on host backends). */
#define STRATA_AUTO 0

#ifdef __cplusplus
}
#endif
#endif
