/* strata dist — the distributed CrsMatrix built from entries given on the wrong ranks (summed;
 * invalid rows and columns counted over all ranks and reported, nothing built), and its SpMV in
 * vector, overlap and task mode against the serial single-process SpMV of the same global
 * matrix: 3D Poisson on block and list maps, shared real matrices (square, rectangular with its
 * own domain map, empty rows), a rank without rows, more ranks than rows, ids near 10^9 and
 * beyond 2^31, argument errors on one rank seen by all, task mode refused below
 * MPI_THREAD_SERIALIZED (EDGE_CASES D2-D8, D13). Run under mpirun (tests/dist.cmake). */
#include "test_dist_common.h"

static MPI_Comm W = MPI_COMM_WORLD;

/* block owner of g among p ranks (strata_dist_map_create_block's rule) */
static int block_owner(int64_t g, int64_t n, int p) {
  const int64_t q = n / p, rem = n % p;
  return g < rem * (q + 1) ? (int)(g / (q + 1)) : (int)(rem + (g - rem * (q + 1)) / q);
}

static strata_dist_crs_t *build(const strata_dist_map_t *rm, const strata_dist_map_t *dm, const td_coo_t *e, int staging,
                                strata_dist_build_report_t *rep) {
  strata_dist_crs_options_t o;
  memset(&o, 0, sizeof o);
  o.plan.staging = staging;
  strata_dist_crs_t *A = NULL;
  T_OK(strata_dist_crs_create_from_entries(T_exec, rm, dm, e->n, e->r, e->c, e->v, &o, rep, &A));
  return A;
}

/* 3D Poisson, every entry given on the rank after its row's owner and the diagonal split in two
 * halves on two other ranks: summed, exported, and every SpMV mode equal to serial */
static void poisson_wrong_ranks(int staging) {
  const int64_t nx = 9, n = nx * nx * nx;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, n, &m));
  td_coo_t all = {0}, mine = {0};
  td_poisson3d(nx, 0, n, &all);
  int64_t exported = 0;
  for (int64_t k = 0; k < all.n; ++k) {
    const int own = block_owner(all.r[k], n, td_size);
    if (all.r[k] != all.c[k]) {
      if ((own + 1) % td_size == td_rank) td_push(&mine, all.r[k], all.c[k], all.v[k]), exported += own != td_rank;
    } else {
      if ((own + 1) % td_size == td_rank) td_push(&mine, all.r[k], all.c[k], 4.0), exported += own != td_rank;
      if ((own + 2) % td_size == td_rank) td_push(&mine, all.r[k], all.c[k], 2.0), exported += own != td_rank;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &exported, 1, MPI_INT64_T, MPI_SUM, W);
  strata_dist_build_report_t rep;
  strata_dist_crs_t *A = build(m, NULL, &mine, staging, &rep);
  TD_CHECK(rep.entries_given == all.n + n && rep.entries_stored == all.n && rep.duplicates_summed == n &&
               rep.entries_exported == exported && rep.invalid_rows == 0 && rep.invalid_cols == 0 && rep.num_examples == 0,
           "report: given %lld stored %lld duplicates %lld exported %lld (expected %lld, %lld, %lld, %lld)",
           (long long)rep.entries_given, (long long)rep.entries_stored, (long long)rep.duplicates_summed,
           (long long)rep.entries_exported, (long long)(all.n + n), (long long)all.n, (long long)n, (long long)exported);
  strata_dist_crs_info_t in;
  T_OK(strata_dist_crs_info(A, &in));
  strata_dist_plan_info_t pi;
  T_OK(strata_dist_plan_info(in.plan, &pi));
  int sorted = 1;
  for (int32_t g = 1; g < in.num_ghosts; ++g)
    if (in.ghost_owners[g] < in.ghost_owners[g - 1] ||
        (in.ghost_owners[g] == in.ghost_owners[g - 1] && in.ghost_gids[g] <= in.ghost_gids[g - 1]))
      sorted = 0;
  TD_CHECK(sorted && pi.identity_order && pi.staged == (staging || !strata_exec_is_host(T_exec)) &&
               in.nnz_global == all.n && in.diag->num_cols == in.num_local_cols && in.offdiag->num_cols == in.num_ghosts,
           "blocks: ghosts sorted %d, identity %d, staged %d, nnz %lld", sorted, pi.identity_order, pi.staged,
           (long long)in.nnz_global);
  strata_crs_matrix_t *G = td_global_crs((int32_t)n, (int32_t)n, &mine);
  td_check_spmv(A, G, 1.0, 0.0);
  td_check_spmv(A, G, -0.75, 0.5);
  strata_crs_destroy(&G);
  T_OK(strata_dist_crs_destroy(&A));
  assert_null(A);
  td_coo_free(&all);
  td_coo_free(&mine);
  strata_dist_map_destroy(&m);
}

static void test_poisson3d_wrong_ranks(void **state) {
  (void)state;
  poisson_wrong_ranks(0);
  poisson_wrong_ranks(1); /* the staged path of GPU execution spaces, on the host */
}

/* rows dealt round-robin (a list map, descending on each rank): ghosts found by the directory */
static void test_poisson3d_list_map(void **state) {
  (void)state;
  const int64_t nx = 7, n = nx * nx * nx;
  int64_t *ids = (int64_t *)t_malloc((size_t)n * sizeof(int64_t));
  int64_t nl = 0;
  for (int64_t g = n - 1; g >= 0; --g)
    if (g % td_size == td_rank) ids[nl++] = g;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_list(W, nl, ids, &m));
  td_coo_t all = {0}, mine = {0};
  td_poisson3d(nx, 0, n, &all);
  for (int64_t k = 0; k < all.n; ++k)
    if ((all.r[k] * 7 + all.c[k]) % td_size == td_rank) td_push(&mine, all.r[k], all.c[k], all.v[k]);
  strata_dist_build_report_t rep;
  strata_dist_crs_t *A = build(m, m, &mine, 0, &rep);
  TD_CHECK(rep.entries_stored == all.n && rep.duplicates_summed == 0, "stored %lld of %lld", (long long)rep.entries_stored,
           (long long)all.n);
  strata_crs_matrix_t *G = td_global_crs((int32_t)n, (int32_t)n, &mine);
  td_check_spmv(A, G, 2.0, 0.0);
  td_check_spmv(A, G, 1.0, -1.0);
  strata_crs_destroy(&G);
  strata_dist_crs_destroy(&A);
  td_coo_free(&all);
  td_coo_free(&mine);
  strata_dist_map_destroy(&m);
  free(ids);
}

/* real matrices: each rank gives the entries k with k mod p = p - 1 - rank of the file */
static void test_shared_matrices(void **state) {
  (void)state;
  const char *files[] = {"suitesparse/LAGraph/bcsstk13.mtx", "suitesparse/Mongoose/Erdos971.mtx", "scipy/illc1033.mtx",
                         "ginkgo/ani4.mtx"};
  for (int f = 0; f < 4; ++f) {
    strata_coo_t *coo = td_read_shared(files[f]);
    if (!coo) continue;
    td_coo_t mine = {0};
    for (int64_t k = 0; k < coo->nnz; ++k)
      if (k % td_size == td_size - 1 - td_rank) td_push(&mine, coo->rows[k], coo->cols[k], coo->values[k]);
    strata_dist_map_t *rm = NULL, *dm = NULL;
    T_OK(strata_dist_map_create_block(W, coo->num_rows, &rm));
    const int square = coo->num_rows == coo->num_cols;
    if (!square) { /* the columns dealt round-robin: x's distribution differs from y's */
      int64_t *ids = (int64_t *)t_malloc((size_t)coo->num_cols * sizeof(int64_t));
      int64_t nl = 0;
      for (int64_t j = 0; j < coo->num_cols; ++j)
        if (j % td_size == td_rank) ids[nl++] = j;
      T_OK(strata_dist_map_create_list(W, nl, ids, &dm));
      free(ids);
    }
    strata_dist_build_report_t rep;
    strata_dist_crs_t *A = build(rm, dm, &mine, 0, &rep);
    strata_crs_matrix_t *G = td_global_crs(coo->num_rows, coo->num_cols, &mine);
    TD_CHECK(rep.entries_stored == G->nnz && rep.entries_given == coo->nnz, "%s: stored %lld, serial %lld", files[f],
             (long long)rep.entries_stored, (long long)G->nnz);
    td_check_spmv(A, G, 1.0, 0.0);
    td_check_spmv(A, G, 0.5, 2.0);
    strata_crs_destroy(&G);
    strata_dist_crs_destroy(&A);
    strata_dist_map_destroy(&dm);
    strata_dist_map_destroy(&rm);
    td_coo_free(&mine);
    strata_coo_destroy(&coo);
  }
}

static void tridiag(int64_t n, td_coo_t *e) {
  for (int64_t g = 0; g < n; ++g) {
    if (g > 0) td_push(e, g, g - 1, -1.0);
    td_push(e, g, g, 2.0);
    if (g < n - 1) td_push(e, g, g + 1, -1.0);
  }
}

/* D4: more ranks than rows (n = 3 on 4 ranks), and 25 rows all given on rank 0 */
static void test_more_ranks_than_rows(void **state) {
  (void)state;
  const int64_t sizes[2] = {3, 25};
  for (int s = 0; s < 2; ++s) {
    strata_dist_map_t *m = NULL;
    T_OK(strata_dist_map_create_block(W, sizes[s], &m));
    td_coo_t mine = {0};
    if (td_rank == 0) tridiag(sizes[s], &mine);
    strata_dist_build_report_t rep;
    strata_dist_crs_t *A = build(m, NULL, &mine, 0, &rep);
    strata_dist_crs_info_t in;
    strata_dist_crs_info(A, &in);
    TD_CHECK(in.num_local_rows == sizes[s] / td_size + (td_rank < sizes[s] % td_size), "%d rows here", (int)in.num_local_rows);
    strata_crs_matrix_t *G = td_global_crs((int32_t)sizes[s], (int32_t)sizes[s], &mine);
    td_check_spmv(A, G, 1.0, 0.0);
    td_check_spmv(A, G, 1.0, 1.0);
    strata_crs_destroy(&G);
    strata_dist_crs_destroy(&A);
    td_coo_free(&mine);
    strata_dist_map_destroy(&m);
  }
}

/* D7: rows nobody owns (beyond the map, and in the holes of a list map), columns nobody owns:
 * counted over all ranks, the lowest rank's first ones named, INVALID_DATA on every rank */
static void test_invalid_entries(void **state) {
  (void)state;
  const int bad = td_size - 1;
  char who[64];
  snprintf(who, sizeof who, "the first: rank %d, entry 1", bad);
  strata_dist_map_t *m = NULL, *lm = NULL;
  T_OK(strata_dist_map_create_block(W, 4, &m));
  int64_t lids[4], nl = 0;
  for (int64_t g = 0; g < 4; ++g)
    if (g % td_size == td_rank) lids[nl++] = 10 * g; /* ids 0, 10, 20, 30 */
  T_OK(strata_dist_map_create_list(W, nl, lids, &lm));
  for (int list = 0; list < 2; ++list) {
    const int64_t s = list ? 10 : 1;
    td_coo_t e = {0};
    td_push(&e, 0, 0, 1.0);
    if (td_rank == bad) {
      td_push(&e, list ? 15 : 99, 0, 1.0); /* a row nobody owns */
      td_push(&e, s, 4 * s, 1.0);          /* a column nobody owns */
      td_push(&e, 2 * s, -1, 1.0);
      td_push(&e, -3, -3, 1.0);            /* both: counted as a bad row */
    }
    strata_dist_build_report_t rep;
    strata_dist_crs_t *A = NULL;
    const strata_dist_map_t *mm = list ? lm : m;
    td_expect(strata_dist_crs_create_from_entries(T_exec, mm, NULL, e.n, e.r, e.c, e.v, NULL, &rep, &A),
              STRATA_ERR_INVALID_DATA, "2 entries with a row no rank owns and 2 with a column no rank owns", who);
    assert_null(A);
    TD_CHECK(rep.entries_given == td_size + 4 && rep.invalid_rows == 2 && rep.invalid_cols == 2 && rep.num_examples == 4 &&
                 rep.examples[0].rank == bad && rep.examples[0].index == 1 && rep.examples[0].row == (list ? 15 : 99) &&
                 rep.examples[1].col == 4 * s && rep.examples[3].row == -3,
             "report: given %lld, bad rows %lld, bad cols %lld, %d examples, first rank %d index %lld row %lld",
             (long long)rep.entries_given, (long long)rep.invalid_rows, (long long)rep.invalid_cols, rep.num_examples,
             rep.examples[0].rank, (long long)rep.examples[0].index, (long long)rep.examples[0].row);
    td_coo_free(&e);
  }
  strata_dist_map_destroy(&lm);
  strata_dist_map_destroy(&m);
}

/* D8: every rank adds 1.0 twice to (0, 0) and once to (0, 1); built again three times */
static void test_same_entry_many_ranks(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, 4, &m));
  for (int rep_i = 0; rep_i < 3; ++rep_i) {
    td_coo_t e = {0};
    td_push(&e, 0, 0, 1.0);
    td_push(&e, 0, 1, 1.0);
    td_push(&e, 0, 0, 1.0);
    if (td_rank == 0)
      for (int64_t g = 1; g < 4; ++g) td_push(&e, g, g, 1.0);
    strata_dist_build_report_t rep;
    strata_dist_crs_t *A = build(m, NULL, &e, 0, &rep);
    TD_CHECK(rep.entries_stored == 5 && rep.duplicates_summed == 3 * td_size - 2, "stored %lld, duplicates %lld",
             (long long)rep.entries_stored, (long long)rep.duplicates_summed);
    strata_crs_matrix_t *G = td_global_crs(4, 4, &e);
    double a00 = 0, a01 = 0;
    for (int64_t k = G->row_offsets[0]; k < G->row_offsets[1]; ++k) {
      if (G->col_indices[k] == 0) a00 = G->values[k];
      else a01 = G->values[k];
    }
    TD_CHECK(a00 == 2.0 * td_size && a01 == (double)td_size, "A(0,0) = %g, A(0,1) = %g", a00, a01);
    td_check_spmv(A, G, 1.0, 0.0); /* the distributed matrix holds the same sums */
    strata_crs_destroy(&G);
    strata_dist_crs_destroy(&A);
    td_coo_free(&e);
  }
  strata_dist_map_destroy(&m);
}

/* D2: ids {0, 2} and {1, 3} on two ranks (row g on rank g mod p), A = tridiag(-1, 2, -1) in id
 * order, x[g] = g + 1: y = [0, 0, 0, 5]; and the same with ids near 10^9 and beyond 2^31 */
static void test_noncontiguous_ids(void **state) {
  (void)state;
  const int64_t bases[3] = {0, 1000000000, INT64_C(1) << 33}, strides[3] = {1, 7, (INT64_C(1) << 31) + 3};
  for (int b = 0; b < 3; ++b) {
    int64_t ids[4], nl = 0;
    for (int64_t g = 0; g < 4; ++g)
      if (g % td_size == td_rank) ids[nl++] = bases[b] + g * strides[b];
    strata_dist_map_t *m = NULL;
    T_OK(strata_dist_map_create_list(W, nl, ids, &m));
    td_coo_t e = {0}, t = {0};
    tridiag(4, &t);
    for (int64_t k = 0; k < t.n; ++k)
      if (k % td_size == (td_rank + 1) % td_size)
        td_push(&e, bases[b] + t.r[k] * strides[b], bases[b] + t.c[k] * strides[b], t.v[k]);
    strata_dist_crs_t *A = build(m, NULL, &e, 0, NULL);
    double x[4], y[4] = {NAN, NAN, NAN, NAN};
    for (int64_t l = 0; l < nl; ++l) x[l] = (double)((ids[l] - bases[b]) / strides[b] + 1);
    double *dx = (double *)t_to_dev(x, sizeof x), *dy = (double *)t_to_dev(y, sizeof y);
    T_OK(strata_dist_crs_spmv(NULL, STRATA_DIST_OVERLAP, 1.0, A, dx, 0.0, dy));
    strata_exec_fence(T_exec);
    t_to_host(y, dy, sizeof y);
    const double want[4] = {0, 0, 0, 5};
    int badl = -1;
    for (int64_t l = 0; l < nl; ++l)
      if (y[l] != want[(ids[l] - bases[b]) / strides[b]]) badl = (int)l;
    TD_CHECK(badl < 0, "ids from %lld by %lld: y[id %lld] = %g", (long long)bases[b], (long long)strides[b],
             badl < 0 ? 0LL : (long long)ids[badl], badl < 0 ? 0.0 : y[badl]);
    t_dev_free(dx);
    t_dev_free(dy);
    strata_dist_crs_destroy(&A);
    td_coo_free(&e);
    td_coo_free(&t);
    strata_dist_map_destroy(&m);
  }
}

/* D3: K of three elements, rank 0 owns rows 0-1, rank 1 rows 2-3, rank 2 (and above) none;
 * element (0,1) given on rank 0, (1,2) on rank 2, (2,3) on rank 1; x = [1, 4, 9, 16] */
static void test_rank_without_rows(void **state) {
  (void)state;
  const int64_t nloc = td_size == 1 ? 4 : td_rank < 2 ? 2 : 0;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_contiguous(W, nloc, &m));
  const int64_t el[3][2] = {{0, 1}, {1, 2}, {2, 3}};
  const int on[3] = {0, td_size > 2 ? 2 : td_size - 1, td_size > 1 ? 1 : 0};
  td_coo_t e = {0};
  for (int k = 0; k < 3; ++k)
    if (on[k] == td_rank)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) td_push(&e, el[k][i], el[k][j], i == j ? 1.0 : -1.0);
  strata_dist_crs_t *A = build(m, NULL, &e, 0, NULL);
  strata_dist_crs_info_t in;
  strata_dist_crs_info(A, &in);
  TD_CHECK(in.nnz_global == 10 && (td_rank < 2 || (in.num_local_rows == 0 && in.nnz_local == 0)),
           "nnz %lld, this rank %d rows and %lld entries", (long long)in.nnz_global, (int)in.num_local_rows,
           (long long)in.nnz_local);
  strata_crs_matrix_t *G = td_global_crs(4, 4, &e);
  td_check_spmv(A, G, 1.0, 0.0);
  double x[4] = {1, 4, 9, 16}, y[4];
  const int64_t first = td_size == 1 || td_rank == 0 ? 0 : 2;
  double *dx = (double *)t_to_dev(x + first, (size_t)nloc * sizeof(double)), *dy = (double *)t_dev_alloc(sizeof y);
  T_OK(strata_dist_crs_spmv(NULL, STRATA_DIST_VECTOR, 1.0, A, nloc ? dx : NULL, 0.0, nloc ? dy : NULL));
  strata_exec_fence(T_exec);
  t_to_host(y, dy, sizeof y);
  const double want[4] = {-3, -2, -2, 7};
  int badl = -1;
  for (int64_t l = 0; l < nloc; ++l)
    if (y[l] != want[first + l]) badl = (int)l;
  TD_CHECK(badl < 0, "y[%lld] = %g, expected %g", badl < 0 ? 0LL : (long long)(first + badl), badl < 0 ? 0.0 : y[badl],
           badl < 0 ? 0.0 : want[first + badl]);
  t_dev_free(dx);
  t_dev_free(dy);
  strata_crs_destroy(&G);
  strata_dist_crs_destroy(&A);
  td_coo_free(&e);
  strata_dist_map_destroy(&m);
}

/* D6: a diagonal matrix: no ghosts, no neighbours, y = D x */
static void test_diagonal_no_neighbours(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, 50, &m));
  td_coo_t e = {0};
  for (int64_t g = 0; g < 50; ++g)
    if (block_owner(g, 50, td_size) == td_rank) td_push(&e, g, g, 1.0 + (double)g);
  strata_dist_crs_t *A = build(m, NULL, &e, 0, NULL);
  strata_dist_crs_info_t in;
  strata_dist_crs_info(A, &in);
  strata_dist_plan_info_t pi;
  strata_dist_plan_info(in.plan, &pi);
  TD_CHECK(in.num_ghosts == 0 && pi.num_recv_neighbors == 0 && pi.num_send_neighbors == 0 && in.offdiag->nnz == 0,
           "%d ghosts, %d / %d neighbours", (int)in.num_ghosts, pi.num_recv_neighbors, pi.num_send_neighbors);
  strata_crs_matrix_t *G = td_global_crs(50, 50, &e);
  td_check_spmv(A, G, 1.0, 0.0);
  strata_crs_destroy(&G);
  strata_dist_crs_destroy(&A);
  td_coo_free(&e);
  strata_dist_map_destroy(&m);
}

/* an exec of the caller's (strata_exec_create) given to an SpMV and to a plan exchange, fenced and
 * destroyed by the caller, then the matrix and the plan used again with their own exec: the next
 * exchange must not touch the destroyed exec (it did: a fence of the freed instance, a crash) */
static void test_caller_exec_destroyed(void **state) {
  (void)state;
  const int64_t nx = 5, n = nx * nx * nx;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, n, &m));
  strata_dist_map_info_t mi;
  T_OK(strata_dist_map_info(m, &mi));
  td_coo_t e = {0};
  td_poisson3d(nx, mi.first_gid, mi.first_gid + mi.num_local, &e);
  strata_dist_crs_t *A = build(m, NULL, &e, 0, NULL);
  strata_crs_matrix_t *G = td_global_crs((int32_t)n, (int32_t)n, &e);
  const int32_t nl = mi.num_local;
  double *h = (double *)t_malloc((size_t)(nl + 1) * sizeof(double));
  for (int32_t l = 0; l < nl; ++l) h[l] = 1.0 + (double)l;
  double *dx = (double *)t_to_dev(h, (size_t)nl * sizeof(double)), *dy = (double *)t_dev_alloc((size_t)nl * sizeof(double));
  for (int mode = 0; mode < 3; ++mode) {
    if (mode == STRATA_DIST_TASK && td_thread_level < MPI_THREAD_SERIALIZED) continue;
    strata_exec_t *mine = NULL;
    T_OK(strata_exec_create(strata_exec_backend(T_exec), &mine));
    T_OK(strata_dist_crs_spmv(mine, (strata_dist_mode_t)mode, 1.0, A, dx, 0.0, dy));
    T_OK(strata_exec_fence(mine));
    T_OK(strata_exec_destroy(&mine));
    td_check_spmv(A, G, 1.0, 0.0); /* every mode on the matrix's exec, against serial */
  }
  /* a plan of every id: import with the caller's exec, destroyed, then with the plan's */
  int64_t *ids = (int64_t *)t_malloc((size_t)n * sizeof(int64_t));
  for (int64_t g = 0; g < n; ++g) ids[g] = n - 1 - g;
  strata_dist_plan_t *pl = NULL;
  T_OK(strata_dist_plan_create(T_exec, m, n, ids, NULL, &pl));
  double *dg = (double *)t_dev_alloc((size_t)n * sizeof(double)), *g = (double *)t_malloc((size_t)n * sizeof(double));
  for (int round = 0; round < 2; ++round) {
    strata_exec_t *mine = NULL;
    if (round == 0) T_OK(strata_exec_create(strata_exec_backend(T_exec), &mine));
    T_OK(strata_dist_plan_import_begin(pl, mine, dx, dg));
    T_OK(strata_dist_plan_end(pl));
    if (mine) {
      T_OK(strata_exec_fence(mine));
      T_OK(strata_exec_destroy(&mine));
    }
    T_OK(strata_exec_fence(T_exec));
    t_to_host(g, dg, (size_t)n * sizeof(double));
    int64_t bad = -1;
    for (int64_t k = 0; k < n && bad < 0; ++k) {
      const int64_t gid = ids[k];
      const int owner = block_owner(gid, n, td_size);
      const int64_t first = owner * (n / td_size) + (owner < n % td_size ? owner : n % td_size);
      if (g[k] != 1.0 + (double)(gid - first)) bad = k;
    }
    TD_CHECK(bad < 0, "round %d: ghost %lld = %g", round, (long long)bad, bad < 0 ? 0.0 : g[bad]);
  }
  T_OK(strata_dist_plan_destroy(&pl));
  t_dev_free(dx);
  t_dev_free(dy);
  t_dev_free(dg);
  free(h);
  free(g);
  free(ids);
  strata_crs_destroy(&G);
  T_OK(strata_dist_crs_destroy(&A));
  td_coo_free(&e);
  strata_dist_map_destroy(&m);
}

/* D5: argument errors on one rank are every rank's (no hang); the matrix works afterwards */
static void test_errors_one_rank(void **state) {
  (void)state;
  const int bad = td_size - 1;
  char who[64];
  snprintf(who, sizeof who, "rank %d: ", bad);
  const int64_t nx = 5, n = nx * nx * nx;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, n, &m));
  strata_dist_map_info_t mi;
  strata_dist_map_info(m, &mi);
  td_coo_t e = {0};
  td_poisson3d(nx, mi.first_gid, mi.first_gid + mi.num_local, &e);
  strata_dist_crs_t *A = NULL;
  td_expect(strata_dist_crs_create_from_entries(T_exec, m, NULL, e.n, td_rank == bad ? NULL : e.r, e.c, e.v, NULL, NULL, &A),
            STRATA_ERR_INVALID_ARGUMENT, who, "NULL rows");
  td_expect(strata_dist_crs_create_from_entries(T_exec, m, NULL, td_rank == bad ? -2 : e.n, e.r, e.c, e.v, NULL, NULL, &A),
            STRATA_ERR_INVALID_ARGUMENT, who, "n -2");
  td_expect(strata_dist_crs_create_from_entries(T_exec, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, &A),
            STRATA_ERR_INVALID_ARGUMENT, "NULL row map", NULL);
  if (td_size > 1) { /* a domain map of another communicator */
    strata_dist_map_t *self = NULL;
    T_OK(strata_dist_map_create_block(MPI_COMM_SELF, n, &self));
    td_expect(strata_dist_crs_create_from_entries(T_exec, m, self, e.n, e.r, e.c, e.v, NULL, NULL, &A),
              STRATA_ERR_INVALID_ARGUMENT, "different communicators", NULL);
    strata_dist_map_destroy(&self);
  }
  A = build(m, NULL, &e, 0, NULL);
  const int32_t nl = mi.num_local;
  double *x = (double *)t_malloc((size_t)nl * sizeof(double));
  for (int32_t l = 0; l < nl; ++l) x[l] = 1.0;
  double *dx = (double *)t_to_dev(x, (size_t)nl * sizeof(double)), *dy = (double *)t_dev_alloc((size_t)nl * sizeof(double));
  td_expect(strata_dist_crs_spmv(NULL, STRATA_DIST_OVERLAP, 1.0, A, td_rank == bad ? NULL : dx, 0.0, dy),
            STRATA_ERR_INVALID_ARGUMENT, who, "NULL x");
  td_expect(strata_dist_crs_spmv(NULL, td_rank == bad ? (strata_dist_mode_t)7 : STRATA_DIST_VECTOR, 1.0, A, dx, 0.0, dy),
            STRATA_ERR_INVALID_ARGUMENT, who, "mode 7");
  /* x and y overlapping on one rank */
  td_expect(strata_dist_crs_spmv(NULL, STRATA_DIST_VECTOR, 1.0, A, dx, 0.0, td_rank == bad ? dx : dy),
              STRATA_ERR_INVALID_ARGUMENT, who, "overlap");
  td_expect(strata_dist_crs_spmv(NULL, STRATA_DIST_VECTOR, 1.0, NULL, dx, 0.0, dy), STRATA_ERR_INVALID_ARGUMENT, "NULL A",
            NULL);
  /* alpha = 0 reads neither A nor x (NULL is fine): y = beta y */
  for (int32_t l = 0; l < nl; ++l) x[l] = 3.0;
  if (nl) T_OK(strata_mem_copy(T_exec, dy, x, (size_t)nl * sizeof(double)));
  T_OK(strata_dist_crs_spmv(NULL, STRATA_DIST_VECTOR, 0.0, A, NULL, 0.5, dy));
  strata_exec_fence(T_exec);
  t_to_host(x, dy, (size_t)nl * sizeof(double));
  int ok = 1;
  for (int32_t l = 0; l < nl; ++l) ok &= x[l] == 1.5;
  TD_CHECK(ok, "alpha 0, beta 0.5: y != 1.5");
  strata_crs_matrix_t *G = td_global_crs((int32_t)n, (int32_t)n, &e);
  td_check_spmv(A, G, 1.0, 0.0); /* the matrix is fine after all that */
  strata_crs_destroy(&G);
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  strata_dist_crs_destroy(&A);
  td_coo_free(&e);
  strata_dist_map_destroy(&m);
}

/* D13: task mode needs MPI_THREAD_SERIALIZED; refused on every rank naming the level granted
 * (ctest runs this test once more with MPI started at MPI_THREAD_FUNNELED) */
static void test_task_mode_thread_level(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, 30, &m));
  td_coo_t all = {0}, e = {0};
  tridiag(30, &all);
  for (int64_t k = 0; k < all.n; ++k)
    if (k % td_size == td_rank) td_push(&e, all.r[k], all.c[k], all.v[k]);
  strata_dist_crs_t *A = build(m, NULL, &e, 0, NULL);
  strata_dist_crs_info_t in;
  strata_dist_crs_info(A, &in);
  double *x = (double *)t_malloc((size_t)in.num_local_rows * sizeof(double));
  for (int32_t l = 0; l < in.num_local_rows; ++l) x[l] = 1.0;
  double *dx = (double *)t_to_dev(x, (size_t)in.num_local_rows * sizeof(double));
  double *dy = (double *)t_dev_alloc((size_t)in.num_local_rows * sizeof(double));
  const strata_status_t st = strata_dist_crs_spmv(NULL, STRATA_DIST_TASK, 1.0, A, dx, 0.0, dy);
  if (td_thread_level < MPI_THREAD_SERIALIZED) {
    td_expect(st, STRATA_ERR_UNSUPPORTED, strata_dist_thread_level_name(td_thread_level), "needs MPI_THREAD_SERIALIZED");
    printf("[ strata   ] task mode refused as expected: %s\n", strata_error_message());
  } else {
    T_OK(st);
  }
  strata_crs_matrix_t *G = td_global_crs(30, 30, &e);
  td_check_spmv(A, G, 1.0, 0.0); /* every mode MPI allows */
  strata_crs_destroy(&G);
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  strata_dist_crs_destroy(&A);
  td_coo_free(&all);
  td_coo_free(&e);
  strata_dist_map_destroy(&m);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_poisson3d_wrong_ranks, t_setup),
      cmocka_unit_test_setup(test_poisson3d_list_map, t_setup),
      cmocka_unit_test_setup(test_shared_matrices, t_setup),
      cmocka_unit_test_setup(test_more_ranks_than_rows, t_setup),
      cmocka_unit_test_setup(test_invalid_entries, t_setup),
      cmocka_unit_test_setup(test_same_entry_many_ranks, t_setup),
      cmocka_unit_test_setup(test_noncontiguous_ids, t_setup),
      cmocka_unit_test_setup(test_rank_without_rows, t_setup),
      cmocka_unit_test_setup(test_diagonal_no_neighbours, t_setup),
      cmocka_unit_test_setup(test_caller_exec_destroyed, t_setup),
      cmocka_unit_test_setup(test_errors_one_rank, t_setup),
      cmocka_unit_test_setup(test_task_mode_thread_level, t_setup),
  };
  return TD_RUN("dist_crs", tests);
}
