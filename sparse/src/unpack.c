/* strata sparse — unpack-and-combine packets into a fill-complete CrsMatrix (DESIGN §4; Tpetra
 * CrsMatrix::unpackAndCombine, with aligned fields and every invalid entry reported): the class
 * plan (packets grouped by class on the device, one launch per class), INSERT's multi-pass path,
 * and the report. The packets are made in pack.c. Host code orchestrates; kernels in
 * sparse/kernels/pack.kl.c do the work. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pack_impl.h"

STRATA_KERNEL_DECLARE(strata_sparse_unpack_one_level);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_short_vl);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_medium);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_long);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_very_long);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_fused);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_bad_count);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_bad_list);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_classify);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_scatter);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_scatter_skip);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_vl_list);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_insert_count);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_insert_fill);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_insert_copy);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_first_descent);
STRATA_KERNEL_DECLARE(strata_sparse_unpack_locate);

/* unpack, GPUs: medium packets up to this many entries get 8 lanes, longer ones a warp */
#define STRATA_SPARSE_UNPACK_NARROW_MAX 32

_Static_assert(STRATA_SPARSE_UNPACK_TILE < (1 << STRATA_SPARSE_UNPACK_FIELD_BITS) &&
                   STRATA_SPARSE_UNPACK_NUM_CLASSES * STRATA_SPARSE_UNPACK_FIELD_BITS <= 63,
               "a tile's per-class counts fit their packed fields");
_Static_assert(STRATA_SPARSE_REP_MAX_EXAMPLES == STRATA_UNPACK_MAX_EXAMPLES,
               "device report slots match strata_unpack_report_t::examples");


/* The unpack arguments of target A and the packets (the rest zero) */
static strata_sparse_unpack_args_t unpack_args(const strata_crs_matrix_t *A, const int32_t *import_rows,
                                               const strata_packets_t *packets, const int32_t *col_lids,
                                               int64_t num_global) {
  strata_sparse_unpack_args_t a;
  memset(&a, 0, sizeof a);
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.num_rows = A->num_rows;
  a.num_cols = A->num_cols;
  a.import_rows = import_rows;
  a.offsets = packets->offsets;
  a.data = packets->data;
  a.num_bytes = packets->num_bytes;
  a.num_packets = packets->num_rows;
  a.col_lids = col_lids;
  a.num_global = num_global;
  return a;
}

/* The map's table in the unpack arguments (NULL map: the dense col_lids, or the identity) */
static void unpack_set_map(strata_sparse_unpack_args_t *a, const strata_col_map_t *map) {
  a->map_keys = map ? map->keys : NULL;
  a->map_vals = map ? map->vals : NULL;
  a->map_mask = map ? map->mask : 0;
}

static const char *mode_name(strata_combine_mode_t m) {
  switch (m) {
    case STRATA_COMBINE_ADD: return "ADD";
    case STRATA_COMBINE_REPLACE: return "REPLACE";
    case STRATA_COMBINE_ABSMAX: return "ABSMAX";
    case STRATA_COMBINE_INSERT: return "INSERT";
    case STRATA_COMBINE_ZERO: return "ZERO";
  }
  return "?";
}

/* Packet offsets that decrease anywhere (descents > 0 places, counted on the device) would let
 * packets overlap: a packet whose own offsets look right could read another's bytes. Nothing is
 * combined; INVALID_DATA names the first place. rep (zeroed by the caller) gets the report: the
 * places counted as malformed packets, and as examples the first of them in packet order, each
 * (import_rows[k], -1) for the packet k whose end offsets[k + 1] lies below its start, as the
 * other malformed packets are reported (a reduction per example, on this refused path only). */
static strata_status_t unpack_refuse_descents(strata_exec_t *exec, const strata_packets_t *packets,
                                              const int32_t *import_rows, int64_t descents,
                                              strata_combine_mode_t mode, int64_t *rep) {
  strata_sparse_unpack_classify_args_t ca;
  memset(&ca, 0, sizeof ca);
  ca.offsets = packets->offsets;
  ca.n = packets->num_rows;
  rep[STRATA_SPARSE_REP_MALFORMED] = descents;
  int64_t first = INT64_MAX, v[2] = {0, 0}, ne = 0;
  strata_status_t st = STRATA_SUCCESS;
  for (int64_t from = 0; st == STRATA_SUCCESS && ne < STRATA_SPARSE_REP_MAX_EXAMPLES && from < ca.n;) {
    int64_t k = INT64_MAX;
    int32_t row = 0;
    st = strata_parallel_reduce(exec, "strata_sparse_unpack_first_descent", strata_range(from, ca.n),
                                &strata_sparse_unpack_first_descent, &ca, STRATA_REDUCE_MIN, &k);
    if (st != STRATA_SUCCESS || k == INT64_MAX) break;
    st = strata_mem_copy(exec, &row, import_rows + k, sizeof row);
    rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * ne] = row;
    rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * ne + 1] = -1;
    rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * ne + 2] = STRATA_UNPACK_EXAMPLE_PACKET;
    rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * ne + 3] = k;
    if (ne++ == 0) first = k;
    from = k + 1;
  }
  rep[STRATA_SPARSE_REP_NEXT] = ne;
  if (st == STRATA_SUCCESS && first == INT64_MAX)
    return strata_error_set(STRATA_ERR_INTERNAL, "sparse_unpack_combine: %lld offset descents counted, none found",
                            (long long)descents);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, v, packets->offsets + first, sizeof v);
  if (st != STRATA_SUCCESS) return st;
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "sparse_unpack_combine (%s): packet offsets decrease at packet %lld (row %lld): "
                          "offsets[%lld] = %lld < offsets[%lld] = %lld (%lld such places; offsets must be "
                          "non-decreasing, else packets overlap); nothing was combined, the matrix is unchanged",
                          mode_name(mode), (long long)first, (long long)rep[STRATA_SPARSE_REP_EXAMPLES],
                          (long long)(first + 1), (long long)v[1], (long long)first, (long long)v[0],
                          (long long)descents);
}

/* Validates the arguments of unpack_combine (everything that lives on the host). */
static strata_status_t unpack_check(strata_exec_t **exec, strata_crs_matrix_t *A,
                                    const int32_t *import_rows, const strata_packets_t *packets,
                                    const int32_t *col_lids, int64_t num_global,
                                    strata_combine_mode_t mode, const strata_col_map_t *map) {
  if (!A || !packets)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_unpack_combine: NULL %s",
                            A ? "packets" : "matrix");
  strata_status_t st = strata_sparse_impl_exec(exec, A->exec, "sparse_unpack_combine");
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_exec(exec, packets->exec, "sparse_unpack_combine (packets)");
  if (st != STRATA_SUCCESS) return st;
  if (mode != STRATA_COMBINE_INSERT && mode != STRATA_COMBINE_ADD && mode != STRATA_COMBINE_REPLACE && mode != STRATA_COMBINE_ABSMAX &&
      mode != STRATA_COMBINE_ZERO)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: combine mode %d is not ADD (0), REPLACE (1), "
                            "ABSMAX (2), INSERT (3) or ZERO (4)",
                            (int)mode);
  if (!A->fill_complete && mode != STRATA_COMBINE_INSERT)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: the target matrix is not fill-complete (only "
                            "mode INSERT accepts that)");
  if (packets->num_rows < 0 || packets->num_bytes < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: packets with num_rows = %lld, num_bytes = %lld",
                            (long long)packets->num_rows, (long long)packets->num_bytes);
  /* the call's temporaries take 25 bytes a packet (unpack_plan_t, one allocation whose size
   * would wrap near 2^64 / 25 packets): a count no offsets array can hold is refused first */
  const int64_t packet_limit = (int64_t)1 << 40;
  if (packets->num_rows > packet_limit)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: packets->num_rows = %lld exceeds the limit 2^40 = %lld",
                            (long long)packets->num_rows, (long long)packet_limit);
  if (packets->num_rows > 0 && (!import_rows || !packets->offsets))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: NULL %s with %lld packets",
                            import_rows ? "packet offsets" : "import_rows", (long long)packets->num_rows);
  if (packets->num_rows == 0 && packets->num_bytes > 0) /* offsets[0] = 0 = offsets[num_rows] = num_bytes */
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: 0 packets but num_bytes = %lld (offsets[num_rows] must be the "
                            "buffer length: these bytes would be ignored)",
                            (long long)packets->num_bytes);
  if (packets->num_bytes > 0 && !packets->data)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_unpack_combine: NULL packet data with num_bytes = %lld",
                            (long long)packets->num_bytes);
  /* every field is read as an int64 or a double at data + a multiple of 8: a buffer that does
   * not start on 8 bytes (a receive buffer after a short header) would be read misaligned
   * (undefined behaviour on the host, a misaligned-address fault on GPUs) */
  if (packets->num_bytes > 0 && (uintptr_t)packets->data % 8 != 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: packet data %p is not 8-byte aligned (address %% 8 = %u; "
                            "every field is an int64 or a double at a multiple of 8 from data)",
                            (const void *)packets->data, (unsigned)((uintptr_t)packets->data % 8));
  if (packets->num_rows > 0 && (uintptr_t)packets->offsets % 8 != 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: packet offsets %p are not 8-byte aligned (address %% 8 = %u)",
                            (const void *)packets->offsets, (unsigned)((uintptr_t)packets->offsets % 8));
  if (packets->num_rows > 0 && (uintptr_t)import_rows % sizeof(int32_t) != 0) /* a review: it was read misaligned */
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: import_rows %p is not 4-byte aligned (address %% 4 = %u; int32 "
                            "row ids)",
                            (const void *)import_rows, (unsigned)((uintptr_t)import_rows % 4));
  if (num_global < 0) /* refused without col_lids too, where it is not read: bad input, not ignored */
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: num_global = %lld is negative (the limit is 0)",
                            (long long)num_global);
  if (map && col_lids)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: both col_lids and options.col_map given (one column map)");
  if (map) st = strata_sparse_impl_exec(exec, map->exec, "sparse_unpack_combine (col_map)");
  return st;
}

/* The report's examples when something was invalid: the first invalid items in packet order
 * (a thread per packet counts its items, a device scan ranks them, a thread per packet whose
 * first item ranks below the slots writes its items; error path only), into rep (host) from the
 * device report a.report; rep[NEXT] = every invalid item. a.mode says what is invalid (INSERT: a
 * column with no local id; else a column not in the row's pattern). */
static strata_status_t unpack_examples(strata_exec_t *exec, strata_sparse_unpack_args_t a, int64_t np, int64_t *rep) {
  int64_t total = 0;
  strata_status_t st = strata_mem_alloc_async(exec, (size_t)np * sizeof(int64_t), (void **)&a.bad_first);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_unpack_bad_count", strata_range(0, np),
                             &strata_sparse_unpack_bad_count, &a);
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, np, a.bad_first, a.bad_first, &total);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_unpack_bad_list", strata_range(0, np),
                             &strata_sparse_unpack_bad_list, &a);
  if (st == STRATA_SUCCESS)
    st = strata_mem_copy(exec, rep + STRATA_SPARSE_REP_EXAMPLES, a.report + STRATA_SPARSE_REP_EXAMPLES,
                         STRATA_SPARSE_REP_EX_SLOTS * STRATA_SPARSE_REP_MAX_EXAMPLES * sizeof(int64_t));
  if (st == STRATA_SUCCESS) rep[STRATA_SPARSE_REP_NEXT] = total;
  strata_mem_free_async(exec, (void **)&a.bad_first);
  return st;
}

static int rep_invalid(const int64_t *rep) {
  return rep[STRATA_SPARSE_REP_BAD_ENTRY] + rep[STRATA_SPARSE_REP_BAD_ROW] + rep[STRATA_SPARSE_REP_MALFORMED] > 0;
}

/* The class plan of one call: packets grouped by class on the device, each class's launch shape.
 * Its arrays are parts of one stream-ordered temporary (strata_mem_alloc_async: no device
 * synchronization to allocate or free it; one allocation, not seven: each allocation and free is
 * a runtime call the device waits for, as every call ends with a fence), 25 bytes a packet. */
typedef struct unpack_plan {
  int64_t bounds[STRATA_SPARSE_UNPACK_NUM_CLASSES + 1];
  void *arena;          /* owns the arrays below */
  int64_t *stats;       /* [STRATA_SPARSE_UNPACK_STAT_LEN], zeroed with rep */
  int64_t *rep;         /* [STRATA_SPARSE_REP_LEN] the device report, right after stats */
  int64_t *pkts;        /* [np] packet ids grouped by class */
  int64_t *counts;      /* [np] entries per packet (-1: invalid) */
  int64_t *nchunks;     /* very long: [class count + 1] first chunks, then the total (np + 1) */
  int64_t *tile_counts; /* [(classes + 1) x tiles]: packets per class, then chunks */
  unsigned char *cls;   /* [np] class of each packet */
  int64_t num_chunks, chunk, long_max_count;
  int medium_vl, medium_ts, medium_per_team, wide_vl, wide_ts, big_vl, big_ts;
  int gpu; /* warp > 1: very long chunks share one launch with the short and medium classes
              (plan_run_fused), unless listed beside a dominant short class (every backend) */
  int64_t valid_entries; /* the entries of packets whose span is consistent, with a row in range */
  int64_t descents; /* places where the packet offsets decrease: the call is refused */
  int identity;     /* one class holds every packet: pkts not written (packet i) */
  int dominant;     /* -1, or a class holding all but at most an eighth of the packets: launched
                       over every packet, the others skipped by their class byte; pkts lists
                       only the other classes' packets */
  int vl_listed;    /* beside a dominant class only very long packets, at most VL_LIST_MAX: pkts
                       lists them from 0 (the classification's list, sorted), no second pass */
} unpack_plan_t;

/* The first position in pkts of class c's packets */
static int64_t class_begin(const unpack_plan_t *p, int c) {
  return c == STRATA_SPARSE_UNPACK_VERY_LONG && p->vl_listed ? 0 : p->bounds[c];
}

static void plan_free(strata_exec_t *exec, unpack_plan_t *p) { strata_mem_free_async(exec, &p->arena); }

/* The plan's arrays for np packets in ntiles tiles, in one allocation (8-byte aligned parts; the
 * int64 ones first), stats and rep zeroed (one memset: they are adjacent). */
static strata_status_t plan_arena(strata_exec_t *exec, int64_t np, int64_t ntiles, unpack_plan_t *p) {
  const int64_t stat = STRATA_SPARSE_UNPACK_STAT_LEN + STRATA_SPARSE_REP_LEN;
  const int64_t tiles = ntiles * (STRATA_SPARSE_UNPACK_NUM_CLASSES + 1);
  const int64_t words = stat + np + np + (np + 1) + tiles;
  strata_status_t st = strata_mem_alloc_async(exec, (size_t)words * sizeof(int64_t) + (size_t)np, &p->arena);
  if (st != STRATA_SUCCESS) return st;
  p->stats = (int64_t *)p->arena;
  p->rep = p->stats + STRATA_SPARSE_UNPACK_STAT_LEN;
  p->pkts = p->stats + stat;
  p->counts = p->pkts + np;
  p->nchunks = p->counts + np;
  p->tile_counts = p->nchunks + np + 1;
  p->cls = (unsigned char *)(p->tile_counts + tiles);
  return strata_mem_set_async(exec, p->stats, 0, (size_t)stat * sizeof(int64_t));
}

#define UCHECK(call)                     \
  do {                                   \
    st = (call);                         \
    if (st != STRATA_SUCCESS) return st; \
  } while (0)

/* Classifies the packets on the device and groups them by class: a stable partition in two
 * passes over tiles of packets (strata_sparse_unpack_classify, a scan of the per-tile class
 * counts, strata_sparse_unpack_scatter; the identity, with no second pass, when one class other
 * than the very long one holds every packet; no second pass either beside a dominant class whose
 * only others are a few very long packets, which the first pass lists: vl_listed), whose first
 * pass also gives the totals the call needs (packets per class, the entries of packets with a
 * valid span and row, the long class's largest packet, the very long class's chunks): one
 * device-to-host copy. The scatter pass also writes the very long packets'
 * chunk counts, scanned into their first chunks. */
static strata_status_t plan_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                   const int32_t *import_rows, const strata_packets_t *packets,
                                   const strata_unpack_options_t *o, unpack_plan_t *p) {
  strata_status_t st;
  const int64_t np = packets->num_rows;
  p->dominant = -1;
  strata_device_info_t info;
  UCHECK(strata_exec_device_info(exec, &info));
  const int warp = strata_exec_is_host(exec) ? 1 : info.warp_size;
  const int gpu = warp > 1;
  const int64_t long_cap = (int64_t)(info.max_scratch_bytes / 16);
  const int64_t short_max = o->short_max ? o->short_max : gpu ? 4 : 64;
  /* host: one thread per packet with a binary search per entry beats sorting a packet in scratch
   * on one thread, so medium (dynamically scheduled blocks) reaches up to the very long class and
   * the long class is empty by default */
  const int64_t medium_max = o->medium_max ? o->medium_max : gpu ? 256 : 16384;
  /* GPUs: medium packets above 32 entries take a warp each (MEDIUM_WIDE), below 8 lanes each */
  const int64_t narrow_max = gpu && medium_max > STRATA_SPARSE_UNPACK_NARROW_MAX ? STRATA_SPARSE_UNPACK_NARROW_MAX
                                                                                 : medium_max;
  /* GPUs too: no long class unless asked for (the sort in scratch lost to the very long class's
   * binary searches at every length measured: sparse.h) */
  int64_t long_max = o->long_max ? o->long_max : medium_max;
  if (long_max > long_cap) long_max = long_cap;
  p->chunk = o->chunk ? o->chunk : gpu ? 2048 : 16384;
  p->medium_vl = gpu ? (warp < 8 ? warp : 8) : 1;
  p->medium_ts = gpu ? 256 / p->medium_vl : 1;
  p->medium_per_team = gpu ? p->medium_ts : 16;
  p->wide_vl = gpu ? warp : 1;
  p->wide_ts = gpu ? 256 / warp : 1;
  p->big_vl = gpu ? warp : 1;
  p->big_ts = gpu ? 256 / warp : 1;
  p->gpu = gpu;

  strata_sparse_unpack_classify_args_t ca;
  memset(&ca, 0, sizeof ca);
  ca.tile = STRATA_SPARSE_UNPACK_TILE;
  ca.ntiles = (np + ca.tile - 1) / ca.tile;
  UCHECK(plan_arena(exec, np, ca.ntiles, p));
  ca.import_rows = import_rows;
  ca.offsets = packets->offsets;
  ca.num_bytes = packets->num_bytes;
  ca.num_rows = A->num_rows;
  ca.n = np;
  ca.max_len[STRATA_SPARSE_UNPACK_SHORT] = short_max;
  ca.max_len[STRATA_SPARSE_UNPACK_MEDIUM] = narrow_max;
  ca.max_len[STRATA_SPARSE_UNPACK_MEDIUM_WIDE] = medium_max;
  ca.max_len[STRATA_SPARSE_UNPACK_LONG] = long_max;
  ca.max_len[STRATA_SPARSE_UNPACK_VERY_LONG] = INT64_MAX;
  /* the public classes: SHORT and MEDIUM at their own index, LONG and VERY_LONG after MEDIUM_WIDE */
  ca.force = o->force_class == STRATA_UNPACK_CLASS_AUTO ? -1
             : o->force_class <= STRATA_UNPACK_CLASS_MEDIUM ? (int)o->force_class - 1
                                                            : (int)o->force_class;
  ca.long_cap = long_cap;
  ca.chunk = p->chunk;
  ca.counts = p->counts;
  ca.cls = p->cls;
  ca.tile_counts = p->tile_counts;
  ca.stats = p->stats;
  ca.pkts = p->pkts;
  /* 512 threads a tile on GPUs: 4 packets a thread (H200, A/B in one call, 3 measurements each:
   * FEM job's unpack 0.51-0.55 -> 0.48-0.49 ms with 256 threads -> 512; 1024 no better; power
   * law and 27-point unchanged) */
  const int tile_ts = gpu ? 512 : 1;
  strata_team_policy_t tp = strata_team_policy(ca.ntiles, tile_ts, 1);
  UCHECK(strata_parallel_for_team(exec, "strata_sparse_unpack_classify", &tp, &strata_sparse_unpack_classify, &ca));
  int64_t stats[STRATA_SPARSE_UNPACK_STAT_LEN];
  UCHECK(strata_mem_copy(exec, stats, p->stats, sizeof stats)); /* the call's one wait for the device */
  p->bounds[0] = 0;
  for (int c = 0; c < STRATA_SPARSE_UNPACK_NUM_CLASSES; ++c)
    p->bounds[c + 1] = p->bounds[c] + stats[STRATA_SPARSE_UNPACK_STAT_CLASS + c];
  if (p->bounds[STRATA_SPARSE_UNPACK_NUM_CLASSES] != np)
    return strata_error_set(STRATA_ERR_INTERNAL, "sparse_unpack_combine: %lld packets classified of %lld",
                            (long long)p->bounds[STRATA_SPARSE_UNPACK_NUM_CLASSES], (long long)np);
  p->valid_entries = stats[STRATA_SPARSE_UNPACK_STAT_ENTRIES];
  p->long_max_count = stats[STRATA_SPARSE_UNPACK_STAT_LONG_MAX];
  p->num_chunks = stats[STRATA_SPARSE_UNPACK_STAT_CHUNKS];
  p->descents = stats[STRATA_SPARSE_UNPACK_STAT_DESCENTS];
  if (p->descents > 0) return STRATA_SUCCESS; /* the call is refused (unpack_refuse_descents) */
  /* every packet in one class (uniform rows: a stencil's, the FEM job's element rows) other than
   * the very long one (whose first chunks the scatter pass writes): the grouping is the identity,
   * kept as pkts NULL (packet i), and the scan and the scatter pass are not run */
  for (int c = 0; c < STRATA_SPARSE_UNPACK_NUM_CLASSES; ++c)
    if (c != STRATA_SPARSE_UNPACK_VERY_LONG && p->bounds[c + 1] - p->bounds[c] == np) {
      p->identity = 1;
      return STRATA_SUCCESS;
    }
  /* one class other than the long and very long ones holds all but at most an eighth of the
   * packets (the FEM job with bulk nodes: 4M short element rows beside a few very long ones): it
   * is launched over every packet, skipping the others by their class byte, and the scatter
   * pass lists the other classes only (its tiles that hold none return at once) */
  for (int c = STRATA_SPARSE_UNPACK_SHORT; c <= STRATA_SPARSE_UNPACK_MEDIUM_WIDE; ++c)
    if ((np - (p->bounds[c + 1] - p->bounds[c])) * 8 <= np) p->dominant = c;
  ca.skip = p->dominant;
  const int64_t nv = p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG + 1] - p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG];
  /* beside the dominant class only a few very long packets (the FEM job's bulk nodes): the
   * classification listed them; sorted, with their first chunks, by one team */
  if (p->dominant >= 0 && nv > 0 && nv <= STRATA_SPARSE_UNPACK_VL_LIST_MAX &&
      p->bounds[p->dominant + 1] - p->bounds[p->dominant] + nv == np) {
    if (stats[STRATA_SPARSE_UNPACK_STAT_VL_NEXT] != nv)
      return strata_error_set(STRATA_ERR_INTERNAL, "sparse_unpack_combine: %lld very long packets listed of %lld",
                              (long long)stats[STRATA_SPARSE_UNPACK_STAT_VL_NEXT], (long long)nv);
    p->vl_listed = 1;
    strata_sparse_unpack_vl_list_args_t va = {p->pkts, p->counts, p->nchunks, nv, p->chunk};
    strata_team_policy_t vp = strata_team_policy(1, gpu ? 256 : 1, 1);
    vp.scratch_team = (size_t)nv * 2 * sizeof(int64_t);
    return strata_parallel_for_team(exec, "strata_sparse_unpack_vl_list", &vp, &strata_sparse_unpack_vl_list, &va);
  }
  /* the scatter pass also writes each very long packet's first chunk (one scan of tile_counts,
   * whose last row is the tiles' chunks, serves both) */
  ca.first_chunk = p->nchunks;
  ca.nv = nv;
  ca.num_chunks = p->num_chunks;
  ca.very_long_begin = p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG];
  UCHECK(strata_scan_exclusive_i64(exec, ca.ntiles * (STRATA_SPARSE_UNPACK_NUM_CLASSES + 1), p->tile_counts,
                                   p->tile_counts, NULL));
  UCHECK(strata_parallel_for_team(exec, "strata_sparse_unpack_scatter", &tp,
                                  p->dominant >= 0 ? &strata_sparse_unpack_scatter_skip : &strata_sparse_unpack_scatter, &ca));
  return STRATA_SUCCESS;
}

/* GPUs with very long packets: the very long, wide, medium and short classes in one launch
 * (strata_sparse_unpack_fused; the very long chunks first). */
static strata_status_t plan_run_fused(strata_exec_t *exec, const unpack_plan_t *p, const strata_sparse_unpack_args_t *a) {
  strata_sparse_unpack_fused_args_t f;
  memset(&f, 0, sizeof f);
  f.u = *a;
  for (int c = 0; c < STRATA_SPARSE_UNPACK_NUM_CLASSES; ++c) {
    f.begin[c] = class_begin(p, c);
    f.count[c] = p->bounds[c + 1] - p->bounds[c];
  }
  f.only = p->dominant;
  if (p->dominant >= 0) { /* every packet, the other classes' skipped */
    f.begin[p->dominant] = 0;
    f.count[p->dominant] = p->bounds[STRATA_SPARSE_UNPACK_NUM_CLASSES];
  }
  const int64_t P = (int64_t)p->big_ts * p->big_vl;
  f.narrow = p->medium_vl;
  f.end[0] = p->num_chunks;
  f.end[1] = f.end[0] + (f.count[STRATA_SPARSE_UNPACK_MEDIUM_WIDE] + p->big_ts - 1) / p->big_ts;
  f.end[2] = f.end[1] + (f.count[STRATA_SPARSE_UNPACK_MEDIUM] * f.narrow + P - 1) / P;
  f.end[3] = f.end[2] + (f.count[STRATA_SPARSE_UNPACK_SHORT] + P - 1) / P;
  strata_team_policy_t pol = strata_team_policy(f.end[3], p->big_ts, p->big_vl);
  return strata_parallel_for_team(exec, "strata_sparse_unpack_fused", &pol, &strata_sparse_unpack_fused, &f);
}

/* One launch per non-empty class, with a's mode (ZERO: the strict validation pass); on GPUs with
 * very long packets, one launch for all classes but LONG (plan_run_fused); on every backend, the
 * listed very long packets beside a dominant short class in the short class's launch
 * (strata_sparse_unpack_short_vl). */
static strata_status_t plan_run(strata_exec_t *exec, const unpack_plan_t *p, strata_sparse_unpack_args_t a) {
  strata_status_t st = STRATA_SUCCESS;
  a.pkts = p->identity ? NULL : p->pkts;
  a.chunk = p->chunk;
  a.first_chunk = p->nchunks;
  a.cls = p->cls;
  a.only = -1;
  const int64_t *pkts = a.pkts;
  /* the short class dominant beside listed very long packets: one one-level launch takes both */
  const int flat = p->vl_listed && p->dominant == STRATA_SPARSE_UNPACK_SHORT;
  const int fused = !flat && p->gpu && p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG + 1] > p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG];
  if (fused) st = plan_run_fused(exec, p, &a);
  for (int c = 0; c < STRATA_SPARSE_UNPACK_NUM_CLASSES && st == STRATA_SUCCESS; ++c) {
    a.begin = class_begin(p, c);
    a.count = p->bounds[c + 1] - p->bounds[c];
    if (a.count == 0 || (fused && c != STRATA_SPARSE_UNPACK_LONG) || (flat && c == STRATA_SPARSE_UNPACK_VERY_LONG))
      continue;
    a.pkts = pkts;
    a.only = -1;
    if (c == p->dominant) { /* every packet, the other classes' skipped */
      a.pkts = NULL;
      a.begin = 0;
      a.count = p->bounds[STRATA_SPARSE_UNPACK_NUM_CLASSES];
      a.only = c;
    }
    strata_team_policy_t pol;
    switch (c) {
      case STRATA_SPARSE_UNPACK_SHORT:
        if (flat) {
          a.vl_width = (int64_t)p->big_ts * p->big_vl;
          a.vl_lanes = p->num_chunks * a.vl_width;
          a.vl_pkts = p->pkts;
          a.vl_count = p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG + 1] - p->bounds[STRATA_SPARSE_UNPACK_VERY_LONG];
        }
        st = flat ? strata_parallel_for(exec, "strata_sparse_unpack_short_vl", strata_range(0, a.vl_lanes + a.count),
                                        &strata_sparse_unpack_short_vl, &a)
                  : strata_parallel_for(exec, "strata_sparse_unpack_short", strata_range(0, a.count),
                                        &strata_sparse_unpack_one_level, &a);
        break;
      case STRATA_SPARSE_UNPACK_MEDIUM:
        a.per_team = p->medium_per_team;
        pol = strata_team_policy((a.count + a.per_team - 1) / a.per_team, p->medium_ts, p->medium_vl);
        st = strata_parallel_for_team(exec, "strata_sparse_unpack_medium", &pol, &strata_sparse_unpack_medium, &a);
        break;
      case STRATA_SPARSE_UNPACK_MEDIUM_WIDE: /* the medium kernel, a warp per packet */
        a.per_team = p->wide_ts;
        pol = strata_team_policy((a.count + a.per_team - 1) / a.per_team, p->wide_ts, p->wide_vl);
        st = strata_parallel_for_team(exec, "strata_sparse_unpack_medium_wide", &pol, &strata_sparse_unpack_medium, &a);
        break;
      case STRATA_SPARSE_UNPACK_LONG:
        pol = strata_team_policy(a.count, p->big_ts, p->big_vl);
        pol.scratch_team = (size_t)p->long_max_count * 16;
        st = strata_parallel_for_team(exec, "strata_sparse_unpack_long", &pol, &strata_sparse_unpack_long, &a);
        break;
      default:
        pol = strata_team_policy(p->num_chunks, p->big_ts, p->big_vl);
        st = strata_parallel_for_team(exec, "strata_sparse_unpack_very_long", &pol,
                                      &strata_sparse_unpack_very_long, &a);
    }
  }
  return st;
}

/* The device report (rep[STRATA_SPARSE_REP_LEN]) as the public one. */
static void report_from(const int64_t *rep, const unpack_plan_t *p, strata_unpack_report_t *r) {
  memset(r, 0, sizeof *r);
  r->rows_unpacked = rep[STRATA_SPARSE_REP_ROWS];
  r->entries_combined = rep[STRATA_SPARSE_REP_ENTRIES];
  r->invalid_entries = rep[STRATA_SPARSE_REP_BAD_ENTRY];
  r->invalid_rows = rep[STRATA_SPARSE_REP_BAD_ROW];
  r->malformed_packets = rep[STRATA_SPARSE_REP_MALFORMED];
  const int64_t ne = rep[STRATA_SPARSE_REP_NEXT];
  r->num_examples = (int32_t)(ne < STRATA_UNPACK_MAX_EXAMPLES ? ne : STRATA_UNPACK_MAX_EXAMPLES);
  for (int32_t e = 0; e < r->num_examples; ++e) {
    r->examples[e].row = rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * e];
    r->examples[e].col = rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * e + 1];
    r->examples[e].kind = (strata_unpack_example_kind_t)rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * e + 2];
    r->examples[e].packet = rep[STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * e + 3];
  }
  /* public classes: MEDIUM is both medium launches */
  const int64_t *b = p->bounds;
  r->class_packets[0] = b[STRATA_SPARSE_UNPACK_SHORT + 1] - b[STRATA_SPARSE_UNPACK_SHORT];
  r->class_packets[1] = b[STRATA_SPARSE_UNPACK_MEDIUM_WIDE + 1] - b[STRATA_SPARSE_UNPACK_MEDIUM];
  r->class_packets[2] = b[STRATA_SPARSE_UNPACK_LONG + 1] - b[STRATA_SPARSE_UNPACK_LONG];
  r->class_packets[3] = b[STRATA_SPARSE_UNPACK_VERY_LONG + 1] - b[STRATA_SPARSE_UNPACK_VERY_LONG];
}

/* INSERT, device-only and multi-pass: (1) count pass, a thread per packet: its entries with a
 * local column id, the rest (and bad packets) counted and reported; strict: stop here if any;
 * (2) A made fill-complete if it is not (strata_crs_fill_complete); (3) a device scan of the
 * counts; (4) COO of A's entries (row ids kernel + copy kernel) followed by the packets' valid
 * entries in packet order (fill kernel); (5) strata_crs_create_from_coo (device sort, duplicates
 * summed in input order: A's value first, then the packets' in order) builds the new matrix
 * whose arrays replace A's; growth = new nnz - old nnz. */
static strata_status_t unpack_insert(strata_exec_t *exec, strata_crs_matrix_t *A, const int32_t *import_rows,
                                     const strata_packets_t *packets, const int32_t *col_lids,
                                     int64_t num_global, const strata_unpack_options_t *o,
                                     int64_t *rep, int64_t *inserted) {
  const int64_t np = packets->num_rows;
  strata_sparse_unpack_insert_args_t a;
  memset(&a, 0, sizeof a);
  a.u = unpack_args(A, import_rows, packets, col_lids, num_global); /* A's arrays: set again once it is fill-complete */
  unpack_set_map(&a.u, o->col_map);
  a.u.mode = (int)STRATA_COMBINE_INSERT;
  int64_t *drep = NULL, total = 0;
  strata_crs_matrix_t *B = NULL;
  strata_status_t st = strata_sparse_impl_alloc(exec, (size_t)STRATA_SPARSE_REP_LEN * sizeof(int64_t), (void **)&drep);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, drep, 0, (size_t)STRATA_SPARSE_REP_LEN * sizeof(int64_t));
  a.u.report = drep;
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)np * sizeof(int64_t), (void **)&a.cnt);
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_sparse_unpack_insert_count", strata_range(0, np),
                             &strata_sparse_unpack_insert_count, &a);
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, rep, drep, (size_t)STRATA_SPARSE_REP_LEN * sizeof(int64_t));
  if (st == STRATA_SUCCESS && rep[STRATA_SPARSE_REP_DESCENTS] > 0) { /* refused: A untouched */
    const int64_t descents = rep[STRATA_SPARSE_REP_DESCENTS];
    memset(rep, 0, (size_t)STRATA_SPARSE_REP_LEN * sizeof(int64_t));
    st = unpack_refuse_descents(exec, packets, import_rows, descents, STRATA_COMBINE_INSERT, rep);
    goto done;
  }
  const int bad = st == STRATA_SUCCESS && rep_invalid(rep);
  if (bad) st = unpack_examples(exec, a.u, np, rep);
  if (bad && o->strict) { /* all or nothing: A untouched */
    rep[STRATA_SPARSE_REP_ROWS] = rep[STRATA_SPARSE_REP_ENTRIES] = 0;
    goto done;
  }
  if (st == STRATA_SUCCESS) st = strata_crs_fill_complete(exec, A);
  const int64_t base = A->nnz;
  if (st == STRATA_SUCCESS) st = strata_scan_exclusive_i64(exec, np, a.cnt, a.cnt, &total);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)(base + total) * sizeof(int32_t), (void **)&a.rows);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)(base + total) * sizeof(int32_t), (void **)&a.cols);
  if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, (size_t)(base + total) * sizeof(double), (void **)&a.vals);
  a.base = base;
  a.u.row_offsets = A->row_offsets;
  a.u.col_indices = A->col_indices;
  a.u.values = A->values;
  if (st == STRATA_SUCCESS && base > 0) {
    st = strata_sparse_impl_row_ids(exec, A->row_offsets, A->num_rows, a.rows);
    if (st == STRATA_SUCCESS)
      st = strata_parallel_for(exec, "strata_sparse_unpack_insert_copy", strata_range(0, base),
                               &strata_sparse_unpack_insert_copy, &a);
  }
  if (st == STRATA_SUCCESS && total > 0)
    st = strata_parallel_for(exec, "strata_sparse_unpack_insert_fill", strata_range(0, np),
                             &strata_sparse_unpack_insert_fill, &a);
  if (st == STRATA_SUCCESS)
    st = strata_crs_create_from_coo(exec, A->num_rows, A->num_cols, base + total, a.rows, a.cols, a.vals, &B);
  if (st == STRATA_SUCCESS) {
    *inserted = B->nnz - base;
    st = strata_sparse_impl_crs_replace(A, &B); /* A takes the merged arrays */
  }
done:;
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
  strata_sparse_impl_free(exec, drep);
  strata_sparse_impl_free(exec, a.cnt);
  strata_sparse_impl_free(exec, a.rows);
  strata_sparse_impl_free(exec, a.cols);
  strata_sparse_impl_free(exec, a.vals);
  return st;
}

/* The report's first example as the error message says it: the entry (row, global column) and its
 * packet; a packet whose row is out of range; or a malformed packet with what is wrong with it,
 * from its offsets and stored count (read back: the error path only), checked in the order of
 * strata_sparse_unpack_packet (pack.kl.c). */
static strata_status_t first_example(strata_exec_t *exec, const strata_packets_t *packets,
                                     const strata_unpack_report_t *r, char *out, size_t n) {
  const int64_t k = r->examples[0].packet, row = r->examples[0].row;
  if (r->examples[0].kind == STRATA_UNPACK_EXAMPLE_ENTRY) {
    snprintf(out, n, "row %lld, global column %lld (packet %lld)", (long long)row, (long long)r->examples[0].col,
             (long long)k);
    return STRATA_SUCCESS;
  }
  if (r->examples[0].kind == STRATA_UNPACK_EXAMPLE_ROW) {
    snprintf(out, n, "packet %lld for row %lld (row out of range)", (long long)k, (long long)row);
    return STRATA_SUCCESS;
  }
  int64_t o[2] = {0, 0}, c = 0;
  strata_status_t st = strata_mem_copy(exec, o, packets->offsets + k, sizeof o);
  if (st != STRATA_SUCCESS) return st;
  const int64_t np = packets->num_rows, nb = packets->num_bytes;
  char why[160];
  if (k == 0 && o[0] != 0)
    snprintf(why, sizeof why, "offsets[0] = %lld, not 0", (long long)o[0]);
  else if (k == np - 1 && o[1] != nb)
    snprintf(why, sizeof why, "offsets[%lld] = %lld, not the buffer's %lld bytes", (long long)np, (long long)o[1],
             (long long)nb);
  else if (o[0] < 0 || o[1] > nb)
    snprintf(why, sizeof why, "bytes [%lld, %lld) outside the buffer's %lld", (long long)o[0], (long long)o[1],
             (long long)nb);
  else if (o[0] % 8 != 0)
    snprintf(why, sizeof why, "offset %lld not a multiple of 8", (long long)o[0]);
  else if (o[1] - o[0] < 8)
    snprintf(why, sizeof why, "%lld bytes, less than its 8-byte count", (long long)(o[1] - o[0]));
  else {
    st = strata_mem_copy(exec, &c, packets->data + o[0], sizeof c);
    if (st != STRATA_SUCCESS) return st;
    if (c < 0)
      snprintf(why, sizeof why, "count %lld is negative", (long long)c);
    else
      snprintf(why, sizeof why, "count %lld needs 8 + 16 x %lld bytes, its span [%lld, %lld) has %lld", (long long)c,
               (long long)c, (long long)o[0], (long long)o[1], (long long)(o[1] - o[0]));
  }
  snprintf(out, n, "malformed packet %lld for row %lld (%s)", (long long)k, (long long)row, why);
  return STRATA_SUCCESS;
}

strata_status_t strata_sparse_unpack_combine(strata_exec_t *exec, strata_crs_matrix_t *A,
                                             const int32_t *import_rows,
                                             const strata_packets_t *packets,
                                             const int32_t *col_lids, int64_t num_global,
                                             strata_combine_mode_t mode,
                                             strata_unpack_report_t *report) {
  return strata_sparse_unpack_combine_opts(exec, A, import_rows, packets, col_lids, num_global, mode,
                                           NULL, report);
}

strata_status_t strata_sparse_unpack_combine_opts(strata_exec_t *exec, strata_crs_matrix_t *A,
                                                  const int32_t *import_rows,
                                                  const strata_packets_t *packets,
                                                  const int32_t *col_lids, int64_t num_global,
                                                  strata_combine_mode_t mode,
                                                  const strata_unpack_options_t *opts,
                                                  strata_unpack_report_t *report) {
  if (report) memset(report, 0, sizeof *report);
  strata_unpack_options_t o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  if ((int)o.force_class < STRATA_UNPACK_CLASS_AUTO || (int)o.force_class > STRATA_UNPACK_CLASS_VERY_LONG)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "sparse_unpack_combine: force_class %d is not AUTO (0) .. VERY_LONG (4)",
                            (int)o.force_class);
  const int64_t opt_val[4] = {o.short_max, o.medium_max, o.long_max, o.chunk};
  static const char *const opt_name[4] = {"short_max", "medium_max", "long_max", "chunk"};
  for (int i = 0; i < 4; ++i)
    if (opt_val[i] < 0)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "sparse_unpack_combine: option %s = %lld is negative (0: the default, else >= 1)",
                              opt_name[i], (long long)opt_val[i]);
  strata_status_t st = unpack_check(&exec, A, import_rows, packets, col_lids, num_global, mode, o.col_map);
  /* no packets: nothing to do, except that INSERT still makes A fill-complete */
  if (st != STRATA_SUCCESS || (packets->num_rows == 0 && mode != STRATA_COMBINE_INSERT)) return st;
  /* profiling regions (NVTX ranges on CUDA), each popped only if its push succeeded */
  const int region = strata_profile_push_region("strata_sparse_unpack_combine") == STRATA_SUCCESS;

  int64_t rep[STRATA_SPARSE_REP_LEN];
  memset(rep, 0, sizeof rep);
  unpack_plan_t plan;
  memset(&plan, 0, sizeof plan);
  int64_t inserted = 0;
  if (mode == STRATA_COMBINE_INSERT) { /* multi-pass; every packet counted as short (thread per packet) */
    st = unpack_insert(exec, A, import_rows, packets, col_lids, num_global, &o, rep, &inserted);
    for (int c = 1; c <= STRATA_SPARSE_UNPACK_NUM_CLASSES; ++c) plan.bounds[c] = packets->num_rows;
    goto report;
  }
  const int plan_region = strata_profile_push_region("strata_sparse_unpack_combine: plan") == STRATA_SUCCESS;
  st = plan_create(exec, A, import_rows, packets, &o, &plan);
  if (plan_region) strata_profile_pop_region();
  if (st == STRATA_SUCCESS && plan.descents > 0) {
    st = unpack_refuse_descents(exec, packets, import_rows, plan.descents, mode, rep);
    goto report;
  }
  strata_sparse_unpack_args_t a = unpack_args(A, import_rows, packets, col_lids, num_global);
  unpack_set_map(&a, o.col_map);
  int64_t *drep = plan.rep; /* zeroed by plan_create */
  a.report = drep;
  int validated_bad = 0;
  if (st == STRATA_SUCCESS && o.strict) { /* validation pass: no writes */
    a.mode = (int)STRATA_COMBINE_ZERO;
    st = plan_run(exec, &plan, a);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, rep, drep, sizeof rep);
    if (st == STRATA_SUCCESS) {
      validated_bad = rep_invalid(rep);
      st = validated_bad ? unpack_examples(exec, a, packets->num_rows, rep) : strata_mem_set_async(exec, drep, 0, sizeof rep);
    }
  }
  if (st == STRATA_SUCCESS && !validated_bad) {
    a.mode = (int)mode;
    st = plan_run(exec, &plan, a);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, rep, drep, sizeof rep);
    if (st == STRATA_SUCCESS && rep_invalid(rep)) st = unpack_examples(exec, a, packets->num_rows, rep);
    if (st == STRATA_SUCCESS && mode != STRATA_COMBINE_ZERO) { /* every valid entry not counted bad */
      /* the classification checked spans and rows; the kernels found the rest (stored counts) */
      rep[STRATA_SPARSE_REP_ROWS] = packets->num_rows - rep[STRATA_SPARSE_REP_MALFORMED] - rep[STRATA_SPARSE_REP_BAD_ROW];
      rep[STRATA_SPARSE_REP_ENTRIES] =
          plan.valid_entries - rep[STRATA_SPARSE_REP_LATE_ENTRIES] - rep[STRATA_SPARSE_REP_BAD_ENTRY];
    }
  }
  strata_status_t fst = strata_exec_fence(exec);
  if (st == STRATA_SUCCESS) st = fst;
report:;
  strata_unpack_report_t r;
  report_from(rep, &plan, &r);
  r.entries_inserted = inserted;
  plan_free(exec, &plan); /* stream-ordered frees: nothing to time */
  if (region) strata_profile_pop_region();
  if (st != STRATA_SUCCESS) {
    if (st == STRATA_ERR_INVALID_DATA && report) *report = r; /* decreasing offsets: counted there */
    return st;
  }
  if (report) *report = r;
  if (r.invalid_entries + r.invalid_rows + r.malformed_packets == 0) return STRATA_SUCCESS;
  char first[256];
  st = first_example(exec, packets, &r, first, sizeof first);
  if (st != STRATA_SUCCESS) return st;
  return strata_error_set(
      STRATA_ERR_INVALID_DATA,
      "sparse_unpack_combine (%s%s): %lld invalid entries (%s), "
      "%lld invalid rows (outside [0, %d)), %lld malformed packets (of %lld, buffer %lld bytes); "
      "first: %s; %s",
      mode_name(mode), o.strict ? ", strict" : "", (long long)r.invalid_entries,
      mode == STRATA_COMBINE_INSERT ? "global column with no local id" : "column not in the target row's pattern",
      (long long)r.invalid_rows, (int)A->num_rows, (long long)r.malformed_packets,
      (long long)packets->num_rows, (long long)packets->num_bytes, first,
      mode == STRATA_COMBINE_ZERO ? "ZERO: nothing was combined (the packets were only validated)"
      : o.strict                  ? "strict: nothing was combined, the matrix is unchanged"
                                  : "the valid entries were combined all the same");
}

strata_status_t strata_sparse_unpack_positions(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                               const int32_t *import_rows, const strata_packets_t *packets,
                                               const int32_t *col_lids, int64_t num_global, int64_t *positions,
                                               int64_t *num_invalid) {
  if (num_invalid) *num_invalid = 0;
  if (!num_invalid)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_unpack_positions: NULL num_invalid");
  strata_status_t st = unpack_check(&exec, (strata_crs_matrix_t *)A, import_rows, packets, col_lids, num_global,
                                    STRATA_COMBINE_ZERO, NULL);
  if (st != STRATA_SUCCESS) return st;
  const int64_t np = packets->num_rows;
  if (np == 0) return STRATA_SUCCESS;
  if (packets->num_bytes < 8 * np || (packets->num_bytes - 8 * np) % 16 != 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "sparse_unpack_positions: %lld bytes do not hold %lld packets of 8 + 16 c bytes",
                            (long long)packets->num_bytes, (long long)np);
  if ((packets->num_bytes - 8 * np) / 16 > 0 && !positions)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "sparse_unpack_positions: NULL positions with %lld entries",
                            (long long)((packets->num_bytes - 8 * np) / 16));
  int64_t *drep = NULL, rep[STRATA_SPARSE_REP_LEN];
  memset(rep, 0, sizeof rep);
  st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, sizeof rep, (void **)&drep);
  if (st == STRATA_SUCCESS) st = strata_mem_set_async(exec, drep, 0, sizeof rep);
  strata_sparse_unpack_args_t a = unpack_args(A, import_rows, packets, col_lids, num_global);
  a.mode = (int)STRATA_COMBINE_ZERO;
  a.report = drep;
  a.positions = positions;
  a.num_entries = (packets->num_bytes - 8 * np) / 16;
  strata_device_info_t info;
  if (st == STRATA_SUCCESS) st = strata_exec_device_info(exec, &info);
  if (st == STRATA_SUCCESS) { /* GPUs: a warp per packet; host: a thread per packet */
    const int lanes = strata_exec_is_host(exec) ? 1 : info.warp_size;
    strata_team_policy_t pol = strata_team_policy(np, 1, lanes);
    st = strata_parallel_for_team(exec, "strata_sparse_unpack_locate", &pol, &strata_sparse_unpack_locate, &a);
  }
  if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, rep, drep, sizeof rep);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&drep);
  if (st != STRATA_SUCCESS) return st;
  if (rep[STRATA_SPARSE_REP_MALFORMED] + rep[STRATA_SPARSE_REP_BAD_ROW] > 0)
    return strata_error_set(STRATA_ERR_INVALID_DATA,
                            "sparse_unpack_positions: %lld malformed packets and %lld with a target row outside [0, %d) "
                            "(of %lld packets): no positions",
                            (long long)rep[STRATA_SPARSE_REP_MALFORMED], (long long)rep[STRATA_SPARSE_REP_BAD_ROW],
                            (int)A->num_rows, (long long)np);
  *num_invalid = rep[STRATA_SPARSE_REP_BAD_ENTRY];
  return STRATA_SUCCESS;
}
