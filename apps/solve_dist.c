/* strata solve under mpirun -np N (N > 1): the distributed solve (strata/dist.h). Rank 0 reads
 * the matrix (and --b, --x0) and distributes it by block rows (strata_dist_crs_create_from_entries
 * with every entry given on rank 0), every rank solves its rows with the Krylov method over the
 * distributed operator and a preconditioner over ranks, x is gathered to rank 0 for --out; rank 0
 * prints the report (the ranks, the SpMV mode, the halo bytes, the time per iteration). Errors
 * are found on one rank and agreed: every rank prints the message and exits with the same code
 * (0 converged, 3 not converged, 1 input error, 2 usage error). Built only with MPI. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_dist.h"
#include "cli_error.h"
#include "cli_gather.h"
#include "cli_json.h"
#include "solve_args.h"
#include "strata/dist.h"
#include "strata/solvers.h"

#define CMD "strata solve"

static int rank_, size_;

/* The exit code every rank takes: the largest of the ranks' codes; the message of the lowest rank
 * with that code printed by every rank ("rank R: ..."). code 0: nothing printed. */
static int agree_exit(int code, const char *msg) {
  int in[2] = {code, rank_}, out[2];
  MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD); /* ties: the lowest rank */
  if (out[0] == 0) return 0;
  char m[1024];
  snprintf(m, sizeof m, "%s", msg ? msg : "");
  MPI_Bcast(m, (int)sizeof m, MPI_CHAR, out[1], MPI_COMM_WORLD);
  fprintf(stderr, CMD ": rank %d of %d: %s\n", out[1], size_, m);
  return out[0];
}

/* a preconditioner name of strata solve --precond as options over ranks; 2 (usage) with msg set
 * for the ones that do not run across ranks */
static int precond_options(const char *name, int outer, strata_dist_precond_options_t *po, int *none, char *msg,
                           size_t cap) {
  if (strata_dist_precond_options_from_name(name, po, none)) {
    snprintf(msg, cap, "%s", strata_error_message());
    return 2;
  }
  po->outer_overlap = outer >= 0 ? outer : 1;
  return 0;
}

/* a vector file read on rank 0 (n entries) scattered into the ranks' rows of dv (exec memory, mine
 * of them here; counts and displs: the layout, on rank 0) */
static int scatter_vector(strata_exec_t *e, const char *opt, const char *path, int32_t n, int mine, const int *counts,
                          const int *displs, double *dv) {
  double *h = NULL;
  int32_t m = 0;
  char msg[1024] = "";
  int code = 0;
  if (rank_ == 0) {
    strata_status_t st = strata_mm_read_vector(path, &m, &h);
    if (st) snprintf(msg, sizeof msg, "%s %s: %s: %s", opt, path, strata_status_name(st), strata_error_message()), code = 1;
    else if (m != n) snprintf(msg, sizeof msg, "%s %s has %d entries, A has %d rows (they must be equal)", opt, path, m, n), code = 1;
  }
  if ((code = agree_exit(code, msg))) {
    free(h);
    return code;
  }
  double *part = (double *)malloc(((size_t)mine + 1) * sizeof(double));
  code = part ? 0 : 1;
  if (!part) snprintf(msg, sizeof msg, "out of host memory: %d entries of %s", mine, opt);
  if ((code = agree_exit(code, msg))) {
    free(h);
    return code;
  }
  MPI_Scatterv(h, counts, displs, MPI_DOUBLE, part, mine, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  strata_status_t st = mine ? strata_mem_copy(e, dv, part, (size_t)mine * sizeof(double)) : STRATA_SUCCESS;
  if (st) snprintf(msg, sizeof msg, "%s: %s: %s", opt, strata_status_name(st), strata_error_message());
  free(part);
  free(h);
  return agree_exit(st ? 1 : 0, msg);
}

int cmd_solve_dist(const solve_args_t *a) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  char msg[1024] = "";
  int code = 0;
  strata_dist_mode_t mode = STRATA_DIST_VECTOR;
  if (a->dist_mode && strata_dist_mode_from_name(a->dist_mode, &mode)) /* checked before: cannot fail here */
    snprintf(msg, sizeof msg, "--dist-mode: %s", strata_error_message()), code = 2;
  strata_dist_precond_options_t po;
  int no_precond = 0;
  if (!code) code = precond_options(a->pname, a->outer_overlap, &po, &no_precond, msg, sizeof msg);
  strata_exec_t *e = NULL;
  strata_status_t st = STRATA_SUCCESS;
  if (!code && (st = strata_exec_default(a->backend, &e)))
    snprintf(msg, sizeof msg, "%s: %s", strata_status_name(st), strata_error_message()), code = 1;
  if (!code) { /* the name's own checks (values and limits), as without mpirun */
    strata_precond_t *chk = NULL;
    if ((st = strata_precond_create_from_name(e, a->pname, &chk)))
      snprintf(msg, sizeof msg, "--precond: %s", strata_error_message()), code = 2;
    strata_precond_destroy(&chk);
  }
  if ((code = agree_exit(code, msg))) return code;

  const double t0 = strata_timer_now();
  /* rank 0 reads A; the size and the first bad value (or the reading error) agreed */
  strata_coo_t *coo = NULL;
  int64_t nrows = 0, nnz = 0;
  if (rank_ == 0) {
    if ((st = strata_mm_read_coo(a->path, &coo)))
      snprintf(msg, sizeof msg, "%s: %s: %s", a->path, strata_status_name(st), strata_error_message()), code = 1;
    else if (coo->num_rows != coo->num_cols)
      snprintf(msg, sizeof msg, "%s is %d x %d: not square (rows %d, columns %d; A x = b needs equal sizes)", a->path,
               coo->num_rows, coo->num_cols, coo->num_rows, coo->num_cols),
          code = 1;
    for (int64_t k = 0; !code && k < coo->nnz; ++k)
      if (!isfinite(coo->values[k]))
        snprintf(msg, sizeof msg, "%s: INVALID_DATA: A(%d, %d) = %g (entry %lld) is not finite; an operator takes finite values only",
                 a->path, coo->rows[k], coo->cols[k], coo->values[k], (long long)k),
            code = 1;
    if (!code) nrows = coo->num_rows, nnz = coo->nnz;
  }
  if ((code = agree_exit(code, msg))) {
    strata_coo_destroy(&coo);
    return code;
  }
  MPI_Bcast(&nrows, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  const double t_read = strata_timer_now() - t0;
  const int32_t n = (int32_t)nrows;

  /* distribute: every entry given on rank 0, sent to its row's owner by the matrix builder */
  double t1 = strata_timer_now();
  strata_dist_map_t *map = NULL;
  strata_dist_crs_t *A = NULL;
  int64_t *r64 = NULL, *c64 = NULL;
  if (rank_ == 0) {
    r64 = (int64_t *)malloc(((size_t)nnz + 1) * sizeof(int64_t));
    c64 = (int64_t *)malloc(((size_t)nnz + 1) * sizeof(int64_t));
    if (!r64 || !c64) snprintf(msg, sizeof msg, "out of host memory: %lld entries", (long long)nnz), code = 1;
    for (int64_t k = 0; !code && k < nnz; ++k) r64[k] = coo->rows[k], c64[k] = coo->cols[k];
  }
  if ((code = agree_exit(code, msg))) goto done;
  if ((st = strata_dist_map_create_block(MPI_COMM_WORLD, nrows, &map)) ||
      (st = strata_dist_crs_create_from_entries(e, map, NULL, rank_ == 0 ? nnz : 0, r64, c64,
                                                rank_ == 0 ? coo->values : NULL, NULL, NULL, &A))) {
    snprintf(msg, sizeof msg, "%s: %s: %s", a->path, strata_status_name(st), strata_error_message());
    code = agree_exit(1, msg); /* agreed by dist already: every rank is here */
    goto done;
  }
  free(r64);
  free(c64);
  r64 = c64 = NULL;
  strata_coo_destroy(&coo);
  strata_dist_crs_info_t info;
  strata_dist_crs_info(A, &info);
  const double t_dist = strata_timer_now() - t1;

  t1 = strata_timer_now();
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  double *db = NULL, *dx = NULL, *x = NULL;
  strata_krylov_result_t res;
  memset(&res, 0, sizeof res);
  if ((st = strata_dist_operator_create(e, A, mode, &op))) {
    snprintf(msg, sizeof msg, "--dist-mode %s: %s: %s", strata_dist_mode_name(mode), strata_status_name(st),
             strata_error_message());
    code = agree_exit(1, msg);
    goto done;
  }
  const double t_op = strata_timer_now() - t1;
  int *counts = (int *)malloc((size_t)size_ * sizeof(int)), *displs = (int *)malloc((size_t)size_ * sizeof(int));
  int *devs = NULL;
  const int32_t nl = info.num_local_rows;
  const size_t bytes = ((size_t)nl + 1) * sizeof(double);
  if (!counts || !displs) snprintf(msg, sizeof msg, "out of host memory"), code = 1;
  else {
    cli_gather_layout(MPI_COMM_WORLD, 0, nl, counts, displs); /* the block rows of each rank, on rank 0 */
    if ((st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&db)) ||
        (st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, (void **)&dx)))
      snprintf(msg, sizeof msg, "the vectors: %s: %s", strata_status_name(st), strata_error_message()), code = 1;
  }
  if ((code = agree_exit(code, msg))) goto done2;
  if (!strcmp(a->bspec, "ones")) {
    if ((st = strata_vec_fill(e, nl, 1.0, db))) snprintf(msg, sizeof msg, "b: %s", strata_error_message()), code = 1;
    if ((code = agree_exit(code, msg))) goto done2;
  } else if ((code = scatter_vector(e, "--b", a->bspec, n, nl, counts, displs, db))) {
    goto done2;
  }
  if (a->x0path && (code = scatter_vector(e, "--x0", a->x0path, n, nl, counts, displs, dx))) goto done2;
  t1 = strata_timer_now();
  if (!no_precond && (st = strata_dist_precond_create(e, A, &po, &P))) {
    /* a value of --precond the matrix refuses is a usage error; a bad row of A an input error (agreed) */
    snprintf(msg, sizeof msg, "--precond %s: %s: %s", a->pname, strata_status_name(st), strata_error_message());
    code = agree_exit(st == STRATA_ERR_INVALID_ARGUMENT ? 2 : 1, msg);
    goto done2;
  }
  const double t_prec = strata_timer_now() - t1;
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = (strata_krylov_method_t)a->method;
  ko.tol = a->tol;
  ko.max_iter = a->max_iter;
  ko.restart = a->restart;
  ko.x0_given = a->x0path != NULL;
  ko.history = a->history;
  st = strata_krylov_solve(e, op, P, db, dx, &ko, &res);
  const strata_status_t solve_st = st;
  char why[1024];
  snprintf(why, sizeof why, "%s", st ? strata_error_message() : "");
  if (st && st != STRATA_ERR_NOT_CONVERGED) { /* agreed by the solve */
    code = agree_exit(1, why);
    goto done2;
  }
  /* x gathered on rank 0 for --out */
  x = (double *)malloc(((size_t)(rank_ == 0 ? n : nl) + 1) * sizeof(double));
  double *xl = (double *)malloc(bytes);
  if (!x || !xl) snprintf(msg, sizeof msg, "out of host memory: x"), code = 1;
  else if (nl && (st = strata_mem_copy(e, xl, dx, (size_t)nl * sizeof(double))))
    snprintf(msg, sizeof msg, "x: %s", strata_error_message()), code = 1;
  if ((code = agree_exit(code, msg))) {
    free(xl);
    goto done2;
  }
  if (a->out) {
    MPI_Gatherv(xl, nl, MPI_DOUBLE, x, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank_ == 0 && (st = strata_mm_write_vector(a->out, n, x)))
      snprintf(msg, sizeof msg, "--out: %s: %s", strata_status_name(st), strata_error_message()), code = 1;
  }
  free(xl);
  if ((code = agree_exit(code, msg))) goto done2;
  /* the halo over all ranks: bytes sent per SpMV */
  strata_dist_plan_info_t pi;
  memset(&pi, 0, sizeof pi);
  strata_dist_plan_info(info.plan, &pi);
  long long halo = (long long)pi.send_bytes;
  MPI_Allreduce(MPI_IN_PLACE, &halo, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  /* each rank's device, listed by rank 0 */
  int mydev = cli_dist_device_of(e);
  devs = (int *)malloc((size_t)(rank_ == 0 ? size_ : 1) * sizeof(int));
  if ((code = agree_exit(devs ? 0 : 1, "out of host memory: the devices of the ranks"))) goto done2;
  MPI_Gather(&mydev, 1, MPI_INT, devs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const double total = strata_timer_now() - t0;
  const double per_it = res.iterations > 0 ? res.solve_s / res.iterations : 0.0;
  if (rank_ == 0) {
    const char *be = strata_backend_name(strata_exec_backend(e));
    const int gm = a->method >= STRATA_KRYLOV_GMRES;
    if (a->json) {
      char b[10][48];
      printf("{\"matrix\": \"");
      cli_json_fputs(stdout, a->path);
      printf("\", \"backend\": \"%s\", \"ranks\": %d, \"devices\": [", be, size_);
      for (int r = 0; r < size_; ++r) printf("%s%d", r ? ", " : "", devs[r]);
      printf("], \"dist_mode\": \"%s\", \"rows\": %d, \"nnz\": %lld, \"solver\": \"%s\", \"restart\": ",
             strata_dist_mode_name(mode), n, (long long)info.nnz_global, a->method_name);
      if (gm) printf("%d", a->restart);
      else printf("null");
      printf(", \"precond\": \"");
      cli_json_fputs(stdout, strata_precond_name(P));
      printf("\", \"outer_overlap\": ");
      if (P && po.kind == STRATA_DIST_PRECOND_RAS) printf("%d", po.outer_overlap);
      else printf("null");
      printf(", \"halo_bytes_per_spmv\": %lld, \"tol\": %s, \"max_iter\": %d, \"status\": \"%s\", \"converged\": %s, "
             "\"breakdown\": ",
             halo, cli_json_number(b[0], 48, "%.17g", a->tol), a->max_iter, strata_solve_status_name(res.status),
             res.status == STRATA_SOLVE_CONVERGED ? "true" : "false");
      if (res.breakdown) printf("\"%s\"", res.breakdown);
      else printf("null");
      printf(", \"iterations\": %d, \"residual\": %s, \"true_residual_checks\": %d, \"times_s\": {\"read\": %s, "
             "\"distribute\": %s, \"operator\": %s, \"precond_setup\": %s, \"solve_setup\": %s, \"solve\": %s, "
             "\"per_iteration\": %s, \"total\": %s}",
             res.iterations, cli_json_number(b[1], 48, "%.17g", res.rel_residual), res.true_residual_checks,
             cli_json_number(b[2], 48, "%.9g", t_read), cli_json_number(b[3], 48, "%.9g", t_dist),
             cli_json_number(b[4], 48, "%.9g", t_op), cli_json_number(b[5], 48, "%.9g", t_prec),
             cli_json_number(b[6], 48, "%.9g", res.setup_s), cli_json_number(b[7], 48, "%.9g", res.solve_s),
             cli_json_number(b[8], 48, "%.9g", per_it), cli_json_number(b[9], 48, "%.9g", total));
      if (res.history) {
        printf(", \"history\": [");
        for (int i = 0; i < res.num_history; ++i)
          printf("%s%s", i ? ", " : "", cli_json_number(b[0], 48, "%.17g", res.history[i]));
        printf("]");
      }
      printf("}\n");
    } else {
      printf("strata solve: %s: %d x %d, %lld entries, backend %s, %d ranks (block rows), SpMV %s mode\n", a->path, n, n,
             (long long)info.nnz_global, be, size_, strata_dist_mode_name(mode));
      printf("  method         %s", a->method_name);
      if (gm) printf("(%d)", a->restart);
      printf(", preconditioner %s\n", strata_precond_name(P));
      printf("  result         %s", strata_solve_status_name(res.status));
      if (res.breakdown) printf(" (%s vanished)", res.breakdown);
      printf(" after %d iteration%s, ||b - A x|| / ||b|| = %.3e (tol %.3g)\n", res.iterations,
             res.iterations == 1 ? "" : "s", res.rel_residual, a->tol);
      printf("  halo           %lld bytes per SpMV over all ranks\n", halo);
      printf("  times (s)      read %.4g, distribute %.4g, operator %.4g, preconditioner %.4g, solve %.4g", t_read, t_dist,
             t_op, t_prec, res.solve_s);
      if (res.iterations > 0) printf(" (%.4g per iteration)", per_it);
      printf(", total %.4g\n", total);
      if (res.history) {
        printf("  iteration  residual estimate\n");
        for (int i = 0; i < res.num_history; ++i) printf("  %9d  %.6e\n", i, res.history[i]);
      }
    }
  }
  int out_failed = rank_ == 0 && cli_stdout_failed(CMD);
  MPI_Allreduce(MPI_IN_PLACE, &out_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  code = 0;
  if (out_failed) code = 1;
  else if (solve_st) { /* the status is agreed: every rank not converged */
    if (rank_ == 0) fprintf(stderr, CMD ": not converged: %s\n", why);
    code = 3;
  }
done2:
  free(devs);
  free(counts);
  free(displs);
  solve_release(e, &x, &res, &db, &dx, &P, &op);
done:
  free(r64);
  free(c64);
  strata_coo_destroy(&coo);
  strata_dist_crs_destroy(&A);
  strata_dist_map_destroy(&map);
  return code;
}
