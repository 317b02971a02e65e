/* strata — the sparse module: CrsMatrix, SpMV, pack / unpack-and-combine (DESIGN §4).
 *
 * Index types: local row and column indices are int32_t; offsets into the entries are int64_t
 * (nnz beyond 2^31 works). Values are double. All arrays named "exec memory" live in the memory
 * of the execution space passed to the call (GPU memory on GPU backends, host memory on host
 * backends). Zero rows, zero columns and nnz = 0 are valid everywhere.
 *
 * The exec argument of spmv, pack and unpack_combine may be NULL (the matrix's own execution
 * space) or another execution space of the same backend (e.g. another stream); an execution space
 * of another backend is refused with STRATA_ERR_INVALID_ARGUMENT (copy the matrix first).
 * Kernels: sparse/kernels/NAME.kl.c, written once for every backend.
 */
#ifndef STRATA_SPARSE_H
#define STRATA_SPARSE_H

#include "strata/strata.h"
#include "strata/mmio.h" /* Matrix Market I/O */

#ifdef __cplusplus
extern "C" {
#endif

/** A compressed-sparse-row matrix (Kokkos Kernels CrsMatrix / Tpetra local matrix layout).
 *  row_offsets [num_rows + 1], col_indices [nnz], values [nnz], all exec memory owned by the
 *  matrix. fill_complete = 1: every row's columns are sorted ascending and unique. */
typedef struct strata_crs_matrix {
  strata_exec_t *exec;
  int32_t num_rows;
  int32_t num_cols;
  int64_t nnz;
  int64_t *row_offsets;
  int32_t *col_indices;
  double *values;
  int fill_complete;
} strata_crs_matrix_t;

/** Builds a fill-complete CrsMatrix from coordinate (COO) entries in any order, duplicates summed
 *  in their input order (deterministic), entirely on the device: keys row*num_cols+col, device
 *  sort by key, run-length merge, row offsets by binary search.
 *  rows, cols [nnz_in] (int32, exec memory); vals [nnz_in] (exec memory) or NULL for a pattern
 *  whose values are all zero. Errors: INVALID_ARGUMENT (negative sizes; NULL arrays with
 *  nnz_in > 0); INVALID_DATA (an entry outside num_rows × num_cols: the message gives how many
 *  and the first one, with the limits). Synchronous. */
strata_status_t strata_crs_create_from_coo(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                           int64_t nnz_in, const int32_t *rows, const int32_t *cols,
                                           const double *vals, strata_crs_matrix_t **A);

/** Flags of strata_crs_create_from_csr. */
typedef enum strata_crs_flags {
  STRATA_CRS_COPY = 0,  /**< the matrix gets its own copies of the arrays (the default) */
  STRATA_CRS_ADOPT = 1  /**< the matrix takes ownership of the arrays, without a copy: each must
                             come from strata_mem_alloc(exec, STRATA_MEM_DEVICE, ...) (or be NULL)
                             and is freed by strata_crs_destroy (or replaced by
                             strata_crs_fill_complete). Ownership passes only on success: after
                             an error the caller still owns and frees them. */
} strata_crs_flags_t;

/** Builds a CrsMatrix from compressed-sparse-row arrays, validated on the device with reduce
 *  kernels (Kokkos Kernels CrsMatrix from raw arrays, which does not validate; Tpetra's
 *  checks in fillComplete under debug mode).
 *  row_offsets [num_rows + 1] (int64, exec memory; NULL only when nnz == 0: every row empty),
 *  col_indices [nnz] (int32, exec memory), values [nnz] (double, exec memory; NULL = all zeros).
 *  Columns need not be sorted nor unique: a kernel checks every row, and A->fill_complete is 1
 *  only if every row's columns are strictly ascending (else 0: strata_crs_fill_complete sorts
 *  and merges). Rectangular matrices, empty rows, 0 x n, m x 0 and nnz = 0 (with NULL arrays)
 *  are valid. flags: STRATA_CRS_COPY (0) or STRATA_CRS_ADOPT (see strata_crs_flags_t).
 *  Errors: INVALID_ARGUMENT (NULL exec or output; negative num_rows, num_cols or nnz; NULL
 *  row_offsets or col_indices with nnz > 0; unknown flags); INVALID_DATA, with the first offence
 *  named: row_offsets[0] != 0, row_offsets decreasing (the row and both offsets),
 *  row_offsets[num_rows] != nnz (both), a column outside [0, num_cols) (how many, the first
 *  entry, its row and column, and num_cols); OUT_OF_MEMORY. *A is NULL after an error.
 *  Synchronous (the input arrays may be freed or reused on return). */
strata_status_t strata_crs_create_from_csr(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                           int64_t nnz, const int64_t *row_offsets,
                                           const int32_t *col_indices, const double *values,
                                           unsigned flags, strata_crs_matrix_t **A);

/** Makes A fill-complete in place, on the device: every row's columns sorted ascending with
 *  their values, duplicate columns merged by sum in their stored order (deterministic; the result
 *  equals strata_crs_create_from_coo of A's entries in storage order, bit for bit). A kernel
 *  expands the row ids, then the COO path (device sort, run-length merge) builds the new arrays,
 *  which replace A's (nnz may shrink; the pointers change). No-op when A->fill_complete is 1.
 *  exec: NULL = A's, or another execution space of A's backend.
 *  Errors: INVALID_ARGUMENT (NULL A, exec of another backend), OUT_OF_MEMORY (A is then
 *  unchanged). Synchronous. Source: Tpetra CrsMatrix::fillComplete (sortAndMergeIndicesAndValues). */
strata_status_t strata_crs_fill_complete(strata_exec_t *exec, strata_crs_matrix_t *A);

/** The largest row length of A (entries, duplicates counted), a MAX reduce over the rows;
 *  *max_len (host) is 0 when A has no rows. exec: NULL = A's, or another of A's backend.
 *  Errors: INVALID_ARGUMENT (NULL A or max_len, exec of another backend). Synchronous. */
strata_status_t strata_crs_row_lengths_max(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                           int64_t *max_len);

/** Copies row `row` of A to the host: *count (host) = its number of entries, cols_host [capacity]
 *  and vals_host [capacity] (host memory; either may be NULL to skip it) receive its column
 *  indices and values in storage order (sorted if A is fill-complete); with both NULL only
 *  *count is set (capacity is not checked). exec: NULL = A's, or
 *  another of A's backend. Errors: INVALID_ARGUMENT (NULL A or count; row outside
 *  [0, num_rows): the row and the limit named; capacity below the row's length: both named, and
 *  *count is still set so the caller can size the buffers). Synchronous.
 *  Source: Tpetra CrsMatrix::getLocalRowCopy. */
strata_status_t strata_crs_get_row(strata_exec_t *exec, const strata_crs_matrix_t *A, int32_t row,
                                   int64_t *count, int32_t *cols_host, double *vals_host,
                                   int64_t capacity);

/** Copies a matrix to another execution space (any backend; staged through host memory when the
 *  backends differ); the copy is fill-complete if the source is. Errors: INVALID_ARGUMENT (NULL
 *  argument), OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_crs_copy(strata_exec_t *exec, const strata_crs_matrix_t *src,
                                strata_crs_matrix_t **dst);

/** A^T (num_cols x num_rows, fill-complete) built on the device from A (any exec of A's backend,
 *  NULL = A's): a kernel writes the COO of A^T, then strata_crs_create_from_coo sorts it (entries
 *  that are duplicates in A stay summed in A's order). Errors: INVALID_ARGUMENT, OUT_OF_MEMORY.
 *  Synchronous. */
strata_status_t strata_crs_transpose(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                     strata_crs_matrix_t **At);

/** Frees the matrix and its arrays. NULL-safe; sets *A to NULL. */
strata_status_t strata_crs_destroy(strata_crs_matrix_t **A);

/** y = alpha·A·x + beta·y (DESIGN §4): beta == 0 means y is not read (NaN in y never leaks);
 *  alpha == 0 means A and x are not read. x [num_cols], y [num_rows], exec memory.
 *  One plain kernel, a thread per row (the row-class plan: <strata/spmv.h>).
 *  Errors: INVALID_ARGUMENT (NULL matrix; NULL y with a nonzero extent; NULL x with a nonzero
 *  extent unless x is not read: alpha == 0 or no rows; x and y overlapping unless x is not read).
 *  Asynchronous. */
strata_status_t strata_crs_spmv(strata_exec_t *exec, double alpha, const strata_crs_matrix_t *A,
                                const double *x, double beta, double *y);

/* ------------------------------------------------------------------ pack / unpack-and-combine */

/** Packed rows (the "packet" format). For packed row k, the bytes at data + offsets[k] hold
 *    int64_t count; int64_t global_cols[count]; double values[count];
 *  every field naturally aligned (offsets are multiples of 8). offsets [num_rows + 1] are byte
 *  offsets, non-decreasing, offsets[0] = 0 and offsets[num_rows] = the buffer length num_bytes
 *  (unpack_combine reports the first / last packet malformed otherwise: bytes outside every
 *  packet are not dropped silently; offsets that decrease anywhere would let packets overlap, and
 *  the call is refused: INVALID_DATA naming the first place, report.malformed_packets = the
 *  number of places, report.examples the first of them in packet order, each (import_rows[k], -1)
 *  for the packet k whose end offsets[k + 1] lies below its start, nothing combined). Both
 *  arrays in exec memory, 8-byte aligned (a misaligned data or offsets pointer is refused:
 *  INVALID_ARGUMENT naming the address); data may be NULL only when num_bytes = 0. */
typedef struct strata_packets {
  strata_exec_t *exec;
  int64_t num_rows;
  int64_t *offsets;
  unsigned char *data;
  int64_t num_bytes;
  int stream_ordered; /**< 1 (strata_sparse_pack's packets): offsets and data are stream-ordered
                           allocations (strata_mem_alloc_async) on exec; 0: strata_mem_alloc'd
                           device memory (packets a caller assembles) */
} strata_packets_t;

/** A column map: each local column id l in [0, num_local) has the global id gids[l] (int64,
 *  >= 0, unique), and global ids are looked up on the device in a hash table (open addressing
 *  with linear probing, capacity the power of two at least twice num_local: 8 bytes of key and 4
 *  of value per slot; Kokkos UnorderedMap and Tpetra's non-contiguous maps serve the same need).
 *  The hash is fixed (not keyed): ids chosen to collide make building quadratic in their number.
 *  For global numberings with gaps, where the dense col_lids table of unpack_combine would need
 *  one int32 per global id (ids near 10^12). Use strata_col_map_gids as pack's col_gids and pass
 *  the map to unpack_combine in strata_unpack_options_t.col_map. */
typedef struct strata_col_map strata_col_map_t;

/** Builds the map of gids [num_local] (exec memory, copied). Errors: INVALID_ARGUMENT (NULL
 *  arguments, num_local < 0 or above INT32_MAX), INVALID_DATA (a negative or a repeated global
 *  id: how many, and the first local id and its global id named), OUT_OF_MEMORY. Synchronous.
 *  num_local = 0 is valid (every lookup gives -1). */
strata_status_t strata_col_map_create(strata_exec_t *exec, int64_t num_local, const int64_t *gids,
                                      strata_col_map_t **map);
/** lids[i] = the local id of global id gids[i], -1 when the map has none (negative ids
 *  included); gids, lids [n] exec memory. Errors: INVALID_ARGUMENT (NULL map, NULL arrays with
 *  n > 0, n < 0, an exec of another backend). Asynchronous. */
strata_status_t strata_col_map_lids(strata_exec_t *exec, const strata_col_map_t *map, int64_t n,
                                    const int64_t *gids, int32_t *lids);
/** The map's global ids [num_local] (exec memory, owned by the map; NULL when num_local = 0), and
 *  its size. As pack's col_gids it must cover the packed matrix's columns: size >= A->num_cols
 *  (pack cannot check a raw pointer's length). */
const int64_t *strata_col_map_gids(const strata_col_map_t *map);
int64_t strata_col_map_size(const strata_col_map_t *map);
/** NULL-safe; sets *map to NULL. */
strata_status_t strata_col_map_destroy(strata_col_map_t **map);

/** Packs rows `rows[0..num_rows)` (int32 local row ids, exec memory; NULL = rows 0..num_rows-1)
 *  of A: the offsets (from A's row offsets when rows is NULL, else counts and a device scan),
 *  then the copy: on GPUs a group of lanes per row (a power of two near the mean row length, so
 *  that a warp writes whole sectors) and a team per row for rows of more than 128 entries (a
 *  few lanes would hold up the launch with a bulk node's row: perf/NOTES.md, "Unpack-and-combine,
 *  third round", item 5); on the host a thread per row. The packets' arrays are stream-ordered
 *  allocations on exec (p->stream_ordered = 1).
 *  col_gids [A->num_cols] maps local to global column ids (exec memory; NULL = identity). *out
 *  is allocated (destroy with strata_packets_destroy). Errors: INVALID_ARGUMENT (num_rows < 0,
 *  or NULL rows with num_rows > A->num_rows), INVALID_DATA (a row id outside [0, A->num_rows):
 *  count and first one named). Synchronous. Source: Tpetra CrsMatrix::packAndPrepare, with
 *  aligned fields. */
strata_status_t strata_sparse_pack(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t num_rows,
                                   const int32_t *rows, const int64_t *col_gids,
                                   strata_packets_t **out);
/** Frees the packets' arrays (stream-ordered on p->exec when p->stream_ordered: work queued there
 *  before may still read them; work on another exec that reads them must be complete) and *p
 *  itself. NULL-safe; sets *p to NULL. */
strata_status_t strata_packets_destroy(strata_packets_t **p);

typedef enum strata_combine_mode {
  STRATA_COMBINE_ADD = 0,     /**< target += incoming */
  STRATA_COMBINE_REPLACE = 1, /**< target = incoming (several packets for one entry: one wins) */
  STRATA_COMBINE_ABSMAX = 2,  /**< target = the value of larger magnitude, sign kept (a tie
                                   keeps the target; Tpetra stores max(|a|, |b|) instead). NaN
                                   compares false: an incoming NaN never replaces the target and
                                   a NaN target stays (both counted as combined). Equal
                                   magnitudes of either sign from several packets for one entry:
                                   the first to land wins, an order parallel backends do not fix */
  STRATA_COMBINE_INSERT = 3,  /**< target += incoming, columns not yet in the row inserted (the
                                   row grows; Tpetra's insertGlobalValues + fillComplete). The
                                   target may be fill-complete or not; it is fill-complete after */
  STRATA_COMBINE_ZERO = 4     /**< nothing is combined; the packets are still validated
                                   (rows_unpacked and entries_combined stay 0) */
} strata_combine_mode_t;

#define STRATA_UNPACK_MAX_EXAMPLES 8

/** What an example of strata_unpack_report_t names. */
typedef enum strata_unpack_example_kind {
  STRATA_UNPACK_EXAMPLE_ENTRY = 0,  /**< an entry whose column is invalid: (row, its global column) */
  STRATA_UNPACK_EXAMPLE_ROW = 1,    /**< a packet whose target row is out of range: (row, -1) */
  STRATA_UNPACK_EXAMPLE_PACKET = 2  /**< a malformed packet: (its import row, -1) */
} strata_unpack_example_kind_t;

/** What unpack_combine did, and every entry it could not apply. */
typedef struct strata_unpack_report {
  int64_t rows_unpacked;     /**< packets applied */
  int64_t entries_combined;  /**< entries applied to the target */
  int64_t invalid_entries;   /**< column not in a fill-complete target row's pattern (INSERT:
                                  a global column id with no local id) */
  int64_t invalid_rows;      /**< target row outside [0, A->num_rows) (all its entries skipped) */
  int64_t malformed_packets; /**< count or offsets inconsistent with the buffer length */
  int32_t num_examples;      /**< how many of examples[] are filled */
  struct {
    int64_t row;             /**< target row (local) */
    int64_t col;             /**< global column id; -1 for a bad row or packet */
    strata_unpack_example_kind_t kind; /**< which: an entry (whose global id may be -1 too), a
                                            row out of range or a malformed packet */
    int64_t packet;          /**< the index k of its packet (import_rows[k], packets->offsets[k]) */
  } examples[STRATA_UNPACK_MAX_EXAMPLES]; /**< the first invalid items in packet order, then
                                               entry order (a bad packet is one item), the same
                                               on every backend: found after the combine by a
                                               thread per packet and a device scan, only when
                                               something was invalid */
  int64_t class_packets[4];  /**< packets per row class (short, medium, long, very long) as
                                  classified on the device from the packets' offsets: those whose
                                  offsets are inconsistent, or whose row is out of range, counted
                                  as short; one whose offsets are consistent but whose stored
                                  count is not, in the class of the entries its span holds (its
                                  class's kernel reports it); INSERT: all short */
  int64_t entries_inserted;  /**< INSERT: the growth, new nnz - nnz of the target (after merging
                                  the target's own duplicates if it was not fill-complete) = the
                                  distinct (row, column) pairs that were not in it; else 0 */
} strata_unpack_report_t;

/** The row classes of unpack_combine, by the number of entries of an incoming packet
 *  (DESIGN §4; each class its own launch, except: on GPUs when very long packets exist, the
 *  very long chunks, the medium and the short packets share one launch, the chunks at its start,
 *  so that the few nearly dense rows run beside the rest instead of alone after it (LONG keeps
 *  its own launch); and on every backend, when the short class holds all packets but at most
 *  1024 very long ones, the very long chunks are the first indices of the short class's launch
 *  (see strata_unpack_options_t)):
 *  - SHORT (one-level): a thread per packet, a binary search per entry in the target row;
 *  - MEDIUM (three-level): a team per block of packets, a team thread per packet, its vector
 *    lanes over the entries (a binary search each); on GPUs packets above 32 entries get a
 *    warp of lanes, those up to 32 get 8 (two launches, or two sections of the shared one);
 *  - LONG (two-level): a team per packet; the packet's (local column, value) pairs are sorted
 *    in team scratch (strata_team_sort) and merged against the target row in one sorted-sorted
 *    pass (one binary search per team thread x lane, for the start of its block); duplicates
 *    within the packet are neighbours after the sort and are all combined (ADD: summed, one
 *    atomic per run). A packet above the scratch limit (max_scratch_bytes / 16 entries) takes
 *    the VERY_LONG path instead, also when LONG is forced;
 *  - VERY_LONG (three-level, split): the packet cut into chunks of `chunk` entries, a team per
 *    chunk, the team's threads x lanes over the chunk (a binary search each, except that an
 *    entry naming the column a lane met last reuses its position, and ADD sums such a run of a
 *    lane's entries before one atomic: a bulk node's row names its own diagonal every other
 *    entry).
 *  Classes rather than merge path (Merrill & Garland, SC 2016), which lost to them on mixed and
 *  uniform packets (perf/NOTES.md, "Seventeenth session").
 *  Where a class searches per entry, it first probes the target position at the entry's
 *  fraction of the packet (entry j of c in a row of n: position j * n / c), then searches in the
 *  part of the row that probe leaves: one probe when a packet carries its row's whole pattern in
 *  order (a pack of a matrix with the target's pattern), at most one more than a binary search
 *  otherwise (perf/NOTES.md, "Unpack-and-combine, fourth round", item 1). */
typedef enum strata_unpack_class {
  STRATA_UNPACK_CLASS_AUTO = 0,     /**< by the thresholds */
  STRATA_UNPACK_CLASS_SHORT = 1,
  STRATA_UNPACK_CLASS_MEDIUM = 2,
  STRATA_UNPACK_CLASS_LONG = 3,
  STRATA_UNPACK_CLASS_VERY_LONG = 4
} strata_unpack_class_t;

/** Options of strata_sparse_unpack_combine_opts; all-zero (memset) = the defaults.
 *  Thresholds count entries of one incoming packet; 0 = the backend default:
 *    GPU backends (warp > 1): short <= 4, medium <= 256, no long class, very long beyond, chunk
 *      2048 entries; medium teams: 8 lanes (the warp if smaller) x 256/8 threads, a packet per
 *      thread; long (when asked for) and very long teams: warp lanes x 256/warp threads. The
 *      long class is off unless long_max or force_class ask for it: its sort in scratch lost to
 *      the very long class at every length (perf/NOTES.md, "Unpack-and-combine, third round");
 *    host backends (OpenMP, serial): short <= 64, medium <= 16384, no long class (a one-thread
 *      sort in scratch loses to a binary search per entry there), very long beyond, chunk 16384;
 *      teams of one thread, one lane (medium: 16 packets per team).
 *  The long class is also capped by the scratch limit (max_scratch_bytes / 16 entries).
 *  Packets are classified from their offsets and target rows alone: a packet's span gives its
 *  entries (8 + 16 c bytes), and the count stored in the packet is checked by its class's kernel
 *  (a packet whose count disagrees is reported malformed). Packets are grouped by class on the
 *  device (packet order kept within a class). A class other than long and very long that holds
 *  all but at most an eighth of the packets is launched over every packet, skipping the others;
 *  when those others are all very long and at most 1024 (a finite-element assembly's bulk-node
 *  rows beside its element rows) and the dominant class is short, their chunks take the first
 *  indices of the short class's launch (perf/NOTES.md, "Eleventh session"). The call waits for
 *  the device twice (the class totals, then the report; twice more when something was invalid:
 *  the examples' rank scan and copy), and its temporaries are stream-ordered
 *  (strata_mem_alloc_async): the class plan is one allocation of 25 bytes a packet (plus 48 per
 *  tile of 2048 packets), hence the limit of 2^40 packets a call. */
typedef struct strata_unpack_options {
  strata_unpack_class_t force_class; /**< AUTO, or every valid packet in one class (tests;
                                          packets with inconsistent offsets or an out-of-range
                                          row always go to SHORT,
                                          LONG falls back to VERY_LONG above the scratch limit) */
  /* Thresholds apply in order: a packet is short if its count <= short_max, else medium if
   * <= medium_max, else long if <= long_max, else very long; a threshold at or below the one
   * before it leaves its class empty. Negative values are refused. */
  int64_t short_max;  /**< most entries of a short packet (0: default) */
  int64_t medium_max; /**< most entries of a medium packet (0: default) */
  int64_t long_max;   /**< most entries of a long packet (0: default); beyond: very long */
  int64_t chunk;      /**< very long: entries per team (0: default) */
  int strict;         /**< nonzero: a validation pass first (the same kernels in ZERO mode, no
                           writes); A is changed only if it finds no invalid entry, row or
                           packet: all or nothing */
  const strata_col_map_t *col_map; /**< non-NULL: global column ids are looked up in this map
                                        (col_lids must then be NULL); its local ids must lie in
                                        [0, A->num_cols), others are invalid as any unknown id */
} strata_unpack_options_t;

/** Combines packets into A: packet k goes into local row import_rows[k] (exec memory,
 *  [packets->num_rows]); global column ids map to local ones by col_lids [num_global] (exec memory;
 *  NULL = identity, global id == local column id; a global id outside [0, num_global), or one
 *  whose col_lids value is outside [0, A->num_cols) (-1 by convention), has no local id: its entry
 *  is invalid, counted and reported in every mode). col_lids is a dense table, one int32 per
 *  global id; for a global numbering with large gaps (ids near 10^12, as Tpetra's non-contiguous
 *  maps allow) pass a strata_col_map_t in options.col_map instead (the _opts form). The same
 *  target row may arrive in many packets (several senders): ADD stays correct (atomic adds; in
 *  the LONG and VERY_LONG classes a run of one packet's entries for the same position is summed
 *  first and added with one atomic, so ADD results may differ from entry-by-entry sums in
 *  rounding, or in overflow, e.g. 1e308 + 1e308 - 1e308, as any parallel sum's order may);
 *  ABSMAX is atomic too (a CAS loop); REPLACE: when several packets (or duplicates within one)
 *  name the same entry, which value wins is unspecified. Packets are classified on the device by
 *  their entry counts and each non-empty row class is its own launch, or shares one
 *  (strata_unpack_class_t; no host loop over rows). This is strata_sparse_unpack_combine_opts
 *  with the default options (auto classes, not strict).
 *  Nothing is dropped silently: every invalid entry is counted in *report (may be NULL) and the
 *  call then returns STRATA_ERR_INVALID_DATA with the counts and the first example in the message;
 *  valid entries are applied all the same (unless strict). Errors also: INVALID_ARGUMENT (A not
 *  fill-complete with a mode other than INSERT; NULL import_rows or offsets with packets, NULL
 *  data with num_bytes > 0, num_bytes > 0 with no packets, packet data or offsets not 8-byte
 *  aligned, import_rows not 4-byte aligned; more than 2^40 packets; a negative num_global, also
 *  when col_lids is NULL and it is not read; a negative option). Synchronous.
 *  INSERT (Tpetra: insertGlobalValues into a matrix with room, then fillComplete): accepted with a
 *  fill-complete target or not. Incoming values are added (as ADD) and columns not in the row
 *  are merged into it, growth in report->entries_inserted. Implementation, device-only and
 *  multi-pass: a count kernel (a thread per packet) counts and reports the invalid entries and
 *  packets; A is made fill-complete (strata_crs_fill_complete) if it is not; a device scan places
 *  the packets' valid entries after A's own in a COO (kernels), strata_crs_create_from_coo builds
 *  the merged matrix (device sort; duplicates summed in input order: A's value, then the packets'
 *  in packet order: deterministic on every backend) and its arrays replace A's (the pointers
 *  change; nothing is reused in place). Classes and thresholds do not apply (report.class_packets
 *  counts every packet as short). Strict: the count pass validates; on any invalid entry A is
 *  left bitwise unchanged (not even made fill-complete).
 *  Source: Tpetra CrsMatrix::unpackAndCombine (combine modes), without its silent drops. */
strata_status_t strata_sparse_unpack_combine(strata_exec_t *exec, strata_crs_matrix_t *A,
                                             const int32_t *import_rows,
                                             const strata_packets_t *packets,
                                             const int32_t *col_lids, int64_t num_global,
                                             strata_combine_mode_t mode,
                                             strata_unpack_report_t *report);

/** strata_sparse_unpack_combine with options (opts NULL = the defaults, see
 *  strata_unpack_options_t): forced class, class thresholds, strict mode. Strict: the packets are
 *  validated first (the same classified kernels in ZERO mode); if any entry, row or packet is
 *  invalid the call returns STRATA_ERR_INVALID_DATA with the report of that pass
 *  (rows_unpacked = entries_combined = 0) and A bitwise unchanged; otherwise the apply pass runs.
 *  Errors: those of strata_sparse_unpack_combine; INVALID_ARGUMENT for a force_class outside
 *  AUTO..VERY_LONG or a negative threshold (named). Synchronous. */
strata_status_t strata_sparse_unpack_combine_opts(strata_exec_t *exec, strata_crs_matrix_t *A,
                                                  const int32_t *import_rows,
                                                  const strata_packets_t *packets,
                                                  const int32_t *col_lids, int64_t num_global,
                                                  strata_combine_mode_t mode,
                                                  const strata_unpack_options_t *opts,
                                                  strata_unpack_report_t *report);

/** Where unpack_combine would combine each packet entry, without combining: positions [E]
 *  (exec memory, E = (packets->num_bytes - 8 num_rows) / 16 = the entries of all packets, in
 *  packet order) receives each entry's position in A->values (an index in [0, A->nnz)), or -1
 *  when its column has no local id or is not in the row's pattern; *num_invalid (host) counts the
 *  -1s (not an error: the caller decides). Arguments as strata_sparse_unpack_combine's (A
 *  fill-complete; col_lids NULL = identity). With the positions a caller combines the same values
 *  again and again without the packets (strata_dist_row_export). A GPU team of one warp per
 *  packet, the same probe and search as the combine. Errors: those of unpack_combine's argument
 *  checks; INVALID_ARGUMENT (NULL num_invalid; NULL positions with E > 0); INVALID_DATA (a packet
 *  malformed or with a target row outside A's rows: no position is usable then; the counts
 *  named). Synchronous. Source: Tpetra's cached local offsets (CrsMatrix::getLocalRowView +
 *  sumIntoLocalValues with known offsets; the FE assembly's element-to-matrix map). */
strata_status_t strata_sparse_unpack_positions(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                               const int32_t *import_rows, const strata_packets_t *packets,
                                               const int32_t *col_lids, int64_t num_global, int64_t *positions,
                                               int64_t *num_invalid);

#ifdef __cplusplus
}
#endif
#include "strata/spmv.h"
#include "strata/formats.h"
#endif
