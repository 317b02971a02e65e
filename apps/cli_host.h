/* strata — facts about the host machine for the command-line tool's size checks. */
#ifndef STRATA_CLI_HOST_H
#define STRATA_CLI_HOST_H

#include <unistd.h>

/* The machine's physical memory in bytes (sysconf), 0 when it cannot be told. */
static inline double cli_physical_memory(void) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? (double)pages * (double)page : 0.0;
}

#endif
