/* strata solvers — block-Jacobi and (restricted) additive Schwarz as a preconditioner (schwarz.h).
 * Setup: the partition (the user's, or strata_partition_rows), the block decomposition of
 * partition.c (overlap layers and the block-diagonal matrix B of every block, on the device), and
 * one ILU(k) of B: its level schedule spans every block, so all blocks factor and solve in the same
 * launches. Apply: gather r into the blocks' rows, the two triangular solves of B, then the
 * restricted (own rows) or additive (sum of the copies, in a fixed order) scatter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schwarz_impl.h"
#include "solvers_impl.h"

typedef struct schwarz_ctx {
  strata_exec_t *exec;
  strata_schwarz_options_t opts; /* opts.parts: the user's pointer, read at every setup */
  strata_impl_schwarz_blocks_t *blocks;
  strata_ilu_t *F;
  double *r_ext, *z_ext; /* [E] work vectors of an application */
  /* the matrix set up last: the same one again (same arrays) refactors only */
  const strata_crs_matrix_t *A;
  const int64_t *A_ro;
  const int32_t *A_ci;
  int64_t A_nnz;
  int32_t A_n;
  double partition_s;
  strata_precond_stats_t stats;
} schwarz_ctx_t;

void strata_schwarz_options_default(strata_schwarz_options_t *opts) {
  if (!opts) return;
  memset(opts, 0, sizeof *opts);
  opts->num_parts = 1;
  opts->overlap = 0;
  opts->restricted = 1;
  opts->partitioner = STRATA_PARTITION_AUTO;
  opts->parts = NULL;
  strata_ilu_options_default(&opts->ilu);
}

static void ctx_release(schwarz_ctx_t *c) {
  strata_ilu_destroy(&c->F);
  if (c->blocks) {
    strata_mem_free(c->blocks->exec, STRATA_MEM_DEVICE, (void **)&c->r_ext);
    strata_mem_free(c->blocks->exec, STRATA_MEM_DEVICE, (void **)&c->z_ext);
  }
  strata_impl_schwarz_blocks_destroy(&c->blocks);
  c->A = NULL;
}

static void schwarz_destroy(void *ctx) {
  schwarz_ctx_t *c = (schwarz_ctx_t *)ctx;
  if (!c) return;
  ctx_release(c);
  free(c);
}

/* An ILU error of B (INVALID_DATA naming "row E" of B) again, in A's numbering: the partition and
 * A's row of extended row E, then the factorization's own message. */
static strata_status_t block_error(const schwarz_ctx_t *c, strata_status_t st) {
  char msg[768];
  snprintf(msg, sizeof msg, "%s", strata_error_message());
  if (st != STRATA_ERR_INVALID_DATA) return st;
  const char *at = strstr(msg, "row ");
  long e = -1;
  if (at && sscanf(at + 4, "%ld", &e) == 1 && e >= 0 && e < c->blocks->num_ext) {
    int32_t part = -1, row = -1;
    if (strata_impl_schwarz_row_origin(c->blocks, (int32_t)e, &part, &row) == STRATA_SUCCESS)
      return strata_error_set(st, "schwarz: row %d of A in the block of partition %d (row %ld of the blocks' matrix): %s",
                              row, part, e, msg);
  }
  return strata_error_set(st, "schwarz: a block's factorization: %s", msg);
}

static strata_status_t schwarz_setup(void *ctx, strata_exec_t *exec, const strata_operator_t *op) {
  schwarz_ctx_t *c = (schwarz_ctx_t *)ctx;
  if (!exec) exec = c->exec;
  const strata_crs_matrix_t *A = NULL;
  if (strata_operator_crs(op, &A) != STRATA_SUCCESS || !A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "schwarz: the operator has no CrsMatrix (make it with strata_operator_create_crs)");
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: A is %d x %d, not square", A->num_rows, A->num_cols);
  const strata_schwarz_options_t *o = &c->opts;
  const int32_t n = A->num_rows;
  strata_status_t st;
  double t0 = strata_timer_now();
  if (c->blocks && c->A == A && c->A_n == n && c->A_nnz == A->nnz && c->A_ro == A->row_offsets &&
      c->A_ci == A->col_indices) { /* new values, same pattern: B's values, then the numeric phase */
    st = strata_impl_schwarz_blocks_values(exec, c->blocks, A);
    if (st == STRATA_SUCCESS) st = strata_ilu_refactor(exec, c->F, c->blocks->B);
    if (st != STRATA_SUCCESS) return block_error(c, st);
    strata_precond_stats_t s;
    if (strata_ilu_stats(c->F, &s) == STRATA_SUCCESS) {
      c->stats.numeric_s = s.numeric_s;
      c->stats.nnz = s.nnz;
    }
    return STRATA_SUCCESS;
  }
  ctx_release(c);
  const int32_t limit = n > 0 ? n : 1;
  if (!o->parts && o->num_parts > limit)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "schwarz: num_parts = %d, above the limit %d (the rows of A; give parts for more)",
                            o->num_parts, limit);
  int32_t *part = NULL;
  if (!o->parts && n > 0) {
    part = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    if (!part) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "schwarz: %zu bytes of host memory", sizeof(int32_t) * (size_t)n);
    st = strata_partition_rows(exec, A, o->num_parts, o->partitioner, part);
    if (st != STRATA_SUCCESS) {
      free(part);
      return st;
    }
  }
  c->partition_s = strata_timer_now() - t0;
  st = strata_impl_schwarz_blocks_create(exec, A, o->parts ? o->parts : part, o->num_parts, o->overlap,
                                         !o->restricted, &c->blocks);
  free(part);
  if (st != STRATA_SUCCESS) return st;
  const double blocks_s = strata_timer_now() - t0;
  st = strata_ilu_create(exec, c->blocks->B, &o->ilu, &c->F);
  if (st != STRATA_SUCCESS) {
    st = block_error(c, st);
    ctx_release(c);
    return st;
  }
  const size_t bytes = sizeof(double) * (size_t)c->blocks->num_ext;
  st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&c->r_ext);
  if (st == STRATA_SUCCESS) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)&c->z_ext);
  if (st != STRATA_SUCCESS) {
    ctx_release(c);
    return st;
  }
  memset(&c->stats, 0, sizeof c->stats);
  strata_ilu_stats(c->F, &c->stats);
  c->stats.symbolic_s += blocks_s; /* partition, overlap and extraction, then ILU's level of fill */
  c->stats.num_parts = c->blocks->num_nonempty;
  c->stats.rows_extended = c->blocks->num_ext;
  c->A = A;
  c->A_ro = A->row_offsets;
  c->A_ci = A->col_indices;
  c->A_nnz = A->nnz;
  c->A_n = n;
  return STRATA_SUCCESS;
}

static strata_status_t schwarz_apply(void *ctx, strata_exec_t *exec, const double *r, double *z) {
  schwarz_ctx_t *c = (schwarz_ctx_t *)ctx;
  if (!c->blocks) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: apply before setup");
  if (!exec) exec = c->exec;
  if (c->blocks->n == 0) return STRATA_SUCCESS;
  strata_status_t st = strata_impl_schwarz_gather(exec, c->blocks, r, c->r_ext);
  if (st == STRATA_SUCCESS) st = strata_ilu_solve(exec, c->F, c->r_ext, c->z_ext);
  if (st == STRATA_SUCCESS) st = strata_impl_schwarz_scatter(exec, c->blocks, c->opts.restricted, c->z_ext, z);
  return st;
}

static strata_status_t schwarz_stats(const void *ctx, strata_precond_stats_t *stats) {
  *stats = ((const schwarz_ctx_t *)ctx)->stats;
  return STRATA_SUCCESS;
}

strata_status_t strata_precond_create_schwarz(strata_exec_t *exec, const strata_schwarz_options_t *opts,
                                              strata_precond_t **P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "precond_create_schwarz: NULL output");
  *P = NULL;
  strata_schwarz_options_t o;
  if (opts)
    o = *opts;
  else
    strata_schwarz_options_default(&o);
  if (o.num_parts < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "precond_create_schwarz: num_parts = %d, below the limit 1",
                            o.num_parts);
  if (o.overlap < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "precond_create_schwarz: overlap = %d, below the limit 0",
                            o.overlap);
  if (o.partitioner != STRATA_PARTITION_AUTO && o.partitioner != STRATA_PARTITION_METIS &&
      o.partitioner != STRATA_PARTITION_CONTIGUOUS)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "precond_create_schwarz: partitioner %d is none of AUTO (0), METIS (1), CONTIGUOUS (2)",
                            (int)o.partitioner);
  if (o.partitioner == STRATA_PARTITION_METIS && !o.parts && !strata_have_metis())
    return strata_error_set(STRATA_ERR_UNSUPPORTED,
                            "precond_create_schwarz: METIS asked for, but this build of strata has no METIS "
                            "(libmetis-dev was not found at configure time); use AUTO or CONTIGUOUS");
  schwarz_ctx_t *c = (schwarz_ctx_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "precond_create_schwarz: %zu bytes", sizeof *c);
  c->exec = exec;
  c->opts = o;
  char name[96];
  if (o.overlap == 0) /* additive and restricted agree without overlap */
    snprintf(name, sizeof name, "bjacobi(%d, ilu(%d))", o.num_parts, o.ilu.fill_level);
  else
    snprintf(name, sizeof name, "%s(%d, overlap %d, ilu(%d))", o.restricted ? "ras" : "asm", o.num_parts, o.overlap,
             o.ilu.fill_level);
  strata_precond_ops_t ops;
  memset(&ops, 0, sizeof ops);
  ops.name = name;
  ops.setup = schwarz_setup;
  ops.apply = schwarz_apply;
  ops.destroy = schwarz_destroy;
  ops.variable = 0;
  return strata_impl_precond_create(exec, &ops, c, name, schwarz_stats, P);
}
