/* strata tests — one kernel of each pattern, for the profiling tests (test_profiling.c). */
#include <strata/kl.h>

#include "profiling_kernels.h"

STRATA_FOR_KERNEL(prof_fill, prof_args_t, a, i) { a->x[i] = i; }

STRATA_REDUCE_KERNEL(prof_sum, prof_args_t, a, i, i64, acc) { *acc += a->x[i]; }

STRATA_SCAN_KERNEL(prof_scan, prof_args_t, a, i, i64, partial, final) {
  const int64_t v = a->x[i];
  if (final) a->out[i] = *partial;
  *partial += v;
}

STRATA_TEAM_KERNEL(prof_team, prof_team_args_t, a, team) {
  if (team->team_rank == 0 && team->vector_rank == 0) a->out[team->league_rank] = team->league_rank;
}
