# The main job end to end on every backend (structured and saved meshes; no Gmsh needed).
strata_test(fem SOURCES test_fem.c LIBS strata_fem)
# The command-line tool itself, on the host backends.
foreach(be serial openmp)
  add_test(NAME cli.fem.${be} COMMAND strata_cli fem --box 6 --backend ${be})
  set_tests_properties(cli.fem.${be} PROPERTIES PASS_REGULAR_EXPRESSION "CG \\(Jacobi\\) +[0-9]+ iterations, converged")
endforeach()
add_test(NAME cli.info COMMAND strata_cli info --json)
set_tests_properties(cli.info PROPERTIES PASS_REGULAR_EXPRESSION "\"backends\": \\[\\{\"name\": \"serial\", \"compiled\": true")
add_test(NAME cli.fem.bad_option COMMAND strata_cli fem --h -1)
set_tests_properties(cli.fem.bad_option PROPERTIES WILL_FAIL TRUE)
