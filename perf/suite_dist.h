/* strata bench — the dist suite's pieces shared between its files (suite_dist.c, suite_dist_fem.c);
 * builds with MPI only. */
#ifndef STRATA_SUITE_DIST_H
#define STRATA_SUITE_DIST_H

#include <stdio.h>

#define DIST_MSG_LEN 200 /* bench_result_t.msg */

/** 1 on every rank when `failed` on any (collective over MPI_COMM_WORLD); msg [DIST_MSG_LEN] then
 *  holds the lowest failing rank's message ("rank R: ..." under several ranks). */
int dist_agree_fail(int failed, char *msg);

/** The FE assembly records (suite_dist_fem.c): every backend, a box mesh without and with bulk
 *  nodes; collective. */
void dist_fem_run(void);
/** How many records dist_fem_run adds. */
int dist_fem_estimate(void);
/** Its table, after the SpMV table. */
void dist_fem_summary(FILE *f);

#endif
