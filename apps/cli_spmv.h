/* strata — the command-line tool's names of strata_spmv_options_t.stream_pad (strata spmv
 * --stream-pad, strata bench --spmv-options stream_pad=). */
#ifndef STRATA_CLI_SPMV_H
#define STRATA_CLI_SPMV_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --x ones | random:SEED: 1 (and *seed, *random) when xspec is one of them and well formed, 0
 * when it is random: with a bad seed, -1 when it is neither (a file name) */
static inline int cli_x_spec(const char *xspec, int *random, uint64_t *seed) {
  *random = 0;
  *seed = 0;
  if (!strcmp(xspec, "ones")) return 1;
  if (strncmp(xspec, "random:", 7)) return -1;
  char *end = NULL;
  errno = 0;
  *seed = strtoull(xspec + 7, &end, 10);
  *random = 1;
  /* digits only: strtoull takes " -1" */
  return !(!end || *end || end == xspec + 7 || xspec[7] < '0' || xspec[7] > '9' || errno == ERANGE);
}

/* x [n] of --x ones (random 0) or random:SEED: splitmix64 from seed, uniform in [-1, 1), entry j
 * the j-th draw (every rank of `strata spmv` under mpirun draws the same x) */
static inline void cli_x_fill(int random, uint64_t seed, int64_t n, double *x) {
  for (int64_t j = 0; j < n; ++j) {
    if (!random) {
      x[j] = 1.0;
    } else {
      uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      x[j] = (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
    }
  }
}

/* stream_pad -1, 0, 1 as never, auto, always */
static inline const char *cli_stream_pad_name(int pad) {
  static const char *const names[3] = {"never", "auto", "always"};
  return names[pad < 0 ? 0 : pad > 0 ? 2 : 1];
}

/* *pad from never, auto or always; 0 when s is none of them (*pad untouched), else 1 */
static inline int cli_stream_pad_from_name(const char *s, int *pad) {
  for (int p = -1; p <= 1; ++p)
    if (!strcmp(s, cli_stream_pad_name(p))) {
      *pad = p;
      return 1;
    }
  return 0;
}

#endif
