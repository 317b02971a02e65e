/* strata sparse — argument struct of the permutation kernels of the storage formats'
 * permuted basis (format_perm.kl.c; host: formats.c, format_pjds.c). Plain C, valid as C11 and
 * C++17; pointers are exec memory. */
#ifndef STRATA_FORMAT_PERM_ARGS_H
#define STRATA_FORMAT_PERM_ARGS_H

#include <stdint.h>

/** A permutation map [n] (map[i] = the original index of position i) applied to vectors over
 *  i in [0, n): gather dst[i] = src[map[i]], scatter dst[map[i]] = src[i]; invert inv[map[i]] = i;
 *  moved: a SUM reduce of the positions with map[i] != i (0: the identity). */
typedef struct strata_fmt_perm_args {
  const int32_t *map;
  const double *src;
  double *dst;
  int32_t *inv;
} strata_fmt_perm_args_t;

/** y[i] = alpha t[i] + beta y[i] (beta == 0: alpha t[i], y not read) over i in [0, n): the last
 *  step of a format SpMV with alpha infinite or NaN, t = M x computed whole first (formats.c). */
typedef struct strata_fmt_axpby_args {
  const double *t;
  double *y;
  double alpha, beta;
} strata_fmt_axpby_args_t;

#endif
