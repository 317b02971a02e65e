/* strata dist — the distributed operator of the Krylov methods (strata/dist.h, "distributed
 * solvers"): apply = the distributed SpMV in one mode; the solvers' strata_operator_comm_t hook
 * by MPI over the row map's communicator: values gathered to every rank (MPI_Allgather) and
 * combined there in rank order, so that every rank holds the same bits (EDGE_CASES D16). */
#include <math.h>

#include "dist_impl.h"

typedef struct dist_op {
  const strata_dist_crs_t *A;
  strata_dist_mode_t mode;
  MPI_Comm comm;
  int size;
  double *all; /* [cap · size] the gathered values */
  int cap;
} dist_op_t;

static strata_status_t op_apply(void *ctx, strata_exec_t *exec, double alpha, const double *x, double beta, double *y) {
  const dist_op_t *d = (const dist_op_t *)ctx;
  return strata_dist_crs_spmv(exec, d->mode, alpha, d->A, x, beta, y);
}

static void op_destroy(void *ctx) {
  dist_op_t *d = (dist_op_t *)ctx;
  if (!d) return;
  free(d->all);
  free(d);
}

static strata_status_t op_reduce(void *ctx, strata_operator_reduce_op_t op, double *values, int count) {
  dist_op_t *d = (dist_op_t *)ctx;
  if (count <= 0) return STRATA_SUCCESS;
  if (count > d->cap) { /* every rank grows at the same call (count is the same on all) */
    double *all = (double *)strata_impl_alloc((int64_t)count * d->size, sizeof(double));
    int fail = all == NULL;
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, d->comm);
    if (fail) {
      free(all);
      return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "dist operator: %d values of %d ranks (on some rank)", count,
                              d->size);
    }
    free(d->all);
    d->all = all;
    d->cap = count;
  }
  MPI_Allgather(values, count, MPI_DOUBLE, d->all, count, MPI_DOUBLE, d->comm);
  for (int i = 0; i < count; ++i) {
    double v = d->all[i];
    for (int r = 1; r < d->size; ++r) {
      const double w = d->all[(size_t)r * (size_t)count + (size_t)i];
      if (op == STRATA_OPERATOR_SUM)
        v += w;
      else if (w != w || v != v)
        v = NAN;
      else if (w > v)
        v = w;
    }
    values[i] = v;
  }
  return STRATA_SUCCESS;
}

static strata_status_t op_agree(void *ctx, strata_status_t st) {
  return strata_impl_agree(((const dist_op_t *)ctx)->comm, st);
}

strata_status_t strata_dist_operator_create(strata_exec_t *exec, const strata_dist_crs_t *A, strata_dist_mode_t mode,
                                            strata_operator_t **op) {
  const char *w = "dist operator";
  if (op) *op = NULL;
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL A", w);
  MPI_Comm comm = A->row_map->comm;
  strata_status_t st = STRATA_SUCCESS;
  if (!exec) exec = A->exec;
  if (!op)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL op", w);
  else if (strata_exec_backend(exec) != strata_exec_backend(A->exec))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec is '%s', A lives on '%s'", w,
                          strata_backend_name(strata_exec_backend(exec)),
                          strata_backend_name(strata_exec_backend(A->exec)));
  else if (!strata_dist_mode_name(mode))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: mode = %d (must be 0 vector, 1 overlap or 2 task)", w,
                          (int)mode);
  else if (A->row_map->num_global != A->domain_map->num_global)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: A is %lld x %lld over all ranks; a Krylov method needs a square operator", w,
                          (long long)A->row_map->num_global, (long long)A->domain_map->num_global);
  else if (mode == STRATA_DIST_TASK) {
    int got = MPI_THREAD_SINGLE;
    MPI_Query_thread(&got);
    if (got < MPI_THREAD_SERIALIZED)
      st = strata_error_set(STRATA_ERR_UNSUPPORTED,
                            "%s: task mode needs MPI_THREAD_SERIALIZED or more; MPI granted %s (start MPI with "
                            "MPI_Init_thread(MPI_THREAD_MULTIPLE))",
                            w, strata_dist_thread_level_name(got));
  }
  dist_op_t *d = NULL;
  if (!st) {
    d = (dist_op_t *)calloc(1, sizeof *d);
    if (!d) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %zu bytes", w, sizeof *d);
  }
  strata_operator_t *o = NULL;
  if (!st) {
    d->A = A;
    d->mode = mode;
    d->comm = comm;
    d->size = A->row_map->size;
    st = strata_operator_create_user(exec, A->row_map->num_local, A->domain_map->num_local, op_apply, d, op_destroy, &o);
    if (st) op_destroy(d);
  }
  if (!st) {
    strata_operator_comm_t c = {d, op_reduce, op_agree};
    st = strata_operator_set_comm(o, &c);
  }
  st = strata_impl_agree(comm, st);
  if (st) {
    strata_operator_destroy(&o);
    return st;
  }
  *op = o;
  return STRATA_SUCCESS;
}
