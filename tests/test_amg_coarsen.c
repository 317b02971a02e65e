/* strata tests — AMG's strength of connection and C/F splittings (solvers/src/amg_impl.h, tested
 * directly): S against a host strength oracle; every method's splitting against a host replica of
 * its device formulation (the same cf, bit for bit) and the serial backend; RS's first pass against
 * the sequential algorithm (a bucket queue); the C/F properties (every F point with a strong C point
 * unless isolated; RS and CLJP: every strong F–F pair shares a strong C point; PMIS: C points
 * independent), coarse fractions, the 1D Laplacian by hand, Dirichlet and zero rows, positive
 * off-diagonals, a disconnected graph, 1 × 1, diagonal matrices, n = 1, 2, 3 (S17 / S19), seeds,
 * n = 0 and bad input. */
#include "test_common.h"

#include "amg_impl.h"
#include "test_sparse_host.h"
#include "sptrsv_host.h"

static const char *const METHOD[4] = {"RS", "CLJP", "PMIS", "HMIS"};

/* ------------------------------------------------------------------ matrices */

static host_crs_t lap1d(int32_t n) { return hc_lap1d(n); }

/* The 9-point Laplacian on an nx x ny grid (8 on the diagonal, -1 to the 8 neighbours): a graph
 * with triangles, where CLJP's second rule acts. */
static host_crs_t lap9(int32_t nx, int32_t ny) {
  host_crs_t h = hc_new(nx * ny, nx * ny, 9 * (int64_t)nx * ny);
  for (int32_t y = 0; y < ny; ++y)
    for (int32_t x = 0; x < nx; ++x) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= ny) continue;
          hc_push(&h, (x + dx) + nx * (y + dy), dx == 0 && dy == 0 ? 8.0 : -1.0);
        }
      h.ro[x + nx * y + 1] = h.nnz;
    }
  return h;
}

/* A random sparse matrix: each row a diagonal of random sign and up to `per` off-diagonal entries
 * of mixed signs and sizes (some explicit zeros), columns sorted and unique; some rows zero. */
static host_crs_t random_matrix(int32_t n, int per) {
  host_crs_t h = hc_new(n, n, (int64_t)n * (per + 1));
  char *used = (char *)t_malloc((size_t)n);
  memset(used, 0, (size_t)n);
  for (int32_t i = 0; i < n; ++i) {
    const uint64_t kind = t_rand(&T_rng) % 16;
    if (kind != 0) {
      used[i] = 1;
      const int m = (int)(t_rand(&T_rng) % (uint64_t)(per + 1));
      for (int k = 0; k < m; ++k) used[t_rand(&T_rng) % (uint64_t)n] = 1;
      for (int32_t j = 0; j < n; ++j) {
        if (!used[j]) continue;
        used[j] = 0;
        double v;
        if (j == i)
          v = (kind == 1 ? -1.0 : 1.0) * (2.0 + 4.0 * t_uniform(&T_rng));
        else if (t_rand(&T_rng) % 10 == 0)
          v = 0.0;
        else
          v = (t_rand(&T_rng) % 4 == 0 ? 1.0 : -1.0) * (0.05 + t_uniform(&T_rng));
        hc_push(&h, j, v);
      }
    }
    h.ro[i + 1] = h.nnz;
  }
  free(used);
  return h;
}

/* ------------------------------------------------------------------ host oracles */

/* The classical strength of connection, written from the rule (Ruge–Stüben; a negative diagonal
 * flips the sign): j ≠ i strong iff -σ a_ij >= theta · max_{k≠i} (-σ a_ik) > 0, σ = sign(a_ii)
 * (+ for 0), and the row passes the row-sum test. */
static host_crs_t ref_strength(const host_crs_t *A, double theta, double mrs) {
  host_crs_t S = hc_new(A->nr, A->nc, A->nnz);
  for (int32_t i = 0; i < A->nr; ++i) {
    double d = 0, sum = 0, mx = 0;
    for (int64_t k = A->ro[i]; k < A->ro[i + 1]; ++k) {
      sum += A->v[k];
      if (A->ci[k] == i) d += A->v[k];
    }
    const double sg = d < 0 ? -1.0 : 1.0;
    for (int64_t k = A->ro[i]; k < A->ro[i + 1]; ++k)
      if (A->ci[k] != i && -sg * A->v[k] > mx) mx = -sg * A->v[k];
    const int rowsum_ok = mrs >= 1.0 || fabs(sum) <= mrs * fabs(d);
    if (mx > 0 && rowsum_ok)
      for (int64_t k = A->ro[i]; k < A->ro[i + 1]; ++k)
        if (A->ci[k] != i && -sg * A->v[k] >= theta * mx) hc_push(&S, A->ci[k], 1.0);
    S.ro[i + 1] = S.nnz;
  }
  return S;
}

static int has(const host_crs_t *S, int32_t i, int32_t j) {
  for (int64_t k = S->ro[i]; k < S->ro[i + 1]; ++k)
    if (S->ci[k] == j) return 1;
  return 0;
}
static int isolated(const host_crs_t *S, int32_t i) { return S->ro[i + 1] == S->ro[i]; }

/* The random numbers the splittings are specified with: splitmix64 output i + 1 of the stream
 * whose state is splitmix64's finalizer of the seed. */
static uint64_t fin64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint64_t rnd(uint64_t seed, uint64_t i) { return fin64(fin64(seed) + (i + 1) * 0x9e3779b97f4a7c15ull); }

/* A host replica of the device rounds (amg_coarsen.c's formulation), written over explicit edge
 * lists. */
typedef struct {
  int32_t n;
  const host_crs_t *S;
  host_crs_t T;
  int32_t *cf, *w, *cand, *cf1;
  char *alive, *alive1; /* per S entry; NULL: not CLJP */
} rep_t;

static rep_t rep_new(const host_crs_t *S) {
  rep_t r;
  memset(&r, 0, sizeof r);
  r.n = S->nr;
  r.S = S;
  r.T = hc_transpose(S);
  r.cf = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r.n);
  r.w = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r.n);
  r.cand = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r.n);
  r.cf1 = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r.n);
  for (int32_t i = 0; i < r.n; ++i) {
    r.cf[i] = isolated(S, i) ? -1 : 0;
    r.w[i] = (int32_t)(r.T.ro[i + 1] - r.T.ro[i]);
  }
  return r;
}
static void rep_free(rep_t *r) {
  host_crs_free(&r->T);
  free(r->cf);
  free(r->w);
  free(r->cand);
  free(r->cf1);
  free(r->alive);
  free(r->alive1);
}

/* position of edge k -> j in S */
static int64_t epos(const host_crs_t *S, int32_t k, int32_t j) {
  for (int64_t p = S->ro[k]; p < S->ro[k + 1]; ++p)
    if (S->ci[p] == j) return p;
  return -1;
}

static int key_gt(const int32_t *w, uint64_t seed, int shift, int small, int32_t i, int32_t j) {
  if (w[i] != w[j]) return w[i] > w[j];
  const uint64_t a = rnd(seed, (uint64_t)i >> shift), b = rnd(seed, (uint64_t)j >> shift);
  if (a != b) return a > b;
  return small ? i < j : i > j;
}

/* cand = the local maxima of the key among neighbours with state 0 */
static void rep_select(rep_t *r, const int32_t *state, const int32_t *w, uint64_t seed, int shift, int small) {
  for (int32_t i = 0; i < r->n; ++i) {
    int win = state[i] == 0;
    for (int64_t p = r->S->ro[i]; win && p < r->S->ro[i + 1]; ++p) {
      const int32_t j = r->S->ci[p];
      if (state[j] == 0 && (!r->alive || r->alive[p])) win = key_gt(w, seed, shift, small, i, j);
    }
    for (int64_t q = r->T.ro[i]; win && q < r->T.ro[i + 1]; ++q) {
      const int32_t j = r->T.ci[q];
      if (state[j] == 0 && (!r->alive || r->alive[epos(r->S, j, i)])) win = key_gt(w, seed, shift, small, i, j);
    }
    r->cand[i] = win;
  }
}

static int64_t rep_apply(rep_t *r, int mark_f) {
  int64_t u = 0;
  for (int32_t i = 0; i < r->n; ++i) {
    if (r->cand[i]) {
      r->cf[i] = 1;
    } else if (r->cf[i] == 0 && mark_f) {
      for (int64_t p = r->S->ro[i]; p < r->S->ro[i + 1]; ++p)
        if (r->cand[r->S->ci[p]]) r->cf[i] = -1;
    }
    u += r->cf[i] == 0;
  }
  return u;
}

static void rep_pmis(rep_t *r, uint64_t seed) {
  int64_t u = 1;
  while (u > 0) {
    rep_select(r, r->cf, r->w, seed, 0, 0);
    u = rep_apply(r, 1);
  }
}

static void rep_rs_first(rep_t *r) {
  int64_t u = 1;
  while (u > 0) {
    for (int32_t k = 0; k < r->n; ++k) {
      if (r->cf[k] != 0) continue;
      int32_t m = 0;
      for (int64_t q = r->T.ro[k]; q < r->T.ro[k + 1]; ++q) m += r->cf[r->T.ci[q]] == 0 ? 1 : r->cf[r->T.ci[q]] < 0 ? 2 : 0;
      r->w[k] = m;
    }
    rep_select(r, r->cf, r->w, 0x5253u, 5, 1);
    u = rep_apply(r, 1);
  }
}

/* strong F–F pair x -> y with no C point in S_x ∩ S_y (y not isolated) */
static int ff_bad(const host_crs_t *S, const int32_t *cf, int32_t x, int32_t y) {
  if (cf[x] != -1 || cf[y] != -1 || isolated(S, y)) return 0;
  for (int64_t p = S->ro[x]; p < S->ro[x + 1]; ++p)
    if (cf[S->ci[p]] == 1 && has(S, y, S->ci[p])) return 0;
  return 1;
}

static void rep_rs_second(rep_t *r) {
  int32_t *v = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r->n), *state = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)r->n);
  for (;;) {
    int64_t bad = 0;
    for (int32_t i = 0; i < r->n; ++i) v[i] = 0;
    for (int32_t x = 0; x < r->n; ++x)
      for (int64_t p = r->S->ro[x]; p < r->S->ro[x + 1]; ++p)
        if (ff_bad(r->S, r->cf, x, r->S->ci[p])) {
          ++v[x];
          ++v[r->S->ci[p]];
          bad += 2;
        }
    if (!bad) break;
    for (int32_t i = 0; i < r->n; ++i) state[i] = v[i] > 0 ? 0 : 1;
    rep_select(r, state, v, 0x52533250u, 0, 0);
    rep_apply(r, 0);
  }
  free(v);
  free(state);
}

static void rep_cljp(rep_t *r, uint64_t seed) {
  const host_crs_t *S = r->S;
  r->alive = (char *)t_malloc((size_t)S->nnz + 1);
  r->alive1 = (char *)t_malloc((size_t)S->nnz + 1);
  memset(r->alive, 1, (size_t)S->nnz + 1);
  int64_t u = 1;
  while (u > 0) {
    rep_select(r, r->cf, r->w, seed, 0, 0);
    u = 0;
    for (int32_t j = 0; j < r->n; ++j) {
      int32_t dec = 0;
      for (int64_t q = r->T.ro[j]; q < r->T.ro[j + 1]; ++q) {
        const int32_t k = r->T.ci[q];
        const int64_t p = epos(S, k, j);
        int keep = r->alive[p];
        if (keep && r->cand[k]) {
          keep = 0;
          ++dec;
        } else if (keep && r->cand[j]) {
          keep = 0;
        } else if (keep) {
          for (int64_t e = S->ro[k]; keep && e < S->ro[k + 1]; ++e) {
            const int32_t i = S->ci[e];
            if (i == j || !r->cand[i] || !r->alive[e]) continue;
            const int64_t f = epos(S, j, i);
            if (f >= 0 && r->alive[f]) {
              keep = 0;
              ++dec;
            }
          }
        }
        r->alive1[p] = (char)keep;
      }
      int32_t c = r->cf[j];
      if (r->cand[j]) {
        c = 1;
      } else if (c == 0) {
        r->w[j] -= dec;
        if (r->w[j] <= 0)
          for (int64_t p = S->ro[j]; p < S->ro[j + 1]; ++p)
            if (r->cf[S->ci[p]] == 1 || r->cand[S->ci[p]]) c = -1;
      }
      r->cf1[j] = c;
      u += c == 0;
    }
    memcpy(r->alive, r->alive1, (size_t)S->nnz + 1);
    memcpy(r->cf, r->cf1, sizeof(int32_t) * (size_t)r->n);
  }
}

/* The replica's splitting of S by method into cf (host, n). */
static void ref_coarsen(const host_crs_t *S, int method, uint64_t seed, int32_t *cf) {
  rep_t r = rep_new(S);
  if (method == STRATA_AMG_PMIS) rep_pmis(&r, seed);
  if (method == STRATA_AMG_CLJP) rep_cljp(&r, seed);
  if (method == STRATA_AMG_RS || method == STRATA_AMG_HMIS) rep_rs_first(&r);
  if (method == STRATA_AMG_RS) rep_rs_second(&r);
  if (method == STRATA_AMG_HMIS) {
    for (int32_t i = 0; i < r.n; ++i) {
      r.cand[i] = r.cf[i] == 1;
      r.cf[i] = isolated(S, i) ? -1 : 0;
      r.w[i] = (int32_t)(r.T.ro[i + 1] - r.T.ro[i]);
    }
    if (rep_apply(&r, 1) > 0) rep_pmis(&r, seed);
  }
  memcpy(cf, r.cf, sizeof(int32_t) * (size_t)r.n);
  rep_free(&r);
}

/* The sequential RS first pass (Ruge–Stüben): a bucket queue of the undecided points by λ
 * (doubly linked lists, a new member at the head); take the head of the highest bucket: C, its
 * undecided dependents F (λ += 1 for their undecided influencers), λ -= 1 for its undecided
 * influencers. */
static void seq_rs_first(const host_crs_t *S, int32_t *cf) {
  const int32_t n = S->nr;
  host_crs_t T = hc_transpose(S);
  int32_t *lam = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n), *prev = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n),
          *next = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  const int32_t nb = 2 * n + 2;
  int32_t *head = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)nb), top = 0;
  for (int32_t b = 0; b < nb; ++b) head[b] = -1;
#define RS_UNLINK(x)                               \
  do {                                             \
    if (prev[x] >= 0)                              \
      next[prev[x]] = next[x];                     \
    else                                           \
      head[lam[x]] = next[x];                      \
    if (next[x] >= 0) prev[next[x]] = prev[x];     \
  } while (0)
#define RS_LINK(x)                                 \
  do {                                             \
    prev[x] = -1;                                  \
    next[x] = head[lam[x]];                        \
    if (next[x] >= 0) prev[next[x]] = x;           \
    head[lam[x]] = x;                              \
    if (lam[x] > top) top = lam[x];                \
  } while (0)
  for (int32_t i = 0; i < n; ++i) {
    cf[i] = isolated(S, i) ? -1 : 0;
    lam[i] = (int32_t)(T.ro[i + 1] - T.ro[i]);
    if (cf[i] == 0) RS_LINK(i);
  }
  for (;;) {
    while (top > 0 && head[top] < 0) --top;
    const int32_t i = head[top];
    if (i < 0) break;
    RS_UNLINK(i);
    cf[i] = 1;
    for (int64_t q = T.ro[i]; q < T.ro[i + 1]; ++q) {
      const int32_t j = T.ci[q];
      if (cf[j] != 0) continue;
      RS_UNLINK(j);
      cf[j] = -1;
      for (int64_t p = S->ro[j]; p < S->ro[j + 1]; ++p) {
        const int32_t k = S->ci[p];
        if (cf[k] != 0) continue;
        RS_UNLINK(k);
        ++lam[k];
        RS_LINK(k);
      }
    }
    for (int64_t p = S->ro[i]; p < S->ro[i + 1]; ++p) {
      const int32_t k = S->ci[p];
      if (cf[k] != 0) continue;
      RS_UNLINK(k);
      --lam[k];
      RS_LINK(k);
    }
  }
#undef RS_UNLINK
#undef RS_LINK
  free(lam);
  free(prev);
  free(next);
  free(head);
  host_crs_free(&T);
}

/* ------------------------------------------------------------------ running */

static host_crs_t strength_on(strata_exec_t *exec, const host_crs_t *A, double theta, double mrs) {
  strata_crs_matrix_t *dA = hc_on(exec, A), *dS = NULL;
  T_OK(strata_impl_amg_strength(exec, dA, theta, mrs, &dS));
  assert_int_equal(dS->fill_complete, 1);
  host_crs_t S = crs_to_host(dS);
  strata_crs_destroy(&dA);
  strata_crs_destroy(&dS);
  return S;
}

/* cf (host, n) of method on exec for host S; returns num_coarse. cf poisoned before. */
static int32_t coarsen_on(strata_exec_t *exec, const host_crs_t *S, int method, uint64_t seed, int32_t *cf) {
  strata_crs_matrix_t *dS = hc_on(exec, S);
  void *dcf = NULL;
  T_OK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)S->nr, &dcf));
  T_OK(strata_mem_set_async(exec, dcf, 0x7B, sizeof(int32_t) * (size_t)S->nr));
  int32_t nc = -7;
  T_OK(strata_impl_amg_coarsen(exec, dS, (strata_amg_coarsen_t)method, seed, (int32_t *)dcf, &nc));
  T_OK(strata_mem_copy(exec, cf, dcf, sizeof(int32_t) * (size_t)S->nr));
  strata_mem_free(exec, STRATA_MEM_DEVICE, &dcf);
  strata_crs_destroy(&dS);
  return nc;
}

static int32_t count_c(const int32_t *cf, int32_t n) {
  int32_t c = 0;
  for (int32_t i = 0; i < n; ++i) c += cf[i] == 1;
  return c;
}

static void expect_same_cf(const char *what, const int32_t *want, const int32_t *got, int32_t n) {
  for (int32_t i = 0; i < n; ++i)
    if (want[i] != got[i])
      fail_msg("%s: cf[%d] = %d, expected %d (seed %llu)", what, i, got[i], want[i], (unsigned long long)T_seed);
}

/* The C/F properties every splitting has: values in {1, -1}; every F point not isolated has a C
 * point in its row of S; an isolated point is F. h1: every strong F–F pair shares a C point.
 * independent: no C point has a C point in its row of S. */
static void check_props(const char *what, const host_crs_t *S, const int32_t *cf, int h1, int independent) {
  for (int32_t i = 0; i < S->nr; ++i) {
    if (cf[i] != 1 && cf[i] != -1) fail_msg("%s: cf[%d] = %d (neither C nor F)", what, i, cf[i]);
    if (isolated(S, i) && cf[i] != -1) fail_msg("%s: isolated point %d is not F", what, i);
    int c = 0;
    for (int64_t p = S->ro[i]; p < S->ro[i + 1]; ++p) c += cf[S->ci[p]] == 1;
    if (cf[i] == -1 && !isolated(S, i) && c == 0) fail_msg("%s: F point %d has no strong C point", what, i);
    if (independent && cf[i] == 1 && c > 0) fail_msg("%s: C point %d depends on a C point", what, i);
    if (h1)
      for (int64_t p = S->ro[i]; p < S->ro[i + 1]; ++p)
        if (ff_bad(S, cf, i, S->ci[p])) fail_msg("%s: F-F pair (%d, %d) shares no C point", what, i, S->ci[p]);
  }
}

/* Every method on S: the backend equals the replica and the serial backend, num_coarse counts C,
 * the properties hold (symmetric: CLJP's F–F pairs, PMIS's and HMIS's independence). */
static void check_all(const char *name, const host_crs_t *S, uint64_t seed, int symmetric) {
  const int32_t n = S->nr;
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n), *ref = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n),
          *ser = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  for (int m = 0; m < 4; ++m) {
    char what[160];
    snprintf(what, sizeof what, "%s, %s, seed %llu", name, METHOD[m], (unsigned long long)seed);
    const int32_t nc = coarsen_on(T_exec, S, m, seed, cf);
    ref_coarsen(S, m, seed, ref);
    expect_same_cf(what, ref, cf, n);
    if (T_exec != T_serial) {
      const int32_t ns = coarsen_on(T_serial, S, m, seed, ser);
      expect_same_cf(what, ser, cf, n);
      assert_int_equal(ns, nc);
    }
    assert_int_equal(nc, count_c(cf, n));
    check_props(what, S, cf, m == STRATA_AMG_RS || (m == STRATA_AMG_CLJP && symmetric),
                symmetric && (m == STRATA_AMG_PMIS || m == STRATA_AMG_HMIS));
  }
  free(cf);
  free(ref);
  free(ser);
}

/* ------------------------------------------------------------------ strength tests */

static void test_strength_oracle(void **state) {
  (void)state;
  const double thetas[3] = {0.25, 0.5, 0.9}, mrss[3] = {1.0, 0.9, 0.5};
  for (int c = 0; c < 6; ++c) {
    host_crs_t A = c == 0 ? hc_poisson(12, 9, 1) : c == 1 ? hc_poisson(6, 5, 4) : c == 2 ? lap1d(17) : random_matrix(200 + 50 * c, 8);
    for (int t = 0; t < 3; ++t)
      for (int r = 0; r < 3; ++r) {
        char what[96];
        snprintf(what, sizeof what, "strength case %d, theta %g, max_row_sum %g", c, thetas[t], mrss[r]);
        host_crs_t want = ref_strength(&A, thetas[t], mrss[r]), got = strength_on(T_exec, &A, thetas[t], mrss[r]);
        expect_same_crs(what, &want, &got);
        host_crs_free(&want);
        host_crs_free(&got);
      }
    host_crs_free(&A);
  }
}

static void test_strength_by_hand(void **state) {
  (void)state;
  /* row 0: positive diagonal, -1 strong, -0.2 weak at theta 0.25, +0.5 weak (sign), -0.25 strong
   * (exactly theta times the largest: the rule is >=);
   * row 1: negative diagonal, +3 strong (flipped), -0.5 weak (sign);
   * row 2: Dirichlet (diagonal only); row 3: only positive off-diagonals; row 4: zero row;
   * row 5: 1, -0.05 (row sum 0.95: weak under max_row_sum 0.9, strong with the test off) */
  const double a[6 * 6] = {1, -1, -0.2, 0.5, -0.25, 0, /**/ 3, -4, 0, -0.5, 0, 0, /**/ 0, 0, 5, 0, 0, 0,
                           0, 0.5, 0, 2, 0.5, 0,  /**/ 0, 0, 0, 0, 0, 0,     /**/ 0, 0, 0, 0, -0.05, 1};
  host_crs_t A = hc_dense(6, 6, a);
  host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
  const int64_t ro[7] = {0, 2, 3, 3, 3, 3, 3};
  const int32_t ci[3] = {1, 4, 0};
  for (int i = 0; i <= 6; ++i) assert_int_equal(S.ro[i], ro[i]);
  for (int k = 0; k < 3; ++k) {
    assert_int_equal(S.ci[k], ci[k]);
    assert_true(S.v[k] == 1.0);
  }
  host_crs_free(&S);
  S = strength_on(T_exec, &A, 0.25, 1.0);
  assert_int_equal(S.nnz, 4);
  assert_int_equal(S.ro[6] - S.ro[5], 1);
  assert_int_equal(S.ci[3], 4);
  host_crs_free(&S);
  /* theta 0.1: -0.2 becomes strong in row 0 */
  S = strength_on(T_exec, &A, 0.1, 0.9);
  assert_int_equal(S.ro[1], 3);
  assert_int_equal(S.ci[1], 2);
  host_crs_free(&S);
  host_crs_free(&A);
}

static void test_strength_bad_input(void **state) {
  (void)state;
  host_crs_t A = lap1d(4);
  strata_crs_matrix_t *dA = hc_on(T_exec, &A), *S = NULL;
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 0.0, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "theta = 0", "(0, 1)");
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 1.0, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "theta = 1", "(0, 1)");
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 1.5, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "theta = 1.5", NULL);
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, -0.25, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "theta = -0.25", NULL);
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, NAN, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "theta = nan", NULL);
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 0.25, 1.2, &S), STRATA_ERR_INVALID_ARGUMENT, "max_row_sum = 1.2",
               "(0, 1]");
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 0.25, 0.0, &S), STRATA_ERR_INVALID_ARGUMENT, "max_row_sum = 0", NULL);
  assert_null(S);
  t_expect_msg(strata_impl_amg_strength(T_exec, NULL, 0.25, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "NULL", NULL);
  T_ERR(strata_impl_amg_strength(T_exec, dA, 0.25, 1.0, NULL), STRATA_ERR_INVALID_ARGUMENT);
  strata_crs_destroy(&dA);
  host_crs_free(&A);
  /* not square */
  const double r[2 * 3] = {2, -1, 0, -1, 2, -1};
  host_crs_t R = hc_dense(2, 3, r);
  dA = hc_on(T_exec, &R);
  t_expect_msg(strata_impl_amg_strength(T_exec, dA, 0.25, 1.0, &S), STRATA_ERR_INVALID_ARGUMENT, "2 x 3", "square");
  strata_crs_destroy(&dA);
  host_crs_free(&R);
  /* n = 0 */
  host_crs_t Z = hc_new(0, 0, 0);
  dA = hc_on(T_exec, &Z);
  T_OK(strata_impl_amg_strength(T_exec, dA, 0.25, 0.9, &S));
  assert_int_equal(S->num_rows, 0);
  assert_int_equal(S->nnz, 0);
  strata_crs_destroy(&S);
  strata_crs_destroy(&dA);
  host_crs_free(&Z);
}

/* ------------------------------------------------------------------ coarsening tests */

static void test_coarsen_laplacians(void **state) {
  (void)state;
  const int grids[6][3] = {{40, 1, 1}, {1000, 1, 1}, {24, 24, 1}, {64, 48, 1}, {12, 10, 9}, {21, 17, 0}};
  for (int g = 0; g < 6; ++g) {
    host_crs_t A = grids[g][1] == 1   ? lap1d(grids[g][0])
                   : grids[g][2] == 0 ? lap9(grids[g][0], grids[g][1])
                                      : hc_poisson(grids[g][0], grids[g][1], grids[g][2]);
    host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
    char name[64];
    snprintf(name, sizeof name, "laplacian %dx%dx%d%s", grids[g][0], grids[g][1], grids[g][2],
             grids[g][2] == 0 ? " (9-point)" : "");
    for (uint64_t seed = 1; seed <= 2; ++seed) check_all(name, &S, seed, 1);
    host_crs_free(&S);
    host_crs_free(&A);
  }
}

/* Coarse fractions: RS on the 2D 5-point Laplacian about 1/2 (the sequential algorithm's red-black
 * splitting: exactly 1/2 of the interior), near the sequential first pass; PMIS and HMIS below RS;
 * CLJP above PMIS. */
static void test_coarse_fractions(void **state) {
  (void)state;
  host_crs_t A = hc_poisson(64, 64, 1), A3 = hc_poisson(16, 16, 16);
  for (int d = 0; d < 2; ++d) {
    host_crs_t S = strength_on(T_exec, d ? &A3 : &A, 0.25, 0.9);
    const int32_t n = S.nr;
    int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
    double f[4];
    for (int m = 0; m < 4; ++m) f[m] = (double)coarsen_on(T_exec, &S, m, 3, cf) / n;
    seq_rs_first(&S, cf);
    check_props("sequential RS first pass", &S, cf, 0, 1);
    const double fseq = (double)count_c(cf, n) / n;
    print_message("%dD: coarse fractions RS %.3f (sequential first pass %.3f), CLJP %.3f, PMIS %.3f, HMIS %.3f\n",
                  d ? 3 : 2, f[0], fseq, f[1], f[2], f[3]);
    assert_true(fseq > 0.45 && fseq < 0.55);
    assert_true(f[0] > 0.45 && f[0] < 0.62);
    assert_true(f[3] > 0.3 && f[3] <= f[0]);
    assert_true(f[2] > 0.1 && f[2] < f[0]);
    assert_true(f[1] > f[2] && f[1] < 0.7);
    free(cf);
    host_crs_free(&S);
  }
  host_crs_free(&A);
  host_crs_free(&A3);
}

/* The 1D Laplacian: RS takes every other point (by hand: F C F C ...), as the sequential algorithm
 * does; n = 1, 2, 3 (EDGE_CASES S17 / S19 sizes). */
static void test_1d_by_hand(void **state) {
  (void)state;
  for (int32_t n = 1; n <= 32; ++n) {
    host_crs_t A = lap1d(n);
    host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
    int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n), *seq = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
    for (int m = 0; m < 4; m += 3) { /* RS and HMIS */
      const int32_t nc = coarsen_on(T_exec, &S, m, 1, cf);
      assert_int_equal(nc, n / 2);
      for (int32_t i = 0; i < n; ++i) { /* n = 2: both have one dependent, the smaller index wins */
        const int32_t want = (n == 2 ? i == 0 : i % 2 == 1) ? 1 : -1;
        if (cf[i] != want) fail_msg("1D n = %d, %s: cf[%d] = %d, expected %d", n, METHOD[m], i, cf[i], want);
      }
    }
    /* the sequential first pass: every other point too (which phase is its tie-break's choice) */
    seq_rs_first(&S, seq);
    for (int32_t i = 1; i < n; ++i) assert_int_not_equal(seq[i], seq[i - 1]);
    if (n == 1) {
      assert_int_equal(S.nnz, 0);
      for (int m = 0; m < 4; ++m) {
        assert_int_equal(coarsen_on(T_exec, &S, m, 1, cf), 0);
        assert_int_equal(cf[0], -1);
      }
    }
    if (n <= 3)
      for (int m = 1; m < 3; ++m) {
        const int32_t nc = coarsen_on(T_exec, &S, m, 1, cf);
        assert_int_equal(nc, count_c(cf, n));
        check_props("1D small", &S, cf, m == STRATA_AMG_CLJP, m == STRATA_AMG_PMIS);
      }
    free(cf);
    free(seq);
    host_crs_free(&S);
    host_crs_free(&A);
  }
}

/* Dirichlet rows, zero rows, positive off-diagonals, a disconnected graph, random nonsymmetric
 * graphs. */
static void test_special_rows(void **state) {
  (void)state;
  /* a 2D Laplacian with its boundary rows made Dirichlet (diagonal only; other rows still
   * reference them), some rows zero and some with positive off-diagonals only */
  host_crs_t P = hc_poisson(15, 13, 1);
  host_crs_t A = hc_new(P.nr, P.nc, P.nnz);
  for (int32_t i = 0; i < P.nr; ++i) {
    const int32_t x = i % 15, y = i / 15;
    const int dir = x == 0 || y == 0 || x == 14 || y == 12, zero = i % 17 == 5, pos = i % 23 == 7;
    for (int64_t k = P.ro[i]; k < P.ro[i + 1]; ++k) {
      if (zero) continue;
      if (dir && P.ci[k] != i) continue;
      hc_push(&A, P.ci[k], pos && P.ci[k] != i ? 1.0 : P.v[k]);
    }
    A.ro[i + 1] = A.nnz;
  }
  host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
  int32_t *cf = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)S.nr);
  for (int32_t i = 0; i < P.nr; ++i) {
    const int32_t x = i % 15, y = i / 15;
    if (x == 0 || y == 0 || x == 14 || y == 12 || i % 17 == 5 || i % 23 == 7) assert_true(isolated(&S, i));
  }
  for (int m = 0; m < 4; ++m) {
    coarsen_on(T_exec, &S, m, 4, cf);
    for (int32_t i = 0; i < S.nr; ++i)
      if (isolated(&S, i)) assert_int_equal(cf[i], -1);
  }
  check_all("dirichlet/zero/positive rows", &S, 4, 0);
  free(cf);
  host_crs_free(&S);
  host_crs_free(&A);
  host_crs_free(&P);
  /* two disconnected Laplacians (block diagonal) */
  host_crs_t L1 = hc_poisson(9, 7, 1), L2 = lap1d(30);
  host_crs_t D = hc_new(L1.nr + L2.nr, L1.nr + L2.nr, L1.nnz + L2.nnz);
  for (int32_t i = 0; i < D.nr; ++i) {
    const host_crs_t *B = i < L1.nr ? &L1 : &L2;
    const int32_t r = i < L1.nr ? i : i - L1.nr, off = i < L1.nr ? 0 : L1.nr;
    for (int64_t k = B->ro[r]; k < B->ro[r + 1]; ++k) hc_push(&D, B->ci[k] + off, B->v[k]);
    D.ro[i + 1] = D.nnz;
  }
  S = strength_on(T_exec, &D, 0.25, 0.9);
  check_all("disconnected", &S, 9, 1);
  host_crs_free(&S);
  host_crs_free(&D);
  host_crs_free(&L1);
  host_crs_free(&L2);
  /* random nonsymmetric graphs */
  for (int r = 0; r < 4; ++r) {
    host_crs_t R = random_matrix(300 + 97 * r, 6);
    S = strength_on(T_exec, &R, 0.25, r % 2 ? 0.9 : 1.0);
    check_all("random", &S, 11 + (uint64_t)r, 0);
    host_crs_free(&S);
    host_crs_free(&R);
  }
}

/* A 1 × 1 matrix, diagonal matrices (S17: I₁₀, diag(1..10)): no strong connection, every point
 * isolated, no coarse point. */
static void test_no_coarse_grid(void **state) {
  (void)state;
  double d[100] = {0}, e[100] = {0};
  for (int i = 0; i < 10; ++i) {
    d[i * 11] = 1.0;
    e[i * 11] = 1.0 + i;
  }
  const double one[1] = {2.0};
  host_crs_t mats[3] = {hc_dense(1, 1, one), hc_dense(10, 10, d), hc_dense(10, 10, e)};
  int32_t cf[10];
  for (int c = 0; c < 3; ++c) {
    host_crs_t S = strength_on(T_exec, &mats[c], 0.25, 0.9);
    assert_int_equal(S.nnz, 0);
    for (int m = 0; m < 4; ++m) {
      assert_int_equal(coarsen_on(T_exec, &S, m, 1, cf), 0);
      for (int32_t i = 0; i < S.nr; ++i) assert_int_equal(cf[i], -1);
    }
    host_crs_free(&S);
    host_crs_free(&mats[c]);
  }
}

/* The same splitting for the same seed, another for another seed (PMIS, CLJP). */
static void test_seeds(void **state) {
  (void)state;
  host_crs_t A = hc_poisson(20, 20, 1);
  host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
  const int32_t n = S.nr;
  int32_t *a = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n), *b = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n),
          *c = (int32_t *)t_malloc(sizeof(int32_t) * (size_t)n);
  for (int m = 1; m <= 2; ++m) {
    coarsen_on(T_exec, &S, m, 5, a);
    coarsen_on(T_exec, &S, m, 5, b);
    coarsen_on(T_exec, &S, m, 6, c);
    assert_memory_equal(a, b, sizeof(int32_t) * (size_t)n);
    assert_memory_not_equal(a, c, sizeof(int32_t) * (size_t)n);
  }
  /* RS takes no seed */
  coarsen_on(T_exec, &S, STRATA_AMG_RS, 5, a);
  coarsen_on(T_exec, &S, STRATA_AMG_RS, 6, b);
  assert_memory_equal(a, b, sizeof(int32_t) * (size_t)n);
  free(a);
  free(b);
  free(c);
  host_crs_free(&S);
  host_crs_free(&A);
}

static void test_coarsen_empty_and_bad(void **state) {
  (void)state;
  host_crs_t Z = hc_new(0, 0, 0);
  strata_crs_matrix_t *dZ = hc_on(T_exec, &Z);
  for (int m = 0; m < 4; ++m) {
    int32_t nc = -1;
    T_OK(strata_impl_amg_coarsen(T_exec, dZ, (strata_amg_coarsen_t)m, 1, NULL, &nc));
    assert_int_equal(nc, 0);
  }
  strata_crs_destroy(&dZ);
  host_crs_free(&Z);
  host_crs_t A = lap1d(5);
  host_crs_t S = strength_on(T_exec, &A, 0.25, 0.9);
  strata_crs_matrix_t *dS = hc_on(T_exec, &S);
  int32_t *cf = (int32_t *)t_dev_alloc(sizeof(int32_t) * 5), nc = 0;
  t_expect_msg(strata_impl_amg_coarsen(T_exec, dS, (strata_amg_coarsen_t)7, 1, cf, &nc), STRATA_ERR_INVALID_ARGUMENT,
               "method = 7", NULL);
  t_expect_msg(strata_impl_amg_coarsen(T_exec, dS, STRATA_AMG_RS, 1, NULL, &nc), STRATA_ERR_INVALID_ARGUMENT, "NULL cf",
               "5 points");
  T_ERR(strata_impl_amg_coarsen(T_exec, dS, STRATA_AMG_RS, 1, cf, NULL), STRATA_ERR_INVALID_ARGUMENT);
  T_ERR(strata_impl_amg_coarsen(T_exec, NULL, STRATA_AMG_RS, 1, cf, &nc), STRATA_ERR_INVALID_ARGUMENT);
  t_dev_free(cf);
  strata_crs_destroy(&dS);
  const double r[2 * 3] = {0, 1, 0, 1, 0, 1};
  host_crs_t R = hc_dense(2, 3, r);
  dS = hc_on(T_exec, &R);
  cf = (int32_t *)t_dev_alloc(sizeof(int32_t) * 2);
  t_expect_msg(strata_impl_amg_coarsen(T_exec, dS, STRATA_AMG_PMIS, 1, cf, &nc), STRATA_ERR_INVALID_ARGUMENT, "2 x 3",
               "square");
  t_dev_free(cf);
  strata_crs_destroy(&dS);
  host_crs_free(&R);
  host_crs_free(&S);
  host_crs_free(&A);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_strength_oracle, t_setup),    cmocka_unit_test_setup(test_strength_by_hand, t_setup),
      cmocka_unit_test_setup(test_strength_bad_input, t_setup), cmocka_unit_test_setup(test_coarsen_laplacians, t_setup),
      cmocka_unit_test_setup(test_coarse_fractions, t_setup),   cmocka_unit_test_setup(test_1d_by_hand, t_setup),
      cmocka_unit_test_setup(test_special_rows, t_setup),       cmocka_unit_test_setup(test_no_coarse_grid, t_setup),
      cmocka_unit_test_setup(test_seeds, t_setup),              cmocka_unit_test_setup(test_coarsen_empty_and_bad, t_setup),
  };
  return T_RUN("amg_coarsen", tests);
}
