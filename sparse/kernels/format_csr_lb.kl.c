/* strata sparse — format "csr-lb": the row-start map (the row holding each team's first entry,
 * by binary search over the row offsets); the SpMV is the shared strata_fmt_lb_spmv. */
#include <strata/kl.h>

#include "format_lb_args.h"

STRATA_FOR_KERNEL(strata_fmt_csr_lb_row_map, strata_fmt_row_map_args_t, a, t) {
  a->team_row[t] = (int32_t)(strata_kl_lower_bound_i64(a->row_offsets, 0, a->num_rows + 1, t * a->tile + 1) - 1);
}
