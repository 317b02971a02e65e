# MINLOC / MAXLOC range reductions (issue 3): every loc type, ties, identities, NaNs, sizes up to
# 2^20+3, refused op / type combinations. OpenMP also with 3 threads (uneven chunks: ties across
# chunk boundaries).
strata_test(reduce_loc SOURCES test_reduce_loc.c KERNELS reduce_loc_kernels.kl.c)
if(openmp IN_LIST STRATA_BACKENDS)
  add_test(NAME reduce_loc.openmp.t3 COMMAND test_reduce_loc openmp)
  set_tests_properties(reduce_loc.openmp.t3 PROPERTIES ENVIRONMENT OMP_NUM_THREADS=3 TIMEOUT 600)
endif()
