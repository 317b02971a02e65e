/* strata — the command-line tool: `strata info`, `strata fem`, `strata spmv`, `strata solve`, `strata h2`, `strata bench`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_dist.h"
#include "cli_error.h"
#include "cli_json.h"
#include "fem/fem.h"
#include "strata/strata.h"
#include "strata/solvers.h"
#if STRATA_HAVE_MPI
#include "fem/fem_dist.h"
#endif

int cmd_spmv(int argc, char **argv);  /* apps/spmv_cmd.c */
int cmd_solve(int argc, char **argv); /* apps/solve_cmd.c */
int cmd_h2(int argc, char **argv);    /* apps/h2_cmd.c */
int cmd_bench(int argc, char **argv); /* perf/bench_cmd.c */

static void usage(FILE *f) {
  fprintf(f,
          "usage: strata <command> [options]\n"
          "  info [--json]                      version, backends, devices, host threads\n"
          "  fem  [options]                     the main job: assemble with unpack_combine, solve (Jacobi-CG)\n"
          "       --backend NAME                serial|openmp|cuda|hip|default (default: the build's)\n"
          "       --h H                         Gmsh element size (default 0.04 on host backends, 0.0147 on GPUs)\n"
          "       --mesh FILE                   load a mesh saved with --save-mesh (no Gmsh needed)\n"
          "       --save-mesh FILE              write the mesh used (strata mesh v1, apps/fem/fem_mesh.h)\n"
          "       --box N                       structured N^3-cube mesh instead of Gmsh (tests)\n"
          "       --tol T --max-iter N          the solver's relative residual and iteration limit (1e-10, 5000)\n"
          "       --solver S --precond P        cg|bicgstab|gmres|fgmres and a preconditioner as strata solve\n"
          "                                     takes it (default cg and jacobi, the fastest verified choice)\n"
          "       --restart M                   the GMRES / FGMRES basis (1..10000, default 30)\n"
          "       --save-system DIR             writes DIR/A.mtx, DIR/b.mtx, DIR/u.mtx (the system and its solution)\n"
          "       --no-compare                  skip the assembly on the serial backend\n"
          "       --bulk-nodes K                K extra bulk nodes (0..1000), each tied by springs to\n"
          "       --bulk-fraction F             a fraction F in (0, 1] of the boundary nodes (default 0.5;\n"
          "                                     round(F x their number), at least 1)\n"
          "       --json                        one JSON object instead of text\n"
          "       --verbose                     Gmsh's own progress messages while meshing\n"
          "       under mpirun -np N (N > 1): each rank assembles its elements, the rows owned elsewhere are\n"
          "       exported (pack, exchange, unpack_combine ADD); every rank solves its rows (the Krylov method over\n"
          "       the distributed matrix; --precond none|jacobi|l1-jacobi|bjacobi:P[:K]|ras:P:OVERLAP[:K]); rank 0\n"
          "       reports (the matrix is gathered there only for the comparison; --no-compare skips it)\n"
          "       --partition metis|block|auto   the nodes' partition (default auto: METIS when built with it)\n"
          "  spmv A.mtx [options]               y = alpha op(A) x + beta y by row-length class\n"
          "       --x ones|random:SEED|FILE.mtx --alpha A --beta B --y FILE.mtx --transpose\n"
          "       --backend NAME --algorithm auto|one|two|three|split|stream --format NAME --repeat N\n"
          "       --stream-pad auto|always|never --out y.mtx --json   (spmv --help lists the formats)\n"
          "       under mpirun -np N: --dist-mode vector|overlap|task --partition block|metis|auto --staging\n"
          "       (rank 0 reads and distributes, y gathered for --out; --x ones|random:SEED --alpha --repeat)\n"
          "  solve A.mtx [options]              A x = b by a Krylov method and a preconditioner (solve --help)\n"
          "       --b ones|FILE.mtx --x0 FILE.mtx --solver cg|bicgstab|gmres|fgmres --restart M --tol T\n"
          "       --precond none|jacobi|l1-jacobi|ilu0|iluk:K|bjacobi:P[:K]|ras:P:OVERLAP[:K] --max-iter N\n"
          "       --backend NAME --out x.mtx --json --history\n"
          "  h2 --points SPEC [options]         an H² matrix of a kernel on points: built on the device, Y = A X\n"
          "       --points 2d:N|3d:N|grid2d:N|grid3d:N|FILE.mtx --kernel exp:L|gauss:L|matern32:L --leaf M\n"
          "       --cheb P --eta E --vectors NV --x ones|random:SEED|FILE.mtx --backend NAME --out y.mtx\n"
          "       --compress EPS --points-out p.mtx --json   (h2 --help)\n"
          "  bench stream|spmv|unpack|fem|solve|spgemm|amg|batched|h2|dist|all\n"
          "                                     benchmarks against serial and the peers, checked first (bench --help;\n"
          "                                     dist: mpirun -np N strata bench dist, builds with MPI)\n"
          "       --backend B... --matrix FILE.mtx|gen:NAME[:params]|shared... --format LIST --quick\n"
          "       --min-time S --sweep --out DIR\n");
}

static int fail(const char *what, strata_status_t st) {
  fprintf(stderr, "strata %s: %s: %s\n", what, strata_status_name(st), strata_error_message());
  strata_finalize();
  return 1;
}

/* info: why the environment's default backend was not taken ("" when it was) */
static char g_init_problem[512];

static int cmd_info(int argc, char **argv) {
  int json = 0;
  for (int i = 0; i < argc; ++i) {
    if (strcmp(argv[i], "--json") == 0)
      json = 1;
    else {
      fprintf(stderr, "strata info: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  if (json) {
    printf("{\"version\": \"%s\", \"default_backend\": \"%s\", \"default_backend_problem\": ", STRATA_VERSION,
           strata_backend_name(strata_backend_default()));
    if (g_init_problem[0]) {
      printf("\"");
      cli_json_fputs(stdout, g_init_problem);
      printf("\"");
    } else
      printf("null");
    printf(", \"backends\": [");
  }
  else
    printf("strata %s\ndefault backend: %s%s%s%s\n", STRATA_VERSION, strata_backend_name(strata_backend_default()),
           g_init_problem[0] ? " (" : "", g_init_problem, g_init_problem[0] ? ")" : "");
  for (int b = 0; b < STRATA_NUM_BACKENDS; ++b) {
    const char *name = strata_backend_name((strata_backend_t)b);
    int compiled = strata_backend_compiled((strata_backend_t)b), count = 0;
    const char *status = "not compiled";
    if (compiled) {
      strata_status_t st = strata_backend_device_count((strata_backend_t)b, &count);
      status = st != STRATA_SUCCESS ? strata_error_message() : count ? "available" : "compiled, no device found";
    }
    if (json) { /* the status may be an error message: escaped, as every string of the JSON outputs */
      printf("%s{\"name\": \"%s\", \"compiled\": %s, \"status\": \"", b ? ", " : "", name,
             compiled ? "true" : "false");
      cli_json_fputs(stdout, status);
      printf("\", \"devices\": [");
    } else
      printf("backend %-7s %s\n", name, status);
    for (int dv = 0; dv < count; ++dv) {
      strata_device_info_t in;
      if (strata_backend_device_info((strata_backend_t)b, dv, &in) != STRATA_SUCCESS) continue;
      if (json) {
        printf("%s{\"id\": %d, \"name\": \"", dv ? ", " : "", dv);
        cli_json_fputs(stdout, in.name);
        printf("\", \"multiprocessors\": %d, \"memory_bytes\": %zu, "
               "\"warp_size\": %d, \"max_threads_per_team\": %d, \"max_team_size\": %d, \"max_vector_length\": %d, "
               "\"max_scratch_bytes\": %zu, \"compute_capability\": \"%d.%d\"}",
               in.multiprocessors, in.memory_bytes, in.warp_size, in.max_threads_per_team, in.max_threads_per_team,
               in.warp_size, in.max_scratch_bytes, in.compute_major, in.compute_minor);
      } else
        printf("  device %d: %s, %d %s, %.1f GiB, warp %d\n"
               "    team limits: team_size <= %d, vector_length <= %d (a power of two), team_size x vector_length <= %d,"
               " scratch <= %zu B/team\n", dv, in.name,
               in.multiprocessors, strcmp(name, "serial") && strcmp(name, "openmp") ? "multiprocessors" : "host threads",
               (double)in.memory_bytes / (1024.0 * 1024.0 * 1024.0), in.warp_size, in.max_threads_per_team,
               in.warp_size, in.max_threads_per_team, in.max_scratch_bytes);
    }
    if (json) printf("]}");
  }
  strata_exec_t *h = NULL;
  int threads = 1;
  if (strata_exec_default(strata_backend_compiled(STRATA_BACKEND_OPENMP) ? STRATA_BACKEND_OPENMP : STRATA_BACKEND_SERIAL, &h) == STRATA_SUCCESS)
    threads = strata_exec_concurrency(h);
  if (json)
    printf("], \"host_threads\": %d}\n", threads);
  else
    printf("host threads: %d\n", threads);
  strata_finalize();
  return cli_stdout_failed("strata info"); /* 1 when the output was lost, as the other errors */
}

static int need(int i, int argc, char **argv) {
  if (i + 1 >= argc) {
    fprintf(stderr, "strata fem: option %s needs a value\n", argv[i]);
    strata_finalize(); /* after strata_init: as every return of main */
    exit(2);
  }
  return i + 1;
}

static double number(const char *opt, const char *s) {
  char *end = NULL;
  double v = cli_strtod(s, &end);
  if (!end || *end || end == s) {
    fprintf(stderr, "strata fem: %s '%s' is not a number\n", opt, s);
    strata_finalize();
    exit(2);
  }
  return v;
}

/* An integer option in [lo, hi], refused (exit 2) with the value and the limits otherwise. */
static int integer(const char *opt, const char *s, long lo, long hi) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (!end || *end || end == s || errno == ERANGE || v < lo || v > hi) {
    fprintf(stderr, "strata fem: %s '%s' must be an integer in [%ld, %ld]\n", opt, s, lo, hi);
    strata_finalize();
    exit(2);
  }
  return (int)v;
}

static int cmd_fem(int argc, char **argv) {
  fem_options_t o = fem_options_default();
  const char *partition = NULL;
  int fraction_given = 0;
  int json = 0;
  for (int i = 0; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--json") == 0) json = 1;
    else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); return 0; }
    else if (strcmp(a, "--no-compare") == 0) o.compare = 0;
    else if (strcmp(a, "--verbose") == 0) o.verbose = 1;
    else if (strcmp(a, "--h") == 0) { i = need(i, argc, argv); o.h = number(a, argv[i]);
      if (!(o.h >= FEM_MESH_MIN_H && o.h <= FEM_MESH_MAX_H)) {
        fprintf(stderr, "strata fem: --h %s outside [%g, %g] (element size; the cube's edge is 1)\n", argv[i],
                FEM_MESH_MIN_H, FEM_MESH_MAX_H);
        return 2;
      } }
    else if (strcmp(a, "--mesh") == 0) { i = need(i, argc, argv); o.mesh_path = argv[i]; }
    else if (strcmp(a, "--save-mesh") == 0) { i = need(i, argc, argv); o.save_mesh = argv[i]; }
    else if (strcmp(a, "--box") == 0) { i = need(i, argc, argv); o.box = integer(a, argv[i], 1, 400); }
    else if (strcmp(a, "--tol") == 0) { i = need(i, argc, argv); o.tol = number(a, argv[i]);
      if (!(o.tol > 0 && o.tol < 1)) { fprintf(stderr, "strata fem: --tol %s outside (0, 1)\n", argv[i]); return 2; } }
    else if (strcmp(a, "--bulk-nodes") == 0) { i = need(i, argc, argv); o.bulk_nodes = integer(a, argv[i], 0, FEM_MAX_BULK_NODES); }
    else if (strcmp(a, "--bulk-fraction") == 0) { i = need(i, argc, argv); o.bulk_fraction = number(a, argv[i]); fraction_given = 1;
      if (!(o.bulk_fraction > 0 && o.bulk_fraction <= 1)) {
        fprintf(stderr, "strata fem: --bulk-fraction %s outside (0, 1] (fraction of the boundary nodes tied to each bulk node)\n", argv[i]);
        return 2;
      } }
    else if (strcmp(a, "--max-iter") == 0) { i = need(i, argc, argv); o.max_iter = integer(a, argv[i], 1, 100000000); }
    else if (strcmp(a, "--solver") == 0) { i = need(i, argc, argv); o.solver = argv[i];
      if (fem_solver_from_name(o.solver) < 0) {
        fprintf(stderr, "strata fem: --solver %s: unknown solver (cg, bicgstab, gmres, fgmres)\n", argv[i]);
        return 2;
      } }
    else if (strcmp(a, "--precond") == 0) { i = need(i, argc, argv); o.precond = argv[i]; }
    else if (strcmp(a, "--restart") == 0) { i = need(i, argc, argv); o.restart = integer(a, argv[i], 1, 10000); }
    else if (strcmp(a, "--save-system") == 0) { i = need(i, argc, argv); o.save_system = argv[i]; }
    else if (strcmp(a, "--partition") == 0) { i = need(i, argc, argv); partition = argv[i]; }
    else if (strcmp(a, "--backend") == 0) {
      i = need(i, argc, argv);
      if (strata_backend_from_name(argv[i], &o.backend) != STRATA_SUCCESS) { /* a usage error, as spmv's and bench's */
        fprintf(stderr, "strata fem: --backend %s: %s\n", argv[i], strata_error_message());
        return 2;
      }
    } else {
      fprintf(stderr, "strata fem: unknown option '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (fraction_given && o.bulk_nodes == 0) {
    fprintf(stderr, "strata fem: --bulk-fraction applies to bulk nodes: give --bulk-nodes K (K >= 1) too\n");
    return 2;
  }
  if ((o.mesh_path != NULL) + (o.box > 0) + (o.h > 0) > 1) {
    fprintf(stderr, "strata fem: --mesh, --box and --h choose the mesh: give one of them\n");
    return 2;
  }
  if (o.restart && fem_solver_from_name(o.solver) < STRATA_KRYLOV_GMRES) {
    fprintf(stderr, "strata fem: --restart applies to --solver gmres and fgmres\n");
    return 2;
  }
  if (o.precond) { /* the name checked before the job starts: a usage error (exit 2) */
    strata_exec_t *pe = NULL;
    strata_precond_t *P = NULL;
    strata_status_t ps = strata_exec_default(o.backend, &pe);
    if (ps == STRATA_SUCCESS) ps = strata_precond_create_from_name(pe, o.precond, &P);
    strata_precond_destroy(&P);
    if (ps == STRATA_ERR_INVALID_ARGUMENT) {
      fprintf(stderr, "strata fem: --precond: %s\n", strata_error_message());
      return 2;
    }
  }
#if STRATA_HAVE_MPI
  fem_dist_options_t dopt;
  memset(&dopt, 0, sizeof dopt);
  dopt.comm = MPI_COMM_WORLD;
  dopt.partitioner = STRATA_DIST_PARTITION_AUTO;
  if (partition && strata_dist_partitioner_from_name(partition, &dopt.partitioner) != STRATA_SUCCESS) {
    fprintf(stderr, "strata fem: --partition %s: %s\n", partition, strata_error_message());
    return 2;
  }
  if (cli_dist_size() > 1) {
    o.dist = &dopt;
    /* what does not run across ranks is refused on every rank (each parsed the same argv): exit 2 */
    strata_dist_precond_options_t dpo;
    int dnone = 0;
    if (o.precond && strata_dist_precond_options_from_name(o.precond, &dpo, &dnone) != STRATA_SUCCESS) {
      fprintf(stderr, "strata fem: under mpirun with %d ranks: %s\n", cli_dist_size(), strata_error_message());
      return 2;
    }
    if (o.save_system) {
      fprintf(stderr, "strata fem: --save-system %s: not under mpirun with %d ranks (the system stays distributed); run "
              "on one rank to save it\n", o.save_system, cli_dist_size());
      return 2;
    }
  }
#endif
  if (partition && !o.dist) {
    fprintf(stderr, "strata fem: --partition applies under mpirun with several ranks (this run has one%s)\n",
            STRATA_HAVE_MPI ? "" : "; this build has no MPI");
    return 2;
  }
  fem_result_t r;
  strata_status_t st = fem_run(&o, &r);
  if (o.dist) { /* the same exit code on every rank: rank 0 alone solves and reports */
    int rc = st != STRATA_SUCCESS ? 1 : 0;
    if (st != STRATA_SUCCESS) fprintf(stderr, "strata fem: %s: %s\n", strata_status_name(st), strata_error_message());
    else if (cli_dist_rank() == 0) {
      fem_result_print(&r, json, stdout);
      if (cli_stdout_failed("strata fem")) rc = 1;
      else if (r.stalled || !r.converged) {
        fprintf(stderr, "strata fem: %s %s in %d iterations (residual %.3e, --tol %.1e)\n", r.solver,
                r.stalled ? "stalled" : "did not converge", r.iterations, r.residual, o.tol);
        rc = 3;
      }
    }
    fem_result_free(&r);
    return cli_dist_agree_rc(rc);
  }
  if (st != STRATA_SUCCESS) return fail("fem", st);
  fem_result_print(&r, json, stdout);
  fem_result_free(&r);
  strata_finalize();
  if (cli_stdout_failed("strata fem")) return 1;
  if (r.stalled) {
    fprintf(stderr,
            "strata fem: %s: the method's estimate reached --tol %.1e in %d iterations, but the residual ||b - A u|| / "
            "||b|| = %.3e did not (stagnation): --tol is below the accuracy this matrix allows in double precision\n",
            r.solver, o.tol, r.iterations, r.residual);
    return 3;
  }
  if (!r.converged) {
    fprintf(stderr, "strata fem: %s did not converge in %d iterations (residual %.3e > %.1e)\n", r.solver,
            r.iterations, r.residual, o.tol);
    return 3;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  /* an explicit --backend (the first, for bench) is the default backend, whatever the environment's
   * STRATA_BACKEND says (strata_init refuses one this build did not compile); info, whose job is
   * to show what the build has, falls back to serial and names the environment's problem */
  strata_init_options_t io = strata_init_options_default();
  for (int i = 2; i + 1 < argc; ++i)
    if (strcmp(argv[i], "--backend") == 0) {
      strata_backend_t b = STRATA_BACKEND_DEFAULT;
      if (strata_backend_from_name(argv[i + 1], &b) == STRATA_SUCCESS && b != STRATA_BACKEND_DEFAULT &&
          strata_backend_compiled(b))
        io.default_backend = b;
      break;
    }
  /* under mpirun: MPI first (fem, spmv, solve), then one GPU per rank (the node rank modulo the
   * device count; bench dist starts MPI itself: the launcher's node-local rank), STRATA_DEVICE
   * overriding it in strata_init */
  const int dist_cmd = !strcmp(argv[1], "fem") || !strcmp(argv[1], "spmv") || !strcmp(argv[1], "solve");
  if (dist_cmd) cli_dist_start(&argc, &argv);
  if (dist_cmd || !strcmp(argv[1], "bench")) cli_dist_device(&io);
  strata_status_t st = strata_init(&io);
  if (st != STRATA_SUCCESS && strcmp(argv[1], "info") == 0) {
    snprintf(g_init_problem, sizeof g_init_problem, "%s", strata_error_message());
    io.default_backend = STRATA_BACKEND_SERIAL;
    st = strata_init(&io);
  }
  if (st != STRATA_SUCCESS) {
    fail("init", st);
    cli_dist_end();
    return 1;
  }
  int (*cmd)(int, char **) = strcmp(argv[1], "info") == 0    ? cmd_info
                             : strcmp(argv[1], "fem") == 0   ? cmd_fem
                             : strcmp(argv[1], "spmv") == 0  ? cmd_spmv
                             : strcmp(argv[1], "solve") == 0 ? cmd_solve
                             : strcmp(argv[1], "h2") == 0    ? cmd_h2
                             : strcmp(argv[1], "bench") == 0 ? cmd_bench
                                                             : NULL;
  if (cmd) { /* finalized on every return (--help and the exit-2 refusals too; a second call does nothing) */
    int rc = cmd(argc - 2, argv + 2);
    strata_finalize();
    cli_dist_end();
    return rc;
  }
  fprintf(stderr, "strata: unknown command '%s'\n", argv[1]);
  usage(stderr);
  strata_finalize();
  cli_dist_end();
  return 2;
}
