/* The example's kernels, written once in strata's kernel language and compiled for every
 * backend of the installed strata by strata_add_kernels (CMakeLists.txt). */
#include <strata/kl.h>

#include "saxpy.h"

STRATA_FOR_KERNEL(saxpy, saxpy_args_t, A, i) { A->y[i] = A->a * A->x[i] + A->y[i]; }

STRATA_REDUCE_KERNEL(saxpy_dot, saxpy_args_t, A, i, f64, acc) { *acc += (double)A->x[i] * (double)A->y[i]; }
