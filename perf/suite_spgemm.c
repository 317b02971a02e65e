/* strata bench — the spgemm suite (issue 28 item 1): C = A·B by strata_crs_spgemm on A·A of
 * gen:laplace7 (100³; 12³ with --quick), gen:poisson27 (50³; 10³) and the FEM matrix (gen:fem,
 * with Gmsh), and the AMG-like products A·P and Pᵀ·(A·P) with an aggregation P: each 2×2×2 block
 * of the grid one coarse point (the FEM matrix and --matrix inputs: 8 consecutive rows per
 * aggregate), P's entries 1. --matrix replaces the inputs (A·A only for square ones).
 * Per product and backend: "symbolic" (the pattern and plan; allocations included), "numeric"
 * (the values with the plan reused) and "spgemm" (the one call); on CUDA cusparseSpGEMM in the
 * same run: "cusparse_spgemm" (the generic API: workEstimation, compute, copy, its buffers and C
 * allocated on the stream) and "cusparse_reuse" (cusparseSpGEMMreuse_compute, the numeric phase
 * with the pattern kept); ratio_to_peer: numeric against cusparse_reuse, spgemm against
 * cusparse_spgemm. Every result is checked before its time counts against the serial backend's
 * product: host backends bit for bit (the summation order is fixed), GPU backends within
 * 1e-12 |A|·|B| per entry (FMA contraction), the peer's C the same way.
 *
 * Records: entries = intermediate products, flops = 2 x products ("gflops" in the JSON), bytes a
 * minimal-traffic model (nA, nB, nC entries; mA, kB, m rows): spgemm 12 (nA + nB + nC) +
 * 8 (mA + kB + 2m) (A and B read once, C written); numeric 12 (nA + nB) + 8 (mA + kB) + 12 nC +
 * 8 m (C's pattern read, its values written); symbolic 4 (nA + nB + nC) + 8 (mA + kB + m) (the
 * patterns only). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "bench_peer_spgemm.h"
#include "strata/spgemm.h"

#define SG_ALGOS 3
static const char *const sg_algo[SG_ALGOS] = {"symbolic", "numeric", "spgemm"};

/* P [n x nc]: row r of the grid of side g (r = i + g (j + g k)) to its 2×2×2 block; g = 0: rows
 * r to r / 8. Built on the serial backend. */
static int aggregation(int64_t n, int64_t g, strata_crs_matrix_t **P) {
  const int64_t h = (g + 1) / 2, nc = g ? h * h * h : (n + 7) / 8;
  int64_t *ro = (int64_t *)malloc(((size_t)n + 1) * sizeof *ro);
  int32_t *ci = (int32_t *)malloc(((size_t)n + 1) * sizeof *ci);
  double *v = (double *)malloc(((size_t)n + 1) * sizeof *v);
  int st = ro && ci && v ? 0 : -1;
  for (int64_t r = 0; st == 0 && r < n; ++r) {
    ro[r] = r;
    ci[r] = (int32_t)(g ? (r % g) / 2 + h * ((r / g % g) / 2 + h * ((r / (g * g)) / 2)) : r / 8);
    v[r] = 1.0;
  }
  if (st == 0) {
    ro[n] = n;
    st = strata_crs_create_from_csr(bench_cfg.serial, (int32_t)n, (int32_t)nc, n, ro, ci, v, STRATA_CRS_COPY, P);
  }
  free(ro), free(ci), free(v);
  return st;
}

/* |M| (values' magnitudes), on M's exec */
static int magnitude(const strata_crs_matrix_t *M, strata_crs_matrix_t **out) {
  int st = strata_crs_copy(M->exec, M, out);
  for (int64_t q = 0; st == 0 && q < (*out)->nnz; ++q) (*out)->values[q] = fabs((*out)->values[q]);
  return st;
}

/* 0 when got (host arrays of C's shape) equals the serial oracle ref: the pattern exactly, the
 * values bit for bit (exact) or within 1e-12 |A|·|B| (bound: the same pattern as ref). */
static int same_product(const strata_crs_matrix_t *ref, const strata_crs_matrix_t *bound, const int64_t *off,
                        const int32_t *col, const double *val, int64_t nnz, int exact, char *msg, size_t len) {
  if (nnz != ref->nnz) {
    snprintf(msg, len, "wrong result: %lld entries, expected %lld", (long long)nnz, (long long)ref->nnz);
    return -1;
  }
  for (int64_t r = 0; r <= ref->num_rows; ++r)
    if (off[r] != ref->row_offsets[r]) {
      snprintf(msg, len, "wrong result: row offset %lld = %lld, expected %lld", (long long)r, (long long)off[r],
               (long long)ref->row_offsets[r]);
      return -1;
    }
  for (int64_t q = 0; q < nnz; ++q) {
    const double want = ref->values[q];
    const int bad = col[q] != ref->col_indices[q] ||
                    (exact ? memcmp(&val[q], &want, sizeof want) != 0
                           : !(fabs(val[q] - want) <= 1e-12 * bound->values[q]));
    if (bad) {
      snprintf(msg, len, "wrong result: entry %lld (col %d, %.17g), expected (col %d, %.17g)", (long long)q, col[q],
               val[q], ref->col_indices[q], want);
      return -1;
    }
  }
  return 0;
}

/* C (any backend) against the oracle */
static int check_crs(const strata_crs_matrix_t *C, const strata_crs_matrix_t *ref, const strata_crs_matrix_t *bound,
                     int exact, char *msg, size_t len) {
  strata_crs_matrix_t *h = NULL;
  if (strata_crs_copy(bench_cfg.serial, C, &h)) {
    snprintf(msg, len, "%s", strata_error_message());
    return -1;
  }
  const int st = same_product(ref, bound, h->row_offsets, h->col_indices, h->values, h->nnz, exact, msg, len);
  strata_crs_destroy(&h);
  return st;
}

typedef struct sg_ctx {
  strata_exec_t *e;
  strata_crs_matrix_t *X, *Y;
  strata_spgemm_t *plan, *plan_t; /* numeric's; symbolic's timed one */
  strata_crs_matrix_t *C, *C_t, *C_full;
} sg_ctx;

static int t_symbolic(void *v, int64_t call) {
  sg_ctx *c = (sg_ctx *)v;
  (void)call;
  strata_spgemm_destroy(&c->plan_t);
  strata_crs_destroy(&c->C_t);
  return strata_crs_spgemm_symbolic(c->e, c->X, c->Y, &c->plan_t, &c->C_t);
}
static int t_numeric(void *v, int64_t call) {
  sg_ctx *c = (sg_ctx *)v;
  (void)call;
  return strata_crs_spgemm_numeric(c->e, c->plan, c->X, c->Y, c->C);
}
static int t_full(void *v, int64_t call) {
  sg_ctx *c = (sg_ctx *)v;
  (void)call;
  strata_crs_destroy(&c->C_full);
  return strata_crs_spgemm(c->e, c->X, c->Y, &c->C_full);
}

static void set_record(bench_result_t *r, const strata_crs_matrix_t *X, const strata_crs_matrix_t *Y,
                       const strata_crs_matrix_t *ref, int64_t products, int algo) {
  const double nA = (double)X->nnz, nB = (double)Y->nnz, nC = (double)ref->nnz, mA = (double)X->num_rows + 1,
               kB = (double)Y->num_rows + 1;
  r->rows = ref->num_rows, r->cols = ref->num_cols, r->nnz = ref->nnz;
  r->entries = (double)products;
  r->bytes = algo == 0   ? 4 * (nA + nB + nC) + 8 * (mA + kB + mA)
             : algo == 1 ? 12 * (nA + nB) + 8 * (mA + kB) + 12 * nC + 8 * mA
                         : 12 * (nA + nB + nC) + 8 * (mA + kB + 2 * mA);
}

static void finish(bench_result_t *r, int st, int64_t products) {
  if (r->ok == 1 && st) {
    r->ok = -1;
    snprintf(r->msg, sizeof r->msg, "%s", strata_error_message());
  }
  if (r->ok == 1)
    snprintf(r->extra, sizeof r->extra, ", \"products\": %lld, \"flops\": %.6g, \"gflops\": %.4g", (long long)products,
             2.0 * (double)products, 2.0 * (double)products / r->t.median / 1e9);
}

/* the cuSPARSE records of one product on backend bi (CUDA): full product and reuse numeric */
static void peer_product(int bi, const char *name, sg_ctx *c, const strata_crs_matrix_t *ref,
                         const strata_crs_matrix_t *bound, int64_t products, bench_result_t **out) {
  static const char *const algo[2] = {"cusparse_spgemm", "cusparse_reuse"};
  bench_spgemm_t *p = NULL;
  char err[200] = "";
  const int made = bench_spgemm_create(c->X, c->Y, strata_exec_native_stream(c->e), &p, err, sizeof err) == 0;
  int checked = 0;
  if (made && bench_spgemm_reuse(p, 0) == 0) {
    int64_t *off = NULL, nnz = 0;
    int32_t *col = NULL;
    double *val = NULL;
    checked = bench_spgemm_result(p, &off, &col, &val, &nnz, err, sizeof err) == 0 &&
              same_product(ref, bound, off, col, val, nnz, 0, err, sizeof err) == 0;
    free(off), free(col), free(val);
  } else if (made) {
    snprintf(err, sizeof err, "cusparseSpGEMMreuse_compute failed");
  }
  for (int q = 0; q < 2; ++q) {
    bench_result_t *r = bench_record_add("spgemm", bench_cfg.be[bi], name, algo[q]);
    bench_progress("spgemm", name, r->backend, algo[q]);
    set_record(r, c->X, c->Y, ref, products, q ? 1 : 2);
    r->ok = checked ? 1 : 0;
    if (!checked) snprintf(r->msg, sizeof r->msg, "%s", err);
    int st = 0;
    if (checked) st = bench_time(c->e, q ? bench_spgemm_reuse : bench_spgemm_full, p, bench_cfg.min_time, &r->t);
    finish(r, st, products);
    bench_record_emit(r);
    out[q] = r;
  }
  bench_spgemm_destroy(&p);
}

/* one product X·Y (serial) on every backend */
static void product(const char *name, const strata_crs_matrix_t *Xs, const strata_crs_matrix_t *Ys) {
  strata_crs_matrix_t *ref = NULL, *aX = NULL, *aY = NULL, *bound = NULL;
  int64_t products = 0;
  for (int64_t r = 0; r < Xs->num_rows; ++r)
    for (int64_t p = Xs->row_offsets[r]; p < Xs->row_offsets[r + 1]; ++p)
      products += Ys->row_offsets[Xs->col_indices[p] + 1] - Ys->row_offsets[Xs->col_indices[p]];
  const int oracle = strata_crs_spgemm(bench_cfg.serial, Xs, Ys, &ref) == 0 && magnitude(Xs, &aX) == 0 &&
                     magnitude(Ys, &aY) == 0 && strata_crs_spgemm(bench_cfg.serial, aX, aY, &bound) == 0;
  char oracle_msg[200] = "";
  if (!oracle) snprintf(oracle_msg, sizeof oracle_msg, "%s", strata_error_message());
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_exec_t *e = bench_cfg.ex[bi];
    sg_ctx c;
    memset(&c, 0, sizeof c);
    c.e = e;
    char msg[200] = "";
    int ok = oracle;
    if (!ok) snprintf(msg, sizeof msg, "the serial oracle: %.170s", oracle_msg);
    if (ok && (strata_crs_copy(e, Xs, &c.X) || strata_crs_copy(e, Ys, &c.Y) ||
               strata_crs_spgemm_symbolic(e, c.X, c.Y, &c.plan, &c.C) ||
               strata_crs_spgemm_numeric(e, c.plan, c.X, c.Y, c.C) || strata_crs_spgemm(e, c.X, c.Y, &c.C_full))) {
      snprintf(msg, sizeof msg, "%s", strata_error_message());
      ok = 0;
    }
    const int exact = strata_exec_is_host(e);
    if (ok) ok = check_crs(c.C, ref, bound, exact, msg, sizeof msg) == 0 &&
                 check_crs(c.C_full, ref, bound, exact, msg, sizeof msg) == 0;
    bench_result_t *mine[SG_ALGOS];
    const bench_fn fns[SG_ALGOS] = {t_symbolic, t_numeric, t_full};
    for (int q = 0; q < SG_ALGOS; ++q) {
      bench_result_t *r = bench_record_add("spgemm", bench_cfg.be[bi], name, sg_algo[q]);
      bench_progress("spgemm", name, r->backend, sg_algo[q]);
      set_record(r, Xs, Ys, ref ? ref : Xs, products, q);
      r->ok = ok ? 1 : 0;
      if (!ok) snprintf(r->msg, sizeof r->msg, "%s", msg);
      int st = 0;
      if (ok) st = bench_time(e, fns[q], &c, bench_cfg.min_time, &r->t);
      finish(r, st, products);
      mine[q] = r;
    }
    bench_result_t *peer[2] = {NULL, NULL};
    if (ok && bench_spgemm_peer(bench_cfg.be[bi])) peer_product(bi, name, &c, ref, bound, products, peer);
    /* ratio_to_peer: numeric against the reuse compute, the one call against the generic API */
    for (int q = 1; q < SG_ALGOS; ++q) {
      bench_result_t *pr = peer[q == 1 ? 1 : 0];
      if (pr && pr->ok == 1 && mine[q]->ok == 1) mine[q]->ratio_peer = pr->t.median / mine[q]->t.median;
    }
    for (int q = 0; q < SG_ALGOS; ++q) bench_record_emit(mine[q]);
    strata_spgemm_destroy(&c.plan), strata_spgemm_destroy(&c.plan_t);
    strata_crs_destroy(&c.C), strata_crs_destroy(&c.C_t), strata_crs_destroy(&c.C_full);
    strata_crs_destroy(&c.X), strata_crs_destroy(&c.Y);
  }
  strata_crs_destroy(&ref), strata_crs_destroy(&aX), strata_crs_destroy(&aY), strata_crs_destroy(&bound);
}

/* A·A (square A), A·P and Pᵀ·(A·P) of one input; grid: the side of its grid (0: none) */
static void input(const char *base, const strata_crs_matrix_t *A, int64_t grid) {
  char name[176]; /* base (up to 159 characters) and the product's suffix */
  if (A->num_rows == A->num_cols) {
    snprintf(name, sizeof name, "%s A*A", base);
    product(name, A, A);
  }
  strata_crs_matrix_t *P = NULL, *Pt = NULL, *AP = NULL;
  if (A->num_cols != A->num_rows || aggregation(A->num_rows, grid, &P) || strata_crs_transpose(bench_cfg.serial, P, &Pt) ||
      strata_crs_spgemm(bench_cfg.serial, A, P, &AP)) {
    if (A->num_cols == A->num_rows) bench_input_error("spgemm", base, strata_error_message());
  } else {
    snprintf(name, sizeof name, "%s A*P", base);
    product(name, A, P);
    snprintf(name, sizeof name, "%s Pt*AP", base);
    product(name, Pt, AP);
  }
  strata_crs_destroy(&P), strata_crs_destroy(&Pt), strata_crs_destroy(&AP);
}

/* a --matrix input (or gen:fem): P of 8 consecutive rows per aggregate */
static void file_input(const strata_crs_matrix_t *A, const char *name, void *ctx) {
  (void)ctx;
  input(name, A, 0);
}

static void spgemm_suite_run(const bench_inputs_t *inp) {
  if (!inp->given) {
    static const char *const gens[2] = {"laplace7", "poisson27"};
    static const int full[2] = {100, 50}, quick[2] = {12, 10};
    for (int g = 0; g < 2; ++g) {
      int side = (int)((bench_cfg.quick ? quick[g] : full[g]) * cbrt(bench_cfg.scale) + 0.5);
      if (side < 2) side = 2;
      char spec[48], name[160], err[300];
      snprintf(spec, sizeof spec, "%s:%d", gens[g], side);
      strata_crs_matrix_t *A = NULL;
      if (bench_gen(bench_cfg.serial, spec, bench_cfg.quick, 1.0, bench_cfg.seed, &A, name, sizeof name, err, sizeof err)) {
        bench_input_error("spgemm", spec, err);
        continue;
      }
      input(name, A, side);
      strata_crs_destroy(&A);
    }
  }
  bench_list_t specs = {0};
  if (!inp->given && BENCH_HAVE_GMSH) bench_list_push(&specs, "gen:fem");
  bench_each_input("spgemm", inp->given ? inp->specs : &specs, file_input, NULL);
  bench_list_free(&specs);
}

static int spgemm_estimate(const bench_inputs_t *in) {
  int per = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) per += SG_ALGOS + (bench_spgemm_peer(bench_cfg.be[bi]) ? 2 : 0);
  const int mats = in->given ? in->matrices : 2 + BENCH_HAVE_GMSH;
  return mats * 3 * per;
}

const bench_suite_t bench_suite_spgemm = {
    .name = "spgemm",
    .help = "SpGEMM A*A, A*P, Pt*(AP) (symbolic, numeric reuse, one call; GFLOP/s, bytes); cusparseSpGEMM",
    .options = BENCH_OPT_MATRIX,
    .run = spgemm_suite_run,
    .estimate = spgemm_estimate,
    .box_edge = NULL,
    .summary = NULL,
};
