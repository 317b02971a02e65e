/* strata — JSON output helpers of the command-line tool. */
#ifndef STRATA_CLI_JSON_H
#define STRATA_CLI_JSON_H

#include <math.h>
#include <stdio.h>

/* s as the body of a JSON string (quotes, backslashes and control characters escaped). */
static inline void cli_json_escape(char *dst, size_t cap, const char *s) {
  size_t o = 0;
  for (; *s && o + 7 < cap; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      dst[o++] = '\\';
      dst[o++] = (char)c;
    } else if (c < 0x20) {
      o += (size_t)snprintf(dst + o, cap - o, "\\u%04x", c);
    } else {
      dst[o++] = (char)c;
    }
  }
  dst[o] = '\0';
}

/* v as a JSON number with printf format fmt, or null when it is not finite (JSON has no NaN). */
static inline const char *cli_json_number(char *buf, size_t cap, const char *fmt, double v) {
  if (!isfinite(v)) return "null";
  snprintf(buf, cap, fmt, v);
  return buf;
}

#endif
