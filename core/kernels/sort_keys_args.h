#ifndef STRATA_SORT_KEYS_ARGS_H
#define STRATA_SORT_KEYS_ARGS_H
#include <stdint.h>
/* arguments of strata_impl_sort_first_bad_key (sort_keys.kl.c) */
typedef struct strata_impl_sort_keys_args {
  const int64_t *keys; /* exec memory, the n keys to be sorted */
  int key_bits;        /* valid keys lie in [0, 2^key_bits), 1 <= key_bits <= 63 */
} strata_impl_sort_keys_args_t;
#endif
