/* strata solvers — classical AMG (strata/amg.h): options, the hierarchy's setup from the phases of
 * amg_impl.h (strength, coarsening, interpolation, smoothers) and SpGEMM's Galerkin product, the
 * V / W / F cycles, and AMG as a preconditioner.
 *
 * Setup, level l with A_l (n_l rows): stop (A_l is the coarsest) when n_l <= coarse_size, or l + 1
 * = max_levels, or the coarsening gives no C point or no reduction (nc = 0 or nc = n_l); else
 * S_l = strength(A_l), cf = coarsen(S_l), P_l = interp(A_l, S_l, cf), A_{l+1} = P_lᵀ A_l P_l
 * (strata_crs_galerkin), R_l = P_lᵀ kept for the restriction, and a smoother for A_l. All of this
 * runs on the device.
 * Coarsest level: with at most STRATA_AMG_DENSE_MAX (4096) rows, a dense LU with partial pivoting
 * of A_L factored on the host at setup (the matrix is copied to the host); each application
 * copies the coarse right-hand side to the host, solves there and copies the solution back (a
 * few KiB per cycle). A pivot that is zero (below 1e-14 · the largest |entry|: a singular coarse
 * matrix, e.g. a pure Neumann problem) sets that unknown to 0 (a pseudo-solve, as hypre's
 * Gaussian elimination does). Above 4096 rows the coarsest level is smoothed instead: its smoother,
 * pre_sweeps + post_sweeps sweeps (at least 2), forward then backward halves for the GS variants.
 *
 * Cycle at level l < L (b_l, x_l): pre-smoothing (forward, x_is_zero on the first visit), r_l =
 * b_l − A_l x_l, b_{l+1} = R_l r_l, the coarse correction (V: one visit; W: two; F: an F-cycle then
 * a V-cycle on level l + 1), x_l += P_l x_{l+1}, post-smoothing (backward). Work vectors are
 * allocated at setup. The preconditioner is one cycle from x = 0. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amg_impl.h"

#define STRATA_AMG_DENSE_MAX 4096
#define STRATA_AMG_MAX_LEVELS 32 /* strata_amg_info_t.level[32] */

/* ------------------------------------------------------------------ options */

void strata_amg_options_default(strata_amg_options_t *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->coarsen = STRATA_AMG_HMIS;
  o->interp = STRATA_AMG_EXT_I;
  o->smoother = STRATA_SMOOTH_L1_JACOBI;
  o->pre_sweeps = 1;
  o->post_sweeps = 1;
  o->theta = 0.25;
  o->max_row_sum = 0.9;
  o->max_levels = 25;
  o->coarse_size = 64;
  o->trunc_factor = 0.0;
  o->max_elements = 4;
  o->omega = 2.0 / 3.0;
  o->cheby_degree = 2;
  o->cycle = STRATA_CYCLE_V;
  o->seed = 1;
}

static const char *const coarsen_names[] = {"rs", "cljp", "pmis", "hmis"};
static const char *const interp_names[] = {"direct", "standard", "ext+i"};
static const char *const smoother_names[] = {"jacobi", "wjacobi", "l1-jacobi", "cheby", "hgs", "mcgs", "sgs"};
static const char *const cycle_names[] = {"V", "W", "F"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Every field of o against its limit; the first bad one named. */
static strata_status_t check_options(const char *who, const strata_amg_options_t *o) {
  const char *bad = NULL;
  char lim[96] = "";
  double v = 0;
  if ((int)o->coarsen < 0 || (int)o->coarsen >= COUNT(coarsen_names))
    bad = "coarsen", v = o->coarsen, snprintf(lim, sizeof lim, "0 .. %d (rs, cljp, pmis, hmis)", COUNT(coarsen_names) - 1);
  else if ((int)o->interp < 0 || (int)o->interp >= COUNT(interp_names))
    bad = "interp", v = o->interp, snprintf(lim, sizeof lim, "0 .. %d (direct, standard, ext+i)", COUNT(interp_names) - 1);
  else if ((int)o->smoother < 0 || (int)o->smoother >= COUNT(smoother_names))
    bad = "smoother", v = o->smoother, snprintf(lim, sizeof lim, "0 .. %d", COUNT(smoother_names) - 1);
  else if (o->pre_sweeps < 0)
    bad = "pre_sweeps", v = o->pre_sweeps, snprintf(lim, sizeof lim, ">= 0");
  else if (o->post_sweeps < 0)
    bad = "post_sweeps", v = o->post_sweeps, snprintf(lim, sizeof lim, ">= 0");
  else if (!(o->theta > 0.0 && o->theta < 1.0))
    bad = "theta", v = o->theta, snprintf(lim, sizeof lim, "in (0, 1)");
  else if (!(o->max_row_sum > 0.0 && o->max_row_sum <= 1.0))
    bad = "max_row_sum", v = o->max_row_sum, snprintf(lim, sizeof lim, "in (0, 1]");
  else if (o->max_levels < 1 || o->max_levels > STRATA_AMG_MAX_LEVELS)
    bad = "max_levels", v = o->max_levels, snprintf(lim, sizeof lim, "in [1, %d]", STRATA_AMG_MAX_LEVELS);
  else if (o->coarse_size < 1)
    bad = "coarse_size", v = o->coarse_size, snprintf(lim, sizeof lim, ">= 1");
  else if (!(o->trunc_factor >= 0.0 && o->trunc_factor < 1.0))
    bad = "trunc_factor", v = o->trunc_factor, snprintf(lim, sizeof lim, "in [0, 1)");
  else if (o->max_elements < 0)
    bad = "max_elements", v = o->max_elements, snprintf(lim, sizeof lim, ">= 0 (0: no limit)");
  else if (!(o->omega > 0.0 && o->omega < 2.0))
    bad = "omega", v = o->omega, snprintf(lim, sizeof lim, "in (0, 2)");
  else if (o->cheby_degree < 1)
    bad = "cheby_degree", v = o->cheby_degree, snprintf(lim, sizeof lim, ">= 1");
  else if ((int)o->cycle < 0 || (int)o->cycle > STRATA_CYCLE_F)
    bad = "cycle", v = o->cycle, snprintf(lim, sizeof lim, "0 .. 2 (V, W, F)");
  if (!bad) return STRATA_SUCCESS;
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s: %s = %g (must be %s)", who, bad, v, lim);
}

#define PARSE_FORMS                                                                                              \
  "coarsen=rs|cljp|pmis|hmis, interp=direct|standard|ext+i, smoother=jacobi|wjacobi|l1-jacobi|cheby|hgs|mcgs|sgs, " \
  "sweeps=N, pre=N, post=N, theta=T, max_row_sum=M, levels=L, coarse=N, trunc=T, pmax=N, omega=W, degree=D, "      \
  "cycle=v|w|f, seed=S"

/* The index of [v, v + len) among names, letters compared without case; -1 if none. */
static int pick(const char *v, size_t len, const char *const *names, int count) {
  for (int i = 0; i < count; ++i) {
    if (strlen(names[i]) != len) continue;
    size_t k = 0;
    while (k < len && tolower((unsigned char)v[k]) == tolower((unsigned char)names[i][k])) ++k;
    if (k == len) return i;
  }
  return -1;
}

static strata_status_t bad_value(const char *name, size_t nlen, const char *v, size_t vlen, const char *limit) {
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG options: %.*s = '%.*s' (must be %s)", (int)nlen, name,
                          (int)vlen, v, limit);
}

/* A number of the whole value [v, v + len) into *x; 0 when it is not one. */
static int number(const char *v, size_t len, double *x) {
  char buf[64];
  if (len == 0 || len >= sizeof buf) return 0;
  memcpy(buf, v, len);
  buf[len] = '\0';
  char *end = NULL;
  *x = strtod(buf, &end);
  return *end == '\0' && isfinite(*x);
}

static int integer(const char *v, size_t len, double *x) { return number(v, len, x) && *x == floor(*x) && fabs(*x) < 2e9; }

strata_status_t strata_amg_options_parse(const char *text, strata_amg_options_t *opts) {
  if (!text || !opts)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_amg_options_parse: NULL %s", !text ? "text" : "opts");
  strata_amg_options_t o;
  strata_amg_options_default(&o);
  const char *s = text;
  while (*s) {
    const char *end = strchr(s, ',');
    const size_t len = end ? (size_t)(end - s) : strlen(s);
    const char *eq = memchr(s, '=', len);
    if (!eq)
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG options: '%.*s' is not NAME=VALUE (%s)", (int)len, s,
                              PARSE_FORMS);
    const size_t nlen = (size_t)(eq - s), vlen = len - nlen - 1;
    const char *v = eq + 1;
    double x = 0;
    int k;
#define IS(str) (nlen == strlen(str) && strncmp(s, str, nlen) == 0)
    if (IS("coarsen")) {
      if ((k = pick(v, vlen, coarsen_names, COUNT(coarsen_names))) < 0)
        return bad_value(s, nlen, v, vlen, "rs, cljp, pmis or hmis");
      o.coarsen = (strata_amg_coarsen_t)k;
    } else if (IS("interp")) {
      if ((k = pick(v, vlen, interp_names, COUNT(interp_names))) < 0)
        return bad_value(s, nlen, v, vlen, "direct, standard or ext+i");
      o.interp = (strata_amg_interp_t)k;
    } else if (IS("smoother")) {
      if ((k = pick(v, vlen, smoother_names, COUNT(smoother_names))) < 0)
        return bad_value(s, nlen, v, vlen, "jacobi, wjacobi, l1-jacobi, cheby, hgs, mcgs or sgs");
      o.smoother = (strata_amg_smoother_t)k;
    } else if (IS("cycle")) {
      if ((k = pick(v, vlen, cycle_names, COUNT(cycle_names))) < 0) return bad_value(s, nlen, v, vlen, "v, w or f");
      o.cycle = (strata_amg_cycle_t)k;
    } else if (IS("sweeps") || IS("pre") || IS("post")) {
      if (!integer(v, vlen, &x) || x < 0) return bad_value(s, nlen, v, vlen, "an integer >= 0");
      if (!IS("post")) o.pre_sweeps = (int)x;
      if (!IS("pre")) o.post_sweeps = (int)x;
    } else if (IS("theta")) {
      if (!number(v, vlen, &x) || !(x > 0 && x < 1)) return bad_value(s, nlen, v, vlen, "a number in (0, 1)");
      o.theta = x;
    } else if (IS("max_row_sum")) {
      if (!number(v, vlen, &x) || !(x > 0 && x <= 1)) return bad_value(s, nlen, v, vlen, "a number in (0, 1]");
      o.max_row_sum = x;
    } else if (IS("levels")) {
      if (!integer(v, vlen, &x) || x < 1 || x > STRATA_AMG_MAX_LEVELS)
        return bad_value(s, nlen, v, vlen, "an integer in [1, 32]");
      o.max_levels = (int)x;
    } else if (IS("coarse")) {
      if (!integer(v, vlen, &x) || x < 1) return bad_value(s, nlen, v, vlen, "an integer >= 1");
      o.coarse_size = (int32_t)x;
    } else if (IS("trunc")) {
      if (!number(v, vlen, &x) || !(x >= 0 && x < 1)) return bad_value(s, nlen, v, vlen, "a number in [0, 1)");
      o.trunc_factor = x;
    } else if (IS("pmax")) {
      if (!integer(v, vlen, &x) || x < 0) return bad_value(s, nlen, v, vlen, "an integer >= 0 (0: no limit)");
      o.max_elements = (int)x;
    } else if (IS("omega")) {
      if (!number(v, vlen, &x) || !(x > 0 && x < 2)) return bad_value(s, nlen, v, vlen, "a number in (0, 2)");
      o.omega = x;
    } else if (IS("degree")) {
      if (!integer(v, vlen, &x) || x < 1) return bad_value(s, nlen, v, vlen, "an integer >= 1");
      o.cheby_degree = (int)x;
    } else if (IS("seed")) {
      char buf[32];
      char *e = NULL;
      if (vlen == 0 || vlen >= sizeof buf || v[0] == '-') return bad_value(s, nlen, v, vlen, "an integer >= 0");
      memcpy(buf, v, vlen);
      buf[vlen] = '\0';
      const unsigned long long seed = strtoull(buf, &e, 10);
      if (*e) return bad_value(s, nlen, v, vlen, "an integer >= 0");
      o.seed = (uint64_t)seed;
    } else {
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG options: unknown name '%.*s' (%s)", (int)nlen, s,
                              PARSE_FORMS);
    }
#undef IS
    if (!end) break;
    s = end + 1;
    if (!*s) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "AMG options: nothing after the last ',' in '%s'", text);
  }
  *opts = o;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ the hierarchy */

typedef struct amg_level {
  strata_crs_matrix_t *A; /* level 0: the operator's (borrowed) unless copied to make it fill-complete */
  int own_A;
  strata_crs_matrix_t *P, *R; /* to / from the next level (NULL on the coarsest) */
  strata_impl_smoother_t *sm;
  double *b, *x, *r;          /* [n] exec memory; b and x unused on level 0 (the caller's) */
} amg_level_t;

typedef struct amg {
  strata_exec_t *exec;
  strata_amg_options_t opts;
  int num_levels;
  amg_level_t lev[STRATA_AMG_MAX_LEVELS];
  /* the coarsest level's dense LU (host): lu [nc × nc] row-major, piv [nc], rhs [nc] */
  int32_t nc;
  double *lu, *rhs;
  int32_t *piv;
  int dense;  /* 1: the coarsest level is solved by the LU; 0: smoothed */
  strata_amg_info_t info;
  int set_up;
} amg_t;

static void free_hierarchy(amg_t *M) {
  for (int l = 0; l < M->num_levels; ++l) {
    amg_level_t *L = &M->lev[l];
    strata_impl_smoother_destroy(&L->sm);
    strata_crs_destroy(&L->P);
    strata_crs_destroy(&L->R);
    if (L->own_A) strata_crs_destroy(&L->A);
    L->A = NULL;
    L->own_A = 0;
    strata_mem_free(M->exec, STRATA_MEM_DEVICE, (void **)&L->b);
    strata_mem_free(M->exec, STRATA_MEM_DEVICE, (void **)&L->x);
    strata_mem_free(M->exec, STRATA_MEM_DEVICE, (void **)&L->r);
  }
  free(M->lu);
  free(M->rhs);
  free(M->piv);
  M->lu = M->rhs = NULL;
  M->piv = NULL;
  M->num_levels = 0;
  M->set_up = 0;
  memset(&M->info, 0, sizeof M->info);
}

/* The error of a phase, prefixed with the level. */
static strata_status_t at_level(strata_status_t st, int level, int32_t n) {
  if (!st) return st;
  char msg[512];
  snprintf(msg, sizeof msg, "%s", strata_error_message());
  return strata_error_set(st, "AMG setup, level %d (%lld rows): %s", level, (long long)n, msg);
}

/* Dense LU with partial pivoting of the coarsest matrix, on the host. */
static strata_status_t dense_factor(amg_t *M, const strata_crs_matrix_t *A) {
  const int32_t n = A->num_rows;
  M->nc = n;
  const size_t nn = (size_t)n * (size_t)n;
  int64_t *ro = (int64_t *)malloc((size_t)(n + 1) * sizeof *ro);
  int32_t *ci = (int32_t *)malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof *ci);
  double *va = (double *)malloc((size_t)(A->nnz > 0 ? A->nnz : 1) * sizeof *va);
  M->lu = (double *)calloc(nn > 0 ? nn : 1, sizeof *M->lu);
  M->rhs = (double *)malloc((size_t)(n > 0 ? n : 1) * sizeof *M->rhs);
  M->piv = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof *M->piv);
  strata_status_t st = STRATA_SUCCESS;
  if (!ro || !ci || !va || !M->lu || !M->rhs || !M->piv)
    st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "AMG coarsest LU: %zu bytes for %lld rows", nn * sizeof(double),
                          (long long)n);
  if (!st) st = strata_mem_copy(M->exec, ro, A->row_offsets, (size_t)(n + 1) * sizeof *ro);
  if (!st) st = strata_mem_copy(M->exec, ci, A->col_indices, (size_t)A->nnz * sizeof *ci);
  if (!st) st = strata_mem_copy(M->exec, va, A->values, (size_t)A->nnz * sizeof *va);
  if (!st) {
    double *a = M->lu;
    double amax = 0;
    for (int32_t i = 0; i < n; ++i)
      for (int64_t k = ro[i]; k < ro[i + 1]; ++k) {
        a[(size_t)i * n + ci[k]] += va[k];
        amax = fmax(amax, fabs(va[k]));
      }
    const double tiny = 1e-14 * amax;
    for (int32_t k = 0; k < n; ++k) {
      int32_t p = k;
      for (int32_t i = k + 1; i < n; ++i)
        if (fabs(a[(size_t)i * n + k]) > fabs(a[(size_t)p * n + k])) p = i;
      M->piv[k] = p;
      if (p != k)
        for (int32_t j = 0; j < n; ++j) {
          const double t = a[(size_t)k * n + j];
          a[(size_t)k * n + j] = a[(size_t)p * n + j];
          a[(size_t)p * n + j] = t;
        }
      const double d = a[(size_t)k * n + k];
      if (!(fabs(d) > tiny)) {
        a[(size_t)k * n + k] = 0.0; /* singular: this unknown is set to 0 by the solve */
        continue;
      }
      for (int32_t i = k + 1; i < n; ++i) {
        const double f = a[(size_t)i * n + k] / d;
        a[(size_t)i * n + k] = f;
        if (f != 0.0)
          for (int32_t j = k + 1; j < n; ++j) a[(size_t)i * n + j] -= f * a[(size_t)k * n + j];
      }
    }
  }
  free(ro);
  free(ci);
  free(va);
  return st;
}

/* x = A_L⁻¹ b through the host LU (b, x exec memory). */
static strata_status_t dense_solve(strata_exec_t *exec, const amg_t *M, const double *b, double *x) {
  const int32_t n = M->nc;
  if (n == 0) return STRATA_SUCCESS;
  double *y = M->rhs;
  strata_status_t st = strata_mem_copy(exec, y, b, (size_t)n * sizeof *y);
  if (st) return st;
  const double *a = M->lu;
  for (int32_t k = 0; k < n; ++k) {
    const int32_t p = M->piv[k];
    if (p != k) {
      const double t = y[k];
      y[k] = y[p];
      y[p] = t;
    }
    for (int32_t i = k + 1; i < n; ++i) y[i] -= a[(size_t)i * n + k] * y[k];
  }
  for (int32_t i = n - 1; i >= 0; --i) {
    double s = y[i];
    for (int32_t j = i + 1; j < n; ++j) s -= a[(size_t)i * n + j] * y[j];
    const double d = a[(size_t)i * n + i];
    y[i] = d != 0.0 ? s / d : 0.0;
  }
  return strata_mem_copy(exec, x, y, (size_t)n * sizeof *y);
}

static strata_status_t dev_alloc(strata_exec_t *exec, int32_t n, double **p) {
  return strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)(n > 0 ? n : 1) * sizeof(double), (void **)p);
}

static strata_status_t build(amg_t *M, const strata_crs_matrix_t *A0) {
  strata_exec_t *exec = M->exec;
  const strata_amg_options_t *o = &M->opts;
  strata_amg_info_t *info = &M->info;
  strata_status_t st = STRATA_SUCCESS;
  amg_level_t *L0 = &M->lev[0];
  if (A0->fill_complete) {
    L0->A = (strata_crs_matrix_t *)A0;
  } else {
    if ((st = strata_crs_copy(exec, A0, &L0->A))) return st;
    L0->own_A = 1;
    if ((st = strata_crs_fill_complete(exec, L0->A))) return st;
  }
  M->num_levels = 1;
  int32_t *cf = NULL;
  for (int l = 0;; ++l) {
    amg_level_t *L = &M->lev[l];
    const strata_crs_matrix_t *A = L->A;
    const int32_t n = A->num_rows;
    info->level[l].rows = n;
    info->level[l].nnz = A->nnz;
    if ((st = dev_alloc(exec, n, &L->r))) break;
    if (l > 0 && ((st = dev_alloc(exec, n, &L->b)) || (st = dev_alloc(exec, n, &L->x)))) break;
    if (n <= o->coarse_size || l + 1 >= o->max_levels) break;
    double t = strata_timer_now();
    strata_crs_matrix_t *S = NULL;
    st = at_level(strata_impl_amg_strength(exec, A, o->theta, o->max_row_sum, &S), l, n);
    info->strength_s += strata_timer_now() - t;
    if (st) break;
    t = strata_timer_now();
    int32_t nc = 0;
    st = strata_mem_alloc(exec, STRATA_MEM_DEVICE, (size_t)n * sizeof *cf, (void **)&cf);
    if (!st) st = at_level(strata_impl_amg_coarsen(exec, S, o->coarsen, o->seed, cf, &nc), l, n);
    info->coarsen_s += strata_timer_now() - t;
    if (!st && nc > 0 && nc < n) {
      t = strata_timer_now();
      st = at_level(strata_impl_amg_interp(exec, A, S, cf, nc, o->interp, o->trunc_factor, o->max_elements, &L->P), l, n);
      info->interp_s += strata_timer_now() - t;
      t = strata_timer_now();
      amg_level_t *N = &M->lev[l + 1];
      if (!st) st = at_level(strata_crs_galerkin(exec, L->P, A, &N->A), l, n);
      if (!st) N->own_A = 1, M->num_levels = l + 2;
      if (!st) st = at_level(strata_crs_transpose(exec, L->P, &L->R), l, n);
      info->rap_s += strata_timer_now() - t;
      if (!st) info->level[l].p_nnz = L->P->nnz;
    }
    strata_crs_destroy(&S);
    strata_mem_free(exec, STRATA_MEM_DEVICE, (void **)&cf);
    if (st || M->num_levels == l + 1) break; /* an error, or no coarser level: l is the coarsest */
    t = strata_timer_now();
    st = at_level(strata_impl_smoother_create(exec, A, o, &L->sm), l, n);
    info->smoother_s += strata_timer_now() - t;
    if (st) break;
  }
  if (st) return st;
  amg_level_t *C = &M->lev[M->num_levels - 1];
  const double t = strata_timer_now();
  M->dense = C->A->num_rows <= STRATA_AMG_DENSE_MAX;
  if (M->dense) st = dense_factor(M, C->A);
  else st = at_level(strata_impl_smoother_create(exec, C->A, o, &C->sm), M->num_levels - 1, C->A->num_rows);
  info->coarse_solve_s = strata_timer_now() - t;
  if (st) return st;
  info->num_levels = M->num_levels;
  double sr = 0, sn = 0;
  for (int l = 0; l < M->num_levels; ++l) sr += info->level[l].rows, sn += (double)info->level[l].nnz;
  info->grid_complexity = info->level[0].rows > 0 ? sr / info->level[0].rows : 1.0;
  info->operator_complexity = info->level[0].nnz > 0 ? sn / (double)info->level[0].nnz : 1.0;
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ cycles */

static strata_status_t smooth(strata_exec_t *exec, const amg_level_t *L, const double *b, double *x, int sweeps,
                              int backward, int x_is_zero) {
  if (sweeps == 0 && x_is_zero) return strata_vec_fill(exec, L->A->num_rows, 0.0, x);
  return strata_impl_smoother_apply(exec, L->sm, b, x, sweeps, backward, x_is_zero);
}

static strata_status_t cycle(strata_exec_t *exec, const amg_t *M, int l, strata_amg_cycle_t kind, const double *b,
                             double *x, int x_is_zero) {
  const amg_level_t *L = &M->lev[l];
  const int32_t n = L->A->num_rows;
  const strata_amg_options_t *o = &M->opts;
  strata_status_t st;
  if (l == M->num_levels - 1) {
    if (M->dense) return dense_solve(exec, M, b, x);
    const int sw = o->pre_sweeps + o->post_sweeps < 2 ? 2 : o->pre_sweeps + o->post_sweeps;
    st = smooth(exec, L, b, x, sw / 2, 0, x_is_zero);
    if (!st) st = smooth(exec, L, b, x, sw - sw / 2, 1, 0);
    return st;
  }
  const amg_level_t *N = &M->lev[l + 1];
  if ((st = smooth(exec, L, b, x, o->pre_sweeps, 0, x_is_zero))) return st;
  if ((st = strata_vec_copy(exec, n, b, L->r))) return st;
  if ((st = strata_crs_spmv(exec, -1.0, L->A, x, 1.0, L->r))) return st;
  if ((st = strata_crs_spmv(exec, 1.0, L->R, L->r, 0.0, N->b))) return st;
  if (kind == STRATA_CYCLE_V) {
    st = cycle(exec, M, l + 1, kind, N->b, N->x, 1);
  } else if (kind == STRATA_CYCLE_W) {
    st = cycle(exec, M, l + 1, kind, N->b, N->x, 1);
    if (!st) st = cycle(exec, M, l + 1, kind, N->b, N->x, 0);
  } else {
    st = cycle(exec, M, l + 1, STRATA_CYCLE_F, N->b, N->x, 1);
    if (!st) st = cycle(exec, M, l + 1, STRATA_CYCLE_V, N->b, N->x, 0);
  }
  if (st) return st;
  if ((st = strata_crs_spmv(exec, 1.0, L->P, N->x, 1.0, x))) return st;
  return smooth(exec, L, b, x, o->post_sweeps, 1, 0);
}

/* ------------------------------------------------------------------ the preconditioner */

static strata_status_t amg_setup(void *ctx, strata_exec_t *exec, const strata_operator_t *op) {
  amg_t *M = (amg_t *)ctx;
  (void)exec;
  const strata_crs_matrix_t *A = NULL;
  strata_operator_crs(op, &A);
  if (!A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT,
                            "amg: the operator has no CrsMatrix behind it (make it with strata_operator_create_crs)");
  if (A->num_rows != A->num_cols)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg: A is %lld x %lld (must be square)",
                            (long long)A->num_rows, (long long)A->num_cols);
  free_hierarchy(M);
  strata_status_t st = build(M, A);
  if (st) {
    free_hierarchy(M);
    return st;
  }
  M->set_up = 1;
  return STRATA_SUCCESS;
}

static strata_status_t amg_apply(void *ctx, strata_exec_t *exec, const double *r, double *z) {
  const amg_t *M = (const amg_t *)ctx;
  if (!M->set_up) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "amg: not set up");
  if (M->lev[0].A->num_rows == 0) return STRATA_SUCCESS;
  return cycle(exec, M, 0, M->opts.cycle, r, z, 1);
}

static void amg_destroy(void *ctx) {
  amg_t *M = (amg_t *)ctx;
  if (!M) return;
  free_hierarchy(M);
  free(M);
}

static strata_status_t amg_stats(const void *ctx, strata_precond_stats_t *stats) {
  const amg_t *M = (const amg_t *)ctx;
  const strata_amg_info_t *i = &M->info;
  stats->symbolic_s = i->strength_s + i->coarsen_s + i->interp_s + i->rap_s;
  stats->numeric_s = i->smoother_s + i->coarse_solve_s;
  int64_t nnz = 0;
  for (int l = 0; l < i->num_levels; ++l) nnz += i->level[l].nnz + 2 * i->level[l].p_nnz;
  stats->nnz = nnz;
  return STRATA_SUCCESS;
}

strata_status_t strata_precond_create_amg(strata_exec_t *exec, const strata_amg_options_t *opts, strata_precond_t **P) {
  if (!P) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_amg: NULL P");
  *P = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_amg: NULL exec");
  strata_amg_options_t o;
  if (opts) o = *opts;
  else strata_amg_options_default(&o);
  strata_status_t st = check_options("strata_precond_create_amg", &o);
  if (st) return st;
  amg_t *M = (amg_t *)calloc(1, sizeof *M);
  if (!M) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "strata_precond_create_amg: %zu bytes", sizeof *M);
  M->exec = exec;
  M->opts = o;
  char name[96];
  snprintf(name, sizeof name, "amg(%s, %s, %s, %d+%d, %s)", coarsen_names[o.coarsen], interp_names[o.interp],
           smoother_names[o.smoother], o.pre_sweeps, o.post_sweeps, cycle_names[o.cycle]);
  strata_precond_ops_t ops = {"amg", amg_setup, amg_apply, amg_destroy, 0};
  return strata_impl_precond_create(exec, &ops, M, name, amg_stats, P);
}

strata_status_t strata_precond_amg_info(const strata_precond_t *P, strata_amg_info_t *info) {
  if (!P || !info) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_amg_info: NULL %s", !P ? "P" : "info");
  if (P->ops.apply != amg_apply)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_amg_info: '%s' is not an AMG preconditioner",
                            P->name);
  const amg_t *M = (const amg_t *)P->ctx;
  if (!M->set_up) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_amg_info: not set up");
  *info = M->info;
  return STRATA_SUCCESS;
}
