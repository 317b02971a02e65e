/* strata bench — the unpack baselines (issue 5 "Performance"): Tpetra's original one-level
 * unpackAndCombine and its current uniform batches, beside strata_sparse_unpack_combine.
 *
 * Batched, as Tpetra does it on every call (CrsMatrix unpackAndCombine, "batch" path): a serial host
 * loop over the packets, whose entry counts the host already holds (Tpetra: numPacketsPerLID on the
 * host), writes one (packet, first entry) pair per UNPACK_BASE_BATCH entries; the table is copied to
 * the device and one launch runs a team per batch. The host loop and the copy are part of every
 * timed call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "unpack_base_kernels.h"

STRATA_KERNEL_DECLARE(unpack_base_one_level);
STRATA_KERNEL_DECLARE(unpack_base_batched);

struct bench_unpack_base {
  strata_exec_t *e;
  unpack_base_args_t a;
  int64_t np, nb_max;
  int64_t *counts_h;       /* [np] entries per packet (host) */
  int64_t *tab_h;          /* [2 nb_max] batch table built on the host: packets, then first entries */
  int64_t *tab_d;          /* its device copy */
  int vl;
};

int bench_unpack_base_create(strata_exec_t *e, strata_crs_matrix_t *A, const int32_t *import_rows,
                             const strata_packets_t *pk, bench_unpack_base_t **out) {
  bench_unpack_base_t *b = (bench_unpack_base_t *)calloc(1, sizeof *b);
  *out = NULL;
  if (!b) return STRATA_ERR_OUT_OF_MEMORY;
  b->e = e;
  b->np = pk->num_rows;
  b->a.row_offsets = A->row_offsets;
  b->a.col_indices = A->col_indices;
  b->a.values = A->values;
  b->a.import_rows = import_rows;
  b->a.offsets = pk->offsets;
  b->a.data = pk->data;
  b->vl = strata_exec_is_host(e) ? 1 : UNPACK_BASE_BATCH;
  int64_t *off = (int64_t *)malloc((size_t)(b->np + 1) * sizeof(int64_t));
  b->counts_h = (int64_t *)malloc((size_t)(b->np + 1) * sizeof(int64_t));
  int st = off && b->counts_h ? strata_mem_copy(e, off, pk->offsets, (size_t)(b->np + 1) * sizeof(int64_t))
                              : STRATA_ERR_OUT_OF_MEMORY;
  for (int64_t k = 0; st == 0 && k < b->np; ++k) {
    b->counts_h[k] = (off[k + 1] - off[k] - 8) / 16;
    b->nb_max += (b->counts_h[k] + UNPACK_BASE_BATCH - 1) / UNPACK_BASE_BATCH;
  }
  free(off);
  b->tab_h = (int64_t *)malloc((size_t)(2 * b->nb_max + 1) * sizeof(int64_t));
  if (st == 0 && !b->tab_h) st = STRATA_ERR_OUT_OF_MEMORY;
  if (st == 0) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(2 * b->nb_max + 1) * sizeof(int64_t), (void **)&b->tab_d);
  if (st) {
    bench_unpack_base_destroy(&b);
    return st;
  }
  *out = b;
  return 0;
}

void bench_unpack_base_destroy(bench_unpack_base_t **p) {
  if (!p || !*p) return;
  strata_mem_free((*p)->e, STRATA_MEM_DEVICE, (void **)&(*p)->tab_d);
  free((*p)->counts_h);
  free((*p)->tab_h);
  free(*p);
  *p = NULL;
}

int bench_unpack_one_level(void *ctx, int64_t call) {
  bench_unpack_base_t *b = (bench_unpack_base_t *)ctx;
  (void)call;
  return strata_parallel_for(b->e, "bench_unpack_tpetra_one_level", strata_range(0, b->np), &unpack_base_one_level, &b->a);
}

int bench_unpack_batched(void *ctx, int64_t call) {
  bench_unpack_base_t *b = (bench_unpack_base_t *)ctx;
  (void)call;
  int64_t nb = 0; /* the serial host loop over the packets */
  for (int64_t k = 0; k < b->np; ++k)
    for (int64_t f = 0; f < b->counts_h[k]; f += UNPACK_BASE_BATCH) {
      b->tab_h[nb] = k;
      b->tab_h[b->nb_max + nb] = f;
      ++nb;
    }
  if (nb == 0) return 0;
  int st = strata_mem_copy(b->e, b->tab_d, b->tab_h, (size_t)(2 * b->nb_max) * sizeof(int64_t));
  if (st) return st;
  b->a.batch_pkt = b->tab_d;
  b->a.batch_begin = b->tab_d + b->nb_max;
  strata_team_policy_t pol = strata_team_policy(nb, 1, b->vl);
  return strata_parallel_for_team(b->e, "bench_unpack_tpetra_batched16", &pol, &unpack_base_batched, &b->a);
}

/* The packets of E's rows as strata_sparse_pack documents them (sparse.h), built here on the host
 * from E and compared field by field with pk: the check of a pack result before its time counts. */
int64_t bench_packets_wrong(const strata_crs_matrix_t *E, const strata_packets_t *pk) {
  const int64_t n = E->num_rows;
  if (!pk || pk->num_rows != n) return n > 0 ? n : 1;
  int64_t *off = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  unsigned char *data = (unsigned char *)malloc((size_t)pk->num_bytes + 8);
  if (!off || !data || strata_mem_copy(pk->exec, off, pk->offsets, (size_t)(n + 1) * sizeof(int64_t)) ||
      (pk->num_bytes && strata_mem_copy(pk->exec, data, pk->data, (size_t)pk->num_bytes))) {
    free(off), free(data);
    return n > 0 ? n : 1;
  }
  int64_t wrong = off[0] != 0 || off[n] != pk->num_bytes;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t b = E->row_offsets[k], count = E->row_offsets[k + 1] - b;
    if (off[k] < 0 || off[k] % 8 || off[k + 1] - off[k] != 8 + 16 * count || off[k + 1] > pk->num_bytes) { /* exactly: sparse.h */
      ++wrong;
      continue;
    }
    const int64_t *p = (const int64_t *)(data + off[k]);
    const double *v = (const double *)(p + 1 + count);
    int bad = p[0] != count;
    for (int64_t j = 0; j < count && !bad; ++j) {
      const double x = v[j], y = E->values[b + j];
      bad = p[1 + j] != (int64_t)E->col_indices[b + j] || !(x == y || (x != x && y != y));
    }
    wrong += bad;
  }
  free(off);
  free(data);
  return wrong;
}

/* The host reference of unpack_combine(ADD) (bench.h): per packet, its target row's columns are
 * marked with their places (pos[column] = entry of G), each entry added there, the marks removed. */
int bench_unpack_reference(const strata_crs_matrix_t *E, const int32_t *rows, const strata_crs_matrix_t *G, double *ref,
                           double *tol, char *err, size_t err_len) {
  const int64_t nnz = G->nnz;
  int64_t *pos = (int64_t *)malloc((size_t)G->num_cols * sizeof(int64_t) + 8);
  int64_t *cnt = (int64_t *)calloc((size_t)nnz + 1, sizeof(int64_t));
  int rc = 0;
  if (!pos || !cnt) {
    snprintf(err, err_len, "unpack reference: out of host memory for %lld columns and %lld entries",
             (long long)G->num_cols, (long long)nnz);
    free(pos), free(cnt);
    return -1;
  }
  for (int64_t c = 0; c < G->num_cols; ++c) pos[c] = -1;
  for (int64_t q = 0; q < nnz; ++q) ref[q] = 0.0, tol[q] = 0.0;
  for (int64_t k = 0; k < E->num_rows && !rc; ++k) {
    const int32_t r = rows[k];
    if (r < 0 || r >= G->num_rows) {
      snprintf(err, err_len, "unpack reference: packet %lld targets row %d, outside [0, %d)", (long long)k, r, G->num_rows);
      rc = -1;
      break;
    }
    for (int64_t q = G->row_offsets[r]; q < G->row_offsets[r + 1]; ++q) pos[G->col_indices[q]] = q;
    for (int64_t j = E->row_offsets[k]; j < E->row_offsets[k + 1]; ++j) {
      const int32_t c = E->col_indices[j];
      const int64_t q = c >= 0 && c < G->num_cols ? pos[c] : -1;
      if (q < 0) {
        snprintf(err, err_len, "unpack reference: packet %lld, column %d is not in target row %d's pattern", (long long)k, c, r);
        rc = -1;
        break;
      }
      ref[q] += E->values[j];
      tol[q] += fabs(E->values[j]);
      ++cnt[q];
    }
    for (int64_t q = G->row_offsets[r]; q < G->row_offsets[r + 1]; ++q) pos[G->col_indices[q]] = -1;
  }
  for (int64_t q = 0; q < nnz; ++q) tol[q] *= 4.0 * 0x1.0p-52 * (double)(cnt[q] + 2);
  free(pos);
  free(cnt);
  return rc;
}
