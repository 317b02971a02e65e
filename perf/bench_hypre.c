/* strata bench — the hypre peer of the solve and amg suites (bench_hypre.h). One MPI process: the IJ
 * matrix holds every row, so hypre's BJ-ILU(k) (HYPRE_ILU type 0) is the ILU(k) of the whole matrix,
 * with its local reordering off (natural order: the factorization strata computes). hypre runs on
 * the host with its own OpenMP threads (Debian's build uses libgomp), set per call from the config.
 * BoomerAMG's hierarchy is read through hypre's own internal header (_hypre_parcsr_ls.h, installed
 * by libhypre-dev): the level arrays, and the coarsest level's relax type after setup. */
#define _XOPEN_SOURCE 700 /* setenv; ffs, which _hypre_utilities.h calls */
#include "bench_hypre.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if BENCH_HAVE_HYPRE
#include <limits.h>
#include <mpi.h>
#include <strings.h> /* ffs, for _hypre_utilities.h */
#ifdef _OPENMP
#include <omp.h>
#endif

#include "HYPRE.h"
#include "HYPRE_IJ_mv.h"
#include "HYPRE_krylov.h"
#include "HYPRE_parcsr_ls.h"
#include "_hypre_parcsr_ls.h"
#include "strata/strata.h"

struct bench_hypre {
  HYPRE_Int n;
  HYPRE_IJMatrix ij;
  HYPRE_ParCSRMatrix A;
  HYPRE_IJVector ib, ix;
  HYPRE_ParVector b, x;
  HYPRE_BigInt *idx; /* 0..n-1, for the vectors' values */
};

struct bench_hypre_solver {
  bench_hypre_t *h;
  bench_hypre_config_t c;
  HYPRE_Solver krylov, pre;
};

static int g_mpi_started;
static void mpi_stop(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) {
    HYPRE_Finalize();
    MPI_Finalize();
  }
}

/* hypre's threads for the calls that follow; returns the previous count to restore */
static int threads_set(int t) {
#ifdef _OPENMP
  const int old = omp_get_max_threads();
  if (t > 0) omp_set_num_threads(t);
  return old;
#else
  (void)t;
  return 1;
#endif
}
static void threads_restore(int t) {
#ifdef _OPENMP
  omp_set_num_threads(t);
#else
  (void)t;
#endif
}

int bench_hypre_available(void) { return 1; }

/* a hypre call's error code, cleared, as text; 0 when none (HYPRE_ERROR_CONV, not converged, is
 * no error: the iterations and the residual say it) */
static int hypre_failed(HYPRE_Int code, const char *what, char *err, size_t err_len) {
  if (!code) return 0;
  const int conv_only = code == HYPRE_ERROR_CONV;
  if (!conv_only) {
    char d[512] = ""; /* hypre writes its bits' names, a few dozen characters each */
    HYPRE_DescribeError(code, d);
    snprintf(err, err_len, "hypre: %s failed: error %d (%s)", what, (int)code, d);
  }
  HYPRE_ClearAllErrors();
  return !conv_only;
}

int bench_hypre_start(char *err, size_t err_len) {
  if (g_mpi_started) return 0;
  int init = 0, provided = 0;
  MPI_Initialized(&init);
  /* OpenMPI keeps its components loaded at MPI_Finalize (its option for memory checkers), so
   * that LeakSanitizer can name the libraries of what OpenMPI leaks (tests/lsan.supp) */
  setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 0);
  /* MPI_THREAD_SERIALIZED: the dist suite's task mode runs a communication thread (strata/dist.h) */
  if (!init && MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    snprintf(err, err_len, "hypre: MPI_Init_thread failed");
    return -1;
  }
  HYPRE_Init();
  if (!init) atexit(mpi_stop);
  g_mpi_started = 1;
  return 0;
}

int bench_hypre_code_failed(int code, const char *what, char *err, size_t err_len) {
  return hypre_failed((HYPRE_Int)code, what, err, err_len);
}

int bench_hypre_threads_set(int t) { return threads_set(t); }
void bench_hypre_threads_restore(int t) { threads_restore(t); }

int bench_hypre_create(const strata_crs_matrix_t *A, bench_hypre_t **out, char *err, size_t err_len) {
  *out = NULL;
  if (A->num_rows != A->num_cols) {
    snprintf(err, err_len, "hypre: A is %d x %d, not square", A->num_rows, A->num_cols);
    return -1;
  }
  if (A->nnz > INT_MAX) {
    snprintf(err, err_len, "hypre: %lld entries exceed HYPRE_Int's %d", (long long)A->nnz, INT_MAX);
    return -1;
  }
  if (bench_hypre_start(err, err_len)) return -1;
  bench_hypre_t *h = (bench_hypre_t *)calloc(1, sizeof *h);
  const HYPRE_Int n = A->num_rows;
  HYPRE_Int *ncols = (HYPRE_Int *)malloc(((size_t)n + 1) * sizeof(HYPRE_Int));
  HYPRE_BigInt *cols = (HYPRE_BigInt *)malloc(((size_t)A->nnz + 1) * sizeof(HYPRE_BigInt));
  if (h) h->idx = (HYPRE_BigInt *)malloc(((size_t)n + 1) * sizeof(HYPRE_BigInt));
  double *zero = (double *)calloc((size_t)n + 1, sizeof(double));
  if (!h || !ncols || !cols || !h->idx || !zero) {
    snprintf(err, err_len, "hypre: out of host memory for the copy of A (%lld entries)", (long long)A->nnz);
    free(ncols), free(cols), free(zero);
    if (h) free(h->idx);
    free(h);
    return -1;
  }
  h->n = n;
  for (HYPRE_Int i = 0; i < n; ++i) {
    h->idx[i] = i;
    ncols[i] = (HYPRE_Int)(A->row_offsets[i + 1] - A->row_offsets[i]);
  }
  for (int64_t k = 0; k < A->nnz; ++k) cols[k] = A->col_indices[k];
  const HYPRE_BigInt hi = (HYPRE_BigInt)n - 1; /* n = 0: the empty range [0, -1] */
  HYPRE_Int code = HYPRE_IJMatrixCreate(MPI_COMM_WORLD, 0, hi, 0, hi, &h->ij);
  if (!code) code = HYPRE_IJMatrixSetObjectType(h->ij, HYPRE_PARCSR);
  if (!code) code = HYPRE_IJMatrixSetRowSizes(h->ij, ncols);
  if (!code) code = HYPRE_IJMatrixInitialize(h->ij);
  if (!code && n) code = HYPRE_IJMatrixSetValues(h->ij, n, ncols, h->idx, cols, A->values);
  if (!code) code = HYPRE_IJMatrixAssemble(h->ij);
  if (!code) code = HYPRE_IJMatrixGetObject(h->ij, (void **)&h->A);
  for (int v = 0; v < 2 && !code; ++v) {
    HYPRE_IJVector *iv = v ? &h->ix : &h->ib;
    code = HYPRE_IJVectorCreate(MPI_COMM_WORLD, 0, hi, iv);
    if (!code) code = HYPRE_IJVectorSetObjectType(*iv, HYPRE_PARCSR);
    if (!code) code = HYPRE_IJVectorInitialize(*iv);
    if (!code && n) code = HYPRE_IJVectorSetValues(*iv, n, h->idx, zero);
    if (!code) code = HYPRE_IJVectorAssemble(*iv);
    if (!code) code = HYPRE_IJVectorGetObject(*iv, (void **)(v ? &h->x : &h->b));
  }
  free(ncols), free(cols), free(zero);
  if (hypre_failed(code, "building the IJ matrix and vectors", err, err_len)) {
    bench_hypre_destroy(&h);
    return -1;
  }
  *out = h;
  return 0;
}

/* BoomerAMG as a preconditioner (one cycle from x = 0) with the parameters of a */
static HYPRE_Int amg_create(const bench_hypre_amg_t *a, HYPRE_Solver *pre) {
  HYPRE_Int code = a ? HYPRE_BoomerAMGCreate(pre) : HYPRE_ERROR_ARG;
  HYPRE_Solver p = *pre;
  if (!code) code = HYPRE_BoomerAMGSetCoarsenType(p, a->coarsen_type);
  if (!code) code = HYPRE_BoomerAMGSetInterpType(p, a->interp_type);
  if (!code) code = HYPRE_BoomerAMGSetStrongThreshold(p, a->theta);
  if (!code) code = HYPRE_BoomerAMGSetMaxRowSum(p, a->max_row_sum);
  if (!code) code = HYPRE_BoomerAMGSetTruncFactor(p, a->trunc_factor);
  if (!code) code = HYPRE_BoomerAMGSetPMaxElmts(p, a->pmax);
  if (!code) code = HYPRE_BoomerAMGSetMaxLevels(p, a->max_levels);
  if (!code) code = HYPRE_BoomerAMGSetMaxCoarseSize(p, a->max_coarse_size);
  if (!code) code = HYPRE_BoomerAMGSetCycleType(p, a->cycle_type);
  if (!code) code = HYPRE_BoomerAMGSetFCycle(p, a->fcycle);
  if (!code) code = HYPRE_BoomerAMGSetCycleRelaxType(p, a->relax_down, 1);
  if (!code) code = HYPRE_BoomerAMGSetCycleRelaxType(p, a->relax_up, 2);
  if (!code) code = HYPRE_BoomerAMGSetCycleRelaxType(p, 9, 3);
  if (!code) code = HYPRE_BoomerAMGSetCycleNumSweeps(p, a->pre_sweeps, 1);
  if (!code) code = HYPRE_BoomerAMGSetCycleNumSweeps(p, a->post_sweeps, 2);
  if (!code) code = HYPRE_BoomerAMGSetCycleNumSweeps(p, 1, 3);
  if (!code) code = HYPRE_BoomerAMGSetRelaxOrder(p, 0);
  if (!code) code = HYPRE_BoomerAMGSetRelaxWt(p, a->relax_weight);
  if (!code) code = HYPRE_BoomerAMGSetChebyOrder(p, a->cheby_order > 0 ? a->cheby_order : 2);
  if (!code) code = HYPRE_BoomerAMGSetChebyFraction(p, a->cheby_fraction > 0 ? a->cheby_fraction : 0.3);
  if (!code) code = HYPRE_BoomerAMGSetChebyEigEst(p, a->cheby_eig_est > 0 ? a->cheby_eig_est : 10);
  if (!code) code = HYPRE_BoomerAMGSetChebyScale(p, 1);
  if (!code) code = HYPRE_BoomerAMGSetChebyVariant(p, 0);
  if (!code) code = HYPRE_BoomerAMGSetTol(p, 0.0);
  if (!code) code = HYPRE_BoomerAMGSetMaxIter(p, 1);
  if (!code) code = HYPRE_BoomerAMGSetPrintLevel(p, 0);
  return code;
}

/* After hypre's setup: a coarsest level above max_coarse_size (the level limit reached), which hypre
 * relaxes by relax_down once, gets the harness's rule (bench_hypre.h): GE through the inverse up to
 * dense_max rows (hypre_GaussElimSetup, here, so that it counts as setup), else coarse_relax with
 * coarse_sweeps sweeps */
static HYPRE_Int amg_coarsest(const bench_hypre_amg_t *a, HYPRE_Solver pre) {
  hypre_ParAMGData *d = (hypre_ParAMGData *)pre;
  const int L = hypre_ParAMGDataNumLevels(d);
  HYPRE_Int *grt = hypre_ParAMGDataGridRelaxType(d);
  if (L < 1 || !grt || grt[3] == 9) return 0;
  const HYPRE_BigInt n = hypre_ParCSRMatrixGlobalNumRows(hypre_ParAMGDataAArray(d)[L - 1]);
  if (n <= a->dense_max) {
    HYPRE_Int code = HYPRE_BoomerAMGSetCycleRelaxType(pre, 199, 3);
    if (!code) code = hypre_GaussElimSetup(d, L - 1, 199);
    return code;
  }
  HYPRE_Int code = HYPRE_BoomerAMGSetCycleRelaxType(pre, a->coarse_relax, 3);
  if (!code) code = HYPRE_BoomerAMGSetCycleNumSweeps(pre, a->coarse_sweeps, 3);
  return code;
}

int bench_hypre_amg_info(const bench_hypre_solver_t *s, bench_hypre_amg_info_t *info, char *err, size_t err_len) {
  memset(info, 0, sizeof *info);
  if (!s || s->c.precond != BENCH_HYPRE_AMG || !s->pre) {
    snprintf(err, err_len, "hypre: not a BoomerAMG solver");
    return -1;
  }
  hypre_ParAMGData *d = (hypre_ParAMGData *)s->pre;
  const int L = hypre_ParAMGDataNumLevels(d);
  hypre_ParCSRMatrix **A = hypre_ParAMGDataAArray(d), **P = hypre_ParAMGDataPArray(d);
  if (L < 1 || L > BENCH_HYPRE_AMG_LEVELS || !A) {
    snprintf(err, err_len, "hypre: BoomerAMG has %d levels (1 .. %d expected)", L, BENCH_HYPRE_AMG_LEVELS);
    return -1;
  }
  double sr = 0, sn = 0;
  for (int l = 0; l < L; ++l) {
    /* one process: every entry in the diagonal block; the off-process block counted all the same */
    info->rows[l] = (int64_t)hypre_ParCSRMatrixGlobalNumRows(A[l]);
    info->nnz[l] = (int64_t)hypre_CSRMatrixNumNonzeros(hypre_ParCSRMatrixDiag(A[l])) +
                   (int64_t)hypre_CSRMatrixNumNonzeros(hypre_ParCSRMatrixOffd(A[l]));
    if (l + 1 < L && P && P[l])
      info->p_nnz[l] = (int64_t)hypre_CSRMatrixNumNonzeros(hypre_ParCSRMatrixDiag(P[l])) +
                       (int64_t)hypre_CSRMatrixNumNonzeros(hypre_ParCSRMatrixOffd(P[l]));
    sr += (double)info->rows[l], sn += (double)info->nnz[l];
  }
  info->num_levels = L;
  info->grid_complexity = info->rows[0] > 0 ? sr / (double)info->rows[0] : 1.0;
  info->operator_complexity = info->nnz[0] > 0 ? sn / (double)info->nnz[0] : 1.0;
  info->coarse_relax = hypre_ParAMGDataGridRelaxType(d) ? hypre_ParAMGDataGridRelaxType(d)[3] : -1;
  return 0;
}

int bench_hypre_solver_create(bench_hypre_t *h, const bench_hypre_config_t *c, bench_hypre_solver_t **out,
                              double *setup_s, char *err, size_t err_len) {
  *out = NULL;
  bench_hypre_solver_t *s = (bench_hypre_solver_t *)calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, err_len, "hypre: out of host memory");
    return -1;
  }
  s->h = h, s->c = *c;
  const int old = threads_set(c->threads);
  HYPRE_Int code = 0;
  HYPRE_PtrToSolverFcn psolve = NULL, psetup = NULL;
  if (c->precond == BENCH_HYPRE_ILU) {
    code = HYPRE_ILUCreate(&s->pre);
    if (!code) code = HYPRE_ILUSetType(s->pre, 0);
    if (!code) code = HYPRE_ILUSetLevelOfFill(s->pre, c->ilu_level);
    if (!code) code = HYPRE_ILUSetLocalReordering(s->pre, 0);
    if (!code) code = HYPRE_ILUSetMaxIter(s->pre, 1);
    if (!code) code = HYPRE_ILUSetTol(s->pre, 0.0);
    if (!code) code = HYPRE_ILUSetPrintLevel(s->pre, 0);
    psolve = (HYPRE_PtrToSolverFcn)HYPRE_ILUSolve, psetup = (HYPRE_PtrToSolverFcn)HYPRE_ILUSetup;
  } else if (c->precond == BENCH_HYPRE_AMG) {
    code = amg_create(c->amg, &s->pre);
    psolve = (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSolve, psetup = (HYPRE_PtrToSolverFcn)HYPRE_BoomerAMGSetup;
  } else if (c->precond == BENCH_HYPRE_DIAG_SCALE) {
    psolve = (HYPRE_PtrToSolverFcn)HYPRE_ParCSRDiagScale, psetup = (HYPRE_PtrToSolverFcn)HYPRE_ParCSRDiagScaleSetup;
  }
  if (!code && c->method == BENCH_HYPRE_PCG) {
    code = HYPRE_ParCSRPCGCreate(MPI_COMM_WORLD, &s->krylov);
    if (!code) code = HYPRE_PCGSetTol(s->krylov, c->tol);
    if (!code) code = HYPRE_PCGSetAbsoluteTol(s->krylov, 0.0);
    if (!code) code = HYPRE_PCGSetMaxIter(s->krylov, c->max_iter);
    if (!code) code = HYPRE_PCGSetTwoNorm(s->krylov, 1);
    if (!code) code = HYPRE_PCGSetPrintLevel(s->krylov, 0);
    if (!code && psolve) code = HYPRE_PCGSetPrecond(s->krylov, psolve, psetup, s->pre);
  } else if (!code && c->method == BENCH_HYPRE_BICGSTAB) {
    code = HYPRE_ParCSRBiCGSTABCreate(MPI_COMM_WORLD, &s->krylov);
    if (!code) code = HYPRE_BiCGSTABSetTol(s->krylov, c->tol);
    if (!code) code = HYPRE_BiCGSTABSetAbsoluteTol(s->krylov, 0.0);
    if (!code) code = HYPRE_BiCGSTABSetMaxIter(s->krylov, c->max_iter);
    if (!code) code = HYPRE_BiCGSTABSetPrintLevel(s->krylov, 0);
    if (!code && psolve) code = HYPRE_BiCGSTABSetPrecond(s->krylov, psolve, psetup, s->pre);
  } else if (!code) {
    code = HYPRE_ParCSRGMRESCreate(MPI_COMM_WORLD, &s->krylov);
    if (!code) code = HYPRE_GMRESSetKDim(s->krylov, c->restart);
    if (!code) code = HYPRE_GMRESSetTol(s->krylov, c->tol);
    if (!code) code = HYPRE_GMRESSetAbsoluteTol(s->krylov, 0.0);
    if (!code) code = HYPRE_GMRESSetMaxIter(s->krylov, c->max_iter);
    if (!code) code = HYPRE_GMRESSetPrintLevel(s->krylov, 0);
    if (!code && psolve) code = HYPRE_GMRESSetPrecond(s->krylov, psolve, psetup, s->pre);
  }
  const double t0 = strata_timer_now();
  if (!code) {
    HYPRE_ParVectorSetConstantValues(h->x, 0.0);
    code = c->method == BENCH_HYPRE_PCG        ? HYPRE_ParCSRPCGSetup(s->krylov, h->A, h->b, h->x)
           : c->method == BENCH_HYPRE_BICGSTAB ? HYPRE_ParCSRBiCGSTABSetup(s->krylov, h->A, h->b, h->x)
                                               : HYPRE_ParCSRGMRESSetup(s->krylov, h->A, h->b, h->x);
  }
  if (!code && c->precond == BENCH_HYPRE_AMG) code = amg_coarsest(c->amg, s->pre);
  *setup_s = strata_timer_now() - t0;
  threads_restore(old);
  if (hypre_failed(code, "the solver's setup", err, err_len)) {
    bench_hypre_solver_destroy(&s);
    return -1;
  }
  *out = s;
  return 0;
}

int bench_hypre_solve(bench_hypre_solver_t *s, const double *b, double *x, int *iterations, double *final_res,
                      double *solve_s, char *err, size_t err_len) {
  bench_hypre_t *h = s->h;
  const int old = threads_set(s->c.threads);
  HYPRE_Int code = h->n ? HYPRE_IJVectorSetValues(h->ib, h->n, h->idx, b) : 0;
  if (!code) code = HYPRE_ParVectorSetConstantValues(h->x, 0.0);
  if (hypre_failed(code, "setting b and x", err, err_len)) {
    threads_restore(old);
    return -1;
  }
  const double t0 = strata_timer_now();
  code = s->c.method == BENCH_HYPRE_PCG        ? HYPRE_ParCSRPCGSolve(s->krylov, h->A, h->b, h->x)
         : s->c.method == BENCH_HYPRE_BICGSTAB ? HYPRE_ParCSRBiCGSTABSolve(s->krylov, h->A, h->b, h->x)
                                               : HYPRE_ParCSRGMRESSolve(s->krylov, h->A, h->b, h->x);
  *solve_s = strata_timer_now() - t0;
  int failed = hypre_failed(code, "the solve", err, err_len);
  HYPRE_Int its = 0;
  HYPRE_Real r = 0;
  if (s->c.method == BENCH_HYPRE_PCG) {
    HYPRE_PCGGetNumIterations(s->krylov, &its);
    HYPRE_PCGGetFinalRelativeResidualNorm(s->krylov, &r);
  } else if (s->c.method == BENCH_HYPRE_BICGSTAB) {
    HYPRE_BiCGSTABGetNumIterations(s->krylov, &its);
    HYPRE_BiCGSTABGetFinalRelativeResidualNorm(s->krylov, &r);
  } else {
    HYPRE_GMRESGetNumIterations(s->krylov, &its);
    HYPRE_GMRESGetFinalRelativeResidualNorm(s->krylov, &r);
  }
  *iterations = (int)its, *final_res = (double)r;
  if (!failed && h->n) failed = hypre_failed(HYPRE_IJVectorGetValues(h->ix, h->n, h->idx, x), "reading x", err, err_len);
  threads_restore(old);
  return failed ? -1 : 0;
}

void bench_hypre_solver_destroy(bench_hypre_solver_t **sp) {
  bench_hypre_solver_t *s = *sp;
  if (!s) return;
  if (s->krylov) {
    if (s->c.method == BENCH_HYPRE_PCG) HYPRE_ParCSRPCGDestroy(s->krylov);
    else if (s->c.method == BENCH_HYPRE_BICGSTAB) HYPRE_ParCSRBiCGSTABDestroy(s->krylov);
    else HYPRE_ParCSRGMRESDestroy(s->krylov);
  }
  if (s->pre && s->c.precond == BENCH_HYPRE_AMG) HYPRE_BoomerAMGDestroy(s->pre);
  else if (s->pre) HYPRE_ILUDestroy(s->pre);
  free(s);
  *sp = NULL;
}

void bench_hypre_destroy(bench_hypre_t **hp) {
  bench_hypre_t *h = *hp;
  if (!h) return;
  if (h->ij) HYPRE_IJMatrixDestroy(h->ij);
  if (h->ib) HYPRE_IJVectorDestroy(h->ib);
  if (h->ix) HYPRE_IJVectorDestroy(h->ix);
  free(h->idx);
  free(h);
  *hp = NULL;
}

#else /* no hypre in this build */

static int none(char *err, size_t err_len) {
  snprintf(err, err_len, "this build has no hypre (libhypre-dev; CMake found no HYPRE.h in /usr/include/hypre)");
  return -1;
}
int bench_hypre_available(void) { return 0; }
int bench_hypre_start(char *err, size_t err_len) { return none(err, err_len); }
int bench_hypre_code_failed(int code, const char *what, char *err, size_t err_len) {
  (void)code, (void)what;
  return none(err, err_len);
}
int bench_hypre_threads_set(int t) {
  (void)t;
  return 1;
}
void bench_hypre_threads_restore(int t) { (void)t; }
int bench_hypre_create(const strata_crs_matrix_t *A, bench_hypre_t **h, char *err, size_t err_len) {
  (void)A;
  *h = NULL;
  return none(err, err_len);
}
int bench_hypre_solver_create(bench_hypre_t *h, const bench_hypre_config_t *c, bench_hypre_solver_t **s,
                              double *setup_s, char *err, size_t err_len) {
  (void)h, (void)c, (void)setup_s;
  *s = NULL;
  return none(err, err_len);
}
int bench_hypre_solve(bench_hypre_solver_t *s, const double *b, double *x, int *iterations, double *final_res,
                      double *solve_s, char *err, size_t err_len) {
  (void)s, (void)b, (void)x, (void)iterations, (void)final_res, (void)solve_s;
  return none(err, err_len);
}
int bench_hypre_amg_info(const bench_hypre_solver_t *s, bench_hypre_amg_info_t *info, char *err, size_t err_len) {
  (void)s;
  memset(info, 0, sizeof *info);
  return none(err, err_len);
}
void bench_hypre_solver_destroy(bench_hypre_solver_t **s) { *s = NULL; }
void bench_hypre_destroy(bench_hypre_t **h) { *h = NULL; }

#endif
