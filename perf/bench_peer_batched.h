/* strata bench — the peers of the batched suite (perf/suite_batched.c): on CUDA, cuBLAS's
 * cublasDgemmStridedBatched and cublasDgeqrfBatched and cuSOLVER's cusolverDnDgesvdjBatched
 * (blocks up to 32 × 32), on the exec's stream and the same device arrays as strata; on host
 * backends, LAPACKE / CBLAS (Debian's reference LAPACK and BLAS) called per block in an OpenMP
 * loop, what a user of the host would otherwise write. Stubs where a build has neither. Column-
 * major blocks, tightly packed (ld = rows, stride = rows × cols). Every call returns 0 or -1 with
 * the reason in err. */
#ifndef STRATA_BENCH_PEER_BATCHED_H
#define STRATA_BENCH_PEER_BATCHED_H

#include <stddef.h>
#include <stdint.h>

#include "strata/strata.h"

typedef struct bench_bpeer bench_bpeer_t;

/** The peer's name for one operation on backend b ("cublas", "lapacke", ...), or NULL: none.
 *  op: 0 GEMM, 1 QR, 2 SVD; m, n the block size (cuSOLVER's batched Jacobi takes m, n <= 32). */
const char *bench_bpeer_name(strata_backend_t b, int op, int m, int n);
/** A peer on exec e (its stream). */
int bench_bpeer_create(strata_exec_t *e, bench_bpeer_t **p, char *err, size_t err_len);
void bench_bpeer_destroy(bench_bpeer_t **p);
/** C_i = A_i·B_i (m × k times k × n) for count blocks. */
int bench_bpeer_gemm(bench_bpeer_t *p, int m, int n, int k, const double *A, const double *B, double *C, int64_t count);
/** Householder QR in place of count m × n blocks, tau min(m, n) each. */
int bench_bpeer_qr(bench_bpeer_t *p, int m, int n, double *A, double *tau, int64_t count);
/** The thin SVD of count m × n blocks of A0 (not written: the peer works on the copy A, which it
 *  may destroy, made in the call): S min(m, n) each, U m × min, V n × min. */
int bench_bpeer_svd(bench_bpeer_t *p, int m, int n, const double *A0, double *A, double *S, double *U, double *V,
                    int64_t count);
/** The last error's text. */
const char *bench_bpeer_error(const bench_bpeer_t *p);

#endif
