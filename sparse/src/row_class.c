/* strata sparse — grouping rows by row-length class on the device, for the SpMV plan
 * (spmv_plan.c; unpack_combine groups its packets with its own tile partition, unpack.c, which
 * also gives the call's totals in the same pass): a kernel wrote keys[i] = class(i)
 * (row_class.h) and perm[i] = i; a stable device sort of the keys over the class bits only (one
 * radix pass for up to 256 classes, instead of the log2(classes · n) bits of (class, item) keys)
 * groups the items by class, in item order within each class, and a lower_bound per class gives
 * the class boundaries. */
#include "sparse_impl.h"

#include "../kernels/spmv_plan_args.h"

STRATA_KERNEL_DECLARE(strata_spmv_bounds);
STRATA_KERNEL_DECLARE(strata_sparse_key_descents);

strata_status_t strata_sparse_impl_group_by_class(strata_exec_t *exec, int64_t n, int num_classes,
                                                  int64_t *keys, int64_t *perm, int64_t *bounds) {
  if (num_classes < 1 || num_classes > STRATA_SPMV_PLAN_MAX_CLASSES)
    return strata_error_set(STRATA_ERR_INTERNAL, "group by class: %d classes (limit %d)", num_classes,
                            STRATA_SPMV_PLAN_MAX_CLASSES);
  for (int c = 0; c <= num_classes; ++c) bounds[c] = 0;
  if (n == 0) return STRATA_SUCCESS;
  int bits = 1;
  while (((int64_t)1 << bits) < (int64_t)num_classes) ++bits; /* keys in [0, num_classes) */
  /* items already in class order (one class, or classes rising with the index) need no sort:
   * one reduction instead of a device sort on every call */
  int64_t descents = 0;
  strata_spmv_bounds_args_t da = {keys, n, 1, NULL};
  strata_status_t st = strata_parallel_reduce(exec, "strata_sparse_key_descents", strata_range(1, n),
                                              &strata_sparse_key_descents, &da, STRATA_REDUCE_SUM, &descents);
  if (st == STRATA_SUCCESS && descents > 0) st = strata_sort_pairs_i64(exec, n, bits, keys, perm);
  int64_t *dbounds = NULL;
  if (st == STRATA_SUCCESS)
    st = strata_sparse_impl_alloc(exec, (size_t)(num_classes + 1) * sizeof(int64_t), (void **)&dbounds);
  strata_spmv_bounds_args_t ba = {keys, n, 1, dbounds}; /* bounds[c] = lower_bound(keys, c · 1) */
  if (st == STRATA_SUCCESS)
    st = strata_parallel_for(exec, "strata_spmv_bounds", strata_range(0, num_classes + 1),
                             &strata_spmv_bounds, &ba);
  if (st == STRATA_SUCCESS)
    st = strata_mem_copy(exec, bounds, dbounds, (size_t)(num_classes + 1) * sizeof(int64_t));
  strata_sparse_impl_free(exec, dbounds);
  bounds[num_classes] = n;
  return st;
}
