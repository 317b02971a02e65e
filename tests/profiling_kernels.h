/* strata tests — argument structs of the profiling tests' kernels (profiling_kernels.kl.c).
 * Every pointer is memory of the launching execution space. */
#ifndef STRATA_TEST_PROFILING_KERNELS_H
#define STRATA_TEST_PROFILING_KERNELS_H
#include <stdint.h>

/* x[i] = i (for); sum of x[i] (reduce); out[i] = sum of x[0..i) (exclusive scan) */
typedef struct prof_args {
  int64_t *x;   /* [n] */
  int64_t *out; /* [n] */
} prof_args_t;

/* team: out[league_rank] = league_rank */
typedef struct prof_team_args {
  int64_t *out; /* [league_size] */
} prof_team_args_t;

#endif
