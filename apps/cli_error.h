/* strata — usage errors of the command-line tool's commands. */
#ifndef STRATA_CLI_ERROR_H
#define STRATA_CLI_ERROR_H

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strtod for the tool's decimal options: a hexadecimal number (0x10, 0x1p-3), which strtod takes,
 * is not parsed (*end = s), as the Matrix Market reader refuses it in files */
static inline double cli_strtod(const char *s, char **end) {
  const char *p = s;
  while (isspace((unsigned char)*p)) ++p;
  if (*p == '+' || *p == '-') ++p;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    *end = (char *)s;
    return 0.0;
  }
  return strtod(s, end);
}

/* "CMD: message SUFFIX" on stderr (printf format); returns 2, the tool's usage-error status. */
static inline int cli_usage_error(const char *cmd, const char *suffix, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static inline int cli_usage_error(const char *cmd, const char *suffix, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "%s\n", suffix);
  va_end(ap);
  return 2;
}

/* An integer option of command cmd in [lo, hi]: 1 and *v set, or 0 after the message
 * "CMD: OPT S: must be an integer in [LO, HI]" (the caller exits 2). */
static inline int cli_int_option(const char *cmd, const char *opt, const char *s, long lo, long hi, int *v) {
  char *end = NULL;
  errno = 0;
  const long x = strtol(s, &end, 10);
  if (!end || *end || end == s || errno == ERANGE || x < lo || x > hi) {
    cli_usage_error(cmd, "", "%s %s: must be an integer in [%ld, %ld]", opt, s, lo, hi);
    return 0;
  }
  *v = (int)x;
  return 1;
}

/* 1 when the option a is one of the n names (options that take a value), else 0 */
static inline int cli_takes_value(const char *a, const char *const *names, size_t n) {
  for (size_t q = 0; q < n; ++q)
    if (!strcmp(a, names[q])) return 1;
  return 0;
}

/* Flushes stdout; when it could not be written (full disk, closed pipe: the output is lost) says
 * so as "CMD: cannot write standard output: REASON" and returns 1, else 0. Call at the end of a
 * command whose result is its output. */
static inline int cli_stdout_failed(const char *cmd) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return 0;
  fprintf(stderr, "%s: cannot write standard output: %s\n", cmd, strerror(errno ? errno : EIO));
  return 1;
}

#endif
