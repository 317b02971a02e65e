# H² matrices (strata/hmatrix.h, issue 30): the product against the dense one, convergence in p,
# every backend against serial, multi-vector, symmetry, degenerate point sets, EDGE_CASES Q1-Q8,
# bad input; user kernel functions (hmatrix_kernels.kl.c) through <strata/hmatrix_kl.h>.
strata_test(hmatrix SOURCES test_hmatrix.c)
target_include_directories(test_hmatrix PRIVATE ${PROJECT_SOURCE_DIR}/hmatrix/src) # h2_impl.h (compression tests)
strata_add_kernels(test_hmatrix SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/hmatrix_kernels.kl.c
  INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/hmatrix/include)

# `strata h2` end to end (issue 30 item 5): the report, the JSON object, the files it writes, every
# bad input named with its value and limit. h2_cli(<name> <exit> <regex> <args>...): passes when
# the output (stdout and stderr) matches <regex> and the tool exits with <exit>.
if(NOT TARGET strata_cli)
  return()
endif()
function(h2_cli name code regex)
  strata_cli_exit_test(h2 ${name} ${code} "${regex}" ${ARGN})
endfunction()
set(_h ${CMAKE_CURRENT_BINARY_DIR}/h2_cases)
file(MAKE_DIRECTORY ${_h})
set(_arr "%%MatrixMarket matrix array real general")
file(WRITE ${_h}/p5.mtx "${_arr}\n5 2\n0\n0.25\n0.5\n0.75\n1\n0\n1\n0\n1\n0\n")
file(WRITE ${_h}/x5.mtx "${_arr}\n5 2\n1\n1\n1\n1\n1\n0\n0\n0\n0\n2\n")
file(WRITE ${_h}/x4.mtx "${_arr}\n4 1\n1\n1\n1\n1\n")
file(WRITE ${_h}/nan.mtx "${_arr}\n3 2\n0\n1\n2\n0\nnan\n1\n")
file(WRITE ${_h}/shape.mtx "${_arr}\n3 4\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n")
file(WRITE ${_h}/empty.mtx "${_arr}\n0 2\n")

# ---- exit 0
h2_cli(text_2d 0 "3000 points in 2D, backend [a-z]+, kernel exp:0.1\n  tree +7 levels, leaf 64, eta 1;.*rank +64 \\(Chebyshev p = 8\\).*error +[0-9.]+e-(0[5-9]|1[0-9]) relative, against 100 exact rows"
       --points 2d:3000 --kernel exp:0.1)
h2_cli(json_3d 0 "^\\{\"n\": 1000, \"d\": 3, \"levels\": 5, \"leaf\": 64, \"cheb\": 5, \"rank\": 125, \"eta\": 0.75, \"kernel\": \"matern32\", \"length\": 0.5, \"vectors\": 3, \"backend\": \"serial\", \"coupling_blocks\": \\[0, [0-9, ]+\\], \"dense_blocks\": [0-9]+, \"storage_bytes\": \\{\"lowrank\": [0-9]+, \"dense\": [0-9]+, \"total\": [0-9]+\\}, \"times_s\": \\{\"points\": [0-9.e-]+, \"construction\": [0-9.e-]+, \"matvec_median\": [0-9.e-]+\\}, \"matvec_gbs\": [0-9.e+-]+, \"error\": [0-9.]+e-[0-9]+, \"error_rows\": 100\\}\n"
       --points grid3d:1000 --kernel matern32:0.5 --eta 0.75 --vectors 3 --x random:5 --backend serial --json)
# n below the leaf size: one dense leaf, the product exact (a 5 x 5 exp kernel on the file's points,
# X's columns ones and (0, 0, 0, 0, 2)); --out and --points-out written
add_test(NAME cli.h2.files COMMAND sh -c "rm -f \"$2\" \"$3\"; \"$0\" h2 --points \"$1\" --x \"$4\" --kernel gauss:1 --out \"$2\" --points-out \"$3\" 2>&1; echo \"exit=$?\"; cat \"$2\" \"$3\""
         $<TARGET_FILE:strata_cli> ${_h}/p5.mtx ${_h}/y5.mtx ${_h}/p5_out.mtx ${_h}/x5.mtx)
set_tests_properties(cli.h2.files PROPERTIES PASS_REGULAR_EXPRESSION
  "5 points in 2D.*1 levels.*0 coupling blocks, 1 dense blocks.*2 vectors.*error +[0-9.]+e(\\+00|-1[5-9]) relative, against 5 exact rows\nexit=0\n%%MatrixMarket matrix array real general\n5 2\n2.70188236397091[0-9]*\n2.67959367537645[0-9]*\n3.248783071296[0-9]*\n2.67959367537645[0-9]*\n2.70188236397091[0-9]*\n0.73575888234288[0-9]*\n.*%%MatrixMarket matrix array real general\n5 2\n0\n0.25\n0.5\n0.75\n1\n0\n1\n0\n1\n0\n$")
h2_cli(help 0 "usage: strata h2 --points SPEC" --help)

# ---- exit 1: input errors
h2_cli(nan_point 1 "nan.mtx: point 1 has coordinate 1 = nan \\(coordinates must be finite\\)" --points ${_h}/nan.mtx)
h2_cli(wrong_shape 1 "shape.mtx is 3 x 4: points must be n x d with d = 2 or 3" --points ${_h}/shape.mtx)
h2_cli(empty_file 1 "empty.mtx: no points \\(the file has 0 rows; at least 1 needed\\)" --points ${_h}/empty.mtx)
h2_cli(no_file 1 "no_such.mtx" --points ${_h}/no_such.mtx)
h2_cli(unknown_spec 1 "--points 4d:100: neither a generator \\(2d:N, 3d:N, grid2d:N, grid3d:N; '4d:' is none of them\\) nor a readable file" --points 4d:100)
h2_cli(x_length 1 "--x [^\n]*x4.mtx is a 4 x 1 array: X must be an n x NV array \\(n = 5" --points ${_h}/p5.mtx --x ${_h}/x4.mtx)

# ---- exit 2: usage errors, each naming the value and the limit
h2_cli(no_points 2 "no points: --points 2d:N\\|3d:N" --kernel exp:1)
h2_cli(zero_points 2 "--points 2d:0: no points \\(N must be at least 1\\)" --points 2d:0)
h2_cli(bad_count 2 "--points grid3d:x: N must be an integer in \\[1, " --points grid3d:x)
h2_cli(leaf_zero 2 "--leaf 0: must be an integer in \\[1, 2147483647\\]" --points 2d:10 --leaf 0)
h2_cli(cheb_zero 2 "--cheb 0: must be an integer in \\[1, 16\\]" --points 2d:10 --cheb 0)
h2_cli(cheb_17 2 "--cheb 17: must be an integer in \\[1, 16\\]" --points 2d:10 --cheb 17)
foreach(_e 0 -1 nan inf)
  h2_cli(eta_${_e} 2 "--eta ${_e}: must be a finite decimal number > 0" --points 2d:10 --eta ${_e})
endforeach()
h2_cli(length_zero 2 "--kernel exp:0: the length L '0' must be a finite decimal number > 0" --points 2d:10 --kernel exp:0)
h2_cli(length_negative 2 "--kernel gauss:-2: the length L '-2' must be" --points 2d:10 --kernel gauss:-2)
h2_cli(unknown_kernel 2 "--kernel cauchy:1: unknown kernel \\(exp:L, gauss:L, matern32:L\\)" --points 2d:10 --kernel cauchy:1)
h2_cli(vectors_zero 2 "--vectors 0: must be an integer in \\[1, 1024\\]" --points 2d:10 --vectors 0)
h2_cli(unknown_option 2 "unknown option --bogus" --points 2d:10 --bogus)
h2_cli(missing_value 2 "option --eta needs a value" --points 2d:10 --eta)
h2_cli(bad_backend 2 "--backend bogus: unknown backend 'bogus'" --points 2d:10 --backend bogus)

# ---- --compress EPS (strata_h2_compress): the ranks fall, the bytes they need shrink, the error
# stays near EPS; a bad EPS is a usage error naming it
h2_cli(compress_json 0 "\"rank\": 64, .*\"compression\": \\{\"eps\": 0.0001, \"ranks_before\": \\[0, 0, 64, 64, 64, 64, 64\\], \"ranks_after\": \\[0, 0, [1-5]?[0-9], [1-5]?[0-9], [1-5]?[0-9], [1-5]?[0-9], [1-5]?[0-9]\\], \"storage_bytes_after\": \\{\"lowrank\": [0-9]+, \"dense\": [0-9]+, \"total\": [0-9]+\\}, \"time_s\": [0-9.e-]+, \"gflops\": [0-9.e+-]+, \"norm_estimate\": [0-9.]+e\\+0[0-9], \"error_before\": [0-9.]+e-(0[5-9]|1[0-9])\\}, \"error\": ([0-9.]+e-0[5-9]|[1-2][.][0-9]+e-04), \"error_rows\": 100\\}\n"
       --points 2d:3000 --kernel exp:0.1 --compress 1e-4 --x random:3 --json --backend serial)
h2_cli(compress_text 0 "  compression eps 0.01: [0-9.]+ s, [0-9.]+ GFLOP/s; ranks per level 0->0 0->0 0->0 125->[0-9]+ 125->[0-9]+ 125->[0-9]+\n +low-rank [0-9.]+ MB with the new ranks; error before [0-9.]+e-0[3-9]\n.*error +([0-9.]+e-0[3-9]|[1-2][.][0-9]+e-02) relative"
       --points grid3d:4096 --kernel exp:0.3 --compress 1e-2 --x random:1)
h2_cli(compress_large 0 "\"ranks_after\": \\[0, 0, 0, 0\\], \"storage_bytes_after\": \\{\"lowrank\": 0," --points 2d:300 --compress 3 --json --backend serial)
foreach(_e 0 -1e-3 nan inf x)
  h2_cli(compress_${_e} 2 "--compress ${_e}: EPS must be a finite decimal number > 0" --points 2d:10 --compress ${_e})
endforeach()
h2_cli(compress_missing 2 "option --compress needs a value" --points 2d:10 --compress)
