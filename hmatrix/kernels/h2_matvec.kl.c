/* strata hmatrix — the phases of the H² matrix-vector product (strata_h2_matvec), each a batched
 * kernel over one level's nodes or blocks: a team takes one node, or a batch of a level's nodes (its
 * threads or lanes over the batch's (index, vector) outputs), the lanes over the sum; no atomics
 * (every output has one writer). */
#include <strata/kl.h>

#include "h2_args.h"

STRATA_FOR_KERNEL(strata_h2_gather, strata_h2_gather_args_t, a, e) {
  const int64_t i = e % a->n, v = e / a->n;
  a->xp[e] = a->X[a->index_map[i] + v * a->ldx];
}

/* the node of a batch's output o (outs outputs a node): -1 past the level's end */
STRATA_KL_FUNC int64_t strata_h2_batch_node(const strata_team_t *team, int64_t first, int64_t count, int32_t per_team,
                                            int64_t o, int64_t outs) {
  const int64_t li = (int64_t)team->league_rank * per_team + o / outs;
  return li < count ? first + li : -1;
}

/* one output (α, v) per team thread, its lanes over the leaf's points */
STRATA_TEAM_KERNEL(strata_h2_upsweep_leaf, strata_h2_upleaf_args_t, a, team) {
  const int64_t k = a->k, outs = k * a->nv;
  STRATA_TEAM_THREAD_RANGE(team, o, 0, a->per_team * outs) {
    const int64_t g = strata_h2_batch_node(team, a->first, a->count, a->per_team, o, outs);
    if (g >= 0) {
      const int64_t b = a->node_begin[g], m = a->node_end[g] - b, al = o % k, v = (o % outs) / k;
      const double *U = a->U + b * k + al * m, *x = a->xp + v * a->n + b;
      double s;
      STRATA_THREAD_VECTOR_REDUCE(team, i, 0, m, SUM, f64, s) { s += U[i] * x[i]; }
      if (strata_thread_single(team)) a->xhat[(g * a->nv + v) * k + al] = s;
    }
  }
}

/* one output per lane, the sum over α in the lane: consecutive lanes read consecutive E entries */
STRATA_TEAM_KERNEL(strata_h2_upsweep_transfer, strata_h2_transfer_args_t, a, team) {
  const int64_t k = a->k, kk = k * k, outs = k * a->nv;
  STRATA_TEAM_VECTOR_RANGE(team, o, 0, a->per_team * outs) {
    const int64_t g = strata_h2_batch_node(team, a->first, a->count, a->per_team, o, outs);
    if (g >= 0) {
      const int64_t be = o % k, v = (o % outs) / k;
      double t = 0.0;
      for (int64_t c = 2 * g + 1; c <= 2 * g + 2; ++c) {
        const double *E = a->E + (c - 1) * kk + be;
        const double *x = a->v + (c * a->nv + v) * k;
        for (int64_t al = 0; al < k; ++al) t += E[al * k] * x[al];
      }
      a->v[(g * a->nv + v) * k + be] = t;
    }
  }
}

/* GPUs: the lanes share β and each lane sums over all blocks of the row before the one reduction */
STRATA_TEAM_KERNEL(strata_h2_coupling_mv, strata_h2_coupling_mv_args_t, a, team) {
  const int64_t g = a->first + team->league_rank, k = a->k, kk = k * k;
  const int64_t b0 = a->row_ptr[g], b1 = a->row_ptr[g + 1];
  STRATA_TEAM_THREAD_RANGE(team, o, 0, k * a->nv) {
    const int64_t al = o % k, v = o / k;
    double s = 0.0;
    if (team->vector_length > 1) {
      STRATA_THREAD_VECTOR_REDUCE(team, be, 0, k, SUM, f64, s) {
        for (int64_t b = b0; b < b1; ++b) s += a->S[b * kk + al * k + be] * a->xhat[(a->cols[b] * a->nv + v) * k + be];
      }
    } else { /* one lane (host): block by block, each row of S read contiguously */
      for (int64_t b = b0; b < b1; ++b) {
        const double *S = a->S + b * kk + al * k, *x = a->xhat + (a->cols[b] * a->nv + v) * k;
        double r;
        STRATA_THREAD_VECTOR_REDUCE(team, be, 0, k, SUM, f64, r) { r += S[be] * x[be]; }
        s += r;
      }
    }
    if (strata_thread_single(team)) a->yhat[(g * a->nv + v) * k + al] = s;
  }
}

/* one output (α, v) per team thread, its lanes over β */
STRATA_TEAM_KERNEL(strata_h2_downsweep, strata_h2_transfer_args_t, a, team) {
  const int64_t k = a->k, outs = k * a->nv;
  STRATA_TEAM_THREAD_RANGE(team, o, 0, a->per_team * outs) {
    const int64_t g = strata_h2_batch_node(team, a->first, a->count, a->per_team, o, outs);
    if (g >= 0) {
      const int64_t al = o % k, v = (o % outs) / k;
      const double *E = a->E + (g - 1) * k * k + al * k, *y = a->v + (((g - 1) / 2) * a->nv + v) * k;
      double s;
      STRATA_THREAD_VECTOR_REDUCE(team, be, 0, k, SUM, f64, s) { s += E[be] * y[be]; }
      if (strata_thread_single(team)) a->v[(g * a->nv + v) * k + al] += s;
    }
  }
}

/* yp = U ŷ per leaf, one output per lane (consecutive lanes read consecutive U entries); a leaf's
 * outputs are leaf_max x nv slots, those past its m points idle */
STRATA_TEAM_KERNEL(strata_h2_leaf_basis, strata_h2_leaf_args_t, a, team) {
  const int64_t k = a->k, outs = a->leaf_max * a->nv;
  STRATA_TEAM_VECTOR_RANGE(team, o, 0, a->per_team * outs) {
    const int64_t g = strata_h2_batch_node(team, a->first, a->count, a->per_team, o, outs);
    const int64_t i = o % a->leaf_max, v = (o % outs) / a->leaf_max;
    if (g >= 0 && i < a->node_end[g] - a->node_begin[g]) {
      const int64_t b = a->node_begin[g], m = a->node_end[g] - b;
      const double *U = a->U + b * k + i, *y = a->yhat + (g * a->nv + v) * k;
      double t = 0.0;
      for (int64_t al = 0; al < k; ++al) t += U[al * m] * y[al];
      a->yp[b + i + v * a->n] = t;
    }
  }
}

/* the last step of the product, one place for both paths (fused and overlapped), so that they
 * give the same bits: t = s + yp (the dense sum s, the low-rank part yp: 0 without one), Y = α t + β Y */
STRATA_KL_FUNC void strata_h2_combine_one(double s, double yp, double alpha, double beta, double *y) {
  const double t = s + yp;
  *y = beta == 0.0 ? alpha * t : alpha * t + beta * *y;
}

/* mode 0: Y = α (yp + Σ D x) + β Y per leaf; mode 1: yd = Σ D x (tree order) only, for the combine
 * below. GPUs with a->width > 0: the team first maps the leaf's dense columns (all its blocks', in
 * order) in scratch, then a row's lanes run over all of them at once (no lane idles where a block
 * has fewer than leaf_max columns); otherwise the lanes share the columns j < leaf_max of every
 * block, each lane summing over all blocks before the one reduction */
STRATA_TEAM_KERNEL(strata_h2_leaf_product, strata_h2_leaf_args_t, a, team) {
  const int64_t li = team->league_rank, g = a->first + li, b = a->node_begin[g], m = a->node_end[g] - b;
  const int64_t d0 = a->dense_row_ptr[li], d1 = a->dense_row_ptr[li + 1];
  int64_t w = 0; /* a->width > 0: the leaf's w dense columns mapped in scratch (every block's, in order) */
  int32_t *first = (int32_t *)team->scratch, *stride = first + a->width, *xpos = stride + a->width;
  if (a->width > 0) {
    for (int64_t q = d0; q < d1; ++q) {
      const int64_t c = a->dense_cols[q], bs = a->node_begin[c], ns = a->node_end[c] - bs, off = a->dense_offsets[q] - a->dense_offsets[d0];
      STRATA_TEAM_VECTOR_RANGE(team, j, 0, ns) {
        first[w + j] = (int32_t)(off + j);
        stride[w + j] = (int32_t)ns;
        xpos[w + j] = (int32_t)(bs + j);
      }
      w += ns;
    }
    strata_team_barrier(team);
  }
  const double *Dl = a->D + a->dense_offsets[d0];
  STRATA_TEAM_THREAD_RANGE(team, o, 0, m * a->nv) {
    const int64_t i = o % m, v = o / m;
    double s = 0.0;
    if (a->width > 0) { /* lanes over all the row's columns: each block's row is contiguous in D */
      const double *x = a->xp + v * a->n;
      STRATA_THREAD_VECTOR_REDUCE(team, t, 0, w, SUM, f64, s) { s += Dl[first[t] + i * stride[t]] * x[xpos[t]]; }
    } else if (team->vector_length > 1) {
      STRATA_THREAD_VECTOR_REDUCE(team, j, 0, a->leaf_max, SUM, f64, s) {
        for (int64_t q = d0; q < d1; ++q) {
          const int64_t c = a->dense_cols[q], bs = a->node_begin[c], ns = a->node_end[c] - bs;
          if (j < ns) s += a->D[a->dense_offsets[q] + i * ns + j] * a->xp[v * a->n + bs + j];
        }
      }
    } else { /* one lane (host): block by block, each row of D read contiguously */
      for (int64_t q = d0; q < d1; ++q) {
        const int64_t c = a->dense_cols[q], bs = a->node_begin[c], ns = a->node_end[c] - bs;
        const double *D = a->D + a->dense_offsets[q] + i * ns, *x = a->xp + v * a->n + bs;
        double r;
        STRATA_THREAD_VECTOR_REDUCE(team, j, 0, ns, SUM, f64, r) { r += D[j] * x[j]; }
        s += r;
      }
    }
    if (strata_thread_single(team)) {
      const int64_t e = b + i + v * a->n;
      if (a->mode == 1)
        a->yd[e] = s;
      else
        strata_h2_combine_one(s, a->lowrank ? a->yp[e] : 0.0, a->alpha, a->beta, a->Y + a->index_map[b + i] + v * a->ldy);
    }
  }
}

/* the overlapped path's last step, e = position + v·n over [0, n·nv): Y from the dense sums yd
 * (strata_h2_leaf_product mode 1) and yp */
STRATA_FOR_KERNEL(strata_h2_combine, strata_h2_leaf_args_t, a, e) {
  const int64_t pos = e % a->n, v = e / a->n;
  strata_h2_combine_one(a->yd[e], a->lowrank ? a->yp[e] : 0.0, a->alpha, a->beta, a->Y + a->index_map[pos] + v * a->ldy);
}
