#!/bin/sh
# strata fem under mpirun -np 1, 2, 3, 4 against the single-rank run (tests/dist.cmake,
# cli.dist.fem.solve): usage: dist_fem_cli.sh STRATA MPIEXEC "MPI_FLAGS" BACKEND [fem options].
# The distributed solve (CG with Jacobi over the ranks) applies the same operator as the
# single-rank job; only the order of the sums differs (each rank's partial dot product, then the
# ranks in order; METIS renumbers the nodes too), so the iteration count may differ by rounding:
# allowed within 2 of the single-rank count, and ||u|| within 1e-8 relative (tol 1e-10 on the
# residual). With one rank under mpirun the job is the single-rank one: the same iterations and
# the same ||u|| bits.
strata=$1 mpiexec=$2 flags=$3 be=$4
shift 4
get() { # get KEY < json: the number after "KEY":
  sed -n "s/.*\"$1\": \([-0-9.eE+]*\).*/\1/p"
}
one=$("$strata" fem --backend "$be" --json "$@") || { echo "single-rank run failed"; exit 1; }
it1=$(echo "$one" | get iterations) nu1=$(echo "$one" | get solution_norm)
echo "single rank: $it1 iterations, ||u|| = $nu1"
[ -n "$it1" ] && [ -n "$nu1" ] || { echo "no iterations or solution_norm in: $one"; exit 1; }
for np in 1 2 3 4; do
  for p in block auto; do
    [ $np -eq 1 ] && [ $p = auto ] && continue
    part="--partition $p"
    [ $np -eq 1 ] && part="" # --partition applies with several ranks only
    # shellcheck disable=SC2086
    out=$("$mpiexec" -n $np $flags "$strata" fem --backend "$be" --json $part "$@") || { echo "np $np $p: failed"; exit 1; }
    it=$(echo "$out" | get iterations) nu=$(echo "$out" | get solution_norm)
    ranks=$(echo "$out" | get ranks)
    echo "np $np ${part:+$p}: $it iterations, ||u|| = $nu${ranks:+, ranks $ranks}"
    [ $np -eq 1 ] || [ "$ranks" = "$np" ] || { echo "np $np: ranks '$ranks' in the JSON"; exit 1; }
    awk -v a="$it" -v b="$it1" -v u="$nu" -v v="$nu1" -v np="$np" 'BEGIN {
      d = a - b; if (d < 0) d = -d
      if (a == "" || d > 2) { print "iterations " a " vs single-rank " b ": more than 2 apart"; exit 1 }
      e = u - v; if (e < 0) e = -e
      if (u == "" || !(e <= 1e-8 * v)) { print "||u|| " u " vs single-rank " v; exit 1 }
      if (np == 1 && (a != b || u != v)) { print "one rank under mpirun differs from the single-rank run"; exit 1 } }' || exit 1
  done
done
echo "every rank count matches the single-rank solve"
