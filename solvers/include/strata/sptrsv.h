/* strata — sparse triangular solves, level-scheduled (DESIGN §9; Anderson & Saad 1989, Naumov
 * 2011 for cusparse's csrsv analysis; Liu et al. 2016 for the synchronization-free walk). An
 * analysis on the device gives each row its level (one more than the deepest row it depends on) in
 * one launch whose teams wait on the levels they need, groups the rows by level with a stable
 * device sort of (level, row), and keeps a compact copy of the triangle (its strict part in level
 * order, the diagonal apart); every solve then runs level after level, the rows of one level in
 * parallel. The plan is built once and reused; host work is O(levels), never O(rows). Many
 * independent diagonal blocks in one matrix share their levels: a level of every block is one
 * launch. Why the one-launch kernels cannot deadlock (GPUs without independent thread scheduling
 * and OpenMP with fewer threads than teams included): solvers/kernels/sptrsv.kl.c. */
#ifndef STRATA_SPTRSV_H
#define STRATA_SPTRSV_H

#include "strata/sparse.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_triangle { STRATA_LOWER = 0, STRATA_UPPER = 1 } strata_triangle_t;
typedef enum strata_diag {
  STRATA_DIAG_NON_UNIT = 0, /**< the stored diagonal divides */
  STRATA_DIAG_UNIT = 1      /**< the diagonal is 1; stored diagonal entries are ignored */
} strata_diag_t;

typedef enum strata_sptrsv_algorithm {
  STRATA_SPTRSV_AUTO = 0,   /**< host backends LEVELS; GPUs WALK from 16 levels on, else LEVELS
                                 (a first choice, to be tuned by the harness's solve suite) */
  STRATA_SPTRSV_LEVELS = 1, /**< one launch per level (a thread per row, lanes per row for long
                                 rows on GPUs; consecutive levels of a few rows run on one thread
                                 in one launch) */
  STRATA_SPTRSV_WALK = 2    /**< one launch: teams take chunks of rows in level order by a ticket
                                 and solve a chunk level by level, each term waiting for its x
                                 (atomic loads); on GPUs lanes per row from the average row length
                                 (at most a warp), enough teams for twice the widest level */
} strata_sptrsv_algorithm_t;

typedef struct strata_sptrsv_options {
  strata_triangle_t triangle;          /**< which triangle of T is solved with; default LOWER */
  strata_diag_t diag;                  /**< default NON_UNIT */
  int transpose;                       /**< nonzero: solve with op(T) = Tᵀ of that triangle */
  strata_sptrsv_algorithm_t algorithm; /**< default AUTO */
} strata_sptrsv_options_t;

typedef struct strata_sptrsv strata_sptrsv_t;

/** Analysis of the triangle of T named by opts (entries of the other triangle are ignored, as
 *  cusparseSpSV's fill mode; columns need not be sorted; duplicate entries count as their sum).
 *  T square, exec memory. The plan keeps its own copy of the triangle's values (and of T^T with
 *  transpose set), so T may be freed after the call, and a change of T's values reaches the
 *  solves only through strata_sptrsv_update_values. opts NULL: lower, non-unit. Errors:
 *  INVALID_ARGUMENT (NULL arguments; T not square, both sizes named; T of another backend; an
 *  option outside its enum); INVALID_DATA (non-unit: a row whose diagonal is missing, zero or not
 *  finite, the first row named); OUT_OF_MEMORY. Synchronous. */
strata_status_t strata_sptrsv_create(strata_exec_t *exec, const strata_crs_matrix_t *T,
                                     const strata_sptrsv_options_t *opts, strata_sptrsv_t **plan);

/** Takes T's current values (the pattern of create's T: same rows and entries) into the plan's
 *  copy; with transpose set T^T is rebuilt (a device sort). exec NULL: the plan's. Errors:
 *  INVALID_ARGUMENT (NULL plan or T; other rows or entries than at create, both named);
 *  strata_sptrsv_create's INVALID_DATA. Synchronous. */
strata_status_t strata_sptrsv_update_values(strata_exec_t *exec, strata_sptrsv_t *plan,
                                            const strata_crs_matrix_t *T);

/** x = op(T)⁻¹·b for the plan's triangle. b, x [n], exec memory, not overlapping. exec NULL: the
 *  plan's (another exec must be of its backend). Each row's terms are summed in a fixed order: the
 *  same bits on every run of a backend, and on host backends the same bits for LEVELS and WALK
 *  and for serial and OpenMP. WALK writes a marker into x before the launch: x is meaningful once
 *  the solve has run. One plan serves one stream at a time (WALK's ticket lives in the plan).
 *  Errors: INVALID_ARGUMENT (NULL plan; NULL b or x with n > 0; b and x overlapping; exec of
 *  another backend). Asynchronous on exec's stream. */
strata_status_t strata_sptrsv_solve(strata_exec_t *exec, const strata_sptrsv_t *plan, const double *b,
                                    double *x);

/** The number of dependency levels (0 for n = 0; n for one chain). Errors: INVALID_ARGUMENT. */
strata_status_t strata_sptrsv_levels(const strata_sptrsv_t *plan, int32_t *num_levels);

/** Frees the plan; NULL-safe, sets *plan to NULL. */
strata_status_t strata_sptrsv_destroy(strata_sptrsv_t **plan);

#ifdef __cplusplus
}
#endif
#endif
