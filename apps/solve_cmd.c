/* strata solve — A·x = b for a Matrix Market matrix with the solver module (DESIGN §9): a Krylov
 * method (strata_krylov_solve) and a preconditioner named as strata_precond_create_from_name takes
 * it. Prints the iterations, the true relative residual ||b - A·x|| / ||b||, the status and the
 * times of every phase (read, operator, the preconditioner's symbolic / numeric / analysis phases,
 * the solve). Exit codes: 0 converged, 3 not converged (the status named), 1 an input error (the
 * files, their values, a preconditioner the matrix refuses), 2 a usage error. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_dist.h"
#include "cli_error.h"
#include "cli_json.h"
#include "solve_args.h"
#include "strata/solvers.h"
#include "strata/sparse.h"
#if STRATA_HAVE_MPI
#include "strata/dist.h"
#endif

int cmd_solve(int argc, char **argv);

#define CMD "strata solve"
#define bad(...) cli_usage_error(CMD, "", __VA_ARGS__)
#define RESTART_MAX 10000 /* the GMRES basis: n x (M + 1) doubles on the device, (M + 1) x M on the host */

static const char *const method_names[] = {"cg", "bicgstab", "gmres", "fgmres"};

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata solve A.mtx [--b ones|FILE.mtx] [--x0 FILE.mtx] [--solver cg|bicgstab|gmres|fgmres]\n"
          "       [--restart M] [--precond NAME] [--tol T] [--max-iter N] [--backend B] [--out x.mtx] [--json]\n"
          "       [--history] [--dist-mode vector|overlap|task] [--outer-overlap K]\n"
          "  solves A x = b, A square (Matrix Market; symmetric storage is mirrored, duplicates summed)\n"
          "  --b        the right-hand side: ones (the default) or an n x 1 Matrix Market vector\n"
          "  --x0       the initial guess (default 0)\n"
          "  --solver   gmres (the default), fgmres, bicgstab (both right-preconditioned) or cg (A and M SPD)\n"
          "  --restart  the GMRES / FGMRES basis size M in [1, %d] (default 30)\n"
          "  --precond  none (the default), jacobi, l1-jacobi, ilu0, iluk:K (K in [0, 64]), bjacobi:P[:K],\n"
          "             ras:P:OVERLAP[:K] (P partitions in [1, rows], OVERLAP >= 0 layers, ILU(K) in every block),\n"
          "             amg[:OPTS] (classical AMG, one cycle per application; default hmis, ext+i, P_max 4, l1-jacobi, 1+1, V;\n"
          "             OPTS e.g. coarsen=rs|cljp|pmis|hmis,interp=direct|standard|ext+i,smoother=jacobi|wjacobi|l1-jacobi|\n"
          "             cheby|hgs|mcgs|sgs,sweeps=N,theta=T,levels=L,cycle=v|w|f,pmax=N,trunc=T; <strata/amg.h>)\n"
          "  --tol      converged when ||b - A x|| / ||b|| <= T, T finite and > 0 (default 1e-8)\n"
          "  --max-iter N >= 0 (default 1000; BiCGSTAB counts a full step, two products, as one)\n"
          "  --backend  serial|openmp|cuda|hip|default\n"
          "  --out      writes x as an n x 1 Matrix Market vector (also when not converged)\n"
          "  --json     one JSON object: sizes, method, iterations, residual, status, times by phase\n"
          "  --history  the residual estimate after every iteration (entry 0: before the first)\n"
          "  under mpirun -np N (N > 1; a build with MPI): rank 0 reads A and b and distributes them by block rows,\n"
          "  x is gathered to rank 0 for --out; --precond none, jacobi, l1-jacobi, bjacobi:P[:K] (block-Jacobi over\n"
          "  ranks, each rank's diagonal block split in P ILU(K) blocks) or ras:P:OVERLAP[:K] (two-level RAS: each\n"
          "  rank's rows extended by --outer-overlap K layers of its neighbours' rows, default 1, solved by the inner\n"
          "  RAS of P blocks with OVERLAP); one rank runs as without mpirun (the options below are checked, then unused)\n"
          "  --dist-mode  the distributed SpMV: vector (the default), overlap or task\n"
          "  --outer-overlap K >= 0 layers of the two-level RAS (--precond ras:...)\n"
          "  exit codes: 0 converged, 3 not converged (the status named), 1 input error, 2 usage error;\n"
          "  rows and entries in messages are numbered from 0; under mpirun a preconditioner's message names\n"
          "  the rank and its local row (the rank's rows are a block of consecutive rows of A, in rank order)\n",
          RESTART_MAX);
}

/* an integer option in [lo, hi]; 0 (after the message: exit 2) when it is not one */
static int int_option(const char *opt, const char *s, long lo, long hi, int *v) { return cli_int_option(CMD, opt, s, lo, hi, v); }

typedef struct {
  double read, op, precond, solve_setup, solve, total;
} phase_times_t;

/* The vector of a file (--b, --x0) into a device vector of n entries: 1 after a message when the
 * file cannot be read or has another length, else 0. */
static int read_vector(strata_exec_t *e, const char *opt, const char *path, int32_t n, double *dv) {
  int32_t m = 0;
  double *h = NULL;
  strata_status_t st = strata_mm_read_vector(path, &m, &h);
  if (st) {
    fprintf(stderr, CMD ": %s %s: %s: %s\n", opt, path, strata_status_name(st), strata_error_message());
    return 1;
  }
  if (m != n) {
    fprintf(stderr, CMD ": %s %s has %d entries, A has %d rows (they must be equal)\n", opt, path, m, n);
    free(h);
    return 1;
  }
  st = n ? strata_mem_copy(e, dv, h, (size_t)n * sizeof(double)) : STRATA_SUCCESS;
  free(h);
  if (st) fprintf(stderr, CMD ": %s %s: %s: %s\n", opt, path, strata_status_name(st), strata_error_message());
  return st != STRATA_SUCCESS;
}

static void print_json(const char *path, const char *backend, const strata_crs_matrix_t *A, int method, int restart,
                       const strata_precond_t *P, const strata_precond_stats_t *ps, double tol, int max_iter,
                       const strata_krylov_result_t *res, const phase_times_t *t) {
  char b[8][48];
  printf("{\"matrix\": \"");
  cli_json_fputs(stdout, path);
  printf("\", \"backend\": \"%s\", \"rows\": %d, \"nnz\": %lld, \"solver\": \"%s\", \"restart\": ", backend,
         A->num_rows, (long long)A->nnz, method_names[method]);
  if (method >= STRATA_KRYLOV_GMRES) printf("%d", restart);
  else printf("null");
  printf(", \"precond\": \"");
  cli_json_fputs(stdout, strata_precond_name(P));
  printf("\", \"precond_nnz\": %lld, \"levels_lower\": %d, \"levels_upper\": %d, \"partitions\": %d, ",
         (long long)ps->nnz, ps->levels_lower, ps->levels_upper, ps->num_parts);
  strata_amg_info_t ai;
  if (P && strata_precond_amg_info(P, &ai) == STRATA_SUCCESS) {
    printf("\"amg\": {\"levels\": [");
    for (int l = 0; l < ai.num_levels; ++l)
      printf("%s{\"rows\": %d, \"nnz\": %lld, \"p_nnz\": %lld}", l ? ", " : "", ai.level[l].rows,
             (long long)ai.level[l].nnz, (long long)ai.level[l].p_nnz);
    printf("], \"operator_complexity\": %.9g, \"grid_complexity\": %.9g, \"times_s\": {\"strength\": %.9g, "
           "\"coarsen\": %.9g, \"interp\": %.9g, \"rap\": %.9g, \"smoother\": %.9g, \"coarse_solve\": %.9g}}, ",
           ai.operator_complexity, ai.grid_complexity, ai.strength_s, ai.coarsen_s, ai.interp_s, ai.rap_s,
           ai.smoother_s, ai.coarse_solve_s);
  }
  strata_error_clear();
  printf("\"tol\": %s, \"max_iter\": %d, \"status\": \"%s\", \"converged\": %s, \"breakdown\": ",
         cli_json_number(b[0], 48, "%.17g", tol), max_iter, strata_solve_status_name(res->status), res->status == STRATA_SOLVE_CONVERGED ? "true" : "false");
  if (res->breakdown) printf("\"%s\"", res->breakdown);
  else printf("null");
  printf(", \"iterations\": %d, \"residual\": %s, \"true_residual_checks\": %d, \"times_s\": {\"read\": %s, "
         "\"operator\": %s, \"precond_symbolic\": %.9g, \"precond_numeric\": %.9g, \"precond_analysis\": %.9g, "
         "\"precond_setup\": %s, \"solve_setup\": %s, \"solve\": %s, \"total\": %s}",
         res->iterations, cli_json_number(b[1], 48, "%.17g", res->rel_residual), res->true_residual_checks,
         cli_json_number(b[2], 48, "%.9g", t->read), cli_json_number(b[3], 48, "%.9g", t->op), ps->symbolic_s,
         ps->numeric_s, ps->analysis_s, cli_json_number(b[4], 48, "%.9g", t->precond),
         cli_json_number(b[5], 48, "%.9g", t->solve_setup), cli_json_number(b[6], 48, "%.9g", t->solve),
         cli_json_number(b[7], 48, "%.9g", t->total));
  if (res->history) {
    printf(", \"history\": [");
    for (int i = 0; i < res->num_history; ++i) printf("%s%s", i ? ", " : "", cli_json_number(b[0], 48, "%.17g", res->history[i]));
    printf("]");
  }
  printf("}\n");
}

static void print_text(const char *path, const char *backend, const strata_crs_matrix_t *A, int method, int restart,
                       const strata_precond_t *P, const strata_precond_stats_t *ps, double tol,
                       const strata_krylov_result_t *res, const phase_times_t *t) {
  printf("strata solve: %s: %d x %d, %lld entries, backend %s\n", path, A->num_rows, A->num_rows, (long long)A->nnz, backend);
  printf("  method         %s", method_names[method]);
  if (method >= STRATA_KRYLOV_GMRES) printf("(%d)", restart);
  printf(", preconditioner %s", strata_precond_name(P));
  if (ps->nnz) printf(" (%lld entries", (long long)ps->nnz);
  if (ps->nnz && (ps->levels_lower || ps->levels_upper))
    printf(", levels %d lower / %d upper", ps->levels_lower, ps->levels_upper);
  if (ps->nnz && ps->num_parts) printf(", %d partitions, %d rows with overlap", ps->num_parts, ps->rows_extended);
  printf("%s\n", ps->nnz ? ")" : "");
  strata_amg_info_t ai;
  if (P && strata_precond_amg_info(P, &ai) == STRATA_SUCCESS) {
    printf("  amg            %d levels, operator complexity %.3f, grid complexity %.3f; rows / entries:", ai.num_levels,
           ai.operator_complexity, ai.grid_complexity);
    for (int l = 0; l < ai.num_levels; ++l) printf(" %d/%lld", ai.level[l].rows, (long long)ai.level[l].nnz);
    printf("\n");
  }
  strata_error_clear();
  printf("  result         %s", strata_solve_status_name(res->status));
  if (res->breakdown) printf(" (%s vanished)", res->breakdown);
  printf(" after %d iteration%s, ||b - A x|| / ||b|| = %.3e (tol %.3g)\n", res->iterations, res->iterations == 1 ? "" : "s",
         res->rel_residual, tol);
  printf("  times (s)      read %.4g, operator %.4g, preconditioner %.4g (symbolic %.4g, numeric %.4g, analysis %.4g), "
         "solve %.4g", t->read, t->op, t->precond, ps->symbolic_s, ps->numeric_s, ps->analysis_s, t->solve);
  if (res->iterations > 0) printf(" (%.4g per iteration)", t->solve / res->iterations);
  printf(", total %.4g\n", t->total);
  if (res->history) {
    printf("  iteration  residual estimate\n");
    for (int i = 0; i < res->num_history; ++i) printf("  %9d  %.6e\n", i, res->history[i]);
  }
}

void solve_release(strata_exec_t *e, double **x, strata_krylov_result_t *res, double **db, double **dx,
                   strata_precond_t **P, strata_operator_t **op) {
  free(*x);
  *x = NULL;
  strata_krylov_result_free(res);
  if (e) {
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)db);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)dx);
  }
  strata_precond_destroy(P);
  strata_operator_destroy(op);
}

int cmd_solve(int argc, char **argv) {
  const char *path = NULL, *bspec = "ones", *x0path = NULL, *out = NULL, *pname = "none", *dist_mode = NULL;
  int outer_overlap = -1;
  int json = 0, history = 0, method = STRATA_KRYLOV_GMRES, restart = 30, restart_given = 0, max_iter = 1000;
  double tol = 1e-8;
  strata_backend_t backend = STRATA_BACKEND_DEFAULT;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    static const char *const valued[] = {"--b",       "--x0",  "--solver", "--restart", "--precond",     "--tol",
                                         "--max-iter", "--backend", "--out",   "--dist-mode", "--outer-overlap"};
    int takes = 0;
    for (size_t q = 0; q < sizeof valued / sizeof valued[0]; ++q) takes |= !strcmp(a, valued[q]);
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--history")) history = 1;
    else if (takes && (!v || (v[0] == '-' && v[1] == '-'))) return bad("option %s needs a value", a);
    else if (takes) {
      ++i;
      if (!strcmp(a, "--b")) bspec = v;
      else if (!strcmp(a, "--x0")) x0path = v;
      else if (!strcmp(a, "--out")) out = v;
      else if (!strcmp(a, "--precond")) pname = v;
      else if (!strcmp(a, "--dist-mode")) dist_mode = v;
      else if (!strcmp(a, "--outer-overlap")) {
        if (!int_option(a, v, 0, INT_MAX, &outer_overlap)) return 2;
      }
      else if (!strcmp(a, "--solver")) {
        method = -1;
        for (int k = 0; k < 4; ++k)
          if (!strcmp(v, method_names[k])) method = k;
        if (method < 0) return bad("--solver %s: unknown solver (cg, bicgstab, gmres, fgmres)", v);
      } else if (!strcmp(a, "--restart")) {
        if (!int_option(a, v, 1, RESTART_MAX, &restart)) return 2;
        restart_given = 1;
      } else if (!strcmp(a, "--max-iter")) {
        if (!int_option(a, v, 0, INT_MAX, &max_iter)) return 2;
      } else if (!strcmp(a, "--tol")) {
        char *end = NULL;
        tol = cli_strtod(v, &end);
        if (!end || *end || end == v || !isfinite(tol) || !(tol > 0))
          return bad("--tol %s: must be a finite decimal number > 0", v);
      } else if (strata_backend_from_name(v, &backend) != STRATA_SUCCESS) /* --backend */
        return bad("--backend %s: %s", v, strata_error_message());
    } else if (a[0] == '-' && a[1] != '\0') return bad("unknown option %s (strata solve --help)", a);
    else if (path) return bad("one matrix file only (second: %s)", a);
    else path = a;
  }
  if (!path)
    return bad("%s", "usage: strata solve A.mtx [--b ones|FILE.mtx] [--x0 FILE.mtx] [--solver cg|bicgstab|gmres|fgmres] "
                     "[--restart M] [--precond NAME] [--tol T] [--max-iter N] [--backend B] [--out x.mtx] [--json] "
                     "[--history] (strata solve --help)");
  if (restart_given && method < STRATA_KRYLOV_GMRES)
    return bad("--restart applies to --solver gmres and fgmres, not %s", method_names[method]);
  if (outer_overlap >= 0 && strncmp(pname, "ras:", 4) != 0)
    return bad("--outer-overlap applies to --precond ras:P:OVERLAP[:K] (the two-level RAS over ranks), not %s", pname);
#if STRATA_HAVE_MPI
  strata_dist_mode_t dm = STRATA_DIST_VECTOR;
  if (dist_mode && strata_dist_mode_from_name(dist_mode, &dm)) return bad("--dist-mode: %s", strata_error_message());
  /* under mpirun with more than one rank (MPI started by strata_main.c): the distributed solve */
  if (cli_dist_size() > 1) {
    const solve_args_t sa = {path,    bspec,  x0path,  out,      pname, json,    history,
                             method,  restart, max_iter, tol,   backend, method_names[method],
                             dist_mode, outer_overlap};
    return cmd_solve_dist(&sa);
  }
#else
  if (dist_mode || outer_overlap >= 0)
    return bad("%s needs a build of strata with MPI (-DSTRATA_MPI=ON) run under mpirun",
               dist_mode ? "--dist-mode" : "--outer-overlap");
#endif

  int rc = 0;
  strata_status_t st = STRATA_SUCCESS;
  strata_exec_t *e = NULL;
  strata_crs_matrix_t *A = NULL;
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  double *db = NULL, *dx = NULL, *x = NULL;
  strata_krylov_result_t res;
  memset(&res, 0, sizeof res);
  phase_times_t t;
  memset(&t, 0, sizeof t);
  const double t0 = strata_timer_now();
  if ((st = strata_exec_default(backend, &e))) {
    fprintf(stderr, CMD ": %s: %s\n", strata_status_name(st), strata_error_message());
    return 1;
  }
  /* the preconditioner's name first: a usage error, before the file is read */
  if ((st = strata_precond_create_from_name(e, pname, &P))) return bad("--precond: %s", strata_error_message());
#define FAIL(what)                                                                                        \
  do {                                                                                                    \
    fprintf(stderr, CMD ": %s: %s: %s\n", what, strata_status_name(st), strata_error_message());         \
    rc = 1;                                                                                               \
    goto done;                                                                                            \
  } while (0)
  if ((st = strata_mm_read_crs(e, path, &A))) FAIL(path);
  if (A->num_rows != A->num_cols) {
    fprintf(stderr, CMD ": %s is %d x %d: not square (rows %d, columns %d; A x = b needs equal sizes)\n", path,
            A->num_rows, A->num_cols, A->num_rows, A->num_cols);
    rc = 1;
    goto done;
  }
  const int32_t n = A->num_rows;
  t.read = strata_timer_now() - t0;
  double t1 = strata_timer_now();
  if ((st = strata_operator_create_crs(e, A, NULL, &op))) FAIL(path);
  t.op = strata_timer_now() - t1;
  const size_t bytes = ((size_t)n + 1) * sizeof(double);
  if ((st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&db)) ||
      (st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&dx)))
    FAIL("the vectors");
  if (!strcmp(bspec, "ones")) {
    if ((st = strata_vec_fill(e, n, 1.0, db))) FAIL("b");
  } else if (read_vector(e, "--b", bspec, n, db)) {
    rc = 1;
    goto done;
  }
  if (x0path && read_vector(e, "--x0", x0path, n, dx)) {
    rc = 1;
    goto done;
  }
  strata_precond_stats_t ps;
  memset(&ps, 0, sizeof ps);
  t1 = strata_timer_now();
  if (P && (st = strata_precond_setup(e, P, op))) {
    /* P more than the rows (a value of --precond) is a usage error; a bad row of A an input error */
    fprintf(stderr, CMD ": --precond %s: %s: %s\n", pname, strata_status_name(st), strata_error_message());
    rc = st == STRATA_ERR_INVALID_ARGUMENT ? 2 : 1;
    goto done;
  }
  t.precond = strata_timer_now() - t1;
  if (P) strata_precond_stats(P, &ps);
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = (strata_krylov_method_t)method;
  ko.tol = tol;
  ko.max_iter = max_iter;
  ko.restart = restart;
  ko.x0_given = x0path != NULL;
  ko.history = history;
  st = strata_krylov_solve(e, op, P, db, dx, &ko, &res);
  if (st && st != STRATA_ERR_NOT_CONVERGED) FAIL("the solve");
  const strata_status_t solve_st = st;
  char why[512];
  snprintf(why, sizeof why, "%s", solve_st ? strata_error_message() : "");
  t.solve_setup = res.setup_s, t.solve = res.solve_s;
  x = (double *)malloc(bytes);
  if (!x) {
    fprintf(stderr, CMD ": out of host memory: x needs %zu bytes\n", bytes);
    rc = 1;
    goto done;
  }
  if (n && (st = strata_mem_copy(e, x, dx, (size_t)n * sizeof(double)))) FAIL("x");
  if (out && (st = strata_mm_write_vector(out, n, x))) FAIL("--out");
  t.total = strata_timer_now() - t0;
  if (json) print_json(path, strata_backend_name(strata_exec_backend(e)), A, method, restart, P, &ps, tol, max_iter, &res, &t);
  else print_text(path, strata_backend_name(strata_exec_backend(e)), A, method, restart, P, &ps, tol, &res, &t);
  if (cli_stdout_failed(CMD)) rc = 1;
  else if (solve_st) {
    fprintf(stderr, CMD ": not converged: %s\n", why);
    rc = 3;
  }
done:
#undef FAIL
  solve_release(e, &x, &res, &db, &dx, &P, &op);
  strata_crs_destroy(&A);
  return rc;
}
