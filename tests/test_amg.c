/* strata tests — classical AMG (strata/amg.h): options (defaults, every name, bad values named
 * with their limits), EDGE_CASES S17 (A = I and a diagonal: one level, one iteration) and S19 (the
 * smallest systems), the 1D Laplacian's two-level hierarchy, AMG-PCG on 2D / 3D Poisson within a
 * measured iteration bound, every coarsening × interpolation × several smoothers and the three
 * cycles converging, the backend under test against serial (same levels, rows and entries;
 * iterations ±1), n = 0, and setup errors. */
#include "test_common.h"

#include "strata/solvers.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"

/* ------------------------------------------------------------------ helpers */

typedef struct {
  strata_status_t st;
  int iterations;
  double rel;
  strata_amg_info_t info;
  double x0; /* x[0] on the host */
} run_t;

/* AMG-preconditioned CG on A (host) with b = A·1 (or the given b), on exec. */
static run_t amg_cg(strata_exec_t *e, const host_crs_t *h, const strata_amg_options_t *ao, const double *bh,
                    double tol, int max_iter, double *xh_out) {
  run_t r;
  memset(&r, 0, sizeof r);
  const int32_t n = h->nr;
  double *b = (double *)t_malloc(sizeof(double) * (size_t)(n + 1));
  for (int32_t i = 0; i < n; ++i) {
    if (bh) {
      b[i] = bh[i];
      continue;
    }
    double s = 0;
    for (int64_t k = h->ro[i]; k < h->ro[i + 1]; ++k) s += h->v[k];
    b[i] = s;
  }
  strata_crs_matrix_t *A = hc_on(e, h);
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(e, A, NULL, &op));
  T_OK(strata_precond_create_amg(e, ao, &P));
  T_OK(strata_precond_setup(e, P, op));
  T_OK(strata_precond_amg_info(P, &r.info));
  double *db = NULL, *dx = NULL;
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)(n + 1), (void **)&db));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)(n + 1), (void **)&dx));
  T_OK(strata_mem_copy(e, db, b, sizeof(double) * (size_t)n));
  strata_krylov_options_t o;
  strata_krylov_options_default(&o);
  o.tol = tol;
  o.max_iter = max_iter;
  strata_krylov_result_t res;
  r.st = strata_krylov_solve(e, op, P, db, dx, &o, &res);
  r.iterations = res.iterations;
  r.rel = res.rel_residual;
  double *x = (double *)t_malloc(sizeof(double) * (size_t)(n + 1));
  T_OK(strata_mem_copy(e, x, dx, sizeof(double) * (size_t)n));
  r.x0 = n > 0 ? x[0] : 0;
  if (xh_out) memcpy(xh_out, x, sizeof(double) * (size_t)n);
  free(x);
  free(b);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&db);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dx);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  return r;
}


/* AMG as a solver: Richardson x += M⁻¹ (b − A x) from x = 0, b = A·1; returns the cycles taken to
 * reach ||b − A x|| <= tol ||b|| (max_it + 1 if not), x on the host. */
static int amg_richardson(strata_exec_t *e, const host_crs_t *h, const strata_amg_options_t *ao, double tol,
                          int max_it, strata_amg_info_t *info) {
  const int32_t n = h->nr;
  strata_crs_matrix_t *A = hc_on(e, h);
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(e, A, NULL, &op));
  T_OK(strata_precond_create_amg(e, ao, &P));
  T_OK(strata_precond_setup(e, P, op));
  if (info) T_OK(strata_precond_amg_info(P, info));
  double *b = NULL, *x = NULL, *r = NULL, *z = NULL, *one = NULL;
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, (void **)&b));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, (void **)&x));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, (void **)&r));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, (void **)&z));
  T_OK(strata_mem_alloc(e, STRATA_MEM_DEVICE, sizeof(double) * (size_t)n, (void **)&one));
  T_OK(strata_vec_fill(e, n, 1.0, one));
  T_OK(strata_crs_spmv(e, 1.0, A, one, 0.0, b));
  T_OK(strata_vec_fill(e, n, 0.0, x));
  double nb = 0, nr = 0;
  T_OK(strata_vec_nrm2(e, n, b, &nb));
  int it = 0;
  for (; it <= max_it; ++it) {
    T_OK(strata_vec_copy(e, n, b, r));
    T_OK(strata_crs_spmv(e, -1.0, A, x, 1.0, r));
    T_OK(strata_vec_nrm2(e, n, r, &nr));
    if (nr <= tol * nb) break;
    if (it == max_it) {
      ++it;
      break;
    }
    T_OK(strata_precond_apply(e, P, r, z));
    T_OK(strata_vec_axpy(e, n, 1.0, z, x));
  }
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&b);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&x);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&r);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&z);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&one);
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  return it;
}

static host_crs_t lap1d(int32_t n) { return hc_poisson(n, 1, 1); }


/* ------------------------------------------------------------------ options */

static void test_amg_options(void **state) {
  (void)state;
  strata_amg_options_t o;
  strata_amg_options_default(&o);
  assert_int_equal(o.coarsen, STRATA_AMG_HMIS);
  assert_int_equal(o.interp, STRATA_AMG_EXT_I);
  assert_int_equal(o.smoother, STRATA_SMOOTH_L1_JACOBI);
  assert_int_equal(o.pre_sweeps, 1);
  assert_int_equal(o.post_sweeps, 1);
  assert_true(o.theta == 0.25 && o.max_row_sum == 0.9 && o.max_levels == 25 && o.coarse_size == 64);
  assert_true(o.trunc_factor == 0 && o.max_elements == 4 && o.omega == 2.0 / 3.0 && o.cheby_degree == 2);
  assert_int_equal(o.cycle, STRATA_CYCLE_V);
  assert_int_equal(o.seed, 1);

  T_OK(strata_amg_options_parse("coarsen=pmis,interp=ext+i,smoother=l1-jacobi,sweeps=2,theta=0.5,levels=4,cycle=w", &o));
  assert_int_equal(o.coarsen, STRATA_AMG_PMIS);
  assert_int_equal(o.interp, STRATA_AMG_EXT_I);
  assert_int_equal(o.smoother, STRATA_SMOOTH_L1_JACOBI);
  assert_true(o.pre_sweeps == 2 && o.post_sweeps == 2 && o.theta == 0.5 && o.max_levels == 4);
  assert_int_equal(o.cycle, STRATA_CYCLE_W);
  T_OK(strata_amg_options_parse("pre=3,post=0,max_row_sum=1,coarse=10,trunc=0.2,pmax=4,omega=0.8,degree=3,seed=7,"
                                "cycle=F,coarsen=hmis,interp=direct,smoother=cheby", &o));
  assert_true(o.pre_sweeps == 3 && o.post_sweeps == 0 && o.max_row_sum == 1.0 && o.coarse_size == 10);
  assert_true(o.trunc_factor == 0.2 && o.max_elements == 4 && o.omega == 0.8 && o.cheby_degree == 3 && o.seed == 7);
  assert_true(o.cycle == STRATA_CYCLE_F && o.coarsen == STRATA_AMG_HMIS && o.interp == STRATA_AMG_DIRECT &&
              o.smoother == STRATA_SMOOTH_CHEBYSHEV);
  const char *names[][2] = {{"coarsen=rs", "rs"},     {"coarsen=cljp", "cljp"}, {"smoother=jacobi", "jacobi"},
                            {"smoother=wjacobi", ""}, {"smoother=hgs", ""},     {"smoother=mcgs", ""},
                            {"smoother=sgs", ""},     {"interp=standard", ""},  {"cycle=v", ""},
                            {"", ""}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) T_OK(strata_amg_options_parse(names[i][0], &o));
  T_OK(strata_amg_options_parse("", &o));
  assert_int_equal(o.coarsen, STRATA_AMG_HMIS); /* defaults first */

  /* bad names and values, named with their limits; opts untouched */
  const char *bad[][3] = {{"foo=1", "unknown name 'foo'", "coarsen="},
                          {"theta=1.5", "theta = '1.5'", "(0, 1)"},
                          {"theta=0", "theta", "(0, 1)"},
                          {"theta=abc", "theta = 'abc'", "(0, 1)"},
                          {"levels=0", "levels = '0'", "[1, 32]"},
                          {"levels=33", "levels", "[1, 32]"},
                          {"sweeps=-1", "sweeps = '-1'", ">= 0"},
                          {"pre=1.5", "pre", ">= 0"},
                          {"coarsen=xyz", "coarsen = 'xyz'", "pmis"},
                          {"interp=ext", "interp = 'ext'", "ext+i"},
                          {"smoother=gs", "smoother = 'gs'", "hgs"},
                          {"cycle=q", "cycle = 'q'", "v, w or f"},
                          {"omega=2", "omega", "(0, 2)"},
                          {"trunc=1", "trunc", "[0, 1)"},
                          {"max_row_sum=0", "max_row_sum", "(0, 1]"},
                          {"coarse=0", "coarse", ">= 1"},
                          {"degree=0", "degree", ">= 1"},
                          {"seed=-3", "seed", ">= 0"},
                          {"theta", "not NAME=VALUE", NULL},
                          {"theta=0.3,", "nothing after the last ','", NULL}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    strata_amg_options_default(&o);
    o.theta = 0.125;
    t_expect_msg(strata_amg_options_parse(bad[i][0], &o), STRATA_ERR_INVALID_ARGUMENT, bad[i][1], bad[i][2]);
    assert_true(o.theta == 0.125);
  }
  /* the struct's fields checked at creation */
  strata_precond_t *P = NULL;
  strata_amg_options_default(&o);
  o.theta = 1.0;
  t_expect_msg(strata_precond_create_amg(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "theta = 1", "(0, 1)");
  assert_null(P);
  strata_amg_options_default(&o);
  o.max_levels = 0;
  t_expect_msg(strata_precond_create_amg(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "max_levels = 0", "[1, 32]");
  strata_amg_options_default(&o);
  o.post_sweeps = -2;
  t_expect_msg(strata_precond_create_amg(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "post_sweeps = -2", ">= 0");
  strata_amg_options_default(&o);
  o.coarsen = (strata_amg_coarsen_t)9;
  t_expect_msg(strata_precond_create_amg(T_exec, &o, &P), STRATA_ERR_INVALID_ARGUMENT, "coarsen = 9", "0 .. 3");
  /* through the preconditioner's name */
  T_OK(strata_precond_create_from_name(T_exec, "amg", &P));
  assert_string_equal(strata_precond_name(P), "amg(hmis, ext+i, l1-jacobi, 1+1, V)");
  strata_precond_destroy(&P);
  T_OK(strata_precond_create_from_name(T_exec, "amg:coarsen=pmis,interp=ext+i,smoother=l1-jacobi,cycle=w", &P));
  assert_string_equal(strata_precond_name(P), "amg(pmis, ext+i, l1-jacobi, 1+1, W)");
  strata_precond_destroy(&P);
  t_expect_msg(strata_precond_create_from_name(T_exec, "amg:theta=2", &P), STRATA_ERR_INVALID_ARGUMENT, "theta", "(0, 1)");
  t_expect_msg(strata_precond_create_from_name(T_exec, "amg:", &P), STRATA_ERR_INVALID_ARGUMENT, "amg:", NULL);
  t_expect_msg(strata_precond_create_from_name(T_exec, "amgx", &P), STRATA_ERR_INVALID_ARGUMENT, "amgx", "amg[:OPTS]");
}

/* ------------------------------------------------------------------ EDGE_CASES S17, S19 */

static void test_amg_s17_diagonal(void **state) {
  (void)state;
  for (int kind = 0; kind < 2; ++kind) {
    host_crs_t h = hc_new(10, 10, 10);
    for (int32_t i = 0; i < 10; ++i) {
      hc_push(&h, i, kind == 0 ? 1.0 : (double)(i + 1));
      h.ro[i + 1] = h.nnz;
    }
    for (int coarse = 1; coarse <= 64; coarse += 63) { /* coarse = 1 asks for coarsening: none is possible */
      strata_amg_options_t o;
      strata_amg_options_default(&o);
      o.coarse_size = coarse;
      double x[10];
      run_t r = amg_cg(T_exec, &h, &o, NULL, 1e-12, 10, x);
      T_OK(r.st);
      assert_int_equal(r.info.num_levels, 1);
      assert_int_equal(r.info.level[0].rows, 10);
      assert_int_equal(r.info.level[0].nnz, 10);
      assert_int_equal(r.info.level[0].p_nnz, 0);
      assert_true(r.info.operator_complexity == 1.0 && r.info.grid_complexity == 1.0);
      assert_int_equal(r.iterations, 1);
      for (int i = 0; i < 10; ++i) assert_true(fabs(x[i] - 1.0) < 1e-14);
      assert_int_equal(amg_richardson(T_exec, &h, &o, 1e-14, 5, NULL), 1); /* AMG as a solver: one cycle */
    }
    host_crs_free(&h);
  }
}

static void test_amg_s19_small(void **state) {
  (void)state;
  for (int32_t n = 1; n <= 3; ++n) {
    host_crs_t h = hc_lap1d(n);
    for (int coarse = 1; coarse <= 64; coarse += 63) {
      strata_amg_options_t o;
      strata_amg_options_default(&o);
      o.coarse_size = coarse;
      double x[3];
      run_t r = amg_cg(T_exec, &h, &o, NULL, 1e-12, 20, x);
      T_OK(r.st);
      assert_true(r.iterations <= 2);
      for (int32_t i = 0; i < n; ++i) assert_true(fabs(x[i] - 1.0) < 1e-12);
      assert_true(r.info.num_levels >= 1 && r.info.level[0].rows == n);
      if (coarse == 64) assert_int_equal(r.iterations, 1);
    }
    host_crs_free(&h);
  }
  host_crs_t h = hc_new(1, 1, 1);
  hc_push(&h, 0, 2.0);
  h.ro[1] = 1;
  const double b[1] = {2.0};
  double x[1];
  run_t r = amg_cg(T_exec, &h, NULL, b, 1e-12, 5, x);
  T_OK(r.st);
  assert_true(x[0] == 1.0);
  assert_int_equal(r.iterations, 1);
  host_crs_free(&h);
}

/* The 1D Laplacian tridiag(-1, 2, -1), n = 7, two levels: RS picks every other point (3 or 4 C
 * points); with C = {1, 3, 5} the F points interpolate 1/2 from each C neighbour, and PᵀAP is
 * tridiag(-1/2, 1, -1/2) (3 rows, 7 entries; P has 3 + 2·2 + 2 = 9 entries... counted below). */
static void test_amg_lap1d_two_level(void **state) {
  (void)state;
  host_crs_t h = hc_lap1d(7);
  strata_amg_options_t o;
  strata_amg_options_default(&o);
  o.coarse_size = 4;
  o.max_levels = 2;
  double x[7];
  run_t r = amg_cg(T_exec, &h, &o, NULL, 1e-12, 20, x);
  T_OK(r.st);
  assert_int_equal(r.info.num_levels, 2);
  assert_int_equal(r.info.level[0].rows, 7);
  assert_int_equal(r.info.level[0].nnz, 19);
  const int32_t nc = r.info.level[1].rows;
  if (nc == 3) {
    /* C = {1, 3, 5}: P has the 3 identity rows and 1 + 2 + 2 + 1 entries for F rows 0, 2, 4, 6 */
    assert_int_equal(r.info.level[0].p_nnz, 9);
    assert_int_equal(r.info.level[1].nnz, 7);
  } else {
    /* C = {0, 2, 4, 6}: each F row interpolates from its two neighbours: 4 + 3·2 entries; PᵀAP is
     * tridiagonal (4 rows, 10 entries) */
    assert_int_equal(nc, 4);
    assert_int_equal(r.info.level[0].p_nnz, 10);
    assert_int_equal(r.info.level[1].nnz, 10);
  }
  assert_true(r.iterations <= 4);
  for (int i = 0; i < 7; ++i) assert_true(fabs(x[i] - 1.0) < 1e-10);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ Poisson */

/* The defaults (HMIS, ext+i, P_max 4, l1-Jacobi), measured on serial and openmp: 2D 64², 11
 * iterations to 1e-8, operator complexity 2.46; 3D 30³, 12 iterations, 2.86. The bounds leave some
 * room (RS + standard without truncation, the defaults before: 8 iterations, complexity 11.0 in 3D). */
static void test_amg_poisson(void **state) {
  (void)state;
  struct {
    int32_t nx, ny, nz;
    int bound;
  } cases[] = {{64, 64, 1, 14}, {30, 30, 30, 15}};
  for (int c = 0; c < 2; ++c) {
    host_crs_t h = hc_poisson(cases[c].nx, cases[c].ny, cases[c].nz);
    strata_amg_options_t o;
    strata_amg_options_default(&o);
    run_t r = amg_cg(T_exec, &h, &o, NULL, 1e-8, 200, NULL);
    T_OK(r.st);
    print_message("poisson %dx%dx%d: %d levels, oc %.3f, gc %.3f, %d iterations (rel %.2e)\n", cases[c].nx,
                  cases[c].ny, cases[c].nz, r.info.num_levels, r.info.operator_complexity, r.info.grid_complexity,
                  r.iterations, r.rel);
    assert_true(r.info.num_levels >= 3);
    assert_true(r.info.level[r.info.num_levels - 1].rows <= 64);
    assert_true(r.info.operator_complexity > 1.0 && r.info.operator_complexity < 3.5);
    assert_true(r.iterations <= cases[c].bound);
    assert_true(r.rel <= 1e-8);
    host_crs_free(&h);
  }
}

/* Every coarsening × interpolation × a few smoothers, and the three cycles, on 2D Poisson 24²: AMG-PCG
 * converges within 40 iterations, levels and sizes the same on the backend as on serial. */
static void test_amg_combinations(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(24, 24, 1);
  const strata_amg_smoother_t sms[] = {STRATA_SMOOTH_HYBRID_GS, STRATA_SMOOTH_L1_JACOBI, STRATA_SMOOTH_CHEBYSHEV,
                                       STRATA_SMOOTH_SYMMETRIC_GS, STRATA_SMOOTH_JACOBI};
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 3; ++i)
      for (int s = 0; s < 5; ++s) {
        strata_amg_options_t o;
        strata_amg_options_default(&o);
        o.coarsen = (strata_amg_coarsen_t)c;
        o.interp = (strata_amg_interp_t)i;
        o.smoother = sms[s];
        o.coarse_size = 16;
        o.cycle = (strata_amg_cycle_t)((c + i + s) % 3);
        run_t r = amg_cg(T_exec, &h, &o, NULL, 1e-8, 100, NULL);
        if (r.st || r.iterations > 40)
          fail_msg("coarsen %d interp %d smoother %d cycle %d: %s after %d iterations (%s)", c, i, (int)sms[s],
                   (int)o.cycle, strata_status_name(r.st), r.iterations, strata_error_message());
        assert_true(r.info.num_levels >= 2);
      }
  host_crs_free(&h);
}

static void test_amg_backends(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(40, 40, 1);
  const char *specs[] = {"", "coarsen=pmis,interp=ext+i,smoother=l1-jacobi", "coarsen=hmis,smoother=mcgs,cycle=w",
                         "coarsen=cljp,interp=direct,smoother=cheby,cycle=f"};
  for (size_t k = 0; k < sizeof specs / sizeof specs[0]; ++k) {
    strata_amg_options_t o;
    T_OK(strata_amg_options_parse(specs[k], &o));
    o.coarse_size = 20;
    run_t a = amg_cg(T_exec, &h, &o, NULL, 1e-8, 100, NULL);
    run_t s = amg_cg(T_serial, &h, &o, NULL, 1e-8, 100, NULL);
    T_OK(a.st);
    T_OK(s.st);
    assert_int_equal(a.info.num_levels, s.info.num_levels);
    for (int l = 0; l < s.info.num_levels; ++l) {
      if (a.info.level[l].rows != s.info.level[l].rows || a.info.level[l].nnz != s.info.level[l].nnz ||
          a.info.level[l].p_nnz != s.info.level[l].p_nnz)
        fail_msg("'%s' level %d: %d rows %lld nnz %lld p_nnz, serial %d %lld %lld", specs[k], l, a.info.level[l].rows,
                 (long long)a.info.level[l].nnz, (long long)a.info.level[l].p_nnz, s.info.level[l].rows,
                 (long long)s.info.level[l].nnz, (long long)s.info.level[l].p_nnz);
    }
    assert_true(abs(a.iterations - s.iterations) <= 1);
  }
  host_crs_free(&h);
}


/* AMG as a solver (Richardson) on 2D Poisson 32²: each V-cycle (RS, standard, hgs 1+1) reduces the
 * residual by a factor well below 1 (measured: about 0.1), so 1e-8 within 25 cycles; the W- and
 * F-cycles need no more cycles than the V-cycle. */
static void test_amg_richardson(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(32, 32, 1);
  int its[3];
  for (int c = 0; c < 3; ++c) {
    strata_amg_options_t o;
    strata_amg_options_default(&o);
    o.cycle = (strata_amg_cycle_t)c;
    its[c] = amg_richardson(T_exec, &h, &o, 1e-8, 25, NULL);
    print_message("richardson 32x32 cycle %d: %d cycles\n", c, its[c]);
    assert_true(its[c] <= 25);
  }
  assert_true(its[1] <= its[0] && its[2] <= its[0]);
  host_crs_free(&h);
}

/* The coarsest level above 4096 rows (levels = 1 on 2D Poisson 72², 5184 rows) is smoothed, not
 * factored: AMG-PCG still converges (the smoother alone, symmetric), in far more iterations than
 * the full hierarchy. */
static void test_amg_smoothed_coarsest(void **state) {
  (void)state;
  host_crs_t h = hc_poisson(72, 72, 1);
  strata_amg_options_t o;
  strata_amg_options_default(&o);
  o.max_levels = 1;
  run_t one = amg_cg(T_exec, &h, &o, NULL, 1e-8, 2000, NULL);
  T_OK(one.st);
  assert_int_equal(one.info.num_levels, 1);
  strata_amg_options_default(&o);
  run_t full = amg_cg(T_exec, &h, &o, NULL, 1e-8, 2000, NULL);
  T_OK(full.st);
  print_message("72x72: one smoothed level %d iterations, %d levels %d iterations\n", one.iterations,
                full.info.num_levels, full.iterations);
  assert_true(full.info.num_levels > 1);
  assert_true(one.iterations > 3 * full.iterations);
  host_crs_free(&h);
}

/* ------------------------------------------------------------------ n = 0, errors */

static void test_amg_empty(void **state) {
  (void)state;
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, 0, 0, 0, NULL, NULL, NULL, STRATA_CRS_COPY, &A));
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
  T_OK(strata_precond_create_amg(T_exec, NULL, &P));
  strata_amg_info_t info;
  t_expect_msg(strata_precond_amg_info(P, &info), STRATA_ERR_INVALID_ARGUMENT, "not set up", NULL);
  T_OK(strata_precond_setup(T_exec, P, op));
  T_OK(strata_precond_amg_info(P, &info));
  assert_int_equal(info.num_levels, 1);
  assert_int_equal(info.level[0].rows, 0);
  T_OK(strata_precond_apply(T_exec, P, NULL, NULL));
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
}

static void test_amg_errors(void **state) {
  (void)state;
  strata_precond_t *P = NULL, *J = NULL;
  strata_amg_info_t info;
  T_OK(strata_precond_create_jacobi(T_exec, STRATA_JACOBI, &J));
  t_expect_msg(strata_precond_amg_info(J, &info), STRATA_ERR_INVALID_ARGUMENT, "not an AMG", "jacobi");
  strata_precond_destroy(&J);
  /* not square */
  host_crs_t r = hc_new(3, 2, 3);
  for (int32_t i = 0; i < 3; ++i) {
    hc_push(&r, i % 2, 1.0);
    r.ro[i + 1] = r.nnz;
  }
  strata_crs_matrix_t *A = hc_on(T_exec, &r);
  strata_operator_t *op = NULL;
  T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
  T_OK(strata_precond_create_amg(T_exec, NULL, &P));
  t_expect_msg(strata_precond_setup(T_exec, P, op), STRATA_ERR_INVALID_ARGUMENT, "3 x 2", "square");
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  host_crs_free(&r);
  /* a zero diagonal on the fine level, under a smoother that divides by it */
  host_crs_t h = hc_lap1d(100);
  for (int64_t k = h.ro[5]; k < h.ro[6]; ++k)
    if (h.ci[k] == 5) h.v[k] = 0.0;
  A = hc_on(T_exec, &h);
  T_OK(strata_operator_create_crs(T_exec, A, NULL, &op));
  strata_precond_destroy(&P);
  strata_amg_options_t o;
  strata_amg_options_default(&o);
  o.smoother = STRATA_SMOOTH_JACOBI;
  o.coarse_size = 10;
  T_OK(strata_precond_create_amg(T_exec, &o, &P));
  t_expect_msg(strata_precond_setup(T_exec, P, op), STRATA_ERR_INVALID_DATA, "level 0", "row 5");
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_crs_destroy(&A);
  host_crs_free(&h);
  (void)lap1d;
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_amg_options, t_setup),
      cmocka_unit_test_setup(test_amg_s17_diagonal, t_setup),
      cmocka_unit_test_setup(test_amg_s19_small, t_setup),
      cmocka_unit_test_setup(test_amg_lap1d_two_level, t_setup),
      cmocka_unit_test_setup(test_amg_poisson, t_setup),
      cmocka_unit_test_setup(test_amg_combinations, t_setup),
      cmocka_unit_test_setup(test_amg_backends, t_setup),
      cmocka_unit_test_setup(test_amg_richardson, t_setup),
      cmocka_unit_test_setup(test_amg_smoothed_coarsest, t_setup),
      cmocka_unit_test_setup(test_amg_empty, t_setup),
      cmocka_unit_test_setup(test_amg_errors, t_setup),
  };
  return T_RUN("amg", tests);
}
