/* strata — the command-line tool under mpirun (issue 29 item 7): MPI started for `fem` and `spmv`
 * when the process was launched by mpirun / mpiexec, and `strata spmv` on a distributed CrsMatrix
 * (rank 0 reads and distributes, y gathered for --out). Without MPI (STRATA_HAVE_MPI 0) the
 * start is a no-op, one rank, and the distributed options are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_dist.h"
#include "cli_error.h"
#include "cli_json.h"
#include "cli_spmv.h"
#include "strata/strata.h"

#if STRATA_HAVE_MPI
#include "strata/dist.h"
#include "cli_gather.h"

static int g_mpi_started;

/* launched by an MPI starter: OpenMPI, MPICH / Hydra, PMIx */
static int under_mpirun(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK") || getenv("MPI_LOCALNRANKS");
}

void cli_dist_start(int *argc, char ***argv) {
  if (!under_mpirun()) return;
  int provided = 0;
  if (strata_dist_init(argc, argv, MPI_THREAD_SERIALIZED, &provided) == STRATA_SUCCESS) g_mpi_started = 1;
}

void cli_dist_end(void) {
  if (g_mpi_started) strata_dist_finalize();
  g_mpi_started = 0;
}

int cli_dist_size(void) {
  int size = 1;
  if (g_mpi_started) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int cli_dist_rank(void) {
  int rank = 0;
  if (g_mpi_started) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int cli_dist_agree_rc(int rc) {
  int out = rc;
  if (g_mpi_started) MPI_Allreduce(&rc, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

/* the node-local rank the launcher gives (before MPI starts): OpenMPI, MPICH / Hydra; -1 if none */
static int launcher_local_rank(void) {
  const char *v = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (!v) v = getenv("MPI_LOCALRANKID");
  char *end = NULL;
  const long r = v ? strtol(v, &end, 10) : -1;
  return v && end && !*end && r >= 0 && r < 1000000 ? (int)r : -1;
}

void cli_dist_device(strata_init_options_t *io) {
  strata_backend_t b = io->default_backend;
  if (b == STRATA_BACKEND_DEFAULT) { /* strata_init's rule: STRATA_BACKEND, else the build's */
    const char *env = getenv("STRATA_BACKEND");
    if (!env || !*env || strata_backend_from_name(env, &b) != STRATA_SUCCESS) b = STRATA_BACKEND_DEFAULT;
    if (b == STRATA_BACKEND_DEFAULT) b = strata_backend_default();
  }
  int count = 0;
  const int gpu = b != STRATA_BACKEND_SERIAL && b != STRATA_BACKEND_OPENMP && strata_backend_compiled(b) &&
                  strata_backend_device_count(b, &count) == STRATA_SUCCESS;
  int dev = 0, node_rank = -1;
  if (g_mpi_started) { /* collective: every rank calls it, whatever its backend */
    if (strata_dist_device_select(MPI_COMM_WORLD, count, &dev) != STRATA_SUCCESS) return;
  } else if (under_mpirun() && (node_rank = launcher_local_rank()) >= 0) {
    dev = count > 0 ? node_rank % count : 0; /* strata_dist_device_select's rule, MPI not started yet */
  } else {
    return;
  }
  if (gpu) io->device_id = dev;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define bad(...) cli_usage_error("strata spmv", "", __VA_ARGS__)

/* every rank parsed the same argv: usage errors are the same everywhere (exit 2 on all) */
int cmd_spmv_dist(int argc, char **argv) {
  const char *path = NULL, *xspec = "ones", *out = NULL;
  double alpha = 1.0;
  int json = 0, repeat = 10, staging = 0;
  strata_backend_t backend = STRATA_BACKEND_DEFAULT;
  strata_dist_mode_t mode = STRATA_DIST_VECTOR;
  strata_dist_partitioner_t part = STRATA_DIST_PARTITION_BLOCK;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    char *end = NULL;
    static const char *const valued[] = {"--x", "--out", "--alpha", "--repeat", "--backend", "--dist-mode", "--partition"};
    int takes = 0;
    for (size_t q = 0; q < sizeof valued / sizeof valued[0]; ++q) takes |= !strcmp(a, valued[q]);
    if (!strcmp(a, "--json")) json = 1;
    else if (!strcmp(a, "--staging")) staging = 1;
    else if (takes && (!v || (v[0] == '-' && v[1] == '-'))) return bad("option %s needs a value", a);
    else if (!strcmp(a, "--x")) xspec = argv[++i];
    else if (!strcmp(a, "--out")) out = argv[++i];
    else if (!strcmp(a, "--alpha")) {
      alpha = cli_strtod(v, &end);
      if (!end || *end || end == v || !isfinite(alpha)) return bad("%s %s: not a finite decimal number", a, v);
      ++i;
    } else if (!strcmp(a, "--repeat")) {
      long r = strtol(v, &end, 10);
      if (!end || *end || end == v || r < 1 || r > 1000000) return bad("--repeat %s: an integer in [1, 1000000]", v);
      repeat = (int)r;
      ++i;
    } else if (!strcmp(a, "--backend")) {
      if (strata_backend_from_name(v, &backend) != STRATA_SUCCESS) return bad("--backend %s: %s", v, strata_error_message());
      ++i;
    } else if (!strcmp(a, "--dist-mode")) {
      if (strata_dist_mode_from_name(v, &mode) != STRATA_SUCCESS) return bad("--dist-mode %s: %s", v, strata_error_message());
      ++i;
    } else if (!strcmp(a, "--partition")) {
      if (strata_dist_partitioner_from_name(v, &part) != STRATA_SUCCESS)
        return bad("--partition %s: %s", v, strata_error_message());
      ++i;
    } else if (a[0] == '-' && a[1] != '\0')
      return bad("unknown option %s under mpirun (distributed spmv takes --x ones|random:SEED, --alpha, --repeat, --backend, "
                 "--dist-mode, --partition, --staging, --out, --json)", a);
    else if (path) return bad("one matrix file only (second: %s)", a);
    else path = a;
  }
  if (!path) return bad("%s", "usage: mpirun -np N strata spmv A.mtx [--dist-mode vector|overlap|task] [--partition block|metis|auto] [--x ones|random:SEED] [--alpha A] [--repeat N] [--backend B] [--staging] [--out y.mtx] [--json]");
  int random = 0;
  uint64_t seed = 0;
  const int xs = cli_x_spec(xspec, &random, &seed);
  if (xs <= 0) return bad("--x %s: ones or random:SEED under mpirun (a seed in [0, 2^64))", xspec);

  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  strata_status_t st = STRATA_SUCCESS;
  strata_exec_t *e = NULL;
  strata_coo_t *coo = NULL;
  strata_crs_matrix_t *A0 = NULL;
  strata_dist_map_t *map = NULL;
  strata_dist_crs_t *A = NULL;
  int64_t N = 0, *new_ids = NULL, *old_of = NULL, *rows = NULL, *cols = NULL, *gids = NULL, *allg = NULL;
  double *xg = NULL, *x = NULL, *y = NULL, *dx = NULL, *dy = NULL, *times = NULL, *yall = NULL, *ycat = NULL;
  int *counts = NULL, *displs = NULL;
  int64_t nnz_file = 0;
  st = strata_exec_default(backend, &e);
  /* rank 0 reads */
  if (!st && rank == 0) {
    st = strata_mm_read_coo(path, &coo);
    if (!st && coo->num_rows != coo->num_cols)
      st = strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "%s is %d x %d: the distributed SpMV takes square matrices (one map "
                            "for rows and x)", path, coo->num_rows, coo->num_cols);
    if (!st) N = coo->num_rows, nnz_file = coo->nnz;
    if (!st && part != STRATA_DIST_PARTITION_BLOCK) st = strata_mm_coo_to_crs(e, coo, &A0);
  }
  if ((st = strata_dist_agree(comm, st))) goto done;
  MPI_Bcast(&N, 1, MPI_INT64_T, 0, comm);
  double t_setup = strata_timer_now();
  if (part == STRATA_DIST_PARTITION_BLOCK) {
    st = strata_dist_map_create_block(comm, N, &map);
  } else {
    int64_t nr = 0;
    st = strata_dist_partition_crs(comm, 0, e, A0, part, &nr, &new_ids, &map);
  }
  if (st) goto done;
  strata_crs_destroy(&A0);
  { /* rank 0's entries in the new numbering, sent to their owners by the build */
    const int64_t n = rank == 0 ? coo->nnz : 0;
    rows = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    cols = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    st = rows && cols ? STRATA_SUCCESS : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "spmv: %lld entries", (long long)n);
    for (int64_t k = 0; !st && k < n; ++k) {
      rows[k] = new_ids ? new_ids[coo->rows[k]] : coo->rows[k];
      cols[k] = new_ids ? new_ids[coo->cols[k]] : coo->cols[k];
    }
    if ((st = strata_dist_agree(comm, st))) goto done;
    strata_dist_crs_options_t dopt;
    memset(&dopt, 0, sizeof dopt);
    dopt.plan.staging = staging;
    st = strata_dist_crs_create_from_entries(e, map, NULL, n, rows, cols, rank == 0 ? coo->values : NULL, &dopt, NULL, &A);
    if (st) goto done;
  }
  strata_coo_destroy(&coo);
  t_setup = strata_timer_now() - t_setup;
  strata_dist_map_info_t mi;
  strata_dist_map_info(map, &mi);
  strata_dist_crs_info_t ai;
  strata_dist_crs_info(A, &ai);
  strata_dist_plan_info_t pi;
  strata_dist_plan_info(ai.plan, &pi);
  const int32_t nl = mi.num_local;
  /* x: the same draw on every rank, each takes its rows (the original ids of its new ids) */
  xg = (double *)malloc(((size_t)N + 1) * sizeof(double));
  x = (double *)malloc(((size_t)nl + 1) * sizeof(double));
  y = (double *)malloc(((size_t)nl + 1) * sizeof(double));
  gids = (int64_t *)malloc(((size_t)nl + 1) * sizeof(int64_t));
  old_of = new_ids ? (int64_t *)malloc(((size_t)N + 1) * sizeof(int64_t)) : NULL;
  times = (double *)malloc((size_t)repeat * sizeof(double));
  st = xg && x && y && gids && times && (old_of || !new_ids) ? STRATA_SUCCESS
                                                            : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "spmv: vectors of %lld", (long long)N);
  if (!st) {
    cli_x_fill(random, seed, N, xg);
    if (old_of)
      for (int64_t i = 0; i < N; ++i) old_of[new_ids[i]] = i;
    for (int32_t l = 0; l < nl; ++l) {
      gids[l] = old_of ? old_of[mi.first_gid + l] : mi.first_gid + l;
      x[l] = xg[gids[l]];
    }
  }
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, ((size_t)nl + 1) * sizeof(double), (void **)&dx);
  if (!st) st = strata_mem_alloc(e, STRATA_MEM_DEVICE, ((size_t)nl + 1) * sizeof(double), (void **)&dy);
  if (!st && nl) st = strata_mem_copy(e, dx, x, (size_t)nl * sizeof(double));
  if ((st = strata_dist_agree(comm, st))) goto done;
  /* one warm-up, then the timed applies (each fenced: this rank's time of one SpMV) */
  st = strata_dist_crs_spmv(e, mode, alpha, A, dx, 0.0, dy);
  if (!st) st = strata_dist_agree(comm, strata_exec_fence(e));
  for (int r = 0; !st && r < repeat; ++r) {
    MPI_Barrier(comm);
    const double t0 = strata_timer_now();
    st = strata_dist_crs_spmv(e, mode, alpha, A, dx, 0.0, dy);
    strata_status_t fs = strata_exec_fence(e);
    times[r] = strata_timer_now() - t0;
    if (!st) st = strata_dist_agree(comm, fs);
  }
  if (st) goto done;
  qsort(times, (size_t)repeat, sizeof(double), cmp_d);
  const double med = times[repeat / 2];
  st = nl ? strata_mem_copy(e, y, dy, (size_t)nl * sizeof(double)) : STRATA_SUCCESS;
  if ((st = strata_dist_agree(comm, st))) goto done;
  /* per-rank records and y to rank 0 */
  double rec[10] = {(double)nl, (double)ai.nnz_local, (double)ai.num_ghosts, (double)pi.send_bytes, (double)pi.recv_bytes,
                    (double)pi.num_send_neighbors, (double)pi.num_recv_neighbors, med, (double)pi.staged,
                    (double)cli_dist_device_of(e)};
  double *recs = rank == 0 ? (double *)malloc((size_t)size * sizeof rec) : NULL;
  if (rank == 0) {
    counts = (int *)malloc((size_t)size * sizeof(int));
    displs = (int *)malloc((size_t)size * sizeof(int));
    allg = (int64_t *)malloc(((size_t)N + 1) * sizeof(int64_t));
    ycat = (double *)malloc(((size_t)N + 1) * sizeof(double));
    yall = (double *)malloc(((size_t)N + 1) * sizeof(double));
    st = recs && counts && displs && allg && ycat && yall ? STRATA_SUCCESS
                                                           : strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "spmv: y of %lld on rank 0", (long long)N);
  }
  if ((st = strata_dist_agree(comm, st))) {
    free(recs);
    goto done;
  }
  MPI_Gather(rec, 10, MPI_DOUBLE, recs, 10, MPI_DOUBLE, 0, comm);
  int cnt = nl;
  cli_gather_layout(comm, 0, cnt, counts, displs);
  MPI_Gatherv(gids, cnt, MPI_INT64_T, allg, counts, displs, MPI_INT64_T, 0, comm);
  MPI_Gatherv(y, cnt, MPI_DOUBLE, ycat, counts, displs, MPI_DOUBLE, 0, comm);
  if (rank == 0) {
    for (int64_t k = 0; k < N; ++k) yall[allg[k]] = ycat[k];
    if (out) st = strata_mm_write_vector(out, (int32_t)N, yall);
    if (!st) {
      double tmax = 0;
      for (int r = 0; r < size; ++r) tmax = fmax(tmax, recs[10 * r + 7]);
      if (json) {
        printf("{\"job\": \"spmv\", \"matrix\": \"");
        cli_json_fputs(stdout, path);
        printf("\", \"backend\": \"%s\", \"ranks\": %d, \"dist_mode\": \"%s\", \"partition\": \"%s\", \"rows\": %lld, "
               "\"nnz\": %lld, \"file_entries\": %lld, \"repeat\": %d, \"setup_s\": %.6f, \"median_s_max_over_ranks\": %.6e, "
               "\"per_rank\": [",
               strata_backend_name(strata_exec_backend(e)), size, strata_dist_mode_name(mode), strata_dist_partitioner_name(strata_dist_partitioner_resolve(part)),
               (long long)N, (long long)ai.nnz_global, (long long)nnz_file, repeat, t_setup, tmax);
        for (int r = 0; r < size; ++r) {
          const double *q = recs + 10 * r;
          printf("%s{\"rank\": %d, \"device\": %.0f, \"rows\": %.0f, \"nnz\": %.0f, \"ghosts\": %.0f, \"halo_send_bytes\": %.0f, "
                 "\"halo_recv_bytes\": %.0f, \"send_neighbors\": %.0f, \"recv_neighbors\": %.0f, \"staged\": %s, "
                 "\"median_s\": %.6e}", r ? ", " : "", r, q[9], q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[8] ? "true" : "false", q[7]);
        }
        printf("]}\n");
      } else {
        printf("strata spmv — %s, %lld x %lld, %lld entries, on %d ranks (%s partition, %s mode, %s)\n", path, (long long)N,
               (long long)N, (long long)ai.nnz_global, size, strata_dist_partitioner_name(strata_dist_partitioner_resolve(part)), strata_dist_mode_name(mode),
               strata_backend_name(strata_exec_backend(e)));
        for (int r = 0; r < size; ++r) {
          const double *q = recs + 10 * r;
          printf("  rank %-3d  device %.0f, %.0f rows, %.0f entries, %.0f ghosts, halo %.0f B sent / %.0f B received (%.0f / %.0f "
                 "neighbours), median %.3e s\n", r, q[9], q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
        }
        printf("  median time  %.3e s (the slowest rank), setup %.3f s\n", tmax, t_setup);
      }
    }
  }
  free(recs);
  st = strata_dist_agree(comm, st);
done:
  if (e) {
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dx);
    strata_mem_free(e, STRATA_MEM_DEVICE, (void **)&dy);
  }
  strata_dist_crs_destroy(&A);
  strata_dist_map_destroy(&map);
  strata_crs_destroy(&A0);
  strata_coo_destroy(&coo);
  free(new_ids);
  free(old_of);
  free(rows);
  free(cols);
  free(gids);
  free(allg);
  free(xg);
  free(x);
  free(y);
  free(times);
  free(yall);
  free(ycat);
  free(counts);
  free(displs);
  if (st) {
    fprintf(stderr, "strata spmv: %s: %s\n", strata_status_name(st), strata_error_message());
    return 1;
  }
  if (rank == 0 && cli_stdout_failed("strata spmv")) return 1;
  return 0;
}

#else /* no MPI */

void cli_dist_start(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
}
void cli_dist_end(void) {}
int cli_dist_size(void) { return 1; }
int cli_dist_rank(void) { return 0; }
int cli_dist_agree_rc(int rc) { return rc; }
void cli_dist_device(strata_init_options_t *io) { (void)io; }
int cmd_spmv_dist(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_usage_error("strata spmv", "",
                         "--dist-mode and --partition need the dist module: this build has no MPI (-DSTRATA_MPI=OFF or "
                         "MPI not found)");
}

#endif

int cli_dist_device_of(strata_exec_t *e) {
  strata_device_info_t di;
  return e && strata_exec_device_info(e, &di) == STRATA_SUCCESS ? di.device_id : -1;
}
