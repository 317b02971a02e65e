/* strata solvers — argument structs of AMG's strength-of-connection and coarsening kernels
 * (solvers/kernels/amg_coarsen.kl.c), shared with solvers/src/amg_strength.c and amg_coarsen.c.
 * Plain C, valid as C11 and C++17. Every pointer is exec memory.
 *
 * The graph: S (row i: the points i strongly depends on, its influencers) and St = Sᵀ (row i: the
 * points that strongly depend on i), both fill-complete; entries j == i are skipped everywhere.
 * A point's state (cf) is 1 (C), -1 (F) or 0 (undecided). */
#ifndef STRATA_SOLVERS_AMG_COARSEN_ARGS_H
#define STRATA_SOLVERS_AMG_COARSEN_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Classical strength of row i of A (see strata_impl_amg_strength): counts[i] = its strong
 *  connections (cols NULL), or, with cols set, their columns written at offsets[i] on (vals[k] =
 *  1.0). sign convention: s = -1 for a_ii >= 0, +1 for a_ii < 0; m = max_{j≠i} s·a_ij; strong iff
 *  m > 0, the row sum passes (max_row_sum < 1: |Σ a_ij| <= max_row_sum·|a_ii|) and
 *  s·a_ij >= theta·m. */
typedef struct strata_amg_strength_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  double theta, max_row_sum;
  int64_t *counts;        /* [n] (count mode) */
  const int64_t *offsets; /* [n] (fill mode) */
  int32_t *cols;          /* fill mode: S's columns */
  double *vals;           /* fill mode: S's values (1.0) */
} strata_amg_strength_args_t;

/** The graph of the coarsening kernels. tpos (CLJP only, else NULL): for each entry q of St, the
 *  position in S of the same edge. CLJP's edge flags (alive, per S entry): nonzero while the edge
 *  is in CLJP's graph. */
typedef struct strata_amg_graph {
  const int64_t *s_ro;
  const int32_t *s_ci;
  const int64_t *t_ro;
  const int32_t *t_ci;
  const int64_t *tpos;
} strata_amg_graph_t;

/** cf[i] = -1 for an isolated point (no strong influencer: an empty row of S), else 0; lam[i] = the point's
 *  strong dependents |St_i| (lam NULL: not written). */
typedef struct strata_amg_init_args {
  strata_amg_graph_t g;
  int32_t *cf;
  int32_t *lam;
} strata_amg_init_args_t;

/** tpos for every entry of St (per row j of St: the position of j in row k of S). */
typedef struct strata_amg_tpos_args {
  strata_amg_graph_t g;
  int64_t *tpos;
} strata_amg_tpos_args_t;

/** The local maxima: cand[i] = 1 when state[i] == 0 and i's key beats the key of every neighbour
 *  j in S_i ∪ St_i with state[j] == 0 (through alive edges when alive is set), else 0. Key of i:
 *  (w[i], tie hash, index): the larger w wins, then the larger hash of (seed, i >> block_shift),
 *  then the smaller index (small_index 1) or the larger (small_index 0). */
typedef struct strata_amg_select_args {
  strata_amg_graph_t g;
  const int32_t *alive;
  const int32_t *state;
  const int32_t *w;
  uint64_t seed;
  int block_shift;
  int small_index;
  int32_t *cand;
} strata_amg_select_args_t;

/** Applies the new C points (SUM reduce: the points still undecided afterwards): cand[i] -> cf[i]
 *  = 1; with mark_f, an undecided i with a new C point in S_i -> cf[i] = -1 (PMIS's and RS's F
 *  rule). */
typedef struct strata_amg_apply_args {
  strata_amg_graph_t g;
  const int32_t *cand;
  int mark_f;
  int32_t *cf;
} strata_amg_apply_args_t;

/** RS's measure, recomputed: lam[k] = |St_k ∩ U| + 2·|St_k ∩ F| for an undecided k. */
typedef struct strata_amg_measure_args {
  strata_amg_graph_t g;
  const int32_t *cf;
  int32_t *lam;
} strata_amg_measure_args_t;

/** One CLJP update, per point j over its St row (edges k -> j), from alive0 / cf / cand to
 *  alive1 / lam / cf1 (SUM reduce: the points still undecided afterwards); see amg_coarsen.c. */
typedef struct strata_amg_cljp_args {
  strata_amg_graph_t g;
  const int32_t *alive0;
  const int32_t *cf;
  const int32_t *cand;
  int32_t *alive1;
  int32_t *lam;
  int32_t *cf1;
} strata_amg_cljp_args_t;

/** RS's second pass: v[a] = the strong F–F pairs through a (edges a -> b of S and k -> a of St)
 *  whose two points share no strong C point (no C in S_a ∩ S_b; b not isolated); state[a] =
 *  v[a] > 0 ? 0 : 1.
 *  SUM reduce: Σ v. */
typedef struct strata_amg_ffpairs_args {
  strata_amg_graph_t g;
  const int32_t *cf;
  int32_t *v;
  int32_t *state;
} strata_amg_ffpairs_args_t;

/** HMIS: cand[i] = (cf[i] == 1): the first pass's C points as PMIS's first independent set. */
typedef struct strata_amg_mark_c_args {
  const int32_t *cf;
  int32_t *cand;
} strata_amg_mark_c_args_t;

/** SUM reduce: the C points (cf[i] == 1). */
typedef struct strata_amg_count_args {
  const int32_t *cf;
} strata_amg_count_args_t;

#ifdef __cplusplus
}
#endif
#endif
