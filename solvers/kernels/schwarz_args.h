/* strata solvers — argument structs of the Schwarz kernels (solvers/kernels/schwarz.kl.c), shared
 * with the host code that launches them (solvers/src/partition.c). Plain C, valid as C11 and
 * C++17. Every pointer is exec memory.
 *
 * The extended index sets are one sorted array of keys p·n + g (n the rows of A): the pair
 * (partition p, global row g), ascending, so block p's rows lie together in ascending row order and
 * the position of a key is its row in the block-diagonal matrix B (its "extended row" e). */
#ifndef STRATA_SCHWARZ_ARGS_H
#define STRATA_SCHWARZ_ARGS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The graph of A + Aᵀ as COO (for over the rows i): entry k = (i, c) of A gives rows[2k] = i,
 *  cols[2k] = c and rows[2k + 1] = c, cols[2k + 1] = i. */
typedef struct strata_schwarz_sym_coo_args {
  const int64_t *row_offsets;
  const int32_t *col_indices;
  int32_t *rows;
  int32_t *cols;
} strata_schwarz_sym_coo_args_t;

/** Layer 0 (for over the rows i): keys[i] = part[i]·n + i, flags[i] = 0. */
typedef struct strata_schwarz_own_keys_args {
  const int32_t *part;
  int64_t n;
  int64_t *keys;
  int64_t *flags;
} strata_schwarz_own_keys_args_t;

/** One layer of overlap (for over the frontier's keys k): the neighbours of frontier pair
 *  (p, g) = (front[k] / n, front[k] % n) are the columns c of A's row g; those with
 *  part[c] != p (the others are in block p since layer 0). count != NULL: count[k] = how many;
 *  else they are written from out_keys[offsets[k]] on as p·n + c, with out_flags = 1 (new). */
typedef struct strata_schwarz_layer_args {
  const int64_t *front;
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const int32_t *part;
  int64_t n;
  int64_t *count;
  const int64_t *offsets;
  int64_t *out_keys;
  int64_t *out_flags;
} strata_schwarz_layer_args_t;

/** Scan over sorted keys with their flags (stable sort: within a run of equal keys the old ones,
 *  flag 0, come first): an item is kept when it starts its run and, with only_new, when its flag
 *  is 1 (a pair not yet in the set); kept keys go to out[exclusive prefix]. */
typedef struct strata_schwarz_unique_args {
  const int64_t *keys;
  const int64_t *flags;
  int only_new;
  int64_t *out;
} strata_schwarz_unique_args_t;

/** Group starts of sorted keys (for over k in [0, len)): group(k) = keys[k] / div, ascending, in
 *  [0, num_groups); starts[q] = the first k of group q, or of the next nonempty group for an empty
 *  one, starts[num_groups] = len: every entry of starts [num_groups + 1] written once in all. */
typedef struct strata_schwarz_group_starts_args {
  const int64_t *keys;
  int64_t len;
  int64_t div;
  int64_t num_groups;
  int64_t *starts;
} strata_schwarz_group_starts_args_t;

/** For over the extended rows e: map[e] = g = keys[e] % n; own[g] = e when e is the copy in g's own
 *  partition (part[g] == keys[e] / n), each g's once; copy_keys != NULL (additive Schwarz):
 *  copy_keys[e] = g, copy_rows[e] = e, the pairs a sort groups by row. */
typedef struct strata_schwarz_map_args {
  const int64_t *keys;
  const int32_t *part;
  int64_t n;
  int32_t *map;
  int32_t *own;
  int64_t *copy_keys;
  int64_t *copy_rows;
} strata_schwarz_map_args_t;

/** Extraction of B (for over the extended rows e, block p = keys[e] / n, row g = keys[e] % n):
 *  the entries (g, c) of A whose column c is in block p (key p·n + c found by binary search in
 *  keys[starts[p], starts[p + 1])); its column in B is that key's position. count != NULL:
 *  count[e] = how many; else row e is written from offsets[e] on: cols, vals = A's value and
 *  src = the index of the entry in A. */
typedef struct strata_schwarz_extract_args {
  const int64_t *keys;
  const int64_t *starts;
  const int64_t *row_offsets;
  const int32_t *col_indices;
  const double *values;
  int64_t n;
  int64_t *count;
  const int64_t *offsets;
  int32_t *cols;
  double *vals;
  int64_t *src;
} strata_schwarz_extract_args_t;

/** B's values again (for over B's entries k): vals[k] = a_values[src[k]]. */
typedef struct strata_schwarz_regather_args {
  const int64_t *src;
  const double *a_values;
  double *vals;
} strata_schwarz_regather_args_t;

/** Gather (for over the extended rows e): x_ext[e] = x[map[e]]. */
typedef struct strata_schwarz_gather_args {
  const int32_t *map;
  const double *x;
  double *x_ext;
} strata_schwarz_gather_args_t;

/** Scatter (for over the rows i of A). copy_offsets NULL (restricted): z[i] = z_ext[own[i]];
 *  else z[i] = the sum of z_ext[copies[k]] over k in [copy_offsets[i], copy_offsets[i + 1]), in
 *  that order (copies ascending: deterministic). */
typedef struct strata_schwarz_scatter_args {
  const int32_t *own;
  const int64_t *copy_offsets;
  const int64_t *copies;
  const double *z_ext;
  double *z;
} strata_schwarz_scatter_args_t;

#ifdef __cplusplus
}
#endif
#endif
