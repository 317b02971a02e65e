/* strata — SpMV by row-length class: the plan object (DESIGN §4).
 *
 * A plan is built on the device once per matrix pattern and reused across SpMVs. It sorts the
 * rows into classes by length, each with its own launch on the exec's stream (except that the
 * three-level rows and split chunks share one launch with the short rows when those are all
 * stream level (any backend: GPU auto, or STRATA_SPMV_STREAM forced) or, on GPUs only, all
 * one-level; long rows first, each split row added up by its last chunk's team):
 *   one-level   short rows: a thread per row;
 *   two-level   medium rows: a team per block of rows, vector lanes per row, the lane count a
 *               power of two matched to the class (GPUs);
 *   three-level long rows: a team per row, team threads × lanes over the row, partial sums
 *               combined in team-rank order through team scratch;
 *   split       very long rows: several teams per row, each a chunk of the row, partial sums then
 *               each row's chunks added in order — by a second pass, or (GPU auto, where the long
 *               rows share one launch with the short ones) by the team of the row's chunk that
 *               finishes last, which the others' partial sums reach through an atomic count and
 *               memory fences — results never depend on scheduling;
 *   stream      short and medium rows on GPUs (CSR-Stream, Greathouse & Daga, SC'14): a team per
 *               block of consecutive rows (those whose first entry falls in a window of
 *               stream_block rows + entries, so up to stream_block + stream_max entries), which
 *               reads the block's entries once, coalesced, into team scratch as products
 *               a_ij·x_j, then reduces each row there with vector lanes (the lane count a power of
 *               two matched to the mean row length and the block; on GPUs, with 1 or 2 lanes,
 *               when at least half of the nonempty rows up to 128 entries have lengths that are
 *               multiples of 4·lanes, no longer rows share the launch and the scratch fits, the
 *               products lie in scratch with one unused double after every 16, so that the rows
 *               do not start in a few shared-memory bank pairs: strata_spmv_class_t.padded,
 *               options.stream_pad), or, for a row of more than 128 entries, with the whole team
 *               (so that one such row does not keep the team's short rows waiting). Rows stay in
 *               their original order, so every read of A is contiguous whatever the mix of
 *               lengths. A longer row that ends inside its window (so fewer than stream_block
 *               entries) is staged whole and reduced there by the team too: it belongs to the
 *               stream class (counted in its num_rows although longer than its max_len) instead
 *               of having its entries read a second time by the three-level class; other longer
 *               rows are not staged and have their own classes.
 * Every class reduces in a fixed order: y is bitwise reproducible run to run on a given backend
 * and device (not across backends: the summation trees differ).
 *
 * Default class thresholds (entries per row), chosen from the device's warp size (the GPU
 * one-launch shape and chunks were measured in perf/NOTES.md, "Sixteenth session"):
 *   GPU (warp 32 or 64): S = stream_max given, else 512. When no row is longer than S: stream
 *     len <= S (blocks of 2048 rows + entries, 256 threads, vector length min(warp,
 *     nextpow2(ceil(mean / 4))), mean = nnz / rows; unless entries_per_lane is set, halved while
 *     256 / (vector length) threads are fewer than a block's rows, stream_block / (mean + 1));
 *     the classes three-level S+1..4096 and split (chunks of 4096) stay empty. Else one launch
 *     for all rows: stream len <= 128 (or stream_max given; blocks of 896 rows + entries, teams
 *     of 128 threads, vector length as above without the halving); three-level up to T and
 *     split above T in chunks of C entries, both in the stream teams' shape, where C =
 *     1.5 x nnz / (multiprocessors x 16) (nnz / 16 per multiprocessor: the entries per resident
 *     team of 128) rounded down to a multiple of 4096, at least 4096 and at most 65536, and T = C,
 *     or the first multiple of 4096 above a stream_max given that is not below C. split_chunk
 *     given replaces C as the chunk only; three_level_max given replaces T only, and must exceed
 *     the stream level's longest (128 here, 512 without longer rows: matrix-dependent defaults).
 *     When at least 90 % of the entries of rows up to S lie in rows of at most 8 entries
 *     averaging at least 5 (stencils; many short rows beside a few dense ones), or one_level_max
 *     or two_level_max is set, per-length classes replace the stream level: one-level len <= 8;
 *     two-level 9..256 with vector length min(warp, nextpow2(ceil(len / 4))) (a class per vector
 *     length); three-level 257..32768; split above 32768 (chunks of 8192). A forced algorithm
 *     (ONE_LEVEL ...) puts every row in its level (TWO_LEVEL: the per-vector-length classes from
 *     0 up; STREAM: rows up to stream_max and longer ones ending inside their window, the other
 *     longer ones three-level).
 *   host (serial, OpenMP): one-level len <= 32 (static schedule); two-level 33..8192 (a team per
 *     16 rows, dynamic schedule, `omp simd` reduction per row); three-level 8193..65536 (a team per
 *     row); split above 65536 (chunks of 16384, so one huge row is shared by all threads).
 * Each is overridable through strata_spmv_options_t; `algorithm` forces one level for all rows.
 * A threshold given is checked against the others in force, given or default: they must increase
 * (e.g. one_level_max 2000000 alone is refused on the host, whose two-level default is 8192; give
 * two_level_max and three_level_max above it too).
 */
#ifndef STRATA_SPMV_H
#define STRATA_SPMV_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct strata_crs_matrix;

typedef enum strata_spmv_algorithm {
  STRATA_SPMV_AUTO = 0,        /**< classes by row length (the default) */
  STRATA_SPMV_ONE_LEVEL = 1,   /**< every row: a thread per row */
  STRATA_SPMV_TWO_LEVEL = 2,   /**< every row: vector lanes per row (length-matched lane counts) */
  STRATA_SPMV_THREE_LEVEL = 3, /**< every row: a team per row */
  STRATA_SPMV_SPLIT = 4,       /**< every nonempty row: split into chunks of split_chunk entries */
  STRATA_SPMV_STREAM = 5       /**< rows up to stream_max, and longer ones that end inside their
                                    window: the stream level; the other longer ones three-level */
} strata_spmv_algorithm_t;

/** Plan options; a zero field takes the backend's default (see the top of this file). Lengths are
 *  refused (INVALID_ARGUMENT) when negative or above 2^40. */
typedef struct strata_spmv_options {
  strata_spmv_algorithm_t algorithm;
  int64_t one_level_max;   /**< longest row handled one-level */
  int64_t two_level_max;   /**< longest row handled two-level */
  int64_t three_level_max; /**< longest row handled three-level; longer rows are split */
  int64_t split_chunk;     /**< entries per team for split rows (only: the three-level limit
                                keeps its default) */
  int entries_per_lane;    /**< two-level and stream: target entries per vector lane (GPU default 4;
                                set, it also turns off the stream level's cap on lanes, above) */
  int64_t stream_max;      /**< stream level (GPU auto): longest row it takes (default 512; 128
                                when longer rows exist), except rows that end inside their window
                                (see stream above); rows longer than the value given, or than 512,
                                choose the one-launch defaults above */
  int64_t stream_block;    /**< stream level: rows + entries of the window whose rows a team takes
                                (default 2048; GPUs: 896 in the one launch of GPU auto when rows
                                longer than stream_max exist, 1792 with the stream level forced
                                and such rows) */
  int transpose;           /**< 1: the plan applies op(A) = A^T — built once as an explicit
                                transpose on the device (strata_crs_transpose) with its own
                                row-class plan, so A^T x is as deterministic as A x. Each apply
                                first copies A's current values into A^T (a gather over A's
                                nnz entries, on the stream), so new values of A (e.g. from
                                unpack_combine) are used; hence one transpose plan must not be
                                applied on two streams at once. It holds A^T and that map: 28
                                bytes of device memory per entry of A. x [num_rows], y [num_cols]. */
  int stream_pad;          /**< stream level's padded scratch (strata_spmv_class_t.padded), where the
                                stream kernel runs alone and the padded scratch fits: 0 (default)
                                GPUs by the rule in the stream paragraph above, hosts never (no
                                banks: it only adds index arithmetic); 1 always; -1 never */
} strata_spmv_options_t;

#define STRATA_SPMV_MAX_CLASSES 16

typedef enum strata_spmv_level {
  STRATA_SPMV_LEVEL_ONE = 1,
  STRATA_SPMV_LEVEL_TWO = 2,
  STRATA_SPMV_LEVEL_THREE = 3,
  STRATA_SPMV_LEVEL_SPLIT = 4,
  STRATA_SPMV_LEVEL_STREAM = 5
} strata_spmv_level_t;

/** One row class of a plan. */
typedef struct strata_spmv_class {
  strata_spmv_level_t level;
  int vector_length;   /**< lanes per row (two-level) or per team thread (three-level, split) */
  int team_size;       /**< team threads (1 for one-level) */
  int64_t min_len;     /**< row-length range of the class, inclusive (a stream class, GPU auto or
                            forced on any backend, also holds longer rows that end inside their
                            window: spmv.h, stream) */
  int64_t max_len;
  int64_t num_rows;    /**< rows in the class */
  int64_t num_entries; /**< stored entries in those rows */
  int padded;          /**< stream class launched alone: 1 when its products lie in team scratch
                            with one unused double after every 16 (spmv.h, stream; options
                            stream_pad) */
} strata_spmv_class_t;

typedef struct strata_spmv_plan strata_spmv_plan_t;

/** Builds the plan of A on exec (NULL: A's exec; else the same backend): row lengths, classes
 *  by a device sort of (class, row) keys, class boundaries by binary search, the chunk table of
 *  split rows by a device scan. Empty rows join the class of the shortest rows (min_len 0: they
 *  write y = beta*y or 0). opts may be NULL. Errors: INVALID_ARGUMENT (NULL A or plan; a length or
 *  entries_per_lane negative, a length above 2^40; an algorithm outside 0..5; transpose outside
 *  0..1; stream_pad outside -1..1; thresholds that do not increase; where the
 *  stream level can run (forced, or GPU auto), team scratch above the device's: the stream level
 *  takes 8·(stream_block + stream_max) bytes of products and 4·((stream_block + stream_max) / 129
 *  + 2) of a list of rows — options are checked before any work, a transpose's too; the padded
 *  layout (strata_spmv_class_t.padded) takes 8·(n / 16 + 1) bytes more, n = stream_block +
 *  stream_max, and is used only where they fit), OUT_OF_MEMORY.
 *  Synchronous. */
strata_status_t strata_spmv_plan_create(strata_exec_t *exec, const struct strata_crs_matrix *A,
                                        const strata_spmv_options_t *opts,
                                        strata_spmv_plan_t **plan);

/** y = alpha·op(A)·x + beta·y with the plan of A, op(A) = A or A^T as the plan was built
 *  (DESIGN §4 semantics: beta == 0 does not read y, alpha == 0 reads neither A nor x). A must
 *  be the matrix the plan was built for, or one with the same pattern (row offsets; for a
 *  transpose plan the column indices too, in the same storage order); its values are read as
 *  they are now. Its num_rows, num_cols and nnz are checked, and for a transpose plan its
 *  fill_complete flag (a plan built for A not fill-complete is refused once
 *  strata_crs_fill_complete or unpack_combine INSERT has sorted A's rows: build it again).
 *  x [num_cols], y [num_rows] exec memory, not overlapping when x is read. A plan holds work
 *  memory that an apply writes (the split rows' partial sums and chunk counts; a transpose
 *  plan's A^T values), as cuSPARSE's external buffer: applies of one plan must not overlap, so
 *  concurrent SpMVs on several streams or threads take one plan each (overlapping applies can
 *  also leave a split row's chunk count wrong, and every later apply of that plan wrong).
 *  Errors: INVALID_ARGUMENT (mismatch named, overlapping x and y), DEVICE. Asynchronous on
 *  exec's stream. */
strata_status_t strata_spmv_plan_apply(strata_exec_t *exec, const strata_spmv_plan_t *plan,
                                       double alpha, const struct strata_crs_matrix *A,
                                       const double *x, double beta, double *y);

/** The plan's classes (host copy, synchronous): *num_classes of them in
 *  classes[0..STRATA_SPMV_MAX_CLASSES). Errors: INVALID_ARGUMENT (NULL plan, num_classes or
 *  classes). */
strata_status_t strata_spmv_plan_classes(const strata_spmv_plan_t *plan, int *num_classes,
                                         strata_spmv_class_t *classes);

/** NULL-safe; sets *plan to NULL. */
strata_status_t strata_spmv_plan_destroy(strata_spmv_plan_t **plan);

#ifdef __cplusplus
}
#endif
#endif
