/* strata solvers — operators (strata/operator.h): a CrsMatrix through its row-class SpMV plan, a
 * storage format, or a user callback, behind one apply. */
#include <stdlib.h>
#include <string.h>

#include "krylov_impl.h"

typedef enum { OP_CRS, OP_FORMAT, OP_USER } op_kind_t;

struct strata_operator {
  op_kind_t kind;
  strata_exec_t *exec;
  int32_t num_rows, num_cols;
  const strata_crs_matrix_t *A;   /* OP_CRS (borrowed) */
  strata_spmv_plan_t *plan;       /* OP_CRS (owned) */
  const strata_sparse_format_t *M; /* OP_FORMAT (borrowed) */
  strata_operator_apply_fn apply; /* OP_USER */
  void *ctx;
  void (*destroy)(void *ctx);
  int has_comm;
  strata_operator_comm_t comm;
};

static strata_status_t op_new(strata_exec_t *exec, op_kind_t kind, int32_t rows, int32_t cols, strata_operator_t **op) {
  strata_operator_t *o = (strata_operator_t *)calloc(1, sizeof *o);
  if (!o) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_operator: %zu bytes", sizeof *o);
  o->kind = kind;
  o->exec = exec;
  o->num_rows = rows;
  o->num_cols = cols;
  *op = o;
  return STRATA_SUCCESS;
}

/* The row of entry k of A (row_offsets[row] <= k < row_offsets[row + 1]): a host binary search
 * over 8-byte copies (the error path only). */
static strata_status_t entry_row(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t k, int32_t *row) {
  int64_t lo = 0, hi = A->num_rows; /* row_offsets[lo] <= k < row_offsets[hi] */
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    int64_t off = 0;
    strata_status_t st = strata_mem_copy(exec, &off, A->row_offsets + mid, sizeof off);
    if (st) return st;
    if (off <= k)
      lo = mid;
    else
      hi = mid;
  }
  *row = (int32_t)lo;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_create_crs(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           const strata_spmv_options_t *spmv_opts, strata_operator_t **op) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_crs: NULL op");
  *op = NULL;
  if (!exec || !A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_crs: NULL %s", !exec ? "exec" : "A");
  if (A->exec && strata_exec_backend(A->exec) != strata_exec_backend(exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "strata_operator_create_crs: A lives on backend '%s', exec is '%s' (copy A with "
                            "strata_crs_copy first)",
                            strata_backend_name(strata_exec_backend(A->exec)),
                            strata_backend_name(strata_exec_backend(exec)));
  int64_t bad = -1;
  strata_status_t st = strata_impl_vec_find_nonfinite(exec, A->nnz, A->values, &bad);
  if (st) return st;
  if (bad >= 0) {
    int32_t row = 0, col = 0;
    double val = 0;
    if ((st = entry_row(exec, A, bad, &row))) return st;
    if ((st = strata_mem_copy(exec, &col, A->col_indices + bad, sizeof col))) return st;
    if ((st = strata_mem_copy(exec, &val, A->values + bad, sizeof val))) return st;
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "strata_operator_create_crs: A(%d, %d) = %g (entry %lld) is not finite; an operator "
                            "takes finite values only",
                            (int)row, (int)col, val, (long long)bad);
  }
  strata_operator_t *o = NULL;
  if ((st = op_new(exec, OP_CRS, A->num_rows, A->num_cols, &o))) return st;
  o->A = A;
  if ((st = strata_spmv_plan_create(exec, A, spmv_opts, &o->plan))) {
    free(o);
    return st;
  }
  *op = o;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_create_format(strata_exec_t *exec, const strata_sparse_format_t *M,
                                              strata_operator_t **op) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_format: NULL op");
  *op = NULL;
  if (!exec || !M)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_format: NULL %s", !exec ? "exec" : "M");
  strata_operator_t *o = NULL;
  int32_t rows = 0, cols = 0;
  strata_status_t st = strata_format_size(M, &rows, &cols);
  if (!st) st = op_new(exec, OP_FORMAT, rows, cols, &o);
  if (st) return st;
  o->M = M;
  *op = o;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_create_user(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                            strata_operator_apply_fn apply, void *ctx, void (*destroy)(void *ctx),
                                            strata_operator_t **op) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_user: NULL op");
  *op = NULL;
  if (!exec || !apply)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_create_user: NULL %s", !exec ? "exec" : "apply");
  if (num_rows < 0 || num_cols < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "strata_operator_create_user: num_rows = %d, num_cols = %d (must be >= 0)", (int)num_rows,
                            (int)num_cols);
  strata_operator_t *o = NULL;
  strata_status_t st = op_new(exec, OP_USER, num_rows, num_cols, &o);
  if (st) return st;
  o->apply = apply;
  o->ctx = ctx;
  o->destroy = destroy;
  *op = o;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_apply(strata_exec_t *exec, const strata_operator_t *op, double alpha, const double *x,
                                      double beta, double *y) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_apply: NULL op");
  if (!exec) exec = op->exec;
  if (!y && op->num_rows > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_apply: NULL y with %d rows", (int)op->num_rows);
  if (!x && op->num_cols > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_apply: NULL x with %d columns",
                            (int)op->num_cols);
  switch (op->kind) {
    case OP_CRS: return strata_spmv_plan_apply(exec, op->plan, alpha, op->A, x, beta, y);
    case OP_FORMAT: return strata_format_spmv(exec, op->M, alpha, x, beta, y);
    default: return op->apply(op->ctx, exec, alpha, x, beta, y);
  }
}

strata_status_t strata_operator_size(const strata_operator_t *op, int32_t *num_rows, int32_t *num_cols) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_size: NULL op");
  if (num_rows) *num_rows = op->num_rows;
  if (num_cols) *num_cols = op->num_cols;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_crs(const strata_operator_t *op, const strata_crs_matrix_t **A) {
  if (!op || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_crs: NULL %s", !op ? "op" : "A");
  *A = op->kind == OP_CRS ? op->A : NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_set_comm(strata_operator_t *op, const strata_operator_comm_t *comm) {
  if (!op) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_set_comm: NULL op");
  if (comm && (!comm->reduce || !comm->agree))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_set_comm: NULL %s callback",
                            !comm->reduce ? "reduce" : "agree");
  op->has_comm = comm != NULL;
  if (comm) op->comm = *comm;
  return STRATA_SUCCESS;
}

strata_status_t strata_operator_comm(const strata_operator_t *op, const strata_operator_comm_t **comm) {
  if (!op || !comm)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_operator_comm: NULL %s", !op ? "op" : "comm");
  *comm = op->has_comm ? &op->comm : NULL;
  return STRATA_SUCCESS;
}

strata_exec_t *strata_impl_operator_exec(const strata_operator_t *op) { return op->exec; }

strata_status_t strata_operator_destroy(strata_operator_t **op) {
  if (!op || !*op) return STRATA_SUCCESS;
  strata_operator_t *o = *op;
  strata_spmv_plan_destroy(&o->plan);
  if (o->kind == OP_USER && o->destroy) o->destroy(o->ctx);
  free(o);
  *op = NULL;
  return STRATA_SUCCESS;
}
