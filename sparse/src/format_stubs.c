/* strata sparse — the ops table of format "auto", which is empty: strata_format_create resolves
 * auto to a concrete format (format_auto.c) before it uses an ops table, so the converted matrix
 * is that format. A format without operations is refused with STRATA_ERR_UNSUPPORTED naming it. */
#include "format_impl.h"

const strata_impl_format_ops_t strata_impl_format_ops_AUTO = {NULL, NULL, NULL};
