#!/bin/sh
# strata spmv under mpirun -np 2 against the single-rank run (tests/dist.cmake, cli.dist.spmv.np2):
# usage: dist_spmv_cli.sh STRATA MPIEXEC "MPI_FLAGS" MATRIX OUTDIR BACKEND. y of every mode and
# partition within 1e-13 (relative to max |y|) of the single-rank y; exit 77 when MATRIX is missing.
strata=$1 mpiexec=$2 flags=$3 matrix=$4 out=$5 be=$6
[ -f "$matrix" ] || { echo "$matrix missing: skipped"; exit 77; }
mkdir -p "$out" || exit 1
"$strata" spmv "$matrix" --x random:5 --backend "$be" --repeat 1 --out "$out/y1.mtx" > /dev/null || exit 1
for p in block auto; do # auto: METIS where strata was built with it
  for m in vector overlap task; do
    # shellcheck disable=SC2086
    "$mpiexec" -n 2 $flags "$strata" spmv "$matrix" --x random:5 --backend "$be" --repeat 2 --dist-mode $m --partition $p \
      --out "$out/y2.mtx" --json || exit 1
    awk 'FNR == 1 { f++ } /^%/ { next } { if (++n[f] > 1) v[f, n[f]] = $1 }
         END { if (n[1] != n[2] || n[1] < 2) { print "lengths differ: " n[1] " " n[2]; exit 1 }
               mx = 0; for (i = 2; i <= n[1]; i++) { a = v[1, i] < 0 ? -v[1, i] : v[1, i]; if (a > mx) mx = a }
               for (i = 2; i <= n[1]; i++) { d = v[1, i] - v[2, i]; if (d < 0) d = -d
                 if (d > 1e-13 * mx) { print "y differs at " i - 1 ": " v[1, i] " vs " v[2, i]; exit 1 } } }' \
      "$out/y1.mtx" "$out/y2.mtx" || exit 1
  done
done
echo "all modes equal the single-rank y"
