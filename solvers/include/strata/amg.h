/* strata — classical algebraic multigrid (DESIGN §9; Ruge & Stüben 1987; Cleary, Jones, Luby,
 * Plassmann (CLJP, 1998); De Sterck, Yang, Heys (PMIS / HMIS, 2006); Yang's survey of
 * interpolation (standard, direct, extended+i)). The whole setup runs on the device: strength of
 * connection, coarsening, interpolation, Galerkin coarse operators Pᵀ·A·P by SpGEMM
 * (<strata/spgemm.h>), levels until the coarse size or the level limit, a coarsest-level solve.
 * AMG serves as a preconditioner of the Krylov methods (strata_precond_create_amg); as a solver,
 * through a Richardson loop or CG around it (no separate solve call yet). Deterministic: the same hierarchy for the same matrix, seed and backend. */
#ifndef STRATA_AMG_H
#define STRATA_AMG_H

#include "strata/krylov.h"
#include "strata/precond.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_amg_coarsen {
  STRATA_AMG_RS = 0,   /**< Ruge–Stüben: first pass (measure = strong influences) and second pass
                            (strong F–F pairs without a common C point) */
  STRATA_AMG_CLJP = 1, /**< CLJP: random weights from the seed, independent sets */
  STRATA_AMG_PMIS = 2, /**< PMIS: one independent-set pass, no second pass */
  STRATA_AMG_HMIS = 3  /**< HMIS: RS's first pass, then PMIS from its C points */
} strata_amg_coarsen_t;

typedef enum strata_amg_interp {
  STRATA_AMG_DIRECT = 0,   /**< direct interpolation (strong C neighbours only) */
  STRATA_AMG_STANDARD = 1, /**< standard (classical) interpolation: strong F neighbours distributed
                                through their C neighbours */
  STRATA_AMG_EXT_I = 2     /**< extended+i (De Sterck et al. 2008): distance-two C points */
} strata_amg_interp_t;

typedef enum strata_amg_smoother {
  STRATA_SMOOTH_JACOBI = 0,     /**< damped Jacobi, weight omega (default 2/3) */
  STRATA_SMOOTH_WJACOBI = 1,    /**< weighted Jacobi: omega = 2 / (λ_max(D⁻¹A) + λ_min estimate) from
                                     a few power steps */
  STRATA_SMOOTH_L1_JACOBI = 2,  /**< l1-Jacobi (no weight) */
  STRATA_SMOOTH_CHEBYSHEV = 3,  /**< Chebyshev of degree `degree` on [λ_max/30, 1.1 λ_max] of D⁻¹A */
  STRATA_SMOOTH_HYBRID_GS = 4,  /**< l1 hybrid Gauss–Seidel: GS inside a block of rows, Jacobi
                                     across blocks, each diagonal plus the l1 norm of the row's
                                     entries outside its block (convergent for SPD A); forward when
                                     pre-smoothing, backward when post-smoothing (so the cycle is
                                     symmetric; hypre's relax types 13 / 14; Baker et al. 2011) */
  STRATA_SMOOTH_MULTICOLOR_GS = 5, /**< Gauss–Seidel colour by colour (device graph colouring) */
  STRATA_SMOOTH_SYMMETRIC_GS = 6   /**< hybrid GS forward, then backward (symmetric: for CG) */
} strata_amg_smoother_t;

typedef enum strata_amg_cycle { STRATA_CYCLE_V = 0, STRATA_CYCLE_W = 1, STRATA_CYCLE_F = 2 } strata_amg_cycle_t;

typedef struct strata_amg_options {
  strata_amg_coarsen_t coarsen;  /**< default HMIS (hypre's; the seed's is RS) */
  strata_amg_interp_t interp;    /**< default EXT_I (hypre's; the seed's is STANDARD) */
  strata_amg_smoother_t smoother;/**< default L1_JACOBI (hypre's on GPUs; the same on every backend) */
  int pre_sweeps, post_sweeps;   /**< >= 0; default 1 and 1 (the seed: 3 and 3) */
  double theta;                  /**< strength threshold in (0, 1); default 0.25 */
  double max_row_sum;            /**< in (0, 1]: rows whose sum exceeds it times the diagonal are
                                      all weak (hypre's max_row_sum); 1 = off (default 0.9) */
  int max_levels;                /**< in [1, 32] (strata_amg_info_t.level[32]); default 25 (the seed: 8) */
  int32_t coarse_size;           /**< stop when a level has at most this many rows; default 64 */
  double trunc_factor;           /**< interpolation truncation: drop |p_ij| < trunc · max_j |p_ij|,
                                      rescale the row; in [0, 1); default 0 (off) */
  int max_elements;              /**< at most this many entries per row of P (0: no limit); default 4
                                      (hypre's P_max) */
  double omega;                  /**< damped Jacobi weight in (0, 2); default 2/3 */
  int cheby_degree;              /**< Chebyshev degree >= 1; default 2 */
  strata_amg_cycle_t cycle;      /**< default V */
  uint64_t seed;                 /**< CLJP's random weights; default 1 */
} strata_amg_options_t;

/** The defaults above. */
void strata_amg_options_default(strata_amg_options_t *opts);

/** Parses "coarsen=rs|cljp|pmis|hmis,interp=direct|standard|ext+i,smoother=jacobi|wjacobi|
 *  l1-jacobi|cheby|hgs|mcgs|sgs,sweeps=N,theta=T,levels=L,cycle=v|w|f" and the other fields as
 *  pre=N, post=N, max_row_sum=M, coarse=N, trunc=T, pmax=N, omega=W, degree=D, seed=S (any subset,
 *  any order, names lowercase, values of the enumerations in any case) into
 *  opts (defaults first). Errors: INVALID_ARGUMENT naming the unknown name or the bad value and
 *  its limit. */
strata_status_t strata_amg_options_parse(const char *text, strata_amg_options_t *opts);

/** One level of a built hierarchy, for reports. */
typedef struct strata_amg_level_info {
  int32_t rows;
  int64_t nnz;
  int64_t p_nnz;       /**< entries of P from this level to the next (0 on the coarsest) */
} strata_amg_level_info_t;

/** Sizes and setup times of a hierarchy. */
typedef struct strata_amg_info {
  int num_levels;
  strata_amg_level_info_t level[32];
  double operator_complexity; /**< Σ nnz(A_l) / nnz(A_0) */
  double grid_complexity;     /**< Σ rows(A_l) / rows(A_0) */
  double strength_s, coarsen_s, interp_s, rap_s, smoother_s, coarse_solve_s; /**< setup phases */
} strata_amg_info_t;

/** AMG as a preconditioner: one cycle per application (from z = 0) (symmetric for a symmetric smoother and
 *  equal pre- and post-sweeps, so that CG may use it). Setup builds the hierarchy of the
 *  operator's CrsMatrix. Setup errors: INVALID_ARGUMENT (a bad option, its value and limit; an
 *  operator without a CrsMatrix; A not square); INVALID_DATA (a zero diagonal under a smoother
 *  that divides by it, the row and level named). */
/*  The hierarchy stops at a level with at most coarse_size rows, at max_levels, or where the
 *  coarsening gives no C point or no reduction. The coarsest level is solved by a dense LU with
 *  partial pivoting when it has at most 4096 rows: factored on the host at setup, each solve on
 *  the host (the coarse right-hand side and solution copied; a zero pivot of a singular coarse
 *  matrix sets its unknown to 0); above 4096 rows it is smoothed instead (pre + post sweeps, at
 *  least 2). opts NULL: the defaults. The name: "amg(hmis, ext+i, l1-jacobi, 1+1, V)". */
strata_status_t strata_precond_create_amg(strata_exec_t *exec, const strata_amg_options_t *opts,
                                          strata_precond_t **P);

/** The hierarchy of a set-up AMG preconditioner. Errors: INVALID_ARGUMENT (not an AMG
 *  preconditioner, or not set up). */
strata_status_t strata_precond_amg_info(const strata_precond_t *P, strata_amg_info_t *info);

#ifdef __cplusplus
}
#endif
#endif
