/* strata bench — the solve suite (issue 27 item 7): Krylov methods × preconditioners on 3D Poisson
 * (7-point, 100³ and 150³; 16³ with --quick), the FEM job's matrix (gen:fem) or the --matrix inputs,
 * with b = ones, x0 = 0, tol 1e-8 on ||b - A x|| / ||b||. Per configuration: the preconditioner's
 * setup (symbolic, numeric, analysis: strata_precond_stats), the iterations, the solve's time and
 * its time per iteration against the bytes model below. Peers in the same run: hypre on the host
 * backends (bench_hypre.c: PCG, PCG with diagonal scaling, BiCGSTAB, BiCGSTAB + ILU(k), GMRES(30) +
 * ILU(0)); per matrix the ILU(0) numeric factorization, the two triangular solves (analysis and
 * solve) and 10 SpMVs, with cuSPARSE's csrilu02 and SpSV beside them on CUDA
 * (bench_peer_sptrsv.c). Every solution is checked before its time counts: the true relative
 * residual, recomputed from x by strata's SpMV on the serial backend, <= tol; factors and
 * triangular solves against the serial backend's (a host substitution for the solves).
 *
 * Bytes model per iteration (what the time per iteration is set against; n rows, nnz entries, a
 * vector pass = 8n bytes, read or written once):
 *   SpMV       S = 12 nnz + 4 (n + 1) + 16 n       (values and columns, offsets, x and y: the
 *                                                   harness's minimal SpMV model)
 *   Jacobi     J = 24 n                            (d, r read; z written)
 *   ILU(k)     T = 12 (f - n) + 8 n + 16 (n + 1) + 32 n   (f factor entries: strict parts with their
 *                                                   columns, the diagonal, two offsets arrays; r, y
 *                                                   in the lower solve, y, z in the upper)
 *   RAS        T(B) + 40 m                         (the ILU of the block matrix B, m = rows with
 *                                                   overlap; gather and restricted scatter)
 *   CG         S + 11 passes (+ M + 1 pass for r·z)  dot(p, q); x, r updated with r·r fused
 *                                                   (4 reads, 2 writes); p = r + beta p (3)
 *   BiCGSTAB   2 S + 2 M + 20 passes                p (4), r0·v (2), s (3), t·s and t·t (2),
 *                                                   x (4), r (3), r0·r (2)
 *   GMRES(m)   S + M + 5 (m + 1) / 2 + 3 + (m + 4) / m passes   modified Gram–Schmidt at step j:
 *                                                   j dots and updates (5 passes each), the norm and
 *                                                   the scaling (3); per cycle x += M⁻¹ V y
 * The model time is the bytes over the backend's stream reference measured in the same run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "bench_hypre.h"
#include "bench_peer_sptrsv.h"
#include "strata/solvers.h"

#define SOLVE_TOL 1e-8
#define SOLVE_MAX_ITER 20000

typedef struct solve_config {
  const char *name;   /* the record's algorithm */
  int method;         /* strata_krylov_method_t */
  const char *precond; /* strata_precond_create_from_name */
  int quick;          /* in --quick runs */
  int hypre_method;   /* BENCH_HYPRE_*, -1: no hypre peer */
  int hypre_precond;
  int ilu_level;
} solve_config_t;

static const solve_config_t configs[] = {
    {"cg", STRATA_KRYLOV_CG, "none", 1, BENCH_HYPRE_PCG, BENCH_HYPRE_NONE, 0},
    {"cg+jacobi", STRATA_KRYLOV_CG, "jacobi", 1, BENCH_HYPRE_PCG, BENCH_HYPRE_DIAG_SCALE, 0},
    {"bicgstab", STRATA_KRYLOV_BICGSTAB, "none", 0, BENCH_HYPRE_BICGSTAB, BENCH_HYPRE_NONE, 0},
    {"bicgstab+ilu0", STRATA_KRYLOV_BICGSTAB, "ilu0", 1, BENCH_HYPRE_BICGSTAB, BENCH_HYPRE_ILU, 0},
    {"bicgstab+ilu1", STRATA_KRYLOV_BICGSTAB, "iluk:1", 0, BENCH_HYPRE_BICGSTAB, BENCH_HYPRE_ILU, 1},
    {"bicgstab+ilu2", STRATA_KRYLOV_BICGSTAB, "iluk:2", 0, BENCH_HYPRE_BICGSTAB, BENCH_HYPRE_ILU, 2},
    {"bicgstab+ilu3", STRATA_KRYLOV_BICGSTAB, "iluk:3", 0, BENCH_HYPRE_BICGSTAB, BENCH_HYPRE_ILU, 3},
    {"gmres30+ilu0", STRATA_KRYLOV_GMRES, "ilu0", 1, BENCH_HYPRE_GMRES, BENCH_HYPRE_ILU, 0},
    {"bicgstab+ras8", STRATA_KRYLOV_BICGSTAB, "ras:8:0", 0, -1, 0, 0},
    {"bicgstab+ras8o1", STRATA_KRYLOV_BICGSTAB, "ras:8:1", 1, -1, 0, 0},
    {"bicgstab+ras32", STRATA_KRYLOV_BICGSTAB, "ras:32:0", 0, -1, 0, 0},
    {"bicgstab+ras32o1", STRATA_KRYLOV_BICGSTAB, "ras:32:1", 0, -1, 0, 0},
    {"bicgstab+ras128", STRATA_KRYLOV_BICGSTAB, "ras:128:0", 0, -1, 0, 0},
    {"bicgstab+ras128o1", STRATA_KRYLOV_BICGSTAB, "ras:128:1", 0, -1, 0, 0},
    {"bicgstab+ras512", STRATA_KRYLOV_BICGSTAB, "ras:512:0", 0, -1, 0, 0},
    {"bicgstab+ras512o1", STRATA_KRYLOV_BICGSTAB, "ras:512:1", 0, -1, 0, 0},
    {"bicgstab+ras1024", STRATA_KRYLOV_BICGSTAB, "ras:1024:0", 0, -1, 0, 0},
    {"bicgstab+ras1024o1", STRATA_KRYLOV_BICGSTAB, "ras:1024:1", 0, -1, 0, 0},
};
#define NUM_CONFIGS ((int)(sizeof configs / sizeof configs[0]))
/* the per-matrix kernels beside the solves (ILU(0) numeric, the two triangular solves, SpMV) */
static const char *const kernel_names[] = {"ilu0_numeric", "sptrsv_analysis", "sptrsv_solve", "spmv_x10"};
#define NUM_KERNELS 4

/* what the summary table shows of a solve record (bench_rec[rec]) */
typedef struct solve_row {
  int rec, iterations, peer; /* peer: a hypre record */
  double residual, symbolic, numeric, analysis, setup, per_iter, model_per_iter;
} solve_row_t;
static solve_row_t *rows;
static int nrows, rows_cap;

static solve_row_t *row_add(int rec) {
  if (nrows == rows_cap) {
    rows_cap = rows_cap ? 2 * rows_cap : 64;
    rows = (solve_row_t *)realloc(rows, (size_t)rows_cap * sizeof *rows);
  }
  solve_row_t *w = &rows[nrows++];
  memset(w, 0, sizeof *w);
  w->rec = rec;
  return w;
}

/* the partitions of a ras:/bjacobi: name (0 for others) */
static long name_parts(const char *p) {
  const char *c = strchr(p, ':');
  return (!strncmp(p, "ras:", 4) || !strncmp(p, "bjacobi:", 8)) && c ? strtol(c + 1, NULL, 10) : 0;
}

/* the bytes model of one iteration (the comment at the top) */
static double model_bytes(int method, const char *pname, double n, double nnz, const strata_precond_stats_t *ps) {
  const double S = 12 * nnz + 4 * (n + 1) + 16 * n, pass = 8 * n;
  double M = 0;
  if (!strcmp(pname, "jacobi") || !strcmp(pname, "l1-jacobi")) M = 24 * n;
  else if (strcmp(pname, "none")) {
    const double m = ps->rows_extended > 0 ? ps->rows_extended : n, f = (double)ps->nnz;
    M = 12 * (f - m) + 8 * m + 16 * (m + 1) + 32 * m + (ps->rows_extended > 0 ? 40 * m : 0);
  }
  if (method == STRATA_KRYLOV_CG) return S + 11 * pass + (M > 0 ? M + pass : 0);
  if (method == STRATA_KRYLOV_BICGSTAB) return 2 * S + 2 * M + 20 * pass;
  const double m = 30; /* the GMRES configurations' restart */
  return S + M + (5 * (m + 1) / 2 + 3 + (m + 4) / m) * pass;
}

typedef bench_system_t solve_input_t;

/* one strata configuration on backend bi: setup, the checked warm-up solve, the timed solves.
 * Returns 1 when the preconditioner refused a --matrix input's values (a zero or missing diagonal,
 * a zero pivot: INVALID_DATA): the record is skipped, said why, and so is hypre's twin (hypre's
 * diagonal scaling divides by such a zero and reports convergence) */
static int strata_config(const solve_input_t *in, int bi, const strata_operator_t *op, const double *db, double *dx,
                          const solve_config_t *c) {
  const strata_crs_matrix_t *Ah = in->Ah;
  const int32_t n = Ah->num_rows;
  strata_exec_t *e = bench_cfg.ex[bi];
  bench_result_t *r = bench_record_add("solve", bench_cfg.be[bi], in->name, c->name);
  const int rec = (int)(r - bench_rec);
  r->rows = n, r->cols = n, r->nnz = Ah->nnz;
  bench_progress("solve", in->name, r->backend, c->name);
  const long parts = name_parts(c->precond);
  if (parts > n) {
    r->ok = -2;
    snprintf(r->msg, sizeof r->msg, "skipped: %ld partitions, more than the %d rows", parts, n);
    bench_record_emit(r);
    return 0;
  }
  int refused = 0;
  strata_precond_t *P = NULL;
  strata_precond_stats_t ps;
  memset(&ps, 0, sizeof ps);
  double setup = 0;
  strata_krylov_result_t res;
  memset(&res, 0, sizeof res);
  if (strata_precond_create_from_name(e, c->precond, &P)) goto error;
  const double t0 = strata_timer_now();
  strata_status_t st = P ? strata_precond_setup(e, P, op) : STRATA_SUCCESS;
  if (st == STRATA_ERR_INVALID_DATA && in->given) {
    r->ok = -2, refused = 1;
    snprintf(r->msg, sizeof r->msg, "the input refused: %s", strata_error_message());
    goto done;
  }
  if (st) goto error;
  setup = strata_timer_now() - t0;
  if (P) strata_precond_stats(P, &ps);
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = (strata_krylov_method_t)c->method;
  ko.tol = SOLVE_TOL;
  ko.max_iter = SOLVE_MAX_ITER;
  ko.restart = 30;
  st = strata_krylov_solve(e, op, P, db, dx, &ko, &res);
  if (st && st != STRATA_ERR_NOT_CONVERGED) goto error;
  if (st) { /* not converged: wrong on the suite's own matrices, a fact of a --matrix input */
    r->ok = in->given ? -2 : 0;
    snprintf(r->msg, sizeof r->msg, "%s%s after %d iterations (true residual %.3g > %g)%s", in->given ? "not converged: " : "",
             strata_solve_status_name(res.status), res.iterations, res.rel_residual, SOLVE_TOL,
             in->given ? "" : ": time not counted");
    goto done;
  }
  if (n && strata_mem_copy(e, in->x, dx, (size_t)n * sizeof(double))) goto error;
  const double tr = bench_true_residual(Ah, in->b, in->x, in->w);
  if (!(tr <= SOLVE_TOL)) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "converged by its own account after %d iterations, but ||b - A x|| / ||b|| = %.3g "
             "(serial SpMV) > %g: time not counted", res.iterations, tr, SOLVE_TOL);
    goto done;
  }
  const int iters = res.iterations;
  if (bench_krylov_timed(e, op, P, db, dx, &ko, &res, &r->t)) goto error;
  r->ok = 1;
  const double bpi = model_bytes(c->method, c->precond, n, (double)Ah->nnz, &ps);
  r->bytes = bpi * iters;
  solve_row_t *w = row_add(rec);
  w->iterations = iters, w->residual = tr, w->symbolic = ps.symbolic_s, w->numeric = ps.numeric_s;
  w->analysis = ps.analysis_s, w->setup = setup, w->per_iter = iters ? r->t.median / iters : 0;
  w->model_per_iter = r->ref_bw > 0 ? bpi / (r->ref_bw * 1e9) : 0;
  snprintf(r->msg, sizeof r->msg, "%s, %d iterations, true residual %.3g; setup %.4g ms (symbolic %.4g, numeric %.4g, "
           "analysis %.4g)", strata_precond_name(P), iters, tr, 1e3 * setup, 1e3 * ps.symbolic_s, 1e3 * ps.numeric_s,
           1e3 * ps.analysis_s);
  snprintf(r->extra, sizeof r->extra, ", \"precond\": \"%s\", \"iterations\": %d, \"true_residual\": %.6g, "
           "\"setup_s\": %.6g, \"symbolic_s\": %.6g, \"numeric_s\": %.6g, \"analysis_s\": %.6g, "
           "\"time_per_iteration_s\": %.6g, \"model_bytes_per_iteration\": %.0f, \"model_time_per_iteration_s\": %.6g",
           strata_precond_name(P), iters, tr, setup, ps.symbolic_s, ps.numeric_s, ps.analysis_s, w->per_iter, bpi,
           w->model_per_iter);
  goto done;
error:
  r->ok = -1;
  snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
done:
  strata_krylov_result_free(&res);
  strata_precond_destroy(&P);
  bench_record_emit(r);
  return refused;
}

/* one hypre configuration on host backend bi (1 thread on serial, OpenMP's default on openmp) */
static void hypre_config(const solve_input_t *in, int bi, bench_hypre_t *h, const char *herr, const solve_config_t *c,
                         int refused) {
  const strata_crs_matrix_t *Ah = in->Ah;
  const int32_t n = Ah->num_rows;
  char al[40];
  snprintf(al, sizeof al, "hypre_%s", c->name);
  bench_result_t *r = bench_record_add("solve", bench_cfg.be[bi], in->name, al);
  const int rec = (int)(r - bench_rec);
  r->rows = n, r->cols = n, r->nnz = Ah->nnz;
  bench_progress("solve", in->name, r->backend, al);
  if (!h || refused) {
    if (refused) r->ok = -2;
    snprintf(r->msg, sizeof r->msg, "%s", refused ? "the input refused by strata's twin configuration (its message)" : herr);
    bench_record_emit(r);
    return;
  }
  bench_hypre_config_t hc = {c->hypre_method, c->hypre_precond, c->ilu_level, 30, SOLVE_TOL, SOLVE_MAX_ITER,
                             bench_cfg.be[bi] == STRATA_BACKEND_SERIAL ? 1 : 0, NULL};
  bench_hypre_solver_t *s = NULL;
  double setup = 0, hres = 0, t = 0;
  int iters = 0;
  if (bench_hypre_solver_create(h, &hc, &s, &setup, r->msg, sizeof r->msg) ||
      bench_hypre_solve(s, in->b, in->x, &iters, &hres, &t, r->msg, sizeof r->msg))
    goto done;
  const double tr = bench_true_residual(Ah, in->b, in->x, in->w);
  if (!(tr <= SOLVE_TOL)) {
    r->ok = in->given && !(hres <= SOLVE_TOL) ? -2 : 0; /* hypre said so itself: not converged */
    snprintf(r->msg, sizeof r->msg, "%s%d iterations, hypre's residual %.3g, ||b - A x|| / ||b|| = %.3g (serial SpMV) "
             "> %g%s", r->ok ? "not converged: " : "", iters, hres, tr, SOLVE_TOL, r->ok ? "" : ": time not counted");
    goto done;
  }
  if (bench_hypre_timed(s, in, t, &r->t, r->msg, sizeof r->msg)) goto done;
  r->ok = 1;
  solve_row_t *w = row_add(rec);
  w->peer = 1, w->iterations = iters, w->residual = tr, w->setup = setup, w->per_iter = iters ? r->t.median / iters : 0;
  snprintf(r->msg, sizeof r->msg, "hypre %d iterations, true residual %.3g; setup %.4g ms%s", iters, tr, 1e3 * setup,
           c->hypre_precond == BENCH_HYPRE_ILU ? " (BJ-ILU(k), natural order)" : "");
  snprintf(r->extra, sizeof r->extra, ", \"iterations\": %d, \"true_residual\": %.6g, \"setup_s\": %.6g, "
           "\"time_per_iteration_s\": %.6g", iters, tr, setup, w->per_iter);
done:
  bench_hypre_solver_destroy(&s);
  bench_record_emit(r);
}

/* ------------------------------------------------------- ILU(0), triangular solves, SpMV */
typedef struct {
  strata_exec_t *e;
  strata_ilu_t *F;
  const strata_crs_matrix_t *A;
  const strata_crs_matrix_t *LU;
  strata_sptrsv_t *L, *U;
  const strata_operator_t *op;
  const double *r;
  double *tmp, *z;
} kernel_ctx;

static int k_refactor(void *v, int64_t call) {
  (void)call;
  kernel_ctx *k = (kernel_ctx *)v;
  return strata_ilu_refactor(k->e, k->F, k->A);
}
static strata_status_t plans(kernel_ctx *k) {
  strata_sptrsv_options_t lo = {STRATA_LOWER, STRATA_DIAG_UNIT, 0, STRATA_SPTRSV_AUTO};
  strata_sptrsv_options_t uo = {STRATA_UPPER, STRATA_DIAG_NON_UNIT, 0, STRATA_SPTRSV_AUTO};
  strata_status_t st = strata_sptrsv_create(k->e, k->LU, &lo, &k->L);
  return st ? st : strata_sptrsv_create(k->e, k->LU, &uo, &k->U);
}
static int k_analysis(void *v, int64_t call) {
  (void)call;
  kernel_ctx *k = (kernel_ctx *)v;
  strata_sptrsv_destroy(&k->L);
  strata_sptrsv_destroy(&k->U);
  return plans(k);
}
static int k_solve(void *v, int64_t call) {
  (void)call;
  kernel_ctx *k = (kernel_ctx *)v;
  strata_status_t st = strata_sptrsv_solve(k->e, k->L, k->r, k->tmp);
  return st ? st : strata_sptrsv_solve(k->e, k->U, k->tmp, k->z);
}
static int k_spmv10(void *v, int64_t call) {
  (void)call;
  kernel_ctx *k = (kernel_ctx *)v;
  strata_status_t st = STRATA_SUCCESS;
  for (int i = 0; i < 10 && !st; ++i) st = strata_operator_apply(k->e, k->op, 1.0, k->r, 0.0, k->z);
  return st;
}

/* the serial backend's ILU(0) factors on the host, and z = U⁻¹ L⁻¹ r from them by plain
 * substitution: the references of every backend's factors and triangular solves */
typedef struct {
  strata_crs_matrix_t *LU; /* serial (host) */
  double *r, *z, *ztol, *vtol;
} kernel_ref_t;

/* 0, a strata status (the factorization's), or -1 (no memory) */
static int kernel_reference(const strata_crs_matrix_t *Ah, kernel_ref_t *ref, char *err, size_t len) {
  memset(ref, 0, sizeof *ref);
  strata_ilu_t *F = NULL;
  const strata_crs_matrix_t *LU = NULL;
  strata_status_t st = strata_ilu_create(bench_cfg.serial, Ah, NULL, &F);
  if (!st) st = strata_ilu_factors(F, &LU);
  if (!st) st = strata_crs_copy(bench_cfg.serial, LU, &ref->LU);
  if (st) {
    snprintf(err, len, "ILU(0) on serial (the reference): %s", strata_error_message());
    strata_ilu_destroy(&F);
    return (int)st;
  }
  strata_ilu_destroy(&F);
  const int32_t n = Ah->num_rows;
  const strata_crs_matrix_t *T = ref->LU;
  ref->r = (double *)malloc(((size_t)n + 1) * sizeof(double));
  ref->z = (double *)malloc(((size_t)n + 1) * sizeof(double));
  ref->ztol = (double *)malloc(((size_t)n + 1) * sizeof(double));
  ref->vtol = (double *)malloc(((size_t)T->nnz + 1) * sizeof(double));
  if (!ref->r || !ref->z || !ref->ztol || !ref->vtol) {
    snprintf(err, len, "out of host memory for the kernels' references");
    return -1;
  }
  for (int32_t i = 0; i < n; ++i) ref->r[i] = 1.0 + (double)(i % 7) / 8.0;
  for (int32_t i = 0; i < n; ++i) { /* L y = r, unit diagonal */
    double s = ref->r[i];
    for (int64_t q = T->row_offsets[i]; q < T->row_offsets[i + 1] && T->col_indices[q] < i; ++q) s -= T->values[q] * ref->z[T->col_indices[q]];
    ref->z[i] = s;
  }
  for (int32_t i = n - 1; i >= 0; --i) { /* U z = y */
    double s = ref->z[i], d = 0;
    for (int64_t q = T->row_offsets[i]; q < T->row_offsets[i + 1]; ++q) {
      const int32_t j = T->col_indices[q];
      if (j > i) s -= T->values[q] * ref->z[j];
      else if (j == i) d = T->values[q];
    }
    ref->z[i] = s / d;
  }
  double zmax = 0, vmax = 0;
  for (int32_t i = 0; i < n; ++i) zmax = fmax(zmax, fabs(ref->z[i]));
  for (int64_t q = 0; q < T->nnz; ++q) vmax = fmax(vmax, fabs(T->values[q]));
  /* other summation orders (levels, devices): relative 1e-10 of the largest entry, 1e-12 for a factor */
  for (int32_t i = 0; i < n; ++i) ref->ztol[i] = 1e-10 * zmax;
  for (int64_t q = 0; q < T->nnz; ++q) ref->vtol[q] = 1e-12 * fmax(vmax, 1.0);
  return 0;
}
static void kernel_reference_free(kernel_ref_t *ref) {
  strata_crs_destroy(&ref->LU);
  free(ref->r), free(ref->z), free(ref->ztol), free(ref->vtol);
}

/* y (exec memory [m]) against a reference: 1 when every entry is within its tolerance, else 0
 * with the record's message */
static int check_vec(strata_exec_t *e, const double *dy, int64_t m, const double *yref, const double *tol, const char *what,
                     bench_result_t *r) {
  double *h = (double *)malloc(((size_t)m + 1) * sizeof(double));
  if (!h || (m && strata_mem_copy(e, h, dy, (size_t)m * sizeof(double)))) {
    snprintf(r->msg, sizeof r->msg, "copying %s to the host failed: %s", what, h ? strata_error_message() : "no memory");
    free(h);
    return 0;
  }
  bench_oracle_t o = {yref, tol, m};
  int64_t first = -1;
  const int64_t bad = bench_oracle_compare(&o, h, &first);
  if (bad) {
    r->ok = 0;
    snprintf(r->msg, sizeof r->msg, "%lld wrong entries of %s against serial (first %lld: %.17g, serial %.17g): time not "
             "counted", (long long)bad, what, (long long)first, h[first], yref[first]);
  }
  free(h);
  return bad == 0;
}

/* bench_time of f on the kernel context, checked first by check (NULL: none) */
static void time_kernel(strata_exec_t *e, bench_fn f, void *ctx, bench_result_t *r) {
  if (bench_time(e, f, ctx, bench_cfg.min_time, &r->t)) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  } else
    r->ok = 1;
}

static bench_result_t *kernel_record(const solve_input_t *in, int bi, const char *algo, double bytes) {
  bench_result_t *r = bench_record_add("solve", bench_cfg.be[bi], in->name, algo);
  r->rows = in->Ah->num_rows, r->cols = in->Ah->num_cols, r->nnz = in->Ah->nnz, r->bytes = bytes;
  bench_progress("solve", in->name, r->backend, algo);
  return r;
}

/* ILU(0) numeric, the triangular solves' analysis and solve, 10 SpMVs on backend bi; on CUDA the
 * cuSPARSE peers of the first three */
static void kernels(const solve_input_t *in, int bi, const kernel_ref_t *ref, const strata_crs_matrix_t *A,
                    const strata_operator_t *op) {
  strata_exec_t *e = bench_cfg.ex[bi];
  const int32_t n = in->Ah->num_rows;
  const double nnz = (double)in->Ah->nnz, f = (double)ref->LU->nnz;
  kernel_ctx k;
  memset(&k, 0, sizeof k);
  k.e = e, k.A = A, k.op = op;
  double *dr = NULL, *dtmp = NULL, *dz = NULL, *dv = NULL;
  const size_t vb = ((size_t)n + 1) * sizeof(double);
  bench_result_t *r = NULL;
  const int first = bench_nrec;
  int setup = !strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&dr) && !strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&dtmp) &&
              !strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&dz) &&
              !strata_mem_alloc(e, STRATA_MEM_DEVICE, ((size_t)ref->LU->nnz + 1) * sizeof(double), (void **)&dv) &&
              !(n && strata_mem_copy(e, dr, ref->r, (size_t)n * sizeof(double)));
  k.r = dr, k.tmp = dtmp, k.z = dz;
  const strata_crs_matrix_t *LU = NULL;
  if (setup) setup = !strata_ilu_create(e, A, NULL, &k.F) && !strata_ilu_factors(k.F, &LU);
  k.LU = LU;
  /* ILU(0) numeric: refactor (values gathered into the factors, the factorization), checked as the factors */
  r = kernel_record(in, bi, kernel_names[0], 16 * nnz + 24 * f);
  if (!setup) snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  else if (!k_refactor(&k, 0) && !strata_exec_fence(e) && LU->nnz == ref->LU->nnz &&
           check_vec(e, LU->values, LU->nnz, ref->LU->values, ref->vtol, "the ILU(0) factors", r))
    time_kernel(e, k_refactor, &k, r);
  else if (r->ok != 0)
    snprintf(r->msg, sizeof r->msg, "%s", LU && LU->nnz != ref->LU->nnz ? "the factors' pattern differs from serial's" : strata_error_message());
  /* the triangular solves: analysis (both plans built and freed), solve (L then U), checked */
  r = kernel_record(in, bi, kernel_names[1], 0);
  if (setup && !plans(&k)) time_kernel(e, k_analysis, &k, r);
  else snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  r = kernel_record(in, bi, kernel_names[2], 12 * (f - n) + 8 * n + 16 * (double)(n + 1) + 32 * n);
  if (setup && k.L && k.U && !k_solve(&k, 0) && check_vec(e, dz, n, ref->z, ref->ztol, "z = U^-1 L^-1 r", r))
    time_kernel(e, k_solve, &k, r);
  else if (r->ok != 0)
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  r = kernel_record(in, bi, kernel_names[3], 10 * (12 * nnz + 4 * (double)(n + 1) + 16 * n));
  if (setup) time_kernel(e, k_spmv10, &k, r); /* the SpMV plan itself is checked by the spmv suite */
  else snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  /* cuSPARSE: csrilu02 against ilu0_numeric, SpSV against sptrsv_analysis / _solve */
  if (setup && bench_sptrsv_peer(bench_cfg.be[bi])) {
    void *stream = strata_exec_native_stream(e);
    r = kernel_record(in, bi, "cusparse_csrilu02", 16 * nnz + 24 * f);
    bench_csrilu02_t *c = NULL;
    if (!bench_csrilu02_create(A, stream, dv, &c, r->msg, sizeof r->msg)) {
      if (bench_csrilu02_factor(c, 0)) snprintf(r->msg, sizeof r->msg, "cusparseDcsrilu02 failed (or a zero pivot)");
      else if (bench_sync(e), check_vec(e, dv, ref->LU->nnz, ref->LU->values, ref->vtol, "csrilu02's factors", r))
        time_kernel(e, bench_csrilu02_factor, c, r);
      bench_csrilu02_destroy(&c);
    }
    bench_spsv_args_t sa = {LU, stream, dr, dtmp, dz};
    r = kernel_record(in, bi, "cusparse_spsv_analysis", 0);
    time_kernel(e, bench_spsv_analysis, &sa, r);
    if (r->ok != 1) snprintf(r->msg, sizeof r->msg, "cusparseSpSV analysis failed");
    r = kernel_record(in, bi, "cusparse_spsv_solve", 12 * (f - n) + 8 * n + 16 * (double)(n + 1) + 32 * n);
    bench_spsv_t *p = NULL;
    if (!bench_spsv_create(LU, stream, dr, dtmp, dz, &p, r->msg, sizeof r->msg)) {
      strata_mem_set_async(e, dz, 0xFF, vb);
      if (bench_spsv_apply(p, 0)) snprintf(r->msg, sizeof r->msg, "cusparseSpSV_solve failed");
      else if (bench_sync(e), check_vec(e, dz, n, ref->z, ref->ztol, "cusparseSpSV's z", r))
        time_kernel(e, bench_spsv_apply, p, r);
      bench_spsv_destroy(&p);
    }
  }
  /* ratios: the peer's time over strata's (x_peer), and the summary's numeric / 10 SpMVs */
  for (int i = first; i < bench_nrec; ++i) {
    bench_result_t *q = &bench_rec[i];
    const char *twin = !strcmp(q->algo, kernel_names[0]) ? "cusparse_csrilu02" : !strcmp(q->algo, kernel_names[1]) ? "cusparse_spsv_analysis"
                       : !strcmp(q->algo, kernel_names[2]) ? "cusparse_spsv_solve" : NULL;
    for (int j = first; twin && j < bench_nrec; ++j)
      if (q->ok == 1 && bench_rec[j].ok == 1 && !strcmp(bench_rec[j].algo, twin)) q->ratio_peer = bench_rec[j].t.median / q->t.median;
  }
  for (int i = first; i < bench_nrec; ++i) bench_record_emit(&bench_rec[i]);
  strata_sptrsv_destroy(&k.L);
  strata_sptrsv_destroy(&k.U);
  strata_ilu_destroy(&k.F);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dr);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dtmp);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dz);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dv);
}

/* every configuration and the kernels on every backend for one matrix (host memory) */
static void solve_matrix(const strata_crs_matrix_t *Ah, const char *name, void *ctx) {
  const int given = ctx != NULL;
  solve_input_t in;
  if (bench_system_create("solve", Ah, name, given, &in)) return;
  char kerr[200] = "";
  kernel_ref_t ref;
  memset(&ref, 0, sizeof ref);
  const int ref_st = kernel_reference(Ah, &ref, kerr, sizeof kerr), have_ref = ref_st == 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_exec_t *e = bench_cfg.ex[bi];
    if (bench_cfg.stream_bw[bench_cfg.be[bi]] <= 0) bench_stream_backend(bi); /* the model's bandwidth */
    bench_system_exec_t d;
    if (!bench_system_exec_create("solve", &in, bi, &d)) {
      int refused[NUM_CONFIGS] = {0};
      for (int c = 0; c < NUM_CONFIGS; ++c) {
        if (bench_cfg.quick && !configs[c].quick) continue;
        refused[c] = strata_config(&in, bi, d.op, d.b, d.x, &configs[c]);
      }
      if (have_ref) kernels(&in, bi, &ref, d.A, d.op);
      else {
        bench_result_t *r = kernel_record(&in, bi, kernel_names[0], 0);
        if (given && ref_st == STRATA_ERR_INVALID_DATA) r->ok = -2; /* the input's values: no ILU(0) */
        snprintf(r->msg, sizeof r->msg, "%s", kerr);
        bench_record_emit(r);
      }
      /* the strata records' x_peer: hypre's solve time over strata's, filled in when hypre ran */
      for (int c = 0; c < NUM_CONFIGS && strata_exec_is_host(e) && bench_hypre_available(); ++c) {
        if ((bench_cfg.quick && !configs[c].quick) || configs[c].hypre_method < 0) continue;
        hypre_config(&in, bi, in.h, in.herr, &configs[c], refused[c]);
        const bench_result_t *hr = &bench_rec[bench_nrec - 1];
        for (int i = bench_nrec - 2; i >= 0 && hr->ok == 1; --i)
          if (!strcmp(bench_rec[i].algo, configs[c].name) && !strcmp(bench_rec[i].name, name) &&
              !strcmp(bench_rec[i].backend, hr->backend) && bench_rec[i].ok == 1) {
            bench_rec[i].ratio_peer = hr->t.median / bench_rec[i].t.median;
            break;
          }
      }
    }
    bench_system_exec_destroy(bi, &d);
  }
  kernel_reference_free(&ref);
  bench_system_destroy(&in);
}

/* The 3D Poisson matrix of the seed paper and of hypre's counts in the issue: gen:laplace7:M, the
 * 7-point Laplacian on an m³ grid (gen:poisson7 has the pattern with random values: not SPD).
 * 0, or -1 after an input error record. */
static int laplace7(int m, strata_crs_matrix_t **A, char *name, size_t name_len) {
  char spec[32], err[300];
  snprintf(spec, sizeof spec, "laplace7:%d", m);
  if (bench_gen(bench_cfg.serial, spec, 0, 1.0, bench_cfg.seed, A, name, name_len, err, sizeof err) == 0) return 0;
  bench_input_error("solve", spec, err);
  return -1;
}

/* the default inputs: the Laplacian on 100³ and 150³ grids and the FEM matrix (16³ and the quick
 * FEM mesh under --quick); --matrix replaces them */
static void solve_suite_run(const bench_inputs_t *inp) {
  bench_list_t specs = {0};
  if (!inp->given) {
    static const int full[2] = {100, 150};
    for (int g = 0; g < (bench_cfg.quick ? 1 : 2); ++g) {
      char name[160];
      strata_crs_matrix_t *A = NULL;
      if (laplace7(bench_cfg.quick ? 16 : full[g], &A, name, sizeof name)) continue;
      solve_matrix(A, name, NULL);
      strata_crs_destroy(&A);
    }
    if (BENCH_HAVE_GMSH) bench_list_push(&specs, "gen:fem");
  }
  int given = inp->given; /* solve_matrix's ctx: non-NULL for --matrix inputs */
  bench_each_input("solve", inp->given ? inp->specs : &specs, solve_matrix, inp->given ? &given : NULL);
  bench_list_free(&specs);
}

static int solve_estimate(const bench_inputs_t *in) {
  int cfg = 0, hy = 0, host = 0, peer = 0;
  for (int c = 0; c < NUM_CONFIGS; ++c)
    if (!bench_cfg.quick || configs[c].quick) ++cfg, hy += configs[c].hypre_method >= 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    host += strata_exec_is_host(bench_cfg.ex[bi]), peer += bench_sptrsv_peer(bench_cfg.be[bi]) ? 3 : 0;
  const int mats = in->given ? in->matrices : (bench_cfg.quick ? 1 : 2) + BENCH_HAVE_GMSH;
  return mats * (bench_cfg.nb * (cfg + NUM_KERNELS) + peer + (bench_hypre_available() ? host * hy : 0));
}

/* The suite's table: per backend, matrix and configuration the iterations, the setup phases, the
 * solve, its time per iteration against the model's, and hypre's iterations beside strata's. */
static void solve_summary(FILE *f) {
  if (!nrows) return;
  fprintf(f, "== solve: iterations, setup (symbolic / numeric / analysis) and solve in ms, time per iteration against "
             "the bytes model; hypre's iterations and strata/hypre (issue: within 10 %%)\n");
  fprintf(f, "%-7s %-28s %-18s %6s %26s %10s %9s %9s %7s %6s %8s %8s\n", "backend", "name", "config", "iters",
          "setup [sym/num/ana]", "solve", "ms/iter", "model", "x_model", "hypre", "it/hypre", "t/hypre");
  for (int i = 0; i < nrows; ++i) {
    const solve_row_t *w = &rows[i];
    const bench_result_t *r = &bench_rec[w->rec];
    if (w->peer) continue;
    const solve_row_t *hp = NULL;
    for (int j = 0; j < nrows && !hp; ++j) {
      const bench_result_t *q = &bench_rec[rows[j].rec];
      if (rows[j].peer && !strcmp(q->name, r->name) && !strcmp(q->backend, r->backend) && !strcmp(q->algo + 6, r->algo))
        hp = &rows[j];
    }
    char setup[48], model[16] = "-", xm[16] = "-", hi[16] = "-", ir[16] = "-", tr[16] = "-";
    snprintf(setup, sizeof setup, "%.3g [%.3g/%.3g/%.3g]", 1e3 * w->setup, 1e3 * w->symbolic, 1e3 * w->numeric, 1e3 * w->analysis);
    if (w->model_per_iter > 0) {
      snprintf(model, sizeof model, "%.4g", 1e3 * w->model_per_iter);
      snprintf(xm, sizeof xm, "%.2f", w->per_iter / w->model_per_iter);
    }
    if (hp) {
      snprintf(hi, sizeof hi, "%d", hp->iterations);
      if (hp->iterations > 0) {
        const double q = (double)w->iterations / hp->iterations;
        snprintf(ir, sizeof ir, "%.3f%s", q, fabs(q - 1) > 0.10 ? "!" : "");
      }
      snprintf(tr, sizeof tr, "%.3f", r->t.median / bench_rec[hp->rec].t.median);
    }
    fprintf(f, "%-7s %-28.28s %-18s %6d %26s %10.4g %9.4g %9s %7s %6s %8s %8s\n", r->backend, r->name, r->algo,
            w->iterations, setup, 1e3 * r->t.median, 1e3 * w->per_iter, model, xm, hi, ir, tr);
  }
  /* the kernels: ILU(0) numeric over 10 SpMVs (issue: <= 1), analysis over one solve (<= 10), and
   * cuSPARSE's over strata's */
  int head = 0;
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (strcmp(r->suite, "solve") || strcmp(r->algo, kernel_names[0])) continue;
    const bench_result_t *k[NUM_KERNELS + 3] = {r, NULL};
    static const char *const peers[3] = {"cusparse_csrilu02", "cusparse_spsv_analysis", "cusparse_spsv_solve"};
    for (int j = i + 1; j < bench_nrec; ++j) {
      const bench_result_t *q = &bench_rec[j];
      if (strcmp(q->suite, "solve") || strcmp(q->name, r->name) || strcmp(q->backend, r->backend) || q->ok != 1) continue;
      for (int a = 1; a < NUM_KERNELS; ++a)
        if (!strcmp(q->algo, kernel_names[a])) k[a] = q;
      for (int a = 0; a < 3; ++a)
        if (!strcmp(q->algo, peers[a])) k[NUM_KERNELS + a] = q;
    }
    if (!head++)
      fprintf(f, "== solve kernels (ms): ILU(0) numeric, triangular solves' analysis and solve (L and U), 10 SpMVs; "
                 "numeric / 10 SpMVs, analysis / solve; cuSPARSE's\n%-7s %-28s %10s %10s %10s %10s %9s %9s %10s %10s %10s\n",
              "backend", "name", "numeric", "analysis", "solve", "10 spmv", "num/10sp", "ana/sol", "csrilu02", "spsv_ana",
              "spsv_sol");
    char c[NUM_KERNELS + 3][16], q1[16] = "-", q2[16] = "-";
    for (int a = 0; a < NUM_KERNELS + 3; ++a) {
      if (k[a] && k[a]->ok == 1) snprintf(c[a], sizeof c[a], "%.4g", 1e3 * k[a]->t.median);
      else snprintf(c[a], sizeof c[a], "-");
    }
    if (r->ok == 1 && k[3]) snprintf(q1, sizeof q1, "%.3f", r->t.median / k[3]->t.median);
    if (k[1] && k[2]) snprintf(q2, sizeof q2, "%.3g", k[1]->t.median / k[2]->t.median);
    fprintf(f, "%-7s %-28.28s %10s %10s %10s %10s %9s %9s %10s %10s %10s\n", r->backend, r->name, c[0], c[1], c[2], c[3],
            q1, q2, c[4], c[5], c[6]);
  }
  free(rows);
  rows = NULL, nrows = rows_cap = 0;
}

const bench_suite_t bench_suite_solve = {
    .name = "solve",
    .help = "Krylov methods x preconditioners (setup, iterations, solve, bytes model), ILU(0) and sptrsv; hypre, cuSPARSE",
    .options = BENCH_OPT_MATRIX,
    .run = solve_suite_run,
    .estimate = solve_estimate,
    .box_edge = NULL,
    .summary = solve_summary,
};
