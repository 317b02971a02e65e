/* strata tests — the bench harness's checks (perf/): a pack result is compared with the
 * packets of its rows built on the host (bench_packets_wrong), and a wrong packet is found; the
 * host reference of unpack_combine(ADD) (bench_unpack_reference) gives the sums worked out by hand
 * and refuses an entry with no place in its target row; the FEM job's assembled matrix agrees with
 * the host assembly (bench_fem_matrix_diff), and a changed value, bulk diagonal or pattern is found. */
#include "test_common.h"

#include "bench.h"
#include "fem.h"

static void test_packets_wrong(void **state) {
  (void)state;
  int64_t off[4] = {0, 2, 2, 5};
  int32_t col[5] = {0, 2, 1, 0, 2};
  double val[5] = {1.0, -2.0, 0.25, 3.0, 4.0};
  strata_crs_matrix_t *E = NULL, *Ee = NULL;
  T_OK(strata_crs_create_from_csr(T_serial, 3, 3, 5, off, col, val, STRATA_CRS_COPY, &E));
  T_OK(strata_crs_copy(T_exec, E, &Ee));
  strata_packets_t *pk = NULL;
  T_OK(strata_sparse_pack(T_exec, Ee, Ee->num_rows, NULL, NULL, &pk));
  assert_int_equal(bench_packets_wrong(E, pk), 0);
  /* one value of packet 2 changed: one wrong packet */
  int64_t o[4];
  T_OK(strata_mem_copy(T_exec, o, pk->offsets, sizeof o));
  double *v = (double *)(pk->data + o[2]) + 1 + 3 + 1, x = 0;
  T_OK(strata_mem_copy(T_exec, &x, v, 8));
  x += 0.25;
  T_OK(strata_mem_copy(T_exec, v, &x, 8));
  assert_int_equal(bench_packets_wrong(E, pk), 1);
  x -= 0.25;
  T_OK(strata_mem_copy(T_exec, v, &x, 8));
  /* a column changed */
  int64_t *c = (int64_t *)(pk->data + o[0]) + 2, y = 0;
  T_OK(strata_mem_copy(T_exec, &y, c, 8));
  y = 1;
  T_OK(strata_mem_copy(T_exec, c, &y, 8));
  assert_int_equal(bench_packets_wrong(E, pk), 1);
  strata_packets_destroy(&pk);
  strata_crs_destroy(&Ee);
  strata_crs_destroy(&E);
}

/* sparse.h lays packet k out as exactly 8 + 16 count bytes (unpack_combine reports a longer one
 * malformed): packets with slack after a row's values are not E's packets */
static void test_packets_slack(void **state) {
  (void)state;
  int64_t off[3] = {0, 1, 1};
  int32_t col[1] = {0};
  double val[1] = {1.5};
  strata_crs_matrix_t *E = NULL;
  T_OK(strata_crs_create_from_csr(T_serial, 2, 1, 1, off, col, val, STRATA_CRS_COPY, &E));
  /* packet 0: count 1, column 0, value 1.5, then 8 bytes of slack; packet 1: count 0 */
  int64_t poff[3] = {0, 32, 40};
  int64_t data[5] = {1, 0, 0, 0, 0};
  memcpy(&data[2], &val[0], 8);
  strata_packets_t pk = {T_serial, 2, poff, (unsigned char *)data, 40, 0};
  assert_int_equal(bench_packets_wrong(E, &pk), 1);
  /* the same without the slack: right */
  int64_t poff2[3] = {0, 24, 32};
  int64_t data2[4] = {1, 0, 0, 0};
  memcpy(&data2[2], &val[0], 8);
  strata_packets_t pk2 = {T_serial, 2, poff2, (unsigned char *)data2, 32, 0};
  assert_int_equal(bench_packets_wrong(E, &pk2), 0);
  strata_crs_destroy(&E);
}

static void test_unpack_reference(void **state) {
  (void)state;
  /* target pattern G (3 x 4): row 0 {0, 2}, row 1 {1}, row 2 {0, 1, 3} */
  int64_t goff[4] = {0, 2, 3, 6};
  int32_t gcol[6] = {0, 2, 1, 0, 1, 3};
  double gval[6] = {9, 9, 9, 9, 9, 9}; /* not read: the reference starts from zero */
  /* packets: rows of E into targets rows[k] (row 0 twice, a column twice in one packet) */
  int64_t eoff[5] = {0, 2, 3, 6, 7};
  int32_t ecol[7] = {2, 0, 1, 3, 3, 0, 2};
  double eval[7] = {1.0, -2.0, 0.5, 4.0, -1.0, 0.25, 3.0};
  int32_t rows[4] = {0, 1, 2, 0};
  strata_crs_matrix_t *Gm = NULL, *E = NULL;
  T_OK(strata_crs_create_from_csr(T_serial, 3, 4, 6, goff, gcol, gval, STRATA_CRS_COPY, &Gm));
  T_OK(strata_crs_create_from_csr(T_serial, 4, 4, 7, eoff, ecol, eval, STRATA_CRS_COPY, &E));
  double ref[6], tol[6];
  char err[200] = "";
  assert_int_equal(bench_unpack_reference(E, rows, Gm, ref, tol, err, sizeof err), 0);
  const double want[6] = {-2.0, 4.0, 0.5, 0.25, 0.0, 3.0};
  const int64_t cnt[6] = {1, 2, 1, 1, 0, 2}; /* contributions: tol = 4 eps (cnt + 2) sum |v| */
  const double abs_sum[6] = {2.0, 4.0, 0.5, 0.25, 0.0, 5.0};
  for (int q = 0; q < 6; ++q) {
    assert_true(ref[q] == want[q]);
    assert_true(tol[q] == 4.0 * 0x1.0p-52 * (double)(cnt[q] + 2) * abs_sum[q]);
  }
  /* strata's unpack on the backend under test gives the same sums */
  strata_crs_matrix_t *Ge = NULL, *Ee = NULL;
  strata_packets_t *pk = NULL;
  int32_t *rows_e = NULL;
  T_OK(strata_crs_copy(T_exec, Gm, &Ge));
  T_OK(strata_crs_copy(T_exec, E, &Ee));
  T_OK(strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, sizeof rows, (void **)&rows_e));
  T_OK(strata_mem_copy(T_exec, rows_e, rows, sizeof rows));
  T_OK(strata_mem_set_async(T_exec, Ge->values, 0, 6 * sizeof(double)));
  T_OK(strata_sparse_pack(T_exec, Ee, 4, NULL, NULL, &pk));
  T_OK(strata_sparse_unpack_combine(T_exec, Ge, rows_e, pk, NULL, 4, STRATA_COMBINE_ADD, NULL));
  double got[6];
  T_OK(strata_mem_copy(T_exec, got, Ge->values, sizeof got));
  for (int q = 0; q < 6; ++q) assert_true(fabs(got[q] - ref[q]) <= tol[q]);
  /* a column with no place in its target row (column 3 in row 0), a target row out of range */
  rows[2] = 0;
  assert_int_equal(bench_unpack_reference(E, rows, Gm, ref, tol, err, sizeof err), -1);
  assert_non_null(strstr(err, "packet 2, column 3 is not in target row 0's pattern"));
  rows[2] = 3;
  assert_int_equal(bench_unpack_reference(E, rows, Gm, ref, tol, err, sizeof err), -1);
  assert_non_null(strstr(err, "packet 2 targets row 3, outside [0, 3)"));
  strata_packets_destroy(&pk);
  strata_mem_free(T_exec, STRATA_MEM_DEVICE, (void **)&rows_e);
  strata_crs_destroy(&Ge);
  strata_crs_destroy(&Ee);
  strata_crs_destroy(&Gm);
  strata_crs_destroy(&E);
}

/* one value of A (host copy) changed by dv at (row, k-th entry of the row), as a matrix on T_exec */
static strata_crs_matrix_t *changed(const strata_crs_matrix_t *Ah, int32_t row, int64_t k, double dv, int32_t col) {
  strata_crs_matrix_t *B = NULL, *Be = NULL;
  T_OK(strata_crs_copy(T_serial, Ah, &B));
  B->values[B->row_offsets[row] + k] += dv;
  if (col >= 0) B->col_indices[B->row_offsets[row] + k] = col;
  T_OK(strata_crs_copy(T_exec, B, &Be));
  strata_crs_destroy(&B);
  return Be;
}

static void test_fem_matrix_diff(void **state) {
  (void)state;
  fem_mesh_t mesh;
  char msg[300] = "";
  strata_crs_matrix_t *S = NULL, *A = NULL, *Ah = NULL, *B = NULL;
  assert_int_equal(fem_mesh_box(3, &mesh, msg, sizeof msg), 0);
  assert_int_equal(bench_fem_assemble(T_serial, &mesh, 1, &S, msg, sizeof msg), 0);
  const int32_t n = S->num_rows, mid = 1 * 16 + 1 * 4 + 1; /* an interior node of the 4^3 grid */
  for (int bulk = 0; bulk <= 2; bulk += 2) {
    fem_options_t o = fem_options_default();
    fem_result_t res;
    double d = -1;
    o.box = 3, o.bulk_nodes = bulk, o.compare = 0, o.matrix_out = &A;
    o.backend = strata_exec_backend(T_exec);
    T_OK(fem_run(&o, &res));
    assert_non_null(A);
    assert_int_equal(A->num_rows, n + bulk);
    assert_int_equal(bench_fem_matrix_diff(S, A, res.bulk_ties, &d, msg, sizeof msg), 0);
    assert_true(d <= 1e-12);
    T_OK(strata_crs_copy(T_serial, A, &Ah));
    /* an interior row's entry off by 1e-9 of the row's largest */
    double big = 0;
    for (int64_t k = Ah->row_offsets[mid]; k < Ah->row_offsets[mid + 1]; ++k) big = fmax(big, fabs(Ah->values[k]));
    B = changed(Ah, mid, 1, 1e-9 * big, -1);
    assert_int_equal(bench_fem_matrix_diff(S, B, res.bulk_ties, &d, msg, sizeof msg), 0);
    assert_true(d > 1e-12 && d < 1e-8);
    strata_crs_destroy(&B);
    /* a column changed: another pattern */
    const int32_t c0 = Ah->col_indices[Ah->row_offsets[mid]];
    B = changed(Ah, mid, 0, 0, c0 > 0 ? c0 - 1 : c0 + 1);
    assert_int_equal(bench_fem_matrix_diff(S, B, res.bulk_ties, &d, msg, sizeof msg), 0);
    assert_true(isinf(d));
    strata_crs_destroy(&B);
    if (bulk) { /* a bulk row's diagonal (its last entry) one spring short */
      const int32_t r = n + 1;
      B = changed(Ah, r, Ah->row_offsets[r + 1] - Ah->row_offsets[r] - 1, -FEM_SPRING_K, -1);
      assert_int_equal(bench_fem_matrix_diff(S, B, res.bulk_ties, &d, msg, sizeof msg), 0);
      assert_true(d > 1e-3);
      strata_crs_destroy(&B);
    }
    strata_crs_destroy(&Ah);
    strata_crs_destroy(&A);
  }
  strata_crs_destroy(&S);
  fem_mesh_destroy(&mesh);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test_setup(test_packets_wrong, t_setup),
                                     cmocka_unit_test_setup(test_packets_slack, t_setup),
                                     cmocka_unit_test_setup(test_unpack_reference, t_setup),
                                     cmocka_unit_test_setup(test_fem_matrix_diff, t_setup)};
  return T_RUN("bench_check", tests);
}
