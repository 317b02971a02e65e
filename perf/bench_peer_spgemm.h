/* strata bench — the cuSPARSE peer of the spgemm suite (bench_peer_spgemm.c): cusparseSpGEMM
 * (generic API: workEstimation, compute, copy) for the whole product, and cusparseSpGEMMreuse
 * (workEstimation, nnz, copy once; compute per call) for the numeric phase with the pattern kept.
 * 32-bit row offsets (cuSPARSE's SpGEMM takes 32-bit indices), built once per matrix. Compiled for
 * CUDA builds; elsewhere bench_spgemm_peer(b) is 0 and create returns -1 with a message. Every call
 * runs on `stream` (the exec's native stream), so bench_time's events bracket it. */
#ifndef STRATA_BENCH_PEER_SPGEMM_H
#define STRATA_BENCH_PEER_SPGEMM_H

#include <stddef.h>

#include "strata/sparse.h"

/** 1 when this build has the cuSPARSE peer and b is CUDA. */
int bench_spgemm_peer(strata_backend_t b);

typedef struct bench_spgemm bench_spgemm_t;
/** Descriptors of A and B (fill-complete, exec memory of one CUDA exec) and the reuse plan of
 *  C = A·B (the reuse API's workEstimation, nnz and copy, done here once). 0, or -1 with err. */
int bench_spgemm_create(const strata_crs_matrix_t *A, const strata_crs_matrix_t *B, void *stream,
                        bench_spgemm_t **p, char *err, size_t err_len);
/** bench_fn: the whole product with the generic API (buffers and C allocated and freed on the
 *  stream in each call). */
int bench_spgemm_full(void *p, int64_t call);
/** bench_fn: cusparseSpGEMMreuse_compute, C's values for the pattern of create. */
int bench_spgemm_reuse(void *p, int64_t call);
/** C of the reuse plan (after a bench_spgemm_reuse) copied to the host as int64 offsets
 *  [rows + 1], columns and values [*nnz] (malloc'ed; the caller frees). 0 or -1 with err. */
int bench_spgemm_result(const bench_spgemm_t *p, int64_t **off, int32_t **col, double **val, int64_t *nnz,
                        char *err, size_t err_len);
void bench_spgemm_destroy(bench_spgemm_t **p);

#endif
