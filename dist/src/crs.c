/* strata dist — the distributed CrsMatrix built from global entries given on any rank
 * (strata/dist.h): owners of rows and columns found (strata_dist_map_owners), invalid entries
 * counted over all ranks, valid ones sent to their row's owner, split there into the diagonal
 * block (owned columns, the domain map's local ids) and the off-diagonal block (ghost columns
 * sorted by owner then id, compressed to 0..num_ghosts-1), each built on the device by
 * strata_crs_create_from_coo (duplicates summed in input order). PETSc's MPIAIJ assembly
 * (MatStash, MatSetUpMultiply_MPIAIJ) and Tpetra's column map construction are the models. */
#include <stdio.h>

#include "dist_impl.h"

typedef struct entry_msg {
  int64_t row, col;
  double val;
  int32_t col_owner, pad;
} entry_msg_t;

typedef struct ghost_key {
  int64_t owner, gid;
} ghost_key_t;

static int cmp_key(const void *a, const void *b) {
  const ghost_key_t *x = (const ghost_key_t *)a, *y = (const ghost_key_t *)b;
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

static void *copy_to_exec(strata_exec_t *exec, const void *host, int64_t n, size_t sz, strata_status_t *st) {
  void *d = NULL;
  if (*st || n <= 0) return NULL;
  *st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sz, &d);
  if (!*st) *st = strata_mem_copy(exec, d, host, (size_t)n * sz);
  return d;
}

/* a block from host COO arrays: copied to exec memory, built there */
static strata_status_t block_from_coo(strata_exec_t *exec, int32_t nr, int32_t nc, int64_t n, const int32_t *r,
                                      const int32_t *c, const double *v, strata_crs_matrix_t **B) {
  strata_status_t st = STRATA_SUCCESS;
  int32_t *dr = (int32_t *)copy_to_exec(exec, r, n, sizeof(int32_t), &st);
  int32_t *dc = (int32_t *)copy_to_exec(exec, c, n, sizeof(int32_t), &st);
  double *dv = (double *)copy_to_exec(exec, v, n, sizeof(double), &st);
  if (!st) st = strata_crs_create_from_coo(exec, nr, nc, n, dr, dc, dv, B);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dr);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dc);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dv);
  return st;
}

static void crs_free(strata_dist_crs_t *A) {
  if (!A) return;
  strata_impl_task_destroy(&A->task);
  strata_spmv_plan_destroy(&A->pdiag);
  strata_spmv_plan_destroy(&A->poff);
  strata_crs_destroy(&A->diag);
  strata_crs_destroy(&A->offdiag);
  strata_dist_plan_destroy(&A->plan);
  free(A->ghost_gids);
  free(A->ghost_owners);
  free(A);
}

/* invalid entries: counted over all ranks, the lowest rank's first ones named (collective) */
static strata_status_t check_entries(const strata_dist_map_t *rmap, const strata_dist_map_t *dmap, int64_t n,
                                     const int64_t *rows, const int64_t *cols, const int *rown, const int *cown,
                                     strata_dist_build_report_t *rep) {
  MPI_Comm comm = rmap->comm;
  int64_t sums[4] = {n, 0, 0, 0}; /* given, bad rows, bad columns, exported */
  int nex = 0;
  int64_t ex[STRATA_DIST_MAX_EXAMPLES][3];
  for (int64_t k = 0; k < n; ++k) {
    const int bad_r = rown[k] < 0, bad_c = !bad_r && cown[k] < 0;
    sums[1] += bad_r;
    sums[2] += bad_c;
    if (!bad_r && !bad_c && rown[k] != rmap->rank) sums[3]++;
    if ((bad_r || bad_c) && nex < STRATA_DIST_MAX_EXAMPLES) {
      ex[nex][0] = rows[k];
      ex[nex][1] = cols[k];
      ex[nex][2] = k;
      ++nex;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 4, MPI_INT64_T, MPI_SUM, comm);
  int root = nex > 0 ? rmap->rank : rmap->size;
  MPI_Allreduce(MPI_IN_PLACE, &root, 1, MPI_INT, MPI_MIN, comm);
  memset(rep, 0, sizeof *rep);
  rep->entries_given = sums[0];
  rep->invalid_rows = sums[1];
  rep->invalid_cols = sums[2];
  rep->entries_exported = sums[3];
  if (root == rmap->size) return STRATA_SUCCESS;
  MPI_Bcast(&nex, 1, MPI_INT, root, comm);
  MPI_Bcast(ex, 3 * STRATA_DIST_MAX_EXAMPLES, MPI_INT64_T, root, comm);
  rep->num_examples = nex;
  for (int i = 0; i < nex; ++i) {
    rep->examples[i].row = ex[i][0];
    rep->examples[i].col = ex[i][1];
    rep->examples[i].index = ex[i][2];
    rep->examples[i].rank = root;
  }
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "dist crs: %lld entries with a row no rank owns and %lld with a column no rank owns (row map: "
                          "%lld ids up to %lld; domain map: %lld ids up to %lld); the first: rank %d, entry %lld, row "
                          "%lld, column %lld; nothing was built",
                          (long long)sums[1], (long long)sums[2], (long long)rmap->num_global, (long long)rmap->max_gid,
                          (long long)dmap->num_global, (long long)dmap->max_gid, root, (long long)ex[0][2],
                          (long long)ex[0][0], (long long)ex[0][1]);
}

/* the received entries split into the two blocks' COO arrays (host), the ghosts listed */
static strata_status_t split_blocks(strata_dist_crs_t *A, const entry_msg_t *e, int64_t ne, int32_t *r, int32_t *c,
                                    double *v, int64_t *nd, int64_t *no) {
  const char *what = "dist crs";
  const strata_dist_map_t *rm = A->row_map, *dm = A->domain_map;
  int64_t d = 0, o = 0, nk = 0;
  ghost_key_t *keys = (ghost_key_t *)strata_impl_alloc(ne, sizeof *keys);
  if (!keys) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ghost keys", what, (long long)ne);
  for (int64_t k = 0; k < ne; ++k)
    if (e[k].col_owner != dm->rank) {
      keys[nk].owner = e[k].col_owner;
      keys[nk++].gid = e[k].col;
    }
  qsort(keys, (size_t)nk, sizeof *keys, cmp_key);
  int64_t ng = 0;
  for (int64_t k = 0; k < nk; ++k)
    if (ng == 0 || cmp_key(&keys[k], &keys[ng - 1])) keys[ng++] = keys[k];
  strata_status_t st = STRATA_SUCCESS;
  if (ng > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %lld ghost columns on rank %d, above %d local ids", what,
                          (long long)ng, rm->rank, INT32_MAX);
  A->num_ghosts = (int32_t)ng;
  A->ghost_gids = (int64_t *)strata_impl_alloc(ng, sizeof(int64_t));
  A->ghost_owners = (int *)strata_impl_alloc(ng, sizeof(int));
  if (!st && (!A->ghost_gids || !A->ghost_owners))
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld ghost ids", what, (long long)ng);
  for (int64_t g = 0; !st && g < ng; ++g) {
    A->ghost_gids[g] = keys[g].gid;
    A->ghost_owners[g] = (int)keys[g].owner;
  }
  /* diagonal entries from the front of r, c, v; off-diagonal ones from the back, reversed after */
  for (int64_t k = 0; !st && k < ne; ++k) {
    const int32_t lr = strata_impl_map_lid(rm, e[k].row);
    if (lr < 0) {
      st = strata_error_set(STRATA_ERR_INTERNAL, "%s: rank %d received row %lld, which it does not own", what, rm->rank,
                            (long long)e[k].row);
      break;
    }
    if (e[k].col_owner == dm->rank) {
      const int32_t lc = strata_impl_map_lid(dm, e[k].col);
      if (lc < 0) {
        st = strata_error_set(STRATA_ERR_INTERNAL, "%s: column %lld is not owned by rank %d after all", what,
                              (long long)e[k].col, dm->rank);
        break;
      }
      r[d] = lr, c[d] = lc, v[d] = e[k].val;
      ++d;
    } else {
      const ghost_key_t want = {e[k].col_owner, e[k].col};
      int64_t lo = 0, hi = ng;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&keys[mid], &want) < 0) lo = mid + 1;
        else hi = mid;
      }
      ++o;
      r[ne - o] = lr, c[ne - o] = (int32_t)lo, v[ne - o] = e[k].val;
    }
  }
  for (int64_t i = 0; i < o / 2; ++i) { /* back to input order: duplicates sum in it */
    const int64_t a = ne - 1 - i, b = ne - o + i;
    int32_t t = r[a];
    r[a] = r[b], r[b] = t;
    t = c[a], c[a] = c[b], c[b] = t;
    const double tv = v[a];
    v[a] = v[b], v[b] = tv;
  }
  free(keys);
  *nd = d;
  *no = o;
  return st;
}

strata_status_t strata_dist_crs_create_from_entries(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                                    const strata_dist_map_t *domain_map, int64_t n, const int64_t *rows,
                                                    const int64_t *cols, const double *vals,
                                                    const strata_dist_crs_options_t *opts,
                                                    strata_dist_build_report_t *report, strata_dist_crs_t **Aout) {
  const char *what = "dist crs";
  if (!row_map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL row map", what);
  const strata_dist_map_t *dm = domain_map ? domain_map : row_map;
  MPI_Comm comm = row_map->comm;
  if (Aout) *Aout = NULL;
  strata_status_t st = STRATA_SUCCESS;
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(row_map->comm, dm->comm, &cmp);
  if (!exec || !Aout) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, exec ? "A" : "exec");
  else if (n < 0) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: n %lld < 0", what, (long long)n);
  else if (n > 0 && (!rows || !cols))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s with n %lld", what, rows ? "cols" : "rows", (long long)n);
  else if (cmp != MPI_IDENT && cmp != MPI_CONGRUENT)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: the row map and the domain map are on different communicators (made from different groups)",
                          what);
  int *rown = NULL, *cown = NULL;
  if (!st) {
    rown = (int *)strata_impl_alloc(n, sizeof(int));
    cown = (int *)strata_impl_alloc(n, sizeof(int));
    if (!rown || !cown) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: owners of %lld entries", what, (long long)n);
  }
  if ((st = strata_impl_agree(comm, st))) {
    free(rown);
    free(cown);
    return st;
  }
  strata_dist_build_report_t rep;
  memset(&rep, 0, sizeof rep);
  st = strata_dist_map_owners(row_map, n, rows, rown, NULL);
  if (!st) st = strata_dist_map_owners(dm, n, cols, cown, NULL);
  if (!st) st = check_entries(row_map, dm, n, rows, cols, rown, cown, &rep);
  /* the valid entries to their row's owner, grouped by destination rank in input order */
  const int p = row_map->size;
  int64_t *cnt = NULL, *rcnt = NULL, *pos = NULL;
  entry_msg_t *send = NULL, *recv = NULL;
  int64_t nrecv = 0;
  if (!st) {
    cnt = (int64_t *)calloc((size_t)p, sizeof(int64_t));
    rcnt = (int64_t *)calloc((size_t)p, sizeof(int64_t));
    pos = (int64_t *)calloc((size_t)p + 1, sizeof(int64_t));
    send = (entry_msg_t *)strata_impl_alloc(n, sizeof *send);
    if (!cnt || !rcnt || !pos || !send)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: send buffer of %lld entries", what, (long long)n);
    st = strata_impl_agree(comm, st);
  }
  if (!st) {
    for (int64_t k = 0; k < n; ++k) cnt[rown[k]]++;
    for (int r = 0; r < p; ++r) pos[r + 1] = pos[r] + cnt[r];
    for (int64_t k = 0; k < n; ++k) {
      entry_msg_t m = {rows[k], cols[k], vals ? vals[k] : 0.0, cown[k], 0};
      send[pos[rown[k]]++] = m;
    }
    st = strata_impl_exchange(comm, sizeof(entry_msg_t), cnt, send, rcnt, (void **)&recv, &nrecv);
  }
  free(rown);
  free(cown);
  free(cnt);
  free(rcnt);
  free(pos);
  free(send);
  strata_dist_crs_t *A = NULL;
  int32_t *r = NULL, *c = NULL;
  double *v = NULL;
  int64_t nd = 0, no = 0;
  if (!st) {
    A = (strata_dist_crs_t *)calloc(1, sizeof *A);
    r = (int32_t *)strata_impl_alloc(nrecv, sizeof(int32_t));
    c = (int32_t *)strata_impl_alloc(nrecv, sizeof(int32_t));
    v = (double *)strata_impl_alloc(nrecv, sizeof(double));
    if (!A || !r || !c || !v) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld received entries", what, (long long)nrecv);
    if (!st) {
      A->exec = exec;
      A->row_map = row_map;
      A->domain_map = dm;
      st = split_blocks(A, recv, nrecv, r, c, v, &nd, &no);
    }
    if (!st) st = block_from_coo(exec, row_map->num_local, dm->num_local, nd, r, c, v, &A->diag);
    if (!st) st = block_from_coo(exec, row_map->num_local, A->num_ghosts, no, r + nrecv - no, c + nrecv - no, v + nrecv - no,
                                 &A->offdiag);
    st = strata_impl_agree(comm, st);
  }
  free(recv);
  free(r);
  free(c);
  free(v);
  const strata_dist_plan_options_t *popts = opts ? &opts->plan : NULL;
  if (!st) st = strata_dist_plan_create(exec, dm, A->num_ghosts, A->ghost_gids, popts, &A->plan);
  if (!st) {
    const strata_spmv_options_t *so = opts ? opts->spmv : NULL;
    st = strata_spmv_plan_create(exec, A->diag, so, &A->pdiag);
    if (!st) st = strata_spmv_plan_create(exec, A->offdiag, so, &A->poff);
    st = strata_impl_agree(comm, st);
  }
  if (!st) {
    int64_t nnz = A->diag->nnz + A->offdiag->nnz;
    MPI_Allreduce(MPI_IN_PLACE, &nnz, 1, MPI_INT64_T, MPI_SUM, comm);
    A->nnz_global = nnz;
    rep.entries_stored = nnz;
    rep.duplicates_summed = rep.entries_given - rep.invalid_rows - rep.invalid_cols - nnz;
  }
  if (report) *report = rep;
  if (st) {
    crs_free(A);
    return st;
  }
  *Aout = A;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_crs_destroy(strata_dist_crs_t **A) {
  if (!A || !*A) return STRATA_SUCCESS;
  crs_free(*A);
  *A = NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_crs_info(const strata_dist_crs_t *A, strata_dist_crs_info_t *info) {
  if (!A || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist crs info: NULL %s", A ? "info" : "A");
  memset(info, 0, sizeof *info);
  info->num_global_rows = A->row_map->num_global;
  info->num_global_cols = A->domain_map->num_global;
  info->num_local_rows = A->row_map->num_local;
  info->num_local_cols = A->domain_map->num_local;
  info->num_ghosts = A->num_ghosts;
  info->nnz_local = A->diag->nnz + A->offdiag->nnz;
  info->nnz_global = A->nnz_global;
  info->diag = A->diag;
  info->offdiag = A->offdiag;
  info->ghost_gids = A->ghost_gids;
  info->ghost_owners = A->ghost_owners;
  info->row_map = A->row_map;
  info->domain_map = A->domain_map;
  info->plan = A->plan;
  info->exec = A->exec;
  return STRATA_SUCCESS;
}
