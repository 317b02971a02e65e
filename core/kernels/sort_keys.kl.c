/* strata — key check before strata_sort_pairs_i64: a MIN reduce of the index of every key outside
 * [0, 2^key_bits), so the result is the first offending index (INT64_MAX when all are valid). */
#include <strata/kl.h>

#include "sort_keys_args.h"

STRATA_REDUCE_KERNEL(strata_impl_sort_first_bad_key, strata_impl_sort_keys_args_t, a, i, i64, acc) {
  /* as unsigned: a negative key has its top bit set, so the shift leaves a nonzero value for
   * every key_bits <= 63, exactly as a key >= 2^key_bits does */
  if (((uint64_t)a->keys[i] >> a->key_bits) != 0 && i < *acc) *acc = i;
}
