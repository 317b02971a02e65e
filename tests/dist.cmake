# The dist/ module (strata/dist.h) under mpirun, built only with MPI (STRATA_HAVE_MPI): maps,
# plans and reductions (test_dist), the distributed CrsMatrix and SpMV modes (test_dist_crs), the
# Krylov methods and preconditioners over ranks (test_dist_solve), each
# on every compiled backend with 1, 2, 3 and 4 ranks (oversubscribed on small machines):
# <topic>.np<N>.<backend> (the backend last, as in every test's name: scripts/test selects by it).
# Once more test_dist_crs's task-mode test with MPI started at MPI_THREAD_FUNNELED (refused,
# EDGE_CASES D13). Ranks use one OpenMP thread each (two on one
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
  foreach(topic dist dist_crs dist_solve)
    add_executable(test_${topic} test_${topic}.c test_dist_common.c)
    target_link_libraries(test_${topic} PRIVATE strata_test_common strata_dist)
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
  add_test(NAME dist_crs.funneled.${_be0}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${_strata_mpi_flags} ${MPIEXEC_PREFLAGS}
                   $<TARGET_FILE:test_dist_crs> ${MPIEXEC_POSTFLAGS} ${_be0} test_task_mode_thread_level)
  set_tests_properties(dist_crs.funneled.${_be0} PROPERTIES TIMEOUT 300 PROCESSORS 2
                       ENVIRONMENT "${_strata_mpi_env};OMP_NUM_THREADS=1;STRATA_TEST_MPI_THREAD=funneled"
                       PASS_REGULAR_EXPRESSION "task mode refused as expected: rank 0: dist spmv: task mode needs MPI_THREAD_SERIALIZED.*MPI granted MPI_THREAD_FUNNELED.*1 test\\(s\\)")
endif()
