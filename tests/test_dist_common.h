/* strata tests — what the dist/ tests (test_dist*.c) share: MPI start around test_main, the
 * collective check (a failure on one rank fails the test on every rank, so the ranks never part
 * ways at a collective), global COO builders and the SpMV check against the serial
 * single-process SpMV of the same global matrix. Run under mpirun (tests/dist.cmake). */
#ifndef STRATA_TEST_DIST_COMMON_H
#define STRATA_TEST_DIST_COMMON_H

#include "strata/dist.h"
#include "test_common.h"

extern int td_rank, td_size;
extern int td_thread_level; /* what MPI granted (STRATA_TEST_MPI_THREAD asks: single, funneled,
                               serialized; default multiple) */

/* Every rank calls it; fails the test on every rank when cond is false on any, with the lowest
 * failing rank's message. */
#define TD_CHECK(cond, ...)                                      \
  do {                                                           \
    char td_m_[2304] = "";                                        \
    const int td_ok_ = (cond) ? 1 : 0;                           \
    if (!td_ok_) snprintf(td_m_, sizeof td_m_, __VA_ARGS__);     \
    td_check_at(td_ok_, td_m_, __FILE__, __LINE__);              \
  } while (0)
void td_check_at(int ok, const char *msg, const char *file, int line);

/* the status must be `want` on every rank (they agree), with every needle in the message */
void td_expect(strata_status_t st, strata_status_t want, const char *n1, const char *n2);

/* MPI_Init_thread, test_main (stdout of ranks above 0 silenced), the worst exit code of all
 * ranks, MPI_Finalize */
int td_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n);
#define TD_RUN(group, tests) td_main(argc, argv, group, tests, sizeof(tests) / sizeof((tests)[0]))

/* a growing list of global (row, col, value) entries (host) */
typedef struct td_coo {
  int64_t n, cap;
  int64_t *r, *c;
  double *v;
} td_coo_t;
void td_push(td_coo_t *e, int64_t r, int64_t c, double v);
void td_coo_free(td_coo_t *e);

/* the 7-point Laplacian of an nx^3 grid (6 on the diagonal, -1 to each neighbour), rows
 * [r0, r1) only, in row order */
void td_poisson3d(int64_t nx, int64_t r0, int64_t r1, td_coo_t *e);

/* The distributed y = alpha·A·x + beta·y in every mode (vector, overlap, task when MPI allows it)
 * against the serial backend's strata_crs_spmv of G (nrows x ncols, built on T_serial from all
 * entries): global x[j] = 1 + (j mod 7) / 8, y0[i] = 0.25 + (i mod 5) / 4 (NaN when beta == 0);
 * each rank's rows within 1e-13 of sum |a_ij x_j| (+ |beta y0|), the modes equal bit for bit.
 * Global ids of rmap / dmap must be 0 .. rows-1 / cols-1 (any distribution). */
void td_check_spmv(strata_dist_crs_t *A, const strata_crs_matrix_t *G, double alpha, double beta);

/* the global CrsMatrix of every rank's entries (the same on every rank), on T_serial */
strata_crs_matrix_t *td_global_crs(int32_t nrows, int32_t ncols, const td_coo_t *mine);

/* a matrix of ../shared/matrices (or $STRATA_MATRICES) read on every rank into a host COO;
 * NULL (the test skipped, on every rank) when the file is missing */
strata_coo_t *td_read_shared(const char *file);

#endif
