/* strata sparse — formats "hyb" (ELL + COO) and "hec" (ELL + CSR): row lengths for the width
 * choice, the split of each row into its ELL part and its remainder, and the ELL SpMV (a thread
 * per row, column-major [width][rows]). The remainder is applied by strata_fmt_lb_spmv. */
#include <strata/kl.h>

#include "format_lb_args.h"
#include "store_y.h"

/* keys / values of the device sort of row lengths */
STRATA_FOR_KERNEL(strata_fmt_hyb_lens, strata_fmt_ell_args_t, a, r) {
  a->lens[r] = a->row_offsets[r + 1] - a->row_offsets[r];
  a->perm[r] = r;
}

/* entries of row r beyond the ELL width */
STRATA_FOR_KERNEL(strata_fmt_hyb_rem_count, strata_fmt_ell_args_t, a, r) {
  const int64_t len = a->row_offsets[r + 1] - a->row_offsets[r];
  a->lens[r] = len > a->width ? len - a->width : 0;
}

/* entry k: its row by binary search, slot j < width in the ELL part, else the remainder */
STRATA_FOR_KERNEL(strata_fmt_hyb_fill, strata_fmt_ell_args_t, a, k) {
  const int64_t r = strata_kl_lower_bound_i64(a->row_offsets, 0, a->num_rows + 1, k + 1) - 1;
  const int64_t j = k - a->row_offsets[r];
  if (j < a->width) {
    a->ell_cols[j * a->num_rows + r] = a->cols[k];
    a->ell_vals[j * a->num_rows + r] = a->vals[k];
  } else {
    const int64_t q = a->rem_off[r] + j - a->width;
    if (a->rem_rows) a->rem_rows[q] = (int32_t)r;
    a->rem_cols[q] = a->cols[k];
    a->rem_vals[q] = a->vals[k];
  }
}

/* ELL part: y = alpha * ELL x + beta y (beta == 0 does not read y); padding has column -1 */
STRATA_FOR_KERNEL(strata_fmt_ell_part_spmv, strata_fmt_ell_args_t, a, r) {
  double s = 0.0;
  for (int64_t j = 0; j < a->width; ++j) {
    const int32_t c = strata_load_stream_i32(a->ell_cols + j * a->num_rows + r);
    if (c >= 0) s += strata_load_stream_f64(a->ell_vals + j * a->num_rows + r) * strata_load_cached_f64(a->x + c);
  }
  strata_sparse_store_y(&a->y[r], a->alpha, s, a->beta);
}
