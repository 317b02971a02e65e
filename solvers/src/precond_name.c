/* strata solvers — a preconditioner from its name (strata_precond_create_from_name), the
 * spelling `strata solve --precond` and `strata fem --precond` take. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "solvers_impl.h"

#define NAME_FORMS "none, jacobi, l1-jacobi, ilu0, iluk:K, bjacobi:P[:K], ras:P:OVERLAP[:K], amg[:OPTS]"

/* One ':'-separated decimal field of name at *s into *v in [lo, hi]; what names it in messages. */
static strata_status_t field(const char *name, const char **s, const char *what, long lo, long hi, long *v) {
  const char *p = *s;
  const char *d = *p == '-' || *p == '+' ? p + 1 : p; /* a sign is read, so that -1 is named with its limit */
  if (*d < '0' || *d > '9')
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': %s is missing or not a decimal integer (%s)",
                            name, what, NAME_FORMS);
  errno = 0;
  char *end = NULL;
  const long x = strtol(p, &end, 10);
  if (errno == ERANGE || x < lo || x > hi)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': %s %.*s is outside [%ld, %ld]", name, what,
                            (int)(end - p), p, lo, hi);
  if (*end != '\0' && *end != ':')
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': %s '%s' is not a decimal integer", name,
                            what, p);
  if (end[0] == ':' && end[1] == '\0')
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': nothing after the last ':' (%s)", name,
                            NAME_FORMS);
  *v = x;
  *s = *end == ':' ? end + 1 : end;
  return STRATA_SUCCESS;
}

static strata_status_t done(const char *name, const char *s) {
  if (*s == '\0') return STRATA_SUCCESS;
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': unexpected '%s' at the end (%s)", name, s,
                          NAME_FORMS);
}

strata_status_t strata_precond_create_from_name(strata_exec_t *exec, const char *name, strata_precond_t **P) {
  if (!exec || !name || !P)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "strata_precond_create_from_name: NULL %s",
                            !exec ? "exec" : !name ? "name" : "P");
  *P = NULL;
  strata_status_t st;
  long k = 0, parts = 0, overlap = 0;
  if (strcmp(name, "none") == 0) return STRATA_SUCCESS;
  if (strcmp(name, "jacobi") == 0) return strata_precond_create_jacobi(exec, STRATA_JACOBI, P);
  if (strcmp(name, "l1-jacobi") == 0) return strata_precond_create_jacobi(exec, STRATA_L1_JACOBI, P);
  if (strcmp(name, "amg") == 0 || strncmp(name, "amg:", 4) == 0) {
    strata_amg_options_t ao;
    strata_amg_options_default(&ao);
    if (name[3] == ':' && name[4] == '\0')
      return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "preconditioner '%s': nothing after the last ':' (%s)", name,
                              NAME_FORMS);
    if (name[3] == ':' && (st = strata_amg_options_parse(name + 4, &ao))) return st;
    return strata_precond_create_amg(exec, &ao, P);
  }
  strata_ilu_options_t ilu;
  strata_ilu_options_default(&ilu);
  if (strcmp(name, "ilu0") == 0) return strata_precond_create_ilu(exec, &ilu, P);
  if (strncmp(name, "iluk:", 5) == 0) {
    const char *s = name + 5;
    if ((st = field(name, &s, "the fill level K", 0, 64, &k)) || (st = done(name, s))) return st;
    ilu.fill_level = (int)k;
    return strata_precond_create_ilu(exec, &ilu, P);
  }
  const int bj = strncmp(name, "bjacobi:", 8) == 0, ras = strncmp(name, "ras:", 4) == 0;
  if (bj || ras) {
    const char *s = name + (bj ? 8 : 4);
    if ((st = field(name, &s, "the partitions P", 1, INT32_MAX, &parts))) return st;
    if (ras && (st = field(name, &s, "the overlap", 0, INT_MAX, &overlap))) return st;
    if (*s && (st = field(name, &s, "the fill level K", 0, 64, &k))) return st;
    if ((st = done(name, s))) return st;
    strata_schwarz_options_t so;
    strata_schwarz_options_default(&so);
    so.num_parts = (int32_t)parts;
    so.overlap = (int)overlap;
    so.ilu.fill_level = (int)k;
    return strata_precond_create_schwarz(exec, &so, P);
  }
  return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "unknown preconditioner '%s' (%s)", name, NAME_FORMS);
}
