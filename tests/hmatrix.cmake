# H² matrices (strata/hmatrix.h, issue 30): the product against the dense one, convergence in p,
# every backend against serial, multi-vector, symmetry, degenerate point sets, EDGE_CASES Q1-Q8,
# bad input; user kernel functions (hmatrix_kernels.kl.c) through <strata/hmatrix_kl.h>.
strata_test(hmatrix SOURCES test_hmatrix.c)
strata_add_kernels(test_hmatrix SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/hmatrix_kernels.kl.c
  INCLUDE_DIRECTORIES ${PROJECT_SOURCE_DIR}/hmatrix/include)
