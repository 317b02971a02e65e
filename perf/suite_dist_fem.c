/* strata bench — the dist suite's FE assembly records (issue 29 items 5 and 8; DESIGN §10), in
 * builds with MPI only:
 *
 *   mpirun -np N strata bench dist [--quick] [--scale S]
 *
 * Input: the FEM job's box mesh (fem_mesh_box: 30^3 cubes x 6 tets at --scale 1, 8^3 with
 * --quick), built on every rank alike, without bulk nodes ("boxE") and with FE_BULK bulk nodes
 * tied to half the boundary nodes ("boxE_bulk4": the owner of the bulk nodes receives their nearly
 * dense rows from every rank), appended by fem_bulk_nodes_add as `strata fem --bulk-nodes` does.
 * Records per input and backend (each the same on every rank; rank 0 prints):
 *   fe_assembly        fem_dist_assemble's timed ADD pass: local element kernel, pack, exchange,
 *                      unpack_combine (strata_dist_export_rows), the slowest rank's sum
 *   fe_element, fe_pack, fe_exchange, fe_unpack_combine   each phase, the slowest rank's (the
 *                      fastest rank's in min_s)
 *   tpetra_fe_assembly the Tpetra peer (bench_tpetra.h; host backends, builds with Tpetra): the same
 *                      mesh, ranks, partition and element kernel, Tpetra::FECrsMatrix's fill and
 *                      endAssembly (the export with ADD)
 * Check before any time counts: the matrix of the first call, gathered to rank 0 (Dirichlet rows
 * applied, the job's), against bench_fem_assemble's host assembly of the same mesh entry by entry
 * (bench_fem_matrix_diff <= FE_TOL), no entry left uncombined; Tpetra's owned rows gathered the
 * same way (fem_dirichlet_apply on rank 0) against the same reference.
 * Timing: each sample is one whole fem_dist_assemble (partition, pattern pass, ADD pass, gather)
 * started at an MPI_Barrier, of which the ADD pass's phases count (fem_result_t.per_rank: each
 * rank's own clock); at least FE_MIN_SAMPLES (3 with --quick) samples and --min-time of ADD passes;
 * the medians over samples of the max (and min) over ranks. The Tpetra peer's samples likewise.
 * Members beyond the harness's: ranks, threads_per_rank, nodes, tets, bulk_nodes, bulk_ties,
 * partitioner, bytes_exchanged (payload sent between ranks, all ranks), entries_combined (by
 * unpack_combine, all ranks), the phases' medians (element_s, pack_s, exchange_s, unpack_s and
 * their _min_s), check_matrix_diff, samples; the peer adds fill_s, assemble_s, graph_s; fe_assembly
 * strata_over_tpetra (its time / the peer's; ratio_to_peer the harness's peer / strata). */
#include "strata/config.h"

#include "bench_harness.h"

#if STRATA_HAVE_MPI
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_tpetra.h"
#include "fem.h"
#include "fem_dist.h"
#include "suite_dist.h"

#define SUITE "dist"
#define FE_BOX_EDGE 30
#define FE_BULK 4
#define FE_MIN_SAMPLES 5
#define FE_MAX_SAMPLES 200
#define FE_TOL 1e-12
enum { F_TOTAL, F_ELEMENT, F_PACK, F_EXCHANGE, F_UNPACK, F_TPETRA, F_N };
static const char *const fe_algo[F_N] = {"fe_assembly", "fe_element", "fe_pack", "fe_exchange", "fe_unpack_combine",
                                         "tpetra_fe_assembly"};

static int fe_peer(strata_exec_t *e) {
#if BENCH_HAVE_TPETRA
  return strata_exec_is_host(e);
#else
  (void)e;
  return 0;
#endif
}

/* one input: the mesh (bulk nodes appended) on every rank, its reference S on rank 0 */
typedef struct fe_input {
  fem_mesh_t mesh;
  int64_t K, nsel, nmesh;
  int32_t *sel;
  strata_crs_matrix_t *S; /* rank 0 */
  char name[64];
} fe_input_t;

/* the gathered matrix (rank 0; A may be NULL elsewhere) against the reference: its diff on every rank */
static double fe_check(const fe_input_t *in, const strata_crs_matrix_t *A, int rank, char *msg) {
  double d = INFINITY;
  int failed = 0;
  if (rank == 0) failed = bench_fem_matrix_diff(in->S, A, in->nsel, &d, msg, DIST_MSG_LEN) != 0;
  if (dist_agree_fail(failed, msg)) return NAN;
  MPI_Bcast(&d, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return d;
}

static void fe_set_wrong(bench_result_t *r, double diff) {
  r->ok = 0;
  snprintf(r->msg, sizeof r->msg, "the gathered matrix differs from the host assembly of the same mesh by %.3g of a row's "
           "largest entry (> %g): time not counted", diff, FE_TOL);
}

/* the peer on backend e: assembled, checked against the reference, timed; into record r */
static void fe_tpetra(const fe_input_t *in, strata_exec_t *e, const int64_t *new_ids, const int64_t *first_ids,
                      int rank, bench_result_t *r) {
#if BENCH_HAVE_TPETRA
  bench_tpetra_fem_t t;
  memset(&t, 0, sizeof t);
  t.e = e, t.m = &in->mesh, t.K = in->K, t.sel = in->sel, t.nsel = in->nsel;
  t.new_ids = new_ids, t.first_ids = first_ids;
  t.min_samples = bench_cfg.quick ? 3 : FE_MIN_SAMPLES;
  t.min_time = bench_cfg.min_time;
  if (bench_tpetra_fem_run(&t)) {
    snprintf(r->msg, sizeof r->msg, "%s", t.msg);
    return;
  }
  char msg[DIST_MSG_LEN] = "";
  strata_crs_matrix_t *T = NULL;
  int failed = 0;
  if (rank == 0) {
    const int32_t n = (int32_t)in->mesh.num_nodes;
    failed = strata_crs_create_from_coo(bench_cfg.serial, n, n, t.num_entries, t.rows, t.cols, t.vals, &T) ||
             fem_dirichlet_apply(bench_cfg.serial, &in->mesh, in->mesh.on_boundary, T);
    if (failed) snprintf(msg, sizeof msg, "Tpetra's matrix on rank 0: %s", strata_error_message());
  }
  if (dist_agree_fail(failed, msg)) {
    bench_tpetra_fem_free(&t);
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    strata_crs_destroy(&T);
    return;
  }
  const double diff = fe_check(in, T, rank, msg);
  strata_crs_destroy(&T);
  if (isnan(diff)) {
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    bench_tpetra_fem_free(&t);
    return;
  }
  size_t l = strlen(r->extra);
  snprintf(r->extra + l, sizeof r->extra - l, ", \"check_matrix_diff\": %.3g, \"samples\": %d, \"element_s\": %.6g, "
           "\"element_min_s\": %.6g, \"fill_s\": %.6g, \"fill_min_s\": %.6g, \"assemble_s\": %.6g, \"assemble_min_s\": %.6g, "
           "\"total_min_s\": %.6g, \"graph_s\": %.6g, \"tpetra_nnz\": %lld", diff, t.samples, t.element_s, t.element_min_s,
           t.fill_s, t.fill_min_s, t.assemble_s, t.assemble_min_s, t.total_min_s, t.graph_s, (long long)t.nnz);
  if (!(diff <= FE_TOL)) fe_set_wrong(r, diff);
  else bench_stats_from_samples(t.total_samples, t.samples, 1, &r->t), r->ok = 1;
  bench_tpetra_fem_free(&t);
  if (r->ok != 1) return;
  snprintf(r->msg, sizeof r->msg, "Tpetra::FECrsMatrix: strata's element kernel, the local matrix's sumIntoValues, endAssembly (ADD export)");
#else
  (void)in, (void)e, (void)new_ids, (void)first_ids, (void)rank, (void)r;
#endif
}

/* every record of one input on backend bi */
static void fe_backend(fe_input_t *in, int bi, int rank, int size) {
  strata_exec_t *e = bench_cfg.ex[bi];
  const strata_backend_t b = bench_cfg.be[bi];
  const int first = bench_nrec;
  const int nrec = fe_peer(e) ? F_N : F_TPETRA;
  const int64_t n = in->mesh.num_nodes, nt = in->mesh.num_tets;
  for (int i = 0; i < nrec; ++i) {
    bench_result_t *r = bench_record_add(SUITE, b, in->name, fe_algo[i]);
    r->rows = r->cols = n;
    r->entries = 16.0 * (double)nt + 4.0 * (double)(in->K * in->nsel);
    snprintf(r->extra, sizeof r->extra, ", \"ranks\": %d, \"threads_per_rank\": %d, \"nodes\": %lld, \"tets\": %lld, "
             "\"bulk_nodes\": %lld, \"bulk_ties\": %lld", size, strata_exec_concurrency(e), (long long)in->nmesh,
             (long long)nt, (long long)in->K, (long long)in->nsel);
  }
  bench_result_t *R = &bench_rec[first];
  char msg[DIST_MSG_LEN] = "";
  int32_t *tets_d = NULL, *sel_d = NULL;
  uint8_t *bnd_d = NULL;
  int64_t *new_ids = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  int64_t *first_ids = (int64_t *)malloc(((size_t)size + 1) * sizeof(int64_t));
  double *smp = (double *)malloc((size_t)FE_MAX_SAMPLES * 2 * F_TPETRA * sizeof(double));
  strata_status_t st = new_ids && first_ids && smp ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "host arrays");
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)nt * 16 + 16, (void **)&tets_d);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)n + 16, (void **)&bnd_d);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)in->nsel * 4 + 16, (void **)&sel_d);
  if (!st) st = strata_mem_copy(e, tets_d, in->mesh.tets, (size_t)nt * 16);
  if (!st) st = strata_mem_copy(e, bnd_d, in->mesh.on_boundary, (size_t)n);
  if (!st && in->nsel) st = strata_mem_copy(e, sel_d, in->sel, (size_t)in->nsel * 4);
  snprintf(msg, sizeof msg, "the mesh in exec memory: %s", st ? strata_error_message() : "");
  if (dist_agree_fail(st != 0, msg)) {
    for (int i = 0; i < nrec; ++i) snprintf(R[i].msg, sizeof R[i].msg, "%s", msg);
    goto done;
  }
  fem_dist_options_t o;
  memset(&o, 0, sizeof o);
  o.comm = MPI_COMM_WORLD, o.partitioner = STRATA_DIST_PARTITION_AUTO, o.new_ids = new_ids, o.first_ids = first_ids;
  if (bench_cfg.partition) (void)strata_dist_partitioner_from_name(bench_cfg.partition, &o.partitioner); /* checked in bench_cmd.c */
  int ns = 0;
  double elapsed = 0, diff = NAN;
  fem_result_t res0;
  memset(&res0, 0, sizeof res0);
  for (int s = -1; s < FE_MAX_SAMPLES && (s < (bench_cfg.quick ? 3 : FE_MIN_SAMPLES) || elapsed < bench_cfg.min_time); ++s) {
    fem_result_t res;
    memset(&res, 0, sizeof res);
    strata_crs_matrix_t *A = NULL;
    fem_dist_system_t sys;
    memset(&sys, 0, sizeof sys);
    MPI_Barrier(MPI_COMM_WORLD);
    st = fem_dist_assemble(&o, e, &in->mesh, tets_d, bnd_d, in->K, in->sel, sel_d, in->nsel, &A, &sys, &res); /* agreed */
    fem_dist_system_free(&sys); /* the solve's part (the distributed matrix): not used here */
    if (st) {
      snprintf(msg, sizeof msg, "fem_dist_assemble: %s", strata_error_message());
      for (int i = 0; i < nrec; ++i) snprintf(R[i].msg, sizeof R[i].msg, "%s", msg);
      strata_crs_destroy(&A);
      fem_result_free(&res);
      goto done;
    }
    double ph[2 * F_TPETRA]; /* max over ranks of total and the 4 phases, then the min */
    if (rank == 0)
      for (int i = 0; i < F_TPETRA; ++i) ph[i] = 0, ph[F_TPETRA + i] = INFINITY;
    for (int q = 0; rank == 0 && q < size; ++q) {
      const struct fem_rank_stats *p = &res.per_rank[q];
      const double v[F_TPETRA] = {p->element + p->pack + p->exchange + p->unpack_combine, p->element, p->pack, p->exchange,
                                  p->unpack_combine};
      for (int i = 0; i < F_TPETRA; ++i) ph[i] = fmax(ph[i], v[i]), ph[F_TPETRA + i] = fmin(ph[F_TPETRA + i], v[i]);
    }
    MPI_Bcast(ph, 2 * F_TPETRA, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (s < 0) { /* the first call: checked, not timed */
      diff = fe_check(in, A, rank, msg);
      res0 = res;
      res0.per_rank = NULL;
    } else {
      for (int i = 0; i < 2 * F_TPETRA; ++i) smp[(size_t)i * FE_MAX_SAMPLES + ns] = ph[i];
      ++ns;
      elapsed += ph[F_TOTAL];
    }
    strata_crs_destroy(&A);
    fem_result_free(&res);
    if (s < 0 && (isnan(diff) || !(diff <= FE_TOL) || res0.dist_invalid)) break;
  }
  for (int i = 0; i < nrec; ++i) {
    size_t l = strlen(R[i].extra);
    l += (size_t)snprintf(R[i].extra + l, sizeof R[i].extra - l, ", \"partitioner\": \"%s\"", res0.partitioner);
    if (i < F_TPETRA)
      snprintf(R[i].extra + l, sizeof R[i].extra - l, ", \"bytes_exchanged\": %lld, \"entries_combined\": %lld, "
               "\"dist_invalid\": %lld, \"check_matrix_diff\": %.3g, \"samples\": %d", (long long)res0.bytes_exchanged,
               (long long)res0.entries_combined, (long long)res0.dist_invalid, diff, ns);
    R[i].nnz = res0.nnz;
  }
  if (isnan(diff)) {
    for (int i = 0; i < nrec; ++i) snprintf(R[i].msg, sizeof R[i].msg, "%s", msg);
    goto done;
  }
  if (!(diff <= FE_TOL) || res0.dist_invalid) {
    for (int i = 0; i < F_TPETRA; ++i) {
      fe_set_wrong(&R[i], diff);
      if (res0.dist_invalid)
        snprintf(R[i].msg, sizeof R[i].msg, "%lld entries not combined (over the ranks): time not counted",
                 (long long)res0.dist_invalid);
    }
    if (nrec > F_TPETRA) snprintf(R[F_TPETRA].msg, sizeof R[F_TPETRA].msg, "not measured: strata's assembly did not pass");
    goto done;
  }
  double med[2 * F_TPETRA];
  for (int i = 0; i < 2 * F_TPETRA; ++i) {
    bench_stats_t bs;
    bench_stats_from_samples(smp + (size_t)i * FE_MAX_SAMPLES, ns, 1, &bs);
    if (i < F_TPETRA) R[i].t = bs, R[i].ok = 1;
    med[i] = bs.median;
  }
  {
    size_t l = strlen(R[F_TOTAL].extra);
    snprintf(R[F_TOTAL].extra + l, sizeof R[F_TOTAL].extra - l, ", \"element_s\": %.6g, \"pack_s\": %.6g, \"exchange_s\": %.6g, "
             "\"unpack_s\": %.6g, \"min_s\": %.6g, \"element_min_s\": %.6g, \"pack_min_s\": %.6g, \"exchange_min_s\": %.6g, "
             "\"unpack_min_s\": %.6g", med[F_ELEMENT], med[F_PACK], med[F_EXCHANGE], med[F_UNPACK], med[F_TPETRA + F_TOTAL],
             med[F_TPETRA + F_ELEMENT], med[F_TPETRA + F_PACK], med[F_TPETRA + F_EXCHANGE], med[F_TPETRA + F_UNPACK]);
  }
  for (int i = F_ELEMENT; i < F_TPETRA; ++i) {
    size_t l = strlen(R[i].extra);
    snprintf(R[i].extra + l, sizeof R[i].extra - l, ", \"min_s\": %.6g", med[F_TPETRA + i]);
  }
  snprintf(R[F_TOTAL].msg, sizeof R[F_TOTAL].msg, "fem_dist_assemble's ADD pass: element, pack, exchange, unpack_combine "
           "(the slowest rank's sum)");
  if (nrec > F_TPETRA) {
    bench_progress(SUITE, in->name, R[F_TPETRA].backend, R[F_TPETRA].algo);
    fe_tpetra(in, e, new_ids, first_ids, rank, &R[F_TPETRA]);
    if (R[F_TPETRA].ok == 1 && R[F_TOTAL].t.median > 0) {
      R[F_TOTAL].ratio_peer = R[F_TPETRA].t.median / R[F_TOTAL].t.median;
      size_t l = strlen(R[F_TOTAL].extra);
      snprintf(R[F_TOTAL].extra + l, sizeof R[F_TOTAL].extra - l, ", \"strata_over_tpetra\": %.4f",
               R[F_TOTAL].t.median / R[F_TPETRA].t.median);
    }
  }
done:
  for (int i = first; i < bench_nrec; ++i) bench_record_emit(&bench_rec[i]);
  free(new_ids), free(first_ids), free(smp);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&tets_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&bnd_d);
  strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&sel_d);
}

void dist_fem_run(void) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int edge = bench_cfg.quick ? 8 : bench_box_of_scale(FE_BOX_EDGE);
  for (int v = 0; v < 2; ++v) {
    fe_input_t in;
    memset(&in, 0, sizeof in);
    in.K = v ? FE_BULK : 0;
    snprintf(in.name, sizeof in.name, v ? "box%d_bulk%d" : "box%d", edge, FE_BULK);
    char msg[DIST_MSG_LEN] = "";
    int failed = fem_mesh_box(edge, &in.mesh, msg, sizeof msg) != 0;
    in.nmesh = in.mesh.num_nodes;
    if (!failed && rank == 0 && bench_fem_assemble(bench_cfg.serial, &in.mesh, 1, &in.S, msg, sizeof msg)) failed = 1;
    if (!failed && fem_bulk_nodes_add(&in.mesh, in.K, 0.5, &in.sel, &in.nsel)) {
      failed = 1;
      snprintf(msg, sizeof msg, "%s", strata_error_message());
    }
    if (dist_agree_fail(failed, msg)) {
      bench_result_t *r = bench_record_add(SUITE, STRATA_BACKEND_SERIAL, in.name, "input");
      snprintf(r->msg, sizeof r->msg, "the box mesh: %.180s", msg);
      bench_record_emit(r);
    } else
      for (int bi = 0; bi < bench_cfg.nb; ++bi) {
        bench_progress(SUITE, in.name, strata_backend_name(bench_cfg.be[bi]), "fe_assembly");
        fe_backend(&in, bi, rank, size);
      }
    strata_crs_destroy(&in.S);
    fem_mesh_destroy(&in.mesh);
    free(in.sel);
  }
}

int dist_fem_estimate(void) {
  int n = 0;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) n += fe_peer(bench_cfg.ex[bi]) ? F_N : F_TPETRA;
  return 2 * n;
}

static double fe_ms(const char *name, const char *backend, const char *algo) {
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (r->ok == 1 && !strcmp(r->suite, SUITE) && !strcmp(r->name, name) && !strcmp(r->backend, backend) && !strcmp(r->algo, algo))
      return 1e3 * r->t.median;
  }
  return NAN;
}

void dist_fem_summary(FILE *f) {
  int any = 0; /* no FE records (--no-fe, or a report of results without them): no table */
  for (int i = 0; i < bench_nrec && !any; ++i) any = !strcmp(bench_rec[i].suite, SUITE) && !strcmp(bench_rec[i].algo, fe_algo[F_TOTAL]);
  if (!any) return;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fprintf(f, "\n== dist: FE assembly on %d rank%s, ms (median of the slowest rank's; assembly = element + pack + exchange + "
          "unpack_combine), x_tpetra = tpetra / strata (as x_peer: above 1, strata faster)\n", size, size > 1 ? "s" : "");
  fprintf(f, "%-7s %-16s %9s %9s %9s %9s %9s %9s %8s\n", "backend", "name", "assembly", "element", "pack", "exchange", "unpack",
          "tpetra", "x_tpetra");
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (strcmp(r->suite, SUITE) || strcmp(r->algo, fe_algo[F_TOTAL])) continue;
    double v[F_N];
    for (int c = 0; c < F_N; ++c) v[c] = fe_ms(r->name, r->backend, fe_algo[c]);
    fprintf(f, "%-7s %-16.16s", r->backend, r->name);
    for (int c = 0; c < F_N; ++c) {
      if (isfinite(v[c])) fprintf(f, " %9.4f", v[c]);
      else fprintf(f, " %9s", "-");
    }
    const double x = v[F_TPETRA] / v[F_TOTAL];
    if (isfinite(x)) fprintf(f, " %8.3f\n", x);
    else fprintf(f, " %8s\n", "-");
  }
}

#endif /* STRATA_HAVE_MPI */
