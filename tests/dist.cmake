# The dist/ module (strata/dist.h) under mpirun, built only with MPI (STRATA_HAVE_MPI): maps,
# plans and reductions (test_dist), the distributed CrsMatrix and SpMV modes (test_dist_crs), the
# Krylov methods and preconditioners over ranks (test_dist_solve), each
# on every compiled backend with 1, 2, 3 and 4 ranks (oversubscribed on small machines):
# <topic>.np<N>.<backend> (the backend last, as in every test's name: scripts/test selects by it).
# Once more the task-mode tests of test_dist_crs and test_dist_solve with MPI started at
# MPI_THREAD_FUNNELED (refused, EDGE_CASES D13); `mpirun -np 2 strata solve` (cli.solve.mpi.*). Ranks use one OpenMP thread each (two on one
# rank) and wait passively: the CI machine has 2 cores for 4 ranks and ctest -j2.
if(STRATA_HAVE_MPI AND NOT MPIEXEC_EXECUTABLE)
  message(WARNING "strata: MPI found but no mpiexec / mpirun (Debian: openmpi-bin): the dist tests are not registered")
elseif(STRATA_HAVE_MPI)
  get_filename_component(_strata_dist_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
  # OpenMPI: --oversubscribe (more ranks than cores), running as root allowed (CI containers), the
  # shared-memory transport without its cross-memory-attach copies (ptrace is often barred in
  # containers), components kept loaded so that LeakSanitizer names the frames of MPI's own leaks
  # (tests/lsan.supp), and the full unwinder for that (asan preset; ignored elsewhere)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _strata_mpiexec_version ERROR_QUIET)
  set(_strata_mpi_flags "")
  set(_strata_mpi_env "OMP_WAIT_POLICY=passive;ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0")
  if(_strata_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(_strata_mpi_flags --oversubscribe)
    list(APPEND _strata_mpi_env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
         OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mca_base_component_disable_dlclose=1
         OMPI_MCA_rmaps_base_oversubscribe=1)
  endif()
  foreach(topic dist dist_crs dist_fem dist_solve)
    add_executable(test_${topic} test_${topic}.c test_dist_common.c)
    target_link_libraries(test_${topic} PRIVATE strata_test_common strata_dist)
    if(topic STREQUAL "dist_fem") # partitions, packets, export of rows and the FEM job's distributed assembly
      target_link_libraries(test_${topic} PRIVATE strata_fem)
    endif()
    target_compile_definitions(test_${topic} PRIVATE STRATA_TEST_MATRICES="${_strata_dist_matrices}")
    foreach(be IN LISTS STRATA_BACKENDS)
      foreach(np 1 2 3 4)
        if(np EQUAL 1)
          set(_omp 2)
        else()
          set(_omp 1)
        endif()
        add_test(NAME ${topic}.np${np}.${be}
                 COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS}
                         $<TARGET_FILE:test_${topic}> ${MPIEXEC_POSTFLAGS} ${be})
        set_tests_properties(${topic}.np${np}.${be} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 PROCESSORS ${np}
                             ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=${_omp}")
      endforeach()
    endforeach()
  endforeach()
  list(GET STRATA_BACKENDS 0 _be0)
  # once more each topic's task-mode test with MPI started at MPI_THREAD_FUNNELED (refused, D13):
  # the SpMV's refusal (dist_crs) and the distributed operator's (dist_solve)
  foreach(topic dist_crs dist_solve)
    if(topic STREQUAL "dist_crs")
      set(_who "dist spmv")
    else()
      set(_who "dist operator")
    endif()
    add_test(NAME ${topic}.funneled.${_be0}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:test_${topic}> ${MPIEXEC_POSTFLAGS} ${_be0} test_task_mode_thread_level)
    set_tests_properties(${topic}.funneled.${_be0} PROPERTIES TIMEOUT 300 PROCESSORS 2
                         ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1;STRATA_TEST_MPI_THREAD=funneled"
                         PASS_REGULAR_EXPRESSION "task mode refused as expected: rank 0: ${_who}: task mode needs MPI_THREAD_SERIALIZED.*MPI granted MPI_THREAD_FUNNELED.*1 test\\(s\\)")
  endforeach()
  # The command line under mpirun -np 2: the FEM job's distributed assembly (bulk nodes, compared with
  # the single-rank assembly on rank 0, solved there), and the distributed SpMV (rank 0 reads, y
  # gathered) against the single-rank `strata spmv` of the same file, in every mode and partition
  if(TARGET strata_cli)
    add_test(NAME cli.dist.fem.np2
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS}
                     $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS} fem --box 4 --bulk-nodes 2 --backend ${_be0} --json)
    set_tests_properties(cli.dist.fem.np2 PROPERTIES TIMEOUT 300 PROCESSORS 2
                         ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
                         PASS_REGULAR_EXPRESSION "\"converged\": true.*\"matrix_max_rel_diff_vs_serial\": ([0-9.]+e-(1[2-9]|[2-9][0-9])|0.000000e\\+00).*\"unpack_invalid_entries\": 0.*\"ranks\": 2, \"partitioner\": \"(metis|block)\", \"invalid_entries_all_ranks\": 0, \"bytes_exchanged\": [1-9][0-9]*, \"per_rank\": \\[\\{\"rank\": 0, \"device\": 0,.*\"rank\": 1, \"device\": 0,.*\"unpack_combine\"")
    # the default mesh (Gmsh) under mpirun: rank 0 meshes, the others receive its mesh (Gmsh does
    # not mesh the same way twice: each rank meshing alone failed the same-mesh check)
    if(STRATA_WITH_GMSH AND GMSH_INCLUDE_DIR AND GMSH_LIBRARY)
      add_test(NAME cli.dist.fem.gmsh_np2
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS}
                       $<TARGET_FILE:strata_cli> ${MPIEXEC_POSTFLAGS} fem --h 0.25 --backend ${_be0} --json)
      set_tests_properties(cli.dist.fem.gmsh_np2 PROPERTIES TIMEOUT 300 PROCESSORS 2
                           ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
                           PASS_REGULAR_EXPRESSION "\"converged\": true.*\"matrix_max_rel_diff_vs_serial\": ([0-9.]+e-(1[2-9]|[2-9][0-9])|0.000000e\\+00).*\"ranks\": 2, ")
    endif()
    # the distributed solve (CG + Jacobi over the ranks) on 1, 2, 3, 4 ranks, block and METIS
    # partitions, bulk nodes: iterations within 2 of the single-rank run, ||u|| within 1e-8
    add_test(NAME cli.dist.fem.solve
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/dist_fem_cli.sh $<TARGET_FILE:strata_cli> ${MPIEXEC_EXECUTABLE}
                     "${_strata_mpi_flags}" ${_be0} --box 10 --bulk-nodes 2 --no-compare)
    set_tests_properties(cli.dist.fem.solve PROPERTIES TIMEOUT 300 PROCESSORS 2
                         ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
                         PASS_REGULAR_EXPRESSION "np 4 auto: [0-9]+ iterations.*every rank count matches the single-rank solve")
    add_test(NAME cli.dist.spmv.np2
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/dist_spmv_cli.sh $<TARGET_FILE:strata_cli> ${MPIEXEC_EXECUTABLE}
                     "${_strata_mpi_flags}" ${_strata_dist_matrices}/ginkgo/ani4.mtx ${CMAKE_CURRENT_BINARY_DIR}/cli_dist_spmv ${_be0})
    set_tests_properties(cli.dist.spmv.np2 PROPERTIES TIMEOUT 300 PROCESSORS 2 SKIP_RETURN_CODE 77
                         ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
                         PASS_REGULAR_EXPRESSION "\"ranks\": 2, \"dist_mode\": \"task\", \"partition\": \"(metis|block)\".*halo_send_bytes.*all modes equal the single-rank y")
    # bad input under mpirun: refused on every rank with the same exit code (2), no hang
    add_test(NAME cli.dist.spmv.bad_mode
             COMMAND sh -c "${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} $<TARGET_FILE:strata_cli> spmv ${_strata_dist_matrices}/ginkgo/ani4.mtx --dist-mode bogus 2>&1; echo exit=$?")
    add_test(NAME cli.dist.fem.bad_partition
             COMMAND sh -c "${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} $<TARGET_FILE:strata_cli> fem --box 2 --partition bogus 2>&1; echo exit=$?")
    # more ranks than rows: --partition auto on a 3-row matrix over 4 ranks, and the generated box
    # mesh of 8 nodes over 9 ranks: refused on every rank (exit 1), naming the ranks, the rows and
    # the limit, no hang
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/dist_t3.mtx "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 -1\n3 3 4\n")
    add_test(NAME cli.dist.spmv.more_ranks_than_rows
             COMMAND sh -c "o=$(${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 4 ${_strata_mpi_flags} $<TARGET_FILE:strata_cli> spmv ${CMAKE_CURRENT_BINARY_DIR}/dist_t3.mtx --partition auto 2>&1); rc=$?; echo \"$o\"; echo ranks_refusing=$(echo \"$o\" | grep -c 'must lie in') exit=$rc")
    add_test(NAME cli.dist.fem.more_ranks_than_nodes
             COMMAND sh -c "o=$(${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 9 ${_strata_mpi_flags} $<TARGET_FILE:strata_cli> fem --box 1 --no-compare 2>&1); rc=$?; echo \"$o\"; echo ranks_refusing=$(echo \"$o\" | grep -c 'must lie in') exit=$rc")
    set_tests_properties(cli.dist.spmv.more_ranks_than_rows PROPERTIES PASS_REGULAR_EXPRESSION
                         "rank 0: dist partition \\(auto\\): 4 ranks for the 3 rows of A: the partition count \\(the ranks\\) must lie in \\[1, 3\\].*ranks_refusing=4 exit=1")
    set_tests_properties(cli.dist.fem.more_ranks_than_nodes PROPERTIES PASS_REGULAR_EXPRESSION
                         "the mesh has 8 nodes \\(0 bulk nodes included\\), fewer than the 9 ranks: rank 0: dist partition \\(auto\\): 9 ranks for the 8 rows of A.*must lie in \\[1, 8\\].*ranks_refusing=9 exit=1")
    set_tests_properties(cli.dist.spmv.bad_mode cli.dist.fem.bad_partition cli.dist.spmv.more_ranks_than_rows
                         cli.dist.fem.more_ranks_than_nodes PROPERTIES TIMEOUT 120 PROCESSORS 2
                         ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1")
    set_tests_properties(cli.dist.spmv.bad_mode PROPERTIES PASS_REGULAR_EXPRESSION
                         "--dist-mode bogus: .*vector.*--dist-mode bogus: .*exit=2")
    set_tests_properties(cli.dist.fem.bad_partition PROPERTIES PASS_REGULAR_EXPRESSION
                         "--partition bogus: dist partitioner 'bogus': one of block, metis, auto.*--partition bogus.*exit=2")
  endif()
endif()

# `mpirun -np 2 strata solve` end to end (issue 29 item 7): rank 0 reads and distributes, every
# rank solves its rows, x gathered for --out (checked against the exact solution), JSON with the
# ranks and the time per iteration, the three SpMV modes, the two-level RAS, a preconditioner
# that does not run across ranks refused on every rank with the usage exit code, one rank as
# without mpirun. cli.solve.mpi.<name>: passes when the output matches and mpirun exits <code>.
if(STRATA_HAVE_MPI AND MPIEXEC_EXECUTABLE AND TARGET strata_cli)
  set(_md ${CMAKE_CURRENT_BINARY_DIR}/solve_mpi_cases)
  file(MAKE_DIRECTORY ${_md})
  # [4 -1 0; -1 4 -1; 0 -1 4] x = ones: x = (5/14, 3/7, 5/14)
  file(WRITE ${_md}/t3.mtx "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 -1\n3 3 4\n")
  function(solve_mpi_cli name np code regex)
    add_test(NAME cli.solve.mpi.${name}
             COMMAND sh -c "s=\"$1\"; shift; \"$0\" ${MPIEXEC_NUMPROC_FLAG} ${np} ${_strata_mpi_flags} \"$s\" solve \"$@\" 2>&1; echo \"exit=$?\""
                     ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:strata_cli> ${ARGN})
    set_tests_properties(cli.solve.mpi.${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}.*exit=${code}\n" TIMEOUT 300
                         PROCESSORS ${np} ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1")
  endfunction()
  set(_bus ${_strata_dist_matrices}/ginkgo/1138_bus.mtx)
  foreach(mode vector overlap task)
    solve_mpi_cli(cg_jacobi_${mode} 2 0
                  "1138 x 1138, 4054 entries, backend [a-z]+, 2 ranks \\(block rows\\), SpMV ${mode} mode\n  method +cg, preconditioner jacobi\n  result +converged after 10[0-9][0-9] iterations"
                  ${_bus} --solver cg --precond jacobi --max-iter 5000 --dist-mode ${mode})
  endforeach()
  solve_mpi_cli(json 2 0
                "^\\{\"matrix\": \"[^\"]*t3.mtx\", \"backend\": \"[a-z]+\", \"ranks\": 2, \"devices\": \\[0, 0\\], \"dist_mode\": \"overlap\", \"rows\": 3, \"nnz\": 7, \"solver\": \"gmres\", \"restart\": 30, \"precond\": \"l1-jacobi\", \"outer_overlap\": null, \"halo_bytes_per_spmv\": 16, .*\"status\": \"converged\", .*\"times_s\": \\{\"read\": [0-9.e-]+, \"distribute\": [0-9.e-]+, \"operator\": [0-9.e-]+, \"precond_setup\": [0-9.e-]+, \"solve_setup\": [0-9.e-]+, \"solve\": [0-9.e-]+, \"per_iteration\": [0-9.e-]+, \"total\": [0-9.e-]+\\}\\}\n"
                ${_md}/t3.mtx --precond l1-jacobi --dist-mode overlap --tol 1e-12 --json)
  add_test(NAME cli.solve.mpi.out
           COMMAND sh -c "rm -f \"$3\"; \"$0\" ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} \"$1\" solve \"$2\" --solver cg --tol 1e-14 --out \"$3\" >/dev/null 2>&1; echo \"exit=$?\"; cat \"$3\""
                   ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:strata_cli> ${_md}/t3.mtx ${_md}/t3_out.mtx)
  set_tests_properties(cli.solve.mpi.out PROPERTIES PROCESSORS 2 ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1"
                       PASS_REGULAR_EXPRESSION "exit=0\n%%MatrixMarket matrix array real general\n3 1\n0.357142857142857[0-9]*\n0.428571428571428[0-9]*\n0.357142857142857[0-9]*\n")
  solve_mpi_cli(ras_two_level 2 0 "preconditioner ras\\(ranks, outer overlap 2; ras\\(2, overlap 1, ilu\\(1\\)\\)\\)\n  result +converged"
                ${_bus} --solver gmres --precond ras:2:1:1 --outer-overlap 2)
  solve_mpi_cli(bjacobi 2 0 "preconditioner bjacobi\\(1, ilu\\(0\\)\\)\n  result +converged" ${_bus} --solver cg --precond bjacobi:1)
  solve_mpi_cli(ilu_refused 2 2 "rank 0 of 2: --precond ilu0 is not supported across ranks.*rank 0 of 2: --precond ilu0 is not supported"
                ${_bus} --precond ilu0)
  solve_mpi_cli(amg_refused 2 2 "--precond amg is not supported across ranks" ${_bus} --precond amg)
  solve_mpi_cli(mode_unknown 2 2 "--dist-mode: .*diagonal" ${_bus} --dist-mode diagonal)
  # (stdout and stderr reach mpirun separately: either order)
  solve_mpi_cli(not_converged 2 3 "(iteration limit after 5 iterations.*not converged: .*iteration limit|not converged: .*iteration limit.*iteration limit after 5 iterations)"
                ${_bus} --solver cg --max-iter 5)
  solve_mpi_cli(not_square 2 1 "rank 0 of 2: .*rect.mtx is 2 x 3: not square" ${CMAKE_CURRENT_BINARY_DIR}/solve_cases/rect.mtx)
  set(_sc ${CMAKE_CURRENT_BINARY_DIR}/solve_cases)
  solve_mpi_cli(b_file 2 0 "2 ranks.*converged after [1-3] iterations?," ${_sc}/t3.mtx --b ${_sc}/t3_b.mtx --solver cg)
  solve_mpi_cli(x0_exact 2 0 "converged after 0 iterations" ${_md}/t3.mtx --x0 ${_sc}/t3_x.mtx --precond jacobi)
  solve_mpi_cli(b_length 2 1 "rank 0 of 2: --b [^ ]*b2.mtx has 2 entries, A has 3 rows" ${_md}/t3.mtx --b ${_sc}/b2.mtx)
  solve_mpi_cli(zero_diag 2 1 "rank 0 of 2: --precond jacobi: STRATA_ERR_INVALID_DATA: rank 0: jacobi: row 1 has a zero diagonal"
                ${_sc}/zero_diag.mtx --precond jacobi)
  solve_mpi_cli(nan 2 1 "rank 0 of 2: .*nan.mtx: INVALID_DATA: A\\(1, 1\\) = nan" ${_sc}/nan.mtx)
  # one rank: the single-process solve, its output as without mpirun
  solve_mpi_cli(one_rank 1 0 "1138 x 1138, 4054 entries, backend [a-z]+\n  method +cg, preconditioner jacobi \\(1138 entries\\)"
                ${_bus} --solver cg --precond jacobi --max-iter 5000 --dist-mode task)
endif()
