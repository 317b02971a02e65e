/* strata solvers — kernels of the Schwarz block decomposition (solvers/src/partition.c): the graph
 * of A + Aᵀ for METIS, the overlap layers of the extended index sets, the extraction of the
 * block-diagonal matrix B, and the gather / scatter of an application. Layouts: schwarz_args.h. */
#include <strata/kl.h>

#include "schwarz_args.h"

STRATA_FOR_KERNEL(strata_schwarz_sym_coo, strata_schwarz_sym_coo_args_t, a, i) {
  for (int64_t k = a->row_offsets[i]; k < a->row_offsets[i + 1]; ++k) {
    const int32_t c = a->col_indices[k];
    a->rows[2 * k] = (int32_t)i;
    a->cols[2 * k] = c;
    a->rows[2 * k + 1] = c;
    a->cols[2 * k + 1] = (int32_t)i;
  }
}

STRATA_FOR_KERNEL(strata_schwarz_own_keys, strata_schwarz_own_keys_args_t, a, i) {
  a->keys[i] = (int64_t)a->part[i] * a->n + i;
  a->flags[i] = 0;
}

STRATA_FOR_KERNEL(strata_schwarz_layer, strata_schwarz_layer_args_t, a, k) {
  const int64_t key = a->front[k];
  const int64_t p = key / a->n, g = key % a->n;
  if (a->count) {
    int64_t c = 0;
    for (int64_t j = a->row_offsets[g]; j < a->row_offsets[g + 1]; ++j)
      c += a->part[a->col_indices[j]] != p;
    a->count[k] = c;
    return;
  }
  int64_t o = a->offsets[k];
  for (int64_t j = a->row_offsets[g]; j < a->row_offsets[g + 1]; ++j) {
    const int32_t c = a->col_indices[j];
    if (a->part[c] == p) continue;
    a->out_keys[o] = p * a->n + c;
    a->out_flags[o] = 1;
    ++o;
  }
}

STRATA_SCAN_KERNEL(strata_schwarz_unique, strata_schwarz_unique_args_t, a, i, i64, partial, final) {
  int64_t keep = i == 0 || a->keys[i] != a->keys[i - 1];
  if (a->only_new) keep = keep && a->flags[i] == 1;
  if (final && keep) a->out[*partial] = a->keys[i];
  *partial += keep;
}

STRATA_FOR_KERNEL(strata_schwarz_group_starts, strata_schwarz_group_starts_args_t, a, k) {
  const int64_t q = a->keys[k] / a->div;
  const int64_t q0 = k == 0 ? 0 : a->keys[k - 1] / a->div + 1;
  for (int64_t r = q0; r <= q; ++r) a->starts[r] = k;
  if (k == a->len - 1)
    for (int64_t r = q + 1; r <= a->num_groups; ++r) a->starts[r] = a->len;
}

STRATA_FOR_KERNEL(strata_schwarz_map, strata_schwarz_map_args_t, a, e) {
  const int64_t key = a->keys[e];
  const int64_t g = key % a->n;
  a->map[e] = (int32_t)g;
  if ((int64_t)a->part[g] == key / a->n) a->own[g] = (int32_t)e;
  if (a->copy_keys) {
    a->copy_keys[e] = g;
    a->copy_rows[e] = e;
  }
}

STRATA_FOR_KERNEL(strata_schwarz_extract, strata_schwarz_extract_args_t, a, e) {
  const int64_t key = a->keys[e];
  const int64_t p = key / a->n, g = key % a->n;
  const int64_t lo = a->starts[p], hi = a->starts[p + 1];
  const int64_t base = p * a->n;
  int64_t o = a->count ? 0 : a->offsets[e];
  for (int64_t j = a->row_offsets[g]; j < a->row_offsets[g + 1]; ++j) {
    const int64_t want = base + a->col_indices[j];
    const int64_t pos = strata_kl_lower_bound_i64(a->keys, lo, hi, want);
    if (pos == hi || a->keys[pos] != want) continue;
    if (!a->count) {
      a->cols[o] = (int32_t)pos;
      a->vals[o] = a->values[j];
      a->src[o] = j;
    }
    ++o;
  }
  if (a->count) a->count[e] = o;
}

STRATA_FOR_KERNEL(strata_schwarz_regather, strata_schwarz_regather_args_t, a, k) {
  a->vals[k] = a->a_values[a->src[k]];
}

STRATA_FOR_KERNEL(strata_schwarz_gather, strata_schwarz_gather_args_t, a, e) {
  a->x_ext[e] = a->x[a->map[e]];
}

STRATA_FOR_KERNEL(strata_schwarz_scatter, strata_schwarz_scatter_args_t, a, i) {
  if (!a->copy_offsets) {
    a->z[i] = a->z_ext[a->own[i]];
    return;
  }
  const int64_t b = a->copy_offsets[i], e = a->copy_offsets[i + 1];
  double s = a->z_ext[a->copies[b]];
  for (int64_t k = b + 1; k < e; ++k) s += a->z_ext[a->copies[k]];
  a->z[i] = s;
}
