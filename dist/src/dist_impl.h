/* strata dist — internals shared by the dist sources: the map, plan and matrix structs, the error
 * agreement and the sparse all-to-all exchange of the setup phases. Not installed. */
#ifndef STRATA_DIST_IMPL_H
#define STRATA_DIST_IMPL_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/dist.h"

/* message tags on strata's duplicated communicators (each plan has its own communicator) */
enum { STRATA_IMPL_TAG_SETUP = 17, STRATA_IMPL_TAG_IMPORT = 18, STRATA_IMPL_TAG_EXPORT = 19 };

/* ------------------------------------------------------------------ error agreement */

/* One rank's status made every rank's: an MPI_(I)allreduce of (status, rank) with MPI_MINLOC
 * (the most negative status, the lowest rank holding it), then, when it is an error, an
 * MPI_Bcast of that rank's message; every rank's message becomes "rank R: <R's message>". */
typedef struct strata_impl_agree {
  int in[2], out[2];
  MPI_Request req;
  MPI_Comm comm;
  int active;
} strata_impl_agree_t;

void strata_impl_agree_begin(strata_impl_agree_t *a, MPI_Comm comm, strata_status_t st);
strata_status_t strata_impl_agree_end(strata_impl_agree_t *a);
/* the end's second half, where every rank knows the agreed status st and the rank root that
 * holds its message already: the message broadcast from root (collective when st < 0) */
strata_status_t strata_impl_agree_message(MPI_Comm comm, strata_status_t st, int root);
/* blocking form: begin + end */
strata_status_t strata_impl_agree(MPI_Comm comm, strata_status_t st);

/* The most bytes strata_dist_packets_exchange puts in one MPI message: INT_MAX (MPI's int count,
 * EDGE_CASES D9); tests lower it to see the refusal without 2 GB messages. */
extern int64_t strata_impl_dist_message_max;

/* 1 if MPI is initialized and not finalized; else sets the message and returns 0 */
int strata_impl_mpi_ready(const char *what);

/* Sparse all-to-all of fixed-size elements: scount[p] elements of elem bytes to each rank, sbuf
 * grouped by destination in rank order; *rbuf (malloc, free with free()) receives rcount[p]
 * elements from each rank grouped by source in rank order, *rtotal their sum. One MPI_Alltoall
 * of counts, then receives posted before sends between ranks with nonzero counts only (self:
 * memcpy). Messages of 2^31 elements or more are refused. Errors (agreed): OUT_OF_MEMORY,
 * INVALID_ARGUMENT. Collective on comm. */
strata_status_t strata_impl_exchange(MPI_Comm comm, size_t elem, const int64_t *scount, const void *sbuf,
                                     int64_t *rcount, void **rbuf, int64_t *rtotal);

/* malloc of n elements of size sz (at least 1 byte), NULL on overflow or failure */
void *strata_impl_alloc(int64_t n, size_t sz);

/* ------------------------------------------------------------------ maps */

struct strata_dist_map {
  MPI_Comm comm;
  int rank, size;
  int64_t num_global;
  int32_t num_local;
  int64_t max_gid;
  int contiguous;
  int64_t *offsets;   /* contiguous: [size + 1], rank r owns [offsets[r], offsets[r + 1]) */
  int64_t *gids;      /* list: [num_local] */
  /* list: global-to-local hash (open addressing, linear probing; key -1 = empty) */
  int64_t hcap;       /* power of two */
  int64_t *hkeys;
  int32_t *hvals;
  /* list: this rank's block of the directory, sorted by gid */
  uint64_t dir_block; /* ids per directory rank: gid g lives at rank g / dir_block (unsigned: it is
                         2^63 for one rank and an id of INT64_MAX) */
  int64_t dir_n;
  int64_t *dir_gids;
  int32_t *dir_owner;
  int32_t *dir_lid;
};

int32_t strata_impl_map_lid(const strata_dist_map_t *map, int64_t gid);

/* ------------------------------------------------------------------ plans */

typedef enum { STRATA_IMPL_IDLE = 0, STRATA_IMPL_IMPORTING = 1, STRATA_IMPL_EXPORTING = 2 } strata_impl_plan_state_t;

struct strata_dist_plan {
  MPI_Comm comm;           /* the plan's own duplicate of the map's communicator */
  int rank, size;
  strata_exec_t *exec;
  int staged, cuda_aware;
  double wait_s;           /* the last end's MPI_Waitall, seconds (strata_dist_row_export's report) */
  int64_t num_ghosts, num_owned, num_sends;
  /* import receives: segments of the ghost buffer, by owner rank ascending (self included) */
  int nrecv;
  int *recv_ranks;
  int64_t *recv_offsets;   /* [nrecv + 1] */
  int self_recv;           /* index of this rank's segment, or -1 */
  /* import sends: segments of the owned buffer, by requesting rank ascending (self included) */
  int nsend;
  int *send_ranks;
  int64_t *send_offsets;   /* [nsend + 1] */
  int self_send;
  /* exec memory */
  int32_t *send_lids;      /* [num_sends]: owned local id of each sent value */
  int32_t *perm;           /* [num_ghosts] or NULL: caller slot of receive position q */
  int64_t num_targets;     /* export combine: distinct target lids */
  int32_t *comb_lids;      /* [num_targets] */
  int64_t *comb_offsets;   /* [num_targets + 1] into comb_pos */
  int64_t *comb_pos;       /* [num_sends]: positions in the owned buffer, in receive order */
  double *ghost_buf;       /* [num_ghosts] receive order */
  double *owned_buf;       /* [num_sends] */
  /* page-locked staging mirrors (staged only) */
  double *ghost_host, *owned_host;
  /* persistent requests: receives first, then sends */
  int imp_nrecv, imp_nsend, exp_nrecv, exp_nsend;
  MPI_Request *imp_req, *exp_req;
  /* an exchange in flight */
  strata_impl_plan_state_t state;
  strata_status_t local_status; /* what this rank found at begin */
  strata_exec_t *cur_exec;
  double *cur_out;              /* import: x_ghost; export: y_owned */
  strata_combine_mode_t cur_mode;
  strata_impl_agree_t agree;
};

/* The exchange in parts, for the SpMV modes (no agreement: the caller agrees once). An import:
 * post_recvs (host) / pack (kernel, self copy, staging, fence; posts the receives when staged,
 * after the fence) / start_sends / wait / finish (staged: the copy into exec memory). do_pack 0
 * sends the stale buffer (arguments refused on this rank). */
void strata_impl_plan_quiesce(strata_dist_plan_t *plan, strata_exec_t *exec);
strata_status_t strata_impl_plan_release_exec(strata_dist_plan_t *plan, strata_exec_t *exec);
void strata_impl_plan_import_post(strata_dist_plan_t *plan);
strata_status_t strata_impl_plan_import_pack(strata_dist_plan_t *plan, strata_exec_t *exec, const double *x,
                                             int do_pack);
void strata_impl_plan_import_send(strata_dist_plan_t *plan);
void strata_impl_plan_import_wait(strata_dist_plan_t *plan);
strata_status_t strata_impl_plan_import_finish(strata_dist_plan_t *plan, strata_exec_t *exec);

/* ------------------------------------------------------------------ the distributed CrsMatrix */

typedef struct strata_impl_task strata_impl_task_t; /* the communication thread (spmv.c) */

struct strata_dist_crs {
  strata_exec_t *exec;
  const strata_dist_map_t *row_map, *domain_map; /* borrowed */
  strata_crs_matrix_t *diag, *offdiag;
  strata_spmv_plan_t *pdiag, *poff;
  int32_t num_ghosts;
  int64_t *ghost_gids; /* host */
  int *ghost_owners;   /* host */
  int64_t nnz_global;
  strata_dist_plan_t *plan;
  strata_impl_task_t *task; /* NULL until task mode is first used */
};

void strata_impl_task_destroy(strata_impl_task_t **task);

#endif
