# Core patterns (range for / reduce / scan, team policy, scratch, atomics, sort, memory, errors).
strata_test(core SOURCES test_core.c KERNELS core_kernels.kl.c)
# OpenMP's reductions and scans cut the range by the exec's thread count, not by the threads
# OpenMP grants: the same results with OMP_THREAD_LIMIT=1 (test_reduce_chunks_f64 replays them)
if(openmp IN_LIST STRATA_BACKENDS)
  add_test(NAME core.openmp.thread_limit COMMAND test_core openmp)
  set_tests_properties(core.openmp.thread_limit PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=3;OMP_THREAD_LIMIT=1")
endif()
