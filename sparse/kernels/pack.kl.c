/* strata sparse — pack rows into packets and unpack-and-combine them (DESIGN §4; Tpetra's
 * CrsMatrix::packAndPrepare / unpackAndCombine, with aligned fields and every invalid entry
 * counted in a device report instead of being dropped). */
#include <strata/kl.h>
#include <strata/sparse.h>

#include "row_class.h"
#include "sparse_args.h"

/* a packet of more than long_min entries goes to the long list (GPUs) */
STRATA_KL_TEAM_FUNC void strata_sparse_pack_list_long(const strata_sparse_pack_args_t *a, int64_t k, int64_t count) {
  if (a->long_rows && count > a->long_min) a->long_rows[strata_atomic_fetch_add_i64(a->num_long, 1)] = k;
}

/* rows listed: offsets[k] = packet k's size, scanned afterwards */
STRATA_FOR_KERNEL(strata_sparse_pack_sizes, strata_sparse_pack_args_t, a, k) {
  const int64_t row = (int64_t)a->rows[k];
  const int64_t count = a->row_offsets[row + 1] - a->row_offsets[row];
  a->offsets[k] = STRATA_SPARSE_PACKET_BYTES(count);
  strata_sparse_pack_list_long(a, k, count);
}

/* rows 0..num_rows-1: the byte offsets themselves, k in [0, num_rows]: packets k' < k hold k
 * headers and row_offsets[k] - row_offsets[0] entries */
STRATA_FOR_KERNEL(strata_sparse_pack_offsets, strata_sparse_pack_args_t, a, k) {
  const int64_t b = a->row_offsets[k];
  a->offsets[k] = 8 * k + 16 * (b - a->row_offsets[0]);
  if (k < a->num_rows) strata_sparse_pack_list_long(a, k, a->row_offsets[k + 1] - b);
}

/* entry j of packet k: its global column id and value */
STRATA_KL_FUNC void strata_sparse_pack_entry(const strata_sparse_pack_args_t *a, int64_t k, int64_t j) {
  const int64_t row = a->rows ? (int64_t)a->rows[k] : k;
  const int64_t b = a->row_offsets[row], count = a->row_offsets[row + 1] - b;
  int64_t *gids = (int64_t *)(a->data + a->offsets[k]) + 1;
  const int32_t c = a->col_indices[b + j];
  gids[j] = a->col_gids ? a->col_gids[c] : (int64_t)c;
  ((double *)(gids + count))[j] = a->values[b + j];
}

/* width lanes per packet (i = k * width + lane): lane 0 its header, the lanes its entries unless
 * a team writes them (long rows). Neighbouring lanes write neighbouring words of one packet, and
 * the packets of neighbouring rows lie next to each other: on GPUs a warp's stores fill whole
 * sectors (a thread per packet strides them by the packet size). */
STRATA_FOR_KERNEL(strata_sparse_pack_rows, strata_sparse_pack_args_t, a, i) {
  const int64_t k = i / a->width, lane = i % a->width;
  const int64_t row = a->rows ? (int64_t)a->rows[k] : k;
  const int64_t count = a->row_offsets[row + 1] - a->row_offsets[row];
  if (lane == 0) *(int64_t *)(a->data + a->offsets[k]) = count;
  if (a->long_rows && count > a->long_min) return;
  for (int64_t j = lane; j < count; j += a->width) strata_sparse_pack_entry(a, k, j);
}

/* long rows: a team per listed packet, its threads x lanes over the entries */
STRATA_TEAM_KERNEL(strata_sparse_pack_long, strata_sparse_pack_args_t, a, team) {
  const int64_t k = a->long_rows[team->league_rank];
  const int64_t row = a->rows ? (int64_t)a->rows[k] : k;
  const int64_t count = a->row_offsets[row + 1] - a->row_offsets[row];
  STRATA_TEAM_VECTOR_RANGE(team, j, 0, count) { strata_sparse_pack_entry(a, k, j); }
}

/* Packet k of np from its offsets alone: its span [offsets[k], offsets[k + 1]) checked against
 * the buffer (inside it, 8-aligned, 8 + 16 c bytes for some c >= 0; packet 0 must start at 0 and
 * packet np - 1 end at num_bytes: bytes outside every packet would be lost without a word).
 * Returns 1 = malformed span (*count = -1), else *count = c, the entries the span holds, and 2 =
 * target row outside [0, num_rows), 0 = valid span. The count stored in the packet is not read:
 * the classification needs only this (a read of each packet's first sector less: the FEM job's
 * 72-byte packets), and the class kernels check the stored count (strata_sparse_unpack_packet). */
STRATA_KL_FUNC int strata_sparse_unpack_span(const int32_t *import_rows, const int64_t *offsets, int64_t num_bytes,
                                             int64_t num_rows, int64_t np, int64_t k, int64_t *row, int64_t *o0,
                                             int64_t *count) {
  *row = (int64_t)import_rows[k];
  const int64_t b = offsets[k], e = offsets[k + 1];
  *o0 = b;
  *count = -1;
  if (!(b >= 0 && b <= e && e <= num_bytes && b % 8 == 0 && e - b >= 8 && (e - b - 8) % 16 == 0 &&
        (k > 0 || b == 0) && (k < np - 1 || e == num_bytes)))
    return 1;
  *count = (e - b - 8) / 16;
  return *row < 0 || *row >= num_rows ? 2 : 0;
}

/* Packet k of np's header, checked against its offsets and the buffer: 0 = valid (*row, *count,
 * *gids, *vals set), 1 = malformed (its span, strata_sparse_unpack_span, or a stored count other
 * than the span's), 2 = target row outside [0, num_rows) (a malformed packet is 1 whatever its
 * row). On 1, *count is the span's count when the classification took the packet for valid (span
 * consistent, row in range: the stored count disagrees), else -1 (strata_sparse_unpack_bad_packet). */
STRATA_KL_FUNC int strata_sparse_unpack_packet(const int32_t *import_rows, const int64_t *offsets,
                                               const unsigned char *data, int64_t num_bytes,
                                               int64_t num_rows, int64_t np, int64_t k, int64_t *row,
                                               int64_t *count, const int64_t **gids,
                                               const double **vals) {
  int64_t o0;
  const int st = strata_sparse_unpack_span(import_rows, offsets, num_bytes, num_rows, np, k, row, &o0, count);
  if (st == 1) return 1;
  if (*(const int64_t *)(data + o0) != *count) {
    if (st == 2) *count = -1;
    return 1;
  }
  if (st == 2) return 2;
  *gids = (const int64_t *)(data + o0 + 8);
  *vals = (const double *)(*gids + *count);
  return 0;
}

#define STRATA_SPARSE_UNPACK_PACKET(a, k, row, count, gids, vals)                                  \
  strata_sparse_unpack_packet((a)->import_rows, (a)->offsets, (a)->data, (a)->num_bytes,           \
                              (a)->num_rows, (a)->num_packets, (k), &(row), &(count), &(gids), &(vals))

/* Helpers with atomics are STRATA_KL_TEAM_FUNC: device-only on GPUs, where the atomics are. */

/* Counts a malformed packet (st 1) or one whose row is out of range (st 2); counted > 0: the
 * entries of a malformed packet that the classification took for valid (its span's count, from
 * strata_sparse_unpack_packet), which the call's entry total must not count. The class kernels
 * only count; the examples come afterwards, in packet order (strata_sparse_unpack_bad_count and
 * _bad_list, run only when something was invalid). */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_bad_packet(int64_t *rep, int st, int64_t counted) {
  strata_atomic_add_i64(rep + (st == 1 ? STRATA_SPARSE_REP_MALFORMED : STRATA_SPARSE_REP_BAD_ROW), 1);
  if (st == 1 && counted > 0) strata_atomic_add_i64(rep + STRATA_SPARSE_REP_LATE_ENTRIES, counted);
}

/* ----------------------------------------------------------------- column map (hash table) */

/* The slot a global id starts probing at: a 64-bit mix (MurmurHash3's finalizer), so that ids
 * in arithmetic progressions spread over the table */
STRATA_KL_FUNC int64_t strata_col_map_slot(int64_t gid, int64_t mask) {
  uint64_t z = (uint64_t)gid;
  z ^= z >> 33;
  z *= 0xff51afd7ed558ccdULL;
  z ^= z >> 33;
  z *= 0xc4ceb9fe1a85ec53ULL;
  z ^= z >> 33;
  return (int64_t)(z & (uint64_t)mask);
}

/* The local id of gid, -1 when the map has none (the table is never full: a probe ends at an
 * empty slot) */
STRATA_KL_FUNC int64_t strata_col_map_find(const int64_t *keys, const int32_t *vals, int64_t mask, int64_t gid) {
  if (gid < 0) return -1;
  for (int64_t h = strata_col_map_slot(gid, mask);; h = (h + 1) & mask) {
    const int64_t k = keys[h];
    if (k == gid) return vals[h];
    if (k < 0) return -1;
  }
}

STRATA_FOR_KERNEL(strata_col_map_build, strata_col_map_args_t, a, l) {
  const int64_t gid = a->gids[l];
  if (gid < 0) {
    strata_atomic_add_i64(a->stats, 1);
    strata_atomic_min_i64(a->stats + 1, l);
    return;
  }
  for (int64_t h = strata_col_map_slot(gid, a->mask);; h = (h + 1) & a->mask) {
    const int64_t prev = strata_atomic_cas_i64(a->keys + h, -1, gid);
    if (prev == -1) { /* the slot is ours; lookups run in later launches */
      a->vals[h] = (int32_t)l;
      return;
    }
    if (prev == gid) {
      strata_atomic_add_i64(a->stats + 2, 1);
      strata_atomic_min_i64(a->stats + 3, l);
      return;
    }
  }
}

/* after the build, when it found repeated ids: stats[3] = the smallest local id whose global id
 * is given at another local id too (the build's own minimum is over the CAS losers only, which
 * depends on the order the ids were inserted in) */
STRATA_FOR_KERNEL(strata_col_map_first_dup, strata_col_map_args_t, a, l) {
  const int64_t gid = a->gids[l];
  if (gid < 0) return;
  const int64_t w = strata_col_map_find(a->keys, a->vals, a->mask, gid);
  if (w != l) strata_atomic_min_i64(a->stats + 3, w < l ? w : l);
}

STRATA_FOR_KERNEL(strata_col_map_lookup, strata_col_map_args_t, a, i) {
  a->lids[i] = (int32_t)strata_col_map_find(a->keys, a->vals, a->mask, a->gids[i]);
}

/* Global column id -> local column id in [0, num_cols), -1 when it has none (a map value outside
 * that range included: INSERT would otherwise build entries outside the matrix). */
STRATA_KL_FUNC int64_t strata_sparse_unpack_lid(const strata_sparse_unpack_args_t *a, int64_t gid) {
  const int64_t lid = a->map_keys ? strata_col_map_find(a->map_keys, a->map_vals, a->map_mask, gid)
                      : !a->col_lids ? gid
                      : gid >= 0 && gid < a->num_global ? (int64_t)a->col_lids[gid]
                                                        : -1;
  return lid >= 0 && lid < a->num_cols ? lid : -1;
}

/* Combines v into *t by mode (ADD and ABSMAX atomic: several packets may name one entry; REPLACE a
 * plain store: one of them wins; ZERO nothing). */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_combine1(int mode, double *t, double v) {
  if (mode == STRATA_COMBINE_ADD) {
    strata_atomic_add_f64(t, v);
  } else if (mode == STRATA_COMBINE_REPLACE) {
    *t = v;
  } else if (mode == STRATA_COMBINE_ABSMAX) { /* CAS loop on the bits of *t */
    uint64_t *tb = (uint64_t *)t;
    const double av = v < 0 ? -v : v;
    uint64_t old = strata_kl_f64_as_u64(strata_atomic_load_f64(t));
    for (;;) {
      const double cur = strata_kl_u64_as_f64(old);
      if (!(av > (cur < 0 ? -cur : cur))) break;
      const uint64_t seen = strata_atomic_cas_u64(tb, old, strata_kl_f64_as_u64(v));
      if (seen == old) break;
      old = seen;
    }
  } /* ZERO: validated, nothing combined */
}

/* Where entry j of a packet is looked for first: rb + j * scale, the target position at the same
 * fraction of the row, with scale = (re - rb) / count from strata_sparse_unpack_scale (exact when
 * the packet carries the row's whole pattern in order, as a pack of a matrix with the target's
 * pattern does: scale 1). A multiply per entry: a 64-bit division per entry cost more than the
 * probes it saved on rows of 27. */
STRATA_KL_FUNC double strata_sparse_unpack_scale(int64_t rb, int64_t re, int64_t count) {
  return count > 0 ? (double)(re - rb) / (double)count : 0.0;
}
STRATA_KL_FUNC int64_t strata_sparse_unpack_guess(int64_t rb, double scale, int64_t j) {
  return rb + (int64_t)((double)j * scale);
}

/* The position of local column lid (-1: none) in a target row's entries [rb, re): looked for at
 * `guess` first, then by a binary search in the part of the fill-complete row (unique sorted
 * columns) that the probe leaves. -1 when the column is not in the row's pattern. */
STRATA_KL_FUNC int64_t strata_sparse_unpack_pos(const strata_sparse_unpack_args_t *a, int64_t rb, int64_t re,
                                                int64_t guess, int64_t lid) {
  if (lid < 0) return -1;
  int64_t lo = rb, hi = re;
  if (guess >= rb && guess < re) {
    const int64_t c = (int64_t)a->col_indices[guess];
    if (c == lid) return guess;
    if (c < lid) lo = guess + 1;
    else hi = guess;
  }
  lo = strata_kl_lower_bound_i32(a->col_indices, lo, hi, lid);
  return lo < hi && (int64_t)a->col_indices[lo] == lid ? lo : -1;
}

/* One incoming entry (gid, v) of a target row (entries [rb, re)): its position (above), then the
 * combine. Returns 1 when the column is not in the row's pattern (counted by the caller), else 0. */
STRATA_KL_TEAM_FUNC int64_t strata_sparse_unpack_entry(const strata_sparse_unpack_args_t *a, int64_t rb, int64_t re,
                                                       int64_t guess, int64_t gid, double v) {
  const int64_t pos = strata_sparse_unpack_pos(a, rb, re, guess, strata_sparse_unpack_lid(a, gid));
  if (pos < 0) return 1;
  strata_sparse_unpack_combine1(a->mode, a->values + pos, v);
  return 0;
}

/* The counts of one packet (or part of one): bad entries always; applied entries and packets
 * unless mode is ZERO. */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_count(const strata_sparse_unpack_args_t *a, int64_t packets,
                                               int64_t applied, int64_t bad) {
  if (bad) strata_atomic_add_i64(a->report + STRATA_SPARSE_REP_BAD_ENTRY, bad);
  if (a->mode != STRATA_COMBINE_ZERO) {
    if (packets) strata_atomic_add_i64(a->report + STRATA_SPARSE_REP_ROWS, packets);
    if (applied) strata_atomic_add_i64(a->report + STRATA_SPARSE_REP_ENTRIES, applied);
  }
}

/* The class kernels count only bad entries on the device (rare, so their atomics do not contend);
 * packets and entries applied follow from the classification's totals (unpack_combine). */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_count_bad(const strata_sparse_unpack_args_t *a, int64_t bad) {
  if (bad) strata_atomic_add_i64(a->report + STRATA_SPARSE_REP_BAD_ENTRY, bad);
}

/* Packet id of entry i of a class that starts at pkts[begin] (pkts NULL: i) */
STRATA_KL_FUNC int64_t strata_sparse_unpack_pkt_at(const strata_sparse_unpack_args_t *a, int64_t begin, int64_t i) {
  return a->pkts ? a->pkts[begin + i] : i;
}
STRATA_KL_FUNC int64_t strata_sparse_unpack_pkt(const strata_sparse_unpack_args_t *a, int64_t i) {
  return strata_sparse_unpack_pkt_at(a, a->begin, i);
}
/* Entry i of the launched class is one of its packets: always, except in a dominant class's
 * launch over every packet (a->only >= 0), where the other classes' packets are skipped */
STRATA_KL_FUNC int strata_sparse_unpack_listed(const strata_sparse_unpack_args_t *a, int64_t i) {
  return a->only < 0 || a->cls[i] == a->only;
}

/* ----------------------------------------------------------------- classification */

/* Packet k's class and entry count from its span (-1: malformed span or target row out of
 * range, short class). A packet whose stored count disagrees with its span is classified by the
 * span; its class's kernel finds it malformed and reports it. */
STRATA_KL_FUNC int strata_sparse_unpack_class_of(const strata_sparse_unpack_classify_args_t *a, int64_t k,
                                                 int64_t *count) {
  int64_t row, o0;
  const int st = strata_sparse_unpack_span(a->import_rows, a->offsets, a->num_bytes, a->num_rows, a->n, k, &row,
                                           &o0, count);
  if (st != 0) { /* reported by the short class's kernel */
    *count = -1;
    return STRATA_SPARSE_UNPACK_SHORT;
  }
  if (a->force >= 0)
    return a->force == STRATA_SPARSE_UNPACK_LONG && *count > a->long_cap ? STRATA_SPARSE_UNPACK_VERY_LONG : a->force;
  return strata_sparse_row_class(*count, STRATA_SPARSE_UNPACK_NUM_CLASSES, a->max_len);
}

/* very long: the chunks of a packet of `count` entries (at least one, so that a packet of 0
 * entries is still counted) */
STRATA_KL_FUNC int64_t strata_sparse_unpack_chunks_of(int64_t count, int64_t chunk) {
  return count > chunk ? (count + chunk - 1) / chunk : 1;
}

/* The packed per-class counter of one packet of class c (see strata_sparse_unpack_classify_args_t) */
#define STRATA_SPARSE_UNPACK_FIELD(c) ((int64_t)1 << (STRATA_SPARSE_UNPACK_FIELD_BITS * (c)))
#define STRATA_SPARSE_UNPACK_FIELD_GET(v, c) \
  (((v) >> (STRATA_SPARSE_UNPACK_FIELD_BITS * (c))) & (((int64_t)1 << STRATA_SPARSE_UNPACK_FIELD_BITS) - 1))

/* Partition pass 1, a team per tile of packets: classify each packet (counts[k], cls[k]), count
 * the tile's packets per class (tile_counts, class-major) and add the tile's totals to stats. */
STRATA_TEAM_KERNEL(strata_sparse_unpack_classify, strata_sparse_unpack_classify_args_t, a, team) {
  const int64_t t = team->league_rank, b = t * a->tile;
  const int64_t e = b + a->tile < a->n ? b + a->tile : a->n;
  int64_t packed, entries, descents, longest, chunks;
  STRATA_TEAM_THREAD_REDUCE(team, k, b, e, SUM, i64, packed) {
    int64_t count;
    const int c = strata_sparse_unpack_class_of(a, k, &count);
    a->counts[k] = count;
    a->cls[k] = (unsigned char)c;
    /* listed up to VL_LIST_MAX (no atomic once the count is past it: inputs made of very long
     * packets would otherwise put one on a single address per packet) */
    if (c == STRATA_SPARSE_UNPACK_VERY_LONG &&
        strata_atomic_load_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_VL_NEXT) < STRATA_SPARSE_UNPACK_VL_LIST_MAX) {
      const int64_t at = strata_atomic_fetch_add_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_VL_NEXT, 1);
      if (at < STRATA_SPARSE_UNPACK_VL_LIST_MAX) a->pkts[at] = k; /* pkts[0, nv): the list */
    }
    packed += STRATA_SPARSE_UNPACK_FIELD(c);
  }
  /* counts and cls as written above: the reduction ends with a team barrier */
  STRATA_TEAM_THREAD_REDUCE(team, k, b, e, SUM, i64, entries) {
    if (a->counts[k] > 0) entries += a->counts[k];
  }
  /* places where the offsets decrease: packets would overlap, so the call is refused (unpack.c;
   * invalid packets are counted by their kernels) */
  STRATA_TEAM_THREAD_REDUCE(team, k, b, e, SUM, i64, descents) {
    if (a->offsets[k + 1] < a->offsets[k]) descents += 1;
  }
  STRATA_TEAM_THREAD_REDUCE(team, k, b, e, MAX, i64, longest) {
    if (a->cls[k] == STRATA_SPARSE_UNPACK_LONG && a->counts[k] > longest) longest = a->counts[k];
  }
  STRATA_TEAM_THREAD_REDUCE(team, k, b, e, SUM, i64, chunks) {
    if (a->cls[k] == STRATA_SPARSE_UNPACK_VERY_LONG)
      chunks += strata_sparse_unpack_chunks_of(a->counts[k], a->chunk);
  }
  if (strata_team_single(team)) {
    for (int c = 0; c < STRATA_SPARSE_UNPACK_NUM_CLASSES; ++c) {
      const int64_t m = STRATA_SPARSE_UNPACK_FIELD_GET(packed, c);
      a->tile_counts[c * a->ntiles + t] = m;
      if (m) strata_atomic_add_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_CLASS + c, m);
    }
    if (descents) strata_atomic_add_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_DESCENTS, descents);
    if (entries) strata_atomic_add_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_ENTRIES, entries);
    if (longest > 0) strata_atomic_max_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_LONG_MAX, longest);
    a->tile_counts[STRATA_SPARSE_UNPACK_NUM_CLASSES * a->ntiles + t] = chunks;
    if (chunks) strata_atomic_add_i64(a->stats + STRATA_SPARSE_UNPACK_STAT_CHUNKS, chunks);
  }
}

/* Partition pass 2, the same tiles, after one exclusive scan of tile_counts (class-major: the
 * first position of tile t's class-c packets; then n + the very long chunks of the tiles before
 * t): pkts[position] = k, packets in index order within their class (a stable partition, the
 * same on every backend), and each very long packet's first chunk (its chunk count, then a scan
 * of the tile's very long packets in place). Launch bounds: 3 tiles of 512 a multiprocessor (40
 * registers, not 56: 75 % occupancy instead of 50 %; H200, power-law packets 0.189 -> 0.174 ms,
 * 27-point and FEM unchanged within noise). */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_scatter_tile(const strata_sparse_unpack_classify_args_t *a,
                                                           const strata_team_t *team, int skip) {
  const int64_t t = team->league_rank, b = t * a->tile;
  const int64_t e = b + a->tile < a->n ? b + a->tile : a->n;
  int64_t s;
  STRATA_TEAM_THREAD_SCAN(team, k, b, e, s, final) {
    const int c = a->cls[k];
    if (final && c != skip) {
      const int64_t at = a->tile_counts[c * a->ntiles + t] + STRATA_SPARSE_UNPACK_FIELD_GET(s, c);
      a->pkts[at] = k;
      if (c == STRATA_SPARSE_UNPACK_VERY_LONG)
        a->first_chunk[at - a->very_long_begin] = strata_sparse_unpack_chunks_of(a->counts[k], a->chunk);
    }
    s += STRATA_SPARSE_UNPACK_FIELD(c);
  }
  if (a->nv == 0) return; /* uniform over the team */
  if (t == a->ntiles - 1 && strata_team_single(team)) a->first_chunk[a->nv] = a->num_chunks;
  const int64_t v0 = a->tile_counts[STRATA_SPARSE_UNPACK_VERY_LONG * a->ntiles + t] - a->very_long_begin;
  const int64_t v1 = v0 + STRATA_SPARSE_UNPACK_FIELD_GET(s, STRATA_SPARSE_UNPACK_VERY_LONG); /* s: the tile's total */
  const int64_t first = a->tile_counts[STRATA_SPARSE_UNPACK_NUM_CLASSES * a->ntiles + t] - a->n;
  strata_team_barrier(team); /* the chunk counts written above */
  int64_t q;
  STRATA_TEAM_THREAD_SCAN(team, i, v0, v1, q, final) {
    const int64_t m = a->first_chunk[i];
    if (final) a->first_chunk[i] = first + q;
    q += m;
  }
}

STRATA_TEAM_KERNEL_BOUNDS(strata_sparse_unpack_scatter, strata_sparse_unpack_classify_args_t, a, team, 512, 3) {
  strata_sparse_unpack_scatter_tile(a, team, -1);
}

/* the scatter pass beside a dominant class (a->skip): tiles holding only its packets list nothing.
 * A kernel of its own: with the early return and the skip test in the plain pass, ptxas sm_90
 * gave it 60 / 88 bytes of spill stores / loads instead of 40 / 40, on every two-pass call. */
STRATA_TEAM_KERNEL_BOUNDS(strata_sparse_unpack_scatter_skip, strata_sparse_unpack_classify_args_t, a, team, 512, 3) {
  const int64_t t = team->league_rank, b = t * a->tile;
  const int64_t e = b + a->tile < a->n ? b + a->tile : a->n;
  if (a->tile_counts[a->skip * a->ntiles + t + 1] - a->tile_counts[a->skip * a->ntiles + t] == e - b) {
    /* every packet of the tile in the dominant class: nothing to list (uniform over the team) */
    if (a->nv > 0 && t == a->ntiles - 1 && strata_team_single(team)) a->first_chunk[a->nv] = a->num_chunks;
    return;
  }
  strata_sparse_unpack_scatter_tile(a, team, a->skip);
}

/* The listed very long packets sorted (so that they run in packet order, as the two-pass grouping
 * lists them, whatever order the classification's atomics gave) with their first chunks. */
STRATA_TEAM_KERNEL(strata_sparse_unpack_vl_list, strata_sparse_unpack_vl_list_args_t, a, team) {
  int64_t *keys = (int64_t *)team->scratch, *nch = keys + a->nv;
  STRATA_TEAM_VECTOR_RANGE(team, i, 0, a->nv) {
    keys[i] = a->vl_list[i];
    nch[i] = strata_sparse_unpack_chunks_of(a->counts[keys[i]], a->chunk);
  }
  strata_team_sort_i64_i64(team, keys, nch, a->nv); /* barriers before and after */
  STRATA_TEAM_VECTOR_RANGE(team, i, 0, a->nv) { a->vl_list[i] = keys[i]; }
  int64_t s;
  STRATA_TEAM_THREAD_SCAN(team, i, 0, a->nv, s, final) {
    if (final) a->first_chunk[i] = s;
    s += nch[i];
  }
  if (strata_team_single(team)) a->first_chunk[a->nv] = s;
}

/* ----------------------------------------------------------------- the classes */

/* Entries [jb, je) of packet k (je clipped to its count) by `width` lanes, this one `lane` of
 * them: entries jb + lane, jb + lane + width, ... (a probe and a binary search each). A malformed
 * packet or one whose row is out of range is counted by lane 0 of the part at entry 0; bad
 * entries are counted by an atomic per lane that found any (they are rare, so it does not
 * contend). No reduction or barrier, so that lanes may be any part of a team, and a kernel that
 * mixes classes holds no more registers than a thread per packet does (team reductions in the
 * very long chunks cost the mixed launch a fifth of its resident warps on the H200). runs (the
 * very long chunks, a literal at each call so that the other classes' code is unchanged): an
 * entry that repeats the lane's last column reuses its position, and ADD sums such a run before
 * one atomic. A bulk node's packet names its own diagonal every other entry, so with an even
 * width half the lanes meet only that column: about 15.6k searches of 14 steps and 15.6k atomics
 * on one address per bulk node in the FEM job, down to one search and one atomic per lane and
 * chunk. */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_lanes(const strata_sparse_unpack_args_t *a, int64_t k, int64_t jb,
                                                    int64_t je, int64_t lane, int64_t width, int runs) {
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  const int st = STRATA_SPARSE_UNPACK_PACKET(a, k, row, count, gids, vals);
  if (st != 0) {
    if (jb == 0 && lane == 0) strata_sparse_unpack_bad_packet(a->report, st, count);
    return;
  }
  if (je > count) je = count;
  const int64_t rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  const double scale = strata_sparse_unpack_scale(rb, re, count);
  int64_t bad = 0;
  if (!runs) {
    for (int64_t j = jb + lane; j < je; j += width)
      bad += strata_sparse_unpack_entry(a, rb, re, strata_sparse_unpack_guess(rb, scale, j), gids[j], vals[j]);
  } else { /* a lane's entries that repeat its last column: no search, and ADD sums the run first */
    const int add = a->mode == STRATA_COMBINE_ADD;
    int64_t lid0 = -1, pos = -1;
    double run = -0.0; /* the identity of +, -0 included */
    for (int64_t j = jb + lane; j < je; j += width) {
      const int64_t lid = strata_sparse_unpack_lid(a, gids[j]);
      if (pos < 0 || lid != lid0) {
        if (pos >= 0 && add) strata_atomic_add_f64(a->values + pos, run);
        pos = strata_sparse_unpack_pos(a, rb, re, strata_sparse_unpack_guess(rb, scale, j), lid);
        lid0 = lid;
        run = -0.0;
        if (pos < 0) {
          ++bad;
          continue;
        }
      }
      if (add)
        run += vals[j];
      else
        strata_sparse_unpack_combine1(a->mode, a->values + pos, vals[j]);
    }
    if (pos >= 0 && add) strata_atomic_add_f64(a->values + pos, run);
  }
  strata_sparse_unpack_count_bad(a, bad);
}

/* Lane `lane` of `width` over chunk q of the very long packets pkts[begin .. begin + n) (their first
 * chunks in a->first_chunk): entries of the chunk lane, lane + width, ... */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_chunk_lane(const strata_sparse_unpack_args_t *a, const int64_t *pkts,
                                                         int64_t begin, int64_t n, int64_t q, int64_t lane,
                                                         int64_t width) {
  /* the class packet of chunk q: the last i with first_chunk[i] <= q */
  const int64_t i = strata_kl_lower_bound_i64(a->first_chunk, 0, n + 1, q + 1) - 1;
  const int64_t b = (q - a->first_chunk[i]) * a->chunk;
  strata_sparse_unpack_lanes(a, pkts ? pkts[begin + i] : begin + i, b, b + a->chunk, lane, width, 1);
}

/* Where each entry of packet k would be combined (strata_sparse_unpack_positions): a team per
 * packet, its lanes over the entries, the same probe and search as the combine. The packet's first
 * entry is entry (offsets[k] - 8 k) / 16 of all packets (each packet 8 + 16 c bytes, from byte 0:
 * exact while every packet before k is well formed; the call refuses any malformed one, and a
 * packet whose entries would fall outside the E the buffer holds writes nothing). */
STRATA_TEAM_KERNEL(strata_sparse_unpack_locate, strata_sparse_unpack_args_t, a, team) {
  const int64_t k = team->league_rank;
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  int st = STRATA_SPARSE_UNPACK_PACKET(a, k, row, count, gids, vals);
  (void)vals;
  const int64_t base = (a->offsets[k] - 8 * k) / 16;
  if (st == 0 && (base < 0 || base + count > a->num_entries)) st = 1; /* after malformed packets: no slot of its own */
  if (st != 0) {
    if (strata_team_single(team)) strata_sparse_unpack_bad_packet(a->report, st, count);
    return;
  }
  const int64_t rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  const double scale = strata_sparse_unpack_scale(rb, re, count);
  int64_t bad;
  STRATA_TEAM_VECTOR_REDUCE(team, j, 0, count, SUM, i64, bad) {
    const int64_t p = strata_sparse_unpack_pos(a, rb, re, strata_sparse_unpack_guess(rb, scale, j),
                                               strata_sparse_unpack_lid(a, gids[j]));
    a->positions[base + j] = p;
    if (p < 0) bad += 1;
  }
  if (bad && strata_team_single(team)) strata_atomic_add_i64(a->report + STRATA_SPARSE_REP_BAD_ENTRY, bad);
}

/* short (one-level): a thread per packet. Also every packet whose offsets are inconsistent and
 * every packet with a target row out of range lands here (one whose stored count alone is wrong
 * lands in the class of its span, whose kernel reports it). */
STRATA_FOR_KERNEL(strata_sparse_unpack_one_level, strata_sparse_unpack_args_t, a, i) {
  if (!strata_sparse_unpack_listed(a, i)) return;
  strata_sparse_unpack_lanes(a, strata_sparse_unpack_pkt(a, i), 0, INT64_MAX, 0, 1, 0);
}

/* The short class dominant beside listed very long packets (the FEM job's bulk nodes): the very
 * long chunks' lanes (vl_lanes indices, first, so that they start early), then the one-level
 * kernel over every packet, the others skipped. One launch, a flat range: the chunks' lanes
 * carry no barrier or reduction (strata_sparse_unpack_lanes). A kernel of its own, so that the
 * plain one-level kernel keeps 37 registers (40 with the lanes; ptxas sm_90). */
STRATA_FOR_KERNEL(strata_sparse_unpack_short_vl, strata_sparse_unpack_args_t, a, i) {
  if (i < a->vl_lanes) {
    strata_sparse_unpack_chunk_lane(a, a->vl_pkts, 0, a->vl_count, i / a->vl_width, i % a->vl_width, a->vl_width);
    return;
  }
  i -= a->vl_lanes; /* then as the one-level kernel (a->only: the short class, pkts NULL) */
  if (!strata_sparse_unpack_listed(a, i)) return;
  strata_sparse_unpack_lanes(a, strata_sparse_unpack_pkt(a, i), 0, INT64_MAX, 0, 1, 0);
}

/* medium (three-level): a team per block of per_team packets, a team thread per packet, its
 * vector lanes over the packet's entries. */
STRATA_TEAM_KERNEL(strata_sparse_unpack_medium, strata_sparse_unpack_args_t, a, team) {
  const int64_t b = team->league_rank * a->per_team;
  const int64_t e = b + a->per_team < a->count ? b + a->per_team : a->count;
  STRATA_TEAM_THREAD_RANGE(team, i, b, e) {
    if (strata_sparse_unpack_listed(a, i))
      strata_sparse_unpack_lanes(a, strata_sparse_unpack_pkt(a, i), 0, INT64_MAX, team->vector_rank, team->vector_length, 0);
  }
}

/* long (two-level): a team per packet. Its (local column, entry) keys and values go to team
 * scratch ([count] int64 keys, then [count] doubles), are sorted there (strata_team_sort), and
 * one sorted-sorted merge pass against the fill-complete target row combines them: each of the
 * team's threads x lanes takes a contiguous block of the sorted entries, finds its block's first
 * column with one binary search and walks the row from there. Duplicates within the packet are
 * neighbours after the sort; ADD sums each run locally and adds it with one atomic. Columns with
 * no local id sort to the end (NO_LID) and were counted while loading. */
STRATA_TEAM_KERNEL(strata_sparse_unpack_long, strata_sparse_unpack_args_t, a, team) {
  const int64_t k = strata_sparse_unpack_pkt(a, team->league_rank);
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  const int st = STRATA_SPARSE_UNPACK_PACKET(a, k, row, count, gids, vals);
  if (st != 0) { /* uniform over the team: no barrier is skipped by some threads only */
    if (strata_team_single(team)) strata_sparse_unpack_bad_packet(a->report, st, count);
    return;
  }
  int64_t *keys = (int64_t *)team->scratch;
  double *sv = (double *)(keys + count);
  int64_t nolid;
  STRATA_TEAM_VECTOR_REDUCE(team, e, 0, count, SUM, i64, nolid) {
    int64_t lid = strata_sparse_unpack_lid(a, gids[e]);
    if (lid < 0) {
      nolid += 1;
      lid = STRATA_SPARSE_UNPACK_NO_LID;
    }
    keys[e] = (lid << 32) | e;
    sv[e] = vals[e];
  }
  strata_team_sort_i64_f64(team, keys, sv, count); /* barriers before and after */
  const int64_t P = (int64_t)team->team_size * team->vector_length;
  const int64_t me = (int64_t)team->team_rank * team->vector_length + team->vector_rank;
  const int64_t per = (count + P - 1) / P;
  const int64_t lo = me * per < count ? me * per : count;
  const int64_t hi = lo + per < count ? lo + per : count;
  const int64_t rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  int64_t bad = 0, cur = -1;
  double acc = -0.0; /* the identity of +: a run of -0.0 adds -0.0, as entry-by-entry adds do */
  int64_t pos = lo < hi ? strata_kl_lower_bound_i32(a->col_indices, rb, re, keys[lo] >> 32) : re;
  for (int64_t e = lo; e < hi; ++e) {
    const int64_t lid = keys[e] >> 32;
    if (lid == STRATA_SPARSE_UNPACK_NO_LID) break; /* the rest: no local id, already counted */
    while (pos < re && (int64_t)a->col_indices[pos] < lid) ++pos;
    if (pos < re && (int64_t)a->col_indices[pos] == lid) {
      if (a->mode == STRATA_COMBINE_ADD) {
        if (pos != cur) {
          if (cur >= 0) strata_atomic_add_f64(a->values + cur, acc);
          cur = pos;
          acc = -0.0;
        }
        acc += sv[e];
      } else {
        strata_sparse_unpack_combine1(a->mode, a->values + pos, sv[e]);
      }
    } else {
      ++bad;
    }
  }
  if (cur >= 0) strata_atomic_add_f64(a->values + cur, acc);
  strata_sparse_unpack_count_bad(a, bad + (strata_team_single(team) ? nolid : 0));
}

/* very long (three-level, split): chunk q of the class's packets pkts[begin .. begin + n) (their
 * first chunks in a->first_chunk), `chunk` entries, the team's threads x lanes over it (a probe
 * and a binary search each). */
STRATA_KL_TEAM_FUNC void strata_sparse_unpack_chunk(const strata_sparse_unpack_args_t *a, const strata_team_t *team,
                                                    int64_t begin, int64_t n, int64_t q) {
  const int64_t vl = team->vector_length;
  strata_sparse_unpack_chunk_lane(a, a->pkts, begin, n, q, (int64_t)team->team_rank * vl + team->vector_rank,
                                  (int64_t)team->team_size * vl);
}

STRATA_TEAM_KERNEL(strata_sparse_unpack_very_long, strata_sparse_unpack_args_t, a, team) {
  strata_sparse_unpack_chunk(a, team, a->begin, a->count, team->league_rank);
}

/* GPUs, when very long packets exist: every class but LONG in one launch (f->end: the sections'
 * cumulative team counts). The very long chunks come first, so that they run beside the other
 * classes instead of alone at the end (the few nearly dense rows of bulk nodes); then the wide
 * packets a team thread each, its lanes over the entries; then the medium packets f->narrow
 * lanes each; then the short packets a lane each. */
STRATA_TEAM_KERNEL(strata_sparse_unpack_fused, strata_sparse_unpack_fused_args_t, f, team) {
  const strata_sparse_unpack_args_t *a = &f->u;
  const int64_t t = team->league_rank;
  if (t < f->end[0]) {
    strata_sparse_unpack_chunk(a, team, f->begin[STRATA_SPARSE_UNPACK_VERY_LONG], f->count[STRATA_SPARSE_UNPACK_VERY_LONG], t);
    return;
  }
  const int64_t vl = team->vector_length, me = (int64_t)team->team_rank * vl + team->vector_rank;
  const int c = t < f->end[1] ? STRATA_SPARSE_UNPACK_MEDIUM_WIDE : t < f->end[2] ? STRATA_SPARSE_UNPACK_MEDIUM
                                                                                : STRATA_SPARSE_UNPACK_SHORT;
  const int64_t s = t - f->end[c == STRATA_SPARSE_UNPACK_MEDIUM_WIDE ? 0 : c == STRATA_SPARSE_UNPACK_MEDIUM ? 1 : 2];
  const int64_t width = c == STRATA_SPARSE_UNPACK_MEDIUM_WIDE ? vl : c == STRATA_SPARSE_UNPACK_MEDIUM ? f->narrow : 1;
  const int64_t i = s * ((int64_t)team->team_size * vl / width) + me / width;
  if (i >= f->count[c]) return;
  if (c != f->only)
    strata_sparse_unpack_lanes(a, strata_sparse_unpack_pkt_at(a, f->begin[c], i), 0, INT64_MAX, me % width, width, 0);
  else if (a->cls[i] == c) /* the dominant class: packet i, the other classes' skipped */
    strata_sparse_unpack_lanes(a, i, 0, INT64_MAX, me % width, width, 0);
}

/* ----------------------------------------------------------------- examples (error path) */

/* The first k with offsets[k + 1] < offsets[k] (MIN reduce over [0, n); INT64_MAX: none) */
STRATA_REDUCE_KERNEL(strata_sparse_unpack_first_descent, strata_sparse_unpack_classify_args_t, a, k, i64, acc) {
  if (a->offsets[k + 1] < a->offsets[k] && k < *acc) *acc = k;
}

/* The invalid items of packet k in entry order: a malformed packet, or one whose row is out of
 * range, is one item (row, -1); else each entry whose column has no local id (INSERT) or is not
 * in the target row's pattern (the other modes) is one (row, global column); each with k. Returns how many;
 * with rep, those of rank first + i below the example slots are written there: the report's
 * first examples in packet order. */
STRATA_KL_FUNC int64_t strata_sparse_unpack_items(const strata_sparse_unpack_args_t *a, int64_t k, int64_t first,
                                                  int64_t *rep) {
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  const int st = STRATA_SPARSE_UNPACK_PACKET(a, k, row, count, gids, vals);
  if (st != 0) {
    if (rep && first < STRATA_SPARSE_REP_MAX_EXAMPLES) {
      int64_t *ex = rep + STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * first;
      ex[0] = row;
      ex[1] = -1;
      ex[2] = st == 1 ? STRATA_UNPACK_EXAMPLE_PACKET : STRATA_UNPACK_EXAMPLE_ROW;
      ex[3] = k;
    }
    return 1;
  }
  const int insert = a->mode == STRATA_COMBINE_INSERT; /* INSERT: the target's pattern is not used */
  const int64_t rb = insert ? 0 : a->row_offsets[row], re = insert ? 0 : a->row_offsets[row + 1];
  const double scale = strata_sparse_unpack_scale(rb, re, count);
  int64_t n = 0;
  for (int64_t j = 0; j < count && (!rep || first + n < STRATA_SPARSE_REP_MAX_EXAMPLES); ++j) {
    const int64_t lid = strata_sparse_unpack_lid(a, gids[j]);
    if (insert ? lid >= 0 : strata_sparse_unpack_pos(a, rb, re, strata_sparse_unpack_guess(rb, scale, j), lid) >= 0)
      continue;
    if (rep) {
      int64_t *ex = rep + STRATA_SPARSE_REP_EXAMPLES + STRATA_SPARSE_REP_EX_SLOTS * (first + n);
      ex[0] = row;
      ex[1] = gids[j];
      ex[2] = STRATA_UNPACK_EXAMPLE_ENTRY;
      ex[3] = k;
    }
    ++n;
  }
  return n;
}

/* a thread per packet: bad_first[k] = its invalid items (then scanned into the rank of its first) */
STRATA_FOR_KERNEL(strata_sparse_unpack_bad_count, strata_sparse_unpack_args_t, a, k) {
  a->bad_first[k] = strata_sparse_unpack_items(a, k, 0, NULL);
}

/* a thread per packet whose first item ranks below the example slots: its items into them */
STRATA_FOR_KERNEL(strata_sparse_unpack_bad_list, strata_sparse_unpack_args_t, a, k) {
  const int64_t first = a->bad_first[k];
  if (first < STRATA_SPARSE_REP_MAX_EXAMPLES) strata_sparse_unpack_items(a, k, first, a->report);
}

/* ----------------------------------------------------------------- INSERT (multi-pass) */

/* count pass: a thread per packet; its entries with a local column id (see
 * strata_sparse_unpack_insert_args_t). */
STRATA_FOR_KERNEL(strata_sparse_unpack_insert_count, strata_sparse_unpack_insert_args_t, a, k) {
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  if (a->u.offsets[k + 1] < a->u.offsets[k]) strata_atomic_add_i64(a->u.report + STRATA_SPARSE_REP_DESCENTS, 1);
  const int st = STRATA_SPARSE_UNPACK_PACKET(&a->u, k, row, count, gids, vals);
  if (st != 0) {
    strata_sparse_unpack_bad_packet(a->u.report, st, -1); /* INSERT counts its entries itself */
    a->cnt[k] = 0;
    return;
  }
  int64_t bad = 0;
  for (int64_t e = 0; e < count; ++e) bad += strata_sparse_unpack_lid(&a->u, gids[e]) < 0;
  a->cnt[k] = count - bad;
  strata_sparse_unpack_count(&a->u, 1, count - bad, bad);
}

/* fill pass: packet k's valid entries into the COO at base + cnt[k] (cnt scanned). */
STRATA_FOR_KERNEL(strata_sparse_unpack_insert_fill, strata_sparse_unpack_insert_args_t, a, k) {
  int64_t row, count;
  const int64_t *gids = NULL;
  const double *vals = NULL;
  if (STRATA_SPARSE_UNPACK_PACKET(&a->u, k, row, count, gids, vals) != 0) return;
  int64_t o = a->base + a->cnt[k];
  for (int64_t e = 0; e < count; ++e) {
    const int64_t lid = strata_sparse_unpack_lid(&a->u, gids[e]);
    if (lid < 0) continue;
    a->rows[o] = (int32_t)row;
    a->cols[o] = (int32_t)lid;
    a->vals[o] = vals[e];
    ++o;
  }
}

/* copy pass: the target's own entries (columns, values) at the start of the COO. */
STRATA_FOR_KERNEL(strata_sparse_unpack_insert_copy, strata_sparse_unpack_insert_args_t, a, j) {
  a->cols[j] = a->u.col_indices[j];
  a->vals[j] = a->u.values[j];
}
