/* strata solvers — AMG's C/F splittings (amg_impl.h) on the device, in rounds of pull kernels
 * (solvers/kernels/amg_coarsen.kl.c): each round a selection kernel, an update kernel whose SUM
 * reduce gives the host the points still undecided, so the host does O(1) work per round. Every
 * choice is made by a strict total order of keys (an integer weight, a 64-bit counter-based hash,
 * the index), so each splitting is deterministic — the same bits on every backend — for a seed.
 *
 * Notation: S_i, the points i strongly depends on (its influencers); Sᵀ_i, the points that strongly
 * depend on i; a point's neighbours, S_i ∪ Sᵀ_i. Isolated points — no strong influencer, an empty
 * row of S (Dirichlet rows, zero rows, rows that fail the row-sum test or have no off-diagonal of
 * the right sign) — are F from the start with nothing to interpolate from, as hypre's special F
 * points: the smoother gives their value. "i beats j": i's key is larger.
 *
 * PMIS (De Sterck, Yang, Heys 2006): key (|Sᵀ_i|, h(seed, i), i) — the weight |Sᵀ_i| + r_i with
 * r_i = h·2⁻⁶⁴ in [0, 1), exact ties by index. A round: every undecided point that beats all its
 * undecided neighbours becomes C (an independent set); every undecided point that strongly depends
 * on a new C point becomes F. Until none is undecided. One difference from the paper, which makes
 * the points of weight < 1 (no strong dependents) F at once: here they stay in the competition
 * (they lose to every neighbour of weight >= 1), so they become F only by depending on a C point,
 * or C when all their influencers became F — every F point has a strong C point to interpolate from.
 * For a symmetric S the two agree (weight < 1 there means isolated).
 *
 * CLJP (Cleary, Jones, Luby, Plassmann 1998), the same weights in the integer part w_i (initially
 * |Sᵀ_i|) and the graph of S's edges, each alive until removed. A round: the undecided points that
 * beat all undecided neighbours over alive edges are the new C points D; then for every alive edge
 * k -> j (k depends on j), with the flags and D of the round's start:
 *   rule 1: k ∈ D — the edge goes, w_j -= 1 (values at C points are not interpolated);
 *   j ∈ D — the edge goes (k's dependence on a C point is met);
 *   rule 2: some i ∈ D (i ≠ j) with k -> i and j -> i alive — the edge goes, w_j -= 1 (k reaches
 *   j's value through i); each edge is removed, and counted, once.
 * Then an undecided j with w_j + r_j < 1 (w_j <= 0: no alive edge into it) becomes F when it has a
 * C point in S_j (for a symmetric S it always has one; for a nonsymmetric S a point without one
 * stays undecided and is taken as C when it wins). CLJP's C points are not an
 * independent set across rounds: a later round may pick a neighbour of an earlier C point.
 *
 * RS (Ruge–Stüben), first pass: the measure λ_i = |Sᵀ_i ∩ U| + 2·|Sᵀ_i ∩ F| (U the undecided points;
 * the sequential algorithm's λ after its updates +1 for the influencers of a new F point and -1 for
 * the influencers of a new C point), key (λ_i, h(c, i >> 5), -i). The sequential algorithm takes one
 * point of largest λ at a time (the host oracle: a bucket queue); the device takes, per round, every
 * undecided point that beats all its undecided neighbours — an independent set of local maxima of
 * λ — makes them C, the undecided points that depend on them F, and recomputes λ. The tie-break
 * among equal λ is the smaller index within blocks of 32 consecutive rows and a fixed hash between
 * blocks: inside a block the rounds grow the sequential algorithm's wave (the same splitting as the
 * sequential one when one point wins per round, e.g. the 1D Laplacian of up to 32 points), while
 * the blocks start their waves in parallel (the index alone would make the rounds O(n) on a path).
 * The splittings differ from the sequential ones where waves meet; both have the first-pass
 * property: every F point depends strongly on a C point, or is isolated.
 * RS second pass: a strong F–F pair (a, b), b ∈ S_a, b not isolated, is bad when no C point is in
 * S_a ∩ S_b (b is not reached through a C point of a, as standard interpolation needs). Each
 * round counts v_i, the bad pairs through i, and makes C the points with v_i > 0 that beat every
 * neighbour with v > 0 by the key (v_i, h(c', i), i) — the points in most bad pairs first — until
 * no pair is bad (making points C never makes a good pair bad).
 *
 * HMIS (De Sterck, Yang, Heys 2006): RS's first pass, its C points PMIS's first independent set (their
 * undecided dependents F), then PMIS's rounds on what is left undecided. On one device every first-
 * pass F point depends on a C point, so the result is the first pass (as hypre's HMIS on one
 * process); the PMIS rounds finish any point left. */
#include "../kernels/amg_coarsen_args.h"
#include "amg_impl.h"

STRATA_KERNEL_DECLARE(strata_amg_init);
STRATA_KERNEL_DECLARE(strata_amg_tpos);
STRATA_KERNEL_DECLARE(strata_amg_select);
STRATA_KERNEL_DECLARE(strata_amg_apply);
STRATA_KERNEL_DECLARE(strata_amg_measure);
STRATA_KERNEL_DECLARE(strata_amg_cljp_update);
STRATA_KERNEL_DECLARE(strata_amg_ffpairs);
STRATA_KERNEL_DECLARE(strata_amg_mark_c);
STRATA_KERNEL_DECLARE(strata_amg_count_c);

/* the fixed hash streams of RS's tie-breaks (RS takes no seed) */
#define RS_FIRST_SEED 0x5253u
#define RS_SECOND_SEED 0x52533250u
#define RS_BLOCK_SHIFT 5

typedef struct coarsen {
  strata_exec_t *exec;
  int32_t n;
  int64_t nnz;
  strata_amg_graph_t g;
  int32_t *lam, *cand;      /* [n] */
  int64_t *dev_scalar;      /* one int64: results of reductions the host does not read */
} coarsen_t;

static strata_status_t dev_alloc(strata_exec_t *exec, size_t bytes, void *p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)p);
}
static void dev_free(strata_exec_t *exec, void *p) { strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)p); }

static strata_status_t too_many_rounds(const char *what, int64_t rounds) {
  return strata_error_set(STRATA_ERR_INTERNAL, "amg coarsen: %s did not finish within %lld rounds", what,
                          (long long)rounds);
}

static strata_status_t select_round(coarsen_t *c, const int32_t *alive, const int32_t *state, const int32_t *w,
                                    uint64_t seed, int block_shift, int small_index) {
  strata_amg_select_args_t a = {c->g, alive, state, w, seed, block_shift, small_index, c->cand};
  return strata_parallel_for(c->exec, "strata_amg_select", strata_range(0, c->n), &strata_amg_select, &a);
}

/* cand -> C (mark_f: their undecided dependents -> F); *undecided (NULL: not read back) */
static strata_status_t apply_round(coarsen_t *c, int32_t *cf, int mark_f, int64_t *undecided) {
  strata_amg_apply_args_t a = {c->g, c->cand, mark_f, cf};
  if (!undecided)
    return strata_parallel_reduce_async(c->exec, "strata_amg_apply", strata_range(0, c->n), &strata_amg_apply, &a,
                                        STRATA_REDUCE_SUM, c->dev_scalar);
  return strata_parallel_reduce(c->exec, "strata_amg_apply", strata_range(0, c->n), &strata_amg_apply, &a,
                                STRATA_REDUCE_SUM, undecided);
}

static strata_status_t init_points(coarsen_t *c, int32_t *cf, int32_t *lam) {
  strata_amg_init_args_t a = {c->g, cf, lam};
  return strata_parallel_for(c->exec, "strata_amg_init", strata_range(0, c->n), &strata_amg_init, &a);
}

/* PMIS's rounds from cf (lam = |Sᵀ_i|) until no point is undecided. */
static strata_status_t pmis_rounds(coarsen_t *c, int32_t *cf, uint64_t seed) {
  int64_t undecided = 1;
  for (int64_t r = 0; undecided > 0; ++r) {
    if (r > c->n) return too_many_rounds("PMIS", r);
    strata_status_t st = select_round(c, NULL, cf, c->lam, seed, 0, 0);
    if (!st) st = apply_round(c, cf, 1, &undecided);
    if (st) return st;
  }
  return STRATA_SUCCESS;
}

static strata_status_t rs_first_pass(coarsen_t *c, int32_t *cf) {
  strata_status_t st = init_points(c, cf, NULL);
  strata_amg_measure_args_t m = {c->g, cf, c->lam};
  int64_t undecided = 1;
  for (int64_t r = 0; !st && undecided > 0; ++r) {
    if (r > c->n) return too_many_rounds("the RS first pass", r);
    st = strata_parallel_for(c->exec, "strata_amg_measure", strata_range(0, c->n), &strata_amg_measure, &m);
    if (!st) st = select_round(c, NULL, cf, c->lam, RS_FIRST_SEED, RS_BLOCK_SHIFT, 1);
    if (!st) st = apply_round(c, cf, 1, &undecided);
  }
  return st;
}

static strata_status_t rs_second_pass(coarsen_t *c, int32_t *cf) {
  int32_t *v = NULL, *state = NULL;
  strata_status_t st = dev_alloc(c->exec, sizeof(int32_t) * (size_t)c->n, &v);
  if (!st) st = dev_alloc(c->exec, sizeof(int32_t) * (size_t)c->n, &state);
  strata_amg_ffpairs_args_t f = {c->g, cf, v, state};
  for (int64_t r = 0; !st; ++r) {
    int64_t bad = 0;
    if (r > c->n) {
      st = too_many_rounds("the RS second pass", r);
      break;
    }
    st = strata_parallel_reduce(c->exec, "strata_amg_ffpairs", strata_range(0, c->n), &strata_amg_ffpairs, &f,
                                STRATA_REDUCE_SUM, &bad);
    if (st || bad == 0) break;
    st = select_round(c, NULL, state, v, RS_SECOND_SEED, 0, 0);
    if (!st) st = apply_round(c, cf, 0, NULL);
  }
  dev_free(c->exec, &v);
  dev_free(c->exec, &state);
  return st;
}

static strata_status_t hmis(coarsen_t *c, int32_t *cf, uint64_t seed) {
  strata_status_t st = rs_first_pass(c, cf);
  strata_amg_mark_c_args_t m = {cf, c->cand};
  if (!st) st = strata_parallel_for(c->exec, "strata_amg_mark_c", strata_range(0, c->n), &strata_amg_mark_c, &m);
  if (!st) st = init_points(c, cf, c->lam);
  int64_t undecided = 0;
  if (!st) st = apply_round(c, cf, 1, &undecided);
  if (!st && undecided > 0) st = pmis_rounds(c, cf, seed);
  return st;
}

static strata_status_t cljp(coarsen_t *c, int32_t *cf, uint64_t seed) {
  int64_t *tpos = NULL;
  int32_t *alive[2] = {NULL, NULL}, *cf1 = NULL;
  strata_status_t st = dev_alloc(c->exec, sizeof(int64_t) * (size_t)c->nnz, &tpos);
  if (!st) st = dev_alloc(c->exec, sizeof(int32_t) * (size_t)c->nnz, &alive[0]);
  if (!st) st = dev_alloc(c->exec, sizeof(int32_t) * (size_t)c->nnz, &alive[1]);
  if (!st) st = dev_alloc(c->exec, sizeof(int32_t) * (size_t)c->n, &cf1);
  /* every edge alive (a nonzero flag) */
  if (!st) st = strata_mem_set_async(c->exec, alive[0], 1, sizeof(int32_t) * (size_t)c->nnz);
  strata_amg_graph_t g = c->g;
  g.tpos = tpos;
  strata_amg_tpos_args_t ta = {g, tpos};
  if (!st) st = strata_parallel_for(c->exec, "strata_amg_tpos", strata_range(0, c->n), &strata_amg_tpos, &ta);
  if (!st) st = init_points(c, cf, c->lam);
  c->g = g;
  int32_t *cur = cf, *next = cf1;
  int64_t undecided = 1;
  for (int64_t r = 0; !st && undecided > 0; ++r) {
    if (r > c->n) {
      st = too_many_rounds("CLJP", r);
      break;
    }
    st = select_round(c, alive[r & 1], cur, c->lam, seed, 0, 0);
    strata_amg_cljp_args_t u = {g, alive[r & 1], cur, c->cand, alive[(r + 1) & 1], c->lam, next};
    if (!st)
      st = strata_parallel_reduce(c->exec, "strata_amg_cljp_update", strata_range(0, c->n), &strata_amg_cljp_update,
                                  &u, STRATA_REDUCE_SUM, &undecided);
    int32_t *t = cur;
    cur = next;
    next = t;
  }
  if (!st && cur != cf) st = strata_mem_copy(c->exec, cf, cur, sizeof(int32_t) * (size_t)c->n);
  c->g.tpos = NULL;
  dev_free(c->exec, &tpos);
  dev_free(c->exec, &alive[0]);
  dev_free(c->exec, &alive[1]);
  dev_free(c->exec, &cf1);
  return st;
}

strata_status_t strata_impl_amg_coarsen(strata_exec_t *exec, const strata_crs_matrix_t *S, strata_amg_coarsen_t method,
                                        uint64_t seed, int32_t *cf, int32_t *num_coarse) {
  if (!num_coarse) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg coarsen: NULL num_coarse");
  *num_coarse = 0;
  if (!S) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg coarsen: NULL strength matrix S");
  if (!exec) exec = S->exec;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg coarsen: NULL exec");
  if ((int)method < (int)STRATA_AMG_RS || (int)method > (int)STRATA_AMG_HMIS)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "amg coarsen: method = %d (must be STRATA_AMG_RS 0, CLJP 1, PMIS 2 or HMIS 3)", (int)method);
  if (S->num_rows != S->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg coarsen: S is %d x %d (must be square)",
                            (int)S->num_rows, (int)S->num_cols);
  if (!S->fill_complete)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "amg coarsen: S is not fill-complete (sorted unique columns; strata_crs_fill_complete)");
  if (!cf && S->num_rows > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg coarsen: NULL cf for %d points", (int)S->num_rows);
  if (S->num_rows == 0) return STRATA_SUCCESS;
  coarsen_t c = {exec, S->num_rows, S->nnz, {S->row_offsets, S->col_indices, NULL, NULL, NULL}, NULL, NULL, NULL};
  strata_crs_matrix_t *St = NULL;
  strata_status_t st = strata_crs_transpose(exec, S, &St);
  if (!st) {
    c.g.t_ro = St->row_offsets;
    c.g.t_ci = St->col_indices;
    st = dev_alloc(exec, sizeof(int32_t) * (size_t)c.n, &c.lam);
  }
  if (!st) st = dev_alloc(exec, sizeof(int32_t) * (size_t)c.n, &c.cand);
  if (!st) st = dev_alloc(exec, sizeof(int64_t), &c.dev_scalar);
  if (!st) {
    switch (method) {
      case STRATA_AMG_RS:
        st = rs_first_pass(&c, cf);
        if (!st) st = rs_second_pass(&c, cf);
        break;
      case STRATA_AMG_CLJP: st = cljp(&c, cf, seed); break;
      case STRATA_AMG_PMIS:
        st = init_points(&c, cf, c.lam);
        if (!st) st = pmis_rounds(&c, cf, seed);
        break;
      case STRATA_AMG_HMIS: st = hmis(&c, cf, seed); break;
    }
  }
  int64_t nc = 0;
  strata_amg_count_args_t ca = {cf};
  if (!st)
    st = strata_parallel_reduce(exec, "strata_amg_count_c", strata_range(0, c.n), &strata_amg_count_c, &ca,
                                STRATA_REDUCE_SUM, &nc);
  if (!st) *num_coarse = (int32_t)nc;
  strata_crs_destroy(&St);
  dev_free(exec, &c.lam);
  dev_free(exec, &c.cand);
  dev_free(exec, &c.dev_scalar);
  return st;
}
