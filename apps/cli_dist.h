/* strata — the command-line tool under mpirun (apps/dist_cmd.c). Without MPI: one rank, no-ops. */
#ifndef STRATA_CLI_DIST_H
#define STRATA_CLI_DIST_H

#include "strata/strata.h"

/* MPI_Init_thread (SERIALIZED: task mode) when launched by mpirun / mpiexec; else nothing */
void cli_dist_start(int *argc, char ***argv);
/* MPI_Finalize if cli_dist_start initialized MPI */
void cli_dist_end(void);
/* MPI_COMM_WORLD's size and this rank (1 and 0 without MPI or outside mpirun) */
int cli_dist_size(void);
int cli_dist_rank(void);
/* the largest exit status over the ranks (the same exit code on every rank) */
int cli_dist_agree_rc(int rc);
/* strata_init's device_id under mpirun, one GPU per rank: node rank modulo the device count of the
 * backend the command will run on (io->default_backend, else STRATA_BACKEND, else the build's;
 * strata_dist_device_select once MPI is started — collective —, else the launcher's node-local
 * rank, OMPI_COMM_WORLD_LOCAL_RANK or MPI_LOCALRANKID). io unchanged for host backends, outside
 * mpirun and without MPI; STRATA_DEVICE overrides it in strata_init. Before strata_init. */
void cli_dist_device(strata_init_options_t *io);
/* the device ordinal of e (strata_device_info_t.device_id; -1 for NULL) */
int cli_dist_device_of(strata_exec_t *e);
/* `strata spmv` on a distributed CrsMatrix (under mpirun with several ranks, or --dist-mode /
 * --partition given) */
int cmd_spmv_dist(int argc, char **argv);

#endif
