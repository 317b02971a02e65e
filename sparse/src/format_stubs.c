/* strata sparse — formats not implemented yet: refused by strata_format_create with
 * STRATA_ERR_UNSUPPORTED naming them. Implementing a format removes its line here. */
#include "format_impl.h"

#define STRATA_FORMAT_STUB(E) const strata_impl_format_ops_t strata_impl_format_ops_##E = {NULL, NULL, NULL};
STRATA_FORMAT_STUB(AUTO)
