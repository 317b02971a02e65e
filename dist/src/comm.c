/* strata dist — MPI start, the error agreement and the sparse all-to-all of the setup phases
 * (strata/dist.h, dist_impl.h). */
#include <stdio.h>

#include "dist_impl.h"

static int strata_dist_inited_mpi; /* 1: strata_dist_init called MPI_Init_thread */

void *strata_impl_alloc(int64_t n, size_t sz) {
  if (n < 0 || (sz && (uint64_t)n > SIZE_MAX / sz)) return NULL;
  size_t b = (size_t)n * sz;
  return malloc(b ? b : 1);
}

int strata_impl_mpi_ready(const char *what) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) return 1;
  strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: MPI is %s (call MPI_Init_thread or strata_dist_init first)", what,
                   fin ? "finalized" : "not initialized");
  return 0;
}

const char *strata_dist_thread_level_name(int level) {
  if (level == MPI_THREAD_SINGLE) return "MPI_THREAD_SINGLE";
  if (level == MPI_THREAD_FUNNELED) return "MPI_THREAD_FUNNELED";
  if (level == MPI_THREAD_SERIALIZED) return "MPI_THREAD_SERIALIZED";
  if (level == MPI_THREAD_MULTIPLE) return "MPI_THREAD_MULTIPLE";
  return "unknown";
}

strata_status_t strata_dist_init(int *argc, char ***argv, int required, int *provided) {
  if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED && required != MPI_THREAD_SERIALIZED &&
      required != MPI_THREAD_MULTIPLE)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "dist init: thread level %d is none of MPI_THREAD_SINGLE, FUNNELED, SERIALIZED, MULTIPLE",
                            required);
  int init = 0, fin = 0, got = MPI_THREAD_SINGLE;
  MPI_Finalized(&fin);
  if (fin) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist init: MPI is finalized already");
  MPI_Initialized(&init);
  if (init) {
    MPI_Query_thread(&got);
  } else {
    MPI_Init_thread(argc, argv, required, &got);
    strata_dist_inited_mpi = 1;
  }
  if (provided) *provided = got;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_finalize(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (strata_dist_inited_mpi && init && !fin) MPI_Finalize();
  strata_dist_inited_mpi = 0;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_node_rank(MPI_Comm comm, int *node_rank, int *node_size) {
  if (!strata_impl_mpi_ready("dist node rank")) return STRATA_ERR_INVALID_ARGUMENT;
  if (comm == MPI_COMM_NULL) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist node rank: MPI_COMM_NULL");
  MPI_Comm node;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int r = 0, s = 1;
  MPI_Comm_rank(node, &r);
  MPI_Comm_size(node, &s);
  MPI_Comm_free(&node);
  if (node_rank) *node_rank = r;
  if (node_size) *node_size = s;
  return STRATA_SUCCESS;
}

strata_status_t strata_dist_device_select(MPI_Comm comm, int device_count, int *device) {
  if (!device) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "dist device select: NULL device");
  int node_rank = 0;
  strata_status_t st = strata_dist_node_rank(comm, &node_rank, NULL);
  if (st) return st;
  *device = device_count > 0 ? node_rank % device_count : 0;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ agreement */

void strata_impl_agree_begin(strata_impl_agree_t *a, MPI_Comm comm, strata_status_t st) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  a->in[0] = (int)st;
  a->in[1] = rank;
  a->comm = comm;
  a->active = 1;
  MPI_Iallreduce(a->in, a->out, 1, MPI_2INT, MPI_MINLOC, comm, &a->req);
}

strata_status_t strata_impl_agree_message(MPI_Comm comm, strata_status_t st, int root) {
  if (st >= 0) return STRATA_SUCCESS;
  char msg[1024];
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == root) snprintf(msg, sizeof msg, "%s", strata_error_message());
  MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, root, comm);
  msg[sizeof msg - 1] = '\0';
  /* a message agreed already (an inner collective) keeps its "rank R: " */
  if (strncmp(msg, "rank ", 5) == 0) return strata_error_set(st, "%s", msg);
  return strata_error_set(st, "rank %d: %s", root, msg);
}

strata_status_t strata_impl_agree_end(strata_impl_agree_t *a) {
  if (!a->active) return STRATA_SUCCESS;
  MPI_Wait(&a->req, MPI_STATUS_IGNORE);
  a->active = 0;
  return strata_impl_agree_message(a->comm, (strata_status_t)a->out[0], a->out[1]);
}

strata_status_t strata_impl_agree(MPI_Comm comm, strata_status_t st) {
  strata_impl_agree_t a;
  strata_impl_agree_begin(&a, comm, st);
  return strata_impl_agree_end(&a);
}

/* ------------------------------------------------------------------ sparse all-to-all */

strata_status_t strata_impl_exchange(MPI_Comm comm, size_t elem, const int64_t *scount, const void *sbuf,
                                     int64_t *rcount, void **rbuf, int64_t *rtotal) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  *rbuf = NULL;
  *rtotal = 0;
  MPI_Alltoall(scount, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, comm);
  strata_status_t st = STRATA_SUCCESS;
  int64_t total = 0;
  int nmsg = 0;
  for (int r = 0; r < size; ++r) {
    if (!st && (scount[r] > INT_MAX || rcount[r] > INT_MAX || scount[r] < 0 || rcount[r] < 0))
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "dist exchange: a message of %lld elements of %zu bytes %s rank %d: at most %d elements per "
                            "message (MPI's int count)",
                            (long long)(scount[r] > INT_MAX || scount[r] < 0 ? scount[r] : rcount[r]), elem,
                            scount[r] > INT_MAX || scount[r] < 0 ? "to" : "from", r, INT_MAX);
    total += rcount[r];
    if (r != rank) nmsg += (scount[r] > 0) + (rcount[r] > 0);
  }
  void *buf = NULL;
  MPI_Request *req = NULL;
  if (!st) {
    buf = strata_impl_alloc(total, elem);
    req = (MPI_Request *)strata_impl_alloc(nmsg, sizeof *req);
    if (!buf || !req)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "dist exchange: %lld elements of %zu bytes", (long long)total, elem);
  }
  st = strata_impl_agree(comm, st);
  if (st) {
    free(buf);
    free(req);
    return st;
  }
  MPI_Datatype t;
  MPI_Type_contiguous((int)elem, MPI_BYTE, &t);
  MPI_Type_commit(&t);
  int n = 0;
  int64_t off = 0;
  int64_t self_off = 0;
  for (int r = 0; r < size; ++r) { /* receives first */
    if (r == rank) self_off = off;
    if (r != rank && rcount[r] > 0)
      MPI_Irecv((char *)buf + (size_t)off * elem, (int)rcount[r], t, r, STRATA_IMPL_TAG_SETUP, comm, &req[n++]);
    off += rcount[r];
  }
  off = 0;
  for (int r = 0; r < size; ++r) {
    if (scount[r] > 0) {
      const char *src = (const char *)sbuf + (size_t)off * elem;
      if (r == rank)
        memcpy((char *)buf + (size_t)self_off * elem, src, (size_t)scount[r] * elem);
      else
        MPI_Isend(src, (int)scount[r], t, r, STRATA_IMPL_TAG_SETUP, comm, &req[n++]);
    }
    off += scount[r];
  }
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
  free(req);
  *rbuf = buf;
  *rtotal = total;
  return STRATA_SUCCESS;
}
