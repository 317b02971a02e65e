/* strata tests — unpack_combine by row class (issue 5): every forced class and the automatic
 * classification against a serial host reference (ADD on integer-valued data, so the order of
 * atomic adds does not matter and results compare bit for bit), EDGE_CASES E8-E10 in every class,
 * duplicates within and across packets, permuted entries, invalid entries counted exactly with
 * valid examples, strict mode (the matrix bitwise unchanged on bad input), every mode, empty
 * packets, a packet far above the scratch limit, zero packets; INSERT against a dense host
 * reference (growth exact). */
#include "test_common.h"

#include "strata/sparse.h"
#include "test_sparse_host.h"

/* ------------------------------------------------------------------ host model */


/* packets on the host: packet k targets rows[k], its entries are [first[k], first[k+1]) of
 * gid / val */
typedef struct {
  int64_t np, cap_p, ne, cap_e;
  int32_t *rows;
  int64_t *first;
  int64_t *gid;
  double *val;
} hpk_t;

static void pk_init(hpk_t *p) {
  memset(p, 0, sizeof *p);
  p->cap_p = 16;
  p->cap_e = 64;
  p->rows = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)p->cap_p);
  p->first = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)(p->cap_p + 1));
  p->gid = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)p->cap_e);
  p->val = (double *)t_malloc(sizeof(double) * (size_t)p->cap_e);
  p->first[0] = 0;
}
static void pk_free(hpk_t *p) {
  free(p->rows);
  free(p->first);
  free(p->gid);
  free(p->val);
  memset(p, 0, sizeof *p);
}
static void pk_begin(hpk_t *p, int32_t row) {
  if (p->np + 1 >= p->cap_p) {
    p->cap_p *= 2;
    p->rows = (int32_t *)realloc(p->rows, sizeof(int32_t) * (size_t)p->cap_p);
    p->first = (int64_t *)realloc(p->first, sizeof(int64_t) * (size_t)(p->cap_p + 1));
  }
  p->rows[p->np++] = row;
  p->first[p->np] = p->ne;
}
static void pk_add(hpk_t *p, int64_t gid, double v) {
  if (p->ne + 1 >= p->cap_e) {
    p->cap_e *= 2;
    p->gid = (int64_t *)realloc(p->gid, sizeof(int64_t) * (size_t)p->cap_e);
    p->val = (double *)realloc(p->val, sizeof(double) * (size_t)p->cap_e);
  }
  p->gid[p->ne] = gid;
  p->val[p->ne] = v;
  p->first[p->np] = ++p->ne;
}

/* the packet buffer of strata_packets_t; corrupt >= 0: that packet's count is set to 1 << 40 */
static unsigned char *pk_serialize(const hpk_t *p, int64_t corrupt, int64_t *off, int64_t *nbytes) {
  off[0] = 0;
  for (int64_t k = 0; k < p->np; ++k) off[k + 1] = off[k] + 8 + 16 * (p->first[k + 1] - p->first[k]);
  *nbytes = off[p->np];
  unsigned char *d = (unsigned char *)t_malloc((size_t)*nbytes);
  for (int64_t k = 0; k < p->np; ++k) {
    int64_t c = p->first[k + 1] - p->first[k];
    const int64_t c_stored = k == corrupt ? ((int64_t)1 << 40) : c;
    memcpy(d + off[k], &c_stored, 8);
    memcpy(d + off[k] + 8, p->gid + p->first[k], (size_t)(8 * c));
    memcpy(d + off[k] + 8 + 8 * c, p->val + p->first[k], (size_t)(8 * c));
  }
  return d;
}

typedef struct {
  int64_t rows, entries, bad_entries, bad_rows, malformed;
  int64_t n_inv, cap_inv;
  int64_t *inv; /* (row, gid, kind, packet) of every invalid entry / packet (gid -1) */
} ref_t;

static void ref_inv(ref_t *r, int64_t row, int64_t gid, strata_unpack_example_kind_t kind, int64_t packet) {
  if (r->n_inv == r->cap_inv) {
    r->cap_inv = r->cap_inv ? 2 * r->cap_inv : 64;
    r->inv = (int64_t *)realloc(r->inv, sizeof(int64_t) * 4 * (size_t)r->cap_inv);
  }
  r->inv[4 * r->n_inv] = row;
  r->inv[4 * r->n_inv + 1] = gid;
  r->inv[4 * r->n_inv + 2] = kind;
  r->inv[4 * r->n_inv + 3] = packet;
  r->n_inv++;
}

/* sparse.h: no local id for a global id outside [0, ng) or mapped outside [0, nc) */
static int64_t ref_lid(const host_crs_t *A, const int32_t *lids, int64_t ng, int64_t gid) {
  const int64_t lid = !lids ? gid : gid >= 0 && gid < ng ? lids[gid] : -1;
  return lid >= 0 && lid < A->nc ? lid : -1;
}

/* The serial reference of unpack_combine (non-strict), applied to A's values in place. */
static void ref_unpack(host_crs_t *A, const hpk_t *P, int64_t corrupt, const int32_t *lids, int64_t ng,
                       strata_combine_mode_t mode, ref_t *r) {
  memset(r, 0, sizeof *r);
  for (int64_t k = 0; k < P->np; ++k) {
    const int64_t row = P->rows[k];
    if (k == corrupt) {
      r->malformed++;
      ref_inv(r, row, -1, STRATA_UNPACK_EXAMPLE_PACKET, k);
      continue;
    }
    if (row < 0 || row >= A->nr) {
      r->bad_rows++;
      ref_inv(r, row, -1, STRATA_UNPACK_EXAMPLE_ROW, k);
      continue;
    }
    for (int64_t e = P->first[k]; e < P->first[k + 1]; ++e) {
      const int64_t lid = ref_lid(A, lids, ng, P->gid[e]);
      int64_t pos = -1;
      for (int64_t q = A->ro[row]; lid >= 0 && q < A->ro[row + 1]; ++q)
        if (A->ci[q] == lid) pos = q;
      if (pos < 0) {
        r->bad_entries++;
        ref_inv(r, row, P->gid[e], STRATA_UNPACK_EXAMPLE_ENTRY, k);
        continue;
      }
      const double v = P->val[e];
      if (mode == STRATA_COMBINE_ADD) A->v[pos] += v;
      if (mode == STRATA_COMBINE_REPLACE) A->v[pos] = v;
      if (mode == STRATA_COMBINE_ABSMAX && fabs(v) > fabs(A->v[pos])) A->v[pos] = v;
      if (mode != STRATA_COMBINE_ZERO) r->entries++;
    }
    if (mode != STRATA_COMBINE_ZERO) r->rows++;
  }
}

static host_crs_t hmat_copy(const host_crs_t *A) {
  host_crs_t B = *A;
  B.v = (double *)t_malloc(sizeof(double) * (size_t)A->nnz);
  memcpy(B.v, A->v, sizeof(double) * (size_t)A->nnz);
  return B;
}

/* P on the device (packet buffer, offsets, target rows, column map); corrupt as pk_serialize. */
typedef struct {
  strata_packets_t pk;
  int32_t *rows, *lids;
  int64_t *off;
  unsigned char *data;
} dpk_t;

static void dpk_make(const hpk_t *P, int64_t corrupt, const int32_t *lids, int64_t ng, dpk_t *d) {
  d->off = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)(P->np + 1));
  int64_t nbytes = 0;
  d->data = pk_serialize(P, corrupt, d->off, &nbytes);
  d->pk.exec = T_exec;
  d->pk.num_rows = P->np;
  d->pk.offsets = (int64_t *)t_to_dev(d->off, sizeof(int64_t) * (size_t)(P->np + 1));
  d->pk.data = (unsigned char *)t_to_dev(d->data, (size_t)nbytes);
  d->pk.num_bytes = nbytes;
  d->rows = (int32_t *)t_to_dev(P->rows, sizeof(int32_t) * (size_t)P->np);
  d->lids = lids ? (int32_t *)t_to_dev(lids, sizeof(int32_t) * (size_t)ng) : NULL;
}

static void dpk_free(dpk_t *d) {
  t_dev_free(d->pk.offsets);
  t_dev_free(d->pk.data);
  t_dev_free(d->rows);
  t_dev_free(d->lids);
  free(d->off);
  free(d->data);
}

/* H as a device CrsMatrix (copied: the upload buffers are freed at once). */
static strata_crs_matrix_t *dev_target(const host_crs_t *H) {
  int64_t *d_ro = (int64_t *)t_to_dev(H->ro, sizeof(int64_t) * ((size_t)H->nr + 1));
  int32_t *d_ci = (int32_t *)t_to_dev(H->ci, sizeof(int32_t) * (size_t)H->nnz);
  double *d_v = (double *)t_to_dev(H->v, sizeof(double) * (size_t)H->nnz);
  strata_crs_matrix_t *A = NULL;
  T_OK(strata_crs_create_from_csr(T_exec, H->nr, H->nc, H->nnz, d_ro, d_ci, d_v, STRATA_CRS_COPY, &A));
  t_dev_free(d_ro);
  t_dev_free(d_ci);
  t_dev_free(d_v);
  return A;
}

/* Runs unpack_combine_opts on T_exec on a fresh device copy of H; out_v [H->nnz] receives the
 * values after the call. */
static strata_status_t dev_unpack(const host_crs_t *H, const hpk_t *P, int64_t corrupt, const int32_t *lids,
                                  int64_t ng, strata_combine_mode_t mode,
                                  const strata_unpack_options_t *o, strata_unpack_report_t *rep,
                                  double *out_v) {
  strata_crs_matrix_t *A = dev_target(H);
  assert_int_equal(A->fill_complete, 1);
  dpk_t d;
  dpk_make(P, corrupt, lids, ng, &d);
  const strata_status_t st = strata_sparse_unpack_combine_opts(T_exec, A, d.rows, &d.pk, d.lids, ng, mode, o, rep);
  t_to_host(out_v, A->values, sizeof(double) * (size_t)H->nnz);
  strata_crs_destroy(&A);
  dpk_free(&d);
  return st;
}

static const char *class_name(int c) {
  static const char *n[] = {"auto", "short", "medium", "long", "very long"};
  return c >= 0 && c <= 4 ? n[c] : "?";
}

/* Compares a device run with the reference: values (bitwise, or |v| for ABSMAX), counts, and
 * the examples: the first invalid (row, gid) items in packet and entry order. */
static void expect_run(const char *what, int cls, const host_crs_t *want, const double *got, const ref_t *r,
                       const strata_unpack_report_t *rep, strata_status_t st, int absmax) {
  const int64_t invalid = r->bad_entries + r->bad_rows + r->malformed;
  if (st != (invalid ? STRATA_ERR_INVALID_DATA : STRATA_SUCCESS))
    fail_msg("%s [%s]: status %s (%s), expected %s (seed %llu)", what, class_name(cls), strata_status_name(st),
             strata_error_message(), invalid ? "INVALID_DATA" : "SUCCESS", (unsigned long long)T_seed);
  for (int64_t k = 0; k < want->nnz; ++k) {
    const int ok = absmax ? fabs(got[k]) == fabs(want->v[k]) : memcmp(&got[k], &want->v[k], sizeof(double)) == 0;
    if (!ok)
      fail_msg("%s [%s]: value %lld = %.17g, expected %.17g (seed %llu)", what, class_name(cls), (long long)k,
               got[k], want->v[k], (unsigned long long)T_seed);
  }
  if (rep->rows_unpacked != r->rows || rep->entries_combined != r->entries ||
      rep->invalid_entries != r->bad_entries || rep->invalid_rows != r->bad_rows ||
      rep->malformed_packets != r->malformed)
    fail_msg("%s [%s]: report rows %lld entries %lld bad entries %lld bad rows %lld malformed %lld, "
             "expected %lld %lld %lld %lld %lld (seed %llu)",
             what, class_name(cls), (long long)rep->rows_unpacked, (long long)rep->entries_combined,
             (long long)rep->invalid_entries, (long long)rep->invalid_rows, (long long)rep->malformed_packets,
             (long long)r->rows, (long long)r->entries, (long long)r->bad_entries, (long long)r->bad_rows,
             (long long)r->malformed, (unsigned long long)T_seed);
  const int64_t want_ex = invalid < STRATA_UNPACK_MAX_EXAMPLES ? invalid : STRATA_UNPACK_MAX_EXAMPLES;
  if (rep->num_examples != want_ex)
    fail_msg("%s [%s]: %d examples, expected %lld", what, class_name(cls), rep->num_examples, (long long)want_ex);
  for (int e = 0; e < rep->num_examples; ++e) /* the first invalid items, in packet and entry order */
    if (r->inv[4 * e] != rep->examples[e].row || r->inv[4 * e + 1] != rep->examples[e].col ||
        r->inv[4 * e + 2] != (int64_t)rep->examples[e].kind || r->inv[4 * e + 3] != rep->examples[e].packet)
      fail_msg("%s [%s]: example %d is (row %lld, col %lld, kind %d, packet %lld), expected the %d-th invalid "
               "item (row %lld, col %lld, kind %lld, packet %lld)",
               what, class_name(cls), e, (long long)rep->examples[e].row, (long long)rep->examples[e].col,
               (int)rep->examples[e].kind, (long long)rep->examples[e].packet, e, (long long)r->inv[4 * e],
               (long long)r->inv[4 * e + 1], (long long)r->inv[4 * e + 2], (long long)r->inv[4 * e + 3]);
}

/* ------------------------------------------------------------------ generators */

/* A target of nr rows, nc columns; row lengths 10, 100 or nc (sorted, unique), values integers. */
static host_crs_t gen_target(uint64_t *s, int32_t nr, int32_t nc) {
  host_crs_t A;
  A.nr = nr;
  A.nc = nc;
  A.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nr + 1));
  int64_t cap = (int64_t)nr * nc;
  A.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)cap);
  A.v = (double *)t_malloc(sizeof(double) * (size_t)cap);
  uint8_t *on = (uint8_t *)t_malloc((size_t)nc);
  A.ro[0] = 0;
  for (int32_t r = 0; r < nr; ++r) {
    const uint64_t u = t_rand(s) % 10;
    const int32_t len = u < 5 ? 10 : u < 8 ? 100 : nc;
    memset(on, 0, (size_t)nc);
    int32_t got = 0;
    while (got < (len < nc ? len : nc)) {
      const int32_t c = (int32_t)(t_rand(s) % (uint64_t)nc);
      if (len >= nc || !on[c]) {
        if (len >= nc) {
          for (int32_t j = 0; j < nc; ++j) on[j] = 1;
          got = nc;
          break;
        }
        on[c] = 1;
        ++got;
      }
    }
    int64_t k = A.ro[r];
    for (int32_t c = 0; c < nc; ++c)
      if (on[c]) {
        A.ci[k] = c;
        A.v[k] = (double)(int)(t_rand(s) % 21) - 10.0;
        ++k;
      }
    A.ro[r + 1] = k;
  }
  A.nnz = A.ro[nr];
  free(on);
  return A;
}
/* Global column ids g = 2 c + 1 (even ids and ids beyond 2 nc have no local id). */
static int32_t *gen_lids(int32_t nc, int64_t *ng) {
  *ng = 2 * (int64_t)nc + 1;
  int32_t *l = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)*ng);
  /* odd g: local column g / 2; even g: no local id, as -1 or as a value outside [0, nc) */
  for (int64_t g = 0; g < *ng; ++g) l[g] = g % 2 ? (int32_t)(g / 2) : g % 6 == 2 ? nc + (int32_t)g : g % 6 == 4 ? -7 : -1;
  return l;
}

/* Random packets over A's rows (rows repeat: several senders): sizes across every class,
 * entries drawn from the row's pattern (duplicates within a packet), integer values; invalid:
 * some entries off the pattern or without a local id, some rows out of range. */
static void gen_packets(uint64_t *s, const host_crs_t *A, int64_t np, int invalid, hpk_t *P) {
  pk_init(P);
  static const int64_t size_lo[] = {0, 1, 3, 17, 257}, size_hi[] = {0, 2, 16, 256, 1500};
  for (int64_t k = 0; k < np; ++k) {
    int32_t row = (int32_t)(t_rand(s) % (uint64_t)A->nr);
    if (invalid && t_rand(s) % 40 == 0) row = t_rand(s) % 2 ? A->nr + 3 : -1;
    const int b = (int)(t_rand(s) % 5);
    const int64_t cnt = size_lo[b] + (int64_t)(t_rand(s) % (uint64_t)(size_hi[b] - size_lo[b] + 1));
    pk_begin(P, row);
    const int32_t rr = row >= 0 && row < A->nr ? row : 0;
    const int64_t len = A->ro[rr + 1] - A->ro[rr];
    for (int64_t e = 0; e < cnt; ++e) {
      int64_t gid = 2 * (int64_t)A->ci[A->ro[rr] + (int64_t)(t_rand(s) % (uint64_t)len)] + 1;
      if (invalid && t_rand(s) % 50 == 0) {
        const int w = (int)(t_rand(s) % 3);
        gid = w == 0 ? 2 * (int64_t)(t_rand(s) % (uint64_t)A->nc)       /* no local id */
              : w == 1 ? 2 * (int64_t)A->nc + 7 + (int64_t)(t_rand(s) % 5) /* beyond num_global */
                       : 2 * (int64_t)(t_rand(s) % (uint64_t)A->nc) + 1;  /* maybe off the pattern */
      }
      pk_add(P, gid, (double)(int)(t_rand(s) % 201) - 100.0);
    }
  }
}

/* Fisher-Yates over each packet's entries. */
static void shuffle_entries(uint64_t *s, hpk_t *P) {
  for (int64_t k = 0; k < P->np; ++k)
    for (int64_t i = P->first[k + 1] - 1; i > P->first[k]; --i) {
      const int64_t j = P->first[k] + (int64_t)(t_rand(s) % (uint64_t)(i - P->first[k] + 1));
      const int64_t tg = P->gid[i];
      const double tv = P->val[i];
      P->gid[i] = P->gid[j];
      P->val[i] = P->val[j];
      P->gid[j] = tg;
      P->val[j] = tv;
    }
}

/* Small thresholds so that a few hundred entries reach every class. */
static strata_unpack_options_t small_opts(int cls) {
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  o.force_class = (strata_unpack_class_t)cls;
  o.short_max = 2;
  o.medium_max = 16;
  o.long_max = 256;
  o.chunk = 64;
  return o;
}

/* One comparison: reference vs the device for options o. */
static void check_case(const char *what, const host_crs_t *H, const hpk_t *P, int64_t corrupt, const int32_t *lids,
                       int64_t ng, strata_combine_mode_t mode, const strata_unpack_options_t *o,
                       strata_unpack_report_t *rep_out) {
  host_crs_t W = hmat_copy(H);
  ref_t r;
  ref_unpack(&W, P, corrupt, lids, ng, mode, &r);
  double *got = (double *)t_malloc(sizeof(double) * (size_t)H->nnz);
  strata_unpack_report_t rep;
  const strata_status_t st = dev_unpack(H, P, corrupt, lids, ng, mode, o, &rep, got);
  expect_run(what, o ? (int)o->force_class : 0, &W, got, &r, &rep, st, mode == STRATA_COMBINE_ABSMAX);
  if (rep_out) *rep_out = rep;
  free(got);
  free(W.v);
  free(r.inv);
}

/* ------------------------------------------------------------------ tests */

/* A target of nr x nc, a col_lids map (ng global ids) and np packets (invalid: some invalid
 * entries and rows). */
typedef struct {
  host_crs_t H;
  int32_t *lids;
  int64_t ng;
  hpk_t P;
} unpack_case_t;
static unpack_case_t case_make(uint64_t *s, int32_t nr, int32_t nc, int64_t np, int invalid) {
  unpack_case_t c;
  c.H = gen_target(s, nr, nc);
  c.lids = gen_lids(c.H.nc, &c.ng);
  gen_packets(s, &c.H, np, invalid, &c.P);
  return c;
}
static void case_free(unpack_case_t *c) {
  pk_free(&c->P);
  free(c->lids);
  host_crs_free(&c->H);
}

/* ADD: each forced class and auto (small and default thresholds) against the reference; then
 * the entries of every packet permuted; a col_lids map throughout. */
static void test_classes_add(void **state) {
  (void)state;
  uint64_t s = T_seed + 11;
  unpack_case_t u = case_make(&s, 60, 600, 300, 0);
  strata_unpack_report_t rep;
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    check_case("ADD", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ADD, &o, &rep);
    if (c > 0) { /* every packet in the forced class (long: none above the scratch limit here) */
      assert_int_equal(rep.class_packets[c - 1], u.P.np);
    } else { /* auto: every class populated */
      for (int k = 0; k < 4; ++k)
        if (rep.class_packets[k] == 0) fail_msg("auto: class %s empty", class_name(k + 1));
    }
  }
  check_case("ADD defaults", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ADD, NULL, NULL);
  shuffle_entries(&s, &u.P);
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    check_case("ADD permuted", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ADD, &o, NULL);
  }
  case_free(&u);
}

/* More packets than one partition tile (2048), with invalid entries and rows: the very long
 * packets of every tile get their chunks (first chunks from the tiles' scan), each class and
 * auto (small and default thresholds: on GPUs the default puts the classes in one launch). */
static void test_many_tiles(void **state) {
  (void)state;
  uint64_t s = T_seed + 71;
  unpack_case_t u = case_make(&s, 300, 3000, 5000, 1);
  strata_unpack_report_t rep;
  for (int c = 0; c <= 4; c += 4) {
    strata_unpack_options_t o = small_opts(c);
    check_case("ADD, 3 tiles", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ADD, &o, &rep);
    if (rep.invalid_entries == 0 || rep.invalid_rows == 0) fail_msg("the input has invalid entries and rows");
  }
  check_case("ADD, 3 tiles, defaults", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ADD, NULL, &rep);
  /* GPU defaults: packets above 256 entries are very long (host: above 16384, none here) */
  if (!strata_exec_is_host(T_exec) && rep.class_packets[3] == 0) fail_msg("defaults: no very long packet");
  check_case("ABSMAX, 3 tiles, defaults", &u.H, &u.P, -1, u.lids, u.ng, STRATA_COMBINE_ABSMAX, NULL, NULL);
  case_free(&u);
}

/* One class and very long packets only (the FEM job with bulk nodes): the classification lists
 * the very long ones, one team sorts them, and no second pass runs (up to 1024 of them; more take
 * the two-pass grouping). Rounds: 10 very long packets of 17..600 entries (chunks of 64), several
 * to rows 0..2, among 5990 short ones (their chunks' lanes lead the short launch); 1100 among
 * 8800 short, past the list's limit; 12 among 5000 medium ones (3..16 entries; on GPUs the
 * shared launch of the classes); 6 like a bulk node's row (every other entry one column) among
 * 3000 short. ADD, ABSMAX and ZERO, the entries permuted. */
static void test_dominant_very_long(void **state) {
  (void)state;
  const int64_t nvl[4] = {10, 1100, 12, 6}, nmain[4] = {5990, 8800, 5000, 3000};
  for (int round = 0; round < 4; ++round) {
    uint64_t s = T_seed + 131 + (uint64_t)round;
    host_crs_t H = gen_target(&s, 300, 1500);
    int64_t ng = 0;
    int32_t *lids = gen_lids(H.nc, &ng);
    hpk_t P;
    pk_init(&P);
    const int64_t np = nvl[round] + nmain[round];
    int64_t left = nvl[round];
    for (int64_t k = 0; k < np; ++k) {
      const int vl = (int64_t)(t_rand(&s) % (uint64_t)(np - k)) < left;
      left -= vl;
      const int32_t row = (int32_t)(vl && t_rand(&s) % 2 ? t_rand(&s) % 3 : t_rand(&s) % (uint64_t)H.nr);
      const int64_t cnt = vl ? (round == 1 ? 17 + (int64_t)(t_rand(&s) % 4) : 17 + (int64_t)(t_rand(&s) % 584))
                          : round == 2 ? 3 + (int64_t)(t_rand(&s) % 14)
                                       : 1 + (int64_t)(t_rand(&s) % 2);
      const int64_t len = H.ro[row + 1] - H.ro[row];
      pk_begin(&P, row);
      for (int64_t e = 0; e < cnt; ++e) {
        /* round 3, a bulk node's row: every other entry the row's first column, the others its
         * columns in order, round and round */
        const int64_t at = round == 3 && vl ? (e % 2 ? (e / 2) % len : 0) : (int64_t)(t_rand(&s) % (uint64_t)len);
        pk_add(&P, 2 * (int64_t)H.ci[H.ro[row] + at] + 1, (double)(int)(t_rand(&s) % 201) - 100.0);
      }
    }
    static const char *const what[4] = {"10 very long beside short", "1100 very long beside short",
                                        "12 very long beside medium", "6 bulk rows beside short"};
    const int main_class = round == 2 ? 1 : 0; /* report's class_packets index */
    const strata_combine_mode_t modes[] = {STRATA_COMBINE_ADD, STRATA_COMBINE_ABSMAX, STRATA_COMBINE_ZERO};
    for (int permuted = 0; permuted < 2; ++permuted) {
      if (permuted) shuffle_entries(&s, &P);
      for (int m = 0; m < 3; ++m) {
        strata_unpack_options_t o = small_opts(0);
        o.long_max = o.medium_max; /* no long class: above 16 entries, very long */
        strata_unpack_report_t rep;
        check_case(what[round], &H, &P, -1, lids, ng, modes[m], &o, &rep);
        if (rep.class_packets[main_class] != nmain[round] || rep.class_packets[3] != nvl[round] ||
            rep.class_packets[0] + rep.class_packets[1] + rep.class_packets[2] != nmain[round])
          fail_msg("%s: classes %lld %lld %lld %lld", what[round], (long long)rep.class_packets[0],
                   (long long)rep.class_packets[1], (long long)rep.class_packets[2], (long long)rep.class_packets[3]);
      }
    }
    pk_free(&P);
    free(lids);
    host_crs_free(&H);
  }
}

/* One class holding all but a few packets (at least 7/8: the call launches it over every packet,
 * skipping the others by their class byte, and lists only the others; tiles of 2048 packets that
 * hold none of them skip the listing): the first 2100 packets short only, then 94 % short and the
 * rest medium, long and very long, in ADD, ABSMAX and ZERO, with the entries permuted; small thresholds
 * and the defaults (GPUs: short dominant beside very long packets, in one launch). */
static void test_dominant_class(void **state) {
  (void)state;
  uint64_t s = T_seed + 97;
  host_crs_t H = gen_target(&s, 200, 2000);
  int64_t ng = 0;
  int32_t *lids = gen_lids(H.nc, &ng);
  hpk_t P;
  pk_init(&P);
  const int64_t np = 6000;
  for (int64_t k = 0; k < np; ++k) {
    const int32_t row = (int32_t)(t_rand(&s) % (uint64_t)H.nr);
    const uint64_t u = k < 2100 ? 0 : t_rand(&s) % 100;
    const int64_t cnt = u < 94 ? 1 + (int64_t)(t_rand(&s) % 2)          /* short */
                        : u < 96 ? 3 + (int64_t)(t_rand(&s) % 14)       /* medium */
                        : u < 98 ? 17 + (int64_t)(t_rand(&s) % 240)     /* long */
                                 : 257 + (int64_t)(t_rand(&s) % 400);  /* very long */
    const int64_t len = H.ro[row + 1] - H.ro[row];
    pk_begin(&P, row);
    for (int64_t e = 0; e < cnt; ++e)
      pk_add(&P, 2 * (int64_t)H.ci[H.ro[row] + (int64_t)(t_rand(&s) % (uint64_t)len)] + 1,
             (double)(int)(t_rand(&s) % 201) - 100.0);
  }
  strata_unpack_report_t rep;
  /* not REPLACE: the packets name entries more than once (sparse.h: then one of them wins) */
  const strata_combine_mode_t modes[] = {STRATA_COMBINE_ADD, STRATA_COMBINE_ABSMAX, STRATA_COMBINE_ZERO};
  for (int permuted = 0; permuted < 2; ++permuted) {
    if (permuted) shuffle_entries(&s, &P);
    for (int m = 0; m < 3; ++m) {
      strata_unpack_options_t o = small_opts(0);
      check_case("dominant short, small thresholds", &H, &P, -1, lids, ng, modes[m], &o, &rep);
      if (rep.class_packets[0] * 8 < 7 * np || rep.class_packets[1] == 0 || rep.class_packets[2] == 0 ||
          rep.class_packets[3] == 0)
        fail_msg("classes %lld %lld %lld %lld: not one dominant class beside the others",
                 (long long)rep.class_packets[0], (long long)rep.class_packets[1], (long long)rep.class_packets[2],
                 (long long)rep.class_packets[3]);
      check_case("dominant, defaults", &H, &P, -1, lids, ng, modes[m], NULL, NULL);
    }
  }
  pk_free(&P);
  free(lids);
  host_crs_free(&H);
}

/* Duplicates within one packet and across packets (the same row from many senders), identity
 * column map. */
static void test_duplicates(void **state) {
  (void)state;
  uint64_t s = T_seed + 12;
  const int64_t ro[] = {0, 3, 5};
  const int32_t ci[] = {0, 2, 5, 1, 5};
  const double v[] = {1, 2, 3, 4, 5};
  host_crs_t H = {2, 6, 5, (int64_t *)ro, (int32_t *)ci, (double *)v};
  hpk_t P;
  pk_init(&P);
  for (int k = 0; k < 40; ++k) {
    pk_begin(&P, k % 3 == 0 ? 1 : 0);
    const int n = 1 + (int)(t_rand(&s) % 300);
    for (int e = 0; e < n; ++e) {
      const int32_t row = P.rows[k];
      const int64_t q = ro[row] + (int64_t)(t_rand(&s) % (uint64_t)(ro[row + 1] - ro[row]));
      pk_add(&P, ci[q], (double)(int)(t_rand(&s) % 7) - 3.0);
    }
  }
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    check_case("duplicates", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, NULL);
    check_case("duplicates ABSMAX", &H, &P, -1, NULL, 0, STRATA_COMBINE_ABSMAX, &o, NULL);
  }
  pk_free(&P);
}

/* Invalid entries, rows and a malformed packet, counted exactly in every class, examples among
 * the invalid pairs; valid entries applied all the same. The malformed packet's offsets are
 * consistent and its stored count is wrong: the classification reads only the offsets (it takes
 * the packet for one of the entries its span holds), the class kernel reads the stored count and
 * reports it; the report's packets and entries stay exact. So one such packet of each length
 * class, one of no entries, and one whose target row is out of range too (malformed, not counted
 * by the classification either), under every forced class and the defaults. */
static void test_invalid_counted(void **state) {
  (void)state;
  uint64_t s = T_seed + 13;
  host_crs_t H = gen_target(&s, 50, 400);
  int64_t ng;
  int32_t *lids = gen_lids(H.nc, &ng);
  hpk_t P;
  gen_packets(&s, &H, 250, 1, &P);
  /* packet 17 (as before), then the first of 1-2, 3-16, 17-256 and > 256 entries, the first with a
   * row out of range (and entries), the first of no entries */
  int64_t pick[7] = {17, -1, -1, -1, -1, -1, -1};
  for (int64_t k = 0; k < P.np; ++k) {
    const int64_t c = P.first[k + 1] - P.first[k];
    const int bad_row = P.rows[k] < 0 || P.rows[k] >= H.nr;
    const int q = bad_row ? 5 : c == 0 ? 6 : c <= 2 ? 1 : c <= 16 ? 2 : c <= 256 ? 3 : 4;
    if (pick[q] < 0 && (!bad_row || c > 0)) pick[q] = k;
  }
  for (int i = 0; i < 7; ++i) {
    if (pick[i] < 0) fail_msg("no packet of kind %d (seed %llu)", i, (unsigned long long)T_seed);
    for (int c = 0; c <= 4; ++c) {
      strata_unpack_options_t o = small_opts(c);
      check_case("invalid", &H, &P, pick[i], lids, ng, STRATA_COMBINE_ADD, &o, NULL);
      check_case("invalid ZERO", &H, &P, pick[i], lids, ng, STRATA_COMBINE_ZERO, &o, NULL);
    }
    check_case("invalid defaults", &H, &P, pick[i], lids, ng, STRATA_COMBINE_ADD, NULL, NULL);
  }
  pk_free(&P);
  free(lids);
  host_crs_free(&H);
}

/* strata_sparse_unpack_positions: every entry's position in A's values against a host search
 * (entries of every class, the entries of each packet permuted, plus two entries of unknown
 * columns: -1 and counted); a packet with a wrong count or a row out of range refuses the call;
 * no packets is valid. */
static void test_positions(void **state) {
  (void)state;
  uint64_t s = T_seed + 29;
  unpack_case_t u = case_make(&s, 60, 600, 300, 0);
  shuffle_entries(&s, &u.P);
  pk_begin(&u.P, 3);
  pk_add(&u.P, -5, 1.0);
  pk_add(&u.P, u.ng + 7, 1.0);
  strata_crs_matrix_t *A = dev_target(&u.H);
  dpk_t d;
  dpk_make(&u.P, -1, u.lids, u.ng, &d);
  int64_t *dp = (int64_t *)t_dev_alloc(sizeof(int64_t) * (size_t)u.P.ne), *hp = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)u.P.ne);
  int64_t bad = -1;
  T_OK(strata_sparse_unpack_positions(T_exec, A, d.rows, &d.pk, d.lids, u.ng, dp, &bad));
  t_to_host(hp, dp, sizeof(int64_t) * (size_t)u.P.ne);
  int64_t want_bad = 0;
  for (int64_t k = 0; k < u.P.np; ++k)
    for (int64_t j = u.P.first[k]; j < u.P.first[k + 1]; ++j) {
      const int64_t lid = ref_lid(&u.H, u.lids, u.ng, u.P.gid[j]);
      int64_t want = -1;
      for (int64_t q = u.H.ro[u.P.rows[k]]; lid >= 0 && q < u.H.ro[u.P.rows[k] + 1]; ++q)
        if (u.H.ci[q] == lid) want = q;
      want_bad += want < 0;
      if (hp[j] != want) fail_msg("packet %lld entry %lld: position %lld, expected %lld", (long long)k, (long long)j, (long long)hp[j], (long long)want);
    }
  assert_true(want_bad >= 2);
  assert_int_equal(bad, want_bad);
  dpk_free(&d);
  for (int what = 0; what < 2; ++what) { /* a wrong stored count, then a row out of range */
    const int32_t row = u.P.rows[5];
    if (what) u.P.rows[5] = u.H.nr;
    dpk_make(&u.P, what ? -1 : 5, u.lids, u.ng, &d);
    const strata_status_t st = strata_sparse_unpack_positions(T_exec, A, d.rows, &d.pk, d.lids, u.ng, dp, &bad);
    t_expect_msg(st, STRATA_ERR_INVALID_DATA, what ? "1 with a target row outside" : "1 malformed packets", "no positions");
    u.P.rows[5] = row;
    dpk_free(&d);
  }
  { /* a packet of 3 entries, then two of 0 bytes (malformed): the buffer holds E = (56 - 24) / 16 = 2
       entries, fewer than the first packet's 3; refused, and nothing written at or past positions[E] */
    int64_t off[4] = {0, 56, 56, 56}, pk[7] = {3, 0, 1, 2, 0, 0, 0};
    int32_t rows3[3] = {0, 0, 0};
    strata_packets_t bp = {T_exec, 3, (int64_t *)t_to_dev(off, sizeof off), (unsigned char *)t_to_dev(pk, sizeof pk), 56, 0};
    int32_t *drows = (int32_t *)t_to_dev(rows3, sizeof rows3);
    int64_t guard[3] = {-7, -7, -7}, back[3];
    int64_t *dg = (int64_t *)t_to_dev(guard, sizeof guard);
    const strata_status_t st = strata_sparse_unpack_positions(T_exec, A, drows, &bp, NULL, 0, dg, &bad);
    t_expect_msg(st, STRATA_ERR_INVALID_DATA, "malformed packets", "no positions");
    t_to_host(back, dg, sizeof back);
    assert_true(back[2] == -7);
    t_dev_free(bp.offsets);
    t_dev_free(bp.data);
    t_dev_free(drows);
    t_dev_free(dg);
  }
  strata_packets_t none = {T_exec, 0, NULL, NULL, 0, 0};
  T_OK(strata_sparse_unpack_positions(T_exec, A, NULL, &none, NULL, 0, NULL, &bad));
  assert_int_equal(bad, 0);
  t_dev_free(dp);
  free(hp);
  strata_crs_destroy(&A);
  case_free(&u);
}

/* Strict: bad input leaves A bitwise unchanged, with the counts of the validation pass; good
 * input is applied as without strict. */
static void test_strict(void **state) {
  (void)state;
  uint64_t s = T_seed + 14;
  host_crs_t H = gen_target(&s, 40, 300);
  int64_t ng;
  int32_t *lids = gen_lids(H.nc, &ng);
  hpk_t P;
  gen_packets(&s, &H, 200, 1, &P);
  double *got = (double *)t_malloc(sizeof(double) * (size_t)H.nnz);
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    o.strict = 1;
    host_crs_t W = hmat_copy(&H);
    ref_t r;
    ref_unpack(&W, &P, 5, lids, ng, STRATA_COMBINE_ADD, &r);
    assert_true(r.bad_entries > 0 && r.bad_rows > 0);
    strata_unpack_report_t rep;
    T_ERR(dev_unpack(&H, &P, 5, lids, ng, STRATA_COMBINE_ADD, &o, &rep, got), STRATA_ERR_INVALID_DATA);
    if (!strstr(strata_error_message(), "strict")) fail_msg("message: %s", strata_error_message());
    if (memcmp(got, H.v, sizeof(double) * (size_t)H.nnz) != 0) fail_msg("strict [%s]: matrix changed", class_name(c));
    assert_int_equal(rep.rows_unpacked, 0);
    assert_int_equal(rep.entries_combined, 0);
    assert_int_equal(rep.invalid_entries, r.bad_entries);
    assert_int_equal(rep.invalid_rows, r.bad_rows);
    assert_int_equal(rep.malformed_packets, r.malformed);
    free(W.v);
    free(r.inv);
  }
  pk_free(&P);
  gen_packets(&s, &H, 200, 0, &P); /* valid: strict applies */
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    o.strict = 1;
    check_case("strict valid", &H, &P, -1, lids, ng, STRATA_COMBINE_ADD, &o, NULL);
  }
  free(got);
  pk_free(&P);
  free(lids);
  host_crs_free(&H);
}

/* REPLACE (every entry named once), ABSMAX, ZERO in every class. */
static void test_modes(void **state) {
  (void)state;
  uint64_t s = T_seed + 15;
  host_crs_t H = gen_target(&s, 40, 300);
  hpk_t P;
  pk_init(&P);
  int64_t *perm = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)H.nnz);
  for (int32_t r = 0; r < H.nr; ++r) { /* the row's positions shuffled, cut into up to 3 packets */
    const int64_t b = H.ro[r], n = H.ro[r + 1] - b;
    for (int64_t i = 0; i < n; ++i) perm[i] = b + i;
    for (int64_t i = n - 1; i > 0; --i) {
      const int64_t j = (int64_t)(t_rand(&s) % (uint64_t)(i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    const int64_t cut1 = n / 3, cut2 = n / 3 + n / 2;
    const int64_t cuts[4] = {0, cut1, cut2, n};
    for (int p = 0; p < 3; ++p) {
      pk_begin(&P, r);
      for (int64_t i = cuts[p]; i < cuts[p + 1]; ++i)
        pk_add(&P, H.ci[perm[i]], (double)(int)(t_rand(&s) % 2001) - 1000.0);
    }
  }
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    check_case("REPLACE", &H, &P, -1, NULL, 0, STRATA_COMBINE_REPLACE, &o, NULL);
    check_case("ABSMAX", &H, &P, -1, NULL, 0, STRATA_COMBINE_ABSMAX, &o, NULL);
    check_case("ZERO", &H, &P, -1, NULL, 0, STRATA_COMBINE_ZERO, &o, NULL);
    check_case("ADD", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, NULL);
  }
  free(perm);
  pk_free(&P);
  host_crs_free(&H);
}

/* ADD of -0.0 into -0.0 stays -0.0 in every class, as entry-by-entry adds leave it: the long
 * class sums a packet's duplicates before one atomic, and the very long chunks' lanes a run of
 * entries that repeat their last column, and both sums start from -0.0, the identity of +, not
 * from +0.0 (which gave +0.0). Packets that name the row's first column every other entry (as a
 * bulk node's packet names its own diagonal); chunks of 2048 entries, so that a GPU lane (a team
 * of 256 lanes over a chunk) meets that column eight times in a row. */
static void test_signed_zero_runs(void **state) {
  (void)state;
  uint64_t s = T_seed + 16;
  host_crs_t H = gen_target(&s, 6, 300);
  for (int64_t k = 0; k < H.nnz; ++k) H.v[k] = -0.0;
  hpk_t P;
  pk_init(&P);
  for (int32_t r = 0; r < H.nr; ++r) {
    const int64_t b = H.ro[r], n = H.ro[r + 1] - b;
    pk_begin(&P, r);
    for (int64_t j = 0; j < 8192; ++j) pk_add(&P, H.ci[j % 2 ? b + (j / 2) % n : b], -0.0);
  }
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    o.long_max = 4096;
    o.chunk = 2048;
    check_case("ADD -0.0", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, NULL);
  }
  pk_free(&P);
  host_crs_free(&H);
}

/* E8, E9, E10 (EDGE_CASES.md) in every class. */
static void test_edge_cases(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3, 4};
  const int32_t ci[] = {0, 1, 2, 0};
  const double ones[] = {1, 1, 1, 1};
  host_crs_t H = {2, 4, 4, (int64_t *)ro, (int32_t *)ci, (double *)ones};
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    o.short_max = 1; /* E8's packet of 2 entries is medium under auto */
    double got[4];
    strata_unpack_report_t rep;
    /* E8: ADD {(1,10),(2,10)} into row 0 {0,1,2} of ones: {1, 11, 11} */
    hpk_t P;
    pk_init(&P);
    pk_begin(&P, 0);
    pk_add(&P, 1, 10);
    pk_add(&P, 2, 10);
    T_OK(dev_unpack(&H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep, got));
    const double w8[] = {1, 11, 11, 1};
    if (memcmp(got, w8, sizeof w8)) fail_msg("E8 [%s]: %g %g %g %g", class_name(c), got[0], got[1], got[2], got[3]);
    assert_int_equal(rep.entries_combined, 2);
    pk_free(&P);
    /* E9: ADD {(3,10)}: error, count 1, example (0, 3) */
    pk_init(&P);
    pk_begin(&P, 0);
    pk_add(&P, 3, 10);
    T_ERR(dev_unpack(&H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep, got), STRATA_ERR_INVALID_DATA);
    assert_int_equal(rep.invalid_entries, 1);
    assert_int_equal(rep.num_examples, 1);
    assert_int_equal(rep.examples[0].row, 0);
    assert_int_equal(rep.examples[0].col, 3);
    if (memcmp(got, ones, sizeof ones)) fail_msg("E9 [%s]: matrix changed", class_name(c));
    pk_free(&P);
    /* E10: row 0 {0,1} of zeros, two packets for row 0 each {(0,1),(1,1)}: {2, 2} */
    const int64_t ro10[] = {0, 2};
    const int32_t ci10[] = {0, 1};
    const double z[] = {0, 0};
    host_crs_t H10 = {1, 2, 2, (int64_t *)ro10, (int32_t *)ci10, (double *)z};
    pk_init(&P);
    for (int k = 0; k < 2; ++k) {
      pk_begin(&P, 0);
      pk_add(&P, 0, 1);
      pk_add(&P, 1, 1);
    }
    T_OK(dev_unpack(&H10, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep, got));
    if (got[0] != 2 || got[1] != 2) fail_msg("E10 [%s]: %g %g", class_name(c), got[0], got[1]);
    assert_int_equal(rep.rows_unpacked, 2);
    assert_int_equal(rep.entries_combined, 4);
    pk_free(&P);
  }
}

/* Packets of 0 entries, and zero packets. */
static void test_empty(void **state) {
  (void)state;
  const int64_t ro[] = {0, 2};
  const int32_t ci[] = {0, 1};
  const double v[] = {1, 2};
  host_crs_t H = {1, 2, 2, (int64_t *)ro, (int32_t *)ci, (double *)v};
  for (int c = 0; c <= 4; ++c) {
    strata_unpack_options_t o = small_opts(c);
    hpk_t P;
    pk_init(&P);
    for (int k = 0; k < 5; ++k) pk_begin(&P, 0);
    pk_add(&P, 1, 3); /* the last packet has one entry */
    strata_unpack_report_t rep;
    check_case("empty packets", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep);
    assert_int_equal(rep.rows_unpacked, 5);
    pk_free(&P);
    pk_init(&P); /* zero packets */
    check_case("zero packets", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep);
    assert_int_equal(rep.rows_unpacked, 0);
    pk_free(&P);
  }
  strata_unpack_options_t bad;
  memset(&bad, 0, sizeof bad);
  bad.force_class = (strata_unpack_class_t)7;
  hpk_t P;
  pk_init(&P);
  double got[2];
  strata_unpack_report_t rep;
  T_ERR(dev_unpack(&H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &bad, &rep, got), STRATA_ERR_INVALID_ARGUMENT);
  bad.force_class = STRATA_UNPACK_CLASS_AUTO;
  bad.chunk = -1;
  T_ERR(dev_unpack(&H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &bad, &rep, got), STRATA_ERR_INVALID_ARGUMENT);
  pk_free(&P);
}

/* A packet far above the long class's scratch limit: forced long falls back to very long; auto
 * with default thresholds classifies it very long; duplicates and a few invalid entries in it. */
static void test_huge_packet(void **state) {
  (void)state;
  uint64_t s = T_seed + 16;
  strata_device_info_t info;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &info));
  const int64_t cap = (int64_t)(info.max_scratch_bytes / 16); /* the long class's limit */
  const int64_t n = cap + cap / 8 + 1000;
  host_crs_t H = gen_target(&s, 4, 3000);
  hpk_t P;
  pk_init(&P);
  int32_t dense = -1;
  for (int32_t r = 0; r < H.nr; ++r)
    if (H.ro[r + 1] - H.ro[r] == H.nc) dense = r;
  if (dense < 0) dense = 0;
  pk_begin(&P, dense);
  const int64_t len = H.ro[dense + 1] - H.ro[dense];
  for (int64_t e = 0; e < n; ++e) {
    int64_t gid = H.ci[H.ro[dense] + (int64_t)(t_rand(&s) % (uint64_t)len)];
    if (e % 9973 == 5) gid = H.nc + 1 + e % 3; /* no local id */
    pk_add(&P, gid, (double)(int)(t_rand(&s) % 5) - 2.0);
  }
  pk_begin(&P, 1); /* and a small one */
  pk_add(&P, H.ci[H.ro[1]], 1.0);
  strata_unpack_report_t rep;
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  o.force_class = STRATA_UNPACK_CLASS_LONG;
  check_case("huge forced long", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep);
  assert_int_equal(rep.class_packets[3], 1);
  assert_int_equal(rep.class_packets[2], 1);
  o.force_class = STRATA_UNPACK_CLASS_AUTO;
  check_case("huge auto", &H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep);
  assert_int_equal(rep.class_packets[3], 1);
  assert_int_equal(rep.class_packets[0], 1);
  o.strict = 1;
  double *got = (double *)t_malloc(sizeof(double) * (size_t)H.nnz);
  T_ERR(dev_unpack(&H, &P, -1, NULL, 0, STRATA_COMBINE_ADD, &o, &rep, got), STRATA_ERR_INVALID_DATA);
  if (memcmp(got, H.v, sizeof(double) * (size_t)H.nnz)) fail_msg("huge strict: matrix changed");
  free(got);
  pk_free(&P);
  host_crs_free(&H);
}

/* ------------------------------------------------------------------ INSERT */

/* The reference of INSERT on a dense nr x nc image of H (H may hold duplicate columns: summed):
 * valid entries added, new columns inserted; *grown = new nnz - distinct pairs of H. */
static host_crs_t ref_insert(const host_crs_t *H, const hpk_t *P, int64_t corrupt, const int32_t *lids,
                             int64_t ng, ref_t *r, int64_t *grown) {
  memset(r, 0, sizeof *r);
  const size_t cells = (size_t)H->nr * (size_t)H->nc;
  uint8_t *on = (uint8_t *)t_malloc(cells + 1);
  double *v = (double *)t_malloc(sizeof(double) * (cells + 1));
  memset(on, 0, cells + 1);
  memset(v, 0, sizeof(double) * (cells + 1));
  int64_t before = 0, after = 0;
  for (int32_t i = 0; i < H->nr; ++i)
    for (int64_t q = H->ro[i]; q < H->ro[i + 1]; ++q) {
      const size_t c = (size_t)i * (size_t)H->nc + (size_t)H->ci[q];
      before += !on[c];
      on[c] = 1;
      v[c] += H->v[q];
    }
  for (int64_t k = 0; k < P->np; ++k) {
    const int64_t row = P->rows[k];
    if (k == corrupt || row < 0 || row >= H->nr) {
      *(k == corrupt ? &r->malformed : &r->bad_rows) += 1;
      ref_inv(r, row, -1, k == corrupt ? STRATA_UNPACK_EXAMPLE_PACKET : STRATA_UNPACK_EXAMPLE_ROW, k);
      continue;
    }
    r->rows++;
    for (int64_t e = P->first[k]; e < P->first[k + 1]; ++e) {
      const int64_t lid = ref_lid(H, lids, ng, P->gid[e]);
      if (lid < 0) {
        r->bad_entries++;
        ref_inv(r, row, P->gid[e], STRATA_UNPACK_EXAMPLE_ENTRY, k);
        continue;
      }
      const size_t c = (size_t)row * (size_t)H->nc + (size_t)lid;
      on[c] = 1;
      v[c] += P->val[e];
      r->entries++;
    }
  }
  host_crs_t W;
  W.nr = H->nr;
  W.nc = H->nc;
  W.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)H->nr + 1));
  for (size_t c = 0; c < cells; ++c) after += on[c];
  W.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(after + 1));
  W.v = (double *)t_malloc(sizeof(double) * (size_t)(after + 1));
  W.ro[0] = 0;
  int64_t k = 0;
  for (int32_t i = 0; i < H->nr; ++i) {
    for (int32_t j = 0; j < H->nc; ++j)
      if (on[(size_t)i * (size_t)H->nc + (size_t)j]) {
        W.ci[k] = j;
        W.v[k] = v[(size_t)i * (size_t)H->nc + (size_t)j];
        ++k;
      }
    W.ro[i + 1] = k;
  }
  W.nnz = k;
  *grown = after - before;
  free(on);
  free(v);
  return W;
}

/* INSERT on the device; *out is A afterwards (host copy), *fc its fill_complete flag before. */
static strata_status_t dev_insert(const host_crs_t *H, const hpk_t *P, int64_t corrupt, const int32_t *lids,
                                  int64_t ng, int strict, strata_unpack_report_t *rep, host_crs_t *out,
                                  int *fc_before) {
  strata_crs_matrix_t *A = dev_target(H);
  *fc_before = A->fill_complete;
  dpk_t d;
  dpk_make(P, corrupt, lids, ng, &d);
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  o.strict = strict;
  const strata_status_t st =
      strata_sparse_unpack_combine_opts(T_exec, A, d.rows, &d.pk, d.lids, ng, STRATA_COMBINE_INSERT, &o, rep);
  *out = crs_to_host(A);
  if (st == STRATA_SUCCESS || !strict) assert_int_equal(A->fill_complete, 1);
  strata_crs_destroy(&A);
  dpk_free(&d);
  return st;
}

/* A target with empty rows (every 3rd) and short rows; fill_complete or not (unsorted with a
 * duplicate column in every 4th row). */
static host_crs_t gen_insert_target(uint64_t *s, int32_t nr, int32_t nc, int unsorted) {
  host_crs_t A;
  A.nr = nr;
  A.nc = nc;
  A.ro = (int64_t *)t_malloc(sizeof(int64_t) * ((size_t)nr + 1));
  A.ci = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)nr * 8 + 1);
  A.v = (double *)t_malloc(sizeof(double) * (size_t)nr * 8 + 1);
  A.ro[0] = 0;
  int64_t k = 0;
  for (int32_t r = 0; r < nr; ++r) {
    if (r % 3 != 0) {
      int32_t c = (int32_t)(t_rand(s) % 5);
      for (int j = 0; j < 6 && c < nc; ++j, c += 1 + (int32_t)(t_rand(s) % 9)) {
        A.ci[k] = c;
        A.v[k++] = (double)(int)(t_rand(s) % 21) - 10.0;
      }
      if (unsorted && r % 4 == 1 && k - A.ro[r] >= 2) { /* reversed, plus a duplicate of the first */
        for (int64_t a = A.ro[r], b = k - 1; a < b; ++a, --b) {
          const int32_t tc = A.ci[a];
          const double tv = A.v[a];
          A.ci[a] = A.ci[b];
          A.v[a] = A.v[b];
          A.ci[b] = tc;
          A.v[b] = tv;
        }
        A.ci[k] = A.ci[A.ro[r]];
        A.v[k++] = 3.0;
      }
    }
    A.ro[r + 1] = k;
  }
  A.nnz = k;
  return A;
}

static void check_insert(const char *what, const host_crs_t *H, const hpk_t *P, int64_t corrupt,
                         const int32_t *lids, int64_t ng, int strict) {
  ref_t r;
  int64_t grown = 0;
  host_crs_t W = ref_insert(H, P, corrupt, lids, ng, &r, &grown);
  const int64_t invalid = r.bad_entries + r.bad_rows + r.malformed;
  strata_unpack_report_t rep;
  host_crs_t got;
  int fc = 0;
  const strata_status_t st = dev_insert(H, P, corrupt, lids, ng, strict, &rep, &got, &fc);
  print_message("  INSERT %s: %lld -> %lld entries (grown %lld), %lld invalid, fill-complete before %d\n", what,
                (long long)H->nnz, (long long)W.nnz, (long long)grown, (long long)invalid, fc);
  if (strict && invalid) { /* all or nothing: A bitwise unchanged (not even fill-completed) */
    assert_int_equal(st, STRATA_ERR_INVALID_DATA);
    expect_same_crs(what, H, &got);
    assert_int_equal(rep.entries_inserted, 0);
    assert_int_equal(rep.rows_unpacked, 0);
    assert_int_equal(rep.entries_combined, 0);
    r.rows = r.entries = 0;
  } else {
    expect_same_crs(what, &W, &got);
    if (rep.entries_inserted != grown)
      fail_msg("%s: entries_inserted %lld, expected %lld (seed %llu)", what, (long long)rep.entries_inserted,
               (long long)grown, (unsigned long long)T_seed);
  }
  expect_run(what, 0, &W, W.v, &r, &rep, st, 0); /* status, counts and examples */
  host_crs_free(&W);
  host_crs_free(&got);
  free(r.inv);
}

/* The buffer as a whole: offsets[0] must be 0 and offsets[np] the buffer length (else the
 * first / last packet is malformed: bytes outside every packet would be lost silently); NULL
 * data with bytes is refused; INSERT with zero packets still makes the target fill-complete. */
static void test_buffer_bounds(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3};
  const int32_t ci[] = {0, 1, 2};
  const double v[] = {1, 1, 1};
  host_crs_t H = {1, 3, 3, (int64_t *)ro, (int32_t *)ci, (double *)v};
  hpk_t P;
  pk_init(&P);
  pk_begin(&P, 0);
  pk_add(&P, 0, 5);
  pk_begin(&P, 0);
  pk_add(&P, 1, 7);
  for (int shape = 0; shape < 3; ++shape) {
    /* 0: num_rows 1 over a 2-packet buffer (tail lost); 1: offsets start at the second packet;
     * 2: as built (valid) */
    strata_crs_matrix_t *A = dev_target(&H);
    dpk_t d;
    dpk_make(&P, -1, NULL, 0, &d);
    if (shape == 0) d.pk.num_rows = 1;
    if (shape == 1) { /* packets {1}, then {1} again: offsets 24, 48, 48 */
      const int64_t off[3] = {24, 48, 48};
      t_dev_free(d.pk.offsets);
      d.pk.offsets = (int64_t *)t_to_dev(off, sizeof off);
    }
    strata_unpack_report_t rep;
    const strata_status_t st = strata_sparse_unpack_combine(T_exec, A, d.rows, &d.pk, NULL, 0, STRATA_COMBINE_ADD, &rep);
    double got[3];
    t_to_host(got, A->values, sizeof got);
    if (shape == 2) {
      T_OK(st);
      assert_true(got[0] == 6 && got[1] == 8 && got[2] == 1);
    } else {
      T_ERR(st, STRATA_ERR_INVALID_DATA);
      assert_int_equal(rep.malformed_packets, shape == 0 ? 1 : 2);
      /* shape 0: packet 0 ends before the buffer does; shape 1: packet 0 starts after 0, and the
       * last packet (empty offsets range) is malformed as any packet under 8 bytes */
      if (shape == 0) assert_true(got[0] == 1 && got[1] == 1 && got[2] == 1);
      if (shape == 1) assert_true(got[0] == 1 && got[1] == 1 && got[2] == 1 && rep.rows_unpacked == 0);
    }
    unsigned char *keep = d.pk.data;
    d.pk.data = NULL; /* NULL data with num_bytes > 0 */
    T_ERR(strata_sparse_unpack_combine(T_exec, A, d.rows, &d.pk, NULL, 0, STRATA_COMBINE_ADD, &rep),
          STRATA_ERR_INVALID_ARGUMENT);
    d.pk.data = keep;
    /* a negative num_global is refused without col_lids too (it was ignored there), every mode */
    for (int m = 0; m <= 4; ++m)
      t_expect_msg(strata_sparse_unpack_combine(T_exec, A, d.rows, &d.pk, NULL, -5, (strata_combine_mode_t)m, &rep),
                   STRATA_ERR_INVALID_ARGUMENT, "num_global = -5", "negative");
    strata_crs_destroy(&A);
    dpk_free(&d);
  }
  pk_free(&P);
  /* INSERT, zero packets, a target with unsorted columns and a duplicate: fill-complete after */
  uint64_t s = T_seed + 91;
  host_crs_t U = gen_insert_target(&s, 20, 30, 1);
  strata_crs_matrix_t *A = dev_target(&U);
  assert_int_equal(A->fill_complete, 0);
  strata_unpack_report_t rep;
  unsigned char *bytes = (unsigned char *)t_to_dev(ro, sizeof ro); /* any 16 bytes */
  strata_packets_t stray = {T_exec, 0, NULL, bytes, 16, 0}; /* 0 packets but bytes: refused, every mode */
  strata_crs_matrix_t *F = dev_target(&H);                 /* fill-complete: only the bytes are wrong */
  for (int m = 0; m <= 4; ++m) {
    T_ERR(strata_sparse_unpack_combine(T_exec, m == STRATA_COMBINE_INSERT ? A : F, NULL, &stray, NULL, 0,
                                       (strata_combine_mode_t)m, &rep),
          STRATA_ERR_INVALID_ARGUMENT);
    if (!strstr(strata_error_message(), "num_bytes = 16")) fail_msg("message: %s", strata_error_message());
  }
  assert_int_equal(A->fill_complete, 0); /* refused before anything ran */
  strata_crs_destroy(&F);
  t_dev_free(bytes);
  strata_packets_t none = {T_exec, 0, NULL, NULL, 0, 0};
  T_OK(strata_sparse_unpack_combine(T_exec, A, NULL, &none, NULL, 0, STRATA_COMBINE_INSERT, &rep));
  assert_int_equal(A->fill_complete, 1);
  assert_int_equal(rep.entries_inserted, 0);
  strata_crs_destroy(&A);
  host_crs_free(&U);
}

/* The hashed column map: global ids G(g) = 10^12 + 1000003 g (a numbering with gaps the dense
 * col_lids table cannot hold) for local column c at g = 2 c + 1. With invalid entries and rows:
 * the same values, counts and examples (their columns mapped through G) as the dense table on g: ADD in every class, ABSMAX, INSERT; pack through the
 * map's gids; lookups; bad maps. */
static int64_t big_gid(int64_t g) { return g < 0 ? g : 1000000000000LL + 1000003LL * g; }
static void test_col_map(void **state) {
  (void)state;
  uint64_t s = T_seed + 131;
  unpack_case_t u = case_make(&s, 60, 600, 400, 1);
  const int32_t nc = u.H.nc;
  int64_t *hg = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)nc);
  for (int32_t c = 0; c < nc; ++c) hg[c] = big_gid(2 * (int64_t)c + 1);
  int64_t *dg = (int64_t *)t_to_dev(hg, sizeof(int64_t) * (size_t)nc);
  strata_col_map_t *map = NULL;
  T_OK(strata_col_map_create(T_exec, nc, dg, &map));
  assert_int_equal(strata_col_map_size(map), nc);
  hpk_t Q = u.P; /* the packets with mapped ids (same rows and values) */
  Q.gid = (int64_t *)t_malloc(sizeof(int64_t) * (size_t)(u.P.ne > 0 ? u.P.ne : 1));
  for (int64_t e = 0; e < u.P.ne; ++e) Q.gid[e] = big_gid(u.P.gid[e]);
  const strata_combine_mode_t modes[3] = {STRATA_COMBINE_ADD, STRATA_COMBINE_ABSMAX, STRATA_COMBINE_INSERT};
  for (int mi = 0; mi < 3; ++mi)
    for (int c = 0; c <= 4; ++c) {
      if (modes[mi] == STRATA_COMBINE_ABSMAX && c != 0) continue;
      if (modes[mi] == STRATA_COMBINE_INSERT && c != 0) continue;  /* INSERT: no classes */
      strata_unpack_options_t o = small_opts(c);
      o.col_map = map;
      host_crs_t W = hmat_copy(&u.H);
      ref_t r;
      ref_unpack(&W, &u.P, -1, u.lids, u.ng, modes[mi], &r);
      for (int64_t e = 0; e < r.n_inv; ++e) r.inv[4 * e + 1] = big_gid(r.inv[4 * e + 1]);
      strata_unpack_report_t rep;
      if (modes[mi] == STRATA_COMBINE_INSERT) { /* the same run through the dense table on g */
        strata_crs_matrix_t *A = dev_target(&u.H), *B = dev_target(&u.H);
        dpk_t d, e;
        dpk_make(&Q, -1, NULL, 0, &d);
        dpk_make(&u.P, -1, u.lids, u.ng, &e);
        strata_unpack_report_t rb;
        T_ERR(strata_sparse_unpack_combine_opts(T_exec, A, d.rows, &d.pk, NULL, 0, modes[mi], &o, &rep),
              STRATA_ERR_INVALID_DATA);
        T_ERR(strata_sparse_unpack_combine_opts(T_exec, B, e.rows, &e.pk, e.lids, u.ng, modes[mi], NULL, &rb),
              STRATA_ERR_INVALID_DATA);
        assert_int_equal(rep.invalid_entries, rb.invalid_entries);
        assert_int_equal(rep.invalid_rows, rb.invalid_rows);
        assert_int_equal(rep.malformed_packets, rb.malformed_packets);
        assert_int_equal(rep.entries_inserted, rb.entries_inserted);
        assert_int_equal(A->nnz, B->nnz);
        double *va = (double *)t_malloc(sizeof(double) * (size_t)A->nnz), *vb = (double *)t_malloc(sizeof(double) * (size_t)A->nnz);
        t_to_host(va, A->values, sizeof(double) * (size_t)A->nnz);
        t_to_host(vb, B->values, sizeof(double) * (size_t)A->nnz);
        assert_memory_equal(va, vb, sizeof(double) * (size_t)A->nnz);
        for (int ex = 0; ex < rep.num_examples; ++ex) {
          assert_int_equal(rep.examples[ex].row, rb.examples[ex].row);
          assert_int_equal(rep.examples[ex].col, big_gid(rb.examples[ex].col));
        }
        free(va);
        free(vb);
        strata_crs_destroy(&A);
        strata_crs_destroy(&B);
        dpk_free(&d);
        dpk_free(&e);
      } else {
        double *got = (double *)t_malloc(sizeof(double) * (size_t)u.H.nnz);
        const strata_status_t st = dev_unpack(&u.H, &Q, -1, NULL, 0, modes[mi], &o, &rep, got);
        expect_run(modes[mi] == STRATA_COMBINE_ADD ? "col_map ADD" : "col_map ABSMAX", c, &W, got, &r, &rep, st,
                   modes[mi] == STRATA_COMBINE_ABSMAX);
        free(got);
      }
      free(W.v);
      free(r.inv);
    }
  /* lookups: every local column, absent and negative ids */
  const int64_t probe[5] = {hg[0], hg[nc - 1], big_gid(2), -5, 0};
  const int32_t want[5] = {0, nc - 1, -1, -1, -1};
  int64_t *dp = (int64_t *)t_to_dev(probe, sizeof probe);
  int32_t *dl = (int32_t *)t_dev_alloc(sizeof want), hl[5];
  T_OK(strata_col_map_lids(T_exec, map, 5, dp, dl));
  t_to_host(hl, dl, sizeof hl);
  assert_memory_equal(hl, want, sizeof want);
  int32_t *all = (int32_t *)t_dev_alloc(sizeof(int32_t) * (size_t)nc), *hall = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)nc);
  T_OK(strata_col_map_lids(T_exec, map, nc, dg, all));
  t_to_host(hall, all, sizeof(int32_t) * (size_t)nc);
  for (int32_t c = 0; c < nc; ++c)
    if (hall[c] != c) fail_msg("col_map: gid %lld -> %d, expected %d", (long long)hg[c], hall[c], c);
  /* pack through the map's gids, unpack through the map: A + A */
  strata_crs_matrix_t *A = dev_target(&u.H);
  strata_packets_t *pk = NULL;
  T_OK(strata_sparse_pack(T_exec, A, A->num_rows, NULL, strata_col_map_gids(map), &pk));
  int32_t *hr = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)(u.H.nr > 0 ? u.H.nr : 1));
  for (int32_t i = 0; i < u.H.nr; ++i) hr[i] = i;
  int32_t *dr = (int32_t *)t_to_dev(hr, sizeof(int32_t) * (size_t)u.H.nr);
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  o.col_map = map;
  strata_unpack_report_t rep;
  T_OK(strata_sparse_unpack_combine_opts(T_exec, A, dr, pk, NULL, 0, STRATA_COMBINE_ADD, &o, &rep));
  double *got = (double *)t_malloc(sizeof(double) * (size_t)u.H.nnz);
  t_to_host(got, A->values, sizeof(double) * (size_t)u.H.nnz);
  for (int64_t k = 0; k < u.H.nnz; ++k)
    if (got[k] != 2 * u.H.v[k]) fail_msg("pack + unpack through the map: entry %lld = %g, expected %g", (long long)k, got[k], 2 * u.H.v[k]);
  /* both maps given; bad maps */
  const int32_t zero = 0;
  int32_t *dz = (int32_t *)t_to_dev(&zero, sizeof zero);
  t_expect_msg(strata_sparse_unpack_combine_opts(T_exec, A, dr, pk, dz, 1, STRATA_COMBINE_ADD, &o, &rep),
               STRATA_ERR_INVALID_ARGUMENT, "col_map", NULL);
  t_dev_free(dz);
  strata_col_map_t *bad = NULL;
  hg[7] = hg[3];
  int64_t *dd = (int64_t *)t_to_dev(hg, sizeof(int64_t) * (size_t)nc);
  t_expect_msg(strata_col_map_create(T_exec, nc, dd, &bad), STRATA_ERR_INVALID_DATA, "repeat", "and at least one other");
  assert_null(bad);
  { /* the first repeated id is named, on every backend (a review: serial named local id 4 and
     * OpenMP local id 0 for these ids; the first of the repeated ones is local id 0, id 5) */
    const int64_t rep6[6] = {5, 7, 9, 11, 7, 5};
    int64_t *d6 = (int64_t *)t_to_dev(rep6, sizeof rep6);
    t_expect_msg(strata_col_map_create(T_exec, 6, d6, &bad), STRATA_ERR_INVALID_DATA,
                 "2 of 6 local ids repeat a global id", "global id 5 is given at local id 0 (the first repeated)");
    t_dev_free(d6);
    /* the count is of local ids that repeat one (a review: {5, 7, 7, 7, 5} said "3 global ids
     * repeated", where two global ids are, at three extra local ids) */
    const int64_t rep5[5] = {5, 7, 7, 7, 5};
    int64_t *d5 = (int64_t *)t_to_dev(rep5, sizeof rep5);
    t_expect_msg(strata_col_map_create(T_exec, 5, d5, &bad), STRATA_ERR_INVALID_DATA,
                 "3 of 5 local ids repeat a global id given at another", "global id 5 is given at local id 0");
    t_dev_free(d5);
  }
  hg[7] = -3;
  t_dev_free(dd);
  dd = (int64_t *)t_to_dev(hg, sizeof(int64_t) * (size_t)nc);
  t_expect_msg(strata_col_map_create(T_exec, nc, dd, &bad), STRATA_ERR_INVALID_DATA, "local id 7: -3", NULL);
  T_ERR(strata_col_map_create(T_exec, -1, dd, &bad), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_col_map_create(T_exec, 0, NULL, &bad)); /* empty: every lookup -1 */
  T_OK(strata_col_map_lids(T_exec, bad, 5, dp, dl));
  t_to_host(hl, dl, sizeof hl);
  for (int i = 0; i < 5; ++i) assert_int_equal(hl[i], -1);
  T_OK(strata_col_map_destroy(&bad));
  T_OK(strata_col_map_destroy(&bad)); /* NULL-safe */
  t_dev_free(dd);
  free(got);
  free(hr);
  t_dev_free(dr);
  strata_packets_destroy(&pk);
  strata_crs_destroy(&A);
  t_dev_free(all);
  free(hall);
  t_dev_free(dp);
  t_dev_free(dl);
  T_OK(strata_col_map_destroy(&map));
  free(Q.gid);
  t_dev_free(dg);
  free(hg);
  case_free(&u);
}

/* Packets P with their offsets replaced by off[0 .. P->np] (num_bytes = off[np]) unpacked into a
 * device copy of H in mode m, strict or not: refused with INVALID_DATA, the message naming n1 and
 * n2 (NULL: not checked), the report counting `places` malformed packets and nothing combined,
 * the matrix's values bitwise unchanged. Returns the report for the examples' checks. */
static strata_unpack_report_t expect_descents(const host_crs_t *H, const hpk_t *P, const int64_t *off, int m,
                                              int strict, const char *n1, const char *n2, int64_t places) {
  strata_crs_matrix_t *A = dev_target(H);
  dpk_t d;
  dpk_make(P, -1, NULL, 0, &d);
  t_dev_free(d.pk.offsets);
  d.pk.offsets = (int64_t *)t_to_dev(off, sizeof(int64_t) * (size_t)(P->np + 1));
  assert_true(off[P->np] <= d.pk.num_bytes); /* within the serialized buffer */
  d.pk.num_bytes = off[P->np];
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  o.strict = strict;
  strata_unpack_report_t rep;
  T_ERR(strata_sparse_unpack_combine_opts(T_exec, A, d.rows, &d.pk, NULL, 0, (strata_combine_mode_t)m, &o, &rep),
        STRATA_ERR_INVALID_DATA);
  if ((n1 && !strstr(strata_error_message(), n1)) || (n2 && !strstr(strata_error_message(), n2)))
    fail_msg("mode %d strict %d: message: %s", m, strict, strata_error_message());
  assert_int_equal(rep.malformed_packets, places);
  assert_int_equal(rep.rows_unpacked + rep.entries_combined + rep.entries_inserted, 0);
  assert_int_equal(A->nnz, H->nnz);
  double *got = (double *)t_malloc(sizeof(double) * (size_t)H->nnz);
  t_to_host(got, A->values, sizeof(double) * (size_t)H->nnz);
  assert_memory_equal(got, H->v, sizeof(double) * (size_t)H->nnz);
  free(got);
  strata_crs_destroy(&A);
  dpk_free(&d);
  return rep;
}

/* Raw packets (bytes, off[0 .. np], rows) unpacked into a device copy of H in mode m: INVALID_DATA,
 * the message naming n1 and n2 (NULL: not checked), the report counting `malformed` malformed
 * packets and `bad_rows` rows out of range, its first example from packet `packet`. */
static void expect_bad_packets(const host_crs_t *H, const int64_t *bytes, int64_t nbytes, const int64_t *off,
                               const int32_t *rows, int np, int m, const char *n1, const char *n2, int64_t malformed,
                               int64_t bad_rows, int64_t packet) {
  strata_crs_matrix_t *A = dev_target(H);
  strata_packets_t pk;
  memset(&pk, 0, sizeof pk);
  pk.exec = T_exec;
  pk.num_rows = np;
  pk.num_bytes = nbytes;
  pk.offsets = (int64_t *)t_to_dev(off, sizeof(int64_t) * (size_t)(np + 1));
  pk.data = (unsigned char *)t_to_dev(bytes, (size_t)(nbytes > 0 ? nbytes : 8));
  int32_t *d_rows = (int32_t *)t_to_dev(rows, sizeof(int32_t) * (size_t)np);
  strata_unpack_report_t rep;
  T_ERR(strata_sparse_unpack_combine_opts(T_exec, A, d_rows, &pk, NULL, 0, (strata_combine_mode_t)m, NULL, &rep),
        STRATA_ERR_INVALID_DATA);
  if ((n1 && !strstr(strata_error_message(), n1)) || (n2 && !strstr(strata_error_message(), n2)))
    fail_msg("mode %d: message: %s", m, strata_error_message());
  assert_int_equal(rep.malformed_packets, malformed);
  assert_int_equal(rep.invalid_rows, bad_rows);
  assert_true(rep.num_examples >= 1);
  assert_int_equal(rep.examples[0].packet, packet);
  strata_crs_destroy(&A);
  t_dev_free(pk.offsets);
  t_dev_free(pk.data);
  t_dev_free(d_rows);
}

/* A review: a malformed packet's message named only its target row, so that with several senders
 * (E10) the caller could not tell which packet was bad, nor why; and in ZERO mode it said "the
 * valid entries were combined all the same". Now the message names the packet, its bytes and its
 * stored count, the report's examples carry the packet's index, and ZERO says nothing was combined.
 * One target row of 3 columns; packets of up to 2 entries (8 + 16 x 2 = 40 bytes). */
static void test_malformed_message(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3};
  const int32_t ci[] = {0, 1, 2};
  const double v[] = {1, 2, 3};
  host_crs_t H = {1, 3, 3, (int64_t *)ro, (int32_t *)ci, (double *)v};
  double one = 1.5; /* packets as int64 words: count, global ids, then the values' bits */
  const int32_t row0[2] = {0, 0}, rows_bad[2] = {0, 7};
  int64_t bits;
  memcpy(&bits, &one, 8);
  for (int m = 0; m <= 4; ++m) {
    /* count 3 stored in a packet of 40 bytes (2 entries' room) */
    const int64_t c3[5] = {3, 0, 1, bits, bits}, off40[2] = {0, 40};
    expect_bad_packets(&H, c3, 40, off40, row0, 1, m,
                       "malformed packet 0 for row 0 (count 3 needs 8 + 16 x 3 bytes, its span [0, 40) has 40)",
                       m == 4 ? "ZERO: nothing was combined" : NULL, 1, 0, 0);
    /* a negative count */
    const int64_t cneg[3] = {-1, 0, bits}, off24[2] = {0, 24};
    expect_bad_packets(&H, cneg, 24, off24, row0, 1, m, "malformed packet 0 for row 0 (count -1 is negative)", NULL,
                       1, 0, 0);
    /* offsets[0] not 0, and the last offset short of the buffer's end */
    const int64_t c1[4] = {0, 1, 0, bits}, off8[2] = {8, 32}, c1_tail[4] = {1, 0, bits, 0};
    expect_bad_packets(&H, c1, 32, off8, row0, 1, m, "(offsets[0] = 8, not 0)", NULL, 1, 0, 0);
    expect_bad_packets(&H, c1_tail, 32, off24, row0, 1, m, "(offsets[1] = 24, not the buffer's 32 bytes)", NULL, 1,
                       0, 0);
    /* packet 1 of two: valid bytes, row 7 of a 1-row target */
    const int64_t two[6] = {1, 0, bits, 1, 2, bits}, off2[3] = {0, 24, 48};
    expect_bad_packets(&H, two, 48, off2, rows_bad, 2, m, "packet 1 for row 7 (row out of range)", NULL, 0, 1, 1);
    /* packet 1's entry has global column 5 (3 columns, no map): an invalid entry */
    const int64_t col5[6] = {1, 0, bits, 1, 5, bits};
    expect_bad_packets(&H, col5, 48, off2, row0, 2, m, "row 0, global column 5 (packet 1)", NULL, 0, 0, 1);
  }
}

/* Offsets that decrease somewhere let a packet whose own offsets look right read another
 * packet's bytes (a newcomer review: offsets {0, 24, 16, 40} applied bytes [16, 40)). Here
 * {0, 24, 48, 24, 48} over a 48-byte buffer: packet 2 runs backwards, and packet 3 is packet 1's
 * bytes again, which would be combined twice. Refused in every mode, strict or not: INVALID_DATA
 * naming the place, the report counting it, the matrix bitwise unchanged. */
static void test_offsets_decrease(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3};
  const int32_t ci[] = {0, 1, 2};
  const double v[] = {1, 2, 3};
  host_crs_t H = {1, 3, 3, (int64_t *)ro, (int32_t *)ci, (double *)v};
  hpk_t P;
  pk_init(&P);
  for (int k = 0; k < 4; ++k) {
    pk_begin(&P, 0);
    pk_add(&P, k % 3, 10.0 + k);
  }
  const int64_t off[5] = {0, 24, 48, 24, 48};
  for (int strict = 0; strict <= 1; ++strict)
    for (int m = 0; m <= 4; ++m) {
      const strata_unpack_report_t rep = expect_descents(&H, &P, off, m, strict, "decrease at packet 2", NULL, 1);
      assert_int_equal(rep.num_examples, 1);
      assert_int_equal(rep.examples[0].row, 0);
      assert_int_equal(rep.examples[0].col, -1);
      assert_int_equal(rep.examples[0].kind, STRATA_UNPACK_EXAMPLE_PACKET);
      assert_int_equal(rep.examples[0].packet, 2);
    }
  pk_free(&P);
}

/* Many places where the offsets decrease: the report's examples are the first of them in packet
 * order, each the row of the packet whose end lies below its start, col -1, as for the other
 * malformed packets (a review found malformed_packets = N with no example, the message naming
 * the first place all the same). 20 packets of one entry (24 bytes), packet k for row 19 - k;
 * offsets 0, 24, 0, 24, .., 24 and the buffer's end: packets 1, 3, .., 17 run backwards, 9
 * places, the first 8 given. */
static void test_offsets_decrease_examples(void **state) {
  (void)state;
  enum { NP = 20 };
  int64_t ro[NP + 1], off[NP + 1];
  int32_t ci[NP];
  double v[NP];
  for (int r = 0; r <= NP; ++r) ro[r] = r;
  for (int r = 0; r < NP; ++r) ci[r] = r, v[r] = r + 1;
  host_crs_t H = {NP, NP, NP, ro, ci, v};
  hpk_t P;
  pk_init(&P);
  for (int k = 0; k < NP; ++k) {
    pk_begin(&P, NP - 1 - k);
    pk_add(&P, NP - 1 - k, 10.0 + k);
  }
  for (int k = 0; k < NP; ++k) off[k] = 24 * (k % 2);
  off[NP] = 24 * NP;
  dpk_t d0; /* packets of one entry: 24 bytes each, off[NP] the buffer's end */
  dpk_make(&P, -1, NULL, 0, &d0);
  assert_int_equal(d0.pk.num_bytes, 24 * NP);
  dpk_free(&d0);
  for (int strict = 0; strict <= 1; ++strict)
    for (int m = 0; m <= 4; ++m) {
      const strata_unpack_report_t rep =
          expect_descents(&H, &P, off, m, strict, "decrease at packet 1 (row 18)", "9 such places", 9);
      assert_int_equal(rep.num_examples, STRATA_UNPACK_MAX_EXAMPLES);
      for (int e = 0; e < STRATA_UNPACK_MAX_EXAMPLES; ++e) { /* packets 1, 3, .., 15 */
        assert_int_equal(rep.examples[e].row, NP - 1 - (1 + 2 * e));
        assert_int_equal(rep.examples[e].col, -1);
        assert_int_equal(rep.examples[e].kind, STRATA_UNPACK_EXAMPLE_PACKET);
        assert_int_equal(rep.examples[e].packet, 1 + 2 * e);
      }
    }
  pk_free(&P);
}

/* A packet buffer whose start is not 8-byte aligned (a receive buffer after a 4-byte header):
 * every int64 / double field would be read misaligned (undefined behaviour on the host, a
 * misaligned-address fault on GPUs). Refused before any kernel runs, in every mode, strict or
 * not, the matrix unchanged and the message naming the address's remainder. */
static void test_misaligned_data(void **state) {
  (void)state;
  const int64_t ro[] = {0, 3};
  const int32_t ci[] = {0, 1, 2};
  const double v[] = {1, 2, 3};
  host_crs_t H = {1, 3, 3, (int64_t *)ro, (int32_t *)ci, (double *)v};
  hpk_t P;
  pk_init(&P);
  pk_begin(&P, 0);
  pk_add(&P, 1, 5.0);
  int64_t off[2];
  int64_t nbytes = 0;
  unsigned char *bytes = pk_serialize(&P, -1, off, &nbytes);
  unsigned char *shifted = (unsigned char *)t_malloc((size_t)nbytes + 8);
  memcpy(shifted + 4, bytes, (size_t)nbytes);
  unsigned char *d_buf = (unsigned char *)t_to_dev(shifted, (size_t)nbytes + 8);
  int64_t *d_off = (int64_t *)t_to_dev(off, sizeof off);
  int32_t *d_rows = (int32_t *)t_to_dev(P.rows, sizeof(int32_t));
  for (int strict = 0; strict <= 1; ++strict)
    for (int m = 0; m <= 4; ++m) {
      strata_crs_matrix_t *A = dev_target(&H);
      strata_packets_t pk = {T_exec, 1, d_off, d_buf + 4, nbytes, 0};
      strata_unpack_options_t o;
      memset(&o, 0, sizeof o);
      o.strict = strict;
      strata_unpack_report_t rep;
      t_expect_msg(strata_sparse_unpack_combine_opts(T_exec, A, d_rows, &pk, NULL, 0, (strata_combine_mode_t)m, &o, &rep),
                   STRATA_ERR_INVALID_ARGUMENT, "aligned", "address % 8 = 4");
      assert_int_equal(rep.rows_unpacked + rep.entries_combined + rep.entries_inserted, 0);
      assert_int_equal(A->nnz, 3);
      double got[3];
      t_to_host(got, A->values, sizeof got);
      assert_memory_equal(got, v, sizeof got);
      /* the data aligned, import_rows not (a review: it was read misaligned) */
      strata_packets_t pk2 = {T_exec, 1, d_off, d_buf, nbytes, 0};
      unsigned char *d_rows2 = (unsigned char *)t_to_dev(shifted, 16);
      t_expect_msg(strata_sparse_unpack_combine_opts(T_exec, A, (const int32_t *)(d_rows2 + 2), &pk2, NULL, 0,
                                                     (strata_combine_mode_t)m, &o, &rep),
                   STRATA_ERR_INVALID_ARGUMENT, "import_rows", "is not 4-byte aligned (address % 4 = 2");
      t_dev_free(d_rows2);
      strata_crs_destroy(&A);
    }
  t_dev_free(d_buf);
  t_dev_free(d_off);
  t_dev_free(d_rows);
  free(shifted);
  free(bytes);
  pk_free(&P);
}

/* review (rev9a): a packet count whose plan temporaries (one arena of 25 bytes a packet, plus the
 * stats, report and tile counts) do not fit a size_t: np = 737178657956547790 made the arena's
 * size wrap to 14 bytes, and the call zeroed 264 bytes of it (a heap overflow) instead of refusing.
 * The count is refused first, naming it and the limit, in every mode; nothing is read. */
static void test_packet_count_limit(void **state) {
  (void)state;
  const int64_t ro[] = {0, 1};
  const int32_t ci[] = {0};
  const double v[] = {1};
  host_crs_t H = {1, 1, 1, (int64_t *)ro, (int32_t *)ci, (double *)v};
  const int64_t off[2] = {0, 0};
  const int32_t rows[1] = {0};
  int64_t *d_off = (int64_t *)t_to_dev(off, sizeof off);
  int32_t *d_rows = (int32_t *)t_to_dev(rows, sizeof rows);
  const int64_t counts[3] = {737178657956547790LL, ((int64_t)1 << 40) + 1, INT64_MAX};
  for (int q = 0; q < 3; ++q)
    for (int m = 0; m <= 4; ++m) {
      strata_crs_matrix_t *A = dev_target(&H);
      strata_packets_t pk = {T_exec, counts[q], d_off, NULL, 0, 0};
      strata_unpack_report_t rep;
      t_expect_msg(strata_sparse_unpack_combine(T_exec, A, d_rows, &pk, NULL, 0, (strata_combine_mode_t)m, &rep),
                   STRATA_ERR_INVALID_ARGUMENT, "exceeds the limit 2^40", "packets");
      assert_int_equal(rep.rows_unpacked + rep.entries_combined + rep.entries_inserted, 0);
      strata_crs_destroy(&A);
    }
  t_dev_free(d_off);
  t_dev_free(d_rows);
}

/* INSERT (issue 5 §2): into empty rows, into existing rows with new and existing columns and
 * duplicates within and across packets, the growth count exact, against a host reference; a
 * non-fill-complete target; invalid entries / rows / a malformed packet counted with nothing
 * dropped; strict leaves the matrix unchanged; an all-valid strict run. */
static void test_insert(void **state) {
  (void)state;
  uint64_t s = T_seed + 41;
  int64_t ng = 0;
  const int32_t nr = 30, nc = 50;
  int32_t *lids = gen_lids(nc, &ng);
  for (int unsorted = 0; unsorted <= 1; ++unsorted) {
    host_crs_t H = gen_insert_target(&s, nr, nc, unsorted);
    for (int invalid = 0; invalid <= 1; ++invalid) {
      hpk_t P;
      pk_init(&P);
      for (int64_t k = 0; k < 80; ++k) {
        int32_t row = (int32_t)(t_rand(&s) % (uint64_t)nr);
        if (invalid && k % 17 == 5) row = k % 2 ? nr + 2 : -3;
        pk_begin(&P, row);
        const int64_t cnt = k % 10 == 0 ? 200 + (int64_t)(t_rand(&s) % 300) : (int64_t)(t_rand(&s) % 12);
        for (int64_t e = 0; e < cnt; ++e) {
          /* half from the row's pattern (existing columns), half anywhere (new ones) */
          const int32_t rr = row >= 0 && row < nr ? row : 0;
          const int64_t len = H.ro[rr + 1] - H.ro[rr];
          int32_t c = len && t_rand(&s) % 2 ? H.ci[H.ro[rr] + (int64_t)(t_rand(&s) % (uint64_t)len)]
                                            : (int32_t)(t_rand(&s) % (uint64_t)nc);
          int64_t gid = 2 * (int64_t)c + 1;
          if (invalid && t_rand(&s) % 40 == 0) gid = t_rand(&s) % 2 ? 2 * (int64_t)c : ng + 5;
          pk_add(&P, gid, (double)(int)(t_rand(&s) % 201) - 100.0);
        }
      }
      const int64_t corrupt = invalid ? 11 : -1;
      const char *what = unsorted ? (invalid ? "unsorted target, invalid input" : "unsorted target")
                                  : (invalid ? "invalid input" : "valid input");
      check_insert(what, &H, &P, corrupt, lids, ng, 0);
      check_insert(what, &H, &P, corrupt, lids, ng, 1); /* strict */
      pk_free(&P);
    }
    host_crs_free(&H);
  }
  { /* a target with no entries at all (every row empty), identity column map */
    host_crs_t E;
    E.nr = 5;
    E.nc = 7;
    E.nnz = 0;
    E.ro = (int64_t *)t_malloc(sizeof(int64_t) * 6);
    memset(E.ro, 0, sizeof(int64_t) * 6);
    E.ci = (int32_t *)t_malloc(sizeof(int32_t));
    E.v = (double *)t_malloc(sizeof(double));
    hpk_t P;
    pk_init(&P);
    pk_begin(&P, 2);
    pk_add(&P, 6, 1.0);
    pk_add(&P, 0, 2.0);
    pk_add(&P, 6, 4.0);
    pk_begin(&P, 4);
    pk_begin(&P, 2);
    pk_add(&P, 3, -1.0);
    pk_add(&P, 0, 8.0);
    check_insert("empty target", &E, &P, -1, NULL, 0, 0);
    pk_free(&P);
    host_crs_free(&E);
  }
  free(lids);
}

/* packets: nvl very long (vl_lo..vl_hi entries) among nmain main-class packets (main_lo..main_hi
 * entries), nbad of them with target rows out of range; bad_gid: some invalid entries */
static void gen_mixed_packets(uint64_t *s, const host_crs_t *H, int64_t nvl, int64_t nmain, int64_t main_lo, int64_t main_hi,
                   int64_t vl_lo, int64_t vl_hi, int64_t nbad, int bad_gid, hpk_t *P) {
  pk_init(P);
  const int64_t np = nvl + nmain + nbad;
  int64_t left = nvl, leftbad = nbad;
  for (int64_t k = 0; k < np; ++k) {
    const uint64_t u = t_rand(s) % (uint64_t)(np - k);
    const int vl = (int64_t)u < left;
    const int bad = !vl && (int64_t)u < left + leftbad;
    left -= vl;
    leftbad -= bad;
    int32_t row = (int32_t)(t_rand(s) % (uint64_t)H->nr);
    if (bad) row = t_rand(s) % 2 ? H->nr + 5 : -3;
    const int64_t cnt = vl ? vl_lo + (int64_t)(t_rand(s) % (uint64_t)(vl_hi - vl_lo + 1))
                           : main_lo + (int64_t)(t_rand(s) % (uint64_t)(main_hi - main_lo + 1));
    const int32_t rr = row >= 0 && row < H->nr ? row : 0;
    const int64_t len = H->ro[rr + 1] - H->ro[rr];
    pk_begin(P, row);
    for (int64_t e = 0; e < cnt; ++e) {
      int64_t gid = 2 * (int64_t)H->ci[H->ro[rr] + (int64_t)(t_rand(s) % (uint64_t)len)] + 1;
      if (bad_gid && t_rand(s) % 97 == 0) gid = 2 * (int64_t)(t_rand(s) % (uint64_t)H->nc);
      pk_add(P, gid, (double)(int)(t_rand(s) % 201) - 100.0);
    }
  }
}

static void expect_classes(const char *what, const strata_unpack_report_t *r, int64_t c0, int64_t c1, int64_t c2,
                             int64_t c3) {
  if (r->class_packets[0] != c0 || r->class_packets[1] != c1 || r->class_packets[2] != c2 || r->class_packets[3] != c3)
    fail_msg("%s: classes %lld %lld %lld %lld expected %lld %lld %lld %lld", what, (long long)r->class_packets[0],
             (long long)r->class_packets[1], (long long)r->class_packets[2], (long long)r->class_packets[3],
             (long long)c0, (long long)c1, (long long)c2, (long long)c3);
}

/* The listed very long packets (beside a dominant class, at most 1024: no second pass) with bad
 * input: invalid entries, rows out of range, a malformed short or very long packet. */
static void test_listed_invalid(void **state) {
  (void)state;
  uint64_t s = T_seed + 1001;
  host_crs_t H = gen_target(&s, 300, 1500);
  int64_t ng = 0;
  int32_t *lids = gen_lids(H.nc, &ng);
  hpk_t P;
  gen_mixed_packets(&s, &H, 20, 3000, 0, 2, 17, 700, 40, 1, &P);
  /* corrupt: the first short packet and, separately, a very long one */
  int64_t kshort = -1, kvl = -1;
  for (int64_t k = 0; k < P.np; ++k) {
    const int64_t c = P.first[k + 1] - P.first[k];
    if (c <= 2 && kshort < 0 && P.rows[k] >= 0 && P.rows[k] < H.nr) kshort = k;
    if (c > 16 && kvl < 0) kvl = k;
  }
  const strata_combine_mode_t modes[] = {STRATA_COMBINE_ADD, STRATA_COMBINE_ABSMAX, STRATA_COMBINE_ZERO};
  for (int m = 0; m < 3; ++m) {
    strata_unpack_options_t o = small_opts(0);
    o.long_max = o.medium_max;
    strata_unpack_report_t rep;
    check_case("listed: invalid mixed", &H, &P, -1, lids, ng, modes[m], &o, &rep);
    check_case("listed: invalid mixed, corrupt short", &H, &P, kshort, lids, ng, modes[m], &o, &rep);
    check_case("listed: invalid mixed, corrupt very long", &H, &P, kvl, lids, ng, modes[m], &o, &rep);
    /* the corrupt packet's offsets hold its real entries: it is classified by them (very long),
     * and its kernel, which reads the stored count, reports it (the counts checked above) */
    expect_classes("listed: corrupt vl", &rep, P.np - 20, 0, 0, 20);
  }
  pk_free(&P);
  free(lids);
  host_crs_free(&H);
}

/* Strict with the listed path: valid input applied; one invalid entry in a very long packet's
 * last chunk refuses the call and leaves the matrix bitwise unchanged; without strict the rest
 * is applied. */
static void test_listed_strict(void **state) {
  (void)state;
  uint64_t s = T_seed + 1002;
  host_crs_t H = gen_target(&s, 300, 1500);
  int64_t ng = 0;
  int32_t *lids = gen_lids(H.nc, &ng);
  hpk_t P;
  gen_mixed_packets(&s, &H, 6, 3000, 1, 2, 100, 700, 0, 0, &P);
  /* one invalid gid in a very long packet */
  int64_t kvl = -1;
  for (int64_t k = 0; k < P.np && kvl < 0; ++k)
    if (P.first[k + 1] - P.first[k] > 16) kvl = k;
  strata_unpack_options_t o = small_opts(0);
  o.long_max = o.medium_max;
  o.strict = 1;
  strata_unpack_report_t rep;
  check_case("listed: strict valid", &H, &P, -1, lids, ng, STRATA_COMBINE_ADD, &o, &rep);
  expect_classes("listed: strict valid", &rep, 3000, 0, 0, 6);
  check_case("listed: strict valid absmax", &H, &P, -1, lids, ng, STRATA_COMBINE_ABSMAX, &o, &rep);
  const int64_t e = P.first[kvl] + (P.first[kvl + 1] - P.first[kvl]) - 3; /* in its last chunk */
  P.gid[e] = 0; /* no local id */
  double *got = (double *)t_malloc(sizeof(double) * (size_t)H.nnz);
  T_ERR(dev_unpack(&H, &P, -1, lids, ng, STRATA_COMBINE_ADD, &o, &rep, got), STRATA_ERR_INVALID_DATA);
  if (memcmp(got, H.v, sizeof(double) * (size_t)H.nnz)) fail_msg("listed: strict: matrix changed");
  assert_int_equal(rep.invalid_entries, 1);
  assert_int_equal(rep.rows_unpacked, 0);
  o.strict = 0;
  check_case("listed: nonstrict with 1 bad", &H, &P, -1, lids, ng, STRATA_COMBINE_ADD, &o, &rep);
  free(got);
  pk_free(&P);
  free(lids);
  host_crs_free(&H);
}

/* REPLACE (each entry named once, so the result is defined): dense rows as very long packets,
 * reversed, the other rows in short packets; every mode, strict or not, chunks of 1, 599, 600. */
static void test_listed_replace(void **state) {
  (void)state;
  uint64_t s = T_seed + 1003;
  host_crs_t H = gen_target(&s, 400, 600);
  hpk_t P;
  pk_init(&P);
  int64_t nvl = 0;
  for (int32_t r = 0; r < H.nr; ++r) {
    const int64_t b = H.ro[r], n = H.ro[r + 1] - b;
    if (n == H.nc && nvl < 5) { /* one very long packet: the whole row, reversed */
      pk_begin(&P, r);
      for (int64_t i = n - 1; i >= 0; --i) pk_add(&P, H.ci[b + i], (double)(int)(t_rand(&s) % 2001) - 1000.0);
      ++nvl;
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (i % 2 == 0) pk_begin(&P, r);
        pk_add(&P, H.ci[b + i], (double)(int)(t_rand(&s) % 2001) - 1000.0);
      }
    }
  }
  strata_unpack_options_t o = small_opts(0);
  o.long_max = o.medium_max;
  strata_unpack_report_t rep;
  const strata_combine_mode_t modes[] = {STRATA_COMBINE_REPLACE, STRATA_COMBINE_ABSMAX, STRATA_COMBINE_ADD,
                                         STRATA_COMBINE_ZERO};
  for (int m = 0; m < 4; ++m) {
    check_case("listed: replace", &H, &P, -1, NULL, 0, modes[m], &o, &rep);
    expect_classes("listed: replace", &rep, P.np - nvl, 0, 0, nvl);
    o.strict = 1;
    check_case("listed: replace strict", &H, &P, -1, NULL, 0, modes[m], &o, &rep);
    o.strict = 0;
  }
  o.chunk = 1;
  check_case("listed: replace chunk 1", &H, &P, -1, NULL, 0, STRATA_COMBINE_REPLACE, &o, &rep);
  o.chunk = 600;
  check_case("listed: replace chunk 600", &H, &P, -1, NULL, 0, STRATA_COMBINE_REPLACE, &o, &rep);
  o.chunk = 599;
  check_case("listed: replace chunk 599", &H, &P, -1, NULL, 0, STRATA_COMBINE_REPLACE, &o, &rep);
  pk_free(&P);
  host_crs_free(&H);
}

/* The list's limit: 1023, 1024 (listed) and 1025 (the two-pass grouping) very long packets, the
 * short or the medium class dominant. */
static void test_listed_limit(void **state) {
  (void)state;
  int64_t nvls[] = {1023, 1024, 1025};
  for (int med = 0; med < 2; ++med)
    for (int i = 0; i < 3; ++i) {
      uint64_t s = T_seed + 1004 + (uint64_t)i;
      host_crs_t H = gen_target(&s, 200, 300);
      int64_t ng = 0;
      int32_t *lids = gen_lids(H.nc, &ng);
      hpk_t P;
      const int64_t nmain = 8 * nvls[i] + 3;
      gen_mixed_packets(&s, &H, nvls[i], nmain, med ? 3 : 0, med ? 16 : 2, 17, 40, 0, 1, &P);
      strata_unpack_options_t o = small_opts(0);
      o.long_max = o.medium_max;
      o.chunk = 8;
      strata_unpack_report_t rep;
      char what[64];
      snprintf(what, sizeof what, "listed: limit %lld med %d", (long long)nvls[i], med);
      check_case(what, &H, &P, -1, lids, ng, STRATA_COMBINE_ADD, &o, &rep);
      expect_classes(what, &rep, med ? 0 : nmain, med ? nmain : 0, 0, nvls[i]);
      check_case(what, &H, &P, -1, lids, ng, STRATA_COMBINE_ABSMAX, &o, &rep);
      check_case(what, &H, &P, -1, lids, ng, STRATA_COMBINE_ZERO, &o, &rep);
      o.strict = 1;
      check_case(what, &H, &P, -1, NULL, 0, STRATA_COMBINE_ZERO, &o, &rep);
      pk_free(&P);
      free(lids);
      host_crs_free(&H);
    }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_classes_add, t_setup),
      cmocka_unit_test_setup(test_positions, t_setup),
      cmocka_unit_test_setup(test_many_tiles, t_setup),
      cmocka_unit_test_setup(test_dominant_class, t_setup),
      cmocka_unit_test_setup(test_dominant_very_long, t_setup),
      cmocka_unit_test_setup(test_listed_invalid, t_setup),
      cmocka_unit_test_setup(test_listed_strict, t_setup),
      cmocka_unit_test_setup(test_listed_replace, t_setup),
      cmocka_unit_test_setup(test_listed_limit, t_setup),
      cmocka_unit_test_setup(test_duplicates, t_setup),
      cmocka_unit_test_setup(test_invalid_counted, t_setup),
      cmocka_unit_test_setup(test_strict, t_setup),
      cmocka_unit_test_setup(test_modes, t_setup), cmocka_unit_test_setup(test_signed_zero_runs, t_setup),
      cmocka_unit_test_setup(test_edge_cases, t_setup),
      cmocka_unit_test_setup(test_empty, t_setup),
      cmocka_unit_test_setup(test_buffer_bounds, t_setup),
      cmocka_unit_test_setup(test_malformed_message, t_setup),
      cmocka_unit_test_setup(test_offsets_decrease, t_setup),
      cmocka_unit_test_setup(test_offsets_decrease_examples, t_setup),
      cmocka_unit_test_setup(test_misaligned_data, t_setup),
      cmocka_unit_test_setup(test_col_map, t_setup),
      cmocka_unit_test_setup(test_huge_packet, t_setup),
      cmocka_unit_test_setup(test_insert, t_setup),
      cmocka_unit_test_setup(test_packet_count_limit, t_setup),
  };
  return T_RUN("unpack", tests);
}
