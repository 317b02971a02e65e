/* strata sparse — the row-class SpMV plan (see strata/spmv.h). Host code decides the classes and
 * launches; every pass over rows or entries is a kernel (sparse/kernels/spmv_plan.kl.c). */
#include <stdlib.h>
#include <string.h>

#include "sparse_impl.h"
#include "strata/spmv.h"

#include "../kernels/spmv_plan_args.h"

STRATA_KERNEL_DECLARE(strata_spmv_classify);
STRATA_KERNEL_DECLARE(strata_spmv_narrow);
STRATA_KERNEL_DECLARE(strata_spmv_chunk_count);
STRATA_KERNEL_DECLARE(strata_spmv_chunk_fill);
STRATA_KERNEL_DECLARE(strata_spmv_one_level);
STRATA_KERNEL_DECLARE(strata_spmv_two_level);
STRATA_KERNEL_DECLARE(strata_spmv_three_level);
STRATA_KERNEL_DECLARE(strata_spmv_split_chunks);
STRATA_KERNEL_DECLARE(strata_spmv_split_combine);
STRATA_KERNEL_DECLARE(strata_spmv_scale);
STRATA_KERNEL_DECLARE(strata_spmv_stream);
STRATA_KERNEL_DECLARE(strata_spmv_stream_padded);
STRATA_KERNEL_DECLARE(strata_spmv_fused);
STRATA_KERNEL_DECLARE(strata_spmv_fused_one);
STRATA_KERNEL_DECLARE(strata_spmv_blocks);
STRATA_KERNEL_DECLARE(strata_spmv_rowstat);
STRATA_KERNEL_DECLARE(strata_spmv_class_entries);

/* The rows with min_len <= length <= max_len of A: counted (entries 0) or their entries summed */
static strata_status_t rowstat(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t min_len, int64_t max_len,
                               int entries, int64_t mod, int64_t *out) {
  strata_spmv_rowstat_args_t s = {A->row_offsets, min_len, max_len, entries, mod};
  *out = 0;
  return strata_parallel_reduce(exec, "strata_spmv_rowstat", strata_range(0, A->num_rows), &strata_spmv_rowstat, &s,
                                STRATA_REDUCE_SUM, out);
}

/* GPU auto: whether a thread per row serves the short rows better than the stream level. Measured
 * on an H200 (strata bench, 2026-11-29): one-level beat the stream level on the 7-point stencil
 * (0.101 vs 0.124 ms) and on 4M rows of 8 beside 16 dense rows (0.207 vs 0.276 ms), lost on 3 per
 * row (0.157 vs 0.148) and on the power law (0.38 vs 0.29). So: at least 90 % of the entries of
 * rows up to stream_max lie in rows of at most 8 entries, and those rows average at least 5. */
static strata_status_t short_rows_one_level(strata_exec_t *exec, const strata_crs_matrix_t *A, int64_t stream_max,
                                            int *yes) {
  int64_t short_rows = 0, short_entries = 0, stream_entries = 0;
  strata_status_t st = rowstat(exec, A, 0, 8, 0, 0, &short_rows);
  if (st == STRATA_SUCCESS) st = rowstat(exec, A, 0, 8, 1, 0, &short_entries);
  if (st == STRATA_SUCCESS) st = rowstat(exec, A, 0, stream_max, 1, 0, &stream_entries);
  *yes = st == STRATA_SUCCESS && short_rows > 0 && (double)short_entries >= 0.9 * (double)stream_entries &&
         (double)short_entries >= 5.0 * (double)short_rows;
  return st;
}

/* GPU stream level: the longest row it takes by default. 512 rather than 1024: the team scratch
 * (stream_block + stream_max doubles) drops from 24 to 20 KiB, 8 teams of 256 fit an H200
 * multiprocessor instead of 6, and rows of 513..1024 entries go to the three-level class
 * (strata bench spmv, H200, 2026-11-29: power law 0.266 -> 0.251 ms, random 16/row 0.593 ->
 * 0.587, 3 per row 0.134 -> 0.131, 27-point unchanged at 0.126; 256 gave 0.255 on the power law). */
#define STREAM_MAX_DEFAULT 512
/* GPU stream level: rows + entries of a team's window: 2048 when the stream kernel runs alone (40
 * registers, 6 teams of 256 a multiprocessor: 1792 cost banded 16/row 0.3090 -> 0.3160 ms and
 * HMEp-like 0.2867 -> 0.2893, 1536 banded 0.3367; H200, 2026-11-30). */
#define STREAM_BLOCK_DEFAULT 2048
/* The forced stream level (algorithm STREAM) beside rows longer than stream_max: 1792, so that the
 * fused launch's 8 teams of 256 (32 registers) fit an H200's 164 KiB shared-memory configuration
 * instead of the 196 KiB one and x keeps about 92 KiB of L1 instead of 60 (power law 2.1, 3M rows:
 * 2048 0.2167 ms, 1792 0.1985, 1536 0.2011, 1024 0.2121; at 2048 with the carveout at 100 % 0.3397:
 * x's L1 hits carry the stream level). */
#define STREAM_BLOCK_LONG 1792
/* GPU auto with rows longer than STREAM_MAX_DEFAULT (the fused launch, strata_spmv_fused: the
 * stream level and the three-level and split rows in one launch): teams of FUSED_TEAM = 128
 * threads, windows of STREAM_BLOCK_FUSED = 896 rows + entries, stream rows up to STREAM_MAX_FUSED
 * = 128 entries (so the same 16 KiB or so of scratch per 256 threads as 8 teams of 256 with 1792 and
 * 512, and every stream row reduced by its thread's lanes: none is left for the whole team unless it
 * ends inside its window), three-level rows up to the split chunk (make_classes), and split chunks
 * of 1.5 x the launch's entries per resident team (nnz / (multiprocessors x 2048 / FUSED_TEAM))
 * rounded down to a multiple of 4096, from 4096 up to FUSED_CHUNK_MAX (larger chunks, fewer long
 * teams: likely fewer prologues of dependent loads before a team's first product; at twice that
 * share it was already slower, at three times a few long teams outlast the rest). H200,
 * 2026-11-30 (strata bench spmv, plan, ms; cuSPARSE CSR ALG1 in the same runs), before (teams of
 * 256, 1792, 512, chunks of 4096) -> after: power law 2.1 3M rows (longest 200k) 0.1996 -> 0.1915
 * (ALG1 0.1766-0.1770); 2.1 1M (100k) 0.0725 -> 0.0695 (0.0624); 2.1 6M (400k) 0.5897 -> 0.5700
 * (0.5497); 1.8 3M 1.4427 -> 1.3959 (1.1966); 2.5 3M 0.0837 -> 0.0803 (0.0788). The parts alone
 * on the first: teams of 128 with 896 and 128, chunks of 4096: 0.1946; chunks of 8192 / 16384 /
 * 32768: 0.1915 / 0.1876 / 0.2322 (the tail: a few teams still streaming when the rest are done);
 * teams of 64 (448, 128): 0.2173; teams of 256, chunks of 16384: 0.1947. With the split rows
 * added in the launch (strata_spmv_chunk_done) and chunks of 1.5 x the share (10.6k entries on
 * 132 multiprocessors: 12288): 0.1846 (ALG1 0.1764); 1M 0.0658 (0.0623), 6M 0.5789 (0.5617),
 * 2.5 3M 0.0751 (0.0784). perf/NOTES.md, sixteenth session, has the sweeps. */
#define STREAM_BLOCK_FUSED 896
#define STREAM_MAX_FUSED 128
#define FUSED_TEAM 128
#define FUSED_CHUNK_MAX 65536

/* GPU stream level: rows longer than this are reduced by the whole team (spmv_plan.kl.c). H200
 * (scripts/gpu-ab, 2026-11-30, plan on the power law 2.1, 3M rows): none 0.2477 / 0.2484 ms, 64:
 * 0.2496, 128: 0.2410 / 0.2414 (27-point 0.126 -> 0.122; random 16/row, 3/row unchanged). */
#define STREAM_TEAM_MIN_DEFAULT 128

/* GPU fused launch of one-level and long rows (strata_spmv_fused_one): products staged at a time in
 * a long row (16 KiB of team scratch; 8 teams of 256 a multiprocessor take 128 KiB) */
#define FUSED_ONE_STAGE 2048

/* team scratch of the stream level (and of the fused launch, whose long rows are staged in the
 * same products): stage_max = block + stream_max doubles of products, then the list of
 * team-reduced rows (an int32 count and its entries) */
static size_t stream_scratch(int64_t block, int64_t stream_max, int pad) {
  const int64_t n = block + stream_max;
  return (size_t)(pad ? STRATA_SPMV_STAGE_PADDED(n) : n) * sizeof(double) +
         (size_t)(STRATA_SPMV_STREAM_LIST(block + stream_max, STREAM_TEAM_MIN_DEFAULT) + 1) * sizeof(int32_t);
}

struct strata_spmv_plan {
  strata_exec_t *exec;
  int32_t num_rows, num_cols;
  int64_t nnz;
  int num_classes;
  strata_spmv_class_t classes[STRATA_SPMV_MAX_CLASSES];
  int64_t begin[STRATA_SPMV_MAX_CLASSES]; /* class c's rows: rows[begin[c] .. begin[c] + num_rows) */
  int rows_per_team[STRATA_SPMV_MAX_CLASSES];
  int32_t *rows;        /* [num_rows] row ids grouped by class, ascending within a class */
  int identity;         /* one class holds every row in order: rows is not read */
  /* split rows (at most one split class) */
  int split_class;      /* -1: none */
  int64_t split_chunk;
  int64_t num_chunks;
  int32_t *chunk_row;   /* [num_chunks] class-local row index */
  int64_t *chunk_begin; /* [num_chunks] first entry */
  int64_t *first;       /* [class rows + 1] first chunk of each split row */
  double *partial;      /* [num_chunks] */
  int32_t *ticket;      /* [class rows] chunks done in a fused launch (strata_spmv_chunk_done) */
  /* stream level (at most one stream class) */
  int64_t stream_block, stream_max, num_blocks;
  int stream_padded;    /* the stream kernel alone, its products in the padded layout */
  int32_t *block_row;   /* [num_blocks + 1] */
  /* transpose plans: A^T and its plan (the fields above then describe A, for validation) */
  strata_crs_matrix_t *At;
  strata_sparse_coo_map_t At_map; /* A's entries -> A^T's: A^T's values are refreshed from A's */
  int At_fill_complete;           /* A->fill_complete at the build: the map follows A's storage order */
  struct strata_spmv_plan *inner;
};

static void add_class(strata_spmv_plan_t *p, strata_spmv_level_t level, int vl, int ts,
                      int64_t min_len, int64_t max_len, int rows_per_team) {
  strata_spmv_class_t *c = &p->classes[p->num_classes];
  memset(c, 0, sizeof *c);
  c->level = level;
  c->vector_length = vl;
  c->team_size = ts;
  c->min_len = min_len;
  c->max_len = max_len;
  p->rows_per_team[p->num_classes] = rows_per_team;
  p->num_classes++;
}

/* The options alone, before any work on the matrix (a transpose plan builds A^T first): lengths
 * beyond 2^40 entries (so that no sum of thresholds can overflow), negative values, the algorithm,
 * and where the stream level can run (GPU auto, or forced) its team scratch against the device's.
 * The thresholds' order is checked with the class table (make_classes). */
static strata_status_t check_options(const strata_spmv_options_t *o, int gpu, size_t max_scratch) {
  if (o->transpose != 0 && o->transpose != 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: transpose = %d (0: op(A) = A, 1: A^T)",
                            (int)o->transpose);
  const int64_t lim = (int64_t)1 << 40;
  const int64_t given[6] = {o->one_level_max, o->two_level_max, o->three_level_max, o->split_chunk, o->stream_max,
                            o->stream_block};
  static const char *const given_name[6] = {"one_level_max", "two_level_max", "three_level_max", "split_chunk",
                                            "stream_max", "stream_block"};
  for (int q = 0; q < 6; ++q)
    if (given[q] > lim)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: %s = %lld exceeds the limit 2^40 = %lld",
                              given_name[q], (long long)given[q], (long long)lim);
  if (o->one_level_max < 0 || o->two_level_max < 0 || o->three_level_max < 0 || o->split_chunk < 0 ||
      o->entries_per_lane < 0 || o->stream_max < 0 || o->stream_block < 0)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "spmv plan: negative option (one %lld, two %lld, three %lld, chunk %lld, lane %d, "
                            "stream_max %lld, stream_block %lld)",
                            (long long)o->one_level_max, (long long)o->two_level_max, (long long)o->three_level_max,
                            (long long)o->split_chunk, o->entries_per_lane, (long long)o->stream_max,
                            (long long)o->stream_block);
  if (o->stream_pad < -1 || o->stream_pad > 1)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: stream_pad %d is not -1 (never), 0 (auto) or 1 (always)",
                            o->stream_pad);
  if ((int)o->algorithm < STRATA_SPMV_AUTO || (int)o->algorithm > STRATA_SPMV_STREAM)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: algorithm %d is not 0..5", (int)o->algorithm);
  const int64_t smax = o->stream_max ? o->stream_max : STREAM_MAX_DEFAULT;
  const int64_t sblock = o->stream_block ? o->stream_block : STREAM_BLOCK_DEFAULT;
  const size_t need = stream_scratch(sblock, smax, 0); /* the padded layout only where it fits */
  if (((gpu && o->algorithm == STRATA_SPMV_AUTO) || o->algorithm == STRATA_SPMV_STREAM) && need > max_scratch)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "spmv plan: stream_max %lld and stream_block %lld (in force; 0 given = default) need "
                            "%zu bytes of team scratch (their sum in doubles and a list of rows), above the %zu "
                            "bytes of this device",
                            (long long)smax, (long long)sblock, need, max_scratch);
  return STRATA_SUCCESS;
}

/* Whether the stream class c, launched alone (no three-level or split rows, which would share the
 * fused launch), stages its products in the padded layout, where the padded scratch fits the
 * device's teams (max_scratch; the layout is a speed-up, never a reason to refuse): always or never
 * as options.stream_pad says; by default on GPUs (gpu) with 1 or 2 lanes per row when at least half
 * of the nonempty rows that lanes reduce (up to stream_team_min = 128 entries: all such rows are
 * the class's here) have lengths that are multiples of 4 x lanes. Their rows then start at
 * multiples of 4 x lanes doubles, and the 16 participants of a half-warp (16 / lanes rows) meet
 * at least 4-fold in one of the 16 bank pairs at each step (8-fold on rows of 16 with 2 lanes,
 * 16-fold with 1); the padding spreads them. With 4 lanes or more the padding gains little in this
 * model (rows of 16 with 4 lanes: 4-fold either way) and was not measured; elsewhere it costs its
 * index arithmetic (strata_spmv_stream_padded). Sets p->stream_padded and classes[c].padded. */
static strata_status_t stream_padded(strata_exec_t *exec, const strata_crs_matrix_t *A, strata_spmv_plan_t *p, int c,
                                     int stream_pad, int gpu, size_t max_scratch) {
  for (int k = 0; k < p->num_classes; ++k)
    if ((p->classes[k].level == STRATA_SPMV_LEVEL_THREE || p->classes[k].level == STRATA_SPMV_LEVEL_SPLIT) &&
        p->classes[k].num_rows > 0)
      return STRATA_SUCCESS; /* the fused launch: unpadded */
  if (stream_pad < 0 || stream_scratch(p->stream_block, p->stream_max, 1) > max_scratch) return STRATA_SUCCESS;
  const int lanes = p->classes[c].vector_length;
  int pad = stream_pad > 0;
  if (!pad && gpu && lanes <= 2) {
    int64_t aligned = 0, rows = 0;
    strata_status_t st = rowstat(exec, A, 1, STREAM_TEAM_MIN_DEFAULT, 0, 4 * (int64_t)lanes, &aligned);
    if (st == STRATA_SUCCESS) st = rowstat(exec, A, 1, STREAM_TEAM_MIN_DEFAULT, 0, 0, &rows);
    if (st != STRATA_SUCCESS) return st;
    pad = rows > 0 && 2 * aligned >= rows;
  }
  p->stream_padded = p->classes[c].padded = pad;
  return STRATA_SUCCESS;
}

/* The class table from the options, the device (GPU: warp > 1) and the mean row length. */
static strata_status_t make_classes(strata_spmv_plan_t *p, const strata_spmv_options_t *o, int warp, double mean,
                                    int short_one_level, int64_t long_rows, int64_t nnz, int multiprocessors) {
  const int gpu = warp > 1;
  /* per-length one/two-level classes: host; GPU when asked for, or when nearly all the rows the
   * stream level would take are short (short_rows_one_level) */
  const int classic = !gpu || o->one_level_max || o->two_level_max || short_one_level;
  /* GPU auto, the stream level beside rows longer than stream_max (the fused launch): its own
   * team, window and thresholds (STREAM_BLOCK_FUSED) */
  const int fused = gpu && !classic && long_rows && o->algorithm == STRATA_SPMV_AUTO;
  p->stream_max = o->stream_max ? o->stream_max : fused ? STREAM_MAX_FUSED : STREAM_MAX_DEFAULT;
  p->stream_block = o->stream_block   ? o->stream_block
                    : fused ? STREAM_BLOCK_FUSED
                    : gpu && long_rows ? STREAM_BLOCK_LONG
                                       : STREAM_BLOCK_DEFAULT;
  int svl = 1; /* stream lanes per row: nextpow2(ceil(mean / entries per lane)), up to the warp */
  while (gpu && svl < warp && svl * (o->entries_per_lane > 0 ? o->entries_per_lane : 4) < mean) svl *= 2;
  /* By default, when no row is longer than stream_max (the stream kernel alone), no more lanes
   * than leave a thread for each of a window's rows (about stream_block / (mean + 1)), so that
   * the rows of a window are reduced in one pass over the team's 256 / svl threads: more rows a
   * thread, each with more lanes, lost on every such matrix. H200 (strata bench spmv, plan,
   * 2026-11-30, two rounds; lanes 8 / 4 / 2 / 1): 27-point 100^3 0.1174 / 0.1058 / 0.0978 /
   * 0.0982 ms (cuSPARSE ALG1 0.1086); HMEp-like (mean 12.9) lanes 4 / 2 / 1: 0.2745 / 0.2489 /
   * 0.2445; banded and random 16/row lanes 4 / 2: equal within 0.5 %, lanes 1 on banded 0.374
   * (each thread's row 16 doubles after its neighbour's: one shared-memory bank). Beside longer
   * rows (the fused launch) the mean lanes stay: the power law 2.1 with 1 lane instead of 2 0.1980
   * -> 0.2000 (its short rows' lengths vary: a thread's serial sum waits on its longest). */
  if (gpu && o->entries_per_lane <= 0 && !long_rows)
    while (svl > 1 && (double)(256 / svl) * (mean + 1.0) < (double)p->stream_block) svl /= 2;
  int64_t one_max = o->one_level_max ? o->one_level_max : gpu ? 8 : 32;
  int64_t two_max = o->two_level_max ? o->two_level_max : gpu ? 256 : 8192;
  /* the fused launch's chunk C (STREAM_BLOCK_FUSED): 1.5 nnz / (multiprocessors x 2048 /
   * FUSED_TEAM) rounded down to a multiple of 4096, within [4096, FUSED_CHUNK_MAX]; its
   * three-level rows go up to C, and at least to the first multiple of 4096 above a stream_max
   * given (so that the default thresholds increase whatever the matrix and device) */
  int64_t fused_chunk = 4096, fused_three = 4096;
  if (fused) {
    const int64_t slots = (int64_t)(multiprocessors > 0 ? multiprocessors : 1) * (2048 / FUSED_TEAM);
    const int64_t c = nnz / 2 * 3 / slots / 4096 * 4096; /* nnz <= 2^40: no overflow */
    fused_chunk = c < 4096 ? 4096 : c > FUSED_CHUNK_MAX ? FUSED_CHUNK_MAX : c;
    fused_three = p->stream_max < fused_chunk ? fused_chunk : (p->stream_max / 4096 + 1) * 4096;
  }
  int64_t chunk = o->split_chunk ? o->split_chunk : gpu ? (classic ? 8192 : fused_chunk) : 16384;
  int64_t three_max = o->three_level_max ? o->three_level_max : gpu ? (classic ? 32768 : fused_three) : 65536;
  const int64_t epl = o->entries_per_lane > 0 ? o->entries_per_lane : 4;
  const int team = gpu ? 256 / warp : 1;      /* three-level / split: 256 threads on GPUs */
  const int64_t inf = INT64_MAX;
  p->split_chunk = chunk;
  p->num_classes = 0;
  /* two-level classes: one per vector length (GPU); one with a lane per row on the host */
#define TWO_LEVEL_CLASSES(lo, hi)                                                               \
  do {                                                                                          \
    if (!gpu) {                                                                                 \
      add_class(p, STRATA_SPMV_LEVEL_TWO, 1, 1, lo, hi, 16);                                   \
    } else {                                                                                    \
      int64_t from = lo;                                                                        \
      for (int vl = 2; vl <= warp && from <= (hi); vl *= 2) {                                   \
        int64_t to = vl == warp ? (hi) : vl * epl;                                              \
        if (to > (hi)) to = (hi);                                                               \
        if (to >= from) add_class(p, STRATA_SPMV_LEVEL_TWO, vl, 256 / vl, from, to, 256 / vl);  \
        from = to + 1;                                                                          \
      }                                                                                         \
    }                                                                                           \
  } while (0)
  switch (o->algorithm) {
    case STRATA_SPMV_ONE_LEVEL: add_class(p, STRATA_SPMV_LEVEL_ONE, 1, 1, 0, inf, 0); break;
    case STRATA_SPMV_TWO_LEVEL: TWO_LEVEL_CLASSES(0, inf); break;
    case STRATA_SPMV_THREE_LEVEL: add_class(p, STRATA_SPMV_LEVEL_THREE, gpu ? warp : 1, team, 0, inf, 1); break;
    case STRATA_SPMV_SPLIT: add_class(p, STRATA_SPMV_LEVEL_SPLIT, gpu ? warp : 1, team, 0, inf, 1); break;
    case STRATA_SPMV_STREAM:
      add_class(p, STRATA_SPMV_LEVEL_STREAM, svl, gpu ? 256 / svl : 1, 0, p->stream_max, 0);
      add_class(p, STRATA_SPMV_LEVEL_THREE, gpu ? warp : 1, team, p->stream_max + 1, inf, 1);
      break;
    default:
      if (!classic) { /* GPU: stream, three-level, split */
        if (!(p->stream_max < three_max))
          return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: thresholds must increase: stream %lld, three-level %lld",
                                  (long long)p->stream_max, (long long)three_max);
        /* the fused launch runs the long rows with the stream class's team shape */
        const int lvl = fused ? svl : warp, lts = fused ? FUSED_TEAM / svl : team;
        add_class(p, STRATA_SPMV_LEVEL_STREAM, svl, (fused ? FUSED_TEAM : 256) / svl, 0, p->stream_max, 0);
        add_class(p, STRATA_SPMV_LEVEL_THREE, lvl, lts, p->stream_max + 1, three_max, 1);
        add_class(p, STRATA_SPMV_LEVEL_SPLIT, lvl, lts, three_max + 1, inf, 1);
        break;
      }
      if (!(one_max < two_max && two_max < three_max))
        return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                                "spmv plan: thresholds must increase: one-level %lld, two-level %lld, three-level %lld",
                                (long long)one_max, (long long)two_max, (long long)three_max);
      add_class(p, STRATA_SPMV_LEVEL_ONE, 1, 1, 0, one_max, 0);
      TWO_LEVEL_CLASSES(one_max + 1, two_max);
      add_class(p, STRATA_SPMV_LEVEL_THREE, gpu ? warp : 1, team, two_max + 1, three_max, 1);
      add_class(p, STRATA_SPMV_LEVEL_SPLIT, gpu ? warp : 1, team, three_max + 1, inf, 1);
  }
#undef TWO_LEVEL_CLASSES
  if (p->num_classes > STRATA_SPMV_MAX_CLASSES)
    return strata_error_set(STRATA_ERR_INTERNAL, "spmv plan: %d classes exceed %d", p->num_classes, STRATA_SPMV_MAX_CLASSES);
  return STRATA_SUCCESS;
}

strata_status_t strata_spmv_plan_destroy(strata_spmv_plan_t **plan) {
  if (!plan || !*plan) return STRATA_SUCCESS;
  strata_spmv_plan_t *p = *plan;
  strata_sparse_impl_free(p->exec, p->rows);
  strata_sparse_impl_free(p->exec, p->chunk_row);
  strata_sparse_impl_free(p->exec, p->chunk_begin);
  strata_sparse_impl_free(p->exec, p->first);
  strata_sparse_impl_free(p->exec, p->partial);
  strata_sparse_impl_free(p->exec, p->ticket);
  strata_sparse_impl_free(p->exec, p->block_row);
  strata_spmv_plan_destroy(&p->inner);
  strata_crs_destroy(&p->At);
  strata_sparse_impl_coo_map_free(p->exec, &p->At_map);
  free(p);
  *plan = NULL;
  return STRATA_SUCCESS;
}

#define CHECK(call)                      \
  do {                                   \
    st = (call);                         \
    if (st != STRATA_SUCCESS) goto fail; \
  } while (0)

strata_status_t strata_spmv_plan_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                        const strata_spmv_options_t *opts,
                                        strata_spmv_plan_t **plan) {
  if (!A || !plan) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan: NULL %s", A ? "plan" : "matrix");
  *plan = NULL;
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "spmv_plan_create");
  if (st != STRATA_SUCCESS) return st;
  strata_spmv_options_t o;
  memset(&o, 0, sizeof o);
  if (opts) o = *opts;
  strata_spmv_plan_t *p = (strata_spmv_plan_t *)calloc(1, sizeof *p);
  if (!p) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "spmv plan: %zu bytes", sizeof *p);
  p->exec = exec;
  p->num_rows = A->num_rows;
  p->num_cols = A->num_cols;
  p->nnz = A->nnz;
  p->split_class = -1;
  int64_t *keys = NULL, *perm = NULL, *nchunks = NULL;
  strata_device_info_t info;
  CHECK(strata_exec_device_info(exec, &info));
  CHECK(check_options(&o, !strata_exec_is_host(exec) && info.warp_size > 1, info.max_scratch_bytes));
  if (o.transpose) {
    strata_spmv_options_t oi = o;
    oi.transpose = 0;
    CHECK(strata_sparse_impl_transpose_map(exec, A, &p->At, &p->At_map));
    p->At_fill_complete = A->fill_complete;
    CHECK(strata_spmv_plan_create(exec, p->At, &oi, &p->inner));
    p->num_classes = p->inner->num_classes;
    memcpy(p->classes, p->inner->classes, sizeof p->classes);
    *plan = p;
    return STRATA_SUCCESS;
  }
  int short_one = 0;
  int64_t long_rows = 0; /* rows above stream_max, where the GPU stream level can run (they choose
                            its default window and lanes: make_classes) */
  const int64_t smax = o.stream_max > 0 ? o.stream_max : STREAM_MAX_DEFAULT;
  if (!strata_exec_is_host(exec) && A->num_rows > 0 && o.algorithm == STRATA_SPMV_AUTO)
    CHECK(short_rows_one_level(exec, A, smax, &short_one));
  if (!strata_exec_is_host(exec) && A->num_rows > 0 &&
      (o.algorithm == STRATA_SPMV_AUTO || o.algorithm == STRATA_SPMV_STREAM))
    CHECK(rowstat(exec, A, smax + 1, INT64_MAX, 0, 0, &long_rows));
  CHECK(make_classes(p, &o, strata_exec_is_host(exec) ? 1 : info.warp_size,
                     A->num_rows > 0 ? (double)A->nnz / (double)A->num_rows : 0.0, short_one, long_rows, A->nnz,
                     info.multiprocessors));
  const int64_t n = A->num_rows;
  if (n > 0) {
    /* classify rows, group them by class with a stable device sort of (class, row) keys */
    CHECK(strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int64_t), (void **)&keys));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int64_t), (void **)&perm));
    CHECK(strata_sparse_impl_alloc(exec, (size_t)n * sizeof(int32_t), (void **)&p->rows));
    strata_spmv_classify_args_t ca;
    memset(&ca, 0, sizeof ca);
    ca.row_offsets = A->row_offsets;
    ca.num_rows = n;
    ca.num_classes = p->num_classes;
    for (int c = 0; c < p->num_classes; ++c) {
      ca.max_len[c] = p->classes[c].max_len;
      if (p->classes[c].level == STRATA_SPMV_LEVEL_STREAM) { /* rows ending in their window too */
        ca.stream_block = p->stream_block;
        ca.stream_class = c;
      }
    }
    ca.keys = keys;
    ca.perm = perm;
    CHECK(strata_parallel_for(exec, "strata_spmv_classify", strata_range(0, n), &strata_spmv_classify, &ca));
    int64_t bounds[STRATA_SPMV_PLAN_MAX_CLASSES + 1];
    CHECK(strata_sparse_impl_group_by_class(exec, n, p->num_classes, keys, perm, bounds));
    strata_spmv_narrow_args_t na = {perm, p->rows};
    CHECK(strata_parallel_for(exec, "strata_spmv_narrow", strata_range(0, n), &strata_spmv_narrow, &na));
    for (int c = 0; c < p->num_classes; ++c) {
      p->begin[c] = bounds[c];
      p->classes[c].num_rows = bounds[c + 1] - bounds[c];
      if (p->classes[c].num_rows == n) p->identity = 1; /* every row in this class, in order */
    }
    for (int c = 0; c < p->num_classes; ++c) { /* the classes' stored entries */
      strata_spmv_class_t *k = &p->classes[c];
      strata_spmv_chunk_count_args_t ce = {A->row_offsets, p->rows + p->begin[c], 0, NULL};
      if (k->num_rows == n)
        k->num_entries = A->nnz;
      else if (k->num_rows > 0)
        CHECK(strata_parallel_reduce(exec, "strata_spmv_class_entries", strata_range(0, k->num_rows),
                                     &strata_spmv_class_entries, &ce, STRATA_REDUCE_SUM, &k->num_entries));
    }
    /* split rows: chunk counts, a scan for each row's first chunk, the chunk table */
    for (int c = 0; c < p->num_classes; ++c) {
      if (p->classes[c].level != STRATA_SPMV_LEVEL_SPLIT || p->classes[c].num_rows == 0) continue;
      const int64_t m = p->classes[c].num_rows;
      p->split_class = c;
      CHECK(strata_sparse_impl_alloc(exec, (size_t)(m + 1) * sizeof(int64_t), (void **)&nchunks));
      CHECK(strata_sparse_impl_alloc(exec, (size_t)(m + 1) * sizeof(int64_t), (void **)&p->first));
      strata_spmv_chunk_count_args_t cc = {A->row_offsets, p->rows + p->begin[c], p->split_chunk, nchunks};
      CHECK(strata_parallel_for(exec, "strata_spmv_chunk_count", strata_range(0, m), &strata_spmv_chunk_count, &cc));
      CHECK(strata_scan_exclusive_i64(exec, m, nchunks, p->first, &p->num_chunks));
      CHECK(strata_mem_copy(exec, p->first + m, &p->num_chunks, sizeof(int64_t)));
      CHECK(strata_sparse_impl_alloc(exec, (size_t)p->num_chunks * sizeof(int32_t), (void **)&p->chunk_row));
      CHECK(strata_sparse_impl_alloc(exec, (size_t)p->num_chunks * sizeof(int64_t), (void **)&p->chunk_begin));
      CHECK(strata_sparse_impl_alloc(exec, (size_t)p->num_chunks * sizeof(double), (void **)&p->partial));
      CHECK(strata_sparse_impl_alloc(exec, (size_t)m * sizeof(int32_t), (void **)&p->ticket));
      strata_spmv_chunk_fill_args_t cf = {A->row_offsets, p->rows + p->begin[c], p->first, p->split_chunk,
                                          p->chunk_row, p->chunk_begin, p->ticket};
      CHECK(strata_parallel_for(exec, "strata_spmv_chunk_fill", strata_range(0, m), &strata_spmv_chunk_fill, &cf));
    }
    /* stream blocks: consecutive rows by rows + entries, a binary search per block */
    for (int c = 0; c < p->num_classes; ++c) {
      if (p->classes[c].level != STRATA_SPMV_LEVEL_STREAM || p->classes[c].num_rows == 0) continue;
      CHECK(stream_padded(exec, A, p, c, o.stream_pad, !strata_exec_is_host(exec), info.max_scratch_bytes));
      p->num_blocks = (n + A->nnz + p->stream_block - 1) / p->stream_block;
      CHECK(strata_sparse_impl_alloc(exec, (size_t)(p->num_blocks + 1) * sizeof(int32_t), (void **)&p->block_row));
      strata_spmv_blocks_args_t ba = {A->row_offsets, n, p->stream_block, p->block_row};
      CHECK(strata_parallel_for(exec, "strata_spmv_blocks", strata_range(0, p->num_blocks + 1), &strata_spmv_blocks, &ba));
    }
    CHECK(strata_exec_fence(exec));
  }
  strata_sparse_impl_free(exec, keys);
  strata_sparse_impl_free(exec, perm);
  strata_sparse_impl_free(exec, nchunks);
  *plan = p;
  return STRATA_SUCCESS;
fail:
  strata_sparse_impl_free(exec, keys);
  strata_sparse_impl_free(exec, perm);
  strata_sparse_impl_free(exec, nchunks);
  strata_spmv_plan_destroy(&p);
  return st;
}

strata_status_t strata_spmv_plan_classes(const strata_spmv_plan_t *plan, int *num_classes,
                                         strata_spmv_class_t *classes) {
  if (!plan || !num_classes || !classes)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv plan classes: NULL %s",
                            !plan ? "plan" : !num_classes ? "num_classes" : "classes");
  *num_classes = plan->num_classes;
  memcpy(classes, plan->classes, (size_t)plan->num_classes * sizeof *classes);
  return STRATA_SUCCESS;
}

/* The stream level's arguments in a (its windows, thresholds and staging); returns their team
 * scratch (stream_scratch; pad: the padded layout's). Shared by the fused and the stream launch. */
static size_t stream_args(const strata_spmv_plan_t *p, strata_spmv_apply_args_t *a, int pad) {
  a->block_row = p->block_row;
  a->block = p->stream_block;
  a->stream_max = p->stream_max;
  a->stage_max = p->stream_block + p->stream_max;
  a->stream_team_min = STREAM_TEAM_MIN_DEFAULT;
  return stream_scratch(p->stream_block, p->stream_max, pad);
}

strata_status_t strata_spmv_plan_apply(strata_exec_t *exec, const strata_spmv_plan_t *p, double alpha,
                                       const strata_crs_matrix_t *A, const double *x, double beta,
                                       double *y) {
  if (!p || !A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv apply: NULL %s", p ? "matrix" : "plan");
  strata_status_t st = strata_sparse_impl_exec(&exec, A->exec, "spmv_plan_apply");
  if (st != STRATA_SUCCESS) return st;
  if (strata_exec_backend(exec) != strata_exec_backend(p->exec))
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "spmv apply: plan built for backend '%s', exec is '%s'",
                            strata_backend_name(strata_exec_backend(p->exec)), strata_backend_name(strata_exec_backend(exec)));
  if (A->num_rows != p->num_rows || A->num_cols != p->num_cols || A->nnz != p->nnz)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "spmv apply: matrix %d x %d with %lld entries, plan built for %d x %d with %lld",
                            A->num_rows, A->num_cols, (long long)A->nnz, p->num_rows, p->num_cols, (long long)p->nnz);
  if (p->inner) { /* op(A) = A^T: A^T's values from A's as they are now, then A^T x */
    /* the map reads A's values by storage position: a plan built for A not fill-complete cannot
     * follow A once strata_crs_fill_complete (or unpack_combine INSERT) has sorted its rows */
    if (A->fill_complete != p->At_fill_complete)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                              "spmv apply: transpose plan built for a matrix %sfill-complete, A is %sfill-complete "
                              "(its entries' storage order changed: build the plan again)",
                              p->At_fill_complete ? "" : "not ", A->fill_complete ? "" : "not ");
    if (alpha != 0.0) {
      st = strata_sparse_impl_check_xy("spmv apply", alpha, x, A->num_rows, y, A->num_cols);
      if (st == STRATA_SUCCESS) st = strata_sparse_impl_coo_regather(exec, &p->At_map, A->values, p->At);
      if (st != STRATA_SUCCESS) return st;
    }
    return strata_spmv_plan_apply(exec, p->inner, alpha, p->At, x, beta, y);
  }
  st = strata_sparse_impl_check_xy("spmv apply", alpha, x, A->num_cols, y, A->num_rows);
  if (st != STRATA_SUCCESS) return st;
  strata_spmv_apply_args_t a;
  memset(&a, 0, sizeof a);
  a.row_offsets = A->row_offsets;
  a.col_indices = A->col_indices;
  a.values = A->values;
  a.x = x;
  a.y = y;
  a.alpha = alpha;
  a.beta = beta;
  if (alpha == 0.0) /* DESIGN §4: A and x are not read */
    return strata_sparse_impl_scale(exec, A->num_rows, alpha, beta, y);
  a.rows = p->identity ? NULL : p->rows;
  /* On GPUs, the long rows (three-level, split) share one launch with the short rows when the
   * short ones are all in one class, and each split row is added up by the team of its last
   * chunk to finish (strata_spmv_chunk_done) instead of a second launch (H200, 2026-11-30, ms,
   * a combine launch -> none: power law 2.1 3M 0.1910 -> 0.1871, 1M 0.0691 -> 0.0658, 6M 0.5817
   * -> 0.5775, 2.5 3M 0.0796 -> 0.0750; 16 rows of 500k + 4M of 8 0.1730 -> 0.1677). The one
   * launch itself: strata_spmv_fused with the stream level (H200, power law:
   * 0.248 -> 0.243 ms), strata_spmv_fused_one with one-level rows (16 rows of 500k + 4M of 8:
   * 0.194 -> 0.189 ms). Short rows alone keep their own kernel: the fused one, with the long-row
   * code beside it, ran the stream level 1-3 % slower (27-point 0.125 -> 0.129 ms). */
  int sc = -1, tc = -1, xc = -1, oc = -1, fuse = 1;
  for (int c = 0; c < p->num_classes; ++c) {
    const strata_spmv_class_t *k = &p->classes[c];
    if (k->num_rows == 0) continue;
    if (k->level == STRATA_SPMV_LEVEL_STREAM && sc < 0) sc = c;
    else if (k->level == STRATA_SPMV_LEVEL_THREE && tc < 0) tc = c;
    else if (k->level == STRATA_SPMV_LEVEL_SPLIT && xc < 0) xc = c;
    else if (k->level == STRATA_SPMV_LEVEL_ONE && oc < 0) oc = c;
    else fuse = 0;
  }
  if (fuse && (sc >= 0) != (oc >= 0) && (tc >= 0 || xc >= 0) && (sc >= 0 || !strata_exec_is_host(exec))) {
    a.fused_three = tc >= 0 ? p->classes[tc].num_rows : 0;
    a.three_begin = tc >= 0 && !p->identity ? p->begin[tc] : 0;
    a.fused_chunks = xc >= 0 ? p->num_chunks : 0;
    a.split_begin = xc >= 0 && !p->identity ? p->begin[xc] : 0;
    a.chunk_row = p->chunk_row;
    a.chunk_begin = p->chunk_begin;
    a.chunk = p->split_chunk;
    a.first = p->first;
    a.partial = p->partial;
    a.ticket = p->ticket; /* the split rows added up by their last chunk's team, in this launch */
    const int64_t L = a.fused_chunks + a.fused_three;
    if (sc >= 0) {
      const strata_spmv_class_t *k = &p->classes[sc];
      strata_team_policy_t pol = strata_team_policy(L + p->num_blocks, k->team_size, k->vector_length);
      pol.scratch_team = stream_args(p, &a, 0);
      st = strata_parallel_for_team(exec, "strata_spmv_fused", &pol, &strata_spmv_fused, &a);
    } else { /* the long rows' team shape; a participant per one-level row */
      const strata_spmv_class_t *k = &p->classes[xc >= 0 ? xc : tc];
      const int64_t P = (int64_t)k->team_size * k->vector_length;
      a.fused_one = p->classes[oc].num_rows;
      a.one_begin = p->identity ? 0 : p->begin[oc];
      strata_team_policy_t pol = strata_team_policy(L + (a.fused_one + P - 1) / P, k->team_size, k->vector_length);
      a.stage_max = FUSED_ONE_STAGE; /* the long rows' staged windows */
      pol.scratch_team = (size_t)FUSED_ONE_STAGE * sizeof(double);
      st = strata_parallel_for_team(exec, "strata_spmv_fused_one", &pol, &strata_spmv_fused_one, &a);
    }
    return st; /* no combine launch: p->ticket exists whenever split rows do */
  }
  for (int c = 0; c < p->num_classes && st == STRATA_SUCCESS; ++c) {
    const strata_spmv_class_t *k = &p->classes[c];
    if (k->num_rows == 0) continue;
    a.begin = p->identity ? 0 : p->begin[c];
    a.count = k->num_rows;
    strata_team_policy_t pol = strata_team_policy(0, k->team_size, k->vector_length);
    switch (k->level) {
      case STRATA_SPMV_LEVEL_ONE:
        st = strata_parallel_for(exec, "strata_spmv_one_level", strata_range(0, k->num_rows), &strata_spmv_one_level, &a);
        break;
      case STRATA_SPMV_LEVEL_TWO:
        a.rows_per_team = p->rows_per_team[c];
        pol.league_size = (k->num_rows + a.rows_per_team - 1) / a.rows_per_team;
        st = strata_parallel_for_team(exec, "strata_spmv_two_level", &pol, &strata_spmv_two_level, &a);
        break;
      case STRATA_SPMV_LEVEL_THREE:
        pol.league_size = k->num_rows;
        pol.scratch_team = (size_t)k->team_size * sizeof(double);
        st = strata_parallel_for_team(exec, "strata_spmv_three_level", &pol, &strata_spmv_three_level, &a);
        break;
      case STRATA_SPMV_LEVEL_STREAM:
        pol.league_size = p->num_blocks;
        pol.scratch_team = stream_args(p, &a, p->stream_padded);
        st = p->stream_padded
                 ? strata_parallel_for_team(exec, "strata_spmv_stream_padded", &pol, &strata_spmv_stream_padded, &a)
                 : strata_parallel_for_team(exec, "strata_spmv_stream", &pol, &strata_spmv_stream, &a);
        break;
      case STRATA_SPMV_LEVEL_SPLIT:
        a.chunk_row = p->chunk_row;
        a.chunk_begin = p->chunk_begin;
        a.chunk = p->split_chunk;
        a.first = p->first;
        a.partial = p->partial;
        pol.league_size = p->num_chunks;
        pol.scratch_team = (size_t)k->team_size * sizeof(double);
        st = strata_parallel_for_team(exec, "strata_spmv_split_chunks", &pol, &strata_spmv_split_chunks, &a);
        if (st == STRATA_SUCCESS)
          st = strata_parallel_for(exec, "strata_spmv_split_combine", strata_range(0, k->num_rows),
                                   &strata_spmv_split_combine, &a);
        break;
    }
  }
  return st;
}

strata_status_t strata_sparse_impl_scale(strata_exec_t *exec, int64_t n, double alpha, double beta, double *y) {
  strata_spmv_apply_args_t a;
  memset(&a, 0, sizeof a);
  a.y = y;
  a.alpha = alpha;
  a.beta = beta;
  return strata_parallel_for(exec, "strata_spmv_scale", strata_range(0, n), &strata_spmv_scale, &a);
}
