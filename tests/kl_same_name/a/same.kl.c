/* strata_add_kernels with two sources of one file name (this one and ../b/same.kl.c) in one
 * target: both must be built (test_kl: test_sources_of_one_name). */
#include <strata/kl.h>

#include "kl_kernels.h"

STRATA_FOR_KERNEL(kl_same_name_a, kl_fill_args_t, a, i) { a->out[i] = 1.0 + (double)i; }
