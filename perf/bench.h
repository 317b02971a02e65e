/* strata bench — the shared benchmark module (issue 6): timing, matrix generators, block
 * replication, the vendor SpMV peer (cuSPARSE, hipSPARSE). Used by `strata bench`
 * (perf/bench_cmd.c and the suites beside it); it replaces the former perf/strata_spmv_bench and
 * perf/strata_stream_bench.
 *
 * Timing method (bench_time): two warm-up calls and a fence, then samples of R back-to-back calls
 * between two strata_events recorded on the exec (device events — cudaEvent/hipEvent on the exec's
 * stream — on GPUs, so launch latency between calls is not counted unless the GPU idles; the host
 * clock after a fence on host backends). R is chosen so that a sample lasts at least 1 ms and about
 * min_time / 20, which amortizes launch and fence overhead (sized from one call, rounded up, then
 * calibrated on whole samples that are not kept until one lasts 1.2x that; a shorter sample later
 * restarts the samples with more calls, at most 8 times); samples are taken until min_time has
 * passed and at least 5 exist (2000 at most). The reported time of one call is the median over
 * samples of (sample time / R); min, max and the quartiles give the spread. The vendor peer
 * (cuSPARSE, hipSPARSE) runs on the exec's stream (SetStream), so the same events bracket it. */
#ifndef STRATA_BENCH_H
#define STRATA_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "strata/sparse.h"

/* ------------------------------------------------------------------------------ timing */
typedef struct bench_stats {
  double median, min, max, q1, q3; /* seconds per call */
  int samples, reps;               /* samples taken, calls per sample */
} bench_stats_t;

/** One timed call; `call` counts up from 0 (for rotating buffers). Returns 0 or a strata status. */
typedef int (*bench_fn)(void *ctx, int64_t call);

/** Fences exec (and, in CUDA builds on a CUDA exec, the whole device). */
void bench_sync(strata_exec_t *e);
/** Times f on exec as described at the top of this file. Returns 0, or f's first nonzero status. */
int bench_time(strata_exec_t *e, bench_fn f, void *ctx, double min_time, bench_stats_t *s);
/** The statistics of n >= 1 samples t[0, n) (seconds per call; sorted in place), reps calls each. */
void bench_stats_from_samples(double *t, int n, int reps, bench_stats_t *s);
/** How bench_time measures on exec, in words (for the output header). */
const char *bench_time_method(strata_exec_t *e);

/* ------------------------------------------------------------------- matrix generators */
/** Builds the generated matrix `spec` = NAME[:p1[:p2...]] (without the "gen:" prefix) as a
 *  fill-complete CrsMatrix on `serial` (host memory). Names and parameters (defaults for a full
 *  run; --quick uses small ones; `scale` multiplies the default sizes):
 *    poisson7:M        3D 7-point stencil on an M^3 grid           (150, quick 24)
 *    poisson27:M       3D 27-point stencil                          (100, quick 16)
 *    laplace7:M        the 7-point Laplacian on an M^3 grid (6 on the diagonal, -1 per
 *                      neighbour, Dirichlet boundary eliminated): SPD, for the solvers; not in
 *                      gen:all                                      (100, quick 16)
 *    laplace7:MX:MY:MZ the same on a box of MX x MY x MZ points (x fastest): 150:150:600
 *                      is four 150^3 cubes stacked along z, for weak scaling over ranks
 *    laplace5:N        the 5-point Laplacian on an N^2 grid (4 on the diagonal, -1 per
 *                      neighbour, Dirichlet boundary eliminated): SPD, 2D, ecology2's size at
 *                      the default; not in gen:all                  (1000, quick 40)
 *    conduct5:N:DEC    2D 5-point finite volumes on an N^2 grid with random edge conductances
 *                      10^(DEC (u - 1/2)), u uniform (the seed), grounded boundary edges: SPD,
 *                      ecology2's kind (Circuitscape) and size; not in gen:all (1000:4, quick 40:4)
 *    banded:N:PER      PER contiguous entries around the diagonal   (4M:16, quick 50k)
 *    random:N:PER      PER uniform random (stratified) columns      (4M:16)
 *    short:N:PER       short random rows                            (4M:3)
 *    powerlaw:N:EXP:MAX  row lengths ~ len^-EXP, longest MAX        (3M:2.1:200k, quick 50k:2.1:5k)
 *    dense:N:ROWS:LEN:PER  ROWS dense rows of LEN among rows of PER (4M:16:500k:8)
 *    hmep:N:SEG        HMEp-like (pJDS paper): ~15 per row, diagonal plus off-diagonals that
 *                      run contiguously for SEG rows, then move    (4M:15000, quick 60k)
 *    fem:H             P1 Laplace stiffness matrix of the FEM job's Gmsh mesh (unit cube with a
 *                      cylindrical hole) at element size H: ~0.6/H^3 rows, ~15 per row
 *                                                      (0.01: ~540k rows, 110 MB; quick 0.05: ~6k)
 *    elasticity:H      the same mesh, linear isotropic elasticity (E = 1, nu = 0.3), 3 unknowns
 *                      per node, node-major, 3x3 blocks: ~1.8/H^3 rows, ~40 per row
 *                                                      (0.015: ~510k rows, 280 MB; quick 0.06: ~12k)
 *                      Both keep the job's Dirichlet rows (nodes on the outer faces: identity rows,
 *                      their columns zero in the other rows, the zeros stored); they need Gmsh (an
 *                      error says so otherwise); Gmsh's meshes differ slightly from run to run (the
 *                      row count is in the name); --scale S divides H by cbrt(S). At the defaults
 *                      they take ~35 s (fem) and ~9 s (elasticity): Gmsh on one thread, the
 *                      graph's sort on the serial backend. bench_fem_gen.c.
 *  `seed` changes the random patterns and the values. *name receives a display name.
 *  Returns 0, or -1 with a message in err. */
int bench_gen(strata_exec_t *serial, const char *spec, int quick, double scale, uint64_t seed,
              strata_crs_matrix_t **A, char *name, size_t name_len, char *err, size_t err_len);
/** The generator names, NULL-terminated (what gen:all expands to; fem and elasticity only in builds
 *  with Gmsh). */
extern const char *const bench_gen_names[];
/** fem:H (dof 1) and elasticity:H (dof 3) of bench_gen: meshes with Gmsh at element size h, builds
 *  the graph with strata_crs_create_from_coo on `serial` and gathers the element matrices on the
 *  host. 0, or -1 with a message in err (no Gmsh in this build, mesh or memory failures). */
int bench_gen_fem(strata_exec_t *serial, int dof, double h, strata_crs_matrix_t **A, char *name, size_t name_len,
                  char *err, size_t err_len);
struct fem_mesh;
/** The matrix of bench_gen_fem for a given mesh (host memory), dof 1 (Laplace) or 3 (elasticity),
 *  fill-complete on exec e (a host backend): rows node-major, Dirichlet rows as in the job. */
int bench_fem_assemble(strata_exec_t *e, const struct fem_mesh *mesh, int dof, strata_crs_matrix_t **A, char *err,
                       size_t err_len);

/** The check of the FEM job's assembled Laplace matrix A (fem_options_t.matrix_out, any exec; the
 *  job's mesh with its K = A's rows - S's rows bulk nodes, each tied to bulk_ties Dirichlet nodes)
 *  against S = bench_fem_assemble(mesh, dof 1), the host assembly: rows of mesh nodes must hold
 *  S's columns in S's order then only columns of bulk nodes, whose entries must be 0 (a row tied
 *  to a bulk node is a Dirichlet row); a bulk row holds bulk_ties x FEM_SPRING_K on its diagonal,
 *  0 elsewhere (its columns are Dirichlet nodes). *diff receives max over rows of max |a - s| /
 *  the row's largest |s| (as fem_result_t.matrix_diff: NaN if a NaN is met, +inf if the patterns
 *  differ). 0, or -1 with a message in err (A could not be copied to the host). */
int bench_fem_matrix_diff(const strata_crs_matrix_t *S, const strata_crs_matrix_t *A, int64_t bulk_ties, double *diff,
                          char *err, size_t err_len);

/** A ⊗ I_k (k copies interleaved: entry (i, j) becomes (i·k+b, j·k+b) for b < k), fill-complete,
 *  on A's exec (host memory). Row lengths keep their distribution; bytes grow k times. */
int bench_replicate(const strata_crs_matrix_t *A, int k, strata_crs_matrix_t **out, char *err, size_t err_len);

/* ------------------------------------------------- unpack baselines (bench_unpack_base.c) */
/** Tpetra's unpackAndCombine schemes (ADD; identity column map; columns off the pattern dropped
 *  silently, as in Tpetra) for the target A, packets pk and their target rows import_rows (all on
 *  exec e, which must outlive the object). bench_unpack_one_level: a thread per packet, a binary
 *  search per entry, an atomic add (Tpetra's original). bench_unpack_batched: batches of 16
 *  entries, a team per batch with 16 vector lanes on GPUs (1 on host backends), the batch table
 *  built by a serial host loop over the packets and copied to the device in every call (Tpetra's
 *  current scheme). Both are bench_fn. 0 or a strata status. */
typedef struct bench_unpack_base bench_unpack_base_t;
int bench_unpack_base_create(strata_exec_t *e, strata_crs_matrix_t *A, const int32_t *import_rows,
                             const strata_packets_t *pk, bench_unpack_base_t **out);
int bench_unpack_one_level(void *ctx, int64_t call);
int bench_unpack_batched(void *ctx, int64_t call);
void bench_unpack_base_destroy(bench_unpack_base_t **p);
/** The check of a pack result: pk (any exec) against the packets of E's rows (E in host memory,
 *  no column map: global columns = E's columns) built on the host as sparse.h lays them out.
 *  Returns the number of wrong packets (a bad offsets array counts as one at least), 0 if equal. */
int64_t bench_packets_wrong(const strata_crs_matrix_t *E, const strata_packets_t *pk);
/** The reference of unpack_combine(ADD) of E's rows into G's pattern, values starting at zero,
 *  built on the host by plain loops, without pack or unpack: row k of E is the packet for target
 *  row rows[k]; each of its entries (c, v) is added to G's entry (rows[k], c), found in that
 *  target row. E, rows and G in host memory. ref[q] (G->nnz) receives the sum at G's entry q and
 *  tol[q] its tolerance, the SpMV oracle's bound for a sum: 4 eps (contributions + 2) sum |v|.
 *  Returns 0, or -1 with a message in err (a target row out of range, a column not in its target
 *  row's pattern, no memory). */
int bench_unpack_reference(const strata_crs_matrix_t *E, const int32_t *rows, const strata_crs_matrix_t *G, double *ref,
                           double *tol, char *err, size_t err_len);

/* ------------------------------------ vendor SpMV peer (bench_peer.c): cuSPARSE, hipSPARSE */
/* cusparseSpMV in CUDA builds, hipsparseSpMV in HIP builds where CMake found hipSPARSE
 * (libhipsparse-dev); one body, the same algorithms and records ("cusparse_csr_alg1", ...,
 * "hipsparse_coo"). Only one GPU backend is built at a time, so a build has one peer at most. */
#define BENCH_PEER_CSR_ALG1 0 /* the reference of ratio_to_peer */
#define BENCH_PEER_CSR_ALG2 1
#define BENCH_PEER_COO 2
#define BENCH_PEER_SELL 3 /* cuSPARSE sliced ELL (CUDA >= 12.1): slices of 32 rows, no sorting */
typedef struct bench_peer bench_peer_t;
/** Peer algorithms that run on backend b: CSR ALG1, CSR ALG2, COO ALG1 and, with cuSPARSE from
 *  CUDA 12.1 on, SELL ALG1 (4) for CUDA in CUDA builds; the first three for HIP in HIP builds with
 *  hipSPARSE; 0 otherwise. */
int bench_peer_count(strata_backend_t b);
/** Record name of algorithm alg of this build's peer: "cusparse_csr_alg1", "hipsparse_coo", ... */
const char *bench_peer_name(int alg);
/** Descriptors and buffers of the library's SpMV (alg: BENCH_PEER_*) for `copies` device copies
 *  A[c] with x[c], y[c] (memory of A[0]'s exec), after SpMV_preprocess, on `stream` (the exec's
 *  native stream: strata_exec_native_stream). From 2^31 entries on, CSR and COO use 64-bit indices
 *  (bench_peer.c; index copies, if any, built on the device and named by bench_peer_note). 0, -1
 *  (message in err), or 1 when alg does not apply to A (sliced ELL from 2^31 entries; err says why). */
int bench_peer_create(int alg, int copies, strata_crs_matrix_t *const *A, double *const *x, double *const *y,
                      void *stream, bench_peer_t **out, char *err, size_t err_len);
/** y[c] = A[c] x[c] with copy c = call mod copies; asynchronous. 0 or the library's status. */
int bench_peer_apply(void *p, int64_t call);
void bench_peer_destroy(bench_peer_t **p);
/** How the peer indexes a matrix of 2^31 entries or more (and the device bytes of its index copies);
 *  "" below 2^31 entries. */
const char *bench_peer_note(const bench_peer_t *p);

#endif
