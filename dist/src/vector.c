/* strata dist — dot product and 2-norm of distributed vectors (strata/dist.h): each rank's part
 * by the solvers' deterministic vector kernels, the parts gathered to every rank with their
 * statuses (MPI_Allgather) and combined there in rank order, so that every rank holds the same
 * bits (EDGE_CASES D16) and the statuses are agreed in the same message. */
#include <math.h>
#include <stdio.h>

#include "strata/vector.h"
#include "dist_impl.h"

/* gathers (part, status) of every rank: returns the agreed status (the most negative, the lowest
 * rank on a tie, with its message) and, on success, *parts (malloc, [size], free it) the parts
 * in rank order */
static strata_status_t gather_parts(const strata_dist_map_t *map, double part, strata_status_t st, double **parts,
                                    const char *what) {
  const int p = map->size;
  double mine[2] = {part, (double)st};
  double *all = (double *)strata_impl_alloc(2 * (int64_t)p, sizeof(double));
  int fail = all == NULL;
  *parts = NULL;
  MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, map->comm);
  if (fail) {
    free(all);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the parts of %d ranks (on some rank)", what, p);
  }
  MPI_Allgather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, map->comm);
  int root = 0;
  strata_status_t worst = STRATA_SUCCESS;
  for (int r = 0; r < p; ++r) {
    const strata_status_t s = (strata_status_t)(int)all[2 * r + 1];
    if (s < worst) worst = s, root = r;
    all[r] = all[2 * r];
  }
  const strata_status_t agreed = strata_impl_agree_message(map->comm, worst, root);
  if (agreed) free(all);
  else *parts = all;
  return agreed;
}

/* each rank's part (dot: x·y; norm: ||x||_2, y unused), gathered and combined in rank order */
static strata_status_t reduce(strata_exec_t *exec, const strata_dist_map_t *map, const double *x, const double *y,
                              int norm, double *result) {
  const char *what = norm ? "dist nrm2" : "dist dot";
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL map", what);
  strata_status_t st = STRATA_SUCCESS;
  const int32_t n = map->num_local;
  if (!exec || !result) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, exec ? "result" : "exec");
  else if (n > 0 && (!x || (!norm && !y)))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s with %d local values", what, x ? "y" : "x", (int)n);
  double part = 0.0;
  if (!st) st = norm ? strata_vec_nrm2(exec, n, x, &part) : strata_vec_dot(exec, n, x, y, &part);
  double *parts = NULL;
  const strata_status_t agreed = gather_parts(map, part, st, &parts, what);
  if (agreed) return agreed;
  double res = 0.0;
  if (!norm) {
    for (int r = 0; r < map->size; ++r) res += parts[r];
  } else { /* m·sqrt(Σ (n_r / m)^2), m = max n_r: no overflow or underflow of the squares */
    double m = 0.0;
    int nan = 0;
    for (int r = 0; r < map->size; ++r) {
      if (parts[r] != parts[r]) nan = 1;
      else if (parts[r] > m) m = parts[r];
    }
    if (nan) res = NAN;
    else if (isinf(m)) res = INFINITY;
    else if (m > 0.0) {
      double s = 0.0;
      for (int r = 0; r < map->size; ++r) s += (parts[r] / m) * (parts[r] / m);
      res = m * sqrt(s);
    }
  }
  *result = res;
  free(parts);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_vec_dot(strata_exec_t *exec, const strata_dist_map_t *map, const double *x, const double *y,
                                    double *result) {
  return reduce(exec, map, x, y, 0, result);
}

strata_status_t strata_dist_vec_nrm2(strata_exec_t *exec, const strata_dist_map_t *map, const double *x,
                                     double *result) {
  return reduce(exec, map, x, NULL, 1, result);
}
