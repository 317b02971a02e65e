/* strata — the command-line tool under mpirun (apps/dist_cmd.c). Without MPI: one rank, no-ops. */
#ifndef STRATA_CLI_DIST_H
#define STRATA_CLI_DIST_H

/* MPI_Init_thread (SERIALIZED: task mode) when launched by mpirun / mpiexec; else nothing */
void cli_dist_start(int *argc, char ***argv);
/* MPI_Finalize if cli_dist_start initialized MPI */
void cli_dist_end(void);
/* MPI_COMM_WORLD's size and this rank (1 and 0 without MPI or outside mpirun) */
int cli_dist_size(void);
int cli_dist_rank(void);
/* the largest exit status over the ranks (the same exit code on every rank) */
int cli_dist_agree_rc(int rc);
/* `strata spmv` on a distributed CrsMatrix (under mpirun with several ranks, or --dist-mode /
 * --partition given) */
int cmd_spmv_dist(int argc, char **argv);

#endif
