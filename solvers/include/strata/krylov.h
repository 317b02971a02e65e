/* strata — Krylov methods (DESIGN §9): preconditioned CG, BiCGSTAB, GMRES(m) and flexible
 * GMRES(m), written once over operators and preconditioners.
 *
 * Stopping rule (every method): converged means the true relative residual
 * ||b - A·x||_2 / ||b||_2 <= tol, recomputed from x whenever the method's own estimate says
 * converged; if it is above tol the method goes on from the true residual (a restart) and the
 * status is never "converged" on an estimate alone. Stagnation: three such checks in a row whose
 * true residual is not below half the one before (the attainable accuracy is above tol); for
 * GMRES(m) also five cycles in a row (each ended at m iterations) that do not bring the true
 * residual 0.1 % below the best before (restarted GMRES can stall for good, e.g. GMRES(1) with 0
 * in the field of values of A M⁻¹). Estimates: CG and BiCGSTAB the recurrence residual ||r||
 * (not the preconditioned one), BiCGSTAB also ||s|| at the half step (then x = x + alpha·p̂ and
 * the iteration counts as one), the GMRES methods |g_{j+1}| of the Givens-reduced Hessenberg
 * matrix. A breakdown leaves x at the last iterate (finite; the kernels never divide by the
 * vanished scalar). b = 0 gives x = 0 after 0 iterations,
 * converged. The system is scaled by a power of two (exact) so that max |b_i| is in [1, 2): norms
 * and dot products neither underflow nor overflow for any representable b. */
#ifndef STRATA_KRYLOV_H
#define STRATA_KRYLOV_H

#include "strata/operator.h"
#include "strata/precond.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_krylov_method {
  STRATA_KRYLOV_CG = 0,       /**< preconditioned conjugate gradients (Hestenes–Stiefel; A and M SPD) */
  STRATA_KRYLOV_BICGSTAB = 1, /**< van der Vorst 1992, right preconditioning */
  STRATA_KRYLOV_GMRES = 2,    /**< Saad–Schultz GMRES(m), right preconditioning, Givens rotations */
  STRATA_KRYLOV_FGMRES = 3    /**< flexible GMRES(m) (Saad 1993): M may change between applications */
} strata_krylov_method_t;

typedef enum strata_gmres_ortho {
  STRATA_ORTHO_MGS = 0, /**< modified Gram–Schmidt: one dot product and one update per basis vector */
  STRATA_ORTHO_CGS2 = 1 /**< classical Gram–Schmidt with one reorthogonalization (two block passes) */
} strata_gmres_ortho_t;

typedef enum strata_solve_status {
  STRATA_SOLVE_CONVERGED = 0,  /**< the true relative residual is <= tol */
  STRATA_SOLVE_MAX_ITER = 1,   /**< max_iter iterations without convergence */
  STRATA_SOLVE_BREAKDOWN = 2,  /**< a scalar the method divides by vanished (breakdown names it) */
  STRATA_SOLVE_STAGNATION = 3, /**< the true residual stopped decreasing (tol out of reach) */
  STRATA_SOLVE_NONFINITE = 4   /**< a NaN or infinity appeared in the iteration */
} strata_solve_status_t;

/** Name of a status: "converged", "iteration limit", "breakdown", "stagnation", "non-finite". */
const char *strata_solve_status_name(strata_solve_status_t status);

typedef struct strata_krylov_options {
  strata_krylov_method_t method; /**< default CG */
  double tol;                    /**< relative residual, finite and > 0; default 1e-8 */
  int max_iter;                  /**< >= 0; default 1000. Iterations: an SpMV each for CG and the
                                      GMRES methods, two for BiCGSTAB (one full step) */
  int restart;                   /**< GMRES / FGMRES basis size m >= 1; default 30 */
  strata_gmres_ortho_t ortho;    /**< GMRES / FGMRES; default MGS */
  int x0_given;                  /**< nonzero: x holds the initial guess; 0: x starts at 0 (not read) */
  int history;                   /**< nonzero: record the relative residual estimate per iteration */
} strata_krylov_options_t;

/** The defaults above. */
void strata_krylov_options_default(strata_krylov_options_t *opts);

typedef struct strata_krylov_result {
  strata_solve_status_t status;
  int iterations;          /**< as counted by max_iter */
  double rel_residual;     /**< final true ||b - A·x|| / ||b|| (0 for b = 0) */
  const char *breakdown;   /**< BREAKDOWN: the vanished scalar: CG "p·Ap" (not positive: A not
                                SPD), "r·z" (not positive: M not SPD); BiCGSTAB "rho" (r̂·r),
                                "r̂·v", "omega" (t·s), "t·t"; GMRES "h(j+1,j)" (with h(j,j)
                                after the rotations: a singular least-squares problem; a vanishing
                                h(j+1,j) alone is the happy breakdown, converged); NULL otherwise */
  int true_residual_checks;/**< recomputations of the true residual after the start (CG and
                                BiCGSTAB: when the estimate said converged; the GMRES methods: at
                                the end of every cycle) */
  double setup_s;          /**< work vectors and scaling, seconds */
  double solve_s;          /**< the iteration, seconds (wall, fenced) */
  int num_history;         /**< entries of history */
  double *history;         /**< [num_history] host memory, relative residual estimates: entry 0
                                before the first iteration, entry i after iteration i; owned by
                                the result, freed by strata_krylov_result_free; NULL without
                                opts.history */
} strata_krylov_result_t;

/** Frees the result's history (NULL-safe); the other fields stay. */
void strata_krylov_result_free(strata_krylov_result_t *res);

/** Solves A·x = b with opts->method, preconditioned by M (NULL: none; right preconditioning for
 *  BiCGSTAB and the GMRES methods, M⁻¹ applied to the residual for CG). A square n × n; b, x [n],
 *  exec memory, not overlapping. x is read only with opts->x0_given. opts NULL: the defaults.
 *  Returns STRATA_SUCCESS when converged; STRATA_ERR_NOT_CONVERGED with res filled and the message
 *  naming the status (and the scalar of a breakdown) otherwise. Errors before any iteration:
 *  INVALID_ARGUMENT (NULL exec, A, b, x or res; A not square, both sizes named; tol <= 0 or not
 *  finite; max_iter < 0; restart < 1; a variable M with CG, BiCGSTAB or GMRES); INVALID_DATA (a
 *  NaN or infinity in b or in the given x0: the first index named). An operator over several
 *  processes (strata_operator_comm_t): b and x are this process's rows; every local reduction is
 *  summed over the processes, so that res and the status are the same on every process; an error
 *  found on one process is returned by all (the message names it, by the operator's agree);
 *  INVALID_ARGUMENT also for options or a preconditioner that differ between the processes.
 *  Synchronous. */
strata_status_t strata_krylov_solve(strata_exec_t *exec, const strata_operator_t *A,
                                    const strata_precond_t *M, const double *b, double *x,
                                    const strata_krylov_options_t *opts, strata_krylov_result_t *res);

#ifdef __cplusplus
}
#endif
#endif
