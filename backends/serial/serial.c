/* strata — the serial backend: one host thread; the reference every backend is tested against. */
#include <string.h>

#include "../../core/src/internal.h"

static strata_status_t serial_device_count(int *count) {
  *count = 1;
  return STRATA_SUCCESS;
}

static strata_status_t serial_device_info(int device, strata_device_info_t *info) {
  (void)device;
  memset(info, 0, sizeof *info);
  strcpy(info->name, "host (serial)");
  info->multiprocessors = 1;
  info->warp_size = 1;
  info->max_threads_per_team = 1;
  info->max_scratch_bytes = STRATA_HOST_MAX_SCRATCH;
  return STRATA_SUCCESS;
}

static strata_status_t host_stream_create(int device, void **stream) {
  (void)device;
  *stream = NULL;
  return STRATA_SUCCESS;
}
static strata_status_t host_stream_destroy(int device, void *stream) {
  (void)device;
  (void)stream;
  return STRATA_SUCCESS;
}
static strata_status_t host_fence(int device, void *stream) {
  (void)device;
  (void)stream;
  return STRATA_SUCCESS;
}

const strata_impl_backend_t strata_impl_backend_serial = {
    STRATA_BACKEND_SERIAL, "serial", 1, 1,
    serial_device_count, serial_device_info, host_stream_create, host_stream_destroy, host_fence,
    strata_impl_host_alloc, strata_impl_host_dealloc, strata_impl_host_copy, strata_impl_host_set,
    strata_impl_host_sort_pairs_serial,
    NULL, NULL, /* scan_exclusive_i64, copy_2d: the core's portable paths */
    NULL, NULL, /* range_push, range_pop: no tool ranges on the host */
    NULL, NULL, NULL, NULL, /* events: the core's host clock after a fence */
    NULL, NULL,             /* alloc_async, free_async: allocated and freed at once */
    NULL};                  /* event_wait: launches are complete when their call returns */
