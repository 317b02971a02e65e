/* strata sparse — the row-length class of a row (or an incoming packet), shared by the kernels
 * that group work by class (SpMV plan: spmv_plan.kl.c; unpack_combine: pack.kl.c). Include after
 * <strata/kl.h>. */
#ifndef STRATA_SPARSE_ROW_CLASS_H
#define STRATA_SPARSE_ROW_CLASS_H

/* The first class c in [0, num_classes) with len <= max_len[c]; the last class when none. */
STRATA_KL_FUNC int strata_sparse_row_class(int64_t len, int num_classes, const int64_t *max_len) {
  for (int c = 0; c < num_classes; ++c)
    if (len <= max_len[c]) return c;
  return num_classes - 1;
}

/* The grouping key of item i of n in class c: the class alone — a stable sort of the keys (a
 * single radix pass over the few class bits) groups the items by class, in item order within a
 * class (strata_sparse_impl_group_by_class). */
STRATA_KL_FUNC int64_t strata_sparse_class_key(int c, int64_t n, int64_t i) {
  (void)n, (void)i;
  return (int64_t)c;
}

#endif
