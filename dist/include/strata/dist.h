/* strata — the distributed module (DESIGN §10): maps, import/export plans, the distributed
 * CrsMatrix and its SpMV in three modes, distributed vector reductions, on MPI.
 *
 * Built only when MPI is found (-DSTRATA_MPI=auto|ON|OFF): library strata::dist (libstrata_dist),
 * config.h's STRATA_HAVE_MPI = 1. The application initializes MPI (MPI_Init_thread or
 * strata_dist_init) and strata (strata_init) and finalizes both.
 *
 * Terms. A map gives each rank of a communicator the global ids (gids, int64, >= 0) it owns; a
 * gid's local id (lid, int32) is its position among its rank's ids. A plan (Tpetra's Distributor)
 * moves values between the owners of gids and the ranks that hold copies of them ("ghosts").
 * A distributed CrsMatrix owns rows by a row map and splits each rank's rows into a diagonal
 * block (the columns this rank owns in the domain map, local ids) and an off-diagonal block
 * (the other columns, "ghost columns", compressed to 0..num_ghosts-1) — PETSc's MPIAIJ, hypre's
 * ParCSR. Each block is a strata_crs_matrix_t applied through the row-class SpMV plan.
 *
 * Collective calls. Every function marked collective must be called by every rank of the map's
 * communicator, in the same order. Errors detected on one rank are agreed on all of them: every
 * rank returns the same status (the most negative one detected; for equal ones the lowest rank's)
 * and every rank's message names the rank that detected it and that rank's message
 * ("rank 2: ..."), so no rank goes on to a collective that another skipped (no hang). Local
 * misuse that leaves no communicator to agree on (a NULL map, MPI not initialized) is refused on
 * the calling rank only (the call's doc says which). MPI's own failures abort the job
 * (MPI_ERRORS_ARE_FATAL on strata's duplicated communicators): a broken transport cannot be
 * agreed on. Messages of 2^31 elements or more are refused (agreed, naming the count and the
 * limit), never sent with a wrapped count.
 *
 * Memory. "host" arrays are ordinary host memory; "exec memory" is the memory of the execution
 * space given (device memory on GPU backends). On GPU execution spaces a plan stages every
 * message through page-locked host buffers and synchronizes the exec's stream before MPI reads a
 * buffer (a pack kernel must have finished); a receive buffer is never refilled before the copy
 * out of it has completed. (CUDA-aware MPI, where MPIX_Query_cuda_support says so, is reported
 * by strata_dist_plan_info but not used yet: the staged path always runs.)
 *
 * Sources: Tpetra's Map, Directory and Distributor (createFromRecvs: receives posted before
 * sends, counts computed once, neighbours only); PETSc's MPIAIJ (diagonal and off-diagonal
 * blocks, VecScatter with persistent requests); Kreutzer, Hager, Wellein et al., "Sparse
 * matrix-vector multiplication on GPGPU clusters: a new storage format and a scalable
 * implementation" (IPDPSW 2012: vector mode, vector mode with naive overlap, task mode with a
 * dedicated communication thread). Edge cases: ../shared/cases/EDGE_CASES.md D1-D16.
 */
#ifndef STRATA_DIST_H
#define STRATA_DIST_H

#include <mpi.h>

#include "strata/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ MPI start and helpers */

/** Initializes MPI with thread level `required` (MPI_THREAD_SINGLE .. MPI_THREAD_MULTIPLE;
 *  task mode needs MPI_THREAD_SERIALIZED or more) unless MPI is initialized already; *provided
 *  (may be NULL) receives the level MPI granted, which may be less than asked for (not an error
 *  here: strata_dist_crs_spmv refuses task mode then). argc / argv as MPI_Init_thread (may be
 *  NULL). Errors: INVALID_ARGUMENT (required outside the four levels; MPI finalized already).
 *  Not collective for strata (MPI_Init_thread itself is). Synchronous. */
strata_status_t strata_dist_init(int *argc, char ***argv, int required, int *provided);

/** Finalizes MPI if strata_dist_init initialized it (else nothing). Release every map, plan and
 *  matrix first. Collective (MPI_Finalize). */
strata_status_t strata_dist_finalize(void);

/** "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE",
 *  or "unknown". */
const char *strata_dist_thread_level_name(int level);

/** This rank's index among the ranks of comm on the same node, and their number (from
 *  MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)): the GPU a rank should take is node_rank modulo
 *  the device count (one rank per GPU, DESIGN §10). Either output may be NULL. Errors:
 *  INVALID_ARGUMENT (MPI not initialized, comm MPI_COMM_NULL; this rank only). Collective. */
strata_status_t strata_dist_node_rank(MPI_Comm comm, int *node_rank, int *node_size);

/** The GPU this rank should take, one rank per GPU (DESIGN §10): *device = node_rank modulo
 *  device_count (node_rank from strata_dist_node_rank; device_count: the backend's, from
 *  strata_backend_device_count — 4 GPUs and ranks 0..3 of a node give 0..3, one GPU and two
 *  ranks give 0 for both), 0 when device_count < 1 (host backends count 1). Pass it to
 *  strata_init as strata_init_options_t.device_id before the first execution space of the GPU
 *  backend (the environment's STRATA_DEVICE still overrides it there). Errors: INVALID_ARGUMENT
 *  (NULL device; MPI not initialized, MPI_COMM_NULL: this rank only). Collective. */
strata_status_t strata_dist_device_select(MPI_Comm comm, int device_count, int *device);

/* ------------------------------------------------------------------ maps */

typedef struct strata_dist_map strata_dist_map_t;

/** A contiguous map of num_global ids in blocks: rank r of p owns ids [o_r, o_{r+1}) with
 *  o_r = r·q + min(r, m), q = num_global / p, m = num_global mod p (the first m ranks one id
 *  more; ranks beyond num_global own none: more ranks than ids is valid). num_global must be the
 *  same on every rank. comm is duplicated (the map's messages never meet the caller's).
 *  Errors (agreed): INVALID_ARGUMENT (NULL map; num_global < 0 or different on some rank: both
 *  values named; a rank would own 2^31 ids or more). This rank only: INVALID_ARGUMENT
 *  (MPI_COMM_NULL, MPI not initialized). *map is NULL after an error. Collective.
 *  Source: Tpetra::Map(numGlobal, base, comm). */
strata_status_t strata_dist_map_create_block(MPI_Comm comm, int64_t num_global,
                                             strata_dist_map_t **map);

/** A contiguous map where each rank gives how many ids it owns (num_local >= 0, < 2^31): rank r
 *  owns [o_r, o_r + num_local_r), o_r = the sum over lower ranks (zero is valid). Errors as
 *  strata_dist_map_create_block (num_local negative or too large). Collective.
 *  Source: Tpetra::Map(numGlobal, numLocal, base, comm). */
strata_status_t strata_dist_map_create_contiguous(MPI_Comm comm, int64_t num_local,
                                                  strata_dist_map_t **map);

/** A map of arbitrary ids: this rank owns gids [num_local] (host; any order; ids need not be
 *  contiguous nor dense: ids near 2^62 are fine). Each id must be owned by exactly one rank
 *  (one-to-one). A distributed directory (Tpetra's Directory: the id space cut into p blocks,
 *  rank r keeps (owner, lid) of the ids in block r) is built here and answers
 *  strata_dist_map_owners; global-to-local lookup on this rank is a host hash table. When the
 *  lists happen to tile [0, num_global) in rank order with each rank's ids ascending and
 *  consecutive, the map is contiguous (strata_dist_map_info) and keeps no directory.
 *  Errors (agreed): INVALID_ARGUMENT (num_local negative or >= 2^31; NULL gids with
 *  num_local > 0; an id < 0 — a uint64 id beyond 2^63 arrives here negative —: its index and
 *  value named), INVALID_DATA (an id given twice, on one rank or on two: the id and both ranks
 *  named; EDGE_CASES D1), OUT_OF_MEMORY. This rank only: as strata_dist_map_create_block.
 *  Collective. Source: Tpetra::Map(numGlobal, gids, base, comm). */
strata_status_t strata_dist_map_create_list(MPI_Comm comm, int64_t num_local, const int64_t *gids,
                                            strata_dist_map_t **map);

/** Frees the map and its duplicated communicator (MPI_Comm_free: collective). Plans and
 *  matrices made with it (which borrow it) must be destroyed first. NULL-safe; sets *map NULL. */
strata_status_t strata_dist_map_destroy(strata_dist_map_t **map);

typedef struct strata_dist_map_info {
  MPI_Comm comm;        /**< the map's own (duplicated) communicator; do not free it */
  int rank, size;       /**< this rank in comm, and comm's size */
  int64_t num_global;   /**< ids over all ranks */
  int32_t num_local;    /**< ids this rank owns */
  int64_t max_gid;      /**< the largest id of any rank (-1: no ids) */
  int contiguous;       /**< 1: rank r owns [first_gid_r, first_gid_r + num_local_r), in rank order */
  int64_t first_gid;    /**< contiguous maps: this rank's first id (its offset); else -1 */
} strata_dist_map_info_t;

/** Sizes and kind of the map. Errors: INVALID_ARGUMENT (NULL). Local, synchronous. */
strata_status_t strata_dist_map_info(const strata_dist_map_t *map, strata_dist_map_info_t *info);

/** *lid = the local id of gid on this rank, or -1 when this rank does not own it (any gid, also
 *  negative ones). Contiguous maps: gid - first_gid; list maps: a hash lookup. Errors:
 *  INVALID_ARGUMENT (NULL). Local, synchronous. Source: Tpetra Map::getLocalElement. */
strata_status_t strata_dist_map_lid(const strata_dist_map_t *map, int64_t gid, int32_t *lid);

/** gids [num_local] (host) receives this rank's ids in local-id order. Errors: INVALID_ARGUMENT
 *  (NULL map; NULL gids with num_local > 0). Local, synchronous. */
strata_status_t strata_dist_map_gids(const strata_dist_map_t *map, int64_t *gids);

/** For each of gids [n] (host, any ids, repeats allowed), the rank that owns it in owners [n] and
 *  its local id there in lids [n] (host; lids may be NULL), -1 / -1 for an id nobody owns
 *  (negative ids included). Contiguous maps answer locally by binary search in the offsets of
 *  all ranks; list maps ask the directory (the distinct ids sent to their directory ranks, the
 *  answers sent back). n may differ between ranks (0 too). Errors (agreed): INVALID_ARGUMENT
 *  (n < 0; NULL gids or owners with n > 0), OUT_OF_MEMORY. Collective, also for contiguous
 *  maps (so that a caller need not know the kind). Source: Tpetra Map::getRemoteIndexList. */
strata_status_t strata_dist_map_owners(const strata_dist_map_t *map, int64_t n, const int64_t *gids,
                                       int *owners, int32_t *lids);

/* ------------------------------------------------------------------ import / export plans */

typedef struct strata_dist_plan strata_dist_plan_t;

/** Options of a plan (and of a distributed matrix's plan); all-zero = defaults. */
typedef struct strata_dist_plan_options {
  int staging; /**< 0: stage through host buffers on GPU execution spaces only (the default);
                    1: always (host backends too: it exercises the staged path in host tests) */
} strata_dist_plan_options_t;

/** A plan that imports the values of ghost_gids [num_ghosts] (host; any order; repeats allowed;
 *  ids this rank owns allowed: copied locally, no message) from their owners in `map`, and
 *  exports contributions back (the reverse). Built once (collective: the owners are found with
 *  strata_dist_map_owners, each owner told which of its local ids each requester needs, one
 *  MPI_Alltoall of counts then messages between neighbours only) and reused by every exchange:
 *  counts, offsets, buffers and MPI's persistent requests (MPI_Recv_init / MPI_Send_init) are
 *  made here. Messages go only to and from neighbours (ranks owning a ghost, ranks ghosting an
 *  owned id). Buffers (num_ghosts + the entries sent, doubles) live in exec memory, plus
 *  page-locked host mirrors when staged. Receive order: by owner rank ascending, the caller's
 *  order within an owner; when ghost_gids is already in that order no permutation is applied.
 *  opts may be NULL. Errors (agreed): INVALID_ARGUMENT (NULL exec, plan; num_ghosts < 0 or
 *  >= 2^31; NULL ghost_gids with num_ghosts > 0), INVALID_DATA (ghost ids nobody owns: how
 *  many, the first one and its index), OUT_OF_MEMORY. This rank only: NULL map. Collective.
 *  Source: Tpetra Distributor::createFromRecvs, Import(sourceMap, targetMap). */
strata_status_t strata_dist_plan_create(strata_exec_t *exec, const strata_dist_map_t *map,
                                        int64_t num_ghosts, const int64_t *ghost_gids,
                                        const strata_dist_plan_options_t *opts,
                                        strata_dist_plan_t **plan);

/** Starts an import of x_owned [map's num_local] (exec memory) into x_ghost [num_ghosts] (exec
 *  memory, the caller's order of ghost_gids; NULL: the values stay in the plan's buffer, in
 *  receive order, strata_dist_plan_ghost_buffer): receives are posted first, x_owned is packed
 *  into the send buffer by a kernel on exec (NULL: the plan's; else the same backend), the
 *  stream is synchronized (and, staged, the buffer copied to the host), then the sends start.
 *  Returns while messages are in flight: x_owned may change once this returns; x_ghost is
 *  written by strata_dist_plan_end. Errors of the arguments found on one rank (NULL x_owned
 *  with num_local > 0, exec of another backend) do not stop the exchange (that rank sends its
 *  stale buffer, so no neighbour waits forever): they are agreed, by an MPI_Iallreduce started
 *  here, and returned by strata_dist_plan_end on every rank. Errors returned here, this rank
 *  only, nothing started: INVALID_ARGUMENT (NULL plan; an exchange of this plan in flight:
 *  "exchange in flight", EDGE_CASES D10). Collective (neighbours). Source: Tpetra
 *  Distributor::doPosts; PETSc VecScatterBegin. */
strata_status_t strata_dist_plan_import_begin(strata_dist_plan_t *plan, strata_exec_t *exec,
                                              const double *x_owned, double *x_ghost);

/** Starts an export, the reverse of an import: y_ghost [num_ghosts] (exec memory, the caller's
 *  order; the plan's own ghost buffer is taken as it is, in receive order) is sent to the owners,
 *  and strata_dist_plan_end combines every received value into y_owned [num_local] (exec
 *  memory) by a kernel over the target local ids, each target's contributions in receive order
 *  (by sender rank, then the sender's order: deterministic, no atomics). mode:
 *  STRATA_COMBINE_ADD (y += v), REPLACE (y = the last v), ABSMAX (y = max(|y|, |v|), NaN kept),
 *  ZERO (nothing combined); INSERT is refused (a vector has no pattern to grow). As
 *  strata_dist_plan_import_begin otherwise: receives first, the stream synchronized before a
 *  send, argument errors (also an unknown mode, NULL y_owned with num_local > 0) agreed and
 *  returned by the end. Collective (neighbours). Source: Tpetra Export, doReverse, CombineMode. */
strata_status_t strata_dist_plan_export_begin(strata_dist_plan_t *plan, strata_exec_t *exec,
                                              const double *y_ghost, strata_combine_mode_t mode,
                                              double *y_owned);

/** Completes the exchange begun on this plan (import or export): waits for its messages
 *  (MPI_Waitall; staged: copies them into exec memory), writes the import's x_ghost or combines
 *  the export into y_owned, on the exec given at begin (asynchronous on the plan's own exec: fence
 *  before the host reads the result; an exec given at begin other than the plan's is fenced
 *  before this returns and not kept, so it may be destroyed afterwards), and completes the
 *  agreement. Errors (agreed): those deferred by
 *  begin (nothing is written then). This rank only: INVALID_ARGUMENT (NULL plan; no exchange in
 *  flight); a fault of the asynchronous unpack surfaces at a later fence of that rank's exec.
 *  Collective (neighbours, and the agreement). Source: Tpetra Distributor::doWaits; PETSc
 *  VecScatterEnd. */
strata_status_t strata_dist_plan_end(strata_dist_plan_t *plan);

typedef struct strata_dist_plan_info {
  int64_t num_ghosts;        /**< slots of the ghost vector */
  int64_t num_owned;         /**< the map's num_local on this rank */
  int64_t num_sends;         /**< values this rank sends per import (to itself included) */
  int num_recv_neighbors;    /**< ranks this rank receives from in an import (itself excluded) */
  int num_send_neighbors;    /**< ranks this rank sends to in an import (itself excluded) */
  int64_t recv_bytes;        /**< bytes received per import over MPI (itself excluded) */
  int64_t send_bytes;        /**< bytes sent per import over MPI (itself excluded) */
  int staged;                /**< 1: messages go through page-locked host buffers */
  int cuda_aware;            /**< 1: MPIX_Query_cuda_support says the MPI library takes device
                                  buffers (not used yet: GPU plans stage) */
  int identity_order;        /**< 1: ghost_gids was in receive order (no permutation) */
} strata_dist_plan_info_t;

/** What the plan moves. Errors: INVALID_ARGUMENT (NULL). Local, synchronous. */
strata_status_t strata_dist_plan_info(const strata_dist_plan_t *plan, strata_dist_plan_info_t *info);

/** The plan's ghost buffer [num_ghosts] (exec memory), in receive order: valid after
 *  an import's strata_dist_plan_end until the next begin. Errors: INVALID_ARGUMENT (NULL). Local. */
strata_status_t strata_dist_plan_ghost_buffer(const strata_dist_plan_t *plan, const double **buffer);

/** Frees the plan (its persistent requests and communicator: collective). An exchange still in
 *  flight is completed first (its results discarded). NULL-safe; sets *plan to NULL. */
strata_status_t strata_dist_plan_destroy(strata_dist_plan_t **plan);

/* ------------------------------------------------------------------ distributed CrsMatrix */

typedef struct strata_dist_crs strata_dist_crs_t;

#define STRATA_DIST_MAX_EXAMPLES 8

/** What strata_dist_crs_create_from_entries did, the same on every rank (sums over all ranks). */
typedef struct strata_dist_build_report {
  int64_t entries_given;     /**< entries passed in, over all ranks */
  int64_t entries_exported;  /**< valid entries given on a rank other than their row's owner */
  int64_t entries_stored;    /**< stored entries of all blocks (after duplicates are summed) */
  int64_t duplicates_summed; /**< valid entries merged into another one: valid - stored */
  int64_t invalid_rows;      /**< entries whose global row no rank owns in the row map */
  int64_t invalid_cols;      /**< entries with a valid row whose global column no rank owns in
                                  the domain map */
  int num_examples;          /**< examples[] filled: the first invalid entries of the lowest
                                  rank that had any, in its input order */
  struct {
    int64_t row, col;        /**< the entry's global row and column */
    int rank;                /**< the rank that gave it */
    int64_t index;           /**< its index in that rank's input arrays */
  } examples[STRATA_DIST_MAX_EXAMPLES];
} strata_dist_build_report_t;

/** Options of a distributed matrix; all-zero (or NULL) = defaults. */
typedef struct strata_dist_crs_options {
  const strata_spmv_options_t *spmv; /**< the row-class plans of both blocks (NULL: defaults) */
  strata_dist_plan_options_t plan;   /**< its import plan (staging) */
} strata_dist_crs_options_t;

/** Builds a distributed CrsMatrix from global entries (rows[k], cols[k], vals[k]), k < n (host
 *  arrays; vals NULL = all zeros; n may differ between ranks, 0 too) given on any rank: each entry is sent to the owner of its row
 *  in row_map (MPI messages to the ranks that need them, after an MPI_Alltoall of counts) and
 *  entries for the same (row, column) are summed, in the order of the sending ranks and then of
 *  their input (deterministic: strata_crs_create_from_coo on exec). Columns are those of
 *  domain_map (the distribution of x; NULL = row_map, a square matrix): the owned ones form the
 *  diagonal block (num_local(row_map) x num_local(domain_map), the domain map's local ids), the
 *  others the off-diagonal block (num_local(row_map) x num_ghosts), whose columns are the ghost
 *  ids sorted by owner rank then id (receive order of the import plan built here: no
 *  permutation). Both blocks are fill-complete CrsMatrices on exec with row-class SpMV plans.
 *  row_map and domain_map are borrowed: they must outlive A.
 *  Nothing is dropped silently: an entry whose row no rank owns, or whose column no rank owns,
 *  is counted (report->invalid_rows / invalid_cols, summed over ranks, the first examples named)
 *  and the call fails with STRATA_ERR_INVALID_DATA on every rank, building nothing. report may
 *  be NULL; filled (and identical on every rank) whenever the input passed the argument checks.
 *  Errors (agreed): INVALID_ARGUMENT (NULL exec or A; n < 0; NULL rows or cols with n > 0;
 *  maps of different communicators), INVALID_DATA (above), OUT_OF_MEMORY, those of
 *  strata_crs_create_from_coo and strata_spmv_plan_create. This rank only: NULL row_map.
 *  *A is NULL after an error. Collective. Synchronous. Source: PETSc MatCreateAIJ +
 *  MatSetValues + MatAssemblyBegin/End (off-process entries stashed and sent to their owner),
 *  Tpetra FECrsMatrix / Export with ADD, hypre IJ assembly. */
strata_status_t strata_dist_crs_create_from_entries(strata_exec_t *exec,
                                                    const strata_dist_map_t *row_map,
                                                    const strata_dist_map_t *domain_map, int64_t n,
                                                    const int64_t *rows, const int64_t *cols,
                                                    const double *vals,
                                                    const strata_dist_crs_options_t *opts,
                                                    strata_dist_build_report_t *report,
                                                    strata_dist_crs_t **A);

/** Frees the matrix, its blocks, plans and communication thread. NULL-safe; sets *A to NULL.
 *  Collective (its plan frees a communicator). */
strata_status_t strata_dist_crs_destroy(strata_dist_crs_t **A);

typedef struct strata_dist_crs_info {
  int64_t num_global_rows, num_global_cols;  /**< the maps' num_global */
  int32_t num_local_rows;                    /**< this rank's rows (row map) */
  int32_t num_local_cols;                    /**< this rank's owned columns (domain map) */
  int32_t num_ghosts;                        /**< the off-diagonal block's columns */
  int64_t nnz_local;                         /**< stored entries of both blocks on this rank */
  int64_t nnz_global;                        /**< over all ranks */
  const strata_crs_matrix_t *diag;           /**< num_local_rows x num_local_cols, exec memory */
  const strata_crs_matrix_t *offdiag;        /**< num_local_rows x num_ghosts, exec memory */
  const int64_t *ghost_gids;                 /**< [num_ghosts] host: the global column of each
                                                  off-diagonal column, sorted by (owner, id) */
  const int *ghost_owners;                   /**< [num_ghosts] host: their owner ranks */
  const strata_dist_map_t *row_map, *domain_map;
  const strata_dist_plan_t *plan;            /**< the import plan of x's ghosts */
  strata_exec_t *exec;                       /**< the blocks' execution space */
} strata_dist_crs_info_t;

/** The matrix's sizes, blocks and plan (pointers valid while A lives). Errors: INVALID_ARGUMENT
 *  (NULL). Local, synchronous. */
strata_status_t strata_dist_crs_info(const strata_dist_crs_t *A, strata_dist_crs_info_t *info);

/** The three SpMV modes (Kreutzer et al.; DESIGN §10). All give the same y, bit for bit. */
typedef enum strata_dist_mode {
  STRATA_DIST_VECTOR = 0,  /**< exchange x's ghosts (begin + end), then the diagonal and the
                                off-diagonal block */
  STRATA_DIST_OVERLAP = 1, /**< begin the exchange, diagonal block, end, off-diagonal block
                                ("naive overlap": MPI progresses only inside MPI calls) */
  STRATA_DIST_TASK = 2     /**< a communication thread of the matrix (created on first use,
                                joined at destroy) starts the sends and waits for the messages
                                while the calling thread runs the diagonal block; needs
                                MPI_THREAD_SERIALIZED or more (the two threads never call MPI
                                at the same time) */
} strata_dist_mode_t;

/** "vector", "overlap", "task" (NULL for other values). */
const char *strata_dist_mode_name(strata_dist_mode_t mode);
/** Parses "vector", "overlap" or "task". Errors: INVALID_ARGUMENT naming the text and the
 *  accepted names. Local. */
strata_status_t strata_dist_mode_from_name(const char *name, strata_dist_mode_t *mode);

/** y = alpha·A·x + beta·y on every rank's rows (DESIGN §4 semantics: beta == 0 does not read y;
 *  alpha == 0 reads neither A nor x — the ghost exchange still runs, with stale buffers, so that
 *  ranks never wait on each other: alpha, beta and mode need not agree across ranks, though y
 *  is only meaningful if they do). x [num_local_cols] and y [num_local_rows] in exec memory
 *  (exec NULL: the matrix's; else the same backend), not overlapping. The order of work per mode
 *  is in strata_dist_mode_t; y = alpha·D·x + beta·y, then y += alpha·O·x_ghost, each by its
 *  block's row-class plan (so every mode gives the same bits). Applies of one matrix must not
 *  overlap (its plan's buffers and the blocks' plans are reused). Returns when the exchange is
 *  complete and the products are queued (asynchronous on the matrix's exec afterwards; an exec
 *  other than the matrix's is fenced before return and not kept, so it may be destroyed then).
 *  Errors (agreed by an MPI_Iallreduce started at the beginning, completed at the end, so its
 *  latency overlaps the exchange): INVALID_ARGUMENT (NULL x or y with a nonzero extent, exec of
 *  another backend, unknown mode, x and y overlapping), UNSUPPORTED (task mode when MPI granted
 *  less than MPI_THREAD_SERIALIZED: the level granted and the level needed named —
 *  EDGE_CASES D13). This rank only: INVALID_ARGUMENT (NULL A; an apply of A still in flight on
 *  another thread), the errors of strata_spmv_plan_apply (the products are asynchronous: their
 *  faults surface at a fence of that rank's exec). Collective.
 *  Source: PETSc MatMult_MPIAIJ (VecScatterBegin, diagonal, VecScatterEnd, off-diagonal). */
strata_status_t strata_dist_crs_spmv(strata_exec_t *exec, strata_dist_mode_t mode, double alpha,
                                     const strata_dist_crs_t *A, const double *x, double beta,
                                     double *y);

/* ------------------------------------------------------------------ distributed vectors */

/** *result = x·y over all ranks; x, y [map's num_local] (exec memory). Each rank's partial sum
 *  (strata_vec_dot, deterministic per backend) is gathered to every rank (MPI_Allgather) and the
 *  partials are added in rank order there: every rank gets the same bits, every run
 *  (EDGE_CASES D16: an MPI_Allreduce of doubles need not give all ranks the same bits).
 *  Errors (agreed in the same gather): INVALID_ARGUMENT (NULL exec or result; NULL x or y with
 *  num_local > 0). This rank only: NULL map. Collective. Synchronous. */
strata_status_t strata_dist_vec_dot(strata_exec_t *exec, const strata_dist_map_t *map,
                                    const double *x, const double *y, double *result);

/** *result = ||x||_2 over all ranks, x [num_local] (exec memory): each rank's scaled norm
 *  (strata_vec_nrm2: no overflow or underflow where the norm is representable) gathered as for
 *  strata_dist_vec_dot, combined in rank order as m·sqrt(Σ (n_r / m)^2) with m = max n_r.
 *  NaN anywhere gives NaN, an infinity +inf. Errors as strata_dist_vec_dot. Collective. */
strata_status_t strata_dist_vec_nrm2(strata_exec_t *exec, const strata_dist_map_t *map,
                                     const double *x, double *result);

/* ================================================================== partitioning, row packets
 * (issue 29 items 4 and 5: dist/src/partition.c, dist/src/packets.c) */

/** Agrees on a status over comm (strata's rule, above): every rank returns the most negative st
 *  given (for equal ones the lowest rank's) and, when it is an error, that rank's message as
 *  "rank R: ..." — for applications that detect errors between the collective calls.
 *  Errors: INVALID_ARGUMENT (MPI_COMM_NULL, MPI not initialized; this rank only). Collective. */
strata_status_t strata_dist_agree(MPI_Comm comm, strata_status_t st);

/** How strata_dist_partition_crs splits the rows. */
typedef enum strata_dist_partitioner {
  STRATA_DIST_PARTITION_BLOCK = 0, /**< contiguous blocks of rows in their given order, as
                                        strata_dist_map_create_block (no renumbering); the default */
  STRATA_DIST_PARTITION_METIS = 1, /**< METIS_PartGraphKway on A + Aᵀ without the diagonal
                                        (strata_partition_rows); UNSUPPORTED in a build without METIS */
  STRATA_DIST_PARTITION_AUTO = 2   /**< METIS where strata was built with it, else BLOCK */
} strata_dist_partitioner_t;

/** The partitioner AUTO stands for in this build: METIS where strata was built with it, else
 *  BLOCK; BLOCK and METIS are returned as they are (what a report should name as used). */
strata_dist_partitioner_t strata_dist_partitioner_resolve(strata_dist_partitioner_t method);
/** "block", "metis", "auto" (NULL for other values). */
const char *strata_dist_partitioner_name(strata_dist_partitioner_t method);
/** Parses "block", "metis" or "auto". Errors: INVALID_ARGUMENT naming the text and the accepted
 *  names. Local. */
strata_status_t strata_dist_partitioner_from_name(const char *name, strata_dist_partitioner_t *method);

/** Renumbers num_rows rows (ids 0..num_rows-1, the same num_rows on every rank) by a part per row
 *  so that each rank's rows are contiguous: part [num_rows] (host, on rank `root` only; other
 *  ranks may pass NULL; values in [0, comm size)) is broadcast from root, row i gets the new id
 *  new_ids[i] = (rows of lower parts) + (rows of its own part before it): parts in rank order,
 *  the given order kept within a part (a stable counting sort). new_ids [num_rows] (host) is
 *  written on every rank; *map (may be NULL: not made) receives the contiguous map of the new
 *  ids (rank r owns the rows of part r: zero rows is valid). The inverse is old = the i with
 *  new_ids[i] = new. Errors (agreed): INVALID_ARGUMENT (num_rows < 0 or different on some rank,
 *  both values named; root outside the ranks; NULL new_ids with num_rows > 0; NULL part on root
 *  with num_rows > 0), INVALID_DATA (a part outside [0, size): how many, the first row and its
 *  value), OUT_OF_MEMORY, those of strata_dist_map_create_contiguous. This rank only:
 *  INVALID_ARGUMENT (MPI_COMM_NULL, MPI not initialized). Collective. Synchronous.
 *  Source: PETSc MatPartitioningApply + ISPartitioningToNumbering. */
strata_status_t strata_dist_partition_renumber(MPI_Comm comm, int root, int64_t num_rows, const int32_t *part,
                                               int64_t *new_ids, strata_dist_map_t **map);

/** Partitions the rows of the square matrix A, given on rank `root` only (exec memory of A's
 *  backend; other ranks pass NULL), into comm-size parts by `method` on root, then renumbers
 *  them by strata_dist_partition_renumber: *num_rows (every rank) = A's rows, *new_ids (every
 *  rank; host, malloc: free with free(); NULL when there are no rows) the new id of each row,
 *  *map the contiguous map of the new ids. BLOCK gives new_ids[i] = i and the block map's
 *  ranges. METIS: the graph of A + Aᵀ with the diagonal dropped, duplicates merged
 *  (strata_partition_rows, a fixed seed: deterministic); a part METIS leaves empty is a rank
 *  owning no rows. Errors (agreed, the same status on every rank): INVALID_ARGUMENT (NULL A on
 *  root, A not square, NULL outputs, root outside the ranks; a partition count (the comm size)
 *  < 1 or above the rows (METIS; BLOCK too, for the same rule: more ranks than rows need
 *  strata_dist_map_create_block directly): the count and the limit named), UNSUPPORTED (METIS
 *  in a build without it), those of strata_partition_rows and of the renumbering. Outputs are
 *  NULL / 0 after an error. Collective. Synchronous. */
strata_status_t strata_dist_partition_crs(MPI_Comm comm, int root, strata_exec_t *exec, const strata_crs_matrix_t *A,
                                          strata_dist_partitioner_t method, int64_t *num_rows, int64_t **new_ids,
                                          strata_dist_map_t **map);

/** What a packet exchange moved on this rank (strata_dist_packets_exchange, strata_dist_export_rows). */
typedef struct strata_dist_packets_info {
  int64_t packets_sent, packets_received;   /**< over MPI (to and from other ranks) */
  int64_t bytes_sent, bytes_received;       /**< payload bytes over MPI: packet data, their
                                                 lengths and target ids (8 + 8 bytes a packet) */
  int64_t packets_self;                     /**< packets this rank kept (copied locally; under strata_dist_export_rows combined from their own packets, no copy) */
  int num_send_neighbors, num_recv_neighbors;
  int staged;                               /**< 1: through page-locked host buffers */
} strata_dist_packets_info_t;

/** Options of the packet exchange; all-zero (or NULL) = defaults. */
typedef struct strata_dist_packets_options {
  int staging; /**< as strata_dist_plan_options_t.staging: 0 stage on GPU execution spaces only,
                    1 always (host tests of the staged path) */
} strata_dist_packets_options_t;

/** A variable-size exchange of packed rows (strata_packets_t) between ranks of comm: packets
 *  send->offsets segment k (k < send->num_rows, exec memory) goes to a rank, the packets grouped by
 *  destination rank ascending, send_counts[r] (host [comm size]) of them to rank r (itself
 *  included: copied locally), each with a target id send_ids[k] (host; any int64, carried as
 *  is). The counts (packets and bytes per rank) go first (one MPI_Alltoall), then the payload
 *  between neighbours only (ranks with a nonzero count), receives posted before sends; the data
 *  stays in exec memory, staged through page-locked host buffers on GPU execution spaces (or when
 *  opts->staging), the stream synchronized before MPI reads a device buffer. *recv (new
 *  strata_packets_t on exec, destroy with strata_packets_destroy) holds the packets received
 *  from every rank, in sender rank order and each sender's order, *recv_ids (host, malloc: free
 *  with free(); NULL when none) their target ids. send may be NULL with no packets. info may be
 *  NULL. Errors (agreed): INVALID_ARGUMENT (NULL exec, recv or recv_ids; send_counts negative or
 *  not summing to send->num_rows; NULL send_counts or send_ids with packets; a message of 2^31
 *  bytes or more: the bytes and the limit named), OUT_OF_MEMORY. This rank only:
 *  INVALID_ARGUMENT (MPI_COMM_NULL, MPI not initialized). Outputs NULL after an error.
 *  Collective. Synchronous. Source: Tpetra Distributor::doPosts with variable-size packets
 *  (numPacketsPerLID: sizes first, then the data). */
strata_status_t strata_dist_packets_exchange(MPI_Comm comm, strata_exec_t *exec, const strata_packets_t *send,
                                             const int64_t *send_counts, const int64_t *send_ids,
                                             const strata_dist_packets_options_t *opts, strata_packets_t **recv,
                                             int64_t **recv_ids, strata_dist_packets_info_t *info);

/** What strata_dist_export_rows did: counts summed over ranks (the same on every rank), times and
 *  traffic of this rank. */
typedef struct strata_dist_export_report {
  int64_t rows_given;        /**< rows passed in, over all ranks */
  int64_t rows_unowned;      /**< rows whose global id no rank owns in the map: not sent, their
                                  entries counted in invalid_entries (EDGE_CASES D7) */
  int64_t invalid_entries;   /**< entries not combined: the unowned rows' entries, plus the
                                  owners' unpack_combine counts (columns outside a row's pattern,
                                  unknown column ids, malformed packets) */
  int64_t entries_combined;  /**< over all ranks (strata_unpack_report_t.entries_combined) */
  int64_t first_unowned;     /**< the first unowned row's global id on the lowest rank with one, or -1 */
  strata_dist_packets_info_t exchange; /**< this rank's traffic */
  double pack_s, exchange_s, unpack_s; /**< this rank's phase times (seconds; pack and unpack
                                            fenced; exchange includes the owner lookup) */
} strata_dist_export_report_t;

/** Exports rows of a locally assembled matrix L to their owners and combines them there (Tpetra
 *  doExport → unpackAndCombine; PETSc MatAssemblyBegin/End of off-process rows): row rows[k]
 *  (host, local rows of L, k < num_rows; repeats allowed) has the global id row_gids[k] (host) in
 *  row_map, and L's columns the global ids col_gids [L->num_cols] (exec memory; NULL = identity).
 *  Each rank finds the owners (strata_dist_map_owners), packs the rows others own grouped by owner
 *  and the rows it owns apart (strata_sparse_pack: two packs per call), exchanges the former
 *  (strata_dist_packets_exchange), and combines into A first its own rows' packets (no copy, no
 *  message), then what it received, in sender rank order (a fixed order of the sums) — its owned
 *  rows, A->num_rows = the map's num_local on this rank, local row = the row's local id, global
 *  columns mapped by col_lids [num_global] (exec memory; NULL = identity: A's columns are global
 *  ids) — by strata_sparse_unpack_combine(mode) (ADD for an assembly; INSERT grows A's pattern).
 *  Nothing is dropped silently: rows no rank owns and entries the owner cannot combine are
 *  counted over all ranks in *report (may be NULL) and the call returns INVALID_DATA on every
 *  rank (the first unowned row named), the valid entries combined all the same. Errors (agreed):
 *  INVALID_ARGUMENT (NULL exec, L or A with rows; num_rows < 0; NULL rows or row_gids with
 *  num_rows > 0; a row outside [0, L->num_rows); A's rows not the map's num_local), INVALID_DATA
 *  (above), those of pack, the exchange and unpack_combine. This rank only: NULL row_map.
 *  Collective. Synchronous (A complete on return). */
strata_status_t strata_dist_export_rows(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                        const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                        const int64_t *row_gids, const int64_t *col_gids, strata_crs_matrix_t *A,
                                        const int32_t *col_lids, int64_t num_global, strata_combine_mode_t mode,
                                        const strata_dist_packets_options_t *opts,
                                        strata_dist_export_report_t *report);

/** A row export made once and applied many times: the rows of L given to
 *  strata_dist_export_rows (the same arguments: rows [num_rows] with repeats allowed, row_gids,
 *  col_gids, col_lids, num_global, opts) are routed, packed and exchanged once, each owner finds
 *  the position in A (fill-complete, its pattern final: e.g. after an INSERT export) of every
 *  entry it receives or keeps (strata_sparse_unpack_positions) and sends the positions back. The
 *  entries of rows owned elsewhere become the ghosts of a plan (strata_dist_plan_create) over the
 *  owners' value slots (rank r owns A's nnz slots on r); those of the own rows are grouped by slot.
 *  Each apply then moves values only (8 bytes an entry to other ranks; nothing is copied for the
 *  own rows) and combines into each value slot of A, in a fixed order, first what other ranks sent
 *  (the plan's export: by sender rank, then their listed order), then the own entries in listed
 *  order (a kernel over the slots; no atomics: the same bits on every run and backend thread
 *  count). Nothing is dropped silently:
 *  rows no rank owns and entries outside the owner's pattern are counted over all ranks in
 *  *report (may be NULL) and the call returns INVALID_DATA on every rank, *out NULL (a row export
 *  exists only for fully valid input); report.entries_combined = the listed entries over all ranks.
 *  Errors (agreed): INVALID_ARGUMENT (NULL out; those of strata_dist_export_rows; more than 2^31 - 1
 *  listed entries, entries of L or of A on a rank, or entries between two ranks), INVALID_DATA
 *  (above; also rows no rank owns that hold no entries), OUT_OF_MEMORY,
 *  those of the plan. This rank only: NULL row_map. Collective. Synchronous. A, L and the maps
 *  are not kept: A's pattern (its nnz and order) and L's must not change while X is applied.
 *  Source: Tpetra FECrsMatrix (endAssembly's Export reused, ADD) and CrsMatrix's cached local
 *  offsets; PETSc MatSetOption(MAT_SUBSET_OFF_PROC_ENTRIES) reusing an assembly's communication. */
typedef struct strata_dist_row_export strata_dist_row_export_t;
strata_status_t strata_dist_row_export_create(strata_exec_t *exec, const strata_dist_map_t *row_map,
                                              const strata_crs_matrix_t *L, int64_t num_rows, const int32_t *rows,
                                              const int64_t *row_gids, const int64_t *col_gids,
                                              const strata_crs_matrix_t *A, const int32_t *col_lids, int64_t num_global,
                                              const strata_dist_packets_options_t *opts, strata_dist_row_export_t **out,
                                              strata_dist_export_report_t *report);

/** Combines L_values [L's nnz] (exec memory, L's entry order; the rows listed at create) into
 *  A_values [A's nnz at create] (exec memory) on the owners by `mode`: ADD (an assembly), REPLACE,
 *  ABSMAX or ZERO (strata_dist_plan_export_begin's modes; INSERT refused: the pattern is fixed).
 *  exec NULL: create's (else one of its backend). report (may be NULL): entries_combined,
 *  rows_given, the bytes moved (exchange: bytes_sent / received, neighbours, staged; packets_sent /
 *  received / self: create's rows whose values move to, from other ranks or stay, though only
 *  values move; 0 after an error), pack_s (the gather and the sends started), exchange_s (the wait for the
 *  messages), unpack_s (the combine); entries_combined 0 for ZERO. Errors (agreed by one MPI_Allreduce of the status
 *  before anything moves): INVALID_ARGUMENT (NULL L_values with entries, NULL A_values with
 *  slots, an unknown mode or INSERT, exec of another backend); nothing is combined then. This
 *  rank only: NULL X. Collective. Synchronous (A_values complete on return). */
strata_status_t strata_dist_row_export_apply(strata_dist_row_export_t *X, strata_exec_t *exec, const double *L_values,
                                             strata_combine_mode_t mode, double *A_values,
                                             strata_dist_export_report_t *report);

/** Frees X (its plan and slot map: collective). NULL-safe; sets *X to NULL. */
strata_status_t strata_dist_row_export_destroy(strata_dist_row_export_t **X);

/* ================================================================== end of partitioning, row packets */

/* ================================================================== distributed solvers
 * (DESIGN §9-10). The Krylov methods of <strata/krylov.h> run unchanged over a distributed
 * operator: its strata_operator_comm_t hook sums every local reduction over the ranks (each
 * rank's parts gathered to every rank and added in rank order: the same bits on every rank,
 * EDGE_CASES D16), so every rank sees the same scalars, takes the same decisions and returns the
 * same status and iteration count. Each rank passes its owned rows of b and x (exec memory, the
 * row map's local order). With one rank the results are those of the single-process solve of
 * the diagonal block, bit for bit. Preconditioners across ranks: Jacobi, l1-Jacobi, block-Jacobi
 * (an inner Schwarz of <strata/schwarz.h> on each rank's diagonal block) and two-level RAS.
 * Sources: PETSc KSP over MPIAIJ (VecDot's MPI_Allreduce, PCBJACOBI, PCASM with
 * -pc_asm_overlap and an inner KSP/PC per subdomain); Cai & Sarkis 1999 (restricted additive
 * Schwarz); the Krylov/AMG seed's "outer RAS / inner RAS". */

#include "strata/krylov.h"
#include "strata/schwarz.h"

/** An operator (<strata/operator.h>) for the distributed matrix A: apply = strata_dist_crs_spmv
 *  in `mode`; sizes = this rank's rows x its owned columns (the row and domain maps' num_local);
 *  its strata_operator_comm_t reduces over the row map's communicator (MPI_Allgather of each
 *  rank's values, combined in rank order; MAX keeps NaN) and agrees statuses as every dist call
 *  does. A is borrowed (it must outlive the operator). exec NULL: A's (else one of A's backend).
 *  Errors (agreed): INVALID_ARGUMENT (NULL op; exec of another backend; unknown mode; A not
 *  square over all ranks: both global sizes named), UNSUPPORTED (task mode when MPI granted less
 *  than MPI_THREAD_SERIALIZED, both levels named). This rank only: INVALID_ARGUMENT (NULL A).
 *  *op is NULL after an error. Collective. Synchronous. Source: PETSc MatCreateShell over a
 *  communicator, Ginkgo's distributed LinOp. */
strata_status_t strata_dist_operator_create(strata_exec_t *exec, const strata_dist_crs_t *A,
                                            strata_dist_mode_t mode, strata_operator_t **op);

/** Preconditioners over ranks. */
typedef enum strata_dist_precond_kind {
  STRATA_DIST_PRECOND_JACOBI = 0,    /**< z_i = r_i / a_ii on the owned rows */
  STRATA_DIST_PRECOND_L1_JACOBI = 1, /**< d_i = a_ii + sign(a_ii)·Σ_{j≠i} |a_ij| over the row's
                                          diagonal-block and off-diagonal-block entries (the
                                          ghost columns count as off-block: Baker, Falgout,
                                          Kolev, Yang 2011) */
  STRATA_DIST_PRECOND_BLOCK = 2,     /**< block-Jacobi over ranks: opts.inner (Schwarz with its own
                                          partitions, overlap and ILU(k)) on the rank's diagonal
                                          block, the ghost columns ignored */
  STRATA_DIST_PRECOND_RAS = 3        /**< two-level RAS: the rank's rows extended by
                                          opts.outer_overlap layers of rows owned by other ranks
                                          (layer k+1: the rows of the columns of layer k not taken
                                          yet, imported from their owners), columns outside the
                                          extended set dropped; the extended local matrix solved
                                          approximately by opts.inner; only the owned rows of the
                                          result kept (restricted prolongation). Outer overlap 0
                                          is STRATA_DIST_PRECOND_BLOCK */
} strata_dist_precond_kind_t;

typedef struct strata_dist_precond_options {
  strata_dist_precond_kind_t kind; /**< default JACOBI */
  int outer_overlap;               /**< RAS: layers >= 0 (the same on every rank); default 1;
                                        layers stop where none adds a row on any rank */
  strata_schwarz_options_t inner;  /**< BLOCK and RAS: the inner Schwarz of each rank
                                        (strata_schwarz_options_default: one partition, overlap 0,
                                        ILU(0)); inner.num_parts at most the rows of each
                                        rank's (extended) block (more: INVALID_ARGUMENT on every
                                        rank, naming the rank and its rows; a rank without rows
                                        has one empty partition); inner.parts must be NULL */
} strata_dist_precond_options_t;

/** The defaults above. */
void strata_dist_precond_options_default(strata_dist_precond_options_t *opts);

/** Options from a preconditioner's name as strata_precond_create_from_name takes it, for the
 *  names that run across ranks: "none" (*none = 1, opts at the defaults), "jacobi", "l1-jacobi",
 *  "bjacobi:P[:K]" (BLOCK, inner P partitions, ILU(K)), "ras:P:OVERLAP[:K]" (RAS, inner P
 *  partitions with OVERLAP, ILU(K); outer_overlap left at its default 1: the caller sets it).
 *  The values are not checked here (strata_dist_precond_create does). Errors: INVALID_ARGUMENT
 *  (NULL argument; any other name — ilu0, iluk:K, amg[:...] —: the name and the accepted ones
 *  named). Local, synchronous. */
strata_status_t strata_dist_precond_options_from_name(const char *name, strata_dist_precond_options_t *opts,
                                                      int *none);

/** A preconditioner for Krylov solves with strata_dist_operator_create(A), set up here for this
 *  rank's rows (P applies to vectors of num_local_rows, exec memory). JACOBI and L1_JACOBI are
 *  the solvers' Jacobi (strata_precond_setup_jacobi_rows on the diagonal block, or on the rank's
 *  rows with the ghost columns appended); BLOCK the solvers' Schwarz set up on the diagonal
 *  block; RAS a preconditioner whose setup imports the overlap rows of A (two messages per layer
 *  between neighbours: the ids asked for, the rows sent back) and builds the extended matrix on
 *  the host (then copied to exec), makes an import plan for the residual's overlap values and
 *  sets up the inner Schwarz on the extended matrix; its apply imports r's overlap values
 *  (collective: every rank must apply it, in the same order), solves, and keeps the owned rows.
 *  A must be square with its domain map equal to its row map (the same map, or built with
 *  domain map NULL). P is not set up again by strata_precond_setup: after A's values change,
 *  destroy it and create it again. P borrows A (it must outlive P); destroy P on every rank
 *  (collective for RAS: its plan). opts NULL: the defaults.
 *  Errors (agreed): INVALID_ARGUMENT (NULL P; an unknown kind; outer_overlap < 0 or different
 *  between ranks; inner.parts given; a domain map other than the row map; the errors of
 *  strata_precond_create_schwarz for inner), INVALID_DATA (a zero, missing or non-finite
 *  diagonal, or an inner factorization's pivot: the rank and its local row named; a non-finite
 *  value of A in BLOCK and RAS), OUT_OF_MEMORY, those of the
 *  plans. This rank only: INVALID_ARGUMENT (NULL A). *P is NULL after an error. Collective.
 *  Synchronous. */
strata_status_t strata_dist_precond_create(strata_exec_t *exec, const strata_dist_crs_t *A,
                                           const strata_dist_precond_options_t *opts,
                                           strata_precond_t **P);

/* ================================================================== end of distributed solvers */

#ifdef __cplusplus
}
#endif
#endif
