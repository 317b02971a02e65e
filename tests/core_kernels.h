/* strata tests — argument structs of the core-pattern test kernels (core_kernels.kl.c), shared by
 * the kernel source and test_core.c. Every pointer is memory of the launching execution space. */
#ifndef STRATA_TEST_CORE_KERNELS_H
#define STRATA_TEST_CORE_KERNELS_H
#include <stdint.h>

/* y[i] = alpha * x[i] + y[i] for i in the launch range */
typedef struct core_axpy_args {
  double alpha;
  const double *x; /* [end] */
  double *y;       /* [end] */
} core_axpy_args_t;

/* reduce x[i] over the range with op (a strata_reduce_op_t value) */
typedef struct core_reduce_f64_args {
  int op;
  const double *x;
} core_reduce_f64_args_t;
typedef struct core_reduce_i64_args {
  int op;
  const int64_t *x;
} core_reduce_i64_args_t;

/* out[i] = s[i % 2] for i in the launch range: reads two scalars an asynchronous reduce wrote */
typedef struct core_scalars_args {
  const double *s; /* [2] */
  double *out;     /* [end] */
} core_scalars_args_t;

/* user scans: out[i] = sum of in[begin..i) (exclusive) or in[begin..i] (inclusive) */
typedef struct core_scan_args {
  const int64_t *in;
  int64_t *out;
} core_scan_args_t;

/* the same in double: out[i] = in[begin] + .. + in[i] (inclusive) */
typedef struct core_scan_f64_args {
  const double *in;
  double *out;
} core_scan_f64_args_t;

/* team row sums of a dense row-major m x k matrix: y[r] = sum_j A[r*k+j] * x[j] (double) and
 * yi[r] = sum_j (int64)A[r*k+j] (int64); rows_per_team rows per league rank */
typedef struct core_rowsum_args {
  int64_t m, k, rows_per_team;
  const double *A; /* [m*k] */
  const double *x; /* [k] */
  double *y;       /* [m] */
  int64_t *yi;     /* [m] */
} core_rowsum_args_t;

/* TEAM_VECTOR_RANGE coverage: out[r*w+j] = r*100000+j, count[r*w+j] += 1 */
typedef struct core_team_vector_args {
  int64_t w;
  int64_t *out;   /* [league*w] */
  int64_t *count; /* [league*w] */
} core_team_vector_args_t;

/* team scratch (S int64) and thread scratch (T int64 per team thread): written with
 * league/team-rank dependent values, barrier, read back reversed (by other threads / lanes). */
typedef struct core_scratch_args {
  int64_t S, T;
  int64_t *out_team;   /* [league*S] */
  int64_t *out_thread; /* [league*team_size*T] */
} core_scratch_args_t;

/* contention: every i adds (i % 5) + 1 into slot i % slots of ci (int64) and cf (double) */
typedef struct core_atomic_args {
  int64_t slots;
  int64_t *ci;
  double *cf;
} core_atomic_args_t;

/* ranges anywhere in int64: index i contributes i - base + 1 (each index once: n(n+1)/2 over
 * [base, base + n)); the for kernel adds it to *sum atomically */
typedef struct core_index_args {
  int64_t base;
  int64_t *sum;
} core_index_args_t;

#endif
