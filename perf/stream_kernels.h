/* strata bench — arguments of the STREAM-like kernels (stream_kernels.kl.c). */
#ifndef STRATA_STREAM_KERNELS_H
#define STRATA_STREAM_KERNELS_H
#include <stdint.h>
typedef struct stream_args {
  const double *a, *b;
  double *c;
  double s;
} stream_args_t;
#endif
