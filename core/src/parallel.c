/* strata — the launch path: validate, resolve the policy, call the backend's launcher between
 * the profiling hooks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *pattern_name(strata_pattern_t p) {
  switch (p) {
    case STRATA_PATTERN_FOR: return "for";
    case STRATA_PATTERN_REDUCE: return "reduce";
    case STRATA_PATTERN_SCAN: return "scan";
    case STRATA_PATTERN_TEAM: return "team";
  }
  return "unknown";
}

static const char *reduce_op_name(strata_reduce_op_t op) {
  switch (op) {
    case STRATA_REDUCE_SUM: return "SUM";
    case STRATA_REDUCE_MIN: return "MIN";
    case STRATA_REDUCE_MAX: return "MAX";
    case STRATA_REDUCE_MINLOC: return "MINLOC";
    case STRATA_REDUCE_MAXLOC: return "MAXLOC";
  }
  return "unknown";
}

static strata_status_t prepare(strata_exec_t *exec, const char *label, const strata_kernel_t *k,
                               const void *args, strata_pattern_t want, strata_launch_t *L,
                               strata_kernel_fn_t *fn) {
  if (!exec || !k)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "launch '%s': NULL %s",
                             label ? label : (k ? k->name : "?"), exec ? "kernel" : "exec");
  if (!args && k->args_size > 0)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "launch '%s': NULL arguments", k->name);
  if (k->pattern != want)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "kernel '%s' is a %s kernel, launched as parallel_%s", k->name,
                             pattern_name(k->pattern), pattern_name(want));
  *fn = k->launch[exec->backend];
  if (!*fn)
    return strata_impl_error(STRATA_ERR_BACKEND_UNAVAILABLE,
                             "kernel '%s' was not compiled for backend '%s'", k->name,
                             strata_backend_name(exec->backend));
  memset(L, 0, sizeof *L);
  L->label = label ? label : k->name;
  L->exec = exec;
  L->stream = exec->stream;
  L->device = exec->device;
  L->host_threads = exec->host_threads;
  L->team_size = 1;
  L->vector_length = 1;
  return STRATA_SUCCESS;
}

static strata_status_t check_range(const char *name, strata_range_t r) {
  if (r.end < r.begin)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "launch '%s': range end %lld < begin %lld",
                             name, (long long)r.end, (long long)r.begin);
  if ((uint64_t)r.end - (uint64_t)r.begin > (uint64_t)INT64_MAX) /* end - begin would overflow */
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "launch '%s': range [%lld, %lld) has more than INT64_MAX = %lld indices", name,
                             (long long)r.begin, (long long)r.end, (long long)INT64_MAX);
  return STRATA_SUCCESS;
}

/* The one place every launch goes through: profiling ranges and hooks around the backend's
 * launcher (profiling.c). fn NULL: an empty range or league — a launch that runs nothing, still
 * seen by the hooks (Kokkos calls its tools for empty dispatches too). */
static strata_status_t run(const strata_launch_t *L, strata_pattern_t kind, strata_kernel_fn_t fn,
                           const void *args) {
  strata_impl_profile_scope_t scope;
  strata_status_t st = strata_impl_profile_begin(L, kind, &scope);
  if (st == STRATA_SUCCESS && fn) {
    /* a launcher that fails without a message of its own must not leave an earlier error's text
     * as the message of this failure */
    const unsigned serial = strata_impl_error_serial();
    st = fn(L, args);
    if (st != STRATA_SUCCESS && strata_impl_error_serial() == serial)
      strata_impl_error(st, "launch '%s' on '%s' failed: %s (%s)", L->label, strata_backend_name(L->exec->backend),
                        strata_status_name(st), strata_status_string(st));
  }
  strata_status_t st_end = strata_impl_profile_end(L, kind, &scope);
  return st != STRATA_SUCCESS ? st : st_end;
}

strata_status_t strata_parallel_for(strata_exec_t *exec, const char *label, strata_range_t range,
                                    const strata_kernel_t *kernel, const void *args) {
  strata_launch_t L;
  strata_kernel_fn_t fn;
  strata_status_t st = prepare(exec, label, kernel, args, STRATA_PATTERN_FOR, &L, &fn);
  if (st == STRATA_SUCCESS) st = check_range(L.label, range);
  if (st != STRATA_SUCCESS) return st;
  L.begin = range.begin;
  L.end = range.end;
  return run(&L, STRATA_PATTERN_FOR, range.end == range.begin ? NULL : fn, args);
}

static strata_status_t reduce(strata_exec_t *exec, const char *label, strata_range_t range,
                              const strata_kernel_t *kernel, const void *args, strata_reduce_op_t op,
                              void *result, int in_exec) {
  strata_launch_t L;
  strata_kernel_fn_t fn;
  strata_status_t st = prepare(exec, label, kernel, args, STRATA_PATTERN_REDUCE, &L, &fn);
  if (st == STRATA_SUCCESS) st = check_range(L.label, range);
  if (st != STRATA_SUCCESS) return st;
  if (!result) return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "reduce '%s': NULL result", L.label);
  if ((int)op < STRATA_REDUCE_SUM || (int)op > STRATA_REDUCE_MAXLOC)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT,
                             "reduce '%s': op %d is not SUM, MIN, MAX, MINLOC or MAXLOC", L.label,
                             (int)op);
  /* MINLOC / MAXLOC only with the (value, index) types, and those only with MINLOC / MAXLOC */
  const int loc_op = op == STRATA_REDUCE_MINLOC || op == STRATA_REDUCE_MAXLOC;
  if (loc_op != strata_type_is_loc(kernel->value_type))
    return strata_impl_error(
        STRATA_ERR_INVALID_ARGUMENT, "reduce '%s': op %s does not apply to kernel '%s' of value type %s (%s)",
        L.label, reduce_op_name(op), kernel->name, strata_type_name(kernel->value_type),
        loc_op ? "MINLOC / MAXLOC need a loc value type: i32loc, i64loc, f32loc, f64loc"
               : "a loc value type is reduced only with MINLOC / MAXLOC");
  L.begin = range.begin;
  L.end = range.end;
  L.op = op;
  L.result = result;
  L.result_in_exec = in_exec;
  return run(&L, STRATA_PATTERN_REDUCE, fn, args);
}

strata_status_t strata_parallel_reduce(strata_exec_t *exec, const char *label, strata_range_t range,
                                       const strata_kernel_t *kernel, const void *args, strata_reduce_op_t op,
                                       void *result) {
  return reduce(exec, label, range, kernel, args, op, result, 0);
}

strata_status_t strata_parallel_reduce_async(strata_exec_t *exec, const char *label, strata_range_t range,
                                             const strata_kernel_t *kernel, const void *args,
                                             strata_reduce_op_t op, void *result) {
  return reduce(exec, label, range, kernel, args, op, result, 1);
}

strata_status_t strata_parallel_scan(strata_exec_t *exec, const char *label, strata_range_t range,
                                     const strata_kernel_t *kernel, const void *args, void *total) {
  strata_launch_t L;
  strata_kernel_fn_t fn;
  strata_status_t st = prepare(exec, label, kernel, args, STRATA_PATTERN_SCAN, &L, &fn);
  if (st == STRATA_SUCCESS) st = check_range(L.label, range);
  if (st != STRATA_SUCCESS) return st;
  L.begin = range.begin;
  L.end = range.end;
  L.op = STRATA_REDUCE_SUM;
  L.result = total;
  return run(&L, STRATA_PATTERN_SCAN, fn, args);
}

static int is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

/* Validates p and resolves its AUTO fields. An AUTO team size on a GPU backend is validated as a
 * team of one, reported in out as the upper bound the launcher may choose (the most threads per
 * team over vector_length, fewer if the per-thread scratch does not fit), and flagged in
 * *gpu_auto: the launcher chooses it from the kernel's occupancy. */
static strata_status_t resolve_policy(strata_exec_t *exec, const strata_team_policy_t *p,
                                      strata_team_policy_t *out, int *gpu_auto) {
  if (!exec || !p || !out)
    return strata_impl_error(STRATA_ERR_INVALID_ARGUMENT, "team policy: NULL %s",
                             !exec ? "execution space" : !p ? "policy" : "output");
  *gpu_auto = 0;
  const strata_device_info_t *d = &exec->info;
  const char *b = strata_backend_name(exec->backend);
  const int host = strata_exec_is_host(exec);
  strata_team_policy_t r = *p;
  if (r.league_size < 0)
    return strata_impl_error(STRATA_ERR_INVALID_POLICY, "league_size %lld is negative", (long long)r.league_size);
  if (r.team_size < 0 || r.vector_length < 0)
    return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                             "team_size %d / vector_length %d: negative (0 = STRATA_AUTO, else >= 1)", r.team_size,
                             r.vector_length);
  const int max_vl = host ? 1 : d->warp_size;
  const int max_threads = host ? 1 : d->max_threads_per_team;
  if (r.vector_length != STRATA_AUTO) {
    if (!is_pow2(r.vector_length))
      return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                               "vector_length %d is not a power of two (backend '%s', limit %d)",
                               r.vector_length, b, max_vl);
    if (r.vector_length > max_vl)
      return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                               "vector_length %d exceeds the limit %d of backend '%s' (%s)",
                               r.vector_length, max_vl, b, host ? "host: one lane per thread, omp simd inside" : "warp size");
  } else {
    r.vector_length = 1;
  }
  if (r.team_size == STRATA_AUTO) {
    r.team_size = 1;
    *gpu_auto = !host;
  }
  if ((long long)r.team_size * r.vector_length > max_threads)
    return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                             "team_size %d x vector_length %d = %lld exceeds the limit %d threads per team of backend '%s'",
                             r.team_size, r.vector_length, (long long)r.team_size * r.vector_length,
                             max_threads, b);
  /* checked before rounding to 16 bytes and before multiplying by the team size: a size near
   * SIZE_MAX would otherwise wrap around to a small value and pass */
  if (p->scratch_team > d->max_scratch_bytes || p->scratch_thread > d->max_scratch_bytes ||
      (r.team_size > 0 && p->scratch_thread > (d->max_scratch_bytes - p->scratch_team) / (size_t)r.team_size))
    return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                             "scratch per team (team %zu + %d threads x %zu bytes) exceeds the limit %zu of backend '%s'",
                             p->scratch_team, r.team_size, p->scratch_thread, d->max_scratch_bytes, b);
  size_t a16 = 15;
  r.scratch_team = (r.scratch_team + a16) & ~a16;
  r.scratch_thread = (r.scratch_thread + a16) & ~a16;
  size_t scratch = r.scratch_team + (size_t)r.team_size * r.scratch_thread;
  if (scratch > d->max_scratch_bytes) /* the parts may sum to the limit before they are rounded */
    return strata_impl_error(STRATA_ERR_INVALID_POLICY,
                             "scratch %zu bytes per team (team %zu + %d threads x %zu bytes, each part rounded up "
                             "to 16 bytes from team %zu and thread %zu) exceeds the limit %zu of backend '%s'",
                             scratch, r.scratch_team, r.team_size, r.scratch_thread, p->scratch_team,
                             p->scratch_thread, d->max_scratch_bytes, b);
  if (*gpu_auto) {
    int most = max_threads / r.vector_length;
    if (r.scratch_thread > 0 && (d->max_scratch_bytes - r.scratch_team) / r.scratch_thread < (size_t)most)
      most = (int)((d->max_scratch_bytes - r.scratch_team) / r.scratch_thread);
    r.team_size = most > 1 ? most : 1;
  }
  *out = r;
  return STRATA_SUCCESS;
}

strata_status_t strata_team_policy_resolve(strata_exec_t *exec, const strata_team_policy_t *p,
                                           strata_team_policy_t *out) {
  int gpu_auto;
  return resolve_policy(exec, p, out, &gpu_auto);
}

strata_status_t strata_team_policy_resolve_kernel(strata_exec_t *exec, const strata_team_policy_t *p,
                                                  const strata_kernel_t *kernel,
                                                  strata_team_policy_t *out) {
  strata_launch_t L;
  strata_kernel_fn_t fn;
  /* the arguments are never read by a query: any non-NULL pointer passes prepare's check */
  strata_status_t st = prepare(exec, NULL, kernel, kernel, STRATA_PATTERN_TEAM, &L, &fn);
  int gpu_auto = 0;
  if (st == STRATA_SUCCESS) st = resolve_policy(exec, p, out, &gpu_auto);
  /* GPUs: ask the kernel's launcher, which picks AUTO by occupancy and checks an explicit team
   * against the kernel's own limit (registers) */
  if (st != STRATA_SUCCESS || strata_exec_is_host(exec)) return st;
  int ts = 0;
  L.league_size = out->league_size;
  L.team_size = gpu_auto ? 0 : out->team_size;
  L.vector_length = out->vector_length;
  L.scratch_team = out->scratch_team;
  L.scratch_thread = out->scratch_thread;
  L.team_size_query = &ts;
  st = fn(&L, NULL);
  if (st == STRATA_SUCCESS) out->team_size = ts;
  return st;
}

strata_status_t strata_parallel_for_team(strata_exec_t *exec, const char *label,
                                         const strata_team_policy_t *policy,
                                         const strata_kernel_t *kernel, const void *args) {
  strata_launch_t L;
  strata_kernel_fn_t fn;
  strata_status_t st = prepare(exec, label, kernel, args, STRATA_PATTERN_TEAM, &L, &fn);
  if (st != STRATA_SUCCESS) return st;
  strata_team_policy_t r;
  int gpu_auto = 0;
  st = resolve_policy(exec, policy, &r, &gpu_auto);
  if (st != STRATA_SUCCESS) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", strata_error_message());
    return strata_impl_error(st, "launch '%s': %s", L.label, msg);
  }
  L.league_size = r.league_size;
  L.team_size = gpu_auto ? 0 : r.team_size; /* 0: the GPU launcher chooses (occupancy) */
  L.vector_length = r.vector_length;
  L.scratch_team = r.scratch_team;
  L.scratch_thread = r.scratch_thread;
  return run(&L, STRATA_PATTERN_TEAM, r.league_size == 0 ? NULL : fn, args);
}
