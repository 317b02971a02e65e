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

/* (value, index) pairs of the MINLOC / MAXLOC reductions (Kokkos ValLocScalar): the result a
 * parallel_reduce with a *loc kernel stores in host memory. loc is the index the kernel body
 * passed (usually the loop index i). */
typedef struct strata_i32loc { int32_t val; int64_t loc; } strata_i32loc_t;
typedef struct strata_i64loc { int64_t val; int64_t loc; } strata_i64loc_t;
typedef struct strata_f32loc { float val; int64_t loc; } strata_f32loc_t;
typedef struct strata_f64loc { double val; int64_t loc; } strata_f64loc_t;

/* Value types of MINLOC / MAXLOC reduce kernels: X(ENUM, suffix, C type). Not view element
 * types, never scanned; reduced only with STRATA_REDUCE_MINLOC / MAXLOC. */
#define STRATA_LOC_TYPE_LIST(X)    \
  X(I32LOC, i32loc, strata_i32loc_t) \
  X(I64LOC, i64loc, strata_i64loc_t) \
  X(F32LOC, f32loc, strata_f32loc_t) \
  X(F64LOC, f64loc, strata_f64loc_t)

typedef enum strata_type {
  STRATA_TYPE_NONE = 0,
#define STRATA_X_ENUM(E, s, T) STRATA_TYPE_##E,
  STRATA_TYPE_LIST(STRATA_X_ENUM)
  /** uint8_t: a view element type only (after the reduce/scan types, whose values it does not
   *  change); no reduction or scan carries it. */
  STRATA_TYPE_U8,
  /* the (value, index) types of MINLOC / MAXLOC reductions (after U8, whose value they do not
   * change); not view element types */
  STRATA_LOC_TYPE_LIST(STRATA_X_ENUM)
#undef STRATA_X_ENUM
} strata_type_t;

/** Nonzero for the (value, index) types of MINLOC / MAXLOC (STRATA_TYPE_I32LOC ... F64LOC). */
static inline int strata_type_is_loc(strata_type_t type) {
  return type >= STRATA_TYPE_I32LOC && type <= STRATA_TYPE_F64LOC;
}

/** Size in bytes of one value of a strata_type_t (0 for STRATA_TYPE_NONE and unknown values;
 *  sizeof the struct, 16, for the loc types). */
size_t strata_type_size(strata_type_t type);
/** Suffix name of a type ("i32", "i64", "f32", "f64", "u8", "i32loc", "i64loc", "f32loc",
 *  "f64loc"); "none" / "unknown" otherwise. */
const char *strata_type_name(strata_type_t type);

/* Reductions. SUM, MIN, MAX reduce the scalar types (i32, i64, f32, f64); MINLOC, MAXLOC
 * (Kokkos MinLoc / MaxLoc, with the smallest index among equal values) reduce the loc types
 * only (strata_parallel_reduce refuses any other combination). */
typedef enum strata_reduce_op {
  STRATA_REDUCE_SUM = 0,
  STRATA_REDUCE_MIN = 1,
  STRATA_REDUCE_MAX = 2,
  STRATA_REDUCE_MINLOC = 3,
  STRATA_REDUCE_MAXLOC = 4
} strata_reduce_op_t;

/** Policies: AUTO lets the backend choose (from occupancy on GPUs; 1 on host backends). */
#define STRATA_AUTO 0

#ifdef __cplusplus
}
#endif
#endif
