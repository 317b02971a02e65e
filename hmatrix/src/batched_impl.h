/* strata hmatrix — the batched kernels' private knob (batched.c), for tests: which paths the GEMM
 * takes, so that each is tested on the host too. */
#ifndef STRATA_BATCHED_IMPL_H
#define STRATA_BATCHED_IMPL_H

/* Later strata_batched_gemm / gemv calls (process-wide; tests only): axpy 0 keeps teams of one
 * lane on the lanes-over-rows form GPUs run (-1: the default, axpys on host backends); stage 0
 * reads op(A) where it lies, 1 stages it in scratch when it fits (-1: the default, up to 48 KiB). */
void strata_impl_batched_gemm_paths(int axpy, int stage);

#endif
