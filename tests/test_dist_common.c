/* strata tests — the dist/ tests' shared part (test_dist_common.h). */
#include "test_dist_common.h"

int td_rank, td_size, td_thread_level;

void td_check_at(int ok, const char *msg, const char *file, int line) {
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (all) return;
  int root = ok ? td_size : td_rank;
  MPI_Allreduce(MPI_IN_PLACE, &root, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  char m[2304];
  snprintf(m, sizeof m, "%s", msg);
  MPI_Bcast(m, (int)sizeof m, MPI_CHAR, root, MPI_COMM_WORLD);
  m[sizeof m - 1] = '\0';
  fail_msg("%s:%d: on rank %d of %d: %s (seed %llu)", file, line, root, td_size, m, (unsigned long long)T_seed);
}

void td_expect(strata_status_t st, strata_status_t want, const char *n1, const char *n2) {
  const char *msg = strata_error_message();
  TD_CHECK(st == want, "returned %s, expected %s (message: %s)", strata_status_name(st), strata_status_name(want), msg);
  TD_CHECK(!n1 || strstr(msg, n1), "message '%s' does not name '%s'", msg, n1);
  TD_CHECK(!n2 || strstr(msg, n2), "message '%s' does not name '%s'", msg, n2);
}

int td_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n) {
  const char *lv = getenv("STRATA_TEST_MPI_THREAD");
  int want = MPI_THREAD_MULTIPLE;
  if (lv && !strcmp(lv, "single")) want = MPI_THREAD_SINGLE;
  else if (lv && !strcmp(lv, "funneled")) want = MPI_THREAD_FUNNELED;
  else if (lv && !strcmp(lv, "serialized")) want = MPI_THREAD_SERIALIZED;
  if (strata_dist_init(&argc, &argv, want, &td_thread_level)) {
    fprintf(stderr, "strata_dist_init: %s\n", strata_error_message());
    return 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &td_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &td_size);
  if (td_rank == 0)
    printf("[ strata   ] %d MPI ranks, thread level %s\n", td_size, strata_dist_thread_level_name(td_thread_level));
  fflush(stdout);
  if (td_rank > 0 && !freopen("/dev/null", "w", stdout)) return 1;
  int rc = test_main(argc, argv, group, tests, n);
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  strata_dist_finalize();
  return rc == 77 || rc == 0 ? rc : 1;
}

void td_push(td_coo_t *e, int64_t r, int64_t c, double v) {
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 64;
    e->r = (int64_t *)realloc(e->r, (size_t)e->cap * sizeof(int64_t));
    e->c = (int64_t *)realloc(e->c, (size_t)e->cap * sizeof(int64_t));
    e->v = (double *)realloc(e->v, (size_t)e->cap * sizeof(double));
    assert_non_null(e->r);
    assert_non_null(e->c);
    assert_non_null(e->v);
  }
  e->r[e->n] = r;
  e->c[e->n] = c;
  e->v[e->n] = v;
  e->n++;
}

void td_coo_free(td_coo_t *e) {
  free(e->r);
  free(e->c);
  free(e->v);
  memset(e, 0, sizeof *e);
}

void td_poisson3d(int64_t nx, int64_t r0, int64_t r1, td_coo_t *e) {
  for (int64_t g = r0; g < r1; ++g) {
    const int64_t i = g % nx, j = (g / nx) % nx, k = g / (nx * nx);
    if (k > 0) td_push(e, g, g - nx * nx, -1.0);
    if (j > 0) td_push(e, g, g - nx, -1.0);
    if (i > 0) td_push(e, g, g - 1, -1.0);
    td_push(e, g, g, 6.0);
    if (i < nx - 1) td_push(e, g, g + 1, -1.0);
    if (j < nx - 1) td_push(e, g, g + nx, -1.0);
    if (k < nx - 1) td_push(e, g, g + nx * nx, -1.0);
  }
}

strata_crs_matrix_t *td_global_crs(int32_t nrows, int32_t ncols, const td_coo_t *mine) {
  int64_t n = mine->n;
  int *counts = (int *)t_malloc((size_t)td_size * sizeof(int)), *displs = (int *)t_malloc((size_t)td_size * sizeof(int));
  int cn = (int)n;
  MPI_Allgather(&cn, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  int64_t total = 0;
  for (int r = 0; r < td_size; ++r) {
    displs[r] = (int)total;
    total += counts[r];
  }
  int64_t *r64 = (int64_t *)t_malloc((size_t)total * sizeof(int64_t)), *c64 = (int64_t *)t_malloc((size_t)total * sizeof(int64_t));
  double *v = (double *)t_malloc((size_t)total * sizeof(double));
  MPI_Allgatherv(mine->r, cn, MPI_INT64_T, r64, counts, displs, MPI_INT64_T, MPI_COMM_WORLD);
  MPI_Allgatherv(mine->c, cn, MPI_INT64_T, c64, counts, displs, MPI_INT64_T, MPI_COMM_WORLD);
  MPI_Allgatherv(mine->v, cn, MPI_DOUBLE, v, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
  int32_t *r = (int32_t *)t_malloc((size_t)total * sizeof(int32_t)), *c = (int32_t *)t_malloc((size_t)total * sizeof(int32_t));
  for (int64_t k = 0; k < total; ++k) {
    r[k] = (int32_t)r64[k];
    c[k] = (int32_t)c64[k];
  }
  strata_crs_matrix_t *G = NULL;
  T_OK(strata_crs_create_from_coo(T_serial, nrows, ncols, total, r, c, v, &G));
  free(counts);
  free(displs);
  free(r64);
  free(c64);
  free(v);
  free(r);
  free(c);
  return G;
}

strata_coo_t *td_read_shared(const char *file) {
  char path[1024];
  const char *dir = getenv("STRATA_MATRICES");
  snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : STRATA_TEST_MATRICES, file);
  strata_coo_t *coo = NULL;
  const strata_status_t st = strata_mm_read_coo(path, &coo);
  int missing = st == STRATA_ERR_IO;
  MPI_Allreduce(MPI_IN_PLACE, &missing, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (missing) {
    printf("[ strata   ] %s: skipped (%s)\n", file, st ? strata_error_message() : "missing on another rank");
    strata_coo_destroy(&coo);
    return NULL;
  }
  TD_CHECK(st == STRATA_SUCCESS, "reading %s: %s", path, strata_error_message());
  return coo;
}

static double xval(int64_t j) { return 1.0 + (double)(j % 7) / 8.0; }
static double y0val(int64_t i) { return 0.25 + (double)(i % 5) / 4.0; }

void td_check_spmv(strata_dist_crs_t *A, const strata_crs_matrix_t *G, double alpha, double beta) {
  strata_dist_crs_info_t in;
  T_OK(strata_dist_crs_info(A, &in));
  const int32_t nr = in.num_local_rows, nc = in.num_local_cols;
  int64_t *rg = (int64_t *)t_malloc((size_t)nr * sizeof(int64_t)), *cg = (int64_t *)t_malloc((size_t)nc * sizeof(int64_t));
  T_OK(strata_dist_map_gids(in.row_map, rg));
  T_OK(strata_dist_map_gids(in.domain_map, cg));
  /* the serial single-process reference over the whole matrix */
  double *xg = (double *)t_malloc((size_t)G->num_cols * sizeof(double)), *yg = (double *)t_malloc((size_t)G->num_rows * sizeof(double));
  for (int32_t j = 0; j < G->num_cols; ++j) xg[j] = xval(j);
  for (int32_t i = 0; i < G->num_rows; ++i) yg[i] = y0val(i);
  T_OK(strata_crs_spmv(T_serial, alpha, G, xg, beta, yg));
  double *xl = (double *)t_malloc((size_t)nc * sizeof(double)), *y0 = (double *)t_malloc((size_t)nr * sizeof(double));
  double *ym = (double *)t_malloc((size_t)nr * sizeof(double)), *yv = (double *)t_malloc((size_t)nr * sizeof(double));
  for (int32_t l = 0; l < nc; ++l) xl[l] = xval(cg[l]);
  for (int32_t l = 0; l < nr; ++l) y0[l] = beta == 0.0 ? NAN : y0val(rg[l]);
  double *dx = (double *)t_to_dev(xl, (size_t)nc * sizeof(double));
  double *dy = (double *)t_dev_alloc((size_t)nr * sizeof(double));
  for (int mode = 0; mode < 3; ++mode) {
    const int task_ok = td_thread_level >= MPI_THREAD_SERIALIZED;
    if (mode == STRATA_DIST_TASK && !task_ok) continue;
    if (nr) T_OK(strata_mem_copy(T_exec, dy, y0, (size_t)nr * sizeof(double)));
    T_OK(strata_dist_crs_spmv(NULL, (strata_dist_mode_t)mode, alpha, A, dx, beta, dy));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(mode == 0 ? yv : ym, dy, (size_t)nr * sizeof(double));
    if (mode == 0) continue;
    int64_t bad = -1;
    for (int32_t l = 0; l < nr && bad < 0; ++l)
      if (memcmp(&ym[l], &yv[l], sizeof(double))) bad = l;
    TD_CHECK(bad < 0, "mode %s: y[%lld] = %.17g, vector mode %.17g (bitwise)", strata_dist_mode_name((strata_dist_mode_t)mode),
             (long long)bad, bad < 0 ? 0.0 : ym[bad], bad < 0 ? 0.0 : yv[bad]);
  }
  int64_t bad = -1;
  double got = 0, want = 0;
  for (int32_t l = 0; l < nr && bad < 0; ++l) {
    const int64_t i = rg[l];
    double scale = beta == 0.0 ? 0.0 : fabs(beta * y0val(i));
    for (int64_t k = G->row_offsets[i]; k < G->row_offsets[i + 1]; ++k)
      scale += fabs(alpha * G->values[k] * xg[G->col_indices[k]]);
    if (!(fabs(yv[l] - yg[i]) <= 1e-13 * scale + 1e-300)) {
      bad = i;
      got = yv[l];
      want = yg[i];
    }
  }
  TD_CHECK(bad < 0, "alpha %g beta %g: y[%lld] = %.17g, serial %.17g", alpha, beta, (long long)bad, got, want);
  t_dev_free(dx);
  t_dev_free(dy);
  free(rg);
  free(cg);
  free(xg);
  free(yg);
  free(xl);
  free(y0);
  free(ym);
  free(yv);
}
