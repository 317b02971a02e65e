/* strata hmatrix — the small batched dense kernels of <strata/batched.h>, written once for every
 * backend: one team per block; columns go to the team's threads and rows to a thread's vector
 * lanes (GPU: a warp per column, lanes over the rows, coalesced in column-major blocks; host: one
 * thread, the row loops vectorized). Layouts and codes: batched_args.h. */
#include <float.h>

#include <strata/kl.h>

#include "batched_args.h"

/* --- what every kernel shares: a block's place, sizes, and the error word ------------------ */
STRATA_KL_FUNC double *strata_bt_block(const strata_bt_mat_t *x, int64_t b) {
  return x->data + (x->offsets ? x->offsets[b] : b * x->stride);
}
STRATA_KL_FUNC int64_t strata_bt_ld(const strata_bt_mat_t *x, int64_t rows) {
  return x->ld > 0 ? (int64_t)x->ld : (rows > 1 ? rows : 1);
}
STRATA_KL_FUNC int32_t strata_bt_dim(int32_t bound, const int32_t *each, int64_t b) { return each ? each[b] : bound; }
STRATA_KL_FUNC int strata_bt_bad_dim(int32_t v, int32_t bound) { return v < 0 || v > bound; }
/* folds (block, code) into the word; called by one lane (device code: it is an atomic) */
STRATA_KL_TEAM_FUNC void strata_bt_fold(int64_t *info, int64_t b, int code) { strata_atomic_min_i64(info, b * 8 + code); }

/* The number of non-finite entries of an r × c block (every thread of the team; all get it). */
STRATA_KL_TEAM_FUNC int64_t strata_bt_count_nonfinite(const strata_team_t *team, const double *X, int64_t ld,
                                                      int64_t r, int64_t c) {
  int64_t bad = 0;
  STRATA_TEAM_VECTOR_REDUCE(team, idx, 0, r * c, SUM, i64, bad) { bad += !isfinite(X[idx % r + (idx / r) * ld]); }
  return bad;
}

/* --- GEMM ------------------------------------------------------------------------------------ */
STRATA_TEAM_KERNEL(strata_batched_gemm_kernel, strata_bt_gemm_args_t, a, team) {
  const int64_t b = team->league_rank;
  const int32_t m = strata_bt_dim(a->d.m, a->d.m_each, b), n = strata_bt_dim(a->d.n, a->d.n_each, b);
  const int32_t k = strata_bt_dim(a->d.k, a->d.k_each, b);
  if (strata_bt_bad_dim(m, a->d.m) || strata_bt_bad_dim(n, a->d.n) || strata_bt_bad_dim(k, a->d.k)) {
    if (strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_SIZE);
    return;
  }
  if (m == 0 || n == 0) return;
  const int read_ab = a->alpha != 0.0 && k > 0, read_c = a->beta != 0.0;
  const int64_t ar = a->opA ? k : m, ac = a->opA ? m : k; /* A's stored shape */
  const int64_t br = a->opB ? n : k, bc = a->opB ? k : n;
  const double *A = read_ab ? strata_bt_block(&a->A, b) : NULL;
  const double *B = read_ab ? strata_bt_block(&a->B, b) : NULL;
  double *C = strata_bt_block(&a->C, b);
  const int64_t lda = strata_bt_ld(&a->A, ar), ldb = strata_bt_ld(&a->B, br), ldc = strata_bt_ld(&a->C, m);
  int64_t bad = 0;
  if (read_ab) bad += strata_bt_count_nonfinite(team, A, lda, ar, ac) + strata_bt_count_nonfinite(team, B, ldb, br, bc);
  if (read_c) bad += strata_bt_count_nonfinite(team, C, ldc, m, n);
  if (bad && strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_NONFINITE);
  /* op(A)(i, l) = Ap[i·si + l·sl] */
  const double *Ap = A;
  int64_t si = a->opA ? lda : 1, sl = a->opA ? 1 : lda;
  if (read_ab && a->stage) {
    double *s = (double *)team->scratch;
    /* read A in its storage order (coalesced), write op(A) column-major with ld m */
    STRATA_TEAM_VECTOR_RANGE(team, idx, 0, (int64_t)m * k) {
      const int64_t r = idx % ar, c = idx / ar;
      const double v = A[r + c * lda];
      if (a->opA)
        s[c + r * m] = v;
      else
        s[idx] = v;
    }
    strata_team_barrier(team);
    Ap = s;
    si = 1;
    sl = m;
  }
  const int64_t tl = a->opB ? ldb : 1, tj = a->opB ? 1 : ldb; /* op(B)(l, j) = B[l·tl + j·tj] */
  const double alpha = a->alpha, beta = a->beta;
  if (a->axpy) { /* one lane: the same sums (l ascending from 0) as axpys over the rows, which vectorize */
    double *t = (double *)team->scratch + (a->stage ? (int64_t)a->d.m * a->d.k : 0);
    for (int64_t j = 0; j < n; ++j) {
      STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) { t[i] = 0.0; }
      for (int64_t l = 0; read_ab && l < k; ++l) {
        const double bl = B[l * tl + j * tj];
        const double *ap = Ap + l * sl;
        if (si == 1) {
          STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) { t[i] += ap[i] * bl; }
        } else {
          STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) { t[i] += ap[i * si] * bl; }
        }
      }
      double *c = C + j * ldc;
      if (read_c) {
        STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) { c[i] = alpha * t[i] + beta * c[i]; }
      } else {
        STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) { c[i] = alpha * t[i]; }
      }
    }
    return;
  }
  STRATA_TEAM_THREAD_RANGE(team, j, 0, n) {
    STRATA_THREAD_VECTOR_RANGE(team, i, 0, m) {
      double s = 0.0;
      if (read_ab)
        for (int64_t l = 0; l < k; ++l) s += Ap[i * si + l * sl] * B[l * tl + j * tj];
      double *c = C + i + j * ldc;
      *c = read_c ? alpha * s + beta * *c : alpha * s;
    }
  }
}

/* --- Householder QR ------------------------------------------------------------------------- */
/* H = I - tau v vᵀ (v[0] = 1, v[1..len) stored) applied to the len-row column y, by one thread's
 * lanes (entry i by lane i mod vector_length, in every loop over such a column). Returns the new
 * y[0] to every lane (read before the reduction's shuffles, which no lane passes before all have
 * read it: no lane reads what another lane writes). */
STRATA_KL_TEAM_FUNC double strata_bt_reflect(const strata_team_t *team, const double *v, double tau, double *y,
                                             int64_t len) {
  const double y0 = y[0];
  double w = 0.0;
  STRATA_THREAD_VECTOR_REDUCE(team, i, 0, len, SUM, f64, w) { w += (i == 0 ? 1.0 : v[i]) * y[i]; }
  const double tw = tau * w;
  STRATA_THREAD_VECTOR_RANGE(team, i, 0, len) { y[i] -= tw * (i == 0 ? 1.0 : v[i]); }
  return y0 - tw;
}

/* The squared norm of y[from, len) by one thread's lanes (entry i read by lane i mod
 * vector_length, as strata_bt_reflect writes it). */
STRATA_KL_TEAM_FUNC double strata_bt_norm2(const strata_team_t *team, const double *y, int64_t from, int64_t len) {
  double s = 0.0;
  STRATA_THREAD_VECTOR_REDUCE(team, i, 0, len, SUM, f64, s) { s += i >= from ? y[i] * y[i] : 0.0; }
  return s;
}

/* Householder QR (LAPACK dgeqr2); with perm, column pivoting by the largest partial norm, the
 * norms downdated as LAPACK's dlaqp2 does (recomputed when cancellation has eaten half of the
 * digits: the ratio below sqrt(eps)). The norms live in two buffers of (vn1, vn2), read from the
 * step's and written to the other, so that no lane reads a norm its thread's lane 0 has updated. */
STRATA_TEAM_KERNEL(strata_batched_qr_kernel, strata_bt_qr_args_t, a, team) {
  const int64_t b = team->league_rank;
  const int32_t m = strata_bt_dim(a->d.m, a->d.m_each, b), n = strata_bt_dim(a->d.n, a->d.n_each, b);
  if (strata_bt_bad_dim(m, a->d.m) || strata_bt_bad_dim(n, a->d.n)) {
    if (strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_SIZE);
    return;
  }
  if (m == 0 || n == 0) return;
  double *A = strata_bt_block(&a->A, b), *tau = strata_bt_block(&a->tau, b);
  const int64_t lda = strata_bt_ld(&a->A, m), r = m < n ? m : n;
  int32_t *perm = a->perm ? a->perm + b * a->d.n : NULL;
  double *const nb = (double *)team->scratch; /* [2][2][d.n]: buffer, (vn1, vn2), column */
  const int64_t nd = a->d.n;
  if (strata_bt_count_nonfinite(team, A, lda, m, n) && strata_team_single(team))
    strata_bt_fold(a->info, b, STRATA_BT_NONFINITE);
  if (perm) {
    STRATA_TEAM_THREAD_RANGE(team, c, 0, n) {
      const double v = sqrt(strata_bt_norm2(team, A + c * lda, 0, m));
      if (strata_thread_single(team)) {
        nb[c] = nb[nd + c] = v;
        perm[c] = (int32_t)c;
      }
    }
    strata_team_barrier(team);
  }
  const double tol3z = sqrt(DBL_EPSILON);
  for (int64_t j = 0; j < r; ++j) {
    double *vn1 = nb + (j & 1) * 2 * nd, *vn2 = vn1 + nd, *nv1 = nb + ((j + 1) & 1) * 2 * nd, *nv2 = nv1 + nd;
    if (perm) { /* the column of the largest partial norm (the first such) to position j */
      double vmax = 0.0;
      STRATA_TEAM_VECTOR_REDUCE(team, c, j, n, MAX, f64, vmax) {
        if (vn1[c] > vmax) vmax = vn1[c];
      }
      int64_t p = 0;
      STRATA_TEAM_VECTOR_REDUCE(team, c, j, n, MIN, i64, p) {
        const int64_t q = vn1[c] == vmax ? c : n;
        if (q < p) p = q;
      }
      if (p != j && p < n) {
        STRATA_TEAM_VECTOR_RANGE(team, i, 0, m) {
          const double t = A[i + j * lda];
          A[i + j * lda] = A[i + p * lda];
          A[i + p * lda] = t;
        }
        if (strata_team_single(team)) {
          const double t1 = vn1[j], t2 = vn2[j];
          const int32_t tp = perm[j];
          vn1[j] = vn1[p], vn2[j] = vn2[p], perm[j] = perm[p];
          vn1[p] = t1, vn2[p] = t2, perm[p] = tp;
        }
        strata_team_barrier(team);
      }
    }
    double *x = A + j + j * lda;
    const int64_t len = m - j;
    const double alpha = x[0]; /* read by all before the first barrier; written after it */
    double xmax = 0.0, ss = 0.0;
    STRATA_TEAM_VECTOR_REDUCE(team, i, 1, len, MAX, f64, xmax) {
      const double v = fabs(x[i]);
      if (v > xmax) xmax = v;
    }
    double tj = 0.0, beta = alpha;
    if (xmax > 0.0) { /* uniform: every thread holds the same xmax */
      STRATA_TEAM_VECTOR_REDUCE(team, i, 1, len, SUM, f64, ss) {
        const double v = x[i] / xmax;
        ss += v * v;
      }
      const double nrm = hypot(alpha, xmax * sqrt(ss)); /* LAPACK dlarfg, without its rescaling loop */
      beta = alpha >= 0.0 ? -nrm : nrm;
      tj = (beta - alpha) / beta;
      const double scal = 1.0 / (alpha - beta);
      STRATA_TEAM_VECTOR_RANGE(team, i, 1, len) { x[i] *= scal; }
    }
    if (strata_team_single(team)) {
      x[0] = beta;
      tau[j] = tj;
    }
    strata_team_barrier(team);
    if ((tj != 0.0 || perm) && j + 1 < n) {
      STRATA_TEAM_THREAD_RANGE(team, c, j + 1, n) {
        double *y = A + j + c * lda;
        const double y0 = tj != 0.0 ? strata_bt_reflect(team, x, tj, y, len) : y[0];
        if (perm) {
          double v1 = vn1[c], v2 = vn2[c];
          if (v1 != 0.0) {
            const double q = fabs(y0) / v1;
            const double t = 1.0 - q * q > 0.0 ? 1.0 - q * q : 0.0;
            const double t2 = t * (v1 / v2) * (v1 / v2);
            v1 *= sqrt(t);
            if (t2 <= tol3z) v1 = v2 = sqrt(strata_bt_norm2(team, y, 1, len));
          }
          if (strata_thread_single(team)) nv1[c] = v1, nv2[c] = v2;
        }
      }
      strata_team_barrier(team);
    }
  }
}

STRATA_TEAM_KERNEL(strata_batched_qr_apply_kernel, strata_bt_qr_apply_args_t, a, team) {
  const int64_t b = team->league_rank;
  const int32_t m = strata_bt_dim(a->d.m, a->d.m_each, b), n = strata_bt_dim(a->d.n, a->d.n_each, b);
  const int32_t k = strata_bt_dim(a->d.k, a->d.k_each, b);
  if (strata_bt_bad_dim(m, a->d.m) || strata_bt_bad_dim(n, a->d.n) || strata_bt_bad_dim(k, a->d.k) || k > m) {
    if (strata_team_single(team))
      strata_bt_fold(a->info, b, strata_bt_bad_dim(k, a->d.k) || k <= m ? STRATA_BT_SIZE : STRATA_BT_REFLECTORS);
    return;
  }
  if (m == 0 || n == 0) return;
  double *C = strata_bt_block(&a->C, b);
  const int64_t ldc = strata_bt_ld(&a->C, m);
  const double *A = k > 0 ? strata_bt_block(&a->A, b) : NULL, *tau = k > 0 ? strata_bt_block(&a->tau, b) : NULL;
  const int64_t lda = strata_bt_ld(&a->A, m);
  int64_t bad = 0;
  if (k > 0) { /* the reflectors below the diagonal, and tau */
    STRATA_TEAM_VECTOR_REDUCE(team, idx, 0, (int64_t)m * k, SUM, i64, bad) {
      const int64_t i = idx % m, j = idx / m;
      bad += (i > j && !isfinite(A[i + j * lda])) || (i == j && !isfinite(tau[j]));
    }
  }
  if (!a->form_q) bad += strata_bt_count_nonfinite(team, C, ldc, m, n);
  if (bad && strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_NONFINITE);
  if (a->form_q) {
    STRATA_TEAM_VECTOR_RANGE(team, idx, 0, (int64_t)m * n) { C[idx % m + (idx / m) * ldc] = idx % m == idx / m ? 1.0 : 0.0; }
    strata_team_barrier(team);
  }
  /* Q·C = H_0 (H_1 (… H_{k-1} C)); Qᵀ·C = H_{k-1} (… H_0 C) */
  for (int64_t t = 0; t < k; ++t) {
    const int64_t j = a->op ? t : k - 1 - t;
    const double tj = tau[j];
    if (tj == 0.0) continue;
    const double *v = A + j + j * lda;
    STRATA_TEAM_THREAD_RANGE(team, c, 0, n) { strata_bt_reflect(team, v, tj, C + j + c * ldc, m - j); }
    strata_team_barrier(team);
  }
}

/* --- one-sided Jacobi SVD ------------------------------------------------------------------- */
/* The pair of slot s in step r of a round-robin over np (even) columns: slot 0 pairs r with the
 * fixed column np - 1, slot s > 0 pairs r + s with r - s (mod np - 1); p < q on return. */
STRATA_KL_FUNC void strata_bt_pair(int64_t np, int64_t r, int64_t s, int64_t *p, int64_t *q) {
  int64_t x, y;
  if (s == 0) {
    x = r;
    y = np - 1;
  } else {
    x = (r + s) % (np - 1);
    y = (r - s + np - 1) % (np - 1);
  }
  *p = x < y ? x : y;
  *q = x < y ? y : x;
}

STRATA_TEAM_KERNEL(strata_batched_svd_kernel, strata_bt_svd_args_t, a, team) {
  const int64_t b = a->first + team->league_rank;
  const int32_t m = strata_bt_dim(a->d.m, a->d.m_each, b), n = strata_bt_dim(a->d.n, a->d.n_each, b);
  if (strata_bt_bad_dim(m, a->d.m) || strata_bt_bad_dim(n, a->d.n)) {
    if (strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_SIZE);
    return;
  }
  if (m == 0 || n == 0) return;
  const int tr = n > m; /* Jacobi on the columns of Aᵀ */
  const int64_t M = tr ? n : m, N = tr ? m : n, np = N + (N & 1), pairs = np / 2;
  const int64_t pb = a->d.m < a->d.n ? a->d.m : a->d.n; /* bound of N: sizes the small arrays */
  const double *A = strata_bt_block(&a->A, b);
  const int64_t lda = strata_bt_ld(&a->A, m);
  double *S = strata_bt_block(&a->S, b);
  /* W's columns become U's (V's when tr), the accumulated rotations VW V's (U's when tr) */
  const strata_bt_mat_t *wo = tr ? &a->V : &a->U, *vo = tr ? &a->U : &a->V;
  double *Wout = wo->data ? strata_bt_block(wo, b) : NULL, *Vout = vo->data ? strata_bt_block(vo, b) : NULL;
  const int64_t ldwo = strata_bt_ld(wo, M), ldvo = strata_bt_ld(vo, N);
  double *sig = (double *)team->scratch, *off = sig + pb;
  int32_t *pos = (int32_t *)(off + (pb + 1) / 2 + 1);
  double *W = a->ws ? a->ws + team->league_rank * a->ws_stride : (double *)((char *)team->scratch + a->small_bytes);
  double *VW = W + M * N;

  double amax = 0.0;
  STRATA_TEAM_VECTOR_REDUCE(team, idx, 0, M * N, MAX, f64, amax) {
    const double v = fabs(A[idx % m + (idx / m) * lda]);
    if (v > amax) amax = v;
  }
  if (strata_bt_count_nonfinite(team, A, lda, m, n)) { /* NaN everywhere, reported */
    if (strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_NONFINITE);
    STRATA_TEAM_VECTOR_RANGE(team, j, 0, N) {
      S[j] = NAN;
      for (int64_t i = 0; Wout && i < M; ++i) Wout[i + j * ldwo] = NAN;
      for (int64_t i = 0; Vout && i < N; ++i) Vout[i + j * ldvo] = NAN;
    }
    return;
  }
  const double scale = amax > 0.0 ? amax : 1.0, inv = 1.0 / scale;
  STRATA_TEAM_VECTOR_RANGE(team, idx, 0, M * N) {
    const int64_t i = idx % M, j = idx / M;
    W[idx] = (tr ? A[j + i * lda] : A[i + j * lda]) * inv;
  }
  STRATA_TEAM_VECTOR_RANGE(team, idx, 0, N * N) { VW[idx] = idx % N == idx / N ? 1.0 : 0.0; }
  strata_team_barrier(team);

  const double tol = sqrt((double)M) * DBL_EPSILON, tiny = 1e-280;
  int converged = N < 2;
  for (int sweep = 0; sweep < 40 && !converged; ++sweep) {
    for (int64_t r = 0; r < np - 1; ++r) {
      STRATA_TEAM_THREAD_RANGE(team, s, 0, pairs) {
        int64_t p, q;
        strata_bt_pair(np, r, s, &p, &q);
        double o = 0.0;
        if (q < N) { /* q == N: the padding column of an odd N */
          double *wp = W + p * M, *wq = W + q * M, *vp = VW + p * N, *vq = VW + q * N;
          double al = 0.0, be = 0.0, ga = 0.0;
          STRATA_THREAD_VECTOR_REDUCE(team, i, 0, M, SUM, f64, al) { al += wp[i] * wp[i]; }
          STRATA_THREAD_VECTOR_REDUCE(team, i, 0, M, SUM, f64, be) { be += wq[i] * wq[i]; }
          STRATA_THREAD_VECTOR_REDUCE(team, i, 0, M, SUM, f64, ga) { ga += wp[i] * wq[i]; }
          if (al > tiny && be > tiny) {
            o = fabs(ga) / (sqrt(al) * sqrt(be));
            if (o > tol) {
              const double zeta = (be - al) / (2.0 * ga), az = fabs(zeta);
              const double t = (zeta >= 0.0 ? 1.0 : -1.0) / (az + (az > 1e150 ? az : sqrt(1.0 + az * az)));
              const double c = 1.0 / sqrt(1.0 + t * t), sn = c * t;
              STRATA_THREAD_VECTOR_RANGE(team, i, 0, M) {
                const double x = wp[i], y = wq[i];
                wp[i] = c * x - sn * y;
                wq[i] = sn * x + c * y;
              }
              STRATA_THREAD_VECTOR_RANGE(team, i, 0, N) {
                const double x = vp[i], y = vq[i];
                vp[i] = c * x - sn * y;
                vq[i] = sn * x + c * y;
              }
            }
          }
        }
        if (strata_thread_single(team)) off[s] = r == 0 || o > off[s] ? o : off[s];
      }
      strata_team_barrier(team);
    }
    double omax = 0.0;
    STRATA_TEAM_VECTOR_REDUCE(team, s, 0, pairs, MAX, f64, omax) {
      if (off[s] > omax) omax = off[s];
    }
    converged = !(omax > tol);
  }
  if (!converged && strata_team_single(team)) strata_bt_fold(a->info, b, STRATA_BT_NOCONV);

  /* singular values (below 1e-140·max|A|: zero), their descending order (ties by column) */
  STRATA_TEAM_THREAD_RANGE(team, j, 0, N) {
    double ss = 0.0;
    STRATA_THREAD_VECTOR_REDUCE(team, i, 0, M, SUM, f64, ss) { ss += W[i + j * M] * W[i + j * M]; }
    if (strata_thread_single(team)) sig[j] = sqrt(ss) < 1e-140 ? 0.0 : sqrt(ss);
  }
  strata_team_barrier(team);
  STRATA_TEAM_VECTOR_RANGE(team, j, 0, N) {
    int32_t p = 0;
    for (int64_t i = 0; i < N; ++i) p += sig[i] > sig[j] || (sig[i] == sig[j] && i < j);
    pos[j] = p;
  }
  strata_team_barrier(team);
  int64_t nz = 0;
  STRATA_TEAM_VECTOR_REDUCE(team, j, 0, N, SUM, i64, nz) { nz += sig[j] > 0.0; }
  STRATA_TEAM_THREAD_RANGE(team, j, 0, N) {
    const int64_t pj = pos[j];
    const double sj = sig[j], is = sj > 0.0 ? 1.0 / sj : 0.0;
    if (strata_thread_single(team)) S[pj] = sj * scale;
    if (Wout) {
      STRATA_THREAD_VECTOR_RANGE(team, i, 0, M) { Wout[i + pj * ldwo] = W[i + j * M] * is; }
    }
    if (Vout) {
      STRATA_THREAD_VECTOR_RANGE(team, i, 0, N) { Vout[i + pj * ldvo] = VW[i + j * N]; }
    }
  }
  strata_team_barrier(team);
  /* the columns of zero singular values: unit vectors e_t orthogonalized (twice) against the
   * columns before, the first that keeps half of the average share (M - c) / M of its norm */
  double *h = sig; /* free now */
  for (int64_t c = nz; Wout && c < N; ++c) {
    double *x = Wout + c * ldwo;
    for (int64_t t = 0; t < M; ++t) {
      STRATA_TEAM_VECTOR_RANGE(team, i, 0, M) {
        double v = i == t ? 1.0 : 0.0;
        for (int64_t q = 0; q < c; ++q) v -= Wout[i + q * ldwo] * Wout[t + q * ldwo];
        x[i] = v;
      }
      strata_team_barrier(team);
      STRATA_TEAM_THREAD_RANGE(team, q, 0, c) {
        double d = 0.0;
        STRATA_THREAD_VECTOR_REDUCE(team, i, 0, M, SUM, f64, d) { d += Wout[i + q * ldwo] * x[i]; }
        if (strata_thread_single(team)) h[q] = d;
      }
      strata_team_barrier(team);
      STRATA_TEAM_VECTOR_RANGE(team, i, 0, M) {
        double v = x[i];
        for (int64_t q = 0; q < c; ++q) v -= h[q] * Wout[i + q * ldwo];
        x[i] = v;
      }
      strata_team_barrier(team);
      double nrm = 0.0;
      STRATA_TEAM_VECTOR_REDUCE(team, i, 0, M, SUM, f64, nrm) { nrm += x[i] * x[i]; }
      if (nrm > 0.5 * (double)(M - c) / (double)M) {
        const double is = 1.0 / sqrt(nrm);
        STRATA_TEAM_VECTOR_RANGE(team, i, 0, M) { x[i] *= is; }
        strata_team_barrier(team);
        break;
      }
    }
  }
}

/* --- truncation rank ------------------------------------------------------------------------ */
STRATA_FOR_KERNEL(strata_batched_rank_kernel, strata_bt_rank_args_t, a, b) {
  const int32_t n = strata_bt_dim(a->d.n, a->d.n_each, b);
  if (strata_bt_bad_dim(n, a->d.n)) {
    strata_bt_fold(a->info, b, STRATA_BT_SIZE);
    a->ranks[b] = 0;
    return;
  }
  if (n == 0) {
    a->ranks[b] = 0;
    return;
  }
  const double *S = strata_bt_block(&a->S, b);
  int bad = 0;
  for (int64_t j = 0; j < n; ++j) bad |= !(S[j] >= 0.0) || !isfinite(S[j]) || (j > 0 && S[j] > S[j - 1]);
  if (bad) {
    strata_bt_fold(a->info, b, STRATA_BT_UNSORTED);
    a->ranks[b] = n;
    return;
  }
  const double s0 = S[0];
  int64_t r = n;
  if (s0 == 0.0) {
    r = 0;
  } else if (!a->fro) { /* the first σ_j at or below the threshold */
    const double thr = a->relative ? a->tol * s0 : a->tol;
    r = 0;
    while (r < n && S[r] > thr) ++r;
  } else { /* in units of σ_0: the tail Σ_{j>=r} (σ_j/σ_0)² against the threshold, from the end */
    double thr;
    if (a->relative) {
      double tot = 0.0;
      for (int64_t j = n - 1; j >= 0; --j) tot += (S[j] / s0) * (S[j] / s0);
      thr = a->tol * a->tol * tot;
    } else {
      thr = (a->tol / s0) * (a->tol / s0);
    }
    double tail = 0.0;
    while (r > 0) {
      const double v = (S[r - 1] / s0) * (S[r - 1] / s0);
      if (tail + v > thr) break;
      tail += v;
      --r;
    }
  }
  a->ranks[b] = (int32_t)r;
}

STRATA_FOR_KERNEL(strata_batched_reset_kernel, strata_bt_reset_args_t, a, i) { a->info[i] = STRATA_BT_NONE; }
