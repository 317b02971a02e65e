/* strata bench — the hypre peer of the solve and amg suites (bench_hypre.c): hypre's Krylov methods
 * and preconditioners (Debian's libhypre-dev 2.26: IJ matrix, ParCSR, one MPI process; ILU and
 * BoomerAMG) on the matrix the suite solves, on the host. Compiled with hypre where CMake found it (BENCH_HAVE_HYPRE);
 * without it bench_hypre_available() is 0 and every call returns -1 with a message. MPI is
 * initialized once, at the first bench_hypre_start (MPI_Init_thread without mpirun: OpenMPI's singleton
 * start), and finalized at exit. */
#ifndef STRATA_BENCH_HYPRE_H
#define STRATA_BENCH_HYPRE_H

#include <stddef.h>
#include <stdint.h>

#include "strata/sparse.h"

enum { BENCH_HYPRE_PCG = 0, BENCH_HYPRE_BICGSTAB = 1, BENCH_HYPRE_GMRES = 2 };
enum { BENCH_HYPRE_NONE = 0, BENCH_HYPRE_DIAG_SCALE = 1, BENCH_HYPRE_ILU = 2, BENCH_HYPRE_AMG = 3 };

/* BoomerAMG's parameters in hypre's own numbering (HYPRE_parcsr_ls.h); the mapping from strata's
 * options is the amg suite's (suite_amg.c). The coarsest level: hypre's Gaussian elimination
 * (relax type 9) when it has at most max_coarse_size rows (hypre's rule); one that the level limit
 * left larger is solved, up to dense_max rows, by GE through the inverse formed at setup (relax
 * type 199, set after hypre's setup, its factorization timed with the setup), and above dense_max
 * rows relaxed by coarse_relax, coarse_sweeps sweeps (hypre itself would relax it by relax_down,
 * one sweep). */
typedef struct bench_hypre_amg {
  int coarsen_type, interp_type;  /* SetCoarsenType (0 CLJP, 1 RS, 8 PMIS, 10 HMIS), SetInterpType (0, 3, 6) */
  int relax_down, relax_up;       /* SetCycleRelaxType k = 1, 2 */
  double relax_weight;            /* SetRelaxWt: > 0 that weight; 0 hypre's estimate per level */
  int pre_sweeps, post_sweeps;    /* SetCycleNumSweeps k = 1, 2 */
  int cycle_type, fcycle;         /* SetCycleType (1 V, 2 W), SetFCycle */
  int max_levels, max_coarse_size;
  double theta, max_row_sum, trunc_factor;
  int pmax;                       /* SetPMaxElmts (0: no limit) */
  int cheby_order, cheby_eig_est; /* relax type 16: SetChebyOrder, SetChebyEigEst (CG steps) */
  double cheby_fraction;          /* SetChebyFraction */
  int dense_max, coarse_relax, coarse_sweeps; /* the coarsest level (above) */
} bench_hypre_amg_t;

/* A BoomerAMG hierarchy as built, read from hypre's level arrays (hypre_ParAMGData of the installed
 * _hypre_parcsr_ls.h: A_array, P_array, num_levels; 2.26 has no public getter of the complexities):
 * stored entries per level, the complexities as strata_amg_info_t defines them. */
#define BENCH_HYPRE_AMG_LEVELS 32
typedef struct bench_hypre_amg_info {
  int num_levels;
  int64_t rows[BENCH_HYPRE_AMG_LEVELS], nnz[BENCH_HYPRE_AMG_LEVELS], p_nnz[BENCH_HYPRE_AMG_LEVELS];
  double operator_complexity, grid_complexity;
  int coarse_relax; /* the coarsest level's relax type in the solve: 9 or 199 (GE), else a smoother */
} bench_hypre_amg_info_t;

typedef struct bench_hypre_config {
  int method;   /* BENCH_HYPRE_PCG, _BICGSTAB, _GMRES */
  int precond;  /* BENCH_HYPRE_NONE, _DIAG_SCALE (Jacobi), _ILU (HYPRE_ILU type 0, BJ-ILU(k): on one
                   process the ILU(k) of the whole matrix; natural ordering, as strata's) */
  int ilu_level; /* k of ILU(k) */
  int restart;  /* GMRES's Krylov dimension */
  double tol;   /* ||r|| / ||b|| (PCG with the two-norm test) */
  int max_iter;
  int threads;  /* hypre's OpenMP threads for this solver's calls (1 for the serial backend) */
  const bench_hypre_amg_t *amg; /* precond BENCH_HYPRE_AMG: BoomerAMG, one cycle per application */
} bench_hypre_config_t;

typedef struct bench_hypre bench_hypre_t;
typedef struct bench_hypre_solver bench_hypre_solver_t;

/** 1 when this build has the hypre peer. */
int bench_hypre_available(void);
/** MPI, when not initialized yet (MPI_Init_thread at MPI_THREAD_SERIALIZED: without mpirun
 *  OpenMPI's singleton start), and HYPRE_Init, once per process; both finalized at exit when this
 *  call started MPI. bench_hypre_create calls it; the dist suite calls it first. 0, or -1 with err. */
int bench_hypre_start(char *err, size_t err_len);
/** 1 when hypre's error code `code` (a HYPRE_Int) of the call `what` is an error (HYPRE_ERROR_CONV
 *  alone is none), its description then in err; hypre's error flag is cleared either way. */
int bench_hypre_code_failed(int code, const char *what, char *err, size_t err_len);
/** hypre's OpenMP threads for the calls that follow (t > 0; 0 keeps them); returns the count
 *  before, for bench_hypre_threads_restore. */
int bench_hypre_threads_set(int t);
void bench_hypre_threads_restore(int t);
/** hypre's copy of A (host memory, square): the IJ matrix and vectors. 0, or -1 with err. */
int bench_hypre_create(const strata_crs_matrix_t *A, bench_hypre_t **h, char *err, size_t err_len);
/** A solver of configuration c on h, set up (its preconditioner's setup timed: *setup_s). */
int bench_hypre_solver_create(bench_hypre_t *h, const bench_hypre_config_t *c, bench_hypre_solver_t **s,
                              double *setup_s, char *err, size_t err_len);
/** x = solve of A x = b from x = 0 (b, x host [n]): hypre's iterations, its final relative residual
 *  and the solve's time. 0, or -1 with err (hypre's error code). */
int bench_hypre_solve(bench_hypre_solver_t *s, const double *b, double *x, int *iterations, double *final_res,
                      double *solve_s, char *err, size_t err_len);
/** The BoomerAMG hierarchy of a set-up solver with precond BENCH_HYPRE_AMG. 0, or -1 with err. */
int bench_hypre_amg_info(const bench_hypre_solver_t *s, bench_hypre_amg_info_t *info, char *err, size_t err_len);
void bench_hypre_solver_destroy(bench_hypre_solver_t **s);
void bench_hypre_destroy(bench_hypre_t **h);

#endif
