/* strata sparse — SpGEMM C = A·B and the Galerkin product Pᵀ·A·P (see strata/spgemm.h). Host code
 * sizes, classifies and launches; every pass over rows or entries is a kernel
 * (sparse/kernels/spgemm.kl.c, which also says the fixed order in which each entry is summed).
 *
 * Symbolic: products per row (a kernel; their largest and their sum checked against 2^62), rows
 * grouped by class on the device (strata_sparse_impl_group_by_class), a COUNT launch per class
 * (exact row sizes), a device scan to C's row offsets, a FILL launch per class (sorted columns).
 * Numeric: one launch per class (short rows on GPUs by lanes over A's entries, or gathering, or
 * the product-order walk, by the product's averages; medium rows by a walk in product order with
 * C's row in scratch when B's rows are unique, else by buckets per C entry).
 * The plan keeps the grouped rows, the class bounds and the long class's accumulators, so numeric
 * is that one pass. */
#include <stdlib.h>
#include <string.h>

#include "sparse_impl.h"
#include "spgemm_impl.h"

#include "../kernels/spgemm_args.h"
#include "../kernels/spmv_plan_args.h"

STRATA_KERNEL_DECLARE(strata_spgemm_products);
STRATA_KERNEL_DECLARE(strata_spgemm_products_max);
STRATA_KERNEL_DECLARE(strata_spgemm_products_sum);
STRATA_KERNEL_DECLARE(strata_spgemm_classify);
STRATA_KERNEL_DECLARE(strata_spgemm_short);
STRATA_KERNEL_DECLARE(strata_spgemm_short_gather);
STRATA_KERNEL_DECLARE(strata_spgemm_short_lanes);
STRATA_KERNEL_DECLARE(strata_spgemm_row_size_max);
STRATA_KERNEL_DECLARE(strata_spgemm_medium);
STRATA_KERNEL_DECLARE(strata_spgemm_medium_walk);
STRATA_KERNEL_DECLARE(strata_spgemm_long);
STRATA_KERNEL_DECLARE(strata_spmv_narrow);

/* GPU team shapes (threads x lanes): short rows 128 threads of one lane (a thread per row), medium
 * rows 2 x 32 (up to 512 products) and 8 x 32 (up to 2048) for COUNT / FILL and the buckets, long
 * rows 8 x 32; the NUMERIC shapes below were measured (perf/NOTES.md, sessions 19 and 27), these
 * not. Host backends: teams of one. */
#define SHORT_TEAM 128
/* short rows' NUMERIC on GPUs with B's rows unique: rows per team x lanes over C's row */
#define SHORT_GATHER_ROWS 32
#define SHORT_GATHER_LANES 8
/* ... when C's rows average at least this many entries (the lanes' scan of all a row's products
 * per entry grows with them): laplace7 100^3 A·A (25 per row, 49 products) gathering 0.93 ms, by
 * lanes 1.28, the walk 5.98 (H200, perf/NOTES.md session 27) */
#define SHORT_GATHER_MIN_AVG 16
/* the walk when rows average fewer products than this: laplace7 100^3 A·P with 2x2x2 aggregates
 * (7 products) walk 0.179 ms, gathering 0.227, lanes 0.231; poisson27 50^3 A·P (27 products, 8
 * entries) lanes 0.079, walk 0.127, gathering 0.134 */
#define SHORT_WALK_MAX_AVG 16
/* short rows' NUMERIC on GPUs by lanes over A's entries: threads per team, lanes per row */
#define SHORT_LANES_THREADS 128
#define SHORT_LANES_LANES 8
/* medium rows' NUMERIC by the walk on GPUs: rows per team (a warp of lanes each) */
#define MED_WALK_ROWS 2
#define MED_S_TEAM 2
#define MED_L_TEAM 8
#define LONG_TEAM 8
#define GPU_LANES 32
/* the long class's accumulators (n doubles per team) are held to this many bytes, at least one team */
#define LONG_ACC_BUDGET ((size_t)1 << 29)

int strata_impl_spgemm_gather = 0;
int strata_impl_spgemm_lanes = 0;

/* the classes' most products per row by default: on GPUs the four classes; on host backends (a
 * team is one thread, for which the medium classes' sort network is O(n log^2 n) work against the
 * dense accumulator's O(n)) rows beyond the short class go to the long class */
static const int64_t class_max_gpu[STRATA_SPGEMM_NUM_CLASSES - 1] = {STRATA_SPGEMM_SHORT_MAX, STRATA_SPGEMM_MED_S_MAX,
                                                                   STRATA_SPGEMM_MED_L_MAX};
static const int64_t class_max_host[STRATA_SPGEMM_NUM_CLASSES - 1] = {STRATA_SPGEMM_SHORT_MAX, STRATA_SPGEMM_SHORT_MAX,
                                                                    STRATA_SPGEMM_SHORT_MAX};
static const int64_t class_cap[STRATA_SPGEMM_NUM_CLASSES - 1] = {STRATA_SPGEMM_SHORT_MAX, STRATA_SPGEMM_MED_S_MAX,
                                                               STRATA_SPGEMM_MED_L_MAX};

struct strata_spgemm {
  strata_exec_t *exec;
  int32_t m, k, n;
  int64_t nnz_a, nnz_b, nnz_c;
  int b_unique;                                 /* B was fill-complete at the symbolic phase */
  int64_t max[STRATA_SPGEMM_NUM_CLASSES];       /* class c: rows of at most max[c] products (above max[c - 1]) */
  int64_t bounds[STRATA_SPGEMM_NUM_CLASSES + 1]; /* class c's rows: rows[bounds[c] .. bounds[c + 1]) */
  int32_t *rows;                                /* [m] rows grouped by class, ascending within one */
  int64_t nc_max[STRATA_SPGEMM_NUM_CLASSES];    /* the widest row of C per class (the medium walk's scratch) */
  double products;                              /* intermediate products in all */
  int64_t long_teams;                           /* the long class's league (accumulators) */
  double *acc;                                  /* [long_teams x n] */
};

static strata_status_t check_pair(strata_exec_t **exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *B,
                                  const char *what) {
  if (!A || !B) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, A ? "B" : "A");
  strata_status_t st = strata_sparse_impl_exec(exec, A->exec, what);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_exec(exec, B->exec, what);
  if (st != STRATA_SUCCESS) return st;
  if (A->num_cols != B->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: inner sizes differ: A is %d x %d, B is %d x %d (A's columns must equal B's rows)",
                            what, (int)A->num_rows, (int)A->num_cols, (int)B->num_rows, (int)B->num_cols);
  return STRATA_SUCCESS;
}

static void args_init(strata_spgemm_args_t *a, const strata_crs_matrix_t *A, const strata_crs_matrix_t *B) {
  memset(a, 0, sizeof *a);
  a->a_off = A->row_offsets;
  a->a_col = A->col_indices;
  a->a_val = A->values;
  a->b_off = B->row_offsets;
  a->b_col = B->col_indices;
  a->b_val = B->values;
  a->n = B->num_cols;
}

/* One class's launch in the given mode (nothing for an empty class). */
static strata_status_t launch_class(strata_exec_t *exec, const strata_spgemm_t *p, int c, int mode,
                                    strata_spgemm_args_t *a) {
  const int64_t count = p->bounds[c + 1] - p->bounds[c];
  if (count == 0) return STRATA_SUCCESS;
  const int host = strata_exec_is_host(exec);
  a->rows = p->rows;
  a->begin = p->bounds[c];
  a->count = count;
  a->cap = p->max[c];
  a->mode = mode;
  a->b_unique = p->b_unique;
  /* short rows' NUMERIC on GPUs, by the product's averages per row of A (perf/NOTES.md, session 27):
   * the product-order walk below SHORT_WALK_MAX_AVG products, gathering (B's rows unique) from
   * SHORT_GATHER_MIN_AVG entries of C, lanes over A's entries otherwise; on host backends the walk
   * (tests force the others). Medium rows' NUMERIC: the walk in scratch when B's rows are unique,
   * buckets otherwise (two lanes could meet on a repeated column) */
  const int numeric = mode == STRATA_SPGEMM_NUMERIC;
  const int short_numeric = numeric && c == STRATA_SPGEMM_SHORT;
  const double rows = p->m > 0 ? (double)p->m : 1.0;
  const int gpu_gather = p->b_unique && (double)p->nnz_c >= SHORT_GATHER_MIN_AVG * rows;
  const int gpu_walk = p->products < SHORT_WALK_MAX_AVG * rows;
  a->gather = short_numeric && p->b_unique && (strata_impl_spgemm_gather || (!host && !gpu_walk && gpu_gather));
  const int lanes = short_numeric && !a->gather && (strata_impl_spgemm_lanes || (!host && !gpu_walk));
  const int walk = numeric && p->b_unique && (c == STRATA_SPGEMM_MED_S || c == STRATA_SPGEMM_MED_L);
  a->acc = p->acc;
  a->nc_max = p->nc_max[c];
  static const char *const label[STRATA_SPGEMM_NUM_CLASSES][3] = {
      {"strata_spgemm_short_count", "strata_spgemm_short_fill", "strata_spgemm_short_numeric"},
      {"strata_spgemm_med_s_count", "strata_spgemm_med_s_fill", "strata_spgemm_med_s_numeric"},
      {"strata_spgemm_med_l_count", "strata_spgemm_med_l_fill", "strata_spgemm_med_l_numeric"},
      {"strata_spgemm_long_count", "strata_spgemm_long_fill", "strata_spgemm_long_numeric"}};
  const char *lb = label[c][mode];
  strata_team_policy_t pol;
  if (lanes) {
    const int ts = host ? 1 : SHORT_LANES_THREADS / SHORT_LANES_LANES;
    pol = strata_team_policy((count + ts - 1) / ts, ts, host ? 1 : SHORT_LANES_LANES);
    pol.scratch_thread = STRATA_SPGEMM_SHORT_LANES_SCRATCH;
    return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_short_lanes, a);
  }
  if (c == STRATA_SPGEMM_SHORT && a->gather) {
    const int ts = host ? 1 : SHORT_GATHER_ROWS;
    pol = strata_team_policy((count + ts - 1) / ts, ts, host ? 1 : SHORT_GATHER_LANES);
    return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_short_gather, a);
  }
  if (c == STRATA_SPGEMM_SHORT) {
    const int ts = host ? 1 : SHORT_TEAM;
    pol = strata_team_policy((count + ts - 1) / ts, ts, 1);
    if (mode != STRATA_SPGEMM_NUMERIC) pol.scratch_thread = (size_t)STRATA_SPGEMM_SHORT_MAX * sizeof(int32_t);
    return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_short, a);
  }
  if (c == STRATA_SPGEMM_LONG) {
    pol = strata_team_policy(p->long_teams, host ? 1 : LONG_TEAM, host ? 1 : GPU_LANES);
    pol.scratch_team = sizeof(int64_t);
    return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_long, a);
  }
  if (walk) {
    const int ts = host ? 1 : MED_WALK_ROWS;
    pol = strata_team_policy((count + ts - 1) / ts, ts, host ? 1 : GPU_LANES);
    pol.scratch_thread = STRATA_SPGEMM_MED_WALK_SCRATCH(p->nc_max[c]);
    return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_medium_walk, a);
  }
  pol = strata_team_policy(count, host ? 1 : c == STRATA_SPGEMM_MED_S ? MED_S_TEAM : MED_L_TEAM, host ? 1 : GPU_LANES);
  pol.scratch_team = numeric ? STRATA_SPGEMM_MED_NUMERIC_SCRATCH(a->cap) : STRATA_SPGEMM_MED_SCRATCH(a->cap);
  return strata_parallel_for_team(exec, lb, &pol, &strata_spgemm_medium, a);
}

/* Products per row, checked; rows grouped by class into p->rows and p->bounds. */
static strata_status_t classify(strata_exec_t *exec, strata_spgemm_t *p, strata_spgemm_args_t *a) {
  const int64_t m = p->m;
  int64_t *ub = NULL, *keys = NULL, *perm = NULL;
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int64_t), (void **)&ub);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int64_t), (void **)&keys);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int64_t), (void **)&perm);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int32_t), (void **)&p->rows);
  a->ub = ub;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_spgemm_products", strata_range(0, m), &strata_spgemm_products, a);
  strata_i64loc_t most = {0, -1};
  double total = 0.0;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_reduce(exec, "strata_spgemm_products_max", strata_range(0, m), &strata_spgemm_products_max, a,
                                STRATA_REDUCE_MAXLOC, &most);
  if (st == STRATA_SUCCESS && most.val > STRATA_SPGEMM_LIMIT)
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "crs_spgemm: row %lld of A has more than 2^62 = %lld intermediate products (the limit)",
                          (long long)most.loc, (long long)STRATA_SPGEMM_LIMIT);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_reduce(exec, "strata_spgemm_products_sum", strata_range(0, m), &strata_spgemm_products_sum, a,
                                STRATA_REDUCE_SUM, &total);
  if (st == STRATA_SUCCESS && total > (double)STRATA_SPGEMM_LIMIT)
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "crs_spgemm: %.4g intermediate products in all exceed 2^62 = %lld (the limit); row %lld "
                          "alone has %lld",
                          total, (long long)STRATA_SPGEMM_LIMIT, (long long)most.loc, (long long)most.val);
  p->products = total;
  a->num_classes = STRATA_SPGEMM_NUM_CLASSES;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES; ++c) a->max_len[c] = p->max[c];
  a->keys = keys;
  a->perm = perm;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_spgemm_classify", strata_range(0, m), &strata_spgemm_classify, a);
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_group_by_class(exec, m, STRATA_SPGEMM_NUM_CLASSES, keys, perm, p->bounds);
  strata_spmv_narrow_args_t na = {perm, p->rows};
  if (st == STRATA_SUCCESS) st = strata_parallel_for(exec, "strata_spgemm_rows", strata_range(0, m), &strata_spmv_narrow, &na);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  strata_sparse_impl_free(exec, ub);
  strata_sparse_impl_free(exec, keys);
  strata_sparse_impl_free(exec, perm);
  a->ub = a->keys = a->perm = NULL;
  return st;
}

/* The long class's league: one team per row up to the concurrency, fewer when the accumulators
 * (n doubles per team) would exceed LONG_ACC_BUDGET. */
static int64_t long_league(strata_exec_t *exec, int64_t rows, int64_t n) {
  int64_t g = strata_exec_concurrency(exec);
  strata_device_info_t info;
  if (!strata_exec_is_host(exec) && strata_exec_device_info(exec, &info) == STRATA_SUCCESS)
    g = (int64_t)info.multiprocessors * 2;
  const int64_t by_mem = n > 0 ? (int64_t)(LONG_ACC_BUDGET / ((size_t)n * sizeof(double))) : g;
  if (g > by_mem) g = by_mem;
  if (g > rows) g = rows;
  return g < 1 ? 1 : g;
}

strata_status_t strata_spgemm_destroy(strata_spgemm_t **plan) {
  if (!plan || !*plan) return STRATA_SUCCESS;
  strata_spgemm_t *p = *plan;
  strata_sparse_impl_free(p->exec, p->rows);
  strata_sparse_impl_free(p->exec, p->acc);
  free(p);
  *plan = NULL;
  return STRATA_SUCCESS;
}

void strata_sparse_impl_spgemm_class_rows(const strata_spgemm_t *plan, int64_t rows[STRATA_SPGEMM_NUM_CLASSES]) {
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES; ++c) rows[c] = plan->bounds[c + 1] - plan->bounds[c];
}

strata_status_t strata_crs_spgemm_symbolic(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           const strata_crs_matrix_t *B, strata_spgemm_t **plan,
                                           strata_crs_matrix_t **C) {
  return strata_sparse_impl_spgemm_symbolic(exec, A, B, NULL, plan, C);
}

strata_status_t strata_sparse_impl_spgemm_symbolic(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                   const strata_crs_matrix_t *B, const int64_t *class_max,
                                                   strata_spgemm_t **plan, strata_crs_matrix_t **C) {
  if (!plan || !C) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_spgemm_symbolic: NULL %s", plan ? "C" : "plan");
  *plan = NULL;
  *C = NULL;
  strata_status_t st = check_pair(&exec, A, B, "crs_spgemm_symbolic");
  if (st != STRATA_SUCCESS) return st;
  const int64_t *mx = class_max ? class_max : strata_exec_is_host(exec) ? class_max_host : class_max_gpu;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES - 1; ++c)
    if (mx[c] < (c ? mx[c - 1] : 0) || mx[c] > class_cap[c])
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "crs_spgemm_symbolic: class %d's most products per row %lld outside [%lld, %lld]", c,
                              (long long)mx[c], (long long)(c ? mx[c - 1] : 0), (long long)class_cap[c]);
  strata_spgemm_t *p = (strata_spgemm_t *)calloc(1, sizeof *p);
  strata_crs_matrix_t *M = (strata_crs_matrix_t *)calloc(1, sizeof *M);
  if (!p || !M) {
    free(p), free(M);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "crs_spgemm_symbolic: %zu bytes of host memory",
                            sizeof *p + sizeof *M);
  }
  p->exec = exec;
  p->m = A->num_rows;
  p->k = A->num_cols;
  p->n = B->num_cols;
  p->nnz_a = A->nnz;
  p->nnz_b = B->nnz;
  p->b_unique = B->fill_complete;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES - 1; ++c) p->max[c] = mx[c];
  p->max[STRATA_SPGEMM_LONG] = INT64_MAX;
  M->exec = exec;
  M->num_rows = A->num_rows;
  M->num_cols = B->num_cols;
  M->fill_complete = 1;
  strata_spgemm_args_t a;
  args_init(&a, A, B);
  int32_t *tag = NULL;
  st = strata_sparse_impl_alloc(exec, ((size_t)p->m + 1) * sizeof(int64_t), (void **)&M->row_offsets);
  if (st == STRATA_SUCCESS && p->m > 0) st = classify(exec, p, &a);
  const int64_t nlong = p->bounds[STRATA_SPGEMM_LONG + 1] - p->bounds[STRATA_SPGEMM_LONG];
  if (st == STRATA_SUCCESS && nlong > 0) {
    p->long_teams = long_league(exec, nlong, p->n);
    const size_t cells = (size_t)p->long_teams * (size_t)p->n;
    st = strata_sparse_impl_alloc(exec, cells * sizeof(int32_t), (void **)&tag);
    if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, tag, 0, cells * sizeof(int32_t));
    if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, cells * sizeof(double), (void **)&p->acc);
  }
  a.tag = tag;
  a.c_off = M->row_offsets;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES && st == STRATA_SUCCESS; ++c)
    st = launch_class(exec, p, c, STRATA_SPGEMM_COUNT, &a);
  int64_t nnz = 0;
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, p->m, M->row_offsets, M->row_offsets, &nnz);
  if (st == STRATA_SUCCESS && (nnz < 0 || nnz > STRATA_SPGEMM_LIMIT))
    st = strata_error_set(STRATA_ERR_INVALID_DATA, "crs_spgemm_symbolic: C would have %lld entries, above 2^62 = %lld",
                          (long long)nnz, (long long)STRATA_SPGEMM_LIMIT);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, M->row_offsets + p->m, &nnz, sizeof nnz);
  M->nnz = p->nnz_c = nnz;
  for (int c = STRATA_SPGEMM_MED_S; c <= STRATA_SPGEMM_MED_L && st == STRATA_SUCCESS && p->b_unique; ++c) {
    /* the medium walk's scratch: the class's widest row of C */
    a.rows = p->rows;
    a.begin = p->bounds[c];
    const int64_t count = p->bounds[c + 1] - p->bounds[c];
    if (count > 0)
      st = strata_parallel_reduce(exec, "strata_spgemm_row_size_max", strata_range(0, count),
                                  &strata_spgemm_row_size_max, &a, STRATA_REDUCE_MAX, &p->nc_max[c]);
  }
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(int32_t), (void **)&M->col_indices);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)nnz * sizeof(double), (void **)&M->values);
  a.c_col = M->col_indices;
  a.c_val = M->values;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES && st == STRATA_SUCCESS; ++c)
    st = launch_class(exec, p, c, STRATA_SPGEMM_FILL, &a);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, M->values, 0, (size_t)nnz * sizeof(double));
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
  strata_sparse_impl_free(exec, tag);
  if (st != STRATA_SUCCESS) {
    strata_spgemm_destroy(&p);
    strata_crs_destroy(&M);
    return st;
  }
  *plan = p;
  *C = M;
  return STRATA_SUCCESS;
}

strata_status_t strata_crs_spgemm_numeric(strata_exec_t *exec, const strata_spgemm_t *plan,
                                          const strata_crs_matrix_t *A, const strata_crs_matrix_t *B,
                                          strata_crs_matrix_t *C) {
  if (!plan || !C)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_spgemm_numeric: NULL %s", plan ? "C" : "plan");
  strata_status_t st = check_pair(&exec, A, B, "crs_spgemm_numeric");
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_exec(&exec, C->exec, "crs_spgemm_numeric");
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_exec(&exec, plan->exec, "crs_spgemm_numeric");
  if (st != STRATA_SUCCESS) return st;
  const strata_spgemm_t *p = plan;
  if (A->num_rows != p->m || A->num_cols != p->k || B->num_cols != p->n || A->nnz != p->nnz_a || B->nnz != p->nnz_b)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_spgemm_numeric: A is %d x %d with %lld entries and B %d x %d with %lld; the plan was "
                            "made for A %d x %d with %lld and B %d x %d with %lld",
                            (int)A->num_rows, (int)A->num_cols, (long long)A->nnz, (int)B->num_rows, (int)B->num_cols,
                            (long long)B->nnz, (int)p->m, (int)p->k, (long long)p->nnz_a, (int)p->k, (int)p->n,
                            (long long)p->nnz_b);
  if (C->num_rows != p->m || C->num_cols != p->n || C->nnz != p->nnz_c)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_spgemm_numeric: C is %d x %d with %lld entries; the plan's C is %d x %d with %lld",
                            (int)C->num_rows, (int)C->num_cols, (long long)C->nnz, (int)p->m, (int)p->n,
                            (long long)p->nnz_c);
  if (p->b_unique && !B->fill_complete)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_spgemm_numeric: B is not fill-complete (repeated or unsorted columns); the plan was "
                            "made for a fill-complete B (the same pattern is needed: make a new plan)");
  strata_spgemm_args_t a;
  args_init(&a, A, B);
  a.c_off = C->row_offsets;
  a.c_col = C->col_indices;
  a.c_val = C->values;
  for (int c = 0; c < STRATA_SPGEMM_NUM_CLASSES && st == STRATA_SUCCESS; ++c)
    st = launch_class(exec, p, c, STRATA_SPGEMM_NUMERIC, &a);
  return st;
}

strata_status_t strata_crs_spgemm(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *B,
                                  strata_crs_matrix_t **C) {
  if (!C) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_spgemm: NULL C");
  strata_spgemm_t *p = NULL;
  strata_status_t st = strata_crs_spgemm_symbolic(exec, A, B, &p, C);
  if (st == STRATA_SUCCESS) st = strata_crs_spgemm_numeric(p->exec, p, A, B, *C);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(p->exec);
  strata_spgemm_destroy(&p);
  if (st != STRATA_SUCCESS) strata_crs_destroy(C);
  return st;
}

strata_status_t strata_crs_galerkin(strata_exec_t *exec, const strata_crs_matrix_t *P, const strata_crs_matrix_t *A,
                                    strata_crs_matrix_t **Ac) {
  if (!Ac) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_galerkin: NULL Ac");
  *Ac = NULL;
  if (!P || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_galerkin: NULL %s", P ? "A" : "P");
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "crs_galerkin: A is %d x %d, not square", (int)A->num_rows,
                            (int)A->num_cols);
  if (P->num_rows != A->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "crs_galerkin: P is %d x %d, A is %d x %d (P's rows must equal A's size)",
                            (int)P->num_rows, (int)P->num_cols, (int)A->num_rows, (int)A->num_cols);
  strata_crs_matrix_t *Pt = NULL, *AP = NULL;
  strata_status_t st = check_pair(&exec, A, P, "crs_galerkin");
  if (st == STRATA_SUCCESS) st = strata_crs_transpose(exec, P, &Pt);
  if (st == STRATA_SUCCESS) st = strata_crs_spgemm(exec, A, P, &AP);
  if (st == STRATA_SUCCESS) st = strata_crs_spgemm(exec, Pt, AP, Ac);
  strata_crs_destroy(&Pt);
  strata_crs_destroy(&AP);
  return st;
}
