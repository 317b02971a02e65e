#include "test_common.h"

strata_exec_t *T_exec;
strata_exec_t *T_serial;
uint64_t T_seed;
uint64_t T_rng;

int t_setup(void **state) {
  (void)state;
  T_rng = T_seed;
  strata_error_clear();
  return 0;
}

void t_expect_msg(strata_status_t st, strata_status_t want, const char *n1, const char *n2) {
  if (st != want)
    fail_msg("returned %s, expected %s (message: %s)", strata_status_name(st),
             strata_status_name(want), strata_error_message());
  if (n1 && !strstr(strata_error_message(), n1))
    fail_msg("message '%s' does not name '%s'", strata_error_message(), n1);
  if (n2 && !strstr(strata_error_message(), n2))
    fail_msg("message '%s' does not name '%s'", strata_error_message(), n2);
}

void *t_malloc(size_t bytes) {
  void *p = malloc(bytes < 16 ? 16 : bytes);
  assert_non_null(p);
  return p;
}

void *t_dev_alloc(size_t bytes) {
  void *p = NULL;
  if (strata_mem_alloc(T_exec, STRATA_MEM_DEVICE, bytes, &p) != STRATA_SUCCESS)
    fail_msg("device allocation of %zu bytes: %s", bytes, strata_error_message());
  if (p && strata_mem_set_async(T_exec, p, 0xFF, bytes) != STRATA_SUCCESS)
    fail_msg("poison: %s", strata_error_message());
  strata_exec_fence(T_exec);
  return p;
}
void t_dev_free(void *p) { strata_mem_free(T_exec, STRATA_MEM_DEVICE, &p); }
void *t_to_dev(const void *host, size_t bytes) {
  void *p = t_dev_alloc(bytes);
  if (bytes && strata_mem_copy(T_exec, p, host, bytes) != STRATA_SUCCESS)
    fail_msg("copy to device: %s", strata_error_message());
  return p;
}
void t_to_host(void *host, const void *dev, size_t bytes) {
  if (bytes && strata_mem_copy(T_exec, host, dev, bytes) != STRATA_SUCCESS)
    fail_msg("copy to host: %s", strata_error_message());
}

int test_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n) {
  const char *name = argc > 1 ? argv[1] : "default";
  /* argv[2]: run only the tests whose names match this cmocka pattern (e.g. "test_team_sort") */
  if (argc > 2) cmocka_set_test_filter(argv[2]);
  strata_backend_t b;
  if (strata_backend_from_name(name, &b) != STRATA_SUCCESS) {
    fprintf(stderr, "%s\n", strata_error_message());
    return 2;
  }
  if (strata_init(NULL) != STRATA_SUCCESS) {
    fprintf(stderr, "strata_init: %s\n", strata_error_message());
    return 1;
  }
  if (b == STRATA_BACKEND_DEFAULT) b = strata_backend_default();
  int count = 0;
  strata_status_t st = strata_backend_device_count(b, &count);
  if (st != STRATA_SUCCESS || count == 0) {
    printf("[  SKIPPED ] %s on backend '%s': %s\n", group, strata_backend_name(b),
           st != STRATA_SUCCESS ? strata_error_message() : "no device present");
    strata_finalize();
    return 77;
  }
  if (strata_exec_default(b, &T_exec) != STRATA_SUCCESS ||
      strata_exec_default(STRATA_BACKEND_SERIAL, &T_serial) != STRATA_SUCCESS) {
    fprintf(stderr, "execution space: %s\n", strata_error_message());
    return 1;
  }
  const char *s = getenv("STRATA_TEST_SEED");
  T_seed = s && *s ? strtoull(s, NULL, 0) : 20261129ull;
  printf("[ strata   ] group %s, backend %s, seed %llu (set STRATA_TEST_SEED to change)\n", group,
         strata_backend_name(b), (unsigned long long)T_seed);
  char full[256];
  snprintf(full, sizeof full, "%s.%s", group, strata_backend_name(b));
  int failed = _cmocka_run_group_tests(full, tests, n, NULL, NULL);
  strata_finalize();
  return failed ? 1 : 0;
}
