/* strata bench — the cuSPARSE peers of the solve suite (bench_peer_sptrsv.c): cusparseSpSV on
 * ILU(0) factors (analysis and solve) and cusparseDcsrilu02 (the ILU(0) numeric factorization; still
 * in CUDA 13's cusparse.h, deprecated). Compiled for CUDA builds; elsewhere bench_sptrsv_peer(b) is
 * 0 and the calls return -1 with a message. Every call runs on `stream` (the exec's native stream),
 * so bench_time's events bracket it. */
#ifndef STRATA_BENCH_PEER_SPTRSV_H
#define STRATA_BENCH_PEER_SPTRSV_H

#include <stddef.h>

#include "strata/sparse.h"

/** 1 when this build has the cuSPARSE peers and b is CUDA. */
int bench_sptrsv_peer(strata_backend_t b);

/** cusparseSpSV of LU's two triangles (LU fill-complete in exec memory, as strata_ilu_factors gives
 *  it: L strictly below the diagonal with a unit diagonal not stored, U on and above): the L
 *  (lower, unit) and U (upper, non-unit) descriptors, buffers and analyses. tmp [n] exec memory
 *  holds L⁻¹ r between the two solves. */
typedef struct bench_spsv bench_spsv_t;
int bench_spsv_create(const strata_crs_matrix_t *LU, void *stream, const double *r, double *tmp, double *z,
                      bench_spsv_t **p, char *err, size_t err_len);
/** z = U⁻¹ L⁻¹ r (the vectors given at create); a bench_fn. */
int bench_spsv_apply(void *p, int64_t call);
void bench_spsv_destroy(bench_spsv_t **p);
/** bench_fn: bench_spsv_create + destroy, the analysis of both triangles (ctx: bench_spsv_args_t). */
typedef struct {
  const strata_crs_matrix_t *LU;
  void *stream;
  const double *r;
  double *tmp, *z;
} bench_spsv_args_t;
int bench_spsv_analysis(void *args, int64_t call);

/** cusparseDcsrilu02 of A (fill-complete, exec memory, every diagonal stored): the analysis once at
 *  create; each bench_csrilu02_factor copies A's values into vals [nnz] (exec memory) and factors
 *  them in place (L and U in A's pattern, as strata's ILU(0) factors). */
typedef struct bench_csrilu02 bench_csrilu02_t;
int bench_csrilu02_create(const strata_crs_matrix_t *A, void *stream, double *vals, bench_csrilu02_t **p, char *err,
                          size_t err_len);
/** a bench_fn; -1 also for a zero pivot (cusparseXcsrilu02_zeroPivot) */
int bench_csrilu02_factor(void *p, int64_t call);
void bench_csrilu02_destroy(bench_csrilu02_t **p);

#endif
