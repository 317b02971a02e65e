/* strata solvers — Jacobi and l1-Jacobi preconditioners (strata/precond.h): D⁻¹ computed on the
 * device at setup (solvers/kernels/jacobi.kl.c), z = D⁻¹ r at apply. */
#include <math.h>
#include <stdlib.h>

#include "../kernels/jacobi_args.h"
#include "krylov_impl.h"

STRATA_KERNEL_DECLARE(strata_jacobi_diag);
STRATA_KERNEL_DECLARE(strata_jacobi_apply_kernel);

typedef struct jacobi {
  strata_exec_t *exec;
  strata_jacobi_kind_t kind;
  int32_t n;
  double *dinv; /* [n] exec memory */
  double numeric_s;
} jacobi_t;

static const char *kind_name(strata_jacobi_kind_t kind) { return kind == STRATA_L1_JACOBI ? "l1-jacobi" : "jacobi"; }

/* The message for the first bad row (the kernel found it): what its diagonal is. */
static strata_status_t bad_row(strata_exec_t *exec, const jacobi_t *J, const strata_crs_matrix_t *A, int64_t row) {
  int64_t count = 0;
  strata_status_t st = strata_crs_get_row(exec, A, (int32_t)row, &count, NULL, NULL, 0);
  if (st) return st;
  int32_t *cols = (int32_t *)malloc((size_t)(count > 0 ? count : 1) * sizeof *cols);
  double *vals = (double *)malloc((size_t)(count > 0 ? count : 1) * sizeof *vals);
  if (!cols || !vals) {
    free(cols);
    free(vals);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries of row %lld", kind_name(J->kind),
                            (long long)count, (long long)row);
  }
  st = strata_crs_get_row(exec, A, (int32_t)row, &count, cols, vals, count);
  double diag = 0, off = 0;
  int found = 0;
  for (int64_t k = 0; !st && k < count; ++k) {
    if (cols[k] == row) {
      diag += vals[k];
      found = 1;
    } else {
      off += fabs(vals[k]);
    }
  }
  free(cols);
  free(vals);
  if (st) return st;
  if (!found)
    return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: row %lld has no diagonal entry (a_ii missing; D^-1 needs a_ii != 0)",
                            kind_name(J->kind), (long long)row);
  if (diag == 0.0)
    return strata_error_set(STRATA_ERR_INVALID_DATA, "%s: row %lld has a zero diagonal (a_ii = 0; D^-1 needs a_ii != 0)",
                            kind_name(J->kind), (long long)row);
  const double d = J->kind == STRATA_L1_JACOBI ? (diag >= 0 ? diag + off : diag - off) : diag;
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "%s: row %lld: a_ii = %g gives d = %g, whose inverse %g is not finite (D^-1 must be finite)",
                          kind_name(J->kind), (long long)row, diag, d, 1.0 / d);
}

/* D⁻¹ of A's rows (A may have more columns than rows: those are off-diagonal) */
static strata_status_t jacobi_setup_rows(jacobi_t *J, strata_exec_t *exec, const strata_crs_matrix_t *A) {
  const double t0 = strata_timer_now();
  strata_status_t st = STRATA_SUCCESS;
  if (J->n != A->num_rows || !J->dinv) {
    strata_mem_free(J->exec, STRATA_MEM_DEVICE, (void **)&J->dinv);
    J->n = 0;
    /* one double at least: D⁻¹ of zero rows is still a D⁻¹ (CG fuses it on every process) */
    const size_t rows = A->num_rows > 0 ? (size_t)A->num_rows : 1;
    if ((st = strata_mem_alloc(J->exec, STRATA_MEM_DEVICE, rows * sizeof(double), (void **)&J->dinv)))
      return st;
    J->n = A->num_rows;
  }
  strata_jacobi_diag_args_t a = {A->row_offsets, A->col_indices, A->values, (int)J->kind, J->dinv};
  int64_t first = INT64_MAX;
  if ((st = strata_parallel_reduce(exec, NULL, strata_range(0, A->num_rows), &strata_jacobi_diag, &a, STRATA_REDUCE_MIN,
                                   &first)))
    return st;
  J->numeric_s = strata_timer_now() - t0;
  if (first != INT64_MAX) return bad_row(exec, J, A, first);
  return STRATA_SUCCESS;
}

static strata_status_t jacobi_setup(void *ctx, strata_exec_t *exec, const strata_operator_t *op) {
  jacobi_t *J = (jacobi_t *)ctx;
  const strata_crs_matrix_t *A = NULL;
  strata_operator_crs(op, &A);
  if (!A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: the operator has no CrsMatrix behind it (make it with strata_operator_create_crs)",
                            kind_name(J->kind));
  return jacobi_setup_rows(J, exec, A);
}

static strata_status_t jacobi_apply(void *ctx, strata_exec_t *exec, const double *r, double *z) {
  jacobi_t *J = (jacobi_t *)ctx;
  strata_jacobi_apply_args_t a = {J->dinv, r, z};
  return strata_parallel_for(exec, NULL, strata_range(0, J->n), &strata_jacobi_apply_kernel, &a);
}

static void jacobi_destroy(void *ctx) {
  jacobi_t *J = (jacobi_t *)ctx;
  if (!J) return;
  strata_mem_free(J->exec, STRATA_MEM_DEVICE, (void **)&J->dinv);
  free(J);
}

static strata_status_t jacobi_stats(const void *ctx, strata_precond_stats_t *stats) {
  const jacobi_t *J = (const jacobi_t *)ctx;
  stats->numeric_s = J->numeric_s;
  stats->nnz = J->n;
  return STRATA_SUCCESS;
}

strata_status_t strata_precond_create_jacobi(strata_exec_t *exec, strata_jacobi_kind_t kind, strata_precond_t **P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_jacobi: NULL P");
  *P = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_jacobi: NULL exec");
  if (kind != STRATA_JACOBI && kind != STRATA_L1_JACOBI)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "strata_precond_create_jacobi: kind = %d (must be STRATA_JACOBI 0 or STRATA_L1_JACOBI 1)",
                            (int)kind);
  jacobi_t *J = (jacobi_t *)calloc(1, sizeof *J);
  if (!J) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_precond_create_jacobi: %zu bytes", sizeof *J);
  J->exec = exec;
  J->kind = kind;
  strata_precond_ops_t ops = {kind_name(kind), jacobi_setup, jacobi_apply, jacobi_destroy, 0};
  return strata_impl_precond_create(exec, &ops, J, kind_name(kind), jacobi_stats, P);
}

const double *strata_impl_jacobi_dinv(const strata_precond_t *P) {
  return P && P->ops.apply == jacobi_apply && P->set_up ? ((const jacobi_t *)P->ctx)->dinv : NULL;
}

strata_status_t strata_precond_setup_jacobi_rows(strata_exec_t *exec, strata_precond_t *P, const strata_crs_matrix_t *A) {
  const char *w = "strata_precond_setup_jacobi_rows";
  if (!P || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", w, !P ? "P" : "A");
  if (!exec) exec = P->exec;
  if (P->ops.setup != jacobi_setup)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: preconditioner '%s' is not jacobi or l1-jacobi", w, P->name);
  if (A->num_cols < A->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: A is %d x %d: num_cols %d below num_rows %d (the diagonal must be within the columns)", w,
                            (int)A->num_rows, (int)A->num_cols, (int)A->num_cols, (int)A->num_rows);
  P->set_up = 0;
  strata_status_t st = jacobi_setup_rows((jacobi_t *)P->ctx, exec, A);
  if (st) return st;
  P->n = A->num_rows;
  P->set_up = 1;
  return STRATA_SUCCESS;
}
