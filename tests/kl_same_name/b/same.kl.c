/* the twin of ../a/same.kl.c (same file name, another kernel) */
#include <strata/kl.h>

#include "kl_kernels.h"

STRATA_FOR_KERNEL(kl_same_name_b, kl_fill_args_t, a, i) { a->out[i] = -2.0 * (double)i; }
