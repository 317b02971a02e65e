/* strata bench — the unpack suite: pack + unpack_combine(ADD) of the FEM element rows of a box
 * mesh; unpack time per entry against the incoming row length (rowlenL records, "row_length");
 * then, beside strata's automatic classes, Tpetra's one-level and uniform-batch (16) baselines of
 * bench_unpack_base.c on 27-point rows, power-law rows, 27-point and banded rows of the power law's
 * size, and FEM element rows with bulk nodes. With --matrix, those inputs alone (row i a packet for
 * its own row i) against the baselines. Every backend's result, serial's too, is checked against
 * the sums built on the host from the element rows (bench_unpack_reference) before its time counts;
 * --unpack-options sets strata_unpack_options_t for strata's calls. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_harness.h"
#include "fem.h"

typedef struct {
  strata_exec_t *e;
  strata_crs_matrix_t *E, *G;
  int32_t *rows;
  strata_packets_t *pk;
} unpack_ctx;
static void unpack_ctx_free(unpack_ctx *u) {
  strata_packets_destroy(&u->pk);
  strata_crs_destroy(&u->E);
  strata_crs_destroy(&u->G);
  strata_mem_free(u->e, STRATA_MEM_DEVICE, (void **)&u->rows);
}
/* the serial buffers of an unpack input: element rows (offsets, columns, values), COO pattern */
static void serial_bufs_free(int64_t **off, int32_t **col, double **val, int32_t **gr, int32_t **gc) {
  strata_exec_t *s = bench_cfg.serial;
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)off);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)col);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)val);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)gr);
  strata_mem_free(s, STRATA_MEM_DEVICE, (void **)gc);
}
/* An unpack result h (host, nnz values) against the host reference o (bench_unpack_reference)
 * with strata's status st and report rep (NULL: a Tpetra baseline, which reports nothing): 1 when
 * it may be timed, else 0 and r is wrong, its message says why. */
static int unpack_checked(const bench_oracle_t *o, const double *h, int st, const strata_unpack_report_t *rep, bench_result_t *r) {
  int64_t first = -1;
  const int64_t bad = bench_oracle_compare(o, h, &first), inv = rep ? rep->invalid_entries : 0;
  if (!st && !inv && !bad) return 1;
  r->ok = 0;
  if (bad)
    snprintf(r->msg, sizeof r->msg, "status %d, %lld invalid entries, %lld values differ from the host reference (first "
             "%lld: %.17g, reference %.17g): time not counted", st, (long long)inv, (long long)bad, (long long)first,
             h[first], o->yref[first]);
  else
    snprintf(r->msg, sizeof r->msg, "status %d, %lld invalid entries: time not counted", st, (long long)inv);
  return 0;
}
static int pack_run(void *v, int64_t call) {
  unpack_ctx *u = (unpack_ctx *)v;
  strata_packets_t *p = NULL;
  (void)call;
  int st = strata_sparse_pack(u->e, u->E, u->E->num_rows, NULL, NULL, &p);
  strata_packets_destroy(&p);
  return st;
}
static int unpack_run(void *v, int64_t call) {
  unpack_ctx *u = (unpack_ctx *)v;
  (void)call;
  return strata_sparse_unpack_combine_opts(u->e, u->G, u->rows, u->pk, NULL, u->G->num_cols, STRATA_COMBINE_ADD, &bench_cfg.uopt, NULL);
}

/* cubes per edge of the unpack suite's box mesh at --scale 1 (bench_box_of_scale) */
#define UNPACK_BOX_EDGE 60

/* The unpack suite's box mesh (60^3 cubes x 6 tets, scaled; 8^3 with --quick): 0, or -1 (an error
 * record "input" of `what` with the message: exit 4) */
static int unpack_box_mesh(fem_mesh_t *mesh, int *box, const char *what) {
  char msg[256], m2[400], name[64];
  *box = bench_cfg.quick ? 8 : bench_box_of_scale(UNPACK_BOX_EDGE);
  if (fem_mesh_box(*box, mesh, msg, sizeof msg) == 0) return 0;
  snprintf(name, sizeof name, "box%d", *box);
  snprintf(m2, sizeof m2, "unpack %s: the box mesh: %s", what, msg);
  bench_input_error("unpack", name, m2);
  return -1;
}

/* An unpack input whose building failed (what: the step), said as an error record of name: exit 4.
 * st != 0: a strata call failed (its message follows), else host memory ran out. */
static void unpack_input_failed(const char *name, const char *what, int st) {
  char msg[400];
  snprintf(msg, sizeof msg, "unpack %s: %s: %s", name, what, st ? strata_error_message() : "out of host memory");
  bench_input_error("unpack", name, msg);
}

/* The host reference of an unpack input (bench_unpack_reference: the sums of E's rows into Gs's
 * pattern, and their tolerances) and a host buffer h for the results, Gs->nnz doubles each, into
 * *ref, *tol, *h (the caller frees them, also on failure). 0, or -1 after an input error record. */
static int unpack_oracle(const char *name, const strata_crs_matrix_t *E, const int32_t *rows,
                         const strata_crs_matrix_t *Gs, double **ref, double **tol, double **h) {
  char err[300] = "";
  *ref = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  *tol = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  *h = (double *)malloc((size_t)Gs->nnz * 8 + 8);
  if (!*ref || !*tol || !*h) {
    unpack_input_failed(name, "the reference's arrays", 0);
    return -1;
  }
  if (bench_unpack_reference(E, rows, Gs, *ref, *tol, err, sizeof err)) {
    bench_input_error("unpack", name, err);
    return -1;
  }
  return 0;
}

static void suite_unpack(void) {
  int box;
  fem_mesh_t mesh;
  char name[64];
  if (unpack_box_mesh(&mesh, &box, "element rows")) return;
  const int64_t nt = mesh.num_tets, nn = mesh.num_nodes, ne = 16 * nt;
  snprintf(name, sizeof name, "box%d_%lldtets", box, (long long)nt);
  /* element rows on the serial backend: row 4t+i holds tet t's nodes; values multiples of 1/4 */
  strata_exec_t *s = bench_cfg.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *rows = NULL, *gr = NULL, *gc = NULL;
  double *val = NULL, *ref = NULL, *tol = NULL, *h = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(4 * nt + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gc);
  if (st0 || !(rows = (int32_t *)malloc((size_t)(4 * nt) * 4))) {
    unpack_input_failed(name, "the element rows' buffers", st0);
    goto done;
  }
  for (int64_t t = 0; t < nt; ++t)
    for (int i = 0; i < 4; ++i) {
      off[4 * t + i] = 16 * t + 4 * i;
      rows[4 * t + i] = mesh.tets[4 * t + i];
      for (int j = 0; j < 4; ++j) {
        const int64_t q = 16 * t + 4 * i + j;
        col[q] = gc[q] = mesh.tets[4 * t + j];
        gr[q] = mesh.tets[4 * t + i];
        val[q] = 0.25 * (double)(1 + (q * 7 + (int64_t)bench_cfg.seed) % 9) * (i == j ? 3 : -1);
      }
    }
  off[4 * nt] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)(4 * nt), (int32_t)nn, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL; /* E owns them */
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)nn, (int32_t)nn, ne, gr, gc, NULL, &Gs))) {
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the element rows (strata_crs_create_from_csr)", st0);
    goto done;
  }
  if (unpack_oracle(name, E, rows, Gs, &ref, &tol, &h)) goto done; /* the reference of every backend */
  const bench_oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_exec_t *e = bench_cfg.ex[bi];
    strata_backend_t b = bench_cfg.be[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    bench_result_t *rp = bench_record_add("unpack", b, name, "pack"), *ru = bench_record_add("unpack", b, name, "unpack_combine_add");
    rp->rows = ru->rows = 4 * nt, rp->cols = ru->cols = nn, rp->nnz = ne, ru->nnz = Gs->nnz;
    rp->entries = ru->entries = (double)ne;
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)(4 * nt) * 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows, (size_t)(4 * nt) * 4) || strata_sparse_pack(e, u.E, u.E->num_rows, NULL, NULL, &u.pk)) {
      snprintf(rp->msg, sizeof rp->msg, "%s", strata_error_message()), snprintf(ru->msg, sizeof ru->msg, "%s", rp->msg);
      goto next;
    }
    strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
    strata_unpack_report_t rep;
    memset(&rep, 0, sizeof rep);
    int st = strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, nn, STRATA_COMBINE_ADD, &bench_cfg.uopt, &rep);
    bench_sync(e);
    const int copied = strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8) == STRATA_SUCCESS;
    if (!copied) snprintf(ru->msg, sizeof ru->msg, "the result to the host: %s", strata_error_message());
    rp->bytes = 12.0 * (double)ne + 8.0 * (double)(4 * nt + 1) + 2.0 * (double)u.pk->num_bytes; /* read E, write + scan */
    ru->bytes = (double)u.pk->num_bytes + 16.0 * (double)ne + 4.0 * (double)(4 * nt); /* packets, RMW values, rows */
    const int64_t bad_packets = bench_packets_wrong(E, u.pk); /* pack checked before its time counts */
    if (bad_packets) {
      rp->ok = 0;
      snprintf(rp->msg, sizeof rp->msg, "%lld of %lld packets differ from E's rows: time not counted",
               (long long)bad_packets, (long long)u.pk->num_rows);
    } else {
      bench_progress("unpack", name, rp->backend, "pack");
      rp->ok = bench_time(e, pack_run, &u, bench_cfg.min_time, &rp->t) ? -1 : 1;
      if (rp->ok < 0) snprintf(rp->msg, sizeof rp->msg, "%s", strata_error_message());
    }
    if (copied && unpack_checked(&o, h, st, &rep, ru)) {
      bench_progress("unpack", name, ru->backend, "unpack_combine_add");
      ru->ok = bench_time(e, unpack_run, &u, bench_cfg.min_time, &ru->t) ? -1 : 1;
      if (ru->ok < 0) snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
    }
  next:
    bench_record_emit(rp), bench_record_emit(ru);
    unpack_ctx_free(&u);
  }
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(ref);
  free(tol);
  free(h);
  fem_mesh_destroy(&mesh);
}

/* Unpack time per entry against the incoming row length (issue 6): TOTAL entries arrive as
 * packets of L entries each (L = 1, 2, 4, ...), so the plan's classes (short, medium, long, very
 * long) are each exercised; about 4 packets per global row, a packet's columns are L distinct
 * columns of its row's pattern (2L wide, spread over the columns). Values are multiples of 1/4;
 * every backend's sums are checked against the host reference before its time counts. */
static void unpack_rowlen_one(int64_t L, int64_t total) {
  const int64_t P = total / L > 0 ? total / L : 1, ne = P * L;
  const int64_t W = 2 * L > 4 ? 2 * L : 4;
  const int64_t n = P / 4 > 0 ? P / 4 : 1, nc = n > W ? n : W, step = nc / W;
  char name[64];
  snprintf(name, sizeof name, "rowlen%lld_%lldentries", (long long)L, (long long)ne);
  strata_exec_t *s = bench_cfg.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *gr = NULL, *gc = NULL, *rows = (int32_t *)malloc((size_t)P * 4);
  double *val = NULL, *ref = NULL, *tol = NULL, *h = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(P + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(n * W) * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(n * W) * 4, (void **)&gc);
  if (st0 || !rows) {
    unpack_input_failed(name, "the packets' and pattern's buffers", st0);
    goto done;
  }
  for (int64_t r = 0; r < n; ++r)
    for (int64_t k = 0; k < W; ++k) gr[r * W + k] = (int32_t)r, gc[r * W + k] = (int32_t)((r + k * step) % nc);
  uint64_t x = bench_cfg.seed * 0x9E3779B97F4A7C15ull + 12345;
  for (int64_t i = 0; i < P; ++i) {
    const int64_t r = i % n;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    const int64_t s0 = (int64_t)(x % (uint64_t)W);
    rows[i] = (int32_t)r;
    off[i] = i * L;
    for (int64_t j = 0; j < L; ++j) {
      const int64_t q = i * L + j;
      col[q] = (int32_t)((r + ((s0 + j) % W) * step) % nc);
      val[q] = 0.25 * (double)(1 + (q * 7 + (int64_t)bench_cfg.seed) % 9);
    }
  }
  off[P] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)P, (int32_t)nc, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL;
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)n, (int32_t)nc, n * W, gr, gc, NULL, &Gs))) {
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the packets' rows (strata_crs_create_from_csr)", st0);
    goto done;
  }
  if (unpack_oracle(name, E, rows, Gs, &ref, &tol, &h)) goto done;
  const bench_oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_exec_t *e = bench_cfg.ex[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    bench_result_t *ru = bench_record_add("unpack", bench_cfg.be[bi], name, "unpack_combine_add");
    ru->rows = P, ru->cols = nc, ru->nnz = Gs->nnz, ru->entries = (double)ne, ru->row_length = L;
    bench_progress("unpack", name, ru->backend, "unpack_combine_add");
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)P * 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows, (size_t)P * 4) || strata_sparse_pack(e, u.E, u.E->num_rows, NULL, NULL, &u.pk)) {
      snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
      goto next;
    }
    strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
    strata_unpack_report_t rep;
    memset(&rep, 0, sizeof rep);
    int st = strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, (int32_t)nc, STRATA_COMBINE_ADD, &bench_cfg.uopt, &rep);
    bench_sync(e);
    ru->bytes = (double)u.pk->num_bytes + 16.0 * (double)ne + 4.0 * (double)P; /* packets, RMW values, rows */
    if (strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8))
      snprintf(ru->msg, sizeof ru->msg, "the result to the host: %s", strata_error_message());
    else if (unpack_checked(&o, h, st, &rep, ru)) {
      ru->ok = bench_time(e, unpack_run, &u, bench_cfg.min_time, &ru->t) ? -1 : 1;
      if (ru->ok < 0) snprintf(ru->msg, sizeof ru->msg, "%s", strata_error_message());
    }
  next:
    bench_record_emit(ru);
    unpack_ctx_free(&u);
  }
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(ref);
  free(tol);
  free(h);
}

/* Baselines beside auto (issue 5 "Performance"): strata_sparse_unpack_combine (auto classes),
 * Tpetra's original one-level scheme and its uniform batches of 16 (bench_unpack_base.c), on the
 * packets of E's rows (serial) into targets rows_h[k] of G's pattern (serial). Every result, the
 * serial backend's too, is checked against the sums built on the host from E's rows
 * (bench_unpack_reference) before its time counts. */
static void unpack_versus(const char *name, strata_crs_matrix_t *E, strata_crs_matrix_t *Gs, const int32_t *rows_h) {
  static const char *const algo[3] = {"unpack_combine_add", "tpetra_one_level", "tpetra_batched16"};
  const int64_t np = E->num_rows;
  double *ref = NULL, *tol = NULL, *h = NULL;
  if (unpack_oracle(name, E, rows_h, Gs, &ref, &tol, &h)) goto done;
  const bench_oracle_t o = {ref, tol, Gs->nnz};
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    strata_exec_t *e = bench_cfg.ex[bi];
    unpack_ctx u = {e, NULL, NULL, NULL, NULL};
    bench_unpack_base_t *base = NULL;
    bench_result_t *r[3] = {NULL, NULL, NULL};
    for (int a = 0; a < 3; ++a) {
      r[a] = bench_record_add("unpack", bench_cfg.be[bi], name, algo[a]);
      r[a]->rows = np, r[a]->cols = Gs->num_cols, r[a]->nnz = Gs->nnz, r[a]->entries = (double)E->nnz;
    }
    if (strata_crs_copy(e, E, &u.E) || strata_crs_copy(e, Gs, &u.G) ||
        strata_mem_alloc(e, STRATA_MEM_DEVICE, (size_t)np * 4 + 4, (void **)&u.rows) ||
        strata_mem_copy(e, u.rows, rows_h, (size_t)np * 4) || strata_sparse_pack(e, u.E, np, NULL, NULL, &u.pk) ||
        bench_unpack_base_create(e, u.G, u.rows, u.pk, &base)) {
      for (int a = 0; a < 3; ++a) snprintf(r[a]->msg, sizeof r[a]->msg, "%s", strata_error_message());
      goto next;
    }
    for (int a = 0; a < 3; ++a) {
      strata_mem_set_async(e, u.G->values, 0, (size_t)u.G->nnz * 8);
      strata_unpack_report_t rep;
      memset(&rep, 0, sizeof rep);
      int st = a == 0 ? strata_sparse_unpack_combine_opts(e, u.G, u.rows, u.pk, NULL, u.G->num_cols, STRATA_COMBINE_ADD, &bench_cfg.uopt, &rep)
               : a == 1 ? bench_unpack_one_level(base, 0) : bench_unpack_batched(base, 0);
      bench_sync(e);
      bench_progress("unpack", name, r[a]->backend, algo[a]);
      r[a]->bytes = (double)u.pk->num_bytes + 16.0 * (double)E->nnz + 4.0 * (double)np; /* packets, RMW values, rows */
      if (strata_mem_copy(e, h, u.G->values, (size_t)u.G->nnz * 8)) {
        snprintf(r[a]->msg, sizeof r[a]->msg, "the result to the host: %s", strata_error_message());
        continue;
      }
      if (!unpack_checked(&o, h, st, a == 0 ? &rep : NULL, r[a])) continue;
      r[a]->ok = bench_time(e, a == 0 ? unpack_run : a == 1 ? bench_unpack_one_level : bench_unpack_batched,
                            a == 0 ? (void *)&u : (void *)base, bench_cfg.min_time, &r[a]->t) ? -1 : 1;
      if (r[a]->ok < 0) snprintf(r[a]->msg, sizeof r[a]->msg, "%s", strata_error_message());
    }
  next:
    for (int a = 0; a < 3; ++a) bench_record_emit(r[a]);
    bench_unpack_base_destroy(&base);
    unpack_ctx_free(&u);
  }
done:
  free(ref);
  free(tol);
  free(h);
}

/* A generated matrix as packets: row i of A is a packet for row i of its own pattern (each target
 * entry receives exactly one value: exact on every backend). */
static void unpack_versus_gen(const char *spec) {
  strata_crs_matrix_t *A = NULL;
  char name[96];
  if (bench_load_spec("unpack", spec, &A, name, sizeof name)) return;
  int32_t *rows = (int32_t *)malloc((size_t)A->num_rows * 4 + 4);
  int64_t longest = 0;
  int st = 0;
  if (!rows || (st = strata_crs_row_lengths_max(bench_cfg.serial, A, &longest))) {
    unpack_input_failed(name, rows ? "its longest row (strata_crs_row_lengths_max)" : "the target rows", st);
    free(rows);
    strata_crs_destroy(&A);
    return;
  }
  for (int32_t i = 0; i < A->num_rows; ++i) rows[i] = i;
  char full[160];
  snprintf(full, sizeof full, "%s_%lldentries_longest%lld", name, (long long)A->nnz, (long long)longest);
  bench_unique_name("unpack", full, sizeof full);
  unpack_versus(full, A, A, rows);
  free(rows);
  strata_crs_destroy(&A);
}

/* The FEM element rows of a box mesh with K bulk nodes (issue 5 §4 as in `strata fem`), tied
 * by springs to every 2nd boundary node: per tet 4 rows of 4; per bulk node one row of 2 entries
 * per tie; per spring a row of 2. Values multiples of 1/4: exact sums. */
static void unpack_versus_fem_bulk(void) {
  const int64_t K = 4;
  int box;
  fem_mesh_t mesh;
  char name[96];
  if (unpack_box_mesh(&mesh, &box, "fem rows with bulk nodes")) return;
  const int64_t nt = mesh.num_tets, nm = mesh.num_nodes, n = nm + K;
  int64_t m = 0, c = 0;
  int32_t *sel = (int32_t *)malloc((size_t)nm * 4);
  if (!sel) {
    snprintf(name, sizeof name, "fem_box%d_bulk%lld", box, (long long)K);
    unpack_input_failed(name, "the tied nodes", 0);
    fem_mesh_destroy(&mesh);
    return;
  }
  for (int64_t i = 0; i < nm; ++i)
    if (mesh.on_boundary[i] && c++ % 2 == 0) sel[m++] = (int32_t)i;
  const int64_t nr = 4 * nt + K + K * m, ne = 16 * nt + 4 * K * m;
  snprintf(name, sizeof name, "fem_box%d_bulk%lldx%lld_%lldentries", box, (long long)K, (long long)m, (long long)ne);
  strata_exec_t *s = bench_cfg.serial;
  int64_t *off = NULL;
  int32_t *col = NULL, *gr = NULL, *gc = NULL, *rows = (int32_t *)malloc((size_t)nr * 4);
  double *val = NULL;
  strata_crs_matrix_t *E = NULL, *Gs = NULL;
  int st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)(nr + 1) * 8, (void **)&off);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&col);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 8, (void **)&val);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gr);
  if (!st0) st0 = strata_mem_alloc(s, STRATA_MEM_DEVICE, (size_t)ne * 4, (void **)&gc);
  if (st0 || !rows) {
    unpack_input_failed(name, "the element rows' buffers", st0);
    goto done;
  }
  int64_t q = 0, r = 0;
#define PUT(row, cc, v) (col[q] = gc[q] = (int32_t)(cc), gr[q] = (int32_t)(row), val[q] = (v), ++q)
  for (int64_t t = 0; t < nt; ++t)
    for (int i = 0; i < 4; ++i, ++r) {
      off[r] = q;
      rows[r] = mesh.tets[4 * t + i];
      for (int j = 0; j < 4; ++j)
        PUT(rows[r], mesh.tets[4 * t + j], 0.25 * (double)(1 + (q * 7 + (int64_t)bench_cfg.seed) % 9) * (i == j ? 3 : -1));
    }
  for (int64_t b = 0; b < K; ++b, ++r) { /* bulk node nm + b: its springs' rows concatenated */
    off[r] = q;
    rows[r] = (int32_t)(nm + b);
    for (int64_t k = 0; k < m; ++k) PUT(nm + b, nm + b, 1.0), PUT(nm + b, sel[k], -1.0);
  }
  for (int64_t b = 0; b < K; ++b)
    for (int64_t k = 0; k < m; ++k, ++r) {
      off[r] = q;
      rows[r] = sel[k];
      PUT(sel[k], sel[k], 1.0), PUT(sel[k], nm + b, -1.0);
    }
#undef PUT
  off[nr] = ne;
  if ((st0 = strata_crs_create_from_csr(s, (int32_t)nr, (int32_t)n, ne, off, col, val, STRATA_CRS_ADOPT, &E)) == 0)
    off = NULL, col = NULL, val = NULL;
  if (st0 || (st0 = strata_crs_create_from_coo(s, (int32_t)n, (int32_t)n, ne, gr, gc, NULL, &Gs)))
    unpack_input_failed(name, E ? "the target pattern (strata_crs_create_from_coo)" : "the element rows (strata_crs_create_from_csr)", st0);
  else
    unpack_versus(name, E, Gs, rows);
done:
  strata_crs_destroy(&E);
  strata_crs_destroy(&Gs);
  serial_bufs_free(&off, &col, &val, &gr, &gc);
  free(rows);
  free(sel);
  fem_mesh_destroy(&mesh);
}

/* 27-point uniform rows, power-law rows (full run: about 4.4 M entries, the longest 200 k, 7.6 a
 * row on average; --quick and --scale shrink them), then two uniform inputs of about the power
 * law's entries: 27-point rows (55^3: 4.33 M; --quick 24^3: 343 k against 349 k) and banded rows
 * of the power law's mean length (550 k rows of 8: 4.4 M; --quick 50 k of 7), then FEM element
 * rows with bulk nodes. Issue 5 compares the power law's time per entry with the uniform one's:
 * at one size, a call's fixed cost (about 0.05-0.06 ms on the H200: two waits for the device, the
 * small launches; 11-14 ps an entry at 4.4 M entries, 2 at the 26 M of 100^3) counts alike, and
 * with rows of one mean length, so do the costs that depend on the packets' lengths (packets of 8
 * cost more per entry than packets of 27); what the last comparison leaves is the cost of the
 * spread of the power law's lengths. */
#define UNPACK_BASE_RECORDS 15
static void suite_unpack_baselines(void) {
  unpack_versus_gen("gen:poisson27");
  unpack_versus_gen(bench_cfg.quick ? "gen:powerlaw" : "gen:powerlaw:580000:2.1:200000");
  unpack_versus_gen(bench_cfg.quick ? "gen:poisson27:24" : "gen:poisson27:55");
  unpack_versus_gen(bench_cfg.quick ? "gen:banded:50000:7" : "gen:banded:550000:8");
  unpack_versus_fem_bulk();
}
/* --matrix given: those inputs alone (row i a packet for row i), against the baselines */
static void suite_unpack_inputs(const bench_list_t *specs) {
  bench_list_t list = {0};
  bench_expand_specs("unpack", specs, &list);
  for (int i = 0; i < list.n; ++i) unpack_versus_gen(list.v[i]);
  bench_list_free(&list);
}

static int rowlen_count(void) { return bench_cfg.quick ? 5 : 13; }
static void suite_unpack_rowlen(void) {
  int host_only = 1;
  for (int bi = 0; bi < bench_cfg.nb; ++bi) host_only &= strata_exec_is_host(bench_cfg.ex[bi]);
  const int64_t total = (int64_t)((bench_cfg.quick ? 1 << 15 : host_only ? 1 << 22 : 1 << 24) * bench_cfg.scale);
  for (int i = 0; i < rowlen_count(); ++i) unpack_rowlen_one(bench_cfg.quick ? (int64_t)1 << (2 * i) : (int64_t)1 << i, total);
}

static void unpack_suite_run(const bench_inputs_t *in) {
  if (in->given) suite_unpack_inputs(in->specs);
  else suite_unpack(), suite_unpack_rowlen(), suite_unpack_baselines();
}
static int unpack_estimate(const bench_inputs_t *in) {
  return bench_cfg.nb * (in->given ? 3 * in->matrices : 2 + rowlen_count() + UNPACK_BASE_RECORDS);
}
static int unpack_box_edge(const bench_inputs_t *in) { return in->given ? 0 : UNPACK_BOX_EDGE; }

const bench_suite_t bench_suite_unpack = {
    .name = "unpack",
    .help = "pack + unpack_combine(ADD): FEM element rows, row lengths, Tpetra's schemes beside strata",
    .options = BENCH_OPT_MATRIX | BENCH_OPT_UNPACK_OPTIONS,
    .run = unpack_suite_run,
    .estimate = unpack_estimate,
    .box_edge = unpack_box_edge,
};
