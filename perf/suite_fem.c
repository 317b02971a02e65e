/* strata bench — the fem suite: the FEM job's phases through fem_run on a box mesh (40^3 cubes x 6
 * tets at --scale 1, 6^3 with --quick) or --mesh FILE, without and with bulk nodes. Each backend's
 * first run checks its assembled matrix against the same mesh's host assembly and, on backends
 * other than serial, against serial's; the runs are then repeated until --min-time (at least 3, 1
 * in --quick) after 2 runs not timed. */
#include <stdio.h>
#include <string.h>

#include "bench_harness.h"
#include "fem.h"

/* cubes per edge of the fem suite's box mesh at --scale 1 (bench_box_of_scale) */
#define FEM_BOX_EDGE 40

/* fem_run repeated until --min-time has passed (at least 3 runs, 1 in --quick; FEM_MAX_RUNS at
 * most) after FEM_WARMUP runs that are not kept, the first of them the checked one (as bench_time's
 * 2 warm-up calls): each run is a whole job, so its phases are timed by fem_run's own fences, one
 * sample per run and phase (no batching: a phase cannot be repeated alone) */
#define FEM_MAX_RUNS 50
#define FEM_WARMUP 2
/* the assembled matrix of a backend's first run against the host assembly of the same mesh
 * (bench_fem_matrix_diff; serial's too) and, on other backends, against serial's: max_i max_j
 * |a_ij - s_ij| / max_j |s_ij| (fem_result_t.matrix_diff) at most this, else the record is wrong
 * (exit 3) */
#define FEM_BENCH_MATRIX_TOL 1e-12
#define FEM_BENCH_BULK 4 /* the job again with 4 bulk nodes (--bulk-fraction 0.5; issue 5) */
static void fem_suite_run(const bench_inputs_t *in) {
  (void)in;
  const int box = bench_cfg.quick ? 6 : bench_box_of_scale(FEM_BOX_EDGE);
  /* the reference of every backend's assembled matrix: the same mesh, assembled on the host */
  strata_crs_matrix_t *S = NULL;
  {
    fem_mesh_t mesh;
    char msg[300], what[200];
    snprintf(what, sizeof what, "%s", bench_cfg.mesh ? bench_cfg.mesh : "box");
    int mrc = bench_cfg.mesh ? fem_mesh_load(bench_cfg.mesh, &mesh, msg, sizeof msg) : fem_mesh_box(box, &mesh, msg, sizeof msg);
    if (!mrc) {
      mrc = bench_fem_assemble(bench_cfg.serial, &mesh, 1, &S, msg, sizeof msg);
      fem_mesh_destroy(&mesh);
    }
    if (mrc) {
      char m2[600];
      snprintf(m2, sizeof m2, "fem %s: the host assembly (the reference): %s", what, msg);
      bench_input_error("fem", what, m2);
      return;
    }
  }
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    for (int bulk = 0; bulk <= FEM_BENCH_BULK; bulk += FEM_BENCH_BULK) {
      fem_options_t o = fem_options_default();
      o.bulk_nodes = bulk;
      if (bench_cfg.mesh) o.mesh_path = bench_cfg.mesh, o.box = 0;
      else o.box = box;
      o.backend = bench_cfg.be[bi];
      const int min_runs = bench_cfg.quick ? 1 : 3;
      double sec[FEM_NUM_PHASES][FEM_MAX_RUNS];
      fem_result_t res;
      int ok = 1, runs = 0, kept = 0; /* runs made, samples kept (runs after the warm-up) */
      char name[200], err[200] = "";
      const char *base = bench_cfg.mesh ? strrchr(bench_cfg.mesh, '/') : NULL;
      if (bench_cfg.mesh) snprintf(name, sizeof name, "%s", base ? base + 1 : bench_cfg.mesh);
      else snprintf(name, sizeof name, "box%d", box);
      bench_progress("fem", name, strata_backend_name(bench_cfg.be[bi]), "fem_run");
      double t0 = strata_timer_now(), diff = 0, hdiff = 0; /* the first run's assembled matrix against serial's, the host's */
      const int on_serial = bench_cfg.be[bi] == STRATA_BACKEND_SERIAL;
      while (ok == 1 && kept < FEM_MAX_RUNS && (kept < min_runs || strata_timer_now() - t0 < bench_cfg.min_time)) {
        strata_crs_matrix_t *A = NULL;
        o.compare = runs == 0 && !on_serial; /* after the timed phases: a check, not timed */
        o.matrix_out = runs == 0 ? &A : NULL;
        if (fem_run(&o, &res)) {
          ok = -1;
          snprintf(err, sizeof err, "%s", strata_error_message());
        } else if (!res.converged || res.unpack_invalid) {
          ok = 0;
          snprintf(err, sizeof err, "CG converged %d, %lld invalid unpack entries", res.converged, (long long)res.unpack_invalid);
        } else if (runs == 0 && bench_fem_matrix_diff(S, A, res.bulk_ties, &hdiff, err, sizeof err)) {
          ok = -1;
        } else if (runs == 0 && !(hdiff <= FEM_BENCH_MATRIX_TOL)) { /* NaN: wrong too */
          ok = 0;
          snprintf(err, sizeof err, "assembled matrix differs from the host assembly: max relative difference %.3g > %g: "
                   "time not counted", hdiff, FEM_BENCH_MATRIX_TOL);
        } else if (runs == 0 && !on_serial && !((diff = res.matrix_diff) <= FEM_BENCH_MATRIX_TOL)) {
          ok = 0;
          snprintf(err, sizeof err, "assembled matrix differs from serial: max relative difference %.3g > %g: time not counted",
                   res.matrix_diff, FEM_BENCH_MATRIX_TOL);
        }
        strata_crs_destroy(&A);
        if (runs++ < FEM_WARMUP) { /* not a sample; --min-time counts from the first sample */
          t0 = strata_timer_now();
          continue;
        }
        for (int p = 0; p < FEM_NUM_PHASES; ++p) sec[p][kept] = res.seconds[p];
        ++kept;
      }
      if (ok == 1 && !bench_cfg.mesh) snprintf(name, sizeof name, "box%d_%lldtets", box, (long long)res.num_tets);
      else if (ok == 1) {
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "_%lldtets", (long long)res.num_tets);
      }
      if (ok == 1 && bulk) {
        size_t l = strlen(name);
        snprintf(name + l, sizeof name - l, "_bulk%dx%lld", bulk, (long long)res.bulk_ties);
      }
      for (int p = 0; p < FEM_NUM_PHASES; ++p) {
        if (p == FEM_PHASE_MESH) continue;
        bench_result_t *r = bench_record_add("fem", bench_cfg.be[bi], name, fem_phase_names[p]);
        r->ok = ok;
        snprintf(r->msg, sizeof r->msg, "%s", err);
        if (ok != 1) { bench_record_emit(r); continue; }
        r->rows = res.num_nodes, r->nnz = res.nnz;
        if (p == FEM_PHASE_SOLVE && on_serial)
          snprintf(r->msg, sizeof r->msg, "%d CG iterations, error %.3e, matrix against the host assembly %.3g; "
                   "%d warm-up runs not timed", res.iterations, res.error, hdiff, FEM_WARMUP);
        else if (p == FEM_PHASE_SOLVE)
          snprintf(r->msg, sizeof r->msg, "%d CG iterations, error %.3e, matrix against the host assembly %.3g, "
                   "against serial %.3g; %d warm-up runs not timed", res.iterations, res.error, hdiff, diff, FEM_WARMUP);
        bench_stats_from_samples(sec[p], kept, 1, &r->t);
        if (p == FEM_PHASE_UNPACK || p == FEM_PHASE_PACK) /* 4 x 4 per tet, 2 rows of 2 per spring */
          r->entries = 16.0 * (double)res.num_tets + 4.0 * (double)res.bulk_nodes * (double)res.bulk_ties;
        bench_record_emit(r);
      }
    }
  }
  strata_crs_destroy(&S);
}

static int fem_estimate(const bench_inputs_t *in) {
  (void)in;
  return 2 * bench_cfg.nb;
}
static int fem_box_edge(const bench_inputs_t *in) {
  (void)in;
  return bench_cfg.mesh ? 0 : FEM_BOX_EDGE;
}

const bench_suite_t bench_suite_fem = {
    .name = "fem",
    .help = "the FEM job's phases (fem_run) on a box mesh or --mesh FILE, its matrix checked",
    .options = BENCH_OPT_MESH,
    .run = fem_suite_run,
    .estimate = fem_estimate,
    .box_edge = fem_box_edge,
};
