/* strata sparse — permutations of the storage formats' permuted basis (strata_format_permute_in /
 * _out in formats.c; the inverse and the identity test of pJDS's row order in format_pjds.c),
 * written once for every backend: a thread per position. Also the alpha step of a format SpMV
 * with alpha infinite or NaN (formats.c). */
#include <strata/kl.h>

#include "format_perm_args.h"
#include "store_y.h"

STRATA_FOR_KERNEL(strata_fmt_perm_gather, strata_fmt_perm_args_t, a, i) { a->dst[i] = a->src[a->map[i]]; }

STRATA_FOR_KERNEL(strata_fmt_perm_scatter, strata_fmt_perm_args_t, a, i) { a->dst[a->map[i]] = a->src[i]; }

STRATA_FOR_KERNEL(strata_fmt_perm_invert, strata_fmt_perm_args_t, a, i) { a->inv[a->map[i]] = (int32_t)i; }

STRATA_REDUCE_KERNEL(strata_fmt_perm_moved, strata_fmt_perm_args_t, a, i, i64, acc) {
  if ((int64_t)a->map[i] != i) *acc += 1;
}

STRATA_FOR_KERNEL(strata_fmt_axpby, strata_fmt_axpby_args_t, a, i) {
  strata_sparse_store_y(&a->y[i], a->alpha, a->t[i], a->beta);
}
