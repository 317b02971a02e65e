/* strata tests — the bench harness's checks (apps/bench): a pack result is compared with the
 * packets of its rows built on the host (bench_packets_wrong), and a wrong packet is found. */
#include "test_common.h"

#include "bench.h"

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

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test_setup(test_packets_wrong, t_setup)};
  return T_RUN("bench_check", tests);
}
