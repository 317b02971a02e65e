/* strata — status names and the thread-local error message. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static _Thread_local char strata_message[1024];
static _Thread_local unsigned strata_message_serial; /* counts the messages set on this thread */

const char *strata_status_name(strata_status_t status) {
  switch (status) {
#define STRATA_X_CASE(name, value, text) \
  case STRATA_##name:                    \
    return "STRATA_" #name;
    STRATA_STATUS_LIST(STRATA_X_CASE)
#undef STRATA_X_CASE
  }
  return "STRATA_UNKNOWN";
}

const char *strata_status_string(strata_status_t status) {
  switch (status) {
#define STRATA_X_CASE(name, value, text) \
  case STRATA_##name:                    \
    return text;
    STRATA_STATUS_LIST(STRATA_X_CASE)
#undef STRATA_X_CASE
  }
  return "unknown status";
}

const char *strata_error_message(void) { return strata_message; }

void strata_error_clear(void) { strata_message[0] = '\0'; }

unsigned strata_impl_error_serial(void) { return strata_message_serial; }

#define STRATA_SET_MESSAGE(fmt)                                  \
  do {                                                           \
    va_list ap;                                                  \
    va_start(ap, fmt);                                           \
    vsnprintf(strata_message, sizeof strata_message, fmt, ap);   \
    ++strata_message_serial;                                     \
    va_end(ap);                                                  \
  } while (0)

strata_status_t strata_impl_error(strata_status_t status, const char *fmt, ...) {
  STRATA_SET_MESSAGE(fmt);
  return status;
}

/* the public setter, for modules that see only the public headers (sparse, apps) */
strata_status_t strata_error_set(strata_status_t status, const char *fmt, ...) {
  STRATA_SET_MESSAGE(fmt);
  return status;
}

size_t strata_type_size(strata_type_t type) {
  switch (type) {
    case STRATA_TYPE_I32: return 4;
    case STRATA_TYPE_I64: return 8;
    case STRATA_TYPE_F32: return 4;
    case STRATA_TYPE_F64: return 8;
    case STRATA_TYPE_U8: return 1;
#define STRATA_X_CASE(E, s, T) \
  case STRATA_TYPE_##E:        \
    return sizeof(T);
    STRATA_LOC_TYPE_LIST(STRATA_X_CASE)
#undef STRATA_X_CASE
    default: return 0;
  }
}

const char *strata_type_name(strata_type_t type) {
  switch (type) {
#define STRATA_X_CASE(E, s, T) \
  case STRATA_TYPE_##E:        \
    return #s;
    STRATA_VIEW_TYPE_LIST(STRATA_X_CASE)
    STRATA_LOC_TYPE_LIST(STRATA_X_CASE)
#undef STRATA_X_CASE
    case STRATA_TYPE_NONE: return "none";
  }
  return "unknown";
}
