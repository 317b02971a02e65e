/* strata solvers — argument struct of AMG's interpolation kernels (amg_interp.kl.c; the host side
 * and the formulas: solvers/src/amg_interp.c). Plain C, valid as C11 and C++17; pointers are exec
 * memory. Every F row i owns a segment [woff[i], woff[i] + bound[i]) of the work arrays cand, w
 * and keep, bound[i] an upper bound of its interpolation set (with repeats); the row's set is
 * built there sorted and unique (m <= bound[i] entries), its weights beside it, and keep[p] = 1
 * marks the entries that survive truncation (0 for the rest of the segment). A C row's segment is
 * its one identity entry. */
#ifndef STRATA_SOLVERS_AMG_INTERP_ARGS_H
#define STRATA_SOLVERS_AMG_INTERP_ARGS_H

#include <stdint.h>

/* methods, as strata_amg_interp_t */
#define STRATA_AMG_INTERP_K_DIRECT 0
#define STRATA_AMG_INTERP_K_STANDARD 1
#define STRATA_AMG_INTERP_K_EXT_I 2

typedef struct strata_amg_interp_args {
  int64_t n;
  const int64_t *a_ro; /* A [n x n], fill-complete */
  const int32_t *a_ci;
  const double *a_v;
  const int64_t *s_ro; /* S: strong connections, fill-complete, inside A's pattern */
  const int32_t *s_ci;
  const int32_t *cf;   /* [n] 1: C point, -1: F point */
  int32_t *cmap;       /* [n] the coarse index of a C point, -1 for an F point */
  unsigned char *strong; /* [nnz(A)] 1 where A's entry (i, j) is a strong connection of i */
  double *diag;        /* [n] a_ii (0 when not stored) */
  int64_t *bound;      /* [n] segment lengths */
  const int64_t *woff; /* [n + 1] segment starts (exclusive scan of bound) */
  int32_t *cand;       /* [W] candidate fine columns */
  double *w;           /* [W] their weights */
  int64_t *keep;       /* [W] 1: in P (scanned in place into P's positions afterwards) */
  double *sk;          /* [nnz(A)] at the position of (i, k), k a strong F neighbour of i: the
                          denominator s_k of the distribution of a_ik (standard, ext+i) */
  double *dd;          /* [n] the lumped diagonal of each interpolated F row (diagnostics) */
  int64_t *bad_row;    /* [1] the first F row whose lumped diagonal is 0 or not finite (atomic min;
                          INT64_MAX: none) */
  int32_t *long_rows;  /* [num_long] the F rows of the team kernel, ascending */
  int64_t long_min;    /* F rows with bound >= long_min go to the team kernel (the thread kernel
                          skips them) */
  int64_t scratch_cap; /* team kernel: candidates its scratch holds (8 bytes each); longer sets
                          are sorted in place in the segment by one lane */
  int method;
  double trunc;        /* drop |w| < trunc · max |w| of the row */
  int64_t max_elements;/* keep at most this many (0: no limit) */
  /* P's assembly */
  int64_t total_w;     /* W */
  int64_t nnz_p;
  const int64_t *pos;  /* [W] exclusive scan of keep: P's position of a kept entry */
  int64_t *p_ro;
  int32_t *p_ci;
  double *p_v;
} strata_amg_interp_args_t;

#endif
