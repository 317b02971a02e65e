/* strata dist — the variable-size exchange of packed rows and the export of rows to their owners
 * with unpack_combine there (strata/dist.h; Tpetra's doExport → unpackAndCombine). Counts first (one
 * MPI_Alltoall), then per neighbour two messages: the packets' (length, target id) pairs and their
 * bytes. Data in exec memory; staged through page-locked host buffers on GPU execution spaces, as
 * the plans (plan.c). */
#include <stdio.h>

#include "../kernels/dist_args.h"
#include "dist_impl.h"

STRATA_KERNEL_DECLARE(strata_dist_gather);
STRATA_KERNEL_DECLARE(strata_dist_combine);

enum { TAG_META = 31, TAG_DATA = 32 };

int64_t strata_impl_dist_message_max = INT_MAX;

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
    const int64_t most = strata_impl_dist_message_max;
    if (!st && r != rank && (big > most || rbig > most))
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "%s: a message of %lld bytes %s rank %d: at most %lld bytes per message (MPI's int count)",
                            what, (long long)(big > most ? big : rbig), big > most ? "to" : "from", r, (long long)most);
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

/* What both row exports share (strata_dist_export_rows, strata_dist_row_export_create): the
 * arguments checked, the owners found, the rows grouped by owner (the others' rows first, by owner
 * ascending, then this rank's own), packed (the own ones apart) and the others' exchanged. */
typedef struct export_route {
  int64_t nsend, nself, nother; /* rows routed (owned by some rank), of them own, others' */
  int32_t *order;               /* [nsend] host: L's row of each routed row, in route order */
  int64_t *ids;                 /* [nsend] host: its target local id on the owner */
  int64_t *kof;                 /* [nsend] host: its index k in the caller's rows */
  int *own;                     /* [num_rows] host: owner of rows[k] (-1: none) */
  int32_t *lid;
  int64_t *cnt;                 /* [size + 1] host: rows sent to each rank (own: 0) */
  int64_t *lro;                 /* [L rows + 1] host: L's row offsets */
  int32_t *order_dev;
  int32_t *imp;                 /* [received + nself] exec: target local ids, received then own */
  strata_packets_t *pk, *pk_self, *recv;
  int64_t *recv_ids;
  int64_t local[3];             /* rows given, unowned rows, their entries */
} export_route_t;

static void route_free(strata_exec_t *exec, export_route_t *R) {
  free(R->own);
  free(R->lid);
  free(R->order);
  free(R->ids);
  free(R->kof);
  free(R->cnt);
  free(R->lro);
  free(R->recv_ids);
  if (exec) {
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&R->order_dev);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&R->imp);
  }
  strata_packets_destroy(&R->pk);
  strata_packets_destroy(&R->pk_self);
  strata_packets_destroy(&R->recv);
  memset(R, 0, sizeof *R);
}

/* rep: first_unowned, exchange, pack_s and exchange_s set. Returns an agreed status. */
static strata_status_t route_rows(const char *what, strata_exec_t *exec, const strata_dist_map_t *row_map,
                                  const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                  const int64_t *row_gids, const int64_t *col_gids, const strata_crs_matrix_t *A,
                                  const strata_dist_packets_options_t *opts, export_route_t *R,
                                  strata_dist_export_report_t *rep) {
  MPI_Comm comm = row_map->comm;
  const int size = row_map->size;
  memset(R, 0, sizeof *R);
  R->local[0] = num_rows;
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
  if (!st) {
    R->own = (int *)strata_impl_alloc(num_rows, sizeof(int));
    R->lid = (int32_t *)strata_impl_alloc(num_rows, sizeof(int32_t));
    R->order = (int32_t *)strata_impl_alloc(num_rows, sizeof(int32_t));
    R->ids = (int64_t *)strata_impl_alloc(num_rows, sizeof(int64_t));
    R->kof = (int64_t *)strata_impl_alloc(num_rows, sizeof(int64_t));
    R->cnt = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
    R->lro = (int64_t *)strata_impl_alloc(L ? (int64_t)L->num_rows + 1 : 1, sizeof(int64_t));
    if (!R->own || !R->lid || !R->order || !R->ids || !R->kof || !R->cnt || !R->lro)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld rows", what, (long long)num_rows);
  }
  if ((st = strata_impl_agree(comm, st))) return st;
  int *own = R->own;
  int64_t *cnt = R->cnt;
  double t0 = strata_timer_now();
  st = strata_dist_map_owners(row_map, num_rows, row_gids, own, R->lid);
  if (st) return st;
  if (num_rows > 0) st = host_from_exec(exec, R->lro, L->row_offsets, ((size_t)L->num_rows + 1) * sizeof(int64_t));
  /* rows grouped by owner (counting sort, the given order kept); unowned rows counted, not sent */
  for (int64_t k = 0; !st && k < num_rows; ++k) {
    if (own[k] < 0) {
      if (R->local[1]++ == 0) rep->first_unowned = row_gids[k];
      R->local[2] += R->lro[rows[k] + 1] - R->lro[rows[k]];
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
          R->order[q] = rows[k];
          R->ids[q] = R->lid[k];
          R->kof[q] = k;
        }
      for (int r = 0; r < size; ++r) cnt[r] = cnt[r + 1] - cnt[r]; /* counts per owner */
      free(pos);
    }
  }
  rep->exchange_s = strata_timer_now() - t0; /* the owner lookup */
  t0 = strata_timer_now();
  /* this rank's own rows are packed apart and combined from their packets without an exchange (no
   * copy, no message); the others' rows, still grouped by owner, go to the exchange with no count
   * for this rank. order / ids / kof are rearranged: the others' rows first, then the own ones. */
  const int rank = row_map->rank;
  int64_t self0 = 0, nself = 0, nother = nsend;
  if (!st && nsend > 0) {
    for (int r = 0; r < rank; ++r) self0 += cnt[r];
    nself = cnt[rank];
    nother = nsend - nself;
    int32_t *o2 = (int32_t *)malloc((size_t)nsend * sizeof(int32_t));
    int64_t *i2 = (int64_t *)malloc((size_t)nsend * sizeof(int64_t)), *k2 = (int64_t *)malloc((size_t)nsend * sizeof(int64_t));
    if (!o2 || !i2 || !k2) {
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld rows", what, (long long)nsend);
    } else {
      for (int64_t q = 0, w = 0; q < nsend; ++q)
        if (q < self0 || q >= self0 + nself) o2[w] = R->order[q], i2[w] = R->ids[q], k2[w++] = R->kof[q];
      for (int64_t q = 0; q < nself; ++q)
        o2[nother + q] = R->order[self0 + q], i2[nother + q] = R->ids[self0 + q], k2[nother + q] = R->kof[self0 + q];
      memcpy(R->order, o2, (size_t)nsend * sizeof(int32_t));
      memcpy(R->ids, i2, (size_t)nsend * sizeof(int64_t));
      memcpy(R->kof, k2, (size_t)nsend * sizeof(int64_t));
      cnt[rank] = 0;
    }
    free(o2);
    free(i2);
    free(k2);
  }
  R->nsend = nsend;
  R->nself = nself;
  R->nother = nother;
  if (!st && nsend > 0) {
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nsend * sizeof(int32_t), (void **)&R->order_dev);
    if (!st) st = strata_mem_copy(exec, R->order_dev, R->order, (size_t)nsend * sizeof(int32_t));
  }
  if (!st && nother > 0) st = strata_sparse_pack(exec, L, nother, R->order_dev, col_gids, &R->pk);
  if (!st && nself > 0) st = strata_sparse_pack(exec, L, nself, R->order_dev + nother, col_gids, &R->pk_self);
  if (!st) st = strata_exec_fence(exec);
  rep->pack_s = strata_timer_now() - t0;
  if ((st = strata_impl_agree(comm, st))) return st;
  t0 = strata_timer_now();
  st = strata_dist_packets_exchange(comm, exec, R->pk, cnt, R->ids, opts, &R->recv, &R->recv_ids, &rep->exchange);
  rep->exchange_s += strata_timer_now() - t0;
  if (st) return st;
  rep->exchange.packets_self = nself;
  /* the target local ids: the received packets', then the own ones' (one device array) */
  const int64_t nr = R->recv->num_rows;
  int32_t *ih = (int32_t *)strata_impl_alloc(nr + nself, sizeof(int32_t));
  if (!ih) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld packets received", what, (long long)nr);
  for (int64_t k = 0; !st && k < nr; ++k) ih[k] = (int32_t)R->recv_ids[k]; /* local ids of this rank: < 2^31 */
  for (int64_t k = 0; !st && k < nself; ++k) ih[nr + k] = (int32_t)R->ids[nother + k];
  if (!st && nr + nself > 0)
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(nr + nself) * sizeof(int32_t), (void **)&R->imp);
  if (!st && nr + nself > 0) st = strata_mem_copy(exec, R->imp, ih, (size_t)(nr + nself) * sizeof(int32_t));
  free(ih);
  return strata_impl_agree(comm, st);
}

/* The first unowned row over the ranks (the lowest rank with one), then the report's sums over
 * ranks of local[5] (given, unowned rows, their entries, other invalid, combined) and the error
 * both exports return when anything was not combined. */
static strata_status_t report_sums(const char *what, const strata_dist_map_t *row_map, const int64_t *local,
                                   const char *outcome, strata_dist_export_report_t *rep) {
  MPI_Comm comm = row_map->comm;
  int64_t sum[5];
  MPI_Allreduce(local, sum, 5, MPI_INT64_T, MPI_SUM, comm);
  rep->rows_given = sum[0];
  rep->rows_unowned = sum[1];
  rep->invalid_entries = sum[2] + sum[3];
  rep->entries_combined = sum[4];
  /* the first unowned row on the lowest rank with one: that rank (a MIN), then its row (a MAX over
   * the others' -1): no buffer that one rank may fail to allocate before a collective */
  int64_t who = local[1] ? row_map->rank : INT64_MAX, lowest, row = -1;
  MPI_Allreduce(&who, &lowest, 1, MPI_INT64_T, MPI_MIN, comm);
  const int64_t mine = lowest == row_map->rank ? rep->first_unowned : -1;
  MPI_Allreduce(&mine, &row, 1, MPI_INT64_T, MPI_MAX, comm);
  rep->first_unowned = row;
  if (rep->invalid_entries > 0 && rep->rows_unowned > 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: %lld entries not combined over all ranks: %lld of them in %lld rows that no rank owns in the "
                            "map of %lld ids (the first: global row %lld), %lld outside their row's pattern or of unknown "
                            "columns; %s",
                            what, (long long)rep->invalid_entries, (long long)sum[2], (long long)rep->rows_unowned,
                            (long long)row_map->num_global, (long long)rep->first_unowned, (long long)sum[3], outcome);
  if (rep->invalid_entries > 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "%s: %lld entries not combined over all ranks (outside their row's pattern, of unknown columns or in "
                            "malformed packets); %s",
                            what, (long long)rep->invalid_entries, outcome);
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_export_rows(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                        const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                        const int64_t *row_gids, const int64_t *col_gids, strata_crs_matrix_t *A,
                                        const int32_t *col_lids, int64_t num_global, strata_combine_mode_t mode,
                                        const strata_dist_packets_options_t *opts,
                                        strata_dist_export_report_t *report) {
  const char *what = "dist export rows";
  if (!row_map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL row_map", what);
  MPI_Comm comm = row_map->comm;
  strata_dist_export_report_t rep;
  memset(&rep, 0, sizeof rep);
  rep.first_unowned = -1;
  export_route_t R;
  strata_status_t st = route_rows(what, exec, row_map, L, num_rows, rows, row_gids, col_gids, A, opts, &R, &rep);
  int64_t local[5] = {R.local[0], R.local[1], R.local[2], 0, 0};
  if (st) goto done;
  double t0 = strata_timer_now();
  /* own rows first, then the received ones (by sender rank): a fixed order of the sums */
  const int64_t nr = R.recv->num_rows;
  for (int pass = 0; pass < 2 && !st && A; ++pass) {
    strata_packets_t *P = pass == 0 ? R.pk_self : R.recv;
    if (!P || P->num_rows == 0) continue;
    strata_unpack_report_t ur;
    memset(&ur, 0, sizeof ur);
    st = strata_sparse_unpack_combine(exec, A, pass == 0 ? R.imp + nr : R.imp, P, col_lids, num_global, mode, &ur);
    local[3] += ur.invalid_entries + ur.invalid_rows + ur.malformed_packets;
    local[4] += ur.entries_combined;
    if (st == STRATA_ERR_INVALID_DATA) st = STRATA_SUCCESS; /* counted: agreed below over the ranks */
  }
  if (!st) st = strata_exec_fence(exec);
  rep.unpack_s = strata_timer_now() - t0;
  if ((st = strata_impl_agree(comm, st))) goto done;
  st = report_sums(what, row_map, local, "the valid entries were combined", &rep);
done:
  if (report) *report = rep;
  route_free(exec, &R);
  return st;
}

/* ------------------------------------------------------------------ the reusable row export */

struct strata_dist_row_export {
  strata_dist_map_t *slots;    /* the owners' value slots: rank r owns its A's nnz */
  strata_dist_plan_t *plan;    /* ghosts: the listed entries' slots, in listed order */
  strata_exec_t *exec;
  int32_t *src;                /* [sent] exec: L's entry of each listed entry owned elsewhere */
  double *buf;                 /* [sent] exec: their values, gathered */
  int64_t sent;                /* listed entries owned by other ranks: the plan's ghosts */
  int32_t *own_slots;          /* [own_targets] exec: A's value slots the own entries go to */
  int64_t *own_offsets;        /* [own_targets + 1] exec: into own_src */
  int64_t *own_src;            /* exec: L's entries of each slot, in listed order */
  int64_t own_targets;
  int64_t entries;             /* listed entries on this rank */
  int64_t a_nnz;               /* A's entries at create */
  int64_t rows_given, entries_total; /* over all ranks */
  int64_t packets_sent, packets_received, packets_self; /* create's rows: to, from other ranks; kept */
};

strata_status_t strata_dist_row_export_create(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                              const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                              const int64_t *row_gids, const int64_t *col_gids,
                                              const strata_crs_matrix_t *A, const int32_t *col_lids, int64_t num_global,
                                              const strata_dist_packets_options_t *opts, strata_dist_row_export_t **out,
                                              strata_dist_export_report_t *report) {
  const char *what = "dist row export create";
  if (out) *out = NULL;
  if (!row_map) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL row_map", what);
  MPI_Comm comm = row_map->comm;
  const int size = row_map->size, rank = row_map->rank;
  strata_dist_export_report_t rep;
  memset(&rep, 0, sizeof rep);
  rep.first_unowned = -1;
  export_route_t R;
  memset(&R, 0, sizeof R);
  strata_status_t st = out ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL out", what);
  if ((st = strata_impl_agree(comm, st))) return st;
  st = route_rows(what, exec, row_map, L, num_rows, rows, row_gids, col_gids, A, opts, &R, &rep);
  int64_t local[5] = {R.local[0], R.local[1], R.local[2], 0, 0};
  int64_t *pos = NULL, *dpos = NULL, *back = NULL, *ghost = NULL, *base = NULL, *loff = NULL;
  int *sc = NULL, *rc = NULL, *sd = NULL, *rd = NULL;
  int32_t *hsrc = NULL;
  strata_dist_row_export_t *X = NULL;
  if (st) goto done;
  /* 1. the owner: the position in A of every entry it received or packed for itself */
  const int64_t nr = R.recv->num_rows;
  const int64_t er = (R.recv->num_bytes - 8 * nr) / 16;
  const int64_t es = R.pk_self ? (R.pk_self->num_bytes - 8 * R.pk_self->num_rows) / 16 : 0;
  pos = (int64_t *)strata_impl_alloc(er + es, sizeof(int64_t));
  if (!pos) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries", what, (long long)(er + es));
  if (!st && er + es > 0) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(er + es) * sizeof(int64_t), (void **)&dpos);
  int64_t bad = 0;
  if (!st && nr > 0) st = strata_sparse_unpack_positions(exec, A, R.imp, R.recv, col_lids, num_global, dpos, &bad);
  local[3] += bad;
  if (!st && es > 0) st = strata_sparse_unpack_positions(exec, A, R.imp + nr, R.pk_self, col_lids, num_global, dpos + er, &bad);
  if (es > 0) local[3] += bad;
  if (!st && er + es > 0) st = strata_mem_copy(exec, pos, dpos, (size_t)(er + es) * sizeof(int64_t));
  if ((st = strata_impl_agree(comm, st))) goto done;
  /* 2. the positions back to their senders: entries per destination, one Alltoall, then the
   *    positions in the owners' receive order (by sender rank, the sender's order) */
  sc = (int *)calloc((size_t)size, sizeof(int));
  rc = (int *)calloc((size_t)size, sizeof(int));
  sd = (int *)calloc((size_t)size + 1, sizeof(int));
  rd = (int *)calloc((size_t)size + 1, sizeof(int));
  loff = (int64_t *)strata_impl_alloc(num_rows + 1, sizeof(int64_t));
  base = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  if (!sc || !rc || !sd || !rd || !loff || !base) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d ranks", what, size);
  int64_t eo = 0; /* entries this rank sends to other ranks */
  if (!st) {
    int64_t *per = (int64_t *)calloc((size_t)size, sizeof(int64_t));
    if (!per) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %d ranks", what, size);
    for (int64_t q = 0; !st && q < R.nother; ++q) per[R.own[R.kof[q]]] += R.lro[R.order[q] + 1] - R.lro[R.order[q]];
    for (int r = 0; !st && r < size; ++r) {
      if (per[r] > INT32_MAX)
        st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %lld entries for rank %d (MPI counts: at most %d)", what,
                              (long long)per[r], r, INT32_MAX);
      else sc[r] = (int)per[r];
      eo += per[r];
    }
    free(per);
  }
  if ((st = strata_impl_agree(comm, st))) goto done;
  MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
  {
    int64_t tr = 0, ts = 0;
    for (int r = 0; r < size; ++r) tr += rc[r], ts += sc[r];
    if (tr != er || tr > INT32_MAX || ts > INT32_MAX)
      st = strata_error_set(tr != er ? STRATA_ERR_INTERNAL : STRATA_ERR_INVALID_ARGUMENT,
                            "%s: %lld entries received in packets, %lld announced; %lld to send back (MPI displacements: at "
                            "most %d)",
                            what, (long long)er, (long long)tr, (long long)ts, INT32_MAX);
    for (int r = 0; !st && r < size; ++r) sd[r + 1] = sd[r] + sc[r], rd[r + 1] = rd[r] + rc[r];
  }
  back = (int64_t *)strata_impl_alloc(eo, sizeof(int64_t));
  if (!st && !back) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld positions", what, (long long)eo);
  if ((st = strata_impl_agree(comm, st))) goto done;
  MPI_Alltoallv(pos, rc, rd, MPI_INT64_T, back, sc, sd, MPI_INT64_T, comm);
  /* 3. every listed entry's slot: the owner's first slot + the position; the listed order is the
   *    caller's rows in order, each row's entries in order */
  {
    int64_t mine = A ? A->nnz : 0;
    MPI_Allgather(&mine, 1, MPI_INT64_T, base + 1, 1, MPI_INT64_T, comm);
    for (int r = 0; r < size; ++r) base[r + 1] += base[r];
  }
  loff[0] = 0;
  for (int64_t k = 0; k < num_rows; ++k) loff[k + 1] = loff[k] + R.lro[rows[k] + 1] - R.lro[rows[k]];
  const int64_t T = loff[num_rows];
  ghost = (int64_t *)strata_impl_alloc(T, sizeof(int64_t));
  if (!ghost) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries", what, (long long)T);
  if (!st && (T > INT32_MAX || (L && L->nnz > INT32_MAX) || (A && A->nnz > INT32_MAX)))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: %lld entries listed, L with %lld entries, A with %lld on rank %d (the limit of each is %d)", what,
                          (long long)T, (long long)(L ? L->nnz : 0), (long long)(A ? A->nnz : 0), rank, INT32_MAX);
  if (!st) {
    for (int64_t j = 0; j < T; ++j) ghost[j] = -1; /* unowned rows' entries stay -1 (counted) */
    int64_t c = 0, cs = er;
    for (int64_t q = 0; q < R.nsend; ++q) {
      const int64_t k = R.kof[q], o = R.own[k], len = R.lro[R.order[q] + 1] - R.lro[R.order[q]];
      for (int64_t e = 0; e < len; ++e) {
        const int64_t p = q < R.nother ? back[c++] : pos[cs++];
        ghost[loff[k] + e] = p >= 0 ? base[o] + p : -1;
      }
    }
  }
  local[4] = T - R.local[2];
  if ((st = strata_impl_agree(comm, st))) goto done;
  st = report_sums(what, row_map, local, "no row export was made", &rep);
  if (!st && rep.rows_unowned > 0) /* rows of no entries that no rank owns: refused all the same */
    st = strata_error_set(STRATA_ERR_INVALID_DATA,
                          "%s: %lld rows that no rank owns in the map of %lld ids (the first: global row %lld), all of them "
                          "empty; no row export was made",
                          what, (long long)rep.rows_unowned, (long long)row_map->num_global, (long long)rep.first_unowned);
  if (st) goto done; /* agreed: the same sums on every rank */
  /* 4. the plan of the slots: the listed entries are its ghosts, each combined into its slot by
   *    the export (values only from now on) */
  X = (strata_dist_row_export_t *)calloc(1, sizeof *X);
  if (!X) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: the export", what);
  if (!st) {
    X->exec = exec;
    X->entries = T;
    X->a_nnz = A ? A->nnz : 0;
    X->rows_given = rep.rows_given;
    X->entries_total = rep.entries_combined;
    X->packets_sent = rep.exchange.packets_sent;
    X->packets_received = rep.exchange.packets_received;
    X->packets_self = rep.exchange.packets_self;
  }
  /* the own entries by slot (a stable counting sort: listed order within a slot), combined by a
   * kernel over their slots with no copy; the others' entries, in listed order, the plan's ghosts */
  int64_t nown = 0, nsent = 0;
  for (int64_t k = 0; k < num_rows; ++k) {
    if (R.own[k] == rank) nown += loff[k + 1] - loff[k];
    else if (R.own[k] >= 0) nsent += loff[k + 1] - loff[k];
  }
  const int64_t an = X ? X->a_nnz : 0;
  int64_t *scount = NULL, *osrc = NULL, *ooff = NULL, *g2 = NULL;
  int32_t *olid = NULL;
  if (!st) {
    scount = (int64_t *)calloc((size_t)an + 1, sizeof(int64_t));
    osrc = (int64_t *)strata_impl_alloc(nown, sizeof(int64_t));
    g2 = (int64_t *)strata_impl_alloc(nsent, sizeof(int64_t));
    hsrc = (int32_t *)strata_impl_alloc(nsent, sizeof(int32_t));
    if (!scount || !osrc || !g2 || !hsrc) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld entries", what, (long long)T);
  }
  int64_t nt = 0;
  if (!st) {
    for (int64_t k = 0; k < num_rows; ++k)
      if (R.own[k] == rank)
        for (int64_t j = loff[k]; j < loff[k + 1]; ++j) scount[ghost[j] - base[rank] + 1]++;
    for (int64_t t = 0; t < an; ++t) nt += scount[t + 1] > 0;
    olid = (int32_t *)strata_impl_alloc(nt, sizeof(int32_t));
    ooff = (int64_t *)strata_impl_alloc(nt + 1, sizeof(int64_t));
    if (!olid || !ooff) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: %lld slots", what, (long long)nt);
  }
  if (!st) {
    ooff[0] = 0;
    for (int64_t t = 0, w = 0; t < an; ++t)
      if (scount[t + 1] > 0) olid[w] = (int32_t)t, ooff[w + 1] = ooff[w] + scount[t + 1], ++w;
    for (int64_t t = 0; t < an; ++t) scount[t + 1] += scount[t]; /* first own entry of each slot */
    for (int64_t k = 0, w = 0; k < num_rows; ++k) {
      const int64_t first = R.lro[rows[k]];
      for (int64_t j = loff[k]; j < loff[k + 1]; ++j) {
        if (R.own[k] == rank) osrc[scount[ghost[j] - base[rank]]++] = first + (j - loff[k]);
        else if (R.own[k] >= 0) g2[w] = ghost[j], hsrc[w++] = (int32_t)(first + (j - loff[k]));
      }
    }
    X->sent = nsent;
    X->own_targets = nt;
  }
  if (!st && nt > 0) {
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nt * sizeof(int32_t), (void **)&X->own_slots);
    if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(nt + 1) * sizeof(int64_t), (void **)&X->own_offsets);
    if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nown * sizeof(int64_t), (void **)&X->own_src);
    if (!st) st = strata_mem_copy(exec, X->own_slots, olid, (size_t)nt * sizeof(int32_t));
    if (!st) st = strata_mem_copy(exec, X->own_offsets, ooff, (size_t)(nt + 1) * sizeof(int64_t));
    if (!st) st = strata_mem_copy(exec, X->own_src, osrc, (size_t)nown * sizeof(int64_t));
  }
  if (!st && nsent > 0) {
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nsent * sizeof(int32_t), (void **)&X->src);
    if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)nsent * sizeof(double), (void **)&X->buf);
    if (!st) st = strata_mem_copy(exec, X->src, hsrc, (size_t)nsent * sizeof(int32_t));
  }
  free(scount);
  free(osrc);
  free(ooff);
  free(olid);
  if ((st = strata_impl_agree(comm, st))) {
    free(g2);
    goto done;
  }
  st = strata_dist_map_create_contiguous(comm, X->a_nnz, &X->slots);
  if (!st) {
    strata_dist_plan_options_t popts;
    memset(&popts, 0, sizeof popts);
    popts.staging = opts ? opts->staging : 0;
    st = strata_dist_plan_create(exec, X->slots, nsent, g2, &popts, &X->plan);
  }
  free(g2);
done:
  if (st && X) {
    strata_dist_row_export_t *tmp = X;
    strata_dist_row_export_destroy(&tmp);
    X = NULL;
  }
  if (out) *out = X;
  if (report) *report = rep;
  if (exec) strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&dpos);
  free(pos);
  free(back);
  free(ghost);
  free(base);
  free(loff);
  free(sc);
  free(rc);
  free(sd);
  free(rd);
  free(hsrc);
  route_free(exec, &R);
  return st;
}

strata_status_t strata_dist_row_export_apply(strata_dist_row_export_t *X, strata_exec_t *exec, const double *L_values,
                                             strata_combine_mode_t mode, double *A_values,
                                             strata_dist_export_report_t *report) {
  const char *what = "dist row export apply";
  if (report) memset(report, 0, sizeof *report);
  if (!X) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL export", what);
  strata_exec_t *ex = exec ? exec : X->exec;
  strata_status_t st = STRATA_SUCCESS;
  if (strata_exec_backend(ex) != strata_exec_backend(X->exec))
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: exec of backend %s, the export's is %s", what,
                          strata_backend_name(strata_exec_backend(ex)), strata_backend_name(strata_exec_backend(X->exec)));
  else if (mode != STRATA_COMBINE_ADD && mode != STRATA_COMBINE_REPLACE && mode != STRATA_COMBINE_ABSMAX &&
           mode != STRATA_COMBINE_ZERO)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                          "%s: combine mode %d (ADD, REPLACE, ABSMAX or ZERO; INSERT needs a pattern that can grow)", what,
                          (int)mode);
  else if (!L_values && X->entries > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL L_values with %lld entries listed", what,
                          (long long)X->entries);
  else if (!A_values && X->a_nnz > 0)
    st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: NULL A_values with %lld value slots", what, (long long)X->a_nnz);
  /* agreed before anything moves: a rank with nothing to send or receive would not meet an error
   * of another rank in the plan's agreement */
  if ((st = strata_impl_agree(X->slots->comm, st))) return st;
  double t0 = strata_timer_now();
  if (!st && X->sent > 0) { /* the values owned elsewhere, in the plan's ghost order */
    strata_dist_gather_args_t a = {X->src, L_values, X->buf};
    st = strata_parallel_for(ex, "dist_row_export_gather", strata_range(0, X->sent), &strata_dist_gather, &a);
  }
  /* the plan agrees every rank's argument errors and the mode and returns them from its end; the
   * own entries are combined only after that (so that nothing is combined anywhere on an error):
   * each slot gets the received values first (by sender rank), then its own in listed order */
  strata_status_t sb = strata_dist_plan_export_begin(X->plan, ex, st ? NULL : X->buf, mode, A_values);
  double t1 = strata_timer_now();
  strata_status_t se = sb ? sb : strata_dist_plan_end(X->plan);
  if (!st) st = se;
  if (!st && X->own_targets > 0 && mode != STRATA_COMBINE_ZERO) {
    const int m = mode == STRATA_COMBINE_ADD ? 0 : mode == STRATA_COMBINE_REPLACE ? 1 : 2;
    strata_dist_combine_args_t a = {X->own_slots, X->own_offsets, X->own_src, L_values, A_values, m};
    st = strata_parallel_for(ex, "dist_row_export_own", strata_range(0, X->own_targets), &strata_dist_combine, &a);
  }
  if (!st) st = strata_exec_fence(ex);
  double t2 = strata_timer_now();
  if (report) {
    strata_dist_plan_info_t pi;
    memset(&pi, 0, sizeof pi);
    strata_dist_plan_info(X->plan, &pi);
    report->rows_given = X->rows_given;
    report->entries_combined = st || mode == STRATA_COMBINE_ZERO ? 0 : X->entries_total;
    report->first_unowned = -1;
    report->exchange.packets_sent = st ? 0 : X->packets_sent; /* the rows whose values moved: create's */
    report->exchange.packets_received = st ? 0 : X->packets_received;
    report->exchange.packets_self = st ? 0 : X->packets_self;
    report->exchange.bytes_sent = pi.recv_bytes; /* the plan's import direction, reversed */
    report->exchange.bytes_received = pi.send_bytes;
    report->exchange.num_send_neighbors = pi.num_recv_neighbors;
    report->exchange.num_recv_neighbors = pi.num_send_neighbors;
    report->exchange.staged = pi.staged;
    report->pack_s = t1 - t0;
    report->exchange_s = X->plan->wait_s;
    report->unpack_s = t2 - t1 - X->plan->wait_s;
  }
  return st;
}

strata_status_t strata_dist_row_export_destroy(strata_dist_row_export_t **X) {
  if (!X || !*X) return STRATA_SUCCESS;
  strata_dist_row_export_t *x = *X;
  strata_status_t st = strata_dist_plan_destroy(&x->plan);
  strata_status_t s2 = strata_dist_map_destroy(&x->slots);
  if (x->exec) {
    strata_mem_free(x->exec, STRATA_MEM_DEVICE, (void **)&x->src);
    strata_mem_free(x->exec, STRATA_MEM_DEVICE, (void **)&x->buf);
    strata_mem_free(x->exec, STRATA_MEM_DEVICE, (void **)&x->own_slots);
    strata_mem_free(x->exec, STRATA_MEM_DEVICE, (void **)&x->own_offsets);
    strata_mem_free(x->exec, STRATA_MEM_DEVICE, (void **)&x->own_src);
  }
  free(x);
  *X = NULL;
  return st ? st : s2;
}
