/* strata hmatrix — recompression of an H² matrix in place (strata_h2_compress, strata/hmatrix.h):
 * orthogonalization up the tree, weights down, truncation up, projection of the coupling blocks.
 * Host code computes the block shapes and offsets of each level (tree metadata only) and runs the
 * batched kernels of <strata/batched.h> plus the marshaling kernels of h2_compress.kl.c; the
 * numbers never leave the device until the ranks are read back at the end. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/h2_compress_args.h"
#include "h2_impl.h"
#include "strata/batched.h"
#include "strata/hmatrix.h"

STRATA_KERNEL_DECLARE(strata_h2c_extract_r);
STRATA_KERNEL_DECLARE(strata_h2c_stack_re);
STRATA_KERNEL_DECLARE(strata_h2c_scatter_e);
STRATA_KERNEL_DECLARE(strata_h2c_stack_w);
STRATA_KERNEL_DECLARE(strata_h2c_qrcp_rank);
STRATA_KERNEL_DECLARE(strata_h2c_stack_est);
STRATA_KERNEL_DECLARE(strata_h2c_transpose);
STRATA_KERNEL_DECLARE(strata_h2c_sumsq);

/* nominal flop counts (the contract of strata_h2_compress) */
static double fl_qr(double m, double n) { return m >= n ? 2 * m * n * n - 2 * n * n * n / 3 : 2 * n * m * m - 2 * m * m * m / 3; }
static double fl_q(double m, double r) { return 2 * m * r * r - 2 * r * r * r / 3; }

/* the rows of each node's weight stack of level l in round r (entries [r·cmax, (r+1)·cmax) of its
 * list: its row's blocks, per = 2: and their transposes), their offsets (rows·K doubles each);
 * returns the level's total doubles */
static int64_t weight_rows(const strata_h2_tree_t *T, int32_t l, int32_t lmin, int64_t r, int64_t cmax, int64_t K, int per,
                           int32_t *rows, int64_t *off) {
  const int64_t first = ((int64_t)1 << l) - 1, count = (int64_t)1 << l;
  const int64_t head = r > 0 || l > lmin ? K : 0;
  int64_t tot = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t q = per * (T->coupling_row_ptr[first + i + 1] - T->coupling_row_ptr[first + i]);
    int64_t nb = q - r * cmax;
    nb = nb < 0 ? 0 : nb > cmax ? cmax : nb;
    rows[i] = (int32_t)(head + nb * K);
    off[i] = tot;
    tot += (head + nb * K) * K;
  }
  return tot;
}

static int64_t weight_rounds(const strata_h2_tree_t *T, int32_t l, int64_t cmax, int per) {
  const int64_t first = ((int64_t)1 << l) - 1, count = (int64_t)1 << l;
  int64_t qmax = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int64_t q = per * (T->coupling_row_ptr[first + i + 1] - T->coupling_row_ptr[first + i]);
    if (q > qmax) qmax = q;
  }
  return qmax <= cmax ? 1 : (qmax + cmax - 1) / cmax;
}

/* U + E + S doubles of a per-level layout with ranks r[l] */
static size_t lowrank_bytes(const strata_h2_tree_t *T, int32_t lmin, const int32_t *r) {
  double b = (double)T->n * r[T->depth];
  for (int32_t l = lmin; l <= T->depth; ++l) {
    const int64_t first = ((int64_t)1 << l) - 1;
    const double nc = (double)(T->coupling_row_ptr[2 * first + 1] - T->coupling_row_ptr[first]);
    b += nc * r[l] * r[l];
    if (l > lmin) b += (double)((int64_t)1 << l) * r[l] * r[l - 1];
  }
  return (size_t)(8.0 * b);
}

static strata_team_policy_t policy(const strata_h2_matrix_t *A, int64_t league) {
  return strata_team_policy(league, A->host ? 1 : STRATA_AUTO, A->host ? 1 : A->warp);
}

static strata_status_t dalloc(strata_exec_t *exec, size_t bytes, void *p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)p);
}

/* the coupling blocks S_ts <- op(M_t) S_ts op(M_s)ᵀ for every block (M: per-node K x K at
 * M + g·KK; crow / ccol: [blocks] offsets of the row's and the column's M). Column-major S holds
 * S_tsᵀ, so Sᵀ <- op(M_s) Sᵀ op(M_t)ᵀ: two batched GEMMs through tmp */
static strata_status_t project(strata_exec_t *exec, const strata_h2_matrix_t *A, strata_batched_op_t op, double *M,
                               const int64_t *crow, const int64_t *ccol, double *tmp, int64_t *info) {
  const int32_t K = A->k;
  const int64_t KK = (int64_t)K * K;
  const strata_batched_shape_t sh = strata_batched_shape(A->tree->num_coupling, K, K, K);
  strata_status_t st = strata_batched_gemm(exec, op, STRATA_BATCHED_N, &sh, 1.0, strata_batched_at(M, K, ccol),
                                           strata_batched_strided(A->S, K, KK), 0.0, strata_batched_strided(tmp, K, KK), info);
  if (st) return st;
  return strata_batched_gemm(exec, STRATA_BATCHED_N, op == STRATA_BATCHED_N ? STRATA_BATCHED_T : STRATA_BATCHED_N, &sh, 1.0,
                             strata_batched_strided(tmp, K, KK), strata_batched_at(M, K, crow), 0.0,
                             strata_batched_strided(A->S, K, KK), info);
}

/* count blocks B_i (m × K at B + i·stride, leading dimension ld) of the nodes first.. : pivoted QR,
 * rank[first + i] by the Frobenius tail rule (tol2 = τ²), Q_i's first rank columns to Q_i (m × K at
 * Q + i·m·K, leading dimension m; its other columns 0) */
static strata_status_t truncate(strata_exec_t *exec, const strata_h2_matrix_t *A, int64_t count, int64_t first, int32_t m,
                                double *B, int32_t ld, int64_t stride, double *tau, int32_t *perm, double *tail,
                                int32_t *rank, double tol2, double *Q, int64_t *info) {
  const int32_t K = A->k;
  const strata_batched_shape_t sh = strata_batched_shape(count, m, K, 0);
  strata_status_t st = strata_batched_qrcp(exec, &sh, strata_batched_strided(B, ld, stride), strata_batched_strided(tau, 0, K), perm, info);
  if (st) return st;
  strata_h2c_rank_args_t ra = {first, stride, ld, m, K, tol2, B, tail, rank};
  const strata_team_policy_t pol = policy(A, count);
  st = strata_parallel_for_team(exec, "strata_h2c_qrcp_rank", &pol, &strata_h2c_qrcp_rank, &ra);
  if (st) return st;
  st = strata_mem_set_async(exec, Q, 0, (size_t)(count * m * K) * sizeof(double)); /* columns >= rank stay 0 */
  if (st) return st;
  strata_batched_shape_t sq = strata_batched_shape(count, m, K, K);
  sq.n_each = sq.k_each = rank + first;
  return strata_batched_qr_apply(exec, STRATA_BATCHED_N, &sq, strata_batched_strided(B, ld, stride), strata_batched_strided(tau, 0, K), 1,
                                 strata_batched_strided(Q, m, (int64_t)m * K), info);
}

strata_status_t strata_h2_get_compress_info(const strata_h2_matrix_t *A, strata_h2_compress_info_t *info) {
  if (!A || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_get_compress_info: NULL argument");
  *info = A->compressed;
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_compress(strata_exec_t *exec, strata_h2_matrix_t *A, double eps, strata_h2_compress_info_t *info) {
  if (!exec || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_compress: NULL exec or matrix");
  if (strata_exec_backend(exec) != A->backend)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_compress: exec of backend %s, the matrix lives on backend %s",
                            strata_backend_name(strata_exec_backend(exec)), strata_backend_name(A->backend));
  if (!(eps > 0.0) || !isfinite(eps))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_compress: eps = %g (must be finite and > 0)", eps);
  const strata_h2_tree_t *T = A->tree;
  const int64_t n = T->n, nn = T->num_nodes, nl = T->num_leaves, nc = T->num_coupling, K = A->k, KK = K * K;
  const int32_t L = T->depth;
  if (K > STRATA_BATCHED_MAX_DIM / 2) /* the parents' stacks are 2k x k */
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_compress: rank k = %lld (cheb^dim) exceeds the limit %d",
                            (long long)K, STRATA_BATCHED_MAX_DIM / 2);
  if (A->leaf_max > STRATA_BATCHED_MAX_DIM)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_compress: a leaf of %lld points exceeds the limit %d",
                            (long long)A->leaf_max, STRATA_BATCHED_MAX_DIM);
  const double t0 = strata_timer_now();
  strata_h2_compress_info_t ci;
  memset(&ci, 0, sizeof ci);
  ci.eps = eps;
  ci.levels = L + 1;
  int32_t lmin = 0;
  if (nc > 0)
    while (T->coupling_row_ptr[((int64_t)2 << lmin) - 1] == 0) ++lmin;
  if (nc > 0) {
    for (int32_t l = lmin; l <= L && l < 64; ++l)
      ci.rank_before[l] = A->compressed.eps > 0.0 ? A->compressed.rank_after[l] : (int32_t)K;
    ci.bytes_lowrank_before = lowrank_bytes(T, lmin, ci.rank_before);
  }
  if (n == 0 || nc == 0) {
    ci.seconds = strata_timer_now() - t0;
    A->compressed = ci;
    if (info) *info = ci;
    return STRATA_SUCCESS;
  }
  const size_t f8 = sizeof(double), i8 = sizeof(int64_t), i4 = sizeof(int32_t);
  const int64_t cmax = STRATA_BATCHED_MAX_DIM / K - 1; /* coupling blocks per weight round: >= 3 */
  const int64_t fl = nl - 1;
  /* the built-in kernels are symmetric (S_st = S_tsᵀ): a node's row content is also its column
     content; a user kernel may not be, and its weights take both (the transposed blocks) */
  const int per = A->kind == STRATA_H2_USER ? 2 : 1;
  strata_status_t st = STRATA_SUCCESS;
  double flops = 0.0;
  /* host metadata */
  int32_t *h_m = (int32_t *)malloc((size_t)nl * i4), *h_rk = (int32_t *)malloc((size_t)nn * i4);
  int32_t *h_rows = (int32_t *)malloc((size_t)nn * i4), *h_r = (int32_t *)malloc((size_t)nn * i4);
  int64_t *h_uoff = (int64_t *)malloc((size_t)nl * i8), *h_off = (int64_t *)malloc((size_t)nn * i8);
  int64_t *h_crow = (int64_t *)malloc((size_t)nc * i8), *h_ccol = (int64_t *)malloc((size_t)nc * i8);
  int64_t *h_btr = (int64_t *)malloc((size_t)nc * i8);
  /* device */
  int32_t *d_m = NULL, *d_rk = NULL, *d_rows = NULL, *d_r = NULL;
  int32_t *perm = NULL;
  int64_t *d_uoff = NULL, *d_off = NULL, *d_crow = NULL, *d_ccol = NULL, *d_btr = NULL, *d_info = NULL;
  double *R = NULL, *W = NULL, *P = NULL, *tau = NULL, *sv = NULL, *Uo = NULL, *tmpS = NULL, *b1 = NULL, *b2 = NULL,
         *b3 = NULL, *b4 = NULL, *bM = NULL;
  if (!h_m || !h_rk || !h_rows || !h_r || !h_uoff || !h_off || !h_crow || !h_ccol || !h_btr) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_compress: host metadata of %lld nodes", (long long)nn);
    goto done;
  }
  int64_t mbuf = 0; /* the largest weight stack of a level and round */
  for (int32_t l = lmin; l <= L; ++l)
    for (int64_t r = 0, nr = weight_rounds(T, l, cmax, per); r < nr; ++r) {
      const int64_t t = weight_rows(T, l, lmin, r, cmax, K, per, h_rows, h_off);
      if (t > mbuf) mbuf = t;
    }
  for (int64_t i = 0; i < nl; ++i) {
    const int64_t g = fl + i, m = T->node_end[g] - T->node_begin[g];
    h_m[i] = (int32_t)m;
    h_uoff[i] = T->node_begin[g] * K;
    h_rk[g] = (int32_t)(m < K ? m : K);
  }
  for (int32_t l = L - 1; l >= 0; --l)
    for (int64_t g = ((int64_t)1 << l) - 1; g < ((int64_t)2 << l) - 1; ++g) {
      const int64_t s = (int64_t)h_rk[2 * g + 1] + h_rk[2 * g + 2];
      h_rows[g] = (int32_t)s;
      h_rk[g] = (int32_t)(s < K ? s : K);
    }
  for (int64_t g = 0; g < nn; ++g)
    for (int64_t b = T->coupling_row_ptr[g]; b < T->coupling_row_ptr[g + 1]; ++b) {
      h_crow[b] = g * KK;
      h_ccol[b] = T->coupling_cols[b] * KK;
      const int64_t s = T->coupling_cols[b]; /* the block (s, g): the block tree is symmetric */
      h_btr[b] = -1;
      for (int64_t c = T->coupling_row_ptr[s]; c < T->coupling_row_ptr[s + 1] && h_btr[b] < 0; ++c)
        if (T->coupling_cols[c] == g) h_btr[b] = c;
      if (h_btr[b] < 0 && per == 2) {
        st = strata_error_set(STRATA_ERR_INTERNAL, "strata_h2_compress: coupling block (%lld, %lld) has no transpose", (long long)g, (long long)s);
        goto done;
      }
    }
  CHECK(dalloc(exec, (size_t)nl * i4, &d_m));
  CHECK(dalloc(exec, (size_t)nn * i4, &d_rk));
  CHECK(dalloc(exec, (size_t)nl * i4, &d_rows));
  CHECK(dalloc(exec, (size_t)nn * i4, &d_r));
  CHECK(dalloc(exec, (size_t)(nl * K) * i4, &perm));
  CHECK(dalloc(exec, (size_t)nl * i8, &d_uoff));
  CHECK(dalloc(exec, (size_t)nl * i8, &d_off));
  CHECK(dalloc(exec, (size_t)nc * i8, &d_crow));
  CHECK(dalloc(exec, (size_t)nc * i8, &d_ccol));
  if (per == 2) CHECK(dalloc(exec, (size_t)nc * i8, &d_btr));
  CHECK(dalloc(exec, i8, &d_info));
  CHECK(dalloc(exec, (size_t)(nn * KK) * f8, &R));
  CHECK(dalloc(exec, (size_t)(nn * KK) * f8, &W));
  CHECK(dalloc(exec, (size_t)(nn * KK) * f8, &P));
  CHECK(dalloc(exec, (size_t)(nl * K) * f8, &tau));
  CHECK(dalloc(exec, (size_t)(nl * K) * f8, &sv));
  CHECK(dalloc(exec, (size_t)(n * K) * f8, &Uo));
  CHECK(dalloc(exec, (size_t)(nc * KK) * f8, &tmpS));
  CHECK(dalloc(exec, (size_t)(nl * KK) * f8, &b1));
  CHECK(dalloc(exec, (size_t)(nl * KK) * f8, &b2));
  CHECK(dalloc(exec, (size_t)(nl * KK) * f8, &b3));
  CHECK(dalloc(exec, (size_t)(nl * KK) * f8, &b4));
  CHECK(dalloc(exec, (size_t)(mbuf > 0 ? mbuf : 1) * f8, &bM));
  CHECK(strata_mem_copy(exec, d_m, h_m, (size_t)nl * i4));
  CHECK(strata_mem_copy(exec, d_rk, h_rk, (size_t)nn * i4));
  CHECK(strata_mem_copy(exec, d_uoff, h_uoff, (size_t)nl * i8));
  CHECK(strata_mem_copy(exec, d_crow, h_crow, (size_t)nc * i8));
  CHECK(strata_mem_copy(exec, d_ccol, h_ccol, (size_t)nc * i8));
  if (per == 2) CHECK(strata_mem_copy(exec, d_btr, h_btr, (size_t)nc * i8));
  CHECK(strata_batched_info_reset(exec, d_info));
  const int32_t mleaf = (int32_t)A->leaf_max, k32 = (int32_t)K;
  strata_batched_blocks_t none;
  memset(&none, 0, sizeof none);

  /* 1. orthogonalization: leaves U = Q R (Q to Uo), then the levels up to l_min */
  {
    strata_batched_shape_t sh = strata_batched_shape(nl, mleaf, k32, k32);
    sh.m_each = d_m;
    CHECK(strata_batched_qr(exec, &sh, strata_batched_at(A->U, 0, d_uoff), strata_batched_strided(tau, 0, K), d_info));
    strata_h2c_extract_args_t ea = {fl, k32, d_uoff, d_m, A->U, R};
    CHECK(strata_parallel_for(exec, "strata_h2c_extract_r", strata_range(0, nl * KK), &strata_h2c_extract_r, &ea));
    CHECK(strata_mem_set_async(exec, Uo, 0, (size_t)(n * K) * f8));
    sh.n_each = sh.k_each = d_rk + fl;
    CHECK(strata_batched_qr_apply(exec, STRATA_BATCHED_N, &sh, strata_batched_at(A->U, 0, d_uoff), strata_batched_strided(tau, 0, K), 1,
                                  strata_batched_at(Uo, 0, d_uoff), d_info));
    for (int64_t i = 0; i < nl; ++i) flops += fl_qr(h_m[i], (double)K) + fl_q(h_m[i], h_rk[fl + i]);
  }
  for (int32_t l = L - 1; l >= lmin; --l) {
    const int64_t first = ((int64_t)1 << l) - 1, np = (int64_t)1 << l;
    int64_t tot = 0;
    for (int64_t i = 0; i < np; ++i) {
      h_off[i] = tot;
      tot += (int64_t)h_rows[first + i] * K;
      flops += 2.0 * h_rows[first + i] * KK + fl_qr(h_rows[first + i], (double)K) + fl_q(h_rows[first + i], h_rk[first + i]);
    }
    CHECK(strata_mem_copy(exec, d_rows, h_rows + first, (size_t)np * i4));
    CHECK(strata_mem_copy(exec, d_off, h_off, (size_t)np * i8));
    strata_h2c_stack_re_args_t sa = {first, k32, d_rk, d_off, R, A->E, b1};
    strata_team_policy_t pol = policy(A, np);
    CHECK(strata_parallel_for_team(exec, "strata_h2c_stack_re", &pol, &strata_h2c_stack_re, &sa));
    strata_batched_shape_t sh = strata_batched_shape(np, 2 * k32, k32, k32);
    sh.m_each = d_rows;
    CHECK(strata_batched_qr(exec, &sh, strata_batched_at(b1, 0, d_off), strata_batched_strided(tau, 0, K), d_info));
    strata_h2c_extract_args_t ea = {first, k32, d_off, d_rows, b1, R};
    CHECK(strata_parallel_for(exec, "strata_h2c_extract_r", strata_range(0, np * KK), &strata_h2c_extract_r, &ea));
    sh.n_each = sh.k_each = d_rk + first;
    CHECK(strata_batched_qr_apply(exec, STRATA_BATCHED_N, &sh, strata_batched_at(b1, 0, d_off), strata_batched_strided(tau, 0, K), 1,
                                  strata_batched_at(b2, 0, d_off), d_info));
    strata_h2c_scatter_args_t ca = {2 * first + 1, 0, k32, 0, d_rk, d_rk, d_off, b2, A->E};
    CHECK(strata_parallel_for(exec, "strata_h2c_scatter_e", strata_range(0, 2 * np * KK), &strata_h2c_scatter_e, &ca));
  }
  /* S_ts <- R_t S_ts R_sᵀ; column-major S holds S_tsᵀ, so Sᵀ <- R_s Sᵀ R_tᵀ */
  CHECK(project(exec, A, STRATA_BATCHED_N, R, d_crow, d_ccol, tmpS, d_info));
  flops += 4.0 * (double)nc * (double)KK * (double)K;
  CHECK(strata_batched_info_check(exec, d_info, "strata_h2_compress (orthogonalization)", NULL));

  /* 2. ‖A‖_F and the node tolerance */
  {
    double s1 = 0.0, s2 = 0.0;
    strata_h2c_sumsq_args_t qa = {A->S};
    CHECK(strata_parallel_reduce(exec, "strata_h2c_sumsq", strata_range(0, nc * KK), &strata_h2c_sumsq, &qa, STRATA_REDUCE_SUM, &s1));
    qa.x = A->D;
    CHECK(strata_parallel_reduce(exec, "strata_h2c_sumsq", strata_range(0, T->dense_offsets[T->num_dense]), &strata_h2c_sumsq, &qa,
                                 STRATA_REDUCE_SUM, &s2));
    ci.norm_estimate = sqrt(s1 + s2);
    const double nodes = (double)(((int64_t)2 << L) - ((int64_t)1 << lmin));
    ci.node_tol = eps * ci.norm_estimate / sqrt(2.0 * nodes);
  }
  const double tol2 = ci.node_tol * ci.node_tol;

  /* 3. weights down the tree: W_t = R of [W_parent E_tᵀ; S_tsᵀ ...], in rounds of cmax blocks */
  for (int32_t l = lmin; l <= L; ++l) {
    const int64_t first = ((int64_t)1 << l) - 1, count = (int64_t)1 << l;
    for (int64_t r = 0, nr = weight_rounds(T, l, cmax, per); r < nr; ++r) {
      weight_rows(T, l, lmin, r, cmax, K, per, h_rows, h_off);
      for (int64_t i = 0; i < count; ++i) flops += fl_qr(h_rows[i], (double)K) + (r == 0 && l > lmin ? 2.0 * KK * K : 0.0);
      CHECK(strata_mem_copy(exec, d_rows, h_rows, (size_t)count * i4));
      CHECK(strata_mem_copy(exec, d_off, h_off, (size_t)count * i8));
      strata_h2c_stack_w_args_t wa = {first, r * cmax, k32, r > 0 || l > lmin, r == 0 && l > lmin, d_rows, d_off,
                                      A->coupling_row_ptr, d_btr, W, A->E, A->S, bM};
      strata_team_policy_t pol = policy(A, count);
      CHECK(strata_parallel_for_team(exec, "strata_h2c_stack_w", &pol, &strata_h2c_stack_w, &wa));
      strata_batched_shape_t sh = strata_batched_shape(count, (int32_t)((1 + cmax) * K), k32, k32);
      sh.m_each = d_rows;
      CHECK(strata_batched_qr(exec, &sh, strata_batched_at(bM, 0, d_off), strata_batched_strided(tau, 0, K), d_info));
      strata_h2c_extract_args_t ea = {first, k32, d_off, d_rows, bM, W};
      CHECK(strata_parallel_for(exec, "strata_h2c_extract_r", strata_range(0, count * KK), &strata_h2c_extract_r, &ea));
    }
  }

  /* 4. truncation up the tree by pivoted QR of the weighted bases: node t keeps the first r_t
     columns of Q, r_t the fewest whose discarded ‖R(r:, r:)‖_F is <= τ; P_t (old basis -> new) */
  {
    strata_h2c_transpose_args_t xa = {k32, W + fl * KK, b1}; /* W_tᵀ: its columns span t's row content */
    CHECK(strata_parallel_for(exec, "strata_h2c_transpose", strata_range(0, nl * KK), &strata_h2c_transpose, &xa));
    CHECK(truncate(exec, A, nl, fl, k32, b1, k32, KK, tau, perm, sv, d_r, tol2, P + fl * KK, d_info));
    strata_batched_shape_t sg = strata_batched_shape(nl, mleaf, k32, k32);
    sg.m_each = d_m;
    CHECK(strata_batched_gemm(exec, STRATA_BATCHED_N, STRATA_BATCHED_N, &sg, 1.0, strata_batched_at(Uo, 0, d_uoff),
                              strata_batched_strided(P + fl * KK, k32, KK), 0.0, strata_batched_at(A->U, 0, d_uoff), d_info));
    flops += (double)nl * fl_qr((double)K, (double)K) + 2.0 * (double)n * (double)KK; /* + the Qs, below */
  }
  for (int32_t l = L - 1; l >= lmin; --l) {
    const int64_t first = ((int64_t)1 << l) - 1, np = (int64_t)1 << l, fc = 2 * first + 1;
    const strata_batched_shape_t se = strata_batched_shape(2 * np, k32, k32, k32);
    CHECK(strata_batched_gemm(exec, STRATA_BATCHED_T, STRATA_BATCHED_T, &se, 1.0, strata_batched_strided(P + fc * KK, k32, KK),
                              strata_batched_strided(A->E + (fc - 1) * KK, k32, KK), 0.0, strata_batched_strided(b1, k32, KK), d_info));
    strata_h2c_stack_est_args_t sa = {first, k32, d_r, b1, b2};
    CHECK(strata_parallel_for(exec, "strata_h2c_stack_est", strata_range(0, np * 2 * KK), &strata_h2c_stack_est, &sa));
    const strata_batched_shape_t sw = strata_batched_shape(np, 2 * k32, k32, k32);
    CHECK(strata_batched_gemm(exec, STRATA_BATCHED_N, STRATA_BATCHED_T, &sw, 1.0, strata_batched_strided(b2, 2 * k32, 2 * KK),
                              strata_batched_strided(W + first * KK, k32, KK), 0.0, strata_batched_strided(b3, 2 * k32, 2 * KK), d_info));
    CHECK(truncate(exec, A, np, first, 2 * k32, b3, 2 * k32, 2 * KK, tau, perm, sv, d_r, tol2, b4, d_info));
    strata_h2c_scatter_args_t ca = {fc, 2 * KK, k32, 2 * k32, d_r, d_r, NULL, b4, A->E};
    CHECK(strata_parallel_for(exec, "strata_h2c_scatter_e", strata_range(0, 2 * np * KK), &strata_h2c_scatter_e, &ca));
    const strata_batched_shape_t sp = strata_batched_shape(np, k32, k32, 2 * k32);
    CHECK(strata_batched_gemm(exec, STRATA_BATCHED_T, STRATA_BATCHED_N, &sp, 1.0, strata_batched_strided(b2, 2 * k32, 2 * KK),
                              strata_batched_strided(b4, 2 * k32, 2 * KK), 0.0, strata_batched_strided(P + first * KK, k32, KK), d_info));
    flops += (double)np * (3.0 * 2.0 * 2.0 * KK * K + fl_qr(2.0 * K, (double)K)); /* + the Qs, below */
  }
  /* 5. S_ts <- P_tᵀ S_ts P_s; column-major: Sᵀ <- P_sᵀ Sᵀ P_t */
  CHECK(project(exec, A, STRATA_BATCHED_T, P, d_crow, d_ccol, tmpS, d_info));
  flops += 4.0 * (double)nc * (double)KK * (double)K;
  CHECK(strata_batched_info_check(exec, d_info, "strata_h2_compress", NULL));
  CHECK(strata_mem_copy(exec, h_r, d_r, (size_t)nn * i4));
  for (int32_t l = lmin; l <= L && l < 64; ++l)
    for (int64_t g = ((int64_t)1 << l) - 1; g < ((int64_t)2 << l) - 1; ++g) {
      if (h_r[g] > ci.rank_after[l]) ci.rank_after[l] = h_r[g];
      flops += fl_q(l == L ? (double)K : 2.0 * K, h_r[g]); /* the truncation's explicit Q, rank columns */
    }
  ci.bytes_lowrank_after = lowrank_bytes(T, lmin, ci.rank_after);
  ci.flops = flops;
  ci.seconds = strata_timer_now() - t0;
  A->compressed = ci;
  if (info) *info = ci;
done:
  free(h_m);
  free(h_rk);
  free(h_rows);
  free(h_r);
  free(h_uoff);
  free(h_off);
  free(h_crow);
  free(h_ccol);
  free(h_btr);
  void **ptrs[] = {(void **)&d_m, (void **)&d_rk, (void **)&d_rows, (void **)&d_r, (void **)&perm, (void **)&d_uoff, (void **)&d_off,
                   (void **)&d_crow, (void **)&d_ccol, (void **)&d_btr, (void **)&d_info, (void **)&R, (void **)&W, (void **)&P,
                   (void **)&tau, (void **)&sv, (void **)&Uo, (void **)&tmpS, (void **)&b1, (void **)&b2, (void **)&b3,
                   (void **)&b4, (void **)&bM};
  strata_exec_fence(exec);
  for (size_t q = 0; q < sizeof ptrs / sizeof ptrs[0]; ++q) strata_mem_free(exec, STRATA_MEM_DEVICE, ptrs[q]);
  return st;
}
