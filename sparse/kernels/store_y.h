/* strata sparse — the final store of every SpMV kernel (DESIGN §4): *y = alpha·s + beta·*y, and
 * *y = alpha·s without reading *y when beta == 0 (y may hold garbage or NaN then). Shared by the
 * row-class plan, the plain SpMV and every storage format. Include from kernel sources only. */
#ifndef STRATA_SPARSE_STORE_Y_H
#define STRATA_SPARSE_STORE_Y_H

#include <strata/kl.h>

STRATA_KL_FUNC void strata_sparse_store_y(double *y, double alpha, double s, double beta) {
  *y = beta == 0.0 ? alpha * s : alpha * s + beta * *y;
}

#endif
