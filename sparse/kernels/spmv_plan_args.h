/* strata sparse — argument structs of the row-class SpMV kernels (spmv_plan.kl.c). Plain C,
 * valid as C11 and C++17; pointers are exec memory. */
#ifndef STRATA_SPMV_PLAN_ARGS_H
#define STRATA_SPMV_PLAN_ARGS_H

#include <stdint.h>

#define STRATA_SPMV_PLAN_MAX_CLASSES 16

/* the stream level's list of team-reduced rows: at most this many in a window of stage_max
 * entries whose listed rows are longer than team_min each */
#define STRATA_SPMV_STREAM_LIST(stage_max, team_min) ((stage_max) / ((team_min) + 1) + 1)
/* doubles of scratch for n products in the padded layout (STRATA_SPARSE_STAGE_PAD of
 * stage_products.h: one unused double after every 16), the stream kernel's */
#define STRATA_SPMV_STAGE_PADDED(n) ((n) + (n) / 16 + 1)

/* Whether row r, entries [b, e), ends inside its stream window: the next row's key e + r + 1
 * falls in the window of the row's own key b + r (windows of `block` keys, key = row_offsets[r] +
 * r: strata_spmv_blocks). Such a row is staged whole by its window's team (fewer than `block`
 * entries), so the stream level reduces it whatever its length instead of leaving it to the
 * three-level class, which would read its entries a second time. */
#define STRATA_SPMV_IN_WINDOW(b, e, r, block) (((e) + (r) + 1) / (block) == ((b) + (r)) / (block))

/** key[r] = class(len r) (row_class.h), perm[r] = r; class c is the first with len <= max_len[c]. */
typedef struct strata_spmv_classify_args {
  const int64_t *row_offsets;
  int64_t num_rows;
  int num_classes;
  int64_t max_len[STRATA_SPMV_PLAN_MAX_CLASSES];
  /* stream level (stream_block > 0): a row longer than the stream class's max_len that ends
   * inside its stream window (STRATA_SPMV_IN_WINDOW) is the stream class's too */
  int64_t stream_block;
  int stream_class;
  int64_t *keys;
  int64_t *perm;
} strata_spmv_classify_args_t;

/** bounds[c] = lower_bound(keys[0..n), c * num_rows) for c in [0, num_classes] (num_rows 1: keys are classes); rows[i] = perm[i]
 *  narrowed to int32 is done by strata_spmv_narrow. */
typedef struct strata_spmv_bounds_args {
  const int64_t *keys;
  int64_t n;
  int64_t num_rows;
  int64_t *bounds;
} strata_spmv_bounds_args_t;

typedef struct strata_spmv_narrow_args {
  const int64_t *perm;
  int32_t *rows;
} strata_spmv_narrow_args_t;

/** Split rows: nchunks[i] = ceil(len(rows[i]) / chunk) for the class's rows i in [0, n). Also a
 *  class's rows for strata_spmv_class_entries (the sum of their lengths). */
typedef struct strata_spmv_chunk_count_args {
  const int64_t *row_offsets;
  const int32_t *rows;
  int64_t chunk;
  int64_t *nchunks;
} strata_spmv_chunk_count_args_t;

/** Split rows: chunk table. For class row i with first chunk first[i]: chunk q of it covers entries
 *  [row_begin + q*chunk, min(row_begin + (q+1)*chunk, row_end)); chunk_row[first[i]+q] = i. */
typedef struct strata_spmv_chunk_fill_args {
  const int64_t *row_offsets;
  const int32_t *rows;
  const int64_t *first;
  int64_t chunk;
  int32_t *chunk_row;
  int64_t *chunk_begin;
  int32_t *ticket; /* [class rows]: set to 0 */
} strata_spmv_chunk_fill_args_t;

/** The SpMV kernels of every class. rows: the class's row ids (NULL: rows begin + i). For split:
 *  chunk_row / chunk_begin / chunk (entries) describe the chunks, partial[] their sums, first[]
 *  (num class rows + 1 entries) each row's first chunk. rows_per_team: two-level block size. */
typedef struct strata_spmv_apply_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  const double *x;
  double *y;
  double alpha, beta;
  const int32_t *rows;
  int64_t begin;
  int64_t count;
  int64_t rows_per_team;
  const int32_t *chunk_row;
  const int64_t *chunk_begin;
  int64_t chunk;
  const int64_t *first;
  double *partial;
  /* the fused launches: ticket[i] counts split row i's chunks done (0 between launches); the last
   * chunk's team adds the row's partial sums (strata_spmv_chunk_done). NULL: a combine launch. */
  int32_t *ticket;
  /* stream level: team b takes rows [block_row[b], block_row[b + 1]) (consecutive rows whose
   * row_offsets[r] + r falls in [b·block, (b+1)·block)), stages the products of their entries
   * (at most stage_max, from the block's first entry) in team scratch, and reduces the rows of
   * length <= stream_max and the longer ones that end inside the window (STRATA_SPMV_IN_WINDOW)
   * from there; other longer rows belong to other classes (a last one is not staged). */
  const int32_t *block_row;
  int64_t block;
  int64_t stream_max;
  int64_t stage_max;
  /* stream level: a row longer than stream_team_min (and the stream class's) is reduced by the
   * whole team, not by its thread's lanes; team scratch then holds, after the stage_max doubles,
   * an int32 count and the list of such rows (STRATA_SPMV_STREAM_LIST entries at most) */
  int64_t stream_team_min;
  /* one launch for the stream level and the long rows (strata_spmv_fused): league ranks
   * [0, fused_chunks) are split chunks (their rows from split_begin in rows), the next fused_three
   * three-level rows (from three_begin), the rest stream blocks */
  int64_t fused_chunks, fused_three, split_begin, three_begin;
  /* strata_spmv_fused_one (the one-level rows and the long rows in one launch): after the split
   * chunks and the three-level rows, fused_one one-level rows (from one_begin), a participant each */
  int64_t fused_one, one_begin;
} strata_spmv_apply_args_t;

/** Row statistics for the plan's choice of levels: the rows r with min_len <= len(r) <= max_len,
 *  counted (entries == 0) or their entries summed (entries == 1). */
typedef struct strata_spmv_rowstat_args {
  const int64_t *row_offsets;
  int64_t min_len, max_len;
  int entries;
  int64_t mod; /* > 0: only rows whose length is a multiple of mod */
} strata_spmv_rowstat_args_t;

/** block_row[b] = the first row r in [0, num_rows] with row_offsets[r] + r >= b·block
 *  (num_rows when none), b in [0, num_blocks]. */
typedef struct strata_spmv_blocks_args {
  const int64_t *row_offsets;
  int64_t num_rows;
  int64_t block;
  int32_t *block_row;
} strata_spmv_blocks_args_t;

#endif
