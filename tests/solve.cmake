# `strata solve` end to end (issue 27 item 5): every exit code and its message, on small matrices
# written here and on the shared matrices. solve_cli(<name> <exit> <regex> <args>...): passes when
# the output (stdout and stderr) matches <regex> and the tool exits with <exit>.
if(NOT TARGET strata_cli)
  return()
endif()
function(solve_cli name code regex)
  add_test(NAME cli.solve.${name} COMMAND sh -c "\"$0\" solve \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${ARGN})
  set_tests_properties(cli.solve.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}.*exit=${code}\n" TIMEOUT 300
                       ENVIRONMENT "OMP_WAIT_POLICY=passive")
endfunction()

set(_d ${CMAKE_CURRENT_BINARY_DIR}/solve_cases)
file(MAKE_DIRECTORY ${_d})
set(_mm "%%MatrixMarket matrix coordinate real")
# tridiag(-1, 2, -1), n = 10: b = ones excites the 5 eigenvectors symmetric under i -> n+1-i, so CG
# converges in exactly 5 iterations (in exact arithmetic; here the residual after 5 is 0 or ~1e-16)
set(_lap "${_mm} symmetric\n10 10 19\n")
foreach(i RANGE 1 10)
  string(APPEND _lap "${i} ${i} 2\n")
  if(i LESS 10)
    math(EXPR j "${i} + 1")
    string(APPEND _lap "${j} ${i} -1\n")
  endif()
endforeach()
file(WRITE ${_d}/lap10.mtx "${_lap}")
# [4 -1 0; -1 4 -1; 0 -1 4] x = ones: x = (5/14, 3/7, 5/14)
file(WRITE ${_d}/t3.mtx "${_mm} symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 -1\n3 3 4\n")
file(WRITE ${_d}/t3_x.mtx "%%MatrixMarket matrix array real general\n3 1\n0.35714285714285715\n0.42857142857142855\n0.35714285714285715\n")
file(WRITE ${_d}/t3_b.mtx "%%MatrixMarket matrix array real general\n3 1\n3\n2\n3\n")  # A (1, 1, 1) = (3, 2, 3)
file(WRITE ${_d}/b2.mtx "%%MatrixMarket matrix array real general\n2 1\n1\n1\n")
file(WRITE ${_d}/b3_inf.mtx "%%MatrixMarket matrix array real general\n3 1\n1\ninf\n1\n")
file(WRITE ${_d}/rect.mtx "${_mm} general\n2 3 2\n1 1 1\n2 2 1\n")
file(WRITE ${_d}/nan.mtx "${_mm} general\n3 3 3\n1 1 1\n2 2 nan\n3 3 1\n")
file(WRITE ${_d}/zero_diag.mtx "${_mm} general\n3 3 5\n1 1 4\n2 2 0\n3 3 4\n1 2 1\n2 1 1\n")
file(WRITE ${_d}/no_diag.mtx "${_mm} general\n3 3 4\n1 1 4\n3 3 4\n1 2 1\n2 1 1\n")
file(WRITE ${_d}/zero_pivot.mtx "${_mm} general\n2 2 4\n1 1 1\n1 2 1\n2 1 1\n2 2 1\n")  # u_22 = 1 - 1 = 0
file(WRITE ${_d}/indefinite.mtx "${_mm} general\n2 2 2\n1 1 1\n2 2 -1\n")  # CG: p.Ap = 1 - 1 = 0
get_filename_component(_sh "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)

# ---- exit 0: converged
solve_cli(cg_exact 0 "cg, preconditioner none.*converged after 5 iterations" ${_d}/lap10.mtx --solver cg)
foreach(be serial openmp)
  solve_cli(cg_jacobi_${be} 0 "backend ${be}.*cg, preconditioner jacobi.*converged after 5 iterations"
            ${_d}/lap10.mtx --solver cg --precond jacobi --backend ${be})
endforeach()
solve_cli(json 0 "^\\{\"matrix\": \"[^\"]*t3.mtx\", \"backend\": \"[a-z]+\", \"rows\": 3, \"nnz\": 7, \"solver\": \"bicgstab\", \"restart\": null, \"precond\": \"ilu\\(0\\)\", \"precond_nnz\": 7, .*\"tol\": 1e-10, \"max_iter\": 1000, \"status\": \"converged\", \"converged\": true, \"breakdown\": null, \"iterations\": 1, \"residual\": [0-9.e-]+, .*\"times_s\": \\{\"read\": [0-9.e-]+, \"operator\": [0-9.e-]+, \"precond_symbolic\": [0-9.e-]+, \"precond_numeric\": [0-9.e-]+, \"precond_analysis\": [0-9.e-]+, \"precond_setup\": [0-9.e-]+, \"solve_setup\": [0-9.e-]+, \"solve\": [0-9.e-]+, \"total\": [0-9.e-]+\\}\\}\n"
          ${_d}/t3.mtx --solver bicgstab --precond ilu0 --tol 1e-10 --json)
solve_cli(history_json 0 "\"iterations\": 5, .*\"history\": \\[1, [0-9.e-]+, [0-9.e-]+, [0-9.e-]+, [0-9.e-]+, [0-9.e-]+\\]\\}"
          ${_d}/lap10.mtx --solver cg --json --history)
solve_cli(history_text 0 "iteration  residual estimate\n +0  1.000000e\\+00\n +1  [0-9.e+-]+\n +2 .* +5  [0-9.e+-]+\n"
          ${_d}/lap10.mtx --solver cg --history)
# --out writes x, checked against the exact solution; --b FILE; --x0 the solution: 0 iterations
add_test(NAME cli.solve.out COMMAND sh -c "rm -f \"$2\"; \"$0\" solve \"$1\" --solver cg --tol 1e-14 --out \"$2\" >/dev/null 2>&1; echo \"exit=$?\"; cat \"$2\""
         $<TARGET_FILE:strata_cli> ${_d}/t3.mtx ${CMAKE_CURRENT_BINARY_DIR}/solve_cases/t3_out.mtx)
set_tests_properties(cli.solve.out PROPERTIES PASS_REGULAR_EXPRESSION "exit=0\n%%MatrixMarket matrix array real general\n3 1\n0.357142857142857[0-9]*\n0.428571428571428[0-9]*\n0.357142857142857[0-9]*\n")
solve_cli(b_file 0 "converged after [1-3] iterations?," ${_d}/t3.mtx --b ${_d}/t3_b.mtx --solver cg)
solve_cli(x0_exact 0 "converged after 0 iterations" ${_d}/t3.mtx --x0 ${_d}/t3_x.mtx --solver gmres --precond jacobi)
# the shared matrices: SPD ones under CG, unsymmetric ones under BiCGSTAB and GMRES
solve_cli(shared_bcsstk13 0 "2003 x 2003.*cg, preconditioner jacobi.*converged after [0-9]+ iterations"
          ${_sh}/suitesparse/LAGraph/bcsstk13.mtx --solver cg --precond jacobi --max-iter 5000)
solve_cli(shared_1138_bus 0 "cg, preconditioner ilu\\(1\\).*converged" ${_sh}/ginkgo/1138_bus.mtx --solver cg --precond iluk:1)
solve_cli(shared_trefethen 0 "converged" ${_sh}/cucheb/Trefethen_20.mtx --solver cg --precond l1-jacobi)
solve_cli(shared_ani4_bicgstab 0 "bicgstab, preconditioner ilu\\(0\\).*converged" ${_sh}/ginkgo/ani4.mtx --solver bicgstab --precond ilu0)
solve_cli(shared_ani4_ras 0 "gmres\\(20\\), preconditioner ras\\(4, overlap 1, ilu\\(0\\)\\).*4 partitions.*converged"
          ${_sh}/ginkgo/ani4.mtx --solver gmres --restart 20 --precond ras:4:1)
solve_cli(shared_ani4_fgmres 0 "fgmres\\(30\\), preconditioner bjacobi\\(8, ilu\\(1\\)\\).*converged" ${_sh}/ginkgo/ani4.mtx --solver fgmres --precond bjacobi:8:1)
# GMRES(30) stagnates on west0067 (restarted GMRES's classic case); the full basis (67) converges
solve_cli(shared_west0067 0 "gmres\\(67\\), preconditioner none.*converged after [0-9]+ iterations" ${_sh}/suitesparse/LAGraph/west0067_jumbled.mtx --restart 67)
solve_cli(shared_west0067_gmres30 3 "stagnation after [0-9]+ iterations" ${_sh}/suitesparse/LAGraph/west0067_jumbled.mtx)

# ---- exit 3: not converged, the status named
solve_cli(max_iter 3 "iteration limit after 3 iterations.*not converged: [^\n]*iteration limit after 3 iterations \\(max_iter 3\\)"
          ${_sh}/ginkgo/ani4.mtx --solver cg --max-iter 3)
solve_cli(max_iter_zero 3 "\"status\": \"iteration limit\", \"converged\": false, [^\n]*\"iterations\": 0, \"residual\": 1,"
          ${_d}/lap10.mtx --max-iter 0 --json)
solve_cli(breakdown 3 "breakdown \\(p..?Ap vanished\\) after 1 iteration,.*not converged: [^\n]*breakdown: p..?Ap vanished"
          ${_d}/indefinite.mtx --solver cg)
solve_cli(stagnation 3 "\"status\": \"stagnation\", \"converged\": false.*not converged: [^\n]*stagnation after [0-9]+ iterations"
          ${_sh}/ginkgo/ani4.mtx --solver bicgstab --precond ilu0 --tol 1e-18 --json)

# ---- exit 1: input errors
solve_cli(no_file 1 "no_such.mtx" ${_d}/no_such.mtx)
solve_cli(malformed 1 "price_1000.mtx:3: column index 0 is below 1" ${_sh}/t-fdp/price_1000.mtx)
solve_cli(not_square 1 "rect.mtx is 2 x 3: not square \\(rows 2, columns 3" ${_d}/rect.mtx)
solve_cli(not_square_shared 1 "empty.mtx is 3 x 4: not square" ${_sh}/suitesparse/LAGraph/empty.mtx)
solve_cli(nan_in_a 1 "A\\(1, 1\\) = nan \\(entry 1\\) is not finite" ${_d}/nan.mtx)
solve_cli(inf_in_b 1 "b\\[1\\] = inf is not finite" ${_d}/t3.mtx --b ${_d}/b3_inf.mtx)
solve_cli(b_length 1 "--b [^\n]*b2.mtx has 2 entries, A has 3 rows" ${_d}/t3.mtx --b ${_d}/b2.mtx)
solve_cli(x0_length 1 "--x0 [^\n]*b2.mtx has 2 entries, A has 3 rows" ${_d}/t3.mtx --x0 ${_d}/b2.mtx)
solve_cli(jacobi_zero_diag 1 "jacobi: row 1 has a zero diagonal" ${_d}/zero_diag.mtx --precond jacobi)
solve_cli(l1_jacobi_zero_diag 1 "l1-jacobi: row 1 has a zero diagonal" ${_d}/zero_diag.mtx --precond l1-jacobi)
solve_cli(jacobi_no_diag 1 "jacobi: row 1 has no diagonal entry" ${_d}/no_diag.mtx --precond jacobi)
solve_cli(ilu_no_diag 1 "ilu_create: row 1 has no stored diagonal" ${_d}/no_diag.mtx --precond ilu0)
solve_cli(ilu_no_diag_shared 1 "ilu_create: row 0 has no stored diagonal" ${_sh}/suitesparse/LAGraph/karate.mtx --precond iluk:2)
solve_cli(ilu_zero_pivot 1 "--precond ilu0: [^\n]*row 1" ${_d}/zero_pivot.mtx --precond ilu0)

# ---- exit 2: usage errors, each naming the value and the limit
solve_cli(help 0 "usage: strata solve A.mtx.*--precond +none" --help)
solve_cli(no_matrix 2 "usage: strata solve A.mtx" --solver cg)
solve_cli(two_matrices 2 "one matrix file only \\(second: [^\n]*t3.mtx\\)" ${_d}/t3.mtx ${_d}/t3.mtx)
solve_cli(unknown_option 2 "unknown option --bogus" ${_d}/t3.mtx --bogus)
solve_cli(missing_value 2 "option --tol needs a value" ${_d}/t3.mtx --tol)
solve_cli(unknown_solver 2 "--solver minres: unknown solver \\(cg, bicgstab, gmres, fgmres\\)" ${_d}/t3.mtx --solver minres)
solve_cli(unknown_precond 2 "unknown preconditioner 'mg'" ${_d}/t3.mtx --precond mg)
solve_cli(bad_backend 2 "--backend bogus: unknown backend 'bogus'" ${_d}/t3.mtx --backend bogus)
foreach(t 0 -1 inf nan abc 0x1p-3)
  solve_cli(tol_${t} 2 "--tol ${t}: must be a finite decimal number > 0" ${_d}/t3.mtx --tol ${t})
endforeach()
solve_cli(max_iter_negative 2 "--max-iter -1: must be an integer in \\[0, 2147483647\\]" ${_d}/t3.mtx --max-iter -1)
solve_cli(restart_zero 2 "--restart 0: must be an integer in \\[1, 10000\\]" ${_d}/t3.mtx --restart 0)
solve_cli(restart_cg 2 "--restart applies to --solver gmres and fgmres, not cg" ${_d}/t3.mtx --solver cg --restart 5)
solve_cli(parts_zero 2 "'bjacobi:0': the partitions P 0 is outside \\[1, 2147483647\\]" ${_d}/t3.mtx --precond bjacobi:0)
solve_cli(parts_above_rows 2 "num_parts = 5, above the limit 3 \\(the rows of A" ${_d}/t3.mtx --precond bjacobi:5)
solve_cli(ras_parts_above_rows 2 "num_parts = 4, above the limit 3" ${_d}/t3.mtx --precond ras:4:1)
solve_cli(overlap_negative 2 "'ras:2:-1': the overlap -1 is outside \\[0, 2147483647\\]" ${_d}/t3.mtx --precond ras:2:-1)
solve_cli(overlap_missing 2 "'ras:2': the overlap is missing" ${_d}/t3.mtx --precond ras:2)
solve_cli(fill_level 2 "'iluk:65': the fill level K 65 is outside \\[0, 64\\]" ${_d}/t3.mtx --precond iluk:65)
solve_cli(precond_colon 2 "'bjacobi:2:': nothing after the last ':'" ${_d}/t3.mtx --precond bjacobi:2:)
solve_cli(precond_huge 2 "'iluk:99999999999999999999': the fill level K 99999999999999999999 is outside \\[0, 64\\]" ${_d}/t3.mtx --precond iluk:99999999999999999999)
solve_cli(precond_trailing 2 "'bjacobi:2:1:3': unexpected '3' at the end" ${_d}/t3.mtx --precond bjacobi:2:1:3)

# ---- strata fem with the solver module (issue 27 item 6): --solver / --precond, --save-system
# handing the system to strata solve (the same CG + Jacobi: the same 23 iterations on box 6)
set(_sys ${CMAKE_CURRENT_BINARY_DIR}/solve_cases/fem_box6)
add_test(NAME cli.solve.fem_save_system COMMAND sh -c "rm -rf \"$1\"; \"$0\" fem --box 6 --backend serial --save-system \"$1\" 2>&1; echo \"exit=$?\"; ls \"$1\"; \"$0\" solve \"$1/A.mtx\" --b \"$1/b.mtx\" --solver cg --precond jacobi --tol 1e-10 --backend serial 2>&1; echo \"exit=$?\""
         $<TARGET_FILE:strata_cli> ${_sys})
set_tests_properties(cli.solve.fem_save_system PROPERTIES PASS_REGULAR_EXPRESSION
                     "CG \\(Jacobi\\) +23 iterations, converged.*exit=0\nA.mtx\nb.mtx\nu.mtx\n.*cg, preconditioner jacobi.*converged after 23 iterations.*exit=0\n")
function(fem_cli name code regex)
  add_test(NAME cli.solve.fem_${name} COMMAND sh -c "\"$0\" fem \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> ${ARGN})
  set_tests_properties(cli.solve.fem_${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}.*exit=${code}\n" TIMEOUT 300
                       ENVIRONMENT "OMP_WAIT_POLICY=passive")
endfunction()
fem_cli(default_json 0 "\"solver\": \"CG \\(Jacobi\\)\", \"iterations\": 23, \"converged\": true" --box 6 --json)
fem_cli(bicgstab_ilu0 0 "BICGSTAB \\(ilu\\(0\\)\\) +[0-9]+ iterations, converged" --box 6 --solver bicgstab --precond ilu0)
fem_cli(gmres_ras 0 "GMRES \\(ras\\(4, overlap 1, ilu\\(0\\)\\)\\) +[0-9]+ iterations, converged" --box 6 --solver gmres --restart 10 --precond ras:4:1)
fem_cli(cg_none 0 "\"solver\": \"CG \\(none\\)\", \"iterations\": [0-9]+, \"converged\": true" --box 6 --precond none --json)
fem_cli(max_iter 3 "\"iterations\": 5, \"converged\": false, \"stalled\": false.*CG \\(Jacobi\\) did not converge in 5 iterations" --box 6 --max-iter 5 --json)
fem_cli(unknown_solver 2 "--solver minres: unknown solver \\(cg, bicgstab, gmres, fgmres\\)" --box 6 --solver minres)
fem_cli(cg_amg 0 "CG \\(amg\\(hmis, ext\\+i, l1-jacobi, 1\\+1, V\\)\\) +[0-9]+ iterations, converged" --box 6 --precond amg)
fem_cli(unknown_precond 2 "--precond: unknown preconditioner 'mg'" --box 6 --precond mg)
fem_cli(bad_fill 2 "--precond: preconditioner 'iluk:99': the fill level K 99 is outside \\[0, 64\\]" --box 6 --precond iluk:99)
fem_cli(restart_cg 2 "--restart applies to --solver gmres and fgmres" --box 6 --restart 5)
fem_cli(save_system_unwritable 1 "--save-system /nonexistent/dir: cannot create the folder" --box 2 --save-system /nonexistent/dir)
# a break-it review: b near the largest double whose solution does not fit in a double (x = [2, 3,
# 3, 2]·1e308) was reported converged with x = inf; now non-finite, exit 3, for every method
file(WRITE ${_d}/lap4.mtx "${_mm} general\n4 4 10\n1 1 2\n1 2 -1\n2 1 -1\n2 2 2\n2 3 -1\n3 2 -1\n3 3 2\n3 4 -1\n4 3 -1\n4 4 2\n")
file(WRITE ${_d}/bhuge4.mtx "%%MatrixMarket matrix array real general\n4 1\n1e308\n1e308\n1e308\n1e308\n")
foreach(_m cg bicgstab gmres fgmres)
  solve_cli(x_beyond_double_${_m} 3 "non-finite after [0-9]+ iterations: x holds a NaN or an infinity" ${_d}/lap4.mtx --b ${_d}/bhuge4.mtx --solver ${_m})
endforeach()
# a break-it review: GMRES on singular matrices missed breakdowns at rounding level (exact-zero
# tests) and divided by noise: diag(1, 0, 1) gave x_1 = 1.1e16; S6's matrix ran 48 iterations.
# The breakdown tests are relative to the column's scale: both stop at the least reachable residual
file(WRITE ${_d}/diag101.mtx "${_mm} general\n3 3 2\n1 1 1\n3 3 1\n")
file(WRITE ${_d}/s6.mtx "${_mm} general\n2 2 1\n1 1 -1\n")
foreach(_m gmres fgmres)
  solve_cli(singular_diag101_${_m} 3 "breakdown \\(h\\(j\\+1,j\\) vanished\\) after 2 iterations, [^\n]* = 5.774e-01" ${_d}/diag101.mtx --solver ${_m})
  solve_cli(singular_s6_${_m} 3 "breakdown \\(h\\(j\\+1,j\\) vanished\\) after 2 iterations, [^\n]* = 7.071e-01" ${_d}/s6.mtx --solver ${_m})
endforeach()

# AMG (issue 28): `--precond amg[:OPTS]`, the hierarchy in the text and JSON reports, bad options
# named. poisson20.mtx: the 5-point Laplacian on a 20 x 20 grid (400 rows, 1920 entries).
set(_p2 "${_mm} symmetric\n400 400 1160\n")
foreach(y RANGE 0 19)
  foreach(x RANGE 0 19)
    math(EXPR i "${y} * 20 + ${x} + 1")
    string(APPEND _p2 "${i} ${i} 4\n")
    if(x GREATER 0)
      math(EXPR j "${i} - 1")
      string(APPEND _p2 "${i} ${j} -1\n")
    endif()
    if(y GREATER 0)
      math(EXPR j "${i} - 20")
      string(APPEND _p2 "${i} ${j} -1\n")
    endif()
  endforeach()
endforeach()
file(WRITE ${_d}/poisson20.mtx "${_p2}")
solve_cli(amg_lap10 0 "cg, preconditioner amg\\(hmis, ext\\+i, l1-jacobi, 1\\+1, V\\).*amg +1 levels, operator complexity 1.000.*converged after 1 iteration"
          ${_d}/lap10.mtx --solver cg --precond amg)
solve_cli(amg_poisson20 0 "preconditioner amg\\(pmis, ext\\+i, l1-jacobi, 1\\+1, W\\).*amg +[2-9] levels.*rows / entries: 400/1920 .*converged"
          ${_d}/poisson20.mtx --solver cg --precond amg:coarsen=pmis,interp=ext+i,smoother=l1-jacobi,cycle=w,coarse=10)
solve_cli(amg_json 0 "\"precond\": \"amg\\(hmis, ext\\+i, l1-jacobi, 1\\+1, V\\)\", .*\"amg\": \\{\"levels\": \\[\\{\"rows\": 400, \"nnz\": 1920, \"p_nnz\": [1-9][0-9]*\\}, \\{\"rows\": [0-9]+, .*\\], \"operator_complexity\": [0-9.]+, \"grid_complexity\": [0-9.]+, \"times_s\": \\{\"strength\": [0-9.e-]+, \"coarsen\": [0-9.e-]+, \"interp\": [0-9.e-]+, \"rap\": [0-9.e-]+, \"smoother\": [0-9.e-]+, \"coarse_solve\": [0-9.e-]+\\}\\}, \"tol\".*\"converged\": true"
          ${_d}/poisson20.mtx --solver cg --precond amg:coarse=10 --json)
solve_cli(amg_bad_theta 2 "--precond: AMG options: theta = '2' \\(must be a number in \\(0, 1\\)\\)" ${_d}/lap10.mtx --precond amg:theta=2)
solve_cli(amg_unknown 2 "--precond: AMG options: unknown name 'foo'" ${_d}/lap10.mtx --precond amg:foo=1)
