/* strata dist — import / export plans (strata/dist.h): Tpetra's Distributor built from the
 * receives (createFromRecvs), PETSc VecScatter's persistent requests. Buffers in exec memory;
 * on GPU execution spaces (or when asked) every message is staged through page-locked host
 * mirrors, the stream synchronized before MPI reads one, receives into a mirror posted only after
 * the copy out of it has completed. */
#include <stdio.h>

#include "../kernels/dist_args.h"
#include "dist_impl.h"

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

STRATA_KERNEL_DECLARE(strata_dist_gather);
STRATA_KERNEL_DECLARE(strata_dist_scatter);
STRATA_KERNEL_DECLARE(strata_dist_combine);

static int query_cuda_aware(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

static void plan_free(strata_dist_plan_t *P) {
  if (!P) return;
  if (P->imp_req)
    for (int i = 0; i < P->imp_nrecv + P->imp_nsend; ++i)
      if (P->imp_req[i] != MPI_REQUEST_NULL) MPI_Request_free(&P->imp_req[i]);
  if (P->exp_req)
    for (int i = 0; i < P->exp_nrecv + P->exp_nsend; ++i)
      if (P->exp_req[i] != MPI_REQUEST_NULL) MPI_Request_free(&P->exp_req[i]);
  free(P->imp_req);
  free(P->exp_req);
  free(P->recv_ranks);
  free(P->recv_offsets);
  free(P->send_ranks);
  free(P->send_offsets);
  if (P->exec) {
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->send_lids);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->perm);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->comb_lids);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->comb_offsets);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->comb_pos);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->ghost_buf);
    strata_mem_free(P->exec, STRATA_MEM_DEVICE, (void **)&P->owned_buf);
    strata_mem_free(P->exec, STRATA_MEM_HOST_PINNED, (void **)&P->ghost_host);
    strata_mem_free(P->exec, STRATA_MEM_HOST_PINNED, (void **)&P->owned_host);
  }
  if (P->comm != MPI_COMM_NULL) MPI_Comm_free(&P->comm);
  free(P);
}

/* a host array copied into new exec memory (NULL for n == 0) */
static strata_status_t to_exec(strata_exec_t *exec, const void *host, int64_t n, size_t sz, void **dev) {
  *dev = NULL;
  if (n <= 0) return STRATA_SUCCESS;
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sz, dev);
  if (!st) st = strata_mem_copy(exec, *dev, host, (size_t)n * sz);
  return st;
}

/* exec memory of n doubles set to zero (stale buffers that go out before any pack hold zeros) */
static strata_status_t zeros(strata_exec_t *exec, strata_mem_space_t space, int64_t n, double **p) {
  *p = NULL;
  if (n <= 0) return STRATA_SUCCESS;
  strata_status_t st = strata_mem_alloc(exec, space, (size_t)n * sizeof(double), (void **)p);
  if (!st && space == STRATA_MEM_HOST_PINNED) memset(*p, 0, (size_t)n * sizeof(double));
  else if (!st) st = strata_mem_set_async(exec, *p, 0, (size_t)n * sizeof(double));
  return st;
}

/* the ranks r with cnt[r] > 0, ascending: *n of them, ranks [*n], offsets [*n + 1] (prefix sums
 * of their counts), *self = this rank's index among them or -1 */
static strata_status_t segments(const int64_t *cnt, int p, int rank, int *n, int **ranks, int64_t **offsets, int *self,
                                const char *what) {
  *n = 0;
  for (int r = 0; r < p; ++r) *n += cnt[r] > 0;
  *ranks = (int *)strata_impl_alloc(*n, sizeof(int));
  *offsets = (int64_t *)strata_impl_alloc(*n + 1, sizeof(int64_t));
  if (!*ranks || !*offsets) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d neighbours", what, *n);
  *self = -1;
  (*offsets)[0] = 0;
  for (int r = 0, i = 0; r < p; ++r)
    if (cnt[r] > 0) {
      if (r == rank) *self = i;
      (*ranks)[i] = r;
      (*offsets)[i + 1] = (*offsets)[i] + cnt[r];
      ++i;
    }
  return STRATA_SUCCESS;
}

/* the receive / send segments, the request lists and the export's combine table (host work),
 * then the exec arrays, buffers and persistent requests */
static strata_status_t plan_build(strata_dist_plan_t *P, const int *own, const int32_t *rlid) {
  const char *what = "dist plan";
  const int p = P->size;
  const int64_t ng = P->num_ghosts;
  int64_t *cnt = (int64_t *)calloc((size_t)p, sizeof(int64_t)), *rcnt = (int64_t *)calloc((size_t)p, sizeof(int64_t));
  int64_t *start = (int64_t *)calloc((size_t)p + 1, sizeof(int64_t));
  int32_t *perm = (int32_t *)strata_impl_alloc(ng, sizeof(int32_t)), *req = (int32_t *)strata_impl_alloc(ng, sizeof(int32_t));
  strata_status_t st = cnt && rcnt && start && perm && req ? STRATA_SUCCESS
                                                           : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ghosts", what,
                                                                              (long long)ng);
  if ((st = strata_impl_agree(P->comm, st))) goto done;
  for (int64_t i = 0; i < ng; ++i) cnt[own[i]]++;
  for (int r = 0; r < p; ++r) start[r + 1] = start[r] + cnt[r];
  int identity = 1;
  for (int64_t i = 0; i < ng; ++i) {
    const int64_t q = start[own[i]]++;
    perm[q] = (int32_t)i;
    req[q] = rlid[i];
    if (q != i) identity = 0;
  }
  st = segments(cnt, p, P->rank, &P->nrecv, &P->recv_ranks, &P->recv_offsets, &P->self_recv, what);
  if ((st = strata_impl_agree(P->comm, st))) goto done;
  int32_t *got = NULL;
  int64_t ns = 0;
  if ((st = strata_impl_exchange(P->comm, sizeof(int32_t), cnt, req, rcnt, (void **)&got, &ns))) goto done;
  P->num_sends = ns;
  st = segments(rcnt, p, P->rank, &P->nsend, &P->send_ranks, &P->send_offsets, &P->self_send, what);
  int64_t *lcnt = (int64_t *)calloc((size_t)P->num_owned + 1, sizeof(int64_t));
  int64_t *cpos = (int64_t *)strata_impl_alloc(ns, sizeof(int64_t));
  int32_t *clids = NULL;
  int64_t *coff = NULL;
  if (!st && (!lcnt || !cpos)) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld sends", what, (long long)ns);
  for (int64_t k = 0; !st && k < ns; ++k)
    if (got[k] < 0 || got[k] >= P->num_owned)
      st = strata_error_set(STRATA_ERR_INTERNAL, "%s: a neighbour asked for local id %d of %lld", what, (int)got[k],
                            (long long)P->num_owned);
  if (!st) {
    /* the export's combine: positions grouped by target lid, ascending (receive order) */
    for (int64_t k = 0; k < ns; ++k) lcnt[got[k] + 1]++;
    int64_t nt = 0;
    for (int64_t l = 0; l < P->num_owned; ++l) nt += lcnt[l + 1] > 0;
    for (int64_t l = 0; l < P->num_owned; ++l) lcnt[l + 1] += lcnt[l];
    clids = (int32_t *)strata_impl_alloc(nt, sizeof(int32_t));
    coff = (int64_t *)strata_impl_alloc(nt + 1, sizeof(int64_t));
    if (!clids || !coff) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld targets", what, (long long)nt);
    if (!st) {
      int64_t t = 0;
      for (int64_t l = 0; l < P->num_owned; ++l)
        if (lcnt[l + 1] > lcnt[l]) {
          clids[t] = (int32_t)l;
          coff[t] = lcnt[l];
          ++t;
        }
      coff[nt] = ns;
      for (int64_t k = 0; k < ns; ++k) cpos[lcnt[got[k]]++] = k;
      P->num_targets = nt;
    }
  }
  strata_exec_t *ex = P->exec;
  if (!st) st = to_exec(ex, got, ns, sizeof(int32_t), (void **)&P->send_lids);
  if (!st && !identity) st = to_exec(ex, perm, ng, sizeof(int32_t), (void **)&P->perm);
  if (!st) st = to_exec(ex, clids, P->num_targets, sizeof(int32_t), (void **)&P->comb_lids);
  if (!st && P->num_targets) st = to_exec(ex, coff, P->num_targets + 1, sizeof(int64_t), (void **)&P->comb_offsets);
  if (!st) st = to_exec(ex, cpos, ns, sizeof(int64_t), (void **)&P->comb_pos);
  if (!st) st = zeros(ex, STRATA_MEM_DEVICE, ng, &P->ghost_buf);
  if (!st) st = zeros(ex, STRATA_MEM_DEVICE, ns, &P->owned_buf);
  if (!st && P->staged) st = zeros(ex, STRATA_MEM_HOST_PINNED, ng, &P->ghost_host);
  if (!st && P->staged) st = zeros(ex, STRATA_MEM_HOST_PINNED, ns, &P->owned_host);
  if (!st) st = strata_exec_fence(ex);
  P->imp_nrecv = P->exp_nsend = P->nrecv - (P->self_recv >= 0);
  P->imp_nsend = P->exp_nrecv = P->nsend - (P->self_send >= 0);
  const int nreq = P->imp_nrecv + P->imp_nsend;
  P->imp_req = (MPI_Request *)strata_impl_alloc(nreq, sizeof(MPI_Request));
  P->exp_req = (MPI_Request *)strata_impl_alloc(nreq, sizeof(MPI_Request));
  if (!st && (!P->imp_req || !P->exp_req))
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d requests", what, nreq);
  for (int i = 0; i < nreq; ++i) {
    if (P->imp_req) P->imp_req[i] = MPI_REQUEST_NULL;
    if (P->exp_req) P->exp_req[i] = MPI_REQUEST_NULL;
  }
  st = strata_impl_agree(P->comm, st);
  if (!st) {
    double *gm = P->staged ? P->ghost_host : P->ghost_buf, *om = P->staged ? P->owned_host : P->owned_buf;
    int a = 0, b = P->imp_nrecv, c = 0, d = P->exp_nrecv;
    for (int i = 0; i < P->nrecv; ++i) {
      if (i == P->self_recv) continue;
      const int64_t o = P->recv_offsets[i], n = P->recv_offsets[i + 1] - o;
      MPI_Recv_init(gm + o, (int)n, MPI_DOUBLE, P->recv_ranks[i], STRATA_IMPL_TAG_IMPORT, P->comm, &P->imp_req[a++]);
      MPI_Send_init(gm + o, (int)n, MPI_DOUBLE, P->recv_ranks[i], STRATA_IMPL_TAG_EXPORT, P->comm, &P->exp_req[d++]);
    }
    for (int j = 0; j < P->nsend; ++j) {
      if (j == P->self_send) continue;
      const int64_t o = P->send_offsets[j], n = P->send_offsets[j + 1] - o;
      MPI_Send_init(om + o, (int)n, MPI_DOUBLE, P->send_ranks[j], STRATA_IMPL_TAG_IMPORT, P->comm, &P->imp_req[b++]);
      MPI_Recv_init(om + o, (int)n, MPI_DOUBLE, P->send_ranks[j], STRATA_IMPL_TAG_EXPORT, P->comm, &P->exp_req[c++]);
    }
  }
  free(lcnt);
  free(cpos);
  free(clids);
  free(coff);
  free(got);
  P->state = STRATA_IMPL_IDLE;
done:
  free(cnt);
  free(rcnt);
  free(start);
  free(perm);
  free(req);
  return st;
}

strata_status_t strata_dist_plan_create(strata_exec_t *exec, const strata_dist_map_t *map, int64_t num_ghosts,
                                        const int64_t *ghost_gids, const strata_dist_plan_options_t *opts,
                                        strata_dist_plan_t **plan) {
  const char *what = "dist plan";
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL map", what);
  if (plan) *plan = NULL;
  MPI_Comm dup;
  MPI_Comm_dup(map->comm, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL); /* a duplicate inherits the caller's handler */
  strata_dist_plan_t *P = (strata_dist_plan_t *)calloc(1, sizeof *P);
  strata_status_t st = STRATA_SUCCESS;
  if (!P) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the plan object", what);
  else if (!exec || !plan) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, exec ? "plan" : "exec");
  else if (num_ghosts < 0 || num_ghosts > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_ghosts %lld outside [0, %d]", what, (long long)num_ghosts,
                          INT32_MAX);
  else if (num_ghosts > 0 && !ghost_gids)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL ghost_gids with num_ghosts %lld", what,
                          (long long)num_ghosts);
  int *own = NULL;
  int32_t *rlid = NULL;
  if (!st) {
    own = (int *)strata_impl_alloc(num_ghosts, sizeof(int));
    rlid = (int32_t *)strata_impl_alloc(num_ghosts, sizeof(int32_t));
    if (!own || !rlid) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ghosts", what, (long long)num_ghosts);
  }
  if ((st = strata_impl_agree(dup, st))) {
    free(P);
    free(own);
    free(rlid);
    MPI_Comm_free(&dup);
    return st;
  }
  P->comm = dup;
  MPI_Comm_rank(dup, &P->rank);
  MPI_Comm_size(dup, &P->size);
  P->exec = exec;
  P->num_ghosts = num_ghosts;
  P->num_owned = map->num_local;
  P->staged = (opts && opts->staging) || !strata_exec_is_host(exec);
  P->cuda_aware = query_cuda_aware();
  st = strata_dist_map_owners(map, num_ghosts, ghost_gids, own, rlid);
  if (!st) {
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < num_ghosts; ++i)
      if (own[i] < 0 && bad++ == 0) first = i;
    if (bad)
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: %lld ghost ids are owned by no rank of the map (the first: ghost_gids[%lld] = %lld; the "
                            "map has %lld ids, the largest %lld)",
                            what, (long long)bad, (long long)first, (long long)ghost_gids[first],
                            (long long)map->num_global, (long long)map->max_gid);
    st = strata_impl_agree(dup, st);
  }
  if (!st) st = plan_build(P, own, rlid);
  free(own);
  free(rlid);
  if (st) {
    plan_free(P);
    return st;
  }
  *plan = P;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ the exchange in parts */

static strata_status_t seg_copy(strata_exec_t *exec, int host, double *dst, const double *src, int64_t n) {
  if (n <= 0 || dst == src) return STRATA_SUCCESS;
  if (host) {
    memcpy(dst, src, (size_t)n * sizeof(double));
    return STRATA_SUCCESS;
  }
  return strata_mem_copy_async(exec, dst, src, (size_t)n * sizeof(double));
}

void strata_impl_plan_import_post(strata_dist_plan_t *P) {
  if (!P->staged && P->imp_nrecv) MPI_Startall(P->imp_nrecv, P->imp_req);
}

strata_status_t strata_impl_plan_import_pack(strata_dist_plan_t *P, strata_exec_t *exec, const double *x, int do_pack) {
  strata_status_t st = STRATA_SUCCESS;
  if (do_pack && P->num_sends > 0) {
    strata_dist_gather_args_t a = {P->send_lids, x, P->owned_buf};
    st = strata_parallel_for(exec, "dist_import_pack", strata_range(0, P->num_sends), &strata_dist_gather, &a);
  }
  const int has_self = P->self_recv >= 0;
  const int64_t ro = has_self ? P->recv_offsets[P->self_recv] : 0, so = has_self ? P->send_offsets[P->self_send] : 0;
  const int64_t n_self = has_self ? P->recv_offsets[P->self_recv + 1] - ro : 0;
  if (P->staged) {
    strata_status_t s2 = seg_copy(exec, 0, P->owned_host, P->owned_buf, P->num_sends);
    if (!st) st = s2;
    s2 = strata_exec_fence(exec); /* the pack and the copy are done before MPI reads the mirror */
    if (!st) st = s2;
    seg_copy(exec, 1, P->ghost_host + ro, P->owned_host + so, n_self);
    if (P->imp_nrecv) MPI_Startall(P->imp_nrecv, P->imp_req); /* the mirror's last copy-out is done */
  } else {
    strata_status_t s2 = seg_copy(exec, 0, P->ghost_buf + ro, P->owned_buf + so, n_self);
    if (!st) st = s2;
    s2 = strata_exec_fence(exec);
    if (!st) st = s2;
  }
  return st;
}

void strata_impl_plan_import_send(strata_dist_plan_t *P) {
  if (P->imp_nsend) MPI_Startall(P->imp_nsend, P->imp_req + P->imp_nrecv);
}

void strata_impl_plan_import_wait(strata_dist_plan_t *P) {
  if (P->imp_nrecv + P->imp_nsend) MPI_Waitall(P->imp_nrecv + P->imp_nsend, P->imp_req, MPI_STATUSES_IGNORE);
}

strata_status_t strata_impl_plan_import_finish(strata_dist_plan_t *P, strata_exec_t *exec) {
  if (!P->staged || P->num_ghosts == 0) return STRATA_SUCCESS;
  /* ordered on exec: the next begin's fence completes it before the mirror is refilled */
  return strata_mem_copy_async(exec, P->ghost_buf, P->ghost_host, (size_t)P->num_ghosts * sizeof(double));
}

/* ------------------------------------------------------------------ public begin / end */

static strata_status_t check_exec(const strata_dist_plan_t *P, strata_exec_t *exec, const char *what) {
  if (exec && strata_exec_backend(exec) != strata_exec_backend(P->exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec of backend %s, the plan's is %s", what,
                            strata_backend_name(strata_exec_backend(exec)), strata_backend_name(strata_exec_backend(P->exec)));
  return STRATA_SUCCESS;
}

/* Before receives refill a buffer: the work of the last exchange's exec that reads the buffers
 * (the copy out of a mirror, a kernel reading the ghost buffer) is complete — a fence of that exec
 * when it is not the one of this exchange (whose own fence, after the pack, orders the staged
 * path), and of this one too on the unstaged path, whose receives are posted before the pack. */
/* After an exchange on ex: an exec other than the plan's own is fenced now and forgotten, so that
 * the next exchange's quiesce never touches it (the caller may destroy it once this returns); the
 * plan's own exec lives as long as the plan and stays asynchronous. */
strata_status_t strata_impl_plan_release_exec(strata_dist_plan_t *P, strata_exec_t *ex) {
  if (!ex || ex == P->exec) return STRATA_SUCCESS;
  P->cur_exec = NULL;
  return strata_exec_fence(ex);
}

void strata_impl_plan_quiesce(strata_dist_plan_t *P, strata_exec_t *ex) {
  if (P->cur_exec && P->cur_exec != ex) strata_exec_fence(P->cur_exec);
  if (!P->staged) strata_exec_fence(ex);
}

static strata_status_t begin_check(strata_dist_plan_t *P, const char *what) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL plan", what);
  if (P->state != STRATA_IMPL_IDLE)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: exchange in flight (the %s begun on this plan has not been ended: end it first, its "
                            "buffers are still in use)",
                            what, P->state == STRATA_IMPL_IMPORTING ? "import" : "export");
  return STRATA_SUCCESS;
}

/* what the end needs, and this rank's status into the agreement the end completes */
static strata_status_t begun(strata_dist_plan_t *P, strata_impl_plan_state_t state, strata_status_t st, strata_exec_t *ex,
                             double *out, strata_combine_mode_t mode) {
  P->state = state;
  P->local_status = st;
  P->cur_exec = ex;
  P->cur_out = out;
  P->cur_mode = mode;
  strata_impl_agree_begin(&P->agree, P->comm, st);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_plan_import_begin(strata_dist_plan_t *P, strata_exec_t *exec, const double *x_owned,
                                              double *x_ghost) {
  const char *what = "dist plan import";
  strata_status_t st = begin_check(P, what);
  if (st) return st;
  st = check_exec(P, exec, what);
  if (!st && !x_owned && P->num_owned > 0 && P->num_sends > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL x_owned with %lld owned values", what,
                          (long long)P->num_owned);
  strata_exec_t *ex = st || !exec ? P->exec : exec;
  strata_impl_plan_quiesce(P, ex);
  strata_impl_plan_import_post(P);
  strata_status_t s2 = strata_impl_plan_import_pack(P, ex, x_owned, !st);
  if (!st) st = s2;
  strata_impl_plan_import_send(P);
  return begun(P, STRATA_IMPL_IMPORTING, st, ex, x_ghost, STRATA_COMBINE_ZERO);
}

strata_status_t strata_dist_plan_export_begin(strata_dist_plan_t *P, strata_exec_t *exec, const double *y_ghost,
                                              strata_combine_mode_t mode, double *y_owned) {
  const char *what = "dist plan export";
  strata_status_t st = begin_check(P, what);
  if (st) return st;
  st = check_exec(P, exec, what);
  if (!st && mode != STRATA_COMBINE_ADD && mode != STRATA_COMBINE_REPLACE && mode != STRATA_COMBINE_ABSMAX &&
      mode != STRATA_COMBINE_ZERO)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: combine mode %d (a vector takes ADD, REPLACE, ABSMAX or ZERO; INSERT needs a pattern)", what,
                          (int)mode);
  if (!st && !y_ghost && P->num_ghosts > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL y_ghost with %lld ghosts", what, (long long)P->num_ghosts);
  if (!st && !y_owned && P->num_targets > 0 && mode != STRATA_COMBINE_ZERO)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL y_owned with %lld owned values", what,
                          (long long)P->num_owned);
  strata_exec_t *ex = st || !exec ? P->exec : exec;
  strata_impl_plan_quiesce(P, ex);
  if (!P->staged && P->exp_nrecv) MPI_Startall(P->exp_nrecv, P->exp_req);
  strata_status_t s2 = STRATA_SUCCESS;
  if (!st && P->num_ghosts > 0 && y_ghost != P->ghost_buf) {
    if (P->perm) {
      strata_dist_gather_args_t a = {P->perm, y_ghost, P->ghost_buf};
      s2 = strata_parallel_for(ex, "dist_export_pack", strata_range(0, P->num_ghosts), &strata_dist_gather, &a);
    } else {
      s2 = strata_mem_copy_async(ex, P->ghost_buf, y_ghost, (size_t)P->num_ghosts * sizeof(double));
    }
  }
  if (!st) st = s2;
  const int has_self = P->self_recv >= 0;
  const int64_t ro = has_self ? P->recv_offsets[P->self_recv] : 0, so = has_self ? P->send_offsets[P->self_send] : 0;
  const int64_t n_self = has_self ? P->recv_offsets[P->self_recv + 1] - ro : 0;
  if (P->staged) {
    s2 = seg_copy(ex, 0, P->ghost_host, P->ghost_buf, P->num_ghosts);
    if (!st) st = s2;
    s2 = strata_exec_fence(ex);
    if (!st) st = s2;
    seg_copy(ex, 1, P->owned_host + so, P->ghost_host + ro, n_self);
    if (P->exp_nrecv) MPI_Startall(P->exp_nrecv, P->exp_req);
  } else {
    s2 = seg_copy(ex, 0, P->owned_buf + so, P->ghost_buf + ro, n_self);
    if (!st) st = s2;
    s2 = strata_exec_fence(ex);
    if (!st) st = s2;
  }
  if (P->exp_nsend) MPI_Startall(P->exp_nsend, P->exp_req + P->exp_nrecv);
  return begun(P, STRATA_IMPL_EXPORTING, st, ex, y_owned, mode);
}

strata_status_t strata_dist_plan_end(strata_dist_plan_t *P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist plan end: NULL plan");
  if (P->state == STRATA_IMPL_IDLE)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist plan end: no exchange in flight on this plan");
  strata_exec_t *ex = P->cur_exec;
  const int importing = P->state == STRATA_IMPL_IMPORTING;
  P->wait_s = 0.0;
  if (importing) {
    strata_impl_plan_import_wait(P);
  } else if (P->exp_nrecv + P->exp_nsend) {
    const double t0 = strata_timer_now();
    MPI_Waitall(P->exp_nrecv + P->exp_nsend, P->exp_req, MPI_STATUSES_IGNORE);
    P->wait_s = strata_timer_now() - t0;
  }
  P->state = STRATA_IMPL_IDLE;
  strata_status_t st = strata_impl_agree_end(&P->agree);
  if (st) return st;
  if (importing) {
    st = strata_impl_plan_import_finish(P, ex);
    double *xg = P->cur_out;
    if (!st && xg && P->num_ghosts > 0 && xg != P->ghost_buf) {
      if (P->perm) {
        strata_dist_scatter_args_t a = {P->perm, P->ghost_buf, xg};
        st = strata_parallel_for(ex, "dist_import_unpack", strata_range(0, P->num_ghosts), &strata_dist_scatter, &a);
      } else {
        st = strata_mem_copy_async(ex, xg, P->ghost_buf, (size_t)P->num_ghosts * sizeof(double));
      }
    }
  } else {
    if (P->staged && P->num_sends > 0)
      st = strata_mem_copy_async(ex, P->owned_buf, P->owned_host, (size_t)P->num_sends * sizeof(double));
    if (!st && P->cur_mode != STRATA_COMBINE_ZERO && P->num_targets > 0) {
      const int mode = P->cur_mode == STRATA_COMBINE_ADD ? 0 : P->cur_mode == STRATA_COMBINE_REPLACE ? 1 : 2;
      strata_dist_combine_args_t a = {P->comb_lids, P->comb_offsets, P->comb_pos, P->owned_buf, P->cur_out, mode};
      st = strata_parallel_for(ex, "dist_export_combine", strata_range(0, P->num_targets), &strata_dist_combine, &a);
    }
  }
  /* the unpack is asynchronous on the plan's exec: a fault in it surfaces at a later fence of it */
  const strata_status_t fs = strata_impl_plan_release_exec(P, ex);
  return st ? st : fs;
}

strata_status_t strata_dist_plan_info(const strata_dist_plan_t *P, strata_dist_plan_info_t *info) {
  if (!P || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist plan info: NULL %s", P ? "info" : "plan");
  memset(info, 0, sizeof *info);
  info->num_ghosts = P->num_ghosts;
  info->num_owned = P->num_owned;
  info->num_sends = P->num_sends;
  info->num_recv_neighbors = P->imp_nrecv;
  info->num_send_neighbors = P->imp_nsend;
  const int64_t self_r = P->self_recv >= 0 ? P->recv_offsets[P->self_recv + 1] - P->recv_offsets[P->self_recv] : 0;
  const int64_t self_s = P->self_send >= 0 ? P->send_offsets[P->self_send + 1] - P->send_offsets[P->self_send] : 0;
  info->recv_bytes = (P->num_ghosts - self_r) * (int64_t)sizeof(double);
  info->send_bytes = (P->num_sends - self_s) * (int64_t)sizeof(double);
  info->staged = P->staged;
  info->cuda_aware = P->cuda_aware;
  info->identity_order = P->perm == NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_plan_ghost_buffer(const strata_dist_plan_t *P, const double **buffer) {
  if (!P || !buffer) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist plan ghost buffer: NULL %s", P ? "buffer" : "plan");
  *buffer = P->ghost_buf;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_plan_destroy(strata_dist_plan_t **plan) {
  if (!plan || !*plan) return STRATA_SUCCESS;
  strata_dist_plan_t *P = *plan;
  if (P->state == STRATA_IMPL_IMPORTING) strata_impl_plan_import_wait(P);
  else if (P->state == STRATA_IMPL_EXPORTING && P->exp_nrecv + P->exp_nsend)
    MPI_Waitall(P->exp_nrecv + P->exp_nsend, P->exp_req, MPI_STATUSES_IGNORE);
  if (P->state != STRATA_IMPL_IDLE) strata_impl_agree_end(&P->agree);
  if (P->exec) strata_exec_fence(P->exec);
  plan_free(P);
  *plan = NULL;
  return STRATA_SUCCESS;
}
