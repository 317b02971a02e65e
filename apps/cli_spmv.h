/* strata — the command-line tool's names of strata_spmv_options_t.stream_pad (strata spmv
 * --stream-pad, strata bench --spmv-options stream_pad=). */
#ifndef STRATA_CLI_SPMV_H
#define STRATA_CLI_SPMV_H

#include <string.h>

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
