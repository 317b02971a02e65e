/* strata hmatrix — the H² matrix object, shared by the construction and product (h2.c) and the
 * compression (h2_compress.c). Private to the module. */
#ifndef STRATA_HMATRIX_H2_IMPL_H
#define STRATA_HMATRIX_H2_IMPL_H

#include "strata/hmatrix.h"

#define CHEB_MAX 16

/* st = x; on failure jump to the function's `done:` cleanup (h2.c, h2_compress.c) */
#define CHECK(x)                         \
  do {                                   \
    st = (x);                            \
    if (st != STRATA_SUCCESS) goto done; \
  } while (0)

struct strata_h2_matrix {
  strata_exec_t *exec;
  strata_backend_t backend;
  strata_h2_tree_t *tree;
  int32_t p, k;
  strata_h2_kernel_kind_t kind;
  const strata_kernel_t *k_coupling, *k_dense, *k_rows;
  double params[4];
  int host;
  int warp;
  int64_t leaf_max; /* the most points of a leaf */
  int64_t dense_width; /* GPUs: the most columns of a leaf's dense blocks together (Σ n_s) where the
                          dense product maps them in team scratch (H2_DENSE_MAP_MAX), else 0 */
  size_t bytes_index;
  /* the matvec's dense phase on a second instance (strata_h2_set_overlap): NULL when off */
  strata_exec_t *dense_exec;
  strata_event_t *ev_ready, *ev_dense; /* X gathered (on the matvec's exec); dense sums done */
  /* exec memory */
  double *pts, *center, *half, *cheb, *U, *E, *S, *D;
  int64_t *index_map, *inv_map, *node_begin, *node_end;
  int64_t *coupling_row_ptr, *coupling_cols, *coupling_rows;
  int64_t *dense_row_ptr, *dense_cols, *dense_rows, *dense_offsets;
  strata_h2_compress_info_t compressed; /* the last strata_h2_compress (all zero: none yet) */
};

/* tests: nonzero maps the dense product's columns in scratch on host backends too (the GPUs' path;
 * read by strata_h2_create) */
extern int strata_impl_h2_dense_map;

#endif
