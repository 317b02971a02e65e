# The batched dense kernels of hmatrix/ (strata/batched.h): GEMM / GEMV against naive loops, QR and
# the Jacobi SVD against their defining identities and against LAPACKE (dgeqrf, dgesvd) when
# Debian's liblapacke-dev is found; without it those comparisons are skipped, visibly (the test
# prints it), and everything else runs.
strata_test(batched SOURCES test_batched.c LIBS strata_hmatrix)
target_include_directories(test_batched PRIVATE ${PROJECT_SOURCE_DIR}/hmatrix/src) # batched_impl.h
find_path(STRATA_LAPACKE_INCLUDE_DIR lapacke.h)
find_library(STRATA_LAPACKE_LIBRARY lapacke)
find_library(STRATA_LAPACK_LIBRARY lapack)
if(STRATA_LAPACKE_INCLUDE_DIR AND STRATA_LAPACKE_LIBRARY AND STRATA_LAPACK_LIBRARY)
  target_compile_definitions(test_batched PRIVATE STRATA_TEST_HAVE_LAPACKE=1)
  target_include_directories(test_batched PRIVATE ${STRATA_LAPACKE_INCLUDE_DIR})
  target_link_libraries(test_batched PRIVATE ${STRATA_LAPACKE_LIBRARY} ${STRATA_LAPACK_LIBRARY})
  message(STATUS "strata: test_batched compares with LAPACKE (${STRATA_LAPACKE_LIBRARY})")
else()
  message(STATUS "strata: no LAPACKE (Debian: liblapacke-dev): test_batched skips its LAPACK comparisons")
endif()
