/* strata — profiling: launch and region hooks, backend tool ranges, the STRATA_PROFILE summary.
 * The launch path (parallel.c) calls strata_impl_profile_begin / _end around every launch; the
 * backends' NVTX / roctx ranges are reached through their table (range_push / range_pop). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define STRATA_PROFILE_MAX_DEPTH 64
#define KIND_REGION (-1) /* a region's row in the summary */

static struct {
  strata_profile_launch_fn_t begin, end;
  void *launch_data;
  strata_profile_region_fn_t push, pop;
  void *region_data;
  int enabled; /* profiling mode (STRATA_PROFILE) */
} hooks;

static atomic_uint_fast64_t next_launch_id = 1;

/* the summary: one row per (label, backend, kind) and per region name */
typedef struct row {
  char *label;
  int backend; /* -1 for regions */
  int kind;    /* strata_pattern_t, or KIND_REGION */
  uint64_t count;
  double total;
} row_t;

static struct {
  pthread_mutex_t lock;
  row_t *rows;
  size_t n, cap;
} table = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

/* this thread's open regions */
static _Thread_local struct {
  char *name;
  double t0;
} stack[STRATA_PROFILE_MAX_DEPTH];
static _Thread_local int depth;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void record(const char *label, int backend, int kind, double seconds) {
  pthread_mutex_lock(&table.lock);
  row_t *r = NULL;
  for (size_t i = 0; i < table.n; ++i)
    if (table.rows[i].backend == backend && table.rows[i].kind == kind &&
        strcmp(table.rows[i].label, label) == 0) {
      r = &table.rows[i];
      break;
    }
  if (!r) { /* out of memory: the sample is dropped rather than the launch failed */
    if (table.n == table.cap) {
      size_t cap = table.cap ? 2 * table.cap : 64;
      row_t *g = (row_t *)realloc(table.rows, cap * sizeof *g);
      if (!g) goto out;
      table.rows = g;
      table.cap = cap;
    }
    char *copy = strdup(label);
    if (!copy) goto out;
    r = &table.rows[table.n++];
    r->label = copy;
    r->backend = backend;
    r->kind = kind;
    r->count = 0;
    r->total = 0.0;
  }
  r->count++;
  r->total += seconds;
out:
  pthread_mutex_unlock(&table.lock);
}

static void clear_table(void) {
  pthread_mutex_lock(&table.lock);
  for (size_t i = 0; i < table.n; ++i) free(table.rows[i].label);
  free(table.rows);
  table.rows = NULL;
  table.n = table.cap = 0;
  pthread_mutex_unlock(&table.lock);
}

strata_status_t strata_profile_set_hooks(strata_profile_launch_fn_t begin_fn,
                                         strata_profile_launch_fn_t end_fn, void *user_data) {
  hooks.begin = begin_fn;
  hooks.end = end_fn;
  hooks.launch_data = user_data;
  return STRATA_SUCCESS;
}

strata_status_t strata_profile_set_region_hooks(strata_profile_region_fn_t push_fn,
                                                strata_profile_region_fn_t pop_fn,
                                                void *user_data) {
  hooks.push = push_fn;
  hooks.pop = pop_fn;
  hooks.region_data = user_data;
  return STRATA_SUCCESS;
}

int strata_profile_enabled(void) { return hooks.enabled; }

strata_status_t strata_impl_profile_init(void) {
  const char *s = getenv("STRATA_PROFILE");
  hooks.enabled = 0;
  if (s && *s && strcmp(s, "0") != 0 && strcmp(s, "1") != 0) /* "false" or "no" must not turn it on */
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "environment STRATA_PROFILE='%s' is not 1 (profiling on) or 0 / empty (off)", s);
  hooks.enabled = s && strcmp(s, "1") == 0;
  return STRATA_SUCCESS;
}

strata_status_t strata_impl_profile_begin(const strata_launch_t *L, strata_pattern_t kind,
                                          strata_impl_profile_scope_t *scope) {
  const strata_impl_backend_t *b = strata_impl_backend(L->exec->backend);
  strata_status_t st = STRATA_SUCCESS;
  scope->id = atomic_fetch_add(&next_launch_id, 1);
  scope->t0 = 0.0;
  if (b->range_push) b->range_push(L->label);
  if (hooks.begin) hooks.begin(L->label, L->exec->backend, kind, scope->id, hooks.launch_data);
  if (hooks.enabled) {
    st = b->fence(L->device, L->stream); /* earlier asynchronous work is not this launch's */
    scope->t0 = now();
  }
  return st;
}

strata_status_t strata_impl_profile_end(const strata_launch_t *L, strata_pattern_t kind,
                                        strata_impl_profile_scope_t *scope) {
  const strata_impl_backend_t *b = strata_impl_backend(L->exec->backend);
  strata_status_t st = STRATA_SUCCESS;
  if (hooks.enabled) {
    st = b->fence(L->device, L->stream);
    record(L->label, (int)L->exec->backend, (int)kind, now() - scope->t0);
  }
  if (hooks.end) hooks.end(L->label, L->exec->backend, kind, scope->id, hooks.launch_data);
  if (b->range_pop) b->range_pop();
  return st;
}

/* regions open a range on every compiled backend that has ranges (regions are not tied to an
 * execution space) */
static void ranges(const char *name) {
  for (int i = 0; i < STRATA_NUM_BACKENDS; ++i) {
    const strata_impl_backend_t *b = strata_impl_backend((strata_backend_t)i);
    if (!b->compiled) continue;
    if (name && b->range_push) b->range_push(name);
    if (!name && b->range_pop) b->range_pop();
  }
}

strata_status_t strata_profile_push_region(const char *name) {
  if (!name) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "push_region: NULL name");
  if (depth >= STRATA_PROFILE_MAX_DEPTH)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "push_region '%s': %d regions already open on this thread (limit %d)",
                             name, depth, STRATA_PROFILE_MAX_DEPTH);
  char *copy = strdup(name);
  if (!copy) return strata_impl_error(STRATA_ERR_OUT_OF_MEMORY, "push_region '%s': copying the name", name);
  stack[depth].name = copy;
  stack[depth].t0 = now();
  ++depth;
  ranges(copy);
  if (hooks.push) hooks.push(copy, depth, hooks.region_data);
  return STRATA_SUCCESS;
}

strata_status_t strata_profile_pop_region(void) {
  if (depth == 0)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "pop_region: no region is open on this thread");
  char *name = stack[depth - 1].name;
  if (hooks.enabled) record(name, -1, KIND_REGION, now() - stack[depth - 1].t0);
  if (hooks.pop) hooks.pop(name, depth, hooks.region_data);
  ranges(NULL);
  --depth;
  free(name);
  return STRATA_SUCCESS;
}

static const char *kind_name(int kind) {
  switch (kind) {
    case STRATA_PATTERN_FOR: return "for";
    case STRATA_PATTERN_REDUCE: return "reduce";
    case STRATA_PATTERN_SCAN: return "scan";
    case STRATA_PATTERN_TEAM: return "team";
  }
  return "region";
}

static int by_total_desc(const void *a, const void *b) {
  const row_t *x = (const row_t *)a, *y = (const row_t *)b;
  return x->total < y->total ? 1 : x->total > y->total ? -1 : strcmp(x->label, y->label);
}

strata_status_t strata_profile_report(FILE *out) {
  if (!out) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "profile report: NULL FILE");
  if (!hooks.enabled) {
    fprintf(out, "strata profile: profiling mode is off (set STRATA_PROFILE=1 before strata_init)\n");
    return STRATA_SUCCESS;
  }
  pthread_mutex_lock(&table.lock);
  if (table.n > 1) qsort(table.rows, table.n, sizeof *table.rows, by_total_desc); /* rows NULL when empty */
  double sum = 0.0;
  uint64_t launches = 0;
  size_t width = 5;
  for (size_t i = 0; i < table.n; ++i) {
    size_t w = strlen(table.rows[i].label);
    if (w > width) width = w;
    if (table.rows[i].kind != KIND_REGION) sum += table.rows[i].total, launches += table.rows[i].count;
  }
  if (width > 60) width = 60;
  fprintf(out, "strata profile: %llu launches, %.6f s in launches (each launch fenced before and after)\n",
          (unsigned long long)launches, sum);
  fprintf(out, "%-*s  %-7s  %-6s  %10s  %12s  %12s  %6s\n", (int)width, "label", "backend", "kind",
          "count", "total [s]", "mean [s]", "%");
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      int any = 0;
      for (size_t i = 0; i < table.n; ++i) any |= table.rows[i].kind == KIND_REGION;
      if (!any) break;
      fprintf(out, "regions (inclusive time)\n");
    }
    for (size_t i = 0; i < table.n; ++i) {
      const row_t *r = &table.rows[i];
      if ((r->kind == KIND_REGION) != (pass == 1)) continue;
      fprintf(out, "%-*.*s  %-7s  %-6s  %10llu  %12.6f  %12.9f", (int)width, (int)width, r->label,
              r->backend < 0 ? "-" : strata_backend_name((strata_backend_t)r->backend),
              kind_name(r->kind), (unsigned long long)r->count, r->total,
              r->count ? r->total / (double)r->count : 0.0);
      if (pass == 0) fprintf(out, "  %6.2f", sum > 0 ? 100.0 * r->total / sum : 0.0);
      fputc('\n', out);
    }
  }
  pthread_mutex_unlock(&table.lock);
  return STRATA_SUCCESS;
}

void strata_impl_profile_finalize(void) {
  /* regions still open (this thread): closed here, with a warning, so they are counted and freed */
  if (depth > 0) fprintf(stderr, "strata: %d profiling region(s) still open at strata_finalize, innermost '%s'; closed now\n",
                         depth, stack[depth - 1].name);
  while (depth > 0) strata_profile_pop_region();
  if (hooks.enabled) {
    strata_profile_report(stderr);
    fflush(stderr);
  }
  clear_table();
  hooks.enabled = 0; /* strata_profile_enabled: 0 until the next strata_init turns it on */
}
