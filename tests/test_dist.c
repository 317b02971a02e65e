/* strata dist — maps (block, contiguous, lists of arbitrary ids, the directory), import / export
 * plans (ghost ids round trip, every combine mode, the staged path, in-flight and deferred
 * errors), distributed dot and norm (the same bits on every rank), and errors found on one rank
 * reported on all (EDGE_CASES D1, D2, D5, D6, D10, D16). Run under mpirun with 1, 2, 3 and 4
 * ranks (tests/dist.cmake). */
#include "test_dist_common.h"

static MPI_Comm W = MPI_COMM_WORLD;

/* ------------------------------------------------------------------ maps */

static void check_owners(const strata_dist_map_t *map, int64_t n, const int64_t *gids, const int *want_owner,
                         const int32_t *want_lid) {
  int *own = (int *)t_malloc((size_t)n * sizeof(int));
  int32_t *lid = (int32_t *)t_malloc((size_t)n * sizeof(int32_t));
  T_OK(strata_dist_map_owners(map, n, gids, own, lid));
  int64_t bad = -1;
  for (int64_t i = 0; i < n && bad < 0; ++i)
    if (own[i] != want_owner[i] || lid[i] != want_lid[i]) bad = i;
  TD_CHECK(bad < 0, "gid %lld: owner %d lid %d, expected %d / %d", bad < 0 ? 0LL : (long long)gids[bad],
           bad < 0 ? 0 : own[bad], bad < 0 ? 0 : (int)lid[bad], bad < 0 ? 0 : want_owner[bad], bad < 0 ? 0 : (int)want_lid[bad]);
  free(own);
  free(lid);
}

static void test_map_block(void **state) {
  (void)state;
  for (int64_t ng = 0; ng <= 11; ng += 11) { /* 11 ids; and none (every rank empty) */
    strata_dist_map_t *m = NULL;
    T_OK(strata_dist_map_create_block(W, ng, &m));
    strata_dist_map_info_t in;
    T_OK(strata_dist_map_info(m, &in));
    const int64_t q = ng / td_size, rem = ng % td_size;
    TD_CHECK(in.num_local == q + (td_rank < rem) && in.num_global == ng && in.contiguous,
             "block map of %lld: %d local, %lld global", (long long)ng, (int)in.num_local, (long long)in.num_global);
    TD_CHECK(in.first_gid == td_rank * q + (td_rank < rem ? td_rank : rem), "first gid %lld", (long long)in.first_gid);
    /* every id, and ids outside [0, ng), asked on every rank */
    int64_t gids[16];
    int own[16];
    int32_t lid[16];
    int n = 0;
    for (int64_t g = -2; g < ng + 2; ++g, ++n) {
      gids[n] = g;
      own[n] = -1;
      lid[n] = -1;
      for (int r = 0; r < td_size && g >= 0 && g < ng; ++r) {
        const int64_t b = r * q + (r < rem ? r : rem), e = b + q + (r < rem);
        if (g >= b && g < e) own[n] = r, lid[n] = (int32_t)(g - b);
      }
    }
    check_owners(m, n, gids, own, lid);
    int32_t l = 0;
    T_OK(strata_dist_map_lid(m, in.first_gid, &l));
    TD_CHECK(in.num_local == 0 || l == 0, "lid of the first gid: %d", (int)l);
    T_OK(strata_dist_map_lid(m, ng + 5, &l));
    TD_CHECK(l == -1, "lid of an id beyond the map: %d", (int)l);
    T_OK(strata_dist_map_destroy(&m));
    assert_null(m);
  }
}

static void test_map_contiguous(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_contiguous(W, td_rank % 2 ? 0 : td_rank + 1, &m)); /* odd ranks own none */
  strata_dist_map_info_t in;
  T_OK(strata_dist_map_info(m, &in));
  int64_t total = 0, first = 0;
  for (int r = 0; r < td_size; ++r) {
    if (r == td_rank) first = total;
    total += r % 2 ? 0 : r + 1;
  }
  TD_CHECK(in.num_global == total && in.first_gid == first, "contiguous: %lld ids, first %lld (expected %lld, %lld)",
           (long long)in.num_global, (long long)in.first_gid, (long long)total, (long long)first);
  int64_t *all = (int64_t *)t_malloc((size_t)total * sizeof(int64_t));
  int *own = (int *)t_malloc((size_t)total * sizeof(int));
  int32_t *lid = (int32_t *)t_malloc((size_t)total * sizeof(int32_t));
  for (int r = 0, g = 0; r < td_size; ++r)
    for (int k = 0; k < (r % 2 ? 0 : r + 1); ++k, ++g) all[g] = g, own[g] = r, lid[g] = k;
  check_owners(m, total, all, own, lid);
  free(all);
  free(own);
  free(lid);
  strata_dist_map_destroy(&m);
}

/* D2: ids that are neither contiguous nor dense, near 10^9 and beyond 2^31; the directory */
static void test_map_list(void **state) {
  (void)state;
  const int64_t per = 5, base = 3 * (INT64_C(1) << 31) + 17;
  int64_t gids[8];
  for (int k = 0; k < per; ++k) /* rank r owns base + 1000003 (k p + r), in descending order */
    gids[k] = base + INT64_C(1000003) * ((per - 1 - k) * td_size + td_rank);
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_list(W, per, gids, &m));
  strata_dist_map_info_t in;
  T_OK(strata_dist_map_info(m, &in));
  TD_CHECK(in.num_global == per * td_size && in.num_local == per && in.contiguous == 0 && in.first_gid == -1,
           "list map: %lld ids, %d local, contiguous %d", (long long)in.num_global, (int)in.num_local, in.contiguous);
  TD_CHECK(in.max_gid == base + INT64_C(1000003) * (per * td_size - 1), "max gid %lld", (long long)in.max_gid);
  int64_t back[8];
  T_OK(strata_dist_map_gids(m, back));
  TD_CHECK(!memcmp(back, gids, sizeof(int64_t) * (size_t)per), "gids do not round-trip");
  for (int k = 0; k < per; ++k) {
    int32_t l = -2;
    T_OK(strata_dist_map_lid(m, gids[k], &l));
    TD_CHECK(l == k, "lid of %lld: %d, expected %d", (long long)gids[k], (int)l, k);
  }
  /* every id of every rank, ids in the holes, negative and beyond: asked from every rank */
  const int64_t n = per * td_size + 4;
  int64_t *q = (int64_t *)t_malloc((size_t)n * sizeof(int64_t));
  int *own = (int *)t_malloc((size_t)n * sizeof(int));
  int32_t *lid = (int32_t *)t_malloc((size_t)n * sizeof(int32_t));
  for (int64_t j = 0; j < per * td_size; ++j) {
    q[j] = base + INT64_C(1000003) * j;
    own[j] = (int)(j % td_size);
    lid[j] = (int32_t)(per - 1 - j / td_size);
  }
  const int64_t extra[4] = {-5, base + 1, in.max_gid + 1, INT64_MAX};
  for (int j = 0; j < 4; ++j) q[per * td_size + j] = extra[j], own[per * td_size + j] = -1, lid[per * td_size + j] = -1;
  check_owners(m, n, q, own, lid);
  check_owners(m, 0, NULL, NULL, NULL); /* n = 0 is valid on every rank */
  free(q);
  free(own);
  free(lid);
  strata_dist_map_destroy(&m);
  /* a list that happens to tile [0, N) in rank order is contiguous */
  int64_t mine[3] = {3 * td_rank, 3 * td_rank + 1, 3 * td_rank + 2};
  T_OK(strata_dist_map_create_list(W, 3, mine, &m));
  T_OK(strata_dist_map_info(m, &in));
  TD_CHECK(in.contiguous == 1 && in.first_gid == 3 * td_rank, "tiling list: contiguous %d, first %lld", in.contiguous,
           (long long)in.first_gid);
  strata_dist_map_destroy(&m);
}

/* ids at the very top of the id space (INT64_MAX included, valid per strata_dist_map_create_list):
 * the directory's block size, ceil((max_gid + 1) / p), must not overflow (it did: a wrapped block
 * size indexed the per-rank counts out of bounds, a crash on every rank) */
static void test_map_list_top_ids(void **state) {
  (void)state;
  const int64_t p = td_size;
  int64_t gids[2] = {INT64_MAX - td_rank, INT64_MAX - 1000 - td_rank};
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_list(W, 2, gids, &m));
  strata_dist_map_info_t in;
  T_OK(strata_dist_map_info(m, &in));
  TD_CHECK(in.num_global == 2 * p && in.max_gid == INT64_MAX && in.contiguous == 0, "top ids: %lld ids, max %lld, contiguous %d",
           (long long)in.num_global, (long long)in.max_gid, in.contiguous);
  const int64_t n = 2 * p + 2;
  int64_t *q = (int64_t *)t_malloc((size_t)n * sizeof(int64_t));
  int *own = (int *)t_malloc((size_t)n * sizeof(int));
  int32_t *lid = (int32_t *)t_malloc((size_t)n * sizeof(int32_t));
  for (int64_t r = 0; r < p; ++r) {
    q[2 * r] = INT64_MAX - r, own[2 * r] = (int)r, lid[2 * r] = 0;
    q[2 * r + 1] = INT64_MAX - 1000 - r, own[2 * r + 1] = (int)r, lid[2 * r + 1] = 1;
  }
  q[2 * p] = INT64_MAX - 500, own[2 * p] = -1, lid[2 * p] = -1;
  q[2 * p + 1] = 0, own[2 * p + 1] = -1, lid[2 * p + 1] = -1;
  check_owners(m, n, q, own, lid);
  /* a plan importing every id: each value its gid's distance from the top */
  strata_dist_plan_t *pl = NULL;
  T_OK(strata_dist_plan_create(T_exec, m, 2 * p, q, NULL, &pl));
  const double xo[2] = {(double)td_rank, 1000.0 + td_rank};
  double *dx = (double *)t_to_dev(xo, sizeof xo), *dg = (double *)t_dev_alloc((size_t)(2 * p) * sizeof(double));
  T_OK(strata_dist_plan_import_begin(pl, NULL, dx, dg));
  T_OK(strata_dist_plan_end(pl));
  T_OK(strata_exec_fence(T_exec));
  double *g = (double *)t_malloc((size_t)(2 * p) * sizeof(double));
  t_to_host(g, dg, (size_t)(2 * p) * sizeof(double));
  int64_t bad = -1;
  for (int64_t k = 0; k < 2 * p && bad < 0; ++k)
    if (g[k] != (double)(INT64_MAX - q[k])) bad = k;
  TD_CHECK(bad < 0, "imported ghost %lld: %g, expected %g", (long long)bad, bad < 0 ? 0.0 : g[bad],
           bad < 0 ? 0.0 : (double)(INT64_MAX - q[bad]));
  T_OK(strata_dist_plan_destroy(&pl));
  t_dev_free(dx);
  t_dev_free(dg);
  free(g);
  free(q);
  free(own);
  free(lid);
  strata_dist_map_destroy(&m);
}

/* D1: a repeated id, on one rank or across two, refused on every rank naming the id and ranks */
static void test_map_duplicates(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  int64_t a[3] = {10 * td_rank, 10 * td_rank + 1, td_rank == 0 ? 1 : 10 * td_rank + 2};
  td_expect(strata_dist_map_create_list(W, 3, a, &m), STRATA_ERR_INVALID_DATA, "global id 1 is given twice on rank 0",
            "rank 0: ");
  assert_null(m);
  if (td_size > 1) { /* rank r owns {r, r + 1}: r + 1 also on rank r + 1 */
    int64_t b[2] = {td_rank, td_rank + 1};
    td_expect(strata_dist_map_create_list(W, 2, b, &m), STRATA_ERR_INVALID_DATA, "global id 1 is owned twice: by rank 0",
              "and rank 1");
    assert_null(m);
  }
}

/* D5: bad input on one rank only, reported on every rank with that rank named; no hang */
static void test_map_bad_input_one_rank(void **state) {
  (void)state;
  const int bad = td_size - 1;
  char who[64];
  snprintf(who, sizeof who, "rank %d: ", bad);
  strata_dist_map_t *m = NULL;
  int64_t g[2] = {2 * td_rank, td_rank == bad ? -7 : 2 * td_rank + 1};
  td_expect(strata_dist_map_create_list(W, 2, g, &m), STRATA_ERR_INVALID_ARGUMENT, who, "gids[1] = -7 is negative");
  if (td_size > 1)
    td_expect(strata_dist_map_create_block(W, td_rank == bad ? 12 : 11, &m), STRATA_ERR_INVALID_ARGUMENT,
              "num_global differs between ranks (11 and 12", NULL);
  td_expect(strata_dist_map_create_contiguous(W, td_rank == bad ? -1 : 1, &m), STRATA_ERR_INVALID_ARGUMENT, who,
            "num_local -1");
  td_expect(strata_dist_map_create_block(W, 4, td_rank == bad ? NULL : &m), STRATA_ERR_INVALID_ARGUMENT, who, "NULL map");
  assert_null(m);
  int own[1];
  T_OK(strata_dist_map_create_block(W, 4, &m));
  td_expect(strata_dist_map_owners(m, td_rank == bad ? -1 : 0, NULL, own, NULL), STRATA_ERR_INVALID_ARGUMENT, who, "n -1");
  strata_dist_map_destroy(&m);
  /* a map still works after all that */
  T_OK(strata_dist_map_create_block(W, 4, &m));
  strata_dist_map_destroy(&m);
}

/* ------------------------------------------------------------------ plans */

/* the ghost ids rank r asks for in a map whose rank s owns the ids ids(s, 0 .. per-1): two of
 * every other rank's (the last first), one of its own, and one repeated: any order is taken */
static int64_t ghost_list(int r, int p, int64_t per, int64_t (*id)(int, int64_t, int64_t), int64_t *out) {
  int64_t n = 0;
  for (int s = p - 1; s >= 0; --s) {
    if (s == r) {
      out[n++] = id(s, per / 2, per);
      continue;
    }
    out[n++] = id(s, (r + s) % per, per);
    out[n++] = id(s, (r + 2 * s + 1) % per, per);
  }
  out[n] = out[0];
  return n + 1;
}
static int64_t id_block(int s, int64_t k, int64_t per) { return s * per + k; }
static int64_t id_list(int s, int64_t k, int64_t per) { return INT64_C(1000000007) * (k * 64 + s) + 5; }

static void plan_round_trip(int list, int staging) {
  const int64_t per = 6;
  int64_t (*id)(int, int64_t, int64_t) = list ? id_list : id_block;
  strata_dist_map_t *m = NULL;
  int64_t own_ids[6];
  for (int k = 0; k < per; ++k) own_ids[k] = id(td_rank, k, per);
  if (list) T_OK(strata_dist_map_create_list(W, per, own_ids, &m));
  else T_OK(strata_dist_map_create_block(W, per * td_size, &m));
  int64_t *gh = (int64_t *)t_malloc((size_t)(2 * td_size + 2) * sizeof(int64_t));
  const int64_t ng = ghost_list(td_rank, td_size, per, id, gh);
  strata_dist_plan_options_t o = {staging};
  strata_dist_plan_t *P = NULL;
  T_OK(strata_dist_plan_create(T_exec, m, ng, gh, &o, &P));
  strata_dist_plan_info_t pi;
  T_OK(strata_dist_plan_info(P, &pi));
  TD_CHECK(pi.num_ghosts == ng && pi.num_owned == per && pi.num_recv_neighbors == td_size - 1 &&
               pi.num_send_neighbors == td_size - 1 && pi.staged == (staging || !strata_exec_is_host(T_exec)),
           "plan info: %lld ghosts, %d / %d neighbours, staged %d", (long long)pi.num_ghosts, pi.num_recv_neighbors,
           pi.num_send_neighbors, pi.staged);
  /* its own id, and the repeat of the first (rank p - 1's, its own on rank p - 1) come by copy */
  const int64_t self = 1 + (td_rank == td_size - 1);
  TD_CHECK(pi.recv_bytes == 8 * (ng - self) && pi.identity_order == (td_size == 1), "recv bytes %lld, identity %d",
           (long long)pi.recv_bytes, pi.identity_order);
  /* import: x_owned[l] = its id + 0.5 arrives as ghost_gids[i] + 0.5, in the caller's order */
  double xo[6], *xg = (double *)t_malloc((size_t)ng * sizeof(double));
  for (int k = 0; k < per; ++k) xo[k] = (double)own_ids[k] + 0.5;
  double *dxo = (double *)t_to_dev(xo, sizeof xo), *dxg = (double *)t_dev_alloc((size_t)ng * sizeof(double));
  for (int rep = 0; rep < 3; ++rep) { /* reused */
    T_OK(strata_dist_plan_import_begin(P, NULL, dxo, dxg));
    T_OK(strata_dist_plan_end(P));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(xg, dxg, (size_t)ng * sizeof(double));
    int64_t bad = -1;
    for (int64_t i = 0; i < ng && bad < 0; ++i)
      if (xg[i] != (double)gh[i] + 0.5) bad = i;
    TD_CHECK(bad < 0, "import (list %d, staging %d): ghost %lld (id %lld) = %.17g", list, staging, (long long)bad,
             bad < 0 ? 0LL : (long long)gh[bad], bad < 0 ? 0.0 : xg[bad]);
  }
  /* export: ghost i of rank r carries (r + 1) (ADD: the number of times each id was asked for,
   * weighted; REPLACE: the last in receive order = the highest rank, its last copy; ABSMAX) */
  double *yg = (double *)t_malloc((size_t)ng * sizeof(double)), yo[6];
  for (int64_t i = 0; i < ng; ++i) yg[i] = -(double)(td_rank + 1) * (i == ng - 1 ? 2.0 : 1.0);
  double *dyg = (double *)t_to_dev(yg, (size_t)ng * sizeof(double)), *dyo = (double *)t_dev_alloc(sizeof yo);
  int64_t *lr = (int64_t *)t_malloc((size_t)(2 * td_size + 2) * sizeof(int64_t));
  const strata_combine_mode_t modes[3] = {STRATA_COMBINE_ADD, STRATA_COMBINE_REPLACE, STRATA_COMBINE_ABSMAX};
  for (int mi = 0; mi < 3; ++mi) {
    for (int k = 0; k < per; ++k) yo[k] = 0.5;
    T_OK(strata_mem_copy(T_exec, dyo, yo, sizeof yo));
    T_OK(strata_dist_plan_export_begin(P, NULL, dyg, modes[mi], dyo));
    T_OK(strata_dist_plan_end(P));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(yo, dyo, sizeof yo);
    int bad = -1;
    double want_k = 0;
    for (int k = 0; k < per && bad < 0; ++k) {
      double want = 0.5;
      for (int r = 0; r < td_size; ++r) {
        const int64_t n = ghost_list(r, td_size, per, id, lr);
        for (int64_t i = 0; i < n; ++i)
          if (lr[i] == own_ids[k]) {
            const double v = -(double)(r + 1) * (i == n - 1 ? 2.0 : 1.0);
            want = mi == 0 ? want + v : mi == 1 ? v : fmax(fabs(want), fabs(v));
          }
      }
      if (yo[k] != want) bad = k, want_k = want;
    }
    TD_CHECK(bad < 0, "export %s: y_owned[%d] = %.17g, expected %.17g", mi == 0 ? "ADD" : mi == 1 ? "REPLACE" : "ABSMAX", bad,
             bad < 0 ? 0.0 : yo[bad], want_k);
  }
  /* INSERT is refused on every rank, at the end */
  T_OK(strata_dist_plan_export_begin(P, NULL, dyg, STRATA_COMBINE_INSERT, dyo));
  td_expect(strata_dist_plan_end(P), STRATA_ERR_INVALID_ARGUMENT, "combine mode 3", NULL);
  t_dev_free(dxo);
  t_dev_free(dxg);
  t_dev_free(dyg);
  t_dev_free(dyo);
  free(gh);
  free(xg);
  free(yg);
  free(lr);
  T_OK(strata_dist_plan_destroy(&P));
  assert_null(P);
  strata_dist_map_destroy(&m);
}

static void test_plan_round_trip(void **state) {
  (void)state;
  for (int list = 0; list < 2; ++list)
    for (int staging = 0; staging < 2; ++staging) plan_round_trip(list, staging);
}

/* D6 and empty plans: no ghosts on some ranks, none anywhere */
static void test_plan_empty(void **state) {
  (void)state;
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, td_size > 1 ? td_size - 1 : 1, &m)); /* the last rank owns none */
  int64_t g = 0;
  strata_dist_plan_t *P = NULL;
  const int64_t ng = td_rank == 0 ? 1 : 0; /* only rank 0 asks, for id 0 = its own */
  T_OK(strata_dist_plan_create(T_exec, m, ng, &g, NULL, &P));
  strata_dist_plan_info_t pi;
  T_OK(strata_dist_plan_info(P, &pi));
  TD_CHECK(pi.num_recv_neighbors == 0 && pi.num_send_neighbors == 0 && pi.recv_bytes == 0,
           "no traffic expected: %d / %d neighbours, %lld bytes", pi.num_recv_neighbors, pi.num_send_neighbors,
           (long long)pi.recv_bytes);
  strata_dist_map_info_t mi;
  strata_dist_map_info(m, &mi);
  double x = 4.25, got = 0;
  double *dx = (double *)t_to_dev(&x, sizeof x), *dg = (double *)t_dev_alloc(sizeof x);
  T_OK(strata_dist_plan_import_begin(P, NULL, mi.num_local ? dx : NULL, dg));
  T_OK(strata_dist_plan_end(P));
  strata_exec_fence(T_exec);
  if (ng) t_to_host(&got, dg, sizeof got);
  TD_CHECK(ng == 0 || got == 4.25, "self import: %g", got);
  strata_dist_plan_destroy(&P);
  T_OK(strata_dist_plan_create(T_exec, m, 0, NULL, NULL, &P));
  T_OK(strata_dist_plan_import_begin(P, NULL, NULL, NULL));
  T_OK(strata_dist_plan_end(P));
  strata_dist_plan_destroy(&P);
  t_dev_free(dx);
  t_dev_free(dg);
  strata_dist_map_destroy(&m);
}

/* D10, bad ghost ids, and argument errors of one rank deferred to the end and agreed */
static void test_plan_errors(void **state) {
  (void)state;
  const int bad = td_size - 1;
  char who[64];
  snprintf(who, sizeof who, "rank %d: ", bad);
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, 2 * td_size, &m));
  int64_t gh[2] = {(2 * td_rank + 2) % (2 * td_size), td_rank == bad ? 2 * td_size + 3 : 0};
  strata_dist_plan_t *P = NULL;
  td_expect(strata_dist_plan_create(T_exec, m, 2, gh, NULL, &P), STRATA_ERR_INVALID_DATA, who,
            "1 ghost ids are owned by no rank");
  assert_null(P);
  td_expect(strata_dist_plan_create(T_exec, m, td_rank == bad ? -1 : 1, gh, NULL, &P), STRATA_ERR_INVALID_ARGUMENT, who,
            "num_ghosts -1");
  T_OK(strata_dist_plan_create(T_exec, m, 1, gh, NULL, &P));
  double x[2] = {1, 2}, g = 0;
  double *dx = (double *)t_to_dev(x, sizeof x), *dg = (double *)t_dev_alloc(sizeof g);
  /* D10: a second begin on a plan in flight is refused, the first exchange goes on */
  T_OK(strata_dist_plan_import_begin(P, NULL, dx, dg));
  td_expect(strata_dist_plan_import_begin(P, NULL, dx, dg), STRATA_ERR_INVALID_ARGUMENT, "exchange in flight", NULL);
  td_expect(strata_dist_plan_export_begin(P, NULL, dg, STRATA_COMBINE_ADD, dx), STRATA_ERR_INVALID_ARGUMENT,
            "exchange in flight", NULL);
  T_OK(strata_dist_plan_end(P));
  td_expect(strata_dist_plan_end(P), STRATA_ERR_INVALID_ARGUMENT, "no exchange in flight", NULL);
  /* one rank's NULL x: begin returns success, the end fails on every rank, nobody hangs */
  T_OK(strata_dist_plan_import_begin(P, NULL, td_rank == bad ? NULL : dx, dg));
  td_expect(strata_dist_plan_end(P), STRATA_ERR_INVALID_ARGUMENT, who, "NULL x_owned");
  /* and the plan works afterwards */
  T_OK(strata_dist_plan_import_begin(P, NULL, dx, dg));
  T_OK(strata_dist_plan_end(P));
  strata_exec_fence(T_exec);
  t_to_host(&g, dg, sizeof g);
  TD_CHECK(g == (gh[0] % 2 ? 2.0 : 1.0), "after the errors: ghost %lld = %g", (long long)gh[0], g);
  td_expect(strata_dist_plan_import_begin(NULL, NULL, dx, dg), STRATA_ERR_INVALID_ARGUMENT, "NULL plan", NULL);
  td_expect(strata_dist_plan_create(T_exec, NULL, 0, NULL, NULL, &P), STRATA_ERR_INVALID_ARGUMENT, "NULL map", NULL);
  strata_dist_plan_destroy(&P);
  t_dev_free(dx);
  t_dev_free(dg);
  strata_dist_map_destroy(&m);
}

/* ------------------------------------------------------------------ vectors */

/* D16: the same bits on every rank; norms that would overflow or underflow a plain sum */
static void test_vec_reductions(void **state) {
  (void)state;
  const double scales[3] = {1.0, 1e200, 1e-200};
  for (int si = 0; si < 3; ++si) {
    strata_dist_map_t *m = NULL;
    const int64_t n = 37;
    T_OK(strata_dist_map_create_block(W, n, &m));
    strata_dist_map_info_t in;
    strata_dist_map_info(m, &in);
    double *x = (double *)t_malloc((size_t)in.num_local * sizeof(double)), *y = (double *)t_malloc((size_t)in.num_local * sizeof(double));
    double dot_ref = 0, ss = 0;
    for (int64_t g = 0; g < n; ++g) {
      const double xv = scales[si] * (1.0 + 0.1 * (double)(g % 9)), yv = 1.0 / (1.0 + (double)g);
      dot_ref += (xv / scales[si]) * yv;
      ss += (xv / scales[si]) * (xv / scales[si]);
      if (g >= in.first_gid && g < in.first_gid + in.num_local) x[g - in.first_gid] = xv, y[g - in.first_gid] = yv;
    }
    double *dx = (double *)t_to_dev(x, (size_t)in.num_local * sizeof(double));
    double *dy = (double *)t_to_dev(y, (size_t)in.num_local * sizeof(double));
    double d = 0, nrm = 0;
    T_OK(strata_dist_vec_dot(T_exec, m, dx, dy, &d));
    T_OK(strata_dist_vec_nrm2(T_exec, m, dx, &nrm));
    TD_CHECK(t_reldiff(d / scales[si], dot_ref) < 1e-14, "dot %.17g, expected %.17g", d, dot_ref * scales[si]);
    TD_CHECK(t_reldiff(nrm / scales[si], sqrt(ss)) < 1e-14, "nrm2 %.17g, expected %.17g", nrm, sqrt(ss) * scales[si]);
    double mm[4] = {d, -d, nrm, -nrm};
    MPI_Allreduce(MPI_IN_PLACE, mm, 4, MPI_DOUBLE, MPI_MAX, W);
    TD_CHECK(mm[0] == -mm[1] && mm[2] == -mm[3], "results differ between ranks: dot %.17g .. %.17g", -mm[1], mm[0]);
    t_dev_free(dx);
    t_dev_free(dy);
    free(x);
    free(y);
    strata_dist_map_destroy(&m);
  }
  /* one rank's NaN makes the norm NaN everywhere; an error on one rank is everyone's */
  strata_dist_map_t *m = NULL;
  T_OK(strata_dist_map_create_block(W, td_size, &m));
  double v = td_rank == td_size - 1 ? NAN : 1.0, r = 0;
  double *dv = (double *)t_to_dev(&v, sizeof v);
  T_OK(strata_dist_vec_nrm2(T_exec, m, dv, &r));
  TD_CHECK(isnan(r), "norm with a NaN: %g", r);
  char who[64];
  snprintf(who, sizeof who, "rank %d: ", td_size - 1);
  td_expect(strata_dist_vec_dot(T_exec, m, td_rank == td_size - 1 ? NULL : dv, dv, &r), STRATA_ERR_INVALID_ARGUMENT, who,
            "NULL x");
  td_expect(strata_dist_vec_nrm2(T_exec, m, dv, td_rank == td_size - 1 ? NULL : &r), STRATA_ERR_INVALID_ARGUMENT, who,
            "NULL result");
  t_dev_free(dv);
  strata_dist_map_destroy(&m);
}

static void test_helpers(void **state) {
  (void)state;
  int provided = -1;
  T_OK(strata_dist_init(NULL, NULL, MPI_THREAD_MULTIPLE, &provided)); /* MPI is up: reports only */
  TD_CHECK(provided == td_thread_level, "provided %d, at start %d", provided, td_thread_level);
  td_expect(strata_dist_init(NULL, NULL, 99, NULL), STRATA_ERR_INVALID_ARGUMENT, "thread level 99", NULL);
  TD_CHECK(!strcmp(strata_dist_thread_level_name(MPI_THREAD_SERIALIZED), "MPI_THREAD_SERIALIZED"), "level name");
  int nr = -1, ns = -1;
  T_OK(strata_dist_node_rank(W, &nr, &ns));
  TD_CHECK(ns >= 1 && nr >= 0 && nr < ns, "node rank %d of %d", nr, ns);
  strata_dist_mode_t md;
  T_OK(strata_dist_mode_from_name("task", &md));
  TD_CHECK(md == STRATA_DIST_TASK && !strcmp(strata_dist_mode_name(STRATA_DIST_OVERLAP), "overlap"), "mode names");
  td_expect(strata_dist_mode_from_name("halo", &md), STRATA_ERR_INVALID_ARGUMENT, "'halo'", "vector, overlap, task");
}

/* One GPU per rank: every test rank runs on this one node, so the node rank is the world rank
 * and rank r takes GPU r mod count (4 GPUs: ranks 0..3 on 0..3; 1 GPU: every rank on 0; a host
 * backend's count 1: 0; no device: 0) */
static void test_device_select(void **state) {
  (void)state;
  const int counts[] = {4, 2, 1, 0};
  for (int c = 0; c < 4; ++c) {
    int dev = -1;
    T_OK(strata_dist_device_select(W, counts[c], &dev));
    const int want = counts[c] > 0 ? td_rank % counts[c] : 0;
    TD_CHECK(dev == want, "rank %d with %d devices: device %d, expected %d", td_rank, counts[c], dev, want);
  }
  td_expect(strata_dist_device_select(W, 4, NULL), STRATA_ERR_INVALID_ARGUMENT, "NULL device", NULL);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_device_select, t_setup),
      cmocka_unit_test_setup(test_map_block, t_setup),
      cmocka_unit_test_setup(test_map_contiguous, t_setup),
      cmocka_unit_test_setup(test_map_list, t_setup),
      cmocka_unit_test_setup(test_map_list_top_ids, t_setup),
      cmocka_unit_test_setup(test_map_duplicates, t_setup),
      cmocka_unit_test_setup(test_map_bad_input_one_rank, t_setup),
      cmocka_unit_test_setup(test_plan_round_trip, t_setup),
      cmocka_unit_test_setup(test_plan_empty, t_setup),
      cmocka_unit_test_setup(test_plan_errors, t_setup),
      cmocka_unit_test_setup(test_vec_reductions, t_setup),
      cmocka_unit_test_setup(test_helpers, t_setup),
  };
  return TD_RUN("dist", tests);
}
