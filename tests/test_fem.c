/* strata fem end to end on the backend under test: assembly through pack + unpack_combine(ADD)
 * must equal the serial backend's, and Jacobi-CG must reach the manufactured solution. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fem.h"
#include "test_common.h"

static fem_options_t opts(void) {
  fem_options_t o = fem_options_default();
  o.backend = strata_exec_backend(T_exec);
  o.tol = 1e-10;
  return o;
}

static void check_result(const fem_result_t *r) {
  print_message("  %lld nodes, %lld tets, nnz %lld, %d iterations, residual %.2e, error %.2e, diff %.2e\n",
                (long long)r->num_nodes, (long long)r->num_tets, (long long)r->nnz, r->iterations,
                r->residual, r->error, r->matrix_diff);
  assert_true(r->converged);
  assert_true(r->residual <= 1e-9);
  /* b = A u_exact: the discrete solution is u_exact itself, so the error measures the solve */
  assert_true(r->error < 1e-7);
  assert_int_equal(r->unpack_invalid, 0);
  /* atomic ADD order differs between backends: rounding-level differences only */
  assert_true(isfinite(r->matrix_diff) && r->matrix_diff >= 0 && r->matrix_diff < 1e-13);
  assert_true(r->num_boundary > 0 && r->num_boundary < r->num_nodes);
}

static void test_fem_box(void **state) {
  (void)state;
  for (int n = 1; n <= 9; n += 4) {
    fem_options_t o = opts();
    o.box = n;
    fem_result_t r;
    T_OK(fem_run(&o, &r));
    assert_int_equal(r.num_tets, 6 * n * n * n);
    assert_int_equal(r.num_nodes, (n + 1) * (n + 1) * (n + 1));
    /* P1 graph of the Kuhn mesh: interior nodes have 15 neighbours including themselves */
    assert_true(r.nnz <= 15 * r.num_nodes);
    if (n == 1) {
      /* every node is a Dirichlet node: A = I, b = u_exact, one CG step */
      assert_int_equal(r.num_boundary, r.num_nodes);
      assert_true(r.converged);
      assert_true(r.error < 1e-14);
      continue;
    }
    check_result(&r);
  }
}

static void test_fem_saved_mesh(void **state) {
  (void)state;
  char path[] = "/tmp/strata_test_mesh_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  fem_options_t o = opts();
  o.box = 7;
  o.save_mesh = path;
  fem_result_t r1, r2;
  T_OK(fem_run(&o, &r1));
  fem_options_t o2 = opts();
  o2.mesh_path = path;
  T_OK(fem_run(&o2, &r2));
  unlink(path);
  check_result(&r2);
  assert_int_equal(r1.num_nodes, r2.num_nodes);
  assert_int_equal(r1.nnz, r2.nnz);
  /* unpack ADD uses atomics on parallel backends: the summation order, and so the last bits of
   * the matrix and of the CG iterates, may differ between two runs */
  assert_true(abs(r1.iterations - r2.iterations) <= 2);
  assert_true(r1.error < 1e-7);
}

/* issue 5 §4: bulk nodes tied by springs to half the boundary nodes: nearly dense rows whose
 * incoming packets are long, assembled in the same pack + unpack_combine(ADD) call */
static void test_fem_bulk_nodes(void **state) {
  (void)state;
  fem_options_t o = opts();
  o.box = 5;
  o.bulk_nodes = 2;
  o.bulk_fraction = 0.5;
  fem_result_t r, r0;
  T_OK(fem_run(&o, &r));
  check_result(&r);
  assert_int_equal(r.bulk_nodes, 2);
  assert_int_equal(r.bulk_ties, (r.num_boundary + 1) / 2);
  o.bulk_nodes = 0;
  T_OK(fem_run(&o, &r0));
  /* f is reported only with bulk nodes (a review: JSON "bulk_fraction": 0.5 without any; the text
   * leaves their line out) */
  assert_true(r0.bulk_fraction == 0);
  for (int k = 0; k < 2; ++k) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    fem_result_print(k ? &r : &r0, 1, f);
    fem_result_print(k ? &r : &r0, 0, f);
    fclose(f);
    const char *want[2][2] = {{"\"bulk_nodes\": 0, \"bulk_fraction\": null, \"bulk_ties\": 0,", NULL},
                              {"\"bulk_nodes\": 2, \"bulk_fraction\": 0.5, \"bulk_ties\": ", "K = 2, f = 0.5:"}};
    for (int w = 0; w < 2; ++w)
      if (want[k][w] && !strstr(text, want[k][w])) fail_msg("'%s' not in: %s", want[k][w], text);
    if (!k && strstr(text, "bulk nodes ")) fail_msg("a bulk line without bulk nodes: %s", text);
    free(text);
  }
  /* the bulk rows are decoupled (their ties are Dirichlet nodes) and u_exact is 0 there, so CG
   * sees the mesh's problem: the same iterations and accuracy (a review: with u_exact at the bulk
   * nodes, their rows dominated ||b||, and the same --tol gave a 250x larger error) */
  assert_true(abs(r.iterations - r0.iterations) <= 1);
  assert_true(r.error <= 2 * r0.error + 1e-15);
  /* each bulk node adds its diagonal, and two entries per tie */
  assert_int_equal(r.nnz, r0.nnz + 2 * (1 + 2 * r.bulk_ties));
  assert_int_equal(r.num_nodes, r0.num_nodes);
  /* the ties are round(f x boundary nodes), at least one, for any f in (0, 1] (they were every
   * round(1/f)-th node: f = 0.75 tied them all, and a tiny f overflowed the stride) */
  const double fs[] = {0.75, 0.3, 1.0, 1e-300};
  o.bulk_nodes = 1;
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; ++i) {
    o.bulk_fraction = fs[i];
    T_OK(fem_run(&o, &r));
    long long want = llround(fs[i] * (double)r.num_boundary);
    if (want < 1) want = 1;
    assert_int_equal(r.bulk_ties, want);
    assert_int_equal(r.nnz, r0.nnz + 1 + 2 * r.bulk_ties);
    assert_true(r.converged);
  }
}

static void test_fem_bulk_bad_options(void **state) {
  (void)state;
  fem_options_t o = opts();
  o.box = 2;
  fem_result_t r;
  o.bulk_nodes = FEM_MAX_BULK_NODES + 1;
  T_ERR(fem_run(&o, &r), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "outside [0, 1000]"));
  o.bulk_nodes = 1;
  o.bulk_fraction = 0;
  T_ERR(fem_run(&o, &r), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "outside (0, 1]"));
  o.bulk_fraction = 1.5;
  T_ERR(fem_run(&o, &r), STRATA_ERR_INVALID_ARGUMENT);
}

/* n mesh nodes + K bulk nodes above the 32-bit local index limit: a value beyond a limit
 * (INVALID_ARGUMENT naming both), checked before the mesh's arrays grow (a review found
 * OUT_OF_MEMORY "bulk nodes: N nodes" after the reallocations). fem_run reaches it only with a
 * mesh of 2^31 - 1000 nodes, so the check is tested on its own. */
static void test_fem_bulk_nodes_limit(void **state) {
  (void)state;
  T_OK(fem_bulk_nodes_check(INT32_MAX - 1000, 1000));
  T_OK(fem_bulk_nodes_check(0, FEM_MAX_BULK_NODES));
  t_expect_msg(fem_bulk_nodes_check(INT32_MAX - 999, 1000), STRATA_ERR_INVALID_ARGUMENT,
               "2147482648 mesh nodes + K = 1000 bulk nodes = 2147483648 nodes", "limit 2147483647");
  T_ERR(fem_bulk_nodes_check(INT32_MAX, 1), STRATA_ERR_INVALID_ARGUMENT);
}

static void test_fem_bad_mesh(void **state) {
  (void)state;
  fem_options_t o = opts();
  o.mesh_path = "/nonexistent/strata.msh";
  fem_result_t r;
  T_ERR(fem_run(&o, &r), STRATA_ERR_IO);
  assert_non_null(strstr(strata_error_message(), "/nonexistent/strata.msh"));
  /* a directory opens and has a size (ext4: its blocks), but reading it fails: the message gives
   * the OS reason (a review: "cannot read the header" without "Is a directory"; where seeking a
   * directory fails instead, tmpfs, the size's message gives "Invalid argument") */
  char dir[] = "/tmp/strata_test_meshdir_XXXXXX";
  assert_non_null(mkdtemp(dir));
  o.mesh_path = dir;
  strata_status_t st = fem_run(&o, &r);
  rmdir(dir);
  T_ERR(st, STRATA_ERR_IO);
  if (!strstr(strata_error_message(), strerror(EISDIR)) && !strstr(strata_error_message(), strerror(EINVAL)))
    fail_msg("no OS reason in: %s", strata_error_message());
}

/* a mesh path longer than 255 characters is reported whole, in the result and in both outputs
 * (a review: the report's 256-byte mesh field cut it silently) */
static void test_fem_long_mesh_path(void **state) {
  (void)state;
  char dir[] = "/tmp/strata_test_longmesh_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[400];
  int len = snprintf(path, sizeof path, "%s/", dir);
  while (len < 280) path[len++] = 'm'; /* a file name of 247 bytes: within NAME_MAX */
  strcpy(path + len, ".msh");
  fem_options_t o = opts();
  o.box = 2;
  o.save_mesh = path;
  fem_result_t r;
  T_OK(fem_run(&o, &r));
  o = opts();
  o.mesh_path = path;
  strata_status_t st = fem_run(&o, &r);
  unlink(path);
  rmdir(dir);
  T_OK(st);
  assert_string_equal(r.mesh, path);
  for (int json = 0; json <= 1; ++json) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    fem_result_print(&r, json, f);
    fclose(f);
    if (!strstr(text, path)) fail_msg("%s output without the whole path: %s", json ? "JSON" : "text", text);
    free(text);
  }
}

/* meshes the job cannot solve are refused before assembly, naming why (a review found that an
 * empty mesh with bulk nodes read uninitialised rows, and that an unused Dirichlet node failed
 * late in Jacobi); nothing is saved for them */
/* fem_run with options o on mesh m, saved to a temporary file for it (removed afterwards) */
static strata_status_t run_saved_mesh(const fem_mesh_t *m, fem_options_t o, fem_result_t *r) {
  char path[] = "/tmp/strata_test_mesh_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  char msg[256];
  assert_int_equal(fem_mesh_save(m, path, msg, sizeof msg), 0);
  o.mesh_path = path;
  const strata_status_t st = fem_run(&o, r);
  unlink(path);
  return st;
}

static void refuse_mesh(const fem_mesh_t *m, int bulk, const char *why) {
  fem_options_t o = opts();
  o.bulk_nodes = bulk;
  o.save_mesh = "/tmp/strata_test_badmesh_not_saved.msh";
  unlink(o.save_mesh);
  fem_result_t r;
  t_expect_msg(run_saved_mesh(m, o, &r), STRATA_ERR_INVALID_DATA, why, NULL);
  assert_int_equal(access(o.save_mesh, F_OK), -1);
}

static void test_fem_unsolvable_meshes(void **state) {
  (void)state;
  fem_mesh_t empty = {0, 0, NULL, NULL, NULL};
  refuse_mesh(&empty, 0, "no tetrahedron");
  refuse_mesh(&empty, 2, "no tetrahedron");
  /* one tet plus a fifth node flagged Dirichlet that no tet uses */
  double xyz[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  int32_t tets[4] = {0, 1, 2, 3};
  uint8_t bnd[5] = {1, 1, 1, 1, 1};
  fem_mesh_t loose = {5, 1, xyz, tets, bnd};
  refuse_mesh(&loose, 0, "belong to no tetrahedron (first: node 4, a Dirichlet node)");
  refuse_mesh(&loose, 2, "belong to no tetrahedron");
  /* two tets sharing no node, the second's nodes all interior: singular on that part (a review:
   * exit 0 and an error of 8e-2); then the same with one of its nodes Dirichlet: solved */
  double xyz8[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 3, 0, 0, 2, 1, 0, 2, 0, 1};
  int32_t tets2[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t bnd8[8] = {1, 1, 1, 0, 0, 0, 0, 0};
  fem_mesh_t apart = {8, 2, xyz8, tets2, bnd8};
  refuse_mesh(&apart, 0, "4 node(s) (first: node 4) lie in parts with no Dirichlet node");
  refuse_mesh(&apart, 1, "lie in parts with no Dirichlet node");
  bnd8[4] = 1;
  fem_result_t r;
  T_OK(run_saved_mesh(&apart, opts(), &r));
  assert_true(r.converged);
  /* finite coordinates whose tet volume overflows: 6*volume = +inf passed the "> 0" check and
   * the job failed late, in CG, with "p.Ap = -nan" (the element matrix was inf / inf) */
  double big[12] = {0, 0, 0, 1e200, 0, 0, 0, 1e200, 0, 0, 0, 1e200};
  uint8_t bnd4[4] = {1, 0, 0, 0};
  fem_mesh_t huge = {4, 1, big, tets, bnd4};
  refuse_mesh(&huge, 0, "6*volume inf");
  /* a tet stored twice (its nodes in another order, same orientation) was assembled twice
   * without a word (a second newcomer review) */
  double xyz5[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  int32_t twice[12] = {0, 1, 2, 3, 1, 2, 3, 4, 1, 2, 0, 3};
  uint8_t bnd5[5] = {1, 1, 1, 1, 1};
  fem_mesh_t dup = {5, 3, xyz5, twice, bnd5};
  refuse_mesh(&dup, 0, "tetrahedra 0 and 2 have the same nodes (0 1 2 3)");
}

/* meshes far from the unit cube's scale (a review). Coordinates times 1e-100: entries ~1e-100
 * beside Dirichlet rows of 1 let CG stop at once (b.b 1e-199, the interior residual's square
 * underflowing) and report "converged" with a 14 % error; now the Dirichlet rows are on the
 * interior's scale and u_exact is scaled by a power of two. Times 2^-300 (no bulk node): b.b
 * underflows to 0 without the scaling. Shifted to z ~ 1300: u_exact ~ exp(650) ~ 1e282, and b's
 * sums overflowed: the job blamed CG ("r.z = -nan"); now scaled. At z ~ 1500 exp(z / 2)
 * overflows: refused, naming the problem. Times 1e81 and shifted to z in [-1e81, 0] (a second
 * review): u_exact ~ x y z ~ 1e243 and b ~ 1e324 need a factor 2^-1077, below the smallest double:
 * kept as an exponent (it underflowed to 0, u_exact and b became 0, and CG "converged"). The last
 * mesh (a box of edge 8 scaled by 0.9428...) put the interior rows' mean diagonal, from which the
 * Dirichlet rows' diagonal was rounded to a power of two, at the rounding threshold: OpenMP's sum
 * and serial's rounded apart, and the matrices differed by 0.5; now the diagonal is the interior
 * rows' mean diagonal computed on the host from the geometry. The last two meshes: a box flattened
 * by 1e-10 in z (a third review: a diagonal from the mean tet volume missed the interior's scale
 * by 1e13, and CG stopped with a 63 % error), without and with bulk nodes. Then two graded boxes
 * of edge 16 (a fourth review: the arithmetic mean of the interior diagonals followed the few thin
 * cells, and CG stopped "converged" with errors of 83 % and 79 %): a layer 1.6e-12 thick at x = 0,
 * and x -> x^12; and (a fifth review: a geometric mean followed the thin cells once they were the
 * majority, 62 % error) x < 0.9 squeezed into 1.6e-12. Since then each Dirichlet row has its own
 * node's Laplace diagonal. */
static void test_fem_scaled_meshes(void **state) {
  (void)state;
  char msg[256];
  for (int k = 0; k < 11; ++k) {
    fem_mesh_t m;
    assert_int_equal(fem_mesh_box(k >= 8 ? 16 : k >= 5 ? 8 : 4, &m, msg, sizeof msg), 0);
    for (int64_t i = 0; i < 3 * m.num_nodes; ++i)
      m.xyz[i] = k == 0   ? m.xyz[i] * 1e-100
                 : k == 1 ? ldexp(m.xyz[i], -300)
                 : k == 4 ? m.xyz[i] * 1e81 - (i % 3 == 2 ? 1e81 : 0.0)
                 : k == 5 ? m.xyz[i] * 0.9428090415820634
                 : k == 8 ? (i % 3 == 0 && m.xyz[i] < 0.1 ? m.xyz[i] * 16e-13 : m.xyz[i])
                 : k == 9 ? (i % 3 == 0 ? pow(m.xyz[i], 12) : m.xyz[i])
                 : k == 10 ? (i % 3 == 0 && m.xyz[i] < 0.9 ? m.xyz[i] * 1.6e-12 : m.xyz[i])
                 : k >= 6 ? m.xyz[i] * (i % 3 == 2 ? 1e-10 : 1.0)
                          : m.xyz[i] + (i % 3 == 2 ? (k == 2 ? 1300.0 : 1500.0) : 0.0);
    fem_result_t r;
    fem_options_t o = opts();
    o.bulk_nodes = k == 0 || k == 7; /* the bulk row's springs (k = 1) beside entries ~1e-100 */
    if (k >= 5) {
      T_OK(run_saved_mesh(&m, o, &r));
      check_result(&r); /* includes the matrix's difference from serial's */
      assert_int_equal(r.u_scale_log2, 0);
    } else if (k != 3) {
      T_OK(run_saved_mesh(&m, o, &r));
      static const char *const what[] = {"1e-100", "2^-300", "z + 1300", "", "1e81, z - 1e81"};
      print_message("  scale %s: %d iterations, error %.2e, u_exact scale 2^%d\n", what[k], r.iterations, r.error,
                    r.u_scale_log2);
      assert_true(r.converged);
      assert_true(r.error < 1e-7);
      assert_true(r.iterations > 0);
      assert_true(r.u_scale_log2 != 0);
      if (k == 4) assert_true(r.u_scale_log2 < -1074);
    } else {
      t_expect_msg(run_saved_mesh(&m, o, &r), STRATA_ERR_INVALID_DATA,
                   "the manufactured problem is not finite on this mesh", "[1500, 1501]");
    }
    fem_mesh_destroy(&m);
  }
}

/* A box stretched by 1e-100 in x and 1e100 in y (a sixth review): the element matrices reach
 * 1e200, u_exact is scaled by 2^-661 so that b is near 1, and ||u_exact||^2 and ||u - u_exact||^2
 * underflowed to 0, so that CG stopped after one iteration reported a relative error of 0 (it is
 * 0.21). Now both norms are taken after scaling max |u_exact| to [0.5, 1). */
static void test_fem_stretched_error(void **state) {
  (void)state;
  char msg[256];
  fem_mesh_t m;
  assert_int_equal(fem_mesh_box(4, &m, msg, sizeof msg), 0);
  for (int64_t i = 0; i < 3 * m.num_nodes; ++i) m.xyz[i] *= i % 3 == 0 ? 1e-100 : i % 3 == 1 ? 1e100 : 1.0;
  fem_result_t r;
  fem_options_t o = opts();
  o.max_iter = 1;
  T_OK(run_saved_mesh(&m, o, &r));
  print_message("  one iteration: residual %.3e, error %.3e, u_exact scale 2^%d\n", r.residual, r.error,
                r.u_scale_log2);
  assert_false(r.converged);
  assert_true(r.u_scale_log2 < -600);
  assert_true(r.error > 0.1 && r.error < 1.0);
  T_OK(run_saved_mesh(&m, opts(), &r));
  assert_true(r.converged);
  assert_true(r.error < 1e-7);
  fem_mesh_destroy(&m);
}

/* a tet so flat that its element matrix overflows while its 6*volume (1e-300) is finite and
 * positive, so that the loader takes it: refused after the element kernel, naming the element
 * (it failed late, in CG, with "p.Ap = -nan is not positive") */
static void test_fem_degenerate_tet(void **state) {
  (void)state;
  double xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1e-300};
  int32_t tets[4] = {0, 1, 2, 3};
  uint8_t bnd[4] = {1, 0, 0, 0};
  fem_mesh_t flat = {4, 1, xyz, tets, bnd};
  fem_result_t r;
  t_expect_msg(run_saved_mesh(&flat, opts(), &r), STRATA_ERR_INVALID_DATA,
               "element 0 (nodes 0 1 2 3, 0-based): its stiffness matrix has a non-finite entry", NULL);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fem_box),
      cmocka_unit_test(test_fem_stretched_error),
      cmocka_unit_test(test_fem_saved_mesh),
      cmocka_unit_test(test_fem_bad_mesh),
      cmocka_unit_test(test_fem_long_mesh_path),
      cmocka_unit_test(test_fem_unsolvable_meshes),
      cmocka_unit_test(test_fem_degenerate_tet),
      cmocka_unit_test(test_fem_scaled_meshes),
      cmocka_unit_test(test_fem_bulk_nodes),
      cmocka_unit_test(test_fem_bulk_bad_options),
      cmocka_unit_test(test_fem_bulk_nodes_limit),
  };
  return T_RUN("fem", tests);
}
