/* strata solvers — partitions of the rows (METIS on the graph of A + Aᵀ, or contiguous blocks) and
 * the block decomposition of the Schwarz preconditioners (schwarz_impl.h): the overlap layers of
 * the extended index sets, the block-diagonal matrix B of every block's submatrix, and the gather /
 * scatter between A's rows and B's. Everything after the partition runs on the device; the host
 * touches O(n + P) values (the partition it is given, the block starts). Kernels: schwarz.kl.c. */
#include <stdlib.h>
#include <string.h>

#include "schwarz_impl.h"

#include "../kernels/schwarz_args.h"

#ifdef STRATA_HAVE_METIS
#include <metis.h>
#endif

STRATA_KERNEL_DECLARE(strata_schwarz_sym_coo);
STRATA_KERNEL_DECLARE(strata_schwarz_own_keys);
STRATA_KERNEL_DECLARE(strata_schwarz_layer);
STRATA_KERNEL_DECLARE(strata_schwarz_unique);
STRATA_KERNEL_DECLARE(strata_schwarz_group_starts);
STRATA_KERNEL_DECLARE(strata_schwarz_map);
STRATA_KERNEL_DECLARE(strata_schwarz_extract);
STRATA_KERNEL_DECLARE(strata_schwarz_regather);
STRATA_KERNEL_DECLARE(strata_schwarz_gather);
STRATA_KERNEL_DECLARE(strata_schwarz_scatter);

int strata_have_metis(void) {
#ifdef STRATA_HAVE_METIS
  return 1;
#else
  return 0;
#endif
}

/* ------------------------------------------------------------------ small helpers */

/* exec NULL: A's; else one of A's backend. */
static strata_status_t check_exec(strata_exec_t **exec, const strata_crs_matrix_t *A, const char *what) {
  if (!*exec) *exec = A->exec;
  if (!*exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: the matrix has no execution space", what);
  if (strata_exec_backend(*exec) != strata_exec_backend(A->exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec is %s but A lives on %s", what,
                            strata_backend_name(strata_exec_backend(*exec)),
                            strata_backend_name(strata_exec_backend(A->exec)));
  return STRATA_SUCCESS;
}

static strata_status_t dev_alloc(strata_exec_t *exec, size_t bytes, void *p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, bytes, (void **)p);
}
static void dev_free(strata_exec_t *exec, void *p) { strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)p); }

/* Bits of the largest key below `count` (at least 1), for the device sort. */
static int key_bits(int64_t count) {
  int bits = 1;
  while (bits < 63 && ((int64_t)1 << bits) < count) ++bits;
  return bits;
}

/* ------------------------------------------------------------------ partitions */

static void contiguous_parts(int32_t n, int32_t num_parts, int32_t *part) {
  const int32_t q = n / num_parts, r = n % num_parts; /* the first r blocks hold q + 1 rows */
  const int64_t split = (int64_t)r * (q + 1);
  for (int32_t i = 0; i < n; ++i)
    part[i] = i < split ? (int32_t)(i / (q + 1)) : (int32_t)(r + (i - split) / q);
}

#ifdef STRATA_HAVE_METIS
/* METIS_PartGraphKway on the graph of A + Aᵀ without the diagonal: the symmetric pattern is built on
 * the device (a kernel writes both (i, c) and (c, i), strata_crs_create_from_coo sorts and merges),
 * copied back once, and the diagonal dropped while it is converted to METIS's idx_t. */
static strata_status_t metis_parts(strata_exec_t *exec, const strata_crs_matrix_t *A, int32_t num_parts,
                                   int32_t *part) {
  const int32_t n = A->num_rows;
  if (2 * A->nnz > (int64_t)INT32_MAX && sizeof(idx_t) < 8)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "partition_rows: the graph of A + A^T has up to %lld entries, above the limit %d "
                            "of METIS's 32-bit idx_t", (long long)(2 * A->nnz), INT32_MAX);
  int32_t *rows = NULL, *cols = NULL;
  strata_crs_matrix_t *S = NULL;
  strata_status_t st = dev_alloc(exec, sizeof(int32_t) * (size_t)(2 * A->nnz), &rows);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int32_t) * (size_t)(2 * A->nnz), &cols);
  if (st == STRATA_SUCCESS && A->nnz > 0) {
    strata_schwarz_sym_coo_args_t a = {A->row_offsets, A->col_indices, rows, cols};
    st = strata_parallel_for(exec, "strata_partition_graph", strata_range(0, n), &strata_schwarz_sym_coo, &a);
  }
  if (st == STRATA_SUCCESS) st = strata_crs_create_from_coo(exec, n, n, 2 * A->nnz, rows, cols, NULL, &S);
  dev_free(exec, &rows);
  dev_free(exec, &cols);
  if (st != STRATA_SUCCESS) return st;
  int64_t *ro = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  int32_t *ci = (int32_t *)malloc(sizeof(int32_t) * (size_t)(S->nnz + 1));
  idx_t *xadj = (idx_t *)malloc(sizeof(idx_t) * ((size_t)n + 1));
  idx_t *adj = (idx_t *)malloc(sizeof(idx_t) * (size_t)(S->nnz + 1));
  idx_t *mp = (idx_t *)malloc(sizeof(idx_t) * (size_t)n);
  if (!ro || !ci || !xadj || !adj || !mp) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "partition_rows: %lld bytes of host memory for the graph",
                          (long long)((sizeof(int64_t) + 2 * sizeof(idx_t)) * (size_t)n +
                                      (sizeof(int32_t) + sizeof(idx_t)) * (size_t)S->nnz));
    goto done;
  }
  st = strata_mem_copy(exec, ro, S->row_offsets, sizeof(int64_t) * ((size_t)n + 1));
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, ci, S->col_indices, sizeof(int32_t) * (size_t)S->nnz);
  if (st != STRATA_SUCCESS) goto done;
  xadj[0] = 0;
  for (int32_t i = 0; i < n; ++i) {
    idx_t o = xadj[i];
    for (int64_t k = ro[i]; k < ro[i + 1]; ++k)
      if (ci[k] != i) adj[o++] = ci[k];
    xadj[i + 1] = o;
  }
  if (xadj[n] == 0) { /* no edges: every split is as good; METIS is not asked */
    contiguous_parts(n, num_parts, part);
    goto done;
  }
  {
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = 20260101; /* fixed: the same partition on every run */
    opt[METIS_OPTION_NUMBERING] = 0;
    idx_t nv = n, ncon = 1, np = num_parts, cut = 0;
    const int rc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &np, NULL, NULL, opt, &cut, mp);
    if (rc != METIS_OK) {
      st = strata_error_set(STRATA_ERR_INTERNAL,
                            "partition_rows: METIS_PartGraphKway returned %d (%s) for %d rows and %d parts", rc,
                            rc == METIS_ERROR_INPUT ? "METIS_ERROR_INPUT"
                            : rc == METIS_ERROR_MEMORY ? "METIS_ERROR_MEMORY"
                                                       : "METIS_ERROR",
                            n, num_parts);
      goto done;
    }
    for (int32_t i = 0; i < n; ++i) part[i] = (int32_t)mp[i];
  }
done:
  free(ro);
  free(ci);
  free(xadj);
  free(adj);
  free(mp);
  strata_crs_destroy(&S);
  return st;
}
#endif

strata_status_t strata_partition_rows(strata_exec_t *exec, const strata_crs_matrix_t *A, int32_t num_parts,
                                      strata_partitioner_t partitioner, int32_t *part) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "partition_rows: NULL matrix");
  if (!part && A->num_rows > 0) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "partition_rows: NULL part");
  strata_status_t st = check_exec(&exec, A, "partition_rows");
  if (st != STRATA_SUCCESS) return st;
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "partition_rows: A is %d x %d, not square", A->num_rows,
                            A->num_cols);
  const int32_t n = A->num_rows, limit = n > 0 ? n : 1;
  if (num_parts < 1 || num_parts > limit)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "partition_rows: num_parts = %d outside [1, %d] (at least 1, at most the rows of A)",
                            num_parts, limit);
  if (partitioner != STRATA_PARTITION_AUTO && partitioner != STRATA_PARTITION_METIS &&
      partitioner != STRATA_PARTITION_CONTIGUOUS)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "partition_rows: partitioner %d is none of AUTO (0), METIS (1), CONTIGUOUS (2)",
                            (int)partitioner);
  if (partitioner == STRATA_PARTITION_METIS && !strata_have_metis())
    return strata_error_set(STRATA_ERR_UNSUPPORTED,
                            "partition_rows: METIS asked for, but this build of strata has no METIS "
                            "(libmetis-dev was not found at configure time); use AUTO or CONTIGUOUS");
  const int automatic = partitioner == STRATA_PARTITION_AUTO;
  if (automatic) partitioner = strata_have_metis() ? STRATA_PARTITION_METIS : STRATA_PARTITION_CONTIGUOUS;
  if (n == 0) return STRATA_SUCCESS;
  if (partitioner == STRATA_PARTITION_CONTIGUOUS || num_parts == 1) {
    contiguous_parts(n, num_parts, part);
    return STRATA_SUCCESS;
  }
#ifdef STRATA_HAVE_METIS
  st = metis_parts(exec, A, num_parts, part);
  if (st != STRATA_SUCCESS || !automatic) return st;
  /* AUTO keeps the partition count asked for: where METIS leaves a partition empty (many parts of
   * a small graph: 3081 parts of ani4's 3081 rows gave 19 nonempty ones), contiguous blocks instead */
  char *used = (char *)calloc((size_t)num_parts, 1);
  if (!used) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "partition_rows: %d flags", num_parts);
  int32_t nonempty = 0;
  for (int32_t i = 0; i < n; ++i)
    if (!used[part[i]]) used[part[i]] = 1, ++nonempty;
  free(used);
  if (nonempty < num_parts) contiguous_parts(n, num_parts, part);
  return STRATA_SUCCESS;
#else
  return strata_error_set(STRATA_ERR_INTERNAL, "partition_rows: unreachable without METIS");
#endif
}

/* ------------------------------------------------------------------ the extended index sets */

/* One layer of overlap: the set keys [*m] (sorted) grows by the neighbours of the frontier
 * front [*f] (the pairs the layer before added; for the first layer the whole set). On return
 * *keys / *m is the new set and *front / *f the pairs this layer added (0 when none). */
static strata_status_t add_layer(strata_exec_t *exec, const strata_crs_matrix_t *A, const int32_t *part_d,
                                 int bits, int64_t **keys, int64_t *m, int64_t **front, int64_t *f) {
  const int64_t n = A->num_rows;
  int64_t *count = NULL, *all = NULL, *flags = NULL, *nkeys = NULL, *nfront = NULL, c = 0, m2 = 0, f2 = 0;
  strata_status_t st = dev_alloc(exec, sizeof(int64_t) * (size_t)*f, &count);
  if (st != STRATA_SUCCESS) return st;
  strata_schwarz_layer_args_t la = {*front, A->row_offsets, A->col_indices, part_d, n, count, NULL, NULL, NULL};
  st = strata_parallel_for(exec, "strata_schwarz_layer_count", strata_range(0, *f), &strata_schwarz_layer, &la);
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, *f, count, count, &c);
  if (st != STRATA_SUCCESS || c == 0) goto done; /* c == 0: no pair outside its own partition is reached */
  st = dev_alloc(exec, sizeof(int64_t) * (size_t)(*m + c), &all);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)(*m + c), &flags);
  if (st == STRATA_SUCCESS) st = strata_mem_copy_async(exec, all, *keys, sizeof(int64_t) * (size_t)*m);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, flags, 0, sizeof(int64_t) * (size_t)*m);
  if (st == STRATA_SUCCESS) {
    la.count = NULL;
    la.offsets = count;
    la.out_keys = all + *m;
    la.out_flags = flags + *m;
    st = strata_parallel_for(exec, "strata_schwarz_layer_emit", strata_range(0, *f), &strata_schwarz_layer, &la);
  }
  /* stable: a pair already in the set keeps its flag 0 at the head of its run */
  if (st == STRATA_SUCCESS) st = strata_sort_pairs_i64(exec, *m + c, bits, all, flags);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)(*m + c), &nkeys);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)c, &nfront);
  if (st == STRATA_SUCCESS) {
    strata_schwarz_unique_args_t ua = {all, flags, 0, nkeys};
    st = strata_parallel_scan(exec, "strata_schwarz_layer_unique", strata_range(0, *m + c), &strata_schwarz_unique,
                              &ua, &m2);
    if (st == STRATA_SUCCESS) {
      ua.only_new = 1;
      ua.out = nfront;
      st = strata_parallel_scan(exec, "strata_schwarz_layer_new", strata_range(0, *m + c), &strata_schwarz_unique,
                                &ua, &f2);
    }
  }
  if (st == STRATA_SUCCESS) {
    if (*front != *keys) dev_free(exec, front);
    dev_free(exec, keys);
    *keys = nkeys;
    *m = m2;
    *front = nfront;
    *f = f2;
    nkeys = nfront = NULL;
    c = 1;
  }
done:
  if (st == STRATA_SUCCESS && c == 0) *f = 0;
  dev_free(exec, &count);
  dev_free(exec, &all);
  dev_free(exec, &flags);
  dev_free(exec, &nkeys);
  dev_free(exec, &nfront);
  return st;
}

/* B = the blocks' submatrices: counts, a scan for the row offsets, the entries; B adopts them. */
static strata_status_t extract_blocks(strata_exec_t *exec, const strata_crs_matrix_t *A, const int64_t *starts_d,
                                      strata_impl_schwarz_blocks_t *b) {
  const int64_t E = b->num_ext;
  int64_t *ro = NULL, *src = NULL, nnz = 0;
  int32_t *cols = NULL;
  double *vals = NULL;
  strata_status_t st = dev_alloc(exec, sizeof(int64_t) * (size_t)(E + 1), &ro);
  if (st != STRATA_SUCCESS) return st;
  strata_schwarz_extract_args_t ea = {b->keys, starts_d, A->row_offsets, A->col_indices, A->values,
                                      A->num_rows, ro, NULL, NULL, NULL, NULL};
  st = strata_parallel_for(exec, "strata_schwarz_extract_count", strata_range(0, E), &strata_schwarz_extract, &ea);
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, E, ro, ro, &nnz);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, ro + E, &nnz, sizeof nnz);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int32_t) * (size_t)nnz, &cols);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(double) * (size_t)nnz, &vals);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)nnz, &src);
  if (st == STRATA_SUCCESS && nnz > 0) {
    ea.count = NULL;
    ea.offsets = ro;
    ea.cols = cols;
    ea.vals = vals;
    ea.src = src;
    st = strata_parallel_for(exec, "strata_schwarz_extract", strata_range(0, E), &strata_schwarz_extract, &ea);
  }
  if (st == STRATA_SUCCESS)
    st = strata_crs_create_from_csr(exec, (int32_t)E, (int32_t)E, nnz, ro, cols, vals, STRATA_CRS_ADOPT, &b->B);
  if (st == STRATA_SUCCESS) {
    b->src = src;
    return st;
  }
  dev_free(exec, &ro);
  dev_free(exec, &cols);
  dev_free(exec, &vals);
  dev_free(exec, &src);
  return st;
}

strata_status_t strata_impl_schwarz_blocks_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                  const int32_t *part, int32_t num_parts, int overlap,
                                                  int additive, strata_impl_schwarz_blocks_t **out) {
  if (!A || !out || (!part && A && A->num_rows > 0))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: NULL %s", !A ? "matrix" : !out ? "output" : "parts");
  *out = NULL;
  strata_status_t st = check_exec(&exec, A, "schwarz");
  if (st != STRATA_SUCCESS) return st;
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: A is %d x %d, not square", A->num_rows, A->num_cols);
  if (num_parts < 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: num_parts = %d, below the limit 1", num_parts);
  if (overlap < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: overlap = %d, below the limit 0", overlap);
  const int32_t n = A->num_rows;
  for (int32_t i = 0; i < n; ++i)
    if (part[i] < 0 || part[i] >= num_parts)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: parts[%d] = %d, outside [0, %d) (num_parts)", i,
                              part[i], num_parts);
  strata_impl_schwarz_blocks_t *b = (strata_impl_schwarz_blocks_t *)calloc(1, sizeof *b);
  if (b) b->block_start = (int64_t *)calloc((size_t)num_parts + 1, sizeof(int64_t));
  if (!b || !b->block_start) {
    free(b);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "schwarz: %lld bytes of host memory",
                            (long long)(sizeof *b + sizeof(int64_t) * ((size_t)num_parts + 1)));
  }
  b->exec = exec;
  b->n = n;
  b->num_parts = num_parts;
  b->overlap = overlap;
  int32_t *part_d = NULL;
  int64_t *flags = NULL, *front = NULL, *starts_d = NULL, m = n, f = n;
  const int bits = key_bits((int64_t)num_parts * n);
  if (n == 0) {
    st = strata_crs_create_from_csr(exec, 0, 0, 0, NULL, NULL, NULL, STRATA_CRS_COPY, &b->B);
    goto done;
  }
  st = dev_alloc(exec, sizeof(int32_t) * (size_t)n, &part_d);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, part_d, part, sizeof(int32_t) * (size_t)n);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)n, &b->keys);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)n, &flags);
  if (st == STRATA_SUCCESS) {
    strata_schwarz_own_keys_args_t oa = {part_d, n, b->keys, flags};
    st = strata_parallel_for(exec, "strata_schwarz_own_keys", strata_range(0, n), &strata_schwarz_own_keys, &oa);
  }
  if (st == STRATA_SUCCESS) st = strata_sort_pairs_i64(exec, n, bits, b->keys, flags);
  dev_free(exec, &flags);
  front = b->keys;
  for (int l = 0; st == STRATA_SUCCESS && l < overlap && f > 0; ++l)
    st = add_layer(exec, A, part_d, bits, &b->keys, &m, &front, &f);
  if (front != b->keys) dev_free(exec, &front);
  if (st != STRATA_SUCCESS) goto done;
  if (m > INT32_MAX) {
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "schwarz: the %d blocks with overlap %d hold %lld rows, above the limit %d of a CrsMatrix",
                          num_parts, overlap, (long long)m, INT32_MAX);
    goto done;
  }
  b->num_ext = (int32_t)m;
  st = dev_alloc(exec, sizeof(int64_t) * ((size_t)num_parts + 1), &starts_d);
  if (st == STRATA_SUCCESS) {
    strata_schwarz_group_starts_args_t ga = {b->keys, m, n, num_parts, starts_d};
    st = strata_parallel_for(exec, "strata_schwarz_block_starts", strata_range(0, m), &strata_schwarz_group_starts, &ga);
  }
  if (st == STRATA_SUCCESS)
    st = strata_mem_copy(exec, b->block_start, starts_d, sizeof(int64_t) * ((size_t)num_parts + 1));
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int32_t) * (size_t)m, &b->map);
  if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int32_t) * (size_t)n, &b->own);
  int64_t *ckeys = NULL;
  if (st == STRATA_SUCCESS && additive) {
    st = dev_alloc(exec, sizeof(int64_t) * (size_t)m, &ckeys);
    if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * (size_t)m, &b->copies);
    if (st == STRATA_SUCCESS) st = dev_alloc(exec, sizeof(int64_t) * ((size_t)n + 1), &b->copy_offsets);
  }
  if (st == STRATA_SUCCESS) {
    strata_schwarz_map_args_t ma = {b->keys, part_d, n, b->map, b->own, ckeys, b->copies};
    st = strata_parallel_for(exec, "strata_schwarz_map", strata_range(0, m), &strata_schwarz_map, &ma);
  }
  if (st == STRATA_SUCCESS && additive) {
    st = strata_sort_pairs_i64(exec, m, key_bits(n), ckeys, b->copies);
    strata_schwarz_group_starts_args_t ga = {ckeys, m, 1, n, b->copy_offsets};
    if (st == STRATA_SUCCESS)
      st = strata_parallel_for(exec, "strata_schwarz_copy_offsets", strata_range(0, m), &strata_schwarz_group_starts,
                               &ga);
  }
  dev_free(exec, &ckeys);
  if (st == STRATA_SUCCESS) st = extract_blocks(exec, A, starts_d, b);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(exec);
  for (int32_t p = 0; p < num_parts; ++p) b->num_nonempty += b->block_start[p + 1] > b->block_start[p];
done:
  dev_free(exec, &part_d);
  dev_free(exec, &starts_d);
  if (st != STRATA_SUCCESS) {
    strata_impl_schwarz_blocks_destroy(&b);
    return st;
  }
  *out = b;
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_schwarz_blocks_values(strata_exec_t *exec, strata_impl_schwarz_blocks_t *b,
                                                  const strata_crs_matrix_t *A) {
  if (!b || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: NULL %s", b ? "matrix" : "blocks");
  if (!exec) exec = b->exec;
  if (b->B->nnz == 0) return STRATA_SUCCESS;
  strata_schwarz_regather_args_t a = {b->src, A->values, b->B->values};
  return strata_parallel_for(exec, "strata_schwarz_values", strata_range(0, b->B->nnz), &strata_schwarz_regather, &a);
}

strata_status_t strata_impl_schwarz_gather(strata_exec_t *exec, const strata_impl_schwarz_blocks_t *b,
                                           const double *x, double *x_ext) {
  if (!exec) exec = b->exec;
  strata_schwarz_gather_args_t a = {b->map, x, x_ext};
  return strata_parallel_for(exec, "strata_schwarz_gather", strata_range(0, b->num_ext), &strata_schwarz_gather, &a);
}

strata_status_t strata_impl_schwarz_scatter(strata_exec_t *exec, const strata_impl_schwarz_blocks_t *b,
                                            int restricted, const double *z_ext, double *z) {
  if (!exec) exec = b->exec;
  if (b->n == 0) return STRATA_SUCCESS;
  if (!restricted && !b->copy_offsets)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: additive scatter of blocks built without copies");
  strata_schwarz_scatter_args_t a = {b->own, restricted ? NULL : b->copy_offsets, b->copies, z_ext, z};
  return strata_parallel_for(exec, "strata_schwarz_scatter", strata_range(0, b->n), &strata_schwarz_scatter, &a);
}

strata_status_t strata_impl_schwarz_row_origin(const strata_impl_schwarz_blocks_t *b, int32_t e, int32_t *part,
                                               int32_t *row) {
  if (!b || e < 0 || e >= b->num_ext)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "schwarz: extended row %d outside [0, %d)", e,
                            b ? b->num_ext : 0);
  int64_t key = 0;
  strata_status_t st = strata_mem_copy(b->exec, &key, b->keys + e, sizeof key);
  if (st != STRATA_SUCCESS) return st;
  *part = (int32_t)(key / b->n);
  *row = (int32_t)(key % b->n);
  return STRATA_SUCCESS;
}

void strata_impl_schwarz_blocks_destroy(strata_impl_schwarz_blocks_t **pb) {
  if (!pb || !*pb) return;
  strata_impl_schwarz_blocks_t *b = *pb;
  strata_crs_destroy(&b->B);
  dev_free(b->exec, &b->keys);
  dev_free(b->exec, &b->map);
  dev_free(b->exec, &b->own);
  dev_free(b->exec, &b->copy_offsets);
  dev_free(b->exec, &b->copies);
  dev_free(b->exec, &b->src);
  free(b->block_start);
  free(b);
  *pb = NULL;
}
