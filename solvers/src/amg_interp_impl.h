/* strata solvers — the interpolation's private knob (amg_interp.c), for tests: which kernel takes
 * the F rows. */
#ifndef STRATA_AMG_INTERP_IMPL_H
#define STRATA_AMG_INTERP_IMPL_H

typedef enum strata_impl_amg_interp_class {
  STRATA_IMPL_AMG_INTERP_AUTO = 0,   /* by the length of the row's candidate set (the default) */
  STRATA_IMPL_AMG_INTERP_THREAD = 1, /* every F row a thread */
  STRATA_IMPL_AMG_INTERP_TEAM = 2,   /* every F row a team */
  STRATA_IMPL_AMG_INTERP_TEAM_NO_SCRATCH = 3 /* every F row a team, sets sorted in place (as the
                                                sets beyond the team's scratch) */
} strata_impl_amg_interp_class_t;

/* Sets the class of later strata_impl_amg_interp calls (process-wide; tests only). */
void strata_impl_amg_interp_force_class(strata_impl_amg_interp_class_t cls);

#endif
