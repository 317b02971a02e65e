/* strata bench — the report: the summary tables (every record; with --sweep the thresholds'
 * grid; the storage formats' fastest and auto's choice) and, with --out DIR, the plots' data and
 * gnuplot script (stream_bw, unpack_rowlen, spmv_pct_stream, spmv_all_BACKEND, backend_ratio),
 * drawn as PNGs where gnuplot is (run by fork and exec in DIR, never through a shell). */
#define _XOPEN_SOURCE 700 /* fork, execlp */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_harness.h"

/* Storage formats: per backend and matrix the fastest format record, the row-class plan
 * (strata_auto), cuSPARSE ALG1 when measured, and format auto's choice with its time over the
 * best format's (issue: auto within 10 % of the best; "MISS" marks more). */
static void formats_summary(FILE *f) {
  int head = 0;
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    if (strcmp(r->suite, "spmv") || strncmp(r->algo, "format_", 7)) continue;
    int first = 1; /* the first format record of this backend and matrix makes the line */
    for (int j = 0; j < i && first; ++j)
      first = !(!strcmp(bench_rec[j].suite, "spmv") && !strncmp(bench_rec[j].algo, "format_", 7) && !strcmp(bench_rec[j].name, r->name) &&
                !strcmp(bench_rec[j].backend, r->backend));
    if (!first) continue;
    const bench_result_t *best = NULL, *au = NULL, *plan = NULL, *peer = NULL;
    for (int j = i; j < bench_nrec; ++j) {
      const bench_result_t *q = &bench_rec[j];
      if (strcmp(q->suite, "spmv") || strcmp(q->name, r->name) || strcmp(q->backend, r->backend) || q->ok != 1) continue;
      if (!strcmp(q->algo, "format_auto")) au = q;
      else if (!strncmp(q->algo, "format_", 7) && (!best || q->t.median < best->t.median)) best = q;
      if (!strcmp(q->algo, "strata_auto")) plan = q;
      if (!strcmp(q->algo, bench_peer_name(BENCH_PEER_CSR_ALG1))) peer = q;
    }
    for (int j = 0; j < i && !plan; ++j) /* the plan's record comes before the formats' */
      if (!strcmp(bench_rec[j].suite, "spmv") && !strcmp(bench_rec[j].name, r->name) && !strcmp(bench_rec[j].backend, r->backend) &&
          bench_rec[j].ok == 1 && !strcmp(bench_rec[j].algo, "strata_auto"))
        plan = &bench_rec[j];
    if (!head++)
      fprintf(f, "== spmv formats: fastest format, auto's choice and its time over the fastest (ms)\n%-7s %-32s %-28s %-10s %-10s %-28s %s\n",
              "backend", "name", "fastest format", "plan", "cusparse", "auto (choice)", "auto/fastest");
    char b1[48] = "-", b2[16] = "-", b3[16] = "-", b4[48] = "-", b5[24] = "-";
    if (best) snprintf(b1, sizeof b1, "%s %.4f", best->algo + 7, 1e3 * best->t.median);
    if (plan) snprintf(b2, sizeof b2, "%.4f", 1e3 * plan->t.median);
    if (peer) snprintf(b3, sizeof b3, "%.4f", 1e3 * peer->t.median);
    if (au) snprintf(b4, sizeof b4, "%.4f (%s)", 1e3 * au->t.median, au->fmt_chosen);
    if (au && best) {
      const double q = au->t.median / fmin(best->t.median, au->t.median);
      snprintf(b5, sizeof b5, "%.3f%s", q, q > 1.10 ? " MISS" : "");
    }
    fprintf(f, "%-7s %-32.32s %-28s %-10s %-10s %-28s %s\n", r->backend, r->name, b1, b2, b3, b4, b5);
  }
}

void bench_report_summary(FILE *f) {
  int ok = 0, wrong = 0, err = 0, skipped = 0;
  fprintf(f, "\n== strata bench summary (%s, min-time %.3g s; %% = of the same backend's stream reference) ==\n",
          bench_cfg.quick ? "quick" : "full", bench_cfg.min_time);
  fprintf(f, "# timing:");
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    fprintf(f, " %s: %s;", strata_backend_name(bench_cfg.be[bi]), bench_time_method(bench_cfg.ex[bi]));
  fprintf(f, " samples >= 1 ms; fem: whole fem_run jobs, phases by its fences\n");
  fprintf(f, "%-6s %-7s %-32s %-26s %10s %21s %9s %7s %8s %8s\n", "suite", "backend", "name", "algorithm", "time_ms",
          "[min .. max]", "GB/s", "%stream", "x_serial", "x_peer");
  for (int i = 0; i < bench_nrec; ++i) {
    const bench_result_t *r = &bench_rec[i];
    ok += r->ok == 1, wrong += r->ok == 0, err += r->ok == -1, skipped += r->ok == -2;
    if (r->ok != 1) {
      fprintf(f, "%-6s %-7s %-32.32s %-26s %s: %.80s\n", r->suite, r->backend, r->name, r->algo,
              r->ok == -2 ? "SKIPPED" : r->ok ? "ERROR" : "WRONG", r->msg);
      continue;
    }
    const double gbs = r->bytes > 0 ? r->bytes / r->t.median / 1e9 : NAN;
    char pct[16] = "-", xs[16] = "-", xp[16] = "-", gb[16] = "-";
    if (gbs == gbs) snprintf(gb, sizeof gb, "%.2f", gbs);
    if (r->ref_bw > 0 && gbs == gbs) snprintf(pct, sizeof pct, "%.1f", 100 * gbs / r->ref_bw);
    if (r->ratio_serial > 0) snprintf(xs, sizeof xs, "%.2f", r->ratio_serial);
    if (r->ratio_peer > 0) snprintf(xp, sizeof xp, "%.2f", r->ratio_peer);
    fprintf(f, "%-6s %-7s %-32.32s %-26s %10.4f [%8.4f .. %8.4f] %9s %7s %8s %8s\n", r->suite, r->backend, r->name,
            r->algo, 1e3 * r->t.median, 1e3 * r->t.min, 1e3 * r->t.max, gb, pct, xs, xp);
  }
  /* --sweep: one line per matrix and backend, as the former spmv_bench printed it */
  int any_sweep = 0;
  for (int i = 0; i < bench_nrec && !any_sweep; ++i) any_sweep = bench_rec[i].has_thr;
  if (any_sweep) {
    fprintf(f, "== spmv threshold sweep: [one-level max, entries per lane, two-level max, three-level max] -> median ms\n");
    for (int i = 0; i < bench_nrec; ++i) {
      if (!bench_rec[i].has_thr) continue;
      int first = 1; /* the first sweep record of this matrix and backend starts the line */
      for (int j = 0; j < i && first; ++j)
        first = !(bench_rec[j].has_thr && !strcmp(bench_rec[j].name, bench_rec[i].name) &&
                  !strcmp(bench_rec[j].backend, bench_rec[i].backend));
      if (!first) continue;
      fprintf(f, "%-7s %-32.32s", bench_rec[i].backend, bench_rec[i].name);
      for (int j = i; j < bench_nrec; ++j)
        if (bench_rec[j].has_thr && !strcmp(bench_rec[j].name, bench_rec[i].name) && !strcmp(bench_rec[j].backend, bench_rec[i].backend)) {
          if (bench_rec[j].ok == 1) fprintf(f, " %s %.3f", bench_rec[j].algo + 5, 1e3 * bench_rec[j].t.median);
          else fprintf(f, " %s %s", bench_rec[j].algo + 5, bench_rec[j].ok ? "ERROR" : "WRONG");
        }
      fprintf(f, "\n");
    }
  }
  formats_summary(f);
  for (int q = 0; bench_suites[q]; ++q) /* the suites' own tables */
    if (bench_suites[q]->summary && bench_suite_selected(bench_suites[q]->name)) bench_suites[q]->summary(f);
  fprintf(f, "strata bench: %d results, %d checked and timed, %d wrong, %d errors, %d skipped, %.1f s\n", bench_nrec, ok, wrong,
          err, skipped, strata_timer_now() - bench_cfg.t_start);
}

/* A file under --out that could not be created or written: said on stderr, counted (exit 4). */
static void write_failed(const char *path) {
  fprintf(stderr, "strata bench: cannot write %s: %s\n", path, strerror(errno ? errno : EIO));
  ++bench_cfg.write_errors;
}
FILE *bench_out_open(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) write_failed(path);
  return f;
}
void bench_out_close(FILE *f, const char *path) {
  errno = 0;
  const int bad = ferror(f);
  if (fclose(f) || bad) write_failed(path);
}

/* stream_bw.png: GB/s of copy, triad, sum and the reference per backend (bars). 1 if drawn. */
static int stream_plot(FILE *gp) {
  char path[OUT_PATH_BYTES];
  int rows = 0;
  snprintf(path, sizeof path, "%s/stream_bw.dat", bench_cfg.out);
  FILE *d = bench_out_open(path);
  if (!d) return 0;
  fprintf(d, "backend copy triad sum reference\n");
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    const char *bn = strata_backend_name(bench_cfg.be[bi]);
    double v[4] = {-1, -1, -1, -1};
    int any = 0;
    for (int i = 0; i < bench_nrec; ++i) {
      if (strcmp(bench_rec[i].suite, "stream") || strcmp(bench_rec[i].backend, bn) || bench_rec[i].ok != 1) continue;
      const char *al = bench_rec[i].algo;
      const int q = !strcmp(al, "copy") ? 0 : !strcmp(al, "triad") ? 1 : !strcmp(al, "sum") ? 2 : 3;
      v[q] = bench_rec[i].bytes / bench_rec[i].t.median / 1e9, any = 1;
    }
    if (!any) continue;
    fprintf(d, "%s", bn);
    for (int q = 0; q < 4; ++q) v[q] < 0 ? fprintf(d, " -") : fprintf(d, " %.2f", v[q]);
    fprintf(d, "\n");
    ++rows;
  }
  bench_out_close(d, path);
  if (!rows) return 0;
  fprintf(gp,
          "reset\nset datafile missing '-'\nset grid ytics\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset yrange [0:*]\n"
          "set output 'stream_bw.png'\nset title 'Stream bandwidth per backend (GB/s; reference: device memcpy on GPUs, "
          "plain OpenMP triad on host backends)'\nset ylabel 'GB/s'\n"
          "plot for [i=2:5] 'stream_bw.dat' using i:xtic(1)\n");
  return 1;
}

/* unpack_rowlen.png: unpack time per entry (ns) against the incoming row length, one line per
 * backend (log-log). 1 if drawn. */
static int rowlen_plot(FILE *gp) {
  char path[OUT_PATH_BYTES];
  int64_t Ls[64];
  int nL = 0;
  for (int i = 0; i < bench_nrec; ++i) {
    if (bench_rec[i].row_length <= 0) continue;
    int f = 0;
    for (int j = 0; j < nL && !f; ++j) f = Ls[j] == bench_rec[i].row_length;
    if (!f && nL < 64) Ls[nL++] = bench_rec[i].row_length;
  }
  if (!nL) return 0;
  snprintf(path, sizeof path, "%s/unpack_rowlen.dat", bench_cfg.out);
  FILE *d = bench_out_open(path);
  if (!d) return 0;
  fprintf(d, "row_length");
  for (int bi = 0; bi < bench_cfg.nb; ++bi) fprintf(d, " %s", strata_backend_name(bench_cfg.be[bi]));
  fprintf(d, "\n");
  for (int l = 0; l < nL; ++l) {
    fprintf(d, "%lld", (long long)Ls[l]);
    for (int bi = 0; bi < bench_cfg.nb; ++bi) {
      double v = -1;
      for (int i = 0; i < bench_nrec; ++i)
        if (bench_rec[i].row_length == Ls[l] && bench_rec[i].ok == 1 &&
            !strcmp(bench_rec[i].backend, strata_backend_name(bench_cfg.be[bi])))
          v = 1e9 * bench_rec[i].t.median / bench_rec[i].entries;
      v < 0 ? fprintf(d, " -") : fprintf(d, " %.4f", v);
    }
    fprintf(d, "\n");
  }
  bench_out_close(d, path);
  fprintf(gp,
          "reset\nset datafile missing '-'\nset grid xtics ytics\nset key outside right autotitle columnheader\n"
          "set output 'unpack_rowlen.png'\nset title 'unpack_combine(ADD): time per entry against the incoming row length "
          "(packets of L entries, ~4 per global row)'\nset xlabel 'entries per incoming row (L)'\n"
          "set ylabel 'ns per entry'\nset logscale xy 2\nset format y '%%g'\n"
          "plot for [i=2:%d] 'unpack_rowlen.dat' using 1:i with linespoints lw 2 pt 7\n",
          bench_cfg.nb + 1);
  return 1;
}

/* series = backend/algorithm pairs that occur in the spmv results; rows = matrices */
/* One bar chart of % of the stream reference per matrix: series (backend/algorithm) of ser that
 * belong to `backend`, or, with backend NULL, the headline ones: each backend's row-class plan
 * (strata_auto) and automatic format (format_auto), and the vendor peers' CSR algorithms.
 * Writes STEM.dat and the gnuplot commands for STEM.png; 1 when drawn. */
static int pct_plot(FILE *gp, char (*ser)[48], int ns, char (*mat)[160], int nm, const char *stem, const char *title,
                    const char *backend) {
  char path[OUT_PATH_BYTES];
  int pick[256], np = 0;
  for (int j = 0; j < ns && np < 256; ++j) {
    const char *slash = strchr(ser[j], '/'), *algo = slash ? slash + 1 : ser[j];
    const int ok = backend ? !strncmp(ser[j], backend, strlen(backend)) && ser[j][strlen(backend)] == '/'
                           : !strcmp(algo, "strata_auto") || !strcmp(algo, "format_auto") || strstr(algo, "sparse_csr_alg");
    if (ok) pick[np++] = j;
  }
  if (!np) return 0;
  snprintf(path, sizeof path, "%s/%s.dat", bench_cfg.out, stem);
  FILE *d = bench_out_open(path);
  if (!d) return 0;
  fprintf(d, "matrix");
  for (int q = 0; q < np; ++q) fprintf(d, " %s", ser[pick[q]]);
  fprintf(d, "\n");
  for (int m = 0; m < nm; ++m) {
    fprintf(d, "\"%s\"", mat[m]);
    for (int q = 0; q < np; ++q) {
      double v = -1;
      for (int i = 0; i < bench_nrec; ++i) {
        char sn[48];
        snprintf(sn, sizeof sn, "%s/%s", bench_rec[i].backend, bench_rec[i].algo);
        if (bench_rec[i].ok == 1 && !strcmp(bench_rec[i].suite, "spmv") && !strcmp(bench_rec[i].name, mat[m]) &&
            !strcmp(sn, ser[pick[q]]) &&
            bench_rec[i].ref_bw > 0)
          v = 100.0 * bench_rec[i].bytes / bench_rec[i].t.median / 1e9 / bench_rec[i].ref_bw;
      }
      if (v < 0) fprintf(d, " -");
      else fprintf(d, " %.2f", v);
    }
    fprintf(d, "\n");
  }
  bench_out_close(d, path);
  fprintf(gp,
          "reset\nset datafile missing '-'\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset xtics rotate by -35\n"
          "set grid ytics\nset yrange [0:*]\nset bmargin 12\n"
          "set output '%s.png'\nset title '%s'\n"
          "set ylabel '%% of stream'\nplot for [i=2:%d] '%s.dat' using i:xtic(1)\n",
          stem, title, np + 1, stem);
  return 1;
}

/* gnuplot plots.gp in --out, its stderr to gnuplot.log there: fork and exec with chdir, no shell,
 * so that no --out text is ever read as a command. 0 drawn, 127 no gnuplot, else failed. */
static int run_gnuplot(void) {
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (chdir(bench_cfg.out)) _exit(126);
    const int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd >= 0) dup2(fd, 2), close(fd);
    execlp("gnuplot", "gnuplot", "plots.gp", (char *)NULL);
    _exit(errno == ENOENT ? 127 : 126);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void bench_report_plots(void) {
  char path[OUT_PATH_BYTES];
  int ns = 0, nm = 0;
  char (*ser)[48] = (char (*)[48])calloc((size_t)bench_nrec + 1, 48), (*mat)[160] = (char (*)[160])calloc((size_t)bench_nrec + 1, 160);
  for (int i = 0; i < bench_nrec; ++i) {
    if (strcmp(bench_rec[i].suite, "spmv") || !strcmp(bench_rec[i].algo, "input") || bench_rec[i].has_thr) continue;
    char s[48];
    snprintf(s, sizeof s, "%s/%s", bench_rec[i].backend, bench_rec[i].algo);
    int f = 0;
    for (int j = 0; j < ns && !f; ++j) f = !strcmp(ser[j], s);
    if (!f) snprintf(ser[ns++], 48, "%s", s);
    f = 0;
    for (int j = 0; j < nm && !f; ++j) f = !strcmp(mat[j], bench_rec[i].name);
    if (!f) snprintf(mat[nm++], 160, "%s", bench_rec[i].name);
  }
  FILE *d2 = NULL, *gp = NULL;
  snprintf(path, sizeof path, "%s/plots.gp", bench_cfg.out);
  char gp_path[OUT_PATH_BYTES];
  snprintf(gp_path, sizeof gp_path, "%s", path);
  if (!(gp = bench_out_open(path))) goto out;
  fprintf(gp,
          "# strata bench plots (gnuplot plots.gp in this folder)\n"
          "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size 1600,800 noenhanced } "
          "else { set terminal png size 1600,800 noenhanced }\n"
          "set datafile missing '-'\nset grid ytics\n");
  int pngs = stream_plot(gp) + rowlen_plot(gp);
  if (!ns) goto run;
  /* % of stream per matrix and series; backend ratios (x_serial of each auto plan, and the
   * cuSPARSE peer over strata auto on the same backend) */
  pngs += pct_plot(gp, ser, ns, mat, nm, "spmv_pct_stream",
                   "SpMV: strata (row-class plan; automatic format) and the vendor peer, % of the stream reference of the same backend (same run)",
                   NULL);
  for (int bi = 0; bi < bench_cfg.nb; ++bi) {
    char stem[64], title[160];
    snprintf(stem, sizeof stem, "spmv_all_%s", strata_backend_name(bench_cfg.be[bi]));
    snprintf(title, sizeof title, "SpMV on %s: every plan algorithm and storage format, %% of its stream reference",
             strata_backend_name(bench_cfg.be[bi]));
    pngs += pct_plot(gp, ser, ns, mat, nm, stem, title, strata_backend_name(bench_cfg.be[bi]));
  }
  snprintf(path, sizeof path, "%s/backend_ratio.dat", bench_cfg.out);
  d2 = bench_out_open(path);
  if (!d2) goto close;
  fprintf(d2, "matrix");
  int nr2 = 0, nvals = 0; /* ratio columns before the peer's; values written (none: no plot) */
  for (int bi = 0; bi < bench_cfg.nb; ++bi)
    if (bench_cfg.be[bi] != STRATA_BACKEND_SERIAL) fprintf(d2, " %s/serial", strata_backend_name(bench_cfg.be[bi])), ++nr2;
  fprintf(d2, " strata_auto/%s\n", bench_peer_name(BENCH_PEER_CSR_ALG1));
  for (int m = 0; m < nm; ++m) {
    fprintf(d2, "\"%s\"", mat[m]);
    double peer = -1;
    for (int bi = 0; bi < bench_cfg.nb; ++bi) {
      if (bench_cfg.be[bi] == STRATA_BACKEND_SERIAL) continue;
      double v = -1;
      for (int i = 0; i < bench_nrec; ++i)
        if (bench_rec[i].ok == 1 && !strcmp(bench_rec[i].suite, "spmv") && !strcmp(bench_rec[i].name, mat[m]) &&
            !strcmp(bench_rec[i].backend, strata_backend_name(bench_cfg.be[bi])) && !strcmp(bench_rec[i].algo, "strata_auto")) {
          v = bench_rec[i].ratio_serial > 0 ? bench_rec[i].ratio_serial : -1;
          if (bench_peer_count(bench_cfg.be[bi]) && bench_rec[i].ratio_peer > 0) peer = bench_rec[i].ratio_peer;
        }
      if (v < 0) fprintf(d2, " -");
      else fprintf(d2, " %.3f", v), ++nvals;
    }
    if (peer < 0) fprintf(d2, " -\n");
    else fprintf(d2, " %.3f\n", peer), ++nvals;
  }
  bench_out_close(d2, path);
  d2 = NULL;
  /* a run on serial alone, or whose ratios all failed, has nothing to draw (gnuplot refused the
   * empty range and left an empty PNG) */
  if (nvals == 0) goto run;
  pngs += 1;
  fprintf(gp,
          "reset\nset datafile missing '-'\nset style data histograms\nset style histogram clustered gap 1\n"
          "set style fill solid border -1\nset key outside right autotitle columnheader\nset xtics rotate by -35\n"
          "set grid ytics\nset bmargin 12\n"
          "set output 'backend_ratio.png'\nset title 'SpMV speed-up, strata auto: backend over serial, and over the vendor CSR ALG1 (last)'\n"
          "set ylabel 'ratio of times (>1: faster)'\nset logscale y\nset yrange [*:*]\n"
          "plot for [i=2:%d] 'backend_ratio.dat' using i:xtic(1)\n",
          nr2 + 2);
run:
  bench_out_close(gp, gp_path);
  gp = NULL;
  if (!pngs || bench_cfg.write_errors) goto close;
  switch (run_gnuplot()) {
    case 0: fprintf(stderr, "strata bench: %d plots in %s (*.png)\n", pngs, bench_cfg.out); break;
    case 127: fprintf(stderr, "strata bench: no gnuplot; plot data and script in %s (plots.gp)\n", bench_cfg.out); break;
    default: fprintf(stderr, "strata bench: gnuplot failed (see %s/gnuplot.log)\n", bench_cfg.out);
  }
close:
  if (d2) fclose(d2);
  if (gp) fclose(gp);
out:
  free(ser);
  free(mat);
}
