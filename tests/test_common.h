/* strata tests — shared harness. Each test program runs on one backend, named by its first
 * argument (ctest registers one test per compiled backend); the serial backend is the oracle.
 * A GPU backend without a device exits 77, which ctest reports as skipped. */
#ifndef STRATA_TEST_COMMON_H
#define STRATA_TEST_COMMON_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "strata/strata.h"

/* the backend under test and the serial oracle, set by test_main */
extern strata_exec_t *T_exec;
extern strata_exec_t *T_serial;
extern uint64_t T_seed;

/* Fails the test with the status name and strata's message unless st == STRATA_SUCCESS. */
#define T_OK(st)                                                                              \
  do {                                                                                        \
    strata_status_t t_st_ = (st);                                                             \
    if (t_st_ != STRATA_SUCCESS)                                                              \
      fail_msg("%s returned %s: %s (seed %llu)", #st, strata_status_name(t_st_),              \
               strata_error_message(), (unsigned long long)T_seed);                           \
  } while (0)

/* Expects a given error status. */
#define T_ERR(st, want)                                                                       \
  do {                                                                                        \
    strata_status_t t_st_ = (st);                                                             \
    if (t_st_ != (want))                                                                      \
      fail_msg("%s returned %s, expected %s (message: %s)", #st, strata_status_name(t_st_),   \
               strata_status_name(want), strata_error_message());                             \
  } while (0)

/* The tests' random stream, reset to T_seed before each test by t_setup. */
extern uint64_t T_rng;
/* cmocka setup fixture: T_rng = T_seed and a cleared error message. */
int t_setup(void **state);

/* Expects st == want and strata_error_message() to contain every non-NULL needle (values and
 * limits the message must name). */
void t_expect_msg(strata_status_t st, strata_status_t want, const char *n1, const char *n2);

/* splitmix64: the tests' random numbers, reproducible from the printed seed */
static inline uint64_t t_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static inline double t_uniform(uint64_t *s) { return (double)(t_rand(s) >> 11) * 0x1.0p-53; }

/* Host memory that must not fail (at least 16 bytes, so zero sizes are fine). */
void *t_malloc(size_t bytes);

/* Device buffers of the backend under test, with host round trips. */
void *t_dev_alloc(size_t bytes);               /* poisoned with 0xFF bytes (NaN for doubles) */
void t_dev_free(void *p);
void *t_to_dev(const void *host, size_t bytes); /* allocate + copy */
void t_to_host(void *host, const void *dev, size_t bytes);

/* Relative difference |a-b| / max(|a|, |b|, tiny). */
static inline double t_reldiff(double a, double b) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return m < 1e-300 ? fabs(a - b) : fabs(a - b) / m;
}

/* Runs the group on the backend named by argv[1] (default: the build's default backend); argv[2],
 * when given, is a cmocka filter pattern selecting tests by name. */
int test_main(int argc, char **argv, const char *group, const struct CMUnitTest *tests, size_t n);
#define T_RUN(group, tests) test_main(argc, argv, group, tests, sizeof(tests) / sizeof((tests)[0]))

#endif
