# The harness's dist suite (perf/suite_dist.c) under mpirun, in builds with MPI only: `strata bench
# dist --quick` on 1, 2 and 3 ranks (the serial and OpenMP backends, one thread per rank), every
# record checked and timed, the three SpMV modes among them, the hand-made CG iteration (checked
# against a host CG), hypre's ParCSR matvec where the build has hypre, the FE assembly records
# with and without bulk nodes and Tpetra's FE assembly where the build has Tpetra (both checked
# against the host assembly of the same mesh). Performance is never
# asserted. Uses tests/dist.cmake's mpirun flags and environment (_strata_mpi_flags,
# _strata_mpi_env): this file is included after it (tests/CMakeLists.txt includes the *.cmake
# files in sorted order). Without MPI: `strata bench dist` says that the build has none (exit 2).
if(TARGET strata_cli AND STRATA_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  get_property(_dist_bench_hypre GLOBAL PROPERTY STRATA_BENCH_HYPRE)
  set(_re "\"algorithm\": \"strata_vector\", \"status\": \"ok\".*\"algorithm\": \"strata_overlap\", \"status\": \"ok\"[^\n]*\"bitwise_equal_vector\": true.*\"algorithm\": \"strata_task\", \"status\": \"ok\"[^\n]*\"bitwise_equal_vector\": true.*\"algorithm\": \"cg_iteration\", \"status\": \"ok\"[^\n]*\"check_max_rel_diff\".*\"algorithm\": \"cg_jacobi\", \"status\": \"ok\".*\"algorithm\": \"cg_ras\", \"status\": \"ok\"")
  if(_dist_bench_hypre)
    string(APPEND _re ".*\"algorithm\": \"hypre_parcsr_matvec\", \"status\": \"ok\"")
  endif()
  # the FE assembly records (perf/suite_dist_fem.c), each input's matrix checked against the host
  # assembly before its phases are timed; Tpetra's FECrsMatrix peer beside them where it is built
  get_property(_dist_bench_tpetra GLOBAL PROPERTY STRATA_BENCH_TPETRA)
  foreach(_mesh box8 box8_bulk4)
    foreach(_algo fe_assembly fe_element fe_pack fe_exchange fe_unpack_combine)
      string(APPEND _re ".*\"name\": \"${_mesh}\", \"algorithm\": \"${_algo}\", \"status\": \"ok\"[^\n]*\"entries_combined\": [1-9][0-9]*, \"dist_invalid\": 0, \"check_matrix_diff\"")
    endforeach()
    if(_dist_bench_tpetra)
      string(APPEND _re ".*\"name\": \"${_mesh}\", \"algorithm\": \"tpetra_fe_assembly\", \"status\": \"ok\"[^\n]*\"check_matrix_diff\"")
    endif()
  endforeach()
  foreach(np 1 2 3)
    if(np EQUAL 1)
      set(_skipped "[1-9][0-9]*") # one rank: no off-diagonal block (phase_offdiag skipped, said why)
    else()
      set(_skipped "0")
    endif()
    add_test(NAME cli.bench.dist_quick.np${np}
             COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np}
                     ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS}
                     bench dist --quick --backend serial --backend openmp)
    set_tests_properties(cli.bench.dist_quick.np${np} PROPERTIES TIMEOUT 300 PROCESSORS ${np}
      ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
      PASS_REGULAR_EXPRESSION "${_re}.*== dist: distributed SpMV on ${np} rank.*== dist: FE assembly on ${np} rank.*strata bench: [0-9]+ results, [0-9]+ checked and timed, 0 wrong, 0 errors, ${_skipped} skipped.*exit=0")
  endforeach()
  # --partition auto (METIS where the build has it): the rows partitioned and renumbered on rank 0
  # (--no-fe: no FE assembly records, no FE table),
  # every record checked against the renumbered matrix's reference; a weak-scaling box
  # (laplace7:MX:MY:MZ) and the HMEp-like matrix, whose three CG records are skipped (not symmetric)
  add_test(NAME cli.bench.dist_partition.np2
           COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2
                   ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS}
                   bench dist --quick --backend serial --partition auto --no-fe --matrix gen:laplace7:6:6:12 --matrix gen:hmep:3000:500)
  set_tests_properties(cli.bench.dist_partition.np2 PROPERTIES TIMEOUT 120 PROCESSORS 2
    ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1" FAIL_REGULAR_EXPRESSION "fe_assembly;== dist: FE assembly"
    PASS_REGULAR_EXPRESSION "\"name\": \"laplace7_6x6x12\", \"algorithm\": \"strata_vector\", \"status\": \"ok\", \"rows\": 432, \"cols\": 432, \"nnz\": 2664,[^\n]*\"partition\": \"(metis|block)\".*\"algorithm\": \"strata_task\", \"status\": \"ok\"[^\n]*\"bitwise_equal_vector\": true.*\"algorithm\": \"cg_ras\", \"status\": \"ok\".*\"name\": \"hmep_3000_seg500\", \"algorithm\": \"strata_vector\", \"status\": \"ok\".*\"algorithm\": \"cg_jacobi\", \"status\": \"skipped\"[^\n]*not stored.*partition auto.*strata bench: [0-9]+ results, [0-9]+ checked and timed, 0 wrong, 0 errors, 3 skipped.*exit=0")
  # --partition and --no-fe: the dist suite's only (refused for another suite); block, metis or auto
  add_test(NAME cli.bench.no_fe_not_for_suite COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
           bench unpack --quick --no-fe)
  set_tests_properties(cli.bench.no_fe_not_for_suite PROPERTIES
    PASS_REGULAR_EXPRESSION "--no-fe applies to the dist suite, not unpack.*exit=2")
  add_test(NAME cli.bench.partition_not_for_suite COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
           bench spmv --quick --partition metis)
  set_tests_properties(cli.bench.partition_not_for_suite PROPERTIES
    PASS_REGULAR_EXPRESSION "--partition applies to the dist suite, not spmv.*exit=2")
  add_test(NAME cli.bench.partition_bad COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli>
           bench dist --quick --partition rcb)
  set_tests_properties(cli.bench.partition_bad PROPERTIES
    PASS_REGULAR_EXPRESSION "--partition rcb: block, metis or auto.*exit=2")
  # under several ranks only the dist suite runs: the others are refused on every rank (exit 2)
  add_test(NAME cli.bench.dist_other_suites.np2
           COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2
                   ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS} bench all --quick)
  set_tests_properties(cli.bench.dist_other_suites.np2 PROPERTIES TIMEOUT 120 PROCESSORS 2
    ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
    PASS_REGULAR_EXPRESSION "under mpirun with 2 ranks only the dist suite runs \\(the stream suite is single-process.*exit=[1-9]")
  # a single-process suite alone under mpirun (the dist suite not asked for): refused before it runs
  add_test(NAME cli.bench.single_suite.np2
           COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2
                   ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS} $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS} bench stream --quick)
  set_tests_properties(cli.bench.single_suite.np2 PROPERTIES TIMEOUT 120 PROCESSORS 2
    ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
    PASS_REGULAR_EXPRESSION "under mpirun with 2 ranks only the dist suite runs \\(the stream suite is single-process.*exit=[1-9]"
    FAIL_REGULAR_EXPRESSION "GB/s")
elseif(TARGET strata_cli AND NOT STRATA_HAVE_MPI)
  add_test(NAME cli.bench.dist_no_mpi COMMAND sh -c "\"$0\" \"$@\" 2>&1; echo \"exit=$?\"" $<TARGET_FILE:strata_cli> bench dist --quick)
  set_tests_properties(cli.bench.dist_no_mpi PROPERTIES
    PASS_REGULAR_EXPRESSION "the dist suite needs MPI, and this build has none.*exit=2")
endif()
