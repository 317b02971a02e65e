/* strata solvers — the device graph colouring of the multicolor Gauss–Seidel smoother
 * (amg_impl.h): Jones–Plassmann rounds (Jones & Plassmann 1993) over the graph of A + Aᵀ with
 * priorities hashed from a fixed seed, first-fit colours; then the rows grouped by colour by a
 * device sort. Kernels in solvers/kernels/amg_smoother.kl.c. */
#include <stdlib.h>

#include "../kernels/amg_smoother_args.h"
#include "amg_impl.h"

STRATA_KERNEL_DECLARE(strata_amg_sm_jp_round);
STRATA_KERNEL_DECLARE(strata_amg_sm_color_max);
STRATA_KERNEL_DECLARE(strata_amg_sm_class_keys);
STRATA_KERNEL_DECLARE(strata_amg_sm_class_offsets);

/* Colours into color (Jones–Plassmann rounds until every row has one); *num_colors. */
static strata_status_t jp_color(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *T,
                                uint64_t seed, int32_t *color, int32_t *prev, int *num_colors) {
  const int32_t n = A->num_rows;
  strata_status_t st = strata_mem_set_async(exec, color, 0xFF, (size_t)n * sizeof(int32_t)); /* -1: uncoloured */
  strata_amg_sm_jp_args_t a = {A->row_offsets, A->col_indices, T->row_offsets, T->col_indices, prev, color, seed};
  int64_t left = n;
  /* every round colours at least the uncoloured row of the highest priority: at most n rounds */
  for (int64_t round = 0; !st && left > 0; ++round) {
    if (round > n)
      return strata_error_set(STRATA_ERR_INTERNAL, "amg colouring: %lld rows uncoloured after %lld rounds (n = %lld)",
                              (long long)left, (long long)round, (long long)n);
    if ((st = strata_mem_copy(exec, prev, color, (size_t)n * sizeof(int32_t)))) break;
    st = strata_parallel_reduce(exec, "amg_color_round", strata_range(0, n), &strata_amg_sm_jp_round, &a,
                                STRATA_REDUCE_SUM, &left);
  }
  if (st) return st;
  strata_amg_sm_class_args_t c = {color, n, NULL, NULL, NULL};
  int32_t maxc = -1;
  if ((st = strata_parallel_reduce(exec, "amg_color_max", strata_range(0, n), &strata_amg_sm_color_max, &c,
                                   STRATA_REDUCE_MAX, &maxc)))
    return st;
  *num_colors = n > 0 ? (int)maxc + 1 : 0;
  return STRATA_SUCCESS;
}

static int bits_for(int64_t v) {
  int b = 1;
  while (b < 63 && (v >> b) != 0) ++b;
  return b;
}

strata_status_t strata_impl_amg_color(strata_exec_t *exec, const strata_crs_matrix_t *A, uint64_t seed,
                                      int32_t *color, int64_t *perm, int *num_colors, int64_t **offs) {
  const int32_t n = A->num_rows;
  *num_colors = 0;
  *offs = NULL;
  strata_crs_matrix_t *T = NULL;
  int32_t *prev = NULL;
  int64_t *keys = NULL, *doffs = NULL;
  strata_status_t st = strata_crs_transpose(exec, A, &T);
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(int32_t), (void **)&prev);
  if (!st) st = jp_color(exec, A, T, seed, color, prev, num_colors);
  const int nc = *num_colors;
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sizeof(int64_t), (void **)&keys);
  if (!st) st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(nc + 1) * sizeof(int64_t), (void **)&doffs);
  strata_amg_sm_class_args_t c = {color, n, keys, perm, doffs};
  if (!st) st = strata_parallel_for(exec, "amg_color_keys", strata_range(0, n), &strata_amg_sm_class_keys, &c);
  if (!st) st = strata_sort_pairs_i64(exec, n, bits_for((int64_t)nc * n), keys, perm);
  if (!st) st = strata_parallel_for(exec, "amg_color_offsets", strata_range(0, n), &strata_amg_sm_class_offsets, &c);
  int64_t *h = NULL;
  if (!st) {
    h = (int64_t *)malloc((size_t)(nc + 1) * sizeof *h);
    if (!h) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "amg colouring: %d colour offsets", nc + 1);
  }
  if (!st && nc > 0) st = strata_mem_copy(exec, h, doffs, (size_t)nc * sizeof(int64_t));
  if (!st) {
    h[nc] = n;
    *offs = h;
  } else {
    free(h);
  }
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&doffs);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&keys);
  strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&prev);
  strata_crs_destroy(&T);
  return st;
}
