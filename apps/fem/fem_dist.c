/* strata fem — the distributed job (fem_dist.h): partition of the node graph, each rank's
 * elements, export of the element rows to their owners (strata_dist_export_rows: pack, packet
 * exchange, unpack_combine), the owned rows as a distributed CrsMatrix, and the distributed
 * Krylov solve (strata_dist_operator_create, strata_dist_precond_create); the owned rows are
 * gathered to rank 0 only for the checks that compare the whole matrix. */
#include "fem_dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli_gather.h"
#include "fem_kernels.h"
#include "strata/solvers.h"

STRATA_KERNEL_DECLARE(fem_u_exact);

#define AGREE(s)                                 \
  do {                                           \
    st = strata_dist_agree(comm, (s));           \
    if (st != STRATA_SUCCESS) goto done;         \
  } while (0)

#define DCHECK(call)                     \
  do {                                   \
    st = (call); /* agreed already */    \
    if (st != STRATA_SUCCESS) goto done; \
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
                                  const int32_t *sel_dev, int64_t nsel, strata_crs_matrix_t **Aout, fem_dist_system_t *sys,
                                  fem_result_t *res) {
  MPI_Comm comm = o->comm;
  memset(sys, 0, sizeof *sys);
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (Aout) *Aout = NULL;
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
  int64_t *er = NULL, *ec = NULL;
  double *hd = NULL;
  strata_dist_crs_t *Ad = NULL;
  strata_dist_row_export_t *X = NULL;
  strata_dist_packets_options_t po;
  memset(&po, 0, sizeof po);
  po.staging = o->staging;
  res->ranks = size;
  snprintf(res->partitioner, sizeof res->partitioner, "%s",
           o->part ? "given"
           : strata_dist_partitioner_name(strata_dist_partitioner_resolve(o->partitioner))
               ? strata_dist_partitioner_name(strata_dist_partitioner_resolve(o->partitioner))
               : "?");

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
    if (st == STRATA_ERR_INVALID_ARGUMENT && size > n) { /* agreed: every rank adds the same context */
      char why[768];
      snprintf(why, sizeof why, "%s", strata_error_message());
      st = strata_error_set(st, "fem dist: the mesh has %lld nodes (%lld bulk nodes included), fewer than the %d ranks: %s",
                            (long long)n, (long long)K, size, why);
    }
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
  AGREE(st);
  /* the ADD pass's export made once with the final pattern (the graph phase): values only then */
  st = strata_dist_row_export_create(e, map, &E, ner, erows, row_gids, NULL, A, NULL, n, &po, &X, &rep);
  res->dist_invalid = rep.invalid_entries;
  if (st) goto done;
  res->seconds[FEM_PHASE_GRAPH] += strata_timer_now() - t0;
  st = strata_dist_row_export_apply(X, e, E.values, STRATA_COMBINE_ADD, A->values, &rep);
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
    strata_device_info_t di;
    rs.device = strata_exec_device_info(e, &di) == STRATA_SUCCESS ? di.device_id : -1;
    if (rank == 0) {
      res->per_rank = (struct fem_rank_stats *)calloc((size_t)size, sizeof rs);
      st = res->per_rank ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %d rank records", size);
    }
    AGREE(st);
    MPI_Gather(&rs, (int)sizeof rs, MPI_BYTE, res->per_rank, (int)sizeof rs, MPI_BYTE, 0, comm);
  }

  /* 4. the Dirichlet rows on the owned rows (fem_dirichlet's rule, on the host copy: the same
   *    bits as the single-rank job's kernel), then the distributed CrsMatrix of the owned rows
   *    (every entry given on its owner: nothing moves) */
  const int64_t nz = A->nnz;
  hro = (int64_t *)malloc(((size_t)nown + 1) * sizeof(int64_t));
  hci = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
  hv = (double *)malloc(((size_t)nz + 1) * sizeof(double));
  er = (int64_t *)malloc(((size_t)nz + 1) * sizeof(int64_t));
  ec = (int64_t *)malloc(((size_t)nz + 1) * sizeof(int64_t));
  hd = (double *)malloc(((size_t)n + 1) * sizeof(double));
  st = hro && hci && hv && er && ec && hd
           ? STRATA_SUCCESS
           : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld owned entries on the host", (long long)nz);
  if (!st) st = strata_mem_copy(e, hro, A->row_offsets, ((size_t)nown + 1) * sizeof(int64_t));
  if (!st && nz) st = strata_mem_copy(e, hci, A->col_indices, (size_t)nz * sizeof(int32_t));
  if (!st && nz) st = strata_mem_copy(e, hv, A->values, (size_t)nz * sizeof(double));
  AGREE(st);
  fem_laplace_diagonal(m, hd);
  const int64_t first = offs[rank];
  for (int32_t r = 0; r < nown; ++r) {
    const int64_t g = first + r, og = old_of[g];
    const int bound = m->on_boundary[og];
    for (int64_t k = hro[r]; k < hro[r + 1]; ++k) {
      const int64_t c = hci[k];
      if (bound) hv[k] = c == g ? hd[og] : 0.0;
      else if (m->on_boundary[old_of[c]]) hv[k] = 0.0;
      er[k] = g;
      ec[k] = c;
    }
  }
  t0 = strata_timer_now();
  strata_dist_build_report_t brep;
  st = strata_dist_crs_create_from_entries(e, map, NULL, nz, er, ec, hv, NULL, &brep, &Ad);
  if (st) goto done;
  res->seconds[FEM_PHASE_GRAPH] += strata_timer_now() - t0;
  free(er);
  free(ec);
  er = ec = NULL;
  { /* the owned nodes: coordinates (new order) and how many are mesh nodes; the bulk nodes come
       last in each rank's range (the renumbering keeps the mesh's order within a rank) */
    int32_t nm = 0;
    int ordered = 1;
    for (int32_t r = 0; r < nown; ++r) {
      const int is_mesh = old_of[first + r] < nmesh;
      if (is_mesh && nm != r) ordered = 0;
      nm += is_mesh;
    }
    st = ordered ? STRATA_SUCCESS
                 : strata_error_set(STRATA_ERR_INTERNAL, "fem dist: a bulk node before a mesh node in this rank's rows");
    if (!st) st = to_dev(e, &sys->xyz_own, L.xyz + 3 * first, (size_t)nown * 3 * sizeof(double));
    sys->nown_mesh = nm;
    AGREE(st);
  }
  sys->nown = nown;
  sys->first = first;
  sys->exec = e;

  /* 5. the checks only (Aout): the owned rows to rank 0, in the mesh's numbering */
  if (Aout) {
    cr = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
    cc = (int32_t *)malloc(((size_t)nz + 1) * sizeof(int32_t));
    st = cr && cc ? STRATA_SUCCESS
                  : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "fem dist: %lld entries to gather", (long long)nz);
    if (!st && nz > INT32_MAX)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "fem dist: %lld entries on one rank to gather, above MPI's count %d",
                            (long long)nz, INT32_MAX);
    if (!st)
      for (int32_t r = 0; r < nown; ++r)
        for (int64_t k = hro[r]; k < hro[r + 1]; ++k) {
          cr[k] = (int32_t)old_of[first + r];
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
    }
    AGREE(st);
    *Aout = Ag;
    Ag = NULL;
  }
  sys->A = Ad;
  sys->map = map;
  Ad = NULL;
  map = NULL;
done:
  strata_dist_row_export_destroy(&X);
  fem_element_rows_free(e, &E, &imp);
  fem_dist_local_free(e, &L);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gr_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gc_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, &gv_d);
  strata_crs_destroy(&G);
  strata_crs_destroy(&A);
  strata_crs_destroy(&Ag);
  strata_dist_crs_destroy(&Ad);
  strata_dist_map_destroy(&map);
  if (st) fem_dist_system_free(sys);
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
  free(er);
  free(ec);
  free(hd);
  return st;
}

void fem_dist_system_free(fem_dist_system_t *s) {
  if (!s) return;
  strata_dist_crs_destroy(&s->A);
  strata_dist_map_destroy(&s->map);
  if (s->exec) strata_mem_free(s->exec, STRATA_MEM_DEVICE, &s->xyz_own);
  memset(s, 0, sizeof *s);
}

/* max |x| over the ranks' rows (x [nl], exec memory) and the count of non-finite entries */
static strata_status_t global_scan(strata_exec_t *e, MPI_Comm comm, int32_t nl, const double *x, double *amax,
                                   int64_t *nonfinite) {
  int64_t bad = -1;
  double mx = 0;
  strata_status_t st = nl ? strata_vec_find_nonfinite(e, nl, x, &bad) : STRATA_SUCCESS;
  if (!st && nl && bad < 0) st = strata_vec_amax(e, nl, x, &mx);
  st = strata_dist_agree(comm, st);
  if (st) return st;
  int64_t nb = bad >= 0;
  MPI_Allreduce(&nb, nonfinite, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(&mx, amax, 1, MPI_DOUBLE, MPI_MAX, comm);
  return STRATA_SUCCESS;
}

strata_status_t fem_dist_solve(const fem_options_t *o, strata_exec_t *e, fem_dist_system_t *s, fem_result_t *res) {
  strata_dist_map_info_t mi;
  strata_dist_map_info(s->map, &mi);
  MPI_Comm comm = mi.comm;
  const int32_t nl = s->nown;
  const size_t vb = ((size_t)nl + 1) * sizeof(double);
  double *ue = NULL, *b = NULL, *u = NULL, *w = NULL;
  strata_operator_t *op = NULL;
  strata_precond_t *P = NULL;
  const char *pname = o->precond ? o->precond : "jacobi";
  const int method = fem_solver_from_name(o->solver ? o->solver : "cg");
  strata_dist_precond_options_t po;
  int none = 0;
  strata_status_t st = method < 0 ? strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "solver '%s': one of cg, bicgstab, gmres, fgmres", o->solver)
                                  : strata_dist_precond_options_from_name(pname, &po, &none);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&ue);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&b);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&u);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, vb, (void **)&w);
  AGREE(st);

  /* u_exact on the owned nodes and b = A u_exact, rescaled by powers of two as the single-rank job
   * does (fem_pow2_rescale: first max |u|, then max |b| into [1, 2)); the maxima over all ranks */
  fem_node_args_t na = {(const double *)s->xyz_own, s->nown_mesh, 0, ue};
  double umax = 0, vmax = 0;
  int64_t bad = 0;
  AGREE(strata_parallel_for(e, NULL, strata_range(0, nl), &fem_u_exact, &na));
  DCHECK(global_scan(e, comm, nl, ue, &umax, &bad));
  if (!bad && fem_pow2_rescale(umax, &na.scale_log2)) AGREE(strata_parallel_for(e, NULL, strata_range(0, nl), &fem_u_exact, &na));
  if (!bad) DCHECK(strata_dist_crs_spmv(e, STRATA_DIST_VECTOR, 1.0, s->A, ue, 0.0, b));
  if (!bad) DCHECK(global_scan(e, comm, nl, b, &vmax, &bad));
  if (!bad && fem_pow2_rescale(vmax, &na.scale_log2)) {
    AGREE(strata_parallel_for(e, NULL, strata_range(0, nl), &fem_u_exact, &na));
    DCHECK(strata_dist_crs_spmv(e, STRATA_DIST_VECTOR, 1.0, s->A, ue, 0.0, b));
    DCHECK(global_scan(e, comm, nl, b, &vmax, &bad));
  }
  if (bad) { /* agreed: the counts are sums over the ranks */
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "the manufactured problem is not finite on this mesh: %lld rank(s) hold inf or NaN in "
                          "u_exact = sin(pi x) cos(pi y / 2) exp(z / 2) + x y z or in b = A u_exact (the job is meant "
                          "for the unit cube)", (long long)bad);
    goto done;
  }
  res->u_scale_log2 = na.scale_log2;
  if (umax > 0 && !(vmax > 0)) {
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "b = A u_exact is 0 while max |u_exact| = %g (2^%d times the manufactured solution): the "
                          "mesh's scale is beyond double precision", umax, na.scale_log2);
    goto done;
  }

  /* the Krylov method over the distributed operator (the SpMV in vector mode), preconditioned
   * over the ranks; every rank takes the same decisions (the reductions give every rank the same
   * bits) and returns the same status */
  double t0 = strata_timer_now();
  DCHECK(strata_dist_operator_create(e, s->A, STRATA_DIST_VECTOR, &op));
  if (!none) DCHECK(strata_dist_precond_create(e, s->A, &po, &P));
  DCHECK(fem_krylov_run(e, op, P, pname, b, u, o, res)); /* agreed by the solve */
  AGREE(strata_exec_fence(e));
  res->seconds[FEM_PHASE_SOLVE] = strata_timer_now() - t0;

  /* the true residual ||b - A u|| / ||b||, the error ||u - u_exact|| / ||u_exact|| and ||u||, by
   * the scaled norms over the ranks (no underflow where the norm is representable) */
  double nb = 0, nr = 0, nu = 0, ne = 0;
  AGREE(strata_vec_copy(e, nl, b, w));
  DCHECK(strata_dist_crs_spmv(e, STRATA_DIST_VECTOR, -1.0, s->A, u, 1.0, w));
  DCHECK(strata_dist_vec_nrm2(e, s->map, w, &nr));
  DCHECK(strata_dist_vec_nrm2(e, s->map, b, &nb));
  res->residual = nb > 0 ? nr / nb : nr;
  AGREE(strata_vec_copy(e, nl, u, w));
  AGREE(strata_vec_axpy(e, nl, -1.0, ue, w));
  DCHECK(strata_dist_vec_nrm2(e, s->map, w, &ne));
  DCHECK(strata_dist_vec_nrm2(e, s->map, ue, &nu));
  res->error = nu > 0 ? ne / nu : ne;
  DCHECK(strata_dist_vec_nrm2(e, s->map, u, &res->solution_norm));
done:
  strata_precond_destroy(&P);
  strata_operator_destroy(&op);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&ue);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&b);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&u);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&w);
  return st;
}
