/* strata fem — the distributed assembly (fem_dist.h): partition of the node graph, each rank's
 * elements, export of the element rows to their owners (strata_dist_export_rows: pack, packet
 * exchange, unpack_combine), the gather of the owned rows to rank 0. */
#include "fem_dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli_gather.h"

#define AGREE(s)                                 \
  do {                                           \
    st = strata_dist_agree(comm, (s));           \
    if (st != STRATA_SUCCESS) goto done;         \
  } while (0)

static strata_status_t to_dev(strata_exec_t *e, void **dst, const void *src, size_t bytes) {
  *dst = NULL;
  if (!bytes) return STRATA_SUCCESS;
  strata_status_t st = strata_mem_alloc(e, STRATA_MEM_DEVICE, bytes, dst);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(e, *dst, src, bytes);
  return st;
}

/* a checksum of the mesh (nodes, tets, coordinates' bits, boundary flags): every rank must hold
 * the same mesh (a mesher that is not deterministic across processes would break the assembly) */
static uint64_t mesh_hash(const fem_mesh_t *m) {
  uint64_t h = 1469598103934665603ull;
  const unsigned char *p[3] = {(const unsigned char *)m->tets, (const unsigned char *)m->xyz, m->on_boundary};
  const size_t len[3] = {(size_t)m->num_tets * 16, (size_t)m->num_nodes * 24, (size_t)m->num_nodes};
  for (int a = 0; a < 3; ++a)
    for (size_t i = 0; i < len[a]; ++i) h = (h ^ p[a][i]) * 1099511628211ull;
  return h ^ (uint64_t)m->num_nodes * 31 ^ (uint64_t)m->num_tets;
}

strata_status_t fem_dist_local_create(strata_exec_t *e, const fem_mesh_t *m, int64_t K, const int32_t *sel, int64_t nsel,
                                      const int64_t *new_ids, const int32_t *owner, int rank, fem_dist_local_t *L) {
  const int64_t n = m->num_nodes, nt = m->num_tets, nmesh = n - K;
  memset(L, 0, sizeof *L);
  int64_t ntl = 0, msl = 0;
  for (int64_t t = 0; t < nt; ++t) ntl += owner[new_ids[m->tets[4 * t]]] == rank;
  for (int64_t s = 0; s < nsel; ++s) msl += owner[new_ids[sel[s]]] == rank;
  const int64_t ner = 4 * ntl + (K * msl > 0 ? K + K * msl : 0);
  L->ntl = ntl, L->msl = msl, L->ner = ner;
  int32_t *tl = L->tl = (int32_t *)malloc(((size_t)ntl + 1) * 4 * sizeof(int32_t));
  int32_t *sl = L->sl = (int32_t *)malloc(((size_t)msl + 1) * sizeof(int32_t));
  int32_t *bulk = L->bulk = (int32_t *)malloc(((size_t)K + 1) * sizeof(int32_t));
  int64_t *row_gids = L->row_gids = (int64_t *)malloc(((size_t)ner + 1) * sizeof(int64_t));
  double *xyz = L->xyz = (double *)malloc(((size_t)n + 1) * 3 * sizeof(double));
  if (!tl || !sl || !bulk || !row_gids || !xyz)
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld element rows", (long long)ner);
  if (ner > INT32_MAX)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "fem dist: %lld element rows on this rank, above %d", (long long)ner,
                            INT32_MAX);
  for (int64_t i = 0; i < n; ++i) memcpy(xyz + 3 * new_ids[i], m->xyz + 3 * i, 3 * sizeof(double));
  for (int64_t t = 0, q = 0; t < nt; ++t)
    if (owner[new_ids[m->tets[4 * t]]] == rank) {
      for (int c = 0; c < 4; ++c) tl[4 * q + c] = (int32_t)new_ids[m->tets[4 * t + c]];
      ++q;
    }
  for (int64_t s = 0, q = 0; s < nsel; ++s)
    if (owner[new_ids[sel[s]]] == rank) sl[q++] = (int32_t)new_ids[sel[s]];
  for (int64_t q = 0; q < K; ++q) bulk[q] = (int32_t)new_ids[nmesh + q];
  /* the element rows' nodes (fem_element_rows' import_rows, known here on the host) */
  for (int64_t r = 0; r < 4 * ntl; ++r) row_gids[r] = tl[r];
  if (K * msl > 0) {
    for (int64_t q = 0; q < K; ++q) row_gids[4 * ntl + q] = bulk[q];
    for (int64_t p = 0; p < K * msl; ++p) row_gids[4 * ntl + K + p] = sl[p % msl];
  }
  strata_status_t st = to_dev(e, (void **)&L->xyz_d, xyz, (size_t)n * 3 * sizeof(double));
  if (!st) st = to_dev(e, (void **)&L->tl_d, tl, (size_t)ntl * 4 * sizeof(int32_t));
  if (!st) st = to_dev(e, (void **)&L->sl_d, sl, (size_t)msl * sizeof(int32_t));
  if (!st) st = to_dev(e, (void **)&L->bulk_d, bulk, (size_t)K * sizeof(int32_t));
  return st;
}

strata_status_t fem_dist_local_elements(strata_exec_t *e, const fem_dist_local_t *L, int64_t n, int64_t nmesh, int64_t K,
                                        strata_crs_matrix_t *E, int32_t **import_rows) {
  return fem_element_rows(e, L->xyz_d, L->tl_d, L->tl, L->ntl, n, nmesh, K, L->msl, L->sl_d, L->bulk_d, E, import_rows);
}

void fem_dist_local_free(strata_exec_t *e, fem_dist_local_t *L) {
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&L->xyz_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&L->tl_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&L->sl_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&L->bulk_d);
  free(L->tl), free(L->sl), free(L->bulk), free(L->row_gids), free(L->xyz);
  memset(L, 0, sizeof *L);
}

strata_status_t fem_dist_assemble(const fem_dist_options_t *o, strata_exec_t *e, const fem_mesh_t *m,
                                  const int32_t *tets_dev, const uint8_t *bnd_dev, int64_t K, const int32_t *sel,
                                  const int32_t *sel_dev, int64_t nsel, strata_crs_matrix_t **Aout, fem_result_t *res) {
  MPI_Comm comm = o->comm;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  *Aout = NULL;
  strata_status_t st = STRATA_SUCCESS;
  const int64_t n = m->num_nodes, nt = m->num_tets, nmesh = n - K;
  strata_crs_matrix_t *G = NULL, *A = NULL, *Ag = NULL;
  strata_dist_map_t *map = NULL;
  int64_t *new_ids = NULL, *offs = NULL, *old_of = NULL, *row_gids = NULL; /* row_gids: L's */
  int32_t *owner = NULL, *erows = NULL;
  fem_dist_local_t L;
  memset(&L, 0, sizeof L);
  int32_t *imp = NULL;
  strata_crs_matrix_t E;
  memset(&E, 0, sizeof E);
  int64_t *hro = NULL;
  int32_t *hci = NULL, *cr = NULL, *cc = NULL, *gr = NULL, *gc = NULL;
  double *hv = NULL, *gv = NULL;
  void *gr_d = NULL, *gc_d = NULL, *gv_d = NULL;
  int *counts = NULL, *displs = NULL;
  strata_dist_packets_options_t po;
  memset(&po, 0, sizeof po);
  po.staging = o->staging;
  res->ranks = size;
  snprintf(res->partitioner, sizeof res->partitioner, "%s",
           o->part ? "given" : strata_dist_partitioner_name(o->partitioner) ? strata_dist_partitioner_name(o->partitioner) : "?");

  { /* the same mesh on every rank */
    uint64_t h = mesh_hash(m), hmin = 0, hmax = 0;
    MPI_Allreduce(&h, &hmin, 1, MPI_UINT64_T, MPI_MIN, comm);
    MPI_Allreduce(&h, &hmax, 1, MPI_UINT64_T, MPI_MAX, comm);
    if (hmin != hmax)
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "fem dist: the ranks hold different meshes (checksums differ; this rank: %lld nodes, %lld tets): "
                            "mesh once and load it with --mesh", (long long)n, (long long)nt);
    AGREE(st);
  }

  /* 1. partition and renumbering */
  double t0 = strata_timer_now();
  if (o->part) {
    new_ids = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    AGREE(new_ids ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld new ids", (long long)n));
    st = strata_dist_partition_renumber(comm, 0, n, rank == 0 ? o->part : NULL, new_ids, &map);
    if (st) goto done;
  } else {
    if (rank == 0) st = fem_graph_build(e, n, nt, tets_dev, K, nsel, sel_dev, &G);
    AGREE(st);
    int64_t nn = 0;
    st = strata_dist_partition_crs(comm, 0, e, G, o->partitioner, &nn, &new_ids, &map);
    if (st) goto done;
    strata_crs_destroy(&G);
  }
  strata_dist_map_info_t mi;
  strata_dist_map_info(map, &mi);
  const int32_t nown = mi.num_local;
  offs = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  owner = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  old_of = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  AGREE(offs && owner && old_of ? STRATA_SUCCESS
                                       : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: the renumbering of %lld nodes", (long long)n));
  {
    int64_t mine = nown;
    MPI_Allgather(&mine, 1, MPI_INT64_T, offs + 1, 1, MPI_INT64_T, comm);
    for (int r = 0; r < size; ++r) offs[r + 1] += offs[r];
    for (int r = 0; r < size; ++r)
      for (int64_t g = offs[r]; g < offs[r + 1]; ++g) owner[g] = r; /* owner of new id g */
    for (int64_t i = 0; i < n; ++i) old_of[new_ids[i]] = i;
  }
  res->seconds[FEM_PHASE_GRAPH] += strata_timer_now() - t0;
  if (o->new_ids) memcpy(o->new_ids, new_ids, (size_t)n * sizeof(int64_t));
  if (o->first_ids) memcpy(o->first_ids, offs, ((size_t)size + 1) * sizeof(int64_t));

  /* 2. this rank's elements, in the new numbering */
  st = fem_dist_local_create(e, m, K, sel, nsel, new_ids, owner, rank, &L);
  const int64_t ner = L.ner;
  erows = (int32_t *)malloc(((size_t)ner + 1) * sizeof(int32_t));
  if (!st && !erows) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld element rows", (long long)ner);
  for (int64_t r = 0; !st && r < ner; ++r) erows[r] = (int32_t)r;
  row_gids = L.row_gids;
  AGREE(st);
  t0 = strata_timer_now();
  st = fem_dist_local_elements(e, &L, n, nmesh, K, &E, &imp);
  const double t_element = strata_timer_now() - t0;
  AGREE(st);

  /* 3. the owner's pattern (INSERT into an empty matrix), then the timed ADD pass */
  t0 = strata_timer_now();
  st = strata_crs_create_from_coo(e, nown, (int32_t)n, 0, NULL, NULL, NULL, &A);
  AGREE(st);
  strata_dist_export_report_t rep;
  st = strata_dist_export_rows(e, map, &E, ner, erows, row_gids, NULL, A, NULL, n, STRATA_COMBINE_INSERT, &po, &rep);
  res->dist_invalid = rep.invalid_entries;
  if (st) goto done;
  if (A->nnz > 0) st = strata_mem_set_async(e, A->values, 0, (size_t)A->nnz * sizeof(double));
  if (!st) st = strata_exec_fence(e);
  res->seconds[FEM_PHASE_GRAPH] += strata_timer_now() - t0;
  AGREE(st);
  st = strata_dist_export_rows(e, map, &E, ner, erows, row_gids, NULL, A, NULL, n, STRATA_COMBINE_ADD, &po, &rep);
  res->dist_invalid = rep.invalid_entries;
  if (st) goto done;
  res->unpack_invalid = rep.invalid_entries;
  res->entries_combined = rep.entries_combined;
  res->seconds[FEM_PHASE_ELEMENT] += t_element;
  res->seconds[FEM_PHASE_PACK] += rep.pack_s;
  res->seconds[FEM_PHASE_UNPACK] += rep.unpack_s;
  {
    int64_t loc[2] = {A->nnz, rep.exchange.bytes_sent}, glob[2];
    MPI_Allreduce(loc, glob, 2, MPI_INT64_T, MPI_SUM, comm);
    res->nnz = glob[0];
    res->bytes_exchanged = glob[1];
    struct fem_rank_stats rs;
    memset(&rs, 0, sizeof rs);
    rs.owned_nodes = nown;
    rs.tets = L.ntl;
    rs.packets_sent = rep.exchange.packets_sent;
    rs.bytes_sent = rep.exchange.bytes_sent;
    rs.bytes_received = rep.exchange.bytes_received;
    rs.element = t_element;
    rs.pack = rep.pack_s;
    rs.exchange = rep.exchange_s;
    rs.unpack_combine = rep.unpack_s;
    if (rank == 0) {
      res->per_rank = (struct fem_rank_stats *)calloc((size_t)size, sizeof rs);
      st = res->per_rank ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %d rank records", size);
    }
    AGREE(st);
    MPI_Gather(&rs, (int)sizeof rs, MPI_BYTE, res->per_rank, (int)sizeof rs, MPI_BYTE, 0, comm);
  }

  /* 4. the owned rows to rank 0, in the mesh's numbering (COO: rows, columns, values) */
  {
    const int64_t nz = A->nnz;
    hro = (int64_t *)malloc(((size_t)nown + 1) * sizeof(int64_t));
    hci = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
    hv = (double *)malloc(((size_t)nz + 1) * sizeof(double));
    cr = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
    cc = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
    st = hro && hci && hv && cr && cc ? STRATA_SUCCESS
                                      : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld entries to gather", (long long)nz);
    if (!st) st = strata_mem_copy(e, hro, A->row_offsets, ((size_t)nown + 1) * sizeof(int64_t));
    if (!st && nz) st = strata_mem_copy(e, hci, A->col_indices, (size_t)nz * sizeof(int32_t));
    if (!st && nz) st = strata_mem_copy(e, hv, A->values, (size_t)nz * sizeof(double));
    if (!st && nz > INT32_MAX)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "fem dist: %lld entries on one rank to gather, above MPI's count %d",
                            (long long)nz, INT32_MAX);
    if (!st)
      for (int32_t r = 0; r < nown; ++r)
        for (int64_t k = hro[r]; k < hro[r + 1]; ++k) {
          cr[k] = (int32_t)old_of[offs[rank] + r];
          cc[k] = (int32_t)old_of[hci[k]];
        }
    AGREE(st);
    int cnt = (int)nz;
    int64_t total = res->nnz;
    if (rank == 0) {
      counts = (int *)malloc((size_t)size * sizeof(int));
      displs = (int *)malloc((size_t)size * sizeof(int));
      gr = (int32_t *)malloc(((size_t)total + 1) * sizeof(int32_t));
      gc = (int32_t *)malloc(((size_t)total + 1) * sizeof(int32_t));
      gv = (double *)malloc(((size_t)total + 1) * sizeof(double));
      st = counts && displs && gr && gc && gv ? STRATA_SUCCESS
                                              : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld entries gathered", (long long)total);
      if (!st && total > INT32_MAX)
        st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "fem dist: %lld entries to gather on rank 0, above MPI's count %d",
                              (long long)total, INT32_MAX);
    }
    AGREE(st);
    cli_gather_layout(comm, 0, cnt, counts, displs);
    MPI_Gatherv(cr, cnt, MPI_INT32_T, gr, counts, displs, MPI_INT32_T, 0, comm);
    MPI_Gatherv(cc, cnt, MPI_INT32_T, gc, counts, displs, MPI_INT32_T, 0, comm);
    MPI_Gatherv(hv, cnt, MPI_DOUBLE, gv, counts, displs, MPI_DOUBLE, 0, comm);
    if (rank == 0) {
      st = to_dev(e, &gr_d, gr, (size_t)total * sizeof(int32_t));
      if (!st) st = to_dev(e, &gc_d, gc, (size_t)total * sizeof(int32_t));
      if (!st) st = to_dev(e, &gv_d, gv, (size_t)total * sizeof(double));
      if (!st)
        st = strata_crs_create_from_coo(e, (int32_t)n, (int32_t)n, total, (const int32_t *)gr_d, (const int32_t *)gc_d,
                                        (const double *)gv_d, &Ag);
      if (!st) st = fem_dirichlet_apply(e, m, bnd_dev, Ag);
    }
    AGREE(st);
  }
  *Aout = Ag;
  Ag = NULL;
done:
  fem_element_rows_free(e, &E, &imp);
  fem_dist_local_free(e, &L);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gr_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gc_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gv_d);
  strata_crs_destroy(&G);
  strata_crs_destroy(&A);
  strata_crs_destroy(&Ag);
  strata_dist_map_destroy(&map);
  free(new_ids);
  free(offs);
  free(old_of);
  free(owner);
  free(erows);
  free(hro);
  free(hci);
  free(hv);
  free(cr);
  free(cc);
  free(gr);
  free(gc);
  free(gv);
  free(counts);
  free(displs);
  return st;
}
