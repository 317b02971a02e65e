/* strata — device-wide exclusive scan of int64 values, on the parallel_scan pattern. */
#include <strata/kl.h>

#include "scan_args.h"

STRATA_SCAN_KERNEL(strata_impl_scan_exclusive_i64, strata_impl_scan_args_t, a, i, i64, partial, final) {
  const int64_t v = a->in[i];
  if (final) a->out[i] = *partial;
  *partial = (int64_t)((uint64_t)*partial + (uint64_t)v); /* wraps (runtime.h), no signed overflow */
}
