# Krylov methods, operators and the Jacobi preconditioners (strata/krylov.h, operator.h,
# precond.h): every backend against serial, manufactured solutions, shared matrices, EDGE_CASES
# S1-S8, user operators and preconditioners, FGMRES with a variable preconditioner, bad input.
strata_test(krylov SOURCES test_krylov.c)
get_filename_component(_strata_kry_matrices "${PROJECT_SOURCE_DIR}/../shared/matrices" ABSOLUTE)
target_compile_definitions(test_krylov PRIVATE STRATA_TEST_MATRICES="${_strata_kry_matrices}")
