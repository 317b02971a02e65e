/* strata dist — partitions with contiguous renumbering (METIS or blocks), the variable-size packet
 * exchange, the export of rows to their owners with unpack_combine (rows nobody owns reported,
 * the same entry from every rank summed: EDGE_CASES D7, D8), and the FEM job's distributed
 * assembly against its single-rank assembly (with and without bulk nodes, a rank owning no
 * nodes). Run under mpirun (tests/dist.cmake). */
#include <limits.h>
#include <math.h>

#include "fem_dist.h"
#include "strata/schwarz.h"
#include "test_dist_common.h"

/* dist/src/dist_impl.h: the most bytes a packet exchange puts in one MPI message (tests lower it) */
extern int64_t strata_impl_dist_message_max;

static MPI_Comm W = MPI_COMM_WORLD;

static double xval(int64_t j) { return 1.0 + (double)(j % 7) / 8.0; }

/* A shared matrix partitioned on rank 0 (METIS where built with it, and blocks): new ids a
 * permutation, each rank's rows contiguous and in their original order, and the distributed SpMV
 * of the renumbered matrix, permuted back, equal to a host CSR loop over the file's entries. */
static void partition_check(strata_dist_partitioner_t method) {
  strata_coo_t *coo = td_read_shared("ginkgo/ani4.mtx");
  if (!coo) return;
  const int64_t n = coo->num_rows;
  strata_crs_matrix_t *A0 = NULL;
  if (td_rank == 0) T_OK(strata_mm_coo_to_crs(T_exec, coo, &A0));
  int64_t nr = -1, *new_ids = NULL;
  strata_dist_map_t *map = NULL;
  T_OK(strata_dist_partition_crs(W, 0, T_exec, A0, method, &nr, &new_ids, &map));
  strata_crs_destroy(&A0);
  strata_dist_map_info_t mi;
  T_OK(strata_dist_map_info(map, &mi));
  int64_t *old_of = (int64_t *)t_malloc((size_t)n * sizeof(int64_t));
  for (int64_t g = 0; g < n; ++g) old_of[g] = -1;
  int perm = nr == n && mi.contiguous && mi.num_global == n;
  for (int64_t i = 0; perm && i < n; ++i) {
    if (new_ids[i] < 0 || new_ids[i] >= n || old_of[new_ids[i]] >= 0) perm = 0;
    else old_of[new_ids[i]] = i;
  }
  TD_CHECK(perm, "new ids are no permutation of 0..%lld (num_rows %lld, contiguous %d)", (long long)n - 1, (long long)nr,
           mi.contiguous);
  /* within this rank's range the original order is kept (a stable renumbering) */
  int stable = 1;
  for (int64_t g = mi.first_gid + 1; g < mi.first_gid + mi.num_local; ++g) stable &= old_of[g] > old_of[g - 1];
  int64_t total = mi.num_local;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, W);
  TD_CHECK(stable && total == n, "rank's rows out of their order (%d) or %lld rows over the ranks", stable, (long long)total);
  if (method == STRATA_DIST_PARTITION_BLOCK) {
    int ident = 1;
    for (int64_t i = 0; i < n; ++i) ident &= new_ids[i] == i;
    TD_CHECK(ident, "block partition renumbered rows");
  }
  /* the renumbered matrix, its entries given round-robin, and its SpMV */
  td_coo_t mine = {0};
  for (int64_t k = 0; k < coo->nnz; ++k)
    if (k % td_size == td_rank) td_push(&mine, new_ids[coo->rows[k]], new_ids[coo->cols[k]], coo->values[k]);
  strata_dist_crs_t *A = NULL;
  T_OK(strata_dist_crs_create_from_entries(T_exec, map, NULL, mine.n, mine.r, mine.c, mine.v, NULL, NULL, &A));
  strata_crs_matrix_t *G = td_global_crs((int32_t)n, (int32_t)n, &mine);
  td_check_spmv(A, G, 1.0, 0.0); /* every mode, against serial in the new numbering */
  strata_crs_destroy(&G);
  const int32_t nl = mi.num_local;
  double *x = (double *)t_malloc(((size_t)nl + 1) * sizeof(double)), *y = (double *)t_malloc(((size_t)nl + 1) * sizeof(double));
  for (int32_t l = 0; l < nl; ++l) x[l] = xval(old_of[mi.first_gid + l]);
  double *dx = (double *)t_to_dev(x, ((size_t)nl + 1) * sizeof(double));
  double *dy = (double *)t_dev_alloc(((size_t)nl + 1) * sizeof(double));
  T_OK(strata_dist_crs_spmv(NULL, STRATA_DIST_OVERLAP, 1.0, A, dx, 0.0, dy));
  T_OK(strata_exec_fence(T_exec));
  if (nl) T_OK(strata_mem_copy(T_exec, y, dy, (size_t)nl * sizeof(double)));
  /* the reference in the file's numbering: y_i = sum_k a_k x_{c_k}, bound 1e-13 sum |a_k x_{c_k}| */
  double *yr = (double *)calloc((size_t)n, sizeof(double)), *ya = (double *)calloc((size_t)n, sizeof(double));
  for (int64_t k = 0; k < coo->nnz; ++k) {
    yr[coo->rows[k]] += coo->values[k] * xval(coo->cols[k]);
    ya[coo->rows[k]] += fabs(coo->values[k] * xval(coo->cols[k]));
  }
  int64_t bad = 0, first = -1;
  for (int32_t l = 0; l < nl; ++l) {
    const int64_t i = old_of[mi.first_gid + l];
    if (!(fabs(y[l] - yr[i]) <= 1e-13 * ya[i])) bad++ == 0 ? (void)(first = l) : (void)0;
  }
  TD_CHECK(bad == 0, "%s: %lld rows differ from the file's SpMV permuted back (first local row %lld: %.17g vs %.17g)",
           strata_dist_partitioner_name(method), (long long)bad, (long long)first, bad ? y[first] : 0.0,
           bad ? yr[old_of[mi.first_gid + first]] : 0.0);
  free(yr);
  free(ya);
  t_dev_free(dx);
  t_dev_free(dy);
  free(x);
  free(y);
  strata_dist_crs_destroy(&A);
  td_coo_free(&mine);
  free(old_of);
  free(new_ids);
  strata_dist_map_destroy(&map);
  strata_coo_destroy(&coo);
}

static void test_partition_shared_matrix(void **state) {
  (void)state;
  partition_check(STRATA_DIST_PARTITION_BLOCK);
  partition_check(strata_have_metis() ? STRATA_DIST_PARTITION_METIS : STRATA_DIST_PARTITION_AUTO);
}

/* partition counts outside [1, rows], parts outside the ranks, METIS absent: refused on every rank */
static void test_partition_refused(void **state) {
  (void)state;
  /* a matrix of size - 1 rows (0 rows on one rank: valid, the limit is 1) */
  const int32_t n = td_size - 1;
  strata_crs_matrix_t *A0 = NULL;
  int32_t r[1] = {0};
  int32_t *dr = n ? (int32_t *)t_to_dev(r, sizeof r) : NULL;
  if (td_rank == 0) T_OK(strata_crs_create_from_coo(T_exec, n, n, n ? 1 : 0, dr, dr, NULL, &A0));
  int64_t nr = -1, *ids = NULL;
  strata_dist_map_t *map = NULL;
  const strata_dist_partitioner_t m = strata_have_metis() ? STRATA_DIST_PARTITION_METIS : STRATA_DIST_PARTITION_BLOCK;
  strata_status_t st = strata_dist_partition_crs(W, 0, T_exec, A0, m, &nr, &ids, &map);
  if (td_size == 1) {
    T_OK(st);
    TD_CHECK(nr == 0 && !ids && map, "0 rows: num_rows %lld", (long long)nr);
  } else {
    char want[64], lim[48]; /* the ranks, the rows and the limit named */
    snprintf(want, sizeof want, "%d ranks for the %d rows of A", td_size, n);
    snprintf(lim, sizeof lim, "must lie in [1, %d]", n > 0 ? n : 1);
    td_expect(st, STRATA_ERR_INVALID_ARGUMENT, want, lim);
    TD_CHECK(!ids && !map && nr == 0, "outputs set after an error");
  }
  strata_dist_map_destroy(&map);
  free(ids);
  strata_crs_destroy(&A0);
  t_dev_free(dr);
  if (!strata_have_metis()) {
    strata_crs_matrix_t *B = NULL;
    if (td_rank == 0) {
      int32_t rr[4] = {0, 1, 2, 3};
      int32_t *d4 = (int32_t *)t_to_dev(rr, sizeof rr);
      T_OK(strata_crs_create_from_coo(T_exec, 4, 4, 4, d4, d4, NULL, &B));
      t_dev_free(d4);
    }
    st = td_size <= 4 ? strata_dist_partition_crs(W, 0, T_exec, B, STRATA_DIST_PARTITION_METIS, &nr, &ids, &map) : STRATA_ERR_UNSUPPORTED;
    td_expect(st, STRATA_ERR_UNSUPPORTED, "METIS", NULL);
    strata_crs_destroy(&B);
  }
  /* a part outside [0, size) on the root */
  int32_t part[5] = {0, 0, 0, 0, 0};
  part[3] = td_size;
  int64_t nid[5];
  td_expect(strata_dist_partition_renumber(W, 0, 5, part, nid, &map), STRATA_ERR_INVALID_DATA, "row 3", "parts outside [0,");
  TD_CHECK(map == NULL, "a map after an error");
  /* num_rows differing between ranks */
  if (td_size > 1)
    td_expect(strata_dist_partition_renumber(W, 0, td_rank == 1 ? 4 : 5, part, nid, NULL), STRATA_ERR_INVALID_ARGUMENT,
              "differs between ranks", NULL);
  /* renumbering by a given part: rank r's rows in order, D3: rank 1 owns none */
  for (int i = 0; i < 5; ++i) part[i] = (int32_t)((5 - i) % td_size == 1 ? 0 : (5 - i) % td_size);
  T_OK(strata_dist_partition_renumber(W, 0, 5, td_rank == 0 ? part : NULL, nid, &map));
  strata_dist_map_info_t mi;
  strata_dist_map_info(map, &mi);
  int64_t cnt = 0, want_first = 0;
  for (int i = 0; i < 5; ++i) cnt += part[i] == td_rank, want_first += part[i] < td_rank;
  int ok = mi.num_local == cnt && mi.first_gid == (cnt ? want_first : mi.first_gid);
  for (int i = 0, q = 0; i < 5; ++i)
    if (part[i] == td_rank) ok &= nid[i] == want_first + q++;
  TD_CHECK(ok, "renumbering: %d local (expected %lld), first %lld", (int)mi.num_local, (long long)cnt, (long long)mi.first_gid);
  strata_dist_map_destroy(&map);
}

/* Packets of varying lengths from every rank to every rank (self included), ids carried along:
 * the receiver parses the bytes on the host and checks them against the sender's formula. */
static void packets_check(int staging) {
  const int32_t nrows = 3 * td_size + 2; /* rows of this rank's L, grouped by destination */
  td_coo_t e = {0};
  for (int32_t k = 0; k < nrows; ++k)
    for (int j = 0; j < 1 + (k * 7 + td_rank) % 5; ++j) td_push(&e, k, 100 * td_rank + 10 * j + k % 10, td_rank + k / 8.0 + j);
  int32_t *hr = (int32_t *)t_malloc(((size_t)e.n + 1) * sizeof(int32_t)), *hc = (int32_t *)t_malloc(((size_t)e.n + 1) * sizeof(int32_t));
  for (int64_t q = 0; q < e.n; ++q) hr[q] = (int32_t)e.r[q], hc[q] = (int32_t)e.c[q];
  int32_t *dr = (int32_t *)t_to_dev(hr, (size_t)e.n * sizeof(int32_t)), *dc = (int32_t *)t_to_dev(hc, (size_t)e.n * sizeof(int32_t));
  double *dv = (double *)t_to_dev(e.v, (size_t)e.n * sizeof(double));
  strata_crs_matrix_t *L = NULL;
  T_OK(strata_crs_create_from_coo(T_exec, nrows, 100 * td_size + 100, e.n, dr, dc, dv, &L));
  strata_packets_t *pk = NULL;
  T_OK(strata_sparse_pack(T_exec, L, nrows, NULL, NULL, &pk));
  int64_t *cnt = (int64_t *)calloc((size_t)td_size, sizeof(int64_t)), *ids = (int64_t *)t_malloc((size_t)nrows * sizeof(int64_t));
  for (int32_t k = 0; k < nrows; ++k) {
    cnt[(int64_t)k * td_size / nrows]++;
    ids[k] = 1000 * td_rank + k;
  }
  strata_dist_packets_options_t po = {staging};
  strata_packets_t *rv = NULL;
  int64_t *rid = NULL;
  strata_dist_packets_info_t info;
  T_OK(strata_dist_packets_exchange(W, T_exec, pk, cnt, ids, &po, &rv, &rid, &info));
  /* what this rank should receive: from each sender s (ascending), its rows k with k·p/nrows = rank */
  int64_t want = 0;
  for (int s = 0; s < td_size; ++s)
    for (int32_t k = 0; k < nrows; ++k) want += (int64_t)k * td_size / nrows == td_rank;
  int ok = rv->num_rows == want && info.staged == (staging || !strata_exec_is_host(T_exec));
  int64_t *off = (int64_t *)t_malloc(((size_t)rv->num_rows + 1) * sizeof(int64_t));
  unsigned char *data = (unsigned char *)t_malloc((size_t)rv->num_bytes + 8);
  T_OK(strata_mem_copy(T_exec, off, rv->offsets, ((size_t)rv->num_rows + 1) * sizeof(int64_t)));
  if (rv->num_bytes) T_OK(strata_mem_copy(T_exec, data, rv->data, (size_t)rv->num_bytes));
  int64_t q = 0, prev = -1;
  for (int s = 0; ok && s < td_size; ++s)
    for (int32_t k = 0; ok && k < nrows; ++k) {
      if ((int64_t)k * td_size / nrows != td_rank) continue;
      ok &= rid[q] == 1000 * s + k && rid[q] > prev;
      prev = rid[q];
      int64_t c = 0;
      memcpy(&c, data + off[q], 8);
      const int64_t len = 1 + (k * 7 + s) % 5;
      ok &= c == len && off[q + 1] - off[q] == 8 + 16 * len;
      for (int64_t j = 0; ok && j < len; ++j) {
        int64_t col;
        double v;
        memcpy(&col, data + off[q] + 8 + 8 * j, 8);
        memcpy(&v, data + off[q] + 8 + 8 * c + 8 * j, 8);
        ok &= col == 100 * s + 10 * j + k % 10 && v == s + k / 8.0 + j;
      }
      ++q;
    }
  TD_CHECK(ok, "staging %d: packet %lld of %lld received (expected %lld) wrong", staging, (long long)q,
           (long long)rv->num_rows, (long long)want);
  int64_t tot[2] = {info.bytes_sent, info.bytes_received};
  MPI_Allreduce(MPI_IN_PLACE, tot, 2, MPI_INT64_T, MPI_SUM, W);
  TD_CHECK(tot[0] == tot[1], "bytes sent %lld != received %lld over the ranks", (long long)tot[0], (long long)tot[1]);
  /* nothing to send on any rank: an empty exchange */
  strata_packets_t *rv0 = NULL;
  int64_t *rid0 = NULL;
  T_OK(strata_dist_packets_exchange(W, T_exec, NULL, NULL, NULL, &po, &rv0, &rid0, NULL));
  TD_CHECK(rv0 && rv0->num_rows == 0 && !rid0, "empty exchange received %lld", rv0 ? (long long)rv0->num_rows : -1LL);
  /* counts that do not sum to the packets, on one rank: refused on every rank */
  if (td_size > 1 && td_rank == 1) cnt[0] += 1;
  strata_packets_t *rv1 = NULL;
  int64_t *rid1 = NULL;
  const strata_status_t st = strata_dist_packets_exchange(W, T_exec, pk, cnt, ids, &po, &rv1, &rid1, NULL);
  if (td_size > 1) td_expect(st, STRATA_ERR_INVALID_ARGUMENT, "rank 1: dist packets exchange: send_counts sum to", NULL);
  else T_OK(st);
  strata_packets_destroy(&rv1);
  free(rid1);
  /* D9: a message above MPI's int count is refused on every rank, the bytes and the limit named (the
   * limit lowered to 16 bytes here: every packet to another rank has at least 24) */
  if (td_size > 1 && td_rank == 1) cnt[0] -= 1;
  strata_impl_dist_message_max = 16;
  rv1 = NULL, rid1 = NULL;
  const strata_status_t s9 = strata_dist_packets_exchange(W, T_exec, pk, cnt, ids, &po, &rv1, &rid1, NULL);
  strata_impl_dist_message_max = INT_MAX;
  if (td_size > 1) {
    td_expect(s9, STRATA_ERR_INVALID_ARGUMENT, "bytes", "at most 16 bytes per message");
    TD_CHECK(!rv1 && !rid1, "a refused exchange returned packets");
  } else {
    T_OK(s9); /* one rank: no message */
  }
  strata_packets_destroy(&rv1);
  free(rid1);
  strata_packets_destroy(&rv0);
  free(off);
  free(data);
  free(rid);
  strata_packets_destroy(&rv);
  free(cnt);
  free(ids);
  strata_packets_destroy(&pk);
  strata_crs_destroy(&L);
  t_dev_free(dr);
  t_dev_free(dc);
  t_dev_free(dv);
  free(hr);
  free(hc);
  td_coo_free(&e);
}

static void test_packets_exchange(void **state) {
  (void)state;
  packets_check(0);
  packets_check(1);
}

/* The export tests' fixture: a block map of n = 4p + 1 rows; A, the owner's tridiagonal pattern
 * (global columns, values 0); L, on every rank, rows g = 0..n-1 holding 1 at (g, g) and 2 at (g, g+1),
 * listed in reverse order; with bad, the last rank also lists a row for n + 99 (owned by none: 2
 * entries) and one more for row 0 at column 3, outside its pattern: 3 invalid entries. */
typedef struct export_case {
  int64_t n;
  strata_dist_map_t *map;
  strata_dist_map_info_t mi;
  td_coo_t t, e;
  strata_crs_matrix_t *A, *L;
  int32_t lr, *rows, *dtr, *dtc, *der, *dec;
  int64_t *gid_r;
  double *dev;
} export_case_t;

static void export_case_make(export_case_t *x, int bad) {
  memset(x, 0, sizeof *x);
  const int64_t n = x->n = 4 * td_size + 1;
  T_OK(strata_dist_map_create_block(W, n, &x->map));
  strata_dist_map_info(x->map, &x->mi);
  const int32_t nl = x->mi.num_local;
  for (int32_t l = 0; l < nl; ++l) {
    const int64_t g = x->mi.first_gid + l;
    for (int64_t c = g - 1; c <= g + 1; ++c)
      if (c >= 0 && c < n) td_push(&x->t, l, c, 0.0);
  }
  int32_t *tr = (int32_t *)t_malloc(((size_t)x->t.n + 1) * 4), *tc = (int32_t *)t_malloc(((size_t)x->t.n + 1) * 4);
  for (int64_t k = 0; k < x->t.n; ++k) tr[k] = (int32_t)x->t.r[k], tc[k] = (int32_t)x->t.c[k];
  x->dtr = (int32_t *)t_to_dev(tr, (size_t)x->t.n * 4);
  x->dtc = (int32_t *)t_to_dev(tc, (size_t)x->t.n * 4);
  T_OK(strata_crs_create_from_coo(T_exec, nl, (int32_t)n, x->t.n, x->dtr, x->dtc, NULL, &x->A));
  const int extra = bad && td_rank == td_size - 1;
  const int32_t lr = x->lr = (int32_t)n + (extra ? 2 : 0);
  int64_t *gid = (int64_t *)t_malloc((size_t)lr * sizeof(int64_t));
  x->rows = (int32_t *)t_malloc((size_t)lr * sizeof(int32_t));
  for (int32_t k = 0; k < (int32_t)n; ++k) {
    td_push(&x->e, k, k, 1.0);
    if (k + 1 < n) td_push(&x->e, k, k + 1, 2.0);
    gid[k] = k;
  }
  if (extra) {
    td_push(&x->e, n, 0, 5.0);
    td_push(&x->e, n, 1, 5.0);
    gid[n] = n + 99;
    td_push(&x->e, n + 1, 3, 7.0);
    gid[n + 1] = 0;
  }
  for (int32_t k = 0; k < lr; ++k) x->rows[k] = lr - 1 - k; /* any order */
  x->gid_r = (int64_t *)t_malloc((size_t)lr * sizeof(int64_t));
  for (int32_t k = 0; k < lr; ++k) x->gid_r[k] = gid[x->rows[k]];
  int32_t *er = (int32_t *)t_malloc(((size_t)x->e.n + 1) * 4), *ec = (int32_t *)t_malloc(((size_t)x->e.n + 1) * 4);
  for (int64_t k = 0; k < x->e.n; ++k) er[k] = (int32_t)x->e.r[k], ec[k] = (int32_t)x->e.c[k];
  x->der = (int32_t *)t_to_dev(er, (size_t)x->e.n * 4);
  x->dec = (int32_t *)t_to_dev(ec, (size_t)x->e.n * 4);
  x->dev = (double *)t_to_dev(x->e.v, (size_t)x->e.n * 8);
  T_OK(strata_crs_create_from_coo(T_exec, lr, (int32_t)n, x->e.n, x->der, x->dec, x->dev, &x->L));
  free(er);
  free(ec);
  free(tr);
  free(tc);
  free(gid);
}

/* A's values against w on (g, g), 2 w on (g, g + 1), 0 on (g, g - 1) */
static int export_case_values_ok(const export_case_t *x, double w0) {
  double *v = (double *)t_malloc(((size_t)x->A->nnz + 1) * 8);
  if (x->A->nnz) T_OK(strata_mem_copy(T_exec, v, x->A->values, (size_t)x->A->nnz * 8));
  int ok = 1;
  for (int64_t k = 0; k < x->t.n; ++k) { /* A's entries in COO order (sorted rows and columns) */
    const int64_t g = x->mi.first_gid + x->t.r[k];
    const double w = x->t.c[k] == g ? w0 : x->t.c[k] == g + 1 ? 2.0 * w0 : 0.0;
    ok &= v[k] == w;
  }
  free(v);
  return ok;
}

static void export_case_free(export_case_t *x) {
  strata_crs_destroy(&x->L);
  strata_crs_destroy(&x->A);
  t_dev_free(x->der);
  t_dev_free(x->dec);
  t_dev_free(x->dev);
  t_dev_free(x->dtr);
  t_dev_free(x->dtc);
  free(x->gid_r);
  free(x->rows);
  td_coo_free(&x->e);
  td_coo_free(&x->t);
  strata_dist_map_destroy(&x->map);
}

/* D7 + D8: every rank adds 1 to (g, g) and 2 to (g, g+1) of every row g (summed: p and 2p), and the last
 * rank's 3 invalid entries are reported on every rank, the valid ones combined all the same, in
 * every round of zero-and-assemble. */
static void test_export_rows(void **state) {
  (void)state;
  export_case_t x;
  export_case_make(&x, 1);
  const int64_t n = x.n;
  for (int round = 0; round < 3; ++round) {
    if (x.A->nnz) T_OK(strata_mem_set_async(T_exec, x.A->values, 0, (size_t)x.A->nnz * 8));
    strata_dist_export_report_t rep;
    strata_dist_packets_options_t po = {round == 1};
    const strata_status_t st = strata_dist_export_rows(T_exec, x.map, x.L, x.lr, x.rows, x.gid_r, NULL, x.A, NULL, n,
                                                       STRATA_COMBINE_ADD, &po, &rep);
    td_expect(st, STRATA_ERR_INVALID_DATA, "3 entries not combined", "the first: global row");
    TD_CHECK(rep.rows_unowned == 1 && rep.invalid_entries == 3 && rep.first_unowned == n + 99 &&
                 rep.rows_given == (int64_t)n * td_size + 2 && rep.entries_combined == (2 * n - 1) * td_size,
             "report: unowned %lld invalid %lld first %lld given %lld combined %lld", (long long)rep.rows_unowned,
             (long long)rep.invalid_entries, (long long)rep.first_unowned, (long long)rep.rows_given,
             (long long)rep.entries_combined);
    TD_CHECK(export_case_values_ok(&x, (double)td_size), "round %d: the combined values are not p on (g, g) and 2p on (g, g+1)", round);
  }
  export_case_free(&x);
}

/* REPLACE and ABSMAX through a row export: rank q lists every row with values (q + 1) on the
 * diagonal and -2 (q + 1) above it. The owner's own entries come last (after the other ranks', by
 * sender rank), so REPLACE leaves the owner o's values o + 1 and -2 (o + 1); ABSMAX leaves the
 * largest magnitudes, size and 2 size; the entries below the diagonal (no contribution) stay 0.
 * The apply reports create's rows as its packets (rows whose values moved), summed equal both ways. */
static void test_row_export_modes(void **state) {
  (void)state;
  export_case_t x;
  export_case_make(&x, 0);
  const int64_t ln = x.L->nnz;
  double *lv = (double *)t_malloc(((size_t)ln + 1) * 8);
  if (ln) T_OK(strata_mem_copy(T_exec, lv, x.L->values, (size_t)ln * 8));
  for (int64_t q = 0; q < ln; ++q) lv[q] = lv[q] == 1.0 ? td_rank + 1.0 : -2.0 * (td_rank + 1.0);
  double *dlv = (double *)t_to_dev(lv, (size_t)ln * 8);
  strata_dist_row_export_t *X = NULL;
  strata_dist_export_report_t rc, ra;
  T_OK(strata_dist_row_export_create(T_exec, x.map, x.L, x.lr, x.rows, x.gid_r, NULL, x.A, NULL, x.n, NULL, &X, &rc));
  double *v = (double *)t_malloc(((size_t)x.A->nnz + 1) * 8);
  for (int m = 0; m < 2; ++m) {
    const strata_combine_mode_t mode = m ? STRATA_COMBINE_ABSMAX : STRATA_COMBINE_REPLACE;
    if (x.A->nnz) T_OK(strata_mem_set_async(T_exec, x.A->values, 0, (size_t)x.A->nnz * 8));
    T_OK(strata_dist_row_export_apply(X, T_exec, dlv, mode, x.A->values, &ra));
    if (x.A->nnz) T_OK(strata_mem_copy(T_exec, v, x.A->values, (size_t)x.A->nnz * 8));
    int ok = 1;
    for (int64_t k = 0; k < x.t.n; ++k) {
      const int64_t g = x.mi.first_gid + x.t.r[k];
      const double d = m ? (double)td_size : td_rank + 1.0, u = m ? 2.0 * td_size : -2.0 * (td_rank + 1.0);
      const double w = x.t.c[k] == g ? d : x.t.c[k] == g + 1 ? u : 0.0;
      ok &= v[k] == w;
    }
    TD_CHECK(ok, "%s: the owner's values are not the expected ones", m ? "ABSMAX" : "REPLACE");
  }
  int64_t loc[2] = {ra.exchange.packets_sent, ra.exchange.packets_received}, glob[2];
  MPI_Allreduce(loc, glob, 2, MPI_INT64_T, MPI_SUM, W);
  TD_CHECK(ra.exchange.packets_sent == rc.exchange.packets_sent && ra.exchange.packets_self == rc.exchange.packets_self &&
               glob[0] == glob[1] && glob[0] == (int64_t)(td_size - 1) * x.n,
           "apply's packets: sent %lld (create %lld), over all ranks sent %lld received %lld, expected %lld",
           (long long)ra.exchange.packets_sent, (long long)rc.exchange.packets_sent, (long long)glob[0],
           (long long)glob[1], (long long)(td_size - 1) * x.n);
  T_OK(strata_dist_row_export_destroy(&X));
  free(v);
  free(lv);
  t_dev_free(dlv);
  export_case_free(&x);
}

/* The reusable row export on the same rows: applied twice with ADD (2p, the same as two
 * export_rows), ZERO (nothing), INSERT refused on every rank (nothing combined), staged and not;
 * made from the invalid rows it is refused on every rank with the same counts, and no export. */
static void test_row_export(void **state) {
  (void)state;
  for (int staged = 0; staged < 2; ++staged) {
    export_case_t x;
    export_case_make(&x, 0);
    strata_dist_packets_options_t po = {staged};
    strata_dist_row_export_t *X = NULL;
    strata_dist_export_report_t rep;
    T_OK(strata_dist_row_export_create(T_exec, x.map, x.L, x.lr, x.rows, x.gid_r, NULL, x.A, NULL, x.n, &po, &X, &rep));
    TD_CHECK(X && rep.invalid_entries == 0 && rep.entries_combined == (2 * x.n - 1) * td_size, "create: invalid %lld, entries %lld",
             (long long)rep.invalid_entries, (long long)rep.entries_combined);
    if (x.A->nnz) T_OK(strata_mem_set_async(T_exec, x.A->values, 0, (size_t)x.A->nnz * 8));
    for (int round = 1; round <= 2; ++round) {
      T_OK(strata_dist_row_export_apply(X, T_exec, x.L->values, STRATA_COMBINE_ADD, x.A->values, &rep));
      TD_CHECK(rep.entries_combined == (2 * x.n - 1) * td_size, "apply %d: %lld entries", round, (long long)rep.entries_combined);
      TD_CHECK(export_case_values_ok(&x, (double)(round * td_size)), "apply %d (staged %d): the values are not %d p", round, staged, round);
    }
    T_OK(strata_dist_row_export_apply(X, NULL, x.L->values, STRATA_COMBINE_ZERO, x.A->values, NULL));
    const strata_status_t st = strata_dist_row_export_apply(X, T_exec, x.L->values, STRATA_COMBINE_INSERT, x.A->values, NULL);
    td_expect(st, STRATA_ERR_INVALID_ARGUMENT, "combine mode", "INSERT");
    TD_CHECK(export_case_values_ok(&x, 2.0 * td_size), "ZERO or a refused INSERT changed the values");
    T_OK(strata_dist_row_export_destroy(&X));
    T_OK(strata_dist_row_export_destroy(&X)); /* NULL-safe */
    export_case_free(&x);
  }
  { /* each rank lists its own rows only, each twice (no value crosses ranks: 2 w per apply); a NULL
       L_values on the last rank alone is refused on every rank and nothing is combined anywhere */
    export_case_t x;
    export_case_make(&x, 0);
    int32_t *rows = (int32_t *)t_malloc(2 * (size_t)x.lr * sizeof(int32_t));
    int64_t *gids = (int64_t *)t_malloc(2 * (size_t)x.lr * sizeof(int64_t));
    int32_t m = 0;
    for (int rep2 = 0; rep2 < 2; ++rep2)
      for (int32_t k = 0; k < x.lr; ++k)
        if (x.gid_r[k] >= x.mi.first_gid && x.gid_r[k] < x.mi.first_gid + x.mi.num_local)
          rows[m] = x.rows[k], gids[m++] = x.gid_r[k];
    strata_dist_row_export_t *X = NULL;
    T_OK(strata_dist_row_export_create(T_exec, x.map, x.L, m, rows, gids, NULL, x.A, NULL, x.n, NULL, &X, NULL));
    if (x.A->nnz) T_OK(strata_mem_set_async(T_exec, x.A->values, 0, (size_t)x.A->nnz * 8));
    T_OK(strata_dist_row_export_apply(X, T_exec, x.L->values, STRATA_COMBINE_ADD, x.A->values, NULL));
    TD_CHECK(export_case_values_ok(&x, 2.0), "own rows twice: the values are not 2 and 4");
    const int last = td_rank == td_size - 1;
    strata_status_t st = strata_dist_row_export_apply(X, T_exec, last ? NULL : x.L->values, STRATA_COMBINE_ADD, x.A->values, NULL);
    td_expect(st, STRATA_ERR_INVALID_ARGUMENT, "NULL L_values", NULL);
    st = strata_dist_row_export_apply(X, T_exec, x.L->values, STRATA_COMBINE_ADD, last ? NULL : x.A->values, NULL);
    td_expect(st, STRATA_ERR_INVALID_ARGUMENT, x.A->nnz ? "NULL A_values" : NULL, NULL);
    TD_CHECK(export_case_values_ok(&x, 2.0), "a refused apply changed the values");
    T_OK(strata_dist_row_export_destroy(&X));
    free(rows);
    free(gids);
    export_case_free(&x);
  }
  export_case_t x;
  export_case_make(&x, 1);
  strata_dist_row_export_t *X = NULL;
  strata_dist_export_report_t rep;
  const strata_status_t st =
      strata_dist_row_export_create(T_exec, x.map, x.L, x.lr, x.rows, x.gid_r, NULL, x.A, NULL, x.n, NULL, &X, &rep);
  td_expect(st, STRATA_ERR_INVALID_DATA, "3 entries not combined", "no row export was made");
  TD_CHECK(X == NULL && rep.rows_unowned == 1 && rep.invalid_entries == 3 && rep.first_unowned == x.n + 99,
           "invalid create: export %p, unowned %lld, invalid %lld, first %lld", (void *)X, (long long)rep.rows_unowned,
           (long long)rep.invalid_entries, (long long)rep.first_unowned);
  export_case_free(&x);
}

/* ------------------------------------------------------------------ the FEM job's assembly */

/* The distributed assembly (gathered on rank 0, Dirichlet rows applied) against fem_run's
 * single-rank assembly on the same backend: the same pattern, every entry within 1e-12 of its
 * row's largest magnitude. Bound: an entry sums at most a few dozen element contributions
 * (tets sharing a node or an edge, and the bulk nodes' springs, ±1 each); two orders of the same
 * sum differ by at most 2(m-1)u times the sum of the magnitudes, u = 2^-53, which for m <= 1000
 * terms (a bulk row on the 4^3 box) stays below 2.3e-13 of the row's largest entry times the
 * ratio of the sum of magnitudes to it (at most ~4 here). The job's solve on rank 0 must converge. */
static void fem_compare(int box, int bulk, strata_dist_partitioner_t method, const int32_t *part) {
  fem_options_t o = fem_options_default();
  o.box = box;
  o.backend = strata_exec_backend(T_exec);
  o.compare = 0;
  o.bulk_nodes = bulk;
  strata_crs_matrix_t *S = NULL, *A = NULL;
  fem_result_t rs, rd;
  o.matrix_out = &S;
  strata_status_t st = STRATA_SUCCESS;
  if (td_rank == 0) st = fem_run(&o, &rs);
  TD_CHECK(st == STRATA_SUCCESS, "single-rank fem_run: %s", strata_error_message());
  fem_dist_options_t d;
  memset(&d, 0, sizeof d);
  d.comm = W;
  d.partitioner = method;
  d.part = part;
  d.staging = bulk > 0;
  o.dist = &d;
  o.matrix_out = &A;
  st = fem_run(&o, &rd);
  TD_CHECK(st == STRATA_SUCCESS, "distributed fem_run: %s", strata_error_message());
  TD_CHECK(rd.ranks == td_size && rd.dist_invalid == 0, "ranks %d, invalid %lld", rd.ranks, (long long)rd.dist_invalid);
  int ok = 1;
  char msg[512] = "";
  if (td_rank == 0) {
    ok = A && S && A->num_rows == S->num_rows && A->nnz == S->nnz && rd.nnz == S->nnz && rd.converged && rd.per_rank;
    if (!ok)
      snprintf(msg, sizeof msg, "rows %d / %d, nnz %lld / %lld (reported %lld), converged %d", A ? A->num_rows : -1,
               S ? S->num_rows : -1, A ? (long long)A->nnz : -1LL, S ? (long long)S->nnz : -1LL, (long long)rd.nnz,
               rd.converged);
    int64_t tets = 0;
    for (int r = 0; ok && r < td_size; ++r) tets += rd.per_rank[r].tets;
    if (ok && tets != rd.num_tets) ok = 0, snprintf(msg, sizeof msg, "%lld tets assembled over the ranks, the mesh has %lld",
                                                    (long long)tets, (long long)rd.num_tets);
    if (ok) {
      const int32_t n = S->num_rows;
      int64_t *ar = (int64_t *)t_malloc(((size_t)n + 1) * 8), *sr = (int64_t *)t_malloc(((size_t)n + 1) * 8);
      int32_t *ac = (int32_t *)t_malloc((size_t)S->nnz * 4), *sc = (int32_t *)t_malloc((size_t)S->nnz * 4);
      double *av = (double *)t_malloc((size_t)S->nnz * 8), *sv = (double *)t_malloc((size_t)S->nnz * 8);
      T_OK(strata_mem_copy(T_exec, ar, A->row_offsets, ((size_t)n + 1) * 8));
      T_OK(strata_mem_copy(T_exec, sr, S->row_offsets, ((size_t)n + 1) * 8));
      T_OK(strata_mem_copy(T_exec, ac, A->col_indices, (size_t)S->nnz * 4));
      T_OK(strata_mem_copy(T_exec, sc, S->col_indices, (size_t)S->nnz * 4));
      T_OK(strata_mem_copy(T_exec, av, A->values, (size_t)S->nnz * 8));
      T_OK(strata_mem_copy(T_exec, sv, S->values, (size_t)S->nnz * 8));
      for (int32_t i = 0; ok && i < n; ++i) {
        double mx = 0;
        for (int64_t k = sr[i]; k < sr[i + 1]; ++k) mx = fmax(mx, fabs(sv[k]));
        if (ar[i + 1] != sr[i + 1]) {
          ok = 0;
          snprintf(msg, sizeof msg, "row %d: pattern ends at %lld, single-rank at %lld", i, (long long)ar[i + 1], (long long)sr[i + 1]);
        }
        for (int64_t k = sr[i]; ok && k < sr[i + 1]; ++k)
          if (ac[k] != sc[k] || !(fabs(av[k] - sv[k]) <= 1e-12 * mx)) {
            ok = 0;
            snprintf(msg, sizeof msg, "entry (%d, %d): %.17g, single-rank (%d) %.17g", i, ac[k], av[k], sc[k], sv[k]);
          }
      }
      free(ar);
      free(sr);
      free(ac);
      free(sc);
      free(av);
      free(sv);
    }
  } else {
    ok = A == NULL;
    if (!ok) snprintf(msg, sizeof msg, "a matrix on rank %d", td_rank);
  }
  TD_CHECK(ok, "box %d, %d bulk nodes, %s: %s", box, bulk, part ? "given parts" : strata_dist_partitioner_name(method), msg);
  fem_result_free(&rd);
  strata_crs_destroy(&A);
  strata_crs_destroy(&S);
}

static void test_fem_assembly(void **state) {
  (void)state;
  fem_compare(3, 0, STRATA_DIST_PARTITION_AUTO, NULL);
  fem_compare(4, 0, STRATA_DIST_PARTITION_BLOCK, NULL);
}

static void test_fem_bulk_nodes(void **state) {
  (void)state;
  fem_compare(4, 2, STRATA_DIST_PARTITION_AUTO, NULL);
  fem_compare(3, 1, STRATA_DIST_PARTITION_BLOCK, NULL);
}

/* D3: nodes dealt round-robin but rank 1 given none (its elements none either) */
static void test_fem_rank_without_nodes(void **state) {
  (void)state;
  const int64_t n = 4 * 4 * 4 + 2; /* box 3: 64 nodes, and 2 bulk nodes */
  int32_t part[66];
  for (int64_t i = 0; i < n; ++i) part[i] = (int32_t)(i % td_size == 1 ? 0 : i % td_size);
  fem_compare(3, 2, STRATA_DIST_PARTITION_BLOCK, part);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_partition_shared_matrix, t_setup),
      cmocka_unit_test_setup(test_partition_refused, t_setup),
      cmocka_unit_test_setup(test_packets_exchange, t_setup),
      cmocka_unit_test_setup(test_export_rows, t_setup),
      cmocka_unit_test_setup(test_row_export, t_setup),
      cmocka_unit_test_setup(test_row_export_modes, t_setup),
      cmocka_unit_test_setup(test_fem_assembly, t_setup),
      cmocka_unit_test_setup(test_fem_bulk_nodes, t_setup),
      cmocka_unit_test_setup(test_fem_rank_without_nodes, t_setup),
  };
  return TD_RUN("dist_fem", tests);
}
