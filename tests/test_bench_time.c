/* strata tests — the bench harness's timing (perf/bench_time.c, bench.h): a sample of R
 * back-to-back calls lasts at least 1 ms (MIN_BATCH_S), whatever the single call that sizes R
 * measured, and samples are taken until min_time has passed. Calls are host busy-waits of known
 * length, so the numbers do not depend on the backend. */
#include "test_common.h"

#include "bench.h"

typedef struct {
  double call_s;  /* length of every call */
  double slow_s;  /* length of call number slow_call (-1: none) */
  int64_t slow_call;
  int64_t calls;
} busy_t;

static int busy(void *v, int64_t call) {
  busy_t *b = (busy_t *)v;
  const double len = call == b->slow_call ? b->slow_s : b->call_s;
  const double t0 = strata_timer_now();
  while (strata_timer_now() - t0 < len) {
  }
  ++b->calls;
  return 0;
}

/* calls of 0.6 ms: R = 1 would make samples of 0.6 ms */
static void test_samples_at_least_1ms(void **state) {
  (void)state;
  busy_t b = {6e-4, 0, -1, 0};
  bench_stats_t s;
  memset(&s, 0, sizeof s);
  assert_int_equal(bench_time(T_exec, busy, &b, 0.02, &s), 0);
  assert_true(s.samples >= 5);
  if (s.min * s.reps < 1e-3)
    fail_msg("shortest sample %.3g ms (%d calls of %.3g ms): samples must last at least 1 ms", 1e3 * s.min * s.reps,
             s.reps, 1e3 * s.min);
}

/* the single call that sizes R (the third: after two warm-up calls) is slow; the others are fast */
static void test_samples_at_least_1ms_slow_probe(void **state) {
  (void)state;
  busy_t b = {3e-4, 4e-3, 2, 0};
  bench_stats_t s;
  memset(&s, 0, sizeof s);
  assert_int_equal(bench_time(T_exec, busy, &b, 0.02, &s), 0);
  if (s.min * s.reps < 1e-3)
    fail_msg("shortest sample %.3g ms (%d calls of %.3g ms): samples must last at least 1 ms", 1e3 * s.min * s.reps,
             s.reps, 1e3 * s.min);
  /* the slow call (4 ms) is not what the samples measure: their median call is the fast one's
   * 0.3 ms, or longer on a loaded machine (a busy-wait preempted lasts longer), never the slow
   * call's; the bound is loose so that a loaded CI machine does not fail it */
  assert_true(s.median >= 2.9e-4 && s.median < 4e-3);
}

/* min_time is honoured (the samples run until it has passed), and the spread is ordered */
static void test_min_time(void **state) {
  (void)state;
  busy_t b = {1e-4, 0, -1, 0};
  bench_stats_t s;
  memset(&s, 0, sizeof s);
  const double t0 = strata_timer_now();
  assert_int_equal(bench_time(T_exec, busy, &b, 0.05, &s), 0);
  assert_true(strata_timer_now() - t0 >= 0.05);
  assert_true(s.min <= s.q1 && s.q1 <= s.median && s.median <= s.q3 && s.q3 <= s.max);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_samples_at_least_1ms, t_setup),
      cmocka_unit_test_setup(test_samples_at_least_1ms_slow_probe, t_setup),
      cmocka_unit_test_setup(test_min_time, t_setup),
  };
  return T_RUN("bench_time", tests);
}
