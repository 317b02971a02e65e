# `strata bench` end to end on the host backends (issue 6): every suite, small sizes; the harness
# cannot rot. Performance is never asserted: the test passes when every result was checked
# against serial and timed (the summary's last line).
if(TARGET strata_cli)
  add_test(NAME cli.bench.quick COMMAND strata_cli bench all --quick --backend openmp --backend serial)
  set_tests_properties(cli.bench.quick PROPERTIES TIMEOUT 120 ENVIRONMENT "OMP_WAIT_POLICY=passive"
    PASS_REGULAR_EXPRESSION "strata bench: [0-9]+ results, [0-9]+ checked and timed, 0 wrong, 0 errors")
endif()
