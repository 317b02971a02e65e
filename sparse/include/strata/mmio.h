/* strata — Matrix Market I/O (DESIGN §4, EDGE_CASES E4/E5; included by strata/sparse.h).
 *
 * Reader: formats coordinate and array; fields real, integer and pattern (every stored entry is
 * 1); symmetry general, symmetric, skew-symmetric (mirrored with negation; a nonzero diagonal is
 * refused) and hermitian (with real data the same as symmetric). Symmetric storage mirrors the
 * off-diagonal entries only (E4). The field complex is refused (after the entries have been
 * checked, so that a Hermitian diagonal with a nonzero imaginary part is named by its line).
 * Banner keywords are case-insensitive. Lines starting with '%' after the banner (including
 * "%%..." lines) and blank lines are comments. Files are read through zlib, so a gzip-compressed
 * file (name ending in .gz, or any other name) reads the same as a plain one; several gzip
 * members in a row are one stream (as gzip -d reads them). In a regular file, bytes after the
 * last member are refused (INVALID_DATA, naming their offset) unless all zero (padding, as gzip
 * accepts): zlib would stop at them silently. To find where the gzip data end the file is
 * inflated a second time at its end (about a tenth more time to read a compressed file); pipes
 * and FIFOs are read once, as zlib reads them, without that check.
 *
 * Duplicates: a coordinate file may store the same (row, col) more than once; the entries are
 * kept in the COO as stored and SUMMED when a CrsMatrix is built (strata_crs_create_from_coo) —
 * what REFERENCE_SPMV.tsv gives for fmm/coordinate_symmetric_row_general_dup.mtx (60 at (3,3)).
 *
 * Every refusal returns STRATA_ERR_INVALID_DATA with the message "<path>:<line>: <reason>", the
 * line 1-based, naming the value and the limit broken (e.g. "price_1000.mtx:3: column index 0 is
 * below 1 (Matrix Market indices are 1-based)"); open/read/write failures return STRATA_ERR_IO
 * with the path and strerror (or zlib's message). All functions are synchronous and host-side.
 * Numbers are read and written in the "C" numeric locale (a '.' decimal point) whatever the
 * caller's LC_NUMERIC (the "C" locale per call and per thread with uselocale, then restored;
 * strerror text in messages is therefore English).
 */
#ifndef STRATA_MMIO_H
#define STRATA_MMIO_H

#include "strata/strata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct strata_crs_matrix;

typedef enum strata_mm_format { STRATA_MM_COORDINATE = 0, STRATA_MM_ARRAY = 1 } strata_mm_format_t;
typedef enum strata_mm_field {
  STRATA_MM_REAL = 0,
  STRATA_MM_INTEGER = 1,
  STRATA_MM_PATTERN = 2,
  STRATA_MM_COMPLEX = 3
} strata_mm_field_t;
typedef enum strata_mm_symmetry {
  STRATA_MM_GENERAL = 0,
  STRATA_MM_SYMMETRIC = 1,
  STRATA_MM_SKEW_SYMMETRIC = 2,
  STRATA_MM_HERMITIAN = 3
} strata_mm_symmetry_t;

/** What the banner and the size line of a Matrix Market file declare. */
typedef struct strata_mm_header {
  strata_mm_format_t format;
  strata_mm_field_t field;
  strata_mm_symmetry_t symmetry;
  int32_t num_rows;   /**< checked: 0 <= num_rows <= INT32_MAX */
  int32_t num_cols;
  int64_t num_stored; /**< entries stored in the file: the size line's nnz (coordinate), or
                           rows*cols, n(n+1)/2, n(n-1)/2 (array general, symmetric, skew) */
  int64_t size_line;  /**< 1-based line number of the size line */
} strata_mm_header_t;

/** A host-side coordinate matrix: 0-based rows/cols [nnz] (int32), values [nnz] (never NULL when
 *  nnz > 0; pattern entries are 1.0). Symmetric storage is expanded; duplicates are kept as
 *  stored; array files give every entry, zeros included, column by column. All arrays malloc'd. */
typedef struct strata_coo {
  int32_t num_rows;
  int32_t num_cols;
  int64_t nnz;
  int32_t *rows;
  int32_t *cols;
  double *values;
  strata_mm_header_t header; /**< what the file declared */
} strata_coo_t;

/** Reads only the banner and the size line of `path` into *header (checks as the full read).
 *  Errors: IO (open/read, with strerror), INVALID_DATA (path:line: reason), INVALID_ARGUMENT (NULL). */
strata_status_t strata_mm_read_header(const char *path, strata_mm_header_t *header);

/** Reads a Matrix Market matrix into a new host COO (*coo; destroy with strata_coo_destroy).
 *  Checks, each refused with path, line and reason (INVALID_DATA): banner, object, format,
 *  field, symmetry and their combination (pattern only with coordinate and not skew; symmetric
 *  kinds square), sizes (negative, beyond INT32_MAX for rows/cols), tokens per entry (too few or
 *  too many for the field), non-numeric or non-integer tokens, indices below 1 or above the
 *  declared size, fewer entries than declared (truncated file) or more, a coordinate entry above
 *  the diagonal (row < column) of a symmetric kind (only the lower triangle is stored: an upper
 *  entry beside its lower twin would be doubled by the mirroring), an integer-field value beyond
 *  2^53 in magnitude (not exact as a double), a real value beyond the largest double (its
 *  nearest double would be infinite; a value below the smallest subnormal rounds to +-0 instead,
 *  its nearest double, and the entry is kept as a stored zero; the literals inf, infinity and
 *  nan, any case and sign, are IEEE values, not out of range, and are read as such, as the writer
 *  writes them and as strtod and SciPy read them), a nonzero skew-symmetric
 *  diagonal, a nonzero imaginary Hermitian diagonal, and complex data (not supported).
 *  Errors also: IO, OUT_OF_MEMORY. Source: NIST Matrix Market format (Boisvert, Pozo, Remington
 *  1996), with SciPy / fast_matrix_market's expansion rules. */
strata_status_t strata_mm_read_coo(const char *path, strata_coo_t **coo);

/** Frees a COO from strata_mm_read_coo. NULL-safe; sets *coo to NULL. */
strata_status_t strata_coo_destroy(strata_coo_t **coo);

/** A fill-complete CrsMatrix on exec from a host COO of strata_mm_read_coo
 *  (strata_crs_create_from_coo: duplicates summed in file order; on a device backend the COO is
 *  copied there first). Synchronous. Errors: INVALID_ARGUMENT (NULL), those of
 *  strata_crs_create_from_coo, OUT_OF_MEMORY. */
strata_status_t strata_mm_coo_to_crs(strata_exec_t *exec, const strata_coo_t *coo, struct strata_crs_matrix **A);

/** Reads a Matrix Market matrix (strata_mm_read_coo) and builds a fill-complete CrsMatrix on exec
 *  (strata_mm_coo_to_crs). Errors: those of both calls. */
strata_status_t strata_mm_read_crs(strata_exec_t *exec, const char *path,
                                   struct strata_crs_matrix **A);

/** Writes A as "coordinate real general", 1-based, values with %.17g (read back bit for bit; a
 *  NaN is written as nan or -nan, so a NaN's payload bits are not kept),
 *  rows in order and each row's entries as stored. A may live on any backend (a GPU matrix is
 *  copied to the serial backend first). A path ending in ".gz" is written gzip-compressed.
 *  Errors: INVALID_ARGUMENT (NULL), IO (open/write/close, named), OUT_OF_MEMORY. */
strata_status_t strata_mm_write_crs(const char *path, const struct strata_crs_matrix *A);

/** Writes A as "array real general": all num_rows x num_cols values, column by column (entries
 *  not stored are 0, duplicates summed, a stored -0 kept), %.17g as strata_mm_write_crs. Meant for
 *  small or dense matrices: the file holds every value. A may live on any backend; ".gz" paths are
 *  compressed. Errors: INVALID_ARGUMENT (NULL), IO (open/write/close, named), OUT_OF_MEMORY (A^T on
 *  the host and one column). */
strata_status_t strata_mm_write_array(const char *path, const struct strata_crs_matrix *A);

/** Reads a dense vector: an n x 1 matrix, "array general" (the usual form) or "coordinate"
 *  (entries not stored are 0, duplicates summed; pattern entries are 1; a 1 x 1 may say any
 *  symmetry), with every check of strata_mm_read_coo. *x [*n] is host memory
 *  allocated with malloc (free it with free(); NULL when n = 0). Errors: as strata_mm_read_coo,
 *  plus INVALID_DATA when the file is not n x 1 (path, size line, the declared shape). */
strata_status_t strata_mm_read_vector(const char *path, int32_t *n, double **x);

/** Writes x [n] (host memory) as an n x 1 "array real general" file, %.17g (exact round trip
 *  but for NaN payloads: nan / -nan);
 *  ".gz" paths compressed. Errors: INVALID_ARGUMENT (NULL path, n < 0, NULL x with n > 0), IO. */
strata_status_t strata_mm_write_vector(const char *path, int32_t n, const double *x);

#ifdef __cplusplus
}
#endif
#endif
