/* strata bench — the suite table: the suites of `strata bench`, in the order they run (`all` runs
 * every one; the spmv suite measures a backend's stream reference itself when the stream suite
 * does not run before it).
 *
 * To add a suite NAME: a file suite_NAME.c that defines
 *     const bench_suite_t bench_suite_NAME = {.name = "NAME", .help = "...", .options = BENCH_OPT_...,
 *                                             .run = ..., .estimate = ..., .box_edge = NULL};
 * (bench_harness.h says what each field means; suite_stream.c is the smallest example), its line
 * X(NAME) below, and the file in perf/CMakeLists.txt. Its name appears in --help, in the usage
 * line and in the messages that list suites. An option of its own: a BENCH_OPT_ bit in
 * bench_harness.h and its parsing, help line and entry in suite_options in bench_cmd.c. */
#include "bench_harness.h"

#define BENCH_SUITES(X) \
  X(stream)             \
  X(spmv)               \
  X(unpack)             \
  X(fem)                \
  X(solve)              \
  X(spgemm)             \
  X(amg)                \
  X(batched)

#define BENCH_SUITE_DECLARE(name) extern const bench_suite_t bench_suite_##name;
BENCH_SUITES(BENCH_SUITE_DECLARE)
#define BENCH_SUITE_ENTRY(name) &bench_suite_##name,
const bench_suite_t *const bench_suites[] = {BENCH_SUITES(BENCH_SUITE_ENTRY) NULL};
