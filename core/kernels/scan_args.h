#ifndef STRATA_SCAN_ARGS_H
#define STRATA_SCAN_ARGS_H
#include <stdint.h>
typedef struct strata_impl_scan_args {
  const int64_t *in;
  int64_t *out;
} strata_impl_scan_args_t;
#endif
