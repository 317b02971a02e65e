/* strata hmatrix — construction of an H² matrix on the device, its matrix-vector product and the
 * exact-row check (strata/hmatrix.h). Host code orchestrates; the kernels are hmatrix/kernels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/h2_args.h"
#include "strata/hmatrix.h"
#include "strata/hmatrix_args.h"
#include "h2_impl.h"

STRATA_KERNEL_DECLARE(strata_h2_build_basis);
STRATA_KERNEL_DECLARE(strata_h2_build_transfer);
STRATA_H2_USER_KERNEL_DECLARE(strata_h2_builtin);
STRATA_KERNEL_DECLARE(strata_h2_gather);
STRATA_KERNEL_DECLARE(strata_h2_upsweep_leaf);
STRATA_KERNEL_DECLARE(strata_h2_upsweep_transfer);
STRATA_KERNEL_DECLARE(strata_h2_coupling_mv);
STRATA_KERNEL_DECLARE(strata_h2_downsweep);
STRATA_KERNEL_DECLARE(strata_h2_leaf_basis);
STRATA_KERNEL_DECLARE(strata_h2_leaf_product);
STRATA_KERNEL_DECLARE(strata_h2_combine);

/* bytes of exec memory holding a copy of host (NULL for 0 bytes), counted in A's index bytes */
static strata_status_t upload(strata_h2_matrix_t *A, const void *host, size_t bytes, void *dev) {
  void **d = (void **)dev;
  strata_status_t st = strata_mem_alloc(A->exec, STRATA_MEM_DEVICE, bytes, d);
  if (!st && bytes) st = strata_mem_copy(A->exec, *d, host, bytes);
  A->bytes_index += bytes;
  return st;
}

int strata_impl_h2_dense_map = 0;

static strata_status_t dev_alloc(strata_h2_matrix_t *A, size_t count, double **d) {
  return strata_mem_alloc(A->exec, STRATA_MEM_DEVICE, count * sizeof(double), (void **)d);
}

static strata_team_policy_t team_policy(const strata_h2_matrix_t *A, int64_t league) {
  return strata_team_policy(league, A->host ? 1 : STRATA_AUTO, A->host ? 1 : A->warp);
}

/* The matvec's batched phases on GPUs: teams of H2_TEAM_LANES lanes taking several nodes of a level
 * each, so that a node's few outputs (k x nv) do not leave most of a team idle. group: the lanes of
 * a team thread that share one output's sum (H2_GROUP: 2 lanes, each over every other entry of a
 * row; 2, 4 and 8 measured in perf/NOTES.md), or 1 for one output per lane (then the warp's lanes
 * are one thread's). Host backends: one node a team of one. Sets *per_team, the nodes of one team. */
#define H2_TEAM_LANES 256
#define H2_GROUP 2
/* GPUs: the dense product maps a leaf's blocks' columns in team scratch (12 bytes each) up to this
 * many columns (24 KiB), above it loops block by block */
#define H2_DENSE_MAP_MAX 2048
static strata_team_policy_t batch_policy(const strata_h2_matrix_t *A, int64_t nodes, int64_t outs, int group,
                                         int32_t *per_team) {
  if (A->host) {
    *per_team = 1;
    return strata_team_policy(nodes, 1, 1);
  }
  const int vl = group == 1 || group > A->warp ? A->warp : group, ts = H2_TEAM_LANES / vl > 0 ? H2_TEAM_LANES / vl : 1;
  const int64_t slots = group == 1 ? (int64_t)ts * vl : ts, pt = slots / outs > 1 ? slots / outs : 1;
  *per_team = (int32_t)pt;
  return strata_team_policy((nodes + pt - 1) / pt, ts, vl);
}

strata_status_t strata_h2_options_default(int32_t dim, strata_h2_options_t *opts) {
  if (!opts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_options_default: NULL opts");
  memset(opts, 0, sizeof *opts);
  opts->leaf = 64;
  opts->cheb = dim == 3 ? 5 : 8;
  opts->eta = 1.0;
  opts->kernel = STRATA_H2_EXP;
  opts->length = 1.0;
  opts->user = NULL;
  opts->overlap = STRATA_H2_OVERLAP_AUTO;
  return STRATA_SUCCESS;
}

static strata_status_t check_options(strata_exec_t *exec, const strata_h2_options_t *o) {
  if (o->leaf < 1) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: leaf = %d (must be >= 1)", (int)o->leaf);
  if (!(o->eta > 0.0) || !isfinite(o->eta))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: eta = %g (must be finite and > 0)", o->eta);
  if (o->cheb < 1 || o->cheb > CHEB_MAX)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: cheb = %d (must be in [1, %d])", (int)o->cheb, CHEB_MAX);
  if (o->kernel < STRATA_H2_EXP || o->kernel > STRATA_H2_USER)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: kernel = %d (must be EXP 0, GAUSS 1, MATERN32 2 or USER 3)",
                            (int)o->kernel);
  if (o->kernel != STRATA_H2_USER && (!(o->length > 0.0) || !isfinite(o->length)))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: length = %g (must be finite and > 0)", o->length);
  if (o->overlap < STRATA_H2_OVERLAP_AUTO || o->overlap > STRATA_H2_OVERLAP_ON)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: overlap = %d (must be AUTO 0, OFF 1 or ON 2)",
                            (int)o->overlap);
  if (o->kernel == STRATA_H2_USER) {
    const strata_h2_user_kernel_t *u = o->user;
    if (!u || !u->coupling || !u->dense || !u->rows)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: kernel USER needs opts->user with its three kernels");
    const strata_backend_t be = strata_exec_backend(exec);
    const strata_kernel_t *ks[3] = {u->coupling, u->dense, u->rows};
    for (int q = 0; q < 3; ++q)
      if (be < 0 || be >= STRATA_NUM_BACKENDS || !ks[q]->launch[be])
        return strata_error_set(STRATA_ERR_BACKEND_UNAVAILABLE, "strata_h2_create: the user kernel %s was not compiled for backend %s",
                                ks[q]->name, strata_backend_name(be));
  }
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_create(strata_exec_t *exec, const strata_points_t *pts, const strata_h2_options_t *opts,
                                 strata_h2_matrix_t **out) {
  if (!out) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: NULL output");
  *out = NULL;
  if (!exec || !pts || !opts) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_create: NULL exec, points or options");
  strata_status_t st = check_options(exec, opts);
  if (st) return st;
  strata_h2_matrix_t *A = (strata_h2_matrix_t *)calloc(1, sizeof *A);
  if (!A) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_create: the matrix");
  A->exec = exec;
  A->backend = strata_exec_backend(exec);
  A->host = strata_exec_is_host(exec);
  strata_device_info_t info;
  A->warp = strata_exec_device_info(exec, &info) == STRATA_SUCCESS && info.warp_size > 0 ? info.warp_size : 1;
  A->p = opts->cheb;
  A->k = 1;
  for (int32_t d = 0; d < pts->dim; ++d) A->k *= A->p;
  A->kind = opts->kernel;
  if (opts->kernel == STRATA_H2_USER) {
    A->k_coupling = opts->user->coupling;
    A->k_dense = opts->user->dense;
    A->k_rows = opts->user->rows;
    memcpy(A->params, opts->user->params, sizeof A->params);
  } else {
    A->k_coupling = &strata_h2_builtin_coupling;
    A->k_dense = &strata_h2_builtin_dense;
    A->k_rows = &strata_h2_builtin_rows;
    A->params[0] = (double)opts->kernel;
    A->params[1] = 1.0 / opts->length;
  }
  double *hp = NULL, *hc = NULL;
  int64_t *inv = NULL, *crow = NULL, *drow = NULL;
  CHECK(strata_h2_tree_create(pts, opts->leaf, opts->eta, &A->tree));
  const strata_h2_tree_t *T = A->tree;
  const int64_t n = T->n, nn = T->num_nodes, k = A->k, kk = k * k, p = A->p;
  hp = (double *)calloc((size_t)(3 * n + 1), sizeof(double));
  hc = (double *)malloc((size_t)p * sizeof(double));
  inv = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  crow = (int64_t *)malloc((size_t)(T->num_coupling + 1) * sizeof(int64_t));
  drow = (int64_t *)malloc((size_t)(T->num_dense + 1) * sizeof(int64_t));
  if (!hp || !hc || !inv || !crow || !drow) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_create: host staging of %lld points", (long long)n);
    goto done;
  }
  for (int64_t i = 0; i < n; ++i) {
    inv[T->index_map[i]] = i;
    for (int32_t d = 0; d < T->dim; ++d) hp[3 * i + d] = pts->coords[T->index_map[i] * T->dim + d];
  }
  for (int64_t l = 0; l < T->num_leaves; ++l) {
    const int64_t g = T->num_leaves - 1 + l;
    if (T->node_end[g] - T->node_begin[g] > A->leaf_max) A->leaf_max = T->node_end[g] - T->node_begin[g];
    int64_t w = 0;
    for (int64_t q = T->dense_row_ptr[l]; q < T->dense_row_ptr[l + 1]; ++q)
      w += T->node_end[T->dense_cols[q]] - T->node_begin[T->dense_cols[q]];
    if (w > A->dense_width) A->dense_width = w;
  }
  /* the map's entries are int32: positions in a leaf's blocks (< leaf_max x width) and in x (< n) */
  if ((A->host && !strata_impl_h2_dense_map) || A->dense_width > H2_DENSE_MAP_MAX || n > INT32_MAX) A->dense_width = 0;
  for (int64_t m = 0; m < p; ++m) hc[m] = cos((2.0 * (double)m + 1.0) * 3.14159265358979323846 / (2.0 * (double)p));
  for (int64_t g = 0; g < nn; ++g)
    for (int64_t q = T->coupling_row_ptr[g]; q < T->coupling_row_ptr[g + 1]; ++q) crow[q] = g;
  for (int64_t l = 0; l < T->num_leaves; ++l)
    for (int64_t q = T->dense_row_ptr[l]; q < T->dense_row_ptr[l + 1]; ++q) drow[q] = T->num_leaves - 1 + l;
  const size_t i8 = sizeof(int64_t), f8 = sizeof(double);
  CHECK(upload(A, hp, (size_t)(3 * n) * f8, &A->pts));
  CHECK(upload(A, hc, (size_t)p * f8, &A->cheb));
  CHECK(upload(A, T->center, (size_t)(3 * nn) * f8, &A->center));
  CHECK(upload(A, T->half, (size_t)(3 * nn) * f8, &A->half));
  CHECK(upload(A, T->index_map, (size_t)n * i8, &A->index_map));
  CHECK(upload(A, inv, (size_t)n * i8, &A->inv_map));
  CHECK(upload(A, T->node_begin, (size_t)nn * i8, &A->node_begin));
  CHECK(upload(A, T->node_end, (size_t)nn * i8, &A->node_end));
  CHECK(upload(A, T->coupling_row_ptr, (size_t)(nn + 1) * i8, &A->coupling_row_ptr));
  CHECK(upload(A, T->coupling_cols, (size_t)T->num_coupling * i8, &A->coupling_cols));
  CHECK(upload(A, crow, (size_t)T->num_coupling * i8, &A->coupling_rows));
  CHECK(upload(A, T->dense_row_ptr, (size_t)(T->num_leaves + 1) * i8, &A->dense_row_ptr));
  CHECK(upload(A, T->dense_cols, (size_t)T->num_dense * i8, &A->dense_cols));
  CHECK(upload(A, drow, (size_t)T->num_dense * i8, &A->dense_rows));
  CHECK(upload(A, T->dense_offsets, (size_t)(T->num_dense + 1) * i8, &A->dense_offsets));
  const int lowrank = T->num_coupling > 0;
  if (lowrank) {
    CHECK(dev_alloc(A, (size_t)(n * k), &A->U));
    CHECK(dev_alloc(A, (size_t)((nn - 1) * kk), &A->E));
    CHECK(dev_alloc(A, (size_t)(T->num_coupling * kk), &A->S));
  }
  CHECK(dev_alloc(A, (size_t)T->dense_offsets[T->num_dense], &A->D));
  if (lowrank) {
    strata_h2_basis_args_t ba = {A->p, A->k, T->dim, T->num_leaves - 1, T->num_leaves, A->cheb, A->center, A->half,
                                 A->pts, A->node_begin, A->node_end, A->U};
    CHECK(strata_parallel_for(exec, "strata_h2_build_basis", strata_range(0, n * k), &strata_h2_build_basis, &ba));
    strata_h2_transfer_build_args_t ta = {A->p, A->k, T->dim, A->cheb, A->center, A->half, A->E};
    CHECK(strata_parallel_for(exec, "strata_h2_build_transfer", strata_range(0, (nn - 1) * kk), &strata_h2_build_transfer, &ta));
    strata_h2_coupling_args_t ca;
    memset(&ca, 0, sizeof ca);
    ca.p = A->p;
    ca.k = A->k;
    ca.dim = T->dim;
    ca.cheb = A->cheb;
    ca.center = A->center;
    ca.half = A->half;
    ca.row_node = A->coupling_rows;
    ca.col_node = A->coupling_cols;
    memcpy(ca.params, A->params, sizeof ca.params);
    ca.S = A->S;
    CHECK(strata_parallel_for(exec, "strata_h2_build_coupling", strata_range(0, T->num_coupling * kk), A->k_coupling, &ca));
  }
  strata_h2_dense_args_t da;
  memset(&da, 0, sizeof da);
  da.num_blocks = T->num_dense;
  da.offsets = A->dense_offsets;
  da.row_node = A->dense_rows;
  da.col_node = A->dense_cols;
  da.node_begin = A->node_begin;
  da.node_end = A->node_end;
  da.pts = A->pts;
  memcpy(da.params, A->params, sizeof da.params);
  da.D = A->D;
  CHECK(strata_parallel_for(exec, "strata_h2_build_dense", strata_range(0, T->dense_offsets[T->num_dense]), A->k_dense, &da));
  CHECK(strata_exec_fence(exec));
  CHECK(strata_h2_set_overlap(A, opts->overlap));
done:
  free(hp);
  free(hc);
  free(inv);
  free(crow);
  free(drow);
  if (st) {
    strata_h2_destroy(&A);
    return st;
  }
  *out = A;
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_destroy(strata_h2_matrix_t **Ap) {
  if (!Ap || !*Ap) return STRATA_SUCCESS;
  strata_h2_matrix_t *A = *Ap;
  strata_exec_fence(A->exec);
  strata_h2_set_overlap(A, STRATA_H2_OVERLAP_OFF);
  void **ptrs[] = {(void **)&A->pts, (void **)&A->center, (void **)&A->half, (void **)&A->cheb, (void **)&A->U,
                   (void **)&A->E, (void **)&A->S, (void **)&A->D, (void **)&A->index_map, (void **)&A->inv_map,
                   (void **)&A->node_begin, (void **)&A->node_end, (void **)&A->coupling_row_ptr,
                   (void **)&A->coupling_cols, (void **)&A->coupling_rows, (void **)&A->dense_row_ptr,
                   (void **)&A->dense_cols, (void **)&A->dense_rows, (void **)&A->dense_offsets};
  for (size_t q = 0; q < sizeof ptrs / sizeof ptrs[0]; ++q) strata_mem_free(A->exec, STRATA_MEM_DEVICE, ptrs[q]);
  strata_h2_tree_destroy(&A->tree);
  free(A);
  *Ap = NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_set_overlap(strata_h2_matrix_t *A, strata_h2_overlap_t mode) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_set_overlap: NULL matrix");
  if (mode < STRATA_H2_OVERLAP_AUTO || mode > STRATA_H2_OVERLAP_ON)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_set_overlap: mode = %d (must be AUTO 0, OFF 1 or ON 2)", (int)mode);
  const int on = mode == STRATA_H2_OVERLAP_ON || (mode == STRATA_H2_OVERLAP_AUTO && !A->host);
  strata_status_t st = STRATA_SUCCESS;
  if (on && !A->dense_exec) {
    st = strata_exec_create(A->backend, &A->dense_exec);
    if (!st) st = strata_event_create(A->dense_exec, &A->ev_ready);
    if (!st) st = strata_event_create(A->dense_exec, &A->ev_dense);
    if (!st) return STRATA_SUCCESS;
  }
  if (!on || st) { /* off, or a failed start: none of the three kept */
    strata_event_destroy(&A->ev_ready);
    strata_event_destroy(&A->ev_dense);
    if (A->dense_exec) strata_exec_destroy(&A->dense_exec);
  }
  return st;
}

strata_status_t strata_h2_get_overlap(const strata_h2_matrix_t *A, int *on) {
  if (!A || !on) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_get_overlap: NULL argument");
  *on = A->dense_exec != NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_get_tree(const strata_h2_matrix_t *A, const strata_h2_tree_t **tree) {
  if (!A || !tree) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_get_tree: NULL argument");
  *tree = A->tree;
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_get_info(const strata_h2_matrix_t *A, strata_h2_info_t *info) {
  if (!A || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_get_info: NULL argument");
  const strata_h2_tree_t *T = A->tree;
  memset(info, 0, sizeof *info);
  info->n = T->n;
  info->dim = T->dim;
  info->depth = T->depth;
  info->cheb = A->p;
  info->rank = A->k;
  info->leaf = T->leaf;
  info->eta = T->eta;
  info->num_coupling = T->num_coupling;
  info->num_dense = T->num_dense;
  for (int32_t l = 0; l <= T->depth && l < 64; ++l)
    info->coupling_per_level[l] = T->coupling_row_ptr[((int64_t)2 << l) - 1] - T->coupling_row_ptr[((int64_t)1 << l) - 1];
  const size_t kk = (size_t)A->k * (size_t)A->k;
  if (T->num_coupling > 0)
    info->bytes_lowrank = 8 * ((size_t)T->n * (size_t)A->k + (size_t)(T->num_nodes - 1) * kk + (size_t)T->num_coupling * kk);
  info->bytes_dense = 8 * (size_t)T->dense_offsets[T->num_dense];
  info->bytes_total = info->bytes_lowrank + info->bytes_dense + A->bytes_index;
  return STRATA_SUCCESS;
}

static strata_status_t check_exec(strata_exec_t *exec, const strata_h2_matrix_t *A, const char *fn) {
  if (!exec || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL exec or matrix", fn);
  if (strata_exec_backend(exec) != A->backend)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec of backend %s, the matrix lives on backend %s", fn,
                            strata_backend_name(strata_exec_backend(exec)), strata_backend_name(A->backend));
  return STRATA_SUCCESS;
}

strata_status_t strata_h2_matvec(strata_exec_t *exec, const strata_h2_matrix_t *A, int32_t nv, double alpha,
                                 const double *X, int64_t ldx, double beta, double *Y, int64_t ldy) {
  strata_status_t st = check_exec(exec, A, "strata_h2_matvec");
  if (st) return st;
  const strata_h2_tree_t *T = A->tree;
  const int64_t n = T->n, k = A->k;
  if (nv < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_matvec: nv = %d (must be >= 0)", (int)nv);
  if (ldx < n || ldy < n)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_matvec: ldx = %lld, ldy = %lld (each must be >= n = %lld)",
                            (long long)ldx, (long long)ldy, (long long)n);
  if (!isfinite(alpha) || !isfinite(beta))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_matvec: alpha = %g, beta = %g (must be finite)", alpha, beta);
  if (n == 0 || nv == 0) return STRATA_SUCCESS;
  if (!X || !Y) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_matvec: NULL X or Y with n = %lld, nv = %d", (long long)n, (int)nv);
  const int lowrank = T->num_coupling > 0;
  /* the dense phase on A's second instance: only when there is a low-rank part to overlap it with */
  strata_exec_t *de = lowrank ? A->dense_exec : NULL;
  int dense_started = 0;
  double *xp = NULL, *xhat = NULL, *yhat = NULL, *yp = NULL, *yd = NULL;
  const size_t hat = (size_t)T->num_nodes * (size_t)k * (size_t)nv * sizeof(double);
  const size_t vec = (size_t)n * (size_t)nv * sizeof(double);
  CHECK(strata_mem_alloc_async(exec, vec, (void **)&xp));
  strata_h2_gather_args_t ga = {n, ldx, A->index_map, X, xp};
  CHECK(strata_parallel_for(exec, "strata_h2_gather", strata_range(0, n * nv), &strata_h2_gather, &ga));
  strata_team_policy_t lpol = team_policy(A, T->num_leaves);
  strata_h2_leaf_args_t la = {T->num_leaves - 1, n, ldy, A->leaf_max, A->k, nv, lowrank, 0, 0, 1, NULL, A->node_begin,
                              A->node_end, A->index_map, A->dense_row_ptr, A->dense_cols, A->dense_offsets, A->U, NULL,
                              A->D, xp, NULL, alpha, beta, Y, A->dense_width};
  la.count = T->num_leaves;
  lpol.scratch_team = (size_t)la.width * STRATA_H2_DENSE_MAP_BYTES;
  if (de) { /* yd = Σ D x on de, after the gather (and yd's allocation) on exec */
    CHECK(strata_mem_alloc_async(exec, vec, (void **)&yd));
    CHECK(strata_event_record(exec, A->ev_ready));
    CHECK(strata_exec_wait_event(de, A->ev_ready));
    dense_started = 1;
    strata_h2_leaf_args_t dla = la;
    dla.mode = 1;
    dla.yd = yd;
    CHECK(strata_parallel_for_team(de, "strata_h2_dense", &lpol, &strata_h2_leaf_product, &dla));
    CHECK(strata_event_record(de, A->ev_dense));
  }
  if (lowrank) {
    CHECK(strata_mem_alloc_async(exec, hat, (void **)&xhat));
    CHECK(strata_mem_alloc_async(exec, hat, (void **)&yhat));
    CHECK(strata_mem_alloc_async(exec, (size_t)n * (size_t)nv * sizeof(double), (void **)&yp));
    CHECK(strata_mem_set_async(exec, yhat, 0, hat));
    int32_t lmin = 0; /* the coarsest level with coupling blocks: nothing above it is needed */
    while (T->coupling_row_ptr[((int64_t)2 << lmin) - 1] == 0) ++lmin;
    int32_t per = 1;
    strata_team_policy_t pol = batch_policy(A, T->num_leaves, k * nv, H2_GROUP, &per);
    strata_h2_upleaf_args_t ua = {T->num_leaves - 1, n, T->num_leaves, A->k, nv, per, A->node_begin, A->node_end, A->U, xp, xhat};
    CHECK(strata_parallel_for_team(exec, "strata_h2_upsweep_leaf", &pol, &strata_h2_upsweep_leaf, &ua));
    for (int32_t l = T->depth; l > lmin; --l) { /* parents of level l - 1 from children of level l */
      const int64_t first = ((int64_t)1 << (l - 1)) - 1;
      pol = batch_policy(A, first + 1, k * nv, 1, &per);
      strata_h2_transfer_args_t ta = {first, first + 1, A->k, nv, per, A->E, xhat};
      CHECK(strata_parallel_for_team(exec, "strata_h2_upsweep_transfer", &pol, &strata_h2_upsweep_transfer, &ta));
    }
    for (int32_t l = lmin; l <= T->depth; ++l) {
      const int64_t first = ((int64_t)1 << l) - 1;
      if (T->coupling_row_ptr[2 * first + 1] == T->coupling_row_ptr[first]) continue; /* no blocks: no launch */
      pol = team_policy(A, (int64_t)1 << l);
      strata_h2_coupling_mv_args_t ca = {first, A->k, nv, A->coupling_row_ptr, A->coupling_cols, A->S, xhat, yhat};
      CHECK(strata_parallel_for_team(exec, "strata_h2_coupling", &pol, &strata_h2_coupling_mv, &ca));
    }
    for (int32_t l = lmin + 1; l <= T->depth; ++l) {
      const int64_t first = ((int64_t)1 << l) - 1;
      pol = batch_policy(A, first + 1, k * nv, H2_GROUP, &per);
      strata_h2_transfer_args_t ta = {first, first + 1, A->k, nv, per, A->E, yhat};
      CHECK(strata_parallel_for_team(exec, "strata_h2_downsweep", &pol, &strata_h2_downsweep, &ta));
    }
  }
  la.yhat = yhat;
  la.yp = yp;
  la.yd = yd;
  if (lowrank) {
    strata_team_policy_t bpol = batch_policy(A, T->num_leaves, A->leaf_max * nv, 1, &la.per_team);
    CHECK(strata_parallel_for_team(exec, "strata_h2_leaf_basis", &bpol, &strata_h2_leaf_basis, &la));
  }
  if (de) { /* Y = α (yd + yp) + β Y once the dense sums are done */
    CHECK(strata_exec_wait_event(exec, A->ev_dense));
    dense_started = 0; /* exec's later work, the frees included, is ordered after de's */
    CHECK(strata_parallel_for(exec, "strata_h2_combine", strata_range(0, n * nv), &strata_h2_combine, &la));
  } else
    CHECK(strata_parallel_for_team(exec, "strata_h2_leaf_product", &lpol, &strata_h2_leaf_product, &la));
done:
  if (dense_started) strata_exec_fence(de); /* an error between: nothing of de may still read what is freed */
  strata_mem_free_async(exec, (void **)&yd);
  strata_mem_free_async(exec, (void **)&xp);
  strata_mem_free_async(exec, (void **)&xhat);
  strata_mem_free_async(exec, (void **)&yhat);
  strata_mem_free_async(exec, (void **)&yp);
  return st;
}

strata_status_t strata_h2_exact_rows(strata_exec_t *exec, const strata_h2_matrix_t *A, int64_t m, const int64_t *rows,
                                     int32_t nv, const double *X, int64_t ldx, double *out) {
  strata_status_t st = check_exec(exec, A, "strata_h2_exact_rows");
  if (st) return st;
  const int64_t n = A->tree->n;
  if (m < 0 || nv < 0 || ldx < n)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_exact_rows: m = %lld, nv = %d, ldx = %lld (m, nv >= 0, ldx >= n = %lld)",
                            (long long)m, (int)nv, (long long)ldx, (long long)n);
  if (m == 0 || nv == 0) return STRATA_SUCCESS;
  if (!rows || !out || (n > 0 && !X))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_exact_rows: NULL rows, X or out");
  strata_h2_rows_args_t ra;
  memset(&ra, 0, sizeof ra);
  ra.n = n;
  ra.ldx = ldx;
  ra.m = m;
  ra.nv = nv;
  ra.rows = rows;
  ra.inv_map = A->inv_map;
  ra.index_map = A->index_map;
  ra.pts = A->pts;
  ra.X = X;
  memcpy(ra.params, A->params, sizeof ra.params);
  ra.out = out;
  const strata_team_policy_t pol = team_policy(A, m);
  return strata_parallel_for_team(exec, "strata_h2_exact_rows", &pol, A->k_rows, &ra);
}

strata_status_t strata_h2_sampled_error(strata_exec_t *exec, const strata_h2_matrix_t *A, int32_t nv, const double *X,
                                        const double *Y, int64_t max_rows, uint64_t seed, double *err) {
  strata_status_t st = check_exec(exec, A, "strata_h2_sampled_error");
  if (st) return st;
  if (!err || nv < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_h2_sampled_error: NULL err or nv = %d < 0", (int)nv);
  const int64_t n = A->tree->n;
  *err = 0.0;
  if (n == 0 || nv == 0) return STRATA_SUCCESS;
  if (max_rows < 1) max_rows = 1;
  const int64_t m = n <= max_rows ? n : max_rows;
  int64_t *hr = (int64_t *)malloc((size_t)m * sizeof(int64_t));
  double *he = (double *)malloc(2 * (size_t)m * (size_t)nv * sizeof(double));
  int64_t *dr = NULL;
  double *de = NULL;
  if (!hr || !he) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_h2_sampled_error: %lld rows", (long long)m);
    goto done;
  }
  uint64_t s = seed;
  for (int64_t q = 0; q < m; ++q) { /* one row in each of m strides: distinct */
    const int64_t lo = q * n / m, hi = (q + 1) * n / m;
    s += 0x9e3779b97f4a7c15ull;
    uint64_t z = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    hr[q] = lo + (int64_t)((z ^ (z >> 31)) % (uint64_t)(hi - lo));
  }
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)m * sizeof(int64_t), (void **)&dr));
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, 2 * (size_t)m * (size_t)nv * sizeof(double), (void **)&de));
  CHECK(strata_mem_copy(exec, dr, hr, (size_t)m * sizeof(int64_t)));
  CHECK(strata_h2_exact_rows(exec, A, m, dr, nv, X, n, de));
  strata_h2_gather_args_t ga = {m, n, dr, Y, de + m * nv};
  CHECK(strata_parallel_for(exec, "strata_h2_gather_rows", strata_range(0, m * nv), &strata_h2_gather, &ga));
  CHECK(strata_mem_copy(exec, he, de, 2 * (size_t)m * (size_t)nv * sizeof(double)));
  double num = 0.0, den = 0.0;
  int bad = 0;
  for (int64_t e = 0; e < m * nv; ++e) {
    const double ex = he[e], y = he[m * nv + e];
    if (!isfinite(ex) || !isfinite(y)) bad = 1;
    num += (y - ex) * (y - ex);
    den += ex * ex;
  }
  *err = bad ? NAN : den > 0.0 ? sqrt(num / den) : num > 0.0 ? INFINITY : 0.0;
done:
  free(hr);
  free(he);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dr);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&de);
  return st;
}
