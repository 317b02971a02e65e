/* strata hmatrix — the marshaling kernels of the H² compression (strata_h2_compress): they stack,
 * extract and scatter the small blocks between the batched QR / SVD / GEMM calls, each over one
 * level's flat arrays; every output entry has one writer (no atomics). */
#include <strata/kl.h>

#include "h2_compress_args.h"

STRATA_FOR_KERNEL(strata_h2c_extract_r, strata_h2c_extract_args_t, a, e) {
  const int64_t KK = (int64_t)a->K * a->K, i = e / KK, rem = e % KK, j = rem / a->K, q = rem % a->K;
  const int64_t m = a->rows[i];
  a->R[(a->first + i) * KK + rem] = q <= j && q < m ? a->src[a->off[i] + q + j * m] : 0.0;
}

STRATA_TEAM_KERNEL(strata_h2c_stack_re, strata_h2c_stack_re_args_t, a, team) {
  const int64_t i = team->league_rank, P = a->first + i, c1 = 2 * P + 1, K = a->K, KK = K * K;
  const int64_t r1 = a->rk[c1], rows = r1 + a->rk[c1 + 1];
  double *T = a->T + a->off[i];
  STRATA_TEAM_VECTOR_RANGE(team, o, 0, rows * K) {
    const int64_t q = o % rows, be = o / rows, c = q < r1 ? c1 : c1 + 1, qq = q < r1 ? q : q - r1;
    const double *R = a->R + c * KK + qq, *E = a->E + (c - 1) * KK + be;
    double s = 0.0;
    for (int64_t al = qq; al < K; ++al) s += R[al * K] * E[al * K]; /* R upper triangular */
    T[q + be * rows] = s;
  }
}

STRATA_FOR_KERNEL(strata_h2c_scatter_e, strata_h2c_scatter_args_t, a, e) {
  const int64_t K = a->K, KK = K * K, ci = e / KK, rem = e % KK, al = rem / K, be = rem % K;
  const int64_t c = a->first + ci, P = (c - 1) / 2, c1 = 2 * P + 1, pi = ci / 2;
  const int64_t r1 = a->rc[c1], ld = a->ld ? a->ld : r1 + a->rc[c1 + 1];
  const double *Q = a->Q + (a->off ? a->off[pi] : pi * a->stride);
  a->E[(c - 1) * KK + rem] = al < a->rc[c] && be < a->rp[P] ? Q[(c == c1 ? 0 : r1) + al + be * ld] : 0.0;
}

STRATA_TEAM_KERNEL(strata_h2c_stack_w, strata_h2c_stack_w_args_t, a, team) {
  const int64_t i = team->league_rank, t = a->first + i, K = a->K, KK = K * K;
  const int64_t rows = a->rows[i], hk = a->head ? K : 0, r0 = a->row_ptr[t], nq = a->row_ptr[t + 1] - r0;
  double *M = a->M + a->off[i];
  STRATA_TEAM_VECTOR_RANGE(team, o, 0, rows * K) {
    const int64_t q = o % rows, al = o / rows;
    double v;
    if (q < hk) {
      if (a->head_parent) { /* (W_P E_tᵀ)(q, α) = Σ_β W_P(q, β) E_t(α, β) */
        const double *W = a->W + ((t - 1) / 2) * KK + q, *E = a->E + (t - 1) * KK + al * K;
        v = 0.0;
        for (int64_t be = q; be < K; ++be) v += W[be * K] * E[be]; /* W upper triangular */
      } else {
        v = a->W[t * KK + q + al * K];
      }
    } else {
      const int64_t j = a->j0 + (q - hk) / K, be = (q - hk) % K;
      if (j < nq) v = a->S[(r0 + j) * KK + al * K + be]; /* S_tsᵀ(β, α) = S_ts(α, β) */
      else v = a->S[a->btr[r0 + j - nq] * KK + be * K + al]; /* S_st(β, α) */
    }
    M[q + al * rows] = v;
  }
}

STRATA_TEAM_KERNEL(strata_h2c_qrcp_rank, strata_h2c_rank_args_t, a, team) {
  const int64_t i = team->league_rank, p = a->m < a->n ? a->m : a->n;
  const double *R = a->R + i * a->stride;
  double *t = a->tail + i * a->n;
  STRATA_TEAM_THREAD_RANGE(team, j, 0, p) {
    double s;
    STRATA_THREAD_VECTOR_REDUCE(team, c, j, a->n, SUM, f64, s) { s += R[j + c * a->ld] * R[j + c * a->ld]; }
    if (strata_thread_single(team)) t[j] = s;
  }
  strata_team_barrier(team);
  if (strata_team_single(team)) { /* the tail sums from the last row up, in one order */
    double s = 0.0;
    int64_t r = p;
    for (int64_t j = p - 1; j >= 0; --j) {
      s += t[j];
      if (s > a->tol2) break;
      r = j;
    }
    a->rank[a->first + i] = (int32_t)r;
  }
}

STRATA_FOR_KERNEL(strata_h2c_stack_est, strata_h2c_stack_est_args_t, a, e) {
  const int64_t K = a->K, KK = K * K, per = 2 * KK, i = e / per, rem = e % per, be = rem / (2 * K), j = rem % (2 * K);
  const int64_t P = a->first + i, c1 = 2 * P + 1, r1 = a->r[c1], r2 = a->r[c1 + 1];
  double v = 0.0;
  if (j < r1) v = a->Ehat[(2 * i) * KK + j + be * K];
  else if (j < r1 + r2) v = a->Ehat[(2 * i + 1) * KK + (j - r1) + be * K];
  a->Est[i * per + j + be * 2 * K] = v;
}

STRATA_FOR_KERNEL(strata_h2c_transpose, strata_h2c_transpose_args_t, a, e) {
  const int64_t K = a->K, KK = K * K, i = e / KK, rem = e % KK, r = rem % K, c = rem / K;
  a->dst[e] = a->src[i * KK + c + r * K];
}

STRATA_REDUCE_KERNEL(strata_h2c_sumsq, strata_h2c_sumsq_args_t, a, i, f64, acc) { *acc += a->x[i] * a->x[i]; }
