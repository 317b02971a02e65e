/* strata — status codes and the thread-local error message (DESIGN §5).
 *
 * Every public function returns strata_status_t: 0 on success, a negative code on error.
 * When a call fails, strata_error_message() returns a thread-local text that names the
 * offending value and the limit it broke. Names and strings come from one X-macro (libuv style).
 */
#ifndef STRATA_ERROR_H
#define STRATA_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, value, description) */
#define STRATA_STATUS_LIST(X)                                                         \
  X(SUCCESS, 0, "success")                                                            \
  X(ERR_INVALID_ARGUMENT, -1, "invalid argument")                                     \
  X(ERR_INVALID_POLICY, -2, "invalid execution policy")                               \
  X(ERR_OUT_OF_MEMORY, -3, "out of memory")                                           \
  X(ERR_BACKEND_UNAVAILABLE, -4, "backend not compiled in")                           \
  X(ERR_NO_DEVICE, -5, "no device for this backend")                                  \
  X(ERR_DEVICE, -6, "device or runtime fault")                                        \
  X(ERR_NOT_INITIALIZED, -7, "strata_init has not been called")                       \
  X(ERR_IO, -8, "input/output error")                                                 \
  X(ERR_INVALID_DATA, -9, "invalid data")                                             \
  X(ERR_NOT_CONVERGED, -10, "iteration did not converge")                             \
  X(ERR_UNSUPPORTED, -11, "unsupported operation")                                    \
  X(ERR_INTERNAL, -12, "internal error")

typedef enum strata_status {
#define STRATA_X_ENUM(name, value, text) STRATA_##name = value,
  STRATA_STATUS_LIST(STRATA_X_ENUM)
#undef STRATA_X_ENUM
} strata_status_t;

/** Name of a status code ("STRATA_ERR_INVALID_POLICY"); "STRATA_UNKNOWN" for other values. */
const char *strata_status_name(strata_status_t status);
/** One-line description of a status code ("invalid execution policy"). */
const char *strata_status_string(strata_status_t status);
/** The message of the last failed call on this thread (empty string if none). Never NULL. */
const char *strata_error_message(void);
/** Clears this thread's error message. */
void strata_error_clear(void);
/** Sets this thread's error message (printf format) and returns status, so that modules built on
 *  the core (sparse, apps) report errors the same way: `return strata_error_set(ST, "...", ...)`.
 *  The message names the offending value and the limit it broke. */
strata_status_t strata_error_set(strata_status_t status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
