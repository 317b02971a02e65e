/* strata dist — preconditioners over ranks (strata/dist.h, "distributed solvers"): Jacobi and
 * l1-Jacobi of the owned rows (the solvers' Jacobi on the rank's rows), block-Jacobi (the solvers'
 * Schwarz on the diagonal block) and two-level RAS: each rank's rows extended by layers of rows
 * owned by its neighbours (imported at setup: the ids asked of their owners, the rows sent back),
 * solved by an inner Schwarz, only the owned rows of the result kept (Cai & Sarkis 1999; PETSc's
 * PCASM over MPIAIJ with a subdomain PC; the seed's outer RAS / inner RAS). The extended matrix
 * is assembled on the host at setup (a host algorithm over the rank's rows and their neighbours')
 * and copied to the exec's memory; the apply runs on exec. */
#include <stdio.h>

#include "strata/vector.h"
#include "dist_impl.h"

void strata_dist_precond_options_default(strata_dist_precond_options_t *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->kind = STRATA_DIST_PRECOND_JACOBI;
  opts->outer_overlap = 1;
  strata_schwarz_options_default(&opts->inner);
}

strata_status_t strata_dist_precond_options_from_name(const char *name, strata_dist_precond_options_t *opts, int *none) {
  if (!name || !opts || !none)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist precond name: NULL %s", !name ? "name" : !opts ? "options" : "none");
  strata_dist_precond_options_default(opts);
  *none = 0;
  int p = 1, ov = 0, k = 0;
  char tail = 0;
  if (!strcmp(name, "none")) *none = 1;
  else if (!strcmp(name, "jacobi")) opts->kind = STRATA_DIST_PRECOND_JACOBI;
  else if (!strcmp(name, "l1-jacobi")) opts->kind = STRATA_DIST_PRECOND_L1_JACOBI;
  else if (sscanf(name, "bjacobi:%d%c", &p, &tail) == 1 || sscanf(name, "bjacobi:%d:%d%c", &p, &k, &tail) == 2)
    opts->kind = STRATA_DIST_PRECOND_BLOCK;
  else if (sscanf(name, "ras:%d:%d%c", &p, &ov, &tail) == 2 || sscanf(name, "ras:%d:%d:%d%c", &p, &ov, &k, &tail) == 3)
    opts->kind = STRATA_DIST_PRECOND_RAS;
  else
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "--precond %s is not supported across ranks (none, jacobi, l1-jacobi, bjacobi:P[:K], "
                            "ras:P:OVERLAP[:K] are; ILU(K) over ranks: bjacobi:1:K or ras:1:0:K, each rank's block "
                            "factored; no AMG over ranks)", name);
  opts->inner.num_parts = p;
  opts->inner.overlap = ov;
  opts->inner.ilu.fill_level = k;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ host copies of CrsMatrices */

typedef struct host_csr {
  int32_t rows, cols;
  int64_t nnz;
  int64_t *ro;
  int32_t *ci;
  double *va;
} host_csr_t;

static void host_csr_free(host_csr_t *h) {
  free(h->ro);
  free(h->ci);
  free(h->va);
  memset(h, 0, sizeof *h);
}

static strata_status_t host_csr_alloc(host_csr_t *h, int32_t rows, int32_t cols, int64_t nnz, const char *w) {
  h->rows = rows;
  h->cols = cols;
  h->nnz = nnz;
  h->ro = (int64_t *)strata_impl_alloc((int64_t)rows + 1, sizeof(int64_t));
  h->ci = (int32_t *)strata_impl_alloc(nnz, sizeof(int32_t));
  h->va = (double *)strata_impl_alloc(nnz, sizeof(double));
  if (!h->ro || !h->ci || !h->va) {
    host_csr_free(h);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: a %d x %d matrix of %lld entries (host)", w, (int)rows,
                            (int)cols, (long long)nnz);
  }
  h->ro[0] = 0;
  return STRATA_SUCCESS;
}

static strata_status_t download(strata_exec_t *exec, const strata_crs_matrix_t *M, host_csr_t *h, const char *w) {
  strata_status_t st = host_csr_alloc(h, M->num_rows, M->num_cols, M->nnz, w);
  if (!st) st = strata_mem_copy(exec, h->ro, M->row_offsets, ((size_t)M->num_rows + 1) * sizeof(int64_t));
  if (!st && M->nnz > 0) st = strata_mem_copy(exec, h->ci, M->col_indices, (size_t)M->nnz * sizeof(int32_t));
  if (!st && M->nnz > 0) st = strata_mem_copy(exec, h->va, M->values, (size_t)M->nnz * sizeof(double));
  if (st) host_csr_free(h);
  return st;
}

/* the CrsMatrix of h on exec (its arrays copied into exec memory, adopted by the matrix) */
static strata_status_t upload(strata_exec_t *exec, const host_csr_t *h, strata_crs_matrix_t **M) {
  int64_t *ro = NULL;
  int32_t *ci = NULL;
  double *va = NULL;
  strata_status_t st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, ((size_t)h->rows + 1) * sizeof(int64_t), (void **)&ro);
  if (!st && h->nnz > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)h->nnz * sizeof(int32_t), (void **)&ci);
  if (!st && h->nnz > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)h->nnz * sizeof(double), (void **)&va);
  if (!st) st = strata_mem_copy(exec, ro, h->ro, ((size_t)h->rows + 1) * sizeof(int64_t));
  if (!st && h->nnz > 0) st = strata_mem_copy(exec, ci, h->ci, (size_t)h->nnz * sizeof(int32_t));
  if (!st && h->nnz > 0) st = strata_mem_copy(exec, va, h->va, (size_t)h->nnz * sizeof(double));
  if (!st) st = strata_crs_create_from_csr(exec, h->rows, h->cols, h->nnz, ro, ci, va, STRATA_CRS_ADOPT, M);
  if (st) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&ro);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&ci);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&va);
  }
  return st;
}

/* ------------------------------------------------------------------ Jacobi and l1-Jacobi */

/* The rank's rows with the ghost columns after the owned ones: [D | O], n x (ncols + nghosts),
 * each row's diagonal-block entries, then its off-diagonal ones. */
static strata_status_t rows_with_ghosts(strata_exec_t *exec, const strata_dist_crs_t *A, strata_crs_matrix_t **M) {
  const char *w = "dist l1-jacobi";
  host_csr_t d, o, c;
  memset(&c, 0, sizeof c);
  strata_status_t st = download(exec, A->diag, &d, w);
  if (st) return st;
  if ((st = download(exec, A->offdiag, &o, w))) {
    host_csr_free(&d);
    return st;
  }
  const int32_t off = A->diag->num_cols;
  if ((int64_t)off + A->num_ghosts > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %d owned and %d ghost columns: more than %d", w, (int)off,
                          (int)A->num_ghosts, INT32_MAX);
  if (!st) st = host_csr_alloc(&c, d.rows, off + A->num_ghosts, d.nnz + o.nnz, w);
  for (int32_t i = 0; !st && i < d.rows; ++i) {
    int64_t k = c.ro[i];
    for (int64_t e = d.ro[i]; e < d.ro[i + 1]; ++e, ++k) c.ci[k] = d.ci[e], c.va[k] = d.va[e];
    for (int64_t e = o.ro[i]; e < o.ro[i + 1]; ++e, ++k) c.ci[k] = off + o.ci[e], c.va[k] = o.va[e];
    c.ro[i + 1] = k;
  }
  if (!st) st = upload(exec, &c, M);
  host_csr_free(&c);
  host_csr_free(&d);
  host_csr_free(&o);
  return st;
}

static strata_status_t jacobi_create(strata_exec_t *exec, const strata_dist_crs_t *A, strata_jacobi_kind_t kind,
                                     strata_precond_t **P) {
  strata_status_t st = strata_precond_create_jacobi(exec, kind, P);
  strata_crs_matrix_t *M = NULL;
  if (!st && kind == STRATA_L1_JACOBI) st = rows_with_ghosts(exec, A, &M);
  if (!st) st = strata_precond_setup_jacobi_rows(exec, *P, M ? M : A->diag);
  strata_crs_destroy(&M);
  return st;
}

/* ------------------------------------------------------------------ block-Jacobi and RAS */

/* the solvers' Schwarz with inner's options set up on M: more partitions than M's rows refused (a
 * rank without rows has one empty partition); w names the caller, rank the rank */
static strata_status_t inner_create(strata_exec_t *exec, const strata_schwarz_options_t *inner, const strata_crs_matrix_t *M,
                                    int rank, const char *w, const char *rows_kind, strata_precond_t **P) {
  strata_schwarz_options_t so = *inner;
  if (M->num_rows > 0 && so.num_parts > M->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: %d inner partitions, above the limit %d (the %s rows of rank %d; the inner "
                            "partitions are per rank)", w, so.num_parts, (int)M->num_rows,
                            rows_kind, rank);
  if (M->num_rows == 0) so.num_parts = 1;
  strata_operator_t *op = NULL;
  strata_status_t st = strata_precond_create_schwarz(exec, &so, P);
  if (!st) st = strata_operator_create_crs(exec, M, NULL, &op);
  if (!st) st = strata_precond_setup(exec, *P, op);
  strata_operator_destroy(&op); /* the Schwarz keeps its own blocks: the operator is not needed again */
  return st;
}

/* (gid, index) pairs: the extended set of a rank, sorted by gid for lookups */
typedef struct gid_idx {
  int64_t gid;
  int32_t idx;
} gid_idx_t;

static int cmp_gid_idx(const void *a, const void *b) {
  const int64_t x = ((const gid_idx_t *)a)->gid, y = ((const gid_idx_t *)b)->gid;
  return x < y ? -1 : x > y;
}

static int cmp_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static int32_t set_find(const gid_idx_t *s, int64_t n, int64_t gid) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (s[mid].gid < gid)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && s[lo].gid == gid ? s[lo].idx : -1;
}

/* one entry of an imported row (global ids) */
typedef struct row_entry {
  int64_t row, col;
  double val;
} row_entry_t;

/* the extended rows of a rank, host, global column ids: rows 0..n-1 its own, then the imported */
typedef struct ext_rows {
  int64_t m, cap_rows;
  int64_t *gid;   /* [m] the row's global id */
  int64_t *start; /* [m + 1] into col / val */
  int64_t nnz, cap_nnz;
  int64_t *col;
  double *val;
} ext_rows_t;

static void ext_free(ext_rows_t *e) {
  free(e->gid);
  free(e->start);
  free(e->col);
  free(e->val);
  memset(e, 0, sizeof *e);
}

static int ext_reserve(ext_rows_t *e, int64_t rows, int64_t nnz) {
  if (rows > e->cap_rows || !e->start) {
    int64_t cap = e->cap_rows ? e->cap_rows : 16;
    while (cap < rows) cap *= 2;
    int64_t *g = (int64_t *)realloc(e->gid, (size_t)cap * sizeof *g);
    if (g) e->gid = g;
    int64_t *s = (int64_t *)realloc(e->start, ((size_t)cap + 1) * sizeof *s);
    if (s) e->start = s;
    if (!g || !s) return 0;
    e->cap_rows = cap;
  }
  if (nnz > e->cap_nnz || !e->col) {
    int64_t cap = e->cap_nnz ? e->cap_nnz : 64;
    while (cap < nnz) cap *= 2;
    int64_t *c = (int64_t *)realloc(e->col, (size_t)cap * sizeof *c);
    if (c) e->col = c;
    double *v = (double *)realloc(e->val, (size_t)cap * sizeof *v);
    if (v) e->val = v;
    if (!c || !v) return 0;
    e->cap_nnz = cap;
  }
  return 1;
}

/* the rank's own rows in global ids: row i's diagonal-block entries (domain-map gids of the
 * columns) then its off-diagonal ones (ghost gids) */
static strata_status_t own_rows(strata_exec_t *exec, const strata_dist_crs_t *A, const int64_t *gids, ext_rows_t *e,
                                const char *w) {
  host_csr_t d, o;
  strata_status_t st = download(exec, A->diag, &d, w);
  if (st) return st;
  if ((st = download(exec, A->offdiag, &o, w))) {
    host_csr_free(&d);
    return st;
  }
  const int32_t n = d.rows;
  if (!ext_reserve(e, n, d.nnz + o.nnz))
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d rows of %lld entries", w, (int)n, (long long)(d.nnz + o.nnz));
  if (!st) {
    e->start[0] = 0;
    int64_t k = 0;
    for (int32_t i = 0; i < n; ++i) {
      e->gid[i] = gids[i];
      for (int64_t q = d.ro[i]; q < d.ro[i + 1]; ++q, ++k) e->col[k] = gids[d.ci[q]], e->val[k] = d.va[q];
      for (int64_t q = o.ro[i]; q < o.ro[i + 1]; ++q, ++k) e->col[k] = A->ghost_gids[o.ci[q]], e->val[k] = o.va[q];
      e->start[i + 1] = k;
    }
    e->m = n;
    e->nnz = k;
  }
  host_csr_free(&d);
  host_csr_free(&o);
  return st;
}

/* The columns of rows [from, e->m) that are not in the set s [ns] (sorted, unique) in *F [*nf]
 * (malloc). */
static strata_status_t frontier(const ext_rows_t *e, int64_t from, const gid_idx_t *s, int64_t ns, int64_t **F,
                                int64_t *nf, const char *w) {
  const int64_t k0 = e->start[from], k1 = e->start[e->m];
  int64_t *f = (int64_t *)strata_impl_alloc(k1 - k0, sizeof(int64_t));
  if (!f) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld columns", w, (long long)(k1 - k0));
  int64_t n = 0;
  for (int64_t k = k0; k < k1; ++k)
    if (set_find(s, ns, e->col[k]) < 0) f[n++] = e->col[k];
  qsort(f, (size_t)n, sizeof *f, cmp_i64);
  int64_t u = 0;
  for (int64_t k = 0; k < n; ++k)
    if (u == 0 || f[k] != f[u - 1]) f[u++] = f[k];
  *F = f;
  *nf = u;
  return STRATA_SUCCESS;
}

typedef struct owner_gid {
  int owner;
  int32_t lid;
  int64_t gid;
} owner_gid_t;

static int cmp_owner_gid(const void *a, const void *b) {
  const owner_gid_t *x = (const owner_gid_t *)a, *y = (const owner_gid_t *)b;
  if (x->owner != y->owner) return x->owner < y->owner ? -1 : 1;
  return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* One layer: the rows F [nf] (owned by other ranks) asked of their owners and appended to e in
 * (owner, gid) order. Collective (every rank, also with nf = 0). */
static strata_status_t import_layer(const strata_dist_crs_t *A, const int64_t *F, int64_t nf, const ext_rows_t *own,
                                    ext_rows_t *e, const char *w) {
  const strata_dist_map_t *map = A->row_map;
  const int p = map->size;
  MPI_Comm comm = map->comm;
  int *owners = (int *)strata_impl_alloc(nf, sizeof(int));
  int32_t *lids = (int32_t *)strata_impl_alloc(nf, sizeof(int32_t));
  owner_gid_t *q = (owner_gid_t *)strata_impl_alloc(nf, sizeof *q);
  int64_t *scount = (int64_t *)calloc((size_t)p, sizeof(int64_t));
  int64_t *rcount = (int64_t *)calloc((size_t)p, sizeof(int64_t));
  int64_t *req = (int64_t *)strata_impl_alloc(nf, sizeof(int64_t));
  strata_status_t st = STRATA_SUCCESS;
  if (!owners || !lids || !q || !scount || !rcount || !req)
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the owners of %lld rows", w, (long long)nf);
  st = strata_impl_agree(comm, st);
  if (!st) st = strata_dist_map_owners(map, nf, F, owners, lids);
  int64_t nreq = 0, nrep = 0;
  int64_t *asked = NULL;
  row_entry_t *rep = NULL, *got = NULL;
  if (!st) {
    for (int64_t k = 0; k < nf; ++k) {
      owner_gid_t t = {owners[k], lids[k], F[k]};
      q[k] = t;
    }
    qsort(q, (size_t)nf, sizeof *q, cmp_owner_gid);
    if (nf > 0 && q[0].owner < 0) /* F are columns of A: the domain map owns them */
      st = strata_error_set(STRATA_ERR_INTERNAL, "%s: row %lld has no owner", w, (long long)q[0].gid);
    for (int64_t k = 0; !st && k < nf; ++k) scount[q[k].owner]++, req[k] = q[k].lid;
    st = strata_impl_agree(comm, st);
    if (!st) st = strata_impl_exchange(comm, sizeof(int64_t), scount, req, rcount, (void **)&asked, &nreq);
  }
  if (!st) { /* the rows asked of this rank, grouped by the asking rank */
    int64_t total = 0;
    for (int64_t k = 0; k < nreq; ++k) total += own->start[asked[k] + 1] - own->start[asked[k]];
    rep = (row_entry_t *)strata_impl_alloc(total, sizeof *rep);
    if (!rep) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries asked for", w, (long long)total);
    st = strata_impl_agree(comm, st);
    if (!st) {
      int64_t k = 0, pos = 0;
      for (int r = 0; r < p; ++r) {
        int64_t cnt = 0;
        for (int64_t j = 0; j < rcount[r]; ++j, ++k) {
          const int64_t lid = asked[k];
          for (int64_t x = own->start[lid]; x < own->start[lid + 1]; ++x, ++cnt) {
            row_entry_t t = {own->gid[lid], own->col[x], own->val[x]};
            rep[pos++] = t;
          }
        }
        scount[r] = cnt;
      }
      st = strata_impl_exchange(comm, sizeof(row_entry_t), scount, rep, rcount, (void **)&got, &nrep);
    }
  }
  if (!st && !ext_reserve(e, e->m + nf, e->nnz + nrep))
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld imported rows of %lld entries", w, (long long)nf,
                          (long long)nrep);
  st = strata_impl_agree(comm, st);
  if (!st) { /* the replies come by owner rank, each owner's in the order asked: that of q */
    int64_t x = 0;
    for (int64_t k = 0; k < nf; ++k) {
      const int64_t row = e->m++;
      e->gid[row] = q[k].gid;
      for (; x < nrep && got[x].row == q[k].gid; ++x, ++e->nnz) e->col[e->nnz] = got[x].col, e->val[e->nnz] = got[x].val;
      e->start[row + 1] = e->nnz;
    }
  }
  free(owners);
  free(lids);
  free(q);
  free(scount);
  free(rcount);
  free(req);
  free(asked);
  free(rep);
  free(got);
  return st;
}

/* the extended set of e's rows, sorted by gid */
static gid_idx_t *ext_set(const ext_rows_t *e) {
  gid_idx_t *s = (gid_idx_t *)strata_impl_alloc(e->m, sizeof *s);
  if (!s) return NULL;
  for (int64_t i = 0; i < e->m; ++i) s[i].gid = e->gid[i], s[i].idx = (int32_t)i;
  qsort(s, (size_t)e->m, sizeof *s, cmp_gid_idx);
  return s;
}

typedef struct col_val {
  int32_t col;
  double val;
} col_val_t;

static int cmp_col_val(const void *a, const void *b) {
  const int32_t x = ((const col_val_t *)a)->col, y = ((const col_val_t *)b)->col;
  return x < y ? -1 : x > y;
}

/* the m x m matrix of e's rows in the extended numbering, columns outside the set dropped */
static strata_status_t ext_matrix(strata_exec_t *exec, const ext_rows_t *e, const gid_idx_t *s, strata_crs_matrix_t **M,
                                  const char *w) {
  host_csr_t h;
  strata_status_t st = host_csr_alloc(&h, (int32_t)e->m, (int32_t)e->m, e->nnz, w);
  col_val_t *row = (col_val_t *)strata_impl_alloc(e->nnz, sizeof *row);
  if (!st && !row) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries", w, (long long)e->nnz);
  int64_t k = 0;
  for (int64_t i = 0; !st && i < e->m; ++i) {
    int64_t c = 0;
    for (int64_t x = e->start[i]; x < e->start[i + 1]; ++x) {
      const int32_t j = set_find(s, e->m, e->col[x]);
      if (j >= 0) row[c].col = j, row[c].val = e->val[x], ++c;
    }
    qsort(row, (size_t)c, sizeof *row, cmp_col_val);
    for (int64_t x = 0; x < c; ++x, ++k) h.ci[k] = row[x].col, h.va[k] = row[x].val;
    h.ro[i + 1] = k;
  }
  h.nnz = k;
  if (!st) st = upload(exec, &h, M);
  free(row);
  host_csr_free(&h);
  return st;
}

typedef struct ras {
  const strata_dist_crs_t *A;
  strata_exec_t *exec;
  int32_t n;             /* owned rows */
  int64_t m;             /* extended rows */
  strata_crs_matrix_t *Aext;
  strata_precond_t *inner;
  strata_dist_plan_t *plan; /* r's values of the overlap rows (NULL: outer overlap 0) */
  double *r_ext, *z_ext;    /* [m] exec memory */
} ras_t;

static void ras_destroy(void *ctx) {
  ras_t *R = (ras_t *)ctx;
  if (!R) return;
  strata_dist_plan_destroy(&R->plan);
  strata_precond_destroy(&R->inner);
  strata_crs_destroy(&R->Aext);
  strata_mem_free(R->exec, STRATA_MEM_DEVICE, (void **)&R->r_ext);
  strata_mem_free(R->exec, STRATA_MEM_DEVICE, (void **)&R->z_ext);
  free(R);
}

static strata_status_t ras_apply(void *ctx, strata_exec_t *exec, const double *r, double *z) {
  ras_t *R = (ras_t *)ctx;
  strata_status_t st = STRATA_SUCCESS;
  if (R->m > 0) st = strata_vec_copy(exec, R->n, r, R->r_ext);
  if (R->plan) { /* every rank: its owned values may be another's overlap */
    const strata_status_t sb = strata_dist_plan_import_begin(R->plan, exec, r, R->r_ext ? R->r_ext + R->n : NULL);
    if (sb) return sb;
    const strata_status_t se = strata_dist_plan_end(R->plan);
    if (!st) st = se;
  }
  if (!st && R->m > 0) st = strata_precond_apply(exec, R->inner, R->r_ext, R->z_ext);
  if (!st && R->m > 0) st = strata_vec_copy(exec, R->n, R->z_ext, z); /* restricted: the owned rows only */
  return st;
}

/* no-op product of the operator that marks the wrapper set up for n rows */
static strata_status_t no_apply(void *ctx, strata_exec_t *exec, double alpha, const double *x, double beta, double *y) {
  (void)ctx, (void)exec, (void)alpha, (void)x, (void)beta, (void)y;
  return STRATA_SUCCESS;
}

static strata_status_t ras_create(strata_exec_t *exec, const strata_dist_crs_t *A, const strata_dist_precond_options_t *o,
                                  strata_precond_t **P) {
  const char *w = "dist ras";
  MPI_Comm comm = A->row_map->comm;
  const int32_t n = A->row_map->num_local;
  ras_t *R = (ras_t *)calloc(1, sizeof *R);
  int64_t *gids = (int64_t *)strata_impl_alloc(n, sizeof(int64_t));
  ext_rows_t own, e;
  memset(&own, 0, sizeof own);
  memset(&e, 0, sizeof e);
  strata_status_t st = STRATA_SUCCESS;
  if (!R || !gids) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d rows", w, (int)n);
  if (R) R->exec = exec;
  if (!st) st = strata_dist_map_gids(A->row_map, gids);
  if (!st) st = own_rows(exec, A, gids, &own, w);
  if (!st && !ext_reserve(&e, own.m, own.nnz))
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries", w, (long long)own.nnz);
  if (!st) {
    memcpy(e.gid, own.gid, (size_t)own.m * sizeof(int64_t));
    memcpy(e.start, own.start, ((size_t)own.m + 1) * sizeof(int64_t));
    memcpy(e.col, own.col, (size_t)own.nnz * sizeof(int64_t));
    memcpy(e.val, own.val, (size_t)own.nnz * sizeof(double));
    e.m = own.m;
    e.nnz = own.nnz;
  }
  st = strata_impl_agree(comm, st);
  /* the layers: the columns of the last layer's rows not taken yet, their rows imported */
  int64_t from = 0;
  gid_idx_t *s = NULL;
  for (int layer = 0; !st && layer < o->outer_overlap; ++layer) {
    int64_t *F = NULL, nf = 0;
    s = ext_set(&e);
    if (!s) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the set of %lld rows", w, (long long)e.m);
    if (!st) st = frontier(&e, from, s, e.m, &F, &nf, w);
    free(s);
    s = NULL;
    st = strata_impl_agree(comm, st);
    /* no rank's frontier has rows: the extended sets cover their connected parts of the graph, and
     * further layers would add nothing (an outer overlap far beyond the graph's diameter ends here) */
    int64_t grow = nf;
    if (!st) MPI_Allreduce(&nf, &grow, 1, MPI_INT64_T, MPI_MAX, comm); /* st is the same on every rank */
    if (!st && grow == 0) {
      free(F);
      break;
    }
    from = e.m;
    if (!st) st = import_layer(A, F, nf, &own, &e, w);
    free(F);
  }
  if (!st && e.m > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %lld extended rows, more than %d", w, (long long)e.m, INT32_MAX);
  if (!st) {
    s = ext_set(&e);
    if (!s) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the set of %lld rows", w, (long long)e.m);
  }
  if (!st) {
    R->A = A;
    R->exec = exec;
    R->n = n;
    R->m = e.m;
    st = ext_matrix(exec, &e, s, &R->Aext, w);
  }
  if (!st && e.m > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)e.m * sizeof(double), (void **)&R->r_ext);
  if (!st && e.m > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)e.m * sizeof(double), (void **)&R->z_ext);
  if (!st && e.m > 0) st = inner_create(exec, &o->inner, R->Aext, A->row_map->rank, w, "extended", &R->inner);
  st = strata_impl_agree(comm, st);
  if (!st && o->outer_overlap > 0) st = strata_dist_plan_create(exec, A->row_map, e.m - n, e.gid + n, NULL, &R->plan);
  free(s);
  free(gids);
  ext_free(&own);
  ext_free(&e);
  char name[96], inner[64]; /* from the options: the same on every rank (the inner partitions may be capped) */
  if (o->inner.overlap == 0)
    snprintf(inner, sizeof inner, "bjacobi(%d, ilu(%d))", o->inner.num_parts, o->inner.ilu.fill_level);
  else
    snprintf(inner, sizeof inner, "%s(%d, overlap %d, ilu(%d))", o->inner.restricted ? "ras" : "asm", o->inner.num_parts,
             o->inner.overlap, o->inner.ilu.fill_level);
  snprintf(name, sizeof name, "ras(ranks, outer overlap %d; %s)", o->outer_overlap, inner);
  strata_precond_ops_t ops = {name, NULL, ras_apply, ras_destroy, 0};
  strata_operator_t *shape = NULL;
  if (!st) {
    st = strata_precond_create_user(exec, &ops, R, P);
    if (st) ras_destroy(R);
    R = NULL;
  }
  if (!st) st = strata_operator_create_user(exec, n, n, no_apply, NULL, NULL, &shape);
  if (!st) st = strata_precond_setup(exec, *P, shape); /* marks it set up for n rows */
  strata_operator_destroy(&shape);
  st = strata_impl_agree(comm, st);
  if (st) {
    ras_destroy(R);
    strata_precond_destroy(P);
  }
  return st;
}

/* ------------------------------------------------------------------ the entry point */

strata_status_t strata_dist_precond_create(strata_exec_t *exec, const strata_dist_crs_t *A,
                                           const strata_dist_precond_options_t *opts, strata_precond_t **P) {
  const char *w = "dist precond";
  if (P) *P = NULL;
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL A", w);
  MPI_Comm comm = A->row_map->comm;
  strata_dist_precond_options_t o;
  if (opts)
    o = *opts;
  else
    strata_dist_precond_options_default(&o);
  if (!exec) exec = A->exec;
  strata_status_t st = STRATA_SUCCESS;
  int ov[2] = {o.outer_overlap, -o.outer_overlap};
  MPI_Allreduce(MPI_IN_PLACE, ov, 2, MPI_INT, MPI_MAX, comm);
  if (!P)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL P", w);
  else if (strata_exec_backend(exec) != strata_exec_backend(A->exec))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec is '%s', A lives on '%s'", w,
                          strata_backend_name(strata_exec_backend(exec)),
                          strata_backend_name(strata_exec_backend(A->exec)));
  else if (o.kind < STRATA_DIST_PRECOND_JACOBI || o.kind > STRATA_DIST_PRECOND_RAS)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: kind = %d (must be 0 jacobi, 1 l1-jacobi, 2 block-jacobi or 3 two-level ras)", w,
                          (int)o.kind);
  else if (A->domain_map != A->row_map)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: A's domain map is not its row map (build A with domain_map NULL or the row map)", w);
  else if (o.kind == STRATA_DIST_PRECOND_RAS && o.outer_overlap < 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: outer_overlap = %d, below the limit 0", w, o.outer_overlap);
  else if (o.kind == STRATA_DIST_PRECOND_RAS && ov[0] != -ov[1])
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: outer_overlap differs between ranks (from %d to %d; it must be the same on all)", w, -ov[1],
                          ov[0]);
  else if ((o.kind == STRATA_DIST_PRECOND_BLOCK || o.kind == STRATA_DIST_PRECOND_RAS) && o.inner.parts)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: inner.parts given; the inner partitions of each rank come from inner.partitioner", w);
  if ((st = strata_impl_agree(comm, st))) return st;
  switch (o.kind) {
    case STRATA_DIST_PRECOND_JACOBI: st = jacobi_create(exec, A, STRATA_JACOBI, P); break;
    case STRATA_DIST_PRECOND_L1_JACOBI: st = jacobi_create(exec, A, STRATA_L1_JACOBI, P); break;
    case STRATA_DIST_PRECOND_BLOCK: st = inner_create(exec, &o.inner, A->diag, A->row_map->rank, w, "owned", P); break;
    default: return ras_create(exec, A, &o, P);
  }
  if ((st = strata_impl_agree(comm, st))) strata_precond_destroy(P);
  return st;
}
