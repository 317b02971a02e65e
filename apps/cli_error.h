/* strata — usage errors of the command-line tool's commands. */
#ifndef STRATA_CLI_ERROR_H
#define STRATA_CLI_ERROR_H

#include <stdarg.h>
#include <stdio.h>

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

#endif
