/* strata tests — the kernel language's nested-parallel and atomic vocabulary on the backend under
 * test, against host references: vector / team-thread / team-vector reductions (SUM, MIN, MAX for
 * i32, i64, f32, f64), vector and team-thread scans, single and broadcast, atomics under
 * contention, team sort, AUTO team size. Inputs are small integers, so every order of evaluation
 * gives the same bits. On GPUs every test runs over several team_size x vector_length shapes
 * (partly filled warps, one thread, one lane, 1024 threads). */
#include "test_common.h"

#include "kl_kernels.h"

STRATA_KERNEL_DECLARE(kl_reduce_i32);
STRATA_KERNEL_DECLARE(kl_reduce_i64);
STRATA_KERNEL_DECLARE(kl_reduce_f32);
STRATA_KERNEL_DECLARE(kl_reduce_f64);
STRATA_KERNEL_DECLARE(kl_scan_i32);
STRATA_KERNEL_DECLARE(kl_scan_i64);
STRATA_KERNEL_DECLARE(kl_scan_f32);
STRATA_KERNEL_DECLARE(kl_scan_f64);
STRATA_KERNEL_DECLARE(kl_single);
STRATA_KERNEL_DECLARE(kl_single_bounded);
STRATA_KERNEL_DECLARE(kl_single_bounded16);
STRATA_KERNEL_DECLARE(kl_atomic_i32);
STRATA_KERNEL_DECLARE(kl_atomic_i64);
STRATA_KERNEL_DECLARE(kl_atomic_f32);
STRATA_KERNEL_DECLARE(kl_atomic_f64);
STRATA_KERNEL_DECLARE(kl_sort_i64_i64);
STRATA_KERNEL_DECLARE(kl_sort_i32_i32);
STRATA_KERNEL_DECLARE(kl_sort_i64_f64);
STRATA_KERNEL_DECLARE(kl_sort_i32_f64);

/* ------------------------------------------------------------ value types as doubles */
enum { I32, I64, F32, F64, NTYPES };
static const char *const type_name[NTYPES] = {"i32", "i64", "f32", "f64"};
static const size_t type_size[NTYPES] = {4, 8, 4, 8};

static double rd(int t, const void *p, int64_t k) {
  switch (t) {
    case I32: return (double)((const int32_t *)p)[k];
    case I64: return (double)((const int64_t *)p)[k];
    case F32: return (double)((const float *)p)[k];
    default: return ((const double *)p)[k];
  }
}
static void wr(int t, void *p, int64_t k, double v) {
  switch (t) {
    case I32: ((int32_t *)p)[k] = (int32_t)v; break;
    case I64: ((int64_t *)p)[k] = (int64_t)v; break;
    case F32: ((float *)p)[k] = (float)v; break;
    default: ((double *)p)[k] = v;
  }
}
/* identities of MIN / MAX, read as doubles the way rd() reads the device's */
static double ident(int t, int op) {
  if (op == 0) return 0;
  switch (t) {
    case I32: return op == 1 ? (double)INT32_MAX : (double)INT32_MIN;
    case I64: return op == 1 ? (double)INT64_MAX : (double)INT64_MIN;
    default: return op == 1 ? INFINITY : -INFINITY;
  }
}
static double join(int op, double a, double b) {
  return op == 0 ? a + b : op == 1 ? (b < a ? b : a) : (b > a ? b : a);
}
static const char *const op_name[3] = {"SUM", "MIN", "MAX"};

/* ------------------------------------------------------------ team shapes */
typedef struct shape {
  int ts, vl;
} shape_t;

/* The shapes to run: host backends take 1 x 1 (and AUTO); GPUs a spread that includes partly
 * filled warps (3x8, 5x4, 17x1, 7x2), a single thread with a whole warp, 1024 threads. */
static int shapes(shape_t *out) {
  int n = 0;
  out[n++] = (shape_t){STRATA_AUTO, STRATA_AUTO};
  out[n++] = (shape_t){1, 1};
  if (strata_exec_is_host(T_exec)) return n;
  strata_device_info_t d;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &d));
  const int w = d.warp_size;
  const shape_t g[] = {{1, w}, {3, 8}, {5, 4}, {7, 2}, {17, 1}, {2, 16}, {32, 32}, {1024 / w, w},
                       {1024, 1}, {STRATA_AUTO, 4}, {STRATA_AUTO, w}, {4, w}};
  for (size_t i = 0; i < sizeof g / sizeof g[0]; ++i)
    if (g[i].vl <= w && (long)g[i].ts * (g[i].vl ? g[i].vl : 1) <= d.max_threads_per_team) out[n++] = g[i];
  return n;
}

/* Resolves a shape for a kernel: team_size and vector_length exactly as the launch uses them. */
static strata_team_policy_t resolve(const strata_kernel_t *k, int64_t league, shape_t s,
                                    size_t scratch_team) {
  strata_team_policy_t p = strata_team_policy(league, s.ts, s.vl), r;
  p.scratch_team = scratch_team;
  strata_status_t st = strata_team_policy_resolve_kernel(T_exec, &p, k, &r);
  if (st == STRATA_ERR_INVALID_POLICY && strstr(strata_error_message(), "threads per team of this kernel")) {
    /* a team within the device's 1024 threads that this kernel's registers do not allow: refused
     * before launch, with the limit named; the caller skips the shape (team_size 0) */
    print_message("  shape %d x %d refused for %s: %s\n", s.ts, s.vl, k->name, strata_error_message());
    r.team_size = 0;
    strata_team_policy_t q = strata_team_policy(league, s.ts, s.vl);
    T_ERR(strata_parallel_for_team(T_exec, "refused", &q, k, &q), STRATA_ERR_INVALID_POLICY);
    return r;
  }
  T_OK(st);
  assert_true(r.team_size >= 1 && r.vector_length >= 1);
  return r;
}

static void check_val(const char *what, int t, int op, shape_t s, int64_t a, int64_t b, double got,
                      double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(got == want))
    fail_msg("%s %s %s team %d vector %d: [%lld][%lld] = %.17g, expected %.17g (seed %llu)", what,
             type_name[t], op >= 0 ? op_name[op] : "", s.ts, s.vl, (long long)a, (long long)b, got,
             want, (unsigned long long)T_seed);
}

/* ============================================================ reductions */

static const strata_kernel_t *const reduce_kernels[NTYPES] = {&kl_reduce_i32, &kl_reduce_i64,
                                                              &kl_reduce_f32, &kl_reduce_f64};

static void check_reduce(int t, int64_t league, int64_t M, int64_t K, shape_t s) {
  const strata_team_policy_t r = resolve(reduce_kernels[t], league, s, 0);
  if (!r.team_size) return; /* the kernel cannot run this team (registers): refused, checked */
  const int P = r.team_size * r.vector_length, V = r.vector_length;
  const size_t es = type_size[t];
  const int64_t nx = league * M * K;
  int64_t *len = (int64_t *)t_malloc((size_t)(league * M) * sizeof(int64_t));
  int64_t *flat = (int64_t *)t_malloc((size_t)league * sizeof(int64_t));
  void *x = t_malloc((size_t)nx * es);
  const int64_t special[] = {0, 1, 31, 32, 33, 63, 64, 65};
  for (int64_t i = 0; i < league * M; ++i)
    len[i] = i % 3 == 0 ? special[(i / 3) % 8] % (K + 1) : (int64_t)(t_rand(&T_rng) % (uint64_t)(K + 1));
  for (int64_t q = 0; q < league; ++q)
    flat[q] = q == 0 ? 0 : q == 1 ? M * K : (int64_t)(t_rand(&T_rng) % (uint64_t)(M * K + 1));
  for (int64_t i = 0; i < nx; ++i) wr(t, x, i, (double)((int64_t)(t_rand(&T_rng) % 201) - 100));
  kl_reduce_args_t a;
  a.M = M;
  a.K = K;
  a.P = P;
  a.V = V;
  a.len = (const int64_t *)t_to_dev(len, (size_t)(league * M) * sizeof(int64_t));
  a.flat = (const int64_t *)t_to_dev(flat, (size_t)league * sizeof(int64_t));
  a.x = t_to_dev(x, (size_t)nx * es);
  const size_t nvec = (size_t)(league * M * 3 * V), nt = (size_t)(league * 3 * P);
  a.vec = t_dev_alloc(nvec * es);
  a.tt = t_dev_alloc(nt * es);
  a.tv = t_dev_alloc(nt * es);
  strata_team_policy_t p = strata_team_policy(league, s.ts, s.vl);
  T_OK(strata_parallel_for_team(T_exec, "kl reduce", &p, reduce_kernels[t], &a));
  T_OK(strata_exec_fence(T_exec));
  void *vec = t_malloc(nvec * es), *tt = t_malloc(nt * es), *tv = t_malloc(nt * es);
  t_to_host(vec, a.vec, nvec * es);
  t_to_host(tt, a.tt, nt * es);
  t_to_host(tv, a.tv, nt * es);
  for (int64_t q = 0; q < league; ++q)
    for (int op = 0; op < 3; ++op) {
      double team_ref = ident(t, op), flat_ref = ident(t, op);
      for (int64_t i = 0; i < M; ++i) {
        const int64_t row = q * M + i;
        double ref = ident(t, op);
        for (int64_t j = 0; j < len[row]; ++j) ref = join(op, ref, rd(t, x, row * K + j));
        team_ref = join(op, team_ref, ref);
        for (int l = 0; l < V; ++l)
          check_val("THREAD_VECTOR_REDUCE", t, op, s, row, l, rd(t, vec, (row * 3 + op) * V + l), ref);
      }
      for (int64_t j = 0; j < flat[q]; ++j) flat_ref = join(op, flat_ref, rd(t, x, q * M * K + j));
      for (int l = 0; l < P; ++l) {
        check_val("TEAM_THREAD_REDUCE", t, op, s, q, l, rd(t, tt, (q * 3 + op) * P + l), team_ref);
        check_val("TEAM_VECTOR_REDUCE", t, op, s, q, l, rd(t, tv, (q * 3 + op) * P + l), flat_ref);
      }
    }
  t_dev_free((void *)a.len);
  t_dev_free((void *)a.flat);
  t_dev_free((void *)a.x);
  t_dev_free(a.vec);
  t_dev_free(a.tt);
  t_dev_free(a.tv);
  free(len);
  free(flat);
  free(x);
  free(vec);
  free(tt);
  free(tv);
}

static void test_reduce(void **state) {
  (void)state;
  shape_t sh[32];
  const int ns = shapes(sh);
  for (int t = 0; t < NTYPES; ++t)
    for (int k = 0; k < ns; ++k) {
      check_reduce(t, 5, 9, 130, sh[k]);
      check_reduce(t, 3, 0, 4, sh[k]); /* no rows: identities */
      check_reduce(t, 2, 1, 1, sh[k]);
    }
  check_reduce(I64, 0, 3, 3, sh[0]); /* league 0 */
}

/* ============================================================ scans */

static const strata_kernel_t *const scan_kernels[NTYPES] = {&kl_scan_i32, &kl_scan_i64,
                                                            &kl_scan_f32, &kl_scan_f64};
static const int64_t scan_sizes[] = {0, 1, 31, 32, 33, 64, 65, 1000};
#define NSCAN ((int64_t)(sizeof scan_sizes / sizeof scan_sizes[0]))

/* One scan's outputs against a host prefix sum: for each of n rows (row q: len[q] inputs at
 * in[q * stride]), ex / inc hold the exclusive / inclusive prefixes and tot[q * per + l] the row
 * total for each of its per participants. */
static void check_scan_out(const char *what, int t, shape_t s, int64_t n, const int64_t *len, int64_t stride,
                           const void *in, const void *ex, const void *inc, const void *tot, int per) {
  char ew[64], iw[64], tw[64];
  snprintf(ew, sizeof ew, "%s exclusive", what);
  snprintf(iw, sizeof iw, "%s inclusive", what);
  snprintf(tw, sizeof tw, "%s total", what);
  for (int64_t q = 0; q < n; ++q) {
    double acc = 0;
    for (int64_t j = 0; j < len[q]; ++j) {
      check_val(ew, t, -1, s, q, j, rd(t, ex, q * stride + j), acc);
      acc += rd(t, in, q * stride + j);
      check_val(iw, t, -1, s, q, j, rd(t, inc, q * stride + j), acc);
    }
    for (int l = 0; l < per; ++l) check_val(tw, t, -1, s, q, l, rd(t, tot, q * per + l), acc);
  }
}

static void check_scan(int t, shape_t s) {
  const int64_t league = NSCAN, M = 3, K = 1000, K2 = 1000;
  const strata_team_policy_t r = resolve(scan_kernels[t], league, s, 0);
  if (!r.team_size) return; /* the kernel cannot run this team (registers): refused, checked */
  const int P = r.team_size * r.vector_length, V = r.vector_length;
  const size_t es = type_size[t];
  const int64_t nrow = league * M, nin = nrow * K, ntin = league * K2;
  int64_t *len = (int64_t *)t_malloc((size_t)nrow * sizeof(int64_t));
  int64_t *tlen = (int64_t *)t_malloc((size_t)league * sizeof(int64_t));
  for (int64_t i = 0; i < nrow; ++i) len[i] = scan_sizes[(i + i / M) % NSCAN];
  for (int64_t q = 0; q < league; ++q) tlen[q] = scan_sizes[q];
  void *in = t_malloc((size_t)nin * es), *tin = t_malloc((size_t)ntin * es);
  for (int64_t i = 0; i < nin; ++i) wr(t, in, i, (double)((int64_t)(t_rand(&T_rng) % 21) - 10));
  for (int64_t i = 0; i < ntin; ++i) wr(t, tin, i, (double)((int64_t)(t_rand(&T_rng) % 21) - 10));
  kl_scan_args_t a;
  a.M = M;
  a.K = K;
  a.K2 = K2;
  a.P = P;
  a.V = V;
  a.len = (const int64_t *)t_to_dev(len, (size_t)nrow * sizeof(int64_t));
  a.tlen = (const int64_t *)t_to_dev(tlen, (size_t)league * sizeof(int64_t));
  a.in = t_to_dev(in, (size_t)nin * es);
  a.tin = t_to_dev(tin, (size_t)ntin * es);
  a.vex = t_dev_alloc((size_t)nin * es);
  a.vinc = t_dev_alloc((size_t)nin * es);
  a.vtot = t_dev_alloc((size_t)(nrow * V) * es);
  a.tex = t_dev_alloc((size_t)ntin * es);
  a.tinc = t_dev_alloc((size_t)ntin * es);
  a.ttot = t_dev_alloc((size_t)(league * P) * es);
  a.tvex = t_dev_alloc((size_t)ntin * es);
  a.tvinc = t_dev_alloc((size_t)ntin * es);
  a.tvtot = t_dev_alloc((size_t)(league * P) * es);
  strata_team_policy_t p = strata_team_policy(league, s.ts, s.vl);
  T_OK(strata_parallel_for_team(T_exec, "kl scan", &p, scan_kernels[t], &a));
  T_OK(strata_exec_fence(T_exec));
  void *vex = t_malloc((size_t)nin * es), *vinc = t_malloc((size_t)nin * es);
  void *vtot = t_malloc((size_t)(nrow * V) * es), *tex = t_malloc((size_t)ntin * es);
  void *tinc = t_malloc((size_t)ntin * es), *ttot = t_malloc((size_t)(league * P) * es);
  t_to_host(vex, a.vex, (size_t)nin * es);
  t_to_host(vinc, a.vinc, (size_t)nin * es);
  t_to_host(vtot, a.vtot, (size_t)(nrow * V) * es);
  t_to_host(tex, a.tex, (size_t)ntin * es);
  t_to_host(tinc, a.tinc, (size_t)ntin * es);
  t_to_host(ttot, a.ttot, (size_t)(league * P) * es);
  void *tvex = t_malloc((size_t)ntin * es), *tvinc = t_malloc((size_t)ntin * es);
  void *tvtot = t_malloc((size_t)(league * P) * es);
  t_to_host(tvex, a.tvex, (size_t)ntin * es);
  t_to_host(tvinc, a.tvinc, (size_t)ntin * es);
  t_to_host(tvtot, a.tvtot, (size_t)(league * P) * es);
  check_scan_out("THREAD_VECTOR_SCAN", t, s, nrow, len, K, in, vex, vinc, vtot, V);
  check_scan_out("TEAM_THREAD_SCAN", t, s, league, tlen, K2, tin, tex, tinc, ttot, P);
  check_scan_out("TEAM_VECTOR_SCAN", t, s, league, tlen, K2, tin, tvex, tvinc, tvtot, P);
  void *bufs[] = {(void *)a.len, (void *)a.tlen, (void *)a.in, (void *)a.tin, a.vex, a.vinc, a.vtot, a.tex, a.tinc,
                  a.ttot, a.tvex, a.tvinc, a.tvtot};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i) t_dev_free(bufs[i]);
  void *hb[] = {len, tlen, in, tin, vex, vinc, vtot, tex, tinc, ttot, tvex, tvinc, tvtot};
  for (size_t i = 0; i < sizeof hb / sizeof hb[0]; ++i) free(hb[i]);
}

static void test_scan(void **state) {
  (void)state;
  shape_t sh[32];
  const int ns = shapes(sh);
  for (int t = 0; t < NTYPES; ++t)
    for (int k = 0; k < ns; ++k) check_scan(t, sh[k]);
}

/* ============================================================ single, broadcast, AUTO */

static void check_single_kernel(const strata_kernel_t *kern, int64_t league, shape_t s) {
  const strata_team_policy_t r = resolve(kern, league, s, 0);
  if (!r.team_size) return; /* the kernel cannot run this team (registers): refused, checked */
  const int P = r.team_size * r.vector_length;
  const int64_t nk = league * P;
  kl_single_args_t a;
  a.P = P;
  a.team_count = (int64_t *)t_dev_alloc((size_t)league * sizeof(int64_t));
  a.thread_count = (int64_t *)t_dev_alloc((size_t)league * sizeof(int64_t));
  a.seen_team_size = (int64_t *)t_dev_alloc((size_t)league * sizeof(int64_t));
  T_OK(strata_mem_set_async(T_exec, a.team_count, 0, (size_t)league * sizeof(int64_t)));
  T_OK(strata_mem_set_async(T_exec, a.thread_count, 0, (size_t)league * sizeof(int64_t)));
  a.b64 = (int64_t *)t_dev_alloc((size_t)(3 * nk) * sizeof(int64_t));
  a.b32 = (int32_t *)t_dev_alloc((size_t)nk * sizeof(int32_t));
  a.bf32 = (float *)t_dev_alloc((size_t)nk * sizeof(float));
  a.bf64 = (double *)t_dev_alloc((size_t)nk * sizeof(double));
  a.sh64 = (int64_t *)t_dev_alloc((size_t)nk * sizeof(int64_t));
  a.sh32 = (int32_t *)t_dev_alloc((size_t)nk * sizeof(int32_t));
  a.shf64 = (double *)t_dev_alloc((size_t)nk * sizeof(double));
  strata_team_policy_t p = strata_team_policy(league, s.ts, s.vl);
  T_OK(strata_parallel_for_team(T_exec, "kl single", &p, kern, &a));
  T_OK(strata_exec_fence(T_exec));
  int64_t *tc = (int64_t *)t_malloc((size_t)league * sizeof(int64_t));
  int64_t *hc = (int64_t *)t_malloc((size_t)league * sizeof(int64_t));
  int64_t *sts = (int64_t *)t_malloc((size_t)league * sizeof(int64_t));
  int64_t *b64 = (int64_t *)t_malloc((size_t)(3 * nk) * sizeof(int64_t));
  int32_t *b32 = (int32_t *)t_malloc((size_t)nk * sizeof(int32_t));
  float *bf32 = (float *)t_malloc((size_t)nk * sizeof(float));
  double *bf64 = (double *)t_malloc((size_t)nk * sizeof(double));
  t_to_host(tc, a.team_count, (size_t)league * sizeof(int64_t));
  t_to_host(hc, a.thread_count, (size_t)league * sizeof(int64_t));
  t_to_host(sts, a.seen_team_size, (size_t)league * sizeof(int64_t));
  t_to_host(b64, a.b64, (size_t)(3 * nk) * sizeof(int64_t));
  t_to_host(b32, a.b32, (size_t)nk * sizeof(int32_t));
  t_to_host(bf32, a.bf32, (size_t)nk * sizeof(float));
  t_to_host(bf64, a.bf64, (size_t)nk * sizeof(double));
  int64_t *sh64 = (int64_t *)t_malloc((size_t)nk * sizeof(int64_t));
  int32_t *sh32 = (int32_t *)t_malloc((size_t)nk * sizeof(int32_t));
  double *shf64 = (double *)t_malloc((size_t)nk * sizeof(double));
  t_to_host(sh64, a.sh64, (size_t)nk * sizeof(int64_t));
  t_to_host(sh32, a.sh32, (size_t)nk * sizeof(int32_t));
  t_to_host(shf64, a.shf64, (size_t)nk * sizeof(double));
  for (int64_t k = 0; k < nk; ++k) {
    const int64_t q = k / P, tr = k % P / r.vector_length, vr = k % r.vector_length;
    const int64_t u = q * 1000 + tr * 64 + (3 * vr + 1) % r.vector_length;
    if (sh64[k] != u || sh32[k] != (int32_t)u + 1 || shf64[k] != (double)u + 0.25)
      fail_msg("shuffle team %d vector %d: rank %lld thread %lld lane %lld: %lld %d %g, expected %lld %d %g", s.ts,
               s.vl, (long long)q, (long long)tr, (long long)vr, (long long)sh64[k], sh32[k], shf64[k], (long long)u,
               (int32_t)u + 1, (double)u + 0.25);
  }
  free(sh64);
  free(sh32);
  free(shf64);
  t_dev_free(a.sh64);
  t_dev_free(a.sh32);
  t_dev_free(a.shf64);
  for (int64_t q = 0; q < league; ++q) {
    if (tc[q] != 1 || hc[q] != r.team_size || sts[q] != r.team_size)
      fail_msg("single team %d vector %d (resolved %d x %d): rank %lld: team single ran %lld times, "
               "thread single %lld times, team_size seen %lld",
               s.ts, s.vl, r.team_size, r.vector_length, (long long)q, (long long)tc[q],
               (long long)hc[q], (long long)sts[q]);
    const int64_t v = q * 1000 + 7;
    for (int l = 0; l < P; ++l) {
      const int64_t k = q * P + l;
      if (b64[3 * k] != v || b64[3 * k + 1] != -v || b64[3 * k + 2] != v + 4950 ||
          b32[k] != (int32_t)v + 1 || bf32[k] != (float)(v + 2) || bf64[k] != (double)v + 0.5)
        fail_msg("broadcast team %d vector %d: rank %lld lane %d: %lld %lld %lld %d %g %g, expected "
                 "%lld %lld %lld %d %g %g",
                 s.ts, s.vl, (long long)q, l, (long long)b64[3 * k], (long long)b64[3 * k + 1],
                 (long long)b64[3 * k + 2], b32[k], (double)bf32[k], bf64[k], (long long)v,
                 (long long)-v, (long long)(v + 4950), (int32_t)v + 1, (double)(v + 2), (double)v + 0.5);
    }
  }
  void *bufs[] = {a.team_count, a.thread_count, a.seen_team_size, a.b64, a.b32, a.bf32, a.bf64};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i) t_dev_free(bufs[i]);
  void *hb[] = {tc, hc, sts, b64, b32, bf32, bf64};
  for (size_t i = 0; i < sizeof hb / sizeof hb[0]; ++i) free(hb[i]);
}

static void check_single(int64_t league, shape_t s) { check_single_kernel(&kl_single, league, s); }

/* STRATA_TEAM_KERNEL_BOUNDS (128 threads, 4 teams): the same results as the unbounded kernel on
 * every shape it takes; on GPUs AUTO stays within 128 threads and a team of 256 is refused before
 * launch, naming the limit as the kernel's launch bound (it blamed the registers per thread). */
static void test_launch_bounds(void **state) {
  (void)state;
  shape_t sh[32];
  const int ns = shapes(sh);
  for (int k = 0; k < ns; ++k) check_single_kernel(&kl_single_bounded, 37, sh[k]);
  if (strata_exec_is_host(T_exec)) return;
  strata_device_info_t d;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &d));
  strata_team_policy_t p = strata_team_policy(5, STRATA_AUTO, 1), r;
  T_OK(strata_team_policy_resolve_kernel(T_exec, &p, &kl_single_bounded, &r));
  if (r.team_size < 1 || r.team_size > 128) fail_msg("AUTO team of a kernel bounded to 128: %d", r.team_size);
  p = strata_team_policy(5, 256 / d.warp_size, d.warp_size);
  t_expect_msg(strata_parallel_for_team(T_exec, "bounded", &p, &kl_single_bounded, &p), STRATA_ERR_INVALID_POLICY,
               "threads exceeds the limit 128", "threads per team of this kernel (its launch bound MAXT");
  /* AUTO team with a vector_length above the bound (a kernel bounded to 16 threads, a warp of
   * lanes): no team fits, and the message names the vector length and the bound (it said only
   * "no team size fits this kernel ... registers or shared memory exhausted") */
  char vl[96];
  snprintf(vl, sizeof vl, "vector_length %d exceeds its launch bound MAXT = 16", d.warp_size);
  p = strata_team_policy(5, STRATA_AUTO, d.warp_size);
  t_expect_msg(strata_parallel_for_team(T_exec, "bounded16", &p, &kl_single_bounded16, &p), STRATA_ERR_INVALID_POLICY,
               vl, "no team size fits");
  t_expect_msg(strata_team_policy_resolve_kernel(T_exec, &p, &kl_single_bounded16, &r), STRATA_ERR_INVALID_POLICY,
               vl, NULL);
}

static void test_single_broadcast(void **state) {
  (void)state;
  shape_t sh[32];
  const int ns = shapes(sh);
  for (int k = 0; k < ns; ++k) {
    check_single(1, sh[k]);
    check_single(37, sh[k]);
  }
}

/* AUTO team size: 1 on host; on GPUs within [1, 1024 / vector_length], at most the kernel-free
 * upper bound, what the launch uses (the kernel sees it), and smaller when the per-thread scratch
 * only fits a few threads. */
static void test_auto_team_size(void **state) {
  (void)state;
  strata_device_info_t d;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &d));
  const int host = strata_exec_is_host(T_exec);
  for (int vl = 1; vl <= (host ? 1 : d.warp_size); vl *= 2) {
    strata_team_policy_t p = strata_team_policy(8, STRATA_AUTO, vl), ub, r;
    T_OK(strata_team_policy_resolve(T_exec, &p, &ub));
    r = resolve(&kl_reduce_f64, 8, (shape_t){STRATA_AUTO, vl}, 0);
    if (host) {
      assert_int_equal(ub.team_size, 1);
      assert_int_equal(r.team_size, 1);
    } else {
      if (r.team_size < 1 || r.team_size > ub.team_size || ub.team_size != d.max_threads_per_team / vl)
        fail_msg("AUTO vector %d: team size %d, upper bound %d", vl, r.team_size, ub.team_size);
    }
    check_single(5, (shape_t){STRATA_AUTO, vl}); /* checks the team size the kernel saw */
    /* per-thread scratch that fits three threads */
    p.scratch_thread = d.max_scratch_bytes / 3 - 64;
    T_OK(strata_team_policy_resolve(T_exec, &p, &ub));
    T_OK(strata_team_policy_resolve_kernel(T_exec, &p, &kl_single, &r));
    assert_true(r.team_size >= 1 && r.team_size <= 3 && r.team_size <= ub.team_size);
  }
  /* a non-team kernel is refused */
  strata_team_policy_t p = strata_team_policy(1, STRATA_AUTO, STRATA_AUTO), r;
  T_ERR(strata_team_policy_resolve_kernel(T_exec, &p, &kl_atomic_i64, &r), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_team_policy_resolve_kernel(T_exec, &p, NULL, &r), STRATA_ERR_INVALID_ARGUMENT);
}

/* ============================================================ atomics */

static const strata_kernel_t *const atomic_kernels[NTYPES] = {&kl_atomic_i32, &kl_atomic_i64,
                                                              &kl_atomic_f32, &kl_atomic_f64};

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void check_atomics(int t, int64_t n, int64_t slots, int64_t ncas) {
  const size_t es = type_size[t];
  kl_atomic_args_t a;
  a.slots = slots;
  a.ncas = ncas;
  void *init = t_malloc((size_t)slots * es);
  void **dev[6] = {&a.add, &a.fadd, &a.mn, &a.mx, &a.xch, &a.cas};
  const double start[6] = {0, 0, 5000, -5000, -1, 0}; /* min / max start outside w's range */
  for (int b = 0; b < 6; ++b) {
    for (int64_t s = 0; s < slots; ++s) wr(t, init, s, start[b]);
    *dev[b] = t_to_dev(init, (size_t)slots * es);
  }
  a.fadd_old = t_dev_alloc((size_t)n * es);
  a.xch_old = t_dev_alloc((size_t)n * es);
  T_OK(strata_parallel_for(T_exec, "kl atomics", strata_range(0, n), atomic_kernels[t], &a));
  T_OK(strata_exec_fence(T_exec));
  void *res[6];
  for (int b = 0; b < 6; ++b) {
    res[b] = t_malloc((size_t)slots * es);
    t_to_host(res[b], *dev[b], (size_t)slots * es);
  }
  void *fo = t_malloc((size_t)n * es), *xo = t_malloc((size_t)n * es);
  t_to_host(fo, a.fadd_old, (size_t)n * es);
  t_to_host(xo, a.xch_old, (size_t)n * es);
  double *seen = (double *)t_malloc((size_t)(n / slots + 2) * sizeof(double));
  for (int64_t s = 0; s < slots; ++s) {
    double add = 0, mn = 5000, mx = -5000;
    int64_t cnt = 0, ccas = 0;
    for (int64_t i = s; i < n; i += slots) {
      const double w = (double)((i * 7919) % 2001 - 1000);
      add += (double)(i % 5 + 1);
      mn = w < mn ? w : mn;
      mx = w > mx ? w : mx;
      ++cnt;
      ccas += i < ncas;
    }
    const double want[6] = {add, (double)cnt, mn, mx, 0, (double)ccas};
    static const char *const what[6] = {"add", "fetch_add", "min", "max", "exchange", "cas loop"};
    for (int b = 0; b < 6; ++b)
      if (b != 4 && rd(t, res[b], s) != want[b])
        fail_msg("atomic %s %s n=%lld slots=%lld: slot %lld = %.17g, expected %.17g (seed %llu)",
                 what[b], type_name[t], (long long)n, (long long)slots, (long long)s, rd(t, res[b], s),
                 want[b], (unsigned long long)T_seed);
    /* fetch_add of 1: the old values of a slot are 0, 1, ..., cnt-1 in some order */
    int64_t m = 0;
    for (int64_t i = s; i < n; i += slots) seen[m++] = rd(t, fo, i);
    qsort(seen, (size_t)m, sizeof(double), cmp_double);
    for (int64_t q = 0; q < m; ++q)
      if (seen[q] != (double)q)
        fail_msg("atomic fetch_add %s n=%lld slots=%lld: slot %lld: the %lld-th smallest old value is "
                 "%.17g", type_name[t], (long long)n, (long long)slots, (long long)s, (long long)q, seen[q]);
    /* exchange: the old values and the final value are the start (-1) and every i of the slot */
    m = 0;
    for (int64_t i = s; i < n; i += slots) seen[m++] = rd(t, xo, i);
    seen[m++] = rd(t, res[4], s);
    qsort(seen, (size_t)m, sizeof(double), cmp_double);
    for (int64_t q = 0; q < m; ++q)
      if (seen[q] != (q == 0 ? -1.0 : (double)(s + (q - 1) * slots)))
        fail_msg("atomic exchange %s n=%lld slots=%lld: slot %lld: value %lld of the chain is %.17g",
                 type_name[t], (long long)n, (long long)slots, (long long)s, (long long)q, seen[q]);
  }
  for (int b = 0; b < 6; ++b) {
    t_dev_free(*dev[b]);
    free(res[b]);
  }
  t_dev_free(a.fadd_old);
  t_dev_free(a.xch_old);
  free(init);
  free(fo);
  free(xo);
  free(seen);
}

static void test_atomics(void **state) {
  (void)state;
  const int64_t ns[] = {0, 1, 1000, 100003};
  for (int t = 0; t < NTYPES; ++t)
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; ++k) {
      check_atomics(t, ns[k], 1, ns[k] < 3000 ? ns[k] : 3000); /* everything into one address */
      check_atomics(t, ns[k], 7, ns[k] < 3000 ? ns[k] : 3000);
    }
}

STRATA_KERNEL_DECLARE(kl_fence_ticket);

/* kl.h, strata_memory_fence: the last team of each group to take the group's ticket reads the
 * other teams' parts written in the same launch (the SpMV plan's split rows do this); three
 * launches in a row, so the tickets must come back to 0 */
static void test_memory_fence(void **state) {
  (void)state;
  const int64_t group = 37, groups = 500, L = group * groups;
  kl_fence_args_t a = {group, NULL, NULL, NULL};
  a.part = (double *)t_dev_alloc((size_t)L * sizeof(double));
  int32_t *zero = (int32_t *)calloc((size_t)groups, sizeof(int32_t));
  a.ticket = (int32_t *)t_to_dev(zero, (size_t)groups * sizeof(int32_t));
  a.total = (double *)t_dev_alloc((size_t)groups * sizeof(double));
  double *tot = (double *)malloc((size_t)groups * sizeof(double));
  int32_t *tick = (int32_t *)malloc((size_t)groups * sizeof(int32_t));
  strata_team_policy_t p = strata_team_policy(L, 0, 1);
  for (int round = 0; round < 3; ++round) {
    T_OK(strata_mem_set_async(T_exec, a.total, 0xFF, (size_t)groups * sizeof(double))); /* NaN */
    T_OK(strata_parallel_for_team(T_exec, "kl fence", &p, &kl_fence_ticket, &a));
    T_OK(strata_exec_fence(T_exec));
    t_to_host(tot, a.total, (size_t)groups * sizeof(double));
    t_to_host(tick, a.ticket, (size_t)groups * sizeof(int32_t));
    for (int64_t g = 0; g < groups; ++g) {
      const double want = (double)(group * (2 * g * group + group + 1) / 2); /* sum of t + 1 over the group */
      if (tot[g] != want) fail_msg("round %d, group %lld: total %.17g, want %.17g", round, (long long)g, tot[g], want);
      assert_int_equal(tick[g], 0);
    }
  }
  t_dev_free(a.part);
  t_dev_free(a.ticket);
  t_dev_free(a.total);
  free(zero);
  free(tot);
  free(tick);
}

STRATA_KERNEL_DECLARE(kl_atomic_minmax_special);

/* kl.h: atomic min / max on f32 / f64 update only if v < *p (v > *p): a NaN is never stored, a
 * NaN in *p stays, signed zeros are left alone; the old value is returned. (A newcomer review:
 * OpenMP's `atomic compare` compiled to minsd / maxsd gave min(2, NaN) = NaN, max(NaN, 1) = 1.) */
static void test_atomic_minmax_special(void **state) {
  (void)state;
  enum { N = 10 };
  const double cell[N] = {2.0, NAN, 2.0, NAN, 0.0, -0.0, -0.0, 0.0, 2.0, 1.0};
  const double v[N] = {NAN, 1.0, NAN, 1.0, -0.0, 0.0, 0.0, -0.0, 1.0, 3.0};
  const int32_t op[N] = {0, 0, 1, 1, 0, 1, 0, 1, 0, 1};
  const double want[N] = {2.0, NAN, 2.0, NAN, 0.0, -0.0, -0.0, 0.0, 1.0, 3.0};
  float c32[N], v32[N];
  for (int i = 0; i < N; ++i) {
    c32[i] = (float)cell[i];
    v32[i] = (float)v[i];
  }
  kl_minmax_args_t a;
  a.c64 = t_to_dev(cell, sizeof cell);
  a.v64 = t_to_dev(v, sizeof v);
  a.old64 = t_dev_alloc(sizeof cell);
  a.c32 = t_to_dev(c32, sizeof c32);
  a.v32 = t_to_dev(v32, sizeof v32);
  a.old32 = t_dev_alloc(sizeof c32);
  a.op = t_to_dev(op, sizeof op);
  T_OK(strata_parallel_for(T_exec, "kl atomic minmax special", strata_range(0, N), &kl_atomic_minmax_special, &a));
  T_OK(strata_exec_fence(T_exec));
  double got[N], old[N];
  float got32[N], old32[N];
  t_to_host(got, a.c64, sizeof got);
  t_to_host(old, a.old64, sizeof old);
  t_to_host(got32, a.c32, sizeof got32);
  t_to_host(old32, a.old32, sizeof old32);
  for (int i = 0; i < N; ++i) {
    const float w32 = (float)want[i];
    if (memcmp(&got[i], &want[i], sizeof(double)) != 0 && !(isnan(got[i]) && isnan(want[i])))
      fail_msg("f64 case %d: %s(%g, %g) left %g, expected %g", i, op[i] ? "max" : "min", cell[i], v[i], got[i], want[i]);
    if (memcmp(&got32[i], &w32, sizeof(float)) != 0 && !(isnan(got32[i]) && isnan(w32)))
      fail_msg("f32 case %d: %s(%g, %g) left %g, expected %g", i, op[i] ? "max" : "min", cell[i], v[i], (double)got32[i],
               (double)w32);
    if (memcmp(&old[i], &cell[i], sizeof(double)) != 0 && !(isnan(old[i]) && isnan(cell[i])))
      fail_msg("f64 case %d: returned %g, expected the old %g", i, old[i], cell[i]);
    if (memcmp(&old32[i], &c32[i], sizeof(float)) != 0 && !(isnan(old32[i]) && isnan(c32[i])))
      fail_msg("f32 case %d: returned %g, expected the old %g", i, (double)old32[i], (double)c32[i]);
  }
  t_dev_free(a.c64);
  t_dev_free((void *)a.v64);
  t_dev_free(a.old64);
  t_dev_free(a.c32);
  t_dev_free((void *)a.v32);
  t_dev_free(a.old32);
  t_dev_free((void *)a.op);
}

/* ============================================================ load hints */

STRATA_KERNEL_DECLARE(kl_load_hints);

/* strata_load_stream_s / strata_load_cached_s return *p bit for bit (hints change cache placement
 * only): extreme integers, -0.0, infinities, NaN payloads, subnormals, and ordinary values. */
static void test_load_hints(void **state) {
  (void)state;
  const int64_t n = 4099;
  int32_t *i32 = t_malloc((size_t)n * 4);
  int64_t *i64 = t_malloc((size_t)n * 8);
  float *f32 = t_malloc((size_t)n * 4);
  double *f64 = t_malloc((size_t)n * 8);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t r = t_rand(&T_rng);
    i32[i] = (int32_t)(uint32_t)r;
    i64[i] = (int64_t)(r * 0x9E3779B97F4A7C15ull);
    const uint32_t b32 = (uint32_t)(r >> 13);
    const uint64_t b64 = r ^ (r << 29);
    memcpy(&f32[i], &b32, 4); /* any bit pattern: NaN payloads and subnormals included */
    memcpy(&f64[i], &b64, 8);
  }
  i32[0] = INT32_MIN;
  i32[1] = INT32_MAX;
  i64[0] = INT64_MIN;
  i64[1] = INT64_MAX;
  f64[0] = -0.0;
  f64[1] = 1.0 / 0.0;
  f32[0] = -0.0f;
  kl_load_args_t a;
  a.n = n;
  a.i32 = t_to_dev(i32, (size_t)n * 4);
  a.i64 = t_to_dev(i64, (size_t)n * 8);
  a.f32 = t_to_dev(f32, (size_t)n * 4);
  a.f64 = t_to_dev(f64, (size_t)n * 8);
  a.i32_out = t_dev_alloc((size_t)n * 8);
  a.i64_out = t_dev_alloc((size_t)n * 16);
  a.f32_out = t_dev_alloc((size_t)n * 8);
  a.f64_out = t_dev_alloc((size_t)n * 16);
  T_OK(strata_parallel_for(T_exec, "kl load hints", strata_range(0, n), &kl_load_hints, &a));
  T_OK(strata_exec_fence(T_exec));
  int32_t *o32 = t_malloc((size_t)n * 8);
  int64_t *o64 = t_malloc((size_t)n * 16);
  float *of32 = t_malloc((size_t)n * 8);
  double *of64 = t_malloc((size_t)n * 16);
  t_to_host(o32, a.i32_out, (size_t)n * 8);
  t_to_host(o64, a.i64_out, (size_t)n * 16);
  t_to_host(of32, a.f32_out, (size_t)n * 8);
  t_to_host(of64, a.f64_out, (size_t)n * 16);
  for (int h = 0; h < 2; ++h) { /* 0: stream, 1: cached */
    assert_memory_equal(o32 + h * n, i32, (size_t)n * 4);
    assert_memory_equal(o64 + h * n, i64, (size_t)n * 8);
    assert_memory_equal(of32 + h * n, f32, (size_t)n * 4);
    assert_memory_equal(of64 + h * n, f64, (size_t)n * 8);
  }
  t_dev_free((void *)a.i32);
  t_dev_free((void *)a.i64);
  t_dev_free((void *)a.f32);
  t_dev_free((void *)a.f64);
  t_dev_free(a.i32_out);
  t_dev_free(a.i64_out);
  t_dev_free(a.f32_out);
  t_dev_free(a.f64_out);
  free(i32);
  free(i64);
  free(f32);
  free(f64);
  free(o32);
  free(o64);
  free(of32);
  free(of64);
}

/* ============================================================ sources of one name */

STRATA_KERNEL_DECLARE(kl_same_name_a);
STRATA_KERNEL_DECLARE(kl_same_name_b);

/* strata_add_kernels built both kl_same_name/a/same.kl.c and kl_same_name/b/same.kl.c (their
 * generated wrappers once had one name and the second overwrote the first: kl_same_name_a was
 * then missing at link time) */
static void test_sources_of_one_name(void **state) {
  (void)state;
  const int64_t n = 1000;
  kl_fill_args_t a = {(double *)t_dev_alloc((size_t)n * sizeof(double))};
  double *h = t_malloc((size_t)n * sizeof(double));
  T_OK(strata_parallel_for(T_exec, "same name a", strata_range(0, n), &kl_same_name_a, &a));
  t_to_host(h, a.out, (size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) assert_true(h[i] == 1.0 + (double)i);
  T_OK(strata_parallel_for(T_exec, "same name b", strata_range(0, n), &kl_same_name_b, &a));
  t_to_host(h, a.out, (size_t)n * sizeof(double));
  for (int64_t i = 0; i < n; ++i) assert_true(h[i] == -2.0 * (double)i);
  t_dev_free(a.out);
  free(h);
}

/* ============================================================ team sort */

enum { S_I64_I64, S_I32_I32, S_I64_F64, S_I32_F64, NSORT };
static const strata_kernel_t *const sort_kernels[NSORT] = {&kl_sort_i64_i64, &kl_sort_i32_i32,
                                                           &kl_sort_i64_f64, &kl_sort_i32_f64};
static const int sort_key[NSORT] = {I64, I32, I64, I32};
static const int sort_val[NSORT] = {I64, I32, F64, F64};

static void check_team_sort(int k, int64_t league, int64_t n, int64_t key_range, shape_t s) {
  const int kt = sort_key[k], vt = sort_val[k];
  const size_t ks = type_size[kt], vs = type_size[vt];
  const int64_t voff = (int64_t)(((size_t)n * ks + 15) & ~(size_t)15);
  const size_t scratch = (size_t)voff + (size_t)n * vs;
  const int64_t stride = n > 0 ? n : 1, tot = league * stride;
  void *keys = t_malloc((size_t)tot * ks), *vals = t_malloc((size_t)tot * vs);
  for (int64_t i = 0; i < tot; ++i) {
    wr(kt, keys, i, (double)((int64_t)(t_rand(&T_rng) % (uint64_t)key_range) - key_range / 2));
    wr(vt, vals, i, (double)(i % stride)); /* each pair's original position */
  }
  kl_sort_args_t a;
  a.n = n;
  a.stride = stride;
  a.voff = voff;
  a.keys = t_to_dev(keys, (size_t)tot * ks);
  a.values = t_to_dev(vals, (size_t)tot * vs);
  strata_team_policy_t p = strata_team_policy(league, s.ts, s.vl);
  p.scratch_team = scratch;
  T_OK(strata_parallel_for_team(T_exec, "kl team sort", &p, sort_kernels[k], &a));
  T_OK(strata_exec_fence(T_exec));
  void *ok = t_malloc((size_t)tot * ks), *ov = t_malloc((size_t)tot * vs);
  t_to_host(ok, a.keys, (size_t)tot * ks);
  t_to_host(ov, a.values, (size_t)tot * vs);
  char *used = (char *)t_malloc((size_t)stride);
  for (int64_t q = 0; q < league; ++q) {
    memset(used, 0, (size_t)stride);
    for (int64_t j = 0; j < n; ++j) {
      const int64_t g = q * stride + j;
      const double key = rd(kt, ok, g), val = rd(vt, ov, g);
      const int64_t src = (int64_t)val;
      if (j > 0 && rd(kt, ok, g - 1) > key)
        fail_msg("team sort %s/%s n=%lld team %d vector %d: rank %lld: keys out of order at %lld (%g > %g)",
                 type_name[kt], type_name[vt], (long long)n, s.ts, s.vl, (long long)q, (long long)j,
                 rd(kt, ok, g - 1), key);
      if (val != (double)src || src < 0 || src >= n || used[src] || rd(kt, keys, q * stride + src) != key)
        fail_msg("team sort %s/%s n=%lld team %d vector %d: rank %lld: position %lld holds (%g, %g): "
                 "not an input pair, or a pair twice (seed %llu)",
                 type_name[kt], type_name[vt], (long long)n, s.ts, s.vl, (long long)q, (long long)j,
                 key, val, (unsigned long long)T_seed);
      used[src] = 1;
    }
  }
  t_dev_free(a.keys);
  t_dev_free(a.values);
  free(keys);
  free(vals);
  free(ok);
  free(ov);
  free(used);
}

static void test_team_sort(void **state) {
  (void)state;
  strata_device_info_t d;
  T_OK(strata_backend_device_info(strata_exec_backend(T_exec), 0, &d));
  shape_t sh[32];
  const int ns = shapes(sh);
  for (int k = 0; k < NSORT; ++k) {
    /* the most pairs that fit the scratch (keys 16-byte aligned before the values) */
    const size_t pair = type_size[sort_key[k]] + type_size[sort_val[k]];
    const int64_t nmax = (int64_t)((d.max_scratch_bytes - 16) / pair);
    const int64_t sizes[] = {0, 1, 2, 3, 64, 1000, 1024, 4097};
    for (int c = 0; c < ns; ++c) {
      for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        check_team_sort(k, 3, sizes[i], 5, sh[c]); /* many equal keys */
        check_team_sort(k, 2, sizes[i], 1000000, sh[c]);
      }
      check_team_sort(k, 2, nmax, 7, sh[c]);
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_reduce, t_setup),
      cmocka_unit_test_setup(test_scan, t_setup),
      cmocka_unit_test_setup(test_single_broadcast, t_setup),
      cmocka_unit_test_setup(test_launch_bounds, t_setup),
      cmocka_unit_test_setup(test_auto_team_size, t_setup),
      cmocka_unit_test_setup(test_atomics, t_setup), cmocka_unit_test_setup(test_memory_fence, t_setup),
      cmocka_unit_test_setup(test_atomic_minmax_special, t_setup),
      cmocka_unit_test_setup(test_load_hints, t_setup),
      cmocka_unit_test_setup(test_sources_of_one_name, t_setup),
      cmocka_unit_test_setup(test_team_sort, t_setup),
  };
  return T_RUN("kl", tests);
}
