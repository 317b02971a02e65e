/* strata — JSON output helpers of the command-line tool. */
#ifndef STRATA_CLI_JSON_H
#define STRATA_CLI_JSON_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The length (2..4) of the well-formed UTF-8 sequence that starts with the byte >= 0x80 at s, or 0
 * when the bytes there are not one (a stray continuation byte, an overlong form, a surrogate, a
 * code point above U+10FFFF, a sequence cut short; RFC 3629). */
static inline size_t cli_utf8_len(const unsigned char *s) {
  const unsigned c = s[0];
  const size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (!n) return 0;
  unsigned long cp = c & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
  for (size_t k = 1; k < n; ++k) { /* the terminating NUL is no continuation byte: stops here */
    if ((s[k] & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (s[k] & 0x3Fu);
  }
  if ((n == 3 && cp < 0x800) || (cp >= 0xD800 && cp <= 0xDFFF) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;
  return n;
}

/* The JSON form of the character at p (a byte >= 0x80 that is not well-formed UTF-8 becomes
 * U+FFFD) into tmp [8]: its length; *in = the bytes of p it stands for. */
static inline size_t cli_json_char(const unsigned char *p, char *tmp, size_t *in) {
  const unsigned char c = *p;
  *in = 1;
  if (c == '"' || c == '\\') {
    tmp[0] = '\\';
    tmp[1] = (char)c;
    return 2;
  }
  if (c < 0x20) return (size_t)snprintf(tmp, 8, "\\u%04x", c);
  if (c < 0x80) {
    tmp[0] = (char)c;
    return 1;
  }
  const size_t n = cli_utf8_len(p);
  if (n) {
    memcpy(tmp, p, n);
    *in = n;
    return n;
  }
  memcpy(tmp, "\\ufffd", 6);
  return 6;
}

/* s as the body of a JSON string: quotes, backslashes and control characters escaped, every byte
 * that is not part of well-formed UTF-8 replaced by U+FFFD (\ufffd), so that the output is valid
 * JSON whatever the bytes (file names are bytes). Stops before a character that would not fit in
 * cap (the terminating NUL included): never cuts inside a character or an escape. */
static inline void cli_json_escape(char *dst, size_t cap, const char *s) {
  size_t o = 0;
  if (!cap) return;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    char tmp[8];
    size_t in;
    const size_t len = cli_json_char(p, tmp, &in);
    if (o + len >= cap) break;
    memcpy(dst + o, tmp, len);
    o += len;
    p += in;
  }
  dst[o] = '\0';
}

/* s as the body of a JSON string (as cli_json_escape), written to out whole, whatever its length. */
static inline void cli_json_fputs(FILE *out, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    char tmp[8];
    size_t in;
    fwrite(tmp, 1, cli_json_char(p, tmp, &in), out);
    p += in;
  }
}

/* s cut to fit a buffer of cap bytes (by snprintf) may end inside a UTF-8 character: when s fills
 * the buffer, drops such a cut sequence at its end, so that the text keeps whole characters only. */
static inline void cli_utf8_trim_cut(char *s, size_t cap) {
  size_t n = strlen(s);
  if (n + 1 < cap || !n) return; /* not cut */
  size_t k = n, back = 0; /* the last lead byte within 3 bytes of the end */
  while (k > 0 && back < 4 && ((unsigned char)s[k - 1] & 0xC0) == 0x80) --k, ++back;
  if (k == 0) return;
  const unsigned c = (unsigned char)s[k - 1];
  const size_t want = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (want && back + 1 < want) s[k - 1] = '\0'; /* a lead byte whose sequence runs past the end */
}

/* v as a JSON number with printf format fmt, or null when it is not finite (JSON has no NaN). */
static inline const char *cli_json_number(char *buf, size_t cap, const char *fmt, double v) {
  if (!isfinite(v)) return "null";
  snprintf(buf, cap, fmt, v);
  return buf;
}

#endif
