/* strata bench — the hypre peer of the solve suite (bench_hypre.c): hypre's Krylov methods and
 * preconditioners (Debian's libhypre-dev 2.26: IJ matrix, ParCSR, one MPI process) on the matrix
 * the suite solves, on the host. Compiled with hypre where CMake found it (BENCH_HAVE_HYPRE);
 * without it bench_hypre_available() is 0 and every call returns -1 with a message. MPI is
 * initialized once, at the first bench_hypre_create (MPI_Init without mpirun: OpenMPI's singleton
 * start), and finalized at exit. */
#ifndef STRATA_BENCH_HYPRE_H
#define STRATA_BENCH_HYPRE_H

#include <stddef.h>

#include "strata/sparse.h"

enum { BENCH_HYPRE_PCG = 0, BENCH_HYPRE_BICGSTAB = 1, BENCH_HYPRE_GMRES = 2 };
enum { BENCH_HYPRE_NONE = 0, BENCH_HYPRE_DIAG_SCALE = 1, BENCH_HYPRE_ILU = 2 };

typedef struct bench_hypre_config {
  int method;   /* BENCH_HYPRE_PCG, _BICGSTAB, _GMRES */
  int precond;  /* BENCH_HYPRE_NONE, _DIAG_SCALE (Jacobi), _ILU (HYPRE_ILU type 0, BJ-ILU(k): on one
                   process the ILU(k) of the whole matrix; natural ordering, as strata's) */
  int ilu_level; /* k of ILU(k) */
  int restart;  /* GMRES's Krylov dimension */
  double tol;   /* ||r|| / ||b|| (PCG with the two-norm test) */
  int max_iter;
  int threads;  /* hypre's OpenMP threads for this solver's calls (1 for the serial backend) */
} bench_hypre_config_t;

typedef struct bench_hypre bench_hypre_t;
typedef struct bench_hypre_solver bench_hypre_solver_t;

/** 1 when this build has the hypre peer. */
int bench_hypre_available(void);
/** hypre's copy of A (host memory, square): the IJ matrix and vectors. 0, or -1 with err. */
int bench_hypre_create(const strata_crs_matrix_t *A, bench_hypre_t **h, char *err, size_t err_len);
/** A solver of configuration c on h, set up (its preconditioner's setup timed: *setup_s). */
int bench_hypre_solver_create(bench_hypre_t *h, const bench_hypre_config_t *c, bench_hypre_solver_t **s,
                              double *setup_s, char *err, size_t err_len);
/** x = solve of A x = b from x = 0 (b, x host [n]): hypre's iterations, its final relative residual
 *  and the solve's time. 0, or -1 with err (hypre's error code). */
int bench_hypre_solve(bench_hypre_solver_t *s, const double *b, double *x, int *iterations, double *final_res,
                      double *solve_s, char *err, size_t err_len);
void bench_hypre_solver_destroy(bench_hypre_solver_t **s);
void bench_hypre_destroy(bench_hypre_t **h);

#endif
