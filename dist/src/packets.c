/* strata dist — the variable-size exchange of packed rows and the export of rows to their owners
 * with unpack_combine there (strata/dist.h; Tpetra's doExport → unpackAndCombine). Counts first (one
 * MPI_Alltoall), then per neighbour two messages: the packets' (length, target id) pairs and their
 * bytes. Data in exec memory; staged through page-locked host buffers on GPU execution spaces, as
 * the plans (plan.c). */
#include <stdio.h>

#include "dist_impl.h"

enum { TAG_META = 31, TAG_DATA = 32 };

static strata_status_t host_from_exec(strata_exec_t *exec, void *dst, const void *src, size_t bytes) {
  if (!bytes) return STRATA_SUCCESS;
  return strata_mem_copy(exec, dst, src, bytes);
}

/* the exchange proper on comm (a duplicate: its messages meet nobody else's) once the arguments
 * passed on every rank */
static strata_status_t exchange(MPI_Comm comm, strata_exec_t *exec, const strata_packets_t *send,
                                const int64_t *send_counts, const int64_t *send_ids, int staged,
                                strata_packets_t **recv_out, int64_t **recv_ids_out, strata_dist_packets_info_t *info) {
  const char *what = "dist packets exchange";
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int64_t ns = send ? send->num_rows : 0;
  strata_status_t st = STRATA_SUCCESS;
  int64_t *soff = (int64_t *)strata_impl_alloc(ns + 1, sizeof(int64_t));
  int64_t *sc = (int64_t *)calloc(2 * (size_t)size, sizeof(int64_t)), *rc = (int64_t *)calloc(2 * (size_t)size, sizeof(int64_t));
  int64_t *pstart = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t)), *rstart = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  int64_t *rbstart = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  int64_t *smeta = (int64_t *)strata_impl_alloc(2 * ns, sizeof(int64_t));
  int64_t *rmeta = NULL, *roff = NULL, *ids = NULL;
  unsigned char *shost = NULL, *rhost = NULL;
  MPI_Request *req = (MPI_Request *)strata_impl_alloc(4 * (int64_t)size, sizeof(MPI_Request));
  strata_packets_t *R = (strata_packets_t *)calloc(1, sizeof *R);
  if (!soff || !sc || !rc || !pstart || !rstart || !rbstart || !smeta || !req || !R)
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld packets to send", what, (long long)ns);
  if (soff) soff[0] = 0;
  if (!st && ns > 0) st = host_from_exec(exec, soff, send->offsets, (size_t)(ns + 1) * sizeof(int64_t));
  for (int64_t k = 0; !st && k < ns; ++k)
    if (soff[k + 1] < soff[k] || soff[0] != 0)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: packet offsets decrease at packet %lld (%lld to %lld)", what,
                            (long long)k, (long long)soff[k], (long long)soff[k + 1]);
  if (!st) {
    for (int r = 0; r < size; ++r) pstart[r + 1] = pstart[r] + send_counts[r];
    for (int r = 0; r < size; ++r) {
      sc[2 * r] = send_counts[r];
      sc[2 * r + 1] = soff[pstart[r + 1]] - soff[pstart[r]];
    }
    for (int64_t k = 0; k < ns; ++k) {
      smeta[2 * k] = soff[k + 1] - soff[k];
      smeta[2 * k + 1] = send_ids[k];
    }
  }
  if ((st = strata_impl_agree(comm, st))) goto done;
  MPI_Alltoall(sc, 2, MPI_INT64_T, rc, 2, MPI_INT64_T, comm);
  int64_t rtot = 0, rbytes = 0;
  for (int r = 0; r < size; ++r) {
    /* the data message is the larger one: a packet has at least 8 bytes, its (length, id) pair 2 int64 */
    const int64_t big = sc[2 * r + 1], rbig = rc[2 * r + 1];
    if (!st && r != rank && (big > INT_MAX || rbig > INT_MAX))
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: a message of %lld bytes %s rank %d: at most %d bytes per message (MPI's int count)", what,
                            (long long)(big > INT_MAX ? big : rbig), big > INT_MAX ? "to" : "from", r, INT_MAX);
    rstart[r + 1] = rstart[r] + rc[2 * r];
    rbstart[r + 1] = rbstart[r] + rc[2 * r + 1];
  }
  rtot = rstart[size];
  rbytes = rbstart[size];
  if (!st) {
    rmeta = (int64_t *)strata_impl_alloc(2 * rtot, sizeof(int64_t));
    roff = (int64_t *)strata_impl_alloc(rtot + 1, sizeof(int64_t));
    ids = (int64_t *)strata_impl_alloc(rtot, sizeof(int64_t));
    if (!rmeta || !roff || !ids)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld packets received", what, (long long)rtot);
  }
  R->exec = exec;
  R->num_rows = rtot;
  R->num_bytes = rbytes;
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(rtot + 1) * sizeof(int64_t), (void **)&R->offsets);
  if (!st && rbytes > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)rbytes, (void **)&R->data);
  const int64_t sbytes = soff ? soff[ns] : 0;
  /* the rank's own packets are one range of the send data and one of the received: they go from
   * exec memory to exec memory; only the other ranks' bytes are staged (host buffers without the
   * own range: a rank's bytes sit before it for lower ranks, shifted down by it for higher ones) */
  const int64_t own_s = soff ? soff[pstart[rank]] : 0, own = sc[2 * rank + 1], own_r = rbstart[rank];
  if (!st && staged && sbytes - own > 0)
    st = strata_mem_alloc(exec, STRATA_MEM_HOST_PINNED, (size_t)(sbytes - own), (void **)&shost);
  if (!st && staged && rbytes - own > 0)
    st = strata_mem_alloc(exec, STRATA_MEM_HOST_PINNED, (size_t)(rbytes - own), (void **)&rhost);
  if ((st = strata_impl_agree(comm, st))) goto done;
  {
    unsigned char *rbuf = staged ? rhost : R->data;
    int n = 0;
    for (int r = 0; r < size; ++r) /* receives first */
      if (r != rank && rc[2 * r] > 0) {
        MPI_Irecv(rmeta + 2 * rstart[r], (int)(2 * rc[2 * r]), MPI_INT64_T, r, TAG_META, comm, &req[n++]);
        if (rc[2 * r + 1] > 0)
          MPI_Irecv(rbuf + rbstart[r] - (staged && r > rank ? own : 0), (int)rc[2 * r + 1], MPI_BYTE, r, TAG_DATA, comm,
                    &req[n++]);
      }
    /* the send data readable by MPI: staged, the other ranks' bytes copied to the host
     * (strata_mem_copy waits for the stream); else the stream synchronized (the pack kernels have
     * finished) */
    if (staged) {
      if (own_s > 0) st = host_from_exec(exec, shost, send->data, (size_t)own_s);
      if (!st && sbytes - own_s - own > 0)
        st = host_from_exec(exec, shost + own_s, send->data + own_s + own, (size_t)(sbytes - own_s - own));
    } else {
      st = strata_exec_fence(exec);
    }
    const unsigned char *sbuf = staged ? shost : send ? send->data : NULL;
    for (int r = 0; r < size; ++r) {
      if (sc[2 * r] == 0) continue;
      if (r == rank) continue;
      MPI_Isend(smeta + 2 * pstart[r], (int)(2 * sc[2 * r]), MPI_INT64_T, r, TAG_META, comm, &req[n++]);
      if (sc[2 * r + 1] > 0)
        MPI_Isend(sbuf + soff[pstart[r]] - (staged && r > rank ? own : 0), (int)sc[2 * r + 1], MPI_BYTE, r, TAG_DATA, comm,
                  &req[n++]);
    }
    /* this rank's own packets: copied in exec memory, no message */
    if (sc[2 * rank] > 0) {
      memcpy(rmeta + 2 * rstart[rank], smeta + 2 * pstart[rank], (size_t)(2 * sc[2 * rank]) * sizeof(int64_t));
      if (own > 0) {
        strata_status_t s2 = strata_mem_copy(exec, R->data + own_r, send->data + own_s, (size_t)own);
        if (!st) st = s2;
      }
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (!st && staged && own_r > 0) st = strata_mem_copy(exec, R->data, rhost, (size_t)own_r);
    if (!st && staged && rbytes - own_r - own > 0)
      st = strata_mem_copy(exec, R->data + own_r + own, rhost + own_r, (size_t)(rbytes - own_r - own));
    roff[0] = 0;
    for (int64_t k = 0; k < rtot; ++k) {
      roff[k + 1] = roff[k] + rmeta[2 * k];
      ids[k] = rmeta[2 * k + 1];
    }
    if (!st && roff[rtot] != rbytes)
      st = strata_error_set(STRATA_ERR_INTERNAL, "%s: packet lengths sum to %lld bytes, %lld received", what,
                            (long long)roff[rtot], (long long)rbytes);
    if (!st) st = strata_mem_copy(exec, R->offsets, roff, (size_t)(rtot + 1) * sizeof(int64_t));
    if (info) {
      memset(info, 0, sizeof *info);
      for (int r = 0; r < size; ++r) {
        if (r == rank) {
          info->packets_self = sc[2 * r];
          continue;
        }
        info->packets_sent += sc[2 * r];
        info->bytes_sent += sc[2 * r + 1] + 16 * sc[2 * r];
        info->packets_received += rc[2 * r];
        info->bytes_received += rc[2 * r + 1] + 16 * rc[2 * r];
        info->num_send_neighbors += sc[2 * r] > 0;
        info->num_recv_neighbors += rc[2 * r] > 0;
      }
      info->staged = staged;
    }
  }
  st = strata_impl_agree(comm, st);
done:
  strata_mem_free(exec, STRATA_MEM_HOST_PINNED, (void **)&shost);
  strata_mem_free(exec, STRATA_MEM_HOST_PINNED, (void **)&rhost);
  if (!st) {
    *recv_out = R;
    *recv_ids_out = rtot > 0 ? ids : NULL;
    if (rtot == 0) free(ids);
  } else {
    if (R) strata_packets_destroy(&R);
    free(ids);
  }
  free(soff);
  free(sc);
  free(rc);
  free(pstart);
  free(rstart);
  free(rbstart);
  free(smeta);
  free(rmeta);
  free(roff);
  free(req);
  return st;
}

strata_status_t strata_dist_packets_exchange(MPI_Comm comm, strata_exec_t *exec, const strata_packets_t *send,
                                             const int64_t *send_counts, const int64_t *send_ids,
                                             const strata_dist_packets_options_t *opts, strata_packets_t **recv,
                                             int64_t **recv_ids, strata_dist_packets_info_t *info) {
  const char *what = "dist packets exchange";
  if (recv) *recv = NULL;
  if (recv_ids) *recv_ids = NULL;
  if (info) memset(info, 0, sizeof *info);
  if (!strata_impl_mpi_ready(what)) return STRATA_ERR_INVALID_ARGUMENT;
  if (comm == MPI_COMM_NULL) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: MPI_COMM_NULL", what);
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int64_t ns = send ? send->num_rows : 0;
  strata_status_t st = STRATA_SUCCESS;
  if (!exec || !recv || !recv_ids)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s", what, !exec ? "exec" : !recv ? "recv" : "recv_ids");
  else if (ns < 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %lld packets", what, (long long)ns);
  else if (ns > 0 && (!send_counts || !send_ids || !send->offsets))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s with %lld packets", what,
                          !send_counts ? "send_counts" : !send_ids ? "send_ids" : "send->offsets", (long long)ns);
  else if (ns > 0 && send->num_bytes > 0 && !send->data)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL send->data with %lld bytes", what,
                          (long long)send->num_bytes);
  else if (ns > 0 && send->exec && strata_exec_backend(send->exec) != strata_exec_backend(exec))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: packets of backend %s, exec of %s", what,
                          strata_backend_name(strata_exec_backend(send->exec)), strata_backend_name(strata_exec_backend(exec)));
  int64_t *zc = NULL;
  if (!st) {
    int64_t sum = 0;
    if (send_counts)
      for (int r = 0; r < size && !st; ++r) {
        if (send_counts[r] < 0)
          st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: send_counts[%d] = %lld < 0", what, r,
                                (long long)send_counts[r]);
        sum += send_counts[r];
      }
    if (!st && sum != ns)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: send_counts sum to %lld, the packets are %lld", what,
                            (long long)sum, (long long)ns);
    if (!st && !send_counts) { /* no packets, no counts: zeros */
      zc = (int64_t *)calloc((size_t)size, sizeof(int64_t));
      if (!zc) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d counts", what, size);
    }
  }
  MPI_Comm dup;
  MPI_Comm_dup(comm, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_ARE_FATAL);
  st = strata_impl_agree(dup, st);
  if (!st) {
    const int staged = (opts && opts->staging) || !strata_exec_is_host(exec);
    st = exchange(dup, exec, ns > 0 ? send : NULL, send_counts ? send_counts : zc, send_ids, staged, recv, recv_ids, info);
  }
  free(zc);
  MPI_Comm_free(&dup);
  return st;
}

/* ------------------------------------------------------------------ export of rows to their owners */

strata_status_t strata_dist_export_rows(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                        const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                        const int64_t *row_gids, const int64_t *col_gids, strata_crs_matrix_t *A,
                                        const int32_t *col_lids, int64_t num_global, strata_combine_mode_t mode,
                                        const strata_dist_packets_options_t *opts,
                                        strata_dist_export_report_t *report) {
  const char *what = "dist export rows";
  if (!row_map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL row_map", what);
  MPI_Comm comm = row_map->comm;
  const int size = row_map->size;
  strata_dist_export_report_t rep;
  memset(&rep, 0, sizeof rep);
  rep.first_unowned = -1;
  strata_status_t st = STRATA_SUCCESS;
  if (!exec) st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL exec", what);
  else if (num_rows < 0 || num_rows > INT32_MAX)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: num_rows %lld outside [0, %d]", what, (long long)num_rows, INT32_MAX);
  else if (num_rows > 0 && (!rows || !row_gids || !L))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL %s with %lld rows", what,
                          !rows ? "rows" : !row_gids ? "row_gids" : "L", (long long)num_rows);
  else if (!A && row_map->num_local > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL A with %d owned rows", what, (int)row_map->num_local);
  else if (A && A->num_rows != row_map->num_local)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: A has %d rows, this rank owns %d in the map", what, A->num_rows,
                          (int)row_map->num_local);
  for (int64_t k = 0; !st && k < num_rows; ++k)
    if (rows[k] < 0 || rows[k] >= L->num_rows)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: rows[%lld] = %d outside [0, %d) (L's rows)", what, (long long)k,
                            (int)rows[k], L->num_rows);
  int *own = NULL;
  int32_t *lid = NULL, *order = NULL, *order_dev = NULL, *imp = NULL;
  int64_t *cnt = NULL, *ids = NULL, *lro = NULL, *recv_ids = NULL;
  strata_packets_t *pk = NULL, *pk_self = NULL, *recv = NULL;
  int64_t local[5] = {num_rows, 0, 0, 0, 0}; /* given, unowned rows, their entries, other invalid, combined */
  if (!st) {
    own = (int *)strata_impl_alloc(num_rows, sizeof(int));
    lid = (int32_t *)strata_impl_alloc(num_rows, sizeof(int32_t));
    order = (int32_t *)strata_impl_alloc(num_rows, sizeof(int32_t));
    ids = (int64_t *)strata_impl_alloc(num_rows, sizeof(int64_t));
    cnt = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
    lro = (int64_t *)strata_impl_alloc(L ? (int64_t)L->num_rows + 1 : 1, sizeof(int64_t));
    if (!own || !lid || !order || !ids || !cnt || !lro)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld rows", what, (long long)num_rows);
  }
  if ((st = strata_impl_agree(comm, st))) goto done;
  double t0 = strata_timer_now();
  st = strata_dist_map_owners(row_map, num_rows, row_gids, own, lid);
  if (st) goto done;
  if (num_rows > 0) st = host_from_exec(exec, lro, L->row_offsets, ((size_t)L->num_rows + 1) * sizeof(int64_t));
  /* rows grouped by owner (counting sort, the given order kept); unowned rows counted, not sent */
  for (int64_t k = 0; !st && k < num_rows; ++k) {
    if (own[k] < 0) {
      if (local[1]++ == 0) rep.first_unowned = row_gids[k];
      local[2] += lro[rows[k] + 1] - lro[rows[k]];
    } else {
      cnt[own[k] + 1]++;
    }
  }
  int64_t nsend = 0;
  if (!st) {
    for (int r = 0; r < size; ++r) cnt[r + 1] += cnt[r];
    nsend = cnt[size];
    int64_t *pos = (int64_t *)malloc(((size_t)size + 1) * sizeof(int64_t));
    if (!pos) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d counts", what, size);
    else {
      memcpy(pos, cnt, ((size_t)size + 1) * sizeof(int64_t));
      for (int64_t k = 0; k < num_rows; ++k)
        if (own[k] >= 0) {
          const int64_t q = pos[own[k]]++;
          order[q] = rows[k];
          ids[q] = lid[k];
        }
      for (int r = 0; r < size; ++r) cnt[r] = cnt[r + 1] - cnt[r]; /* counts per owner */
      free(pos);
    }
  }
  rep.exchange_s = strata_timer_now() - t0; /* the owner lookup */
  t0 = strata_timer_now();
  /* this rank's own rows are packed apart and combined from their packets without an exchange (no
   * copy, no message); the others' rows, still grouped by owner, go to the exchange with no count
   * for this rank. order / ids are rearranged: the others' rows first, then the own ones. */
  const int rank = row_map->rank;
  int64_t self0 = 0, nself = 0, nother = nsend;
  if (!st && nsend > 0) {
    for (int r = 0; r < rank; ++r) self0 += cnt[r];
    nself = cnt[rank];
    nother = nsend - nself;
    int32_t *o2 = (int32_t *)malloc((size_t)nsend * sizeof(int32_t));
    int64_t *i2 = (int64_t *)malloc((size_t)nsend * sizeof(int64_t));
    if (!o2 || !i2) {
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld rows", what, (long long)nsend);
    } else {
      for (int64_t q = 0, w = 0; q < nsend; ++q)
        if (q < self0 || q >= self0 + nself) o2[w] = order[q], i2[w++] = ids[q];
      for (int64_t q = 0; q < nself; ++q) o2[nother + q] = order[self0 + q], i2[nother + q] = ids[self0 + q];
      memcpy(order, o2, (size_t)nsend * sizeof(int32_t));
      memcpy(ids, i2, (size_t)nsend * sizeof(int64_t));
      cnt[rank] = 0;
    }
    free(o2);
    free(i2);
  }
  if (!st && nsend > 0) {
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nsend * sizeof(int32_t), (void **)&order_dev);
    if (!st) st = strata_mem_copy(exec, order_dev, order, (size_t)nsend * sizeof(int32_t));
  }
  if (!st && nother > 0) st = strata_sparse_pack(exec, L, nother, order_dev, col_gids, &pk);
  if (!st && nself > 0) st = strata_sparse_pack(exec, L, nself, order_dev + nother, col_gids, &pk_self);
  if (!st) st = strata_exec_fence(exec);
  rep.pack_s = strata_timer_now() - t0;
  if ((st = strata_impl_agree(comm, st))) goto done;
  t0 = strata_timer_now();
  st = strata_dist_packets_exchange(comm, exec, pk, cnt, ids, opts, &recv, &recv_ids, &rep.exchange);
  rep.exchange_s += strata_timer_now() - t0;
  if (st) goto done;
  rep.exchange.packets_self = nself;
  t0 = strata_timer_now();
  {
    /* the own packets' local ids after the received ones' (one device array) */
    const int64_t nr = recv->num_rows;
    int32_t *ih = (int32_t *)strata_impl_alloc(nr + nself, sizeof(int32_t));
    if (!ih) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld packets received", what, (long long)nr);
    for (int64_t k = 0; !st && k < nr; ++k) ih[k] = (int32_t)recv_ids[k]; /* local ids of this rank: < 2^31 */
    for (int64_t k = 0; !st && k < nself; ++k) ih[nr + k] = (int32_t)ids[nother + k];
    if (!st && nr + nself > 0)
      st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(nr + nself) * sizeof(int32_t), (void **)&imp);
    if (!st && nr + nself > 0) st = strata_mem_copy(exec, imp, ih, (size_t)(nr + nself) * sizeof(int32_t));
    free(ih);
    /* own rows first, then the received ones (by sender rank): a fixed order of the sums */
    for (int pass = 0; pass < 2 && !st && A; ++pass) {
      strata_packets_t *P = pass == 0 ? pk_self : recv;
      if (!P || P->num_rows == 0) continue;
      strata_unpack_report_t ur;
      memset(&ur, 0, sizeof ur);
      st = strata_sparse_unpack_combine(exec, A, pass == 0 ? imp + nr : imp, P, col_lids, num_global, mode, &ur);
      local[3] += ur.invalid_entries + ur.invalid_rows + ur.malformed_packets;
      local[4] += ur.entries_combined;
      if (st == STRATA_ERR_INVALID_DATA) st = STRATA_SUCCESS; /* counted: agreed below over the ranks */
    }
    if (!st) st = strata_exec_fence(exec);
  }
  rep.unpack_s = strata_timer_now() - t0;
  if ((st = strata_impl_agree(comm, st))) goto done;
  {
    int64_t sum[5];
    MPI_Allreduce(local, sum, 5, MPI_INT64_T, MPI_SUM, comm);
    rep.rows_given = sum[0];
    rep.rows_unowned = sum[1];
    rep.invalid_entries = sum[2] + sum[3];
    rep.entries_combined = sum[4];
    int64_t *firsts = (int64_t *)malloc((size_t)size * sizeof(int64_t));
    int64_t mine = local[1] ? rep.first_unowned : -1;
    if (firsts) {
      MPI_Allgather(&mine, 1, MPI_INT64_T, firsts, 1, MPI_INT64_T, comm);
      rep.first_unowned = -1;
      for (int r = 0; r < size; ++r)
        if (firsts[r] >= 0) {
          rep.first_unowned = firsts[r];
          break;
        }
      free(firsts);
    }
    if (rep.invalid_entries > 0 && rep.rows_unowned > 0)
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: %lld entries not combined over all ranks: %lld of them in %lld rows that no rank owns in the "
                            "map of %lld ids (the first: global row %lld), %lld outside their row's pattern or of unknown "
                            "columns; the valid entries were combined",
                            what, (long long)rep.invalid_entries, (long long)sum[2], (long long)rep.rows_unowned,
                            (long long)row_map->num_global, (long long)rep.first_unowned, (long long)sum[3]);
    else if (rep.invalid_entries > 0)
      st = strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: %lld entries not combined over all ranks (outside their row's pattern, of unknown columns or in "
                            "malformed packets); the valid entries were combined",
                            what, (long long)rep.invalid_entries);
  }
done:
  if (report) *report = rep;
  free(own);
  free(lid);
  free(order);
  free(ids);
  free(cnt);
  free(lro);
  free(recv_ids);
  if (exec) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&order_dev);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&imp);
  }
  strata_packets_destroy(&pk);
  strata_packets_destroy(&pk_self);
  strata_packets_destroy(&recv);
  return st;
}
