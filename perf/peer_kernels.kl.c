/* strata bench — the vendor peer's index kernels: 32-bit indices widened to 64 bits, and COO row
 * indices from CSR row offsets (one row per index: setup of the peer, not timed). */
#include <strata/kl.h>

#include "peer_kernels.h"

STRATA_FOR_KERNEL(peer_widen, peer_index_args_t, k, i) { k->out[i] = k->in[i]; }

STRATA_FOR_KERNEL(peer_coo_rows, peer_index_args_t, k, r) {
  for (int64_t q = k->offsets[r]; q < k->offsets[r + 1]; ++q) k->out[q] = r;
}
