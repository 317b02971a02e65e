/* strata solvers — the symbolic phase of ILU(k) by level of fill, on the host (strata/ilu.h says
 * so): Saad, Iterative Methods, §10.3.3, row by row. Row i starts as A's row (level 0, a sorted
 * linked list over a dense level array); for each k < i in the row, ascending, each entry (k, j) of
 * U's part of row k gives the candidate level lev(i, k) + lev(k, j) + 1: a new column when at most
 * K, a lower level for a column present. Columns met later are always greater than k, so the list
 * stays sorted and every lev(i, k) is final when k is reached. Work O(sum of the candidates), memory
 * O(n + entries of the factors). ILU(0) needs none of it (A's pattern: ilu.c). */
#include <stdlib.h>
#include <string.h>

#include "ilu_impl.h"

typedef struct {
  int64_t len, cap;
  int32_t *col;
  int32_t *lev; /* NULL: columns only */
} growable_t;

static int grow(growable_t *g, int64_t need) {
  if (need <= g->cap) return 1;
  int64_t cap = g->cap ? g->cap : 1024;
  while (cap < need) cap *= 2;
  int32_t *c = (int32_t *)realloc(g->col, sizeof(int32_t) * (size_t)cap);
  if (!c) return 0;
  g->col = c;
  if (g->lev || g->cap == 0) {
    int32_t *l = (int32_t *)realloc(g->lev, sizeof(int32_t) * (size_t)cap);
    if (!l) return 0;
    g->lev = l;
  }
  g->cap = cap;
  return 1;
}

strata_status_t strata_impl_ilu_symbolic(int32_t n, const int64_t *ro, const int32_t *ci, int K, int64_t **lu_ro,
                                         int32_t **lu_ci, int64_t *lu_nnz) {
  *lu_ro = NULL;
  *lu_ci = NULL;
  *lu_nnz = 0;
  const int32_t END = -1;
  int32_t *lev = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1));
  int32_t *next = (int32_t *)malloc(sizeof(int32_t) * ((size_t)n + 1)); /* next[n]: the head */
  int64_t *uro = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  int64_t *out_ro = (int64_t *)malloc(sizeof(int64_t) * ((size_t)n + 1));
  growable_t U = {0, 0, NULL, NULL}, LU = {0, 0, NULL, NULL};
  strata_status_t st = STRATA_SUCCESS;
  if (!lev || !next || !uro || !out_ro || !grow(&U, 16) || !grow(&LU, 16)) {
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "ilu symbolic: work arrays for %d rows", (int)n);
    goto done;
  }
  free(LU.lev); /* LU keeps columns only */
  LU.lev = NULL;
  for (int32_t j = 0; j < n; ++j) lev[j] = -1;
  uro[0] = 0;
  out_ro[0] = 0;
  for (int32_t i = 0; i < n; ++i) {
    /* A's row (sorted) as the list, level 0 */
    int32_t tail = n;
    for (int64_t k = ro[i]; k < ro[i + 1]; ++k) {
      next[tail] = ci[k];
      tail = ci[k];
      lev[ci[k]] = 0;
    }
    next[tail] = END;
    for (int32_t k = next[n]; k != END && k < i; k = next[k]) {
      const int32_t lk = lev[k];
      int32_t prev = k;
      for (int64_t u = uro[k]; u < uro[k + 1]; ++u) {
        const int32_t j = U.col[u], nl = lk + U.lev[u] + 1;
        if (nl > K) continue;
        if (lev[j] >= 0) {
          if (nl < lev[j]) lev[j] = nl;
        } else { /* insert j after prev, in order */
          while (next[prev] != END && next[prev] < j) prev = next[prev];
          next[j] = next[prev];
          next[prev] = j;
          lev[j] = nl;
        }
        prev = j;
      }
    }
    /* the row into the factors; its U part (j > i) with levels for the rows below */
    for (int32_t j = next[n]; j != END; j = next[j]) {
      if (!grow(&LU, LU.len + 1) || (j > i && !grow(&U, U.len + 1))) {
        st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "ilu symbolic: factors beyond %lld entries at row %d",
                              (long long)LU.len, (int)i);
        goto done;
      }
      LU.col[LU.len++] = j;
      if (j > i) {
        U.col[U.len] = j;
        U.lev[U.len++] = lev[j];
      }
    }
    for (int32_t j = next[n]; j != END; j = next[j]) lev[j] = -1;
    uro[i + 1] = U.len;
    out_ro[i + 1] = LU.len;
  }
  *lu_ro = out_ro;
  *lu_ci = LU.col;
  *lu_nnz = LU.len;
  out_ro = NULL;
  LU.col = NULL;
done:
  free(lev);
  free(next);
  free(uro);
  free(out_ro);
  free(U.col);
  free(U.lev);
  free(LU.col);
  return st;
}
