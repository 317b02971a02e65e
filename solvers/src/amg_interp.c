/* strata solvers — AMG interpolation P [n × nc] from A, S and a C/F splitting (amg_impl.h), on the
 * device (kernels: solvers/kernels/amg_interp.kl.c). Sources: Ruge & Stüben 1987; Stüben,
 * "Algebraic multigrid (AMG): an introduction with applications" (GMD report 70, 1999), §A.7;
 * De Sterck, Falgout, Nolting, Yang, "Distance-two interpolation for parallel algebraic multigrid"
 * (Numer. Linear Algebra Appl. 15, 2008); Yang's survey of AMG interpolation (2010).
 *
 * Notation for an F row i with diagonal a_ii: N_i its off-diagonal entries, S_i its strong
 * connections (the pattern of S), C_i^s = S_i ∩ C, F_i^s = S_i ∩ F. "Negative" means of the sign
 * opposite to the row's diagonal (a zero diagonal counts as positive): a⁻ = a when a·sgn(a_ii) < 0,
 * else 0, and a⁺ = a − a⁻; ā_kj = a_kj⁻ of row k (sign against a_kk).
 *
 * Direct (Stüben §A.7.2.1, negative and positive parts apart): P_i = C_i^s,
 *     α_i = Σ_{N_i} a_ik⁻ / Σ_{P_i} a_ik⁻,   β_i = Σ_{N_i} a_ik⁺ / Σ_{P_i} a_ik⁺,
 *     w_ij = −α_i a_ij / d_i (a_ij negative),  w_ij = −β_i a_ij / d_i (a_ij positive),
 *   d_i = a_ii, plus Σ_{N_i} a_ik⁺ when P_i has no positive entry (β_i = 0: the positive entries
 *   lumped into the diagonal, Stüben's rule), plus Σ_{N_i} a_ik⁻ when it has no negative one.
 * Standard (classical Ruge–Stüben; hypre's "classical modified"): P_i = C_i^s; for k ∈ F_i^s,
 *   s_k = Σ_{m ∈ C_i^s} ā_km; k with s_k = 0 (no negative coupling to C_i^s) is lumped,
 *     w_ij = −(a_ij + Σ_{k ∈ F_i^s, s_k ≠ 0} a_ik ā_kj / s_k) / d_i,
 *     d_i = a_ii + Σ_{weak n} a_in + Σ_{k ∈ F_i^s, s_k = 0} a_ik.
 * Extended+i (De Sterck et al. 2008, eq. (4.10)): P_i = Ĉ_i = C_i^s ∪ ⋃_{k ∈ F_i^s} C_k^s; for
 *   k ∈ F_i^s, s_k = Σ_{m ∈ Ĉ_i ∪ {i}} ā_km (i in the distribution set: the "+i"),
 *     w_ij = −(a_ij + Σ_{k ∈ F_i^s, s_k ≠ 0} a_ik ā_kj / s_k) / d_i   (a_ij = 0 when not stored),
 *     d_i = a_ii + Σ_{n ∈ N_i \ (S_i ∪ Ĉ_i)} a_in + Σ_{k ∈ F_i^s, s_k ≠ 0} a_ik ā_ki / s_k
 *           + Σ_{k ∈ F_i^s, s_k = 0} a_ik.
 * For a row with zero row sum each formula interpolates the constant exactly (Σ_j w_ij = 1).
 * An F row with an empty P_i (no strong connection, or none reaching a C point) is an empty row of
 * P (hypre's convention: such points keep their smoothed value). An F row with a non-empty P_i
 * whose d_i is 0 or not finite is refused (INVALID_DATA naming the row).
 * Truncation (F rows): entries with |w_ij| < trunc_factor · max_j |w_ij| are dropped; then, with
 * max_elements > 0, only the max_elements largest |w_ij| stay (ties: the smaller column); if
 * anything was dropped the kept entries are scaled by (row sum before) / (row sum after), unless
 * the latter is 0. C rows are identity rows to their coarse index (cf == 1 points in row order).
 *
 * Device plan: strong-entry marks and diagonals (a thread per row), an upper bound of each F
 * row's candidate set (with repeats), a scan giving each row a segment of the work arrays, then
 * per row its set sorted and unique, its s_k, d_i, weights and keep flags: a thread per row below
 * long_min candidates (64 on GPUs, 4096 on host backends), a team per row above (the gather, sort
 * in team scratch, s_k and weights spread over the team; sums in one fixed order in both, so the
 * bits do not depend on the class or the backend), a scan of the keep flags for P's positions, and
 * a fill. P is fill-complete (columns ascending: coarse indices rise with fine ones). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "amg_impl.h"
#include "amg_interp_impl.h"
#include "sptrsv_impl.h"

#include "../kernels/amg_interp_args.h"

STRATA_KERNEL_DECLARE(strata_amg_interp_cmap);
STRATA_KERNEL_DECLARE(strata_amg_interp_cf_check);
STRATA_KERNEL_DECLARE(strata_amg_interp_mark);
STRATA_KERNEL_DECLARE(strata_amg_interp_bound);
STRATA_KERNEL_DECLARE(strata_amg_interp_long_list);
STRATA_KERNEL_DECLARE(strata_amg_interp_rows);
STRATA_KERNEL_DECLARE(strata_amg_interp_rows_team);
STRATA_KERNEL_DECLARE(strata_amg_interp_offsets);
STRATA_KERNEL_DECLARE(strata_amg_interp_fill);

static strata_impl_amg_interp_class_t interp_class = STRATA_IMPL_AMG_INTERP_AUTO;

void strata_impl_amg_interp_force_class(strata_impl_amg_interp_class_t cls) { interp_class = cls; }

#define WHAT "amg interpolation"
#define GPU_LONG_MIN 64     /* candidates: a team per row from here on GPUs */
#define HOST_LONG_MIN 4096  /* host backends (teams of one thread: only the scratch sort differs) */
#define GPU_TEAM 128        /* threads of a row's team (one lane each) */
#define SCRATCH_LIMIT 49152 /* bytes of team scratch at most (8 per candidate) */

static strata_status_t check_args(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *S,
                                  const int32_t *cf, int32_t num_coarse, strata_amg_interp_t method,
                                  double trunc_factor, int max_elements) {
  if (!exec || !A || !S)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": NULL %s",
                            !exec ? "execution space" : !A ? "matrix A" : "strength matrix S");
  strata_status_t st = strata_impl_check_square(exec, A, WHAT, "A", "AMG interpolation");
  if (st != STRATA_SUCCESS) return st;
  if (strata_exec_backend(S->exec) != strata_exec_backend(exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": S lives on backend '%s', the execution space is '%s'",
                            strata_backend_name(strata_exec_backend(S->exec)),
                            strata_backend_name(strata_exec_backend(exec)));
  if (S->num_rows != A->num_rows || S->num_cols != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": S is %d x %d, A is %d x %d (they must match)",
                            (int)S->num_rows, (int)S->num_cols, (int)A->num_rows, (int)A->num_cols);
  if (!A->fill_complete || !S->fill_complete)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            WHAT ": %s is not fill-complete (sorted unique columns; strata_crs_fill_complete)",
                            A->fill_complete ? "S" : "A");
  if (method != STRATA_AMG_DIRECT && method != STRATA_AMG_STANDARD && method != STRATA_AMG_EXT_I)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": method = %d (DIRECT 0, STANDARD 1, EXT_I 2)",
                            (int)method);
  if (!(trunc_factor >= 0.0 && trunc_factor < 1.0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": trunc_factor = %g (must be in [0, 1); 0: off)",
                            trunc_factor);
  if (max_elements < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": max_elements = %d (must be >= 0; 0: no limit)",
                            max_elements);
  if (num_coarse < 0 || num_coarse > A->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": num_coarse = %d (must be in [0, %d], the rows of A)",
                            (int)num_coarse, (int)A->num_rows);
  if (!cf && A->num_rows > 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": NULL cf with %d rows", (int)A->num_rows);
  return STRATA_SUCCESS;
}

#define CHECK(call)                  \
  do {                               \
    st = (call);                     \
    if (st != STRATA_SUCCESS) goto done; \
  } while (0)

#define ALLOC(ptr, count)                                                                   \
  CHECK(strata_mem_alloc_async(exec, sizeof(*(ptr)) * (size_t)(count), (void **)&(ptr)))

strata_status_t strata_impl_amg_interp(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *S,
                                       const int32_t *cf, int32_t num_coarse, strata_amg_interp_t method,
                                       double trunc_factor, int max_elements, strata_crs_matrix_t **P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": NULL output P");
  *P = NULL;
  strata_status_t st = check_args(exec, A, S, cf, num_coarse, method, trunc_factor, max_elements);
  if (st != STRATA_SUCCESS) return st;
  const int64_t n = A->num_rows;
  strata_amg_interp_args_t a;
  memset(&a, 0, sizeof a);
  int64_t *woff = NULL, *p_ro = NULL;
  int32_t *p_ci = NULL;
  double *p_v = NULL;
  if (n == 0) return strata_crs_create_from_csr(exec, 0, num_coarse, 0, NULL, NULL, NULL, STRATA_CRS_COPY, P);
  a.n = n;
  a.a_ro = A->row_offsets;
  a.a_ci = A->col_indices;
  a.a_v = A->values;
  a.s_ro = S->row_offsets;
  a.s_ci = S->col_indices;
  a.cf = cf;
  a.method = (int)method;
  a.trunc = trunc_factor;
  a.max_elements = max_elements;
  ALLOC(a.cmap, n);
  ALLOC(a.strong, A->nnz);
  ALLOC(a.diag, n);
  ALLOC(a.bound, n);
  ALLOC(woff, n + 1);
  ALLOC(a.sk, A->nnz);
  ALLOC(a.dd, n);
  ALLOC(a.bad_row, 1);
  ALLOC(a.long_rows, n);
  a.woff = woff;
  const strata_range_t rows = strata_range(0, n);

  int64_t first = INT64_MAX;
  CHECK(strata_parallel_reduce(exec, "strata_amg_interp_cf_check", rows, &strata_amg_interp_cf_check, &a,
                               STRATA_REDUCE_MIN, &first));
  if (first != INT64_MAX) {
    int32_t v = 0;
    CHECK(strata_mem_copy(exec, &v, cf + first, sizeof v));
    st = strata_error_set(STRATA_ERR_INVALID_DATA, WHAT ": cf[%lld] = %d (1: a C point, -1: an F point)",
                          (long long)first, (int)v);
    goto done;
  }
  int64_t nc = 0;
  CHECK(strata_parallel_scan(exec, "strata_amg_interp_cmap", rows, &strata_amg_interp_cmap, &a, &nc));
  if (nc != num_coarse) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, WHAT ": num_coarse = %d, but cf marks %lld C points",
                          (int)num_coarse, (long long)nc);
    goto done;
  }
  CHECK(strata_parallel_reduce(exec, "strata_amg_interp_mark", rows, &strata_amg_interp_mark, &a, STRATA_REDUCE_MIN,
                               &first));
  if (first != INT64_MAX) {
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          WHAT ": row %lld of S holds a column outside A's pattern of that row (S must lie inside A)",
                          (long long)first);
    goto done;
  }
  int64_t max_bound = 0, W = 0;
  CHECK(strata_parallel_reduce(exec, "strata_amg_interp_bound", rows, &strata_amg_interp_bound, &a, STRATA_REDUCE_MAX,
                               &max_bound));
  CHECK(strata_scan_exclusive_i64(exec, n, a.bound, woff, &W));
  CHECK(strata_mem_copy(exec, woff + n, &W, sizeof W));
  a.total_w = W;

  strata_device_info_t info;
  CHECK(strata_exec_device_info(exec, &info));
  const int gpu = !strata_exec_is_host(exec) && info.warp_size > 1;
  a.long_min = interp_class == STRATA_IMPL_AMG_INTERP_THREAD ? INT64_MAX
               : interp_class != STRATA_IMPL_AMG_INTERP_AUTO ? 0
               : gpu                                          ? GPU_LONG_MIN
                                                              : HOST_LONG_MIN;
  int64_t num_long = 0;
  CHECK(strata_parallel_scan(exec, "strata_amg_interp_long_list", rows, &strata_amg_interp_long_list, &a, &num_long));
  ALLOC(a.cand, W);
  ALLOC(a.w, W);
  ALLOC(a.keep, W);
  const int64_t none = INT64_MAX;
  CHECK(strata_mem_copy(exec, a.bad_row, &none, sizeof none));
  CHECK(strata_parallel_for(exec, "strata_amg_interp_rows", rows, &strata_amg_interp_rows, &a));
  if (num_long > 0) {
    size_t limit = info.max_scratch_bytes < SCRATCH_LIMIT ? info.max_scratch_bytes : SCRATCH_LIMIT;
    a.scratch_cap = interp_class == STRATA_IMPL_AMG_INTERP_TEAM_NO_SCRATCH ? 0 : (int64_t)(limit / 8);
    if (a.scratch_cap > max_bound) a.scratch_cap = max_bound;
    strata_team_policy_t pol = strata_team_policy(num_long, gpu ? GPU_TEAM : STRATA_AUTO, 1);
    pol.scratch_team = (size_t)a.scratch_cap * 8;
    CHECK(strata_parallel_for_team(exec, "strata_amg_interp_rows_team", &pol, &strata_amg_interp_rows_team, &a));
  }
  int64_t bad = INT64_MAX;
  CHECK(strata_mem_copy(exec, &bad, a.bad_row, sizeof bad));
  if (bad != INT64_MAX) {
    double d = 0.0, aii = 0.0;
    CHECK(strata_mem_copy(exec, &d, a.dd + bad, sizeof d));
    CHECK(strata_mem_copy(exec, &aii, a.diag + bad, sizeof aii));
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          WHAT ": F row %lld: the diagonal after lumping is %g (a_ii = %g), zero or not finite; "
                          "its weights would divide by it",
                          (long long)bad, d, aii);
    goto done;
  }
  int64_t nnz_p = 0;
  CHECK(strata_scan_exclusive_i64(exec, W, a.keep, a.keep, &nnz_p));
  a.pos = a.keep;
  a.nnz_p = nnz_p;
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int64_t) * (size_t)(n + 1), (void **)&p_ro));
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(int32_t) * (size_t)nnz_p, (void **)&p_ci));
  CHECK(strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof(double) * (size_t)nnz_p, (void **)&p_v));
  a.p_ro = p_ro;
  a.p_ci = p_ci;
  a.p_v = p_v;
  CHECK(strata_parallel_for(exec, "strata_amg_interp_offsets", strata_range(0, n + 1), &strata_amg_interp_offsets, &a));
  CHECK(strata_parallel_for(exec, "strata_amg_interp_fill", strata_range(0, W), &strata_amg_interp_fill, &a));
  CHECK(strata_crs_create_from_csr(exec, (int32_t)n, num_coarse, nnz_p, p_ro, p_ci, p_v, STRATA_CRS_ADOPT, P));
  p_ro = NULL;
  p_ci = NULL;
  p_v = NULL;
done:
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&p_ro);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&p_ci);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&p_v);
  strata_mem_free_async(exec, (void **)&a.cmap);
  strata_mem_free_async(exec, (void **)&a.strong);
  strata_mem_free_async(exec, (void **)&a.diag);
  strata_mem_free_async(exec, (void **)&a.bound);
  strata_mem_free_async(exec, (void **)&woff);
  strata_mem_free_async(exec, (void **)&a.sk);
  strata_mem_free_async(exec, (void **)&a.dd);
  strata_mem_free_async(exec, (void **)&a.bad_row);
  strata_mem_free_async(exec, (void **)&a.long_rows);
  strata_mem_free_async(exec, (void **)&a.cand);
  strata_mem_free_async(exec, (void **)&a.w);
  strata_mem_free_async(exec, (void **)&a.keep);
  return st;
}
