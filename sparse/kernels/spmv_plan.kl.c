/* strata sparse — SpMV by row-length class (DESIGN §4), written once for every backend.
 * Every row's sum is taken in a fixed order, so y is reproducible run to run. */
#include <strata/kl.h>

#include "product.h"
#include "row_class.h"
#include "stage_products.h"
#include "spmv_plan_args.h"
#include "store_y.h"

/* ----------------------------------------------------------------------------- plan building */

STRATA_FOR_KERNEL(strata_spmv_classify, strata_spmv_classify_args_t, a, r) {
  const int64_t b = a->row_offsets[r], e = a->row_offsets[r + 1];
  int c = strata_sparse_row_class(e - b, a->num_classes, a->max_len);
  if (a->stream_block > 0 && c > a->stream_class && STRATA_SPMV_IN_WINDOW(b, e, (int64_t)r, a->stream_block))
    c = a->stream_class;
  a->keys[r] = strata_sparse_class_key(c, a->num_rows, r);
  a->perm[r] = r;
}

STRATA_FOR_KERNEL(strata_spmv_bounds, strata_spmv_bounds_args_t, a, c) {
  a->bounds[c] = strata_kl_lower_bound_i64(a->keys, 0, a->n, c * a->num_rows);
}

/* Descents of the keys over i in [1, n): zero means they are sorted already (e.g. every item in
 * one class), and the grouping needs no sort. */
STRATA_REDUCE_KERNEL(strata_sparse_key_descents, strata_spmv_bounds_args_t, a, i, i64, acc) {
  if (a->keys[i] < a->keys[i - 1]) *acc += 1;
}

STRATA_FOR_KERNEL(strata_spmv_narrow, strata_spmv_narrow_args_t, a, i) {
  a->rows[i] = (int32_t)a->perm[i];
}

STRATA_FOR_KERNEL(strata_spmv_chunk_count, strata_spmv_chunk_count_args_t, a, i) {
  const int32_t r = a->rows[i];
  const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
  a->nchunks[i] = (len + a->chunk - 1) / a->chunk;
}

/* a class's stored entries: len(rows[i]) summed over its rows (chunk and nchunks unused) */
STRATA_REDUCE_KERNEL(strata_spmv_class_entries, strata_spmv_chunk_count_args_t, a, i, i64, acc) {
  const int32_t r = a->rows[i];
  *acc += a->row_offsets[r + 1] - a->row_offsets[r];
}

STRATA_FOR_KERNEL(strata_spmv_chunk_fill, strata_spmv_chunk_fill_args_t, a, i) {
  const int32_t r = a->rows[i];
  const int64_t b = a->row_offsets[r], e = a->row_offsets[r + 1];
  int64_t q = a->first[i];
  for (int64_t k = b; k < e; k += a->chunk, ++q) {
    a->chunk_row[q] = (int32_t)i;
    a->chunk_begin[q] = k;
  }
  a->ticket[i] = 0;
}

/* ----------------------------------------------------------------------------- apply */

STRATA_KL_FUNC void strata_spmv_store(const strata_spmv_apply_args_t *a, int32_t r, double sum) {
  strata_sparse_store_y(&a->y[r], a->alpha, sum, a->beta);
}

/* row i of the class whose rows start at begin (rows NULL: the identity) */
STRATA_KL_FUNC int32_t strata_spmv_row_in(const strata_spmv_apply_args_t *a, int64_t begin, int64_t i) {
  return a->rows ? a->rows[begin + i] : (int32_t)(begin + i);
}
STRATA_KL_FUNC int32_t strata_spmv_row(const strata_spmv_apply_args_t *a, int64_t i) {
  return strata_spmv_row_in(a, a->begin, i);
}

/* a thread or a few lanes walking a row (one-level, two-level): plain loads (product.h) */
STRATA_KL_FUNC double strata_spmv_product(const strata_spmv_apply_args_t *a, int64_t k) {
  return strata_sparse_product_walk(a->values, a->col_indices, a->x, k);
}

/* row r by one thread */
STRATA_KL_FUNC void strata_spmv_one_row(const strata_spmv_apply_args_t *a, int32_t r) {
  const int64_t e = a->row_offsets[r + 1];
  double s = 0.0;
  for (int64_t k = a->row_offsets[r]; k < e; ++k) s += strata_spmv_product(a, k);
  strata_spmv_store(a, r, s);
}

/* one-level: a thread per row */
STRATA_FOR_KERNEL(strata_spmv_one_level, strata_spmv_apply_args_t, a, i) {
  strata_spmv_one_row(a, strata_spmv_row(a, i));
}

/* two-level: a team per block of rows_per_team rows, a team thread per row, lanes over the row */
STRATA_TEAM_KERNEL(strata_spmv_two_level, strata_spmv_apply_args_t, a, team) {
  const int64_t b = team->league_rank * a->rows_per_team;
  const int64_t e = b + a->rows_per_team < a->count ? b + a->rows_per_team : a->count;
  STRATA_TEAM_THREAD_RANGE(team, i, b, e) {
    const int32_t r = strata_spmv_row(a, i);
    double s;
    STRATA_THREAD_VECTOR_SUM(team, k, a->row_offsets[r], a->row_offsets[r + 1], s) { s += strata_spmv_product(a, k); }
    if (team->vector_rank == 0) strata_spmv_store(a, r, s);
  }
}

/* One participant's share of a row piece: entries b, b + P, b + 2P, ... below e, four at a time
 * into four accumulators (four independent loads of A and of x in flight), added in a fixed order. */
STRATA_KL_FUNC double strata_spmv_lane_sum(const strata_spmv_apply_args_t *a, int64_t b, int64_t e, int64_t P) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int64_t k = b;
  for (; k + 3 * P < e; k += 4 * P) {
    const int32_t c0 = strata_load_stream_i32(a->col_indices + k), c1 = strata_load_stream_i32(a->col_indices + k + P),
                  c2 = strata_load_stream_i32(a->col_indices + k + 2 * P),
                  c3 = strata_load_stream_i32(a->col_indices + k + 3 * P);
    s0 += strata_load_stream_f64(a->values + k) * strata_load_cached_f64(a->x + c0);
    s1 += strata_load_stream_f64(a->values + k + P) * strata_load_cached_f64(a->x + c1);
    s2 += strata_load_stream_f64(a->values + k + 2 * P) * strata_load_cached_f64(a->x + c2);
    s3 += strata_load_stream_f64(a->values + k + 3 * P) * strata_load_cached_f64(a->x + c3);
  }
  for (; k < e; k += P) s0 += strata_sparse_product(a->values, a->col_indices, a->x, k);
  return (s0 + s1) + (s2 + s3);
}

/* The sum of entries [b, e) over a whole team: the team's P = team_size x vector_length
 * participants (numbered team_rank x vector_length + lane, so that a warp's are consecutive)
 * interleave over the piece, participant p taking entries b + p, b + p + P, ... — every warp
 * reads consecutive entries whatever the team's shape, so the stream level's teams can take long
 * rows too; each thread's lanes are summed, then the threads' sums in team-rank order by thread 0
 * through team scratch (team_size doubles). The result is valid in team thread 0. Every thread of
 * the team calls it. */
STRATA_KL_TEAM_FUNC double strata_spmv_team_sum(const strata_spmv_apply_args_t *a,
                                           const strata_team_t *team, int64_t b, int64_t e) {
  const int64_t V = team->vector_length, P = (int64_t)team->team_size * V;
  double s; /* a vector range over [0, V): each lane runs the body once, with j = its lane */
  STRATA_THREAD_VECTOR_SUM(team, j, 0, V, s) { s += strata_spmv_lane_sum(a, b + team->team_rank * V + j, e, P); }
  double *red = (double *)team->scratch;
  if (team->vector_rank == 0) red[team->team_rank] = s;
  strata_team_barrier(team);
  double total = 0.0;
  if (team->team_rank == 0)
    for (int t = 0; t < team->team_size; ++t) total += red[t];
  return total;
}

/* The sum of entries [b, e) by the whole team through team scratch, stage_max products at a time
 * (the stream level's staging; each window summed by a team reduction, the windows in order). The
 * fused launches sum their long rows this way, so that their teams run one kind of loop: H200
 * (scripts/gpu-ab, 2026-11-30), strata_spmv_fused 48 -> 40 registers with no launch bounds (6
 * teams of 256 a multiprocessor, not 5), power law 2.1 (3M rows) 0.242 -> 0.222 ms; fused_one 40
 * -> 32 registers at (256, 8), 16 rows of 500k + 4M of 8 0.181 -> 0.173 ms. The result is valid
 * in every thread. Every thread of the team calls it; scratch holds stage_max doubles. */
STRATA_KL_TEAM_FUNC double strata_spmv_team_sum_staged(const strata_spmv_apply_args_t *a, const strata_team_t *team,
                                                      int64_t b, int64_t e) {
  double *prod = (double *)team->scratch, total = 0.0;
  for (int64_t w = b; w < e; w += a->stage_max) {
    const int64_t we = w + a->stage_max < e ? w + a->stage_max : e;
    strata_sparse_stage_products(team, a->col_indices, a->values, a->x, w, we, prod, 0, 0);
    strata_team_barrier(team);
    double s;
    STRATA_TEAM_VECTOR_REDUCE(team, k, 0, we - w, SUM, f64, s) { s += prod[k]; }
    total += s; /* the reduction ends with a barrier: prod may be staged again */
  }
  return total;
}

/* [b, e) summed by the team: staged (the fused launches) or strata_spmv_team_sum (a constant
 * after inlining). The result is valid in team thread 0. */
STRATA_KL_TEAM_FUNC double strata_spmv_long_sum(const strata_spmv_apply_args_t *a, const strata_team_t *team,
                                               int64_t b, int64_t e, int staged) {
  return staged ? strata_spmv_team_sum_staged(a, team, b, e) : strata_spmv_team_sum(a, team, b, e);
}

/* one long row r: the whole team (three-level) */
STRATA_KL_TEAM_FUNC void strata_spmv_row_team(const strata_spmv_apply_args_t *a, const strata_team_t *team,
                                              int32_t r, int staged) {
  const double s = strata_spmv_long_sum(a, team, a->row_offsets[r], a->row_offsets[r + 1], staged);
  if (team->team_rank == 0 && team->vector_rank == 0) strata_spmv_store(a, r, s);
}

/* The split row of chunk q (class rows from begin), whose partial sum this thread has just
 * written: takes the row's ticket, and when its chunk is the row's last one done, adds the row's
 * partial sums in chunk order (as strata_spmv_split_combine: the same y, whichever chunk ends
 * last) and resets the ticket for the next launch. The fences order the partial before the ticket and the ticket
 * before the reads (strata/kl.h, strata_memory_fence); the reads are atomic loads (not cached).
 * The row is looked up again here rather than kept from before the chunk's sum: kept, it cost
 * strata_spmv_fused 8 registers (32 -> 40, sm_90). */
STRATA_KL_TEAM_FUNC void strata_spmv_chunk_done(const strata_spmv_apply_args_t *a, int64_t q, int64_t begin) {
  const int32_t i = a->chunk_row[q];
  const int64_t f = a->first[i], l = a->first[i + 1];
  strata_memory_fence();
  if (strata_atomic_fetch_add_i32(a->ticket + i, 1) != (int32_t)(l - f - 1)) return;
  strata_memory_fence();
  double s = 0.0;
  for (int64_t k = f; k < l; ++k) s += strata_atomic_load_f64(a->partial + k);
  strata_spmv_store(a, strata_spmv_row_in(a, begin, i), s);
  a->ticket[i] = 0;
}

/* split chunk q (of the split class whose rows start at begin): its partial sum; in the fused
 * launches (a->ticket set) the row's last chunk also adds them into y */
STRATA_KL_TEAM_FUNC void strata_spmv_chunk_team(const strata_spmv_apply_args_t *a, const strata_team_t *team,
                                                int64_t q, int64_t begin, int staged) {
  const int32_t r = strata_spmv_row_in(a, begin, a->chunk_row[q]);
  const int64_t b = a->chunk_begin[q], end = a->row_offsets[r + 1];
  const int64_t e = b + a->chunk < end ? b + a->chunk : end;
  const double s = strata_spmv_long_sum(a, team, b, e, staged);
  if (team->team_rank == 0 && team->vector_rank == 0) {
    a->partial[q] = s;
    if (staged && a->ticket) strata_spmv_chunk_done(a, q, begin);
  }
}

/* three-level: a team per row */
STRATA_TEAM_KERNEL(strata_spmv_three_level, strata_spmv_apply_args_t, a, team) {
  strata_spmv_row_team(a, team, strata_spmv_row(a, team->league_rank), 0);
}

/* split, pass 1: a team per chunk of a row, its partial sum */
STRATA_TEAM_KERNEL(strata_spmv_split_chunks, strata_spmv_apply_args_t, a, team) {
  strata_spmv_chunk_team(a, team, team->league_rank, a->begin, 0);
}

/* split, pass 2: each row adds its chunks' partial sums in chunk order */
STRATA_FOR_KERNEL(strata_spmv_split_combine, strata_spmv_apply_args_t, a, i) {
  const int32_t r = strata_spmv_row(a, i);
  double s = 0.0;
  for (int64_t q = a->first[i]; q < a->first[i + 1]; ++q) s += a->partial[q];
  strata_spmv_store(a, r, s);
}

/* stream (CSR-Stream of Greathouse & Daga, SC'14, on blocks of consecutive rows): the team's rows
 * have at most `block` rows + entries; their products are staged with coalesced reads
 * (stage_products.h), then each row up to stream_team_min entries is reduced from scratch by its
 * thread's lanes, and each longer one of the stream class (up to stream_max, or ending inside
 * the window) by the whole team, one after the other:
 * in a power-law window a thread with one row of hundreds of entries would keep its warp and
 * team waiting while the other threads' rows of a few entries are long done. The team-reduced
 * rows are listed in scratch in any order (an atomic count); each row's sum does not depend on
 * it. clamp: the staging's variant (strata_sparse_stage_products), a constant at each launch. */
STRATA_KL_TEAM_FUNC void strata_spmv_stream_team(const strata_spmv_apply_args_t *a, const strata_team_t *team,
                                                 int64_t blk, int clamp, int pad) {
  const int64_t r0 = a->block_row[blk], r1 = a->block_row[blk + 1];
  if (r0 >= r1) return; /* the whole team: no row starts in this block */
  const int64_t k0 = a->row_offsets[r0];
  int64_t k1 = a->row_offsets[r1];
  /* the window's keys end at wend: a row r of [b, e) ends inside it when e + r + 1 < wend
   * (STRATA_SPMV_IN_WINDOW, as the classification decided) */
  const int64_t wend = (blk + 1) * a->block, kl = a->row_offsets[r1 - 1];
  if (k1 - kl > a->stream_max && k1 + r1 >= wend) k1 = kl; /* a long last row ending outside: not staged */
  if (k1 > k0 + a->stage_max) k1 = k0 + a->stage_max; /* cannot happen: a guard for the scratch */
  double *prod = (double *)team->scratch;
  int32_t *listed = (int32_t *)(prod + (pad ? STRATA_SPMV_STAGE_PADDED(a->stage_max) : a->stage_max)),
          *list = listed + 1;
  if (strata_team_single(team)) *listed = 0;
  strata_sparse_stage_products(team, a->col_indices, a->values, a->x, k0, k1, prod, pad, clamp);
  strata_team_barrier(team);
  STRATA_TEAM_THREAD_RANGE(team, r, r0, r1) {
    const int64_t b = a->row_offsets[r], e = a->row_offsets[r + 1];
    const int mine = e - b <= a->stream_max || e + r + 1 < wend;
    if (e - b <= a->stream_team_min && mine) {
      double s;
      STRATA_THREAD_VECTOR_SUM(team, k, b - k0, e - k0, s) { s += prod[pad ? STRATA_SPARSE_STAGE_PAD(k) : k]; }
      if (team->vector_rank == 0) strata_spmv_store(a, (int32_t)r, s);
    } else if (mine && strata_thread_single(team)) {
      /* a longer row ending outside the window is another class's (and not staged) */
      list[strata_atomic_fetch_add_i32(listed, 1)] = (int32_t)(r - r0);
    }
  }
  strata_team_barrier(team);
  const int32_t n = *listed;
  for (int32_t q = 0; q < n; ++q) {
    const int64_t r = r0 + list[q];
    const int64_t b = a->row_offsets[r] - k0, e = a->row_offsets[r + 1] - k0;
    double s;
    STRATA_TEAM_VECTOR_REDUCE(team, k, b, e, SUM, f64, s) { s += prod[pad ? STRATA_SPARSE_STAGE_PAD(k) : k]; }
    if (strata_team_single(team)) strata_spmv_store(a, (int32_t)r, s);
  }
}

/* the stream level alone: its staging with clamp = 1 (stage_products.h; 40 registers, 6 teams of
 * 256 a multiprocessor). A copy without the window rule's tests for plans whose rows are all
 * within stream_max lost what clamp gained (H200, 2026-11-30: 27-point 100^3 0.1166 -> 0.1262 ms,
 * banded 16/row 0.2853 -> 0.3126, HMEp-like 0.2757 -> 0.2923). */
STRATA_TEAM_KERNEL(strata_spmv_stream, strata_spmv_apply_args_t, a, team) {
  strata_spmv_stream_team(a, team, team->league_rank, 1, 0);
}

/* the same with the products in the padded layout (STRATA_SPARSE_STAGE_PAD), for rows whose
 * lengths are multiples of 4 x the lanes per row (spmv_plan.c, stream_padded): there a half-warp's
 * rows start in at most 4 of the 16 shared-memory bank pairs, unpadded. The index arithmetic
 * costs the others (H200, 2026-11-30, plan, two rounds: banded 16/row 4M 0.2846 / 0.2857 ->
 * 0.2570 / 0.2578 ms; 27-point 0.0975 -> 0.1005, 3 per row 0.1315 -> 0.1350, HMEp-like 0.2440 ->
 * 0.2463). */
STRATA_TEAM_KERNEL(strata_spmv_stream_padded, strata_spmv_apply_args_t, a, team) {
  strata_spmv_stream_team(a, team, team->league_rank, 1, 1);
}

/* League rank q of a fused launch (the long rows beside the short ones in one launch, GPU auto):
 * ranks [0, fused_chunks) are the split chunks (their rows from split_begin), the next fused_three
 * the three-level rows (from three_begin), the rest the short teams. The long rows come first, so
 * that they start early and end with the short ones instead of in a tail of their own (H200:
 * spreading them evenly among the short teams was slower, power law 0.241 -> 0.241 ms, 16 rows of
 * 500k + 4M of 8 0.189 -> 0.256). Runs a long team (its row or chunk summed staged) and returns
 * 1, or returns 0 for a short team (STRATA_SPMV_FUSED_SHORT: its index). Returning the index
 * instead (-1 for a long team) cost strata_spmv_fused 62 registers, not 40 (ptxas sm_90). Each
 * split row's partial sums are added by the team of its chunk that ends last
 * (strata_spmv_chunk_done; a->ticket is set for the fused launches). */
STRATA_KL_TEAM_FUNC int strata_spmv_fused_long(const strata_spmv_apply_args_t *a, const strata_team_t *team) {
  const int64_t q = team->league_rank;
  if (q < a->fused_chunks) {
    strata_spmv_chunk_team(a, team, q, a->split_begin, 1);
    return 1;
  }
  if (q < a->fused_chunks + a->fused_three) {
    strata_spmv_row_team(a, team, strata_spmv_row_in(a, a->three_begin, q - a->fused_chunks), 1);
    return 1;
  }
  return 0;
}

/* the index of a fused launch's short team (league rank after the long ones) */
#define STRATA_SPMV_FUSED_SHORT(a, team) ((team)->league_rank - (a)->fused_chunks - (a)->fused_three)

/* the stream level and the long rows in one launch. No launch bounds: 32 registers (sm_90), so
 * a multiprocessor holds 2048 threads: 16 teams of 128 by default (spmv_plan.c,
 * STREAM_BLOCK_FUSED: their windows of 896 + 128 products fit the H200's 164 KiB shared-memory
 * configuration), 8 of 256 with the stream level forced (windows of 1792 + 512). 40 registers and
 * 6 teams of 256 before the stream level kept the long rows that end inside their window; 48
 * under bounds (256, 5), 54 without, before the long rows were staged. */
STRATA_TEAM_KERNEL(strata_spmv_fused, strata_spmv_apply_args_t, a, team) {
  if (!strata_spmv_fused_long(a, team)) strata_spmv_stream_team(a, team, STRATA_SPMV_FUSED_SHORT(a, team), 0, 0);
}

/* the one-level rows and the long rows in one launch (when those are the only classes: rows of a
 * few entries beside a few very long ones, e.g. 4M rows of 8 and 16 of 500k): a short team's
 * participants (thread x lane) take a one-level row each, fused_one rows from one_begin. Launch
 * bounds: 8 teams of 256 a multiprocessor (32 registers, no spill, with the long rows staged;
 * before, 40 registers at (256, 6): 16 rows of 500k + 4M of 8, 0.189 -> 0.180 ms, -> 0.173 staged). */
STRATA_TEAM_KERNEL_BOUNDS(strata_spmv_fused_one, strata_spmv_apply_args_t, a, team, 256, 8) {
  if (strata_spmv_fused_long(a, team)) return;
  const int64_t b = STRATA_SPMV_FUSED_SHORT(a, team);
  const int64_t V = team->vector_length;
  const int64_t i = b * (int64_t)team->team_size * V + team->team_rank * V + team->vector_rank;
  if (i < a->fused_one) strata_spmv_one_row(a, strata_spmv_row_in(a, a->one_begin, i));
}

STRATA_REDUCE_KERNEL(strata_spmv_rowstat, strata_spmv_rowstat_args_t, a, r, i64, acc) {
  const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
  if (len >= a->min_len && len <= a->max_len && (a->mod <= 0 || len % a->mod == 0)) *acc += a->entries ? len : 1;
}

STRATA_FOR_KERNEL(strata_spmv_blocks, strata_spmv_blocks_args_t, a, b) {
  const int64_t key = b * a->block;
  int64_t lo = 0, hi = a->num_rows; /* the first r with row_offsets[r] + r >= key, else num_rows */
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (a->row_offsets[mid] + mid < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  a->block_row[b] = (int32_t)lo;
}

/* y = beta * y (beta == 0: y = 0 without reading y); y = NaN when alpha * 0 is NaN (alpha infinite
 * or NaN: an empty row's alpha * 0, as the row-wise kernels compute it) */
STRATA_FOR_KERNEL(strata_spmv_scale, strata_spmv_apply_args_t, a, r) {
  const double z = a->alpha * 0.0;
  a->y[r] = z != z ? z : a->beta == 0.0 ? 0.0 : a->beta * a->y[r];
}
