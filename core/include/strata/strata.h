/* strata — umbrella header of the portable layer. Kernel sources include <strata/kl.h> instead. */
#ifndef STRATA_H
#define STRATA_H
#include "strata/config.h"
#include "strata/error.h"
#include "strata/types.h"
#include "strata/kernel.h"
#include "strata/runtime.h"
#include "strata/parallel.h"
#include "strata/profiling.h"
#include "strata/view.h"
#endif
