/* strata bench — STREAM-like kernels in the kernel language: copy and triad through parallel_for,
 * sum through parallel_reduce. */
#include <strata/kl.h>

#include "stream_kernels.h"

STRATA_FOR_KERNEL(stream_copy, stream_args_t, k, i) { k->c[i] = k->a[i]; }

STRATA_FOR_KERNEL(stream_triad, stream_args_t, k, i) { k->c[i] = k->a[i] + k->s * k->b[i]; }

STRATA_REDUCE_KERNEL(stream_sum, stream_args_t, k, i, f64, acc) { *acc += k->a[i]; }
