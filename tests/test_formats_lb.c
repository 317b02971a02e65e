/* strata — the options of the load-balanced and hybrid formats against csr, bit for bit with
 * quarter-integer data: coo and csr-lb on a matrix whose entries are nearly all in one row (the
 * load balancing splits it over many teams, rows crossing pieces summed in the team and team
 * boundaries combined), on rows of every length up to 300 and on long rows between runs of
 * empty ones; hyb with strategies 0 / 1 / 2 and a forced ell_width, hec with its default and a
 * forced boundary.
 * A format not implemented yet (UNSUPPORTED) is skipped. */
#include "strata/sparse.h"
#include "formats_check.h"
#include "test_common.h"

typedef struct mat {
  int32_t m, n;
  int64_t nnz;
  int32_t *r, *c;
  double *v;
} mat_t;

static void add(mat_t *g, int32_t r, int32_t c, uint64_t *s) {
  g->r[g->nnz] = r;
  g->c[g->nnz] = c;
  g->v[g->nnz++] = (double)((int64_t)(t_rand(s) % 17) - 8) / 4.0;
}

/* kind 0: 7 x 70000, row 3 dense, rows 0 and 5 short, the others empty;
 * kind 1: 3000 rows of lengths 0..40 plus every 97th row of 300 entries (hyb / hec splits);
 * kind 2: 200000 rows of one entry, every 997th of 0..2999 and every 40000th of 5000: the
 *         hec / hyb remainders are a few rows between tens of thousands of empty ones, and
 *         rows run across many pieces and team boundaries at every offset */
static mat_t make(int kind, uint64_t *s) {
  mat_t g;
  memset(&g, 0, sizeof g);
  g.m = kind == 0 ? 7 : kind == 1 ? 3000 : 200000;
  g.n = kind == 0 ? 70000 : kind == 1 ? 3000 : 200000;
  const int64_t cap = kind == 0 ? 70010 : kind == 1 ? 3000 * 300 : 200000 + 5 * 5000 + 201 * 3000;
  g.r = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
  g.c = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
  g.v = (double *)malloc((size_t)cap * sizeof(double));
  for (int32_t i = 0; i < g.m; ++i) {
    int64_t len;
    if (kind == 0)
      len = i == 3 ? g.n : i == 0 ? 3 : i == 5 ? 2 : 0;
    else if (kind == 1)
      len = i % 97 == 0 ? 300 : (int64_t)(t_rand(s) % 41);
    else
      len = i % 40000 == 7 ? 5000 : i % 997 == 0 ? (int64_t)(t_rand(s) % 3000) : 1;
    const int64_t start = (int64_t)(t_rand(s) % (uint64_t)g.n);
    for (int64_t k = 0; k < len; ++k) add(&g, i, (int32_t)((start + k) % g.n), s);
  }
  return g;
}

static void check(strata_crs_matrix_t *A, const mat_t *g, strata_format_t f, const strata_format_options_t *o,
                  const double *dx, double *dy, const double *y0, double *yref, double *y) {
  strata_sparse_format_t *M = NULL, *ref = NULL;
  strata_status_t st = strata_format_create(T_exec, A, f, o, &M);
  if (st == STRATA_ERR_UNSUPPORTED) return;
  T_OK(st);
  strata_format_footprint_t fp;
  T_OK(strata_format_info(M, NULL, &fp));
  assert_true(fp.stored >= g->nnz);
  assert_int_equal(fp.padding, fp.stored - g->nnz);
  assert_true(fp.bytes > 0);
  T_OK(strata_format_create(T_exec, A, STRATA_FORMAT_CSR, NULL, &ref));
  const double ab[3][2] = {{1.0, 0.0}, {-0.5, 2.0}, {0.75, -1.0}};
  char label[96];
  snprintf(label, sizeof label, "format %s (ell_width %lld, strategy %d)", strata_format_name(f),
           (long long)o->ell_width, o->hyb_strategy);
  for (int t = 0; t < 3; ++t) formats_expect_csr(ref, M, g->m, dx, dy, y0, yref, y, ab[t][0], ab[t][1], label);
  T_OK(strata_format_destroy(&M));
  T_OK(strata_format_destroy(&ref));
}

static void test_options(void **state) {
  (void)state;
  uint64_t s = T_seed;
  for (int kind = 0; kind <= 2; ++kind) {
    mat_t g = make(kind, &s);
    int32_t *dr = (int32_t *)t_to_dev(g.r, (size_t)g.nnz * sizeof(int32_t));
    int32_t *dc = (int32_t *)t_to_dev(g.c, (size_t)g.nnz * sizeof(int32_t));
    double *dv = (double *)t_to_dev(g.v, (size_t)g.nnz * sizeof(double));
    strata_crs_matrix_t *A = NULL;
    T_OK(strata_crs_create_from_coo(T_exec, g.m, g.n, g.nnz, dr, dc, dv, &A));
    double *x = (double *)malloc((size_t)g.n * sizeof(double));
    double *y0 = (double *)malloc((size_t)g.m * sizeof(double));
    double *yref = (double *)malloc((size_t)g.m * sizeof(double));
    double *y = (double *)malloc((size_t)g.m * sizeof(double));
    for (int32_t j = 0; j < g.n; ++j) x[j] = (double)((int64_t)(t_rand(&s) % 9) - 4) / 4.0;
    for (int32_t i = 0; i < g.m; ++i) y0[i] = (double)((int64_t)(t_rand(&s) % 9) - 4);
    double *dx = (double *)t_to_dev(x, (size_t)g.n * sizeof(double));
    double *dy = (double *)t_dev_alloc((size_t)g.m * sizeof(double));
    strata_format_options_t o;
    memset(&o, 0, sizeof o);
    check(A, &g, STRATA_FORMAT_COO, &o, dx, dy, y0, yref, y);
    check(A, &g, STRATA_FORMAT_CSR_LB, &o, dx, dy, y0, yref, y);
    check(A, &g, STRATA_FORMAT_HEC, &o, dx, dy, y0, yref, y);
    for (int strat = 0; strat <= 2; ++strat) {
      o.hyb_strategy = strat;
      check(A, &g, STRATA_FORMAT_HYB, &o, dx, dy, y0, yref, y);
    }
    o.hyb_strategy = 0;
    for (int w = 1; w <= 50; w += 7) {
      o.ell_width = w;
      check(A, &g, STRATA_FORMAT_HYB, &o, dx, dy, y0, yref, y);
      check(A, &g, STRATA_FORMAT_HEC, &o, dx, dy, y0, yref, y);
    }
    t_dev_free(dr);
    t_dev_free(dc);
    t_dev_free(dv);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y0);
    free(yref);
    free(y);
    free(g.r);
    free(g.c);
    free(g.v);
    strata_crs_destroy(&A);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_options)};
  return T_RUN("formats_lb", tests);
}
