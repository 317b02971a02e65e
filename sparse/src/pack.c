/* strata sparse — pack rows of a CrsMatrix into packets, and unpack-and-combine packets into a
 * fill-complete CrsMatrix (DESIGN §4; Tpetra CrsMatrix::packAndPrepare / unpackAndCombine, with
 * aligned fields and every invalid entry reported). Host code orchestrates; kernels in
 * sparse/kernels/pack.kl.c do the work. */
#include <stdlib.h>
#include <string.h>

#include "sparse_impl.h"

STRATA_KERNEL_DECLARE(strata_sparse_pack_sizes);
STRATA_KERNEL_DECLARE(strata_sparse_pack_rows);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_one_level);

_Static_assert(STRATA_SPARSE_REP_MAX_EXAMPLES == STRATA_UNPACK_MAX_EXAMPLES,
               "device report slots match strata_unpack_report_t::examples");

strata_status_t strata_sparse_pack(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t num_rows,
                                   const int32_t *rows, const int64_t *col_gids,
                                   strata_packets_t **out) {
  if (!out) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_pack: NULL output");
  *out = NULL;
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_pack: NULL matrix");
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "sparse_pack");
  if (st != STRATA_SUCCESS) return st;
  if (num_rows < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_pack: num_rows = %lld is negative",
                            (long long)num_rows);
  if (!rows && num_rows > A->num_rows)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_pack: rows NULL (rows 0..num_rows-1) with num_rows = %lld > the "
                            "matrix's %d rows",
                            (long long)num_rows, (int)A->num_rows);
  if (rows) {
    int64_t bad = 0, first = -1;
    int32_t brow = 0;
    st = strata_sparse_impl_check_indices(exec, num_rows, rows, A->num_rows, NULL, 0, &bad, &first,
                                          &brow, NULL);
    if (st != STRATA_SUCCESS) return st;
    if (bad > 0)
      return strata_error_set(STRATA_ERR_INVALID_DATA,
                              "sparse_pack: %lld of %lld row ids outside [0, %d); first is rows[%lld] = %d",
                              (long long)bad, (long long)num_rows, (int)A->num_rows, (long long)first,
                              (int)brow);
  }
  strata_packets_t *P = (strata_packets_t *)calloc(1, sizeof *P);
  if (!P) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "sparse_pack: %zu bytes", sizeof *P);
  P->exec = exec;
  P->num_rows = num_rows;
  strata_sparse_pack_args_t a;
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.rows = rows;
  a.col_gids = col_gids;
  a.data = NULL;
  int64_t total = 0;
  st = strata_sparse_impl_alloc(exec, ((size_t)num_rows + 1) * sizeof(int64_t), (void **)&P->offsets);
  a.offsets = P->offsets;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_pack_sizes", strata_range(0, num_rows),
                             &strata_sparse_pack_sizes, &a);
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, num_rows, P->offsets, P->offsets, &total);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, P->offsets + num_rows, &total, sizeof total);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)total, (void **)&P->data);
  P->num_bytes = total;
  a.data = P->data;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_pack_rows", strata_range(0, num_rows),
                             &strata_sparse_pack_rows, &a);
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
  if (st != STRATA_SUCCESS) {
    strata_packets_destroy(&P);
    return st;
  }
  *out = P;
  return STRATA_SUCCESS;
}

strata_status_t strata_packets_destroy(strata_packets_t **p) {
  if (!p || !*p) return STRATA_SUCCESS;
  strata_sparse_impl_free((*p)->exec, (*p)->offsets);
  strata_sparse_impl_free((*p)->exec, (*p)->data);
  free(*p);
  *p = NULL;
  return STRATA_SUCCESS;
}

static const char *mode_name(strata_combine_mode_t m) {
  switch (m) {
    case STRATA_COMBINE_ADD: return "ADD";
    case STRATA_COMBINE_REPLACE: return "REPLACE";
    case STRATA_COMBINE_ABSMAX: return "ABSMAX";
    case STRATA_COMBINE_INSERT: return "INSERT";
    case STRATA_COMBINE_ZERO: return "ZERO";
  }
  return "?";
}

/* Validates the arguments of unpack_combine (everything that lives on the host). */
static strata_status_t unpack_check(strata_exec_t **exec, strata_crs_matrix_t *A,
                                    const int32_t *import_rows, const strata_packets_t *packets,
                                    const int32_t *col_lids, int64_t num_global,
                                    strata_combine_mode_t mode) {
  if (!A || !packets)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_unpack_combine: NULL %s",
                            A ? "packets" : "matrix");
  strata_status_t st = strata_sparse_impl_exec(exec, A->exec, "sparse_unpack_combine");
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_exec(exec, packets->exec, "sparse_unpack_combine (packets)");
  if (st != STRATA_SUCCESS) return st;
  if (mode == STRATA_COMBINE_INSERT)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: combine mode INSERT needs a non-fill-complete "
                            "target; not available yet");
  if (mode != STRATA_COMBINE_ADD && mode != STRATA_COMBINE_REPLACE && mode != STRATA_COMBINE_ABSMAX &&
      mode != STRATA_COMBINE_ZERO)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: combine mode %d is not ADD (0), REPLACE (1), "
                            "ABSMAX (2), INSERT (3) or ZERO (4)",
                            (int)mode);
  if (!A->fill_complete)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: the target matrix is not fill-complete");
  if (packets->num_rows < 0 || packets->num_bytes < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: packets with num_rows = %lld, num_bytes = %lld",
                            (long long)packets->num_rows, (long long)packets->num_bytes);
  if (packets->num_rows > 0 && (!import_rows || !packets->offsets))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: NULL %s with %lld packets",
                            import_rows ? "packet offsets" : "import_rows", (long long)packets->num_rows);
  if (col_lids && num_global < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: num_global = %lld is negative", (long long)num_global);
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_unpack_combine(strata_exec_t *exec, strata_crs_matrix_t *A,
                                             const int32_t *import_rows,
                                             const strata_packets_t *packets,
                                             const int32_t *col_lids, int64_t num_global,
                                             strata_combine_mode_t mode,
                                             strata_unpack_report_t *report) {
  if (report) memset(report, 0, sizeof *report);
  strata_status_t st = unpack_check(&exec, A, import_rows, packets, col_lids, num_global, mode);
  if (st != STRATA_SUCCESS || packets->num_rows == 0) return st;

  int64_t rep[STRATA_SPARSE_REP_LEN];
  int64_t *drep = NULL;
  st = strata_sparse_impl_alloc(exec, sizeof rep, (void **)&drep);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, drep, 0, sizeof rep);
  strata_sparse_unpack_args_t a;
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.num_rows = A->num_rows;
  a.num_cols = A->num_cols;
  a.import_rows = import_rows;
  a.offsets = packets->offsets;
  a.data = packets->data;
  a.num_bytes = packets->num_bytes;
  a.col_lids = col_lids;
  a.num_global = num_global;
  a.mode = (int)mode;
  a.report = drep;
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_unpack_combine", strata_range(0, packets->num_rows),
                             &strata_sparse_unpack_one_level, &a);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, rep, drep, sizeof rep);
  strata_sparse_impl_free(exec, drep);
  if (st != STRATA_SUCCESS) return st;

  strata_unpack_report_t r;
  memset(&r, 0, sizeof r);
  r.rows_unpacked = rep[STRATA_SPARSE_REP_ROWS];
  r.entries_combined = rep[STRATA_SPARSE_REP_ENTRIES];
  r.invalid_entries = rep[STRATA_SPARSE_REP_BAD_ENTRY];
  r.invalid_rows = rep[STRATA_SPARSE_REP_BAD_ROW];
  r.malformed_packets = rep[STRATA_SPARSE_REP_MALFORMED];
  const int64_t ne = rep[STRATA_SPARSE_REP_NEXT];
  r.num_examples = (int32_t)(ne < STRATA_UNPACK_MAX_EXAMPLES ? ne : STRATA_UNPACK_MAX_EXAMPLES);
  for (int32_t e = 0; e < r.num_examples; ++e) {
    r.examples[e].row = rep[STRATA_SPARSE_REP_EXAMPLES + 2 * e];
    r.examples[e].col = rep[STRATA_SPARSE_REP_EXAMPLES + 2 * e + 1];
  }
  if (report) *report = r;
  if (r.invalid_entries + r.invalid_rows + r.malformed_packets == 0) return STRATA_SUCCESS;
  return strata_error_set(
      STRATA_ERR_INVALID_DATA,
      "sparse_unpack_combine (%s): %lld invalid entries (column not in the target row's pattern), "
      "%lld invalid rows (outside [0, %d)), %lld malformed packets (of %lld, buffer %lld bytes); "
      "first example: row %lld, global column %lld (-1: whole row or packet); "
      "%lld valid entries were combined all the same",
      mode_name(mode), (long long)r.invalid_entries, (long long)r.invalid_rows, (int)A->num_rows,
      (long long)r.malformed_packets, (long long)packets->num_rows, (long long)packets->num_bytes,
      (long long)r.examples[0].row, (long long)r.examples[0].col, (long long)r.entries_combined);
}
