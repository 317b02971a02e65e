/* strata bench — the amg suite (issue 28 item 7): CG preconditioned by strata's classical AMG
 * (strata/amg.h, one cycle per application) with b = ones, x0 = 0, tol 1e-8 on ||b - A x|| / ||b||,
 * on 3D Poisson (gen:laplace7:50, 125,000 rows) and a 2D 5-point matrix of ecology2's kind and size,
 * random conductances over 4 decades (gen:conduct5:1000, 10⁶ rows); --quick: laplace7:10 and
 * conduct5:40 and three configurations;
 * --matrix replaces the inputs. Configurations: the seed's coarsening RS and CLJP × interpolation
 * standard and direct × smoother damped Jacobi, weighted Jacobi, Chebyshev, hybrid GS (8 levels,
 * 3 + 3 sweeps, V-cycle), PMIS and HMIS with ext+i and l1-Jacobi (the usual GPU choice), without
 * truncation and with at most 4 entries per row of P, and strata's defaults.
 * Records per configuration and backend: "NAME:setup" (the whole setup's time; the phases, the
 * hierarchy's levels, operator and grid complexity and rows / nnz / P's nnz per level in the JSON)
 * and "NAME" (the solve: its time, iterations, time per iteration). Every solution is checked
 * before its time counts: the true relative residual, recomputed from x by strata's SpMV on the
 * serial backend, <= tol.
 *
 * The peer, in the same run on the host backends (serial: 1 thread, openmp: the backend's threads):
 * hypre 2.26's PCG (two-norm test, the same tol) preconditioned by BoomerAMG with the same
 * configuration ("hypre_NAME:setup", "hypre_NAME"; ratio_to_peer of strata's records: hypre's time
 * over strata's). The mapping (hypre_params below), and where hypre differs:
 *   coarsening  RS -> 1 (Ruge–Stüben's first and second pass on each process; 3 adds a third pass
 *               over the points on process boundaries, which one process does not have, so 1 and
 *               3 are the same here), CLJP -> 0, PMIS -> 8, HMIS -> 10. hypre's random weights
 *               (CLJP, PMIS) and its RS tie-breaks are its own: the splittings differ from strata's.
 *   interp      standard -> 0 (classical modified: strata's "standard" is this one, not hypre's
 *               type 8), direct -> 3 (direct with separation of weights: strata's direct also
 *               treats the negative and positive parts apart), ext+i -> 6.
 *   smoother    damped Jacobi -> 0 with weight omega (2/3); weighted Jacobi -> 0 with weight 0:
 *               hypre's 4 / (3 ||D^-1/2 A D^-1/2||_inf) per level (par_amg_setup.c; its header
 *               says 3/4), against strata's 2 / (λ_max + max(λ_min, λ_max / 2)) from Lanczos: the
 *               same 4 / (3 λ_max) where the spectrum is wide, with hypre's bound of λ_max in place
 *               of the estimate; l1-Jacobi -> 18; Chebyshev -> 16 with order = degree, scaled by
 *               D^-1/2, 12 CG steps for the eigenvalues (strata: 12 Lanczos steps) and fraction
 *               1/33: hypre's interval is [λ_min + f (1.1 λ_max - λ_min), 1.1 λ_max], strata's
 *               [λ_max / 30, 1.1 λ_max], equal for λ_min = 0; hybrid GS (strata's is l1-scaled)
 *               -> 13 down and 14 up (l1 forward, l1 backward: the symmetric cycle), weight 1:
 *               hypre runs GS within each thread's share of the rows and Jacobi between threads
 *               (plain GS on one thread), strata GS within blocks of 128 rows and Jacobi between
 *               blocks on every backend, so the two differ on serial too; symmetric GS -> 8 (l1
 *               symmetric hybrid GS). Multicolor GS has no hypre twin.
 *   the rest    theta, max_row_sum (0.9), max levels, max coarse size (strata's coarse_size, 64),
 *               trunc factor and pmax (0 and 0 unless the configuration says; hypre's default pmax
 *               is 4), V -> cycle type 1 (W 2, F: SetFCycle), relax order 0 (lexicographic).
 *   coarsest    strata: dense LU up to 4096 rows, else smoothed (pre + post sweeps, forward then
 *               backward halves). hypre: GE (relax type 9, redone in every solve) up to its max
 *               coarse size; a larger coarsest level (the level limit reached) is relaxed once by
 *               its down smoother in hypre's own rule, and here gets strata's: GE by the inverse
 *               formed at setup (199) up to 4096 rows, else its smoother (hybrid GS: 8, symmetric)
 *               with as many sweeps (bench_hypre.h).
 * hypre's complexities come from its level arrays (bench_hypre_amg_info). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "bench_hypre.h"
#include "strata/solvers.h"

#define AMG_TOL 1e-8
#define AMG_MAX_ITER 1000
#define AMG_DENSE_MAX 4096 /* strata's coarsest dense LU (amg.h) */
#define SEED_OPTS ",pre=3,post=3,levels=8,cycle=v"

typedef struct amg_config {
  const char *name; /* the record's algorithm: at most 19 characters ("hypre_NAME:setup" fits 32) */
  const char *opts; /* strata_amg_options_parse */
  int quick;        /* in --quick runs */
} amg_config_t;

static const amg_config_t configs[] = {
    {"rs-std-jac", "coarsen=rs,interp=standard,smoother=jacobi" SEED_OPTS, 0},
    {"rs-std-wjac", "coarsen=rs,interp=standard,smoother=wjacobi" SEED_OPTS, 0},
    {"rs-std-cheby", "coarsen=rs,interp=standard,smoother=cheby" SEED_OPTS, 0},
    {"rs-std-hgs", "coarsen=rs,interp=standard,smoother=hgs" SEED_OPTS, 1},
    {"rs-dir-jac", "coarsen=rs,interp=direct,smoother=jacobi" SEED_OPTS, 0},
    {"rs-dir-wjac", "coarsen=rs,interp=direct,smoother=wjacobi" SEED_OPTS, 0},
    {"rs-dir-cheby", "coarsen=rs,interp=direct,smoother=cheby" SEED_OPTS, 0},
    {"rs-dir-hgs", "coarsen=rs,interp=direct,smoother=hgs" SEED_OPTS, 0},
    {"cljp-std-jac", "coarsen=cljp,interp=standard,smoother=jacobi" SEED_OPTS, 0},
    {"cljp-std-wjac", "coarsen=cljp,interp=standard,smoother=wjacobi" SEED_OPTS, 0},
    {"cljp-std-cheby", "coarsen=cljp,interp=standard,smoother=cheby" SEED_OPTS, 0},
    {"cljp-std-hgs", "coarsen=cljp,interp=standard,smoother=hgs" SEED_OPTS, 0},
    {"cljp-dir-jac", "coarsen=cljp,interp=direct,smoother=jacobi" SEED_OPTS, 0},
    {"cljp-dir-wjac", "coarsen=cljp,interp=direct,smoother=wjacobi" SEED_OPTS, 0},
    {"cljp-dir-cheby", "coarsen=cljp,interp=direct,smoother=cheby" SEED_OPTS, 0},
    {"cljp-dir-hgs", "coarsen=cljp,interp=direct,smoother=hgs" SEED_OPTS, 0},
    {"pmis-ext+i-l1jac", "coarsen=pmis,interp=ext+i,smoother=l1-jacobi" SEED_OPTS, 0},
    {"hmis-ext+i-l1jac", "coarsen=hmis,interp=ext+i,smoother=l1-jacobi" SEED_OPTS, 0},
    {"pmis-ext+i-l1jac-p4", "coarsen=pmis,interp=ext+i,smoother=l1-jacobi,pmax=4" SEED_OPTS, 1},
    {"hmis-ext+i-l1jac-p4", "coarsen=hmis,interp=ext+i,smoother=l1-jacobi,pmax=4" SEED_OPTS, 0},
    {"default", "", 1},
};
#define NUM_CONFIGS ((int)(sizeof configs / sizeof configs[0]))
#define NUM_PHASES 6
static const char *const phase_names[NUM_PHASES] = {"strength", "coarsen", "interp", "rap", "smoother", "coarse_solve"};

/* what the summary shows of a configuration on one backend (strata's or hypre's) */
typedef struct amg_row {
  int setup_rec, solve_rec, peer; /* bench_rec indices (solve_rec -1: no solve timed); peer: hypre's */
  int iterations, levels;
  double setup, phases[NUM_PHASES], opc, gridc;
  int64_t rows[BENCH_HYPRE_AMG_LEVELS], nnz[BENCH_HYPRE_AMG_LEVELS], p_nnz[BENCH_HYPRE_AMG_LEVELS];
  char key[96]; /* what the hierarchy depends on (the levels table shows each key once) */
} amg_row_t;
static amg_row_t *rows;
static int nrows, rows_cap;

static amg_row_t *row_add(void) {
  if (nrows == rows_cap) {
    rows_cap = rows_cap ? 2 * rows_cap : 64;
    rows = (amg_row_t *)realloc(rows, (size_t)rows_cap * sizeof *rows);
  }
  amg_row_t *w = &rows[nrows++];
  memset(w, 0, sizeof *w);
  w->solve_rec = -1;
  return w;
}

/* BoomerAMG's parameters for strata's options (the mapping at the top); -1 with why when none */
static int hypre_params(const strata_amg_options_t *o, bench_hypre_amg_t *a, char *why, size_t why_len) {
  static const int coarsen[4] = {1, 0, 8, 10}, interp[3] = {3, 0, 6};
  memset(a, 0, sizeof *a);
  a->coarsen_type = coarsen[o->coarsen], a->interp_type = interp[o->interp];
  a->relax_weight = 1.0;
  const int sw = o->pre_sweeps + o->post_sweeps < 2 ? 2 : o->pre_sweeps + o->post_sweeps;
  a->coarse_sweeps = sw;
  switch (o->smoother) {
  case STRATA_SMOOTH_JACOBI: a->relax_down = a->relax_up = 0, a->relax_weight = o->omega; break;
  case STRATA_SMOOTH_WJACOBI: a->relax_down = a->relax_up = 0, a->relax_weight = 0.0; break;
  case STRATA_SMOOTH_L1_JACOBI: a->relax_down = a->relax_up = 18; break;
  case STRATA_SMOOTH_CHEBYSHEV: a->relax_down = a->relax_up = 16; break;
  case STRATA_SMOOTH_HYBRID_GS: a->relax_down = 13, a->relax_up = 14, a->coarse_sweeps = (sw + 1) / 2; break;
  case STRATA_SMOOTH_SYMMETRIC_GS: a->relax_down = a->relax_up = 8; break;
  default:
    snprintf(why, why_len, "no BoomerAMG twin: hypre has no multicolor Gauss-Seidel on the host");
    return -1;
  }
  a->coarse_relax = o->smoother == STRATA_SMOOTH_HYBRID_GS ? 8 : a->relax_down;
  a->pre_sweeps = o->pre_sweeps, a->post_sweeps = o->post_sweeps;
  a->cycle_type = o->cycle == STRATA_CYCLE_W ? 2 : 1, a->fcycle = o->cycle == STRATA_CYCLE_F;
  a->max_levels = o->max_levels, a->max_coarse_size = o->coarse_size;
  a->theta = o->theta, a->max_row_sum = o->max_row_sum, a->trunc_factor = o->trunc_factor, a->pmax = o->max_elements;
  a->cheby_order = o->cheby_degree, a->cheby_eig_est = 12, a->cheby_fraction = 1.0 / 33.0;
  a->dense_max = AMG_DENSE_MAX;
  return 0;
}

/* ", \"NAME\": [v0, v1, ...]" of v [n] appended to out (cap bytes) */
static void json_array(char *out, size_t cap, const char *name, const int64_t *v, int n) {
  size_t l = strlen(out);
  l += (size_t)snprintf(out + l, l < cap ? cap - l : 0, ", \"%s\": [", name);
  for (int i = 0; i < n && l < cap; ++i) l += (size_t)snprintf(out + l, cap - l, "%s%lld", i ? ", " : "", (long long)v[i]);
  if (l < cap) snprintf(out + l, cap - l, "]");
}

/* the hierarchy's members of a setup record's JSON (both libraries) */
static void hierarchy_json(bench_result_t *r, const amg_row_t *w) {
  size_t l = strlen(r->extra);
  snprintf(r->extra + l, sizeof r->extra - l, ", \"setup_s\": %.6g, \"levels\": %d, \"operator_complexity\": %.4f, "
           "\"grid_complexity\": %.4f", w->setup, w->levels, w->opc, w->gridc);
  json_array(r->extra, sizeof r->extra, "level_rows", w->rows, w->levels);
  json_array(r->extra, sizeof r->extra, "level_nnz", w->nnz, w->levels);
  json_array(r->extra, sizeof r->extra, "level_p_nnz", w->p_nnz, w->levels > 0 ? w->levels - 1 : 0);
}

typedef bench_system_t amg_input_t;

static bench_result_t *new_record(const amg_input_t *in, int bi, const char *algo) {
  bench_result_t *r = bench_record_add("amg", bench_cfg.be[bi], in->name, algo);
  r->rows = r->cols = in->Ah->num_rows, r->nnz = in->Ah->nnz;
  bench_progress("amg", in->name, r->backend, algo);
  return r;
}

/* the solve record after a solve from x = 0 into in->x: checked (the true residual), its status and
 * message set; 1 when its time may count */
static int check_solve(const amg_input_t *in, bench_result_t *r, int converged, int iters, double own_res, const char *who) {
  const double tr = bench_true_residual(in->Ah, in->b, in->x, in->w);
  if (converged && tr <= AMG_TOL) return 1;
  r->ok = in->given && !converged ? -2 : 0; /* not converged on a --matrix input: a fact of the input */
  snprintf(r->msg, sizeof r->msg, "%s%s: %d iterations, its residual %.3g, ||b - A x|| / ||b|| = %.3g (serial SpMV) > %g%s",
           r->ok ? "not converged: " : "", who, iters, own_res, tr, AMG_TOL, r->ok ? "" : ": time not counted");
  return 0;
}

/* one strata configuration on backend bi. Returns 1 when the setup refused a --matrix input's
 * values (INVALID_DATA): skipped, said why, and so is hypre's twin */
static int strata_config(const amg_input_t *in, int bi, const strata_operator_t *op, const double *db, double *dx,
                         const amg_config_t *c, const strata_amg_options_t *o, const char *key) {
  const int32_t n = in->Ah->num_rows;
  strata_exec_t *e = bench_cfg.ex[bi];
  char al[40];
  snprintf(al, sizeof al, "%s:setup", c->name);
  bench_result_t *rs = new_record(in, bi, al);
  const int srec = (int)(rs - bench_rec);
  int refused = 0;
  strata_precond_t *P = NULL;
  strata_amg_info_t info;
  memset(&info, 0, sizeof info);
  strata_krylov_result_t res;
  memset(&res, 0, sizeof res);
  double times[1];
  if (strata_precond_create_amg(e, o, &P)) goto error;
  double t0 = strata_timer_now();
  strata_status_t st = strata_precond_setup(e, P, op);
  const double setup = strata_timer_now() - t0;
  if (st == STRATA_ERR_INVALID_DATA && in->given) {
    rs->ok = -2, refused = 1;
    snprintf(rs->msg, sizeof rs->msg, "the input refused: %s", strata_error_message());
    goto done;
  }
  if (st || strata_precond_amg_info(P, &info)) goto error;
  amg_row_t *w = row_add();
  w->setup_rec = srec, w->setup = setup, w->levels = info.num_levels, w->opc = info.operator_complexity;
  w->gridc = info.grid_complexity;
  snprintf(w->key, sizeof w->key, "%s", key);
  const double ph[NUM_PHASES] = {info.strength_s, info.coarsen_s, info.interp_s, info.rap_s, info.smoother_s, info.coarse_solve_s};
  memcpy(w->phases, ph, sizeof ph);
  for (int l = 0; l < info.num_levels && l < BENCH_HYPRE_AMG_LEVELS; ++l)
    w->rows[l] = info.level[l].rows, w->nnz[l] = info.level[l].nnz, w->p_nnz[l] = info.level[l].p_nnz;
  times[0] = setup;
  bench_stats_from_samples(times, 1, 1, &rs->t);
  rs->ok = 1;
  snprintf(rs->msg, sizeof rs->msg, "%s: %d levels, operator complexity %.3f, grid %.3f", strata_precond_name(P),
           info.num_levels, info.operator_complexity, info.grid_complexity);
  size_t l = (size_t)snprintf(rs->extra, sizeof rs->extra, ", \"precond\": \"%s\", \"options\": \"%s\"", strata_precond_name(P), c->opts);
  for (int q = 0; q < NUM_PHASES; ++q)
    l += (size_t)snprintf(rs->extra + l, sizeof rs->extra - l, ", \"%s_s\": %.6g", phase_names[q], ph[q]);
  hierarchy_json(rs, w);
  rs = NULL; /* bench_record_add below may move the records */
  /* the solve: a checked warm-up, then the timed runs */
  bench_result_t *r = new_record(in, bi, c->name);
  const int rrec = (int)(r - bench_rec);
  strata_krylov_options_t ko;
  strata_krylov_options_default(&ko);
  ko.method = STRATA_KRYLOV_CG, ko.tol = AMG_TOL, ko.max_iter = AMG_MAX_ITER;
  st = strata_krylov_solve(e, op, P, db, dx, &ko, &res);
  if (st && st != STRATA_ERR_NOT_CONVERGED) goto solve_error;
  if (n && strata_mem_copy(e, in->x, dx, (size_t)n * sizeof(double))) goto solve_error;
  const int iters = res.iterations;
  if (!check_solve(in, r, !st, iters, res.rel_residual, strata_solve_status_name(res.status))) goto done;
  if (bench_krylov_timed(e, op, P, db, dx, &ko, &res, &r->t)) goto solve_error;
  r->ok = 1;
  w = &rows[nrows - 1];
  w->solve_rec = rrec, w->iterations = iters;
  const double tr = bench_true_residual(in->Ah, in->b, in->x, in->w);
  snprintf(r->msg, sizeof r->msg, "CG + %s: %d iterations, true residual %.3g", strata_precond_name(P), iters, tr);
  snprintf(r->extra, sizeof r->extra, ", \"iterations\": %d, \"true_residual\": %.6g, \"time_per_iteration_s\": %.6g, "
           "\"setup_s\": %.6g, \"operator_complexity\": %.4f", iters, tr, iters ? r->t.median / iters : 0.0, setup,
           info.operator_complexity);
  goto done;
solve_error:
  r->ok = -1;
  snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  goto done;
error:
  rs->ok = -1;
  snprintf(rs->msg, sizeof rs->msg, "%s", strata_error_message());
done:
  strata_krylov_result_free(&res);
  strata_precond_destroy(&P);
  return refused;
}

/* the hypre twin of a configuration on host backend bi */
static void hypre_config(const amg_input_t *in, int bi, bench_hypre_t *h, const char *herr, const amg_config_t *c,
                         const strata_amg_options_t *o, const char *key, int refused) {
  char al[40];
  snprintf(al, sizeof al, "hypre_%s:setup", c->name);
  bench_result_t *rs = new_record(in, bi, al);
  const int srec = (int)(rs - bench_rec);
  bench_hypre_amg_t a;
  char why[200] = "";
  if (!h || refused || hypre_params(o, &a, why, sizeof why)) {
    rs->ok = -2;
    if (!h && !refused) rs->ok = -1;
    snprintf(rs->msg, sizeof rs->msg, "%s", refused ? "the input refused by strata's twin configuration (its message)"
                                            : !h ? herr : why);
    return;
  }
  bench_hypre_config_t hc = {BENCH_HYPRE_PCG, BENCH_HYPRE_AMG, 0, 30, AMG_TOL, AMG_MAX_ITER,
                             bench_cfg.be[bi] == STRATA_BACKEND_SERIAL ? 1 : 0, &a};
  bench_hypre_solver_t *s = NULL;
  bench_hypre_amg_info_t hi;
  double setup = 0, times[1], hres = 0, t = 0;
  int iters = 0;
  if (bench_hypre_solver_create(h, &hc, &s, &setup, rs->msg, sizeof rs->msg) ||
      bench_hypre_amg_info(s, &hi, rs->msg, sizeof rs->msg)) {
    bench_hypre_solver_destroy(&s);
    return;
  }
  amg_row_t *w = row_add();
  w->peer = 1, w->setup_rec = srec, w->setup = setup, w->levels = hi.num_levels, w->opc = hi.operator_complexity;
  w->gridc = hi.grid_complexity;
  snprintf(w->key, sizeof w->key, "%s", key);
  memcpy(w->rows, hi.rows, sizeof w->rows), memcpy(w->nnz, hi.nnz, sizeof w->nnz), memcpy(w->p_nnz, hi.p_nnz, sizeof w->p_nnz);
  times[0] = setup;
  bench_stats_from_samples(times, 1, 1, &rs->t);
  rs->ok = 1;
  snprintf(rs->msg, sizeof rs->msg, "BoomerAMG coarsen %d, interp %d, relax %d/%d/%d (weight %g), %d+%d sweeps: %d levels, "
           "operator complexity %.3f, grid %.3f", a.coarsen_type, a.interp_type, a.relax_down, a.relax_up, hi.coarse_relax,
           a.relax_weight, a.pre_sweeps, a.post_sweeps, hi.num_levels, hi.operator_complexity, hi.grid_complexity);
  snprintf(rs->extra, sizeof rs->extra, ", \"hypre_coarsen_type\": %d, \"hypre_interp_type\": %d, \"hypre_relax_type\": [%d, %d, %d], "
           "\"hypre_relax_weight\": %g", a.coarsen_type, a.interp_type, a.relax_down, a.relax_up, hi.coarse_relax, a.relax_weight);
  hierarchy_json(rs, w);
  snprintf(al, sizeof al, "hypre_%s", c->name);
  bench_result_t *r = new_record(in, bi, al); /* rs may move */
  const int rrec = (int)(r - bench_rec);
  if (bench_hypre_solve(s, in->b, in->x, &iters, &hres, &t, r->msg, sizeof r->msg)) goto done;
  if (!check_solve(in, r, hres <= AMG_TOL, iters, hres, "hypre")) goto done;
  if (bench_hypre_timed(s, in, t, &r->t, r->msg, sizeof r->msg)) goto done;
  r->ok = 1;
  w = &rows[nrows - 1];
  w->solve_rec = rrec, w->iterations = iters;
  const double tr = bench_true_residual(in->Ah, in->b, in->x, in->w);
  snprintf(r->msg, sizeof r->msg, "hypre PCG + BoomerAMG: %d iterations, true residual %.3g", iters, tr);
  snprintf(r->extra, sizeof r->extra, ", \"iterations\": %d, \"true_residual\": %.6g, \"time_per_iteration_s\": %.6g, "
           "\"setup_s\": %.6g, \"operator_complexity\": %.4f", iters, tr, iters ? r->t.median / iters : 0.0, setup,
           hi.operator_complexity);
done:
  bench_hypre_solver_destroy(&s);
}

/* ratio_to_peer of strata's setup and solve records among [first, bench_nrec) (one configuration on one
 * backend, both libraries): hypre's time over strata's */
static void peer_ratios(int first, const amg_config_t *c) {
  for (int k = 0; k < 2; ++k) {
    char a[40], h[40];
    snprintf(a, sizeof a, "%s%s", c->name, k ? ":setup" : "");
    snprintf(h, sizeof h, "hypre_%s%s", c->name, k ? ":setup" : "");
    int i = -1, j = -1;
    for (int q = first; q < bench_nrec; ++q) {
      if (!strcmp(bench_rec[q].algo, a)) i = q;
      if (!strcmp(bench_rec[q].algo, h)) j = q;
    }
    if (i >= 0 && j >= 0 && bench_rec[i].ok == 1 && bench_rec[j].ok == 1)
      bench_rec[i].ratio_peer = bench_rec[j].t.median / bench_rec[i].t.median;
  }
}

/* every configuration on every backend for one matrix (host memory; ctx non-NULL: a --matrix input) */
static void amg_matrix(const strata_crs_matrix_t *Ah, const char *name, void *ctx) {
  amg_input_t in;
  if (bench_system_create("amg", Ah, name, ctx != NULL, &in)) return;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    bench_system_exec_t d;
    if (bench_system_exec_create("amg", &in, bi, &d)) continue;
    for (int c = 0; c < NUM_CONFIGS; ++c) {
      if (bench_cfg.quick && !configs[c].quick) continue;
      strata_amg_options_t o;
      char key[96];
      if (strata_amg_options_parse(configs[c].opts, &o)) { /* the table's own text: a bug, said */
        bench_result_t *r = new_record(&in, bi, configs[c].name);
        snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
        bench_record_emit(r);
        continue;
      }
      snprintf(key, sizeof key, "c%d i%d t%g l%d n%d tr%g p%d", (int)o.coarsen, (int)o.interp, o.theta, o.max_levels,
               (int)o.coarse_size, o.trunc_factor, o.max_elements);
      /* the records of both libraries, emitted once strata's carry the ratios to hypre's */
      const int first = bench_nrec;
      const int refused = strata_config(&in, bi, d.op, d.b, d.x, &configs[c], &o, key);
      if (strata_exec_is_host(bench_cfg.ex[bi]) && bench_hypre_available()) {
        hypre_config(&in, bi, in.h, in.herr, &configs[c], &o, key, refused);
        peer_ratios(first, &configs[c]);
      }
      for (int q = first; q < bench_nrec; ++q) bench_record_emit(&bench_rec[q]);
    }
    bench_system_exec_destroy(bi, &d);
  }
  bench_system_destroy(&in);
}

/* the default inputs (3D Poisson 50³ and the 2D Laplacian 1000²; 10³ and 40² with --quick);
 * --matrix replaces them */
static void amg_suite_run(const bench_inputs_t *inp) {
  bench_list_t specs = {0};
  bench_list_push(&specs, bench_cfg.quick ? "gen:laplace7:10" : "gen:laplace7:50");
  bench_list_push(&specs, bench_cfg.quick ? "gen:conduct5:40" : "gen:conduct5:1000");
  int given = inp->given;
  bench_each_input("amg", inp->given ? inp->specs : &specs, amg_matrix, inp->given ? &given : NULL);
  bench_list_free(&specs);
}

static int amg_estimate(const bench_inputs_t *in) {
  int cfg = 0, host = 0;
  for (int c = 0; c < NUM_CONFIGS; ++c) cfg += !bench_cfg.quick || configs[c].quick;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) host += strata_exec_is_host(bench_cfg.ex[bi]);
  const int mats = in->given ? in->matrices : 2;
  return mats * 2 * cfg * (bench_cfg.nb + (bench_hypre_available() ? host : 0));
}

/* hypre's row of strata's row w (same matrix, backend and configuration), or NULL */
static const amg_row_t *twin(const amg_row_t *w) {
  const bench_result_t *r = &bench_rec[w->setup_rec];
  for (int j = 0; j < nrows; ++j) {
    const bench_result_t *q = &bench_rec[rows[j].setup_rec];
    if (rows[j].peer && !strcmp(q->name, r->name) && !strcmp(q->backend, r->backend) && !strcmp(q->algo + 6, r->algo))
      return &rows[j];
  }
  return NULL;
}

static void fmt_ms(char *out, size_t n, const amg_row_t *w, int solve) {
  if (!w || (solve && w->solve_rec < 0)) snprintf(out, n, "-");
  else snprintf(out, n, "%.4g", 1e3 * (solve ? bench_rec[w->solve_rec].t.median : w->setup));
}

/* The suite's tables: strata beside BoomerAMG per configuration; strata's setup phases; the levels
 * of each distinct hierarchy (first backend of each matrix) for both. */
static void amg_summary(FILE *f) {
  if (!nrows) return;
  fprintf(f, "== amg: CG + AMG (b = 1, x0 = 0, tol %g): iterations, levels, operator / grid complexity, setup and solve "
             "(ms) of strata | BoomerAMG with the same configuration (same run); t/hypre = strata's time over hypre's\n", AMG_TOL);
  fprintf(f, "%-7s %-18s %-19s %5s %5s %3s %3s %6s %6s %5s %5s %9s %9s %9s %9s %7s %7s\n", "backend", "name", "config", "it",
          "it_h", "lv", "lv_h", "opc", "opc_h", "grid", "grd_h", "setup", "setup_h", "solve", "solve_h", "set/h", "sol/h");
  for (int i = 0; i < nrows; ++i) {
    const amg_row_t *w = &rows[i], *hp = w->peer ? NULL : twin(w);
    if (w->peer) continue;
    const bench_result_t *r = &bench_rec[w->setup_rec];
    char it[12] = "-", ith[12] = "-", lvh[8] = "-", oh[12] = "-", gh[12] = "-", c[4][16], q1[16] = "-", q2[16] = "-";
    if (w->solve_rec >= 0) snprintf(it, sizeof it, "%d", w->iterations);
    if (hp) {
      if (hp->solve_rec >= 0) snprintf(ith, sizeof ith, "%d", hp->iterations);
      snprintf(lvh, sizeof lvh, "%d", hp->levels);
      snprintf(oh, sizeof oh, "%.3f", hp->opc);
      snprintf(gh, sizeof gh, "%.3f", hp->gridc);
      snprintf(q1, sizeof q1, "%.3f", w->setup / hp->setup);
      if (w->solve_rec >= 0 && hp->solve_rec >= 0)
        snprintf(q2, sizeof q2, "%.3f", bench_rec[w->solve_rec].t.median / bench_rec[hp->solve_rec].t.median);
    }
    fmt_ms(c[0], 16, w, 0), fmt_ms(c[1], 16, hp, 0), fmt_ms(c[2], 16, w, 1), fmt_ms(c[3], 16, hp, 1);
    char cfg[32];
    snprintf(cfg, sizeof cfg, "%.*s", (int)(strlen(r->algo) - 6), r->algo); /* without ":setup" */
    fprintf(f, "%-7s %-18.18s %-19s %5s %5s %3d %3s %6.3f %6s %5.3f %5s %9s %9s %9s %9s %7s %7s\n", r->backend, r->name,
            cfg, it, ith, w->levels, lvh, w->opc, oh, w->gridc, gh, c[0], c[1], c[2], c[3], q1, q2);
  }
  fprintf(f, "== amg setup phases (strata, ms): strength, coarsening, interpolation, RAP (Galerkin product and R = P^T), "
             "smoothers, coarsest solve; total\n%-7s %-18s %-19s %9s %9s %9s %9s %9s %9s %9s\n", "backend", "name", "config",
          "strength", "coarsen", "interp", "rap", "smoother", "coarse", "total");
  for (int i = 0; i < nrows; ++i) {
    const amg_row_t *w = &rows[i];
    if (w->peer) continue;
    const bench_result_t *r = &bench_rec[w->setup_rec];
    fprintf(f, "%-7s %-18.18s %-19.*s", r->backend, r->name, (int)(strlen(r->algo) - 6), r->algo);
    for (int q = 0; q < NUM_PHASES; ++q) fprintf(f, " %9.4g", 1e3 * w->phases[q]);
    fprintf(f, " %9.4g\n", 1e3 * w->setup);
  }
  /* the levels of each hierarchy once: strata's rows, nnz, nnz per row, P's entries per row; hypre's */
  for (int i = 0; i < nrows; ++i) {
    const amg_row_t *w = &rows[i], *hp = w->peer ? NULL : twin(w);
    if (w->peer) continue;
    const bench_result_t *r = &bench_rec[w->setup_rec];
    int seen = 0;
    for (int j = 0; j < i && !seen; ++j) {
      const bench_result_t *q = &bench_rec[rows[j].setup_rec];
      seen = !rows[j].peer && !strcmp(q->name, r->name) && (strcmp(q->backend, r->backend) || !strcmp(rows[j].key, w->key));
    }
    if (seen) continue;
    fprintf(f, "== amg levels: %s, %s (%s) — strata | BoomerAMG: rows, nnz, nnz/row, P entries/row\n", r->name,
            r->algo, r->backend);
    fprintf(f, "%3s %10s %11s %7s %6s | %10s %11s %7s %6s\n", "lvl", "rows", "nnz", "nnz/row", "P/row", "rows_h", "nnz_h",
            "nnz/r_h", "P/r_h");
    const int L = hp && hp->levels > w->levels ? hp->levels : w->levels;
    for (int l = 0; l < L; ++l) {
      char a[4][24], bb[4][24];
      const amg_row_t *src[2] = {w, hp};
      for (int k = 0; k < 2; ++k) {
        char(*o)[24] = k ? bb : a;
        const amg_row_t *s = src[k];
        if (!s || l >= s->levels) {
          for (int m = 0; m < 4; ++m) snprintf(o[m], 24, "-");
          continue;
        }
        snprintf(o[0], 24, "%lld", (long long)s->rows[l]);
        snprintf(o[1], 24, "%lld", (long long)s->nnz[l]);
        snprintf(o[2], 24, "%.1f", s->rows[l] ? (double)s->nnz[l] / (double)s->rows[l] : 0.0);
        if (l + 1 < s->levels && s->rows[l]) snprintf(o[3], 24, "%.2f", (double)s->p_nnz[l] / (double)s->rows[l]);
        else snprintf(o[3], 24, "-");
      }
      fprintf(f, "%3d %10s %11s %7s %6s | %10s %11s %7s %6s\n", l, a[0], a[1], a[2], a[3], bb[0], bb[1], bb[2], bb[3]);
    }
  }
  free(rows);
  rows = NULL, nrows = rows_cap = 0;
}

const bench_suite_t bench_suite_amg = {
    .name = "amg",
    .help = "CG + classical AMG: setup phases, hierarchy, iterations, solve per configuration; BoomerAMG (hypre)",
    .options = BENCH_OPT_MATRIX,
    .run = amg_suite_run,
    .estimate = amg_estimate,
    .box_edge = NULL,
    .summary = amg_summary,
};
