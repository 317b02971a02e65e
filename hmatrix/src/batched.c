/* strata hmatrix — the batched dense kernels of <strata/batched.h>: checks on the host, one launch
 * per call (the SVD in chunks when its working copies go to exec memory), and the device error
 * word. Kernels: hmatrix/kernels/batched.kl.c. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "strata/batched.h"

#include "../kernels/batched_args.h"
#include "batched_impl.h"

STRATA_KERNEL_DECLARE(strata_batched_gemm_kernel);
STRATA_KERNEL_DECLARE(strata_batched_qr_kernel);
STRATA_KERNEL_DECLARE(strata_batched_qr_apply_kernel);
STRATA_KERNEL_DECLARE(strata_batched_svd_kernel);
STRATA_KERNEL_DECLARE(strata_batched_rank_kernel);
STRATA_KERNEL_DECLARE(strata_batched_reset_kernel);

/* op(A) staged in GEMM scratch up to this size; SVD working copies in scratch up to this (GPUs) */
#define BT_GEMM_STAGE_BYTES (48u * 1024u)
#define BT_SVD_SCRATCH_GPU_BYTES (100u * 1024u)
/* the SVD's workspace in exec memory, per chunk of the batch */
#define BT_SVD_WORKSPACE_BYTES ((size_t)256 << 20)

#define CHECK(x)                              \
  do {                                        \
    strata_status_t st_ = (x);                \
    if (st_ != STRATA_SUCCESS) return st_;    \
  } while (0)

/* ---------------------------------------------------------------- checks */

static strata_status_t check_dim(const char *what, const char *name, int32_t v, int32_t limit) {
  if (v < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s = %d (must be >= 0)", what, name, (int)v);
  if (v > limit)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s = %d exceeds the limit %d", what, name, (int)v,
                            (int)limit);
  return STRATA_SUCCESS;
}

/* exec, the shape's count and the sizes named in dims ("mnk": which of m, n, k are used) */
static strata_status_t check_shape(strata_exec_t *exec, const char *what, const strata_batched_shape_t *s,
                                   const char *dims) {
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec is NULL", what);
  if (!s) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: shape is NULL", what);
  if (s->count < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: count = %lld (must be >= 0)", what, (long long)s->count);
  if (strchr(dims, 'm')) CHECK(check_dim(what, "m", s->m, STRATA_BATCHED_MAX_DIM));
  if (strchr(dims, 'n')) CHECK(check_dim(what, "n", s->n, STRATA_BATCHED_MAX_DIM));
  if (strchr(dims, 'k')) CHECK(check_dim(what, "k", s->k, STRATA_BATCHED_MAX_DIM));
  return STRATA_SUCCESS;
}

static strata_status_t check_op(const char *what, const char *name, strata_batched_op_t op) {
  if (op != STRATA_BATCHED_N && op != STRATA_BATCHED_T)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s = %d (STRATA_BATCHED_N 0 or STRATA_BATCHED_T 1)", what,
                            name, (int)op);
  return STRATA_SUCCESS;
}

/* One operand of rows × cols (at the bounds) per block: a data pointer when it is used, ld >= rows
 * (or 0), a stride >= 0, and for an output without offsets a stride that keeps the blocks apart. */
static strata_status_t check_blocks(const char *what, const char *name, const strata_batched_blocks_t *x, int64_t count,
                                    int64_t rows, int64_t cols, int used, int output, int vector) {
  if (count == 0 || !used || rows == 0 || cols == 0) return STRATA_SUCCESS;
  if (!x->data) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s.data is NULL", what, name);
  if (!vector && x->ld < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s.ld = %d (must be >= 0; 0: each block's rows)", what,
                            name, (int)x->ld);
  if (!vector && x->ld > 0 && x->ld < rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s.ld = %d is below the rows %lld", what, name,
                            (int)x->ld, (long long)rows);
  if (x->offsets) return STRATA_SUCCESS;
  if (x->stride < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s.stride = %lld (must be >= 0)", what, name,
                            (long long)x->stride);
  const int64_t ld = vector || x->ld == 0 ? rows : x->ld;
  const int64_t span = vector ? rows * cols : ld * (cols - 1) + rows;
  if (output && count > 1 && x->stride < span)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: %s.stride = %lld is below the span of one output block (%lld elements): blocks would "
                            "overlap",
                            what, name, (long long)x->stride, (long long)span);
  return STRATA_SUCCESS;
}

static strata_bt_mat_t mat(const strata_batched_blocks_t *x) {
  strata_bt_mat_t m = {x->data, x->stride, x->offsets, x->ld, 0};
  return m;
}

static strata_bt_dims_t dims(const strata_batched_shape_t *s) {
  strata_bt_dims_t d = {s->m, s->n, s->k, 0, s->m_each, s->n_each, s->k_each};
  return d;
}

/* ---------------------------------------------------------------- the error word */

strata_status_t strata_batched_info_reset(strata_exec_t *exec, int64_t *info) {
  if (!exec || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "batched info reset: exec or info is NULL");
  strata_bt_reset_args_t ra = {info};
  return strata_parallel_for(exec, "strata_batched_info_reset", strata_range(0, 1), &strata_batched_reset_kernel, &ra);
}

strata_status_t strata_batched_info_check(strata_exec_t *exec, const int64_t *info, const char *what,
                                          int64_t *block) {
  if (block) *block = -1;
  if (!exec || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "batched info check: exec or info is NULL");
  int64_t w = STRATA_BT_NONE;
  CHECK(strata_mem_copy(exec, &w, info, sizeof w));
  if (w == STRATA_BT_NONE) return STRATA_SUCCESS;
  const int64_t b = w / 8;
  const int code = (int)(w % 8);
  if (block) *block = b;
  const char *w_ = what ? what : "batched";
  switch (code) {
  case STRATA_BT_NONFINITE:
    return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: block %lld holds a NaN or Inf in an input it reads", w_,
                            (long long)b);
  case STRATA_BT_SIZE:
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: block %lld has a per-block size outside [0, the shape's bound]", w_, (long long)b);
  case STRATA_BT_NOCONV:
    return strata_error_set(STRATA_ERR_NOT_CONVERGED, "%s: the Jacobi SVD of block %lld did not converge in 40 sweeps",
                            w_, (long long)b);
  case STRATA_BT_UNSORTED:
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: the singular values of block %lld are negative, non-finite or not descending", w_,
                            (long long)b);
  case STRATA_BT_REFLECTORS:
    return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: block %lld has more reflectors (k) than rows (m)", w_,
                            (long long)b);
  default:
    return strata_error_set(STRATA_ERR_INTERNAL, "%s: unknown error word %lld", w_, (long long)w);
  }
}

/* The word a call folds into: the caller's, or its own (then the call ends synchronously). */
typedef struct word {
  int64_t *p;
  int own;
} word_t;

static strata_status_t word_begin(strata_exec_t *exec, int64_t *info, word_t *w) {
  w->p = info;
  w->own = info == NULL;
  if (!w->own) return STRATA_SUCCESS;
  CHECK(strata_mem_alloc_async(exec, sizeof(int64_t), (void **)&w->p));
  return strata_batched_info_reset(exec, w->p);
}

static strata_status_t word_end(strata_exec_t *exec, word_t *w, strata_status_t st, const char *what) {
  if (!w->own) return st;
  if (st == STRATA_SUCCESS) st = strata_batched_info_check(exec, w->p, what, NULL);
  strata_mem_free_async(exec, (void **)&w->p);
  return st;
}

/* One launch that folds into the caller's word or its own: a team launch under pol, or (pol
 * NULL) a range launch over [0, range_end). *slot is the args' info field. */
static strata_status_t launch(strata_exec_t *exec, const char *what, int64_t *info, const strata_team_policy_t *pol,
                              int64_t range_end, const strata_kernel_t *kernel, const void *args, int64_t **slot) {
  word_t w;
  CHECK(word_begin(exec, info, &w));
  *slot = w.p;
  strata_status_t st = pol ? strata_parallel_for_team(exec, what, pol, kernel, args)
                           : strata_parallel_for(exec, what, strata_range(0, range_end), kernel, args);
  return word_end(exec, &w, st, what);
}

/* ---------------------------------------------------------------- team shapes */

typedef struct team_shape {
  int host, warp;
  size_t max_scratch;
} team_shape_t;

static strata_status_t team_shape(strata_exec_t *exec, team_shape_t *t) {
  strata_device_info_t info;
  CHECK(strata_exec_device_info(exec, &info));
  t->host = strata_exec_is_host(exec);
  t->warp = t->host || info.warp_size < 1 ? 1 : info.warp_size;
  t->max_scratch = info.max_scratch_bytes;
  return STRATA_SUCCESS;
}

/* host: one thread, one lane; GPU: a warp per team thread, up to 256 lanes, no more threads than
 * the columns (pairs) a block has to hand out */
static strata_team_policy_t team_policy(const team_shape_t *t, int64_t league, int64_t columns) {
  if (t->host) return strata_team_policy(league, 1, 1);
  int64_t ts = 256 / t->warp;
  if (ts < 1) ts = 1;
  if (columns < ts) ts = columns < 1 ? 1 : columns;
  return strata_team_policy(league, (int)ts, t->warp);
}

/* ---------------------------------------------------------------- GEMM / GEMV */

static int gemm_axpy = -1, gemm_stage = -1; /* batched_impl.h */
void strata_impl_batched_gemm_paths(int axpy, int stage) {
  gemm_axpy = axpy;
  gemm_stage = stage;
}

static strata_status_t gemm(strata_exec_t *exec, const char *what, strata_batched_op_t opA, strata_batched_op_t opB,
                            const strata_batched_shape_t *s, double alpha, const strata_batched_blocks_t *A,
                            const strata_batched_blocks_t *B, double beta, const strata_batched_blocks_t *C, int vec,
                            int64_t *info) {
  const int64_t cnt = s->count, m = s->m, n = s->n, k = s->k;
  const int read_ab = alpha != 0.0 && k > 0 && m > 0 && n > 0;
  if (!isfinite(alpha) || !isfinite(beta))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: alpha = %g, beta = %g (must be finite)", what, alpha, beta);
  CHECK(check_blocks(what, "A", A, cnt, opA ? k : m, opA ? m : k, read_ab, 0, 0));
  CHECK(check_blocks(what, vec ? "x" : "B", B, cnt, opB ? n : k, opB ? k : n, read_ab, 0, vec));
  CHECK(check_blocks(what, vec ? "y" : "C", C, cnt, m, n, 1, 1, vec));
  if (cnt == 0 || m == 0 || n == 0) return STRATA_SUCCESS;
  team_shape_t t;
  CHECK(team_shape(exec, &t));
  strata_bt_gemm_args_t ga = {
      .d = dims(s), .opA = opA, .opB = opB, .alpha = alpha, .beta = beta, .A = mat(A), .B = mat(B), .C = mat(C)};
  if (vec) ga.B.ld = ga.C.ld = 0; /* vectors: one column */
  strata_team_policy_t pol = team_policy(&t, cnt, n);
  const size_t stage = sizeof(double) * (size_t)m * (size_t)k;
  const size_t stage_max = gemm_stage == 1 ? t.max_scratch / 2 : BT_GEMM_STAGE_BYTES;
  ga.stage = read_ab && gemm_stage != 0 && stage <= stage_max && stage <= t.max_scratch;
  ga.axpy = t.host && gemm_axpy != 0; /* teams of one lane: a column of m doubles after the stage */
  pol.scratch_team = (ga.stage ? stage : 0) + (ga.axpy ? sizeof(double) * (size_t)m : 0);
  return launch(exec, what, info, &pol, 0, &strata_batched_gemm_kernel, &ga, &ga.info);
}

strata_status_t strata_batched_gemm(strata_exec_t *exec, strata_batched_op_t opA, strata_batched_op_t opB,
                                    const strata_batched_shape_t *shape, double alpha, strata_batched_blocks_t A,
                                    strata_batched_blocks_t B, double beta, strata_batched_blocks_t C,
                                    int64_t *info) {
  const char *what = "strata_batched_gemm";
  CHECK(check_shape(exec, what, shape, "mnk"));
  CHECK(check_op(what, "opA", opA));
  CHECK(check_op(what, "opB", opB));
  return gemm(exec, what, opA, opB, shape, alpha, &A, &B, beta, &C, 0, info);
}

strata_status_t strata_batched_gemv(strata_exec_t *exec, strata_batched_op_t opA, const strata_batched_shape_t *shape,
                                    double alpha, strata_batched_blocks_t A, strata_batched_blocks_t x, double beta,
                                    strata_batched_blocks_t y, int64_t *info) {
  const char *what = "strata_batched_gemv";
  CHECK(check_shape(exec, what, shape, "mn"));
  CHECK(check_op(what, "opA", opA));
  /* y (rows × 1) = α·op(A)·x + β·y: the GEMM of rows × 1 × inner, x an inner × 1 block */
  strata_batched_shape_t g = strata_batched_shape(shape->count, opA ? shape->n : shape->m, 1, opA ? shape->m : shape->n);
  g.m_each = opA ? shape->n_each : shape->m_each;
  g.k_each = opA ? shape->m_each : shape->n_each;
  /* gemm sees op(A) as g.m × g.k: the stored A is m × n either way */
  return gemm(exec, what, opA, STRATA_BATCHED_N, &g, alpha, &A, &x, beta, &y, 1, info);
}

/* ---------------------------------------------------------------- QR */

/* QR with (perm non-NULL) or without column pivoting */
static strata_status_t qr(strata_exec_t *exec, const char *what, const strata_batched_shape_t *shape,
                          const strata_batched_blocks_t *A, const strata_batched_blocks_t *tau, int32_t *perm,
                          int pivot, int64_t *info) {
  CHECK(check_shape(exec, what, shape, "mn"));
  const int64_t cnt = shape->count, m = shape->m, n = shape->n, r = m < n ? m : n;
  CHECK(check_blocks(what, "A", A, cnt, m, n, 1, 1, 0));
  CHECK(check_blocks(what, "tau", tau, cnt, r, 1, 1, 1, 1));
  if (pivot && cnt > 0 && n > 0 && !perm) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: perm is NULL", what);
  if (cnt == 0 || n == 0 || (r == 0 && !pivot)) return STRATA_SUCCESS;
  team_shape_t t;
  CHECK(team_shape(exec, &t));
  strata_bt_qr_args_t qa = {.d = dims(shape), .A = mat(A), .tau = mat(tau), .perm = pivot ? perm : NULL};
  strata_team_policy_t pol = team_policy(&t, cnt, n);
  pol.scratch_team = pivot ? 4 * sizeof(double) * (size_t)n : 0; /* two buffers of the two norms */
  if (pol.scratch_team > t.max_scratch)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: n = %lld needs %zu bytes of team scratch, above the device's %zu",
                            what, (long long)n, pol.scratch_team, t.max_scratch);
  return launch(exec, what, info, &pol, 0, &strata_batched_qr_kernel, &qa, &qa.info);
}

strata_status_t strata_batched_qr(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                  strata_batched_blocks_t tau, int64_t *info) {
  return qr(exec, "strata_batched_qr", shape, &A, &tau, NULL, 0, info);
}

strata_status_t strata_batched_qrcp(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                    strata_batched_blocks_t tau, int32_t *perm, int64_t *info) {
  return qr(exec, "strata_batched_qrcp", shape, &A, &tau, perm, 1, info);
}

strata_status_t strata_batched_qr_apply(strata_exec_t *exec, strata_batched_op_t op, const strata_batched_shape_t *shape,
                                        strata_batched_blocks_t A, strata_batched_blocks_t tau, int form_q,
                                        strata_batched_blocks_t C, int64_t *info) {
  const char *what = "strata_batched_qr_apply";
  CHECK(check_shape(exec, what, shape, "mnk"));
  CHECK(check_op(what, "op", op));
  const int64_t cnt = shape->count, m = shape->m, n = shape->n, k = shape->k;
  if (!shape->k_each && !shape->m_each && k > m)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: k = %lld reflectors exceed the rows m = %lld", what,
                            (long long)k, (long long)m);
  CHECK(check_blocks(what, "A", &A, cnt, m, k, 1, 0, 0));
  CHECK(check_blocks(what, "tau", &tau, cnt, k, 1, 1, 0, 1));
  CHECK(check_blocks(what, "C", &C, cnt, m, n, 1, 1, 0));
  if (cnt == 0 || m == 0 || n == 0) return STRATA_SUCCESS;
  team_shape_t t;
  CHECK(team_shape(exec, &t));
  strata_bt_qr_apply_args_t qa = {
      .d = dims(shape), .op = op, .form_q = form_q != 0, .A = mat(&A), .tau = mat(&tau), .C = mat(&C)};
  strata_team_policy_t pol = team_policy(&t, cnt, n);
  return launch(exec, what, info, &pol, 0, &strata_batched_qr_apply_kernel, &qa, &qa.info);
}

/* ---------------------------------------------------------------- SVD */

strata_status_t strata_batched_svd(strata_exec_t *exec, const strata_batched_shape_t *shape, strata_batched_blocks_t A,
                                   strata_batched_blocks_t S, strata_batched_blocks_t U, strata_batched_blocks_t V,
                                   int64_t *info) {
  const char *what = "strata_batched_svd";
  CHECK(check_shape(exec, what, shape, "mn"));
  const int64_t cnt = shape->count, m = shape->m, n = shape->n, p = m < n ? m : n;
  if (p > STRATA_BATCHED_SVD_MAX_DIM)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: min(m, n) = %lld exceeds the limit %d", what,
                            (long long)p, STRATA_BATCHED_SVD_MAX_DIM);
  CHECK(check_blocks(what, "A", &A, cnt, m, n, 1, 0, 0));
  CHECK(check_blocks(what, "S", &S, cnt, p, 1, 1, 1, 1));
  CHECK(check_blocks(what, "U", &U, cnt, m, p, U.data != NULL, 1, 0));
  CHECK(check_blocks(what, "V", &V, cnt, n, p, V.data != NULL, 1, 0));
  if (cnt == 0 || p == 0) return STRATA_SUCCESS;
  team_shape_t t;
  CHECK(team_shape(exec, &t));
  strata_bt_svd_args_t sa = {.d = dims(shape), .A = mat(&A), .S = mat(&S), .U = mat(&U), .V = mat(&V)};
  /* sig [p], off [(p + 1) / 2 + 1] doubles, pos [p] int32, rounded to 16 bytes */
  const size_t small = ((sizeof(double) * (size_t)(p + (p + 1) / 2 + 1) + sizeof(int32_t) * (size_t)p) + 15) / 16 * 16;
  const size_t work = sizeof(double) * (size_t)(m * n + p * p);
  const size_t budget = t.host ? t.max_scratch : (t.max_scratch < BT_SVD_SCRATCH_GPU_BYTES ? t.max_scratch
                                                                                          : BT_SVD_SCRATCH_GPU_BYTES);
  const int in_scratch = small + work <= budget;
  sa.small_bytes = (int64_t)small;
  int64_t chunk = cnt;
  if (!in_scratch) {
    chunk = (int64_t)(BT_SVD_WORKSPACE_BYTES / work);
    if (chunk < 1) chunk = 1;
    if (chunk > cnt) chunk = cnt;
    sa.ws_stride = (int64_t)(work / sizeof(double));
  }
  word_t w;
  CHECK(word_begin(exec, info, &w));
  sa.info = w.p;
  strata_status_t st = STRATA_SUCCESS;
  if (!in_scratch) st = strata_mem_alloc_async(exec, work * (size_t)chunk, (void **)&sa.ws);
  for (int64_t first = 0; first < cnt && st == STRATA_SUCCESS; first += chunk) {
    sa.first = first;
    strata_team_policy_t pol = team_policy(&t, cnt - first < chunk ? cnt - first : chunk, (p + 1) / 2);
    pol.scratch_team = in_scratch ? small + work : small;
    st = strata_parallel_for_team(exec, what, &pol, &strata_batched_svd_kernel, &sa);
  }
  if (sa.ws) strata_mem_free_async(exec, (void **)&sa.ws);
  return word_end(exec, &w, st, what);
}

strata_status_t strata_batched_svd_rank(strata_exec_t *exec, const strata_batched_shape_t *shape,
                                        strata_batched_blocks_t S, double tol, strata_batched_rank_norm_t norm,
                                        int relative, int32_t *ranks, int64_t *info) {
  const char *what = "strata_batched_svd_rank";
  CHECK(check_shape(exec, what, shape, "n"));
  if (!(tol >= 0.0) || !isfinite(tol))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: tol = %g (must be >= 0 and finite)", what, tol);
  if (norm != STRATA_BATCHED_RANK_2 && norm != STRATA_BATCHED_RANK_FRO)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: norm = %d (STRATA_BATCHED_RANK_2 0 or STRATA_BATCHED_RANK_FRO 1)", what, (int)norm);
  const int64_t cnt = shape->count;
  CHECK(check_blocks(what, "S", &S, cnt, shape->n, 1, 1, 0, 1));
  if (cnt > 0 && !ranks) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: ranks is NULL", what);
  if (cnt == 0) return STRATA_SUCCESS;
  strata_bt_rank_args_t ra = {.d = dims(shape),
                              .S = mat(&S),
                              .tol = tol,
                              .fro = norm == STRATA_BATCHED_RANK_FRO,
                              .relative = relative != 0,
                              .ranks = ranks};
  return launch(exec, what, info, NULL, cnt, &strata_batched_rank_kernel, &ra, &ra.info);
}
