/* strata solvers — AMG's setup phases, private to the module (amg_*.c); each runs on the device and
 * is tested against a host oracle. Conventions: A square, fill-complete, exec memory; a C/F
 * splitting is cf [n] int32 in exec memory, 1 for a C point and -1 for an F point (hypre's
 * CF_marker). */
#ifndef STRATA_AMG_IMPL_H
#define STRATA_AMG_IMPL_H

#include "solvers_impl.h"
#include "strata/amg.h"
#include "strata/spgemm.h"

/* Classical strength of connection (Ruge–Stüben): j ≠ i is a strong connection of i when
 * -a_ij >= theta · max_{k≠i} (-a_ik) (for a positive diagonal; with a negative diagonal the signs
 * flip, as hypre does); rows whose |Σ_j a_ij| > max_row_sum · |a_ii| have no strong connection
 * (max_row_sum 1: off). *S has the pattern of the strong connections (S ⊂ pattern of A, diagonal
 * excluded; explicit zeros never strong; a row without an off-diagonal of the right sign has none),
 * fill-complete, values unused (1.0). exec NULL: A's. Errors: INVALID_ARGUMENT (NULL A or S; theta
 * outside (0, 1) or max_row_sum outside (0, 1]: the value and the range named; A not square or not
 * fill-complete). Synchronous. */
strata_status_t strata_impl_amg_strength(strata_exec_t *exec, const strata_crs_matrix_t *A, double theta,
                                         double max_row_sum, strata_crs_matrix_t **S);

/* The C/F splitting of the graph of S by method (RS, CLJP, PMIS, HMIS; seed: CLJP's and PMIS's
 * random weights), into cf [n] (exec memory, caller's); *num_coarse = the C points. Isolated points
 * (no strong influencer: an empty row of S, e.g. a Dirichlet row, whether or not other rows depend
 * on it) are F points with nothing to interpolate from (hypre's convention: they keep their value
 * after smoothing). Every other F point has a C point in its row of S. S square and fill-complete;
 * the methods and their device formulations: amg_coarsen.c. Errors: INVALID_ARGUMENT (NULL S or
 * num_coarse, NULL cf with n > 0, S not square or not fill-complete, an unknown method: the value
 * named). Synchronous. */
strata_status_t strata_impl_amg_coarsen(strata_exec_t *exec, const strata_crs_matrix_t *S, strata_amg_coarsen_t method,
                                        uint64_t seed, int32_t *cf, int32_t *num_coarse);

/* Interpolation P [n × num_coarse] from A, S and cf by method, truncated (trunc_factor,
 * max_elements; rows rescaled to keep their sum). C points' rows are identity rows. */
strata_status_t strata_impl_amg_interp(strata_exec_t *exec, const strata_crs_matrix_t *A, const strata_crs_matrix_t *S,
                                       const int32_t *cf, int32_t num_coarse, strata_amg_interp_t method,
                                       double trunc_factor, int max_elements, strata_crs_matrix_t **P);

/* A smoother for A (setup: its diagonal, colouring, eigenvalue estimates), applied as
 * x <- x + M⁻¹ (b - A x) sweeps times (forward / backward for the GS variants, per the direction
 * given). Opaque. */
typedef struct strata_impl_smoother strata_impl_smoother_t;
strata_status_t strata_impl_smoother_create(strata_exec_t *exec, const strata_crs_matrix_t *A,
                                            const strata_amg_options_t *opts, strata_impl_smoother_t **sm);
/* x [n] updated in place, b [n]; work: none needed from the caller; backward: 1 for the
 * post-smoothing direction of the GS variants. x_is_zero: x = 0 on entry (the first sweep may skip
 * the product). */
strata_status_t strata_impl_smoother_apply(strata_exec_t *exec, const strata_impl_smoother_t *sm, const double *b,
                                           double *x, int sweeps, int backward, int x_is_zero);
void strata_impl_smoother_destroy(strata_impl_smoother_t **sm);

/* What a smoother's setup found, for tests and reports (amg_smoother.c). */
typedef struct strata_impl_smoother_info {
  strata_amg_smoother_t kind;
  int32_t n;
  double omega;         /* the Jacobi weight applied: opts->omega (damped), the estimate's
                           (weighted), 1 (l1-Jacobi, the GS variants); 0 for Chebyshev */
  double lambda_max;    /* Lanczos estimates of D⁻¹A's extreme eigenvalues (weighted Jacobi,
                           Chebyshev; else 0) */
  double lambda_min;
  double cheby_lo, cheby_hi; /* Chebyshev's interval [lambda_max / 30, 1.1 lambda_max] */
  int degree;           /* Chebyshev's degree */
  int32_t block_rows;   /* hybrid / symmetric GS: rows per block (STRATA_AMG_HGS_BLOCK) */
  int num_colors;       /* multicolor GS: colours, and each row's colour ([n] exec memory, owned
                           by the smoother) */
  const int32_t *colors;
} strata_impl_smoother_info_t;
strata_status_t strata_impl_smoother_info(const strata_impl_smoother_t *sm, strata_impl_smoother_info_t *info);

/* The multicolor GS's colouring (amg_coloring.c): a Jones–Plassmann colouring of the graph of
 * A + Aᵀ with hashed priorities from seed (deterministic: the same on every backend), first-fit
 * colours 0 .. num_colors - 1, into color [n] (exec memory, caller's); perm [n] (exec memory,
 * caller's) the rows sorted by colour then index, offs [num_colors + 1] (host, malloc'ed, the
 * caller frees) the start of each colour's rows in perm. Synchronous. */
strata_status_t strata_impl_amg_color(strata_exec_t *exec, const strata_crs_matrix_t *A, uint64_t seed,
                                      int32_t *color, int64_t *perm, int *num_colors, int64_t **offs);

#endif
