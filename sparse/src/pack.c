/* strata sparse — pack rows of a CrsMatrix into packets, and the column map that gives packets
 * global column ids (DESIGN §4; Tpetra CrsMatrix::packAndPrepare, with aligned fields). The
 * packets are unpacked and combined in unpack.c. Host code orchestrates; kernels in
 * sparse/kernels/pack.kl.c do the work. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pack_impl.h"

STRATA_KERNEL_DECLARE(strata_sparse_pack_sizes);
STRATA_KERNEL_DECLARE(strata_sparse_pack_offsets);
STRATA_KERNEL_DECLARE(strata_sparse_pack_rows);
STRATA_KERNEL_DECLARE(strata_sparse_pack_long);
STRATA_KERNEL_DECLARE(strata_col_map_build);
STRATA_KERNEL_DECLARE(strata_col_map_first_dup);
STRATA_KERNEL_DECLARE(strata_col_map_lookup);

/* pack: rows above this many entries are written by a team each on GPUs (strata_sparse_pack_long) */
#define STRATA_SPARSE_PACK_LONG_MIN 128

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
  P->stream_ordered = 1;
  strata_sparse_pack_args_t a;
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.rows = rows;
  a.col_gids = col_gids;
  a.data = NULL;
  a.num_rows = num_rows;
  /* GPUs: rows of more than PACK_LONG_MIN entries get a team each (a thread per row would
   * serialize a bulk node's row); host backends: a thread per row */
  const int gpu = !strata_exec_is_host(exec);
  a.long_min = STRATA_SPARSE_PACK_LONG_MIN;
  a.long_rows = NULL;
  /* offsets [num_rows + 1], then the count of long rows (one copy reads the total and it) */
  st = strata_mem_alloc_async(exec, ((size_t)num_rows + 2) * sizeof(int64_t), (void **)&P->offsets);
  a.offsets = P->offsets;
  a.num_long = P->offsets ? P->offsets + num_rows + 1 : NULL;
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, a.num_long, 0, sizeof(int64_t));
  if (st == STRATA_SUCCESS && gpu && num_rows > 0)
    st = strata_mem_alloc_async(exec, (size_t)num_rows * sizeof(int64_t), (void **)&a.long_rows);
  int64_t tail[2] = {0, 0}; /* the total bytes, the long rows */
  if (st == STRATA_SUCCESS && rows) { /* sizes, scanned */
    st = strata_parallel_for(exec, "strata_sparse_pack_sizes", strata_range(0, num_rows), &strata_sparse_pack_sizes, &a);
    if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, num_rows, P->offsets, P->offsets, &tail[0]);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, P->offsets + num_rows, &tail[0], sizeof tail[0]);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, &tail[1], a.num_long, sizeof tail[1]);
  } else if (st == STRATA_SUCCESS) { /* rows 0..num_rows-1: the offsets follow from A's */
    st = strata_parallel_for(exec, "strata_sparse_pack_offsets", strata_range(0, num_rows + 1),
                             &strata_sparse_pack_offsets, &a);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, tail, P->offsets + num_rows, sizeof tail);
  }
  const int64_t total = tail[0], num_long = tail[1];
  if (st == STRATA_SUCCESS) st = strata_mem_alloc_async(exec, (size_t)total, (void **)&P->data);
  P->num_bytes = total;
  a.data = P->data;
  /* lanes per packet: on GPUs the power of two at or above the mean entries per packet (up to a
   * warp's 32; long rows are the team kernel's), on the host 1 */
  a.width = 1;
  if (gpu && num_rows > 0) {
    const int64_t mean = ((total - 8 * num_rows) / 16 + num_rows - 1) / num_rows;
    while (a.width < 32 && a.width < mean) a.width *= 2;
  }
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_pack_rows", strata_range(0, num_rows * a.width),
                             &strata_sparse_pack_rows, &a);
  if (st == STRATA_SUCCESS && num_long > 0) {
    strata_team_policy_t pol = strata_team_policy(num_long, 4, 32);
    st = strata_parallel_for_team(exec, "strata_sparse_pack_long", &pol, &strata_sparse_pack_long, &a);
  }
  strata_mem_free_async(exec, (void **)&a.long_rows);
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
  if ((*p)->stream_ordered) {
    strata_mem_free_async((*p)->exec, (void **)&(*p)->offsets);
    strata_mem_free_async((*p)->exec, (void **)&(*p)->data);
  } else {
    strata_sparse_impl_free((*p)->exec, (*p)->offsets);
    strata_sparse_impl_free((*p)->exec, (*p)->data);
  }
  free(*p);
  *p = NULL;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ column map */

strata_status_t strata_col_map_destroy(strata_col_map_t **map) {
  if (!map || !*map) return STRATA_SUCCESS;
  strata_sparse_impl_free((*map)->exec, (*map)->gids);
  strata_sparse_impl_free((*map)->exec, (*map)->keys);
  strata_sparse_impl_free((*map)->exec, (*map)->vals);
  free(*map);
  *map = NULL;
  return STRATA_SUCCESS;
}

strata_status_t strata_col_map_create(strata_exec_t *exec, int64_t num_local, const int64_t *gids,
                                      strata_col_map_t **map) {
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_create: NULL output");
  *map = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_create: NULL execution space");
  if (num_local < 0 || num_local > INT32_MAX)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_create: num_local = %lld outside [0, %d]",
                            (long long)num_local, INT32_MAX);
  if (!gids && num_local > 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_create: NULL gids with num_local = %lld",
                            (long long)num_local);
  strata_col_map_t *m = (strata_col_map_t *)calloc(1, sizeof *m);
  if (!m) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "col_map_create: %zu bytes", sizeof *m);
  m->exec = exec;
  m->num_local = num_local;
  int64_t cap = 1;
  while (cap < 2 * num_local) cap *= 2;
  m->mask = cap - 1;
  int64_t *stats = NULL;
  const int64_t init[4] = {0, INT64_MAX, 0, INT64_MAX};
  int64_t got[4];
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)cap * sizeof(int64_t), (void **)&m->keys);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)cap * sizeof(int32_t), (void **)&m->vals);
  if (st == STRATA_SUCCESS && num_local > 0)
    st = strata_sparse_impl_alloc(exec, (size_t)num_local * sizeof(int64_t), (void **)&m->gids);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, sizeof init, (void **)&stats);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, m->keys, 0xFF, (size_t)cap * sizeof(int64_t)); /* -1 */
  if (st == STRATA_SUCCESS && num_local > 0) st = strata_mem_copy(exec, m->gids, gids, (size_t)num_local * sizeof(int64_t));
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, stats, init, sizeof init);
  strata_col_map_args_t a = {m->gids, NULL, m->keys, m->vals, m->mask, stats};
  if (st == STRATA_SUCCESS && num_local > 0)
    st = strata_parallel_for(exec, "strata_col_map_build", strata_range(0, num_local), &strata_col_map_build, &a);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, got, stats, sizeof got);
  if (st == STRATA_SUCCESS && got[2] > 0) { /* the first repeated id, the same on every backend */
    st = strata_parallel_for(exec, "strata_col_map_first_dup", strata_range(0, num_local), &strata_col_map_first_dup, &a);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, got, stats, sizeof got);
  }
  strata_sparse_impl_free(exec, stats);
  if (st == STRATA_SUCCESS && (got[0] > 0 || got[2] > 0)) {
    const int neg = got[0] > 0;
    const int64_t l = neg ? got[1] : got[3];
    int64_t g = 0;
    st = strata_mem_copy(exec, &g, m->gids + l, sizeof g);
    if (st == STRATA_SUCCESS)
      st = neg ? strata_error_set(STRATA_ERR_INVALID_DATA,
                                  "col_map_create: %lld negative global ids (global ids are >= 0); the first at "
                                  "local id %lld: %lld%s",
                                  (long long)got[0], (long long)l, (long long)g,
                                  got[2] > 0 ? "; global ids are repeated too" : "")
               : strata_error_set(STRATA_ERR_INVALID_DATA,
                                  "col_map_create: %lld of %lld local ids repeat a global id given at another "
                                  "(each local id needs its own global id); global id %lld is given at local id "
                                  "%lld (the first repeated) and at least one other",
                                  (long long)got[2], (long long)num_local, (long long)g, (long long)l);
  }
  if (st != STRATA_SUCCESS) {
    strata_col_map_destroy(&m);
    return st;
  }
  *map = m;
  return STRATA_SUCCESS;
}

strata_status_t strata_col_map_lids(strata_exec_t *exec, const strata_col_map_t *map, int64_t n,
                                    const int64_t *gids, int32_t *lids) {
  if (!map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_lids: NULL map");
  strata_status_t st = strata_sparse_impl_exec(&exec, map->exec, "col_map_lids");
  if (st != STRATA_SUCCESS) return st;
  if (n < 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_lids: n = %lld is negative", (long long)n);
  if (n > 0 && (!gids || !lids))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "col_map_lids: NULL %s with n = %lld", gids ? "lids" : "gids",
                            (long long)n);
  strata_col_map_args_t a = {gids, lids, map->keys, map->vals, map->mask, NULL};
  return n > 0 ? strata_parallel_for(exec, "strata_col_map_lookup", strata_range(0, n), &strata_col_map_lookup, &a)
               : STRATA_SUCCESS;
}

const int64_t *strata_col_map_gids(const strata_col_map_t *map) { return map ? map->gids : NULL; }
int64_t strata_col_map_size(const strata_col_map_t *map) { return map ? map->num_local : 0; }
