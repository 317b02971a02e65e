/* strata sparse — Matrix Market reader and writer (strata/mmio.h). Host code: the file is parsed
 * line by line through zlib (plain and gzip files alike) into a host COO; a CrsMatrix is then
 * built on the device by strata_crs_create_from_coo (duplicates summed). */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sys/stat.h>
#include <zlib.h>

#include "sparse_impl.h"

/* a token quoted in a message is cut at 40 characters (%.40s); MM_CUT(t) then adds "..." so that
 * the cut value is not read as the whole (a review: "value 1000000000000000000000000000000000000000
 * overflows a double" for a 100001-digit value) */
#define MM_CUT(t) (strlen(t) > 40 ? "..." : "")

/* ------------------------------------------------------------------ errors */

/* "<path>:<line>: <reason>" with INVALID_DATA. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static strata_status_t mm_bad(const char *path, long long line, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return strata_error_set(STRATA_ERR_INVALID_DATA, "%s:%lld: %s", path, line, msg);
}

/* An I/O failure on path: zlib's message, or strerror when zlib reports a system error. */
static strata_status_t mm_io(const char *path, gzFile f, int saved_errno, const char *what) {
  int zerr = Z_ERRNO;
  const char *zmsg = f ? gzerror(f, &zerr) : NULL;
  const char *reason = (zerr == Z_ERRNO || !zmsg || !*zmsg) ? strerror(saved_errno) : zmsg;
  const size_t n = strlen(path); /* zlib's messages start with "<path>: " */
  if (reason == zmsg && strncmp(zmsg, path, n) == 0 && zmsg[n] == ':' && zmsg[n + 1] == ' ') reason += n + 2;
  return strata_error_set(STRATA_ERR_IO, "%s: %s: %s", path, what, reason);
}

static int ends_with_gz(const char *path) {
  const size_t n = strlen(path);
  return n >= 3 && strcmp(path + n - 3, ".gz") == 0;
}

/* ------------------------------------------------------------------ locale */

/* Numbers are read (strtod) and written (%.17g) in the "C" numeric locale whatever the caller's
 * LC_NUMERIC says: under a locale whose decimal point is ',' (de_DE, fr_FR, ...) strtod refused
 * "1.5" and the writers wrote "1,5", which no Matrix Market reader takes. uselocale is per
 * thread, so other threads keep their locale. */
typedef struct mm_locale {
  locale_t c;
  locale_t old;
} mm_locale_t;

static void mm_locale_enter(mm_locale_t *l) {
  l->old = (locale_t)0;
  /* the "C" locale for every category (strerror in the messages is then English): a copy of a
   * composite caller locale (duplocale, then newlocale on it) leaks 33 bytes a call in glibc */
  l->c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  if (l->c) l->old = uselocale(l->c);
}

static void mm_locale_leave(mm_locale_t *l) {
  if (!l->c) return;
  uselocale(l->old);
  freelocale(l->c);
  l->c = (locale_t)0;
}

/* The body of a public reader / writer: returns call's status, run in the "C" locale */
#define MM_IN_C_LOCALE(call)            \
  do {                                  \
    mm_locale_t loc_;                   \
    mm_locale_enter(&loc_);             \
    const strata_status_t st_ = (call); \
    mm_locale_leave(&loc_);             \
    return st_;                         \
  } while (0)

/* ------------------------------------------------------------------ lines and tokens */

typedef struct mm_in {
  gzFile f;
  const char *path;
  long long line; /* 1-based number of the line in buf; 0 before the first */
  char *buf;
  size_t cap;
} mm_in_t;

static strata_status_t mm_open(mm_in_t *in, const char *path) {
  memset(in, 0, sizeof *in);
  in->path = path;
  errno = 0;
  in->f = gzopen(path, "rb");
  if (!in->f) return mm_io(path, NULL, errno ? errno : ENOMEM, "cannot open");
  gzbuffer(in->f, 1 << 17);
  return STRATA_SUCCESS;
}

static void mm_close(mm_in_t *in) {
  if (in->f) gzclose(in->f);
  free(in->buf);
  in->f = NULL;
  in->buf = NULL;
}

/* The byte offset in fp (a gzip file, read from its start) where its gzip data end: each member
 * is inflated (output discarded) and another follows while the next two bytes are gzip's magic
 * 1f 8b. -1 when the data cannot be followed (a damaged member: gzread reports that) or memory
 * is short. */
static long long mm_gzip_end(FILE *fp) {
  enum { CHUNK = 1 << 16 };
  unsigned char *in = (unsigned char *)malloc(2 * CHUNK), *out = in + CHUNK;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (!in || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    free(in);
    return -1;
  }
  long long base = 0, end = -1; /* base: the file offset of in[0] */
  size_t n = 0;                 /* bytes in in[] */
  for (;;) {
    if (z.avail_in == 0) {
      base += (long long)n;
      n = fread(in, 1, CHUNK, fp);
      if (n == 0) break; /* cut short: gzread's error */
      z.next_in = in;
      z.avail_in = (uInt)n;
    }
    z.next_out = out;
    z.avail_out = CHUNK;
    const int r = inflate(&z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) {
      const long long at = base + (long long)(z.next_in - in);
      if (z.avail_in < 2) { /* the next member's magic may lie beyond the buffer */
        memmove(in, z.next_in, z.avail_in);
        base = at;
        n = z.avail_in + fread(in + z.avail_in, 1, CHUNK - z.avail_in, fp);
        z.next_in = in;
        z.avail_in = (uInt)n;
      }
      if (z.avail_in < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
        end = at;
        break;
      }
      if (inflateReset(&z) != Z_OK) break;
    } else if (r != Z_OK && r != Z_BUF_ERROR) {
      break; /* damaged data: gzread's error */
    }
  }
  inflateEnd(&z);
  free(in);
  return end;
}

/* At the end of a compressed file: bytes after its last gzip member are refused unless they are
 * all zero (padding, which gzip(1) accepts too). zlib's gzread stops at them without a word
 * (gzip(1) warns "trailing garbage ignored"); refusing keeps damaged, appended-to or partly
 * overwritten files from being read as whole. The file is inflated a second time, to find where
 * its gzip data end (a trailer's length field cannot tell: an overwritten file's old tail ends in
 * a valid trailer too). Only a regular file is checked: a pipe or FIFO cannot be read twice (and
 * opening a FIFO again would wait for a writer). */
static strata_status_t mm_check_trailing(mm_in_t *in) {
  struct stat sb;
  if (gzdirect(in->f) || stat(in->path, &sb) != 0 || !S_ISREG(sb.st_mode)) return STRATA_SUCCESS;
  FILE *fp = fopen(in->path, "rb");
  if (!fp) return STRATA_SUCCESS; /* no second look (the file is gone): as zlib read it */
  const long long size = (long long)sb.st_size, end = mm_gzip_end(fp);
  long long nonzero_at = -1;
  if (end >= 0 && end < size && fseeko(fp, (off_t)end, SEEK_SET) == 0) {
    unsigned char b[4096];
    size_t n;
    long long at = end;
    while (nonzero_at < 0 && (n = fread(b, 1, sizeof b, fp)) > 0) {
      for (size_t i = 0; i < n; ++i)
        if (b[i]) {
          nonzero_at = at + (long long)i;
          break;
        }
      at += (long long)n;
    }
  }
  fclose(fp);
  if (nonzero_at < 0) return STRATA_SUCCESS;
  char first[96] = "";
  if (nonzero_at > end) snprintf(first, sizeof first, " (zeros up to byte %lld)", nonzero_at);
  return strata_error_set(STRATA_ERR_INVALID_DATA,
                          "%s: %lld byte%s after the end of the gzip data, from byte offset %lld (0-based) of %lld%s: "
                          "not gzip, and not read (the file is damaged, or was appended to or partly overwritten)",
                          in->path, size - end, size - end == 1 ? "" : "s", end, size, first);
}

/* Reads the next line (any length) into in->buf: *got = 1, or 0 at the end of the file. */
static strata_status_t mm_getline(mm_in_t *in, int *got) {
  size_t len = 0;
  *got = 0;
  for (;;) {
    if (in->cap - len < 2) {
      const size_t cap = in->cap ? 2 * in->cap : 4096;
      char *b = (char *)realloc(in->buf, cap);
      if (!b) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s:%lld: line buffer of %zu bytes",
                                      in->path, in->line + 1, cap);
      in->buf = b;
      in->cap = cap;
    }
    const size_t room = in->cap - len > INT_MAX ? INT_MAX : in->cap - len;
    errno = 0;
    const z_off_t before = gztell(in->f);
    if (!gzgets(in->f, in->buf + len, (int)room)) {
      int zerr = Z_OK;
      gzerror(in->f, &zerr);
      if (zerr != Z_OK) {
        char what[64];
        snprintf(what, sizeof what, "read error after line %lld", in->line);
        return mm_io(in->path, in->f, errno, what);
      }
      if (len == 0) return mm_check_trailing(in); /* end of file */
      break;
    }
    const size_t n = strlen(in->buf + len);
    if (gztell(in->f) - before > (z_off_t)n) { /* gzgets read past a NUL byte: refuse, never truncate */
      in->line++;
      return mm_bad(in->path, in->line, "embedded NUL byte at column %zu", len + n + 1);
    }
    len += n;
    if (len > 0 && in->buf[len - 1] == '\n') break;
    if (n + 1 < room) { /* a last line without '\n': a truncated compressed stream ends so too */
      int zerr = Z_OK;
      gzerror(in->f, &zerr);
      if (zerr != Z_OK) {
        char what[64];
        snprintf(what, sizeof what, "read error in line %lld", in->line + 1);
        return mm_io(in->path, in->f, errno, what);
      }
      break;
    }
  }
  in->line++;
  *got = 1;
  return STRATA_SUCCESS;
}

#define MM_MAX_TOKENS 8

/* Splits s at blanks, in place: the first MM_MAX_TOKENS tokens go to t; returns the count of all. */
static int mm_tokens(char *s, char **t) {
  int n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\v' || *s == '\f') ++s;
    if (!*s) return n;
    char *start = s;
    while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' && *s != '\v' && *s != '\f') ++s;
    const int more = *s != '\0';
    *s = '\0';
    if (n < MM_MAX_TOKENS) t[n] = start;
    ++n;
    if (!more) return n;
    ++s;
  }
}

/* The next line that is neither blank nor a comment ('%' as its first non-blank character),
 * tokenized: *n tokens (0 at the end of the file). */
static strata_status_t mm_next_data(mm_in_t *in, char **t, int *n) {
  for (;;) {
    int got = 0;
    strata_status_t st = mm_getline(in, &got);
    if (st != STRATA_SUCCESS) return st;
    if (!got) {
      *n = 0;
      return STRATA_SUCCESS;
    }
    const char *p = in->buf;
    while (*p == ' ' || *p == '\t') ++p;
    if (*p == '%') continue;
    *n = mm_tokens(in->buf, t);
    if (*n > 0) return STRATA_SUCCESS;
  }
}

/* 0: an integer; 1: not an integer; 2: beyond the 64-bit range. */
static int parse_i64(const char *s, long long *v) {
  char *end = NULL;
  errno = 0;
  const long long x = strtoll(s, &end, 10);
  if (end == s || *end) return 1;
  if (errno == ERANGE) return 2;
  *v = x;
  return 0;
}

/* 0: a decimal number (inf, nan and subnormals included); 1: not a number — hexadecimal ("0x10",
 * "0x1p4"), which strtod would take, is not a Matrix Market value; 2: overflows a double. */
static int parse_f64(const char *s, double *v) {
  char *end = NULL;
  if (strpbrk(s, "xX")) return 1;
  errno = 0;
  const double x = strtod(s, &end);
  if (end == s || *end) return 1;
  if (errno == ERANGE && fabs(x) == HUGE_VAL) return 2;
  *v = x;
  return 0;
}

/* ------------------------------------------------------------------ banner and size line */

static const char *const k_format[] = {"coordinate", "array"};
static const char *const k_field[] = {"real", "integer", "pattern", "complex"};
static const char *const k_symmetry[] = {"general", "symmetric", "skew-symmetric", "hermitian"};

static int lookup(const char *word, const char *const *names, int n) {
  for (int i = 0; i < n; ++i)
    if (strcasecmp(word, names[i]) == 0) return i;
  return -1;
}

/* Words of the banner and the size line: the file is left just after the size line. */
static strata_status_t mm_read_header(mm_in_t *in, strata_mm_header_t *h) {
  const char *path = in->path;
  char *t[MM_MAX_TOKENS];
  int got = 0;
  strata_status_t st = mm_getline(in, &got);
  if (st != STRATA_SUCCESS) return st;
  if (!got)
    return mm_bad(path, 1, "empty file (expected the banner "
                           "'%%%%MatrixMarket matrix <format> <field> <symmetry>')");
  const char *cr = strchr(in->buf, '\r'); /* a CR inside the first line: CR-only line ends */
  while (cr && (cr[1] == '\0' || cr[1] == '\n')) cr = strchr(cr + 1, '\r');
  if (cr)
    return mm_bad(path, 1, "a carriage return (CR, \\r) inside the first line: the file's lines end in CR "
                           "only (classic Mac OS); convert its line endings to LF or CR LF");
  const int n = mm_tokens(in->buf, t);
  if (n > 0 && !strncmp(t[0], "\xEF\xBB\xBF", 3))
    return mm_bad(path, 1, "the file begins with a UTF-8 byte-order mark (bytes EF BB BF) before '%.40s%s': "
                           "a Matrix Market file begins with its banner "
                           "'%%%%MatrixMarket matrix <format> <field> <symmetry>' (remove the mark)",
                  t[0] + 3, MM_CUT(t[0] + 3));
  if (n == 0 || strcasecmp(t[0], "%%MatrixMarket") != 0) {
    const unsigned char *w = (const unsigned char *)(n ? t[0] : "");
    char shown[4 * 40 + 1]; /* the word's first 40 bytes, those outside printable ASCII as \xHH */
    size_t l = 0;
    for (int i = 0; i < 40 && w[i]; ++i)
      l += (size_t)snprintf(shown + l, sizeof shown - l, w[i] >= 0x20 && w[i] < 0x7f ? "%c" : "\\x%02X", w[i]);
    shown[l] = 0; /* an empty word: nothing written */
    return mm_bad(path, 1, "not a Matrix Market banner: '%s%s' (expected "
                           "'%%%%MatrixMarket matrix <format> <field> <symmetry>')",
                  shown, MM_CUT((const char *)w));
  }
  if (n < 5)
    return mm_bad(path, 1, "the banner has %d words, expected 5 "
                           "(%%%%MatrixMarket matrix <format> <field> <symmetry>)", n);
  if (n > 5) return mm_bad(path, 1, "unexpected '%.40s%s' after the symmetry '%s' in the banner", t[5], MM_CUT(t[5]), t[4]);
  if (strcasecmp(t[1], "matrix") != 0)
    return mm_bad(path, 1, "object '%.40s%s' is not supported (only 'matrix')", t[1], MM_CUT(t[1]));
  const int fo = lookup(t[2], k_format, 2), fi = lookup(t[3], k_field, 4), sy = lookup(t[4], k_symmetry, 4);
  if (fo < 0) return mm_bad(path, 1, "unknown format '%.40s%s' (coordinate or array)", t[2], MM_CUT(t[2]));
  if (fi < 0) return mm_bad(path, 1, "unknown field '%.40s%s' (real, integer, pattern or complex)", t[3], MM_CUT(t[3]));
  if (sy < 0)
    return mm_bad(path, 1, "unknown symmetry '%.40s%s' (general, symmetric, skew-symmetric or hermitian)", t[4], MM_CUT(t[4]));
  h->format = (strata_mm_format_t)fo;
  h->field = (strata_mm_field_t)fi;
  h->symmetry = (strata_mm_symmetry_t)sy;
  if (fo == STRATA_MM_ARRAY && fi == STRATA_MM_PATTERN)
    return mm_bad(path, 1, "field 'pattern' is only defined for the coordinate format, not 'array'");
  if (fi == STRATA_MM_PATTERN && sy == STRATA_MM_SKEW_SYMMETRIC)
    return mm_bad(path, 1, "field 'pattern' with symmetry 'skew-symmetric' is not defined");

  int nt = 0;
  st = mm_next_data(in, t, &nt);
  if (st != STRATA_SUCCESS) return st;
  h->size_line = in->line;
  if (nt == 0) return mm_bad(path, in->line, "end of file before the size line");
  const int want = fo == STRATA_MM_COORDINATE ? 3 : 2;
  if (nt != want)
    return mm_bad(path, in->line, "the size line has %d numbers, the %s format has %d (%s)", nt,
                  k_format[fo], want, want == 3 ? "rows columns entries" : "rows columns");
  static const char *const what[] = {"row count", "column count", "entry count"};
  long long v[3] = {0, 0, 0};
  for (int i = 0; i < want; ++i) {
    const int r = parse_i64(t[i], &v[i]);
    if (r == 1) return mm_bad(path, in->line, "%s '%.40s%s' is not an integer", what[i], t[i], MM_CUT(t[i]));
    if (r == 2 && t[i][0] == '-') return mm_bad(path, in->line, "negative %s %.40s%s", what[i], t[i], MM_CUT(t[i]));
    if (r == 2 && i == 2)
      return mm_bad(path, in->line, "%s %.40s%s exceeds the 64-bit limit %lld", what[i], t[i], MM_CUT(t[i]), (long long)INT64_MAX);
    if (r == 2 || (i < 2 && v[i] > INT32_MAX))
      return mm_bad(path, in->line, "%s %.40s%s exceeds the 32-bit local index limit %d", what[i],
                    t[i], MM_CUT(t[i]), INT32_MAX);
    if (v[i] < 0) return mm_bad(path, in->line, "negative %s %lld", what[i], v[i]);
  }
  h->num_rows = (int32_t)v[0];
  h->num_cols = (int32_t)v[1];
  if (sy != STRATA_MM_GENERAL && v[0] != v[1])
    return mm_bad(path, in->line, "a %s matrix must be square, the size line declares %lld x %lld",
                  k_symmetry[sy], v[0], v[1]);
  if (fo == STRATA_MM_COORDINATE) {
    h->num_stored = v[2];
  } else if (sy == STRATA_MM_GENERAL) {
    h->num_stored = v[0] * v[1];
  } else if (sy == STRATA_MM_SKEW_SYMMETRIC) {
    h->num_stored = v[0] * (v[0] - 1) / 2;
  } else {
    h->num_stored = v[0] * (v[0] + 1) / 2;
  }
  return STRATA_SUCCESS;
}

static strata_status_t strata_mm_read_header_impl(const char *path, strata_mm_header_t *header) {
  if (!path || !header)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_header: NULL %s", path ? "header" : "path");
  mm_in_t in;
  strata_status_t st = mm_open(&in, path);
  if (st == STRATA_SUCCESS) st = mm_read_header(&in, header);
  mm_close(&in);
  return st;
}

strata_status_t strata_mm_read_header(const char *path, strata_mm_header_t *header) {
  MM_IN_C_LOCALE(strata_mm_read_header_impl(path, header));
}

/* ------------------------------------------------------------------ entries */

static strata_status_t coo_push(strata_coo_t *c, int64_t *cap, const char *path, int32_t i, int32_t j,
                                double v) {
  if (c->nnz == *cap) {
    const int64_t ncap = *cap ? 2 * *cap : 1024;
    int32_t *r = (int32_t *)realloc(c->rows, sizeof(int32_t) * (size_t)ncap);
    if (r) c->rows = r;
    int32_t *q = r ? (int32_t *)realloc(c->cols, sizeof(int32_t) * (size_t)ncap) : NULL;
    if (q) c->cols = q;
    double *w = q ? (double *)realloc(c->values, sizeof(double) * (size_t)ncap) : NULL;
    if (!w)
      return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: COO of %lld entries (%zu bytes)", path,
                              (long long)ncap, (size_t)ncap * 16);
    c->values = w;
    *cap = ncap;
  }
  c->rows[c->nnz] = i;
  c->cols[c->nnz] = j;
  c->values[c->nnz] = v;
  c->nnz++;
  return STRATA_SUCCESS;
}

/* One index token, 1-based in [1, limit], to 0-based *out. */
static strata_status_t mm_index(const mm_in_t *in, const char *tok, const char *what, int32_t limit,
                                const char *unit, long long size_line, int32_t *out) {
  long long v = 0;
  const int r = parse_i64(tok, &v);
  if (r == 1) return mm_bad(in->path, in->line, "%s index '%.40s%s' is not an integer", what, tok, MM_CUT(tok));
  if ((r == 0 && v < 1) || (r == 2 && tok[0] == '-'))
    return mm_bad(in->path, in->line, "%s index %.40s%s is below 1 (Matrix Market indices are 1-based)", what, tok, MM_CUT(tok));
  if (r == 2 || v > limit)
    return mm_bad(in->path, in->line, "%s index %.40s%s is above the %d %s declared on line %lld", what,
                  tok, MM_CUT(tok), (int)limit, unit, size_line);
  *out = (int32_t)(v - 1);
  return STRATA_SUCCESS;
}

/* One value token of the field (real or integer) to *out; `part` names it in messages. */
static strata_status_t mm_value(const mm_in_t *in, const char *tok, strata_mm_field_t field,
                                const char *part, double *out) {
  if (field == STRATA_MM_INTEGER) {
    long long v = 0;
    const int r = parse_i64(tok, &v);
    if (r == 1) return mm_bad(in->path, in->line, "%s '%.40s%s' is not an integer (field integer)", part, tok, MM_CUT(tok));
    const long long exact = 1LL << 53; /* integers beyond 2^53 would be rounded by the double */
    if (r == 2 || v > exact || v < -exact) /* r == 2: beyond the 64-bit range, so beyond 2^53 too */
      return mm_bad(in->path, in->line, "%s %.40s%s is not exactly representable as a double (beyond 2^53 = %lld)",
                    part, tok, MM_CUT(tok), exact);
    *out = (double)v;
    return STRATA_SUCCESS;
  }
  const int r = parse_f64(tok, out);
  if (r == 1) return mm_bad(in->path, in->line, "%s '%.40s%s' is not a number", part, tok, MM_CUT(tok));
  if (r == 2) return mm_bad(in->path, in->line, "%s %.40s%s overflows a double", part, tok, MM_CUT(tok));
  return STRATA_SUCCESS;
}

static const char *entry_shape(strata_mm_format_t fo, strata_mm_field_t fi) {
  if (fo == STRATA_MM_ARRAY) return fi == STRATA_MM_COMPLEX ? "real imaginary" : "value";
  switch (fi) {
  case STRATA_MM_PATTERN: return "row column";
  case STRATA_MM_COMPLEX: return "row column real imaginary";
  default: return "row column value";
  }
}

/* Reads the entries after the header into c (expanded), checking each. */
static strata_status_t mm_read_entries(mm_in_t *in, strata_coo_t *c) {
  const strata_mm_header_t *h = &c->header;
  const char *path = in->path;
  const int nv = h->field == STRATA_MM_PATTERN ? 0 : h->field == STRATA_MM_COMPLEX ? 2 : 1;
  const int ni = h->format == STRATA_MM_COORDINATE ? 2 : 0;
  const int complex = h->field == STRATA_MM_COMPLEX;
  int64_t cap = 0;
  int32_t ai = 0, aj = 0; /* next (row, col) of an array file */
  const int32_t aoff = h->symmetry == STRATA_MM_GENERAL ? -1 : h->symmetry == STRATA_MM_SKEW_SYMMETRIC ? 1 : 0;
  if (aoff > 0) ai = 1;
  char *t[MM_MAX_TOKENS];
  for (int64_t k = 0; k < h->num_stored; ++k) {
    int n = 0;
    strata_status_t st = mm_next_data(in, t, &n);
    if (st != STRATA_SUCCESS) return st;
    if (n == 0)
      return mm_bad(path, in->line, "end of file after %lld of the %lld entries declared on line %lld "
                                    "(truncated file?)",
                    (long long)k, (long long)h->num_stored, (long long)h->size_line);
    if (n != ni + nv)
      return mm_bad(path, in->line, "%d %s, %s %s %s entry has %d (%s)", n, n == 1 ? "token" : "tokens",
                    ni ? "a" : "an", k_format[h->format], k_field[h->field], ni + nv,
                    entry_shape(h->format, h->field));
    int32_t i = ai, j = aj;
    if (ni) {
      st = mm_index(in, t[0], "row", h->num_rows, "rows", h->size_line, &i);
      if (st == STRATA_SUCCESS) st = mm_index(in, t[1], "column", h->num_cols, "columns", h->size_line, &j);
      if (st != STRATA_SUCCESS) return st;
      if (i < j && h->symmetry != STRATA_MM_GENERAL) /* its mirror would add to the stored twin */
        return mm_bad(path, in->line, "entry (%d, %d) lies above the diagonal of a %s file (only the lower "
                                      "triangle, row >= column, is stored; it is mirrored on reading)",
                      i + 1, j + 1, k_symmetry[h->symmetry]);
    } else if (aoff < 0) { /* array general: column by column */
      if (++ai == h->num_rows) ai = 0, ++aj;
    } else { /* array symmetric kinds: the lower triangle column by column */
      if (++ai == h->num_rows) ++aj, ai = aj + aoff;
    }
    double re = 1.0, im = 0.0;
    if (nv >= 1) st = mm_value(in, t[ni], h->field, complex ? "real part" : "value", &re);
    if (st == STRATA_SUCCESS && nv == 2) st = mm_value(in, t[ni + 1], h->field, "imaginary part", &im);
    if (st != STRATA_SUCCESS) return st;
    if (i == j && h->symmetry == STRATA_MM_SKEW_SYMMETRIC && (re != 0 || im != 0))
      return mm_bad(path, in->line, "diagonal entry (%d, %d) of a skew-symmetric matrix is %.17g%s "
                                    "(must be 0)",
                    i + 1, j + 1, re, im != 0 ? " with a nonzero imaginary part" : "");
    if (i == j && h->symmetry == STRATA_MM_HERMITIAN && im != 0)
      return mm_bad(path, in->line, "diagonal entry (%d, %d) of a Hermitian matrix has imaginary part "
                                    "%.17g (a Hermitian diagonal must be real)",
                    i + 1, j + 1, im);
    if (complex) continue; /* checked only: refused after the last entry */
    st = coo_push(c, &cap, path, i, j, re);
    if (st == STRATA_SUCCESS && i != j && h->symmetry != STRATA_MM_GENERAL)
      st = coo_push(c, &cap, path, j, i, h->symmetry == STRATA_MM_SKEW_SYMMETRIC ? -re : re);
    if (st != STRATA_SUCCESS) return st;
  }
  int n = 0;
  strata_status_t st = mm_next_data(in, t, &n);
  if (st != STRATA_SUCCESS) return st;
  if (n > 0)
    return mm_bad(path, in->line, "data beyond the %lld entries declared on line %lld",
                  (long long)h->num_stored, (long long)h->size_line);
  if (complex)
    return mm_bad(path, 1, "field 'complex' is not supported (real, integer and pattern are; "
                           "the %lld entries are well formed)",
                  (long long)h->num_stored);
  return STRATA_SUCCESS;
}

strata_status_t strata_coo_destroy(strata_coo_t **coo) {
  if (!coo || !*coo) return STRATA_SUCCESS;
  free((*coo)->rows);
  free((*coo)->cols);
  free((*coo)->values);
  free(*coo);
  *coo = NULL;
  return STRATA_SUCCESS;
}

static strata_status_t strata_mm_read_coo_impl(const char *path, strata_coo_t **coo) {
  if (!coo) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_coo: NULL output");
  *coo = NULL;
  if (!path) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_coo: NULL path");
  strata_coo_t *c = (strata_coo_t *)calloc(1, sizeof *c);
  if (!c) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mm_read_coo: %zu bytes", sizeof *c);
  mm_in_t in;
  strata_status_t st = mm_open(&in, path);
  if (st == STRATA_SUCCESS) st = mm_read_header(&in, &c->header);
  if (st == STRATA_SUCCESS) {
    c->num_rows = c->header.num_rows;
    c->num_cols = c->header.num_cols;
    st = mm_read_entries(&in, c);
  }
  mm_close(&in);
  if (st != STRATA_SUCCESS) {
    strata_coo_destroy(&c);
    return st;
  }
  *coo = c;
  return STRATA_SUCCESS;
}

strata_status_t strata_mm_read_coo(const char *path, strata_coo_t **coo) {
  MM_IN_C_LOCALE(strata_mm_read_coo_impl(path, coo));
}

strata_status_t strata_mm_coo_to_crs(strata_exec_t *exec, const strata_coo_t *c, strata_crs_matrix_t **A) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_coo_to_crs: NULL output");
  *A = NULL;
  if (!exec || !c)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_coo_to_crs: NULL %s", exec ? "COO" : "execution space");
  strata_status_t st;
  const size_t n = (size_t)c->nnz;
  if (strata_exec_is_host(exec)) {
    st = strata_crs_create_from_coo(exec, c->num_rows, c->num_cols, c->nnz, c->rows, c->cols, c->values, A);
  } else {
    int32_t *r = NULL, *q = NULL;
    double *v = NULL;
    st = strata_sparse_impl_alloc(exec, n * sizeof *r, (void **)&r);
    if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, n * sizeof *q, (void **)&q);
    if (st == STRATA_SUCCESS) st = strata_sparse_impl_alloc(exec, n * sizeof *v, (void **)&v);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, r, c->rows, n * sizeof *r);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, q, c->cols, n * sizeof *q);
    if (st == STRATA_SUCCESS) st = strata_mem_copy(exec, v, c->values, n * sizeof *v);
    if (st == STRATA_SUCCESS) st = strata_crs_create_from_coo(exec, c->num_rows, c->num_cols, c->nnz, r, q, v, A);
    strata_sparse_impl_free(exec, r);
    strata_sparse_impl_free(exec, q);
    strata_sparse_impl_free(exec, v);
  }
  return st;
}

strata_status_t strata_mm_read_crs(strata_exec_t *exec, const char *path, strata_crs_matrix_t **A) {
  if (!A) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_crs: NULL output");
  *A = NULL;
  if (!exec) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_crs: NULL execution space");
  strata_coo_t *c = NULL;
  strata_status_t st = strata_mm_read_coo(path, &c);
  if (st == STRATA_SUCCESS) st = strata_mm_coo_to_crs(exec, c, A);
  strata_coo_destroy(&c);
  return st;
}

strata_status_t strata_mm_read_vector(const char *path, int32_t *n, double **x) {
  if (!n || !x) return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_read_vector: NULL output");
  *n = 0;
  *x = NULL;
  strata_coo_t *c = NULL;
  strata_status_t st = strata_mm_read_coo(path, &c);
  if (st != STRATA_SUCCESS) return st;
  if (c->num_cols != 1) {
    st = mm_bad(path, (long long)c->header.size_line, "a vector must be n x 1, the file declares %d x %d",
                (int)c->num_rows, (int)c->num_cols);
    strata_coo_destroy(&c);
    return st;
  }
  double *v = c->num_rows ? (double *)calloc((size_t)c->num_rows, sizeof(double)) : NULL;
  unsigned char *seen = c->num_rows ? (unsigned char *)calloc((size_t)c->num_rows, 1) : NULL;
  if (c->num_rows && (!v || !seen)) {
    free(v);
    free(seen);
    strata_coo_destroy(&c);
    return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "%s: vector of %d doubles", path, (int)c->num_rows);
  }
  /* the first value of a row is copied (so -0.0 survives), later ones (duplicates) are added */
  for (int64_t k = 0; k < c->nnz; ++k) {
    const int32_t i = c->rows[k];
    v[i] = seen[i] ? v[i] + c->values[k] : c->values[k];
    seen[i] = 1;
  }
  free(seen);
  *n = c->num_rows;
  *x = v;
  strata_coo_destroy(&c);
  return STRATA_SUCCESS;
}

/* ------------------------------------------------------------------ writer */

typedef struct mm_out {
  gzFile f;
  const char *path;
  char buf[1 << 16];
  size_t len;
  strata_status_t st;
} mm_out_t;

static strata_status_t mm_out_open(mm_out_t *o, const char *path) {
  o->path = path;
  o->len = 0;
  o->st = STRATA_SUCCESS;
  errno = 0;
  /* "T": plain (transparent) output; gzip level 6 for ".gz" */
  o->f = gzopen(path, ends_with_gz(path) ? "wb6" : "wbT");
  if (!o->f) return mm_io(path, NULL, errno ? errno : ENOMEM, "cannot open for writing");
  return STRATA_SUCCESS;
}

static void mm_out_flush(mm_out_t *o) {
  if (o->st == STRATA_SUCCESS && o->len > 0) {
    errno = 0;
    if (gzwrite(o->f, o->buf, (unsigned)o->len) != (int)o->len) o->st = mm_io(o->path, o->f, errno, "write failed");
  }
  o->len = 0;
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void mm_out_printf(mm_out_t *o, const char *fmt, ...) {
  if (sizeof o->buf - o->len < 256) mm_out_flush(o);
  va_list ap;
  va_start(ap, fmt);
  const int n = vsnprintf(o->buf + o->len, sizeof o->buf - o->len, fmt, ap);
  va_end(ap);
  if (n > 0) o->len += (size_t)n < sizeof o->buf - o->len ? (size_t)n : sizeof o->buf - o->len - 1;
}

static strata_status_t mm_out_close(mm_out_t *o) {
  mm_out_flush(o);
  errno = 0;
  const int r = gzclose(o->f);
  if (o->st == STRATA_SUCCESS && r != Z_OK)
    o->st = strata_error_set(STRATA_ERR_IO, "%s: close failed: %s", o->path,
                             r == Z_ERRNO ? strerror(errno) : zError(r));
  o->f = NULL;
  return o->st;
}

/* *A readable on the host: a GPU matrix is copied to the serial backend (*copy, to destroy),
 * a host one fenced. */
static strata_status_t mm_host_matrix(const strata_crs_matrix_t **A, strata_crs_matrix_t **copy) {
  *copy = NULL;
  if ((*A)->exec && !strata_exec_is_host((*A)->exec)) {
    strata_exec_t *serial = NULL;
    strata_status_t st = strata_exec_default(STRATA_BACKEND_SERIAL, &serial);
    if (st == STRATA_SUCCESS) st = strata_crs_copy(serial, *A, copy);
    if (st != STRATA_SUCCESS) return st;
    *A = *copy;
    return STRATA_SUCCESS;
  }
  return (*A)->exec ? strata_exec_fence((*A)->exec) : STRATA_SUCCESS;
}

static strata_status_t strata_mm_write_crs_impl(const char *path, const strata_crs_matrix_t *A) {
  if (!path || !A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_write_crs: NULL %s", path ? "matrix" : "path");
  strata_crs_matrix_t *copy = NULL;
  strata_status_t st = mm_host_matrix(&A, &copy);
  if (st != STRATA_SUCCESS) return st;
  mm_out_t *o = (mm_out_t *)malloc(sizeof *o);
  if (!o) st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mm_write_crs: %zu bytes", sizeof *o);
  if (st == STRATA_SUCCESS) st = mm_out_open(o, path);
  if (st == STRATA_SUCCESS) {
    mm_out_printf(o, "%%%%MatrixMarket matrix coordinate real general\n%d %d %lld\n", (int)A->num_rows,
                  (int)A->num_cols, (long long)A->nnz);
    for (int32_t i = 0; i < A->num_rows && o->st == STRATA_SUCCESS; ++i)
      for (int64_t k = A->row_offsets[i]; k < A->row_offsets[i + 1]; ++k)
        mm_out_printf(o, "%d %d %.17g\n", (int)i + 1, (int)A->col_indices[k] + 1, A->values[k]);
    st = mm_out_close(o);
  }
  free(o);
  strata_crs_destroy(&copy);
  return st;
}

strata_status_t strata_mm_write_crs(const char *path, const strata_crs_matrix_t *A) {
  MM_IN_C_LOCALE(strata_mm_write_crs_impl(path, A));
}

static strata_status_t strata_mm_write_array_impl(const char *path, const strata_crs_matrix_t *A) {
  if (!path || !A)
    return strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_write_array: NULL %s", path ? "matrix" : "path");
  strata_crs_matrix_t *copy = NULL, *At = NULL;
  strata_status_t st = mm_host_matrix(&A, &copy);
  if (st != STRATA_SUCCESS) return st;
  /* columns of A = rows of A^T (transposed on A's host exec); one column at a time, dense */
  st = strata_crs_transpose(NULL, A, &At);
  if (st == STRATA_SUCCESS) st = strata_exec_fence(At->exec);
  const size_t m = (size_t)A->num_rows;
  double *col = NULL;
  int32_t *mark = NULL; /* mark[i] == j + 1: row i of column j holds a stored entry */
  mm_out_t *o = NULL;
  if (st == STRATA_SUCCESS) {
    col = (double *)malloc((m + 1) * sizeof(double));
    mark = (int32_t *)calloc(m + 1, sizeof(int32_t));
    o = (mm_out_t *)malloc(sizeof *o);
    if (!col || !mark || !o)
      st = strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mm_write_array: %zu bytes for a column of %zu rows",
                            (m + 1) * (sizeof(double) + sizeof(int32_t)), m);
  }
  if (st == STRATA_SUCCESS) st = mm_out_open(o, path);
  if (st == STRATA_SUCCESS) {
    mm_out_printf(o, "%%%%MatrixMarket matrix array real general\n%d %d\n", (int)A->num_rows, (int)A->num_cols);
    for (int32_t j = 0; j < A->num_cols && o->st == STRATA_SUCCESS; ++j) {
      for (int64_t k = At->row_offsets[j]; k < At->row_offsets[j + 1]; ++k) {
        const int32_t i = At->col_indices[k];
        col[i] = mark[i] == j + 1 ? col[i] + At->values[k] : At->values[k]; /* duplicates summed; -0 kept */
        mark[i] = j + 1;
      }
      for (size_t i = 0; i < m && o->st == STRATA_SUCCESS; ++i)
        mm_out_printf(o, "%.17g\n", mark[i] == j + 1 ? col[i] : 0.0);
    }
    st = mm_out_close(o);
  }
  free(o);
  free(col);
  free(mark);
  strata_crs_destroy(&At);
  strata_crs_destroy(&copy);
  return st;
}

strata_status_t strata_mm_write_array(const char *path, const strata_crs_matrix_t *A) {
  MM_IN_C_LOCALE(strata_mm_write_array_impl(path, A));
}

static strata_status_t strata_mm_write_vector_impl(const char *path, int32_t n, const double *x) {
  if (!path || n < 0 || (!x && n > 0))
    return !path ? strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_write_vector: NULL path")
           : n < 0 ? strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_write_vector: length n = %d is negative (0 or more)", n)
                   : strata_error_set(STRATA_ERR_INVALID_ARGUMENT, "mm_write_vector: NULL x with n = %d > 0", n);
  mm_out_t *o = (mm_out_t *)malloc(sizeof *o);
  if (!o) return strata_error_set(STRATA_ERR_OUT_OF_MEMORY, "mm_write_vector: %zu bytes", sizeof *o);
  strata_status_t st = mm_out_open(o, path);
  if (st == STRATA_SUCCESS) {
    mm_out_printf(o, "%%%%MatrixMarket matrix array real general\n%d 1\n", (int)n);
    for (int32_t i = 0; i < n && o->st == STRATA_SUCCESS; ++i) mm_out_printf(o, "%.17g\n", x[i]);
    st = mm_out_close(o);
  }
  free(o);
  return st;
}

strata_status_t strata_mm_write_vector(const char *path, int32_t n, const double *x) {
  MM_IN_C_LOCALE(strata_mm_write_vector_impl(path, n, x));
}
