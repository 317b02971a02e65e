/* strata bench — the dense GEMV peer of the h2 suite (perf/suite_h2.c): what a user without an H²
 * matrix would do, y = K·x with the dense n × n kernel matrix K = exp(-‖x_i - x_j‖/ℓ) formed on the
 * device (exec memory, row-major, the points in the user's order) by a kernel of peer_kernels.kl.c.
 * CUDA: cuBLAS's cublasDgemv on the exec's stream (BENCH_HAVE_CUBLAS); host backends: CBLAS
 * cblas_dgemv (Debian's reference BLAS, BENCH_HAVE_LAPACKE), one block of rows per OpenMP thread of
 * the exec (what a user of the host would write around a single-threaded BLAS). Others: no peer.
 * Every call returns 0 or -1 with the reason in err. */
#ifndef STRATA_BENCH_PEER_GEMV_H
#define STRATA_BENCH_PEER_GEMV_H

#include <stddef.h>
#include <stdint.h>

#include "strata/hmatrix.h"

typedef struct bench_gemv_peer bench_gemv_peer_t;

/** The peer's name on backend b ("cublas_dgemv", "cblas_dgemv"), or NULL where the build has none. */
const char *bench_gemv_peer_name(strata_backend_t b);
/** The peer on exec e: K of P's points (host) for exp(-r/length), n² doubles of exec memory; x, y
 *  its vectors (exec memory, n each). */
int bench_gemv_peer_create(strata_exec_t *e, const strata_points_t *P, double length, const double *x, double *y,
                           bench_gemv_peer_t **p, char *err, size_t err_len);
/** y = K·x, a bench_fn (peer: the bench_gemv_peer_t; call unused): asynchronous on the exec's stream
 *  (CUDA) or synchronous (host). */
int bench_gemv_peer_apply(void *peer, int64_t call);
const char *bench_gemv_peer_error(const bench_gemv_peer_t *p);
void bench_gemv_peer_destroy(bench_gemv_peer_t **p);

#endif
