/* strata tests — profiling (profiling.h): launch hooks around for / reduce / scan / team launches
 * (labels, kinds, backend, ids, begin/end pairing, empty and refused launches), nested regions
 * and their hooks, and the STRATA_PROFILE summary. Runs in profiling mode (main sets
 * STRATA_PROFILE=1 before strata_init). */
#include "test_common.h"

#include "profiling_kernels.h"

STRATA_KERNEL_DECLARE(prof_fill);
STRATA_KERNEL_DECLARE(prof_sum);
STRATA_KERNEL_DECLARE(prof_scan);
STRATA_KERNEL_DECLARE(prof_team);

/* ---------------------------------------------------------------- what the hooks saw */

typedef struct event {
  int begin; /* 1 begin, 0 end; regions: 1 push, 0 pop */
  char label[64];
  strata_backend_t backend;
  strata_pattern_t kind;
  uint64_t id;
  int depth;
} event_t;

typedef struct event_log {
  event_t ev[64];
  int n;
  int overflow;
} event_log_t;

static void add_event(event_log_t *log, int begin, const char *label, strata_backend_t b,
                      strata_pattern_t kind, uint64_t id, int depth) {
  if (log->n == (int)(sizeof log->ev / sizeof log->ev[0])) {
    log->overflow = 1;
    return;
  }
  event_t *e = &log->ev[log->n++];
  e->begin = begin;
  snprintf(e->label, sizeof e->label, "%s", label);
  e->backend = b;
  e->kind = kind;
  e->id = id;
  e->depth = depth;
}

static void on_begin(const char *label, strata_backend_t b, strata_pattern_t kind, uint64_t id, void *u) {
  add_event((event_log_t *)u, 1, label, b, kind, id, 0);
}
static void on_end(const char *label, strata_backend_t b, strata_pattern_t kind, uint64_t id, void *u) {
  add_event((event_log_t *)u, 0, label, b, kind, id, 0);
}
static void on_push(const char *name, int depth, void *u) {
  add_event((event_log_t *)u, 1, name, STRATA_BACKEND_DEFAULT, STRATA_PATTERN_FOR, 0, depth);
}
static void on_pop(const char *name, int depth, void *u) {
  add_event((event_log_t *)u, 0, name, STRATA_BACKEND_DEFAULT, STRATA_PATTERN_FOR, 0, depth);
}

static int setup(void **state) {
  (void)state;
  strata_error_clear();
  return 0;
}
static int teardown(void **state) {
  (void)state;
  strata_profile_set_hooks(NULL, NULL, NULL);
  strata_profile_set_region_hooks(NULL, NULL, NULL);
  return 0;
}

/* Expects launches i = 0..n-1 of the log to be begin/end pairs with (label[i], kind[i]). */
static void expect_pairs(const event_log_t *log, int n, const char *const *labels,
                         const strata_pattern_t *kinds) {
  assert_false(log->overflow);
  if (log->n != 2 * n) fail_msg("hooks saw %d events, expected %d (%d launches)", log->n, 2 * n, n);
  uint64_t last = 0;
  for (int i = 0; i < n; ++i) {
    const event_t *b = &log->ev[2 * i], *e = &log->ev[2 * i + 1];
    if (!b->begin || e->begin) fail_msg("launch %d: events are not a begin/end pair", i);
    if (strcmp(b->label, labels[i]) || strcmp(e->label, labels[i]))
      fail_msg("launch %d: labels '%s' / '%s', expected '%s'", i, b->label, e->label, labels[i]);
    assert_int_equal(b->kind, kinds[i]);
    assert_int_equal(e->kind, kinds[i]);
    assert_int_equal(b->backend, strata_exec_backend(T_exec));
    assert_int_equal(e->backend, strata_exec_backend(T_exec));
    if (b->id != e->id) fail_msg("launch %d: begin id %llu, end id %llu", i, (unsigned long long)b->id,
                                 (unsigned long long)e->id);
    if (b->id <= last) fail_msg("launch %d: id %llu does not increase", i, (unsigned long long)b->id);
    last = b->id;
  }
}

/* ---------------------------------------------------------------- launch hooks */

static void test_launch_hooks(void **state) {
  (void)state;
  const int64_t n = 1000, league = 37;
  int64_t *x = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  int64_t *out = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  int64_t *tout = (int64_t *)t_dev_alloc((size_t)league * sizeof(int64_t));
  prof_args_t a = {x, out};
  prof_team_args_t ta = {tout};
  event_log_t log;
  memset(&log, 0, sizeof log);
  T_OK(strata_profile_set_hooks(on_begin, on_end, &log));

  T_OK(strata_parallel_for(T_exec, NULL, strata_range(0, n), &prof_fill, &a));     /* label: name */
  T_OK(strata_parallel_for(T_exec, "fill again", strata_range(0, n), &prof_fill, &a));
  int64_t sum = -1;
  T_OK(strata_parallel_reduce(T_exec, "sum", strata_range(0, n), &prof_sum, &a, STRATA_REDUCE_SUM, &sum));
  int64_t total = -1;
  T_OK(strata_parallel_scan(T_exec, NULL, strata_range(0, n), &prof_scan, &a, &total));
  strata_team_policy_t p = strata_team_policy(league, STRATA_AUTO, STRATA_AUTO);
  T_OK(strata_parallel_for_team(T_exec, "team", &p, &prof_team, &ta));
  /* empty range and empty league: launches that run nothing, still seen */
  T_OK(strata_parallel_for(T_exec, "empty", strata_range(5, 5), &prof_fill, &a));
  strata_team_policy_t p0 = strata_team_policy(0, STRATA_AUTO, STRATA_AUTO);
  T_OK(strata_parallel_for_team(T_exec, "empty team", &p0, &prof_team, &ta));
  /* refused launches call no hook */
  strata_team_policy_t bad = strata_team_policy(4, 1, 3); /* vector_length not a power of two */
  T_ERR(strata_parallel_for_team(T_exec, "refused", &bad, &prof_team, &ta), STRATA_ERR_INVALID_POLICY);
  T_ERR(strata_parallel_for(T_exec, "refused", strata_range(0, n), &prof_sum, &a), STRATA_ERR_INVALID_ARGUMENT);
  T_OK(strata_exec_fence(T_exec));

  static const char *const labels[] = {"prof_fill", "fill again", "sum", "prof_scan", "team", "empty", "empty team"};
  static const strata_pattern_t kinds[] = {STRATA_PATTERN_FOR, STRATA_PATTERN_FOR, STRATA_PATTERN_REDUCE,
                                           STRATA_PATTERN_SCAN, STRATA_PATTERN_TEAM, STRATA_PATTERN_FOR,
                                           STRATA_PATTERN_TEAM};
  expect_pairs(&log, 7, labels, kinds);

  /* the launches ran */
  assert_int_equal(sum, n * (n - 1) / 2);
  assert_int_equal(total, n * (n - 1) / 2);
  int64_t h[3];
  t_to_host(h, out + n - 3, sizeof h);
  assert_int_equal(h[2], (n - 1) * (n - 2) / 2);
  t_to_host(h, tout + league - 3, sizeof h);
  assert_int_equal(h[2], league - 1);

  /* hooks removed: nothing more is seen */
  T_OK(strata_profile_set_hooks(NULL, NULL, NULL));
  T_OK(strata_parallel_for(T_exec, NULL, strata_range(0, n), &prof_fill, &a));
  assert_int_equal(log.n, 14);
  /* one hook only */
  T_OK(strata_profile_set_hooks(NULL, on_end, &log));
  sum = -1;
  T_OK(strata_parallel_reduce(T_exec, NULL, strata_range(0, n), &prof_sum, &a, STRATA_REDUCE_SUM, &sum));
  assert_int_equal(log.n, 15);
  assert_false(log.ev[14].begin);
  assert_string_equal(log.ev[14].label, "prof_sum");
  assert_int_equal(sum, n * (n - 1) / 2);
  t_dev_free(x);
  t_dev_free(out);
  t_dev_free(tout);
}

/* ---------------------------------------------------------------- regions */

static void test_regions_nest(void **state) {
  (void)state;
  const int64_t n = 64;
  int64_t *x = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  prof_args_t a = {x, NULL};
  event_log_t log;
  memset(&log, 0, sizeof log);
  T_OK(strata_profile_set_region_hooks(on_push, on_pop, &log));
  T_OK(strata_profile_set_hooks(on_begin, on_end, &log));

  char name[32];
  snprintf(name, sizeof name, "outer");
  T_OK(strata_profile_push_region(name));
  snprintf(name, sizeof name, "clobbered"); /* the region keeps its own copy of the name */
  T_OK(strata_profile_push_region("inner"));
  T_OK(strata_parallel_for(T_exec, "in inner", strata_range(0, n), &prof_fill, &a));
  T_OK(strata_profile_pop_region());
  T_OK(strata_profile_push_region("inner 2"));
  T_OK(strata_profile_pop_region());
  T_OK(strata_profile_pop_region());
  T_ERR(strata_profile_pop_region(), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "no region is open"));
  T_ERR(strata_profile_push_region(NULL), STRATA_ERR_INVALID_ARGUMENT);

  /* push outer(1), push inner(2), launch begin/end, pop inner(2), push inner 2(2), pop(2), pop outer(1) */
  assert_false(log.overflow);
  assert_int_equal(log.n, 8);
  static const struct {
    int begin;
    const char *name;
    int depth;
  } want[] = {{1, "outer", 1},   {1, "inner", 2},   {1, "in inner", 0}, {0, "in inner", 0},
              {0, "inner", 2},   {1, "inner 2", 2}, {0, "inner 2", 2},  {0, "outer", 1}};
  for (int i = 0; i < 8; ++i) {
    if (log.ev[i].begin != want[i].begin || strcmp(log.ev[i].label, want[i].name) || log.ev[i].depth != want[i].depth)
      fail_msg("event %d: %s '%s' depth %d, expected %s '%s' depth %d", i, log.ev[i].begin ? "open" : "close",
               log.ev[i].label, log.ev[i].depth, want[i].begin ? "open" : "close", want[i].name, want[i].depth);
  }

  /* depth limit: 64 open regions, the 65th is refused with the limit named */
  for (int i = 0; i < 64; ++i) T_OK(strata_profile_push_region("deep"));
  T_ERR(strata_profile_push_region("too deep"), STRATA_ERR_INVALID_ARGUMENT);
  assert_non_null(strstr(strata_error_message(), "64"));
  for (int i = 0; i < 64; ++i) T_OK(strata_profile_pop_region());
  T_ERR(strata_profile_pop_region(), STRATA_ERR_INVALID_ARGUMENT);
  t_dev_free(x);
}

/* ---------------------------------------------------------------- the STRATA_PROFILE summary */

/* The report line of a label on the backend under test (NULL if none). */
static const char *find_row(const char *report, const char *label, const char *backend, char *line, size_t cap) {
  const char *p = report;
  while (p && *p) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (len < cap) {
      memcpy(line, p, len);
      line[len] = '\0';
      char be[32];
      /* rows: label (may contain spaces), backend, kind, count, total, mean, % */
      if (strncmp(line, label, strlen(label)) == 0 && line[strlen(label)] == ' ' &&
          sscanf(line + strlen(label), " %31s", be) == 1 && strcmp(be, backend) == 0)
        return line;
    }
    p = eol ? eol + 1 : NULL;
  }
  return NULL;
}

static void test_report(void **state) {
  (void)state;
  assert_int_equal(strata_profile_enabled(), 1);
  const int64_t n = 4096;
  int64_t *x = (int64_t *)t_dev_alloc((size_t)n * sizeof(int64_t));
  prof_args_t a = {x, NULL};
  T_OK(strata_profile_push_region("report region"));
  for (int i = 0; i < 3; ++i) T_OK(strata_parallel_for(T_exec, "report fill", strata_range(0, n), &prof_fill, &a));
  int64_t sum = 0;
  for (int i = 0; i < 2; ++i)
    T_OK(strata_parallel_reduce(T_exec, "report sum", strata_range(0, n), &prof_sum, &a, STRATA_REDUCE_SUM, &sum));
  T_OK(strata_profile_pop_region());

  FILE *f = tmpfile();
  assert_non_null(f);
  T_OK(strata_profile_report(f));
  long size = ftell(f);
  assert_true(size > 0);
  char *text = (char *)calloc((size_t)size + 1, 1);
  assert_non_null(text);
  rewind(f);
  assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
  fclose(f);
  print_message("%s", text);

  const char *be = strata_backend_name(strata_exec_backend(T_exec));
  assert_non_null(strstr(text, "strata profile: "));
  assert_non_null(strstr(text, "label"));
  char line[512], kind[16];
  unsigned long long count = 0;
  double tot = -1, mean = -1;
  assert_non_null(find_row(text, "report fill", be, line, sizeof line));
  assert_int_equal(sscanf(line + strlen("report fill"), " %*s %15s %llu %lf %lf", kind, &count, &tot, &mean), 4);
  assert_string_equal(kind, "for");
  assert_int_equal(count, 3);
  assert_true(tot >= 0 && mean >= 0 && mean <= tot);
  assert_non_null(find_row(text, "report sum", be, line, sizeof line));
  assert_int_equal(sscanf(line + strlen("report sum"), " %*s %15s %llu", kind, &count), 2);
  assert_string_equal(kind, "reduce");
  assert_int_equal(count, 2);
  /* the region, after the launches, with its inclusive time */
  const char *regions = strstr(text, "regions (inclusive time)");
  assert_non_null(regions);
  assert_non_null(find_row(regions, "report region", "-", line, sizeof line));
  assert_int_equal(sscanf(line + strlen("report region"), " %*s %15s %llu", kind, &count), 2);
  assert_string_equal(kind, "region");
  assert_int_equal(count, 1);
  free(text);
  T_ERR(strata_profile_report(NULL), STRATA_ERR_INVALID_ARGUMENT);
  t_dev_free(x);
}

/* The report before any launch (first in the list): the header and no row. It passed qsort a
 * NULL table (undefined behaviour, UBSan: "null pointer passed as argument 1"), as every
 * STRATA_PROFILE=1 run of the tool that launched nothing did at strata_finalize: strata fem
 * --help, the refused options. */
static void test_report_empty(void **state) {
  (void)state;
  FILE *f = tmpfile();
  assert_non_null(f);
  T_OK(strata_profile_report(f));
  char text[512] = "";
  rewind(f);
  assert_true(fread(text, 1, sizeof text - 1, f) > 0);
  fclose(f);
  assert_non_null(strstr(text, "strata profile: 0 launches"));
  assert_non_null(strstr(text, "label"));
}

int main(int argc, char **argv) {
  setenv("STRATA_PROFILE", "1", 1); /* profiling mode, read by strata_init in test_main */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_report_empty, setup, teardown), /* before any launch */
      cmocka_unit_test_setup_teardown(test_launch_hooks, setup, teardown),
      cmocka_unit_test_setup_teardown(test_regions_nest, setup, teardown),
      cmocka_unit_test_setup_teardown(test_report, setup, teardown),
  };
  return T_RUN("profiling", tests);
}
