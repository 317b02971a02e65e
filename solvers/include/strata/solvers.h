/* strata — the solver module (DESIGN §9): operators, vector kernels, Krylov methods and
 * preconditioners (Jacobi, ILU(k) with level-scheduled triangular solves, block-Jacobi and
 * restricted additive Schwarz). Umbrella header; each part has its own header below.
 *
 * Conventions of every solver call: vectors are double arrays in the memory of the execution
 * space passed to the call (exec memory: device memory on GPU backends, host memory on host
 * backends); local lengths are int32_t, as the rows of a CrsMatrix; exec may not be NULL.
 * Reductions (dot products, norms) give the same bits on every run of one backend, device and
 * thread count (strata_parallel_reduce's fixed combine order). */
#ifndef STRATA_SOLVERS_H
#define STRATA_SOLVERS_H
#include "strata/operator.h"
#include "strata/vector.h"
#include "strata/precond.h"
#include "strata/krylov.h"
#include "strata/sptrsv.h"
#include "strata/ilu.h"
#include "strata/schwarz.h"
#include "strata/amg.h"
#endif
