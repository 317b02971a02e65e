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
