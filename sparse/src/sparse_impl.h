/* strata sparse — helpers shared by the host sources of the sparse module (never installed).
 * The sparse module sees only core's public headers (DESIGN §1). */
#ifndef STRATA_SPARSE_IMPL_H
#define STRATA_SPARSE_IMPL_H

#include "strata/sparse.h"

#include "../kernels/sparse_args.h"

/** exec == NULL stands for owner; otherwise exec must be of owner's backend (exec memory of one
 *  backend is not addressable by another). `what` names the call in the message. */
strata_status_t strata_sparse_impl_exec(strata_exec_t **exec, strata_exec_t *owner,
                                        const char *what);

/** INVALID_ARGUMENT naming the value when num_rows, num_cols or nnz is negative; `what` names
 *  the call in the message. */
strata_status_t strata_sparse_impl_check_shape(int32_t num_rows, int32_t num_cols, int64_t nnz,
                                               const char *what);

/** How a matrix built from COO took its entries: input entry perm[j] is the j-th in sorted order;
 *  entry k of the matrix sums sorted entries [starts[k], starts[k + 1]) (exec memory; perm NULL when
 *  the matrix has no entries). */
typedef struct strata_sparse_coo_map {
  int64_t *perm;   /* [nnz of the COO input] */
  int64_t *starts; /* [nnz of the COO input + 1] */
} strata_sparse_coo_map_t;

/** strata_crs_create_from_coo that also hands back its map (map NULL: none; on error map holds
 *  nothing). Synchronous. */
strata_status_t strata_sparse_impl_coo_create_map(strata_exec_t *exec, int32_t num_rows, int32_t num_cols,
                                                  int64_t nnz_in, const int32_t *rows, const int32_t *cols,
                                                  const double *vals, strata_crs_matrix_t **A,
                                                  strata_sparse_coo_map_t *map);

/** M->values[k] = the sum of vals[perm[j]] over k's run, in input order, as when M was built from
 *  the COO (bit for bit): new values of the same COO entries without a new sort. Asynchronous. */
strata_status_t strata_sparse_impl_coo_regather(strata_exec_t *exec, const strata_sparse_coo_map_t *map,
                                                const double *vals, strata_crs_matrix_t *M);
void strata_sparse_impl_coo_map_free(strata_exec_t *exec, strata_sparse_coo_map_t *map);

/** strata_crs_transpose that also hands back the map from A's entries (in storage order) to A^T's. */
strata_status_t strata_sparse_impl_transpose_map(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                                 strata_crs_matrix_t **At, strata_sparse_coo_map_t *map);

/* A takes B's arrays and nnz (and becomes fill-complete); B takes A's old arrays and is destroyed
 * (frees them). Used where a rebuilt matrix replaces A in place. */
strata_status_t strata_sparse_impl_crs_replace(strata_crs_matrix_t *A, strata_crs_matrix_t **B);

/** Allocates bytes of exec memory (*p = NULL for 0 bytes). */
strata_status_t strata_sparse_impl_alloc(strata_exec_t *exec, size_t bytes, void **p);

/** rows[k] = the row holding entry k of row_offsets [num_rows + 1] (a thread per row: kernel
 *  strata_sparse_csr_row_ids); rows has row_offsets[num_rows] entries, exec memory. Asynchronous. */
strata_status_t strata_sparse_impl_row_ids(strata_exec_t *exec, const int64_t *row_offsets, int64_t num_rows,
                                           int32_t *rows);
void strata_sparse_impl_free(strata_exec_t *exec, void *p);

/** Entries of a[0..n) outside [0, a_end), or of b[0..n) outside [0, b_end) (b may be NULL), found
 *  by reduce kernels: *count of them and, when *count > 0, the first one's index *first and its
 *  values *a_first, *b_first (copied back). */
strata_status_t strata_sparse_impl_check_indices(strata_exec_t *exec, int64_t n, const int32_t *a,
                                                 int64_t a_end, const int32_t *b, int64_t b_end,
                                                 int64_t *count, int64_t *first, int32_t *a_first,
                                                 int32_t *b_first);

/** Groups n items by class on the device: keys[i] = class(i) (strata_sparse_class_key) and
 *  perm[i] = i on entry (written by a classify kernel, see kernels/row_class.h); on return keys /
 *  perm are sorted (stable: item order within a class) and bounds (host, [num_classes + 1]) holds
 *  each class's first position, bounds[num_classes] = n. Synchronous. Used by the SpMV plan
 *  (row_class.c). */
strata_status_t strata_sparse_impl_group_by_class(strata_exec_t *exec, int64_t n, int num_classes,
                                                  int64_t *keys, int64_t *perm, int64_t *bounds);

/** y[0..n) = beta * y (beta == 0: y = 0 without reading y), asynchronous: the alpha == 0 case of
 *  every SpMV (DESIGN §4: A and x are not read), and the first step of the formats that only add
 *  into y. When alpha · 0 is NaN (alpha infinite or NaN), y = NaN instead: an empty row's
 *  alpha · (A x)_i = alpha · 0, as every row-wise SpMV computes it (the same result in every
 *  format; alpha == 0 keeps its meaning). */
strata_status_t strata_sparse_impl_scale(strata_exec_t *exec, int64_t n, double alpha, double beta, double *y);

/** The x and y arguments of an SpMV (what: the caller's name): INVALID_ARGUMENT for a NULL y with
 *  ny > 0, a NULL x with nx > 0 when alpha != 0 (x is read), and for x and y that overlap when x is
 *  read (y is written while x is read: the result would depend on the schedule; cuSPARSE and
 *  Kokkos leave that undefined). */
strata_status_t strata_sparse_impl_check_xy(const char *what, double alpha, const double *x, int64_t nx,
                                            const double *y, int64_t ny);

#endif
