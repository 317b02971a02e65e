/* strata sparse — pack rows into packets and unpack-and-combine them (DESIGN §4; Tpetra's
 * CrsMatrix::packAndPrepare / unpackAndCombine, with aligned fields and every invalid entry
 * counted in a device report instead of being dropped). */
#include <strata/kl.h>
#include <strata/sparse.h>

#include "sparse_args.h"

STRATA_FOR_KERNEL(strata_sparse_pack_sizes, strata_sparse_pack_args_t, a, k) {
  const int64_t row = a->rows ? (int64_t)a->rows[k] : k;
  a->offsets[k] = STRATA_SPARSE_PACKET_BYTES(a->row_offsets[row + 1] - a->row_offsets[row]);
}

STRATA_FOR_KERNEL(strata_sparse_pack_rows, strata_sparse_pack_args_t, a, k) {
  const int64_t row = a->rows ? (int64_t)a->rows[k] : k;
  const int64_t b = a->row_offsets[row], count = a->row_offsets[row + 1] - b;
  unsigned char *p = a->data + a->offsets[k];
  int64_t *head = (int64_t *)p;
  int64_t *gids = head + 1;
  double *vals = (double *)(gids + count);
  head[0] = count;
  for (int64_t j = 0; j < count; ++j) {
    const int32_t c = a->col_indices[b + j];
    gids[j] = a->col_gids ? a->col_gids[c] : (int64_t)c;
    vals[j] = a->values[b + j];
  }
}

/* Records one invalid (row, global col) in the next example slot, if one is left. */
#define STRATA_SPARSE_EXAMPLE(rep, row, col)                                                  \
  do {                                                                                        \
    const int64_t slot_ = strata_atomic_fetch_add_i64((rep) + STRATA_SPARSE_REP_NEXT, 1);     \
    if (slot_ < STRATA_SPARSE_REP_MAX_EXAMPLES) {                                             \
      (rep)[STRATA_SPARSE_REP_EXAMPLES + 2 * slot_] = (row);                                  \
      (rep)[STRATA_SPARSE_REP_EXAMPLES + 2 * slot_ + 1] = (col);                              \
    }                                                                                         \
  } while (0)

/* One-level form: a thread per incoming packet, a binary search per entry in the target row. */
STRATA_FOR_KERNEL(strata_sparse_unpack_one_level, strata_sparse_unpack_args_t, a, k) {
  int64_t *rep = a->report;
  const int64_t row = (int64_t)a->import_rows[k];
  const int64_t o0 = a->offsets[k], o1 = a->offsets[k + 1];
  int64_t count = -1;
  if (o0 >= 0 && o0 <= o1 && o1 <= a->num_bytes && o0 % 8 == 0 && o1 - o0 >= 8)
    count = *(const int64_t *)(a->data + o0);
  if (count < 0 || count > (o1 - o0) / 16 || STRATA_SPARSE_PACKET_BYTES(count) != o1 - o0) {
    strata_atomic_add_i64(rep + STRATA_SPARSE_REP_MALFORMED, 1);
    STRATA_SPARSE_EXAMPLE(rep, row, (int64_t)-1);
    return;
  }
  if (row < 0 || row >= a->num_rows) {
    strata_atomic_add_i64(rep + STRATA_SPARSE_REP_BAD_ROW, 1);
    STRATA_SPARSE_EXAMPLE(rep, row, (int64_t)-1);
    return;
  }
  const int64_t *gids = (const int64_t *)(a->data + o0 + 8);
  const double *vals = (const double *)(gids + count);
  const int64_t rb = a->row_offsets[row], re = a->row_offsets[row + 1];
  int64_t applied = 0, bad = 0;
  for (int64_t e = 0; e < count; ++e) {
    const int64_t gid = gids[e];
    int64_t lid = -1;
    if (a->col_lids) {
      if (gid >= 0 && gid < a->num_global) lid = (int64_t)a->col_lids[gid];
    } else if (gid >= 0 && gid < a->num_cols) {
      lid = gid;
    }
    int64_t pos = -1;
    if (lid >= 0) { /* the target row is fill-complete: sorted, unique columns */
      const int64_t lo = strata_kl_lower_bound_i32(a->col_indices, rb, re, lid);
      if (lo < re && (int64_t)a->col_indices[lo] == lid) pos = lo;
    }
    if (pos < 0) {
      ++bad;
      STRATA_SPARSE_EXAMPLE(rep, row, gid);
      continue;
    }
    const double v = vals[e];
    double *t = a->values + pos;
    if (a->mode == STRATA_COMBINE_ADD) {
      strata_atomic_add_f64(t, v);
    } else if (a->mode == STRATA_COMBINE_REPLACE) {
      *t = v;
    } else if (a->mode == STRATA_COMBINE_ABSMAX) { /* CAS loop on the bits of *t */
      uint64_t *tb = (uint64_t *)t;
      const double av = v < 0 ? -v : v;
      uint64_t old = strata_kl_f64_as_u64(*t);
      for (;;) {
        const double cur = strata_kl_u64_as_f64(old);
        if (!(av > (cur < 0 ? -cur : cur))) break;
        const uint64_t seen = strata_atomic_cas_u64(tb, old, strata_kl_f64_as_u64(v));
        if (seen == old) break;
        old = seen;
      }
    } /* ZERO: validated, nothing combined */
    ++applied;
  }
  if (bad) strata_atomic_add_i64(rep + STRATA_SPARSE_REP_BAD_ENTRY, bad);
  if (a->mode != STRATA_COMBINE_ZERO) {
    strata_atomic_add_i64(rep + STRATA_SPARSE_REP_ROWS, 1);
    strata_atomic_add_i64(rep + STRATA_SPARSE_REP_ENTRIES, applied);
  }
}
