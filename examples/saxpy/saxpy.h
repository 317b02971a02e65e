/* The example's kernel arguments, shared by the kernel source and the host program. Every
 * pointer is memory of the launching execution space. */
#ifndef SAXPY_H
#define SAXPY_H
#include <stdint.h>

/* y[i] = a * x[i] + y[i] (saxpy); the dot kernel sums x[i] * y[i] */
typedef struct saxpy_args {
  float a;
  const float *x; /* [n] */
  float *y;       /* [n] */
} saxpy_args_t;

#endif
