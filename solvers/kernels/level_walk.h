/* strata solvers — what the one-launch walks of the dependency levels share (the triangular solve's
 * WALK, sptrsv.kl.c, and ILU's numeric walk, ilu.kl.c): chunks of positions handed out by a ticket,
 * and the level a position belongs to. Kernel-language code; included by .kl.c files only. */
#ifndef STRATA_SOLVERS_LEVEL_WALK_H
#define STRATA_SOLVERS_LEVEL_WALK_H

#include <strata/kl.h>

/* The first index of the team's chunk: one ticket per team (every thread calls it: a broadcast).
 * Tickets go out in processing order to teams that are already running: a row that waits only for
 * rows earlier in that order cannot deadlock (sptrsv.kl.c says why). */
STRATA_KL_TEAM_FUNC int64_t strata_walk_take_chunk(const strata_team_t *team, int64_t *ticket, int64_t chunk) {
  int64_t t = 0;
  if (strata_team_single(team)) t = strata_atomic_fetch_add_i64(ticket, 1);
  return strata_team_broadcast_i64(team, t) * chunk;
}

/* The level of position p: the last l with bounds[l] <= p (bounds: [levels + 1], ascending) */
STRATA_KL_FUNC int64_t strata_walk_level_of(const int64_t *bounds, int64_t levels, int64_t p) {
  return strata_kl_lower_bound_i64(bounds, 0, levels + 1, p + 1) - 1;
}

/* The first of a team thread's positions mine, mine + T, ... that is at least s */
STRATA_KL_FUNC int64_t strata_walk_first_at(int64_t mine, int64_t T, int64_t s) {
  return mine >= s ? mine : mine + (s - mine + T - 1) / T * T;
}

/* *p once it no longer holds the bits `unset` (another team's write), polled with a back-off of
 * WALK_PAUSE_MIN doubling to WALK_PAUSE_MAX nanoseconds between loads: rows far ahead of the
 * front do not flood the memory system with loads while the front's own values travel (device
 * code on GPUs: a team function) */
#define STRATA_WALK_PAUSE_MIN 32u
#define STRATA_WALK_PAUSE_MAX 256u
STRATA_KL_TEAM_FUNC double strata_walk_wait_f64(const double *p, uint64_t unset) {
  double v = strata_atomic_load_f64(p);
  for (unsigned ns = STRATA_WALK_PAUSE_MIN; strata_kl_f64_as_u64(v) == unset; ns = ns < STRATA_WALK_PAUSE_MAX ? 2 * ns : ns) {
    strata_kl_nanosleep(ns);
    v = strata_atomic_load_f64(p);
  }
  return v;
}

#endif
