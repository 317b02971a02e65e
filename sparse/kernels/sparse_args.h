/* strata sparse — argument structs (the captures) of the sparse kernels, shared by the kernel
 * sources (sparse/kernels/NAME.kl.c) and the host code that launches them (sparse/src/NAME.c).
 * Plain C, valid as C11 and C++17. Every pointer is exec memory unless said otherwise. */
#ifndef STRATA_SPARSE_ARGS_H
#define STRATA_SPARSE_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --------------------------------------------------------------------------- COO -> CrsMatrix */

/** Range check of one or two int32 index arrays (reduce over i in [0, n)): entry i is bad when
 *  a[i] is outside [0, a_end) or (b != NULL and) b[i] is outside [0, b_end).
 *  first == 0: SUM of bad entries; first == 1: MIN of the indices of bad entries. */
typedef struct strata_sparse_range_check_args {
  const int32_t *a;
  int64_t a_end;
  const int32_t *b;
  int64_t b_end;
  int first;
} strata_sparse_range_check_args_t;

/** keys[i] = rows[i] * num_cols + cols[i]; perm[i] = i. */
typedef struct strata_sparse_coo_keys_args {
  const int32_t *rows;
  const int32_t *cols;
  int64_t num_cols;
  int64_t *keys;
  int64_t *perm;
} strata_sparse_coo_keys_args_t;

/** Scan over the sorted keys: flag(i) = (i == 0 || keys[i] != keys[i-1]); for a run start,
 *  starts[exclusive prefix of flags] = i. The total is the number of unique keys. */
typedef struct strata_sparse_run_starts_args {
  const int64_t *keys;
  int64_t *starts;
} strata_sparse_run_starts_args_t;

/** For unique key k: its run is [starts[k], starts[k+1]) of the sorted pairs; ukeys[k] = the key,
 *  col_indices[k] = key mod num_cols, values[k] = sum of vals[perm[j]] over the run in input order
 *  (0 when vals == NULL). ukeys == NULL: values only (keys and col_indices not used). */
typedef struct strata_sparse_coo_merge_args {
  const int64_t *keys;
  const int64_t *perm;
  const int64_t *starts;
  const double *vals;
  int64_t num_cols;
  int64_t *ukeys;
  int32_t *col_indices;
  double *values;
} strata_sparse_coo_merge_args_t;

/** row_offsets[r] = lower_bound(ukeys[0..nnz), r * num_cols) for r in [0, num_rows]. */
typedef struct strata_sparse_row_offsets_args {
  const int64_t *ukeys;
  int64_t nnz;
  int64_t num_cols;
  int64_t *row_offsets;
} strata_sparse_row_offsets_args_t;

/* --------------------------------------------------------------------------- CSR arrays */

/** Over r in [0, num_rows]: row_offsets[r] is bad when r == 0 and it is not 0, when r > 0 and it
 *  is below row_offsets[r - 1], or when r == num_rows and it is not nnz. MIN of the bad r. */
typedef struct strata_sparse_csr_offsets_check_args {
  const int64_t *row_offsets;
  int64_t num_rows;
  int64_t nnz;
} strata_sparse_csr_offsets_check_args_t;

/** Per row r in [0, num_rows) of valid row offsets:
 *  what == STRATA_SPARSE_CSR_UNSORTED: SUM of the rows whose columns are not strictly ascending
 *  (unsorted or with a duplicate); STRATA_SPARSE_CSR_MAX_LEN: MAX of the row lengths;
 *  STRATA_SPARSE_CSR_ROW_OF: SUM of the rows ending at or before entry `entry` (= the row holding
 *  that entry). */
enum { STRATA_SPARSE_CSR_UNSORTED = 0, STRATA_SPARSE_CSR_MAX_LEN = 1, STRATA_SPARSE_CSR_ROW_OF = 2 };
typedef struct strata_sparse_csr_rows_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int64_t entry;
  int what;
} strata_sparse_csr_rows_args_t;

/** rows[k] = r for every entry k of row r (a thread per row). */
typedef struct strata_sparse_csr_row_ids_args {
  const int64_t *row_offsets;
  int32_t *rows;
} strata_sparse_csr_row_ids_args_t;

/* --------------------------------------------------------------------------- SpMV */

/** y[i] = alpha * (A x)[i] + beta * y[i], a thread per row i. alpha == 0: A and x are not read;
 *  beta == 0: y is not read. */
typedef struct strata_sparse_spmv_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  const double *x;
  double *y;
  double alpha, beta;
} strata_sparse_spmv_args_t;

/* --------------------------------------------------------------------------- pack / unpack */

/** Packet layout (strata_packets_t): at data + offsets[k]: int64 count; int64 gids[count];
 *  double values[count]. STRATA_SPARSE_PACKET_BYTES(count) bytes, a multiple of 8. */
#define STRATA_SPARSE_PACKET_BYTES(count) (8 + 16 * (int64_t)(count))

/** Pack's arguments. offsets[k]: the packet sizes (strata_sparse_pack_sizes, rows listed), or at
 *  once the byte offsets (strata_sparse_pack_offsets, rows == NULL: they follow from row_offsets,
 *  no scan). Rows of more than long_min entries (long_rows != NULL) are listed in
 *  long_rows[0 .. *num_long) (in no particular order) and their entries written by a team each
 *  (strata_sparse_pack_long) instead of by the width lanes of strata_sparse_pack_rows (which then
 *  writes their header only). */
typedef struct strata_sparse_pack_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  const int32_t *rows;     /* NULL: identity */
  const int64_t *col_gids; /* [num_cols], NULL: identity */
  int64_t *offsets;        /* sizes, then (after the scan) byte offsets */
  unsigned char *data;
  int64_t num_rows;        /* packets */
  int64_t width;           /* lanes per packet in strata_sparse_pack_rows: a power of two */
  int64_t long_min;
  int64_t *long_rows, *num_long;
} strata_sparse_pack_args_t;

/* The unpack report buffer: int64 counters, then (row, col, kind) triples of examples (kind:
 * strata_unpack_example_kind_t, sparse.h). */
enum {
  STRATA_SPARSE_REP_ROWS = 0,      /* packets applied */
  STRATA_SPARSE_REP_ENTRIES = 1,   /* entries applied */
  STRATA_SPARSE_REP_BAD_ENTRY = 2, /* column not in the target row's pattern */
  STRATA_SPARSE_REP_BAD_ROW = 3,   /* target row out of range */
  STRATA_SPARSE_REP_MALFORMED = 4, /* packet inconsistent with its offsets / the buffer */
  STRATA_SPARSE_REP_NEXT = 5,      /* invalid items (examples: the first of them in packet order) */
  STRATA_SPARSE_REP_EXAMPLES = 6,  /* example e at [6 + 4e] (row), [7 + 4e] (global col), [8 + 4e] (kind), [9 + 4e] (packet) */
  STRATA_SPARSE_REP_MAX_EXAMPLES = 8
};
/* INSERT's count pass: places k where offsets[k + 1] < offsets[k] (the call is refused) */
#define STRATA_SPARSE_REP_EX_SLOTS 4
#define STRATA_SPARSE_REP_DESCENTS (STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * STRATA_SPARSE_REP_MAX_EXAMPLES)
/* entries of packets that the classification took for valid (their offsets are consistent) and
 * whose kernel found the stored count wrong: not applied, so not counted in entries_combined */
#define STRATA_SPARSE_REP_LATE_ENTRIES (STRATA_SPARSE_REP_DESCENTS + 1)
#define STRATA_SPARSE_REP_LEN (STRATA_SPARSE_REP_LATE_ENTRIES + 1)

/* Unpack classes by incoming entries: short (one-level), medium (three-level: a team per block
 * of packets, a thread per packet, its lanes over the entries) in two launches — MEDIUM with 8
 * lanes per packet and MEDIUM_WIDE with a warp per packet, so that packets of 5 and of 256 entries
 * do not share a team — long (two-level, a team per packet, sort + merge in scratch), very long
 * (chunks, a team per chunk). strata_unpack_class_t's MEDIUM is both medium launches. */
enum {
  STRATA_SPARSE_UNPACK_SHORT = 0,
  STRATA_SPARSE_UNPACK_MEDIUM = 1,
  STRATA_SPARSE_UNPACK_MEDIUM_WIDE = 2,
  STRATA_SPARSE_UNPACK_LONG = 3,
  STRATA_SPARSE_UNPACK_VERY_LONG = 4,
  STRATA_SPARSE_UNPACK_NUM_CLASSES = 5
};
/* The long class's scratch key of entry e with local column lid: (lid << 32) | e; invalid
 * columns (no local id) take lid = STRATA_SPARSE_UNPACK_NO_LID and sort to the end. */
#define STRATA_SPARSE_UNPACK_NO_LID ((int64_t)0x7fffffff)

/** Unpack-and-combine. Packet ids of the launched class: pkts[begin + i] for i in [0, count)
 *  (pkts NULL: i); only >= 0 (a dominant class, pkts NULL): every packet i in [0, count) whose
 *  cls[i] is `only`, the others skipped. mode ZERO validates without writing (strict mode's
 *  validation pass). */
typedef struct strata_sparse_unpack_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  double *values;
  int64_t num_rows, num_cols;
  const int32_t *import_rows;
  const int64_t *offsets;
  const unsigned char *data;
  int64_t num_bytes, num_packets;
  const int32_t *col_lids; /* [num_global], NULL: identity */
  int64_t num_global;
  /* or a hashed column map (strata_col_map_t): keys [map_mask + 1] global ids (-1: empty slot),
   * vals the local ids; map_keys NULL: not used */
  const int64_t *map_keys;
  const int32_t *map_vals;
  int64_t map_mask;
  int mode; /* strata_combine_mode_t: ADD, REPLACE, ABSMAX or ZERO */
  int64_t *report;
  int64_t *positions; /* strata_sparse_unpack_positions: [num_entries] each entry's position in values, or -1 */
  int64_t num_entries;
  /* classes */
  const int64_t *pkts;     /* packet ids grouped by class */
  int64_t begin, count;    /* the launched class: pkts[begin .. begin + count) */
  int64_t per_team;        /* medium: packets per team */
  int64_t chunk;           /* very long: entries per chunk */
  const int64_t *first_chunk; /* very long: [class count + 1] first chunk of each class packet */
  int64_t *bad_first;         /* examples (error path): [num_packets] invalid items, then ranks */
  const unsigned char *cls;   /* [num_packets] class of each packet (read when only >= 0) */
  int only;                   /* -1, or the dominant class launched over all packets */
  /* the one-level launch beside listed very long packets (the short class dominant): its first
   * vl_lanes indices are the very long chunks' entries, vl_width lanes a chunk (chunk q, lane l
   * at index q * vl_width + l), of the packets vl_pkts[0 .. vl_count) */
  const int64_t *vl_pkts;
  int64_t vl_lanes, vl_width, vl_count;
} strata_sparse_unpack_args_t;

/** GPUs, when very long packets exist: the classes but LONG in one launch (team: warp lanes x
 *  256/warp threads). Class c's packets are pkts[begin[c] .. begin[c] + count[c]); league ranks
 *  [0, end[0]) are the very long chunks, [end[0], end[1]) the wide packets (a team thread each),
 *  [end[1], end[2]) the medium packets (narrow lanes each), [end[2], end[3]) the short ones (a
 *  lane each). */
typedef struct strata_sparse_unpack_fused_args {
  strata_sparse_unpack_args_t u;
  int64_t begin[STRATA_SPARSE_UNPACK_NUM_CLASSES], count[STRATA_SPARSE_UNPACK_NUM_CLASSES];
  int64_t end[4];
  int64_t narrow;
  int only; /* -1, or a dominant class: count[only] = every packet, filtered by u.cls (pkts not read) */
} strata_sparse_unpack_fused_args_t;

/** The column map's hash table (strata_col_map_t): capacity mask + 1 (a power of two, at least
 *  twice the ids), open addressing with linear probing; keys -1 = empty. Build: a thread per
 *  local id l inserts gids[l] -> l by CAS; stats[0] += negative ids, stats[1] = the smallest such
 *  l, stats[2] += duplicates, stats[3] = the smallest l that found its id already there. Lookup:
 *  lids[i] = the local id of gids[i], -1 when it has none. */
typedef struct strata_col_map_args {
  const int64_t *gids;
  int32_t *lids;
  int64_t *keys;
  int32_t *vals;
  int64_t mask;
  int64_t *stats;
} strata_col_map_args_t;

/** INSERT (multi-pass, see strata_sparse_unpack_combine_opts): u's packet fields, col_lids and
 *  report as for the other modes (u.mode = INSERT counts packets and entries).
 *  count pass, a thread per packet k: cnt[k] = its entries with a local column id (the others are
 *  invalid, counted and reported; a malformed or out-of-range packet counts 0 and is reported);
 *  fill pass, after an exclusive scan of cnt: packet k's valid entries go to the COO at
 *  base + cnt[k] (rows, cols = local column, vals); copy pass, a thread per entry j of the target:
 *  cols[j] = its column, vals[j] = its value (the row ids come from strata_sparse_csr_row_ids). */
typedef struct strata_sparse_unpack_insert_args {
  strata_sparse_unpack_args_t u;
  int64_t *cnt;  /* [packets] */
  int64_t base;  /* the target's nnz: the packets' entries follow its own in the COO */
  int32_t *rows, *cols;
  double *vals;
} strata_sparse_unpack_insert_args_t;

/** The very long packets listed by the classification (vl_list[0, nv), any order) sorted by packet
 *  id in place, and first_chunk[0, nv] their first chunks (then the total): one team, nv at most
 *  STRATA_SPARSE_UNPACK_VL_LIST_MAX (2 x 8 bytes of team scratch each). */
#define STRATA_SPARSE_UNPACK_VL_LIST_MAX 1024
typedef struct strata_sparse_unpack_vl_list_args {
  int64_t *vl_list;
  const int64_t *counts;
  int64_t *first_chunk;
  int64_t nv, chunk;
} strata_sparse_unpack_vl_list_args_t;

/** Grouping packets by class (a stable partition in two passes over tiles of `tile` packets, a team
 *  per tile). Pass 1 (strata_sparse_unpack_classify): counts[k] = packet k's entry count from its
 *  span (-1: inconsistent offsets or its target row out of range: always the short class, whose
 *  kernel reports it; a wrong stored count is found by the kernel of the span's class),
 *  cls[k] = its class; tile_counts[c * ntiles + t] = tile t's packets of class c; stats (zeroed
 *  before) += the tile's totals (STRATA_SPARSE_UNPACK_STAT_*). The per-class counts of a tile are
 *  packed in one int64, FIELD_BITS bits per class, so that one team reduction or scan serves all
 *  classes: tile < 2^FIELD_BITS. Row NUM_CLASSES of tile_counts holds each tile's very long
 *  chunks. Pass 2 (strata_sparse_unpack_scatter), after one exclusive scan of all of tile_counts
 *  (so that row NUM_CLASSES holds n + the chunks of the tiles before): pkts[...] = k, and for a
 *  very long packet at class-local index i its first chunk in first_chunk[i] (nv of them, then
 *  first_chunk[nv] = the total).
 *  force >= 0: every valid packet in class force, except that long packets above long_cap (the
 *  scratch limit) go to very long. chunk: the very long class's entries per chunk. */
#define STRATA_SPARSE_UNPACK_FIELD_BITS 12
#define STRATA_SPARSE_UNPACK_TILE 2048
enum {
  STRATA_SPARSE_UNPACK_STAT_CLASS = 0,                                          /* [class] packets */
  STRATA_SPARSE_UNPACK_STAT_ENTRIES = STRATA_SPARSE_UNPACK_NUM_CLASSES,         /* of packets with a valid span and row */
  STRATA_SPARSE_UNPACK_STAT_LONG_MAX = STRATA_SPARSE_UNPACK_NUM_CLASSES + 1,    /* long class's largest */
  STRATA_SPARSE_UNPACK_STAT_CHUNKS = STRATA_SPARSE_UNPACK_NUM_CLASSES + 2,      /* very long chunks */
  STRATA_SPARSE_UNPACK_STAT_DESCENTS = STRATA_SPARSE_UNPACK_NUM_CLASSES + 3,    /* offsets[k+1] < offsets[k] */
  STRATA_SPARSE_UNPACK_STAT_VL_NEXT = STRATA_SPARSE_UNPACK_NUM_CLASSES + 4,     /* very long packets appended */
  STRATA_SPARSE_UNPACK_STAT_LEN = STRATA_SPARSE_UNPACK_NUM_CLASSES + 5
};
typedef struct strata_sparse_unpack_classify_args {
  const int32_t *import_rows;
  const int64_t *offsets; /* the packets' data is not read: strata_sparse_unpack_span */
  int64_t num_bytes;
  int64_t num_rows; /* of the target */
  int64_t n;        /* packets */
  int64_t max_len[STRATA_SPARSE_UNPACK_NUM_CLASSES]; /* short, medium, wide, long (<= long_cap), inf */
  int force;        /* -1: by max_len; else a class */
  int64_t long_cap; /* most entries the long class holds in scratch */
  int64_t chunk;
  int64_t tile, ntiles;
  int64_t *counts;      /* [n] */
  unsigned char *cls;   /* [n] */
  int64_t *tile_counts; /* [(NUM_CLASSES + 1) * ntiles] */
  int64_t *stats;       /* [STAT_LEN] */
  int64_t *pkts;        /* [n]; pass 1: the very long packets' list (below) */
  /* pass 1 also lists the very long packets in pkts[0 ..), in any order, the first
   * STRATA_SPARSE_UNPACK_VL_LIST_MAX of them (STAT_VL_NEXT counts the appends, and stops growing
   * soon after the limit), so that when every packet but the very long ones is in one dominant
   * class no second pass is needed (strata_sparse_unpack_vl_list sorts the few listed; why here
   * rather than in a pass of its own: perf/NOTES.md, "Eleventh session") */
  int64_t very_long_begin, nv, num_chunks; /* pass 2: the very long class's first position in
                                              pkts, its packets and chunks */
  int64_t *first_chunk; /* [nv + 1] */
  int skip;             /* pass 2: -1, or the dominant class, whose packets are not listed in pkts */
} strata_sparse_unpack_classify_args_t;

#ifdef __cplusplus
}
#endif
#endif
