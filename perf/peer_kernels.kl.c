/* strata bench — the vendor peers' kernels: 32-bit indices widened to 64 bits, COO row indices
 * from CSR row offsets (one row per index: setup of the SpMV peer, not timed); the dense kernel
 * matrix of the h2 suite's GEMV peer (setup, not timed). */
#include <strata/kl.h>

#include "peer_kernels.h"

STRATA_FOR_KERNEL(peer_widen, peer_index_args_t, k, i) { k->out[i] = k->in[i]; }

STRATA_FOR_KERNEL(peer_coo_rows, peer_index_args_t, k, r) {
  for (int64_t q = k->offsets[r]; q < k->offsets[r + 1]; ++q) k->out[q] = r;
}

STRATA_FOR_KERNEL(peer_kernel_matrix, peer_kernel_matrix_args_t, k, e) {
  const int64_t i = e / k->n, j = e % k->n;
  double r2 = 0.0;
  for (int32_t d = 0; d < k->dim; ++d) {
    const double t = k->pts[i * k->dim + d] - k->pts[j * k->dim + d];
    r2 += t * t;
  }
  k->K[e] = exp(-sqrt(r2) * k->inv_length);
}
